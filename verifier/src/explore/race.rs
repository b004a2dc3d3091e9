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
//! through it; [`super::step::Tables::unlock`] says why that loses nothing and how the search
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
//! A synchronisation read followed in the same transition by a write of the same location
//! (the test of a lock) is left out of the events: the write joins with more than the read,
//! and resets the reads' join the read would add to.
//!
//! The search is depth-first: the detector's state changes are logged per step and undone
//! when the search returns to an earlier point.

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

/// How many locations the detector's clocks start with room for (the benchmarks of seed 004
/// synchronise on a few dozen).
const EXPECTED_LOCATIONS: usize = 64;

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

/// No thread, no location.
const NONE: u32 = u32::MAX;

/// The clock entries the loops over clocks take at a time (one SSE2 register).
const LANES: usize = 4;

/// The detector's state along the current path of the search, in one array `vals`: the
/// threads' vector clocks (`n` entries each, from `t * n`), then one block per location seen
/// ([`Detector::block`]): the clock its last synchronisation write released, the join of the
/// clocks of the synchronisation reads since (a write waits for both; a read only for the
/// write: two reads are independent for the search, so they must not be ordered here
/// either), each thread's epoch of its last read, and the thread and epoch of the last
/// write.
pub(crate) struct Detector {
    /// The entries of a vector clock: the number of threads rounded up to a multiple of
    /// [`LANES`] (the other entries stay 0), so that the loops over clocks run in whole
    /// vector registers, without a scalar remainder.
    n: usize,
    /// Where each variable's elements start among all the elements (and the end): a
    /// location's position is its variable's start plus its index.
    starts: Vec<usize>,
    /// Per position, the location's number ([`NONE`] until it is seen); and the number of
    /// the atomic regions' lock.
    ids: Vec<u32>,
    atomic_id: u32,
    /// Locations seen.
    seen: usize,
    vals: Vec<u32>,
    /// Undo records: the offset and the length of a changed range of `vals`, whose old values
    /// are at the end of `undo_vals`.
    undo: Vec<(u32, u32)>,
    undo_vals: Vec<u32>,
    /// Where each step's records start in `undo` (step `d`'s at `marks[d]`).
    marks: Vec<usize>,
    /// The synchronisation accesses of the current transition: location, write.
    pending: Vec<(u32, bool)>,
}

impl Detector {
    /// A detector for a program with `threads` threads whose variables' elements start at
    /// `starts` among all the elements (the last entry: their number).
    pub fn new(threads: usize, starts: Vec<usize>) -> Self {
        let n = threads.next_multiple_of(LANES);
        // (Buffers sized for `EXPECTED_STEPS` steps and as many locations as there are
        // memory elements, at least `EXPECTED_LOCATIONS` and at most four times that. The undo
        // log starts small and grows: sizing it for whole clocks at every step, 80 KB at 16
        // threads, took the first search of a fresh process into a new transparent huge page
        // of the allocator's arena, whose first touch (the kernel clears 2 MiB) cost fsbench
        // 16 a third of its 0.5 ms search.)
        let cells = starts.last().copied().unwrap_or(0);
        let locations = cells.clamp(EXPECTED_LOCATIONS, 4 * EXPECTED_LOCATIONS);
        let mut vals = Vec::with_capacity(n * n + locations * (3 * n + 2));
        vals.resize(n * n, 0);
        for t in 0..threads {
            vals[t * n + t] = 1;
        }
        Detector {
            n,
            starts,
            ids: vec![NONE; cells],
            atomic_id: NONE,
            seen: 0,
            vals,
            undo: Vec::with_capacity(super::EXPECTED_STEPS * 8),
            undo_vals: Vec::with_capacity(super::EXPECTED_STEPS * 8),
            marks: Vec::with_capacity(super::EXPECTED_STEPS),
            pending: Vec::with_capacity(8),
        }
    }

    /// Where location `x`'s block starts in `vals`: release clock (`n`), read join (`n`),
    /// read epochs (`n`), writer, write epoch.
    #[inline]
    fn block(&self, x: usize) -> usize {
        self.n * self.n + x * (3 * self.n + 2)
    }

    /// Sets `vals[i]`, with an undo record.
    #[inline]
    fn set(&mut self, i: usize, v: u32) {
        let old = self.vals[i];
        if old != v {
            self.vals[i] = v;
            self.undo.push((i as u32, 1));
            self.undo_vals.push(old);
        }
    }

    /// Records the old values of the clock at `off` (`n` entries) before a change.
    #[inline]
    fn log_clock(undo: &mut Vec<(u32, u32)>, undo_vals: &mut Vec<u32>, off: usize, c: &[u32]) {
        undo_vals.extend_from_slice(c);
        undo.push((off as u32, c.len() as u32));
    }

    /// Thread `t`'s clock := its join with the release clock of the location whose block
    /// starts at `b` and, for a write, with the join of its reads too; with an undo record
    /// when that changes anything.
    fn acquire(&mut self, t: usize, b: usize, write: bool) {
        let n = self.n;
        let (threads, block) = self.vals.split_at_mut(b);
        let c = &mut threads[t * n..(t + 1) * n];
        let (rel, reads) = (&block[..n], &block[n..2 * n]);
        let changed = if write {
            exceeds_join(rel, reads, c)
        } else {
            exceeds(rel, c)
        };
        if !changed {
            return;
        }
        Self::log_clock(&mut self.undo, &mut self.undo_vals, t * n, c);
        join(c, rel);
        if write {
            join(c, reads);
        }
    }

    /// The clock at `dst` := its join with the clock at `src` (`dst` after `src`, or
    /// before its start by `n` at least), with an undo record when that changes anything.
    fn join_into(&mut self, dst: usize, src: usize) {
        let n = self.n;
        let (c, s) = if dst > src {
            let (lo, hi) = self.vals.split_at_mut(dst);
            (&mut hi[..n], &lo[src..src + n])
        } else {
            let (lo, hi) = self.vals.split_at_mut(src);
            (&mut lo[dst..dst + n], &hi[..n])
        };
        if exceeds(s, c) {
            Self::log_clock(&mut self.undo, &mut self.undo_vals, dst, c);
            join(c, s);
        }
    }

    /// The release of a write by thread `t` to the location whose block starts at `b`: its
    /// release clock := `t`'s clock, the join of its reads := 0; with undo records. (The
    /// release clock is not compared first: it is seldom `t`'s clock already, which has
    /// advanced since any earlier release.)
    fn release_write(&mut self, t: usize, b: usize) {
        let n = self.n;
        let (threads, block) = self.vals.split_at_mut(b);
        let c = &threads[t * n..(t + 1) * n];
        let (rel, rest) = block.split_at_mut(n);
        let reads = &mut rest[..n];
        Self::log_clock(&mut self.undo, &mut self.undo_vals, b, rel);
        rel.copy_from_slice(c);
        if reads.chunks_exact(LANES).any(|r| r != [0; LANES]) {
            Self::log_clock(&mut self.undo, &mut self.undo_vals, b + n, reads);
            reads.fill(0);
        }
    }

    /// The number of location `key` ([`super::Acc::key`]: a variable element, or
    /// [`ATOMIC_KEY`]).
    #[inline]
    fn id(&mut self, key: u64) -> usize {
        match *self.slot(key) {
            NONE => self.new_id(key),
            id => id as usize,
        }
    }

    /// Where the number of location `key` is kept ([`NONE`] until it is seen).
    #[inline]
    fn slot(&mut self, key: u64) -> &mut u32 {
        if key == ATOMIC_KEY {
            &mut self.atomic_id
        } else {
            &mut self.ids[super::position(&self.starts, key)]
        }
    }

    /// Numbers location `key`, seen for the first time, and gives it a block.
    #[cold]
    fn new_id(&mut self, key: u64) -> usize {
        *self.slot(key) = self.seen as u32;
        self.seen += 1;
        let len = self.vals.len() + 3 * self.n + 2;
        self.vals.resize(len, 0);
        self.vals[len - 2] = NONE;
        self.seen - 1
    }

    /// Undoes the steps from point `d` on.
    fn rewind(&mut self, d: usize) {
        if let Some(&m) = self.marks.get(d) {
            while self.undo.len() > m {
                let (off, len) = self.undo.pop().expect("a record");
                let (off, len) = (off as usize, len as usize);
                if len == 1 {
                    self.vals[off] = self.undo_vals.pop().expect("an undo value");
                    continue;
                }
                let from = self.undo_vals.len() - len;
                self.vals[off..off + len].copy_from_slice(&self.undo_vals[from..]);
                self.undo_vals.truncate(from);
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
                    self.acquire(t, self.block(x), write);
                    // (No epoch is recorded: only data accesses are checked, and a
                    // synchronisation variable has no data access.)
                    self.pending.push((x as u32, write));
                }
                Ev::Spawn(c) => self.join_into(c as usize * n, t * n),
                Ev::EndSync => {
                    for k in 0..self.pending.len() {
                        let (x, write) = self.pending[k];
                        let b = self.block(x as usize);
                        if write {
                            self.release_write(t, b);
                        } else {
                            self.join_into(b + n, t * n);
                        }
                    }
                    self.pending.clear();
                    let e = self.vals[t * n + t] + 1;
                    self.set(t * n + t, e);
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
        let b = self.block(x);
        let ct = &self.vals[t * n..(t + 1) * n];
        let wt = self.vals[b + 3 * n];
        if wt != NONE && wt as usize != t && self.vals[b + 3 * n + 1] > ct[wt as usize] {
            return Some(Race {
                key,
                first: wt,
                second: t as u32,
            });
        }
        if write {
            // (First a test that vectorises; `t`'s own read epochs do not exceed its
            // clock.)
            let reads = &self.vals[b + 2 * n..b + 3 * n];
            if exceeds(reads, ct) {
                let u = (0..n).find(|&u| reads[u] > ct[u]).expect("a later read");
                return Some(Race {
                    key,
                    first: u as u32,
                    second: t as u32,
                });
            }
        }
        None
    }

    fn record(&mut self, x: usize, t: usize, write: bool) {
        let n = self.n;
        let e = self.vals[t * n + t];
        let b = self.block(x);
        if write {
            self.set(b + 3 * n, t as u32);
            self.set(b + 3 * n + 1, e);
        } else {
            self.set(b + 2 * n + t, e);
        }
    }
}

/// Whether some entry of clock `a` exceeds that of `b` (of the same length, a multiple of
/// [`LANES`]; the loops over clocks go by [`LANES`] entries, so that they compile to vector
/// operations).
#[inline]
fn exceeds(a: &[u32], b: &[u32]) -> bool {
    let mut any = [0u32; LANES];
    for (a, b) in a.chunks_exact(LANES).zip(b.chunks_exact(LANES)) {
        for i in 0..LANES {
            any[i] |= (a[i] > b[i]) as u32;
        }
    }
    any != [0; LANES]
}

/// Whether some entry of the join of clocks `a` and `a2` exceeds that of `b` (all of the
/// same length, a multiple of [`LANES`]).
#[inline]
fn exceeds_join(a: &[u32], a2: &[u32], b: &[u32]) -> bool {
    let mut any = [0u32; LANES];
    let pairs = a.chunks_exact(LANES).zip(a2.chunks_exact(LANES));
    for ((a, a2), b) in pairs.zip(b.chunks_exact(LANES)) {
        for i in 0..LANES {
            any[i] |= (a[i].max(a2[i]) > b[i]) as u32;
        }
    }
    any != [0; LANES]
}

/// Clock `c` := its join with `s` (of the same length, a multiple of [`LANES`]).
#[inline]
fn join(c: &mut [u32], s: &[u32]) {
    for (c, s) in c.chunks_exact_mut(LANES).zip(s.chunks_exact(LANES)) {
        for i in 0..LANES {
            c[i] = c[i].max(s[i]);
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
        let mut det = Detector::new(2, (0..=8).collect());
        assert_eq!(locked(0, 0, &mut det, true), None);
        assert_eq!(locked(1, 2, &mut det, true), None);
        assert_eq!(locked(0, 4, &mut det, false), None);
    }

    #[test]
    fn unordered_conflicting_accesses_race_and_rewinding_forgets_them() {
        let mut det = Detector::new(2, (0..=8).collect());
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
        let mut det = Detector::new(2, (0..=8).collect());
        assert_eq!(
            det.step(0, 0, &[Ev::Sync(M, true), Ev::EndSync, Ev::Data(X, true)]),
            None
        );
        assert!(det.step(1, 1, &[Ev::Sync(M, true), Ev::EndSync]).is_none());
        assert!(det.step(2, 1, &[Ev::Data(X, false)]).is_some());
    }

    #[test]
    fn two_synchronisation_reads_are_not_ordered() {
        let mut det = Detector::new(2, (0..=8).collect());
        assert_eq!(
            det.step(0, 0, &[Ev::Data(X, true), Ev::Sync(M, false), Ev::EndSync]),
            None
        );
        assert!(det
            .step(1, 1, &[Ev::Sync(M, false), Ev::EndSync, Ev::Data(X, false)])
            .is_some());
        // A write after the read is ordered after it.
        let mut det = Detector::new(2, (0..=8).collect());
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
        let mut det = Detector::new(2, (0..=8).collect());
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
