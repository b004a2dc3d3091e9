#include <assert.h>
#include <pthread.h>
void __VERIFIER_atomic_begin(void); void __VERIFIER_atomic_end(void);
int x = 0, y = 0;
void *t1(void *arg) { __VERIFIER_atomic_begin(); x = 1; y = 1; __VERIFIER_atomic_end(); return 0; }
void *t2(void *arg) { int a = y; int b = x; assert(!(a == 1 && b == 0)); assert(!(a==0 && b==1)); return 0; }
int main(void) { pthread_t p, q;
  pthread_create(&p, 0, t1, 0); pthread_create(&q, 0, t2, 0); return 0; }
