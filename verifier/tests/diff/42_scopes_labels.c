/* Regression: block-scoped typedefs, struct tags and enum constants stay in their block;
 * a parameter named argc is an ordinary parameter; labels inside dead code stay reachable. */
int argc = 5;
int g_from_helper;
int g_typedef_sum;
int g_enum;
int g_struct;
int g_case;
int g_goto;
int g_set;

int read_argc(void) { return argc; }

void set_if_big(int argc) {
  if (argc > 1) g_set = 1;
}

void callee(void) {
  typedef char T;
  struct s { char a; } q;
  T c = 1;
  q.a = 2;
  g_typedef_sum += c + q.a;
}

int N = 10;
int enum_local(void) {
  enum { N = 3 };
  return N;
}

struct s { int a; int b; };

int main(int argc, char **argv) {
  typedef int T;
  struct s y;
  T x = 300;
  (void)argv;
  g_from_helper = read_argc() + argc;
  set_if_big(5);
  callee();
  g_typedef_sum += x;
  y.a = 1;
  y.b = 7;
  g_struct = y.a + y.b;
  g_enum = enum_local() * 100 + N;
  switch (x) {
  case 0:
    if (0) {
    case 300:
      g_case = 1;
    }
  }
  goto inside;
  if (0) {
  inside:
    g_goto = 2;
  }
  return 0;
}
