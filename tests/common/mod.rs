//! What several integration tests share.

use std::path::PathBuf;

/// `../shared/corpus` next to the work tree (or `$SYNTH_CORPUS`).
pub fn corpus() -> PathBuf {
    if let Ok(p) = std::env::var("SYNTH_CORPUS") {
        return PathBuf::from(p);
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let candidates = [
        root.join("../shared/corpus"),
        PathBuf::from("/work/shared/corpus"),
    ];
    for c in &candidates {
        if c.join("verdicts.tsv").exists() {
            return c.clone();
        }
    }
    panic!("corpus not found (looked in {candidates:?}); set SYNTH_CORPUS to the folder holding verdicts.tsv")
}
