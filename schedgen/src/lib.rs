//! schedgen: turns an incomplete verification result into a program schedule (DESIGN.md,
//! "Program schedules"; seed 002, sections "Partial-order reduction" and "Implementation").
//!
//! * [`sections`]: the section paths of a checked IVR (one thread committed to per node,
//!   fairness of that choice, pieces between branching, covered and final nodes);
//! * [`clocks`]: section schedules as vector clocks (dependency, array-index independence);
//! * [`schedule`]: the program schedule, its JSON form and its figures;
//! * [`emit`]: the C header with the same schedule as static tables typed by
//!   `include/synth_enforcer.h`; [`explain`]: readable sections and Graphviz DOT;
//! * [`simulate`]: runs a program on the interpreter under a schedule, checking every
//!   section's linear extension against the section path (Lemma 5);
//! * [`instrument`]: the program's LLVM module with the runtime calls that make its threads
//!   follow the schedule.
//!
//! Optimisation levels: Opt0 keeps every visible step of the proof, synchronisation included;
//! Opt1 drops the lock and barrier operations the schedule subsumes (objects used by nothing
//! else) and atomic-region markers; Opt2 also lengthens sections by unrolling cycles of the
//! section graph (`unroll` times) and treats accesses to provably different array elements as
//! independent.

pub mod clocks;
pub mod deploy;
pub mod emit;
pub mod explain;
pub mod guide;
pub mod instrument;
pub mod schedule;
pub mod sections;
pub mod simulate;
pub mod sites;

use clocks::Ev;
use schedule::{End, Event, Section, Successor, ThreadInfo};
pub use schedule::{Opt, ProgramSchedule};
use sections::{Piece, PieceEnd};
use std::collections::{HashMap, HashSet, VecDeque};
use verifier::art::{Art, NodeId};
use verifier::check::{Checked, CheckedArt};
use verifier::ir::{
    ErrorKind, LocKind, Program, SyncKind, ThreadId, TransId, TransKind, Transition,
};

/// Why no schedule was made.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The IVR checker rejected the ART.
    #[error("not a valid IVR of this program: rejected at node {node}: {reason}")]
    Rejected {
        /// Node.
        node: u32,
        /// Reason.
        reason: String,
    },
    /// No expanded thread is enabled in every state of a node.
    #[error(
        "node {node}: no expanded thread is enabled in every state of the node, so a schedule \
         cannot commit to one thread there"
    )]
    NoThread {
        /// Node.
        node: u32,
    },
    /// The one-thread-per-node choice starves a thread.
    #[error(
        "the schedule would not be fair: a cycle through node {node} never runs {thread}, \
         which may be enabled there"
    )]
    Unfair {
        /// Node.
        node: u32,
        /// Thread name.
        thread: String,
    },
    /// The root has no states.
    #[error("the root of the ART is labelled false")]
    NoStates,
    /// The schedule ends while a thread waits at a synchronisation this level removes (or
    /// behind an atomic region): deployed, it would run past it into code the proof does not
    /// cover.
    #[error(
        "the proof {how} while {thread} waits at {at}, a synchronisation that Opt{opt} \
         removes: the deployed thread would run past it to {danger}, which the proof does not \
         cover; build at --opt 0"
    )]
    WaitRemoved {
        /// How the schedule ends there.
        how: String,
        /// Thread name.
        thread: String,
        /// Source position of the synchronisation.
        at: String,
        /// Optimisation level.
        opt: u8,
        /// What the thread may reach, and where.
        danger: String,
    },
    /// The schedule ends while a thread is in code that runs without the runtime (inside
    /// another thread's atomic region, the only place a proof may leave one there).
    #[error(
        "the proof {how} while {thread} is at {at}: the deployed thread would run on to \
         {danger}, which the proof does not cover"
    )]
    RunsOn {
        /// How the schedule ends there.
        how: String,
        /// Thread name.
        thread: String,
        /// Source position.
        at: String,
        /// What the thread may reach, and where.
        danger: String,
    },
}

/// Options of schedule generation.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Optimisation level.
    pub opt: Opt,
    /// Opt2: how often a cycle of sections is unrolled into one section.
    pub unroll: u32,
    /// Per-query solver timeout (milliseconds).
    pub timeout_ms: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            opt: Opt::O2,
            unroll: 8,
            timeout_ms: 10_000,
        }
    }
}

/// Most steps of an Opt2 section made by unrolling.
const MAX_UNROLLED_STEPS: usize = 20_000;

/// A lock, unlock, barrier or initialisation operation: what a schedule can subsume.
fn plain_sync(tr: &Transition) -> bool {
    matches!(
        tr.kind,
        TransKind::Sync(
            SyncKind::MutexInit
                | SyncKind::Lock
                | SyncKind::Unlock
                | SyncKind::BarrierInit
                | SyncKind::BarrierArrive
                | SyncKind::BarrierLeave
        )
    )
}

/// The synchronisation objects only plain operations ([`plain_sync`]) touch: a schedule that
/// orders the accesses they protect subsumes them.
fn subsumable(prog: &Program) -> HashSet<u32> {
    let mut ok: HashMap<u32, bool> = HashMap::new();
    for th in &prog.threads {
        for tr in &th.transitions {
            let plain = plain_sync(tr);
            for e in &tr.events {
                if prog.var(e.var).elem.is_sync() {
                    *ok.entry(e.var.0).or_insert(true) &= plain;
                }
            }
        }
    }
    ok.into_iter().filter(|&(_, b)| b).map(|(v, _)| v).collect()
}

/// Whether the schedule at `opt` subsumes a transition (instrumentation removes it).
fn removed_at(opt: Opt, objects: &HashSet<u32>, tr: &Transition) -> bool {
    if opt == Opt::O0 {
        return false;
    }
    match tr.kind {
        TransKind::Sync(SyncKind::AtomicBegin | SyncKind::AtomicEnd | SyncKind::Yield) => true,
        _ if plain_sync(tr) => {
            !tr.events.is_empty() && tr.events.iter().all(|e| objects.contains(&e.var.0))
        }
        _ => false,
    }
}

/// How the schedule ends where threads are left waiting.
#[derive(Clone, Copy)]
enum Ending {
    /// In a loop of the proof (it may run for ever).
    Loop,
    /// With the end of the program.
    Program,
}

impl std::fmt::Display for Ending {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Ending::Loop => "keeps looping",
            Ending::Program => "ends the program",
        })
    }
}

/// The schedule ends (`how`) at node `v` with the threads for which `left` holds left where
/// they are. Deployed, where only events wait for the runtime, such a thread runs on through
/// code without events and through synchronisation the level removes (`removed`; every
/// synchronisation behind another thread's atomic region, whose markers Opt1 and Opt2 remove),
/// until its next event, where the runtime keeps it. The proof does not cover that code: an
/// error if it may reach the error location or undefined behaviour (`may_fault`). Which
/// transitions the thread takes there is not known, so every one counts.
#[allow(clippy::too_many_arguments)]
fn left_waiting(
    prog: &Program,
    art: &Art,
    v: NodeId,
    left: &dyn Fn(ThreadId) -> bool,
    opt: Opt,
    removed: &impl Fn(&Transition) -> bool,
    may_fault: &mut impl FnMut(ThreadId, &Transition) -> bool,
    how: Ending,
) -> Option<Error> {
    let control = &art.node(v).control;
    let behind_atomic = |t| control.atomic.is_some_and(|a| a != t) && opt != Opt::O0;
    let pos = |tr: &Transition| tr.span.map(|sp| prog.position(&sp)).unwrap_or_default();
    for (t, loc) in control.locs.iter().enumerate() {
        let t = ThreadId(t as u32);
        let Some(l) = *loc else { continue };
        let th = prog.thread(t);
        if !left(t) || th.locations[l.0 as usize].kind != LocKind::Normal {
            continue;
        }
        // Locations the thread runs on to, with the removed synchronisation it passed first.
        let mut seen: HashMap<verifier::ir::LocId, Option<&Transition>> =
            HashMap::from([(l, None)]);
        let mut work = vec![l];
        while let Some(at) = work.pop() {
            let via = seen[&at];
            for tr in th.outgoing(at) {
                let passes = if matches!(tr.kind, TransKind::Sync(_)) {
                    behind_atomic(t) || removed(tr)
                } else {
                    tr.runs_free()
                };
                if !passes {
                    continue;
                }
                let via = via.or((matches!(tr.kind, TransKind::Sync(_))).then_some(tr));
                let fault = if let TransKind::Error(kind) = &tr.kind {
                    Some(match kind {
                        ErrorKind::AssertionFailed => "a failed assertion",
                        ErrorKind::ReachError => "reach_error()",
                        ErrorKind::InvalidFree => "an invalid free",
                        ErrorKind::InvalidCall => "a call through an invalid pointer",
                        ErrorKind::ArrayBounds => "an array index out of bounds",
                        ErrorKind::VlaLength => "a variable-length array of length not positive",
                        ErrorKind::NullStream => "a null stream given to the C library",
                        ErrorKind::ClosedStream => {
                            "a stream used or closed again after `fclose` closed it"
                        }
                    })
                } else if th.locations[tr.dst.0 as usize].kind == LocKind::Error {
                    Some("the error location")
                } else if may_fault(t, tr) {
                    Some("possible undefined behaviour")
                } else {
                    None
                };
                if let Some(what) = fault {
                    let danger = format!("{what} at {}", pos(tr));
                    return Some(match via {
                        Some(sync) => Error::WaitRemoved {
                            how: how.to_string(),
                            thread: th.name.clone(),
                            at: pos(sync),
                            opt: opt.level(),
                            danger,
                        },
                        None => Error::RunsOn {
                            how: how.to_string(),
                            thread: th.name.clone(),
                            at: th.outgoing(l).next().map(pos).unwrap_or_default(),
                            danger,
                        },
                    });
                }
                if th.locations[tr.dst.0 as usize].kind == LocKind::Normal
                    && !seen.contains_key(&tr.dst)
                {
                    seen.insert(tr.dst, via);
                    work.push(tr.dst);
                }
            }
        }
    }
    None
}

/// The outcome a condition signal step `tr` of `t` stands for, where its location has
/// several (see [`schedule::Event::outcome`]).
fn signal_outcome(prog: &Program, t: ThreadId, tr: TransId) -> Option<u32> {
    let th = prog.thread(t);
    let x = th.transition(tr);
    let signal = TransKind::Sync(SyncKind::CondSignal);
    (x.kind == signal && th.outgoing(x.src).filter(|o| o.kind == signal).count() > 1)
        .then(|| th.arm(x) as u32)
}

/// The branch arms that select sections, and every other copy of the same branch (the same
/// condition, inlined elsewhere or run by another thread): the instrumented code reports the
/// arm in every copy, so every copy's arm is an event of the schedule too.
fn same_code_arms(prog: &Program, arms: Vec<(ThreadId, TransId)>) -> Vec<(ThreadId, TransId)> {
    // (An arm of the LLVM module is its successor: a copy the lowering decided has that arm
    // alone, [`verifier::ir::Transition::at`].)
    let arm = |th: &verifier::ir::Thread, x: &verifier::ir::Transition| match x.at {
        Some([_, k]) if prog.bitcode.is_some() => k as usize,
        _ => th.arm(x),
    };
    let code: HashSet<([u32; 2], usize)> = arms
        .iter()
        .filter_map(|&(t, tr)| {
            let x = prog.thread(t).transition(tr);
            (x.kind == TransKind::Branch)
                .then_some(x.at)
                .flatten()
                .map(|at| (at, arm(prog.thread(t), x)))
        })
        .collect();
    let mut out = arms;
    for th in &prog.threads {
        for tr in &th.transitions {
            if let (TransKind::Branch, Some(at)) = (&tr.kind, tr.at) {
                if code.contains(&(at, arm(th, tr))) {
                    out.push((th.id, tr.id));
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Makes the program schedule of `art`, an IVR of `prog`. The IVR checker decides first; an
/// ART that is not safe, deadlock-free and fair is rejected with its reason.
pub fn generate(prog: &Program, art: &Art, opts: Options) -> Result<ProgramSchedule, Error> {
    let mut checked = verifier::check::check_ivr(prog, art, opts.timeout_ms).map_err(rejected)?;
    generate_checked(&mut checked, opts)
}

/// Makes the program schedule of an IVR the verifier's checker accepted for `prog`, from what
/// the check established (an IVR checked for another program is checked again).
pub fn generate_from(
    prog: &Program,
    ivr: &CheckedArt,
    opts: Options,
) -> Result<ProgramSchedule, Error> {
    let mut checked = ivr.facts(prog, opts.timeout_ms).map_err(rejected)?;
    generate_checked(&mut checked, opts)
}

fn rejected(r: verifier::check::Rejection) -> Error {
    Error::Rejected {
        node: r.node.0,
        reason: r.reason,
    }
}

/// Makes the program schedule of a checked IVR, from the facts about its nodes the check
/// established (and asks the checker what it did not ask).
pub fn generate_checked(facts: &mut Checked, opts: Options) -> Result<ProgramSchedule, Error> {
    let (prog, art) = (facts.program(), facts.art());
    // (The model's thread ids and addresses are not a run's: `verifier::engine`.)
    if let Some(why) = &prog.observes_numbering {
        return Err(Error::Rejected {
            node: 0,
            reason: format!(
                "the program reads thread ids or addresses as numbers ({why}): no schedule \
                 of it is safe as far as the model knows"
            ),
        });
    }
    let pieces = sections::pieces(prog, art, facts)?;
    let objects = subsumable(prog);
    let removed = |tr: &Transition| removed_at(opts.opt, &objects, tr);
    let unroll = if opts.opt == Opt::O2 {
        opts.unroll.max(1)
    } else {
        1
    };
    // Sections: chains of pieces from a start node.
    let chain = |start: NodeId| -> (Vec<&Piece>, PieceEnd) {
        let mut visits: HashMap<NodeId, u32> = HashMap::from([(start, 1)]);
        let mut out = vec![&pieces.by_start[&start]];
        let mut steps = out[0].steps.len();
        loop {
            let end = &out.last().expect("a piece").end;
            match end {
                PieceEnd::Next(w) if visits.get(w).copied().unwrap_or(0) < unroll => {
                    let p = &pieces.by_start[w];
                    if steps + p.steps.len() > MAX_UNROLLED_STEPS {
                        return (out, end.clone());
                    }
                    *visits.entry(*w).or_insert(0) += 1;
                    steps += p.steps.len();
                    out.push(p);
                }
                _ => return (out, end.clone()),
            }
        }
    };
    let mut ids: HashMap<NodeId, u32> = HashMap::new();
    // Sections in id order: start node, path, end.
    type Raw = (NodeId, Vec<(ThreadId, TransId)>, PieceEnd);
    let mut order: Vec<Raw> = Vec::new();
    let mut queue = VecDeque::from([art.root()]);
    ids.insert(art.root(), 0);
    let mut finish_nodes = Vec::new();
    while let Some(s) = queue.pop_front() {
        let (ps, end) = chain(s);
        if let PieceEnd::Finish(v) = end {
            finish_nodes.push(pieces.members[&v][0]);
        }
        let path: Vec<_> = ps.iter().flat_map(|p| p.steps.iter().copied()).collect();
        let next: Vec<NodeId> = match &end {
            PieceEnd::Finish(_) => vec![],
            PieceEnd::Next(w) => vec![*w],
            PieceEnd::Branch { arms, .. } => arms.iter().map(|a| a.1).collect(),
        };
        for w in next {
            if !ids.contains_key(&w) {
                ids.insert(w, ids.len() as u32);
                queue.push_back(w);
            }
        }
        order.push((s, path, end));
    }
    let arms: Vec<(ThreadId, TransId)> = order
        .iter()
        .flat_map(|(_, _, end)| match end {
            PieceEnd::Branch { thread, arms } => arms.iter().map(|a| (*thread, a.0)).collect(),
            _ => vec![],
        })
        .collect();
    let arms = same_code_arms(prog, arms);
    let sites = sites::SiteTable::new(prog, &arms, &removed);
    let arm_set: HashSet<(ThreadId, TransId)> = arms.iter().copied().collect();
    let mut sections_out = Vec::with_capacity(order.len());
    for (s, path, end) in order {
        let evs: Vec<Ev> = path
            .iter()
            .enumerate()
            .filter(|(_, &(t, tr))| {
                let x = prog.thread(t).transition(tr);
                (sites::is_visible(x) && !removed(x)) || arm_set.contains(&(t, tr))
            })
            .map(|(i, &(t, tr))| Ev {
                step: i,
                thread: t,
                trans: tr,
            })
            .collect();
        // (A path through a call of an environment model has one of the model's paths for
        // all of them: what it says of indices holds for that one only.)
        let environment = (path.iter()).any(|&(t, tr)| prog.thread(t).transition(tr).environment);
        let idx = (opts.opt == Opt::O2 && !environment)
            .then(|| facts.section(&pieces.members[&s], &path));
        let vcs = clocks::vector_clocks(prog, &evs, idx);
        let events = evs
            .iter()
            .zip(vcs)
            .map(|(e, vc)| Event {
                thread: e.thread,
                site: sites
                    .site_of(e.thread, e.trans)
                    .expect("every visible transition and arm has a site"),
                step: e.step as u32,
                child: prog.thread(e.thread).transition(e.trans).spawned(),
                outcome: signal_outcome(prog, e.thread, e.trans),
                vc,
            })
            .collect();
        let (end, branch_thread, successors) = match end {
            PieceEnd::Finish(_) => (End::Finish, None, vec![]),
            PieceEnd::Next(w) => (
                End::Next,
                None,
                vec![Successor {
                    site: None,
                    arm: None,
                    section: ids[&w],
                }],
            ),
            PieceEnd::Branch { thread, arms } => (
                End::Branch,
                Some(thread),
                arms.iter()
                    .map(|&(tr, w)| Successor {
                        site: sites.site_of(thread, tr),
                        arm: Some(tr),
                        section: ids[&w],
                    })
                    .collect(),
            ),
        };
        sections_out.push(Section {
            id: ids[&s],
            start_node: pieces.members[&s][0].0,
            path,
            events,
            end,
            branch_thread,
            successors,
        });
    }
    let threads = prog
        .threads
        .iter()
        .map(|t| ThreadInfo {
            name: t.name.clone(),
            function: t.function.clone(),
            created_by: t.created_by.map(|(c, tr)| (c, sites.site_of(c, tr))),
        })
        .collect();
    let source = prog
        .files
        .first()
        .map(|f| f.path.clone())
        .unwrap_or_default();
    let mut sched = ProgramSchedule {
        format: schedule::FORMAT.into(),
        program_sha256: prog.sha256.clone(),
        source,
        opt: opts.opt.level(),
        unroll,
        threads,
        sites,
        sections: sections_out,
        initial: 0,
        stats: Default::default(),
    };
    // A loop of the proof without events ends the schedule (`ProgramSchedule::end_cycle`),
    // unless a thread that stays where it is in the loop waits there only in the IR: at a
    // synchronisation this level removes, or behind an atomic region (whose markers Opt1 and
    // Opt2 remove). The deployed thread would not wait, and would run code the proof never
    // reaches.
    // (Each transition's answer once: loops and ends revisit the same code.)
    let mut faults: HashMap<(ThreadId, TransId), bool> = HashMap::new();
    let mut may_fault = |t: ThreadId, tr: &Transition| {
        *faults
            .entry((t, tr.id))
            .or_insert_with(|| facts.may_fault(tr))
    };
    // Every loop of the schedule, with events or without: a thread that does not move in it
    // stays where it is while the loop runs (the section builder's fairness check shows it is
    // disabled there: blocked, or shut out by an atomic region), and must stay there when
    // deployed.
    for (t, c) in sched.left_in_loops() {
        let v = NodeId(sched.sections[c as usize].start_node);
        if let Some(e) = left_waiting(
            prog,
            art,
            v,
            &|u| u == t,
            opts.opt,
            &removed,
            &mut may_fault,
            Ending::Loop,
        ) {
            return Err(e);
        }
    }
    while let Some(cycle) = sched.idle_cycle() {
        sched.end_cycle(&cycle);
    }
    // The same at the end of the program, unless the execution is discarded (an input
    // assumption failed: the deployed program aborts).
    for v in finish_nodes {
        let c = &art.node(v).control;
        let discarded = c.locs.iter().enumerate().any(|(t, l)| {
            l.is_some_and(|l| prog.threads[t].locations[l.0 as usize].kind == LocKind::Discard)
        });
        if !discarded {
            if let Some(e) = left_waiting(
                prog,
                art,
                v,
                &|_| true,
                opts.opt,
                &removed,
                &mut may_fault,
                Ending::Program,
            ) {
                return Err(e);
            }
        }
    }
    sched.compute_stats();
    debug_assert_eq!(sched.validate(), Ok(()));
    Ok(sched)
}
