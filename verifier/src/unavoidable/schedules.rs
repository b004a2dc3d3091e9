//! Bugs that every scheduler meets for the inputs of an execution, where the schedulers
//! have choices on the way: the states of every schedule with those inputs, searched whole.
//!
//! A replayed bug whose execution read the program's inputs shows that the program is
//! unsafe (no fair, deadlock-free scheduler makes every execution safe for every input;
//! "Incomplete Verification Results for Concurrent Programs") when every scheduler meets a
//! bug for those inputs. Where another thread runs beside the one that fails (a thread it
//! joins, say), schedulers have choices, and the execution alone does not show it. This
//! search does: from the initial state, every enabled step of every thread, each thread
//! reading the inputs the execution gave it, in order. The claim holds where every way
//! ends in a bug of the program (a failed check, a memory-safety violation or a deadlock)
//! and no way runs for ever without one (no cycle among the states found).
//!
//! It gives up, leaving the bug avoidable as far as synth knows, where that is not shown
//! within [`MAX_STATES`] states ([`MAX_CELLS`] cells) and [`MAX_TIME`]; where a way reads an input its
//! thread did not read at that step and place in the execution (another call would take
//! it: a stream's next bytes, say); where two threads read inputs (the order in which they
//! take a stream's bytes would then be the schedule's); where a decision reads a value the
//! model made up (the taint tracking of [`super::unavoidable`]); where a creation is
//! refused for the thread bound; or where an execution is discarded by an assumption.

use super::{enabled, initial_taint, tainted_step};
use crate::interp::{Choice, Execution, Machine, Oracle, Outcome, Replay, State};
use crate::ir::{Program, ThreadId, TransId, Ty, VarId};
use rustc_hash::FxHashMap;
use std::rc::Rc;

/// Most states the search keeps before it gives up (fewer where they are large:
/// [`MAX_CELLS`]). The search runs where an engine judges a bug, within its time limit.
const MAX_STATES: usize = 20_000;

/// Most cells of memory the states the search keeps may hold together.
const MAX_CELLS: usize = 1 << 24;

/// Most time the search takes (it runs where an engine judges a bug, near the end of the
/// run's time as often as not).
const MAX_TIME: std::time::Duration = std::time::Duration::from_millis(500);

/// A state of the search: the program's, the marks of the values the model made up, and
/// how many of its inputs each thread has read.
#[derive(PartialEq, Eq, Hash)]
struct Node {
    state: State,
    taint: Vec<u64>,
    read: Vec<usize>,
}

/// The steps enabled at a state, each a thread's transition.
type Steps = Vec<(ThreadId, TransId)>;

/// Where a step leads.
enum Next {
    /// A bug of the program: this way is doomed.
    Bug,
    /// A state where the program goes on, with its enabled steps.
    On(Node, Steps),
}

/// `Ok` where every scheduler meets a bug of the program for the inputs `e` read; otherwise
/// why that is not shown (see the module documentation).
pub(super) fn every_schedule_fails(prog: &Program, e: &Execution) -> Result<(), String> {
    let mut inputs: Vec<Vec<(TransId, i128)>> = vec![Vec::new(); prog.threads.len()];
    for st in &e.steps {
        let reads = st.inputs.iter().map(|&v| (st.transition, v));
        inputs[st.thread.0 as usize].extend(reads);
    }
    if inputs.iter().filter(|i| !i.is_empty()).count() > 1 {
        return Err("two threads read inputs".into());
    }
    let m = Machine::new(prog);
    let mut replay = Replay::of(e);
    let state = m.initial(&mut replay, &mut Vec::new());
    let taint = initial_taint(prog, &state);
    let root = Node {
        state,
        taint,
        read: vec![0; prog.threads.len()],
    };
    let max_states = MAX_STATES.min(MAX_CELLS / root.state.mem.len().max(1));
    let deadline = std::time::Instant::now() + MAX_TIME;
    let search = Search {
        prog,
        m: &m,
        inputs: &inputs,
    };
    let (root, steps) = match search.settle(root, None)? {
        Next::Bug => return Ok(()),
        Next::On(node, steps) => (node, steps),
    };
    // Depth first; a state is on the stack until every way from it was found doomed.
    // (Each state found, and whether it is on the stack.)
    let mut index: FxHashMap<Rc<Node>, bool> = FxHashMap::default();
    let root = Rc::new(root);
    index.insert(root.clone(), true);
    let mut stack: Vec<(Rc<Node>, Steps)> = vec![(root, steps)];
    while let Some((node, steps)) = stack.last_mut() {
        let Some((t, tr)) = steps.pop() else {
            let (node, _) = stack.pop().expect("not empty");
            *index.get_mut(&node).expect("indexed") = false;
            continue;
        };
        let node = node.clone();
        match search.step(&node, t, tr)? {
            Next::Bug => {}
            Next::On(next, steps) => match index.get(&next) {
                Some(true) => {
                    return Err("a schedule may run for ever without a bug".into());
                }
                Some(false) => {}
                None => {
                    if index.len().is_multiple_of(256) && std::time::Instant::now() > deadline {
                        return Err("the schedules of the execution's inputs take too long \
                                    to search"
                            .into());
                    }
                    if index.len() >= max_states {
                        return Err(format!(
                            "the schedules of the execution's inputs have more than \
                             {max_states} states"
                        ));
                    }
                    let next = Rc::new(next);
                    index.insert(next.clone(), true);
                    stack.push((next, steps));
                }
            },
        }
    }
    Ok(())
}

/// The program and the inputs each thread reads.
struct Search<'a> {
    prog: &'a Program,
    m: &'a Machine<'a>,
    inputs: &'a [Vec<(TransId, i128)>],
}

impl Search<'_> {
    /// Thread `t`'s step `tr` from `node`.
    fn step(&self, node: &Node, t: ThreadId, tr: TransId) -> Result<Next, String> {
        let (prog, m) = (self.prog, self.m);
        let transition = prog.thread(t).transition(tr);
        if transition.refusal.is_some() {
            return Err("a thread creation is refused for the thread bound".into());
        }
        let mut state = node.state.clone();
        let mut read = node.read.clone();
        let mut taint = node.taint.clone();
        let mut oracle = Inputs {
            values: &self.inputs[t.0 as usize],
            step: tr,
            next: read[t.0 as usize],
            short: false,
        };
        let result = tainted_step(prog, m, &mut state, &mut taint, (t, tr), &mut oracle);
        if oracle.short {
            return Err("a schedule reads inputs the execution did not read there".into());
        }
        read[t.0 as usize] = oracle.next;
        match result {
            None => return Err("a schedule reads a value the model does not compute".into()),
            Some(Ok(_)) => {}
            Some(Err(f)) if f.is_memory_error() => return Ok(Next::Bug),
            Some(Err(f)) => return Err(format!("a schedule ends otherwise: {f}")),
        }
        self.settle(Node { state, taint, read }, Some((t, tr)))
    }

    /// What `node`, reached by step `last`, is: a bug, or a state with its enabled steps.
    fn settle(&self, node: Node, last: Option<(ThreadId, TransId)>) -> Result<Next, String> {
        let m = self.m;
        m.start_recording(node.state.mem.len());
        m.start_tainting(&node.taint);
        let (steps, made_up) = enabled(self.prog, m, &node.state);
        drop(m.stop_recording());
        match m.verdict(&node.state, &steps, last) {
            Some(Outcome::Error { .. }) => Ok(Next::Bug),
            _ if made_up => Err("a schedule decides on a value the model does not compute".into()),
            Some(o) if o.is_program_bug() => Ok(Next::Bug),
            Some(_) => Err("a schedule ends without a bug".into()),
            None => Ok(Next::On(node, steps)),
        }
    }
}

/// The inputs of one thread, read in the execution's order, each with the step that read
/// it there.
struct Inputs<'a> {
    values: &'a [(TransId, i128)],
    /// The step that reads now.
    step: TransId,
    next: usize,
    /// Whether an input was read beyond the execution's, or by another step.
    short: bool,
}

impl Oracle for Inputs<'_> {
    fn pick(&mut self, _: usize, _: &[(ThreadId, TransId)]) -> Choice {
        Choice::End
    }

    fn input(&mut self, _: Ty) -> i128 {
        match self.values.get(self.next) {
            Some(&(step, v)) if step == self.step => {
                self.next += 1;
                v
            }
            _ => {
                self.short = true;
                0
            }
        }
    }

    fn initial(&mut self, _: VarId, _: usize, _: Ty) -> i128 {
        0
    }
}
