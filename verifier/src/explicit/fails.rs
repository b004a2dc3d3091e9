//! Threads bound to fail: a state where some thread reaches the error location (or undefined
//! behaviour) whatever a fair scheduler does while the program runs. The searches for a safe
//! schedule ([`super::strategy`]) and the graph's scheduler ([`super::proof::doomed`]) avoid
//! such a state; without this, a schedule that never runs that thread again (a cycle of the
//! other threads' steps, a spin loop) passes them as safe, and the checker then rejects it as
//! unfair, or for the undefined behaviour the values it never rules out allow. Fairness is
//! the condition of seed 002's schedulers (a fair, deadlock-free scheduler), which a thread's
//! own steps cannot be kept from under it. (Not a reason for `unsafe`: a scheduler that lets
//! the program end first may cut the thread's steps short.)

use super::space::{Key, Space};
use crate::ir::{Access, LocKind, Op, Program, Thread, ThreadId, TransKind, Transition};
use rustc_hash::FxHashMap;
use std::cell::RefCell;

/// Where a thread is bound to reach the error location whatever the scheduler does: run
/// alone from its location, some way of its steps gets there (or to undefined behaviour)
/// within [`STEPS`] steps, each a step that reads no memory another thread can write and
/// cannot block ([`solitary`]). What such a step does depends on the thread alone, so it
/// stays enabled until the thread takes a step, which a fair scheduler lets it do, and
/// where it has more than one, which it takes is the program's (its values') to choose, not
/// the scheduler's. Statically, per thread, the locations from which such steps may lead to
/// the error location (`near`); in a state, a run of them ([`BoundToFail::fails_alone`]).
pub struct BoundToFail {
    near: Vec<Vec<bool>>,
    /// What [`BoundToFail::any`] found, per state.
    found: RefCell<FxHashMap<u32, bool>>,
}

/// Most steps of one run of [`BoundToFail::fails_alone`].
const STEPS: usize = 8;

/// Most steps [`BoundToFail::fails_alone`] takes in all its runs from one state.
const WORK: usize = 32;

impl BoundToFail {
    pub fn new(prog: &Program) -> BoundToFail {
        let near = prog
            .threads
            .iter()
            .map(|th| {
                let to_error = th.transitions.iter().filter(|tr| {
                    solitary(tr) && th.locations[tr.dst.0 as usize].kind == LocKind::Error
                });
                backwards(th, to_error.map(|tr| tr.src.0 as usize), STEPS, solitary)
            })
            .collect();
        BoundToFail {
            near,
            found: RefCell::default(),
        }
    }

    /// Some thread of state `id` is bound to reach the error location (found once per state).
    pub fn any(&self, space: &Space, id: u32) -> bool {
        if let Some(&known) = self.found.borrow().get(&id) {
            return known;
        }
        let control = space.control(id);
        let mut near = (control.locs.iter().enumerate())
            .filter(|(t, l)| l.is_some_and(|l| self.near[*t][l.0 as usize]))
            .map(|(t, _)| ThreadId(t as u32));
        // (Whether the thread may move is asked only of one that would fail. A value not
        // known that a run decides on marks the search ([`Space::read_undefined`]): it
        // decided on it.)
        let fails = near.any(|t| {
            control.atomic.is_none_or(|a| a == t)
                && self.fails_alone(space, id, t)
                && control.movable(space.prog).contains(&t)
        });
        self.found.borrow_mut().insert(id, fails);
        fails
    }

    /// Thread `t`, run alone from state `id` by [`solitary`] steps, may reach the error
    /// location or undefined behaviour (depth first over its ways, within [`STEPS`]
    /// steps each and [`WORK`] in all).
    fn fails_alone(&self, space: &Space, id: u32, t: ThreadId) -> bool {
        let th = &space.prog.threads[t.0 as usize];
        let mut work = 0;
        // (The state itself is not copied: only the states after steps are made.)
        let first = space.key(id);
        let mut stack: Vec<(Option<Key>, usize)> = vec![(None, 0)];
        while let Some((k, depth)) = stack.pop() {
            let k = k.as_ref().unwrap_or(&first);
            let Some(l) = k.state.threads[t.0 as usize].loc() else {
                continue;
            };
            if depth >= STEPS || !self.near[t.0 as usize][l.0 as usize] {
                continue;
            }
            for (tr, forced) in space.enabled_at(k, t) {
                let tr = th.transition(tr);
                if !solitary(tr) {
                    continue;
                }
                if work >= WORK {
                    return false;
                }
                work += 1;
                let mut next = Key::clone(k);
                if space.step_at(&mut next, t, tr.id, forced).is_err()
                    || th.locations[tr.dst.0 as usize].kind == LocKind::Error
                {
                    return true;
                }
                stack.push((Some(next), depth + 1));
            }
        }
        false
    }
}

/// A step that reads no memory another thread can write (it may write some) and cannot
/// block: an ordinary statement or branch, or the step into the error location.
fn solitary(tr: &Transition) -> bool {
    !tr.may_block
        && matches!(
            tr.kind,
            TransKind::Stmt | TransKind::Branch | TransKind::Error(_)
        )
        && tr.events.iter().all(|e| e.access == Access::Write)
        && tr
            .ops
            .iter()
            .all(|o| matches!(o, Op::Assign { .. } | Op::Havoc { .. }))
}

/// The locations of `th` from which at most `steps` transitions that `follow` takes lead to
/// one of `from` (those included).
pub(super) fn backwards(
    th: &Thread,
    from: impl Iterator<Item = usize>,
    steps: usize,
    follow: impl Fn(&Transition) -> bool,
) -> Vec<bool> {
    let mut incoming: Vec<Vec<&Transition>> = vec![Vec::new(); th.locations.len()];
    for tr in th.transitions.iter().filter(|tr| follow(tr)) {
        incoming[tr.dst.0 as usize].push(tr);
    }
    let mut near = vec![false; th.locations.len()];
    let mut layer: Vec<usize> = from.collect();
    for _ in 0..steps {
        let mut next = Vec::new();
        for l in layer {
            if !std::mem::replace(&mut near[l], true) {
                next.extend(incoming[l].iter().map(|tr| tr.src.0 as usize));
            }
        }
        layer = next;
    }
    near
}
