/* Regression: string and character escapes; sizeof of array-typed expressions, string
 * literals and calls; arrays sized by their initialisers. */
#include <string.h>
char g_str[] = "a\rb\x41\101\012";
char g_buf[8];
int g_chars[6];
unsigned long g_sizes[6];
int g_init[] = {4, 5, 6};
int g_len;

struct S { int a[5]; char c; } g_s;
int g_m[3][4];

long f(void) { return 1; }

int main(void) {
  char local[] = "hey";
  int la[] = {5, 6};
  strcpy(g_buf, "x\ty\\z");
  g_chars[0] = '\n';
  g_chars[1] = '\x41';
  g_chars[2] = '\101';
  g_chars[3] = '\'';
  g_chars[4] = local[1] + local[3];
  g_chars[5] = la[1];
  g_sizes[0] = sizeof(g_m[0]);
  g_sizes[1] = sizeof(g_s.a) / sizeof(g_s.a[0]);
  g_sizes[2] = sizeof(*g_m);
  g_sizes[3] = sizeof("abc");
  g_sizes[4] = sizeof(f());
  g_sizes[5] = sizeof(local) + sizeof(la) + sizeof(g_init);
  g_len = (int)sizeof(g_str);
  return 0;
}
