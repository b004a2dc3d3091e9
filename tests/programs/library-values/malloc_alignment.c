// verdict: safe
// glibc aligns malloc's blocks to 16 bytes, and so does the model's test of alignment (an
// address modulo a power of two up to the block's alignment is its offset's).
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
int main(void) {
  char *p = malloc(24);
  assert(((uintptr_t)p & 15) == 0);
  free(p);
  return 0;
}
