/* Bounded ring buffer with two counting semaphores (free slots / filled
 * slots) and a mutex for the indices. 2 producers and 2 consumers; each
 * consumer adds what it takes to a per-consumer checksum. Main checks that
 * the checksums add up to what was produced. Safe. */
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

#ifndef CAP
#define CAP 3
#endif
#ifndef NPROD
#define NPROD 2
#endif
#ifndef NCONS
#define NCONS 2
#endif
#ifndef ITEMS
#define ITEMS 4          /* per producer */
#endif

static int ring[CAP];
static int head, tail;
static pthread_mutex_t idx_lock = PTHREAD_MUTEX_INITIALIZER;
static sem_t slots_free, slots_used;

struct cons_stat {
    long sum;
    int count;
};
static struct cons_stat stats[NCONS];

static void ring_put(int v)
{
    sem_wait(&slots_free);
    pthread_mutex_lock(&idx_lock);
    ring[tail] = v;
    tail = (tail + 1) % CAP;
    pthread_mutex_unlock(&idx_lock);
    sem_post(&slots_used);
}

static int ring_get(void)
{
    int v;
    sem_wait(&slots_used);
    pthread_mutex_lock(&idx_lock);
    v = ring[head];
    head = (head + 1) % CAP;
    pthread_mutex_unlock(&idx_lock);
    sem_post(&slots_free);
    return v;
}

static void *producer(void *arg)
{
    int id = (int)(long)arg;
    for (int i = 1; i <= ITEMS; i++)
        ring_put(id * 10 + i);
    return NULL;
}

static void *consumer(void *arg)
{
    struct cons_stat *st = arg;
    for (int i = 0; i < ITEMS; i++) {   /* NPROD*ITEMS split evenly */
        int v = ring_get();
        assert(v > 0);
        st->sum += v;
        st->count++;
    }
    return NULL;
}

int main(void)
{
    pthread_t p[NPROD], c[NCONS];
    long expect = 0;

    if (sem_init(&slots_free, 0, CAP) || sem_init(&slots_used, 0, 0)) {
        perror("sem_init");
        return 1;
    }
    for (int i = 0; i < NCONS; i++)
        pthread_create(&c[i], NULL, consumer, &stats[i]);
    for (int i = 0; i < NPROD; i++)
        pthread_create(&p[i], NULL, producer, (void *)(long)(i + 1));
    for (int i = 0; i < NPROD; i++)
        pthread_join(p[i], NULL);
    for (int i = 0; i < NCONS; i++)
        pthread_join(c[i], NULL);

    for (int id = 1; id <= NPROD; id++)
        for (int i = 1; i <= ITEMS; i++)
            expect += id * 10 + i;

    long got = 0;
    int n = 0;
    for (int i = 0; i < NCONS; i++) {
        got += stats[i].sum;
        n += stats[i].count;
    }
    assert(n == NPROD * ITEMS);
    assert(got == expect);
    assert(head == tail);
    printf("ring: %d items, checksum %ld\n", n, got);
    sem_destroy(&slots_free);
    sem_destroy(&slots_used);
    return 0;
}
