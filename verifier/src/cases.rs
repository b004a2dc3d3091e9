//! The nodes of an ART that a schedule cannot tell apart.
//!
//! Where an engine splits what a step leaves open into cases (several children of one
//! thread's transition, each with its part of the values: `explicit::space`), a run of the
//! deployed program is in one of them, but the runtime sees only which thread performs which
//! step and which branch arm it takes (seed 002, "Program schedules": sections end at the
//! branches whose outcome selects the next one). Two nodes reached from the root by the same
//! steps (thread and transition, coverings followed) are therefore one position of the
//! schedule. This is the subset construction over the ART, with the steps as the alphabet;
//! without cases every such set has one node.
//!
//! The IVR checker ([`crate::check`]) accepts cases in an IVR only where they are
//! [`uniform`]: the nodes of each set expand the same threads, so that the IVR's scheduler
//! makes one choice for all of them. The schedule generator builds its sections over the
//! same sets ([`successors`]).

use crate::art::{Art, NodeId};
use crate::ir::{ThreadId, TransId};
use crate::smt::Term;
use rustc_hash::FxHashSet;
use std::collections::VecDeque;
use std::time::Instant;

/// Whether some step of `art` is split into cases (a node has two children of one thread's
/// transition).
pub fn has_cases(art: &Art) -> bool {
    art.ids().any(|v| {
        let children = &art.node(v).children;
        (children.iter().enumerate()).any(|(k, a)| {
            (children[k + 1..].iter()).any(|b| (a.thread, a.transition) == (b.thread, b.transition))
        })
    })
}

/// The node a run at `v` is at: `v`, or the node that covers it.
pub fn resolve(art: &Art, v: NodeId) -> NodeId {
    art.node(v).covered_by.unwrap_or(v)
}

/// The sets that `thread`'s steps lead to from the set `members` (sorted): per transition,
/// the children of every member by it (covered or not), sorted and without repetition, and
/// without the nodes whose label is `false` (no state is there). Transitions in the order of
/// their first child.
pub fn successors(art: &Art, members: &[NodeId], thread: ThreadId) -> Vec<(TransId, Vec<NodeId>)> {
    let mut out: Vec<(TransId, Vec<NodeId>)> = Vec::new();
    for &v in members {
        for e in art.node(v).children.iter().filter(|e| e.thread == thread) {
            if matches!(art.node(e.child).label, Term::False) {
                continue;
            }
            match out.iter_mut().find(|(tr, _)| *tr == e.transition) {
                Some((_, set)) => set.push(e.child),
                None => out.push((e.transition, vec![e.child])),
            }
        }
    }
    for (_, set) in &mut out {
        set.sort_unstable();
        set.dedup();
    }
    out
}

/// Checks that every set of nodes the same steps reach from the root expands the same
/// threads in each of its nodes; the first node that does not, with why (or where the time
/// ran out at `deadline`).
pub fn uniform(art: &Art, deadline: Option<Instant>) -> Result<(), (NodeId, String)> {
    let root = vec![resolve(art, art.root())];
    let mut seen: FxHashSet<Vec<NodeId>> = FxHashSet::default();
    seen.insert(root.clone());
    let mut queue = VecDeque::from([root]);
    while let Some(set) = queue.pop_front() {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Err((set[0], "time ran out while checking the cases".into()));
        }
        let first = art.node(set[0]);
        if let Some(&other) = set[1..]
            .iter()
            .find(|&&w| art.node(w).expanded != first.expanded)
        {
            return Err((
                other,
                format!(
                    "the IVR's scheduler tells cases of a step apart: node {} expands {:?}, \
                     node {} (reached by the same steps) {:?}",
                    set[0].0,
                    first.expanded,
                    other.0,
                    art.node(other).expanded
                ),
            ));
        }
        for &t in &first.expanded {
            for (_, next) in successors(art, &set, t) {
                let mut next: Vec<NodeId> = next.into_iter().map(|w| resolve(art, w)).collect();
                next.sort_unstable();
                next.dedup();
                if seen.insert(next.clone()) {
                    queue.push_back(next);
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::art::Control;
    use crate::ir::LocId;

    fn control(a: u32, b: u32) -> Control {
        Control {
            locs: vec![Some(LocId(a)), Some(LocId(b))],
            atomic: None,
        }
    }

    /// Two cases of T0's first step; after them the IVR expands `second` in the other case.
    fn split(second: u32) -> Art {
        let (t0, t1) = (ThreadId(0), ThreadId(1));
        let mut art = Art::new(control(0, 0));
        let root = art.root();
        art.mark_expanded(root, t0);
        let a = art.add_child(root, t0, TransId(0), control(1, 0));
        let b = art.add_child(root, t0, TransId(0), control(1, 0));
        art.mark_expanded(a, t1);
        art.mark_expanded(b, ThreadId(second));
        art
    }

    #[test]
    fn cases_the_scheduler_treats_alike_are_uniform() {
        let art = split(1);
        assert!(has_cases(&art));
        let root = art.root();
        let next = successors(&art, &[root], ThreadId(0));
        assert_eq!(next.len(), 1, "one transition, both cases in its set");
        assert_eq!(next[0].1.len(), 2);
        assert_eq!(uniform(&art, None), Ok(()));
    }

    #[test]
    fn cases_the_scheduler_tells_apart_are_not_uniform() {
        let art = split(0);
        let (node, why) = uniform(&art, None).expect_err("T1 in one case, T0 in the other");
        assert_eq!(node.0, 2, "{why}");
        assert!(why.contains("tells cases of a step apart"), "{why}");
    }

    /// [`split`]`(1)`, then T1's step from each case (nothing covered yet).
    fn cases_then_t1() -> (Art, [NodeId; 4]) {
        let t1 = ThreadId(1);
        let mut art = split(1);
        let (a, b) = (NodeId(1), NodeId(2));
        let a1 = art.add_child(a, t1, TransId(1), control(1, 1));
        let b1 = art.add_child(b, t1, TransId(1), control(1, 1));
        (art, [a, b, a1, b1])
    }

    /// A run in a covered node goes on from the node covering it: the set T1's step leads to
    /// from both cases is the covering node alone, whatever the covered one would have done.
    #[test]
    fn a_case_covered_by_the_other_is_one_position_with_it() {
        let (mut art, [_, _, a1, b1]) = cases_then_t1();
        art.mark_expanded(b1, ThreadId(0));
        art.add_child(b1, ThreadId(0), TransId(2), control(2, 1));
        art.cover(a1, b1);
        assert_eq!(resolve(&art, a1), b1);
        assert_eq!(uniform(&art, None), Ok(()));
    }

    /// Two case sets meet where one case is covered by a node outside the cases: the set is
    /// the covering node and the other case, and the scheduler must treat those two alike.
    #[test]
    fn cases_meeting_at_a_covering_node_must_agree_with_it() {
        let (mut art, [a, _, a1, b1]) = cases_then_t1();
        // A node elsewhere (another step of T0 from the first case) that expands T0, and the
        // second case's child, which expands T1.
        let c = art.add_child(a, ThreadId(0), TransId(3), control(1, 1));
        art.mark_expanded(c, ThreadId(0));
        art.mark_expanded(b1, ThreadId(1));
        art.cover(a1, c);
        let (node, why) = uniform(&art, None).expect_err("T0 at the covering node, T1 beside");
        assert!([c, b1].contains(&node), "{why}");
        assert!(why.contains("tells cases of a step apart"), "{why}");
        // The covering node choosing as the other case does is uniform.
        let (mut art, [a, _, a1, b1]) = cases_then_t1();
        let c = art.add_child(a, ThreadId(0), TransId(3), control(1, 1));
        art.mark_expanded(c, ThreadId(1));
        art.mark_expanded(b1, ThreadId(1));
        art.cover(a1, c);
        assert_eq!(uniform(&art, None), Ok(()));
    }

    /// The check gives up at its deadline with a reason, rather than passing.
    #[test]
    fn the_check_of_cases_stops_at_its_deadline() {
        let art = split(1);
        let (_, why) = uniform(&art, Some(Instant::now())).expect_err("deadline passed");
        assert!(why.contains("time ran out"), "{why}");
    }
}
