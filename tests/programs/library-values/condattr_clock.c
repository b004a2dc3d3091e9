// verdict: safe
// Condition variables' clocks and the attributes of threads and mutexes that change nothing
// the model observes: glibc's results, and a clock read back as it was set.
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <time.h>

int main(void) {
  pthread_condattr_t a;
  clockid_t k = -1;
  int shared = -1;
  assert(pthread_condattr_init(&a) == 0);
  assert(pthread_condattr_getclock(&a, &k) == 0 && k == CLOCK_REALTIME);
  assert(pthread_condattr_setclock(&a, CLOCK_MONOTONIC) == 0);
  assert(pthread_condattr_getclock(&a, &k) == 0 && k == CLOCK_MONOTONIC);
  assert(pthread_condattr_setclock(&a, CLOCK_PROCESS_CPUTIME_ID) == EINVAL);
  assert(pthread_condattr_getclock(&a, &k) == 0 && k == CLOCK_MONOTONIC);
  assert(pthread_condattr_setpshared(&a, PTHREAD_PROCESS_SHARED) == 0);
  assert(pthread_condattr_getpshared(&a, &shared) == 0 && shared == PTHREAD_PROCESS_SHARED);
  assert(pthread_condattr_setpshared(&a, 7) == EINVAL);
  assert(pthread_condattr_getclock(&a, &k) == 0 && k == CLOCK_MONOTONIC);
  pthread_cond_t c;
  assert(pthread_cond_init(&c, &a) == 0);
  assert(pthread_condattr_destroy(&a) == 0);
  pthread_mutexattr_t ma;
  assert(pthread_mutexattr_init(&ma) == 0);
  assert(pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_PRIVATE) == 0);
  assert(pthread_mutexattr_setpshared(&ma, 5) == EINVAL);
  pthread_attr_t ta;
  assert(pthread_attr_init(&ta) == 0);
  assert(pthread_attr_setstacksize(&ta, 1024) == EINVAL);
  assert(pthread_attr_setstacksize(&ta, 1 << 20) == 0);
  assert(pthread_attr_setguardsize(&ta, 8192) == 0);
  return 0;
}
