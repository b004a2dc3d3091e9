/* A function hands a thread the address of its own local and returns without waiting for
 * it: the thread's read is defined only while the function runs, which the schedule makes
 * sure of (the return waits for the read). */
#include <pthread.h>
#include <stdio.h>

static pthread_t t;

static void *show(void *arg) {
  printf("got %d\n", *(int *)arg);
  return 0;
}

static void spawn(int v) {
  int x = v * 2;
  pthread_create(&t, 0, show, &x);
}

int main(void) {
  spawn(5);
  pthread_join(t, 0);
  return 0;
}
