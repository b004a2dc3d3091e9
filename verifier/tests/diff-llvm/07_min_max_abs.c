/* abs, labs and the min/max idioms clang turns into llvm.abs/smax/smin/umax/umin. */
#include <stdlib.h>

int a[8];
long l[2];
unsigned u[4];
int vals[8] = {-7, 7, 0, -2147483647, 2147483647, -1, 25, -26};

int main(void) {
  for (int i = 0; i < 8; i++)
    a[i] = abs(vals[i]) % 26 + 'a' - (vals[i] < 0);
  l[0] = labs(-5000000000L);
  l[1] = labs(123L);
  int mx = vals[0], mn = vals[0];
  for (int i = 1; i < 8; i++) {
    mx = vals[i] > mx ? vals[i] : mx;
    mn = vals[i] < mn ? vals[i] : mn;
  }
  u[0] = mx;
  u[1] = mn;
  unsigned x = 3000000000u, y = 5;
  u[2] = x > y ? x : y;
  u[3] = x < y ? x : y;
  return 0;
}
