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
//! (replicas included: a replica's steps are those of its function's views), with the
//! mutexes the thread held; a change made holding a mutex the viewing thread holds is not
//! applied to its view (no two threads hold one mutex). Of the mutexes, a view keeps only
//! which ones its thread holds (a Cartesian abstraction of the lock state: the states of ten
//! locks held by others do not multiply the views); where its thread takes, tests or releases
//! one it does not hold, the view is split into the mutex free and held by another thread.
//! Cells that a mutex guards are not in the guarantees at all: a thread sees them through the
//! mutex's invariant ([`super::lockset`]). A step that reads nothing shared needs no
//! interleaving with the others' changes (they commute with it), so only views at a shared
//! access are closed under them.
//!
//! Every execution of the program, with any number of threads started, projects to views of
//! each of its threads, so no view reaching the error location means no execution does. The
//! views also show the program free of deadlocks: a thread only ever waits for a mutex or a
//! join; no thread ends holding a mutex, none joins holding one, only `main` joins, and the
//! order in which threads take mutexes (a mutex held while another is taken) has no cycle.
//! A mutex holds 0 or the id of the thread that holds it: none releases one it does not
//! hold, and none initialises one after `main` has started a thread.
//!
//! A value not known (an input, uninitialised memory) is carried as such (its bytes marked,
//! as the explicit search marks them); a guard that reads one may hold either way, and any
//! other decision on one ends the proof, except for an input with finitely many behaviours
//! ([`super::inputs`]: only compared with constants and used as an index), which takes a
//! value of each.
//!
//! An atomic region (`__VERIFIER_atomic_begin`, an `__VERIFIER_atomic_*` function) lets no
//! other thread move: a view of a thread inside one is not closed under the others'
//! guarantees. The changes its steps there make enter its guarantee one step at a time, so
//! other threads' views may see a region half done: more executions than the program has,
//! which keeps the proof sound. A wait for a mutex or a join inside a region would never end
//! (no one else moves): the proof does not cover it.
//!
//! Where the program is outside what this covers (condition variables, barriers, threads
//! that read their own id or an address as a number, a thread id used other than to join, a
//! replicated thread that allocates or is started with varying arguments, a thread's own
//! memory reached by another thread, a value not known as an address, a view at the error
//! location), the answer is the reason it cannot show safety; that says nothing about the
//! program.

use super::lockset::{self, Invariant, Learned};
use super::space::{Key, Space};
use super::store::Store;
use crate::interp::{self, Choice, Oracle, Status};
use crate::ir::{
    decode_address, ElemKind, LocKind, Op, Place, Program, Refusal, SyncKind, ThreadId, TransId,
    TransKind, Ty, VarId, VarScope,
};
use rustc_hash::{FxHashMap, FxHashSet};
use std::cell::{Cell, RefCell};
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
    /// Shared cells seen only through the mutex that guards them ([`super::lockset`]).
    pub guarded: usize,
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

/// The value of a mutex another thread holds, in a view of a thread that reads it (views
/// keep only the mutexes their thread holds: [`Modular::owner_variants`]).
const ANOTHERS: i64 = -1;

/// Most steps of a run that touches nothing shared followed without keeping a view.
const MAX_RUN: usize = 4096;

/// Views after which a proof stops to start again if the locksets it learned guard more
/// cells (the next such point after twice as many).
const FIRST_CHECKPOINT: usize = 1_000;

/// Views of one thread expanded before those of the next.
const BATCH: usize = 256;

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
#[derive(Default)]
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
    let mut learned = Learned::new(space.key(0).state.mem.len());
    loop {
        let mut m = Modular::new(prog, &space, &shape, learned);
        let r = m.run(deadline, max_views);
        // A guard broken, or locksets learned that guard more cells: again, with them.
        let again = m.violated.get() || (r.is_err() && m.regroups());
        if !again || Instant::now() >= deadline {
            if m.violated.get() {
                return Err("time ran out learning which mutexes guard which cells".into());
            }
            r?;
            return Ok(Proof {
                views: m.views.iter().map(|v| v.store.len()).sum(),
                guarantees: m.guarantee.iter().map(|g| g.pairs.len()).sum(),
                replicated: (0..prog.threads.len())
                    .filter(|&t| m.shape.replicated[t])
                    .map(|t| prog.threads[t].function.clone())
                    .collect(),
                guarded: m.guard.iter().filter(|g| g.is_some()).count(),
            });
        }
        learned = m.learned();
    }
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
        if prog.observes_numbering.is_some() || prog.asks_own_id {
            return Err("the program can tell how threads or objects are numbered".into());
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
                            | AtomicBegin
                            | AtomicEnd
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
            enumerated: super::inputs::enumerated(prog),
        })
    }
}

/// Whether a transition of this kind takes, releases or tests a mutex (a view that does not
/// hold it has it free or another thread's: [`Modular::owner_variants`]).
fn splits_owners(kind: &TransKind) -> bool {
    matches!(
        kind,
        TransKind::Sync(
            SyncKind::Lock
                | SyncKind::TryLock
                | SyncKind::TimedOut
                | SyncKind::Unlock
                | SyncKind::Atomic
        )
    )
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

/// The changes of the shared memory one thread's steps make.
#[derive(Default)]
struct Guarantee {
    /// Shared memory before a step, to the shared memories after it, each with the mutexes
    /// the thread held before or after it, and the number of changes recorded (of all
    /// threads) before it ([`Modular::recorded`]).
    after: FxHashMap<Shared, Vec<Change>>,
    pairs: FxHashSet<(Shared, Shared, Held)>,
}

/// Mutexes (their flat cells) a thread holds, in order.
type Held = Box<[usize]>;

/// A change of the shared memory in a guarantee: the memory after it, the mutexes the thread
/// held before or after it, and the number of changes recorded before it.
type Change = (Shared, Held, u64);

struct Modular<'a, 'p> {
    prog: &'p Program,
    space: &'a Space<'p>,
    shape: &'a Shape,
    /// Per flat cell: its variable.
    var_of: Vec<VarId>,
    /// Flat cells of every mutex (shared or a thread's own), in order.
    mutexes: Vec<usize>,
    /// Per flat cell: whether it is a shared mutex's.
    shared_mutex: Vec<bool>,
    /// Per flat cell: the mutex that guards it in this proof.
    guard: Vec<Option<usize>>,
    /// Per mutex that guards cells: they, and the values threads left them with.
    invariants: std::collections::BTreeMap<usize, Invariant>,
    /// Per location of `main`: whether it is the only thread there.
    alone: Vec<bool>,
    /// The locksets learned so far (this proof's and the ones before).
    learned: RefCell<Learned>,
    /// An access of a guarded cell did not hold its mutex: the proof does not hold.
    violated: Cell<bool>,
    /// Views after which the locksets learned are looked at again.
    checkpoint: usize,
    /// The replicas started: their thread, the shared memory and the mutexes with their id.
    replica_starts: FxHashSet<(ThreadId, Shared, Vec<usize>)>,
    /// Per thread: the flat cells of its own memory, as ranges.
    locals: Vec<Vec<std::ops::Range<usize>>>,
    /// The flat cells of shared memory that guarantees change: neither mutexes (a view
    /// knows only which ones its thread holds) nor guarded cells, in order.
    shared: Vec<usize>,
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
    fn new(prog: &'p Program, space: &'a Space<'p>, shape: &'a Shape, learned: Learned) -> Self {
        let mut initial = space.key(0).as_ref().clone();
        let cells = initial.state.mem.len();
        // Uninitialised memory is not known, whatever the explicit search tracks.
        let mut undef = vec![0u64; interp::unknown_words(cells)];
        let mut var_of = vec![VarId(0); cells];
        let mut mutexes = Vec::new();
        let mut locals = vec![Vec::new(); prog.threads.len()];
        let mut shared = Vec::new();
        let guard = learned.guards();
        let mut shared_mutex = vec![false; cells];
        let mut invariants = std::collections::BTreeMap::new();
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
                shared_mutex[cells.clone()].fill(!matches!(v.scope, VarScope::Local(_)));
            }
            match v.scope {
                VarScope::Local(t) => locals[t.0 as usize].push(cells),
                _ => {
                    for f in cells {
                        match guard[f] {
                            _ if v.elem == ElemKind::Mutex => {}
                            Some(m) => invariants
                                .entry(m)
                                .or_insert_with(|| Invariant::new(Vec::new()))
                                .cells
                                .push(f),
                            None => shared.push(f),
                        }
                    }
                }
            }
        }
        initial.undef = undef.into();
        mutexes.sort_unstable();
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
            shared_mutex,
            guard,
            invariants,
            alone: lockset::alone(&prog.threads[0]),
            learned: RefCell::new(learned),
            violated: Cell::new(false),
            checkpoint: FIRST_CHECKPOINT,
            replica_starts: FxHashSet::default(),
            locals,
            shared,
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

    /// The value of a mutex thread `t` holds ([`crate::ir::lock_owner`]).
    fn me(t: ThreadId) -> i64 {
        crate::ir::lock_owner(t) as i64
    }

    /// The mutexes (flat cells) thread `t` holds in `k`, in order.
    fn held(&self, k: &Key, t: ThreadId) -> Vec<usize> {
        let me = Self::me(t);
        self.mutexes
            .iter()
            .copied()
            .filter(|&f| k.state.mem.at(f) == me)
            .collect()
    }

    /// Whether `t` is `main` where it is the only thread.
    fn is_alone(&self, t: ThreadId, k: &Key) -> bool {
        t.0 == 0 && matches!(k.state.threads[0], Status::At(l) if self.alone[l.0 as usize])
    }

    /// Notes that `t`, holding `held` in a view where it is not alone, accessed `cells`;
    /// `Err` where one is guarded by a mutex it does not hold (the proof does not hold).
    fn accessed(
        &self,
        t: ThreadId,
        held: &[usize],
        cells: impl Iterator<Item = u32>,
    ) -> Result<(), String> {
        let mut learned = self.learned.borrow_mut();
        for f in cells {
            let f = f as usize;
            if self.shared_mutex[f] || self.owner(f) != Owner::Shared {
                continue;
            }
            learned.access(f, held);
            if self.guard[f].is_some_and(|m| !held.contains(&m)) {
                self.violated.set(true);
                return Err(format!(
                    "`{}` reaches `{}` without the mutex that guards it",
                    self.prog.thread(t).name,
                    self.prog.var(self.var_of[f]).name
                ));
            }
        }
        Ok(())
    }

    /// Whether the locksets learned guard cells otherwise than this proof does.
    fn regroups(&self) -> bool {
        self.learned().guards() != self.guard
    }

    /// The locksets learned, with the order of mutexes seen so far.
    fn learned(&self) -> Learned {
        let mut l = self.learned.borrow().clone();
        for (a, b, _) in self.lock_order.all_edges() {
            l.order.add_edge(a, b, ());
        }
        l
    }

    /// Records the values of mutex `m`'s cells in `k` as left by a thread releasing it, and
    /// gives new ones to the views that took it.
    fn release(&mut self, m: usize, k: &Key) {
        let inv = self.invariants.get_mut(&m).expect("an invariant");
        let v = inv.values(k);
        if !inv.record(v.clone()) {
            return;
        }
        for i in 0..self.invariants[&m].takers.len() {
            let inv = &self.invariants[&m];
            let (t, mut view) = inv.takers[i].clone();
            inv.set(&mut view, &v);
            let view = self.space.canonical(view);
            self.add(t, &view, None);
        }
    }

    /// Records the guarded cells of `main`'s view `k` where it stops being the only thread,
    /// and forgets those of the mutexes it does not hold (`held`).
    fn no_longer_alone(&mut self, k: &mut Key, held: &[usize]) {
        for m in self.invariants.keys().copied().collect::<Vec<_>>() {
            self.release(m, k);
            if !held.contains(&m) {
                self.invariants[&m].forget(k);
            }
        }
    }

    /// The views a step of `t` from a view where it held `held` (and was alone there, or not)
    /// leads to, from `k` after it: the cells of a mutex released recorded and forgotten, of a
    /// mutex taken given every value recorded; all recorded where `main` stops being alone.
    fn through_guards(
        &mut self,
        t: ThreadId,
        was_alone: bool,
        held: &[usize],
        mut k: Key,
    ) -> Result<Vec<Key>, String> {
        if self.invariants.is_empty() || self.is_alone(t, &k) {
            return Ok(vec![k]);
        }
        let now = self.held(&k, t);
        if was_alone {
            self.no_longer_alone(&mut k, &now);
            return Ok(vec![k]);
        }
        for &m in held {
            if !now.contains(&m) && self.invariants.contains_key(&m) {
                self.release(m, &k);
                self.invariants[&m].forget(&mut k);
            }
        }
        let taken: Vec<usize> = now
            .iter()
            .copied()
            .filter(|m| !held.contains(m) && self.invariants.contains_key(m))
            .collect();
        let Some(&m) = taken.first() else {
            return Ok(vec![k]);
        };
        if taken.len() > 1 {
            return Err("a step takes two mutexes".into());
        }
        let view = self.project(k.clone(), t);
        let inv = self.invariants.get_mut(&m).expect("an invariant");
        inv.taker(t, view);
        let inv = &self.invariants[&m];
        Ok(inv
            .records
            .iter()
            .map(|v| {
                let mut next = k.clone();
                inv.set(&mut next, v);
                next
            })
            .collect())
    }

    /// `k` as thread `t`'s view: the others' memory and locations forgotten.
    fn project(&self, mut k: Key, t: ThreadId) -> Key {
        for (u, ranges) in self.locals.iter().enumerate() {
            if u == t.0 as usize {
                continue;
            }
            for r in ranges {
                k.state.mem.fill_range(r.clone(), 0);
                clear_marks(&mut k.undef, r.clone());
            }
        }
        for (u, s) in k.state.threads.iter_mut().enumerate() {
            if u != t.0 as usize {
                *s = Status::NotStarted;
            }
        }
        // Of the atomic region, whether its thread is in one (a thread started in another's
        // region moves once it ends, which its view need not know).
        if k.state.atomic != Some(t) {
            k.state.atomic = None;
        }
        // Of a mutex, a view knows whether its thread holds it.
        let me = Self::me(t);
        for &f in &self.mutexes {
            if k.state.mem.at(f) != me && self.shared_mutex[f] {
                k.state.mem.set(f, 0);
                interp::set_unknown_bytes(&mut k.undef, f, 0);
            }
        }
        self.space.canonical(k)
    }

    /// Thread `t`'s memory as it is before it starts, in `k`.
    fn restore(&self, k: &mut Key, t: ThreadId) {
        for r in &self.locals[t.0 as usize] {
            k.state.mem.copy_range(r.clone(), &self.initial.state.mem);
            for f in r.clone() {
                let u = interp::unknown_bytes(&self.initial.undef, f);
                interp::set_unknown_bytes(&mut k.undef, f, u);
            }
        }
    }

    /// The shared memory of a view: values, then which bytes are not known.
    fn shared_of(&self, k: &Key) -> Shared {
        k.values_of(&self.shared)
    }

    /// `k` with shared memory `g`.
    fn with_shared(&self, k: &mut Key, g: &[i64]) {
        k.set_values(&self.shared, g);
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
        let cells = &self.initial.state.mem;
        if self.mutexes.iter().any(|&f| {
            self.shared_mutex[f]
                && (cells.at(f) != 0 || interp::unknown_bytes(&self.initial.undef, f) != 0)
        }) {
            return Err("a mutex starts with a value that holds no thread's id".into());
        }
        let mut main = self.project(self.initial.clone(), ThreadId(0));
        if !self.is_alone(ThreadId(0), &main) {
            // `main` starts where it may have started threads: the guarded cells as they
            // start, left by no one.
            self.no_longer_alone(&mut main, &[]);
        }
        self.add(ThreadId(0), &main, None);
        loop {
            // Each thread's own steps.
            let mut work = true;
            while work {
                work = false;
                for t in 0..self.views.len() {
                    // A batch of each thread's in turn (a thread's views need not be finite
                    // for another's to reach an error).
                    let end = self.views[t]
                        .store
                        .len()
                        .min(self.views[t].expanded + BATCH);
                    while self.views[t].expanded < end {
                        let id = self.views[t].expanded as u32;
                        self.views[t].expanded += 1;
                        self.expand(ThreadId(t as u32), id)?;
                        work = true;
                        let total: usize = self.views.iter().map(|v| v.store.len()).sum();
                        if total >= self.checkpoint {
                            self.checkpoint *= 2;
                            if self.regroups() {
                                return Err("the locksets learned guard more cells".into());
                            }
                        }
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
            m.start_recording(k.state.mem.len());
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
        let mut out: Option<Successors> = None;
        for k in self.owner_variants(t, k) {
            if let Some(s) = self.successors_of(t, k)? {
                let o = out.get_or_insert(Successors {
                    views: Vec::new(),
                    visible: false,
                });
                o.views.extend(s.views);
                o.visible |= s.visible;
            }
        }
        Ok(out)
    }

    /// `k`, once for each way the mutexes its thread's next synchronisation reads and does
    /// not hold may be: free, or another thread's.
    fn owner_variants(&self, t: ThreadId, k: Key) -> Vec<Key> {
        let Status::At(l) = k.state.threads[t.0 as usize] else {
            return vec![k];
        };
        if self.is_alone(t, &k) {
            return vec![k];
        }
        let me = Self::me(t);
        let mut read = Vec::new();
        for tr in self.prog.thread(t).outgoing(l) {
            if !splits_owners(&tr.kind) {
                continue;
            }
            let m = self.space.machine();
            let mut trial = k.clone();
            m.start_recording(k.state.mem.len());
            let _ = m.eval(&trial.state, &tr.guard);
            let _ = m.execute_unguarded(&mut trial.state, t, tr.id, &mut Given::default());
            let rec = m.stop_recording();
            for &(f, v) in &rec.reads {
                let f = f as usize;
                if self.shared_mutex[f] && v != me {
                    read.push(f);
                }
            }
        }
        read.sort_unstable();
        read.dedup();
        let mut out = vec![k];
        for f in read {
            out = out
                .into_iter()
                .flat_map(|k| {
                    let mut taken = k.clone();
                    taken.state.mem.set(f, ANOTHERS);
                    [k, taken]
                })
                .collect();
        }
        out
    }

    /// [`Modular::successors`] from `k`, whose mutexes the thread reads are known.
    fn successors_of(&mut self, t: ThreadId, k: Key) -> Result<Option<Successors>, String> {
        let Status::At(l) = k.state.threads[t.0 as usize] else {
            return Ok(None);
        };
        let th = self.prog.thread(t);
        let kind = th.locations[l.0 as usize].kind;
        let held = self.held(&k, t);
        match kind {
            LocKind::Exit if !held.is_empty() => {
                return Err(format!("`{}` may end holding a mutex", th.name));
            }
            LocKind::Normal => {}
            _ => return Ok(None),
        }
        let was_alone = self.is_alone(t, &k);
        let g = self.shared_of(&k);
        let owners: Vec<(usize, i64)> = self
            .mutexes
            .iter()
            .map(|&f| (f, k.state.mem.at(f)))
            .collect();
        let mut out = Successors {
            views: Vec::new(),
            visible: false,
        };
        let mut enabled = Vec::new();
        let mut blocking = false;
        let in_region = k.state.atomic == Some(t);
        for tr in th.outgoing(l) {
            // Inside an atomic region no other thread moves: a wait there never ends.
            if in_region && matches!(tr.kind, TransKind::Sync(SyncKind::Lock | SyncKind::Join)) {
                return Err(format!(
                    "`{}` may wait for a mutex or a join inside an atomic region",
                    th.name
                ));
            }
            match tr.kind {
                TransKind::Sync(SyncKind::Lock) => {
                    blocking = true;
                    if let Some(target) = self.lock_target(&k, t, tr.id)? {
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
            m.start_recording(k.state.mem.len());
            m.start_tainting(&k.undef);
            let on = m.eval(&k.state, &tr.guard);
            // (Another value of what is not known in it may make it fail, or read elsewhere.)
            let decides = m.decides(&k.state, &tr.guard);
            let rec = m.stop_recording();
            if !was_alone {
                self.accessed(t, &held, rec.reads.iter().map(|r| r.0))?;
            }
            if !was_alone {
                self.owners_read(t, tr.id, &rec.reads, true)?;
            }
            out.visible |= self.touches(t, &rec.reads, &rec.writes, None)?;
            // The others' changes are interleaved before a region, not inside it: its
            // beginning stands for the shared accesses in it.
            out.visible |= tr.begins_atomic();
            // A guard that reads a value not known may hold (a join's reads only the id a
            // creation wrote: [`Modular::joins_a_thread`]).
            let unknown = rec.read_tainted && tr.kind != TransKind::Sync(SyncKind::Join);
            drop(rec);
            if unknown && decides {
                return Err(self.unknown_decides(t, tr.id));
            }
            match on {
                Ok(0) if !unknown => continue,
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
            for next in self.step(from, t, tr.id, (!was_alone).then_some(&held[..]))? {
                out.visible |= next.visible;
                if splits_owners(&tr.kind) {
                    self.owners_typed(&next.key, t, &next.written)?;
                }
                self.owners_written(&owners, &next.key, t, tr.id, was_alone, &next.written)?;
                let dst = th.transition(tr.id).dst;
                if th.locations[dst.0 as usize].kind == LocKind::Error {
                    return Err(format!("a view of `{}` reaches an error", th.name));
                }
                let g2 = self.shared_of(&next.key);
                if g2 != g {
                    let mut h = held.clone();
                    h.extend(self.held(&next.key, t));
                    h.sort_unstable();
                    h.dedup();
                    let h: Held = h.into();
                    let gu = &mut self.guarantee[t.0 as usize];
                    if gu.pairs.insert((g.clone(), g2.clone(), h.clone())) {
                        gu.after
                            .entry(g.clone())
                            .or_default()
                            .push((g2, h, self.recorded));
                        self.recorded += 1;
                    }
                }
                self.start_children(&next.key, t, tr.id)?;
                for key in self.through_guards(t, was_alone, &held, next.key)? {
                    out.views.push(self.project(key, t));
                }
            }
        }
        Ok(Some(out))
    }

    /// Thread `t`'s step `tr` from view `k`, once for each value that stands for its inputs.
    fn step(
        &self,
        k: Key,
        t: ThreadId,
        tr: TransId,
        held: Option<&[usize]>,
    ) -> Result<Vec<Stepped>, String> {
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
            m.start_recording(next.state.mem.len());
            m.start_tainting(&next.undef);
            let r = m.execute_unguarded(&mut next.state, t, tr, &mut Given { values, next: 0 });
            let rec = m.stop_recording();
            if let Some(held) = held {
                let cells = rec
                    .reads
                    .iter()
                    .map(|r| r.0)
                    .chain(rec.writes.iter().copied());
                self.accessed(t, held, cells)?;
            }
            if held.is_some() {
                self.owners_read(t, tr, &rec.reads, false)?;
            }
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
                    Some(c) => crate::ir::thread_id(c),
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
        if trans.spawned().is_none() {
            // A replica's first view depends only on the shared memory and on the mutexes
            // that hold its id (its own memory is its function's initial one): a loop of
            // creations starts it once.
            let start = (c, self.shared_of(after), self.held(after, c));
            if !self.replica_starts.insert(start) {
                return Ok(());
            }
        }
        let mut k = after.clone();
        if trans.spawned().is_none() {
            // A replica starts with its function's initial memory.
            self.restore(&mut k, c);
        }
        k.state.threads[c.0 as usize] = Status::At(self.prog.thread(c).entry);
        // It holds no mutex.
        for inv in self.invariants.values() {
            inv.forget(&mut k);
        }
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
        // No other thread moves while `t` is inside an atomic region.
        if k.state.atomic == Some(t) {
            return Ok(false);
        }
        let g = self.shared_of(&k);
        let held = self.held(&k, t);
        let mut new = false;
        for a in 0..self.prog.threads.len() {
            let actor = ThreadId(a as u32);
            if actor == t && !self.shape.replicated[a] {
                continue;
            }
            if self.guarantee[a].after.is_empty() {
                continue;
            }
            // (Not a step of a thread holding a mutex the view's thread holds.)
            let Some(afters) = self.guarantee[a].after.get(&g) else {
                continue;
            };
            let results: Vec<Shared> = afters
                .iter()
                .filter(|(_, h, n)| *n >= since && !h.iter().any(|m| held.contains(m)))
                .map(|(after, _, _)| after.clone())
                .collect();
            for g2 in results {
                let mut next = k.clone();
                self.with_shared(&mut next, &g2);
                let view = self.space.canonical(next);
                new |= self.add(t, &view, Some(id));
            }
        }
        Ok(new)
    }

    /// The mutex cell lock step `tr` of `t` takes in view `k`, if it names one.
    fn lock_target(&self, k: &Key, t: ThreadId, tr: TransId) -> Result<Option<usize>, String> {
        let trans = self.prog.thread(t).transition(tr);
        for op in &trans.ops {
            if let Op::Assign { place, .. } = op {
                let m = self.space.machine();
                m.start_recording(k.state.mem.len());
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
        // (The index is the id less [`crate::ir::THREAD_ID_BASE`].)
        let id = self
            .space
            .machine()
            .eval(&k.state, index)
            .map(|v| v + crate::ir::THREAD_ID_BASE);
        let n = self.prog.threads.len() as i128;
        match id {
            Ok(v) if v == -1 || v == i128::from(crate::ir::NO_THREAD) => Ok(()),
            Ok(v) if (1..n).contains(&(v - crate::ir::THREAD_ID_BASE)) => Ok(()),
            _ => Err(format!(
                "`{}` may join a thread id that no creation wrote",
                self.prog.thread(t).name
            )),
        }
    }

    /// Checks that step `tr` of `t`, which read `reads` in its guard (`guard`) or its
    /// operations, reads a mutex only to synchronise: in the guard of a synchronisation
    /// (whose views tell free from held apart, and which only decides on it), or in the
    /// operations of a lock, trylock or unlock (which write it back or test it for free).
    /// A value of a mutex copied anywhere else would tell threads of a function apart, or
    /// be a view's stand-in for another thread's.
    fn owners_read(
        &self,
        t: ThreadId,
        tr: TransId,
        reads: &[(u32, i64)],
        guard: bool,
    ) -> Result<(), String> {
        use SyncKind::*;
        let kind = &self.prog.thread(t).transition(tr).kind;
        let allowed = match guard {
            true => splits_owners(kind),
            false => matches!(kind, TransKind::Sync(Lock | TryLock | Unlock)),
        };
        if allowed {
            return Ok(());
        }
        for &(f, _) in reads {
            let f = f as usize;
            if self.shared_mutex[f] {
                return Err(format!(
                    "`{}` reads a mutex other than to synchronise",
                    self.prog.thread(t).name
                ));
            }
        }
        Ok(())
    }

    /// Checks how step `tr` of `t` changed the mutexes it wrote (`owners` before, `k` after):
    /// a lock, trylock or unlock took free ones or released its own; anything else wrote
    /// one only while `main` was alone.
    fn owners_written(
        &self,
        owners: &[(usize, i64)],
        k: &Key,
        t: ThreadId,
        tr: TransId,
        was_alone: bool,
        written: &[u32],
    ) -> Result<(), String> {
        use SyncKind::*;
        let me = Self::me(t);
        let kind = &self.prog.thread(t).transition(tr).kind;
        let init = *kind == TransKind::Sync(MutexInit);
        let sync = matches!(kind, TransKind::Sync(Lock | TryLock | Unlock));
        for &f in written {
            let f = f as usize;
            if !self.shared_mutex[f] {
                continue;
            }
            let Ok(i) = owners.binary_search_by_key(&f, |o| o.0) else {
                continue;
            };
            let (a, b) = (owners[i].1, k.state.mem.at(f));
            let name = &self.prog.thread(t).name;
            if init && !was_alone {
                return Err(format!(
                    "`{name}` initialises a mutex while other threads may run"
                ));
            }
            if b != 0 && b != me && b != a {
                return Err(format!(
                    "`{name}` writes a value that holds no thread's id into a mutex"
                ));
            }
            if !sync && !was_alone {
                return Err(format!("`{name}` writes a mutex other than to synchronise"));
            }
            if !(a == b || (a == 0 && b == me) || (a == me && b == 0)) {
                return Err(format!("`{name}` may release a mutex it does not hold"));
            }
        }
        Ok(())
    }

    /// Checks that a synchronisation step of `t` that made `t` a mutex's owner wrote that in
    /// a mutex variable: the views tell owners apart there only (a mutex in memory the front
    /// end does not type, a heap block, is not covered).
    fn owners_typed(&self, k: &Key, t: ThreadId, written: &[u32]) -> Result<(), String> {
        let me = Self::me(t);
        for &f in written {
            let f = f as usize;
            let var = self.var_of[f].0 as usize;
            if self.owner(f) == Owner::Shared
                && self.prog.vars[var].elem != ElemKind::Mutex
                && k.state.mem.at(f) == me
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
            let value = k.state.mem.at(f) as i128;
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
