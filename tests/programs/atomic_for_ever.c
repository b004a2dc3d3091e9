/* main enters an atomic region and writes x in it for ever, so the proof never runs the
 * worker. Deployed, an atomic region orders only events: the worker's code before its first
 * event runs anyway and fails its assertion with the input 5. No schedule at any level. */
#include <pthread.h>
#include <assert.h>

extern void __VERIFIER_atomic_begin(void);
int __VERIFIER_nondet_int(void);
int x;

void *worker(void *arg) {
  int r = __VERIFIER_nondet_int();
  assert(r != 5);
  x = 2;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  __VERIFIER_atomic_begin();
  while (1)
    x = 1;
  return 0;
}
