/* A pool of 2 identical resources is guarded by a counting semaphore. Three clients first
 * try sem_trywait and, when the pool is empty (EAGAIN), fall back to a blocking sem_wait.
 * The in-use count (under a mutex) never exceeds the pool size. Safe. */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

#define POOL 2
#define NCLIENTS 3
#define ROUNDS 2

static sem_t pool;
static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;
static int in_use, max_in_use, uses;

static void acquire(void)
{
    if (sem_trywait(&pool) != 0) {
        assert(errno == EAGAIN);
        while (sem_wait(&pool) != 0)
            assert(errno == EINTR);
    }
}

static void *client(void *arg)
{
    (void)arg;
    for (int i = 0; i < ROUNDS; i++) {
        acquire();
        pthread_mutex_lock(&stats_lock);
        in_use++;
        assert(in_use <= POOL);
        if (in_use > max_in_use)
            max_in_use = in_use;
        pthread_mutex_unlock(&stats_lock);

        /* ... use the resource ... */

        pthread_mutex_lock(&stats_lock);
        uses++;
        in_use--;
        pthread_mutex_unlock(&stats_lock);
        sem_post(&pool);
    }
    return NULL;
}

int main(void)
{
    pthread_t threads[NCLIENTS];
    int left;

    sem_init(&pool, 0, POOL);
    for (int i = 0; i < NCLIENTS; i++)
        pthread_create(&threads[i], NULL, client, NULL);
    for (int i = 0; i < NCLIENTS; i++)
        pthread_join(threads[i], NULL);

    sem_getvalue(&pool, &left);
    assert(left == POOL);
    assert(in_use == 0 && max_in_use >= 1 && max_in_use <= POOL);
    assert(uses == NCLIENTS * ROUNDS);
    printf("uses=%d free=%d\n", uses, left);
    sem_destroy(&pool);
    return 0;
}
