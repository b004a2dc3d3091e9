/* getopt over argument vectors of its own: options grouped and apart, arguments attached
 * and separate, optional arguments, `--`, unknown options, a missing argument with and
 * without a leading `:`, and POSIX mode; every result recorded in globals. */
#include <unistd.h>

int codes[64];
int ends[8];
char args[64];
int errs[16];
int n, m, k;

static void parse(int argc, char **argv, const char *spec) {
  int c;
  optind = 0;
  while ((c = getopt(argc, argv, spec)) != -1) {
    codes[n++] = c;
    args[m++] = optarg ? optarg[0] : '.';
    if (c == '?' || c == ':')
      errs[k++] = optopt;
  }
  ends[n % 8] = optind;
}

int main(void) {
  char *a1[] = {"p", "-n", "32", "-f4", "-vv", "x", "y", 0};
  parse(7, a1, "f:n:v");
  char *a2[] = {"p", "-v", "--", "-n", "3", 0};
  parse(5, a2, "n:v");
  char *a3[] = {"p", "-x", "-vn5", "z", 0};
  parse(4, a3, "n:v");
  char *a4[] = {"p", "-v", "-n", 0};
  parse(3, a4, "n:v");
  char *a5[] = {"p", "-n", 0};
  parse(2, a5, ":n:v");
  char *a6[] = {"p", "-ofile", "-o", "-v", 0};
  parse(4, a6, "o::v");
  char *a7[] = {"p", "-v", "a", "-v", 0};
  parse(4, a7, "+v");
  char *a8[] = {"p", "-", "-v", 0};
  parse(3, a8, "+v");
  return 0;
}
