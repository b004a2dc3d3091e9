//! Whether a module can observe how the front end numbers threads and objects: a call of
//! `pthread_self` (a thread's id is its number), a pointer converted to an integer or two
//! pointers compared by order (an address is its object's number and the offset). A program
//! lowered with fewer threads numbers the later threads and their objects differently; a bug
//! found there is one of the program without the bound only where the module cannot tell the
//! numbers apart ([`crate::ir::Program::observes_numbering`], [`crate::scope`]).

use llvm_ir::instruction::Instruction;
use llvm_ir::types::Type;
use llvm_ir::{Constant, IntPredicate, Module, Operand};

/// Whether some function or initialiser of `m` calls `pthread_self`, converts a pointer to
/// an integer, or compares pointers by order.
pub fn observes_numbering(m: &Module) -> bool {
    let consts = m
        .global_vars
        .iter()
        .filter_map(|g| g.initializer.as_ref())
        .any(|c| converts(c));
    consts
        || m.functions.iter().any(|f| {
            f.basic_blocks
                .iter()
                .flat_map(|b| &b.instrs)
                .any(|i| observes(m, i))
        })
}

/// Whether instruction `i` observes numbering.
fn observes(m: &Module, i: &Instruction) -> bool {
    let constant = |o: &Operand| matches!(o, Operand::ConstantOperand(c) if converts(c));
    match i {
        Instruction::PtrToInt(_) => true,
        Instruction::ICmp(x) => {
            let ordered = !matches!(x.predicate, IntPredicate::EQ | IntPredicate::NE);
            let pointer = matches!(
                m.types.type_of(&x.operand0).as_ref(),
                Type::PointerType { .. }
            );
            (ordered && pointer) || constant(&x.operand0) || constant(&x.operand1)
        }
        Instruction::Call(c) => {
            let callee = match &c.function {
                either::Either::Right(Operand::ConstantOperand(f)) => match f.as_ref() {
                    Constant::GlobalReference { name, .. } => {
                        super::lower::name_str(name) == "pthread_self"
                    }
                    _ => false,
                },
                _ => false,
            };
            callee || c.arguments.iter().any(|(o, _)| constant(o))
        }
        Instruction::Store(s) => constant(&s.value),
        _ => false,
    }
}

/// Whether constant `c` converts a pointer to an integer somewhere inside.
fn converts(c: &Constant) -> bool {
    match c {
        Constant::PtrToInt(_) => true,
        Constant::Struct { values, .. } => values.iter().any(|v| converts(v)),
        Constant::Array { elements, .. } => elements.iter().any(|v| converts(v)),
        Constant::Vector(elements) => elements.iter().any(|v| converts(v)),
        Constant::GetElementPtr(g) => converts(&g.address),
        Constant::BitCast(x) => converts(&x.operand),
        Constant::Add(x) => converts(&x.operand0) || converts(&x.operand1),
        Constant::Sub(x) => converts(&x.operand0) || converts(&x.operand1),
        _ => false,
    }
}
