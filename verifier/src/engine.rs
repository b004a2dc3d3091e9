//! Which engine decides a program in iterative mode. The explicit-state search
//! ([`crate::explicit`]) goes first: where a program's states are concrete and few, it gives
//! the first IVR and the verdict at once. Where it cannot represent the program (inputs whose
//! value matters) or runs out of its share of the budget, the symbolic engine
//! ([`crate::imc`], McMillan's lazy abstraction with interpolants as Impara extends it to
//! threads) goes on with the time left.

use crate::explicit::{self, Budget};
use crate::imc::{Counterexample, Ivr, IvrKind, Options, ProgressFn, Report, Verdict, Verifier};
use crate::ir::Program;
use crate::scope;
use std::time::{Duration, Instant};

/// The engines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Engine {
    /// The explicit-state search, then the symbolic engine with the time left.
    #[default]
    Auto,
    /// Only the explicit-state search.
    Explicit,
    /// Only the symbolic engine.
    Impact,
}

/// The explicit search's share of the time limit in [`Engine::Auto`].
const EXPLICIT_SHARE: f64 = 0.5;

/// The share of the time limit the search of small scopes may take ([`crate::scope`]).
const HUNT_SHARE: f64 = 0.9;

/// The share of the time limit the stateless search of a program without a thread bound may
/// take beside the engines: the bugs it finds that they miss, it finds soon, and it slows
/// an explicit search of many states on the other core (both are bound by memory).
const HUNT_SHARE_ITSELF: f64 = 0.2;

/// The share of the time limit in [`Engine::Auto`] the explicit search may spend on its
/// first safe schedule (see [`Budget::first_schedule_time`]).
const FIRST_SCHEDULE_SHARE: f64 = 0.85;

/// The share of the time limit the thread-modular proof of a program the thread bound limits
/// may take ([`crate::explicit::modular`]).
const MODULAR_SHARE: f64 = 0.25;

/// Most views of the thread-modular proof.
const MODULAR_VIEWS: usize = 2_000_000;

/// Runs the iterative algorithm with `engine`: IVRs go to `sink`, numbered from 1 across the
/// engines.
pub fn run_iterative(
    prog: &Program,
    opts: Options,
    engine: Engine,
    max_ivrs: usize,
    progress: Option<ProgressFn>,
    sink: &mut dyn FnMut(&Ivr),
) -> Report {
    run_iterative_scoped(prog, None, opts, engine, max_ivrs, progress, sink)
}

/// [`run_iterative`], where `scopes` lowers the program in small scopes ([`crate::scope`]):
/// a search there for bugs of the program without its thread bound (of the program itself,
/// where it has none) runs beside the engines, and a bug it finds decides `partially safe`
/// once they have a safe schedule.
///
/// A program that reads thread ids or addresses as numbers ([`Program::observes_numbering`])
/// decides on values the model makes up: a run's are others (glibc's thread ids and
/// `malloc`'s blocks are aligned addresses, say), so a schedule shown safe with the model's
/// values may not be safe with a run's. Such a program gets no safe schedule and no `safe`
/// verdict: only the bugs the engines find, as `unknown`.
pub fn run_iterative_scoped(
    prog: &Program,
    scopes: Option<scope::Lower>,
    opts: Options,
    engine: Engine,
    max_ivrs: usize,
    progress: Option<ProgressFn>,
    sink: &mut dyn FnMut(&Ivr),
) -> Report {
    let Some(why) = &prog.observes_numbering else {
        return run_engines(prog, scopes, opts, engine, max_ivrs, progress, sink);
    };
    let (mut shown, mut dropped) = (0, false);
    let mut bugs_only = |ivr: &Ivr| {
        if matches!(ivr.kind, IvrKind::Counterexample(_)) {
            shown += 1;
            let mut ivr = ivr.clone();
            ivr.index = shown;
            sink(&ivr);
        } else {
            dropped = true;
        }
    };
    let mut r = run_engines(
        prog,
        scopes,
        opts,
        engine,
        max_ivrs,
        progress,
        &mut bugs_only,
    );
    if dropped && matches!(r.verdict, Verdict::Unknown(_)) {
        // (Why a run stopped after a safe schedule that is not claimed says nothing.)
        r.verdict = Verdict::Safe;
    }
    without_safe_claims(r, why, shown)
}

/// Report `r` of a program that reads thread ids or addresses as numbers (`why`), of which
/// `shown` IVRs (its bugs) were emitted: nothing in it is claimed safe.
pub fn without_safe_claims(r: Report, why: &str, shown: usize) -> Report {
    let verdict = match r.verdict {
        Verdict::Safe | Verdict::PartiallySafe => Verdict::Unknown(format!(
            "the program reads thread ids or addresses as numbers ({why}), and the model's \
             numbers are not a run's: no schedule is claimed safe{}",
            match r.counterexamples.is_empty() {
                true => "",
                false => "; the bug shown may depend on them too",
            }
        )),
        // (Complete mode's: the bug may be the model's numbers'.)
        Verdict::BugFound => Verdict::Unknown(format!(
            "a bug was found, but the program reads thread ids or addresses as numbers \
             ({why}), and the bug may depend on the model's numbers"
        )),
        v => v,
    };
    Report {
        verdict,
        ivrs: shown,
        first_safe_ivr: None,
        any_thread_count: None,
        ..r
    }
}

/// [`run_iterative_scoped`] for a program whose numbers are a run's.
fn run_engines(
    prog: &Program,
    scopes: Option<scope::Lower>,
    opts: Options,
    engine: Engine,
    max_ivrs: usize,
    progress: Option<ProgressFn>,
    sink: &mut dyn FnMut(&Ivr),
) -> Report {
    let start = Instant::now();
    let lower = scopes.clone();
    // The search of small scopes starts first: on the other core, it goes on while the
    // thread-modular proof is tried, and is dropped (stopped) where that holds.
    let hunt = scopes.map(|lower| {
        let (scopes, share) = match prog.thread_bound {
            Some(_) => (&scope::SMALL_THEN_BOUNDED[..], HUNT_SHARE),
            None => (&scope::ITSELF[..], HUNT_SHARE_ITSELF),
        };
        let slot = opts.bug_found.clone();
        scope::Hunt::start(lower, scopes, start + opts.timeout.mul_f64(share), slot)
    });
    if let Some(r) = any_thread_count(prog, lower.as_ref(), &opts, start) {
        return r;
    }
    let impact = |opts: Options, progress: Option<ProgressFn>, sink: &mut dyn FnMut(&Ivr)| {
        let mut v = Verifier::new(prog, opts);
        if let Some(p) = progress {
            v.set_progress(p);
        }
        v.run_iterative(max_ivrs, sink)
    };
    // Pair turns are a policy of the symbolic engine's scheduler only.
    if engine == Engine::Impact || (engine == Engine::Auto && opts.pair_turns > 1) {
        return impact(opts, progress, sink);
    }
    let budget = Budget {
        time: match engine {
            Engine::Explicit => opts.timeout,
            _ => opts.timeout.mul_f64(EXPLICIT_SHARE),
        },
        // Its search for the first safe schedule may go on longer.
        first_schedule_time: opts.timeout.mul_f64(FIRST_SCHEDULE_SHARE),
        // A state space found safe is checked with the whole time limit.
        check_time: opts.timeout.saturating_sub(Duration::from_millis(500)),
        ..Budget::default()
    };
    let fallback =
        match explicit::run_iterative(prog, hunt.as_ref(), &opts, &budget, start, max_ivrs, sink) {
            Ok(r) => return with_hunt(prog, r, hunt.as_ref(), start, max_ivrs, None, sink),
            Err(f) => f,
        };
    let spent = start.elapsed();
    // The explicit search (or its checker) may have used the whole time limit.
    let out_of_time = spent >= opts.timeout;
    if engine == Engine::Explicit || fallback.ivrs >= max_ivrs || out_of_time {
        let r = Report {
            ivrs: fallback.ivrs,
            first_safe_ivr: fallback.first_safe_ivr,
            ..without_art(Verdict::Unknown(fallback.reason), start)
        };
        return with_hunt(prog, r, hunt.as_ref(), start, max_ivrs, None, sink);
    }
    let rest = Options {
        timeout: opts.timeout.saturating_sub(spent),
        doomed: hunt.as_ref().map(scope::Hunt::doomed_flag),
        ..opts
    };
    let mut offset = fallback.ivrs;
    // Without a safe schedule, a bug the search beside the engines found by now is shown
    // before the symbolic engine starts (it may not return before the time limit).
    let early = fallback.first_safe_ivr.is_none() && offset < max_ivrs;
    if let Some(cex) = hunt
        .as_ref()
        .filter(|_| early)
        .and_then(|h| h.wait(Instant::now()))
    {
        offset += 1;
        let unavoidable = judged(prog, &cex, hunt.as_ref()).is_ok();
        sink(&bug_ivr(offset, cex.clone(), start, 0, 0));
        if unavoidable {
            // Every scheduler meets it: there is no safe schedule for the symbolic engine to
            // look for.
            return Report {
                ivrs: offset,
                counterexamples: vec![cex.clone()],
                counterexample: Some(cex),
                ..without_art(Verdict::Unsafe, start)
            };
        }
    }
    let shown = (offset > fallback.ivrs).then_some(offset);
    let mut renumbered = |ivr: &Ivr| {
        let mut ivr = ivr.clone();
        ivr.index += offset;
        ivr.time += spent;
        sink(&ivr);
    };
    let mut r = impact(rest, progress, &mut renumbered);
    // What made the explicit search's states too many, where it could tell, stays in the
    // answer: it is often what the user can change (a counter without a bound).
    if let (Verdict::Unknown(reason), Some(k)) = (
        &mut r.verdict,
        fallback.reason.find(crate::explicit::GROWTH),
    ) {
        let cells = &fallback.reason[k + 2..];
        reason.push_str(&format!("; in the explicit search, {cells}"));
    }
    r.time += spent;
    r.ivrs += offset;
    r.first_safe_ivr = fallback
        .first_safe_ivr
        .or(r.first_safe_ivr.map(|d| d + spent));
    with_hunt(prog, r, hunt.as_ref(), start, max_ivrs, shown, sink)
}

/// Whether every scheduler meets `cex`, the bug of `hunt`, the search beside the engines:
/// as the search judged it where it has (its judgement also stopped the engines, and a second
/// one may differ where a time limit cuts it short), otherwise judged here; a bug of a small
/// scope in the program it is an execution of.
fn judged(prog: &Program, cex: &Counterexample, hunt: Option<&scope::Hunt>) -> Result<(), String> {
    if hunt.is_some_and(scope::Hunt::doomed) {
        return Ok(());
    }
    crate::unavoidable::unavoidable(cex.program(prog), &cex.execution)
}

/// `safe` for any number of threads, where the program's thread bound limits it and a
/// thread-modular proof of its smallest scope shows that.
fn any_thread_count(
    prog: &Program,
    lower: Option<&scope::Lower>,
    opts: &Options,
    start: Instant,
) -> Option<Report> {
    prog.thread_bound?;
    if !opts.any_thread_count {
        return None;
    }
    let one = lower?(Some(1))?;
    let deadline = start + opts.timeout.mul_f64(MODULAR_SHARE);
    let proof = crate::explicit::modular::prove(&one, deadline, MODULAR_VIEWS);
    // (For diagnosing a program the proof does not cover: why, on standard error.)
    if std::env::var_os("SYNTH_DEBUG_MODULAR").is_some() {
        eprintln!(
            "thread-modular proof: {:?}",
            proof.as_ref().map(|p| p.views)
        );
    }
    let proof = proof.ok()?;
    Some(Report {
        meets_bound: false,
        any_thread_count: Some(proof),
        ..without_art(Verdict::Safe, start)
    })
}

/// A report of `verdict` reached without an ART of the engines' and without IVRs, at the time
/// since `start`.
fn without_art(verdict: Verdict, start: Instant) -> Report {
    Report {
        verdict,
        counterexample: None,
        nodes: 0,
        solver_calls: 0,
        refinements: 0,
        time: start.elapsed(),
        ivrs: 0,
        first_safe_ivr: None,
        counterexamples: vec![],
        meets_bound: true,
        any_thread_count: None,
    }
}

/// IVR `index`: bug `cex`, found by now (since `start`), after `nodes` ART nodes and
/// `solver_calls` solver calls.
fn bug_ivr(
    index: usize,
    cex: Counterexample,
    start: Instant,
    nodes: usize,
    solver_calls: u64,
) -> Ivr {
    Ivr {
        index,
        kind: IvrKind::Counterexample(Box::new(cex)),
        time: start.elapsed(),
        art_nodes: nodes,
        solver_calls,
    }
}

/// The words of an `unknown` verdict on bug `cex` of `prog` (found by the search beside the
/// engines; `shown` says where it is shown): that it was found, what it owes to the thread
/// bound, and that a scheduler may avoid it.
pub fn found_bug(prog: &Program, cex: &Counterexample, shown: &str) -> String {
    let note = prog.bound_note(true, Some((cex.program(prog), &cex.execution)));
    format!(
        "a bug was found and replayed{shown}{note}; a scheduler may avoid it as far as synth knows"
    )
}

/// `r`, unless it is `unknown` or `safe` with a safe schedule emitted, and `hunt` has found a
/// bug by now: then that bug, emitted as the last IVR where there is room for one (or shown
/// already as IVR `shown`), and with a safe schedule emitted `partially safe` (a `safe` the
/// bug contradicts is one of the bounded program; the bug, one of a small scope that occurs
/// without the bound, or one of the bounded program that an engine missed). Without one,
/// `unsafe` where no scheduler had a choice on the bug's way ([`crate::unavoidable`]), and
/// `unknown` naming the bug (and what it owes to the thread bound) otherwise.
fn with_hunt(
    prog: &Program,
    mut r: Report,
    hunt: Option<&scope::Hunt>,
    start: Instant,
    max_ivrs: usize,
    shown: Option<usize>,
    sink: &mut dyn FnMut(&Ivr),
) -> Report {
    let open = match r.verdict {
        Verdict::Unknown(_) => true,
        Verdict::Safe => r.first_safe_ivr.is_some(),
        _ => false,
    };
    if !open || (shown.is_none() && r.ivrs >= max_ivrs) {
        return r;
    }
    let Some(cex) = hunt.and_then(|h| h.wait(Instant::now())) else {
        return r;
    };
    let index = if let Some(index) = shown {
        // (Emitted before the symbolic engine started.)
        index
    } else {
        r.ivrs += 1;
        sink(&bug_ivr(
            r.ivrs,
            cex.clone(),
            start,
            r.nodes,
            r.solver_calls,
        ));
        r.ivrs
    };
    r.verdict = match (&r.verdict, r.first_safe_ivr) {
        (_, Some(_)) => Verdict::PartiallySafe,
        (Verdict::Unknown(why), None) => match judged(prog, &cex, hunt) {
            Ok(()) => Verdict::Unsafe,
            Err(avoidable) => Verdict::Unknown(format!(
                "{why}; {}: {avoidable}",
                found_bug(prog, &cex, &format!(" (IVR {index})"))
            )),
        },
        // (Not reached: `safe` without a safe IVR is not open.)
        (other, None) => other.clone(),
    };
    r.counterexamples.push(cex.clone());
    r.counterexample = Some(cex);
    r.time = start.elapsed();
    r
}
