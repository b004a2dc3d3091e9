//! The C interface: schedules read from C tables, a run through the `extern "C"` functions,
//! and (in child processes, since they abort) deviations, calls before `synth_start` or from
//! unregistered threads, failed assumptions and refused starts.

mod common;

use common::{CTables, Spec, SHA};
use enforcer_rt::ffi::{
    synth_after, synth_before, synth_branch, synth_fail, synth_pthread_create, synth_spawn_before,
    synth_start, synth_thread_begin, synth_thread_exit,
};
use enforcer_rt::schedule::{Arm, End, Schedule, ScheduleError};
use enforcer_rt::table::{SynthSiteKind, SynthStatus, SYNTH_NONE};
use std::ffi::CString;
use std::os::raw::{c_int, c_ulong, c_void};
use std::process::{Command, Output};
use std::sync::atomic::AtomicU32;
use std::sync::atomic::Ordering::Relaxed;

const ROUNDS: u32 = 1_000;

/// Sites of [`scenario`].
struct Sites {
    create: u32,
    write: u32,
    read: u32,
    exit: u32,
    join: u32,
    again: u32,
    done: u32,
}

/// Main creates a worker; then, in a loop, main writes `x` and the worker reads it, and main's
/// loop branch selects the next round or the end: the worker exits, main joins it.
fn scenario() -> (Spec, Sites) {
    let mut s = Spec::new();
    let main = s.thread("main");
    let create = s.site(SynthSiteKind::Sync, "pthread_create worker");
    let worker = s.child("worker#1", Some(main), Some(create));
    let sites = Sites {
        create,
        write: s.access("write x"),
        read: s.access("read x"),
        exit: s.site(SynthSiteKind::ThreadExit, "thread exit"),
        join: s.site(SynthSiteKind::Sync, "pthread_join worker"),
        again: s.site(SynthSiteKind::Branch, "branch: i < n"),
        done: s.site(SynthSiteKind::Branch, "branch: !(i < n)"),
    };
    let start = s.section(&[(main, create, &[])]);
    let round = s.section(&[(main, sites.write, &[]), (worker, sites.read, &[(main, 1)])]);
    let end = s.section(&[
        (worker, sites.exit, &[]),
        (main, sites.join, &[(worker, 1)]),
    ]);
    s.end(start, End::Next(round));
    s.end(
        round,
        End::Branch {
            thread: main,
            arms: vec![
                Arm {
                    site: sites.again,
                    section: round,
                },
                Arm {
                    site: sites.done,
                    section: end,
                },
            ],
        },
    );
    (s, sites)
}

#[test]
fn c_tables_convert_to_the_same_schedule() {
    let (s, _) = scenario();
    let t = CTables::new(&s.spec);
    let from_c = unsafe { Schedule::from_tables(&t.schedule) }.unwrap();
    assert_eq!(from_c, Schedule::new(s.spec.clone()).unwrap());
    assert_eq!(
        unsafe { Schedule::from_tables(std::ptr::null()) },
        Err(ScheduleError::Tables(SynthStatus::Null))
    );
    let mut bad = t.schedule;
    bad.version += 1;
    assert_eq!(
        unsafe { Schedule::from_tables(&bad) },
        Err(ScheduleError::Tables(SynthStatus::Version))
    );
}

#[test]
fn a_program_runs_through_the_c_interface() {
    let (s, sites) = scenario();
    let tables = CTables::new(&s.spec);
    let sha = CString::new(SHA).unwrap();
    assert_eq!(
        unsafe { synth_start(&tables.schedule, sha.as_ptr()) },
        SynthStatus::Ok
    );
    assert_eq!(
        unsafe { synth_start(&tables.schedule, sha.as_ptr()) },
        SynthStatus::AlreadyStarted
    );
    let x = AtomicU32::new(0);
    std::thread::scope(|sc| {
        let id = synth_spawn_before(sites.create);
        assert_eq!(id, 1);
        let (x, sites) = (&x, &sites);
        let worker = sc.spawn(move || {
            synth_thread_begin(id);
            let mut seen = Vec::new();
            loop {
                synth_before(sites.read);
                let v = x.load(Relaxed);
                synth_after(sites.read);
                seen.push(v);
                if v == ROUNDS {
                    break;
                }
            }
            synth_thread_exit();
            seen
        });
        synth_after(sites.create);
        for i in 1..=ROUNDS {
            synth_before(sites.write);
            x.store(i, Relaxed);
            synth_after(sites.write);
            assert_eq!(
                synth_branch(sites.again, sites.done, i32::from(i < ROUNDS)),
                i32::from(i < ROUNDS)
            );
            // An arm that is SYNTH_NONE reports nothing.
            assert_eq!(synth_branch(SYNTH_NONE, sites.write, 7), 1);
        }
        synth_before(sites.join);
        let seen = worker.join().unwrap();
        synth_after(sites.join);
        assert_eq!(seen, (1..=ROUNDS).collect::<Vec<_>>());
    });
}

extern "C" {
    fn pthread_join(thread: c_ulong, result: *mut *mut c_void) -> c_int;
}

/// What the worker of [`pthread_scenario`] shares with main.
struct Shared {
    x: AtomicU32,
    read: u32,
    sum: AtomicU32,
}

/// The worker's start function: reads `x` until the last round; its return is its exit.
extern "C-unwind" fn worker(arg: *mut c_void) -> *mut c_void {
    let shared = unsafe { &*arg.cast::<Shared>() };
    loop {
        synth_before(shared.read);
        let v = shared.x.load(Relaxed);
        synth_after(shared.read);
        shared.sum.fetch_add(1, Relaxed);
        if v == ROUNDS {
            return std::ptr::null_mut();
        }
    }
}

/// [`scenario`] with the worker created by `synth_pthread_create` (its exit reported by the
/// runtime's trampoline) and joined by `pthread_join`.
fn pthread_scenario(sites: &Sites) {
    let shared = Shared {
        x: AtomicU32::new(0),
        read: sites.read,
        sum: AtomicU32::new(0),
    };
    let mut thread: c_ulong = 0;
    let arg = (&shared as *const Shared).cast_mut().cast::<c_void>();
    let rc = unsafe {
        synth_pthread_create(
            sites.create,
            &mut thread,
            std::ptr::null(),
            Some(worker),
            arg,
        )
    };
    assert_eq!(rc, 0);
    for i in 1..=ROUNDS {
        synth_before(sites.write);
        shared.x.store(i, Relaxed);
        synth_after(sites.write);
        synth_branch(sites.again, sites.done, i32::from(i < ROUNDS));
    }
    synth_before(sites.join);
    assert_eq!(unsafe { pthread_join(thread, std::ptr::null_mut()) }, 0);
    synth_after(sites.join);
    println!("worker read {} times", shared.sum.load(Relaxed));
}

/// Runs the test `child` of this binary in a child process, doing `what`.
fn run_child(what: &str) -> Output {
    Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "child", "--nocapture", "--test-threads=1"])
        .env("SYNTH_FFI_CHILD", what)
        .output()
        .unwrap()
}

/// What a child process does (nothing in an ordinary test run).
#[test]
fn child() {
    let Ok(what) = std::env::var("SYNTH_FFI_CHILD") else {
        return;
    };
    let (s, sites) = scenario();
    let mut spec = s.spec.clone();
    if what == "mismatch" {
        spec.program_sha256 = "1".repeat(64);
    }
    let tables = CTables::new(&spec);
    let sha = CString::new(SHA).unwrap();
    if what == "before start" {
        synth_before(sites.create);
    }
    let status = unsafe { synth_start(&tables.schedule, sha.as_ptr()) };
    println!("status {}", status as i32);
    match what.as_str() {
        "pthread" => pthread_scenario(&sites),
        "deviate" => synth_before(sites.write),
        "unregistered" => std::thread::spawn(move || synth_before(sites.read))
            .join()
            .unwrap(),
        "fail" => {
            let what = CString::new("assumption n > 0 failed").unwrap();
            unsafe { synth_fail(sites.write, what.as_ptr()) }
        }
        "fail anywhere" => {
            let what = CString::new("reach_error() reached").unwrap();
            unsafe { synth_fail(SYNTH_NONE, what.as_ptr()) }
        }
        _ => {}
    }
}

fn aborted_with(out: &Output, message: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "the child did not abort: {stderr}");
    assert!(stderr.contains(message), "{stderr}");
}

#[test]
fn threads_created_through_the_runtime_register_and_report_their_exit() {
    let out = run_child("pthread");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains(&format!("worker read {ROUNDS} times")),
        "{stdout}"
    );
}

#[test]
fn a_deviation_prints_the_thread_site_section_and_expected_event_and_aborts() {
    aborted_with(
        &run_child("deviate"),
        "synth: deviation from the schedule: another event than the schedule's next one: \
         thread main (id 0) reached site 1 (test.c:2:1, write x) in section 0; the schedule \
         expects site 0 (test.c:1:1, pthread_create worker)",
    );
}

#[test]
fn calls_before_start_or_from_unregistered_threads_abort() {
    aborted_with(
        &run_child("before start"),
        "synth: synth_before called before synth_start",
    );
    aborted_with(
        &run_child("unregistered"),
        "synth: synth_before called from a thread the enforcer does not know",
    );
}

#[test]
fn a_failed_assumption_names_its_source_position_and_aborts() {
    aborted_with(
        &run_child("fail"),
        "synth: assumption n > 0 failed at test.c:2:1",
    );
    let out = run_child("fail anywhere");
    aborted_with(&out, "synth: reach_error() reached\n");
}

#[test]
fn a_schedule_for_another_program_is_refused_with_a_status() {
    let out = run_child("mismatch");
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("status 4"), "{stdout}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("synth: cannot start: the schedule was made for another program"),
        "{stderr}"
    );
}
