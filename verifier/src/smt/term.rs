//! The formulas of the solver boundary ([`super`]): terms over integers, booleans, integer
//! arrays and quantifiers, with the constructors that fold constants on the way, substitution,
//! sharing-aware identity and hashing, and [`TermTable`], the flat form written to IVR files.
//! Nothing here knows the solver.

use super::known::Known;
use rustc_hash::FxHashMap;
use std::collections::HashMap;
use std::fmt;
use std::rc::Rc;

/// The sort of a variable.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Sort {
    Bool,
    Int,
    /// Arrays from integers to integers.
    Array,
}

/// A formula or term. Cheap to clone (shared children). Written to files through a
/// [`TermTable`].
#[derive(Clone, Debug, Eq, PartialOrd, Ord)]
pub enum Term {
    True,
    False,
    Int(i128),
    /// A free variable (or one bound by a quantifier).
    Var(Rc<str>, Sort),
    Not(Rc<Term>),
    And(Rc<[Term]>),
    Or(Rc<[Term]>),
    Implies(Rc<Term>, Rc<Term>),
    Ite(Rc<Term>, Rc<Term>, Rc<Term>),
    Eq(Rc<Term>, Rc<Term>),
    Le(Rc<Term>, Rc<Term>),
    Lt(Rc<Term>, Rc<Term>),
    Add(Rc<[Term]>),
    Sub(Rc<Term>, Rc<Term>),
    Neg(Rc<Term>),
    Mul(Rc<Term>, Rc<Term>),
    /// Euclidean division (SMT-LIB `div`).
    Div(Rc<Term>, Rc<Term>),
    /// Euclidean remainder (SMT-LIB `mod`, never negative).
    Mod(Rc<Term>, Rc<Term>),
    Select(Rc<Term>, Rc<Term>),
    Store(Rc<Term>, Rc<Term>, Rc<Term>),
    Forall(Rc<[(Rc<str>, Sort)]>, Rc<Term>),
    Exists(Rc<[(Rc<str>, Sort)]>, Rc<Term>),
}

/// Structural, as equality is, but computed once per shared subterm: a term built by
/// substitutions shares its subterms, and hashing it as a tree takes time exponential in its
/// depth (the cache of implications hashes whole labels).
impl std::hash::Hash for Term {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        // (The map allocates only when a term has operands.)
        state.write_u64(self.structural_hash(&mut FxHashMap::default()))
    }
}

/// Structural, comparing each pair of shared operands once (as [`Term`]'s hash).
impl PartialEq for Term {
    fn eq(&self, other: &Term) -> bool {
        self.structural_eq(other, &mut rustc_hash::FxHashSet::default())
    }
}

/// Most nodes [`Term::congruent`] looks at.
const CONGRUENT_NODES: usize = 4096;

impl Term {
    /// Whether this term and `other` have the same structure; `same` holds the pairs of
    /// operands (by address) found equal so far in this call.
    pub(super) fn structural_eq(
        &self,
        other: &Term,
        same: &mut rustc_hash::FxHashSet<(usize, usize)>,
    ) -> bool {
        fn one(
            a: &Rc<Term>,
            b: &Rc<Term>,
            same: &mut rustc_hash::FxHashSet<(usize, usize)>,
        ) -> bool {
            if Rc::ptr_eq(a, b) {
                return true;
            }
            let key = (Rc::as_ptr(a) as usize, Rc::as_ptr(b) as usize);
            if !same.is_empty() && same.contains(&key) {
                return true;
            }
            let eq = a.structural_eq(b, same);
            if eq {
                same.insert(key);
            }
            eq
        }
        fn many(
            a: &Rc<[Term]>,
            b: &Rc<[Term]>,
            same: &mut rustc_hash::FxHashSet<(usize, usize)>,
        ) -> bool {
            Rc::ptr_eq(a, b)
                || (a.len() == b.len()
                    && a.iter()
                        .zip(b.iter())
                        .all(|(x, y)| x.structural_eq(y, same)))
        }
        match (self, other) {
            (Term::True, Term::True) | (Term::False, Term::False) => true,
            (Term::Int(x), Term::Int(y)) => x == y,
            (Term::Var(n, s), Term::Var(m, t)) => n == m && s == t,
            (Term::Not(a), Term::Not(b)) | (Term::Neg(a), Term::Neg(b)) => one(a, b, same),
            (Term::And(a), Term::And(b))
            | (Term::Or(a), Term::Or(b))
            | (Term::Add(a), Term::Add(b)) => many(a, b, same),
            (Term::Implies(a, b), Term::Implies(c, d))
            | (Term::Eq(a, b), Term::Eq(c, d))
            | (Term::Le(a, b), Term::Le(c, d))
            | (Term::Lt(a, b), Term::Lt(c, d))
            | (Term::Sub(a, b), Term::Sub(c, d))
            | (Term::Mul(a, b), Term::Mul(c, d))
            | (Term::Div(a, b), Term::Div(c, d))
            | (Term::Mod(a, b), Term::Mod(c, d))
            | (Term::Select(a, b), Term::Select(c, d)) => one(a, c, same) && one(b, d, same),
            (Term::Ite(a, b, c), Term::Ite(d, e, f))
            | (Term::Store(a, b, c), Term::Store(d, e, f)) => {
                one(a, d, same) && one(b, e, same) && one(c, f, same)
            }
            (Term::Forall(v, a), Term::Forall(w, b)) | (Term::Exists(v, a), Term::Exists(w, b)) => {
                v == w && one(a, b, same)
            }
            _ => false,
        }
    }

    /// The hash of this term's structure; `memo` holds the hashes of the operands found so
    /// far in this call, by address (alive for the whole call).
    pub(super) fn structural_hash(&self, memo: &mut FxHashMap<usize, u64>) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut s = rustc_hash::FxHasher::default();
        std::mem::discriminant(self).hash(&mut s);
        match self {
            Term::Int(x) => x.hash(&mut s),
            Term::Var(n, sort) => (n, sort).hash(&mut s),
            Term::Forall(vs, _) | Term::Exists(vs, _) => vs.hash(&mut s),
            _ => {}
        }
        for c in self.children() {
            let key = c as *const Term as usize;
            let h = match memo.get(&key) {
                Some(&h) => h,
                None => {
                    let h = c.structural_hash(memo);
                    memo.insert(key, h);
                    h
                }
            };
            s.write_u64(h);
        }
        s.finish()
    }
}

/// [`Term::identity`]: an operator and up to three operand addresses.
pub(crate) type Identity = (u8, usize, usize, usize);

/// One term of a [`TermTable`]; operands are indices of earlier entries.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FlatTerm {
    True,
    False,
    Int(i128),
    Var(String, Sort),
    Not(u32),
    And(Vec<u32>),
    Or(Vec<u32>),
    Implies(u32, u32),
    Ite(u32, u32, u32),
    Eq(u32, u32),
    Le(u32, u32),
    Lt(u32, u32),
    Add(Vec<u32>),
    Sub(u32, u32),
    Neg(u32),
    Mul(u32, u32),
    Div(u32, u32),
    Mod(u32, u32),
    Select(u32, u32),
    Store(u32, u32, u32),
    Forall(Vec<(String, Sort)>, u32),
    Exists(Vec<(String, Sort)>, u32),
}

/// Terms as a flat list that keeps their sharing, for writing formulas to files without deep
/// nesting: every operand is an index of an earlier entry.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct TermTable {
    entries: Vec<FlatTerm>,
    #[serde(skip)]
    seen: HashMap<*const Term, u32>,
}

impl TermTable {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a term (and its operands); returns its index. `t` must stay alive while terms are
    /// added (entries are recognised by address).
    pub fn add(&mut self, t: &Term) -> u32 {
        if let Some(&i) = self.seen.get(&(t as *const Term)) {
            return i;
        }
        let one = |s: &mut Self, x: &Rc<Term>| s.add(x);
        let many = |s: &mut Self, xs: &Rc<[Term]>| xs.iter().map(|x| s.add(x)).collect();
        let binds = |bs: &Rc<[(Rc<str>, Sort)]>| {
            bs.iter()
                .map(|(n, s)| (n.to_string(), *s))
                .collect::<Vec<_>>()
        };
        let flat = match t {
            Term::True => FlatTerm::True,
            Term::False => FlatTerm::False,
            Term::Int(v) => FlatTerm::Int(*v),
            Term::Var(n, s) => FlatTerm::Var(n.to_string(), *s),
            Term::Not(a) => FlatTerm::Not(one(self, a)),
            Term::And(xs) => FlatTerm::And(many(self, xs)),
            Term::Or(xs) => FlatTerm::Or(many(self, xs)),
            Term::Implies(a, b) => FlatTerm::Implies(one(self, a), one(self, b)),
            Term::Ite(c, a, b) => FlatTerm::Ite(one(self, c), one(self, a), one(self, b)),
            Term::Eq(a, b) => FlatTerm::Eq(one(self, a), one(self, b)),
            Term::Le(a, b) => FlatTerm::Le(one(self, a), one(self, b)),
            Term::Lt(a, b) => FlatTerm::Lt(one(self, a), one(self, b)),
            Term::Add(xs) => FlatTerm::Add(many(self, xs)),
            Term::Sub(a, b) => FlatTerm::Sub(one(self, a), one(self, b)),
            Term::Neg(a) => FlatTerm::Neg(one(self, a)),
            Term::Mul(a, b) => FlatTerm::Mul(one(self, a), one(self, b)),
            Term::Div(a, b) => FlatTerm::Div(one(self, a), one(self, b)),
            Term::Mod(a, b) => FlatTerm::Mod(one(self, a), one(self, b)),
            Term::Select(a, b) => FlatTerm::Select(one(self, a), one(self, b)),
            Term::Store(a, b, c) => FlatTerm::Store(one(self, a), one(self, b), one(self, c)),
            Term::Forall(bs, body) => FlatTerm::Forall(binds(bs), one(self, body)),
            Term::Exists(bs, body) => FlatTerm::Exists(binds(bs), one(self, body)),
        };
        let i = self.entries.len() as u32;
        self.entries.push(flat);
        self.seen.insert(t as *const Term, i);
        i
    }

    /// All terms of the table, in order; fails when an operand does not precede its use.
    pub fn terms(&self) -> Result<Vec<Term>, String> {
        let mut out: Vec<Term> = Vec::with_capacity(self.entries.len());
        for (i, e) in self.entries.iter().enumerate() {
            let get = |j: &u32| -> Result<Term, String> {
                out.get(*j as usize)
                    .filter(|_| (*j as usize) < i)
                    .cloned()
                    .ok_or_else(|| format!("term {i} uses term {j}, which does not precede it"))
            };
            let rc = |j: &u32| get(j).map(Rc::new);
            let all = |js: &[u32]| js.iter().map(get).collect::<Result<Vec<_>, _>>();
            let binds = |bs: &[(String, Sort)]| -> Rc<[(Rc<str>, Sort)]> {
                bs.iter().map(|(n, s)| (Rc::from(n.as_str()), *s)).collect()
            };
            let t = match e {
                FlatTerm::True => Term::True,
                FlatTerm::False => Term::False,
                FlatTerm::Int(v) => Term::Int(*v),
                FlatTerm::Var(n, s) => Term::Var(n.as_str().into(), *s),
                FlatTerm::Not(a) => Term::Not(rc(a)?),
                FlatTerm::And(xs) => Term::And(all(xs)?.into()),
                FlatTerm::Or(xs) => Term::Or(all(xs)?.into()),
                FlatTerm::Implies(a, b) => Term::Implies(rc(a)?, rc(b)?),
                FlatTerm::Ite(c, a, b) => Term::Ite(rc(c)?, rc(a)?, rc(b)?),
                FlatTerm::Eq(a, b) => Term::Eq(rc(a)?, rc(b)?),
                FlatTerm::Le(a, b) => Term::Le(rc(a)?, rc(b)?),
                FlatTerm::Lt(a, b) => Term::Lt(rc(a)?, rc(b)?),
                FlatTerm::Add(xs) => Term::Add(all(xs)?.into()),
                FlatTerm::Sub(a, b) => Term::Sub(rc(a)?, rc(b)?),
                FlatTerm::Neg(a) => Term::Neg(rc(a)?),
                FlatTerm::Mul(a, b) => Term::Mul(rc(a)?, rc(b)?),
                FlatTerm::Div(a, b) => Term::Div(rc(a)?, rc(b)?),
                FlatTerm::Mod(a, b) => Term::Mod(rc(a)?, rc(b)?),
                FlatTerm::Select(a, b) => Term::Select(rc(a)?, rc(b)?),
                FlatTerm::Store(a, b, c) => Term::Store(rc(a)?, rc(b)?, rc(c)?),
                FlatTerm::Forall(bs, body) => Term::Forall(binds(bs), rc(body)?),
                FlatTerm::Exists(bs, body) => Term::Exists(binds(bs), rc(body)?),
            };
            out.push(t);
        }
        Ok(out)
    }
}

/// Constructors with light simplification (constant folding of booleans and numerals). They
/// are plain functions of their operands, not operator traits: terms are not values.
#[allow(clippy::should_implement_trait)]
impl Term {
    /// A variable.
    pub fn var(name: &str, sort: Sort) -> Term {
        Term::Var(name.into(), sort)
    }

    /// An integer numeral.
    pub fn int(v: i128) -> Term {
        Term::Int(v)
    }

    /// A boolean constant.
    pub fn bool(b: bool) -> Term {
        if b {
            Term::True
        } else {
            Term::False
        }
    }

    /// `¬a`.
    pub fn not(a: Term) -> Term {
        match a {
            Term::True => Term::False,
            Term::False => Term::True,
            Term::Not(x) => (*x).clone(),
            a => Term::Not(Rc::new(a)),
        }
    }

    /// `a₁ ∧ … ∧ aₙ`.
    pub fn and(xs: impl IntoIterator<Item = Term>) -> Term {
        Term::junction(xs, true)
    }

    /// `a₁ ∨ … ∨ aₙ`.
    pub fn or(xs: impl IntoIterator<Item = Term>) -> Term {
        Term::junction(xs, false)
    }

    /// A conjunction (`and`) or disjunction, flattened, without units, absorbed by its zero.
    pub(super) fn junction(xs: impl IntoIterator<Item = Term>, and: bool) -> Term {
        let (unit, zero) = if and {
            (Term::True, Term::False)
        } else {
            (Term::False, Term::True)
        };
        let mut out = Vec::new();
        for x in xs {
            match x {
                x if x == unit => {}
                x if x == zero => return zero,
                Term::And(ys) if and => out.extend(ys.iter().cloned()),
                Term::Or(ys) if !and => out.extend(ys.iter().cloned()),
                x => out.push(x),
            }
        }
        out.dedup();
        match (out.len(), and) {
            (0, _) => unit,
            (1, _) => out.pop().expect("one"),
            (_, true) => Term::And(out.into()),
            (_, false) => Term::Or(out.into()),
        }
    }

    /// `a ⇒ b`.
    pub fn implies(a: Term, b: Term) -> Term {
        match (&a, &b) {
            (Term::False, _) | (_, Term::True) => Term::True,
            (Term::True, _) => b,
            (_, Term::False) => Term::not(a),
            _ => Term::Implies(Rc::new(a), Rc::new(b)),
        }
    }

    /// `if c then a else b`.
    pub fn ite(c: Term, a: Term, b: Term) -> Term {
        match c {
            Term::True => a,
            Term::False => b,
            c if a == b => {
                let _ = c;
                a
            }
            c => Term::Ite(Rc::new(c), Rc::new(a), Rc::new(b)),
        }
    }

    /// `a = b`.
    pub fn eq(a: Term, b: Term) -> Term {
        match (&a, &b) {
            (Term::Int(x), Term::Int(y)) => Term::bool(x == y),
            _ if a == b => Term::True,
            _ => Term::Eq(Rc::new(a), Rc::new(b)),
        }
    }

    /// `a ≤ b`.
    pub fn le(a: Term, b: Term) -> Term {
        match (&a, &b) {
            (Term::Int(x), Term::Int(y)) => Term::bool(x <= y),
            _ => Term::Le(Rc::new(a), Rc::new(b)),
        }
    }

    /// `a < b`.
    pub fn lt(a: Term, b: Term) -> Term {
        match (&a, &b) {
            (Term::Int(x), Term::Int(y)) => Term::bool(x < y),
            _ => Term::Lt(Rc::new(a), Rc::new(b)),
        }
    }

    /// `a + b`.
    pub fn add(a: Term, b: Term) -> Term {
        match (&a, &b) {
            // (Folded only when exact: Z3's integers are unbounded, ours are i128.)
            (Term::Int(x), Term::Int(y)) if x.checked_add(*y).is_some() => Term::Int(x + y),
            (Term::Int(0), _) => b,
            (_, Term::Int(0)) => a,
            _ => Term::Add(vec![a, b].into()),
        }
    }

    /// `a - b`.
    pub fn sub(a: Term, b: Term) -> Term {
        match (&a, &b) {
            (Term::Int(x), Term::Int(y)) if x.checked_sub(*y).is_some() => Term::Int(x - y),
            (_, Term::Int(0)) => a,
            _ => Term::Sub(Rc::new(a), Rc::new(b)),
        }
    }

    /// `-a`.
    pub fn neg(a: Term) -> Term {
        match a {
            Term::Int(x) if x != i128::MIN => Term::Int(-x),
            a => Term::Neg(Rc::new(a)),
        }
    }

    /// `a · b`.
    pub fn mul(a: Term, b: Term) -> Term {
        match (&a, &b) {
            (Term::Int(x), Term::Int(y)) if x.checked_mul(*y).is_some() => Term::Int(x * y),
            (Term::Int(1), _) => b,
            (_, Term::Int(1)) => a,
            (Term::Int(0), _) | (_, Term::Int(0)) => Term::Int(0),
            _ => Term::Mul(Rc::new(a), Rc::new(b)),
        }
    }

    /// Euclidean `a div b`. With a constant `b > 0`, the multiples of `b` in the sum `a`
    /// come out of the division (`(x + 256·y) div 256 = x div 256 + y`).
    pub fn div(a: Term, b: Term) -> Term {
        if let Term::Int(d) = b {
            if d == 1 {
                return a;
            }
            if d > 0 && !matches!(a, Term::Int(_)) {
                if let Some(t) = Term::div_sum(&a, d) {
                    return t;
                }
            }
        }
        match (&a, &b) {
            (Term::Int(x), Term::Int(y)) if x.checked_div_euclid(*y).is_some() => {
                Term::Int(x.div_euclid(*y))
            }
            _ => Term::Div(Rc::new(a), Rc::new(b)),
        }
    }

    /// Euclidean `a mod b`. With a constant `b > 0`, the parts of `a` that are multiples of
    /// `b` are left out (`(x + 2^32·y) mod 2^16 = x mod 2^16`, `(x mod 2^32) mod 2^16 = x mod
    /// 2^16`): the bytes of a value composed of bytes are then the solver's to see at once.
    pub fn modulo(a: Term, b: Term) -> Term {
        let a = match &b {
            Term::Int(m) if *m > 0 => Term::congruent(&a, *m).unwrap_or(a),
            _ => a,
        };
        match (&a, &b) {
            (Term::Int(x), Term::Int(y)) if x.checked_rem_euclid(*y).is_some() => {
                Term::Int(x.rem_euclid(*y))
            }
            _ => Term::Mod(Rc::new(a), Rc::new(b)),
        }
    }

    /// `a div d` for `d > 0` with the summands of `a` that are multiples of `d` taken out,
    /// if there are some: `floor((r + d·k) / d) = floor(r / d) + k`.
    pub(super) fn div_sum(a: &Term, d: i128) -> Option<Term> {
        let mut parts = Vec::new();
        Term::summands(a, false, &mut parts);
        let mut rest = Term::Int(0);
        let mut out = Term::Int(0);
        let mut taken = false;
        for (neg, x) in parts {
            let q = match &x {
                Term::Int(c) if c % d == 0 => Some(Term::Int(c / d)),
                Term::Mul(p, q) => match (&**p, &**q) {
                    (Term::Int(c), t) | (t, Term::Int(c)) if c % d == 0 => {
                        Some(Term::mul(Term::Int(c / d), t.clone()))
                    }
                    _ => None,
                },
                _ => None,
            };
            match q {
                Some(q) => {
                    taken = true;
                    out = if neg {
                        Term::sub(out, q)
                    } else {
                        Term::add(out, q)
                    };
                }
                None => {
                    rest = if neg {
                        Term::sub(rest, x)
                    } else {
                        Term::add(rest, x)
                    }
                }
            }
        }
        taken.then(|| {
            let r = match rest {
                Term::Int(c) => Term::Int(c.div_euclid(d)),
                r => Term::Div(Rc::new(r), Rc::new(Term::Int(d))),
            };
            Term::add(r, out)
        })
    }

    /// The summands of `t` through sums and differences, each with whether it is subtracted.
    pub(super) fn summands(t: &Term, neg: bool, out: &mut Vec<(bool, Term)>) {
        match t {
            Term::Add(xs) => xs.iter().for_each(|x| Term::summands(x, neg, out)),
            Term::Sub(a, b) => {
                Term::summands(a, neg, out);
                Term::summands(b, !neg, out);
            }
            _ => out.push((neg, t.clone())),
        }
    }

    /// A simpler term congruent to `t` modulo `m > 0`, if there is one: constants reduced,
    /// multiples of `m` and `mod`s by multiples of `m` dropped, through sums, differences,
    /// negations and products with constants. It looks at no more than [`CONGRUENT_NODES`]
    /// nodes: a term is a graph whose shared subterms a walk would visit once per path (a
    /// value symbolically executed along a long path), so what lies beyond is kept as it is.
    pub(super) fn congruent(t: &Term, m: i128) -> Option<Term> {
        let mut budget = CONGRUENT_NODES;
        Term::congruent_within(t, m, &mut budget)
    }

    /// [`Term::congruent`] visiting at most `budget` more nodes.
    fn congruent_within(t: &Term, m: i128, budget: &mut usize) -> Option<Term> {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        match t {
            Term::Int(c) => (c.rem_euclid(m) != *c).then(|| Term::Int(c.rem_euclid(m))),
            Term::Mod(z, k) => match &**k {
                Term::Int(k) if *k > 0 && k % m == 0 => {
                    Some(Term::congruent_within(z, m, budget).unwrap_or_else(|| (**z).clone()))
                }
                _ => None,
            },
            Term::Add(xs) => {
                let ys: Vec<Option<Term>> = xs
                    .iter()
                    .map(|x| Term::congruent_within(x, m, budget))
                    .collect();
                ys.iter().any(Option::is_some).then(|| {
                    xs.iter()
                        .zip(ys)
                        .map(|(x, y)| y.unwrap_or_else(|| x.clone()))
                        .fold(Term::Int(0), Term::add)
                })
            }
            Term::Sub(a, b) => {
                let x = Term::congruent_within(a, m, budget);
                let y = Term::congruent_within(b, m, budget);
                (x.is_some() || y.is_some()).then(|| {
                    Term::sub(
                        x.unwrap_or_else(|| (**a).clone()),
                        y.unwrap_or_else(|| (**b).clone()),
                    )
                })
            }
            Term::Neg(a) => Term::congruent_within(a, m, budget).map(Term::neg),
            // (x mod M) div d ≡ x div d (mod m) where d·m divides M.
            Term::Div(a, d) => match (&**a, &**d) {
                (Term::Mod(x, k), Term::Int(d)) if matches!(**k, Term::Int(k) if *d > 0 && d.checked_mul(m).is_some_and(|dm| k % dm == 0)) => {
                    Some(Term::div((**x).clone(), Term::Int(*d)))
                }
                _ => None,
            },
            Term::Mul(a, b) => match (&**a, &**b) {
                (Term::Int(c), _) | (_, Term::Int(c)) if c % m == 0 => Some(Term::Int(0)),
                (Term::Int(c), x) | (x, Term::Int(c)) => {
                    Term::congruent_within(x, m, budget).map(|y| Term::mul(Term::Int(*c), y))
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// `a[i]`.
    pub fn select(a: Term, i: Term) -> Term {
        // select(store(a, i, v), i) = v for syntactically equal indexes, and past stores at
        // other constant indexes. (A walk, not a recursion: a chain of known cells can be
        // long, and only where it stops is shared into the result.)
        let past = {
            let mut arr = &a;
            let mut past: Option<&Rc<Term>> = None;
            while let Term::Store(b, j, v) = arr {
                if **j == i {
                    return (**v).clone();
                }
                match (&**j, &i) {
                    (Term::Int(x), Term::Int(y)) if x != y => {
                        past = Some(b);
                        arr = b;
                    }
                    _ => break,
                }
            }
            past.cloned()
        };
        Term::Select(past.unwrap_or_else(|| Rc::new(a)), Rc::new(i))
    }

    /// `a` with `a[i] = v`.
    pub fn store(a: Term, i: Term, v: Term) -> Term {
        Term::Store(Rc::new(a), Rc::new(i), Rc::new(v))
    }

    /// `∀ vars. body`.
    pub fn forall(vars: Vec<(Rc<str>, Sort)>, body: Term) -> Term {
        if vars.is_empty() || matches!(body, Term::True | Term::False) {
            return body;
        }
        Term::Forall(vars.into(), Rc::new(body))
    }

    /// `∃ vars. body`. Where the body only bounds bound integers by constants (what is
    /// left of an input's range once the state is known), the value: whether each bound
    /// integer's interval has an element.
    pub fn exists(vars: Vec<(Rc<str>, Sort)>, body: Term) -> Term {
        if vars.is_empty() || matches!(body, Term::True | Term::False) {
            return body;
        }
        if let Some(holds) = Term::bounds_meet(&vars, &body) {
            return Term::bool(holds);
        }
        Term::Exists(vars.into(), Rc::new(body))
    }

    /// Of a conjunction of constant bounds of the integers `vars` (`c ≤ x`, `x ≤ c`, `c < x`,
    /// `x < c`): whether some values meet them all; `None` for any other body.
    fn bounds_meet(vars: &[(Rc<str>, Sort)], body: &Term) -> Option<bool> {
        let one = std::slice::from_ref(body);
        let xs = match body {
            Term::And(xs) => &xs[..],
            _ => one,
        };
        let var = |t: &Term| match t {
            Term::Var(n, Sort::Int) => vars.iter().position(|(m, s)| m == n && *s == Sort::Int),
            _ => None,
        };
        let mut bounds = vec![(i128::MIN, i128::MAX); vars.len()];
        for x in xs {
            // `a ≤ b`, or `a < b` as `a + 1 ≤ b`.
            let (a, b, strict) = match x {
                Term::Le(a, b) => (&**a, &**b, 0),
                Term::Lt(a, b) => (&**a, &**b, 1),
                _ => return None,
            };
            match (a, b) {
                (Term::Int(c), v) => {
                    let lo = &mut bounds[var(v)?].0;
                    *lo = (*lo).max(c.checked_add(strict)?);
                }
                (v, Term::Int(c)) => {
                    let hi = &mut bounds[var(v)?].1;
                    *hi = (*hi).min(c.checked_sub(strict)?);
                }
                _ => return None,
            }
        }
        Some(bounds.iter().all(|(lo, hi)| lo <= hi))
    }

    /// Replaces free variables by terms (capture is not an issue: bound names are fresh).
    /// A subterm shared in `self` is replaced once, and its replacement is shared in the
    /// result.
    pub fn substitute(&self, f: &dyn Fn(&str, Sort) -> Option<Term>) -> Term {
        self.substitute_in(f, None, &mut FxHashMap::default())
    }

    /// [`Term::substitute`] of the values a [`Known`] fixes: scalars by their values, arrays
    /// by their known cells stored over themselves, where an element at a constant index is
    /// looked up directly; a block of cells the premise has holds.
    /// `done` is empty scratch space, kept by the caller so that its capacity is reused (and
    /// left empty).
    pub(super) fn substitute_known(
        &self,
        known: &Known,
        done: &mut FxHashMap<Identity, Term>,
    ) -> Term {
        let f = |n: &str, so: Sort| known.var(n, so);
        let t = self.substitute_in(&f, Some(known), done);
        // (The identities name operands of `self` only while it is borrowed here.)
        done.clear();
        t
    }

    /// What makes this node the same as another without comparing them: its operator and
    /// the addresses of its operands (two nodes with the same operands are equal; operands
    /// are shared, not copied, when a term is built from another). Valid while the operands
    /// live.
    pub(crate) fn identity(&self) -> Identity {
        let p = |t: &Rc<Term>| Rc::as_ptr(t) as usize;
        let ps = |ts: &Rc<[Term]>| ts.as_ptr() as usize;
        match self {
            Term::True => (0, 0, 0, 0),
            Term::False => (1, 0, 0, 0),
            Term::Int(_) | Term::Var(..) => (2, self as *const Term as usize, 0, 0),
            Term::Not(a) => (3, p(a), 0, 0),
            Term::And(xs) => (4, ps(xs), xs.len(), 0),
            Term::Or(xs) => (5, ps(xs), xs.len(), 0),
            Term::Implies(a, b) => (6, p(a), p(b), 0),
            Term::Ite(c, a, b) => (7, p(c), p(a), p(b)),
            Term::Eq(a, b) => (8, p(a), p(b), 0),
            Term::Le(a, b) => (9, p(a), p(b), 0),
            Term::Lt(a, b) => (10, p(a), p(b), 0),
            Term::Add(xs) => (11, ps(xs), xs.len(), 0),
            Term::Sub(a, b) => (12, p(a), p(b), 0),
            Term::Neg(a) => (13, p(a), 0, 0),
            Term::Mul(a, b) => (14, p(a), p(b), 0),
            Term::Div(a, b) => (15, p(a), p(b), 0),
            Term::Mod(a, b) => (16, p(a), p(b), 0),
            Term::Select(a, i) => (17, p(a), p(i), 0),
            Term::Store(a, i, v) => (18, p(a), p(i), p(v)),
            Term::Forall(vs, b) => (19, vs.as_ptr() as usize, p(b), 0),
            Term::Exists(vs, b) => (20, vs.as_ptr() as usize, p(b), 0),
        }
    }

    /// [`Term::substitute`], with the replacements made so far in this call by the
    /// [`Term::identity`] of the subterm replaced (`self` is alive for the whole call, and
    /// so are the operands the identities name).
    pub(super) fn substitute_in(
        &self,
        f: &dyn Fn(&str, Sort) -> Option<Term>,
        known: Option<&Known>,
        done: &mut FxHashMap<Identity, Term>,
    ) -> Term {
        match self {
            Term::True | Term::False | Term::Int(_) => return self.clone(),
            Term::Var(n, so) => return f(n, *so).unwrap_or_else(|| self.clone()),
            _ => {}
        }
        let key = self.identity();
        if let Some(t) = done.get(&key) {
            return t.clone();
        }
        let mut s = |t: &Term| t.substitute_in(f, known, done);
        let out = match self {
            Term::True | Term::False | Term::Int(_) | Term::Var(..) => unreachable!(),
            Term::Not(a) => Term::not(s(a)),
            Term::And(xs) if known.is_some_and(|k| k.holds(xs)) => Term::True,
            Term::And(xs) => Term::and(xs.iter().map(&mut s).collect::<Vec<_>>()),
            Term::Or(xs) => Term::or(xs.iter().map(&mut s).collect::<Vec<_>>()),
            Term::Implies(a, b) => Term::implies(s(a), s(b)),
            Term::Ite(c, a, b) => Term::ite(s(c), s(a), s(b)),
            Term::Eq(a, b) => Term::eq(s(a), s(b)),
            Term::Le(a, b) => Term::le(s(a), s(b)),
            Term::Lt(a, b) => Term::lt(s(a), s(b)),
            Term::Add(xs) => xs
                .iter()
                .map(&mut s)
                .reduce(Term::add)
                .unwrap_or(Term::Int(0)),
            Term::Sub(a, b) => Term::sub(s(a), s(b)),
            Term::Neg(a) => Term::neg(s(a)),
            Term::Mul(a, b) => Term::mul(s(a), s(b)),
            Term::Div(a, b) => Term::div(s(a), s(b)),
            Term::Mod(a, b) => Term::modulo(s(a), s(b)),
            Term::Select(a, i) => {
                let i = s(i);
                match (&i, known) {
                    // (What selecting from the replacement of the array would give, without
                    // making it: past stores at other constant indexes and choices the known
                    // values decide, to the array itself, whose known cell is looked up.)
                    (Term::Int(k), Some(known)) => {
                        let mut arr: &Term = a;
                        loop {
                            match arr {
                                Term::Store(b, j, v) => match s(j) {
                                    Term::Int(j) if j == *k => break s(v),
                                    Term::Int(_) => arr = b,
                                    _ => break Term::select(s(a), i.clone()),
                                },
                                Term::Var(n, Sort::Array) => {
                                    break match known.cell(n, *k) {
                                        Some(c) => Term::Int(c),
                                        None => Term::select(arr.clone(), i.clone()),
                                    }
                                }
                                // (A choice between arrays that the known values decide.)
                                Term::Ite(c, x, y) => match s(c) {
                                    Term::True => arr = x,
                                    Term::False => arr = y,
                                    _ => break Term::select(s(a), i.clone()),
                                },
                                _ => break Term::select(s(a), i.clone()),
                            }
                        }
                    }
                    _ => Term::select(s(a), i),
                }
            }
            Term::Store(a, i, v) => Term::store(s(a), s(i), s(v)),
            // (A quantifier's body is replaced with a substitution of its own, which leaves
            // its bound names alone.)
            Term::Forall(vs, b) => {
                let bound: Vec<&str> = vs.iter().map(|v| &*v.0).collect();
                Term::forall(
                    vs.to_vec(),
                    b.substitute(&|n, so| if bound.contains(&n) { None } else { f(n, so) }),
                )
            }
            Term::Exists(vs, b) => {
                let bound: Vec<&str> = vs.iter().map(|v| &*v.0).collect();
                Term::exists(
                    vs.to_vec(),
                    b.substitute(&|n, so| if bound.contains(&n) { None } else { f(n, so) }),
                )
            }
        };
        done.insert(key, out.clone());
        out
    }

    /// The direct subterms (quantifier bodies included).
    pub fn children(&self) -> Vec<&Term> {
        match self {
            Term::True | Term::False | Term::Int(_) | Term::Var(..) => vec![],
            Term::Not(a) | Term::Neg(a) | Term::Forall(_, a) | Term::Exists(_, a) => vec![a],
            Term::And(xs) | Term::Or(xs) | Term::Add(xs) => xs.iter().collect(),
            Term::Implies(a, b)
            | Term::Eq(a, b)
            | Term::Le(a, b)
            | Term::Lt(a, b)
            | Term::Sub(a, b)
            | Term::Mul(a, b)
            | Term::Div(a, b)
            | Term::Mod(a, b)
            | Term::Select(a, b) => vec![a, b],
            Term::Ite(a, b, c) | Term::Store(a, b, c) => vec![a, b, c],
        }
    }

    /// The free variables.
    pub fn free_vars(&self, out: &mut Vec<(Rc<str>, Sort)>) {
        match self {
            Term::Var(n, s) => {
                if !out.iter().any(|(m, _)| m == n) {
                    out.push((n.clone(), *s));
                }
            }
            Term::Forall(vs, b) | Term::Exists(vs, b) => {
                let mut inner = Vec::new();
                b.free_vars(&mut inner);
                for v in inner {
                    if !vs.iter().any(|(n, _)| *n == v.0) && !out.iter().any(|(m, _)| *m == v.0) {
                        out.push(v);
                    }
                }
            }
            t => t.children().into_iter().for_each(|c| c.free_vars(out)),
        }
    }

    /// Collects the atoms of a quantifier-free formula: its maximal subformulas that are not
    /// built with boolean connectives (comparisons, boolean variables). Returns `false` for a
    /// formula with quantifiers.
    pub fn atoms(&self, out: &mut Vec<Term>) -> bool {
        match self {
            Term::True | Term::False => true,
            Term::Not(a) => a.atoms(out),
            Term::And(xs) | Term::Or(xs) => xs.iter().all(|x| x.atoms(out)),
            Term::Implies(a, b) => a.atoms(out) && b.atoms(out),
            Term::Ite(c, a, b) => c.atoms(out) && a.atoms(out) && b.atoms(out),
            Term::Eq(a, b) if a.is_boolean() || b.is_boolean() => a.atoms(out) && b.atoms(out),
            Term::Forall(..) | Term::Exists(..) => false,
            t => {
                if !out.contains(t) {
                    out.push(t.clone());
                }
                true
            }
        }
    }

    /// Whether the term is a formula by its shape (connective, comparison, boolean variable).
    pub(super) fn is_boolean(&self) -> bool {
        matches!(
            self,
            Term::True
                | Term::False
                | Term::Not(_)
                | Term::And(_)
                | Term::Or(_)
                | Term::Implies(..)
                | Term::Eq(..)
                | Term::Le(..)
                | Term::Lt(..)
                | Term::Var(_, Sort::Bool)
                | Term::Forall(..)
                | Term::Exists(..)
        )
    }

    /// Number of nodes (for size limits and heuristics).
    pub fn size(&self) -> usize {
        1 + self.children().into_iter().map(Term::size).sum::<usize>()
    }
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |f: &mut fmt::Formatter<'_>, op: &str, xs: &[Term]| -> fmt::Result {
            write!(f, "({op}")?;
            for x in xs {
                write!(f, " {x}")?;
            }
            write!(f, ")")
        };
        match self {
            Term::True => write!(f, "true"),
            Term::False => write!(f, "false"),
            Term::Int(v) if *v < 0 => write!(f, "(- {})", -v),
            Term::Int(v) => write!(f, "{v}"),
            Term::Var(n, _) => write!(f, "{n}"),
            Term::Not(a) => write!(f, "(not {a})"),
            Term::And(xs) => list(f, "and", xs),
            Term::Or(xs) => list(f, "or", xs),
            Term::Add(xs) => list(f, "+", xs),
            Term::Implies(a, b) => write!(f, "(=> {a} {b})"),
            Term::Ite(c, a, b) => write!(f, "(ite {c} {a} {b})"),
            Term::Eq(a, b) => write!(f, "(= {a} {b})"),
            Term::Le(a, b) => write!(f, "(<= {a} {b})"),
            Term::Lt(a, b) => write!(f, "(< {a} {b})"),
            Term::Sub(a, b) => write!(f, "(- {a} {b})"),
            Term::Neg(a) => write!(f, "(- {a})"),
            Term::Mul(a, b) => write!(f, "(* {a} {b})"),
            Term::Div(a, b) => write!(f, "(div {a} {b})"),
            Term::Mod(a, b) => write!(f, "(mod {a} {b})"),
            Term::Select(a, i) => write!(f, "(select {a} {i})"),
            Term::Store(a, i, v) => write!(f, "(store {a} {i} {v})"),
            Term::Forall(vs, b) | Term::Exists(vs, b) => {
                let q = if matches!(self, Term::Forall(..)) {
                    "forall"
                } else {
                    "exists"
                };
                write!(f, "({q} (")?;
                for (n, s) in vs.iter() {
                    write!(f, "({n} {s:?})")?;
                }
                write!(f, ") {b})")
            }
        }
    }
}
