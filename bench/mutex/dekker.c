/* Dekker's mutual exclusion for two threads (classic form, written from the algorithm's
 * textbook description). Each thread enters its critical section once; a counter checks
 * mutual exclusion. Expected: safe. */
#include <assert.h>
#include <pthread.h>

int flag1 = 0, flag2 = 0, turn = 0, inside = 0;

void *thr1(void *arg) {
  flag1 = 1;
  while (flag2 == 1) {
    if (turn != 0) {
      flag1 = 0;
      while (turn != 0) {
      }
      flag1 = 1;
    }
  }
  inside = inside + 1; /* critical section */
  assert(inside == 1);
  inside = inside - 1;
  turn = 1;
  flag1 = 0;
  return 0;
}

void *thr2(void *arg) {
  flag2 = 1;
  while (flag1 == 1) {
    if (turn != 1) {
      flag2 = 0;
      while (turn != 1) {
      }
      flag2 = 1;
    }
  }
  inside = inside + 1; /* critical section */
  assert(inside == 1);
  inside = inside - 1;
  turn = 0;
  flag2 = 0;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, thr1, 0);
  pthread_create(&t2, 0, thr2, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
