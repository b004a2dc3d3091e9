/* main ends the program while the worker may still be computing on its own: deployed, the
 * worker runs on while the process exits, and with the input 5 it fails its assertion. No
 * schedule may end the program before the worker reaches its next event, so every execution
 * a schedule could permit can fail: no safe schedule. */
#include <pthread.h>
#include <assert.h>

int __VERIFIER_nondet_int(void);
int done = 0;

void *worker(void *arg) {
  int r = __VERIFIER_nondet_int();
  assert(r != 5);
  done = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  return 0;
}
