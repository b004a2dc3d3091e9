//! Dead registers: a thread's own scalar variables that no path from its location reads
//! before writing them. The explicit search ([`crate::explicit`]) forgets their values (sets
//! them to zero) so that states that differ only in dead values are one state, and its labels
//! do not mention them; the explorer ([`crate::explore`]) so that values of inputs that only
//! reach dead registers (an uninitialised local overwritten before it is read) make one
//! variant of a step. Classic backward live-variable analysis over each thread's
//! control-flow graph.

use crate::ir::{Expr, Op, Place, Program, ThreadId, VarId, VarScope};

/// Per thread and location, the registers dead there.
pub struct Liveness {
    /// `dead[t][l]`: the registers of thread `t` dead at location `l`.
    dead: Vec<Vec<Vec<VarId>>>,
}

impl Liveness {
    /// The analysis of a program.
    pub fn new(prog: &Program) -> Liveness {
        let register = registers(prog);
        let dead = prog
            .threads
            .iter()
            .map(|t| dead_per_location(prog, t.id, &register))
            .collect();
        Liveness { dead }
    }

    /// The registers of thread `t` dead at location `l`.
    pub fn dead(&self, t: ThreadId, l: crate::ir::LocId) -> &[VarId] {
        &self.dead[t.0 as usize][l.0 as usize]
    }
}

/// The variables that are registers: scalars of one thread only ever accessed by name (their
/// address is never taken, no pointer may point to them).
pub(crate) fn registers(prog: &Program) -> Vec<bool> {
    let mut reg: Vec<bool> = prog
        .vars
        .iter()
        .map(|v| {
            matches!(v.scope, VarScope::Local(_))
                && !v.shared
                && v.len == 1
                && !v.is_array
                && v.placement.is_none()
        })
        .collect();
    for o in &prog.objects {
        reg[o.var.0 as usize] = false;
    }
    let mut exclude = |v: VarId| reg[v.0 as usize] = false;
    for t in &prog.threads {
        for tr in &t.transitions {
            tr.for_each_expr(&mut |e| {
                e.for_each_addr(&mut exclude);
                e.for_each_place(&mut |p| {
                    if let Place::Deref { targets, .. } = p {
                        targets.iter().for_each(|v| exclude(*v));
                    }
                })
            });
            for op in &tr.ops {
                if let Op::Assign { place, .. } | Op::Havoc { place, .. } = op {
                    match place {
                        Place::Deref { targets, .. } => targets.iter().for_each(|v| exclude(*v)),
                        Place::Var {
                            var,
                            index: Some(_),
                        } => exclude(*var),
                        Place::Var { .. } => {}
                    }
                }
            }
        }
    }
    reg
}

/// The registers of one thread read by a transition before it writes them (`gen`) and those
/// it writes (`kill`).
fn gen_kill(tr: &crate::ir::Transition, mine: &dyn Fn(VarId) -> bool) -> (Vec<VarId>, Vec<VarId>) {
    let mut gen = Vec::new();
    let mut kill: Vec<VarId> = Vec::new();
    let read = |e: &Expr, kill: &Vec<VarId>, gen: &mut Vec<VarId>| {
        e.for_each_place(&mut |p| {
            if let Place::Var { var, .. } = p {
                if mine(*var) && !kill.contains(var) && !gen.contains(var) {
                    gen.push(*var);
                }
            }
        })
    };
    read(&tr.guard, &kill, &mut gen);
    for op in &tr.ops {
        match op {
            Op::Assign { place, value } => {
                read(value, &kill, &mut gen);
                place.for_each_subexpr(&mut |e| read(e, &kill, &mut gen));
                if let Place::Var { var, index: None } = place {
                    if mine(*var) && !kill.contains(var) {
                        kill.push(*var);
                    }
                }
            }
            Op::Havoc { place, .. } => {
                place.for_each_subexpr(&mut |e| read(e, &kill, &mut gen));
                if let Place::Var { var, index: None } = place {
                    if mine(*var) && !kill.contains(var) {
                        kill.push(*var);
                    }
                }
            }
            Op::Spawn { args, .. } => {
                for (_, e) in args {
                    read(e, &kill, &mut gen);
                }
            }
            Op::AtomicBegin | Op::AtomicEnd => {}
        }
    }
    (gen, kill)
}

/// Backward fixpoint of the live registers of thread `t`; the complement per location.
fn dead_per_location(prog: &Program, t: ThreadId, register: &[bool]) -> Vec<Vec<VarId>> {
    let thread = prog.thread(t);
    let mine_ids: Vec<VarId> = prog
        .vars
        .iter()
        .filter(|v| register[v.id.0 as usize] && v.scope == VarScope::Local(t))
        .map(|v| v.id)
        .collect();
    let slot: std::collections::HashMap<VarId, usize> =
        mine_ids.iter().enumerate().map(|(i, v)| (*v, i)).collect();
    let mine = |v: VarId| slot.contains_key(&v);
    let n = mine_ids.len();
    let words = n.div_ceil(64);
    let bits = |vs: &[VarId]| {
        let mut b = vec![0u64; words];
        for v in vs {
            let i = slot[v];
            b[i / 64] |= 1 << (i % 64);
        }
        b
    };
    let facts: Vec<(Vec<u64>, Vec<u64>)> = thread
        .transitions
        .iter()
        .map(|tr| {
            let (g, k) = gen_kill(tr, &mine);
            (bits(&g), bits(&k))
        })
        .collect();
    let nl = thread.locations.len();
    let mut live = vec![vec![0u64; words]; nl];
    let mut changed = true;
    while changed {
        changed = false;
        for l in (0..nl).rev() {
            let mut acc = vec![0u64; words];
            for tid in &thread.locations[l].out {
                let tr = thread.transition(*tid);
                let (g, k) = &facts[tid.0 as usize];
                let out = &live[tr.dst.0 as usize];
                for w in 0..words {
                    acc[w] |= g[w] | (out[w] & !k[w]);
                }
            }
            if acc != live[l] {
                live[l] = acc;
                changed = true;
            }
        }
    }
    live.iter()
        .map(|b| {
            mine_ids
                .iter()
                .enumerate()
                .filter(|(i, _)| b[i / 64] & (1 << (i % 64)) == 0)
                .map(|(_, v)| *v)
                .collect()
        })
        .collect()
}
