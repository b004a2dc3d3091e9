// verdict: safe
// glibc refuses to join a detached thread, or to detach it again: EINVAL at once.
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
  pthread_t t;
  sem_init(&go, 0, 0);
  assert(pthread_create(&t, 0, worker, 0) == 0);
  assert(pthread_detach(t) == 0);
  assert(pthread_join(t, 0) == EINVAL);
  assert(pthread_detach(t) == EINVAL);
  sem_post(&go);
  return 0;
}
