/* Two threads increment a field of a heap-allocated stats struct with no lock. The
 * read-modify-write of stats->hits can interleave, losing an update, so the final
 * assertion can fail. Unsafe (data race -> assertion failure). */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define ITERS 3

struct stats {
    int hits;
    int misses;
};

static void *record_hits(void *arg)
{
    struct stats *stats = arg;

    for (int i = 0; i < ITERS; i++)
        stats->hits++; /* BUG: unsynchronised read-modify-write */
    return NULL;
}

int main(void)
{
    struct stats *stats = calloc(1, sizeof *stats);
    pthread_t a, b;

    if (stats == NULL)
        return 1;
    pthread_create(&a, NULL, record_hits, stats);
    pthread_create(&b, NULL, record_hits, stats);
    pthread_join(a, NULL);
    pthread_join(b, NULL);

    printf("hits=%d\n", stats->hits);
    assert(stats->hits == 2 * ITERS);
    free(stats);
    return 0;
}
