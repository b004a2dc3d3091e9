/* A vector grown with realloc keeps its elements; realloc of NULL allocates. */
#include <stdlib.h>
int sum, last, cap_final;
int main(void) {
  int cap = 2, n = 0;
  int *v = realloc(NULL, cap * sizeof *v);
  for (int i = 1; i <= 9; i++) {
    if (n == cap) {
      cap *= 2;
      v = realloc(v, cap * sizeof *v);
    }
    v[n++] = i * 3;
  }
  for (int i = 0; i < n; i++)
    sum += v[i];
  last = v[n - 1];
  cap_final = cap;
  free(v);
  return 0;
}
