/* Two creation loops whose trip counts come from the command line (1 and 1 by default): the
 * verifier gives each path through the loops its own thread slots, and the schedule names
 * which slot each creation starts. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int producers = 1, consumers = 1;
static int value;
static int seen;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *produce(void *arg) {
  pthread_mutex_lock(&m);
  value += 10;
  pthread_mutex_unlock(&m);
  return NULL;
}

static void *consume(void *arg) {
  pthread_mutex_lock(&m);
  seen += value;
  pthread_mutex_unlock(&m);
  return NULL;
}

int main(int argc, char **argv) {
  if (argc == 3) {
    producers = atoi(argv[1]);
    consumers = atoi(argv[2]);
  }
  if (producers < 0 || producers > 2 || consumers < 0 || consumers > 2)
    return 1;
  pthread_t p[2], c[2];
  for (int i = 0; i < producers; i++)
    pthread_create(&p[i], NULL, produce, NULL);
  for (int i = 0; i < consumers; i++)
    pthread_create(&c[i], NULL, consume, NULL);
  for (int i = 0; i < producers; i++)
    pthread_join(p[i], NULL);
  for (int i = 0; i < consumers; i++)
    pthread_join(c[i], NULL);
  printf("value %d\n", value);
  return 0;
}
