/* A lookup table of squares is built lazily by whichever thread gets there first, through
 * pthread_once; pthread_once makes every caller wait for (and see) the finished table, and
 * afterwards the table is only read. Safe. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define TABLE_SIZE 8
#define NTHREADS 3

static pthread_once_t table_once = PTHREAD_ONCE_INIT;
static int squares[TABLE_SIZE];
static int init_calls;

static void init_table(void)
{
    for (int i = 0; i < TABLE_SIZE; i++)
        squares[i] = i * i;
    init_calls++;
}

static int square(int x)
{
    pthread_once(&table_once, init_table);
    assert(x >= 0 && x < TABLE_SIZE);
    return squares[x];
}

static void *worker(void *arg)
{
    long id = (long)arg;
    long sum = 0;

    for (int i = 0; i < TABLE_SIZE; i++)
        sum += square(i);
    assert(sum == 140);
    assert(square((int)id + 1) == (id + 1) * (id + 1));
    return (void *)sum;
}

int main(void)
{
    pthread_t threads[NTHREADS];
    long total = 0;

    for (long i = 0; i < NTHREADS; i++)
        pthread_create(&threads[i], NULL, worker, (void *)i);
    for (int i = 0; i < NTHREADS; i++) {
        void *ret;
        pthread_join(threads[i], &ret);
        total += (long)ret;
    }

    assert(init_calls == 1);
    assert(total == 140 * NTHREADS);
    printf("init_calls=%d total=%ld\n", init_calls, total);
    return 0;
}
