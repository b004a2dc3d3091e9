/* Workers dispatch a fixed list of operations through a table of function pointers
 * (struct op_entry { const char *name; long (*fn)(long, long); }). Each worker writes only
 * its own results row; the table is read-only. Safe. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define NWORKERS 2
#define NOPS 4

typedef long (*binop_fn)(long, long);

struct op_entry {
    const char *name;
    binop_fn fn;
};

static long op_add(long a, long b) { return a + b; }
static long op_sub(long a, long b) { return a - b; }
static long op_mul(long a, long b) { return a * b; }
static long op_max(long a, long b) { return a > b ? a : b; }

static const struct op_entry ops[NOPS] = {
    { "add", op_add },
    { "sub", op_sub },
    { "mul", op_mul },
    { "max", op_max },
};

struct task {
    long a, b;
    long results[NOPS];
};

static void *worker(void *arg)
{
    struct task *task = arg;

    for (int i = 0; i < NOPS; i++) {
        binop_fn fn = ops[i].fn;
        task->results[i] = fn(task->a, task->b);
    }
    return task;
}

int main(void)
{
    pthread_t threads[NWORKERS];
    struct task tasks[NWORKERS] = { { 6, 7, { 0 } }, { 10, -3, { 0 } } };

    for (int i = 0; i < NWORKERS; i++)
        pthread_create(&threads[i], NULL, worker, &tasks[i]);
    for (int i = 0; i < NWORKERS; i++) {
        void *ret;
        pthread_join(threads[i], &ret);
        assert(ret == &tasks[i]);
    }

    assert(tasks[0].results[2] == 42);
    assert(tasks[1].results[1] == 13);
    for (int i = 0; i < NWORKERS; i++)
        for (int j = 0; j < NOPS; j++)
            printf("%s(%ld, %ld) = %ld\n", ops[j].name, tasks[i].a, tasks[i].b,
                   tasks[i].results[j]);
    return 0;
}
