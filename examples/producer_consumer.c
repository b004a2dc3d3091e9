/* Producer-consumer of seed 002, Fig. 1 (and Fig. 13 with more threads): producers and
 * consumers share a bounded buffer, protected by one mutex, and loop forever. A producer adds
 * an item only when the buffer has room, a consumer removes one only when it is not empty;
 * the assertions check for overflow and underflow. Correctly synchronised: `safe`.
 *
 *   THREADS   producers (and as many consumers), default 1
 *   N         buffer size, default 5
 *
 * scripts/synth verify examples/producer_consumer.c -DTHREADS=2 -DN=1000 */
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
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *producer(void *arg) {
  while (1) {
    pthread_mutex_lock(&m);
    if (count < N) {
      buffer[count] = 1;
      count = count + 1;
      assert(count <= N);
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
      assert(count >= 0);
      buffer[count] = 0;
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
