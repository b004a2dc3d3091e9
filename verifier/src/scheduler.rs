//! The deterministic schedulers of the iterative algorithm (seed 002, "Iterative model
//! checking"): each IVR is the ART of one deterministic, fair scheduler, which chooses the
//! thread to run at a node from what it remembers of the path there (its *phase*). The
//! engines ask a [`Scheduler`]; two policies implement it:
//!
//! - [`RoundRobin`] (the explicit engine): threads take turns in the order of their ids, a
//!   turn lasting `quantum` loop rounds (back jumps) or ending at a thread creation;
//! - [`Turns`] (the symbolic engine): the thread that moved last keeps running for `quantum`
//!   loop rounds, then the thread that has waited longest goes next (round robin that skips
//!   blocked threads, as the fair scheduler of the paper's Lemma 2 does); with `pair_turns`
//!   K ≥ 2, two threads that have just alternated keep alternating for up to 2K turns
//!   (hand-offs between a producer and a consumer stay within one schedule).
//!
//! A node may be covered by another only when the two agree on [`Scheduler::key`], the part
//! of the phase that the policy's later choices depend on, so that a covering keeps the turns.

use crate::ir::{ThreadId, Transition};
use std::hash::Hash;

/// A deterministic scheduler: its phase at the root, the phase after a step, and the order in
/// which it tries threads in a phase.
pub trait Scheduler {
    /// What the scheduler remembers of the path to a node.
    type Phase: Clone + Eq + Hash + std::fmt::Debug;
    /// What a covered node and the node covering it must agree on.
    type Key: Eq;
    /// The phase at the root.
    fn start(&self) -> Self::Phase;
    /// The phase after thread `t` took step `tr` in `phase`.
    fn after(&self, phase: &Self::Phase, t: ThreadId, tr: &Transition) -> Self::Phase;
    /// The threads of `candidates` in the order the scheduler tries them in `phase`.
    fn order(&self, phase: &Self::Phase, candidates: &[ThreadId]) -> Vec<ThreadId>;
    /// The part of `phase` that a covering must keep.
    fn key(&self, phase: &Self::Phase) -> Self::Key;
}

/// Round robin in the order of the threads' ids, in turns of `quantum` loop rounds.
#[derive(Clone, Copy, Debug)]
pub struct RoundRobin {
    /// Loop rounds per turn (at least 1).
    pub quantum: u32,
    /// The program's number of threads.
    pub threads: usize,
}

impl Scheduler for RoundRobin {
    /// The thread that ran last, and how many loop rounds it has run in its turn.
    type Phase = (Option<ThreadId>, u32);
    type Key = Self::Phase;

    fn start(&self) -> Self::Phase {
        (None, 0)
    }

    /// A step that closes a loop round ([`Transition::closes_round`]) counts one round; a thread creation ends the turn (the
    /// new thread, next in the round robin after its creator, runs before the creator goes
    /// on).
    fn after(&self, phase: &Self::Phase, t: ThreadId, tr: &Transition) -> Self::Phase {
        if tr.spawned().is_some() {
            return (Some(t), self.quantum);
        }
        let back = tr.closes_round() as u32;
        let rounds = if phase.0 == Some(t) {
            phase.1 + back
        } else {
            back
        };
        (Some(t), rounds.min(self.quantum))
    }

    fn order(&self, phase: &Self::Phase, candidates: &[ThreadId]) -> Vec<ThreadId> {
        let n = self.threads;
        let first = match *phase {
            (Some(c), rounds) if rounds < self.quantum => c.0 as usize,
            (Some(c), _) => c.0 as usize + 1,
            (None, _) => 0,
        };
        (0..n)
            .map(|k| ThreadId(((first + k) % n) as u32))
            .filter(|t| candidates.contains(t))
            .collect()
    }

    fn key(&self, phase: &Self::Phase) -> Self::Key {
        *phase
    }
}

/// Turns of `quantum` loop rounds, the thread that has waited longest next, and pair turns.
#[derive(Clone, Copy, Debug)]
pub struct Turns {
    /// Loop rounds per turn (at least 1).
    pub quantum: u32,
    /// Turns two alternating threads keep alternating for, each (below 2: none).
    pub pair_turns: u32,
    /// The program's number of threads.
    pub threads: usize,
}

/// The phase of [`Turns`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TurnsPhase {
    /// The node's depth.
    depth: u32,
    /// The depth of each thread's last move on the path (`None`: it has not moved).
    last: Vec<Option<u32>>,
    /// The thread that moved into the node, the loop rounds it has run in its turn (up to
    /// the quantum), and whether that step closed a loop round.
    run: Option<(ThreadId, u32, bool)>,
    /// The threads of the latest turns, latest first, as long as they alternate between two
    /// threads (at most 2K).
    turns: Vec<ThreadId>,
}

impl Turns {
    /// The thread whose turn came before the current one's, while the two have alternated
    /// for fewer turns than allowed, and how many turns in a row they have had.
    fn pairing(&self, phase: &TurnsPhase) -> Option<(ThreadId, u32)> {
        let n = phase.turns.len() as u32;
        (self.pair_turns >= 2 && n >= 2 && n < 2 * self.pair_turns).then(|| (phase.turns[1], n))
    }
}

impl Scheduler for Turns {
    type Phase = TurnsPhase;
    /// The running thread with its rounds and last step's loop closing (with a quantum
    /// above 1), and the pairing.
    type Key = (Option<(ThreadId, u32, bool)>, Option<(ThreadId, u32)>);

    fn start(&self) -> TurnsPhase {
        TurnsPhase {
            depth: 0,
            last: vec![None; self.threads],
            run: None,
            turns: Vec::new(),
        }
    }

    fn after(&self, phase: &TurnsPhase, t: ThreadId, tr: &Transition) -> TurnsPhase {
        let depth = phase.depth + 1;
        let mut last = phase.last.clone();
        last[t.0 as usize] = Some(depth);
        let back = tr.closes_round();
        let rounds = match phase.run {
            Some((u, r, _)) if u == t => r + back as u32,
            _ => back as u32,
        };
        let turns = if phase.turns.first() == Some(&t) {
            phase.turns.clone()
        } else if phase.turns.len() >= 2 && phase.turns[1] != t {
            vec![t, phase.turns[0]]
        } else {
            let mut turns = Vec::with_capacity(phase.turns.len() + 1);
            turns.push(t);
            turns.extend(&phase.turns);
            turns.truncate(2 * self.pair_turns.max(1) as usize);
            turns
        };
        TurnsPhase {
            depth,
            last,
            run: Some((t, rounds.min(self.quantum), back)),
            turns,
        }
    }

    /// The thread that moved last first, until it has closed `quantum` loop rounds in its
    /// turn; before it, the thread it alternates with (pair turns); then the others, the
    /// one that has waited longest first.
    fn order(&self, phase: &TurnsPhase, candidates: &[ThreadId]) -> Vec<ThreadId> {
        let mut order: Vec<ThreadId> = candidates.to_vec();
        order.sort_by_key(|t| (phase.last[t.0 as usize].map_or(-1, |d| d as i64), t.0));
        let mut first = |u: ThreadId| {
            if let Some(i) = order.iter().position(|x| *x == u) {
                order.remove(i);
                order.insert(0, u);
            }
        };
        if let Some((partner, _)) = self.pairing(phase) {
            first(partner);
        }
        if let Some((t, rounds, back)) = phase.run {
            if !(back && rounds >= self.quantum) {
                first(t);
            }
        }
        order
    }

    fn key(&self, phase: &TurnsPhase) -> Self::Key {
        let run = phase.run.filter(|_| self.quantum > 1);
        (run, self.pairing(phase))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Expr, LocId, TransId, TransKind};

    fn step(back_edge: bool) -> Transition {
        Transition {
            id: TransId(0),
            src: LocId(0),
            dst: LocId(0),
            guard: Expr::int(1),
            ops: Vec::new(),
            kind: TransKind::Stmt,
            events: Vec::new(),
            may_block: false,
            yields: false,
            back_edge,
            span: None,
            at: None,
            environment: false,
            memory_access: false,
            refusal: None,
            starts: None,
        }
    }

    /// The order of [`Turns`] computed by walking the whole path `(thread, closes a loop
    /// round)`, root first: what the phase must summarise.
    fn order_on_path(s: &Turns, path: &[(ThreadId, bool)]) -> Vec<ThreadId> {
        let mut last: Vec<Option<usize>> = vec![None; s.threads];
        for (d, (t, _)) in path.iter().enumerate() {
            last[t.0 as usize] = Some(d + 1);
        }
        let mut order: Vec<ThreadId> = (0..s.threads as u32).map(ThreadId).collect();
        order.sort_by_key(|t| (last[t.0 as usize].map_or(-1, |d| d as i64), t.0));
        if let Some((partner, _)) = pairing_on_path(s, path) {
            order.retain(|u| *u != partner);
            order.insert(0, partner);
        }
        if let Some(&(t, back)) = path.last() {
            if !(back && rounds_on_path(s, path) >= s.quantum) {
                order.retain(|u| *u != t);
                order.insert(0, t);
            }
        }
        order
    }

    /// Loop rounds the last thread has closed in its current turn, up to the quantum.
    fn rounds_on_path(s: &Turns, path: &[(ThreadId, bool)]) -> u32 {
        let Some(&(t, _)) = path.last() else { return 0 };
        let run = path.iter().rev().take_while(|(u, _)| *u == t);
        (run.filter(|(_, b)| *b).count() as u32).min(s.quantum)
    }

    /// The latest turns while they alternate between two threads, as a walk up the path.
    fn pairing_on_path(s: &Turns, path: &[(ThreadId, bool)]) -> Option<(ThreadId, u32)> {
        let k = s.pair_turns;
        if k < 2 {
            return None;
        }
        let mut turns: Vec<ThreadId> = Vec::new();
        for &(t, _) in path.iter().rev() {
            if turns.last() != Some(&t) {
                let i = turns.len();
                if i >= 2 && turns[i - 2] != t || i as u32 >= 2 * k {
                    break;
                }
                turns.push(t);
            }
        }
        let n = turns.len() as u32;
        (n >= 2 && n < 2 * k).then(|| (turns[1], n))
    }

    /// The phase, kept step by step, orders and keys the threads as walking the whole path
    /// does, on random paths of three threads with every quantum and pair-turn setting.
    #[test]
    fn turns_summarise_the_path() {
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for quantum in 1..=3 {
            for pair_turns in [0, 2, 3] {
                let s = Turns {
                    quantum,
                    pair_turns,
                    threads: 3,
                };
                let all: Vec<ThreadId> = (0..3).map(ThreadId).collect();
                for _ in 0..200 {
                    let mut path = Vec::new();
                    let mut phase = s.start();
                    for _ in 0..40 {
                        // Mostly alternation between threads 0 and 1, sometimes thread 2.
                        let t = ThreadId([0, 1, 0, 1, 2][next(5) as usize]);
                        let back = next(3) == 0;
                        phase = s.after(&phase, t, &step(back));
                        path.push((t, back));
                        assert_eq!(s.order(&phase, &all), order_on_path(&s, &path), "{path:?}");
                        let run = (quantum > 1).then(|| (t, rounds_on_path(&s, &path), back));
                        assert_eq!(s.key(&phase), (run, pairing_on_path(&s, &path)), "{path:?}");
                    }
                }
            }
        }
    }

    /// Round robin by id: the running thread keeps its turn for `quantum` loop rounds, a
    /// thread creation ends it, and the next thread by id goes next.
    #[test]
    fn round_robin_turns() {
        let s = RoundRobin {
            quantum: 2,
            threads: 3,
        };
        let all: Vec<ThreadId> = (0..3).map(ThreadId).collect();
        let ids = |v: Vec<ThreadId>| v.into_iter().map(|t| t.0).collect::<Vec<_>>();
        let p = s.start();
        assert_eq!(ids(s.order(&p, &all)), [0, 1, 2]);
        let p = s.after(&p, ThreadId(1), &step(true));
        assert_eq!(ids(s.order(&p, &all)), [1, 2, 0]);
        let p = s.after(&p, ThreadId(1), &step(true));
        assert_eq!(ids(s.order(&p, &all)), [2, 0, 1]);
        assert_eq!(ids(s.order(&p, &all[..2])), [0, 1]);
        let mut spawn = step(false);
        spawn.ops.push(crate::ir::Op::Spawn {
            thread: ThreadId(2),
            args: Vec::new(),
        });
        let p = s.after(&s.start(), ThreadId(0), &spawn);
        assert_eq!(ids(s.order(&p, &all)), [1, 2, 0]);
    }

    /// The rounds of an environment model's loops (one per byte `fgets` copies, as many as
    /// the system's answer has) end no turn of either scheduler: the built program makes the
    /// call as one step, and a turn that ended after so many of them would choose
    /// differently in runs the schedule cannot tell apart. A loop of the program, or one of
    /// a model with events, still counts.
    #[test]
    fn loops_inside_an_environment_model_are_no_rounds() {
        let mut model = step(true);
        model.environment = true;
        let rr = RoundRobin {
            quantum: 1,
            threads: 2,
        };
        let all = [ThreadId(0), ThreadId(1)];
        let p = rr.after(&rr.start(), ThreadId(0), &model);
        assert_eq!(rr.order(&p, &all), all);
        assert_eq!(
            rr.order(&rr.after(&p, ThreadId(0), &step(true)), &all)[0],
            ThreadId(1)
        );
        let turns = Turns {
            quantum: 1,
            pair_turns: 0,
            threads: 2,
        };
        let p = turns.after(&turns.start(), ThreadId(0), &model);
        assert_eq!(turns.order(&p, &all)[0], ThreadId(0));
        let p = turns.after(&p, ThreadId(0), &step(true));
        assert_eq!(turns.order(&p, &all)[0], ThreadId(1));
        let mut shared = model.clone();
        shared.events.push(crate::ir::Event {
            var: crate::ir::VarId(0),
            at: None,
            access: crate::ir::Access::Read,
        });
        let p = rr.after(&rr.start(), ThreadId(0), &shared);
        assert_eq!(rr.order(&p, &all)[0], ThreadId(1));
    }
}
