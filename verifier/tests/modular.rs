//! Safety for any number of threads (`verifier::explicit::modular`): a program that starts
//! threads in a loop, safe with any number of them, is `safe` without the thread bound's
//! qualification; one safe only up to some number of threads, one that may deadlock, and
//! ones outside what the proof covers are not.

use std::sync::Arc;
use std::time::{Duration, Instant};
use verifier::engine::{run_iterative_scoped, Engine};
use verifier::explicit::modular::prove;
use verifier::explore::{self, Unguided};
use verifier::frontend::{load_str, Options as FOpts};
use verifier::imc::{Options, Verdict};
use verifier::ir::Program;
use verifier::scope::Lower;

fn lower(text: &str, max_threads: usize, per_function: Option<usize>) -> Program {
    let opts = FOpts {
        max_threads,
        max_threads_per_function: per_function,
        ..FOpts::default()
    };
    load_str("modular.c", text, &opts).expect("lowers")
}

/// `threads`, then a `main` that starts `n` threads of `worker` in a loop and joins them.
fn pool(threads: &str, n: usize) -> String {
    format!(
        "{threads}int main(void) {{\n  pthread_t t[{n}];\n  \
         for (int i = 0; i < {n}; i++) pthread_create(&t[i], 0, worker, 0);\n  \
         for (int i = 0; i < {n}; i++) pthread_join(t[i], 0);\n  return 0;\n}}\n"
    )
}

/// `prove` on the scope of one thread per start function of `text`.
fn proof_of(text: &str) -> Result<verifier::explicit::modular::Proof, String> {
    let one = lower(text, 64, Some(1));
    prove(&one, Instant::now() + Duration::from_secs(20), 1_000_000)
}

/// The verdict of `text` with at most `max_threads` threads, with its small scopes, and its
/// words.
fn verdict(text: &str, max_threads: usize) -> (Verdict, String, bool) {
    let p = lower(text, max_threads, None);
    assert_eq!(p.thread_bound, Some(max_threads));
    let owned = text.to_string();
    let scope: Lower = Arc::new(move |k: Option<usize>| Some(lower(&owned, max_threads, k)));
    let opts = Options {
        timeout: Duration::from_secs(30),
        ..Options::default()
    };
    let r = run_iterative_scoped(
        &p,
        Some(scope),
        opts,
        Engine::Auto,
        usize::MAX,
        None,
        &mut |_| {},
    );
    let note = p.bound_note(r.meets_bound, None);
    (r.verdict, note, r.any_thread_count.is_some())
}

/// No bug of the program with at most `n` threads per start function, by the stateless
/// search of every interleaving (the check of the proof's claim that does not use it).
fn no_bug_with(text: &str, n: usize) {
    let p = lower(text, 64, Some(n));
    let r = explore::explore(&p, &Unguided, &explore::Options::default(), None);
    assert!(r.bugs.is_empty(), "{n} threads: {:?}", r.bugs[0].kind);
}

/// Workers, as many as the command line says, each add to and take back from a counter under
/// a mutex, in two critical sections of a global lock (a race detector's test: goblint's
/// `access` macro), under a second mutex that makes the pair atomic; `main` checks the
/// counter under both.
const WORKERS: &str = r#"
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>
int counter;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t g = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  pthread_mutex_lock(&m);
  pthread_mutex_lock(&g); counter++; pthread_mutex_unlock(&g);
  pthread_mutex_lock(&g); counter--; pthread_mutex_unlock(&g);
  pthread_mutex_unlock(&m);
  return 0;
}
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  pthread_t t[1000];
  if (n > 1000) n = 1000;
  for (int i = 0; i < n; i++) pthread_create(&t[i], 0, worker, 0);
  pthread_mutex_lock(&m);
  pthread_mutex_lock(&g);
  assert(counter == 0);
  pthread_mutex_unlock(&g);
  pthread_mutex_unlock(&m);
  for (int i = 0; i < n; i++) pthread_join(t[i], 0);
  return 0;
}
"#;

#[test]
fn workers_under_a_mutex_are_safe_for_any_number_of_threads() {
    let (v, note, modular) = verdict(WORKERS, 4);
    assert_eq!(v, Verdict::Safe);
    assert!(modular, "shown by the thread-modular proof");
    assert_eq!(note, "", "no `with at most` qualification");
    let proof = proof_of(WORKERS).expect("proved");
    assert_eq!(proof.replicated, vec!["worker".to_string()]);
    for n in 1..=3 {
        no_bug_with(WORKERS, n);
    }
}

/// The same without the outer mutex: `main` may check between a worker's two sections.
const WORKERS_RACING: &str = r#"
#include <pthread.h>
#include <assert.h>
int counter;
pthread_mutex_t g = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  pthread_mutex_lock(&g); counter++; pthread_mutex_unlock(&g);
  pthread_mutex_lock(&g); counter--; pthread_mutex_unlock(&g);
  return 0;
}
int main(void) {
  pthread_t t[100];
  for (int i = 0; i < 100; i++) pthread_create(&t[i], 0, worker, 0);
  pthread_mutex_lock(&g);
  assert(counter == 0);
  pthread_mutex_unlock(&g);
  for (int i = 0; i < 100; i++) pthread_join(t[i], 0);
  return 0;
}
"#;

#[test]
fn a_racing_program_is_not_proved() {
    let why = proof_of(WORKERS_RACING).expect_err("not safe");
    assert!(why.contains("error"), "{why}");
    let (v, _, modular) = verdict(WORKERS_RACING, 4);
    assert_eq!(v, Verdict::PartiallySafe);
    assert!(!modular);
}

/// Each worker counts itself in under a mutex and checks that at most four have: safe with
/// at most four threads, not with more.
const AT_MOST_FOUR: &str = r#"
#include <pthread.h>
#include <assert.h>
int started;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  pthread_mutex_lock(&m);
  started++;
  assert(started <= 4);
  pthread_mutex_unlock(&m);
  return 0;
}
"#;

#[test]
fn a_program_safe_only_up_to_some_number_of_threads_keeps_its_qualification() {
    assert!(proof_of(&pool(AT_MOST_FOUR, 8)).is_err());
    // Four workers and main: the bound allows no fifth worker, and the small scopes have
    // fewer; the fifth fails.
    let (v, note, modular) = verdict(&pool(AT_MOST_FOUR, 8), 5);
    assert_eq!(v, Verdict::Safe);
    assert!(!modular);
    assert_eq!(note, " with at most 5 threads");
}

/// Workers take two mutexes in either order: two of them may deadlock.
const EITHER_ORDER: &str = r#"
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  if (__VERIFIER_nondet_int()) {
    pthread_mutex_lock(&a); pthread_mutex_lock(&b);
  } else {
    pthread_mutex_lock(&b); pthread_mutex_lock(&a);
  }
  pthread_mutex_unlock(&b); pthread_mutex_unlock(&a);
  return 0;
}
"#;

/// A worker that returns holding a mutex, which the next one waits for forever.
const ENDS_HOLDING: &str = r#"
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  pthread_mutex_lock(&m);
  return 0;
}
"#;

#[test]
fn programs_that_may_deadlock_are_not_proved() {
    // The same with the mutexes in heap blocks.
    let heap = pool(EITHER_ORDER, 10)
        .replace(
            "pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;",
            "#include <stdlib.h>\npthread_mutex_t *a, *b;",
        )
        .replace("(&a)", "(a)")
        .replace("(&b)", "(b)")
        .replace(
            "int main(void) {\n",
            "int main(void) {\n  a = malloc(sizeof *a); b = malloc(sizeof *b);\n  \
             pthread_mutex_init(a, 0); pthread_mutex_init(b, 0);\n",
        );
    assert!(heap.contains("malloc") && !heap.contains("&a"));
    assert!(proof_of(&heap).is_err());
    let why = proof_of(&pool(EITHER_ORDER, 10)).expect_err("a deadlock");
    assert!(why.contains("cyclic"), "{why}");
    let why = proof_of(&pool(ENDS_HOLDING, 10)).expect_err("a deadlock");
    assert!(why.contains("holding"), "{why}");
}

/// Workers started with their own element of an array: the proof does not cover arguments
/// that differ between threads.
const OWN_ELEMENT: &str = r#"
#include <pthread.h>
int data[10];
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  int *p = arg;
  pthread_mutex_lock(&m);
  *p = 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t[10];
  for (int i = 0; i < 10; i++) pthread_create(&t[i], 0, worker, &data[i]);
  for (int i = 0; i < 10; i++) pthread_join(t[i], 0);
  return 0;
}
"#;

/// Workers that tell themselves apart by their ids.
const BY_ID: &str = r#"
#include <pthread.h>
#include <assert.h>
pthread_t first;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  pthread_mutex_lock(&m);
  if (first == 0) first = pthread_self();
  pthread_mutex_unlock(&m);
  return 0;
}
"#;

/// A worker that publishes the address of its own variable for the next to write.
const PUBLISHES_A_LOCAL: &str = r#"
#include <pthread.h>
#include <assert.h>
int *shared;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  int mine = 0;
  pthread_mutex_lock(&m);
  if (shared) *shared = 1; else shared = &mine;
  pthread_mutex_unlock(&m);
  assert(mine == 0);
  return 0;
}
int main(void) {
  pthread_t t[10];
  for (int i = 0; i < 10; i++) pthread_create(&t[i], 0, worker, 0);
  return 0;
}
"#;

#[test]
fn programs_outside_what_the_proof_covers_are_not_proved() {
    let why = proof_of(OWN_ELEMENT).expect_err("differing arguments");
    assert!(why.contains("arguments"), "{why}");
    let why = proof_of(&pool(BY_ID, 10)).expect_err("thread ids");
    assert!(why.contains("numbered"), "{why}");
    let why = proof_of(PUBLISHES_A_LOCAL).expect_err("a thread's own memory published");
    assert!(why.contains("address"), "{why}");
}

/// Threads each start one worker, which checks that it was the only one to count itself
/// (found in review): the workers are as many as their starters.
const STARTED_BY_MANY: &str = r#"
#include <pthread.h>
#include <assert.h>
int x;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *w(void *a) {
  int v;
  pthread_mutex_lock(&m); x++; v = x; pthread_mutex_unlock(&m);
  assert(v == 1);
  return 0;
}
void *h(void *a) { pthread_t t; pthread_create(&t, 0, w, 0); return 0; }
int main(void) {
  pthread_t t[100];
  for (int i = 0; i < 100; i++) pthread_create(&t[i], 0, h, 0);
  pthread_exit(0);
}
"#;

/// Joins of ids never written (found in review).
const JOINS_UNWRITTEN_IDS: &str = r#"
#include <pthread.h>
void *worker(void *arg) { return 0; }
int main(void) {
  pthread_t t[200];
  for (int i = 0; i < 100; i++) pthread_create(&t[i], 0, worker, 0);
  for (int i = 0; i < 200; i++) pthread_join(t[i], 0);
  return 0;
}
"#;

/// A worker's own variable, its address copied byte by byte into shared memory, written by
/// another worker (found in review).
const BYTES_OF_AN_ADDRESS: &str = r#"
#include <pthread.h>
#include <string.h>
extern void reach_error(void);
unsigned char buf[8]; int have, done;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *a) {
  int mine = 0;
  pthread_mutex_lock(&m);
  if (have) {
    if (!done) { int *p; memcpy(&p, buf, sizeof p); *p = 1; }
    pthread_mutex_unlock(&m);
    return 0;
  }
  int *q = &mine; memcpy(buf, &q, sizeof q); have = 1;
  pthread_mutex_unlock(&m);
  pthread_mutex_lock(&m);
  if (mine) reach_error();
  done = 1;
  pthread_mutex_unlock(&m);
  return 0;
}
"#;

/// A mutex whose bytes are all set (no thread's id as its owner) before workers take it.
const MUTEX_OF_ONES: &str = r#"
#include <pthread.h>
#include <string.h>
pthread_mutex_t m;
void *worker(void *arg) {
  pthread_mutex_lock(&m);
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  memset(&m, 0xff, sizeof m);
  pthread_t t[10];
  for (int i = 0; i < 10; i++) pthread_create(&t[i], 0, worker, 0);
  for (int i = 0; i < 10; i++) pthread_join(t[i], 0);
  return 0;
}
"#;

#[test]
fn the_holes_found_in_review_stay_closed() {
    for (text, why) in [
        (STARTED_BY_MANY.to_string(), "error"),
        (JOINS_UNWRITTEN_IDS.to_string(), "join"),
        (pool(BYTES_OF_AN_ADDRESS, 100), "address"),
        (MUTEX_OF_ONES.to_string(), "no thread's id"),
    ] {
        let e = proof_of(&text).expect_err(why);
        assert!(e.contains(why), "{why}: {e}");
    }
}
