//! Pointers compared by order (`p < q`, `p >= q`, ...) and subtracted (`p - q`).
//!
//! C defines both for two pointers into one block only: the same object (array, struct), or
//! one past its end (C11 6.5.8p5, 6.5.6p9). There the model's addresses give a run's results,
//! since an object's bytes lie at consecutive addresses in both. Pointers into two blocks have
//! no order or distance in C, and a run's are its allocator's and linker's, which the model's
//! numbers are not. So the result is the model's where both pointers lie in one block (for an
//! order, also where one is null and the other an address in an object: null lies below every
//! address in both), and otherwise a value the model does not compute (a register made up
//! anew at each comparison, as for floating point): every verdict holds for any answer, and no
//! bug the model reports rests on the model's numbering ([`crate::unavoidable`] counts such
//! values as not known). The answers are not kept consistent with each other (a run's are, by
//! one order of its blocks), so a program whose correctness rests on that consistency (locks
//! ordered by their blocks' addresses) gets no `safe` verdict: a known gap, on the side of
//! caution.
//!
//! Values that are no address in an object are in no block: null (but for the order above), a
//! number converted to a pointer, a thread id converted to one (a number of the model's own),
//! a dangling pointer's value (which a compiler may make null). A difference is one of
//! pointers converted to 64-bit integers; a narrower conversion drops the object's number,
//! and stays a read of addresses ([`super::numbering`]).
//!
//! A block is an object, except for the objects holding the instances of an allocation site or
//! a variable-length array ([`crate::ir::Var::allocation_status`]): there each instance is a
//! block. Instances are told apart by the stride of the object's status variable, which is
//! known only once every thread is lowered (a thread lowered later may have the site), so the
//! lowering records each comparison and difference, and [`Lowerer::fill_within_blocks`]
//! writes its test at the end.

use super::lower::{and, bin, cast, ite, Lowerer, Val, R};
use crate::ir::*;
use llvm_ir::instruction::{ICmp, Sub};
use llvm_ir::types::Type;
use llvm_ir::{Constant, IntPredicate, Name, Operand};
use std::collections::HashMap;

/// A comparison by order or a difference of two pointers, to be completed by
/// [`Lowerer::fill_within_blocks`].
pub(super) struct WithinBlock {
    thread: ThreadId,
    /// The register that holds the result.
    result: VarId,
    /// Its type.
    ty: Ty,
    /// The result where both pointers lie in one block.
    exact: Expr,
    /// Both pointers, as `unsigned long`.
    a: Expr,
    b: Expr,
    /// Whether the result is exact where either pointer is null (an order).
    null_exact: bool,
}

/// Whether `x` compares two pointers by order.
pub(super) fn orders_pointers(m: &llvm_ir::Module, x: &ICmp) -> bool {
    !matches!(x.predicate, IntPredicate::EQ | IntPredicate::NE)
        && matches!(
            m.types.type_of(&x.operand0).as_ref(),
            Type::PointerType { .. }
        )
}

/// Whether `x` subtracts two pointers converted to 64-bit integers (`p - q` in C, which clang
/// compiles to two `ptrtoint`s and a `sub`), where `converted` says which registers of its
/// function are `ptrtoint`s. (A pointer converted to a narrower integer loses its object's
/// number.) The lowering computes such a difference ([`Lowerer::pointer_difference`]), and
/// the numbering analysis does not count it as a read of addresses.
pub(super) fn subtracts_pointers(
    m: &llvm_ir::Module,
    x: &Sub,
    converted: impl Fn(&Name) -> bool,
) -> bool {
    let is = |o: &Operand| match o {
        Operand::LocalOperand { name, .. } => converted(name),
        Operand::ConstantOperand(c) => matches!(c.as_ref(), Constant::PtrToInt(_)),
        Operand::MetadataOperand => false,
    };
    matches!(
        m.types.type_of(&x.operand0).as_ref(),
        Type::IntegerType { bits: 64 }
    ) && is(&x.operand0)
        && is(&x.operand1)
}

impl<'m> Lowerer<'m> {
    /// Lowers `x`, a comparison by order of two pointers ([`orders_pointers`]).
    pub(super) fn pointer_order(&mut self, x: &'m ICmp) -> R<()> {
        let a = cast(self.expr(&x.operand0)?, Ty::ULONG);
        let b = cast(self.expr(&x.operand1)?, Ty::ULONG);
        let exact = cast(
            self.icmp(x.predicate, a.clone(), b.clone(), Ty::ULONG)?,
            Ty::BOOL,
        );
        self.within_block(&x.dest, "order", Ty::BOOL, exact, a, b, true);
        Ok(())
    }

    /// Lowers `x`, a difference of two pointers converted to integers
    /// ([`Lowerer::subtracts_pointers`]).
    pub(super) fn pointer_difference(&mut self, x: &'m Sub) -> R<()> {
        let ty = self.reg_ty(&self.m.types.type_of(&x.operand0))?;
        let a = self.expr(&x.operand0)?;
        let b = self.expr(&x.operand1)?;
        let exact = self.arith(BinOp::Sub, a.clone(), b.clone(), ty, x.nsw)?;
        let (a, b) = (cast(a, Ty::ULONG), cast(b, Ty::ULONG));
        self.within_block(&x.dest, "distance", ty, exact, a, b, false);
        Ok(())
    }

    /// Binds `dest` to a register made up, then set to `exact` where `a` and `b` lie in one
    /// block (the test is written by [`Lowerer::fill_within_blocks`]). Both assignments run
    /// with the next step.
    #[allow(clippy::too_many_arguments)]
    fn within_block(
        &mut self,
        dest: &'m Name,
        name: &str,
        ty: Ty,
        exact: Expr,
        a: Expr,
        b: Expr,
        null_exact: bool,
    ) {
        let r = self.made_up_pending(name, ty);
        // Completed at the end; until then the made-up value stays.
        self.pending.push(Op::Assign {
            place: Place::scalar(r),
            value: Expr::var(r, ty),
        });
        self.within_blocks.push(WithinBlock {
            thread: self.tid,
            result: r,
            ty,
            exact,
            a,
            b,
            null_exact,
        });
        self.bind(dest, Val::E(Expr::var(r, ty)), ty);
    }

    /// Writes the test of each comparison and difference lowered ([`Lowerer::within_block`]):
    /// its result is exact where both pointers lie in one block, and stays made up otherwise.
    pub(super) fn fill_within_blocks(&mut self) {
        if self.within_blocks.is_empty() {
            return;
        }
        // The objects of several blocks: the object's number (as in an address) and the
        // stride of its instances.
        let instanced: Vec<(i128, u32)> = self
            .vars
            .iter()
            .filter(|v| v.allocation_status && v.len > 1)
            .map(|v| {
                let p = v.placement();
                (p.object.0 as i128 + 1, p.stride)
            })
            .collect();
        // The greatest object number an address may have: below the thread ids', which
        // are numbers of the model's too ([`crate::ir::THREAD_ID_BASE`]).
        let last = (self.vars.len() as i128).min((THREAD_ID_BASE >> 32) - 1);
        // Per thread, the test of each result register.
        let mut tests: Vec<HashMap<VarId, Expr>> = vec![HashMap::new(); self.threads.len()];
        for w in std::mem::take(&mut self.within_blocks) {
            let mut one = one_block(&w.a, &w.b, &instanced, last);
            if w.null_exact {
                // Null lies below an object's address (not below a dangling pointer's
                // value, which a compiler may make null).
                let null =
                    |x: &Expr| bin(BinOp::Eq, x.clone(), Expr::constant(0, Ty::ULONG), Ty::INT);
                let below = |x: &Expr, y: &Expr| and(null(x), in_object(y, last));
                one = bin(
                    BinOp::Or,
                    bin(BinOp::Or, below(&w.a, &w.b), below(&w.b, &w.a), Ty::INT),
                    one,
                    Ty::INT,
                );
            }
            let value = ite(one, w.exact, Expr::var(w.result, w.ty), w.ty);
            tests[w.thread.0 as usize].insert(w.result, value);
        }
        for ((_, tb), tests) in self.threads.iter_mut().zip(&tests) {
            if tests.is_empty() {
                continue;
            }
            for op in tb.transitions.iter_mut().flat_map(|t| &mut t.ops) {
                if let Op::Assign {
                    place: Place::Var { var, index: None },
                    value,
                } = op
                {
                    if let Some(test) = tests.get(var) {
                        *value = test.clone();
                    }
                }
            }
        }
    }
}

/// The object number of address `x` (of type `unsigned long`; [`crate::ir::address`]).
fn object(x: &Expr) -> Expr {
    bin(
        BinOp::Shr,
        x.clone(),
        Expr::constant(32, Ty::ULONG),
        Ty::ULONG,
    )
}

/// Whether `x` is an address in an object numbered at most `last`: not null, a number
/// converted to a pointer (object 0), a thread id or a dangling pointer's value.
fn in_object(x: &Expr, last: i128) -> Expr {
    let ul = |v: i128| Expr::constant(v, Ty::ULONG);
    and(
        bin(BinOp::Ge, object(x), ul(1), Ty::INT),
        bin(BinOp::Le, object(x), ul(last), Ty::INT),
    )
}

/// Whether `a` and `b` (of type `unsigned long`) are addresses in one block: `instanced`
/// lists the objects of several blocks (see the module documentation), `last` is the
/// greatest object number.
fn one_block(a: &Expr, b: &Expr, instanced: &[(i128, u32)], last: i128) -> Expr {
    let ul = |v: i128| Expr::constant(v, Ty::ULONG);
    // The instance of an address in an object whose instances are `stride` bytes apart, each
    // with its status cell first: one past an instance's end is still that instance.
    let instance = |x: &Expr, stride: u32| {
        let l = |v: i128| Expr::constant(v, Ty::LONG);
        let off = cast(
            bin(BinOp::BitAnd, x.clone(), ul(0xffff_ffff), Ty::ULONG),
            Ty::LONG,
        );
        let payload = bin(BinOp::Sub, off, l(ALLOCATION_HEADER), Ty::LONG);
        bin(BinOp::Div, payload, l(stride as i128), Ty::LONG)
    };
    let mut same = and(
        in_object(a, last),
        bin(BinOp::Eq, object(a), object(b), Ty::INT),
    );
    for &(obj, stride) in instanced {
        let elsewhere = bin(BinOp::Ne, object(a), ul(obj), Ty::INT);
        let together = bin(BinOp::Eq, instance(a, stride), instance(b, stride), Ty::INT);
        same = and(same, bin(BinOp::Or, elsewhere, together, Ty::INT));
    }
    same
}
