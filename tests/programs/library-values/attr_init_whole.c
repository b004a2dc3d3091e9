// verdict: safe
// pthread_attr_init sets all of glibc's pthread_attr_t: zero bytes but the guard size, the
// page size, at byte 16.
#include <assert.h>
#include <pthread.h>
#include <string.h>

int main(void) {
  pthread_attr_t a;
  memset(&a, 0x55, sizeof a);
  assert(pthread_attr_init(&a) == 0);
  const unsigned char *b = (const unsigned char *)&a;
  for (unsigned i = 0; i < sizeof a; i++)
    if (i < 16 || i >= 24)
      assert(b[i] == 0);
  unsigned long guard;
  memcpy(&guard, b + 16, sizeof guard);
  assert(guard == 4096);
  pthread_attr_destroy(&a);
  return 0;
}
