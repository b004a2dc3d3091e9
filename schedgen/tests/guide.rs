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
    let s = at_level(&p, &art, opt);
    (p, s)
}

/// The program schedule of `art` at level `opt`.
fn at_level(p: &Program, art: &verifier::art::Art, opt: Opt) -> ProgramSchedule {
    generate(
        p,
        art,
        Options {
            opt,
            ..Options::default()
        },
    )
    .unwrap()
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

/// Two workers wait on one condition variable and `main` signals it: which waiter wakes is
/// the schedule's choice (it performs the waits), so the schedule takes one outcome instead
/// of branching on it, and exploration under the schedule follows that choice. Another
/// outcome than the recorded one is an execution the schedule does not have.
#[test]
fn a_signal_wakes_the_waiter_the_schedule_chose() {
    let text = r#"
#include <assert.h>
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int items, done, served[2];
void *worker(void *arg) {
  int *me = arg;
  pthread_mutex_lock(&m);
  while (items == 0 && !done)
    pthread_cond_wait(&c, &m);
  if (items > 0) { items--; (*me)++; }
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t[2];
  for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, worker, &served[i]);
  pthread_mutex_lock(&m);
  items = 1;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  pthread_mutex_lock(&m);
  done = 1;
  pthread_cond_broadcast(&c);
  pthread_mutex_unlock(&m);
  for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
  assert(served[0] + served[1] == 1);
  return 0;
}
"#;
    let p = verifier::frontend::load_str("signal.c", text, &Default::default()).unwrap();
    let opts = verifier::imc::Options {
        timeout: std::time::Duration::from_secs(60),
        stop_at_first_safe: true,
        ..Default::default()
    };
    let mut art = None;
    verifier::engine::run_iterative(
        &p,
        opts,
        verifier::engine::Engine::Auto,
        usize::MAX,
        None,
        &mut |ivr| {
            if let verifier::imc::IvrKind::Safe(a) = &ivr.kind {
                art = Some(a.clone());
            }
        },
    );
    let art = art.expect("a safe IVR");
    for opt in [Opt::O0, Opt::O1, Opt::O2] {
        let s = at_level(&p, &art, opt);
        let chosen: Vec<(usize, usize)> = s
            .sections
            .iter()
            .enumerate()
            .flat_map(|(i, sec)| {
                sec.events
                    .iter()
                    .enumerate()
                    .filter(|(_, e)| e.outcome.is_some())
                    .map(move |(k, _)| (i, k))
            })
            .collect();
        // The first IVR lets both workers wait before main signals.
        assert!(!chosen.is_empty(), "{opt:?}: no signal with a choice");
        for dpor in [true, false] {
            let r = check(&p, &s, dpor);
            assert!(r.bugs.is_empty(), "{opt:?}: {:?}", r.bugs[0].message);
            assert!(r.stats.complete);
        }
        // The other outcome (waking the other worker, or none) is not in the schedule.
        for (i, k) in chosen {
            let mut other = s.clone();
            let e = &mut other.sections[i].events[k];
            e.outcome = Some(e.outcome.unwrap() ^ 1);
            let r = check(&p, &other, true);
            assert!(
                !r.bugs.is_empty(),
                "{opt:?}: another outcome is checked too"
            );
        }
    }
}
