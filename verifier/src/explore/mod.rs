//! Stateless exploration of a program's executions: depth-first search over scheduling
//! decisions (and input values) without storing visited states, for finding bugs fast and as
//! an oracle independent of the ART verifier (DESIGN.md, "The pipeline": `verifier::explore`).
//!
//! The strategies, one file each, all behind [`Strategy`], combine freely:
//!
//! * [`dpor`]: dynamic partial-order reduction, source sets with sleep sets (seed 004,
//!   Inspect, sections 3–4; Abdulla et al.'s source-DPOR refinement of its backtrack sets);
//! * [`icb`]: iterative context bounding, every execution with `c` preemptions before any
//!   with `c + 1` (seed 003, section 3);
//! * [`fair`]: the fair demonic scheduler of fair stateless model checking (seed 000,
//!   Algorithm 1), which prunes unfair cycles so that nonterminating programs are explored
//!   without a depth bound, and reports an execution longer than the depth bound as a possible
//!   livelock with the fair cycle it repeats. DPOR is off under it: its priorities depend on
//!   the order of independent steps.
//!
//! A scheduling point is a thread's next visible transition (a shared access, a
//! synchronisation, a branch the schedule observes); the invisible transitions after it run
//! in the same step (`step`). Steps met again are looked up rather than run (`memo`). A DPOR
//! search without a guide, the fair scheduler or a preemption bound first preempts only at
//! synchronisation and checks each execution for data races (`race`, seed 003, section
//! 3.1); at a race it starts again with every shared access a scheduling point. Points that
//! offer no choice are no scheduling points either: the unlock of a mutex the thread holds
//! and a thread's end (both only while preempting at synchronisation; `step::Tables::unlock`
//! and `Stepper::at_exit` say why), and every point before `main` starts a thread
//! (`Stepper::alone`). Inputs (`__VERIFIER_nondet_*`) take every value of a small domain, or
//! values sampled with a seed ([`Inputs`]); each value makes a variant of the step that reads
//! it, so a DPOR search without a preemption bound reads at most one input per step
//! (`Stepper::one_input`).
//!
//! With [`Options::jobs`] above one, the DPOR search is split between worker threads: an idle
//! worker gets a point of another's path with a thread left to explore (`Engine::donate`),
//! re-executes the path to it, and searches that thread's subtree. The points of that path
//! are then shared: a thread either worker needs at one of them later is explored there by
//! the first to claim it ([`Claims`]). [`Options::split_every`] splits a search the same way
//! in one thread, the same in every run, to test this.
//!
//! A [`Guide`] restricts the search to the executions a program schedule permits (the
//! schedule generator implements it): `synth explore --schedule` checks schedules with it.

pub mod dpor;
pub mod fair;
pub mod icb;
mod memo;
mod race;
mod step;

use crate::interp::{Machine, Oracle, State, Status};
use crate::ir::{ErrorKind, LocId, LocKind, Program, ThreadId, TransId, TransKind, VarId};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};
use step::{Ending, Variant};

/// The values inputs take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inputs {
    /// Every value from `lo` to `hi` (converted to the input's type).
    Range {
        /// Smallest.
        lo: i128,
        /// Largest.
        hi: i128,
    },
    /// These values (replaying a trace).
    List(Vec<i128>),
    /// `count` values per input drawn from the input's type with a seeded generator.
    Sample {
        /// Seed.
        seed: u64,
        /// Values per input.
        count: u32,
    },
}

impl Default for Inputs {
    fn default() -> Self {
        Inputs::Range { lo: -2, hi: 2 }
    }
}

/// What to explore.
#[derive(Clone, Debug)]
pub struct Options {
    /// Dynamic partial-order reduction.
    pub dpor: bool,
    /// The fair scheduler.
    pub fair: bool,
    /// Iterative context bounding up to this many preemptions.
    pub preemption_bound: Option<u32>,
    /// Most steps (scheduling points) of one execution; a longer one is cut (and reported as a
    /// possible livelock under the fair scheduler).
    pub max_depth: usize,
    /// Input values.
    pub inputs: Inputs,
    /// Stop after this many executions.
    pub max_executions: Option<u64>,
    /// Stop after this long.
    pub timeout: Option<Duration>,
    /// Stop once this is set (by another thread).
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// Stop at the first bug (else collect up to [`Options::max_bugs`]).
    pub stop_at_first_bug: bool,
    /// Most bugs collected.
    pub max_bugs: usize,
    /// Most invisible transitions one step runs (a local loop that never ends is cut here and
    /// continues in the next step).
    pub max_local_steps: usize,
    /// Preempt only at synchronisation operations while no data race shows (seed 003,
    /// section 3.1): a DPOR search without a guide, the fair scheduler or a
    /// preemption bound then runs each thread on through its data accesses, checks every
    /// execution for data races, and starts again with every shared access a scheduling
    /// point when it finds one.
    pub sync_points_only: bool,
    /// Worker threads: with more than one, a DPOR search (without the fair scheduler or a
    /// preemption bound) is split between them. Workers may explore a few executions twice.
    pub jobs: usize,
    /// For testing the split of a search between workers: when not 0 (and `jobs` is more
    /// than 1), one thread searches, hands work over as to an idle worker after every this
    /// many steps, and then searches the handed-over parts one after another with a second
    /// engine. The split is then the same in every run.
    pub split_every: u64,
    /// With several workers, how long the first searches alone before the others join: a
    /// search over sooner is not worth splitting (handing work over re-executes its path,
    /// and each worker memoises the steps it computes itself).
    pub alone_for: Duration,
    /// Keep the steps computed and look them up by the values they read (`memo`; without
    /// a guide or the fair scheduler). The search is the same either way, only slower
    /// without.
    pub memo: bool,
    /// Most bytes the states of the execution being explored may take (a state per step and
    /// per variant of it, each counted by the memory its step did not share with the state
    /// before, [`crate::memory::Memory::bytes_apart_from`]): a deeper execution stops the
    /// search (which is then incomplete) rather than the machine. Each worker
    /// ([`Options::jobs`]) has this budget.
    pub max_bytes: usize,
}

impl Options {
    /// A DPOR search without the fair scheduler or a preemption bound: the search that may
    /// preempt only at synchronisation, cut a thread's inputs apart and be split between
    /// workers.
    fn plain_dpor(&self) -> bool {
        self.dpor && !self.fair && self.preemption_bound.is_none()
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            dpor: true,
            fair: false,
            preemption_bound: None,
            max_depth: 2_000,
            inputs: Inputs::default(),
            max_executions: None,
            timeout: None,
            cancel: None,
            stop_at_first_bug: true,
            max_bugs: 10,
            max_local_steps: 10_000,
            sync_points_only: true,
            jobs: 1,
            split_every: 0,
            alone_for: Duration::from_millis(10),
            memo: true,
            max_bytes: 2 << 30,
        }
    }
}

/// One access of a step, for the dependence relation: a variable element, or one of the
/// guide's ordering tokens (top bit set).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Acc {
    /// The location.
    pub key: u64,
    /// A write (else a read).
    pub write: bool,
}

impl Acc {
    /// An access to element `index` of `var`.
    pub fn memory(var: VarId, index: u32, write: bool) -> Acc {
        Acc {
            key: ((var.0 as u64) << 32) | index as u64,
            write,
        }
    }

    /// An access to one of a guide's ordering tokens.
    pub fn token(token: u64, write: bool) -> Acc {
        Acc {
            key: (1 << 63) | token,
            write,
        }
    }

    /// Whether two accesses conflict (same location, one writes).
    pub fn conflicts(&self, other: &Acc) -> bool {
        self.key == other.key && (self.write || other.write)
    }
}

/// Where the memory element an access key ([`Acc::memory`]) names is among all the elements,
/// given where each variable's elements start ([`crate::memory::Memory::starts`]).
pub(crate) fn position(starts: &[usize], key: u64) -> usize {
    starts[(key >> 32) as usize] + (key & 0xffff_ffff) as usize
}

/// Whether two sorted access sets conflict.
pub fn dependent(a: &[Acc], b: &[Acc]) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].key.cmp(&b[j].key) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                let k = a[i].key;
                let wa = a[i..].iter().take_while(|x| x.key == k).any(|x| x.write);
                let wb = b[j..].iter().take_while(|x| x.key == k).any(|x| x.write);
                if wa || wb {
                    return true;
                }
                while i < a.len() && a[i].key == k {
                    i += 1;
                }
                while j < b.len() && b[j].key == k {
                    j += 1;
                }
            }
        }
    }
    false
}

/// What one executed transition says about progress, for the fair scheduler.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Mark {
    /// It closes a loop.
    pub back_edge: bool,
    /// `sched_yield`, or a `trylock` that failed.
    pub yields: bool,
    /// The shared elements it changed: location ([`Acc::key`]), value before, value after.
    pub changes: Vec<(u64, i128, i128)>,
}

/// How a guide gates a transition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Gate {
    /// Not constrained: runs when its guard holds.
    Free,
    /// An event of the guide: runs when its guard holds; [`Guide::pass`] follows.
    Go,
    /// Runs as a no-op (the deployed program does not perform it).
    Skip,
    /// Cannot run now.
    Wait,
    /// Running it is a deviation from what the guide allows: a bug when the thread takes it.
    Deviation(String),
}

/// Restricts exploration to the executions a schedule permits.
pub trait Guide {
    /// The guide's own state, part of every explored state.
    type State: Clone + std::fmt::Debug;
    /// The state at the start.
    fn initial(&self) -> Self::State;
    /// How transition `tr` of thread `t` is gated in state `g`.
    fn gate(&self, g: &Self::State, t: ThreadId, tr: TransId) -> Gate;
    /// Records that the event `tr` of `t` (gated [`Gate::Go`]) happened; returns the ordering
    /// tokens it reads and writes, so that the partial-order reduction sees the order the
    /// guide imposes.
    fn pass(&self, g: &mut Self::State, t: ThreadId, tr: TransId) -> Vec<Acc>;
    /// Whether location `l` of `t` is invisible to the guide (`Some(true)`: every transition
    /// is skipped or free and local; `Some(false)`: some transition is an event; `None`: as
    /// the program says).
    fn invisible(&self, t: ThreadId, l: LocId) -> Option<bool>;
    /// Whether the guide gates nothing (every transition [`Gate::Free`], always): then a
    /// thread's enabledness changes only with the program state.
    fn gates_nothing(&self) -> bool {
        false
    }
}

/// No guide: every execution of the program.
#[derive(Clone, Copy, Debug, Default)]
pub struct Unguided;

impl Guide for Unguided {
    type State = ();
    fn initial(&self) {}
    fn gate(&self, _: &(), _: ThreadId, _: TransId) -> Gate {
        Gate::Free
    }
    fn pass(&self, _: &mut (), _: ThreadId, _: TransId) -> Vec<Acc> {
        Vec::new()
    }
    fn invisible(&self, _: ThreadId, _: LocId) -> Option<bool> {
        None
    }
    fn gates_nothing(&self) -> bool {
        true
    }
}

/// One executed transition of a trace.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceStep {
    /// The thread.
    pub thread: ThreadId,
    /// The transition.
    pub transition: TransId,
    /// Input values it read.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inputs: Vec<i128>,
    /// It ran as a no-op (a synchronisation call the schedule subsumes).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub skipped: bool,
    /// Values written: variable, element, value.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub writes: Vec<(VarId, i128, i128)>,
}

impl TraceStep {
    fn new(thread: ThreadId, transition: TransId, inputs: Vec<i128>, skipped: bool) -> Self {
        TraceStep {
            thread,
            transition,
            inputs,
            skipped,
            writes: Vec::new(),
        }
    }
}

/// What kind of bug.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BugKind {
    /// An assertion failed or an error function was reached.
    Error,
    /// Some thread is not terminal and none can move.
    Deadlock,
    /// Under the fair scheduler, an execution longer than the depth bound.
    Livelock,
    /// Division by zero, an index out of bounds, an invalid dereference.
    Undefined,
    /// The program does something its schedule does not allow (the runtime would abort).
    Deviation,
}

/// The trace file format (`synth explore --replay`).
pub const TRACE_FORMAT: &str = "synth-trace/1";

/// Most steps of one thread a spinning wait's round may take ([`Engine::spins`]).
const MAX_SPIN_STEPS: usize = 64;

/// A bug with the execution that shows it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Bug {
    /// [`TRACE_FORMAT`].
    pub format: String,
    /// SHA-256 of the program.
    pub program_sha256: String,
    /// What kind.
    pub kind: BugKind,
    /// In words, with the source position.
    pub message: String,
    /// The steps.
    pub steps: Vec<TraceStep>,
    /// For a livelock: the steps `[start, end)` of the fair cycle the execution repeats.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cycle: Option<(usize, usize)>,
    /// Preemptions in the execution.
    pub preemptions: u32,
}

/// Figures of a search.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Stats {
    /// The strategies used ([`Strategy::name`]).
    pub strategies: Vec<String>,
    /// Complete executions explored (ended, deadlocked, failed or cut at the depth bound).
    pub executions: u64,
    /// Transitions executed.
    pub transitions: u64,
    /// Scheduling points (steps).
    pub steps: u64,
    /// Executions cut at the depth bound.
    pub depth_bounded: u64,
    /// Executions the sleep sets ended early (equivalent to one explored before).
    pub sleep_blocked: u64,
    /// Executions that went past a limit of the model (not explored further: the search
    /// does not cover what follows).
    #[serde(default)]
    pub limited: u64,
    /// The first limit of the model an execution went past (`<...>`, as the front end names
    /// it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<String>,
    /// Steps looked up among those computed before ([`Options::memo`]) instead of run,
    /// counting the ones the search computes to decide what to explore.
    #[serde(default)]
    pub steps_looked_up: u64,
    /// Executions per preemption count (with a preemption bound).
    pub by_preemptions: Vec<u64>,
    /// Longest execution (steps).
    pub max_depth: usize,
    /// Worker threads that searched.
    #[serde(default)]
    pub workers: usize,
    /// Only synchronisation operations were scheduling points (the program showed no data
    /// race).
    #[serde(default)]
    pub sync_points_only: bool,
    /// The data race (or the release of a mutex by a thread that does not hold it) that made
    /// every shared access a scheduling point, if one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub race: Option<String>,
    /// Seconds.
    pub seconds: f64,
    /// Whether every execution in the bounds was explored.
    pub complete: bool,
    /// Why the search stopped early, if it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
}

impl Stats {
    /// Whether the search covered every execution in its bounds: it was not stopped early,
    /// and no execution went past a limit of the model.
    fn covered(&self) -> bool {
        self.stopped.is_none() && self.limited == 0
    }

    /// Executions per second.
    pub fn executions_per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.executions as f64 / self.seconds
        } else {
            0.0
        }
    }
}

/// The result of a search.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Figures.
    pub stats: Stats,
    /// Bugs found.
    pub bugs: Vec<Bug>,
}

impl Report {
    /// Whether a bug of this kind and message is new and there is room for it.
    fn keeps(&self, kind: &BugKind, message: &str, max: usize) -> bool {
        self.bugs.len() < max
            && !self
                .bugs
                .iter()
                .any(|b| b.kind == *kind && b.message == message)
    }

    /// Adds the bugs of another search that are new, up to `max`.
    fn merge_bugs(&mut self, bugs: Vec<Bug>, max: usize) {
        for b in bugs {
            if self.keeps(&b.kind, &b.message, max) {
                self.bugs.push(b);
            }
        }
    }

    /// Adds the figures and bugs of another worker of the same search.
    fn merge_worker(&mut self, r: Report, max_bugs: usize) {
        let (s, x) = (&mut self.stats, r.stats);
        s.executions += x.executions;
        s.transitions += x.transitions;
        s.steps += x.steps;
        s.depth_bounded += x.depth_bounded;
        s.sleep_blocked += x.sleep_blocked;
        s.limited += x.limited;
        if s.limit.is_none() {
            s.limit = x.limit;
        }
        s.steps_looked_up += x.steps_looked_up;
        s.max_depth = s.max_depth.max(x.max_depth);
        if s.stopped.is_none() {
            s.stopped = x.stopped;
        }
        if s.race.is_none() {
            s.race = x.race;
        }
        self.merge_bugs(r.bugs, max_bugs);
    }
}

/// A decision point of the search, what the strategies see and change.
#[derive(Clone, Debug, Default)]
pub struct Point {
    /// Threads that can move.
    pub enabled: Vec<ThreadId>,
    /// Of those, the ones the strategies allow.
    pub allowed: Vec<ThreadId>,
    /// Threads to explore here.
    pub backtrack: Vec<ThreadId>,
    /// Threads explored here.
    pub done: Vec<ThreadId>,
    /// Threads whose steps need not be explored here, with their accesses.
    pub sleep: Vec<(ThreadId, Arc<[Acc]>)>,
    /// Threads handed over to another worker here while the current thread's variants are
    /// still explored, with their accesses: they fall asleep when those are done (the
    /// current thread's executions come before theirs; asleep at once, they would be
    /// asleep after the current thread's later variants, which the other worker's sleep
    /// set leaves to this one).
    pub handed: Vec<(ThreadId, Arc<[Acc]>)>,
    /// At a point several workers share (on the path of a job handed over), the threads
    /// claimed there by any of them ([`Claims`]).
    pub claims: Option<Claims>,
    /// The step taken from here, while its subtree is explored.
    pub taken: Option<Taken>,
    /// Threads that could move here but are not enabled: they would only repeat a round
    /// that came back to this state ([`Engine::spins`]).
    pub spinning: Vec<ThreadId>,
}

/// The threads claimed at a point several workers share: each thread is explored there by
/// the worker that claims it first. Without it, a race found by two workers that needs the
/// same thread at a point near the root had that thread's whole subtree explored by both
/// (two workers explored twice the executions of `fib_bench-1`).
pub type Claims = Arc<Mutex<Vec<ThreadId>>>;

/// A step taken from a [`Point`].
#[derive(Clone, Debug)]
pub struct Taken {
    /// The thread.
    pub thread: ThreadId,
    /// Its accesses, sorted.
    pub acc: Vec<Acc>,
    /// Threads it started.
    pub spawned: Vec<ThreadId>,
    /// Per transition, what the fair scheduler needs.
    pub marks: Vec<Mark>,
}

/// A search strategy. The engine calls [`Strategy::reach`] for every new point (after the
/// step into it), then [`Strategy::restrict`] in order (each sees the earlier ones'
/// restrictions), then asks [`Strategy::first`] which threads to start with; and
/// [`Strategy::leave`] when the search backtracks out of a point.
pub trait Strategy {
    /// Its name.
    fn name(&self) -> &'static str;
    /// Point `d` was reached (`points[d].enabled` is set; `points[d - 1].taken` is the step
    /// into it). May add threads to earlier points' backtrack sets.
    fn reach(&mut self, points: &mut [Point], d: usize, order: &dyn Reorder);
    /// Removes the threads it does not allow at point `d`.
    fn restrict(&self, points: &[Point], d: usize, allowed: &mut Vec<ThreadId>);
    /// The thread to explore first at point `d`, of the awake ones `awake` (not empty);
    /// `None`: every awake thread is explored.
    fn first(&self, _points: &[Point], _d: usize, _awake: &[ThreadId]) -> Option<ThreadId> {
        None
    }
    /// The execution ends at point `d` (cut at the depth bound) while `thread` could still
    /// take a step with accesses `acc`: its races count as if it had.
    fn pending(
        &mut self,
        _points: &mut [Point],
        _d: usize,
        _thread: ThreadId,
        _acc: &[Acc],
        _order: &dyn Reorder,
    ) {
    }
    /// The search leaves point `d`.
    fn leave(&mut self, _d: usize) {}
    /// Preemptions of the execution up to point `d`, if it counts them.
    fn preemptions(&self, _d: usize) -> Option<u32> {
        None
    }
    /// Whether sleep sets remain sound with this strategy.
    fn allows_sleep_sets(&self) -> bool {
        true
    }
}

/// What the partial-order reduction may ask about the current execution.
pub trait Reorder {
    /// Whether thread `t`, whose step at point `e` (the one taken there, or its next step
    /// when `e` is the last point) races with the step at point `j`, could take a visible
    /// step without the steps `after_j` (the step at `j` and those ordered after it, in
    /// order): reversing a race with a step it waits for (the lock after the unlock at `j`,
    /// an event after the one its vector clock names) is impossible. Which transition it takes
    /// does not matter (a signal then wakes nobody).
    fn can_precede(&self, after_j: &[usize], e: usize, t: ThreadId) -> bool;
}

struct Order<'e, 'm, G: Guide> {
    steps: &'e step::Stepper<'e, 'm, G>,
    nodes: &'e [Node<G::State>],
}

impl<G: Guide> Reorder for Order<'_, '_, G> {
    fn can_precede(&self, after_j: &[usize], e: usize, t: ThreadId) -> bool {
        let ne = &self.nodes[e];
        if e + 1 < self.nodes.len() && !ne.variants[ne.current].visible {
            // A step of invisible transitions only (cut at the local-step bound) waits for
            // nothing.
            return true;
        }
        // The state before e without the effects of the steps in `after_j`: each element they
        // wrote as it was before the first of them wrote it.
        let pool = self.steps.pool;
        let (mut restored, mut tokens) = (pool.restored.borrow_mut(), pool.tokens.borrow_mut());
        restored.clear();
        tokens.clear();
        let mut region_moved = false;
        for &k in after_j {
            let nk = &self.nodes[k];
            for a in &nk.variants[nk.current].acc {
                if !a.write {
                    continue;
                }
                if a.key == race::ATOMIC_KEY {
                    // An atomic region's begin or end.
                    region_moved = true;
                } else if a.key >> 63 == 1 {
                    // (Ending the program enables nothing: no step waits for that.)
                    if a.key != step::ALIVE_KEY {
                        tokens.push(a.key);
                    }
                } else if !restored.iter().any(|r| r.0 == a.key) {
                    restored.push((a.key, k));
                }
            }
        }
        // Shut out by a region (begun by those steps, concurrently with j, or before it):
        // whether it is open before j is what decides.
        let shut_out = region_moved || ne.state.atomic.is_some_and(|a| a != t);
        // A step from a location where other threads can see it is visible whatever it
        // runs: without the guide's tokens, the question is whether it is enabled. When its
        // guards read nothing the steps restore, they are as at e.
        let enabled_decides = match ne.state.threads[t.0 as usize] {
            crate::interp::Status::At(l)
                if tokens.is_empty()
                    && self.steps.guide.gates_nothing()
                    && !self.steps.local(t, l, 0) =>
            {
                Some(l)
            }
            _ => None,
        };
        if let Some(l) = enabled_decides {
            let untouched = self.steps.tables.guard_vars(t, l).is_some_and(|vars| {
                !restored
                    .iter()
                    .any(|(key, _)| vars & var_bit((key >> 32) as u32) != 0)
            });
            if untouched && !shut_out {
                return step::can_move(self.steps.m, self.steps.guide, &ne.guide, &ne.state, t);
            }
        }
        let mut st = self.steps.pool.copy(&ne.state);
        if shut_out {
            st.atomic = self.nodes[after_j[0]].state.atomic;
        }
        for &(key, k) in restored.iter() {
            let (v, i) = ((key >> 32) as usize, (key & 0xffff_ffff) as usize);
            st.mem.set_cell(v, i, self.nodes[k].state.mem.cell(v, i));
        }
        if enabled_decides.is_some() {
            let can = step::can_move(self.steps.m, self.steps.guide, &ne.guide, &st, t);
            self.steps.pool.recycle(st);
            return can;
        }
        // Waiting for them through the guide: reading an ordering token they write.
        let waits = |v: &Variant<G::State>| {
            v.acc
                .iter()
                .any(|a| a.key >> 63 == 1 && !a.write && tokens.contains(&a.key))
        };
        let vs = self.steps.variants(&ne.guide, &st, t, e);
        let can = vs
            .iter()
            .any(|v| (v.visible || v.ending.is_some()) && !waits(v));
        self.steps.pool.recycle(st);
        self.steps.pool.recycle_variants(vs);
        can
    }
}

/// Progress reports during a search.
pub type Progress<'a> = Box<dyn FnMut(&Stats) + 'a>;

/// Explores `prog` under `guide` with `opts`.
pub fn explore<G>(
    prog: &Program,
    guide: &G,
    opts: &Options,
    progress: Option<Progress<'_>>,
) -> Report
where
    G: Guide + Sync,
    G::State: Send,
{
    let mut r = explore_all(prog, guide, opts, progress);
    // Sampled input combinations leave executions within the bounds unexplored.
    if samples_inputs(prog, &opts.inputs) {
        r.stats.strategies.push(format!(
            "each value of each input once in steps with more than {} combinations",
            step::MAX_INPUT_COMBINATIONS
        ));
        if r.stats.stopped.is_none() {
            r.stats.complete = false;
            r.stats.stopped = Some(format!(
                "the inputs of steps with more than {} combinations of values were sampled",
                step::MAX_INPUT_COMBINATIONS
            ));
        }
    }
    r
}

/// Whether some step of `prog` reads more combinations of input values than a search runs.
fn samples_inputs(prog: &Program, inputs: &Inputs) -> bool {
    prog.threads.iter().flat_map(|t| &t.transitions).any(|x| {
        let domains: Vec<Vec<i128>> = x
            .ops
            .iter()
            .filter_map(|o| match o {
                crate::ir::Op::Havoc { ty, .. } => Some(step::input_values(inputs, *ty, 0)),
                _ => None,
            })
            .collect();
        !step::input_combinations(&domains).1
    })
}

/// [`explore`] before the check of sampled inputs.
fn explore_all<G>(
    prog: &Program,
    guide: &G,
    opts: &Options,
    progress: Option<Progress<'_>>,
) -> Report
where
    G: Guide + Sync,
    G::State: Send,
{
    let mut progress = progress;
    // Waiting on data (`__VERIFIER_assume` over shared state) is synchronisation through
    // data variables, which the race detector does not see (a blocked thread's reads are
    // never checked), so such programs are searched with every access a scheduling point.
    let waits_on_data = prog.threads.iter().any(|th| {
        th.transitions
            .iter()
            .any(|tr| tr.may_block && !matches!(tr.kind, TransKind::Sync(_)))
    });
    let coarse =
        opts.sync_points_only && opts.plain_dpor() && guide.gates_nothing() && !waits_on_data;
    if !coarse {
        return explore_with(prog, guide, opts, progress, false);
    }
    let r = {
        // Progress of the first search goes to the same callback.
        let first: Option<Progress<'_>> = progress
            .as_mut()
            .map(|p| Box::new(move |s: &Stats| p(s)) as Progress<'_>);
        explore_with(prog, guide, opts, first, true)
    };
    let Some(race) = r.stats.race.clone() else {
        return r;
    };
    // A data race: again, with every shared access a scheduling point, within what is left
    // of the limits.
    let mut rest = opts.clone();
    rest.timeout = opts
        .timeout
        .map(|t| t.saturating_sub(Duration::from_secs_f64(r.stats.seconds)));
    rest.max_executions = opts
        .max_executions
        .map(|n| n.saturating_sub(r.stats.executions));
    let mut f = explore_with(prog, guide, &rest, progress, false);
    f.stats.race = Some(race);
    f.stats.seconds += r.stats.seconds;
    // Bugs the first search found before the race are real: keep them.
    f.merge_bugs(r.bugs, opts.max_bugs);
    f
}

/// How many steps deep the buffers of a search start (an execution of the benchmarks of seed
/// 004 takes 60-250 steps): growing them from empty, with the memo's lists, took about a tenth
/// of the first execution of a short search (fsbench, 16 threads: 4.17 M instructions before,
/// 3.80 M after).
pub(crate) const EXPECTED_STEPS: usize = 256;

/// The search, sequential or split between workers; `coarse`: preempting only at
/// synchronisation, with the data-race detector.
fn explore_with<G>(
    prog: &Program,
    guide: &G,
    opts: &Options,
    progress: Option<Progress<'_>>,
    coarse: bool,
) -> Report
where
    G: Guide + Sync,
    G::State: Send,
{
    if opts.jobs > 1 && opts.plain_dpor() {
        return if opts.split_every > 0 {
            explore_split(prog, guide, opts, coarse)
        } else {
            explore_parallel(prog, guide, opts, progress, coarse)
        };
    }
    let mut e = Engine::new(prog, guide, opts, progress, None, coarse);
    let bounds: Vec<Option<u32>> = match opts.preemption_bound {
        Some(k) => (0..=k).map(Some).collect(),
        None => vec![None],
    };
    for b in bounds {
        e.search(b, None);
        if e.stop.is_some() {
            break;
        }
    }
    let mut r = e.into_report();
    r.stats.workers = 1;
    r
}

/// The DPOR search split between `opts.jobs` workers: the first starts at the root, and a
/// worker that runs out of work gets part of another's (the first point on its current
/// path with a thread left to explore, [`Engine::donate`]).
fn explore_parallel<G>(
    prog: &Program,
    guide: &G,
    opts: &Options,
    progress: Option<Progress<'_>>,
    coarse: bool,
) -> Report
where
    G: Guide + Sync,
    G::State: Send,
{
    let shared = Shared::new(opts.jobs, 0);
    let start = Instant::now();
    std::thread::scope(|sc| {
        // The other workers start when the first releases them (starting a thread costs
        // time a short search does not have).
        let workers = std::cell::RefCell::new(Vec::new());
        let spawn = || {
            for _ in 1..opts.jobs {
                let shared = &shared;
                workers.borrow_mut().push(sc.spawn(move || {
                    let mut e = Engine::new(prog, guide, opts, None, None, coarse);
                    e.shared = Some(shared);
                    while let Some(job) = shared.next() {
                        e.search(None, Some(job));
                    }
                    e.into_report()
                }));
            }
        };
        let mut e = Engine::new(prog, guide, opts, progress, None, coarse);
        e.shared = Some(&shared);
        e.start_others = Some(&spawn);
        e.search(None, None);
        if !shared.released() {
            // Over before the others were wanted.
            shared.halt();
        }
        while !e.stopped() {
            match shared.next() {
                Some(job) => e.search(None, Some(job)),
                None => break,
            }
        }
        shared.halt();
        let mut report = e.into_report();
        for w in workers.into_inner() {
            match w.join() {
                Ok(r) => report.merge_worker(r, opts.max_bugs),
                Err(p) => std::panic::resume_unwind(p),
            }
        }
        let s = &mut report.stats;
        s.complete = s.covered();
        s.seconds = start.elapsed().as_secs_f64();
        // (The others only if the first released them.)
        s.workers = if shared.released() { opts.jobs } else { 1 };
        report
    })
}

/// The split search of [`explore_parallel`] in one thread, the same in every run
/// ([`Options::split_every`]): the first engine searches from the root and hands work over
/// every `split_every` steps; a second engine then searches the parts handed over (and
/// hands work over in turn) until none is left.
fn explore_split<G: Guide>(prog: &Program, guide: &G, opts: &Options, coarse: bool) -> Report {
    let start = Instant::now();
    let shared = Shared::new(1, opts.split_every);
    shared.release();
    let mut e = Engine::new(prog, guide, opts, None, None, coarse);
    e.shared = Some(&shared);
    e.search(None, None);
    let mut other = Engine::new(prog, guide, opts, None, None, coarse);
    other.shared = Some(&shared);
    while !other.stopped() {
        match shared.next() {
            Some(job) => other.search(None, Some(job)),
            None => break,
        }
    }
    let mut report = e.into_report();
    report.merge_worker(other.into_report(), opts.max_bugs);
    let s = &mut report.stats;
    s.complete = s.covered();
    s.seconds = start.elapsed().as_secs_f64();
    s.workers = 2;
    report
}

/// Runs the one execution `steps` describe (thread, transition and inputs of each step)
/// under `guide`, and reports how it ends: the replay of a trace file.
pub fn replay<G: Guide>(prog: &Program, guide: &G, steps: &[TraceStep], opts: &Options) -> Report {
    let mut e = Engine::new(prog, guide, opts, None, Some(steps.to_vec()), false);
    e.search(None, None);
    let mut r = e.into_report();
    r.stats.workers = 1;
    r
}

struct Engine<'a, G: Guide> {
    prog: &'a Program,
    m: Machine<'a>,
    guide: &'a G,
    opts: &'a Options,
    report: Report,
    start: Instant,
    progress: Option<Progress<'a>>,
    last_progress: Instant,
    stop: Option<String>,
    replay: Option<Vec<TraceStep>>,
    /// In a parallel search: what the workers share, and (for the first worker) how to start
    /// the others when it releases them.
    shared: Option<&'a Shared>,
    start_others: Option<&'a dyn Fn()>,
    pool: step::Pool<G::State>,
    /// The steps computed so far, when memoised.
    memo: Option<std::cell::RefCell<memo::Memo>>,
    /// [`step::Tables`].
    tables: step::Tables,
    /// Points popped, and steps taken, for their buffers.
    spare_points: Vec<Point>,
    spare_taken: Vec<Taken>,
    /// Bytes of the memory of the states on the search stack not shared with the state
    /// before each ([`Node::bytes`]).
    held_bytes: usize,
    /// A scratch buffer of [`Engine::expand`].
    was_enabled: Vec<bool>,
    /// The data-race detector, when preempting only at synchronisation.
    race: Option<race::Detector>,
    /// Where each variable's elements start in memory (and their number).
    starts: Vec<usize>,
    race_found: Option<race::Race>,
    /// A mutex released by a thread that does not hold it
    /// ([`step::Tables::unlock`]): the access key and the thread.
    stray_found: Option<(u64, ThreadId)>,
}

/// A node of the search stack: the state at a point and the step being explored from it.
struct Node<S> {
    state: State,
    guide: S,
    /// The variants of the thread being explored here, and the index of the current one.
    variants: Vec<Variant<S>>,
    current: usize,
    /// The variant that led here, if it ended the execution.
    ending: Option<Ending>,
    /// Only the current variant is this search's (the others belong to the search that
    /// handed this one its job).
    single: bool,
    /// Bytes of the state's memory not shared with its parent's
    /// ([`crate::memory::Memory::bytes_apart_from`]).
    bytes: usize,
}

impl<'a, G: Guide> Engine<'a, G> {
    fn new(
        prog: &'a Program,
        guide: &'a G,
        opts: &'a Options,
        progress: Option<Progress<'a>>,
        replay: Option<Vec<TraceStep>>,
        coarse: bool,
    ) -> Self {
        // (The search's time includes making its tables.)
        let start = Instant::now();
        let m = Machine::new(prog);
        let tables = step::Tables::new(&m, guide, coarse);
        // The detector and DPOR number locations by their place in memory.
        let starts = m.layout();
        let race = coarse.then(|| race::Detector::new(prog.threads.len(), starts.clone()));
        Engine {
            prog,
            m,
            guide,
            opts,
            report: Report::default(),
            start,
            progress,
            last_progress: Instant::now(),
            stop: None,
            replay,
            shared: None,
            start_others: None,
            pool: step::Pool::default(),
            memo: (opts.memo && !opts.fair && guide.gates_nothing()).then(Default::default),
            tables,
            spare_points: Vec::with_capacity(EXPECTED_STEPS),
            spare_taken: Vec::with_capacity(EXPECTED_STEPS),
            held_bytes: 0,
            was_enabled: Vec::new(),
            race,
            starts,
            race_found: None,
            stray_found: None,
        }
    }

    /// The report with the final figures.
    fn into_report(mut self) -> Report {
        let race = match (self.race_found, self.stray_found) {
            (Some(r), _) => Some(self.show_race(r)),
            (None, Some((key, t))) => Some(format!(
                "mutex {} released by {}, which does not hold it",
                self.element(key),
                self.thread_name(t.0)
            )),
            (None, None) => None,
        };
        let s = &mut self.report.stats;
        s.seconds = self.start.elapsed().as_secs_f64();
        s.steps_looked_up = self.memo.as_ref().map_or(0, |m| m.borrow().hits);
        s.stopped = self.stop.take();
        s.complete = s.covered();
        s.sync_points_only = self.race.is_some() && race.is_none();
        s.race = race;
        self.report
    }

    /// A data race in words: the element and the two threads.
    fn show_race(&self, r: race::Race) -> String {
        let what = if r.key >> 63 == 1 {
            "an atomic region".to_string()
        } else {
            self.element(r.key)
        };
        format!(
            "data race on {what} between {} and {}",
            self.thread_name(r.first),
            self.thread_name(r.second)
        )
    }

    /// The variable element a memory access key ([`Acc::key`]) names, as C writes it (or
    /// the variable's name, for one the front end made, such as a thread's parameter).
    fn element(&self, key: u64) -> String {
        let v = self.prog.var(VarId((key >> 32) as u32));
        match v.c_element((key & 0xffff_ffff) as usize) {
            e if e.is_empty() => v.name.clone(),
            e => e,
        }
    }

    /// `T<id> <name>` of thread `t`.
    fn thread_name(&self, t: u32) -> String {
        format!("T{t} {}", self.prog.thread(ThreadId(t)).name)
    }

    /// One depth-first search (with preemption bound `bound`, when bounding), of the whole
    /// tree or of the part a job names.
    fn search(&mut self, bound: Option<u32>, job: Option<Job>) {
        let mut strategies: Vec<Box<dyn Strategy>> = Vec::new();
        if self.opts.fair {
            strategies.push(Box::new(fair::Fair::new(self.prog.threads.len())));
        }
        if let Some(b) = bound {
            strategies.push(Box::new(icb::Bounded::new(b)));
        }
        // The fair scheduler's priorities depend on the order of independent steps (which
        // thread ran in whose window), so DPOR's equivalence does not hold under it.
        let use_dpor = self.opts.dpor && !self.opts.fair && self.replay.is_none();
        if use_dpor {
            strategies.push(Box::new(dpor::Dpor::new(
                self.prog.threads.len(),
                self.starts.clone(),
            )));
        }
        let sleep_sets = use_dpor && strategies.iter().all(|s| s.allows_sleep_sets());
        self.report.stats.strategies = strategies.iter().map(|s| s.name().to_string()).collect();
        if sleep_sets {
            self.report.stats.strategies.push("sleep sets".into());
        }
        let mut init_vals = Vec::new();
        let state = self.m.initial(&mut ZeroInit, &mut init_vals);
        let bytes = state.mem.bytes_apart_from(&state.mem.hollow());
        self.held_bytes = bytes;
        let mut points: Vec<Point> = Vec::with_capacity(EXPECTED_STEPS);
        let mut nodes: Vec<Node<G::State>> = Vec::with_capacity(EXPECTED_STEPS);
        let mut states_for_cycles: Vec<State> = Vec::new();
        nodes.push(Node {
            state,
            guide: self.guide.initial(),
            variants: Vec::new(),
            current: 0,
            ending: None,
            single: false,
            bytes,
        });
        points.push(Point::default());
        let mut fresh = true;
        if let Some(job) = job {
            if !self.rebuild(&job, &mut nodes, &mut points, &mut strategies, sleep_sets) {
                return;
            }
        }
        while let Some(d) = nodes.len().checked_sub(1) {
            if self.stopped() {
                return;
            }
            if fresh {
                fresh = false;
                // A new point: does the execution end here?
                let end = self.expand(&nodes, &mut points, &mut strategies, d);
                if end
                    .as_ref()
                    .is_some_and(|e| !matches!(e, Ending2::Terminated))
                {
                    // The threads that could go on, or are blocked, have races too: with the
                    // steps they did not take, other executions may exist (the program ended,
                    // failed or was cut before they ran).
                    for t in 0..self.prog.threads.len() {
                        let t = ThreadId(t as u32);
                        let acc = self.next_accesses(&nodes[d], &points[d], t, d);
                        if !acc.is_empty() {
                            let steps = self.stepper();
                            let order = Order {
                                steps: &steps,
                                nodes: &nodes,
                            };
                            for s in strategies.iter_mut() {
                                s.pending(&mut points, d, t, &acc, &order);
                            }
                        }
                    }
                }
                if let Some(outcome) = end {
                    self.finish(
                        &nodes,
                        &points,
                        &strategies,
                        d,
                        outcome,
                        bound,
                        &mut states_for_cycles,
                    );
                    // The execution limit holds exactly (with several workers, up to the
                    // executions the others finish meanwhile).
                    if let Some(n) = self.opts.max_executions {
                        if self.stop.is_none() && self.executions() >= n {
                            self.set_stop(format!("execution limit of {n} reached"));
                        }
                    }
                    self.pop(&mut nodes, &mut points, &mut strategies);
                    continue;
                }
                // Sleep sets: a point whose allowed threads are all asleep ends here.
                let mut awake = std::mem::take(&mut points[d].backtrack);
                awake.clear();
                let p = &points[d];
                awake.extend(
                    p.allowed
                        .iter()
                        .copied()
                        .filter(|t| !p.sleep.iter().any(|(s, _)| s == t)),
                );
                if awake.is_empty() {
                    points[d].backtrack = awake;
                    self.report.stats.sleep_blocked += 1;
                    self.pop(&mut nodes, &mut points, &mut strategies);
                    continue;
                }
                // A strategy that orders the threads (DPOR) starts with one; otherwise every
                // allowed thread is explored.
                if let Some(t) = strategies.iter().find_map(|s| s.first(&points, d, &awake)) {
                    awake.clear();
                    awake.push(t);
                }
                points[d].backtrack = awake;
                if let Some(r) = &self.replay {
                    points[d].backtrack = match r.get(trace_offset(&nodes, d)) {
                        Some(s) if points[d].allowed.contains(&s.thread) => vec![s.thread],
                        _ => vec![],
                    };
                }
            }
            // The next variant of the current thread, or the next thread.
            let node = &mut nodes[d];
            if !node.single && node.current + 1 < node.variants.len() {
                node.current += 1;
            } else {
                if let Some(t) = points[d].taken.take() {
                    let p = &mut points[d];
                    p.done.push(t.thread);
                    if sleep_sets {
                        p.sleep
                            .push((t.thread, step::union_acc_shared(&node.variants)));
                        p.sleep.append(&mut p.handed);
                    }
                    self.spare_taken.push(t);
                }
                let p = &points[d];
                let next = p
                    .backtrack
                    .iter()
                    .copied()
                    .find(|t| !p.done.contains(t) && !p.sleep.iter().any(|(s, _)| s == t));
                let Some(t) = next else {
                    self.pop(&mut nodes, &mut points, &mut strategies);
                    continue;
                };
                if let Some(c) = &points[d].claims {
                    if !add(&mut lock(c), t) {
                        // Another worker explores it here.
                        points[d].done.push(t);
                        continue;
                    }
                }
                let offset = self.replay.as_ref().map(|_| trace_offset(&nodes, d));
                let node = &mut nodes[d];
                let mut vs = self.stepper().variants(&node.guide, &node.state, t, d);
                if let Some(r) = &self.replay {
                    let rest = r.get(offset.unwrap_or(0)..).unwrap_or(&[]);
                    vs.retain(|v| {
                        v.steps.len() <= rest.len()
                            && v.steps.iter().zip(rest).all(|(a, b)| {
                                a.thread == b.thread
                                    && a.transition == b.transition
                                    && a.inputs == b.inputs
                                    && a.skipped == b.skipped
                            })
                    });
                    vs.truncate(1);
                }
                if vs.is_empty() {
                    points[d].done.push(t);
                    continue;
                }
                let old = std::mem::replace(&mut node.variants, vs);
                self.pool.recycle_variants(old);
                node.current = 0;
                // (Only the variant of a job's path is another worker's: every variant of
                // a thread this search explores here is its own.)
                node.single = false;
            }
            self.take(&mut nodes, &mut points, sleep_sets);
            fresh = true;
            self.tick();
            if let Some(sh) = self.shared {
                if sh.released() {
                    if sh.wanted(self.report.stats.steps) {
                        self.donate(&nodes, &mut points, sleep_sets);
                    }
                } else if self.report.stats.steps.is_multiple_of(64)
                    && self.start.elapsed() >= self.opts.alone_for
                {
                    if let Some(start) = self.start_others {
                        start();
                    }
                    sh.release();
                }
            }
        }
    }

    /// Takes the current variant of the deepest node: its state moves to a new child node.
    fn take(&mut self, nodes: &mut Vec<Node<G::State>>, points: &mut Vec<Point>, sleep_sets: bool) {
        let d = nodes.len() - 1;
        let node = &mut nodes[d];
        let cur = node.current;
        let spare = self.pool.spare(&node.variants[cur].state);
        let state = std::mem::replace(&mut node.variants[cur].state, spare);
        let node = &nodes[d];
        let v = &node.variants[cur];
        let thread = v.steps[0].thread;
        self.report.stats.transitions += v.steps.iter().filter(|s| !s.skipped).count() as u64;
        self.report.stats.steps += 1;
        let mut taken = self.spare_taken.pop().unwrap_or_else(|| Taken {
            thread,
            acc: Vec::new(),
            spawned: Vec::new(),
            marks: Vec::new(),
        });
        taken.thread = thread;
        taken.acc.clone_from(&v.acc);
        taken.spawned.clone_from(&v.spawned);
        taken.marks.clone_from(&v.marks);
        points[d].taken = Some(taken);
        if let Some(det) = &mut self.race {
            if let Some(r) = det.step(d, thread.0, &v.races) {
                if self.race_found.is_none() {
                    self.race_found = Some(r);
                    // The search must start again, preempting at every shared access.
                    self.set_stop("a data race".into());
                }
            }
        }
        if let Some(key) = v.stray {
            if self.stray_found.is_none() && self.race_found.is_none() {
                self.stray_found = Some((key, thread));
                // Steps ran on through unlocks on the premise that this does not happen.
                self.set_stop("a mutex released by a thread that does not hold it".into());
            }
        }
        // (Each step's node keeps its state and its variants' states: about two per step,
        // each sharing the chunks of memory its step did not write with its parent's.)
        let bytes = state.mem.bytes_apart_from(&nodes[d].state.mem);
        self.held_bytes += bytes;
        let held = self.held_bytes.saturating_mul(2);
        if held > self.opts.max_bytes && self.stop.is_none() {
            self.set_stop(format!(
                "memory budget: the states of an execution {} steps deep take more than {} MiB",
                nodes.len(),
                self.opts.max_bytes >> 20
            ));
        }
        let child = Node {
            state,
            guide: v.guide.clone(),
            variants: Vec::new(),
            current: 0,
            ending: v.ending.clone(),
            single: false,
            bytes,
        };
        // A point's buffers are reused (a search pushes and pops one per step).
        // (A new point's lists start with room for every thread: grown from empty, they
        // took a few reallocations each in a search's first execution.)
        let n = self.prog.threads.len();
        let mut p = self.spare_points.pop().unwrap_or_else(|| Point {
            enabled: Vec::with_capacity(n),
            allowed: Vec::with_capacity(n),
            backtrack: Vec::with_capacity(4),
            done: Vec::with_capacity(4),
            sleep: Vec::with_capacity(4),
            handed: Vec::new(),
            claims: None,
            taken: None,
            spinning: Vec::new(),
        });
        p.enabled.clear();
        p.spinning.clear();
        p.allowed.clear();
        p.backtrack.clear();
        p.done.clear();
        p.taken = None;
        p.sleep.clear();
        p.handed.clear();
        p.claims = None;
        if sleep_sets {
            // The sleep set of the child: the sleeping threads independent of this step.
            p.sleep.extend(
                points[d]
                    .sleep
                    .iter()
                    .filter(|(q, acc)| *q != thread && !dependent(acc, &v.acc))
                    .cloned(),
            );
        }
        nodes.push(child);
        points.push(p);
    }

    /// Whether the search must stop (a limit, a bug, or another worker stopped).
    fn stopped(&self) -> bool {
        self.stop.is_some()
            || self
                .shared
                .is_some_and(|sh| sh.stop.load(Ordering::Relaxed))
    }

    /// Re-executes a job's path: the points before its last one take the step of the search
    /// that handed it over (only that variant is this search's), with that search's
    /// backtrack, done and sleep sets; the last point takes the job's thread. Returns false
    /// when the path does not run (it always does: the steps are deterministic).
    fn rebuild(
        &mut self,
        job: &Job,
        nodes: &mut Vec<Node<G::State>>,
        points: &mut Vec<Point>,
        strategies: &mut [Box<dyn Strategy>],
        sleep_sets: bool,
    ) -> bool {
        let at = job.points.len() - 1;
        for (k, jp) in job.points.iter().enumerate() {
            if self.expand(nodes, points, strategies, k).is_some() {
                return false;
            }
            let (t, vi) = if k < at { job.path[k] } else { (job.thread, 0) };
            points[k].backtrack = jp.backtrack.clone();
            points[k].done = jp.done.clone();
            points[k].sleep = jp.sleep.clone();
            points[k].claims = Some(jp.claims.clone());
            let node = &mut nodes[k];
            let vs = self.stepper().variants(&node.guide, &node.state, t, k);
            if vi >= vs.len() {
                return false;
            }
            let old = std::mem::replace(&mut node.variants, vs);
            self.pool.recycle_variants(old);
            node.current = vi;
            node.single = k < at;
            self.take(nodes, points, sleep_sets);
        }
        true
    }

    /// Hands an idle worker part of the search: the first point on the current path with a
    /// thread left to explore (not claimed by another worker). This search counts that
    /// thread as explored there, and with sleep sets puts it to sleep there once the current
    /// thread is done there ([`Point::handed`]): the other worker explores every execution
    /// it starts, after the current thread's.
    fn donate(&mut self, nodes: &[Node<G::State>], points: &mut [Point], sleep_sets: bool) {
        let Some(sh) = self.shared else {
            return;
        };
        let d = nodes.len() - 1;
        let found = (0..d).find_map(|i| {
            let p = &points[i];
            let cur = p.taken.as_ref()?.thread;
            p.backtrack
                .iter()
                .copied()
                .find(|t| {
                    *t != cur
                        && !p.done.contains(t)
                        && !p.sleep.iter().any(|(s, _)| s == t)
                        && !p.claims.as_ref().is_some_and(|c| lock(c).contains(t))
                })
                .map(|t| (i, t))
        });
        let Some((at, t)) = found else {
            return;
        };
        let mut job = Job {
            path: Vec::with_capacity(at),
            points: Vec::with_capacity(at + 1),
            thread: t,
        };
        for (k, (n, p)) in nodes.iter().zip(points.iter_mut()).take(at + 1).enumerate() {
            let cur = p.taken.as_ref().expect("a step on the path").thread;
            // The point is shared from now on: the threads explored there (and at the last
            // point the one handed over) are claimed.
            let claims = p.claims.get_or_insert_with(Default::default).clone();
            {
                let mut c = lock(&claims);
                for q in p.done.iter().chain([&cur]).chain((k == at).then_some(&t)) {
                    add(&mut c, *q);
                }
            }
            if k < at {
                job.path.push((cur, n.current));
            }
            // Every thread this search has or will explore here is done for the other one.
            let mut done = p.done.clone();
            done.extend(p.backtrack.iter().copied().filter(|q| *q != t));
            done.push(cur);
            done.retain(|q| k < at || *q != t);
            done.sort_unstable();
            done.dedup();
            let mut sleep = p.sleep.clone();
            if k == at && sleep_sets {
                // The current thread's executions come before the handed-over thread's.
                sleep.push((cur, step::union_acc_shared(&n.variants)));
            }
            job.points.push(JobPoint {
                backtrack: p.backtrack.clone(),
                done,
                sleep,
                claims,
            });
        }
        points[at].done.push(t);
        if sleep_sets {
            let n = &nodes[at];
            let vs = self.stepper().variants(&n.guide, &n.state, t, at);
            points[at].handed.push((t, step::union_acc_shared(&vs)));
            self.pool.recycle_variants(vs);
        }
        sh.push(job);
    }

    /// Computes the enabled and allowed threads of the new point `d`; returns how the
    /// execution ends there, if it does.
    fn expand(
        &mut self,
        nodes: &[Node<G::State>],
        points: &mut [Point],
        strategies: &mut [Box<dyn Strategy>],
        d: usize,
    ) -> Option<Ending2> {
        let node = &nodes[d];
        let mut enabled = std::mem::take(&mut points[d].enabled);
        enabled.clear();
        let mut spinning = std::mem::take(&mut points[d].spinning);
        spinning.clear();
        // Without a guide, a thread that did not move and was not started keeps its
        // enabledness when the step wrote no variable its guards read (and no atomic region
        // began or ended).
        let before = d
            .checked_sub(1)
            .filter(|&c| self.guide.gates_nothing() && nodes[c].state.atomic == node.state.atomic)
            .and_then(|c| points[c].taken.as_ref().map(|t| (t, c)));
        let mut was = std::mem::take(&mut self.was_enabled);
        was.clear();
        let mut written = 0u128;
        if let Some((taken, c)) = before {
            was.resize(self.prog.threads.len(), false);
            for t in &points[c].enabled {
                was[t.0 as usize] = true;
            }
            for a in taken.acc.iter() {
                if a.write && a.key >> 63 == 0 {
                    written |= var_bit((a.key >> 32) as u32);
                }
            }
            was[taken.thread.0 as usize] = false;
        }
        for t in 0..self.prog.threads.len() {
            let t = ThreadId(t as u32);
            if let Some((taken, c)) = before {
                let same = taken.thread != t
                    && match node.state.threads[t.0 as usize] {
                        Status::NotStarted => !taken.spawned.contains(&t),
                        Status::At(l) => {
                            !taken.spawned.contains(&t)
                                && self
                                    .tables
                                    .guard_vars(t, l)
                                    .is_some_and(|vars| vars & written == 0)
                        }
                    };
                // (A thread that spun may move once another has: its state is no longer
                // the one it came back to.)
                if same && !points[c].spinning.contains(&t) {
                    if was[t.0 as usize] {
                        enabled.push(t);
                    }
                    continue;
                }
            }
            if step::can_move(&self.m, self.guide, &node.guide, &node.state, t)
                && !self.stutters_at(&node.state, t)
            {
                if self.spins(nodes, points, d, t) {
                    spinning.push(t);
                } else {
                    enabled.push(t);
                }
            }
        }
        self.was_enabled = was;
        points[d].enabled = enabled;
        points[d].spinning = spinning;
        let steps = self.stepper();
        let order = Order {
            steps: &steps,
            nodes,
        };
        for s in strategies.iter_mut() {
            s.reach(points, d, &order);
        }
        let mut allowed = std::mem::take(&mut points[d].allowed);
        allowed.clear();
        allowed.extend_from_slice(&points[d].enabled);
        for s in strategies.iter() {
            s.restrict(points, d, &mut allowed);
        }
        points[d].allowed = allowed;
        if let Some(e) = &node.ending {
            return Some(Ending2::Step(e.clone()));
        }
        if points[d].enabled.is_empty() {
            let blocked: Vec<ThreadId> = self
                .prog
                .threads
                .iter()
                .filter(|t| match node.state.threads[t.id.0 as usize] {
                    Status::At(l) => t.locations[l.0 as usize].kind != LocKind::Exit,
                    Status::NotStarted => false,
                })
                .map(|t| t.id)
                .collect();
            // (A thread that only repeats itself can move: the program spins, the others
            // wait for ever, and nothing changes any more; their races are still pending.)
            let spins = blocked.iter().any(|&t| {
                points[d].spinning.contains(&t)
                    || (step::can_move(&self.m, self.guide, &node.guide, &node.state, t)
                        && self.stutters_at(&node.state, t))
            });
            return Some(if blocked.is_empty() {
                Ending2::Terminated
            } else if spins {
                Ending2::Spins
            } else {
                Ending2::Deadlock(blocked)
            });
        }
        if points[d].allowed.is_empty() {
            // The fair scheduler has nothing to schedule (cannot happen: its priorities are
            // acyclic), or a replayed trace ended.
            return Some(Ending2::Cut);
        }
        if d >= self.opts.max_depth {
            return Some(Ending2::DepthBound);
        }
        None
    }

    #[allow(clippy::too_many_arguments)]
    fn finish(
        &mut self,
        nodes: &[Node<G::State>],
        points: &[Point],
        strategies: &[Box<dyn Strategy>],
        d: usize,
        end: Ending2,
        bound: Option<u32>,
        scratch: &mut Vec<State>,
    ) {
        let stats = &mut self.report.stats;
        let preemptions = strategies
            .iter()
            .find_map(|s| s.preemptions(d))
            .unwrap_or(0);
        if matches!(end, Ending2::Cut) && self.replay.is_none() {
            return;
        }
        // With a bound, an execution with fewer preemptions was counted in an earlier round.
        let new = bound.is_none_or(|b| preemptions == b);
        if new {
            stats.executions += 1;
            if let Some(sh) = self.shared {
                sh.executions.fetch_add(1, Ordering::Relaxed);
            }
            if bound.is_some() {
                let k = preemptions as usize;
                if stats.by_preemptions.len() <= k {
                    stats.by_preemptions.resize(k + 1, 0);
                }
                stats.by_preemptions[k] += 1;
            }
        }
        stats.max_depth = stats.max_depth.max(d);
        let steps = || -> Vec<TraceStep> {
            let mut steps: Vec<TraceStep> = (0..d)
                .flat_map(|i| {
                    let n = &nodes[i];
                    n.variants[n.current].steps.clone()
                })
                .collect();
            step::fill_writes(&self.m, &nodes[0].state, &mut steps);
            steps
        };
        // The thread whose step ended the execution.
        let last = || {
            d.checked_sub(1)
                .and_then(|i| nodes[i].variants[nodes[i].current].steps.last())
                .map_or(ThreadId(0), |s| s.thread)
        };
        let (kind, message, cycle) = match &end {
            Ending2::Step(Ending::Error(tr)) => {
                let t = last();
                let x = self.prog.thread(t).transition(*tr);
                let kind = match &x.kind {
                    TransKind::Error(k) => k.clone(),
                    _ => ErrorKind::ReachError,
                };
                let o = crate::interp::Outcome::Error {
                    thread: t,
                    transition: *tr,
                    kind,
                };
                (BugKind::Error, self.prog.show_outcome(&o), None)
            }
            Ending2::Step(Ending::Undefined(tr, why)) => {
                let t = last();
                let o = crate::interp::Outcome::Undefined {
                    thread: t,
                    transition: *tr,
                    reason: why.clone(),
                    memory: false,
                };
                (BugKind::Undefined, self.prog.show_outcome(&o), None)
            }
            Ending2::Step(Ending::Deviation(tr, why)) => {
                let t = last();
                let x = self.prog.thread(t).transition(*tr);
                let pos = x
                    .span
                    .map(|s| format!(" at {}", self.prog.position(&s)))
                    .unwrap_or_default();
                (
                    BugKind::Deviation,
                    format!(
                        "{} {} deviates from the schedule{pos}: {why}",
                        t,
                        self.prog.thread(t).name
                    ),
                    None,
                )
            }
            Ending2::Deadlock(blocked) => {
                let o = crate::interp::Outcome::Deadlock {
                    blocked: blocked.clone(),
                };
                (BugKind::Deadlock, self.prog.show_outcome(&o), None)
            }
            Ending2::DepthBound => {
                stats.depth_bounded += 1;
                if !self.opts.fair {
                    return;
                }
                scratch.clear();
                scratch.extend(nodes[..=d].iter().map(|n| n.state.clone()));
                // The cycle in trace steps.
                let cyc = fair::fair_cycle(scratch, points)
                    .map(|(a, b)| (trace_offset(nodes, a), trace_offset(nodes, b)));
                let what = match cyc {
                    Some((a, b)) => format!(
                        "possible livelock: a fair execution longer than {} steps; steps {a} to {} repeat a fair cycle (the state after them is the state before them, and every thread enabled in them runs in them)",
                        self.opts.max_depth,
                        b - 1
                    ),
                    None => format!(
                        "possible livelock: a fair execution longer than {} steps (no repeated state found in it; raise --max-depth if the program is merely long)",
                        self.opts.max_depth
                    ),
                };
                (BugKind::Livelock, what, cyc)
            }
            Ending2::Step(Ending::Limit(limit)) => {
                stats.limited += 1;
                if stats.limit.is_none() {
                    stats.limit = Some(limit.clone());
                }
                return;
            }
            Ending2::Terminated
            | Ending2::Spins
            | Ending2::Cut
            | Ending2::Step(Ending::Halted | Ending::Discarded) => {
                return;
            }
        };
        if self.report.keeps(&kind, &message, self.opts.max_bugs) {
            self.report.bugs.push(Bug {
                format: TRACE_FORMAT.into(),
                program_sha256: self.prog.sha256.clone(),
                kind,
                message,
                steps: steps(),
                cycle,
                preemptions,
            });
        }
        if self.opts.stop_at_first_bug {
            self.set_stop("stopped at the first bug".into());
        } else if self.report.bugs.len() >= self.opts.max_bugs {
            self.set_stop(format!("stopped after {} bugs", self.opts.max_bugs));
        }
    }

    /// The accesses of thread `t`'s next step at point `d`: of its variants when it is enabled;
    /// when it is blocked, the variables its guards read, taken as writes (a lock, join or
    /// wait that will change them), and the atomic regions' lock when another thread is inside
    /// one.
    fn next_accesses(
        &self,
        node: &Node<G::State>,
        point: &Point,
        t: ThreadId,
        d: usize,
    ) -> Vec<Acc> {
        if point.enabled.contains(&t) {
            let vs = self.stepper().variants(&node.guide, &node.state, t, d);
            let acc = step::union_acc(&vs);
            self.pool.recycle_variants(vs);
            return acc;
        }
        let Status::At(l) = node.state.threads[t.0 as usize] else {
            return Vec::new();
        };
        let _ = self.m.take_log();
        self.m.set_logging(true);
        for tr in self.prog.thread(t).outgoing(l) {
            let _ = self.m.eval(&node.state, &tr.guard);
        }
        self.m.set_logging(false);
        let mut acc: Vec<Acc> = self
            .m
            .take_log()
            .iter()
            .map(|a| Acc::memory(a.var, a.index, true))
            .collect();
        // Shut out by another thread's atomic region: it waits for the region's lock.
        if node.state.atomic.is_some_and(|a| a != t) {
            acc.push(Acc {
                key: race::ATOMIC_KEY,
                write: true,
            });
        }
        acc.sort_unstable();
        acc.dedup();
        acc
    }

    /// Whether thread `t` only repeats itself in `s` ([`step::stutters`]; not under the fair
    /// scheduler, whose yields handle such loops).
    fn stutters_at(&self, s: &State, t: ThreadId) -> bool {
        match s.threads[t.0 as usize] {
            Status::At(l) => {
                !self.opts.fair && self.tables.stutter(t, l) && step::stutters(&self.m, s, t, l)
            }
            Status::NotStarted => false,
        }
    }

    /// Whether thread `t`, at point `d`, is back where it was at an earlier point with only
    /// its own steps between (at most [`MAX_SPIN_STEPS`]) and every variable and thread as it
    /// was: a wait that polls shared memory (`lock; test; unlock` in a loop) that found
    /// nothing changed. Run again, it repeats those steps and comes back to this state, so
    /// the search need not schedule it until another thread moves (no state or error is
    /// lost), and it does not count as blocked where the others are (the program spins).
    /// Not under the fair scheduler, whose yields handle such loops, nor with a guide, whose
    /// state may differ.
    fn spins(&self, nodes: &[Node<G::State>], points: &[Point], d: usize, t: ThreadId) -> bool {
        if self.opts.fair || !self.guide.gates_nothing() {
            return false;
        }
        let s = &nodes[d].state;
        let here = s.threads[t.0 as usize];
        if !matches!(here, Status::At(_)) {
            return false;
        }
        for c in (d.saturating_sub(MAX_SPIN_STEPS)..d).rev() {
            match &points[c].taken {
                Some(taken) if taken.thread == t => {}
                _ => return false,
            }
            if nodes[c].state.threads[t.0 as usize] == here {
                return nodes[c].state == *s;
            }
        }
        false
    }

    /// How steps are computed in this search.
    fn stepper(&self) -> step::Stepper<'_, 'a, G> {
        step::Stepper {
            m: &self.m,
            guide: self.guide,
            inputs: &self.opts.inputs,
            max_local: self.opts.max_local_steps,
            marks: self.opts.fair,
            pool: &self.pool,
            tables: &self.tables,
            memo: self.memo.as_ref(),
            one_input: self.opts.plain_dpor(),
        }
    }

    fn pop(
        &mut self,
        nodes: &mut Vec<Node<G::State>>,
        points: &mut Vec<Point>,
        strategies: &mut [Box<dyn Strategy>],
    ) {
        let d = nodes.len() - 1;
        for s in strategies.iter_mut() {
            s.leave(d);
        }
        if let Some(mut n) = nodes.pop() {
            self.held_bytes -= n.bytes;
            self.pool.recycle(n.state);
            self.pool.recycle_variants(std::mem::take(&mut n.variants));
        }
        if let Some(p) = points.pop() {
            if self.spare_points.len() < 4096 {
                self.spare_points.push(p);
            }
        }
    }

    /// Stops the search (every worker's).
    fn set_stop(&mut self, why: String) {
        self.stop = Some(why);
        if let Some(sh) = self.shared {
            sh.halt();
        }
    }

    /// Executions so far (of every worker).
    fn executions(&self) -> u64 {
        match self.shared {
            Some(sh) => sh.executions.load(Ordering::Relaxed),
            None => self.report.stats.executions,
        }
    }

    /// Checks the limits and reports progress now and then.
    fn tick(&mut self) {
        if !self.report.stats.steps.is_multiple_of(256) {
            return;
        }
        if let Some(t) = self.opts.timeout {
            if self.start.elapsed() >= t {
                self.set_stop(format!("time limit of {:.1} s reached", t.as_secs_f64()));
            }
        }
        if let Some(c) = &self.opts.cancel {
            if c.load(Ordering::Relaxed) {
                self.set_stop("cancelled".into());
            }
        }
        if self.progress.is_some() && self.last_progress.elapsed() >= Duration::from_millis(200) {
            self.last_progress = Instant::now();
            self.report.stats.seconds = self.start.elapsed().as_secs_f64();
            let mut shown = self.report.stats.clone();
            shown.executions = self.executions();
            if let Some(p) = self.progress.as_mut() {
                p(&shown);
            }
        }
    }
}

/// Part of a parallel search handed from one worker to another: a path of steps, and the
/// thread to explore at its end.
struct Job {
    /// Per point before the last: the thread and the variant taken.
    path: Vec<(ThreadId, usize)>,
    /// Per point of the path, the last included: its sets.
    points: Vec<JobPoint>,
    /// The thread to explore at the last point.
    thread: ThreadId,
}

/// The sets of a point of a job's path.
struct JobPoint {
    backtrack: Vec<ThreadId>,
    /// The threads the handing worker explores here: none of the receiver's business.
    done: Vec<ThreadId>,
    /// The threads asleep there (while the path's step is taken; at the last point, with
    /// the thread the handing worker explores there).
    sleep: Vec<(ThreadId, Arc<[Acc]>)>,
    /// The threads claimed there, shared with the handing worker.
    claims: Claims,
}

/// The list of claimed threads of a shared point ([`Claims`]).
fn lock(c: &Claims) -> std::sync::MutexGuard<'_, Vec<ThreadId>> {
    c.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Claims thread `t` in the list `c`: false when it was claimed already (by another
/// worker, when this one asks before exploring it).
fn add(c: &mut Vec<ThreadId>, t: ThreadId) -> bool {
    if c.contains(&t) {
        return false;
    }
    c.push(t);
    true
}

/// What the workers of a parallel search share: the jobs handed over, how many workers
/// wait for one, and the figures the limits look at.
struct Shared {
    queue: Mutex<Vec<Job>>,
    ready: Condvar,
    /// Workers waiting for a job, and jobs in the queue (so that the busy workers ask
    /// whether to hand over work at every step without taking the lock).
    idle: AtomicUsize,
    queued: AtomicUsize,
    workers: usize,
    /// [`Options::split_every`].
    every: u64,
    /// Some worker stopped (a bug, a limit): every worker stops.
    stop: AtomicBool,
    /// Executions of all workers so far.
    executions: AtomicU64,
    /// The first worker wants the others' help ([`Options::alone_for`]).
    released: AtomicBool,
}

impl Shared {
    fn new(workers: usize, every: u64) -> Self {
        Shared {
            every,
            queue: Mutex::new(Vec::new()),
            ready: Condvar::new(),
            idle: AtomicUsize::new(0),
            queued: AtomicUsize::new(0),
            workers,
            stop: AtomicBool::new(false),
            executions: AtomicU64::new(0),
            released: AtomicBool::new(false),
        }
    }

    /// Whether the workers other than the first may work.
    fn released(&self) -> bool {
        self.released.load(Ordering::Relaxed)
    }

    /// Lets the other workers work.
    fn release(&self) {
        let _q = self.queue.lock();
        self.released.store(true, Ordering::Relaxed);
        self.ready.notify_all();
    }

    /// Whether a worker waits for a job that nobody has handed over yet (or, with
    /// [`Options::split_every`], whether a search `steps` steps in hands work over).
    fn wanted(&self, steps: u64) -> bool {
        self.idle.load(Ordering::Relaxed) > self.queued.load(Ordering::Relaxed)
            || (self.every != 0 && steps.is_multiple_of(self.every))
    }

    fn push(&self, job: Job) {
        if let Ok(mut q) = self.queue.lock() {
            q.push(job);
            self.queued.fetch_add(1, Ordering::Relaxed);
            self.ready.notify_one();
        }
    }

    /// The next job, waiting for one; `None` when every worker waits (the search is over)
    /// or the search stopped.
    fn next(&self) -> Option<Job> {
        let mut q = self.queue.lock().ok()?;
        self.idle.fetch_add(1, Ordering::Relaxed);
        loop {
            if self.stop.load(Ordering::Relaxed) {
                self.ready.notify_all();
                return None;
            }
            if let Some(j) = q.pop() {
                self.queued.fetch_sub(1, Ordering::Relaxed);
                self.idle.fetch_sub(1, Ordering::Relaxed);
                return Some(j);
            }
            if self.idle.load(Ordering::Relaxed) == self.workers {
                self.ready.notify_all();
                return None;
            }
            q = self.ready.wait(q).ok()?;
        }
    }

    fn halt(&self) {
        self.stop.store(true, Ordering::Relaxed);
        let _q = self.queue.lock();
        self.ready.notify_all();
    }
}

/// How an execution ends at a point.
#[derive(Clone, Debug)]
enum Ending2 {
    Step(Ending),
    Deadlock(Vec<ThreadId>),
    Terminated,
    /// The threads that have not ended are blocked, but for one that only repeats itself
    /// ([`step::stutters`], [`Engine::spins`]): no deadlock, and nothing changes any more.
    Spins,
    DepthBound,
    /// Nothing allowed to move (a replay that ended early).
    Cut,
}

/// Variable `v` in a set of variables kept as 128 bits: several variables share a bit, so a
/// set built this way says "maybe" where it holds another variable of the same bit, never
/// "no" where it holds `v`.
fn var_bit(v: u32) -> u128 {
    1 << (v % 128)
}

/// Where point `d`'s steps start in the trace of the execution.
fn trace_offset<S>(nodes: &[Node<S>], d: usize) -> usize {
    nodes[..d]
        .iter()
        .map(|n| n.variants[n.current].steps.len())
        .sum()
}

/// Initial values of uninitialised memory: zero.
struct ZeroInit;

impl Oracle for ZeroInit {
    fn pick(&mut self, _: usize, _: &[(ThreadId, TransId)]) -> crate::interp::Choice {
        crate::interp::Choice::End
    }
    fn input(&mut self, _: crate::ir::Ty) -> i128 {
        0
    }
    fn initial(&mut self, _: VarId, _: usize, _: crate::ir::Ty) -> i128 {
        0
    }
}

impl Bug {
    /// The trace, one line per transition with source lines (the fair cycle marked), then what
    /// went wrong.
    pub fn show(&self, prog: &Program) -> String {
        let mut s = String::new();
        for (k, st) in self.steps.iter().enumerate() {
            let mut note = String::new();
            if st.skipped {
                note.push_str("  (subsumed by the schedule: not performed)");
            }
            if let Some((a, b)) = self.cycle {
                if k == a {
                    note.push_str("  <- the fair cycle starts");
                }
                if k + 1 == b {
                    note.push_str("  <- the fair cycle ends (back to the state before its start)");
                }
            }
            s.push_str(&prog.show_step(k, st.thread, st.transition, &st.writes, &st.inputs, &note));
        }
        s.push_str(&format!("{}\n", self.message));
        s
    }

    /// The inputs of the trace, in order.
    pub fn inputs(&self) -> Vec<i128> {
        self.steps
            .iter()
            .flat_map(|s| s.inputs.iter().copied())
            .collect()
    }
}
