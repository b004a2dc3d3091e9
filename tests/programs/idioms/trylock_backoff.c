/* Two threads move stock between two bins in opposite directions. Each takes its first lock,
 * then only *tries* the second; on failure it releases the first, yields and retries, and after
 * a few failed attempts falls back to taking both in index order. No thread ever blocks while
 * holding a lock out of order, so there is no deadlock, and retries are bounded. Safe. */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>

#define MAX_TRIES 3

struct bin {
    pthread_mutex_t lock;
    int stock;
};

static struct bin bins[2] = {
    { PTHREAD_MUTEX_INITIALIZER, 10 },
    { PTHREAD_MUTEX_INITIALIZER, 10 },
};

static void lock_pair(int first, int second)
{
    for (int attempt = 0; attempt < MAX_TRIES; attempt++) {
        pthread_mutex_lock(&bins[first].lock);
        int rc = pthread_mutex_trylock(&bins[second].lock);
        if (rc == 0)
            return;
        assert(rc == EBUSY);
        pthread_mutex_unlock(&bins[first].lock); /* back off */
        sched_yield();
    }
    /* give up on the preferred order: take both in index order */
    int lo = first < second ? first : second, hi = first < second ? second : first;
    pthread_mutex_lock(&bins[lo].lock);
    pthread_mutex_lock(&bins[hi].lock);
}

static void move_stock(int from, int to, int amount)
{
    lock_pair(from, to);
    if (bins[from].stock >= amount) {
        bins[from].stock -= amount;
        bins[to].stock += amount;
    }
    assert(bins[0].stock + bins[1].stock == 20);
    pthread_mutex_unlock(&bins[to].lock);
    pthread_mutex_unlock(&bins[from].lock);
}

static void *mover(void *arg)
{
    int from = *(const int *)arg;

    for (int i = 0; i < 2; i++)
        move_stock(from, 1 - from, 3);
    return NULL;
}

int main(void)
{
    pthread_t t0, t1;
    int from0 = 0, from1 = 1;

    pthread_create(&t0, NULL, mover, &from0);
    pthread_create(&t1, NULL, mover, &from1);
    pthread_join(t0, NULL);
    pthread_join(t1, NULL);

    /* each mover moved 6 units each way (both bins always have >= 3 stock) */
    assert(bins[0].stock == 10 && bins[1].stock == 10);
    printf("stock: %d %d\n", bins[0].stock, bins[1].stock);
    return 0;
}
