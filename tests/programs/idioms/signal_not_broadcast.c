/* Two workers wait (correctly, in a while loop) for `go`, but main wakes them with a single
 * pthread_cond_signal instead of pthread_cond_broadcast. If both are already waiting, only
 * one wakes; the other waits forever and main's join never returns: deadlock. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t go_cond = PTHREAD_COND_INITIALIZER;
static int go;
static int passed;

static void *worker(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&lock);
    while (!go)
        pthread_cond_wait(&go_cond, &lock);
    passed++;
    pthread_mutex_unlock(&lock);
    return NULL;
}

int main(void)
{
    pthread_t a, b;

    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);

    pthread_mutex_lock(&lock);
    go = 1;
    pthread_cond_signal(&go_cond); /* BUG: wakes at most one of the two waiters */
    pthread_mutex_unlock(&lock);

    pthread_join(a, NULL);
    pthread_join(b, NULL);
    assert(passed == 2);
    printf("passed=%d\n", passed);
    return 0;
}
