/* Two atomic regions on different memory (a review found the race detector ordered all atomic regions while the search treated these as independent, hiding the race on x; atomic regions are now one lock for both). */
#include <pthread.h>
#include <assert.h>
int x;
int y, z;
void __VERIFIER_atomic_a(void) { y = 1; }
void __VERIFIER_atomic_b(void) { z = 1; }
void *b(void *p) {
  __VERIFIER_atomic_b();
  int r = x;
  assert(r != 1);
  return 0;
}
int main(void) {
  pthread_t tb;
  pthread_create(&tb, 0, b, 0);
  x = 1;
  x = 2;
  __VERIFIER_atomic_a();
  pthread_join(tb, 0);
  return 0;
}
