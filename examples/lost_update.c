/* Two threads increment a shared counter without a lock: an increment can be lost, and the
 * final assertion can fail. `synth run` with different seeds shows both outcomes. */
#include <assert.h>
#include <pthread.h>

int counter = 0;

void *worker(void *arg) {
  int tmp = counter; /* read */
  tmp = tmp + 1;
  counter = tmp; /* write: may overwrite the other thread's increment */
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(counter == 2);
  return 0;
}
