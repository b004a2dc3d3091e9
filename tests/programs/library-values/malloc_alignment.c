// verdict: unknown
// glibc aligns malloc's blocks to 16 bytes; the model's addresses are its own numbers.
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
int main(void) {
  char *p = malloc(24);
  assert(((uintptr_t)p & 15) == 0);
  free(p);
  return 0;
}
