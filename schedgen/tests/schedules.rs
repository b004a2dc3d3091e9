//! Program schedules of the examples and of the corpus programs that get a safe IVR: generated
//! at Opt0, Opt1 and Opt2, the JSON round-trips, the header compiles with `cc -Wall -Werror`
//! against `include/synth_enforcer.h`, and runs of the program under the schedule on the
//! interpreter check Lemma 5 on every section (linear extensions end in the section path's
//! state) and never reach an error; the instrumented module (`schedgen::instrument`)
//! and its support file compile with the header.

mod common;

use common::first_safe;
use proptest::prelude::*;
use schedgen::{generate, simulate, Opt, Options, ProgramSchedule};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use verifier::art::Art;
use verifier::ir::Program;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn corpus() -> PathBuf {
    if let Ok(p) = std::env::var("SYNTH_CORPUS") {
        return PathBuf::from(p);
    }
    for c in [
        root().join("../shared/corpus"),
        PathBuf::from("/work/shared/corpus"),
    ] {
        if c.join("verdicts.tsv").exists() {
            return c;
        }
    }
    panic!("corpus not found; set SYNTH_CORPUS");
}

fn load(path: &Path, defines: &[&str]) -> Program {
    let opts = verifier::frontend::Options {
        defines: defines.iter().map(|d| d.to_string()).collect(),
        ..Default::default()
    };
    verifier::frontend::load(path, &opts).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn opts(opt: Opt) -> Options {
    Options {
        opt,
        ..Options::default()
    }
}

fn temp_dir() -> PathBuf {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let d = std::env::temp_dir().join(format!("synth-schedgen-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Compiles a C file that includes the header and reads the schedule.
fn header_compiles(name: &str, s: &ProgramSchedule) {
    let dir = temp_dir();
    let guard = schedgen::emit::guard_for(&format!("{name}.sched.h"));
    std::fs::write(dir.join("prog.sched.h"), schedgen::emit::header(s, &guard)).unwrap();
    std::fs::write(
        dir.join("use.c"),
        "#include \"prog.sched.h\"\n\
         int main(void) {\n\
           return synth_schedule.section_count == 0 || synth_schedule.thread_count == 0;\n\
         }\n",
    )
    .unwrap();
    let out = Command::new("cc")
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-I"])
        .arg(root().join("include"))
        .arg("-I")
        .arg(&dir)
        .arg("-o")
        .arg(dir.join("use"))
        .arg(dir.join("use.c"))
        .output()
        .expect("cc runs");
    assert!(
        out.status.success(),
        "{name}: the header does not compile:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(dir.join("use")).status().unwrap();
    assert!(run.success(), "{name}: the compiled tables are empty");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Instruments the program's module for `s` and compiles it and its support file (to object
/// files: the program's own undefined functions are the linker's business) with the schedule
/// header.
fn instrumented_module_compiles(name: &str, p: &Program, s: &ProgramSchedule) {
    let dir = temp_dir();
    let bc = dir.join("prog.enforced.bc");
    let support = schedgen::instrument::instrument(p, s, "prog.sched.h", &bc)
        .unwrap_or_else(|e| panic!("{name} Opt{}: {e}", s.opt))
        .support;
    let guard = schedgen::emit::guard_for("prog.sched.h");
    std::fs::write(dir.join("prog.sched.h"), schedgen::emit::header(s, &guard)).unwrap();
    std::fs::write(dir.join("prog.enforced.c"), &support).unwrap();
    let clang = verifier::frontend::llvm::compile::clang();
    for (input, object) in [
        ("prog.enforced.c", "support.o"),
        ("prog.enforced.bc", "prog.o"),
    ] {
        let out = Command::new(&clang)
            .args(["-std=gnu11", "-c", "-w", "-I"])
            .arg(root().join("include"))
            .arg("-I")
            .arg(&dir)
            .arg("-o")
            .arg(dir.join(object))
            .arg(dir.join(input))
            .output()
            .expect("clang runs");
        assert!(
            out.status.success(),
            "{name} Opt{}: {input} does not compile (kept in {}):\n{}",
            s.opt,
            dir.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Exploration under the schedule (`synth explore --schedule`, with DPOR): every linear
/// extension of every section, every branch outcome and every input in -2..2, up to a depth
/// bound for programs that loop forever, finds no error, deadlock or deviation.
fn explored_without_bugs(name: &str, p: &Program, s: &ProgramSchedule) {
    let guide = schedgen::guide::ScheduleGuide::new(p, s);
    let opts = verifier::explore::Options {
        max_depth: 300,
        max_executions: Some(20_000),
        ..Default::default()
    };
    let r = verifier::explore::explore(p, &guide, &opts, None);
    if let Some(b) = r.bugs.first() {
        panic!(
            "{name} Opt{}: exploration under the schedule: {}\n{}",
            s.opt,
            b.message,
            b.show(p)
        );
    }
    assert!(r.stats.executions > 0, "{name}");
}

/// Everything the issues ask of one program's schedules.
fn check_program(name: &str, p: &Program, art: &Art) {
    for opt in [Opt::O0, Opt::O1, Opt::O2] {
        let s = generate(p, art, opts(opt))
            .unwrap_or_else(|e| panic!("{name} Opt{}: {e}", opt.level()));
        assert_eq!(s.validate(), Ok(()));
        let text = s.to_json();
        let back = ProgramSchedule::from_json(&text).expect("the JSON parses");
        assert_eq!(back.to_json(), text, "{name}: the JSON does not round-trip");
        assert_eq!(back.program_sha256, p.sha256);
        header_compiles(name, &s);
        instrumented_module_compiles(name, p, &s);
        explored_without_bugs(name, p, &s);
        for seed in 0..3 {
            if let Err(d) = simulate::run(p, &s, seed, 40) {
                panic!(
                    "{name} Opt{} seed {seed}: section {}: {}",
                    opt.level(),
                    d.section,
                    d.what
                );
            }
        }
    }
}

#[test]
fn examples_get_schedules_at_every_level() {
    let cases: &[(&str, &[&str])] = &[
        ("producer_consumer.c", &[]),
        ("producer_consumer.c", &["THREADS=2"]),
        ("unsync_producer_consumer.c", &[]),
        ("double_lock.c", &[]),
        ("double_lock_fixed.c", &[]),
        ("locked_counter.c", &[]),
        ("lost_update.c", &[]),
        ("filesystem.c", &[]),
    ];
    for (file, defs) in cases {
        let p = load(&root().join("examples").join(file), defs);
        let art = first_safe(&p, 60).unwrap_or_else(|| panic!("{file}: no safe IVR"));
        check_program(file, &p, &art);
    }
}

/// An input split into cases (one per value the program's check leaves) gives a proof the
/// runtime cannot tell the cases of apart: the schedule is one position for all of them until
/// a branch arm (a worker's loop ending after fewer rounds) tells them apart, and it permits
/// no bad execution at any level.
#[test]
fn a_proof_with_cases_gets_one_schedule_for_all_of_them() {
    let p = load(&root().join("tests/programs/cases_rounds.c"), &[]);
    let art = first_safe(&p, 60).expect("a safe IVR");
    assert!(verifier::cases::has_cases(&art), "the IVR splits the input");
    check_program("cases_rounds.c", &p, &art);
    let s = generate(&p, &art, opts(Opt::O0)).expect("a schedule");
    assert!(
        s.sections.iter().any(|x| x.successors.len() > 1),
        "the rounds end in a branch that tells the cases apart"
    );
}

#[test]
fn corpus_programs_with_safe_ivrs_get_schedules() {
    // The corpus programs whose first safe IVR comes within a few seconds (bench/README.md);
    // bench/schedules.sh covers every one that gets a safe IVR within 60 s.
    let files = [
        "sctbench/account_bad.c",
        "sctbench/account_ok.c",
        "sctbench/deadlock01_bad.c",
        "sctbench/lazy01_ok.c",
        "sctbench/phase01_ok.c",
        "sctbench/stateful01_ok.c",
        "sctbench/sync01_ok.c",
        "svcomp/pthread/fib_bench-1.c",
        "svcomp/pthread/fib_bench-2.c",
        "svcomp/pthread/bigshot_p.c",
        "svcomp/pthread/bigshot_s.c",
        "svcomp/pthread/stateful01-2.c",
        "svcomp/pthread/sync01.c",
        "svcomp/pthread/triangular-1.c",
        "svcomp/pthread/triangular-2.c",
    ];
    let mut checked = 0;
    for f in files {
        let p = load(&corpus().join(f), &[]);
        let Some(art) = first_safe(&p, 30) else {
            panic!("{f}: no safe IVR within 30 s (the benchmark found one in a few seconds)");
        };
        check_program(f, &p, &art);
        checked += 1;
    }
    assert_eq!(checked, files.len());
}

/// A proof that ends in a loop without events (`main` blocked at the join of a thread that
/// computes on its own for ever) gets a schedule that ends there, at every level; a schedule
/// file edited back into a cycle of sections without events is refused (a guide or runtime
/// following it would pass those sections for ever).
#[test]
fn a_proof_ending_in_a_loop_without_events_ends_the_schedule() {
    use schedgen::schedule::{End, Successor};
    let file = "worker_loops_for_ever.c";
    let p = load(&root().join("tests/programs").join(file), &[]);
    let art = first_safe(&p, 60).expect("a safe IVR");
    check_program(file, &p, &art);
    let s = generate(&p, &art, opts(Opt::O2)).expect("a schedule");
    assert_eq!(s.idle_cycle(), None);
    let idle = s
        .sections
        .iter()
        .find(|x| x.events.is_empty() && !x.path.is_empty())
        .expect("the section of the loop");
    assert_eq!(idle.end, End::Finish);
    assert!(idle.successors.is_empty());
    let mut edited = s.clone();
    let id = idle.id;
    edited.sections[id as usize].end = End::Next;
    edited.sections[id as usize].successors = vec![Successor {
        site: None,
        arm: None,
        section: id,
    }];
    let err = ProgramSchedule::from_json(&edited.to_json()).unwrap_err();
    assert!(
        err.contains(&format!("sections {id} form a cycle without events")),
        "{err}"
    );
}

/// The generator's reason for giving no schedule at `opt`.
fn refused(p: &Program, art: &Art, opt: Opt) -> String {
    generate(p, art, opts(opt))
        .expect_err("no schedule")
        .to_string()
}

/// A loop without events ends the schedule only where every thread the loop leaves waiting
/// also waits when deployed: when one waits at a lock that Opt1 and Opt2 remove (the schedule
/// subsumes the mutex), those levels give no schedule (the deployed thread would run past the
/// lock into code the proof never reaches); Opt0 keeps the lock and ends the schedule.
#[test]
fn no_schedule_ends_in_a_loop_where_a_thread_waits_at_a_removed_lock() {
    use schedgen::schedule::End;
    let file = "loop_holding_lock.c";
    let p = load(&root().join("tests/programs").join(file), &[]);
    let art = first_safe(&p, 60).expect("a safe IVR");
    for opt in [Opt::O1, Opt::O2] {
        let err = refused(&p, &art, opt);
        assert!(
            err.contains("waits at") && err.contains(&format!("Opt{} removes", opt.level())),
            "{err}"
        );
    }
    let s = generate(&p, &art, opts(Opt::O0)).expect("a schedule at Opt0");
    assert_eq!(s.validate(), Ok(()));
    assert!(s
        .sections
        .iter()
        .any(|x| x.events.is_empty() && !x.path.is_empty() && x.end == End::Finish));
}

/// The same at the end of the program: the worker ends the program holding the mutex while
/// main waits at its lock; a deployed main would run past a lock that Opt1 and Opt2 remove
/// while the process exits, so those levels give no schedule, and Opt0 ends the schedule there.
#[test]
fn no_schedule_ends_the_program_where_a_thread_waits_at_a_removed_lock() {
    use schedgen::schedule::End;
    let p = load(&root().join("tests/programs/exit_holding_lock.c"), &[]);
    let art = first_safe(&p, 60).expect("a safe IVR");
    for opt in [Opt::O1, Opt::O2] {
        let err = refused(&p, &art, opt);
        assert!(
            err.contains("ends the program while main waits at")
                && err.contains(&format!("Opt{} removes", opt.level())),
            "{err}"
        );
    }
    let s = generate(&p, &art, opts(Opt::O0)).expect("a schedule at Opt0");
    assert_eq!(s.validate(), Ok(()));
    assert!(s.sections.iter().any(|x| x.end == End::Finish));
}

/// Two workers' atomic regions alternate in the proof. At Opt0 the region markers are events,
/// and a region may start only once the other worker's previous region has ended; ordering
/// only the accesses inside made exploration under the schedule deadlock (a worker inside its
/// region waited for the other, which could not enter its own).
#[test]
fn atomic_regions_of_different_threads_keep_their_order() {
    let file = "atomic_alternation.c";
    let p = load(&root().join("tests/programs").join(file), &[]);
    let art = first_safe(&p, 60).expect("a safe IVR");
    check_program(file, &p, &art);
}

/// Loops with events too: a thread that a loop of the schedule leaves where it is must stay
/// there when deployed. Blocked at a lock that Opt1 and Opt2 remove, it would run past it to
/// an assertion the proof never reaches (no schedule at those levels, one at Opt0); shut out
/// by an atomic region, which deployed orders only events, it runs its code before its first
/// event anyway (no schedule at any level).
#[test]
fn no_schedule_leaves_a_thread_in_a_loop_where_it_would_run_on() {
    let p = load(
        &root().join("tests/programs/loop_with_events_holding_lock.c"),
        &[],
    );
    let art = first_safe(&p, 60).expect("a safe IVR");
    for opt in [Opt::O1, Opt::O2] {
        let err = refused(&p, &art, opt);
        assert!(
            err.contains("keeps looping while worker#1 waits at")
                && err.contains(&format!("Opt{} removes", opt.level()))
                && err.contains("a failed assertion at"),
            "{err}"
        );
    }
    let s = generate(&p, &art, opts(Opt::O0)).expect("a schedule at Opt0");
    assert!(s.sections.iter().any(|x| !x.events.is_empty()));
    let p = load(&root().join("tests/programs/atomic_for_ever.c"), &[]);
    let art = first_safe(&p, 60).expect("a safe IVR");
    for opt in [Opt::O0, Opt::O1, Opt::O2] {
        let err = refused(&p, &art, opt);
        assert!(
            err.contains("keeps looping while worker#1 is at")
                && err.contains("run on to a failed assertion"),
            "{err}"
        );
    }
}

/// Schedules for the Lemma 5 property test, made once.
fn lemma5_cases() -> &'static Vec<(String, Program, Vec<ProgramSchedule>)> {
    static CASES: OnceLock<Vec<(String, Program, Vec<ProgramSchedule>)>> = OnceLock::new();
    CASES.get_or_init(|| {
        let progs = [
            (
                root().join("examples/producer_consumer.c"),
                vec!["THREADS=2"],
            ),
            (root().join("examples/filesystem.c"), vec![]),
            (corpus().join("svcomp/pthread/bigshot_s.c"), vec![]),
            (corpus().join("sctbench/account_ok.c"), vec![]),
        ];
        progs
            .iter()
            .map(|(path, defs)| {
                let p = load(path, defs);
                let art = first_safe(&p, 60).expect("a safe IVR");
                let scheds = [Opt::O0, Opt::O1, Opt::O2]
                    .iter()
                    .map(|&o| generate(&p, &art, opts(o)).expect("a schedule"))
                    .collect();
                (path.display().to_string(), p, scheds)
            })
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Seed 002, Lemma 5: every linear extension of a section's order, run from the section's
    /// start state with the same inputs, ends in the state the section path ends in. The
    /// simulator draws a random linear extension of each section it runs (and random inputs
    /// and initial values) and compares it with the path; it also fails on errors, undefined
    /// behaviour and branch outcomes without successor.
    #[test]
    fn linear_extensions_of_sections_end_in_the_section_paths_state(
        case in 0usize..4, level in 0usize..3, seed in any::<u64>()
    ) {
        let (name, p, scheds) = &lemma5_cases()[case];
        let r = simulate::run(p, &scheds[level], seed, 30);
        prop_assert!(r.is_ok(), "{name} Opt{level}: {:?}", r.err());
    }
}
