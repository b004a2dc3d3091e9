/* A log stream shared by the workers: main opens it, every worker writes a line under a
 * mutex, main writes the summary after the joins and closes it. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define WORKERS 3

static FILE *log_file;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static int finished;

static void *worker(void *arg) {
  (void)arg;
  pthread_mutex_lock(&log_lock);
  finished++;
  fprintf(log_file, "worker finished\n");
  pthread_mutex_unlock(&log_lock);
  return NULL;
}

int main(void) {
  log_file = fopen("/dev/stdout", "w");
  if (!log_file) {
    perror("/dev/stdout");
    return 1;
  }
  pthread_t t[WORKERS];
  for (int i = 0; i < WORKERS; i++)
    pthread_create(&t[i], NULL, worker, NULL);
  for (int i = 0; i < WORKERS; i++)
    pthread_join(t[i], NULL);
  assert(finished == WORKERS);
  fprintf(log_file, "%d workers finished\n", finished);
  fclose(log_file);
  return 0;
}
