//! An `assume` over shared state waits until its condition holds (`DESIGN.md`, "Program
//! model"; the paper declares synchronisation this way). clang evaluates the condition before
//! the call, by loads into registers and, for `&&` and `||`, by branches and phis; the
//! assumption would then test values read earlier, one at a time. This module rebuilds the
//! condition as one expression over memory, evaluated atomically in the assumption's guard:
//! loads become reads of their places, a phi of a branching region becomes the choice of its
//! incoming values by the conditions of the paths that reach it (from the block's immediate
//! dominator). Nidhugg's `AssumeAwaitPass` turns `load; cmp; assume` into an await in the same
//! spirit.

use super::lower::{and, bin, ite, not, truth, Lowerer, R};
use crate::ir::*;
use llvm_ir::instruction::Instruction;
use llvm_ir::terminator::Terminator;
use llvm_ir::{Function, Name, Operand};
use std::collections::HashMap;

/// Most instructions a rebuilt condition may span.
const MAX_DEPTH: u32 = 64;

/// Control-flow facts of a function: predecessors and immediate dominators of its blocks.
pub(super) struct Cfg<'m> {
    index: HashMap<&'m Name, usize>,
    preds: Vec<Vec<usize>>,
    succs: Vec<Vec<usize>>,
    idom: Vec<usize>,
    /// Reverse postorder number of each block (`usize::MAX`: unreachable).
    order: Vec<usize>,
}

impl<'m> Cfg<'m> {
    /// The blocks block `b` may go to next.
    pub fn successors(&self, b: usize) -> &[usize] {
        &self.succs[b]
    }

    /// The blocks that may go to block `b`.
    pub fn predecessors(&self, b: usize) -> &[usize] {
        &self.preds[b]
    }

    /// Whether block `a` dominates block `b`.
    pub fn dominates(&self, a: usize, mut b: usize) -> bool {
        loop {
            if a == b {
                return true;
            }
            let d = self.idom[b];
            if d == usize::MAX || d == b {
                return false;
            }
            b = d;
        }
    }

    pub fn new(f: &'m Function) -> Self {
        let n = f.basic_blocks.len();
        let index = block_index(f);
        let succs = block_successors(f, &index);
        let mut preds = vec![Vec::new(); n];
        for (b, ss) in succs.iter().enumerate() {
            for s in ss {
                preds[*s].push(b);
            }
        }
        // Reverse postorder from the entry.
        let mut post = Vec::new();
        let mut seen = vec![false; n];
        let mut stack = vec![(0usize, 0usize)];
        if n > 0 {
            seen[0] = true;
        }
        while let Some((b, k)) = stack.pop() {
            if k < succs[b].len() {
                stack.push((b, k + 1));
                let s = succs[b][k];
                if !seen[s] {
                    seen[s] = true;
                    stack.push((s, 0));
                }
            } else {
                post.push(b);
            }
        }
        let mut order = vec![usize::MAX; n];
        for (k, b) in post.iter().rev().enumerate() {
            order[*b] = k;
        }
        // Cooper, Harvey and Kennedy, "A Simple, Fast Dominance Algorithm".
        let mut idom = vec![usize::MAX; n];
        if n > 0 {
            idom[0] = 0;
        }
        let rpo: Vec<usize> = post.iter().rev().copied().collect();
        let mut changed = true;
        while changed {
            changed = false;
            for &b in rpo.iter().skip(1) {
                let mut new = usize::MAX;
                for &p in &preds[b] {
                    if idom[p] == usize::MAX {
                        continue;
                    }
                    new = if new == usize::MAX {
                        p
                    } else {
                        intersect(&idom, &order, p, new)
                    };
                }
                if new != usize::MAX && idom[b] != new {
                    idom[b] = new;
                    changed = true;
                }
            }
        }
        Cfg {
            index,
            preds,
            succs,
            idom,
            order,
        }
    }
}

fn intersect(idom: &[usize], order: &[usize], mut a: usize, mut b: usize) -> usize {
    while a != b {
        while order[a] > order[b] {
            a = idom[a];
        }
        while order[b] > order[a] {
            b = idom[b];
        }
    }
    a
}

/// The position of each block of `f` by its name.
pub(super) fn block_index(f: &Function) -> HashMap<&Name, usize> {
    f.basic_blocks
        .iter()
        .enumerate()
        .map(|(k, b)| (&b.name, k))
        .collect()
}

/// The successors of each block of `f`, by position.
pub(super) fn block_successors(f: &Function, index: &HashMap<&Name, usize>) -> Vec<Vec<usize>> {
    f.basic_blocks
        .iter()
        .map(|b| {
            successors(&b.term)
                .iter()
                .filter_map(|s| index.get(s).copied())
                .collect()
        })
        .collect()
}

/// The blocks a terminator may go to.
pub(super) fn successors(t: &Terminator) -> Vec<&Name> {
    match t {
        Terminator::Br(b) => vec![&b.dest],
        Terminator::CondBr(b) => vec![&b.true_dest, &b.false_dest],
        Terminator::Switch(s) => {
            let mut v: Vec<&Name> = s.dests.iter().map(|(_, d)| d).collect();
            v.push(&s.default_dest);
            v
        }
        _ => vec![],
    }
}

impl<'m> Lowerer<'m> {
    /// The condition `o` as one expression over memory, or `None` when it cannot be rebuilt
    /// (then the assumption tests the register, as computed).
    pub(super) fn await_condition(
        &mut self,
        o: &'m Operand,
        call: &'m llvm_ir::instruction::Call,
    ) -> R<Option<Expr>> {
        let f = self.frames.last().expect("frame").func;
        // The function's control flow, computed once per function.
        let flow = self
            .flows
            .entry(f.name.as_str())
            .or_insert_with(|| std::rc::Rc::new(Flow::new(f)))
            .clone();
        let Some(at) = position(
            f,
            |i| matches!(i, Instruction::Call(c) if std::ptr::eq(c, call)),
        ) else {
            return Ok(None);
        };
        let mut cx = Rebuild {
            f,
            flow,
            reads: false,
            call: at,
        };
        let e = match self.rebuild(&mut cx, o, 0) {
            Ok(Some(e)) => e,
            Ok(None) => return Ok(None),
            Err(e) => return Err(e),
        };
        Ok(cx.reads.then_some(e))
    }

    fn rebuild(&mut self, cx: &mut Rebuild<'m>, o: &'m Operand, depth: u32) -> R<Option<Expr>> {
        if depth > MAX_DEPTH {
            return Ok(None);
        }
        let Operand::LocalOperand { name, .. } = o else {
            return Ok(Some(self.expr(o)?));
        };
        let Some(&(block, i)) = cx.flow.defs.get(name) else {
            // A parameter: fixed during the call.
            return Ok(Some(self.expr(o)?));
        };
        match i {
            Instruction::Load(l) => {
                // A read of the place at the call tests what the load read only where nothing
                // may write memory in between (`x++ < 5`, `c = x; x = 0; assume(c)`).
                let load = position(cx.f, |j| std::ptr::eq(j, i)).expect("defined here");
                if may_write_between(cx.f, &cx.flow.cfg, load, cx.call) {
                    return Ok(None);
                }
                let ptr = self.val(&l.address)?;
                let Ok((w, ty)) = self.access_ty(&l.loaded_ty) else {
                    return Ok(None);
                };
                let place = self.place(&ptr, w, ty)?;
                cx.reads = true;
                Ok(Some(Expr::Load { place, ty }))
            }
            Instruction::Phi(p) => {
                let b = block;
                let d = cx.flow.cfg.idom[b];
                if d == usize::MAX || d == b {
                    return Ok(None);
                }
                let mut out: Option<Expr> = None;
                let t = self.reg_ty(&p.to_type)?;
                // The last incoming value needs no test.
                for (k, (v, from)) in p.incoming_values.iter().enumerate().rev() {
                    let Some(&pb) = cx.flow.cfg.index.get(from) else {
                        return Ok(None);
                    };
                    let Some(val) = self.rebuild(cx, v, depth + 1)? else {
                        return Ok(None);
                    };
                    let val = super::lower::cast(val, t);
                    out = Some(match out {
                        None if k + 1 == p.incoming_values.len() => val,
                        None => val,
                        Some(rest) => {
                            let Some(c) = self.edge_reach(cx, d, pb, b, depth + 1)? else {
                                return Ok(None);
                            };
                            ite(c, val, rest, t)
                        }
                    });
                }
                Ok(out)
            }
            Instruction::Call(_)
            | Instruction::Store(_)
            | Instruction::CmpXchg(_)
            | Instruction::AtomicRMW(_)
            | Instruction::Alloca(_) => {
                // Its register, which holds a value here only where its block dominates this
                // one (a call on one side of `a && f(x)` does not).
                let here = self.frames.last().expect("frame").cur_block;
                if !cx.flow.cfg.dominates(block, here) {
                    return Ok(None);
                }
                Ok(Some(self.expr(o)?))
            }
            _ => {
                let mut ops = Vec::new();
                for a in super::lower::operands(i) {
                    match self.rebuild(cx, a, depth + 1)? {
                        Some(e) => ops.push((a, e)),
                        None => return Ok(None),
                    }
                }
                self.pure_with(i, &ops)
            }
        }
    }

    /// The condition under which control goes from `from` to `to` having entered the region
    /// at its dominator `d`.
    fn edge_reach(
        &mut self,
        cx: &mut Rebuild<'m>,
        d: usize,
        from: usize,
        to: usize,
        depth: u32,
    ) -> R<Option<Expr>> {
        let Some(rc) = self.block_reach(cx, d, from, depth, &mut Vec::new())? else {
            return Ok(None);
        };
        let Some(ec) = self.edge_cond(cx, from, to, depth)? else {
            return Ok(None);
        };
        Ok(Some(and(rc, ec)))
    }

    fn block_reach(
        &mut self,
        cx: &mut Rebuild<'m>,
        d: usize,
        b: usize,
        depth: u32,
        path: &mut Vec<usize>,
    ) -> R<Option<Expr>> {
        if b == d {
            return Ok(Some(Expr::tt()));
        }
        if path.contains(&b) || depth > MAX_DEPTH || cx.flow.cfg.order[b] <= cx.flow.cfg.order[d] {
            // A cycle, or a block not below the dominator.
            return Ok(None);
        }
        path.push(b);
        let mut any: Option<Expr> = None;
        for p in cx.flow.cfg.preds[b].clone() {
            let Some(rc) = self.block_reach(cx, d, p, depth + 1, path)? else {
                path.pop();
                return Ok(None);
            };
            let Some(ec) = self.edge_cond(cx, p, b, depth + 1)? else {
                path.pop();
                return Ok(None);
            };
            let c = and(rc, ec);
            any = Some(match any {
                None => c,
                Some(a) => bin(BinOp::Or, a, c, Ty::INT),
            });
        }
        path.pop();
        Ok(any)
    }

    fn edge_cond(
        &mut self,
        cx: &mut Rebuild<'m>,
        from: usize,
        to: usize,
        depth: u32,
    ) -> R<Option<Expr>> {
        let term = &cx.f.basic_blocks[from].term;
        let to_name = &cx.f.basic_blocks[to].name;
        match term {
            Terminator::Br(_) => Ok(Some(Expr::tt())),
            Terminator::CondBr(b) => {
                if b.true_dest == b.false_dest {
                    return Ok(Some(Expr::tt()));
                }
                let Some(c) = self.rebuild(cx, &b.condition, depth + 1)? else {
                    return Ok(None);
                };
                let c = truth(c);
                Ok(Some(if b.true_dest == *to_name { c } else { not(c) }))
            }
            _ => Ok(None),
        }
    }
}

/// What rebuilding needs of a function: its control flow and where each register is
/// defined.
pub(super) struct Flow<'m> {
    cfg: Cfg<'m>,
    defs: HashMap<&'m Name, (usize, &'m Instruction)>,
}

impl<'m> Flow<'m> {
    fn new(f: &'m Function) -> Self {
        let mut defs = HashMap::new();
        for (b, bb) in f.basic_blocks.iter().enumerate() {
            for i in &bb.instrs {
                if let Some(d) = i.try_get_result() {
                    defs.insert(d, (b, i));
                }
            }
        }
        Flow {
            cfg: Cfg::new(f),
            defs,
        }
    }
}

/// The state of one rebuilding.
pub(super) struct Rebuild<'m> {
    f: &'m Function,
    flow: std::rc::Rc<Flow<'m>>,
    /// Whether the expression reads memory.
    reads: bool,
    /// The block and index of the assumption's call.
    call: (usize, usize),
}

/// The block and index of the first instruction of `f` that `is` picks.
fn position(f: &Function, is: impl Fn(&Instruction) -> bool) -> Option<(usize, usize)> {
    (f.basic_blocks.iter().enumerate())
        .find_map(|(b, bb)| bb.instrs.iter().position(&is).map(|k| (b, k)))
}

/// Whether an instruction may write memory: a store, an atomic update, a call other than
/// the intrinsics that only describe the code.
fn writes_memory(i: &Instruction) -> bool {
    match i {
        Instruction::Store(_)
        | Instruction::AtomicRMW(_)
        | Instruction::CmpXchg(_)
        | Instruction::Fence(_) => true,
        Instruction::Call(_) => !super::loops::callee(i).is_some_and(|c| {
            c.starts_with("llvm.dbg.")
                || c.starts_with("llvm.lifetime.")
                || c.starts_with("llvm.expect")
                || c == "llvm.assume"
        }),
        _ => false,
    }
}

/// Whether some path from the instruction at `from` to the one at `to` (block, index) may
/// write memory. Such a path runs from `from` to the end of its block (unless `to` comes
/// later in the same block: then only the instructions between), through blocks that neither
/// load again nor reach the call first (the path ends at the first call, and a load on it
/// would read anew), to the start of `to`'s block.
fn may_write_between(f: &Function, cfg: &Cfg, from: (usize, usize), to: (usize, usize)) -> bool {
    let instrs = |b: usize| &f.basic_blocks[b].instrs;
    let any = |b: usize, r: std::ops::Range<usize>| instrs(b)[r].iter().any(writes_memory);
    if from.0 == to.0 && from.1 < to.1 {
        return any(from.0, from.1 + 1..to.1);
    }
    let n = f.basic_blocks.len();
    // The blocks a path reaches from `from`'s block without passing `to`'s, and those that
    // reach `to`'s without passing `from`'s.
    let reach = |start: usize, stop: usize, forward: bool| {
        let next = |b: usize| match forward {
            true => cfg.successors(b),
            false => cfg.predecessors(b),
        };
        let mut seen = vec![false; n];
        let mut work: Vec<usize> = next(start).to_vec();
        while let Some(b) = work.pop() {
            if !std::mem::replace(&mut seen[b], true) && b != stop && b != start {
                work.extend(next(b));
            }
        }
        seen
    };
    let fwd = reach(from.0, to.0, true);
    let bwd = reach(to.0, from.0, false);
    let end = instrs(from.0).len();
    (0..n).any(|b| b != from.0 && b != to.0 && fwd[b] && bwd[b] && any(b, 0..instrs(b).len()))
        || any(from.0, from.1 + 1..end)
        || any(to.0, 0..to.1)
}
