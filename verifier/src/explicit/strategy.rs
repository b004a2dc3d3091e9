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
//! The search runs twice where the program waits on condition variables. The first time, a
//! step that starts such a wait counts as a bug, and so does a pair where a thread is taken
//! to be unable to avoid one ([`Doomed`], a heuristic: the first search may lose what it
//! could win, never win what it could lose): a schedule that never lets a thread wait needs
//! no signal. Where a wait is a losing choice (a counter the signaller tests holds a value
//! that makes it skip the signal), the loss then shows where the thread commits to the
//! wait, instead of at the execution's end, after every interleaving of the other threads
//! has been refuted. Where the first search finds nothing within half of the budget, the
//! second allows every step and reuses the states found; it also runs where the checker
//! rejects what the first found or the schedule gets stuck (`Strategy::without_waits`).
//!
//! A pair where a thread is bound to reach the error location is lost, whatever thread the
//! scheduler picks there ([`super::fails`]): the cycle rule above would otherwise win it by
//! never running that thread again, a schedule the checker rejects as unfair (or for the
//! undefined behaviour the values it then never rules out allow). (A schedule that ends the
//! program before such a thread runs on is then not found here; the graph's scheduler,
//! [`super::proof::to_avoid`], tries one where avoiding the state leaves none.)
//!
//! What it finds is only a proposal: the ART built from it goes through the independent
//! checker ([`crate::check`]) like every other.

use super::fails::BoundToFail;
use super::proof::Phase;
use super::space::{Edge, Key, Reduction, Space, Stop, Target};
use crate::ir::{LocKind, Program, SyncKind, Thread, ThreadId, TransKind, Transition};
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
    without_waits: bool,
}

impl Strategy {
    /// It was found by the first search, which lets no thread wait.
    pub fn without_waits(&self) -> bool {
        self.without_waits
    }

    /// The thread to run at a pair: `Some(None)` at an end, `None` where there is no safe
    /// choice.
    pub fn choice(&self, key: (u32, Phase)) -> Option<Option<ThreadId>> {
        match self.choice.get(&key) {
            Some(Status::Won(t)) => Some(*t),
            _ => None,
        }
    }
}

/// Searches a safe choice from the initial state: where the program waits on condition
/// variables (and unless `exhaustive`), first one that never starts such a wait, within half
/// of what is left of the states and of the time; then any. `Ok(None)`: every choice leads
/// to a bug (or the search is cut by the state budget, `Err`).
pub fn search(
    space: &mut Space,
    sched: &RoundRobin,
    max_states: usize,
    deadline: Instant,
    exhaustive: bool,
) -> Result<Option<Strategy>, Stop> {
    if let Some(doomed) = Doomed::new(space.prog).filter(|_| !exhaustive) {
        let now = Instant::now();
        let half_time = now + deadline.saturating_duration_since(now) / 2;
        let half_states = space.len() + max_states.saturating_sub(space.len()) / 2;
        if let Ok(Some(found)) = search_with(space, sched, half_states, half_time, Some(&doomed)) {
            return Ok(Some(found));
        }
    }
    search_with(space, sched, max_states, deadline, None)
}

/// [`search`], with every wait on a condition variable a loss where `no_waits` is given.
fn search_with(
    space: &mut Space,
    sched: &RoundRobin,
    max_states: usize,
    deadline: Instant,
    no_waits: Option<&Doomed>,
) -> Result<Option<Strategy>, Stop> {
    let mut status: FxHashMap<(u32, Phase), Status> = FxHashMap::default();
    let root = (0u32, sched.start());
    let failing = &BoundToFail::new(space.prog);
    let mut stack = vec![open(space, &mut status, root, sched, no_waits, failing)?];
    while let Some(f) = stack.last_mut() {
        if let Some(why) = space.stopped(deadline) {
            return Err(Stop::Budget(format!(
                "{why} while searching a schedule{}",
                super::growth::note(space)
            )));
        }
        if space.len() > max_states {
            return Err(Stop::Budget(format!(
                "more than {max_states} states while searching a schedule{}",
                super::growth::note(space)
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
            if let Some(children) = good(space, &edges, phase, sched, no_waits) {
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
                    let g = open(space, &mut status, c, sched, no_waits, failing)?;
                    stack.push(g);
                }
            }
        }
    }
    Ok(match status.get(&root) {
        Some(Status::Won(_)) => Some(Strategy {
            choice: status,
            without_waits: no_waits.is_some(),
        }),
        _ => None,
    })
}

/// A new frame for a pair, marked open (without candidates where a thread cannot avoid a
/// wait that `no_waits` makes a loss, or is bound to reach the error location).
fn open(
    space: &mut Space,
    status: &mut FxHashMap<(u32, Phase), Status>,
    key: (u32, Phase),
    sched: &RoundRobin,
    no_waits: Option<&Doomed>,
    failing: &BoundToFail,
) -> Result<Frame, Stop> {
    status.insert(key, Status::Open);
    let candidates = if space.is_end(key.0)
        || no_waits.is_some_and(|d| d.any(space, key.0))
        || failing.any(space, key.0)
    {
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
            Reduction::All(tried) => {
                let control = space.control(key.0);
                let mut order = sched.order(&key.1, &control.movable(space.prog));
                // A thread that would have stood for all but for a state found earlier goes
                // first all the same, where its step is local or inside an environment
                // model's call (which the built program makes as one step): so the choice
                // does not depend on the order in which states were found, and the nodes
                // a call's answers lead to, one position of the schedule, choose alike.
                // (Not a step closing a loop: a thread that loops on its own would never
                // end its turn; a cycle of the others' steps is the checker's to judge.)
                if let Some((t, _)) = tried {
                    let th = space.prog.thread(t);
                    let l = control.locs[t.0 as usize].expect("movable");
                    if th.local_location(l) || th.environment_location(l) {
                        order.retain(|&u| u != t);
                        order.insert(0, t);
                    }
                }
                order
            }
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

/// The pairs a thread's steps lead to, if none of them is a bug (or a wait that `no_waits`
/// makes a loss) and there is one.
fn good(
    space: &Space,
    edges: &[Edge],
    phase: Phase,
    sched: &RoundRobin,
    no_waits: Option<&Doomed>,
) -> Option<Vec<(u32, Phase)>> {
    if edges.is_empty() {
        return None;
    }
    edges
        .iter()
        .map(|e| match e.to {
            Target::State(w) => {
                let tr = space.prog.thread(e.thread).transition(e.trans);
                if no_waits.is_some() && starts_wait(tr) {
                    return None;
                }
                Some((w, sched.after(&phase, e.thread, tr)))
            }
            Target::Error | Target::Undefined => None,
        })
        .collect()
}

/// The step starts waiting on a condition variable.
fn starts_wait(tr: &Transition) -> bool {
    tr.kind == TransKind::Sync(SyncKind::CondWaitRelease)
}

/// Where a thread cannot avoid starting to wait on a condition variable (or reaching the
/// error location). Statically, per thread: the locations every step from which is such a
/// wait, goes to the error location or to such a location again (`always`). In a state: a
/// thread that, run alone, takes such a wait within [`SOLO_STEPS`] steps, each the only one
/// it can take and none that may block (taking a mutex: another thread could take it first
/// and change what it tests); `near` marks the locations from which that may happen.
struct Doomed {
    always: Vec<Vec<bool>>,
    near: Vec<Vec<bool>>,
}

/// The most steps [`Doomed`] runs a thread alone.
const SOLO_STEPS: usize = 32;

impl Doomed {
    /// The locations of `prog`'s threads; `None` where no thread ever waits.
    fn new(prog: &Program) -> Option<Doomed> {
        let waits = prog
            .threads
            .iter()
            .any(|th| th.transitions.iter().any(starts_wait));
        if !waits {
            return None;
        }
        let (always, near) = prog.threads.iter().map(Doomed::of).unzip();
        Some(Doomed { always, near })
    }

    /// The two sets of [`Doomed`] for one thread. A location joins `always` when the last of
    /// its steps is known to lose (each step counted once: as a wait, as a step to the
    /// error location, or as a step to a location found before); `near` is found backwards
    /// from the waits, over steps that do not block.
    fn of(th: &Thread) -> (Vec<bool>, Vec<bool>) {
        let n = th.locations.len();
        let mut incoming: Vec<Vec<&Transition>> = vec![Vec::new(); n];
        for tr in &th.transitions {
            incoming[tr.dst.0 as usize].push(tr);
        }
        let mut left: Vec<usize> = th.locations.iter().map(|l| l.out.len()).collect();
        let mut counted = vec![false; th.transitions.len()];
        let mut always = vec![false; n];
        let mut found = Vec::new();
        let mut count = |tr: &Transition, left: &mut [usize], found: &mut Vec<usize>| {
            if !std::mem::replace(&mut counted[tr.id.0 as usize], true) {
                let src = tr.src.0 as usize;
                left[src] -= 1;
                if left[src] == 0 {
                    found.push(src);
                }
            }
        };
        for tr in th.transitions.iter().filter(|tr| loses(th, tr)) {
            count(tr, &mut left, &mut found);
        }
        while let Some(l) = found.pop() {
            always[l] = true;
            for tr in &incoming[l] {
                count(tr, &mut left, &mut found);
            }
        }
        let waits = th.transitions.iter().filter(|tr| starts_wait(tr));
        let near =
            super::fails::backwards(th, waits.map(|tr| tr.src.0 as usize), SOLO_STEPS, |tr| {
                !tr.may_block
            });
        (always, near)
    }

    /// Some thread of state `id` cannot avoid the wait.
    fn any(&self, space: &Space, id: u32) -> bool {
        let control = space.control(id);
        control.locs.iter().enumerate().any(|(t, l)| match l {
            Some(l) if self.always[t][l.0 as usize] => true,
            Some(l) if self.near[t][l.0 as usize] => self.solo_waits(space, id, t),
            _ => false,
        })
    }

    /// Thread `t`, run alone from state `id` as [`Doomed`] says, starts the wait.
    fn solo_waits(&self, space: &Space, id: u32, t: usize) -> bool {
        let th = &space.prog.threads[t];
        let tid = ThreadId(t as u32);
        let mut k = Key::clone(&space.key(id));
        for _ in 0..SOLO_STEPS {
            let Some(l) = k.state.threads[t].loc() else {
                return false;
            };
            if self.always[t][l.0 as usize] {
                return true;
            }
            if !self.near[t][l.0 as usize] {
                return false;
            }
            let steps = space.enabled_at(&k, tid);
            let &[(tr, forced)] = steps.as_slice() else {
                return false;
            };
            let tr = th.transition(tr);
            if loses(th, tr) {
                return true;
            }
            if tr.may_block || space.step_at(&mut k, tid, tr.id, forced).is_err() {
                return false;
            }
        }
        false
    }
}

/// The step is a wait [`Doomed`] looks for, or goes to the error location.
fn loses(th: &Thread, tr: &Transition) -> bool {
    starts_wait(tr) || th.locations[tr.dst.0 as usize].kind == LocKind::Error
}
