#include <assert.h>
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER; int x = 0;
void *t1(void *arg) { pthread_mutex_lock(&m); x = 1; pthread_mutex_unlock(&m); return 0; }
int main(void) { pthread_t a;
  pthread_create(&a, 0, t1, 0);
  if (pthread_mutex_trylock(&m) == 0) { int v = x; pthread_mutex_unlock(&m); assert(v == 0); }
  return 0; }
