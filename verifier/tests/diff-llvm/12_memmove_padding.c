/* memmove between overlapping blocks in both directions, of constant and run-time lengths;
 * bytes of a struct's padding written, copied and read through a character pointer. */
#include <string.h>
char up[12] = "abcdefghijk", down[12] = "abcdefghijk", rup[12] = "abcdefghijk",
     rdown[12] = "abcdefghijk";
int len = 5;
struct padded { char c; int x; char d; long l; } s, t;
unsigned char pad[8];
int main(void) {
  memmove(up + 2, up, 7);
  memmove(down, down + 3, 7);
  memmove(rup + 1, rup, len);
  memmove(rdown, rdown + 2, len);
  memset(&s, 0xab, sizeof s);
  s.c = 1;
  s.x = 2;
  unsigned char *p = (unsigned char *)&s;
  p[1] = 0x11;
  p[3] = 0x33;
  memcpy(&t, &s, sizeof s);
  unsigned char *q = (unsigned char *)&t;
  for (int i = 0; i < 3; i++)
    pad[i] = q[1 + i];
  for (int i = 0; i < 3; i++)
    pad[3 + i] = q[9 + i];
  pad[6] = q[13];
  return 0;
}
