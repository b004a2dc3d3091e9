// verdict: safe
// pthread_rwlockattr_setkind_np: glibc's rwlocks prefer readers unless told to prefer
// writers without recursive reads; PTHREAD_RWLOCK_PREFER_WRITER_NP prefers readers too, so a
// reader takes the lock again while a writer waits. Another kind is EINVAL.
#define _GNU_SOURCE
#include <assert.h>
#include <errno.h>
#include <pthread.h>

static pthread_rwlock_t l;
static int written;

static void *writer(void *arg) {
  (void)arg;
  pthread_rwlock_wrlock(&l);
  written = 1;
  pthread_rwlock_unlock(&l);
  return 0;
}

int main(void) {
  pthread_rwlockattr_t a;
  pthread_rwlockattr_init(&a);
  assert(pthread_rwlockattr_setkind_np(&a, 42) == EINVAL);
  assert(pthread_rwlockattr_setkind_np(&a, PTHREAD_RWLOCK_PREFER_WRITER_NP) == 0);
  pthread_rwlock_init(&l, &a);
  pthread_rwlockattr_destroy(&a);
  pthread_rwlock_rdlock(&l);
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  assert(pthread_rwlock_rdlock(&l) == 0);
  assert(!written);
  pthread_rwlock_unlock(&l);
  pthread_rwlock_unlock(&l);
  pthread_join(t, 0);
  assert(written);
  return 0;
}
