#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER; pthread_cond_t c = PTHREAD_COND_INITIALIZER;
void *w(void *arg) { pthread_mutex_lock(&m); pthread_cond_wait(&c, &m); pthread_mutex_unlock(&m); return 0; }
void *s(void *arg) { pthread_cond_signal(&c); return 0; }
int main(void) { pthread_t a, b, d;
  pthread_create(&a, 0, w, 0); pthread_create(&b, 0, w, 0); pthread_create(&d, 0, s, 0);
  pthread_join(d, 0); pthread_join(a, 0); pthread_join(b, 0); return 0; }
