/* One pthread_create, in a helper called on two paths. Under --max-threads 2 the verified
 * program has one thread to create. Lowered in order, it would go to the first call; the
 * front end gives it to the call a run with the program's arguments makes instead (the
 * clock is an input of the model, 0 in that run): the second. A native run, whose clock is
 * past 0, takes the first call too, which the verified program refuses (EAGAIN), and the
 * built program follows the schedule copy by copy: it refuses that call although fewer
 * threads exist than the bound. Under --max-threads 1 both calls are refused, and the
 * refused call writes the id of no thread where the thread's argument lets it be read. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

static pthread_t ids[2];

static void *worker(void *arg) {
  (void)arg;
  return 0;
}

__attribute__((noinline)) static int start(int i) {
  return pthread_create(&ids[i], 0, worker, ids);
}

int main(void) {
  int first = -1;
  if (time(0) > 0)
    first = start(0);
  int second = start(1);
  if (first == 0)
    pthread_join(ids[0], 0);
  if (second == 0)
    pthread_join(ids[1], 0);
  printf("%d %d\n", first, second == EAGAIN);
  return 0;
}
