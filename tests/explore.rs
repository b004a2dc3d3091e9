//! `synth explore` as users meet it: the corpus within fixed bounds (no bug reported for a
//! safe program; every unsafe one found but the pinned exceptions), traces written and
//! replayed, exploration under a schedule made by `synth`, and clear errors for bad input.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn synth(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_synth"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn corpus() -> PathBuf {
    if let Ok(p) = std::env::var("SYNTH_CORPUS") {
        return PathBuf::from(p);
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    for c in [
        root.join("../shared/corpus"),
        PathBuf::from("/work/shared/corpus"),
    ] {
        if c.join("verdicts.tsv").exists() {
            return c;
        }
    }
    panic!("corpus not found; set SYNTH_CORPUS to the folder holding verdicts.tsv")
}

fn scratch(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("explore")
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Unsafe programs not found within the bounds, and why (pinned, so that a change shows).
const NOT_FOUND: &[(&str, &str)] = &[
    (
        "svcomp/goblint-regression/28-race_reach_01-simple_racing.c",
        "main asserts after a loop of 10,000 thread creations (64 start under the default \
         --max-threads, the rest fail with EAGAIN): every execution is cut at the depth bound \
         before the assertion",
    ),
    (
        "svcomp/pthread/fib_bench_longer-2.c",
        "the bug needs the two threads to alternate at almost every step of their loops; \
         depth-first DPOR reaches it after about 50,000 executions (77,000 with every \
         access a scheduling point)",
    ),
    (
        "svcomp/pthread/triangular-longer-2.c",
        "as fib_bench_longer-2: about 350,000 executions with every access a scheduling \
         point; not within 100 s preempting only at synchronisation, where every atomic \
         region is ordered with every other",
    ),
];

/// Explores every corpus program of `dir` with DPOR, at most 20,000 executions of at most
/// 1,000 steps each, with one worker (which executions come first within the bound depends
/// on how the search is split; with one worker it is always the same).
fn corpus_within_bounds(dir: &str) {
    let root = corpus();
    let list = std::fs::read_to_string(root.join("verdicts.tsv")).unwrap();
    let mut checked = 0;
    for line in list
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let mut f = line.split('\t');
        let (path, verdict) = (f.next().unwrap(), f.next().unwrap_or(""));
        if !path.starts_with(dir) {
            continue;
        }
        checked += 1;
        let o = synth(
            &root,
            &[
                "explore",
                path,
                "--max-executions",
                "20000",
                "--max-depth",
                "1000",
                "--jobs",
                "1",
            ],
        );
        let code = o.status.code();
        let out = text(&o);
        if let Some((_, why)) = NOT_FOUND.iter().find(|(p, _)| *p == path) {
            assert!(
                code == Some(4),
                "{path} ({why}): expected no result within the bounds, got {code:?}\n{out}"
            );
            continue;
        }
        match verdict {
            "safe" => assert!(
                matches!(code, Some(0) | Some(4)),
                "{path} is safe, but exploration reports {code:?}:\n{out}"
            ),
            "unsafe" => {
                assert_eq!(code, Some(1), "{path} is unsafe, not found:\n{out}");
                assert!(out.contains("bug 1: "), "{path}: {out}");
            }
            v => panic!("{path}: verdict {v}"),
        }
    }
    assert!(checked >= 20, "{dir}: {checked} programs");
}

#[test]
fn svcomp_programs_within_bounds() {
    corpus_within_bounds("svcomp/");
}

#[test]
fn sctbench_programs_within_bounds() {
    corpus_within_bounds("sctbench/");
}

const LOST_UPDATE: &str = "#include <assert.h>\n#include <pthread.h>\nint counter = 0;\n\
void *worker(void *arg) { int tmp = counter; tmp = tmp + 1; counter = tmp; return 0; }\n\
int main(void) {\n  pthread_t a, b;\n  pthread_create(&a, 0, worker, 0);\n\
  pthread_create(&b, 0, worker, 0);\n  pthread_join(a, 0);\n  pthread_join(b, 0);\n\
  assert(counter == 2);\n  return 0;\n}\n";

#[test]
fn a_bug_is_printed_with_source_lines_and_its_trace_replays() {
    let d = scratch("replay");
    std::fs::write(d.join("lost.c"), LOST_UPDATE).unwrap();
    let o = synth(&d, &["explore", "lost.c", "--trace-out", "t.json"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let out = text(&o);
    assert!(
        out.contains("assertion failed in T0 main at lost.c:11:"),
        "{out}"
    );
    assert!(out.contains("counter = tmp;"), "{out}");
    assert!(out.contains("executions per second"), "{out}");
    let o = synth(&d, &["explore", "lost.c", "--replay", "t.json"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("the trace replays: assertion failed"),
        "{}",
        text(&o)
    );
    // Not overwritten without --force; a trace of another program is refused.
    let o = synth(&d, &["explore", "lost.c", "--trace-out", "lost.c"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("--force"), "{}", text(&o));
    std::fs::write(d.join("other.c"), LOST_UPDATE.replace("== 2", "<= 2")).unwrap();
    let o = synth(&d, &["explore", "other.c", "--replay", "t.json"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("another program"), "{}", text(&o));
    // JSON output carries the figures and the bug.
    let o = synth(&d, &["explore", "lost.c", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["format"], "synth-explore/1");
    assert_eq!(v["bugs"][0]["kind"], "error");
    assert!(v["stats"]["executions"].as_u64().unwrap() >= 1);
}

#[test]
fn exploration_under_the_schedule_synth_made_finds_no_bug() {
    let d = scratch("schedule");
    std::fs::write(d.join("lost.c"), LOST_UPDATE).unwrap();
    for opt in ["0", "1", "2"] {
        let base = format!("lost{opt}");
        let o = synth(&d, &["lost.c", "--opt", opt, "-o", &base]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        let o = synth(
            &d,
            &[
                "explore",
                "lost.c",
                "--schedule",
                &format!("{base}.schedule.json"),
            ],
        );
        assert_eq!(o.status.code(), Some(0), "Opt{opt}: {}", text(&o));
        assert!(
            text(&o)
                .contains("no error, deadlock or deviation in any execution the schedule permits"),
            "{}",
            text(&o)
        );
    }
    // A schedule of another program is refused.
    std::fs::write(d.join("other.c"), LOST_UPDATE.replace("== 2", "<= 2")).unwrap();
    let o = synth(
        &d,
        &["explore", "other.c", "--schedule", "lost1.schedule.json"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("made for another program"),
        "{}",
        text(&o)
    );
}

/// The search says how it scheduled: only at synchronisation on a race-free program; at
/// every shared access, naming the race, on a racy one (whose bug only that shows).
#[test]
fn the_search_says_whether_it_preempted_only_at_synchronisation() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/programs/explore");
    let o = synth(&dir, &["explore", "indexer.c", "-DTHREADS=12"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        text(&o).contains("preemption only at synchronisation (no data race)"),
        "{}",
        text(&o)
    );
    let o = synth(&dir, &["explore", "race_after_unlock.c"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("every shared access a scheduling point (a data race on x between"),
        "{}",
        text(&o)
    );
    let o = synth(
        &dir,
        &["explore", "indexer.c", "-DTHREADS=12", "--every-access"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(!text(&o).contains("preemption only"), "{}", text(&o));
    // Each thread's `strtok_r` state is its own local, whose address a library model keeps:
    // the ghost that marks the model's limit for such locals is no memory the threads race on.
    let d = scratch("tokens");
    std::fs::write(
        d.join("tokens.c"),
        r#"#include <pthread.h>
#include <string.h>
static char bufs[2][8] = { "a 1", "c 3" };
static void *run(void *arg) {
    char *save1, *save2;
    char *t = strtok_r(bufs[*(int *)arg], ",", &save1);
    strtok_r(t, " ", &save2);
    return NULL;
}
int main(void) {
    pthread_t a, b;
    int ia = 0, ib = 1;
    pthread_create(&a, NULL, run, &ia);
    pthread_create(&b, NULL, run, &ib);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
"#,
    )
    .unwrap();
    let o = synth(&d, &["explore", "tokens.c"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        text(&o).contains("preemption only at synchronisation (no data race)"),
        "{}",
        text(&o)
    );
}

#[test]
fn bad_options_are_exit_2_with_a_message() {
    let d = scratch("bad");
    std::fs::write(d.join("lost.c"), LOST_UPDATE).unwrap();
    for (args, msg) in [
        (vec!["--inputs", "5..1"], "--inputs 5..1"),
        (vec!["--inputs", "x"], "expected LO..HI"),
        (vec!["--sample-inputs", "0"], "at least 1"),
        (vec!["--jobs", "0"], "--jobs"),
        (vec!["--replay", "missing.json"], "missing.json"),
        (vec!["--schedule", "missing.json"], "missing.json"),
    ] {
        let mut a = vec!["explore", "lost.c"];
        a.extend(args);
        let o = synth(&d, &a);
        assert_eq!(o.status.code(), Some(2), "{a:?}: {}", text(&o));
        assert!(text(&o).contains(msg), "{a:?}: {}", text(&o));
    }
}
