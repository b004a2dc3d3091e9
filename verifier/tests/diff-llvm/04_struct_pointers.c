/* Pointers into structs and arrays of structs, pointer arithmetic and comparison. */
struct point { int x, y; };
struct shape { char name[4]; struct point pts[3]; int n; } shapes[2];
int total, far, diff, same;
static void move(struct point *p, int dx, int dy) { p->x += dx; p->y += dy; }
int main(void) {
  for (int s = 0; s < 2; s++) {
    struct shape *sh = &shapes[s];
    sh->n = 3;
    sh->name[0] = 'a' + s;
    for (int i = 0; i < sh->n; i++) {
      sh->pts[i].x = i + s;
      sh->pts[i].y = 2 * i;
      move(&sh->pts[i], 1, s);
    }
  }
  struct point *end = &shapes[1].pts[3];
  for (struct point *p = &shapes[1].pts[0]; p < end; p++)
    total += p->x + p->y;
  far = (int)(end - &shapes[1].pts[0]);
  diff = (char *)&shapes[1] - (char *)&shapes[0];
  same = &shapes[0].pts[1] == shapes[0].pts + 1;
  return 0;
}
