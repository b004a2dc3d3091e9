/* Two workers each compute a partial result, meet at a barrier, and the thread that
 * pthread_barrier_wait returns PTHREAD_BARRIER_SERIAL_THREAD to publishes the sum once. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

static pthread_barrier_t barrier;
static int partial[2];
static int total;
static int published;

static void *worker(void *arg) {
  int id = *(int *)arg;
  partial[id] = (id + 1) * 10;
  if (pthread_barrier_wait(&barrier) == PTHREAD_BARRIER_SERIAL_THREAD) {
    total = partial[0] + partial[1];
    published++;
  }
  return NULL;
}

int main(void) {
  pthread_t t[2];
  int ids[2] = {0, 1};
  pthread_barrier_init(&barrier, NULL, 2);
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, worker, &ids[i]);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  assert(published == 1 && total == 30);
  printf("total %d\n", total);
  pthread_barrier_destroy(&barrier);
  return 0;
}
