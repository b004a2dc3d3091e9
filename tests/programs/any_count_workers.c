/* Starts 200 workers in a loop without looking at what pthread_create returns; each enters
 * the critical section under the mutex alone. Safe for any number of threads (a
 * thread-modular proof shows it), and built with a schedule of at most --max-threads of
 * them: the creations past the bound fail. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int inside;

static void *worker(void *arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  inside++;
  assert(inside == 1);
  inside--;
  pthread_mutex_unlock(&m);
  return NULL;
}

int main(void) {
  pthread_t t;
  for (int i = 0; i < 200; i++)
    pthread_create(&t, NULL, worker, NULL);
  printf("started\n");
  return 0;
}
