/* A thread waiting in __VERIFIER_assume on shared data (a review found the search that preempts only at synchronisation missed this bug: the waiting thread never ran, so the race on x was never seen; such programs are now searched with every access a scheduling point). */
#include <pthread.h>
#include <assert.h>
extern void __VERIFIER_assume(int);
extern void reach_error(void);
int x;
void *a(void *p) { x = 1; x = 0; return 0; }
void *b(void *p) { __VERIFIER_assume(x == 1); reach_error(); return 0; }
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, a, 0);
  pthread_create(&t2, 0, b, 0);
  pthread_join(t1, 0);
  return 0;
}
