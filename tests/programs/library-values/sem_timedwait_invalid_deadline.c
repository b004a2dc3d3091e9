// verdict: unsafe
// glibc's sem_timedwait refuses a deadline whose nanoseconds are out of range before it
// looks at the value: the call fails although the semaphore could be decremented.
#include <assert.h>
#include <semaphore.h>
#include <time.h>

int main(void) {
  sem_t s;
  struct timespec bad = {0, 1000000000};
  sem_init(&s, 0, 1);
  assert(sem_timedwait(&s, &bad) == 0);
  return 0;
}
