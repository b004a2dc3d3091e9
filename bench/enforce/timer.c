/* Linked beside a benchmark program: a thread the program does not know about (the enforcer
 * never sees it) sleeps BENCH_SECONDS (environment, default 2), prints `useful <produced+consumed>`
 * and ends the process. The counters are read without synchronisation: a measurement. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

extern unsigned long produced, consumed;

static void *timer(void *arg) {
  (void)arg;
  const char *s = getenv("BENCH_SECONDS");
  double secs = s ? atof(s) : 2.0;
  struct timespec t = {(time_t)secs, (long)((secs - (time_t)secs) * 1e9)};
  nanosleep(&t, 0);
  unsigned long n = __atomic_load_n(&produced, __ATOMIC_RELAXED) +
                    __atomic_load_n(&consumed, __ATOMIC_RELAXED);
  printf("useful %lu\n", n);
  fflush(stdout);
  _exit(0);
}

__attribute__((constructor)) static void start_timer(void) {
  pthread_t t;
  pthread_create(&t, 0, timer, 0);
  pthread_detach(t);
}
