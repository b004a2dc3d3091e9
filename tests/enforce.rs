//! `synth build`: real programs, the system C compiler, real threads under the enforcer
//! runtime (DESIGN.md, "Enforcement protocol"). The programs are in `tests/programs/`; their
//! inputs come from the input functions there (`stop_after.c`, `items.c`), linked with
//! `--cflag`.

#[path = "support/runtime.rs"]
mod runtime;
use runtime::runtime_library;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn synth_exe() -> &'static str {
    env!("CARGO_BIN_EXE_synth")
}

fn program(name: &str) -> String {
    format!("{}/tests/programs/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("synth-enforce-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `synth build` with arguments.
fn synth_build(args: &[&str]) -> Output {
    runtime_library();
    Command::new(synth_exe())
        .arg("build")
        .args(args)
        .output()
        .expect("synth runs")
}

/// `synth build` with arguments; panics with synth's output when it fails.
fn build(args: &[&str]) -> Output {
    let o = synth_build(args);
    assert!(
        o.status.success(),
        "synth build {args:?} failed:\n{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

fn run(exe: &Path, env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(exe);
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("the built program runs")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Numbers in a line of output after `word`.
fn numbers_after(out: &str, word: &str) -> Vec<u64> {
    let line = out
        .lines()
        .find(|l| l.starts_with(word))
        .unwrap_or_else(|| panic!("no line starting with {word:?} in {out:?}"));
    line.split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect()
}

#[test]
fn double_lock_runs_every_round_in_both_threads_without_deadlock() {
    // Fig. 7: unconstrained, the opposite lock orders can deadlock; under the schedule both
    // loops run to the end, at every level.
    let dir = scratch("double-lock");
    for opt in ["0", "1", "2"] {
        let exe = dir.join(format!("double_lock_o{opt}"));
        build(&[
            &program("double_lock_iterations.c"),
            "--opt",
            opt,
            "-o",
            exe.to_str().unwrap(),
            "--cflag",
            &program("stop_after.c"),
        ]);
        let o = run(&exe, &[("STOP_AFTER", "200000")]);
        let (out, err) = text(&o);
        assert!(o.status.success(), "Opt{opt}: {out}{err}");
        assert_eq!(
            numbers_after(&out, "rounds"),
            vec![200_000, 200_000],
            "Opt{opt}"
        );
    }
}

#[test]
fn unsynchronised_producer_consumer_processes_a_million_items_without_assertion_failure() {
    // Fig. 9: the buffer checks happen outside the mutex, so unconstrained runs can overflow
    // or underflow it; the schedule of the first IVR never does.
    let dir = scratch("unsync");
    let exe = dir.join("unsync");
    build(&[
        &program("unsync_producer_consumer_items.c"),
        "-o",
        exe.to_str().unwrap(),
        "--cflag",
        &program("stop_after.c"),
    ]);
    let o = run(&exe, &[("STOP_AFTER", "500000")]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    assert!(!err.contains("Assertion"), "{err}");
    let v = numbers_after(&out, "produced");
    assert!(v[0] + v[1] >= 1_000_000, "{out}");
}

#[test]
fn correct_producer_consumer_loses_and_duplicates_no_item_at_every_level() {
    // Two producers and two consumers; one proof (the first safe IVR), three schedules.
    let dir = scratch("pc-items");
    let defs = ["-DTHREADS=2", "-DITEMS=100000"];
    let ivrs = dir.join("ivrs");
    let o = Command::new(synth_exe())
        .args(["verify", &program("producer_consumer_items.c")])
        .args(defs)
        .args(["--ivrs", "1", "--out"])
        .arg(&ivrs)
        .output()
        .unwrap();
    let ivr = ivrs.join("ivr-001.json");
    assert!(ivr.exists(), "{}", text(&o).0);
    for opt in ["0", "1", "2"] {
        let exe = dir.join(format!("pc_o{opt}"));
        build(&[
            &program("producer_consumer_items.c"),
            defs[0],
            defs[1],
            "--ivr",
            ivr.to_str().unwrap(),
            "--opt",
            opt,
            "-o",
            exe.to_str().unwrap(),
            "--cflag",
            &program("items.c"),
        ]);
        let o = run(&exe, &[("ITEMS", "100000")]);
        let (out, err) = text(&o);
        assert!(o.status.success(), "Opt{opt}: {out}{err}");
        assert!(
            out.contains("none lost or duplicated: 1"),
            "Opt{opt}: {out}"
        );
    }
}

#[test]
fn a_schedule_that_pairs_threads_loses_and_duplicates_no_item() {
    // `synth build --pair-turns`: the proof's scheduler keeps a producer and a consumer
    // alternating for a few turns before the next pair (what lets the enforcer run two of
    // the four threads on two cores); the program still checks every item.
    let dir = scratch("pc-paired");
    let exe = dir.join("pc_paired");
    let o = build(&[
        &program("producer_consumer_items.c"),
        "-DTHREADS=2",
        "-DITEMS=100000",
        "--pair-turns",
        "2",
        "--opt",
        "2",
        "-o",
        exe.to_str().unwrap(),
        "--cflag",
        &program("items.c"),
    ]);
    assert!(text(&o).0.contains("built"), "{}", text(&o).0);
    let o = run(&exe, &[("ITEMS", "100000")]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}{err}");
    assert!(out.contains("none lost or duplicated: 1"), "{out}");
}

/// Builds the double-lock program keeping its sources in `dir`; returns the paths of the
/// schedule header and the support source of the instrumented module.
fn kept_build(dir: &Path) -> (PathBuf, PathBuf) {
    let keep = dir.join("src");
    build(&[
        &program("double_lock_iterations.c"),
        "-o",
        dir.join("first").to_str().unwrap(),
        "--keep",
        keep.to_str().unwrap(),
        "--cflag",
        &program("stop_after.c"),
    ]);
    (
        keep.join("double_lock_iterations.sched.h"),
        keep.join("double_lock_iterations.enforced.c"),
    )
}

/// Links a kept support source and the compiled instrumented module beside it
/// (`BASE.enforced.o`) as `synth build` does.
fn compile(source: &Path, exe: &Path) {
    let lib = Path::new(synth_exe())
        .parent()
        .unwrap()
        .join("libenforcer_rt.a");
    let st = Command::new("cc")
        .args(["-std=gnu11", "-O2", "-pthread", "-I"])
        .arg(source.parent().unwrap())
        .arg(source)
        .arg(source.with_extension("o"))
        .arg(program("stop_after.c"))
        .arg(lib)
        .args(["-lpthread", "-ldl", "-lm", "-o"])
        .arg(exe)
        .status()
        .unwrap();
    assert!(st.success());
}

#[test]
fn a_schedule_made_for_another_program_is_refused() {
    let dir = scratch("mismatch");
    let (header, source) = kept_build(&dir);
    let h = std::fs::read_to_string(&header).unwrap();
    let sha = h
        .split('"')
        .find(|s| s.len() == 64 && s.chars().all(|c| c.is_ascii_hexdigit()))
        .expect("the header names the program's SHA-256")
        .to_string();
    let other = "0".repeat(64);
    std::fs::write(&header, h.replace(&sha, &other)).unwrap();
    let exe = dir.join("mismatched");
    compile(&source, &exe);
    let o = run(&exe, &[("STOP_AFTER", "10")]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(78), "{out}{err}");
    assert!(err.contains(&sha) && err.contains(&other), "{err}");
    assert!(!out.contains("rounds"), "the program must not run: {out}");
}

#[test]
fn a_deviation_names_thread_site_line_and_expected_event() {
    let dir = scratch("deviation");
    let (header, source) = kept_build(&dir);
    let h = std::fs::read_to_string(&header).unwrap();
    // Hand-edit the schedule: the first event of the first section that main does not own
    // gets the site of the last event of that thread instead.
    let start = h.find("synth_events[").unwrap();
    let end = start + h[start..].find("};").unwrap();
    // Each row is `{ thread, site, child }`.
    let rows: Vec<(usize, u32, u32, u32)> = h[start..end]
        .match_indices("{ ")
        .map(|(i, _)| {
            let row = &h[start + i + 2..];
            let nums: Vec<u32> = row[..row.find('}').unwrap()]
                .split(',')
                .map(|x| x.trim().trim_end_matches('u').parse().unwrap())
                .collect();
            (start + i, nums[0], nums[1], nums[2])
        })
        .collect();
    let (pos, thread, site, child) = *rows.iter().find(|r| r.1 != 0).expect("a thread's event");
    let other = rows
        .iter()
        .rev()
        .find(|r| r.1 == thread && r.2 != site)
        .expect("another site of the thread")
        .2;
    let old = format!("{{ {thread}u, {site}u, {child}u }}");
    assert!(h[pos..].starts_with(&old));
    let edited = format!(
        "{}{{ {thread}u, {other}u, {child}u }}{}",
        &h[..pos],
        &h[pos + old.len()..]
    );
    std::fs::write(&header, edited).unwrap();
    let exe = dir.join("deviating");
    compile(&source, &exe);
    let o = run(&exe, &[("STOP_AFTER", "1000")]);
    let (out, err) = text(&o);
    assert!(!o.status.success(), "{out}{err}");
    assert!(err.contains("deviation from the schedule"), "{err}");
    for needle in [
        format!("(id {thread})"),
        format!("reached site {site} ("),
        "double_lock_iterations.c:".to_string(),
        format!("expects site {other} ("),
    ] {
        assert!(err.contains(&needle), "{needle:?} not in {err}");
    }
    assert!(!out.contains("rounds"), "{out}");
}

#[test]
fn build_refuses_to_overwrite_foreign_files_and_names_a_missing_runtime() {
    let dir = scratch("refuse");
    let exe = dir.join("prog");
    std::fs::write(&exe, "not synth's").unwrap();
    runtime_library();
    let o = Command::new(synth_exe())
        .args(["build", &program("double_lock_iterations.c"), "-o"])
        .arg(&exe)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("--force"), "{}", text(&o).1);
    assert_eq!(std::fs::read_to_string(&exe).unwrap(), "not synth's");
    let o = Command::new(synth_exe())
        .args(["build", &program("double_lock_iterations.c"), "-o"])
        .arg(dir.join("other"))
        .env("SYNTH_ENFORCER_LIB", dir.join("nowhere.a"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("SYNTH_ENFORCER_LIB"), "{}", text(&o).1);
}

fn corpus() -> PathBuf {
    if let Ok(p) = std::env::var("SYNTH_CORPUS") {
        return PathBuf::from(p);
    }
    let candidates = [
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
        PathBuf::from("/work/shared/corpus"),
    ];
    candidates
        .iter()
        .find(|c| c.join("verdicts.tsv").exists())
        .cloned()
        .unwrap_or_else(|| panic!("corpus not found (looked in {candidates:?}); set SYNTH_CORPUS"))
}

/// Runs `exe`, killing it after `secs` seconds; `None` when it had to be killed.
fn run_with_timeout(exe: &Path, secs: u64) -> Option<Output> {
    match run_for(exe, secs) {
        (o, false) => Some(o),
        (_, true) => None,
    }
}

/// Runs `exe`, killing it after `secs` seconds: what it printed, and whether it had to be
/// killed.
fn run_for(exe: &Path, secs: u64) -> (Output, bool) {
    let mut child = Command::new(exe)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    let mut killed = false;
    while child.try_wait().unwrap().is_none() {
        if start.elapsed().as_secs() >= secs {
            let _ = child.kill();
            killed = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    (child.wait_with_output().unwrap(), killed)
}

#[test]
fn a_program_whose_proof_ends_in_a_loop_without_events_runs_on() {
    // The worker loops for ever on its own and main waits at the join: under the schedule as
    // without it, both threads get there and the program goes on until killed (it used to
    // refuse to start: "sections 1 form a cycle without events").
    let dir = scratch("loops-for-ever");
    for opt in ["0", "2"] {
        let exe = dir.join(format!("loops_o{opt}"));
        build(&[
            &program("worker_loops_for_ever.c"),
            "--opt",
            opt,
            "-o",
            exe.to_str().unwrap(),
        ]);
        let (o, killed) = run_for(&exe, 1);
        let (out, err) = text(&o);
        assert!(killed, "Opt{opt}: ended with {:?}\n{out}{err}", o.status);
        assert!(
            out.contains("main joins") && out.contains("worker started"),
            "Opt{opt}: {out}{err}"
        );
        assert!(!out.contains("main joined"), "Opt{opt}: {out}");
    }
}

/// `synth build` with arguments, expected to fail: its output.
fn build_fails(args: &[&str]) -> String {
    let o = synth_build(args);
    let (out, err) = text(&o);
    assert!(
        !o.status.success(),
        "synth build {args:?} succeeded:\n{out}{err}"
    );
    format!("{out}{err}")
}

#[test]
fn threads_that_run_on_while_the_program_ends_stay_within_the_proof() {
    // Deployed, other threads run on while one ends the program. main_returns_early.c: the
    // worker computes on its own and fails its assertion with the input 5, whatever the
    // schedule; there used to be one (main ending the program first) and the built program
    // failed in most runs. exit_holding_lock.c: the worker exits holding the mutex while main
    // waits at its lock; at Opt2 that lock would be removed and main would run on into its
    // assertion, at Opt0 the real lock keeps it.
    let dir = scratch("program-end");
    let exe = dir.join("early");
    let out = build_fails(&[
        &program("main_returns_early.c"),
        "-o",
        exe.to_str().unwrap(),
    ]);
    assert!(out.contains("no safe IVR"), "{out}");
    assert!(!exe.exists());
    let exe = dir.join("exit_o2");
    let out = build_fails(&[
        &program("exit_holding_lock.c"),
        "--opt",
        "2",
        "-o",
        exe.to_str().unwrap(),
    ]);
    assert!(out.contains("build at --opt 0"), "{out}");
    let exe = dir.join("exit_o0");
    build(&[
        &program("exit_holding_lock.c"),
        "--opt",
        "0",
        "-o",
        exe.to_str().unwrap(),
    ]);
    for _ in 0..100 {
        let o = run(&exe, &[]);
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(0), "{out}{err}");
    }
}

#[test]
fn corpus_programs_run_to_their_end_under_their_schedules() {
    // Bugs that unconstrained runs can hit (a failed assertion in account_bad, a deadlock in
    // deadlock01_bad) never happen under the schedule of the first safe IVR; condition
    // variables (sync01) and barriers-free phases work at Opt0 (real mutexes) and Opt2.
    let dir = scratch("corpus");
    let cases = [
        ("sctbench/account_bad.c", "2"),
        ("sctbench/deadlock01_bad.c", "0"),
        ("sctbench/deadlock01_bad.c", "2"),
        ("sctbench/lazy01_ok.c", "2"),
        ("sctbench/sync01_ok.c", "0"),
        ("sctbench/sync01_ok.c", "2"),
        ("svcomp/pthread/triangular-2.c", "2"),
    ];
    for (file, opt) in cases {
        let exe = dir.join(format!(
            "{}_o{opt}",
            Path::new(file).file_stem().unwrap().to_string_lossy()
        ));
        let src = corpus().join(file);
        build(&[
            src.to_str().unwrap(),
            "--opt",
            opt,
            "-o",
            exe.to_str().unwrap(),
        ]);
        let o = run_with_timeout(&exe, 60)
            .unwrap_or_else(|| panic!("{file} Opt{opt}: still running after 60 s"));
        let (out, err) = text(&o);
        assert!(
            o.status.success(),
            "{file} Opt{opt}: {:?}\n{out}{err}",
            o.status
        );
    }
}

#[test]
fn call_arguments_are_evaluated_in_the_order_the_proof_has() {
    // gcc evaluates `diff(get(&x), get(&y))` right to left; the schedule orders the read of x
    // before the thread's writes and the read of y after them.
    let dir = scratch("argument-order");
    let exe = dir.join("argument_order");
    build(&[
        &program("argument_order.c"),
        "--opt",
        "1",
        "-o",
        exe.to_str().unwrap(),
    ]);
    for _ in 0..3 {
        let o = run(&exe, &[]);
        let (out, err) = text(&o);
        assert!(o.status.success(), "{:?}\n{out}{err}", o.status);
    }
}
