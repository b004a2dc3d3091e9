//! Section schedules as vector clocks (seed 002, "Partial-order reduction").
//!
//! The section schedule of a section path is the smallest partial order over its events that
//! keeps program order and orders every pair of dependent events of different threads in
//! path order. Two events are dependent when they access one variable and one of them writes
//! (a lock, unlock or barrier operation updates its object), when one starts the other's
//! thread, or when both begin or end atomic regions (which exclude each other). An event that
//! begins an atomic region also depends on what the events inside the region depend on (no
//! other thread moves inside it on the path), and on every earlier event when the region does
//! not end in the section. At Opt2, accesses to one array whose indices differ in every execution of the path
//! are independent; the checked IVR decides that from the section's start label and the path
//! ([`verifier::check::SectionPath`]).
//!
//! For event `e` of thread `T`, `vc(e)[U]` is the number of events of thread `U` in the
//! section that happen before `e` (for `U = T`, `e`'s position among `T`'s events).

use std::collections::HashMap;
use verifier::check::SectionPath;
use verifier::ir::{Access, Program, ThreadId, TransId, Transition};

/// One event of a section: the step of the section path it is.
#[derive(Clone, Copy, Debug)]
pub struct Ev {
    /// Index in the section path.
    pub step: usize,
    /// Thread.
    pub thread: ThreadId,
    /// Transition.
    pub trans: TransId,
}

/// For each event that begins an atomic region: the thread's later events in the region (up
/// to its end), or `None` when the region does not end in the section.
fn regions(prog: &Program, events: &[Ev]) -> HashMap<usize, Option<Vec<usize>>> {
    let mut out = HashMap::new();
    for (i, e) in events.iter().enumerate() {
        let tr = prog.thread(e.thread).transition(e.trans);
        if !tr.begins_atomic() {
            continue;
        }
        let mut inside = Vec::new();
        let mut closed = false;
        for (j, f) in events.iter().enumerate().skip(i + 1) {
            if f.thread != e.thread {
                continue;
            }
            inside.push(j);
            if prog.thread(f.thread).transition(f.trans).ends_atomic() {
                closed = true;
                break;
            }
        }
        out.insert(i, closed.then_some(inside));
    }
    out
}

/// Whether two events of different threads must keep their path order.
fn dependent(prog: &Program, a: &Ev, b: &Ev, idx: &mut Option<SectionPath>) -> bool {
    let ta = prog.thread(a.thread).transition(a.trans);
    let tb = prog.thread(b.thread).transition(b.trans);
    if ta.spawned() == Some(b.thread) || tb.spawned() == Some(a.thread) {
        return true;
    }
    // Atomic regions exclude each other: their markers act on one lock.
    let marks = |tr: &Transition| tr.begins_atomic() || tr.ends_atomic();
    if marks(ta) && marks(tb) {
        return true;
    }
    for (ka, ea) in ta.events.iter().enumerate() {
        for (kb, eb) in tb.events.iter().enumerate() {
            if ea.var != eb.var || (ea.access == Access::Read && eb.access == Access::Read) {
                continue;
            }
            let separate = prog.var(ea.var).is_array
                && idx
                    .as_mut()
                    .is_some_and(|ix| ix.distinct(a.step, ka, b.step, kb));
            if !separate {
                return true;
            }
        }
    }
    false
}

/// The vector clocks of a section's events (in path order), one row of `threads` entries per
/// event.
pub fn vector_clocks(prog: &Program, events: &[Ev], mut idx: Option<SectionPath>) -> Vec<Vec<u32>> {
    let n = prog.threads.len();
    let mut count = vec![0u32; n];
    let mut last: Vec<Option<usize>> = vec![None; n];
    let mut clocks: Vec<Vec<u32>> = Vec::with_capacity(events.len());
    // Position of each event among its thread's events.
    let mut pos: Vec<u32> = Vec::with_capacity(events.len());
    let regions = regions(prog, events);
    for (i, e) in events.iter().enumerate() {
        let t = e.thread.0 as usize;
        let mut vc = match last[t] {
            Some(p) => clocks[p].clone(),
            None => vec![0; n],
        };
        vc[t] = count[t];
        for j in (0..i).rev() {
            let d = &events[j];
            let u = d.thread.0 as usize;
            // Already ordered before e (transitively): nothing to decide.
            if u == t || vc[u] > pos[j] {
                continue;
            }
            // An atomic region starts only once every event its events depend on is done
            // (no other thread moves inside it); one that does not end in the section, once
            // every earlier event is.
            let dep = dependent(prog, d, e, &mut idx)
                || match regions.get(&i) {
                    Some(Some(inside)) => inside
                        .iter()
                        .any(|&r| dependent(prog, d, &events[r], &mut idx)),
                    Some(None) => true,
                    None => false,
                };
            if dep {
                for (x, y) in vc.iter_mut().zip(&clocks[j]) {
                    *x = (*x).max(*y);
                }
                vc[u] = vc[u].max(pos[j] + 1);
            }
        }
        pos.push(count[t]);
        count[t] += 1;
        last[t] = Some(i);
        clocks.push(vc);
    }
    clocks
}
