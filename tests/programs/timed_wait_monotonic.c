/* A wait that nobody signals, on a condition variable whose timed waits use the monotonic
 * clock: the built program's wait returns ETIMEDOUT no earlier than its deadline, 0.2 s on
 * that clock after it started (it prints "early" otherwise). */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c;
static int waited;

static void *worker(void *arg) {
  (void)arg;
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  ts.tv_nsec += 200000000;
  if (ts.tv_nsec >= 1000000000) {
    ts.tv_sec += 1;
    ts.tv_nsec -= 1000000000;
  }
  pthread_mutex_lock(&m);
  int rc = pthread_cond_timedwait(&c, &m, &ts);
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  int early = now.tv_sec < ts.tv_sec || (now.tv_sec == ts.tv_sec && now.tv_nsec < ts.tv_nsec);
  waited++;
  pthread_mutex_unlock(&m);
  printf("%s%s\n", rc == ETIMEDOUT ? "timed out" : "woken", early ? " early" : "");
  return NULL;
}

int main(void) {
  pthread_condattr_t a;
  pthread_condattr_init(&a);
  pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
  pthread_cond_init(&c, &a);
  pthread_condattr_destroy(&a);
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  pthread_join(t, NULL);
  pthread_mutex_lock(&m);
  printf("waited %d\n", waited);
  pthread_mutex_unlock(&m);
  return 0;
}
