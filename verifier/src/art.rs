//! The abstract reachability tree (seed 002, Definition 3): nodes in an arena addressed by
//! [`NodeId`], each with the control state (every thread's location, the atomic-region owner)
//! and a label (a formula over the program variables); tree edges labelled with a thread and
//! a transition; a covering relation. This module is the only one that mutates an ART.

use crate::ir::{LocId, LocKind, Program, ThreadId, TransId};
use crate::smt::{Term, TermTable};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, HashMap};

/// Identifies a node of an [`Art`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct NodeId(pub u32);

/// The control part of a program state.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Control {
    /// Each thread's location; `None` before the thread is created.
    pub locs: Vec<Option<LocId>>,
    /// The thread inside an atomic region.
    pub atomic: Option<ThreadId>,
}

impl Control {
    /// Whether thread `t` can move: it has started, is at an ordinary location and is not
    /// shut out by another thread's atomic region; and if its next step ends the program
    /// (`return` from `main`, `exit`, `abort`), no other thread that can move is in code that
    /// runs without the enforcement runtime ([`crate::ir::Thread::runs_free`]).
    ///
    /// The last condition is where the deployed program differs from C's "`exit` ends every
    /// thread at once": the runtime orders only events, so a thread in such code runs on
    /// while the process exits, up to its next event. A proof must therefore run those
    /// threads to their next event before the program ends, or it would not cover what they
    /// do. Only the order of independent steps changes, so the reachable errors do not.
    pub fn can_move(&self, prog: &Program, t: ThreadId) -> bool {
        self.may_step(prog, t) && !(self.about_to_halt(prog, t) && self.one_runs_free(prog))
    }

    /// The threads that can move ([`Control::can_move`]).
    pub fn movable(&self, prog: &Program) -> Vec<ThreadId> {
        let one_runs_free = self.one_runs_free(prog);
        (0..self.locs.len() as u32)
            .map(ThreadId)
            .filter(|&t| self.may_step(prog, t) && !(one_runs_free && self.about_to_halt(prog, t)))
            .collect()
    }

    /// Started, at an ordinary location and not shut out by another thread's atomic region.
    fn may_step(&self, prog: &Program, t: ThreadId) -> bool {
        self.locs[t.0 as usize].is_some_and(|l| {
            prog.thread(t).locations[l.0 as usize].kind == LocKind::Normal
                && self.atomic.is_none_or(|a| a == t)
        })
    }

    /// Whether `t`'s next step ends the program.
    fn about_to_halt(&self, prog: &Program, t: ThreadId) -> bool {
        self.locs[t.0 as usize].is_some_and(|l| prog.thread(t).halts_at(l))
    }

    /// Whether a thread that may step is in code that runs without the runtime (never one
    /// about to halt: its only transitions end the program).
    fn one_runs_free(&self, prog: &Program) -> bool {
        (0..self.locs.len() as u32).map(ThreadId).any(|u| {
            self.may_step(prog, u)
                && self.locs[u.0 as usize].is_some_and(|l| prog.thread(u).runs_free(l))
        })
    }
}

/// A tree edge: thread, transition, child.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Edge {
    /// The thread that moves.
    pub thread: ThreadId,
    /// Its transition.
    pub transition: TransId,
    /// The node reached.
    pub child: NodeId,
}

/// A node.
#[derive(Clone, Debug)]
pub struct Node {
    /// Its control state.
    pub control: Control,
    /// Over-approximates the states this node represents (a formula over the variables).
    pub label: Term,
    /// The parent and the edge's thread and transition (`None` for the root).
    pub parent: Option<(NodeId, ThreadId, TransId)>,
    /// Tree edges out of this node.
    pub children: Vec<Edge>,
    /// Threads with an edge for each of their transitions that the label does not exclude.
    pub expanded: BTreeSet<ThreadId>,
    /// The node that covers this one.
    pub covered_by: Option<NodeId>,
    /// Depth in the tree.
    pub depth: u32,
    /// The node is in a removed subtree (seed 002, Remove_Error_Paths): it stays in the tree
    /// for its ids, but belongs to no IVR.
    pub removed: bool,
    /// Threads whose expansion here was removed ([`Art::remove_expansion`]): the search must
    /// not expand them here again.
    pub forbidden: BTreeSet<ThreadId>,
}

/// A node as written to an IVR file.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct NodeRecord {
    /// Control state.
    pub control: Control,
    /// Label: an index of the file's term table.
    pub label: u32,
    /// Parent, thread and transition of the edge into the node.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<(NodeId, ThreadId, TransId)>,
    /// Fully expanded threads.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expanded: Vec<ThreadId>,
    /// The covering node.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub covered_by: Option<NodeId>,
}

/// An abstract reachability tree.
#[derive(Clone, Debug)]
pub struct Art {
    nodes: Vec<Node>,
    /// Nodes covered by a node (inverse of `covered_by`).
    covering: HashMap<NodeId, Vec<NodeId>>,
    /// Nodes by control state (candidates for covering).
    by_control: HashMap<Control, Vec<NodeId>>,
}

impl Art {
    /// An ART with one root node labelled `true`.
    pub fn new(root: Control) -> Art {
        let mut a = Art {
            nodes: Vec::new(),
            covering: HashMap::new(),
            by_control: HashMap::new(),
        };
        a.push(Node {
            control: root,
            label: Term::True,
            parent: None,
            children: Vec::new(),
            expanded: BTreeSet::new(),
            covered_by: None,
            depth: 0,
            removed: false,
            forbidden: BTreeSet::new(),
        });
        a
    }

    fn push(&mut self, n: Node) -> NodeId {
        let id = NodeId(self.nodes.len() as u32);
        self.by_control
            .entry(n.control.clone())
            .or_default()
            .push(id);
        self.nodes.push(n);
        id
    }

    /// The root.
    pub fn root(&self) -> NodeId {
        NodeId(0)
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether some node not labelled `false` is entered by a thread creation refused for
    /// the thread bound ([`crate::ir::Transition::refusal`]): in a complete ART, whether a run may meet
    /// the bound.
    pub fn refuses_creation(&self, prog: &Program) -> bool {
        self.nodes.iter().any(|n| {
            n.label != Term::False
                && n.parent
                    .is_some_and(|(_, t, tr)| prog.thread(t).transition(tr).refusal.is_some())
        })
    }

    /// Whether the ART has only its root.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() <= 1
    }

    /// A node.
    pub fn node(&self, v: NodeId) -> &Node {
        &self.nodes[v.0 as usize]
    }

    /// All node ids.
    pub fn ids(&self) -> impl Iterator<Item = NodeId> {
        (0..self.nodes.len() as u32).map(NodeId)
    }

    /// Nodes with the same control state.
    pub fn same_control(&self, c: &Control) -> &[NodeId] {
        self.by_control.get(c).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Adds a child labelled `true`.
    pub fn add_child(
        &mut self,
        v: NodeId,
        thread: ThreadId,
        transition: TransId,
        control: Control,
    ) -> NodeId {
        let depth = self.node(v).depth + 1;
        let w = self.push(Node {
            control,
            label: Term::True,
            parent: Some((v, thread, transition)),
            children: Vec::new(),
            expanded: BTreeSet::new(),
            covered_by: None,
            depth,
            removed: false,
            forbidden: BTreeSet::new(),
        });
        self.nodes[v.0 as usize].children.push(Edge {
            thread,
            transition,
            child: w,
        });
        w
    }

    /// Records that `thread` is fully expanded at `v`.
    pub fn mark_expanded(&mut self, v: NodeId, thread: ThreadId) {
        self.nodes[v.0 as usize].expanded.insert(thread);
    }

    /// Removes `thread`'s expansion at `v` (seed 002, Remove_Error_Paths): the thread is
    /// forbidden at `v` and no longer expanded there, and every node below its edges is
    /// marked removed, together with the coverings by those nodes. Returns the nodes that
    /// lost their covering and are not removed themselves.
    pub fn remove_expansion(&mut self, v: NodeId, thread: ThreadId) -> Vec<NodeId> {
        let n = &mut self.nodes[v.0 as usize];
        n.forbidden.insert(thread);
        n.expanded.remove(&thread);
        let mut stack: Vec<NodeId> = n
            .children
            .iter()
            .filter(|e| e.thread == thread)
            .map(|e| e.child)
            .collect();
        let mut freed = Vec::new();
        while let Some(x) = stack.pop() {
            let n = &mut self.nodes[x.0 as usize];
            if n.removed {
                continue;
            }
            n.removed = true;
            stack.extend(n.children.iter().map(|e| e.child));
            let uncovered = self.covering.remove(&x).unwrap_or_default();
            for u in &uncovered {
                self.nodes[u.0 as usize].covered_by = None;
            }
            freed.extend(uncovered);
        }
        freed.retain(|u| !self.nodes[u.0 as usize].removed);
        freed
    }

    /// Replaces the label; returns the nodes that were covered by `v` and are uncovered now
    /// (their covering may no longer hold).
    pub fn set_label(&mut self, v: NodeId, label: Term) -> Vec<NodeId> {
        if self.nodes[v.0 as usize].label == label {
            return Vec::new();
        }
        self.nodes[v.0 as usize].label = label;
        let uncovered = self.covering.remove(&v).unwrap_or_default();
        for u in &uncovered {
            self.nodes[u.0 as usize].covered_by = None;
        }
        uncovered
    }

    /// Adds the covering `v ▷ w`. Nodes covered by a descendant of `v` lose their covering
    /// (a covering node must not be covered); they are returned for re-examination.
    pub fn cover(&mut self, v: NodeId, w: NodeId) -> Vec<NodeId> {
        self.nodes[v.0 as usize].covered_by = Some(w);
        self.covering.entry(w).or_default().push(v);
        let mut freed = Vec::new();
        let mut stack: Vec<NodeId> = self.node(v).children.iter().map(|e| e.child).collect();
        while let Some(u) = stack.pop() {
            if let Some(cs) = self.covering.remove(&u) {
                for c in cs {
                    self.nodes[c.0 as usize].covered_by = None;
                    freed.push(c);
                }
            }
            stack.extend(self.node(u).children.iter().map(|e| e.child));
        }
        freed
    }

    /// Whether `v` or one of its ancestors is covered.
    pub fn is_covered(&self, v: NodeId) -> bool {
        let mut x = Some(v);
        while let Some(n) = x {
            if self.node(n).covered_by.is_some() {
                return true;
            }
            x = self.node(n).parent.map(|p| p.0);
        }
        false
    }

    /// [`Art::is_covered`] of every node, by node number, in one pass.
    pub fn covered(&self) -> Vec<bool> {
        let mut known: Vec<Option<bool>> = vec![None; self.len()];
        let mut path = Vec::new();
        for v in self.ids() {
            let mut x = Some(v);
            // Up to a node whose answer is known (or the root), then down again.
            let answer = loop {
                let Some(n) = x else { break false };
                if let Some(c) = known[n.0 as usize] {
                    break c;
                }
                if self.node(n).covered_by.is_some() {
                    known[n.0 as usize] = Some(true);
                    break true;
                }
                path.push(n);
                x = self.node(n).parent.map(|p| p.0);
            };
            for n in path.drain(..) {
                known[n.0 as usize] = Some(answer);
            }
        }
        known.into_iter().map(|c| c.unwrap_or(false)).collect()
    }

    /// Whether `a` is an ancestor of `b` (or `b` itself).
    pub fn is_ancestor(&self, a: NodeId, b: NodeId) -> bool {
        let mut x = Some(b);
        while let Some(n) = x {
            if n == a {
                return true;
            }
            x = self.node(n).parent.map(|p| p.0);
        }
        false
    }

    /// The path from the root to `v`: nodes and the edges between them.
    pub fn path(&self, v: NodeId) -> Vec<(NodeId, Option<(ThreadId, TransId)>)> {
        let mut out = Vec::new();
        let mut x = v;
        loop {
            let n = self.node(x);
            match n.parent {
                Some((p, t, tr)) => {
                    out.push((x, Some((t, tr))));
                    x = p;
                }
                None => {
                    out.push((x, None));
                    break;
                }
            }
        }
        out.reverse();
        out
    }

    /// The sub-ART of the nodes `keep` accepts (it must accept the root and, with a node,
    /// its parent), renumbered in id order; edges and coverings to dropped nodes are dropped.
    /// Also returns the new id of each kept node.
    pub fn restrict(&self, keep: impl Fn(NodeId) -> bool) -> (Art, HashMap<NodeId, NodeId>) {
        let mut map = HashMap::new();
        let mut out: Option<Art> = None;
        for v in self.ids() {
            if !keep(v) {
                continue;
            }
            let n = self.node(v);
            let id = match (&mut out, n.parent) {
                (None, None) => {
                    let mut a = Art::new(n.control.clone());
                    a.nodes[0].label = n.label.clone();
                    out = Some(a);
                    NodeId(0)
                }
                (Some(a), Some((p, t, tr))) => {
                    let Some(&np) = map.get(&p) else { continue };
                    let w = a.add_child(np, t, tr, n.control.clone());
                    a.nodes[w.0 as usize].label = n.label.clone();
                    w
                }
                _ => continue,
            };
            out.as_mut().expect("root first").nodes[id.0 as usize].expanded = n.expanded.clone();
            map.insert(v, id);
        }
        let mut a = out.unwrap_or_else(|| Art::new(self.node(self.root()).control.clone()));
        for (v, w) in self.coverings() {
            if let (Some(&nv), Some(&nw)) = (map.get(&v), map.get(&w)) {
                a.nodes[nv.0 as usize].covered_by = Some(nw);
                a.covering.entry(nw).or_default().push(nv);
            }
        }
        (a, map)
    }

    /// An ART from its nodes in id order (parents before children), as written by
    /// [`Art::to_records`]. Fails on a malformed list.
    pub fn from_records(records: &[NodeRecord], terms: &[Term]) -> Result<Art, String> {
        let label = |i: usize, r: &NodeRecord| {
            terms
                .get(r.label as usize)
                .cloned()
                .ok_or_else(|| format!("node {i} has label {} which is not in the table", r.label))
        };
        let Some(first) = records.first() else {
            return Err("an ART needs a root".into());
        };
        if first.parent.is_some() {
            return Err("node 0 must be the root".into());
        }
        let mut a = Art::new(first.control.clone());
        a.nodes[0].label = label(0, first)?;
        for (i, r) in records.iter().enumerate().skip(1) {
            let Some((p, t, tr)) = r.parent else {
                return Err(format!("node {i} has no parent"));
            };
            if p.0 as usize >= i {
                return Err(format!(
                    "node {i} has parent {} which does not precede it",
                    p.0
                ));
            }
            let w = a.add_child(p, t, tr, r.control.clone());
            a.nodes[w.0 as usize].label = label(i, r)?;
        }
        for (i, r) in records.iter().enumerate() {
            a.nodes[i].expanded = r.expanded.iter().copied().collect();
            if let Some(w) = r.covered_by {
                if w.0 as usize >= records.len() {
                    return Err(format!("node {i} is covered by a node that does not exist"));
                }
                a.nodes[i].covered_by = Some(w);
                a.covering.entry(w).or_default().push(NodeId(i as u32));
            }
        }
        Ok(a)
    }

    /// The nodes as records for serialisation.
    pub fn to_records(&self, terms: &mut TermTable) -> Vec<NodeRecord> {
        self.nodes
            .iter()
            .map(|n| NodeRecord {
                control: n.control.clone(),
                label: terms.add(&n.label),
                parent: n.parent,
                expanded: n.expanded.iter().copied().collect(),
                covered_by: n.covered_by,
            })
            .collect()
    }

    /// The coverings `v ▷ w`.
    pub fn coverings(&self) -> impl Iterator<Item = (NodeId, NodeId)> + '_ {
        self.nodes
            .iter()
            .enumerate()
            .filter_map(|(i, n)| n.covered_by.map(|w| (NodeId(i as u32), w)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn control(l: u32) -> Control {
        Control {
            locs: vec![Some(LocId(l))],
            atomic: None,
        }
    }

    /// Removing a thread's expansion forbids it there and removes the subtree below its
    /// edges, with the coverings by removed nodes; the nodes they covered come back unless
    /// removed themselves, and the other threads' subtrees stay.
    #[test]
    fn removing_an_expansion_removes_its_subtree_and_the_coverings_by_it() {
        let (t0, t1) = (ThreadId(0), ThreadId(1));
        let mut a = Art::new(control(0));
        let r = a.root();
        let x = a.add_child(r, t0, TransId(0), control(1));
        let x1 = a.add_child(x, t0, TransId(1), control(2));
        let y = a.add_child(r, t1, TransId(0), control(3));
        let y1 = a.add_child(y, t1, TransId(1), control(2));
        let y2 = a.add_child(y, t1, TransId(2), control(1));
        a.mark_expanded(r, t0);
        a.mark_expanded(r, t1);
        assert!(a.cover(y1, x1).is_empty());
        assert!(a.cover(y2, x).is_empty());
        let freed = a.remove_expansion(r, t0);
        assert_eq!(freed.len(), 2);
        assert!(freed.contains(&y1) && freed.contains(&y2));
        assert!(a.node(x).removed && a.node(x1).removed);
        assert!(!a.node(y).removed && !a.node(y1).removed && !a.node(r).removed);
        assert!(!a.is_covered(y1) && !a.is_covered(y2));
        assert!(a.node(r).forbidden.contains(&t0) && !a.node(r).forbidden.contains(&t1));
        assert!(!a.node(r).expanded.contains(&t0) && a.node(r).expanded.contains(&t1));
        // A removed node that another removal uncovers does not come back.
        let mut b = Art::new(control(0));
        let r = b.root();
        let x = b.add_child(r, t0, TransId(0), control(1));
        let y = b.add_child(r, t1, TransId(0), control(1));
        assert!(b.cover(x, y).is_empty());
        assert!(b.remove_expansion(r, t0).is_empty());
        assert!(b.remove_expansion(r, t1).is_empty());
        assert!(b.node(x).removed && b.node(y).removed);
    }
}
