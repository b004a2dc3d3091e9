/* A data race that only the fine search shows as a bug: t1 writes x twice after leaving its
 * critical section; t2, once it has seen turn == 1, reads x without the lock. Preempting only
 * at synchronisation, t1's two writes are one step and t2 never reads the 1 between them; the
 * race detector sees the race (t1's writes after the unlock are not ordered before t2's read)
 * and the search starts again with every shared access a scheduling point, which finds the
 * assertion failure (seed 003, section 3.1). */
#include <pthread.h>
#include <assert.h>

int x;
int turn;
pthread_mutex_t m;

void *t1(void *arg) {
  pthread_mutex_lock(&m);
  turn = 1;
  pthread_mutex_unlock(&m);
  x = 1;
  x = 2;
  return 0;
}

void *t2(void *arg) {
  int t;
  pthread_mutex_lock(&m);
  t = turn;
  pthread_mutex_unlock(&m);
  if (t == 1)
    assert(x != 1);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_mutex_init(&m, 0);
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
