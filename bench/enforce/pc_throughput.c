/* Producer-consumer throughput (seed 002, Fig. 1/13, and its evaluation): producers and
 * consumers share a bounded buffer under one mutex and loop forever; `produced` and `consumed`
 * count the useful iterations (an item added or removed). timer.c, linked beside it, prints
 * their sum after a fixed time and ends the process.
 *
 *   THREADS   producers (and as many consumers), default 1
 *   N         buffer size, default 5 */
#include <assert.h>
#include <pthread.h>

#ifndef THREADS
#define THREADS 1
#endif
#ifndef N
#define N 5
#endif

int buffer[N];
int count = 0;
unsigned long produced = 0, consumed = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *producer(void *arg) {
  while (1) {
    pthread_mutex_lock(&m);
    if (count < N) {
      buffer[count] = 1;
      count = count + 1;
      produced = produced + 1;
    }
    pthread_mutex_unlock(&m);
  }
  return 0;
}

void *consumer(void *arg) {
  while (1) {
    pthread_mutex_lock(&m);
    if (count > 0) {
      count = count - 1;
      buffer[count] = 0;
      consumed = consumed + 1;
    }
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(void) {
  pthread_t p[THREADS], c[THREADS];
  for (int i = 0; i < THREADS; i++) {
    pthread_create(&p[i], 0, producer, 0);
    pthread_create(&c[i], 0, consumer, 0);
  }
  for (int i = 0; i < THREADS; i++) {
    pthread_join(p[i], 0);
    pthread_join(c[i], 0);
  }
  return 0;
}
