// verdict: unknown
// glibc's pthread_mutex_destroy of a locked mutex returns EBUSY.
#include <assert.h>
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int main(void) {
  pthread_mutex_lock(&m);
  int r = pthread_mutex_destroy(&m);
  assert(r == 0);
  return 0;
}
