//! Inputs with finitely many behaviours, for the thread-modular proof ([`super::modular`]):
//! an input (a `Havoc` of a thread's own scalar) whose value, and the values copied from it
//! (through casts that do not narrow), is only compared with constants, tested for zero, or
//! used as the index of an array element. Between the points where a comparison changes its
//! answer (each constant and its neighbours, the ends and the sign boundary of the type) every
//! value behaves as every other, and an index tells apart only the values in the array's
//! bounds; so one value of each such stretch, with each point and each index in bounds,
//! behaves as all values do (the partition of the input domain that abstract interpreters
//! such as Astrée compute with intervals, here made explicit).

use crate::ir::{BinOp, Expr, Op, Place, Program, Ty, UnOp, VarId, VarScope};
use rustc_hash::{FxHashMap, FxHashSet};

/// Most elements of an array an input may index (each is a value the proof takes).
const MAX_INDEXED: usize = 256;

/// Per input variable whose value has finitely many behaviours: values that stand for all.
pub(super) fn enumerated(prog: &Program) -> FxHashMap<VarId, Vec<i128>> {
    let mut roots: FxHashSet<VarId> = FxHashSet::default();
    for tr in prog.threads.iter().flat_map(|t| &t.transitions) {
        for op in &tr.ops {
            if let Op::Havoc {
                place: Place::Var { var, index: None },
                ..
            } = op
            {
                if scalar(prog, *var) {
                    roots.insert(*var);
                }
            }
        }
    }
    // The variables that may hold a copy of an input: union-find over copies.
    let mut class = Classes::default();
    for &r in &roots {
        class.find(r);
    }
    let mut changed = true;
    while changed {
        changed = false;
        for tr in prog.threads.iter().flat_map(|t| &t.transitions) {
            for op in &tr.ops {
                if let Op::Assign {
                    place: Place::Var { var, index: None },
                    value,
                } = op
                {
                    let Some(src) = copied(prog, value) else {
                        continue;
                    };
                    if class.contains(src) && scalar(prog, *var) && class.union(src, *var) {
                        changed = true;
                    }
                }
            }
        }
    }
    let mut uses = Uses {
        prog,
        class: &mut class,
        points: FxHashMap::default(),
        bad: FxHashSet::default(),
        reached: FxHashSet::default(),
    };
    for tr in prog.threads.iter().flat_map(|t| &t.transitions) {
        uses.expr(&tr.guard, true);
        for op in &tr.ops {
            match op {
                Op::Assign { place, value } => {
                    let copy = matches!(place, Place::Var { var, index: None }
                        if copied(prog, value).is_some_and(|s| uses.class.contains(s))
                            && uses.class.contains(*var));
                    if !copy {
                        uses.expr(value, false);
                    }
                    uses.place(place);
                }
                Op::Havoc { place, .. } => uses.place(place),
                Op::Spawn { args, .. } => {
                    for (_, e) in args {
                        uses.expr(e, false);
                    }
                }
                Op::AtomicBegin | Op::AtomicEnd => {}
            }
        }
    }
    let Uses {
        points,
        mut bad,
        reached,
        ..
    } = uses;
    // A copy in an object whose address is taken may be read by bytes through it.
    let members: Vec<VarId> = class.parent.keys().copied().collect();
    for v in members {
        if reached.contains(&prog.var(v).placement().object) {
            let c = class.find(v);
            bad.insert(c);
        }
    }
    roots
        .into_iter()
        .filter_map(|r| {
            let c = class.find(r);
            if bad.contains(&c) {
                return None;
            }
            let ty = prog.var(r).elem.ty();
            Some((
                r,
                representatives(ty, points.get(&c).map_or(&[][..], |p| p)),
            ))
        })
        .collect()
}

/// Whether `v` is a thread's own scalar.
fn scalar(prog: &Program, v: VarId) -> bool {
    let var = prog.var(v);
    matches!(var.scope, VarScope::Local(_)) && var.len == 1
}

/// The variable `e` loads whole, in its own type, through casts that do not narrow.
fn copied(prog: &Program, e: &Expr) -> Option<VarId> {
    match e {
        Expr::Cast { arg, ty } if ty.bits >= width(arg) => copied(prog, arg),
        Expr::Load {
            place: Place::Var { var, index: None },
            ty,
        } if *ty == prog.var(*var).elem.ty() => Some(*var),
        _ => None,
    }
}

/// The width of `e`'s value, where it is known from its form (0 where not: no cast of it
/// then counts as not narrowing).
fn width(e: &Expr) -> u8 {
    match e {
        Expr::Cast { ty, .. } | Expr::Load { ty, .. } | Expr::Const { ty, .. } => ty.bits,
        _ => u8::MAX,
    }
}

/// One value of each stretch between `points` (and the type's ends and sign boundary), and
/// the points themselves, in `ty`.
fn representatives(ty: Ty, points: &[i128]) -> Vec<i128> {
    let half = 1i128 << (ty.bits.max(1) - 1);
    let mut p: Vec<i128> = [ty.min(), ty.max(), -1, 0, 1, half - 1, half]
        .into_iter()
        .chain(points.iter().flat_map(|&c| [c - 1, c, c + 1]))
        .map(|v| ty.wrap(v))
        .collect();
    p.sort_unstable();
    p.dedup();
    let gaps: Vec<i128> = p
        .windows(2)
        .filter(|w| w[1] - w[0] > 1)
        .map(|w| w[0] + 1)
        .collect();
    p.extend(gaps);
    p.sort_unstable();
    p
}

/// Classes of variables that hold copies of the same inputs.
#[derive(Default)]
struct Classes {
    parent: FxHashMap<VarId, VarId>,
}

impl Classes {
    fn contains(&self, v: VarId) -> bool {
        self.parent.contains_key(&v)
    }

    fn find(&mut self, v: VarId) -> VarId {
        let p = *self.parent.entry(v).or_insert(v);
        if p == v {
            return v;
        }
        let r = self.find(p);
        self.parent.insert(v, r);
        r
    }

    /// Joins `b` to `a`'s class; whether that changed anything.
    fn union(&mut self, a: VarId, b: VarId) -> bool {
        let new = !self.contains(b);
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.parent.insert(rb, ra);
            return true;
        }
        new
    }
}

/// How the programs uses the copies of inputs.
struct Uses<'a> {
    prog: &'a Program,
    class: &'a mut Classes,
    /// Per class: the constants its values are compared with, and the indices in bounds.
    points: FxHashMap<VarId, Vec<i128>>,
    /// Classes used otherwise.
    bad: FxHashSet<VarId>,
    /// Objects whose addresses are taken or dereferenced.
    reached: FxHashSet<VarId>,
}

impl Uses<'_> {
    /// The class of the input copy `e` loads, if it is one.
    fn loaded(&mut self, e: &Expr) -> Option<VarId> {
        let v = copied(self.prog, e)?;
        self.class.contains(v).then(|| self.class.find(v))
    }

    fn point(&mut self, c: VarId, p: i128) {
        self.points.entry(c).or_default().push(p);
    }

    /// Records how `e` uses the copies: `zero_test` says that `e`'s value is only tested for
    /// zero. Any other use than a test for zero, a comparison with a constant or an index
    /// marks the class bad.
    fn expr(&mut self, e: &Expr, zero_test: bool) {
        if let Some(c) = self.loaded(e) {
            if zero_test {
                self.point(c, 0);
            } else {
                self.bad.insert(c);
            }
            return;
        }
        match e {
            Expr::Const { .. } => {}
            Expr::Load { place, .. } => {
                // (A copy read otherwise than whole in its own type.)
                if let Place::Var { var, .. } = place {
                    self.not_copied(*var);
                }
                self.place(place)
            }
            // (An address out of bounds is a value, whose arithmetic may tell them apart.)
            Expr::AddrOf { var, index } => {
                self.reached.insert(self.prog.var(*var).placement().object);
                self.expr(index, false);
            }
            Expr::Unary { op, arg, .. } => self.expr(arg, *op == UnOp::Not),
            Expr::Binary { op, lhs, rhs, .. } => {
                use BinOp::*;
                if matches!(op, Eq | Ne | Lt | Le | Gt | Ge) {
                    for (a, b) in [(lhs, rhs), (rhs, lhs)] {
                        if let Some(k) = b.as_const() {
                            if let Some(c) = self.loaded(a) {
                                self.point(c, k);
                                return;
                            }
                        }
                    }
                }
                let logical = matches!(op, And | Or);
                self.expr(lhs, logical);
                self.expr(rhs, logical);
            }
            Expr::Cast { arg, .. } => self.expr(arg, false),
            Expr::Ite {
                cond, then, els, ..
            } => {
                self.expr(cond, true);
                self.expr(then, false);
                self.expr(els, false);
            }
        }
    }

    /// Records the uses in a place's index and address expressions.
    fn place(&mut self, p: &Place) {
        match p {
            Place::Var { var, index } => {
                if let Some(i) = index {
                    self.not_copied(*var);
                    self.index(*var, i);
                }
            }
            Place::Deref { addr, targets, .. } => {
                for t in targets {
                    self.reached.insert(self.prog.var(*t).placement().object);
                }
                self.expr(addr, false)
            }
        }
    }

    /// Marks the class of `v` bad, if it has one: `v` is read or written other than whole.
    fn not_copied(&mut self, v: VarId) {
        if self.class.contains(v) {
            let c = self.class.find(v);
            self.bad.insert(c);
        }
    }

    /// Records index `i` of an element of `var` accessed: a copy of an input as the index
    /// (times 1) takes each index in bounds (any other is out of bounds, which the proof
    /// does not pass).
    fn index(&mut self, var: VarId, i: &Expr) {
        let bare = match i {
            Expr::Binary {
                op: BinOp::Mul,
                lhs,
                rhs,
                ..
            } if rhs.as_const() == Some(1) => lhs,
            _ => i,
        };
        let len = self.prog.var(var).len as usize;
        if let Some(c) = self.loaded(bare) {
            if len <= MAX_INDEXED {
                for k in 0..len as i128 {
                    self.point(c, k);
                }
                self.point(c, len as i128);
                return;
            }
            self.bad.insert(c);
            return;
        }
        self.expr(i, false);
    }
}
