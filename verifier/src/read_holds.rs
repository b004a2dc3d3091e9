//! The read locks of rwlocks that a thread surely holds at each of its locations, for the
//! partial-order reduction of [`crate::footprint`]: while a thread holds a read lock, no
//! writer takes the lock, so the code behind another thread's write lock is no part of what
//! that thread may touch before the reader moves (Stoller, "Model-Checking Multi-Threaded
//! Distributed Java Programs", where a held lock stands for the accesses it guards; here for
//! a lock that several readers hold at once).
//!
//! The model's rwlock has a reader count `r` and a writer cell `w`
//! (`frontend::llvm::calls`): a read lock adds 1 to `r` where `w` is 0, a write lock takes
//! `w` where both are 0, an unlock gives `w` back when the thread holds it and takes 1 from
//! `r` otherwise. A rwlock is *counted* when `r` and `w` are cells at fixed places that start
//! 0 and every write of them is one of those steps, an unlock by a thread that surely holds
//! the read or the write lock, or an initialisation by `main` before it starts a thread or
//! takes a lock. Then `r` is always the number of read locks the threads hold (each read
//! lock adds one, each unlock of a holder's takes its own one away) and `w` is 0 while any is
//! held. A thread's read locks are found by a must analysis over its CFG: per counted
//! rwlock, a lower bound of the read locks it holds and whether it holds the write lock.

use crate::ir::*;
use std::rc::Rc;

/// A cell: a variable and an element.
pub type Cell = (VarId, i128);

/// Whether a thread holds a rwlock's write lock, as far as the analysis knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Writer {
    Yes,
    No,
    Unknown,
}

/// What a thread surely holds of each rwlock at a location: per rwlock, the fewest read
/// locks it may hold there, and whether it holds the write lock.
type Holds = Vec<(u32, Writer)>;

/// Rwlocks by their reader and writer cells.
pub type Rwlocks = Rc<[(Cell, Cell)]>;

/// The counted rwlocks of a program and the read locks each thread surely holds of them.
pub struct ReadHolds {
    /// Per thread, per location: the counted rwlocks it surely holds a read lock of.
    held: Vec<Vec<Rwlocks>>,
}

/// Most read locks the analysis counts of one rwlock (a bound that would pass it stays
/// there, still a lower bound).
const MAX_COUNT: u32 = 1 << 16;

impl ReadHolds {
    /// The analysis of `prog`.
    pub fn new(prog: &Program) -> ReadHolds {
        let locks = rwlocks(prog);
        // (A cell that two unlocks pair with different cells is no rwlock's own.)
        let alone = |c: Cell| locks.iter().filter(|&&(r, w)| r == c || w == c).count() == 1;
        let mut counted: Vec<bool> = (locks.iter())
            .map(|&(r, w)| alone(r) && alone(w) && starts_zero(prog, r) && starts_zero(prog, w))
            .collect();
        let mut per_thread = Vec::with_capacity(prog.threads.len());
        for th in &prog.threads {
            let holds = analyse(th, &locks);
            let early = (th.id == ThreadId(0)).then(|| early(th));
            // Every write of a rwlock's cells must be one of its own steps, by a holder where
            // it gives a lock back, or an early initialisation.
            for tr in &th.transitions {
                let Some(before) = &holds[tr.src.0 as usize] else {
                    continue;
                };
                let own = own_step(tr, &locks);
                for place in tr.writes() {
                    for k in hit(place, &locks) {
                        let fine = match (own, &tr.kind) {
                            (Some(j), TransKind::Sync(SyncKind::RwUnlock)) if j == k => {
                                before[k].0 >= 1 || before[k].1 == Writer::Yes
                            }
                            (Some(j), _) if j == k => true,
                            (_, TransKind::Sync(SyncKind::MutexInit)) => {
                                early.as_ref().is_some_and(|e| e[tr.src.0 as usize])
                            }
                            _ => false,
                        };
                        counted[k] &= fine;
                    }
                }
            }
            per_thread.push(holds);
        }
        let none: Rwlocks = Rc::new([]);
        let held = per_thread
            .into_iter()
            .map(|holds| {
                holds
                    .into_iter()
                    .map(|h| -> Rwlocks {
                        let cells: Vec<(Cell, Cell)> = (h.iter().flatten().enumerate())
                            .filter(|&(k, &(reads, _))| counted[k] && reads >= 1)
                            .map(|(k, _)| locks[k])
                            .collect();
                        if cells.is_empty() {
                            none.clone()
                        } else {
                            cells.into()
                        }
                    })
                    .collect()
            })
            .collect();
        ReadHolds { held }
    }

    /// The counted rwlocks thread `t` surely holds a read lock of at location `l`: their
    /// reader and writer cells.
    pub fn at(&self, t: ThreadId, l: LocId) -> &Rwlocks {
        &self.held[t.0 as usize][l.0 as usize]
    }
}

/// The cell a place names, where it is a fixed one.
fn fixed(place: &Place) -> Option<Cell> {
    match place {
        Place::Var { var, index: None } => Some((*var, 0)),
        Place::Var {
            var,
            index: Some(ix),
        } => Some((*var, ix.as_const()?)),
        Place::Deref { .. } => None,
    }
}

/// The rwlocks of the program with fixed cells: (reader cell, writer cell), as their unlocks
/// name them.
fn rwlocks(prog: &Program) -> Vec<(Cell, Cell)> {
    let mut out = Vec::new();
    for th in &prog.threads {
        for tr in &th.transitions {
            if tr.kind != TransKind::Sync(SyncKind::RwUnlock) {
                continue;
            }
            let [Op::Assign { place: r, .. }, Op::Assign { place: w, .. }] = &tr.ops[..] else {
                continue;
            };
            if let (Some(r), Some(w)) = (fixed(r), fixed(w)) {
                if !out.contains(&(r, w)) {
                    out.push((r, w));
                }
            }
        }
    }
    out
}

/// Whether cell `c` starts 0.
fn starts_zero(prog: &Program, (v, i): Cell) -> bool {
    match &prog.var(v).init {
        Init::Zero => true,
        Init::Values(xs) => usize::try_from(i).is_ok_and(|i| xs.get(i).copied().unwrap_or(0) == 0),
        Init::Nondet => false,
    }
}

/// The rwlocks (indexes into `locks`) whose cells a write of `place` may hit.
fn hit(place: &Place, locks: &[(Cell, Cell)]) -> Vec<usize> {
    let vars = place.vars();
    let may = |c: Cell| vars.contains(&c.0) && fixed(place).is_none_or(|p| p == c);
    (locks.iter().enumerate())
        .filter(|(_, &(r, w))| may(r) || may(w))
        .map(|(k, _)| k)
        .collect()
}

/// Which step of a rwlock a transition is, for the rwlock it names with fixed cells:
/// its index.
fn own_step(tr: &Transition, locks: &[(Cell, Cell)]) -> Option<usize> {
    let TransKind::Sync(kind) = tr.kind else {
        return None;
    };
    let find = |c: Cell, reader: bool| {
        (locks.iter()).position(|&(r, w)| if reader { r == c } else { w == c })
    };
    match (kind, &tr.ops[..]) {
        // The return value, then the count (or the writer).
        (SyncKind::ReadLock, [Op::Assign { .. }, Op::Assign { place, .. }]) => {
            find(fixed(place)?, true)
        }
        (SyncKind::WriteLock, [Op::Assign { .. }, Op::Assign { place, .. }]) => {
            find(fixed(place)?, false)
        }
        (SyncKind::RwUnlock, [Op::Assign { place: r, .. }, Op::Assign { place: w, .. }]) => {
            let k = find(fixed(r)?, true)?;
            (locks[k].1 == fixed(w)?).then_some(k)
        }
        _ => None,
    }
}

/// The must analysis of one thread: per location, what it surely holds there (`None`:
/// unreached).
fn analyse(th: &Thread, locks: &[(Cell, Cell)]) -> Vec<Option<Holds>> {
    let mut at: Vec<Option<Holds>> = vec![None; th.locations.len()];
    at[th.entry.0 as usize] = Some(vec![(0, Writer::No); locks.len()]);
    let mut work = vec![th.entry];
    while let Some(l) = work.pop() {
        let Some(s) = at[l.0 as usize].clone() else {
            continue;
        };
        for tr in th.outgoing(l) {
            let after = step(tr, locks, s.clone());
            let d = tr.dst.0 as usize;
            let joined = match &at[d] {
                None => after,
                Some(old) => {
                    let j: Holds = (old.iter().zip(&after))
                        .map(|(&(a, x), &(b, y))| {
                            (a.min(b), if x == y { x } else { Writer::Unknown })
                        })
                        .collect();
                    if &j == old {
                        continue;
                    }
                    j
                }
            };
            at[d] = Some(joined);
            work.push(tr.dst);
        }
    }
    at
}

/// What a thread holds after transition `tr`, from `s` before it.
fn step(tr: &Transition, locks: &[(Cell, Cell)], mut s: Holds) -> Holds {
    let Some(k) = own_step(tr, locks) else {
        return s;
    };
    let blocking = tr.may_block;
    let (reads, writer) = &mut s[k];
    match tr.kind {
        // A read lock that waits is taken unless the thread holds the write lock (then it
        // fails with EDEADLK); a try may fail, and is not counted.
        TransKind::Sync(SyncKind::ReadLock) if blocking && *writer == Writer::No => {
            *reads = (*reads + 1).min(MAX_COUNT);
        }
        // After a write lock that waits, the thread holds it (taken, or already its own).
        TransKind::Sync(SyncKind::WriteLock) => {
            if blocking {
                *writer = Writer::Yes;
            } else if *writer != Writer::Yes {
                *writer = Writer::Unknown;
            }
        }
        // An unlock gives back the write lock, or one read lock.
        TransKind::Sync(SyncKind::RwUnlock) => {
            if *writer != Writer::Yes {
                *reads = reads.saturating_sub(1);
            }
            *writer = Writer::No;
        }
        _ => {}
    }
    s
}

/// Per location of `main`: whether it lies before every start of a thread and every lock of
/// a rwlock (no path from one reaches it).
fn early(main: &Thread) -> Vec<bool> {
    let late = main.reached_after(|tr| {
        matches!(
            tr.kind,
            TransKind::Sync(SyncKind::Spawn | SyncKind::ReadLock | SyncKind::WriteLock)
        )
    });
    late.into_iter().map(|x| !x).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Per transition of `kind` in thread 1, in order: whether the thread surely holds a
    /// read lock of `l` after it.
    fn holds_after(body: &str, kind: SyncKind) -> Vec<bool> {
        let src = format!(
            "#include <pthread.h>\n\
             pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;\n\
             void *f(void *a) {{ {body} return 0; }}\n\
             int main(void) {{ pthread_t t; pthread_create(&t, 0, f, 0); \
             pthread_join(t, 0); return 0; }}"
        );
        let p = crate::frontend::load_str("holds.c", &src, &Default::default()).expect("lowers");
        let holds = ReadHolds::new(&p);
        let th = p.thread(ThreadId(1));
        (th.transitions.iter())
            .filter(|tr| tr.kind == TransKind::Sync(kind))
            .map(|tr| !holds.at(th.id, tr.dst).is_empty())
            .collect()
    }

    /// A read lock taken twice is held until the second unlock; one refused to the writer
    /// (EDEADLK) or only tried is not counted; a stray unlock anywhere makes the count no
    /// count of the readers, so no read lock of that rwlock is known to be held.
    #[test]
    fn a_thread_holds_the_read_locks_it_surely_took() {
        let twice = "pthread_rwlock_rdlock(&l); pthread_rwlock_rdlock(&l); \
                     pthread_rwlock_unlock(&l); pthread_rwlock_unlock(&l);";
        assert_eq!(holds_after(twice, SyncKind::ReadLock), [true, true]);
        assert_eq!(holds_after(twice, SyncKind::RwUnlock), [true, false]);
        let writer = "pthread_rwlock_wrlock(&l); pthread_rwlock_rdlock(&l); \
                      pthread_rwlock_unlock(&l);";
        assert_eq!(holds_after(writer, SyncKind::ReadLock), [false]);
        let tried = "if (pthread_rwlock_tryrdlock(&l) == 0) pthread_rwlock_unlock(&l);";
        assert_eq!(holds_after(tried, SyncKind::ReadLock), [false]);
        let stray = "pthread_rwlock_rdlock(&l); pthread_rwlock_unlock(&l); \
                     pthread_rwlock_unlock(&l);";
        assert_eq!(holds_after(stray, SyncKind::ReadLock), [false]);
    }
}
