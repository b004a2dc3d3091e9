//! Complete verification (plain Impact for threads) on small programs: safe programs are
//! proved safe, and bugs come with a replayed counterexample.

use std::path::Path;
use verifier::frontend::{load, load_str, Options};
use verifier::imc::{Options as VOpts, Verdict, Verifier};
use verifier::interp::Outcome;

fn verify_file(rel: &str) -> verifier::imc::Report {
    let p = load(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(rel),
        &Options::default(),
    )
    .unwrap();
    Verifier::new(&p, VOpts::default()).run()
}

fn verify_src(src: &str) -> verifier::imc::Report {
    let p = load_str("t.c", src, &Options::default()).unwrap();
    Verifier::new(&p, VOpts::default()).run()
}

#[test]
fn locked_counter_is_safe() {
    let r = verify_file("examples/locked_counter.c");
    assert_eq!(r.verdict, Verdict::Safe, "{r:?}");
}

#[test]
fn lost_update_has_a_replayed_counterexample() {
    let r = verify_file("examples/lost_update.c");
    assert_eq!(r.verdict, Verdict::BugFound, "{:?}", r.verdict);
    let c = r.counterexample.unwrap();
    assert!(
        matches!(c.execution.outcome, Outcome::Error { .. }),
        "{:?}",
        c.execution.outcome
    );
}

#[test]
fn sequential_loop_with_inputs_is_safe() {
    let r = verify_src("extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\nint main(void) { int n = __VERIFIER_nondet_int(); if (n < 0 || n > 1000) return 0; int i = 0, s = 0; while (i < n) { i++; s += 2; } if (s != 2 * n) reach_error(); return 0; }\n");
    assert!(
        matches!(r.verdict, Verdict::Safe | Verdict::Unknown(_)),
        "{r:?}"
    );
}

#[test]
fn double_lock_deadlock_is_found() {
    let r = verify_src("#include <pthread.h>\npthread_mutex_t a, b;\nvoid *f(void *x) { pthread_mutex_lock(&a); pthread_mutex_lock(&b); pthread_mutex_unlock(&b); pthread_mutex_unlock(&a); return 0; }\nint main(void) { pthread_t t; pthread_create(&t, 0, f, 0); pthread_mutex_lock(&b); pthread_mutex_lock(&a); pthread_mutex_unlock(&a); pthread_mutex_unlock(&b); pthread_join(t, 0); return 0; }\n");
    assert_eq!(r.verdict, Verdict::BugFound, "{:?}", r.verdict);
    assert!(matches!(
        r.counterexample.unwrap().execution.outcome,
        Outcome::Deadlock { .. }
    ));
}

#[test]
fn input_dependent_error_is_found_with_the_input() {
    let r = verify_src("extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\nint main(void) { int x = __VERIFIER_nondet_int(); if (x * 3 == 21) reach_error(); return 0; }\n");
    assert_eq!(r.verdict, Verdict::BugFound, "{:?}", r.verdict);
    let c = r.counterexample.unwrap();
    assert!(c.replay.inputs.contains(&7), "{:?}", c.replay.inputs);
}

#[test]
#[ignore]
fn debug_stats() {
    for f in ["examples/locked_counter.c", "examples/lost_update.c"] {
        let p = load(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(f),
            &Options::default(),
        )
        .unwrap();
        let r = Verifier::new(
            &p,
            VOpts {
                max_nodes: 3000,
                timeout: std::time::Duration::from_secs(20),
                ..VOpts::default()
            },
        )
        .run();
        eprintln!(
            "{f}: {:?} nodes {} calls {} refinements {} {:?}",
            r.verdict, r.nodes, r.solver_calls, r.refinements, r.time
        );
    }
}
