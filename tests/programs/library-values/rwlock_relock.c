// verdict: safe
// glibc refuses a rwlock's read or write lock to the thread that holds it for writing:
// EDEADLK at once, the lock still held.
#include <assert.h>
#include <errno.h>
#include <pthread.h>

pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;

int main(void) {
  assert(pthread_rwlock_wrlock(&l) == 0);
  assert(pthread_rwlock_wrlock(&l) == EDEADLK);
  assert(pthread_rwlock_rdlock(&l) == EDEADLK);
  assert(pthread_rwlock_unlock(&l) == 0);
  assert(pthread_rwlock_rdlock(&l) == 0);
  assert(pthread_rwlock_unlock(&l) == 0);
  return 0;
}
