//! The program model of DESIGN.md on small multithreaded programs: synchronisation, atomic
//! regions, assumptions, termination and deadlock, checked over many random schedules.

use std::collections::BTreeSet;
use verifier::frontend::load_str;
use verifier::frontend::Options;
use verifier::interp::{run, Outcome, RandomOracle};

/// The set of outcome kinds over `seeds` random runs.
fn outcomes(src: &str, seeds: u64) -> BTreeSet<&'static str> {
    let prog = load_str("t.c", src, &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    (0..seeds)
        .map(
            |s| match run(&prog, &mut RandomOracle::new(s), 100_000).0.outcome {
                Outcome::Error { .. } => "error",
                Outcome::Deadlock { .. } => "deadlock",
                Outcome::Terminated => "terminated",
                Outcome::Halted => "halted",
                Outcome::Discarded => "discarded",
                Outcome::Undefined { .. } => "undefined",
                Outcome::StepBound => "bound",
                _ => "other",
            },
        )
        .collect()
}

fn set(xs: &[&'static str]) -> BTreeSet<&'static str> {
    xs.iter().copied().collect()
}

const PRELUDE: &str = "#include <pthread.h>\n#include <assert.h>\nextern int __VERIFIER_nondet_int(void);\nextern void __VERIFIER_assume(int);\nextern void reach_error(void);\n";

#[test]
fn mutex_protects_and_lost_update_is_found() {
    let locked = format!("{PRELUDE}int x; pthread_mutex_t m;\nvoid *f(void *a) {{ pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); return 0; }}\nint main(void) {{ pthread_t t[3]; for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, f, 0); for (int i = 0; i < 3; i++) pthread_join(t[i], 0); assert(x == 3); return 0; }}\n");
    assert_eq!(outcomes(&locked, 200), set(&["halted"]));
    let racy = locked
        .replace("pthread_mutex_lock(&m);", "")
        .replace("pthread_mutex_unlock(&m);", "");
    assert_eq!(outcomes(&racy, 200), set(&["error", "halted"]));
}

#[test]
fn double_lock_deadlocks_and_termination_is_not_deadlock() {
    let dl = format!("{PRELUDE}pthread_mutex_t a, b;\nvoid *f(void *x) {{ pthread_mutex_lock(&a); pthread_mutex_lock(&b); pthread_mutex_unlock(&b); pthread_mutex_unlock(&a); return 0; }}\nvoid *g(void *x) {{ pthread_mutex_lock(&b); pthread_mutex_lock(&a); pthread_mutex_unlock(&a); pthread_mutex_unlock(&b); return 0; }}\nint main(void) {{ pthread_t s, t; pthread_create(&s, 0, f, 0); pthread_create(&t, 0, g, 0); pthread_exit(0); }}\n");
    // main exits with pthread_exit: the others run on; all terminate, or they deadlock.
    assert_eq!(outcomes(&dl, 300), set(&["deadlock", "terminated"]));
}

#[test]
fn atomic_function_with_leading_assume_waits_instead_of_deadlocking() {
    let src = format!("{PRELUDE}int lock; int in_cs;\nvoid __VERIFIER_atomic_acquire(void) {{ __VERIFIER_assume(lock == 0); lock = 1; }}\nvoid __VERIFIER_atomic_release(void) {{ lock = 0; }}\nvoid *f(void *a) {{ __VERIFIER_atomic_acquire(); in_cs++; if (in_cs != 1) reach_error(); in_cs--; __VERIFIER_atomic_release(); return 0; }}\nint main(void) {{ pthread_t s, t; pthread_create(&s, 0, f, 0); pthread_create(&t, 0, f, 0); pthread_join(s, 0); pthread_join(t, 0); return 0; }}\n");
    assert_eq!(outcomes(&src, 300), set(&["halted"]));
    // The region has written what the assumption reads: it cannot wait before it begins,
    // and inside it nothing else runs.
    let late = src.replace(
        "{ __VERIFIER_assume(lock == 0); lock = 1; }",
        "{ lock = 1; __VERIFIER_assume(lock == 0); }",
    );
    assert_ne!(late, src);
    assert_eq!(outcomes(&late, 300), set(&["deadlock"]));
    // A condition of several parts (clang branches over `&&`) waits as one.
    let both = src.replace("int lock;", "int lock, busy;").replace(
        "__VERIFIER_assume(lock == 0);",
        "__VERIFIER_assume(lock == 0 && busy == 0);",
    );
    assert_eq!(outcomes(&both, 300), set(&["halted"]));
    // A path that leaves the region's start before the assumption (here to an error) keeps
    // the assumption where it is: the error stays reachable.
    let away = src.replace(
        "{ __VERIFIER_assume(lock == 0); lock = 1; }",
        "{ if (lock) reach_error(); __VERIFIER_assume(lock == 0); lock = 1; }",
    );
    assert_ne!(away, src);
    assert!(outcomes(&away, 300).contains("error"));
}

#[test]
fn assume_on_inputs_discards_and_assume_on_shared_state_waits() {
    let local = format!("{PRELUDE}int main(void) {{ int k = __VERIFIER_nondet_int(); __VERIFIER_assume(k > 0); assert(k > 0); return 0; }}\n");
    let o = outcomes(&local, 100);
    assert!(
        o.contains("discarded") && o.contains("halted") && !o.contains("error"),
        "{o:?}"
    );
    let shared = format!("{PRELUDE}int flag; int data;\nvoid *f(void *a) {{ data = 42; flag = 1; return 0; }}\nint main(void) {{ pthread_t t; pthread_create(&t, 0, f, 0); __VERIFIER_assume(flag == 1); assert(data == 42); return 0; }}\n");
    assert_eq!(outcomes(&shared, 200), set(&["halted"]));
}

#[test]
fn condition_variables_wake_waiters_and_a_lost_signal_deadlocks() {
    let ok = format!("{PRELUDE}pthread_mutex_t m; pthread_cond_t c; int ready;\nvoid *f(void *a) {{ pthread_mutex_lock(&m); ready = 1; pthread_cond_signal(&c); pthread_mutex_unlock(&m); return 0; }}\nint main(void) {{ pthread_t t; pthread_create(&t, 0, f, 0); pthread_mutex_lock(&m); while (!ready) pthread_cond_wait(&c, &m); pthread_mutex_unlock(&m); pthread_join(t, 0); return 0; }}\n");
    assert_eq!(outcomes(&ok, 300), set(&["halted"]));
    // Waiting without checking the flag: the signal may come first and be lost.
    let lost = ok.replace("while (!ready) pthread_cond_wait", "pthread_cond_wait");
    assert_eq!(outcomes(&lost, 300), set(&["deadlock", "halted"]));
}

#[test]
fn barriers_release_all_threads_together() {
    let src = format!("{PRELUDE}pthread_barrier_t b; int arrived;\npthread_mutex_t m;\nvoid *f(void *a) {{ pthread_mutex_lock(&m); arrived++; pthread_mutex_unlock(&m); pthread_barrier_wait(&b); pthread_mutex_lock(&m); if (arrived != 3) reach_error(); pthread_mutex_unlock(&m); return 0; }}\nint main(void) {{ pthread_t t[3]; pthread_barrier_init(&b, 0, 3); for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, f, 0); for (int i = 0; i < 3; i++) pthread_join(t[i], 0); return 0; }}\n");
    assert_eq!(outcomes(&src, 300), set(&["halted"]));
}

#[test]
fn thread_arguments_and_heap_objects() {
    // Each thread gets its own index through the argument; the heap array collects them.
    let src = format!("{PRELUDE}#include <stdlib.h>\nint *slots; int ids[4];\nvoid *f(void *a) {{ int *p = (int *)a; slots[*p] = *p + 1; return 0; }}\nint main(void) {{ pthread_t t[4]; slots = (int *)calloc(4, sizeof(int)); for (int i = 0; i < 4; i++) {{ ids[i] = i; pthread_create(&t[i], 0, f, &ids[i]); }} for (int i = 0; i < 4; i++) pthread_join(t[i], 0); for (int i = 0; i < 4; i++) assert(slots[i] == i + 1); return 0; }}\n");
    assert_eq!(outcomes(&src, 200), set(&["halted"]));
}

#[test]
fn undefined_behaviour_is_reported_not_guessed() {
    // Through a pointer: undefined behaviour the interpreter meets.
    let src = format!("{PRELUDE}int a[4];\nint main(void) {{ int k = __VERIFIER_nondet_int(); __VERIFIER_assume(k >= 0 && k <= 4); int *p = a; p[k] = 1; return 0; }}\n");
    let o = outcomes(&src, 300);
    assert!(o.contains("undefined") && o.contains("halted"), "{o:?}");
    // Indexing the array itself: clang's bounds check, an error.
    let src = src.replace("int *p = a; p[k] = 1;", "a[k] = 1;");
    let o = outcomes(&src, 300);
    assert!(o.contains("error") && o.contains("halted"), "{o:?}");
}

#[test]
fn a_local_array_passed_to_a_thread_is_shared_access_by_access() {
    // `arr` decays to a pointer the thread writes through: main's two reads must be separate
    // steps, so the thread can write between them.
    let src = format!("{PRELUDE}void *w(void *arg) {{ int *a = (int *)arg; a[0] = 1; a[1] = 1; return 0; }}\nint main(void) {{ int arr[2] = {{0, 0}}; pthread_t t; pthread_create(&t, 0, w, arr); int s = arr[1] + arr[0]; if (s == 1 && arr[1] == 1) reach_error(); pthread_join(t, 0); return 0; }}\n");
    assert_eq!(outcomes(&src, 300), set(&["error", "halted"]));
}

#[test]
fn start_function_parameters_are_not_visible_in_callees() {
    let src = format!("{PRELUDE}int arg = 7; int seen;\nint get(void) {{ return arg; }}\nvoid *w(void *arg) {{ seen = get(); return 0; }}\nint main(void) {{ pthread_t t; pthread_create(&t, 0, w, 0); pthread_join(t, 0); assert(seen == 7); return 0; }}\n");
    assert_eq!(outcomes(&src, 50), set(&["halted"]));
}

#[test]
fn a_buffer_a_thread_formats_into_stays_its_own() {
    // `snprintf`'s arguments share one buffer of longs, the string's address among them; the
    // digits of `id` are a remainder of what is read from it, and index the digits' string,
    // not any object: no thread reads another's `tmp`.
    let src = format!("{PRELUDE}#include <stdio.h>\n#include <string.h>\nstatic const char *names[2] = {{\"alpha\", \"beta\"}};\nchar out[2][32];\nvoid *w(void *a) {{ int id = *(int *)a; char tmp[32]; snprintf(tmp, sizeof tmp, \"%d:%s\", id, names[id]); memcpy(out[id], tmp, strlen(tmp) + 1); return 0; }}\nint main(void) {{ pthread_t t[2]; int ids[2] = {{0, 1}}; for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, w, &ids[i]); for (int i = 0; i < 2; i++) pthread_join(t[i], 0); assert(strcmp(out[1], \"1:beta\") == 0); return 0; }}\n");
    let prog = load_str("t.c", &src, &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    let shared: Vec<&str> = (prog.vars.iter())
        .filter(|v| v.shared)
        .map(|v| v.name.as_str())
        .collect();
    assert!(shared.iter().all(|n| !n.contains("tmp")), "{shared:?}");
    assert!(shared.iter().any(|n| n.contains("out")), "{shared:?}");
    assert_eq!(outcomes(&src, 50), set(&["halted"]));
}

#[test]
fn a_store_wider_than_its_target_has_events_on_every_variable_it_may_cover() {
    // A `short` stored at `&arr[2].a` also writes `arr[2].b`, a variable of its own: the
    // store's events name every shared variable of the object, whole, so that neither a
    // schedule nor the explorer takes it as independent of a read of `b`.
    let src = format!("{PRELUDE}struct S {{ char a; char b; short s; }};\nstruct S arr[4];\nvoid *w(void *x) {{ *(short *)&arr[2].a = 0x0101; return 0; }}\nvoid *r(void *x) {{ char c = arr[2].b; (void)c; return 0; }}\nint main(void) {{ pthread_t t1, t2; pthread_create(&t1, 0, w, 0); pthread_create(&t2, 0, r, 0); pthread_join(t1, 0); pthread_join(t2, 0); return 0; }}\n");
    let prog = load_str("t.c", &src, &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    let read_b = (prog.threads.iter().flat_map(|t| &t.transitions))
        .flat_map(|tr| &tr.events)
        .find(|e| e.access == verifier::ir::Access::Read && e.var != prog.thread_done)
        .expect("a read of arr[2].b");
    let store = (prog.threads.iter().flat_map(|t| &t.transitions))
        .find(|tr| {
            tr.events
                .iter()
                .any(|e| e.access == verifier::ir::Access::Write)
        })
        .expect("the store");
    assert!(
        store
            .events
            .iter()
            .any(|e| e.var == read_b.var && e.at.is_none()),
        "{:?}",
        store.events
    );
}
