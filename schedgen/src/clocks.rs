//! Section schedules as vector clocks (seed 002, "Partial-order reduction").
//!
//! The section schedule of a section path is the smallest partial order over its events that
//! keeps program order and orders every pair of dependent events of different threads in
//! path order. Two events are dependent when they access one variable and one of them writes
//! (a lock, unlock or barrier operation updates its object), when one starts the other's
//! thread, or when both begin or end atomic regions (which exclude each other). An event that
//! begins an atomic region also depends on what the events inside the region depend on (no
//! other thread moves inside it on the path), and on every earlier event when the region does
//! not end in the section. At Opt2, accesses to one array whose indices differ in every execution of the path
//! are independent; the solver decides that from the section's start label and the path.
//!
//! For event `e` of thread `T`, `vc(e)[U]` is the number of events of thread `U` in the
//! section that happen before `e` (for `U = T`, `e`'s position among `T`'s events).

use std::collections::HashMap;
use verifier::art::NodeId;
use verifier::check::NodeFacts;
use verifier::ir::{Access, Op, Program, ThreadId, TransId, Transition};
use verifier::smt::{Answer, Term};

/// One event of a section: the step of the section path it is.
#[derive(Clone, Copy, Debug)]
pub struct Ev {
    /// Index in the section path.
    pub step: usize,
    /// Thread.
    pub thread: ThreadId,
    /// Transition.
    pub trans: TransId,
}

/// Decides whether two array accesses of a section path may touch the same element.
pub struct Indices<'f, 'a> {
    facts: &'f mut NodeFacts<'a>,
    /// The index term of (step, event number), when the index is known in the pre-state.
    terms: HashMap<(usize, usize), Term>,
    cache: HashMap<(usize, usize, usize, usize), bool>,
}

impl<'f, 'a> Indices<'f, 'a> {
    /// Prepares the solver with the path from `start`: its label, the guards and the inputs'
    /// ranges of every step (the path is the only way the section can run).
    pub fn new(
        prog: &Program,
        facts: &'f mut NodeFacts<'a>,
        label_of: &dyn Fn(NodeId) -> Term,
        start: NodeId,
        path: &[(ThreadId, TransId)],
    ) -> Self {
        let ranges = facts.ranges().clone();
        let (enc, smt) = facts.solver();
        let mut state = enc.identity();
        let mut premise = vec![ranges, label_of(start)];
        let mut terms = HashMap::new();
        for (i, &(t, tr)) in path.iter().enumerate() {
            let tr = prog.thread(t).transition(tr);
            let assigned = assigned_vars(tr);
            for (k, e) in tr.events.iter().enumerate() {
                if let Some(ix) = &e.index {
                    let mut reads = Vec::new();
                    ix.for_each_place(&mut |p| reads.extend(p.vars()));
                    if reads.iter().all(|v| !assigned.contains(&v.0)) {
                        terms.insert((i, k), enc.eval(ix, &state));
                    }
                }
            }
            let st = enc.step(tr, &state);
            premise.push(st.guard);
            premise.push(Term::not(st.undefined));
            premise.push(st.input_ranges);
            state = st.post;
        }
        smt.push();
        smt.assert(&Term::and(premise));
        Indices {
            facts,
            terms,
            cache: HashMap::new(),
        }
    }

    /// Whether the `ka`-th event of step `a` and the `kb`-th of step `b` surely access
    /// different elements.
    fn distinct(&mut self, a: usize, ka: usize, b: usize, kb: usize) -> bool {
        if let Some(&d) = self.cache.get(&(a, ka, b, kb)) {
            return d;
        }
        let d = match (self.terms.get(&(a, ka)), self.terms.get(&(b, kb))) {
            (Some(x), Some(y)) => {
                let q = Term::eq(x.clone(), y.clone());
                let (_, smt) = self.facts.solver();
                smt.check_terms(&[q]) == Answer::Unsat
            }
            _ => false,
        };
        self.cache.insert((a, ka, b, kb), d);
        d
    }
}

impl Drop for Indices<'_, '_> {
    fn drop(&mut self) {
        self.facts.solver().1.pop();
    }
}

fn assigned_vars(tr: &Transition) -> Vec<u32> {
    let mut out = Vec::new();
    for op in &tr.ops {
        match op {
            Op::Assign { place, .. } | Op::Havoc { place, .. } => {
                out.extend(place.vars().iter().map(|v| v.0))
            }
            Op::Spawn { args, .. } => out.extend(args.iter().map(|a| a.0 .0)),
            _ => {}
        }
    }
    out
}

/// For each event that begins an atomic region: the thread's later events in the region (up
/// to its end), or `None` when the region does not end in the section.
fn regions(prog: &Program, events: &[Ev]) -> HashMap<usize, Option<Vec<usize>>> {
    let mut out = HashMap::new();
    for (i, e) in events.iter().enumerate() {
        let tr = prog.thread(e.thread).transition(e.trans);
        if !tr.begins_atomic() {
            continue;
        }
        let mut inside = Vec::new();
        let mut closed = false;
        for (j, f) in events.iter().enumerate().skip(i + 1) {
            if f.thread != e.thread {
                continue;
            }
            inside.push(j);
            if prog.thread(f.thread).transition(f.trans).ends_atomic() {
                closed = true;
                break;
            }
        }
        out.insert(i, closed.then_some(inside));
    }
    out
}

/// Whether two events of different threads must keep their path order.
fn dependent(prog: &Program, a: &Ev, b: &Ev, idx: &mut Option<Indices>) -> bool {
    let ta = prog.thread(a.thread).transition(a.trans);
    let tb = prog.thread(b.thread).transition(b.trans);
    if ta.spawned() == Some(b.thread) || tb.spawned() == Some(a.thread) {
        return true;
    }
    // Atomic regions exclude each other: their markers act on one lock.
    let marks = |tr: &Transition| tr.begins_atomic() || tr.ends_atomic();
    if marks(ta) && marks(tb) {
        return true;
    }
    for (ka, ea) in ta.events.iter().enumerate() {
        for (kb, eb) in tb.events.iter().enumerate() {
            if ea.var != eb.var || (ea.access == Access::Read && eb.access == Access::Read) {
                continue;
            }
            let separate = prog.var(ea.var).is_array
                && idx
                    .as_mut()
                    .is_some_and(|ix| ix.distinct(a.step, ka, b.step, kb));
            if !separate {
                return true;
            }
        }
    }
    false
}

/// The vector clocks of a section's events (in path order), one row of `threads` entries per
/// event.
pub fn vector_clocks(prog: &Program, events: &[Ev], mut idx: Option<Indices>) -> Vec<Vec<u32>> {
    let n = prog.threads.len();
    let mut count = vec![0u32; n];
    let mut last: Vec<Option<usize>> = vec![None; n];
    let mut clocks: Vec<Vec<u32>> = Vec::with_capacity(events.len());
    // Position of each event among its thread's events.
    let mut pos: Vec<u32> = Vec::with_capacity(events.len());
    let regions = regions(prog, events);
    for (i, e) in events.iter().enumerate() {
        let t = e.thread.0 as usize;
        let mut vc = match last[t] {
            Some(p) => clocks[p].clone(),
            None => vec![0; n],
        };
        vc[t] = count[t];
        for j in (0..i).rev() {
            let d = &events[j];
            let u = d.thread.0 as usize;
            // Already ordered before e (transitively): nothing to decide.
            if u == t || vc[u] > pos[j] {
                continue;
            }
            // An atomic region starts only once every event its events depend on is done
            // (no other thread moves inside it); one that does not end in the section, once
            // every earlier event is.
            let dep = dependent(prog, d, e, &mut idx)
                || match regions.get(&i) {
                    Some(Some(inside)) => inside
                        .iter()
                        .any(|&r| dependent(prog, d, &events[r], &mut idx)),
                    Some(None) => true,
                    None => false,
                };
            if dep {
                for (x, y) in vc.iter_mut().zip(&clocks[j]) {
                    *x = (*x).max(*y);
                }
                vc[u] = vc[u].max(pos[j] + 1);
            }
        }
        pos.push(count[t]);
        count[t] += 1;
        last[t] = Some(i);
        clocks.push(vc);
    }
    clocks
}
