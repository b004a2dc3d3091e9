/* Two threads read two numbers each from standard input with one scanf call: glibc reads
 * one call's input under the stream's lock, so each thread gets one line's pair. */
#include <pthread.h>
#include <stdio.h>

int got[2][2];

void *reader(void *arg) {
  int *g = arg;
  if (scanf("%d %d", &g[0], &g[1]) != 2)
    g[0] = g[1] = -1;
  return NULL;
}

int main(void) {
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, reader, got[i]);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  int first = got[0][0] < got[1][0] ? 0 : 1;
  printf("%d %d / %d %d\n", got[first][0], got[first][1], got[1 - first][0], got[1 - first][1]);
  return 0;
}
