/* Lamport's fast mutual exclusion for two threads (classic form: variables x, y and one flag
 * per thread). Expected: safe. */
#include <assert.h>
#include <pthread.h>

int x = 0, y = 0, b1 = 0, b2 = 0, inside = 0;

void *thr1(void *arg) {
  while (1) {
    b1 = 1;
    x = 1;
    if (y != 0) {
      b1 = 0;
      while (y != 0) {
      }
      continue;
    }
    y = 1;
    if (x != 1) {
      b1 = 0;
      while (b2 != 0) {
      }
      if (y != 1) {
        while (y != 0) {
        }
        continue;
      }
    }
    break;
  }
  inside = inside + 1; /* critical section */
  assert(inside == 1);
  inside = inside - 1;
  y = 0;
  b1 = 0;
  return 0;
}

void *thr2(void *arg) {
  while (1) {
    b2 = 1;
    x = 2;
    if (y != 0) {
      b2 = 0;
      while (y != 0) {
      }
      continue;
    }
    y = 2;
    if (x != 2) {
      b2 = 0;
      while (b1 != 0) {
      }
      if (y != 2) {
        while (y != 0) {
        }
        continue;
      }
    }
    break;
  }
  inside = inside + 1; /* critical section */
  assert(inside == 1);
  inside = inside - 1;
  y = 0;
  b2 = 0;
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
