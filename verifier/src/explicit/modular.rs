//! Safety for any number of threads: a thread-modular proof (Flanagan and Qadeer,
//! "Thread-Modular Model Checking", after Owicki and Gries's and Jones's rely-guarantee
//! reasoning). A program that starts threads in a loop is verified by the engines with at most
//! `--max-threads` of them ([`Program::thread_bound`]), and their `safe` holds only under that
//! bound. This module shows it without the bound, for programs whose threads interact through
//! shared memory, mutexes and joins.
//!
//! It works on the program lowered with one thread per start function (a small scope,
//! [`crate::scope`]), whose thread of each start function stands for every thread of that
//! function: the one it tracks and, where the program starts more (creations the scope
//! refuses, [`Transition::refusal`]), any number of *replicas*. The states it computes are
//! *views*: the shared memory and one thread's own memory and location. Each thread's views
//! are closed under its own steps and under the *guarantee* of the threads around it: every
//! change of the shared memory a step of a thread of a function makes in one of its views
//! (replicas included: a replica's steps are those of its function's views). In views, a
//! mutex held by the thread itself, by another thread of its function, or by a thread of
//! another function are told apart, so that a replica cannot release the lock its viewer
//! holds. A step that reads nothing shared needs no interleaving with the others' changes
//! (they commute with it), so only views at a shared access are closed under them.
//!
//! Every execution of the program, with any number of threads started, projects to views of
//! each of its threads, so no view reaching the error location means no execution does. The
//! views also show the program free of deadlocks: a thread only ever waits for a mutex or a
//! join; no thread ends holding a mutex, none joins holding one, only `main` joins, and the
//! order in which threads take mutexes (a mutex held while another is taken) has no cycle.
//!
//! Where the program is outside what this covers (condition variables, barriers, atomic
//! regions, threads that read their own id or an address as a number, a thread id used other
//! than to join, a replicated thread that allocates or is started with varying arguments, a
//! thread's own memory reached by another thread, an input whose value decides more than
//! equalities with constants, a view at the error location), the answer is the reason it
//! cannot show safety; that says nothing about the program.

use super::space::{Key, Space};
use super::store::Store;
use crate::interp::{self, Choice, Oracle, Status};
use crate::ir::{
    decode_address, BinOp, ElemKind, Expr, LocKind, Op, Place, Program, Refusal, SyncKind,
    ThreadId, TransId, TransKind, Ty, UnOp, VarId, VarScope,
};
use rustc_hash::{FxHashMap, FxHashSet};
use std::time::Instant;

/// What the proof found: it holds for any number of threads of the functions named.
#[derive(Clone, Debug)]
pub struct Proof {
    /// Views computed, over all threads.
    pub views: usize,
    /// Distinct changes of the shared memory in the guarantees.
    pub guarantees: usize,
    /// The start functions the program may start any number of threads of.
    pub replicated: Vec<String>,
}

/// Who a cell belongs to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Owner {
    Shared,
    Local(ThreadId),
}

/// The value of an input whose value is not known (it decides nothing, or the proof ends): one
/// that is no thread id, so that a join of an id computed from it is seen.
const NOT_KNOWN: i128 = 0x5eed_5eed_5eed;

/// Most steps of a run that touches nothing shared followed without keeping a view.
const MAX_RUN: usize = 4096;

/// The views one thread's steps lead to from one view.
struct Successors {
    views: Vec<Key>,
    /// Some step (or guard) read or wrote shared memory.
    visible: bool,
}

/// A step's effect on the views.
struct Stepped {
    key: Key,
    /// It read or wrote shared memory.
    visible: bool,
    /// The cells it wrote.
    written: Vec<u32>,
}

/// An input oracle with given values for the inputs of a step, in order; uninitialised memory
/// reads 0 (and is not known: the marks say so).
struct Given {
    values: Vec<i128>,
    next: usize,
}

impl Oracle for Given {
    fn pick(&mut self, _: usize, _: &[(ThreadId, TransId)]) -> Choice {
        Choice::End
    }
    fn input(&mut self, _: Ty) -> i128 {
        let v = self.values.get(self.next).copied().unwrap_or(0);
        self.next += 1;
        v
    }
    fn initial(&mut self, _: VarId, _: usize, _: Ty) -> i128 {
        0
    }
}

/// Shows the program (lowered with one thread per start function) safe and free of deadlocks
/// for any number of threads of each start function it starts more than once; `Err` says why
/// it cannot. Gives up at `deadline` or beyond `max_views` views.
pub fn prove(prog: &Program, deadline: Instant, max_views: usize) -> Result<Proof, String> {
    let shape = Shape::of(prog)?;
    let space = Space::new(prog);
    let mut m = Modular::new(prog, &space, shape);
    m.run(deadline, max_views)?;
    Ok(Proof {
        views: m.views.iter().map(|v| v.store.len()).sum(),
        guarantees: m.guarantee.iter().map(|g| g.pairs.len()).sum(),
        replicated: (0..prog.threads.len())
            .filter(|&t| m.shape.replicated[t])
            .map(|t| prog.threads[t].function.clone())
            .collect(),
    })
}

/// What the program must be for the proof, and what it takes from it.
struct Shape {
    /// Per thread: the program may start any number of threads of its function.
    replicated: Vec<bool>,
    /// Per start function: its thread.
    template: FxHashMap<String, ThreadId>,
    /// Per variable written by an input whose value only meets equalities with constants:
    /// values that stand for all (each constant, and one that is none of them).
    enumerated: FxHashMap<VarId, Vec<i128>>,
}

impl Shape {
    fn of(prog: &Program) -> Result<Shape, String> {
        if prog.observes_numbering {
            return Err("the program can tell how threads or objects are numbered".into());
        }
        if prog.has_atomic_regions() {
            return Err("atomic regions".into());
        }
        if let Some(v) = prog
            .vars
            .iter()
            .find(|v| matches!(v.elem, ElemKind::Cond | ElemKind::Barrier))
        {
            return Err(format!("`{}`: condition variables and barriers", v.name));
        }
        let mut template = FxHashMap::default();
        for th in prog.threads.iter().skip(1) {
            template.entry(th.function.clone()).or_insert(th.id);
        }
        let mut replicated = vec![false; prog.threads.len()];
        let mut args: FxHashMap<String, Option<String>> = FxHashMap::default();
        for th in &prog.threads {
            for tr in &th.transitions {
                if let TransKind::Sync(k) = tr.kind {
                    use SyncKind::*;
                    // (`Atomic`: one step, as a read-modify-write or a recursive relock.)
                    if !matches!(
                        k,
                        MutexInit
                            | Lock
                            | TryLock
                            | Unlock
                            | Spawn
                            | Join
                            | ThreadExit
                            | Yield
                            | Atomic
                    ) {
                        return Err(format!("synchronisation by {k:?}"));
                    }
                    if k == Join && th.id.0 != 0 {
                        return Err(format!("a join in `{}`", th.name));
                    }
                }
                if tr.spawned().is_none() && tr.refusal.is_none() {
                    continue;
                }
                let Some(start) = &tr.starts else {
                    return Err("a thread creation without its start function".into());
                };
                let Some(&t) = template.get(&start.function) else {
                    return Err(format!("no thread of `{}`", start.function));
                };
                match tr.refusal {
                    Some(Refusal::ResultRead) => {
                        return Err("the result of a refused creation is read".into())
                    }
                    Some(Refusal::ResultUnread) => replicated[t.0 as usize] = true,
                    None => {}
                }
                if tr.spawned().is_some_and(|c| c != t) {
                    // A second thread of the function (a scope with more than one).
                    return Err(format!("two threads of `{}`", start.function));
                }
                if let Some(Op::Spawn { args: a, .. }) =
                    tr.ops.iter().find(|o| matches!(o, Op::Spawn { .. }))
                {
                    if !a.is_empty() {
                        args.insert(start.function.clone(), None);
                    }
                }
                let e = args
                    .entry(start.function.clone())
                    .or_insert_with(|| start.arg.clone());
                if *e != start.arg {
                    *e = None;
                }
            }
        }
        // A thread started by a thread of a function started many times is started as
        // often.
        let mut changed = true;
        while changed {
            changed = false;
            for th in &prog.threads {
                if let Some((creator, _)) = th.created_by {
                    if replicated[creator.0 as usize] && !replicated[th.id.0 as usize] {
                        replicated[th.id.0 as usize] = true;
                        changed = true;
                    }
                }
            }
        }
        // The memory of a function's thread stands for every thread of the function's: its
        // address, once taken, may reach another of them.
        let mut taken = FxHashSet::default();
        for tr in prog.threads.iter().flat_map(|t| &t.transitions) {
            tr.for_each_expr(&mut |e| {
                e.for_each_addr(&mut |v| {
                    taken.insert(v);
                })
            });
        }
        for v in taken {
            if let VarScope::Local(t) = prog.var(v).scope {
                if replicated[t.0 as usize] {
                    return Err(format!(
                        "the address of `{}` is taken in a thread started many times",
                        prog.var(v).name
                    ));
                }
            }
        }
        for (f, &t) in &template {
            if replicated[t.0 as usize] && !matches!(args.get(f), Some(Some(_))) {
                return Err(format!(
                    "threads of `{f}` started with arguments that differ or are computed"
                ));
            }
        }
        Ok(Shape {
            replicated,
            template,
            enumerated: enumerated_inputs(prog),
        })
    }
}

/// The variables only inputs write whose values are only compared for equality with
/// constants (or tested for zero): per variable, each constant and a value none of them is,
/// which between them behave as every value does.
fn enumerated_inputs(prog: &Program) -> FxHashMap<VarId, Vec<i128>> {
    let mut candidates: FxHashMap<VarId, Vec<i128>> = FxHashMap::default();
    for tr in prog.threads.iter().flat_map(|t| &t.transitions) {
        for op in &tr.ops {
            if let Op::Havoc {
                place: Place::Var { var, index: None },
                ..
            } = op
            {
                let v = prog.var(*var);
                if matches!(v.scope, VarScope::Local(_)) && v.len == 1 {
                    candidates.insert(*var, Vec::new());
                }
            }
        }
    }
    let mut bad = FxHashSet::default();
    for tr in prog.threads.iter().flat_map(|t| &t.transitions) {
        uses(prog, &tr.guard, true, &mut candidates, &mut bad);
        for op in &tr.ops {
            match op {
                Op::Assign { place, value } => {
                    uses(prog, value, false, &mut candidates, &mut bad);
                    place_uses(prog, place, &mut candidates, &mut bad);
                }
                Op::Havoc { place, .. } => place_uses(prog, place, &mut candidates, &mut bad),
                Op::Spawn { args, .. } => {
                    for (_, e) in args {
                        uses(prog, e, false, &mut candidates, &mut bad);
                    }
                }
                Op::AtomicBegin | Op::AtomicEnd => {}
            }
        }
    }
    candidates
        .into_iter()
        .filter(|(v, _)| !bad.contains(v))
        .map(|(v, mut consts)| {
            let ty = prog.var(v).elem.ty();
            for c in &mut consts {
                *c = ty.wrap(*c);
            }
            consts.sort_unstable();
            consts.dedup();
            let other = (0..).map(|k| ty.wrap(k)).find(|x| !consts.contains(x));
            consts.extend(other);
            (v, consts)
        })
        .collect()
}

/// The candidate read by `e` directly (a load of the whole scalar in its own type: a
/// narrower load would tell apart values the constants do not).
fn loaded(prog: &Program, e: &Expr, candidates: &FxHashMap<VarId, Vec<i128>>) -> Option<VarId> {
    match e {
        Expr::Load {
            place: Place::Var { var, index: None },
            ty,
        } if candidates.contains_key(var) && *ty == prog.var(*var).elem.ty() => Some(*var),
        _ => None,
    }
}

/// Records how `e` uses the candidates: `zero_test` says that `e`'s value is only tested for
/// zero. A use other than a test for zero or an equality with a constant marks it `bad`.
fn uses(
    prog: &Program,
    e: &Expr,
    zero_test: bool,
    candidates: &mut FxHashMap<VarId, Vec<i128>>,
    bad: &mut FxHashSet<VarId>,
) {
    if let Some(v) = loaded(prog, e, candidates) {
        if zero_test {
            candidates.get_mut(&v).expect("candidate").push(0);
        } else {
            bad.insert(v);
        }
        return;
    }
    match e {
        Expr::Const { .. } => {}
        Expr::Load { place, .. } => place_uses(prog, place, candidates, bad),
        Expr::AddrOf { var, index } => {
            bad.insert(*var);
            uses(prog, index, false, candidates, bad);
        }
        Expr::Unary { op, arg, .. } => uses(prog, arg, *op == UnOp::Not, candidates, bad),
        Expr::Binary { op, lhs, rhs, .. } => {
            if matches!(op, BinOp::Eq | BinOp::Ne) {
                for (a, b) in [(lhs, rhs), (rhs, lhs)] {
                    if let (Some(v), Some(c)) = (loaded(prog, a, candidates), b.as_const()) {
                        candidates.get_mut(&v).expect("candidate").push(c);
                        return;
                    }
                }
            }
            let logical = matches!(op, BinOp::And | BinOp::Or);
            uses(prog, lhs, logical, candidates, bad);
            uses(prog, rhs, logical, candidates, bad);
        }
        Expr::Cast { arg, .. } => uses(prog, arg, false, candidates, bad),
        Expr::Ite {
            cond, then, els, ..
        } => {
            uses(prog, cond, true, candidates, bad);
            uses(prog, then, false, candidates, bad);
            uses(prog, els, false, candidates, bad);
        }
    }
}

/// The uses of the candidates in a place's index and address expressions.
fn place_uses(
    prog: &Program,
    p: &Place,
    candidates: &mut FxHashMap<VarId, Vec<i128>>,
    bad: &mut FxHashSet<VarId>,
) {
    let mut subs = Vec::new();
    p.for_each_subexpr(&mut |e| subs.push(e));
    for e in subs {
        uses(prog, e, false, candidates, bad);
    }
}

/// Marks the cells `r` known in `marks` ([`interp::unknown_bytes`]: a byte per cell, eight
/// cells a word).
fn clear_marks(marks: &mut [u64], r: std::ops::Range<usize>) {
    let mut f = r.start;
    while f < r.end {
        if f & 7 == 0 && f + 8 <= r.end && f / 8 < marks.len() {
            marks[f / 8] = 0;
            f += 8;
        } else {
            interp::set_unknown_bytes(marks, f, 0);
            f += 1;
        }
    }
}

/// One thread's views.
struct Views {
    store: Store,
    /// Per view: whether the thread's next step touches shared memory (then the view is
    /// closed under the others' guarantees).
    visible: Vec<bool>,
    /// Per view: how many changes of the guarantees had been recorded when they were last
    /// applied to it (those since are applied next).
    applied: Vec<u64>,
    /// Views below this have been expanded.
    expanded: usize,
}

/// A view's shared memory: the values of its cells, then which of their bytes are not known.
type Shared = Box<[i64]>;

/// The changes of the shared memory one thread's steps make, seen from that thread.
#[derive(Default)]
struct Guarantee {
    /// Shared memory before a step, to the shared memories after it, each with the number
    /// of changes recorded (of all threads) before it ([`Modular::recorded`]).
    after: FxHashMap<Shared, Vec<(Shared, u64)>>,
    pairs: FxHashSet<(Shared, Shared)>,
}

struct Modular<'a, 'p> {
    prog: &'p Program,
    space: &'a Space<'p>,
    shape: Shape,
    /// Per flat cell: its variable.
    var_of: Vec<VarId>,
    /// Flat cells of every mutex (shared or a thread's own).
    mutexes: Vec<usize>,
    /// Per thread: the flat cells of its own memory, as ranges.
    locals: Vec<Vec<std::ops::Range<usize>>>,
    /// The flat cells of shared memory, in order.
    shared: Vec<usize>,
    /// Positions in `shared` of mutex cells (they hold thread ids: owner + 1).
    mutex_at: Vec<usize>,
    /// The initial state (each thread's memory before it starts).
    initial: Key,
    views: Vec<Views>,
    guarantee: Vec<Guarantee>,
    /// Changes recorded in the guarantees so far.
    recorded: u64,
    /// Mutex cells (flat) held while another is taken: an edge from the one held.
    lock_order: petgraph::graphmap::DiGraphMap<usize, ()>,
}

impl<'a, 'p> Modular<'a, 'p> {
    fn new(prog: &'p Program, space: &'a Space<'p>, shape: Shape) -> Self {
        let mut initial = space.key(0).as_ref().clone();
        let cells = initial.state.mem.cells().len();
        // Uninitialised memory is not known, whatever the explicit search tracks.
        let mut undef = vec![0u64; interp::unknown_words(cells)];
        let mut var_of = vec![VarId(0); cells];
        let mut mutexes = Vec::new();
        let mut locals = vec![Vec::new(); prog.threads.len()];
        let mut shared = Vec::new();
        let mut mutex_at = Vec::new();
        for v in &prog.vars {
            let first = initial.state.mem.flat(v.id.0 as usize, 0);
            let cells = first..first + v.len as usize;
            var_of[cells.clone()].fill(v.id);
            if v.init == crate::ir::Init::Nondet {
                for f in cells.clone() {
                    interp::set_unknown_bytes(&mut undef, f, interp::ALL_BYTES);
                }
            }
            if v.elem == ElemKind::Mutex {
                mutexes.extend(cells.clone());
            }
            match v.scope {
                VarScope::Local(t) => locals[t.0 as usize].push(cells),
                _ => {
                    for f in cells {
                        if v.elem == ElemKind::Mutex {
                            mutex_at.push(shared.len());
                        }
                        shared.push(f);
                    }
                }
            }
        }
        initial.undef = undef.into();
        let views = prog
            .threads
            .iter()
            .map(|_| Views {
                store: Store::new(&initial.state),
                visible: Vec::new(),
                applied: Vec::new(),
                expanded: 0,
            })
            .collect();
        let guarantee = prog.threads.iter().map(|_| Guarantee::default()).collect();
        Modular {
            prog,
            space,
            shape,
            var_of,
            mutexes,
            locals,
            shared,
            mutex_at,
            initial,
            views,
            guarantee,
            recorded: 0,
            lock_order: Default::default(),
        }
    }

    /// Whose flat cell `f` is.
    fn owner(&self, f: usize) -> Owner {
        match self.prog.var(self.var_of[f]).scope {
            VarScope::Local(t) => Owner::Local(t),
            _ => Owner::Shared,
        }
    }

    /// The owner value of thread `t`'s mutexes, and that of another thread of its function.
    fn me(t: ThreadId) -> (i64, i64) {
        let v = t.0 as i64 + 1;
        (v, -v)
    }

    /// `k` as thread `t`'s view: the others' memory and locations forgotten.
    fn project(&self, mut k: Key, t: ThreadId) -> Key {
        for (u, ranges) in self.locals.iter().enumerate() {
            if u == t.0 as usize {
                continue;
            }
            for r in ranges {
                k.state.mem.cells_mut()[r.clone()].fill(0);
                clear_marks(&mut k.undef, r.clone());
            }
        }
        for (u, s) in k.state.threads.iter_mut().enumerate() {
            if u != t.0 as usize {
                *s = Status::NotStarted;
            }
        }
        self.space.canonical(k)
    }

    /// Thread `t`'s memory as it is before it starts, in `k`.
    fn restore(&self, k: &mut Key, t: ThreadId) {
        for r in &self.locals[t.0 as usize] {
            k.state.mem.cells_mut()[r.clone()]
                .copy_from_slice(&self.initial.state.mem.cells()[r.clone()]);
            for f in r.clone() {
                let u = interp::unknown_bytes(&self.initial.undef, f);
                interp::set_unknown_bytes(&mut k.undef, f, u);
            }
        }
    }

    /// The shared memory of a view: values, then which bytes are not known.
    fn shared_of(&self, k: &Key) -> Shared {
        let cells = k.state.mem.cells();
        let values = self.shared.iter().map(|&f| cells[f]);
        let marks = self
            .shared
            .iter()
            .map(|&f| interp::unknown_bytes(&k.undef, f) as i64);
        values.chain(marks).collect()
    }

    /// `k` with shared memory `g`.
    fn with_shared(&self, k: &mut Key, g: &[i64]) {
        let n = self.shared.len();
        for (i, &f) in self.shared.iter().enumerate() {
            k.state.mem.cells_mut()[f] = g[i];
            interp::set_unknown_bytes(&mut k.undef, f, g[n + i] as u8);
        }
    }

    /// Adds a view of thread `t`; whether it is new.
    fn add(&mut self, t: ThreadId, k: &Key, from: Option<u32>) -> bool {
        let v = &mut self.views[t.0 as usize];
        let n = v.store.len();
        v.store.intern(k, from);
        if v.store.len() > n {
            v.visible.push(false);
            v.applied.push(0);
            true
        } else {
            false
        }
    }

    /// Computes the views: each thread's steps, then the guarantees on the views at a shared
    /// access, until nothing changes.
    fn run(&mut self, deadline: Instant, max_views: usize) -> Result<(), String> {
        let main = self.project(self.initial.clone(), ThreadId(0));
        self.add(ThreadId(0), &main, None);
        loop {
            // Each thread's own steps.
            let mut work = true;
            while work {
                work = false;
                for t in 0..self.views.len() {
                    while self.views[t].expanded < self.views[t].store.len() {
                        let id = self.views[t].expanded as u32;
                        self.views[t].expanded += 1;
                        self.expand(ThreadId(t as u32), id)?;
                        work = true;
                        let total: usize = self.views.iter().map(|v| v.store.len()).sum();
                        if total > max_views {
                            return Err(format!("more than {max_views} views"));
                        }
                        if Instant::now() >= deadline {
                            return Err(format!("time ran out after {total} views"));
                        }
                    }
                }
            }
            // The others' changes, on the views at a shared access.
            let mut new = false;
            for t in 0..self.views.len() {
                let n = self.views[t].store.len();
                for id in 0..n as u32 {
                    if self.views[t].visible[id as usize] {
                        new |= self.interfere(ThreadId(t as u32), id)?;
                    }
                    if id % 1024 == 0 && Instant::now() >= deadline {
                        return Err("time ran out".into());
                    }
                }
            }
            if !new {
                return Ok(());
            }
        }
    }

    /// The steps of thread `t` from its view `id`.
    fn expand(&mut self, t: ThreadId, id: u32) -> Result<(), String> {
        let mut k = self.views[t.0 as usize].store.key(id);
        // A run of steps that touch nothing shared, each the only one, is followed to its end
        // without keeping the views in between (nothing is interleaved with them).
        for run in 0..MAX_RUN {
            if run > 0 && !self.quiet_at(t, &k)? {
                // A view that may touch shared memory is kept (and closed under the others').
                self.add(t, &k, Some(id));
                return Ok(());
            }
            let Some(next) = self.successors(t, k)? else {
                return Ok(());
            };
            if run == 0 {
                self.views[t.0 as usize].visible[id as usize] = next.visible;
            }
            match next.views.len() {
                1 if !next.visible => {
                    k = next.views.into_iter().next().expect("one");
                }
                _ => {
                    for view in &next.views {
                        self.add(t, view, Some(id));
                    }
                    return Ok(());
                }
            }
        }
        self.add(t, &k, Some(id));
        Ok(())
    }

    /// Whether every step thread `t` may take at its location in `k` reads and writes only
    /// its own memory: its operations name only its own variables, and its guard does (or
    /// reads only them in `k`, as a join of a thread never started does).
    fn quiet_at(&self, t: ThreadId, k: &Key) -> Result<bool, String> {
        let Status::At(l) = k.state.threads[t.0 as usize] else {
            return Ok(false);
        };
        let th = self.prog.thread(t);
        if th.locations[l.0 as usize].kind != LocKind::Normal
            || th.locations[l.0 as usize].out.is_empty()
        {
            return Ok(false);
        }
        let own = |p: &Place| {
            matches!(p, Place::Var { var, .. }
                if self.prog.var(*var).scope == VarScope::Local(t))
        };
        for tr in th.outgoing(l) {
            if matches!(tr.kind, TransKind::Error(_) | TransKind::Halt)
                || !tr
                    .ops
                    .iter()
                    .all(|o| matches!(o, Op::Assign { .. } | Op::Havoc { .. }))
            {
                return Ok(false);
            }
            let mut quiet = true;
            for op in &tr.ops {
                if let Op::Assign { place, value } = op {
                    quiet &= own(place);
                    value.for_each_place(&mut |p| quiet &= own(p));
                    place.for_each_subexpr(&mut |e| e.for_each_place(&mut |p| quiet &= own(p)));
                } else if let Op::Havoc { place, .. } = op {
                    quiet &= own(place);
                    place.for_each_subexpr(&mut |e| e.for_each_place(&mut |p| quiet &= own(p)));
                }
            }
            if !quiet {
                return Ok(false);
            }
            let m = self.space.machine();
            m.start_recording(k.state.mem.cells().len());
            let _ = m.eval(&k.state, &tr.guard);
            let rec = m.stop_recording();
            let touched = self.touches(t, &rec.reads, &rec.writes, None)?;
            drop(rec);
            if touched {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The views thread `t`'s steps lead to from view `k` (`None` where it has ended or the
    /// program has), their guarantees recorded and the views of the threads they start added.
    fn successors(&mut self, t: ThreadId, k: Key) -> Result<Option<Successors>, String> {
        let Status::At(l) = k.state.threads[t.0 as usize] else {
            return Ok(None);
        };
        let th = self.prog.thread(t);
        let kind = th.locations[l.0 as usize].kind;
        let (me, _) = Self::me(t);
        let held: Vec<usize> = self
            .mutexes
            .iter()
            .copied()
            .filter(|&f| k.state.mem.cells()[f] == me)
            .collect();
        match kind {
            LocKind::Exit if !held.is_empty() => {
                return Err(format!("`{}` may end holding a mutex", th.name));
            }
            LocKind::Normal => {}
            _ => return Ok(None),
        }
        let g = self.shared_of(&k);
        let mut out = Successors {
            views: Vec::new(),
            visible: false,
        };
        let mut enabled = Vec::new();
        let mut blocking = false;
        for tr in th.outgoing(l) {
            match tr.kind {
                TransKind::Sync(SyncKind::Lock) => {
                    blocking = true;
                    if let Some(target) = self.lock_target(&k, t, tr.id)? {
                        // A thread waiting for a mutex waits for its owner, a live thread.
                        let owner = k.state.mem.cells()[target].unsigned_abs();
                        if owner > self.prog.threads.len() as u64 {
                            return Err(format!(
                                "`{}` may wait for a mutex that holds no thread's id",
                                th.name
                            ));
                        }
                        for &h in &held {
                            self.taken_while_held(h, target)?;
                        }
                    }
                }
                TransKind::Sync(SyncKind::Join) => {
                    blocking = true;
                    if !held.is_empty() {
                        return Err(format!("`{}` may join holding a mutex", th.name));
                    }
                    self.joins_a_thread(&k, t, tr.id)?;
                }
                _ => {}
            }
            let m = self.space.machine();
            m.start_recording(k.state.mem.cells().len());
            m.start_tainting(&k.undef);
            let on = m.eval(&k.state, &tr.guard);
            let rec = m.stop_recording();
            out.visible |= self.touches(t, &rec.reads, &rec.writes, None)?;
            if rec.read_tainted && tr.kind != TransKind::Sync(SyncKind::Join) {
                return Err(self.unknown_decides(t, tr.id));
            }
            drop(rec);
            match on {
                Ok(0) => continue,
                Ok(_) => {}
                Err(f) => return Err(format!("`{}` may fail: {f}", th.name)),
            }
            enabled.push(tr.id);
        }
        if enabled.is_empty() && !blocking {
            return Err(format!(
                "`{}` may block other than on a mutex or a join",
                th.name
            ));
        }
        let n = enabled.len();
        let mut k = Some(k);
        for (i, tr) in enabled.into_iter().enumerate() {
            let from = match i + 1 == n {
                true => k.take().expect("the last step"),
                false => k.clone().expect("a step"),
            };
            let tr = th.transition(tr);
            for next in self.step(from, t, tr.id)? {
                out.visible |= next.visible;
                if matches!(
                    tr.kind,
                    TransKind::Sync(
                        SyncKind::Lock | SyncKind::TryLock | SyncKind::Unlock | SyncKind::Atomic
                    )
                ) {
                    self.owners_typed(&next.key, t, &next.written)?;
                }
                let dst = th.transition(tr.id).dst;
                if th.locations[dst.0 as usize].kind == LocKind::Error {
                    return Err(format!("a view of `{}` reaches an error", th.name));
                }
                let g2 = self.shared_of(&next.key);
                if g2 != g {
                    let gu = &mut self.guarantee[t.0 as usize];
                    if gu.pairs.insert((g.clone(), g2.clone())) {
                        gu.after
                            .entry(g.clone())
                            .or_default()
                            .push((g2, self.recorded));
                        self.recorded += 1;
                    }
                }
                self.start_children(&next.key, t, tr.id)?;
                out.views.push(self.project(next.key, t));
            }
        }
        Ok(Some(out))
    }

    /// Thread `t`'s step `tr` from view `k`, once for each value that stands for its inputs.
    fn step(&self, k: Key, t: ThreadId, tr: TransId) -> Result<Vec<Stepped>, String> {
        let th = self.prog.thread(t);
        let trans = th.transition(tr);
        let havocs: Vec<Option<(VarId, &Vec<i128>)>> = trans
            .ops
            .iter()
            .filter_map(|o| match o {
                Op::Havoc { place, .. } => Some(match place {
                    Place::Var { var, index: None } => {
                        self.shape.enumerated.get(var).map(|vals| (*var, vals))
                    }
                    _ => None,
                }),
                _ => None,
            })
            .collect();
        let mut choices: Vec<Vec<i128>> = vec![Vec::new()];
        for h in &havocs {
            let vals: &[i128] = match h {
                Some((_, vals)) => vals,
                None => &[NOT_KNOWN],
            };
            choices = choices
                .iter()
                .flat_map(|c| {
                    vals.iter().map(move |&x| {
                        let mut c = c.clone();
                        c.push(x);
                        c
                    })
                })
                .collect();
        }
        let spawned = trans.spawned();
        let mut out = Vec::new();
        let n = choices.len();
        let mut k = Some(k);
        for (i, values) in choices.into_iter().enumerate() {
            let mut next = match i + 1 == n {
                true => k.take().expect("the last choice"),
                false => k.clone().expect("a choice"),
            };
            if let Some(c) = spawned {
                self.restore(&mut next, c);
            }
            let m = self.space.machine();
            m.start_recording(next.state.mem.cells().len());
            m.start_tainting(&next.undef);
            let r = m.execute_unguarded(&mut next.state, t, tr, &mut Given { values, next: 0 });
            let rec = m.stop_recording();
            if let Err(f) = r {
                return Err(format!("`{}` may fail: {f}", th.name));
            }
            if rec.read_tainted && trans.kind != TransKind::Sync(SyncKind::Join) {
                return Err(self.unknown_decides(t, tr));
            }
            next.undef.copy_from_slice(&rec.taint);
            let visible = self.touches(t, &rec.reads, &rec.writes, spawned)?;
            let written = rec.writes.clone();
            drop(rec);
            for (var, _) in havocs.iter().flatten() {
                let f = next.state.mem.flat(var.0 as usize, 0);
                interp::set_unknown_bytes(&mut next.undef, f, 0);
            }
            self.check_writes(&next, t, &written)?;
            // A thread id a creation writes is not known: only a join may depend on it.
            // (Its assignment of the new thread's number, or of `NO_THREAD` where the scope
            // refuses it; the step also runs the assignments pending before it.)
            if trans.starts.is_some() {
                let id = match spawned {
                    Some(c) => c.0 as i128,
                    None => i128::from(crate::ir::NO_THREAD),
                };
                for op in &trans.ops {
                    if let Op::Assign { place, value } = op {
                        if value.as_const() == Some(id) {
                            let Ok((v, i)) = self.space.machine().place(&next.state, place) else {
                                return Err("a thread id written where it cannot be".into());
                            };
                            let f = next.state.mem.flat(v.0 as usize, i);
                            interp::set_unknown_bytes(&mut next.undef, f, interp::ALL_BYTES);
                        }
                    }
                }
            }
            out.push(Stepped {
                key: next,
                visible,
                written,
            });
        }
        Ok(out)
    }

    /// The views of the threads step `tr` of `t` (leading to `after`) starts: the thread
    /// it starts, or a replica of a function's thread where the creation is refused.
    fn start_children(&mut self, after: &Key, t: ThreadId, tr: TransId) -> Result<(), String> {
        let trans = self.prog.thread(t).transition(tr);
        let Some(start) = &trans.starts else {
            return Ok(());
        };
        let c = match trans.spawned() {
            Some(c) => c,
            None if trans.refusal.is_some() => self.shape.template[&start.function],
            None => return Ok(()),
        };
        let mut k = after.clone();
        if trans.spawned().is_none() {
            // A replica starts with its function's initial memory.
            self.restore(&mut k, c);
        }
        k.state.threads[c.0 as usize] = Status::At(self.prog.thread(c).entry);
        // Mutex owners as the new thread sees them.
        let (mt, ot) = Self::me(t);
        let (mc, oc) = Self::me(c);
        let n = self.shared.len();
        let mut g = self.shared_of(&k);
        for &p in &self.mutex_at {
            let v = g[p];
            g[p] = if v == mt || v == ot {
                if c == t {
                    oc
                } else {
                    mt
                }
            } else if v == mc {
                oc
            } else {
                v
            };
        }
        debug_assert_eq!(g.len(), 2 * n);
        self.with_shared(&mut k, &g);
        let view = self.project(k, c);
        self.add(c, &view, None);
        Ok(())
    }

    /// The guarantees of every thread applied to view `id` of thread `t`; whether a view is new.
    fn interfere(&mut self, t: ThreadId, id: u32) -> Result<bool, String> {
        let since = self.views[t.0 as usize].applied[id as usize];
        if since == self.recorded {
            return Ok(false);
        }
        self.views[t.0 as usize].applied[id as usize] = self.recorded;
        let k = self.views[t.0 as usize].store.key(id);
        let g = self.shared_of(&k);
        let mut new = false;
        for a in 0..self.prog.threads.len() {
            let actor = ThreadId(a as u32);
            if actor == t && !self.shape.replicated[a] {
                continue;
            }
            if self.guarantee[a].after.is_empty() {
                continue;
            }
            let mut results = Vec::new();
            for c in self.as_seen_by(&g, t, actor) {
                let Some(afters) = self.guarantee[a].after.get(&c) else {
                    continue;
                };
                for (after, _) in afters.iter().filter(|(_, n)| *n >= since) {
                    results.push(self.seen_back(&g, &c, after, t, actor)?);
                }
            }
            for g2 in results {
                let mut next = k.clone();
                self.with_shared(&mut next, &g2);
                let view = self.space.canonical(next);
                new |= self.add(t, &view, Some(id));
            }
        }
        Ok(new)
    }

    /// Shared memory `g` of a view of `t` as another thread of function `actor` may see it:
    /// the mutex owners told apart as that thread does (one memory for each reading of an
    /// owner value that stands for several threads).
    fn as_seen_by(&self, g: &[i64], t: ThreadId, actor: ThreadId) -> Vec<Shared> {
        let (mt, ot) = Self::me(t);
        let (ma, oa) = Self::me(actor);
        let mut out: Vec<Shared> = vec![g.into()];
        for &p in &self.mutex_at {
            let v = g[p];
            let readings: &[i64] = if actor == t {
                if v == mt {
                    &[ot]
                } else if v == ot {
                    &[mt, ot]
                } else {
                    &[v]
                }
            } else if v == mt || v == ot {
                &[mt]
            } else if v == ma && self.shape.replicated[actor.0 as usize] {
                &[ma, oa]
            } else {
                &[v]
            };
            if readings == [v] {
                continue;
            }
            out = out
                .into_iter()
                .flat_map(|c| {
                    readings.iter().map(move |&r| {
                        let mut c = c.clone();
                        c[p] = r;
                        c
                    })
                })
                .collect();
        }
        out
    }

    /// The shared memory of `t`'s view `g` after a step of `actor` took it (as the actor sees
    /// it) from `c` to `after`.
    fn seen_back(
        &self,
        g: &[i64],
        c: &[i64],
        after: &[i64],
        t: ThreadId,
        actor: ThreadId,
    ) -> Result<Shared, String> {
        let (_, ot) = Self::me(t);
        let (ma, _) = Self::me(actor);
        let mut out: Shared = g.into();
        let mut mutex = self.mutex_at.iter().peekable();
        for p in 0..after.len() {
            let is_mutex = mutex.next_if(|&&q| q == p).is_some();
            if after[p] == c[p] {
                continue;
            }
            out[p] = if !is_mutex || after[p] == 0 {
                after[p]
            } else if after[p] == ma {
                if actor == t {
                    ot
                } else {
                    ma
                }
            } else {
                return Err("a thread writes another thread's id into a mutex".into());
            };
        }
        Ok(out)
    }

    /// The mutex cell lock step `tr` of `t` takes in view `k`, if it names one.
    fn lock_target(&self, k: &Key, t: ThreadId, tr: TransId) -> Result<Option<usize>, String> {
        let trans = self.prog.thread(t).transition(tr);
        for op in &trans.ops {
            if let Op::Assign { place, .. } = op {
                let m = self.space.machine();
                m.start_recording(k.state.mem.cells().len());
                m.start_tainting(&k.undef);
                let r = m.place(&k.state, place);
                let rec = m.stop_recording();
                if rec.read_tainted {
                    return Err(self.unknown_decides(t, tr));
                }
                drop(rec);
                if let Ok((v, i)) = r {
                    if self.prog.var(v).elem == ElemKind::Mutex {
                        return Ok(Some(k.state.mem.flat(v.0 as usize, i)));
                    }
                }
            }
        }
        Ok(None)
    }

    /// Whether a step of `t` that read and wrote these cells touched shared memory; `Err`
    /// where it touched another thread's own memory (but the parameters of the thread it
    /// starts, `child`).
    fn touches(
        &self,
        t: ThreadId,
        reads: &[(u32, i64)],
        writes: &[u32],
        child: Option<ThreadId>,
    ) -> Result<bool, String> {
        let mut shared = false;
        let cells = reads
            .iter()
            .map(|r| (r.0, false))
            .chain(writes.iter().map(|&w| (w, true)));
        for (f, write) in cells {
            match self.owner(f as usize) {
                Owner::Shared => shared = true,
                Owner::Local(u) if u == t => {}
                Owner::Local(u) if write && Some(u) == child => {}
                Owner::Local(u) => {
                    return Err(format!(
                        "`{}` reaches the memory of `{}`",
                        self.prog.thread(t).name,
                        self.prog.thread(u).name
                    ))
                }
            }
        }
        Ok(shared)
    }

    /// Checks that join `tr` of `t` in view `k` joins a thread a creation started or one it
    /// refused (`NO_THREAD`): not an id from memory never written or an input (the only
    /// values not known a join may read are the ids creations wrote).
    fn joins_a_thread(&self, k: &Key, t: ThreadId, tr: TransId) -> Result<(), String> {
        let trans = self.prog.thread(t).transition(tr);
        let mut index = None;
        trans.guard.for_each_place(&mut |p| {
            if let Place::Var {
                var,
                index: Some(i),
            } = p
            {
                if self.prog.var(*var).name == "__thread_done" {
                    index = Some(i);
                }
            }
        });
        let Some(index) = index else {
            return Err("a join the proof does not know".into());
        };
        let id = self.space.machine().eval(&k.state, index);
        let n = self.prog.threads.len() as i128;
        match id {
            Ok(v) if v == -1 || v == i128::from(crate::ir::NO_THREAD) => Ok(()),
            Ok(v) if (1..n).contains(&v) => Ok(()),
            _ => Err(format!(
                "`{}` may join a thread id that no creation wrote",
                self.prog.thread(t).name
            )),
        }
    }

    /// Checks that a synchronisation step of `t` that made `t` a mutex's owner wrote that in
    /// a mutex variable: the views tell owners apart there only (a mutex in memory the front
    /// end does not type, a heap block, is not covered).
    fn owners_typed(&self, k: &Key, t: ThreadId, written: &[u32]) -> Result<(), String> {
        let (me, _) = Self::me(t);
        for &f in written {
            let f = f as usize;
            let var = self.var_of[f].0 as usize;
            if self.owner(f) == Owner::Shared
                && self.prog.vars[var].elem != ElemKind::Mutex
                && k.state.mem.cells()[f] == me
            {
                return Err(format!(
                    "`{}` may hold a mutex outside a mutex variable (`{}`)",
                    self.prog.thread(t).name,
                    self.prog.vars[var].name
                ));
            }
        }
        Ok(())
    }

    /// Checks what a step of `t` wrote: no address of a thread's own memory in shared memory,
    /// and no allocation by a function's thread that stands for many.
    fn check_writes(&self, k: &Key, t: ThreadId, written: &[u32]) -> Result<(), String> {
        for &f in written {
            let f = f as usize;
            if self.owner(f) != Owner::Shared {
                continue;
            }
            let var = self.var_of[f].0 as usize;
            if self.prog.vars[var].allocation_status && self.shape.replicated[t.0 as usize] {
                return Err(format!(
                    "`{}`, started many times, allocates or frees memory",
                    self.prog.thread(t).name
                ));
            }
            let value = k.state.mem.cells()[f] as i128;
            if let Some((v, _)) = decode_address(value) {
                if matches!(
                    self.prog.vars.get(v.0 as usize).map(|v| &v.scope),
                    Some(VarScope::Local(_))
                ) {
                    return Err(format!(
                        "`{}` publishes the address of a thread's own memory",
                        self.prog.thread(t).name
                    ));
                }
            }
        }
        Ok(())
    }

    fn unknown_decides(&self, t: ThreadId, tr: TransId) -> String {
        let th = self.prog.thread(t);
        let at = th
            .transition(tr)
            .span
            .as_ref()
            .map(|s| format!(" at line {}", s.line))
            .unwrap_or_default();
        format!(
            "a value not known (an input, uninitialised memory or a thread id) decides a step of `{}`{at}",
            th.name
        )
    }

    /// Notes that mutex `taken` may be taken while `held` is held; `Err` where that closes a
    /// cycle of such orders (threads may then wait for each other forever).
    fn taken_while_held(&mut self, held: usize, taken: usize) -> Result<(), String> {
        if held == taken {
            return Err("a thread may take a mutex it holds".into());
        }
        if self.lock_order.contains_edge(held, taken) {
            return Ok(());
        }
        if petgraph::algo::has_path_connecting(&self.lock_order, taken, held, None) {
            return Err("mutexes may be taken in a cyclic order".into());
        }
        self.lock_order.add_edge(held, taken, ());
        Ok(())
    }
}
