// verdict: safe
// A timed lock that has to wait, with negative seconds in its deadline, times out at once
// in glibc 2.34 and later, also where the nanoseconds are out of range (its futex wait
// returns ETIMEDOUT before the kernel sees them).
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <time.h>

int main(void) {
  pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
  struct timespec before_1970 = {-1, 1000000000};
  pthread_mutex_lock(&m);
  assert(pthread_mutex_timedlock(&m, &before_1970) == ETIMEDOUT);
  pthread_mutex_unlock(&m);
  return 0;
}
