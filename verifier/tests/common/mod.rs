//! Helpers shared by the integration tests (of this crate, and of the workspace's root
//! package, which includes this file).

use std::path::PathBuf;

/// The third-party corpus: `$SYNTH_CORPUS`, else `shared/corpus` beside the work tree.
#[allow(dead_code)]
pub fn corpus() -> PathBuf {
    if let Ok(p) = std::env::var("SYNTH_CORPUS") {
        return PathBuf::from(p);
    }
    // The package is the work tree (the root package) or a folder of it (this crate).
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let candidates = [
        here.join("../shared/corpus"),
        here.join("../../shared/corpus"),
        PathBuf::from("/work/shared/corpus"),
    ];
    for c in &candidates {
        if c.join("verdicts.tsv").exists() {
            return c.clone();
        }
    }
    panic!(
        "corpus not found (looked in {:?}); set SYNTH_CORPUS to the folder holding verdicts.tsv",
        candidates
    );
}

/// The verdict of `p` in iterative mode with the default engine within 30 s, and its IVRs.
#[allow(dead_code)]
pub fn verdict_and_ivrs(
    p: &verifier::ir::Program,
) -> (verifier::imc::Verdict, Vec<verifier::imc::Ivr>) {
    let opts = verifier::imc::Options {
        timeout: std::time::Duration::from_secs(30),
        ..verifier::imc::Options::default()
    };
    let mut ivrs = Vec::new();
    let r = verifier::engine::run_iterative(
        p,
        opts,
        verifier::engine::Engine::Auto,
        usize::MAX,
        None,
        &mut |i| ivrs.push(i.clone()),
    );
    (r.verdict, ivrs)
}
