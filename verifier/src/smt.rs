//! The solver boundary: the only module that uses the `z3` crate.
//!
//! Formulas are this module's own [`Term`]s (integers, booleans, integer arrays, quantifiers;
//! defined in `term`, which knows nothing of the solver); one `match` translates them to Z3 and one translates Z3's answers (simplified formulas,
//! quantifier-eliminated formulas) back. A check returns [`Answer::Unknown`] (with Z3's reason,
//! e.g. a timeout) as a first-class result: callers must treat it as "cannot tell", never as
//! "unsat". Implication queries are cached.
//!
//! Speed: the verifier asks many questions about the same formulas (a node's path, a label).
//! Path queries go to a second solver that keeps the last path asserted
//! ([`Smt::check_path`]); Z3 constants of variables and numerals, translations of shared
//! subterms and terms read back are kept in caches (bounded, found by address, each entry
//! holding what it was found by so that no other term takes that address).
//!
//! Used by the ART verifier (seed 002, "Iterative model checking": labels, coverings,
//! enabledness) and the IVR checker.

mod known;
mod term;

use known::{Blocks, Known};
use rustc_hash::FxHashMap;
use std::collections::HashMap;
use std::rc::Rc;
pub(crate) use term::Identity;
pub use term::{FlatTerm, Sort, Term, TermTable};
use z3::ast::{Ast, Bool, Dynamic, Int};

/// The answer to a satisfiability check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    Sat,
    Unsat,
    /// The solver could not decide (timeout, incompleteness); the reason as Z3 gives it.
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
    /// Satisfiability checks sent to Z3.
    pub checks: u64,
    /// Implication queries answered from the cache.
    pub cache_hits: u64,
    /// Quantifier eliminations.
    pub qe: u64,
}

/// A Z3 context with a solver; one per verification run.
pub struct Smt {
    ctx: &'static z3::Context,
    solver: z3::Solver<'static>,
    timeout_ms: u32,
    /// The timeout the solver's parameters hold now (setting them takes Z3's global lock).
    set_ms: u32,
    /// A second solver for [`Smt::check_path`]: it keeps the formulas of the last path
    /// asserted, one scope each, with their ids and the formulas in `path_ids`.
    path: z3::Solver<'static>,
    path_ids: Vec<(u64, Term)>,
    path_set_ms: u32,
    implies_cache: FxHashMap<(Term, Term), bool>,
    /// The last premise [`Smt::implies`] folded values into.
    last_premise: Option<Premise>,
    /// Scratch space of [`Term::substitute_known`].
    scratch: FxHashMap<Identity, Term>,
    /// The blocks of cells met in premises.
    blocks: Blocks,
    /// The Z3 constants of the free variables met so far (making one from its name costs
    /// more than looking it up).
    consts: std::cell::RefCell<FxHashMap<(Rc<str>, Sort), Dynamic<'static>>>,
    /// The same for integer numerals.
    numerals: std::cell::RefCell<FxHashMap<i128, Dynamic<'static>>>,
    /// Translations of subterms kept across queries ([`Smt::kept`]).
    kept: std::cell::RefCell<FxHashMap<usize, (Keep, Dynamic<'static>)>>,
    /// Z3 terms read back ([`Smt::read_back`]).
    back: std::cell::RefCell<FxHashMap<usize, (Dynamic<'static>, Option<Term>)>>,
    /// Work done so far.
    pub stats: Stats,
    /// Z3's reason for the last `Unknown` answer.
    pub last_unknown: String,
    /// No query may run past this instant.
    deadline: Option<std::time::Instant>,
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
    /// A solver whose checks give up (answer unknown) after `timeout_ms` milliseconds.
    pub fn new(timeout_ms: u32) -> Smt {
        let cfg = z3::Config::new();
        // One context per verification run, kept for the life of the process: Z3's ASTs
        // borrow it, and the solver lives next to it.
        let ctx: &'static z3::Context = Box::leak(Box::new(z3::Context::new(&cfg)));
        let solver = z3::Solver::new(ctx);
        let path = z3::Solver::new(ctx);
        let mut p = z3::Params::new(ctx);
        p.set_u32("timeout", timeout_ms);
        solver.set_params(&p);
        path.set_params(&p);
        Smt {
            ctx,
            solver,
            timeout_ms,
            set_ms: timeout_ms,
            path,
            path_ids: Vec::new(),
            path_set_ms: timeout_ms,
            implies_cache: FxHashMap::default(),
            last_premise: None,
            scratch: FxHashMap::default(),
            blocks: Blocks::default(),
            consts: Default::default(),
            numerals: Default::default(),
            kept: Default::default(),
            back: Default::default(),
            stats: Stats::default(),
            last_unknown: String::new(),
            deadline: None,
        }
    }

    /// Makes every later query give up (answer unknown) at `deadline`.
    pub fn set_deadline(&mut self, deadline: std::time::Instant) {
        self.deadline = Some(deadline);
    }

    /// The time a query may take now, in milliseconds (0: the deadline has passed).
    fn budget_ms(&self) -> u32 {
        match self.deadline {
            None => self.timeout_ms,
            Some(d) => {
                let left = d
                    .saturating_duration_since(std::time::Instant::now())
                    .as_millis();
                (left.min(self.timeout_ms as u128)) as u32
            }
        }
    }

    /// Opens a scope of assertions.
    pub fn push(&mut self) {
        self.solver.push();
    }

    /// Drops the assertions of the innermost scope.
    pub fn pop(&mut self) {
        self.solver.pop(1);
    }

    /// Adds an assertion to the current scope.
    pub fn assert(&mut self, t: &Term) {
        let b = self.to_bool(t);
        self.solver.assert(&b);
    }

    /// Checks the current assertions.
    pub fn check(&mut self) -> Answer {
        self.stats.checks += 1;
        let _t0 = std::time::Instant::now();
        let r = self.check_inner();
        if debug_timing() && _t0.elapsed().as_millis() > 200 {
            eprintln!("check {:?} -> {r:?}", _t0.elapsed());
        }
        r
    }

    fn check_inner(&mut self) -> Answer {
        self.solve(&[])
    }

    /// Checks the current assertions under `assumptions` within the time left; records Z3's
    /// reason for an unknown answer.
    fn solve(&mut self, assumptions: &[Bool<'static>]) -> Answer {
        self.solve_on(false, assumptions)
    }

    /// [`Smt::solve`] on the main solver or (`path`) the path solver.
    fn solve_on(&mut self, path: bool, assumptions: &[Bool<'static>]) -> Answer {
        let budget = self.budget_ms();
        if budget == 0 {
            self.last_unknown = "deadline reached".into();
            return Answer::Unknown(self.last_unknown.clone());
        }
        let (solver, set_ms) = if path {
            (&self.path, &mut self.path_set_ms)
        } else {
            (&self.solver, &mut self.set_ms)
        };
        if budget != *set_ms {
            let mut p = z3::Params::new(self.ctx);
            p.set_u32("timeout", budget);
            solver.set_params(&p);
            *set_ms = budget;
        }
        match solver.check_assumptions(assumptions) {
            z3::SatResult::Sat => Answer::Sat,
            z3::SatResult::Unsat => Answer::Unsat,
            z3::SatResult::Unknown => {
                self.last_unknown = solver
                    .get_reason_unknown()
                    .unwrap_or_else(|| "unknown".into());
                Answer::Unknown(self.last_unknown.clone())
            }
        }
    }

    /// Checks the conjunction of a path's formulas and `extra`. The path is a list of
    /// `(id, formula)`, outermost first; an id must always stand for the same formula. The
    /// path solver keeps the last path's formulas asserted, so that a path sharing a prefix
    /// with the last one (the next node of a depth-first search) asserts only what is new,
    /// and Z3 keeps what it learned about the prefix.
    pub fn check_path(&mut self, frames: &[(u64, &Term)], extra: &[Term]) -> Answer {
        self.stats.checks += 1;
        let same = self
            .path_ids
            .iter()
            .zip(frames)
            .take_while(|((a, fa), (b, fb))| {
                // (The caller's promise: an id always stands for the same formula.)
                debug_assert!(
                    a != b || fa.identity() == fb.identity() || fa == *fb,
                    "path frame {a} stands for another formula"
                );
                a == b
            })
            .count();
        if self.path_ids.len() > same {
            self.path.pop((self.path_ids.len() - same) as u32);
            self.path_ids.truncate(same);
        }
        for (id, f) in &frames[same..] {
            self.path.push();
            let b = self.to_bool(f);
            self.path.assert(&b);
            self.path_ids.push((*id, (*f).clone()));
        }
        self.path.push();
        for t in extra {
            let b = self.to_bool(t);
            self.path.assert(&b);
        }
        let a = self.solve_on(true, &[]);
        self.path.pop(1);
        a
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

    /// The values of integer variables in a model of the current assertions (after `Sat`).
    pub fn model(&mut self, vars: &[(String, Term)]) -> Option<Model> {
        let m = self.solver.get_model()?;
        let mut out = Model::default();
        for (name, t) in vars {
            let z = self.to_int(t);
            if let Some(x) = m.eval(&z, true).as_ref().and_then(numeral) {
                out.ints.insert(name.clone(), x);
            }
        }
        Some(out)
    }

    /// The truth values of formulas in the model of the last `Sat` check.
    pub fn eval_bools(&mut self, ts: &[Term]) -> Option<Vec<bool>> {
        let m = self.solver.get_model()?;
        ts.iter()
            .map(|t| m.eval(&self.to_bool(t), true).and_then(|b| b.as_bool()))
            .collect()
    }

    /// Checks the current assertions together with the formulas `lits`. When unsatisfiable,
    /// also returns the indices of the `lits` the proof used (an unsat core, not always
    /// minimal).
    pub fn check_core(&mut self, lits: &[Term]) -> (Answer, Vec<usize>) {
        self.stats.checks += 1;
        self.push();
        let names: Vec<String> = (0..lits.len()).map(|i| format!("__core!{i}")).collect();
        let marks: Vec<Bool<'static>> = names
            .iter()
            .map(|n| Bool::new_const(self.ctx, n.as_str()))
            .collect();
        for (m, l) in marks.iter().zip(lits) {
            let l = self.to_bool(l);
            self.solver.assert(&m.implies(&l));
        }
        let answer = self.solve(&marks);
        let used = if answer == Answer::Unsat {
            let core: Vec<String> = self
                .solver
                .get_unsat_core()
                .iter()
                .map(|b| b.to_string())
                .collect();
            names
                .iter()
                .enumerate()
                .filter(|(_, n)| core.iter().any(|c| c.trim_matches('|') == *n))
                .map(|(i, _)| i)
                .collect()
        } else {
            Vec::new()
        };
        self.pop();
        (answer, used)
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

    /// Eliminates the quantifiers of `t` (Z3's `qe` tactic, then simplification); `None` when
    /// the result is not quantifier-free or cannot be read back.
    pub fn eliminate_quantifiers(&mut self, t: &Term) -> Option<Term> {
        self.stats.qe += 1;
        let _t0 = std::time::Instant::now();
        let r = self.eliminate_quantifiers_inner(t);
        if debug_timing() {
            eprintln!(
                "qe {:?} size {} -> {:?}",
                _t0.elapsed(),
                t.size(),
                r.as_ref().map(|x| x.size())
            );
            if _t0.elapsed().as_millis() > 500 {
                eprintln!("  {t}");
            }
        }
        r
    }

    fn eliminate_quantifiers_inner(&mut self, t: &Term) -> Option<Term> {
        let g = z3::Goal::new(self.ctx, false, false, false);
        g.assert(&self.to_bool(t));
        let tactic = z3::Tactic::new(self.ctx, "qe")
            .and_then(&z3::Tactic::new(self.ctx, "simplify"))
            .try_for(std::time::Duration::from_millis(
                self.budget_ms().max(1) as u64
            ));
        let r = tactic.apply(&g, None).ok()?;
        let mut parts = Vec::new();
        for sg in r.list_subgoals() {
            let fs: Vec<Term> = sg
                .get_formulas::<Bool>()
                .iter()
                .map(|f| self.read_back(&Dynamic::from_ast(f)))
                .collect::<Option<_>>()?;
            parts.push(Term::and(fs));
        }
        let out = Term::or(parts);
        let mut fv = Vec::new();
        out.free_vars(&mut fv);
        (!contains_quantifier(&out)).then_some(out)
    }

    /// Z3's simplification of a formula, read back.
    pub fn simplify(&mut self, t: &Term) -> Term {
        let z = self.to_bool(t).simplify();
        self.read_back(&Dynamic::from_ast(&z))
            .unwrap_or_else(|| t.clone())
    }

    fn to_bool(&self, t: &Term) -> Bool<'static> {
        self.to_z3(t, &mut Scope::default())
            .as_bool()
            .unwrap_or_else(|| Bool::from_bool(self.ctx, false))
    }

    fn to_int(&self, t: &Term) -> Int<'static> {
        self.to_z3(t, &mut Scope::default())
            .as_int()
            .unwrap_or_else(|| Int::from_i64(self.ctx, 0))
    }

    fn to_z3(&self, t: &Term, bound: &mut Scope) -> Dynamic<'static> {
        // Terms share subterms (weakest preconditions substitute the same value at every
        // occurrence): translate each shared node once.
        let key = t as *const Term as usize;
        if let Some(d) = bound.memo.get(&key) {
            return d.clone();
        }
        let d = self.to_z3_node(t, bound);
        bound.memo.insert(key, d.clone());
        d
    }

    /// The translation of `x`, a subterm held by `owner`: kept across queries when outside
    /// quantifiers (the same subterms come back in query after query: a path's formula, a
    /// label). Kept entries are found by address, and each holds its subterm's allocation so
    /// that no other term can take that address.
    fn kept(&self, x: &Term, owner: impl FnOnce() -> Keep, bound: &mut Scope) -> Dynamic<'static> {
        if !bound.vars.is_empty() {
            return self.to_z3(x, bound);
        }
        let key = x as *const Term as usize;
        if let Some((_, d)) = self.kept.borrow().get(&key) {
            return d.clone();
        }
        let d = self.to_z3(x, bound);
        keep(&mut self.kept.borrow_mut(), key, (owner(), d.clone()));
        d
    }

    fn to_z3_node(&self, t: &Term, bound: &mut Scope) -> Dynamic<'static> {
        let ctx = self.ctx;
        let one = |x: &Rc<Term>, bound: &mut Scope| self.kept(x, || Keep::One(x.clone()), bound);
        let b = |x: &Rc<Term>, bound: &mut Scope| one(x, bound).as_bool().expect("boolean term");
        let i = |x: &Rc<Term>, bound: &mut Scope| one(x, bound).as_int().expect("integer term");
        let many = |xs: &Rc<[Term]>, bound: &mut Scope| -> Vec<Dynamic<'static>> {
            xs.iter()
                .map(|x| self.kept(x, || Keep::Many(xs.clone()), bound))
                .collect()
        };
        match t {
            Term::True => Dynamic::from_ast(&Bool::from_bool(ctx, true)),
            Term::False => Dynamic::from_ast(&Bool::from_bool(ctx, false)),
            Term::Int(v) => self
                .numerals
                .borrow_mut()
                .entry(*v)
                .or_insert_with(|| {
                    Dynamic::from_ast(&match i64::try_from(*v) {
                        Ok(x) => Int::from_i64(ctx, x),
                        Err(_) => Int::from_str(ctx, &v.to_string()).expect("numeral"),
                    })
                })
                .clone(),
            Term::Var(n, s) => {
                if let Some(d) = bound.vars.get(n) {
                    return d.clone();
                }
                self.consts
                    .borrow_mut()
                    .entry((n.clone(), *s))
                    .or_insert_with(|| var_z3(ctx, n, *s))
                    .clone()
            }
            Term::Not(a) => Dynamic::from_ast(&b(a, bound).not()),
            Term::And(xs) => {
                let v: Vec<Bool> = many(xs, bound)
                    .iter()
                    .map(|x| x.as_bool().expect("boolean term"))
                    .collect();
                Dynamic::from_ast(&Bool::and(ctx, &v.iter().collect::<Vec<_>>()))
            }
            Term::Or(xs) => {
                let v: Vec<Bool> = many(xs, bound)
                    .iter()
                    .map(|x| x.as_bool().expect("boolean term"))
                    .collect();
                Dynamic::from_ast(&Bool::or(ctx, &v.iter().collect::<Vec<_>>()))
            }
            Term::Implies(x, y) => Dynamic::from_ast(&b(x, bound).implies(&b(y, bound))),
            Term::Ite(c, x, y) => {
                let c = b(c, bound);
                let x = one(x, bound);
                let y = one(y, bound);
                c.ite(&x, &y)
            }
            Term::Eq(x, y) => {
                let x = one(x, bound);
                let y = one(y, bound);
                Dynamic::from_ast(&x._eq(&y))
            }
            Term::Le(x, y) => Dynamic::from_ast(&i(x, bound).le(&i(y, bound))),
            Term::Lt(x, y) => Dynamic::from_ast(&i(x, bound).lt(&i(y, bound))),
            Term::Add(xs) => {
                let v: Vec<Int> = many(xs, bound)
                    .iter()
                    .map(|x| x.as_int().expect("integer term"))
                    .collect();
                Dynamic::from_ast(&Int::add(ctx, &v.iter().collect::<Vec<_>>()))
            }
            Term::Sub(x, y) => Dynamic::from_ast(&Int::sub(ctx, &[&i(x, bound), &i(y, bound)])),
            Term::Neg(x) => Dynamic::from_ast(&i(x, bound).unary_minus()),
            Term::Mul(x, y) => Dynamic::from_ast(&Int::mul(ctx, &[&i(x, bound), &i(y, bound)])),
            Term::Div(x, y) => Dynamic::from_ast(&i(x, bound).div(&i(y, bound))),
            Term::Mod(x, y) => Dynamic::from_ast(&i(x, bound).modulo(&i(y, bound))),
            Term::Select(a, x) => {
                let a = one(a, bound).as_array().expect("array term");
                a.select(&i(x, bound))
            }
            Term::Store(a, x, v) => {
                let a = one(a, bound).as_array().expect("array term");
                Dynamic::from_ast(&a.store(&i(x, bound), &i(v, bound)))
            }
            Term::Forall(vs, body) | Term::Exists(vs, body) => {
                let mut inner = Scope {
                    vars: bound.vars.clone(),
                    memo: FxHashMap::default(),
                };
                let consts: Vec<Dynamic<'static>> = vs
                    .iter()
                    .map(|(n, s)| {
                        let d = var_z3(ctx, n, *s);
                        inner.vars.insert(n.clone(), d.clone());
                        d
                    })
                    .collect();
                let body = b(body, &mut inner);
                let refs: Vec<&dyn Ast<'static>> = consts.iter().map(|c| c as &dyn Ast).collect();
                let q = if matches!(t, Term::Forall(..)) {
                    z3::ast::forall_const(ctx, &refs, &[], &body)
                } else {
                    z3::ast::exists_const(ctx, &refs, &[], &body)
                };
                Dynamic::from_ast(&q)
            }
        }
    }
}

/// Whether `SYNTH_DEBUG_SMT` asks for the timing of slow queries (read once).
fn debug_timing() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("SYNTH_DEBUG_SMT").is_some())
}

/// Most entries a cache by address ([`Smt::kept`], [`Smt::read_back`]) holds (beyond, it
/// starts afresh).
const MAX_KEPT: usize = 1 << 14;

/// Adds an entry to a cache by address, emptying it first when it is full.
fn keep<V>(cache: &mut FxHashMap<usize, V>, key: usize, v: V) {
    if cache.len() >= MAX_KEPT {
        cache.clear();
    }
    cache.insert(key, v);
}

/// What keeps a subterm's allocation alive in [`Smt::kept`]: the subterm, or the list it is
/// one of.
enum Keep {
    One(#[allow(dead_code)] Rc<Term>),
    Many(#[allow(dead_code)] Rc<[Term]>),
}

/// Variables bound by enclosing quantifiers, and the translations made so far.
#[derive(Default)]
struct Scope {
    vars: HashMap<Rc<str>, Dynamic<'static>>,
    memo: FxHashMap<usize, Dynamic<'static>>,
}

fn var_z3(ctx: &'static z3::Context, n: &str, s: Sort) -> Dynamic<'static> {
    match s {
        Sort::Bool => Dynamic::from_ast(&Bool::new_const(ctx, n)),
        Sort::Int => Dynamic::from_ast(&Int::new_const(ctx, n)),
        Sort::Array => Dynamic::from_ast(&z3::ast::Array::new_const(
            ctx,
            n,
            &z3::Sort::int(ctx),
            &z3::Sort::int(ctx),
        )),
    }
}

fn contains_quantifier(t: &Term) -> bool {
    matches!(t, Term::Forall(..) | Term::Exists(..))
        || t.children().into_iter().any(contains_quantifier)
}

/// The value of an integer numeral (`None`: not a numeral, or beyond `i128`).
fn numeral(i: &Int<'static>) -> Option<i128> {
    if i.kind() != z3::AstKind::Numeral {
        return None;
    }
    if let Some(x) = i.as_i64() {
        return Some(x as i128);
    }
    // (Beyond 64 bits: Z3 prints a numeral in decimal, a negative one as `(- n)`.)
    i.to_string().replace(['(', ')', ' '], "").parse().ok()
}

impl Smt {
    /// Reads a Z3 term back; `None` for operators this module does not know. Z3's terms are
    /// shared (one node per distinct subterm); so are the terms read back, through a cache
    /// by Z3 node (each entry holds its node, so that no other node can take its address):
    /// labels read back after simplification would otherwise repeat their common parts.
    fn read_back(&self, d: &Dynamic<'static>) -> Option<Term> {
        let key = d.get_z3_ast() as usize;
        if let Some((_, t)) = self.back.borrow().get(&key) {
            return t.clone();
        }
        let t = self.read_back_node(d);
        keep(&mut self.back.borrow_mut(), key, (d.clone(), t.clone()));
        t
    }

    fn read_back_node(&self, d: &Dynamic<'static>) -> Option<Term> {
        use z3::DeclKind as K;
        if d.kind() == z3::AstKind::Quantifier {
            return None;
        }
        if let Some(b) = d.as_bool().and_then(|b| b.as_bool()) {
            return Some(Term::bool(b));
        }
        if d.kind() == z3::AstKind::Numeral {
            return d.as_int().as_ref().and_then(numeral).map(Term::Int);
        }
        let decl = d.safe_decl().ok()?;
        let kids: Vec<Term> = d
            .children()
            .iter()
            .map(|k| self.read_back(k))
            .collect::<Option<_>>()?;
        let k = |n: usize| kids.get(n).cloned();
        Some(match decl.kind() {
            K::TRUE => Term::True,
            K::FALSE => Term::False,
            K::AND => Term::and(kids),
            K::OR => Term::or(kids),
            K::NOT => Term::not(k(0)?),
            K::IMPLIES => Term::implies(k(0)?, k(1)?),
            K::ITE => Term::ite(k(0)?, k(1)?, k(2)?),
            K::EQ | K::IFF => Term::eq(k(0)?, k(1)?),
            K::DISTINCT if kids.len() == 2 => Term::not(Term::eq(k(0)?, k(1)?)),
            K::LE => Term::le(k(0)?, k(1)?),
            K::GE => Term::le(k(1)?, k(0)?),
            K::LT => Term::lt(k(0)?, k(1)?),
            K::GT => Term::lt(k(1)?, k(0)?),
            K::ADD => kids.into_iter().reduce(Term::add)?,
            K::SUB => kids.into_iter().reduce(Term::sub)?,
            K::UMINUS => Term::neg(k(0)?),
            K::MUL => kids.into_iter().reduce(Term::mul)?,
            K::IDIV => Term::div(k(0)?, k(1)?),
            K::MOD => Term::modulo(k(0)?, k(1)?),
            K::SELECT => Term::select(k(0)?, k(1)?),
            K::STORE => Term::store(k(0)?, k(1)?, k(2)?),
            K::ANUM => Term::Int(numeral(&d.as_int()?)?),
            K::UNINTERPRETED if kids.is_empty() => {
                let s = match d.sort_kind() {
                    z3::SortKind::Bool => Sort::Bool,
                    z3::SortKind::Int => Sort::Int,
                    z3::SortKind::Array => Sort::Array,
                    _ => return None,
                };
                Term::Var(decl.name().into(), s)
            }
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
