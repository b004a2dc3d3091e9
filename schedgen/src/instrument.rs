//! Source-to-source instrumentation (DESIGN.md, "Enforcement protocol"; seed 002,
//! "Implementation"): the C program a schedule is enforced on.
//!
//! The input is the preprocessed source the front end parsed (its line markers keep compiler
//! messages pointing at the original files). Every site of the schedule is found by the
//! expression its IR transitions perform ([`verifier::ir::Transition::at`]) and rewritten so
//! that the runtime (`enforcer-rt`) sees each memory event exactly where the IR has it:
//!
//! * a shared **read** `x` becomes `({ T *p = &(x); synth_before(s); T v = *p; synth_after(s); v; })`:
//!   the place's address (and the reads inside it) first, then the one access between
//!   `before` and `after`;
//! * a shared **write** `l = r` computes the place, then the value (the IR's order), then stores
//!   between `before`/`after`; `l op= r`, `++l`, `l--` read and write the place as two events;
//! * a **branch condition** whose arms are sites reports the arm taken
//!   (`synth_branch(s_true, s_false, c)`);
//! * **synchronisation calls** the schedule keeps are wrapped (`lock`, `unlock`, `join`,
//!   `sched_yield`, initialisations); the ones it subsumes (Opt1/Opt2) are removed; condition
//!   waits, signals and barrier waits are performed by the schedule itself (their order is the
//!   schedule's); `pthread_create` goes through `synth_pthread_create`, which registers the new
//!   thread; `pthread_exit` reports the thread's exit (a return from a start function is
//!   reported by the runtime's thread trampoline);
//! * `__VERIFIER_nondet_*()` calls become calls of `synth_input(type)`, a function the user can
//!   define (the default, weak, returns 0); `__VERIFIER_assume` aborts the program when an input
//!   violates it; `main` is renamed and a new `main` starts the runtime with the schedule of
//!   `prog.sched.h`, which refuses a schedule made for another program.
//!
//! Every site of the schedule must be instrumented exactly once; a site the rewriting cannot
//! place is an error (never a silently unconstrained access).

use crate::schedule::ProgramSchedule;
use crate::sites::SiteKind;
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use lang_c::visit::Visit;
use std::collections::{BTreeMap, HashSet};
use verifier::frontend::is_assignment_op;
use verifier::ir::{Access, Program, SyncKind, TransKind};

/// `SYNTH_NONE` of the runtime, as C.
const NONE: &str = "4294967295u";

/// Exit code of an instrumented program whose schedule the runtime refuses.
pub const REFUSED_EXIT_CODE: i32 = 78;

/// Why a program cannot be instrumented.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The preprocessed source does not parse (it did for the front end: an internal error).
    #[error("the preprocessed source does not parse: {0}")]
    Parse(String),
    /// A site the rewriting cannot place.
    #[error("{position}: cannot enforce the schedule here: {what}")]
    Unsupported {
        /// `file:line:col`.
        position: String,
        /// What and why.
        what: String,
    },
}

/// What a site does at its expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum What {
    Read,
    Write,
    /// Branch arm: 0 the condition holds, 1 it does not.
    Arm(usize),
    /// The arm of an assumption that holds (the failing arm ends the program).
    ArmAssume,
    /// The failing arm of an assumption: the deployed program stops there.
    ArmAssumeFail,
    /// An arm of a synchronisation call (a lock attempt's outcome, the waiter a signal wakes).
    ArmOther,
    Removed,
    Sync(SyncKind),
    Assume,
    Exit,
}

#[derive(Clone, Copy, Debug)]
struct Role {
    site: u32,
    what: What,
}

/// Builds the text of a rewrite from its rendered parts.
type Build = Box<dyn Fn(&[String]) -> String>;

/// A rewrite of the text `[start, end)`: `build` gets its parts, each rendered with the
/// rewrites inside it.
struct Edit {
    start: usize,
    end: usize,
    parts: Vec<(usize, usize)>,
    build: Build,
    /// The sites it instruments.
    sites: Vec<u32>,
}

/// Options of the instrumentation.
#[derive(Clone, Debug)]
pub struct Options {
    /// The schedule header the instrumented file includes (`prog.sched.h`).
    pub header: String,
}

/// The instrumented C source of `prog` (whose preprocessed source is `pre`) for `sched`.
pub fn instrument(
    prog: &Program,
    pre: &str,
    sched: &ProgramSchedule,
    opts: &Options,
) -> Result<String, Error> {
    let config = lang_c::driver::Config::with_gcc();
    let parsed = lang_c::driver::parse_preprocessed(&config, pre.to_string())
        .map_err(|e| Error::Parse(format!("at byte {}", e.offset)))?;
    let map = verifier::frontend::SourceMap::new(pre, std::path::Path::new(&sched.source));
    // Sites by the expression they perform.
    let mut by_at: BTreeMap<(usize, usize), Vec<Role>> = BTreeMap::new();
    for site in &sched.sites.sites {
        let Some(&(t, tr)) = site.instances.first() else {
            continue;
        };
        let th = prog.thread(t);
        let x = th.transition(tr);
        let what = match site.kind {
            SiteKind::Branch => match x.kind {
                TransKind::Branch => What::Arm(th.arm(x)),
                TransKind::Assume if x.events.is_empty() => What::ArmAssume,
                TransKind::AssumeFail => What::ArmAssumeFail,
                _ => What::ArmOther,
            },
            SiteKind::Removed => What::Removed,
            SiteKind::ThreadExit => What::Exit,
            SiteKind::Sync => match x.kind {
                TransKind::Sync(k) => What::Sync(k),
                _ => What::Read,
            },
            SiteKind::Access if x.kind == TransKind::Assume => What::Assume,
            SiteKind::Access if x.events.iter().any(|e| e.access == Access::Write) => What::Write,
            SiteKind::Access => What::Read,
        };
        match x.at {
            Some([a, b]) => by_at
                .entry((a as usize, b as usize))
                .or_default()
                .push(Role {
                    site: site.id,
                    what,
                }),
            // A thread's return: reported by the runtime's trampoline.
            None if what == What::Exit => {}
            None => {
                return Err(Error::Unsupported {
                    position: site
                        .span
                        .map(|s| prog.position(&s))
                        .unwrap_or_else(|| site.file.clone()),
                    what: format!(
                        "site {} ({}) is not one C expression (a copy of a whole struct or \
                         array in shared memory? copy its fields one by one)",
                        site.id, site.text
                    ),
                })
            }
        }
    }
    // One piece of code must be an event in every copy the IR made of it (inlined calls,
    // threads): the instrumented code is shared, so a copy that reads a local (a pointer
    // parameter bound to a local) would report an event the schedule does not have.
    let mut plain: HashSet<[u32; 2]> = prog.local_reads.iter().copied().collect();
    for th in &prog.threads {
        for tr in &th.transitions {
            if let (true, true, Some(at)) = (tr.memory_access, tr.events.is_empty(), tr.at) {
                plain.insert(at);
            }
        }
    }
    for (&(a, b), roles) in &by_at {
        if plain.contains(&[a as u32, b as u32])
            && roles
                .iter()
                .any(|r| matches!(r.what, What::Read | What::Write))
        {
            return Err(Error::Unsupported {
                position: map.position_of_offset(a),
                what: format!(
                    "`{}` accesses shared memory in some calls of its function and memory of \
                     one thread in others (site {}); the instrumented code is shared by both",
                    &pre[a..b],
                    roles[0].site
                ),
            });
        }
    }
    let mut defined = HashSet::new();
    for d in &parsed.unit.0 {
        if let ExternalDeclaration::FunctionDefinition(f) = &d.node {
            if let Some(n) = declarator_name(&f.node.declarator.node) {
                defined.insert(n);
            }
        }
    }
    let mut v = Finder {
        src: pre,
        map: &map,
        by_at: &by_at,
        defined: &defined,
        edits: Vec::new(),
        handled: HashSet::new(),
        main: None,
        err: None,
    };
    v.visit_translation_unit(&parsed.unit);
    if let Some(e) = v.err {
        return Err(e);
    }
    let position = |off: usize| map.position_of_offset(off);
    for ((a, b), roles) in &by_at {
        let wanted = roles.iter().any(|r| r.what != What::Exit);
        if wanted && !v.handled.contains(&(*a, *b)) {
            return Err(Error::Unsupported {
                position: position(*a),
                what: format!(
                    "`{}` performs site {} ({}) in a form the instrumentation does not know",
                    &pre[*a..*b],
                    roles[0].site,
                    sched.sites.sites[roles[0].site as usize].text
                ),
            });
        }
    }
    let Some(main_params) = v.main else {
        return Err(Error::Unsupported {
            position: position(0),
            what: "the program has no `main`".into(),
        });
    };
    let mut edits = v.edits;
    edits.sort_by_key(|e| (e.start, std::cmp::Reverse(e.end)));
    let mut r = Renderer {
        text: pre,
        edits: &edits,
        rendered: HashSet::new(),
    };
    let body = r.range(0, pre.len(), None);
    for (i, e) in edits.iter().enumerate() {
        if !e.sites.is_empty() && !r.rendered.contains(&i) {
            return Err(Error::Unsupported {
                position: position(e.start),
                what: format!(
                    "site {} is inside code the instrumentation removes",
                    e.sites[0]
                ),
            });
        }
    }
    Ok(assemble(prog, sched, opts, &body, main_params))
}

fn assemble(
    prog: &Program,
    sched: &ProgramSchedule,
    opts: &Options,
    body: &str,
    main_params: bool,
) -> String {
    let call_main = if main_params {
        "synth_user_main(argc, argv)"
    } else {
        "synth_user_main()"
    };
    format!(
        "/* {src}, instrumented by synth to follow the program schedule of {header}\n \
         * (Opt{opt}, program SHA-256 {sha}). Do not edit; compile with -std=gnu11. */\n\
         void synth_before(unsigned int site);\n\
         void synth_after(unsigned int site);\n\
         int synth_branch(unsigned int site_if_true, unsigned int site_if_false, int cond);\n\
         void synth_thread_exit(void);\n\
         void synth_fail(unsigned int site, const char *what);\n\
         int synth_pthread_create(unsigned int site, unsigned long *thread, const void *attr,\n\
         \x20                        void *(*start)(void *), void *arg);\n\
         long long synth_input(const char *type);\n\
         {body}\n\
         # 1 \"<synth instrumentation>\"\n\
         /* The program's system headers are already expanded above: no second copy. */\n\
         #define SYNTH_NO_STDINT 1\n\
         typedef unsigned int uint32_t;\n\
         typedef int int32_t;\n\
         #include \"{header}\"\n\
         /* Inputs (__VERIFIER_nondet_*): define synth_input to supply them; this default\n \
         * returns 0. `type` is the nondet function's suffix (\"int\", \"uint\", ...). */\n\
         __attribute__((weak)) long long synth_input(const char *type) {{\n  \
         (void)type;\n  return 0;\n}}\n\
         int main(int argc, char **argv) {{\n  \
         (void)argc;\n  (void)argv;\n  \
         if (synth_start(&synth_schedule, \"{sha}\") != 0)\n    return {code};\n  \
         return {call_main};\n}}\n",
        src = sched.source.replace("*/", "* /"),
        header = opts.header,
        opt = sched.opt,
        sha = prog.sha256,
        code = REFUSED_EXIT_CODE,
    )
}

fn declarator_name(d: &Declarator) -> Option<String> {
    verifier::frontend::ident_of(d).map(|i| i.node.name.clone())
}

/// Whether a function declarator declares parameters (`main(void)` and `main()` do not).
fn has_params(d: &Declarator) -> bool {
    d.derived.iter().any(|dd| match &dd.node {
        DerivedDeclarator::Function(f) => match f.node.parameters.as_slice() {
            [] => false,
            [p] => {
                p.node.declarator.is_some()
                    || !matches!(
                        p.node.specifiers.as_slice(),
                        [Node {
                            node: DeclarationSpecifier::TypeSpecifier(Node {
                                node: TypeSpecifier::Void,
                                ..
                            }),
                            ..
                        }]
                    )
            }
            _ => true,
        },
        DerivedDeclarator::KRFunction(ps) => !ps.is_empty(),
        _ => false,
    })
}

struct Finder<'a> {
    src: &'a str,
    map: &'a verifier::frontend::SourceMap,
    by_at: &'a BTreeMap<(usize, usize), Vec<Role>>,
    defined: &'a HashSet<String>,
    edits: Vec<Edit>,
    handled: HashSet<(usize, usize)>,
    /// Whether `main` takes parameters, and where its name is.
    main: Option<bool>,
    err: Option<Error>,
}

fn site_or_none(r: Option<&Role>) -> String {
    r.map_or(NONE.to_string(), |r| format!("{}u", r.site))
}

impl Finder<'_> {
    fn text(&self, s: &Span) -> String {
        self.src[s.start..s.end].to_string()
    }

    /// Whether evaluating `e` performs an event or has a side effect: its place among other
    /// operands' evaluation matters.
    fn effectful(&self, e: &Node<Expression>) -> bool {
        let (a, b) = (e.span.start, e.span.end);
        self.by_at
            .range((a, 0)..=(b, usize::MAX))
            .any(|(&(x, y), roles)| x >= a && y <= b && roles.iter().any(|r| r.what != What::Exit))
            || has_effects(e)
    }

    /// Operands that C evaluates in no particular order but the IR evaluates left to right
    /// (call arguments; both sides of `+`, `<`, `a[i]`, ...): when two of them have effects,
    /// they are evaluated into temporaries first, in order.
    fn sequence(&mut self, e: &Expression, span: Span) {
        if let Some((parts, build)) = self.sequencing(e) {
            self.edits.push(Edit {
                start: span.start,
                end: span.end,
                parts,
                build,
                sites: Vec::new(),
            });
        }
    }

    /// The rewrite of [`Finder::sequence`], if `e` needs one: its parts and builder.
    fn sequencing(&self, e: &Expression) -> Option<(Vec<(usize, usize)>, Build)> {
        let k = self.edits.len();
        match e {
            Expression::Call(c) => {
                let eff: Vec<bool> = c.node.arguments.iter().map(|a| self.effectful(a)).collect();
                if eff.iter().filter(|x| **x).count() < 2 {
                    return None;
                }
                let callee = c.node.callee.span;
                let mut parts = vec![(callee.start, callee.end)];
                parts.extend(c.node.arguments.iter().map(|a| (a.span.start, a.span.end)));
                Some((
                    parts,
                    Box::new(move |p: &[String]| {
                        let mut pre = String::new();
                        let mut args = Vec::new();
                        for (i, a) in p[1..].iter().enumerate() {
                            if eff[i] {
                                pre.push_str(&format!("__auto_type __synth_a{k}_{i} = ({a}); "));
                                args.push(format!("__synth_a{k}_{i}"));
                            } else {
                                args.push(format!("({a})"));
                            }
                        }
                        format!("({{ {pre}{}({}); }})", p[0], args.join(", "))
                    }),
                ))
            }
            Expression::BinaryOperator(b) if unsequenced(&b.node.operator.node) => {
                let (l, r) = (&b.node.lhs, &b.node.rhs);
                if !(self.effectful(l) && self.effectful(r)) {
                    return None;
                }
                let op = b.node.operator.node.clone();
                let infix = self.src[l.span.end..r.span.start].to_string();
                Some((
                    vec![(l.span.start, l.span.end), (r.span.start, r.span.end)],
                    Box::new(move |p: &[String]| {
                        let pre = format!(
                            "__auto_type __synth_l{k} = ({}); __auto_type __synth_r{k} = ({}); ",
                            p[0], p[1]
                        );
                        if op == BinaryOperator::Index {
                            // Still a place: the address of the element.
                            format!("(*({{ {pre}&__synth_l{k}[__synth_r{k}]; }}))")
                        } else {
                            format!("({{ {pre}__synth_l{k}{infix}__synth_r{k}; }})")
                        }
                    }),
                ))
            }
            _ => None,
        }
    }

    fn unsupported(&mut self, span: &Span, what: String) {
        if self.err.is_none() {
            self.err = Some(Error::Unsupported {
                position: self.map.position_of_offset(span.start),
                what,
            });
        }
    }

    /// The rewrite of expression `e` carrying `roles` (all at `e`'s span).
    fn edit_for(&mut self, e: &Expression, span: Span, roles: &[Role]) {
        let k = self.edits.len();
        let sites: Vec<u32> = roles.iter().map(|r| r.site).collect();
        let find = |w: &dyn Fn(What) -> bool| roles.iter().find(|r| w(r.what)).copied();
        let arm_t = find(&|w| w == What::Arm(0));
        let arm_f = find(&|w| w == What::Arm(1));
        if let Some(r) = find(&|w| matches!(w, What::Arm(a) if a > 1)) {
            return self.unsupported(
                &span,
                format!("branch with more than two arms (site {})", r.site),
            );
        }
        if let Some(r) = find(&|w| w == What::ArmOther) {
            return self.unsupported(
                &span,
                format!(
                    "the schedule branches on the outcome of a synchronisation call or of an \
                     assumption over shared state (site {})",
                    r.site
                ),
            );
        }
        if let Some(r) = find(&|w| w == What::ArmAssume || w == What::ArmAssumeFail) {
            // An assumption on the thread's own data (its inputs) whose outcome selects the
            // next section: when it holds, its arm is reported; when it fails, the program
            // stops (the proof covers no execution past it).
            let Expression::Call(c) = e else {
                return self.unsupported(&span, format!("assumption arm (site {})", r.site));
            };
            let arm = find(&|w| w == What::ArmAssume);
            let s_arm = site_or_none(arm.as_ref());
            let cond = c.node.arguments.first().map(|a| (a.span.start, a.span.end));
            self.handled.insert((span.start, span.end));
            self.edits.push(Edit {
                start: span.start,
                end: span.end,
                parts: cond.into_iter().collect(),
                build: Box::new(move |p: &[String]| {
                    format!(
                        "({{ if (!({})) synth_fail({NONE}, \"the inputs violate an \
                         assumption\"); (void)synth_branch({s_arm}, {NONE}, 1); }})",
                        p.first().cloned().unwrap_or_else(|| "1".into())
                    )
                }),
                sites,
            });
            return;
        }
        let read = find(&|w| w == What::Read);
        let write = find(&|w| w == What::Write);
        let other: Vec<Role> = roles
            .iter()
            .filter(|r| !matches!(r.what, What::Arm(_) | What::Read | What::Write))
            .copied()
            .collect();
        let ev = |r: Option<Role>, code: &str| -> String {
            match r {
                Some(r) => format!("synth_before({s}u); {code} synth_after({s}u);", s = r.site),
                None => code.to_string(),
            }
        };
        // The action at the node itself (innermost), as parts and a builder.
        // The node's own text, its unsequenced operands in the IR's order.
        let (mut parts, base): (Vec<(usize, usize)>, std::rc::Rc<Build>) = match self.sequencing(e)
        {
            Some((p, b)) => (p, std::rc::Rc::new(b)),
            None => (
                vec![(span.start, span.end)],
                std::rc::Rc::new(Box::new(|p: &[String]| p[0].clone())),
            ),
        };
        let own = base.clone();
        let mut inner: Build = Box::new(move |p: &[String]| own(p));
        match (e, read, write, other.as_slice()) {
            (Expression::Call(c), None, None, []) => {
                if let Some((p, b)) = self.builtin_call(&span, c) {
                    parts = p;
                    inner = b;
                }
            }
            (_, None, None, []) => {}
            (
                Expression::Identifier(_)
                | Expression::Member(_)
                | Expression::BinaryOperator(_)
                | Expression::UnaryOperator(_),
                Some(r),
                None,
                [],
            ) if !is_assignment(e) => {
                let t0 = self.text(&span);
                let s = r.site;
                inner = Box::new(move |p: &[String]| {
                    format!(
                        "({{ __typeof__({t0}) *__synth_p{k} = &({x}); synth_before({s}u); \
                         __typeof__({t0}) __synth_v{k} = *__synth_p{k}; synth_after({s}u); \
                         __synth_v{k}; }})",
                        x = base(p)
                    )
                });
            }
            (Expression::BinaryOperator(b), r, w, []) if is_assignment(e) => {
                let op = b.node.operator.node.clone();
                parts = vec![
                    (b.node.lhs.span.start, b.node.lhs.span.end),
                    (b.node.rhs.span.start, b.node.rhs.span.end),
                ];
                let l0 = self.text(&b.node.lhs.span);
                if op == BinaryOperator::Assign {
                    if r.is_some() {
                        return self.unsupported(&span, "a read at an assignment".into());
                    }
                    let store = ev(w, &format!("*__synth_p{k} = __synth_v{k};"));
                    inner = Box::new(move |p: &[String]| {
                        format!(
                            "({{ __typeof__({l0}) *__synth_p{k} = &({l}); \
                             __typeof__({l0}) __synth_v{k} = ({rhs}); {store} __synth_v{k}; }})",
                            l = p[0],
                            rhs = p[1]
                        )
                    });
                } else {
                    let opt = compound_op(&op);
                    let load = ev(
                        r,
                        &format!("__typeof__({l0}) __synth_o{k} = *__synth_p{k};"),
                    );
                    let store = ev(w, &format!("*__synth_p{k} = __synth_n{k};"));
                    inner = Box::new(move |p: &[String]| {
                        format!(
                            "({{ __typeof__({l0}) *__synth_p{k} = &({l}); {load} \
                             __auto_type __synth_r{k} = ({rhs}); \
                             __typeof__({l0}) __synth_n{k} = __synth_o{k}; \
                             __synth_n{k} {opt} __synth_r{k}; {store} __synth_n{k}; }})",
                            l = p[0],
                            rhs = p[1]
                        )
                    });
                }
            }
            (Expression::UnaryOperator(u), r, w, []) if is_increment(&u.node.operator.node) => {
                let o = &u.node.operand.span;
                parts = vec![(o.start, o.end)];
                let o0 = self.text(o);
                let (step, pre) = match u.node.operator.node {
                    UnaryOperator::PreIncrement => ("++", true),
                    UnaryOperator::PostIncrement => ("++", false),
                    UnaryOperator::PreDecrement => ("--", true),
                    _ => ("--", false),
                };
                let load = ev(
                    r,
                    &format!("__typeof__({o0}) __synth_o{k} = *__synth_p{k};"),
                );
                let store = ev(w, &format!("*__synth_p{k} = __synth_n{k};"));
                let result = if pre { "__synth_n" } else { "__synth_o" };
                inner = Box::new(move |p: &[String]| {
                    format!(
                        "({{ __typeof__({o0}) *__synth_p{k} = &({x}); {load} \
                         __typeof__({o0}) __synth_n{k} = __synth_o{k}; __synth_n{k}{step}; \
                         {store} {result}{k}; }})",
                        x = p[0]
                    )
                });
            }
            (Expression::Call(c), r, w, []) if r.is_some() || w.is_some() => {
                let name = callee_name(&c.node).unwrap_or_default();
                return self.unsupported(
                    &span,
                    format!(
                        "`{name}` accesses shared memory several times in one call (sites {}); \
                         write the accesses out",
                        sites
                            .iter()
                            .map(|s| s.to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                );
            }
            (Expression::Call(c), None, None, roles) => {
                let Some(name) = callee_name(&c.node) else {
                    return self
                        .unsupported(&span, "a call through a pointer performs a site".into());
                };
                match self.call(k, &span, c, &name, roles) {
                    Ok((p, f)) => {
                        parts = p;
                        inner = f;
                    }
                    Err(w) => return self.unsupported(&span, w),
                }
            }
            _ => {
                return self.unsupported(
                    &span,
                    format!(
                        "`{}` performs {:?}, which the instrumentation does not place",
                        self.text(&span),
                        roles.iter().map(|r| r.what).collect::<Vec<_>>()
                    ),
                )
            }
        }
        let build: Build = if arm_t.is_some() || arm_f.is_some() {
            let (t, f) = (site_or_none(arm_t.as_ref()), site_or_none(arm_f.as_ref()));
            Box::new(move |p: &[String]| format!("synth_branch({t}, {f}, !!({}))", inner(p)))
        } else {
            inner
        };
        self.handled.insert((span.start, span.end));
        self.edits.push(Edit {
            start: span.start,
            end: span.end,
            parts,
            build,
            sites,
        });
    }

    /// The rewrite of a call performing synchronisation sites.
    fn call(
        &self,
        k: usize,
        span: &Span,
        c: &Node<CallExpression>,
        name: &str,
        roles: &[Role],
    ) -> Result<(Vec<(usize, usize)>, Build), String> {
        let args = arg_spans(c);
        let n = args.len();
        let whole = vec![(span.start, span.end)];
        let kinds: Vec<What> = roles.iter().map(|r| r.what).collect();
        let site = |w: What| roles.iter().find(|r| r.what == w).map(|r| r.site);
        if kinds.iter().all(|w| *w == What::Removed) {
            if self.defined.contains(name) {
                // A function of the program (an atomic function): only its region markers go;
                // its body runs, with its own events.
                return Ok((whole, Box::new(|p: &[String]| p[0].clone())));
            }
            // A synchronisation call subsumed by the schedule: it goes, its arguments'
            // effects stay.
            return Ok((
                args,
                Box::new(|p: &[String]| {
                    let mut out = String::from("(");
                    for a in p {
                        out.push_str(&format!("(void)({a}), "));
                    }
                    out.push_str("0)");
                    out
                }),
            ));
        }
        if kinds.contains(&What::Removed) {
            return Err(format!("`{name}` is partly subsumed by the schedule"));
        }
        // Arguments with instrumented accesses are evaluated first, into temporaries, in
        // order (the others, `&m` or a null pointer constant, stay as they are).
        let eff: Vec<bool> = c.node.arguments.iter().map(|a| self.effectful(a)).collect();
        let hoist = move |p: &[String]| -> (String, Vec<String>) {
            let mut pre = String::new();
            let mut names = Vec::new();
            for (i, a) in p.iter().enumerate() {
                if !eff.get(i).copied().unwrap_or(true) {
                    names.push(format!("({a})"));
                    continue;
                }
                let _ = std::fmt::Write::write_fmt(
                    &mut pre,
                    format_args!("__auto_type __synth_a{k}_{i} = ({a}); "),
                );
                names.push(format!("__synth_a{k}_{i}"));
            }
            (pre, names)
        };
        let name = name.to_string();
        match kinds.as_slice() {
            [What::Sync(SyncKind::Spawn)] => {
                let s = site(What::Sync(SyncKind::Spawn)).expect("spawn");
                if name != "pthread_create" || n != 4 {
                    return Err(format!("thread creation by `{name}`"));
                }
                Ok((
                    args,
                    Box::new(move |p: &[String]| {
                        format!("synth_pthread_create({s}u, {})", p.join(", "))
                    }),
                ))
            }
            [What::Exit] => {
                if name != "pthread_exit" {
                    return Err(format!("thread exit by `{name}`"));
                }
                Ok((
                    args,
                    Box::new(move |p: &[String]| {
                        let arg = p.first().cloned().unwrap_or_else(|| "0".into());
                        format!(
                            "({{ void *__synth_x{k} = ({arg}); synth_thread_exit(); \
                             pthread_exit(__synth_x{k}); }})"
                        )
                    }),
                ))
            }
            [What::Assume] => {
                let s = site(What::Assume).expect("assume");
                Ok((
                    args,
                    Box::new(move |p: &[String]| {
                        format!(
                            "({{ synth_before({s}u); if (!({})) synth_fail({s}u, \"assumption \
                             does not hold\"); synth_after({s}u); }})",
                            p.first().cloned().unwrap_or_else(|| "1".into())
                        )
                    }),
                ))
            }
            [What::Sync(
                k1 @ (SyncKind::Lock
                | SyncKind::Unlock
                | SyncKind::MutexInit
                | SyncKind::BarrierInit
                | SyncKind::Join
                | SyncKind::Yield
                | SyncKind::TryLock),
            )] => {
                let expected: &[&str] = match k1 {
                    SyncKind::Lock => &["pthread_mutex_lock"],
                    SyncKind::Unlock => &["pthread_mutex_unlock"],
                    SyncKind::MutexInit => &["pthread_mutex_init"],
                    SyncKind::BarrierInit => &["pthread_barrier_init"],
                    SyncKind::Join => &["pthread_join"],
                    SyncKind::Yield => &["sched_yield", "pthread_yield"],
                    _ => &["pthread_mutex_trylock"],
                };
                if !expected.contains(&name.as_str()) {
                    return Err(format!("`{name}` performs {k1:?}"));
                }
                let s = site(What::Sync(*k1)).expect("sync");
                Ok((
                    args,
                    Box::new(move |p: &[String]| {
                        let (pre, names) = hoist(p);
                        format!(
                            "({{ {pre}synth_before({s}u); __auto_type __synth_r{k} = \
                             {name}({}); synth_after({s}u); __synth_r{k}; }})",
                            names.join(", ")
                        )
                    }),
                ))
            }
            [What::Sync(
                k1 @ (SyncKind::AtomicBegin
                | SyncKind::AtomicEnd
                | SyncKind::CondSignal
                | SyncKind::CondBroadcast),
            )] => {
                if (*k1 == SyncKind::AtomicBegin || *k1 == SyncKind::AtomicEnd)
                    && !name.starts_with("__VERIFIER_atomic_begin")
                    && !name.starts_with("__VERIFIER_atomic_end")
                {
                    return Err(format!(
                        "the atomic function `{name}` is enforced at --opt 1 or 2 only"
                    ));
                }
                let s = site(What::Sync(*k1)).expect("sync");
                // Performed by the schedule: the waiter it wakes is ordered after it.
                Ok((
                    args,
                    Box::new(move |p: &[String]| {
                        let (pre, _) = hoist(p);
                        format!("({{ {pre}synth_before({s}u); synth_after({s}u); 0; }})")
                    }),
                ))
            }
            _ => {
                let mut ks = kinds.clone();
                ks.sort_by_key(|w| format!("{w:?}"));
                let seq: Vec<SyncKind> = ks
                    .iter()
                    .filter_map(|w| match w {
                        What::Sync(k) => Some(*k),
                        _ => None,
                    })
                    .collect();
                let has = |k: SyncKind| seq.contains(&k);
                if seq.len() == ks.len()
                    && has(SyncKind::CondWaitRelease)
                    && has(SyncKind::CondWaitWake)
                    && n == 2
                {
                    // pthread_cond_wait(c, m): release m, be woken (the schedule orders the
                    // signal first), take m again.
                    let rel = site(What::Sync(SyncKind::CondWaitRelease)).expect("release");
                    let wake = site(What::Sync(SyncKind::CondWaitWake)).expect("wake");
                    let lock = site(What::Sync(SyncKind::Lock));
                    return Ok((
                        args,
                        Box::new(move |p: &[String]| {
                            let (pre, a) = hoist(p);
                            let relock = match lock {
                                Some(l) => format!(
                                    "synth_before({l}u); pthread_mutex_lock({m}); synth_after({l}u);",
                                    m = a[1]
                                ),
                                None => format!("pthread_mutex_lock({});", a[1]),
                            };
                            format!(
                                "({{ {pre}(void){c}; synth_before({rel}u); \
                                 pthread_mutex_unlock({m}); synth_after({rel}u); \
                                 synth_before({wake}u); synth_after({wake}u); {relock} 0; }})",
                                c = a[0],
                                m = a[1]
                            )
                        }),
                    ));
                }
                if seq.len() == ks.len()
                    && has(SyncKind::BarrierArrive)
                    && has(SyncKind::BarrierLeave)
                    && seq.len() == 2
                {
                    let arrive = site(What::Sync(SyncKind::BarrierArrive)).expect("arrive");
                    let leave = site(What::Sync(SyncKind::BarrierLeave)).expect("leave");
                    return Ok((
                        args,
                        Box::new(move |p: &[String]| {
                            let (pre, _) = hoist(p);
                            format!(
                                "({{ {pre}synth_before({arrive}u); synth_after({arrive}u); \
                                 synth_before({leave}u); synth_after({leave}u); 0; }})"
                            )
                        }),
                    ));
                }
                if has(SyncKind::AtomicBegin) || has(SyncKind::AtomicEnd) {
                    return Err(format!(
                        "the atomic function `{name}` is enforced at --opt 1 or 2 only"
                    ));
                }
                Err(format!("`{name}` performs {kinds:?}"))
            }
        }
    }

    /// The rewrite of a call that is not a site: inputs, assumptions and verifier built-ins
    /// the deployed program does not define.
    fn builtin_call(
        &self,
        span: &Span,
        c: &Node<CallExpression>,
    ) -> Option<(Vec<(usize, usize)>, Build)> {
        let name = callee_name(&c.node)?;
        if self.defined.contains(&name) {
            return None;
        }
        let text = self.text(span);
        let args = arg_spans(c);
        let build: Build = if let Some(ty) = name.strip_prefix("__VERIFIER_nondet_") {
            let ty = ty.to_string();
            Box::new(move |_: &[String]| format!("((__typeof__({text})) synth_input(\"{ty}\"))"))
        } else if name == "__VERIFIER_assume" || name == "assume_abort_if_not" {
            Box::new(|p: &[String]| {
                format!(
                    "({{ if (!({})) synth_fail({NONE}, \"the inputs violate an \
                         assumption\"); }})",
                    p.first().cloned().unwrap_or_else(|| "1".into())
                )
            })
        } else if name == "__VERIFIER_atomic_begin" || name == "__VERIFIER_atomic_end" {
            Box::new(|_: &[String]| "((void)0)".to_string())
        } else if name == "__VERIFIER_error" || name == "reach_error" {
            Box::new(move |_: &[String]| format!("synth_fail({NONE}, \"{name}() reached\")"))
        } else {
            return None;
        };
        Some((args, build))
    }
}

/// Whether an expression contains a call, an assignment or an increment (syntactically).
fn has_effects(e: &Node<Expression>) -> bool {
    struct V(bool);
    impl<'ast> Visit<'ast> for V {
        fn visit_expression(&mut self, e: &'ast Expression, span: &'ast Span) {
            match e {
                Expression::Call(_) => self.0 = true,
                Expression::UnaryOperator(u) if is_increment(&u.node.operator.node) => {
                    self.0 = true
                }
                _ if is_assignment(e) => self.0 = true,
                _ => {}
            }
            if !self.0 {
                lang_c::visit::visit_expression(self, e, span);
            }
        }
    }
    let mut v = V(false);
    v.visit_expression(&e.node, &e.span);
    v.0
}

/// Binary operators whose operands C evaluates in no particular order.
fn unsequenced(op: &BinaryOperator) -> bool {
    use BinaryOperator as B;
    !matches!(op, B::LogicalAnd | B::LogicalOr) && !is_assignment_op(op)
}

/// The text ranges of a call's arguments.
fn arg_spans(c: &Node<CallExpression>) -> Vec<(usize, usize)> {
    c.node
        .arguments
        .iter()
        .map(|a| (a.span.start, a.span.end))
        .collect()
}

fn callee_name(c: &CallExpression) -> Option<String> {
    match &c.callee.node {
        Expression::Identifier(i) => Some(i.node.name.clone()),
        _ => None,
    }
}

fn is_assignment(e: &Expression) -> bool {
    matches!(e, Expression::BinaryOperator(b) if is_assignment_op(&b.node.operator.node))
}

fn compound_op(op: &BinaryOperator) -> &'static str {
    use BinaryOperator as B;
    match op {
        B::AssignMultiply => "*=",
        B::AssignDivide => "/=",
        B::AssignModulo => "%=",
        B::AssignPlus => "+=",
        B::AssignMinus => "-=",
        B::AssignShiftLeft => "<<=",
        B::AssignShiftRight => ">>=",
        B::AssignBitwiseAnd => "&=",
        B::AssignBitwiseXor => "^=",
        _ => "|=",
    }
}

fn is_increment(op: &UnaryOperator) -> bool {
    matches!(
        op,
        UnaryOperator::PreIncrement
            | UnaryOperator::PostIncrement
            | UnaryOperator::PreDecrement
            | UnaryOperator::PostDecrement
    )
}

impl<'ast> Visit<'ast> for Finder<'_> {
    fn visit_function_definition(&mut self, f: &'ast FunctionDefinition, span: &'ast Span) {
        if declarator_name(&f.declarator.node).as_deref() == Some("main") {
            if let Some(id) = verifier::frontend::ident_of(&f.declarator.node) {
                let s = id.span;
                self.main = Some(has_params(&f.declarator.node));
                self.edits.push(Edit {
                    start: s.start,
                    end: s.end,
                    parts: Vec::new(),
                    build: Box::new(|_: &[String]| "synth_user_main".to_string()),
                    sites: Vec::new(),
                });
            }
        }
        lang_c::visit::visit_function_definition(self, f, span);
    }

    fn visit_expression(&mut self, e: &'ast Expression, span: &'ast Span) {
        let key = (span.start, span.end);
        if let Some(roles) = self.by_at.get(&key) {
            if !self.handled.contains(&key) {
                let roles: Vec<Role> = roles.clone();
                self.edit_for(e, *span, &roles);
            }
        } else if let Expression::Call(c) = e {
            if let Some((parts, build)) = self.builtin_call(span, c) {
                self.edits.push(Edit {
                    start: span.start,
                    end: span.end,
                    parts,
                    build,
                    sites: Vec::new(),
                });
            } else {
                self.sequence(e, *span);
            }
        } else {
            self.sequence(e, *span);
        }
        lang_c::visit::visit_expression(self, e, span);
    }
}

struct Renderer<'a> {
    text: &'a str,
    edits: &'a [Edit],
    rendered: HashSet<usize>,
}

impl Renderer<'_> {
    /// The text of `[a, b)` with the outermost edits inside it applied (except `skip`).
    fn range(&mut self, a: usize, b: usize, skip: Option<usize>) -> String {
        let mut out = String::new();
        let mut pos = a;
        for i in 0..self.edits.len() {
            let e = &self.edits[i];
            if Some(i) == skip || e.start < pos || e.end > b || e.start >= b {
                continue;
            }
            out.push_str(&self.text[pos..e.start]);
            let parts: Vec<String> = e
                .parts
                .clone()
                .into_iter()
                .map(|(s, t)| self.range(s, t, Some(i)))
                .collect();
            out.push_str(&(self.edits[i].build)(&parts));
            self.rendered.insert(i);
            pos = self.edits[i].end;
        }
        out.push_str(&self.text[pos..b]);
        out
    }
}
