/* Starts workers until the system refuses one (pthread_create fails), then waits for the
   workers it started and prints how many ran. */
#include <pthread.h>
#include <stdio.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int started, finished;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  finished++;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  for (;;) {
    if (pthread_create(&t, 0, worker, 0) != 0)
      break;
    pthread_detach(t);
    pthread_mutex_lock(&m);
    started++;
    pthread_mutex_unlock(&m);
  }
  for (;;) {
    pthread_mutex_lock(&m);
    int all = finished == started;
    pthread_mutex_unlock(&m);
    if (all)
      break;
  }
  printf("%d %d\n", started, finished);
  return 0;
}
