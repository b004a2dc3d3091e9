//! `synth build`: the verified LLVM module instrumented and compiled with clang,
//! real threads under the enforcer runtime (DESIGN.md, "Front end", "Enforcement protocol").

#[path = "../verifier/tests/common/mod.rs"]
mod common;

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
    let d = std::env::temp_dir().join(format!("synth-enforce-llvm-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `synth build` of `source` at `opt` into `exe`; panics with synth's output
/// when it fails.
fn build(source: &str, opt: u8, exe: &Path, keep: Option<&Path>) {
    build_with(source, opt, exe, keep, &[]);
}

/// [`build`] for runs with the command-line arguments `args`.
fn build_with(source: &str, opt: u8, exe: &Path, keep: Option<&Path>, args: &[&str]) {
    build_flags(source, opt, exe, keep, &[], args);
}

/// [`build_with`] with more flags for `synth build`; returns what it printed.
fn build_flags(
    source: &str,
    opt: u8,
    exe: &Path,
    keep: Option<&Path>,
    flags: &[&str],
    args: &[&str],
) -> String {
    runtime_library();
    let mut cmd = Command::new(synth_exe());
    cmd.args(["build", "--timeout", "60", "--opt"])
        .arg(opt.to_string())
        .args(flags)
        .arg(source)
        .arg("-o")
        .arg(exe);
    if let Some(k) = keep {
        cmd.arg("--keep").arg(k);
    }
    if !args.is_empty() {
        cmd.arg("--").args(args);
    }
    let o = cmd.output().expect("synth runs");
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "synth build --opt {opt} {source} failed:\n{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

/// Runs `exe` (killed after 20 s) with `input` on its standard input: it ends with status 0
/// and prints `expected`.
fn runs_printing(exe: &Path, input: &str, expected: &str, what: &str) {
    let o = output_with_input(exe, input);
    assert!(
        o.status.success(),
        "{what}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&o.stdout), expected, "{what}");
}

/// Runs `exe`, killed after 20 s (`None` then).
fn run(exe: &Path) -> Option<Output> {
    let child = Command::new("timeout")
        .arg("20")
        .arg(exe)
        .output()
        .expect("runs");
    (child.status.code() != Some(124)).then_some(child)
}

/// Builds `tests/programs/NAME.c` at Opt0, Opt1 and Opt2 and runs each build `runs` times:
/// every run ends with status 0 and prints `expected`.
fn runs_at_every_level(name: &str, runs: usize, expected: &str) {
    runs_at_every_level_printing(name, runs, |out| out == expected);
}

/// [`runs_at_every_level`] for a program that prints any of what `accepts` takes.
fn runs_at_every_level_printing(name: &str, runs: usize, accepts: impl Fn(&str) -> bool) {
    let dir = scratch(name);
    for opt in 0..=2u8 {
        let exe = dir.join(format!("{name}{opt}"));
        build(&program(&format!("{name}.c")), opt, &exe, None);
        for _ in 0..runs {
            let o = run(&exe).expect("the enforced program ends");
            assert!(
                o.status.success(),
                "Opt{opt}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            let out = String::from_utf8_lossy(&o.stdout);
            assert!(accepts(&out), "Opt{opt}: {out:?}");
        }
    }
}

#[test]
fn the_serial_thread_of_a_barrier_publishes_the_result_at_every_level() {
    runs_at_every_level("barrier_publish", 5, "total 30\n");
}

/// A thread reads a local of the function that created it, which returns without joining:
/// the enforced return waits for the read at every level.
#[test]
fn a_creators_local_is_read_before_the_creator_returns_at_every_level() {
    runs_at_every_level("local_to_thread", 3, "got 10\n");
}

/// Creation loops whose trip counts come from the command line: each path through the loops
/// creates threads of its own slots, and the enforced program starts the slot the schedule's
/// creation event names (not the first slot created at that site).
#[test]
fn threads_created_in_loops_of_input_length_start_as_the_schedule_says() {
    runs_at_every_level("spawn_paths", 3, "value 10\n");
}

/// A condition variable initialised by `pthread_cond_init` (an event of the schedule, whose
/// helpers perform the waits and signals) at every level.
#[test]
fn a_condition_variable_initialised_at_run_time_works_at_every_level() {
    runs_at_every_level("cond_init_handshake", 3, "got 42\n");
}

/// Timed condition waits: the schedule says whether a wait is woken or times out. A worker
/// that waits again after each timeout gets the value main signals; a wait nobody signals
/// times out, no earlier than its deadline (0.2 s after the worker read the clock).
#[test]
fn a_timed_wait_is_woken_or_times_out_as_the_schedule_says() {
    runs_at_every_level("timed_wait_handoff", 3, "got 42\n");
    let start = std::time::Instant::now();
    runs_at_every_level("timed_wait_expires", 1, "timed out\nwaited 1\n");
    // Three runs, each waiting for its deadline (the builds take longer).
    assert!(start.elapsed() >= std::time::Duration::from_millis(600));
}

/// A timed wait on a condition variable whose attribute chose the monotonic clock times out
/// no earlier than its deadline on that clock (the program checks it: "early" otherwise).
#[test]
fn a_timed_wait_on_the_monotonic_clock_waits_for_its_deadline() {
    runs_at_every_level("timed_wait_monotonic", 1, "timed out\nwaited 1\n");
}

/// Timed locks and semaphore waits: the schedule says whether each call takes the mutex
/// (decrements the value) or times out, and a timeout comes no earlier than its deadline on
/// the call's clock (the program prints "early" otherwise), at every level.
#[test]
fn timed_locks_and_semaphore_waits_time_out_no_earlier_than_their_deadlines() {
    runs_at_every_level(
        "timed_lock",
        1,
        "timedlock: locked after a timeout\nsem_timedwait: posted\nsem_clockwait: timed out\n",
    );
}

/// The runtime's waiting for the schedule (a futex wait that times out) leaves the program's
/// `errno` as it was: calls that wait and succeed do not set it, at every level.
#[test]
fn a_thread_that_waits_for_the_schedule_keeps_its_errno() {
    runs_at_every_level("errno_kept", 1, "0 0 0, errno 0 0 0\n");
}

/// An assumption over a global that only its thread writes (an input in range) is no wait:
/// its arms are the schedule's branch, and the built program prints what the native build
/// prints for the inputs in range.
#[test]
fn an_assumption_over_a_global_only_its_thread_writes_builds_and_runs() {
    let out = prints_what_the_native_build_prints("assume_own_shared", &["2\n", "3\n"]);
    assert_eq!(out, ["seen 2\n", "seen 3\n"]);
}

/// The idioms of `tests/programs/idioms/` whose first safe IVR the verifier finds: each builds
/// at Opt2 and its enforced run prints what the program compiled by `cc` prints
/// (`.expected`).
#[test]
fn idioms_run_under_their_schedules_and_print_what_the_native_program_prints() {
    let dir = scratch("idioms");
    let idioms = [
        "alloc_wrapper",
        "argv_threads",
        "atomic_counter",
        "bank",
        "barrier_serial",
        "condvar_broadcast",
        "descriptor_log",
        "errorcheck_mutex",
        "function_pointer",
        "gcc_atomics",
        "linked_queue",
        "once_init",
        "realloc_vector",
        "recursive_mutex",
        "rwlock_config",
        "self_equal",
        "sem_pipeline",
        "sem_trywait_pool",
        "server_table",
        "shared_log",
        "spinlock_sync",
        "stdin_setting",
        "strings_stdio",
        "tls_counter",
        "trylock_backoff",
        "union_msg",
        "thread_pool",
        "chunk_sum",
        "hashmap_buckets",
        "refcount_atomic",
        "ring_semaphores",
        "rwlock_profile",
        "condvar_pipeline",
    ];
    for name in idioms {
        let expected = std::fs::read_to_string(program(&format!("idioms/{name}.expected")))
            .expect("expected output");
        built_idiom_prints(&dir, name, &expected);
    }
}

/// The counted loop of a million rounds per thread (`idioms/counted_rounds.c`) builds: the
/// verifier leaves its counters out of the states. Its run, with the rounds cut to 20,000
/// (a debug build of the runtime takes long over two million), prints what the native
/// program prints.
#[test]
fn a_counted_loop_of_a_million_rounds_builds_and_its_run_agrees() {
    let dir = scratch("rounds");
    let source = program("idioms/counted_rounds.c");
    let million = dir.join("million");
    build(&source, 2, &million, None);
    assert!(million.exists());
    let text = std::fs::read_to_string(&source).expect("source");
    let fewer = dir.join("counted_rounds_20000.c");
    std::fs::write(&fewer, format!("#define ROUNDS 20000\n{text}")).expect("written");
    let exe = dir.join("fewer");
    build(fewer.to_str().expect("path"), 2, &exe, None);
    let expected =
        std::fs::read_to_string(program("idioms/counted_rounds.expected")).expect("expected");
    let o = run(&exe).expect("ends");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(String::from_utf8_lossy(&o.stdout), expected);
}

/// A program whose lost update is a real bug runs without it under the schedule: the
/// schedule orders the two read-modify-writes.
#[test]
fn a_lost_update_does_not_happen_under_the_schedule() {
    let dir = scratch("lost");
    let src = format!("{}/examples/lost_update.c", env!("CARGO_MANIFEST_DIR"));
    let exe = dir.join("lost");
    build(&src, 2, &exe, None);
    for _ in 0..20 {
        let o = run(&exe).expect("ends");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
}

/// A handler prints a session's name while a reaper may free the session: the built program
/// prints from copies its schedule orders before the free (`printf`'s `%s` with and without a
/// precision, `fputs`, `fwrite`), so a run prints the whole name or finds no session, never
/// freed bytes, at every level.
#[test]
fn what_output_functions_print_is_read_before_another_thread_frees_it() {
    let whole = "request 7 for alice\nal|ali\nalice\nalice\n";
    runs_at_every_level_printing("printed_after_free", 5, |out| {
        out == whole || out == "gone\n"
    });
}

/// One helper prints a name another thread may free and, in other calls, string constants:
/// the built program reads the constants' bytes between the events of the same sites as the
/// name's (one instrumented call serves every copy of the helper), so every call runs as the
/// schedule has it and the name is printed whole or not at all, at every level.
#[test]
fn a_helper_printing_constants_and_shared_strings_runs_under_the_schedule() {
    runs_at_every_level_printing("printed_by_helper", 5, |out| {
        let mut lines: Vec<&str> = out.lines().collect();
        lines.sort_unstable();
        lines == ["[alice]", "[reaped]", "[start]"] || lines == ["[gone]", "[reaped]", "[start]"]
    });
}

/// The instrumented module keeps the program's code: every shared access runs between the
/// runtime's calls at the instruction the verifier read; the locks the schedule subsumes are
/// gone at Opt2 and kept (and bracketed) at Opt0.
#[test]
fn the_instrumented_module_brackets_the_verified_instructions() {
    let dir = scratch("module");
    let src = format!("{}/examples/locked_counter.c", env!("CARGO_MANIFEST_DIR"));
    let access = [
        "synth_before",
        "load i32, ptr @counter",
        "synth_after",
        "synth_before",
        "store i32",
        "synth_after",
    ];
    for opt in [0u8, 2] {
        let keep = dir.join(format!("keep{opt}"));
        build(&src, opt, &dir.join(format!("lc{opt}")), Some(&keep));
        let dis = Command::new("/usr/lib/llvm-19/bin/llvm-dis")
            .arg(keep.join("locked_counter.enforced.bc"))
            .arg("-o")
            .arg("-")
            .output()
            .expect("llvm-dis runs");
        let text = String::from_utf8_lossy(&dis.stdout).into_owned();
        assert!(text.contains("define dso_local i32 @synth_user_main"));
        let worker = text
            .split("\ndefine ")
            .find(|f| f.contains("@worker("))
            .and_then(|f| f.split("\n}\n").next())
            .expect("worker is defined");
        let keys = [
            "synth_before",
            "synth_after",
            "load i32, ptr @counter",
            "store i32",
            "pthread_mutex_lock",
            "pthread_mutex_unlock",
        ];
        let seen: Vec<&str> = worker
            .lines()
            .filter_map(|l| keys.into_iter().find(|k| l.contains(k)))
            .collect();
        let mut expected: Vec<&str> = Vec::new();
        if opt == 0 {
            expected.extend(["synth_before", "pthread_mutex_lock", "synth_after"]);
        }
        expected.extend(access);
        if opt == 0 {
            expected.extend(["synth_before", "pthread_mutex_unlock", "synth_after"]);
        }
        assert_eq!(seen, expected, "Opt{opt}:\n{worker}");
    }
}

/// Builds `tests/programs/NAME.c` with each `--max-threads` bound and runs each build three
/// times: every run ends with status 0 and prints what the bound's pair says.
fn runs_with_bounds(name: &str, runs: &[(usize, &str)]) {
    let dir = scratch(name);
    for &(bound, printed) in runs {
        let exe = dir.join(format!("{name}{bound}"));
        runtime_library();
        let o = Command::new(synth_exe())
            .args(["build", "--max-threads"])
            .arg(bound.to_string())
            .arg(program(&format!("{name}.c")))
            .arg("-o")
            .arg(&exe)
            .output()
            .expect("synth runs");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        for _ in 0..3 {
            let o = run(&exe).expect("ends");
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            assert_eq!(
                String::from_utf8_lossy(&o.stdout),
                printed,
                "--max-threads {bound}"
            );
        }
    }
}

/// With `--max-threads N` the verifier lets creations beyond N threads fail with `EAGAIN`;
/// the built program imposes the same bound, so its runs are the verified ones.
#[test]
fn the_thread_bound_holds_in_the_built_program() {
    runs_with_bounds("thread_bound", &[(3, "made 2\n"), (64, "made 6\n")]);
}

/// Workers started until a creation fails, in a loop with no counter: the verified program
/// starts one thread per round until the bound refuses one, and the built program, which
/// imposes the bound, starts as many and ends.
#[test]
fn a_loop_that_starts_threads_until_one_is_refused_ends_at_the_bound() {
    runs_with_bounds("until_refused", &[(4, "3 3\n"), (64, "63 63\n")]);
}

/// A creation refused for the bound leaves an id whose join returns `ESRCH` at once, in the
/// verifier's model and in the built program alike (the program joins every id unchecked).
#[test]
fn joining_the_id_of_a_refused_creation_returns_at_once() {
    runs_with_bounds("join_refused", &[(3, "joined 2\n"), (64, "joined 5\n")]);
}

/// A creation refused for the bound leaves an id that names no thread: `pthread_kill` of it
/// returns `ESRCH`, in the verifier's model (the program asserts it) and in the built program.
#[test]
fn signalling_the_id_of_a_refused_creation_finds_no_thread() {
    runs_with_bounds("kill_refused", &[(3, "2 2 2\n"), (64, "4 4 0\n")]);
}

/// One function's code accesses a shared counter in one call and a local in another: it is
/// instrumented once, the local access an event too, and the build runs at every level.
#[test]
fn code_shared_by_a_shared_and_a_local_access_runs_at_every_level() {
    runs_at_every_level("shared_and_local_code", 3, "");
}

/// A local whose lifetime is an event of the schedule in one call of its function and not
/// otherwise: the code is instrumented once, the lifetime an event in both calls.
#[test]
fn a_lifetime_shared_in_one_call_and_not_in_another_runs_at_every_level() {
    runs_at_every_level("lifetime_shared_and_not", 3, "got 4\n");
}

/// A library model that reaches the code the schedule orders through a helper (`strtol`
/// parses a string another thread reads, in `__synth_strto`) runs in the built program.
#[test]
fn a_model_whose_helper_the_schedule_orders_runs_in_the_built_program() {
    let dir = scratch("strtol_shared_arg");
    for opt in 0..=2u8 {
        let exe = dir.join(format!("strtol_shared_arg{opt}"));
        build_with(&program("strtol_shared_arg.c"), opt, &exe, None, &["21"]);
        let o = Command::new(&exe).arg("21").output().expect("runs");
        assert!(
            o.status.success(),
            "Opt{opt}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(String::from_utf8_lossy(&o.stdout), "2\n42\n", "Opt{opt}");
    }
}

/// The verified program refuses a creation for the thread bound by the copy of the code it
/// runs, and gives the bound's threads to the creations a run makes: the built program
/// creates and refuses the same ones.
#[test]
fn a_creation_is_refused_by_its_copy_of_the_code_as_in_the_verified_program() {
    runs_with_bounds(
        "spawn_or_refuse",
        &[(1, "11 1\n"), (2, "11 0\n"), (64, "0 0\n")],
    );
}

/// Two creation loops whose counts come from the command line: the first loop's unrolled
/// copies would take every thread of the bound, and the second get none; the bound's threads
/// go to the creations a run with the arguments makes, so two producers and two consumers
/// fit in five threads.
#[test]
fn the_bound_goes_to_the_creations_a_run_makes() {
    let dir = scratch("spawn_two_loops");
    let runs = [
        (5, ["2", "2"], "2 2\n"),
        (4, ["1", "2"], "1 2\n"),
        (4, ["3", "1"], "3 0\n"),
    ];
    for (bound, args, printed) in runs {
        let exe = dir.join(format!("spawn_two_loops{bound}"));
        runtime_library();
        let o = Command::new(synth_exe())
            .args(["build", "--max-threads"])
            .arg(bound.to_string())
            .arg(program("spawn_two_loops.c"))
            .arg("-o")
            .arg(&exe)
            .arg("--")
            .args(args)
            .output()
            .expect("synth runs");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let o = Command::new(&exe).args(args).output().expect("runs");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(
            String::from_utf8_lossy(&o.stdout),
            printed,
            "--max-threads {bound}"
        );
    }
}

/// The thread count comes from the command line: verified and built for the arguments after
/// `--`, the program runs with them (under any name) and refuses others.
#[test]
fn a_program_built_for_its_arguments_runs_with_them_and_refuses_others() {
    let dir = scratch("arguments");
    let exe = dir.join("argv_threads");
    build_with(&program("idioms/argv_threads.c"), 2, &exe, None, &["3"]);
    let renamed = dir.join("renamed");
    std::os::unix::fs::symlink(&exe, &renamed).unwrap();
    for name in [&exe, &renamed] {
        let o = Command::new(name).arg("3").output().expect("runs");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(String::from_utf8_lossy(&o.stdout), "sum of 1..12 = 78\n");
    }
    for other in [&[][..], &["4"][..], &["3", "3"][..]] {
        let o = Command::new(&exe).args(other).output().expect("runs");
        assert_eq!(o.status.code(), Some(78), "{other:?}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("verified for runs with the arguments: 3"),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

/// Formatting into and parsing memory another thread shares (`snprintf`, `sprintf`,
/// `asprintf`, `sscanf`): the schedule orders the models' accesses, and the built program
/// runs the models with the arguments the formats convert, at every level, printing what the
/// native build prints.
#[test]
fn formatting_into_shared_memory_runs_the_models_in_the_built_program() {
    let dir = scratch("format_shared");
    let src = program("format_shared.c");
    let native = native_lines(Path::new(&src), &dir.join("native"));
    assert_eq!(native.len(), 4, "{native:?}");
    for opt in 0..=2u8 {
        let exe = dir.join(format!("format_shared{opt}"));
        build_with(&src, opt, &exe, None, &[]);
        let o = run(&exe).expect("the built program ends");
        assert!(
            o.status.success(),
            "Opt{opt}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(sorted_lines(&o.stdout), native, "Opt{opt}");
    }
}

/// Blocks whose length is known only at run time (`memset`, `memcpy`, an overlapping
/// `memmove` of `strlen` bytes) in shared memory: the built program performs them byte by
/// byte in the order the verifier's model does, each byte's access between its events, at
/// every level, and prints what the native build prints.
#[test]
fn blocks_of_a_run_time_length_in_shared_memory_build_and_run() {
    let native = prints_what_the_native_build_prints("block_run_time", &[""]);
    assert_eq!(native, ["lleft side...|rright...\n"]);
}

/// `realloc` of a vector two threads grow under a mutex: the built program performs the
/// model's steps (the new block, the copy of the old block's bytes, each between its events,
/// the release of the old block), with the old block's size recorded by the program's
/// allocations, at every level, and prints what the native build prints.
#[test]
fn a_shared_vector_grown_with_realloc_builds_and_runs() {
    let native = prints_what_the_native_build_prints("realloc_shared", &[""]);
    assert_eq!(native, ["len=10 cap=16 sum=530\n"]);
}

/// The idioms with a bug that some schedule avoids (a data race, a lost update, a use after
/// free, a double free, a lock-order deadlock, a signal where a broadcast is needed, a signal
/// sent before its wait, a check-then-act race, a mutex left locked on an error path, a
/// reference count dropped without an atomic): `synth build` enforces a schedule that avoids it, so every run ends
/// with the output of a run without the bug.
#[test]
fn idioms_with_bugs_built_avoid_them() {
    let dir = scratch("buggy_idioms");
    let idioms = [
        ("racy_flag_handoff", "consumer saw 42\n"),
        ("lost_update_struct", "hits=6\n"),
        ("use_after_free", "result=700\n"),
        ("double_free", "closed\n"),
        ("bank_deadlock", "balances: 130 70\n"),
        ("signal_not_broadcast", "passed=2\n"),
        ("cond_missed_signal", "worker got 42\n"),
        (
            "seat_booking_race",
            "agent 0 sold a seat\nagent 1: sold out\nseats left 0, booked 1\n",
        ),
        ("lock_leak_on_error", "2 job(s) completed\n"),
        (
            "refcount_plain_decrement",
            "buffer freed exactly 1 time(s)\n",
        ),
    ];
    for (name, expected) in idioms {
        built_idiom_prints(&dir, name, expected);
    }
}

/// `tests/programs/idioms/NAME.c`, built at Opt2 into `dir`, prints `expected`
/// ([`built_prints`]).
fn built_idiom_prints(dir: &Path, name: &str, expected: &str) {
    built_prints(
        &program(&format!("idioms/{name}.c")),
        2,
        &dir.join(name),
        expected,
    );
}

/// `src`, built at level `opt` into `exe`, ends with status 0 and prints the lines of
/// `expected` in each of three runs (in any order: where the schedule does not order two
/// threads' `printf`s, the system does).
fn built_prints(src: &str, opt: u8, exe: &Path, expected: &str) {
    build(src, opt, exe, None);
    for _ in 0..3 {
        let o = run(exe).unwrap_or_else(|| panic!("{src} Opt{opt} does not end"));
        assert!(
            o.status.success(),
            "{src} Opt{opt}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(
            sorted_lines(&o.stdout),
            sorted_lines(expected.as_bytes()),
            "{src} Opt{opt}"
        );
    }
}

/// What `exe` prints with `input` on its standard input (ended within 20 s).
fn output_with_input(exe: &Path, input: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new("timeout")
        .arg("20")
        .arg(exe)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input.as_bytes()).expect("input written");
    drop(stdin);
    let o = child.wait_with_output().expect("ends");
    assert_ne!(o.status.code(), Some(124), "{} did not end", exe.display());
    o
}

/// `tests/programs/NAME.c` (NAME may name a directory too), built at every level, prints what
/// the native build prints for each of `inputs` on its standard input; what the native build
/// prints.
fn prints_what_the_native_build_prints(name: &str, inputs: &[&str]) -> Vec<String> {
    let dir = scratch(&name.replace('/', "-"));
    let src = program(&format!("{name}.c"));
    let native = dir.join("native");
    let st = Command::new("cc")
        .args(["-pthread", "-w", "-o"])
        .arg(&native)
        .arg(&src)
        .status()
        .unwrap();
    assert!(st.success());
    let expected: Vec<Vec<u8>> = (inputs.iter())
        .map(|i| output_with_input(&native, i).stdout)
        .collect();
    for opt in 0..=2u8 {
        let exe = dir.join(format!("program{opt}"));
        build_with(&src, opt, &exe, None, &[]);
        for (input, want) in inputs.iter().zip(&expected) {
            let o = output_with_input(&exe, input);
            assert!(
                o.status.success(),
                "{name} Opt{opt} [{input}]: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            assert_eq!(
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(want),
                "{name} Opt{opt} [{input}]"
            );
        }
    }
    (expected.iter())
        .map(|o| String::from_utf8_lossy(o).into_owned())
        .collect()
}

/// Settings read with `scanf` in two calls (literal text, `%*d`, `%7s`, `%c`, `%x`), the count
/// shared with two threads: the schedule branches inside scanf's model, so the built program
/// runs the model, reading its real standard input a directive at a time. At every level,
/// for inputs that match, end early, overflow the word, skip white space and do not match,
/// it prints what the native build prints; so does a program at scanf's edges (EOF after a
/// skipped conversion, `%5c` cut short by the end of the input).
#[test]
fn scanf_reads_the_real_input_in_the_built_program() {
    let native = prints_what_the_native_build_prints(
        "scanf_inputs",
        &[
            "n=2 7 hello z ff",
            "n=3",
            "n=9 1 abcdefghij q 10",
            "",
            "x",
            "n=1 2 w",
            "n= 2",
            "  n=1 5    longwordhere   Z  1f  ",
        ],
    );
    assert_eq!(native[0], "1 3|2 hello z ff|4\n");
    prints_what_the_native_build_prints("scanf_edges", &["5", "5 6 abc", "5 6abcdefg", "", "x"]);
    // Two threads in scanf at once: each call reads its line's pair, as glibc's stream lock
    // makes it (the model holds a lock of standard input for a call).
    let native = prints_what_the_native_build_prints("scanf_threads", &["1 2\n3 4\n", "7 8 9"]);
    assert_eq!(native[0], "1 2 / 3 4\n");
}

/// A loop over the lines of the input builds: the model of `fgets` branches on what the
/// system gives (the end of the file, the place of the null byte), which the built program
/// cannot see, so each call is one step of the schedule, and the program's own branches on
/// the line tell the runs apart from there on. A line longer than the buffer comes in pieces.
/// With a reader beside `main`, beside another thread, and two readers of one stream, too.
#[test]
fn a_loop_over_the_lines_of_the_input_builds_and_reads_the_real_input() {
    let long = format!("{}\nend\n", "x".repeat(40));
    let native = prints_what_the_native_build_prints(
        "environment/line_lengths",
        &["hello\nworld\n\nx", "", &long, "\n\n\n"],
    );
    assert_eq!(native[0], "5\n5\n0\n1\ndone\n");
    assert_eq!(native[2], "31\n9\n3\ndone\n");
    // read(2), whose model discards the counts the system cannot return.
    let native = prints_what_the_native_build_prints(
        "environment/read_chunks",
        &["hello world, this is a longer input\n", "", "abc"],
    );
    assert_eq!(native[2], "0\n");
    // A reader beside main: the schedule chooses the same thread after every answer of the
    // system (the rounds of the model's loops are no turns of the scheduler).
    let native = prints_what_the_native_build_prints(
        "environment/reader_count",
        &["a\n\nbb\n", "", "\n\n\n", "a\nb\nc\nd\ne\n", &long],
    );
    assert_eq!(native[0], "2 lines\n");
    assert_eq!(native[3], "3 lines\n");
    // A reader beside a thread whose first steps are its own (no step of the other inside
    // the model's call of `read`), and two threads reading lines of one stream.
    let native =
        prints_what_the_native_build_prints("environment/read_beside_ticker", &["", "abc", &long]);
    assert_eq!(native[2], "45 bytes, 3 ticks\n");
    let native = prints_what_the_native_build_prints(
        "environment/two_readers",
        &["", "a\nb\n", "\n\n\n\n\n", &long],
    );
    assert_eq!(native[2], "5 lines\n");
    assert_eq!(native[3], "7 lines\n");
    // The length of a line read beside a worker decides what `main` updates: the arms of
    // `strlen`'s loop are reported where their futures differ (and only there,
    // `schedgen::deploy`).
    let native = prints_what_the_native_build_prints(
        "environment/length_decides",
        &["", "a\n", "ab\n", "abcdefgh\n"],
    );
    assert_eq!(native[0], "0 0 2\n");
    assert_eq!(native[1], "0 1 2\n");
    assert_eq!(native[2], "1 0 2\n");
    assert_eq!(native[3], "1 0 2\n");
}

/// A stream main closes while a worker may still write to it: the schedule orders the
/// worker's call before main's `fclose` (the stream's block, which `fopen` allocates at the
/// program's call and `fclose` frees there), so every run at every level prints the line.
#[test]
fn a_stream_closed_beside_its_writer_is_closed_after_the_write() {
    let dir = scratch("close_while_writing");
    let src = program("environment/close_while_writing.c");
    for opt in 0..=2u8 {
        built_prints(
            &src,
            opt,
            &dir.join(format!("program{opt}")),
            "worker wrote\n",
        );
    }
}

/// The built program reads the system's clocks, not the values the verifier's models of
/// `clock_gettime` and `time` make up; a schedule that orders code of an environment model
/// (what `fopen`, `fread` or `fclose` answer, here) is refused rather than run on made-up
/// values.
#[test]
fn the_built_program_asks_the_system_for_the_environments_answers() {
    let native = prints_what_the_native_build_prints("clock_read", &[""]);
    assert_eq!(native[0], "1 1 2\n");
    let dir = scratch("environment_refused");
    let src = dir.join("fopen_shared.c");
    std::fs::write(
        &src,
        r#"#include <pthread.h>
#include <stdio.h>
char buf[4];
void *w(void *a) { (void)a; return (void *)(long)buf[0]; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  FILE *f = fopen("/etc/hostname", "r");
  if (f) { fread(buf, 1, 2, f); fclose(f); }
  pthread_join(t, 0);
  printf("%d\n", buf[0] != 0);
  return 0;
}
"#,
    )
    .unwrap();
    runtime_library();
    let o = Command::new(synth_exe())
        .arg("build")
        .arg(&src)
        .arg("-o")
        .arg(dir.join("fopen_shared"))
        .output()
        .expect("synth runs");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("the schedule orders code of the environment's model `f"),
        "{err}"
    );
    assert!(!dir.join("fopen_shared").exists());
}

/// Sorted lines of `out`: the order in which threads print is the schedule's (or the
/// system's), what they print is the program's.
fn sorted_lines(out: &[u8]) -> Vec<String> {
    let mut lines: Vec<String> = String::from_utf8_lossy(out)
        .lines()
        .map(String::from)
        .collect();
    lines.sort();
    lines
}

/// The sorted lines the program `src`, compiled by `cc` into `exe`, prints.
fn native_lines(src: &Path, exe: &Path) -> Vec<String> {
    let st = Command::new("cc")
        .args(["-pthread", "-w", "-o"])
        .arg(exe)
        .arg(src)
        .status()
        .unwrap();
    assert!(st.success());
    sorted_lines(&run(exe).expect("the native build ends").stdout)
}

/// The corpus's bounded buffer (one producer and one consumer of `rand()` characters, a
/// mutex and two condition variables, the buffer in `malloc`ed memory), as its README says
/// to run it: the enforced build prints what the native build prints.
#[test]
fn the_bounded_buffer_app_builds_and_prints_what_the_native_build_prints() {
    let dir = scratch("bbuf");
    let src = dir.join("bbuf.c");
    std::fs::copy(common::corpus().join("apps/bbuf/bbuf.c"), &src).unwrap();
    let expected = native_lines(&src, &dir.join("bbuf-native"));
    assert_eq!(expected.len(), 20);
    for opt in 0..=2u8 {
        let exe = dir.join(format!("bbuf{opt}"));
        build(src.to_str().unwrap(), opt, &exe, None);
        for _ in 0..3 {
            let o = run(&exe).expect("the enforced program ends");
            assert!(
                o.status.success(),
                "Opt{opt}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            assert_eq!(sorted_lines(&o.stdout), expected, "Opt{opt}");
        }
    }
}

/// A generator seeded with `srand` and shared by threads: the built program runs the library
/// model of `rand` (the schedule orders its state), which gives the values glibc gives for
/// the seed, so the enforced build prints the values the native one prints.
#[test]
fn a_seeded_generator_shared_by_threads_gives_the_native_values() {
    let dir = scratch("rand_seeded_threads");
    let src = program("rand_seeded_threads.c");
    let expected = native_lines(Path::new(&src), &dir.join("native"));
    assert_eq!(expected.len(), 6);
    let exe = dir.join("enforced");
    build(&src, 2, &exe, None);
    let o = run(&exe).expect("the enforced program ends");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(sorted_lines(&o.stdout), expected);
}

/// A program of several files (`--with OTHER.c`): verified as one module, with the bug of the
/// file that lacks the mutex found there, and built into a program that prints what the
/// native one prints.
#[test]
fn a_program_of_several_files_is_verified_and_built_as_one() {
    let main = program("multi/main.c");
    let verify = |other: &str| {
        let o = Command::new(synth_exe())
            .args(["verify", "--timeout", "30", &main, "--with"])
            .arg(program(other))
            .output()
            .expect("synth runs");
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let safe = verify("multi/counter.c");
    assert!(safe.contains("verdict: safe\n"), "{safe}");
    let racy = verify("multi/counter_racy.c");
    assert!(
        racy.contains("verdict: partially safe") && racy.contains("main.c:"),
        "{racy}"
    );
    runtime_library();
    let dir = scratch("multi");
    let exe = dir.join("counter");
    let o = Command::new(synth_exe())
        .args(["build", "--timeout", "60", &main, "--with"])
        .arg(program("multi/counter.c"))
        .arg("-o")
        .arg(&exe)
        .output()
        .expect("synth runs");
    assert!(
        o.status.success(),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    for _ in 0..3 {
        let o = run(&exe).expect("the built program ends");
        assert!(o.status.success());
        assert_eq!(String::from_utf8_lossy(&o.stdout), "total 9\n");
    }
}

/// `memmove` of overlapping shared memory, expanded into the schedule's cell steps (every
/// cell read before any is written) at every level: the window of samples ends as the
/// native program leaves it.
#[test]
fn an_overlapping_memmove_of_shared_memory_moves_the_old_bytes_at_every_level() {
    runs_at_every_level("shift_window", 3, "4 samples, 1 1 left\n");
}

/// A program that a thread-modular proof shows safe for any number of threads, whose `main`
/// starts workers in a loop past the bound: `synth build` says so, takes its schedule from a
/// run with the bound, and the built program runs at every level. The loop's first rounds
/// are unrolled with their counter known and the rest is a loop: the built program reaches
/// the loop's branch in the unrolled rounds too, where the schedule has no arm of it.
#[test]
fn a_program_safe_for_any_number_of_threads_builds_with_the_bound() {
    let dir = scratch("any_count_workers");
    for opt in 0..=2u8 {
        let exe = dir.join(format!("any_count_workers{opt}"));
        let source = program("any_count_workers.c");
        let out = build_flags(&source, opt, &exe, None, &["--max-threads", "4"], &[]);
        assert!(
            out.contains("verdict: safe (for any number of threads"),
            "{out}"
        );
        for _ in 0..3 {
            runs_printing(&exe, "", "started\n", &format!("Opt{opt}"));
        }
    }
}

/// A branch the lowering decided in one copy of its code (an inlined call with a constant
/// argument) and that the schedule branches on in another: the built program reports the arm
/// it takes at both, and the schedule has the decided copy's arm as an event too. It neither
/// stops with a deviation nor runs an order the schedule does not have, whatever the input.
#[test]
fn a_branch_decided_in_one_copy_and_taken_in_another_runs_as_scheduled() {
    let dir = scratch("decided_copies");
    for (name, outputs) in [
        ("decided_copy_then_taken", ["z=1\n", "z=1\n"]),
        ("taken_copy_then_decided", ["h=2\n", "h=1\n"]),
    ] {
        for opt in 0..=2u8 {
            let exe = dir.join(format!("{name}{opt}"));
            let source = program(&format!("{name}.c"));
            build_flags(&source, opt, &exe, None, &["--max-threads", "3"], &[]);
            for (input, printed) in ["n", "y"].iter().zip(outputs) {
                for _ in 0..3 {
                    runs_printing(&exe, input, printed, &format!("{name} Opt{opt} {input}"));
                }
            }
        }
    }
}
