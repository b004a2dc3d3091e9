/* A setting read from standard input with scanf (the number of rounds), with a default where
 * the input has none or one out of range, then two threads that count their rounds into a
 * shared total under a mutex. scanf's model takes any value the input can give, so the
 * program is verified for every input. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int rounds;
static int total;

static void *worker(void *arg) {
  for (int i = 0; i < rounds; i++) {
    pthread_mutex_lock(&lock);
    total++;
    pthread_mutex_unlock(&lock);
  }
  return arg;
}

int main(void) {
  int r;
  if (scanf("%d", &r) != 1 || r < 1 || r > 5)
    r = 2;
  rounds = r;
  pthread_t t[2];
  for (int k = 0; k < 2; k++)
    pthread_create(&t[k], 0, worker, 0);
  for (int k = 0; k < 2; k++)
    pthread_join(t[k], 0);
  assert(total == 2 * rounds);
  printf("%d rounds, total %d\n", rounds, total);
  return 0;
}
