//! Which local variables may be used after their function returns: an `alloca` whose address
//! leaves the function's call other than through a call that is done with it when it
//! returns. Such a local gets a lifetime ([`super::lower::Lowerer`] lowers it as a block with
//! a status cell, allocated at the `alloca` and freed at the function's return or at the
//! thread's `pthread_exit`), so that a use through a pointer kept in a global, a structure,
//! an out-parameter or another thread's argument after the return is the memory error it is
//! in C (C11 6.2.4: the pointer's value becomes indeterminate), in every engine alike.
//!
//! The analysis is the flow-insensitive escape analysis of compilers (a pointer escapes when
//! it is stored, returned, converted to an integer or handed to code that may keep it), over
//! the values derived from the address (`getelementptr`, casts, `select`, `phi`, aggregates,
//! and the result of any call it is passed to), with a summary per parameter of each defined
//! function (whether the function may keep it), computed to a fixed point over the call
//! graph. A declared function keeps a pointer only where the library model passes it on to
//! the program: `pthread_create`'s argument, `pthread_setspecific`'s value and
//! `pthread_exit`'s result. Indirect calls and inline assembly keep every argument.

use llvm_ir::instruction::Instruction;
use llvm_ir::terminator::Terminator;
use llvm_ir::{Constant, Function, Module, Name, Operand};
use std::collections::{HashMap, HashSet};

/// Per defined function, the `alloca`s whose address may be used after it returns.
pub(super) fn escaping_locals(m: &Module) -> HashMap<&str, HashSet<Name>> {
    let keeps = parameter_summaries(m);
    m.functions
        .iter()
        .map(|f| {
            let out = f
                .basic_blocks
                .iter()
                .flat_map(|b| &b.instrs)
                .filter_map(|i| match i {
                    Instruction::Alloca(a) if escapes(f, &a.dest, &keeps, true) => {
                        Some(a.dest.clone())
                    }
                    _ => None,
                })
                .collect();
            (f.name.as_str(), out)
        })
        .collect()
}

/// Per defined function, whether it may keep each parameter (store it, or hand it to code
/// that may) past its return; the least fixed point over the call graph.
fn parameter_summaries(m: &Module) -> HashMap<&str, Vec<bool>> {
    let mut keeps: HashMap<&str, Vec<bool>> = m
        .functions
        .iter()
        .map(|f| (f.name.as_str(), vec![false; f.parameters.len()]))
        .collect();
    loop {
        let mut changed = false;
        for f in &m.functions {
            for (k, p) in f.parameters.iter().enumerate() {
                if keeps[f.name.as_str()][k] || !escapes(f, &p.name, &keeps, false) {
                    continue;
                }
                keeps.get_mut(f.name.as_str()).expect("every function")[k] = true;
                changed = true;
            }
        }
        if !changed {
            return keeps;
        }
    }
}

/// Whether the value `seed` of `f` (an address) may outlive the call of `f`: some value
/// derived from it is stored, converted to an integer, kept by a callee, or (with
/// `returned`) returned.
fn escapes(f: &Function, seed: &Name, keeps: &HashMap<&str, Vec<bool>>, returned: bool) -> bool {
    let derived = derived_values(f, seed);
    let has =
        |o: &Operand| matches!(o, Operand::LocalOperand { name, .. } if derived.contains(name));
    for b in &f.basic_blocks {
        for i in &b.instrs {
            let kept = match i {
                Instruction::Store(s) => has(&s.value),
                Instruction::AtomicRMW(a) => has(&a.value),
                Instruction::CmpXchg(c) => has(&c.replacement),
                Instruction::PtrToInt(p) => has(&p.operand),
                Instruction::Call(c) => c
                    .arguments
                    .iter()
                    .enumerate()
                    .any(|(k, (a, _))| has(a) && callee_keeps(&c.function, k, keeps)),
                _ => false,
            };
            if kept {
                return true;
            }
        }
        if let Terminator::Ret(r) = &b.term {
            if returned && r.return_operand.as_ref().is_some_and(has) {
                return true;
            }
        }
    }
    false
}

/// The values of `f` that may hold an address derived from `seed` (itself included).
fn derived_values<'f>(f: &'f Function, seed: &'f Name) -> HashSet<&'f Name> {
    let mut derived: HashSet<&Name> = HashSet::from([seed]);
    loop {
        let before = derived.len();
        for i in f.basic_blocks.iter().flat_map(|b| &b.instrs) {
            let has = |o: &Operand| matches!(o, Operand::LocalOperand { name, .. } if derived.contains(name));
            let dest = match i {
                Instruction::GetElementPtr(g) if has(&g.address) => Some(&g.dest),
                Instruction::BitCast(x) if has(&x.operand) => Some(&x.dest),
                Instruction::AddrSpaceCast(x) if has(&x.operand) => Some(&x.dest),
                Instruction::Freeze(x) if has(&x.operand) => Some(&x.dest),
                Instruction::Select(s) if has(&s.true_value) || has(&s.false_value) => {
                    Some(&s.dest)
                }
                Instruction::Phi(p) if p.incoming_values.iter().any(|(o, _)| has(o)) => {
                    Some(&p.dest)
                }
                Instruction::InsertValue(x) if has(&x.aggregate) || has(&x.element) => {
                    Some(&x.dest)
                }
                Instruction::ExtractValue(x) if has(&x.aggregate) => Some(&x.dest),
                // A call may return what it is given (`strchr`, `memcpy`, a function of the
                // program's), as a pointer or in an aggregate. (An integer or floating-point
                // result holds no address: a function of the program's converts one to an
                // integer only where its parameter escapes, and the argument with it.)
                Instruction::Call(c)
                    if c.arguments.iter().any(|(a, _)| has(a)) && may_hold_address(c) =>
                {
                    c.dest.as_ref()
                }
                _ => None,
            };
            if let Some(d) = dest {
                derived.insert(d);
            }
        }
        if derived.len() == before {
            return derived;
        }
    }
}

/// Whether the result of call `c` may hold an address: it is neither an integer nor a
/// floating-point number.
fn may_hold_address(c: &llvm_ir::instruction::Call) -> bool {
    use llvm_ir::types::Type;
    match c.function_ty.as_ref() {
        Type::FuncType { result_type, .. } => !matches!(
            result_type.as_ref(),
            Type::IntegerType { .. } | Type::FPType(_) | Type::VoidType
        ),
        _ => true,
    }
}

/// Whether a call of `function` may keep its argument number `k` past its return.
fn callee_keeps(
    function: &either::Either<llvm_ir::instruction::InlineAssembly, Operand>,
    k: usize,
    keeps: &HashMap<&str, Vec<bool>>,
) -> bool {
    let either::Either::Right(Operand::ConstantOperand(c)) = function else {
        return true;
    };
    let Constant::GlobalReference { name, .. } = c.as_ref() else {
        return true;
    };
    let name = super::lower::name_str(name);
    match keeps.get(name.as_str()) {
        // A defined function; arguments past its parameters are variadic ones, which it
        // reads from memory.
        Some(params) => params.get(k).copied().unwrap_or(true),
        None => matches!(
            (name.as_str(), k),
            ("pthread_create", 3) | ("pthread_setspecific", 1) | ("pthread_exit", 0)
        ),
    }
}
