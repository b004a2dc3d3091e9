#include <assert.h>
#include <pthread.h>
/* g initialises the mutex a again while f holds it (f's unlock of a is then no release of a
   mutex f holds); both threads are inside a's critical section: a lost update. */
pthread_mutex_t a, b; int x = 0;
void *f(void *arg) { pthread_mutex_lock(&a); pthread_mutex_lock(&b); x = x + 1;
  pthread_mutex_unlock(&b); pthread_mutex_unlock(&a); return 0; }
void *g(void *arg) { pthread_mutex_init(&a, 0); pthread_mutex_lock(&a); x = x + 1;
  pthread_mutex_unlock(&a); return 0; }
int main(void) { pthread_t p, q; pthread_mutex_init(&a, 0); pthread_mutex_init(&b, 0);
  pthread_create(&p, 0, f, 0); pthread_create(&q, 0, g, 0);
  pthread_join(p, 0); pthread_join(q, 0); assert(x == 2); return 0; }
