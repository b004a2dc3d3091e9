/* Models of the process's environment for the synth front end: what the file system holds is
 * an input. Each call may fail as POSIX allows it to (returning -1 with an arbitrary errno
 * value); on success its results are arbitrary within what POSIX promises: a directory walk
 * visits any number of paths of any length, a file's mapping holds any bytes. Linked weakly
 * into the program's module like models.c (the program's definitions win); `synth build`
 * links the system's definitions. */

#include <errno.h>
#include <limits.h>
#include <ftw.h>
#include <signal.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <netdb.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <pwd.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <stdio.h>
#include <unistd.h>

int __VERIFIER_nondet_int(void);
unsigned long __VERIFIER_nondet_ulong(void);
long __VERIFIER_nondet_long(void);
_Bool __VERIFIER_nondet_bool(void);
char __VERIFIER_nondet_char(void);
void __VERIFIER_assume(int);
void *malloc(size_t);
void *realloc(void *, size_t);
size_t strlen(const char *);
void free(void *);
/* Heap memory for a mapping of n bytes (null when none is left), which free must not
 * release; and its release (0, or -1 with EINVAL for a pointer that is not a mapping). */
void *__synth_map(size_t n);
int __synth_unmap(void *p);
/* The front end's: `n` bytes at `p` that the system fills, bytes the model does not know (in
 * steps of whole cells where `n` is a constant). */
void __synth_arbitrary_bytes(void *p, size_t n);

#define W __attribute__((weak, section(".text.synth_environment")))

/* The front end's: `c ? a : b` as a value, without a branch in the model. */
int __synth_select_int(int c, int a, int b);
long __synth_select_long(int c, long a, long b);
void *__synth_select_pointer(int c, void *a, void *b);

/* An arbitrary error number (positive; made without an assumption, which would be a branch
 * of the model's: see __synth_or_fail). */
static int __synth_error(void) {
  int e = __VERIFIER_nondet_int();
  return __synth_select_int(e > 0, e, 1);
}

/* A failure: -1 with an arbitrary positive errno. */
static int __synth_fail(void) {
  errno = __synth_error();
  return -1;
}

/* `ok` (a length, an offset, a descriptor, 0), or a failure (-1 with an arbitrary positive
 * errno), chosen without a branch: a schedule then branches where the program tests the
 * result, in its own code, not inside the model, which the built program does not run (it
 * asks the system). (The choice is a one-bit input, which the explicit search splits into
 * its two cases: a stream or descriptor the program checked is then known on each path.) */
static long __synth_or_fail_long(long ok) {
  int fails = __VERIFIER_nondet_bool();
  errno = __synth_select_int(fails, __synth_error(), errno);
  return __synth_select_long(fails, -1, ok);
}

/* `__synth_or_fail_long` for an `int` result. */
static int __synth_or_fail(int ok) { return (int)__synth_or_fail_long(ok); }

/* A new descriptor, or a failure. */
static int __synth_descriptor(void) {
  int fd = __VERIFIER_nondet_int();
  return __synth_or_fail(__synth_select_int(fd >= 0, fd, 0));
}

W int open(const char *path, int flags, ...) {
  (void)path;
  (void)flags;
  return __synth_descriptor();
}

W int close(int fd) {
  (void)fd;
  return __synth_or_fail(0);
}

/* Up to n bytes. The system writes the r bytes it returns and leaves the others as they
 * were; the model writes arbitrary bytes over all n (what it leaves is one of them), so a
 * buffer's contents do not carry over from one read to the next. */
W ssize_t read(int fd, void *buf, size_t n) {
  (void)fd;
  if (__VERIFIER_nondet_int())
    return __synth_fail();
  __synth_arbitrary_bytes(buf, n);
  size_t r = __VERIFIER_nondet_ulong();
  __VERIFIER_assume(r <= n);
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

/* Arbitrary contents of a file's status, but a size that is not negative (POSIX: a
 * regular file's size is its length in bytes); as one value, so that a search that tries
 * small inputs tries small files. */
static void __synth_stat_values(struct stat *st) {
  __synth_arbitrary_bytes(st, sizeof *st);
  long size = __VERIFIER_nondet_long();
  st->st_size = __synth_select_long(size >= 0, size, 0);
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
    __synth_stat_values(&sb);
    int flag = __VERIFIER_nondet_int();
    __VERIFIER_assume(flag >= FTW_F && flag <= FTW_SL);
    int r = fn(path, &sb, flag);
    free(path);
    if (r)
      return r;
  }
  return __synth_or_fail(0);
}

/* Signals are not delivered in the model (installing a handler is refused), so a thread's
 * signal mask changes nothing the model observes: pthread_sigmask and sigprocmask check `how`
 * as POSIX does (it is ignored without a new set) and write an arbitrary previous mask. */
W int pthread_sigmask(int how, const sigset_t *set, sigset_t *old) {
  if (set && how != SIG_BLOCK && how != SIG_UNBLOCK && how != SIG_SETMASK)
    return EINVAL;
  if (old)
    __synth_arbitrary_bytes(old, sizeof *old);
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

/* Where `installs` (the action's handler is neither SIG_DFL nor SIG_IGN), the model's limit
 * (the front end's `__synth_signal_handler`): a handler would run asynchronously, which the
 * model does not represent. */
void __synth_signal_handler(int installs);

/* sigaction: EINVAL for a signal Linux does not let a program change (outside 1 to 64, the
 * two NPTL keeps for itself, SIGKILL and SIGSTOP given an action); an action with a handler is
 * the model's limit, SIG_DFL and SIG_IGN change nothing the model observes (pthread_kill's
 * model chooses whether a signal ends the process). The previous action is SIG_DFL or SIG_IGN
 * with arbitrary flags and mask. */
W int sigaction(int sig, const struct sigaction *act, struct sigaction *old) {
  if (sig < 1 || sig > 64 || sig == 32 || sig == 33 ||
      (act && (sig == SIGKILL || sig == SIGSTOP))) {
    errno = EINVAL;
    return -1;
  }
  if (act)
    __synth_signal_handler(act->sa_handler != SIG_DFL && act->sa_handler != SIG_IGN);
  if (old) {
    __synth_arbitrary_bytes(old, sizeof *old);
    old->sa_handler = __VERIFIER_nondet_int() ? SIG_IGN : SIG_DFL;
  }
  return 0;
}

/* raise: the signal sent to the calling thread, as glibc does (pthread_kill's model); its
 * error into errno. */
W int raise(int sig) {
  int r = pthread_kill(pthread_self(), sig);
  if (r) {
    errno = r;
    return -1;
  }
  return 0;
}

/* kill: for a signal outside 0 to 64, EINVAL, or ESRCH where `pid` names no process (Linux
 * looks for it first; `pid` 0 is the caller's group). The process itself may be among those
 * `pid` names (its own id, its group, every process): a signal may end it as pthread_kill's
 * model does, and so may 32 and 33, which glibc keeps for itself (no handler of its own may
 * be installed yet). Then the call succeeds or fails (ESRCH, EPERM: any error) as the other
 * processes are. */
W int kill(pid_t pid, int sig) {
  if (sig < 0 || sig > 64) {
    errno = pid != 0 && __VERIFIER_nondet_int() ? ESRCH : EINVAL;
    return -1;
  }
  if (sig == 32 || sig == 33) {
    if (__VERIFIER_nondet_int())
      _exit(128 + sig);
  } else {
    pthread_kill(pthread_self(), sig);
  }
  return __synth_or_fail(0);
}

/* At s, a string of up to n - 1 bytes and its null byte: all n bytes arbitrary, then a null
 * one at some k < n. (The system writes k bytes other than null and leaves the bytes after
 * the null one as they were: a string of length k and those bytes are among the model's.
 * The contents do not carry over from one call to the next, and the null byte's place is
 * known on each path.) */
static void __synth_text(char *s, size_t n) {
  __synth_arbitrary_bytes(s, n);
  size_t k = 0;
  while (k + 1 < n && __VERIFIER_nondet_int())
    k++;
  s[k] = 0;
}

/* Threads' names: the calling thread's is read and set by a system call that does not
 * fail, another thread's through a file under /proc, which may fail as the file system
 * says: 0, or the error of thread `t`'s file. */
static int __synth_name_file(pthread_t t) {
  return pthread_equal(t, pthread_self()) || !__VERIFIER_nondet_int() ? 0 : __synth_error();
}

/* A thread's name: up to 15 bytes of text (the default is the program's name, which the
 * environment gives); ERANGE for a buffer shorter than 16 bytes. The name a thread set is
 * not kept: any name may be read. */
W int pthread_getname_np(pthread_t t, char *buf, size_t len) {
  if (len < 16)
    return ERANGE;
  int e = __synth_name_file(t);
  if (e)
    return e;
  __synth_text(buf, 16);
  return 0;
}

/* A thread's new name: ERANGE beyond 15 bytes. */
W int pthread_setname_np(pthread_t t, const char *name) {
  return strlen(name) > 15 ? ERANGE : __synth_name_file(t);
}

/* A thread attribute's stack size: the one the attribute holds, or the default, which
 * follows the environment's stack limit. Any size the system accepts (PTHREAD_STACK_MIN,
 * 16384, or more, up to 2^40 more) may be read: the size set is not kept. (A range by
 * arithmetic, as the clocks' below.) */
W int pthread_attr_getstacksize(const pthread_attr_t *attr, size_t *size) {
  (void)attr;
  *size = 16384 + (__VERIFIER_nondet_ulong() & ((1UL << 40) - 1));
  return 0;
}

/* The working directory: an absolute path of arbitrary text that fits in `size` bytes, or a
 * failure (ERANGE where it does not fit, among others). Without a buffer, glibc allocates
 * one of `size` bytes (of PATH_MAX bytes where `size` is 0). */
W char *getcwd(char *buf, size_t size) {
  if (__VERIFIER_nondet_int()) {
    __synth_fail();
    return 0;
  }
  if (!buf) {
    if (size == 0)
      size = PATH_MAX;
    buf = malloc(size);
    if (!buf) {
      errno = ENOMEM;
      return 0;
    }
  }
  if (size < 2) {
    errno = size ? ERANGE : EINVAL;
    return 0;
  }
  buf[0] = '/';
  __synth_text(buf + 1, size - 1);
  return buf;
}

W uid_t getuid(void) { return (uid_t)__VERIFIER_nondet_int(); }
W uid_t geteuid(void) { return (uid_t)__VERIFIER_nondet_int(); }
W pid_t getpid(void) {
  int p = __VERIFIER_nondet_int();
  return __synth_select_int(p > 0, p, 1);
}

/* Resource limits: until the program sets one, any soft limit up to the hard one (either
 * may be RLIM_INFINITY); a resource Linux does not know is EINVAL. Setting one may fail (a
 * soft limit above the hard one is EINVAL; raising the hard one may be EPERM), and a limit
 * set is the one read afterwards. */
static struct rlimit __synth_rlimits[RLIM_NLIMITS];
static char __synth_rlimit_set[RLIM_NLIMITS];
W int getrlimit(int resource, struct rlimit *r) {
  if (resource < 0 || resource >= RLIM_NLIMITS) {
    errno = EINVAL;
    return -1;
  }
  if (__synth_rlimit_set[resource]) {
    *r = __synth_rlimits[resource];
    return 0;
  }
  rlim_t hard = __VERIFIER_nondet_ulong(), soft = __VERIFIER_nondet_ulong();
  __VERIFIER_assume(soft <= hard);
  r->rlim_cur = soft;
  r->rlim_max = hard;
  return 0;
}
W int setrlimit(int resource, const struct rlimit *r) {
  if (resource < 0 || resource >= RLIM_NLIMITS || r->rlim_cur > r->rlim_max) {
    errno = EINVAL;
    return -1;
  }
  if (__VERIFIER_nondet_int())
    return __synth_fail();
  __synth_rlimits[resource] = *r;
  __synth_rlimit_set[resource] = 1;
  return 0;
}

/* The password database entry of a user: none (null), or one whose texts are arbitrary
 * (names and password below 256 bytes, the others below PATH_MAX), in storage the next call
 * overwrites, as POSIX allows. */
static char __synth_pw_name[256], __synth_pw_passwd[256], __synth_pw_gecos[PATH_MAX],
    __synth_pw_dir[PATH_MAX], __synth_pw_shell[PATH_MAX];
static struct passwd __synth_pw;
W struct passwd *getpwuid(uid_t uid) {
  if (__VERIFIER_nondet_int())
    return 0;
  __synth_text(__synth_pw_name, sizeof __synth_pw_name);
  __synth_text(__synth_pw_passwd, sizeof __synth_pw_passwd);
  __synth_text(__synth_pw_gecos, sizeof __synth_pw_gecos);
  __synth_text(__synth_pw_dir, sizeof __synth_pw_dir);
  __synth_text(__synth_pw_shell, sizeof __synth_pw_shell);
  __synth_pw.pw_name = __synth_pw_name;
  __synth_pw.pw_passwd = __synth_pw_passwd;
  __synth_pw.pw_gecos = __synth_pw_gecos;
  __synth_pw.pw_dir = __synth_pw_dir;
  __synth_pw.pw_shell = __synth_pw_shell;
  __synth_pw.pw_uid = uid;
  __synth_pw.pw_gid = (gid_t)__VERIFIER_nondet_int();
  return &__synth_pw;
}

/* Streams: a stream is a block the model allocates (its contents are the library's), opened
 * or failing as the file system says; reading gives arbitrary bytes. The standard streams
 * are open from the start (the C library's objects). A null stream
 * given to the library is an error of the program (glibc dereferences it); the front end
 * checks the output functions' streams itself (calls.rs). */
/* (The front end starts `stdin`, `stdout` and `stderr`, which the C library defines, as
 * three open streams: lower.rs.) */

/* The front end's: an error, a null stream given to the C library. */
void __synth_null_stream(void);

static void __synth_stream_given(FILE *f) {
  if (!f)
    __synth_null_stream();
}

/* The front end's: the block of the stream the program's call opens, allocated at that call
 * (heap.rs, `opened_stream`), where the schedule can order its allocation; `fclose` frees it
 * at the program's call (`stream_open`). */
FILE *__synth_stream_block(void);

/* The stream opened, or null where the system refuses. (A branch of the model's: each way
 * then knows the stream it returns, which the program's calls check. The schedule takes
 * the model's call as one step, `schedgen::sections`.) */
static FILE *__synth_stream(void) {
  if (__synth_or_fail(0) != 0)
    return 0;
  return __synth_stream_block();
}

/* (The front end reads the path and the mode: calls.rs.) */
W FILE *fopen(const char *path, const char *mode) {
  (void)path;
  (void)mode;
  return __synth_stream();
}

W FILE *fdopen(int fd, const char *mode) {
  (void)mode;
  FILE *f = __synth_stream();
  errno = __synth_select_int(fd < 0, EBADF, errno);
  return __synth_select_pointer(fd < 0, 0, f);
}

/* The front end releases the stream's block at the program's call, before this model runs
 * (calls.rs, `stream_open`), where the schedule can order the call, and checks every later
 * use of the stream and a second `fclose` there. */
W int fclose(FILE *f) {
  __synth_stream_given(f);
  return __synth_select_int(__synth_or_fail(0) != 0, EOF, 0);
}

/* A line (up to n - 1 bytes, with its newline if it fits; a file may hold null bytes too)
 * or null at the end of the file or on an error. Either way the model writes arbitrary bytes
 * over the whole array first: after an error its contents are indeterminate (C11 7.21.7.2),
 * and what the end of the file leaves unchanged is among them. */
W char *fgets(char *s, int n, FILE *f) {
  __synth_stream_given(f);
  if (n <= 0)
    return 0;
  /* (Room for the null byte only: glibc stores it and reads nothing.) */
  if (n == 1) {
    s[0] = 0;
    return s;
  }
  if (__VERIFIER_nondet_int()) {
    __synth_arbitrary_bytes(s, (size_t)n);
    return 0;
  }
  __synth_text(s, (size_t)n);
  return s;
}

/* Up to `count` items of `size` arbitrary bytes each. */
W size_t fread(void *buf, size_t size, size_t count, FILE *f) {
  __synth_stream_given(f);
  /* (As read: arbitrary bytes over the whole buffer, of which the system writes those of
   * the r items it returns.) */
  __synth_arbitrary_bytes(buf, size * count);
  size_t r = __VERIFIER_nondet_ulong();
  __VERIFIER_assume(r <= count);
  return r;
}

/* A stream's descriptor: an arbitrary one (every stream the model opens has one). */
W int fileno(FILE *f) {
  __synth_stream_given(f);
  return __VERIFIER_nondet_int() & INT_MAX;
}
W int fileno_unlocked(FILE *f) { return fileno(f); }

/* The longest text the environment gives in one piece (a line, a variable's value): a bound
 * of the model's arithmetic, beyond any memory. */
#define SYNTH_LONGEST_TEXT ((1UL << 40) - 1)

/* A line up to `delim`, as glibc reads it: without a buffer (*line null or *size 0) a new one
 * of 120 bytes first, whatever comes next; then -1 at the end of the file or on an error
 * (EINVAL without a place for the line), or the line's length k >= 1 (bytes other than
 * `delim` but for the last, which may be it, in glibc's way any byte else, null too), stored
 * with a null byte after it at *line, which is reallocated to an arbitrary size of at least
 * k + 1 bytes (recorded in *size) where it holds fewer; an error may also come after such a
 * reallocation. */
W ssize_t getdelim(char **line, size_t *size, int delim, FILE *f) {
  __synth_stream_given(f);
  if (!line || !size) {
    errno = EINVAL;
    return -1;
  }
  if (!*line || !*size) {
    char *p = malloc(120);
    if (!p) {
      errno = ENOMEM;
      return -1;
    }
    *line = p;
    *size = 120;
  }
  if (__VERIFIER_nondet_int())
    return __VERIFIER_nondet_int() ? __synth_fail() : -1;
  size_t k = (__VERIFIER_nondet_ulong() & SYNTH_LONGEST_TEXT) + 1;
  if (*size < k + 1) {
    size_t n = k + 1 + (__VERIFIER_nondet_ulong() & SYNTH_LONGEST_TEXT);
    char *p = realloc(*line, n);
    if (!p) {
      errno = ENOMEM;
      return -1;
    }
    *line = p;
    *size = n;
    if (__VERIFIER_nondet_int())
      return __synth_fail();
  }
  char *s = *line;
  for (size_t i = 0; i + 1 < k; i++) {
    char c = __VERIFIER_nondet_char();
    __VERIFIER_assume(c != (char)delim);
    s[i] = c;
  }
  s[k - 1] = __VERIFIER_nondet_char();
  s[k] = 0;
  return (ssize_t)k;
}
W ssize_t getline(char **line, size_t *size, FILE *f) { return getdelim(line, size, '\n', f); }

/* An environment variable's value: unset (null), or text in memory of the environment's,
 * which free must not release: a block of any size whose last byte is null and whose other
 * bytes nothing wrote (arbitrary), so any text that fits. */
W char *getenv(const char *name) {
  (void)name;
  if (__VERIFIER_nondet_int())
    return 0;
  size_t k = __VERIFIER_nondet_ulong() & SYNTH_LONGEST_TEXT;
  char *s = __synth_map(k + 1);
  if (!s)
    return 0;
  s[k] = 0;
  return s;
}
W char *secure_getenv(const char *name) { return getenv(name); }

/* Clocks: any time up to SYNTH_LAST_SECOND seconds (the year 36812: a later time is no
 * clock's, and adding a timeout to a time read does not overflow), with the nanoseconds
 * (microseconds) in range; the clocks Linux always has (0-7) never fail, another may fail. */
#define SYNTH_LAST_SECOND ((1L << 40) - 1)
/* (Ranges by arithmetic, not assumptions: an assumption on an input is a branch whose arm a
 * schedule may follow, and `synth build` runs the system's clock, not this model.) */
static long __synth_seconds(void) { return (long)(__VERIFIER_nondet_ulong() & SYNTH_LAST_SECOND); }
W int clock_gettime(clockid_t clock, struct timespec *ts) {
  if ((clock < 0 || clock > 7) && __VERIFIER_nondet_int())
    return __synth_fail();
  long s = __synth_seconds(), ns = (long)(__VERIFIER_nondet_ulong() % 1000000000);
  ts->tv_sec = s;
  ts->tv_nsec = ns;
  return 0;
}
W int gettimeofday(struct timeval *tv, void *tz) {
  (void)tz;
  long s = __synth_seconds(), us = (long)(__VERIFIER_nondet_ulong() % 1000000);
  if (tv) {
    tv->tv_sec = s;
    tv->tv_usec = us;
  }
  return 0;
}
W time_t time(time_t *t) {
  long s = __synth_seconds();
  if (t)
    *t = s;
  return s;
}

/* A file's status: arbitrary, or a failure. */
/* (Written on a failure too, where nothing should read it: the failure is chosen without a
 * branch, as `__synth_or_fail`'s.) */
static int __synth_status(struct stat *st) {
  __synth_stat_values(st);
  return __synth_or_fail(0);
}
W int stat(const char *path, struct stat *st) {
  (void)path;
  return __synth_status(st);
}
W int lstat(const char *path, struct stat *st) {
  (void)path;
  return __synth_status(st);
}
W int fstat(int fd, struct stat *st) {
  (void)fd;
  return __synth_status(st);
}

/* Writes and sends: up to `n` bytes taken, or a failure (chosen without a branch, as
 * `__synth_or_fail`). */
static ssize_t __synth_taken(size_t n) {
  size_t r = __VERIFIER_nondet_ulong();
  return __synth_or_fail_long(__synth_select_long(r <= n, (long)r, (long)n));
}
W ssize_t write(int fd, const void *buf, size_t n) {
  (void)fd;
  (void)buf;
  return __synth_taken(n);
}
W ssize_t pwrite(int fd, const void *buf, size_t n, off_t off) {
  (void)fd;
  (void)buf;
  (void)off;
  return __synth_taken(n);
}
W ssize_t send(int fd, const void *buf, size_t n, int flags) {
  (void)fd;
  (void)buf;
  (void)flags;
  return __synth_taken(n);
}
W ssize_t recv(int fd, void *buf, size_t n, int flags) {
  (void)flags;
  return read(fd, buf, n);
}

/* Host lookups: none (null, with h_errno set), or an entry of arbitrary text with one IPv4
 * address of arbitrary bytes, in storage the next call overwrites. */
static char __synth_host_name[256];
static char __synth_host_addr[4];
static char *__synth_host_addrs[2] = {__synth_host_addr, 0};
static char *__synth_host_aliases[1] = {0};
static struct hostent __synth_host;
static __thread int __synth_h_errno;
W int *__h_errno_location(void) { return &__synth_h_errno; }
W struct hostent *gethostbyname(const char *name) {
  (void)name;
  if (__VERIFIER_nondet_int()) {
    int e = __VERIFIER_nondet_int();
    __VERIFIER_assume(e >= HOST_NOT_FOUND && e <= NO_DATA);
    __synth_h_errno = e;
    return 0;
  }
  __synth_text(__synth_host_name, sizeof __synth_host_name);
  __synth_arbitrary_bytes(__synth_host_addr, sizeof __synth_host_addr);
  __synth_host.h_name = __synth_host_name;
  __synth_host.h_aliases = __synth_host_aliases;
  __synth_host.h_addrtype = AF_INET;
  __synth_host.h_length = 4;
  __synth_host.h_addr_list = __synth_host_addrs;
  return &__synth_host;
}

/* Texts of the library: a message for an h_errno value, an address in dotted form. */
static char __synth_herror_text[64];
W const char *hstrerror(int e) {
  (void)e;
  __synth_text(__synth_herror_text, sizeof __synth_herror_text);
  return __synth_herror_text;
}
static char __synth_ntoa_text[16];
W char *inet_ntoa(struct in_addr a) {
  (void)a;
  __synth_text(__synth_ntoa_text, sizeof __synth_ntoa_text);
  return __synth_ntoa_text;
}
/* A dotted address's value: any (INADDR_NONE, all ones, for text that is none). */
W in_addr_t inet_addr(const char *cp) {
  (void)cp;
  return (in_addr_t)__VERIFIER_nondet_ulong();
}

/* Sockets: a descriptor, a connection, or a failure. */
W int socket(int domain, int type, int protocol) {
  (void)domain;
  (void)type;
  (void)protocol;
  return __synth_descriptor();
}
W int connect(int fd, const struct sockaddr *addr, socklen_t len) {
  (void)fd;
  (void)addr;
  (void)len;
  return __synth_or_fail(0);
}

/* select: a failure, or the count of descriptors ready, each set keeping any of the
 * descriptors below n it had; the timeout's remaining time is any. */
static int __synth_ready(fd_set *s, int n) {
  int k = 0;
  if (!s)
    return 0;
  for (int fd = 0; fd < n && fd < FD_SETSIZE; fd++)
    if (FD_ISSET(fd, s)) {
      if (__VERIFIER_nondet_int())
        k++;
      else
        FD_CLR(fd, s);
    }
  return k;
}
W int select(int n, fd_set *r, fd_set *w, fd_set *e, struct timeval *tv) {
  if (__VERIFIER_nondet_int())
    return __synth_fail();
  int k = __synth_ready(r, n) + __synth_ready(w, n) + __synth_ready(e, n);
  if (tv) {
    long s = (long)__VERIFIER_nondet_ulong(), us = (long)__VERIFIER_nondet_ulong();
    __VERIFIER_assume(s >= 0 && us >= 0 && us < 1000000);
    tv->tv_sec = s;
    tv->tv_usec = us;
  }
  return k;
}

/* A file offset: any non-negative one, or a failure. */
W off_t lseek(int fd, off_t off, int whence) {
  (void)fd;
  (void)off;
  (void)whence;
  off_t r = (off_t)__VERIFIER_nondet_ulong();
  return __synth_or_fail_long(__synth_select_long(r >= 0, r, 0));
}
W int unlink(const char *path) {
  (void)path;
  return __synth_or_fail(0);
}

/* Signals are not delivered in the model: alarm returns the seconds left of an earlier
 * alarm (any), and sigwait returns when one of the signals of its set arrives (any such). */
W unsigned alarm(unsigned seconds) {
  (void)seconds;
  return (unsigned)__VERIFIER_nondet_ulong();
}
W int sigwait(const sigset_t *set, int *sig) {
  int s = __VERIFIER_nondet_int();
  __VERIFIER_assume(s > 0);
  __VERIFIER_assume(s < 65);
  int member = sigismember(set, s);
  __VERIFIER_assume(member == 1);
  *sig = s;
  return 0;
}
