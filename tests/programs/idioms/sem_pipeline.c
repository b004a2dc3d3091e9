/* Producer -> stage -> consumer pipeline; each hop is a bounded ring buffer guarded by two
 * counting semaphores (free slots, filled slots) with exactly one writer and one reader, so
 * head/tail need no lock. The consumer checks it receives 1..N in order. Safe. */
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

#define N 6
#define RING 2

struct ring {
    int buf[RING];
    int head, tail; /* head: reader only; tail: writer only */
    sem_t free_slots, filled;
};

static struct ring first, second;
static int received[N];

static void ring_init(struct ring *r)
{
    r->head = r->tail = 0;
    sem_init(&r->free_slots, 0, RING);
    sem_init(&r->filled, 0, 0);
}

static void ring_put(struct ring *r, int v)
{
    sem_wait(&r->free_slots);
    r->buf[r->tail] = v;
    r->tail = (r->tail + 1) % RING;
    sem_post(&r->filled);
}

static int ring_get(struct ring *r)
{
    int v;

    sem_wait(&r->filled);
    v = r->buf[r->head];
    r->head = (r->head + 1) % RING;
    sem_post(&r->free_slots);
    return v;
}

static void *producer(void *arg)
{
    (void)arg;
    for (int i = 1; i <= N; i++)
        ring_put(&first, i);
    return NULL;
}

static void *stage(void *arg)
{
    (void)arg;
    for (int i = 0; i < N; i++)
        ring_put(&second, ring_get(&first) * 10);
    return NULL;
}

static void *consumer(void *arg)
{
    (void)arg;
    for (int i = 0; i < N; i++) {
        int v = ring_get(&second);
        assert(v == (i + 1) * 10);
        received[i] = v / 10;
    }
    return NULL;
}

int main(void)
{
    pthread_t p, s, c;

    ring_init(&first);
    ring_init(&second);
    pthread_create(&p, NULL, producer, NULL);
    pthread_create(&s, NULL, stage, NULL);
    pthread_create(&c, NULL, consumer, NULL);
    pthread_join(p, NULL);
    pthread_join(s, NULL);
    pthread_join(c, NULL);

    for (int i = 0; i < N; i++)
        printf("%d%c", received[i], i + 1 < N ? ' ' : '\n');
    sem_destroy(&first.free_slots);
    sem_destroy(&first.filled);
    sem_destroy(&second.free_slots);
    sem_destroy(&second.filled);
    return 0;
}
