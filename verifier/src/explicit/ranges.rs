//! Value ranges: for each variable, an interval that contains every value any of its elements
//! holds in any execution. The analysis is flow-insensitive interval analysis (Cousot and
//! Cousot, "Abstract Interpretation: A Unified Lattice Model for Static Analysis of Programs",
//! with the interval domain and widening): a variable's interval covers its initial values
//! and every value assigned to it anywhere in the program, each evaluated in the intervals of
//! what it reads, until nothing changes; a variable that keeps growing is widened to its
//! type's range.
//!
//! The relevance analysis ([`super::relevance`]) uses it to see that a guard cannot change its
//! truth or an operation cannot be undefined for any value a variable may hold (`abs(rand())
//! % 26 + 'a'` cannot overflow), and the labels ([`super::proof::Labels`]) state the intervals
//! of the variables the search forgets, so that the independent checker can see the same.

use crate::ir::{BinOp, ElemKind, Expr, Init, Op, Place, Program, Ty, UnOp, VarId};

/// An interval of integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Range {
    /// Least value.
    pub lo: i128,
    /// Greatest value.
    pub hi: i128,
}

impl Range {
    /// The one value `v`.
    pub fn point(v: i128) -> Range {
        Range { lo: v, hi: v }
    }

    /// Every value of type `ty`.
    pub fn full(ty: Ty) -> Range {
        Range {
            lo: ty.min(),
            hi: ty.max(),
        }
    }

    /// The least interval containing both.
    pub fn hull(self, o: Range) -> Range {
        Range {
            lo: self.lo.min(o.lo),
            hi: self.hi.max(o.hi),
        }
    }

    /// Whether `v` lies inside.
    pub fn contains(self, v: i128) -> bool {
        self.lo <= v && v <= self.hi
    }

    /// Whether every value lies inside type `ty`'s range.
    pub fn fits(self, ty: Ty) -> bool {
        ty.min() <= self.lo && self.hi <= ty.max()
    }

    /// Whether it fits type `ty` and leaves some of its values out (then it says something).
    pub fn narrower_than(self, ty: Ty) -> bool {
        self.fits(ty) && (self.lo > ty.min() || self.hi < ty.max())
    }

    /// The values in both, if there are any.
    pub fn meet(self, o: Range) -> Option<Range> {
        let (lo, hi) = (self.lo.max(o.lo), self.hi.min(o.hi));
        (lo <= hi).then_some(Range { lo, hi })
    }

    /// Widening with thresholds (Blanchet et al., "A Static Analyzer for Large
    /// Safety-Critical Software"): the hull of `self` and `new`, where a bound that moves
    /// goes on to the next of `thresholds` (sorted) in its direction, or to the end of type
    /// `ty`'s range past the last. Each bound moves through finitely many values, so a
    /// fixpoint iteration that widens ends; a loop counter compared with a constant stops at
    /// that constant.
    pub(crate) fn widen(self, new: Range, ty: Ty, thresholds: &[i128]) -> Range {
        let lo = if new.lo < self.lo {
            let i = thresholds.partition_point(|&t| t <= new.lo);
            match i.checked_sub(1) {
                Some(i) if thresholds[i] >= ty.min() => thresholds[i],
                _ => ty.min(),
            }
        } else {
            self.lo
        };
        let hi = if new.hi > self.hi {
            let i = thresholds.partition_point(|&t| t < new.hi);
            match thresholds.get(i) {
                Some(&t) if t <= ty.max() => t,
                _ => ty.max(),
            }
        } else {
            self.hi
        };
        Range { lo, hi }
    }

    /// This interval as a value of type `ty`: itself when it fits, else all of `ty`.
    pub(crate) fn as_ty(self, ty: Ty) -> Range {
        if self.fits(ty) {
            self
        } else {
            Range::full(ty)
        }
    }
}

/// How often a variable's interval may grow before it is widened to its type's range.
const WIDEN_AFTER: u32 = 4;

/// The interval of every variable.
pub struct Ranges {
    of: Vec<Range>,
}

impl Ranges {
    /// The analysis of a program.
    pub fn new(prog: &Program) -> Ranges {
        let ty = |v: VarId| elem_ty(prog, v);
        let mut of: Vec<Range> = prog
            .vars
            .iter()
            .map(|v| {
                let t = ty(v.id);
                match &v.init {
                    _ if matches!(v.elem, ElemKind::Ptr) => Range::full(t),
                    Init::Zero => Range::point(0),
                    Init::Values(xs) => {
                        let mut r = if xs.len() < v.len as usize {
                            Range::point(0)
                        } else {
                            Range::point(xs.first().copied().unwrap_or(0))
                        };
                        for x in xs {
                            r = r.hull(Range::point(t.wrap(*x)));
                        }
                        r
                    }
                    Init::Nondet => Range::full(t),
                }
            })
            .collect();
        let mut grown = vec![0u32; of.len()];
        loop {
            let mut changed = false;
            let mut widen = |of: &mut [Range], v: VarId, r: Range| {
                let i = v.0 as usize;
                let t = ty(v);
                let new = of[i].hull(r.as_ty(t));
                if new != of[i] {
                    grown[i] += 1;
                    of[i] = if grown[i] > WIDEN_AFTER {
                        Range::full(t)
                    } else {
                        new
                    };
                    changed = true;
                }
            };
            for t in &prog.threads {
                for tr in &t.transitions {
                    for op in &tr.ops {
                        match op {
                            Op::Assign { place, value } => {
                                let r = eval(&of, prog, value);
                                assign(prog, &mut of, place, r, &mut widen);
                            }
                            Op::Havoc { place, ty } => {
                                assign(prog, &mut of, place, Range::full(*ty), &mut widen)
                            }
                            Op::Spawn { args, .. } => {
                                for (v, e) in args {
                                    let r = eval(&of, prog, e);
                                    widen(&mut of, *v, r);
                                }
                            }
                            Op::AtomicBegin | Op::AtomicEnd => {}
                        }
                    }
                }
            }
            if !changed {
                break;
            }
        }
        Ranges { of }
    }

    /// The interval of variable `v`.
    pub fn of(&self, v: VarId) -> Range {
        self.of[v.0 as usize]
    }

    /// An interval that contains every value `e` evaluates to (where it is defined).
    pub fn eval(&self, prog: &Program, e: &Expr) -> Range {
        eval(&self.of, prog, e)
    }
}

/// [`Ranges::eval`] over the intervals `of`.
fn eval(of: &[Range], prog: &Program, e: &Expr) -> Range {
    eval_vars(prog, e, &|v| of[v.0 as usize])
}

/// [`eval_with`] where a load of variable `v` at its own type reads a value in `var(v)` (and
/// any other load, through a pointer or of some bytes, any value of its type).
pub(super) fn eval_vars(prog: &Program, e: &Expr, var: &impl Fn(VarId) -> Range) -> Range {
    eval_with(e, &|place: &Place, ty: Ty| vars_load(prog, place, ty, var))
}

/// The load of [`eval_vars`].
fn vars_load(prog: &Program, place: &Place, ty: Ty, var: &impl Fn(VarId) -> Range) -> Range {
    match place {
        Place::Var { var: v, .. } if elem_ty(prog, *v) == ty => var(*v),
        _ => Range::full(ty),
    }
}

/// What an interval evaluation ([`eval_env`]) reads.
pub(crate) trait Env {
    /// An interval that contains the value a load of type `ty` from `place` reads.
    fn load(&self, place: &Place, ty: Ty) -> Range;
    /// An interval that contains the addresses of the elements of `var` at the indexes in
    /// `index`, where the evaluation tracks addresses (else any address).
    fn address(&self, _var: VarId, _index: Range) -> Option<Range> {
        None
    }
    /// Whether the evaluation is of the values of executions that go on (then signed
    /// arithmetic that overflows, which is undefined, ends them: its results lie in the
    /// type's range) rather than of any value an operation may give (the whole type).
    fn defined_only(&self) -> bool {
        false
    }
}

/// The [`Env`] of a load function.
struct Loads<'f, F>(&'f F);

impl<F: Fn(&Place, Ty) -> Range> Env for Loads<'_, F> {
    fn load(&self, place: &Place, ty: Ty) -> Range {
        (self.0)(place, ty)
    }
}

/// An interval that contains every value `e` evaluates to (where it is defined), where the
/// value a load of type `ty` from a place reads lies in `load(place, ty)`.
pub(super) fn eval_with(e: &Expr, load: &impl Fn(&Place, Ty) -> Range) -> Range {
    eval_env(e, &Loads(load))
}

/// An interval that contains every value `e` evaluates to (where it is defined) in `env`.
pub(crate) fn eval_env(e: &Expr, env: &impl Env) -> Range {
    match e {
        Expr::Const { value, ty } => Range::point(ty.wrap(*value)),
        Expr::Load { place, ty } => env.load(place, *ty),
        Expr::AddrOf { var, index } => env
            .address(*var, eval_env(index, env))
            .unwrap_or(Range::full(e.ty())),
        Expr::Cast { arg, ty } => eval_env(arg, env).as_ty(*ty),
        Expr::Unary { op, arg, ty } => {
            let a = eval_env(arg, env);
            match op {
                UnOp::Neg => Range {
                    lo: -a.hi,
                    hi: -a.lo,
                }
                .as_ty(*ty),
                UnOp::Not => Range { lo: 0, hi: 1 },
                UnOp::BitNot => Range {
                    lo: -1 - a.hi,
                    hi: -1 - a.lo,
                }
                .as_ty(*ty),
            }
        }
        Expr::Binary { op, lhs, rhs, ty } => {
            if op.is_predicate() {
                return Range { lo: 0, hi: 1 };
            }
            let (a, b) = (eval_env(lhs, env), eval_env(rhs, env));
            let signed = matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul) && ty.signed;
            // A shift's interval only by a constant amount: the checker's encoding is exact
            // for those only, and an interval it cannot show would make it reject the proof.
            let by_variable = matches!(op, BinOp::Shl | BinOp::Shr) && rhs.as_const().is_none();
            match exact(*op, a, b) {
                Some(r) if signed && env.defined_only() => r.meet(Range::full(*ty)).unwrap_or(r),
                _ if by_variable => Range::full(*ty),
                _ => binary(*op, a, b, *ty),
            }
        }
        Expr::Ite { then, els, ty, .. } => eval_env(then, env).hull(eval_env(els, env)).as_ty(*ty),
    }
}

/// The truth of condition `e` wherever it is evaluated, when the intervals of what it reads
/// (`load`, as for [`eval_with`]) decide it.
pub(super) fn truth_with(e: &Expr, load: &impl Fn(&Place, Ty) -> Range) -> Option<bool> {
    truth_env(e, &Loads(load))
}

/// The truth of condition `e` wherever it is evaluated in `env`, when the intervals decide it.
pub(crate) fn truth_env(e: &Expr, env: &impl Env) -> Option<bool> {
    match e {
        Expr::Unary {
            op: UnOp::Not, arg, ..
        } => truth_env(arg, env).map(|b| !b),
        Expr::Binary { op, lhs, rhs, .. } if op.is_predicate() => {
            if matches!(op, BinOp::And | BinOp::Or) {
                let (a, b) = (truth_env(lhs, env), truth_env(rhs, env));
                return match (op, a, b) {
                    (BinOp::And, Some(false), _) | (BinOp::And, _, Some(false)) => Some(false),
                    (BinOp::And, Some(true), Some(true)) => Some(true),
                    (BinOp::Or, Some(true), _) | (BinOp::Or, _, Some(true)) => Some(true),
                    (BinOp::Or, Some(false), Some(false)) => Some(false),
                    _ => None,
                };
            }
            let (a, b) = (eval_env(lhs, env), eval_env(rhs, env));
            let lt = |a: Range, b: Range| {
                if a.hi < b.lo {
                    Some(true)
                } else if a.lo >= b.hi {
                    Some(false)
                } else {
                    None
                }
            };
            let eq = if a.lo == a.hi && b.lo == b.hi && a.lo == b.lo {
                Some(true)
            } else if a.hi < b.lo || b.hi < a.lo {
                Some(false)
            } else {
                None
            };
            match op {
                BinOp::Lt => lt(a, b),
                BinOp::Gt => lt(b, a),
                BinOp::Ge => lt(a, b).map(|x| !x),
                BinOp::Le => lt(b, a).map(|x| !x),
                BinOp::Eq => eq,
                _ => eq.map(|x| !x),
            }
        }
        _ => {
            let r = eval_env(e, env);
            if r.lo == 0 && r.hi == 0 {
                Some(false)
            } else if !r.contains(0) {
                Some(true)
            } else {
                None
            }
        }
    }
}

impl Ranges {
    /// The truth of condition `e` wherever it is evaluated, when the intervals decide it.
    pub fn truth(&self, prog: &Program, e: &Expr) -> Option<bool> {
        truth_with(e, &|place: &Place, ty: Ty| {
            vars_load(prog, place, ty, &|v| self.of[v.0 as usize])
        })
    }

    /// Whether `op` at type `ty` is defined for every pair of operand values in `a` and `b`
    /// ([`crate::semantics::binop`]).
    pub fn binop_defined(op: BinOp, a: Range, b: Range, ty: Ty) -> bool {
        match op {
            BinOp::Add | BinOp::Sub | BinOp::Mul => {
                !ty.signed || ty.bits == 1 || exact(op, a, b).is_some_and(|r| r.fits(ty))
            }
            BinOp::Div | BinOp::Rem => {
                let overflows = ty.signed && a.contains(ty.min()) && b.contains(-1);
                !(b.contains(0) || overflows)
            }
            _ => false,
        }
    }
}

/// The interval of `a op b` at type `ty` (the whole type where it may wrap or is not
/// computed).
pub(crate) fn binary(op: BinOp, a: Range, b: Range, ty: Ty) -> Range {
    exact(op, a, b).map_or(Range::full(ty), |r| r.as_ty(ty))
}

/// The interval of `a op b` computed without wrapping, where it is computed.
pub(crate) fn exact(op: BinOp, a: Range, b: Range) -> Option<Range> {
    let corners = |f: fn(i128, i128) -> Option<i128>| -> Option<Range> {
        let vs = [
            f(a.lo, b.lo)?,
            f(a.lo, b.hi)?,
            f(a.hi, b.lo)?,
            f(a.hi, b.hi)?,
        ];
        Some(Range {
            lo: *vs.iter().min()?,
            hi: *vs.iter().max()?,
        })
    };
    match op {
        BinOp::Add => corners(i128::checked_add),
        BinOp::Sub => corners(i128::checked_sub),
        BinOp::Mul => corners(i128::checked_mul),
        BinOp::Rem if b.lo == b.hi && b.lo != 0 => {
            // |a % c| < |c|, with the sign of `a` (C truncates).
            let m = b.lo.abs() - 1;
            Some(Range {
                lo: if a.lo >= 0 { 0 } else { -m.min(-a.lo) },
                hi: if a.hi <= 0 { 0 } else { m.min(a.hi) },
            })
        }
        BinOp::Div if b.lo > 0 || b.hi < 0 => corners(i128::checked_div),
        // `x >> k` is `x / 2^k` rounded down, monotone in `x` and (for one sign of `x`) in
        // `k`; a shift by a negative amount or by the width or more is not computed.
        BinOp::Shr if b.lo >= 0 && b.hi < 64 => corners(|x, k| Some(x >> k)),
        BinOp::Shl if b.lo >= 0 && b.hi < 64 => corners(|x, k| x.checked_mul(1 << k)),
        BinOp::BitAnd if b.lo == b.hi && b.lo >= 0 => Some(Range { lo: 0, hi: b.lo }),
        BinOp::BitAnd if a.lo == a.hi && a.lo >= 0 => Some(Range { lo: 0, hi: a.lo }),
        _ => None,
    }
}

/// The element type of variable `v`.
pub(crate) fn elem_ty(prog: &Program, v: VarId) -> Ty {
    prog.var(v).elem.ty()
}

/// Joins `r` into what `place` may name.
fn assign(
    prog: &Program,
    of: &mut [Range],
    place: &Place,
    r: Range,
    widen: &mut impl FnMut(&mut [Range], VarId, Range),
) {
    match place {
        Place::Var { var, .. } => widen(of, *var, r),
        // A write through a pointer may write bytes of a wider value into any target.
        Place::Deref { ty, targets, .. } => {
            for v in targets {
                let r = if elem_ty(prog, *v) == *ty {
                    r
                } else {
                    Range::full(elem_ty(prog, *v))
                };
                widen(of, *v, r);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::load_str;
    use crate::frontend::Options;

    fn ranges_of(text: &str) -> (Program, Ranges) {
        let p = load_str("ranges.c", text, &Options::default()).expect("lowers");
        let r = Ranges::new(&p);
        (p, r)
    }

    fn range(p: &Program, r: &Ranges, name: &str) -> Range {
        let v = p
            .vars
            .iter()
            .find(|v| v.name == name)
            .unwrap_or_else(|| panic!("no variable {name}"));
        r.of(v.id)
    }

    #[test]
    fn intervals_cover_every_value_and_widen_loops() {
        let (p, r) = ranges_of(
            r#"
#include <stdlib.h>
unsigned __VERIFIER_nondet_uint(void);
static int draw(void) { return __VERIFIER_nondet_uint() & 0x7fffffff; }
int small, letter, counter, flag = 3, die, half;
int main(void) {
  small = draw() % 10;
  die = rand() % 6 + 1;
  half = (draw() >> 24) << 1;
  letter = 'a' + abs(draw()) % 26;
  for (int i = 0; i < 1000; i++) counter = counter + 2;
  if (small > 4) flag = 7;
  return 0;
}
"#,
        );
        assert_eq!(range(&p, &r, "small"), Range { lo: 0, hi: 9 });
        // glibc's generator (the model's shift) gives [0, RAND_MAX].
        assert_eq!(range(&p, &r, "die"), Range { lo: 0, hi: 6 });
        assert_eq!(range(&p, &r, "half"), Range { lo: 0, hi: 254 });
        // With the initial 0.
        assert_eq!(range(&p, &r, "letter"), Range { lo: 0, hi: 122 });
        assert_eq!(range(&p, &r, "flag"), Range { lo: 3, hi: 7 });
        // A counter that keeps growing covers its whole type.
        assert_eq!(range(&p, &r, "counter"), Range::full(Ty::INT));
    }

    #[test]
    fn guards_the_intervals_decide() {
        let (p, r) = ranges_of(
            r#"
#include <stdlib.h>
int x;
int main(void) {
  x = rand();
  if (x < 0) x = 1;
  return 0;
}
"#,
        );
        let guards: Vec<Option<bool>> = p.threads[0]
            .transitions
            .iter()
            .filter(|t| t.kind == crate::ir::TransKind::Branch)
            .map(|t| r.truth(&p, &t.guard))
            .collect();
        assert!(guards.contains(&Some(false)), "{guards:?}");
        assert!(guards.contains(&Some(true)), "{guards:?}");
    }
}
