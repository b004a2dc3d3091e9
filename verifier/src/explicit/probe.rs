//! Bugs one preemption away from a schedule: executions that follow the schedule of a safe
//! IVR up to some step, let another thread take that step instead (one preemption), and from
//! there run each thread until it blocks or ends (no further preemption; where the running
//! thread cannot move, the first thread that can). This is the first round of iterative
//! context bounding (Musuvathi and Qadeer, "Iterative Context Bounding for Systematic Testing
//! of Multithreaded Programs": most bugs need few preemptions), with its choices of where to
//! preempt taken from the schedule instead of enumerated: one execution per step of the
//! schedule and thread that could take it.
//!
//! The executions run on the interpreter, in place, at a cost per step that does not grow
//! with the program's memory; the state search ([`super::space`]) pays for every state it
//! keeps and is breadth first, so a bug behind a long loop (a thread preempted in the middle
//! of its access while `main` creates ten thousand threads, then checks) is out of its reach,
//! and one execution here. A bug found is an execution of the interpreter, replayed from its
//! schedule, like every other.

use crate::imc::Counterexample;
use crate::interp::{self, Machine, Outcome, Replay};
use crate::ir::{Program, ThreadId, TransId};
use std::time::Instant;

/// The first bug (an error, a deadlock, or a memory-safety violation) of an execution one
/// preemption away from `schedule` (the steps of a safe IVR, from the initial state),
/// trying the steps in order; `None` when there is none or at `deadline`. Inputs and memory
/// never written are 0, as in the state search. No execution runs for more than
/// `max_steps` steps.
pub fn bug(
    prog: &Program,
    schedule: &[(ThreadId, TransId)],
    max_steps: usize,
    deadline: Instant,
) -> Option<Counterexample> {
    let m = Machine::new(prog);
    let mut inputs = Replay::default();
    let mut s = m.initial(&mut inputs, &mut Vec::new());
    for (at, &(next, next_tr)) in schedule.iter().enumerate() {
        let enabled = m.enabled(&s);
        let mut others: Vec<ThreadId> = (enabled.iter())
            .map(|e| e.0)
            .filter(|&t| t != next)
            .collect();
        others.dedup();
        for t in others {
            if Instant::now() >= deadline {
                return None;
            }
            let mut run = s.clone();
            let Some(steps) = run_without_preemption(&m, &mut run, t, max_steps) else {
                continue;
            };
            let mut replay: Vec<(ThreadId, Option<TransId>)> = schedule[..at]
                .iter()
                .map(|&(t, tr)| (t, Some(tr)))
                .collect();
            replay.extend(steps.into_iter().map(|(t, tr)| (t, Some(tr))));
            let replay = Replay::new(replay, vec![]);
            let bound = replay.schedule.len() + 1;
            let (execution, _) = interp::run(prog, &mut replay.clone(), bound);
            if found(&execution.outcome) {
                return Some(Counterexample { replay, execution });
            }
        }
        if !enabled.contains(&(next, next_tr))
            || m.execute(&mut s, next, next_tr, &mut inputs).is_err()
        {
            // (The schedule went where these values do not.)
            return None;
        }
    }
    None
}

/// Whether an execution that ends so shows a bug worth reporting.
fn found(o: &Outcome) -> bool {
    o.is_bug() || matches!(o, Outcome::Undefined { memory: true, .. })
}

/// Runs from `s`: thread `first` first, then each thread until it cannot move, then the
/// first that can. The steps taken, when the run ends in a bug; `None` otherwise.
fn run_without_preemption(
    m: &Machine,
    s: &mut interp::State,
    first: ThreadId,
    max_steps: usize,
) -> Option<Vec<(ThreadId, TransId)>> {
    let mut inputs = Replay::default();
    let mut steps: Vec<(ThreadId, TransId)> = Vec::new();
    let mut current = first;
    let mut mine = Vec::new();
    loop {
        if steps.len() >= max_steps {
            return None;
        }
        mine.clear();
        m.enabled_of(s, current, &mut mine);
        if s.atomic.is_some_and(|a| a != current) {
            mine.clear();
        }
        let step = match mine.first() {
            Some(&e) => e,
            None => {
                let enabled = m.enabled(s);
                if let Some(o) = m.verdict(s, &enabled, steps.last().copied()) {
                    return found(&o).then_some(steps);
                }
                current = enabled[0].0;
                enabled[0]
            }
        };
        if steps.is_empty() && step.0 != first {
            return None;
        }
        let failed = m.execute(s, step.0, step.1, &mut inputs).is_err();
        steps.push(step);
        if failed {
            // (Undefined behaviour: the replay tells which.)
            return Some(steps);
        }
        if let Some(o) = m.verdict(s, &[step], Some(step)) {
            return found(&o).then_some(steps);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::{load_str, Options};
    use crate::imc::{IvrKind, Options as VOpts};
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
        let _ = crate::explicit::run_iterative(&p, &opts, &Default::default(), 1, &mut |ivr| {
            if let (IvrKind::Safe(art), true) = (&ivr.kind, steps.is_empty()) {
                let mut v = art.root();
                while let Some(e) = art.node(v).children.first() {
                    steps.push((e.thread, e.transition));
                    v = e.child;
                }
            }
        });
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
        let cex = bug(&p, &steps, 100_000, far).expect("a bug");
        assert!(matches!(cex.execution.outcome, Outcome::Error { .. }));
        let (again, _) = interp::run(&p, &mut cex.replay.clone(), usize::MAX);
        assert_eq!(again.outcome, cex.execution.outcome);
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
        assert!(bug(&p, &steps, 100_000, far).is_none());
    }
}
