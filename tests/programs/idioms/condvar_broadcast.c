/* Start gate: workers wait on a condition variable in a while loop until main sets `go`,
 * then main broadcasts. The predicate is checked under the mutex, so a worker that arrives
 * late does not wait and an early one cannot miss the broadcast. Safe. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define NWORKERS 3

static pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_open = PTHREAD_COND_INITIALIZER;
static int go;
static int started;
static int work_done[NWORKERS];

static void *worker(void *arg)
{
    int id = *(const int *)arg;

    pthread_mutex_lock(&gate_lock);
    while (!go)
        pthread_cond_wait(&gate_open, &gate_lock);
    started++;
    pthread_mutex_unlock(&gate_lock);

    work_done[id] = (id + 1) * 100;
    return NULL;
}

int main(void)
{
    pthread_t threads[NWORKERS];
    int ids[NWORKERS];
    int sum = 0;

    for (int i = 0; i < NWORKERS; i++) {
        ids[i] = i;
        pthread_create(&threads[i], NULL, worker, &ids[i]);
    }

    pthread_mutex_lock(&gate_lock);
    assert(started == 0); /* nobody passes the gate before it opens */
    go = 1;
    pthread_cond_broadcast(&gate_open);
    pthread_mutex_unlock(&gate_lock);

    for (int i = 0; i < NWORKERS; i++)
        pthread_join(threads[i], NULL);

    for (int i = 0; i < NWORKERS; i++)
        sum += work_done[i];
    assert(started == NWORKERS);
    assert(sum == 600);
    printf("started=%d sum=%d\n", started, sum);
    return 0;
}
