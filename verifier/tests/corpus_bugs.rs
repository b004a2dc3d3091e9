//! The interpreter finds the bugs of unsafe corpus programs under seeded random schedules
//! (seeds pinned), and never reports one for a safe program under the same seeds.

mod common;
use common::corpus;
use verifier::frontend::load;
use verifier::frontend::Options;
use verifier::interp::{run, Outcome, RandomOracle};

fn outcome(path: &str, seed: u64) -> Outcome {
    let prog = load(&corpus().join(path), &Options::default()).expect("lowers");
    run(&prog, &mut RandomOracle::new(seed), 20_000).0.outcome
}

#[test]
fn unsafe_programs_fail_under_pinned_seeds() {
    // (program, seed, expected: "error" or "deadlock")
    let cases = [
        ("svcomp/pthread/bigshot_p.c", 0, "error"),
        ("svcomp/pthread/lazy01.c", 0, "error"),
        ("svcomp/pthread/queue.c", 0, "error"),
        ("svcomp/pthread/sigma.c", 0, "error"),
        ("svcomp/pthread/singleton.c", 5, "error"),
        ("svcomp/pthread/stack-2.c", 6, "error"),
        ("svcomp/pthread/stateful01-1.c", 0, "error"),
        ("sctbench/circular_buffer_bad.c", 1, "error"),
        ("sctbench/twostage_bad.c", 3, "error"),
        ("sctbench/wronglock_bad.c", 5, "error"),
        ("sctbench/carter01_bad.c", 0, "deadlock"),
        ("sctbench/deadlock01_bad.c", 0, "deadlock"),
        ("sctbench/sync01_bad.c", 0, "deadlock"),
    ];
    for (p, seed, want) in cases {
        let o = outcome(p, seed);
        let got = match o {
            Outcome::Error { .. } => "error",
            Outcome::Deadlock { .. } => "deadlock",
            _ => "none",
        };
        assert_eq!(
            got, want,
            "{p} seed {seed}: {o:?} (seeds depend on the lowering; after changing it, re-pin with `synth run {p} --seed N --quiet`)"
        );
    }
}

#[test]
fn safe_programs_show_no_bug_under_many_seeds() {
    let text = std::fs::read_to_string(corpus().join("verdicts.tsv")).unwrap();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < 2 || f[1] != "safe" {
            continue;
        }
        let Ok(prog) = load(&corpus().join(f[0]), &Options::default()) else {
            continue;
        };
        for seed in 0..20 {
            let o = run(&prog, &mut RandomOracle::new(seed), 20_000).0.outcome;
            assert!(!o.is_bug(), "{} seed {seed}: {o:?}", f[0]);
        }
    }
}
