/* Support functions of a module instrumented by synth (schedgen::instrument): the
 * synchronisation the schedule performs itself, in the verifier's model of it, and the
 * verifier's built-ins. Included after the schedule header (synth_enforcer.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#define SYNTH_NO_SITE 4294967295u

/* The events of a site around an access, where the access is one (SYNTH_NO_SITE: none). */
static inline void synth_before_at(uint32_t site) {
  if (site != SYNTH_NO_SITE)
    synth_before(site);
}
static inline void synth_after_at(uint32_t site) {
  if (site != SYNTH_NO_SITE)
    synth_after(site);
}

/* A condition wait: release the mutex, be woken (the schedule orders the signal before this
 * event), take the mutex again. The condition variable itself is not used: its order is the
 * schedule's. */
int __synth_cond_wait(uint32_t release, uint32_t wake, uint32_t lock, pthread_cond_t *c,
                      pthread_mutex_t *m) {
  (void)c;
  synth_before(release);
  pthread_mutex_unlock(m);
  synth_after(release);
  synth_before(wake);
  synth_after(wake);
  if (lock != SYNTH_NO_SITE)
    synth_before(lock);
  pthread_mutex_lock(m);
  if (lock != SYNTH_NO_SITE)
    synth_after(lock);
  return 0;
}

/* The clock of condition variable `c`'s timed waits (pthread_condattr_setclock): glibc
 * (since 2.25) marks a condition variable initialised for CLOCK_MONOTONIC with bit 1 of
 * `__wrefs`; every other one waits on CLOCK_REALTIME. */
static clockid_t synth_cond_clock(const pthread_cond_t *c) {
#ifdef __GLIBC__
  if (c->__data.__wrefs & 2)
    return CLOCK_MONOTONIC;
#endif
  (void)c;
  return CLOCK_REALTIME;
}

/* The deadline of a timed call, read between the events of `read` (where it is a site). */
static struct timespec synth_deadline(uint32_t read, const struct timespec *deadline) {
  synth_before_at(read);
  struct timespec at = *(volatile const struct timespec *)deadline;
  synth_after_at(read);
  return at;
}

/* Whether glibc's timed calls refuse deadline `at`: its nanoseconds lie outside [0, 10^9). */
static int synth_invalid_deadline(struct timespec at) {
  return (unsigned long)at.tv_nsec >= 1000000000ul;
}

/* Sleeps until `at` on `clock` (a timeout the schedule chose comes no earlier). */
static void synth_sleep_until(clockid_t clock, const struct timespec *at) {
  while (clock_nanosleep(clock, TIMER_ABSTIME, at, NULL) == EINTR)
    ;
}

/* A timed condition wait, in the verifier's model of glibc's: a deadline whose nanoseconds
 * lie outside [0, 10^9) is refused with EINVAL at once, the mutex still held (`read` is the
 * event of the deadline's read where it is one, `refuse` and `go_on` the check's arms where
 * the schedule branches on it); otherwise the mutex is released and the schedule's next
 * event of the thread says whether it is woken (`wake`) or times out (`timeout`, which
 * returns ETIMEDOUT), then the mutex is taken again. A timeout the schedule chooses comes no
 * earlier than the deadline on the condition variable's clock (synth_cond_clock). */
int __synth_cond_timedwait(uint32_t read, uint32_t refuse, uint32_t go_on, uint32_t release,
                           uint32_t wake, uint32_t timeout, uint32_t lock, pthread_cond_t *c,
                           pthread_mutex_t *m, const struct timespec *deadline) {
  struct timespec at = synth_deadline(read, deadline);
  if (synth_branch(refuse, go_on, synth_invalid_deadline(at)))
    return EINVAL;
  synth_before(release);
  pthread_mutex_unlock(m);
  synth_after(release);
  uint32_t w = synth_choose(wake, timeout);
  if (w == timeout)
    synth_sleep_until(synth_cond_clock(c), &at);
  synth_before(w);
  synth_after(w);
  synth_before_at(lock);
  pthread_mutex_lock(m);
  synth_after_at(lock);
  return w == timeout ? ETIMEDOUT : 0;
}

/* A timed call's timeout (site `timeout`), in the verifier's model of glibc's: EINVAL at once
 * for a deadline whose nanoseconds lie outside [0, 10^9) (for a lock, `lock`, only where its
 * seconds are not negative: glibc 2.34 and later time out at once on those), otherwise
 * ETIMEDOUT, no earlier than the deadline on `clock`. */
static int synth_time_out(uint32_t timeout, clockid_t clock, struct timespec at, int lock) {
  int r = ETIMEDOUT;
  if (lock && at.tv_sec < 0)
    ;
  else if (synth_invalid_deadline(at))
    r = EINVAL;
  else
    synth_sleep_until(clock, &at);
  synth_before(timeout);
  synth_after(timeout);
  return r;
}

/* pthread_mutex_clocklock: the schedule's next event of the thread says whether it takes the
 * mutex (`lock`, where the schedule has the mutex free, or the caller's own recursive or
 * error-checking one) or times out (`timeout`). glibc refuses other clocks than these two
 * with EINVAL before anything else; the verifier lowers that call to its result. */
int __synth_mutex_clocklock(uint32_t read, uint32_t lock, uint32_t timeout, pthread_mutex_t *m,
                            clockid_t clock, const struct timespec *deadline) {
  if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC)
    return EINVAL;
  struct timespec at = synth_deadline(read, deadline);
  if (synth_choose(lock, timeout) == timeout)
    return synth_time_out(timeout, clock, at, 1);
  synth_before_at(lock);
  int r = pthread_mutex_lock(m);
  synth_after_at(lock);
  return r;
}

/* pthread_mutex_timedlock: pthread_mutex_clocklock on CLOCK_REALTIME. */
int __synth_mutex_timedlock(uint32_t read, uint32_t lock, uint32_t timeout, pthread_mutex_t *m,
                            const struct timespec *deadline) {
  return __synth_mutex_clocklock(read, lock, timeout, m, CLOCK_REALTIME, deadline);
}

/* sem_clockwait: as glibc, an invalid deadline is refused whatever the value; otherwise the
 * schedule's next event of the thread says whether it decrements the value (`wait`) or times
 * out (`timeout`). -1 with errno set where it does not decrement. */
int __synth_sem_clockwait(uint32_t read, uint32_t wait, uint32_t timeout, sem_t *s,
                          clockid_t clock, const struct timespec *deadline) {
  if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC) {
    errno = EINVAL;
    return -1;
  }
  struct timespec at = synth_deadline(read, deadline);
  if (synth_choose(wait, timeout) == timeout) {
    errno = synth_time_out(timeout, clock, at, 0);
    return -1;
  }
  synth_before_at(wait);
  while (sem_wait(s) != 0 && errno == EINTR)
    ;
  synth_after_at(wait);
  return 0;
}

/* sem_timedwait: sem_clockwait on CLOCK_REALTIME. */
int __synth_sem_timedwait(uint32_t read, uint32_t wait, uint32_t timeout, sem_t *s,
                          const struct timespec *deadline) {
  return __synth_sem_clockwait(read, wait, timeout, s, CLOCK_REALTIME, deadline);
}

/* Byte `k` copied from `src` to `dst`, its read and its write between their events. */
static inline void synth_copy_byte(uint32_t read, uint32_t write, unsigned char *dst,
                                   const unsigned char *src, uint64_t k) {
  synth_before_at(read);
  unsigned char b = *(volatile const unsigned char *)&src[k];
  synth_after_at(read);
  synth_before_at(write);
  *(volatile unsigned char *)&dst[k] = b;
  synth_after_at(write);
}

/* A block copy (`memcpy`, `memmove` with `backward`) whose length is known only at run time,
 * byte by byte as the verifier's model performs it: each byte read from `src`, then written
 * to `dst`, each access between its site's events where it is one (SYNTH_NO_SITE where it
 * touches no shared memory); `memmove` goes from the last byte down where the destination
 * starts inside the source. */
void __synth_copy_bytes(uint32_t read, uint32_t write, uint32_t backward, unsigned char *dst,
                        const unsigned char *src, uint64_t n) {
  int down = backward && (uintptr_t)dst > (uintptr_t)src && (uintptr_t)dst < (uintptr_t)src + n;
  for (uint64_t i = 0; i < n; i++)
    synth_copy_byte(read, write, dst, src, down ? n - 1 - i : i);
}

/* A library call's argument read as the verifier's model reads it (what it prints, a path, a
 * buffer written out; `mode` 0: a string up to its null byte, at most `length` bytes where
 * `length` is not negative; 1: the same, or nothing for a null pointer; 2: `length` bytes),
 * byte by byte between the events of `site`, into a copy that the call gets instead: every
 * read of the program's memory is one the schedule orders, and none is left to the call.
 * The loop's tests report the arms the schedule branches on (`more`, `bounded`, `end`,
 * `next`, `null`, `not_null`; SYNTH_NO_SITE where it does not). The copy goes to
 * `__synth_printed_free` after the call. */
void *__synth_printed_copy(uint32_t site, uint32_t more, uint32_t bounded, uint32_t end,
                           uint32_t next, uint32_t null, uint32_t not_null,
                           const unsigned char *p, int64_t length, int32_t mode) {
  if (mode == 1 && synth_branch(null, not_null, !p))
    return NULL;
  size_t cap = 64, n = 0;
  unsigned char *copy = malloc(cap);
  if (!copy)
    abort();
  for (;;) {
    if (!synth_branch(more, bounded, !(length >= 0 && n >= (uint64_t)length)))
      break;
    synth_before_at(site);
    unsigned char b = *(volatile const unsigned char *)&p[n];
    synth_after_at(site);
    if (n + 1 >= cap) {
      cap *= 2;
      copy = realloc(copy, cap);
      if (!copy)
        abort();
    }
    copy[n++] = b;
    if (mode != 2 && synth_branch(end, next, b == 0))
      break;
  }
  /* (A string cut at its precision, or bytes, end in a null byte nothing reads.) */
  copy[n] = 0;
  return copy;
}

/* The copy `__synth_printed_copy` made, after the call printed it. */
void __synth_printed_free(void *copy) { free(copy); }

/* A block fill (`memset`) whose length is known only at run time, byte by byte. */
void __synth_fill_bytes(uint32_t write, unsigned char *dst, uint32_t byte, uint64_t n) {
  for (uint64_t i = 0; i < n; i++) {
    synth_before_at(write);
    *(volatile unsigned char *)&dst[i] = (unsigned char)byte;
    synth_after_at(write);
  }
}

/* The sizes of the blocks the program allocates, where a `realloc` is scheduled: its model
 * copies the smaller of the old block's size and the new one, byte by byte, so the built
 * program must know the old block's size exactly. The module's `malloc`, `calloc`, `realloc`
 * and `free` record and forget them (schedgen::instrument). */
struct synth_size {
  void *block;
  size_t size;
  struct synth_size *next;
};
#define SYNTH_SIZE_BUCKETS 4096u
static struct synth_size *synth_sizes[SYNTH_SIZE_BUCKETS];
static pthread_mutex_t synth_sizes_lock = PTHREAD_MUTEX_INITIALIZER;

static struct synth_size **synth_size_slot(void *block) {
  struct synth_size **s = &synth_sizes[((uintptr_t)block >> 4) % SYNTH_SIZE_BUCKETS];
  while (*s && (*s)->block != block)
    s = &(*s)->next;
  return s;
}

static void synth_size_record(void *block, size_t size) {
  struct synth_size *e = malloc(sizeof *e);
  if (!e) {
    fputs("synth: out of memory recording a block's size\n", stderr);
    abort();
  }
  pthread_mutex_lock(&synth_sizes_lock);
  struct synth_size **s = synth_size_slot(block);
  if (*s) {
    (*s)->size = size;
    free(e);
  } else {
    e->block = block;
    e->size = size;
    e->next = NULL;
    *s = e;
  }
  pthread_mutex_unlock(&synth_sizes_lock);
}

/* Forgets `block`; returns whether its size was known, in `*size`. */
static int synth_size_forget(void *block, size_t *size) {
  pthread_mutex_lock(&synth_sizes_lock);
  struct synth_size **s = synth_size_slot(block);
  struct synth_size *e = *s;
  if (e)
    *s = e->next;
  pthread_mutex_unlock(&synth_sizes_lock);
  if (!e)
    return 0;
  *size = e->size;
  free(e);
  return 1;
}

void *__synth_sized_malloc(size_t n) {
  void *p = malloc(n);
  if (p)
    synth_size_record(p, n);
  return p;
}

void *__synth_sized_calloc(size_t k, size_t n) {
  void *p = calloc(k, n);
  if (p)
    synth_size_record(p, k * n);
  return p;
}

void *__synth_sized_realloc(void *p, size_t n) {
  size_t old = 0;
  int known = p && synth_size_forget(p, &old);
  void *q = realloc(p, n);
  if (q)
    synth_size_record(q, n);
  else if (known && n != 0)
    synth_size_record(p, old);
  return q;
}

void __synth_sized_free(void *p) {
  size_t size;
  if (p)
    synth_size_forget(p, &size);
  free(p);
}

/* A scheduled `realloc`, in the verifier's model's steps, each between its site's events
 * where it is one (SYNTH_NO_SITE where it touches no shared memory): the new block is
 * allocated; before each byte and after the last the loop tests its length (the smaller of
 * the old block's size and `n`; none without an old block); each byte is read from the old
 * block and written to the new one; the old block is released. `realloc(p, 0)` of a block
 * returns null, as glibc's does. */
void *__synth_realloc(uint32_t alloc, uint32_t length, uint32_t read, uint32_t write,
                      uint32_t release, unsigned char *p, size_t n) {
  size_t old = 0;
  if (p && !synth_size_forget(p, &old)) {
    fputs("synth: `realloc` of a block the program did not allocate with malloc, calloc or "
          "realloc: its size, which the schedule's copy depends on, is not known\n",
          stderr);
    abort();
  }
  synth_before_at(alloc);
  unsigned char *q = malloc(n ? n : 1);
  synth_after_at(alloc);
  if (!q) {
    fputs("synth: out of memory in `realloc`\n", stderr);
    abort();
  }
  synth_size_record(q, n);
  size_t len = p ? (n < old ? n : old) : 0;
  for (size_t i = 0;; i++) {
    synth_before_at(length);
    synth_after_at(length);
    if (i == len)
      break;
    synth_copy_byte(read, write, q, p, i);
  }
  if (p) {
    synth_before_at(release);
    free(p);
    synth_after_at(release);
  }
  if (p && n == 0) {
    __synth_sized_free(q);
    return NULL;
  }
  return q;
}

/* A signal or broadcast: an event the waiters it wakes are ordered after. */
int __synth_event(uint32_t site, void *object) {
  (void)object;
  synth_before(site);
  synth_after(site);
  return 0;
}

/* `pthread_cond_init`: the condition variable's waiters are the schedule's (the waits and
 * signals are performed by it), so initialising it is its event; the condition variable is
 * initialised all the same, for the clock its timed waits use (synth_cond_clock). glibc's
 * initialisation always succeeds. */
int __synth_cond_init(uint32_t site, void *cond, const void *attr) {
  synth_before(site);
  pthread_cond_init((pthread_cond_t *)cond, (const pthread_condattr_t *)attr);
  synth_after(site);
  return 0;
}

/* An assumption over shared memory, which the verifier models as waiting until its
 * condition holds in memory: the schedule orders it after the events that make it hold. */
void __synth_await(uint32_t site, int cond) {
  (void)cond;
  synth_before(site);
  synth_after(site);
}

/* An event without an action of its own (an atomic region's marker). */
void __synth_mark(uint32_t site) {
  synth_before(site);
  synth_after(site);
}

/* Barriers as the verifier models them, in the barrier object's own storage: arrivals so
 * far, threads to wait for, generation. The serial thread is the last to arrive in the
 * schedule's order. */
int __synth_barrier_init(uint32_t site, pthread_barrier_t *b, const void *attr, unsigned n) {
  (void)attr;
  volatile long *cell = (volatile long *)b;
  if (site != SYNTH_NO_SITE)
    synth_before(site);
  cell[0] = 0;
  cell[1] = (long)n;
  cell[2] = 0;
  if (site != SYNTH_NO_SITE)
    synth_after(site);
  return 0;
}

int __synth_barrier_wait(uint32_t arrive, uint32_t leave, pthread_barrier_t *b) {
  volatile long *cell = (volatile long *)b;
  synth_before(arrive);
  long generation = cell[2];
  int last = cell[0] + 1 == cell[1];
  if (last) {
    cell[2] = generation + 1;
    cell[0] = 0;
  } else {
    cell[0] = cell[0] + 1;
  }
  synth_after(arrive);
  synth_before(leave);
  long now = cell[2];
  synth_after(leave);
  if (now == generation)
    synth_fail(leave, "a thread leaves a barrier before every thread arrived");
  return last ? PTHREAD_BARRIER_SERIAL_THREAD : 0;
}

int __synth_barrier_destroy(pthread_barrier_t *b) {
  (void)b;
  return 0;
}

/* pthread_once as the verifier models it, in the once object's own storage: 0 not run,
 * 1 running, 2 done. */
int __synth_once(uint32_t site, pthread_once_t *o, void (*init)(void)) {
  volatile int *state = (volatile int *)o;
  synth_before(site);
  int s = *state;
  if (s == 0)
    *state = 1;
  synth_after(site);
  if (s == 2)
    return 0;
  if (s != 0)
    synth_fail(site, "pthread_once: the initialisation is still running");
  init();
  synth_before(site);
  *state = 2;
  synth_after(site);
  return 0;
}

/* pthread_create at a site of the schedule. The verified program refuses a creation for the
 * thread bound by the copy of the code it runs, not by a count of threads, and
 * the refusal's write of SYNTH_NO_THREAD as the id is an event of the schedule: where one
 * instruction is a creation in some copies and a refusal (site `refusal`) in others, the
 * schedule's next event says which this is. A refusal fails with EAGAIN, as the verifier
 * assumed. */
static int __synth_refuse(uint32_t refusal, pthread_t *t) {
  synth_before(refusal);
  if (t)
    *t = (pthread_t)SYNTH_NO_THREAD;
  synth_after(refusal);
  return EAGAIN;
}

int __synth_pthread_create(uint32_t site, uint32_t refusal, pthread_t *t, const void *attr,
                           void *(*start)(void *), void *arg) {
  if (refusal != SYNTH_NONE && synth_choose(site, refusal) == refusal)
    return __synth_refuse(refusal, t);
  return synth_pthread_create(site, (unsigned long *)t, attr, start, arg);
}

/* A creation the verified program refuses for the thread bound wherever it reaches it, whose
 * write of the id is the schedule's event `refusal`. */
int __synth_create_refused_at(uint32_t refusal, pthread_t *t, const void *attr,
                              void *(*start)(void *), void *arg) {
  (void)attr;
  (void)start;
  (void)arg;
  return __synth_refuse(refusal, t);
}

/* A thread creation the verified program does not make: beyond the thread bound it fails
 * with EAGAIN and leaves SYNTH_NO_THREAD as the id, as the verifier assumed. */
int __synth_create_refused(pthread_t *t, const void *attr, void *(*start)(void *), void *arg) {
  if (t)
    *t = (pthread_t)SYNTH_NO_THREAD;
  (void)attr;
  (void)start;
  (void)arg;
  return EAGAIN;
}

/* pthread_join at a site of the schedule: the id a creation refused for the thread bound left
 * behind is joined at once with ESRCH, as the verifier assumed; any other is joined. */
int __synth_pthread_join(uint32_t site, pthread_t t, void **ret) {
  synth_before(site);
  int r = t == (pthread_t)SYNTH_NO_THREAD ? ESRCH : pthread_join(t, ret);
  synth_after(site);
  return r;
}

/* pthread_detach, which the verifier models as having no effect: the id a creation refused
 * for the thread bound left behind is not detached (it names no thread). */
int __synth_pthread_detach(pthread_t t) {
  return t == (pthread_t)SYNTH_NO_THREAD ? 0 : pthread_detach(t);
}

/* pthread_kill: the id a creation refused for the thread bound left behind names no thread
 * (ESRCH, or EINVAL for a signal glibc refuses, as the verifier assumed); any other gets its
 * signal. */
int __synth_pthread_kill(pthread_t t, int sig) {
  if (t != (pthread_t)SYNTH_NO_THREAD)
    return pthread_kill(t, sig);
  return sig < 0 || sig > 64 || sig == 32 || sig == 33 ? EINVAL : ESRCH;
}

/* What scanf reads, in a built program that runs scanf's model (models.c, where these are
 * any input): its standard input, a directive at a time, read by the C library's scanf with
 * the format's text up to and including the directive (`%c` and `%s` with glibc's `m`, so
 * that any length fits), `%n` before and after the directive telling where it started and
 * ended. Each thread keeps what its last conversion read. */
static _Thread_local struct {
  unsigned long number;
  char *text;
  size_t length;
  int assigned, failed, input_ended, result_eof;
} synth_scan;

static void synth_scan_fail(const char *what) {
  fprintf(stderr, "synth: scanf in the built program: %s\n", what);
  abort();
}

int __synth_scan_fails(const char *from, const char *directive, const char *to) {
  size_t lit = (size_t)(directive - from), dir = (size_t)(to - directive);
  int skip = directive[1] == '*';
  char c = to[-1];
  int text = !skip && (c == 'c' || c == 's');
  char *format = malloc(lit + dir + 8);
  if (!format)
    synth_scan_fail("out of memory");
  memcpy(format, from, lit);
  size_t n = lit;
  memcpy(format + n, "%n%", 3);
  n += 3;
  /* (`*`, the width, then glibc's `m`, the length modifier and the conversion.) */
  const char *p = directive + 1;
  while (*p == '*' || (*p >= '0' && *p <= '9'))
    format[n++] = *p++;
  if (text)
    format[n++] = 'm';
  memcpy(format + n, p, (size_t)(to - p));
  n += (size_t)(to - p);
  memcpy(format + n, "%n", 3);
  free(synth_scan.text);
  synth_scan.text = NULL;
  synth_scan.number = 0;
  int start = -1, end = -1, r;
  if (skip)
    r = scanf(format, &start, &end);
  else if (text)
    r = scanf(format, &start, &synth_scan.text, &end);
  else
    r = scanf(format, &start, &synth_scan.number, &end);
  free(format);
  if (r == EOF || end < 0) {
    synth_scan.input_ended |= r == EOF && synth_scan.assigned == 0;
    synth_scan.failed = 1;
    return 1;
  }
  if (!skip)
    synth_scan.assigned++;
  /* `%c` reads its width's bytes, or fewer where the input ends; `%s` a word. */
  synth_scan.length = c == 's' && text ? strlen(synth_scan.text) : (size_t)(end - start);
  return 0;
}

unsigned long __synth_scan_number(void) { return synth_scan.number; }

int __synth_scan_ends(unsigned long i) { return i >= synth_scan.length; }

char __synth_scan_byte(unsigned long i) {
  if (!synth_scan.text || i >= synth_scan.length)
    synth_scan_fail("a byte past what was read");
  return synth_scan.text[i];
}

/* The call ends: where no directive failed, the format's text after the last one is read
 * too, as scanf reads it; then whether the call's result is EOF (`__synth_scan_eof`), and the
 * next call starts afresh. */
void __synth_scan_end(const char *rest) {
  if (!synth_scan.failed && *rest) {
    size_t n = strlen(rest);
    char *format = malloc(n + 3);
    if (!format)
      synth_scan_fail("out of memory");
    memcpy(format, rest, n);
    memcpy(format + n, "%n", 3);
    int end = -1;
    if (scanf(format, &end) == EOF && synth_scan.assigned == 0)
      synth_scan.input_ended = 1;
    free(format);
  }
  free(synth_scan.text);
  synth_scan.text = NULL;
  synth_scan.result_eof = synth_scan.input_ended;
  synth_scan.assigned = synth_scan.failed = synth_scan.input_ended = 0;
}

int __synth_scan_eof(void) { return synth_scan.result_eof; }

/* The errno a scanf call leaves: what the C library's reads left (sscanf's model reads
 * nothing, and leaves it as it was). */
int __synth_scan_errno(int e) {
  (void)e;
  return errno;
}

/* The verifier's built-ins. Inputs (__VERIFIER_nondet_*): define synth_input to supply
 * them; this default returns 0. */
__attribute__((weak)) long long synth_input(const char *type) {
  (void)type;
  return 0;
}
#define SYNTH_NONDET(name, type)                                                              \
  __attribute__((weak)) type __VERIFIER_nondet_##name(void) {                                 \
    return (type)synth_input(#name);                                                           \
  }
SYNTH_NONDET(int, int)
SYNTH_NONDET(uint, unsigned)
SYNTH_NONDET(long, long)
SYNTH_NONDET(ulong, unsigned long)
SYNTH_NONDET(short, short)
SYNTH_NONDET(ushort, unsigned short)
SYNTH_NONDET(char, char)
SYNTH_NONDET(uchar, unsigned char)
SYNTH_NONDET(bool, _Bool)
SYNTH_NONDET(_Bool, _Bool)
SYNTH_NONDET(pointer, void *)
SYNTH_NONDET(size_t, unsigned long)
SYNTH_NONDET(u32, unsigned)
SYNTH_NONDET(unsigned_int, unsigned)

__attribute__((weak)) void __VERIFIER_assume(int c) {
  if (!c)
    synth_fail(SYNTH_NO_SITE, "the inputs violate an assumption");
}
__attribute__((weak)) void assume_abort_if_not(int c) { __VERIFIER_assume(c); }

/* An assumption on inputs whose outcome selects the next section: its arm is reported. */
void __synth_assume_arm(uint32_t arm, int c) {
  __VERIFIER_assume(c);
  (void)synth_branch(arm, SYNTH_NO_SITE, 1);
}

__attribute__((weak)) void __VERIFIER_error(void) {
  synth_fail(SYNTH_NO_SITE, "__VERIFIER_error() reached");
}
__attribute__((weak)) void reach_error(void) { synth_fail(SYNTH_NO_SITE, "reach_error() reached"); }
__attribute__((weak)) void __VERIFIER_atomic_begin(void) {}
__attribute__((weak)) void __VERIFIER_atomic_end(void) {}

/* The libc model of rand after srand with a seed other than 1 (models.c), where the built
 * program runs the model: glibc's generator for that seed, restarted by each srand. The
 * verifier takes its values as arbitrary, so the schedule need not order two threads'
 * calls (they only read the model's state): a lock keeps the generator whole, as glibc's
 * does. */
long __synth_seeded_random(unsigned seed, unsigned generation) {
  static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  static struct random_data data;
  static char state[128];
  static unsigned seen;
  static int ready;
  pthread_mutex_lock(&lock);
  if (!ready || generation != seen) {
    memset(&data, 0, sizeof data);
    initstate_r(seed, state, sizeof state, &data);
    seen = generation;
    ready = 1;
  }
  int32_t r;
  random_r(&data, &r);
  pthread_mutex_unlock(&lock);
  return r;
}
