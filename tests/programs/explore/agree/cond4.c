#include <pthread.h>
void __VERIFIER_assume(int);
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER; pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int done = 0, woken = 0;
void *w(void *arg) { pthread_mutex_lock(&m); if (done == 0) { pthread_cond_wait(&c, &m); } woken = woken + 1; pthread_mutex_unlock(&m); return 0; }
void *s(void *arg) { pthread_cond_signal(&c); __VERIFIER_assume(woken >= 1);
  pthread_mutex_lock(&m); done = 1; pthread_cond_broadcast(&c); pthread_mutex_unlock(&m); return 0; }
int main(void) { pthread_t a, d;
  pthread_create(&a, 0, w, 0); pthread_create(&d, 0, s, 0);
  pthread_join(d, 0); pthread_join(a, 0); return 0; }
