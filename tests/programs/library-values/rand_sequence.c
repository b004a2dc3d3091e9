// verdict: safe
// rand and random draw from one generator; without srand, and after srand(1) or srand(0),
// it gives glibc's sequence of seed 1.
#include <assert.h>
#include <stdlib.h>
int main(void) {
  assert(rand() == 1804289383);
  assert(random() == 846930886);
  assert(rand() % 26 == 1681692777 % 26);
  srand(1);
  assert(rand() == 1804289383);
  srand(0);
  assert(random() == 1804289383);
  assert(rand() == 846930886);
  return 0;
}
