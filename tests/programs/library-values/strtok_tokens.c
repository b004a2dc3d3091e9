// verdict: safe
// strtok and strtok_r split at any byte of the delimiters, skipping empty tokens.
#include <assert.h>
#include <string.h>

int main(void) {
  char line[] = "  get,/index.html,, HTTP/1.0 ";
  char *t = strtok(line, " ,");
  assert(t && strcmp(t, "get") == 0);
  t = strtok(0, " ,");
  assert(t && strcmp(t, "/index.html") == 0);
  t = strtok(0, " ,");
  assert(t && strcmp(t, "HTTP/1.0") == 0);
  assert(strtok(0, " ,") == 0);
  char kv[] = "a=1;b=22";
  char *save;
  char *k = strtok_r(kv, ";", &save);
  char *v = strtok_r(0, ";", &save);
  assert(strcmp(k, "a=1") == 0 && strcmp(v, "b=22") == 0 && !strtok_r(0, ";", &save));
  return 0;
}
