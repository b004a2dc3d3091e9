// verdict: safe
// A created thread's id is not a small number (glibc's is an address).
#include <assert.h>
#include <pthread.h>
void *worker(void *arg) { return arg; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  assert(t != 1);
  pthread_join(t, 0);
  return 0;
}
