/* The unsynchronised producer-consumer of seed 002, Fig. 9: two producers and two consumers
 * check the free space of the buffer *before* taking the mutex. When one item is left and both
 * consumers see a non-empty buffer, the second one removes an item that is not there
 * (underflow); likewise two producers can overflow the buffer. Expected: `partially safe`:
 * the first IVR runs each loop body as if it were atomic and is safe. */
#include <assert.h>
#include <pthread.h>

#define N 2

int count = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *producer(void *arg) {
  while (1) {
    if (count < N) { /* checked without the mutex */
      pthread_mutex_lock(&m);
      count = count + 1;
      assert(count <= N);
      pthread_mutex_unlock(&m);
    }
  }
  return 0;
}

void *consumer(void *arg) {
  while (1) {
    if (count > 0) { /* checked without the mutex */
      pthread_mutex_lock(&m);
      count = count - 1;
      assert(count >= 0);
      pthread_mutex_unlock(&m);
    }
  }
  return 0;
}

int main(void) {
  pthread_t p1, p2, c1, c2;
  pthread_create(&p1, 0, producer, 0);
  pthread_create(&p2, 0, producer, 0);
  pthread_create(&c1, 0, consumer, 0);
  pthread_create(&c2, 0, consumer, 0);
  pthread_join(p1, 0);
  return 0;
}
