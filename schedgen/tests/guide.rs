//! Exploration under a program schedule catches schedules that permit bugs: a vector clock
//! weakened by hand lets the lost update through, an edited site is a deviation, and a
//! schedule that removes the wait for another thread's event deadlocks nothing but still
//! checks every order the schedule leaves open.

mod common;

use common::first_safe;
use schedgen::guide::ScheduleGuide;
use schedgen::{generate, Opt, Options, ProgramSchedule};
use verifier::explore::{explore, BugKind, Options as EOpts, Report};
use verifier::ir::Program;

fn schedule(opt: Opt) -> (Program, ProgramSchedule) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/lost_update.c");
    let p = verifier::frontend::load(&path, &Default::default()).unwrap();
    let art = first_safe(&p, 60).expect("a safe IVR");
    let s = generate(
        &p,
        &art,
        Options {
            opt,
            ..Options::default()
        },
    )
    .unwrap();
    (p, s)
}

fn check(p: &Program, s: &ProgramSchedule, dpor: bool) -> Report {
    let g = ScheduleGuide::new(p, s);
    explore(
        p,
        &g,
        &EOpts {
            dpor,
            ..EOpts::default()
        },
        None,
    )
}

#[test]
fn the_generated_schedule_has_no_bug_and_every_level_runs() {
    for opt in [Opt::O0, Opt::O1, Opt::O2] {
        let (p, s) = schedule(opt);
        for dpor in [true, false] {
            let r = check(&p, &s, dpor);
            assert!(r.bugs.is_empty(), "{:?}", r.bugs[0].message);
            assert!(r.stats.complete && r.stats.executions >= 1);
        }
    }
}

/// The second worker's read no longer waits for the first worker's write: both can read 0.
#[test]
fn a_weakened_vector_clock_is_caught() {
    let (p, mut s) = schedule(Opt::O1);
    let sec = &mut s.sections[0];
    // The read of `counter` that waits for another thread's write.
    let read = sec
        .events
        .iter()
        .position(|e| {
            s.sites.sites[e.site as usize].text == "read counter"
                && e.vc
                    .iter()
                    .enumerate()
                    .any(|(u, &n)| u != e.thread.0 as usize && u != 0 && n > 0)
        })
        .expect("a read that waits for the other worker");
    let t = sec.events[read].thread.0 as usize;
    for (u, n) in sec.events[read].vc.iter_mut().enumerate() {
        if u != t && u != 0 {
            *n = 0;
        }
    }
    for dpor in [true, false] {
        let r = check(&p, &s, dpor);
        let b = r.bugs.first().expect("the lost update");
        assert_eq!(b.kind, BugKind::Error, "{}", b.message);
        assert!(b.message.contains("assertion failed"), "{}", b.message);
    }
}

/// A section that expects another site than the program reaches is a deviation (the runtime
/// would abort there).
#[test]
fn an_edited_site_is_a_deviation() {
    let (p, mut s) = schedule(Opt::O1);
    let sec = &mut s.sections[0];
    let k = sec
        .events
        .iter()
        .position(|e| s.sites.sites[e.site as usize].text == "write counter")
        .expect("a write");
    let other = s
        .sites
        .sites
        .iter()
        .find(|x| x.text == "read counter")
        .expect("a read site")
        .id;
    sec.events[k].site = other;
    let r = check(&p, &s, true);
    let b = r.bugs.first().expect("a deviation");
    assert_eq!(b.kind, BugKind::Deviation, "{}", b.message);
    assert!(b.message.contains("expects site"), "{}", b.message);
}
