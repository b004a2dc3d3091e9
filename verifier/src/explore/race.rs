//! Data-race detection for the search that preempts only at synchronisation (seed 003,
//! section 3.1). An execution is *observable* when every preemption happens right before an
//! access to a synchronisation variable. Theorem 2 there: a race-free execution is
//! equivalent to an observable one (same happens-before order, same final state; so every
//! error and deadlock of a race-free program shows in an observable execution). Theorem 3:
//! if some execution has a data race, some observable execution has one. So the search may
//! schedule only at synchronisation operations (a step runs on through the thread's data
//! accesses, [`super::step`]) as long as it checks each execution it explores for data races:
//! when it finds none, the program has none and the search was complete; when it finds one,
//! the search starts again with every shared access a scheduling point.
//! The unlock of a mutex its thread holds is no scheduling point either (the step runs on
//! through it; [`super::step::unlock_table`] says why that loses nothing and how the search
//! checks its premise).
//!
//! The happens-before order is the paper's: program order, and the order of the accesses to
//! each synchronisation variable (memory only synchronisation operations touch: mutexes,
//! condition variables, barriers, the `__thread_done` flags of join; atomic regions as one
//! lock, which the search also treats as one), plus thread creation; as for the search, two
//! reads of a synchronisation variable are not ordered. What a synchronisation operation
//! does to other memory (the `pthread_t` that `pthread_create` writes) is a data access. It is kept with vector
//! clocks; each variable element remembers its last write and each thread's last read (as in
//! FastTrack, Flanagan and Freund, PLDI 2009). A data access races with an earlier
//! conflicting access of another thread that does not happen before it.
//!
//! The search is depth-first: the detector's state changes are logged per step and undone
//! when the search returns to an earlier point.

use rustc_hash::FxHashMap;

/// What one executed transition did, as the detector needs it (in execution order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ev {
    /// A read or write (`true`) of a location ([`super::Acc::key`]) by a data transition.
    Data(u64, bool),
    /// An access by a synchronisation transition.
    Sync(u64, bool),
    /// The synchronisation transition started this thread.
    Spawn(u32),
    /// The end of a synchronisation transition: its accesses are released.
    EndSync,
}

/// The location atomic regions synchronise on (a key no variable has).
pub(crate) const ATOMIC_KEY: u64 = (1 << 63) | ((1 << 62) - 1);

/// A data race: two conflicting accesses to `key`, by threads `first` (earlier) and
/// `second`, not ordered by happens-before.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Race {
    pub key: u64,
    pub first: u32,
    pub second: u32,
}

/// No thread.
const NONE: u32 = u32::MAX;

/// Which array an undo record restores.
#[derive(Clone, Copy)]
enum Arr {
    Clock,
    Release,
    ReadJoin,
    WriteThread,
    WriteEpoch,
    Read,
}

/// The detector's state along the current path of the search.
pub(crate) struct Detector {
    n: usize,
    ids: FxHashMap<u64, u32>,
    /// Per thread, its vector clock (`n` entries from `t * n`).
    clock: Vec<u32>,
    /// Per location, the clock its last synchronisation write released, and the join of
    /// the clocks of the synchronisation reads since (a write waits for both; a read only
    /// for the write: two reads are independent for the search, so they must not be
    /// ordered here either).
    release: Vec<u32>,
    read_join: Vec<u32>,
    /// Per location, the thread and epoch of its last write.
    write_thread: Vec<u32>,
    write_epoch: Vec<u32>,
    /// Per location, per thread, the epoch of its last read.
    read: Vec<u32>,
    /// Undo records: an array, the offset and the length of a changed range, whose old
    /// values are at the end of `undo_vals`.
    undo: Vec<(Arr, u32, u32)>,
    undo_vals: Vec<u32>,
    /// A vector clock being computed.
    tmp: Vec<u32>,
    /// Where each step's records start in `undo` (step `d`'s at `marks[d]`).
    marks: Vec<usize>,
    /// The synchronisation accesses of the current transition: location, write.
    pending: Vec<(u32, bool)>,
}

impl Detector {
    /// A detector for a program with `n` threads.
    pub fn new(n: usize) -> Self {
        let mut clock = vec![0; n * n];
        for t in 0..n {
            clock[t * n + t] = 1;
        }
        Detector {
            n,
            ids: FxHashMap::default(),
            clock,
            release: Vec::new(),
            read_join: Vec::new(),
            write_thread: Vec::new(),
            write_epoch: Vec::new(),
            read: Vec::new(),
            undo: Vec::new(),
            undo_vals: Vec::new(),
            tmp: Vec::new(),
            marks: Vec::new(),
            pending: Vec::new(),
        }
    }

    fn arr(&mut self, a: Arr) -> &mut Vec<u32> {
        match a {
            Arr::Clock => &mut self.clock,
            Arr::Release => &mut self.release,
            Arr::ReadJoin => &mut self.read_join,
            Arr::WriteThread => &mut self.write_thread,
            Arr::WriteEpoch => &mut self.write_epoch,
            Arr::Read => &mut self.read,
        }
    }

    fn set(&mut self, a: Arr, i: usize, v: u32) {
        let cell = &mut self.arr(a)[i];
        let old = *cell;
        if old != v {
            *cell = v;
            self.undo.push((a, i as u32, 1));
            self.undo_vals.push(old);
        }
    }

    /// Stores `tmp` (a vector clock) at `off` of array `a`, when it changes anything.
    fn store_tmp(&mut self, a: Arr, off: usize) {
        let tmp = std::mem::take(&mut self.tmp);
        let n = tmp.len();
        let mut vals = std::mem::take(&mut self.undo_vals);
        let dst = &mut self.arr(a)[off..off + n];
        if dst != tmp.as_slice() {
            vals.extend_from_slice(dst);
            dst.copy_from_slice(&tmp);
            self.undo.push((a, off as u32, n as u32));
        }
        self.undo_vals = vals;
        self.tmp = tmp;
    }

    fn id(&mut self, key: u64) -> usize {
        let next = self.ids.len() as u32;
        let id = *self.ids.entry(key).or_insert(next) as usize;
        if id == self.write_thread.len() {
            self.release.resize(self.release.len() + self.n, 0);
            self.read_join.resize(self.read_join.len() + self.n, 0);
            self.read.resize(self.read.len() + self.n, 0);
            self.write_thread.push(NONE);
            self.write_epoch.push(0);
        }
        id
    }

    /// Undoes the steps from point `d` on.
    fn rewind(&mut self, d: usize) {
        if let Some(&m) = self.marks.get(d) {
            while self.undo.len() > m {
                let (a, off, len) = self.undo.pop().expect("a record");
                let (off, len) = (off as usize, len as usize);
                let from = self.undo_vals.len() - len;
                let mut vals = std::mem::take(&mut self.undo_vals);
                self.arr(a)[off..off + len].copy_from_slice(&vals[from..]);
                vals.truncate(from);
                self.undo_vals = vals;
            }
            self.marks.truncate(d);
        }
    }

    /// The step of thread `t` at point `d` (the steps before it are those of the current
    /// path): updates the clocks; returns the first data race it takes part in.
    pub fn step(&mut self, d: usize, t: u32, evs: &[Ev]) -> Option<Race> {
        self.rewind(d);
        while self.marks.len() < d {
            // (Points whose steps the detector did not see cannot occur: every step is
            // taken through it.)
            self.marks.push(self.undo.len());
        }
        self.marks.push(self.undo.len());
        let n = self.n;
        let t = t as usize;
        let mut race = None;
        for ev in evs {
            match *ev {
                Ev::Sync(key, write) => {
                    let x = self.id(key);
                    self.tmp.clear();
                    let (ct, rel) = (&self.clock[t * n..][..n], &self.release[x * n..][..n]);
                    self.tmp.extend(ct.iter().zip(rel).map(|(a, b)| *a.max(b)));
                    if write {
                        for (a, b) in self.tmp.iter_mut().zip(&self.read_join[x * n..][..n]) {
                            *a = (*a).max(*b);
                        }
                    }
                    self.store_tmp(Arr::Clock, t * n);
                    self.record(x, t, write);
                    self.pending.push((x as u32, write));
                }
                Ev::Spawn(c) => {
                    let c = c as usize;
                    self.tmp.clear();
                    let (cc, ct) = (&self.clock[c * n..][..n], &self.clock[t * n..][..n]);
                    self.tmp.extend(cc.iter().zip(ct).map(|(a, b)| *a.max(b)));
                    self.store_tmp(Arr::Clock, c * n);
                }
                Ev::EndSync => {
                    let pending = std::mem::take(&mut self.pending);
                    for &(x, write) in &pending {
                        let x = x as usize;
                        self.tmp.clear();
                        let ct = &self.clock[t * n..][..n];
                        if write {
                            self.tmp.extend_from_slice(ct);
                            self.store_tmp(Arr::Release, x * n);
                            self.tmp.clear();
                            self.tmp.resize(n, 0);
                            self.store_tmp(Arr::ReadJoin, x * n);
                        } else {
                            let rj = &self.read_join[x * n..][..n];
                            self.tmp.extend(ct.iter().zip(rj).map(|(a, b)| *a.max(b)));
                            self.store_tmp(Arr::ReadJoin, x * n);
                        }
                    }
                    self.pending = pending;
                    self.pending.clear();
                    let e = self.clock[t * n + t] + 1;
                    self.set(Arr::Clock, t * n + t, e);
                }
                Ev::Data(key, write) => {
                    let x = self.id(key);
                    if race.is_none() {
                        race = self.check(x, key, t, write);
                    }
                    self.record(x, t, write);
                }
            }
        }
        race
    }

    /// The race of a data access by `t` to location `x` with an earlier access, if any.
    fn check(&self, x: usize, key: u64, t: usize, write: bool) -> Option<Race> {
        let n = self.n;
        let ct = &self.clock[t * n..(t + 1) * n];
        let wt = self.write_thread[x];
        if wt != NONE && wt as usize != t && self.write_epoch[x] > ct[wt as usize] {
            return Some(Race {
                key,
                first: wt,
                second: t as u32,
            });
        }
        if write {
            for u in (0..n).filter(|&u| u != t) {
                if self.read[x * n + u] > ct[u] {
                    return Some(Race {
                        key,
                        first: u as u32,
                        second: t as u32,
                    });
                }
            }
        }
        None
    }

    fn record(&mut self, x: usize, t: usize, write: bool) {
        let n = self.n;
        let e = self.clock[t * n + t];
        if write {
            self.set(Arr::WriteThread, x, t as u32);
            self.set(Arr::WriteEpoch, x, e);
        } else {
            self.set(Arr::Read, x * n + t, e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const X: u64 = 5 << 32;
    const M: u64 = 7 << 32;

    fn locked(t: u32, d: usize, det: &mut Detector, write: bool) -> Option<Race> {
        // lock; x access; unlock, as two steps (the lock with the access, the unlock).
        let a = det.step(d, t, &[Ev::Sync(M, true), Ev::EndSync, Ev::Data(X, write)]);
        let b = det.step(d + 1, t, &[Ev::Sync(M, true), Ev::EndSync]);
        a.or(b)
    }

    #[test]
    fn accesses_under_one_lock_do_not_race() {
        let mut det = Detector::new(2);
        assert_eq!(locked(0, 0, &mut det, true), None);
        assert_eq!(locked(1, 2, &mut det, true), None);
        assert_eq!(locked(0, 4, &mut det, false), None);
    }

    #[test]
    fn unordered_conflicting_accesses_race_and_rewinding_forgets_them() {
        let mut det = Detector::new(2);
        assert_eq!(det.step(0, 0, &[Ev::Data(X, true)]), None);
        assert_eq!(
            det.step(1, 1, &[Ev::Data(X, false)]),
            Some(Race {
                key: X,
                first: 0,
                second: 1
            })
        );
        // Back at point 0 with another step: thread 1 reads first, thread 0 reads too.
        assert_eq!(det.step(0, 1, &[Ev::Data(X, false)]), None);
        assert_eq!(det.step(1, 0, &[Ev::Data(X, false)]), None);
        // An access after the unlock is not ordered before the next lock of the mutex.
        let mut det = Detector::new(2);
        assert_eq!(
            det.step(0, 0, &[Ev::Sync(M, true), Ev::EndSync, Ev::Data(X, true)]),
            None
        );
        assert!(det.step(1, 1, &[Ev::Sync(M, true), Ev::EndSync]).is_none());
        assert!(det.step(2, 1, &[Ev::Data(X, false)]).is_some());
    }

    #[test]
    fn two_synchronisation_reads_are_not_ordered() {
        let mut det = Detector::new(2);
        assert_eq!(
            det.step(0, 0, &[Ev::Data(X, true), Ev::Sync(M, false), Ev::EndSync]),
            None
        );
        assert!(det
            .step(1, 1, &[Ev::Sync(M, false), Ev::EndSync, Ev::Data(X, false)])
            .is_some());
        // A write after the read is ordered after it.
        let mut det = Detector::new(2);
        assert_eq!(
            det.step(0, 0, &[Ev::Data(X, true), Ev::Sync(M, false), Ev::EndSync]),
            None
        );
        assert_eq!(
            det.step(1, 1, &[Ev::Sync(M, true), Ev::EndSync, Ev::Data(X, false)]),
            None
        );
    }

    #[test]
    fn a_started_thread_sees_what_its_creator_did() {
        let mut det = Detector::new(2);
        assert_eq!(
            det.step(
                0,
                0,
                &[
                    Ev::Data(X, true),
                    Ev::Sync(M, true),
                    Ev::Spawn(1),
                    Ev::EndSync
                ]
            ),
            None
        );
        assert_eq!(det.step(1, 1, &[Ev::Data(X, true)]), None);
        // The creator's write after the start races with the thread's.
        assert!(det.step(2, 0, &[Ev::Data(X, true)]).is_some());
    }
}
