/* Each thread counts to K in a __thread (thread-local) counter, which needs no lock, then
 * adds its own count into a global total under a mutex. Safe. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define NTHREADS 3
#define K 4

static __thread int local_count;
static int total;
static pthread_mutex_t total_lock = PTHREAD_MUTEX_INITIALIZER;

static void count_one(void)
{
    local_count++;
}

static void *worker(void *arg)
{
    (void)arg;
    assert(local_count == 0); /* every thread starts with its own zeroed copy */
    for (int i = 0; i < K; i++)
        count_one();
    assert(local_count == K);

    pthread_mutex_lock(&total_lock);
    total += local_count;
    pthread_mutex_unlock(&total_lock);
    return NULL;
}

int main(void)
{
    pthread_t threads[NTHREADS];

    local_count = 100; /* main's copy; invisible to the workers */
    for (int i = 0; i < NTHREADS; i++)
        pthread_create(&threads[i], NULL, worker, NULL);
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(threads[i], NULL);

    assert(local_count == 100);
    assert(total == NTHREADS * K);
    printf("total=%d main_local=%d\n", total, local_count);
    return 0;
}
