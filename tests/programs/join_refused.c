/* Creates 5 workers without checking what pthread_create returns, then joins every id. Under
 * a thread bound the creations beyond it fail, and joining the ids they left returns ESRCH
 * at once; every worker that was created adds one under the mutex. */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>

#define N 5

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int counter;

static void *worker(void *arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  counter++;
  pthread_mutex_unlock(&m);
  return NULL;
}

int main(void) {
  pthread_t t[N];
  for (int i = 0; i < N; i++)
    pthread_create(&t[i], NULL, worker, NULL);
  int joined = 0;
  for (int i = 0; i < N; i++)
    if (pthread_join(t[i], NULL) != ESRCH)
      joined++;
  assert(counter == joined);
  printf("joined %d\n", joined);
  return 0;
}
