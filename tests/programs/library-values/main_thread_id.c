// verdict: safe
// No thread's id is 0 (glibc's is an address).
#include <assert.h>
#include <pthread.h>
int main(void) {
  pthread_t me = pthread_self();
  assert(me != 0);
  return 0;
}
