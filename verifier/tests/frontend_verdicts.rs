//! The front end against the corpus' known verdicts: for every program of `../shared/corpus`
//! (both lists) that it lowers, a bounded exploration finds a bug where the program is known
//! to be unsafe (when the search completes) and finds no error where it is known to be safe.
//! Every program either lowers or is rejected with `file:line:col: unsupported ...` (or
//! clang's diagnostics), never a panic.

use std::path::PathBuf;
use std::time::Duration;
use verifier::explore::{explore, BugKind, Options, Report, Unguided};
use verifier::frontend::{load, load_str, Error, Options as FOpts};
use verifier::imc::Verdict;
use verifier::ir::Program;

fn corpus() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("SYNTH_CORPUS") {
        return Some(PathBuf::from(p));
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    [
        root.join("../../shared/corpus"),
        PathBuf::from("/work/shared/corpus"),
    ]
    .into_iter()
    .find(|c| c.join("verdicts.tsv").exists())
}

/// (path, expected verdict, property) of both lists.
fn programs(dir: &std::path::Path) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for list in ["verdicts.tsv", "verdicts-more.tsv"] {
        let Ok(text) = std::fs::read_to_string(dir.join(list)) else {
            continue;
        };
        for l in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let f: Vec<&str> = l.split('\t').collect();
            out.push((
                f[0].to_string(),
                f.get(1).unwrap_or(&"").to_string(),
                f.get(2).unwrap_or(&"").to_string(),
            ));
        }
    }
    out
}

fn search(p: &Program) -> Report {
    explore(
        p,
        &Unguided,
        &Options {
            max_executions: Some(20_000),
            timeout: Some(Duration::from_secs(4)),
            jobs: 1,
            ..Options::default()
        },
        None,
    )
}

/// The verdict of the default engine within 30 s.
fn verdict_of(p: &Program) -> Verdict {
    let opts = verifier::imc::Options {
        timeout: Duration::from_secs(30),
        ..verifier::imc::Options::default()
    };
    let r = verifier::engine::run_iterative(
        p,
        opts,
        verifier::engine::Engine::Auto,
        usize::MAX,
        None,
        &mut |_| {},
    );
    r.verdict
}

/// Whether a search covered every execution (none cut at the depth bound).
fn exhaustive(r: &Report) -> bool {
    r.stats.complete && r.stats.depth_bounded == 0
}

/// Whether a report shows the property failing: an error, a deadlock, or (for memory
/// safety) an access to freed memory.
fn fails(r: &Report) -> bool {
    r.bugs.iter().any(|b| {
        matches!(b.kind, BugKind::Error | BugKind::Deadlock)
            || (b.kind == BugKind::Undefined && b.message.contains("freed memory"))
    })
}

#[test]
fn lowered_corpus_programs_explore_to_their_known_verdicts() {
    let Some(dir) = corpus() else {
        panic!("corpus not found; set SYNTH_CORPUS to the folder holding verdicts.tsv");
    };
    let progs = programs(&dir);
    assert!(progs.len() >= 80, "{} programs listed", progs.len());
    let mut lowered = 0;
    let mut decided = 0;
    let mut problems = Vec::new();
    for (path, expected, _property) in &progs {
        let file = dir.join(path);
        let p = match load(&file, &FOpts::default()) {
            Ok(p) => p,
            Err(Error::Unsupported { position, .. }) => {
                // file:line:col
                let mut parts = position.rsplitn(3, ':');
                let (c, l) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
                if c.parse::<u32>().is_err() || l.parse::<u32>().is_err() {
                    problems.push(format!(
                        "{path}: unsupported without a position: {position}"
                    ));
                }
                continue;
            }
            Err(e) => {
                problems.push(format!("{path}: {e}"));
                continue;
            }
        };
        lowered += 1;
        let mine = search(&p);
        if exhaustive(&mine) || fails(&mine) {
            decided += 1;
        }
        if expected == "safe" && mine.bugs.iter().any(|b| b.kind == BugKind::Error) {
            problems.push(format!("{path}: safe, but: {}", mine.bugs[0].message));
        }
        if expected == "unsafe" && exhaustive(&mine) && !fails(&mine) {
            problems.push(format!(
                "{path}: unsafe, but a complete search found no bug"
            ));
        }
    }
    eprintln!(
        "{lowered} of {} lowered, {decided} decided by a bounded search",
        progs.len()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(lowered >= 83, "only {lowered} lowered");
}

/// The programs of `tests/programs/idioms` (C as developers write it, with known verdicts):
/// each lowers or is rejected as unsupported with a position; a bounded exploration of a safe
/// one finds no error or deadlock, and of one whose assertion fails, deadlocks, frees twice or
/// reads freed memory, finds the bug.
#[test]
fn idioms_explore_to_their_verdicts() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/programs/idioms");
    let text = std::fs::read_to_string(dir.join("verdicts.tsv")).unwrap();
    let mut lowered = 0;
    let mut problems = Vec::new();
    for l in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = l.split('\t').collect();
        let (name, expected) = (f[0], f[1]);
        let p = match load(&dir.join(name), &FOpts::default()) {
            Ok(p) => p,
            Err(Error::Unsupported { .. }) => continue,
            Err(e) => {
                problems.push(format!("{name}: {e}"));
                continue;
            }
        };
        lowered += 1;
        let r = search(&p);
        match expected {
            "safe" if fails(&r) => {
                problems.push(format!("{name}: safe, but {}", r.bugs[0].message))
            }
            "unsafe" if !fails(&r) => problems.push(format!("{name}: unsafe, but no bug found")),
            _ => {}
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(lowered >= 24, "only {lowered} idioms lowered");
}

/// DPOR explores one execution per Mazurkiewicz trace of Inspect's benchmarks (seed 004,
/// Table 1).
#[test]
fn dpor_counts_are_one_per_trace() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/programs/explore");
    let cases = [
        ("indexer.c", 11, 1),
        ("indexer.c", 12, 8),
        ("indexer.c", 13, 64),
        ("indexer.c", 14, 512),
        ("fsbench.c", 16, 8),
        ("fsbench.c", 18, 32),
        ("fsbench.c", 20, 128),
    ];
    for (file, threads, count) in cases {
        let opts = FOpts {
            defines: vec![format!("THREADS={threads}")],
            ..FOpts::default()
        };
        let p = load(&dir.join(file), &opts).unwrap();
        let r = explore(
            &p,
            &Unguided,
            &Options {
                jobs: 1,
                ..Options::default()
            },
            None,
        );
        assert!(r.bugs.is_empty(), "{file} {threads}: {}", r.bugs[0].message);
        assert!(r.stats.complete);
        assert_eq!(r.stats.executions, count, "{file} with {threads} threads");
    }
}

/// `pthread_cond_timedwait` may time out (`ETIMEDOUT`) whenever its thread waits: a program
/// that asserts it never does has a bug; one that waits again after a timeout is safe.
#[test]
fn timed_waits_may_time_out() {
    let program = |check: &str| {
        format!(
            "#include <pthread.h>\n#include <assert.h>\n#include <errno.h>\n#include <time.h>\n\
             pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\npthread_cond_t c = PTHREAD_COND_INITIALIZER;\n\
             int ready, timeouts;\n\
             void *w(void *a) {{ struct timespec ts = {{0, 0}}; pthread_mutex_lock(&m);\n\
               while (!ready) {{ if (pthread_cond_timedwait(&c, &m, &ts) == ETIMEDOUT) timeouts++; }}\n\
               pthread_mutex_unlock(&m); return 0; }}\n\
             int main(void) {{ pthread_t t; pthread_create(&t, 0, w, 0);\n\
               pthread_mutex_lock(&m); ready = 1; pthread_cond_signal(&c); pthread_mutex_unlock(&m);\n\
               pthread_join(t, 0); {check} return 0; }}\n"
        )
    };
    let opts = FOpts::default();
    let strict = load_str("timed.c", &program("assert(timeouts == 0);"), &opts).unwrap();
    assert!(fails(&search(&strict)), "a timeout is possible");
    let lenient = load_str("timed_ok.c", &program("assert(ready == 1);"), &opts).unwrap();
    assert!(
        !fails(&search(&lenient)),
        "waiting again after a timeout is safe"
    );
}

/// The library's answers the models give where a call fails or memory ends, each found by a
/// bounded exploration: `free` of a file mapping is an invalid free; `munmap` of memory from
/// `malloc` fails; `signal` on `SIGKILL` returns `SIG_ERR`; a mapping read after `munmap`
/// and a block of run-time size read past its end are undefined; `getcwd`, `fgets` and
/// `getpwuid` give texts that fit and may be any, or fail, and so do `getline` and `getenv`
/// (texts of any length); `fileno` a descriptor; `strtok` is exact; the correct
/// uses are not reported.
#[test]
fn library_models_fail_and_end_where_the_library_does() {
    let mapped = |body: &str| {
        format!(
            r#"
#include <arpa/inet.h>
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
int main(void) {{
  int fd = open("data", O_RDONLY);
  if (fd < 0)
    return 0;
  unsigned char *b = mmap(0, 8, PROT_READ, MAP_PRIVATE, fd, 0);
  if (b == MAP_FAILED)
    return 0;
  {body}
  return 0;
}}
"#
        )
    };
    let cases: &[(&str, String, bool)] = &[
        ("mapping freed", mapped("free(b);"), true),
        ("mapping unmapped", mapped("munmap(b, 8); close(fd);"), false),
        ("mapping read after munmap", mapped("munmap(b, 8); return b[1];"), true),
        (
            "munmap of malloc'd memory",
            mapped("char *p = malloc(16); if (p) assert(munmap(p, 16) == 0);"),
            true,
        ),
        (
            "signal on SIGKILL",
            mapped("assert(signal(SIGKILL, SIG_IGN) != SIG_ERR);"),
            true,
        ),
        (
            "signal on SIGPIPE",
            mapped("assert(signal(SIGPIPE, SIG_IGN) != SIG_ERR);"),
            false,
        ),
        (
            "a signal mask blocked and restored",
            mapped("sigset_t s, old; sigfillset(&s); assert(pthread_sigmask(SIG_BLOCK, &s, &old) == 0); assert(pthread_sigmask(SIG_SETMASK, &old, 0) == 0);"),
            false,
        ),
        (
            "a signal mask changed in no known way",
            mapped("sigset_t s; sigemptyset(&s); assert(sigprocmask(7, &s, 0) == 0);"),
            true,
        ),
        (
            "read past a block of run-time size",
            mapped("int n = b[0] % 4 + 1; char *p = malloc(n); if (p) { p[n - 1] = 1; return p[n]; }"),
            true,
        ),
        (
            "read within a block of run-time size",
            mapped("int n = b[0] % 4 + 1; char *p = malloc(n); if (p) { p[n - 1] = 1; return p[n - 1]; }"),
            false,
        ),
        (
            "getcwd's path fits its buffer",
            mapped("char c[8]; if (getcwd(c, sizeof c)) assert(c[0] == '/' && strlen(c) < sizeof c);"),
            false,
        ),
        (
            "getcwd's path is not only the root",
            mapped("char c[8]; if (getcwd(c, sizeof c)) assert(strlen(c) < 2);"),
            true,
        ),
        (
            "fgets' line fits its buffer",
            mapped("FILE *f = fdopen(fd, \"r\"); char l[4]; if (f && fgets(l, 4, f)) assert(strlen(l) < 4);"),
            false,
        ),
        (
            "fgets' line may be empty",
            mapped("FILE *f = fdopen(fd, \"r\"); char l[4]; if (f && fgets(l, 4, f)) assert(l[0]);"),
            true,
        ),
        (
            "getpwuid's entry is the user's",
            mapped("uid_t u = getuid(); struct passwd *pw = getpwuid(u); assert(!pw || pw->pw_uid == u);"),
            false,
        ),
        (
            "getpwuid may find no entry",
            mapped("assert(getpwuid(getuid()));"),
            true,
        ),
        (
            "getline's line ends in a null byte within its buffer",
            mapped("char *l = 0; size_t n = 0; ssize_t r = getline(&l, &n, stdin); if (r > 0) assert(l[r] == 0 && n > (size_t)r); free(l);"),
            false,
        ),
        (
            "getline's line may be longer than a copy's room",
            mapped("char *l = 0, c[2]; size_t n = 0; ssize_t r = getline(&l, &n, stdin); if (r > 0) memcpy(c, l, (size_t)r); free(l);"),
            true,
        ),
        (
            "getline makes its buffer before it reads, even at the end of the input",
            mapped("char *l = 0; size_t n = 0; if (getline(&l, &n, stdin) == -1) assert(!l);"),
            true,
        ),
        (
            "getline's first buffer has 120 bytes",
            mapped("char *l = 0; size_t n = 0; getline(&l, &n, stdin); assert(!l || n >= 120); free(l);"),
            false,
        ),
        (
            "getline may reach the end of its input",
            mapped("char *l = 0; size_t n = 0; assert(getline(&l, &n, stdin) > 0);"),
            true,
        ),
        (
            "getenv may find no value",
            mapped("assert(getenv(\"HOME\"));"),
            true,
        ),
        (
            "getenv's value may be empty",
            mapped("const char *v = getenv(\"HOME\"); assert(!v || v[0]);"),
            true,
        ),
        (
            "fileno gives a descriptor",
            mapped("assert(fileno(stdout) >= 0);"),
            false,
        ),
        (
            "scanf may set errno (a conversion that overflows)",
            mapped("int x; errno = 0; scanf(\"%d\", &x); assert(errno == 0);"),
            true,
        ),
        (
            "sscanf may set errno (a conversion that overflows)",
            mapped("int x; errno = 0; sscanf(\"99999999999\", \"%d\", &x); assert(errno == 0);"),
            true,
        ),
        (
            "scanf's string fits its width",
            mapped("char r[3]; if (scanf(\"%2s\", r) == 1) assert(strlen(r) <= 2);"),
            false,
        ),
        (
            "scanf may reach the end of its input",
            mapped("char r[3]; assert(scanf(\"%2s\", r) == 1);"),
            true,
        ),
        (
            "sprintf through a function pointer formats as a direct call does",
            mapped("int (*volatile pf)(char *, const char *, ...) = sprintf; char s[16]; pf(s, \"%d-%s\", 42, \"ab\"); assert(strcmp(s, \"42-ab\") == 0 && s[1] != '3');"),
            false,
        ),
        (
            "sprintf through a function pointer writes what it formats",
            mapped("int (*volatile pf)(char *, const char *, ...) = sprintf; char s[16]; pf(s, \"%d\", 42); assert(s[1] != '2');"),
            true,
        ),
        (
            "scanf may stop at a matching failure",
            mapped("int x; assert(scanf(\"%d\", &x) != 0);"),
            true,
        ),
        (
            "scanf assigns the conversions before the one it stops at",
            mapped("int x = 5, y = 5, n = scanf(\"%d %*d %d\", &x, &y); assert(n >= -1 && n <= 2 && (n == 2 || y == 5));"),
            false,
        ),
        (
            "scanf's string without a width may overflow",
            mapped("char r[4]; if (scanf(\"%s\", r) == 1) r[0] = 1;"),
            true,
        ),
        (
            "stat may fail",
            mapped("struct stat st; assert(stat(\"data\", &st) == 0);"),
            true,
        ),
        (
            "pwrite takes at most what it is given",
            mapped("char w[4] = \"abc\"; ssize_t n = pwrite(fd, w, 3, 0); assert(n <= 3);"),
            false,
        ),
        (
            "strtok splits at every delimiter",
            mapped("char s[] = \",a,,b\"; char *x = strtok(s, \",\"), *y = strtok(0, \",\"); assert(x && y && x[0] == 'a' && y[0] == 'b' && !strtok(0, \",\"));"),
            false,
        ),
        (
            "the cancellation setters return the old type and state",
            mapped("int o = 7; assert(pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, &o) == 0 && o == PTHREAD_CANCEL_DEFERRED); assert(pthread_setcanceltype(PTHREAD_CANCEL_DEFERRED, &o) == 0 && o == PTHREAD_CANCEL_ASYNCHRONOUS); assert(pthread_setcancelstate(5, &o) == EINVAL); pthread_testcancel();"),
            false,
        ),
        (
            "clock_gettime's nanoseconds are in range",
            mapped("struct timespec t; assert(clock_gettime(CLOCK_MONOTONIC, &t) == 0 && t.tv_nsec >= 0 && t.tv_nsec < 1000000000);"),
            false,
        ),
        (
            "clock_gettime's time is any",
            mapped("struct timespec t; clock_gettime(CLOCK_REALTIME, &t); assert(t.tv_sec != 0);"),
            true,
        ),
        (
            "select keeps only descriptors it was given",
            mapped("fd_set r; FD_ZERO(&r); FD_SET(3, &r); int k = select(4, &r, 0, 0, 0); assert(k <= 1 && !FD_ISSET(2, &r) && (k != 1 || FD_ISSET(3, &r)));"),
            false,
        ),
        (
            "select may find nothing ready",
            mapped("fd_set r; FD_ZERO(&r); FD_SET(3, &r); assert(select(4, &r, 0, 0, 0) == 1);"),
            true,
        ),
        (
            "a socket is a descriptor or a failure",
            mapped("int s = socket(AF_INET, SOCK_STREAM, 0); assert(s >= 0 || (s == -1 && errno > 0));"),
            false,
        ),
        (
            "connect may fail",
            mapped("int s = socket(AF_INET, SOCK_STREAM, 0); struct sockaddr_in a = {0}; if (s >= 0) assert(connect(s, (struct sockaddr *)&a, sizeof a) == 0);"),
            true,
        ),
        (
            "sigwait returns a signal of its set",
            mapped("sigset_t s; int sig; sigemptyset(&s); sigaddset(&s, SIGINT); sigaddset(&s, SIGTERM); assert(sigwait(&s, &sig) == 0 && (sig == SIGINT || sig == SIGTERM));"),
            false,
        ),
        (
            "a signal that ends the process by default may be ignored instead",
            mapped("raise(SIGTERM); assert(0);"),
            true,
        ),
        (
            "a signal ignored by default and signal 0 change nothing",
            mapped("assert(raise(SIGCHLD) == 0 && pthread_kill(pthread_self(), 0) == 0);"),
            false,
        ),
        (
            "signal on a signal NPTL keeps",
            mapped("assert(signal(32, SIG_IGN) != SIG_ERR);"),
            true,
        ),
        (
            "pthread_kill of a signal NPTL keeps",
            mapped("assert(pthread_kill(pthread_self(), 32) == EINVAL && pthread_kill(pthread_self(), 65) == EINVAL);"),
            false,
        ),
        (
            "byte order of the network",
            mapped("assert(htons(0x1234) == 0x3412 && ntohl(htonl(0xdeadbeef)) == 0xdeadbeef);"),
            false,
        ),
    ];
    let opts = FOpts::default();
    for (what, text, bug) in cases {
        let p = load_str("models.c", text, &opts).unwrap();
        let r = search(&p);
        let found = r.bugs.iter().any(|b| b.kind != BugKind::Deviation);
        assert_eq!(
            found,
            *bug,
            "{what}: {:?}",
            r.bugs.first().map(|b| &b.message)
        );
    }
}

/// `container_of` (a member's address minus its `offsetof`, which clang leaves as `0 - 40`)
/// names the struct's own cells: the thread locks the struct's mutex and updates its counter,
/// and the program is `safe` (the checker rejected the explicit search's proof when the
/// offset stayed an expression).
#[test]
fn a_struct_found_from_its_member_by_offsetof_is_that_struct() {
    let text = r#"
#include <assert.h>
#include <pthread.h>
#define container_of(ptr, type, member) \
  ((type *)((char *)(ptr) - (unsigned long)&((type *)0)->member))
struct device { int id; };
struct data { pthread_mutex_t lock; struct device dev; int count; };
void *callback(void *arg) {
  struct data *d = container_of((struct device *)arg, struct data, dev);
  pthread_mutex_lock(&d->lock);
  d->count = d->count + 1;
  pthread_mutex_unlock(&d->lock);
  return 0;
}
int main(void) {
  struct data d;
  pthread_mutex_init(&d.lock, 0);
  d.count = 0;
  pthread_t t1, t2;
  pthread_create(&t1, 0, callback, &d.dev);
  pthread_create(&t2, 0, callback, &d.dev);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(d.count == 2);
  return 0;
}
"#;
    let p = load_str("container_of.c", text, &FOpts::default()).unwrap();
    assert_eq!(verdict_of(&p), Verdict::Safe);
}

/// What runs outside the model's view of a program is refused, naming it: a constructor or a
/// destructor (run before `main`, after the end), `longjmp` (setjmp is modelled as returning
/// 0 once), `pthread_exit` where cleanup handlers may be pushed (it runs them).
#[test]
fn code_run_outside_the_calls_the_model_sees_is_refused() {
    let cases = [
        (
            "int g; __attribute__((constructor)) static void init(void) { g = 1; }\nint main(void) { return g; }",
            "constructor",
        ),
        (
            "#include <setjmp.h>\njmp_buf b; int main(void) { if (setjmp(b)) return 1; longjmp(b, 1); }",
            "longjmp",
        ),
        (
            "#include <pthread.h>\nvoid h(void *a) { (void)a; }\nvoid *w(void *a) { pthread_cleanup_push(h, 0); pthread_exit(0); pthread_cleanup_pop(0); return a; }\nint main(void) { pthread_t t; pthread_create(&t, 0, w, 0); return pthread_join(t, 0); }",
            "cleanup handlers",
        ),
    ];
    for (text, what) in cases {
        match load_str("outside.c", text, &FOpts::default()) {
            Err(Error::Unsupported { construct, .. }) => {
                assert!(construct.contains(what), "{construct}")
            }
            other => panic!("{what}: {:?}", other.map(|_| "lowered")),
        }
    }
    // Formatting numbers from a `va_list` reads no memory of the program's.
    let numbers = "#include <stdarg.h>\n#include <stdio.h>\nstatic char line[64];\nstatic void say(const char *f, ...) { va_list ap; va_start(ap, f); vsnprintf(line, sizeof line, f, ap); va_end(ap); }\nint main(void) { say(\"%d %ld\\n\", 1, 2L); return 0; }";
    assert!(load_str("output.c", numbers, &FOpts::default()).is_ok());
}

/// A call through a pointer to a function the module only declares (a table of the C
/// library's functions) is lowered as a direct call of it: no invalid call.
#[test]
fn a_call_through_a_pointer_to_a_library_function_is_that_call() {
    let text = r#"
#include <assert.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
struct ops { int (*kill)(pthread_t, int); int (*abs)(int); };
static const struct ops table[2] = {{pthread_kill, abs}, {pthread_kill, abs}};
int main(int argc, char **argv) {
  (void)argv;
  assert(table[argc & 1].kill(pthread_self(), 0) == 0);
  assert(table[argc & 1].abs(-3) == 3);
  return 0;
}
"#;
    let p = load_str("table.c", text, &FOpts::default()).unwrap();
    assert_eq!(verdict_of(&p), Verdict::Safe);
}

/// A bug of `main` on its own after it assumes a range of an input (an assumption that ends
/// the execution where it fails, not one that waits) is met by every scheduler: `unsafe`,
/// while another thread runs beside it.
#[test]
fn a_bug_after_an_assumption_on_an_input_is_unavoidable() {
    let text = r#"
#include <assert.h>
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int g;
void *other(void *arg) { g = 1; return arg; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, other, 0);
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n > 0 && n < 10);
  int s = 0;
  for (int i = 0; i < n; i++)
    s += 2;
  assert(s != 6);
  pthread_join(t, 0);
  return 0;
}
"#;
    let p = load_str("assumed.c", text, &FOpts::default()).unwrap();
    assert_eq!(verdict_of(&p), Verdict::Unsafe);
}

/// A signal handler runs asynchronously, which the model does not represent: `sigaction`
/// installing one is a limit of the model (never `safe`), while `SIG_IGN` is modelled. A
/// library function that may call a function of the program named in the memory it is
/// given (`timer_create`'s `SIGEV_THREAD` function) is refused, naming it.
#[test]
fn signal_handlers_and_callbacks_through_memory_are_never_verified_away() {
    let handler = |action: &str| {
        format!(
            r#"
#include <assert.h>
#include <signal.h>
int x;
void on_signal(int s) {{ (void)s; x = 1; }}
int main(void) {{
  struct sigaction a = {{0}};
  a.sa_handler = {action};
  sigaction(SIGUSR1, &a, 0);
  raise(SIGUSR1);
  assert(x == 0);
  return 0;
}}
"#
        )
    };
    let p = load_str("handler.c", &handler("on_signal"), &FOpts::default()).unwrap();
    let v = verdict_of(&p);
    assert!(matches!(v, Verdict::Unknown(_)), "{v:?}");
    let p = load_str("ignored.c", &handler("SIG_IGN"), &FOpts::default()).unwrap();
    assert_eq!(verdict_of(&p), Verdict::Safe);
    let timer = r#"
#include <assert.h>
#include <signal.h>
#include <string.h>
#include <time.h>
int x;
void expired(union sigval v) { (void)v; x = 1; }
int main(void) {
  struct sigevent e;
  memset(&e, 0, sizeof e);
  e.sigev_notify = SIGEV_THREAD;
  e.sigev_notify_function = expired;
  timer_t t;
  timer_create(CLOCK_REALTIME, &e, &t);
  assert(x == 0);
  return 0;
}
"#;
    match load_str("timer.c", timer, &FOpts::default()) {
        Err(Error::Unsupported { construct, .. }) => {
            assert!(construct.contains("`timer_create`"), "{construct}")
        }
        other => panic!("{:?}", other.map(|_| "lowered")),
    }
}

/// An assumption whose condition calls a function on one side of `&&` lowers (the call's
/// result is no register where the condition is rebuilt), and constrains the input as
/// written.
#[test]
fn an_assumption_that_calls_a_function_constrains_its_input() {
    let text = |check: &str| {
        format!(
            r#"
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __assert_fail(const char *, const char *, unsigned, const char *);
static int ok(int x) {{ return x % 3 == 1; }}
int main(void) {{
  int s = __VERIFIER_nondet_int();
  __VERIFIER_assume(s > 0 && s < 65 && ok(s));
  if (!({check})) __assert_fail("", "", 0, "");
  return 0;
}}
"#
        )
    };
    for (check, want) in [
        ("s % 3 == 1 && s < 65", Verdict::Safe),
        ("s != 4", Verdict::Unsafe),
    ] {
        let p = load_str("assume.c", &text(check), &FOpts::default()).unwrap();
        let r = verdict_of(&p);
        assert_eq!(r, want, "{check}");
    }
}

/// Signed overflow and division by zero are undefined where C computes them, also where no
/// use reads the result: an argument of `printf` (whose model reads no number), a value
/// returned to a caller that drops it, a result nothing uses, one converted to floating point
/// (arbitrary in the model), the operand of a `switch` without cases, `abs` of the least
/// value. Neither the stateless search nor
/// the verifier calls such a program safe; the same computations on values that cannot
/// overflow are safe.
#[test]
fn undefined_arithmetic_counts_where_no_use_reads_it() {
    let text = |stmt: &str| {
        format!(
            r#"
#include <stdio.h>
#include <stdlib.h>
int big = 2147483647, zero = 0;
static int twice(int x) {{ return x * 2; }}
int main(void) {{
  {stmt};
  return 0;
}}
"#
        )
    };
    for (stmt, undefined) in [
        ("printf(\"%d\\n\", big + 1)", true),
        ("printf(\"%d\\n\", 5 / zero)", true),
        ("twice(big)", true),
        ("int unused = big * 3; (void)unused", true),
        ("double q = big / zero; (void)q", true),
        ("switch (5 / zero) { default: break; }", true),
        ("printf(\"%d\\n\", abs(-big - 1))", true),
        ("printf(\"%d\\n\", abs(-big))", false),
        ("printf(\"%d\\n\", big - 1)", false),
        ("twice(zero)", false),
        ("int unused = zero * 3; (void)unused", false),
    ] {
        let p = load_str("arith.c", &text(stmt), &FOpts::default()).unwrap();
        let r = search(&p);
        let found = r.bugs.iter().any(|b| b.kind == BugKind::Undefined);
        assert_eq!(found, undefined, "{stmt}: {:?}", r.bugs.first());
        let v = verdict_of(&p);
        assert_eq!(v == Verdict::Safe, !undefined, "{stmt}: {v:?}");
    }
}

/// A clock reads a time no later than the year 36812: a timeout added to it does not
/// overflow (the deadline of a timed wait), a product of it with ten billion may.
#[test]
fn a_deadline_from_a_clock_does_not_overflow() {
    let text = |expr: &str| {
        format!(
            r#"
#include <stdio.h>
#include <sys/time.h>
#include <time.h>
int main(void) {{
  struct timespec ts;
  struct timeval tv;
  clock_gettime(CLOCK_REALTIME, &ts);
  gettimeofday(&tv, 0);
  time_t now = time(0);
  printf("%ld\n", (long)({expr}));
  return 0;
}}
"#
        )
    };
    for (expr, safe) in [
        ("ts.tv_sec + 5", true),
        ("now + 60", true),
        ("tv.tv_sec + 1", true),
        ("ts.tv_sec * 10000000000L", false),
        ("now * 10000000000L", false),
    ] {
        let p = load_str("clock.c", &text(expr), &FOpts::default()).unwrap();
        let v = verdict_of(&p);
        assert_eq!(v == Verdict::Safe, safe, "{expr}: {v:?}");
    }
}

/// `memcpy` and `memset` through pointers whose object is not known while lowering (chosen
/// by a branch, loaded from a struct a thread is given) access the cells of the type the IR
/// says they point to, so the verifier decides them; a copy past the end is still a memory
/// error.
#[test]
fn blocks_through_pointers_loaded_or_chosen_are_copied_by_their_type() {
    let text = |n: u32| {
        format!(
            r#"
#include <assert.h>
#include <pthread.h>
#include <string.h>
struct task {{ int *dst; int *src; }};
static int src[4] = {{1, 2, 3, 4}};
static void *t(void *arg) {{
  struct task *k = arg;
  memcpy(k->dst, k->src, {n} * sizeof(int));
  memset(k->src, 0, sizeof(int));
  return NULL;
}}
int main(int argc, char **argv) {{
  (void)argv;
  int a[2] = {{0}}, b[2] = {{0}};
  int *d = argc > 1 ? a : b;
  struct task k = {{d, src}};
  pthread_t th;
  pthread_create(&th, NULL, t, &k);
  pthread_join(th, NULL);
  assert(b[0] == 1 && b[1] == 2 && src[0] == 0);
  return 0;
}}
"#
        )
    };
    for (n, want) in [(2, Verdict::Safe), (3, Verdict::Unsafe)] {
        let p = load_str("typed_blocks.c", &text(n), &FOpts::default()).unwrap();
        let v = verdict_of(&p);
        assert_eq!(v, want, "{n} ints");
    }
}

/// A struct passed by value as a variable argument (in memory, `byval`) is refused with its
/// position rather than read from an 8-byte slot.
#[test]
fn a_struct_as_a_variable_argument_is_unsupported() {
    let text = r#"
#include <stdarg.h>
struct S { long a, b, c; };
long first(int n, ...) { va_list ap; va_start(ap, n); struct S s = va_arg(ap, struct S); va_end(ap); return s.a; }
int main(void) { struct S s = {1, 2, 3}; return first(1, s) != 1; }
"#;
    match load_str("byval.c", text, &FOpts::default()) {
        Err(Error::Unsupported { construct, .. }) => {
            assert!(construct.contains("variable argument"), "{construct}")
        }
        other => panic!("{:?}", other.map(|_| "lowered")),
    }
}

/// A 64-bit conversion given a narrower integer (`%ld` of an `int`, undefined in C) is
/// refused with its position: the built program's library would read bits the call did not
/// pass. `%ld` of a `long` and `%d` of an `int` lower.
#[test]
fn a_long_conversion_of_a_narrower_integer_is_unsupported() {
    let text = |arg: &str| {
        format!(
            "#include <stdio.h>\nchar b[32];\nint main(int argc, char **argv) {{ return sprintf(b, \"%d %ld\", argc, {arg}) < 0; }}\n"
        )
    };
    match load_str("narrow.c", &text("argc"), &FOpts::default()) {
        Err(Error::Unsupported { construct, .. }) => {
            assert!(construct.contains("64-bit conversion"), "{construct}")
        }
        other => panic!("{:?}", other.map(|_| "lowered")),
    }
    assert!(load_str("wide.c", &text("(long)argc"), &FOpts::default()).is_ok());
}

/// A spin lock written with a spin-wait hint and compiler barriers (inline assembly without
/// operands: `pause`, `"" ::: "memory"`, `mfence`) is verified like one without them: each is
/// a step that does nothing under sequential consistency. The lost update is still found.
#[test]
fn barriers_and_spin_hints_in_inline_assembly_do_nothing() {
    let text = |check: &str| {
        format!(
            r#"
#include <pthread.h>
#include <assert.h>
#include <stdatomic.h>
#define barrier() __asm__ __volatile__("" ::: "memory")
#define cpu_relax() __asm__ __volatile__("pause")
static atomic_int lock;
static int counter;
static void acquire(void) {{ while (atomic_exchange(&lock, 1)) cpu_relax(); barrier(); }}
static void release(void) {{ barrier(); atomic_store(&lock, 0); }}
static void *w(void *a) {{ (void)a; {check}; return 0; }}
int main(void) {{
  pthread_t t[2];
  for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, w, 0);
  for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
  __asm__ volatile("mfence");
  assert(counter == 2);
  return 0;
}}
"#
        )
    };
    let locked = load_str(
        "spin.c",
        &text("acquire(); counter++; release()"),
        &FOpts::default(),
    );
    assert_eq!(verdict_of(&locked.unwrap()), Verdict::Safe);
    let racy = load_str(
        "spin_racy.c",
        &text("int c = counter; cpu_relax(); counter = c + 1"),
        &FOpts::default(),
    )
    .unwrap();
    assert!(fails(&search(&racy)), "the lost update");
}

/// Floating point as C programs write it: `a * b + c` (which clang contracts to
/// `llvm.fmuladd`), `fabs`, `floor` and `fma` (intrinsics) and `sqrt` and `pow` (library
/// calls) lower to arbitrary values, so a program that only prints them is safe and one
/// whose assertion depends on them is not.
#[test]
fn floating_point_intrinsics_and_math_functions_give_arbitrary_values() {
    let text = |check: &str| {
        format!(
            r#"
#include <assert.h>
#include <math.h>
#include <stdio.h>
double a = 1.5, b = 2.0, c = 0.5;
int main(void) {{
  double x = a * b + c;
  double y = sqrt(x) + fabs(c) + floor(b) + pow(a, b) + fma(a, b, c);
  printf("%f %f\n", x, y);
  {check};
  return 0;
}}
"#
        )
    };
    let p = load_str("float.c", &text("(void)0"), &FOpts::default()).unwrap();
    assert_eq!(verdict_of(&p), Verdict::Safe);
    let p = load_str("float.c", &text("assert(y > 0)"), &FOpts::default()).unwrap();
    assert_ne!(verdict_of(&p), Verdict::Safe);
}

/// An assumption tests the value its condition computed: where the thread writes the memory
/// the condition read before the call (`x++ < 5`, a copy then a reset), the condition is not
/// read again at the call, and `x == 5` after `assume(x++ < 5)` is reachable, whether or not
/// another thread reads `x`.
#[test]
fn an_assumption_tests_what_its_condition_read_before_the_thread_wrote_it() {
    let text = |reader: &str, assume: &str| {
        format!(
            r#"
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);
int x;
void *rd(void *a) {{ return (void *)(long)x; }}
int main(void) {{
  pthread_t t;
  {reader};
  x = __VERIFIER_nondet_int();
  {assume};
  if (x == 5) reach_error();
  return 0;
}}
"#
        )
    };
    for reader in ["pthread_create(&t, 0, rd, 0)", "(void)t"] {
        for assume in [
            "__VERIFIER_assume(x++ < 5)",
            "int c = x == 5; x = 5; __VERIFIER_assume(!c)",
        ] {
            let p = load_str("stale.c", &text(reader, assume), &FOpts::default()).unwrap();
            assert_ne!(verdict_of(&p), Verdict::Safe, "{reader}; {assume}");
        }
    }
}

/// A function defined only `inline` (C99's inline definition, which gives no external one)
/// is called with that definition: the spin lock it implements protects the counter, and
/// the program is safe. Where the file also defines a function `extern inline` (an external
/// definition under C11 that gnu89 semantics would drop), the file is compiled as C11 and
/// the inline-only function stays an unknown external one, named in a warning.
#[test]
fn a_function_defined_only_inline_is_called_with_its_definition() {
    let text = |extra: &str| {
        format!(
            r#"
#include <pthread.h>
#include <assert.h>
int lock, count;
inline void acquire(void) {{ while (__sync_lock_test_and_set(&lock, 1)) ; }}
inline void release(void) {{ __sync_lock_release(&lock); }}
{extra}
void *worker(void *arg) {{
  acquire();
  count++;
  assert(count == 1);
  count--;
  release();
  return 0;
}}
int main(void) {{
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}}
"#
        )
    };
    let p = load_str("inline.c", &text(""), &FOpts::default()).unwrap();
    assert!(
        !p.warnings.iter().any(|w| w.contains("acquire")),
        "{:?}",
        p.warnings
    );
    assert_eq!(verdict_of(&p), Verdict::Safe);
    // The C99 idiom over two files: the inline definition in one, the external one in the
    // other (they link as C11 does); and an inline definition in a header two files include.
    let dir = std::env::temp_dir().join(format!("synth-inline-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let main = r#"#include <pthread.h>
#include <assert.h>
#include "one.h"
int x;
void *t(void *a) { x = one(); return 0; }
int main(void) { pthread_t h; pthread_create(&h, 0, t, 0); pthread_join(h, 0); assert(x == 1); return 0; }
"#;
    write("one.h", "inline int one(void) { return 1; }\n");
    for other in [
        "int one(void) { return 1; }\n",
        "#include \"one.h\"\nint two(void) { return one() + 1; }\n",
    ] {
        let opts = FOpts {
            sources: vec![write("other.c", other)],
            ..FOpts::default()
        };
        let p = load(&write("main.c", main), &opts).unwrap();
        assert!(!p.warnings.iter().any(|w| w.contains("`one`")), "{other}");
        assert_eq!(verdict_of(&p), Verdict::Safe, "{other}");
    }
    std::fs::remove_dir_all(&dir).ok();
    let both = text("extern inline int twice(int x) { return 2 * x; }");
    let p = load_str("inline.c", &both, &FOpts::default()).unwrap();
    assert!(
        p.warnings.iter().any(|w| w.contains("`acquire`")),
        "{:?}",
        p.warnings
    );
}

/// An atomic region may end on each of two branches (`begin; if (c) { end; return; } ...;
/// end;`): the depth of atomic regions belongs to the path, not to the order in which the
/// blocks are lowered. Both increments inside the region are atomic, and the program is safe;
/// where the region ends before the write, an increment is lost. A function that returns
/// inside a region on one path and outside it on another is an unsupported construct.
#[test]
fn an_atomic_region_ends_on_either_branch() {
    let text = |tail: &str| {
        format!(
            r#"
#include <pthread.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
extern void reach_error(void);
int x;
void *w(void *a) {{
  __VERIFIER_atomic_begin();
  int v = x;
  if (v > 100) {{ __VERIFIER_atomic_end(); return 0; }}
  {tail}
  return 0;
}}
int main(void) {{
  pthread_t a, b;
  pthread_create(&a, 0, w, 0);
  pthread_create(&b, 0, w, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (x != 2) reach_error();
  return 0;
}}
"#
        )
    };
    let atomic = load_str(
        "both.c",
        &text("x = v + 1; __VERIFIER_atomic_end();"),
        &FOpts::default(),
    )
    .unwrap();
    assert_eq!(verdict_of(&atomic), Verdict::Safe);
    let early = load_str(
        "early.c",
        &text("__VERIFIER_atomic_end(); x = v + 1;"),
        &FOpts::default(),
    )
    .unwrap();
    assert!(matches!(
        verdict_of(&early),
        Verdict::PartiallySafe | Verdict::Unsafe
    ));
    let uneven = r#"
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
extern int __VERIFIER_nondet_int(void);
int x;
int maybe_enter(int c) { if (c) { __VERIFIER_atomic_begin(); return 1; } return 0; }
int main(void) {
  if (maybe_enter(__VERIFIER_nondet_int())) { x = 1; __VERIFIER_atomic_end(); }
  return 0;
}
"#;
    // A region begun and ended under one condition tested twice: the lowering cannot rule
    // out the path that ends a region it never began.
    let twice = r#"
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
extern int __VERIFIER_nondet_int(void);
int x;
int main(void) {
  int c = __VERIFIER_nondet_int();
  if (c) __VERIFIER_atomic_begin();
  x++;
  if (c) __VERIFIER_atomic_end();
  return 0;
}
"#;
    for (name, text, what) in [
        ("uneven.c", uneven, "atomic region"),
        ("twice.c", twice, "without `__VERIFIER_atomic_begin`"),
    ] {
        match load_str(name, text, &FOpts::default()) {
            Err(Error::Unsupported { construct, .. }) => {
                assert!(construct.contains(what), "{construct}")
            }
            Err(e) => panic!("{name}: expected an unsupported construct, got {e}"),
            Ok(_) => panic!("{name}: expected an unsupported construct"),
        }
    }
}

/// Output calls whose reads the model cannot know are refused, naming why (found in review:
/// each was `safe` while its native run read what it was not given): a format that is not a
/// constant (`printf(buf)` with a `%s` in `buf`), fewer arguments than the format converts,
/// a `%s` of an argument that is no pointer.
#[test]
fn output_calls_whose_reads_are_not_known_are_refused() {
    let cases = [
        (
            "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\nint main(void) { char *p = malloc(16); if (!p) return 1; strcpy(p, \"%s%s\\n\"); printf(p); return 0; }",
            "not a string constant",
        ),
        (
            "#include <stdio.h>\nint main(void) { printf(\"%s\\n\"); return 0; }",
            "fewer arguments",
        ),
        (
            "#include <stdio.h>\nint main(int argc, char **argv) { printf(\"%.*s\\n\", argv, 2); return argc; }",
            "not a pointer",
        ),
    ];
    for (text, what) in cases {
        match load_str("output.c", text, &FOpts::default()) {
            Err(Error::Unsupported { construct, .. }) => {
                assert!(construct.contains(what), "{construct}")
            }
            other => panic!("{what}: {:?}", other.map(|_| "lowered")),
        }
    }
}

/// BSD's `err` and `errx` end the program; a function of the program's own with that name
/// (no C library name) returns, and what follows its call is verified.
#[test]
fn a_function_of_the_programs_own_named_err_returns() {
    let own = "static int calls;\nstatic void err(const char *s) { (void)s; calls++; }\nint main(void) { err(\"e\"); int *p = 0; *p = calls; return 0; }\n";
    let libc = "#include <err.h>\n#include <assert.h>\nint main(void) { err(1, \"stop\"); assert(0); return 0; }\n";
    for (text, bug) in [(own, true), (libc, false)] {
        let p = load_str("err.c", text, &FOpts::default()).unwrap();
        let r = search(&p);
        let found = r.bugs.iter().any(|b| b.kind != BugKind::Deviation);
        assert_eq!(found, bug, "{text}");
    }
}
