// verdict: safe
// pthread_cond_timedwait refuses a timeout whose nanoseconds are 10^9 or more with EINVAL,
// at once and with the mutex still held.
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <time.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;

int main(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  ts.tv_nsec += 1000000000;
  pthread_mutex_lock(&m);
  assert(pthread_cond_timedwait(&c, &m, &ts) == EINVAL);
  assert(pthread_mutex_trylock(&m) == EBUSY);
  pthread_mutex_unlock(&m);
  return 0;
}
