//! Memory errors the deployed program meets as a crash or a dangling read: a write to a
//! string literal (read-only memory) and a dereference of a pointer to a local variable of a
//! function that has returned (returned by it, or kept in a global, an out-parameter, a
//! structure or a thread's argument). Each engine finds them, with inputs on the way or without, and
//! reads of the same memory stay safe.

use std::time::Duration;
use verifier::engine::{run_iterative, Engine};
use verifier::frontend::{load_str, Options as FOpts};
use verifier::imc::{IvrKind, Options, Verdict};

fn verdict(text: &str, engine: Engine) -> (Verdict, Option<String>) {
    let p = load_str("memory.c", text, &FOpts::default()).expect("lowers");
    let opts = Options {
        timeout: Duration::from_secs(30),
        ..Options::default()
    };
    let r = run_iterative(&p, opts, engine, usize::MAX, None, &mut |_| {});
    let why = r
        .counterexample
        .as_ref()
        .map(|c| format!("{:?}", c.execution.outcome));
    (r.verdict, why)
}

/// Each engine reports a bug whose outcome mentions `bug` and a schedule that avoids it.
fn partially_safe_in_every_engine(text: &str, bug: &str) {
    for engine in [Engine::Auto, Engine::Explicit, Engine::Impact] {
        let (v, why) = verdict(text, engine);
        assert_eq!(v, Verdict::PartiallySafe, "{engine:?}: {why:?}");
        assert!(why.unwrap_or_default().contains(bug), "{engine:?}");
    }
}

const CASES: &[(&str, &str, Option<&str>)] = &[
    (
        "a thread writes into a string literal",
        r#"#include <pthread.h>
char *msg = "hello";
void *w(void *a) { msg[0] = 'j'; return 0; }
int main(void) { pthread_t t; pthread_create(&t, 0, w, 0); pthread_join(t, 0); return msg[1]; }"#,
        Some("read-only"),
    ),
    (
        "a write into a string literal on an input",
        r#"extern int __VERIFIER_nondet_int(void);
int main(void) { char *s = "abc"; int n = __VERIFIER_nondet_int(); if (n > 7) s[1] = 'q'; return 0; }"#,
        Some("read-only"),
    ),
    (
        "a write into a const global through a cast",
        r#"const int limit[2] = {1, 2};
int main(void) { int *p = (int *)&limit[1]; *p = 3; return 0; }"#,
        Some("read-only"),
    ),
    (
        "a string literal read and copied, the copy written",
        r#"#include <string.h>
#include <assert.h>
int main(void) { const char *s = "abc"; char b[4]; strcpy(b, s); b[0] = 'x'; assert(s[0] == 'a' && b[0] == 'x'); return 0; }"#,
        None,
    ),
    (
        "a returned static read through its address",
        r#"#include <pthread.h>
static int *make(void) { static int s = 4; int y = 1; (void)y; return &s; }
void *w(void *a) { int *p = make(); *p += 1; return 0; }
int main(void) { pthread_t t; pthread_create(&t, 0, w, 0); pthread_join(t, 0); return *make() - 5; }"#,
        None,
    ),
    (
        "a returned function's local read through a global",
        r#"#include <assert.h>
int *g;
static void keep(void) { int x = 1; g = &x; }
int main(void) { keep(); int y = *g; assert(y == 1); return 0; }"#,
        Some("after its function returned"),
    ),
    (
        "a returned function's local read through an out-parameter",
        r#"static void give(int **out) { int x = 1; *out = &x; }
int main(void) { int *p; give(&p); return *p; }"#,
        Some("after its function returned"),
    ),
    (
        "a returned function's local written through a field of a structure it was kept in",
        r#"struct box { int *p; };
static void fill(struct box *b, int **keep) { *keep = b->p; }
static void make(struct box *b, int **keep) { int x[2] = {1, 2}; b->p = &x[1]; fill(b, keep); }
int main(void) { struct box b; int *k; make(&b, &k); *k = 3; return 0; }"#,
        Some("after its function returned"),
    ),
    (
        "a thread's local handed to its joiner by pthread_exit",
        r#"#include <pthread.h>
#include <assert.h>
static void *t(void *a) { int x = 5; pthread_exit(&x); }
int main(void) { pthread_t th; void *r; pthread_create(&th, 0, t, 0); pthread_join(th, &r); assert(*(int *)r == 5); return 0; }"#,
        Some("after its function returned or its thread exited"),
    ),
    (
        "a file read into a string literal",
        r#"#include <stdio.h>
int main(void) { char *s = "abcd"; if (fread(s, 1, 4, stdin) == 4) return s[0]; return 0; }"#,
        Some("read-only"),
    ),
];

/// `realloc` releases the old block even where its result is not used (C11 7.22.3.5): a read
/// of the old block afterwards is a use after free. (Impact's labels do not decide the copy
/// loop's length in time.)
#[test]
fn the_old_block_of_an_unused_realloc_is_freed() {
    let text = r#"#include <stdlib.h>
int main(void) { int *p = malloc(4 * sizeof *p); if (!p) return 1; p[0] = 1; realloc(p, 32); return p[0]; }"#;
    for engine in [Engine::Auto, Engine::Explicit] {
        let (v, why) = verdict(text, engine);
        assert_eq!(v, Verdict::Unsafe, "{engine:?}: {why:?}");
        assert!(
            why.unwrap_or_default().contains("freed memory"),
            "{engine:?}"
        );
    }
}

#[test]
fn literal_writes_and_dead_locals_are_memory_errors() {
    for (what, text, bug) in CASES {
        for engine in [Engine::Auto, Engine::Explicit, Engine::Impact] {
            let (v, why) = verdict(text, engine);
            match bug {
                Some(msg) => {
                    // Each engine finds the bug; together they show no scheduler avoids it.
                    let why = why.unwrap_or_default();
                    assert!(why.contains(msg), "{what} ({engine:?}): {v:?} {why}");
                    assert!(
                        !matches!(v, Verdict::Safe | Verdict::PartiallySafe),
                        "{what} ({engine:?}): {v:?}"
                    );
                    if engine == Engine::Auto {
                        assert_eq!(v, Verdict::Unsafe, "{what}: {why}");
                    }
                }
                None => assert_eq!(v, Verdict::Safe, "{what} ({engine:?}): {why:?}"),
            }
        }
    }
}

/// A function that returns its own local's address returns an indeterminate value (C11
/// 6.2.4p2): gcc makes it null, clang leaves the dead stack slot's address, and the model
/// takes either. A read through it is a bug either way, which the engines find; a program
/// that only compares it with null is not called safe (it aborts compiled with gcc).
#[test]
fn a_returned_locals_address_is_null_or_dangling() {
    let read = r#"int *f(int v) { int x = v; return &x; }
int main(void) { int *p = f(3); return *p; }"#;
    for engine in [Engine::Auto, Engine::Explicit, Engine::Impact] {
        let (v, why) = verdict(read, engine);
        assert!(
            !matches!(v, Verdict::Safe | Verdict::PartiallySafe),
            "{engine:?}: {v:?}"
        );
        // (The explicit engine alone shows no bug of values it does not know.)
        if engine != Engine::Explicit {
            let why = why.unwrap_or_default();
            assert!(
                why.contains("returned function's local"),
                "{engine:?}: {v:?} {why}"
            );
        }
    }
    let compared = r#"#include <assert.h>
int *f(void) { int x = 1; return &x; }
int main(void) { int *p = f(); assert(p != (int *)0); return 0; }"#;
    for engine in [Engine::Auto, Engine::Explicit] {
        let (v, why) = verdict(compared, engine);
        assert!(
            !matches!(v, Verdict::Safe | Verdict::Unsafe),
            "{engine:?}: {v:?} {why:?}"
        );
    }
}

/// Locals whose addresses are handed to callees, to a thread and to a global while their
/// function runs are used within their lifetime: safe (the symbolic engine alone need not
/// decide it, but must not report a bug).
#[test]
fn locals_used_by_others_while_their_function_runs_are_safe() {
    let text = r#"#include <pthread.h>
#include <string.h>
#include <assert.h>
int *g;
static void *inc(void *a) { *(int *)a += 1; return 0; }
static int sum(const int *a) { return a[0] + a[1] + a[2]; }
static int run(void) {
  int a[3] = {1, 2, 3}; char b[4]; pthread_t t;
  memset(b, 'x', 2); g = a;
  pthread_create(&t, 0, inc, &a[0]); pthread_join(t, 0);
  int s = sum(g) + (b[1] == 'x'); g = 0; return s;
}
int main(void) { assert(run() == 8); return 0; }"#;
    for engine in [Engine::Auto, Engine::Explicit, Engine::Impact] {
        let (v, why) = verdict(text, engine);
        if engine == Engine::Impact {
            assert!(why.is_none(), "{engine:?}: {v:?} {why:?}");
            assert!(
                matches!(v, Verdict::Safe | Verdict::Unknown(_)),
                "{engine:?}: {v:?}"
            );
        } else {
            assert_eq!(v, Verdict::Safe, "{engine:?}: {why:?}");
        }
    }
}

/// A thread reads a local of the function that created it, which returns without waiting:
/// the read is a use after the local's lifetime unless the thread runs first, which a
/// schedule can make sure of.
#[test]
fn a_thread_reading_a_returned_creators_local_is_partially_safe() {
    let text = r#"#include <pthread.h>
#include <stdio.h>
pthread_t t;
static void *show(void *a) { printf("%d\n", *(int *)a); return 0; }
static void spawn(void) { int x = 5; pthread_create(&t, 0, show, &x); }
int main(void) { spawn(); pthread_join(t, 0); return 0; }"#;
    partially_safe_in_every_engine(text, "after its function returned");
}

/// `main` ends its thread by `pthread_exit` while a thread it created still reads its local:
/// a use after the local's lifetime unless the thread reads first.
#[test]
fn a_thread_reading_a_local_of_main_after_main_exits_its_thread_is_partially_safe() {
    let text = r#"#include <pthread.h>
static void *read_it(void *a) { return (void *)(long)*(int *)a; }
int main(void) { int x = 5; pthread_t t; pthread_create(&t, 0, read_it, &x); pthread_exit(0); }"#;
    partially_safe_in_every_engine(text, "after its function returned");
}

/// A function called in a loop keeps the address of its local in one call and reads it in
/// the next: both calls have one object in the model, so the second call's start of the
/// local's lifetime is the model's limit (named in the verdict), never `safe`.
#[test]
fn a_local_made_again_by_a_later_call_is_the_models_limit() {
    let text = r#"#include <assert.h>
int *g;
static void f(int first) { int x = 7; if (first) g = &x; else assert(*g == 7); }
int main(int argc, char **argv) { int n = argc + 1; for (int i = 0; i < n; i++) f(i == 0); return 0; }"#;
    for engine in [Engine::Auto, Engine::Explicit, Engine::Impact] {
        let (v, _) = verdict(text, engine);
        match &v {
            Verdict::Unknown(why) => assert!(
                why.contains("made again by a later call"),
                "{engine:?}: {why}"
            ),
            other => panic!("{engine:?}: {other:?}"),
        }
    }
}

/// A local whose address a callee only writes through, the callee returning a number, stays
/// an ordinary local: `atoi` and `strtol` in a loop (their models pass the addresses of two
/// locals to a helper that returns the converted magnitude) are safe. A callee that returns
/// the address itself still makes the local one with a lifetime (the loop above).
#[test]
fn a_local_passed_to_a_callee_that_returns_a_number_does_not_escape() {
    let text = r#"#include <assert.h>
#include <stdlib.h>
static int read_into(int *out) { *out = 4; return *out + 1; }
int main(void) {
  const char *v[3] = {"3", "5", "-2"};
  int s = 0;
  for (int i = 0; i < 3; i++) {
    int x;
    s += atoi(v[i]) + (int)strtol(v[i], 0, 10) + read_into(&x) + x;
  }
  assert(s == 12 + 27);
  return 0;
}"#;
    for engine in [Engine::Auto, Engine::Explicit] {
        let (v, why) = verdict(text, engine);
        assert_eq!(v, Verdict::Safe, "{engine:?}: {why:?}");
    }
    let kept = r#"#include <assert.h>
static int *same(int *p) { return p; }
int *g;
static void f(int first) { int x = 7; if (first) g = same(&x); else assert(*g == 7); }
int main(int argc, char **argv) { int n = argc + 1; for (int i = 0; i < n; i++) f(i == 0); return 0; }"#;
    let (v, _) = verdict(kept, Engine::Auto);
    assert!(
        matches!(&v, Verdict::Unknown(why) if why.contains("made again by a later call")),
        "{v:?}"
    );
}

/// A memory error that one schedule reaches and another avoids (a thread writes a literal
/// when it sees a flag that main sets and clears again): each engine reports the bug and a
/// schedule that avoids it, whether the error shows when a node is first expanded or when
/// a new schedule starts from an old node.
#[test]
fn an_avoidable_literal_write_is_partially_safe() {
    let text = r#"#include <pthread.h>
char *s = "abc";
int flag;
pthread_t th;
void *t(void *a) { if (flag) s[0] = 'x'; return 0; }
int main(void) { pthread_create(&th, 0, t, 0); flag = 1; flag = 0; pthread_join(th, 0); return 0; }"#;
    partially_safe_in_every_engine(text, "read-only");
}

/// A block allocated through a wrapper that returns it (`xmalloc`, here through a phi with
/// NULL, called by another wrapper) has the type its callers use it as: 40 ints of a size known only at run time (read from a global) fit the
/// model's block, where 160 bytes did not.
#[test]
fn a_block_from_an_allocation_wrapper_has_the_type_its_callers_use() {
    let text = r#"#include <assert.h>
#include <stdlib.h>
static void *xmalloc(size_t s) { void *p = malloc(s); if (!p) return NULL; return p; }
static int *wrapped(size_t k) { return xmalloc(k * sizeof(int)); }
static int n;
int main(int argc, char **argv) {
  n = argc > 1 ? atoi(argv[1]) : 40;
  if (n < 1 || n > 40) return 1;
  int *a = wrapped(n);
  if (!a) return 1;
  for (int i = 0; i < n; i++) a[i] = i;
  assert(a[n - 1] == n - 1);
  free(a);
  return 0;
}"#;
    let (v, why) = verdict(text, Engine::Auto);
    assert_eq!(v, Verdict::Safe, "{why:?}");
}

/// A handler prints the name of a session it found under a lock after releasing the lock,
/// while a reaper frees the session (found in review: the string an output function prints
/// was not read by the model, so this was `safe`). `output` is the call that reads it (an
/// output function, or another library function reading a string or a buffer).
fn printed_after_free(output: &str) -> String {
    format!(
        r#"#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
struct session {{ int id; char user[16]; }};
struct session *current;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *handler(void *a) {{
  pthread_mutex_lock(&m);
  struct session *s = current;
  pthread_mutex_unlock(&m);
  if (s) {{ {output}; }}
  return 0;
}}
void *reaper(void *a) {{
  pthread_mutex_lock(&m);
  struct session *dead = current;
  current = 0;
  pthread_mutex_unlock(&m);
  free(dead);
  return 0;
}}
int main(void) {{
  current = malloc(sizeof *current);
  current->id = 7;
  strcpy(current->user, "alice");
  pthread_t h, r;
  pthread_create(&h, 0, handler, 0);
  pthread_create(&r, 0, reaper, 0);
  pthread_join(h, 0);
  pthread_join(r, 0);
  return 0;
}}
"#
    )
}

#[test]
fn library_functions_read_the_strings_and_buffers_they_are_given() {
    for output in [
        r#"printf("request for %s\n", s->user)"#,
        r#"printf("%d %.*s\n", 1, 3, s->user)"#,
        r#"fprintf(stderr, "%-8s|\n", s->user)"#,
        "puts(s->user)",
        "fputs(s->user, stdout)",
        "fwrite(s->user, 1, 5, stdout)",
        "perror(s->user)",
        "write(1, s->user, 5)",
        r#"fopen(s->user, "r")"#,
        "getenv(s->user)",
    ] {
        let (v, why) = verdict(&printed_after_free(output), Engine::Auto);
        assert_eq!(v, Verdict::PartiallySafe, "{output}: {why:?}");
        assert!(why.unwrap_or_default().contains("freed"), "{output}");
    }
    // Read under the lock, or not at all (a constant, a number, no precision's bytes):
    // safe.
    for output in [
        r#"printf("request %d for %s\n", 1, "alice")"#,
        r#"printf("%.0s\n", s->user)"#,
        "perror(0)",
    ] {
        let (v, why) = verdict(&printed_after_free(output), Engine::Auto);
        assert_eq!(v, Verdict::Safe, "{output}: {why:?}");
    }
}

/// A buffer without a null byte: printed with a precision it fits, the read stops there;
/// without one, the read goes past its end.
const UNTERMINATED: &str = r#"#include <stdio.h>
#include <string.h>
int main(void) {
  char word[4];
  memcpy(word, "abcd", 4);
  printf("%.4s\n", word);
  fwrite(word, 1, sizeof word, stdout);
  PRINT;
  return 0;
}
"#;

#[test]
fn a_string_without_a_null_byte_is_read_past_its_end() {
    let fits = UNTERMINATED.replace("PRINT", "(void)0");
    assert_eq!(verdict(&fits, Engine::Auto).0, Verdict::Safe);
    for print in [r#"printf("%s\n", word)"#, "puts(word)"] {
        let text = UNTERMINATED.replace("PRINT", print);
        let (v, why) = verdict(&text, Engine::Auto);
        assert_eq!(v, Verdict::Unsafe, "{print}: {why:?}");
        let why = why.unwrap_or_default();
        assert!(
            why.contains("dereference of invalid address"),
            "{print}: {why}"
        );
    }
}

/// A stream from an `fopen` that may fail, used unchecked: glibc dereferences the null
/// stream (a crash), in the functions the environment models (`fgets`, `fread`, `fclose`)
/// and in the output functions (`fprintf`, `fputs`, `fwrite`). Checked streams, the
/// standard ones and `fclose(stdout)` stay safe.
#[test]
fn a_null_stream_given_to_the_library_is_an_error() {
    let program = |body: &str| {
        format!(
            "#include <stdio.h>\nint main(void) {{ char b[8]; FILE *f = fopen(\"data\", \"r+\"); \
             {body} return 0; }}\n"
        )
    };
    for body in [
        "fgets(b, sizeof b, f);",
        "fread(b, 1, sizeof b, f);",
        "fclose(f);",
        r#"fprintf(f, "%d\n", 1);"#,
        r#"fputs("x", f);"#,
        "fwrite(b, 1, 0, f);",
    ] {
        // (The bug may be one the run found beside the engines: its IVRs say.)
        finds_bug(&program(body), usize::MAX, "NullStream");
    }
    for body in [
        r#"if (!f) return 1; fgets(b, sizeof b, f); fprintf(f, "%s", "x"); fclose(f);"#,
        r#"(void)f; fputs("x\n", stdout); fprintf(stderr, "e\n"); fgets(b, sizeof b, stdin);"#,
        "(void)f; fclose(stdout);",
    ] {
        let (v, why) = verdict(&program(body), Engine::Auto);
        assert_eq!(v, Verdict::Safe, "{body}: {why:?}");
    }
}

/// A stream used after `fclose` closed it, or closed again (C11 7.21.3p4: glibc has freed
/// it), is an error in every engine: in one thread, and in a worker that writes while main
/// closes (partially safe: a schedule lets the worker write first). Closed once after its
/// users, or a standard stream, it stays safe.
#[test]
fn a_stream_used_after_fclose_is_an_error() {
    let program = |body: &str| {
        format!(
            "#include <stdio.h>\nint main(void) {{ char b[8]; FILE *f = fopen(\"data\", \"r+\"); \
             if (!f) return 1; {body} return 0; }}\n"
        )
    };
    for body in [
        "fclose(f); fgets(b, sizeof b, f);",
        r#"fclose(f); fprintf(f, "%d\n", 1);"#,
        "fclose(f); fclose(f);",
        "if (fread(b, 1, 2, f) == 2) fclose(f); fclose(f);",
        "setvbuf(f, 0, _IONBF, 0); fclose(f); setvbuf(f, 0, _IONBF, 0);",
        // (Opened through a pointer: the model allocates the stream.)
        "FILE *(*volatile op)(const char *, const char *) = fopen; FILE *g = op(\"x\", \"r\"); \
         if (g) { fclose(g); fputs(\"y\", g); }",
    ] {
        // (Up to the first IVR: the bug.)
        finds_bug(&program(body), 1, "ClosedStream");
    }
    for body in [
        r#"fgets(b, sizeof b, f); fprintf(f, "%s", "x"); fclose(f);"#,
        "fclose(f); f = fopen(\"other\", \"r\"); if (f) fclose(f); fclose(stdout);",
    ] {
        let (v, why) = verdict(&program(body), Engine::Auto);
        assert_eq!(v, Verdict::Safe, "{body}: {why:?}");
    }
    let race = r#"#include <pthread.h>
#include <stdio.h>
static FILE *log_file;
static void *worker(void *arg) { (void)arg; fputs("worker\n", log_file); return NULL; }
int main(void) {
  log_file = fopen("log", "w");
  if (!log_file) return 1;
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  fclose(log_file);
  pthread_join(t, NULL);
  return 0;
}
"#;
    partially_safe_in_every_engine(race, "ClosedStream");
    let after_join = race.replace(
        "  fclose(log_file);\n  pthread_join(t, NULL);",
        "  pthread_join(t, NULL);\n  fclose(log_file);",
    );
    for engine in [Engine::Auto, Engine::Explicit] {
        let (v, why) = verdict(&after_join, engine);
        assert_eq!(v, Verdict::Safe, "{engine:?}: {why:?}");
    }
}

/// The default engine (30 s, at most `max_ivrs` IVRs) does not call `src` safe, and one of
/// its counterexamples ends in an outcome that mentions `bug`.
fn finds_bug(src: &str, max_ivrs: usize, bug: &str) {
    let p = load_str("memory.c", src, &FOpts::default()).expect("lowers");
    let opts = Options {
        timeout: Duration::from_secs(30),
        ..Options::default()
    };
    let mut bugs = Vec::new();
    let r = run_iterative(&p, opts, Engine::Auto, max_ivrs, None, &mut |ivr| {
        if let IvrKind::Counterexample(c) = &ivr.kind {
            bugs.push(format!("{:?}", c.execution.outcome));
        }
    });
    assert_ne!(r.verdict, Verdict::Safe, "{src}");
    assert!(bugs.iter().any(|b| b.contains(bug)), "{src}: {bugs:?}");
}

/// A logging function that formats its variable arguments with `vfprintf`: the `%s` it
/// prints is read through the `va_list`, so a thread logging a string that `main` frees
/// before joining it reads freed memory (a bug a schedule avoids), and the program that
/// frees after the join is safe.
#[test]
fn strings_printed_from_a_va_list_are_read() {
    let program = |early_free: bool| {
        let free_then_join = match early_free {
            true => "free(name);\n  pthread_join(t, NULL);",
            false => "pthread_join(t, NULL);\n  free(name);",
        };
        format!(
            r#"#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static void logmsg(const char *fmt, ...) {{
  va_list ap;
  va_start(ap, fmt);
  pthread_mutex_lock(&m);
  vfprintf(stderr, fmt, ap);
  pthread_mutex_unlock(&m);
  va_end(ap);
}}
static void *worker(void *arg) {{
  logmsg("worker %d: %.*s\n", 1, 3, (char *)arg);
  return NULL;
}}
int main(void) {{
  char *name = strdup("alpha");
  if (!name) return 1;
  pthread_t t;
  pthread_create(&t, NULL, worker, name);
  {free_then_join}
  logmsg("%s done\n", "main");
  return 0;
}}
"#
        )
    };
    let (v, why) = verdict(&program(true), Engine::Auto);
    assert_eq!(v, Verdict::PartiallySafe, "{why:?}");
    assert!(why.unwrap_or_default().contains("freed"));
    assert_eq!(verdict(&program(false), Engine::Auto).0, Verdict::Safe);
}

/// A `va_list` that `vfprintf` took is indeterminate: formatting from it again without
/// `va_copy` is a bug (glibc reads past the arguments), and once is safe.
#[test]
fn a_va_list_used_twice_is_a_bug() {
    let program = |twice: &str| {
        format!(
            r#"#include <stdarg.h>
#include <stdio.h>
static void logmsg(const char *fmt, ...) {{
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  {twice}
  va_end(ap);
}}
int main(void) {{
  logmsg("%s %d\n", "x", 1);
  return 0;
}}
"#
        )
    };
    assert_eq!(verdict(&program(""), Engine::Auto).0, Verdict::Safe);
    let (v, why) = verdict(&program("vfprintf(stdout, fmt, ap);"), Engine::Auto);
    assert_eq!(v, Verdict::Unsafe, "{why:?}");
}
