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
fn bounded_loop_with_inputs_is_safe() {
    let r = verify_src("extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\nint main(void) { int n = __VERIFIER_nondet_int(); int s = 0; for (int i = 0; i < 3; i++) { s += 2; if (n > 5) s--; } if (n > 5 && s != 3) reach_error(); if (n <= 5 && s != 6) reach_error(); return 0; }\n");
    assert_eq!(r.verdict, Verdict::Safe, "{r:?}");
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
    let r = verify_src("extern unsigned __VERIFIER_nondet_uint(void);\nextern void reach_error(void);\nint main(void) { unsigned x = __VERIFIER_nondet_uint(); if (x * 3u == 21u) reach_error(); return 0; }\n");
    assert_eq!(r.verdict, Verdict::BugFound, "{:?}", r.verdict);
    let c = r.counterexample.unwrap();
    assert!(c.replay.inputs.contains(&7), "{:?}", c.replay.inputs);
}

#[test]
fn possible_signed_overflow_is_not_called_safe() {
    let r = verify_src("extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\nint main(void) { int x = __VERIFIER_nondet_int(); int y = x + 1; if (y == 0) return 1; return 0; }\n");
    match r.verdict {
        Verdict::Unknown(why) => assert!(why.contains("undefined behaviour"), "{why}"),
        v => panic!("{v:?}"),
    }
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

#[test]
fn the_checker_rejects_incomplete_and_unsafe_arts() {
    use verifier::art::{Art, Control};
    use verifier::check::check_complete;
    let p = load(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/lost_update.c"),
        &Options::default(),
    )
    .unwrap();
    let mut locs = vec![None; p.threads.len()];
    locs[0] = Some(p.threads[0].entry);
    let root = Control { locs, atomic: None };
    // Only a root: main's first transition is neither expanded nor excluded.
    let art = Art::new(root.clone());
    let e = check_complete(&p, &art, 5_000).unwrap_err();
    assert!(e.reason.contains("neither expanded nor excluded"), "{e:?}");
    // The verifier's own ART of a safe program passes.
    let safe = load(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/locked_counter.c"),
        &Options::default(),
    )
    .unwrap();
    let mut v = Verifier::new(&safe, VOpts::default());
    assert_eq!(v.run().verdict, Verdict::Safe);
    assert_eq!(check_complete(&safe, v.art(), 5_000), Ok(()));
}
