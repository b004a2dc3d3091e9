/* One function increments a shared counter in one call and a local of main in another: the
 * instrumented code of `inc` is shared by both, so the access to the local is an event of
 * the schedule too (on memory no other thread touches). */
#include <assert.h>
#include <pthread.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int g;

static void inc(int *p) {
  *p = *p + 1;
}

static void *worker(void *arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  inc(&g);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  int local = 0;
  pthread_create(&t, 0, worker, 0);
  inc(&local);
  pthread_join(t, 0);
  assert(g == 1 && local == 1);
  return 0;
}
