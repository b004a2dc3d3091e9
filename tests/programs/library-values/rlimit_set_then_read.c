// verdict: safe
// The limit a program sets is the one it reads back (getrlimit after setrlimit).
#include <sys/resource.h>
#include <assert.h>
#include <stdio.h>
int main(void) {
  struct rlimit r;
  if (getrlimit(RLIMIT_NOFILE, &r) != 0) return 1;
  assert(r.rlim_cur <= r.rlim_max);
  r.rlim_cur = r.rlim_max;
  if (setrlimit(RLIMIT_NOFILE, &r) == 0) {
    struct rlimit q;
    getrlimit(RLIMIT_NOFILE, &q);
    assert(q.rlim_cur == q.rlim_max);
  }
  printf("ok\n");
  return 0;
}
