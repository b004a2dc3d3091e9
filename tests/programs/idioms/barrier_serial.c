/* Threads compute partial sums into their own slots and meet at a pthread barrier; the one
 * thread that gets PTHREAD_BARRIER_SERIAL_THREAD combines and publishes the result. The
 * barrier orders all partial writes before the combine. Safe. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define NTHREADS 3
#define CHUNK 4

static pthread_barrier_t barrier;
static long partial[NTHREADS];
static long combined;
static int publications;

static void *worker(void *arg)
{
    int id = *(const int *)arg;
    long s = 0;
    int rc;

    for (int i = 0; i < CHUNK; i++)
        s += id * CHUNK + i + 1;
    partial[id] = s;

    rc = pthread_barrier_wait(&barrier);
    if (rc == PTHREAD_BARRIER_SERIAL_THREAD) {
        long total = 0;
        for (int i = 0; i < NTHREADS; i++)
            total += partial[i];
        combined = total;
        publications++;
    } else {
        assert(rc == 0);
    }
    return NULL;
}

int main(void)
{
    pthread_t threads[NTHREADS];
    int ids[NTHREADS];

    pthread_barrier_init(&barrier, NULL, NTHREADS);
    for (int i = 0; i < NTHREADS; i++) {
        ids[i] = i;
        pthread_create(&threads[i], NULL, worker, &ids[i]);
    }
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(threads[i], NULL);
    pthread_barrier_destroy(&barrier);

    assert(publications == 1);
    assert(combined == NTHREADS * CHUNK * (NTHREADS * CHUNK + 1) / 2);
    printf("combined=%ld publications=%d\n", combined, publications);
    return 0;
}
