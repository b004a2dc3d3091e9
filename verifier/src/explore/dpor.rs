//! Dynamic partial-order reduction (seed 004, Inspect, sections 3–4): the search explores,
//! at each point, only the threads needed to cover every ordering of dependent events, found
//! while executions run. Two steps are *dependent* when they access the same variable
//! element and one writes (locks, condition variables, barriers, thread exit and join are
//! variables of the IR, so their operations are accesses too; a guide adds its ordering
//! tokens; atomic-region markers write one lock for all regions, which every step of a program
//! with regions reads, since a region shuts every other thread out). The happens-before order of an execution is kept as vector clocks per step.
//!
//! For each new step `e` the *races* are found: earlier steps `j` of other threads,
//! dependent with `e`, not ordered before `e` through other steps. For a race the search must
//! also explore, at the point before `j`, a thread that starts an execution in which `e`'s
//! event comes first: backtrack sets as *source sets* (Abdulla et al., POPL 2014, the
//! refinement of Flanagan–Godefroid's persistent sets Inspect uses): if none of the
//! *initials* of `notdep(j).e` (the steps after `j` not ordered after it, then `e`) is in the
//! backtrack set there, one is added. A race whose reversal is impossible (the initials are
//! not enabled before `j`: `j` is the unlock a lock waited for) is no race. Sleep sets (in the
//! engine) keep the search from exploring an equivalent execution twice.
//!
//! With other strategies restricting the threads a point may schedule (a preemption bound,
//! the fair scheduler), a thread that must be added where it is not allowed is added
//! conservatively: every allowed thread at that point, and the thread itself at the latest
//! earlier point that allows it (the "conservative backtrack point" of bounded partial-order
//! reduction, Coons et al., OOPSLA 2013).

use super::{Acc, Point, Reorder, Strategy, EXPECTED_STEPS};
use crate::ir::ThreadId;
use rustc_hash::FxHashMap;

/// No step (in [`Dpor::last`]).
const NONE: u32 = u32::MAX;

/// Source-set DPOR.
pub struct Dpor {
    n: usize,
    /// Per step (the step taken at point i): its vector clock, `n` entries from `i * n`.
    clocks: Vec<u32>,
    /// Per step: its thread.
    threads: Vec<u32>,
    /// Per point: per thread, the step whose clock is the thread's (its last step, or the
    /// step that started it), or [`NONE`]; `n` entries from `point * n`.
    last: Vec<u32>,
    /// Per location, the steps that wrote it and those that only read it (in order), so that
    /// race detection looks only at dependent steps ([`Locations`]).
    locations: Locations,
    /// The locations steps are listed under (and whether as a writer); step `i`'s from
    /// `listed_at[i]`.
    listed: Vec<(u32, bool)>,
    listed_at: Vec<u32>,
    /// Scratch buffers of [`Dpor::analyse`].
    scratch: Scratch,
}

/// The steps of the current path by the locations they access. Memory elements are numbered
/// by their place in memory, other keys (the end of the program, the atomic regions' lock, a
/// guide's ordering tokens) as they come.
struct Locations {
    /// Where each variable's elements start among all the elements (and the end).
    starts: Vec<usize>,
    /// Per element, its number, or [`NONE`].
    ids: Vec<u32>,
    /// The numbers of the other keys; the one every step reads ([`super::step::ALIVE_KEY`])
    /// apart, without hashing.
    tokens: FxHashMap<u64, u32>,
    alive: u32,
    /// Per number: the writers and the readers.
    writers: Vec<Vec<u32>>,
    readers: Vec<Vec<u32>>,
}

impl Locations {
    /// The number of location `key`, when it has one.
    fn get(&self, key: u64) -> Option<usize> {
        let id = if key == super::step::ALIVE_KEY {
            self.alive
        } else if key >> 63 == 1 {
            *self.tokens.get(&key)?
        } else {
            self.ids[super::position(&self.starts, key)]
        };
        (id != NONE).then_some(id as usize)
    }

    /// The number of location `key`, given one if it has none.
    fn id(&mut self, key: u64) -> usize {
        let next = self.writers.len() as u32;
        let slot = if key == super::step::ALIVE_KEY {
            &mut self.alive
        } else if key >> 63 == 1 {
            self.tokens.entry(key).or_insert(NONE)
        } else {
            &mut self.ids[super::position(&self.starts, key)]
        };
        if *slot == NONE {
            *slot = next;
            self.writers.push(Vec::new());
            self.readers.push(Vec::new());
        }
        *slot as usize
    }
}

#[derive(Default)]
struct Scratch {
    clock: Vec<u32>,
    /// The locations the step accesses: key, number (or [`NONE`]), written.
    keys: Vec<(u64, u32, bool)>,
    cands: Vec<u32>,
    after_j: Vec<usize>,
    scan: Vec<u32>,
    /// [`Dpor::race`]'s: `notdep(j)`, the initials and each thread's first step in it.
    u: Vec<usize>,
    initials: Vec<ThreadId>,
    firsts: Vec<(ThreadId, usize)>,
}

impl Dpor {
    /// DPOR for a program with `n` threads whose variables' elements start at `starts`
    /// among all the elements (the last entry: their number).
    pub fn new(n: usize, starts: Vec<usize>) -> Self {
        let cells = starts.last().copied().unwrap_or(0);
        Dpor {
            n,
            clocks: Vec::with_capacity(EXPECTED_STEPS * n),
            threads: Vec::with_capacity(EXPECTED_STEPS),
            last: Vec::with_capacity(EXPECTED_STEPS * n),
            locations: Locations {
                starts,
                ids: vec![NONE; cells],
                tokens: FxHashMap::default(),
                alive: NONE,
                writers: Vec::new(),
                readers: Vec::new(),
            },
            listed: Vec::with_capacity(EXPECTED_STEPS * 4),
            listed_at: Vec::with_capacity(EXPECTED_STEPS),
            scratch: Scratch::default(),
        }
    }

    /// The vector clock of step `k`.
    fn clock(&self, k: usize) -> &[u32] {
        &self.clocks[k * self.n..(k + 1) * self.n]
    }

    /// Whether step `k` happens before a step whose clock is `c`.
    fn before(&self, k: usize, c: &[u32]) -> bool {
        let t = self.threads[k] as usize;
        c[t] >= self.clocks[k * self.n + t]
    }
}

impl Strategy for Dpor {
    fn name(&self) -> &'static str {
        "dpor"
    }

    fn reach(&mut self, points: &mut [Point], d: usize, order: &dyn Reorder) {
        let n = self.n;
        self.forget(d.saturating_sub(1));
        self.last.truncate(d * n);
        if d == 0 {
            self.last.resize(n, NONE);
            return;
        }
        let e = d - 1;
        // The analysis looks at the steps before e only: e's step is lent to it.
        let t = points[e].taken.take().expect("a step into the point");
        let p = t.thread;
        self.analyse(points, e, p, &t.acc, order);
        self.clocks.extend_from_slice(&self.scratch.clock);
        self.threads.push(p.0);
        self.listed_at.push(self.listed.len() as u32);
        // (The analysis looked the locations up: only new ones are numbered here.)
        for &(key, id, write) in &self.scratch.keys {
            let id = match id {
                NONE => self.locations.id(key),
                id => id as usize,
            };
            self.listed.push((id as u32, write));
            let list = if write {
                &mut self.locations.writers
            } else {
                &mut self.locations.readers
            };
            list[id].push(e as u32);
        }
        self.last.extend_from_within(e * n..(e + 1) * n);
        self.last[e * n + n + p.0 as usize] = e as u32;
        for c in &t.spawned {
            self.last[e * n + n + c.0 as usize] = e as u32;
        }
        points[e].taken = Some(t);
    }

    fn pending(
        &mut self,
        points: &mut [Point],
        d: usize,
        thread: ThreadId,
        acc: &[Acc],
        order: &dyn Reorder,
    ) {
        self.analyse(points, d, thread, acc, order);
    }

    fn restrict(&self, _: &[Point], _: usize, _: &mut Vec<ThreadId>) {}

    fn first(&self, points: &[Point], d: usize, awake: &[ThreadId]) -> Option<ThreadId> {
        // Start with the thread that ran last (no preemption), else the first awake thread
        // in the allowed order with the last thread's place and the first's swapped.
        let allowed = &points[d].allowed;
        let last = d
            .checked_sub(1)
            .and_then(|i| points[i].taken.as_ref())
            .and_then(|l| allowed.iter().position(|t| *t == l.thread));
        let at = |i: usize| match last {
            Some(k) if i == 0 => allowed[k],
            Some(k) if i == k => allowed[0],
            _ => allowed[i],
        };
        (0..allowed.len())
            .map(at)
            .find(|t| awake.contains(t))
            .or(awake.first().copied())
    }

    fn leave(&mut self, d: usize) {
        self.forget(d.saturating_sub(1));
        self.last.truncate(d * self.n);
    }
}

impl Dpor {
    /// Drops the steps from `e` on.
    fn forget(&mut self, e: usize) {
        while self.listed_at.len() > e {
            let k = self.listed_at.len() - 1;
            let from = self.listed_at.pop().expect("a step") as usize;
            for &(id, w) in &self.listed[from..] {
                let list = if w {
                    &mut self.locations.writers
                } else {
                    &mut self.locations.readers
                };
                let v = &mut list[id as usize];
                if v.last() == Some(&(k as u32)) {
                    v.pop();
                }
            }
            self.listed.truncate(from);
        }
        self.clocks.truncate(e * self.n);
        self.threads.truncate(e);
    }

    /// The races of a step of thread `p` with accesses `acc` taken at point `e` (executed, or
    /// pending at the end of an execution): adds backtrack threads; leaves its clock in
    /// `scratch.clock` and the locations it accesses in `scratch.keys` (for `reach`, which
    /// lists the step under them).
    fn analyse(
        &mut self,
        points: &mut [Point],
        e: usize,
        p: ThreadId,
        acc: &[Acc],
        order: &dyn Reorder,
    ) {
        let n = self.n;
        let pi = p.0 as usize;
        let prev = self.last[e * n + pi];
        let mut sc = std::mem::take(&mut self.scratch);
        let mut clock = std::mem::take(&mut sc.clock);
        clock.clear();
        match prev {
            NONE => clock.resize(n, 0),
            k => clock.extend_from_slice(self.clock(k as usize)),
        }
        // The step's index in its thread (a thread's clock may come from the step that
        // started it).
        let me = match prev {
            NONE => 1,
            k if self.threads[k as usize] == p.0 => self.clocks[k as usize * n + pi] + 1,
            _ => 1,
        };
        clock[pi] = me;
        // Races, latest first; `scan` grows with each race's clock, so that only races not
        // ordered through another race remain.
        sc.scan.clear();
        sc.scan.extend_from_slice(&clock);
        // The earlier steps dependent with this one, latest first, without those that happen
        // before this thread's previous step (`scan` as it starts): such a step is no race,
        // and its clock is in `clock` already. A location's writers are ordered by
        // happens-before (each depends on the one before), and so are its readers before a
        // writer: the lists are read backwards up to the first writer that happens before.
        sc.cands.clear();
        sc.keys.clear();
        // (Sorted: a key's accesses are together.)
        for group in acc.chunk_by(|a, b| a.key == b.key) {
            let key = group[0].key;
            let write = group.iter().any(|a| a.write);
            let id = self.locations.get(key);
            sc.keys.push((key, id.map_or(NONE, |id| id as u32), write));
            let Some(id) = id else {
                continue;
            };
            let mut seen = None;
            for &j in self.locations.writers[id].iter().rev() {
                if self.before(j as usize, &sc.scan) {
                    seen = Some(j);
                    break;
                }
                sc.cands.push(j);
            }
            if write {
                for &j in self.locations.readers[id].iter().rev() {
                    if seen.is_some_and(|w| j < w) {
                        break;
                    }
                    if !self.before(j as usize, &sc.scan) {
                        sc.cands.push(j);
                    }
                }
            }
        }
        // (The lists hold the steps before `e` only: `reach` forgets the later ones first.)
        debug_assert!(sc.cands.iter().all(|&j| (j as usize) < e));
        sc.cands.sort_unstable_by(|a, b| b.cmp(a));
        sc.cands.dedup();
        // Every candidate is dependent with this step: it wrote a location this step
        // accesses, or read one this step writes.
        for ci in 0..sc.cands.len() {
            let j = sc.cands[ci] as usize;
            let jt = self.threads[j] as usize;
            // (This thread's earlier steps happen before `scan`: none is a candidate.)
            debug_assert_ne!(jt, pi);
            for (x, y) in clock.iter_mut().zip(self.clock(j)) {
                *x = (*x).max(*y);
            }
            if self.before(j, &sc.scan) {
                continue;
            }
            // A step that waited for j (the lock for j's unlock) cannot be reversed with it:
            // no race, and the steps before j stay candidates.
            let jx = self.clocks[j * n + jt];
            sc.after_j.clear();
            sc.after_j.push(j);
            sc.after_j
                .extend((j + 1..e).filter(|&k| self.clocks[k * n + jt] >= jx));
            if !order.can_precede(&sc.after_j, e, p) {
                continue;
            }
            if self.race(points, j, e, p, &clock, &mut sc) {
                for (x, y) in sc.scan.iter_mut().zip(self.clock(j)) {
                    *x = (*x).max(*y);
                }
            }
        }
        clock[pi] = me;
        sc.clock = clock;
        self.scratch = sc;
    }

    /// Handles the race between steps `j` and `e` (`e`'s clock so far is `ce`): adds a
    /// thread to the backtrack set before `j` when needed. Returns false when the race cannot
    /// be reversed (no initial is enabled before `j`).
    fn race(
        &self,
        points: &mut [Point],
        j: usize,
        e: usize,
        pe: ThreadId,
        ce: &[u32],
        sc: &mut Scratch,
    ) -> bool {
        let jt = self.threads[j] as usize;
        let jx = self.clocks[j * self.n + jt];
        // notdep(j): the steps after j that j does not happen before, then e.
        let u = &mut sc.u;
        u.clear();
        u.extend((j + 1..e).filter(|&k| self.clocks[k * self.n + jt] < jx));
        // A step of u is an initial when no earlier step of u happens before it; only each
        // thread's first step in u can be, and it is when no other thread's first step
        // before it happens before it (a later step of that thread would, through it).
        let initials = &mut sc.initials;
        let firsts = &mut sc.firsts;
        initials.clear();
        firsts.clear();
        for &k in u.iter() {
            let t = ThreadId(self.threads[k]);
            if firsts.iter().any(|(s, _)| *s == t) {
                continue;
            }
            let ck = self.clock(k);
            if firsts.iter().all(|&(_, k2)| !self.before(k2, ck)) {
                initials.push(t);
            }
            firsts.push((t, k));
        }
        if !firsts.iter().any(|(s, _)| *s == pe)
            && firsts.iter().all(|&(_, k2)| !self.before(k2, ce))
        {
            initials.push(pe);
        }
        initials.retain(|t| points[j].enabled.contains(t));
        if initials.is_empty() {
            return false;
        }
        if initials.iter().any(|t| points[j].backtrack.contains(t)) {
            return true;
        }
        let q = if initials.contains(&pe) {
            pe
        } else {
            initials[0]
        };
        if points[j].allowed.contains(&q) {
            points[j].backtrack.push(q);
        } else {
            let extra: Vec<ThreadId> = points[j]
                .allowed
                .iter()
                .copied()
                .filter(|t| !points[j].backtrack.contains(t))
                .collect();
            points[j].backtrack.extend(extra);
            if let Some(i) = (0..j).rev().find(|&i| points[i].allowed.contains(&q)) {
                if !points[i].backtrack.contains(&q) {
                    points[i].backtrack.push(q);
                }
            }
        }
        true
    }
}
