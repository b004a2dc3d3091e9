/* Counts the lines of standard input, up to LIMIT, beside a thread that sets a flag under
 * a mutex; prints both. `synth verify -DLIMIT=N bench/lines/count.c`. */
#include <pthread.h>
#include <stdio.h>

#ifndef LIMIT
#define LIMIT 100000
#endif

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int seen;

static void *ticker(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&m);
    seen = 1;
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void)
{
    pthread_t t;
    char buf[32];
    long lines = 0;
    pthread_create(&t, NULL, ticker, NULL);
    while (lines < LIMIT && fgets(buf, sizeof buf, stdin))
        lines++;
    pthread_join(t, NULL);
    printf("%ld lines, seen %d\n", lines, seen);
    return 0;
}
