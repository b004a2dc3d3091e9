/* main takes the mutex and then writes x for ever; the worker waits at the mutex for ever.
 * At Opt1 and Opt2 the schedule would remove the worker's lock (it subsumes the mutex), so
 * the deployed worker would run past it to its assertion, which the proof never reaches: no
 * schedule at those levels; at Opt0 the real lock keeps the worker waiting. */
#include <pthread.h>
#include <assert.h>

int __VERIFIER_nondet_int(void);
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  int r = __VERIFIER_nondet_int();
  assert(r != 5);
  x = 2;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&m);
  while (1)
    x = 1;
  return 0;
}
