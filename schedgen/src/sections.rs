//! Section paths of an IVR (seed 002, "Partial-order reduction" and "Implementation").
//!
//! The induced scheduler of an IVR permits the threads expanded at the current node. A
//! program schedule commits to one of them at every node: a thread that the (checked) ART
//! shows to be fully expanded and enabled in every state of the node, so that the schedule can
//! never wait for a thread that is blocked. The choice keeps the thread of the parent edge and
//! moves on round-robin at loop back edges, as the iterative algorithm's scheduler does. The
//! resulting graph (chosen tree edges and covering edges) is checked to be fair: every cycle
//! moves every thread that may be enabled at one of its nodes.
//!
//! Where the IVR splits a step into cases (several children of one transition, each with its
//! part of the values), the runtime cannot tell which case a run is in: a position of the
//! schedule is the set of nodes the same steps reach (`verifier::cases`), the chosen thread
//! is one the IVR expands and enables in every node of it, and a branch arm taken in some of
//! them and not in others tells the cases apart from there on.
//!
//! A call of an environment model (`fgets`, `read`: what the system answers) is one step of
//! its thread: the built program asks the system, so the runtime cannot see which of the
//! model's paths the answer takes. Where the model's code has no events, the position after
//! the call is the set of nodes where the thread's steps through that code leave it.
//!
//! Nodes labelled false are dropped. From the root, a *piece* follows the chosen edges until
//! * a **branching node**: the chosen thread has several children (a control-flow branch on
//!   data the label leaves open, a failing local assumption); the next pieces start at the
//!   children, selected at run time by the branch arm the thread takes. The outcomes of a
//!   condition signal (which waiter wakes) are not the program's choice: where one of them is
//!   possible in every state of the node, the schedule takes only that one;
//! * a **covered node**: the execution continues at the covering node, where the next piece
//!   starts (and where every piece that reaches that node ends, so that loops become cycles of
//!   pieces);
//! * an **end**: the program ends (every thread returned, `main` returned, `exit`, a discarded
//!   execution).

use crate::Error;
use petgraph::graph::{DiGraph, NodeIndex};
use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use verifier::art::{Art, NodeId};
use verifier::cases;
use verifier::check::Checked;
use verifier::ir::{LocKind, Program, SyncKind, ThreadId, TransId, TransKind};
use verifier::smt::Term;

/// How a piece ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PieceEnd {
    /// The program ends at this node.
    Finish(NodeId),
    /// Execution continues with the piece starting at this node.
    Next(NodeId),
    /// `thread` branches: each arm (transition) leads to the piece starting at the node.
    Branch {
        /// The branching thread.
        thread: ThreadId,
        /// Its arms and where they lead.
        arms: Vec<(TransId, NodeId)>,
    },
}

/// A branch-free path of the ART between section boundaries.
#[derive(Clone, Debug)]
pub struct Piece {
    /// First node.
    pub start: NodeId,
    /// The steps (thread, transition), in proof order.
    pub steps: Vec<(ThreadId, TransId)>,
    /// How it ends.
    pub end: PieceEnd,
}

/// The pieces of an IVR, by start position; `order` lists starts in discovery order (the
/// root first).
#[derive(Clone, Debug)]
pub struct Pieces {
    /// Pieces by start position.
    pub by_start: HashMap<NodeId, Piece>,
    /// Start positions in discovery order.
    pub order: Vec<NodeId>,
    /// The nodes of each position (its name alone without cases).
    pub members: HashMap<NodeId, Vec<NodeId>>,
}

/// Where the program cannot continue: a thread at the error, halt or discard location, or no
/// thread that can move.
fn is_end(prog: &Program, art: &Art, v: NodeId) -> bool {
    let c = &art.node(v).control;
    let stopped = c.locs.iter().enumerate().any(|(t, l)| {
        l.is_some_and(|l| {
            matches!(
                prog.threads[t].locations[l.0 as usize].kind,
                LocKind::Halt | LocKind::Discard | LocKind::Error
            )
        })
    });
    stopped || c.movable(prog).is_empty()
}

/// Builds the pieces of a checked IVR. A position of the schedule is the set of nodes the
/// same steps reach from the root (`verifier::cases`: the nodes of the cases of a step, which
/// the runtime cannot tell apart; one node without cases), named by its least node.
pub fn pieces(prog: &Program, art: &Art, facts: &mut Checked) -> Result<Pieces, Error> {
    let n = prog.threads.len() as u32;
    let mut sets = Sets::new(art);
    // The chosen thread at each uncovered, non-final position the schedule reaches.
    let mut chosen: HashMap<NodeId, ThreadId> = HashMap::new();
    let mut edges: Vec<(NodeId, NodeId)> = Vec::new();
    let mut live: HashMap<NodeId, bool> = HashMap::new();
    let mut has_states = |v: NodeId, facts: &mut Checked| -> bool {
        *live.entry(v).or_insert_with(|| facts.has_states(v))
    };
    let root = art.root();
    if !has_states(root, facts) {
        return Err(Error::NoStates);
    }
    let root = sets.name(vec![root]);
    let mut seen: HashSet<NodeId> = HashSet::from([root]);
    let mut queue = VecDeque::from([root]);
    let mut arms_of: HashMap<NodeId, Vec<(TransId, NodeId)>> = HashMap::new();
    // Where a position's nodes are covered: the position of their covering nodes.
    let mut covered: HashMap<NodeId, NodeId> = HashMap::new();
    while let Some(v) = queue.pop_front() {
        let members = sets.members[&v].clone();
        let node = art.node(members[0]);
        let mut next: Vec<NodeId> = Vec::new();
        if members.iter().any(|&m| art.node(m).covered_by.is_some()) {
            let mut to: Vec<NodeId> = members.iter().map(|&m| cases::resolve(art, m)).collect();
            to.sort_unstable();
            to.dedup();
            let w = sets.name(to);
            covered.insert(v, w);
            next.push(w);
        } else if !is_end(prog, art, members[0]) {
            let candidates: Vec<ThreadId> = (node.expanded.iter().copied())
                .filter(|&t| {
                    (members.iter())
                        .all(|&m| art.node(m).expanded.contains(&t) && facts.surely_enabled(m, t))
                })
                .collect();
            if candidates.is_empty() {
                return Err(Error::NoThread { node: members[0].0 });
            }
            let t = match node.parent {
                Some((_, p, tr)) => {
                    let back = prog.thread(p).transition(tr).back_edge;
                    let start = if back { p.0 + 1 } else { p.0 };
                    (0..n)
                        .map(|k| ThreadId((start + k) % n))
                        .find(|t| candidates.contains(t))
                        .expect("a candidate")
                }
                None => candidates[0],
            };
            chosen.insert(v, t);
            let mut arms = Vec::new();
            // A call of an environment model runs as one step: the built program asks the
            // system, and the schedule cannot see which of the model's paths the answer takes.
            if let Some((tr, exits)) = environment_call(prog, art, facts, &members, t) {
                let w = sets.name(exits);
                arms.push((tr, w));
                next.push(w);
            }
            let successors = match arms.is_empty() {
                true => cases::successors(art, &members, t),
                false => Vec::new(),
            };
            for (tr, children) in successors {
                let mut to = Vec::new();
                for c in children {
                    if has_states(c, facts) {
                        to.push(c);
                    }
                }
                if !to.is_empty() {
                    let w = sets.name(to);
                    arms.push((tr, w));
                    next.push(w);
                }
            }
            // Which waiter a signal wakes is the schedule's choice, not the program's (the
            // schedule performs the waits): where one outcome is possible in every state of
            // the position, the schedule commits to it instead of branching on it.
            let signal = |tr: TransId| {
                prog.thread(t).transition(tr).kind == TransKind::Sync(SyncKind::CondSignal)
            };
            if arms.len() > 1 && arms.iter().all(|a| signal(a.0)) {
                let sure = arms
                    .iter()
                    .copied()
                    .find(|a| (members.iter()).all(|&m| facts.surely_takes(m, t, a.0)));
                if let Some(a) = sure {
                    next.retain(|&w| w == a.1);
                    arms = vec![a];
                }
            }
            arms_of.insert(v, arms);
        }
        for w in next {
            edges.push((v, w));
            if seen.insert(w) {
                queue.push_back(w);
            }
        }
    }
    fair(prog, &seen, &edges, &chosen, &sets, facts)?;
    // Covering targets start pieces.
    let targets: BTreeSet<NodeId> = covered.values().copied().collect();
    let mut by_start: HashMap<NodeId, Piece> = HashMap::new();
    let mut order = Vec::new();
    let mut work = VecDeque::from([root]);
    while let Some(s) = work.pop_front() {
        if by_start.contains_key(&s) {
            continue;
        }
        let mut steps = Vec::new();
        let mut v = s;
        let end = loop {
            if let Some(&w) = covered.get(&v) {
                break PieceEnd::Next(w);
            }
            if v != s && targets.contains(&v) {
                break PieceEnd::Next(v);
            }
            let Some(&t) = chosen.get(&v) else {
                break PieceEnd::Finish(v);
            };
            let arms = &arms_of[&v];
            match arms.len() {
                0 => break PieceEnd::Finish(v),
                1 => {
                    steps.push((t, arms[0].0));
                    v = arms[0].1;
                }
                _ => {
                    break PieceEnd::Branch {
                        thread: t,
                        arms: arms
                            .iter()
                            .map(|&(tr, c)| (tr, covered.get(&c).copied().unwrap_or(c)))
                            .collect(),
                    }
                }
            }
        };
        match &end {
            PieceEnd::Next(w) => work.push_back(*w),
            PieceEnd::Branch { arms, .. } => work.extend(arms.iter().map(|a| a.1)),
            PieceEnd::Finish(_) => {}
        }
        order.push(s);
        by_start.insert(
            s,
            Piece {
                start: s,
                steps,
                end,
            },
        );
    }
    Ok(Pieces {
        by_start,
        order,
        members: sets.members,
    })
}

/// Where `t`, at a position (`members`) inside the code of an environment model, leaves it:
/// the nodes (uncovered, with states) that `t`'s steps reach through the model's code, all at
/// one location of `t` outside it, and the step that stands for the call (the first way out
/// of `t`'s location). In the built program the system answers the call, so a run leaves it
/// at one of these nodes and the runtime cannot tell which: they are one position. (The
/// paths the model discards are none of its answers.) `None`
/// where `t` is not in such code, or where a node inside does not expand `t` or may not let
/// it move, or the call ends at different locations (an error, the program's end): then the
/// model's steps are the schedule's steps, and `synth build` refuses them.
fn environment_call(
    prog: &Program,
    art: &Art,
    facts: &mut Checked,
    members: &[NodeId],
    t: ThreadId,
) -> Option<(TransId, Vec<NodeId>)> {
    let loc = |v: NodeId| art.node(v).control.locs[t.0 as usize];
    let start = loc(members[0])?;
    if !prog.thread(t).environment_location(start) {
        return None;
    }
    let mut seen: HashSet<NodeId> = members.iter().copied().collect();
    let mut stack = members.to_vec();
    let mut exits = Vec::new();
    while let Some(v) = stack.pop() {
        let l = loc(v)?;
        // (A path the model discards, an assumption on what the system answers that fails,
        // is no run of the built program.)
        if prog.thread(t).locations[l.0 as usize].kind == LocKind::Discard {
            continue;
        }
        if !prog.thread(t).environment_location(l) {
            exits.push(v);
            continue;
        }
        let node = art.node(v);
        if !node.expanded.contains(&t) || !facts.surely_enabled(v, t) {
            return None;
        }
        for e in node.children.iter().filter(|e| e.thread == t) {
            if matches!(art.node(e.child).label, Term::False) || !facts.has_states(e.child) {
                continue;
            }
            let c = cases::resolve(art, e.child);
            if seen.insert(c) {
                stack.push(c);
            }
        }
    }
    exits.sort_unstable();
    exits.dedup();
    let at = loc(*exits.first()?);
    if exits.iter().any(|&v| loc(v) != at) {
        return None;
    }
    let first = prog.thread(t).locations[start.0 as usize].out[0];
    Some((first, exits))
}

/// The positions of a schedule: sets of nodes, each named by its least node, or (where
/// another set has that name: two sets of cases meet at a covering node) by a number past
/// the ART's nodes.
struct Sets {
    members: HashMap<NodeId, Vec<NodeId>>,
    names: HashMap<Vec<NodeId>, NodeId>,
    next: u32,
}

impl Sets {
    fn new(art: &Art) -> Sets {
        Sets {
            members: HashMap::new(),
            names: HashMap::new(),
            next: art.len() as u32,
        }
    }

    /// The name of the set `nodes` (sorted, without repetition).
    fn name(&mut self, nodes: Vec<NodeId>) -> NodeId {
        if let Some(&v) = self.names.get(&nodes) {
            return v;
        }
        let v = if self.members.contains_key(&nodes[0]) {
            self.next += 1;
            NodeId(self.next - 1)
        } else {
            nodes[0]
        };
        self.members.insert(v, nodes.clone());
        self.names.insert(nodes, v);
        v
    }
}

/// The schedule's graph must be fair: for each thread `T`, no cycle avoids the nodes where the
/// schedule moves `T` while passing a node where `T` may be enabled (seed 002, Definition 4,
/// for the one thread chosen per node).
fn fair(
    prog: &Program,
    nodes: &HashSet<NodeId>,
    edges: &[(NodeId, NodeId)],
    chosen: &HashMap<NodeId, ThreadId>,
    sets: &Sets,
    facts: &mut Checked,
) -> Result<(), Error> {
    let mut idx: HashMap<NodeId, NodeIndex> = HashMap::new();
    for t in 0..prog.threads.len() {
        let t = ThreadId(t as u32);
        let mut g: DiGraph<NodeId, ()> = DiGraph::new();
        idx.clear();
        for &v in nodes {
            idx.insert(v, g.add_node(v));
        }
        let moves = |v: &NodeId| chosen.get(v) == Some(&t);
        for (a, b) in edges {
            if !moves(a) && !moves(b) {
                g.add_edge(idx[a], idx[b], ());
            }
        }
        for scc in petgraph::algo::kosaraju_scc(&g) {
            if scc.len() < 2 {
                continue;
            }
            for i in scc {
                let v = g[i];
                if (sets.members[&v].iter()).any(|&m| facts.may_be_enabled(m, t)) {
                    return Err(Error::Unfair {
                        node: sets.members[&v][0].0,
                        thread: prog.thread(t).name.clone(),
                    });
                }
            }
        }
    }
    Ok(())
}
