/* A thread reads standard input in chunks with read(2) and counts the bytes under a mutex,
 * while another thread, whose first steps are its own, bumps a counter three times under
 * the same mutex; main prints both after joining them. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long bytes;
static int ticks;

static void *reader(void *arg)
{
    char buf[8];
    ssize_t n;
    (void)arg;
    while ((n = read(0, buf, sizeof buf)) > 0) {
        pthread_mutex_lock(&lock);
        bytes += (unsigned long)n;
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

static void *ticker(void *arg)
{
    (void)arg;
    for (int i = 0; i < 3; i++) {
        pthread_mutex_lock(&lock);
        ticks++;
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

int main(void)
{
    pthread_t r, k;
    pthread_create(&r, NULL, reader, NULL);
    pthread_create(&k, NULL, ticker, NULL);
    pthread_join(r, NULL);
    pthread_join(k, NULL);
    printf("%lu bytes, %d ticks\n", bytes, ticks);
    return 0;
}
