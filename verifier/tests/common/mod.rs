//! Helpers shared by the integration tests (of this crate, and of the workspace's root
//! package, which includes this file).

use std::path::PathBuf;

/// The third-party corpus: `$SYNTH_CORPUS`, else `shared/corpus` beside the work tree.
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
