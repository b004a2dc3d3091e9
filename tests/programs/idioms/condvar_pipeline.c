/* Two-stage pipeline: a parser thread turns "lines" (strings) into numbers
 * and pushes them onto a condvar-protected bounded queue; a summing thread
 * pops them. An end-of-stream marker (-1) stops the second stage. Safe. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define QCAP 2

struct queue {
    int items[QCAP];
    int count, rd, wr;
    pthread_mutex_t m;
    pthread_cond_t not_empty, not_full;
};

static struct queue q = { .m = PTHREAD_MUTEX_INITIALIZER,
                          .not_empty = PTHREAD_COND_INITIALIZER,
                          .not_full = PTHREAD_COND_INITIALIZER };

static const char *input[] = { "12", "7", "30", "1", "50" };
#define NLINES (int)(sizeof(input) / sizeof(input[0]))

static void q_push(struct queue *qq, int v)
{
    pthread_mutex_lock(&qq->m);
    while (qq->count == QCAP)
        pthread_cond_wait(&qq->not_full, &qq->m);
    qq->items[qq->wr] = v;
    qq->wr = (qq->wr + 1) % QCAP;
    qq->count++;
    pthread_cond_signal(&qq->not_empty);
    pthread_mutex_unlock(&qq->m);
}

static int q_pop(struct queue *qq)
{
    pthread_mutex_lock(&qq->m);
    while (qq->count == 0)
        pthread_cond_wait(&qq->not_empty, &qq->m);
    int v = qq->items[qq->rd];
    qq->rd = (qq->rd + 1) % QCAP;
    qq->count--;
    pthread_cond_signal(&qq->not_full);
    pthread_mutex_unlock(&qq->m);
    return v;
}

static void *parse_stage(void *arg)
{
    (void)arg;
    for (int i = 0; i < NLINES; i++) {
        int v = atoi(input[i]);
        q_push(&q, v);
    }
    q_push(&q, -1);
    return NULL;
}

static void *sum_stage(void *arg)
{
    long *out = arg;
    int n = 0;
    for (;;) {
        int v = q_pop(&q);
        if (v < 0)
            break;
        *out += v;
        n++;
    }
    assert(n == NLINES);
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    long total = 0;

    pthread_create(&b, NULL, sum_stage, &total);
    pthread_create(&a, NULL, parse_stage, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    assert(total == 100);
    assert(q.count == 0);
    printf("pipeline total %ld\n", total);
    return 0;
}
