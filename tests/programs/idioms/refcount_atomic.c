/* A reference-counted shared buffer: main creates it with one reference per
 * user thread plus its own, hands it to 3 threads and drops its reference.
 * Whoever drops the last reference (atomic fetch_sub returns 1) frees it.
 * Safe. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NUSERS 3

struct shared_buf {
    int refs;
    char data[32];
    int len;
};

static int freed_count;   /* only written by the one that frees */

static struct shared_buf *buf_new(const char *s, int refs)
{
    struct shared_buf *b = malloc(sizeof(*b));
    if (!b)
        return NULL;
    b->refs = refs;
    strncpy(b->data, s, sizeof(b->data) - 1);
    b->data[sizeof(b->data) - 1] = '\0';
    b->len = (int)strlen(b->data);
    return b;
}

static void buf_put(struct shared_buf *b)
{
    if (__atomic_fetch_sub(&b->refs, 1, __ATOMIC_ACQ_REL) == 1) {
        memset(b->data, 0, sizeof(b->data));
        free(b);
        __atomic_fetch_add(&freed_count, 1, __ATOMIC_RELAXED);
    }
}

static void *user(void *arg)
{
    struct shared_buf *b = arg;
    int n = 0;
    for (int i = 0; i < b->len; i++)
        if (b->data[i] == 'l')
            n++;
    assert(n == 3);
    assert(__atomic_load_n(&b->refs, __ATOMIC_RELAXED) >= 1);
    buf_put(b);
    return NULL;
}

int main(void)
{
    pthread_t th[NUSERS];
    struct shared_buf *b = buf_new("hello world", NUSERS + 1);
    if (!b)
        return 1;
    for (int i = 0; i < NUSERS; i++)
        pthread_create(&th[i], NULL, user, b);
    buf_put(b);   /* main no longer uses b after this */
    for (int i = 0; i < NUSERS; i++)
        pthread_join(th[i], NULL);
    assert(freed_count == 1);
    printf("buffer freed exactly %d time(s)\n", freed_count);
    return 0;
}
