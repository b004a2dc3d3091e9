// verdict: safe
// A thread that joins itself gets EDEADLK at once.
#include <assert.h>
#include <errno.h>
#include <pthread.h>
void *worker(void *arg) {
  (void)arg;
  int r = pthread_join(pthread_self(), 0);
  assert(r == EDEADLK);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return 0;
}
