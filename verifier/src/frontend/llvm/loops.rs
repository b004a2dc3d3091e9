//! Which loops the lowering unrolls: those that start threads. The thread IR has a fixed set
//! of threads, one per `pthread_create` executed, so a creation inside a loop needs the loop's
//! iterations apart. The lowering specialises the integer phis of such a loop's blocks on
//! their constant values (the loop counter of `for (i = 0; i < N; i++) pthread_create(...)`),
//! which unrolls the loop as far as the counter is known; a creation still inside a loop after
//! that is reported by the finishing pass.

use super::awaits::{block_index, block_successors};
use llvm_ir::instruction::Instruction;
use llvm_ir::types::Type;
use llvm_ir::{Function, Module, Name, Operand};
use std::collections::{HashMap, HashSet};

/// The functions that start a thread, directly or through the functions they call.
pub(super) fn creating_functions(m: &Module) -> HashSet<String> {
    let mut calls: HashMap<&str, Vec<String>> = HashMap::new();
    for f in &m.functions {
        let mut v = Vec::new();
        for bb in &f.basic_blocks {
            for i in &bb.instrs {
                if let Some(n) = callee(i) {
                    v.push(n);
                }
            }
        }
        calls.insert(f.name.as_str(), v);
    }
    let mut out: HashSet<String> = HashSet::new();
    loop {
        let mut changed = false;
        for (f, cs) in &calls {
            if out.contains(*f) {
                continue;
            }
            if cs.iter().any(|c| c == "pthread_create" || out.contains(c)) {
                out.insert(f.to_string());
                changed = true;
            }
        }
        if !changed {
            return out;
        }
    }
}

/// The functions (defined or declared) whose address the module takes: named anywhere but as
/// the function a call calls, sorted.
pub(super) fn address_taken_functions(m: &Module) -> Vec<String> {
    use llvm_ir::Constant;
    let funcs: HashSet<&str> = m
        .functions
        .iter()
        .map(|f| f.name.as_str())
        .chain(m.func_declarations.iter().map(|d| d.name.as_str()))
        .collect();
    let mut out: HashSet<String> = HashSet::new();
    fn walk(c: &llvm_ir::ConstantRef, funcs: &HashSet<&str>, out: &mut HashSet<String>) {
        match c.as_ref() {
            Constant::GlobalReference { name, .. } => {
                let n = super::lower::name_str(name);
                if funcs.contains(n.as_str()) {
                    out.insert(n);
                }
            }
            Constant::Struct { values, .. } => values.iter().for_each(|v| walk(v, funcs, out)),
            Constant::Array { elements, .. } => elements.iter().for_each(|v| walk(v, funcs, out)),
            Constant::GetElementPtr(g) => walk(&g.address, funcs, out),
            Constant::PtrToInt(x) => walk(&x.operand, funcs, out),
            Constant::BitCast(x) => walk(&x.operand, funcs, out),
            _ => {}
        }
    }
    for g in &m.global_vars {
        if let Some(c) = &g.initializer {
            walk(c, &funcs, &mut out);
        }
    }
    for f in &m.functions {
        for i in f.basic_blocks.iter().flat_map(|b| &b.instrs) {
            let ops: Vec<&Operand> = match i {
                // The callee of a direct call is no address taken; its arguments may be.
                Instruction::Call(c) => c.arguments.iter().map(|(o, _)| o).collect(),
                i => super::lower::operands(i),
            };
            for o in ops {
                if let Operand::ConstantOperand(c) = o {
                    walk(c, &funcs, &mut out);
                }
            }
        }
    }
    let mut v: Vec<String> = out.into_iter().collect();
    v.sort();
    v
}

/// The name of the function a call instruction calls directly.
pub(super) fn callee(i: &Instruction) -> Option<String> {
    let Instruction::Call(c) = i else { return None };
    let either::Either::Right(Operand::ConstantOperand(k)) = &c.function else {
        return None;
    };
    match k.as_ref() {
        llvm_ir::Constant::GlobalReference { name, .. } => Some(super::lower::name_str(name)),
        _ => None,
    }
}

/// For each block of `f`, whether it lies on a cycle of the control flow.
pub(super) fn on_cycle(f: &Function) -> Vec<bool> {
    let reach = reachability(f);
    (0..reach.len()).map(|b| reach[b][b]).collect()
}

/// `reach[a][b]`: block `b` is reachable from block `a` in one or more steps.
fn reachability(f: &Function) -> Vec<Vec<bool>> {
    let n = f.basic_blocks.len();
    let succ = block_successors(f, &block_index(f));
    let mut reach = vec![vec![false; n]; n];
    for a in 0..n {
        let mut stack: Vec<usize> = succ[a].clone();
        while let Some(b) = stack.pop() {
            if !reach[a][b] {
                reach[a][b] = true;
                stack.extend(succ[b].iter().copied());
            }
        }
    }
    reach
}

/// The integer phis of `f` that lie on a cycle of blocks that also holds a call starting a
/// thread.
pub(super) fn specialised_phis(f: &Function, creating: &HashSet<String>) -> HashSet<Name> {
    let n = f.basic_blocks.len();
    let creates: Vec<bool> = f
        .basic_blocks
        .iter()
        .map(|b| {
            b.instrs
                .iter()
                .any(|i| callee(i).is_some_and(|c| c == "pthread_create" || creating.contains(&c)))
        })
        .collect();
    if !creates.iter().any(|c| *c) {
        return HashSet::new();
    }
    let reach = reachability(f);
    let mut out = HashSet::new();
    for (b, bb) in f.basic_blocks.iter().enumerate() {
        let on_creating_cycle = (0..n).any(|c| creates[c] && reach[b][c] && reach[c][b]);
        if !on_creating_cycle {
            continue;
        }
        for i in &bb.instrs {
            if let Instruction::Phi(p) = i {
                if matches!(p.to_type.as_ref(), Type::IntegerType { .. }) {
                    out.insert(p.dest.clone());
                }
            }
        }
    }
    out
}
