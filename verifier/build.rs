//! Compiles the C definitions of the libc functions the front end models by their code
//! (`src/frontend/llvm/models.c`, what the library computes, and `environment.c`, what the
//! environment answers) with the pinned clang into one bitcode library, which the front end
//! links into every program it compiles (`frontend::llvm::compile`). Compiled once here, not
//! once per program.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The LLVM major version the front end pins (`frontend::llvm::compile::LLVM_MAJOR`).
const LLVM_MAJOR: u32 = 19;

const MODELS: &[&str] = &["models", "environment"];

fn tool(name: &str) -> PathBuf {
    let p = PathBuf::from(format!("/usr/lib/llvm-{LLVM_MAJOR}/bin/{name}"));
    if p.exists() {
        p
    } else {
        PathBuf::from(format!("{name}-{LLVM_MAJOR}"))
    }
}

fn run(cmd: &mut Command) {
    let out = cmd.output().unwrap_or_else(|e| {
        panic!(
            "cannot run `{}`: {e}; scripts/setup installs clang-{LLVM_MAJOR} and llvm-{LLVM_MAJOR}",
            cmd.get_program().to_string_lossy()
        )
    });
    assert!(
        out.status.success(),
        "`{cmd:?}` failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn main() {
    println!("cargo:rerun-if-env-changed=SYNTH_CLANG");
    let clang = std::env::var_os("SYNTH_CLANG")
        .map(PathBuf::from)
        .unwrap_or_else(|| tool("clang"));
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let src = Path::new("src/frontend/llvm");
    let mut parts = Vec::new();
    for name in MODELS {
        let source = src.join(format!("{name}.c"));
        println!("cargo:rerun-if-changed={}", source.display());
        let bc = out_dir.join(format!("{name}.bc"));
        run(Command::new(&clang)
            .args(["-c", "-emit-llvm", "-O0", "-Xclang", "-disable-O0-optnone"])
            .args(["-fno-builtin", "-fno-stack-protector", "-w", "-o"])
            .arg(&bc)
            .arg(&source));
        parts.push(bc);
    }
    run(Command::new(tool("llvm-link"))
        .args(&parts)
        .arg("-o")
        .arg(out_dir.join("models-library.bc")));
}
