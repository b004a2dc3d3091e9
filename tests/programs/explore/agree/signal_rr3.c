/* Signals without a waiter only read the condition variable (a review found the race detector ordered two such reads, which the search treats as independent, hiding the race on x; reads of a synchronisation variable are no longer ordered). */
#include <pthread.h>
#include <assert.h>
int x;
extern int __VERIFIER_nondet_int(void);
pthread_mutex_t m;
pthread_cond_t c;
void *b(void *p) {
  pthread_cond_signal(&c); /* no waiter: only reads the condition variable */
  int r = x;
  assert(r != 1);
  return 0;
}
int main(void) {
  pthread_t tb;
  pthread_mutex_init(&m, 0);
  pthread_cond_init(&c, 0);
  pthread_create(&tb, 0, b, 0);
  x = 1;
  x = 2;
  pthread_cond_signal(&c);
  pthread_join(tb, 0);
  if (__VERIFIER_nondet_int() == 100) { /* makes c shared: never runs */
    pthread_mutex_lock(&m);
    pthread_cond_wait(&c, &m);
    pthread_mutex_unlock(&m);
  }
  return 0;
}
