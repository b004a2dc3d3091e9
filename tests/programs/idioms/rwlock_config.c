/* A configuration (port and the derived admin port) lives behind a pthread_rwlock_t. The
 * writer updates both fields under the write lock, readers copy both under the read lock,
 * so every reader sees a consistent pair and the assertion holds. Safe. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define NREADERS 2
#define UPDATES 3

struct config {
    int port;
    int admin_port; /* always port + 1000 */
    int generation;
};

static pthread_rwlock_t config_lock = PTHREAD_RWLOCK_INITIALIZER;
static struct config cfg = { 8080, 9080, 0 };

static void *reader(void *arg)
{
    (void)arg;
    for (int i = 0; i < 3; i++) {
        struct config snapshot;

        pthread_rwlock_rdlock(&config_lock);
        snapshot = cfg;
        pthread_rwlock_unlock(&config_lock);

        assert(snapshot.admin_port == snapshot.port + 1000);
        assert(snapshot.generation >= 0 && snapshot.generation <= UPDATES);
    }
    return NULL;
}

static void *writer(void *arg)
{
    (void)arg;
    for (int i = 1; i <= UPDATES; i++) {
        pthread_rwlock_wrlock(&config_lock);
        cfg.port = 8080 + i;
        cfg.admin_port = cfg.port + 1000;
        cfg.generation = i;
        pthread_rwlock_unlock(&config_lock);
    }
    return NULL;
}

int main(void)
{
    pthread_t readers[NREADERS], w;

    for (int i = 0; i < NREADERS; i++)
        pthread_create(&readers[i], NULL, reader, NULL);
    pthread_create(&w, NULL, writer, NULL);

    for (int i = 0; i < NREADERS; i++)
        pthread_join(readers[i], NULL);
    pthread_join(w, NULL);

    assert(cfg.generation == UPDATES);
    printf("port=%d admin_port=%d generation=%d\n", cfg.port, cfg.admin_port,
           cfg.generation);
    pthread_rwlock_destroy(&config_lock);
    return 0;
}
