#include <assert.h>
#include <pthread.h>
void __VERIFIER_assume(int);
int x = 0, y = 0, go = 0;
void *t1(void *arg) { int i, r = 0; __VERIFIER_assume(go == 1); for (i = 0; i < 3; i++) { r = r + 1; } x = 1; return 0; }
void *t2(void *arg) { int l = x; assert(l != 1); return 0; }
int main(void) { pthread_t a, b;
  pthread_create(&a, 0, t1, 0); pthread_create(&b, 0, t2, 0); go = 1;
  pthread_join(a, 0); pthread_join(b, 0); return 0; }
