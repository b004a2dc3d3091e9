/* A PTHREAD_MUTEX_ERRORCHECK mutex guards a counter. Each worker deliberately relocks the
 * mutex it already holds and gets EDEADLK instead of hanging (a default mutex would
 * self-deadlock here). All counter updates are under the lock. Safe. */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>

#define NTHREADS 2
#define ITERS 3

static pthread_mutex_t m;
static int counter;
static int deadlocks_reported;

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITERS; i++) {
        int rc = pthread_mutex_lock(&m);
        assert(rc == 0);
        rc = pthread_mutex_lock(&m); /* relock by the owner: reported, not hung */
        assert(rc == EDEADLK);
        deadlocks_reported++;
        counter++;
        rc = pthread_mutex_unlock(&m);
        assert(rc == 0);
    }
    return NULL;
}

int main(void)
{
    pthread_mutexattr_t attr;
    pthread_t threads[NTHREADS];

    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ERRORCHECK);
    pthread_mutex_init(&m, &attr);
    pthread_mutexattr_destroy(&attr);

    for (int i = 0; i < NTHREADS; i++)
        pthread_create(&threads[i], NULL, worker, NULL);
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(threads[i], NULL);

    assert(counter == NTHREADS * ITERS);
    assert(deadlocks_reported == NTHREADS * ITERS);
    printf("counter=%d deadlocks_reported=%d\n", counter, deadlocks_reported);
    pthread_mutex_destroy(&m);
    return 0;
}
