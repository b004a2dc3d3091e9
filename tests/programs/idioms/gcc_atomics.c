/* Lock-free running maximum and sum with the GCC __atomic builtins: each thread retries a
 * __atomic_compare_exchange_n loop until its update lands; per-thread done flags are set with
 * __atomic_store_n and read with __atomic_load_n. Every concurrent access is atomic. Safe. */
#include <assert.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

#define NTHREADS 3

static long maximum;
static long sum;
static int done[NTHREADS];

static void atomic_max(long *where, long value)
{
    long seen = __atomic_load_n(where, __ATOMIC_RELAXED);

    while (seen < value &&
           !__atomic_compare_exchange_n(where, &seen, value, false,
                                        __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
        ; /* seen was refreshed by the failed CAS; retry */
}

static void atomic_add(long *where, long delta)
{
    long seen = __atomic_load_n(where, __ATOMIC_RELAXED);

    while (!__atomic_compare_exchange_n(where, &seen, seen + delta, true,
                                        __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
        ;
}

static void *worker(void *arg)
{
    long id = (long)arg;

    for (long i = 1; i <= 3; i++) {
        atomic_max(&maximum, id * 10 + i);
        atomic_add(&sum, i);
    }
    __atomic_store_n(&done[id], 1, __ATOMIC_RELEASE);
    return NULL;
}

int main(void)
{
    pthread_t threads[NTHREADS];

    for (long i = 0; i < NTHREADS; i++)
        pthread_create(&threads[i], NULL, worker, (void *)i);
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(threads[i], NULL);

    for (int i = 0; i < NTHREADS; i++)
        assert(__atomic_load_n(&done[i], __ATOMIC_ACQUIRE) == 1);
    assert(__atomic_load_n(&maximum, __ATOMIC_SEQ_CST) == (NTHREADS - 1) * 10 + 3);
    assert(__atomic_load_n(&sum, __ATOMIC_SEQ_CST) == NTHREADS * 6);
    printf("max=%ld sum=%ld\n", maximum, sum);
    return 0;
}
