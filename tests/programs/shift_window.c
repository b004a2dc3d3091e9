/* Two threads shift a shared window of samples under a mutex: each round moves the window
 * one slot up with memmove (overlapping blocks) and puts its sample at the front. The
 * window must end as the samples in the order the rounds ran, newest first. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int window[6];
static int filled;

static void *sample(void *arg) {
  int base = *(int *)arg;
  for (int i = 0; i < 2; i++) {
    pthread_mutex_lock(&m);
    memmove(&window[1], &window[0], 5 * sizeof window[0]);
    window[0] = base + i;
    filled++;
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  int ba = 10, bb = 20;
  pthread_create(&a, 0, sample, &ba);
  pthread_create(&b, 0, sample, &bb);
  pthread_join(a, 0);
  pthread_join(b, 0);
  /* Each thread's samples keep their order; nothing is lost or doubled. */
  int pos[2] = {-1, -1}, seen = 0;
  for (int k = 0; k < 4; k++) {
    int v = window[k];
    assert(v == 10 || v == 11 || v == 20 || v == 21);
    int t = v >= 20, r = v % 10;
    if (r == 1)
      pos[t] = k;
    else
      assert(pos[t] != -1 && pos[t] < k);
    seen++;
  }
  assert(window[4] == 0 && window[5] == 0 && filled == 4);
  /* The oldest two slots: move them down over the newest, as a queue drops its head. */
  memmove(&window[0], &window[2], 4 * sizeof window[0]);
  printf("%d samples, %d %d left\n", seen, window[2] == 0, window[3] == 0);
  return 0;
}
