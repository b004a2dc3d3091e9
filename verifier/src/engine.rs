//! Which engine decides a program in iterative mode. The explicit-state search
//! ([`crate::explicit`]) goes first: where a program's states are concrete and few, it gives
//! the first IVR and the verdict at once. Where it cannot represent the program (inputs whose
//! value matters) or runs out of its share of the budget, the symbolic engine
//! ([`crate::imc`], McMillan's lazy abstraction with interpolants as Impara extends it to
//! threads) goes on with the time left.

use crate::explicit::{self, Budget};
use crate::imc::{Ivr, Options, ProgressFn, Report, Verdict, Verifier};
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
/// once the explicit search has a safe schedule, it looks there for bugs of the program
/// without its thread bound.
pub fn run_iterative_scoped(
    prog: &Program,
    scopes: Option<scope::Lower<'_>>,
    opts: Options,
    engine: Engine,
    max_ivrs: usize,
    progress: Option<ProgressFn>,
    sink: &mut dyn FnMut(&Ivr),
) -> Report {
    let start = Instant::now();
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
        // A state space found safe is checked with the whole time limit.
        check_time: opts.timeout.saturating_sub(Duration::from_millis(500)),
        ..Budget::default()
    };
    let fallback = match explicit::run_iterative(prog, scopes, &opts, &budget, max_ivrs, sink) {
        Ok(r) => return r,
        Err(f) => f,
    };
    let spent = start.elapsed();
    // The explicit search (or its checker) may have used the whole time limit.
    let out_of_time = spent >= opts.timeout;
    if engine == Engine::Explicit || fallback.ivrs >= max_ivrs || out_of_time {
        return Report {
            verdict: Verdict::Unknown(fallback.reason),
            counterexample: None,
            nodes: 0,
            solver_calls: 0,
            refinements: 0,
            time: start.elapsed(),
            ivrs: fallback.ivrs,
            first_safe_ivr: fallback.first_safe_ivr,
            counterexamples: vec![],
            meets_bound: true,
        };
    }
    let rest = Options {
        timeout: opts.timeout.saturating_sub(spent),
        ..opts
    };
    let offset = fallback.ivrs;
    let mut renumbered = |ivr: &Ivr| {
        let mut ivr = ivr.clone();
        ivr.index += offset;
        ivr.time += spent;
        sink(&ivr);
    };
    let mut r = impact(rest, progress, &mut renumbered);
    r.time += spent;
    r.ivrs += offset;
    r.first_safe_ivr = fallback
        .first_safe_ivr
        .or(r.first_safe_ivr.map(|d| d + spent));
    r
}
