//! Intervals of the values the explicit search does not know: for each cell of memory, an
//! interval that contains its value in every reachable state where it is not known (computed
//! from an input or never written since it started uninitialised, [`super::space::Key::undef`]),
//! and for each register (a thread's own scalar whose address is never taken, or taken but
//! written by its thread alone) such an interval per location of its thread. A branch
//! narrows the interval of the register it compares (`x < 5` taken: `x <= 4` after it), so
//! that an input checked once (`assume(x < SIZE)`, `if (x >= N) abort()`) stays in range
//! wherever its value goes.
//!
//! It is interval analysis (Cousot and Cousot, "Abstract Interpretation: A Unified Lattice
//! Model for Static Analysis of Programs", with widening), flow-sensitive for registers and
//! flow-insensitive for the rest of memory, restricted to the values not known: an assignment
//! of a constant, or of what only known values compute, makes a known value and adds nothing. The
//! search uses it to leave out a branch whose guard no value not known can make true (a value
//! popped from a stack of inputs in `[0, 4]` is never `-2`), and the labels state the
//! intervals ([`super::proof::Labels`]), so that the independent checker sees the same. Like
//! every fact of the labels, they are checked, not trusted.

use super::ranges::{elem_ty, eval_vars, Range, Ranges};
use crate::ir::*;
use rustc_hash::FxHashMap;

/// How often an interval may grow before it is widened to its type's range.
const WIDEN_AFTER: u32 = 4;

/// Most register intervals the analysis may compute (over all transitions and rounds) before
/// it gives up; then it knows nothing, and its users fall back on the intervals of all values
/// ([`super::ranges`]). Large programs with many registers not known (floating point, library
/// results) would otherwise cost minutes and gigabytes.
const MAX_WORK: usize = 1_000_000;

/// Intervals of values not known; see the module documentation.
pub struct Unknowns {
    /// Per variable kept in memory: the interval of its cells' values where not known
    /// (`None`: its cells are always known).
    memory: Vec<Option<Range>>,
    /// Whether a variable is a register (its interval depends on the location).
    register: Vec<bool>,
    /// Per variable, the thread whose local it is.
    owner: Vec<Option<ThreadId>>,
    /// Per thread and location: the registers that may be not known there, with their
    /// intervals, sorted by register.
    at: Vec<Vec<Sorted>>,
}

/// Registers with their intervals, sorted by register.
type Sorted = Box<[(VarId, Range)]>;

/// The registers of one thread that may hold values not known, with their intervals.
type Regs = FxHashMap<VarId, Range>;

impl Unknowns {
    /// The analysis of a program, with the value ranges of its variables, where the
    /// registers marked in `abstracted` are not known wherever they are live (the search
    /// forgets their values: [`super::counters`]).
    pub fn new(prog: &Program, ranges: &Ranges, abstracted: &[bool]) -> Unknowns {
        let mut a = Analysis::new(prog, ranges, abstracted);
        let any = has_unknowns(prog) || abstracted.iter().any(|&a| a);
        if any && a.run().is_none() {
            // Gave up: nothing is known.
            return Unknowns {
                memory: vec![None; prog.vars.len()],
                register: vec![false; prog.vars.len()],
                owner: vec![None; prog.vars.len()],
                at: Vec::new(),
            };
        }
        Unknowns {
            memory: a.memory,
            register: a.register,
            owner: a.owner,
            at: a
                .at
                .into_iter()
                .map(|locs| {
                    locs.into_iter()
                        .map(|regs| {
                            let mut v: Vec<(VarId, Range)> = regs.into_iter().collect();
                            v.sort_unstable_by_key(|(r, _)| *r);
                            v.into_boxed_slice()
                        })
                        .collect()
                })
                .collect(),
        }
    }

    /// An interval containing the values of the elements of variable `v` wherever they are
    /// not known, with the thread owning `v` (if it is a register) at location `at`; `None` where
    /// the analysis found that it is always known there (the caller then falls back on its
    /// interval over all values).
    pub fn of(&self, v: VarId, at: Option<LocId>) -> Option<Range> {
        let i = v.0 as usize;
        if !self.register[i] {
            return self.memory[i];
        }
        let (Some(t), Some(l)) = (self.owner[i], at) else {
            return None;
        };
        let regs = self.at.get(t.0 as usize)?.get(l.0 as usize)?;
        let k = regs.binary_search_by_key(&v, |(r, _)| *r).ok()?;
        Some(regs[k].1)
    }

    /// Per variable, whether it may be not known with an interval of at most `max` values
    /// somewhere: in memory, or at some location of its thread.
    pub fn narrow_somewhere(&self, max: i128) -> Vec<bool> {
        let small = |r: &Range| r.hi - r.lo < max;
        let mut out: Vec<bool> = self
            .memory
            .iter()
            .map(|m| m.is_some_and(|r| small(&r)))
            .collect();
        for (v, r) in self.at.iter().flatten().flat_map(|regs| regs.iter()) {
            if small(r) {
                out[v.0 as usize] = true;
            }
        }
        out
    }

    /// The thread of register `v` (its interval depends on where that thread is).
    pub fn owner(&self, v: VarId) -> Option<ThreadId> {
        self.register[v.0 as usize]
            .then(|| self.owner[v.0 as usize])
            .flatten()
    }
}

/// Whether a program ever has values not known: an input, or memory that starts
/// uninitialised.
pub fn has_unknowns(prog: &Program) -> bool {
    prog.vars.iter().any(|v| v.init == Init::Nondet)
        || prog.threads.iter().any(|t| {
            t.transitions
                .iter()
                .any(|tr| tr.ops.iter().any(|o| matches!(o, Op::Havoc { .. })))
        })
}

/// The fixpoint computation.
struct Analysis<'a> {
    prog: &'a Program,
    ranges: &'a Ranges,
    /// The registers whose values are never known ([`Unknowns::new`]).
    abstracted: &'a [bool],
    /// The constants the program's guards compare with, and their neighbours, sorted: where
    /// widening stops ([`Range::widen`]).
    thresholds: Vec<i128>,
    memory: Vec<Option<Range>>,
    memory_grown: Vec<u32>,
    register: Vec<bool>,
    at: Vec<Vec<Regs>>,
    /// Per thread: what its creation gives its registers.
    entry: Vec<Regs>,
    /// Per variable, the thread whose local it is.
    owner: Vec<Option<ThreadId>>,
    /// Per variable, whether it is a followed local whose address is taken (other threads
    /// may read it: [`Analysis::unknown_of`]).
    addressed: Vec<bool>,
    /// Per variable, whether it is one of several variables of its object (a field).
    field: Vec<bool>,
    /// Per thread, per location: whether another thread may run beside it there
    /// ([`concurrent_locations`]).
    concurrent: Vec<Vec<bool>>,
    /// The thread being analysed.
    current: ThreadId,
    /// Whether a memory interval or a thread's entry grew in the current round.
    changed: bool,
    /// Register intervals computed so far ([`MAX_WORK`]).
    work: usize,
}

impl<'a> Analysis<'a> {
    fn new(prog: &'a Program, ranges: &'a Ranges, abstracted: &'a [bool]) -> Analysis<'a> {
        let plain = crate::liveness::registers(prog);
        let addressed = addressed_locals(prog, &plain);
        let register: Vec<bool> = (plain.into_iter().zip(&addressed))
            .map(|(r, &a)| r || a)
            .collect();
        let mut placed = vec![0u32; prog.vars.len()];
        for p in prog.vars.iter().filter_map(|v| v.placement.as_ref()) {
            placed[p.object.0 as usize] += 1;
        }
        let field = (prog.vars.iter())
            .map(|v| {
                v.placement.as_ref().is_some_and(|p| {
                    p.object != v.id || p.offset != 0 || placed[v.id.0 as usize] > 1
                })
            })
            .collect();
        let owner = (prog.vars.iter())
            .map(|v| match v.scope {
                VarScope::Local(t) => Some(t),
                _ => None,
            })
            .collect();
        let memory = prog
            .vars
            .iter()
            .map(|v| {
                (v.init == Init::Nondet && !register[v.id.0 as usize])
                    .then(|| Range::full(v.elem.ty()))
            })
            .collect();
        let mut entry: Vec<Regs> = vec![Regs::default(); prog.threads.len()];
        for v in prog.vars.iter().filter(|v| register[v.id.0 as usize]) {
            let VarScope::Local(t) = v.scope else {
                continue;
            };
            let initial = match &v.init {
                Init::Nondet => Range::full(v.elem.ty()),
                _ if !abstracted.get(v.id.0 as usize).copied().unwrap_or(false) => continue,
                Init::Zero => Range::point(0),
                Init::Values(vs) => Range::point(vs.first().copied().unwrap_or(0)),
            };
            entry[t.0 as usize].insert(v.id, initial.as_ty(v.elem.ty()));
        }
        Analysis {
            prog,
            ranges,
            abstracted,
            thresholds: thresholds(prog),
            memory,
            memory_grown: vec![0; prog.vars.len()],
            register,
            at: prog
                .threads
                .iter()
                .map(|t| vec![Regs::default(); t.locations.len()])
                .collect(),
            entry,
            owner,
            addressed,
            field,
            concurrent: prog.threads.iter().map(concurrent_locations).collect(),
            current: ThreadId(0),
            changed: false,
            work: 0,
        }
    }

    /// Rounds over every thread until no memory interval and no thread's entry grows; `None`
    /// where it gave up ([`MAX_WORK`]).
    fn run(&mut self) -> Option<()> {
        loop {
            self.changed = false;
            for t in 0..self.prog.threads.len() {
                self.thread(ThreadId(t as u32))?;
            }
            if !self.changed {
                return Some(());
            }
        }
    }

    /// The registers' intervals at every location of thread `t` (a worklist over its
    /// locations), adding what it stores to memory and gives the threads it creates; `None`
    /// where the analysis gives up.
    fn thread(&mut self, t: ThreadId) -> Option<()> {
        self.current = t;
        let th = self.prog.thread(t);
        let n = th.locations.len();
        let mut at: Vec<Option<Regs>> = vec![None; n];
        let mut grown: Vec<u32> = vec![0; n];
        at[th.entry.0 as usize] = Some(self.entry[t.0 as usize].clone());
        let mut work: Vec<LocId> = vec![th.entry];
        let mut queued = vec![false; n];
        queued[th.entry.0 as usize] = true;
        while let Some(l) = work.pop() {
            queued[l.0 as usize] = false;
            let Some(here) = at[l.0 as usize].clone() else {
                continue;
            };
            for tr in th.outgoing(l) {
                self.work += here.len() + 1;
                if self.work > MAX_WORK {
                    return None;
                }
                let mut regs = here.clone();
                self.refine(&mut regs, &tr.guard, true);
                for op in &tr.ops {
                    self.op(&mut regs, op);
                }
                let d = tr.dst.0 as usize;
                let grew = match &mut at[d] {
                    slot @ None => {
                        *slot = Some(regs);
                        true
                    }
                    Some(old) => {
                        let widen = (grown[d] >= WIDEN_AFTER).then_some(&self.thresholds[..]);
                        join(self.prog, old, &regs, widen)
                    }
                };
                if grew {
                    grown[d] += 1;
                    if !queued[d] {
                        queued[d] = true;
                        work.push(tr.dst);
                    }
                }
            }
        }
        // What other threads read of its addressed locals: the hull over its locations where
        // another thread may run (for the initial thread, those after its first creation).
        let mut hull: FxHashMap<VarId, Range> = FxHashMap::default();
        let at_shared = (at.iter().zip(&self.concurrent[t.0 as usize]))
            .filter_map(|(regs, &s)| regs.as_ref().filter(|_| s));
        for (&v, &r) in at_shared.flat_map(|regs| regs.iter()) {
            if self.addressed[v.0 as usize] {
                let h = hull.entry(v).or_insert(r);
                *h = h.hull(r);
            }
        }
        for (v, r) in hull {
            self.grow_memory(v, r);
        }
        self.at[t.0 as usize] = at.into_iter().map(Option::unwrap_or_default).collect();
        Some(())
    }

    /// Whether register `v` is never known ([`Unknowns::new`]).
    fn is_abstracted(&self, v: VarId) -> bool {
        self.register[v.0 as usize] && self.abstracted.get(v.0 as usize) == Some(&true)
    }

    /// The interval of `v` where not known, read by the thread being analysed with its
    /// registers `regs` (`None`: always known). A register of another thread (a local that
    /// only its thread writes, read through a pointer) is read as its memory interval: the
    /// hull over its thread's locations ([`Analysis::thread`]).
    fn unknown_of(&self, regs: &Regs, v: VarId) -> Option<Range> {
        let i = v.0 as usize;
        if self.register[i] && self.owner[i] == Some(self.current) {
            regs.get(&v).copied()
        } else {
            self.memory[i]
        }
    }

    /// Whether variable `v` may hold a value not known, with the registers `regs`.
    fn may_be_unknown(&self, regs: &Regs, v: VarId) -> bool {
        self.unknown_of(regs, v).is_some()
    }

    /// The interval of every value of `v` (known or not).
    fn any(&self, regs: &Regs, v: VarId) -> Range {
        let all = self.ranges.of(v);
        self.unknown_of(regs, v).map_or(all, |u| all.hull(u))
    }

    /// What an expression's value is where it is not known: `None` where it is always known
    /// (it reads nothing that may be not known).
    fn unknown_value(&self, regs: &Regs, e: &Expr) -> Option<Range> {
        let mut reads: Vec<(VarId, bool)> = Vec::new();
        value_reads(e, true, &mut reads);
        let mut unknown = reads
            .iter()
            .filter(|(v, _)| self.may_be_unknown(regs, *v))
            .peekable();
        let first = unknown.peek()?.0;
        // One variable read as a value (not as an address or an index): where the value is
        // not known, that variable's is not.
        let one = reads
            .iter()
            .filter(|(v, _)| self.may_be_unknown(regs, *v))
            .all(|&(v, direct)| v == first && direct);
        Some(eval_vars(self.prog, e, &|v| {
            if one && v == first {
                (self.unknown_of(regs, v)).unwrap_or_else(|| Range::full(elem_ty(self.prog, v)))
            } else {
                self.any(regs, v)
            }
        }))
    }

    /// The effect of `op` on the registers, on memory and on the threads it
    /// creates.
    fn op(&mut self, regs: &mut Regs, op: &Op) {
        match op {
            Op::Assign { place, value } => {
                let mut v = self.unknown_value(regs, value);
                if let Place::Var { var, index: None } = place {
                    if self.is_abstracted(*var) && v.is_none() {
                        // Never known: what it is assigned, known or not.
                        v = Some(eval_vars(self.prog, value, &|v| self.any(regs, v)));
                    }
                }
                if self.address_unknown(regs, place) {
                    // Written where it is not known: the cell written is not known either.
                    let all = eval_vars(self.prog, value, &|v| self.any(regs, v));
                    v = Some(v.map_or(all, |x| x.hull(all)));
                }
                self.write(regs, place, v);
            }
            Op::Havoc { place, ty } => self.write(regs, place, Some(Range::full(*ty))),
            Op::Spawn { thread, args } => {
                for (v, e) in args {
                    let Some(r) = self.unknown_value(regs, e) else {
                        continue;
                    };
                    let ty = elem_ty(self.prog, *v);
                    let r = r.as_ty(ty);
                    if self.register[v.0 as usize] {
                        let entry = &mut self.entry[thread.0 as usize];
                        let new = entry.get(v).map_or(r, |o| o.hull(r));
                        if entry.get(v) != Some(&new) {
                            entry.insert(*v, new);
                            self.changed = true;
                        }
                    } else {
                        self.grow_memory(*v, r);
                    }
                }
            }
            Op::AtomicBegin | Op::AtomicEnd => {}
        }
    }

    /// Whether where `place` is depends on a value that may be not known.
    fn address_unknown(&self, regs: &Regs, place: &Place) -> bool {
        let mut reads = Vec::new();
        match place {
            Place::Var { index: Some(i), .. } => value_reads(i, false, &mut reads),
            Place::Var { index: None, .. } => {}
            Place::Deref { addr, .. } => value_reads(addr, false, &mut reads),
        }
        reads.iter().any(|(v, _)| self.may_be_unknown(regs, *v))
    }

    /// A write of a value whose interval where not known is `v` (`None`: known) to `place`.
    fn write(&mut self, regs: &mut Regs, place: &Place, v: Option<Range>) {
        match place {
            Place::Var { var, index: None } if self.register[var.0 as usize] => {
                let ty = elem_ty(self.prog, *var);
                match v {
                    Some(r) => {
                        regs.insert(*var, r.as_ty(ty));
                    }
                    None => {
                        regs.remove(var);
                    }
                }
            }
            Place::Var { var, .. } if self.register[var.0 as usize] => {
                // (A scalar's element given by an index: it may be another cell.)
                if let Some(r) = v {
                    may_write(regs, *var, r.as_ty(elem_ty(self.prog, *var)));
                }
            }
            Place::Var { var, .. } => {
                if let Some(r) = v {
                    let ty = elem_ty(self.prog, *var);
                    self.grow_memory(*var, r.as_ty(ty));
                }
            }
            Place::Deref { ty, targets, .. } => {
                for &target in targets {
                    let ety = elem_ty(self.prog, target);
                    if self.register[target.0 as usize] {
                        // The pointer may write it, or another target (or, where it is a
                        // field, bytes of it and of the next field).
                        if ety != *ty || self.field[target.0 as usize] {
                            may_write(regs, target, Range::full(ety));
                        } else if let Some(r) = v {
                            may_write(regs, target, r.as_ty(ety));
                        }
                    } else if ety != *ty {
                        // Some bytes of a cell: the rest of it may be not known.
                        self.grow_memory(target, Range::full(ety));
                    } else if let Some(r) = v {
                        self.grow_memory(target, r.as_ty(ety));
                    }
                }
            }
        }
    }

    /// Joins `r` into the interval of memory variable `v`, widening one that keeps growing.
    fn grow_memory(&mut self, v: VarId, r: Range) {
        let i = v.0 as usize;
        let ty = elem_ty(self.prog, v);
        let new = self.memory[i].map_or(r, |o| o.hull(r));
        if self.memory[i] != Some(new) {
            self.memory_grown[i] += 1;
            self.memory[i] = Some(if self.memory_grown[i] > WIDEN_AFTER {
                Range::full(ty)
            } else {
                new
            });
            self.changed = true;
        }
    }

    /// Narrows the registers' intervals to the states where `cond` is `holds`.
    fn refine(&self, regs: &mut Regs, cond: &Expr, holds: bool) {
        match cond {
            Expr::Unary {
                op: UnOp::Not, arg, ..
            } => self.refine(regs, arg, !holds),
            Expr::Binary { op, lhs, rhs, .. } => match op {
                BinOp::And if holds => {
                    self.refine(regs, lhs, true);
                    self.refine(regs, rhs, true);
                }
                BinOp::Or if !holds => {
                    self.refine(regs, lhs, false);
                    self.refine(regs, rhs, false);
                }
                BinOp::Eq | BinOp::Ne if is_zero(rhs) && is_truth(lhs) => {
                    self.refine(regs, strip_casts(lhs), holds == (*op == BinOp::Ne))
                }
                BinOp::Eq | BinOp::Ne if is_zero(lhs) && is_truth(rhs) => {
                    self.refine(regs, strip_casts(rhs), holds == (*op == BinOp::Ne))
                }
                BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne => {
                    let op = if holds { *op } else { op.negated() };
                    self.compare(regs, lhs, op, rhs);
                    self.compare(regs, rhs, op.swapped(), lhs);
                }
                _ => {}
            },
            Expr::Cast { .. } if is_truth(cond) => self.refine(regs, strip_casts(cond), holds),
            _ => {
                let zero = Expr::Const {
                    value: 0,
                    ty: cond.ty(),
                };
                let op = if holds { BinOp::Ne } else { BinOp::Eq };
                self.compare(regs, cond, op, &zero);
            }
        }
    }

    /// Narrows the register `x` reads (if it is one, seen through casts that keep its values)
    /// to the values for which `x op y` holds for some value of `y`.
    fn compare(&self, regs: &mut Regs, x: &Expr, op: BinOp, y: &Expr) {
        let Some(var) = self.register_view(regs, x) else {
            self.compare_converted(regs, x, op, y);
            return;
        };
        let Some(&cur) = regs.get(&var) else {
            return;
        };
        let other = eval_vars(self.prog, y, &|v| self.any(regs, v));
        let (lo, hi) = match op {
            BinOp::Lt => (cur.lo, cur.hi.min(other.hi - 1)),
            BinOp::Le => (cur.lo, cur.hi.min(other.hi)),
            BinOp::Gt => (cur.lo.max(other.lo + 1), cur.hi),
            BinOp::Ge => (cur.lo.max(other.lo), cur.hi),
            BinOp::Eq => (cur.lo.max(other.lo), cur.hi.min(other.hi)),
            BinOp::Ne if other.lo == other.hi && other.lo == cur.lo => (cur.lo + 1, cur.hi),
            BinOp::Ne if other.lo == other.hi && other.lo == cur.hi => (cur.lo, cur.hi - 1),
            _ => return,
        };
        if lo > hi {
            // Where the condition holds, `var` is known.
            regs.remove(&var);
        } else {
            regs.insert(var, Range { lo, hi });
        }
    }

    /// [`Analysis::compare`] where `x` converts a register through casts that may change its
    /// values but lose none (`(int)u` of an `unsigned u`, widenings): such a conversion is
    /// one to one, and the identity on the values every type on the way has, so the values
    /// it maps into that common range are those values themselves. Where every value that
    /// takes `x op y` lies in the common range, the register is narrowed to them
    /// (`(int)u >= 2` taken: `2 <= u <= INT_MAX`).
    fn compare_converted(&self, regs: &mut Regs, x: &Expr, op: BinOp, y: &Expr) {
        let Some((var, ty, casts)) = self.cast_register(x) else {
            return;
        };
        let Some(&cur) = regs.get(&var) else {
            return;
        };
        if casts.is_empty() {
            return;
        }
        // From the register outwards: no cast may narrow.
        let (mut prev, mut common) = (ty, Range::full(ty));
        for c in casts.iter().rev() {
            if c.bits < prev.bits {
                return;
            }
            let Some(m) = common.meet(Range::full(*c)) else {
                return;
            };
            (prev, common) = (*c, m);
        }
        let outer = Range::full(casts[0]);
        let other = eval_vars(self.prog, y, &|v| self.any(regs, v));
        let (lo, hi) = match op {
            BinOp::Lt => (outer.lo, other.hi - 1),
            BinOp::Le => (outer.lo, other.hi),
            BinOp::Gt => (other.lo + 1, outer.hi),
            BinOp::Ge => (other.lo, outer.hi),
            BinOp::Eq => (other.lo, other.hi),
            _ => return,
        };
        if lo < common.lo || hi > common.hi {
            return;
        }
        match cur.meet(Range { lo, hi }) {
            // Where the condition holds, `var` is known.
            None => {
                regs.remove(&var);
            }
            Some(r) => {
                regs.insert(var, r);
            }
        }
    }

    /// The register `e` loads, its type and the casts around the load (the outermost
    /// first), where `e` is such a load.
    fn cast_register(&self, e: &Expr) -> Option<(VarId, Ty, Vec<Ty>)> {
        let mut casts = Vec::new();
        let mut e = e;
        while let Expr::Cast { arg, ty } = e {
            casts.push(*ty);
            e = arg;
        }
        let Expr::Load {
            place: Place::Var { var, index: None },
            ty,
        } = e
        else {
            return None;
        };
        (self.register[var.0 as usize] && elem_ty(self.prog, *var) == *ty)
            .then_some((*var, *ty, casts))
    }

    /// The register `e` reads, where `e` is a load of it through casts that change none of
    /// the values it may have where not known (casts that keep its interval, or a round trip
    /// through types of its width back to its own).
    fn register_view(&self, regs: &Regs, e: &Expr) -> Option<VarId> {
        let (var, ty, casts) = self.cast_register(e)?;
        let cur = *regs.get(&var)?;
        let keeps = casts.iter().all(|c| cur.fits(*c));
        let round_trip = casts.first() == Some(&ty) && casts.iter().all(|c| c.bits == ty.bits);
        (keeps || round_trip).then_some(var)
    }
}

/// A write that may or may not store a value not known in `r` to register `v`: afterwards
/// `v` may be not known, in `r` or where it was.
fn may_write(regs: &mut Regs, v: VarId, r: Range) {
    let new = regs.get(&v).map_or(r, |o| o.hull(r));
    regs.insert(v, new);
}

/// The locations of `th` where another thread may run beside it: every location of a
/// created thread; of the initial thread, the locations after a creation (before its first,
/// it runs alone).
fn concurrent_locations(th: &Thread) -> Vec<bool> {
    if th.created_by.is_some() {
        return vec![true; th.locations.len()];
    }
    th.reached_after(|tr| tr.starts.is_some())
}

/// The variables the analysis follows per location of their thread besides the registers
/// ([`super::liveness::registers`]): a thread's own scalars (C objects of their own, or
/// fields of one, as the `tv_nsec` of a `struct timespec` given to `clock_gettime`) that no
/// other thread writes, though their address is taken (a local given by address to `scanf`
/// or to a helper). Only their thread writes them, so its path decides what they may hold, as
/// for a register; a write through a pointer that may reach one is a write that may or may
/// not happen (of any value where the scalar is a field: the write may straddle two fields),
/// and another thread that reads one reads any value it may hold at any location of its
/// thread where the reader may run ([`concurrent_locations`]). (`register`: the registers.)
fn addressed_locals(prog: &Program, register: &[bool]) -> Vec<bool> {
    let mut own: Vec<Option<ThreadId>> = prog
        .vars
        .iter()
        .map(|v| {
            let VarScope::Local(t) = v.scope else {
                return None;
            };
            (v.len == 1 && !v.is_array).then_some(t)
        })
        .collect();
    for th in &prog.threads {
        for op in th.transitions.iter().flat_map(|tr| &tr.ops) {
            let mut written = |v: VarId| {
                if own[v.0 as usize] != Some(th.id) {
                    own[v.0 as usize] = None;
                }
            };
            match op {
                Op::Assign { place, .. } | Op::Havoc { place, .. } => match place {
                    Place::Var { var, .. } => written(*var),
                    Place::Deref { targets, .. } => targets.iter().for_each(|v| written(*v)),
                },
                // (What a creation gives the thread it creates is its entry.)
                Op::Spawn { .. } | Op::AtomicBegin | Op::AtomicEnd => {}
            }
        }
    }
    (own.into_iter().zip(register))
        .map(|(o, &r)| o.is_some() && !r)
        .collect()
}

/// Joins `new` into `old` (widening what grows, with `widen`'s thresholds); whether `old`
/// grew.
fn join(prog: &Program, old: &mut Regs, new: &Regs, widen: Option<&[i128]>) -> bool {
    let mut grew = false;
    for (&v, &r) in new {
        match old.get(&v) {
            None => {
                old.insert(v, r);
                grew = true;
            }
            Some(&o) => {
                let h = o.hull(r);
                if h != o {
                    let h = match widen {
                        Some(t) => o.widen(h, elem_ty(prog, v), t),
                        None => h,
                    };
                    old.insert(v, h);
                    grew = true;
                }
            }
        }
    }
    grew
}

/// The constants the guards of `prog` compare with, each with its neighbours, sorted
/// (widening thresholds).
pub(crate) fn thresholds(prog: &Program) -> Vec<i128> {
    let mut out = Vec::new();
    for t in &prog.threads {
        for tr in &t.transitions {
            constants(&tr.guard, &mut out);
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The constants `e` compares with, and their neighbours, onto `out`.
fn constants(e: &Expr, out: &mut Vec<i128>) {
    match e {
        Expr::Binary { op, lhs, rhs, .. } => {
            if op.is_predicate() {
                for side in [lhs, rhs] {
                    if let Expr::Const { value, .. } = strip_casts(side) {
                        out.extend([value - 1, *value, value + 1]);
                    }
                }
            }
            constants(lhs, out);
            constants(rhs, out);
        }
        Expr::Unary { arg, .. } | Expr::Cast { arg, .. } => constants(arg, out),
        Expr::Ite {
            cond, then, els, ..
        } => {
            constants(cond, out);
            constants(then, out);
            constants(els, out);
        }
        Expr::Const { .. } | Expr::Load { .. } | Expr::AddrOf { .. } => {}
    }
}

/// The variables `e` reads, each with whether it is read as a value (`direct`, and the load
/// is of it as a variable) rather than for an address or an index.
pub(super) fn value_reads(e: &Expr, direct: bool, out: &mut Vec<(VarId, bool)>) {
    match e {
        Expr::Const { .. } => {}
        Expr::Load { place, .. } => match place {
            Place::Var { var, index } => {
                out.push((*var, direct));
                if let Some(i) = index {
                    value_reads(i, false, out);
                }
            }
            Place::Deref { addr, targets, .. } => {
                out.extend(targets.iter().map(|v| (*v, false)));
                value_reads(addr, false, out);
            }
        },
        Expr::AddrOf { index, .. } => value_reads(index, false, out),
        Expr::Unary { arg, .. } | Expr::Cast { arg, .. } => value_reads(arg, direct, out),
        Expr::Binary { lhs, rhs, .. } => {
            value_reads(lhs, direct, out);
            value_reads(rhs, direct, out);
        }
        Expr::Ite {
            cond, then, els, ..
        } => {
            value_reads(cond, direct, out);
            value_reads(then, direct, out);
            value_reads(els, direct, out);
        }
    }
}

fn is_zero(e: &Expr) -> bool {
    matches!(e, Expr::Const { value: 0, .. })
}

/// Whether `e` is a comparison (its value 0 or 1), seen through casts.
fn is_truth(e: &Expr) -> bool {
    matches!(strip_casts(e), Expr::Binary { op, .. } if op.is_predicate())
        || matches!(strip_casts(e), Expr::Unary { op: UnOp::Not, .. })
}

fn strip_casts(mut e: &Expr) -> &Expr {
    while let Expr::Cast { arg, .. } = e {
        e = arg;
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::{load_str, Options};

    fn analysed(text: &str) -> (Program, Unknowns) {
        let p = load_str("unknowns.c", text, &Options::default()).expect("lowers");
        let r = Ranges::new(&p);
        let u = Unknowns::new(&p, &r, &[]);
        (p, u)
    }

    fn var(p: &Program, name: &str) -> VarId {
        p.vars
            .iter()
            .find(|v| v.name == name)
            .unwrap_or_else(|| panic!("no variable {name}"))
            .id
    }

    #[test]
    fn an_unsigned_input_checked_as_an_int_is_narrowed_where_no_other_value_passes() {
        // `(int)u >= 2` holds for `2 <= u <= INT_MAX` only: the conversion is one to one, and
        // the values above INT_MAX become negative. `(int)u <= 4` holds for those too, so it
        // narrows nothing.
        let (p, u) = analysed(
            r#"
extern unsigned __VERIFIER_nondet_uint(void);
extern void abort(void);
int g, h;
int main(void) {
  int n = __VERIFIER_nondet_uint();
  if (!(n >= 2 && n <= 4)) abort();
  g = n;
  int m = __VERIFIER_nondet_uint();
  if (m <= 4) h = m;
  return 0;
}
"#,
        );
        assert_eq!(u.of(var(&p, "g"), None), Some(Range { lo: 2, hi: 4 }));
        let h = u.of(var(&p, "h"), None).expect("h may be not known");
        assert!(h.lo < 0, "{h:?}");
    }

    #[test]
    fn an_input_checked_once_stays_in_range_wherever_it_goes() {
        let (p, u) = analysed(
            r#"
extern unsigned __VERIFIER_nondet_uint(void);
extern void abort(void);
unsigned arr[5];
int top;
int main(void) {
  unsigned x = __VERIFIER_nondet_uint();
  if (!(x < 5)) abort();
  arr[top] = x;
  top = top + 1;
  return 0;
}
"#,
        );
        let arr = var(&p, "arr[]");
        assert_eq!(u.of(arr, None), Some(Range { lo: 0, hi: 4 }));
        // The register stored, where the thread stores it.
        let main = &p.threads[0];
        let (store, value) = main
            .transitions
            .iter()
            .find_map(|tr| {
                tr.ops.iter().find_map(|op| match op {
                    Op::Assign { place, value } if place.vars() == [arr] => Some((tr, value)),
                    _ => None,
                })
            })
            .expect("the store");
        let mut read = Vec::new();
        value_reads(value, true, &mut read);
        let x = read.first().expect("a register").0;
        assert_eq!(
            u.of(x, Some(store.src)),
            Some(Range { lo: 0, hi: 4 }),
            "{}",
            p.summary(true)
        );
    }
    #[test]
    fn a_local_only_its_thread_writes_is_followed_through_its_checks() {
        // `r`'s address goes to a helper, so it lives in memory; the checks narrow it, and
        // the default is a known value, so what reaches `rounds` is in [1, 5].
        let (p, u) = analysed(
            r#"
extern int __VERIFIER_nondet_int(void);
int rounds;
static void read_into(int *p) { *p = __VERIFIER_nondet_int(); }
int main(void) {
  int r;
  read_into(&r);
  if (r < 1 || r > 5)
    r = 2;
  rounds = r;
  return 0;
}
"#,
        );
        assert_eq!(
            u.of(var(&p, "rounds"), None),
            Some(Range { lo: 1, hi: 5 }),
            "{}",
            p.summary(true)
        );
    }

    #[test]
    fn a_local_another_thread_writes_is_not_followed() {
        // The worker may overwrite `r` between main's check and its copy.
        let (p, u) = analysed(
            r#"
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
int rounds;
static void *worker(void *a) { *(int *)a = __VERIFIER_nondet_int(); return 0; }
int main(void) {
  int r = __VERIFIER_nondet_int();
  pthread_t t;
  pthread_create(&t, 0, worker, &r);
  if (r < 1 || r > 5)
    r = 2;
  rounds = r;
  pthread_join(t, 0);
  return 0;
}
"#,
        );
        let all = Range::full(elem_ty(&p, var(&p, "rounds")));
        assert_eq!(
            u.of(var(&p, "rounds"), None),
            Some(all),
            "{}",
            p.summary(true)
        );
    }

    #[test]
    fn another_thread_reads_a_followed_local_as_any_value_it_may_hold_beside_it() {
        // Only main writes `r`; the reader copies it into `g` through a pointer. `g` may hold
        // any value `r` holds at main's locations where the reader may run: after the
        // creation, where `r` holds a value checked into [1, 5] already (not before it,
        // where it is not initialised yet).
        let reader = |check_first: bool| {
            let check = "int x = __VERIFIER_nondet_int(); if (x < 1 || x > 5) x = 2; r = x;";
            let (before, after) = if check_first {
                (check, "")
            } else {
                ("", check)
            };
            format!(
                r#"
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
int g;
static void *reader(void *a) {{ g = *(int *)a; return 0; }}
int main(void) {{
  int r;
  {before}
  pthread_t t;
  pthread_create(&t, 0, reader, &r);
  {after}
  pthread_join(t, 0);
  return 0;
}}
"#
            )
        };
        let (p, u) = analysed(&reader(true));
        let g = var(&p, "g");
        assert_eq!(
            u.of(g, None),
            Some(Range { lo: 1, hi: 5 }),
            "{}",
            p.summary(true)
        );
        // Checked after the creation: the reader may read it before the check.
        let (p, u) = analysed(&reader(false));
        let all = Range::full(elem_ty(&p, g));
        assert_eq!(u.of(var(&p, "g"), None), Some(all), "{}", p.summary(true));
    }
}
