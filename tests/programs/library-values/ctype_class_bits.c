// verdict: safe
// glibc's <ctype.h> functions, called as functions, return their class's bit, not 1.
#include <assert.h>
#include <ctype.h>

int main(void) {
  int (*space)(int) = isspace;
  assert(space(' ') == 8192);
  assert((isupper)('A') == 256 && (islower)('a') == 512);
  assert((isalpha)('z') == 1024 && (isalnum)('0') == 8);
  assert((isxdigit)('f') == 4096 && (isprint)('~') == 16384);
  assert((isspace)('x') == 0 && (isalpha)('1') == 0);
  return 0;
}
