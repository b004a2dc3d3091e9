// verdict: safe
// strtoul negates a minus sign's magnitude and saturates at ULONG_MAX with ERANGE.
#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
int main(void) {
  errno = 0;
  assert(strtoul("18446744073709551615", 0, 10) == ULONG_MAX && errno == 0);
  assert(strtoul("-1", 0, 10) == ULONG_MAX && errno == 0);
  assert(strtoul("99999999999999999999", 0, 10) == ULONG_MAX && errno == ERANGE);
  assert(atoi(" 42x") == 42);
  return 0;
}
