/* pthread_create writes the pthread_t, a data variable another thread reads (a review found the race detector took every access of a synchronisation operation as synchronisation, so this race was never checked; accesses are now classified by variable). */
#include <pthread.h>
#include <assert.h>
pthread_t t;
pthread_mutex_t m;
void *f(void *p) { return 0; }
void *b(void *p) {
  pthread_mutex_lock(&m);
  pthread_mutex_unlock(&m);
  long r1 = (long)t;
  long r2 = (long)t;
  assert(r1 == r2);
  return 0;
}
int main(void) {
  pthread_t tb;
  pthread_mutex_init(&m, 0);
  pthread_create(&tb, 0, b, 0);
  pthread_mutex_lock(&m);
  pthread_create(&t, 0, f, 0);
  pthread_mutex_unlock(&m);
  pthread_join(tb, 0);
  return 0;
}
