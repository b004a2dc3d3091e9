/* A hand-rolled test-and-set spinlock built from __sync_lock_test_and_set (acquire) and
 * __sync_lock_release (release) guards a plain counter; every increment happens inside the
 * lock, so the final count is exact. Safe. */
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>

#define NTHREADS 3
#define ITERS 5

static int spin;
static int counter;

static void spin_lock(int *lock)
{
    /* only atomic accesses to the lock word: no plain read in the spin */
    while (__sync_lock_test_and_set(lock, 1))
        sched_yield();
}

static void spin_unlock(int *lock)
{
    __sync_lock_release(lock);
}

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITERS; i++) {
        spin_lock(&spin);
        counter++;
        spin_unlock(&spin);
    }
    return NULL;
}

int main(void)
{
    pthread_t threads[NTHREADS];

    for (int i = 0; i < NTHREADS; i++)
        pthread_create(&threads[i], NULL, worker, NULL);
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(threads[i], NULL);

    assert(counter == NTHREADS * ITERS);
    printf("counter=%d\n", counter);
    return 0;
}
