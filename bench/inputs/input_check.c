/* main reads an input, takes a mutex its thread also takes, and checks the input: for the
 * input 5 every schedule fails (`unsafe`). With -DREADS_SEEN the check also reads what the
 * thread wrote, and a schedule that runs the thread first avoids the bug (`partially safe`). */
#include <assert.h>
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int seen;

static void *worker(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&m);
    seen++;
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    int x = __VERIFIER_nondet_int();
    pthread_mutex_lock(&m);
    seen++;
    pthread_mutex_unlock(&m);
#ifdef READS_SEEN
    assert(!(x == 5 && seen == 1));
#else
    assert(x != 5);
#endif
    pthread_join(t, NULL);
    return 0;
}
