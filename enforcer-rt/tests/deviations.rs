//! What the schedule does not allow is a deviation (an error value of the safe core; only the C
//! layer aborts), and what cannot be enforced is refused at construction.

mod common;

use common::{CTables, Spec, SHA};
use enforcer_rt::enforcer::{DeviationKind, Enforcer, Expected, Reached};
use enforcer_rt::schedule::{Arm, End, Schedule, ScheduleError};
use enforcer_rt::table::{SynthSiteKind, SynthStatus};

/// One thread, `main`, with sites `write x` (0) and `read y` (1).
fn one_thread() -> (Spec, u32, u32, u32) {
    let mut s = Spec::new();
    let main = s.thread("main");
    let x = s.access("write x");
    let y = s.access("read y");
    (s, main, x, y)
}

#[test]
fn a_wrong_site_is_a_deviation_naming_both_sites() {
    let (mut s, main, x, y) = one_thread();
    s.section(&[(main, x, &[])]);
    let e = s.enforcer();
    let mut ctx = e.register(main).unwrap();
    let d = e.before(&mut ctx, y).unwrap_err();
    assert_eq!(d.kind, DeviationKind::WrongEvent);
    assert_eq!(
        (d.thread, d.thread_name.as_str(), d.section),
        (0, "main", 0)
    );
    assert_eq!(d.reached, Reached::Site(e.site(y)));
    assert_eq!(d.expected, Expected::Event(e.site(x)));
    assert_eq!(
        d.to_string(),
        "another event than the schedule's next one: thread main (id 0) reached site 1 \
         (test.c:2:1, read y) in section 0; the schedule expects site 0 (test.c:1:1, write x)"
    );
    // A site outside the table, and `after` without its `before`.
    let d = e.before(&mut ctx, 99).unwrap_err();
    assert!(d
        .to_string()
        .contains("site 99 (not a site of the schedule)"));
    let d = e.after(&mut ctx, y).unwrap_err();
    assert_eq!(d.kind, DeviationKind::WrongEvent);
}

#[test]
fn an_event_after_the_end_of_the_schedule_is_a_deviation() {
    let (mut s, main, x, _) = one_thread();
    s.section(&[(main, x, &[])]);
    let e = s.enforcer();
    let mut ctx = e.register(main).unwrap();
    e.before(&mut ctx, x).unwrap();
    assert!(!e.is_finished());
    e.after(&mut ctx, x).unwrap();
    assert!(e.is_finished());
    // A thread waits for the process to end first (here not at all).
    e.set_end_grace(std::time::Duration::ZERO);
    let d = e.before(&mut ctx, x).unwrap_err();
    assert_eq!(d.kind, DeviationKind::AfterEnd);
    assert_eq!(d.expected, Expected::NoFurtherEvent);
    let text = d.to_string();
    assert!(text.starts_with("event after the end of the schedule: thread main (id 0)"));
    assert!(text.ends_with("expects no further event of this thread in this section"));
    // The same for a branch arm and an exit.
    assert_eq!(
        e.branch(&mut ctx, x).unwrap_err().kind,
        DeviationKind::AfterEnd
    );
    assert_eq!(
        e.thread_exit(&mut ctx).unwrap_err().kind,
        DeviationKind::AfterEnd
    );
}

#[test]
fn a_branch_arm_without_successor_is_a_deviation() {
    let (mut s, main, x, _) = one_thread();
    let (left, right) = (
        s.site(SynthSiteKind::Branch, "branch: i < n"),
        s.site(SynthSiteKind::Branch, "branch: !(i < n)"),
    );
    let s0 = s.section(&[(main, x, &[])]);
    let s1 = s.section(&[]);
    s.end(
        s0,
        End::Branch {
            thread: main,
            arms: vec![Arm {
                site: left,
                section: s1,
            }],
        },
    );
    let e = s.enforcer();
    let mut ctx = e.register(main).unwrap();
    // A branch arm while another event is pending.
    assert_eq!(
        e.branch(&mut ctx, left).unwrap_err().kind,
        DeviationKind::WrongEvent
    );
    e.before(&mut ctx, x).unwrap();
    e.after(&mut ctx, x).unwrap();
    // Another event before the arm that selects the next section.
    let d = e.before(&mut ctx, x).unwrap_err();
    assert_eq!(d.kind, DeviationKind::BranchNotReported);
    assert_eq!(d.expected, Expected::BranchArm(vec![e.site(left)]));
    let d = e.branch(&mut ctx, right).unwrap_err();
    assert_eq!(d.kind, DeviationKind::BranchWithoutSuccessor);
    let text = d.to_string();
    assert!(text.starts_with("branch arm with no successor: thread main (id 0) reached site 3"));
    assert!(text.contains("one of site 2 (test.c:3:1, branch: i < n)"));
    // The arm with a successor selects it; that section ends the program.
    e.branch(&mut ctx, left).unwrap();
    assert_eq!(e.current_section(), s1);
    assert!(e.is_finished());
}

#[test]
fn a_thread_exit_with_events_left_is_a_deviation() {
    let (mut s, main, x, _) = one_thread();
    let exit = s.site(SynthSiteKind::ThreadExit, "thread exit");
    s.section(&[(main, x, &[]), (main, exit, &[])]);
    let e = s.enforcer();
    let mut ctx = e.register(main).unwrap();
    let d = e.thread_exit(&mut ctx).unwrap_err();
    assert_eq!(d.kind, DeviationKind::ExitWithEventsLeft);
    assert_eq!(d.reached, Reached::Exit);
    assert_eq!(
        d.to_string(),
        "thread exits with events of the section left: thread main (id 0) reached its exit in \
         section 0; the schedule expects site 0 (test.c:1:1, write x)"
    );
    e.before(&mut ctx, x).unwrap();
    e.after(&mut ctx, x).unwrap();
    // The exit site is an ordinary site for `before`, but only `thread_exit` performs it here.
    e.thread_exit(&mut ctx).unwrap();
    assert!(e.is_finished());
}

#[test]
fn an_unexpected_thread_id_is_a_deviation() {
    let (mut s, main, x, _) = one_thread();
    s.section(&[(main, x, &[])]);
    let e = s.enforcer();
    let d = e.register(7).unwrap_err();
    assert_eq!(d.kind, DeviationKind::UnknownThread);
    assert_eq!(d.reached, Reached::Start);
    assert!(d
        .to_string()
        .starts_with("unexpected thread id: thread ? (id 7) reached its start"));
    e.register(main).unwrap();
    let d = e.register(main).unwrap_err();
    assert_eq!(d.kind, DeviationKind::AlreadyRegistered);
}

#[test]
fn a_spawn_without_a_thread_to_start_is_a_deviation() {
    let mut s = Spec::new();
    let main = s.thread("main");
    let create = s.site(SynthSiteKind::Sync, "pthread_create worker");
    let other = s.site(SynthSiteKind::Sync, "pthread_create other");
    let w = s.child("worker#1", Some(main), Some(create));
    s.section(&[(main, create, &[]), (main, create, &[]), (main, other, &[])]);
    let e = s.enforcer();
    let mut ctx = e.register(main).unwrap();
    assert_eq!(e.spawn_before(&mut ctx, create).unwrap(), w);
    e.after(&mut ctx, create).unwrap();
    let d = e.spawn_before(&mut ctx, create).unwrap_err();
    assert_eq!(d.kind, DeviationKind::NoChildThread);
    assert!(d
        .to_string()
        .contains("an event that starts no thread here"));
}

#[test]
fn a_schedule_for_another_program_is_refused() {
    let (mut s, main, x, _) = one_thread();
    s.section(&[(main, x, &[])]);
    let other = "0".repeat(64);
    let Err(err) = Enforcer::new(s.build(), &other) else {
        panic!("a mismatched hash is accepted");
    };
    assert_eq!(
        err,
        ScheduleError::HashMismatch {
            schedule: SHA.into(),
            program: other.clone()
        }
    );
    assert_eq!(err.status(), SynthStatus::HashMismatch);
    let text = err.to_string();
    assert!(text.contains(SHA) && text.contains(&other), "{text}");
    // Hex digits in either case are the same hash.
    assert!(Enforcer::new(s.build(), &SHA.to_uppercase()).is_ok());
}

#[test]
fn a_cycle_of_sections_without_events_is_refused() {
    let (mut s, main, x, _) = one_thread();
    let s0 = s.section(&[(main, x, &[])]);
    let s1 = s.section(&[]);
    let s2 = s.section(&[]);
    s.end(s0, End::Next(s1));
    s.end(s1, End::Next(s2));
    s.end(s2, End::Next(s1));
    let err = Schedule::new(s.spec.clone()).unwrap_err();
    assert_eq!(err, ScheduleError::Unschedulable(vec![1, 2]));
    assert_eq!(err.status(), SynthStatus::Unschedulable);
    assert!(err
        .to_string()
        .contains("sections 1 -> 2 form a cycle without events"));
    // A chain of such sections into a section with events is fine, and passed at once, also
    // from the start.
    s.end(s2, End::Next(s0));
    s.spec.initial_section = s1;
    let e = s.enforcer();
    assert_eq!(e.current_section(), s0);
}

#[test]
fn inconsistent_tables_are_refused() {
    let mut s = Spec::new();
    let (t0, t1) = (s.thread("main"), s.thread("peer"));
    let x = s.access("write x");
    // Thread 1's event waits for thread 0's, listed after it.
    s.section(&[(t1, x, &[(t0, 1)]), (t0, x, &[])]);
    let err = Schedule::new(s.spec.clone()).unwrap_err();
    assert_eq!(err.status(), SynthStatus::Corrupt);
    assert!(
        err.to_string().contains("only 0 are listed before it"),
        "{err}"
    );
    // A successor out of range.
    s.spec.sections[0].events.clear();
    s.end(0, End::Next(5));
    assert!(matches!(
        Schedule::new(s.spec.clone()),
        Err(ScheduleError::Invalid(_))
    ));
}

/// A spawn event that names a thread its thread does not create at that site is refused,
/// from Rust values and from C tables alike.
#[test]
fn a_spawn_event_must_start_a_thread_created_there() {
    let mut s = Spec::new();
    let main = s.thread("main");
    let create = s.site(SynthSiteKind::Sync, "pthread_create worker");
    let other = s.site(SynthSiteKind::Sync, "pthread_create other");
    let w = s.child("worker#1", Some(main), Some(create));
    s.section(&[(main, create, &[])]);
    assert_eq!(s.spec.sections[0].events[0].child, Some(w));
    Schedule::new(s.spec.clone()).unwrap();
    s.spec.sections[0].events[0].site = other;
    let err = Schedule::new(s.spec.clone()).unwrap_err();
    assert!(
        err.to_string().contains("does not create at its site"),
        "{err}"
    );
    let tables = CTables::new(&s.spec);
    let err = unsafe { Schedule::from_tables(&tables.schedule) }.unwrap_err();
    assert!(
        err.to_string().contains("does not create at its site"),
        "{err}"
    );
    s.spec.sections[0].events[0].child = Some(7);
    let tables = CTables::new(&s.spec);
    let err = unsafe { Schedule::from_tables(&tables.schedule) }.unwrap_err();
    assert_eq!(err.status(), SynthStatus::Corrupt);
}

/// Threads `main` and `peer` and one site, `x`.
fn two_threads() -> (Spec, u32, u32, u32) {
    let mut s = Spec::new();
    let (t0, t1) = (s.thread("main"), s.thread("peer"));
    let x = s.access("x");
    (s, t0, t1, x)
}

#[test]
fn constraints_implied_by_earlier_events_are_dropped() {
    let (mut s, t0, t1, x) = two_threads();
    s.section(&[
        (t0, x, &[]),
        (t0, x, &[]),
        (t1, x, &[(t0, 1)]),
        (t1, x, &[(t0, 1)]),
        (t1, x, &[(t0, 2)]),
    ]);
    let sched = s.build();
    let waits: Vec<Vec<(u32, u32)>> = sched.sections()[0]
        .events(t1)
        .iter()
        .map(|ev| ev.waits.iter().map(|w| (w.thread, w.count)).collect())
        .collect();
    assert_eq!(waits, vec![vec![(t0, 1)], vec![], vec![(t0, 2)]]);
    assert_eq!(sched.sections()[0].active_threads(), 2);
}

#[test]
fn only_events_another_thread_waits_for_are_published() {
    let (mut s, t0, t1, x) = two_threads();
    s.section(&[
        (t0, x, &[]),
        (t0, x, &[]),
        (t0, x, &[]),
        (t1, x, &[(t0, 2)]),
        (t1, x, &[]),
        (t0, x, &[(t1, 2)]),
    ]);
    let sched = s.build();
    let publish = |t: u32| -> Vec<bool> {
        sched.sections()[0]
            .events(t)
            .iter()
            .map(|ev| ev.publish)
            .collect()
    };
    assert_eq!(publish(t0), vec![false, true, false, false]);
    assert_eq!(publish(t1), vec![false, true]);
}

/// The C entry's fast paths ([`Enforcer::before_fast`], [`Enforcer::after_fast`]) handle only
/// the thread's next event when nothing needs waiting, publishing or advancing; for anything
/// else they change nothing and leave it to the full calls.
#[test]
fn the_fast_paths_take_only_the_common_case() {
    let (mut s, t0, t1, x) = two_threads();
    let y = s.access("y");
    s.section(&[
        (t0, x, &[]),
        (t0, x, &[]),
        (t0, x, &[]),
        (t1, x, &[]),
        (t1, x, &[(t0, 2)]),
        (t1, x, &[]),
    ]);
    let e = s.enforcer();
    let (mut c0, mut c1) = (e.register(t0).unwrap(), e.register(t1).unwrap());
    // A context that has seen no section yet takes the full call.
    assert!(!e.before_fast(&c1, x));
    e.before(&mut c1, x).unwrap();
    assert!(e.after_fast(&mut c1, x));
    // t1's second event waits for two of t0's.
    assert!(!e.before_fast(&c1, x));
    e.before(&mut c0, x).unwrap();
    assert!(!e.after_fast(&mut c0, y), "another site");
    assert!(e.after_fast(&mut c0, x));
    assert!(e.before_fast(&c0, x));
    assert!(!e.before_fast(&c0, y), "another site");
    // t0's second event is waited for: the full call publishes it.
    assert!(!e.after_fast(&mut c0, x));
    e.after(&mut c0, x).unwrap();
    assert!(e.before_fast(&c1, x));
    assert!(e.after_fast(&mut c1, x));
    // The last event of a thread in the section: the full call counts the thread out.
    assert!(e.before_fast(&c0, x));
    assert!(!e.after_fast(&mut c0, x));
    e.after(&mut c0, x).unwrap();
    assert!(e.before_fast(&c1, x));
    assert!(!e.after_fast(&mut c1, x));
    e.after(&mut c1, x).unwrap();
    // The section ended (it ends the program): nothing is left for the fast path.
    assert!(!e.before_fast(&c0, x) && !e.before_fast(&c1, x));
    assert!(e.is_finished());
}
