//! Shared cells guarded by a mutex, for the thread-modular proof ([`super::modular`]). The
//! mutexes a thread holds at each access of a shared cell are learned as the proof runs (the
//! cell's *lockset*, as Savage et al.'s Eraser learns it, "Eraser: A Dynamic Data Race
//! Detector for Multithreaded Programs"); a cell with a mutex in its lockset is *guarded* by
//! one of them. A thread sees a guarded cell only while it holds the mutex: when it takes the
//! mutex, the cells take any values some thread left them with when it released the mutex
//! (the mutex's invariant, as in Miné's "Static Analysis of Run-Time Errors in Embedded
//! Real-Time Parallel C Programs"), and while it does not hold it, its views forget them. No
//! other thread changes a cell while its mutex is held, so a view holding the mutex sees the
//! cell's value, and the others' changes of it (which their guarantees then leave out) are
//! seen through the mutex alone: views no longer multiply by the contents of every critical
//! section of the program.
//!
//! A proof with a guard chosen for a cell holds only if every access of the cell holds its
//! mutex; an access that does not ends the proof, which starts again with the locksets
//! learned so far. Accesses by `main` before it starts a thread (and before any location it
//! may reach after starting one) are no one else's business and teach nothing.

use super::space::Key;
use crate::interp;
use crate::ir::{LocId, Thread, ThreadId};
use petgraph::graphmap::DiGraphMap;
use rustc_hash::FxHashSet;

/// What a proof learned of the program's locking, for the next.
#[derive(Clone, Default)]
pub(super) struct Learned {
    /// Per flat cell of shared memory: the mutexes (their flat cells) held at every access
    /// seen, once one was seen.
    locksets: Vec<Option<Box<[usize]>>>,
    /// Mutexes held while another is taken: an edge from the one held.
    pub order: DiGraphMap<usize, ()>,
}

impl Learned {
    pub fn new(cells: usize) -> Learned {
        Learned {
            locksets: vec![None; cells],
            order: DiGraphMap::new(),
        }
    }

    /// Notes an access of cell `f` holding `held` (sorted).
    pub fn access(&mut self, f: usize, held: &[usize]) {
        let set = &mut self.locksets[f];
        match set {
            None => *set = Some(held.into()),
            Some(s) if s.iter().all(|m| held.binary_search(m).is_ok()) => {}
            Some(s) => *set = Some(s.iter().copied().filter(|m| held.contains(m)).collect()),
        }
    }

    /// Per flat cell: the mutex that guards it, if any: of the mutexes of its lockset, one
    /// never taken while another of them is held (the outermost: the cell is seen as it is
    /// when that one is released, after the inner sections are done), the first such.
    pub fn guards(&self) -> Vec<Option<usize>> {
        self.locksets
            .iter()
            .map(|set| {
                let set = set.as_deref()?;
                set.iter()
                    .copied()
                    .find(|&m| {
                        !set.iter()
                            .any(|&h| h != m && self.order.contains_edge(h, m))
                    })
                    .or_else(|| set.first().copied())
            })
            .collect()
    }
}

/// Per location of `main`: whether `main` is the only thread there (no location reached
/// after a thread creation, including a loop around one, is).
pub(super) fn alone(main: &Thread) -> Vec<bool> {
    let n = main.locations.len();
    let reach = |from: &[LocId], through_creations: bool| {
        let mut seen = vec![false; n];
        let mut work: Vec<LocId> = from.to_vec();
        while let Some(l) = work.pop() {
            if std::mem::replace(&mut seen[l.0 as usize], true) {
                continue;
            }
            for tr in main.outgoing(l) {
                if through_creations || tr.starts.is_none() {
                    work.push(tr.dst);
                }
            }
        }
        seen
    };
    let before = reach(&[main.entry], false);
    let after_dsts: Vec<LocId> = main
        .transitions
        .iter()
        .filter(|t| t.starts.is_some())
        .map(|t| t.dst)
        .collect();
    let after = reach(&after_dsts, true);
    (0..n).map(|l| before[l] && !after[l]).collect()
}

/// A guarded cell's values and marks of not known bytes, in a view.
pub(super) type Values = Box<[i64]>;

/// The cells one mutex guards, and the values threads left them with.
pub(super) struct Invariant {
    /// Their flat cells.
    pub cells: Vec<usize>,
    /// The values left (each once, in the order found).
    pub records: Vec<Values>,
    known: FxHashSet<Values>,
    /// The views just after a thread took the mutex (the cells forgotten), each to be given
    /// every value left.
    pub takers: Vec<(ThreadId, Key)>,
    takers_known: FxHashSet<(ThreadId, Key)>,
}

impl Invariant {
    pub fn new(cells: Vec<usize>) -> Invariant {
        Invariant {
            cells,
            records: Vec::new(),
            known: FxHashSet::default(),
            takers: Vec::new(),
            takers_known: FxHashSet::default(),
        }
    }

    /// The cells' values in `k`.
    pub fn values(&self, k: &Key) -> Values {
        k.values_of(&self.cells)
    }

    /// `k` with the cells set to `v`.
    pub fn set(&self, k: &mut Key, v: &[i64]) {
        k.set_values(&self.cells, v);
    }

    /// `k` with the cells forgotten (0, and not known: a read of one would taint what it
    /// decides).
    pub fn forget(&self, k: &mut Key) {
        for &f in &self.cells {
            k.state.mem.set(f, 0);
            interp::set_unknown_bytes(&mut k.undef, f, interp::ALL_BYTES);
        }
    }

    /// Records values left; whether they are new.
    pub fn record(&mut self, v: Values) -> bool {
        if self.known.insert(v.clone()) {
            self.records.push(v);
            true
        } else {
            false
        }
    }

    /// Records a view just after a thread took the mutex; whether it is new.
    pub fn taker(&mut self, t: ThreadId, k: Key) -> bool {
        if self.takers_known.insert((t, k.clone())) {
            self.takers.push((t, k));
            true
        } else {
            false
        }
    }
}
