//! The enforcer runtime for tests that run `synth build`.

use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;

/// `synth build` links `libenforcer_rt.a` from beside the `synth` executable (and looks for it
/// before it lowers the program); `cargo test` builds the runtime only as an rlib, so build the
/// static library once, in the same profile.
pub fn runtime_library() {
    static BUILT: OnceLock<()> = OnceLock::new();
    BUILT.get_or_init(|| {
        let release = Path::new(env!("CARGO_BIN_EXE_synth"))
            .parent()
            .and_then(|d| d.file_name())
            .is_some_and(|n| n == "release");
        let mut cmd = Command::new(env!("CARGO"));
        cmd.args(["build", "--quiet", "-p", "enforcer-rt"])
            .current_dir(env!("CARGO_MANIFEST_DIR"));
        if release {
            cmd.arg("--release");
        }
        assert!(
            cmd.status().expect("cargo runs").success(),
            "building libenforcer_rt.a failed"
        );
    });
}
