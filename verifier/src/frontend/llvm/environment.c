/* Models of the process's environment for the synth front end: what the file system holds is
 * an input. Each call may fail as POSIX allows it to (returning -1 with an arbitrary errno
 * value); on success its results are arbitrary within what POSIX promises: a directory walk
 * visits any number of paths of any length, a file's mapping holds any bytes. Linked weakly
 * into the program's module like models.c (the program's definitions win); `synth build`
 * links the system's definitions. */

#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>

int __VERIFIER_nondet_int(void);
unsigned long __VERIFIER_nondet_ulong(void);
char __VERIFIER_nondet_char(void);
void __VERIFIER_assume(int);
void *malloc(size_t);
void free(void *);
/* Heap memory for a mapping of n bytes (null when none is left), which free must not
 * release; and its release (0, or -1 with EINVAL for a pointer that is not a mapping). */
void *__synth_map(size_t n);
int __synth_unmap(void *p);

#define W __attribute__((weak, section(".text.synth_model")))

/* A failure: -1 with an arbitrary positive errno. */
static int __synth_fail(void) {
  int e = __VERIFIER_nondet_int();
  __VERIFIER_assume(e > 0);
  errno = e;
  return -1;
}

W int open(const char *path, int flags, ...) {
  (void)path;
  (void)flags;
  if (__VERIFIER_nondet_int())
    return __synth_fail();
  int fd = __VERIFIER_nondet_int();
  __VERIFIER_assume(fd >= 0);
  return fd;
}

W int close(int fd) {
  (void)fd;
  return __VERIFIER_nondet_int() ? __synth_fail() : 0;
}

W ssize_t read(int fd, void *buf, size_t n) {
  (void)fd;
  if (__VERIFIER_nondet_int())
    return __synth_fail();
  size_t r = __VERIFIER_nondet_ulong();
  __VERIFIER_assume(r <= n);
  char *p = buf;
  for (size_t i = 0; i < r; i++)
    p[i] = __VERIFIER_nondet_char();
  return (ssize_t)r;
}

/* A private read-only mapping of `len` bytes of a file: fresh memory holding arbitrary
 * bytes (memory nothing wrote), released by munmap, not by free. */
W void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
  (void)addr;
  (void)prot;
  (void)flags;
  (void)fd;
  (void)off;
  if (len == 0 || __VERIFIER_nondet_int()) {
    __synth_fail();
    return MAP_FAILED;
  }
  void *b = __synth_map(len);
  if (!b) {
    errno = ENOMEM;
    return MAP_FAILED;
  }
  return b;
}

/* Unmaps a whole mapping that mmap returned. */
W int munmap(void *addr, size_t len) {
  (void)len;
  return __synth_unmap(addr);
}

/* A walk of any number of paths, each of any length below PATH_MAX, with an arbitrary file
 * status and type flag; the walk stops when the callback returns nonzero. A path lives
 * until the callback returns, as in glibc. */
W int ftw(const char *dir, int (*fn)(const char *, const struct stat *, int), int fds) {
  (void)dir;
  (void)fds;
  while (__VERIFIER_nondet_int()) {
    size_t n = __VERIFIER_nondet_ulong();
    __VERIFIER_assume(n < 4096);
    char *path = malloc(n + 1);
    if (!path)
      return __synth_fail();
    for (size_t i = 0; i < n; i++) {
      char c = __VERIFIER_nondet_char();
      __VERIFIER_assume(c != 0);
      path[i] = c;
    }
    path[n] = 0;
    struct stat sb;
    int flag = __VERIFIER_nondet_int();
    __VERIFIER_assume(flag >= FTW_F && flag <= FTW_SL);
    int r = fn(path, &sb, flag);
    free(path);
    if (r)
      return r;
  }
  return __VERIFIER_nondet_int() ? __synth_fail() : 0;
}

/* Signals are not delivered in the model (installing a handler is refused), so a thread's
 * signal mask changes nothing the model observes: pthread_sigmask and sigprocmask check `how`
 * as POSIX does (it is ignored without a new set) and write an arbitrary previous mask. */
W int pthread_sigmask(int how, const sigset_t *set, sigset_t *old) {
  if (set && how != SIG_BLOCK && how != SIG_UNBLOCK && how != SIG_SETMASK)
    return EINVAL;
  if (old)
    for (size_t i = 0; i < sizeof *old; i++)
      ((char *)old)[i] = __VERIFIER_nondet_char();
  return 0;
}

W int sigprocmask(int how, const sigset_t *set, sigset_t *old) {
  int r = pthread_sigmask(how, set, old);
  if (r) {
    errno = r;
    return -1;
  }
  return 0;
}
