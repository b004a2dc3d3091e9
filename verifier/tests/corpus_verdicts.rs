//! Verdicts on the corpus programs that finish quickly, of complete verification (plain
//! Impact for threads) and of iterative verification with the default engine: each matches
//! the expected one, every safe verdict passed the ART checker (the verifier only reports
//! `safe` then), and every bug is a replayed execution of the expected kind. The whole
//! corpus, with a time limit per program, is `bench/verify_corpus.sh`.

mod common;

use common::corpus;
use std::time::Duration;
use verifier::engine::{run_iterative, Engine};
use verifier::frontend::load;
use verifier::frontend::Options;
use verifier::imc::{Options as VOpts, Verdict, Verifier};
use verifier::interp::Outcome;

fn verdict(path: &str) -> (Verdict, Option<Outcome>) {
    let p = load(&corpus().join(path), &Options::default()).unwrap();
    let opts = VOpts {
        timeout: Duration::from_secs(120),
        ..VOpts::default()
    };
    let r = Verifier::new(&p, opts).run();
    (r.verdict, r.counterexample.map(|c| c.execution.outcome))
}

#[test]
fn quick_corpus_programs_get_their_expected_verdicts() {
    // (program, expected: "safe" | "error" | "deadlock")
    let cases = [
        ("svcomp/pthread/lazy01.c", "error"),
        ("svcomp/pthread/stateful01-1.c", "error"),
        ("sctbench/account_bad.c", "error"),
        ("sctbench/lazy01_bad.c", "error"),
        ("sctbench/deadlock01_bad.c", "deadlock"),
        ("sctbench/phase01_bad.c", "deadlock"),
        ("sctbench/account_ok.c", "safe"),
        ("sctbench/stateful01_ok.c", "safe"),
    ];
    let results: Vec<_> = std::thread::scope(|s| {
        let hs: Vec<_> = cases
            .iter()
            .map(|(p, want)| s.spawn(move || (*p, *want, verdict(p))))
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (p, want, (v, outcome)) in results {
        match want {
            "safe" => assert_eq!(v, Verdict::Safe, "{p}"),
            "error" => {
                assert_eq!(v, Verdict::BugFound, "{p}");
                assert!(
                    matches!(outcome, Some(Outcome::Error { .. })),
                    "{p}: {outcome:?}"
                );
            }
            _ => {
                assert_eq!(v, Verdict::BugFound, "{p}");
                assert!(
                    matches!(outcome, Some(Outcome::Deadlock { .. })),
                    "{p}: {outcome:?}"
                );
            }
        }
    }
}

fn iterative(path: &str) -> verifier::imc::Report {
    let p = load(&corpus().join(path), &Options::default()).unwrap();
    let opts = VOpts {
        timeout: Duration::from_secs(120),
        ..VOpts::default()
    };
    run_iterative(&p, opts, Engine::Auto, usize::MAX, None, &mut |_| {})
}

#[test]
fn quick_corpus_programs_get_their_expected_iterative_verdicts() {
    // (program, expected: "safe" | "error" | "deadlock"); a bug must come with a safe IVR too.
    let cases = [
        ("svcomp/pthread/bigshot_p.c", "error"),
        ("sctbench/deadlock01_bad.c", "deadlock"),
        ("sctbench/account_ok.c", "safe"),
    ];
    let results: Vec<_> = std::thread::scope(|s| {
        let hs: Vec<_> = cases
            .iter()
            .map(|(p, want)| s.spawn(move || (*p, *want, iterative(p))))
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (p, want, r) in results {
        if want == "safe" {
            assert_eq!(r.verdict, Verdict::Safe, "{p}");
            assert!(r.counterexamples.is_empty(), "{p}");
            continue;
        }
        assert_eq!(r.verdict, Verdict::PartiallySafe, "{p}");
        assert!(r.first_safe_ivr.is_some(), "{p}");
        for c in &r.counterexamples {
            let ok = match want {
                "error" => matches!(c.execution.outcome, Outcome::Error { .. }),
                _ => matches!(c.execution.outcome, Outcome::Deadlock { .. }),
            };
            assert!(ok, "{p}: {:?}", c.execution.outcome);
        }
    }
}

/// The corpus's bounded buffer, whose waiter counts start uninitialised, deadlocks with some
/// of their values: `partially safe` with that deadlock, also with a time limit that lets
/// the search without its loop counters emit the safe schedule first (the search that then
/// tracks them probes its own schedule for the bug; with the first search's schedule only,
/// it had none to probe, and a longer limit ended `unknown`).
#[test]
fn the_bounded_buffer_deadlock_is_found_with_a_longer_time_limit() {
    let p = load(
        &corpus().join("apps/boundedBuffer/boundedBuffer.c"),
        &Options::default(),
    )
    .unwrap();
    let opts = VOpts {
        timeout: Duration::from_secs(60),
        ..VOpts::default()
    };
    let r = run_iterative(&p, opts, Engine::Auto, usize::MAX, None, &mut |_| {});
    assert_eq!(r.verdict, Verdict::PartiallySafe, "{:?}", r.verdict);
    assert!(r.first_safe_ivr.is_some());
    let c = r.counterexample.expect("the deadlock");
    assert!(matches!(c.execution.outcome, Outcome::Deadlock { .. }));
}
