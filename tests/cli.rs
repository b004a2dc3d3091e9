//! The command line as users meet it: exit codes and messages for good and bad input.

use std::path::PathBuf;
use std::process::{Command, Output};

#[path = "support/runtime.rs"]
mod runtime;

fn synth(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_synth"))
        .args(args)
        .output()
        .unwrap()
}

fn write(name: &str, text: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `synth parse` of a program it does not accept: exit 2 for bad input, 4 for a construct it
/// cannot model yet (`unknown`); returns the message.
fn parse_error(name: &str, text: &str) -> (PathBuf, String) {
    let p = write(name, text);
    let o = synth(&["parse", p.to_str().unwrap()]);
    let unsupported = stderr(&o).contains(": unsupported ");
    let code = if unsupported { 4 } else { 2 };
    assert_eq!(o.status.code(), Some(code), "{name}: {}", stderr(&o));
    (p, stderr(&o))
}

#[test]
fn missing_file_is_exit_2_with_message() {
    let o = synth(&["parse", "/nonexistent/prog.c"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("/nonexistent/prog.c: cannot read"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn preprocessor_error_is_exit_2() {
    let (_, e) = parse_error(
        "pp.c",
        "#include \"no_such_header.h\"\nint main(void) { return 0; }\n",
    );
    assert!(
        e.contains("pp.c:1:10: fatal error: 'no_such_header.h' file not found"),
        "{e}"
    );
}

#[test]
fn syntax_error_has_position() {
    let text = "int main(void) {\n  int x = ;\n  return 0;\n}\n";
    // clang's diagnostics.
    let (_, e) = parse_error("syntax.c", text);
    assert!(
        e.contains("syntax.c:2:11: error: expected expression"),
        "{e}"
    );
}

#[test]
fn bad_flags_are_exit_2() {
    let o = synth(&["run", "x.c", "--seed", "notanumber"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn parse_prints_summary_and_json() {
    let p = write(
        "ok.c",
        "#include <pthread.h>\nint x;\npthread_mutex_t m;\nvoid *f(void *a) { pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); return 0; }\nint main(void) { pthread_t t; pthread_create(&t, 0, f, 0); pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); pthread_join(t, 0); return 0; }\n",
    );
    let o = synth(&["parse", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("2 threads"), "{out}");
    assert!(
        out.contains("  x : ") && out.contains("  m.lock : Mutex"),
        "{out}"
    );
    let o = synth(&["parse", "--json", p.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["format"], "synth-ir/1");
    assert_eq!(v["threads"].as_array().unwrap().len(), 2);
    assert_eq!(v["sha256"].as_str().unwrap().len(), 64);
}

#[test]
fn run_prints_trace_and_exits_1_on_error() {
    let p = write(
        "bug.c",
        "#include <assert.h>\nint x;\nint main(void) {\n  x = 2;\n  assert(x == 3);\n  return 0;\n}\n",
    );
    let o = synth(&["run", p.to_str().unwrap(), "--seed", "1"]);
    assert_eq!(o.status.code(), Some(1));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("x = 2;") && out.contains("[x=2]"), "{out}");
    assert!(
        out.contains("outcome: assertion failed in T0 main at"),
        "{out}"
    );
    assert!(out.contains("bug.c:5:"), "{out}");
}

#[test]
fn run_with_a_fixed_schedule_and_inputs() {
    let p = write(
        "sched.c",
        "#include <pthread.h>\nextern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\nint x;\nvoid *f(void *a) { x = 1; return 0; }\nint main(void) { pthread_t t; int k = __VERIFIER_nondet_int(); pthread_create(&t, 0, f, 0); if (x == 0 && k == 7) reach_error(); return 0; }\n",
    );
    let path = p.to_str().unwrap();
    // main: input, spawn, read x, branch, branch, error; the thread never runs.
    let o = synth(&[
        "run",
        path,
        "--schedule",
        "0,0,0,0,0,0,0,0",
        "--inputs",
        "7",
        "--quiet",
    ]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let o = synth(&[
        "run",
        path,
        "--schedule",
        "0,0,0,0,0,0,0,0",
        "--inputs",
        "6",
        "--quiet",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}

fn example(name: &str) -> String {
    format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn verify_writes_ivr_files_that_check_ivr_accepts() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("ivrs-double-lock");
    let _ = std::fs::remove_dir_all(&dir);
    let out = synth(&[
        "verify",
        &example("double_lock.c"),
        "--out",
        dir.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("verdict: partially safe"), "{text}");
    assert!(text.contains("IVR 1: safe schedule"), "{text}");
    assert!(text.contains("deadlock"), "{text}");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 2);
    for f in &files {
        let out = synth(&["check-ivr", &example("double_lock.c"), f.to_str().unwrap()]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // An IVR of another program is refused.
    let out = synth(&[
        "check-ivr",
        &example("double_lock_fixed.c"),
        files[0].to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("another program"));
    // The directory now holds IVRs: it is not overwritten.
    let out = synth(&[
        "verify",
        &example("double_lock.c"),
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("already holds IVR files"));
}

#[test]
fn verify_json_lines_and_ivr_budget() {
    let out = synth(&[
        "verify",
        &example("double_lock_fixed.c"),
        "--json",
        "--ivrs",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(4), "budget exhausted: unknown");
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert_eq!(lines[0]["format"], "synth-ivr/1");
    assert!(lines[0]["body"]["safe"].is_object());
    assert_eq!(lines[1]["verdict"], "unknown");
    assert_eq!(lines[1]["ivrs"], 1);
    let out = synth(&["verify", &example("double_lock_fixed.c")]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("verdict: safe"));
}

#[test]
fn check_ivr_reports_unreadable_and_malformed_files() {
    let out = synth(&[
        "check-ivr",
        &example("double_lock.c"),
        "/nonexistent/ivr.json",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/ivr.json"));
    let bad = write("bad-ivr.json", "{\"format\": \"synth-ivr/1\"}");
    let out = synth(&[
        "check-ivr",
        &example("double_lock.c"),
        bad.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not an IVR file"));
}

#[test]
fn synth_prog_c_writes_the_schedule_and_refuses_to_overwrite_foreign_files() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-schedule");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let base = dir.join("lc");
    let base = base.to_str().unwrap();
    let dot = dir.join("g");
    let src = example("locked_counter.c");
    let args = [
        src.as_str(),
        "-o",
        base,
        "--opt",
        "1",
        "--explain",
        "--dot",
        dot.to_str().unwrap(),
    ];
    let o = synth(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("verdict:") && out.contains("schedule (Opt1)"),
        "{out}"
    );
    assert!(
        out.contains("section S0"),
        "--explain prints the sections: {out}"
    );
    let header = std::fs::read_to_string(format!("{base}.sched.h")).unwrap();
    assert!(header.contains("static const SynthSchedule synth_schedule"));
    let json = std::fs::read_to_string(format!("{base}.schedule.json")).unwrap();
    assert!(json.contains("\"format\": \"synth-schedule/1\""));
    let enforced = std::fs::read_to_string(format!("{base}.enforced.c")).unwrap();
    assert!(
        enforced.contains("#include \"lc.sched.h\"") && enforced.contains("synth_before("),
        "the instrumented source includes the header and reports events"
    );
    for f in ["g.sections.dot", "g.art.dot"] {
        let d = std::fs::read_to_string(dir.join(f)).unwrap();
        assert!(d.starts_with("digraph"), "{f}");
    }
    // Its own files are rewritten; a file synth did not write is not.
    let o = synth(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    std::fs::write(format!("{base}.sched.h"), "/* mine */\n").unwrap();
    let o = synth(&args);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("not written by synth"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        std::fs::read_to_string(format!("{base}.sched.h")).unwrap(),
        "/* mine */\n"
    );
    let o = synth(&[&args[..], &["--force"]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Nor is an instrumented source synth did not write.
    std::fs::write(
        format!("{base}.enforced.c"),
        "int main(void) { return 0; }\n",
    )
    .unwrap();
    let o = synth(&args);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("enforced.c"), "{}", stderr(&o));
}

#[test]
fn an_unsafe_program_gets_no_header() {
    let p = write(
        "always_fails.c",
        "#include <assert.h>\nint x = 1;\nint main(void) {\n  assert(x == 0);\n  return 0;\n}\n",
    );
    let base = p.with_extension("");
    let o = synth(&[p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("verdict: unsafe") && out.contains("counterexample"),
        "{out}"
    );
    assert!(stderr(&o).contains("no safe schedule exists"));
    assert!(!base.with_extension("sched.h").exists());
    assert!(!base.with_extension("schedule.json").exists());
}

#[test]
fn schedule_from_an_ivr_file_and_a_rejected_ivr() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-schedule-ivr");
    let _ = std::fs::remove_dir_all(&dir);
    let src = example("double_lock_fixed.c");
    let o = synth(&[
        "verify",
        &src,
        "--ivrs",
        "1",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.code().is_some(), "{}", stderr(&o));
    let ivr = dir.join("ivr-001.json");
    let base = dir.join("dl");
    let o = synth(&[
        "schedule",
        &src,
        "--ivr",
        ivr.to_str().unwrap(),
        "-o",
        base.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // The same IVR with the root no longer expanding any thread: not deadlock-free.
    // (Edited as text: the labels hold numbers a `serde_json::Value` cannot keep.)
    let text = std::fs::read_to_string(&ivr).unwrap();
    let at = text
        .find("\"expanded\":[")
        .expect("the root expands a thread");
    let end = at + text[at..].find(']').unwrap() + 1;
    let edited = format!("{}\"expanded\":[]{}", &text[..at], &text[end..]);
    let bad = dir.join("bad.json");
    std::fs::write(&bad, edited).unwrap();
    let o = synth(&[
        "schedule",
        &src,
        "--ivr",
        bad.to_str().unwrap(),
        "-o",
        dir.join("bad").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("rejected at node 0") && stderr(&o).contains("expanded"),
        "{}",
        stderr(&o)
    );
    assert!(!dir.join("bad.sched.h").exists());
}

/// Valid C with a construct synth cannot model yet gets `file:line:col: unsupported ...`,
/// `verdict: unknown` and exit code 4; an old-C habit gcc accepts (an `int` used as a pointer)
/// is accepted.
#[test]
fn unsupported_constructs_are_unknown_and_old_c_is_accepted() {
    // Floating point arithmetic computes arbitrary values (with a warning); converting such a
    // value to an integer gives any integer, with a warning that its range is not checked.
    let fp = write(
        "llvm_float.c",
        "double d;\nint main(void) { d = d * 1.5; return 0; }\n",
    );
    let o = synth(&["parse", fp.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o)
            .contains("warning: floating point arithmetic modelled as computing arbitrary values"),
        "{}",
        stderr(&o)
    );
    let fp = write(
        "llvm_float_int.c",
        "double d;\nint i;\nint main(void) { i = (int)d; return 0; }\n",
    );
    let o = synth(&["parse", fp.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(
            "warning: conversions of floating point values to integers modelled as giving \
             arbitrary values"
        ),
        "{}",
        stderr(&o)
    );
    // Inline assembly other than a barrier, a fence or a hint is not modelled.
    let asm = write(
        "llvm_asm.c",
        "int i;\nint main(void) {\n  __asm__ volatile(\"int3\");\n  return i;\n}\n",
    );
    let o = synth(&["parse", asm.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    let first = stderr(&o)
        .lines()
        .find(|l| !l.starts_with("warning"))
        .unwrap_or("")
        .to_string();
    assert!(
        first.starts_with(asm.to_str().unwrap())
            && first.contains(":3:3: unsupported inline assembly"),
        "{first}"
    );
    assert!(stderr(&o).contains("verdict: unknown"), "{}", stderr(&o));

    let old_c = write(
        "llvm_oldc.c",
        "int *p;\nint main(void) { p = 0x10; return p == 0; }\n",
    );
    let o = synth(&["parse", old_c.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn a_bug_found_again_is_counted_not_printed_again() {
    // The symbolic engine finds the double-lock deadlock on several schedules.
    let o = synth(&[
        "verify",
        &example("double_lock.c"),
        "--engine",
        "impact",
        "--timeout",
        "30",
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(out.matches("counterexample at").count(), 1, "{out}");
    assert!(out.contains("distinct bug (each shown once)"), "{out}");
    assert!(out.contains("verdict: partially safe"), "{out}");
}

/// A verdict under the thread bound says so, and says when its error occurs without the bound
/// too (no refused creation on the counterexample's path).
#[test]
fn a_verdict_under_the_thread_bound_says_whether_its_error_needs_the_bound() {
    let racy = r#"
#include <assert.h>
#include <pthread.h>
int x;
void *w(void *a) { x = 1; x = 0; return 0; }
int main(void) {
  pthread_t t[8];
  for (int i = 0; i < 8; i++) pthread_create(&t[i], 0, w, 0);
  assert(x == 0);
  return 0;
}
"#;
    let needs_success = r#"
#include <assert.h>
#include <pthread.h>
void *w(void *a) { return 0; }
int main(void) {
  pthread_t t[8];
  for (int i = 0; i < 8; i++) assert(pthread_create(&t[i], 0, w, 0) == 0);
  return 0;
}
"#;
    // The same with a scalar `pthread_t`, whose refused creations are steps of their own too.
    let needs_success_scalar = needs_success
        .replace("pthread_t t[8];", "pthread_t t;")
        .replace("&t[i]", "&t");
    // An error only the bound causes: the third creation fails, and its join returns ESRCH.
    let join_refused = r#"
#include <assert.h>
#include <pthread.h>
void *w(void *a) { return 0; }
int main(void) {
  pthread_t a, b, c;
  pthread_create(&a, 0, w, 0);
  pthread_create(&b, 0, w, 0);
  pthread_create(&c, 0, w, 0);
  assert(pthread_join(c, 0) == 0);
  return 0;
}
"#;
    let bounded = "verdict: unsafe with at most 3 threads\n";
    for (name, text, verdict) in [
        (
            "bound_racy.c",
            racy,
            "verdict: partially safe with at most 3 threads; its error occurs without the bound too\n",
        ),
        ("bound_refused.c", needs_success, bounded),
        ("bound_refused_scalar.c", &needs_success_scalar, bounded),
        ("bound_join_refused.c", join_refused, bounded),
    ] {
        let p = write(name, text);
        let o = synth(&[
            "verify",
            "--max-threads",
            "3",
            p.to_str().unwrap(),
        ]);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(out.contains(verdict), "{name}: {out}{}", stderr(&o));
        assert_eq!(o.status.code(), Some(1), "{name}");
    }
}

/// A safe verdict carries the thread bound only when some run meets it: a creation loop whose
/// count (from the command line) stays below the bound is `safe` without it.
#[test]
fn a_safe_verdict_names_the_thread_bound_only_when_a_run_meets_it() {
    let text = r#"
#include <pthread.h>
#include <stdlib.h>
int done[8];
void *w(void *a) { done[(long)a] = 1; return 0; }
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 2;
  if (n > 8) n = 8;
  pthread_t t[8];
  for (long i = 0; i < n; i++) pthread_create(&t[i], 0, w, (void *)i);
  for (long i = 0; i < n; i++) pthread_join(t[i], 0);
  return 0;
}
"#;
    let p = write("bound_unmet.c", text);
    for (n, verdict) in [
        ("2", "verdict: safe\n"),
        ("5", "verdict: safe with at most 4 threads\n"),
    ] {
        let o = synth(&["verify", "--max-threads", "4", p.to_str().unwrap(), "--", n]);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(out.contains(verdict), "{n}: {out}{}", stderr(&o));
        assert_eq!(o.status.code(), Some(0), "{n}");
    }
}

/// A program shown safe for any number of threads by a thread-modular proof has no ART, so no
/// schedule of its own: `synth build` says so, takes the schedule from a run with the thread
/// bound, and the built program (whose creations past the bound fail) runs to its end.
#[test]
fn build_of_a_program_safe_without_an_art_takes_the_schedule_of_the_bound() {
    let p = write(
        "many.c",
        r#"#include <assert.h>
#include <pthread.h>
int global;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *t_fun(void *arg) {
  pthread_mutex_lock(&m);
  global++;
  global--;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t[1000];
  for (int i = 0; i < 1000; i++)
    pthread_create(&t[i], 0, t_fun, 0);
  pthread_mutex_lock(&m);
  assert(global == 0);
  pthread_mutex_unlock(&m);
  for (int i = 0; i < 1000; i++)
    pthread_join(t[i], 0);
  return 0;
}
"#,
    );
    let exe = p.with_extension("");
    runtime::runtime_library();
    let o = synth(&["build", p.to_str().unwrap(), "-o", exe.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("verdict: safe (for any number of threads, by a thread-modular proof"),
        "{out}{}",
        stderr(&o)
    );
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    let run = Command::new(&exe).output().expect("runs");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
}

/// Recursion deeper than `--max-recursion` calls is a limit of the model the verdict names
/// with the option; a larger bound inlines it.
#[test]
fn max_recursion_bounds_the_inlining_of_recursive_calls() {
    let p = write(
        "fact.c",
        "#include <stdio.h>\nstatic int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }\n\
         int main(void) { printf(\"%d\\n\", fact(5)); return 0; }\n",
    );
    let p = p.to_str().unwrap();
    let o = synth(&["verify", p]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("one reaches <recursion of fact deeper than 3 calls (--max-recursion)>"),
        "{out}{}",
        stderr(&o)
    );
    assert_eq!(o.status.code(), Some(4));
    let o = synth(&["verify", "--max-recursion", "5", p]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("verdict: safe\n"), "{out}{}", stderr(&o));
    assert_eq!(
        synth(&["verify", "--max-recursion", "0", p]).status.code(),
        Some(2)
    );
}

/// `--timeout` holds within a second on a program whose counterexample takes longer than the
/// limit to find and replay (a loop run 777,777 times; Z3's preprocessing of such a path's
/// formula, which does not poll for its own time limit, once took minutes here).
#[test]
fn the_time_limit_holds_where_the_solver_does_not_stop() {
    let p = write(
        "long_counterexample.c",
        r#"
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000000) return 0;
  int i = 0;
  while (i < n) i++;
  assert(i != 777777);
  return 0;
}
"#,
    );
    let f = p.to_str().unwrap();
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli/long_counterexample");
    for args in [
        &["verify", f, "--engine", "explicit", "--timeout", "2"][..],
        &["verify", f, "--json", "--timeout", "2"][..],
        &[
            "schedule",
            f,
            "--engine",
            "explicit",
            "--timeout",
            "2",
            "--force",
            "-o",
        ][..],
    ] {
        let mut args = args.to_vec();
        if args.last() == Some(&"-o") {
            args.push(out.to_str().unwrap());
        }
        let t0 = std::time::Instant::now();
        let o = synth(&args);
        let took = t0.elapsed();
        let text = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(4), "{args:?}: {text}{}", stderr(&o));
        assert!(
            text.contains("verdict: unknown") || text.contains("\"verdict\":\"unknown\""),
            "{args:?}: {text}"
        );
        // (The limit, its second, and the start of the process, with room for a busy machine.)
        assert!(took.as_secs_f64() < 6.0, "{args:?} took {took:?}");
        // A run stopped at the limit still says what it emitted by then.
        if args[0] == "verify" {
            assert!(
                text.contains("first safe IVR: ") || text.contains("\"first_safe_ivr_seconds\""),
                "{args:?}: {text}"
            );
        }
    }
}

/// Ctrl-C stops `synth verify` at once, also while the solver checks a formula: the checks
/// leave `SIGINT` to the process's default action (by default Z3 takes it over for the time
/// of a check and cancels only that check, so `synth` went on to its time limit).
#[test]
fn an_interrupt_stops_verify_while_the_solver_runs() {
    use std::os::unix::process::ExitStatusExt;
    use std::time::{Duration, Instant};
    // (A nonlinear question the solver works on for seconds.)
    let program = write(
        "cubes.c",
        r#"
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
  long a = __VERIFIER_nondet_int(), b = __VERIFIER_nondet_int(), c = __VERIFIER_nondet_int();
  if (a > 1 && b > 1 && c > 1 && a < 1000000 && b < 1000000 && c < 1000000)
    assert(a * a * a + b * b * b != c * c * c);
  return 0;
}
"#,
    );
    // (`env` gives `SIGINT` its default action, which a shell ignores for a background job,
    // and runs synth in its own process.)
    let mut child = Command::new("env")
        .arg("--default-signal=INT")
        .arg(env!("CARGO_BIN_EXE_synth"))
        .args(["verify", "--engine", "impact", "--timeout", "120"])
        .arg(&program)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("synth starts");
    std::thread::sleep(Duration::from_secs(3));
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    if !sent.success() {
        let _ = child.kill();
        panic!("kill -INT failed");
    }
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(s) = child.try_wait().expect("waits") {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("synth verify went on after SIGINT");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.signal(), Some(2), "{status:?}");
}

/// A time limit beyond what the clock can count is bad input (exit 2), not a panic.
#[test]
fn a_time_limit_out_of_range_is_bad_input() {
    let p = write("limit.c", "int main(void) { return 0; }\n");
    let f = p.to_str().unwrap();
    for args in [
        &["verify", f, "--timeout", "18446744073709551615"][..],
        &["schedule", f, "--timeout", "18446744073709551615"][..],
        &["explore", f, "--timeout", "1e30"][..],
        &["explore", f, "--timeout=-1"][..],
    ] {
        let o = synth(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("--timeout"), "{args:?}: {}", stderr(&o));
    }
}

/// A bug after 77,777 rounds of a loop on an input: `unsafe` (no thread to choose), and the
/// trace printed shows its first and last steps with the rounds between summarised.
#[test]
fn a_long_counterexample_is_printed_with_its_middle_summarised() {
    let p = write(
        "deep_bug.c",
        r#"
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 100000) return 0;
  int i = 0;
  while (i < n) i++;
  assert(i != 77777);
  return 0;
}
"#,
    );
    let o = synth(&["verify", p.to_str().unwrap(), "--timeout", "30"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("verdict: unsafe"), "{text}{}", stderr(&o));
    assert!(text.lines().count() < 300, "{} lines", text.lines().count());
    assert!(
        text.lines().any(|l| l.contains("steps left out (at 8:3)")),
        "{text}"
    );
    assert!(text.contains("assertion failed"), "{text}");
}

/// A program with a bug whose input comes from the file system (a file's start copied into
/// a block with no room for its terminator): no schedule avoids it, and `synth build` says
/// why, with the bug the stateless search found and its trace, and builds nothing.
#[test]
fn a_build_without_a_schedule_shows_the_bug_found() {
    let p = write(
        "no_room.c",
        "#include <fcntl.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n\
         #include <unistd.h>\nint main(int argc, char **argv) {\n  int fd = open(argv[1], \
         O_RDONLY);\n  if (fd < 0) return 1;\n  char line[16];\n  ssize_t r = read(fd, line, \
         sizeof line);\n  if (r <= 0) return 1;\n  char *s = malloc(r);\n  if (!s) return 1;\n  \
         memcpy(s, line, r);\n  s[r] = 0;\n  puts(s);\n  free(s);\n  return 0;\n}\n",
    );
    let out = p.with_extension("built");
    let _ = std::fs::remove_file(&out);
    runtime::runtime_library();
    let o = synth(&[
        "build",
        "--timeout",
        "5",
        "-o",
        out.to_str().unwrap(),
        p.to_str().unwrap(),
        "--",
        "input.txt",
    ]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("counterexample") && text.contains("memory-safety violation"),
        "{text}"
    );
    assert!(text.contains("no_room.c:15:8"), "{text}");
    assert!(!out.exists());
}
