// verdict: safe
// Timed locks of recursive and error-checking mutexes, and of a normal mutex the caller
// holds (glibc waits on it, so the call times out); sem_timedwait refuses an invalid
// deadline even where the value is positive, and times out where it is 0.
#define _GNU_SOURCE
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <time.h>

int main(void) {
  pthread_mutexattr_t a;
  pthread_mutex_t rec, chk, norm = PTHREAD_MUTEX_INITIALIZER;
  struct timespec past = {1, 0}, bad = {0, -1};
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&rec, &a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutex_init(&chk, &a);
  assert(pthread_mutex_timedlock(&rec, &past) == 0);
  assert(pthread_mutex_timedlock(&rec, &bad) == 0);
  assert(pthread_mutex_unlock(&rec) == 0 && pthread_mutex_unlock(&rec) == 0);
  assert(pthread_mutex_unlock(&rec) == EPERM);
  assert(pthread_mutex_timedlock(&chk, &past) == 0);
  assert(pthread_mutex_timedlock(&chk, &past) == EDEADLK);
  assert(pthread_mutex_unlock(&chk) == 0);
  assert(pthread_mutex_lock(&norm) == 0);
  assert(pthread_mutex_timedlock(&norm, &past) == ETIMEDOUT);
  assert(pthread_mutex_clocklock(&norm, CLOCK_MONOTONIC, &bad) == EINVAL);
  assert(pthread_mutex_clocklock(&norm, CLOCK_PROCESS_CPUTIME_ID, &past) == EINVAL);
  pthread_mutex_unlock(&norm);
  sem_t s;
  sem_init(&s, 0, 1);
  errno = 0;
  assert(sem_timedwait(&s, &bad) == -1 && errno == EINVAL);
  assert(sem_timedwait(&s, &past) == 0);
  assert(sem_timedwait(&s, &past) == -1 && errno == ETIMEDOUT);
  assert(sem_clockwait(&s, CLOCK_MONOTONIC, &past) == -1 && errno == ETIMEDOUT);
  assert(sem_clockwait(&s, CLOCK_PROCESS_CPUTIME_ID, &past) == -1 && errno == EINVAL);
  return 0;
}
