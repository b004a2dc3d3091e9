/* Figure 3 of Musuvathi & Qadeer, "Fair stateless model checking" (PLDI 2008): thread t sets x,
 * thread u spins until it sees the update, yielding in the spin loop. The only infinite execution
 * (u spinning forever while t is never scheduled) is unfair, so the program is fair-terminating,
 * and it satisfies the good samaritan property (u yields in every loop iteration). */
#include <pthread.h>
#include <sched.h>

int x = 0;

void *t(void *arg) {
  x = 1;
  return 0;
}

void *u(void *arg) {
  while (x == 0)
    sched_yield();
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
