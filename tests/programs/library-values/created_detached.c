// verdict: safe
// A thread created detached (its attributes say so) cannot be joined: EINVAL at once.
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>

sem_t go;

void *worker(void *arg) {
  (void)arg;
  sem_wait(&go);
  return 0;
}

int main(void) {
  pthread_attr_t a;
  pthread_t t;
  int s = -1;
  sem_init(&go, 0, 0);
  assert(pthread_attr_init(&a) == 0);
  assert(pthread_attr_getdetachstate(&a, &s) == 0 && s == PTHREAD_CREATE_JOINABLE);
  assert(pthread_attr_setdetachstate(&a, 7) == EINVAL);
  assert(pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED) == 0);
  assert(pthread_attr_getdetachstate(&a, &s) == 0 && s == PTHREAD_CREATE_DETACHED);
  assert(pthread_create(&t, &a, worker, 0) == 0);
  assert(pthread_join(t, 0) == EINVAL);
  sem_post(&go);
  return 0;
}
