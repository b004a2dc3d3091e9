/* main stores its input in a global that its thread reads, and assumes it in range: only main
 * writes the global, so an assumption that fails ends the program (abort) and never waits.
 * The built program follows the schedule for inputs in range. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static void assume_abort_if_not(int c) {
  if (!c)
    abort();
}

volatile unsigned n, seen;

static void *reader(void *arg) {
  (void)arg;
  seen = n;
  return NULL;
}

int main(void) {
  pthread_t t;
  unsigned v = 0;
  if (scanf("%u", &v) != 1)
    return 1;
  n = v;
  pthread_create(&t, NULL, reader, NULL);
  assume_abort_if_not(n >= 2 && n < 4);
  pthread_join(t, NULL);
  printf("seen %u\n", seen);
  return 0;
}
