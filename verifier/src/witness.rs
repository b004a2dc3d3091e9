//! Concrete witnesses of paths: the inputs and initial values that drive a sequence of
//! transitions to a bad state, found by the solver from the path's strongest postcondition
//! (the path formula of bounded model checking, Biere, Cimatti, Clarke and Zhu, "Symbolic
//! Model Checking without BDDs"), and the execution they give replayed on the interpreter,
//! the reference semantics. A bug is reported only as such a replayed execution: the symbolic
//! engine ([`crate::imc`]) confirms its error paths this way, and the explicit engine
//! ([`crate::explicit`]) the paths it found with inputs it did not know.

use crate::encode::Encoder;
use crate::imc::Counterexample;
use crate::interp::{self, Outcome, Replay};
use crate::ir::*;
use crate::smt::{Answer, Smt, Term};

/// What the search for a witness found.
pub enum Witness {
    /// The replayed execution ends in an error, a deadlock or undefined behaviour.
    Replayed(Counterexample),
    /// No inputs and initial values drive the path to the bad state.
    Infeasible,
    /// Cannot tell (the solver, or a replay that went elsewhere), and why.
    Unknown(String),
}

/// The witness of `path` (each step a thread's transition, from the initial state) ending in
/// a state where `bad` (over the current variables) holds; no step has undefined behaviour.
pub fn witness(
    prog: &Program,
    enc: &Encoder,
    smt: &mut Smt,
    path: &[(ThreadId, TransId)],
    bad: &Term,
) -> Witness {
    solve(prog, enc, smt, path, Some(bad))
}

/// The witness of `path` whose last step has undefined behaviour (a fault of the
/// interpreter: a memory error, say) and no step before it has.
pub fn fault_witness(
    prog: &Program,
    enc: &Encoder,
    smt: &mut Smt,
    path: &[(ThreadId, TransId)],
) -> Witness {
    solve(prog, enc, smt, path, None)
}

/// [`witness`] with `bad`, [`fault_witness`] without.
fn solve(
    prog: &Program,
    enc: &Encoder,
    smt: &mut Smt,
    path: &[(ThreadId, TransId)],
    bad: Option<&Term>,
) -> Witness {
    let s0 = enc.renamed("@0");
    let mut cs = vec![enc.initial(&s0), enc.ranges(&s0)];
    let mut s = s0.clone();
    let mut inputs_per_step = Vec::new();
    for (k, &(t, tr)) in path.iter().enumerate() {
        let st = enc.step(prog.thread(t).transition(tr), &s);
        cs.push(st.guard);
        if bad.is_none() && k + 1 == path.len() {
            cs.push(st.undefined);
        } else {
            cs.push(Term::not(st.undefined));
        }
        cs.push(st.input_ranges);
        inputs_per_step.push(
            st.inputs
                .iter()
                .map(|(n, srt)| Term::Var(n.clone(), *srt))
                .collect::<Vec<_>>(),
        );
        s = st.post;
    }
    // `bad` is over the current variables: evaluate it in the final state.
    if let Some(bad) = bad {
        cs.push(enc.instantiate(bad, &s));
    }
    smt.push();
    for c in &tightest_bounds(&cs) {
        smt.assert(c);
    }
    let r = smt.check();
    let model = if r == Answer::Sat {
        let mut ask: Vec<(String, Term)> = Vec::new();
        for (k, ins) in inputs_per_step.iter().enumerate() {
            for (j, t) in ins.iter().enumerate() {
                ask.push((format!("in/{k}/{j}"), t.clone()));
            }
        }
        for v in &prog.vars {
            if v.init == Init::Nondet {
                for i in 0..v.len {
                    let t = if enc.is_array(v.id) {
                        Term::select(s0.vals[v.id.0 as usize].clone(), Term::int(i as i128))
                    } else {
                        s0.vals[v.id.0 as usize].clone()
                    };
                    ask.push((format!("init/{}/{i}", v.id.0), t));
                }
            }
        }
        smt.model(&ask)
    } else {
        None
    };
    smt.pop();
    match r {
        Answer::Unsat => return Witness::Infeasible,
        Answer::Unknown(why) => return Witness::Unknown(format!("solver: {why}")),
        Answer::Sat => {}
    }
    let Some(m) = model else {
        return Witness::Unknown("no model for a feasible path".into());
    };
    let mut inputs = Vec::new();
    for (k, ins) in inputs_per_step.iter().enumerate() {
        let (t, tr) = path[k];
        let havocs = prog
            .thread(t)
            .transition(tr)
            .ops
            .iter()
            .filter(|o| matches!(o, Op::Havoc { .. }))
            .count();
        for j in 0..ins.len().min(havocs) {
            inputs.push(*m.ints.get(&format!("in/{k}/{j}")).unwrap_or(&0));
        }
    }
    let mut initial = Vec::new();
    for v in &prog.vars {
        if v.init == Init::Nondet {
            for i in 0..v.len {
                if let Some(x) = m.ints.get(&format!("init/{}/{i}", v.id.0)) {
                    initial.push((v.id, i as i128, *x));
                }
            }
        }
    }
    let schedule = path.iter().map(|&(t, tr)| (t, Some(tr))).collect();
    let mut replay = Replay::new(schedule, inputs);
    replay.initial = initial;
    // One more step than the path: a deadlock or error shows after its last transition.
    let run = |replay: &Replay| interp::run(prog, &mut replay.clone(), path.len() + 1).0;
    let execution = run(&replay);
    match &execution.outcome {
        Outcome::Error { .. } | Outcome::Deadlock { .. } | Outcome::Undefined { .. } => {
            let (replay, execution) = zero_initial(replay, execution, run);
            Witness::Replayed(Counterexample::new(replay, execution))
        }
        other => Witness::Unknown(format!("a path to a bad state did not replay ({other:?})")),
    }
}

/// The replay with the initial values of uninitialised memory that the bug does not need set
/// to 0 (the solver's model picks any value for memory written before it is read), so that
/// the trace names only the values the bug rests on. Tried as in delta debugging: all of
/// them at once, then each variable's, then each cell's of the variables still needed; a
/// set stays 0 where the replay ends in the same outcome after as many steps (the schedule
/// names each step's transition, so it is the same path). At most [`ZEROING_STEPS`] steps
/// are replayed in all.
fn zero_initial(
    mut replay: Replay,
    mut execution: interp::Execution,
    run: impl Fn(&Replay) -> interp::Execution,
) -> (Replay, interp::Execution) {
    let all: Vec<usize> = (0..replay.initial.len())
        .filter(|&k| replay.initial[k].2 != 0)
        .collect();
    if all.is_empty() {
        return (replay, execution);
    }
    let mut vars: Vec<Vec<usize>> = Vec::new();
    for &k in &all {
        match vars.last_mut() {
            Some(g) if replay.initial[g[0]].0 == replay.initial[k].0 => g.push(k),
            _ => vars.push(vec![k]),
        }
    }
    let mut tries = ZEROING_STEPS / (execution.steps.len() + 1);
    let mut attempt = |replay: &mut Replay, execution: &mut interp::Execution, set: &[usize]| {
        if tries == 0 || set.iter().all(|&k| replay.initial[k].2 == 0) {
            return false;
        }
        tries -= 1;
        let mut tried = replay.clone();
        for &k in set {
            tried.initial[k].2 = 0;
        }
        let e = run(&tried);
        let same = e.outcome == execution.outcome && e.steps.len() == execution.steps.len();
        if same {
            (*replay, *execution) = (tried, e);
        }
        same
    };
    if attempt(&mut replay, &mut execution, &all) {
        return (replay, execution);
    }
    for g in &vars {
        if !attempt(&mut replay, &mut execution, g) && g.len() > 1 {
            for &k in g {
                attempt(&mut replay, &mut execution, &[k]);
            }
        }
    }
    (replay, execution)
}

/// Most steps [`zero_initial`] replays for one witness.
const ZEROING_STEPS: usize = 4_000_000;

/// The condition of a deadlock where thread `t` is at `control[t]` (`None`: finished): no
/// thread has an enabled transition, over the current variables.
pub fn deadlocked(prog: &Program, enc: &Encoder, control: &[Option<LocId>]) -> Term {
    let id = enc.identity();
    Term::and(control.iter().enumerate().flat_map(|(t, l)| {
        let t = prog.thread(ThreadId(t as u32));
        l.iter()
            .flat_map(move |&l| t.outgoing(l))
            .map(|tr| Term::not(enc.step(tr, &id).guard))
            .collect::<Vec<_>>()
    }))
}

/// The conjunction of `cs` with its constant bounds on one term kept only where tightest: a
/// loop that runs while `i < n` for an input `n` gives a path with one bound `k < n` per
/// round, and Z3's preprocessing of tens of thousands of them takes minutes (a path of 16,000
/// steps took 1.5 s, one of 155,000 more than a minute). Over the integers, `c < x` is
/// `c + 1 <= x`; the bounds of `x` are its greatest lower and least upper one.
fn tightest_bounds(cs: &[Term]) -> Vec<Term> {
    use rustc_hash::FxHashMap;
    let mut atoms = Vec::new();
    let mut stack: Vec<&Term> = cs.iter().rev().collect();
    while let Some(t) = stack.pop() {
        match t {
            Term::And(xs) => stack.extend(xs.iter().rev()),
            t => atoms.push(t),
        }
    }
    // Per bounded term: its greatest lower and least upper bound, in order of appearance.
    let mut bounds: FxHashMap<&Term, (Option<i128>, Option<i128>)> = FxHashMap::default();
    let mut order: Vec<&Term> = Vec::new();
    let mut rest = Vec::new();
    for t in atoms {
        // `a + strict <= b`, over the integers; then `lo <= x` or `x <= hi`.
        let parts = match t {
            Term::Le(a, b) => Some((&**a, &**b, 0)),
            Term::Lt(a, b) => Some((&**a, &**b, 1)),
            _ => None,
        };
        let bound = parts.and_then(|(a, b, strict)| match (a, b) {
            (Term::Int(c), x) if !matches!(x, Term::Int(_)) => {
                c.checked_add(strict).map(|c| (x, Some(c), None))
            }
            (x, Term::Int(c)) => c.checked_sub(strict).map(|c| (x, None, Some(c))),
            _ => None,
        });
        let Some((x, lo, hi)) = bound else {
            rest.push(t.clone());
            continue;
        };
        let e = bounds.entry(x).or_insert_with(|| {
            order.push(x);
            (None, None)
        });
        e.0 = e.0.max(lo);
        e.1 = e.1.into_iter().chain(hi).min();
    }
    for x in order {
        let (lo, hi) = bounds[x];
        if let Some(lo) = lo {
            rest.push(Term::le(Term::int(lo), x.clone()));
        }
        if let Some(hi) = hi {
            rest.push(Term::le(x.clone(), Term::int(hi)));
        }
    }
    rest
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::smt::Sort;

    #[test]
    fn only_the_tightest_constant_bounds_of_a_term_are_kept() {
        let n = Term::Var("n".into(), Sort::Int);
        let m = Term::Var("m".into(), Sort::Int);
        let mut cs: Vec<Term> = (0..100)
            .map(|k| Term::lt(Term::int(k), n.clone()))
            .collect();
        cs.push(Term::and([
            Term::le(n.clone(), Term::int(500)),
            Term::lt(n.clone(), Term::int(300)),
            Term::eq(m.clone(), n.clone()),
        ]));
        let t = tightest_bounds(&cs);
        assert_eq!(t.len(), 3, "{t:?}");
        assert!(t.contains(&Term::eq(m, n.clone())));
        assert!(t.contains(&Term::le(Term::int(100), n.clone())));
        assert!(t.contains(&Term::le(n, Term::int(299))));
    }
}
