/* Variadic functions of the program: va_start, va_arg of ints, longs, pointers and chars
 * (promoted), va_copy, and a list passed on to vsnprintf's caller-side model. */
#include <stdarg.h>

int sums[4];
long longs[2];
char picked[4];
unsigned short swapped[2];
unsigned swapped32[1];

static int sum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  int s = 0;
  for (int i = 0; i < n; i++)
    s += va_arg(ap, int);
  va_end(ap);
  return s;
}

static long twice(const char *tag, ...) {
  va_list ap, again;
  va_start(ap, tag);
  va_copy(again, ap);
  long a = va_arg(ap, long);
  const char *p = va_arg(ap, const char *);
  int c = va_arg(ap, int);
  long b = va_arg(again, long);
  va_end(again);
  va_end(ap);
  picked[0] = tag[0];
  picked[1] = p[1];
  picked[2] = (char)c;
  return a + b;
}

unsigned short htons(unsigned short);
unsigned htonl(unsigned);

int main(void) {
  sums[0] = sum(3, 1, 2, 39);
  sums[1] = sum(0);
  sums[2] = sum(2, -1, -2147483647);
  sums[3] = sum(5, 'a', 'b', 'c', 'd', (short)-3);
  longs[0] = twice("x", 5000000000L, "ab", 'z');
  longs[1] = twice("y", -1L, "cd", -5);
  swapped[0] = htons(0x1234);
  swapped[1] = htons(0xff00);
  swapped32[0] = htonl(0x12345678u);
  return 0;
}
