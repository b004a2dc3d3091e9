/* The input function of producer_consumer_items.c (linked with `synth build --cflag items.c`):
 * successive calls, from any thread, return 1, 2, ..., ITEMS (environment variable, default
 * 100000), then 0. */
#include <stdlib.h>

long long synth_input(const char *type) {
  static long long next, limit;
  (void)type;
  if (__atomic_load_n(&limit, __ATOMIC_ACQUIRE) == 0) {
    const char *s = getenv("ITEMS");
    __atomic_store_n(&limit, s ? atoll(s) : 100000, __ATOMIC_RELEASE);
  }
  long long k = __atomic_add_fetch(&next, 1, __ATOMIC_RELAXED);
  return k <= __atomic_load_n(&limit, __ATOMIC_ACQUIRE) ? k : 0;
}
