/* Two threads push onto one vector that grows with realloc under a mutex: each growth copies
 * what the other thread pushed. Main prints the length, capacity and sum after the joins. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int *items;
static size_t len, cap;

static void push(int x)
{
    pthread_mutex_lock(&lock);
    if (len == cap) {
        size_t grown = cap ? 2 * cap : 1;
        int *p = realloc(items, grown * sizeof *p);
        if (!p)
            abort();
        items = p;
        cap = grown;
    }
    items[len++] = x;
    pthread_mutex_unlock(&lock);
}

static void *pusher(void *arg)
{
    int base = *(const int *)arg;
    for (int i = 1; i <= 5; i++)
        push(base + i);
    return NULL;
}

int main(void)
{
    pthread_t t[2];
    int bases[2] = { 0, 100 };
    long sum = 0;

    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, pusher, &bases[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    for (size_t i = 0; i < len; i++)
        sum += items[i];
    printf("len=%zu cap=%zu sum=%ld\n", len, cap, sum);
    free(items);
    return 0;
}
