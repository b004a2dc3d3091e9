/* A thread's errno is the program's: calls that wait for another thread (a semaphore the
 * worker posts after a while, a mutex it holds meanwhile) succeed and leave errno as it was,
 * also where the built program's runtime waits for the schedule. */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static sem_t s;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  usleep(100000);
  sem_post(&s);
  usleep(100000);
  pthread_mutex_unlock(&m);
  usleep(100000);
  sem_post(&s);
  return NULL;
}

int main(void) {
  sem_init(&s, 0, 0);
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  errno = 0;
  int a = sem_wait(&s);
  int after_wait = errno;
  int b = pthread_mutex_lock(&m);
  int after_lock = errno;
  pthread_mutex_unlock(&m);
  struct timespec far;
  clock_gettime(CLOCK_REALTIME, &far);
  far.tv_sec += 60;
  int c = sem_timedwait(&s, &far);
  int after_timedwait = errno;
  pthread_join(t, NULL);
  printf("%d %d %d, errno %d %d %d\n", a, b, c, after_wait, after_lock, after_timedwait);
  return 0;
}
