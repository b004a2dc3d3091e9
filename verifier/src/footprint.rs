//! What a thread may still touch, for a partial-order reduction that depends on the state:
//! from a thread's location, and what is known there of its own variables, the elements of
//! each shared variable its future steps may read and may write, as intervals of element
//! indexes. The analysis is a forward interval analysis over the thread's CFG from that
//! location (Cousot and Cousot, "Abstract Interpretation: A Unified Lattice Model for Static
//! Analysis of Programs", with widening at loop heads as in [`Range::widen`]) that tracks the
//! thread's own variables whose values reach an address (or a guard over one), takes every
//! shared value in its program-wide interval ([`Ranges`]), and narrows by guards, so that a
//! loop over `row[i]` bounded by a register stays on that row.
//!
//! [`Footprints::independent`] uses it for persistent sets (Godefroid, "Partial-Order
//! Methods for the Verification of Concurrent Systems"; seed 002, "Partial-order
//! reduction"): the next step of thread `t` may stand for every thread's where every element
//! it may touch lies outside what each other thread may still touch before `t` moves again.
//! Until then the others cannot tell whether `t`'s step came first, and a thread waiting for
//! `t` to end (a join of `t`) waits, as does a thread about to take a mutex `t` holds: its
//! analysis reads the mutex as `t`'s, so a critical section behind it is not part of its
//! footprint, provided no other thread may write the mutex before `t` moves (the lock-aware
//! persistent sets of Stoller's "Model-Checking Multi-Threaded Distributed Java Programs",
//! where a held lock stands for the accesses it guards). The explicit search ([`crate::explicit`]) reduces by it
//! with the values of its state; the ART checker ([`crate::check`]) accepts such a reduced
//! node by the same question asked with the values the node's label states, so that the
//! search's claim is checked, not trusted.

use crate::explicit::ranges::{elem_ty, eval_env, exact, truth_env, Env, Range, Ranges};
use crate::ir::*;
use crate::read_holds::{Cell, ReadHolds, Rwlocks};
use crate::smt::{Sort, Term};
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::rc::Rc;

/// The elements of shared variables a thread may still read and may write.
#[derive(Clone, Debug, Default)]
pub struct Footprint {
    reads: FxHashMap<VarId, Range>,
    writes: FxHashMap<VarId, Range>,
}

impl Footprint {
    fn add(&mut self, var: VarId, r: Range, access: Access) {
        let put = |m: &mut FxHashMap<VarId, Range>| {
            m.entry(var).and_modify(|x| *x = x.hull(r)).or_insert(r);
        };
        match access {
            Access::Read => put(&mut self.reads),
            Access::Write => put(&mut self.writes),
            Access::Update => {
                put(&mut self.reads);
                put(&mut self.writes);
            }
        }
    }

    /// Whether an access of kind `access` to the elements `r` of `var` may touch an element
    /// this footprint may write, or (a write) one it may read.
    fn conflicts(&self, var: VarId, r: Range, access: Access) -> bool {
        let hits = |m: &FxHashMap<VarId, Range>| m.get(&var).is_some_and(|x| x.meet(r).is_some());
        hits(&self.writes) || (access != Access::Read && hits(&self.reads))
    }
}

/// Most location visits of one analysis; beyond, the thread may touch anything.
const MAX_VISITS: usize = 200_000;

/// Joins at a loop head before its intervals are widened.
const WIDEN_AFTER: u32 = 3;

/// The analysis of one program, with the footprints computed so far.
pub struct Footprints<'p> {
    prog: &'p Program,
    ranges: Ranges,
    /// Per variable: its slot among its thread's tracked variables (registers and local
    /// arrays no other thread touches, whose values reach an address or a guard over one).
    slot: Vec<Option<u32>>,
    /// Per thread: its tracked variables, by slot.
    tracked: Vec<Vec<VarId>>,
    /// Per thread: the threads whose steps start it.
    creators: Vec<Vec<ThreadId>>,
    /// Per object (its first variable): the variables placed in it.
    members: FxHashMap<VarId, Vec<VarId>>,
    /// Per thread and location: whether a loop closes there.
    heads: Vec<Vec<bool>>,
    /// The constants guards compare with, sorted (widening thresholds).
    thresholds: Vec<i128>,
    /// Whether element `t` of `__thread_done` is written only by thread `t`'s own steps and
    /// starts 0: then it is 0 while `t` is at a location it can leave.
    done_is_own: bool,
    /// The shared mutex variables (a rwlock's writer cell included) of few enough elements
    /// to look at each.
    mutexes: Vec<VarId>,
    /// The read locks each thread surely holds where it is.
    readers: ReadHolds,
    cache: RefCell<FxHashMap<CacheKey, Rc<Footprint>>>,
}

/// Most elements of one mutex variable whose owners [`Footprints::independent`] looks at.
const MAX_MUTEX_ELEMENTS: u32 = 256;

/// A footprint's thread, location (`u32::MAX` before the thread starts), the thread whose
/// next step it is asked for, the intervals of the tracked variables, and the mutex cells and
/// read locks that thread holds.
type CacheKey = (u32, u32, u32, Box<[Range]>, Rc<[Cell]>, Rwlocks);

/// The thread whose next step a footprint is asked for, the mutex cells (variable and
/// element) it holds until it moves, and the rwlocks it holds a read lock of (their reader
/// and writer cells, [`ReadHolds`]).
#[derive(Clone, Copy)]
struct Until<'a> {
    thread: ThreadId,
    held: &'a [Cell],
    reading: &'a [(Cell, Cell)],
}

/// What is known of a thread's variables: the value of element `i` of `v`, if it is known.
pub type Known<'a> = &'a dyn Fn(VarId, usize) -> Option<i128>;

impl<'p> Footprints<'p> {
    /// The analysis of `prog`.
    pub fn new(prog: &'p Program) -> Footprints<'p> {
        let mut slot = vec![None; prog.vars.len()];
        let mut tracked = vec![Vec::new(); prog.threads.len()];
        for (t, th) in prog.threads.iter().enumerate() {
            let own = |v: VarId| {
                let var = prog.var(v);
                var.scope == VarScope::Local(ThreadId(t as u32)) && !var.shared
            };
            let mut set = vec![false; prog.vars.len()];
            let add = |v: VarId, set: &mut Vec<bool>| {
                let new = own(v) && !set[v.0 as usize];
                if new {
                    set[v.0 as usize] = true;
                }
                new
            };
            for tr in &th.transitions {
                for e in &tr.events {
                    if let Some(ix) = &e.at {
                        ix.expr().for_each_place(&mut |p| {
                            for v in p.vars() {
                                add(v, &mut set);
                            }
                        });
                    }
                }
            }
            loop {
                let mut changed = false;
                for tr in &th.transitions {
                    let mut guard_vars = Vec::new();
                    tr.guard
                        .for_each_place(&mut |p| guard_vars.extend(p.vars()));
                    if guard_vars.iter().any(|v| set[v.0 as usize]) {
                        for v in guard_vars {
                            changed |= add(v, &mut set);
                        }
                    }
                    for op in &tr.ops {
                        let Op::Assign { place, value } = op else {
                            continue;
                        };
                        if place.vars().iter().any(|v| set[v.0 as usize]) {
                            value.for_each_place(&mut |p| {
                                for v in p.vars() {
                                    changed |= add(v, &mut set);
                                }
                            });
                        }
                    }
                }
                if !changed {
                    break;
                }
            }
            for v in (0..prog.vars.len()).filter(|&v| set[v]) {
                slot[v] = Some(tracked[t].len() as u32);
                tracked[t].push(VarId(v as u32));
            }
        }
        let heads = prog
            .threads
            .iter()
            .map(|th| {
                let mut h = vec![false; th.locations.len()];
                for tr in th.transitions.iter().filter(|tr| tr.back_edge) {
                    h[tr.dst.0 as usize] = true;
                }
                h
            })
            .collect();
        let mut creators = vec![Vec::new(); prog.threads.len()];
        for (t, th) in prog.threads.iter().enumerate() {
            for u in th.transitions.iter().filter_map(Transition::spawned) {
                if !creators[u.0 as usize].contains(&ThreadId(t as u32)) {
                    creators[u.0 as usize].push(ThreadId(t as u32));
                }
            }
        }
        let mut members: FxHashMap<VarId, Vec<VarId>> = FxHashMap::default();
        for v in &prog.vars {
            members.entry(v.placement().object).or_default().push(v.id);
        }
        Footprints {
            prog,
            creators,
            members,
            ranges: Ranges::new(prog),
            slot,
            tracked,
            heads,
            thresholds: crate::explicit::unknowns::thresholds(prog),
            done_is_own: done_is_own(prog),
            mutexes: (prog.vars.iter())
                .filter(|v| v.shared && v.elem == ElemKind::Mutex && v.len <= MAX_MUTEX_ELEMENTS)
                .map(|v| v.id)
                .collect(),
            readers: ReadHolds::new(prog),
            cache: RefCell::default(),
        }
    }

    /// Whether thread `t`'s next step may stand for every thread's at a state where thread
    /// `u` is at `locs[u]` (`None`: not started) and `known` gives what is known of the
    /// threads' variables: every step `t` may take there is an ordinary statement or branch
    /// or the start of a thread (no other synchronisation, no error, no atomic region), and
    /// the elements it may touch lie outside what every other thread may touch before `t`
    /// moves (a thread only `t` starts touches nothing before, and one about to take a mutex
    /// `t` holds waits while no other thread may write the mutex). (That `t` can move, and the
    /// cycle proviso, are the caller's.)
    pub fn independent(&self, locs: &[Option<LocId>], t: ThreadId, known: Known) -> bool {
        let Some(l) = locs[t.0 as usize] else {
            return false;
        };
        let th = self.prog.thread(t);
        let mut out = th.outgoing(l).peekable();
        let starts = |tr: &Transition| {
            tr.kind == TransKind::Sync(SyncKind::Spawn)
                && !tr.may_block
                && th.locations[tr.dst.0 as usize].kind == LocKind::Normal
                && (tr.ops.iter()).all(|o| matches!(o, Op::Assign { .. } | Op::Spawn { .. }))
                && (tr.spawned()).is_none_or(|w| self.creators[w.0 as usize] == [t])
        };
        if out.peek().is_none() || !out.all(|tr| th.ordinary_transition(tr) || starts(tr)) {
            return false;
        }
        let mut mine = Footprint::default();
        let vals = self.initial(t, known);
        // (Its own step's footprint: no mutex of another's to wait for.)
        let alone = Until {
            thread: t,
            held: &[],
            reading: &[],
        };
        for tr in th.outgoing(l) {
            self.step(t, alone, tr, &vals, &mut mine);
        }
        if mine.reads.is_empty() && mine.writes.is_empty() {
            return true;
        }
        let owner = lock_owner(t);
        let held: Rc<[Cell]> = (self.mutexes.iter())
            .flat_map(|&v| (0..self.prog.var(v).len as usize).map(move |i| (v, i)))
            .filter(|&(v, i)| known(v, i) == Some(owner))
            .map(|(v, i)| (v, i as i128))
            .collect();
        let reading = self.readers.at(t, l);
        for (u, at) in locs.iter().enumerate() {
            let u = ThreadId(u as u32);
            if u == t {
                continue;
            }
            let theirs = match *at {
                Some(l) if self.prog.thread(u).locations[l.0 as usize].kind != LocKind::Normal => {
                    continue
                }
                Some(l) => self.footprint(u, Some(l), t, self.initial(u, known), &held, reading),
                // A thread that only `t` starts cannot start before `t` moves.
                None if self.creators[u.0 as usize] == [t] => continue,
                None => {
                    let top = self.tracked[u.0 as usize]
                        .iter()
                        .map(|&v| Range::full(elem_ty(self.prog, v)))
                        .collect();
                    self.footprint(u, None, t, top, &held, reading)
                }
            };
            // (The others' footprints read `t`'s mutexes as held: that holds only where none
            // of them may write one before `t` moves, an unlock of a mutex it does not hold or
            // an initialisation.)
            if (held.iter()).any(|&(v, i)| theirs.conflicts(v, Range::point(i), Access::Read)) {
                return false;
            }
            let touches = |m: &FxHashMap<VarId, Range>, access| {
                m.iter().any(|(&v, &r)| theirs.conflicts(v, r, access))
            };
            if touches(&mine.writes, Access::Write) || touches(&mine.reads, Access::Read) {
                return false;
            }
        }
        true
    }

    /// The intervals of thread `t`'s tracked variables from what `known` gives.
    fn initial(&self, t: ThreadId, known: Known) -> Box<[Range]> {
        self.tracked[t.0 as usize]
            .iter()
            .map(|&v| {
                let var = self.prog.var(v);
                let full = Range::full(elem_ty(self.prog, v));
                let mut r: Option<Range> = None;
                for i in 0..var.len as usize {
                    match known(v, i) {
                        Some(x) if full.contains(x) => {
                            let p = Range::point(x);
                            r = Some(r.map_or(p, |r| r.hull(p)));
                        }
                        _ => return full,
                    }
                }
                r.unwrap_or(full)
            })
            .collect()
    }

    /// The footprint of thread `u` from location `at` (its entry, not started: `None`),
    /// with its tracked variables in `vals`, until thread `t` moves, which holds the mutex
    /// cells `held` and read locks `reading` meanwhile.
    fn footprint(
        &self,
        u: ThreadId,
        at: Option<LocId>,
        t: ThreadId,
        vals: Box<[Range]>,
        held: &Rc<[Cell]>,
        reading: &Rwlocks,
    ) -> Rc<Footprint> {
        let at_key = at.map_or(u32::MAX, |l| l.0);
        let key = (u.0, at_key, t.0, vals, held.clone(), reading.clone());
        let t = Until {
            thread: t,
            held,
            reading,
        };
        if let Some(f) = self.cache.borrow().get(&key) {
            return f.clone();
        }
        let th = self.prog.thread(u);
        let start = at.unwrap_or(th.entry);
        let mut states: Vec<Option<Box<[Range]>>> = vec![None; th.locations.len()];
        let mut joins = vec![0u32; th.locations.len()];
        let mut queued = vec![false; th.locations.len()];
        let mut work = vec![start];
        states[start.0 as usize] = Some(key.3.clone());
        queued[start.0 as usize] = true;
        let mut fp = Footprint::default();
        let mut visits = 0;
        while let Some(l) = work.pop() {
            queued[l.0 as usize] = false;
            visits += 1;
            if visits > MAX_VISITS {
                fp = self.everything();
                break;
            }
            let Some(s) = states[l.0 as usize].clone() else {
                continue;
            };
            for tr in th.outgoing(l) {
                let Some(after) = self.step(u, t, tr, &s, &mut fp) else {
                    continue;
                };
                let d = tr.dst.0 as usize;
                let new = match &states[d] {
                    None => after,
                    Some(old) => {
                        let mut grown = false;
                        let widen = self.heads[u.0 as usize][d] && joins[d] >= WIDEN_AFTER;
                        let joined: Box<[Range]> = (old.iter().zip(after.iter()))
                            .zip(&self.tracked[u.0 as usize])
                            .map(|((&o, &n), &v)| {
                                let h = o.hull(n);
                                if h == o {
                                    return o;
                                }
                                grown = true;
                                if widen {
                                    o.widen(n, elem_ty(self.prog, v), &self.thresholds)
                                } else {
                                    h
                                }
                            })
                            .collect();
                        if !grown {
                            continue;
                        }
                        joins[d] += 1;
                        joined
                    }
                };
                states[d] = Some(new);
                if !queued[d] {
                    queued[d] = true;
                    work.push(tr.dst);
                }
            }
        }
        let fp = Rc::new(fp);
        self.cache.borrow_mut().insert(key, fp.clone());
        fp
    }

    /// A footprint that touches every element of every shared variable.
    fn everything(&self) -> Footprint {
        let mut fp = Footprint::default();
        for v in self.prog.vars.iter().filter(|v| v.shared) {
            let all = Range {
                lo: 0,
                hi: v.len.max(1) as i128 - 1,
            };
            fp.add(v.id, all, Access::Update);
        }
        fp
    }

    /// Transition `tr` of thread `u` from the intervals `vals`, until thread `t` moves:
    /// the elements it may touch go to `fp`, and the intervals after it are returned, or
    /// `None` where its guard cannot hold.
    fn step(
        &self,
        u: ThreadId,
        t: Until,
        tr: &Transition,
        vals: &[Range],
        fp: &mut Footprint,
    ) -> Option<Box<[Range]>> {
        let mut s: Box<[Range]> = vals.into();
        if truth_env(&tr.guard, &self.env(u, t, &s)) == Some(false)
            || !self.narrow(u, t, &tr.guard, true, &mut s)
        {
            return None;
        }
        // What the accesses that every execution of the step makes say, where they do not
        // fault.
        let assigned: Vec<VarId> = tr.writes().flat_map(Place::vars).collect();
        let mut sure = Vec::new();
        surely_read(&tr.guard, &mut sure);
        for op in &tr.ops {
            match op {
                Op::Assign { place, value } => {
                    surely_read(value, &mut sure);
                    place.for_each_subexpr(&mut |e| surely_read(e, &mut sure));
                    sure.push(place);
                }
                Op::Havoc { place, .. } => {
                    place.for_each_subexpr(&mut |e| surely_read(e, &mut sure));
                    sure.push(place);
                }
                Op::Spawn { .. } | Op::AtomicBegin | Op::AtomicEnd => {}
            }
        }
        for p in sure {
            if !self.narrow_access(u, t, p, &assigned, &mut s) {
                return None;
            }
        }
        // The guard's accesses, then each op's in the state the ops before it left.
        let mut guard = Vec::new();
        tr.guard.for_each_place(&mut |p| guard.push(p));
        for p in guard {
            self.touch(p, Access::Read, &self.env(u, t, &s), fp);
        }
        for op in &tr.ops {
            let mut reads = Vec::new();
            let written = match op {
                Op::Assign { place, value } => {
                    value.for_each_place(&mut |p| reads.push(p));
                    Some(place)
                }
                Op::Havoc { place, .. } => Some(place),
                Op::Spawn { args, .. } => {
                    for (_, e) in args {
                        e.for_each_place(&mut |p| reads.push(p));
                    }
                    None
                }
                Op::AtomicBegin | Op::AtomicEnd => None,
            };
            if let Some(place) = written {
                place.for_each_subexpr(&mut |e| e.for_each_place(&mut |p| reads.push(p)));
            }
            let env = self.env(u, t, &s);
            for p in reads {
                self.touch(p, Access::Read, &env, fp);
            }
            let Some(place) = written else {
                continue;
            };
            self.touch(place, Access::Write, &env, fp);
            let r = match op {
                Op::Assign { value, .. } => eval_env(value, &env),
                Op::Havoc { ty, .. } => Range::full(*ty),
                _ => unreachable!("an op that writes"),
            };
            self.assign(place, r, &mut s);
        }
        Some(s)
    }

    /// Writes a value in `r` to `place` in the intervals `s`: a tracked scalar it names takes
    /// `r`, a tracked array or a target of a pointer may; a store through a pointer of
    /// another width than its target's elements may change any tracked variable of the
    /// target's object.
    fn assign(&self, place: &Place, r: Range, s: &mut [Range]) {
        let strong = matches!(place, Place::Var { index: None, .. });
        for v in place.vars() {
            let ty = elem_ty(self.prog, v);
            let r = match place {
                Place::Deref { ty: pt, .. } if *pt != ty => {
                    let o = self.prog.var(v).placement().object;
                    for &m in self.members.get(&o).into_iter().flatten() {
                        if let Some(k) = self.slot[m.0 as usize] {
                            s[k as usize] = Range::full(elem_ty(self.prog, m));
                        }
                    }
                    Range::full(ty)
                }
                _ => r.as_ty(ty),
            };
            if let Some(k) = self.slot[v.0 as usize] {
                let k = k as usize;
                s[k] = if strong { r } else { s[k].hull(r) };
            }
        }
    }

    /// Adds to `fp` the elements of shared variables an access of kind `access` to place
    /// `p` may touch, in `env`: a variable's element; through a pointer, every element of a
    /// variable of a target's object that the bytes from the address on, as many as the
    /// access's type has, may overlap; and the allocation status of a heap object's
    /// instances.
    fn touch(&self, p: &Place, access: Access, env: &At, fp: &mut Footprint) {
        let vars = match p {
            Place::Var { var, .. } => vec![*var],
            Place::Deref { targets, .. } => {
                let mut all = Vec::new();
                for &v in targets {
                    let o = self.prog.var(v).placement().object;
                    for &m in self.members.get(&o).into_iter().flatten() {
                        if !all.contains(&m) {
                            all.push(m);
                        }
                    }
                }
                all
            }
        };
        let addr = match p {
            Place::Deref { addr, ty, .. } => {
                let a = eval_env(addr, env);
                let width = (ty.bits as i128 + 7).div_euclid(8).max(1);
                Some(Range {
                    lo: a.lo,
                    hi: a.hi.saturating_add(width - 1),
                })
            }
            Place::Var { .. } => None,
        };
        for v in vars {
            let var = self.prog.var(v);
            if !var.shared {
                continue;
            }
            let all = Range {
                lo: 0,
                hi: var.len.max(1) as i128 - 1,
            };
            let o = var.placement().object;
            if o != v && self.prog.var(o).allocation_status {
                let status = self.prog.var(o);
                let every = Range {
                    lo: 0,
                    hi: status.len.max(1) as i128 - 1,
                };
                fp.add(o, every, Access::Read);
            }
            let r = match (p, addr) {
                (Place::Var { index: None, .. }, _) => Some(all),
                (
                    Place::Var {
                        index: Some(ix), ..
                    },
                    _,
                ) => eval_env(ix, env).meet(all),
                (_, Some(a)) => {
                    // Element `i` spans the bytes from its address on, as many as its cell
                    // has (an element of a variable without a placement is accessed whole
                    // from its own address).
                    let (base, stride) = (var.base_address(), var.placement().stride as i128);
                    let cell = if var.placement.is_some() {
                        (cell_width(var.elem) as i128).max(1)
                    } else {
                        1
                    };
                    let lo = (a.lo - base - cell + 1).max(0);
                    let lo = -(-lo).div_euclid(stride);
                    let hi = (a.hi - base).div_euclid(stride);
                    Range { lo, hi }.meet(all)
                }
                (Place::Deref { .. }, None) => Some(all),
            };
            if let Some(r) = r {
                fp.add(v, r, access);
            }
        }
    }

    /// Narrows the intervals `s` of thread `u`'s variables by condition `e` having truth
    /// `holds`; false where it cannot.
    fn narrow(&self, u: ThreadId, t: Until, e: &Expr, holds: bool, s: &mut [Range]) -> bool {
        match e {
            Expr::Unary {
                op: UnOp::Not, arg, ..
            } => self.narrow(u, t, arg, !holds, s),
            Expr::Binary {
                op: BinOp::And,
                lhs,
                rhs,
                ..
            } if holds => self.narrow(u, t, lhs, true, s) && self.narrow(u, t, rhs, true, s),
            Expr::Binary {
                op: BinOp::Or,
                lhs,
                rhs,
                ..
            } if !holds => self.narrow(u, t, lhs, false, s) && self.narrow(u, t, rhs, false, s),
            Expr::Binary { op, lhs, rhs, .. } if op.is_comparison() => {
                let op = if holds { *op } else { op.negated() };
                let eval = |e: &Expr, s: &[Range]| eval_env(e, &self.env(u, t, s));
                let (a, b) = (eval(lhs, s), eval(rhs, s));
                if !self.narrow_to(u, t, lhs, compared(op, a, b, lhs.ty()), s) {
                    return false;
                }
                let a = eval(lhs, s);
                self.narrow_to(u, t, rhs, compared(op.swapped(), b, a, rhs.ty()), s)
            }
            _ => true,
        }
    }

    /// Narrows the intervals `s` of thread `u`'s variables to those where `e` evaluates into
    /// `r` (backwards through casts that keep values and arithmetic that does not wrap);
    /// false where it cannot.
    fn narrow_to(&self, u: ThreadId, t: Until, e: &Expr, r: Range, s: &mut [Range]) -> bool {
        let eval = |e: &Expr, s: &[Range]| eval_env(e, &self.env(u, t, s));
        let Some(r) = eval(e, s).meet(r) else {
            return false;
        };
        match e {
            Expr::Load {
                place: Place::Var { var, index: None },
                ty,
            } if elem_ty(self.prog, *var) == *ty && !self.prog.var(*var).is_array => {
                if let Some(k) = self.slot[var.0 as usize] {
                    s[k as usize] = r;
                }
                true
            }
            Expr::Cast { arg, ty } if eval(arg, s).fits(*ty) => self.narrow_to(u, t, arg, r, s),
            Expr::Binary { op, lhs, rhs, ty } => {
                let (a, b) = (eval(lhs, s), eval(rhs, s));
                // Signed arithmetic that would overflow is undefined: it ends the execution.
                let keeps = ty.signed || exact(*op, a, b).is_some_and(|x| x.fits(*ty));
                let minus = |x: Range, y: Range| Range {
                    lo: x.lo - y.hi,
                    hi: x.hi - y.lo,
                };
                let plus = |x: Range, y: Range| Range {
                    lo: x.lo + y.lo,
                    hi: x.hi + y.hi,
                };
                match op {
                    _ if !keeps => true,
                    BinOp::Add => {
                        self.narrow_to(u, t, lhs, minus(r, b), s) && {
                            let a = eval(lhs, s);
                            self.narrow_to(u, t, rhs, minus(r, a), s)
                        }
                    }
                    BinOp::Sub => {
                        self.narrow_to(u, t, lhs, plus(r, b), s) && {
                            let a = eval(lhs, s);
                            self.narrow_to(u, t, rhs, minus(a, r), s)
                        }
                    }
                    BinOp::Mul => {
                        let (target, c) = match (a, b) {
                            (_, Range { lo, hi }) if lo == hi && lo > 0 => (lhs, lo),
                            (Range { lo, hi }, _) if lo == hi && lo > 0 => (rhs, lo),
                            _ => return true,
                        };
                        let within = Range {
                            lo: -(-r.lo).div_euclid(c),
                            hi: r.hi.div_euclid(c),
                        };
                        self.narrow_to(u, t, target, within, s)
                    }
                    _ => true,
                }
            }
            _ => true,
        }
    }

    /// Narrows the intervals `s` of thread `u`'s variables by what an access to place `p`
    /// that does not fault says: its index lies in its variable, its address in one of its
    /// targets. Only where the access reads the variables as they are before the step
    /// (`assigned` holds those its ops write); false where every such access faults.
    fn narrow_access(
        &self,
        u: ThreadId,
        t: Until,
        p: &Place,
        assigned: &[VarId],
        s: &mut [Range],
    ) -> bool {
        let mut reads = Vec::new();
        p.for_each_subexpr(&mut |e| e.for_each_place(&mut |q| reads.extend(q.vars())));
        if reads.iter().any(|v| assigned.contains(v)) {
            return true;
        }
        match p {
            Place::Var {
                var,
                index: Some(ix),
            } => {
                let len = self.prog.var(*var).len.max(1) as i128;
                self.narrow_to(u, t, ix, Range { lo: 0, hi: len - 1 }, s)
            }
            Place::Deref {
                addr,
                targets,
                header: false,
                ..
            } if !targets.is_empty() => {
                let spans = targets.iter().map(|&v| {
                    let var = self.prog.var(v);
                    let stride = var.placement().stride as i128;
                    Range {
                        lo: var.base_address(),
                        hi: var.element_address(var.len.max(1) as i128 - 1) + stride - 1,
                    }
                });
                let within = spans.reduce(Range::hull).expect("a target");
                self.narrow_to(u, t, addr, within, s)
            }
            _ => true,
        }
    }

    /// The [`Env`] of thread `u`'s variables with intervals `s`, until thread `t` moves.
    fn env<'a>(&'a self, u: ThreadId, t: Until<'a>, s: &'a [Range]) -> At<'a, 'p> {
        At {
            fp: self,
            thread: u,
            waiting: t,
            vals: s,
        }
    }
}

/// The intervals of a thread's tracked variables, as an [`Env`]: a tracked variable reads
/// its interval, `__thread_done[t]` of the thread `t` waited for reads 0 (where it is the
/// thread's own, [`Footprints::done_is_own`]), any other variable its program-wide interval.
struct At<'f, 'p> {
    fp: &'f Footprints<'p>,
    thread: ThreadId,
    waiting: Until<'f>,
    vals: &'f [Range],
}

impl Env for At<'_, '_> {
    fn load(&self, place: &Place, ty: Ty) -> Range {
        let prog = self.fp.prog;
        let Place::Var { var, index } = place else {
            return Range::full(ty);
        };
        if elem_ty(prog, *var) != ty {
            return Range::full(ty);
        }
        if let Some(k) = self.fp.slot[var.0 as usize] {
            debug_assert_eq!(prog.var(*var).scope, VarScope::Local(self.thread));
            return self.vals[k as usize];
        }
        // A rwlock the waited-for thread holds a read lock of has a reader, and no writer.
        for &((r, i), (w, j)) in self.waiting.reading {
            if *var != r && *var != w {
                continue;
            }
            let at = index
                .as_deref()
                .map_or(Range::point(0), |ix| eval_env(ix, self));
            let all = self.fp.ranges.of(*var);
            if *var == r && at == Range::point(i) {
                let some = Range { lo: 1, hi: all.hi };
                return all.meet(some).unwrap_or(all);
            }
            if *var == w && at == Range::point(j) {
                return Range::point(0);
            }
        }
        // A mutex the waited-for thread holds stays its own.
        let held = self.waiting.held;
        if held.iter().any(|(m, _)| m == var) {
            let at = index
                .as_deref()
                .map_or(Range::point(0), |ix| eval_env(ix, self));
            if held
                .iter()
                .any(|&(m, k)| m == *var && at == Range::point(k))
            {
                return Range::point(lock_owner(self.waiting.thread));
            }
        }
        if *var == prog.thread_done && self.fp.done_is_own {
            if let Some(ix) = index {
                let w = self.waiting.thread.0 as i128;
                if eval_env(ix, self) == Range::point(w) {
                    return Range::point(0);
                }
            }
        }
        self.fp.ranges.of(*var)
    }

    fn defined_only(&self) -> bool {
        true
    }

    fn address(&self, var: VarId, index: Range) -> Option<Range> {
        let v = self.fp.prog.var(var);
        let (lo, hi) = (v.element_address(index.lo), v.element_address(index.hi));
        Some(Range {
            lo: lo.min(hi),
            hi: lo.max(hi),
        })
    }
}

/// Whether element `t` of `__thread_done` starts 0 and is written only by thread `t`'s last
/// step (at constant index `t`, into a location with no step after it).
fn done_is_own(prog: &Program) -> bool {
    let done = prog.thread_done;
    if prog.var(done).init != Init::Zero {
        return false;
    }
    prog.threads.iter().enumerate().all(|(t, th)| {
        th.transitions.iter().all(|tr| {
            let last = th.outgoing(tr.dst).next().is_none();
            tr.writes().all(|p| match p {
                Place::Var { var, index } if *var == done => {
                    last && index
                        .as_deref()
                        .and_then(Expr::as_const)
                        .is_some_and(|i| i == t as i128)
                }
                Place::Var { .. } => true,
                Place::Deref { targets, .. } => !targets.contains(&done),
            })
        })
    })
}

/// The values `a` (of type `ty`) may take where `a op b` holds with `b` in `b` (all of `a`
/// where that is not an interval).
fn compared(op: BinOp, a: Range, b: Range, ty: Ty) -> Range {
    let all = Range::full(ty);
    match op {
        BinOp::Lt => Range {
            lo: all.lo,
            hi: b.hi - 1,
        },
        BinOp::Le => Range {
            lo: all.lo,
            hi: b.hi,
        },
        BinOp::Gt => Range {
            lo: b.lo + 1,
            hi: all.hi,
        },
        BinOp::Ge => Range {
            lo: b.lo,
            hi: all.hi,
        },
        BinOp::Eq => b,
        _ if b.lo == b.hi && a.lo == b.lo && a.lo < a.hi => Range {
            lo: a.lo + 1,
            hi: a.hi,
        },
        _ if b.lo == b.hi && a.hi == b.lo && a.lo < a.hi => Range {
            lo: a.lo,
            hi: a.hi - 1,
        },
        _ => all,
    }
}

/// Adds to `out` the places every evaluation of `e` reads (not those of the other operand
/// of `&&` and `||`, which may not be evaluated, nor those of the arms of a conditional).
fn surely_read<'e>(e: &'e Expr, out: &mut Vec<&'e Place>) {
    match e {
        Expr::Const { .. } => {}
        Expr::Load { place, .. } => {
            out.push(place);
            place.for_each_subexpr(&mut |i| surely_read(i, out));
        }
        Expr::AddrOf { index, .. } => surely_read(index, out),
        Expr::Unary { arg, .. } | Expr::Cast { arg, .. } => surely_read(arg, out),
        Expr::Binary {
            op: BinOp::And | BinOp::Or,
            lhs,
            ..
        } => surely_read(lhs, out),
        Expr::Binary { lhs, rhs, .. } => {
            surely_read(lhs, out);
            surely_read(rhs, out);
        }
        Expr::Ite { cond, .. } => surely_read(cond, out),
    }
}

/// The values a label states (its conjuncts `x = c` and `a[k] = c`, also inside
/// conjunctions), as [`Known`] takes them: what the ART checker knows of a node's threads.
pub struct LabelValues {
    vars: FxHashMap<(VarId, usize), i128>,
}

impl LabelValues {
    /// The values `label` states, for variables named as `names` names them.
    pub fn of(label: &Term, names: &FxHashMap<Rc<str>, VarId>) -> LabelValues {
        let mut vars = FxHashMap::default();
        let mut add = |x: &Term| {
            let Term::Eq(l, r) = x else { return };
            let (cell, c) = match (&**l, &**r) {
                (a, Term::Int(c)) | (Term::Int(c), a) => (a, *c),
                _ => return,
            };
            let (name, i) = match cell {
                Term::Var(n, Sort::Int) => (n, 0),
                Term::Select(a, i) => match (&**a, &**i) {
                    (Term::Var(n, Sort::Array), Term::Int(i)) if *i >= 0 => (n, *i as usize),
                    _ => return,
                },
                _ => return,
            };
            if let Some(&v) = names.get(name) {
                vars.entry((v, i)).or_insert(c);
            }
        };
        fn walk(t: &Term, add: &mut impl FnMut(&Term)) {
            match t {
                Term::And(xs) => xs.iter().for_each(|x| walk(x, add)),
                x => add(x),
            }
        }
        walk(label, &mut add);
        LabelValues { vars }
    }

    /// The value the label states for element `i` of `v`.
    pub fn get(&self, v: VarId, i: usize) -> Option<i128> {
        self.vars.get(&(v, i)).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A label's `x = c` and `a[k] = c` conjuncts, nested or not, are what it knows; other
    /// conjuncts and variables it does not name say nothing.
    #[test]
    fn a_label_knows_the_values_its_conjuncts_state() {
        let names: FxHashMap<Rc<str>, VarId> = [("x".into(), VarId(0)), ("a".into(), VarId(1))]
            .into_iter()
            .collect();
        let x = Term::var("x", Sort::Int);
        let a = Term::var("a", Sort::Array);
        let cell = |k: i128| Term::select(a.clone(), Term::int(k));
        let label = Term::and([
            Term::eq(x.clone(), Term::int(7)),
            Term::and([
                Term::eq(cell(2), Term::int(-1)),
                Term::eq(Term::int(5), cell(3)),
            ]),
            Term::le(cell(4), Term::int(9)),
            Term::eq(Term::var("y", Sort::Int), Term::int(1)),
        ]);
        let known = LabelValues::of(&label, &names);
        assert_eq!(known.get(VarId(0), 0), Some(7));
        assert_eq!(known.get(VarId(1), 2), Some(-1));
        assert_eq!(known.get(VarId(1), 3), Some(5));
        assert_eq!(known.get(VarId(1), 4), None);
        assert_eq!(known.get(VarId(1), 0), None);
    }

    /// Two threads beside `main`: thread 1 runs `FIRST`, thread 2 `BODY`, over `data` and
    /// the lock `LOCK` declares.
    const PAIR: &str = r#"
#include <pthread.h>
int data[2];
LOCK
void *first(void *arg) {
  FIRST
}
void *other(void *arg) {
  BODY
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, first, 0);
  pthread_create(&b, 0, other, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}"#;

    /// A worker's critical section behind mutex `m`.
    fn workers(body: &str) -> String {
        PAIR.replace("LOCK", "pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;")
            .replace(
                "FIRST",
                "pthread_mutex_lock(&m); data[0]++; data[1]++; pthread_mutex_unlock(&m); return 0;",
            )
            .replace("BODY", body)
    }

    /// Whether thread 1's first step inside its critical section stands for all, with
    /// thread 2 about to start running `body` and the mutex's owner `owner`.
    fn inside_stands_for_all(body: &str, owner: i128) -> bool {
        let src = workers(body);
        let p = crate::frontend::load_str("locks.c", &src, &Default::default()).expect("lowers");
        let m = p
            .vars
            .iter()
            .find(|v| v.elem == ElemKind::Mutex)
            .expect("the mutex")
            .id;
        let lock = |t: u32| {
            let th = p.thread(ThreadId(t));
            let tr = th
                .transitions
                .iter()
                .find(|tr| tr.kind == TransKind::Sync(SyncKind::Lock));
            tr.map(|tr| (tr.src, tr.dst)).expect("a lock")
        };
        let join = p.threads[0].transitions.iter();
        let join = join.filter(|tr| tr.kind == TransKind::Sync(SyncKind::Join));
        let main_at = join.map(|tr| tr.src).next().expect("a join");
        let locs = [Some(main_at), Some(lock(1).1), Some(p.threads[2].entry)];
        let known = |v: VarId, i: usize| (v == m && i == 0).then_some(owner);
        Footprints::new(&p).independent(&locs, ThreadId(1), &known)
    }

    /// A step inside a critical section stands for every thread's while another thread's
    /// accesses of the same cells lie behind the mutex the first holds, and not while the
    /// mutex is free or the other may release it without taking it.
    #[test]
    fn a_step_inside_a_critical_section_stands_for_all() {
        let locked = "pthread_mutex_lock(&m); data[0]++; pthread_mutex_unlock(&m);";
        assert!(inside_stands_for_all(locked, lock_owner(ThreadId(1))));
        assert!(!inside_stands_for_all(locked, 0));
        let stray = "pthread_mutex_unlock(&m); data[0] = 1;";
        assert!(!inside_stands_for_all(stray, lock_owner(ThreadId(1))));
    }

    /// A reader's section behind read lock `l`.
    fn readers(body: &str) -> String {
        PAIR.replace("LOCK", "pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;")
            .replace(
                "FIRST",
                "pthread_rwlock_rdlock(&l); int a = data[0]; int b = data[1]; \
                 pthread_rwlock_unlock(&l); return (void *)(long)(a + b);",
            )
            .replace("BODY", body)
    }

    /// Whether thread 1's read of `data[0]` inside its read-locked section stands for all,
    /// with thread 2 about to start running `body`.
    fn read_inside_stands_for_all(body: &str) -> bool {
        let src = readers(body);
        let p = crate::frontend::load_str("readers.c", &src, &Default::default()).expect("lowers");
        let data = p.vars.iter().find(|v| v.name.starts_with("data"));
        let data = data.expect("data").id;
        let th = p.thread(ThreadId(1));
        let reads_data = |tr: &&Transition| {
            let mut hit = false;
            tr.for_each_expr(&mut |e| e.for_each_place(&mut |pl| hit |= pl.vars().contains(&data)));
            hit
        };
        let read = th
            .transitions
            .iter()
            .find(reads_data)
            .expect("a read of data");
        let join = p.threads[0].transitions.iter();
        let join = join.filter(|tr| tr.kind == TransKind::Sync(SyncKind::Join));
        let main_at = join.map(|tr| tr.src).next().expect("a join");
        let locs = [Some(main_at), Some(read.src), Some(p.threads[2].entry)];
        Footprints::new(&p).independent(&locs, ThreadId(1), &|_, _| None)
    }

    /// A step inside a read-locked section stands for every thread's while another thread's
    /// writes lie behind the write lock; not where they do not, nor where another thread may
    /// give back a read lock it does not hold (the count then no longer counts the readers),
    /// nor where it initialises the lock while it may be held.
    #[test]
    fn a_step_inside_a_read_locked_section_stands_for_all() {
        let writer = "pthread_rwlock_wrlock(&l); data[0] = 1; pthread_rwlock_unlock(&l);";
        assert!(read_inside_stands_for_all(writer));
        assert!(!read_inside_stands_for_all("data[0] = 1;"));
        let stray = format!("pthread_rwlock_unlock(&l); {writer}");
        assert!(!read_inside_stands_for_all(&stray));
        let init = format!("pthread_rwlock_init(&l, 0); {writer}");
        assert!(!read_inside_stands_for_all(&init));
    }
}
