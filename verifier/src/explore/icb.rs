//! Iterative context bounding (seed 003, sections 2–3): a *preemption* is a switch away from
//! a thread that could have continued; the search explores every execution with at most `c`
//! preemptions, for `c = 0, 1, …` up to the bound, so that all executions with `c`
//! preemptions come before any with `c + 1`. (The rounds restart the search; executions with
//! fewer preemptions than the round's bound are not counted again.)
//!
//! With the fair scheduler, a switch away from a thread the scheduler deprioritised is not a
//! preemption (seed 000, section 4: counting it would make the bounded search unsound).

use super::{Point, Reorder, Strategy};
use crate::ir::ThreadId;

/// At most `bound` preemptions.
pub struct Bounded {
    bound: u32,
    /// Preemptions up to each point.
    pre: Vec<u32>,
}

impl Bounded {
    /// The strategy for one round.
    pub fn new(bound: u32) -> Self {
        Bounded {
            bound,
            pre: Vec::new(),
        }
    }
}

/// The thread that ran last before point `d`.
fn last(points: &[Point], d: usize) -> Option<ThreadId> {
    d.checked_sub(1)
        .and_then(|i| points[i].taken.as_ref())
        .map(|t| t.thread)
}

impl Strategy for Bounded {
    fn name(&self) -> &'static str {
        "context bounding"
    }

    fn reach(&mut self, points: &mut [Point], d: usize, _: &dyn Reorder) {
        self.pre.truncate(d);
        let n = match d {
            0 => 0,
            _ => {
                let t = last(points, d).expect("a step into the point");
                // A switch at point d - 1 away from the thread that ran before it, which the
                // other strategies still allowed there, is a preemption.
                let cost = match last(points, d - 1) {
                    Some(l) if l != t && points[d - 1].allowed.contains(&l) => 1,
                    _ => 0,
                };
                self.pre[d - 1] + cost
            }
        };
        self.pre.push(n);
    }

    fn restrict(&self, points: &[Point], d: usize, allowed: &mut Vec<ThreadId>) {
        if let Some(l) = last(points, d) {
            if self.pre[d] >= self.bound && allowed.contains(&l) {
                allowed.retain(|t| *t == l);
            }
        }
    }

    fn leave(&mut self, d: usize) {
        self.pre.truncate(d);
    }

    fn preemptions(&self, d: usize) -> Option<u32> {
        self.pre.get(d).copied()
    }

    fn allows_sleep_sets(&self) -> bool {
        // A sleeping thread's executions may have been explored only with more preemptions
        // than the bound allows: sleep sets would lose executions within the bound.
        false
    }
}
