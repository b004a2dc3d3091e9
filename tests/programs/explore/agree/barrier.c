#include <assert.h>
#include <pthread.h>
pthread_barrier_t b; int x = 0, y = 0;
void *t1(void *arg) { x = 1; pthread_barrier_wait(&b); int v = y; assert(v == 1); return 0; }
int main(void) { pthread_t a; pthread_barrier_init(&b, 0, 2); pthread_create(&a, 0, t1, 0);
  pthread_barrier_wait(&b); y = 1; pthread_join(a, 0); return 0; }
