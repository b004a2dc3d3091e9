/* snprintf and sprintf with the integer, character, string and pointer conversions: flags,
 * widths, precisions, length modifiers, `*` arguments, truncation and the returned length. */
#include <stdio.h>

char out[8][40];
int lens[10];
char tiny[5];
const char *names[2] = { "alpha", "be" };

int main(void) {
  lens[0] = snprintf(out[0], sizeof out[0], "worker %d says hello to %s", 3, names[0]);
  lens[1] = snprintf(out[1], sizeof out[1], "%5d|%-5d|%05d|%+d|% d", 42, -42, 42, 0, 7);
  lens[2] = snprintf(out[2], sizeof out[2], "%x %X %#x %o %#o %u", 255, 255, 255, 8, 8, 3000000000u);
  lens[3] = snprintf(out[3], sizeof out[3], "%ld %lu %lx", -5000000000L, 5000000000UL, 5000000000UL);
  lens[4] = snprintf(out[4], sizeof out[4], "%hhd %hd %zu %c%c", 300, 70000, (size_t)12345, 'o', 'k');
  lens[5] = snprintf(out[5], sizeof out[5], "%.3s|%6s|%-6s|%.*s|", names[0], names[1], names[1], 1, names[0]);
  lens[6] = snprintf(out[6], sizeof out[6], "%.5d|%8.3d|%-8.3d|%.0d|%*d", 42, -7, 7, 0, 4, 9);
  lens[7] = sprintf(out[7], "100%% of %d is %s", -2147483647 - 1, names[1]);
  lens[8] = snprintf(tiny, sizeof tiny, "%d", 123456);
  lens[9] = snprintf(0, 0, "%s and %s", names[0], names[1]);
  return 0;
}
