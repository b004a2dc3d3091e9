/* The producer-consumer of seed 002, Fig. 1/13, with distinct items and a check that none is
 * lost or duplicated. Producers take items from the input (`__VERIFIER_nondet_int()`,
 * supplied at run time by `synth_input`, see items.c: 1, 2, ..., ITEMS, then 0 = no more)
 * and push them on a bounded buffer under a mutex; consumers pop them and add them up. When
 * every producer is done and the buffer is empty the consumers stop, and main checks the
 * count, the sum and the sum of squares of the consumed items against 1..ITEMS: exit 0 when
 * they match, 1 otherwise.
 *
 *   THREADS   producers (and as many consumers), default 1
 *   N         buffer size, default 5
 *   ITEMS     items the input supplies, default 100000 */
#include <pthread.h>
#include <stdio.h>

#ifndef THREADS
#define THREADS 1
#endif
#ifndef N
#define N 5
#endif
#ifndef ITEMS
#define ITEMS 100000
#endif

int buffer[N];
int count = 0;
unsigned producers_done = 0;
unsigned long taken = 0, sum = 0, squares = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
extern int __VERIFIER_nondet_int(void);

void *producer(void *arg) {
  while (1) {
    pthread_mutex_lock(&m);
    if (count < N) {
      int item = __VERIFIER_nondet_int();
      if (item == 0) {
        producers_done = producers_done + 1;
        pthread_mutex_unlock(&m);
        break;
      }
      buffer[count] = item;
      count = count + 1;
    }
    pthread_mutex_unlock(&m);
  }
  return 0;
}

void *consumer(void *arg) {
  while (1) {
    pthread_mutex_lock(&m);
    if (count > 0) {
      count = count - 1;
      unsigned long item = (unsigned long)buffer[count];
      taken = taken + 1;
      sum = sum + item;
      squares = squares + item * item;
    } else if (producers_done == THREADS) {
      pthread_mutex_unlock(&m);
      break;
    }
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(void) {
  pthread_t p[THREADS], c[THREADS];
  for (int i = 0; i < THREADS; i++) {
    pthread_create(&p[i], 0, producer, 0);
    pthread_create(&c[i], 0, consumer, 0);
  }
  for (int i = 0; i < THREADS; i++) {
    pthread_join(p[i], 0);
    pthread_join(c[i], 0);
  }
  /* The expected count, sum and sum of squares of 1..ITEMS (constant expressions), compared
   * without branching: the verifier need not follow the values. */
  int ok = (taken == (unsigned long)ITEMS) & (sum == (unsigned long)ITEMS * (ITEMS + 1UL) / 2) &
           (squares == (unsigned long)ITEMS * (ITEMS + 1UL) * (2UL * ITEMS + 1UL) / 6);
  printf("items %lu of %lu, sum %lu, squares %lu, none lost or duplicated: %d\n", taken,
         (unsigned long)ITEMS, sum, squares, ok);
  return !ok;
}
