/* Regression: pointers initialised once (to structs, array elements, allocations), writes
 * through array-of-struct and 2-D array parameters, file-scope pointer initialisers. */
#include <stdlib.h>
struct pt { int x, y; };
struct pt g_pts[3];
int g_grid[3][4];
int g_flag;
int *g_fp = &g_flag;
int g_out[6];

void init(struct pt *a, int n) {
  for (int i = 0; i < n; i++) a[i].x = i + 1;
}

void fill(int a[3][4]) {
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++) a[i][j] = i * 10 + j;
}

int main(void) {
  struct pt p;
  struct pt *pp = &p;
  int *one = malloc(sizeof(int));
  int *cell = &g_grid[1][2];
  init(g_pts, 3);
  fill(g_grid);
  pp->x = 3;
  pp->y = 4;
  *one = 9;
  *g_fp = 7;
  g_out[0] = p.x * 10 + p.y;
  g_out[1] = g_pts[2].x;
  g_out[2] = *cell;
  g_out[3] = *one;
  g_out[4] = g_flag;
  g_out[5] = (int)(cell - &g_grid[0][0]);
  free(one);
  return 0;
}
