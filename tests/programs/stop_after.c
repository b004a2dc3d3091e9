/* The input function of the test programs (linked with `synth build --cflag stop_after.c`):
 * it replaces the weak default of the instrumented program. Each thread's k-th call of
 * __VERIFIER_nondet_int() returns 1 ("stop") when k reaches STOP_AFTER, else 0. */
#include <stdlib.h>

long long synth_input(const char *type) {
  static __thread long long calls;
  static long long limit;
  (void)type;
  if (limit == 0) {
    const char *s = getenv("STOP_AFTER");
    limit = s ? atoll(s) : 1000;
  }
  return ++calls >= limit;
}
