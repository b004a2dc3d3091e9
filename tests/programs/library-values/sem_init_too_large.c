// verdict: safe
// sem_init refuses a value above SEM_VALUE_MAX: -1 with errno EINVAL.
#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <semaphore.h>

int main(void) {
  sem_t s;
  unsigned big = (unsigned)SEM_VALUE_MAX + 1;
  assert(sem_init(&s, 0, big) == -1 && errno == EINVAL);
  assert(sem_init(&s, 0, 1) == 0);
  assert(sem_trywait(&s) == 0);
  return 0;
}
