// verdict: safe
// Two threads draw three values each from the one generator, which glibc locks: whatever
// the order, the six values are the sequence's first six.
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
static long sums[2];
static void *draw(void *arg) {
  long *sum = arg;
  for (int i = 0; i < 3; i++)
    *sum += rand();
  return 0;
}
int main(void) {
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], 0, draw, &sums[i]);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  assert(sums[0] + sums[1] ==
         1804289383L + 846930886L + 1681692777L + 1714636915L + 1957747793L + 424238335L);
  return 0;
}
