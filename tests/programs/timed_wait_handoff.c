/* A worker waits for a value with a deadline, and waits again after each timeout; main
 * publishes the value and signals. Whether a wait times out is the schedule's choice. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int ready, value, timeouts;

static void *worker(void *arg) {
  (void)arg;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  ts.tv_nsec = 0;
  ts.tv_sec += 1;
  pthread_mutex_lock(&m);
  while (!ready) {
    int rc = pthread_cond_timedwait(&c, &m, &ts);
    if (rc == ETIMEDOUT)
      timeouts = 1;
  }
  printf("got %d\n", value);
  pthread_mutex_unlock(&m);
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  pthread_mutex_lock(&m);
  value = 42;
  ready = 1;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  pthread_join(t, NULL);
  return 0;
}
