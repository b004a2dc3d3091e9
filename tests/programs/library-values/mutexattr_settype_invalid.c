// verdict: safe
// pthread_mutexattr_settype refuses an unknown type with EINVAL and keeps the type it had.
#include <assert.h>
#include <errno.h>
#include <pthread.h>

int main(void) {
  pthread_mutexattr_t a;
  pthread_mutex_t m;
  int t;
  assert(pthread_mutexattr_init(&a) == 0);
  assert(pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE) == 0);
  assert(pthread_mutexattr_settype(&a, 42) == EINVAL);
  assert(pthread_mutexattr_gettype(&a, &t) == 0 && t == PTHREAD_MUTEX_RECURSIVE);
  assert(pthread_mutex_init(&m, &a) == 0);
  assert(pthread_mutex_lock(&m) == 0);
  assert(pthread_mutex_lock(&m) == 0);
  assert(pthread_mutex_unlock(&m) == 0);
  assert(pthread_mutex_unlock(&m) == 0);
  return 0;
}
