/* Szymanski's mutual exclusion for two threads (classic form with flags 0..4). Expected:
 * safe. */
#include <assert.h>
#include <pthread.h>

int flag1 = 0, flag2 = 0, inside = 0;

void *thr1(void *arg) {
  flag1 = 1;
  while (flag2 >= 3) {
  }
  flag1 = 3;
  if (flag2 == 1) {
    flag1 = 2;
    while (flag2 != 4) {
    }
  }
  flag1 = 4;
  inside = inside + 1; /* critical section */
  assert(inside == 1);
  inside = inside - 1;
  flag1 = 0;
  return 0;
}

void *thr2(void *arg) {
  flag2 = 1;
  while (flag1 >= 3) {
  }
  flag2 = 3;
  if (flag1 == 1) {
    flag2 = 2;
    while (flag1 != 4) {
    }
  }
  flag2 = 4;
  while (flag1 >= 2) {
  }
  inside = inside + 1; /* critical section */
  assert(inside == 1);
  inside = inside - 1;
  while (2 <= flag1 && flag1 <= 3) {
  }
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
