//! The values the C library gives that the model does not compute (output functions' counts,
//! error texts, a destruction's error, conversions out of range, a self-join, thread ids and
//! addresses read as numbers): each program of `tests/programs/library-values` states the
//! verdict `synth verify` must give (`// verdict: ...` on its first line), and that verdict
//! must agree with the program compiled by the C compiler and run: a run that fails its
//! assertion is never called `safe`, one that ends well never `unsafe` (the programs have
//! no inputs, and their threads no choice that changes the outcome).

use std::path::{Path, PathBuf};
use std::process::Command;

fn programs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs/library-values");
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    v.sort();
    v
}

/// Whether the program, compiled by the C compiler and run, ends with status 0.
fn runs_clean(src: &Path) -> bool {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "library-values-{}",
        src.file_stem().unwrap().to_string_lossy()
    ));
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let st = Command::new(&cc)
        .args(["-pthread", "-O0", "-o"])
        .arg(&out)
        .arg(src)
        .status()
        .unwrap();
    assert!(st.success(), "{cc} failed on {}", src.display());
    Command::new(&out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap()
        .success()
}

fn verdict(src: &Path) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_synth"))
        .args(["verify", "--timeout", "60"])
        .arg(src)
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("verdict: "))
        .unwrap_or_else(|| panic!("{}: no verdict in\n{text}", src.display()));
    line.split(" (").next().unwrap().to_string()
}

#[test]
fn verdicts_agree_with_the_compiled_program() {
    let mut failures = Vec::new();
    for p in programs() {
        let text = std::fs::read_to_string(&p).unwrap();
        let want = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("// verdict: "))
            .unwrap_or_else(|| panic!("{}: no `// verdict:` line", p.display()))
            .to_string();
        let clean = runs_clean(&p);
        // The stated verdicts themselves agree with the run.
        let contradicts = if clean {
            want == "unsafe"
        } else {
            want == "safe"
        };
        assert!(
            !contradicts,
            "{}: states `{want}`, but the compiled program {}",
            p.display(),
            if clean { "ends well" } else { "fails" }
        );
        let got = verdict(&p);
        if got != want {
            failures.push(format!("{}: `{got}`, expected `{want}`", p.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
