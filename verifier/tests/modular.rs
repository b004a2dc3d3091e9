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

/// Workers that peek at the word of a mutex `main` holds: a view's stand-in for another
/// thread's mutex must not become data.
const PEEKS: &str = r#"
#include <pthread.h>
#include <assert.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  long o = __atomic_load_n((long *)&m, __ATOMIC_SEQ_CST);
  assert(o == 0 || o == -1);
  return 0;
}
int main(void) {
  pthread_t t[10];
  pthread_mutex_lock(&m);
  for (int i = 0; i < 10; i++) pthread_create(&t[i], 0, worker, 0);
  pthread_mutex_unlock(&m);
  for (int i = 0; i < 10; i++) pthread_join(t[i], 0);
  return 0;
}
"#;

/// A worker that reads the word of the mutex it holds: the ids of a function's threads
/// differ.
const OWN_WORD: &str = r#"
#include <pthread.h>
#include <assert.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  pthread_mutex_lock(&m);
  long o = *(volatile long *)&m;
  pthread_mutex_unlock(&m);
  assert(o == 2);
  return 0;
}
"#;

/// Workers that take an error-checking mutex by a compare-and-swap of their function's id.
const SWAPS_IN_AN_ID: &str = r#"
#include <pthread.h>
#include <assert.h>
pthread_mutex_t m;
void *worker(void *arg) {
  while (!__sync_bool_compare_and_swap((long *)&m, 0L, 2L)) { }
  int r = pthread_mutex_unlock(&m);
  assert(r == 0);
  return 0;
}
int main(void) {
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutex_init(&m, &a);
  pthread_t t[10];
  for (int i = 0; i < 10; i++) pthread_create(&t[i], 0, worker, 0);
  for (int i = 0; i < 10; i++) pthread_join(t[i], 0);
  return 0;
}
"#;

/// A branch on a quotient by an input, which may be 0.
const DIVIDES_BY_AN_INPUT: &str = r#"
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
int y;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  int v = __VERIFIER_nondet_int();
  if (100 / v > 1) { pthread_mutex_lock(&m); y = 1; pthread_mutex_unlock(&m); }
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
        (PEEKS.to_string(), "reads a mutex"),
        (pool(OWN_WORD, 10), "reads a mutex"),
        (SWAPS_IN_AN_ID.to_string(), "mutex"),
        (pool(DIVIDES_BY_AN_INPUT, 10), "not known"),
    ] {
        let e = proof_of(&text).expect_err(why);
        assert!(e.contains(why), "{why}: {e}");
    }
}

/// A bug of the program with at most `n` threads per start function, by the stateless
/// search: the program the proof must not show safe is not.
fn bug_with(text: &str, n: usize) {
    let p = lower(text, 64, Some(n));
    let r = explore::explore(&p, &Unguided, &explore::Options::default(), None);
    assert!(!r.bugs.is_empty(), "{n} threads: no bug found");
}

/// Ten cache entries, each with its own mutex and reference count; every worker and `main`
/// count a reference to each in turn, in two sections of a statistics lock inside the
/// entry's (goblint's `access` macro), or check that none is counted. With the ten mutexes
/// held by others in every combination, the views of a proof that tracked them would
/// multiply by 3^10; through the entries' invariants they do not.
const CACHE: &str = r#"
#include <pthread.h>
#include <assert.h>
#define N 10
extern int __VERIFIER_nondet_int(void);
struct entry { int refs; pthread_mutex_t lock; } cache[N];
pthread_mutex_t stats = PTHREAD_MUTEX_INITIALIZER;
void visit(struct entry *e) {
  pthread_mutex_lock(&e->lock);
  if (__VERIFIER_nondet_int()) {
    pthread_mutex_lock(&stats); e->refs++; pthread_mutex_unlock(&stats);
    pthread_mutex_lock(&stats); e->refs--; pthread_mutex_unlock(&stats);
  } else {
    pthread_mutex_lock(&stats); assert(e->refs == 0); pthread_mutex_unlock(&stats);
  }
  pthread_mutex_unlock(&e->lock);
}
void *worker(void *arg) {
  for (int i = 0; i < N; i++) visit(&cache[i]);
  return 0;
}
int main(void) {
  for (int i = 0; i < N; i++) pthread_mutex_init(&cache[i].lock, 0);
  pthread_t t[100];
  for (int i = 0; i < 100; i++) pthread_create(&t[i], 0, worker, 0);
  for (int i = 0; i < N; i++) visit(&cache[i]);
  LAST
  for (int i = 0; i < 100; i++) pthread_join(t[i], 0);
  return 0;
}
"#;

#[test]
fn cells_guarded_by_their_own_mutexes_are_seen_through_them() {
    let safe = CACHE.replace("LAST", "");
    let proof = proof_of(&safe).expect("proved");
    assert_eq!(proof.guarded, 10, "each count guarded by its entry's mutex");
    // (The search of every interleaving, with two entries.)
    let two = |text: &str| text.replace("#define N 10", "#define N 2");
    no_bug_with(&two(&safe), 1);
    // `main` checks the second count holding the first entry's mutex: not guarded any more,
    // and a worker may be between its two sections.
    let racing = CACHE.replace(
        "LAST",
        "pthread_mutex_lock(&cache[0].lock);\n  pthread_mutex_lock(&stats);\n  \
         assert(cache[1].refs == 0);\n  pthread_mutex_unlock(&stats);\n  \
         pthread_mutex_unlock(&cache[0].lock);",
    );
    bug_with(&two(&racing), 1);
    let why = proof_of(&racing).expect_err("racing");
    assert!(why.contains("error"), "{why}");
}

/// Workers that take a mutex when they can (`trylock`), and count the attempts that find it
/// taken: `main` checks that none did, which fails once two workers try at once.
const TRIES: &str = r#"
#include <pthread.h>
#include <assert.h>
int busy, inside;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t g = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  if (pthread_mutex_trylock(&m) == 0) {
    inside = 1;
    assert(inside == 1);
    inside = 0;
    pthread_mutex_unlock(&m);
  } else {
    pthread_mutex_lock(&g); busy = 1; pthread_mutex_unlock(&g);
  }
  pthread_mutex_lock(&g);
  assert(busy == 0);
  pthread_mutex_unlock(&g);
  return 0;
}
"#;

/// A worker that releases a mutex it never took, while another is inside its section.
const RELEASES_ANOTHERS: &str = r#"
#include <pthread.h>
#include <assert.h>
int x;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  pthread_mutex_unlock(&m);
  pthread_mutex_lock(&m);
  x = 1;
  assert(x == 1);
  x = 0;
  pthread_mutex_unlock(&m);
  return 0;
}
"#;

/// Workers count under a mutex, and `main`, after starting them, reads the count without
/// it.
const READS_UNLOCKED: &str = r#"
#include <pthread.h>
#include <assert.h>
int count;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  pthread_mutex_lock(&m); count++; count--; pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t[10];
  for (int i = 0; i < 10; i++) pthread_create(&t[i], 0, worker, 0);
  assert(count == 0);
  for (int i = 0; i < 10; i++) pthread_join(t[i], 0);
  return 0;
}
"#;

/// A cell written under one mutex and read under another.
const TWO_MUTEXES: &str = r#"
#include <pthread.h>
#include <assert.h>
int x;
pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  pthread_mutex_lock(&a); x = 1; x = 0; pthread_mutex_unlock(&a);
  pthread_mutex_lock(&b); assert(x == 0); pthread_mutex_unlock(&b);
  return 0;
}
"#;

/// A mutex initialised again while workers may hold it.
const INITIALISED_AGAIN: &str = r#"
#include <pthread.h>
int x;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  pthread_mutex_lock(&m); x = 1; x = 0; pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t[10];
  for (int i = 0; i < 10; i++) {
    pthread_create(&t[i], 0, worker, 0);
    pthread_mutex_init(&m, 0);
  }
  for (int i = 0; i < 10; i++) pthread_join(t[i], 0);
  return 0;
}
"#;

#[test]
fn views_that_forget_others_mutexes_miss_no_bug() {
    for (text, why, n) in [
        (pool(TRIES, 10), "error", 2),
        (pool(RELEASES_ANOTHERS, 10), "does not hold", 2),
        (READS_UNLOCKED.to_string(), "error", 1),
        (pool(TWO_MUTEXES, 10), "error", 2),
    ] {
        bug_with(&text, n);
        let e = proof_of(&text).expect_err(why);
        assert!(e.contains(why), "{why}: {e}");
    }
    // (Refused where it reads the mutex, before it writes it.)
    let e = proof_of(INITIALISED_AGAIN).expect_err("initialised");
    assert!(e.contains("mutex"), "{e}");
}

/// An input that picks which of two structures `main` works on, and is then counted up
/// (unsigned, so that the count is defined for every input): the branch on it is taken both
/// ways, and the sum of it decides nothing.
const PICKS: &str = r#"
#include <pthread.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
struct s { int datum; pthread_mutex_t m; } A, B;
void *worker(void *arg) {
  pthread_mutex_lock(&A.m); A.datum++; A.datum--; pthread_mutex_unlock(&A.m);
  return 0;
}
int main(void) {
  pthread_mutex_init(&A.m, 0);
  pthread_mutex_init(&B.m, 0);
  unsigned x = __VERIFIER_nondet_int();
  struct s *s;
  if (x) { s = &A; x++; } else { s = &B; x++; }
  pthread_t t[10];
  for (int i = 0; i < 10; i++) pthread_create(&t[i], 0, worker, 0);
  pthread_mutex_lock(&s->m);
  assert(s->datum == 0);
  pthread_mutex_unlock(&s->m);
  for (int i = 0; i < 10; i++) pthread_join(t[i], 0);
  return 0;
}
"#;

#[test]
fn a_branch_on_an_input_is_taken_both_ways() {
    proof_of(PICKS).expect("proved");
    no_bug_with(PICKS, 2);
    // Picking `A`'s datum with `B`'s mutex races with the workers.
    let racing = PICKS
        .replace("pthread_mutex_lock(&s->m)", "pthread_mutex_lock(&B.m)")
        .replace("pthread_mutex_unlock(&s->m)", "pthread_mutex_unlock(&B.m)");
    bug_with(&racing, 1);
    let why = proof_of(&racing).expect_err("racing");
    assert!(why.contains("error"), "{why}");
}

/// Workers and `main` each pick an element of an array by an input, checked to be in
/// bounds, and work on it under its own mutex: an input that only indexes and is compared
/// with constants takes each index and one value of each stretch around the bounds.
const INDEXED: &str = r#"
#include <pthread.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
struct s { int datum; pthread_mutex_t m; } a[10];
void *worker(void *arg) {
  int i = __VERIFIER_nondet_int();
  if (i < 0 || i >= 10) return 0;
  pthread_mutex_lock(&a[i].m); a[i].datum++; a[i].datum--; pthread_mutex_unlock(&a[i].m);
  return 0;
}
int main(void) {
  for (int i = 0; i < 10; i++) pthread_mutex_init(&a[i].m, 0);
  int i = __VERIFIER_nondet_int();
  if (i < 0 || i >= 10) return 0;
  pthread_t t[10];
  for (int k = 0; k < 10; k++) pthread_create(&t[k], 0, worker, 0);
  pthread_mutex_lock(&a[i].m);
  assert(a[i].datum == 0);
  pthread_mutex_unlock(&a[i].m);
  for (int k = 0; k < 10; k++) pthread_join(t[k], 0);
  return 0;
}
"#;

#[test]
fn an_input_that_indexes_an_array_takes_every_index() {
    let proof = proof_of(INDEXED).expect("proved");
    assert_eq!(proof.guarded, 10);
    no_bug_with(INDEXED, 1);
    // `main` checks its element holding the first one's mutex.
    let racing = INDEXED
        .replace(
            "pthread_mutex_lock(&a[i].m);\n  assert",
            "pthread_mutex_lock(&a[0].m);\n  assert",
        )
        .replace(
            "assert(a[i].datum == 0);\n  pthread_mutex_unlock(&a[i].m);",
            "assert(a[i].datum == 0);\n  pthread_mutex_unlock(&a[0].m);",
        );
    assert!(racing.contains("pthread_mutex_unlock(&a[0].m)"));
    bug_with(&racing, 1);
    let why = proof_of(&racing).expect_err("racing");
    assert!(why.contains("error"), "{why}");
    // A worker's index not checked: out of bounds for most values.
    let unchecked = INDEXED.replacen("  if (i < 0 || i >= 10) return 0;\n", "", 1);
    assert!(proof_of(&unchecked).is_err());
}

/// An input read other than whole in its own type: as a pointer, through an index, or a
/// byte of it through a pointer to its struct; each has values the representatives miss.
const INPUT_AS_POINTER: &str = r#"
#include <pthread.h>
#include <assert.h>
extern long __VERIFIER_nondet_long(void);
void *worker(void *arg) {
  long x = __VERIFIER_nondet_long();
  char *p = *(char **)&x;
  if (p == (char *)1234) assert(0);
  return 0;
}
"#;

const INPUT_BY_INDEX: &str = r#"
#include <pthread.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
void *worker(void *arg) {
  int x = __VERIFIER_nondet_int();
  int y = 0;
  for (int j = 0; j < 1; j++) y = (&x)[j];
  if (y == 12345) assert(0);
  return 0;
}
"#;

const INPUT_BY_BYTE: &str = r#"
#include <pthread.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
void *worker(void *arg) { return 0; }
int main(void) {
  struct { int a; int b; } s;
  s.a = 0;
  s.b = __VERIFIER_nondet_int();
  char *p = (char *)&s;
  for (int j = 4; j < 5; j++)
    if (p[j] == 7) assert(0);
  pthread_t t[10];
  for (int k = 0; k < 10; k++) pthread_create(&t[k], 0, worker, 0);
  for (int k = 0; k < 10; k++) pthread_join(t[k], 0);
  return 0;
}
"#;

#[test]
fn inputs_read_other_than_whole_take_every_value() {
    for text in [
        pool(INPUT_AS_POINTER, 10),
        pool(INPUT_BY_INDEX, 10),
        INPUT_BY_BYTE.to_string(),
    ] {
        let e = proof_of(&text).expect_err("an input value fails");
        assert!(e.contains("error"), "{e}");
    }
}

/// Workers that each set a flag and check it inside one atomic region, while the others
/// clear it inside theirs: safe for any number of threads, since no other thread moves
/// inside a region.
const IN_ONE_REGION: &str = r#"
#include <pthread.h>
#include <assert.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int flag;
void *worker(void *arg) {
  __VERIFIER_atomic_begin();
  flag = 1;
  assert(flag == 1);
  flag = 0;
  __VERIFIER_atomic_end();
  return 0;
}
"#;

/// The same check in a region of its own: a worker between its two regions lets another
/// clear the flag.
const IN_TWO_REGIONS: &str = r#"
#include <pthread.h>
#include <assert.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int flag;
void *worker(void *arg) {
  int mine = 0;
  __VERIFIER_atomic_begin();
  if (flag == 0) { flag = 1; mine = 1; }
  __VERIFIER_atomic_end();
  __VERIFIER_atomic_begin();
  assert(flag == 1);
  if (mine) flag = 0;
  __VERIFIER_atomic_end();
  return 0;
}
"#;

/// A worker that takes a mutex inside an atomic region: where another holds it, no thread
/// can move again.
const LOCKS_IN_A_REGION: &str = r#"
#include <pthread.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  pthread_mutex_lock(&m);
  pthread_mutex_unlock(&m);
  __VERIFIER_atomic_begin();
  pthread_mutex_lock(&m);
  pthread_mutex_unlock(&m);
  __VERIFIER_atomic_end();
  return 0;
}
"#;

#[test]
fn atomic_regions_let_no_other_thread_move() {
    let safe = pool(IN_ONE_REGION, 10);
    let (v, note, modular) = verdict(&safe, 4);
    assert_eq!(v, Verdict::Safe);
    assert!(modular, "shown by the thread-modular proof");
    assert_eq!(note, "", "no `with at most` qualification");
    for n in 1..=3 {
        no_bug_with(&safe, n);
    }
    // One worker is safe, two are not: the proof must not hold.
    let racing = pool(IN_TWO_REGIONS, 10);
    no_bug_with(&racing, 1);
    let why = proof_of(&racing).expect_err("two workers fail");
    assert!(why.contains("error"), "{why}");
    let (v, _, modular) = verdict(&racing, 4);
    assert_ne!(v, Verdict::Safe);
    assert!(!modular);
    let why = proof_of(&pool(LOCKS_IN_A_REGION, 10)).expect_err("a wait in a region");
    assert!(why.contains("inside an atomic region"), "{why}");
}
