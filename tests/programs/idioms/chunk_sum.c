/* Parallel sum: an array is split into chunks, each thread sums its chunk
 * into its own slot of a struct array; main joins and checks the total
 * against a sequential sum. Safe. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define NTHREADS 3
#define LEN 10

struct chunk {
    const int *data;
    int begin, end;
    long sum;
    int count;
};

static int values[LEN];

static void *sum_chunk(void *arg)
{
    struct chunk *c = arg;
    long s = 0;
    for (int i = c->begin; i < c->end; i++)
        s += c->data[i];
    c->sum = s;
    c->count = c->end - c->begin;
    return NULL;
}

int main(void)
{
    pthread_t th[NTHREADS];
    struct chunk parts[NTHREADS];
    int per = (LEN + NTHREADS - 1) / NTHREADS;

    for (int i = 0; i < LEN; i++)
        values[i] = 3 * i + 1;

    for (int t = 0; t < NTHREADS; t++) {
        parts[t].data = values;
        parts[t].begin = t * per;
        parts[t].end = (t + 1) * per > LEN ? LEN : (t + 1) * per;
        parts[t].sum = 0;
        parts[t].count = 0;
        pthread_create(&th[t], NULL, sum_chunk, &parts[t]);
    }

    long total = 0;
    int counted = 0;
    for (int t = 0; t < NTHREADS; t++) {
        pthread_join(th[t], NULL);
        total += parts[t].sum;
        counted += parts[t].count;
    }

    long seq = 0;
    for (int i = 0; i < LEN; i++)
        seq += values[i];

    assert(counted == LEN);
    assert(total == seq);
    printf("parallel sum %ld over %d elements (sequential %ld)\n", total, counted, seq);
    return 0;
}
