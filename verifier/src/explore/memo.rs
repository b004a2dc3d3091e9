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
//! accesses, its race events, how it ended; its lists are ranges of a few buffers the memo
//! shares, so that keeping a step allocates nothing once they have grown). Looking a step up
//! reads those elements of the current state; on a miss the step is computed with the machine
//! recording its reads and writes ([`crate::interp::Machine::start_recording`]) and the path
//! is added.
//!
//! Only steps that are functions of the state are kept: no guide (a schedule's state is no
//! memory), no fair-scheduler marks, and steps with exactly one outcome that read no input
//! (a step with several variants is marked at its leaf and always computed). The search's
//! figures (executions, steps, transitions) are the same with and without the memo; a test
//! compares them.

use super::race::Ev;
use super::step::{Ending, Variant};
use super::{Acc, TraceStep};
use crate::interp::{Recording, State, Status};
use crate::ir::{ThreadId, TransId};
use rustc_hash::FxHashMap;

/// No node.
const NONE: u32 = u32::MAX;

/// About how many bytes a memo may hold (beyond it, steps are computed without being kept).
/// The count is of the entries; the buffers' spare capacity may make the memory up to about
/// twice that.
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

/// What a memoised step does, beside the state it leaves (applied as changes). Its lists are
/// ranges of the memo's shared buffers ([`Lists`]): an insertion allocates nothing once they
/// have grown (but for the message of an undefined-behaviour ending).
struct Outcome {
    /// Memory elements written, with their values after the step.
    cells: Span,
    /// Threads whose status the step sets (its own, those it started, any other it
    /// changed), with the new status.
    threads: Span,
    /// The transitions it ran: thread, transition, whether skipped.
    steps: Span,
    /// Its accesses, threads started and race events.
    acc: Span,
    spawned: Span,
    races: Span,
    /// The owner of the atomic region after the step.
    atomic: Option<ThreadId>,
    ending: Option<Ending>,
    visible: bool,
    back_edges: u32,
    stray: Option<u64>,
}

/// A range of one of the [`Lists`] (start, length).
#[derive(Clone, Copy)]
struct Span(u32, u32);

impl Span {
    /// Appends `items` to `list` and gives their range.
    fn push<T>(list: &mut Vec<T>, items: impl IntoIterator<Item = T>) -> Span {
        let start = list.len();
        list.extend(items);
        // (The memo stops growing at MAX_BYTES, far below 2^32 entries.)
        debug_assert!(list.len() <= u32::MAX as usize);
        Span(start as u32, (list.len() - start) as u32)
    }

    fn of<'a, T>(&self, list: &'a [T]) -> &'a [T] {
        &list[self.0 as usize..(self.0 + self.1) as usize]
    }
}

/// The outcomes' lists, one buffer per kind.
#[derive(Default)]
struct Lists {
    cells: Vec<(u32, i64)>,
    threads: Vec<(u32, Status)>,
    steps: Vec<(ThreadId, TransId, bool)>,
    acc: Vec<Acc>,
    spawned: Vec<ThreadId>,
    races: Vec<Ev>,
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
#[derive(Default)]
pub(crate) struct Memo {
    roots: FxHashMap<(u32, u32, u32), u32>,
    nodes: Vec<Node>,
    done: Vec<Outcome>,
    lists: Lists,
    /// About how many bytes the trie and the outcomes take.
    bytes: usize,
    /// Lookups answered.
    pub hits: u64,
}

/// The trie a step of thread `t` at location `l` starts from, with the atomic region's owner
/// and whether `t` is alone ([`super::step::Stepper::alone`]: the step then goes on through
/// scheduling points).
fn key(s: &State, t: ThreadId, alone: bool) -> Option<(u32, u32, u32)> {
    match s.threads[t.0 as usize] {
        Status::At(l) => Some((
            t.0 | (alone as u32) << 31,
            l.0,
            s.atomic.map_or(u32::MAX, |a| a.0),
        )),
        Status::NotStarted => None,
    }
}

impl Memo {
    /// Looks up thread `t`'s step from `s` (`alone`: whether `t` is alone there).
    pub fn find(&mut self, s: &State, t: ThreadId, alone: bool) -> Found {
        let Some(k) = key(s, t, alone) else {
            return Found::Compute;
        };
        let Some(&root) = self.roots.get(&k) else {
            return Found::Miss;
        };
        let cells = &s.mem;
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
                    if cells.at(*cell as usize) != *value {
                        return Found::Miss;
                    }
                    at = *next;
                }
                Node::Read { cell, kids } => {
                    let x = cells.at(*cell as usize);
                    match kids.iter().find(|(v, _)| *v == x) {
                        Some(&(_, next)) => at = next,
                        None => return Found::Miss,
                    }
                }
            }
        }
    }

    /// Makes `v` the outcome of step `i` from `s` (`v` came from the pool, a copy of `s`).
    pub fn apply<S>(&self, i: u32, v: &mut Variant<S>) {
        let (o, l) = (&self.done[i as usize], &self.lists);
        for &(c, x) in o.cells.of(&l.cells) {
            v.state.mem.set(c as usize, x);
        }
        for &(t, st) in o.threads.of(&l.threads) {
            v.state.threads[t as usize] = st;
        }
        v.state.atomic = o.atomic;
        // (Kept steps read no input and list no writes: the search does not fill them in.)
        v.steps.clear();
        v.steps.extend(
            o.steps
                .of(&l.steps)
                .iter()
                .map(|&(t, tr, skipped)| TraceStep::new(t, tr, Vec::new(), skipped)),
        );
        v.acc.clear();
        v.acc.extend_from_slice(o.acc.of(&l.acc));
        v.spawned.clear();
        v.spawned.extend_from_slice(o.spawned.of(&l.spawned));
        v.marks.clear();
        v.races.clear();
        v.races.extend_from_slice(o.races.of(&l.races));
        v.ending.clone_from(&o.ending);
        v.visible = o.visible;
        v.back_edges = o.back_edges;
        v.read_input = false;
        v.inputs_read = 0;
        v.read_unused_input = false;
        v.stray = o.stray;
    }

    /// Adds thread `t`'s step from `s`, computed while recording `rec`: `vs` are its variants
    /// (kept when there is one and it read no input).
    pub fn insert<S>(
        &mut self,
        s: &State,
        t: ThreadId,
        alone: bool,
        rec: &Recording,
        vs: &[Variant<S>],
        reads_input: bool,
    ) {
        if self.bytes > MAX_BYTES {
            return;
        }
        let Some(k) = key(s, t, alone) else {
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
        // (The fair scheduler's marks are not kept: the memo is off under it.)
        if reads_input
            || matches!(v.ending, Some(Ending::Deviation(..)))
            || v.steps.iter().any(|st| !st.writes.is_empty())
            || !v.marks.is_empty()
        {
            *node = Node::Compute;
            return;
        }
        let l = &mut self.lists;
        let after = &v.state.mem;
        let cells = Span::push(
            &mut l.cells,
            rec.writes.iter().map(|&c| (c, after.at(c as usize))),
        );
        // The thread's own status and those of the threads it started are set whatever they
        // were; any other thread whose status changed is listed too.
        let threads = Span::push(
            &mut l.threads,
            (0..s.threads.len())
                .filter(|&u| {
                    u == t.0 as usize
                        || v.spawned.contains(&ThreadId(u as u32))
                        || v.state.threads[u] != s.threads[u]
                })
                .map(|u| (u as u32, v.state.threads[u])),
        );
        let o = Outcome {
            cells,
            threads,
            steps: Span::push(
                &mut l.steps,
                v.steps
                    .iter()
                    .map(|st| (st.thread, st.transition, st.skipped)),
            ),
            acc: Span::push(&mut l.acc, v.acc.iter().copied()),
            spawned: Span::push(&mut l.spawned, v.spawned.iter().copied()),
            races: Span::push(&mut l.races, v.races.iter().copied()),
            atomic: v.state.atomic,
            ending: v.ending.clone(),
            visible: v.visible,
            back_edges: v.back_edges,
            stray: v.stray,
        };
        self.bytes += std::mem::size_of::<Outcome>()
            + (o.cells.1 + o.threads.1 + o.steps.1 + o.acc.1 + o.races.1) as usize * 16
            + o.spawned.1 as usize * 4;
        self.done.push(o);
        *node = Node::Done((self.done.len() - 1) as u32);
    }
}
