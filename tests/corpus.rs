//! Every program of the third-party corpus either lowers, or is rejected with exit code 4
//! (`unknown`) and an error `file:line:col: unsupported <construct>`; at least 90% lower.

#[path = "../verifier/tests/common/mod.rs"]
mod common;

#[path = "support/runtime.rs"]
mod runtime;

use common::corpus;
use std::process::Command;

fn programs() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(corpus().join("verdicts.tsv")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut f = l.split('\t');
            (
                f.next().unwrap().to_string(),
                f.next().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn corpus_lowers_or_is_rejected_with_a_position() {
    let dir = corpus();
    let progs = programs();
    assert!(
        progs.len() >= 40,
        "verdicts.tsv lists {} programs",
        progs.len()
    );
    let mut lowered = 0;
    let mut rejected = Vec::new();
    for (path, _) in &progs {
        let out = Command::new(env!("CARGO_BIN_EXE_synth"))
            .current_dir(&dir)
            .args(["parse", path])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        match out.status.code() {
            Some(0) => {
                let stdout = String::from_utf8_lossy(&out.stdout);
                assert!(stdout.starts_with("program "), "{path}: {stdout}");
                lowered += 1;
            }
            Some(4) => {
                // file:line:col: unsupported <construct>
                let line = stderr.lines().next().unwrap_or("");
                let prefix = format!("{path}:");
                assert!(
                    line.starts_with(&prefix),
                    "{path}: error without position: {line}"
                );
                let rest = &line[prefix.len()..];
                let mut parts = rest.splitn(3, ':');
                let l = parts.next().unwrap_or("");
                let c = parts.next().unwrap_or("");
                let msg = parts.next().unwrap_or("");
                assert!(
                    l.parse::<u32>().is_ok() && c.parse::<u32>().is_ok(),
                    "{path}: bad position in {line}"
                );
                assert!(
                    msg.starts_with(" unsupported "),
                    "{path}: not an unsupported-construct error: {line}"
                );
                rejected.push(line.to_string());
            }
            other => panic!("{path}: exit code {other:?}: {stderr}"),
        }
    }
    let pct = 100.0 * lowered as f64 / progs.len() as f64;
    eprintln!(
        "{lowered} of {} lower ({pct:.1}%); rejected:\n{}",
        progs.len(),
        rejected.join("\n")
    );
    assert!(pct >= 90.0, "only {pct:.1}% lower");
}

/// The real applications of `apps/` lower with the LLVM front end, with the arguments their
/// READMEs run them with, or are rejected with a named construct at a position; pfscan, the
/// bounded buffers and qsort_mt (libc models: file system, `ftw`, `mmap`, `sscanf`,
/// `signal`, `strdup`, `asprintf`, `qsort`; recursion inlined three calls deep) lower.
/// (qsort_mt's thread count comes from `getopt`, which is not modelled: every count up to the
/// thread bound is possible, so the test bounds the threads.)
#[test]
fn apps_lower_with_the_llvm_front_end() {
    let apps = corpus().join("apps");
    let cases: &[(&str, &[&str], &[&str], bool)] = &[
        ("pfscan/pfscan.c", &[], &["-n", "2", "needle", "/tmp"], true),
        ("bbuf/bbuf.c", &[], &[], true),
        ("boundedBuffer/boundedBuffer.c", &[], &[], true),
        (
            "qsort_mt/qsort_mt.c",
            &["--max-threads", "4"],
            &["-n", "32", "-f", "4", "-h", "2", "-v"],
            true,
        ),
    ];
    for (path, flags, args, must_lower) in cases {
        let out = Command::new(env!("CARGO_BIN_EXE_synth"))
            .current_dir(&apps)
            .args(["parse"])
            .args(*flags)
            .args([path, "--"])
            .args(*args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        match out.status.code() {
            Some(0) => {}
            Some(4) if !must_lower => {
                let line = stderr
                    .lines()
                    .find(|l| !l.starts_with("warning"))
                    .unwrap_or("");
                assert!(
                    line.starts_with(&format!("{path}:")) && line.contains(": unsupported "),
                    "{path}: {line}"
                );
            }
            other => panic!("{path}: exit code {other:?}: {stderr}"),
        }
    }
}

/// `--timeout` covers the lowering too: qsort_mt inlined into 64 threads takes about a
/// minute to lower, and each command ends at its limit with `unknown` (exit code 4).
#[test]
fn the_timeout_covers_a_long_lowering() {
    let dir = corpus().join("apps/qsort_mt");
    for cmd in ["verify", "build", "explore"] {
        if cmd == "build" {
            // (Built before the clock starts: cargo may wait for another build's lock.)
            runtime::runtime_library();
        }
        let started = std::time::Instant::now();
        let mut c = Command::new(env!("CARGO_BIN_EXE_synth"));
        c.current_dir(&dir)
            .args([cmd, "--timeout", "2", "qsort_mt.c"]);
        if cmd == "build" {
            c.args([
                "-o",
                std::env::temp_dir()
                    .join("synth-never-built")
                    .to_str()
                    .unwrap(),
            ]);
        }
        let out = c.output().unwrap();
        let elapsed = started.elapsed();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(4), "{cmd}: {stdout}{stderr}");
        assert!(
            stdout.contains("while lowering the program"),
            "{cmd}: {stdout}"
        );
        assert!(elapsed.as_secs() < 20, "{cmd}: {elapsed:?}");
    }
}
