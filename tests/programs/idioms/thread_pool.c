/* Fixed-size thread pool: 3 workers take heap-allocated tasks from a
 * mutex+condvar protected FIFO; main submits tasks, then sets shutdown and
 * broadcasts. Workers drain the queue before exiting. Safe. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef NWORKERS
#define NWORKERS 3
#endif
#ifndef NTASKS
#define NTASKS 6
#endif

struct task {
    int id;
    int arg;
    struct task *next;
};

struct pool {
    pthread_mutex_t lock;
    pthread_cond_t cv;
    struct task *head, *tail;
    int shutdown;
    int done;
    long results;
};

static struct pool pool = {
    PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, NULL, 0, 0, 0
};

static void pool_submit(struct pool *p, int id, int arg)
{
    struct task *t = malloc(sizeof(*t));
    if (!t) {
        perror("malloc");
        exit(1);
    }
    t->id = id;
    t->arg = arg;
    t->next = NULL;
    pthread_mutex_lock(&p->lock);
    if (p->tail)
        p->tail->next = t;
    else
        p->head = t;
    p->tail = t;
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->lock);
}

static void *worker(void *argp)
{
    struct pool *p = argp;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        while (p->head == NULL && !p->shutdown)
            pthread_cond_wait(&p->cv, &p->lock);
        if (p->head == NULL && p->shutdown) {
            pthread_mutex_unlock(&p->lock);
            break;
        }
        struct task *t = p->head;
        p->head = t->next;
        if (p->head == NULL)
            p->tail = NULL;
        pthread_mutex_unlock(&p->lock);

        int r = t->arg * t->arg;   /* the "work" */
        free(t);

        pthread_mutex_lock(&p->lock);
        p->results += r;
        p->done++;
        pthread_mutex_unlock(&p->lock);
    }
    return NULL;
}

int main(void)
{
    pthread_t th[NWORKERS];
    long expect = 0;

    for (int i = 0; i < NWORKERS; i++)
        if (pthread_create(&th[i], NULL, worker, &pool) != 0) {
            fprintf(stderr, "pthread_create failed\n");
            return 1;
        }
    for (int i = 0; i < NTASKS; i++) {
        pool_submit(&pool, i, i + 1);
        expect += (long)(i + 1) * (i + 1);
    }
    pthread_mutex_lock(&pool.lock);
    pool.shutdown = 1;
    pthread_cond_broadcast(&pool.cv);
    pthread_mutex_unlock(&pool.lock);

    for (int i = 0; i < NWORKERS; i++)
        pthread_join(th[i], NULL);

    assert(pool.done == NTASKS);
    assert(pool.results == expect);
    assert(pool.head == NULL);
    printf("pool: %d tasks done, sum of squares %ld\n", pool.done, pool.results);
    return 0;
}
