/* One branch, inlined twice: decided while lowering in the call f(1), taken at run time in
 * f(x). The schedule branches on the second copy (x is read from standard input); the
 * built program reaches the first copy too. Where a2 is 0, t reads z after u wrote it. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

int g, z;

static int f(int k) {
  int r = 0;
  if (k)
    r = 5;
  return r;
}

static void *t(void *arg) {
  (void)arg;
  int x = g;
  int a1 = f(1);
  int a2 = f(x);
  int w = z;
  if (a2 == 0)
    assert(w == 1);
  return (void *)(long)a1;
}

static void *u(void *arg) {
  (void)arg;
  z = 1;
  return 0;
}

int main(void) {
  pthread_t th, tu;
  g = getchar() == 'y';
  pthread_create(&th, 0, t, 0);
  pthread_create(&tu, 0, u, 0);
  pthread_join(th, 0);
  pthread_join(tu, 0);
  printf("z=%d\n", z);
  return 0;
}
