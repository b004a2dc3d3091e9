/* A reader-writer lock built from a mutex-protected state (classic form): two writers and two
 * readers; a writer needs no readers and no writer, a reader needs no writer. Readers check
 * that the value they read is the one the last writer wrote. (SV-COMP's version releases the
 * read lock non-atomically; two readers can then lose a release and the writers wait forever,
 * a deadlock synth reports; here the release is atomic.) Expected: safe. */
#include <assert.h>
#include <pthread.h>

extern void __VERIFIER_assume(int);

int w = 0, r = 0, x = 0, y = 0;

/* Atomic functions whose leading assume is the guard of the whole step (SV-COMP's idiom): a
 * thread waits before the atomic step, never inside it. */
void __VERIFIER_atomic_take_write_lock(void) {
  __VERIFIER_assume(w == 0 && r == 0);
  w = 1;
}

void __VERIFIER_atomic_take_read_lock(void) {
  __VERIFIER_assume(w == 0);
  r = r + 1;
}

void __VERIFIER_atomic_release_read_lock(void) {
  r = r - 1;
}

void *writer(void *arg) {
  __VERIFIER_atomic_take_write_lock();
  x = 3;
  w = 0;
  return 0;
}

void *reader(void *arg) {
  int l;
  __VERIFIER_atomic_take_read_lock();
  l = x;
  y = l;
  assert(y == x);
  __VERIFIER_atomic_release_read_lock();
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
