//! The IR's semantics as formulas: symbolic execution of transitions, weakest preconditions,
//! the initial state and the undefined-behaviour side conditions.
//!
//! Values are mathematical integers kept in the range of their C type: every arithmetic result
//! is wrapped exactly as [`crate::semantics`] does (`mod 2^n`), so the verifier, the
//! interpreter and the explorer agree. Operations outside linear integer arithmetic with
//! constants (bitwise operations other than masks and complements, shifts by a variable amount)
//! are over-approximated by a fresh value of the result type: sound for safety proofs, and any
//! counterexample is replayed concretely before it is believed.
//!
//! Seed 002, "Iterative model checking": the labels of the ART are conjunctions of weakest
//! preconditions of infeasible error paths (as Impara does), with inputs eliminated by
//! quantifier elimination.

use crate::ir::*;
use crate::smt::{Sort, Term};
use std::rc::Rc;

/// A symbolic state: the value of every variable as a term.
#[derive(Clone, Debug)]
pub struct SymState {
    /// Indexed by [`VarId`]: integers for scalars, arrays for arrays.
    pub vals: Vec<Term>,
}

/// One transition executed symbolically.
#[derive(Clone, Debug)]
pub struct SymStep {
    /// The guard over the pre-state.
    pub guard: Term,
    /// Holds when the transition performs an operation without defined behaviour.
    pub undefined: Term,
    /// The post-state.
    pub post: SymState,
    /// Inputs read (and over-approximated values), with their range constraints.
    pub inputs: Vec<(Rc<str>, Sort)>,
    /// Range constraints of the inputs.
    pub input_ranges: Term,
}

impl SymStep {
    /// Holds in a pre-state where the transition is enabled: its guard holds for some input
    /// in range.
    pub fn enabled(&self) -> Term {
        Term::exists(
            self.inputs.clone(),
            Term::and([self.guard.clone(), self.input_ranges.clone()]),
        )
    }
}

/// Encodes a program's IR.
pub struct Encoder<'p> {
    prog: &'p Program,
    /// The program's objects, for accesses by bytes.
    objects: Objects,
    names: Vec<Rc<str>>,
    index: std::collections::HashMap<Rc<str>, usize>,
    fresh: std::cell::Cell<u64>,
}

fn pow2(n: u8) -> i128 {
    1i128 << n
}

/// `min ≤ t ≤ max` of a type.
pub fn in_range(t: &Term, ty: Ty) -> Term {
    Term::and([
        Term::le(Term::int(ty.min()), t.clone()),
        Term::le(t.clone(), Term::int(ty.max())),
    ])
}

/// The C conversion of an integer term to `ty`.
pub fn wrap(t: Term, ty: Ty) -> Term {
    if let Term::Int(v) = t {
        return Term::Int(ty.wrap(v));
    }
    if ty.bits == 1 {
        return Term::ite(Term::eq(t, Term::int(0)), Term::int(0), Term::int(1));
    }
    if ty.signed {
        let half = pow2(ty.bits - 1);
        Term::sub(
            Term::modulo(Term::add(t, Term::int(half)), Term::int(pow2(ty.bits))),
            Term::int(half),
        )
    } else {
        Term::modulo(t, Term::int(pow2(ty.bits)))
    }
}

/// C division truncating toward zero: `sign(a)·sign(b)·(|a| div |b|)`.
fn c_div(a: Term, b: Term) -> Term {
    let abs = |x: Term| Term::ite(Term::lt(x.clone(), Term::int(0)), Term::neg(x.clone()), x);
    let q = Term::div(abs(a.clone()), abs(b.clone()));
    let a_neg = Term::lt(a, Term::int(0));
    let b_neg = Term::lt(b, Term::int(0));
    let same = Term::eq(bool_int(a_neg), bool_int(b_neg));
    Term::ite(same, q.clone(), Term::neg(q))
}

impl<'p> Encoder<'p> {
    /// An encoder for a program.
    pub fn new(prog: &'p Program) -> Self {
        let names: Vec<Rc<str>> = prog
            .vars
            .iter()
            .map(|v| Rc::from(format!("{}#{}", v.name, v.id.0).as_str()))
            .collect();
        let index = names
            .iter()
            .enumerate()
            .map(|(i, n): (usize, &Rc<str>)| (n.clone(), i))
            .collect();
        Encoder {
            prog,
            objects: Objects::new(prog),
            names,
            index,
            fresh: std::cell::Cell::new(0),
        }
    }

    /// The program.
    pub fn program(&self) -> &'p Program {
        self.prog
    }

    /// Whether a variable is an array in formulas.
    pub fn is_array(&self, v: VarId) -> bool {
        let var = self.prog.var(v);
        var.is_array || var.len > 1
    }

    /// The sort of a variable.
    pub fn sort(&self, v: VarId) -> Sort {
        if self.is_array(v) {
            Sort::Array
        } else {
            Sort::Int
        }
    }

    /// The term naming a variable's current value.
    pub fn var(&self, v: VarId) -> Term {
        Term::Var(self.names[v.0 as usize].clone(), self.sort(v))
    }

    /// The state in which every variable is itself (for weakest preconditions and labels).
    pub fn identity(&self) -> SymState {
        SymState {
            vals: self.prog.vars.iter().map(|v| self.var(v.id)).collect(),
        }
    }

    /// The state whose values are fresh copies named with `suffix` (for path formulas).
    pub fn renamed(&self, suffix: &str) -> SymState {
        SymState {
            vals: self
                .prog
                .vars
                .iter()
                .map(|v| {
                    Term::Var(
                        format!("{}{suffix}", self.names[v.id.0 as usize]).into(),
                        self.sort(v.id),
                    )
                })
                .collect(),
        }
    }

    /// Range invariants of the scalar variables in a state.
    pub fn ranges(&self, s: &SymState) -> Term {
        Term::and(
            self.prog
                .vars
                .iter()
                .filter(|v| !self.is_array(v.id))
                .map(|v| in_range(&s.vals[v.id.0 as usize], v.elem.ty())),
        )
    }

    /// The initial state as a formula over `s`: initialised variables have their values;
    /// `Init::Nondet` ones are unconstrained (in range).
    pub fn initial(&self, s: &SymState) -> Term {
        let mut cs = Vec::new();
        for v in &self.prog.vars {
            let t = &s.vals[v.id.0 as usize];
            let vals: Option<Vec<i128>> = match &v.init {
                Init::Zero => Some(vec![0; v.len as usize]),
                Init::Values(xs) => {
                    let mut x: Vec<i128> = xs.iter().map(|x| v.elem.ty().wrap(*x)).collect();
                    x.resize(v.len as usize, 0);
                    Some(x)
                }
                Init::Nondet => None,
            };
            match (vals, self.is_array(v.id)) {
                (Some(xs), true) => {
                    for (i, x) in xs.iter().enumerate() {
                        cs.push(Term::eq(
                            Term::select(t.clone(), Term::int(i as i128)),
                            Term::int(*x),
                        ));
                    }
                }
                (Some(xs), false) => cs.push(Term::eq(t.clone(), Term::int(xs[0]))),
                (None, false) => cs.push(in_range(t, v.elem.ty())),
                (None, true) => {}
            }
        }
        Term::and(cs)
    }

    fn fresh_input(&self, ty: Ty, out: &mut Vec<(Rc<str>, Sort)>, ranges: &mut Vec<Term>) -> Term {
        let k = self.fresh.get();
        self.fresh.set(k + 1);
        let name: Rc<str> = format!("in!{k}").into();
        let t = Term::Var(name.clone(), Sort::Int);
        ranges.push(in_range(&t, ty));
        out.push((name, Sort::Int));
        t
    }

    /// Executes transition `tr` of a thread symbolically from `pre`.
    pub fn step(&self, tr: &Transition, pre: &SymState) -> SymStep {
        let mut cx = Cx {
            enc: self,
            inputs: Vec::new(),
            ranges: Vec::new(),
            ub: Vec::new(),
        };
        let guard = cx.truth(&tr.guard, pre);
        let mut post = pre.clone();
        for op in &tr.ops {
            match op {
                Op::Assign { place, value } => {
                    let v = cx.expr(value, &post);
                    cx.write(place, v, value.ty(), &mut post);
                }
                Op::Havoc { place, ty } => {
                    let v = self.fresh_input(*ty, &mut cx.inputs, &mut cx.ranges);
                    cx.write(place, v, *ty, &mut post);
                }
                Op::Spawn { args, .. } => {
                    let vals: Vec<(VarId, Term)> = args
                        .iter()
                        .map(|(v, e)| (*v, wrap(cx.expr(e, &post), self.prog.var(*v).elem.ty())))
                        .collect();
                    for (v, t) in vals {
                        post.vals[v.0 as usize] = t;
                    }
                }
                Op::AtomicBegin | Op::AtomicEnd => {}
            }
        }
        SymStep {
            guard,
            undefined: Term::or(cx.ub),
            post,
            inputs: cx.inputs,
            input_ranges: Term::and(cx.ranges),
        }
    }

    /// The weakest precondition of `post` under transition `tr`: every execution of `tr`
    /// from a state satisfying the result (that is enabled and defined) ends in `post`, for
    /// every input. Quantifiers over inputs remain; eliminate them with the solver.
    pub fn wp(&self, tr: &Transition, post: &Term) -> Term {
        self.wp_of(&self.step(tr, &self.identity()), post)
    }

    /// [`Encoder::wp`] of a transition already executed symbolically from
    /// [`Encoder::identity`].
    pub fn wp_of(&self, st: &SymStep, post: &Term) -> Term {
        let body = Term::implies(
            Term::and([
                st.guard.clone(),
                Term::not(st.undefined.clone()),
                st.input_ranges.clone(),
            ]),
            self.instantiate(post, &st.post),
        );
        Term::forall(st.inputs.clone(), body)
    }

    /// The value of expression `e` in symbolic state `s`. Values the encoding
    /// over-approximates are fresh variables, left free.
    pub fn eval(&self, e: &Expr, s: &SymState) -> Term {
        let mut cx = Cx {
            enc: self,
            inputs: Vec::new(),
            ranges: Vec::new(),
            ub: Vec::new(),
        };
        cx.expr(e, s)
    }

    /// A formula over the current variables, evaluated in a symbolic state.
    pub fn instantiate(&self, t: &Term, s: &SymState) -> Term {
        t.substitute(&|n, _| self.index.get(n).map(|i| s.vals[*i].clone()))
    }
}

struct Cx<'a, 'p> {
    enc: &'a Encoder<'p>,
    inputs: Vec<(Rc<str>, Sort)>,
    ranges: Vec<Term>,
    ub: Vec<Term>,
}

impl Cx<'_, '_> {
    fn over_approx(&mut self, ty: Ty) -> Term {
        self.enc.fresh_input(ty, &mut self.inputs, &mut self.ranges)
    }

    /// `f`'s encoding of an operand evaluated only when `when` holds (the right side of
    /// `&&`/`||`, an arm of `?:`): its undefined behaviour counts only then, as in the
    /// interpreter.
    fn lazily(&mut self, when: Term, f: impl FnOnce(&mut Self) -> Term) -> Term {
        let before = self.ub.len();
        let t = f(self);
        if self.ub.len() > before {
            let ub = Term::or(self.ub.split_off(before));
            self.ub.push(Term::and([when, ub]));
        }
        t
    }

    /// A condition as a formula (`e != 0`).
    fn truth(&mut self, e: &Expr, s: &SymState) -> Term {
        match e {
            Expr::Const { value, .. } => Term::bool(*value != 0),
            Expr::Binary { op, lhs, rhs, .. } if op.is_predicate() => match op {
                BinOp::And => {
                    let a = self.truth(lhs, s);
                    let b = self.lazily(a.clone(), |cx| cx.truth(rhs, s));
                    Term::and([a, b])
                }
                BinOp::Or => {
                    let a = self.truth(lhs, s);
                    let b = self.lazily(Term::not(a.clone()), |cx| cx.truth(rhs, s));
                    Term::or([a, b])
                }
                _ => {
                    let a = self.expr(lhs, s);
                    let b = self.expr(rhs, s);
                    match op {
                        BinOp::Lt => Term::lt(a, b),
                        BinOp::Le => Term::le(a, b),
                        BinOp::Gt => Term::lt(b, a),
                        BinOp::Ge => Term::le(b, a),
                        BinOp::Eq => Term::eq(a, b),
                        _ => Term::not(Term::eq(a, b)),
                    }
                }
            },
            Expr::Unary {
                op: UnOp::Not, arg, ..
            } => Term::not(self.truth(arg, s)),
            e => {
                let v = self.expr(e, s);
                Term::not(Term::eq(v, Term::int(0)))
            }
        }
    }

    /// An integer expression.
    fn expr(&mut self, e: &Expr, s: &SymState) -> Term {
        match e {
            Expr::Const { value, .. } => Term::int(*value),
            Expr::Load { place, ty } => {
                let v = self.read(place, s);
                self.convert(v, place_ty(self.enc.prog, place), *ty)
            }
            Expr::AddrOf { var, index } => {
                let i = self.expr(index, s);
                let v = self.enc.prog.var(*var);
                let stride = v.placement().stride as i128;
                let i = if stride == 1 {
                    i
                } else {
                    Term::mul(Term::int(stride), i)
                };
                Term::add(Term::int(v.base_address()), i)
            }
            Expr::Unary { op, arg, ty } => match op {
                UnOp::Not => bool_int(Term::not(self.truth(arg, s))),
                UnOp::Neg => {
                    let v = self.expr(arg, s);
                    self.signed(Term::neg(v), *ty)
                }
                UnOp::BitNot => wrap(Term::sub(Term::neg(self.expr(arg, s)), Term::int(1)), *ty),
            },
            Expr::Binary { op, lhs, rhs, ty } => {
                if op.is_predicate() {
                    return bool_int(self.truth(e, s));
                }
                let a = self.expr(lhs, s);
                let b = self.expr(rhs, s);
                let unsigned = !ty.signed && !lhs.ty().signed && !rhs.ty().signed;
                self.arith(*op, a, b, *ty, unsigned)
            }
            Expr::Cast { arg, ty } => {
                // A round trip through a type at least as wide changes no value
                // (`(unsigned)(int)u`): the solver need not see it.
                if let Expr::Cast {
                    arg: inner,
                    ty: mid,
                } = &**arg
                {
                    if inner.ty() == *ty && mid.bits >= ty.bits {
                        return self.expr(inner, s);
                    }
                }
                let v = self.expr(arg, s);
                self.convert(v, arg.ty(), *ty)
            }
            Expr::Ite {
                cond,
                then,
                els,
                ty,
            } => {
                let c = self.truth(cond, s);
                let a = self.lazily(c.clone(), |cx| cx.expr(then, s));
                let b = self.lazily(Term::not(c.clone()), |cx| cx.expr(els, s));
                wrap(Term::ite(c, a, b), *ty)
            }
        }
    }

    /// Signed arithmetic: the exact result, which must fit (overflow is undefined); unsigned
    /// arithmetic wraps.
    fn signed(&mut self, r: Term, ty: Ty) -> Term {
        if !ty.signed || ty.bits == 1 {
            return wrap(r, ty);
        }
        if let Term::Int(v) = r {
            if v < ty.min() || v > ty.max() {
                self.ub.push(Term::True);
            }
            return Term::Int(ty.wrap(v));
        }
        self.ub.push(Term::not(in_range(&r, ty)));
        r
    }

    fn convert(&mut self, v: Term, from: Ty, to: Ty) -> Term {
        // A value of `from` fits `to` without change when `to` includes `from`'s range.
        if to.bits != 1 && to.min() <= from.min() && from.max() <= to.max() {
            return v;
        }
        wrap(v, to)
    }

    /// `a op b` at type `ty`; `unsigned`: the operands and the result are of unsigned types.
    fn arith(&mut self, op: BinOp, a: Term, b: Term, ty: Ty, unsigned: bool) -> Term {
        use BinOp::*;
        match op {
            Add => self.signed(Term::add(a, b), ty),
            Sub => self.signed(Term::sub(a, b), ty),
            Mul => self.signed(Term::mul(a, b), ty),
            Div | Rem => {
                self.ub.push(Term::eq(b.clone(), Term::int(0)));
                if unsigned {
                    // Values of unsigned types are not negative: C's division is the
                    // solver's, and the result fits.
                    return if op == Div {
                        Term::div(a, b)
                    } else {
                        Term::modulo(a, b)
                    };
                }
                if ty.signed {
                    // INT_MIN / -1 overflows.
                    self.ub.push(Term::and([
                        Term::eq(a.clone(), Term::int(ty.min())),
                        Term::eq(b.clone(), Term::int(-1)),
                    ]));
                }
                let q = c_div(a.clone(), b.clone());
                if op == Div {
                    wrap(q, ty)
                } else {
                    wrap(Term::sub(a, Term::mul(b, q)), ty)
                }
            }
            Shl | Shr => {
                let width = ty.bits.max(32) as i128;
                // By a constant `k`: multiplication or floor division (Euclidean, positive
                // divisor: an arithmetic shift) by 2^k.
                let by = |k: i128| {
                    let p = Term::int(1i128 << k);
                    if op == Shl {
                        wrap(Term::mul(a.clone(), p), ty)
                    } else {
                        wrap(Term::div(a.clone(), p), ty)
                    }
                };
                match b {
                    Term::Int(k) if k >= 0 && k < width => by(k),
                    Term::Int(_) => {
                        self.ub.push(Term::True);
                        self.over_approx(ty)
                    }
                    b => {
                        self.ub.push(Term::or([
                            Term::lt(b.clone(), Term::int(0)),
                            Term::le(Term::int(width), b.clone()),
                        ]));
                        // By an amount computed at run time (`(n >> i) & 1` in a loop): the
                        // case of each amount, so that a state that knows it knows the result.
                        let mut t = self.over_approx(ty);
                        for k in (0..width).rev() {
                            t = Term::ite(Term::eq(b.clone(), Term::int(k)), by(k), t);
                        }
                        t
                    }
                }
            }
            BitAnd | BitOr | BitXor => {
                let (x, m) = match (&a, &b) {
                    (_, Term::Int(m)) => (a.clone(), *m),
                    (Term::Int(m), _) => (b.clone(), *m),
                    _ => return self.over_approx(ty),
                };
                match bit_op(op, x, m, ty) {
                    Some(t) => t,
                    None => self.over_approx(ty),
                }
            }
            Lt | Le | Gt | Ge | Eq | Ne | And | Or => unreachable!("predicates handled by truth"),
        }
    }

    fn read(&mut self, p: &Place, s: &SymState) -> Term {
        match p {
            Place::Var { var, index } => {
                let t = s.vals[var.0 as usize].clone();
                if !self.enc.is_array(*var) {
                    if let Some(i) = index {
                        let i = self.expr(i, s);
                        self.ub.push(Term::not(Term::eq(i, Term::int(0))));
                    }
                    self.allocated(s, *var, Term::bool(true), Term::int(0));
                    return t;
                }
                let i = match index {
                    Some(i) => self.expr(i, s),
                    None => Term::int(0),
                };
                self.bounds(*var, &i);
                self.allocated(s, *var, Term::bool(true), i.clone());
                Term::select(t, i)
            }
            Place::Deref {
                addr,
                ty,
                targets,
                header,
            } => {
                let a = self.expr(addr, s);
                if let Some(cells) = match a {
                    Term::Int(x) if !header => self.spread_bytes(x, *ty, targets),
                    _ => None,
                } {
                    // Byte by byte, little-endian; padding reads as 0.
                    let mut x = Term::int(0);
                    for (b, c) in cells.into_iter().enumerate() {
                        let Some((v, k, at)) = c else {
                            continue;
                        };
                        self.allocated(s, v, Term::bool(true), Term::int(k));
                        let cell = self.enc.prog.var(v).elem.ty();
                        let value = self.element(s, v, Term::int(k));
                        let byte = bytes_of_cell(value, cell, at, 1);
                        x = Term::add(x, Term::mul(byte, Term::int(pow2(8 * b as u8))));
                    }
                    return wrap(x, *ty);
                }
                let mut ok = Vec::new();
                let mut val = if *header {
                    // No block starts at the address: nothing was allocated there.
                    Term::int(crate::ir::NEVER_ALLOCATED)
                } else {
                    self.over_approx(*ty)
                };
                for t in targets {
                    if let Some((inside, rel)) = self.byte_target(*t, &a, *ty) {
                        // Bytes of a byte array, little-endian.
                        ok.push(inside.clone());
                        self.allocated_bytes(s, *t, &inside, &rel, cell_bytes_of(*ty));
                        let cur = &s.vals[t.0 as usize];
                        let x = (0..cell_bytes_of(*ty)).fold(Term::int(0), |x, k| {
                            let byte = Term::select(
                                cur.clone(),
                                Term::add(rel.clone(), Term::int(k as i128)),
                            );
                            let byte = Term::modulo(byte, Term::int(256));
                            Term::add(x, Term::mul(byte, Term::int(pow2(8 * k as u8))))
                        });
                        val = Term::ite(inside, wrap(x, *ty), val);
                        continue;
                    }
                    for (r, inside, idx) in self.sub_cell_targets(*t, &a, *ty) {
                        // Bytes r.. of a wider cell.
                        ok.push(inside.clone());
                        self.allocated(s, *t, inside.clone(), idx.clone());
                        let cell = self.enc.prog.var(*t).elem.ty();
                        let part =
                            bytes_of_cell(self.element(s, *t, idx), cell, r, cell_bytes_of(*ty));
                        val = Term::ite(inside, wrap(part, *ty), val);
                    }
                    let (inside, idx) = self.target(*t, &a, *ty);
                    ok.push(inside.clone());
                    self.allocated(s, *t, inside.clone(), idx.clone());
                    // A whole cell read as the access's type (a `long` read as a pointer), as
                    // the interpreter converts it.
                    let cell = self.enc.prog.var(*t).elem.ty();
                    let x = self.element(s, *t, idx);
                    val = Term::ite(inside, self.convert(x, cell, *ty), val);
                }
                if !header {
                    self.ub.push(Term::not(Term::or(ok)));
                }
                val
            }
        }
    }

    /// The value of element `idx` of variable `v` in `s`.
    fn element(&self, s: &SymState, v: VarId, idx: Term) -> Term {
        let cur = s.vals[v.0 as usize].clone();
        if self.enc.is_array(v) {
            Term::select(cur, idx)
        } else {
            cur
        }
    }

    /// The value of variable `v` in `s` with element `idx` set to `x`.
    fn with_element(&self, s: &SymState, v: VarId, idx: Term, x: Term) -> Term {
        if self.enc.is_array(v) {
            Term::store(s.vals[v.0 as usize].clone(), idx, x)
        } else {
            x
        }
    }

    /// Whether address `a` lies in variable `t`, and the element index.
    fn target(&self, t: VarId, a: &Term, width: Ty) -> (Term, Term) {
        let v = self.enc.prog.var(t);
        let base = v.base_address();
        let len = v.len as i128;
        let stride = v.placement().stride as i128;
        if v.placement.is_some() && !v.elem.is_sync() && cell_bytes(v.elem) != cell_bytes_of(width)
        {
            // An access of another width than the cell's (bytes of it, or across cells):
            // not this cell; an address no target takes is undefined (the verifier gives up).
            return (Term::bool(false), Term::int(0));
        }
        let rel = Term::sub(a.clone(), Term::int(base));
        let mut inside = vec![
            Term::le(Term::int(base), a.clone()),
            Term::lt(a.clone(), Term::int(base + len * stride)),
        ];
        if stride == 1 {
            return (Term::and(inside), rel);
        }
        inside.push(Term::eq(
            Term::modulo(rel.clone(), Term::int(stride)),
            Term::int(0),
        ));
        (Term::and(inside), Term::div(rel, Term::int(stride)))
    }

    /// When the cells of variable `t` are integers wider than an access of `width`: per byte
    /// offset `r` the access may have inside a cell, whether address `a` lies with all its
    /// bytes in one cell at that offset, and the cell's index. The interpreter performs such
    /// accesses on the cell's bytes, little-endian ([`crate::interp::Machine`]).
    fn sub_cell_targets(&self, t: VarId, a: &Term, width: Ty) -> Vec<(u32, Term, Term)> {
        let v = self.enc.prog.var(t);
        let ElemKind::Int(cell) = v.elem else {
            return Vec::new();
        };
        let (big, small) = (cell_bytes_of(cell), cell_bytes_of(width));
        if v.placement.is_none() || small >= big {
            return Vec::new();
        }
        let base = v.base_address();
        let stride = v.placement().stride as i128;
        let rel = Term::sub(a.clone(), Term::int(base));
        (0..=big - small)
            .map(|r| {
                let at = Term::sub(rel.clone(), Term::int(r as i128));
                let inside = Term::and([
                    Term::le(Term::int(0), at.clone()),
                    Term::lt(at.clone(), Term::int(v.len as i128 * stride)),
                    Term::eq(Term::modulo(at.clone(), Term::int(stride)), Term::int(0)),
                ]);
                (r, inside, Term::div(at, Term::int(stride)))
            })
            .collect()
    }

    /// For an access of `width` at the constant address `addr` that is not one cell of that
    /// width (a `long` over two `int`s, a struct's bytes in a by-value copy): the cell that
    /// holds each byte (variable, element, the byte's position in the cell; `None` for
    /// padding), as the interpreter performs such accesses ([`crate::interp::Machine`]).
    fn spread_bytes(
        &self,
        addr: i128,
        width: Ty,
        targets: &[VarId],
    ) -> Option<Vec<Option<(VarId, i128, u32)>>> {
        let (obj, _) = decode_address(addr)?;
        let prog = self.enc.prog;
        let bytes = cell_bytes_of(width);
        // Only an object the access may reach, laid out in bytes, and only inside it (past
        // its end the access is undefined, as in the interpreter).
        let reachable = targets
            .iter()
            .any(|t| prog.var(*t).placement().object == obj);
        if !reachable || self.enc.objects.inside_bytes(addr, bytes) != Some(true) {
            return None;
        }
        let at = |x: i128| {
            self.enc
                .objects
                .byte_cell(prog, x)
                .map(|(v, k, w)| (v, k as i128, w))
        };
        let cells: Vec<Option<(VarId, i128, u32)>> =
            (0..bytes as i128).map(|b| at(addr + b)).collect();
        // A status cell is no memory of the program: an access of it is undefined.
        if cells
            .iter()
            .flatten()
            .any(|(v, _, _)| prog.var(*v).allocation_status)
        {
            return None;
        }
        let one_cell = cells.iter().enumerate().all(|(b, c)| {
            c.is_some_and(|(v, k, w)| {
                Some((v, k, 0)) == cells[0]
                    && w == b as u32
                    && cell_bytes(prog.var(v).elem) == bytes
            })
        });
        (!one_cell && cells.iter().any(Option::is_some)).then_some(cells)
    }

    /// When variable `t` is a byte array and an access of `width` is wider than a byte:
    /// whether address `a` lies with all its bytes in `t`, and the index of its first byte.
    /// The interpreter performs such accesses byte by byte ([`crate::interp::Machine`]).
    fn byte_target(&self, t: VarId, a: &Term, width: Ty) -> Option<(Term, Term)> {
        let v = self.enc.prog.var(t);
        let bytes = cell_bytes_of(width);
        if v.placement.is_none()
            || v.elem.is_sync()
            || cell_bytes(v.elem) != 1
            || v.placement().stride != 1
            || bytes <= 1
            || !self.enc.is_array(t)
        {
            return None;
        }
        // The object's other cells take precedence over the array's bytes where they overlap
        // (a heap object's status cells lie in the holes of its payload), as in the
        // interpreter; the access must touch none of them.
        let object = v.placement().object;
        let others: Vec<&Var> = self
            .enc
            .prog
            .vars
            .iter()
            .filter(|u| u.id != t && u.placement.is_some_and(|p| p.object == object))
            .collect();
        if others.len() * bytes as usize > 64 {
            return None;
        }
        let base = v.base_address();
        let mut inside = vec![
            Term::le(Term::int(base), a.clone()),
            Term::le(
                Term::add(a.clone(), Term::int(bytes as i128)),
                Term::int(base + v.len as i128),
            ),
        ];
        for u in others {
            let (ub, stride) = (u.base_address(), u.placement().stride as i128);
            let end = ub + u.len as i128 * stride;
            let width = cell_bytes(u.elem) as i128;
            for k in 0..bytes as i128 {
                let x = Term::add(a.clone(), Term::int(k));
                inside.push(Term::or([
                    Term::lt(x.clone(), Term::int(ub)),
                    Term::le(Term::int(end), x.clone()),
                    Term::le(
                        Term::int(width),
                        Term::modulo(Term::sub(x, Term::int(ub)), Term::int(stride)),
                    ),
                ]));
            }
        }
        Some((Term::and(inside), Term::sub(a.clone(), Term::int(base))))
    }

    /// When variable `v` lies in a heap allocation site: accessing its element `idx` (where
    /// `when` holds) is undefined unless the element's instance is allocated in `s` and the
    /// element lies within the bytes allocated ([`crate::ir::Var::allocation_status`]), as
    /// in the interpreter.
    fn allocated(&mut self, s: &SymState, v: VarId, when: Term, idx: Term) {
        let Some(status) = self.enc.objects.status_of(v) else {
            return;
        };
        let prog = self.enc.prog;
        let p = prog.var(v).placement();
        let inst = prog.var(status).placement().stride as i128;
        let at = Term::add(
            Term::int(p.offset as i128),
            Term::mul(idx, Term::int(p.stride as i128)),
        );
        let (j, within) = match at {
            Term::Int(x) => (Term::int(x.div_euclid(inst)), Term::int(x.rem_euclid(inst))),
            at => (
                Term::div(at.clone(), Term::int(inst)),
                Term::modulo(at, Term::int(inst)),
            ),
        };
        let st = self.element(s, status, j);
        // The bytes allocated (meaningful where `st` is an allocated status).
        let bases = crate::ir::ALLOCATED_BASES;
        let (last, higher) = bases.split_last().expect("bases");
        let size = higher
            .iter()
            .rev()
            .fold(Term::sub(st.clone(), Term::int(*last)), |below, b| {
                Term::ite(
                    Term::le(Term::int(*b), st.clone()),
                    Term::sub(st.clone(), Term::int(*b)),
                    below,
                )
            });
        let end = Term::add(
            Term::sub(within, Term::int(crate::ir::ALLOCATION_HEADER)),
            Term::int(cell_bytes(prog.var(v).elem) as i128),
        );
        self.ub.push(Term::and([
            when,
            Term::or([
                Term::lt(st, Term::int(crate::ir::ALLOCATED)),
                Term::lt(size, end),
            ]),
        ]));
    }

    /// [`Self::allocated`] for the `n` bytes from element `rel` of the byte array `v`.
    fn allocated_bytes(&mut self, s: &SymState, v: VarId, when: &Term, rel: &Term, n: u32) {
        for k in 0..n {
            let idx = Term::add(rel.clone(), Term::int(k as i128));
            self.allocated(s, v, when.clone(), idx);
        }
    }

    fn bounds(&mut self, var: VarId, i: &Term) {
        let len = self.enc.prog.var(var).len as i128;
        self.ub.push(Term::or([
            Term::lt(i.clone(), Term::int(0)),
            Term::le(Term::int(len), i.clone()),
        ]));
    }

    fn write(&mut self, p: &Place, v: Term, vty: Ty, s: &mut SymState) {
        match p {
            Place::Var { var, index } => {
                if self.enc.prog.var(*var).read_only {
                    // A write to read-only memory faults, as in the interpreter.
                    self.ub.push(Term::True);
                }
                let ty = self.enc.prog.var(*var).elem.ty();
                let v = self.convert(v, vty, ty);
                if !self.enc.is_array(*var) {
                    if let Some(i) = index {
                        let i = self.expr(i, s);
                        self.ub.push(Term::not(Term::eq(i, Term::int(0))));
                    }
                    self.allocated(s, *var, Term::bool(true), Term::int(0));
                    s.vals[var.0 as usize] = v;
                    return;
                }
                let i = match index {
                    Some(i) => self.expr(i, s),
                    None => Term::int(0),
                };
                self.bounds(*var, &i);
                self.allocated(s, *var, Term::bool(true), i.clone());
                let cur = s.vals[var.0 as usize].clone();
                s.vals[var.0 as usize] = Term::store(cur, i, v);
            }
            Place::Deref {
                addr,
                targets,
                ty,
                header,
            } => {
                let a = self.expr(addr, s);
                if let Some(cells) = match a {
                    Term::Int(x) if !header => self.spread_bytes(x, *ty, targets),
                    _ => None,
                } {
                    // Byte by byte into the cells that hold them; padding is dropped.
                    for (b, c) in cells.into_iter().enumerate() {
                        let Some((var, k, at)) = c else {
                            continue;
                        };
                        if self.enc.prog.var(var).read_only {
                            self.ub.push(Term::True);
                        }
                        self.allocated(s, var, Term::bool(true), Term::int(k));
                        let cell = self.enc.prog.var(var).elem.ty();
                        let byte = Term::div(v.clone(), Term::int(pow2(8 * b as u8)));
                        let old = self.element(s, var, Term::int(k));
                        let new = with_bytes_of_cell(old, cell, at, 1, byte);
                        s.vals[var.0 as usize] = self.with_element(s, var, Term::int(k), new);
                    }
                    return;
                }
                let mut ok = Vec::new();
                // A write to read-only memory faults, as in the interpreter: no target there.
                let prog = self.enc.prog;
                for t in targets.iter().filter(|t| !prog.var(**t).read_only) {
                    if let Some((inside, rel)) = self.byte_target(*t, &a, *ty) {
                        // The value's bytes into a byte array, little-endian.
                        ok.push(inside.clone());
                        self.allocated_bytes(s, *t, &inside, &rel, cell_bytes_of(*ty));
                        let cell = self.enc.prog.var(*t).elem.ty();
                        let cur = s.vals[t.0 as usize].clone();
                        let new = (0..cell_bytes_of(*ty)).fold(cur.clone(), |arr, k| {
                            let byte = Term::modulo(
                                Term::div(v.clone(), Term::int(pow2(8 * k as u8))),
                                Term::int(256),
                            );
                            let at = Term::add(rel.clone(), Term::int(k as i128));
                            Term::store(arr, at, wrap(byte, cell))
                        });
                        s.vals[t.0 as usize] = Term::ite(inside, new, cur);
                        continue;
                    }
                    for (r, inside, idx) in self.sub_cell_targets(*t, &a, *ty) {
                        // Bytes r.. of a wider cell: the others keep their values.
                        ok.push(inside.clone());
                        self.allocated(s, *t, inside.clone(), idx.clone());
                        let cell = self.enc.prog.var(*t).elem.ty();
                        let old = self.element(s, *t, idx.clone());
                        let new = with_bytes_of_cell(old, cell, r, cell_bytes_of(*ty), v.clone());
                        let new = self.with_element(s, *t, idx, new);
                        let cur = s.vals[t.0 as usize].clone();
                        s.vals[t.0 as usize] = Term::ite(inside, new, cur);
                    }
                    let (inside, idx) = self.target(*t, &a, *ty);
                    ok.push(inside.clone());
                    self.allocated(s, *t, inside.clone(), idx.clone());
                    let ty = self.enc.prog.var(*t).elem.ty();
                    let v = self.convert(v.clone(), vty, ty);
                    let cur = s.vals[t.0 as usize].clone();
                    let new = if self.enc.is_array(*t) {
                        Term::store(cur.clone(), idx, v)
                    } else {
                        v
                    };
                    s.vals[t.0 as usize] = Term::ite(inside, new, cur);
                }
                self.ub.push(Term::not(Term::or(ok)));
            }
        }
    }
}

/// Bytes a cell of a kind holds.
fn cell_bytes(k: ElemKind) -> u32 {
    match k {
        ElemKind::Int(t) => cell_bytes_of(t),
        _ => 8,
    }
}

/// Bytes `at..at + n` of a cell of type `cell` holding `x`, little-endian, as an unsigned
/// number (the interpreter's byte-wise accesses).
fn bytes_of_cell(x: Term, cell: Ty, at: u32, n: u32) -> Term {
    let u = Term::modulo(x, Term::int(pow2(cell.bits)));
    Term::modulo(
        Term::div(u, Term::int(pow2(8 * at as u8))),
        Term::int(pow2(8 * n as u8)),
    )
}

/// The value of a cell of type `cell` holding `x` with its bytes `at..at + n` replaced by the
/// low `n` bytes of `v`.
fn with_bytes_of_cell(x: Term, cell: Ty, at: u32, n: u32, v: Term) -> Term {
    let u = Term::modulo(x, Term::int(pow2(cell.bits)));
    let (shift, span) = (Term::int(pow2(8 * at as u8)), Term::int(pow2(8 * n as u8)));
    let was = Term::modulo(Term::div(u.clone(), shift.clone()), span.clone());
    let now = Term::modulo(v, span);
    wrap(
        Term::add(
            Term::sub(u, Term::mul(was, shift.clone())),
            Term::mul(now, shift),
        ),
        cell,
    )
}

/// Bytes a value of a type takes in memory.
fn cell_bytes_of(t: Ty) -> u32 {
    (t.bits as u32).div_ceil(8)
}

/// Most bits a bitwise operation with a constant is spelled out with (beyond, its result is
/// over-approximated).
const MAX_BIT_TERMS: u32 = 16;

/// `x op m` for a constant `m`, in two's complement of width `ty.bits`: exactly, as a sum of
/// the bits of `x` where `m` (or its complement, whichever has fewer ones) has a one, each bit
/// `(x_u div 2^k) mod 2` of the unsigned value `x_u`; a low mask (`2^k - 1`) is `x_u mod 2^k`.
/// `None` when both have more than [`MAX_BIT_TERMS`] ones.
fn bit_op(op: BinOp, x: Term, m: i128, ty: Ty) -> Option<Term> {
    let bits = ty.bits.max(1);
    let modulus = pow2(bits);
    let mu = m.rem_euclid(modulus);
    let nu = modulus - 1 - mu;
    // x as an unsigned value of the type's width.
    let xu = Term::modulo(x, Term::int(modulus));
    let bit = |k: u32| Term::modulo(Term::div(xu.clone(), Term::int(1i128 << k)), Term::int(2));
    let ones = |v: i128| (0..bits as u32).filter(move |k| v >> k & 1 == 1);
    // Σ over the ones of `v` of f(bit k)·2^k.
    let sum = |v: i128, f: &dyn Fn(Term) -> Term| {
        ones(v).fold(Term::int(0), |acc, k| {
            Term::add(acc, Term::mul(f(bit(k)), Term::int(1i128 << k)))
        })
    };
    let few = |v: i128| v.count_ones() <= MAX_BIT_TERMS;
    let sparse = mu.count_ones() <= nu.count_ones();
    let r = match op {
        BinOp::BitAnd if (mu + 1).count_ones() == 1 => Term::modulo(xu.clone(), Term::int(mu + 1)),
        // x & m: the bits of x where m has ones.
        BinOp::BitAnd if sparse && few(mu) => sum(mu, &|b| b),
        BinOp::BitAnd if few(nu) => Term::sub(xu.clone(), sum(nu, &|b| b)),
        // x | m: x plus the ones of m that x lacks; or m plus x's bits outside m.
        BinOp::BitOr if sparse && few(mu) => {
            Term::add(xu.clone(), sum(mu, &|b| Term::sub(Term::int(1), b)))
        }
        BinOp::BitOr if few(nu) => Term::add(Term::int(mu), sum(nu, &|b| b)),
        // x ^ m: x with the bits of m flipped; or ~x with the bits of ~m flipped.
        BinOp::BitXor if sparse && few(mu) => Term::add(
            xu.clone(),
            sum(mu, &|b| Term::sub(Term::int(1), Term::mul(Term::int(2), b))),
        ),
        BinOp::BitXor if few(nu) => Term::add(
            Term::sub(Term::int(modulus - 1), xu.clone()),
            sum(nu, &|b| Term::sub(Term::mul(Term::int(2), b), Term::int(1))),
        ),
        _ => return None,
    };
    Some(wrap(r, ty))
}

fn place_ty(prog: &Program, p: &Place) -> Ty {
    match p {
        Place::Var { var, .. } => prog.var(*var).elem.ty(),
        Place::Deref { ty, .. } => *ty,
    }
}

fn bool_int(b: Term) -> Term {
    Term::ite(b, Term::int(1), Term::int(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::{load_str, Options};
    use crate::smt::Smt;

    fn prog(src: &str) -> Program {
        load_str("t.c", src, &Options::default()).unwrap()
    }

    /// The transition of `main` whose source line contains `text`.
    fn find<'a>(p: &'a Program, text: &str) -> &'a Transition {
        p.threads[0]
            .transitions
            .iter()
            .find(|t| {
                t.span
                    .as_ref()
                    .and_then(|s| p.source_line(s))
                    .is_some_and(|l| l.contains(text))
                    && !t.ops.is_empty()
            })
            .unwrap_or_else(|| panic!("no transition for {text}"))
    }

    #[test]
    fn weakest_preconditions_respect_wrap_around_and_inputs() {
        let p = prog("extern int __VERIFIER_nondet_int(void);\nint x;\nint main(void) {\n  x = x + 1;\n  x = __VERIFIER_nondet_int();\n  return 0;\n}\n");
        let enc = Encoder::new(&p);
        let x = enc.var(p.vars.iter().find(|v| v.name == "x").unwrap().id);
        let mut smt = Smt::new(5_000);
        let post = Term::le(x.clone(), Term::int(10));
        // x := x + 1 (a load into a temporary, then the store; take the store).
        let inc = p.threads[0]
            .transitions
            .iter()
            .find(|t| matches!(&t.ops[..], [Op::Assign { place: Place::Var { var, .. }, .. }] if p.var(*var).name == "x"))
            .unwrap();
        assert!(find(&p, "x = x + 1").ops.len() == 1);
        let wp = smt.eliminate_quantifiers(&enc.wp(inc, &post)).unwrap();
        // Whatever temporary feeds the store: its value 9 gives 10, its value INT_MAX wraps.
        let tmp = match &inc.ops[0] {
            Op::Assign { value, .. } => {
                let mut v = None;
                value.for_each_place(&mut |pl| {
                    if let Place::Var { var, .. } = pl {
                        v = Some(*var)
                    }
                });
                enc.var(v.unwrap())
            }
            _ => unreachable!(),
        };
        let r = enc.ranges(&enc.identity());
        let at = |v: i128| Term::and([r.clone(), Term::eq(tmp.clone(), Term::int(v))]);
        assert_eq!(smt.implies(&at(9), &wp), Some(true));
        assert_eq!(smt.implies(&at(10), &wp), Some(false));
        assert_eq!(smt.implies(&at(i32::MAX as i128), &wp), Some(true));
        // x := input: no state guarantees x <= 10 for every input.
        let havoc = p.threads[0]
            .transitions
            .iter()
            .find(|t| matches!(&t.ops[..], [Op::Havoc { .. }]))
            .unwrap();
        let Op::Havoc {
            place: Place::Var { var: hv, .. },
            ..
        } = &havoc.ops[0]
        else {
            unreachable!()
        };
        let h = enc.var(*hv);
        // Every int input is >= INT_MIN, but not every one is <= 10.
        let all = enc.wp(havoc, &Term::le(Term::int(i32::MIN as i128), h.clone()));
        assert_eq!(smt.eliminate_quantifiers(&all), Some(Term::True));
        let some = enc.wp(havoc, &Term::le(h, Term::int(10)));
        assert_eq!(smt.eliminate_quantifiers(&some), Some(Term::False));
    }
}
