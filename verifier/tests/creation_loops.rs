//! Thread creation in loops the lowering cannot unroll (a `goto retry` around the creations):
//! the first run of such a `pthread_create` starts its thread, a second run is a limit of the
//! model that the verdict names; and an unrolled creation loop whose count is an input does
//! not multiply the code after it once per count.

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

fn verdict(p: &Program, engine: Engine) -> Verdict {
    let opts = Options {
        timeout: Duration::from_secs(30),
        ..Options::default()
    };
    run_iterative(p, opts, engine, usize::MAX, None, &mut |_| {}).verdict
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

#[test]
fn a_creation_in_a_retry_loop_that_is_not_taken_is_safe() {
    let p = lower(&retry_program("!ok"), 64);
    assert_eq!(p.threads.len(), 2, "one worker thread");
    for engine in [Engine::Explicit, Engine::Impact] {
        assert_eq!(verdict(&p, engine), Verdict::Safe, "{engine:?}");
    }
}

#[test]
fn a_creation_run_again_on_an_input_is_a_named_limit_of_the_model() {
    let p = lower(&retry_program("__VERIFIER_nondet_int()"), 64);
    for engine in [Engine::Explicit, Engine::Impact] {
        match verdict(&p, engine) {
            Verdict::Unknown(why) => {
                assert!(why.contains("loops.c:15:7 run again"), "{engine:?}: {why}")
            }
            other => panic!("{engine:?}: {other:?}"),
        }
    }
}

#[test]
fn a_creation_run_again_under_every_schedule_is_a_named_limit_of_the_model() {
    // `again` is a global: no unrolling tells the two rounds apart.
    let p = lower(&retry_program("again && !(again = 0)"), 64);
    for engine in [Engine::Explicit, Engine::Impact] {
        match verdict(&p, engine) {
            Verdict::Unknown(why) => assert!(why.contains("run again"), "{engine:?}: {why}"),
            other => panic!("{engine:?}: {other:?}"),
        }
    }
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
