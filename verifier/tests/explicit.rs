//! The explicit-state engine (`verifier::explicit`) through `verifier::engine`, on programs
//! lowered by the LLVM front end: each verdict is the expected one, every safe IVR passes the
//! independent checks of its IVR file, every counterexample replays, a program whose inputs
//! decide something is left to the symbolic engine, and a value it only assumed (an input,
//! memory never written) never yields `safe`.

use std::time::Duration;
use verifier::engine::{run_iterative, Engine};
use verifier::frontend::load_str;
use verifier::frontend::Options as FOpts;
use verifier::imc::{Ivr, IvrKind, Options, Report, Verdict};
use verifier::interp::Outcome;
use verifier::ir::{Program, SyncKind, TransKind};
use verifier::ivr::{verify_file, Checked, IvrFile};

fn lower(name: &str, text: &str) -> Program {
    load_str(name, text, &FOpts::default()).expect("lowers")
}

/// Runs `engine`; checks every IVR through its file (the IVR checker for safe ones, replay
/// for counterexamples).
fn verify(p: &Program, engine: Engine) -> (Report, Vec<Ivr>) {
    let opts = Options {
        timeout: Duration::from_secs(30),
        ..Options::default()
    };
    let mut ivrs = Vec::new();
    let r = run_iterative(p, opts, engine, usize::MAX, None, &mut |i| {
        ivrs.push(i.clone())
    });
    for ivr in &ivrs {
        let text = serde_json::to_string(&IvrFile::new(p, ivr)).unwrap();
        let checked = verify_file(p, &text, 30_000);
        match &ivr.kind {
            IvrKind::Safe(a) => assert_eq!(checked, Ok(Checked::Safe { nodes: a.len() })),
            IvrKind::Counterexample(_) => {
                assert!(
                    matches!(checked, Ok(Checked::Counterexample { .. })),
                    "{checked:?}"
                )
            }
        }
    }
    assert_eq!(r.ivrs, ivrs.len());
    (r, ivrs)
}

/// Neither the explicit engine alone nor the default one says `safe`.
fn never_safe(p: &Program) {
    for engine in [Engine::Explicit, Engine::Auto] {
        let (r, _) = verify(p, engine);
        assert!(
            !matches!(r.verdict, Verdict::Safe),
            "{engine:?}: {:?}",
            r.verdict
        );
    }
}

const LOCKED: &str = r#"
#include <pthread.h>
#include <assert.h>
int count;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *inc(void *a) {
  for (int i = 0; i < 3; i++) {
    pthread_mutex_lock(&m);
    count = count + 1;
    pthread_mutex_unlock(&m);
  }
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, inc, 0);
  pthread_create(&t2, 0, inc, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(count == 6);
  return 0;
}
"#;

#[test]
fn a_safe_program_is_safe_with_a_checked_schedule() {
    let p = lower("locked.c", LOCKED);
    let (r, ivrs) = verify(&p, Engine::Explicit);
    assert_eq!(r.verdict, Verdict::Safe);
    assert!(matches!(
        ivrs.first().map(|i| &i.kind),
        Some(IvrKind::Safe(_))
    ));
    assert!(r.first_safe_ivr.is_some());
}

#[test]
fn a_lost_update_is_partially_safe_with_a_replayed_bug() {
    let p = lower(
        "lost.c",
        &LOCKED
            .replace("pthread_mutex_lock(&m);", "")
            .replace("pthread_mutex_unlock(&m);", ""),
    );
    let (r, ivrs) = verify(&p, Engine::Explicit);
    assert_eq!(r.verdict, Verdict::PartiallySafe);
    let c = r.counterexample.expect("a counterexample");
    assert!(
        matches!(c.execution.outcome, Outcome::Error { .. }),
        "{:?}",
        c.execution.outcome
    );
    assert!(ivrs.iter().any(|i| matches!(i.kind, IvrKind::Safe(_))));
}

#[test]
fn a_deadlock_is_a_bug_that_a_schedule_avoids() {
    let p = lower(
        "deadlock.c",
        r#"
#include <pthread.h>
pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
void *t1(void *x) { pthread_mutex_lock(&a); pthread_mutex_lock(&b);
  pthread_mutex_unlock(&b); pthread_mutex_unlock(&a); return 0; }
void *t2(void *x) { pthread_mutex_lock(&b); pthread_mutex_lock(&a);
  pthread_mutex_unlock(&a); pthread_mutex_unlock(&b); return 0; }
int main(void) {
  pthread_t x, y;
  pthread_create(&x, 0, t1, 0);
  pthread_create(&y, 0, t2, 0);
  pthread_join(x, 0);
  pthread_join(y, 0);
  return 0;
}
"#,
    );
    let (r, _) = verify(&p, Engine::Explicit);
    assert_eq!(r.verdict, Verdict::PartiallySafe);
    let c = r.counterexample.expect("a counterexample");
    assert!(matches!(c.execution.outcome, Outcome::Deadlock { .. }));
}

/// A bounded buffer whose waiter counts start uninitialised (a local of `main`): a waiting
/// consumer is signalled only if the count it raised reads above 0, so with some initial
/// value it waits forever. A safe schedule never lets a thread wait; the search finds it
/// where the wait, not the end of the execution, shows the choice to be wrong (without
/// that, it refutes every interleaving after a wait first: more than 2 million states for
/// three producers and three consumers of four items). The deadlock is found as well.
#[test]
fn a_schedule_that_never_waits_is_found_where_a_wait_may_never_end() {
    let p = lower("waiters.c", WAITERS);
    let (r, ivrs) = verify(&p, Engine::Explicit);
    assert!(matches!(ivrs[0].kind, IvrKind::Safe(_)), "{:?}", r.verdict);
    assert_eq!(r.verdict, Verdict::PartiallySafe);
    let c = r.counterexample.expect("a counterexample");
    assert!(matches!(c.execution.outcome, Outcome::Deadlock { .. }));
}

const WAITERS: &str = r#"
#include <pthread.h>
#include <stdlib.h>
#define PRODUCERS 3
#define CONSUMERS 3
#define ITEMS 4
struct buf {
  pthread_mutex_t m;
  pthread_cond_t not_full, not_empty;
  int items[3];
  int head, rear;
  unsigned p_wait, c_wait; /* never initialised */
};
void put(struct buf *b, int x) {
  pthread_mutex_lock(&b->m);
  if ((b->rear + 1) % 3 == b->head) {
    b->p_wait++;
    while ((b->rear + 1) % 3 == b->head)
      pthread_cond_wait(&b->not_full, &b->m);
    b->p_wait--;
  }
  b->items[b->rear] = x;
  b->rear = (b->rear + 1) % 3;
  if (b->c_wait > 0)
    pthread_cond_signal(&b->not_empty);
  pthread_mutex_unlock(&b->m);
}
int get(struct buf *b) {
  pthread_mutex_lock(&b->m);
  if (b->rear == b->head) {
    b->c_wait++;
    while (b->rear == b->head)
      pthread_cond_wait(&b->not_empty, &b->m);
    b->c_wait--;
  }
  int x = b->items[b->head];
  b->head = (b->head + 1) % 3;
  if (b->p_wait > 0)
    pthread_cond_signal(&b->not_full);
  pthread_mutex_unlock(&b->m);
  return x;
}
void *producer(void *a) {
  for (int i = 0; i < ITEMS; i++)
    put(a, i);
  return 0;
}
void *consumer(void *a) {
  for (int i = 0; i < ITEMS; i++)
    get(a);
  return 0;
}
int main(void) {
  struct buf b;
  pthread_t p[PRODUCERS], c[CONSUMERS];
  pthread_mutex_init(&b.m, 0);
  pthread_cond_init(&b.not_full, 0);
  pthread_cond_init(&b.not_empty, 0);
  b.head = b.rear = 0;
  for (int i = 0; i < PRODUCERS; i++)
    pthread_create(&p[i], 0, producer, &b);
  for (int i = 0; i < CONSUMERS; i++)
    pthread_create(&c[i], 0, consumer, &b);
  for (int i = 0; i < PRODUCERS; i++)
    pthread_join(p[i], 0);
  for (int i = 0; i < CONSUMERS; i++)
    pthread_join(c[i], 0);
  return 0;
}
"#;

/// A reader that has read a value too early is bound to fail once it runs again: its next
/// steps read nothing another thread writes (the second program's writes `done` first). A
/// schedule that never runs it again (`main` spinning) is unfair, so the safe one lets the
/// writer go first, and the early read is the bug.
#[test]
fn a_thread_bound_to_fail_is_not_starved_by_the_schedule() {
    for (name, reader) in [
        ("checks.c", "int v = x; assert(v == 1); done = 1;"),
        ("writes.c", "int v = x; done = 1; assert(v == 1);"),
    ] {
        let text = format!(
            r#"
#include <pthread.h>
#include <assert.h>
int x, done;
void *reader(void *a) {{ {reader} return 0; }}
int main(void) {{
  pthread_t t;
  pthread_create(&t, 0, reader, 0);
  x = 1;
  while (!done)
    ;
  pthread_join(t, 0);
  return 0;
}}
"#
        );
        let p = lower(name, &text);
        let (r, ivrs) = verify(&p, Engine::Explicit);
        assert_eq!(r.verdict, Verdict::PartiallySafe, "{name}");
        assert!(
            ivrs.iter().any(|i| matches!(i.kind, IvrKind::Safe(_))),
            "{name}"
        );
        let c = r.counterexample.expect("the early read");
        assert!(
            matches!(c.execution.outcome, Outcome::Error { .. }),
            "{name}"
        );
    }
}

#[test]
fn a_busy_wait_gets_a_fair_schedule() {
    let p = lower(
        "spin.c",
        r#"
#include <pthread.h>
#include <assert.h>
int flag, data;
void *producer(void *a) { data = 42; flag = 1; return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  while (!flag) ;
  assert(data == 42);
  pthread_join(t, 0);
  return 0;
}
"#,
    );
    let (r, _) = verify(&p, Engine::Explicit);
    assert_eq!(r.verdict, Verdict::Safe);
}

#[test]
fn no_safe_schedule_is_unsafe() {
    let p = lower(
        "unsafe.c",
        r#"
#include <pthread.h>
#include <assert.h>
int x;
void *w(void *a) { x = 1; return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  pthread_join(t, 0);
  assert(x == 0);
  return 0;
}
"#,
    );
    let (r, ivrs) = verify(&p, Engine::Explicit);
    assert_eq!(r.verdict, Verdict::Unsafe);
    assert!(ivrs
        .iter()
        .all(|i| matches!(i.kind, IvrKind::Counterexample(_))));
}

/// An input the program carries around (into a heap buffer, out to `printf`) without
/// deciding anything with it, and a loop that would `free` it if it ran.
const CARRIED_INPUT: &str = r#"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
void **buf;
int n;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *producer(void *a) {
  for (int i = 0; i < 3; i++) {
    int ch = 'a' + abs(rand()) % 26;
    pthread_mutex_lock(&m);
    buf[i] = (void *)(long)ch;
    n++;
    pthread_mutex_unlock(&m);
  }
  return 0;
}
int main(void) {
  pthread_t t;
  buf = malloc(3 * sizeof(void *));
  if (!buf) return 0;
  pthread_create(&t, 0, producer, 0);
  pthread_join(t, 0);
  for (int i = 0; i < 3; i++) printf("%d\n", (int)(long)buf[i]);
  for (int i = FIRST; i < 3; i++) free(buf[i]);
  return 0;
}
"#;

#[test]
fn an_input_that_decides_nothing_is_proved_for_every_value() {
    let p = lower("carried.c", &CARRIED_INPUT.replace("FIRST", "n"));
    let (r, ivrs) = verify(&p, Engine::Explicit);
    assert_eq!(r.verdict, Verdict::Safe);
    assert!(matches!(ivrs[0].kind, IvrKind::Safe(_)));
    // Here the loop frees a character: an invalid free whatever the input.
    let p = lower("carried.c", &CARRIED_INPUT.replace("FIRST", "n - 1"));
    for engine in [Engine::Explicit, Engine::Auto] {
        let (r, _) = verify(&p, engine);
        assert!(
            !matches!(r.verdict, Verdict::Safe | Verdict::PartiallySafe),
            "{engine:?}: {:?}",
            r.verdict
        );
    }
}

/// Input read with `scanf` (a number and a word of at most its width, into memory another
/// thread reads): whatever the input, the program is proved safe; a word without a width
/// overflows its buffer for a long enough input.
#[test]
fn what_scanf_reads_is_any_input() {
    const SCANNED: &str = r#"
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
int value;
char word[6];
void *reader(void *arg) { return (void *)(long)(value > 0 && strlen(word) < sizeof word); }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, reader, 0);
  if (scanf("%d WIDTH", &value, word) != 2)
    value = 0;
  pthread_join(t, 0);
  assert(strlen(word) < sizeof word);
  return 0;
}
"#;
    let p = lower("scanned.c", &SCANNED.replace("WIDTH", "%5s"));
    let (r, ivrs) = verify(&p, Engine::Auto);
    assert_eq!(r.verdict, Verdict::Safe);
    assert!(matches!(ivrs[0].kind, IvrKind::Safe(_)));
    let p = lower("scanned.c", &SCANNED.replace("WIDTH", "%s"));
    let (r, ivrs) = verify(&p, Engine::Explicit);
    assert!(!matches!(r.verdict, Verdict::Safe), "{:?}", r.verdict);
    assert!(ivrs
        .iter()
        .any(|i| matches!(i.kind, IvrKind::Counterexample(_))));
}

/// A value checked into a small range (a setting read with `scanf`, a default where the input
/// has none or one out of range) decides how many rounds two threads count into a shared
/// total: the search splits it into one case per value, so the program is proved safe for
/// every input, with an IVR whose scheduler chooses alike in the cases (which the runtime
/// cannot tell apart), and a bug for one value only is found with a replayed trace.
#[test]
fn a_value_checked_into_a_small_range_is_split_into_cases() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/programs/idioms");
    let text = std::fs::read_to_string(dir.join("stdin_setting.c")).expect("idiom");
    let (r, ivrs) = verify(&lower("stdin_setting.c", &text), Engine::Explicit);
    assert_eq!(r.verdict, Verdict::Safe);
    let safe = ivrs.iter().find_map(|i| match &i.kind {
        IvrKind::Safe(a) => Some(a),
        _ => None,
    });
    let safe = safe.expect("a safe IVR");
    assert!(verifier::cases::has_cases(safe), "its cases");
    let four = "assert(total == 2 * rounds && total != 8);";
    let bad = text.replace("assert(total == 2 * rounds);", four);
    assert_ne!(bad, text);
    let (r, ivrs) = verify(&lower("four_rounds.c", &bad), Engine::Explicit);
    assert!(!matches!(r.verdict, Verdict::Safe), "{:?}", r.verdict);
    assert!(ivrs
        .iter()
        .any(|i| matches!(i.kind, IvrKind::Counterexample(_))));
}

/// An input checked into range with `&&` (`assume(0 <= i && i < 4)` in a function that
/// aborts) picks which cell of an array of locked structs `main` checks: the explicit engine
/// splits the input into its four cases, so a program whose workers only touch their own
/// cell is proved safe for every input, and one whose workers touch their neighbour's cell
/// (a race on the checked value) is partially safe with a replayed bug.
#[test]
fn an_index_checked_into_range_picks_a_cell_case_by_case() {
    let text = r#"
#include <pthread.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned, const char *);
static void assume_abort_if_not(int cond) { if (!cond) abort(); }
pthread_mutex_t global = PTHREAD_MUTEX_INITIALIZER;
struct cell { int datum; pthread_mutex_t mutex; } a[4];
static void touch(int *x) {
  pthread_mutex_lock(&global); (*x)++; pthread_mutex_unlock(&global);
  pthread_mutex_lock(&global); (*x)--; pthread_mutex_unlock(&global);
}
void *worker(void *arg) {
  struct cell *c = arg;
  pthread_mutex_lock(&c->mutex);
  touch(&c[OFF].datum);
  pthread_mutex_unlock(&c->mutex);
  return NULL;
}
int main(void) {
  pthread_t t[2];
  for (int i = 0; i < 4; i++) pthread_mutex_init(&a[i].mutex, NULL);
  int i = __VERIFIER_nondet_int();
  assume_abort_if_not(0 <= i && i < 4);
  for (int k = 0; k < 2; k++) pthread_create(&t[k], NULL, worker, &a[k]);
  pthread_mutex_lock(&a[i].mutex);
  pthread_mutex_lock(&global);
  if (a[i].datum != 0) __assert_fail("racefree", "cells.c", 0, "main");
  pthread_mutex_unlock(&global);
  pthread_mutex_unlock(&a[i].mutex);
  for (int k = 0; k < 2; k++) pthread_join(t[k], NULL);
  return 0;
}
"#;
    let (r, _) = verify(
        &lower("cells.c", &text.replace("OFF", "0")),
        Engine::Explicit,
    );
    assert_eq!(r.verdict, Verdict::Safe);
    let (r, _) = verify(
        &lower("cells.c", &text.replace("OFF", "1")),
        Engine::Explicit,
    );
    assert_eq!(r.verdict, Verdict::PartiallySafe);
    let c = r.counterexample.expect("a replayed bug");
    assert!(matches!(c.execution.outcome, Outcome::Error { .. }));
}

/// A deadline computed from the clock in the fields of a `struct timespec` (whose address
/// `clock_gettime` takes): the nanoseconds the clock gives are below 10^9, so adding 0.2 s
/// cannot overflow, and the explicit engine proves it with the field's interval where it is
/// computed; adding more than `LONG_MAX - 10^9` may overflow, which is never `safe`.
#[test]
fn a_deadline_computed_in_the_fields_of_a_timespec_is_in_range() {
    let text = |add: &str| {
        format!(
            r#"
#include <stdio.h>
#include <time.h>
int main(void) {{
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  ts.tv_nsec += {add};
  if (ts.tv_nsec >= 1000000000) {{
    ts.tv_sec += 1;
    ts.tv_nsec -= 1000000000;
  }}
  printf("%ld\n", (long)ts.tv_nsec);
  return 0;
}}
"#
        )
    };
    let (r, _) = verify(&lower("deadline.c", &text("200000000")), Engine::Explicit);
    assert_eq!(r.verdict, Verdict::Safe);
    never_safe(&lower("deadline.c", &text("9223372036000000000L")));
}

/// Two branches on the same input: the search explores each both ways (the value is not
/// known), so it meets paths no execution takes (`n == 3`, then `n != 3`); where a branch
/// leaves one value (`n == 3` taken), it is split into that case, and the paths agree.
#[test]
fn branches_that_agree_on_an_input_are_decided_for_every_value() {
    let text = r#"
#include <pthread.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int g;
void *w(void *a) { g = 1; return 0; }
int main(void) {
  int n = __VERIFIER_nondet_int();
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  pthread_join(t, 0);
  assert(n != 5 || g == 1);
  assert(n != 0 || g == 1);
  if (n == 3) g = 2;
  assert(g == 1 || n == 3);
  return 0;
}
"#;
    let p = lower("input.c", text);
    for engine in [Engine::Explicit, Engine::Auto] {
        let (r, _) = verify(&p, engine);
        assert_eq!(r.verdict, Verdict::Safe, "{engine:?}");
    }
    // A bug for one value of the input only: never safe.
    let p = lower("input.c", &text.replace("g == 1 || n == 3", "g == 1"));
    never_safe(&p);
}

#[test]
fn a_value_of_memory_never_written_is_never_proved_safe() {
    // The search takes uninitialised memory to be 0, so it finds no bug here; its ART must
    // not pass the checker, which knows the value is arbitrary.
    let p = lower(
        "uninit.c",
        r#"
#include <stdlib.h>
#include <assert.h>
int main(void) {
  int *p = malloc(sizeof *p);
  if (!p) return 0;
  assert(*p != 7);
  free(p);
  return 0;
}
"#,
    );
    never_safe(&p);
}

/// A mutex in `malloc`ed memory and a word written into a byte buffer: accesses of another
/// width than the cells they land on, performed byte by byte (little-endian).
const BYTES: &str = r#"
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>
pthread_mutex_t *m;
int count;
void *inc(void *a) {
  pthread_mutex_lock(m);
  count = count + 1;
  pthread_mutex_unlock(m);
  return 0;
}
int main(void) {
  m = malloc(sizeof *m);
  unsigned char *b = malloc(8);
  if (!m || !b) return 0;
  b[0] = 9;
  pthread_mutex_init(m, 0);
  *(unsigned int *)(b + 1) = 0x01020304u;
  pthread_t t;
  pthread_create(&t, 0, inc, 0);
  pthread_mutex_lock(m);
  count = count + 1;
  pthread_mutex_unlock(m);
  pthread_join(t, 0);
  assert(count == 2);
  assert(b[0] == 9 && b[1] == 4 && b[4] == 1);
  assert(*(unsigned short *)(b + 2) == 0x0203);
  assert(WRONG);
  return 0;
}
"#;

#[test]
fn accesses_by_bytes_are_checked_as_the_interpreter_performs_them() {
    // Safe only if the checker's encoding agrees with the interpreter byte for byte.
    let p = lower("bytes.c", &BYTES.replace("WRONG", "1"));
    let (r, _) = verify(&p, Engine::Explicit);
    assert_eq!(r.verdict, Verdict::Safe);
    // Big-endian order is wrong: a replayed assertion failure under every schedule.
    let p = lower("bytes.c", &BYTES.replace("WRONG", "b[1] == 1"));
    let (r, _) = verify(&p, Engine::Explicit);
    assert_eq!(r.verdict, Verdict::Unsafe);
    assert!(matches!(
        r.counterexample.map(|c| c.execution.outcome),
        Some(Outcome::Error { .. })
    ));
}

/// A stack of inputs: the values are carried around, only the count decides anything, unless
/// `USE` makes a popped value matter.
const CARRIED: &str = r#"
#include <pthread.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int stack[4], top;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *producer(void *a) {
  for (int i = 0; i < 3; i++) {
    int v = __VERIFIER_nondet_int();
    pthread_mutex_lock(&m);
    assert(top < 4);
    stack[top] = v;
    top = top + 1;
    pthread_mutex_unlock(&m);
  }
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  for (int i = 0; i < 3; i++) {
    pthread_mutex_lock(&m);
    if (top > 0) {
      top = top - 1;
      int v = stack[top];
      USE;
    }
    pthread_mutex_unlock(&m);
  }
  pthread_join(t, 0);
  return 0;
}
"#;

#[test]
fn values_that_decide_nothing_do_not_split_states() {
    let p = lower("carried.c", &CARRIED.replace("USE", "(void)v"));
    let (r, _) = verify(&p, Engine::Explicit);
    assert_eq!(r.verdict, Verdict::Safe);
    // A popped value in a guard: both branches are explored (the value is not known), and
    // the checker accepts the ART because neither leads to a bug.
    let p = lower("carried.c", &CARRIED.replace("USE", "if (v == 7) top = 0"));
    let (r, _) = verify(&p, Engine::Explicit);
    assert_eq!(r.verdict, Verdict::Safe);
    // A bug for one value: the search took the value to be 0, so its path to the bug does
    // not replay with 0; the solver finds the value that takes it, and the replay shows it.
    let p = lower("carried.c", &CARRIED.replace("USE", "assert(v != 7)"));
    let (r, _) = verify(&p, Engine::Explicit);
    assert_eq!(r.verdict, Verdict::PartiallySafe);
    let c = r.counterexample.expect("a replayed bug");
    assert!(matches!(c.execution.outcome, Outcome::Error { .. }));
    assert!(c.replay.inputs.contains(&7), "{:?}", c.replay.inputs);
}

#[test]
fn a_schedule_is_searched_where_the_round_robin_meets_a_bug() {
    // In turn order (a new thread runs after its creator's turn), `one` then `two` write `x`
    // and the assertion fails; the search backtracks to run `two` first.
    let p = lower(
        "order.c",
        r#"
#include <pthread.h>
#include <assert.h>
int x;
void *one(void *a) { x = 1; return 0; }
void *two(void *a) { x = 2; return 0; }
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, one, 0);
  pthread_create(&t2, 0, two, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(x == 1);
  return 0;
}
"#,
    );
    let (r, ivrs) = verify(&p, Engine::Explicit);
    assert_eq!(r.verdict, Verdict::PartiallySafe);
    // The safe schedule comes first, found without the whole graph.
    assert!(matches!(ivrs[0].kind, IvrKind::Safe(_)));
    let c = r.counterexample.expect("a counterexample");
    assert!(matches!(c.execution.outcome, Outcome::Error { .. }));
}

#[test]
fn a_condition_that_guards_an_undefined_operation_is_never_forgotten() {
    // `c` decides whether `a + 1` (an overflow) is evaluated: forgetting `c` as data would
    // invent undefined behaviour after every schedule, and with it a wrong `unsafe` (the C
    // front end keeps `||` and `?:` as expressions).
    for expr in ["c || (a + 1 > 0)", "c ? 0 : a + 1"] {
        let text = format!(
            r#"
#include <assert.h>
#include <pthread.h>
int flag = 0;
void *t(void *arg) {{ flag = 1; return 0; }}
int main(void) {{
  pthread_t th;
  int c = 1;
  int a = 2147483647;
  pthread_create(&th, 0, t, 0);
  int f = flag;
  assert(f == 0);
  int r = {expr};
  return 0;
}}
"#
        );
        let p = verifier::frontend::load_str("lazy.c", &text, &FOpts::default()).expect("lowers");
        let (r, _) = verify(&p, Engine::Explicit);
        assert_ne!(r.verdict, Verdict::Unsafe, "{expr}");
    }
}

#[test]
fn a_refused_creation_leaves_an_id_whose_join_returns_at_once() {
    // Under a bound of 3 threads (main and two workers), three of the five creations fail; the program joins every id
    // without checking. The ids of the refused creations are joined with ESRCH: no
    // uninitialised id, no out-of-range index, and the count is exact.
    let text = r#"
#include <assert.h>
#include <errno.h>
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int counter;
void *worker(void *a) { pthread_mutex_lock(&m); counter++; pthread_mutex_unlock(&m); return 0; }
int main(void) {
  pthread_t t[5];
  for (int i = 0; i < 5; i++) pthread_create(&t[i], 0, worker, 0);
  int joined = 0, refused = 0;
  for (int i = 0; i < 5; i++) {
    int r = pthread_join(t[i], 0);
    if (r == ESRCH) refused++; else joined++;
  }
  assert(counter == joined && refused == EXPECT);
  return 0;
}
"#;
    for (expect, verdict) in [(3, Verdict::Safe), (2, Verdict::Unsafe)] {
        let opts = FOpts {
            max_threads: 3,
            ..FOpts::default()
        };
        let text = text.replace("EXPECT", &expect.to_string());
        let p = load_str("join_refused.c", &text, &opts).expect("lowers");
        assert_eq!(p.thread_bound, Some(3));
        let (r, _) = verify(&p, Engine::Explicit);
        assert_eq!(r.verdict, verdict, "refused == {expect}");
    }
}

#[test]
fn a_value_whose_range_rules_out_undefined_behaviour_is_forgotten() {
    // `'a' + abs(rand()) % 26` cannot overflow (rand() lies in [0, RAND_MAX], arbitrary
    // after `srand` with an unknown seed): the value is data the program only stores and
    // prints, and the search forgets it. The labels state its range, which the checker needs
    // to rule out the branch of `abs` for negative values.
    let safe = r#"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
int buf[4]; int n;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int my_abs(int x) { return x < 0 ? -x : x; }
void *prod(void *a) {
  for (int i = 0; i < 3; i++) {
    int ch = 'a' + my_abs(rand()) % 26 + abs(rand()) % 26;
    pthread_mutex_lock(&m);
    buf[n++] = ch;
    pthread_mutex_unlock(&m);
  }
  return 0;
}
int main(void) {
  pthread_t t;
  srand(time(0));
  pthread_create(&t, 0, prod, 0);
  pthread_join(t, 0);
  printf("%d\n", buf[0]);
  return 0;
}
"#;
    let p = lower("range.c", safe);
    let (r, _) = verify(&p, Engine::Explicit);
    assert_eq!(r.verdict, Verdict::Safe);
    // A value whose range does not decide the guard still matters: the explicit search
    // cannot represent it, and nothing claims `safe`.
    let matters = safe.replace("printf(\"%d\\n\", buf[0]);", "assert(buf[0] != 'c');");
    let matters = format!("#include <assert.h>\n{matters}");
    let p = lower("range_matters.c", &matters);
    let (r, _) = verify(&p, Engine::Explicit);
    assert_ne!(r.verdict, Verdict::Safe);
}

#[test]
fn a_function_the_program_defines_is_not_replaced_by_a_library_model() {
    // The program's own `rand` returns -1: the library model of `rand` (values in
    // [0, RAND_MAX]) must not stand in for it.
    let text = r#"
#include <assert.h>
#include <pthread.h>
static int rand(void) { return -1; }
int main(void) {
  assert(rand() >= 0);
  return 0;
}
"#;
    let p = lower("own_rand.c", text);
    let (r, _) = verify(&p, Engine::Explicit);
    assert_eq!(r.verdict, Verdict::Unsafe);
}

/// A call through a function pointer reaches the functions of the call's type (a thread
/// function of another type taken by `pthread_create` is not one of them); a pointer to no
/// function is a bug the counterexample names.
#[test]
fn a_call_through_a_pointer_reaches_the_functions_of_its_type_or_is_a_bug() {
    let program = |bad: &str| {
        format!(
            r#"
#include <assert.h>
#include <pthread.h>
#include <stdint.h>
typedef int (*fn)(int);
static int inc(int x) {{ return x + 1; }}
static int dec(int x) {{ return x - 1; }}
static fn where;
static void *w(void *a) {{ fn f = where; assert(f(1) == 2); return 0; }}
int main(void) {{
  pthread_t t;
  where = __VERIFIER_nondet_int() ? inc : {bad};
  fn g = dec;
  pthread_create(&t, 0, w, 0);
  pthread_join(t, 0);
  return g(1);
}}
"#
        )
    };
    let p = lower("fp_ok.c", &program("inc"));
    let (r, _) = verify(&p, Engine::Auto);
    assert_eq!(r.verdict, Verdict::Safe);
    let p = lower("fp_bad.c", &program("(fn)8"));
    let (r, ivrs) = verify(&p, Engine::Auto);
    assert_ne!(r.verdict, Verdict::Safe);
    let bug = ivrs
        .iter()
        .find_map(|i| match &i.kind {
            IvrKind::Counterexample(c) => Some(c),
            _ => None,
        })
        .expect("a counterexample");
    assert!(
        matches!(
            bug.execution.outcome,
            Outcome::Error {
                kind: verifier::ir::ErrorKind::InvalidCall,
                ..
            }
        ),
        "{:?}",
        bug.execution.outcome
    );
}

/// `main` gets the arguments it is verified with: `argv[1..argc]` hold them, `argv[argc]` is
/// null, and `argv[0]` is the program's name (its file's stem).
#[test]
fn main_gets_the_arguments_it_is_verified_with() {
    let text = r#"
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
int n;
void *w(void *a) { n += atoi(a); return 0; }
int main(int argc, char **argv) {
  assert(argc == 3 && argv[argc] == 0 && strcmp(argv[0], "args") == 0);
  assert(strcmp(argv[1], "go") == 0);
  pthread_t t;
  pthread_create(&t, 0, w, argv[2]);
  pthread_join(t, 0);
  assert(n == 12);
  return 0;
}
"#;
    let with = |args: &[&str]| FOpts {
        arguments: args.iter().map(|a| a.to_string()).collect(),
        ..FOpts::default()
    };
    let p = load_str("args.c", text, &with(&["go", "12"])).expect("lowers");
    assert_eq!(p.arguments, ["args", "go", "12"]);
    let (r, _) = verify(&p, Engine::Auto);
    assert_eq!(r.verdict, Verdict::Safe);
    for other in [&["go", "13"][..], &["stop", "12"][..], &["go"][..], &[][..]] {
        let p = load_str("args.c", text, &with(other)).expect("lowers");
        let (r, _) = verify(&p, Engine::Auto);
        assert_eq!(r.verdict, Verdict::Unsafe, "{other:?}");
    }
}

/// Narrower members of a union over a wider one (a `short` or a byte of an `int`): the
/// checker's encoding reads and writes the cell's bytes as the interpreter does, so the right
/// value is proved and a wrong one is a replayed bug.
#[test]
fn narrow_members_of_a_union_are_bytes_of_the_wider_cell() {
    let text = r#"
#include <assert.h>
#include <pthread.h>
union word { int i; short s[2]; unsigned char b[4]; };
union word w;
void *t(void *a) { w.s[1] = 5; w.b[0] = 7; return 0; }
int main(void) {
  pthread_t x;
  w.i = -1;
  pthread_create(&x, 0, t, 0);
  pthread_join(x, 0);
  assert(w.i == (5 << 16) + 0xff00 + LOW);
  assert(w.s[0] == (short)0xff07);
  return 0;
}
"#;
    let p = lower("union.c", &text.replace("LOW", "7"));
    let (r, _) = verify(&p, Engine::Explicit);
    assert_eq!(r.verdict, Verdict::Safe);
    let p = lower("union.c", &text.replace("LOW", "8"));
    let (r, _) = verify(&p, Engine::Explicit);
    assert_eq!(r.verdict, Verdict::Unsafe);
}

/// A struct whose union is written in part (two of its four bytes) and copied whole: the
/// bytes written stay known through the copy, byte by byte, and the others stay unknown.
#[test]
fn bytes_written_stay_known_through_a_copy_of_a_partly_written_union() {
    let text = r#"
#include <assert.h>
#include <pthread.h>
union word { int i; char c[4]; };
struct msg { int kind; union word w; };
struct msg box, got;
void *t(void *a) { got = box; return 0; }
int main(void) {
  struct msg m;
  m.kind = 1;
  m.w.c[0] = 'h';
  m.w.c[1] = 'i';
  box = m;
  pthread_t x;
  pthread_create(&x, 0, t, 0);
  pthread_join(x, 0);
  assert(got.kind == 1 && got.w.c[0] == 'h');
  assert(CHECK);
  return 0;
}
"#;
    let p = lower("partial.c", &text.replace("CHECK", "got.w.c[1] == 'i'"));
    let (r, _) = verify(&p, Engine::Explicit);
    assert_eq!(r.verdict, Verdict::Safe);
    // Every run fails, whatever the bytes never written hold: moving them decided nothing.
    let p = lower("partial.c", &text.replace("CHECK", "got.w.c[1] == 'j'"));
    let (r, _) = verify(&p, Engine::Explicit);
    assert_eq!(r.verdict, Verdict::Unsafe);
    // A byte never written is not known.
    let p = lower("partial.c", &text.replace("CHECK", "got.w.c[3] != 9"));
    never_safe(&p);
}

/// An access at a constant address that runs past the end of its object is undefined in the
/// interpreter and in the checker's encoding alike, never bytes of the next object.
#[test]
fn a_constant_address_past_the_end_of_its_object_is_undefined() {
    let text = r#"
extern void reach_error(void);
int a[1];
int flag;
int main(void) {
  *(long *)a = 0x100000000L;
  if (flag) reach_error();
  return 0;
}
"#;
    let p = lower("past_end.c", text);
    for engine in [Engine::Explicit, Engine::Impact] {
        let (r, _) = verify(&p, engine);
        assert_ne!(r.verdict, Verdict::Safe, "{engine:?}");
    }
}

/// What the model cannot stand for is refused, not approximated: `main`'s environment, and
/// formats whose output the model would not reproduce.
#[test]
fn environments_and_unknown_formats_are_refused() {
    for (text, what) in [
        (
            "int main(int c, char **v, char **envp) { return envp != 0; }",
            "third parameter",
        ),
        (
            "#include <stdio.h>\nchar b[32]; int x;\nint main(void) { return snprintf(b, 32, \"%p\", (void *)&x); }",
            "`%p`",
        ),
        (
            "#include <stdio.h>\n#include <wchar.h>\nchar b[32];\nint main(void) { return snprintf(b, 32, \"%ls\", L\"ab\"); }",
            "`%ls`",
        ),
        (
            "#include <stdio.h>\nchar b[32];\nint main(void) { return snprintf(b, 32, \"%f\", 1.5); }",
            "`%f`",
        ),
    ] {
        let e = load_str("refused.c", text, &FOpts::default()).unwrap_err();
        assert!(e.to_string().contains(what), "{e}");
    }
}

/// A worker reads a heap block that main frees after a handshake that does not wait for the
/// read: the read may come after the free.
const FREED_READ: &str = r#"
#include <pthread.h>
#include <stdlib.h>
int *block;
int ready, result;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *reader(void *a) {
  pthread_mutex_lock(&m);
  int go = ready;
  pthread_mutex_unlock(&m);
  if (go)
    result = block[1];
  return 0;
}
int main(void) {
  block = malloc(4 * sizeof(int));
  if (!block)
    return 0;
  block[1] = 7;
  pthread_t t;
  pthread_create(&t, 0, reader, 0);
  pthread_mutex_lock(&m);
  ready = 1;
  pthread_mutex_unlock(&m);
  FREE_POINT
  pthread_join(t, 0);
  return 0;
}
"#;

#[test]
fn reading_freed_memory_is_never_safe() {
    // Freed before the join: the read may follow the free.
    let racy = FREED_READ.replace("FREE_POINT", "free(block);");
    // Freed after the join: every read comes first.
    let joined = FREED_READ.replace("FREE_POINT", "").replacen(
        "  pthread_join(t, 0);\n  return 0;",
        "  pthread_join(t, 0);\n  free(block);\n  return 0;",
        1,
    );
    for engine in [Engine::Explicit, Engine::Impact] {
        let (r, _) = verify(&lower("freed_read.c", &racy), engine);
        assert_ne!(r.verdict, Verdict::Safe, "{engine:?}");
    }
    let (r, _) = verify(&lower("joined_read.c", &joined), Engine::Explicit);
    assert_eq!(r.verdict, Verdict::Safe);
    // Single-threaded: a read after free.
    let single = "#include <stdlib.h>\nint main(void) { char *b = malloc(4); if (!b) return 1; b[0] = 1; free(b); return b[0]; }\n";
    for engine in [Engine::Explicit, Engine::Impact] {
        let (r, _) = verify(&lower("single.c", single), engine);
        assert_ne!(r.verdict, Verdict::Safe, "{engine:?}");
    }
}

/// Thread-specific data destructors run at a thread's exit, with the value set to null
/// first, again while a round leaves values set (four rounds, as glibc), and not for `main`.
const DESTRUCTORS: &str = r#"
#include <pthread.h>
#include <assert.h>
pthread_key_t key, other;
int calls, again;
void count(void *v) { calls++; }
void rearm(void *v) {
  again++;
  pthread_setspecific(other, v);
}
void *worker(void *a) {
  pthread_setspecific(key, a);
  pthread_setspecific(other, a);
  return 0;
}
int main(void) {
  pthread_key_create(&key, count);
  pthread_key_create(&other, rearm);
  pthread_setspecific(key, &calls);
  pthread_t t;
  pthread_create(&t, 0, worker, &calls);
  pthread_join(t, 0);
  assert(CHECK);
  return 0;
}
"#;

#[test]
fn thread_specific_data_destructors_run_at_thread_exit() {
    let ok = DESTRUCTORS.replace("CHECK", "calls == 1 && again == 4");
    let (r, _) = verify(&lower("destructors.c", &ok), Engine::Explicit);
    assert_eq!(r.verdict, Verdict::Safe);
    for wrong in ["calls == 0", "calls == 2", "again == 3", "again == 5"] {
        let bad = DESTRUCTORS.replace("CHECK", wrong);
        let (r, _) = verify(&lower("destructors.c", &bad), Engine::Explicit);
        assert_eq!(r.verdict, Verdict::Unsafe, "{wrong}");
    }
    // `free` as the destructor: the worker's block is freed at its exit.
    let freed = r#"
#include <pthread.h>
#include <stdlib.h>
pthread_key_t key;
int *g;
void *worker(void *a) {
  int *p = malloc(sizeof *p);
  if (!p) return 0;
  *p = 5;
  g = p;
  pthread_setspecific(key, p);
  return 0;
}
int main(void) {
  pthread_key_create(&key, free);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return READ;
}
"#;
    let (r, _) = verify(
        &lower("free_dtor.c", &freed.replace("READ", "0")),
        Engine::Explicit,
    );
    assert_eq!(r.verdict, Verdict::Safe);
    let (r, _) = verify(
        &lower("free_dtor.c", &freed.replace("READ", "g ? *g : 0")),
        Engine::Explicit,
    );
    // Every run reads the block the destructor freed: a memory-safety violation, a bug.
    assert_eq!(r.verdict, Verdict::Unsafe);
    assert!(
        matches!(
            &r.counterexample.as_ref().unwrap().execution.outcome,
            Outcome::Undefined { memory: true, reason, .. } if reason.contains("freed memory")
        ),
        "{:?}",
        r.counterexample
    );
}

/// A recursive function is inlined up to three active calls (by default); a deeper call is
/// the model's limit (named in the verdict), never a silent cut.
#[test]
fn recursion_is_inlined_three_calls_deep() {
    let program = |n: u32, expect: u32| {
        format!(
            "#include <assert.h>\n#include <pthread.h>\n\
             int fact(int n) {{ return n <= 1 ? 1 : n * fact(n - 1); }}\n\
             int r;\nvoid *w(void *a) {{ r = fact({n}); return 0; }}\n\
             int main(void) {{ pthread_t t; pthread_create(&t, 0, w, 0); \
             pthread_join(t, 0); assert(r == {expect}); return 0; }}\n"
        )
    };
    let (r, _) = verify(&lower("fact3.c", &program(3, 6)), Engine::Explicit);
    assert_eq!(r.verdict, Verdict::Safe);
    let (r, _) = verify(&lower("fact3_bad.c", &program(3, 7)), Engine::Explicit);
    assert_eq!(r.verdict, Verdict::Unsafe);
    let (r, _) = verify(&lower("fact4.c", &program(4, 24)), Engine::Explicit);
    assert!(
        matches!(&r.verdict, Verdict::Unknown(w) if w.contains("the model's limits")
            && w.contains("recursion of fact deeper than 3")),
        "{:?}",
        r.verdict
    );
    // Deeper with `max_recursion`.
    let deeper = FOpts {
        max_recursion: 5,
        ..FOpts::default()
    };
    for (n, expect, want) in [(5, 120, Verdict::Safe), (5, 24, Verdict::Unsafe)] {
        let p = load_str("fact5.c", &program(n, expect), &deeper).expect("lowers");
        let (r, _) = verify(&p, Engine::Explicit);
        assert_eq!(r.verdict, want, "fact({n}) == {expect}");
    }
}

/// A signed left shift of a negative value or past the type's range is undefined (C11
/// 6.5.7p4), although LLVM's `shl` does not say the operand was signed; an unsigned shift
/// wraps.
#[test]
fn a_signed_left_shift_past_the_range_is_undefined() {
    let text = r#"
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x < 0 || x > LIMIT) return 0;
  int r = x << 2;
  unsigned u = (unsigned)__VERIFIER_nondet_int() << 31;
  assert(r <= 4 * LIMIT);
  return u == 5;
}
"#;
    let p = lower("shift.c", &text.replace("LIMIT", "100"));
    let (r, _) = verify(&p, Engine::Auto);
    assert_eq!(r.verdict, Verdict::Safe);
    let p = lower("shift.c", &text.replace("LIMIT", "0x7fffffff"));
    never_safe(&p);
}

/// More allocations at one site than the model keeps apart is the model's limit: never
/// `safe`, and the verdict names the site. A thread other than `main` keeps 16 per site (each
/// thread the bound allows has its own); `main`, which runs once, as many as about 4,096 cells
/// hold (here far more than its 20).
#[test]
fn more_allocations_than_a_site_holds_name_the_limit() {
    let program = |who: &str| {
        format!(
            r#"
#include <stdlib.h>
#include <pthread.h>
int *keep[20];
void *allocate(void *arg) {{
  for (int i = 0; i < 20; i++) {{
    keep[i] = malloc(sizeof(int));
    if (!keep[i]) return 0;
  }}
  return 0;
}}
int main(void) {{
  {who}
  return 0;
}}
"#
        )
    };
    let p = lower(
        "many.c",
        &program("pthread_t t; pthread_create(&t, 0, allocate, 0); pthread_join(t, 0);"),
    );
    never_safe(&p);
    let (r, _) = verify(&p, Engine::Explicit);
    match &r.verdict {
        Verdict::Unknown(why) => assert!(
            why.contains("more than 16 allocations at ") && why.contains("many.c:7:"),
            "{why}"
        ),
        v => panic!("{v:?}"),
    }
    let p = lower("many.c", &program("allocate(0);"));
    for engine in [Engine::Explicit, Engine::Auto] {
        let (r, _) = verify(&p, engine);
        assert_eq!(r.verdict, Verdict::Safe, "{engine:?}");
    }
}

/// An atomic region whose assumption guards its beginning (the thread waits outside) only
/// where nothing the region does before the assumption can tell: not where a step before it
/// may fail (a null dereference while the condition is false), nor where it writes what the
/// condition reads through a pointer. Both programs have a bug on some schedule.
#[test]
fn an_atomic_region_waits_for_its_assumption_only_where_nothing_before_it_can_tell() {
    let null_window = r#"
#include <pthread.h>
extern void __VERIFIER_assume(int);
int m = 1; int z; int *p = &z;
void __VERIFIER_atomic_f(void) { int v = *p; __VERIFIER_assume(m == 0); m = v; }
void *t(void *a) { __VERIFIER_atomic_f(); return 0; }
int main(void) { pthread_t a; pthread_create(&a, 0, t, 0); p = 0; p = &z; m = 0; pthread_join(a, 0); return 0; }
"#;
    let write_through_pointer = r#"
#include <pthread.h>
extern void __VERIFIER_assume(int);
extern void reach_error(void);
struct S { int x; int y; } s = {1, 1};
struct S *ps = &s;
int flag = 0;
void __VERIFIER_atomic_f(void) { ps->y = 0; __VERIFIER_assume(s.y == 0); if (flag == 0) reach_error(); }
void *t(void *a) { __VERIFIER_atomic_f(); return 0; }
int main(void) { pthread_t a; pthread_create(&a, 0, t, 0); flag = 1; s.y = 0; pthread_join(a, 0); return 0; }
"#;
    for (name, text) in [
        ("null_window.c", null_window),
        ("write_through_pointer.c", write_through_pointer),
    ] {
        let (r, _) = verify(&lower(name, text), Engine::Auto);
        assert_ne!(r.verdict, Verdict::Safe, "{name}");
    }
}

/// The buggy programs of `tests/programs/idioms` (a failed assertion, a deadlock, a double
/// free, a read of freed memory): each is `partially safe` or `unsafe`, and its
/// counterexample replays (checked through its IVR file by `verify`).
#[test]
fn buggy_idioms_are_bugs_with_replayed_traces() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/programs/idioms");
    let list = std::fs::read_to_string(dir.join("verdicts.tsv")).unwrap();
    let mut checked = 0;
    for line in list
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        if f[1] != "unsafe" {
            continue;
        }
        let p = verifier::frontend::load(&dir.join(f[0]), &FOpts::default()).expect("lowers");
        let (r, ivrs) = verify(&p, Engine::Auto);
        assert!(
            matches!(r.verdict, Verdict::PartiallySafe | Verdict::Unsafe),
            "{}: {:?}",
            f[0],
            r.verdict
        );
        assert!(
            ivrs.iter()
                .any(|i| matches!(i.kind, IvrKind::Counterexample(_))),
            "{}: no counterexample",
            f[0]
        );
        checked += 1;
    }
    assert!(checked >= 7, "only {checked} buggy idioms");
}

/// A byte of a block whose size is no multiple of the element the memory is laid out in
/// (a `char` flexible array member after an `int`) is inside the block up to its last byte:
/// no memory-safety bug there, and one past it.
#[test]
fn a_byte_access_is_inside_its_block_up_to_the_last_byte() {
    let text = r#"
#include <stdlib.h>
#include <assert.h>
struct F { int n; char d[]; };
int main(void) {
  struct F *f = malloc(sizeof(struct F) + 5);
  if (!f) return 0;
  f->d[IDX] = 1;
  assert(f->d[IDX] == 1);
  free(f);
  return 0;
}
"#;
    let (r, _) = verify(&lower("fam.c", &text.replace("IDX", "4")), Engine::Explicit);
    assert!(
        !matches!(r.verdict, Verdict::PartiallySafe | Verdict::Unsafe),
        "{:?}",
        r.verdict
    );
    let (r, _) = verify(&lower("fam.c", &text.replace("IDX", "5")), Engine::Explicit);
    assert_eq!(r.verdict, Verdict::Unsafe);
}

/// A local read before any write (an `undef` value after `mem2reg`) is any value, a new one
/// at each use: never folded to 0, so never `safe` where another value fails, and never
/// `unsafe` where another value passes.
#[test]
fn a_local_read_before_any_write_is_any_value() {
    let p = lower(
        "undef.c",
        "#include <assert.h>\nint main(void) { int x; assert(x == 0); return 0; }\n",
    );
    never_safe(&p);
    let p = lower(
        "undef2.c",
        "#include <assert.h>\nint main(void) { int x, y; assert(x == y); return 0; }\n",
    );
    never_safe(&p);
    let p = lower(
        "undef3.c",
        "#include <assert.h>\nint main(void) { int x; assert(x != 7); return 0; }\n",
    );
    for engine in [Engine::Explicit, Engine::Auto] {
        let (r, _) = verify(&p, engine);
        assert_ne!(r.verdict, Verdict::Unsafe, "{engine:?}");
    }
}

/// A variable-length array has the length it was given: its last element is inside it and
/// the one after it is a memory-safety bug, also when the array is made again, shorter, in a
/// later round of a loop; `free` of it is an invalid free.
#[test]
fn a_variable_length_array_ends_at_its_length() {
    let text = r#"
#include <stdlib.h>
#include <assert.h>
int len = 3;
int main(void) {
  for (int r = 0; r < 2; r++) {
    int n = len - r;
    int b[n];
    b[n - 1] = r;
    assert(b[n - 1] == r);
    b[IDX] = 1;
    FREE;
  }
  return 0;
}
"#;
    let program =
        |idx: &str, free: &str| lower("vla.c", &text.replace("IDX", idx).replace("FREE", free));
    let (r, _) = verify(&program("0", "(void)0"), Engine::Explicit);
    assert_eq!(r.verdict, Verdict::Safe);
    // In the second round the array has two elements: b[2] is past its end.
    for p in [program("2", "(void)0"), program("0", "free(b)")] {
        let (r, ivrs) = verify(&p, Engine::Explicit);
        assert_eq!(r.verdict, Verdict::Unsafe);
        assert!(ivrs
            .iter()
            .any(|i| matches!(i.kind, IvrKind::Counterexample(_))));
    }
}

/// A block operation of a constant length that runs past its object (a local, a global, a
/// heap block) is a memory-safety bug: the bytes past the end are not left out.
#[test]
fn a_constant_length_fill_or_copy_past_its_object_is_a_bug() {
    let programs = [
        "#include <string.h>\nint main(void) { char b[3]; memset(b, 0, 4); return 0; }\n",
        "#include <string.h>\nint b[3];\nint main(void) { memset(b, 0, 13); return b[0]; }\n",
        "#include <string.h>\n#include <stdlib.h>\nint main(void) { char *b = malloc(3); \
         if (!b) return 0; memset(b, 0, 4); free(b); return 0; }\n",
        "#include <string.h>\nint main(void) { char b[4] = \"abc\"; memmove(b + 1, b, 4); \
         return 0; }\n",
    ];
    for text in programs {
        let (r, _) = verify(&lower("past.c", text), Engine::Auto);
        assert_eq!(r.verdict, Verdict::Unsafe, "{text}");
    }
    // Up to the last byte: no bug.
    let text = "#include <string.h>\nint main(void) { char b[4]; memset(b, 1, 4); \
                return b[3] - 1; }\n";
    let (r, _) = verify(&lower("upto.c", text), Engine::Auto);
    assert_eq!(r.verdict, Verdict::Safe);
}

/// No `unsafe` rests on a value the front end made up (an external function's result,
/// floating point) nor on the thread a signal wakes, which the scheduler may choose: here
/// waking the first waiter first lets every join end.
#[test]
fn no_unsafe_verdict_rests_on_made_up_values_or_a_signals_choice_of_waiter() {
    let made_up = [
        "#include <assert.h>\n#include <string.h>\nint main(void) { \
         assert(strspn(\"abc\", \"ab\") == 2); return 0; }\n",
        "#include <assert.h>\nint main(void) { double d = 1.5; int ok = d > 1.0; \
         assert(ok); return 0; }\n",
    ];
    let waiter = r#"
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER, cm = PTHREAD_COND_INITIALIZER;
int n = 0;
void *t(void *a) {
  pthread_mutex_lock(&m); n++; pthread_cond_signal(&cm);
  pthread_cond_wait(&c, &m); pthread_mutex_unlock(&m); return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0); pthread_create(&b, 0, t, 0);
  pthread_mutex_lock(&m); while (n < 2) pthread_cond_wait(&cm, &m);
  pthread_cond_signal(&c); pthread_mutex_unlock(&m);
  pthread_join(a, 0);
  pthread_mutex_lock(&m); pthread_cond_signal(&c); pthread_mutex_unlock(&m);
  pthread_join(b, 0);
  return 0;
}
"#;
    for text in made_up.iter().chain([&waiter]) {
        let p = lower("choice.c", text);
        for engine in [Engine::Auto, Engine::Explicit, Engine::Impact] {
            let (r, _) = verify(&p, engine);
            assert_ne!(r.verdict, Verdict::Unsafe, "{engine:?}: {text}");
        }
    }
}

/// A signal wakes only threads that may wait on its condition variable: when one thread
/// alone may, the signal chooses nobody, and a deadlock every schedule reaches is `unsafe`.
#[test]
fn a_signal_chooses_among_the_threads_that_wait_on_its_condition_variable_only() {
    let text = r#"
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t room = PTHREAD_COND_INITIALIZER, item = PTHREAD_COND_INITIALIZER;
int items = 1;
void *producer(void *a) {
  pthread_mutex_lock(&m);
  while (items > 0) pthread_cond_wait(&room, &m);
  items++;
  pthread_mutex_unlock(&m); pthread_cond_signal(&item); return 0;
}
void *consumer(void *a) {
  pthread_mutex_lock(&m);
  while (items == 0) pthread_cond_wait(&item, &m);
  pthread_mutex_unlock(&m); pthread_cond_signal(&room); return 0;
}
int main(void) {
  pthread_t p, c;
  pthread_create(&p, 0, producer, 0); pthread_create(&c, 0, consumer, 0);
  pthread_join(p, 0); pthread_join(c, 0);
  return 0;
}
"#;
    let p = lower("one_waiter.c", text);
    // Per signal: "nobody waits" and the one thread that waits there.
    for t in &p.threads {
        let signals = t
            .transitions
            .iter()
            .filter(|x| x.kind == TransKind::Sync(SyncKind::CondSignal))
            .count();
        assert!(
            signals == 0 || signals == 2,
            "{}: {signals} signal transitions",
            t.name
        );
    }
    assert!(!p.signal_chooses_waiter());
    let (r, _) = verify(&p, Engine::Auto);
    assert_eq!(r.verdict, Verdict::Unsafe);
    // A signal right after a local computation wakes its waiter, and the computation runs.
    let after_local = r#"
#include <pthread.h>
extern void reach_error(void);
extern unsigned __VERIFIER_nondet_uint(void);
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready;
void *waiter(void *a) {
  pthread_mutex_lock(&m);
  while (!ready) pthread_cond_wait(&c, &m);
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t w;
  pthread_create(&w, 0, waiter, 0);
  unsigned k = __VERIFIER_nondet_uint();
  pthread_mutex_lock(&m);
  ready = 1;
  unsigned j = k + 1;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  pthread_join(w, 0);
  if (ready == 1 && j != k + 1) reach_error();
  return 0;
}
"#;
    let (r, _) = verify(&lower("signal_after_local.c", after_local), Engine::Auto);
    assert_eq!(r.verdict, Verdict::Safe);
}

/// The bytes just before a heap block or a variable-length array (where the model keeps its
/// allocation status) are no memory of the program: an access there is out of bounds.
#[test]
fn an_access_just_before_a_block_is_out_of_bounds() {
    let programs = [
        "int g = 3;\nint main(void) { int n = g; int b[n]; int i = -1; b[i] = 0; return 0; }\n",
        "#include <stdlib.h>\nint main(void) { int *b = malloc(12); if (!b) return 0; \
         b[-1] = 0; free(b); return 0; }\n",
        "#include <stdlib.h>\nint main(void) { int *b = malloc(12); if (!b) return 0; \
         int v = b[-1]; free(b); return v; }\n",
        "#include <stdlib.h>\nint main(void) { char *b = malloc(4); if (!b) return 0; \
         b[-4] = 1; free(b); return 0; }\n",
        // The whole 8 bytes before a block, through a pointer known at run time only.
        "#include <stdlib.h>\nint main(void) { long *b = malloc(16); if (!b) return 0; \
         long v = b[-1]; free(b); return (int)v; }\n",
        "#include <stdlib.h>\nint main(void) { long *b = malloc(16); if (!b) return 0; \
         b[-1] = 9; free(b); return 0; }\n",
    ];
    for text in programs {
        let (r, _) = verify(&lower("before.c", text), Engine::Auto);
        assert_eq!(r.verdict, Verdict::Unsafe, "{text}");
    }
}

#[test]
fn an_index_past_an_array_in_a_struct_or_a_vla_of_no_length_is_a_bug() {
    let head = "struct rec { char name[8]; int x; };\nstruct rec g;\nint k = 8;\nint m = -1;\n";
    let bugs = [
        // Past the member array, still inside the struct's bytes.
        "int main(void) { g.name[k] = 1; return g.x; }\n",
        "int main(void) { struct rec r = {0}; int i = k; r.name[i] = 1; return r.x; }\n",
        // A variable-length array of negative length, never accessed.
        "int main(void) { int n = m; int v[n]; return 0; }\n",
    ];
    for bug in bugs {
        let text = format!("{head}{bug}");
        let (r, _) = verify(&lower("subobject.c", &text), Engine::Auto);
        assert_eq!(r.verdict, Verdict::Unsafe, "{text}");
    }
    let ok = format!(
        "{head}int main(void) {{ for (int i = 0; i < k; i++) g.name[i] = 'a' + i; \
         int n = k; char v[n]; v[n - 1] = g.name[7]; return v[n - 1] - 'h'; }}\n"
    );
    let (r, _) = verify(&lower("subobject_ok.c", &ok), Engine::Auto);
    assert_eq!(r.verdict, Verdict::Safe);
}

#[test]
fn free_of_a_pointer_into_a_block_is_a_bug_and_munmap_of_one_fails() {
    let head = "#include <stdlib.h>\n#include <sys/mman.h>\n#include <assert.h>\nint g = 8;\n";
    let free = format!(
        "{head}int main(void) {{ char *b = malloc(16); if (!b) return 0; \
         free(b + g); return 0; }}\n"
    );
    let (r, _) = verify(&lower("free_inside.c", &free), Engine::Auto);
    assert_eq!(r.verdict, Verdict::Unsafe);
    let unmap = format!(
        "{head}int main(void) {{ char *b = malloc(16); if (!b) return 0; \
         assert(munmap(b + g, 8) == -1); free(b); return 0; }}\n"
    );
    let (r, _) = verify(&lower("unmap_inside.c", &unmap), Engine::Auto);
    assert_eq!(r.verdict, Verdict::Safe);
}

/// A large array is stated in the labels by blocks of cells that labels share: the checker
/// takes a block the step leaves alone, or writes only outside of, as it was, and checks a
/// block that a step writes into. A child label that keeps its parent's block where the step
/// wrote into it is rejected.
#[test]
fn a_large_array_is_labelled_in_shared_blocks_that_the_checker_checks_where_written() {
    use verifier::smt::Term;
    let p = lower(
        "blocks.c",
        r#"
#include <pthread.h>
#include <assert.h>
int a[200];
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *w(void *arg) {
  pthread_mutex_lock(&m);
  a[150] = a[150] + 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  for (int i = 0; i < 200; i++) a[i] = i;
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  pthread_mutex_lock(&m);
  int v = a[150];
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  assert(a[150] == 151 && a[70] == 70);
  assert(v == 150 || v == 151);
  return 0;
}
"#,
    );
    let (r, ivrs) = verify(&p, Engine::Explicit);
    assert_eq!(r.verdict, Verdict::Safe);
    let IvrKind::Safe(art) = &ivrs[0].kind else {
        panic!("first IVR is a schedule")
    };
    assert_eq!(
        verifier::check::check_ivr(&p, art, 10_000).map(|_| ()),
        Ok(())
    );
    let blocks = |t: &Term| -> Vec<Term> {
        match t {
            Term::And(xs) => xs
                .iter()
                .filter(|x| x.cell_block().is_some())
                .cloned()
                .collect(),
            _ => vec![],
        }
    };
    // An edge that writes into a block: the child's block differs from its parent's over
    // the same indexes.
    let (child, old, new) = art
        .ids()
        .find_map(|c| {
            let parent = art.node(c).parent?.0;
            let mine = blocks(&art.node(c).label);
            let theirs = blocks(&art.node(parent).label);
            mine.iter().find_map(|b| {
                let bb = b.cell_block()?;
                let old = theirs.iter().find(|o| {
                    let ob = o.cell_block().expect("a block");
                    ob.array == bb.array && ob.lo() <= bb.hi() && bb.lo() <= ob.hi() && *o != b
                })?;
                Some((c, old.clone(), b.clone()))
            })
        })
        .expect("a step writes into a block of cells");
    assert!(
        blocks(&art.node(art.root()).label).len() >= 3,
        "200 cells in blocks"
    );
    let Term::And(xs) = &art.node(child).label else {
        unreachable!()
    };
    let stale: Vec<Term> = (xs.iter())
        .map(|x| if *x == new { old.clone() } else { x.clone() })
        .collect();
    let mut bad = (**art).clone().into_art();
    bad.set_label(child, Term::And(stale.into()));
    assert!(verifier::check::check_ivr(&p, &bad, 10_000).is_err());
}

/// The explicit search's budget and time limit count from the start of the run it is part
/// of (the thread-modular proof may have run before it), so that `--timeout` holds.
#[test]
fn the_explicit_search_counts_its_time_from_the_start_of_the_run() {
    let p = lower(
        "long.c",
        r#"
#include <assert.h>
long x;
int main(void) {
  for (long i = 0; i < 100000000; i++) x = x + 1;
  assert(x >= 0);
  return 0;
}
"#,
    );
    let limit = Duration::from_secs(3);
    let opts = Options {
        timeout: limit,
        ..Options::default()
    };
    let budget = verifier::explicit::Budget {
        time: limit,
        first_schedule_time: limit,
        check_time: limit,
        max_states: usize::MAX,
        max_bytes: usize::MAX,
        ..Default::default()
    };
    let now = std::time::Instant::now();
    let start = now - Duration::from_secs(2);
    let r = verifier::explicit::run_iterative(&p, None, &opts, &budget, start, 1, &mut |_| {});
    assert!(r.is_err());
    // (The second left, then at most another, as `--timeout` promises: a search that counted
    // from its own start would take three.)
    assert!(
        now.elapsed() < Duration::from_millis(2000),
        "{:?}",
        now.elapsed()
    );
}

/// The stack of seed 002's comparison with Impara: a pusher pushes inputs it has checked
/// (`assume(v < SIZE)`, or `v % SIZE`), a popper compares what it pops with `UNDERFLOW`
/// (`-2`). No input value reaches the error, and the search knows it from the intervals of
/// the values it does not know: `safe` with the explicit engine alone. Where the check lets
/// `-2` through, the branch to the error stays: never `safe`.
const STACK: &str = r#"
#include <pthread.h>
extern void abort(void);
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);
#define SIZE 3
int top = 0;
unsigned int arr[SIZE];
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *pusher(void *arg) {
  for (int i = 0; i < SIZE; i++) {
    pthread_mutex_lock(&m);
    unsigned int v = __VERIFIER_nondet_uint();
    CHECK;
    if (top == SIZE) reach_error();
    arr[top] = v;
    top = top + 1;
    pthread_mutex_unlock(&m);
  }
  return 0;
}
void *popper(void *arg) {
  for (int i = 0; i < SIZE; i++) {
    pthread_mutex_lock(&m);
    while (top == 0) {
      pthread_mutex_unlock(&m);
      pthread_mutex_lock(&m);
    }
    top = top - 1;
    int x = arr[top];
    if (x == -2) reach_error();
    pthread_mutex_unlock(&m);
  }
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, pusher, 0);
  pthread_create(&b, 0, popper, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
"#;

#[test]
fn an_input_checked_once_is_in_range_wherever_it_goes() {
    for check in ["if (!(v < SIZE)) abort()", "v = v % SIZE"] {
        let p = lower("stack.c", &STACK.replace("CHECK", check));
        let (r, ivrs) = verify(&p, Engine::Explicit);
        assert_eq!(r.verdict, Verdict::Safe, "{check}");
        assert!(matches!(ivrs[0].kind, IvrKind::Safe(_)), "{check}");
    }
    // Unchecked, or checked too loosely: `-2` (4294967294) can be pushed and popped.
    for check in ["(void)0", "if (v > 4294967294u) abort()"] {
        let p = lower("stack.c", &STACK.replace("CHECK", check));
        let (r, _) = verify(&p, Engine::Explicit);
        assert!(
            !matches!(r.verdict, Verdict::Safe),
            "{check}: {:?}",
            r.verdict
        );
    }
}

/// Two threads each run a million rounds of a counted loop around a critical section whose
/// invariant the property checks. The counter decides nothing the property depends on: the
/// search leaves it out of its states, the labels give its interval, and the program is
/// `safe` with its million rounds. Without the lock the invariant breaks inside a round:
/// never `safe`, a replayed bug.
const ROUNDS: &str = r#"
#include <pthread.h>
#include <assert.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int a = 100, b = 100;
void *worker(void *arg) {
  for (int i = 0; i < 1000000; i++) {
    LOCK;
    a -= 1; b += 1;
    assert(a + b == 200);
    b -= 1; a += 1;
    UNLOCK;
  }
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(a == 100 && b == 100);
  return 0;
}
"#;

#[test]
fn a_loop_of_a_million_rounds_is_safe_where_its_counter_decides_nothing() {
    let locked = ROUNDS
        .replace("UNLOCK", "pthread_mutex_unlock(&m)")
        .replace("LOCK;", "pthread_mutex_lock(&m);");
    let p = lower("rounds.c", &locked);
    let (r, ivrs) = verify(&p, Engine::Explicit);
    assert_eq!(r.verdict, Verdict::Safe);
    assert!(matches!(ivrs[0].kind, IvrKind::Safe(_)));
    let racy = ROUNDS
        .replace("UNLOCK", "(void)0")
        .replace("LOCK;", "(void)0;");
    let (r, ivrs) = verify(&lower("racy_rounds.c", &racy), Engine::Explicit);
    assert!(
        matches!(r.verdict, Verdict::PartiallySafe | Verdict::Unsafe),
        "{:?}",
        r.verdict
    );
    assert!(ivrs
        .iter()
        .any(|i| matches!(i.kind, IvrKind::Counterexample(_))));
}

/// A loop that reads lines while a counter stays under a bound (`n < LIMIT && fgets(...)`):
/// the front end's fixed passes thread the jump of the `&&` whose left side is false straight
/// to the loop's exit, so that where the counter is incremented the interval the labels state
/// is the one the bound gives, and the search leaves the counter out. Before, the two ways
/// into the `&&`'s result met first, the interval there was any value, the checker could not
/// exclude the increment's overflow, and the search tracking the counter had a state per line
/// read. A property that tests the count is still decided by tracking it: a bug after a line
/// is found.
#[test]
fn a_counter_bounded_beside_a_read_of_the_input_is_left_out() {
    const COUNT: &str = r#"
#include <pthread.h>
#include <assert.h>
#include <stdio.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int seen;
void *ticker(void *arg) {
  pthread_mutex_lock(&m);
  seen = 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  char buf[32];
  long lines = 0;
  pthread_create(&t, 0, ticker, 0);
  while (lines < LIMIT && fgets(buf, sizeof buf, stdin))
    lines++;
  pthread_join(t, 0);
  CHECK;
  printf("%ld lines, seen %d\n", lines, seen);
  return 0;
}
"#;
    let (r, ivrs) = verify(
        &lower(
            "count.c",
            &COUNT.replace("LIMIT", "100000").replace("CHECK", "(void)0"),
        ),
        Engine::Explicit,
    );
    assert_eq!(r.verdict, Verdict::Safe);
    assert!(matches!(ivrs[0].kind, IvrKind::Safe(_)));
    let (r, ivrs) = verify(
        &lower(
            "count_bug.c",
            &COUNT
                .replace("LIMIT", "10")
                .replace("CHECK", "assert(lines != 1)"),
        ),
        Engine::Explicit,
    );
    assert!(!matches!(r.verdict, Verdict::Safe), "{:?}", r.verdict);
    assert!(ivrs
        .iter()
        .any(|i| matches!(i.kind, IvrKind::Counterexample(_))));
}

/// Where the property depends on how many rounds a loop ran, leaving its counter out finds
/// bugs that no execution has; the search then tracks it again, and decides the program
/// exactly: `safe` with the right total, `unsafe` with a wrong one (its bug replayed), and a
/// bug in the last round only is never missed.
#[test]
fn a_property_that_counts_rounds_is_decided_with_the_counter_tracked() {
    let program = |want: u32, last: &str| {
        format!(
            r#"
#include <pthread.h>
#include <assert.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x;
void *worker(void *arg) {{
  for (int i = 0; i < 40; i++) {{
    pthread_mutex_lock(&m);
    x++;
    {last}
    pthread_mutex_unlock(&m);
  }}
  return 0;
}}
int main(void) {{
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(x == {want});
  return 0;
}}
"#
        )
    };
    let (r, _) = verify(&lower("count.c", &program(80, "")), Engine::Explicit);
    assert_eq!(r.verdict, Verdict::Safe);
    let (r, ivrs) = verify(&lower("miscount.c", &program(79, "")), Engine::Explicit);
    assert_eq!(r.verdict, Verdict::Unsafe);
    assert!(matches!(ivrs[0].kind, IvrKind::Counterexample(_)));
    let last = program(80, "if (i == 39) x += 1;");
    never_safe(&lower("last_round.c", &last));
}

/// Threads that each fill and sum an array of their own before they meet at a mutex: the
/// steps of their loops are invisible to the others, and the search expands one thread
/// there even where its step jumps back (its loop's states are new; the checker checks the
/// cycle proviso), so the interleavings of three loops of 40 rounds are not states. A bug in
/// the order in which they meet is still found and replayed, and a bug no schedule avoids
/// is `unsafe` (the search for a safe schedule expands one thread there too).
#[test]
fn loops_over_a_threads_own_memory_are_not_interleaved() {
    let program = |check: &str| {
        format!(
            r#"
#include <pthread.h>
#include <assert.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int total, last;
int ids[3] = {{0, 1, 2}};
void *worker(void *arg) {{
  int buf[20];
  int s = 0;
  for (int k = 0; k < 20; k++) buf[k] = k;
  for (int k = 0; k < 20; k++) s += buf[k];
  pthread_mutex_lock(&m);
  total += s;
  last = *(int *)arg;
  pthread_mutex_unlock(&m);
  return 0;
}}
int main(void) {{
  pthread_t t[3];
  for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, worker, &ids[i]);
  for (int i = 0; i < 3; i++) pthread_join(t[i], 0);
  assert(total == 570);
  {check};
  return 0;
}}
"#
        )
    };
    let (r, _) = verify(&lower("own_loops.c", &program("")), Engine::Explicit);
    assert_eq!(r.verdict, Verdict::Safe);
    // Interleaved, the loops' states would number over a million.
    assert!(r.nodes < 100_000, "{} nodes", r.nodes);
    // No schedule avoids a wrong total: `unsafe`, found without interleaving the loops.
    let (r, ivrs) = verify(
        &lower("own_loops_bad.c", &program("assert(total == 571)")),
        Engine::Explicit,
    );
    assert_eq!(r.verdict, Verdict::Unsafe);
    assert!(matches!(ivrs[0].kind, IvrKind::Counterexample(_)));
    let bad = program("assert(last != 1)");
    let (r, ivrs) = verify(&lower("own_loops_last.c", &bad), Engine::Explicit);
    assert_eq!(r.verdict, Verdict::PartiallySafe);
    assert!(ivrs
        .iter()
        .any(|i| matches!(i.kind, IvrKind::Counterexample(_))));
}

/// A division by zero that a schedule avoids (`g = 1` before the division), beside a loop
/// whose counter the first search leaves out and whose assertion holds only for its exact
/// count: what that search finds is not taken for a verdict (it would say the division
/// happens under every schedule); tracked, the counter gives the safe schedule.
#[test]
fn an_unknown_of_the_search_without_counters_is_not_the_verdict() {
    let p = lower(
        "avoidable_division.c",
        r#"
#include <pthread.h>
#include <assert.h>
int g, out;
void *u(void *a) { int z = 100 / g; out = z; return 0; }
void *t(void *a) { int i; for (i = 0; i < 1000; i += 7) { } assert(i == 1001); return 0; }
int main(void) {
  pthread_t h, k;
  pthread_create(&h, 0, t, 0);
  pthread_create(&k, 0, u, 0);
  g = 1;
  pthread_join(h, 0);
  pthread_join(k, 0);
  return 0;
}
"#,
    );
    let (r, ivrs) = verify(&p, Engine::Explicit);
    assert!(r.first_safe_ivr.is_some(), "{:?}", r.verdict);
    assert!(matches!(ivrs[0].kind, IvrKind::Safe(_)));
    assert!(
        !matches!(&r.verdict, Verdict::Unknown(why) if why.contains("every schedule")),
        "{:?}",
        r.verdict
    );
}

/// An engine's IVR reaches the schedule generator with what its check established; for
/// another program than the one it was checked for, it is checked again (and rejected where
/// it is no IVR of that program).
#[test]
fn a_checked_ivr_is_trusted_only_for_the_program_it_was_checked_for() {
    let p = lower("locked.c", LOCKED);
    let (_, ivrs) = verify(&p, Engine::Explicit);
    let IvrKind::Safe(ivr) = &ivrs[0].kind else {
        panic!("first IVR is a schedule")
    };
    let mut facts = ivr
        .facts(&p, 10_000)
        .expect("the program it was checked for");
    let root = facts.art().root();
    assert!(facts.has_states(root));
    // The same source lowered again is another program object: checked again, accepted.
    let again = lower("locked.c", LOCKED);
    assert!(ivr.facts(&again, 10_000).is_ok());
    // A program with another number of threads: checked again, rejected.
    let other = lower(
        "other.c",
        "#include <pthread.h>\nint x; void *w(void *a) { x = 1; return 0; }\nint main(void) { pthread_t t[3]; for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, w, 0); for (int i = 0; i < 3; i++) pthread_join(t[i], 0); return 0; }\n",
    );
    assert!(ivr.facts(&other, 10_000).is_err());
}

/// Threads that each copy a string into their own row of a shared array and read it back.
const ROWS: &str = r#"
#include <pthread.h>
#include <string.h>
#include <assert.h>
#define N 3
#define LEN 32
static char rows[N][LEN];
static const char *words[N] = { "alpha", "beta", "gamma" };
static void *fill(void *arg) {
  int id = *(const int *)arg;
  size_t n = strlen(words[id]);
  memcpy(rows[id], words[id], n + 1);
  assert(strlen(rows[id]) == n);
  assert(strcmp(rows[id], words[id]) == 0);
  return 0;
}
int main(void) {
  pthread_t t[N];
  int ids[N];
  for (int i = 0; i < N; i++) {
    ids[i] = i;
    pthread_create(&t[i], 0, fill, &ids[i]);
  }
  for (int i = 0; i < N; i++)
    pthread_join(t[i], 0);
  assert(strcmp(rows[1], "beta") == 0);
  return 0;
}
"#;

/// The steps of threads on their own rows of one shared array commute, though each touches
/// the array: the complete search expands one thread where the others cannot touch what its
/// step touches before it moves again, and the checker accepts the reduced ART. (Every
/// interleaving of the copies and reads took 420,465 nodes.)
#[test]
fn threads_on_their_own_rows_of_an_array_are_decided_in_few_states() {
    let p = lower("rows.c", ROWS);
    let (r, _) = verify(&p, Engine::Explicit);
    assert_eq!(r.verdict, Verdict::Safe);
    assert!(r.nodes < 20_000, "{} nodes", r.nodes);
}

/// A thread that reads another's row while it is being copied: the reduction leaves that
/// interleaving to the search, which finds the bug.
#[test]
fn a_read_of_a_row_another_thread_is_copying_is_a_bug() {
    let text = ROWS.replace(
        "  assert(strcmp(rows[id], words[id]) == 0);\n",
        "  assert(strcmp(rows[id], words[id]) == 0);\n  if (id == 2)\n    assert(!(rows[0][0] == 'a' && rows[0][3] == 0));\n",
    );
    assert_ne!(text, ROWS);
    let p = lower("rows_mid.c", &text);
    let (r, _) = verify(&p, Engine::Explicit);
    assert_eq!(r.verdict, Verdict::PartiallySafe);
    let c = r.counterexample.expect("a counterexample");
    assert!(matches!(c.execution.outcome, Outcome::Error { .. }));
}

/// Two threads started after the others and racing on a counter: they keep the stateless
/// search that runs beside the engine busy, so that the verdict is the engine's.
const NOISE: &str = r#"
static int noise;
static void *noisy(void *a) { for (int k = 0; k < 6; k++) noise++; return 0; }
static void make_noise(void) {
  pthread_t n1, n2;
  pthread_create(&n1, 0, noisy, 0);
  pthread_create(&n2, 0, noisy, 0);
  pthread_join(n1, 0);
  pthread_join(n2, 0);
}
"#;

/// A store wider than the elements it lands on touches each of them, also a field of the
/// struct beside the one its pointer names: a read of the second byte between the flags
/// around the store is a bug the reduction must leave to the search (two preemptions).
#[test]
fn a_store_wider_than_an_element_touches_every_element_it_covers() {
    for (decl, store, read) in [
        (
            "static char buf[8];",
            "*(int *)(buf + 4) = 0x01010101;",
            "char c = buf[6];",
        ),
        (
            "struct S { char a; char b; short s; };\nstatic struct S arr[4];",
            "*(short *)&arr[2].a = 0x0101;",
            "char c = arr[2].b;",
        ),
    ] {
        let text = format!(
            r#"
#include <pthread.h>
#include <assert.h>
{decl}
static int f, g;
{NOISE}
static void *wr(void *a) {{
  f = 1;
  {store}
  g = 1;
  return 0;
}}
static void *rd(void *a) {{
  int x = f;
  {read}
  int d = g;
  assert(!(x == 1 && c == 0 && d == 1));
  return 0;
}}
int main(void) {{
  pthread_t a, b;
  pthread_create(&a, 0, wr, 0);
  pthread_create(&b, 0, rd, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  make_noise();
  return 0;
}}
"#
        );
        let p = lower("wide.c", &text);
        let (r, _) = verify(&p, Engine::Explicit);
        assert_eq!(r.verdict, Verdict::PartiallySafe, "{store}");
    }
}

/// Rows written by direct indexing, whose index register the step itself sets: what the
/// search knows of the register before the step (nothing: it is dead) is not what decides
/// the footprint, so the checker, which knows no more than the label, agrees.
#[test]
fn rows_indexed_by_a_register_the_step_sets_are_decided() {
    let p = lower(
        "rows_direct.c",
        r#"
#include <pthread.h>
#include <assert.h>
#define N 3
#define LEN 8
static char rows[N][LEN];
static void *fill(void *arg) {
  int id = *(const int *)arg;
  for (int j = 0; j < LEN - 1; j++) rows[id][j] = (char)('a' + id);
  assert(rows[id][3] == 'a' + id);
  return 0;
}
int main(void) {
  pthread_t t[N];
  int ids[N];
  for (int i = 0; i < N; i++) { ids[i] = i; pthread_create(&t[i], 0, fill, &ids[i]); }
  for (int i = 0; i < N; i++) pthread_join(t[i], 0);
  return 0;
}
"#,
    );
    let (r, _) = verify(&p, Engine::Explicit);
    assert_eq!(r.verdict, Verdict::Safe);
}

/// A stream that `main` opens and checks (`if (!log) return 1;`), then workers write under a
/// mutex: the environment's choice of a failure is one bit, which the search splits into
/// its two cases, so the stream is known on each path and the workers' writes to it are no
/// null-stream bug. The program is proved safe outright (`idioms/shared_log.c`).
#[test]
fn a_stream_checked_by_main_is_known_on_each_path() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/programs/idioms");
    let p = verifier::frontend::load(&dir.join("shared_log.c"), &FOpts::default()).expect("lowers");
    let (r, ivrs) = verify(&p, Engine::Explicit);
    assert_eq!(r.verdict, Verdict::Safe, "{:?}", r.verdict);
    assert!(ivrs.iter().any(|i| matches!(i.kind, IvrKind::Safe(_))));
}

const READ_LOCKED: &str = r#"
#include <pthread.h>
#include <assert.h>
int first, second;
pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
void *reader(void *a) {
  for (int i = 0; i < 2; i++) {
    pthread_rwlock_rdlock(&l);
    int x = first;
    int y = second;
    assert(x == y);
    pthread_rwlock_unlock(&l);
  }
  return 0;
}
void *writer(void *a) {
  STRAY
  for (int i = 0; i < 2; i++) {
    pthread_rwlock_wrlock(&l);
    first = first + 1;
    second = second + 1;
    pthread_rwlock_unlock(&l);
  }
  return 0;
}
int main(void) {
  pthread_t r1, r2, w;
  pthread_create(&r1, 0, reader, 0);
  pthread_create(&w, 0, writer, 0);
  pthread_create(&r2, 0, reader, 0);
  pthread_join(r1, 0);
  pthread_join(w, 0);
  pthread_join(r2, 0);
  assert(first == 2);
  return 0;
}
"#;

/// Readers that see a writer's two stores together: `safe`, with the readers' sections
/// reduced behind the write lock. A writer that first gives back a read lock it does not
/// hold (the model then counts one reader less, and a writer may get into a reader's
/// section, or wait for a count that never comes back to 0) is not.
#[test]
fn readers_behind_a_write_lock_are_safe_and_a_stray_unlock_is_not() {
    let safe = lower("readers.c", &READ_LOCKED.replace("STRAY", ""));
    let (r, _) = verify(&safe, Engine::Explicit);
    assert_eq!(r.verdict, Verdict::Safe, "{:?}", r.verdict);
    let stray = READ_LOCKED.replace("STRAY", "pthread_rwlock_unlock(&l);");
    let (r, _) = verify(&lower("stray.c", &stray), Engine::Explicit);
    assert!(
        matches!(r.verdict, Verdict::PartiallySafe | Verdict::Unsafe),
        "{:?}",
        r.verdict
    );
}

/// Lines read with `fgets` into a buffer, measured and stripped of their newline: the
/// buffer's contents do not carry over from line to line (the model fills it whole, in one
/// step), so the states are few. Without the check for an empty line (a file may hold a null
/// byte first), the strip writes before the buffer: a bug.
const LINES: &str = r#"
#include <stdio.h>
#include <string.h>
int main(void) {
  char line[48];
  while (fgets(line, sizeof line, stdin)) {
    size_t len = strlen(line);
    if (CHECK line[len - 1] == '\n')
      line[len - 1] = 0;
  }
  return 0;
}
"#;

#[test]
fn lines_read_into_a_buffer_are_safe_and_an_empty_line_is_not() {
    let safe = lower("lines.c", &LINES.replace("CHECK", "len > 0 &&"));
    let (r, _) = verify(&safe, Engine::Explicit);
    assert_eq!(r.verdict, Verdict::Safe, "{:?}", r.verdict);
    let (r, ivrs) = verify(
        &lower("empty.c", &LINES.replace("CHECK", "")),
        Engine::Explicit,
    );
    assert!(!matches!(r.verdict, Verdict::Safe), "{:?}", r.verdict);
    assert!(ivrs
        .iter()
        .any(|i| matches!(i.kind, IvrKind::Counterexample(_))));
}

/// A thread that reads lines into a buffer of its own loops without a step another thread
/// sees where the lines are empty: a step at a local location stands for every thread only
/// where it leads deeper, as the other reductions' steps do, or that loop is a cycle on which
/// `main` never runs (which the checker rejects: the verdict was unknown).
#[test]
fn a_loop_of_local_steps_does_not_postpone_the_other_threads_for_ever() {
    let dir =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/programs/environment");
    let reader = std::fs::read_to_string(dir.join("reader_count.c")).expect("program");
    let (r, _) = verify(&lower("reader_count.c", &reader), Engine::Explicit);
    assert_eq!(r.verdict, Verdict::Safe, "{:?}", r.verdict);
}

/// The system fills a buffer byte by byte: a thread reading it meanwhile may see its first
/// byte new and its last one old, then new. And `fgets` with room for the null byte only
/// stores it and returns the buffer, as glibc's does.
#[test]
fn a_buffer_being_filled_is_seen_half_filled_and_fgets_of_one_byte_returns_it() {
    let torn = r#"
#include <pthread.h>
#include <unistd.h>
#include <assert.h>
char buf[16];
void *r(void *a) {
  char x = buf[0], y1 = buf[15], y2 = buf[15];
  assert(!(x && !y1 && y2));
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, r, 0);
  read(0, buf, 16);
  pthread_join(t, 0);
  return 0;
}
"#;
    let (r, ivrs) = verify(&lower("torn.c", torn), Engine::Auto);
    assert!(!matches!(r.verdict, Verdict::Safe), "{:?}", r.verdict);
    assert!(ivrs
        .iter()
        .any(|i| matches!(i.kind, IvrKind::Counterexample(_))));
    let one = r#"
#include <stdio.h>
#include <assert.h>
int main(void) { char c[1] = {1}; if (fgets(c, 1, stdin)) assert(c[0] != 0); return 0; }
"#;
    let (r, _) = verify(&lower("one.c", one), Engine::Explicit);
    assert_eq!(r.verdict, Verdict::Unsafe, "{:?}", r.verdict);
}

/// A loop that counts its rounds in a signed counter without a bound has more states than any
/// budget (the counter may overflow, so the search keeps its value): the answer `unknown`
/// names the counter as what grows, with the default engine too, whose symbolic engine
/// runs after the explicit search.
#[test]
fn an_unknown_names_the_counter_that_grows() {
    let p = lower(
        "rounds.c",
        r#"
extern int __VERIFIER_nondet_int(void);
long rounds;
int main(void) {
  while (__VERIFIER_nondet_int())
    rounds++;
  return 0;
}
"#,
    );
    for engine in [Engine::Explicit, Engine::Auto] {
        let opts = Options {
            timeout: Duration::from_secs(2),
            ..Options::default()
        };
        let r = run_iterative(&p, opts, engine, usize::MAX, None, &mut |_| {});
        let Verdict::Unknown(why) = &r.verdict else {
            panic!("{engine:?}: {:?}", r.verdict);
        };
        assert!(
            why.contains("the cells that vary most: `rounds` ("),
            "{engine:?}: {why}"
        );
    }
}

/// A thread branches on the bits of a number `main` computes from its input (`(n >> i) & 1`,
/// a shift by its loop's counter): the checker's encoding of a shift by an amount not known
/// statically has a case per amount, so the point labels of the explicit states show which
/// arm is not taken. Before, any value stood for the shift and no ART was accepted. A check
/// that a bit-counting worker can break is a bug found.
#[test]
fn a_shift_by_a_loop_counter_is_exact_in_the_labels() {
    const BITS: &str = r#"
#include <pthread.h>
#include <assert.h>
#include <stdio.h>
#include <string.h>
int ones, zeros;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  long n = (long)arg;
  for (int i = 0; i < 2; i++) {
    pthread_mutex_lock(&m);
    if ((n >> i) & 1) ones++; else zeros++;
    pthread_mutex_unlock(&m);
  }
  return 0;
}
int main(void) {
  char line[6];
  if (!fgets(line, sizeof line, stdin)) return 1;
  pthread_t t;
  pthread_create(&t, 0, worker, (void *)(long)strlen(line));
  pthread_join(t, 0);
  assert(CHECK);
  return 0;
}
"#;
    let (r, _) = verify(
        &lower("bits.c", &BITS.replace("CHECK", "ones + zeros == 2")),
        Engine::Explicit,
    );
    assert_eq!(r.verdict, Verdict::Safe);
    // A line of length 3 sets both bits.
    let (r, ivrs) = verify(
        &lower("bits_bug.c", &BITS.replace("CHECK", "ones < 2")),
        Engine::Explicit,
    );
    assert!(!matches!(r.verdict, Verdict::Safe), "{:?}", r.verdict);
    assert!(ivrs
        .iter()
        .any(|i| matches!(i.kind, IvrKind::Counterexample(_))));
}
