// verdict: unknown
// glibc aligns malloc's blocks to 16 bytes; the model's blocks lie after a status cell of 8
// bytes, so an address modulo 16 is made up (modulo 8 it is exact).
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
int main(void) {
  char *p = malloc(24);
  assert(((uintptr_t)p & 15) == 0);
  free(p);
  return 0;
}
