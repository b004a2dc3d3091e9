//! Steps of the explorer: one scheduling decision runs a thread's next visible transition and
//! then its invisible ones (seed 004, section 3: only visible operations are scheduling
//! points), or a whole atomic region. A thread's step may have several *variants*: the
//! values of the inputs it reads (`__VERIFIER_nondet_*`, enumerated over the input domain)
//! and, at `pthread_cond_signal`, which waiter it wakes. Each variant is explored. Loop
//! iterations over the thread's own locals only, and joins of the id a refused creation
//! leaves, are invisible to the other threads ([`Stepper::own`]): a step runs on through up
//! to [`MAX_OWN_ITERATIONS`] of them.

use super::race::Ev;
use super::{Acc, Gate, Guide, Inputs, Mark, TraceStep};
use crate::interp::{Choice, Machine, Oracle, State, Status, Touch};
use crate::ir::{LocKind, Op, SyncKind, ThreadId, TransId, TransKind, Ty, VarId};
use std::cell::RefCell;

/// The most transitions a step runs on through scheduling points where its thread is alone
/// ([`Stepper::alone`]): a lone thread that spins forever still takes steps the depth bound
/// counts.
const MAX_ALONE: usize = 256;

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
    /// The execution went past a limit of the model (named): it is not explored further, and
    /// it is no bug of the program.
    Limit(String),
    /// The schedule does not allow what the thread does (seen by the guide).
    Deviation(TransId, String),
}

impl Ending {
    /// How a step that faulted with `f` at transition `tr` ends the execution.
    fn of_fault(tr: TransId, f: &crate::interp::Fault) -> Ending {
        match f.model_limit() {
            Some(limit) => Ending::Limit(limit.to_string()),
            None => Ending::Undefined(tr, f.to_string()),
        }
    }
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
    /// What the data-race detector needs of its transitions (when it runs).
    pub races: Vec<Ev>,
    pub ending: Option<Ending>,
    /// It has run a visible transition (or, with [`Stepper::one_input`], read an input).
    pub visible: bool,
    /// Loop back edges it has taken ([`MAX_ITERATIONS`] once it has read an input), but for
    /// those closing an iteration that touched only the thread's own memory
    /// ([`Stepper::own`]).
    pub back_edges: u32,
    /// Since its last back edge (or its start), it ran a transition that is not
    /// [`Stepper::own`].
    pub loud: bool,
    /// Back edges it has taken that closed an iteration of [`Stepper::own`] transitions only.
    pub own_iterations: u32,
    /// One of its transitions read an input (a trace step with input values).
    pub read_input: bool,
    /// How many of its transitions read inputs ([`MAX_INPUTS`]).
    pub inputs_read: u32,
    /// One of its transitions read inputs whose values made no difference
    /// ([`same_outcome`]): its trace steps keep the values, so the memo does not keep it.
    pub read_unused_input: bool,
    /// With [`Tables::unlocks`]: the access key of a mutex it released (unlock,
    /// `pthread_cond_wait`) without holding it.
    pub stray: Option<u64>,
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

/// Fills in the values each step of a trace writes (the search does not list them) by
/// running the trace again from the initial state.
pub(crate) fn fill_writes(m: &Machine<'_>, init: &State, steps: &mut [TraceStep]) {
    let mut s = init.clone();
    for st in steps {
        let x = m.prog.thread(st.thread).transition(st.transition);
        if st.skipped {
            s.threads[st.thread.0 as usize] = Status::At(x.dst);
            continue;
        }
        match m.execute(&mut s, st.thread, st.transition, &mut Fixed(&st.inputs, 0)) {
            Ok(done) => st.writes = done.writes,
            Err(_) => return,
        }
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
    let Some(l) = movable(s, t) else {
        return;
    };
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

/// Where thread `t` is, when it may move at all: started, and no other thread inside an
/// atomic region.
fn movable(s: &State, t: ThreadId) -> Option<crate::ir::LocId> {
    match s.threads[t.0 as usize] {
        Status::At(l) if s.atomic.is_none_or(|a| a == t) => Some(l),
        _ => None,
    }
}

/// Whether thread `t` can take a step now: [`candidates`] would find a transition.
pub(crate) fn can_move<G: Guide>(
    m: &Machine<'_>,
    guide: &G,
    g: &G::State,
    s: &State,
    t: ThreadId,
) -> bool {
    let Some(l) = movable(s, t) else {
        return false;
    };
    m.prog
        .thread(t)
        .outgoing(l)
        .any(|tr| match guide.gate(g, t, tr.id) {
            Gate::Wait => false,
            Gate::Skip => true,
            _ => m.eval(s, &tr.guard).map(|v| v != 0).unwrap_or(true),
        })
}

/// Whether thread `t`, at a [`Tables::stutter`] location `l` in state `s`, would only repeat
/// itself: its one transition is enabled and leaves every variable it assigns as it is. It
/// then runs that transition for ever, touching only its own locals: the search need not
/// schedule it (no state or error is lost), and it does not count as a thread that cannot
/// move where the others are blocked (it can: the program does not deadlock, it spins).
pub(crate) fn stutters(m: &Machine<'_>, s: &State, t: ThreadId, l: crate::ir::LocId) -> bool {
    let Some(tr) = m.prog.thread(t).outgoing(l).next() else {
        return false;
    };
    if !matches!(m.eval(s, &tr.guard), Ok(v) if v != 0) {
        return false;
    }
    let mut after = s.clone();
    if m.execute_assignments(&mut after, t, tr).is_err() {
        return false;
    }
    tr.ops.iter().all(|o| match o {
        Op::Assign {
            place: crate::ir::Place::Var { var, index: None },
            ..
        } => after.mem.cell(var.0 as usize, 0) == s.mem.cell(var.0 as usize, 0),
        _ => false,
    })
}

/// What computing a step needs besides the state: the machine, the guide, the input domain,
/// the bound on invisible transitions per step, whether the fair scheduler's marks are
/// wanted, and recycled buffers (a state is copied at every step; its buffer is reused).
pub(crate) struct Stepper<'e, 'm, G: Guide> {
    pub m: &'e Machine<'m>,
    pub guide: &'e G,
    pub inputs: &'e Inputs,
    pub max_local: usize,
    pub marks: bool,
    pub pool: &'e Pool<G::State>,
    /// The search's tables: which locations are local, private, loops or held unlocks, the
    /// synchronisation variables (when the data-race detector runs), and whether the
    /// program has atomic regions (then every step reads their lock: a region's begin shuts
    /// every other thread out, however the region is cut into steps).
    pub tables: &'e Tables,
    /// The memo of steps, when steps are memoised ([`super::memo`]).
    pub memo: Option<&'e RefCell<super::memo::Memo>>,
    /// A step reads at most one input ([`Stepper::continues`]): in a DPOR search without a
    /// preemption bound, where a point that only cuts a thread's inputs apart costs nothing
    /// (the steps are independent of every other). A preemption bound would count a switch
    /// there (away from a thread that can read its input, where the whole step would be
    /// blocked at its next synchronisation, which is no preemption), and the fair scheduler
    /// and a search without DPOR would try every thread there.
    pub one_input: bool,
}

/// Buffers the search recycles: states, variants (with their lists' capacity), lists of
/// variants, the machine's access log, and the lists of [`super::Reorder::can_precede`]. A
/// step allocates nothing once the pool is warm.
pub(crate) struct Pool<S> {
    states: RefCell<Vec<State>>,
    variants: RefCell<Vec<Variant<S>>>,
    lists: RefCell<Vec<Vec<Variant<S>>>>,
    first: RefCell<Vec<(TransId, Gate)>>,
    next: RefCell<Vec<(TransId, Gate)>>,
    log: RefCell<Vec<Touch>>,
    /// Elements to restore (access key, the step whose state has the old value) and
    /// ordering tokens written.
    pub restored: RefCell<Vec<(u64, usize)>>,
    pub tokens: RefCell<Vec<u64>>,
}

impl<S> Default for Pool<S> {
    fn default() -> Self {
        Pool {
            states: RefCell::new(Vec::with_capacity(POOL_MAX)),
            variants: RefCell::new(Vec::with_capacity(POOL_MAX)),
            lists: RefCell::new(Vec::with_capacity(POOL_MAX)),
            first: RefCell::default(),
            next: RefCell::default(),
            log: RefCell::default(),
            restored: RefCell::default(),
            tokens: RefCell::default(),
        }
    }
}

/// How many buffers of each kind the pool keeps.
const POOL_MAX: usize = 256;

impl<S: Clone> Pool<S> {
    /// A copy of `s`, in a recycled buffer when there is one.
    pub fn copy(&self, s: &State) -> State {
        match self.states.borrow_mut().pop() {
            Some(mut x) => {
                x.clone_from(s);
                x
            }
            None => s.clone(),
        }
    }

    /// A state buffer whose contents do not matter (recycled, or empty).
    pub fn spare(&self, like: &State) -> State {
        self.states
            .borrow_mut()
            .pop()
            .unwrap_or_else(|| like.hollow())
    }

    /// Takes back a state's buffer.
    pub fn recycle(&self, s: State) {
        let mut v = self.states.borrow_mut();
        if v.len() < POOL_MAX && !s.threads.is_empty() {
            v.push(s);
        }
    }

    /// Takes back a list of variants and the list.
    pub fn recycle_variants(&self, mut vs: Vec<Variant<S>>) {
        {
            let mut pool = self.variants.borrow_mut();
            for v in vs.drain(..) {
                if pool.len() < POOL_MAX {
                    pool.push(v);
                }
            }
        }
        let mut lists = self.lists.borrow_mut();
        // (A list that never held a variant has no buffer worth keeping.)
        if lists.len() < POOL_MAX && vs.capacity() > 0 {
            lists.push(vs);
        }
    }

    /// An empty list of variants.
    fn list(&self) -> Vec<Variant<S>> {
        self.lists.borrow_mut().pop().unwrap_or_default()
    }

    /// A variant at state `s` and guide state `g` that has done nothing yet.
    fn start(&self, s: &State, g: &S) -> Variant<S> {
        match self.variants.borrow_mut().pop() {
            Some(mut v) => {
                v.steps.clear();
                v.state.clone_from(s);
                v.guide = g.clone();
                v.acc.clear();
                v.spawned.clear();
                v.marks.clear();
                v.races.clear();
                v.ending = None;
                v.visible = false;
                v.back_edges = 0;
                v.loud = false;
                v.own_iterations = 0;
                v.read_input = false;
                v.inputs_read = 0;
                v.read_unused_input = false;
                v.stray = None;
                v
            }
            None => {
                let mut v = Variant::new(self.copy(s), g.clone());
                v.steps.reserve(8);
                v.acc.reserve(16);
                v.races.reserve(16);
                v
            }
        }
    }
}

impl<G: Guide> Stepper<'_, '_, G> {
    /// Every variant of thread `t`'s step from `s` under guide state `g`, at point `depth`:
    /// from the memo when it knows the step.
    pub fn variants(
        &self,
        g: &G::State,
        s: &State,
        t: ThreadId,
        depth: usize,
    ) -> Vec<Variant<G::State>> {
        use super::memo::Found;
        let Some(memo) = self.memo else {
            return self.compute(g, s, t, depth);
        };
        let alone = self.alone(s, t);
        let found = memo.borrow_mut().find(s, t, alone);
        match found {
            Found::Hit(i) => {
                let mut out = self.pool.list();
                let mut v = self.pool.start(s, g);
                memo.borrow().apply(i, &mut v);
                out.push(v);
                out
            }
            Found::Compute => self.compute(g, s, t, depth),
            Found::Miss => {
                self.m.start_recording(s.mem.len());
                let out = self.compute(g, s, t, depth);
                let rec = self.m.stop_recording();
                let input = out.iter().any(|v| v.read_input || v.read_unused_input);
                memo.borrow_mut().insert(s, t, alone, &rec, &out, input);
                out
            }
        }
    }

    /// [`Stepper::variants`], computed.
    fn compute(
        &self,
        g: &G::State,
        s: &State,
        t: ThreadId,
        depth: usize,
    ) -> Vec<Variant<G::State>> {
        let mut out = self.pool.list();
        let mut first = std::mem::take(&mut *self.pool.first.borrow_mut());
        first.clear();
        candidates(self.m, self.guide, g, s, t, &mut first);
        let n = first.len();
        if n == 0 {
            *self.pool.first.borrow_mut() = first;
            return out;
        }
        let mut start = Some(self.pool.start(s, g));
        for (i, (tr, gate)) in first.drain(..).enumerate() {
            let v = if i + 1 == n {
                start.take().expect("the start")
            } else {
                let x = start.as_ref().expect("the start");
                x.fork(self.pool)
            };
            self.extend(v, t, tr, gate, depth, &mut out);
        }
        *self.pool.first.borrow_mut() = first;
        for v in &mut out {
            // Every step needs the program to still run; ending it (`exit`, `main` returning,
            // a failed local assumption, an error) disables every other thread.
            let ends = v.ending.is_some();
            v.acc.push(Acc::token(ALIVE, ends));
            if self.tables.atomics() {
                v.acc.push(Acc {
                    key: super::race::ATOMIC_KEY,
                    write: false,
                });
            }
            v.acc.sort_unstable();
            v.acc.dedup();
        }
        out
    }
}

impl<S: Clone> Variant<S> {
    /// A variant at `state` and guide state `guide` that has done nothing yet.
    pub(crate) fn new(state: State, guide: S) -> Self {
        Variant {
            steps: Vec::new(),
            state,
            guide,
            acc: Vec::new(),
            spawned: Vec::new(),
            marks: Vec::new(),
            races: Vec::new(),
            ending: None,
            visible: false,
            back_edges: 0,
            loud: false,
            own_iterations: 0,
            read_input: false,
            inputs_read: 0,
            read_unused_input: false,
            stray: None,
        }
    }

    /// A copy in recycled buffers.
    fn fork(&self, pool: &Pool<S>) -> Self {
        let mut v = pool.start(&self.state, &self.guide);
        v.steps.clone_from(&self.steps);
        v.copy_outcome(self);
        v
    }

    /// Copies what `w` did besides its state, guide state and steps (in place).
    pub(crate) fn copy_outcome(&mut self, w: &Variant<S>) {
        self.acc.clone_from(&w.acc);
        self.spawned.clone_from(&w.spawned);
        self.marks.clone_from(&w.marks);
        self.races.clone_from(&w.races);
        self.ending.clone_from(&w.ending);
        self.visible = w.visible;
        self.back_edges = w.back_edges;
        self.loud = w.loud;
        self.own_iterations = w.own_iterations;
        self.read_input = w.read_input;
        self.inputs_read = w.inputs_read;
        self.read_unused_input = w.read_unused_input;
        self.stray = w.stray;
    }
}

/// [`union_acc`] as a sleep set keeps it (one buffer, none in between for the common
/// single variant).
pub(crate) fn union_acc_shared<S>(vs: &[Variant<S>]) -> std::sync::Arc<[Acc]> {
    match vs {
        [v] => v.acc.as_slice().into(),
        _ => union_acc(vs).into(),
    }
}

/// The accesses of all the variants, sorted, without repetitions.
pub(crate) fn union_acc<S>(vs: &[Variant<S>]) -> Vec<Acc> {
    let mut acc: Vec<Acc> = vs.iter().flat_map(|v| v.acc.iter().copied()).collect();
    acc.sort_unstable();
    acc.dedup();
    acc
}

impl<G: Guide> Stepper<'_, '_, G> {
    /// Runs transition `tr` (every input combination) from `v` and continues through
    /// invisible transitions; pushes the finished variants. A variant is copied only where
    /// the step branches (several input values, several enabled transitions).
    fn extend(
        &self,
        v: Variant<G::State>,
        t: ThreadId,
        tr: TransId,
        gate: Gate,
        depth: usize,
        out: &mut Vec<Variant<G::State>>,
    ) {
        let m = self.m;
        // The transition to run next; `work` holds the other branches (rare: inputs,
        // several enabled transitions).
        let mut cur = Some((v, tr, gate));
        let mut work = Vec::new();
        let mut next = std::mem::take(&mut *self.pool.next.borrow_mut());
        while let Some((v, tr, gate)) = cur.take().or_else(|| work.pop()) {
            // The common case runs in place: no input, one transition enabled after each.
            let (mut v, mut tr, mut gate) = (v, tr, gate);
            let slow = loop {
                if matches!(gate, Gate::Deviation(_))
                    || reads_input(m.prog.thread(t).transition(tr))
                {
                    break Some((v, tr, gate));
                }
                self.run_one(&mut v, t, tr, &gate, &[], true);
                self.run_private(&mut v, t);
                if !self.goes_on(&v, t, &mut next) {
                    out.push(v);
                    break None;
                }
                // The other branches wait on `work`, in the order the general case below
                // gives them.
                for (tr2, gate2) in next.drain(1..) {
                    work.push((v.fork(self.pool), tr2, gate2));
                }
                (tr, gate) = next.pop().expect("a transition");
            };
            let Some((v, tr, gate)) = slow else {
                continue;
            };
            if let Gate::Deviation(why) = gate {
                let mut w = v;
                w.steps.push(TraceStep::new(t, tr, vec![], true));
                w.ending = Some(Ending::Deviation(tr, why));
                out.push(w);
                continue;
            }
            // A transition that reads inputs: one variant per combination of their values.
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
                    input_values(self.inputs, ty, salt)
                })
                .collect();
            let (combos, every) = input_combinations(&domains);
            // One variant per combination of values, but one per distinct outcome: values
            // the transition overwrites (a register made up, then set where a pointer
            // comparison is exact, `frontend::llvm::pointers`) or does not tell apart make
            // the same state and accesses, and so the same executions.
            let variants: Vec<Variant<G::State>> = if combos == 1 {
                // (One variant: no other to compare with.)
                let vals: Vec<i128> = domains.iter().map(|d| d[0]).collect();
                let mut w = v;
                self.run_one(&mut w, t, tr, &gate, &vals, true);
                vec![w]
            } else {
                let mut ran: Vec<(Variant<G::State>, Vec<i128>)> = Vec::new();
                let mut combo = vec![0usize; domains.len()];
                for k in 0..combos {
                    let vals: Vec<i128> = if every {
                        combo.iter().zip(&domains).map(|(i, d)| d[*i]).collect()
                    } else {
                        domains.iter().map(|d| d[k % d.len()]).collect()
                    };
                    let mut w = v.fork(self.pool);
                    self.run_one(&mut w, t, tr, &gate, &vals, true);
                    self.forget_dead(&mut w, t);
                    continue_combos(&mut combo, &domains);
                    if ran.iter().any(|(r, _)| same_outcome(r, &w)) {
                        self.pool.recycle(w.state);
                        continue;
                    }
                    ran.push((w, vals));
                }
                if let [(_, vals)] = &ran[..] {
                    // Every value made the same outcome: the transition reads no input that
                    // matters, so the step goes on as after one that reads none.
                    let mut w = v;
                    self.run_one(&mut w, t, tr, &gate, vals, false);
                    self.forget_dead(&mut w, t);
                    w.read_unused_input = true;
                    for (r, _) in ran {
                        self.pool.recycle(r.state);
                    }
                    vec![w]
                } else {
                    self.pool.recycle(v.state);
                    ran.into_iter().map(|(w, _)| w).collect()
                }
            };
            for w in variants {
                if !self.goes_on(&w, t, &mut next) {
                    out.push(w);
                    continue;
                }
                let n = next.len();
                let mut w = Some(w);
                for (i, (tr2, gate2)) in next.drain(..).enumerate() {
                    let w2 = if i + 1 == n {
                        w.take().expect("the variant")
                    } else {
                        w.as_ref().expect("the variant").fork(self.pool)
                    };
                    // (With several input combinations, `cur` may be taken already.)
                    if cur.is_none() {
                        cur = Some((w2, tr2, gate2));
                    } else {
                        work.push((w2, tr2, gate2));
                    }
                }
            }
        }
        next.clear();
        *self.pool.next.borrow_mut() = next;
    }

    /// Runs thread `t` on through private locations ([`Tables::private`]) where exactly one
    /// transition is enabled: what [`Stepper::goes_on`] and [`Stepper::run_one`] would do
    /// there one transition at a time (such a location is local, so the step goes on; nothing
    /// is logged, no race event or mark is made), without evaluating each guard twice. Stops
    /// at the step's end or its local-step bound, at a location that is not private, and
    /// where no transition, several, or a guard that faults leave the choice to them.
    fn run_private(&self, w: &mut Variant<G::State>, t: ThreadId) {
        if self.marks {
            return;
        }
        let th = self.m.prog.thread(t);
        while w.ending.is_none() && w.steps.len() <= self.max_local {
            let Status::At(l) = w.state.threads[t.0 as usize] else {
                return;
            };
            if !self.tables.private(t, l) || w.state.atomic.is_some_and(|a| a != t) {
                return;
            }
            let mut chosen = None;
            for tr in th.outgoing(l) {
                match self.m.eval(&w.state, &tr.guard) {
                    Ok(0) => {}
                    Ok(_) if chosen.is_none() => chosen = Some(tr),
                    _ => return,
                }
            }
            let Some(x) = chosen else {
                return;
            };
            let r = self.m.execute_assignments(&mut w.state, t, x);
            w.steps.push(TraceStep::new(t, x.id, vec![], false));
            if let Err(f) = r {
                w.ending = Some(Ending::of_fault(x.id, &f));
            }
        }
    }

    /// Sets the registers of thread `t` that are dead where `w` left it to zero: values no
    /// path reads before writing them make no difference to the executions from there.
    fn forget_dead(&self, w: &mut Variant<G::State>, t: ThreadId) {
        if let Status::At(l) = w.state.threads[t.0 as usize] {
            for v in self.tables.live.dead(t, l) {
                w.state.mem.set_cell(v.0 as usize, 0, 0);
            }
        }
    }

    /// Executes one transition into `w`, with `vals` for its inputs; `inputs`: whether they
    /// count as read (not where every value makes the same outcome, [`same_outcome`]).
    fn run_one(
        &self,
        w: &mut Variant<G::State>,
        t: ThreadId,
        tr: TransId,
        gate: &Gate,
        vals: &[i128],
        inputs: bool,
    ) {
        let (m, guide) = (self.m, self.guide);
        let th = m.prog.thread(t);
        let x = th.transition(tr);
        if !self.local(t, x.src, w.back_edges) {
            w.visible = true;
        }
        w.loud |= !self.own(t, x.src, &w.state);
        if x.back_edge {
            if w.loud || w.own_iterations >= MAX_OWN_ITERATIONS {
                w.back_edges += 1;
            } else {
                w.own_iterations += 1;
            }
            w.loud = false;
        }
        if inputs && reads_input(x) {
            w.inputs_read += 1;
            // Each input value makes a variant of the step, so with `one_input` a step reads
            // one input: `k` inputs in one step would make `5^k` variants (with the default
            // domain) before the search could run any of them. Reading one then counts as the
            // step's visible transition (the step ends before the next input,
            // [`Stepper::continues`]). A loop that reads inputs starts its next iteration in
            // a step of its own.
            w.visible |= self.one_input;
            w.back_edges = MAX_ITERATIONS;
        }
        if matches!(gate, Gate::Skip) {
            // Subsumed by the schedule: the instrumented program does not perform it.
            w.state.threads[t.0 as usize] = Status::At(x.dst);
            w.steps.push(TraceStep::new(t, tr, vec![], true));
            return;
        }
        if !self.marks && self.tables.private(t, x.src) {
            // Only the thread's own memory: no access to log, no race event, no mark, and
            // it stays at an ordinary location.
            m.set_record_writes(false);
            let r = m.execute(&mut w.state, t, tr, &mut Fixed(vals, 0));
            m.set_record_writes(true);
            w.steps.push(TraceStep::new(t, tr, vec![], false));
            if let Err(f) = r {
                w.ending = Some(Ending::of_fault(tr, &f));
            }
            return;
        }
        let mut log = self.pool.log.borrow_mut();
        m.swap_log(&mut log);
        m.set_logging(true);
        m.set_record_writes(false);
        let r = m.execute(&mut w.state, t, tr, &mut Fixed(vals, 0));
        m.set_record_writes(true);
        m.set_logging(false);
        m.swap_log(&mut log);
        // Every element whose value changed (the thread's locals too: the fair scheduler asks
        // whether a loop iteration changed anything).
        let changes: Vec<(u64, i128, i128)> = if self.marks {
            log.iter()
                .filter(|a| a.write)
                .filter_map(|a| {
                    let now = w.state.mem.cell(a.var.0 as usize, a.index as usize) as i128;
                    (now != a.old).then(|| (Acc::memory(a.var, a.index, true).key, a.old, now))
                })
                .collect()
        } else {
            Vec::new()
        };
        w.acc.extend(
            log.iter()
                .filter(|a| a.visible)
                .map(|a| Acc::memory(a.var, a.index, a.write)),
        );
        if let Some(sync_vars) = self.tables.sync_vars() {
            // A synchronisation operation's accesses to synchronisation variables are
            // synchronisation accesses (so is ending the program); every other access is a
            // data access.
            let sync = matches!(x.kind, TransKind::Sync(_) | TransKind::Halt);
            for (k, a) in log.iter().enumerate().filter(|(_, a)| a.visible) {
                let key = Acc::memory(a.var, a.index, a.write).key;
                w.races.push(if sync && sync_vars[a.var.0 as usize] {
                    // A synchronisation read the transition follows with a write of the same
                    // element (a lock's test) adds nothing to the write (`race`).
                    if !a.write
                        && log[k + 1..]
                            .iter()
                            .any(|b| b.write && b.var == a.var && b.index == a.index)
                    {
                        continue;
                    }
                    Ev::Sync(key, a.write)
                } else {
                    Ev::Data(key, a.write)
                });
            }
            if sync {
                for o in &x.ops {
                    match o {
                        Op::Spawn { thread, .. } => w.races.push(Ev::Spawn(thread.0)),
                        Op::AtomicBegin | Op::AtomicEnd => {
                            w.races.push(Ev::Sync(super::race::ATOMIC_KEY, true));
                        }
                        _ => {}
                    }
                }
                w.races.push(Ev::EndSync);
            }
        }
        if x.begins_atomic() || x.ends_atomic() {
            // One lock for every atomic region, for the search too.
            w.acc.push(Acc {
                key: super::race::ATOMIC_KEY,
                write: true,
            });
        }
        if self.tables.unlocks()
            && matches!(
                x.kind,
                TransKind::Sync(SyncKind::Unlock | SyncKind::CondWaitRelease)
            )
        {
            // Steps run on through unlocks of held mutexes on the premise that no thread
            // releases a mutex it does not hold (unlock, or the release of
            // `pthread_cond_wait`); the search checks it.
            let me = crate::ir::lock_owner(t);
            let stray = log.iter().find(|a| {
                a.write && m.prog.var(a.var).elem == crate::ir::ElemKind::Mutex && a.old != me
            });
            if let Some(a) = stray {
                w.stray.get_or_insert(Acc::memory(a.var, a.index, true).key);
            }
        }
        drop(log);
        match r {
            Ok(step) => {
                w.read_input |= inputs && !step.inputs.is_empty();
                w.steps.push(TraceStep {
                    thread: t,
                    transition: tr,
                    inputs: step.inputs,
                    skipped: false,
                    writes: Vec::new(),
                });
            }
            Err(f) => {
                w.read_input |= inputs && !vals.is_empty();
                w.steps.push(TraceStep::new(t, tr, vals.to_vec(), false));
                w.ending = Some(Ending::of_fault(tr, &f));
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
        if self.marks {
            // (A timeout changes no synchronisation object either.)
            let failed_trylock = matches!(
                x.kind,
                TransKind::Sync(SyncKind::TryLock | SyncKind::TimedOut)
            ) && !changes
                .iter()
                .any(|c| m.prog.var(VarId((c.0 >> 32) as u32)).elem.is_sync());
            w.marks.push(Mark {
                back_edge: x.back_edge,
                yields: x.yields || failed_trylock,
                changes,
            });
        }
        match th.locations[x.dst.0 as usize].kind {
            LocKind::Error => w.ending = Some(Ending::Error(tr)),
            LocKind::Halt => w.ending = Some(Ending::Halted),
            LocKind::Discard => w.ending = Some(Ending::Discarded),
            _ => {}
        }
    }
}

/// Whether two variants of one transition's step (from one variant, with other values of
/// its inputs) end alike: the same state, accesses and everything the search reads of them
/// (but the inputs' values in the trace), and no ending (a bug keeps its own trace).
fn same_outcome<S>(a: &Variant<S>, b: &Variant<S>) -> bool {
    a.ending.is_none()
        && b.ending.is_none()
        && a.state == b.state
        && a.acc == b.acc
        && a.spawned == b.spawned
        && a.marks == b.marks
        && a.races == b.races
        && a.stray == b.stray
        && (
            a.visible,
            a.back_edges,
            a.loud,
            a.own_iterations,
            a.read_input,
        ) == (
            b.visible,
            b.back_edges,
            b.loud,
            b.own_iterations,
            b.read_input,
        )
}

/// Whether a transition reads inputs (`__VERIFIER_nondet_*`).
#[inline]
fn reads_input(x: &crate::ir::Transition) -> bool {
    x.ops.iter().any(|o| matches!(o, Op::Havoc { .. }))
}

/// Most combinations of input values one step runs: a step that reads more inputs (a
/// library call that fills a struct) runs each value of each input once instead.
pub(crate) const MAX_INPUT_COMBINATIONS: usize = 256;

/// How many variants a step with inputs of these domains runs, and whether they are every
/// combination of the values (otherwise the `k`-th variant gives each input its
/// `k mod size`-th value).
pub(crate) fn input_combinations(domains: &[Vec<i128>]) -> (usize, bool) {
    let every = domains
        .iter()
        .try_fold(1usize, |n, d| n.checked_mul(d.len()))
        .filter(|&n| n <= MAX_INPUT_COMBINATIONS);
    match every {
        Some(n) => (n, true),
        None => (domains.iter().map(Vec::len).max().unwrap_or(1), false),
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

/// What a search looks its steps up in: facts about each location of each thread, and about
/// each variable, that hold for the whole search. They are computed once per search (its
/// time includes them) in one pass over each thread's transitions, then its locations, into
/// flat tables (thread `t`'s location `l` at `base[t] + l`).
pub(crate) struct Tables {
    /// Where each thread's locations start in `flags` and `guard_vars`.
    base: Vec<usize>,
    /// Per location: which of [`LOCAL`], [`LOOP`], [`UNLOCK`], [`PRIVATE`], [`OWN`],
    /// [`OWN_JOIN`] and [`STUTTER`] hold.
    flags: Vec<u8>,
    /// Per location: [`Tables::guard_vars`].
    guard_vars: Vec<Option<u128>>,
    /// [`Tables::unlocks`].
    unlocks: bool,
    /// [`Tables::sync_vars`].
    sync_vars: Option<Vec<bool>>,
    /// [`Tables::atomics`].
    atomics: bool,
    /// The registers dead at each location ([`Stepper::forget_dead`]).
    live: crate::liveness::Liveness,
}

/// A location's flag: [`Tables::local`].
const LOCAL: u8 = 1;
/// A location's flag: [`Tables::loops`].
const LOOP: u8 = 2;
/// A location's flag: [`Tables::unlock`] (when [`Tables::unlocks`]).
const UNLOCK: u8 = 4;
/// A location's flag: [`Tables::private`].
const PRIVATE: u8 = 8;
/// A location's flag: [`Tables::own`].
const OWN: u8 = 16;
/// A location's flag: [`Tables::own_join`].
const OWN_JOIN: u8 = 32;
/// A location's flag: [`Tables::stutter`].
const STUTTER: u8 = 64;

/// A transition's fact, for its location's flags: [`crate::ir::Thread::local_transition`].
const T_LOCAL: u8 = 1;
/// A transition's fact: it only assigns and is a [`data_transition`], and it does not close a
/// loop.
const T_DATA: u8 = 2;
/// A transition's fact: it only assigns and is a [`data_transition`], closing a loop or not.
const T_DATA_LOOP: u8 = 4;
/// A transition's fact (computed only for a local transition when no guide gates
/// transitions): it only assigns, and every place it touches names a local no other thread
/// touches ([`Tables::private`]).
const T_QUIET: u8 = 8;
/// A transition's fact: an unlock a step may run on through ([`Tables::unlock`]).
const T_UNLOCK: u8 = 16;
/// A transition's fact (computed only when no guide gates transitions): a
/// [`data_transition`] or a local one, closing a loop or not, that only assigns, and every
/// place it touches names a local no other thread touches ([`Tables::own`]).
const T_OWN: u8 = 32;
/// A transition's fact (computed only when no guide gates transitions): a `pthread_join`
/// whose test of [`crate::ir::NO_THREAD`] and whose writes touch only locals no other thread
/// touches ([`Tables::own_join`]).
const T_OWN_JOIN: u8 = 64;

impl Tables {
    /// The tables of `m`'s program under `guide`; `coarse`: preempting only at
    /// synchronisation.
    pub fn new<G: Guide>(m: &Machine<'_>, guide: &G, coarse: bool) -> Self {
        use crate::ir::{LocId, Place, VarScope};
        let prog = m.prog;
        let gates_nothing = guide.gates_nothing();
        let n = prog.threads.iter().map(|th| th.locations.len()).sum();
        let mut tables = Tables {
            base: Vec::with_capacity(prog.threads.len()),
            flags: Vec::with_capacity(n),
            guard_vars: Vec::with_capacity(n),
            unlocks: coarse,
            sync_vars: coarse.then(|| vec![true; prog.vars.len()]),
            atomics: false,
            live: crate::liveness::Liveness::new(prog),
        };
        let own = |v: VarId| {
            let v = prog.var(v);
            !v.shared && matches!(v.scope, VarScope::Local(_))
        };
        // Per transition of the current thread: its `T_*` facts, and the variables its guard
        // reads (`None`: through a pointer).
        let mut facts: Vec<u8> = Vec::new();
        let mut guards: Vec<Option<u128>> = Vec::new();
        for th in &prog.threads {
            tables.base.push(tables.flags.len());
            facts.clear();
            guards.clear();
            // (Computed at the first `pthread_mutex_init` of `main`, once.)
            let mut reached: Option<Vec<bool>> = None;
            for tr in &th.transitions {
                let mut f = 0;
                if th.local_transition(tr) {
                    f |= T_LOCAL;
                }
                // The places an ordinary statement touches are data ([`Tables::sync_vars`]),
                // the variables a thread start's arguments go to too; whether all the places
                // a local transition touches are the thread's own ([`Tables::private`]).
                let mut data = tables
                    .sync_vars
                    .as_deref_mut()
                    .filter(|_| !matches!(tr.kind, TransKind::Sync(_) | TransKind::Halt));
                let mut own_only = gates_nothing && (f & T_LOCAL != 0 || data_transition(th, tr));
                let walk = data.is_some() || own_only;
                let mut visit = |p: &Place| match p {
                    Place::Var { var, .. } => {
                        if let Some(d) = data.as_deref_mut() {
                            d[var.0 as usize] = false;
                        }
                        own_only = own_only && own(*var);
                    }
                    Place::Deref { targets, .. } => {
                        if let Some(d) = data.as_deref_mut() {
                            for v in targets {
                                d[v.0 as usize] = false;
                            }
                        }
                        own_only = false;
                    }
                };
                // The variables the guard reads (`None`: through a pointer), for its
                // location's [`Tables::guard_vars`].
                let mut reads = Some(0);
                tr.guard.for_each_place(&mut |p| match p {
                    Place::Var { var, .. } => reads = reads.map(|r| r | super::var_bit(var.0)),
                    Place::Deref { .. } => reads = None,
                });
                if walk {
                    tr.for_each_access(&mut visit);
                }
                // Whether the operations only assign, and whether one begins an atomic region;
                // a thread start's arguments go to variables of the started thread.
                let assigns = tr.ops.iter().all(|o| matches!(o, Op::Assign { .. }));
                let begins_atomic = tr.begins_atomic();
                for o in &tr.ops {
                    if let Op::Spawn { args, .. } = o {
                        for (v, _) in args {
                            visit(&Place::Var {
                                var: *v,
                                index: None,
                            });
                        }
                    }
                }
                if own_only && assigns {
                    f |= T_OWN;
                    if f & T_LOCAL != 0 {
                        f |= T_QUIET;
                    }
                }
                if gates_nothing && assigns {
                    if let Some(test) = tr.joins_no_thread() {
                        // The places the test reads and the join writes (with those their
                        // indexes read) each name such a local.
                        let mut ok = true;
                        let mut check = |p: &Place| {
                            ok &= matches!(p, Place::Var { var, .. } if own(*var));
                        };
                        test.for_each_place(&mut check);
                        for o in &tr.ops {
                            if let Op::Assign { place, .. } = o {
                                check(place);
                                place.for_each_subexpr(&mut |e| e.for_each_place(&mut check));
                            }
                        }
                        if ok {
                            f |= T_OWN_JOIN;
                        }
                    }
                }
                tables.atomics |= begins_atomic;
                if tables.unlocks
                    && (matches!(
                        tr.kind,
                        TransKind::Sync(SyncKind::TryLock | SyncKind::TimedOut)
                    ) || begins_atomic
                        || (tr.kind == TransKind::Sync(SyncKind::MutexInit)
                            && (th.id.0 != 0
                                || reached.get_or_insert_with(|| {
                                    th.reached_after(|tr| {
                                        tr.ops.iter().any(|o| matches!(o, Op::Spawn { .. }))
                                    })
                                })[tr.src.0 as usize])))
                {
                    tables.unlocks = false;
                }
                if assigns && data_transition(th, tr) {
                    f |= T_DATA_LOOP;
                    if !tr.back_edge {
                        f |= T_DATA;
                    }
                }
                if tr.kind == TransKind::Sync(SyncKind::Unlock)
                    && !tr.may_block
                    && assigns
                    && tr.ops.len() == 1
                    && th.locations[tr.dst.0 as usize].kind == LocKind::Normal
                {
                    f |= T_UNLOCK;
                }
                facts.push(f);
                guards.push(reads);
            }
            for (l, loc) in th.locations.iter().enumerate() {
                // The facts every transition there has (none where there is none), and the
                // variables their guards read.
                let (mut all, mut reads) = (!0, Some(0));
                for tr in &loc.out {
                    all &= facts[tr.0 as usize];
                    reads = reads.zip(guards[tr.0 as usize]).map(|(a, b)| a | b);
                }
                if loc.out.is_empty() {
                    all = 0;
                }
                let local_location = all & T_LOCAL != 0;
                let mut flags = 0;
                if guide
                    .invisible(th.id, LocId(l as u32))
                    .unwrap_or(local_location || (coarse && all & T_DATA != 0))
                {
                    flags |= LOCAL;
                }
                if coarse && all & T_DATA_LOOP != 0 {
                    flags |= LOOP;
                }
                if loc.out.len() == 1 && all & T_UNLOCK != 0 {
                    flags |= UNLOCK;
                }
                if gates_nothing && local_location && all & T_QUIET != 0 {
                    flags |= PRIVATE;
                }
                if all & T_OWN != 0 {
                    flags |= OWN;
                }
                if loc.out.len() == 1 && all & T_OWN_JOIN != 0 {
                    flags |= OWN_JOIN;
                }
                if gates_nothing && loc.out.len() == 1 && all & T_OWN != 0 {
                    let tr = th.transition(loc.out[0]);
                    let scalars = tr.ops.iter().all(|o| {
                        matches!(
                            o,
                            Op::Assign {
                                place: Place::Var { index: None, .. },
                                ..
                            }
                        )
                    });
                    if tr.dst.0 as usize == l && scalars {
                        flags |= STUTTER;
                    }
                }
                tables.flags.push(flags);
                tables.guard_vars.push(reads);
            }
        }
        tables
    }

    /// Where location `l` of thread `t` is in the per-location tables.
    #[inline]
    fn at(&self, t: ThreadId, l: crate::ir::LocId) -> usize {
        self.base[t.0 as usize] + l.0 as usize
    }

    /// Whether every transition at location `l` of thread `t` is invisible to other threads
    /// (as the guide says, else as the program says). Preempting only at synchronisation
    /// ([`super::race`]), data accesses count as invisible too: a location is local unless a
    /// transition there synchronises, may block, or ends the thread or the program (it is
    /// then a data location, [`data_transition`], without loop back edges).
    #[inline]
    pub fn local(&self, t: ThreadId, l: crate::ir::LocId) -> bool {
        self.flags[self.at(t, l)] & LOCAL != 0
    }

    /// Whether, preempting only at synchronisation, location `l` of thread `t` is a data
    /// location ([`data_transition`]) whose transitions may close a loop (local up to
    /// [`MAX_ITERATIONS`] per step).
    #[inline]
    pub fn loops(&self, t: ThreadId, l: crate::ir::LocId) -> bool {
        self.flags[self.at(t, l)] & LOOP != 0
    }

    /// Whether, when no guide gates transitions, every transition at location `l` of thread
    /// `t` touches only the thread's own memory, reads no input and stays at an ordinary
    /// location ([`crate::ir::Thread::local_location`]), and names every variable it touches
    /// (no access through a pointer) as a local no other thread touches, so that running it
    /// needs no access log: the log would hold nothing the search reads. (Not trusting the
    /// points-to analysis here: the log records the elements a dereference really reaches.)
    #[inline]
    pub fn private(&self, t: ThreadId, l: crate::ir::LocId) -> bool {
        self.flags[self.at(t, l)] & PRIVATE != 0
    }

    /// Whether, when no guide gates transitions, every transition at location `l` of thread
    /// `t` is a data or local transition (closing a loop or not) that only assigns, and names
    /// every place it touches as a local no other thread touches: no other thread can tell
    /// whether it ran, so a loop of such transitions need not end a step
    /// ([`MAX_OWN_ITERATIONS`]).
    #[inline]
    pub fn own(&self, t: ThreadId, l: crate::ir::LocId) -> bool {
        self.flags[self.at(t, l)] & OWN != 0
    }

    /// Whether, when no guide gates transitions, location `l` of thread `t` has one
    /// transition, back to `l`, that only assigns to scalars no other thread touches (a
    /// loop of refused thread creations, `while (1);`): where it leaves them as they are
    /// ([`stutters`]), the thread repeats it for ever and no other thread can tell.
    #[inline]
    pub fn stutter(&self, t: ThreadId, l: crate::ir::LocId) -> bool {
        self.flags[self.at(t, l)] & STUTTER != 0
    }

    /// Whether, when no guide gates transitions, location `l` of thread `t` has one
    /// transition, a `pthread_join` whose test of [`crate::ir::NO_THREAD`]
    /// ([`crate::ir::Transition::joins_no_thread`]) and whose writes touch only locals no
    /// other thread touches: where the test holds, the join reads nothing another thread
    /// writes and returns at once ([`Stepper::joins_no_thread`]).
    #[inline]
    pub fn own_join(&self, t: ThreadId, l: crate::ir::LocId) -> bool {
        self.flags[self.at(t, l)] & OWN_JOIN != 0
    }

    /// Whether steps may run on through unlocks ([`Tables::unlock`]): preempting only at
    /// synchronisation, in a program without `pthread_mutex_trylock`, atomic regions, or a
    /// `pthread_mutex_init` that may run once `main` has started a thread.
    #[inline]
    pub fn unlocks(&self) -> bool {
        self.unlocks
    }

    /// With [`Tables::unlocks`]: whether the one transition at location `l` of thread `t` is
    /// `pthread_mutex_unlock`, so that a step may run on through it when the thread holds
    /// the mutex ([`Stepper::held_unlock`]).
    ///
    /// Why this keeps every error, deadlock and data race (seed 003's Theorems 2 and 3
    /// schedule before every synchronisation access, unlocks included): let thread `p` be
    /// preempted right before unlocking mutex `m`, which it holds. Until `p` unlocks `m`,
    /// other threads can only try to lock `m` and block: no trylock reads `m`; no atomic
    /// region lets a thread blocked on `m` stop every other thread; no
    /// `pthread_mutex_init` runs while threads run; and that no thread releases a mutex it
    /// does not hold (an unlock, or `pthread_cond_wait`, of another thread's mutex or a free
    /// one) is what the search checks, [`Variant::stray`]. So the other threads' steps there
    /// are independent of the unlock and happen the same after it: the preemption may move
    /// past the unlock (and past the thread's invisible transitions and held unlocks after
    /// it, up to its next scheduling point, by the same argument for each) without changing
    /// the state reached or the happens-before order. The search starts again with every
    /// shared access a scheduling point when it sees a stray release. If some execution has
    /// one, this search sees one: before the first one, `u` by thread `q`, the premise
    /// holds, so the execution up to `u`, with each thread inside a step run on to its next
    /// scheduling point (those transitions cannot block; `q` is not among them), is
    /// equivalent to one of this search; there `u` is enabled, `m` was changed by the same
    /// operations in the same order up to `u`, and `q` does not hold it.
    #[inline]
    pub fn unlock(&self, t: ThreadId, l: crate::ir::LocId) -> bool {
        self.unlocks && self.flags[self.at(t, l)] & UNLOCK != 0
    }

    /// The variables the guards at location `l` of thread `t` read, as a set of
    /// [`super::var_bit`]s (`None`: through a pointer).
    #[inline]
    pub fn guard_vars(&self, t: ThreadId, l: crate::ir::LocId) -> Option<u128> {
        self.guard_vars[self.at(t, l)]
    }

    /// Preempting only at synchronisation: per variable, whether only synchronisation
    /// operations touch it (a mutex, a condition variable's waiters, a barrier, a thread's
    /// `__thread_done` flag); the memory ordinary statements touch too (the `pthread_t` that
    /// `pthread_create` writes, a thread's argument) is data.
    #[inline]
    pub fn sync_vars(&self) -> Option<&[bool]> {
        self.sync_vars.as_deref()
    }

    /// Whether the program has atomic regions.
    #[inline]
    pub fn atomics(&self) -> bool {
        self.atomics
    }
}

/// Whether transition `tr` of `th`, whose operations are all assignments (so that it reads
/// no input: each input value makes a variant of the step, and a step through many inputs
/// would have exponentially many), only computes and accesses data: no synchronisation, no
/// waiting, and it stays in the thread (a failed assertion or local assumption ends the
/// execution there). A data location has transitions, all of them such, closing no loop
/// unless it counts its loop iterations ([`Tables::loops`]).
fn data_transition(th: &crate::ir::Thread, tr: &crate::ir::Transition) -> bool {
    matches!(
        tr.kind,
        TransKind::Stmt
            | TransKind::Branch
            | TransKind::Assume
            | TransKind::AssumeFail
            | TransKind::Error(_)
    ) && !tr.may_block
        && matches!(
            th.locations[tr.dst.0 as usize].kind,
            LocKind::Normal | LocKind::Error | LocKind::Discard
        )
}

/// Loop iterations of data locations one step may run when preempting only at
/// synchronisation (the next iteration starts a new step: a long or endless loop is not one
/// step).
pub(crate) const MAX_ITERATIONS: u32 = 16;

/// The most transitions that read inputs in one step, in a search whose steps may read
/// several ([`Stepper::one_input`]): each value makes a variant, so a system call that fills
/// a buffer of `n` arbitrary bytes would make `5^n` variants (with the default domain)
/// before the search could run any of them. The step ends before the next input instead, a
/// point at which the search may also switch threads. A preemption bound counts a switch
/// there, so an execution may need more preemptions than it did with the step whole (a
/// switch away from the whole step, blocked at its next synchronisation, is none).
pub(crate) const MAX_INPUTS: u32 = 3;

/// Loop iterations that touch only the thread's own memory ([`Stepper::own`]) one step may
/// run on top of [`MAX_ITERATIONS`]: no other thread can tell them apart from one step (a
/// loop of refused thread creations or of joins of their ids, say), but a loop that never
/// ends still ends the step.
pub(crate) const MAX_OWN_ITERATIONS: u32 = 1 << 10;

impl<G: Guide> Stepper<'_, '_, G> {
    /// Whether location `l` of thread `t` is local in a step that has taken `back_edges`
    /// loop back edges: [`Tables::local`], or, preempting only at synchronisation, a data
    /// location whose back edges count ([`Tables::loops`], [`MAX_ITERATIONS`]).
    pub fn local(&self, t: ThreadId, l: crate::ir::LocId, back_edges: u32) -> bool {
        self.tables.local(t, l) || (self.tables.loops(t, l) && back_edges < MAX_ITERATIONS)
    }

    /// Whether the step goes on after `w` ([`Stepper::continues`], not ended, within the
    /// local-step bound); if so, `next` holds the transitions it can take (there are some).
    fn goes_on(&self, w: &Variant<G::State>, t: ThreadId, next: &mut Vec<(TransId, Gate)>) -> bool {
        if w.ending.is_some() || !self.continues(w, t) || w.steps.len() > self.max_local {
            return false;
        }
        next.clear();
        candidates(self.m, self.guide, &w.guide, &w.state, t, next);
        !next.is_empty()
    }

    /// Whether thread `t`'s transitions at location `l` touch only its own memory in state
    /// `s` ([`Tables::own`], or a join that returns at once, [`Stepper::joins_no_thread`]),
    /// without fair-scheduler marks.
    fn own(&self, t: ThreadId, l: crate::ir::LocId, s: &State) -> bool {
        !self.marks && (self.tables.own(t, l) || self.joins_no_thread(t, l, s))
    }

    /// Whether thread `t` is at a `pthread_join` of [`crate::ir::NO_THREAD`] (the id a
    /// creation refused for the thread bound leaves) in state `s`, read from its own locals
    /// ([`Tables::own_join`]): the join returns `ESRCH` at once and touches nothing another
    /// thread touches, so it is invisible to them, and need not be a scheduling point.
    fn joins_no_thread(&self, t: ThreadId, l: crate::ir::LocId, s: &State) -> bool {
        if self.marks || !self.tables.own_join(t, l) {
            return false;
        }
        let test = self
            .m
            .prog
            .thread(t)
            .outgoing(l)
            .next()
            .and_then(|tr| tr.joins_no_thread());
        matches!(test.map(|e| self.m.eval(s, e)), Some(Ok(v)) if v != 0)
    }

    /// Whether the step goes on after `w`: until it has run a visible transition (one from
    /// a location that is not local, or with [`Stepper::one_input`] one that reads an input),
    /// then while the thread is inside an atomic region or at a location whose transitions
    /// are all invisible to other threads, but with `one_input` not into a second input
    /// (`run_one`).
    fn continues(&self, w: &Variant<G::State>, t: ThreadId) -> bool {
        let Status::At(l) = w.state.threads[t.0 as usize] else {
            return false;
        };
        let th = self.m.prog.thread(t);
        if th.locations[l.0 as usize].kind != LocKind::Normal {
            return false;
        }
        if (self.one_input || w.inputs_read >= MAX_INPUTS)
            && w.read_input
            && th.outgoing(l).any(reads_input)
        {
            // One input per step (`run_one`), inside an atomic region too (a region cut into
            // steps still shuts the other threads out); at most `MAX_INPUTS` in any search.
            return false;
        }
        if w.state.atomic == Some(t) || !w.visible {
            return true;
        }
        self.local(t, l, w.back_edges)
            || self.joins_no_thread(t, l, &w.state)
            || self.held_unlock(t, l, &w.state)
            || self.at_exit(t, l)
            || (w.steps.len() < MAX_ALONE && !w.read_input && self.alone(&w.state, t))
    }

    /// Whether thread `t` is at its end (returning from its start function, or
    /// `pthread_exit`), when that need not be a scheduling point: preempting only at
    /// synchronisation, in a program without atomic regions. The end publishes
    /// `__thread_done` of the thread, which only `pthread_join` of it reads, and a join waits
    /// for it; so until the thread ends, the other threads' steps are independent of its end
    /// and happen the same after it (the argument of [`Tables::unlock`] for a held mutex, with
    /// `pthread_join` for the lock: no operation reads the flag without waiting for it). An
    /// atomic region could shut the thread out while a thread inside it waits to join it (a
    /// deadlock the end moved earlier would miss), hence none.
    fn at_exit(&self, t: ThreadId, l: crate::ir::LocId) -> bool {
        if self.tables.sync_vars().is_none() || self.tables.atomics() {
            return false;
        }
        let mut out = self.m.prog.thread(t).outgoing(l);
        matches!(out.next(), Some(tr) if tr.kind == TransKind::Sync(SyncKind::ThreadExit))
            && out.next().is_none()
    }

    /// Whether thread `t` is the only thread started in `s`. A scheduling point then offers
    /// no choice (no other thread exists to run, to race with, or to be woken), so the step
    /// goes on through it: `main` initialising before it starts its threads is one step
    /// instead of one per operation (but not on after the step has read an input: each
    /// input value makes a variant of the step, so `k` inputs in one step would make `5^k`
    /// variants with the default domain before the search could run any). What it does
    /// happens before every other thread's steps, so the partial-order reduction finds no
    /// race with it either way. (Only before the others start: a step of `main` once they
    /// have all returned, joining them, would read every thread's end at once and race with
    /// each, where one join step per thread races with one; and not under the fair
    /// scheduler, whose priorities count the steps between yields.) The memo keys steps by it ([`super::memo::Memo::find`]): the other threads'
    /// statuses are no memory the step reads.
    pub(crate) fn alone(&self, s: &State, t: ThreadId) -> bool {
        !self.marks
            && s.threads
                .iter()
                .enumerate()
                .all(|(u, st)| u == t.0 as usize || *st == Status::NotStarted)
    }

    /// Whether thread `t` is at an unlock of a mutex it holds that need not be a scheduling
    /// point ([`Tables::unlock`]).
    fn held_unlock(&self, t: ThreadId, l: crate::ir::LocId, s: &State) -> bool {
        if !self.tables.unlock(t, l) {
            return false;
        }
        let Some(tr) = self.m.prog.thread(t).outgoing(l).next() else {
            return false;
        };
        let [Op::Assign { place, .. }] = tr.ops.as_slice() else {
            return false;
        };
        match self.m.place(s, place) {
            Ok((v, i)) => {
                self.tables.sync_vars().is_some_and(|sv| sv[v.0 as usize])
                    && self.m.read_cell(s, v, i) == t.0 as i64 + 1
            }
            Err(_) => false,
        }
    }
}
