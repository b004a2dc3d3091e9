/* The arguments of a call are evaluated left to right in the IR, in an order C leaves open
 * (gcc goes right to left): the instrumentation must evaluate them in the IR's order. The
 * assertion holds only when main reads x before the thread writes it and y after the thread
 * wrote it; the first safe IVR orders exactly that (the program is partially safe). */
#include <pthread.h>
#include <assert.h>
int x, y;
int get(int *p) { return *p; }
int diff(int a, int b) { return a - b; }
#include <unistd.h>
void *t(void *a) { usleep(200000); y = 1; x = 1; return 0; }
int main() {
  pthread_t th;
  pthread_create(&th, 0, t, 0);
  int r = diff(get(&x), get(&y));
  assert(r == -1);
  pthread_join(th, 0);
  return 0;
}
