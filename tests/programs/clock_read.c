/* The clocks read in the built program are the system's: the verifier's models of
 * clock_gettime and time take any time, and the build asks the system (the models run in
 * no built program). */
#include <pthread.h>
#include <stdio.h>
#include <time.h>
int g;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *w(void *a) { pthread_mutex_lock(&m); g++; pthread_mutex_unlock(&m); return 0; }
int main(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  time_t now = time(0);
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  pthread_mutex_lock(&m); g++; pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  printf("%d %d %d\n", ts.tv_sec > 1000, now > 1000, g);
  return 0;
}
