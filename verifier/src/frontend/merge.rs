//! Merges a thread's invisible steps into the step that follows them: a transition that only
//! assigns the thread's own scalar variables (registers, phi values of a lowered LLVM module),
//! with no guard, and is the only way out of its location and into the next one, is prepended
//! to every transition out of that next location (its assignments substituted into their
//! guards). The steps of other threads cannot observe an invisible step, so the program has the
//! same executions up to where the invisible steps fall, with fewer interleavings for the
//! verifier and the explorer to consider (Flanagan and Godefroid, "Dynamic partial-order
//! reduction for model checking software": invisible operations; Beyer et al., "Software model
//! checking via large-block encoding").

use crate::ir::*;
use std::collections::HashSet;

/// Sends a step of `t` after which the local assumption that follows cannot hold straight to
/// the discard location (jump threading, as LLVM's pass of that name does for a branch on a
/// phi of constants). `assume(0 <= i && i < n)` compiles to a phi of `false`, from the first
/// comparison's failing arm, and of the second comparison; once that arm no longer leads to
/// the assumption, the step that computes the second comparison is the assumption's only way
/// in and merges into it ([`merge_invisible`]), so the assumption's guard reads the
/// comparisons themselves, which bound the input for the searches that split an input's
/// values into cases. The step only assigns the thread's own scalars from them, so no other
/// thread can tell whether it stopped before the assumption or at it. Returns whether a step
/// was sent (the thread may then have unreachable locations to drop).
pub(super) fn thread_failing_assumptions(t: &mut Thread, shared: &[bool], vars: &[Var]) -> bool {
    let special: HashSet<LocId> = [t.exit, t.error, t.halt, t.discard, t.entry]
        .into_iter()
        .collect();
    let local =
        |v: VarId| !shared[v.0 as usize] && matches!(vars[v.0 as usize].scope, VarScope::Local(_));
    let mut sent = false;
    for l in 0..t.locations.len() {
        for x in t.locations[l].out.clone() {
            let step = &t.transitions[x.0 as usize];
            let l2 = step.dst;
            if !matches!(step.kind, TransKind::Stmt | TransKind::Branch)
                || step.refusal.is_some()
                || special.contains(&l2)
                || l2.0 as usize == l
            {
                continue;
            }
            let [b] = t.locations[l2.0 as usize].out[..] else {
                continue;
            };
            let assume = &t.transitions[b.0 as usize];
            if assume.kind != TransKind::Assume
                || !assume.ops.is_empty()
                || !reads_only(&assume.guard, &local)
            {
                continue;
            }
            let mut assigns = Vec::new();
            for op in &step.ops {
                match op {
                    Op::Assign {
                        place: Place::Var { var, index: None },
                        value,
                    } if local(*var) && reads_only(value, &local) => assigns.push((*var, value)),
                    _ => break,
                }
            }
            if assigns.len() != step.ops.len() {
                continue;
            }
            let Some(g) = substituted(&assume.guard, &assigns, vars) else {
                continue;
            };

            if constant(&g) == Some(0) {
                t.transitions[x.0 as usize].dst = t.discard;
                sent = true;
            }
        }
    }
    sent
}

/// Merges the invisible steps of `t`; `shared[v]` says whether variable `v` is shared, and
/// `shared_code` holds the code that accesses shared memory in some copy (a step of it is not
/// invisible: `synth build` instruments it as an event in every copy). Adds
/// to `local_accesses` the code ([`Transition::at`]) of every merged step that accessed the
/// thread's memory (what [`Program::local_reads`] records). Returns whether anything merged
/// (the thread then has unreachable locations to drop).
pub(super) fn merge_invisible(
    t: &mut Thread,
    shared: &[bool],
    shared_code: &HashSet<[u32; 2]>,
    vars: &[Var],
    local_accesses: &mut Vec<[u32; 2]>,
) -> bool {
    let special: HashSet<LocId> = [t.exit, t.error, t.halt, t.discard, t.entry]
        .into_iter()
        .collect();
    let mut incoming = vec![0usize; t.locations.len()];
    for l in &t.locations {
        for x in &l.out {
            incoming[t.transitions[x.0 as usize].dst.0 as usize] += 1;
        }
    }
    let mut merged = false;
    for l1 in 0..t.locations.len() {
        while let [a] = t.locations[l1].out[..] {
            let step = t.transitions[a.0 as usize].clone();
            let l2 = step.dst;
            if l2.0 as usize == l1 || special.contains(&l2) || incoming[l2.0 as usize] != 1 {
                break;
            }
            if step.at.is_some_and(|a| shared_code.contains(&a)) {
                break;
            }
            let Some(assigns) = invisible(&step, shared, vars) else {
                break;
            };
            let outs = t.locations[l2.0 as usize].out.clone();
            if outs.is_empty() {
                break;
            }
            let guards: Option<Vec<Expr>> = outs
                .iter()
                .map(|x| substituted(&t.transitions[x.0 as usize].guard, &assigns, vars))
                .collect();
            let Some(guards) = guards else {
                break;
            };
            for (x, g) in outs.iter().zip(guards) {
                let b = &mut t.transitions[x.0 as usize];
                b.src = LocId(l1 as u32);
                b.guard = g;
                let mut ops = step.ops.clone();
                ops.append(&mut b.ops);
                b.ops = ops;
            }
            if let (true, Some(code)) = (step.memory_access, step.at) {
                local_accesses.push(code);
            }
            t.locations[l1].out = outs;
            t.locations[l2.0 as usize].out.clear();
            incoming[l2.0 as usize] = 0;
            merged = true;
        }
    }
    merged
}

/// The assignments of an invisible step, in order: it has no guard, is a plain statement, and only
/// assigns scalar variables of the thread from expressions over such variables (no memory
/// through pointers, nothing shared). `None` when it is not invisible.
fn invisible<'x>(
    x: &'x Transition,
    shared: &[bool],
    vars: &[Var],
) -> Option<Vec<(VarId, &'x Expr)>> {
    // A refused thread creation stays a step of its own: the verdict tells whether an error
    // passes one ([`crate::ir::Refusal`]).
    if x.kind != TransKind::Stmt || !x.guard.is_true() || x.refusal.is_some() {
        return None;
    }
    let local =
        |v: VarId| !shared[v.0 as usize] && matches!(vars[v.0 as usize].scope, VarScope::Local(_));
    let mut assigns = Vec::new();
    for op in &x.ops {
        let Op::Assign {
            place: Place::Var { var, index: None },
            value,
        } = op
        else {
            return None;
        };
        // A value that may be undefined (a division by zero, a signed overflow) stays a step
        // of its own: merged, it would go unevaluated while the next step cannot run.
        if !local(*var) || !reads_only(value, &local) || may_fault(value) {
            return None;
        }
        assigns.push((*var, value));
    }
    Some(assigns)
}

/// The value of `e` where it reads nothing and is defined.
fn constant(e: &Expr) -> Option<i128> {
    use crate::semantics::{binop, unop};
    match e {
        Expr::Const { value, ty } => Some(ty.wrap(*value)),
        Expr::Cast { arg, ty } => Some(ty.wrap(constant(arg)?)),
        Expr::Unary { op, arg, ty } => unop(*op, *ty, constant(arg)?).ok(),
        Expr::Binary { op, lhs, rhs, ty } => binop(*op, *ty, constant(lhs)?, constant(rhs)?).ok(),
        Expr::Ite {
            cond, then, els, ..
        } => match constant(cond)? {
            0 => constant(els),
            _ => constant(then),
        },
        _ => None,
    }
}

/// Whether evaluating `e` may be undefined (an operator [`crate::semantics`] says may be:
/// division and remainder, shifts, signed arithmetic that may overflow).
fn may_fault(e: &Expr) -> bool {
    use crate::semantics::{binop_may_be_undefined, unop_may_be_undefined};
    match e {
        Expr::Const { .. } | Expr::Load { .. } | Expr::AddrOf { .. } => false,
        Expr::Unary { op, arg, ty } => unop_may_be_undefined(*op, *ty) || may_fault(arg),
        Expr::Binary { op, lhs, rhs, ty } => {
            binop_may_be_undefined(*op, *ty) || may_fault(lhs) || may_fault(rhs)
        }
        Expr::Cast { arg, .. } => may_fault(arg),
        Expr::Ite {
            cond, then, els, ..
        } => may_fault(cond) || may_fault(then) || may_fault(els),
    }
}

/// Most nodes of a guard with assignments substituted into it.
const MAX_GUARD_NODES: usize = 256;

/// The number of nodes of `e`.
fn size(e: &Expr) -> usize {
    1 + match e {
        Expr::Const { .. } | Expr::Load { .. } => 0,
        Expr::AddrOf { index, .. } => size(index),
        Expr::Unary { arg, .. } | Expr::Cast { arg, .. } => size(arg),
        Expr::Binary { lhs, rhs, .. } => size(lhs) + size(rhs),
        Expr::Ite {
            cond, then, els, ..
        } => size(cond) + size(then) + size(els),
    }
}

/// Whether `e` reads only scalar variables for which `ok` holds (no memory through pointers,
/// no array elements, no addresses taken).
fn reads_only(e: &Expr, ok: &dyn Fn(VarId) -> bool) -> bool {
    let mut fine = true;
    e.for_each_place(&mut |p| {
        fine &= matches!(p, Place::Var { var, index: None } if ok(*var));
    });
    e.for_each_addr(&mut |_| fine = false);
    fine
}

/// `guard` with the assignments `assigns` (to scalar variables, in order) substituted, last
/// first, so that it reads the state before them; `None` where that is not plain (a load of
/// an assigned variable at another type, a read through a pointer).
fn substituted(guard: &Expr, assigns: &[(VarId, &Expr)], vars: &[Var]) -> Option<Expr> {
    let mut through_memory = false;
    guard.for_each_place(&mut |p| through_memory |= matches!(p, Place::Deref { .. }));
    if through_memory {
        return None;
    }
    let mut g = guard.clone();
    for &(var, value) in assigns.iter().rev() {
        g = replace(&g, var, vars[var.0 as usize].elem.ty(), value)?;
        if size(&g) > MAX_GUARD_NODES {
            return None;
        }
    }
    Some(g)
}

/// `e` with every load of the scalar `var` (of type `ty`) replaced by `value` converted to
/// `ty`; `None` where `var` is loaded at another type.
fn replace(e: &Expr, var: VarId, ty: Ty, value: &Expr) -> Option<Expr> {
    let r = |x: &Expr| replace(x, var, ty, value).map(Box::new);
    Some(match e {
        Expr::Load {
            place: Place::Var {
                var: v,
                index: None,
            },
            ty: t,
        } if *v == var => {
            if *t != ty {
                return None;
            }
            Expr::Cast {
                arg: Box::new(value.clone()),
                ty,
            }
        }
        // The assigned scalar read as an element: not plain.
        Expr::Load {
            place:
                Place::Var {
                    var: v,
                    index: Some(_),
                },
            ..
        } if *v == var => return None,
        Expr::Load {
            place:
                Place::Var {
                    var: v,
                    index: Some(i),
                },
            ty: t,
        } => Expr::Load {
            place: Place::Var {
                var: *v,
                index: Some(r(i)?),
            },
            ty: *t,
        },
        Expr::AddrOf { var: v, index } => Expr::AddrOf {
            var: *v,
            index: r(index)?,
        },
        // Another scalar.
        Expr::Load {
            place: Place::Var { index: None, .. },
            ..
        } => e.clone(),
        // Through memory: excluded by the caller.
        Expr::Load { .. } => return None,
        Expr::Const { .. } => e.clone(),
        Expr::Unary { op, arg, ty } => Expr::Unary {
            op: *op,
            arg: r(arg)?,
            ty: *ty,
        },
        Expr::Binary { op, lhs, rhs, ty } => Expr::Binary {
            op: *op,
            lhs: r(lhs)?,
            rhs: r(rhs)?,
            ty: *ty,
        },
        Expr::Cast { arg, ty } => Expr::Cast {
            arg: r(arg)?,
            ty: *ty,
        },
        Expr::Ite {
            cond,
            then,
            els,
            ty,
        } => Expr::Ite {
            cond: r(cond)?,
            then: r(then)?,
            els: r(els)?,
            ty: *ty,
        },
    })
}
