//! Impact for multithreaded programs (McMillan's lazy abstraction with interpolants, extended
//! to threads as in Impara; seed 002, Sect. "Iterative model checking").
//!
//! This is the complete mode (the paper's ImparaC baseline): every thread is expanded at every
//! node, except where partial-order reduction lets one thread whose next step is invisible to
//! the others stand for all (`Thread::local_location`; such steps never close a loop, so every
//! cycle passes a fully expanded node). Labels are strengthened along infeasible paths to bad
//! states (error locations, deadlocks, undefined behaviour): the weakest precondition of the
//! path's suffix with inputs removed by quantifier elimination, interpolated at each node to a
//! disjunction of small cubes that the path's states imply (`Verifier::generalize`). After a
//! refinement the path is closed again (a strengthened node may now be covered), and forced
//! covering tries earlier nodes with the same control state. A path that is not infeasible is
//! turned into a concrete schedule and inputs and replayed on the interpreter: only a replayed
//! bug is reported as one.
//!
//! The iterative mode (Alg. 1) is in the second `impl` block below.

use crate::art::{Art, Control, NodeId};
use crate::encode::{Encoder, SymState, SymStep};
use crate::interp::{Execution, Outcome, Replay};
use crate::ir::*;
use crate::scheduler::{Scheduler, Turns, TurnsPhase};
use crate::smt::{Answer, Smt, Term};
use crate::witness::{self, Witness};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// What a covering must keep of the deterministic scheduler's phase ([`Verifier::phase`]).
type Phase = Option<<Turns as Scheduler>::Key>;

/// Options of a verification run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Give up (verdict unknown) after this long.
    pub timeout: Duration,
    /// Give up after this many ART nodes.
    pub max_nodes: usize,
    /// Per-query solver timeout in milliseconds.
    pub smt_timeout_ms: u32,
    /// Iterative mode: stop after the first safe IVR (what `synth prog.c` needs).
    pub stop_at_first_safe: bool,
    /// Iterative mode: how many loop rounds the deterministic scheduler lets a thread run
    /// before it switches to the next (at least 1).
    pub quantum: u32,
    /// Iterative mode: when a thread's turn ends, the scheduler gives the next turn back to
    /// the thread whose turn came before it, for up to this many turns of each of the two in a
    /// row, before the round robin goes on (0 and 1: round robin only). A schedule that keeps
    /// two threads alternating lets both stay on their cores when the program has more threads
    /// than cores (the enforcer's hand-offs between running threads are cheap, those to a
    /// thread the operating system has put to sleep are not).
    pub pair_turns: u32,
    /// The process ends when the run does: memory an engine still holds when the time limit
    /// is near is left to the end of the process instead of being freed (freeing the
    /// millions of shared terms of a large explicit search takes seconds, past the limit).
    pub exit_after: bool,
    /// Where the stateless search beside the engines ([`crate::scope`]) puts a bug as soon as
    /// it finds one, for a caller that must answer before the run returns (the time limit's
    /// alarm).
    pub bug_found: Option<crate::scope::Found>,
    /// Set where the search beside the engines has found a bug that every scheduler meets
    /// ([`crate::scope::Hunt::doomed`]): no safe schedule exists, and the iterative mode
    /// stops looking for one.
    pub doomed: Option<crate::scope::Doomed>,
    /// Try the thread-modular proof of safety for any number of threads first
    /// ([`crate::explicit::modular`]) where the thread bound limits the program. Its `safe`
    /// comes without a schedule: a caller that needs one turns it off.
    pub any_thread_count: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            timeout: Duration::from_secs(60),
            max_nodes: 200_000,
            smt_timeout_ms: 10_000,
            stop_at_first_safe: false,
            quantum: 1,
            pair_turns: 0,
            exit_after: false,
            bug_found: None,
            doomed: None,
            any_thread_count: true,
        }
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every execution under every schedule and input is safe and deadlock-free.
    Safe,
    /// Unsafe executions exist (a replayed counterexample), and a safe, fair, deadlock-free
    /// schedule exists (a checked IVR).
    PartiallySafe,
    /// No scheduler avoids the bugs: shown for programs without inputs, where every node of
    /// the ART is one concrete state, and by a bug on whose execution no scheduler has a
    /// choice ([`crate::unavoidable`]).
    Unsafe,
    /// Complete mode: a replayed execution reaches an error or a deadlock (complete mode does
    /// not look for a safe schedule).
    BugFound,
    /// Budget exhausted or a question the solver could not answer; the reason.
    Unknown(String),
}

impl Verdict {
    /// The verdict's name: `safe`, `partially safe`, `unsafe`, `bug found` or `unknown`.
    pub fn word(&self) -> &'static str {
        match self {
            Verdict::Safe => "safe",
            Verdict::PartiallySafe => "partially safe",
            Verdict::Unsafe => "unsafe",
            Verdict::BugFound => "bug found",
            Verdict::Unknown(_) => "unknown",
        }
    }
}

/// A bug with the concrete execution that shows it.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Counterexample {
    /// Schedule, inputs and initial values.
    pub replay: Replay,
    /// The interpreter's run of it.
    pub execution: Execution,
    /// Where the bug was found, when not in the program verified: the program lowered with
    /// at most this many threads per start function ([`crate::scope`]). The bug occurs in
    /// the program without any thread bound too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threads_per_function: Option<usize>,
    /// That program (not in the file form: lowered again from the source).
    #[serde(skip)]
    pub scope: Option<std::sync::Arc<Program>>,
}

impl Counterexample {
    /// A bug of the program verified.
    pub fn new(replay: Replay, execution: Execution) -> Counterexample {
        Counterexample {
            replay,
            execution,
            threads_per_function: None,
            scope: None,
        }
    }

    /// The program the execution runs on: its small scope, or `verified`.
    pub fn program<'a>(&'a self, verified: &'a Program) -> &'a Program {
        self.scope.as_deref().unwrap_or(verified)
    }
}

/// The result of a run.
#[derive(Clone, Debug)]
pub struct Report {
    /// The verdict.
    pub verdict: Verdict,
    /// The bug, if one was found.
    pub counterexample: Option<Counterexample>,
    /// ART nodes.
    pub nodes: usize,
    /// Solver checks.
    pub solver_calls: u64,
    /// Refinements that strengthened labels.
    pub refinements: u64,
    /// Wall time.
    pub time: Duration,
    /// IVRs emitted (safe ones and counterexamples).
    pub ivrs: usize,
    /// Time to the first safe IVR.
    pub first_safe_ivr: Option<Duration>,
    /// Every counterexample found (iterative mode), in order.
    pub counterexamples: Vec<Counterexample>,
    /// Whether an execution the verdict covers may meet the thread bound (a creation refused
    /// for it): false only where a complete proof shows none does, and then a `safe` verdict
    /// holds without the bound.
    pub meets_bound: bool,
    /// The thread-modular proof that the verdict `safe` holds for any number of threads
    /// ([`crate::explicit::modular`]), where one decided it.
    pub any_thread_count: Option<crate::explicit::modular::Proof>,
}

/// What an iteration produced (seed 002, Alg. 1).
#[derive(Clone, Debug)]
pub enum IvrKind {
    /// A safe, fair, deadlock-free ART, as the IVR checker accepted it: the schedules it
    /// induces are safe for every input.
    Safe(Box<crate::check::CheckedArt>),
    /// A concrete execution that reaches an error or a deadlock.
    Counterexample(Box<Counterexample>),
}

/// An incomplete verification result, as emitted after an iteration.
#[derive(Clone, Debug)]
pub struct Ivr {
    /// 1-based number of the IVR.
    pub index: usize,
    /// The result.
    pub kind: IvrKind,
    /// Time since the start.
    pub time: Duration,
    /// ART nodes so far (the whole ART, not only the IVR).
    pub art_nodes: usize,
    /// Solver checks so far.
    pub solver_calls: u64,
}

/// Figures for a live progress display.
#[derive(Clone, Debug)]
pub struct Progress {
    /// Time since the start.
    pub time: Duration,
    /// ART nodes.
    pub art_nodes: usize,
    /// Solver checks.
    pub solver_calls: u64,
    /// IVRs emitted.
    pub ivrs: usize,
}

/// A progress callback.
pub type ProgressFn = Box<dyn FnMut(&Progress)>;

/// What checking a path against bad states found (the first half of Impact's refinement;
/// [`Verifier::strengthen`] is the second).
enum PathCheck {
    /// The path cannot reach the bad states. For each node from the first whose label does
    /// not yet exclude them, root first: the formula its label must imply (an interpolant,
    /// or the exact weakest precondition of the rest of the path).
    Infeasible(Vec<(NodeId, Term)>),
    /// A concrete execution (replayed) reaches the bad states.
    Feasible,
    /// Cannot tell.
    Unknown(String),
}

/// The verifier state for one program.
pub struct Verifier<'p> {
    prog: &'p Program,
    enc: Encoder<'p>,
    smt: Smt,
    art: Art,
    ranges: Term,
    opts: Options,
    refinements: u64,
    /// Symbolic execution of each node's path, indexed by node.
    syms: Vec<Sym>,
    /// Each transition executed from the identity state (guards, UB, weakest preconditions).
    id_steps: RefCell<HashMap<(ThreadId, TransId), Rc<SymStep>>>,
    /// The initial state over the current variables.
    init: Term,
    /// Whether the iterative algorithm is running (coverings must keep cycles fair).
    iterative: bool,
    /// Nodes whose thread choice must be made again (a chosen thread was forbidden).
    pending: Vec<NodeId>,
    /// Every choice at the root leads to a counterexample (or to a node left undecided).
    root_lost: bool,
    /// Why nodes were left undecided (the iterative mode): a question about a node that the
    /// solver could not answer does not end the run; the schedule avoids the node, as it
    /// avoids a bug, and the run goes on. No verdict then claims what such a node would
    /// decide (`safe`, `unsafe`).
    undecided: Vec<String>,
    /// Called now and then with the figures.
    progress: Option<ProgressFn>,
    /// When `progress` was last called.
    last_progress: Instant,
    /// IVRs emitted so far.
    ivr_count: usize,
    /// Iterations started by [`Verifier::new_schedule_start`].
    starts: u32,
}

/// The symbolic state at a node and the constraint of the edge into it.
struct Sym {
    state: SymState,
    cond: Term,
    /// The deterministic scheduler's phase at the node.
    phase: TurnsPhase,
}

impl<'p> Verifier<'p> {
    /// A verifier for a program.
    pub fn new(prog: &'p Program, opts: Options) -> Self {
        let enc = Encoder::new(prog);
        let ranges = enc.ranges(&enc.identity());
        let mut locs = vec![None; prog.threads.len()];
        locs[0] = Some(prog.threads[0].entry);
        let s0 = enc.renamed("@0");
        let root = Sym {
            cond: Term::and([enc.initial(&s0), enc.ranges(&s0)]),
            state: s0,
            phase: turns(&opts, prog.threads.len(), false).start(),
        };
        let init = enc.initial(&enc.identity());
        Verifier {
            syms: vec![root],
            iterative: false,
            pending: Vec::new(),
            root_lost: false,
            undecided: Vec::new(),
            progress: None,
            last_progress: Instant::now(),
            ivr_count: 0,
            starts: 0,
            id_steps: RefCell::new(HashMap::new()),
            init,
            prog,
            smt: Smt::new(opts.smt_timeout_ms),
            art: Art::new(Control { locs, atomic: None }),
            enc,
            ranges,
            opts,
            refinements: 0,
        }
    }

    /// Reports progress to `f` about five times a second while running.
    pub fn set_progress(&mut self, f: ProgressFn) {
        self.progress = Some(f);
    }

    fn tick(&mut self, start: Instant) {
        if self.last_progress.elapsed() < Duration::from_millis(200) {
            return;
        }
        self.last_progress = Instant::now();
        let p = Progress {
            time: start.elapsed(),
            art_nodes: self.art.len(),
            solver_calls: self.smt.stats.checks,
            ivrs: self.ivr_count,
        };
        if let Some(f) = &mut self.progress {
            f(&p);
        }
    }

    /// The ART built so far.
    pub fn art(&self) -> &Art {
        &self.art
    }

    fn kind_at(&self, c: &Control, t: usize) -> Option<LocKind> {
        c.locs[t].map(|l| self.prog.threads[t].locations[l.0 as usize].kind)
    }

    /// Whether some thread is at its error location.
    fn is_error(&self, c: &Control) -> bool {
        (0..c.locs.len()).any(|t| self.kind_at(c, t) == Some(LocKind::Error))
    }

    /// Whether the execution has ended (halt or discard reached).
    fn is_end(&self, c: &Control) -> bool {
        (0..c.locs.len())
            .any(|t| matches!(self.kind_at(c, t), Some(LocKind::Halt | LocKind::Discard)))
    }

    /// Threads that may move at a control state.
    fn movable(&self, c: &Control) -> Vec<ThreadId> {
        c.movable(self.prog)
    }

    /// Whether every started thread has returned.
    fn all_exited(&self, c: &Control) -> bool {
        (0..c.locs.len()).all(|t| matches!(self.kind_at(c, t), None | Some(LocKind::Exit)))
    }

    fn successor(&self, c: &Control, t: ThreadId, tr: &Transition) -> Control {
        let mut n = c.clone();
        n.locs[t.0 as usize] = Some(tr.dst);
        for op in &tr.ops {
            match op {
                Op::Spawn { thread, .. } => {
                    n.locs[thread.0 as usize] = Some(self.prog.thread(*thread).entry)
                }
                Op::AtomicBegin => n.atomic = Some(t),
                Op::AtomicEnd => n.atomic = None,
                _ => {}
            }
        }
        if self.prog.thread(t).locations[tr.dst.0 as usize].kind == LocKind::Exit
            && n.atomic == Some(t)
        {
            n.atomic = None;
        }
        n
    }

    /// Transition `tr` of thread `t` executed from the identity state (computed once).
    fn id_step(&self, t: ThreadId, tr: &Transition) -> Rc<SymStep> {
        self.id_steps
            .borrow_mut()
            .entry((t, tr.id))
            .or_insert_with(|| Rc::new(self.enc.step(tr, &self.enc.identity())))
            .clone()
    }

    /// `∨` of the guards of a thread's transitions at its location.
    fn enabled(&self, c: &Control, t: ThreadId) -> Term {
        let Some(l) = c.locs[t.0 as usize] else {
            return Term::False;
        };
        Term::or(
            self.prog
                .thread(t)
                .outgoing(l)
                .map(|tr| self.id_step(t, tr).guard.clone()),
        )
    }

    fn sat(&mut self, ts: &[Term]) -> Option<bool> {
        let mut all = vec![self.ranges.clone()];
        all.extend_from_slice(ts);
        match self.smt.check_terms(&all) {
            Answer::Sat => Some(true),
            Answer::Unsat => Some(false),
            Answer::Unknown(_) => None,
        }
    }

    fn implies(&mut self, a: &Term, b: &Term) -> Option<bool> {
        let prem = Term::and([self.ranges.clone(), a.clone()]);
        self.smt.implies(&prem, b)
    }

    /// An answer the run needs: the solver's `Unknown` stops it, naming what was asked.
    fn decided(&self, answer: Option<bool>, what: &str) -> Result<bool, Stop> {
        answer.ok_or_else(|| {
            Stop::Unknown(format!(
                "solver could not decide {what}: {}",
                self.smt.last_unknown
            ))
        })
    }

    /// Whether `v`'s label is satisfiable.
    fn has_states(&mut self, v: NodeId) -> Result<bool, Stop> {
        let label = self.art.node(v).label.clone();
        let a = self.sat(std::slice::from_ref(&label));
        self.decided(a, "a label")
    }

    /// At a node at an error location: a replayed counterexample, or the labels are
    /// strengthened to exclude the node (over-approximation made its path look feasible).
    fn error_node(
        &mut self,
        v: NodeId,
        work: &mut Vec<NodeId>,
    ) -> Result<Option<Counterexample>, Stop> {
        match self.concretize(&self.art.path(v), &Term::True) {
            Ok(c) => Ok(Some(c)),
            Err(_) => {
                self.exclude(v, Term::True, work)?;
                Ok(None)
            }
        }
    }

    /// The replayed deadlock at `v`, where some state on the path enables none of `movable`.
    fn deadlock(&mut self, v: NodeId, movable: &[ThreadId]) -> Result<Counterexample, Stop> {
        let control = self.art.node(v).control.clone();
        let none = Term::not(Term::or(movable.iter().map(|t| self.enabled(&control, *t))));
        self.concretize(&self.art.path(v), &none)
            .map_err(Stop::Unknown)
    }

    /// Strengthens `v`'s label so that it implies that one of `ts` is enabled (the caller
    /// knows that every state on the path enables one).
    fn label_shows_enabled(
        &mut self,
        v: NodeId,
        ts: &[ThreadId],
        work: &mut Vec<NodeId>,
    ) -> Result<(), Stop> {
        let control = self.art.node(v).control.clone();
        if ts.iter().any(|&t| !self.may_block(&control, t)) {
            return Ok(());
        }
        let none = Term::not(Term::or(ts.iter().map(|t| self.enabled(&control, *t))));
        let label = self.art.node(v).label.clone();
        if self.sat(&[label, none.clone()]) != Some(false) {
            self.exclude(v, none, work)?;
        }
        Ok(())
    }

    /// Runs complete verification. A program that reads thread ids or addresses as numbers
    /// is not claimed safe ([`crate::engine::without_safe_claims`]).
    pub fn run(&mut self) -> Report {
        let r = self.run_complete();
        match &self.prog.observes_numbering {
            Some(why) => crate::engine::without_safe_claims(r, why, 0),
            None => r,
        }
    }

    /// [`Verifier::run`], whatever the program reads.
    fn run_complete(&mut self) -> Report {
        let start = Instant::now();
        self.smt.set_deadline(start + self.opts.timeout);
        let verdict = self.explore(start);
        let (verdict, cex) = match verdict {
            // A proof is only reported after the independent checker accepted the ART.
            Ok(()) => {
                match crate::check::check_complete(self.prog, &self.art, self.opts.smt_timeout_ms) {
                    Ok(()) => (Verdict::Safe, None),
                    Err(r) => (
                        Verdict::Unknown(format!(
                            "the ART checker rejected node {}: {}",
                            r.node.0, r.reason
                        )),
                        None,
                    ),
                }
            }
            Err(Stop::Bug(c)) => (Verdict::BugFound, Some(*c)),
            Err(Stop::Unknown(r)) => (Verdict::Unknown(r), None),
        };
        let meets_bound = verdict != Verdict::Safe || self.art.refuses_creation(self.prog);
        Report {
            verdict,
            meets_bound,
            any_thread_count: None,
            counterexample: cex,
            nodes: self.art.len(),
            solver_calls: self.smt.stats.checks,
            refinements: self.refinements,
            time: start.elapsed(),
            ivrs: 0,
            first_safe_ivr: None,
            counterexamples: Vec::new(),
        }
    }

    /// The nodes of the path from the root to `v`, the root first.
    fn path(&self, v: NodeId) -> Vec<NodeId> {
        let mut out = Vec::new();
        let mut x = Some(v);
        while let Some(n) = x {
            out.push(n);
            x = self.art.node(n).parent.map(|p| p.0);
        }
        out.reverse();
        out
    }

    /// The constraints of the path from the root to `v` over the renamed initial state and
    /// the inputs (`v`'s first).
    fn path_cond(&self, v: NodeId) -> Vec<Term> {
        self.path(v)
            .into_iter()
            .rev()
            .map(|n| self.syms[n.0 as usize].cond.clone())
            .collect()
    }

    fn sat_path(&mut self, v: NodeId, extra: &[Term]) -> Option<bool> {
        // (A node's constraint never changes and node ids are not reused: the solver may
        // keep the constraints of the path it checked last.)
        let path = self.path(v);
        let frames: Vec<(u64, &Term)> = path
            .iter()
            .map(|n| (n.0 as u64, &self.syms[n.0 as usize].cond))
            .collect();
        match self.smt.check_path(&frames, extra) {
            Answer::Sat => Some(true),
            Answer::Unsat => Some(false),
            Answer::Unknown(_) => None,
        }
    }

    /// Excludes `bad` from the labels on the path to `v` (the caller knows the path cannot
    /// reach it).
    fn exclude(&mut self, v: NodeId, bad: Term, work: &mut Vec<NodeId>) -> Result<(), Stop> {
        match self.check_path(v, bad) {
            PathCheck::Infeasible(labels) => {
                let changed = self.strengthen(labels, work);
                self.refinements += 1;
                // Impact's close after refine: a strengthened label may now imply the label
                // of an earlier node with the same control state; the topmost such node
                // covers its whole subtree.
                for u in changed {
                    if !self.art.is_covered(u) && self.cover_by_earlier(u, work)? {
                        break;
                    }
                }
                Ok(())
            }
            // The path was shown unable to reach `bad`; a witness now means the two encodings
            // disagree (over-approximation): do not call that a bug.
            PathCheck::Feasible => Err(Stop::Unknown(
                "a state excluded by symbolic execution was not excluded by the labels".into(),
            )),
            PathCheck::Unknown(r) => Err(Stop::Unknown(r)),
        }
    }

    fn explore(&mut self, start: Instant) -> Result<(), Stop> {
        let mut work = vec![self.art.root()];
        while let Some(v) = work.pop() {
            self.tick(start);
            if start.elapsed() > self.opts.timeout {
                return Err(Stop::Unknown("the time limit was reached".into()));
            }
            if self.art.len() > self.opts.max_nodes {
                return Err(Stop::Unknown(format!(
                    "more than {} ART nodes",
                    self.opts.max_nodes
                )));
            }
            if self.art.is_covered(v) || !self.has_states(v)? {
                continue;
            }
            let control = self.art.node(v).control.clone();
            if self.is_error(&control) {
                // Every node is reached by a feasible path: concretize it.
                if let Some(c) = self.error_node(v, &mut work)? {
                    return Err(Stop::Bug(Box::new(c)));
                }
                continue;
            }
            if self.is_end(&control) || self.all_exited(&control) {
                continue;
            }
            if !self.art.node(v).children.is_empty() {
                // Already expanded (re-examined after uncovering): its children are in the tree.
                if self.close(v, &mut work)? {
                    continue;
                }
                for e in self.art.node(v).children.clone() {
                    work.push(e.child);
                }
                continue;
            }
            if self.close(v, &mut work)? {
                continue;
            }
            let movable = self.movable(&control);
            // Deadlock: a started thread has not returned and no thread can move.
            if !self.always_enabled(v, &movable)? {
                return Err(Stop::Bug(Box::new(self.deadlock(v, &movable)?)));
            }
            self.label_shows_enabled(v, &movable, &mut work)?;
            // Partial-order reduction: a thread whose next step is invisible to the others
            // and cannot block stands for all (`Thread::local_location`). Such steps never
            // close a loop, so every cycle passes a node that expands every thread.
            let reduced = movable.iter().copied().find(|&t| {
                let l = control.locs[t.0 as usize].expect("movable");
                self.prog.thread(t).local_location(l)
            });
            let expand = reduced.map_or(movable, |t| vec![t]);
            // Expand: a child for each transition some state on this path can take; the
            // others are excluded from the label.
            for &t in expand.iter().rev() {
                self.expand_thread(v, t, &mut work)?;
            }
        }
        Ok(())
    }

    /// Expands thread `t` fully at `v`: a child for each transition that some state on the
    /// path to `v` can take (pushed on `work`); the label is strengthened to exclude the
    /// others and undefined behaviour.
    fn expand_thread(
        &mut self,
        v: NodeId,
        t: ThreadId,
        work: &mut Vec<NodeId>,
    ) -> Result<(), Stop> {
        let control = self.art.node(v).control.clone();
        let state = self.syms[v.0 as usize].state.clone();
        let l = control.locs[t.0 as usize].expect("started");
        let trs: Vec<Transition> = self.prog.thread(t).outgoing(l).cloned().collect();
        for tr in trs.iter().rev() {
            let st = self.enc.step(tr, &state);
            if self.id_step(t, tr).undefined != Term::False {
                let ub = [
                    st.guard.clone(),
                    st.undefined.clone(),
                    st.input_ranges.clone(),
                ];
                if self.sat_path(v, &ub) != Some(false) {
                    // A memory error that replays is a bug; anything else is beyond the
                    // engine.
                    let mut steps: Vec<(ThreadId, TransId)> = self
                        .art
                        .path(v)
                        .iter()
                        .skip(1)
                        .map(|(_, e)| e.expect("edge"))
                        .collect();
                    steps.push((t, tr.id));
                    if let Witness::Replayed(c) =
                        witness::fault_witness(self.prog, &self.enc, &mut self.smt, &steps)
                    {
                        // (The replay faults at this very step, not before it.)
                        let here = matches!(c.execution.outcome,
                            Outcome::Undefined { thread, transition, memory: true, .. }
                                if (thread, transition) == (t, tr.id))
                            && c.execution.steps.len() + 1 == steps.len();
                        if here {
                            return Err(Stop::Bug(Box::new(c)));
                        }
                    }
                    let pos = tr
                        .span
                        .as_ref()
                        .map(|s| self.prog.position(s))
                        .unwrap_or_default();
                    return Err(Stop::Unknown(match tr.model_limit(&self.prog.vars) {
                        Some(limit) => {
                            format!("a limit of the model may be reachable at {pos}: {limit}")
                        }
                        None => format!(
                            "undefined behaviour (signed overflow, division by zero, index out of bounds or invalid pointer) may be reachable at {pos}"
                        ),
                    }));
                }
                // Impossible on this path: the label must say so too.
                let id = self.id_step(t, tr);
                let bad = Term::exists(
                    id.inputs.clone(),
                    Term::and([
                        id.guard.clone(),
                        id.undefined.clone(),
                        id.input_ranges.clone(),
                    ]),
                );
                let lab = self.art.node(v).label.clone();
                if self.sat(&[lab, bad.clone()]) != Some(false) {
                    self.exclude(v, bad, work)?;
                }
            }
            let cond = Term::and([st.guard.clone(), st.input_ranges.clone()]);
            let feasible = self.sat_path(v, std::slice::from_ref(&cond));
            if self.decided(feasible, "a guard")? {
                let c = self.successor(&control, t, tr);
                let w = self.art.add_child(v, t, tr.id, c);
                let phase = self
                    .scheduler()
                    .after(&self.syms[v.0 as usize].phase, t, tr);
                self.syms.push(Sym {
                    state: st.post,
                    cond: Term::and([cond, Term::not(st.undefined)]),
                    phase,
                });
                debug_assert_eq!(self.syms.len(), self.art.len());
                work.push(w);
            } else {
                // Disabled on this path: make the label say so.
                let id = self.id_step(t, tr);
                let enabled = Term::exists(
                    id.inputs.clone(),
                    Term::and([id.guard.clone(), id.input_ranges.clone()]),
                );
                let lab = self.art.node(v).label.clone();
                if self.sat(&[lab, enabled.clone()]) != Some(false) {
                    self.exclude(v, enabled, work)?;
                }
            }
        }
        self.art.mark_expanded(v, t);
        Ok(())
    }

    /// `∨` of the guards of a thread's transitions at its location, in a symbolic state.
    fn enabled_in(&self, c: &Control, t: ThreadId, s: &SymState) -> Term {
        let Some(l) = c.locs[t.0 as usize] else {
            return Term::False;
        };
        Term::or((self.prog.thread(t).outgoing(l)).map(|tr| self.enc.step(tr, s).enabled()))
    }

    /// Tries to cover `v` by an earlier node with the same control state.
    fn close(&mut self, v: NodeId, work: &mut Vec<NodeId>) -> Result<bool, Stop> {
        if self.cover_by_earlier(v, work)? {
            return Ok(true);
        }
        self.force_cover(v, work)
    }

    /// Covers `v` by an earlier node with the same control state whose label `v`'s label
    /// implies (and, when iterating, with every new cycle fair).
    fn cover_by_earlier(&mut self, v: NodeId, work: &mut Vec<NodeId>) -> Result<bool, Stop> {
        let control = self.art.node(v).control.clone();
        let label = self.art.node(v).label.clone();
        let phase = self.phase(v);
        let cands: Vec<NodeId> = self
            .art
            .same_control(&control)
            .iter()
            .copied()
            .filter(|w| *w < v && self.phase(*w) == phase)
            .collect();
        for w in cands {
            if self.art.is_covered(w) || self.art.is_ancestor(v, w) || self.art.node(w).removed {
                continue;
            }
            let lw = self.art.node(w).label.clone();
            let a = self.implies(&label, &lw);
            if self.decided(a, "a covering")? && (!self.iterative || self.fair_cover(v, w)?) {
                let freed = self.art.cover(v, w);
                work.extend(freed);
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Forced covering (McMillan): when every state on `v`'s path satisfies the label of an
    /// earlier node `w` with the same control state, strengthens `v`'s label to show it, and
    /// covers.
    fn force_cover(&mut self, v: NodeId, work: &mut Vec<NodeId>) -> Result<bool, Stop> {
        let control = self.art.node(v).control.clone();
        let phase = self.phase(v);
        let cands: Vec<NodeId> = self
            .art
            .same_control(&control)
            .iter()
            .copied()
            .filter(|w| *w < v && !self.art.is_covered(*w) && !self.art.node(*w).removed)
            .filter(|w| self.phase(*w) == phase)
            .take(FORCED_COVER_TRIES)
            .collect();
        for w in cands {
            let lw = self.art.node(w).label.clone();
            let here = self.enc.instantiate(&lw, &self.syms[v.0 as usize].state);
            if self.sat_path(v, &[Term::not(here)]) == Some(false) {
                self.exclude(v, Term::not(lw), work)?;
                if self.art.is_covered(v) {
                    // Closing the refined path covered `v` or an ancestor already.
                    return Ok(true);
                }
                // The refinement may have strengthened w's label too (w on v's path): cover
                // only if v's label implies w's label as it is now.
                if self.art.is_covered(w) {
                    continue;
                }
                let label = self.art.node(v).label.clone();
                let lw = self.art.node(w).label.clone();
                if self.implies(&label, &lw) == Some(true)
                    && (!self.iterative || self.fair_cover(v, w)?)
                {
                    let freed = self.art.cover(v, w);
                    work.extend(freed);
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    /// Whether the path to `v` can reach `bad` at `v`: a concrete execution that does, or the
    /// formulas that the labels on the path must imply to exclude it.
    fn check_path(&mut self, v: NodeId, bad: Term) -> PathCheck {
        let path = self.art.path(v);
        let n = path.len();
        // ψ_{n-1} = ¬bad; ψ_i = wp(tr_i, ψ_{i+1}) with inputs eliminated. Going back stops at
        // the first node whose label already implies ψ_i: the labels above it keep the Hoare
        // triples (label ∧ tr ⇒ ψ_{i+1}).
        let mut psi: Vec<Option<Term>> = vec![None; n];
        psi[n - 1] = Some(Term::not(bad.clone()));
        let mut top = n - 1;
        let mut generalizing = !self.iterative;
        // First node whose label is strengthened.
        let start = loop {
            let node = path[top].0;
            let label = self.art.node(node).label.clone();
            let mut p = psi[top].clone().expect("computed");
            match self.implies(&label, &p) {
                Some(true) => break top + 1,
                Some(false) => {}
                None => {
                    return PathCheck::Unknown(format!(
                        "solver could not decide a label: {}",
                        self.smt.last_unknown
                    ))
                }
            }
            // Interpolate: a simpler formula between the states the path reaches here and
            // the weakest precondition. Once that fails (the path may reach `bad`, or the
            // solver gave up), the rest of the path keeps exact preconditions. Only in the
            // complete mode, where labels must generalise over every schedule to be covered;
            // the iterative mode follows few schedules and the queries cost it more than they
            // save (bigshot_p: twice the time).
            if generalizing {
                match self.generalize(node, &p) {
                    Some(g) => {
                        p = g;
                        psi[top] = Some(p.clone());
                    }
                    None => generalizing = false,
                }
            }
            if top == 0 {
                let init = self.init.clone();
                match self.implies(&init, &p) {
                    Some(true) => break 0,
                    Some(false) => {
                        return match self.concretize(&path, &bad) {
                            Ok(_) => PathCheck::Feasible,
                            Err(why) => PathCheck::Unknown(why),
                        }
                    }
                    None => {
                        return PathCheck::Unknown(format!(
                            "solver could not decide path feasibility: {}",
                            self.smt.last_unknown
                        ))
                    }
                }
            }
            let (t, tr) = path[top].1.expect("non-root has an edge");
            let trans = self.prog.thread(t).transition(tr);
            let wp = self.enc.wp_of(&self.id_step(t, trans), &p);
            let q = match self.smt.eliminate_quantifiers(&wp) {
                Some(q) => q,
                None => return PathCheck::Unknown("quantifier elimination failed".into()),
            };
            top -= 1;
            psi[top] = Some(self.smt.simplify(&q));
        };
        PathCheck::Infeasible(
            (start..n)
                .map(|i| (path[i].0, psi[i].clone().expect("computed")))
                .collect(),
        )
    }

    /// Conjoins each node's formula to its label; the nodes whose labels changed, in the
    /// order given. Coverings by a node whose label changed are undone, and the nodes they
    /// covered go back to `work`.
    fn strengthen(&mut self, labels: Vec<(NodeId, Term)>, work: &mut Vec<NodeId>) -> Vec<NodeId> {
        let mut changed = Vec::new();
        for (node, p) in labels {
            let old = self.art.node(node).label.clone();
            let new = self.smt.simplify(&Term::and([old.clone(), p]));
            if new != old {
                changed.push(node);
            }
            work.extend(self.art.set_label(node, new));
        }
        changed
    }

    /// An interpolant between the states the path to `v` reaches and `psi` (which they all
    /// satisfy): a disjunction of small cubes over `psi`'s atoms, each implied by some of the
    /// path's states and implying `psi`. `None` when the path reaches a state outside `psi`,
    /// `psi` has quantifiers or too many atoms, or the solver cannot tell.
    fn generalize(&mut self, v: NodeId, psi: &Term) -> Option<Term> {
        let mut atoms = Vec::new();
        if !psi.atoms(&mut atoms) || atoms.len() > MAX_ATOMS {
            return None;
        }
        if atoms.len() <= 1 {
            // Nothing simpler to find.
            return Some(psi.clone());
        }
        let state = self.syms[v.0 as usize].state.clone();
        let here: Vec<Term> = atoms
            .iter()
            .map(|a| self.enc.instantiate(a, &state))
            .collect();
        let pc = self.path_cond(v);
        let not_psi = Term::not(psi.clone());
        let mut cubes: Vec<Term> = Vec::new();
        for _ in 0..MAX_CUBES {
            // A state on the path that no cube describes yet.
            self.smt.push();
            for c in &pc {
                self.smt.assert(c);
            }
            let covered = self.enc.instantiate(&Term::or(cubes.clone()), &state);
            self.smt.assert(&Term::not(covered));
            let r = self.smt.check();
            let values = if r == Answer::Sat {
                self.smt.eval_bools(&here)
            } else {
                None
            };
            self.smt.pop();
            match r {
                Answer::Unsat => return Some(Term::or(cubes)),
                Answer::Sat => {}
                Answer::Unknown(_) => return None,
            }
            let lits: Vec<Term> = atoms
                .iter()
                .zip(values?)
                .map(|(a, b)| if b { a.clone() } else { Term::not(a.clone()) })
                .collect();
            // The literals that imply `psi`: an unsat core, then dropped one at a time.
            self.smt.push();
            self.smt.assert(&not_psi);
            let (r, core) = self.smt.check_core(&lits);
            let mut keep: Vec<Term> = core.into_iter().map(|i| lits[i].clone()).collect();
            if r == Answer::Unsat && keep.len() > 2 {
                let mut i = 0;
                while i < keep.len() && keep.len() > 1 {
                    let mut fewer = keep.clone();
                    fewer.remove(i);
                    if self.smt.check_terms(&fewer) == Answer::Unsat {
                        keep = fewer;
                    } else {
                        i += 1;
                    }
                }
            }
            self.smt.pop();
            if r != Answer::Unsat {
                return None;
            }
            cubes.push(Term::and(keep));
        }
        None
    }

    /// Finds inputs and initial values that drive the path to a bad state, and replays them
    /// ([`crate::witness`]); why not, when that fails.
    fn concretize(
        &mut self,
        path: &[(NodeId, Option<(ThreadId, TransId)>)],
        bad: &Term,
    ) -> Result<Counterexample, String> {
        let steps: Vec<(ThreadId, TransId)> =
            path.iter().skip(1).map(|(_, e)| e.expect("edge")).collect();
        match witness::witness(self.prog, &self.enc, &mut self.smt, &steps, bad) {
            Witness::Replayed(c) => match &c.execution.outcome {
                Outcome::Undefined { memory: false, .. } => Err(format!(
                    "undefined behaviour is reachable {}",
                    self.prog.show_undefined(&c.execution)
                )),
                _ => Ok(c),
            },
            Witness::Infeasible => Err(
                "the error path is infeasible but its weakest precondition did not show it".into(),
            ),
            Witness::Unknown(why) => Err(why),
        }
    }
}

/// The deterministic scheduler of the options' quantum and pair turns (pair turns only in
/// the iterative mode) for `threads` threads.
fn turns(opts: &Options, threads: usize, iterative: bool) -> Turns {
    Turns {
        quantum: opts.quantum.max(1),
        pair_turns: if iterative { opts.pair_turns } else { 0 },
        threads,
    }
}

/// Interpolation gives up on formulas with more atoms than this.
const MAX_ATOMS: usize = 48;
/// Interpolation gives up when the path's states need more cubes than this.
const MAX_CUBES: usize = 8;

/// How many earlier nodes a node tries to be force-covered by.
const FORCED_COVER_TRIES: usize = 2;

enum Stop {
    Bug(Box<Counterexample>),
    Unknown(String),
}

/// The iterative algorithm (seed 002, Alg. 1).
impl Verifier<'_> {
    /// Runs the iterative algorithm: each iteration that changes the ART yields an IVR (a
    /// safe one, checked by [`crate::check::check_ivr`] before it is handed to `sink`, or a
    /// counterexample). Stops when nothing is left to explore, after `max_ivrs` IVRs, or when
    /// the budget runs out.
    pub fn run_iterative(&mut self, max_ivrs: usize, sink: &mut dyn FnMut(&Ivr)) -> Report {
        let start = Instant::now();
        self.iterative = true;
        self.smt.set_deadline(start + self.opts.timeout);
        let mut ivrs = 0;
        let mut first_safe = None;
        let mut cexs: Vec<Counterexample> = Vec::new();
        let mut last_safe_is_final = false;
        // The bug of `cexs` that no scheduler avoids.
        let mut unavoidable = None;
        self.pending.push(self.art.root());
        let end: Result<bool, String> = loop {
            if ivrs >= max_ivrs {
                break Err(format!("stopped after {ivrs} IVRs (--ivrs)"));
            }
            let mut work: Vec<NodeId> = std::mem::take(&mut self.pending);
            let mut at_start = None;
            if work.is_empty() {
                match self.new_schedule_start(&mut work) {
                    Ok(true) => {}
                    Ok(false) => break Ok(true),
                    Err(Stop::Unknown(r)) => break Err(r),
                    Err(Stop::Bug(c)) => at_start = Some(c),
                }
            }
            let found = match at_start {
                Some(c) => Some(c),
                None => match self.iteration(&mut work, start) {
                    Ok(f) => f,
                    Err(Stop::Unknown(r)) => break Err(r),
                    Err(Stop::Bug(c)) => Some(c),
                },
            };
            self.pending.append(&mut work);
            if let Some(c) = &found {
                ivrs += 1;
                last_safe_is_final = false;
                self.emit(ivrs, IvrKind::Counterexample(c.clone()), start, sink);
                // A bug no scheduler avoids ends the search for a safe schedule.
                if first_safe.is_none()
                    && crate::unavoidable::unavoidable(self.prog, &c.execution).is_ok()
                {
                    unavoidable = Some(cexs.len());
                }
            }
            if self.root_lost || unavoidable.is_some() {
                cexs.extend(found.map(|c| *c));
                break Ok(false);
            }
            match found {
                Some(c) => cexs.push(*c),
                None => {
                    let ivr = self.current_ivr();
                    let t = self.opts.smt_timeout_ms;
                    let ivr = match crate::check::check_owned_ivr(self.prog, ivr, t, None) {
                        Ok(ivr) => Box::new(ivr),
                        Err(r) => {
                            break Err(format!(
                                "the IVR checker rejected the next IVR at node {}: {}",
                                r.node.0, r.reason
                            ))
                        }
                    };
                    ivrs += 1;
                    last_safe_is_final = true;
                    first_safe.get_or_insert(start.elapsed());
                    self.emit(ivrs, IvrKind::Safe(ivr), start, sink);
                    if self.opts.stop_at_first_safe {
                        break Err("stopped at the first safe IVR".into());
                    }
                }
            }
        };
        let safe_ivr = first_safe.is_some();
        let undecided = self.undecided.first().map(|first| {
            format!(
                "{} node(s) left undecided, which the schedules avoid (first: {first})",
                self.undecided.len()
            )
        });
        let waiter_choice = self.prog.signal_chooses_waiter();
        let verdict = match end {
            _ if unavoidable.is_some() => Verdict::Unsafe,
            Ok(_) if undecided.is_some() && cexs.is_empty() => {
                Verdict::Unknown(undecided.clone().expect("some"))
            }
            // Nothing left to explore.
            Ok(true) if cexs.is_empty() => {
                match crate::check::check_complete(self.prog, &self.art, self.opts.smt_timeout_ms) {
                    Ok(()) => Verdict::Safe,
                    Err(r) => Verdict::Unknown(format!(
                        "the ART checker rejected node {}: {}",
                        r.node.0, r.reason
                    )),
                }
            }
            Ok(true) if safe_ivr && last_safe_is_final => Verdict::PartiallySafe,
            Ok(true) => Verdict::Unknown("bugs found; the final ART was not checked".into()),
            // Every choice at the root leads to a bug.
            Ok(false)
                if self.deterministic()
                    && undecided.is_none()
                    && !waiter_choice
                    && crate::unavoidable::approximation(self.prog).is_none() =>
            {
                Verdict::Unsafe
            }
            Ok(false) if safe_ivr => Verdict::PartiallySafe,
            Ok(false) if waiter_choice => Verdict::Unknown(
                "unsafe executions exist; no safe schedule was found (the search lets the program \
                 choose the thread a signal wakes, which a scheduler may choose otherwise)"
                    .into(),
            ),
            Ok(false) => Verdict::Unknown(
                "unsafe executions exist; no safe schedule was found (with inputs, or thread ids and addresses read as numbers, that does not show that none exists)"
                    .into(),
            ),
            Err(_) if !cexs.is_empty() && safe_ivr => Verdict::PartiallySafe,
            Err(r) if !cexs.is_empty() => {
                Verdict::Unknown(format!("unsafe executions exist; no safe schedule yet ({r})"))
            }
            Err(r) => Verdict::Unknown(match &undecided {
                Some(u) => format!("{r}; {u}"),
                None => r,
            }),
        };
        let meets_bound = verdict != Verdict::Safe || self.art.refuses_creation(self.prog);
        Report {
            verdict,
            meets_bound,
            any_thread_count: None,
            counterexample: unavoidable.map_or(cexs.first(), |i| cexs.get(i)).cloned(),
            nodes: self.art.len(),
            solver_calls: self.smt.stats.checks,
            refinements: self.refinements,
            time: start.elapsed(),
            ivrs,
            first_safe_ivr: first_safe,
            counterexamples: cexs,
        }
    }

    fn emit(&mut self, index: usize, kind: IvrKind, start: Instant, sink: &mut dyn FnMut(&Ivr)) {
        self.ivr_count = index;
        sink(&Ivr {
            index,
            kind,
            time: start.elapsed(),
            art_nodes: self.art.len(),
            solver_calls: self.smt.stats.checks,
        });
    }

    /// Whether the program has no inputs: no nondeterministic values, no uninitialised
    /// variables, and no thread id or address read as a number. Then a path fixes the state, and the ART is a game tree of schedules.
    fn deterministic(&self) -> bool {
        // (The values the model gives thread ids and addresses are not a run's.)
        self.prog.observes_numbering.is_none()
            && self.prog.vars.iter().all(|v| v.init != Init::Nondet)
            && self.prog.threads.iter().all(|t| {
                t.transitions
                    .iter()
                    .all(|tr| tr.ops.iter().all(|o| !matches!(o, Op::Havoc { .. })))
            })
    }

    /// The IVR of the current ART: removed subtrees, nodes below covered nodes and below
    /// nodes labelled false are dropped.
    fn current_ivr(&self) -> Art {
        let art = &self.art;
        let mut keep = vec![false; art.len()];
        for v in art.ids() {
            let i = v.0 as usize;
            keep[i] = !art.node(v).removed
                && match art.node(v).parent {
                    None => true,
                    Some((p, _, _)) => {
                        let pn = art.node(p);
                        keep[p.0 as usize] && pn.covered_by.is_none() && pn.label != Term::False
                    }
                };
        }
        art.restrict(|v| keep[v.0 as usize]).0
    }

    /// Where the next iteration starts (seed 002, New_Schedule_Start): the first nodes, in
    /// creation order, with a thread that may be enabled and is neither expanded nor
    /// forbidden; those threads are expanded there. The number of starts doubles with each
    /// iteration (1, 2, 4, ...), so that the first IVRs differ by one schedule and a complete
    /// ART is still reached in few iterations. False when there is none.
    fn new_schedule_start(&mut self, work: &mut Vec<NodeId>) -> Result<bool, Stop> {
        let batch = 1usize << self.starts.min(20);
        self.starts += 1;
        let mut found = 0;
        for v in self.art.ids().collect::<Vec<_>>() {
            let n = self.art.node(v);
            if n.removed
                || n.expanded.is_empty()
                || n.label == Term::False
                || self.art.is_covered(v)
            {
                continue;
            }
            let control = n.control.clone();
            if self.is_error(&control) || self.is_end(&control) {
                continue;
            }
            for t in self.movable(&control) {
                if self.art.node(v).expanded.contains(&t) || self.art.node(v).forbidden.contains(&t)
                {
                    continue;
                }
                if !self.may_be_enabled(v, t)? {
                    continue;
                }
                match self.expand_thread(v, t, work) {
                    // A memory error of the new thread's step: the schedules avoid this node.
                    Err(Stop::Bug(c)) => {
                        self.prune(v, work);
                        return Err(Stop::Bug(c));
                    }
                    r => r?,
                }
                found += 1;
                if found == batch {
                    return Ok(true);
                }
            }
        }
        Ok(found > 0)
    }

    /// Whether `t` may be enabled at `v` according to its label.
    fn may_be_enabled(&mut self, v: NodeId, t: ThreadId) -> Result<bool, Stop> {
        let control = self.art.node(v).control.clone();
        if !self.movable(&control).contains(&t) {
            return Ok(false);
        }
        if !self.may_block(&control, t) {
            return Ok(true);
        }
        // An implication, so that the solver's cache answers the repeats (fairness checks
        // ask about the same nodes at every covering attempt).
        let label = self.art.node(v).label.clone();
        let disabled = Term::not(self.enabled(&control, t));
        let a = self.implies(&label, &disabled);
        Ok(!self.decided(a, "enabledness")?)
    }

    /// Whether a transition of `t` at its location may block.
    fn may_block(&self, c: &Control, t: ThreadId) -> bool {
        let l = c.locs[t.0 as usize].expect("started");
        self.prog.thread(t).outgoing(l).any(|tr| tr.may_block)
    }

    /// One iteration: explores the work list under the deterministic scheduler until it is
    /// empty or a counterexample is found (the rest of the work list stays in `work`).
    fn iteration(
        &mut self,
        work: &mut Vec<NodeId>,
        start: Instant,
    ) -> Result<Option<Box<Counterexample>>, Stop> {
        while let Some(v) = work.pop() {
            self.tick(start);
            if start.elapsed() > self.opts.timeout {
                work.push(v);
                return Err(Stop::Unknown("the time limit was reached".into()));
            }
            if crate::scope::is_doomed(self.opts.doomed.as_ref()) {
                work.push(v);
                return Err(Stop::Unknown(
                    "a bug every scheduler meets was found beside the engine".into(),
                ));
            }
            if self.art.len() > self.opts.max_nodes {
                return Err(Stop::Unknown(format!(
                    "more than {} ART nodes",
                    self.opts.max_nodes
                )));
            }
            let found = match self.visit(v, work) {
                // A question the solver could not answer (or undefined behaviour it could not
                // rule out): the schedule avoids this node; the run goes on.
                Err(Stop::Unknown(r)) => {
                    self.undecided.push(r);
                    self.prune(v, work);
                    None
                }
                other => other?,
            };
            if found.is_some() || self.root_lost {
                return Ok(found);
            }
        }
        Ok(None)
    }

    /// The deterministic scheduler of this run.
    fn scheduler(&self) -> Turns {
        turns(&self.opts, self.prog.threads.len(), self.iterative)
    }

    /// The order in which the deterministic scheduler tries threads at `v`
    /// ([`Turns::order`]), except that a thread about to end the program goes before all.
    fn schedule_order(&self, v: NodeId) -> Vec<ThreadId> {
        let all: Vec<ThreadId> = (0..self.prog.threads.len() as u32).map(ThreadId).collect();
        let mut order = self.scheduler().order(&self.syms[v.0 as usize].phase, &all);
        // A thread about to end the program goes first once it can move; until then, the
        // threads in code without events that hold it back (`Control::can_move`) go first, to
        // their next event. The proof ends there rather than running the others further.
        let c = &self.art.node(v).control;
        let key = |u: &ThreadId| match c.locs[u.0 as usize] {
            Some(l) => {
                let th = self.prog.thread(*u);
                (!th.halts_at(l), !th.runs_free(l))
            }
            None => (true, true),
        };
        if order.iter().any(|u| !key(u).0) {
            order.sort_by_key(key);
        }
        order
    }

    /// What a covering of or by `x` must keep of the deterministic scheduler's phase
    /// ([`Scheduler::key`]); always the same in complete mode.
    fn phase(&self, x: NodeId) -> Phase {
        self.iterative
            .then(|| self.scheduler().key(&self.syms[x.0 as usize].phase))
    }

    /// Whether every state on the path to `v` enables one of `ts`.
    fn always_enabled(&mut self, v: NodeId, ts: &[ThreadId]) -> Result<bool, Stop> {
        let control = self.art.node(v).control.clone();
        if ts.iter().any(|&t| !self.may_block(&control, t)) {
            return Ok(true);
        }
        let state = self.syms[v.0 as usize].state.clone();
        let none = Term::not(Term::or(
            ts.iter().map(|&t| self.enabled_in(&control, t, &state)),
        ));
        let a = self.sat_path(v, &[none]);
        Ok(!self.decided(a, "enabledness")?)
    }

    /// Processes one node of the work list.
    fn visit(
        &mut self,
        v: NodeId,
        work: &mut Vec<NodeId>,
    ) -> Result<Option<Box<Counterexample>>, Stop> {
        if self.art.node(v).removed || self.art.is_covered(v) || !self.has_states(v)? {
            return Ok(None);
        }
        let control = self.art.node(v).control.clone();
        if self.is_error(&control) {
            let found = self.error_node(v, work)?;
            if found.is_some() {
                self.prune(v, work);
            }
            return Ok(found.map(Box::new));
        }
        if self.is_end(&control) || self.all_exited(&control) {
            return Ok(None);
        }
        if self.close(v, work)? {
            return Ok(None);
        }
        let movable = self.movable(&control);
        // A deadlock: no thread can move in some state on the path.
        if !self.always_enabled(v, &movable)? {
            let c = self.deadlock(v, &movable)?;
            self.prune(v, work);
            return Ok(Some(Box::new(c)));
        }
        // Choose threads: those already expanded, then more in round-robin order until every
        // state on the path enables one of them.
        let have: Vec<ThreadId> = self.art.node(v).expanded.iter().copied().collect();
        let order: Vec<ThreadId> = self
            .schedule_order(v)
            .into_iter()
            .filter(|t| movable.contains(t))
            .filter(|t| !self.art.node(v).forbidden.contains(t) && !have.contains(t))
            .collect();
        let mut chosen = have.clone();
        let mut ok = !chosen.is_empty() && self.always_enabled(v, &chosen)?;
        for t in order {
            if ok {
                break;
            }
            chosen.push(t);
            ok = self.always_enabled(v, &chosen)?;
        }
        if !ok {
            // Every choice left here can block while only forbidden threads can move.
            self.prune(v, work);
            return Ok(None);
        }
        self.label_shows_enabled(v, &chosen, work)?;
        for e in self.art.node(v).children.clone() {
            if have.contains(&e.thread) {
                work.push(e.child);
            }
        }
        for &t in chosen.iter().rev() {
            if !have.contains(&t) {
                match self.expand_thread(v, t, work) {
                    // A memory error of a step from here: the schedule avoids this node.
                    Err(Stop::Bug(c)) => {
                        self.prune(v, work);
                        return Ok(Some(c));
                    }
                    r => r?,
                }
            }
        }
        // Threads that are blocked in every state on the path: the label says so, so that
        // fairness does not demand them on cycles.
        for t in movable {
            if chosen.contains(&t) || !self.may_block(&control, t) {
                continue;
            }
            let state = self.syms[v.0 as usize].state.clone();
            let en = self.enabled_in(&control, t, &state);
            if self.sat_path(v, &[en]) == Some(false) {
                let en = self.enabled(&control, t);
                let lab = self.art.node(v).label.clone();
                if self.sat(&[lab, en.clone()]) != Some(false) {
                    self.exclude(v, en, work)?;
                }
            }
        }
        Ok(None)
    }

    /// Removes the way into `v` (seed 002, Remove_Error_Paths): the thread that moved into it
    /// is forbidden at its parent, whose expansion by that thread is removed; the parent goes
    /// back on the work list to choose again.
    fn prune(&mut self, v: NodeId, work: &mut Vec<NodeId>) {
        let Some((p, t, _)) = self.art.node(v).parent else {
            self.root_lost = true;
            return;
        };
        work.extend(self.art.remove_expansion(p, t));
        work.push(p);
    }

    /// Whether covering `v` by `w` keeps the ART fair (seed 002, Definition 4, checked as in
    /// Alg. 1 before a covering is added): every new cycle expands, at one of its nodes,
    /// every thread that may be enabled at one of its nodes.
    fn fair_cover(&mut self, v: NodeId, w: NodeId) -> Result<bool, Stop> {
        // Successors in the scheduler's graph as if v were covered by w.
        let succ = |this: &Self, x: NodeId| -> Vec<NodeId> {
            if x == v {
                return vec![w];
            }
            let node = this.art.node(x);
            if let Some(c) = node.covered_by {
                return vec![c];
            }
            node.children
                .iter()
                .filter(|e| !this.art.node(e.child).removed)
                .map(|e| e.child)
                .collect()
        };
        // Whether x schedules t: t is expanded there and enabled in all of x's states (v, about
        // to be covered, schedules as w does).
        let expands = |this: &mut Self, x: NodeId, t: ThreadId| -> Result<bool, Stop> {
            let node = this.art.node(x);
            if x == v || node.covered_by.is_some() || !node.expanded.contains(&t) {
                return Ok(false);
            }
            let control = node.control.clone();
            if !this.may_block(&control, t) {
                return Ok(true);
            }
            let label = node.label.clone();
            let en = this.enabled(&control, t);
            let a = this.implies(&label, &en);
            this.decided(a, "enabledness")
        };
        for t in 0..self.prog.threads.len() {
            let t = ThreadId(t as u32);
            if expands(self, w, t)? {
                continue;
            }
            // Nodes reachable from w through nodes that do not expand t.
            let mut seen = std::collections::HashSet::new();
            let mut edges = Vec::new();
            let mut stack = vec![w];
            seen.insert(w);
            while let Some(x) = stack.pop() {
                for y in succ(self, x) {
                    if expands(self, y, t)? {
                        continue;
                    }
                    edges.push((x, y));
                    if seen.insert(y) {
                        stack.push(y);
                    }
                }
            }
            if !seen.contains(&v) {
                continue;
            }
            // Of those, the ones that reach v: the new cycles that never expand t.
            let mut back: HashMap<NodeId, Vec<NodeId>> = HashMap::new();
            for (x, y) in edges {
                back.entry(y).or_default().push(x);
            }
            let mut on_cycle = std::collections::HashSet::new();
            let mut stack = vec![v];
            on_cycle.insert(v);
            while let Some(y) = stack.pop() {
                for &x in back.get(&y).map(Vec::as_slice).unwrap_or(&[]) {
                    if on_cycle.insert(x) {
                        stack.push(x);
                    }
                }
            }
            let mut nodes: Vec<NodeId> = on_cycle.into_iter().collect();
            nodes.sort();
            for x in nodes {
                if self.may_be_enabled(x, t)? {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }
}
