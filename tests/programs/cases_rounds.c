/* The number of rounds is an input checked into [1, 3] (2 otherwise); two threads count
 * their rounds into a shared total under a mutex. Decided by splitting the input into one
 * case per value: the schedule is one for every case until the rounds tell them apart. */
#include <assert.h>
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int rounds, total;

static void *worker(void *arg)
{
    for (int i = 0; i < rounds; i++) {
        pthread_mutex_lock(&lock);
        total++;
        pthread_mutex_unlock(&lock);
    }
    return arg;
}

int main(void)
{
    int r = __VERIFIER_nondet_int();
    if (r < 1 || r > 3)
        r = 2;
    rounds = r;
    pthread_t t[2];
    for (int k = 0; k < 2; k++)
        pthread_create(&t[k], 0, worker, 0);
    for (int k = 0; k < 2; k++)
        pthread_join(t[k], 0);
    assert(total == 2 * rounds);
    return 0;
}
