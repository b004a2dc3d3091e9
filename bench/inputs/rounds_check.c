/* Counts an input's number of rounds beside a thread that sets a flag under a mutex, then
 * checks the count: for input 3 every schedule fails. The search beside the engines finds
 * the bug at once; `synth verify bench/inputs/rounds_check.c`. */
#include <assert.h>
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int seen;
static void *ticker(void *a)
{
    pthread_mutex_lock(&m);
    seen = 1;
    pthread_mutex_unlock(&m);
    return a;
}
int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, ticker, NULL);
    int n = __VERIFIER_nondet_int();
    int sum = 0;
    for (int i = 0; i < n; i++)
        sum += 1;
    pthread_join(t, NULL);
    assert(sum != 3);
    return 0;
}
