//! A safe choice of thread for the deterministic scheduler, found by search before the whole
//! state graph is known. The scheduler of seed 002's iterative algorithm runs threads in turns
//! (round robin, a turn ending after `quantum` loop rounds or at a thread creation); where the thread whose turn it is
//! would lead to a bug, the next one in the order is tried. This is a game: the scheduler
//! picks the thread, and the program picks among the thread's enabled transitions (inputs,
//! branches on values it read). The search is depth first over (state, scheduler phase), each
//! solved once: a pair is won when some thread in the scheduler's order has steps that all
//! lead to pairs that are won or ends of the execution, and lost when no thread does
//! (backtracking to the previous choice). A pair still being searched counts as won where a
//! cycle comes back to it (a loop of the schedule; its fairness is the checker's to judge).
//!
//! What it finds is only a proposal: the ART built from it goes through the independent
//! checker ([`crate::check`]) like every other.

use super::proof::Phase;
use super::space::{Edge, Reduction, Space, Stop, Target};
use crate::ir::ThreadId;
use crate::scheduler::{RoundRobin, Scheduler};
use rustc_hash::FxHashMap;
use std::time::Instant;

/// What the search knows of a pair.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Status {
    /// On the search path.
    Open,
    /// Won by running this thread (`None`: the execution ends here).
    Won(Option<ThreadId>),
    /// No thread avoids a bug.
    Lost,
}

/// A pair being searched: its candidates in the scheduler's order, the one being tried with
/// the pairs its steps lead to, and the next of those to look at.
struct Frame {
    key: (u32, Phase),
    candidates: Vec<ThreadId>,
    next_candidate: usize,
    trying: Option<(ThreadId, Vec<(u32, Phase)>)>,
    next_child: usize,
}

/// The scheduler's choice at each pair reachable under it, if it has one that avoids every
/// bug.
pub struct Strategy {
    choice: FxHashMap<(u32, Phase), Status>,
}

impl Strategy {
    /// The thread to run at a pair: `Some(None)` at an end, `None` where there is no safe
    /// choice.
    pub fn choice(&self, key: (u32, Phase)) -> Option<Option<ThreadId>> {
        match self.choice.get(&key) {
            Some(Status::Won(t)) => Some(*t),
            _ => None,
        }
    }
}

/// Searches a safe choice from the initial state. `Ok(None)`: every choice leads to a bug
/// (or the search is cut by the state budget, `Err`).
pub fn search(
    space: &mut Space,
    sched: &RoundRobin,
    max_states: usize,
    deadline: Instant,
) -> Result<Option<Strategy>, Stop> {
    let mut status: FxHashMap<(u32, Phase), Status> = FxHashMap::default();
    let root = (0u32, sched.start());
    let mut stack = vec![open(space, &mut status, root, sched)?];
    while let Some(f) = stack.last_mut() {
        if Instant::now() >= deadline {
            return Err(Stop::Budget(
                "time ran out while searching a schedule".into(),
            ));
        }
        if space.len() > max_states {
            return Err(Stop::Budget(format!(
                "more than {max_states} states while searching a schedule"
            )));
        }
        if f.trying.is_none() {
            let Some(&t) = f.candidates.get(f.next_candidate) else {
                // No thread avoids a bug.
                let key = f.key;
                status.insert(key, Status::Lost);
                stack.pop();
                if let Some(p) = stack.last_mut() {
                    p.trying = None;
                    p.next_candidate += 1;
                }
                continue;
            };
            let (s, phase) = f.key;
            let edges = space.successors(s, t)?;
            if let Some(children) = good(space, &edges, phase, sched) {
                f.trying = Some((t, children));
                f.next_child = 0;
            } else {
                f.next_candidate += 1;
            }
            continue;
        }
        let (t, children) = f.trying.as_ref().expect("trying");
        let Some(&c) = children.get(f.next_child) else {
            // Every step of `t` leads to a won pair.
            let (key, t) = (f.key, *t);
            status.insert(key, Status::Won(Some(t)));
            stack.pop();
            if let Some(p) = stack.last_mut() {
                p.next_child += 1;
            }
            continue;
        };
        match status.get(&c) {
            Some(Status::Open | Status::Won(_)) => f.next_child += 1,
            Some(Status::Lost) => {
                f.trying = None;
                f.next_candidate += 1;
            }
            None => {
                if space.is_end(c.0) {
                    status.insert(c, Status::Won(None));
                    f.next_child += 1;
                } else {
                    let g = open(space, &mut status, c, sched)?;
                    stack.push(g);
                }
            }
        }
    }
    Ok(match status.get(&root) {
        Some(Status::Won(_)) => Some(Strategy { choice: status }),
        _ => None,
    })
}

/// A new frame for a pair, marked open.
fn open(
    space: &mut Space,
    status: &mut FxHashMap<(u32, Phase), Status>,
    key: (u32, Phase),
    sched: &RoundRobin,
) -> Result<Frame, Stop> {
    status.insert(key, Status::Open);
    let candidates = if space.is_end(key.0) {
        Vec::new()
    } else {
        match space.reduction(key.0, false)? {
            // A thread whose step is invisible to the others stands for them, as in the
            // complete graph, though the scheduler's turn may belong to another: the step
            // commutes with theirs and no step of theirs disables it, so a scheduler that
            // avoids every bug from here avoids them after the step, unless it never runs
            // the thread (which the checker rejects as unfair). Where it leads only to states
            // found deeper, it closes no cycle of such steps. (Not a step that only touches what
            // the others do not: starting every thread before any runs, for one, leaves the
            // search many more states than the scheduler's order, which runs each soon.)
            Reduction::One(t, _) => vec![t],
            Reduction::All(_) => sched.order(&key.1, &space.control(key.0).movable(space.prog)),
        }
    };
    Ok(Frame {
        key,
        candidates,
        next_candidate: 0,
        trying: None,
        next_child: 0,
    })
}

/// The pairs a thread's steps lead to, if none of them is a bug and there is one.
fn good(
    space: &Space,
    edges: &[Edge],
    phase: Phase,
    sched: &RoundRobin,
) -> Option<Vec<(u32, Phase)>> {
    if edges.is_empty() {
        return None;
    }
    edges
        .iter()
        .map(|e| match e.to {
            Target::State(w) => {
                let tr = space.prog.thread(e.thread).transition(e.trans);
                Some((w, sched.after(&phase, e.thread, tr)))
            }
            Target::Error | Target::Undefined => None,
        })
        .collect()
}
