//! Relevant variables: those whose values can influence what the program does (which
//! transitions are enabled, which cells an access touches, whether an operation has undefined
//! behaviour), directly or through the values they flow into. Every other variable is data the
//! program only carries around (a value pushed on a stack and popped into a result nobody
//! reads): the explicit search forgets it (sets it to zero) and its labels do not mention it,
//! so states that differ only there are one state.
//!
//! This is the cone of influence of model checking (Clarke, Grumberg and Peled, "Model
//! Checking", the cone-of-influence reduction), computed over the whole program: the seeds
//! are every guard, every address and index, the operands of every operation that may be
//! undefined (signed arithmetic, division, shifts) and the allocation status of every block;
//! then each assignment to a relevant place
//! makes what its value reads relevant, until nothing changes. The projection of the states
//! onto the relevant variables is a bisimulation: a relevant value is computed from relevant
//! values only, and control depends on relevant values only. The independent checker needs
//! no such argument: it checks the labels (which omit the other variables) as always.
//!
//! Value ranges ([`super::ranges`]) spare seeds: a guard whose truth the intervals of what it
//! reads decide, and an operation they show defined, seed nothing, provided every variable
//! they read may hold 0 (the value a forgotten variable has in the search).

use super::ranges::Ranges;
use crate::ir::{BinOp, Expr, Op, Place, Program, VarId};
use crate::semantics::{binop_may_be_undefined, unop_may_be_undefined};

/// Per variable: whether it is relevant, and whether its interval is needed (a seed was
/// spared because of it, or of a variable whose interval follows from it).
pub struct Relevance {
    relevant: Vec<bool>,
    ranged: Vec<bool>,
}

impl Relevance {
    /// The analysis of a program with the value ranges of its variables.
    pub fn new(prog: &Program, ranges: &Ranges) -> Relevance {
        let mut r = Marks {
            relevant: vec![false; prog.vars.len()],
            changed: false,
            prog,
            ranges,
            ranged: std::cell::RefCell::new(vec![false; prog.vars.len()]),
        };
        // An allocation status decides whether an access to its block is defined; every such
        // access reads it, though no expression names it ([`crate::ir::Var::allocation_status`]).
        for v in prog.vars.iter().filter(|v| v.allocation_status) {
            r.mark(v.id);
        }
        for t in &prog.threads {
            for tr in &t.transitions {
                if r.zero_allowed(&tr.guard) && ranges.truth(prog, &tr.guard).is_some() {
                    r.uses_ranges(&tr.guard);
                } else {
                    r.reads(&tr.guard);
                }
                r.seeds(&tr.guard);
                for op in &tr.ops {
                    match op {
                        Op::Assign { place, value } => {
                            r.place_seeds(place);
                            r.seeds(value);
                        }
                        Op::Havoc { place, .. } => r.place_seeds(place),
                        Op::Spawn { args, .. } => args.iter().for_each(|(_, e)| r.seeds(e)),
                        Op::AtomicBegin | Op::AtomicEnd => {}
                    }
                }
            }
        }
        loop {
            r.changed = false;
            for t in &prog.threads {
                for tr in &t.transitions {
                    for op in &tr.ops {
                        match op {
                            Op::Assign { place, value } if r.any(&place.vars()) => r.reads(value),
                            Op::Spawn { args, .. } => {
                                for (v, e) in args {
                                    if r.relevant[v.0 as usize] {
                                        r.reads(e);
                                    }
                                }
                            }
                            _ => {}
                        }
                    }
                }
            }
            if !r.changed {
                break;
            }
        }
        // The intervals the spared seeds rely on follow from those of what is assigned to
        // their variables.
        let mut ranged = r.ranged.into_inner();
        loop {
            let mut changed = false;
            let mut mark = |e: &Expr, ranged: &mut Vec<bool>| {
                e.for_each_place(&mut |p| {
                    for v in p.vars() {
                        if !ranged[v.0 as usize] {
                            ranged[v.0 as usize] = true;
                            changed = true;
                        }
                    }
                })
            };
            for t in &prog.threads {
                for tr in &t.transitions {
                    for op in &tr.ops {
                        match op {
                            Op::Assign { place, value }
                                if place.vars().iter().any(|v| ranged[v.0 as usize]) =>
                            {
                                mark(value, &mut ranged)
                            }
                            Op::Spawn { args, .. } => {
                                for (v, e) in args {
                                    if ranged[v.0 as usize] {
                                        mark(e, &mut ranged);
                                    }
                                }
                            }
                            _ => {}
                        }
                    }
                }
            }
            if !changed {
                break;
            }
        }
        Relevance {
            relevant: r.relevant,
            ranged,
        }
    }

    /// Whether the interval of variable `v` is needed: the labels state it where `v` is
    /// forgotten.
    pub fn is_ranged(&self, v: VarId) -> bool {
        self.ranged[v.0 as usize]
    }

    /// The variables that are not relevant.
    pub fn irrelevant(&self) -> impl Iterator<Item = VarId> + '_ {
        self.relevant
            .iter()
            .enumerate()
            .filter(|(_, r)| !**r)
            .map(|(v, _)| VarId(v as u32))
    }
}

/// The analysis while it runs.
struct Marks<'a> {
    relevant: Vec<bool>,
    changed: bool,
    prog: &'a Program,
    ranges: &'a Ranges,
    /// Variables whose intervals spared a seed.
    ranged: std::cell::RefCell<Vec<bool>>,
}

impl Marks<'_> {
    /// Notes that sparing a seed relies on the intervals of what `e` reads.
    fn uses_ranges(&self, e: &Expr) {
        let mut ranged = self.ranged.borrow_mut();
        e.for_each_place(&mut |p| {
            for v in p.vars() {
                ranged[v.0 as usize] = true;
            }
        });
    }

    /// Whether every variable `e` reads may hold 0, so that its intervals also cover the
    /// search's values of forgotten variables.
    fn zero_allowed(&self, e: &Expr) -> bool {
        let mut ok = true;
        e.for_each_place(&mut |p| {
            ok &= p.vars().iter().all(|v| self.ranges.of(*v).contains(0));
        });
        ok
    }

    /// Whether the intervals show `-arg` defined for every value.
    fn neg_defined(&self, arg: &Expr, ty: crate::ir::Ty) -> bool {
        let defined =
            self.zero_allowed(arg) && !self.ranges.eval(self.prog, arg).contains(ty.min());
        if defined {
            self.uses_ranges(arg);
        }
        defined
    }

    /// Whether the intervals show the operation defined for every value.
    fn defined(&self, op: BinOp, lhs: &Expr, rhs: &Expr, ty: crate::ir::Ty) -> bool {
        let (a, b) = (
            self.ranges.eval(self.prog, lhs),
            self.ranges.eval(self.prog, rhs),
        );
        let defined =
            self.zero_allowed(lhs) && self.zero_allowed(rhs) && Ranges::binop_defined(op, a, b, ty);
        if defined {
            self.uses_ranges(lhs);
            self.uses_ranges(rhs);
        }
        defined
    }

    fn mark(&mut self, v: VarId) {
        let r = &mut self.relevant[v.0 as usize];
        if !*r {
            *r = true;
            self.changed = true;
        }
    }

    fn any(&self, vs: &[VarId]) -> bool {
        vs.iter().any(|v| self.relevant[v.0 as usize])
    }

    /// Makes every variable `e` reads relevant (the cells it loads and what their addresses
    /// and indexes read).
    fn reads(&mut self, e: &Expr) {
        e.for_each_place(&mut |p| {
            for v in p.vars() {
                self.mark(v);
            }
        });
    }

    /// The address or index of a place decides which cell is accessed.
    fn place_seeds(&mut self, p: &Place) {
        p.for_each_subexpr(&mut |e| {
            self.reads(e);
            self.seeds(e);
        });
    }

    /// The seeds inside an expression: the places it loads (their addresses and indexes) and
    /// the operands of operations that may be undefined.
    fn seeds(&mut self, e: &Expr) {
        match e {
            Expr::Const { .. } => {}
            Expr::Load { place, .. } => self.place_seeds(place),
            Expr::AddrOf { index, .. } => self.seeds(index),
            Expr::Unary { op, arg, ty } => {
                if unop_may_be_undefined(*op, *ty) && !self.neg_defined(arg, *ty) {
                    self.reads(arg);
                }
                self.seeds(arg);
            }
            Expr::Cast { arg, .. } => self.seeds(arg),
            Expr::Binary { op, lhs, rhs, ty } => {
                // Which operands decide whether the operation is undefined
                // ([`crate::semantics::binop`]).
                let (left, right) = match op {
                    _ if !binop_may_be_undefined(*op, *ty) => (false, false),
                    _ if self.defined(*op, lhs, rhs, *ty) => (false, false),
                    // By zero, or `MIN / -1`.
                    BinOp::Div | BinOp::Rem => (
                        !matches!(**rhs, Expr::Const { value, .. } if value != 0 && value != -1),
                        true,
                    ),
                    // By a negative amount or by the width or more.
                    BinOp::Shl | BinOp::Shr => (false, true),
                    _ => (true, true),
                };
                // `&&` and `||` evaluate their right side only as their left side says: that
                // decides whether an undefined operation there happens.
                let left = left || (matches!(op, BinOp::And | BinOp::Or) && self.may_fault(rhs));
                if left {
                    self.reads(lhs);
                }
                if right {
                    self.reads(rhs);
                }
                self.seeds(lhs);
                self.seeds(rhs);
            }
            Expr::Ite {
                cond, then, els, ..
            } => {
                // Only the branch the condition picks is evaluated.
                if self.may_fault(then) || self.may_fault(els) {
                    self.reads(cond);
                }
                self.seeds(cond);
                self.seeds(then);
                self.seeds(els);
            }
        }
    }
}

impl Marks<'_> {
    /// Whether evaluating `e` may be undefined: an operation that may be (for values in the
    /// intervals), or a load at an index or through a pointer (out of bounds).
    fn may_fault(&self, e: &Expr) -> bool {
        match e {
            Expr::Const { .. } => false,
            Expr::Load { place, .. } => !matches!(place, Place::Var { index: None, .. }),
            Expr::AddrOf { index, .. } => self.may_fault(index),
            Expr::Unary { op, arg, ty } => {
                (unop_may_be_undefined(*op, *ty) && !self.neg_defined(arg, *ty))
                    || self.may_fault(arg)
            }
            Expr::Cast { arg, .. } => self.may_fault(arg),
            Expr::Binary { op, lhs, rhs, ty } => {
                (binop_may_be_undefined(*op, *ty) && !self.defined(*op, lhs, rhs, *ty))
                    || self.may_fault(lhs)
                    || self.may_fault(rhs)
            }
            Expr::Ite {
                cond, then, els, ..
            } => self.may_fault(cond) || self.may_fault(then) || self.may_fault(els),
        }
    }
}
