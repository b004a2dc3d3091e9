// verdict: safe
// Scheduling attributes as glibc keeps them: pthread_attr_init sets SCHED_OTHER with
// priority 0; a policy other than SCHED_OTHER, SCHED_FIFO and SCHED_RR and a priority
// outside the policy's range are refused with EINVAL; a thread created with them (they
// are not explicit) runs.
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>

static int ran;

static void *worker(void *arg) {
  (void)arg;
  ran = 1;
  return 0;
}

int main(void) {
  pthread_attr_t a;
  struct sched_param p = {.sched_priority = 7};
  int policy = -1;
  assert(pthread_attr_init(&a) == 0);
  assert(pthread_attr_getschedpolicy(&a, &policy) == 0 && policy == SCHED_OTHER);
  assert(pthread_attr_getschedparam(&a, &p) == 0 && p.sched_priority == 0);
  assert(sched_get_priority_min(SCHED_OTHER) == 0 && sched_get_priority_max(SCHED_OTHER) == 0);
  assert(sched_get_priority_min(SCHED_FIFO) == 1 && sched_get_priority_max(SCHED_RR) == 99);
  assert(sched_get_priority_max(42) == -1 && errno == EINVAL);
  // (6 is SCHED_DEADLINE, whose priority is 0.)
  assert(sched_get_priority_min(6) == 0 && sched_get_priority_max(6) == 0);
  p.sched_priority = 5;
  assert(pthread_attr_setschedparam(&a, &p) == EINVAL);
  assert(pthread_attr_setschedpolicy(&a, 42) == EINVAL);
  assert(pthread_attr_setschedpolicy(&a, SCHED_FIFO) == 0);
  assert(pthread_attr_getschedpolicy(&a, &policy) == 0 && policy == SCHED_FIFO);
  assert(pthread_attr_setschedparam(&a, &p) == 0);
  p.sched_priority = 100;
  assert(pthread_attr_setschedparam(&a, &p) == EINVAL);
  assert(pthread_attr_getschedparam(&a, &p) == 0 && p.sched_priority == 5);
  pthread_t t;
  assert(pthread_create(&t, &a, worker, 0) == 0);
  pthread_join(t, 0);
  assert(ran);
  pthread_attr_destroy(&a);
  return 0;
}
