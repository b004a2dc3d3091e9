/* A one-entry cache: the reader looks the entry up under the lock but reads its fields after
 * unlocking; the evictor unlinks the entry under the lock and frees it. If the eviction runs
 * between the reader's unlock and its reads, the reader reads freed memory (use after free). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct entry {
    int key;
    int value;
};

static struct entry *cache;
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static int result = -1;

static void *reader(void *arg)
{
    struct entry *e;

    (void)arg;
    pthread_mutex_lock(&cache_lock);
    e = cache;
    pthread_mutex_unlock(&cache_lock);

    if (e != NULL && e->key == 7) /* BUG: e may already have been freed */
        result = e->value;
    return NULL;
}

static void *evictor(void *arg)
{
    struct entry *e;

    (void)arg;
    pthread_mutex_lock(&cache_lock);
    e = cache;
    cache = NULL;
    pthread_mutex_unlock(&cache_lock);
    free(e);
    return NULL;
}

int main(void)
{
    pthread_t r, ev;

    cache = malloc(sizeof *cache);
    if (cache == NULL)
        return 1;
    cache->key = 7;
    cache->value = 700;

    pthread_create(&r, NULL, reader, NULL);
    pthread_create(&ev, NULL, evictor, NULL);
    pthread_join(r, NULL);
    pthread_join(ev, NULL);

    printf("result=%d\n", result);
    return 0;
}
