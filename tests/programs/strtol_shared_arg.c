/* main parses its argument with strtol and atoi while a thread reads the same string: the
 * library model of strtol reads it in a helper (`__synth_strto`) whose accesses the schedule
 * orders, and atoi's model calls strtol's, so the built program runs the models, helper and
 * all. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static char **args;

static void *worker(void *arg) {
  (void)arg;
  printf("%c\n", args[1][0]);
  return 0;
}

int main(int argc, char **argv) {
  pthread_t t;
  args = argv;
  pthread_create(&t, 0, worker, 0);
  long n = strtol(argv[1], 0, 10) + atoi(argv[1]);
  pthread_join(t, 0);
  printf("%ld\n", n);
  return argc == 2 ? 0 : 1;
}
