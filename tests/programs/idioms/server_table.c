/* A tiny "server": main hands each worker a pointer to its own slot in a table, queues
 * requests, then raises a shutdown flag. Workers run a while (1) loop pulling requests from
 * the mutex/condvar-protected queue and update only their own slot; main reads the table
 * after joining. Safe. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define NWORKERS 2
#define NREQUESTS 5

struct slot {
    int worker_id;
    int served;
    long bytes;
};

static struct slot table[NWORKERS];
static int requests[NREQUESTS];
static int next_in, next_out;
static int shutting_down;
static pthread_mutex_t qlock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t qcond = PTHREAD_COND_INITIALIZER;

static void *worker_main(void *arg)
{
    struct slot *me = arg;

    while (1) {
        int req;

        pthread_mutex_lock(&qlock);
        while (next_out == next_in && !shutting_down)
            pthread_cond_wait(&qcond, &qlock);
        if (next_out == next_in) { /* queue drained and shutting down */
            pthread_mutex_unlock(&qlock);
            break;
        }
        req = requests[next_out++];
        pthread_mutex_unlock(&qlock);

        me->served++;
        me->bytes += req;
    }
    return NULL;
}

int main(void)
{
    pthread_t workers[NWORKERS];
    int served = 0;
    long bytes = 0;

    for (int i = 0; i < NWORKERS; i++) {
        table[i].worker_id = i;
        pthread_create(&workers[i], NULL, worker_main, &table[i]);
    }

    for (int i = 0; i < NREQUESTS; i++) {
        pthread_mutex_lock(&qlock);
        requests[next_in++] = 100 * (i + 1);
        pthread_cond_signal(&qcond);
        pthread_mutex_unlock(&qlock);
    }

    pthread_mutex_lock(&qlock);
    shutting_down = 1;
    pthread_cond_broadcast(&qcond);
    pthread_mutex_unlock(&qlock);

    for (int i = 0; i < NWORKERS; i++)
        pthread_join(workers[i], NULL);

    for (int i = 0; i < NWORKERS; i++) {
        assert(table[i].worker_id == i);
        served += table[i].served;
        bytes += table[i].bytes;
    }
    assert(served == NREQUESTS);
    assert(bytes == 100L * NREQUESTS * (NREQUESTS + 1) / 2);
    printf("served=%d bytes=%ld\n", served, bytes);
    return 0;
}
