/* The double-lock deadlock of seed 002, Fig. 7: two threads protect their critical sections
 * with two mutexes taken in opposite orders. When T2 takes b right after T1 took a, both wait
 * forever. Expected: `partially safe`, with a first IVR in which the loop bodies alternate.
 * The corrected version is double_lock_fixed.c. */
#include <pthread.h>

pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;
int shared = 0;

void *t1(void *arg) {
  while (1) {
    pthread_mutex_lock(&a);
    pthread_mutex_lock(&b);
    shared = 1; /* critical section */
    pthread_mutex_unlock(&b);
    pthread_mutex_unlock(&a);
  }
  return 0;
}

void *t2(void *arg) {
  while (1) {
    pthread_mutex_lock(&b);
    pthread_mutex_lock(&a);
    shared = 2; /* critical section */
    pthread_mutex_unlock(&a);
    pthread_mutex_unlock(&b);
  }
  return 0;
}

int main(void) {
  pthread_t x, y;
  pthread_create(&x, 0, t1, 0);
  pthread_create(&y, 0, t2, 0);
  pthread_join(x, 0);
  pthread_join(y, 0);
  return 0;
}
