//! Bugs one preemption away from a schedule: executions that follow the schedule of a safe
//! IVR up to some step, let another thread take that step instead (one preemption), and from
//! there run each thread until it blocks or ends (no further preemption; where the running
//! thread cannot move, the first thread that can), to an error or to a deadlock. This is the first round of iterative
//! context bounding (Musuvathi and Qadeer, "Iterative Context Bounding for Systematic Testing
//! of Multithreaded Programs": most bugs need few preemptions), with its choices of where to
//! preempt taken from the schedule instead of enumerated: a run per step of the schedule,
//! thread that could take it, and way of the branches on inputs.
//!
//! The runs step the search's states in place and keep none: the state search
//! ([`super::space`]) pays for every state it keeps and is breadth first, so a bug behind a
//! long loop (a thread preempted in the middle of its access while `main` creates ten
//! thousand threads, then checks) is out of its reach, and one run here. A bug found is a
//! path like those of the search, replayed to an execution of the interpreter (with the
//! inputs that take it) before it is reported.

use super::space::{Key, Space};
use crate::ir::{LocId, LocKind, ThreadId, TransId};
use std::time::Instant;

/// Which of a thread's enabled transitions a run takes where it has more than one (a branch
/// on a value the search does not know, an input's): the first or the last. The schedule
/// took one way; runs after a preemption try both, so that one thread may take one way and
/// another the other.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Way {
    First,
    Last,
}

/// An execution of the search's states that ends in a bug.
pub struct Found {
    /// Its steps from the initial state (as [`bug`] offers it; from where the run started, as
    /// [`run_without_preemption`] returns it).
    pub path: Vec<(ThreadId, TransId)>,
    /// Where the threads are stuck, at a deadlock; `None` where the last step enters an
    /// error location.
    pub deadlock: Option<Vec<Option<LocId>>>,
}

/// The first execution one preemption away from `schedule` (the steps of a safe IVR, from
/// the initial state) that ends in a bug and that `accept` takes (what it makes of it),
/// trying the steps of the schedule in order; `None` when there is none or at `deadline`.
/// Values the search does not know (inputs) are taken as it takes them: a branch on one may
/// go either way, so the steps are a path for some inputs, which `accept`'s replay finds (or
/// does not). No run is longer than `max_steps` steps.
pub fn bug<T>(
    space: &Space,
    schedule: &[(ThreadId, TransId)],
    max_steps: usize,
    deadline: Instant,
    mut accept: impl FnMut(Found) -> Option<T>,
) -> Option<T> {
    let mut k = Key::clone(&space.key(0));
    let threads = space.prog.threads.len() as u32;
    for (at, &(next, next_tr)) in schedule.iter().enumerate() {
        for t in (0..threads).map(ThreadId).filter(|&t| t != next) {
            if k.state.atomic.is_some_and(|a| a != t) || space.enabled_at(&k, t).is_empty() {
                continue;
            }
            // (The run of the first way, where the last met no branch to take otherwise, is
            // not offered twice.)
            let mut offered = None;
            for way in [Way::First, Way::Last] {
                if Instant::now() >= deadline {
                    return None;
                }
                let mut run = k.clone();
                let ran = run_without_preemption(space, &mut run, (t, next), way, max_steps);
                if let Some(mut ran) = ran.filter(|r| offered.as_ref() != Some(&r.path)) {
                    offered = Some(ran.path.clone());
                    ran.path.splice(0..0, schedule[..at].iter().copied());
                    if let Some(found) = accept(ran) {
                        return Some(found);
                    }
                }
            }
        }
        let forced = space
            .enabled_at(&k, next)
            .into_iter()
            .find(|e| e.0 == next_tr)?
            .1;
        space.step_at(&mut k, next, next_tr, forced).ok()?;
    }
    None
}

/// Runs from `k`: thread `first` first (preempting `preempted`), then each thread until it
/// cannot move, then the first that can, `preempted` last (its preemption is what the run
/// is for: whatever it was in the middle of stays so as long as possible), taking the `way`
/// of a branch. The steps taken (from `k`), when the last one enters an error location or no
/// thread can move before the execution's end; `None` when the run ends otherwise.
fn run_without_preemption(
    space: &Space,
    k: &mut Key,
    (first, preempted): (ThreadId, ThreadId),
    way: Way,
    max_steps: usize,
) -> Option<Found> {
    let prog = space.prog;
    let mut steps = Vec::new();
    let mut current = first;
    while steps.len() < max_steps {
        if let Some(a) = k.state.atomic {
            current = a;
        }
        let mut enabled = space.enabled_at(k, current);
        if enabled.is_empty() && steps.is_empty() {
            return None;
        }
        if enabled.is_empty() {
            let threads = prog.threads.len() as u32;
            let order = (0..threads).map(ThreadId).filter(|&t| t != preempted);
            let mut order = order.chain([preempted]);
            // (A thread blocked in an atomic region lets no other move.)
            let other = k.state.atomic.is_none().then(|| {
                order.find_map(|t| {
                    let e = space.enabled_at(k, t);
                    (!e.is_empty()).then_some((t, e))
                })
            });
            match other.flatten() {
                Some(other) => (current, enabled) = other,
                None if space.ends(&k.state.threads) => return None,
                None => {
                    let stuck = k.state.threads.iter().map(|s| s.loc()).collect();
                    return Some(Found {
                        path: steps,
                        deadlock: Some(stuck),
                    });
                }
            }
        }
        let (tr, forced) = match way {
            Way::First => enabled[0],
            Way::Last => enabled[enabled.len() - 1],
        };
        steps.push((current, tr));
        let dst = prog.thread(current).transition(tr).dst;
        match prog.thread(current).locations[dst.0 as usize].kind {
            LocKind::Error => {
                return Some(Found {
                    path: steps,
                    deadlock: None,
                })
            }
            LocKind::Halt | LocKind::Discard => return None,
            _ => {}
        }
        space.step_at(k, current, tr, forced).ok()?;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::{load_str, Options};
    use crate::imc::{IvrKind, Options as VOpts};
    use crate::interp::{self, Outcome};
    use crate::ir::Program;
    use std::time::Duration;

    /// The steps of the first safe schedule the explicit engine emits for `text`.
    fn schedule(text: &str) -> (Program, Vec<(ThreadId, TransId)>) {
        let p = load_str("probe.c", text, &Options::default()).expect("lowers");
        let opts = VOpts {
            timeout: Duration::from_secs(30),
            stop_at_first_safe: true,
            ..VOpts::default()
        };
        let mut steps = Vec::new();
        let _ = crate::explicit::run_iterative(
            &p,
            None,
            &opts,
            &Default::default(),
            Instant::now(),
            1,
            &mut |ivr| {
                if let (IvrKind::Safe(art), true) = (&ivr.kind, steps.is_empty()) {
                    let mut v = art.root();
                    while let Some(e) = art.node(v).children.first() {
                        steps.push((e.thread, e.transition));
                        v = e.child;
                    }
                }
            },
        );
        assert!(!steps.is_empty(), "a safe schedule");
        (p, steps)
    }

    const RACY: &str = r#"
#include <pthread.h>
#include <assert.h>
int global;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *a) {
  pthread_mutex_lock(&m);
  global++;
  pthread_mutex_unlock(&m);
  pthread_mutex_lock(&m);
  global--;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t ts[40];
  for (int i = 0; i < 40; i++)
    pthread_create(&ts[i], 0, worker, 0);
  pthread_mutex_lock(&m);
  assert(global == 0);
  pthread_mutex_unlock(&m);
  for (int i = 0; i < 40; i++)
    pthread_join(ts[i], 0);
  return 0;
}
"#;

    /// A worker preempted between its two critical sections, while `main` goes on without
    /// preemption to its check: one preemption away from the schedule that runs each worker
    /// when it is created. The execution found replays to the error.
    #[test]
    fn a_bug_one_preemption_away_from_the_schedule_is_found() {
        let (p, steps) = schedule(RACY);
        let far = Instant::now() + Duration::from_secs(30);
        let space = Space::new(&p);
        let cex = bug(&space, &steps, 100_000, far, |f| {
            super::super::Bug::replay_path(&space, f.path, f.deadlock, 10_000, far).ok()
        })
        .expect("a bug that replays");
        assert!(matches!(cex.execution.outcome, Outcome::Error { .. }));
        let (again, _) = interp::run(&p, &mut cex.replay.clone(), usize::MAX);
        assert_eq!(again.outcome, cex.execution.outcome);
    }

    /// Workers that choose by an input between updating and checking: the bug needs one
    /// to update (preempted in between) and another to check; the inputs that take the
    /// path are found for its replay.
    #[test]
    fn a_bug_that_needs_branches_on_inputs_both_ways_is_found() {
        let text = RACY
            .replace("void *worker(void *a) {\n", "void *worker(void *a) {\n  if (__VERIFIER_nondet_int()) {\n")
            .replace("  global--;\n  pthread_mutex_unlock(&m);\n  return 0;", "  global--;\n  pthread_mutex_unlock(&m);\n  } else {\n  pthread_mutex_lock(&m);\n  assert(global == 0);\n  pthread_mutex_unlock(&m);\n  }\n  return 0;")
            .replace("  pthread_mutex_lock(&m);\n  assert(global == 0);\n  pthread_mutex_unlock(&m);\n  for", "  for")
            .replace("#include <assert.h>", "#include <assert.h>\nextern int __VERIFIER_nondet_int(void);");
        assert!(
            text.contains("} else {")
                && !text.contains("assert(global == 0);\n  pthread_mutex_unlock(&m);\n  for")
        );
        let (p, steps) = schedule(&text);
        let far = Instant::now() + Duration::from_secs(30);
        let space = Space::new(&p);
        let cex = bug(&space, &steps, 100_000, far, |f| {
            super::super::Bug::replay_path(&space, f.path, f.deadlock, 10_000, far).ok()
        })
        .expect("a bug that replays");
        assert!(matches!(cex.execution.outcome, Outcome::Error { .. }));
    }

    /// Two threads that take two mutexes in opposite orders: the schedule runs one after the
    /// other, and one preemption (the second thread takes its first mutex while the first
    /// holds its own) ends in a deadlock, which replays to the interpreter's deadlock.
    #[test]
    fn a_deadlock_one_preemption_away_from_the_schedule_is_found() {
        let text = r#"
#include <pthread.h>
pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
int x;
void *one(void *p) {
  pthread_mutex_lock(&a); pthread_mutex_lock(&b); x++;
  pthread_mutex_unlock(&b); pthread_mutex_unlock(&a);
  return 0;
}
void *two(void *p) {
  pthread_mutex_lock(&b); pthread_mutex_lock(&a); x--;
  pthread_mutex_unlock(&a); pthread_mutex_unlock(&b);
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, one, 0);
  pthread_create(&t2, 0, two, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
"#;
        let (p, steps) = schedule(text);
        let far = Instant::now() + Duration::from_secs(30);
        let space = Space::new(&p);
        let cex = bug(&space, &steps, 100_000, far, |f| {
            assert!(f.deadlock.is_some(), "no error location to reach");
            super::super::Bug::replay_path(&space, f.path, f.deadlock, 10_000, far).ok()
        })
        .expect("a deadlock that replays");
        assert!(matches!(cex.execution.outcome, Outcome::Deadlock { .. }));
    }

    /// Where every worker's update is one critical section, no execution is a bug.
    #[test]
    fn no_bug_where_there_is_none() {
        let safe = RACY.replace(
            "  pthread_mutex_unlock(&m);\n  pthread_mutex_lock(&m);\n  global--;",
            "  global--;",
        );
        assert_ne!(safe, RACY);
        let (p, steps) = schedule(&safe);
        let far = Instant::now() + Duration::from_secs(30);
        assert!(bug(&Space::new(&p), &steps, 100_000, far, Some).is_none());
    }
}
