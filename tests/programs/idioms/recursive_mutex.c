/* A PTHREAD_MUTEX_RECURSIVE mutex guards an inventory: add_many() locks it and calls add_one(),
 * which locks it again from the same thread. A recursive mutex allows the nested lock, so
 * there is no self-deadlock, and all updates are under the lock. Safe. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define NTHREADS 2

static pthread_mutex_t inv_lock;
static int items;
static int batches;

static void add_one(void)
{
    pthread_mutex_lock(&inv_lock); /* second acquisition when called from add_many */
    items++;
    pthread_mutex_unlock(&inv_lock);
}

static void add_many(int n)
{
    pthread_mutex_lock(&inv_lock);
    for (int i = 0; i < n; i++)
        add_one();
    batches++;
    pthread_mutex_unlock(&inv_lock);
}

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 1; i <= 3; i++)
        add_many(i);
    return NULL;
}

int main(void)
{
    pthread_mutexattr_t attr;
    pthread_t threads[NTHREADS];

    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&inv_lock, &attr);
    pthread_mutexattr_destroy(&attr);

    for (int i = 0; i < NTHREADS; i++)
        pthread_create(&threads[i], NULL, worker, NULL);
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(threads[i], NULL);

    assert(items == NTHREADS * 6);
    assert(batches == NTHREADS * 3);
    printf("items=%d batches=%d\n", items, batches);
    pthread_mutex_destroy(&inv_lock);
    return 0;
}
