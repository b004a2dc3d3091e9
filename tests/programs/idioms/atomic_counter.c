/* C11 <stdatomic.h> hit counter: threads bump it with atomic_fetch_add and main reads it
 * with atomic_load after joining. Every access to the counter is atomic. Safe. */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#define NTHREADS 3
#define ITERS 4

static atomic_int hits;
static atomic_long bytes = 0;

static void *worker(void *arg)
{
    int id = *(const int *)arg;

    for (int i = 0; i < ITERS; i++) {
        int before = atomic_fetch_add(&hits, 1);
        assert(before >= 0 && before < NTHREADS * ITERS);
        atomic_fetch_add_explicit(&bytes, 100 + id, memory_order_relaxed);
    }
    return NULL;
}

int main(void)
{
    pthread_t threads[NTHREADS];
    int ids[NTHREADS];
    int total_hits;
    long total_bytes;

    atomic_init(&hits, 0);
    for (int i = 0; i < NTHREADS; i++) {
        ids[i] = i;
        pthread_create(&threads[i], NULL, worker, &ids[i]);
    }
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(threads[i], NULL);

    total_hits = atomic_load(&hits);
    total_bytes = atomic_load_explicit(&bytes, memory_order_relaxed);
    assert(total_hits == NTHREADS * ITERS);
    assert(total_bytes == ITERS * (300 + 0 + 1 + 2));
    printf("hits=%d bytes=%ld\n", total_hits, total_bytes);
    return 0;
}
