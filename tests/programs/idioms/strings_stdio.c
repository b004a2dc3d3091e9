/* Threads build greeting strings with snprintf/strlen/memcpy/strcmp in their own buffers
 * (one row of a 2D array per thread, no sharing); main prints them after joining. Safe. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define NTHREADS 3
#define LINE 48

static const char *names[NTHREADS] = { "alpha", "beta", "gamma" };
static char lines[NTHREADS][LINE];
static size_t lengths[NTHREADS];

static void *format_line(void *arg)
{
    int id = *(const int *)arg;
    char tmp[LINE];
    int n;

    n = snprintf(tmp, sizeof tmp, "worker %d says hello to %s", id, names[id]);
    assert(n > 0 && n < LINE);
    assert(strlen(tmp) == (size_t)n);
    memcpy(lines[id], tmp, (size_t)n + 1);
    assert(strcmp(lines[id], tmp) == 0);
    assert(strncmp(lines[id], "worker ", 7) == 0);
    lengths[id] = strlen(lines[id]);
    return NULL;
}

int main(void)
{
    pthread_t threads[NTHREADS];
    int ids[NTHREADS];
    size_t total = 0;

    for (int i = 0; i < NTHREADS; i++) {
        ids[i] = i;
        pthread_create(&threads[i], NULL, format_line, &ids[i]);
    }
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(threads[i], NULL);

    for (int i = 0; i < NTHREADS; i++) {
        printf("%s (%zu)\n", lines[i], lengths[i]);
        total += lengths[i];
    }
    printf("total length %zu\n", total);
    return 0;
}
