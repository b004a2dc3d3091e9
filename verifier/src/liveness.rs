//! Dead registers and dead cells: a thread's own scalar variables (registers) and the cells
//! of its own arrays and address-taken locals that no path from its location reads before
//! writing them. The explicit search ([`crate::explicit`]) forgets their values (sets them to
//! zero) so that states that differ only in dead values are one state, and its labels do not
//! mention them; the explorer ([`crate::explore`]) forgets dead
//! registers so that values of inputs that only reach dead registers (an uninitialised local
//! overwritten before it is read) make one variant of a step. Classic backward live-variable
//! analysis over each thread's control-flow graph, with the strong liveness of copies: a
//! register copied only into dead registers is dead too (Nielson, Nielson and Hankin,
//! "Principles of Program Analysis", strongly live variables). An access through a pointer
//! reads every cell of the variables it may point to ([`Place::Deref`]'s targets), and
//! kills none: a cell is written for sure only by its name and a constant index, as the
//! environment's fill of a buffer of a constant size writes it (cell by cell).

use crate::ir::{Expr, Op, Place, Program, ThreadId, VarId, VarScope};
use std::ops::Range;

/// Per thread and location, the registers and the cells of the thread's own arrays dead
/// there.
pub struct Liveness {
    /// `dead[t][l]`: the registers of thread `t` dead at location `l`.
    dead: Vec<Vec<Vec<VarId>>>,
    /// Per thread: the cells of its own arrays and where they are live.
    cells: Vec<OwnCells>,
}

/// The cells of a thread's own arrays, and per location the live ones among them (a bit per
/// cell).
struct OwnCells {
    cells: Vec<(VarId, u32)>,
    live: Vec<Vec<u64>>,
}

impl Liveness {
    /// The analysis of a program.
    pub fn new(prog: &Program) -> Liveness {
        let register = registers(prog);
        let foreign = foreign(prog);
        let (mut dead, mut cells) = (Vec::new(), Vec::new());
        for t in &prog.threads {
            let slots = Slots::of(prog, t.id, &register, &foreign);
            let (d, c) = dead_per_location(prog, t.id, &slots);
            dead.push(d);
            cells.push(c);
        }
        Liveness { dead, cells }
    }

    /// The registers of thread `t` dead at location `l`.
    pub fn dead(&self, t: ThreadId, l: crate::ir::LocId) -> &[VarId] {
        &self.dead[t.0 as usize][l.0 as usize]
    }

    /// The cells of thread `t`'s own arrays (objects no other thread reaches, not too large)
    /// dead at location `l`: no path from there reads them before it writes the whole cell.
    /// (An access through a pointer reads every cell of the variables it may point to, and
    /// writes none for sure.)
    pub fn dead_cells(
        &self,
        t: ThreadId,
        l: crate::ir::LocId,
    ) -> impl Iterator<Item = (VarId, u32)> + '_ {
        // A word at a time: most words of a location are all live or all dead.
        let own = &self.cells[t.0 as usize];
        let n = own.cells.len();
        own.live[l.0 as usize]
            .iter()
            .enumerate()
            .flat_map(move |(w, &live)| {
                let valid = if (w + 1) * 64 <= n {
                    u64::MAX
                } else {
                    (1u64 << (n % 64)) - 1
                };
                let mut dead = !live & valid;
                std::iter::from_fn(move || {
                    (dead != 0).then(|| {
                        let b = dead.trailing_zeros() as usize;
                        dead &= dead - 1;
                        own.cells[w * 64 + b]
                    })
                })
            })
    }
}

/// Most cells of one array whose cells are analysed, and of all of a thread's.
const MAX_ARRAY_CELLS: u32 = 4096;
const MAX_THREAD_CELLS: usize = 16384;

/// The positions of a thread's registers and its own arrays' cells in the analysis's bit
/// sets.
struct Slots {
    /// Per variable of the thread: its first position, its cells (1 for a register), and
    /// whether it is a register.
    of: std::collections::HashMap<VarId, (usize, u32, bool)>,
    /// Per position: the variable and cell.
    at: Vec<(VarId, u32, bool)>,
}

impl Slots {
    fn of(prog: &Program, t: ThreadId, register: &[bool], foreign: &[bool]) -> Slots {
        let mut s = Slots {
            of: Default::default(),
            at: Vec::new(),
        };
        for v in prog.vars.iter().filter(|v| v.scope == VarScope::Local(t)) {
            let reg = register[v.id.0 as usize];
            let own_array = !v.shared
                && !foreign[v.id.0 as usize]
                && !v.allocation_status
                && !v.read_only
                && !v.elem.is_sync()
                && v.len <= MAX_ARRAY_CELLS
                && s.at.len() + (v.len as usize) <= MAX_THREAD_CELLS;
            if !reg && !own_array {
                continue;
            }
            let len = if reg { 1 } else { v.len };
            s.of.insert(v.id, (s.at.len(), len, reg));
            s.at.extend((0..len).map(|i| (v.id, i, reg)));
        }
        s
    }

    /// The positions of `var` that `index` may name, and whether it names exactly one.
    fn named(&self, var: &VarId, index: &Option<Box<Expr>>) -> Option<(Range<usize>, bool)> {
        let &(first, len, _) = self.of.get(var)?;
        Some(match index.as_deref().map(|e| e.as_const()) {
            None => (first..first + 1, true),
            Some(Some(i)) if (0..len as i128).contains(&i) => {
                (first + i as usize..first + i as usize + 1, true)
            }
            Some(_) => (first..first + len as usize, false),
        })
    }

    /// The positions a read of `p` (not what its address reads) may read.
    fn read(&self, p: &Place, out: &mut Vec<usize>) {
        match p {
            Place::Var { var, index } => {
                out.extend(self.named(var, index).into_iter().flat_map(|(r, _)| r))
            }
            Place::Deref { targets, .. } => {
                for v in targets {
                    if let Some(&(first, len, _)) = self.of.get(v) {
                        out.extend(first..first + len as usize);
                    }
                }
            }
        }
    }

    /// The position a write to `p` surely writes whole.
    fn written(&self, p: &Place) -> Option<usize> {
        let Place::Var { var, index } = p else {
            return None;
        };
        match self.named(var, index)? {
            (r, true) => Some(r.start),
            (_, false) => None,
        }
    }
}

/// Per variable: whether a thread other than the one whose local it is names it, reads or
/// writes it through a pointer, or takes its address (a local only another thread touches
/// is not shared, yet not its owner's own).
fn foreign(prog: &Program) -> Vec<bool> {
    let mut out = vec![false; prog.vars.len()];
    for t in &prog.threads {
        let mut mark = |v: VarId| {
            if matches!(prog.var(v).scope, VarScope::Local(u) if u != t.id) {
                out[v.0 as usize] = true;
            }
        };
        for tr in &t.transitions {
            tr.for_each_access(&mut |p| p.vars().into_iter().for_each(&mut mark));
            tr.for_each_expr(&mut |e| e.for_each_addr(&mut mark));
            for op in &tr.ops {
                if let Op::Spawn { args, .. } = op {
                    args.iter().for_each(|(v, _)| mark(*v));
                }
            }
        }
    }
    out
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

/// One operation of a transition, for the analysis: what it reads, the position it writes
/// whole, and whether it is a copy (a register's or a cast of one: it reads what it copies
/// only where its target is live, and evaluating it cannot fail).
struct Fact {
    reads: Vec<usize>,
    writes: Option<usize>,
    copy: bool,
}

/// The facts of a transition's operations, in order, and what its guard reads.
fn facts_of(tr: &crate::ir::Transition, slots: &Slots) -> (Vec<usize>, Vec<Fact>) {
    let read = |e: &Expr, out: &mut Vec<usize>| e.for_each_place(&mut |p| slots.read(p, out));
    let mut guard = Vec::new();
    read(&tr.guard, &mut guard);
    let mut facts = Vec::new();
    for op in &tr.ops {
        let mut reads = Vec::new();
        let (writes, copy) = match op {
            Op::Assign { place, value } => {
                read(value, &mut reads);
                place.for_each_subexpr(&mut |e| read(e, &mut reads));
                let w = slots.written(place);
                let register = w.is_some_and(|i| slots.at[i].2);
                (w, register && is_copy(value))
            }
            Op::Havoc { place, .. } => {
                place.for_each_subexpr(&mut |e| read(e, &mut reads));
                (slots.written(place), false)
            }
            Op::Spawn { args, .. } => {
                for (_, e) in args {
                    read(e, &mut reads);
                }
                (None, false)
            }
            Op::AtomicBegin | Op::AtomicEnd => (None, false),
        };
        facts.push(Fact {
            reads,
            writes,
            copy,
        });
    }
    (guard, facts)
}

/// Whether evaluating `e` only reads a register and converts it.
fn is_copy(e: &Expr) -> bool {
    match e {
        Expr::Load {
            place: Place::Var { index: None, .. },
            ..
        } => true,
        Expr::Cast { arg, .. } => is_copy(arg),
        _ => false,
    }
}

/// The positions live before a transition whose operations are `facts` and whose guard reads
/// `guard`, from those live after it (`live`, updated).
fn live_before(guard: &[usize], facts: &[Fact], live: &mut [u64]) {
    let get = |b: &[u64], i: usize| b[i / 64] & (1 << (i % 64)) != 0;
    for f in facts.iter().rev() {
        let mut needed = true;
        if let Some(i) = f.writes {
            needed = !f.copy || get(live, i);
            live[i / 64] &= !(1 << (i % 64));
        }
        if needed {
            for &i in &f.reads {
                live[i / 64] |= 1 << (i % 64);
            }
        }
    }
    for &i in guard {
        live[i / 64] |= 1 << (i % 64);
    }
}

/// Per location, the dead registers of thread `t` (the complement of a backward fixpoint of
/// the live ones), and its own arrays' cells with the live ones per location. A copy into a
/// dead register does not make what it copies live (strong liveness: a value that goes only
/// into dead registers is dead).
fn dead_per_location(prog: &Program, t: ThreadId, slots: &Slots) -> (Vec<Vec<VarId>>, OwnCells) {
    let thread = prog.thread(t);
    let n = slots.at.len();
    let words = n.div_ceil(64);
    let facts: Vec<(Vec<usize>, Vec<Fact>)> = thread
        .transitions
        .iter()
        .map(|tr| facts_of(tr, slots))
        .collect();
    let nl = thread.locations.len();
    let mut live = vec![vec![0u64; words]; nl];
    let mut changed = true;
    let mut before = vec![0u64; words];
    while changed {
        changed = false;
        for l in (0..nl).rev() {
            let mut acc = vec![0u64; words];
            for tid in &thread.locations[l].out {
                let tr = thread.transition(*tid);
                let (guard, ops) = &facts[tid.0 as usize];
                before.copy_from_slice(&live[tr.dst.0 as usize]);
                live_before(guard, ops, &mut before);
                for w in 0..words {
                    acc[w] |= before[w];
                }
            }
            if acc != live[l] {
                live[l] = acc;
                changed = true;
            }
        }
    }
    let dead = |b: &Vec<u64>, i: usize| b[i / 64] & (1 << (i % 64)) == 0;
    let registers = live
        .iter()
        .map(|b| {
            (0..n)
                .filter(|&i| slots.at[i].2 && dead(b, i))
                .map(|i| slots.at[i].0)
                .collect()
        })
        .collect();
    // The cells' bits, moved to positions of their own.
    let own: Vec<usize> = (0..n).filter(|&i| !slots.at[i].2).collect();
    let cells = own
        .iter()
        .map(|&i| (slots.at[i].0, slots.at[i].1))
        .collect();
    let live_cells = live
        .iter()
        .map(|b| {
            let mut out = vec![0u64; own.len().div_ceil(64)];
            for (k, &i) in own.iter().enumerate() {
                if !dead(b, i) {
                    out[k / 64] |= 1 << (k % 64);
                }
            }
            out
        })
        .collect();
    (
        registers,
        OwnCells {
            cells,
            live: live_cells,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lower(body: &str) -> Program {
        let src = format!(
            "#include <string.h>\n\
             int __VERIFIER_nondet_int(void);\n\
             int main(void) {{ {body} return 0; }}"
        );
        crate::frontend::load_str("live.c", &src, &Default::default()).expect("lowers")
    }

    /// The locations of thread 0 and how many cells of variable `name` are dead there.
    fn dead_cells_of(p: &Program, name: &str) -> Vec<usize> {
        let live = Liveness::new(p);
        let t = p.thread(ThreadId(0));
        (0..t.locations.len())
            .map(|l| {
                live.dead_cells(t.id, crate::ir::LocId(l as u32))
                    .filter(|(v, _)| p.var(*v).name.contains(name))
                    .count()
            })
            .collect()
    }

    /// A buffer written whole by name before each read is dead where the loop starts again
    /// (every cell); one read through a pointer after a write at an unknown index is live
    /// wherever that read may follow.
    #[test]
    fn cells_written_before_they_are_read_are_dead() {
        let p = lower(
            "char b[8]; int n = 0; \
             while (__VERIFIER_nondet_int()) { \
               for (int i = 0; i < 8; i++) b[i] = 'a'; \
               b[7] = 0; n += (int)strlen(b); } \
             if (n < 0) return 1;",
        );
        let dead = dead_cells_of(&p, "b[]");
        assert!(dead.contains(&8), "all 8 cells dead somewhere: {dead:?}");
        assert!(
            dead.iter().any(|&d| d < 8),
            "and live where strlen reads them"
        );

        let p = lower(
            "char b[8]; memset(b, 0, sizeof b); \
             int k = __VERIFIER_nondet_int() & 7; b[k] = 'x'; \
             if (strlen(b) > 7) return 1;",
        );
        // The write at an unknown index kills nothing: strlen's reads keep every cell live
        // before it (while the memset before it writes them one by one, fewer are dead).
        let dead = dead_cells_of(&p, "b[]");
        let t = p.thread(ThreadId(0));
        let at_k = (t.transitions.iter())
            .find(|tr| {
                tr.ops.iter().any(|o| {
                    matches!(o, Op::Assign { place: Place::Var { var, index: Some(i) }, .. }
                        if p.var(*var).name.contains("b[]") && i.as_const().is_none())
                })
            })
            .expect("the write at k");
        assert_eq!(dead[at_k.src.0 as usize], 0, "{dead:?}");
        assert!(dead.iter().any(|&d| d > 0 && d < 8), "{dead:?}");
    }

    /// A register copied into another that nothing reads is dead, though the copy reads it:
    /// a function's result the caller drops.
    #[test]
    fn a_value_copied_only_into_dead_registers_is_dead() {
        let src = "int __VERIFIER_nondet_int(void);\n\
                   static int count(int m) { int r = 0; \
                     while (r < m && __VERIFIER_nondet_int()) r++; return r; }\n\
                   int main(void) { int c = count(5); (void)c; \
                     return __VERIFIER_nondet_int() ? 1 : 0; }";
        let p = crate::frontend::load_str("live.c", src, &Default::default()).expect("lowers");
        let live = Liveness::new(&p);
        let t = p.thread(ThreadId(0));
        let copy = (t.transitions.iter())
            .find_map(|tr| {
                tr.ops.iter().find_map(|o| match o {
                    Op::Assign {
                        place: Place::Var { var, index: None },
                        value,
                    } if p.var(*var).name.contains("count$ret") => {
                        let mut from = None;
                        value.for_each_place(&mut |pl| from = Some(pl.vars()[0]));
                        Some((tr.src, from.expect("copies a register")))
                    }
                    _ => None,
                })
            })
            .expect("the copy of the result");
        assert!(live.dead(t.id, copy.0).contains(&copy.1));
    }
}
