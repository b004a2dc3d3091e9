//! Runs a program on the concrete interpreter under a program schedule, the way the runtime
//! enforces it, and checks seed 002's Lemma 5 on every section it runs: a random linear
//! extension of the section's vector-clock order, run from the section's start state, ends in
//! the same state as the section path itself (same inputs).
//!
//! Within a section, each thread runs its own steps in program order; a step that is an event
//! waits until every other thread has completed the events its vector clock names; steps
//! without events run freely. Synchronisation steps the schedule subsumes run as no-ops (the
//! instrumentation removes them). At a branching end the branching thread takes whichever arm
//! is enabled in the concrete state and the successor it selects follows. Anything else is a
//! [`Deviation`]: a guard that does not hold on the path, an error location, undefined
//! behaviour, a state that differs from the path's, a branch arm without successor.

use crate::schedule::{End, ProgramSchedule};
use crate::sites::SiteKind;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use verifier::interp::{Machine, Oracle, RandomOracle, State, Status};
use verifier::ir::{LocKind, Program, ThreadId, TransId, Ty, VarId};

/// What went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deviation {
    /// The section.
    pub section: u32,
    /// What happened.
    pub what: String,
}

/// Figures of a simulated run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Run {
    /// Sections entered.
    pub sections: u64,
    /// Section switches (successor links followed).
    pub switches: u64,
    /// Transitions executed.
    pub steps: u64,
    /// Loop back edges executed.
    pub back_edges: u64,
    /// Whether the program ended (rather than the section bound).
    pub finished: bool,
}

/// Inputs fixed in advance, so that two runs of one section see the same values.
struct Fixed(Vec<i128>);

impl Oracle for Fixed {
    fn pick(&mut self, _: usize, _: &[(ThreadId, TransId)]) -> verifier::interp::Choice {
        verifier::interp::Choice::End
    }
    fn input(&mut self, ty: Ty) -> i128 {
        ty.wrap(self.0.pop().unwrap_or(0))
    }
    fn initial(&mut self, _: VarId, _: usize, _: Ty) -> i128 {
        0
    }
}

/// Runs thread `t`'s call of an environment model in `st` to its end, making the model's
/// choices (arms and inputs) with `rng`; choices the model discards (an assumption on the
/// system's answer that fails) are made again.
fn environment_call(
    prog: &Program,
    m: &Machine,
    st: &mut State,
    t: ThreadId,
    rng: &mut SmallRng,
) -> Result<(), String> {
    let th = prog.thread(t);
    let before = st.clone();
    let mut en = Vec::new();
    for _ in 0..100 {
        loop {
            let Status::At(l) = st.threads[t.0 as usize] else {
                return Ok(());
            };
            if th.locations[l.0 as usize].kind == LocKind::Discard {
                *st = before.clone();
                break;
            }
            if !th.environment_location(l) {
                return Ok(());
            }
            en.clear();
            m.enabled_of(st, t, &mut en);
            let Some(&(_, tr)) = en.get(rng.gen_range(0..en.len().max(1))) else {
                return Err(format!(
                    "{} cannot move inside an environment model",
                    th.name
                ));
            };
            let havocs = (th.transition(tr).ops.iter())
                .filter(|o| matches!(o, verifier::ir::Op::Havoc { .. }))
                .count();
            let vals = (0..havocs).map(|_| rng.gen_range(-3i128..=3)).collect();
            m.execute(st, t, tr, &mut Fixed(vals))
                .map_err(|f| format!("undefined behaviour in an environment model: {f:?}"))?;
            if th.locations[th.transition(tr).dst.0 as usize].kind == LocKind::Error {
                return Err(format!("{} reached the error location", th.name));
            }
        }
    }
    Err(format!(
        "{}: the environment model discards every choice tried",
        th.name
    ))
}

/// Runs `prog` under `sched` for at most `max_sections` sections with seed `seed`.
pub fn run(
    prog: &Program,
    sched: &ProgramSchedule,
    seed: u64,
    max_sections: u64,
) -> Result<Run, Deviation> {
    let m = Machine::new(prog);
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut init = RandomOracle::new(seed);
    let mut state = m.initial(&mut init, &mut Vec::new());
    let mut sec = sched.initial;
    let mut out = Run::default();
    // Subsumed synchronisation steps run as no-ops, as in the instrumented program.
    let removed_trans = |t: ThreadId, tr: TransId| {
        sched
            .sites
            .site_of(t, tr)
            .is_some_and(|s| sched.sites.sites[s as usize].kind == SiteKind::Removed)
    };
    while out.sections < max_sections {
        out.sections += 1;
        let s = &sched.sections[sec as usize];
        let dev = |what: String| Deviation { section: sec, what };
        // Inputs per step, drawn once.
        let inputs: Vec<Vec<i128>> = s
            .path
            .iter()
            .map(|&(t, tr)| {
                let n = prog
                    .thread(t)
                    .transition(tr)
                    .ops
                    .iter()
                    .filter(|o| matches!(o, verifier::ir::Op::Havoc { .. }))
                    .count();
                (0..n).map(|_| rng.gen_range(-3i128..=3)).collect()
            })
            .collect();
        let event_at: std::collections::HashMap<usize, usize> = s
            .events
            .iter()
            .enumerate()
            .map(|(k, e)| (e.step as usize, k))
            .collect();
        let step = |st: &mut State, i: usize| -> Result<(), String> {
            let (t, tr) = s.path[i];
            let th = prog.thread(t);
            let x = th.transition(tr);
            if st.threads[t.0 as usize] != Status::At(x.src) {
                return Err(format!("{} is not at the path's location", th.name));
            }
            if removed_trans(t, tr) {
                st.threads[t.0 as usize] = Status::At(x.dst);
                return Ok(());
            }
            // A call of an environment model the schedule takes as one step (the path lists
            // no other step of `t` inside it).
            let whole = th.environment_location(x.src)
                && (s.path[i + 1..].iter().find(|&&(u, _)| u == t))
                    .is_none_or(|&(_, y)| !th.environment_location(th.transition(y).src));
            if whole {
                // The whole call, on choices fixed per step (the same in every order).
                let mut rng = SmallRng::seed_from_u64(seed ^ (u64::from(sec) << 32) ^ i as u64);
                return environment_call(prog, &m, st, t, &mut rng);
            }
            // Deployed, an atomic region orders only events: code without events of other
            // threads runs on beside it (and commutes with it).
            if st.atomic.is_some_and(|a| a != t) && event_at.contains_key(&i) {
                return Err(format!(
                    "{} runs an event inside another thread's atomic region",
                    th.name
                ));
            }
            let g = m.eval(st, &x.guard).map_err(|f| format!("guard: {f:?}"))?;
            if g == 0 {
                return Err(format!(
                    "{}: the guard of the path's step at {} does not hold",
                    th.name,
                    x.span.map(|sp| prog.position(&sp)).unwrap_or_default()
                ));
            }
            let mut vals = inputs[i].clone();
            vals.reverse();
            m.execute(st, t, tr, &mut Fixed(vals))
                .map_err(|f| format!("undefined behaviour: {f:?}"))?;
            if th.locations[x.dst.0 as usize].kind == LocKind::Error {
                return Err(format!("{} reached the error location", th.name));
            }
            Ok(())
        };
        // The section path in proof order.
        let mut on_path = state.clone();
        for i in 0..s.path.len() {
            step(&mut on_path, i).map_err(|w| dev(format!("on the section path: {w}")))?;
        }
        // A random linear extension of the section schedule.
        let n = prog.threads.len();
        let mut queues: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, &(t, _)) in s.path.iter().enumerate() {
            queues[t.0 as usize].push(i);
        }
        let mut head = vec![0usize; n];
        let mut done = vec![0u32; n];
        let mut ext = state.clone();
        loop {
            // Inside an atomic region, its thread runs on while it has steps here.
            let holder = ext
                .atomic
                .map(|a| a.0 as usize)
                .filter(|&a| head[a] < queues[a].len());
            let ready: Vec<usize> = (0..n)
                .filter(|&t| holder.is_none_or(|a| a == t))
                .filter(|&t| head[t] < queues[t].len())
                // A thread runs only once it has been created.
                .filter(|&t| ext.threads[t] != Status::NotStarted)
                .filter(|&t| match event_at.get(&queues[t][head[t]]) {
                    None => true,
                    Some(&k) => {
                        let vc = &s.events[k].vc;
                        (0..n).all(|u| u == t || done[u] >= vc[u])
                    }
                })
                .collect();
            if ready.is_empty() {
                if (0..n).any(|t| head[t] < queues[t].len()) {
                    return Err(dev("the section's events wait for each other".into()));
                }
                break;
            }
            let t = ready[rng.gen_range(0..ready.len())];
            let i = queues[t][head[t]];
            step(&mut ext, i).map_err(|w| dev(format!("in a linear extension: {w}")))?;
            out.steps += 1;
            let (pt, ptr) = s.path[i];
            if prog.thread(pt).transition(ptr).back_edge {
                out.back_edges += 1;
            }
            if event_at.contains_key(&i) {
                done[t] += 1;
            }
            head[t] += 1;
        }
        if ext != on_path {
            return Err(dev(
                "a linear extension of the section schedule ends in another state than the \
                 section path (Lemma 5)"
                    .into(),
            ));
        }
        state = ext;
        let next = match s.end {
            End::Finish => {
                out.finished = true;
                return Ok(out);
            }
            End::Next => s.successors[0].section,
            End::Branch => {
                let t = s.branch_thread.expect("branching thread");
                let mut en = Vec::new();
                m.enabled_of(&state, t, &mut en);
                if en.is_empty() {
                    return Err(dev(format!(
                        "{} cannot move at the branch",
                        prog.thread(t).name
                    )));
                }
                let (_, tr) = en[rng.gen_range(0..en.len())];
                let Some(x) = s.successors.iter().find(|x| x.arm == Some(tr)) else {
                    return Err(dev(format!(
                        "{} takes branch arm t{} that has no successor",
                        prog.thread(t).name,
                        tr.0
                    )));
                };
                let th = prog.thread(t);
                let mut vals: Vec<i128> = (0..4).map(|_| rng.gen_range(-3i128..=3)).collect();
                vals.reverse();
                m.execute(&mut state, t, tr, &mut Fixed(vals))
                    .map_err(|f| dev(format!("undefined behaviour at a branch: {f:?}")))?;
                out.steps += 1;
                match th.locations[th.transition(tr).dst.0 as usize].kind {
                    LocKind::Error => {
                        return Err(dev(format!("{} reached the error location", th.name)))
                    }
                    LocKind::Discard | LocKind::Halt => {
                        out.finished = true;
                        return Ok(out);
                    }
                    _ => {}
                }
                x.section
            }
        };
        out.switches += 1;
        sec = next;
    }
    Ok(out)
}
