//! Thread creation in loops: a loop around a creation with no counter (a `goto retry`, a
//! `while (1)`) starts one thread per round until the thread bound refuses one; and an
//! unrolled creation loop whose count is an input does not multiply the code after it once
//! per count.

use std::time::Duration;
use verifier::engine::{run_iterative, Engine};
use verifier::frontend::{load_str, Options as FOpts};
use verifier::imc::{Options, Verdict};
use verifier::ir::Program;

fn lower(text: &str, max_threads: usize) -> Program {
    let opts = FOpts {
        max_threads,
        ..FOpts::default()
    };
    load_str("loops.c", text, &opts).expect("lowers")
}

fn report(p: &Program, engine: Engine) -> verifier::imc::Report {
    let opts = Options {
        timeout: Duration::from_secs(30),
        ..Options::default()
    };
    run_iterative(p, opts, engine, usize::MAX, None, &mut |_| {})
}

fn verdict(p: &Program, engine: Engine) -> Verdict {
    report(p, engine).verdict
}

/// A worker started again after a failed attempt, `retry` decided by `RETRY`.
fn retry_program(retry: &str) -> String {
    format!(
        r#"#include <pthread.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int ok, again = 1;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {{
  pthread_mutex_lock(&m);
  ok = 1;
  pthread_mutex_unlock(&m);
  return 0;
}}
int main(void) {{
  pthread_t t;
retry:
  if (pthread_create(&t, 0, worker, 0) != 0) return 1;
  pthread_join(t, 0);
  if ({retry}) goto retry;
  assert(ok == 1);
  return 0;
}}
"#
    )
}

/// The program's threads are the bound's, and no variable marks a creation run again (a
/// limit of the model).
fn unrolled_to_the_bound(p: &Program, bound: usize) {
    assert_eq!(
        p.threads.len(),
        bound,
        "one thread per round up to the bound"
    );
    assert_eq!(p.thread_bound, Some(bound));
    assert!(
        !p.vars.iter().any(|v| v.name.contains("run again")),
        "no creation runs again"
    );
}

/// Each round of a loop around a creation starts a thread of its own, until the bound
/// refuses one: whether the verdict names the bound depends on whether a run retries
/// (`meets_bound`).
#[test]
fn a_retry_loop_starts_one_thread_per_round_up_to_the_bound() {
    for (retry, retries) in [
        ("!ok", false),
        ("__VERIFIER_nondet_int()", true),
        // `again` is a global: the lowering cannot tell that the loop runs twice only.
        ("again && !(again = 0)", false),
    ] {
        let p = lower(&retry_program(retry), 4);
        unrolled_to_the_bound(&p, 4);
        for engine in [Engine::Explicit, Engine::Impact] {
            let r = report(&p, engine);
            assert_eq!(r.verdict, Verdict::Safe, "{retry}, {engine:?}");
            assert_eq!(r.meets_bound, retries, "{retry}, {engine:?}");
        }
    }
}

/// Workers started for ever, in a loop with no counter that the lowering could unroll: one
/// thread per round until the bound, then the creation fails in every round.
const FOR_EVER: &str = r#"#include <pthread.h>
#include <assert.h>
int value;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  LOCK;
  int v = value;
  if (v < 1000) {
    value = v + 1;
    assert(value == v + 1);
  }
  UNLOCK;
  return 0;
}
int main(void) {
  pthread_t t;
  while (1)
    pthread_create(&t, 0, worker, 0);
}
"#;

#[test]
fn a_loop_that_starts_threads_for_ever_is_unrolled_up_to_the_bound() {
    let locked = FOR_EVER
        .replace("LOCK", "pthread_mutex_lock(&m)")
        .replace("UNLOCK", "pthread_mutex_unlock(&m)");
    let p = lower(&locked, 4);
    unrolled_to_the_bound(&p, 4);
    for engine in [Engine::Explicit, Engine::Impact] {
        let r = report(&p, engine);
        assert_eq!(r.verdict, Verdict::Safe, "{engine:?}");
        assert!(r.meets_bound, "every run meets the bound, {engine:?}");
    }
    // Without the mutex, two workers race on `value`: a bug, and a schedule that avoids it.
    let racy = FOR_EVER.replace("UNLOCK", "").replace("LOCK", "");
    // (The symbolic engine goes on looking for other bugs until the time limit.)
    let p = lower(&racy, 3);
    unrolled_to_the_bound(&p, 3);
    assert_eq!(verdict(&p, Engine::Explicit), Verdict::PartiallySafe);
}

/// Workers created in a loop whose count is an input, joined in a loop, then a tail loop:
/// the code after the creation loop reads no counter value of it.
const COUNTED: &str = r#"#include <pthread.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
pthread_t ts[3];
int sum;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  pthread_mutex_lock(&m);
  sum++;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  int n = __VERIFIER_nondet_int(), i;
  if (n > 3) n = 3;
  for (i = 0; i < n; i++)
    pthread_create(&ts[i], 0, worker, 0);
  for (i = 0; i < n; i++)
    pthread_join(ts[i], 0);
  for (int k = 0; k < sum; k++)
    assert(sum <= 3);
  return 0;
}
"#;

#[test]
fn the_code_after_an_unrolled_creation_loop_is_lowered_once() {
    let p = lower(COUNTED, 64);
    // The assertion in the tail loop: one copy (it was one per count the creation loop
    // could exit with).
    let main = &p.threads[0];
    let copies = main
        .transitions
        .iter()
        .filter(|t| t.span.is_some_and(|s| s.line == 21) && t.dst == main.error)
        .count();
    assert_eq!(copies, 1, "the assertion's failure edge, once");
}

/// A register of the loop's body read after the loop (the last value read before a `break`,
/// defined in a block that dominates both exits, so no phi joins it): the copies of the body
/// for each count bind it apart, and the code after the loop must read the copy of the round
/// that left. The assertion fails when both workers ran before the second read.
const READ_IN_THE_BODY: &str = r#"#include <pthread.h>
#include <assert.h>
int g;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *w(void *a) { pthread_mutex_lock(&m); g++; pthread_mutex_unlock(&m); return 0; }
int main(void) {
  pthread_t t[2];
  int i = 0, x;
  while (1) {
    pthread_create(&t[i], 0, w, 0);
    pthread_mutex_lock(&m); x = g; pthread_mutex_unlock(&m);
    if (x > 0) break;
    if (++i >= 2) break;
  }
  assert(x < 2);
  return 0;
}
"#;

#[test]
fn a_value_of_the_last_round_of_an_unrolled_loop_is_read_after_it() {
    let p = lower(READ_IN_THE_BODY, 64);
    for engine in [Engine::Explicit, Engine::Impact] {
        assert!(
            matches!(
                verdict(&p, engine),
                Verdict::PartiallySafe | Verdict::Unsafe
            ),
            "{engine:?}"
        );
    }
}

/// Workers counted by an unsigned input stored in an `int` and checked into `[2, 4]`; each
/// marks its own slot. The conversion `(int)u` is checked, not `u`: the values of `u` above
/// `INT_MAX` fail the check as negative numbers.
const WORKERS_FROM_INPUT: &str = r#"#include <pthread.h>
#include <assert.h>
#include <stdlib.h>
extern unsigned __VERIFIER_nondet_uint(void);
int done[4];
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int next;
void *worker(void *arg) {
  pthread_mutex_lock(&m);
  int me = next;
  next = me + 1;
  pthread_mutex_unlock(&m);
  done[me] = 1;
  return 0;
}
int main(void) {
  pthread_t t[4];
  int n = __VERIFIER_nondet_uint();
  if (!(n >= 2 && n <= 4)) abort();
  for (int i = 0; i < n; i++) pthread_create(&t[i], 0, worker, 0);
  for (int i = 0; i < n; i++) pthread_join(t[i], 0);
  int sum = 0;
  for (int i = 0; i < n; i++) sum += done[i];
  assert(sum == n);
  return 0;
}
"#;

#[test]
fn a_worker_count_from_an_unsigned_input_checked_as_an_int_is_decided() {
    let p = lower(WORKERS_FROM_INPUT, 64);
    assert_eq!(verdict(&p, Engine::Explicit), Verdict::Safe);
}

#[test]
fn a_bug_a_schedule_avoids_for_every_worker_count_is_not_unsafe() {
    // Slots taken without the lock: two workers may take the same one, unless the scheduler
    // runs them one after another, whatever the input.
    let racy = WORKERS_FROM_INPUT
        .replace("pthread_mutex_lock(&m);", "")
        .replace("pthread_mutex_unlock(&m);", "");
    let r = report(&lower(&racy, 64), Engine::Explicit);
    assert_eq!(r.verdict, Verdict::PartiallySafe);
}
