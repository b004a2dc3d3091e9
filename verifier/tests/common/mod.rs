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

/// Whether C program `text`, compiled with the system's C compiler (`-std=gnu11 -O0
/// -pthread`) as `name`, runs to its end with exit status 0.
#[allow(dead_code)]
pub fn runs_natively(name: &str, text: &str) -> bool {
    let dir = std::env::temp_dir().join(format!("synth-native-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let src = dir.join(format!("{name}.c"));
    let bin = dir.join(name);
    std::fs::write(&src, text).expect("source written");
    let cc = std::process::Command::new("cc")
        .args(["-std=gnu11", "-O0", "-w", "-pthread", "-o"])
        .arg(&bin)
        .arg(&src)
        .output()
        .expect("cc runs");
    assert!(
        cc.status.success(),
        "{}",
        String::from_utf8_lossy(&cc.stderr)
    );
    let run = std::process::Command::new(&bin)
        .output()
        .expect("the program runs");
    let _ = std::fs::remove_dir_all(&dir);
    run.status.success()
}
