/* The unsynchronised producer-consumer of seed 002, Fig. 9: two producers and two consumers
 * check the buffer *before* taking the mutex, so an unconstrained run can overflow or
 * underflow it (the assertions fail). A consumer ends the program when the input says so
 * (`__VERIFIER_nondet_int()`, supplied at run time by `synth_input`, see stop_after.c),
 * printing how many items were produced and consumed. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define N 2

int count = 0;
unsigned long produced = 0, consumed = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
extern int __VERIFIER_nondet_int(void);

void *producer(void *arg) {
  while (1) {
    if (count < N) { /* checked without the mutex */
      pthread_mutex_lock(&m);
      count = count + 1;
      assert(count <= N);
      produced = produced + 1;
      pthread_mutex_unlock(&m);
    }
  }
  return 0;
}

void *consumer(void *arg) {
  while (1) {
    if (count > 0) { /* checked without the mutex */
      pthread_mutex_lock(&m);
      count = count - 1;
      assert(count >= 0);
      consumed = consumed + 1;
      pthread_mutex_unlock(&m);
    }
    if (__VERIFIER_nondet_int()) {
      printf("produced %lu consumed %lu\n", produced, consumed);
      exit(0);
    }
  }
  return 0;
}

int main(void) {
  pthread_t p1, p2, c1, c2;
  pthread_create(&p1, 0, producer, 0);
  pthread_create(&p2, 0, producer, 0);
  pthread_create(&c1, 0, consumer, 0);
  pthread_create(&c2, 0, consumer, 0);
  pthread_join(p1, 0);
  pthread_join(p2, 0);
  pthread_join(c1, 0);
  pthread_join(c2, 0);
  printf("produced %lu consumed %lu\n", produced, consumed);
  return 0;
}
