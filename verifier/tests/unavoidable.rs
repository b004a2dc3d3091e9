//! Unavoidable bugs (`verifier::unavoidable`): a bug on whose execution no scheduler has a
//! choice, or that every schedule with the execution's inputs meets, and which decides only
//! on the program's inputs, makes a program with inputs `unsafe`; a choice of the scheduler, a value the model makes up, or a creation refused for
//! the thread bound leaves it avoidable.

mod common;

use std::sync::Arc;
use verifier::engine::{run_iterative_scoped, Engine};
use verifier::frontend::{load_str, Options as FOpts};
use verifier::imc::{Ivr, IvrKind, Options, Verdict};
use verifier::interp::{self, Choice, Execution, Oracle};
use verifier::ir::{Program, ThreadId, TransId, Ty, VarId};
use verifier::ivr::{verify_file, Checked, IvrFile};
use verifier::scope::Lower;
use verifier::unavoidable::unavoidable;

fn lower(text: &str, max_threads: usize) -> Program {
    let opts = FOpts {
        max_threads,
        ..FOpts::default()
    };
    load_str("unavoidable.c", text, &opts).expect("lowers")
}

/// Takes the first enabled transition at each step, with the given inputs.
struct First(Vec<i128>);

impl Oracle for First {
    fn pick(&mut self, _step: usize, _enabled: &[(ThreadId, TransId)]) -> Choice {
        Choice::Take(0)
    }
    fn input(&mut self, _ty: Ty) -> i128 {
        if self.0.is_empty() {
            0
        } else {
            self.0.remove(0)
        }
    }
    fn initial(&mut self, _var: VarId, _index: usize, _ty: Ty) -> i128 {
        0
    }
}

/// The run of `p` that takes the first enabled transition at each step with `inputs`; it
/// ends in a bug.
fn bug(p: &Program, inputs: &[i128]) -> Execution {
    let (e, _) = interp::run(p, &mut First(inputs.to_vec()), 10_000);
    assert!(e.outcome.is_bug(), "{:?}", e.outcome);
    e
}

fn verdict(p: &Program) -> (Verdict, Vec<Ivr>) {
    common::verdict_and_ivrs(p)
}

/// Main joins its thread before it checks its input: for input 999 every scheduler fails.
const JOINED_THEN_CHECKED: &str = r#"
#include <assert.h>
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
int g;
void *t(void *a) { g = 1; return 0; }
int main(void) {
  pthread_t h;
  int n = __VERIFIER_nondet_int();
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  assert(n + g != 1000);
  return 0;
}
"#;

#[test]
fn a_bug_no_scheduler_avoids_for_some_input_is_unsafe() {
    let p = lower(JOINED_THEN_CHECKED, 64);
    assert_eq!(unavoidable(&p, &bug(&p, &[999])), Ok(()));
    let (v, ivrs) = verdict(&p);
    assert_eq!(v, Verdict::Unsafe);
    // Its counterexample replays, checked on its own.
    let cex = ivrs
        .iter()
        .rev()
        .find(|i| matches!(i.kind, IvrKind::Counterexample(_)))
        .expect("emitted");
    let text = serde_json::to_string(&IvrFile::new(&p, cex)).unwrap();
    assert!(matches!(
        verify_file(&p, &text, 30_000),
        Ok(Checked::Counterexample { .. })
    ));
}

#[test]
fn a_deadlock_no_scheduler_avoids_for_some_input_is_unsafe() {
    let p = lower(
        r#"
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int main(void) {
  if (__VERIFIER_nondet_int() == 5) {
    pthread_mutex_lock(&m);
    pthread_mutex_lock(&m);
  }
  return 0;
}
"#,
        64,
    );
    assert_eq!(unavoidable(&p, &bug(&p, &[5])), Ok(()));
    assert_eq!(verdict(&p).0, Verdict::Unsafe);
}

/// Main reads an input, takes a mutex its thread also takes, joins it and checks the
/// input: the scheduler chooses who takes the mutex first, but for input 5 every schedule
/// fails, which the search of every schedule with that input shows. Where the check also
/// reads what the thread wrote, a scheduler avoids the bug by running the thread first.
#[test]
fn a_bug_every_schedule_of_its_input_meets_is_unsafe() {
    let text = r#"
#include <assert.h>
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
int seen;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *t(void *a) {
  pthread_mutex_lock(&m);
  seen++;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  int x = __VERIFIER_nondet_int();
  pthread_mutex_lock(&m);
  seen++;
  pthread_mutex_unlock(&m);
  CHECK;
  pthread_join(h, 0);
  return 0;
}
"#;
    let p = lower(&text.replace("CHECK", "assert(x != 5)"), 64);
    assert_eq!(unavoidable(&p, &bug(&p, &[5])), Ok(()));
    assert_eq!(verdict(&p).0, Verdict::Unsafe);
    let p = lower(&text.replace("CHECK", "assert(!(x == 5 && seen == 1))"), 64);
    let why = unavoidable(&p, &bug(&p, &[5])).expect_err("avoidable");
    assert!(why.contains("a scheduler may choose"), "{why}");
    assert_eq!(verdict(&p).0, Verdict::PartiallySafe);
}

#[test]
fn a_bug_a_scheduler_avoids_is_not_unsafe() {
    // The thread may run before main checks: then `g` is 1.
    let p = lower(
        r#"
#include <assert.h>
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
int g;
void *t(void *a) { g = 1; return 0; }
int main(void) {
  pthread_t h;
  int n = __VERIFIER_nondet_int();
  pthread_create(&h, 0, t, 0);
  assert(!(n == 3 && g == 0));
  pthread_join(h, 0);
  return 0;
}
"#,
        64,
    );
    let why = unavoidable(&p, &bug(&p, &[3])).expect_err("avoidable");
    assert!(why.contains("a scheduler may choose"), "{why}");
    assert_eq!(verdict(&p).0, Verdict::PartiallySafe);
}

#[test]
fn a_bug_that_decides_on_a_value_the_model_makes_up_is_not_unsafe() {
    // printf returns 2 here; the model does not compute it.
    let p = lower(
        r#"
#include <assert.h>
#include <stdio.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n > 5 && printf("x\n") != 2) assert(0);
  return 0;
}
"#,
        64,
    );
    let why = unavoidable(&p, &bug(&p, &[6, 0])).expect_err("avoidable");
    assert!(why.contains("does not compute"), "{why}");
    assert!(!matches!(verdict(&p).0, Verdict::Unsafe | Verdict::Safe));
}

#[test]
fn a_bug_on_uninitialised_memory_is_not_unsafe() {
    let p = lower(
        r#"
#include <assert.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int *a = malloc(2 * sizeof(int));
  if (!a) return 0;
  a[0] = __VERIFIER_nondet_int();
  assert(a[0] + a[1] != 7);
  free(a);
  return 0;
}
"#,
        64,
    );
    let e = bug(&p, &[7]);
    let why = unavoidable(&p, &e).expect_err("avoidable");
    assert!(why.contains("does not compute"), "{why}");
    assert_ne!(verdict(&p).0, Verdict::Unsafe);
}

#[test]
fn a_trace_names_the_uninitialised_memory_its_bug_rests_on() {
    // `x.b` is read before it is written and decides the assertion (it fails where `x.b`
    // held the largest value, which the trace shows as the 64-bit cell's -1); `x.a` and
    // `x.c` are written first, so whatever they held does not matter.
    let p = lower(
        r#"
#include <assert.h>
#include <stddef.h>
struct s { int a; size_t b; size_t c; };
void set(struct s *x) { x->a = 1; x->c = 2; }
int main(void) {
  struct s x;
  set(&x);
  x.b++;
  assert(x.b != 0);
  return 0;
}
"#,
        64,
    );
    let (v, ivrs) = verdict(&p);
    assert_ne!(v, Verdict::Safe);
    let cex = ivrs
        .iter()
        .find_map(|i| match &i.kind {
            IvrKind::Counterexample(c) => Some(c),
            _ => None,
        })
        .expect("a counterexample");
    let trace = p.show_execution(&cex.execution);
    let line = trace
        .lines()
        .find(|l| l.starts_with("uninitialised memory at the start"))
        .unwrap_or_else(|| panic!("{trace}"));
    assert!(line.ends_with(": T0::main::x.1=-1"), "{line}");
}

#[test]
fn a_program_s_own_nondet_function_is_no_input() {
    // Its definition returns 3: the program is safe.
    let p = lower(
        r#"
#include <assert.h>
int __VERIFIER_nondet_int(void) { return 3; }
int main(void) {
  assert(__VERIFIER_nondet_int() != 5);
  return 0;
}
"#,
        64,
    );
    assert!(!p.vars.iter().any(|v| v.input));
    assert_eq!(verdict(&p).0, Verdict::Safe);
}

#[test]
fn a_bug_that_needs_a_refused_creation_is_not_unsafe() {
    // With the thread bound at main alone, the creation is refused; without the bound it
    // succeeds.
    let p = lower(
        r#"
#include <assert.h>
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
void *t(void *a) { return 0; }
int main(void) {
  pthread_t h[4];
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 4) return 0;
  for (int i = 0; i < n; i++)
    if (pthread_create(&h[i], 0, t, 0) != 0) assert(0);
  return 0;
}
"#,
        1,
    );
    let e = bug(&p, &[1]);
    let why = unavoidable(&p, &e).expect_err("avoidable");
    assert!(why.contains("refused"), "{why}");
    assert_ne!(verdict(&p).0, Verdict::Unsafe);
}

/// `bench/inputs/rounds_check.c`: an input's number of rounds beside a thread, then a check
/// of what they counted: the search beside the engines finds the bug (input 3, at the
/// program's check) and every scheduler meets it, which ends the run as `unsafe` (the
/// explicit search alone would go on through the rounds of every input).
#[test]
fn a_bug_every_scheduler_meets_found_beside_the_engines_is_unsafe() {
    let p = lower(include_str!("../../bench/inputs/rounds_check.c"), 64);
    let itself = p.clone();
    let scope: Lower = Arc::new(move |k: Option<usize>| k.is_none().then(|| itself.clone()));
    let opts = Options {
        timeout: std::time::Duration::from_secs(30),
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
    assert_eq!(r.verdict, Verdict::Unsafe);
}

/// An address read as a number by a function that gets a pointer to where it is kept (the
/// front end's check of the program looks within each function): the model's numbers are
/// made up, so the bug is not `unsafe` (glibc's blocks are 16-byte aligned: the compiled
/// program passes).
#[test]
fn an_address_read_as_a_number_in_another_function_is_made_up() {
    let p = lower(
        r#"
#include <assert.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
union pun { void *p; unsigned long n; };
__attribute__((noinline)) static unsigned long bits(union pun *u) { return u->n; }
int main(void) {
  if (__VERIFIER_nondet_int() != 1) return 0;
  union pun u;
  u.p = malloc(8);
  if (!u.p) return 0;
  assert((bits(&u) & 15) == 0);
  return 0;
}
"#,
        64,
    );
    assert_ne!(verdict(&p).0, Verdict::Unsafe);
}

#[test]
fn a_bug_after_many_rounds_of_a_loop_on_an_input_is_unsafe() {
    let p = lower(
        r#"
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 100000) return 0;
  int i = 0;
  while (i < n) i++;
  assert(i != 77777);
  return 0;
}
"#,
        64,
    );
    assert_eq!(verdict(&p).0, Verdict::Unsafe);
}

#[test]
fn a_bug_on_a_result_of_the_environment_model_is_not_unsafe() {
    // The model lets `close` fail; whether it does is no input of the program.
    let p = lower(
        r#"
#include <assert.h>
#include <fcntl.h>
#include <unistd.h>
int main(void) {
  int fd = open("/etc/hostname", O_RDONLY);
  if (fd >= 0) assert(close(fd) == 0);
  return 0;
}
"#,
        64,
    );
    assert!(!p.vars.iter().any(|v| v.input));
    assert_ne!(verdict(&p).0, Verdict::Unsafe);
}

/// Programs whose bug rests on what the model makes up (an unknown function that does not
/// return, the numbers of thread ids and addresses, memory an unknown function writes
/// through a pointer in a struct): never `unsafe`, though no scheduler has a choice.
#[test]
fn a_bug_on_what_the_model_makes_up_is_not_unsafe() {
    let gate =
        "#include <assert.h>\n#include <errno.h>\n#include <error.h>\n#include <pthread.h>\n\
                #include <stdlib.h>\n#include <sys/uio.h>\n#include <unistd.h>\n\
                extern int __VERIFIER_nondet_int(void);\n\
                static void *f(void *a) { return a; }\n\
                union pun { void *p; unsigned long n; };\n\
                int main(void) {\n  if (__VERIFIER_nondet_int() != 1) return 0;\n";
    let bodies = [
        // error() with a nonzero status exits.
        "error(1, 0, \"stop\"); assert(0);",
        // A pthread_t is a 64-byte aligned address in glibc.
        "pthread_t t; pthread_create(&t, 0, f, 0); unsigned long v = (unsigned long)t; \
         pthread_join(t, 0); assert((v & 63) == 0);",
        // malloc's blocks are 16-byte aligned.
        "union pun u; u.p = malloc(8); if (!u.p) return 0; assert((u.n & 15) == 0);",
        // readv writes through the iovec's pointer.
        "int fds[2]; pipe(fds); write(fds[1], \"x\", 1); char buf[1] = {'y'}; \
         struct iovec v = {buf, 1}; readv(fds[0], &v, 1); assert(buf[0] == 'x');",
    ];
    for body in bodies {
        let p = lower(&format!("{gate}  {body}\n  return 0;\n}}\n"), 64);
        assert_ne!(verdict(&p).0, Verdict::Unsafe, "{body}");
    }
}

/// An address read as a number through a union, with no input on the way: the model's
/// addresses are made up (malloc's blocks are 16-byte aligned, so the compiled programs pass
/// the assertions), and every schedule failing in the model shows nothing: with no choice
/// at all, with a thread running beside the failing one, and with the union written and
/// read in two functions.
#[test]
fn a_bug_on_an_address_read_through_a_union_is_not_unsafe() {
    let bodies = [
        "union pun u; u.p = malloc(8); if (!u.p) return 0; assert((u.n & 15) == 0);",
        "pthread_t t; pthread_create(&t, 0, f, 0); union pun u; u.p = malloc(8); \
         if (!u.p) return 0; assert((u.n & 15) == 0); pthread_join(t, 0);",
        "put(); if (!g.p) return 0; assert((get() & 15) == 0);",
    ];
    for body in bodies {
        let p = lower(
            &format!(
                "#include <assert.h>\n#include <pthread.h>\n#include <stdlib.h>\n\
                 static void *f(void *a) {{ return a; }}\n\
                 union pun {{ void *p; unsigned long n; }};\n\
                 union pun g;\n\
                 __attribute__((noinline)) void put(void) {{ g.p = malloc(8); }}\n\
                 __attribute__((noinline)) unsigned long get(void) {{ return g.n; }}\n\
                 int main(void) {{\n  {body}\n  return 0;\n}}\n"
            ),
            64,
        );
        assert!(p.observes_numbering.is_some(), "{body}");
        assert_ne!(verdict(&p).0, Verdict::Unsafe, "{body}");
    }
}

#[test]
fn an_unknown_function_may_set_errno() {
    // sysconf of an invalid name sets EINVAL.
    let p = lower(
        r#"
#include <assert.h>
#include <errno.h>
#include <unistd.h>
int main(void) {
  errno = 0;
  sysconf(-12345);
  assert(errno == 0);
  return 0;
}
"#,
        64,
    );
    assert_ne!(verdict(&p).0, Verdict::Safe);
}

#[test]
fn an_undefined_value_reaching_a_phi_is_any_value() {
    // `u` is never initialised: the loop may run three rounds.
    let p = lower(
        r#"
#include <assert.h>
static int g(void) {
  int u;
  int c = 0;
  while (u > 0 && c < 3) { c++; u--; }
  return c;
}
int main(void) {
  assert(g() != 3);
  return 0;
}
"#,
        64,
    );
    let v = verdict(&p).0;
    assert!(!matches!(v, Verdict::Safe | Verdict::Unsafe), "{v:?}");
}

/// A thread-specific value's destructor gets what `pthread_setspecific` set: where every
/// value set is a number (`(void *)42`), the destructor's `(long)v` reads no address, and a
/// bug every scheduler meets is `unsafe`; where one is an address, it is not known to be.
#[test]
fn a_destructor_that_gets_numbers_reads_no_address() {
    let program = |value: &str| {
        format!(
            r#"
#include <assert.h>
#include <pthread.h>
int g;
void dtor(void *v) {{ long val = (long)v; assert(val != 42); }}
void *worker(void *k) {{ pthread_setspecific(*(pthread_key_t *)k, {value}); return 0; }}
int main(void) {{
  pthread_key_t key;
  pthread_key_create(&key, dtor);
  pthread_t t;
  pthread_create(&t, 0, worker, &key);
  pthread_join(t, 0);
  return 0;
}}
"#
        )
    };
    let p = lower(&program("(void *)42"), 64);
    assert!(p.observes_numbering.is_none());
    assert_eq!(verdict(&p).0, Verdict::Unsafe);
    let p = lower(&program("&g"), 64);
    assert!(p.observes_numbering.is_some());
    assert_ne!(verdict(&p).0, Verdict::Unsafe);
}

/// An assumption over a shared variable that only its own thread writes (an input `main`
/// stores in a global that its threads read) fails for good: it discards the execution, as
/// `abort()` in `assume_abort_if_not` ends the program, and is no deadlock. One over a
/// variable another thread writes waits for it: where that thread never makes it hold, the
/// wait is a deadlock no scheduler avoids.
#[test]
fn an_assumption_only_its_own_thread_can_make_hold_discards_and_does_not_deadlock() {
    let text = |writer: &str| {
        format!(
            r#"
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
extern unsigned __VERIFIER_nondet_uint(void);
static void assume_abort_if_not(int c) {{ if (!c) abort(); }}
volatile unsigned n, seen;
void *reader(void *a) {{ seen = n; {writer}; return 0; }}
int main(void) {{
  pthread_t t;
  n = __VERIFIER_nondet_uint();
  pthread_create(&t, 0, reader, 0);
  assume_abort_if_not(n >= 2 && n < 4);
  pthread_join(t, 0);
  assert(seen < 4);
  return 0;
}}
"#
        )
    };
    let (v, _) = verdict(&lower(&text("(void)0"), 64));
    assert_eq!(v, Verdict::Safe);
    // The thread stores 7 in `n`: main's assumption may wait for a value it never gets.
    let (v, ivrs) = verdict(&lower(&text("n = 7"), 64));
    assert_ne!(v, Verdict::Safe);
    assert!(ivrs.iter().any(|i| matches!(
        &i.kind,
        IvrKind::Counterexample(c) if matches!(c.execution.outcome, interp::Outcome::Deadlock { .. })
    )));
}

/// `w` fails on its input 1 and reads nothing any other thread writes; `u` writes a global
/// (`tail`), and `main` waits for `u` and then `ending`.
fn on_its_own(w_reads: &str, tail: &str, ending: &str) -> String {
    format!(
        r#"
#include <pthread.h>
#include <stdlib.h>
extern unsigned __VERIFIER_nondet_uint(void);
extern void reach_error(void);
int shared;
void *w(void *a) {{
  unsigned x = __VERIFIER_nondet_uint();
  if (x == 1{w_reads}) reach_error();
  return 0;
}}
void *u(void *a) {{
  shared = 1;
  {tail}
  return 0;
}}
int main(void) {{
  pthread_t t, v;
  pthread_create(&t, 0, w, 0);
  pthread_create(&v, 0, u, 0);
  pthread_join(v, 0);
  {ending}
}}
"#
    )
}

/// Where the scheduler has a choice, a bug is still unavoidable when the failing thread,
/// already started, goes on to it on its own: its steps wait for nothing, read nothing
/// another thread writes, and no other thread can end the program first. A read of what
/// another thread writes, a `main` that may return (ending the program before the failing
/// thread runs) or another thread that may call `exit` leaves it avoidable.
#[test]
fn a_thread_that_fails_on_its_own_makes_the_bug_unavoidable() {
    let alone = lower(&on_its_own("", "", "while (1) ;"), 64);
    unavoidable(&alone, &bug(&alone, &[1])).expect("unavoidable");
    assert_eq!(verdict(&alone).0, Verdict::Unsafe);
    for (w_reads, tail, ending, why) in [
        (
            " && shared == 0",
            "",
            "while (1) ;",
            "reads what another thread writes",
        ),
        ("", "", "return 0;", "may end the program first"),
        ("", "exit(0);", "while (1) ;", "may end the program first"),
    ] {
        let p = lower(&on_its_own(w_reads, tail, ending), 64);
        let e = bug(&p, &[1]);
        let err = unavoidable(&p, &e).expect_err("avoidable");
        assert!(err.contains(why), "{err}");
        assert_ne!(verdict(&p).0, Verdict::Unsafe, "{w_reads} {tail} {ending}");
    }
}

/// Takes the last enabled transition at each step (the newest thread first), with inputs 0.
struct Last;

impl Oracle for Last {
    fn pick(&mut self, _step: usize, enabled: &[(ThreadId, TransId)]) -> Choice {
        Choice::Take(enabled.len() - 1)
    }
    fn input(&mut self, _ty: Ty) -> i128 {
        0
    }
    fn initial(&mut self, _var: VarId, _index: usize, _ty: Ty) -> i128 {
        0
    }
}

/// In a small scope (one thread per start function), the thread of `f` stands for the
/// threads the scope leaves out only where they run its code: `f` is lowered for its
/// argument, and where the creations pass different ones (`i % 2`), a left-out thread may
/// set `g` before the failing one reads it. With the same argument everywhere, every thread
/// of `f` fails on its own.
#[test]
fn a_thread_a_small_scope_leaves_out_may_avoid_the_bug() {
    let text = |arg: &str| {
        format!(
            r#"
#include <pthread.h>
extern void reach_error(void);
int g;
void *f(void *a) {{
  if (a) g = 1;
  else if (g == 0) reach_error();
  return 0;
}}
int main(void) {{
  pthread_t t;
  for (long i = 0; i < 8; i++) pthread_create(&t, 0, f, (void *)({arg}));
  while (1) ;
}}
"#
        )
    };
    let scope = |arg: &str| {
        let opts = FOpts {
            max_threads: 64,
            max_threads_per_function: Some(1),
            ..FOpts::default()
        };
        load_str("scope.c", &text(arg), &opts).expect("lowers")
    };
    let run = |p: &Program| {
        let (e, _) = interp::run(p, &mut Last, 10_000);
        assert!(e.outcome.is_bug(), "{:?}", e.outcome);
        e
    };
    let varying = scope("i % 2");
    let err = unavoidable(&varying, &run(&varying)).expect_err("avoidable");
    assert!(err.contains("leaves out"), "{err}");
    let same = scope("0");
    unavoidable(&same, &run(&same)).expect("unavoidable");
}
