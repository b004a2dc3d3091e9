//! Completes a lowered program: expands condition-variable signals, removes skip transitions
//! and unreachable locations, resolves what pointers may point to, finds the shared variables
//! (touched by two threads, directly or through a pointer), and fills in memory events,
//! may-block marks, back edges and the discard branches of local assumptions.

use super::{Error, Options};
use crate::ir::*;
use fixedbitset::FixedBitSet;
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::{BTreeSet, HashMap, HashSet};

/// `file:line:col` of a span (of the program's start for `None`), for messages.
pub(super) type Position<'a> = &'a dyn Fn(Option<&Span>) -> String;

/// `merge`: merge invisible steps into the steps after them ([`super::merge`]).
pub(super) fn finalize(
    p: &mut Program,
    map: Position,
    opts: &Options,
    merge: bool,
) -> Result<(), Error> {
    let _ = opts;
    expand_signals(p, map)?;
    renumber(p);
    check_single_sites(p, map)?;
    points_to(p);
    shared(p);
    let shared: Vec<bool> = p.vars.iter().map(|v| v.shared).collect();
    let code = shared_code(p, &shared);
    if merge {
        let mut any = false;
        let mut local = std::mem::take(&mut p.local_reads);
        for t in &mut p.threads {
            any |= super::merge::thread_failing_assumptions(t, &shared, &p.vars);
            any |= super::merge::merge_invisible(t, &shared, &code, &p.vars, &mut local);
        }
        local.sort_unstable();
        local.dedup();
        p.local_reads = local;
        if any {
            renumber(p);
        }
    }
    let writers = writers(p);
    // The variables only thread `t` writes, or none: an assumption over them that fails stays
    // false while the thread waits, so it discards the execution as a local one does, though
    // other threads may read them.
    let own = |t: ThreadId| -> Vec<bool> {
        (writers.iter())
            .map(|w| matches!(w, Writers::None) || *w == Writers::One(t))
            .collect()
    };
    // The code of the assumptions that read what another thread writes in some copy: an event
    // in every copy (`synth build` instruments the code once for all).
    let mut waiting = HashSet::new();
    for t in &p.threads {
        let own = own(t.id);
        for tr in t
            .transitions
            .iter()
            .filter(|tr| tr.kind == TransKind::Assume)
        {
            if reads_any(tr, |v| shared[v.0 as usize] && !own[v.0 as usize]) {
                waiting.extend(tr.at);
            }
        }
    }
    // The variables of each object (once: a program inlined into many threads has about as
    // many variables as transitions).
    let mut members: FxHashMap<VarId, Vec<VarId>> = FxHashMap::default();
    for v in &p.vars {
        members.entry(v.placement().object).or_default().push(v.id);
    }
    let facts = Facts {
        shared: &shared,
        code: &code,
        vars: &p.vars,
        members: &members,
        waiting: &waiting,
    };
    for t in &mut p.threads {
        let own = own(t.id);
        mark(t, &facts, &own);
        add_discards(t, &own);
        back_edges(t);
    }
    Ok(())
}

/// Whether transition `tr` reads (in its guard or its ops) a variable that `picks`.
fn reads_any(tr: &Transition, picks: impl Fn(VarId) -> bool) -> bool {
    let (reads, _) = tr.accesses();
    (reads.iter()).any(|pl| pl.vars().into_iter().any(&picks))
}

/// Which threads write a variable.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Writers {
    None,
    One(ThreadId),
    Many,
}

/// Per variable, the threads that may write it: by assignment, through a pointer that may
/// reach it, or as a parameter of a thread it creates. A write to one variable of an object
/// counts for all of the object's (an access of another width reaches its neighbours).
fn writers(p: &Program) -> Vec<Writers> {
    let object = |v: VarId| p.vars[v.0 as usize].placement().object;
    let mut by_object: HashMap<VarId, Writers> = HashMap::new();
    for t in &p.threads {
        let mut note = |v: VarId| {
            let w = by_object.entry(object(v)).or_insert(Writers::One(t.id));
            if *w != Writers::One(t.id) {
                *w = Writers::Many;
            }
        };
        for tr in &t.transitions {
            for op in &tr.ops {
                match op {
                    Op::Assign { place, .. } | Op::Havoc { place, .. } => {
                        place.vars().into_iter().for_each(&mut note)
                    }
                    Op::Spawn { args, .. } => args.iter().for_each(|(v, _)| note(*v)),
                    Op::AtomicBegin | Op::AtomicEnd => {}
                }
            }
        }
    }
    (p.vars.iter())
        .map(|v| {
            by_object
                .get(&object(v.id))
                .copied()
                .unwrap_or(Writers::None)
        })
        .collect()
}

/// Compresses every thread ([`compress`]) and renumbers the transitions that create threads.
fn renumber(p: &mut Program) {
    let renumbered: Vec<Vec<Option<TransId>>> = p.threads.iter_mut().map(compress).collect();
    for t in &mut p.threads {
        if let Some((c, tr)) = t.created_by {
            let new = renumbered[c.0 as usize]
                .get(tr.0 as usize)
                .copied()
                .flatten();
            t.created_by = new.map(|n| (c, n));
        }
    }
}

/// Threads with an id below this may wait on condition variables (one waiting flag each).
pub(super) const MAX_COND_THREADS: u32 = 64;

/// `pthread_cond_signal` wakes one waiter, chosen by the scheduler: one transition per thread
/// that ever waits, plus one for "nobody waits". `pthread_cond_broadcast` clears every flag.
fn expand_signals(p: &mut Program, map: Position) -> Result<(), Error> {
    let waiters: Vec<u32> = p
        .threads
        .iter()
        .filter(|t| {
            t.transitions
                .iter()
                .any(|tr| tr.kind == TransKind::Sync(SyncKind::CondWaitRelease))
        })
        .map(|t| t.id.0)
        .collect();
    if let Some(w) = waiters.iter().find(|w| **w >= MAX_COND_THREADS) {
        return Err(Error::Unsupported {
            position: map(None),
            construct: format!("condition variable waited on by thread {w}"),
        });
    }
    let cond_cells: Vec<bool> = p.vars.iter().map(|v| v.elem == ElemKind::Cond).collect();
    for t in &mut p.threads {
        let n = t.transitions.len();
        for i in 0..n {
            let kind = t.transitions[i].kind.clone();
            if kind != TransKind::Sync(SyncKind::CondSignal)
                && kind != TransKind::Sync(SyncKind::CondBroadcast)
            {
                continue;
            }
            let Some(Op::Assign {
                place:
                    Place::Var {
                        var,
                        index: Some(base),
                    },
                ..
            }) = t.transitions[i].ops.first().cloned()
            else {
                continue;
            };
            if cond_cells[var.0 as usize] {
                // A condition variable whose cell holds its waiters (the LLVM front end's,
                // expanded there).
                continue;
            }
            let flag = |k: u32| Place::Var {
                var,
                index: Some(Box::new(Expr::Binary {
                    op: BinOp::Add,
                    lhs: base.clone(),
                    rhs: Box::new(Expr::constant(k as i128, Ty::LONG)),
                    ty: Ty::LONG,
                })),
            };
            let load = |k: u32| Expr::Load {
                place: flag(k),
                ty: Ty::INT,
            };
            let cmp = |op, k: u32| Expr::Binary {
                op,
                lhs: Box::new(load(k)),
                rhs: Box::new(Expr::int(0)),
                ty: Ty::INT,
            };
            if kind == TransKind::Sync(SyncKind::CondBroadcast) {
                t.transitions[i].ops = waiters
                    .iter()
                    .map(|&k| Op::Assign {
                        place: flag(k),
                        value: Expr::int(0),
                    })
                    .collect();
                continue;
            }
            // The original transition becomes "nobody waits".
            t.transitions[i].ops.clear();
            t.transitions[i].guard = waiters
                .iter()
                .map(|&k| cmp(BinOp::Eq, k))
                .reduce(|a, b| Expr::Binary {
                    op: BinOp::And,
                    lhs: Box::new(a),
                    rhs: Box::new(b),
                    ty: Ty::INT,
                })
                .unwrap_or_else(Expr::tt);
            let src = t.transitions[i].src;
            for &k in &waiters {
                let mut tr = t.transitions[i].clone();
                tr.id = TransId(t.transitions.len() as u32);
                tr.guard = cmp(BinOp::Ne, k);
                tr.ops = vec![Op::Assign {
                    place: flag(k),
                    value: Expr::int(0),
                }];
                t.locations[src.0 as usize].out.push(tr.id);
                t.transitions.push(tr);
            }
        }
    }
    Ok(())
}

fn is_skip(t: &Transition) -> bool {
    t.kind == TransKind::Stmt && t.ops.is_empty() && t.guard.is_true() && t.refusal.is_none()
}

/// Removes skip transitions (merging their source into their target), drops unreachable
/// locations and transitions, and renumbers: entry 0, exit 1, error 2, halt 3, discard 4.
/// Removes skip transitions and unreachable locations, renumbering both; returns the new id
/// of each old transition (`None`: removed).
fn compress(t: &mut Thread) -> Vec<Option<TransId>> {
    let n = t.locations.len();
    let special: HashSet<u32> = [t.exit, t.error, t.halt, t.discard]
        .iter()
        .map(|l| l.0)
        .collect();
    // forward[l] = the location l merges into.
    let mut forward: Vec<u32> = (0..n as u32).collect();
    for (l, loc) in t.locations.iter().enumerate() {
        if special.contains(&(l as u32)) || loc.out.len() != 1 {
            continue;
        }
        let tr = &t.transitions[loc.out[0].0 as usize];
        if is_skip(tr) && tr.dst.0 != l as u32 {
            forward[l] = tr.dst.0;
        }
    }
    let resolve = |mut l: u32, forward: &Vec<u32>| {
        let mut steps = 0;
        while forward[l as usize] != l && steps <= n {
            l = forward[l as usize];
            steps += 1;
        }
        l
    };
    // Cycles of skips: keep their locations.
    let mut fixed = forward.clone();
    for l in 0..n as u32 {
        let mut seen = HashSet::new();
        let mut x = l;
        while forward[x as usize] != x {
            if !seen.insert(x) {
                // x lies on a skip cycle: stop forwarding at x.
                fixed[x as usize] = x;
                break;
            }
            x = forward[x as usize];
        }
    }
    let forward = fixed;
    let entry = resolve(t.entry.0, &forward);
    // Transitions that stay: those whose source was not merged away.
    let kept: Vec<bool> = t
        .transitions
        .iter()
        .map(|tr| forward[tr.src.0 as usize] == tr.src.0)
        .collect();
    // New numbering.
    let mut order = vec![entry, t.exit.0, t.error.0, t.halt.0, t.discard.0];
    let mut newid = vec![u32::MAX; n];
    for (k, l) in order.iter().enumerate() {
        if newid[*l as usize] == u32::MAX {
            newid[*l as usize] = k as u32;
        }
    }
    // Breadth-first from entry: reachability, and a readable numbering.
    let mut queue = std::collections::VecDeque::from([entry]);
    let mut visited = vec![false; n];
    visited[entry as usize] = true;
    while let Some(l) = queue.pop_front() {
        if newid[l as usize] == u32::MAX {
            newid[l as usize] = order.len() as u32;
            order.push(l);
        }
        for tid in &t.locations[l as usize].out {
            if !kept[tid.0 as usize] {
                continue;
            }
            let d = resolve(t.transitions[tid.0 as usize].dst.0, &forward);
            if !visited[d as usize] {
                visited[d as usize] = true;
                queue.push_back(d);
            }
        }
    }
    let mut locations: Vec<Location> = order
        .iter()
        .map(|l| Location {
            kind: t.locations[*l as usize].kind,
            out: vec![],
        })
        .collect();
    let mut transitions = Vec::new();
    let mut renumbered = vec![None; t.transitions.len()];
    for &l in &order {
        if !visited[l as usize] {
            continue;
        }
        for tid in &t.locations[l as usize].out {
            if !kept[tid.0 as usize] {
                continue;
            }
            let mut tr = t.transitions[tid.0 as usize].clone();
            tr.id = TransId(transitions.len() as u32);
            renumbered[tid.0 as usize] = Some(tr.id);
            tr.src = LocId(newid[l as usize]);
            tr.dst = LocId(newid[resolve(tr.dst.0, &forward) as usize]);
            locations[tr.src.0 as usize].out.push(tr.id);
            transitions.push(tr);
        }
    }
    t.locations = locations;
    t.transitions = transitions;
    t.entry = LocId(0);
    t.exit = LocId(1);
    t.error = LocId(2);
    t.halt = LocId(3);
    t.discard = LocId(4);
    renumbered
}

/// For each location, the strongly connected component of the CFG it belongs to.
fn components(t: &Thread) -> Vec<usize> {
    let mut g =
        petgraph::graph::DiGraph::<(), ()>::with_capacity(t.locations.len(), t.transitions.len());
    for _ in &t.locations {
        g.add_node(());
    }
    for tr in &t.transitions {
        g.add_edge(tr.src.0.into(), tr.dst.0.into(), ());
    }
    let mut comp = vec![0; t.locations.len()];
    for (k, scc) in petgraph::algo::kosaraju_scc(&g).into_iter().enumerate() {
        for n in scc {
            comp[n.index()] = k;
        }
    }
    comp
}

/// `pthread_create` and `malloc` sites must run at most once per thread: each stands for one
/// thread or one object. A `malloc` on a cycle is refused. A `pthread_create` on a cycle (a
/// loop the lowering could not unroll, such as a `goto retry` around the creations) starts its
/// thread the first time; running it again is a limit of the model
/// ([`guard_repeated_creation`]).
fn check_single_sites(p: &mut Program, map: Position) -> Result<(), Error> {
    let mut repeated = Vec::new();
    for t in &p.threads {
        let mut comp = None;
        for tr in &t.transitions {
            let spawns = tr.spawned().is_some();
            let mut allocates = false;
            for op in &tr.ops {
                if let Op::Assign { value, .. } = op {
                    value.for_each_addr(&mut |v| {
                        // (Allocation sites placed in objects have instances for loops.)
                        let var = &p.vars[v.0 as usize];
                        allocates |= var.scope == VarScope::Heap && var.placement.is_none();
                    })
                }
            }
            if !spawns && !allocates {
                continue;
            }
            let comp = comp.get_or_insert_with(|| components(t));
            if comp[tr.src.0 as usize] != comp[tr.dst.0 as usize] {
                continue;
            }
            if allocates {
                return Err(Error::Unsupported {
                    position: map(tr.span.as_ref()),
                    construct: "malloc in a loop".to_string(),
                });
            }
            repeated.push((t.id, tr.id));
        }
    }
    let mut limits = HashMap::new();
    for (t, tr) in repeated {
        guard_repeated_creation(p, t, tr, map, &mut limits);
    }
    Ok(())
}

/// Makes the creation `tr` of thread `t` start its thread once: a flag of the thread, set by
/// the creation, and a limit of the model (a write out of bounds of a ghost variable named
/// after the site, as [`crate::frontend::llvm`]'s model limits) where the flag is already
/// set, so that an execution that runs the creation again is named in the verdict and never
/// starts the same thread twice.
fn guard_repeated_creation(
    p: &mut Program,
    t: ThreadId,
    tr: TransId,
    map: Position,
    limits: &mut HashMap<String, VarId>,
) {
    let span = p.threads[t.0 as usize].transitions[tr.0 as usize].span;
    let position = map(span.as_ref());
    let why =
        format!("<pthread_create at {position} run again (a loop the model does not unroll)>");
    let new_var = |p: &mut Program, name: String, scope: VarScope, is_array: bool| {
        let id = VarId(p.vars.len() as u32);
        p.vars.push(Var {
            is_array,
            span,
            ..Var::plain(id, name, ElemKind::Int(Ty::CHAR), scope)
        });
        id
    };
    let limit = match limits.get(&why) {
        Some(v) => *v,
        None => {
            let v = new_var(p, why.clone(), VarScope::Ghost, true);
            limits.insert(why, v);
            v
        }
    };
    // (One flag per lowered copy of the creation: a site lowered in several contexts has
    // several, told apart by the transition's number.)
    let flag = new_var(
        p,
        format!("{t}:<created at {position}, t{}>", tr.0),
        VarScope::Local(t),
        false,
    );
    let was_run = Expr::Binary {
        op: BinOp::Ne,
        lhs: Box::new(Expr::var(flag, Ty::CHAR)),
        rhs: Box::new(Expr::constant(0, Ty::CHAR)),
        ty: Ty::INT,
    };
    let guard = [
        Op::model_limit(limit, was_run),
        Op::Assign {
            place: Place::scalar(flag),
            value: Expr::constant(1, Ty::CHAR),
        },
    ];
    let ops = &mut p.threads[t.0 as usize].transitions[tr.0 as usize].ops;
    ops.splice(0..0, guard);
}

fn for_each_expr_mut(tr: &mut Transition, f: &mut impl FnMut(&mut Expr)) {
    f(&mut tr.guard);
    for op in &mut tr.ops {
        match op {
            Op::Assign { place, value } => {
                place_exprs_mut(place, f);
                f(value);
            }
            Op::Havoc { place, .. } => place_exprs_mut(place, f),
            Op::Spawn { args, .. } => {
                for (_, e) in args {
                    f(e)
                }
            }
            _ => {}
        }
    }
}

fn place_exprs_mut(p: &mut Place, f: &mut impl FnMut(&mut Expr)) {
    match p {
        Place::Var { index: Some(i), .. } => f(i),
        Place::Var { index: None, .. } => {}
        Place::Deref { addr, .. } => f(addr),
    }
}

/// Flow-insensitive points-to sets (Andersen's analysis, without the call graph: functions
/// are inlined): which objects an expression's value may be the address of. Addresses only
/// come from `&x` (and allocation sites), copies and pointer arithmetic. A pointer into an
/// object may reach all of its variables by pointer arithmetic (a struct's fields), so the
/// sets are sets of objects, each a bit set over the objects whose address is taken, and a
/// dereference's targets are the variables of the objects its address may point to.
fn points_to(p: &mut Program) {
    let members = p.object_members();
    // The objects whose address the program takes (by `&`, or in an initial value), numbered
    // densely: only they can be pointed to, and the sets stay as small as they are (a
    // program inlined into many threads has 100,000 objects and a few dozen taken). `any`
    // stands for the address of any of them (made by arithmetic that does not keep an
    // address's object, such as `^`).
    let mut index = vec![NONE; p.vars.len()];
    let mut objects: Vec<usize> = Vec::new();
    let mut take = |o: usize| {
        if index[o] == NONE && !members[o].is_empty() {
            index[o] = objects.len();
            objects.push(o);
        }
    };
    let object = |v: VarId| p.vars[v.0 as usize].placement().object.0 as usize;
    let mut initial: Vec<(usize, usize)> = Vec::new();
    for v in &p.vars {
        if let (ElemKind::Ptr, Init::Values(vals)) = (&v.elem, &v.init) {
            for x in vals {
                if let Some((t, _)) = decode_address(*x) {
                    if (t.0 as usize) < p.vars.len() {
                        take(t.0 as usize);
                        initial.push((v.id.0 as usize, t.0 as usize));
                    }
                }
            }
        }
    }
    for tr in p.threads.iter().flat_map(|t| &t.transitions) {
        tr.for_each_expr(&mut |e| e.for_each_addr(&mut |v| take(object(v))));
    }
    let object_of: Vec<usize> = p.vars.iter().map(|v| index[object(v.id)]).collect();
    let an = Analysis {
        any: objects.len(),
        object_of,
    };
    let mut sets = Sets {
        pts: vec![FixedBitSet::new(); p.vars.len()],
        held: vec![FixedBitSet::new(); an.any],
        all: FixedBitSet::new(),
    };
    // Pointers initialised with addresses (`int *p = &x;` at file scope).
    for (v, t) in initial {
        let o = index[t];
        if o == NONE {
            continue;
        }
        put(&mut sets.pts[v], o);
        if let Some(h) = sets.held.get_mut(an.object_of[v]) {
            put(h, o);
        }
        put(&mut sets.all, o);
    }
    loop {
        let mut changed = false;
        for t in &p.threads {
            for tr in &t.transitions {
                for op in &tr.ops {
                    let mut flows: Vec<(Vec<usize>, FixedBitSet)> = vec![];
                    match op {
                        Op::Assign { place, value } => {
                            let v = an.expr(value, &sets);
                            let dst = match place {
                                Place::Var { var, .. } => vec![var.0 as usize],
                                Place::Deref { .. } => an
                                    .targets(place, &sets)
                                    .ones()
                                    .flat_map(|o| members[objects[o]].iter().map(|m| m.0 as usize))
                                    .collect(),
                            };
                            flows.push((dst, v));
                        }
                        Op::Spawn { args, .. } => {
                            for (var, e) in args {
                                flows.push((vec![var.0 as usize], an.expr(e, &sets)));
                            }
                        }
                        _ => {}
                    }
                    for (dst, v) in flows {
                        if v.is_clear() {
                            continue;
                        }
                        for d in dst {
                            if !v.is_subset(&sets.pts[d]) {
                                sets.pts[d].union_with(&v);
                                if let Some(h) = sets.held.get_mut(an.object_of[d]) {
                                    h.union_with(&v);
                                }
                                sets.all.union_with(&v);
                                changed = true;
                            }
                        }
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    let sync_var: Vec<bool> = p.vars.iter().map(|v| v.elem.is_sync()).collect();
    let status_var: Vec<bool> = p.vars.iter().map(|v| v.allocation_status).collect();
    let resolve = |pl: &mut Place| {
        if matches!(pl, Place::Deref { .. }) {
            let mut ts: Vec<VarId> = an
                .targets(pl, &sets)
                .ones()
                .flat_map(|o| members[objects[o]].iter().copied())
                .collect();
            ts.sort();
            if let Place::Deref {
                targets, header, ..
            } = pl
            {
                // The model's header access reaches status cells only, a program's none.
                ts.retain(|v| status_var[v.0 as usize] == *header);
                *targets = ts;
            }
        }
    };
    for t in &mut p.threads {
        for tr in &mut t.transitions {
            for_each_expr_mut(tr, &mut |e| resolve_expr(e, &resolve));
            for op in &mut tr.ops {
                match op {
                    Op::Assign { place, .. } | Op::Havoc { place, .. } => resolve(place),
                    _ => {}
                }
            }
            // A data access does not reach the cells of mutexes, condition variables and
            // barriers (the other fields of their objects, it may).
            if !matches!(tr.kind, TransKind::Sync(_)) {
                let keep = |targets: &mut Vec<VarId>| targets.retain(|v| !sync_var[v.0 as usize]);
                for_each_expr_mut(tr, &mut |e| derefs_mut(e, &mut |ts| keep(ts)));
                for op in &mut tr.ops {
                    if let Op::Assign { place, .. } | Op::Havoc { place, .. } = op {
                        if let Place::Deref { targets, addr, .. } = place {
                            keep(targets);
                            derefs_mut(addr, &mut |ts| keep(ts));
                        }
                    }
                }
            }
        }
    }
    /// Calls `f` on the targets of every dereference an expression reads.
    fn derefs_mut(e: &mut Expr, f: &mut impl FnMut(&mut Vec<VarId>)) {
        match e {
            Expr::Load { place, .. } => match place {
                Place::Deref { addr, targets, .. } => {
                    f(targets);
                    derefs_mut(addr, f);
                }
                Place::Var { index: Some(i), .. } => derefs_mut(i, f),
                Place::Var { .. } => {}
            },
            Expr::AddrOf { index, .. } => derefs_mut(index, f),
            Expr::Unary { arg, .. } | Expr::Cast { arg, .. } => derefs_mut(arg, f),
            Expr::Binary { lhs, rhs, .. } => {
                derefs_mut(lhs, f);
                derefs_mut(rhs, f);
            }
            Expr::Ite {
                cond, then, els, ..
            } => {
                derefs_mut(cond, f);
                derefs_mut(then, f);
                derefs_mut(els, f);
            }
            Expr::Const { .. } => {}
        }
    }
    /// Resolves the targets of every dereference in `e` (innermost addresses first: a
    /// place's address is resolved with the sets, not with its own targets).
    fn resolve_expr(e: &mut Expr, resolve: &impl Fn(&mut Place)) {
        match e {
            Expr::Load { place, .. } => {
                resolve(place);
                match place {
                    Place::Var { index: Some(i), .. } => resolve_expr(i, resolve),
                    Place::Deref { addr, .. } => resolve_expr(addr, resolve),
                    _ => {}
                }
            }
            Expr::AddrOf { index, .. } => resolve_expr(index, resolve),
            Expr::Unary { arg, .. } | Expr::Cast { arg, .. } => resolve_expr(arg, resolve),
            Expr::Binary { lhs, rhs, .. } => {
                resolve_expr(lhs, resolve);
                resolve_expr(rhs, resolve);
            }
            Expr::Ite {
                cond, then, els, ..
            } => {
                resolve_expr(cond, resolve);
                resolve_expr(then, resolve);
                resolve_expr(els, resolve);
            }
            Expr::Const { .. } => {}
        }
    }
}

/// No object's number: an object whose address the program never takes.
const NONE: usize = usize::MAX;

/// Adds `bit` to `set`, growing it (sets start empty: most variables hold no address).
fn put(set: &mut FixedBitSet, bit: usize) {
    if bit >= set.len() {
        set.grow(bit + 1);
    }
    set.insert(bit);
}

/// The sets of the points-to analysis ([`points_to`]).
struct Sets {
    /// Per variable: the objects the value it holds may be the address of.
    pts: Vec<FixedBitSet>,
    /// Per object: the union of its variables' sets.
    held: Vec<FixedBitSet>,
    /// The union of all sets.
    all: FixedBitSet,
}

/// The points-to analysis's numbering of objects ([`points_to`]).
struct Analysis {
    /// The bit of "any object whose address is taken".
    any: usize,
    /// Per variable: the number of its object.
    object_of: Vec<usize>,
}

impl Analysis {
    /// The objects `e`'s value may be the address of.
    fn expr(&self, e: &Expr, sets: &Sets) -> FixedBitSet {
        let mut out = FixedBitSet::new();
        self.expr_into(e, sets, &mut out);
        out
    }

    fn expr_into(&self, e: &Expr, sets: &Sets, out: &mut FixedBitSet) {
        let Sets { pts, held, all } = sets;
        match e {
            Expr::Const { .. } => {}
            Expr::AddrOf { var, .. } => put(out, self.object_of[var.0 as usize]),
            Expr::Load { place, .. } => match place {
                Place::Var { var, .. } => out.union_with(&pts[var.0 as usize]),
                Place::Deref { addr, .. } => {
                    let t = self.expr(addr, sets);
                    if t.contains(self.any) {
                        // A load through any address: any address stored anywhere.
                        out.union_with(all);
                    } else {
                        // What any variable of the objects it may point to holds.
                        for o in t.ones() {
                            out.union_with(&held[o]);
                        }
                    }
                }
            },
            // A value of 32 bits or fewer is no address (the least is that of a variable's
            // first element, 2^32: `ir::address`). It is taken to carry none: an address
            // put together again from such parts (its halves, its digits) points to no object
            // the analysis knows, so that its dereference is undefined behaviour to the
            // verifier (a verdict `unknown`, never a wrong one). Formatting and hashing
            // addresses, far more common, no longer make every object shared.
            Expr::Cast { ty, .. } if ty.bits <= 32 => {}
            Expr::Binary { op, rhs, .. } if below_addresses(*op, rhs) => {}
            Expr::Cast { arg, .. }
            | Expr::Unary {
                arg, op: UnOp::Not, ..
            } => self.expr_into(arg, sets, out),
            Expr::Unary { arg, .. } => {
                // `-a`, `~a` of an address: no longer that object's address, but (bits
                // turned back) possibly any object's.
                if !self.expr(arg, sets).is_clear() {
                    put(out, self.any);
                }
            }
            Expr::Binary { lhs, rhs, op, .. } => {
                let mut t = self.expr(lhs, sets);
                self.expr_into(rhs, sets, &mut t);
                if matches!(op, BinOp::Add | BinOp::Sub | BinOp::BitAnd | BinOp::BitOr) {
                    out.union_with(&t);
                } else if !t.is_clear()
                    && !matches!(
                        op,
                        BinOp::Lt
                            | BinOp::Le
                            | BinOp::Gt
                            | BinOp::Ge
                            | BinOp::Eq
                            | BinOp::Ne
                            | BinOp::And
                            | BinOp::Or
                    )
                {
                    // Other arithmetic on an address (`^` of XOR-linked lists, `*`, `/`,
                    // shifts) may make the address of any object.
                    put(out, self.any);
                }
            }
            Expr::Ite { then, els, .. } => {
                self.expr_into(then, sets, out);
                self.expr_into(els, sets, out);
            }
        }
    }

    /// The objects a place may be in.
    fn targets(&self, place: &Place, sets: &Sets) -> FixedBitSet {
        let mut t = FixedBitSet::new();
        match place {
            Place::Var { var, .. } => {
                if self.object_of[var.0 as usize] != NONE {
                    put(&mut t, self.object_of[var.0 as usize])
                }
            }
            Place::Deref { addr, .. } => {
                self.expr_into(addr, sets, &mut t);
                if t.contains(self.any) {
                    // Any object numbered (every one whose address is taken).
                    t.set(self.any, false);
                    t.insert_range(..self.any);
                }
            }
        }
        t
    }
}

/// A variable is shared when two threads touch it (spawn parameter initialisation excluded:
/// it happens before the new thread starts) and some transition may write its object (memory
/// no step writes, such as a string constant, keeps its initial values: reading it commutes
/// with every step). A write through a pointer counts for every object it may reach, and a
/// write to one cell of an object for all of the object's cells (accesses of other widths
/// reach their bytes). A variable of its own (no object's field) that no step reads is not
/// shared: its writes commute with every step.
///
/// A heap allocation site is shared as a whole: an access to its memory reads the status
/// that `free` writes ([`Var::allocation_status`]), so each of its variables is touched by
/// every thread that touches one of them.
fn shared(p: &mut Program) {
    let mut touched: HashMap<u32, BTreeSet<u32>> = HashMap::new();
    let mut written: HashSet<VarId> = HashSet::new();
    let mut read: HashSet<VarId> = HashSet::new();
    // Per variable: the key it is counted under (its object for heap sites).
    let key: Vec<u32> = p
        .vars
        .iter()
        .map(|v| {
            let o = v.placement().object;
            if p.vars[o.0 as usize].allocation_status {
                o.0
            } else {
                v.id.0
            }
        })
        .collect();
    for t in &p.threads {
        for tr in &t.transitions {
            let (r, w) = tr.accesses();
            for pl in &w {
                for v in pl.vars() {
                    written.insert(p.vars[v.0 as usize].placement().object);
                }
            }
            for pl in &r {
                read.extend(pl.vars());
            }
            for pl in r.into_iter().chain(w) {
                for v in pl.vars() {
                    touched.entry(key[v.0 as usize]).or_default().insert(t.id.0);
                }
            }
        }
    }
    for v in &mut p.vars {
        // Such as a ghost that marks the model's limit.
        let unread = v.placement.is_none() && !read.contains(&v.id);
        v.shared = touched
            .get(&key[v.id.0 as usize])
            .is_some_and(|s| s.len() > 1)
            && written.contains(&v.placement().object)
            && !unread;
    }
}

/// Where an access through `pl` lies in its variables ([`EventAt`]): one expression for all
/// of them.
fn event_at(pl: &Place) -> Option<EventAt> {
    match pl {
        Place::Var { index, .. } => {
            (index.as_deref()).map(|i| EventAt::Index(std::sync::Arc::new(i.clone())))
        }
        Place::Deref { addr, .. } => Some(EventAt::Address(std::sync::Arc::new((**addr).clone()))),
    }
}

/// The code ([`Transition::at`]) of the loads and stores that access shared memory in some
/// copy (an inlined call, a thread instance). `synth build` instruments one piece of code for
/// every copy of it, so where a copy touches memory of its thread only, that access is an
/// event too ([`mark`]): on memory no other thread touches, ordered with its own thread's
/// steps only. (A copy that reaches a thread's memory through a scalar of the front end's, not
/// a C object, stays plain: `synth build` refuses that code, naming it.)
fn shared_code(p: &Program, shared: &[bool]) -> HashSet<[u32; 2]> {
    let mut code = HashSet::new();
    for tr in p.threads.iter().flat_map(|t| &t.transitions) {
        let Some(at) = tr.at else { continue };
        if !tr.memory_access || tr.kind != TransKind::Stmt || code.contains(&at) {
            continue;
        }
        let (reads, writes) = tr.accesses();
        if (reads.iter().chain(&writes)).any(|pl| pl.vars().iter().any(|v| shared[v.0 as usize])) {
            code.insert(at);
        }
    }
    code
}

/// Whether variable `v`, reached through `pl`, is memory of the C program (a target of a
/// pointer, an array, a global or heap object, an object laid out in the address space), not
/// a scalar the front end made (a register).
fn is_memory(pl: &Place, v: &Var) -> bool {
    match pl {
        Place::Deref { .. } | Place::Var { index: Some(_), .. } => true,
        Place::Var { index: None, .. } => {
            v.placement.is_some() || matches!(v.scope, VarScope::Global | VarScope::Heap)
        }
    }
}

/// What [`mark`] reads of the whole program.
struct Facts<'a> {
    /// Per variable, whether it is shared.
    shared: &'a [bool],
    /// The code of statements that access shared and local memory ([`shared_code`]).
    code: &'a HashSet<[u32; 2]>,
    vars: &'a [Var],
    /// The variables of each object.
    members: &'a FxHashMap<VarId, Vec<VarId>>,
    /// The code of the assumptions that wait on another thread.
    waiting: &'a HashSet<[u32; 2]>,
}

/// Fills events, may-block and yield marks; a statement of shared code ([`shared_code`])
/// and a creation refused for the thread bound have events on the memory they touch, shared
/// or not.
fn mark(t: &mut Thread, facts: &Facts<'_>, own: &[bool]) {
    let Facts {
        shared,
        code,
        vars,
        members,
        waiting,
    } = *facts;
    for tr in &mut t.transitions {
        // (A creation refused for the thread bound is an event on the id it writes: the
        // built program asks the schedule whether this copy of the code refuses.)
        let force = tr.refusal.is_some()
            || (tr.memory_access
                && tr.kind == TransKind::Stmt
                && tr.at.is_some_and(|a| code.contains(&a)));
        let (reads, writes) = tr.accesses();
        // The events in order of first access, and where each (variable, index) is among them
        // (a place through a pointer may have thousands of targets).
        let mut events: Vec<Event> = Vec::new();
        // (Keyed by the number of the place's element expression among the transition's,
        // hashed once per place rather than once per target.)
        let mut at: FxHashMap<(VarId, Option<u32>), usize> = FxHashMap::default();
        let mut numbers: FxHashMap<EventAt, u32> = FxHashMap::default();
        let mut push = |pl: &Place, access: Access| {
            let place_at = event_at(pl);
            let next = numbers.len() as u32;
            let number = (place_at.clone()).map(|a| *numbers.entry(a).or_insert(next));
            // An access through a pointer of another width than the elements of a target
            // laid out in bytes may touch any of the variables of its object, at elements
            // its address alone does not say: it accesses them whole.
            let mut wide: FxHashSet<VarId> = FxHashSet::default();
            let mut touched = pl.vars();
            if let Place::Deref { ty, targets, .. } = pl {
                let bytes = (ty.bits as u32).div_ceil(8);
                for v in targets {
                    let var = &vars[v.0 as usize];
                    if var.placement.is_some() && cell_width(var.elem) != bytes {
                        let o = var.placement().object;
                        wide.extend(members.get(&o).into_iter().flatten());
                    }
                }
                if !wide.is_empty() {
                    let own: FxHashSet<VarId> = touched.iter().copied().collect();
                    let mut extra: Vec<VarId> =
                        wide.iter().filter(|m| !own.contains(m)).copied().collect();
                    extra.sort();
                    touched.extend(extra);
                }
            }
            for v in touched {
                let event = shared[v.0 as usize] || (force && is_memory(pl, &vars[v.0 as usize]));
                if !event {
                    continue;
                }
                // An access to heap memory reads its allocation status (any instance's:
                // the event names the whole status array).
                let o = vars[v.0 as usize].placement().object;
                if vars[o.0 as usize].allocation_status && o != v {
                    // (Its write, where one came first, is an update already.)
                    at.entry((o, None)).or_insert_with(|| {
                        events.push(Event {
                            var: o,
                            at: None,
                            access: Access::Read,
                        });
                        events.len() - 1
                    });
                }
                let (index, number) = match wide.contains(&v) {
                    true => (None, None),
                    false => (place_at.as_ref(), number),
                };
                match at.entry((v, number)) {
                    std::collections::hash_map::Entry::Occupied(k) => {
                        let e = &mut events[*k.get()];
                        if e.access != access {
                            e.access = Access::Update;
                        }
                    }
                    std::collections::hash_map::Entry::Vacant(k) => {
                        events.push(Event {
                            var: v,
                            at: index.cloned(),
                            access,
                        });
                        k.insert(events.len() - 1);
                    }
                }
            }
        };
        for pl in &reads {
            push(pl, Access::Read);
        }
        for pl in writes {
            push(pl, Access::Write);
        }
        // (An assumption waits where another thread may make it hold. One over what only its
        // thread writes reads nothing another thread changes: its reads commute with every
        // other thread's step, and it is no event, unless another copy of its code is.)
        let others_change = (reads.iter()).any(|pl| pl.vars().iter().any(|v| !own[v.0 as usize]));
        if tr.kind == TransKind::Assume
            && !others_change
            && !tr.at.is_some_and(|a| waiting.contains(&a))
        {
            events.clear();
        }
        let reads_shared = !events.is_empty();
        tr.events = events;
        tr.may_block = match &tr.kind {
            TransKind::Sync(SyncKind::AtomicBegin) => true,
            TransKind::Sync(_) => !tr.guard.is_true(),
            TransKind::Assume => reads_shared && others_change && !tr.guard.is_true(),
            _ => false,
        };
        tr.yields = tr.kind == TransKind::Sync(SyncKind::Yield);
    }
}

/// An assumption that fails and that no other thread can make hold (one over the thread's
/// own values, or over shared ones only it writes: `own`) discards the execution.
fn add_discards(t: &mut Thread, own: &[bool]) {
    let n = t.transitions.len();
    for i in 0..n {
        let tr = &t.transitions[i];
        if tr.kind != TransKind::Assume || tr.may_block || tr.guard.is_true() {
            continue;
        }
        if reads_any(tr, |v| !own[v.0 as usize]) {
            continue;
        }
        let mut f = tr.clone();
        f.id = TransId(n as u32 + (t.transitions.len() - n) as u32);
        f.dst = t.discard;
        f.kind = TransKind::AssumeFail;
        f.guard = Expr::Unary {
            op: UnOp::Not,
            arg: Box::new(tr.guard.clone()),
            ty: Ty::INT,
        };
        f.events.clear();
        t.locations[f.src.0 as usize].out.push(f.id);
        t.transitions.push(f);
    }
}

/// Marks retreating edges of a depth-first search from the entry.
fn back_edges(t: &mut Thread) {
    let n = t.locations.len();
    // 0 = unvisited, 1 = on stack, 2 = done.
    let mut state = vec![0u8; n];
    let mut stack: Vec<(LocId, usize)> = vec![(t.entry, 0)];
    state[t.entry.0 as usize] = 1;
    let mut back = Vec::new();
    while let Some((l, i)) = stack.pop() {
        let out = &t.locations[l.0 as usize].out;
        if i < out.len() {
            stack.push((l, i + 1));
            let tr = &t.transitions[out[i].0 as usize];
            match state[tr.dst.0 as usize] {
                0 => {
                    state[tr.dst.0 as usize] = 1;
                    stack.push((tr.dst, 0));
                }
                1 => back.push(tr.id),
                _ => {}
            }
        } else {
            state[l.0 as usize] = 2;
        }
    }
    for id in back {
        t.transitions[id.0 as usize].back_edge = true;
    }
}

/// Whether `a op rhs` is below every address whatever `a` is: a remainder by, or the bits of
/// a mask that is, a constant below 2^31, which an offset added to an address cannot carry
/// into the next variable's (`ir::address`); taken to carry no address, as a value of 32
/// bits is. (`digits[u % 10]` with `u` read from memory that also holds addresses indexes
/// `digits`, not any object.)
fn below_addresses(op: BinOp, rhs: &Expr) -> bool {
    // (A signed remainder may be negative: an offset that leaves the variable's elements
    // below, where no element of another variable is.)
    let small = |c: i128| match op {
        BinOp::Rem => c.abs() < 1 << 31,
        _ => (0..1 << 31).contains(&c),
    };
    matches!(op, BinOp::Rem | BinOp::BitAnd)
        && matches!(rhs, Expr::Const { value, .. } if small(*value))
}
