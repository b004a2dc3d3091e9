/* One branch, inlined twice: taken at run time in f(x), then decided while lowering in
 * f(1), before the thread's last event and a branch on x that the schedule branches on. */
#include <pthread.h>
#include <stdio.h>

int g, h;

static int f(int k) {
  int r = 0;
  if (k)
    r = 5;
  return r;
}

static void *t(void *arg) {
  (void)arg;
  int x = g;
  int a2 = f(x);
  int a1 = f(1);
  if (x)
    h = 1;
  else
    h = 2;
  return (void *)(long)(a1 + a2);
}

int main(void) {
  pthread_t th;
  g = getchar() == 'y';
  pthread_create(&th, 0, t, 0);
  pthread_join(th, 0);
  printf("h=%d\n", h);
  return 0;
}
