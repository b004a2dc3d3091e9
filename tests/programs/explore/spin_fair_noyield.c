/* spin_fair.c (Figure 3 of Musuvathi & Qadeer, "Fair stateless model checking", PLDI 2008)
 * without the yield in the spin loop. Still fair-terminating (the only infinite execution starves
 * t), but u violates the good samaritan property: it can be scheduled infinitely often without ever
 * yielding, so a fair scheduler that only demotes yielding threads can unroll the spin loop
 * without bound. */
#include <pthread.h>

int x = 0;

void *t(void *arg) {
  x = 1;
  return 0;
}

void *u(void *arg) {
  while (x == 0)
    ;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, u, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
