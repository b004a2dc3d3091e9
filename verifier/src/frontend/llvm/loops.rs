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
    functions_calling(m, "pthread_create")
}

/// The functions that call `target` (a declared function), directly or through the
/// functions they call.
pub(super) fn functions_calling(m: &Module, target: &str) -> HashSet<String> {
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
            if cs.iter().any(|c| c == target || out.contains(c)) {
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

/// The integer phis of `f` whose loop starts threads: the innermost natural loop holding the
/// phi's block also holds a call starting a thread (its counter decides how many threads the
/// loop starts). A loop nested in such a loop that starts none (filling or joining an array of
/// threads between the creations of a `goto retry` loop) keeps its phis as variables, so that
/// it does not multiply the unrolled copies. A block on a cycle that is no natural loop (an
/// irreducible one) is specialised where that cycle starts threads.
/// The phis to specialise ([`specialised_phis`]), per block those still told apart there
/// ([`live_specialised`]), and the blocks on a cycle that starts threads
/// ([`creation_cycles`]), from one computation of the blocks' reachability.
pub(super) fn specialisation(
    f: &Function,
    creating: &HashSet<String>,
) -> (HashSet<Name>, Vec<HashSet<Name>>, Vec<bool>) {
    let reach = reachability(f);
    let creates = creating_blocks(f, creating);
    let spec = specialised_phis(f, &creates, &reach);
    let live = live_specialised(f, &spec, &reach);
    let cycles = creation_cycles(&creates, &reach);
    (spec, live, cycles)
}

/// Whether each block of `f` calls `pthread_create` or a function of `creating`.
fn creating_blocks(f: &Function, creating: &HashSet<String>) -> Vec<bool> {
    f.basic_blocks
        .iter()
        .map(|b| {
            b.instrs
                .iter()
                .any(|i| callee(i).is_some_and(|c| c == "pthread_create" || creating.contains(&c)))
        })
        .collect()
}

/// For each block of `f`, whether it lies on a cycle through a block that starts threads.
/// The lowering tells such a block's copies apart by the number of threads started so far
/// (as a specialised phi's value), so that a loop with no counter (`while (1)
/// pthread_create(...)`) is unrolled one copy per thread it starts, until the thread bound
/// makes its creations fail and the copies close into a loop again.
fn creation_cycles(creates: &[bool], reach: &[Vec<bool>]) -> Vec<bool> {
    let n = creates.len();
    (0..n)
        .map(|b| (0..n).any(|c| creates[c] && reach[b][c] && reach[c][b]))
        .collect()
}

fn specialised_phis(f: &Function, creates: &[bool], reach: &[Vec<bool>]) -> HashSet<Name> {
    if !creates.iter().any(|c| *c) {
        return HashSet::new();
    }
    let n = f.basic_blocks.len();
    // Each natural loop with its size and whether it creates threads.
    let loops: Vec<(Vec<bool>, usize, bool)> = natural_loops(f)
        .into_iter()
        .map(|l| {
            let size = l.iter().filter(|x| **x).count();
            let creating = (0..n).any(|c| creates[c] && l[c]);
            (l, size, creating)
        })
        .collect();
    let mut out = HashSet::new();
    for (b, bb) in f.basic_blocks.iter().enumerate() {
        let innermost = loops
            .iter()
            .filter(|(l, _, _)| l[b])
            .min_by_key(|(_, size, _)| *size);
        let starts_threads = match innermost {
            Some((_, _, creating)) => *creating,
            None => (0..n).any(|c| creates[c] && reach[b][c] && reach[c][b]),
        };
        if !starts_threads {
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

/// For each block of `f`, the phis of `spec` that the code from the block's start on may
/// still tell apart: a register live there is the phi itself or the result of an instruction
/// in a block reachable from the phi's block. Only those blocks are lowered once per value of
/// the phi, each time with registers of their own (a constant computed from the value, a
/// temporary, an object of an allocation site); a register of another block (or a phi that is
/// not specialised: one variable for every value) is the same whatever the value was. A
/// constant a specialised phi had (an unrolled loop's counter) is kept in the lowering's
/// context only while this holds, so that the code after the loop, where no register of its
/// body is read, is lowered once rather than once per count the loop may exit with.
fn live_specialised(f: &Function, spec: &HashSet<Name>, reach: &[Vec<bool>]) -> Vec<HashSet<Name>> {
    use super::lower::{operands, term_operands};
    let n = f.basic_blocks.len();
    if spec.is_empty() {
        return vec![HashSet::new(); n];
    }
    // The registers bound apart for each specialised phi's values (the phi included).
    let mut from: HashMap<Name, HashSet<Name>> = HashMap::new();
    for (b, bb) in f.basic_blocks.iter().enumerate() {
        for i in &bb.instrs {
            let Instruction::Phi(p) = i else { continue };
            if !spec.contains(&p.dest) {
                continue;
            }
            let regs = from.entry(p.dest.clone()).or_default();
            regs.insert(p.dest.clone());
            for (c, cb) in f.basic_blocks.iter().enumerate() {
                if c != b && !reach[b][c] {
                    continue;
                }
                for j in &cb.instrs {
                    if matches!(j, Instruction::Phi(_)) {
                        continue;
                    }
                    if let Some(d) = j.try_get_result() {
                        regs.insert(d.clone());
                    }
                }
            }
        }
    }
    let tracked: HashSet<&Name> = from.values().flatten().collect();
    // Backward liveness of the tracked registers: a phi's incoming value is read at the end
    // of the block it comes from.
    let index = block_index(f);
    let succ = block_successors(f, &index);
    let mut uses: Vec<HashSet<&Name>> = vec![HashSet::new(); n];
    let mut defs: Vec<HashSet<&Name>> = vec![HashSet::new(); n];
    let mut out_uses: Vec<HashSet<&Name>> = vec![HashSet::new(); n];
    for (b, bb) in f.basic_blocks.iter().enumerate() {
        for i in &bb.instrs {
            if let Instruction::Phi(p) = i {
                for (o, from_block) in &p.incoming_values {
                    if let (Operand::LocalOperand { name, .. }, Some(&pb)) =
                        (o, index.get(from_block))
                    {
                        if tracked.contains(name) {
                            out_uses[pb].insert(name);
                        }
                    }
                }
            } else {
                for o in operands(i) {
                    if let Operand::LocalOperand { name, .. } = o {
                        if tracked.contains(name) && !defs[b].contains(name) {
                            uses[b].insert(name);
                        }
                    }
                }
            }
            if let Some(d) = i.try_get_result() {
                defs[b].insert(d);
            }
        }
        for o in term_operands(&bb.term) {
            if let Operand::LocalOperand { name, .. } = o {
                if tracked.contains(name) && !defs[b].contains(name) {
                    uses[b].insert(name);
                }
            }
        }
    }
    let mut live_in: Vec<HashSet<&Name>> = uses;
    loop {
        let mut changed = false;
        for b in (0..n).rev() {
            let mut out: HashSet<&Name> = out_uses[b].clone();
            for &s in &succ[b] {
                out.extend(live_in[s].iter().copied());
            }
            for r in out {
                if !defs[b].contains(r) && live_in[b].insert(r) {
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    live_in
        .iter()
        .map(|live| {
            from.iter()
                .filter(|(_, regs)| regs.iter().any(|r| live.contains(r)))
                .map(|(p, _)| p.clone())
                .collect()
        })
        .collect()
}

/// The natural loops of `f`, one per header (the blocks of all its back edges' loops), each
/// as a membership vector over the blocks.
fn natural_loops(f: &Function) -> Vec<Vec<bool>> {
    let cfg = super::awaits::Cfg::new(f);
    let n = f.basic_blocks.len();
    let mut by_header: HashMap<usize, Vec<bool>> = HashMap::new();
    for t in 0..n {
        for &h in cfg.successors(t) {
            if !cfg.dominates(h, t) {
                continue;
            }
            let body = by_header.entry(h).or_insert_with(|| vec![false; n]);
            body[h] = true;
            let mut stack = vec![t];
            while let Some(b) = stack.pop() {
                if !body[b] {
                    body[b] = true;
                    stack.extend(cfg.predecessors(b).iter().copied());
                }
            }
        }
    }
    by_header.into_values().collect()
}
