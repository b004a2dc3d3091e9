/* A condition variable initialised with pthread_cond_init: the worker waits for main's
 * value under the mutex and prints it. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m;
static pthread_cond_t ready;
static int value, set;

static void *worker(void *arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  while (!set)
    pthread_cond_wait(&ready, &m);
  printf("got %d\n", value);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_mutex_init(&m, 0);
  pthread_cond_init(&ready, 0);
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&m);
  value = 42;
  set = 1;
  pthread_cond_signal(&ready);
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  return 0;
}
