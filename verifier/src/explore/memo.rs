//! Memoised steps. A stateless search runs the same step of a thread again and again: every
//! execution that differs from an earlier one only in the order of other threads' steps
//! repeats it (seed 004, section 5 measures Inspect's cost as the re-execution of
//! transitions). A thread's step ([`super::step`]) is a function of the thread's location,
//! the owner of the atomic region and the values of the memory elements it reads (a write
//! counts as reading the value it overwrites: whether an unlock releases a mutex its thread
//! holds depends on it), and the elements it reads are themselves determined by the values
//! read before them. So the steps computed are kept in a trie per (thread, location,
//! atomic-region owner): each inner node names the element the step reads next, its children
//! are the values that element had, and a leaf holds the step's outcome (what it wrote, where
//! the threads are, and everything the search needs of the step: the transitions it ran, its
//! accesses, its race events, how it ended). Looking a step up reads those elements of the current state; on a miss the step
//! is computed with the machine recording its reads and writes
//! ([`crate::interp::Machine::start_recording`]) and the path is added.
//!
//! Only steps that are functions of the state are kept: no guide (a schedule's state is no
//! memory), no fair-scheduler marks, and steps with exactly one outcome that read no input
//! (a step with several variants is marked at its leaf and always computed). The search's
//! figures (executions, steps, transitions) are the same with and without the memo; a test
//! compares them.

use super::step::{Ending, Variant};
use super::TraceStep;
use crate::interp::{Recording, State, Status};
use crate::ir::ThreadId;
use rustc_hash::FxHashMap;

/// No node.
const NONE: u32 = u32::MAX;

/// About how many bytes a memo may hold (beyond it, steps are computed without being kept).
const MAX_BYTES: usize = 256 << 20;

/// A node of the trie.
enum Node {
    /// Nothing is known below this point.
    Empty,
    /// The step reads element `cell` next; one child so far, for the value `value` (the
    /// common case, kept in the node).
    One { cell: u32, value: i64, next: u32 },
    /// The step reads element `cell` next; the children by the value read.
    Read { cell: u32, kids: Vec<(i64, u32)> },
    /// The step's outcome ([`Memo::done`]).
    Done(u32),
    /// The step is not kept (several variants, or inputs): compute it.
    Compute,
}

/// What a memoised step does, beside the state it leaves (applied as changes).
pub(crate) struct Outcome<S> {
    /// The step's variant with a hollow state.
    variant: Variant<S>,
    /// Memory elements written, with their values after the step.
    cells: Vec<(u32, i64)>,
    /// Threads whose status the step sets (its own, those it started, any other it
    /// changed), with the new status.
    threads: Vec<(u32, Status)>,
    /// The owner of the atomic region after the step.
    atomic: Option<ThreadId>,
}

/// The result of a lookup.
pub(crate) enum Found {
    /// The step is known: [`Memo::apply`] gives it.
    Hit(u32),
    /// Unknown: compute it while recording, then [`Memo::insert`].
    Miss,
    /// Known not to be kept: compute it, without recording.
    Compute,
}

/// The steps of one search (one worker).
pub(crate) struct Memo<S> {
    roots: FxHashMap<(u32, u32, u32), u32>,
    nodes: Vec<Node>,
    done: Vec<Outcome<S>>,
    /// About how many bytes the trie and the outcomes take.
    bytes: usize,
    /// Lookups answered.
    pub hits: u64,
}

impl<S> Default for Memo<S> {
    fn default() -> Self {
        Memo {
            roots: FxHashMap::default(),
            nodes: Vec::new(),
            done: Vec::new(),
            bytes: 0,
            hits: 0,
        }
    }
}

/// The trie a step of thread `t` at location `l` starts from, with the atomic region's owner.
fn key(s: &State, t: ThreadId) -> Option<(u32, u32, u32)> {
    match s.threads[t.0 as usize] {
        Status::At(l) => Some((t.0, l.0, s.atomic.map_or(u32::MAX, |a| a.0))),
        Status::NotStarted => None,
    }
}

impl<S: Clone> Memo<S> {
    /// Looks up thread `t`'s step from `s`.
    pub fn find(&mut self, s: &State, t: ThreadId) -> Found {
        let Some(k) = key(s, t) else {
            return Found::Compute;
        };
        let Some(&root) = self.roots.get(&k) else {
            return Found::Miss;
        };
        let cells = s.mem.cells();
        let mut at = root;
        loop {
            match &self.nodes[at as usize] {
                Node::Empty => return Found::Miss,
                Node::Compute => return Found::Compute,
                Node::Done(i) => {
                    self.hits += 1;
                    return Found::Hit(*i);
                }
                Node::One { cell, value, next } => {
                    if cells[*cell as usize] != *value {
                        return Found::Miss;
                    }
                    at = *next;
                }
                Node::Read { cell, kids } => {
                    let x = cells[*cell as usize];
                    match kids.iter().find(|(v, _)| *v == x) {
                        Some(&(_, next)) => at = next,
                        None => return Found::Miss,
                    }
                }
            }
        }
    }

    /// Makes `v` the outcome of step `i` from `s` (`v` came from the pool, a copy of `s`).
    pub fn apply(&self, i: u32, v: &mut Variant<S>) {
        let o = &self.done[i as usize];
        let cells = v.state.mem.cells_mut();
        for &(c, x) in &o.cells {
            cells[c as usize] = x;
        }
        for &(t, st) in &o.threads {
            v.state.threads[t as usize] = st;
        }
        v.state.atomic = o.atomic;
        let w = &o.variant;
        // (Kept steps read no input and list no writes: the search does not fill them in.)
        v.steps.clear();
        v.steps.extend(
            w.steps
                .iter()
                .map(|st| TraceStep::new(st.thread, st.transition, Vec::new(), st.skipped)),
        );
        v.copy_outcome(w);
    }

    /// Adds thread `t`'s step from `s`, computed while recording `rec`: `vs` are its variants
    /// (kept when there is one and it read no input).
    pub fn insert(
        &mut self,
        s: &State,
        t: ThreadId,
        rec: &Recording,
        vs: &[Variant<S>],
        reads_input: bool,
    ) {
        if self.bytes > MAX_BYTES {
            return;
        }
        let Some(k) = key(s, t) else {
            return;
        };
        let root = match self.roots.get(&k) {
            Some(&r) => r,
            None => {
                self.nodes.push(Node::Empty);
                let r = (self.nodes.len() - 1) as u32;
                self.roots.insert(k, r);
                r
            }
        };
        let mut at = root;
        for &(cell, x) in &rec.reads {
            let n = self.nodes.len() as u32;
            let node = &mut self.nodes[at as usize];
            let next = match node {
                Node::Empty => {
                    *node = Node::One {
                        cell,
                        value: x,
                        next: n,
                    };
                    NONE
                }
                Node::One {
                    cell: c,
                    value,
                    next,
                } if *c == cell => {
                    if *value == x {
                        *next
                    } else {
                        *node = Node::Read {
                            cell,
                            kids: vec![(*value, *next), (x, n)],
                        };
                        NONE
                    }
                }
                Node::Read { cell: c, kids } if *c == cell => {
                    match kids.iter().find(|(v, _)| *v == x) {
                        Some(&(_, next)) => next,
                        None => {
                            kids.push((x, n));
                            NONE
                        }
                    }
                }
                // The step read another element here before: not the same function of the
                // state (cannot happen; the step is simply not kept).
                _ => return,
            };
            at = if next == NONE {
                self.nodes.push(Node::Empty);
                // (The node, and its place in its parent's list of children.)
                self.bytes += std::mem::size_of::<Node>() + 16;
                n
            } else {
                next
            };
        }
        let node = &mut self.nodes[at as usize];
        if !matches!(node, Node::Empty) {
            return;
        }
        let [v] = vs else {
            *node = Node::Compute;
            return;
        };
        if reads_input
            || matches!(v.ending, Some(Ending::Deviation(..)))
            || v.steps.iter().any(|st| !st.writes.is_empty())
        {
            *node = Node::Compute;
            return;
        }
        let after = v.state.mem.cells();
        let cells: Vec<(u32, i64)> = rec.writes.iter().map(|&c| (c, after[c as usize])).collect();
        // The thread's own status and those of the threads it started are set whatever they
        // were; any other thread whose status changed is listed too.
        let threads: Vec<(u32, Status)> = (0..s.threads.len())
            .filter(|&u| {
                u == t.0 as usize
                    || v.spawned.contains(&ThreadId(u as u32))
                    || v.state.threads[u] != s.threads[u]
            })
            .map(|u| (u as u32, v.state.threads[u]))
            .collect();
        let mut variant = Variant::new(v.state.hollow(), v.guide.clone());
        variant.steps.clone_from(&v.steps);
        variant.copy_outcome(v);
        self.bytes += std::mem::size_of::<Outcome<S>>()
            + variant.steps.len() * std::mem::size_of::<TraceStep>()
            + (variant.acc.len() + variant.races.len()) * 16
            + (cells.len() + threads.len()) * 16;
        self.done.push(Outcome {
            variant,
            cells,
            threads,
            atomic: v.state.atomic,
        });
        *node = Node::Done((self.done.len() - 1) as u32);
    }
}
