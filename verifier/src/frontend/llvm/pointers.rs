//! Pointers compared by order (`p < q`, `p >= q`, ...), subtracted (`p - q`), and reduced
//! modulo a power of two (`(uintptr_t)p % 8`, `(uintptr_t)p & 15`: a test of alignment).
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
//! An address modulo a power of two `k` is a run's where the block's first byte lies at a
//! multiple of `k` in every run, whichever compiler built it: a global or a local as aligned
//! as the module says but no more than its type (clang may give more than gcc; a global
//! array of 16 bytes or more is aligned to 16 by the x86-64 psABI, a variable-length array
//! too), memory from `malloc` and its kind (glibc's alignment of 16 bytes on x86-64, as the
//! model's other choices of the C library are glibc's) or a file mapping (a page); not the
//! models' own globals, whose counterparts are the C library's memory. The model's address
//! is then the block's offset modulo `k`, where the block's status cell (8 bytes) and the
//! distance between a site's instances are multiples of `k`; and a number below 2^32 (null,
//! an integer converted to a pointer) is its own address in the model and in a run.
//! Elsewhere the remainder is made up as above, but within the remainder's range.
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
//! lowering records each comparison, difference and remainder, and
//! [`Lowerer::fill_within_blocks`] writes its test at the end.

use super::lower::{and, bin, cast, ite, Lowerer, Val, R};
use crate::ir::*;
use llvm_ir::instruction::{ICmp, Sub};
use llvm_ir::types::Type;
use llvm_ir::{Constant, Function, Instruction, IntPredicate, Name, Operand};
use std::collections::{HashMap, HashSet};

/// The greatest alignment a test of alignment may ask for (a page).
const MAX_ALIGNMENT: u64 = 4096;

/// The alignment of memory from `malloc`, `calloc` and `realloc` (glibc's `MALLOC_ALIGNMENT`
/// on x86-64: `alignof(max_align_t)`).
pub(super) const MALLOC_ALIGNMENT: u64 = 16;

/// The alignment of a file mapping (`mmap`): a page.
pub(super) const PAGE_ALIGNMENT: u64 = 4096;

/// A comparison by order or a difference of two pointers, to be completed by
/// [`Lowerer::fill_within_blocks`].
pub(super) struct WithinBlock {
    thread: ThreadId,
    /// The register that holds the result.
    result: VarId,
    /// Its type.
    ty: Ty,
    /// The (first) pointer, as `unsigned long`.
    a: Expr,
    /// What `a` is taken with.
    with: With,
}

/// What a [`WithinBlock`] takes its pointer with.
enum With {
    /// A second pointer, as `unsigned long`; `exact`: the result where both lie in one
    /// block; `null_exact`: whether it is exact where either is null (an order).
    Pointer {
        b: Expr,
        exact: Expr,
        null_exact: bool,
    },
    /// A power of two (a remainder), and whether the remainder is signed (`srem`).
    Modulus(u64, bool),
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

/// The registers of `f` that hold an address converted to an integer: a `ptrtoint`, or one
/// with 0 added or subtracted (`(char *)p - (char *)0`, which clang compiles to a `sub` of
/// 0).
pub(super) fn address_registers(f: &Function) -> HashSet<&Name> {
    let instrs = || f.basic_blocks.iter().flat_map(|b| &b.instrs);
    let mut out: HashSet<&Name> = instrs()
        .filter_map(|i| match i {
            Instruction::PtrToInt(p) => Some(&p.dest),
            _ => None,
        })
        .collect();
    if out.is_empty() {
        return out;
    }
    let zero = |o: &Operand| matches!(o, Operand::ConstantOperand(c) if matches!(c.as_ref(), Constant::Int { value: 0, .. }));
    let local = |o: &Operand| match o {
        Operand::LocalOperand { name, .. } => Some(name.clone()),
        _ => None,
    };
    loop {
        let more: Vec<&Name> = instrs()
            .filter_map(|i| {
                let (x, dest) = match i {
                    Instruction::Sub(s) if zero(&s.operand1) => (&s.operand0, &s.dest),
                    Instruction::Add(a) if zero(&a.operand1) => (&a.operand0, &a.dest),
                    Instruction::Add(a) if zero(&a.operand0) => (&a.operand1, &a.dest),
                    _ => return None,
                };
                let x = local(x)?;
                (out.contains(&x) && !out.contains(dest)).then_some(dest)
            })
            .collect();
        if more.is_empty() {
            return out;
        }
        out.extend(more);
    }
}

/// The address and the modulus of `i` where it takes an address converted to a 64-bit
/// integer (a constant conversion, or a register `address` says holds one,
/// [`address_registers`]) modulo a power of two (`urem` or `srem` by it, or `and` with one
/// less): a test of alignment.
pub(super) fn remainder_of_address<'i>(
    m: &llvm_ir::Module,
    i: &'i Instruction,
    address: impl Fn(&Name) -> bool,
) -> Option<(&'i Operand, u64)> {
    let constant = |o: &Operand| match o {
        Operand::ConstantOperand(c) => match c.as_ref() {
            Constant::Int { bits: 64, value } => Some(*value),
            _ => None,
        },
        _ => None,
    };
    let is_address = |o: &Operand| match o {
        Operand::LocalOperand { name, .. } => address(name),
        Operand::ConstantOperand(c) => matches!(c.as_ref(), Constant::PtrToInt(_)),
        Operand::MetadataOperand => false,
    };
    let power = |k: u64| ((2..=MAX_ALIGNMENT).contains(&k) && k.is_power_of_two()).then_some(k);
    let (x, k) = match i {
        Instruction::URem(r) => (&r.operand0, power(constant(&r.operand1)?)?),
        Instruction::SRem(r) => (&r.operand0, power(constant(&r.operand1)?)?),
        Instruction::And(a) => match (constant(&a.operand0), constant(&a.operand1)) {
            (None, Some(mask)) => (&a.operand0, power(mask.checked_add(1)?)?),
            (Some(mask), None) => (&a.operand1, power(mask.checked_add(1)?)?),
            _ => return None,
        },
        _ => return None,
    };
    (is_address(x) && matches!(m.types.type_of(x).as_ref(), Type::IntegerType { bits: 64 }))
        .then_some((x, k))
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
        let with = With::Pointer {
            b,
            exact,
            null_exact: true,
        };
        self.within_block(&x.dest, "order", Ty::BOOL, a, with);
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
        let with = With::Pointer {
            b,
            exact,
            null_exact: false,
        };
        self.within_block(&x.dest, "distance", ty, a, with);
        Ok(())
    }

    /// Lowers `i`, whose result `dest` is the address `x` converted to an integer modulo
    /// `k` ([`remainder_of_address`]; `signed`: by `srem`).
    pub(super) fn pointer_remainder(
        &mut self,
        dest: &'m Name,
        x: &'m Operand,
        k: u64,
        signed: bool,
    ) -> R<()> {
        let ty = self.reg_ty(&self.m.types.type_of(x))?;
        let a = cast(self.expr(x)?, Ty::ULONG);
        self.within_block(dest, "remainder", ty, a, With::Modulus(k, signed));
        Ok(())
    }

    /// Binds `dest` to a register made up, then set to `exact` where `a` and what it is taken
    /// `with` lie in one block (or `a` in an aligned one; the test is written by
    /// [`Lowerer::fill_within_blocks`]). Both assignments run with the next step.
    fn within_block(&mut self, dest: &'m Name, name: &str, ty: Ty, a: Expr, with: With) {
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
            a,
            with,
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
        // Per modulus, the ranges of numbers of the objects so aligned ([`Lowerer::aligned`]).
        let mut aligned_runs: HashMap<u64, Vec<(i128, i128)>> = HashMap::new();
        for w in std::mem::take(&mut self.within_blocks) {
            let made_up = Expr::var(w.result, w.ty);
            let (one, exact, made_up) = match w.with {
                With::Pointer {
                    b,
                    exact,
                    null_exact,
                } => {
                    let mut one = one_block(&w.a, &b, &instanced, last);
                    if null_exact {
                        // Null lies below an object's address (not below a dangling
                        // pointer's value, which a compiler may make null).
                        let null = |x: &Expr| {
                            bin(BinOp::Eq, x.clone(), Expr::constant(0, Ty::ULONG), Ty::INT)
                        };
                        let below = |x: &Expr, y: &Expr| and(null(x), in_object(y, last));
                        one = bin(
                            BinOp::Or,
                            bin(BinOp::Or, below(&w.a, &b), below(&b, &w.a), Ty::INT),
                            one,
                            Ty::INT,
                        );
                    }
                    (one, exact, made_up)
                }
                With::Modulus(k, signed) => {
                    let runs = aligned_runs
                        .entry(k)
                        .or_insert_with(|| self.aligned(k, last));
                    let (one, exact) = remainder(&w.a, k, runs, last);
                    // (A remainder made up is still one: below the modulus, and for `srem`
                    // above its negation.)
                    let (op, by) = if signed {
                        (BinOp::Rem, k as i128)
                    } else {
                        (BinOp::BitAnd, k as i128 - 1)
                    };
                    let made_up = bin(op, made_up, Expr::constant(by, w.ty), w.ty);
                    (one, cast(exact, w.ty), made_up)
                }
            };
            let value = ite(one, exact, made_up, w.ty);
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

impl Lowerer<'_> {
    /// The ranges of numbers of the objects whose blocks' first bytes lie at a multiple of
    /// `k` in every run (see the module documentation), given that a number is an object's;
    /// `last` is the greatest object number.
    fn aligned(&self, k: u64, last: i128) -> Vec<(i128, i128)> {
        // A block after a status cell lies `ALLOCATION_HEADER` bytes into its instance: the
        // same modulo `k` only where `k` divides that. (Moving it back instead would be
        // wrong for a number that only looks like an address of the object.)
        let (mut aligned, mut others) = (vec![], vec![]);
        for v in &self.vars {
            if v.placement().object != v.id {
                continue;
            }
            let number = v.id.0 as i128 + 1;
            let instances_aligned = !v.allocation_status
                || (ALLOCATION_HEADER as u64).is_multiple_of(k)
                    && (v.len <= 1 || (v.placement().stride as u64).is_multiple_of(k));
            let align = self.alignments.get(&v.id).copied().unwrap_or(1);
            if align >= k && instances_aligned && number <= last {
                aligned.push(number);
            } else {
                others.push(number);
            }
        }
        // Runs of `aligned` with none of `others` between (both sorted).
        let mut runs: Vec<(i128, i128)> = vec![];
        for n in aligned {
            match runs.last_mut() {
                Some((_, hi))
                    if others
                        .get(others.partition_point(|o| *o <= *hi))
                        .is_none_or(|o| *o > n) =>
                {
                    *hi = n
                }
                _ => runs.push((n, n)),
            }
        }
        runs
    }
}

/// Whether address `x` (of type `unsigned long`) lies in a block whose first byte is at a
/// multiple of `k` in every run, one of the objects numbered in `runs` ([`Lowerer::aligned`]),
/// and `x` modulo `k` where it does; `last` is the greatest object number.
fn remainder(x: &Expr, k: u64, runs: &[(i128, i128)], last: i128) -> (Expr, Expr) {
    let ul = |v: i128| Expr::constant(v, Ty::ULONG);
    let o = object(x);
    let among = runs
        .iter()
        .map(|&(lo, hi)| {
            if lo == hi {
                bin(BinOp::Eq, o.clone(), ul(lo), Ty::INT)
            } else {
                and(
                    bin(BinOp::Ge, o.clone(), ul(lo), Ty::INT),
                    bin(BinOp::Le, o.clone(), ul(hi), Ty::INT),
                )
            }
        })
        .reduce(|a, b| bin(BinOp::Or, a, b, Ty::INT))
        .unwrap_or_else(|| Expr::int(0));
    // A number below 2^32 (null, or an integer converted to a pointer) is its own address,
    // in a run too.
    let number = bin(BinOp::Eq, o, ul(0), Ty::INT);
    let test = bin(BinOp::Or, number, and(in_object(x, last), among), Ty::INT);
    (
        test,
        bin(BinOp::BitAnd, x.clone(), ul(k as i128 - 1), Ty::ULONG),
    )
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
