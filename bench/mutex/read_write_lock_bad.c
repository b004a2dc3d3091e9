/* The reader-writer lock of read_write_lock.c with a writer that gives the lock back before
 * it writes (the buggy form of the benchmark pair): a reader can read x, the writer then
 * writes it, and the reader's check that what it read is still there fails. Expected: the
 * error is reachable (a schedule that runs each writer to its end first avoids it). */
#include <assert.h>
#include <pthread.h>

extern void __VERIFIER_assume(int);

int w = 0, r = 0, x = 0, y = 0;

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
  w = 0;
  x = 3;
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
