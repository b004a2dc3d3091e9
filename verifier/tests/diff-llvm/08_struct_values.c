/* Small structs passed and returned by value (clang passes them as { i64, i32 } and similar
 * aggregates in registers), struct assignment, and a nested struct returned from a function
 * with two return statements. */
struct pair { long a; int b; };
struct small { short x, y; };
struct nest { struct small s; char c[3]; };

struct pair made[3];
struct small smalls[2];
struct nest nests[2];
long sums[3];

static struct pair make(long a, int b) {
  struct pair p = { a, b };
  return p;
}

static long sum(struct pair p) { return p.a + p.b; }

static struct small swap(struct small s) {
  struct small t = { s.y, s.x };
  return t;
}

static struct nest pick(int k) {
  struct nest n = { { 1, 2 }, { 'a', 'b', 'c' } };
  if (k) {
    n.s.x = -3;
    n.c[2] = 'z';
    return n;
  }
  return n;
}

int main(void) {
  for (int i = 0; i < 3; i++) {
    made[i] = make(10000000000L * i, -i);
    sums[i] = sum(made[i]);
  }
  struct small s = { 7, -9 };
  smalls[0] = swap(s);
  smalls[1] = swap(smalls[0]);
  nests[0] = pick(0);
  nests[1] = pick(1);
  return 0;
}
