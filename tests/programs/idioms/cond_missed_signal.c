/* The worker waits for "data ready" with a bare pthread_cond_wait and no predicate check.
 * If main sets ready and signals before the worker reaches the wait, the signal is lost
 * and the worker (and main's join) block forever: deadlock. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ready_cond = PTHREAD_COND_INITIALIZER;
static int ready;
static int data;

static void *worker(void *arg)
{
    int value;

    (void)arg;
    pthread_mutex_lock(&lock);
    pthread_cond_wait(&ready_cond, &lock); /* BUG: should be while (!ready) wait */
    value = data;
    pthread_mutex_unlock(&lock);

    printf("worker got %d\n", value);
    return NULL;
}

int main(void)
{
    pthread_t t;

    pthread_create(&t, NULL, worker, NULL);

    pthread_mutex_lock(&lock);
    data = 42;
    ready = 1;
    pthread_cond_signal(&ready_cond);
    pthread_mutex_unlock(&lock);

    pthread_join(t, NULL);
    assert(ready == 1);
    return 0;
}
