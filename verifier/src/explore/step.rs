//! Steps of the explorer: one scheduling decision runs a thread's next visible transition and
//! then its invisible ones (seed 004, section 3: only visible operations are scheduling
//! points), or a whole atomic region. A thread's step may have several *variants*: the
//! values of the inputs it reads (`__VERIFIER_nondet_*`, enumerated over the input domain)
//! and, at `pthread_cond_signal`, which waiter it wakes. Each variant is explored.

use super::{Acc, Gate, Guide, Inputs, Mark, TraceStep};
use crate::interp::{Choice, Machine, Oracle, State, Status};
use crate::ir::{LocKind, Op, SyncKind, ThreadId, TransId, TransKind, Ty, VarId};

/// The ordering token every step reads and a step that ends the program writes.
const ALIVE: u64 = u64::MAX >> 1;

/// [`ALIVE`] as an access key ([`Acc::key`]).
pub(crate) const ALIVE_KEY: u64 = (1 << 63) | ALIVE;

/// How a step ended the execution, if it did.
#[derive(Clone, Debug)]
pub(crate) enum Ending {
    /// The thread reached the error location.
    Error(TransId),
    /// The program ended (`exit`, `abort`, `main` returned).
    Halted,
    /// A local assumption failed.
    Discarded,
    /// Undefined behaviour.
    Undefined(TransId, String),
    /// The schedule does not allow what the thread does (seen by the guide).
    Deviation(TransId, String),
}

/// One variant of a thread's step.
#[derive(Clone, Debug)]
pub(crate) struct Variant<G> {
    pub steps: Vec<TraceStep>,
    pub state: State,
    pub guide: G,
    pub acc: Vec<Acc>,
    pub spawned: Vec<ThreadId>,
    pub marks: Vec<Mark>,
    pub ending: Option<Ending>,
    /// It has run a visible transition.
    pub visible: bool,
}

/// Inputs fixed in advance for one transition.
struct Fixed<'a>(&'a [i128], usize);

impl Oracle for Fixed<'_> {
    fn pick(&mut self, _: usize, _: &[(ThreadId, TransId)]) -> Choice {
        Choice::End
    }
    fn input(&mut self, ty: Ty) -> i128 {
        let v = self.0.get(self.1).copied().unwrap_or(0);
        self.1 += 1;
        ty.wrap(v)
    }
    fn initial(&mut self, _: VarId, _: usize, _: Ty) -> i128 {
        0
    }
}

/// The values an input of type `ty` takes: the domain, converted to the type, without
/// repetitions.
pub(crate) fn input_values(inputs: &Inputs, ty: Ty, salt: u64) -> Vec<i128> {
    let mut out: Vec<i128> = match inputs {
        Inputs::Range { lo, hi } => (*lo..=*hi).map(|v| ty.wrap(v)).collect(),
        Inputs::List(vs) => vs.iter().map(|v| ty.wrap(*v)).collect(),
        Inputs::Sample { seed, count } => {
            use rand::{Rng, SeedableRng};
            let mut rng = rand::rngs::SmallRng::seed_from_u64(
                seed ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15),
            );
            (0..*count)
                .map(|_| {
                    let (lo, hi) = (ty.min(), ty.max());
                    if rng.gen_bool(0.5) {
                        ty.wrap(rng.gen_range(-4i128..=4).clamp(lo, hi))
                    } else {
                        lo + (rng.gen::<u128>() % ((hi - lo) as u128 + 1)) as i128
                    }
                })
                .collect()
        }
    };
    let mut seen = std::collections::HashSet::new();
    out.retain(|v| seen.insert(*v));
    if out.is_empty() {
        out.push(0);
    }
    out
}

/// The transitions thread `t` can take now and how the guide gates them: `(transition,
/// skip)` where `skip` means the transition runs as a no-op (a synchronisation call the
/// schedule subsumes). A transition the guide reports as a deviation is returned with its
/// reason when its guard holds.
pub(crate) fn candidates<G: Guide>(
    m: &Machine<'_>,
    guide: &G,
    g: &G::State,
    s: &State,
    t: ThreadId,
    out: &mut Vec<(TransId, Gate)>,
) {
    let Status::At(l) = s.threads[t.0 as usize] else {
        return;
    };
    if s.atomic.is_some_and(|a| a != t) {
        return;
    }
    for tr in m.prog.thread(t).outgoing(l) {
        let gate = guide.gate(g, t, tr.id);
        if matches!(gate, Gate::Wait) {
            continue;
        }
        if matches!(gate, Gate::Skip) || m.eval(s, &tr.guard).map(|v| v != 0).unwrap_or(true) {
            out.push((tr.id, gate));
        }
    }
}

/// What computing a step needs besides the state: the machine, the guide, the input domain
/// and the bound on invisible transitions per step.
pub(crate) struct Stepper<'e, 'm, G: Guide> {
    pub m: &'e Machine<'m>,
    pub guide: &'e G,
    pub inputs: &'e Inputs,
    pub max_local: usize,
}

impl<G: Guide> Stepper<'_, '_, G> {
    /// Every variant of thread `t`'s step from `s` under guide state `g`, at point `depth`.
    pub fn variants(
        &self,
        g: &G::State,
        s: &State,
        t: ThreadId,
        depth: usize,
    ) -> Vec<Variant<G::State>> {
        variants(
            self.m,
            self.guide,
            g,
            s,
            t,
            self.inputs,
            depth,
            self.max_local,
        )
    }
}

/// The accesses of all the variants, sorted, without repetitions.
pub(crate) fn union_acc<S>(vs: &[Variant<S>]) -> Vec<Acc> {
    let mut acc: Vec<Acc> = vs.iter().flat_map(|v| v.acc.iter().copied()).collect();
    acc.sort_unstable();
    acc.dedup();
    acc
}

/// Every variant of thread `t`'s step from `s` (which [`candidates`] found able to move).
#[allow(clippy::too_many_arguments)]
fn variants<G: Guide>(
    m: &Machine<'_>,
    guide: &G,
    g: &G::State,
    s: &State,
    t: ThreadId,
    inputs: &Inputs,
    depth: usize,
    max_local: usize,
) -> Vec<Variant<G::State>> {
    let mut first = Vec::new();
    candidates(m, guide, g, s, t, &mut first);
    let start = Variant {
        steps: Vec::new(),
        state: s.clone(),
        guide: g.clone(),
        acc: Vec::new(),
        spawned: Vec::new(),
        marks: Vec::new(),
        ending: None,
        visible: false,
    };
    let mut out = Vec::new();
    let n = first.len();
    let mut start = Some(start);
    for (i, (tr, gate)) in first.into_iter().enumerate() {
        let v = if i + 1 == n {
            start.take().expect("the start")
        } else {
            start.as_ref().expect("the start").clone()
        };
        extend(m, guide, v, t, tr, gate, inputs, depth, max_local, &mut out);
    }
    for v in &mut out {
        // Every step needs the program to still run; ending it (`exit`, `main` returning, a
        // failed local assumption, an error) disables every other thread.
        let ends = v.ending.is_some();
        v.acc.push(Acc::token(ALIVE, ends));
        v.acc.sort_unstable();
        v.acc.dedup();
    }
    out
}

/// Runs transition `tr` (every input combination) from `v` and continues through invisible
/// transitions; pushes the finished variants. A variant is cloned only where the step
/// branches (several input values, several enabled transitions).
#[allow(clippy::too_many_arguments)]
fn extend<G: Guide>(
    m: &Machine<'_>,
    guide: &G,
    v: Variant<G::State>,
    t: ThreadId,
    tr: TransId,
    gate: Gate,
    inputs: &Inputs,
    depth: usize,
    max_local: usize,
    out: &mut Vec<Variant<G::State>>,
) {
    let mut work = vec![(v, tr, gate)];
    while let Some((v, tr, gate)) = work.pop() {
        if let Gate::Deviation(why) = gate {
            let mut w = v;
            w.steps.push(TraceStep::new(t, tr, vec![], true));
            w.ending = Some(Ending::Deviation(tr, why));
            out.push(w);
            continue;
        }
        let x = m.prog.thread(t).transition(tr);
        let domains: Vec<Vec<i128>> = x
            .ops
            .iter()
            .filter_map(|o| match o {
                Op::Havoc { ty, .. } => Some(*ty),
                _ => None,
            })
            .enumerate()
            .map(|(k, ty)| {
                let salt = ((depth as u64) << 32)
                    ^ ((t.0 as u64) << 16)
                    ^ (tr.0 as u64)
                    ^ ((k as u64) << 48)
                    ^ (v.steps.len() as u64).rotate_left(24);
                input_values(inputs, ty, salt)
            })
            .collect();
        let combos: usize = domains.iter().map(|d| d.len()).product();
        let mut v = Some(v);
        let mut combo = vec![0usize; domains.len()];
        for k in 0..combos {
            let vals: Vec<i128> = combo.iter().zip(&domains).map(|(i, d)| d[*i]).collect();
            let mut w = if k + 1 == combos {
                v.take().expect("the variant")
            } else {
                v.as_ref().expect("the variant").clone()
            };
            run_one(m, guide, &mut w, t, tr, &gate, &vals);
            if w.ending.is_some() || !continues(m, guide, &w, t) || w.steps.len() > max_local {
                out.push(w);
            } else {
                let mut next = Vec::new();
                candidates(m, guide, &w.guide, &w.state, t, &mut next);
                let n = next.len();
                if n == 0 {
                    out.push(w);
                    continue_combos(&mut combo, &domains);
                    continue;
                }
                let mut w = Some(w);
                for (i, (tr2, gate2)) in next.into_iter().enumerate() {
                    let w2 = if i + 1 == n {
                        w.take().expect("the variant")
                    } else {
                        w.as_ref().expect("the variant").clone()
                    };
                    work.push((w2, tr2, gate2));
                }
            }
            continue_combos(&mut combo, &domains);
        }
    }
}

/// The next input combination.
fn continue_combos(combo: &mut [usize], domains: &[Vec<i128>]) {
    for (c, d) in combo.iter_mut().zip(domains) {
        *c += 1;
        if *c < d.len() {
            break;
        }
        *c = 0;
    }
}

/// Executes one transition into `w`.
fn run_one<G: Guide>(
    m: &Machine<'_>,
    guide: &G,
    w: &mut Variant<G::State>,
    t: ThreadId,
    tr: TransId,
    gate: &Gate,
    vals: &[i128],
) {
    let th = m.prog.thread(t);
    let x = th.transition(tr);
    if !local(m, guide, t, x.src) {
        w.visible = true;
    }
    if matches!(gate, Gate::Skip) {
        // Subsumed by the schedule: the instrumented program does not perform it.
        w.state.threads[t.0 as usize] = Status::At(x.dst);
        w.steps.push(TraceStep::new(t, tr, vec![], true));
        return;
    }
    let _ = m.take_log();
    m.set_logging(true);
    let r = m.execute(&mut w.state, t, tr, &mut Fixed(vals, 0));
    m.set_logging(false);
    let log = m.take_log();
    // Every element whose value changed (the thread's locals too: the fair scheduler asks
    // whether a loop iteration changed anything).
    let changes: Vec<(u64, i128, i128)> = log
        .iter()
        .filter(|a| a.write)
        .filter_map(|a| {
            let now = w.state.mem[a.var.0 as usize][a.index as usize];
            (now != a.old).then(|| (Acc::memory(a.var, a.index, true).key, a.old, now))
        })
        .collect();
    w.acc.extend(
        log.iter()
            .filter(|a| a.visible)
            .map(|a| Acc::memory(a.var, a.index, a.write)),
    );
    match r {
        Ok(step) => {
            w.steps.push(TraceStep {
                thread: t,
                transition: tr,
                inputs: step.inputs,
                skipped: false,
                writes: step.writes,
            });
        }
        Err(f) => {
            w.steps.push(TraceStep::new(t, tr, vals.to_vec(), false));
            w.ending = Some(Ending::Undefined(tr, f.to_string()));
            return;
        }
    }
    if matches!(gate, Gate::Go) {
        w.acc.extend(guide.pass(&mut w.guide, t, tr));
    }
    for o in &x.ops {
        if let Op::Spawn { thread, .. } = o {
            w.spawned.push(*thread);
        }
    }
    let failed_trylock = x.kind == TransKind::Sync(SyncKind::TryLock)
        && !changes
            .iter()
            .any(|c| m.prog.var(VarId((c.0 >> 32) as u32)).elem.is_sync());
    w.marks.push(Mark {
        back_edge: x.back_edge,
        yields: x.yields || failed_trylock,
        changes,
    });
    match th.locations[x.dst.0 as usize].kind {
        LocKind::Error => w.ending = Some(Ending::Error(tr)),
        LocKind::Halt => w.ending = Some(Ending::Halted),
        LocKind::Discard => w.ending = Some(Ending::Discarded),
        _ => {}
    }
}

/// Whether location `l` of thread `t` has only transitions invisible to other threads.
pub(crate) fn local<G: Guide>(
    m: &Machine<'_>,
    guide: &G,
    t: ThreadId,
    l: crate::ir::LocId,
) -> bool {
    match guide.invisible(t, l) {
        Some(b) => b,
        None => m.prog.thread(t).local_location(l),
    }
}

/// Whether the step goes on after `w`: until it has run a visible transition (one from a
/// location that is not local), then while the thread is inside an atomic region or at a
/// location whose transitions are all invisible to other threads.
fn continues<G: Guide>(m: &Machine<'_>, guide: &G, w: &Variant<G::State>, t: ThreadId) -> bool {
    let Status::At(l) = w.state.threads[t.0 as usize] else {
        return false;
    };
    let th = m.prog.thread(t);
    if th.locations[l.0 as usize].kind != LocKind::Normal {
        return false;
    }
    if w.state.atomic == Some(t) || !w.visible {
        return true;
    }
    local(m, guide, t, l)
}
