/* One function whose local a thread reads in one call and no other thread sees in the
 * other: both calls run the same code, instrumented once, so the local's lifetime is an
 * event of the schedule in the second call too. */
#include <pthread.h>
#include <stdio.h>

static pthread_t t;

static void *show(void *arg) {
  printf("got %d\n", *(int *)arg);
  return 0;
}

static void run(int spawn) {
  int x;
  if (spawn) {
    x = 4;
    pthread_create(&t, 0, show, &x);
    pthread_join(t, 0);
  }
}

int main(void) {
  run(1);
  run(0);
  return 0;
}
