/* A slot allocator returns early on its "no free slot" error path
 * without unlocking the mutex. With one slot and two workers the error path
 * is only taken when one worker holds the slot while the other asks; the
 * failing worker then exits still holding the lock, and the other worker's
 * release_slot() blocks forever (deadlock). */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define NSLOTS 1
#define NWORKERS 2

static int slot_owner[NSLOTS];
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;
static int completed;

static int acquire_slot(int who)
{
    pthread_mutex_lock(&slots_lock);
    for (int i = 0; i < NSLOTS; i++) {
        if (slot_owner[i] == 0) {
            slot_owner[i] = who;
            pthread_mutex_unlock(&slots_lock);
            return i;
        }
    }
    fprintf(stderr, "worker %d: no free slot\n", who);
    return -1;                      /* BUG: slots_lock still held */
}

static void release_slot(int idx, int who)
{
    pthread_mutex_lock(&slots_lock);
    assert(slot_owner[idx] == who);
    slot_owner[idx] = 0;
    completed++;
    pthread_mutex_unlock(&slots_lock);
}

static void *worker(void *arg)
{
    int who = (int)(long)arg;
    int s = acquire_slot(who);
    if (s < 0)
        return NULL;
    /* use the slot */
    volatile int work = 0;
    for (int i = 0; i < 3; i++)
        work += i * who;
    release_slot(s, who);
    return NULL;
}

int main(void)
{
    pthread_t th[NWORKERS];
    for (long i = 0; i < NWORKERS; i++)
        pthread_create(&th[i], NULL, worker, (void *)(i + 1));
    for (int i = 0; i < NWORKERS; i++)
        pthread_join(th[i], NULL);
    printf("%d job(s) completed\n", completed);
    return 0;
}
