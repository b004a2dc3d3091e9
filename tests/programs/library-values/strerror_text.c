// verdict: unknown
// glibc's text for ENOENT is "No such file or directory": the model does not know it.
#include <assert.h>
#include <string.h>
int main(void) {
  assert(strerror(2)[0] != 'N');
  return 0;
}
