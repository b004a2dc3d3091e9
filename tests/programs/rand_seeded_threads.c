/* Two threads print three values each of one generator seeded with srand(42). The schedule
 * orders the generator's state, so the built program runs the library model of rand, which
 * gives glibc's values for the seed: the values printed are the native program's. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static void *draw(void *arg) {
  (void)arg;
  for (int i = 0; i < 3; i++)
    printf("%d\n", rand() % 1000);
  return 0;
}

int main(void) {
  pthread_t t[2];
  srand(42);
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], 0, draw, 0);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  return 0;
}
