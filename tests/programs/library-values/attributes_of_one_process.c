// verdict: safe
// Attributes that change nothing in a program of one process, and a stream's buffering:
// glibc's results for valid and invalid values, a thread's name up to 15 bytes (read into
// 16 bytes at least), a stack size of PTHREAD_STACK_MIN at least.
#define _GNU_SOURCE
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>

int main(void) {
  pthread_rwlockattr_t ra;
  assert(pthread_rwlockattr_init(&ra) == 0);
  assert(pthread_rwlockattr_setpshared(&ra, PTHREAD_PROCESS_SHARED) == 0);
  assert(pthread_rwlockattr_setpshared(&ra, 3) == EINVAL);
  pthread_rwlock_t rw;
  assert(pthread_rwlock_init(&rw, &ra) == 0);
  assert(pthread_rwlockattr_destroy(&ra) == 0);
  assert(pthread_rwlock_rdlock(&rw) == 0);
  assert(pthread_rwlock_unlock(&rw) == 0);
  pthread_barrierattr_t ba;
  assert(pthread_barrierattr_init(&ba) == 0);
  assert(pthread_barrierattr_setpshared(&ba, PTHREAD_PROCESS_PRIVATE) == 0);
  assert(pthread_barrierattr_setpshared(&ba, -1) == EINVAL);
  pthread_barrier_t b;
  assert(pthread_barrier_init(&b, &ba, 1) == 0);
  assert(pthread_barrierattr_destroy(&ba) == 0);
  assert(pthread_barrier_wait(&b) == PTHREAD_BARRIER_SERIAL_THREAD);
  assert(setvbuf(stdout, NULL, _IONBF, 0) == 0);
  assert(setvbuf(stdout, NULL, 9, 0) != 0);
  assert(pthread_setname_np(pthread_self(), "worker-0") == 0);
  assert(pthread_setname_np(pthread_self(), "a-name-of-16-chr") == ERANGE);
  char name[16], small[8];
  assert(pthread_getname_np(pthread_self(), small, sizeof small) == ERANGE);
  assert(pthread_getname_np(pthread_self(), name, sizeof name) == 0);
  pthread_attr_t ta;
  size_t size;
  assert(pthread_attr_init(&ta) == 0);
  assert(pthread_attr_getstacksize(&ta, &size) == 0 && size >= 16384);
  printf("done\n");
  return 0;
}
