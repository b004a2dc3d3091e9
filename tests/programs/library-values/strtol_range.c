// verdict: safe
// strtol saturates with ERANGE, and points past no character where it converts none.
#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
int main(void) {
  char *e;
  errno = 0;
  long v = strtol("99999999999999999999", &e, 10);
  assert(v == LONG_MAX && errno == ERANGE && *e == 0);
  errno = 0;
  v = strtol("-9223372036854775808", &e, 10);
  assert(v == LONG_MIN && errno == 0);
  const char *s = "  -";
  v = strtol(s, &e, 10);
  assert(v == 0 && e == s);
  v = strtol("0x", &e, 16);
  assert(v == 0 && *e == 'x');
  v = strtol("0x1f", &e, 0);
  assert(v == 31 && *e == 0);
  return 0;
}
