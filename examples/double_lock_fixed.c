/* The corrected double lock of seed 002 (Sect. 5, Table 1): both threads take the mutexes
 * in the same order (a, then b), so no deadlock is possible. Expected: `safe`. */
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
    pthread_mutex_lock(&a);
    pthread_mutex_lock(&b);
    shared = 2; /* critical section */
    pthread_mutex_unlock(&b);
    pthread_mutex_unlock(&a);
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
