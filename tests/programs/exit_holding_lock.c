/* The worker takes the mutex, sets the flag, waits until main has read it and then ends the
 * program with exit(0), holding the mutex; main reads the flag and then waits for the mutex.
 * In the proof the program ends with main waiting at its lock when the flag was set (so the
 * assertion holds). At Opt1 and Opt2 the schedule would remove that lock (it subsumes the
 * mutex), so a deployed main would run past it while the process exits: no schedule at those
 * levels; at Opt0 the real lock keeps main waiting. */
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int started = 0, seen = 0;

void *worker(void *arg) {
  pthread_mutex_lock(&m);
  started = 1;
  while (!seen)
    ;
  exit(0);
  return 0;
}

int main(void) {
  pthread_t t;
  int i, s;
  pthread_create(&t, 0, worker, 0);
  for (i = 0; i < 1; i++)
    ;
  s = started;
  seen = 1;
  pthread_mutex_lock(&m);
  assert(!s);
  return 0;
}
