/* Creates up to 6 workers; creations the system refuses (EAGAIN) are skipped. Every worker
 * that was created adds one under the mutex. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

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
  pthread_t t[6];
  int ok[6];
  int made = 0;
  for (int i = 0; i < 6; i++) {
    ok[i] = pthread_create(&t[i], NULL, worker, NULL) == 0;
    made += ok[i];
  }
  for (int i = 0; i < 6; i++)
    if (ok[i])
      pthread_join(t[i], NULL);
  assert(counter == made);
  printf("made %d\n", made);
  return 0;
}
