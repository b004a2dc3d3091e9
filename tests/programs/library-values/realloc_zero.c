// verdict: safe
// glibc's realloc(p, 0) frees the block and returns null; realloc(NULL, 0) is malloc(0).
#include <assert.h>
#include <stdlib.h>

int main(void) {
  char *p = malloc(8);
  if (!p)
    return 0;
  p[0] = 1;
  assert(realloc(p, 0) == 0);
  char *q = realloc(0, 0);
  free(q);
  return 0;
}
