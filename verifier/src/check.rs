//! The ART checker, written independently of the algorithm that builds ARTs: it checks with
//! the solver the conditions of seed 002, Definitions 3–5, on a finished ART.
//!
//! * well-labelled: the initial state satisfies the root label; every tree edge is a valid
//!   Hoare triple `label(v) ∧ R ⇒ label(w)'`; every covering `v ▷ w` has
//!   `label(v) ⇒ label(w)` and `w` not covered;
//! * safe: nodes at an error location are labelled false;
//! * complete (what a `safe` verdict needs): at every uncovered node with a satisfiable label,
//!   every transition of every thread that can move has an edge, or is excluded by the label;
//!   the label excludes deadlock and undefined behaviour.

use crate::art::{Art, Control, NodeId};
use crate::encode::Encoder;
use crate::ir::*;
use crate::smt::{Smt, Term};

/// Why an ART was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection {
    /// The node concerned.
    pub node: NodeId,
    /// What does not hold.
    pub reason: String,
}

/// Checks that `art` is a well-labelled, safe and complete ART of `prog`.
pub fn check_complete(prog: &Program, art: &Art, timeout_ms: u32) -> Result<(), Rejection> {
    let enc = Encoder::new(prog);
    let mut smt = Smt::new(timeout_ms);
    let id = enc.identity();
    let ranges = enc.ranges(&id);
    let reject = |node, reason: String| Err(Rejection { node, reason });
    let valid = |smt: &mut Smt, premises: Vec<Term>, goal: Term| -> Option<bool> {
        let mut p = vec![ranges.clone()];
        p.extend(premises);
        smt.implies(&Term::and(p), &goal)
    };
    let root = art.root();
    if valid(
        &mut smt,
        vec![enc.initial(&id)],
        art.node(root).label.clone(),
    ) != Some(true)
    {
        return reject(
            root,
            "the initial state does not satisfy the root label".into(),
        );
    }
    let kind =
        |c: &Control, t: usize| c.locs[t].map(|l| prog.threads[t].locations[l.0 as usize].kind);
    for v in art.ids() {
        let n = art.node(v);
        // Tree edges are Hoare triples and lead to the right control state.
        for e in &n.children {
            let tr = prog.thread(e.thread).transition(e.transition);
            if n.control.locs[e.thread.0 as usize] != Some(tr.src) {
                return reject(
                    v,
                    format!(
                        "edge t{} of {} does not start at the node's location",
                        tr.id.0, e.thread
                    ),
                );
            }
            let st = enc.step(tr, &id);
            let post = enc.instantiate(&art.node(e.child).label, &st.post);
            let goal = Term::forall(
                st.inputs.clone(),
                Term::implies(
                    Term::and([
                        st.guard.clone(),
                        Term::not(st.undefined.clone()),
                        st.input_ranges.clone(),
                    ]),
                    post,
                ),
            );
            if valid(&mut smt, vec![n.label.clone()], goal) != Some(true) {
                return reject(
                    e.child,
                    format!(
                        "the edge into this node is not a valid Hoare triple ({} t{})",
                        e.thread, tr.id.0
                    ),
                );
            }
            if art.node(e.child).control.locs[e.thread.0 as usize] != Some(tr.dst) {
                return reject(e.child, "wrong location after an edge".into());
            }
        }
        if let Some(w) = n.covered_by {
            if art.node(w).covered_by.is_some() {
                return reject(
                    v,
                    format!("covered by node {} which is itself covered", w.0),
                );
            }
            if art.node(w).control != n.control {
                return reject(
                    v,
                    format!("covered by node {} with another control state", w.0),
                );
            }
            if valid(&mut smt, vec![n.label.clone()], art.node(w).label.clone()) != Some(true) {
                return reject(
                    v,
                    format!(
                        "label does not imply the label of its covering node {}",
                        w.0
                    ),
                );
            }
        }
    }
    for v in art.ids() {
        let n = art.node(v);
        let c = &n.control;
        let label_sat = valid(&mut smt, vec![n.label.clone()], Term::False) != Some(true);
        if (0..c.locs.len()).any(|t| kind(c, t) == Some(LocKind::Error)) {
            if label_sat {
                return reject(v, "an error node with a satisfiable label".into());
            }
            continue;
        }
        if !label_sat || art.is_covered(v) {
            continue;
        }
        if (0..c.locs.len()).any(|t| matches!(kind(c, t), Some(LocKind::Halt | LocKind::Discard))) {
            continue;
        }
        let movable: Vec<usize> = (0..c.locs.len())
            .filter(|&t| kind(c, t) == Some(LocKind::Normal))
            .filter(|&t| c.atomic.is_none_or(|a| a.0 as usize == t))
            .collect();
        if movable.is_empty() {
            if (0..c.locs.len()).all(|t| matches!(kind(c, t), None | Some(LocKind::Exit))) {
                continue;
            }
            return reject(v, "a node where no thread can move".into());
        }
        let mut some_enabled = Vec::new();
        for &t in &movable {
            let l = c.locs[t].expect("movable");
            for tr in prog.threads[t].outgoing(l) {
                let st = enc.step(tr, &id);
                let enabled = Term::exists(
                    st.inputs.clone(),
                    Term::and([st.guard.clone(), st.input_ranges.clone()]),
                );
                some_enabled.push(enabled.clone());
                let ub = Term::exists(
                    st.inputs.clone(),
                    Term::and([
                        st.guard.clone(),
                        st.undefined.clone(),
                        st.input_ranges.clone(),
                    ]),
                );
                if valid(&mut smt, vec![n.label.clone()], Term::not(ub)) != Some(true) {
                    return reject(
                        v,
                        format!(
                            "undefined behaviour is not excluded ({} t{})",
                            ThreadId(t as u32),
                            tr.id.0
                        ),
                    );
                }
                let has_edge = n
                    .children
                    .iter()
                    .any(|e| e.thread.0 as usize == t && e.transition == tr.id);
                if !has_edge
                    && valid(&mut smt, vec![n.label.clone()], Term::not(enabled)) != Some(true)
                {
                    return reject(
                        v,
                        format!(
                            "transition {} t{} is neither expanded nor excluded",
                            ThreadId(t as u32),
                            tr.id.0
                        ),
                    );
                }
            }
        }
        if valid(&mut smt, vec![n.label.clone()], Term::or(some_enabled)) != Some(true) {
            return reject(v, "deadlock is not excluded".into());
        }
    }
    Ok(())
}
