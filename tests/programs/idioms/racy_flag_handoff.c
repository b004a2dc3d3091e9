/* The producer publishes its result through a plain int flag but sets the flag before it
 * writes the data. A consumer that sees ready == 1 in between reads the stale data and the
 * assertion fails (the plain flag is also a data race). Unsafe. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

static int ready;
static int data;

static void *producer(void *arg)
{
    (void)arg;
    ready = 1;  /* BUG: flag published before the data it guards */
    data = 42;
    return NULL;
}

static void *consumer(void *arg)
{
    (void)arg;
    if (ready) {
        assert(data == 42);
        printf("consumer saw %d\n", data);
    }
    return NULL;
}

int main(void)
{
    pthread_t p, c;

    pthread_create(&p, NULL, producer, NULL);
    pthread_create(&c, NULL, consumer, NULL);
    pthread_join(p, NULL);
    pthread_join(c, NULL);
    return 0;
}
