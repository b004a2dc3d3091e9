/* The worker sets a flag and then computes on its own for ever; main waits for it at the
 * join, so the program never ends by itself. The proof ends in a loop in which no thread
 * touches shared memory (main blocked at the join): the schedule ends there, and the built
 * program must run as it would without one (main waiting at the join, the worker looping),
 * not refuse to start. */
#include <pthread.h>
#include <stdio.h>

int started = 0;

void *worker(void *arg) {
  int x = 0;
  started = 1;
  printf("worker started\n");
  fflush(stdout);
  while (1)
    x = 1 - x;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  printf("main joins\n");
  fflush(stdout);
  pthread_join(t, 0);
  printf("main joined, started = %d\n", started);
  return 0;
}
