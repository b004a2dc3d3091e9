/* A wait that nobody signals ends when its deadline passes: the built program's wait
 * returns ETIMEDOUT, no earlier than its deadline, 0.2 s after it started. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int waited;

static void *worker(void *arg) {
  (void)arg;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  ts.tv_nsec += 200000000;
  if (ts.tv_nsec >= 1000000000) {
    ts.tv_sec += 1;
    ts.tv_nsec -= 1000000000;
  }
  pthread_mutex_lock(&m);
  int rc = pthread_cond_timedwait(&c, &m, &ts);
  waited++;
  pthread_mutex_unlock(&m);
  printf("%s\n", rc == ETIMEDOUT ? "timed out" : "woken");
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  pthread_join(t, NULL);
  pthread_mutex_lock(&m);
  printf("waited %d\n", waited);
  pthread_mutex_unlock(&m);
  return 0;
}
