/* Creates 4 workers without checking what pthread_create returns, then asks pthread_kill
 * with signal 0 after each id. Under a thread bound the creations beyond it fail, and the
 * ids they left name no thread: pthread_kill returns ESRCH, in the verifier's model and in
 * the built program alike; a created worker's id gets 0, whether it has ended or not. A
 * signal glibc keeps for itself (33) gets EINVAL for every id. */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>

#define N 4

static void *worker(void *arg) { return arg; }

int main(void) {
  pthread_t t[N];
  int made = 0;
  for (int i = 0; i < N; i++)
    if (pthread_create(&t[i], NULL, worker, NULL) == 0)
      made++;
  int named = 0, gone = 0;
  for (int i = 0; i < N; i++) {
    assert(pthread_kill(t[i], 33) == EINVAL);
    int r = pthread_kill(t[i], 0);
    if (r == 0)
      named++;
    else if (r == ESRCH)
      gone++;
  }
  assert(named == made && named + gone == N);
  printf("%d %d %d\n", made, named, gone);
  for (int i = 0; i < made; i++)
    pthread_join(t[i], NULL);
  return 0;
}
