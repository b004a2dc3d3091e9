// verdict: unsafe
// An output function whose result the program does not read leaves it without inputs.
#include <assert.h>
#include <stdio.h>
int a[2];
int main(void) {
  printf("start\n");
  a[1] = 2;
  assert(a[1] == 1);
  return 0;
}
