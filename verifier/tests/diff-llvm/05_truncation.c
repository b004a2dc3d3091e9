/* Conversions the compiler makes with trunc, zext and sext, including to and from 1-bit
 * values (bit-fields of width 1, _Bool). */
struct flags { unsigned a : 1, b : 3; int c : 1; } f;
_Bool b1, b2;
int r1, r2, r3;
unsigned char uc;
signed char sc;
int main(void) {
  int two = 2, three = 3;
  f.a = two;   /* the low bit: 0 */
  f.b = 13;    /* 13 mod 8 = 5 */
  f.c = three; /* -1 in a signed 1-bit field */
  b1 = two;    /* nonzero: 1 */
  b2 = f.a;
  r1 = f.a + f.b + f.c;
  uc = 300;
  sc = 200;
  r2 = uc + sc;
  r3 = (short)70000 + (unsigned short)70000;
  return 0;
}
