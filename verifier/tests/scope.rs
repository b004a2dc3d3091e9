//! Bugs in small scopes (`verifier::scope`): a bug of the program without its thread bound,
//! found in the program lowered with at most one or two threads per start function, decides
//! `partially safe` where the bounded program has no bug; its IVR file replays on that
//! scope; and a bug that needs a creation the scope refuses is not reported.

use std::sync::Arc;
use std::time::{Duration, Instant};
use verifier::engine::{run_iterative, run_iterative_scoped, Engine};
use verifier::explore::{self, Unguided};
use verifier::frontend::{load_str, Options as FOpts};
use verifier::imc::{Ivr, IvrKind, Options, Verdict};
use verifier::ir::Program;
use verifier::ivr::{scope_of, verify_file, Checked, IvrFile};
use verifier::scope::Lower;

fn lower(text: &str, max_threads: usize, per_function: Option<usize>) -> Option<Program> {
    let opts = FOpts {
        max_threads,
        max_threads_per_function: per_function,
        ..FOpts::default()
    };
    load_str("scope.c", text, &opts).ok()
}

/// [`lower`] of a program that `main` runs with the one argument `arg`.
fn lower_with(
    text: &str,
    max_threads: usize,
    per_function: Option<usize>,
    arg: &str,
) -> Option<Program> {
    let opts = FOpts {
        max_threads,
        max_threads_per_function: per_function,
        arguments: vec![arg.into()],
        ..FOpts::default()
    };
    load_str("scope.c", text, &opts).ok()
}

/// The IVR file of counterexample `c` of `p`.
fn file_of(p: &Program, c: verifier::imc::Counterexample) -> String {
    let ivr = Ivr {
        index: 1,
        kind: IvrKind::Counterexample(Box::new(c)),
        time: Duration::ZERO,
        art_nodes: 0,
        solver_calls: 0,
    };
    serde_json::to_string(&IvrFile::new(p, &ivr)).unwrap()
}

fn opts() -> Options {
    Options {
        timeout: Duration::from_secs(30),
        ..Options::default()
    }
}

/// Writers start before readers, as many of each as the bound allows: with at most four
/// threads, no reader starts, and the bounded program is safe. Without the bound, a reader
/// that runs after a writer fails.
const WRITERS_THEN_READERS: &str = r#"
#include <pthread.h>
#include <assert.h>
#define N 8
int x;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *writer(void *arg) {
  pthread_mutex_lock(&m);
  x = 1;
  pthread_mutex_unlock(&m);
  return 0;
}
void *reader(void *arg) {
  pthread_mutex_lock(&m);
  assert(x == 0);
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t w[N], r[N];
  for (int i = 0; i < N; i++) pthread_create(&w[i], 0, writer, 0);
  for (int i = 0; i < N; i++) pthread_create(&r[i], 0, reader, 0);
  for (int i = 0; i < N; i++) pthread_join(w[i], 0);
  for (int i = 0; i < N; i++) pthread_join(r[i], 0);
  return 0;
}
"#;

#[test]
fn a_bug_that_needs_threads_the_bound_refuses_is_found_in_a_small_scope() {
    let p = lower(WRITERS_THEN_READERS, 4, None).expect("lowers");
    assert_eq!(p.thread_bound, Some(4));
    // The bounded program: no reader, no bug.
    let r = run_iterative(&p, opts(), Engine::Auto, usize::MAX, None, &mut |_| {});
    assert_eq!(r.verdict, Verdict::Safe);
    assert_eq!(p.bound_note(r.meets_bound, None), " with at most 4 threads");
    // With its small scopes.
    let scope: Lower = Arc::new(|k: Option<usize>| lower(WRITERS_THEN_READERS, 4, k));
    let mut ivrs: Vec<Ivr> = Vec::new();
    let r = run_iterative_scoped(
        &p,
        Some(scope),
        opts(),
        Engine::Auto,
        usize::MAX,
        None,
        &mut |i| ivrs.push(i.clone()),
    );
    assert_eq!(r.verdict, Verdict::PartiallySafe, "{:?}", r.verdict);
    let c = r.counterexample.as_ref().expect("a counterexample");
    let k = c.threads_per_function.expect("found in a small scope");
    let q = c.program(&p);
    assert!(q.threads.iter().all(|t| {
        q.threads
            .iter()
            .filter(|u| u.function == t.function)
            .count()
            <= k
    }));
    assert!(q.threads.iter().any(|t| t.function == "reader"));
    assert_eq!(
        p.bound_note(true, Some((q, &c.execution))),
        " with at most 4 threads; its error occurs without the bound too"
    );
    // Its IVR file names the scope, replays there, and not on the bounded program.
    let cex = ivrs
        .iter()
        .find(|i| matches!(i.kind, IvrKind::Counterexample(_)))
        .expect("emitted");
    let text = serde_json::to_string(&IvrFile::new(&p, cex)).unwrap();
    assert_eq!(scope_of(&text), Some(k));
    let scoped = lower(WRITERS_THEN_READERS, 4, Some(k)).unwrap();
    assert!(matches!(
        verify_file(&scoped, &text, 30_000),
        Ok(Checked::Counterexample { .. })
    ));
    assert!(verify_file(&p, &text, 30_000).is_err());
}

/// Main fails where a creation fails: in a scope of one thread per function, the second
/// creation does.
const EVERY_CREATION_SUCCEEDS: &str = r#"
#include <pthread.h>
#include <assert.h>
#define N 8
int x;
void *f(void *arg) { return 0; }
int main(void) {
  pthread_t t[N];
  for (int i = 0; i < N; i++)
    if (pthread_create(&t[i], 0, f, 0) != 0) assert(0);
  for (int i = 0; i < N; i++) pthread_join(t[i], 0);
  return 0;
}
"#;

/// The scope of one thread per start function of `text` (lowered with at most
/// `max_threads`) has a bug, which the search of small scopes does not report.
fn scope_bug_is_not_reported(text: &str, max_threads: usize) {
    let scope = |k: Option<usize>| lower(text, max_threads, k);
    let small = scope(Some(1)).expect("lowers");
    let found = explore::explore(&small, &Unguided, &explore::Options::default(), None);
    assert!(!found.bugs.is_empty());
    let deadline = Instant::now() + Duration::from_secs(10);
    let small_scopes = verifier::scope::SMALL;
    assert!(verifier::scope::bug(&scope, &small_scopes, deadline, None).is_none());
}

#[test]
fn a_bug_that_needs_a_refused_creation_is_not_reported() {
    scope_bug_is_not_reported(EVERY_CREATION_SUCCEEDS, 64);
}

/// Two threads increment a counter without a lock; main checks it after joining both.
const LOST_UPDATE: &str = include_str!("../../examples/lost_update.c");

/// The same with a lock: safe.
const NO_LOST_UPDATE: &str = include_str!("../../examples/locked_counter.c");

#[test]
fn a_program_without_a_bound_is_its_own_scope() {
    let p = lower(LOST_UPDATE, 64, None).expect("lowers");
    assert_eq!(p.thread_bound, None);
    let itself = p.clone();
    let scope = move |k: Option<usize>| k.is_none().then(|| itself.clone());
    let deadline = Instant::now() + Duration::from_secs(10);
    let c = verifier::scope::bug(&scope, &verifier::scope::ITSELF, deadline, None)
        .expect("the lost update is found");
    assert_eq!(c.threads_per_function, None);
    assert!(c.scope.is_none());
    let text = file_of(&p, c);
    assert_eq!(scope_of(&text), None);
    assert!(matches!(
        verify_file(&p, &text, 30_000),
        Ok(Checked::Counterexample { .. })
    ));
    // With the search beside the engines, the verdicts stand.
    for (text, verdict) in [
        (LOST_UPDATE, Verdict::PartiallySafe),
        (NO_LOST_UPDATE, Verdict::Safe),
    ] {
        let p = lower(text, 64, None).expect("lowers");
        let itself = p.clone();
        let scope: Lower = Arc::new(move |k: Option<usize>| k.is_none().then(|| itself.clone()));
        let r = run_iterative_scoped(
            &p,
            Some(scope),
            opts(),
            Engine::Auto,
            usize::MAX,
            None,
            &mut |_| {},
        );
        assert_eq!(r.verdict, verdict);
    }
}

/// `g` is the second thread created after the first `f`; with one thread per start function
/// it is the first. Its check holds without the bound, and fails only in the scope's numbering.
const SELF_ID: &str = r#"
#include <pthread.h>
#include <assert.h>
pthread_t t[2];
void *f(void *a) { return 0; }
void *g(void *a) { assert(pthread_self() - t[0] != 1); return 0; }
void *h(void *a) { return 0; }
int main(void) {
  pthread_t u, w[8];
  pthread_create(&t[0], 0, f, 0);
  pthread_create(&t[1], 0, f, 0);
  pthread_create(&u, 0, g, 0);
  for (int i = 0; i < 8; i++) pthread_create(&w[i], 0, h, 0);
  return 0;
}
"#;

#[test]
fn a_bug_that_depends_on_how_threads_are_numbered_is_not_reported() {
    assert!(lower(SELF_ID, 4, Some(1))
        .unwrap()
        .observes_numbering
        .is_some());
    scope_bug_is_not_reported(SELF_ID, 4);
    // The program without the bound has none with the model's numbers, which are not a
    // run's: it is not called safe either.
    let big = lower(SELF_ID, 64, None).expect("lowers");
    let r = run_iterative(&big, opts(), Engine::Auto, usize::MAX, None, &mut |_| {});
    assert!(matches!(r.verdict, Verdict::Unknown(_)), "{:?}", r.verdict);
}

#[test]
fn the_ivr_checker_rejects_a_scope_counterexample_that_needs_the_scope() {
    // The bug of the scope of one thread per start function: main fails where its second
    // creation does.
    let small = lower(EVERY_CREATION_SUCCEEDS, 64, Some(1)).expect("lowers");
    let execution = first_bug(&small);
    let replay = verifier::interp::Replay::of(&execution);
    let mut c = verifier::imc::Counterexample::new(replay, execution);
    c.threads_per_function = Some(1);
    let text = file_of(&small, c);
    assert_eq!(scope_of(&text), Some(1));
    let why = verify_file(&small, &text, 30_000).expect_err("rejected");
    assert!(
        why.contains("not shown to occur without that bound"),
        "{why}"
    );
}

/// Threads whose ids main keeps in an array and joins, then a failed check: the ids are
/// loaded into registers and handed to the joins, which decides nothing on their values.
const JOINS_FROM_AN_ARRAY: &str = r#"
#include <pthread.h>
#include <assert.h>
int x;
void *f(void *arg) { x = 1; return 0; }
int main(void) {
  pthread_t t[2];
  for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, f, 0);
  for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
  assert(x == 0);
  return 0;
}
"#;

/// The first bug of `p` the stateless search finds, replayed.
fn first_bug(p: &Program) -> verifier::interp::Execution {
    let found = explore::explore(p, &Unguided, &explore::Options::default(), None);
    let bug = found.bugs.first().expect("a bug");
    let mut replay = verifier::interp::Replay::new(
        bug.steps
            .iter()
            .map(|s| (s.thread, Some(s.transition)))
            .collect(),
        bug.steps.iter().flat_map(|s| s.inputs.clone()).collect(),
    );
    let (e, _) = verifier::interp::run(p, &mut replay, bug.steps.len() + 1);
    assert!(e.outcome.is_bug());
    e
}

#[test]
fn copies_of_thread_ids_decide_nothing_and_comparisons_of_them_do() {
    let p = lower(JOINS_FROM_AN_ARRAY, 64, None).expect("lowers");
    assert!(!p.reads_thread_ids(&first_bug(&p)));
    // The same check, made only where the second id is the greater number: the front end
    // sees the ids compared by order, and so does the run.
    let orders_ids = JOINS_FROM_AN_ARRAY.replace("  assert(", "  if (t[1] > t[0]) assert(");
    let p = lower(&orders_ids, 64, None).expect("lowers");
    let why = p.observes_numbering.clone().expect("reads ids");
    assert!(why.contains("thread ids compared by order"), "{why}");
    assert!(p.reads_thread_ids(&first_bug(&p)));
}

/// The length of a prefix, as a difference of two pointers into one string (clang compiles
/// it to two `ptrtoint`s and a `sub`): an offset, the same however objects are numbered.
/// The difference of pointers into two different arrays, or a pointer's value as a number,
/// is not.
const DIFFERENCES: &str = r#"
#include <pthread.h>
#include <assert.h>
char s[8] = "abc", u[8] = "xy";
int prefix(char *p) {
  char *q = p;
  while (*q && *q != 'c') q++;
  return DIFF;
}
void *f(void *a) { assert(prefix(s) == 2); return 0; }
int main(void) {
  pthread_t t[8];
  for (int i = 0; i < 8; i++) pthread_create(&t[i], 0, f, 0);
  return 0;
}
"#;

#[test]
fn only_differences_of_pointers_into_one_object_leave_numbering_unobserved() {
    for (diff, observes) in [("q - p", false), ("q - u", true), ("(int)(long)q", true)] {
        let p = lower(&DIFFERENCES.replace("DIFF", diff), 4, Some(1)).expect("lowers");
        assert_eq!(p.observes_numbering.is_some(), observes, "{diff}");
    }
}

/// A thread's number passed as its argument (`(void *)(long)i`, a comparison's result, a
/// choice between such numbers, an integer loaded from memory or returned by a call) and
/// converted back, and the
/// difference of two constant pointers into one global, are no numbering; an address passed
/// and converted to a number is.
#[test]
fn numbers_passed_as_pointers_leave_numbering_unobserved() {
    let text = |arg: &str, body: &str| {
        format!(
            r#"
#include <pthread.h>
#include <stdlib.h>
int s[4], seen[4];
void *f(void *a) {{ long i = (long)a; {body}; return 0; }}
int main(void) {{
  pthread_t t[2];
  for (long i = 0; i < 2; i++) pthread_create(&t[i], 0, f, {arg});
  for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
  return 0;
}}
"#
        )
    };
    for (arg, body, observes) in [
        ("(void *)i", "seen[i & 3] = 1", false),
        ("(void *)1L", "seen[i & 3] = (int)(&s[2] - s)", false),
        ("0", "seen[0] = (int)i", false),
        ("(void *)(long)(i > 0)", "seen[0] = (int)i", false),
        ("(void *)(i > 0 ? 5L : i)", "seen[0] = (int)i", false),
        ("(void *)(long)s[i]", "seen[0] = (int)i", false),
        ("(void *)strtol(\"12\", 0, 10)", "seen[0] = (int)i", false),
        ("&seen[i]", "seen[0] = (int)i", true),
        ("(void *)i", "seen[0] = (int)(long)&s[i & 3]", true),
    ] {
        let p = lower(&text(arg, body), 4, None).expect("lowers");
        assert_eq!(p.observes_numbering.is_some(), observes, "{arg}: {body}");
    }
    // An address read as a number through a union, then passed as a number; `main`'s
    // `argv` (whose callers are not in the program) as a number.
    let union = text("(void *)u.n", "seen[0] = (int)i").replace(
        "pthread_t t[2];",
        "pthread_t t[2]; union { void *p; long n; } u = {.p = s};",
    );
    assert!(lower(&union, 4, None)
        .expect("lowers")
        .observes_numbering
        .is_some());
    // An address an initialiser puts in a global union, or in a table a local is copied
    // from, read as a number; the integer beside it in the table is no address.
    let tables = |read: &str| {
        text("(void *)i", read).replace(
            "int s[4], seen[4];",
            "int s[4], seen[4]; union { void *p; long n; } g = {.p = s};\n\
             struct e { const char *name; int count; } table[2] = {{\"a\", 1}, {\"b\", 2}};",
        )
    };
    for (read, observes) in [
        ("seen[0] = (int)g.n", true),
        ("struct e c = table[1]; seen[0] = (int)*(long *)&c", true),
        ("struct e c = table[1]; seen[0] = c.count", false),
    ] {
        let p = lower(&tables(read), 4, None).expect("lowers");
        assert_eq!(p.observes_numbering.is_some(), observes, "{read}");
    }
    let argv = "int main(int argc, char **argv) { return (int)((unsigned long)argv >> 4); }";
    assert!(lower(argv, 4, None)
        .expect("lowers")
        .observes_numbering
        .is_some());
}

/// Each thread reads an element of a heap block past its end: a memory-safety violation (not
/// an assertion), found in the smallest scope and one of the program without the bound.
const READ_PAST_THE_END: &str = r#"
#include <pthread.h>
#include <stdlib.h>
int *a;
void *f(void *arg) { int i = *(int *)arg; return (void *)(long)a[i + 4]; }
int main(void) {
  a = calloc(4, sizeof *a);
  if (!a) return 1;
  pthread_t t[8];
  int k[8];
  for (int i = 0; i < 8; i++) { k[i] = i; pthread_create(&t[i], 0, f, &k[i]); }
  for (int i = 0; i < 8; i++) pthread_join(t[i], 0);
  return 0;
}
"#;

#[test]
fn a_memory_error_found_in_a_small_scope_is_reported() {
    let scope = |k: Option<usize>| lower(READ_PAST_THE_END, 4, k);
    let deadline = Instant::now() + Duration::from_secs(10);
    let c = verifier::scope::bug(&scope, &verifier::scope::SMALL, deadline, None)
        .expect("the read past the end is found");
    assert!(
        matches!(
            c.execution.outcome,
            verifier::interp::Outcome::Undefined { memory: true, .. }
        ),
        "{:?}",
        c.execution.outcome
    );
    let p = scope(None).expect("lowers");
    let text = file_of(&p, c.clone());
    let small = scope(c.threads_per_function).expect("lowers");
    let checked = verify_file(&small, &text, 30_000);
    assert!(
        matches!(checked, Ok(Checked::Counterexample { .. })),
        "{checked:?}"
    );
}

/// The start of a file copied into a block with no room for its terminator: whatever the
/// file holds, the terminator is written past the block's end.
const NO_ROOM_FOR_THE_TERMINATOR: &str = r#"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv) {
  int fd = open(argv[1], O_RDONLY);
  if (fd < 0) return 1;
  char line[16];
  ssize_t r = read(fd, line, sizeof line);
  if (r <= 0) return 1;
  char *s = malloc(r);
  if (!s) return 1;
  memcpy(s, line, r);
  s[r] = 0;
  puts(s);
  free(s);
  return 0;
}
"#;

#[test]
fn a_bug_the_search_finds_is_reported_without_a_safe_schedule() {
    let opts_in = FOpts {
        arguments: vec!["f".into()],
        ..FOpts::default()
    };
    let p = load_str("copy.c", NO_ROOM_FOR_THE_TERMINATOR, &opts_in).expect("lowers");
    let itself = p.clone();
    let scope: Lower = Arc::new(move |k: Option<usize>| k.is_none().then(|| itself.clone()));
    let mut ivrs: Vec<Ivr> = Vec::new();
    let r = run_iterative_scoped(
        &p,
        Some(scope),
        Options {
            timeout: Duration::from_secs(5),
            ..Options::default()
        },
        Engine::Auto,
        usize::MAX,
        None,
        &mut |i| ivrs.push(i.clone()),
    );
    // (The file's contents are the environment's, so no claim that no scheduler avoids it.)
    assert!(
        matches!(&r.verdict, Verdict::Unknown(why) if why.contains("a bug was found and replayed")),
        "{:?}",
        r.verdict
    );
    let c = ivrs
        .iter()
        .find_map(|i| match &i.kind {
            IvrKind::Counterexample(c) => Some(c),
            _ => None,
        })
        .expect("the write past the end is reported");
    assert!(p
        .show_outcome(&c.execution.outcome)
        .starts_with("memory-safety violation"));
}

/// In the scope of one thread per start function, every creation in the loop is refused and
/// `g`'s id is one past the first thread's: `g` reads past the end of `a`. Without the bound
/// the ids differ by more, and `g` reads `a[0]`. Only the read that faults decides on the
/// ids.
const FAULT_READS_IDS: &str = r#"
#include <pthread.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
pthread_t t0, tg;
int n;
int *a;
void *f(void *x) { return 0; }
void *g(void *x) {
  unsigned k = 7u * (tg - t0 == 1) * (n >= 1);
  return (void *)(long)a[k];
}
int main(void) {
  n = __VERIFIER_nondet_int();
  a = calloc(4, sizeof *a);
  if (!a) return 1;
  pthread_create(&t0, 0, f, 0);
  for (int i = 0; i < n; i++) { pthread_t u; pthread_create(&u, 0, f, 0); }
  pthread_create(&tg, 0, g, 0);
  return 0;
}
"#;

#[test]
fn a_memory_error_whose_faulting_step_reads_thread_ids_is_not_reported() {
    scope_bug_is_not_reported(FAULT_READS_IDS, 64);
}

/// The bug the search of the small scopes finds in `text` (thread bound 4) within 20 s.
fn small_scope_bug(text: &'static str) -> verifier::imc::Counterexample {
    let scope = move |k: Option<usize>| lower(text, 4, k);
    let deadline = Instant::now() + Duration::from_secs(20);
    verifier::scope::bug(&scope, &verifier::scope::SMALL, deadline, None).expect("the bug is found")
}

/// Each worker's check fails only where its inputs are 0 and 2 (and the creation loop has no
/// counter, so the program has a thread bound). The search of the small scopes tries inputs 0
/// and 1 first, and where that covers every execution, wider ranges: it finds the bug.
#[test]
fn a_bug_of_an_input_2_is_found_once_0_and_1_are_searched_through() {
    let text = r#"
#include <pthread.h>
extern unsigned __VERIFIER_nondet_uint(void);
extern void reach_error(void);
void *worker(void *arg) {
  unsigned x = __VERIFIER_nondet_uint(), y = __VERIFIER_nondet_uint();
  if (x == 0 && y == 2) reach_error();
  return 0;
}
int main(void) {
  pthread_t t;
  while (1) pthread_create(&t, 0, worker, 0);
}
"#;
    let c = small_scope_bug(text);
    assert_eq!(c.threads_per_function, Some(1));
}

/// A bug of a worker count checked into `[5, 8]`: inputs from 0 to 4 never pass the check,
/// and the search goes on with the values at the program's checks.
#[test]
fn a_bug_of_an_input_beyond_4_is_found_at_the_programs_checks() {
    let text = r#"
#include <pthread.h>
#include <stdlib.h>
extern unsigned __VERIFIER_nondet_uint(void);
extern void reach_error(void);
void *worker(void *arg) { return 0; }
int main(void) {
  pthread_t t;
  unsigned n = __VERIFIER_nondet_uint();
  if (n < 5 || n > 8) abort();
  if (n == 8) reach_error();
  while (1) pthread_create(&t, 0, worker, 0);
}
"#;
    let c = small_scope_bug(text);
    assert!(c.execution.steps.iter().any(|s| s.inputs == [8]));
}

/// Two calls of a function that starts workers in a loop of a run-time count, in the
/// branches of an `if` on that count: the run with the argument `2` takes the second, whose
/// two workers lose an update. The lowering meets the first call's creations first; a small scope that
/// gave them its threads would have none left for the run's.
const WORKERS_IN_EITHER_BRANCH: &str = r#"
#include <pthread.h>
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
int counter;
void *worker(void *a) { int t = counter; counter = t + 1; return 0; }
void start(int k) {
  pthread_t ts[16];
  for (int i = 0; i < k && i < 16; i++) pthread_create(&ts[i], 0, worker, 0);
  for (int i = 0; i < k && i < 16; i++) pthread_join(ts[i], 0);
}
int main(int argc, char **argv) {
  int k = atoi(argv[1]);
  if (k > 8) {
    puts("twice as many");
    start(2 * k);
    puts("done");
  } else {
    start(k);
    assert(counter == k);
  }
  return 0;
}
"#;

#[test]
fn a_small_scope_gives_its_threads_to_the_creations_a_run_makes() {
    let scope = |k: Option<usize>| lower_with(WORKERS_IN_EITHER_BRANCH, 16, k, "2");
    let p = scope(Some(2)).expect("lowers");
    assert!(p.thread_bound.is_some());
    let deadline = Instant::now() + Duration::from_secs(20);
    let c = verifier::scope::bug(&scope, &verifier::scope::SMALL, deadline, None)
        .expect("the lost update of the branch the run takes is found");
    assert_eq!(c.threads_per_function, Some(2));
    assert!(matches!(
        c.execution.outcome,
        verifier::interp::Outcome::Error { .. }
    ));
}

/// Workers joined with their result checked, in a program that may detach a thread: the
/// join's result (0, or an error it returns at once) and the record of whether a thread is
/// detached are the same however threads are numbered.
const JOINS_CHECKED: &str = r#"
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>
int counter;
void *worker(void *a) { int t = counter; counter = t + 1; return 0; }
int main(int argc, char **argv) {
  pthread_t ts[2];
  for (int i = 0; i < 2; i++) pthread_create(&ts[i], 0, worker, 0);
  if (argc > 5) pthread_detach(ts[0]);
  for (int i = 0; i < 2; i++)
    if (pthread_join(ts[i], 0) != 0) abort();
  assert(counter == 2);
  return 0;
}
"#;

#[test]
fn a_join_whose_result_is_checked_decides_nothing_on_thread_ids() {
    let p = lower(JOINS_CHECKED, 64, None).expect("lowers");
    assert!(p.vars.iter().any(|v| v.name == "__thread_detached"));
    assert!(!p.reads_thread_ids(&first_bug(&p)));
}

/// Three workers of a run-time count, all of whose updates but one are lost: a bug of three
/// threads of one function, which no small scope has, and the bounded program does.
const THREE_LOST_UPDATES: &str = r#"
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>
int counter;
void *worker(void *a) { int t = counter; counter = t + 1; return 0; }
int main(int argc, char **argv) {
  int k = atoi(argv[1]);
  pthread_t ts[8];
  for (int i = 0; i < k && i < 8; i++) pthread_create(&ts[i], 0, worker, 0);
  for (int i = 0; i < k && i < 8; i++) pthread_join(ts[i], 0);
  assert(counter >= 2);
  return 0;
}
"#;

#[test]
fn the_search_goes_on_to_the_bounded_program_after_the_small_scopes() {
    let scope = |k: Option<usize>| lower_with(THREE_LOST_UPDATES, 8, k, "3");
    let deadline = Instant::now() + Duration::from_secs(20);
    assert!(verifier::scope::bug(&scope, &verifier::scope::SMALL, deadline, None).is_none());
    let deadline = Instant::now() + Duration::from_secs(20);
    let c = verifier::scope::bug(&scope, &verifier::scope::SMALL_THEN_BOUNDED, deadline, None)
        .expect("the bounded program's bug is found");
    assert_eq!(c.threads_per_function, None);
    assert!(c.scope.is_none());
}

/// A run (inputs 0) makes three creations of `w1`; a creation it does not make starts `g`,
/// which fails. With a bound of 4 threads and one thread per start function, the run's
/// creations can have one thread only: `g`'s creation keeps a thread.
const ONE_OF_THREE_FAVOURED: &str = r#"
#include <pthread.h>
#include <assert.h>
int __VERIFIER_nondet_int(void);
int x;
void *w1(void *a) { return 0; }
void *g(void *a) { x = 1; assert(0); return 0; }
pthread_t a, b1, b2, b3, u;
int main(void) {
  int c = __VERIFIER_nondet_int();
  if (c) pthread_create(&u, 0, g, 0);
  int d = __VERIFIER_nondet_int();
  if (d) {
    pthread_create(&a, 0, w1, 0);
    pthread_join(a, 0);
  } else {
    pthread_create(&b1, 0, w1, 0);
    pthread_create(&b2, 0, w1, 0);
    pthread_create(&b3, 0, w1, 0);
    pthread_join(b1, 0);
    pthread_join(b2, 0);
    pthread_join(b3, 0);
  }
  return 0;
}
"#;

#[test]
fn a_small_scope_keeps_no_thread_for_favoured_creations_beyond_its_bound() {
    let c = small_scope_bug(ONE_OF_THREE_FAVOURED);
    assert_eq!(c.threads_per_function, Some(1));
}
