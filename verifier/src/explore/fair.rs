//! The fair demonic scheduler of fair stateless model checking (seed 000, Algorithm 1).
//!
//! Each point keeps a priority relation `P` over threads and, per thread `t`, the threads
//! scheduled (`S(t)`), continuously enabled (`E(t)`) and disabled by `t` (`D(t)`) since
//! `t`'s last yield. A thread `t` is schedulable unless some `(t, u) ∈ P` has `u` enabled.
//! When `t` yields, it loses priority to every thread in `(E(t) ∪ D(t)) \ S(t)`: the threads
//! it starved in its window. Scheduling `u` removes the edges into `u`. Every infinite
//! execution the scheduler generates is fair (Theorem 1), so unfair cycles (a spin loop that
//! never lets the thread it waits for run) are pruned and nonterminating programs need no
//! depth bound; an execution longer than the depth bound is a possible livelock, reported
//! with the fair cycle it repeats ([`fair_cycle`]).
//!
//! Yields (seed 000, section 4): `sched_yield`, a failed `trylock`, and the back edge of a
//! loop iteration that changed nothing, neither shared state nor the thread's own variables: a
//! spin loop, or a retry loop that released what it took (what the iteration wrote is
//! compared, element by element, with its value at the iteration's start). A loop that counts
//! does not yield: seed 000's coverage guarantee (Theorem 5) is for states reachable without
//! yields, so inferring yields where the program makes progress would prune real states.

use super::{Point, Reorder, Strategy};
use crate::interp::State;
use crate::ir::ThreadId;
use std::collections::HashMap;

type Bits = u128;

/// Most threads the fair scheduler handles.
pub const MAX_THREADS: usize = 128;

#[derive(Clone, Debug)]
struct Window {
    /// `P[t]`: the threads `u` with `(t, u) ∈ P`.
    p: Vec<Bits>,
    e: Vec<Bits>,
    d: Vec<Bits>,
    s: Vec<Bits>,
    /// Per thread, the shared elements it changed since its last loop back edge: location,
    /// value before the first change, value now.
    changed: Vec<Vec<(u64, i128, i128)>>,
}

/// The fair scheduler.
pub struct Fair {
    n: usize,
    windows: Vec<Window>,
}

impl Fair {
    /// The scheduler for a program with `n` threads (at most [`MAX_THREADS`]).
    pub fn new(n: usize) -> Self {
        assert!(
            n <= MAX_THREADS,
            "the fair scheduler handles at most {MAX_THREADS} threads"
        );
        Fair {
            n,
            windows: Vec::new(),
        }
    }
}

fn bits(ts: &[ThreadId]) -> Bits {
    ts.iter().fold(0, |b, t| b | (1 << t.0))
}

impl Strategy for Fair {
    fn name(&self) -> &'static str {
        "fair"
    }

    fn reach(&mut self, points: &mut [Point], d: usize, _: &dyn Reorder) {
        self.windows.truncate(d);
        let all: Bits = if self.n == 128 { !0 } else { (1 << self.n) - 1 };
        if d == 0 {
            self.windows.push(Window {
                p: vec![0; self.n],
                e: vec![0; self.n],
                d: vec![all; self.n],
                s: vec![all; self.n],
                changed: vec![Vec::new(); self.n],
            });
            return;
        }
        let taken = points[d - 1].taken.as_ref().expect("a step into the point");
        let t = taken.thread.0 as usize;
        let tb: Bits = 1 << t;
        let curr_es = bits(&points[d - 1].enabled);
        let next_es = bits(&points[d].enabled);
        let mut w = self.windows[d - 1].clone();
        // Line 13: t was scheduled, so the edges into t go.
        for x in w.p.iter_mut() {
            *x &= !tb;
        }
        for u in 0..self.n {
            w.e[u] &= next_es;
            if u == t {
                w.d[u] |= curr_es & !next_es;
            }
            w.s[u] |= tb;
        }
        // Did the step yield? A back edge yields when the loop iteration it closes changed
        // nothing (a spin loop, or a retry that released what it took).
        let mut yielded = false;
        let changed = &mut w.changed[t];
        for m in &taken.marks {
            if m.back_edge {
                if changed.iter().all(|c| c.1 == c.2) {
                    yielded = true;
                }
                changed.clear();
            }
            if m.yields {
                yielded = true;
            }
            for &(k, old, new) in &m.changes {
                match changed.iter_mut().find(|c| c.0 == k) {
                    Some(c) => c.2 = new,
                    None => changed.push((k, old, new)),
                }
            }
        }
        if yielded {
            let h = (w.e[t] | w.d[t]) & !w.s[t];
            w.p[t] |= h;
            w.e[t] = next_es;
            w.d[t] = 0;
            w.s[t] = 0;
        }
        self.windows.push(w);
    }

    fn restrict(&self, points: &[Point], d: usize, allowed: &mut Vec<ThreadId>) {
        let es = bits(&points[d].enabled);
        let w = &self.windows[d];
        allowed.retain(|t| w.p[t.0 as usize] & es == 0);
    }

    fn leave(&mut self, d: usize) {
        self.windows.truncate(d);
    }

    fn allows_sleep_sets(&self) -> bool {
        // The scheduler's priorities depend on the order of the steps, not only on the
        // state: a sleeping thread's equivalent execution may have been pruned as unfair.
        false
    }
}

/// In an execution (the states at points `0..=d` and the steps taken between them), a cycle
/// `[a, b)` that returns to the same program state and is fair: every thread enabled at one
/// of its points runs in it. The latest such cycle, if any.
pub fn fair_cycle(states: &[State], points: &[Point]) -> Option<(usize, usize)> {
    let mut seen: HashMap<&State, Vec<usize>> = HashMap::new();
    for (i, s) in states.iter().enumerate() {
        seen.entry(s).or_default().push(i);
    }
    for b in (1..states.len()).rev() {
        let Some(earlier) = seen.get(&states[b]) else {
            continue;
        };
        for &a in earlier.iter().rev().filter(|&&a| a < b) {
            let mut enabled: Bits = 0;
            let mut ran: Bits = 0;
            for p in &points[a..b] {
                enabled |= bits(&p.enabled);
                if let Some(t) = &p.taken {
                    ran |= 1 << t.thread.0;
                }
            }
            if enabled & !ran == 0 {
                return Some((a, b));
            }
        }
    }
    None
}
