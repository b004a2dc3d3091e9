#include <assert.h>
#include <pthread.h>
#include <sched.h>
int x = 0;
void *t1(void *arg) { sched_yield(); sched_yield(); sched_yield(); x = 1; return 0; }
void *t2(void *arg) { int l = x; assert(l != 1); return 0; }
int main(void) { pthread_t a, b;
  pthread_create(&a, 0, t1, 0); pthread_create(&b, 0, t2, 0);
  pthread_join(a,0); pthread_join(b,0); return 0; }
