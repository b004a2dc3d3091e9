/* Hash map with chaining and one mutex per bucket. Three inserter threads
 * insert disjoint keys (some colliding in the same buckets); main checks the
 * element count and looks every key up. Safe. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NBUCKETS 4
#define NTHREADS 3
#define PER_THREAD 3

struct entry {
    int key;
    int value;
    struct entry *next;
};

struct bucket {
    pthread_mutex_t lock;
    struct entry *head;
    int size;
};

static struct bucket table[NBUCKETS];

static unsigned hash(int key)
{
    return ((unsigned)key * 2654435761u) % NBUCKETS;
}

static int map_insert(int key, int value)
{
    struct bucket *b = &table[hash(key)];
    pthread_mutex_lock(&b->lock);
    for (struct entry *e = b->head; e; e = e->next) {
        if (e->key == key) {
            e->value = value;
            pthread_mutex_unlock(&b->lock);
            return 0;
        }
    }
    struct entry *e = malloc(sizeof(*e));
    if (e == NULL) {
        pthread_mutex_unlock(&b->lock);
        return -1;
    }
    e->key = key;
    e->value = value;
    e->next = b->head;
    b->head = e;
    b->size++;
    pthread_mutex_unlock(&b->lock);
    return 1;
}

static int map_get(int key, int *out)
{
    struct bucket *b = &table[hash(key)];
    int found = 0;
    pthread_mutex_lock(&b->lock);
    for (struct entry *e = b->head; e; e = e->next)
        if (e->key == key) {
            *out = e->value;
            found = 1;
            break;
        }
    pthread_mutex_unlock(&b->lock);
    return found;
}

static void *inserter(void *arg)
{
    int id = *(int *)arg;
    for (int i = 0; i < PER_THREAD; i++) {
        int key = id * 100 + i;
        int r = map_insert(key, key * 2);
        assert(r == 1);
    }
    return NULL;
}

int main(void)
{
    pthread_t th[NTHREADS];
    int ids[NTHREADS];

    for (int i = 0; i < NBUCKETS; i++) {
        pthread_mutex_init(&table[i].lock, NULL);
        table[i].head = NULL;
        table[i].size = 0;
    }
    for (int i = 0; i < NTHREADS; i++) {
        ids[i] = i + 1;
        pthread_create(&th[i], NULL, inserter, &ids[i]);
    }
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(th[i], NULL);

    int total = 0;
    for (int i = 0; i < NBUCKETS; i++)
        total += table[i].size;
    assert(total == NTHREADS * PER_THREAD);

    for (int t = 1; t <= NTHREADS; t++)
        for (int i = 0; i < PER_THREAD; i++) {
            int v = -1;
            assert(map_get(t * 100 + i, &v));
            assert(v == (t * 100 + i) * 2);
        }

    for (int i = 0; i < NBUCKETS; i++) {
        struct entry *e = table[i].head;
        while (e) {
            struct entry *n = e->next;
            free(e);
            e = n;
        }
        pthread_mutex_destroy(&table[i].lock);
    }
    printf("map holds %d entries, all found\n", total);
    return 0;
}
