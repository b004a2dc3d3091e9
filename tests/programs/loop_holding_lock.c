/* The worker takes the mutex and then computes on its own for ever, holding it; main reads the
 * flag and then waits for the mutex for ever. In the proof, main never passes its lock when the
 * flag was set (so the assertion holds). At Opt1 and Opt2 the schedule would remove that lock
 * (it subsumes the mutex), so a deployed main would not wait there: no schedule at those
 * levels; at Opt0 the real lock keeps main waiting. */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int started = 0;

void *worker(void *arg) {
  int x = 0;
  pthread_mutex_lock(&m);
  started = 1;
  while (1)
    x = 1 - x;
  return 0;
}

int main(void) {
  pthread_t t;
  int i, s;
  pthread_create(&t, 0, worker, 0);
  for (i = 0; i < 1; i++)
    ;
  s = started;
  pthread_mutex_lock(&m);
  assert(!s);
  return 0;
}
