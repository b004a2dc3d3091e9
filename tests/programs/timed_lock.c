/* Timed locks and semaphore waits in a built program: a worker holds the mutex until main's
 * pthread_mutex_timedlock has timed out once, then lets it go; main tries again until it
 * gets the mutex, waits for the worker's post with sem_timedwait, and then times out on the
 * semaphore with sem_clockwait on the monotonic clock. Each timeout comes no earlier than
 * its deadline (the program prints "early" otherwise). */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <time.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static sem_t holding, timed_out, posted;

static void *worker(void *arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  sem_post(&holding);
  sem_wait(&timed_out);
  pthread_mutex_unlock(&m);
  sem_post(&posted);
  return NULL;
}

/* 50 ms from now on `clock`, or less at the end of a second. */
static struct timespec soon(clockid_t clock) {
  struct timespec t;
  clock_gettime(clock, &t);
  t.tv_nsec = t.tv_nsec < 950000000 ? t.tv_nsec + 50000000 : 999999999;
  return t;
}

/* Whether `clock` has not reached `t`. */
static int before(clockid_t clock, struct timespec t) {
  struct timespec now;
  clock_gettime(clock, &now);
  return now.tv_sec < t.tv_sec || (now.tv_sec == t.tv_sec && now.tv_nsec < t.tv_nsec);
}

int main(void) {
  sem_init(&holding, 0, 0);
  sem_init(&timed_out, 0, 0);
  sem_init(&posted, 0, 0);
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  sem_wait(&holding);
  int timeouts = 0, early = 0, r;
  for (;;) {
    struct timespec d = soon(CLOCK_REALTIME);
    r = pthread_mutex_timedlock(&m, &d);
    if (r == 0)
      break;
    early |= before(CLOCK_REALTIME, d);
    if (!timeouts)
      sem_post(&timed_out);
    timeouts = 1;
    if (r != ETIMEDOUT)
      break;
  }
  printf("timedlock: %s%s\n", r == 0 && timeouts > 0 ? "locked after a timeout" : "wrong",
         early ? " early" : "");
  if (r == 0)
    pthread_mutex_unlock(&m);
  struct timespec far;
  clock_gettime(CLOCK_REALTIME, &far);
  far.tv_sec += 60;
  printf("sem_timedwait: %s\n", sem_timedwait(&posted, &far) == 0 ? "posted" : "failed");
  struct timespec d = soon(CLOCK_MONOTONIC);
  r = sem_clockwait(&posted, CLOCK_MONOTONIC, &d);
  printf("sem_clockwait: %s%s\n", r == -1 && errno == ETIMEDOUT ? "timed out" : "wrong",
         before(CLOCK_MONOTONIC, d) ? " early" : "");
  pthread_join(t, NULL);
  return 0;
}
