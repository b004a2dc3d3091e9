/* Producers, then consumers, each created in a loop whose count comes from the command line;
 * a creation that fails (EAGAIN under the thread bound) is not counted. Prints how many of
 * each ran. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int made[2];
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *producer(void *a) {
  pthread_mutex_lock(&m);
  made[0]++;
  pthread_mutex_unlock(&m);
  return a;
}

static void *consumer(void *a) {
  pthread_mutex_lock(&m);
  made[1]++;
  pthread_mutex_unlock(&m);
  return a;
}

int main(int argc, char **argv) {
  if (argc != 3)
    return 2;
  int np = atoi(argv[1]), nc = atoi(argv[2]);
  pthread_t t[16];
  int k = 0;
  for (int i = 0; i < np && k < 16; i++)
    if (pthread_create(&t[k], 0, producer, 0) == 0)
      k++;
  for (int i = 0; i < nc && k < 16; i++)
    if (pthread_create(&t[k], 0, consumer, 0) == 0)
      k++;
  for (int i = 0; i < k; i++)
    pthread_join(t[i], 0);
  printf("%d %d\n", made[0], made[1]);
  return 0;
}
