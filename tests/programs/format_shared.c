/* Threads format into and parse memory they share, under a mutex: the schedule orders the
 * accesses of the library's models (`__synth_format`, `__synth_scan`, `__synth_asprintf`), so
 * the built program runs them, with the arguments their formats convert. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static char name[8];
static char line[64];
static char line2[48];
static char *copy;
static int parsed, hex, any;
static long big;
static char letter, word[8];

static void *worker(void *arg) {
  pthread_mutex_lock(&m);
  snprintf(line, sizeof line, "%s %d %ld %c %5.3s|%-*d|%*.*d|%x", name, -7, 123456789012L,
           'z', "abcdef", 4, 42, 6, 3, 5, 255u);
  pthread_mutex_unlock(&m);
  char local[40];
  snprintf(local, sizeof local, "%hhd|%hd|%lld|%zu|%%|%*d", (signed char)-3, (short)300,
           1LL << 40, (size_t)7, -5, 9);
  pthread_mutex_lock(&m);
  snprintf(line2, sizeof line2, "[%s]", local);
  pthread_mutex_unlock(&m);
  return arg;
}

int main(void) {
  pthread_t t;
  sprintf(name, "%c%d", 'w', 1);
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&m);
  int early = line[0] != 0;
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  if (sscanf(line, "%*s %d %ld", &parsed, &big) != 2)
    return 1;
  if (sscanf(line, "%c%*s %*s %*s %*s %s %*s", &letter, word) != 2 ||
      sscanf("ff 0x1f", "%x %i", &hex, &any) != 2)
    return 1;
  if (asprintf(&copy, "[%s]", line) < 0)
    return 1;
  printf("%s\n%d %ld %c %s %d %d\n%s\n%s\n", line, parsed, big, letter, word, hex, any, copy,
         line2);
  free(copy);
  return early > 1;
}
