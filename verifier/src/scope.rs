//! Bugs in a small scope. A program that starts threads in a loop is verified with at most
//! `--max-threads` of them (creation beyond fails, [`Program::thread_bound`]): many threads,
//! whose executions the searches of the bounded program cannot cover in time, while its bugs
//! rarely need more than one or two threads of each kind (the small scope hypothesis of
//! Jackson's "Software Abstractions"). This module looks for them in the same program lowered
//! with at most one, then two, threads per start function
//! ([`crate::frontend::Options::max_threads_per_function`]), and then in the program with
//! its bound ([`SMALL_THEN_BOUNDED`]): the stateless search of
//! [`crate::explore`] (DPOR, as Flanagan and Godefroid's "Dynamic partial-order reduction for
//! model checking software"), with inputs 0 and 1 (up to 4 where the narrower range is
//! searched through, then the values at the program's checks), explores it far sooner.
//!
//! A bug found is replayed on the interpreter, and kept only where it does not depend on the
//! creations the small scope refuses ([`Program::error_needs_bound`]): its steps are then the
//! start of an execution of the program without any bound, in which those creations succeed
//! and the threads they start have not run yet. That argument also needs the steps not to
//! depend on how threads and objects are numbered, which differs once a creation is refused
//! (the later threads and their objects come sooner): the program must not be able to tell
//! ([`Program::observes_numbering`]), and no step but a join may read a thread id a creation
//! wrote ([`Program::reads_thread_ids`]). [`holds_without_bound`] is that check, for the
//! search and for the IVR checker alike. A bug not found says nothing.
//!
//! The search runs on a thread of its own ([`Hunt`]), beside the engines that look for a safe
//! schedule of the bounded program: the two cores each do one. A program without a thread
//! bound is its own only scope: the same search then looks for its bugs beside the engines
//! (a portfolio of the stateless search, which finds bugs fast, and the engines, which find
//! safe schedules). Where the bug it finds is one every scheduler meets
//! ([`crate::unavoidable`]), no safe schedule exists, and the engines stop looking for one
//! ([`Hunt::doomed`]).

use crate::explore::{self, BugKind, Inputs, Unguided};
use crate::imc::Counterexample;
use crate::interp::{self, Replay};
use crate::ir::Program;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// Lowers the program with at most the given number of threads per start function, or
/// as it is (`None`); `None` where it cannot.
pub type Lower = Arc<dyn Fn(Option<usize>) -> Option<Program> + Send + Sync>;

/// The small scopes of a program the thread bound limits, in the order they are searched:
/// threads per start function.
pub const SMALL: [Option<usize>; 2] = [Some(1), Some(2)];

/// The scopes the search beside the engines goes through for a program the thread bound
/// limits: the small ones, then the program with its bound, for bugs that need more
/// threads of one start function than a small scope has. The bounded program's bugs are
/// its own (a verdict on them says "with at most N threads").
pub const SMALL_THEN_BOUNDED: [Option<usize>; 3] = [Some(1), Some(2), None];

/// The scope of a program without a thread bound: itself.
pub const ITSELF: [Option<usize>; 1] = [None];

/// A bug the search found, as soon as it found it ([`crate::imc::Options::bug_found`]).
pub type Found = Arc<std::sync::Mutex<Option<Counterexample>>>;

/// The flag a [`Hunt`] sets where its bug is one every scheduler meets ([`Hunt::doomed`]),
/// which the engines poll ([`is_doomed`]).
#[derive(Clone, Debug, Default)]
pub struct Doomed(Arc<AtomicBool>);

impl Doomed {
    /// Sets the flag where `doomed` holds (the hunt's bug is one every scheduler meets).
    pub fn set(&self, doomed: bool) {
        self.0.store(doomed, Ordering::Release);
    }
}

/// Whether `flag` is given and set: no safe schedule exists.
pub fn is_doomed(flag: Option<&Doomed>) -> bool {
    flag.is_some_and(|d| d.0.load(Ordering::Acquire))
}

/// A search of the small scopes on a thread of its own; dropped, it stops.
pub struct Hunt {
    found: mpsc::Receiver<Option<Counterexample>>,
    /// What the search ended with, once received.
    result: std::cell::RefCell<Option<Option<Counterexample>>>,
    cancel: Arc<AtomicBool>,
    doomed: Doomed,
}

impl Hunt {
    /// Starts looking for a bug (as [`bug`]) in `scopes` until `deadline`.
    /// The bug is also put into `slot`, where given, as soon as it is found.
    pub fn start(
        lower: Lower,
        scopes: &'static [Option<usize>],
        deadline: Instant,
        slot: Option<Found>,
    ) -> Hunt {
        let (tx, found) = mpsc::channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let doomed = Doomed::default();
        let (stop, unavoidable) = (cancel.clone(), doomed.clone());
        std::thread::spawn(move || {
            let bug = bug(&*lower, scopes, deadline, Some(stop.clone()));
            if let (Some(slot), Some(b)) = (slot, &bug) {
                if let Ok(mut s) = slot.lock() {
                    *s = Some(b.clone());
                }
            }
            // Sent first, for the engines to show at once; then judged (the bug of the
            // program itself in a lowering of its own), and the flag set after the send:
            // where it is set, [`Hunt::wait`] has the bug.
            let _ = tx.send(bug.clone());
            let Some(b) = bug.filter(|_| !stop.load(Ordering::Relaxed)) else {
                return;
            };
            let judged = |p: &Program| crate::unavoidable::unavoidable(p, &b.execution).is_ok();
            let every_scheduler_meets = match &b.scope {
                Some(p) => judged(p),
                None => lower(None).is_some_and(|p| judged(&p)),
            };
            unavoidable.set(every_scheduler_meets);
        });
        Hunt {
            found,
            result: std::cell::RefCell::new(None),
            cancel,
            doomed,
        }
    }

    /// Whether the search has found a bug that every scheduler meets
    /// ([`crate::unavoidable::unavoidable`] in the program it is an execution of): no safe
    /// schedule exists, and [`Hunt::wait`] gives the bug at once.
    pub fn doomed(&self) -> bool {
        is_doomed(Some(&self.doomed))
    }

    /// The flag [`Hunt::doomed`] reads, for a search that polls it.
    pub fn doomed_flag(&self) -> Doomed {
        self.doomed.clone()
    }

    /// The bug found, waiting for the search until `until` at most (the same bug at every
    /// call once it is found).
    pub fn wait(&self, until: Instant) -> Option<Counterexample> {
        if let Some(result) = &*self.result.borrow() {
            return result.clone();
        }
        let left = until.saturating_duration_since(Instant::now());
        let result = self.found.recv_timeout(left).ok()?;
        *self.result.borrow_mut() = Some(result.clone());
        result
    }
}

impl Drop for Hunt {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

/// Most scheduling points of one execution (a creation loop a small scope refuses still
/// runs each of its rounds). The search keeps a copy of the state per point of the
/// execution it is in: the bound is also one on its memory, about 3.5 GB where a state
/// holds 20,000 thread ids (goblint's programs with 10,000 threads), and little where a state is small.
const MAX_DEPTH: usize = 20_000;

/// Whether the bug `e` of `prog`, a small scope of a program, is one of that program
/// without any thread bound: it needs no refused creation, and its steps cannot tell how
/// threads and objects are numbered.
pub fn holds_without_bound(prog: &Program, e: &crate::interp::Execution) -> bool {
    e.outcome.is_program_bug()
        && prog.observes_numbering.is_none()
        && !prog.error_needs_bound(e)
        && !prog.reads_thread_ids(e)
}

/// Looks for a bug of the program without the thread bound in `scopes` (lowered by
/// `lower`) until `deadline` (or until `cancel` is set), the time split evenly between the
/// small ones; the program itself (`None`) has the time they leave.
pub fn bug(
    lower: &dyn Fn(Option<usize>) -> Option<Program>,
    scopes: &[Option<usize>],
    deadline: Instant,
    cancel: Option<Arc<AtomicBool>>,
) -> Option<Counterexample> {
    for (i, &k) in scopes.iter().enumerate() {
        if cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
            return None;
        }
        let now = Instant::now();
        let left = deadline.saturating_duration_since(now);
        if left.is_zero() {
            return None;
        }
        // The small scopes share the time; the bounded program after them has what they
        // leave.
        let small_left = scopes[i..].iter().filter(|k| k.is_some()).count();
        let share = match k {
            Some(_) => left / small_left as u32,
            None => left,
        };
        let Some(prog) = lower(k) else {
            continue;
        };
        if let Some(cex) = bug_in(prog, k, share, cancel.clone()) {
            return Some(cex);
        }
    }
    None
}

/// A bug of `prog`, the program with at most `k` threads per start function (or the
/// program itself), found within `time`, that does not depend on a refused creation.
fn bug_in(
    prog: Program,
    k: Option<usize>,
    time: Duration,
    cancel: Option<Arc<AtomicBool>>,
) -> Option<Counterexample> {
    let end = Instant::now() + time;
    let mut opts = explore::Options {
        max_depth: MAX_DEPTH,
        inputs: Inputs::Range { lo: 0, hi: 1 },
        timeout: Some(time),
        cancel,
        // One worker: the split of a search between workers re-executes paths, and a
        // search this short gains little from it (and varies from run to run with it).
        jobs: 1,
        ..explore::Options::default()
    };
    // Inputs 0 and 1, and where that search covers every execution, up to 2, 3 and 4
    // (a bug of `y == 2`).
    // Then, where that too is searched through, 0 and the values at the program's checks
    // (`n >= 5 && n <= 10`: 5, 6, 9, 10, 11).
    let mut first = None;
    let mut ranges = (1..=MAX_INPUT).map(|hi| Inputs::Range { lo: 0, hi });
    let mut boundary = Some(boundary_inputs(&prog)).filter(|b| b.len() > 1);
    while let Some(inputs) = ranges.next().or_else(|| boundary.take().map(Inputs::List)) {
        opts.inputs = inputs;
        opts.timeout = Some(end.saturating_duration_since(Instant::now()));
        let report = explore::explore(&prog, &Unguided, &opts, None);
        let complete = report.stats.complete;
        first = report.bugs.into_iter().find_map(|b| kept(&prog, k, b));
        if first.is_some() || !complete || Instant::now() >= end {
            break;
        }
    }
    if first.is_some() || k.is_none() {
        return first;
    }
    // The first bug needs the scope: the search goes on for others, with the time left.
    let opts = explore::Options {
        timeout: Some(end.saturating_duration_since(Instant::now())),
        stop_at_first_bug: false,
        max_bugs: MAX_BUGS,
        ..opts
    };
    let report = explore::explore(&prog, &Unguided, &opts, None);
    report.bugs.into_iter().find_map(|b| kept(&prog, k, b))
}

/// Largest input value the search of a scope tries (inputs from 0, the range widened while
/// the search of the narrower one covers every execution).
const MAX_INPUT: i128 = 4;

/// 0 and the constants the program's guards compare with and their neighbours
/// ([`crate::explicit::unknowns::thresholds`]) beyond `0..=MAX_INPUT`, the nearest to 0
/// first, at most [`MAX_BOUNDARY`] of them, and none of magnitude over [`MAX_BOUNDARY_VALUE`]
/// (thread ids and addresses are compared as numbers too).
fn boundary_inputs(prog: &Program) -> Vec<i128> {
    let mut out: Vec<i128> = crate::explicit::unknowns::thresholds(prog)
        .into_iter()
        .filter(|v| !(0..=MAX_INPUT).contains(v) && v.abs() <= MAX_BOUNDARY_VALUE)
        .collect();
    out.sort_by_key(|v| (v.abs(), *v));
    out.truncate(MAX_BOUNDARY);
    out.insert(0, 0);
    out
}

/// Most values beside 0 that [`boundary_inputs`] gives.
const MAX_BOUNDARY: usize = 12;

/// Largest magnitude of a value [`boundary_inputs`] gives.
const MAX_BOUNDARY_VALUE: i128 = 1 << 16;

/// Most bugs the search of a scope collects when the first needs the scope.
const MAX_BUGS: usize = 10;

/// Bug `bug` of `prog` (the program with at most `k` threads per start function, or the
/// program itself) as a replayed counterexample, where it does not depend on a refused
/// creation.
fn kept(prog: &Program, k: Option<usize>, bug: explore::Bug) -> Option<Counterexample> {
    if !matches!(
        bug.kind,
        BugKind::Error | BugKind::Deadlock | BugKind::Undefined
    ) {
        return None;
    }
    let mut replay = Replay::new(
        bug.steps
            .iter()
            .map(|s| (s.thread, Some(s.transition)))
            .collect(),
        bug.steps.iter().flat_map(|s| s.inputs.clone()).collect(),
    );
    let whole = replay.clone();
    let (execution, _) = interp::run(prog, &mut replay, bug.steps.len() + 1);
    // (Undefined behaviour only where it is a memory-safety violation.)
    if !execution.outcome.is_program_bug() {
        return None;
    }
    // Where the whole execution needs a refused creation (a join of the thread it would
    // have started, say), the steps its error depends on may not. (The replay of the whole
    // execution names the step that faults, which the execution's steps do not.)
    let (replay, execution) = if k.is_some() && !holds_without_bound(prog, &execution) {
        let past = prog
            .causal_past(&execution)
            .filter(|past| holds_without_bound(prog, past))?;
        (Replay::of(&past), past)
    } else {
        (whole, execution)
    };
    Some(Counterexample {
        replay,
        execution,
        threads_per_function: k,
        scope: k.map(|_| Arc::new(prog.clone())),
    })
}
