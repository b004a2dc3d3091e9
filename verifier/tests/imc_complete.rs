//! Complete verification (plain Impact for threads) on small programs: safe programs are
//! proved safe, and bugs come with a replayed counterexample.

use std::path::Path;
use verifier::art::Art;
use verifier::frontend::Options;
use verifier::frontend::{load, load_str};
use verifier::imc::{Options as VOpts, Verdict, Verifier};
use verifier::interp::Outcome;
use verifier::ir::ThreadId;

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

#[test]
fn partial_order_reduction_expands_one_thread_at_local_steps_and_the_proof_is_checked() {
    // Each worker runs a thread-local loop before its shared accesses.
    let src = r#"
        #include <assert.h>
        #include <pthread.h>
        int total = 0;
        pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
        void *worker(void *arg) {
          int c = 0;
          for (int i = 0; i < 3; i++)
            c = c + i;
          pthread_mutex_lock(&m);
          total = total + c - 2;
          pthread_mutex_unlock(&m);
          return 0;
        }
        int main(void) {
          pthread_t x, y;
          pthread_create(&x, 0, worker, 0);
          pthread_create(&y, 0, worker, 0);
          pthread_join(x, 0);
          pthread_join(y, 0);
          assert(total == 2);
          return 0;
        }
    "#;
    let p = load_str("por.c", src, &Options::default()).unwrap();
    let mut v = Verifier::new(&p, VOpts::default());
    let r = v.run();
    // Safe is only reported after check_complete accepted the reduced ART.
    assert_eq!(r.verdict, Verdict::Safe, "{r:?}");
    let art = v.art();
    let reduced = art
        .ids()
        .filter(|&n| {
            let node = art.node(n);
            let movable = node.control.locs.iter().filter(|l| l.is_some()).count();
            node.expanded.len() == 1 && movable >= 2 && !node.children.is_empty()
        })
        .count();
    assert!(reduced > 0, "no node was reduced");
    // A reduced node must stand for a local step: moving the reduction's mark to the other
    // thread, which is not at a local step, is rejected.
    let mut table = verifier::smt::TermTable::new();
    let mut records = art.to_records(&mut table);
    let terms = table.terms().unwrap();
    assert!(verifier::check::check_complete(
        &p,
        &Art::from_records(&records, &terms).unwrap(),
        10_000
    )
    .is_ok());
    let tampered = (0..records.len()).find_map(|i| {
        let rec = &records[i];
        let [t] = rec.expanded[..] else { return None };
        let other = (0..rec.control.locs.len()).find(|&u| {
            u != t.0 as usize
                && rec.control.locs[u].is_some_and(|l| !p.threads[u].local_location(l))
                && p.threads[u].locations[rec.control.locs[u].unwrap().0 as usize].kind
                    == verifier::ir::LocKind::Normal
        })?;
        Some((i, ThreadId(other as u32)))
    });
    let (i, other) = tampered.expect("a reduced node next to a thread at a shared step");
    records[i].expanded = vec![other];
    let bad = Art::from_records(&records, &terms).unwrap();
    let r = verifier::check::check_complete(&p, &bad, 10_000).unwrap_err();
    assert!(r.reason.contains("neither expanded nor excluded"), "{r:?}");
}

#[test]
fn producer_consumer_is_proved_safe_in_complete_mode() {
    // Seed 002, Fig. 1 with one producer, one consumer and a buffer of two: the ImparaC
    // baseline finishes a complete ART (checked before `safe` is reported).
    let opts = Options {
        defines: vec!["N=2".into()],
        ..Options::default()
    };
    let p = load(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/producer_consumer.c"),
        &opts,
    )
    .unwrap();
    let r = Verifier::new(&p, VOpts::default()).run();
    assert_eq!(r.verdict, Verdict::Safe, "{r:?}");
}
