//! Explicit-state verification: the reachable states of the program, one concrete state per
//! ART node, kept once each (state caching). Where a program has no input whose value
//! matters, this decides it outright: the graph of its states is finite when every loop's
//! state repeats, and a state is a point in the abstract domain, so nothing needs refining.
//! Inputs take the value 0, and what is computed from them is not known: the labels leave it
//! out (but for its interval, `unknowns`), and a branch on it is explored both ways unless no
//! value in the interval takes it, so an ART holds for every input value where no bug depends
//! on the value, and the checker rejects it where the labels are too weak to show that.
//! It is the explicit-value part of CPAchecker's value analysis and the stateful search of
//! explicit-state model checkers, made to produce what seed 002 needs: IVRs (the schedule of
//! the iterative algorithm's deterministic scheduler, steered around bugs by a search,
//! `strategy`, or around the states from which every choice leads to a bug) and, for
//! `safe`, a complete ART. States forget dead registers (`liveness`) and variables whose
//! values decide nothing (`relevance`, helped by the value ranges of `ranges`: a forgotten
//! variable's label is its interval). Every ART goes through the independent checker
//! ([`crate::check`]) before it is reported, and every bug is a replayed execution of the
//! interpreter.
//!
//! Where an input's value decides something (the checker rejects the ART, or a path to a
//! bug takes branches no value takes), the search is tried again with the values not known
//! whose intervals are small split into cases, one state per value (`Space::split_values`):
//! a setting checked into a small range is then exact on each path. Its proofs decide
//! `safe`, its bugs replay, and its IVRs are taken where the scheduler chooses alike in the
//! cases, which the runtime cannot tell apart ([`crate::cases`]). Programs it does not decide either, or whose states exceed the budget, are left
//! to the symbolic engine ([`crate::imc`]): [`run_iterative`] then returns [`Fallback`].

mod counters;
mod fails;
mod growth;
mod inputs;
mod lockset;
pub mod modular;
mod probe;
mod proof;
pub(crate) mod ranges;
mod relevance;
mod space;
mod store;
mod strategy;
pub(crate) mod unknowns;

/// How the reason a search stopped at its budget goes on where it names the cells whose
/// values made its states many (`growth`).
pub const GROWTH: &str = "; the cells that vary most";

use crate::encode::Encoder;
use crate::imc::{Counterexample, Ivr, IvrKind, Options, Report, Verdict};
use crate::interp::{self, Outcome, Replay};
use crate::ir::*;
use crate::scheduler::RoundRobin;
use crate::smt::{Smt, Term};
use crate::witness::{self, Witness};
use proof::{Choice, Labels, NoSchedule};
use space::{Graph, Space, Stop, Target};
use std::time::{Duration, Instant};

/// Budget of the explicit search.
#[derive(Clone, Debug)]
pub struct Budget {
    /// Give up after this long.
    pub time: Duration,
    /// How long the search for the first safe schedule may run, when longer than `time`:
    /// the first IVR is what a user waits for, and the other engines rarely find one where
    /// this search is still on its way (the later phases then have the time left of `time`,
    /// if any).
    pub first_schedule_time: Duration,
    /// How long the check of a complete ART may run on after `time`, when every state was
    /// found safe (no other engine is likely to decide such a program sooner).
    pub check_time: Duration,
    /// Give up beyond this many states.
    pub max_states: usize,
    /// Give up beyond about this many bytes of states.
    pub max_bytes: usize,
    /// Give up on a complete ART with more nodes than this (its check would take too long).
    pub max_complete_nodes: usize,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            time: Duration::from_secs(30),
            first_schedule_time: Duration::from_secs(30),
            check_time: Duration::from_secs(30),
            max_states: 2_000_000,
            max_bytes: 2 << 30,
            max_complete_nodes: 2_000_000,
        }
    }
}

/// What the explicit search leaves to another engine.
#[derive(Clone, Debug)]
pub struct Fallback {
    /// Why it stopped.
    pub reason: String,
    /// IVRs it emitted.
    pub ivrs: usize,
    /// When it emitted its first safe IVR.
    pub first_safe_ivr: Option<Duration>,
}

/// Runs the explicit search in iterative mode: IVRs go to `sink` as they are found (a safe
/// schedule first, then a counterexample if there is a bug), and the verdict is reported when
/// the whole state space was explored. The run started at `start`: the budget's times, the
/// time limit of `opts` and the IVRs' times count from then.
///
/// Where the program has counters of wide ranges ([`counters`]), the search first leaves
/// them out of its states, with a part of the budget ([`UNTRACKED_SHARE`]); where that decides nothing (a bug found
/// there does not replay, the checker rejects an ART, or the budget runs out), it starts
/// again tracking every variable. The IVRs of the first search stand: each was checked.
pub fn run_iterative(
    prog: &Program,
    hunt: Option<&crate::scope::Hunt>,
    opts: &Options,
    budget: &Budget,
    start: Instant,
    max_ivrs: usize,
    sink: &mut dyn FnMut(&Ivr),
) -> Result<Report, Fallback> {
    let mut run = Run {
        prog,
        start,
        opts,
        ivrs: 0,
        bugs: 0,
        first_safe: None,
        nodes: 0,
        max_ivrs,
        sink,
        // (Each attempt sets it.)
        deadline: start,
        schedule: Vec::new(),
        earlier_schedule: None,
    };
    // (The value ranges are computed once, for the counters and for both searches.)
    let ranges = ranges::Ranges::new(prog);
    let untracked = counters::abstracted(prog, &ranges);
    if untracked.contains(&true) {
        let share = Budget {
            time: budget.time / UNTRACKED_SHARE,
            first_schedule_time: budget.first_schedule_time / UNTRACKED_SHARE,
            max_states: budget.max_states / UNTRACKED_SHARE as usize,
            max_bytes: budget.max_bytes / UNTRACKED_SHARE as usize,
            ..budget.clone()
        };
        // Only a verdict, or the IVRs asked for: an `unknown` of the search without counters
        // may rest on what it did not track.
        match attempt(&mut run, hunt, &share, &ranges, &untracked) {
            Ok(r) if !matches!(r.verdict, Verdict::Unknown(_)) || run.ivrs >= max_ivrs => {
                return Ok(r)
            }
            Ok(r) if opts.stop_at_first_safe && r.first_safe_ivr.is_some() => return Ok(r),
            _ => {}
        }
        let earlier = std::mem::take(&mut run.schedule);
        run.earlier_schedule = run.first_safe.is_some().then_some(earlier);
    }
    attempt(&mut run, hunt, budget, &ranges, &[])
}

/// The search without counters gets this part of the budget. Where they decide nothing,
/// leaving them out often makes what they count grow without end (a loop that may run any
/// number of rounds), and the states of the search with them are found in a fraction of the
/// time.
const UNTRACKED_SHARE: u32 = 8;

/// One search of [`run_iterative`], with the registers marked in `untracked` left out of
/// the states.
fn attempt(
    run: &mut Run,
    hunt: Option<&crate::scope::Hunt>,
    budget: &Budget,
    ranges: &ranges::Ranges,
    untracked: &[bool],
) -> Result<Report, Fallback> {
    let (prog, opts, start) = (run.prog, run.opts, run.start);
    run.deadline = start
        + budget
            .first_schedule_time
            .max(budget.time)
            .min(opts.timeout);
    let mut space = stoppable(Space::untracking(prog, ranges, untracked), hunt);
    // Where a value not known in a small interval picks the memory a step accesses (an
    // index checked into range), the search that takes it as 0 accesses one cell for all its
    // values and learns little from reading it: the search with the values split into cases
    // goes first, and the one without them only where it decides nothing.
    let split_first = space.splitting_picks_memory() && space.split_values();
    let mut labels = Labels::new(prog);
    let bugs = run.bugs;
    let mut r = search(run, hunt, budget, &mut space, &mut labels);
    // Where the search decided nothing, the other one in the time left: where this one read
    // values it did not know, the one with the values of small intervals split into cases
    // ([`Space::split_values`]). (Not where it reported a bug and emitted a safe schedule:
    // the cases would find the bug again, and the verdict rests on the schedule.)
    // The search without counters does not split values after the fact: where it decided
    // nothing, what it left out is as likely the cause as the values, and the states of
    // its cases grow with every round a loop may run; the search with counters goes next
    // and splits where it decides nothing itself.
    let left = (start + budget.time.min(opts.timeout)).saturating_duration_since(Instant::now());
    let counters_left_out = untracked.contains(&true);
    let retry = r.is_err()
        && (split_first || (space.read_undefined.get() && !counters_left_out))
        && (run.bugs == bugs || run.first_safe.is_none());
    if retry && left > SPLIT_AFTER_LEFT {
        let mut other = stoppable(Space::untracking(prog, ranges, untracked), hunt);
        if split_first || other.split_values() {
            drop(space);
            drop(labels);
            space = other;
            labels = Labels::new(prog);
            run.deadline = start + budget.time.min(opts.timeout);
            r = search(run, hunt, budget, &mut space, &mut labels);
        }
    }
    // Near the time limit, a process that ends with the run does not free the states and
    // labels (see `Options::exit_after`).
    let near = start.elapsed() + LEAVE_TO_EXIT >= opts.timeout;
    if opts.exit_after && near {
        std::mem::forget(space);
        std::mem::forget(labels);
    }
    r
}

/// `space`, whose searches stop once `hunt` has found a bug that every scheduler meets.
fn stoppable<'p>(mut space: Space<'p>, hunt: Option<&crate::scope::Hunt>) -> Space<'p> {
    if let Some(h) = hunt {
        space.stop_when(h.doomed_flag());
    }
    space
}

/// The least time left in which [`attempt`] searches again with values split into cases.
const SPLIT_AFTER_LEFT: Duration = Duration::from_secs(1);

/// The time before the limit from which [`run_iterative`] leaves its memory to the process's
/// end, where the process ends with the run.
const LEAVE_TO_EXIT: Duration = Duration::from_secs(3);

/// [`run_iterative`] with its run, states and labels (the run's deadline is that of the
/// first safe schedule).
fn search(
    run: &mut Run,
    hunt: Option<&crate::scope::Hunt>,
    budget: &Budget,
    space: &mut Space,
    labels: &mut Labels,
) -> Result<Report, Fallback> {
    let (prog, opts, start, max_ivrs) = (run.prog, run.opts, run.start, run.max_ivrs);
    let deadline = start + budget.time.min(opts.timeout);
    // The deterministic scheduler's schedule, before the whole graph is known (it is stuck
    // only where a bug is reachable). Where values are split into cases, the checker takes
    // it only where it chooses alike in the cases (`crate::cases::uniform`), which the
    // runtime cannot tell apart; where it does not, the search goes on without an IVR.
    let first = match run.schedule(space, None, labels, budget.max_states) {
        Err(_) if space.splits() => false,
        r => r?,
    };
    run.deadline = deadline;
    if first && (opts.stop_at_first_safe || run.ivrs >= max_ivrs) {
        return Ok(run.report(
            Verdict::Unknown("stopped at the first safe IVR".into()),
            None,
            vec![],
        ));
    }
    // With a safe schedule emitted, no scheduler is doomed: the first bug found decides
    // `partially safe`, and the rest of the graph is not needed. Bugs one preemption away
    // from the schedule are tried first, for a third of the time left.
    if run.first_safe.is_some() {
        let now = Instant::now();
        let until = now + deadline.saturating_duration_since(now) / 3;
        let max_steps = 2 * run.schedule.len() + 10_000;
        let probed = probe::bug(space, &run.schedule, max_steps, until, |f| {
            Bug::replay_path(space, f.path, f.deadlock, opts.smt_timeout_ms, deadline).ok()
        });
        // A bug of the bounded program that may not occur without the bound waits for the
        // stateless search of the small scopes, which may find one that does.
        let bounded_only = |c: &Counterexample| {
            prog.thread_bound.is_some() && !crate::scope::holds_without_bound(prog, &c.execution)
        };
        if let Some(cex) = probed
            .as_ref()
            .filter(|c| hunt.is_none() || !bounded_only(c))
        {
            let cexs = run.emit_bug(cex);
            return Ok(run.report(run.bug_verdict(cex), Some(cex.clone()), cexs));
        }
        // Then a bug the stateless search has found. For a program the thread bound limits,
        // it is waited for, up to half of the run's time left (not only the explicit
        // search's: the other engines search the bounded program, whose many threads they
        // rarely get through either); otherwise only taken if found by now, and the search
        // of the states goes on (which often decides sooner).
        if let Some(hunt) = hunt {
            let now = Instant::now();
            let end = start + opts.timeout;
            let until = match prog.thread_bound {
                Some(_) => now + end.saturating_duration_since(now) / 2,
                None => now,
            };
            if let Some(cex) = hunt.wait(until) {
                let cexs = run.emit_bug(&cex);
                return Ok(run.report(run.bug_verdict(&cex), Some(cex), cexs));
            }
        }
        if let Some(cex) = probed {
            let cexs = run.emit_bug(&cex);
            return Ok(run.report(run.bug_verdict(&cex), Some(cex), cexs));
        }
    }
    let mut graph = space::explore(
        space,
        budget.max_states,
        budget.max_bytes,
        deadline,
        run.first_safe.is_some(),
    )
    .map_err(|s| run.fallback(stop_reason(s)))?;
    let found = bugs(space, &graph, MAX_BUGS_TRIED);
    if found.is_empty() {
        let edges: usize = graph.edges.iter().map(Vec::len).sum();
        if edges + 1 > budget.max_complete_nodes {
            return Err(run.fallback(format!(
                "{} states are safe, but their ART of {} nodes is too large to check",
                graph.edges.len(),
                edges + 1
            )));
        }
        let art = proof::complete(space, &graph, labels);
        run.nodes = art.len();
        let check_deadline = start + budget.check_time.min(opts.timeout);
        run.deadline = check_deadline;
        return match crate::check::check_complete_until(
            prog,
            &art,
            opts.smt_timeout_ms,
            check_deadline,
        ) {
            Ok(()) => Ok(Report {
                meets_bound: art.refuses_creation(prog),
                any_thread_count: None,
                ..run.report(Verdict::Safe, None, vec![])
            }),
            Err(r) => Err(run.fallback(run.rejected(r))),
        };
    };
    // The first bug that replays (a path through branches on values not known may be
    // taken by no execution); where the search stopped at a bug that does not, the whole
    // graph is searched for one that does.
    let mut replayed = first_replayed(space, &graph, &found, opts.smt_timeout_ms, deadline);
    if replayed.is_err() && run.first_safe.is_some() {
        graph = space::explore(space, budget.max_states, budget.max_bytes, deadline, false)
            .map_err(|s| run.fallback(stop_reason(s)))?;
        let found = bugs(space, &graph, MAX_BUGS_TRIED);
        replayed = first_replayed(space, &graph, &found, opts.smt_timeout_ms, deadline);
    }
    let cex = replayed.map_err(|why| run.fallback(why))?;
    let cexs = run.emit_bug(&cex);
    // With a safe schedule emitted, the program is not unsafe: a checked schedule avoids
    // every bug. Without one, a bug on whose way no scheduler had a choice shows that none
    // avoids it; otherwise the whole graph says whether some scheduler avoids them.
    if run.first_safe.is_none() {
        if crate::unavoidable::unavoidable(prog, &cex.execution).is_ok() {
            return Ok(run.report(Verdict::Unsafe, Some(cex), cexs));
        }
        let doomed =
            proof::doomed(space, &graph, deadline).map_err(|s| run.fallback(stop_reason(s)))?;
        if doomed[0] {
            // Where a value not known was read, the bug may need the values the search took
            // (0): a scheduler may avoid it for others, which the symbolic engine can tell.
            // (Where the search read values it did not know, no schedule is known to be
            // doomed, undefined behaviour or not.)
            let verdict = if not_a_bug(&cex) && !space.read_undefined.get() {
                Verdict::Unknown(match cex.execution.outcome.model_limit() {
                    Some(limit) => format!(
                        "no schedule avoids the model's limits (or undefined behaviour); one \
                         reaches {limit} (after {} steps)",
                        cex.execution.steps.len()
                    ),
                    None => format!(
                        "undefined behaviour is reachable under every schedule {}",
                        prog.show_undefined(&cex.execution)
                    ),
                })
            } else if prog.signal_chooses_waiter() {
                return Err(run.fallback(
                    "every schedule leads to a bug in the search, which lets the program choose \
                     the thread a signal wakes: a scheduler may avoid it by waking another"
                        .into(),
                ));
            } else if prog.observes_numbering.is_some() {
                return Err(run.fallback(
                    "every schedule leads to a bug in the search, whose program reads thread ids \
                     or addresses as numbers: with a run's values a schedule may avoid it"
                        .into(),
                ));
            } else if let Some(why) = crate::unavoidable::approximation(prog) {
                return Err(run.fallback(format!(
                    "every schedule leads to a bug in the search, but it may rest on what the \
                     model approximates ({why})"
                )));
            } else if !space.read_undefined.get() {
                Verdict::Unsafe
            } else {
                let what = if not_a_bug(&cex) {
                    format!(
                        "undefined behaviour {}",
                        prog.show_undefined(&cex.execution)
                    )
                } else {
                    "a bug".to_string()
                };
                return Err(run.fallback(format!(
                    "every schedule leads to {what} in the search, which read values it did not \
                     know (inputs or uninitialised memory): with other values a schedule may \
                     avoid it"
                )));
            };
            return Ok(run.report(verdict, Some(cex), cexs));
        }
        // Avoiding the states where a thread is bound to fail first; where that leaves no
        // schedule, one may end the program before the thread runs on.
        let avoid = proof::to_avoid(space, &graph, deadline, &doomed)
            .map_err(|s| run.fallback(stop_reason(s)))?;
        if !run.schedule(space, Some((&graph, &avoid)), labels, budget.max_states)?
            && !run.schedule(space, Some((&graph, &doomed)), labels, budget.max_states)?
        {
            return Err(run.fallback("the scheduler met a state without a safe choice".into()));
        }
    }
    Ok(run.report(run.bug_verdict(&cex), Some(cex), cexs))
}

/// Whether the execution ends in undefined behaviour other than a memory-safety violation
/// (a limit of the model, arithmetic without a defined result): no bug to report, but no
/// verdict either.
fn not_a_bug(cex: &Counterexample) -> bool {
    matches!(
        cex.execution.outcome,
        Outcome::Undefined { memory: false, .. }
    )
}

fn stop_reason(s: Stop) -> String {
    match s {
        Stop::Budget(r) => r,
    }
}

/// A bad thing reachable in the graph: the path to it ends with an edge to an error or to
/// undefined behaviour, or at a deadlock.
struct Bug {
    /// The state where the path ends (a deadlock) or from which the bad edge leaves.
    state: u32,
    /// The bad edge, if any.
    edge: Option<(ThreadId, TransId)>,
}

/// The bugs in breadth-first order, errors and deadlocks before undefined behaviour, at most
/// `max` of them.
fn bugs(space: &Space, g: &Graph, max: usize) -> Vec<Bug> {
    let mut found = Vec::new();
    let mut undefined = Vec::new();
    for &s in g.expanded_states() {
        if found.len() >= max {
            break;
        }
        if g.is_deadlock(space, s) {
            found.push(Bug {
                state: s,
                edge: None,
            });
        }
        for e in &g.edges[s as usize] {
            let bug = Bug {
                state: s,
                edge: Some((e.thread, e.trans)),
            };
            match e.to {
                Target::Error => found.push(bug),
                Target::Undefined => undefined.push(bug),
                Target::State(_) => {}
            }
        }
    }
    found.extend(undefined);
    found.truncate(max);
    found
}

/// The replayed execution of the first of `found` that replays, or why none does (no solver
/// question runs past `deadline`).
fn first_replayed(
    space: &Space,
    g: &Graph,
    found: &[Bug],
    smt_timeout_ms: u32,
    deadline: Instant,
) -> Result<Counterexample, String> {
    let mut why_not = None;
    // The solver, made once where a path needs it.
    let mut solver = None;
    for bug in found {
        if Instant::now() >= deadline {
            return Err("time ran out while replaying the paths to bugs".into());
        }
        match bug.replay(space, g, &mut solver, smt_timeout_ms, deadline) {
            Ok(c) => return Ok(c),
            Err(why) => {
                why_not.get_or_insert(why);
            }
        }
    }
    Err(why_not.unwrap_or_default())
}

/// How many of the bugs in the graph are tried for one that replays.
const MAX_BUGS_TRIED: usize = 16;

impl Bug {
    /// Replays the path to the bug on the interpreter: with inputs and uninitialised cells 0,
    /// as in the search, or, where the path took branches on values the search did not know,
    /// with the values the solver finds for it ([`crate::witness`]).
    fn replay<'p>(
        &self,
        space: &Space<'p>,
        g: &Graph,
        solver: &mut Option<(Encoder<'p>, Smt)>,
        smt_timeout_ms: u32,
        deadline: Instant,
    ) -> Result<Counterexample, String> {
        let mut path = Vec::new();
        let mut s = self.state;
        while let Some((p, k)) = g.parent[s as usize] {
            let e = &g.edges[p as usize][k as usize];
            path.push((e.thread, e.trans));
            s = p;
        }
        path.reverse();
        let deadlock = match self.edge {
            Some(e) => {
                path.push(e);
                None
            }
            None => Some(space.control(self.state).locs),
        };
        let (enc, smt) = solver.get_or_insert_with(|| {
            let mut smt = Smt::new(smt_timeout_ms);
            smt.set_deadline(deadline);
            (Encoder::new(space.prog), smt)
        });
        Bug::replay_with(space, path, deadlock, enc, smt)
    }

    /// [`Bug::replay`] of `path`, a path of the search from the initial state that ends
    /// with a step into an error location, or, with `deadlock`, at a deadlock with the
    /// threads at those locations.
    fn replay_path(
        space: &Space,
        path: Vec<(ThreadId, TransId)>,
        deadlock: Option<Vec<Option<LocId>>>,
        smt_timeout_ms: u32,
        deadline: Instant,
    ) -> Result<Counterexample, String> {
        let mut smt = Smt::new(smt_timeout_ms);
        smt.set_deadline(deadline);
        Bug::replay_with(space, path, deadlock, &Encoder::new(space.prog), &mut smt)
    }

    /// [`Bug::replay_path`] with a solver.
    fn replay_with(
        space: &Space,
        path: Vec<(ThreadId, TransId)>,
        deadlock: Option<Vec<Option<LocId>>>,
        enc: &Encoder,
        smt: &mut Smt,
    ) -> Result<Counterexample, String> {
        let prog = space.prog;
        let steps: Vec<(ThreadId, Option<TransId>)> =
            path.iter().map(|&(t, tr)| (t, Some(tr))).collect();
        let bound = steps.len() + 1;
        let replay = Replay::new(steps, vec![]);
        let (execution, _) = interp::run(prog, &mut replay.clone(), bound);
        let other = match execution.outcome {
            Outcome::Error { .. } | Outcome::Deadlock { .. } | Outcome::Undefined { .. } => {
                return Ok(Counterexample::new(replay, execution))
            }
            other => other,
        };
        let w = match deadlock {
            None => {
                let &(t, tr) = path.last().ok_or("an empty path to a bug")?;
                match &prog.thread(t).transition(tr).kind {
                    TransKind::Error(_) => witness::witness(prog, enc, smt, &path, &Term::True),
                    // Undefined behaviour of the last step (a memory error).
                    _ => match witness::fault_witness(prog, enc, smt, &path) {
                        Witness::Unknown(_) => {
                            return Err(format!("a path to a bug did not replay ({other:?})"))
                        }
                        w => w,
                    },
                }
            }
            Some(stuck) => {
                let bad = witness::deadlocked(prog, enc, &stuck);
                witness::witness(prog, enc, smt, &path, &bad)
            }
        };
        match w {
            Witness::Replayed(c) => Ok(c),
            Witness::Infeasible => Err(
                "the paths to bugs the search found branch on values it did not know, and no \
                 values take them"
                    .into(),
            ),
            Witness::Unknown(why) => Err(why),
        }
    }
}

/// The figures of a run and where its IVRs go.
struct Run<'a> {
    prog: &'a Program,
    start: Instant,
    opts: &'a Options,
    ivrs: usize,
    /// Counterexamples emitted.
    bugs: usize,
    first_safe: Option<Duration>,
    nodes: usize,
    max_ivrs: usize,
    sink: &'a mut dyn FnMut(&Ivr),
    /// When the explicit search gives up.
    deadline: Instant,
    /// The steps of the first safe schedule of this search, from the initial state (each
    /// search's own: one that tracks what the one before left out takes its paths anew).
    schedule: Vec<(ThreadId, TransId)>,
    /// Those of the search before, where it emitted one.
    earlier_schedule: Option<Vec<(ThreadId, TransId)>>,
}

impl Run<'_> {
    fn emit(&mut self, kind: IvrKind) {
        if self.ivrs >= self.max_ivrs {
            return;
        }
        self.ivrs += 1;
        (self.sink)(&Ivr {
            index: self.ivrs,
            kind,
            time: self.start.elapsed(),
            art_nodes: self.nodes,
            solver_calls: 0,
        });
    }

    /// Makes, checks and emits the deterministic scheduler's schedule: with the whole graph,
    /// the one that avoids its doomed states; without it, the one a search finds. `false`
    /// when there is none.
    fn schedule(
        &mut self,
        space: &mut Space,
        graph: Option<(&Graph, &[bool])>,
        labels: &mut Labels,
        max_states: usize,
    ) -> Result<bool, Fallback> {
        if self.ivrs >= self.max_ivrs {
            return Ok(true);
        }
        let sched = RoundRobin {
            quantum: self.opts.quantum.max(1),
            threads: self.prog.threads.len(),
        };
        let art = match graph {
            Some((g, doomed)) => self.checked(space, Choice::Graph(g, doomed), labels, &sched)?,
            // A strategy that never waits and that the checker rejects (a cycle that starves
            // a thread the search kept from waiting) or that gets stuck: then one of every
            // strategy.
            None => {
                let mut art = None;
                for exhaustive in [false, true] {
                    let found =
                        strategy::search(space, &sched, max_states, self.deadline, exhaustive)
                            .map_err(|s| self.fallback(stop_reason(s)))?;
                    let Some(st) = found else { break };
                    match self.checked(space, Choice::Strategy(&st), labels, &sched) {
                        Ok(Some(a)) => {
                            art = Some(a);
                            break;
                        }
                        _ if st.without_waits() && !exhaustive => {}
                        r => {
                            art = r?;
                            break;
                        }
                    }
                }
                art
            }
        };
        let Some(art) = art else { return Ok(false) };
        self.nodes = self.nodes.max(art.len());
        self.first_safe.get_or_insert_with(|| self.start.elapsed());
        let mut path = Vec::new();
        let mut v = art.root();
        while let Some(e) = art.node(v).children.first() {
            path.push((e.thread, e.transition));
            v = e.child;
        }
        // The schedule the search before emitted is not emitted again.
        let again = self.earlier_schedule.as_ref() == Some(&path);
        if self.schedule.is_empty() {
            self.schedule = path;
        }
        if !again {
            self.emit(IvrKind::Safe(Box::new(art)));
        }
        Ok(true)
    }

    /// The ART of the schedule `choice` makes, once the checker has accepted it; `None` where
    /// the schedule gets stuck.
    fn checked(
        &mut self,
        space: &mut Space,
        choice: Choice,
        labels: &mut Labels,
        sched: &RoundRobin,
    ) -> Result<Option<crate::check::CheckedArt>, Fallback> {
        let art = match proof::schedule(
            space,
            choice,
            labels,
            sched,
            self.opts.max_nodes,
            self.deadline,
        ) {
            Ok(art) => art,
            Err(NoSchedule::Stop(s)) => return Err(self.fallback(stop_reason(s))),
            Err(NoSchedule::Stuck) => return Ok(None),
        };
        let (t, d) = (self.opts.smt_timeout_ms, Some(self.deadline));
        let art = crate::check::check_owned_ivr(self.prog, art, t, d)
            .map_err(|r| self.fallback(self.rejected(r)))?;
        Ok(Some(art))
    }

    /// Emits the replayed execution `cex` as a counterexample, unless it is
    /// [`not_a_bug`]; the counterexamples emitted.
    fn emit_bug(&mut self, cex: &Counterexample) -> Vec<Counterexample> {
        if not_a_bug(cex) {
            return vec![];
        }
        self.emit(IvrKind::Counterexample(Box::new(cex.clone())));
        self.bugs += 1;
        vec![cex.clone()]
    }

    /// The verdict where `cex` was found and no initial state is doomed: partially safe
    /// with a safe schedule emitted; unknown without one, or where `cex` is [`not_a_bug`].
    fn bug_verdict(&self, cex: &Counterexample) -> Verdict {
        if not_a_bug(cex) {
            Verdict::Unknown(format!(
                "undefined behaviour is reachable {}",
                self.prog.show_undefined(&cex.execution)
            ))
        } else if self.first_safe.is_some() {
            Verdict::PartiallySafe
        } else {
            Verdict::Unknown("bugs found; no safe IVR was emitted".into())
        }
    }

    /// Why the checker rejected an ART (or that time ran out while it checked).
    fn rejected(&self, r: crate::check::Rejection) -> String {
        if Instant::now() >= self.deadline {
            return "time ran out while the checker checked an ART".into();
        }
        format!("the checker rejected node {}: {}", r.node.0, r.reason)
    }

    /// What is left to another engine, and why (`reason`).
    fn fallback(&self, reason: String) -> Fallback {
        Fallback {
            reason: format!("explicit states: {reason}"),
            ivrs: self.ivrs,
            first_safe_ivr: self.first_safe,
        }
    }

    fn report(
        &self,
        verdict: Verdict,
        counterexample: Option<Counterexample>,
        counterexamples: Vec<Counterexample>,
    ) -> Report {
        Report {
            verdict,
            counterexample,
            nodes: self.nodes,
            solver_calls: 0,
            refinements: 0,
            time: self.start.elapsed(),
            ivrs: self.ivrs,
            first_safe_ivr: self.first_safe,
            counterexamples,
            meets_bound: true,
            any_thread_count: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::{load_str, Options as FOpts};

    /// A search of a space whose flag says that a bug every scheduler meets is known stops
    /// at once, saying so; without the flag set, it goes through the states.
    #[test]
    fn a_search_stops_where_every_scheduler_is_doomed() {
        let text = r#"
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n > 5)
    n = 5;
  for (int i = 0; i < n; i++) {}
  return 0;
}
"#;
        let p = load_str("doomed.c", text, &FOpts::default()).expect("lowers");
        let flag = crate::scope::Doomed::default();
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut space = Space::new(&p);
        space.stop_when(flag.clone());
        space::explore(&mut space, 100_000, 1 << 30, deadline, false).expect("explored");
        flag.set(true);
        let mut space = Space::new(&p);
        space.stop_when(flag);
        match space::explore(&mut space, 100_000, 1 << 30, deadline, false) {
            Err(Stop::Budget(why)) => assert!(why.contains("every scheduler meets"), "{why}"),
            other => panic!("{:?}", other.map(|g| g.edges.len())),
        }
    }

    /// The children of one transition are cases: the checker accepts the complete ART of a
    /// search that splits a value into them, rejects it without one of them, and accepts it
    /// as an IVR too (one thread: its scheduler chooses alike in every case).
    #[test]
    fn a_proof_without_one_of_its_cases_is_rejected() {
        let text = r#"
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int r = __VERIFIER_nondet_int();
  if (r < 1 || r > 3)
    r = 2;
  int s = 0;
  for (int i = 0; i < r; i++)
    s += 2;
  assert(s == 2 * r);
  return 0;
}
"#;
        let p = load_str("cases.c", text, &FOpts::default()).expect("lowers");
        let mut space = Space::new(&p);
        assert!(space.split_values());
        let deadline = Instant::now() + Duration::from_secs(30);
        let g = space::explore(&mut space, 100_000, 1 << 30, deadline, false).expect("explored");
        let art = proof::complete(&space, &g, &mut Labels::new(&p));
        crate::check::check_complete(&p, &art, 30_000).expect("the ART with its cases holds");
        let split = art
            .ids()
            .find_map(|v| {
                let cs = &art.node(v).children;
                cs.iter().enumerate().find_map(|(k, a)| {
                    (cs[k + 1..].iter())
                        .any(|b| (b.thread, b.transition) == (a.thread, a.transition))
                        .then_some(a.child)
                })
            })
            .expect("a node split into cases");
        crate::check::check_ivr(&p, &art, 30_000).expect("an IVR with uniform cases");
        let (without, _) = art.restrict(|v| !art.is_ancestor(split, v));
        let rejection = crate::check::check_complete(&p, &without, 30_000).expect_err("rejected");
        assert!(
            rejection.reason.contains("not a valid Hoare triple"),
            "{rejection:?}"
        );
    }

    /// The checker computes the control state after each step itself, and knows the initial
    /// one: an ART whose thread creation leaves the created thread unstarted is rejected (its
    /// later steps would go unchecked), and so is one whose root starts a thread early.
    #[test]
    fn a_creation_that_starts_no_thread_is_rejected() {
        let text = r#"
#include <pthread.h>
int g;
void *w(void *a) { g = 1; return a; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  pthread_join(t, 0);
  return g - 1;
}
"#;
        let p = load_str("spawn.c", text, &FOpts::default()).expect("lowers");
        let mut space = Space::new(&p);
        let deadline = Instant::now() + Duration::from_secs(30);
        let g = space::explore(&mut space, 100_000, 1 << 30, deadline, false).expect("explored");
        let art = proof::complete(&space, &g, &mut Labels::new(&p));
        crate::check::check_complete(&p, &art, 30_000).expect("the ART holds");
        let mut table = crate::smt::TermTable::new();
        let mut records = art.to_records(&mut table);
        let terms = table.terms().expect("terms");
        let spawned = records
            .iter_mut()
            .find(|r| r.parent.is_some() && r.control.locs[1].is_some())
            .expect("a node after the creation");
        spawned.control.locs[1] = None;
        let bad = crate::art::Art::from_records(&records, &terms).expect("well formed");
        let rejection = crate::check::check_complete(&p, &bad, 30_000).expect_err("rejected");
        assert!(
            rejection.reason.contains("wrong control state"),
            "{rejection:?}"
        );
        // Nor may the root start anywhere but at the program's start.
        let mut records = art.to_records(&mut table);
        records[0].control.locs[1] = Some(p.threads[1].entry);
        let bad = crate::art::Art::from_records(&records, &terms).expect("well formed");
        let rejection = crate::check::check_complete(&p, &bad, 30_000).expect_err("rejected");
        assert!(
            rejection.reason.contains("initial control state"),
            "{rejection:?}"
        );
    }
}
