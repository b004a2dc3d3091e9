/* Two workers update i and j in atomic regions, two rounds each, and main joins both. The
 * proof alternates the workers' rounds; at Opt0 the schedule keeps the region markers as
 * events, so one worker's region must wait for the other's previous region to end (the
 * regions exclude each other), not only for the accesses inside it. */
#include <pthread.h>
#include <assert.h>

extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

int i = 1, j = 1;

void *t1(void *arg) {
  int k;
  for (k = 0; k < 2; k++) {
    __VERIFIER_atomic_begin();
    i += j;
    __VERIFIER_atomic_end();
  }
  return 0;
}

void *t2(void *arg) {
  int k;
  for (k = 0; k < 2; k++) {
    __VERIFIER_atomic_begin();
    j += i;
    __VERIFIER_atomic_end();
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(i <= 100 && j <= 100);
  return 0;
}
