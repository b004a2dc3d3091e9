/* A reader-writer lock built from a mutex-protected state (classic form): two writers and two
 * readers; a writer needs no readers and no writer, a reader needs no writer. Readers check
 * that the value they read is the one the last writer wrote. (SV-COMP's version releases the
 * read lock non-atomically; two readers can then lose a release and the writers wait forever,
 * a deadlock synth reports; here the release is atomic.) Expected: safe. */
#include <assert.h>
#include <pthread.h>

extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
extern void __VERIFIER_assume(int);

int w = 0, r = 0, x = 0, y = 0;

void *writer(void *arg) {
  __VERIFIER_atomic_begin();
  __VERIFIER_assume(w == 0 && r == 0);
  w = 1;
  __VERIFIER_atomic_end();
  x = 3;
  w = 0;
  return 0;
}

void *reader(void *arg) {
  int l;
  __VERIFIER_atomic_begin();
  __VERIFIER_assume(w == 0);
  r = r + 1;
  __VERIFIER_atomic_end();
  l = x;
  y = l;
  assert(y == x);
  __VERIFIER_atomic_begin();
  l = r - 1;
  r = l;
  __VERIFIER_atomic_end();
  return 0;
}

int main(void) {
  pthread_t t1, t2, t3, t4;
  pthread_create(&t1, 0, writer, 0);
  pthread_create(&t2, 0, reader, 0);
  pthread_create(&t3, 0, writer, 0);
  pthread_create(&t4, 0, reader, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  pthread_join(t3, 0);
  pthread_join(t4, 0);
  return 0;
}
