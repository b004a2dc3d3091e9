/* Unions and byte access: a union's members share bytes; a struct copied with memcpy. */
#include <string.h>
union word { int i; char c[4]; short s[2]; } w, w2;
struct rec { int a; char b; long c; } x, y;
int r1, r2;
int main(void) {
  w.i = 0x01020304;
  r1 = w.c[1] + w.s[1];
  w.c[2] = 9;
  w2 = w;
  x.a = 5; x.b = 7; x.c = 99;
  memcpy(&y, &x, sizeof x);
  r2 = y.a + y.b + (int)y.c;
  return 0;
}
