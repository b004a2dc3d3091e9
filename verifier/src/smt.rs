//! The solver boundary: formulas are this module's own [`Term`]s (integers, booleans, integer
//! arrays, quantifiers; defined in `term`, which knows nothing of the solver), and a solver is
//! anything that answers the narrow [`Backend`] interface about them. The Z3 backend (`z3`) is
//! the only file that uses the `z3` crate.
//!
//! A check returns [`Answer::Unknown`] (with the solver's reason, e.g. a timeout) as a
//! first-class result: callers must treat it as "cannot tell", never as "unsat".
//!
//! [`Smt`] is what the verifier holds: a backend with the work that does not depend on it.
//! Implication queries ([`Smt::implies`]), the verifier's most frequent question (is a node
//! covered, does a label hold), are cached, and the values a premise fixes are folded into
//! premise and goal first, which decides many of them without a solver; the counts of work
//! done and the reason of the last unknown answer are kept for the verifier's messages.
//!
//! Used by the ART verifier (seed 002, "Iterative model checking": labels, coverings,
//! enabledness) and the IVR checker.

mod known;
mod term;
mod z3;

pub use self::z3::Z3;
use known::{Blocks, Known};
use rustc_hash::FxHashMap;
use std::collections::HashMap;
pub(crate) use term::Identity;
pub use term::{FlatTerm, Sort, Term, TermTable};

/// The answer to a satisfiability check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    Sat,
    Unsat,
    /// The solver could not decide (timeout, incompleteness); the reason as the backend
    /// gives it.
    Unknown(String),
}

/// Values of a model.
#[derive(Clone, Debug, Default)]
pub struct Model {
    /// Integer values of the variables asked for.
    pub ints: HashMap<String, i128>,
}

/// Counts of solver work, for the verifier's figures.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    /// Satisfiability checks sent to the backend.
    pub checks: u64,
    /// Implication queries answered from the cache.
    pub cache_hits: u64,
    /// Quantifier eliminations.
    pub qe: u64,
}

/// A satisfiability solver for [`Term`]s: the questions the verifier asks, and no more.
/// Assertions live in a stack of scopes ([`Backend::push`], [`Backend::pop`]); a path query
/// ([`Backend::check_path`]) has a stack of its own.
pub trait Backend {
    /// Makes every later query give up (answer unknown) at `deadline`.
    fn set_deadline(&mut self, deadline: std::time::Instant);
    /// Opens a scope of assertions.
    fn push(&mut self);
    /// Drops the assertions of the innermost scope.
    fn pop(&mut self);
    /// Adds an assertion to the current scope.
    fn assert(&mut self, t: &Term);
    /// Checks the current assertions.
    fn check(&mut self) -> Answer;
    /// Checks the conjunction of a path's formulas and `extra`, apart from the assertions of
    /// the scopes. The path is a list of `(id, formula)`, outermost first; an id must always
    /// stand for the same formula, so that a backend may keep a path's prefix between
    /// queries.
    fn check_path(&mut self, frames: &[(u64, &Term)], extra: &[Term]) -> Answer;
    /// Checks the current assertions together with the formulas `lits`. When unsatisfiable,
    /// also returns the indices of the `lits` the proof used (an unsat core, not always
    /// minimal).
    fn check_core(&mut self, lits: &[Term]) -> (Answer, Vec<usize>);
    /// The values of integer terms, named, in a model of the current assertions (after
    /// `Sat`).
    fn model(&mut self, vars: &[(String, Term)]) -> Option<Model>;
    /// The truth values of formulas in the model of the last `Sat` check.
    fn eval_bools(&mut self, ts: &[Term]) -> Option<Vec<bool>>;
    /// An equivalent formula without quantifiers; `None` when the backend finds none in
    /// time.
    fn eliminate_quantifiers(&mut self, t: &Term) -> Option<Term>;
    /// An equivalent, simpler formula (`t` itself when there is none).
    fn simplify(&mut self, t: &Term) -> Term;
}

/// A solver as the verifier holds it: a [`Backend`] with an implication cache and the counts
/// of its work; one per verification run.
pub struct Smt {
    backend: Box<dyn Backend>,
    implies_cache: FxHashMap<(Term, Term), bool>,
    /// The last premise [`Smt::implies`] folded values into.
    last_premise: Option<Premise>,
    /// Scratch space of [`Term::substitute_known`].
    scratch: FxHashMap<Identity, Term>,
    /// The blocks of cells met in premises.
    blocks: Blocks,
    /// Work done so far.
    pub stats: Stats,
    /// The solver's reason for the last `Unknown` answer.
    pub last_unknown: String,
}

/// A value of a term ([`at_zero`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Value {
    Bool(bool),
    Int(i128),
}

/// The value of `t` where every integer variable is 0, when that decides it (no boolean
/// variable, array or quantifier does, and no arithmetic leaves the range of `i128`).
fn at_zero(t: &Term) -> Option<Value> {
    use Value::{Bool, Int};
    let int = |t: &Term| match at_zero(t)? {
        Int(v) => Some(v),
        Bool(_) => None,
    };
    let bool = |t: &Term| match at_zero(t)? {
        Bool(b) => Some(b),
        Int(_) => None,
    };
    // A junction: its zero decides it, otherwise every operand must be decided.
    let junction = |xs: &[Term], zero: bool| {
        let mut all = true;
        for x in xs {
            match bool(x) {
                Some(b) if b == zero => return Some(Bool(zero)),
                Some(_) => {}
                None => all = false,
            }
        }
        all.then_some(Bool(!zero))
    };
    Some(match t {
        Term::True => Bool(true),
        Term::False => Bool(false),
        Term::Int(v) => Int(*v),
        Term::Var(_, Sort::Int) => Int(0),
        Term::Var(..) | Term::Select(..) | Term::Store(..) => return None,
        Term::Forall(..) | Term::Exists(..) => return None,
        Term::Not(a) => Bool(!bool(a)?),
        Term::And(xs) => return junction(xs, false),
        Term::Or(xs) => return junction(xs, true),
        Term::Implies(a, b) => match (bool(a), bool(b)) {
            (Some(false), _) | (_, Some(true)) => Bool(true),
            (Some(true), Some(false)) => Bool(false),
            _ => return None,
        },
        Term::Ite(c, a, b) => return if bool(c)? { at_zero(a) } else { at_zero(b) },
        Term::Eq(a, b) => Bool(at_zero(a)? == at_zero(b)?),
        Term::Le(a, b) => Bool(int(a)? <= int(b)?),
        Term::Lt(a, b) => Bool(int(a)? < int(b)?),
        Term::Add(xs) => Int(xs.iter().try_fold(0i128, |s, x| s.checked_add(int(x)?))?),
        Term::Sub(a, b) => Int(int(a)?.checked_sub(int(b)?)?),
        Term::Neg(a) => Int(int(a)?.checked_neg()?),
        Term::Mul(a, b) => Int(int(a)?.checked_mul(int(b)?)?),
        // (SMT-LIB's `div` and `mod` are Euclidean; by 0 they are not decided here.)
        Term::Div(a, b) => Int(int(a)?.checked_div_euclid(int(b)?)?),
        Term::Mod(a, b) => Int(int(a)?.checked_rem_euclid(int(b)?)?),
    })
}

/// A premise of [`Smt::implies`] with what it fixes, kept for the next call with the same
/// premise.
struct Premise {
    /// The premise (kept alive, so that its identity stays its own).
    term: Term,
    /// What it fixes.
    known: Known,
    /// The premise with its values replaced, and whether that holds where every integer is
    /// 0: made when a goal needs them (a goal the values fold to true does not).
    folded: Option<(Term, bool)>,
}

impl Smt {
    /// Z3, whose checks give up (answer unknown) after `timeout_ms` milliseconds.
    pub fn new(timeout_ms: u32) -> Smt {
        Smt::with_backend(Box::new(Z3::new(timeout_ms)))
    }

    /// A solver that asks `backend`.
    pub fn with_backend(backend: Box<dyn Backend>) -> Smt {
        Smt {
            backend,
            implies_cache: FxHashMap::default(),
            last_premise: None,
            scratch: FxHashMap::default(),
            blocks: Blocks::default(),
            stats: Stats::default(),
            last_unknown: String::new(),
        }
    }

    /// Notes an answer's reason when it is unknown.
    fn noted(&mut self, a: Answer) -> Answer {
        if let Answer::Unknown(why) = &a {
            self.last_unknown.clone_from(why);
        }
        a
    }

    /// [`Backend::set_deadline`].
    pub fn set_deadline(&mut self, deadline: std::time::Instant) {
        self.backend.set_deadline(deadline);
    }

    /// [`Backend::push`].
    pub fn push(&mut self) {
        self.backend.push();
    }

    /// [`Backend::pop`].
    pub fn pop(&mut self) {
        self.backend.pop();
    }

    /// [`Backend::assert`].
    pub fn assert(&mut self, t: &Term) {
        self.backend.assert(t);
    }

    /// [`Backend::check`].
    pub fn check(&mut self) -> Answer {
        self.stats.checks += 1;
        let a = self.backend.check();
        self.noted(a)
    }

    /// [`Backend::check_path`].
    pub fn check_path(&mut self, frames: &[(u64, &Term)], extra: &[Term]) -> Answer {
        self.stats.checks += 1;
        let a = self.backend.check_path(frames, extra);
        self.noted(a)
    }

    /// Checks a conjunction in a fresh scope.
    pub fn check_terms(&mut self, ts: &[Term]) -> Answer {
        self.push();
        for t in ts {
            self.assert(t);
        }
        let a = self.check();
        self.pop();
        a
    }

    /// [`Backend::model`].
    pub fn model(&mut self, vars: &[(String, Term)]) -> Option<Model> {
        self.backend.model(vars)
    }

    /// [`Backend::eval_bools`].
    pub fn eval_bools(&mut self, ts: &[Term]) -> Option<Vec<bool>> {
        self.backend.eval_bools(ts)
    }

    /// [`Backend::check_core`].
    pub fn check_core(&mut self, lits: &[Term]) -> (Answer, Vec<usize>) {
        self.stats.checks += 1;
        let (a, core) = self.backend.check_core(lits);
        (self.noted(a), core)
    }

    /// Whether `a ⇒ b` is valid; `None` when the solver cannot tell. Cached.
    pub fn implies(&mut self, a: &Term, b: &Term) -> Option<bool> {
        if *b == Term::True || *a == Term::False || a == b {
            return Some(true);
        }
        let same = self
            .last_premise
            .as_ref()
            .is_some_and(|p| p.term.identity() == a.identity());
        if !same {
            self.last_premise = Known::of(a, &mut self.blocks).map(|known| Premise {
                term: a.clone(),
                known,
                folded: None,
            });
        }
        let Some(p) = &mut self.last_premise else {
            return self.implies_cached(a.clone(), b.clone());
        };
        let b2 = b.substitute_known(&p.known, &mut self.scratch);
        // (A premise that fixes every value a goal reads folds it to a constant.)
        if b2 == Term::True {
            return Some(true);
        }
        let (a2, zero) = p
            .folded
            .get_or_insert_with(|| {
                let folded = p.known.fold(&p.term, &mut self.scratch);
                let zero = at_zero(&folded) == Some(Value::Bool(true));
                (folded, zero)
            })
            .clone();
        if a2 == Term::False {
            return Some(true);
        }
        if a2 == Term::True && b2 == Term::False {
            return Some(false);
        }
        // A counterexample where every integer is 0 (what is left of a concrete state's
        // premise is often only the ranges of the values it does not fix).
        if zero && at_zero(&b2) == Some(Value::Bool(false)) {
            return Some(false);
        }
        self.implies_cached(a2, b2)
    }

    /// [`Smt::implies`] by the solver, cached.
    fn implies_cached(&mut self, a: Term, b: Term) -> Option<bool> {
        let key = (a, b);
        if let Some(&r) = self.implies_cache.get(&key) {
            self.stats.cache_hits += 1;
            return Some(r);
        }
        let r = match self.check_terms(&[key.0.clone(), Term::not(key.1.clone())]) {
            Answer::Unsat => true,
            Answer::Sat => false,
            Answer::Unknown(_) => return None,
        };
        self.implies_cache.insert(key, r);
        Some(r)
    }

    /// [`Backend::eliminate_quantifiers`].
    pub fn eliminate_quantifiers(&mut self, t: &Term) -> Option<Term> {
        self.stats.qe += 1;
        self.backend.eliminate_quantifiers(t)
    }

    /// [`Backend::simplify`].
    pub fn simplify(&mut self, t: &Term) -> Term {
        self.backend.simplify(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    fn x() -> Term {
        Term::var("x", Sort::Int)
    }
    fn y() -> Term {
        Term::var("y", Sort::Int)
    }

    /// Where every integer is 0 decides a term, that is its value; where it does not
    /// (booleans, arrays, division by 0), there is none.
    #[test]
    fn a_term_where_every_integer_is_zero() {
        let v = |t: &Term| at_zero(t);
        let le = Term::le(Term::int(-5), x());
        assert_eq!(v(&le), Some(Value::Bool(true)));
        assert_eq!(v(&Term::lt(x(), y())), Some(Value::Bool(false)));
        let sum = Term::Add(vec![x(), Term::int(3), Term::neg(Term::int(1))].into());
        assert_eq!(v(&Term::eq(sum, Term::int(2))), Some(Value::Bool(true)));
        assert_eq!(
            v(&Term::div(Term::int(-7), Term::int(2))),
            Some(Value::Int(-4))
        );
        assert_eq!(
            v(&Term::modulo(Term::int(-7), Term::int(2))),
            Some(Value::Int(1))
        );
        assert_eq!(v(&Term::div(Term::int(1), x())), None);
        let b = Term::var("b", Sort::Bool);
        assert_eq!(v(&Term::and([b.clone(), le.clone()])), None);
        assert_eq!(v(&Term::or([b, le])), Some(Value::Bool(true)));
        let a = Term::var("a", Sort::Array);
        assert_eq!(v(&Term::eq(Term::select(a, x()), Term::int(0))), None);
        // A premise of ranges of values not fixed: satisfiable, without the solver.
        let mut smt = Smt::new(5_000);
        let premise = Term::And(
            vec![
                Term::eq(y(), Term::int(3)),
                Term::le(Term::int(-10), x()),
                Term::le(x(), Term::int(10)),
            ]
            .into(),
        );
        assert_eq!(smt.implies(&premise, &Term::False), Some(false));
        assert_eq!(smt.stats.checks, 0);
    }

    /// What is left of an enabledness question once the state is known, an input in its
    /// range, is decided where the term is made; anything else stays a quantifier.
    #[test]
    fn an_input_in_constant_bounds_exists_where_the_bounds_meet() {
        let n: Rc<str> = "in!1".into();
        let i = || Term::var(&n, Sort::Int);
        let within = |lo: i128, hi: i128| {
            Term::exists(
                vec![(n.clone(), Sort::Int)],
                Term::and([Term::le(Term::int(lo), i()), Term::le(i(), Term::int(hi))]),
            )
        };
        assert_eq!(within(-128, 127), Term::True);
        assert_eq!(within(3, 3), Term::True);
        assert_eq!(within(4, 3), Term::False);
        let strict = Term::exists(
            vec![(n.clone(), Sort::Int)],
            Term::and([Term::lt(Term::int(3), i()), Term::lt(i(), Term::int(4))]),
        );
        assert_eq!(strict, Term::False);
        // A bound over a free variable, or another atom, leaves the quantifier to the solver.
        let open = Term::exists(vec![(n.clone(), Sort::Int)], Term::le(x(), i()));
        assert!(matches!(open, Term::Exists(..)));
        let mut smt = Smt::new(5_000);
        assert_eq!(smt.implies(&Term::True, &open), Some(true));
        let eq = Term::exists(vec![(n.clone(), Sort::Int)], Term::eq(i(), Term::int(2)));
        assert!(matches!(eq, Term::Exists(..)));
    }

    /// Hashing follows equality, and a term that shares its subterms hashes in time linear
    /// in its distinct subterms: the cache of implications hashes labels built by
    /// substitutions (as a tree, this one would take 2^64 steps).
    #[test]
    fn a_term_hashes_by_structure_once_per_shared_subterm() {
        use std::hash::BuildHasher;
        let hash =
            |t: &Term| std::hash::BuildHasherDefault::<rustc_hash::FxHasher>::default().hash_one(t);
        let deep = |leaf: Term| {
            (0..64).fold(leaf, |t, _| {
                let t = Rc::new(t);
                Term::Mul(t.clone(), t)
            })
        };
        assert_eq!(hash(&deep(x())), hash(&deep(x())));
        assert_ne!(hash(&deep(x())), hash(&deep(y())));
        let mut cache = FxHashMap::default();
        cache.insert((deep(x()), Term::True), true);
        assert_eq!(cache.get(&(deep(x()), Term::True)), Some(&true));
        assert_eq!(cache.get(&(deep(y()), Term::True)), None);
    }

    /// The simplifying `mod` and `div` against the plain operators: equal for every value
    /// of the variables (the solver finds no counterexample), and simpler where a part is a
    /// multiple of the divisor.
    #[test]
    fn mod_and_div_by_constants_leave_out_multiples_exactly() {
        let raw_mod = |a: Term, m: i128| Term::Mod(Rc::new(a), Rc::new(Term::int(m)));
        let raw_div = |a: Term, d: i128| Term::Div(Rc::new(a), Rc::new(Term::int(d)));
        let k = |c: i128| Term::int(c);
        // A signed 32-bit wrap of a sum of bytes, as the encoding reads four byte cells.
        let wrap32 = |t: Term| Term::sub(raw_mod(Term::add(t, k(1 << 31)), 1 << 32), k(1 << 31));
        let bytes = Term::add(
            Term::add(x(), Term::mul(y(), k(256))),
            Term::mul(Term::var("z", Sort::Int), k(65536)),
        );
        let cases: Vec<(Term, Term)> = vec![
            (
                raw_mod(wrap32(bytes.clone()), 65536),
                Term::modulo(wrap32(bytes.clone()), k(65536)),
            ),
            (
                raw_mod(wrap32(bytes.clone()), 256),
                Term::modulo(wrap32(bytes.clone()), k(256)),
            ),
            (
                raw_div(bytes.clone(), 256),
                Term::div(bytes.clone(), k(256)),
            ),
            (
                raw_div(Term::sub(bytes.clone(), k(512)), 256),
                Term::div(Term::sub(bytes.clone(), k(512)), k(256)),
            ),
            (
                raw_mod(raw_div(raw_mod(x(), 1 << 32), 256), 256),
                Term::modulo(Term::div(raw_mod(x(), 1 << 32), k(256)), k(256)),
            ),
            // Not a multiple: kept.
            (
                raw_mod(raw_div(raw_mod(x(), 1 << 16), 256), 512),
                Term::modulo(Term::div(raw_mod(x(), 1 << 16), k(256)), k(512)),
            ),
            (
                raw_mod(Term::neg(Term::mul(k(-768), y())), 256),
                Term::modulo(Term::neg(Term::mul(k(-768), y())), k(256)),
            ),
            (
                raw_div(Term::add(x(), k(-7)), 4),
                Term::div(Term::add(x(), k(-7)), k(4)),
            ),
        ];
        // Evaluated on values of every sign and size (the solver cannot always tell at once:
        // that is why the terms are simplified).
        fn eval(t: &Term, env: &[(&str, i128)]) -> i128 {
            match t {
                Term::Int(c) => *c,
                Term::Var(n, _) => env.iter().find(|(m, _)| **m == **n).unwrap().1,
                Term::Add(xs) => xs.iter().map(|x| eval(x, env)).sum(),
                Term::Sub(a, b) => eval(a, env) - eval(b, env),
                Term::Neg(a) => -eval(a, env),
                Term::Mul(a, b) => eval(a, env) * eval(b, env),
                Term::Div(a, b) => eval(a, env).div_euclid(eval(b, env)),
                Term::Mod(a, b) => eval(a, env).rem_euclid(eval(b, env)),
                other => panic!("not an integer term: {other:?}"),
            }
        }
        let values = [
            0,
            1,
            -1,
            255,
            256,
            -257,
            65_535,
            -65_536,
            (1 << 31) - 1,
            -(1 << 31),
            (1 << 32) + 77,
            -(1 << 40) - 3,
            123_456_789_012,
        ];
        for (plain, simple) in &cases {
            for &a in &values {
                for &b in &values {
                    for &c in &values[..6] {
                        let env = [("x", a), ("y", b), ("z", c)];
                        assert_eq!(
                            eval(plain, &env),
                            eval(simple, &env),
                            "{plain:?} and {simple:?} at {env:?}"
                        );
                    }
                }
            }
        }
        // Where the parts were multiples, they are gone.
        assert_eq!(
            Term::modulo(wrap32(bytes.clone()), k(256)),
            Term::modulo(x(), k(256))
        );
        assert_eq!(
            Term::div(Term::mul(y(), k(512)), k(256)),
            Term::mul(k(2), y())
        );
    }

    #[test]
    fn checks_implications_and_models() {
        let mut s = Smt::new(5_000);
        let a = Term::and([Term::lt(y(), x()), Term::lt(Term::int(3), y())]);
        assert_eq!(s.implies(&a, &Term::lt(Term::int(4), x())), Some(true));
        assert_eq!(s.implies(&a, &Term::lt(Term::int(5), x())), Some(false));
        // Cached the second time.
        let before = s.stats.checks;
        assert_eq!(s.implies(&a, &Term::lt(Term::int(4), x())), Some(true));
        assert_eq!(s.stats.checks, before);
        s.push();
        s.assert(&a);
        assert_eq!(s.check(), Answer::Sat);
        let m = s.model(&[("x".into(), x()), ("y".into(), y())]).unwrap();
        assert!(m.ints["x"] > m.ints["y"] && m.ints["y"] > 3);
        s.pop();
    }

    #[test]
    fn atoms_cores_and_model_values() {
        let b = Term::var("b", Sort::Bool);
        let f = Term::or([
            Term::and([Term::le(x(), Term::int(4)), b.clone()]),
            Term::not(Term::eq(y(), Term::int(0))),
        ]);
        let mut atoms = Vec::new();
        assert!(f.atoms(&mut atoms));
        assert_eq!(
            atoms,
            vec![Term::le(x(), Term::int(4)), b, Term::eq(y(), Term::int(0))]
        );
        let q = Term::exists(vec![("x".into(), Sort::Int)], f.clone());
        assert!(
            !q.atoms(&mut Vec::new()),
            "quantified formulas have no atoms"
        );

        let mut s = Smt::new(5_000);
        // x <= 4 is implied by x <= 2; y = 7 plays no part.
        let lits = [
            Term::eq(y(), Term::int(7)),
            Term::le(x(), Term::int(2)),
            Term::le(Term::int(0), x()),
        ];
        s.push();
        s.assert(&Term::not(Term::le(x(), Term::int(4))));
        let (a, core) = s.check_core(&lits);
        s.pop();
        assert_eq!(a, Answer::Unsat);
        assert_eq!(core, vec![1]);
        s.push();
        s.assert(&Term::eq(x(), Term::int(3)));
        let (a, core) = s.check_core(&lits[..1]);
        assert_eq!((a, core), (Answer::Sat, vec![]));
        assert_eq!(
            s.eval_bools(&[Term::le(x(), Term::int(4)), Term::lt(x(), Term::int(3))]),
            Some(vec![true, false])
        );
        s.pop();
    }

    #[test]
    fn eliminates_quantifiers_and_reads_back() {
        let mut s = Smt::new(5_000);
        // ∃y. x > y ∧ y > 3  ≡  x ≥ 5
        let f = Term::exists(
            vec![("y".into(), Sort::Int)],
            Term::and([Term::lt(y(), x()), Term::lt(Term::int(3), y())]),
        );
        let q = s.eliminate_quantifiers(&f).unwrap();
        let expected = Term::le(Term::int(5), x());
        assert_eq!(s.implies(&q, &expected), Some(true));
        assert_eq!(s.implies(&expected, &q), Some(true));
        // ∀v. (v > 0 ⇒ x + v > 0)  ≡  x ≥ 0
        let v = Term::var("v", Sort::Int);
        let g = Term::forall(
            vec![("v".into(), Sort::Int)],
            Term::implies(
                Term::lt(Term::int(0), v.clone()),
                Term::lt(Term::int(0), Term::add(x(), v)),
            ),
        );
        let q = s.eliminate_quantifiers(&g).unwrap();
        assert_eq!(s.implies(&q, &Term::le(Term::int(0), x())), Some(true));
        assert_eq!(s.implies(&Term::le(Term::int(0), x()), &q), Some(true));
    }

    #[test]
    fn arrays_and_large_numerals() {
        let mut s = Smt::new(5_000);
        let a = Term::var("a", Sort::Array);
        let big = Term::int(18446744073709551615);
        let st = Term::store(a.clone(), x(), big.clone());
        let f = Term::eq(Term::select(st, x()), big.clone());
        assert_eq!(s.implies(&Term::True, &f), Some(true));
        let g = Term::eq(Term::select(Term::store(a, x(), big), y()), Term::int(0));
        assert_eq!(s.implies(&Term::True, &g), Some(false));
    }

    #[test]
    fn kept_translations_respect_quantifiers() {
        let mut s = Smt::new(5_000);
        // One shared subterm, x = 5: first with x free (kept), then under a quantifier that
        // binds x, where the kept translation (free x) would be wrong.
        let b = Term::var("b", Sort::Bool);
        let a = Term::eq(x(), Term::int(5));
        assert_eq!(
            s.check_terms(&[Term::and([a.clone(), b.clone()])]),
            Answer::Sat
        );
        let bound = Term::forall(
            vec![("x".into(), Sort::Int)],
            Term::and([a.clone(), b.clone()]),
        );
        // x = 5 and (for all x, x = 5 and y): false; with x free inside, it would be sat.
        assert_eq!(
            s.check_terms(&[Term::and([a.clone(), bound.clone()])]),
            Answer::Unsat
        );
        // And the kept translation is still right at the top level afterwards.
        assert_eq!(
            s.check_terms(&[Term::and([a, Term::not(bound), b])]),
            Answer::Sat
        );
    }

    #[test]
    fn numerals_read_back_whatever_their_size_and_sign() {
        let mut s = Smt::new(5_000);
        for v in [0, -7, i64::MAX as i128 + 1, -(1i128 << 100)] {
            s.push();
            s.assert(&Term::eq(x(), Term::int(v)));
            assert_eq!(s.check(), Answer::Sat);
            let m = s.model(&[("x".into(), x())]).unwrap();
            assert_eq!(m.ints["x"], v);
            s.pop();
            let t = s.simplify(&Term::eq(x(), Term::add(Term::int(v), Term::int(0))));
            assert!(
                t == Term::eq(x(), Term::int(v)) || t == Term::eq(Term::int(v), x()),
                "{v}: {t}"
            );
        }
    }

    #[test]
    fn path_checks_keep_only_the_current_path() {
        let mut s = Smt::new(5_000);
        let (x5, xle3, ygt) = (
            Term::le(Term::int(5), x()),
            Term::le(x(), Term::int(3)),
            Term::lt(x(), y()),
        );
        let t = Term::True;
        // Root, then a child constraining x >= 5.
        assert_eq!(s.check_path(&[(0, &t), (1, &x5)], &[]), Answer::Sat);
        assert_eq!(
            s.check_path(&[(0, &t), (1, &x5)], std::slice::from_ref(&xle3)),
            Answer::Unsat
        );
        // A sibling (x <= 3) replaces the child: x >= 5 is no longer asserted.
        assert_eq!(s.check_path(&[(0, &t), (2, &xle3)], &[]), Answer::Sat);
        assert_eq!(
            s.check_path(&[(0, &t), (2, &xle3), (3, &ygt)], &[]),
            Answer::Sat
        );
        assert_eq!(
            s.check_path(
                &[(0, &t), (2, &xle3), (3, &ygt)],
                &[Term::le(y(), Term::int(-10))]
            ),
            Answer::Sat
        );
        assert_eq!(
            s.check_path(
                &[(0, &t), (1, &x5), (4, &ygt)],
                &[Term::le(y(), Term::int(5))]
            ),
            Answer::Unsat
        );
        // Back to the root alone, then the extra formulas are all there is.
        assert_eq!(s.check_path(&[(0, &t)], &[x5, xle3]), Answer::Unsat);
        assert_eq!(s.check_path(&[(0, &t)], &[]), Answer::Sat);
    }

    #[test]
    fn substitution_shares_what_it_replaces_and_leaves_bound_names() {
        let z = Term::var("z", Sort::Int);
        let shared = Term::add(x(), y());
        let t = Term::and([
            Term::le(shared.clone(), Term::int(3)),
            Term::lt(Term::int(0), shared),
            Term::exists(vec![("x".into(), Sort::Int)], Term::eq(x(), y())),
        ]);
        let out = t.substitute(&|n, _| (n == "x" || n == "y").then(|| z.clone()));
        let Term::And(parts) = &out else {
            panic!("{out}")
        };
        let (Term::Le(a, _), Term::Lt(_, b)) = (&parts[0], &parts[1]) else {
            panic!("{out}")
        };
        let (Term::Add(a), Term::Add(b)) = (&**a, &**b) else {
            panic!("{out}")
        };
        assert!(
            Rc::ptr_eq(a, b),
            "one replacement for the shared x + y: {out}"
        );
        assert_eq!(
            parts[2],
            Term::exists(vec![("x".into(), Sort::Int)], Term::eq(x(), z.clone()))
        );
        assert_eq!(
            parts[0],
            Term::le(Term::add(z.clone(), z.clone()), Term::int(3))
        );
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "stands for another formula")]
    fn a_path_id_reused_for_another_formula_is_caught_in_debug_builds() {
        let mut s = Smt::new(5_000);
        let (a, b) = (Term::le(Term::int(5), x()), Term::le(x(), Term::int(3)));
        s.check_path(&[(0, &Term::True), (1, &a)], &[]);
        s.check_path(&[(0, &Term::True), (1, &b)], &[]);
    }

    #[test]
    fn constants_fold_only_when_exact() {
        let (max, min) = (Term::int(i128::MAX), Term::int(i128::MIN));
        // Each of these overflows i128: left as it is, not wrapped.
        let big = [
            Term::add(max.clone(), Term::int(1)),
            Term::sub(min.clone(), Term::int(1)),
            Term::neg(min.clone()),
            Term::mul(max.clone(), Term::int(2)),
            Term::div(min.clone(), Term::int(-1)),
        ];
        for t in &big {
            assert!(!matches!(t, Term::Int(_)), "{t}");
        }
        // And the solver knows their values: all but the last exceed i128's range, by one.
        let mut s = Smt::new(5_000);
        assert_eq!(
            s.implies(&Term::True, &Term::lt(max.clone(), big[0].clone())),
            Some(true)
        );
        assert_eq!(
            s.implies(&Term::True, &Term::lt(big[1].clone(), min.clone())),
            Some(true)
        );
        assert_eq!(
            s.implies(&Term::True, &Term::lt(max.clone(), big[2].clone())),
            Some(true)
        );
        assert_eq!(
            s.implies(&Term::True, &Term::lt(max, big[4].clone())),
            Some(true)
        );
        assert_eq!(Term::add(Term::int(2), Term::int(3)), Term::int(5));
        assert_eq!(Term::modulo(Term::int(-7), Term::int(3)), Term::int(2));
    }

    /// Terms for [`caches_answer_as_a_fresh_solver_does`]: a deterministic generator whose
    /// terms share subterms from a pool that is constantly thinned (so that addresses are
    /// reused), with numerals around the 64-bit limits and quantifiers over names that are
    /// also used free.
    struct Gen {
        state: u64,
        pool: Vec<Term>,
    }

    impl Gen {
        fn below(&mut self, n: u64) -> u64 {
            self.state ^= self.state << 13;
            self.state ^= self.state >> 7;
            self.state ^= self.state << 17;
            self.state % n
        }

        fn int(&mut self, d: u32) -> Term {
            const NUMS: [i128; 6] = [
                0,
                1,
                -3,
                i64::MAX as i128,
                i64::MAX as i128 + 1,
                -(1 << 100),
            ];
            let var = |g: &mut Self| Term::var(["x", "y", "z"][g.below(3) as usize], Sort::Int);
            if d == 0 {
                return match self.below(3) {
                    0 => Term::int(NUMS[self.below(6) as usize]),
                    _ => var(self),
                };
            }
            match self.below(5) {
                0 => Term::add(self.int(d - 1), self.int(d - 1)),
                1 => Term::sub(self.int(d - 1), var(self)),
                2 => Term::mul(Term::int(self.below(5) as i128 - 2), var(self)),
                3 => {
                    let c = self.boolean(d - 1);
                    Term::ite(c, self.int(d - 1), self.int(d - 1))
                }
                _ => Term::modulo(self.int(d - 1), Term::int(3)),
            }
        }

        fn boolean(&mut self, d: u32) -> Term {
            if !self.pool.is_empty() && self.below(3) == 0 {
                let k = self.below(self.pool.len() as u64) as usize;
                return self.pool[k].clone();
            }
            let t = if d == 0 {
                match self.below(3) {
                    0 => Term::var("b", Sort::Bool),
                    1 => Term::le(self.int(0), self.int(0)),
                    _ => Term::eq(self.int(0), self.int(0)),
                }
            } else {
                match self.below(7) {
                    0 => Term::and([self.boolean(d - 1), self.boolean(d - 1)]),
                    1 => Term::or([self.boolean(d - 1), self.boolean(d - 1)]),
                    2 => Term::not(self.boolean(d - 1)),
                    3 => Term::le(self.int(d - 1), self.int(d - 1)),
                    4 => Term::lt(self.int(d - 1), self.int(d - 1)),
                    5 => {
                        let (n, sort) =
                            [("x", Sort::Int), ("b", Sort::Bool)][self.below(2) as usize];
                        let body = self.boolean(d - 1);
                        Term::exists(vec![(n.into(), sort)], body)
                    }
                    _ => Term::eq(self.int(d - 1), self.int(d - 1)),
                }
            };
            if self.below(3) == 0 {
                self.pool.push(t.clone());
            }
            t
        }
    }

    /// The caches (kept translations, read-back terms, the path solver) give the answers a
    /// solver made afresh for each query gives.
    #[test]
    fn caches_answer_as_a_fresh_solver_does() {
        let mut g = Gen {
            state: 0x9e37_79b9_7f4a_7c15,
            pool: Vec::new(),
        };
        let mut s = Smt::new(5_000);
        let same = |a: &Answer, b: &Answer| {
            matches!(a, Answer::Unknown(_)) || matches!(b, Answer::Unknown(_)) || a == b
        };
        // An ART-like tree of path constraints: (parent, constraint).
        let mut nodes: Vec<(Option<usize>, Term)> = vec![(None, Term::True)];
        let mut cur = 0;
        let mut decided = 0;
        for round in 0..300 {
            while g.pool.len() > 20 {
                let k = g.below(g.pool.len() as u64) as usize;
                g.pool.swap_remove(k);
            }
            match g.below(3) {
                0 => {
                    let ts = [g.boolean(3), g.boolean(2)];
                    let (a, b) = (s.check_terms(&ts), Smt::new(5_000).check_terms(&ts));
                    assert!(same(&a, &b), "round {round}: {a:?} vs {b:?} for {ts:?}");
                    decided += usize::from(!matches!(a, Answer::Unknown(_)));
                }
                1 => {
                    if g.below(2) == 0 {
                        nodes.push((Some(cur), g.boolean(2)));
                        cur = nodes.len() - 1;
                    } else {
                        cur = g.below(nodes.len() as u64) as usize;
                    }
                    let mut path = Vec::new();
                    let mut x = Some(cur);
                    while let Some(n) = x {
                        path.push(n);
                        x = nodes[n].0;
                    }
                    path.reverse();
                    let frames: Vec<(u64, &Term)> =
                        path.iter().map(|&n| (n as u64, &nodes[n].1)).collect();
                    let extra = [g.boolean(1)];
                    let a = s.check_path(&frames, &extra);
                    let mut all: Vec<Term> = path.iter().map(|&n| nodes[n].1.clone()).collect();
                    all.extend(extra);
                    let b = Smt::new(5_000).check_terms(&all);
                    assert!(same(&a, &b), "round {round}: {a:?} vs {b:?} on a path");
                    decided += usize::from(!matches!(a, Answer::Unknown(_)));
                    if a == Answer::Unsat {
                        cur = 0;
                    }
                }
                _ => {
                    let t = g.boolean(3);
                    let u = s.simplify(&t);
                    let differ = Term::not(Term::eq(t.clone(), u.clone()));
                    let b = Smt::new(5_000).check_terms(&[differ]);
                    assert_ne!(b, Answer::Sat, "round {round}: {t} simplified to {u}");
                    g.pool.push(u);
                }
            }
        }
        assert!(decided > 100, "only {decided} queries decided");
    }

    /// A backend that cannot decide anything.
    struct Undecided;

    impl Backend for Undecided {
        fn set_deadline(&mut self, _: std::time::Instant) {}
        fn push(&mut self) {}
        fn pop(&mut self) {}
        fn assert(&mut self, _: &Term) {}
        fn check(&mut self) -> Answer {
            Answer::Unknown("undecided".into())
        }
        fn check_path(&mut self, _: &[(u64, &Term)], _: &[Term]) -> Answer {
            self.check()
        }
        fn check_core(&mut self, _: &[Term]) -> (Answer, Vec<usize>) {
            (self.check(), Vec::new())
        }
        fn model(&mut self, _: &[(String, Term)]) -> Option<Model> {
            None
        }
        fn eval_bools(&mut self, _: &[Term]) -> Option<Vec<bool>> {
            None
        }
        fn eliminate_quantifiers(&mut self, _: &Term) -> Option<Term> {
            None
        }
        fn simplify(&mut self, t: &Term) -> Term {
            t.clone()
        }
    }

    /// What the solver layer decides without a backend it decides (a premise's fixed values
    /// folded into the goal), and what it leaves undecided: an implication the backend cannot
    /// decide is `None` with the backend's reason, never cached as an answer.
    #[test]
    fn an_undecided_backend_leaves_implications_undecided() {
        let mut s = Smt::with_backend(Box::new(Undecided));
        let premise = Term::and([Term::eq(x(), Term::int(3)), Term::le(Term::int(0), y())]);
        // x = 3 decides x < 4 and x = 5 without the backend.
        assert_eq!(
            s.implies(&premise, &Term::lt(x(), Term::int(4))),
            Some(true)
        );
        assert_eq!(
            s.implies(&premise, &Term::eq(x(), Term::int(5))),
            Some(false)
        );
        assert_eq!(s.stats.checks, 0);
        // y < 10 needs the backend.
        let goal = Term::lt(y(), Term::int(10));
        assert_eq!(s.implies(&premise, &goal), None);
        assert_eq!(s.last_unknown, "undecided");
        assert_eq!(s.implies(&premise, &goal), None);
        assert_eq!(s.stats.checks, 2);
        assert_eq!(s.check_terms(&[goal]), Answer::Unknown("undecided".into()));
    }

    #[test]
    fn unknown_is_not_unsat() {
        let mut s = Smt::new(1);
        // A nonlinear problem with a 1 ms budget: whatever the answer, it must not panic, and
        // an unknown is reported as such.
        let f = Term::and([
            Term::eq(
                Term::mul(x(), x()),
                Term::add(Term::mul(y(), y()), Term::int(1_000_003)),
            ),
            Term::lt(Term::int(1_000_000), x()),
        ]);
        match s.check_terms(&[f]) {
            Answer::Unknown(r) => assert!(!r.is_empty()),
            Answer::Sat | Answer::Unsat => {}
        }
    }
}
