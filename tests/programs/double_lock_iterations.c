/* The double-lock program of seed 002, Fig. 7: two threads take two mutexes in opposite
 * orders, so an unconstrained run can deadlock. Each loop ends when the input says so
 * (`__VERIFIER_nondet_int()`, supplied at run time by `synth_input`, see stop_after.c), so a
 * test can run a fixed number of rounds. main prints the rounds each thread completed. */
#include <pthread.h>
#include <stdio.h>

pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;
int shared = 0;
unsigned rounds1 = 0, rounds2 = 0; /* unsigned: wraps, never undefined */
extern int __VERIFIER_nondet_int(void);

void *t1(void *arg) {
  while (1) {
    pthread_mutex_lock(&a);
    pthread_mutex_lock(&b);
    shared = 1; /* critical section */
    rounds1 = rounds1 + 1;
    pthread_mutex_unlock(&b);
    pthread_mutex_unlock(&a);
    if (__VERIFIER_nondet_int())
      break;
  }
  return 0;
}

void *t2(void *arg) {
  while (1) {
    pthread_mutex_lock(&b);
    pthread_mutex_lock(&a);
    shared = 2; /* critical section */
    rounds2 = rounds2 + 1;
    pthread_mutex_unlock(&a);
    pthread_mutex_unlock(&b);
    if (__VERIFIER_nondet_int())
      break;
  }
  return 0;
}

int main(void) {
  pthread_t x, y;
  pthread_create(&x, 0, t1, 0);
  pthread_create(&y, 0, t2, 0);
  pthread_join(x, 0);
  pthread_join(y, 0);
  printf("rounds %u %u\n", rounds1, rounds2);
  return 0;
}
