/* Descriptors: main opens a file and writes to it, two workers write their lines to standard
 * output with write(2) under a mutex, main seeks, closes and prints the count. Every call
 * may fail; the program checks each result. */
#include <assert.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
static int lines;

static void *worker(void *arg) {
  const char *line = arg;
  pthread_mutex_lock(&out_lock);
  if (write(1, line, strlen(line)) > 0)
    lines++;
  pthread_mutex_unlock(&out_lock);
  return NULL;
}

int main(void) {
  int fd = open("/dev/null", O_WRONLY);
  if (fd < 0) {
    perror("/dev/null");
    return 1;
  }
  if (write(fd, "header\n", 7) < 0 || lseek(fd, 0, SEEK_SET) < 0)
    perror("/dev/null");
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, worker, "worker\n");
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  assert(lines <= 2);
  if (close(fd) != 0)
    perror("close");
  printf("%d lines\n", lines);
  return 0;
}
