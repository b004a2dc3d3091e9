// verdict: safe
// Whatever its text, strerror returns a string.
#include <assert.h>
#include <stdio.h>
#include <string.h>
int main(void) {
  const char *m = strerror(2);
  assert(m != 0 && strlen(m) < 1000);
  printf("%s\n", m);
  return 0;
}
