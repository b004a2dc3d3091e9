/* A program of two files: main.c starts two workers that add to a counter kept in counter.c
 * (with a mutex) or counter_racy.c (without). Expected: safe with counter.c; with
 * counter_racy.c an update is lost in some executions. */
#include <pthread.h>
#include <stdio.h>
#include <assert.h>
#include "counter.h"
void *work(void *arg) { for (int i = 0; i < 3; i++) counter_add((int)(long)arg); return 0; }
int main(void) {
  pthread_t t[2];
  for (long i = 0; i < 2; i++) pthread_create(&t[i], 0, work, (void *)(i + 1));
  for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
  int total = counter_get();
  printf("total %d\n", total);
  assert(total == 9);
  return 0;
}
