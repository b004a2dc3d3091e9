/* The number of threads comes from the command line (2 when absent, clamped to 1..4). Each
 * thread sums its own stripe of 1..12 into its own result slot; main joins and adds the slots.
 * Safe. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_THREADS 4
#define LIMIT 12

struct job {
    int index;
    int nthreads;
    long result;
};

static void *sum_stripe(void *arg)
{
    struct job *job = arg;
    long s = 0;

    for (int v = job->index + 1; v <= LIMIT; v += job->nthreads)
        s += v;
    job->result = s;
    return NULL;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 2;
    pthread_t threads[MAX_THREADS];
    struct job jobs[MAX_THREADS];
    long total = 0;

    if (n < 1)
        n = 1;
    if (n > MAX_THREADS)
        n = MAX_THREADS;

    for (int i = 0; i < n; i++) {
        jobs[i].index = i;
        jobs[i].nthreads = n;
        jobs[i].result = 0;
        if (pthread_create(&threads[i], NULL, sum_stripe, &jobs[i]) != 0) {
            fprintf(stderr, "pthread_create failed\n");
            return 1;
        }
    }
    for (int i = 0; i < n; i++) {
        pthread_join(threads[i], NULL);
        total += jobs[i].result;
    }

    assert(total == LIMIT * (LIMIT + 1) / 2);
    printf("sum of 1..%d = %ld\n", LIMIT, total);
    return 0;
}
