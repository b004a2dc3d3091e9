//! The Z3 backend of the solver boundary ([`super::Backend`]): the only file that uses the
//! `z3` crate.
//!
//! One `match` translates [`Term`]s to Z3 and one translates Z3's answers (simplified
//! formulas, quantifier-eliminated formulas) back. Path queries go to a second solver that
//! keeps the last path asserted ([`Backend::check_path`]); Z3 constants of variables and
//! numerals, translations of shared subterms and terms read back are kept in caches (bounded,
//! found by address, each entry holding what it was found by so that no other term takes
//! that address).

use super::{Answer, Backend, Model, Sort, Term};
use rustc_hash::FxHashMap;
use std::collections::HashMap;
use std::rc::Rc;
use z3::ast::{Ast, Bool, Dynamic, Int};

/// A Z3 context with its solvers; one per verification run.
pub struct Z3 {
    ctx: &'static z3::Context,
    solver: z3::Solver<'static>,
    timeout_ms: u32,
    /// The timeout the solver's parameters hold now (setting them takes Z3's global lock).
    set_ms: u32,
    /// A second solver for [`Backend::check_path`]: it keeps the formulas of the last path
    /// asserted, one scope each, with their ids and the formulas in `path_ids`.
    path: z3::Solver<'static>,
    path_ids: Vec<(u64, Term)>,
    path_set_ms: u32,
    /// The Z3 constants of the free variables met so far (making one from its name costs
    /// more than looking it up).
    consts: std::cell::RefCell<FxHashMap<(Rc<str>, Sort), Dynamic<'static>>>,
    /// The same for integer numerals.
    numerals: std::cell::RefCell<FxHashMap<i128, Dynamic<'static>>>,
    /// Translations of subterms kept across queries ([`Z3::kept`]).
    kept: std::cell::RefCell<FxHashMap<usize, (Keep, Dynamic<'static>)>>,
    /// Z3 terms read back ([`Z3::read_back`]).
    back: std::cell::RefCell<FxHashMap<usize, (Dynamic<'static>, Option<Term>)>>,
    /// No query may run past this instant.
    deadline: Option<std::time::Instant>,
}

impl Z3 {
    /// A solver whose checks give up (answer unknown) after `timeout_ms` milliseconds.
    pub fn new(timeout_ms: u32) -> Z3 {
        let cfg = z3::Config::new();
        // One context per verification run, kept for the life of the process: Z3's ASTs
        // borrow it, and the solver lives next to it.
        let ctx: &'static z3::Context = Box::leak(Box::new(z3::Context::new(&cfg)));
        let solver = z3::Solver::new(ctx);
        let path = z3::Solver::new(ctx);
        let p = params(ctx, timeout_ms);
        solver.set_params(&p);
        path.set_params(&p);
        Z3 {
            ctx,
            solver,
            timeout_ms,
            set_ms: timeout_ms,
            path,
            path_ids: Vec::new(),
            path_set_ms: timeout_ms,
            consts: Default::default(),
            numerals: Default::default(),
            kept: Default::default(),
            back: Default::default(),
            deadline: None,
        }
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

    /// Checks the main solver's assertions (or, `path`, the path solver's) under
    /// `assumptions` within the time left.
    fn solve_on(&mut self, path: bool, assumptions: &[Bool<'static>]) -> Answer {
        let budget = self.budget_ms();
        if budget == 0 {
            return Answer::Unknown("deadline reached".into());
        }
        let (solver, set_ms) = if path {
            (&self.path, &mut self.path_set_ms)
        } else {
            (&self.solver, &mut self.set_ms)
        };
        if budget != *set_ms {
            solver.set_params(&params(self.ctx, budget));
            *set_ms = budget;
        }
        match solver.check_assumptions(assumptions) {
            z3::SatResult::Sat => Answer::Sat,
            z3::SatResult::Unsat => Answer::Unsat,
            z3::SatResult::Unknown => Answer::Unknown(
                solver
                    .get_reason_unknown()
                    .unwrap_or_else(|| "unknown".into()),
            ),
        }
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
        (!contains_quantifier(&out)).then_some(out)
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
            Term::And(xs) | Term::Or(xs) => {
                let v: Vec<Bool> = many(xs, bound)
                    .iter()
                    .map(|x| x.as_bool().expect("boolean term"))
                    .collect();
                let v: Vec<&Bool> = v.iter().collect();
                Dynamic::from_ast(&if matches!(t, Term::And(_)) {
                    Bool::and(ctx, &v)
                } else {
                    Bool::or(ctx, &v)
                })
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

impl Backend for Z3 {
    fn set_deadline(&mut self, deadline: std::time::Instant) {
        self.deadline = Some(deadline);
    }

    fn push(&mut self) {
        self.solver.push();
    }

    fn pop(&mut self) {
        self.solver.pop(1);
    }

    fn assert(&mut self, t: &Term) {
        let b = self.to_bool(t);
        self.solver.assert(&b);
    }

    fn check(&mut self) -> Answer {
        let _t0 = std::time::Instant::now();
        let r = self.solve_on(false, &[]);
        if debug_timing() && _t0.elapsed().as_millis() > 200 {
            eprintln!("check {:?} -> {r:?}", _t0.elapsed());
        }
        r
    }

    /// The path solver keeps the last path's formulas asserted, so that a path sharing a
    /// prefix with the last one (the next node of a depth-first search) asserts only what is
    /// new, and Z3 keeps what it learned about the prefix.
    fn check_path(&mut self, frames: &[(u64, &Term)], extra: &[Term]) -> Answer {
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

    fn model(&mut self, vars: &[(String, Term)]) -> Option<Model> {
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

    fn eval_bools(&mut self, ts: &[Term]) -> Option<Vec<bool>> {
        let m = self.solver.get_model()?;
        ts.iter()
            .map(|t| m.eval(&self.to_bool(t), true).and_then(|b| b.as_bool()))
            .collect()
    }

    fn check_core(&mut self, lits: &[Term]) -> (Answer, Vec<usize>) {
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
        let answer = self.solve_on(false, &marks);
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

    /// Z3's `qe` tactic, then simplification.
    fn eliminate_quantifiers(&mut self, t: &Term) -> Option<Term> {
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

    fn simplify(&mut self, t: &Term) -> Term {
        // (A result this module cannot read back leaves `t` as it is.)
        let z = self.to_bool(t).simplify();
        self.read_back(&Dynamic::from_ast(&z))
            .unwrap_or_else(|| t.clone())
    }
}

/// A solver's parameters: checks give up after `timeout_ms` milliseconds, and leave
/// `SIGINT` alone. (By default a check installs Z3's own handler for the process while it
/// runs, which cancels only that check: Ctrl-C did not stop `synth`. Checks on two threads
/// at once also left the handler installed with a pointer to a returned check's frame.)
fn params(ctx: &'static z3::Context, timeout_ms: u32) -> z3::Params<'static> {
    let mut p = z3::Params::new(ctx);
    p.set_u32("timeout", timeout_ms);
    p.set_bool("ctrl_c", false);
    p
}

/// Whether `SYNTH_DEBUG_SMT` asks for the timing of slow queries (read once).
fn debug_timing() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("SYNTH_DEBUG_SMT").is_some())
}

/// Most entries a cache by address ([`Z3::kept`], [`Z3::read_back`]) holds (beyond, it
/// starts afresh).
const MAX_KEPT: usize = 1 << 14;

/// Adds an entry to a cache by address, emptying it first when it is full.
fn keep<V>(cache: &mut FxHashMap<usize, V>, key: usize, v: V) {
    if cache.len() >= MAX_KEPT {
        cache.clear();
    }
    cache.insert(key, v);
}

/// What keeps a subterm's allocation alive in [`Z3::kept`]: the subterm, or the list it is
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

impl Z3 {
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
