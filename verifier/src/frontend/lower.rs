//! Lowering of a `lang-c` translation unit to the thread IR.
//!
//! What is accepted and how it is modelled:
//!
//! * Types: `char`/`short`/`int`/`long`/`long long` (signed or unsigned), `_Bool`, enums,
//!   typedefs, pointers, fixed-size arrays (a variable-length array whose size folds to a
//!   constant is fixed), structs (flattened: one IR variable per field; an array of structs
//!   becomes one array per field), `pthread_t`, `pthread_mutex_t`, `pthread_cond_t`,
//!   `pthread_barrier_t`. Floating point and unions are rejected where a value of them is used.
//! * Every function call is inlined (recursion is rejected); `return` assigns a temporary.
//!   A pointer parameter bound to a known object (`&queue`, `table`, `&a[i]`) and never assigned
//!   in the callee is substituted; other pointers are run-time values (see [`crate::ir`]).
//! * One access to memory that another thread might see (globals, heap objects, locals whose
//!   address is taken) per transition: such reads are loaded into temporaries first, so that the
//!   interleavings of real threads between two accesses are all represented.
//! * `main`'s `argc` is 1 (the program runs without arguments); a branch that this makes dead
//!   is not lowered.
//! * Threads: `main` plus one thread per executed `pthread_create`; a creation inside a `for`
//!   loop with a constant trip count is unrolled; one inside any other loop is rejected.
//! * `assert`, `reach_error`, `__VERIFIER_error` → error location; `__VERIFIER_assume`,
//!   `assume_abort_if_not` → assume (waits when it reads shared state, discards otherwise);
//!   `abort`/`exit` → halt; `__VERIFIER_nondet_*` → input; `__VERIFIER_atomic_*` functions and
//!   `__VERIFIER_atomic_begin/end` → atomic regions; `printf` and friends have no effect.

use super::ctypes::{common_type, promote, CType, StructDef};
use super::source::SourceMap;
use super::{Error, Options};
use crate::ir::*;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet, VecDeque};
use std::rc::Rc;

type R<T> = Result<T, Error>;

/// Threads with an id below this may wait on condition variables (one waiting flag each).
pub(super) const MAX_COND_THREADS: u32 = 64;

/// Storage of a C object: a tree mirroring its type whose leaves are IR variables.
#[derive(Clone, Debug)]
enum Storage {
    Leaf(VarId),
    Struct(Rc<Vec<Storage>>),
    Array(Rc<Storage>, u64),
}

/// An lvalue.
#[derive(Clone, Debug)]
enum Lv {
    /// Instance `idx` of storage node `node` (see [`Storage`]), of type `ty`.
    Mem { node: Storage, idx: Expr, ty: CType },
    /// The object at a run-time address.
    Deref { addr: Expr, ty: CType },
}

impl Lv {
    fn ty(&self) -> &CType {
        match self {
            Lv::Mem { ty, .. } | Lv::Deref { ty, .. } => ty,
        }
    }
}

/// The value of an expression.
#[derive(Clone, Debug)]
enum Val {
    /// An integer or run-time pointer value.
    Scalar(Expr, CType),
    /// A pointer known while lowering: points to this lvalue.
    Ptr(Lv),
    /// A function designator.
    Func(String),
    /// A struct value (for struct assignment).
    Agg(Lv),
    Void,
}

/// What a name denotes.
#[derive(Clone, Debug)]
enum Binding {
    Obj(Storage, CType),
    /// A substituted pointer parameter: the name is a pointer to this lvalue.
    Alias(Lv),
    Const(i128, Ty),
    /// Using the name is unsupported (e.g. `argv`).
    Poison(&'static str),
    /// A block-scope typedef name, or a struct tag (under the key `struct <tag>`).
    Type(CType),
}

struct Frame {
    func: String,
    labels: HashMap<String, LocId>,
    /// Labels defined in the body (the others in `labels` are only jumped to).
    defined: HashSet<String>,
    ret_loc: LocId,
    ret: Option<(VarId, CType)>,
    breaks: Vec<LocId>,
    continues: Vec<LocId>,
    switches: Vec<SwitchCx>,
    scope_base: usize,
}

struct SwitchCx {
    ty: Ty,
    cases: Vec<(i128, LocId)>,
    default: Option<LocId>,
}

struct ThreadB {
    locations: Vec<Location>,
    transitions: Vec<Transition>,
}

struct Pending {
    tid: ThreadId,
    func: String,
    param: Option<(String, Binding)>,
    created_by: (ThreadId, TransId),
}

/// Names assigned, incremented or address-taken in a function body (syntactic).
#[derive(Default, Clone)]
struct FnFacts {
    assigned: HashSet<String>,
    addr_taken: HashSet<String>,
    /// Scanning `main` whose first parameter is `argc` (which is 1).
    argc_is_one: bool,
}

struct Lowerer<'a> {
    map: &'a SourceMap,
    opts: &'a Options,
    structs: Vec<StructDef>,
    struct_tags: HashMap<String, usize>,
    typedefs: HashMap<String, CType>,
    enum_consts: HashMap<String, i128>,
    funcs: HashMap<String, &'a Node<FunctionDefinition>>,
    facts: HashMap<String, FnFacts>,
    written_anywhere: HashSet<String>,
    global_consts: HashMap<String, i128>,
    globals: HashMap<String, (Storage, CType)>,
    vars: Vec<Var>,
    split_locals: HashSet<VarId>,
    threads: Vec<(Thread, ThreadB)>,
    queue: VecDeque<Pending>,
    thread_done: VarId,
    spawn_fns: HashMap<String, bool>,
    // Current thread.
    tid: ThreadId,
    tb: ThreadB,
    cur: LocId,
    special: [LocId; 4], // exit, error, halt, discard
    scopes: Vec<HashMap<String, Binding>>,
    frames: Vec<Frame>,
    span: Option<Span>,
    /// The expression whose action the next transitions perform ([`Transition::at`]).
    at: Option<lang_c::span::Span>,
    /// [`Program::local_reads`].
    local_reads: HashSet<[u32; 2]>,
    /// Inside a copy of a whole struct or array, or an initialiser's store: the accesses
    /// perform no single expression ([`Transition::at`] is `None`).
    at_suppressed: u32,
    pure: bool,
    const_ctx: bool,
    atomic_depth: u32,
    stmt_expr_depth: u32,
    temps: u32,
    transitions_total: usize,
}

/// Lowers a translation unit; [`super::finalize`] completes the program.
pub(super) fn lower(unit: &TranslationUnit, map: &SourceMap, opts: &Options) -> R<Program> {
    let mut l = Lowerer {
        map,
        opts,
        structs: Vec::new(),
        struct_tags: HashMap::new(),
        typedefs: HashMap::new(),
        enum_consts: HashMap::new(),
        funcs: HashMap::new(),
        facts: HashMap::new(),
        written_anywhere: HashSet::new(),
        global_consts: HashMap::new(),
        globals: HashMap::new(),
        vars: Vec::new(),
        split_locals: HashSet::new(),
        threads: Vec::new(),
        queue: VecDeque::new(),
        thread_done: VarId(0),
        spawn_fns: HashMap::new(),
        tid: ThreadId(0),
        tb: ThreadB {
            locations: Vec::new(),
            transitions: Vec::new(),
        },
        cur: LocId(0),
        special: [LocId(0); 4],
        scopes: vec![HashMap::new()],
        frames: Vec::new(),
        span: None,
        at: None,
        local_reads: HashSet::new(),
        at_suppressed: 0,
        pure: false,
        const_ctx: false,
        atomic_depth: 0,
        stmt_expr_depth: 0,
        temps: 0,
        transitions_total: 0,
    };
    l.run(unit)
}

/// Whether a binary operator assigns (`=`, `+=`, ...).
pub fn is_assignment_op(op: &BinaryOperator) -> bool {
    use BinaryOperator as B;
    matches!(
        op,
        B::Assign
            | B::AssignMultiply
            | B::AssignDivide
            | B::AssignModulo
            | B::AssignPlus
            | B::AssignMinus
            | B::AssignShiftLeft
            | B::AssignShiftRight
            | B::AssignBitwiseAnd
            | B::AssignBitwiseXor
            | B::AssignBitwiseOr
    )
}

/// The name a declarator declares (`f` of `int (*f)(void)`), if any.
pub fn ident_of(d: &Declarator) -> Option<&Node<Identifier>> {
    match &d.kind.node {
        DeclaratorKind::Identifier(i) => Some(i),
        DeclaratorKind::Declarator(d) => ident_of(&d.node),
        DeclaratorKind::Abstract => None,
    }
}

fn is_builtin_name(n: &str) -> bool {
    n.starts_with("__VERIFIER_")
        || n.starts_with("pthread_")
        || matches!(
            n,
            "reach_error"
                | "assume_abort_if_not"
                | "abort"
                | "exit"
                | "printf"
                | "fprintf"
                | "puts"
                | "putchar"
                | "fflush"
                | "sched_yield"
                | "malloc"
                | "calloc"
                | "free"
                | "strcpy"
                | "__assert_fail"
                | "__builtin_expect"
                | "usleep"
                | "sleep"
                | "assert"
        )
}

/// Evaluates a condition syntactically, with `argc == 1` in `main` (for the pre-scan of dead
/// branches).
fn syntactic_const(e: &Expression, argc: bool) -> Option<i128> {
    match e {
        Expression::Constant(c) => match &c.node {
            Constant::Integer(i) => parse_int(i).map(|(v, _)| v),
            _ => None,
        },
        Expression::Identifier(i) if argc && i.node.name == "argc" => Some(1),
        Expression::UnaryOperator(u) => {
            let v = syntactic_const(&u.node.operand.node, argc)?;
            match u.node.operator.node {
                UnaryOperator::Negate => Some((v == 0) as i128),
                UnaryOperator::Minus => Some(-v),
                _ => None,
            }
        }
        Expression::BinaryOperator(b) => {
            let x = syntactic_const(&b.node.lhs.node, argc)?;
            let y = syntactic_const(&b.node.rhs.node, argc)?;
            Some(match b.node.operator.node {
                BinaryOperator::Equals => (x == y) as i128,
                BinaryOperator::NotEquals => (x != y) as i128,
                BinaryOperator::Less => (x < y) as i128,
                BinaryOperator::Greater => (x > y) as i128,
                BinaryOperator::LessOrEqual => (x <= y) as i128,
                BinaryOperator::GreaterOrEqual => (x >= y) as i128,
                _ => return None,
            })
        }
        _ => None,
    }
}

/// Parses an integer literal: value and C type.
fn parse_int(i: &Integer) -> Option<(i128, Ty)> {
    let digits: &str = &i.number;
    let v = match i.base {
        IntegerBase::Decimal => digits.parse::<i128>().ok()?,
        IntegerBase::Octal => i128::from_str_radix(digits.trim_start_matches('0').max("0"), 8)
            .ok()
            .or_else(|| i128::from_str_radix(digits, 8).ok())?,
        IntegerBase::Hexadecimal => i128::from_str_radix(digits, 16).ok()?,
        IntegerBase::Binary => i128::from_str_radix(digits, 2).ok()?,
    };
    let decimal = matches!(i.base, IntegerBase::Decimal);
    let long = i.suffix.size != IntegerSize::Int;
    // C11 6.4.4.1: the first type of the list that can represent the value.
    let cands: &[Ty] = match (long, i.suffix.unsigned, decimal) {
        (false, false, true) => &[Ty::INT, Ty::LONG],
        (false, false, false) => &[Ty::INT, Ty::UINT, Ty::LONG, Ty::ULONG],
        (false, true, _) => &[Ty::UINT, Ty::ULONG],
        (true, false, true) => &[Ty::LONG],
        (true, false, false) => &[Ty::LONG, Ty::ULONG],
        (true, true, _) => &[Ty::ULONG],
    };
    let ty = cands
        .iter()
        .copied()
        .find(|t| v <= t.max())
        .unwrap_or(Ty::ULONG);
    Some((ty.wrap(v), ty))
}

impl<'a> Lowerer<'a> {
    // ----------------------------------------------------------------- errors & spans

    fn pos(&self, s: lang_c::span::Span) -> String {
        self.map.position_of_offset(s.start)
    }

    fn unsupported<T>(&self, s: lang_c::span::Span, what: impl Into<String>) -> R<T> {
        Err(Error::Unsupported {
            position: self.pos(s),
            construct: what.into(),
        })
    }

    fn invalid<T>(&self, s: lang_c::span::Span, what: impl Into<String>) -> R<T> {
        Err(Error::Invalid {
            position: self.pos(s),
            message: what.into(),
        })
    }

    // ----------------------------------------------------------------- top level

    fn run(&mut self, unit: &'a TranslationUnit) -> R<Program> {
        // Pass 1: types, function definitions.
        for ext in &unit.0 {
            match &ext.node {
                ExternalDeclaration::Declaration(d) => self.type_declarations(d)?,
                ExternalDeclaration::FunctionDefinition(f) => {
                    if let Some(id) = ident_of(&f.node.declarator.node) {
                        self.funcs.insert(id.node.name.clone(), f);
                    }
                }
                ExternalDeclaration::StaticAssert(_) => {}
            }
        }
        // Pre-scan: names written or address-taken, per function and anywhere.
        let names: Vec<String> = self.funcs.keys().cloned().collect();
        for n in names {
            let f = self.funcs[&n];
            let mut facts = FnFacts {
                argc_is_one: n == "main"
                    && fn_params(&f.node.declarator.node)
                        .first()
                        .is_some_and(|p| p.0.as_deref() == Some("argc")),
                ..FnFacts::default()
            };
            scan_stmt(&f.node.statement.node, &mut facts);
            self.written_anywhere.extend(facts.assigned.iter().cloned());
            self.written_anywhere
                .extend(facts.addr_taken.iter().cloned());
            self.facts.insert(n, facts);
        }
        // Addresses taken in file-scope initialisers (`int *p = &x;`) count as writes.
        for ext in &unit.0 {
            if let ExternalDeclaration::Declaration(d) = &ext.node {
                let mut facts = FnFacts::default();
                scan_decl(&d.node, &mut facts);
                self.written_anywhere.extend(facts.assigned);
                self.written_anywhere.extend(facts.addr_taken);
            }
        }
        self.thread_done = self.new_var(
            "__thread_done".into(),
            ElemKind::Int(Ty::INT),
            1,
            true,
            VarScope::Ghost,
            Init::Zero,
            None,
        );
        // Pass 2: global variables (in order, so initialisers see earlier globals).
        for ext in &unit.0 {
            if let ExternalDeclaration::Declaration(d) = &ext.node {
                self.global_declaration(d)?;
            }
        }
        // Threads.
        if !self.funcs.contains_key("main") {
            return Err(Error::Invalid {
                position: self.map.position_of_offset(0),
                message: "no function `main`".into(),
            });
        }
        self.queue.push_back(Pending {
            tid: ThreadId(0),
            func: "main".into(),
            param: None,
            created_by: (ThreadId(0), TransId(0)),
        });
        self.threads.push(placeholder_thread(ThreadId(0), "main"));
        while let Some(p) = self.queue.pop_front() {
            self.lower_thread(p)?;
        }
        let n = self.threads.len() as u32;
        self.vars[self.thread_done.0 as usize].len = n;
        let threads = std::mem::take(&mut self.threads)
            .into_iter()
            .map(|(mut t, b)| {
                t.locations = b.locations;
                t.transitions = b.transitions;
                t
            })
            .collect();
        Ok(Program {
            format: IR_FORMAT.into(),
            sha256: String::new(),
            files: Vec::new(),
            vars: std::mem::take(&mut self.vars),
            threads,
            thread_done: self.thread_done,
            local_reads: {
                let mut v: Vec<[u32; 2]> = self.local_reads.iter().copied().collect();
                v.sort_unstable();
                v
            },
            objects: Vec::new(),
            thread_bound: None,
            arguments: Vec::new(),
            warnings: Vec::new(),

            bitcode: None,
        })
    }

    // ----------------------------------------------------------------- types

    /// Registers typedefs, struct tags and enum constants of a declaration.
    fn type_declarations(&mut self, d: &Node<Declaration>) -> R<()> {
        let is_typedef = d.node.specifiers.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::StorageClass(c) if c.node == StorageClassSpecifier::Typedef)
        });
        let specs: Vec<&TypeSpecifier> = type_specs(&d.node.specifiers);
        // Always register struct/enum definitions, even without declarators.
        let base = self.base_type(&specs, d.span);
        if !is_typedef {
            return Ok(());
        }
        for id in &d.node.declarators {
            let Some(name) = ident_of(&id.node.declarator.node) else {
                continue;
            };
            let name = name.node.name.clone();
            let ty = match known_typedef(&name) {
                Some(t) => t,
                None => match &base {
                    Ok(b) => self
                        .derive(b.clone(), &id.node.declarator.node, d.span)
                        .unwrap_or_else(|_| CType::Opaque(name.clone())),
                    Err(_) => CType::Opaque(name.clone()),
                },
            };
            if self.frames.is_empty() {
                self.typedefs.insert(name, ty);
            } else {
                self.bind_local(name, Binding::Type(ty));
            }
        }
        Ok(())
    }

    fn base_type(&mut self, specs: &[&TypeSpecifier], span: lang_c::span::Span) -> R<CType> {
        let (mut longs, mut short, mut unsigned, mut signed, mut char_, mut int_) =
            (0, false, false, false, false, false);
        for s in specs {
            match s {
                TypeSpecifier::Void => return Ok(CType::Void),
                TypeSpecifier::Bool => return Ok(CType::Int(Ty::BOOL)),
                TypeSpecifier::Char => char_ = true,
                TypeSpecifier::Short => short = true,
                TypeSpecifier::Int => int_ = true,
                TypeSpecifier::Long => longs += 1,
                TypeSpecifier::Signed => signed = true,
                TypeSpecifier::Unsigned => unsigned = true,
                TypeSpecifier::Float | TypeSpecifier::Double | TypeSpecifier::TS18661Float(_) => {
                    return Ok(CType::Opaque("floating point".into()))
                }
                TypeSpecifier::Complex => return Ok(CType::Opaque("_Complex".into())),
                TypeSpecifier::Atomic(_) => return Ok(CType::Opaque("_Atomic".into())),
                TypeSpecifier::TypeOf(_) => return Ok(CType::Opaque("typeof".into())),
                TypeSpecifier::Struct(st) => return self.struct_type(st),
                TypeSpecifier::Enum(e) => return self.enum_type(e),
                TypeSpecifier::TypedefName(n) => {
                    let name = &n.node.name;
                    if let Some(t) = known_typedef(name) {
                        return Ok(t);
                    }
                    if let Some(Binding::Type(t)) = self.lookup_scoped(name) {
                        return Ok(t);
                    }
                    return match self.typedefs.get(name) {
                        Some(t) => Ok(t.clone()),
                        None => self.invalid(n.span, format!("unknown type `{name}`")),
                    };
                }
            }
        }
        let _ = (signed, int_);
        let bits = if char_ {
            8
        } else if short {
            16
        } else if longs > 0 {
            64
        } else {
            32
        };
        if !char_ && !short && longs == 0 && !int_ && !signed && !unsigned {
            return self.invalid(span, "declaration without a type");
        }
        Ok(CType::Int(Ty {
            bits,
            signed: !unsigned,
        }))
    }

    fn struct_type(&mut self, st: &Node<StructType>) -> R<CType> {
        if st.node.kind.node == StructKind::Union {
            let n = st
                .node
                .identifier
                .as_ref()
                .map(|i| i.node.name.clone())
                .unwrap_or_default();
            return Ok(CType::Opaque(format!("union {n}")));
        }
        let tag = st.node.identifier.as_ref().map(|i| i.node.name.clone());
        let local = !self.frames.is_empty();
        let known = tag.as_ref().and_then(|t| {
            match self.lookup_scoped(&format!("struct {t}")) {
                Some(Binding::Type(CType::Struct(i))) => Some(i),
                // A definition in a block starts a new type even if the tag is known outside.
                _ if local && st.node.declarations.is_some() => None,
                _ => self.struct_tags.get(t).copied(),
            }
        });
        let idx = match known {
            Some(i) if st.node.declarations.is_none() || !self.structs[i].complete => i,
            _ => {
                self.structs.push(StructDef {
                    name: tag.clone().unwrap_or_else(|| "<anonymous>".into()),
                    fields: Vec::new(),
                    complete: false,
                });
                let i = self.structs.len() - 1;
                if let Some(t) = &tag {
                    if local {
                        self.bind_local(format!("struct {t}"), Binding::Type(CType::Struct(i)));
                    } else {
                        self.struct_tags.insert(t.clone(), i);
                    }
                }
                i
            }
        };
        if let Some(decls) = &st.node.declarations {
            let mut fields = Vec::new();
            for d in decls {
                let StructDeclaration::Field(f) = &d.node else {
                    continue;
                };
                let specs: Vec<&TypeSpecifier> = f
                    .node
                    .specifiers
                    .iter()
                    .filter_map(|s| match &s.node {
                        SpecifierQualifier::TypeSpecifier(t) => Some(&t.node),
                        _ => None,
                    })
                    .collect();
                let base = self.base_type(&specs, f.span)?;
                for sd in &f.node.declarators {
                    if sd.node.bit_width.is_some() {
                        fields.push(("<bit-field>".to_string(), CType::Opaque("bit-field".into())));
                        continue;
                    }
                    let Some(decl) = &sd.node.declarator else {
                        continue;
                    };
                    let name = ident_of(&decl.node)
                        .map(|i| i.node.name.clone())
                        .unwrap_or_default();
                    let ty = self.derive(base.clone(), &decl.node, sd.span)?;
                    fields.push((name, ty));
                }
            }
            self.structs[idx].fields = fields;
            self.structs[idx].complete = true;
        }
        Ok(CType::Struct(idx))
    }

    fn enum_type(&mut self, e: &Node<EnumType>) -> R<CType> {
        let mut next = 0i128;
        let mut negative = false;
        for en in &e.node.enumerators {
            let v = match &en.node.expression {
                Some(x) => match self.const_eval(x) {
                    Some(v) => v,
                    None => return self.unsupported(x.span, "non-constant enumerator value"),
                },
                None => next,
            };
            negative |= v < 0;
            let name = en.node.identifier.node.name.clone();
            if self.frames.is_empty() {
                self.enum_consts.insert(name, v);
            } else {
                self.bind_local(name, Binding::Const(v, Ty::INT));
            }
            next = v + 1;
        }
        Ok(CType::Int(if negative { Ty::INT } else { Ty::UINT }))
    }

    /// Applies a declarator's pointer/array/function derivations to a base type.
    #[allow(clippy::only_used_in_recursion)]
    fn derive(&mut self, base: CType, d: &Declarator, span: lang_c::span::Span) -> R<CType> {
        let mut ty = base;
        // Derivations apply from the last to the first for arrays (int a[2][3] = array 2 of
        // array 3), pointers from the first.
        let mut arrays = Vec::new();
        for dd in &d.derived {
            match &dd.node {
                DerivedDeclarator::Pointer(_) => ty = CType::Ptr(Box::new(ty)),
                DerivedDeclarator::Array(a) => arrays.push(a),
                DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_) => {
                    ty = CType::Func
                }
                DerivedDeclarator::Block(_) => return self.unsupported(dd.span, "block pointer"),
            }
        }
        for a in arrays.into_iter().rev() {
            let n = match &a.node.size {
                ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => {
                    match self.const_eval(e) {
                        Some(n) if n >= 0 => n as u64,
                        _ => return self.unsupported(e.span, "array whose size is not a constant"),
                    }
                }
                ArraySize::Unknown | ArraySize::VariableUnknown => 0,
            };
            ty = CType::Array(Box::new(ty), n);
        }
        if let DeclaratorKind::Declarator(inner) = &d.kind.node {
            // Parenthesised declarator such as (*f)(int): wrap.
            if !inner.node.derived.is_empty() {
                return self.derive(ty, &inner.node, span);
            }
        }
        Ok(ty)
    }

    fn type_name(&mut self, t: &Node<TypeName>) -> R<CType> {
        let specs: Vec<&TypeSpecifier> = t
            .node
            .specifiers
            .iter()
            .filter_map(|s| match &s.node {
                SpecifierQualifier::TypeSpecifier(t) => Some(&t.node),
                _ => None,
            })
            .collect();
        let base = self.base_type(&specs, t.span)?;
        match &t.node.declarator {
            Some(d) => self.derive(base, &d.node, t.span),
            None => Ok(base),
        }
    }

    fn sizeof(&self, t: &CType, span: lang_c::span::Span) -> R<i128> {
        match t.size_align(&self.structs) {
            Some((s, _)) => Ok(s as i128),
            None => self.unsupported(span, format!("sizeof({})", t.describe(&self.structs))),
        }
    }

    // ----------------------------------------------------------------- storage

    #[allow(clippy::too_many_arguments)]
    fn new_var(
        &mut self,
        name: String,
        elem: ElemKind,
        len: u32,
        is_array: bool,
        scope: VarScope,
        init: Init,
        span: Option<Span>,
    ) -> VarId {
        let id = VarId(self.vars.len() as u32);
        self.vars.push(Var {
            id,
            name,
            elem,
            len,
            is_array,
            scope,
            init,
            shared: false,
            span,
            c_path: String::new(),
            dims: Vec::new(),
            placement: None,
            allocation_status: false,
        });
        id
    }

    /// Creates the IR variables of an object of type `ty`.
    #[allow(clippy::too_many_arguments)]
    fn alloc(
        &mut self,
        name: &str,
        cpath: &str,
        dims: &[u32],
        ty: &CType,
        mult: u64,
        is_array: bool,
        scope: &VarScope,
        init: &Init,
        span: lang_c::span::Span,
    ) -> R<Storage> {
        Ok(match ty {
            CType::Array(e, n) => {
                if *n == 0 {
                    return self.unsupported(span, format!("array `{name}` of unknown size"));
                }
                let dims = [dims, &[*n as u32]].concat();
                let inner = self.alloc(
                    name,
                    &format!("{cpath}[]"),
                    &dims,
                    e,
                    mult * n,
                    true,
                    scope,
                    init,
                    span,
                )?;
                Storage::Array(Rc::new(inner), *n)
            }
            CType::Struct(i) => {
                let def = self.structs[*i].clone();
                if !def.complete {
                    return self.unsupported(span, format!("incomplete struct `{}`", def.name));
                }
                let mut fields = Vec::new();
                for (f, t) in &def.fields {
                    fields.push(self.alloc(
                        &format!("{name}.{f}"),
                        &format!("{cpath}.{f}"),
                        dims,
                        t,
                        mult,
                        is_array,
                        scope,
                        init,
                        span,
                    )?);
                }
                Storage::Struct(Rc::new(fields))
            }
            _ => {
                let Some(elem) = ty.elem() else {
                    return self.unsupported(
                        span,
                        format!("variable of type {}", ty.describe(&self.structs)),
                    );
                };
                if mult > 1 << 20 {
                    return self.unsupported(span, format!("array `{name}` of {mult} elements"));
                }
                let sp = Some(self.map.span(span));
                let init = if elem.is_sync() {
                    Init::Zero
                } else {
                    init.clone()
                };
                let v = self.new_var(
                    name.to_string(),
                    elem,
                    mult as u32,
                    is_array,
                    scope.clone(),
                    init,
                    sp,
                );
                self.vars[v.0 as usize].c_path = cpath.to_string();
                self.vars[v.0 as usize].dims = dims.to_vec();
                Storage::Leaf(v)
            }
        })
    }

    fn global_declaration(&mut self, d: &Node<Declaration>) -> R<()> {
        let mut extern_ = false;
        for s in &d.node.specifiers {
            if let DeclarationSpecifier::StorageClass(c) = &s.node {
                match c.node {
                    StorageClassSpecifier::Typedef => return Ok(()),
                    StorageClassSpecifier::Extern => extern_ = true,
                    StorageClassSpecifier::ThreadLocal => {
                        return self.unsupported(c.span, "thread-local storage")
                    }
                    _ => {}
                }
            }
        }
        let specs = type_specs(&d.node.specifiers);
        for id in &d.node.declarators {
            let Some(name) = ident_of(&id.node.declarator.node) else {
                continue;
            };
            let name = name.node.name.clone();
            if self.globals.contains_key(&name) && id.node.initializer.is_none() {
                continue;
            }
            let base = match self.base_type(&specs, d.span) {
                Ok(b) => b,
                Err(e) if extern_ => {
                    let _ = e;
                    continue;
                }
                Err(e) => return Err(e),
            };
            let ty = self.derive(base, &id.node.declarator.node, id.span)?;
            let ty = complete_array(ty, id.node.initializer.as_ref());
            if matches!(ty, CType::Func) || (extern_ && id.node.initializer.is_none()) {
                continue;
            }
            if is_builtin_name(&name) {
                continue;
            }
            let init = Init::Zero;
            let st = self.alloc(
                &name,
                &name,
                &[],
                &ty,
                1,
                false,
                &VarScope::Global,
                &init,
                id.span,
            )?;
            if let Some(i) = &id.node.initializer {
                self.static_init(&st, &ty, i)?;
            }
            self.globals.insert(name.clone(), (st.clone(), ty.clone()));
            // An integer global that no function writes keeps its initial value.
            if let (CType::Int(_), Storage::Leaf(v)) = (&ty, &st) {
                if !self.written_anywhere.contains(&name) {
                    let val = match &self.vars[v.0 as usize].init {
                        Init::Values(vs) => vs.first().copied().unwrap_or(0),
                        _ => 0,
                    };
                    self.global_consts.insert(name, val);
                } else {
                    self.global_consts.remove(&name);
                }
            }
        }
        Ok(())
    }

    /// Evaluates a constant initialiser into the variables' `init`.
    fn static_init(&mut self, st: &Storage, ty: &CType, init: &Node<Initializer>) -> R<()> {
        let mut vals: Vec<(VarId, u64, i128)> = Vec::new();
        self.collect_init(st, ty, 0, init, &mut vals)?;
        for (v, idx, x) in vals {
            let var = &mut self.vars[v.0 as usize];
            if var.elem.is_sync() {
                continue;
            }
            let len = var.len as usize;
            if !matches!(var.init, Init::Values(_)) {
                var.init = Init::Values(vec![0; len]);
            }
            if let Init::Values(vs) = &mut var.init {
                if (idx as usize) < len {
                    vs[idx as usize] = x;
                }
            }
        }
        Ok(())
    }

    fn collect_init(
        &mut self,
        st: &Storage,
        ty: &CType,
        idx: u64,
        init: &Node<Initializer>,
        out: &mut Vec<(VarId, u64, i128)>,
    ) -> R<()> {
        match (&init.node, st, ty) {
            (_, Storage::Leaf(_), CType::Mutex | CType::Cond | CType::Barrier) => Ok(()),
            (Initializer::Expression(e), Storage::Leaf(v), _) => {
                let x = self.const_value(e, ty)?;
                out.push((*v, idx, x));
                Ok(())
            }
            (Initializer::List(items), Storage::Leaf(v), _) => match items.first() {
                Some(first) => self.collect_init(st, ty, idx, &first.node.initializer, out),
                None => {
                    out.push((*v, idx, 0));
                    Ok(())
                }
            },
            (Initializer::List(items), Storage::Array(elem, n), CType::Array(et, _)) => {
                for (k, it) in items.iter().enumerate() {
                    if !it.node.designation.is_empty() {
                        return self.unsupported(it.span, "designated initializer");
                    }
                    if k as u64 >= *n {
                        break;
                    }
                    self.collect_init(elem, et, idx * n + k as u64, &it.node.initializer, out)?;
                }
                Ok(())
            }
            (Initializer::List(items), Storage::Struct(fields), CType::Struct(si)) => {
                let defs = self.structs[*si].fields.clone();
                for (k, it) in items.iter().enumerate() {
                    if !it.node.designation.is_empty() {
                        return self.unsupported(it.span, "designated initializer");
                    }
                    if k >= fields.len() {
                        break;
                    }
                    self.collect_init(&fields[k], &defs[k].1, idx, &it.node.initializer, out)?;
                }
                Ok(())
            }
            (Initializer::Expression(e), Storage::Array(_, n), CType::Array(et, _)) => {
                // char s[] = "..."
                if let Expression::StringLiteral(s) = &e.node {
                    if let (Storage::Array(elem, _), true) = (st, **et == CType::Int(Ty::CHAR)) {
                        if let Storage::Leaf(v) = &**elem {
                            for (k, b) in string_bytes(&s.node).iter().enumerate() {
                                if (k as u64) < *n {
                                    out.push((*v, idx * n + k as u64, Ty::CHAR.wrap(*b as i128)));
                                }
                            }
                            return Ok(());
                        }
                    }
                }
                self.unsupported(e.span, "initializer of an array by an expression")
            }
            _ => self.unsupported(init.span, "initializer of this form"),
        }
    }

    fn const_value(&mut self, e: &Node<Expression>, ty: &CType) -> R<i128> {
        let saved = (self.pure, self.const_ctx);
        self.pure = true;
        self.const_ctx = true;
        let r = self.rvalue(e);
        (self.pure, self.const_ctx) = saved;
        let v = r?;
        let x = self.scalar_of(v, e.span)?;
        let x = self.convert(x.0, &x.1, ty, e.span)?;
        match const_address(&x) {
            Some(c) => Ok(c),
            None => self.unsupported(e.span, "initializer that is not a constant"),
        }
    }

    /// Evaluates an integer constant expression (enum constants, globals never written).
    fn const_eval(&mut self, e: &Node<Expression>) -> Option<i128> {
        let saved = (self.pure, self.const_ctx, self.tb.transitions.len());
        self.pure = true;
        self.const_ctx = true;
        let r = self.rvalue(e);
        (self.pure, self.const_ctx) = (saved.0, saved.1);
        debug_assert_eq!(saved.2, self.tb.transitions.len());
        match r {
            Ok(Val::Scalar(x, _)) => x.as_const(),
            _ => None,
        }
    }

    // ----------------------------------------------------------------- CFG building

    fn new_loc(&mut self, kind: LocKind) -> LocId {
        self.tb.locations.push(Location {
            kind,
            out: Vec::new(),
        });
        LocId(self.tb.locations.len() as u32 - 1)
    }

    fn edge(
        &mut self,
        src: LocId,
        dst: LocId,
        guard: Expr,
        ops: Vec<Op>,
        kind: TransKind,
    ) -> R<TransId> {
        let id = TransId(self.tb.transitions.len() as u32);
        self.transitions_total += 1;
        if self.transitions_total > self.opts.max_transitions {
            return Err(Error::Unsupported {
                position: self
                    .span
                    .as_ref()
                    .map(|s| self.map.position(s))
                    .unwrap_or_default(),
                construct: format!(
                    "program size: more than {} transitions after inlining and unrolling",
                    self.opts.max_transitions
                ),
            });
        }
        self.tb.transitions.push(Transition {
            id,
            src,
            dst,
            guard,
            ops,
            kind,
            events: Vec::new(),
            may_block: false,
            yields: false,
            back_edge: false,
            span: self.span,
            at: self.at.map(|s| [s.start as u32, s.end as u32]),
            memory_access: false,
            refusal: None,
        });
        self.tb.locations[src.0 as usize].out.push(id);
        Ok(id)
    }

    /// Adds a transition from the current location to a new one, which becomes current.
    fn step(&mut self, guard: Expr, ops: Vec<Op>, kind: TransKind) -> R<TransId> {
        let n = self.new_loc(LocKind::Normal);
        let t = self.edge(self.cur, n, guard, ops, kind)?;
        self.cur = n;
        Ok(t)
    }

    /// Jumps to `dst`; what follows is unreachable until a label.
    fn jump(&mut self, dst: LocId) -> R<()> {
        self.edge(self.cur, dst, Expr::tt(), vec![], TransKind::Stmt)?;
        self.cur = self.new_loc(LocKind::Normal);
        Ok(())
    }

    fn goto_here(&mut self, target: LocId) -> R<()> {
        self.edge(self.cur, target, Expr::tt(), vec![], TransKind::Stmt)?;
        self.cur = target;
        Ok(())
    }

    fn temp(&mut self, ty: Ty) -> VarId {
        self.temps += 1;
        let name = format!("{}::$t{}", self.tid, self.temps);
        self.new_var(
            name,
            ElemKind::Int(ty),
            1,
            false,
            VarScope::Local(self.tid),
            Init::Zero,
            None,
        )
    }

    fn is_split(&self, p: &Place) -> bool {
        match p {
            Place::Deref { .. } => true,
            Place::Var { var, .. } => match self.vars[var.0 as usize].scope {
                VarScope::Local(_) => self.split_locals.contains(var),
                _ => true,
            },
        }
    }

    /// Runs `f` with `span` as the expression of the transitions it adds ([`Transition::at`]).
    fn at_expr<T>(&mut self, span: lang_c::span::Span, f: impl FnOnce(&mut Self) -> R<T>) -> R<T> {
        let this = (self.at_suppressed == 0).then_some(span);
        let saved = std::mem::replace(&mut self.at, this);
        let r = f(self);
        self.at = saved;
        r
    }

    /// Reads a place: through a temporary when another thread may see it.
    fn load(&mut self, place: Place, ty: Ty) -> R<Expr> {
        let e = Expr::Load {
            place: place.clone(),
            ty,
        };
        if self.pure || !self.is_split(&place) {
            if let (false, Some(at)) = (self.pure, self.at) {
                self.local_reads.insert([at.start as u32, at.end as u32]);
            }
            return Ok(e);
        }
        let t = self.temp(ty);
        let id = self.step(
            Expr::tt(),
            vec![Op::Assign {
                place: Place::scalar(t),
                value: e,
            }],
            TransKind::Stmt,
        )?;
        self.tb.transitions[id.0 as usize].memory_access = true;
        Ok(Expr::var(t, ty))
    }

    /// Snapshots a value into a temporary (so that later writes cannot change it).
    fn snapshot(&mut self, e: Expr) -> R<Expr> {
        if e.as_const().is_some() {
            return Ok(e);
        }
        let ty = e.ty();
        let t = self.temp(ty);
        self.step(
            Expr::tt(),
            vec![Op::Assign {
                place: Place::scalar(t),
                value: e,
            }],
            TransKind::Stmt,
        )?;
        Ok(Expr::var(t, ty))
    }

    fn no_effects(&self, span: lang_c::span::Span) -> R<()> {
        if self.pure {
            return Err(Error::Unsupported {
                position: self.pos(span),
                construct: "side effect in a constant or assumed expression".into(),
            });
        }
        Ok(())
    }

    // ----------------------------------------------------------------- threads

    fn lower_thread(&mut self, p: Pending) -> R<()> {
        let f = *self.funcs.get(&p.func).expect("checked at pthread_create");
        self.tid = p.tid;
        self.tb = ThreadB {
            locations: Vec::new(),
            transitions: Vec::new(),
        };
        self.temps = 0;
        let entry = self.new_loc(LocKind::Normal);
        let exit = self.new_loc(LocKind::Exit);
        let error = self.new_loc(LocKind::Error);
        let halt = self.new_loc(LocKind::Halt);
        let discard = self.new_loc(LocKind::Discard);
        self.special = [exit, error, halt, discard];
        self.cur = entry;
        // Scope 0 holds nothing in a thread (globals have their own table); scope 1 the
        // start function's parameters, which callees must not see.
        self.scopes = vec![HashMap::new(), HashMap::new()];
        self.frames.clear();
        self.atomic_depth = 0;
        self.span = Some(self.map.span(f.span));
        let is_main = p.tid == ThreadId(0);
        let params = fn_params(&f.node.declarator.node);
        if is_main {
            for (k, (pname, _)) in params.iter().enumerate() {
                let b = if k == 0 {
                    Binding::Const(1, Ty::INT)
                } else {
                    Binding::Poison("use of argv")
                };
                if let Some(n) = pname {
                    self.scopes[1].insert(n.clone(), b);
                }
            }
        } else if let (Some((name, b)), Some((Some(pn), _))) = (&p.param, params.first()) {
            let _ = name;
            self.scopes[1].insert(pn.clone(), b.clone());
        }
        let ret_loc = self.new_loc(LocKind::Normal);
        self.frames.push(Frame {
            func: p.func.clone(),
            labels: HashMap::new(),
            defined: HashSet::new(),
            ret_loc,
            ret: None,
            breaks: vec![],
            continues: vec![],
            switches: vec![],
            scope_base: 1,
        });
        self.scopes.push(HashMap::new());
        self.body(&f.node.statement)?;
        self.check_labels(f.span)?;
        self.goto_here(ret_loc)?;
        self.span = None;
        if is_main {
            self.edge(self.cur, halt, Expr::tt(), vec![], TransKind::Halt)?;
        } else {
            self.thread_exit()?;
        }
        let name = if is_main {
            "main".to_string()
        } else {
            format!("{}#{}", p.func, p.tid.0)
        };
        let tb = std::mem::replace(
            &mut self.tb,
            ThreadB {
                locations: vec![],
                transitions: vec![],
            },
        );
        let slot = &mut self.threads[p.tid.0 as usize];
        slot.0 = Thread {
            id: p.tid,
            name,
            function: p.func,
            created_by: if is_main { None } else { Some(p.created_by) },
            locations: vec![],
            transitions: vec![],
            entry,
            exit,
            error,
            halt,
            discard,
        };
        slot.1 = tb;
        Ok(())
    }

    /// The thread's final transition: publishes `__thread_done[self]` and exits.
    fn thread_exit(&mut self) -> R<()> {
        let done = Place::Var {
            var: self.thread_done,
            index: Some(Box::new(Expr::int(self.tid.0 as i128))),
        };
        let exit = self.special[0];
        self.edge(
            self.cur,
            exit,
            Expr::tt(),
            vec![Op::Assign {
                place: done,
                value: Expr::int(1),
            }],
            TransKind::Sync(SyncKind::ThreadExit),
        )?;
        self.cur = self.new_loc(LocKind::Normal);
        Ok(())
    }

    // ----------------------------------------------------------------- statements

    fn body(&mut self, s: &Node<Statement>) -> R<()> {
        self.stmt(s)
    }

    /// A name bound in a block scope visible here.
    fn lookup_scoped(&self, name: &str) -> Option<Binding> {
        let base = self.frames.last().map(|f| f.scope_base).unwrap_or(0);
        for (i, sc) in self.scopes.iter().enumerate().rev() {
            // Scopes of callers are not visible in an inlined callee (scope 0 is file scope).
            if i < base && i > 0 {
                continue;
            }
            if let Some(b) = sc.get(name) {
                return Some(b.clone());
            }
        }
        None
    }

    /// Binds a name in the innermost block scope.
    fn bind_local(&mut self, name: String, b: Binding) {
        self.scopes.last_mut().expect("scope").insert(name, b);
    }

    /// What a name denotes as an object (never the constant value of a global that is never
    /// written, as [`Lowerer::lookup`] gives in constant expressions): for `&flag`.
    fn lookup_object(&mut self, name: &str) -> Option<Binding> {
        let saved = std::mem::replace(&mut self.const_ctx, false);
        let b = self.lookup(name);
        self.const_ctx = saved;
        b
    }

    fn lookup(&self, name: &str) -> Option<Binding> {
        if let Some(b) = self.lookup_scoped(name) {
            return Some(b);
        }
        if let Some(v) = self.enum_consts.get(name) {
            return Some(Binding::Const(*v, Ty::INT));
        }
        if self.const_ctx {
            if let Some(v) = self.global_consts.get(name) {
                let ty = self.globals[name].1.value_ty().unwrap_or(Ty::INT);
                return Some(Binding::Const(*v, ty));
            }
        }
        self.globals
            .get(name)
            .map(|(s, t)| Binding::Obj(s.clone(), t.clone()))
    }

    fn stmt(&mut self, s: &Node<Statement>) -> R<()> {
        let saved = self.span;
        // Statements inside a statement expression come from a macro (glibc's `assert`): their
        // columns are those of the expansion, so keep the span of the enclosing statement.
        if !matches!(s.node, Statement::Compound(_) | Statement::Labeled(_))
            && self.stmt_expr_depth == 0
        {
            self.span = Some(self.map.span(s.span));
        }
        let r = self.stmt_inner(s);
        self.span = saved;
        r
    }

    fn stmt_inner(&mut self, s: &Node<Statement>) -> R<()> {
        match &s.node {
            Statement::Compound(items) => {
                self.scopes.push(HashMap::new());
                for it in items {
                    match &it.node {
                        BlockItem::Declaration(d) => self.local_declaration(d)?,
                        BlockItem::StaticAssert(_) => {}
                        BlockItem::Statement(st) => self.stmt(st)?,
                    }
                }
                self.scopes.pop();
                Ok(())
            }
            Statement::Expression(Some(e)) => {
                self.effect(e)?;
                Ok(())
            }
            Statement::Expression(None) => Ok(()),
            Statement::If(i) => {
                let labels = has_label(&i.node.then_statement.node)
                    || i.node
                        .else_statement
                        .as_ref()
                        .is_some_and(|e| has_label(&e.node));
                if let (Some(c), false) = (self.const_eval(&i.node.condition), labels) {
                    if c != 0 {
                        return self.stmt(&i.node.then_statement);
                    }
                    return match &i.node.else_statement {
                        Some(e) => self.stmt(e),
                        None => Ok(()),
                    };
                }
                let t = self.new_loc(LocKind::Normal);
                let f = self.new_loc(LocKind::Normal);
                let end = self.new_loc(LocKind::Normal);
                self.cond(&i.node.condition, t, f)?;
                self.cur = t;
                self.stmt(&i.node.then_statement)?;
                self.goto_here(end)?;
                self.cur = f;
                if let Some(e) = &i.node.else_statement {
                    self.stmt(e)?;
                }
                self.goto_here(end)?;
                Ok(())
            }
            Statement::While(w) => {
                let head = self.new_loc(LocKind::Normal);
                let body = self.new_loc(LocKind::Normal);
                let end = self.new_loc(LocKind::Normal);
                self.goto_here(head)?;
                if self.contains_spawn_stmt(&w.node.statement.node) {
                    return self.unsupported(
                        s.span,
                        "pthread_create in a loop without a constant trip count",
                    );
                }
                self.cond(&w.node.expression, body, end)?;
                self.cur = body;
                self.in_loop(end, head, |l| l.stmt(&w.node.statement))?;
                self.goto_here(head)?;
                self.cur = end;
                Ok(())
            }
            Statement::DoWhile(w) => {
                if self.contains_spawn_stmt(&w.node.statement.node) {
                    return self.unsupported(
                        s.span,
                        "pthread_create in a loop without a constant trip count",
                    );
                }
                let body = self.new_loc(LocKind::Normal);
                let check = self.new_loc(LocKind::Normal);
                let end = self.new_loc(LocKind::Normal);
                self.goto_here(body)?;
                self.in_loop(end, check, |l| l.stmt(&w.node.statement))?;
                self.goto_here(check)?;
                self.cond(&w.node.expression, body, end)?;
                self.cur = end;
                Ok(())
            }
            Statement::For(f) => self.for_stmt(s, f),
            Statement::Goto(l) => {
                let target = self.label(&l.node.name);
                self.jump(target)
            }
            Statement::Continue => {
                let Some(&t) = self.frames.last().and_then(|f| f.continues.last()) else {
                    return self.invalid(s.span, "`continue` outside a loop");
                };
                self.jump(t)
            }
            Statement::Break => {
                let Some(&t) = self.frames.last().and_then(|f| f.breaks.last()) else {
                    return self.invalid(s.span, "`break` outside a loop or switch");
                };
                self.jump(t)
            }
            Statement::Return(e) => {
                let frame = self.frames.last().expect("inside a function");
                let (ret_loc, ret) = (frame.ret_loc, frame.ret.clone());
                if let Some(e) = e {
                    let v = self.rvalue(e)?;
                    if let Some((var, ty)) = ret {
                        let (x, xt) = self.scalar_of(v, e.span)?;
                        let x = self.convert(x, &xt, &ty, e.span)?;
                        self.step(
                            Expr::tt(),
                            vec![Op::Assign {
                                place: Place::scalar(var),
                                value: x,
                            }],
                            TransKind::Stmt,
                        )?;
                    }
                }
                self.jump(ret_loc)
            }
            Statement::Labeled(l) => match &l.node.label.node {
                Label::Identifier(id) => {
                    let target = self.label(&id.node.name);
                    self.frames
                        .last_mut()
                        .expect("in function")
                        .defined
                        .insert(id.node.name.clone());
                    self.goto_here(target)?;
                    self.stmt(&l.node.statement)
                }
                Label::Case(e) => {
                    let Some(v) = self.const_eval(e) else {
                        return self.unsupported(e.span, "non-constant case label");
                    };
                    let here = self.new_loc(LocKind::Normal);
                    self.goto_here(here)?;
                    let Some(sw) = self.frames.last_mut().and_then(|f| f.switches.last_mut())
                    else {
                        return self.invalid(l.span, "`case` outside a switch");
                    };
                    let v = sw.ty.wrap(v);
                    sw.cases.push((v, here));
                    self.stmt(&l.node.statement)
                }
                Label::CaseRange(r) => self.unsupported(r.span, "case range"),
                Label::Default => {
                    let here = self.new_loc(LocKind::Normal);
                    self.goto_here(here)?;
                    let Some(sw) = self.frames.last_mut().and_then(|f| f.switches.last_mut())
                    else {
                        return self.invalid(l.span, "`default` outside a switch");
                    };
                    sw.default = Some(here);
                    self.stmt(&l.node.statement)
                }
            },
            Statement::Switch(sw) => {
                let v = self.rvalue(&sw.node.expression)?;
                let (x, xt) = self.scalar_of(v, sw.node.expression.span)?;
                let ty = promote(xt.value_ty().unwrap_or(Ty::INT));
                let x = self.convert(x, &xt, &CType::Int(ty), sw.node.expression.span)?;
                let x = self.snapshot(x)?;
                let dispatch = self.cur;
                let end = self.new_loc(LocKind::Normal);
                self.cur = self.new_loc(LocKind::Normal);
                {
                    let fr = self.frames.last_mut().expect("in function");
                    fr.switches.push(SwitchCx {
                        ty,
                        cases: vec![],
                        default: None,
                    });
                    fr.breaks.push(end);
                }
                self.stmt(&sw.node.statement)?;
                self.goto_here(end)?;
                let fr = self.frames.last_mut().expect("in function");
                fr.breaks.pop();
                let cx = fr.switches.pop().expect("pushed");
                let mut none = Expr::tt();
                for (v, loc) in &cx.cases {
                    let eq = bin(BinOp::Eq, x.clone(), Expr::constant(*v, ty), Ty::INT);
                    self.edge(dispatch, *loc, eq, vec![], TransKind::Branch)?;
                    let ne = bin(BinOp::Ne, x.clone(), Expr::constant(*v, ty), Ty::INT);
                    none = if none.is_true() {
                        ne
                    } else {
                        bin(BinOp::And, none, ne, Ty::INT)
                    };
                }
                let other = cx.default.unwrap_or(end);
                self.edge(dispatch, other, none, vec![], TransKind::Branch)?;
                self.cur = end;
                Ok(())
            }
            Statement::Asm(_) => self.unsupported(s.span, "inline assembly"),
        }
    }

    fn in_loop(&mut self, brk: LocId, cont: LocId, f: impl FnOnce(&mut Self) -> R<()>) -> R<()> {
        {
            let fr = self.frames.last_mut().expect("in function");
            fr.breaks.push(brk);
            fr.continues.push(cont);
        }
        let r = f(self);
        let fr = self.frames.last_mut().expect("in function");
        fr.breaks.pop();
        fr.continues.pop();
        r
    }

    /// Every `goto` target of the current function body is defined.
    fn check_labels(&self, span: lang_c::span::Span) -> R<()> {
        let fr = self.frames.last().expect("in function");
        let mut missing: Vec<&String> = fr
            .labels
            .keys()
            .filter(|l| !fr.defined.contains(*l))
            .collect();
        missing.sort();
        match missing.first() {
            Some(l) => self.invalid(
                span,
                format!("label `{l}` used in `{}` but not defined", fr.func),
            ),
            None => Ok(()),
        }
    }

    fn label(&mut self, name: &str) -> LocId {
        if let Some(l) = self.frames.last().and_then(|f| f.labels.get(name)) {
            return *l;
        }
        let l = self.new_loc(LocKind::Normal);
        self.frames
            .last_mut()
            .expect("in function")
            .labels
            .insert(name.to_string(), l);
        l
    }

    fn for_stmt(&mut self, s: &Node<Statement>, f: &Node<ForStatement>) -> R<()> {
        self.scopes.push(HashMap::new());
        let r = self.for_inner(s, f);
        self.scopes.pop();
        r
    }

    fn for_inner(&mut self, s: &Node<Statement>, f: &Node<ForStatement>) -> R<()> {
        match &f.node.initializer.node {
            ForInitializer::Empty => {}
            ForInitializer::Expression(e) => self.effect(e)?,
            ForInitializer::Declaration(d) => self.local_declaration(d)?,
            ForInitializer::StaticAssert(_) => {}
        }
        if self.contains_spawn_stmt(&f.node.statement.node) {
            let Some(iters) = self.trip_count(f) else {
                return self.unsupported(
                    s.span,
                    "pthread_create in a loop without a constant trip count",
                );
            };
            if iters as usize > self.opts.max_threads {
                return self.unsupported(
                    s.span,
                    format!(
                        "thread creation loop of {iters} iterations (more than --max-threads {})",
                        self.opts.max_threads
                    ),
                );
            }
            let end = self.new_loc(LocKind::Normal);
            for _ in 0..iters {
                let step = self.new_loc(LocKind::Normal);
                self.in_loop(end, step, |l| l.stmt(&f.node.statement))?;
                self.goto_here(step)?;
                if let Some(st) = &f.node.step {
                    self.effect(st)?;
                }
            }
            self.goto_here(end)?;
            return Ok(());
        }
        let head = self.new_loc(LocKind::Normal);
        let body = self.new_loc(LocKind::Normal);
        let step = self.new_loc(LocKind::Normal);
        let end = self.new_loc(LocKind::Normal);
        self.goto_here(head)?;
        match &f.node.condition {
            Some(c) => self.cond(c, body, end)?,
            None => self.goto_here(body)?,
        }
        self.cur = body;
        self.in_loop(end, step, |l| l.stmt(&f.node.statement))?;
        self.goto_here(step)?;
        if let Some(st) = &f.node.step {
            self.effect(st)?;
        }
        self.goto_here(head)?;
        self.cur = end;
        Ok(())
    }

    /// The trip count of `for (i = a; i < b; i++)`-shaped loops whose bounds fold to constants
    /// and whose body does not assign the counter.
    fn trip_count(&mut self, f: &Node<ForStatement>) -> Option<u64> {
        let (var, start) = match &f.node.initializer.node {
            ForInitializer::Expression(e) => match &e.node {
                Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Assign => {
                    let Expression::Identifier(i) = &b.node.lhs.node else {
                        return None;
                    };
                    (i.node.name.clone(), self.const_eval(&b.node.rhs)?)
                }
                _ => return None,
            },
            ForInitializer::Declaration(d) => {
                let id = d.node.declarators.first()?;
                let name = ident_of(&id.node.declarator.node)?.node.name.clone();
                match &id.node.initializer.as_ref()?.node {
                    Initializer::Expression(e) => (name, self.const_eval(e)?),
                    _ => return None,
                }
            }
            _ => return None,
        };
        let c = f.node.condition.as_ref()?;
        let Expression::BinaryOperator(b) = &c.node else {
            return None;
        };
        let Expression::Identifier(i) = &b.node.lhs.node else {
            return None;
        };
        if i.node.name != var {
            return None;
        }
        let bound = self.const_eval(&b.node.rhs)?;
        let step: i128 = match &f.node.step.as_ref()?.node {
            Expression::UnaryOperator(u) => match u.node.operator.node {
                UnaryOperator::PostIncrement | UnaryOperator::PreIncrement => 1,
                UnaryOperator::PostDecrement | UnaryOperator::PreDecrement => -1,
                _ => return None,
            },
            Expression::BinaryOperator(s) => match s.node.operator.node {
                BinaryOperator::AssignPlus => self.const_eval(&s.node.rhs)?,
                BinaryOperator::AssignMinus => -self.const_eval(&s.node.rhs)?,
                _ => return None,
            },
            _ => return None,
        };
        let mut facts = FnFacts::default();
        scan_stmt(&f.node.statement.node, &mut facts);
        if facts.assigned.contains(&var) || facts.addr_taken.contains(&var) || step == 0 {
            return None;
        }
        let test = |x: i128| match b.node.operator.node {
            BinaryOperator::Less => Some(x < bound),
            BinaryOperator::LessOrEqual => Some(x <= bound),
            BinaryOperator::Greater => Some(x > bound),
            BinaryOperator::GreaterOrEqual => Some(x >= bound),
            BinaryOperator::NotEquals => Some(x != bound),
            _ => None,
        };
        let (mut x, mut n) = (start, 0u64);
        while test(x)? {
            n += 1;
            x += step;
            if n > 1 << 20 {
                return None;
            }
        }
        Some(n)
    }

    fn contains_spawn_stmt(&mut self, s: &Statement) -> bool {
        let mut calls = Vec::new();
        collect_calls_stmt(s, &mut calls);
        calls.into_iter().any(|c| self.fn_spawns(&c))
    }

    fn fn_spawns(&mut self, name: &str) -> bool {
        if name == "pthread_create" {
            return true;
        }
        if let Some(&b) = self.spawn_fns.get(name) {
            return b;
        }
        self.spawn_fns.insert(name.to_string(), false);
        let Some(f) = self.funcs.get(name).copied() else {
            return false;
        };
        let mut calls = Vec::new();
        collect_calls_stmt(&f.node.statement.node, &mut calls);
        let r = calls.into_iter().any(|c| self.fn_spawns(&c));
        self.spawn_fns.insert(name.to_string(), r);
        r
    }

    fn local_declaration(&mut self, d: &Node<Declaration>) -> R<()> {
        let mut static_ = false;
        for s in &d.node.specifiers {
            if let DeclarationSpecifier::StorageClass(c) = &s.node {
                match c.node {
                    StorageClassSpecifier::Typedef => {
                        return self.type_declarations(d);
                    }
                    StorageClassSpecifier::Static => static_ = true,
                    StorageClassSpecifier::Extern => return Ok(()),
                    _ => {}
                }
            }
        }
        let specs = type_specs(&d.node.specifiers);
        let base = self.base_type(&specs, d.span)?;
        for id in &d.node.declarators {
            let Some(name) = ident_of(&id.node.declarator.node) else {
                continue;
            };
            let name = name.node.name.clone();
            let ty = self.derive(base.clone(), &id.node.declarator.node, id.span)?;
            if matches!(ty, CType::Func) {
                continue;
            }
            if static_ {
                return self.unsupported(id.span, "static local variable");
            }
            let func = self
                .frames
                .last()
                .map(|f| f.func.clone())
                .unwrap_or_default();
            let vname = format!("{}::{}", func, name);
            let vname = if self.tid.0 == 0 {
                vname
            } else {
                format!("{}:{}", self.tid, vname)
            };
            let ty = complete_array(ty, id.node.initializer.as_ref());
            let facts = self.facts.get(&func);
            let never_assigned =
                facts.is_none_or(|f| !f.assigned.contains(&name) && !f.addr_taken.contains(&name));
            let escapes = facts.is_some_and(|f| {
                f.addr_taken.contains(&name)
                    || (matches!(ty, CType::Array(..))
                        && f.addr_taken.contains(&format!("{name}#decay")))
            });
            // A pointer initialised once and never assigned: evaluate the initialiser, and when
            // it points to a known object, substitute (like a pointer parameter).
            let mut ptr_init = None;
            if let (CType::Ptr(_), Some(init)) = (&ty, &id.node.initializer) {
                if let Initializer::Expression(e) = &init.node {
                    self.span = Some(self.map.span(id.span));
                    let v = match self.try_alloc(e, Some(&ty))? {
                        Some(v) => Err(v),
                        None => {
                            let v = self.rvalue(e)?;
                            Ok(self.cast_val(v, &ty, e.span)?)
                        }
                    };
                    match v {
                        Ok(Val::Ptr(lv)) if never_assigned => {
                            let lv = self.capture(lv)?;
                            self.bind_local(name, Binding::Alias(lv));
                            continue;
                        }
                        // An allocation site stays a variable: the site is checked to run once.
                        Ok(v) | Err(v) => ptr_init = Some((v, e.span)),
                    }
                }
            }
            let first = self.vars.len();
            let st = self.alloc(
                &vname,
                &name,
                &[],
                &ty,
                1,
                false,
                &VarScope::Local(self.tid),
                &Init::Nondet,
                id.span,
            )?;
            if escapes {
                for v in first..self.vars.len() {
                    self.split_locals.insert(VarId(v as u32));
                }
            }
            self.bind_local(name, Binding::Obj(st.clone(), ty.clone()));
            let lv = Lv::Mem {
                node: st,
                idx: Expr::int(0),
                ty: ty.clone(),
            };
            if let Some((v, span)) = ptr_init {
                self.assign_val(&lv, v, span)?;
            } else if let Some(init) = &id.node.initializer {
                self.span = Some(self.map.span(id.span));
                self.init_local(lv, init)?;
            }
        }
        Ok(())
    }

    /// Freezes the index or address of a substituted pointer: later writes to the variables it
    /// reads must not move it.
    fn capture(&mut self, lv: Lv) -> R<Lv> {
        Ok(match lv {
            Lv::Mem { node, idx, ty } => Lv::Mem {
                node,
                idx: self.snapshot(idx)?,
                ty,
            },
            Lv::Deref { addr, ty } => Lv::Deref {
                addr: self.snapshot(addr)?,
                ty,
            },
        })
    }

    fn init_local(&mut self, lv: Lv, init: &Node<Initializer>) -> R<()> {
        match &init.node {
            Initializer::Expression(e) => {
                if let (CType::Array(_, n), Expression::StringLiteral(lit)) =
                    (lv.ty().clone(), &e.node)
                {
                    let bytes = string_bytes(&lit.node);
                    for k in 0..n {
                        let el = self.index_lv(&lv, Expr::constant(k as i128, Ty::LONG), e.span)?;
                        let b = bytes.get(k as usize).copied().unwrap_or(0);
                        self.store(&el, Expr::constant(b as i128, Ty::CHAR), e.span)?;
                    }
                    return Ok(());
                }
                let v = self.rvalue(e)?;
                // The store of an initialiser performs no expression of its own (`e` is what
                // is read): one the instrumentation could place would be an assignment.
                self.at_suppressed += 1;
                let r = self.assign_val(&lv, v, e.span);
                self.at_suppressed -= 1;
                r
            }
            Initializer::List(items) => {
                let ty = lv.ty().clone();
                match &ty {
                    CType::Array(_, n) => {
                        for k in 0..*n {
                            let el =
                                self.index_lv(&lv, Expr::constant(k as i128, Ty::LONG), init.span)?;
                            match items.get(k as usize) {
                                Some(it) => {
                                    if !it.node.designation.is_empty() {
                                        return self.unsupported(it.span, "designated initializer");
                                    }
                                    self.init_local(el, &it.node.initializer)?
                                }
                                None => self.zero_fill(&el, init.span)?,
                            }
                        }
                        Ok(())
                    }
                    CType::Struct(si) => {
                        let nf = self.structs[*si].fields.len();
                        for k in 0..nf {
                            let fname = self.structs[*si].fields[k].0.clone();
                            let el = self.member_lv(&lv, &fname, init.span)?;
                            match items.get(k) {
                                Some(it) => {
                                    if !it.node.designation.is_empty() {
                                        return self.unsupported(it.span, "designated initializer");
                                    }
                                    self.init_local(el, &it.node.initializer)?
                                }
                                None => self.zero_fill(&el, init.span)?,
                            }
                        }
                        Ok(())
                    }
                    CType::Mutex | CType::Cond | CType::Barrier => {
                        let place = self.place_of(&lv, init.span)?;
                        self.step(
                            Expr::tt(),
                            vec![Op::Assign {
                                place,
                                value: Expr::constant(0, Ty::LONG),
                            }],
                            TransKind::Stmt,
                        )?;
                        Ok(())
                    }
                    _ => match items.first() {
                        Some(it) => self.init_local(lv, &it.node.initializer),
                        None => self.zero_fill(&lv, init.span),
                    },
                }
            }
        }
    }

    fn zero_fill(&mut self, lv: &Lv, span: lang_c::span::Span) -> R<()> {
        match lv.ty().clone() {
            CType::Array(_, n) => {
                for k in 0..n {
                    let el = self.index_lv(lv, Expr::constant(k as i128, Ty::LONG), span)?;
                    self.zero_fill(&el, span)?;
                }
                Ok(())
            }
            CType::Struct(si) => {
                let names: Vec<String> = self.structs[si]
                    .fields
                    .iter()
                    .map(|f| f.0.clone())
                    .collect();
                for f in names {
                    let el = self.member_lv(lv, &f, span)?;
                    self.zero_fill(&el, span)?;
                }
                Ok(())
            }
            t => {
                let place = self.place_of(lv, span)?;
                let ty = t.elem().map(|e| e.ty()).unwrap_or(Ty::INT);
                self.step(
                    Expr::tt(),
                    vec![Op::Assign {
                        place,
                        value: Expr::constant(0, ty),
                    }],
                    TransKind::Stmt,
                )?;
                Ok(())
            }
        }
    }

    // ----------------------------------------------------------------- lvalues

    fn place_of(&self, lv: &Lv, span: lang_c::span::Span) -> R<Place> {
        match lv {
            Lv::Mem {
                node: Storage::Leaf(v),
                idx,
                ..
            } => {
                let var = &self.vars[v.0 as usize];
                let index = if var.is_array || var.len > 1 {
                    Some(Box::new(idx.clone()))
                } else if idx.as_const() == Some(0) {
                    None
                } else {
                    Some(Box::new(idx.clone()))
                };
                Ok(Place::Var { var: *v, index })
            }
            Lv::Mem { ty, .. } => self.unsupported(
                span,
                format!("use of a {} as a scalar", ty.describe(&self.structs)),
            ),
            Lv::Deref { addr, ty } => {
                let Some(e) = ty.elem() else {
                    return self.unsupported(
                        span,
                        format!(
                            "access to a {} through a run-time pointer",
                            ty.describe(&self.structs)
                        ),
                    );
                };
                Ok(Place::Deref {
                    addr: Box::new(addr.clone()),
                    ty: e.ty(),
                    targets: vec![],
                })
            }
        }
    }

    fn index_lv(&mut self, base: &Lv, i: Expr, span: lang_c::span::Span) -> R<Lv> {
        match base {
            Lv::Mem {
                node: Storage::Array(elem, n),
                idx,
                ty: CType::Array(et, _),
            } => {
                let i = cast(i, Ty::LONG);
                let idx = add(
                    mul(
                        cast(idx.clone(), Ty::LONG),
                        Expr::constant(*n as i128, Ty::LONG),
                    ),
                    i,
                );
                Ok(Lv::Mem {
                    node: (**elem).clone(),
                    idx,
                    ty: (**et).clone(),
                })
            }
            _ => self.unsupported(span, "indexing of a value that is not an array"),
        }
    }

    fn member_lv(&mut self, base: &Lv, field: &str, span: lang_c::span::Span) -> R<Lv> {
        match base {
            Lv::Mem {
                node: Storage::Struct(fields),
                idx,
                ty: CType::Struct(si),
            } => {
                let def = &self.structs[*si];
                let Some(k) = def.fields.iter().position(|f| f.0 == field) else {
                    return self
                        .invalid(span, format!("no field `{field}` in struct {}", def.name));
                };
                Ok(Lv::Mem {
                    node: fields[k].clone(),
                    idx: idx.clone(),
                    ty: def.fields[k].1.clone(),
                })
            }
            Lv::Deref { .. } => self.unsupported(span, "struct access through a run-time pointer"),
            _ => self.invalid(
                span,
                format!("member `{field}` of a value that is not a struct"),
            ),
        }
    }

    fn lvalue(&mut self, e: &Node<Expression>) -> R<Lv> {
        match &e.node {
            Expression::Identifier(i) => match self.lookup_object(&i.node.name) {
                Some(Binding::Type(_)) => {
                    self.invalid(e.span, format!("`{}` is a type", i.node.name))
                }
                Some(Binding::Obj(node, ty)) => Ok(Lv::Mem {
                    node,
                    idx: Expr::int(0),
                    ty,
                }),
                Some(Binding::Alias(_)) => self.unsupported(
                    e.span,
                    format!("assignment to pointer parameter `{}`", i.node.name),
                ),
                Some(Binding::Poison(w)) => self.unsupported(e.span, w),
                Some(Binding::Const(..)) => {
                    self.invalid(e.span, format!("`{}` is not assignable", i.node.name))
                }
                None => self.invalid(e.span, format!("undeclared identifier `{}`", i.node.name)),
            },
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                let base = self.rvalue(&b.node.lhs)?;
                let iv = self.rvalue(&b.node.rhs)?;
                // `i[a]` is `a[i]`.
                let (base, iv, bspan, ispan) = if matches!(base, Val::Scalar(_, CType::Int(_))) {
                    (iv, base, b.node.rhs.span, b.node.lhs.span)
                } else {
                    (base, iv, b.node.lhs.span, b.node.rhs.span)
                };
                let (i, it) = self.scalar_of(iv, ispan)?;
                let i = self.convert(i, &it, &CType::Int(Ty::LONG), ispan)?;
                let p = self.ptr_add(base, i, bspan)?;
                self.deref(p, e.span)
            }
            Expression::Member(m) => {
                let base = match m.node.operator.node {
                    MemberOperator::Direct => self.lvalue(&m.node.expression)?,
                    MemberOperator::Indirect => {
                        let p = self.rvalue(&m.node.expression)?;
                        self.deref(p, m.node.expression.span)?
                    }
                };
                self.member_lv(&base, &m.node.identifier.node.name, e.span)
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                let p = self.rvalue(&u.node.operand)?;
                self.deref(p, e.span)
            }
            Expression::Cast(c) => {
                // `*(int *)p` style reinterpretation of lvalues is handled in deref; a cast
                // itself is not an lvalue.
                self.invalid(c.span, "a cast is not an lvalue")
            }
            _ => self.unsupported(e.span, "lvalue of this form"),
        }
    }

    /// The object a pointer value points to.
    fn deref(&mut self, p: Val, span: lang_c::span::Span) -> R<Lv> {
        match p {
            Val::Ptr(lv) => Ok(lv),
            Val::Scalar(addr, CType::Ptr(t)) => {
                if matches!(*t, CType::Void) {
                    return self.unsupported(span, "dereference of a void pointer");
                }
                Ok(Lv::Deref { addr, ty: *t })
            }
            Val::Scalar(_, t) => self.invalid(
                span,
                format!(
                    "dereference of a non-pointer ({})",
                    t.describe(&self.structs)
                ),
            ),
            _ => self.invalid(span, "dereference of a non-pointer"),
        }
    }

    /// Pointer arithmetic `p + i` (in elements).
    fn ptr_add(&mut self, p: Val, i: Expr, span: lang_c::span::Span) -> R<Val> {
        match p {
            Val::Ptr(Lv::Mem { node, idx, ty }) => Ok(Val::Ptr(Lv::Mem {
                node,
                idx: add(cast(idx, Ty::LONG), i),
                ty,
            })),
            Val::Ptr(Lv::Deref { addr, ty }) => Ok(Val::Ptr(Lv::Deref {
                addr: cast(add(cast(addr, Ty::LONG), i), Ty::ULONG),
                ty,
            })),
            Val::Scalar(a, CType::Ptr(t)) => Ok(Val::Scalar(
                cast(add(cast(a, Ty::LONG), i), Ty::ULONG),
                CType::Ptr(t),
            )),
            Val::Agg(lv) if matches!(lv.ty(), CType::Array(..)) => {
                let el = self.index_lv(&lv, i, span)?;
                Ok(Val::Ptr(el))
            }
            _ => self.invalid(span, "arithmetic on a value that is not a pointer"),
        }
    }

    // ----------------------------------------------------------------- rvalues

    /// Converts a value to a scalar expression (a pointer known while lowering becomes an
    /// address).
    fn scalar_of(&mut self, v: Val, span: lang_c::span::Span) -> R<(Expr, CType)> {
        match v {
            Val::Scalar(e, t) => Ok((e, t)),
            Val::Ptr(lv) => {
                let t = lv.ty().clone();
                match lv {
                    Lv::Deref { addr, .. } => Ok((addr, CType::Ptr(Box::new(t)))),
                    Lv::Mem {
                        node: Storage::Leaf(v),
                        idx,
                        ..
                    } => Ok((
                        Expr::AddrOf {
                            var: v,
                            index: Box::new(cast(idx, Ty::LONG)),
                        },
                        CType::Ptr(Box::new(t)),
                    )),
                    Lv::Mem { .. } => self.unsupported(
                        span,
                        format!(
                            "pointer to a {} stored or compared as a value",
                            t.describe(&self.structs)
                        ),
                    ),
                }
            }
            Val::Func(n) => self.unsupported(span, format!("function pointer (`{n}`)")),
            Val::Agg(lv) => match lv.ty() {
                CType::Mutex | CType::Cond | CType::Barrier => {
                    self.unsupported(span, "use of a synchronisation object as a value")
                }
                t => self.unsupported(
                    span,
                    format!("use of a {} as a value", t.describe(&self.structs)),
                ),
            },
            Val::Void => self.invalid(span, "use of a void value"),
        }
    }

    /// Converts an expression of C type `from` to C type `to`.
    fn convert(&self, e: Expr, from: &CType, to: &CType, span: lang_c::span::Span) -> R<Expr> {
        let Some(tt) = to.value_ty() else {
            return match to {
                CType::Void => Ok(e),
                _ => self.unsupported(
                    span,
                    format!("conversion to {}", to.describe(&self.structs)),
                ),
            };
        };
        let _ = from;
        if e.ty() == tt {
            return Ok(e);
        }
        Ok(cast(e, tt))
    }

    /// Reads an lvalue as a value.
    fn read_lv(&mut self, lv: Lv, span: lang_c::span::Span) -> R<Val> {
        match lv.ty().clone() {
            CType::Array(..) => {
                let el = self.index_lv(&lv, Expr::constant(0, Ty::LONG), span)?;
                Ok(Val::Ptr(el))
            }
            CType::Struct(_) | CType::Mutex | CType::Cond | CType::Barrier => Ok(Val::Agg(lv)),
            CType::Opaque(n) => self.unsupported(span, format!("value of type {n}")),
            t @ (CType::Int(_) | CType::Ptr(_)) => {
                let place = self.place_of(&lv, span)?;
                let ty = t.value_ty().expect("scalar");
                let e = self.at_expr(span, |l| l.load(place, ty))?;
                Ok(Val::Scalar(e, t))
            }
            CType::Void | CType::Func => self.invalid(span, "read of a void object"),
        }
    }

    fn rvalue(&mut self, e: &Node<Expression>) -> R<Val> {
        match &e.node {
            Expression::Identifier(i) => {
                let name = &i.node.name;
                match self.lookup(name) {
                    Some(Binding::Type(_)) => self.invalid(e.span, format!("`{name}` is a type")),
                    Some(Binding::Const(v, t)) => {
                        Ok(Val::Scalar(Expr::constant(v, t), CType::Int(t)))
                    }
                    Some(Binding::Alias(lv)) => Ok(Val::Ptr(lv)),
                    Some(Binding::Poison(w)) => self.unsupported(e.span, w),
                    Some(Binding::Obj(node, ty)) => self.read_lv(
                        Lv::Mem {
                            node,
                            idx: Expr::int(0),
                            ty,
                        },
                        e.span,
                    ),
                    None if self.funcs.contains_key(name) || is_builtin_name(name) => {
                        Ok(Val::Func(name.clone()))
                    }
                    None => match name.as_str() {
                        "NULL" => Ok(Val::Scalar(
                            Expr::constant(0, Ty::ULONG),
                            CType::Ptr(Box::new(CType::Void)),
                        )),
                        _ => self.invalid(e.span, format!("undeclared identifier `{name}`")),
                    },
                }
            }
            Expression::Constant(c) => match &c.node {
                Constant::Integer(i) => match parse_int(i) {
                    Some((v, t)) => Ok(Val::Scalar(Expr::constant(v, t), CType::Int(t))),
                    None => self.invalid(e.span, "integer constant out of range"),
                },
                Constant::Character(ch) => match char_value(ch) {
                    Some(v) => Ok(Val::Scalar(Expr::int(v), CType::Int(Ty::INT))),
                    None => self.unsupported(e.span, format!("character constant {ch}")),
                },
                Constant::Float(_) => self.unsupported(e.span, "floating-point constant"),
            },
            Expression::StringLiteral(_) => self.unsupported(e.span, "string literal as a value"),
            Expression::Member(_) => {
                let lv = self.lvalue(e)?;
                self.read_lv(lv, e.span)
            }
            Expression::BinaryOperator(b) => self.binary(e, b),
            Expression::UnaryOperator(u) => self.unary(e, u),
            Expression::Cast(c) => {
                let to = self.type_name(&c.node.type_name)?;
                // `(void)x;` of a pure expression (unused parameters) does nothing.
                if to == CType::Void && !has_side_effects(&c.node.expression.node) {
                    return Ok(Val::Void);
                }
                // (T *) malloc(...)
                if let (CType::Ptr(pt), Some(v)) =
                    (&to, self.try_alloc(&c.node.expression, Some(&to))?)
                {
                    let _ = pt;
                    return Ok(v);
                }
                let v = self.rvalue(&c.node.expression)?;
                self.cast_val(v, &to, e.span)
            }
            Expression::Conditional(c) => self.conditional(e, c),
            Expression::Comma(es) => {
                let mut last = Val::Void;
                for x in es.iter() {
                    last = self.rvalue(x)?;
                }
                Ok(last)
            }
            Expression::Call(c) => self.call(e, c),
            Expression::SizeOfTy(t) => {
                let ty = self.type_name(&t.node.0)?;
                let s = self.sizeof(&ty, e.span)?;
                Ok(Val::Scalar(
                    Expr::constant(s, Ty::ULONG),
                    CType::Int(Ty::ULONG),
                ))
            }
            Expression::SizeOfVal(v) => {
                let ty = self.type_of(&v.node.0)?;
                let s = self.sizeof(&ty, e.span)?;
                Ok(Val::Scalar(
                    Expr::constant(s, Ty::ULONG),
                    CType::Int(Ty::ULONG),
                ))
            }
            Expression::AlignOf(t) => {
                let ty = self.type_name(&t.node.0)?;
                match ty.size_align(&self.structs) {
                    Some((_, a)) => Ok(Val::Scalar(
                        Expr::constant(a as i128, Ty::ULONG),
                        CType::Int(Ty::ULONG),
                    )),
                    None => self.unsupported(e.span, "_Alignof of this type"),
                }
            }
            Expression::Statement(s) => self.stmt_expr(s),
            Expression::CompoundLiteral(_) => self.unsupported(e.span, "compound literal"),
            Expression::GenericSelection(_) => self.unsupported(e.span, "_Generic"),
            Expression::OffsetOf(_) => self.unsupported(e.span, "offsetof"),
            Expression::VaArg(_) => self.unsupported(e.span, "va_arg"),
        }
    }

    /// The C type of an expression, without evaluating it.
    fn type_of(&mut self, e: &Node<Expression>) -> R<CType> {
        // Forms whose type does not depend on evaluating side effects.
        match &e.node {
            Expression::Conditional(c) => {
                let a = self.type_of(&c.node.then_expression)?;
                let b = self.type_of(&c.node.else_expression)?;
                return Ok(result_type(&a, &b));
            }
            Expression::Comma(es) => {
                if let Some(last) = es.last() {
                    return self.type_of(last);
                }
            }
            Expression::Cast(c) => return self.type_name(&c.node.type_name),
            Expression::BinaryOperator(b)
                if matches!(
                    b.node.operator.node,
                    BinaryOperator::Less
                        | BinaryOperator::Greater
                        | BinaryOperator::LessOrEqual
                        | BinaryOperator::GreaterOrEqual
                        | BinaryOperator::Equals
                        | BinaryOperator::NotEquals
                        | BinaryOperator::LogicalAnd
                        | BinaryOperator::LogicalOr
                ) =>
            {
                return Ok(CType::Int(Ty::INT))
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Negate => {
                return Ok(CType::Int(Ty::INT))
            }
            _ => {}
        }
        let saved = (self.pure, self.cur, self.tb.transitions.len());
        self.pure = true;
        // Lvalues keep their array type (no decay): `sizeof(m[0])`, `sizeof(s.a)`.
        let lvalue_form = matches!(&e.node, Expression::Identifier(_) | Expression::Member(_))
            || matches!(&e.node, Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index)
            || matches!(&e.node, Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection);
        let r = match lvalue_form.then(|| self.lvalue(e)) {
            Some(Ok(lv)) => Ok(lv.ty().clone()),
            _ => self.rvalue(e).map(|v| match v {
                Val::Scalar(_, t) => t,
                Val::Ptr(lv) => CType::Ptr(Box::new(lv.ty().clone())),
                Val::Agg(lv) => lv.ty().clone(),
                Val::Void => CType::Void,
                Val::Func(_) => CType::Func,
            }),
        };
        self.pure = saved.0;
        // Pure lowering emits nothing, but be safe: drop anything it made.
        self.tb.transitions.truncate(saved.2);
        self.cur = saved.1;
        match (r, &e.node) {
            (Ok(t), _) => Ok(t),
            (Err(_), Expression::StringLiteral(lit)) => Ok(CType::Array(
                Box::new(CType::Int(Ty::CHAR)),
                string_bytes(&lit.node).len() as u64 + 1,
            )),
            (Err(_), Expression::Call(c)) => match &c.node.callee.node {
                Expression::Identifier(i) if self.funcs.contains_key(&i.node.name) => {
                    let f = self.funcs[&i.node.name];
                    self.return_type(f)
                }
                _ => self.unsupported(e.span, "sizeof of this call"),
            },
            (Err(err), _) => Err(err),
        }
    }

    /// The declared return type of a function definition.
    fn return_type(&mut self, f: &Node<FunctionDefinition>) -> R<CType> {
        let specs = type_specs(&f.node.specifiers);
        let mut ty = self.base_type(&specs, f.span)?;
        for dd in &f.node.declarator.node.derived {
            if let DerivedDeclarator::Pointer(_) = dd.node {
                ty = CType::Ptr(Box::new(ty));
            }
        }
        Ok(ty)
    }

    fn stmt_expr(&mut self, s: &Node<Statement>) -> R<Val> {
        self.no_effects(s.span)?;
        let Statement::Compound(items) = &s.node else {
            return self.unsupported(s.span, "statement expression");
        };
        self.scopes.push(HashMap::new());
        self.stmt_expr_depth += 1;
        let r = self.stmt_expr_items(items);
        self.stmt_expr_depth -= 1;
        self.scopes.pop();
        r
    }

    fn stmt_expr_items(&mut self, items: &[Node<BlockItem>]) -> R<Val> {
        let mut last = Val::Void;
        for (k, it) in items.iter().enumerate() {
            match &it.node {
                BlockItem::Statement(st) if k + 1 == items.len() => {
                    if let Statement::Expression(Some(x)) = &st.node {
                        last = self.rvalue(x)?;
                    } else {
                        self.stmt(st)?;
                    }
                }
                BlockItem::Statement(st) => self.stmt(st)?,
                BlockItem::Declaration(d) => self.local_declaration(d)?,
                BlockItem::StaticAssert(_) => {}
            }
        }
        Ok(last)
    }

    fn cast_val(&mut self, v: Val, to: &CType, span: lang_c::span::Span) -> R<Val> {
        match (v, to) {
            (v, CType::Void) => {
                let _ = v;
                Ok(Val::Void)
            }
            // Reinterpret a known pointer: keep the object, change the pointee type when it is
            // compatible (void * round trips, same-size integers).
            (Val::Ptr(lv), CType::Ptr(t)) => {
                if matches!(**t, CType::Void) {
                    return Ok(Val::Ptr(lv));
                }
                match lv {
                    Lv::Mem { node, idx, ty } => {
                        let same = ty == **t
                            || matches!(ty, CType::Void)
                            || match (&ty, &**t) {
                                (CType::Int(a), CType::Int(b)) => a.bits == b.bits,
                                _ => false,
                            };
                        if same {
                            Ok(Val::Ptr(Lv::Mem {
                                node,
                                idx,
                                ty: (**t).clone(),
                            }))
                        } else {
                            self.bad_pointer_cast(span, &ty, t)
                        }
                    }
                    Lv::Deref { addr, .. } => Ok(Val::Ptr(Lv::Deref {
                        addr,
                        ty: (**t).clone(),
                    })),
                }
            }
            (Val::Func(f), _) => Ok(Val::Func(f)),
            (Val::Scalar(e, CType::Ptr(from)), CType::Ptr(t)) => {
                // Pointer arithmetic counts elements, so a run-time pointer may only change to
                // a type of the same element size (or to/from `void *`).
                let size = |c: &CType| c.size_align(&self.structs).map(|x| x.0);
                if matches!(*from, CType::Void)
                    || matches!(**t, CType::Void)
                    || size(&from) == size(t)
                {
                    Ok(Val::Scalar(e, CType::Ptr(t.clone())))
                } else {
                    self.bad_pointer_cast(span, &from, t)
                }
            }
            (v, to) => {
                let (e, from) = self.scalar_of(v, span)?;
                let x = self.convert(e, &from, to, span)?;
                Ok(Val::Scalar(fold(x), to.clone()))
            }
        }
    }

    fn bad_pointer_cast<T>(&self, span: lang_c::span::Span, from: &CType, to: &CType) -> R<T> {
        self.unsupported(
            span,
            format!(
                "pointer cast from {} * to {} *",
                from.describe(&self.structs),
                to.describe(&self.structs)
            ),
        )
    }

    fn conditional(&mut self, e: &Node<Expression>, c: &Node<ConditionalExpression>) -> R<Val> {
        if let Some(k) = self.const_eval(&c.node.condition) {
            return if k != 0 {
                self.rvalue(&c.node.then_expression)
            } else {
                self.rvalue(&c.node.else_expression)
            };
        }
        if self.pure
            || (self.is_simple(&c.node.then_expression)
                && self.is_simple(&c.node.else_expression)
                && self.is_simple(&c.node.condition))
        {
            let cv = self.rvalue(&c.node.condition)?;
            let (ce, _) = self.scalar_of(cv, c.node.condition.span)?;
            let tv = self.rvalue(&c.node.then_expression)?;
            let ev = self.rvalue(&c.node.else_expression)?;
            if matches!(tv, Val::Void) || matches!(ev, Val::Void) {
                return Ok(Val::Void);
            }
            let (te, tt) = self.scalar_of(tv, c.node.then_expression.span)?;
            let (ee, et) = self.scalar_of(ev, c.node.else_expression.span)?;
            let rt = result_type(&tt, &et);
            let te = self.convert(te, &tt, &rt, e.span)?;
            let ee = self.convert(ee, &et, &rt, e.span)?;
            let ty = rt.value_ty().unwrap_or(Ty::INT);
            return Ok(Val::Scalar(
                Expr::Ite {
                    cond: Box::new(ce),
                    then: Box::new(te),
                    els: Box::new(ee),
                    ty,
                },
                rt,
            ));
        }
        // Control flow: evaluate one branch only.
        let t = self.new_loc(LocKind::Normal);
        let f = self.new_loc(LocKind::Normal);
        let end = self.new_loc(LocKind::Normal);
        self.cond(&c.node.condition, t, f)?;
        self.cur = t;
        let tv = self.rvalue(&c.node.then_expression)?;
        let t_end = self.cur;
        self.cur = f;
        let ev = self.rvalue(&c.node.else_expression)?;
        let f_end = self.cur;
        if matches!(tv, Val::Void) || matches!(ev, Val::Void) {
            self.cur = t_end;
            self.goto_here(end)?;
            self.cur = f_end;
            self.goto_here(end)?;
            return Ok(Val::Void);
        }
        self.cur = t_end;
        let (te, tt) = self.scalar_of(tv, c.node.then_expression.span)?;
        self.cur = f_end;
        let (ee, et) = self.scalar_of(ev, c.node.else_expression.span)?;
        let rt = result_type(&tt, &et);
        let ty = rt.value_ty().unwrap_or(Ty::INT);
        let tmp = self.temp(ty);
        self.cur = t_end;
        let te = self.convert(te, &tt, &rt, e.span)?;
        self.step(
            Expr::tt(),
            vec![Op::Assign {
                place: Place::scalar(tmp),
                value: te,
            }],
            TransKind::Stmt,
        )?;
        self.goto_here(end)?;
        self.cur = f_end;
        let ee = self.convert(ee, &et, &rt, e.span)?;
        self.step(
            Expr::tt(),
            vec![Op::Assign {
                place: Place::scalar(tmp),
                value: ee,
            }],
            TransKind::Stmt,
        )?;
        self.goto_here(end)?;
        Ok(Val::Scalar(Expr::var(tmp, ty), rt))
    }

    /// Whether an expression can be lowered without emitting transitions.
    fn is_simple(&self, e: &Node<Expression>) -> bool {
        match &e.node {
            Expression::Identifier(i) => match self.lookup(&i.node.name) {
                Some(Binding::Obj(Storage::Leaf(v), _)) => match self.vars[v.0 as usize].scope {
                    VarScope::Local(_) => !self.split_locals.contains(&v),
                    _ => false,
                },
                Some(Binding::Obj(..)) => false,
                Some(Binding::Const(..)) | Some(Binding::Alias(_)) => true,
                _ => true,
            },
            Expression::Constant(_) | Expression::SizeOfTy(_) | Expression::SizeOfVal(_) => true,
            Expression::UnaryOperator(u) => match u.node.operator.node {
                UnaryOperator::Plus
                | UnaryOperator::Minus
                | UnaryOperator::Complement
                | UnaryOperator::Negate => self.is_simple(&u.node.operand),
                _ => false,
            },
            Expression::BinaryOperator(b) => match b.node.operator.node {
                ref op if is_assignment_op(op) => false,
                BinaryOperator::Index => false,
                // Division can be undefined: keep it behind the short-circuit.
                BinaryOperator::Divide
                | BinaryOperator::Modulo
                | BinaryOperator::ShiftLeft
                | BinaryOperator::ShiftRight => false,
                _ => self.is_simple(&b.node.lhs) && self.is_simple(&b.node.rhs),
            },
            Expression::Cast(c) => self.is_simple(&c.node.expression),
            Expression::Conditional(c) => {
                self.is_simple(&c.node.condition)
                    && self.is_simple(&c.node.then_expression)
                    && self.is_simple(&c.node.else_expression)
            }
            _ => false,
        }
    }

    /// Lowers a condition as control flow to `t` (true) or `f` (false).
    fn cond(&mut self, e: &Node<Expression>, t: LocId, f: LocId) -> R<()> {
        let saved = self.span;
        if self.span.is_none() {
            self.span = Some(self.map.span(e.span));
        }
        let r = self.cond_inner(e, t, f);
        self.span = saved;
        r
    }

    fn cond_inner(&mut self, e: &Node<Expression>, t: LocId, f: LocId) -> R<()> {
        if let Some(k) = self.const_eval(e) {
            return self.goto_here(if k != 0 { t } else { f }).map(|_| ());
        }
        match &e.node {
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::LogicalAnd => {
                let mid = self.new_loc(LocKind::Normal);
                self.cond(&b.node.lhs, mid, f)?;
                self.cur = mid;
                self.cond(&b.node.rhs, t, f)
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::LogicalOr => {
                let mid = self.new_loc(LocKind::Normal);
                self.cond(&b.node.lhs, t, mid)?;
                self.cur = mid;
                self.cond(&b.node.rhs, t, f)
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Negate => {
                self.cond(&u.node.operand, f, t)
            }
            _ => {
                let v = self.rvalue(e)?;
                let (x, _) = self.scalar_of(v, e.span)?;
                let x = truth(x);
                let nx = negate(x.clone());
                // The true arm first: the instrumentation relies on this order.
                self.at_expr(e.span, |l| {
                    l.edge(l.cur, t, x, vec![], TransKind::Branch)?;
                    l.edge(l.cur, f, nx, vec![], TransKind::Branch)
                })?;
                self.cur = self.new_loc(LocKind::Normal);
                Ok(())
            }
        }
    }

    /// Evaluates an expression for its side effects.
    fn effect(&mut self, e: &Node<Expression>) -> R<()> {
        let saved = self.span;
        if self.span.is_none() {
            self.span = Some(self.map.span(e.span));
        }
        let r = self.rvalue(e).map(|_| ());
        self.span = saved;
        r
    }

    fn unary(&mut self, e: &Node<Expression>, u: &Node<UnaryOperatorExpression>) -> R<Val> {
        let span = e.span;
        match u.node.operator.node {
            UnaryOperator::Address => {
                let x = &u.node.operand;
                // &function
                if let Expression::Identifier(i) = &x.node {
                    if self.lookup(&i.node.name).is_none() && self.funcs.contains_key(&i.node.name)
                    {
                        return Ok(Val::Func(i.node.name.clone()));
                    }
                }
                if let Expression::UnaryOperator(inner) = &x.node {
                    if inner.node.operator.node == UnaryOperator::Indirection {
                        return self.rvalue(&inner.node.operand);
                    }
                }
                let lv = self.lvalue(x)?;
                Ok(Val::Ptr(lv))
            }
            UnaryOperator::Indirection => {
                let p = self.rvalue(&u.node.operand)?;
                let lv = self.deref(p, span)?;
                self.read_lv(lv, span)
            }
            UnaryOperator::Plus | UnaryOperator::Minus | UnaryOperator::Complement => {
                let v = self.rvalue(&u.node.operand)?;
                let (x, t) = self.scalar_of(v, span)?;
                let Some(ty) = t.value_ty() else {
                    return self.invalid(span, "arithmetic on a non-integer");
                };
                let ty = promote(ty);
                let x = cast(x, ty);
                Ok(Val::Scalar(
                    match u.node.operator.node {
                        UnaryOperator::Plus => x,
                        UnaryOperator::Minus => fold(Expr::Unary {
                            op: UnOp::Neg,
                            arg: Box::new(x),
                            ty,
                        }),
                        _ => fold(Expr::Unary {
                            op: UnOp::BitNot,
                            arg: Box::new(x),
                            ty,
                        }),
                    },
                    CType::Int(ty),
                ))
            }
            UnaryOperator::Negate => {
                let v = self.rvalue(&u.node.operand)?;
                let (x, _) = self.scalar_of(v, span)?;
                Ok(Val::Scalar(negate(truth(x)), CType::Int(Ty::INT)))
            }
            UnaryOperator::PreIncrement
            | UnaryOperator::PreDecrement
            | UnaryOperator::PostIncrement
            | UnaryOperator::PostDecrement => {
                self.no_effects(span)?;
                let lv = self.lvalue(&u.node.operand)?;
                let old = self.read_lv(lv.clone(), span)?;
                let (ox, ot) = self.scalar_of(old, span)?;
                let ox = self.snapshot_if_split(ox, &lv, span)?;
                let delta = if matches!(
                    u.node.operator.node,
                    UnaryOperator::PreIncrement | UnaryOperator::PostIncrement
                ) {
                    1
                } else {
                    -1
                };
                let new = match &ot {
                    CType::Ptr(_) => cast(
                        add(cast(ox.clone(), Ty::LONG), Expr::constant(delta, Ty::LONG)),
                        Ty::ULONG,
                    ),
                    CType::Int(t) if t.bits == 1 => {
                        // ++b sets a _Bool to 1; --b flips it.
                        if delta == 1 {
                            Expr::constant(1, Ty::BOOL)
                        } else {
                            negate(ox.clone())
                        }
                    }
                    CType::Int(t) => {
                        let pt = promote(*t);
                        cast(
                            bin(
                                BinOp::Add,
                                cast(ox.clone(), pt),
                                Expr::constant(delta, pt),
                                pt,
                            ),
                            *t,
                        )
                    }
                    _ => return self.invalid(span, "increment of a non-scalar"),
                };
                let new = fold(new);
                self.store(&lv, new.clone(), span)?;
                let pre = matches!(
                    u.node.operator.node,
                    UnaryOperator::PreIncrement | UnaryOperator::PreDecrement
                );
                Ok(Val::Scalar(if pre { new } else { ox }, ot))
            }
        }
    }

    /// The old value of `lv` must be kept in a temporary when it is the (non-split) local
    /// itself, which the coming store overwrites; a value already in a temporary is kept.
    fn snapshot_if_split(&mut self, e: Expr, lv: &Lv, span: lang_c::span::Span) -> R<Expr> {
        if let Expr::Load { place, .. } = &e {
            if *place == self.place_of(lv, span)? {
                return self.snapshot(e);
            }
        }
        Ok(e)
    }

    /// The value of an assignment expression after `lv := x` was stored: a local that is not
    /// split is simply re-read; otherwise `x` itself, which reads only such locals (shared
    /// reads were loaded into temporaries) and so still has the stored value.
    fn assigned_value(&mut self, lv: &Lv, x: Expr, span: lang_c::span::Span) -> R<Expr> {
        let place = self.place_of(lv, span)?;
        if !self.is_split(&place) {
            let ty = lv.ty().value_ty().unwrap_or(Ty::INT);
            return Ok(Expr::Load { place, ty });
        }
        Ok(x)
    }

    fn store(&mut self, lv: &Lv, value: Expr, span: lang_c::span::Span) -> R<()> {
        self.no_effects(span)?;
        let place = self.place_of(lv, span)?;
        let ty = lv
            .ty()
            .value_ty()
            .or(lv.ty().elem().map(|e| e.ty()))
            .unwrap_or(Ty::INT);
        let value = if value.ty() != ty {
            cast(value, ty)
        } else {
            value
        };
        let id = self.at_expr(span, |l| {
            l.step(
                Expr::tt(),
                vec![Op::Assign {
                    place,
                    value: fold(value),
                }],
                TransKind::Stmt,
            )
        })?;
        self.tb.transitions[id.0 as usize].memory_access = true;
        Ok(())
    }

    fn assign_val(&mut self, lv: &Lv, v: Val, span: lang_c::span::Span) -> R<()> {
        // A copy of a whole struct or array is many accesses, none of them one C expression
        // (the instrumentation refuses such accesses to shared memory).
        if matches!(lv.ty(), CType::Struct(_) | CType::Array(..)) {
            let at = self.at.take();
            self.at_suppressed += 1;
            let r = self.assign_val_inner(lv, v, span);
            self.at_suppressed -= 1;
            self.at = at;
            return r;
        }
        self.assign_val_inner(lv, v, span)
    }

    fn assign_val_inner(&mut self, lv: &Lv, v: Val, span: lang_c::span::Span) -> R<()> {
        match (lv.ty().clone(), v) {
            (CType::Struct(si), Val::Agg(src)) => {
                let names: Vec<String> = self.structs[si]
                    .fields
                    .iter()
                    .map(|f| f.0.clone())
                    .collect();
                for f in names {
                    let d = self.member_lv(lv, &f, span)?;
                    let s = self.member_lv(&src, &f, span)?;
                    let sv = self.read_lv(s, span)?;
                    self.assign_val(&d, sv, span)?;
                }
                Ok(())
            }
            (CType::Array(_, n), Val::Ptr(src)) if matches!(src, Lv::Mem { .. }) => {
                for k in 0..n {
                    let d = self.index_lv(lv, Expr::constant(k as i128, Ty::LONG), span)?;
                    let s = match &src {
                        Lv::Mem { node, idx, ty } => Lv::Mem {
                            node: node.clone(),
                            idx: add(
                                cast(idx.clone(), Ty::LONG),
                                Expr::constant(k as i128, Ty::LONG),
                            ),
                            ty: ty.clone(),
                        },
                        _ => unreachable!(),
                    };
                    let sv = self.read_lv(s, span)?;
                    self.assign_val(&d, sv, span)?;
                }
                Ok(())
            }
            (t, v) => {
                let (x, xt) = self.scalar_of(v, span)?;
                let x = self.convert(x, &xt, &t, span)?;
                self.store(lv, x, span)
            }
        }
    }

    fn binary(&mut self, e: &Node<Expression>, b: &Node<BinaryOperatorExpression>) -> R<Val> {
        use BinaryOperator as B;
        let span = e.span;
        let op = b.node.operator.node.clone();
        match op {
            B::Index => {
                let lv = self.lvalue(e)?;
                self.read_lv(lv, span)
            }
            B::Assign => {
                self.no_effects(span)?;
                let lv = self.lvalue(&b.node.lhs)?;
                if let (CType::Ptr(_), Some(v)) = (
                    lv.ty().clone(),
                    self.try_alloc(&b.node.rhs, Some(&lv.ty().clone()))?,
                ) {
                    let (x, _) = self.scalar_of(v.clone(), span)?;
                    self.store(&lv, x, span)?;
                    return Ok(v);
                }
                let v = self.rvalue(&b.node.rhs)?;
                match lv.ty().clone() {
                    CType::Struct(_) => {
                        self.assign_val(&lv, v.clone(), span)?;
                        Ok(v)
                    }
                    t => {
                        let (x, xt) = self.scalar_of(v, b.node.rhs.span)?;
                        let x = self.convert(x, &xt, &t, span)?;
                        let x = fold(x);
                        self.store(&lv, x.clone(), span)?;
                        Ok(Val::Scalar(self.assigned_value(&lv, x, span)?, t))
                    }
                }
            }
            B::AssignMultiply
            | B::AssignDivide
            | B::AssignModulo
            | B::AssignPlus
            | B::AssignMinus
            | B::AssignShiftLeft
            | B::AssignShiftRight
            | B::AssignBitwiseAnd
            | B::AssignBitwiseXor
            | B::AssignBitwiseOr => {
                self.no_effects(span)?;
                let lv = self.lvalue(&b.node.lhs)?;
                let old = self.read_lv(lv.clone(), span)?;
                let old = match old {
                    Val::Scalar(x, t) => Val::Scalar(self.snapshot_if_split(x, &lv, span)?, t),
                    v => v,
                };
                let r = self.rvalue(&b.node.rhs)?;
                let aop = match op {
                    B::AssignMultiply => B::Multiply,
                    B::AssignDivide => B::Divide,
                    B::AssignModulo => B::Modulo,
                    B::AssignPlus => B::Plus,
                    B::AssignMinus => B::Minus,
                    B::AssignShiftLeft => B::ShiftLeft,
                    B::AssignShiftRight => B::ShiftRight,
                    B::AssignBitwiseAnd => B::BitwiseAnd,
                    B::AssignBitwiseXor => B::BitwiseXor,
                    _ => B::BitwiseOr,
                };
                let v = self.arith(aop, old, r, span)?;
                let t = lv.ty().clone();
                let (x, xt) = self.scalar_of(v, span)?;
                let x = fold(self.convert(x, &xt, &t, span)?);
                self.store(&lv, x.clone(), span)?;
                Ok(Val::Scalar(self.assigned_value(&lv, x, span)?, t))
            }
            B::LogicalAnd | B::LogicalOr => {
                if self.pure || self.is_simple(&b.node.rhs) {
                    let l = self.rvalue(&b.node.lhs)?;
                    let (lx, _) = self.scalar_of(l, b.node.lhs.span)?;
                    let r = self.rvalue(&b.node.rhs)?;
                    let (rx, _) = self.scalar_of(r, b.node.rhs.span)?;
                    let o = if op == B::LogicalAnd {
                        BinOp::And
                    } else {
                        BinOp::Or
                    };
                    return Ok(Val::Scalar(
                        fold(bin(o, truth(lx), truth(rx), Ty::INT)),
                        CType::Int(Ty::INT),
                    ));
                }
                let t = self.new_loc(LocKind::Normal);
                let f = self.new_loc(LocKind::Normal);
                let end = self.new_loc(LocKind::Normal);
                let tmp = self.temp(Ty::INT);
                self.cond(e, t, f)?;
                self.cur = t;
                self.step(
                    Expr::tt(),
                    vec![Op::Assign {
                        place: Place::scalar(tmp),
                        value: Expr::int(1),
                    }],
                    TransKind::Stmt,
                )?;
                self.goto_here(end)?;
                self.cur = f;
                self.step(
                    Expr::tt(),
                    vec![Op::Assign {
                        place: Place::scalar(tmp),
                        value: Expr::int(0),
                    }],
                    TransKind::Stmt,
                )?;
                self.goto_here(end)?;
                Ok(Val::Scalar(Expr::var(tmp, Ty::INT), CType::Int(Ty::INT)))
            }
            _ => {
                let l = self.rvalue(&b.node.lhs)?;
                let r = self.rvalue(&b.node.rhs)?;
                self.arith(op, l, r, span)
            }
        }
    }

    /// Arithmetic, comparison and bitwise operators with the usual conversions and pointer
    /// arithmetic.
    fn arith(&mut self, op: BinaryOperator, l: Val, r: Val, span: lang_c::span::Span) -> R<Val> {
        use BinaryOperator as B;
        let lp = matches!(l, Val::Ptr(_) | Val::Scalar(_, CType::Ptr(_)))
            || matches!(&l, Val::Agg(lv) if matches!(lv.ty(), CType::Array(..)));
        let rp = matches!(r, Val::Ptr(_) | Val::Scalar(_, CType::Ptr(_)));
        match (&op, lp, rp) {
            (B::Plus, true, false) | (B::Minus, true, false) => {
                let (i, it) = self.scalar_of(r, span)?;
                let mut i = self.convert(i, &it, &CType::Int(Ty::LONG), span)?;
                if op == B::Minus {
                    i = Expr::Unary {
                        op: UnOp::Neg,
                        arg: Box::new(i),
                        ty: Ty::LONG,
                    };
                }
                return self.ptr_add(l, fold(i), span);
            }
            (B::Plus, false, true) => {
                let (i, it) = self.scalar_of(l, span)?;
                let i = self.convert(i, &it, &CType::Int(Ty::LONG), span)?;
                return self.ptr_add(r, i, span);
            }
            (B::Minus, true, true) => {
                if let (
                    Val::Ptr(Lv::Mem {
                        node: Storage::Leaf(a),
                        idx: ia,
                        ..
                    }),
                    Val::Ptr(Lv::Mem {
                        node: Storage::Leaf(b),
                        idx: ib,
                        ..
                    }),
                ) = (&l, &r)
                {
                    if a == b {
                        return Ok(Val::Scalar(
                            fold(bin(
                                BinOp::Sub,
                                cast(ia.clone(), Ty::LONG),
                                cast(ib.clone(), Ty::LONG),
                                Ty::LONG,
                            )),
                            CType::Int(Ty::LONG),
                        ));
                    }
                }
                let (a, _) = self.scalar_of(l, span)?;
                let (b, _) = self.scalar_of(r, span)?;
                return Ok(Val::Scalar(
                    bin(BinOp::Sub, cast(a, Ty::LONG), cast(b, Ty::LONG), Ty::LONG),
                    CType::Int(Ty::LONG),
                ));
            }
            _ => {}
        }
        let (a, at) = self.scalar_of(l, span)?;
        let (b, bt) = self.scalar_of(r, span)?;
        let (Some(ta), Some(tb)) = (at.value_ty(), bt.value_ty()) else {
            return self.invalid(span, "arithmetic on a non-integer");
        };
        let bop = match op {
            B::Multiply => BinOp::Mul,
            B::Divide => BinOp::Div,
            B::Modulo => BinOp::Rem,
            B::Plus => BinOp::Add,
            B::Minus => BinOp::Sub,
            B::ShiftLeft => BinOp::Shl,
            B::ShiftRight => BinOp::Shr,
            B::Less => BinOp::Lt,
            B::Greater => BinOp::Gt,
            B::LessOrEqual => BinOp::Le,
            B::GreaterOrEqual => BinOp::Ge,
            B::Equals => BinOp::Eq,
            B::NotEquals => BinOp::Ne,
            B::BitwiseAnd => BinOp::BitAnd,
            B::BitwiseXor => BinOp::BitXor,
            B::BitwiseOr => BinOp::BitOr,
            _ => return self.invalid(span, "operator"),
        };
        if matches!(bop, BinOp::Shl | BinOp::Shr) {
            let pa = promote(ta);
            let pb = promote(tb);
            return Ok(Val::Scalar(
                fold(bin(bop, cast(a, pa), cast(b, pb), pa)),
                CType::Int(pa),
            ));
        }
        let ct = common_type(ta, tb);
        let x = bin(
            bop,
            cast(a, ct),
            cast(b, ct),
            if bop.is_predicate() { Ty::INT } else { ct },
        );
        let rt = if bop.is_predicate() { Ty::INT } else { ct };
        Ok(Val::Scalar(fold(x), CType::Int(rt)))
    }

    // ----------------------------------------------------------------- calls

    fn call(&mut self, e: &Node<Expression>, c: &Node<CallExpression>) -> R<Val> {
        let span = e.span;
        let name = match &c.node.callee.node {
            Expression::Identifier(i) => i.node.name.clone(),
            _ => return self.unsupported(c.node.callee.span, "call through a function pointer"),
        };
        if let Some(Binding::Obj(..)) = self.lookup(&name) {
            return self.unsupported(c.node.callee.span, "call through a function pointer");
        }
        let args = &c.node.arguments;
        let saved = self.span;
        if self.span.is_none() || self.frames.len() > 1 {
            self.span = Some(self.map.span(span));
        }
        let r = self.at_expr(span, |l| l.call_named(e, &name, args, span));
        self.span = saved;
        r
    }

    fn arg_count(
        &self,
        name: &str,
        args: &[Node<Expression>],
        n: usize,
        span: lang_c::span::Span,
    ) -> R<()> {
        if args.len() < n {
            return self.invalid(span, format!("`{name}` needs {n} argument(s)"));
        }
        Ok(())
    }

    /// The place of a synchronisation object given by a pointer argument (`&m`, `p`).
    fn sync_place(&mut self, arg: &Node<Expression>, want: CType) -> R<Place> {
        let v = self.rvalue(arg)?;
        let lv = self.deref(v, arg.span)?;
        let lv = match lv {
            Lv::Deref { addr, ty: _ } => Lv::Deref {
                addr,
                ty: want.clone(),
            },
            l => l,
        };
        if lv.ty() != &want {
            return self.invalid(
                arg.span,
                format!("expected a pointer to {}", want.describe(&self.structs)),
            );
        }
        let p = self.place_of(&lv, arg.span)?;
        // The address of an object behind a pointer is read into a temporary first.
        Ok(match p {
            Place::Deref { addr, ty, targets } => {
                let a = if matches!(*addr, Expr::Load { .. }) {
                    Box::new(self.snapshot(*addr)?)
                } else {
                    addr
                };
                Place::Deref {
                    addr: a,
                    ty,
                    targets,
                }
            }
            p => p,
        })
    }

    fn me(&self) -> Expr {
        Expr::constant(self.tid.0 as i128 + 1, Ty::LONG)
    }

    fn ret0(&self) -> Val {
        Val::Scalar(Expr::int(0), CType::Int(Ty::INT))
    }

    /// Evaluates the arguments of a library call the IR gives no effect (`printf`, `free`,
    /// `pthread_exit`, ...): their side effects happen, and their reads of shared memory are
    /// accesses like any other (the call reads its arguments). String literals are skipped; an
    /// argument without side effects whose value the IR cannot express (a floating-point
    /// value, `stderr`) is read by the call only and left out.
    fn read_arguments(&mut self, args: &[Node<Expression>]) -> R<()> {
        for a in args {
            if matches!(a.node, Expression::StringLiteral(_)) {
                continue;
            }
            match self.effect(a) {
                // A value the IR cannot express, or a library object it does not know
                // (`stderr`).
                Err(Error::Unsupported { .. } | Error::Invalid { .. })
                    if !has_side_effects(&a.node) => {}
                r => r?,
            }
        }
        Ok(())
    }

    fn call_named(
        &mut self,
        e: &Node<Expression>,
        name: &str,
        args: &[Node<Expression>],
        span: lang_c::span::Span,
    ) -> R<Val> {
        let _ = e;
        let load = |p: &Place| Expr::Load {
            place: p.clone(),
            ty: Ty::LONG,
        };
        match name {
            "__builtin_expect" => {
                self.arg_count(name, args, 2, span)?;
                let v = self.rvalue(&args[0])?;
                Ok(v)
            }
            "reach_error" | "__VERIFIER_error" | "__assert_fail" => {
                self.no_effects(span)?;
                let kind = if name == "__assert_fail" {
                    ErrorKind::AssertionFailed
                } else {
                    ErrorKind::ReachError
                };
                let err = self.special[1];
                self.edge(self.cur, err, Expr::tt(), vec![], TransKind::Error(kind))?;
                self.cur = self.new_loc(LocKind::Normal);
                Ok(Val::Void)
            }
            "assert" | "__VERIFIER_assert"
                if !self.funcs.contains_key(name) || name == "assert" =>
            {
                self.no_effects(span)?;
                self.arg_count(name, args, 1, span)?;
                let ok = self.new_loc(LocKind::Normal);
                let bad = self.new_loc(LocKind::Normal);
                self.cond(&args[0], ok, bad)?;
                self.cur = bad;
                let err = self.special[1];
                self.edge(
                    bad,
                    err,
                    Expr::tt(),
                    vec![],
                    TransKind::Error(ErrorKind::AssertionFailed),
                )?;
                self.cur = ok;
                Ok(Val::Void)
            }
            "abort" | "exit" | "_exit" => {
                self.no_effects(span)?;
                for a in args {
                    self.effect(a)?;
                }
                let halt = self.special[2];
                self.edge(self.cur, halt, Expr::tt(), vec![], TransKind::Halt)?;
                self.cur = self.new_loc(LocKind::Normal);
                Ok(Val::Void)
            }
            "__VERIFIER_assume" | "assume_abort_if_not" => {
                self.no_effects(span)?;
                self.arg_count(name, args, 1, span)?;
                let saved = self.pure;
                self.pure = true;
                let r = self.rvalue(&args[0]);
                self.pure = saved;
                let v = match r {
                    Ok(v) => v,
                    Err(Error::Unsupported { construct, .. })
                        if construct.starts_with("side effect") =>
                    {
                        return self.unsupported(args[0].span, "assume with side effects")
                    }
                    Err(e) => return Err(e),
                };
                let (x, _) = self.scalar_of(v, args[0].span)?;
                self.step(truth(x), vec![], TransKind::Assume)?;
                Ok(Val::Void)
            }
            "__VERIFIER_atomic_begin" => {
                self.no_effects(span)?;
                self.atomic_depth += 1;
                if self.atomic_depth == 1 {
                    self.step(
                        Expr::tt(),
                        vec![Op::AtomicBegin],
                        TransKind::Sync(SyncKind::AtomicBegin),
                    )?;
                }
                Ok(Val::Void)
            }
            "__VERIFIER_atomic_end" => {
                self.no_effects(span)?;
                if self.atomic_depth == 0 {
                    return self.invalid(
                        span,
                        "__VERIFIER_atomic_end without __VERIFIER_atomic_begin",
                    );
                }
                self.atomic_depth -= 1;
                if self.atomic_depth == 0 {
                    self.step(
                        Expr::tt(),
                        vec![Op::AtomicEnd],
                        TransKind::Sync(SyncKind::AtomicEnd),
                    )?;
                }
                Ok(Val::Void)
            }
            n if n.starts_with("__VERIFIER_nondet_") => {
                self.no_effects(span)?;
                let ty = match &n["__VERIFIER_nondet_".len()..] {
                    "int" => Ty::INT,
                    "uint" | "unsigned" | "u32" => Ty::UINT,
                    "long" | "longlong" => Ty::LONG,
                    "ulong" | "ulonglong" | "size_t" | "u64" => Ty::ULONG,
                    "char" => Ty::CHAR,
                    "uchar" | "u8" => Ty {
                        bits: 8,
                        signed: false,
                    },
                    "short" => Ty {
                        bits: 16,
                        signed: true,
                    },
                    "ushort" | "u16" => Ty {
                        bits: 16,
                        signed: false,
                    },
                    "bool" | "_Bool" => Ty::BOOL,
                    "pointer" => Ty::ULONG,
                    other => return self.unsupported(span, format!("__VERIFIER_nondet_{other}")),
                };
                let t = self.temp(ty);
                self.step(
                    Expr::tt(),
                    vec![Op::Havoc {
                        place: Place::scalar(t),
                        ty,
                    }],
                    TransKind::Stmt,
                )?;
                Ok(Val::Scalar(Expr::var(t, ty), CType::Int(ty)))
            }
            "printf"
            | "fprintf"
            | "puts"
            | "putchar"
            | "fflush"
            | "free"
            | "pthread_mutex_destroy"
            | "pthread_cond_destroy"
            | "pthread_barrier_destroy"
            | "pthread_attr_init"
            | "pthread_attr_destroy"
            | "pthread_attr_setdetachstate"
            | "pthread_mutexattr_init"
            | "pthread_mutexattr_settype"
            | "pthread_mutexattr_destroy"
            | "pthread_condattr_init"
            | "usleep"
            | "sleep"
            | "pthread_detach" => {
                self.no_effects(span)?;
                self.read_arguments(args)?;
                Ok(self.ret0())
            }
            "sched_yield" | "pthread_yield" => {
                self.no_effects(span)?;
                self.step(Expr::tt(), vec![], TransKind::Sync(SyncKind::Yield))?;
                Ok(self.ret0())
            }
            "pthread_self" => Ok(Val::Scalar(
                Expr::constant(self.tid.0 as i128, Ty::ULONG),
                CType::Int(Ty::ULONG),
            )),
            "malloc" | "calloc" => match self.try_alloc(e, None)? {
                Some(v) => Ok(v),
                None => self.unsupported(
                    span,
                    format!("{name} whose result is not cast or assigned to a typed pointer"),
                ),
            },
            "strcpy" => {
                self.no_effects(span)?;
                self.arg_count(name, args, 2, span)?;
                let Expression::StringLiteral(s) = &args[1].node else {
                    return self.unsupported(args[1].span, "strcpy from a non-literal");
                };
                let d = self.rvalue(&args[0])?;
                let bytes = string_bytes(&s.node);
                for (k, b) in bytes.iter().chain(std::iter::once(&0u8)).enumerate() {
                    let p = self.ptr_add(d.clone(), Expr::constant(k as i128, Ty::LONG), span)?;
                    let lv = self.deref(p, span)?;
                    self.store(&lv, Expr::constant(*b as i128, Ty::CHAR), span)?;
                }
                Ok(d)
            }
            "pthread_mutex_init" => self.sync_reset(
                name,
                args,
                span,
                CType::Mutex,
                TransKind::Sync(SyncKind::MutexInit),
            ),
            "pthread_mutex_lock" => {
                self.no_effects(span)?;
                self.arg_count(name, args, 1, span)?;
                let m = self.sync_place(&args[0], CType::Mutex)?;
                let g = bin(BinOp::Eq, load(&m), Expr::constant(0, Ty::LONG), Ty::INT);
                let me = self.me();
                self.step(
                    g,
                    vec![Op::Assign {
                        place: m,
                        value: me,
                    }],
                    TransKind::Sync(SyncKind::Lock),
                )?;
                Ok(self.ret0())
            }
            "pthread_mutex_trylock" => {
                self.no_effects(span)?;
                self.arg_count(name, args, 1, span)?;
                let m = self.sync_place(&args[0], CType::Mutex)?;
                let free = bin(BinOp::Eq, load(&m), Expr::constant(0, Ty::LONG), Ty::INT);
                let r = self.temp(Ty::INT);
                let me = self.me();
                self.step(
                    Expr::tt(),
                    vec![
                        // EBUSY is 16 on Linux.
                        Op::Assign {
                            place: Place::scalar(r),
                            value: Expr::Ite {
                                cond: Box::new(free.clone()),
                                then: Box::new(Expr::int(0)),
                                els: Box::new(Expr::int(16)),
                                ty: Ty::INT,
                            },
                        },
                        Op::Assign {
                            place: m.clone(),
                            value: Expr::Ite {
                                cond: Box::new(free),
                                then: Box::new(me),
                                els: Box::new(load(&m)),
                                ty: Ty::LONG,
                            },
                        },
                    ],
                    TransKind::Sync(SyncKind::TryLock),
                )?;
                Ok(Val::Scalar(Expr::var(r, Ty::INT), CType::Int(Ty::INT)))
            }
            "pthread_mutex_unlock" => self.sync_reset(
                name,
                args,
                span,
                CType::Mutex,
                TransKind::Sync(SyncKind::Unlock),
            ),
            "pthread_cond_init" => self.sync_reset(name, args, span, CType::Cond, TransKind::Stmt),
            "pthread_cond_wait" => {
                self.no_effects(span)?;
                self.arg_count(name, args, 2, span)?;
                if self.tid.0 >= MAX_COND_THREADS {
                    return self.unsupported(
                        span,
                        format!("pthread_cond_wait in a thread with id >= {MAX_COND_THREADS}"),
                    );
                }
                let c = self.sync_place(&args[0], CType::Cond)?;
                let m = self.sync_place(&args[1], CType::Mutex)?;
                let (w, base) = self.cond_waiters(&c, args[0].span)?;
                let slot = Place::Var {
                    var: w,
                    index: Some(Box::new(add(
                        base,
                        Expr::constant(self.tid.0 as i128, Ty::LONG),
                    ))),
                };
                self.step(
                    Expr::tt(),
                    vec![
                        Op::Assign {
                            place: slot.clone(),
                            value: Expr::int(1),
                        },
                        Op::Assign {
                            place: m.clone(),
                            value: Expr::constant(0, Ty::LONG),
                        },
                    ],
                    TransKind::Sync(SyncKind::CondWaitRelease),
                )?;
                let woken = bin(
                    BinOp::Eq,
                    Expr::Load {
                        place: slot,
                        ty: Ty::INT,
                    },
                    Expr::int(0),
                    Ty::INT,
                );
                self.step(woken, vec![], TransKind::Sync(SyncKind::CondWaitWake))?;
                let g = bin(BinOp::Eq, load(&m), Expr::constant(0, Ty::LONG), Ty::INT);
                let me = self.me();
                self.step(
                    g,
                    vec![Op::Assign {
                        place: m,
                        value: me,
                    }],
                    TransKind::Sync(SyncKind::Lock),
                )?;
                Ok(self.ret0())
            }
            "pthread_cond_signal" | "pthread_cond_broadcast" => {
                self.no_effects(span)?;
                self.arg_count(name, args, 1, span)?;
                let c = self.sync_place(&args[0], CType::Cond)?;
                let (w, base) = self.cond_waiters(&c, args[0].span)?;
                let first = Place::Var {
                    var: w,
                    index: Some(Box::new(base)),
                };
                let kind = if name == "pthread_cond_broadcast" {
                    SyncKind::CondBroadcast
                } else {
                    SyncKind::CondSignal
                };
                // Expanded by `finalize`, which knows the threads that wait: one transition per
                // waiter a signal may wake, plus one for "nobody waits".
                self.step(
                    Expr::tt(),
                    vec![Op::Assign {
                        place: first.clone(),
                        value: Expr::Load {
                            place: first,
                            ty: Ty::INT,
                        },
                    }],
                    TransKind::Sync(kind),
                )?;
                Ok(self.ret0())
            }
            "pthread_barrier_init" => {
                self.no_effects(span)?;
                self.arg_count(name, args, 3, span)?;
                let b = self.sync_place(&args[0], CType::Barrier)?;
                let nv = self.rvalue(&args[2])?;
                let (n, nt) = self.scalar_of(nv, args[2].span)?;
                let n = self.convert(n, &nt, &CType::Int(Ty::LONG), span)?;
                let Place::Var { var, index } = &b else {
                    return self.unsupported(args[0].span, "barrier behind a run-time pointer");
                };
                let (nvar, gvar) = self.barrier_parts(*var);
                let idx = index.clone();
                self.step(
                    Expr::tt(),
                    vec![
                        Op::Assign {
                            place: b.clone(),
                            value: Expr::constant(0, Ty::LONG),
                        },
                        Op::Assign {
                            place: Place::Var {
                                var: nvar,
                                index: idx.clone(),
                            },
                            value: n,
                        },
                        Op::Assign {
                            place: Place::Var {
                                var: gvar,
                                index: idx,
                            },
                            value: Expr::constant(0, Ty::LONG),
                        },
                    ],
                    TransKind::Sync(SyncKind::BarrierInit),
                )?;
                Ok(self.ret0())
            }
            "pthread_barrier_wait" => {
                self.no_effects(span)?;
                self.arg_count(name, args, 1, span)?;
                let b = self.sync_place(&args[0], CType::Barrier)?;
                let Place::Var { var, index } = &b else {
                    return self.unsupported(args[0].span, "barrier behind a run-time pointer");
                };
                let (nvar, gvar) = self.barrier_parts(*var);
                let np = Place::Var {
                    var: nvar,
                    index: index.clone(),
                };
                let gp = Place::Var {
                    var: gvar,
                    index: index.clone(),
                };
                let my = self.temp(Ty::LONG);
                let ret = self.temp(Ty::INT);
                let cnt = load(&b);
                let last = bin(
                    BinOp::Eq,
                    bin(
                        BinOp::Add,
                        cnt.clone(),
                        Expr::constant(1, Ty::LONG),
                        Ty::LONG,
                    ),
                    load(&np),
                    Ty::INT,
                );
                let ite = |c: &Expr, a: Expr, b2: Expr, ty| Expr::Ite {
                    cond: Box::new(c.clone()),
                    then: Box::new(a),
                    els: Box::new(b2),
                    ty,
                };
                self.step(
                    Expr::tt(),
                    vec![
                        Op::Assign {
                            place: Place::scalar(my),
                            value: load(&gp),
                        },
                        // PTHREAD_BARRIER_SERIAL_THREAD is -1.
                        Op::Assign {
                            place: Place::scalar(ret),
                            value: ite(&last, Expr::int(-1), Expr::int(0), Ty::INT),
                        },
                        Op::Assign {
                            place: gp.clone(),
                            value: ite(
                                &last,
                                bin(BinOp::Add, load(&gp), Expr::constant(1, Ty::LONG), Ty::LONG),
                                load(&gp),
                                Ty::LONG,
                            ),
                        },
                        Op::Assign {
                            place: b.clone(),
                            value: ite(
                                &last,
                                Expr::constant(0, Ty::LONG),
                                bin(BinOp::Add, cnt, Expr::constant(1, Ty::LONG), Ty::LONG),
                                Ty::LONG,
                            ),
                        },
                    ],
                    TransKind::Sync(SyncKind::BarrierArrive),
                )?;
                let g = bin(BinOp::Ne, load(&gp), Expr::var(my, Ty::LONG), Ty::INT);
                self.step(g, vec![], TransKind::Sync(SyncKind::BarrierLeave))?;
                Ok(Val::Scalar(Expr::var(ret, Ty::INT), CType::Int(Ty::INT)))
            }
            "pthread_create" => self.spawn(args, span),
            "pthread_join" => {
                self.no_effects(span)?;
                self.arg_count(name, args, 1, span)?;
                let v = self.rvalue(&args[0])?;
                let (t, tt) = self.scalar_of(v, args[0].span)?;
                let t = self.convert(t, &tt, &CType::Int(Ty::LONG), span)?;
                let done = Place::Var {
                    var: self.thread_done,
                    index: Some(Box::new(t)),
                };
                let g = bin(
                    BinOp::Eq,
                    Expr::Load {
                        place: done,
                        ty: Ty::INT,
                    },
                    Expr::int(1),
                    Ty::INT,
                );
                self.step(g, vec![], TransKind::Sync(SyncKind::Join))?;
                Ok(self.ret0())
            }
            "pthread_exit" => {
                self.no_effects(span)?;
                self.read_arguments(args)?;
                if self.tid.0 == 0 {
                    // main stops; the other threads go on.
                    let exit = self.special[0];
                    self.edge(
                        self.cur,
                        exit,
                        Expr::tt(),
                        vec![Op::Assign {
                            place: Place::Var {
                                var: self.thread_done,
                                index: Some(Box::new(Expr::int(0))),
                            },
                            value: Expr::int(1),
                        }],
                        TransKind::Sync(SyncKind::ThreadExit),
                    )?;
                    self.cur = self.new_loc(LocKind::Normal);
                } else {
                    self.thread_exit()?;
                }
                Ok(Val::Void)
            }
            _ => {
                if let Some(f) = self.funcs.get(name).copied() {
                    return self.inline(name, f, args, span);
                }
                if name.starts_with("pthread_") {
                    return self.unsupported(span, format!("call to `{name}`"));
                }
                self.unsupported(span, format!("call to undefined function `{name}`"))
            }
        }
    }

    /// `pthread_mutex_init`, `pthread_mutex_unlock`, `pthread_cond_init`: the object becomes 0
    /// (free, no waiters).
    fn sync_reset(
        &mut self,
        name: &str,
        args: &[Node<Expression>],
        span: lang_c::span::Span,
        want: CType,
        kind: TransKind,
    ) -> R<Val> {
        self.no_effects(span)?;
        self.arg_count(name, args, 1, span)?;
        let place = self.sync_place(&args[0], want)?;
        self.step(
            Expr::tt(),
            vec![Op::Assign {
                place,
                value: Expr::constant(0, Ty::LONG),
            }],
            kind,
        )?;
        Ok(self.ret0())
    }

    /// The waiting flags of a condition variable (`<name>.waiters`, one per thread that may
    /// wait, for each element) and the index of this element's first flag.
    fn cond_waiters(&mut self, c: &Place, span: lang_c::span::Span) -> R<(VarId, Expr)> {
        let Place::Var { var, index } = c else {
            return self.unsupported(span, "condition variable behind a run-time pointer");
        };
        let name = format!("{}.waiters", self.vars[var.0 as usize].name);
        let w = match self.vars.iter().position(|v| v.name == name) {
            Some(i) => VarId(i as u32),
            None => {
                let (len, scope) = {
                    let v = &self.vars[var.0 as usize];
                    (v.len, v.scope.clone())
                };
                self.new_var(
                    name,
                    ElemKind::Int(Ty::INT),
                    len * MAX_COND_THREADS,
                    true,
                    scope,
                    Init::Zero,
                    None,
                )
            }
        };
        let idx = index
            .as_deref()
            .cloned()
            .unwrap_or(Expr::constant(0, Ty::LONG));
        let base = mul(
            cast(idx, Ty::LONG),
            Expr::constant(MAX_COND_THREADS as i128, Ty::LONG),
        );
        Ok((w, base))
    }

    /// `<name>.n` and `<name>.gen` of a barrier variable.
    fn barrier_parts(&mut self, var: VarId) -> (VarId, VarId) {
        let name = self.vars[var.0 as usize].name.clone();
        let n = format!("{name}.n");
        if let Some(i) = self.vars.iter().position(|v| v.name == n) {
            return (VarId(i as u32), VarId(i as u32 + 1));
        }
        let (len, is_array, scope) = {
            let v = &self.vars[var.0 as usize];
            (v.len, v.is_array, v.scope.clone())
        };
        let a = self.new_var(
            n,
            ElemKind::Int(Ty::LONG),
            len,
            is_array,
            scope.clone(),
            Init::Zero,
            None,
        );
        let b = self.new_var(
            format!("{name}.gen"),
            ElemKind::Int(Ty::LONG),
            len,
            is_array,
            scope,
            Init::Zero,
            None,
        );
        (a, b)
    }

    /// `malloc`/`calloc` as the value of a pointer of type `to` (from a cast or assignment).
    fn try_alloc(&mut self, e: &Node<Expression>, to: Option<&CType>) -> R<Option<Val>> {
        let Expression::Call(c) = &e.node else {
            return Ok(None);
        };
        let Expression::Identifier(i) = &c.node.callee.node else {
            return Ok(None);
        };
        let zero = match i.node.name.as_str() {
            "malloc" => false,
            "calloc" => true,
            _ => return Ok(None),
        };
        let Some(CType::Ptr(pt)) = to else {
            return Ok(None);
        };
        self.no_effects(e.span)?;
        let args = &c.node.arguments;
        let want = if zero { 2 } else { 1 };
        self.arg_count(&i.node.name, args, want, e.span)?;
        let mut bytes = 1i128;
        for a in args.iter().take(want) {
            match self.const_eval(a) {
                Some(v) => bytes *= v,
                None => {
                    return self.unsupported(a.span, "allocation of a size that is not a constant")
                }
            }
        }
        let pt = (**pt).clone();
        if pt.elem().is_none() {
            return self.unsupported(
                e.span,
                format!("allocation of {}", pt.describe(&self.structs)),
            );
        }
        let es = self.sizeof(&pt, e.span)?;
        let n = (bytes / es.max(1)).max(1) as u64;
        let sp = self.map.span(e.span);
        let name = format!("heap@{}:{}", sp.line, sp.col);
        let name = if self.tid.0 == 0 {
            name
        } else {
            format!("{}:{}", self.tid, name)
        };
        let st = self.alloc(
            &name,
            "",
            &[],
            &CType::Array(Box::new(pt.clone()), n),
            1,
            false,
            &VarScope::Heap,
            &if zero { Init::Zero } else { Init::Nondet },
            e.span,
        )?;
        let Storage::Array(leaf, _) = st else {
            unreachable!("array storage")
        };
        Ok(Some(Val::Ptr(Lv::Mem {
            node: (*leaf).clone(),
            idx: Expr::constant(0, Ty::LONG),
            ty: pt,
        })))
    }

    fn spawn(&mut self, args: &[Node<Expression>], span: lang_c::span::Span) -> R<Val> {
        self.no_effects(span)?;
        self.arg_count("pthread_create", args, 4, span)?;
        let f = match self.rvalue(&args[2])? {
            Val::Func(f) => f,
            _ => {
                return self.unsupported(
                    args[2].span,
                    "thread start routine that is not a function name",
                )
            }
        };
        let Some(def) = self.funcs.get(&f).copied() else {
            return self.invalid(
                args[2].span,
                format!("thread function `{f}` is not defined"),
            );
        };
        if self.threads.len() >= self.opts.max_threads {
            return self.unsupported(
                span,
                format!(
                    "more than {} threads (raise --max-threads)",
                    self.opts.max_threads
                ),
            );
        }
        let child = ThreadId(self.threads.len() as u32);
        self.threads.push(placeholder_thread(child, &f));
        let mut ops = Vec::new();
        // pthread_t *
        let is_null = matches!(self.const_eval(&args[0]), Some(0));
        if !is_null {
            let tv = self.rvalue(&args[0])?;
            let lv = self.deref(tv, args[0].span)?;
            let place = self.place_of(&lv, args[0].span)?;
            ops.push(Op::Assign {
                place,
                value: Expr::constant(child.0 as i128, Ty::ULONG),
            });
        }
        let params = fn_params(&def.node.declarator.node);
        let mut spawn_args = Vec::new();
        let mut param = None;
        if let Some((Some(pname), pty_decl)) = params.first() {
            let _ = pty_decl;
            let assigned = self
                .facts
                .get(&f)
                .is_some_and(|fa| fa.assigned.contains(pname) || fa.addr_taken.contains(pname));
            let v = if matches!(self.const_eval(&args[3]), Some(0)) {
                Val::Scalar(
                    Expr::constant(0, Ty::ULONG),
                    CType::Ptr(Box::new(CType::Void)),
                )
            } else {
                self.rvalue(&args[3])?
            };
            match v {
                Val::Ptr(Lv::Mem { node, idx, ty }) if !assigned => {
                    // Substitute; capture a non-constant index in a local of the new thread.
                    let idx = if idx.as_const().is_some() {
                        idx
                    } else {
                        let cv = self.new_var(
                            format!("{child}:{f}::$argidx"),
                            ElemKind::Int(Ty::LONG),
                            1,
                            false,
                            VarScope::Local(child),
                            Init::Zero,
                            None,
                        );
                        spawn_args.push((cv, cast(idx, Ty::LONG)));
                        Expr::var(cv, Ty::LONG)
                    };
                    param = Some((pname.clone(), Binding::Alias(Lv::Mem { node, idx, ty })));
                }
                v => {
                    let (x, _) = self.scalar_of(v, args[3].span)?;
                    let pv = self.new_var(
                        format!("{child}:{f}::{pname}"),
                        ElemKind::Ptr,
                        1,
                        false,
                        VarScope::Local(child),
                        Init::Zero,
                        None,
                    );
                    spawn_args.push((pv, cast(x, Ty::ULONG)));
                    param = Some((
                        pname.clone(),
                        Binding::Obj(Storage::Leaf(pv), CType::Ptr(Box::new(CType::Void))),
                    ));
                }
            }
        }
        ops.push(Op::Spawn {
            thread: child,
            args: spawn_args,
        });
        let t = self.step(Expr::tt(), ops, TransKind::Sync(SyncKind::Spawn))?;
        self.queue.push_back(Pending {
            tid: child,
            func: f,
            param,
            created_by: (self.tid, t),
        });
        Ok(self.ret0())
    }

    /// The conjunction of the `__VERIFIER_assume`/`assume_abort_if_not` calls a function body
    /// starts with (side-effect free), or `1`.
    fn leading_assumption(&mut self, body: &Node<Statement>) -> R<Expr> {
        let Statement::Compound(items) = &body.node else {
            return Ok(Expr::tt());
        };
        let mut guard = Expr::tt();
        for it in items {
            let BlockItem::Statement(st) = &it.node else {
                break;
            };
            let Statement::Expression(Some(e)) = &st.node else {
                break;
            };
            let Expression::Call(c) = &e.node else {
                break;
            };
            let Expression::Identifier(callee) = &c.node.callee.node else {
                break;
            };
            if !matches!(
                callee.node.name.as_str(),
                "__VERIFIER_assume" | "assume_abort_if_not"
            ) || c.node.arguments.len() != 1
            {
                break;
            }
            let saved = self.pure;
            self.pure = true;
            let v = self.rvalue(&c.node.arguments[0]);
            self.pure = saved;
            let Ok(v) = v else { break };
            let (x, _) = self.scalar_of(v, e.span)?;
            guard = if guard.is_true() {
                truth(x)
            } else {
                bin(BinOp::And, guard, truth(x), Ty::INT)
            };
        }
        Ok(guard)
    }

    fn inline(
        &mut self,
        name: &str,
        f: &Node<FunctionDefinition>,
        args: &[Node<Expression>],
        span: lang_c::span::Span,
    ) -> R<Val> {
        self.no_effects(span)?;
        if self.frames.iter().any(|fr| fr.func == name) {
            return self.unsupported(span, format!("recursion (`{name}` calls itself)"));
        }
        if self.frames.len() > 64 {
            return self.unsupported(span, "call depth above 64");
        }
        let params = fn_params(&f.node.declarator.node);
        if params.len() != args.len()
            && !(params.len() == 1 && params[0].0.is_none() && args.is_empty())
        {
            return self.invalid(
                span,
                format!(
                    "`{name}` takes {} argument(s), {} given",
                    params.len(),
                    args.len()
                ),
            );
        }
        let ret_ty = self.return_type(f)?;
        let facts = self.facts.get(name).cloned().unwrap_or_default();
        // Evaluate arguments in the caller.
        let mut bindings = HashMap::new();
        for (k, a) in args.iter().enumerate() {
            let (pname, pty) = &params[k];
            let pty = match pty {
                Some((specs, decl)) => {
                    let specs: Vec<&TypeSpecifier> = specs.iter().collect();
                    let base = self.base_type(&specs, a.span)?;
                    match decl {
                        Some(d) => self.derive(base, d, a.span)?,
                        None => base,
                    }
                }
                None => {
                    return self.unsupported(f.span, format!("K&R-style definition of `{name}`"))
                }
            };
            // Array parameters are pointers.
            let pty = match pty {
                CType::Array(t, _) => CType::Ptr(t),
                t => t,
            };
            let v = self.rvalue(a)?;
            let Some(pname) = pname else { continue };
            let assigned = facts.assigned.contains(pname) || facts.addr_taken.contains(pname);
            match (&pty, v) {
                (CType::Ptr(pt), Val::Ptr(Lv::Mem { node, idx, ty })) if !assigned => {
                    let idx = if idx.as_const().is_some() {
                        idx
                    } else {
                        self.snapshot(idx)?
                    };
                    let ty = if matches!(**pt, CType::Void) {
                        ty
                    } else {
                        (**pt).clone()
                    };
                    bindings.insert(pname.clone(), Binding::Alias(Lv::Mem { node, idx, ty }));
                }
                (CType::Ptr(pt), Val::Ptr(Lv::Deref { addr, .. })) if !assigned => {
                    let addr = self.snapshot(addr)?;
                    bindings.insert(
                        pname.clone(),
                        Binding::Alias(Lv::Deref {
                            addr,
                            ty: (**pt).clone(),
                        }),
                    );
                }
                (CType::Struct(_), _) => return self.unsupported(a.span, "struct passed by value"),
                (pty, v) => {
                    let (x, xt) = self.scalar_of(v, a.span)?;
                    let x = self.convert(x, &xt, pty, a.span)?;
                    let Some(elem) = pty.elem() else {
                        return self.unsupported(
                            a.span,
                            format!("parameter of type {}", pty.describe(&self.structs)),
                        );
                    };
                    let vname = if self.tid.0 == 0 {
                        format!("{name}::{pname}")
                    } else {
                        format!("{}:{name}::{pname}", self.tid)
                    };
                    let pv = self.new_var(
                        vname,
                        elem,
                        1,
                        false,
                        VarScope::Local(self.tid),
                        Init::Zero,
                        None,
                    );
                    if facts.addr_taken.contains(pname) {
                        self.split_locals.insert(pv);
                    }
                    self.step(
                        Expr::tt(),
                        vec![Op::Assign {
                            place: Place::scalar(pv),
                            value: x,
                        }],
                        TransKind::Stmt,
                    )?;
                    bindings.insert(pname.clone(), Binding::Obj(Storage::Leaf(pv), pty.clone()));
                }
            }
        }
        let ret = match &ret_ty {
            CType::Void => None,
            t => {
                let Some(vt) = t.value_ty() else {
                    return self.unsupported(
                        span,
                        format!("function returning {}", t.describe(&self.structs)),
                    );
                };
                Some((self.temp(vt), t.clone()))
            }
        };
        let atomic = name.starts_with("__VERIFIER_atomic_");
        let ret_loc = self.new_loc(LocKind::Normal);
        self.scopes.push(bindings);
        let base = self.scopes.len() - 1;
        self.frames.push(Frame {
            func: name.to_string(),
            labels: HashMap::new(),
            defined: HashSet::new(),
            ret_loc,
            ret: ret.clone(),
            breaks: vec![],
            continues: vec![],
            switches: vec![],
            scope_base: base,
        });
        if atomic {
            self.atomic_depth += 1;
            if self.atomic_depth == 1 {
                // An atomic function that starts with assumptions runs only when they hold
                // (SV-COMP's `__VERIFIER_atomic_acquire` idiom): the region's entry waits for
                // them instead of blocking inside the region.
                let guard = match self.leading_assumption(&f.node.statement) {
                    Ok(g) => g,
                    Err(e) => {
                        self.frames.pop();
                        self.scopes.pop();
                        return Err(e);
                    }
                };
                self.step(
                    guard,
                    vec![Op::AtomicBegin],
                    TransKind::Sync(SyncKind::AtomicBegin),
                )?;
            }
        }
        // The body's transitions perform its own expressions, not the call's.
        let at = self.at.take();
        let r = self
            .body(&f.node.statement)
            .and_then(|_| self.check_labels(f.span));
        self.at = at;
        self.frames.pop();
        self.scopes.pop();
        r?;
        self.goto_here(ret_loc)?;
        if atomic {
            self.atomic_depth -= 1;
            if self.atomic_depth == 0 {
                self.step(
                    Expr::tt(),
                    vec![Op::AtomicEnd],
                    TransKind::Sync(SyncKind::AtomicEnd),
                )?;
            }
        }
        Ok(match ret {
            Some((v, t)) => Val::Scalar(Expr::var(v, t.value_ty().expect("scalar")), t),
            None => Val::Void,
        })
    }
}

fn placeholder_thread(id: ThreadId, f: &str) -> (Thread, ThreadB) {
    (
        Thread {
            id,
            name: String::new(),
            function: f.to_string(),
            created_by: None,
            locations: vec![],
            transitions: vec![],
            entry: LocId(0),
            exit: LocId(0),
            error: LocId(0),
            halt: LocId(0),
            discard: LocId(0),
        },
        ThreadB {
            locations: vec![],
            transitions: vec![],
        },
    )
}

type ParamDecl = (Vec<TypeSpecifier>, Option<Declarator>);

/// Parameter names and declarations of a function declarator.
fn fn_params(d: &Declarator) -> Vec<(Option<String>, Option<ParamDecl>)> {
    for dd in &d.derived {
        if let DerivedDeclarator::Function(f) = &dd.node {
            let ps: Vec<_> = f
                .node
                .parameters
                .iter()
                .map(|p| {
                    let name = p
                        .node
                        .declarator
                        .as_ref()
                        .and_then(|d| ident_of(&d.node))
                        .map(|i| i.node.name.clone());
                    let specs: Vec<TypeSpecifier> = type_specs(&p.node.specifiers)
                        .into_iter()
                        .cloned()
                        .collect();
                    (
                        name,
                        Some((specs, p.node.declarator.as_ref().map(|d| d.node.clone()))),
                    )
                })
                .collect();
            // f(void)
            if ps.len() == 1 && ps[0].0.is_none() {
                if let Some((specs, None)) = &ps[0].1 {
                    if specs.len() == 1 && matches!(specs[0], TypeSpecifier::Void) {
                        return vec![];
                    }
                }
            }
            return ps;
        }
        if let DerivedDeclarator::KRFunction(ids) = &dd.node {
            return ids
                .iter()
                .map(|i| (Some(i.node.name.clone()), None))
                .collect();
        }
    }
    if let DeclaratorKind::Declarator(inner) = &d.kind.node {
        return fn_params(&inner.node);
    }
    vec![]
}

fn type_specs(specs: &[Node<DeclarationSpecifier>]) -> Vec<&TypeSpecifier> {
    specs
        .iter()
        .filter_map(|s| match &s.node {
            DeclarationSpecifier::TypeSpecifier(t) => Some(&t.node),
            _ => None,
        })
        .collect()
}

/// Typedef names whose meaning is fixed by the program model.
fn known_typedef(name: &str) -> Option<CType> {
    Some(match name {
        "pthread_mutex_t" => CType::Mutex,
        "pthread_cond_t" => CType::Cond,
        "pthread_barrier_t" => CType::Barrier,
        "pthread_t" => CType::Int(Ty::ULONG),
        "pthread_attr_t"
        | "pthread_mutexattr_t"
        | "pthread_condattr_t"
        | "pthread_barrierattr_t" => CType::Opaque(name.to_string()),
        _ => return None,
    })
}

fn string_bytes(parts: &[String]) -> Vec<u8> {
    let mut out = Vec::new();
    for p in parts {
        let s = p.trim_start_matches(['L', 'u', 'U', '8']);
        let s = s
            .strip_prefix('"')
            .and_then(|s| s.strip_suffix('"'))
            .unwrap_or(s);
        out.extend(unescape(s.as_bytes()).into_iter().map(|b| b as u8));
    }
    out
}

/// Decodes the escape sequences of a C string or character literal body (C11 6.4.4.4).
fn unescape(s: &[u8]) -> Vec<i128> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        if s[i] != b'\\' || i + 1 == s.len() {
            out.push(s[i] as i128);
            i += 1;
            continue;
        }
        let c = s[i + 1];
        i += 2;
        out.push(match c {
            b'n' => 10,
            b't' => 9,
            b'r' => 13,
            b'a' => 7,
            b'b' => 8,
            b'f' => 12,
            b'v' => 11,
            b'e' => 27,
            b'x' => {
                let start = i;
                while i < s.len() && s[i].is_ascii_hexdigit() {
                    i += 1;
                }
                let digits = std::str::from_utf8(&s[start..i]).unwrap_or("0");
                i128::from_str_radix(if digits.is_empty() { "0" } else { digits }, 16).unwrap_or(0)
                    & 0xff
            }
            b'0'..=b'7' => {
                let start = i - 1;
                while i < s.len() && i < start + 3 && (b'0'..=b'7').contains(&s[i]) {
                    i += 1;
                }
                i128::from_str_radix(std::str::from_utf8(&s[start..i]).unwrap_or("0"), 8)
                    .unwrap_or(0)
                    & 0xff
            }
            other => other as i128,
        });
    }
    out
}

fn char_value(c: &str) -> Option<i128> {
    let body = c.strip_prefix('\'')?.strip_suffix('\'')?;
    match unescape(body.as_bytes()).as_slice() {
        // A character constant has type int with the value of the (signed) char.
        [v] => Some(Ty::CHAR.wrap(*v)),
        _ => None,
    }
}

fn has_side_effects(e: &Expression) -> bool {
    let mut calls = Vec::new();
    collect_calls_expr(e, &mut calls);
    if !calls.is_empty() {
        return true;
    }
    let mut f = FnFacts::default();
    scan_expr(e, &mut f);
    !f.assigned.is_empty()
}

// --------------------------------------------------------------------- syntactic scans

fn scan_stmt(s: &Statement, f: &mut FnFacts) {
    match s {
        Statement::Compound(items) => {
            for it in items {
                match &it.node {
                    BlockItem::Statement(s) => scan_stmt(&s.node, f),
                    BlockItem::Declaration(d) => scan_decl(&d.node, f),
                    BlockItem::StaticAssert(_) => {}
                }
            }
        }
        Statement::Labeled(l) => scan_stmt(&l.node.statement.node, f),
        Statement::Expression(Some(e)) => scan_expr(&e.node, f),
        Statement::If(i)
            if has_label(&i.node.then_statement.node)
                || i.node
                    .else_statement
                    .as_ref()
                    .is_some_and(|e| has_label(&e.node)) =>
        {
            scan_expr(&i.node.condition.node, f);
            scan_stmt(&i.node.then_statement.node, f);
            if let Some(e) = &i.node.else_statement {
                scan_stmt(&e.node, f)
            }
        }
        Statement::If(i) => match syntactic_const(&i.node.condition.node, f.argc_is_one) {
            Some(0) => {
                if let Some(e) = &i.node.else_statement {
                    scan_stmt(&e.node, f)
                }
            }
            Some(_) => scan_stmt(&i.node.then_statement.node, f),
            None => {
                scan_expr(&i.node.condition.node, f);
                scan_stmt(&i.node.then_statement.node, f);
                if let Some(e) = &i.node.else_statement {
                    scan_stmt(&e.node, f)
                }
            }
        },
        Statement::Switch(s) => {
            scan_expr(&s.node.expression.node, f);
            scan_stmt(&s.node.statement.node, f)
        }
        Statement::While(w) => {
            scan_expr(&w.node.expression.node, f);
            scan_stmt(&w.node.statement.node, f)
        }
        Statement::DoWhile(w) => {
            scan_expr(&w.node.expression.node, f);
            scan_stmt(&w.node.statement.node, f)
        }
        Statement::For(fo) => {
            match &fo.node.initializer.node {
                ForInitializer::Expression(e) => scan_expr(&e.node, f),
                ForInitializer::Declaration(d) => scan_decl(&d.node, f),
                _ => {}
            }
            if let Some(c) = &fo.node.condition {
                scan_expr(&c.node, f)
            }
            if let Some(c) = &fo.node.step {
                scan_expr(&c.node, f)
            }
            scan_stmt(&fo.node.statement.node, f)
        }
        Statement::Return(Some(e)) => scan_expr(&e.node, f),
        _ => {}
    }
}

fn scan_decl(d: &Declaration, f: &mut FnFacts) {
    for id in &d.declarators {
        if let Some(i) = &id.node.initializer {
            scan_init(&i.node, f);
        }
    }
}

fn scan_init(i: &Initializer, f: &mut FnFacts) {
    match i {
        Initializer::Expression(e) => scan_expr(&e.node, f),
        Initializer::List(items) => {
            for it in items {
                scan_init(&it.node.initializer.node, f)
            }
        }
    }
}

/// The variable an lvalue expression is rooted at (`a` of `a[i].f`).
fn root_name(e: &Expression) -> Option<String> {
    match e {
        Expression::Identifier(i) => Some(i.node.name.clone()),
        Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
            root_name(&b.node.lhs.node)
        }
        Expression::Member(m) if m.node.operator.node == MemberOperator::Direct => {
            root_name(&m.node.expression.node)
        }
        _ => None,
    }
}

/// The variable an assignment to `e` changes itself (`x`, `s.f`), as opposed to what it points
/// to (`p[i]`, `*p`, `p->f`).
fn assigned_root(e: &Expression) -> Option<String> {
    match e {
        Expression::Identifier(i) => Some(i.node.name.clone()),
        Expression::Member(m) if m.node.operator.node == MemberOperator::Direct => {
            assigned_root(&m.node.expression.node)
        }
        _ => None,
    }
}

fn scan_expr(e: &Expression, f: &mut FnFacts) {
    match e {
        // A use of a name other than as the base of an index: an array used this way decays
        // to a pointer that may escape.
        Expression::Identifier(i) => {
            f.addr_taken.insert(format!("{}#decay", i.node.name));
        }
        Expression::BinaryOperator(b)
            if b.node.operator.node == BinaryOperator::Index
                && matches!(b.node.lhs.node, Expression::Identifier(_)) =>
        {
            scan_expr(&b.node.rhs.node, f)
        }
        Expression::SizeOfVal(_) | Expression::SizeOfTy(_) => {}
        Expression::UnaryOperator(u) => {
            match u.node.operator.node {
                UnaryOperator::Address => {
                    if let Some(n) = root_name(&u.node.operand.node) {
                        f.addr_taken.insert(n);
                    }
                }
                UnaryOperator::PreIncrement
                | UnaryOperator::PreDecrement
                | UnaryOperator::PostIncrement
                | UnaryOperator::PostDecrement => {
                    if let Some(n) = assigned_root(&u.node.operand.node) {
                        f.assigned.insert(n);
                    }
                }
                _ => {}
            }
            scan_expr(&u.node.operand.node, f)
        }
        Expression::BinaryOperator(b) => {
            if !matches!(
                b.node.operator.node,
                BinaryOperator::Index
                    | BinaryOperator::Multiply
                    | BinaryOperator::Divide
                    | BinaryOperator::Modulo
                    | BinaryOperator::Plus
                    | BinaryOperator::Minus
                    | BinaryOperator::ShiftLeft
                    | BinaryOperator::ShiftRight
                    | BinaryOperator::Less
                    | BinaryOperator::Greater
                    | BinaryOperator::LessOrEqual
                    | BinaryOperator::GreaterOrEqual
                    | BinaryOperator::Equals
                    | BinaryOperator::NotEquals
                    | BinaryOperator::BitwiseAnd
                    | BinaryOperator::BitwiseXor
                    | BinaryOperator::BitwiseOr
                    | BinaryOperator::LogicalAnd
                    | BinaryOperator::LogicalOr
            ) {
                if let Some(n) = assigned_root(&b.node.lhs.node) {
                    f.assigned.insert(n);
                }
            }
            scan_expr(&b.node.lhs.node, f);
            scan_expr(&b.node.rhs.node, f)
        }
        Expression::Call(c) => {
            // Arrays passed to functions may be written through the parameter.
            for a in &c.node.arguments {
                scan_expr(&a.node, f)
            }
            if !matches!(c.node.callee.node, Expression::Identifier(_)) {
                scan_expr(&c.node.callee.node, f)
            }
        }
        Expression::Member(m) => scan_expr(&m.node.expression.node, f),
        Expression::Cast(c) => scan_expr(&c.node.expression.node, f),
        Expression::Conditional(c) => {
            scan_expr(&c.node.condition.node, f);
            scan_expr(&c.node.then_expression.node, f);
            scan_expr(&c.node.else_expression.node, f)
        }
        Expression::Comma(es) => {
            for x in es.iter() {
                scan_expr(&x.node, f)
            }
        }
        Expression::Statement(s) => scan_stmt(&s.node, f),
        _ => {}
    }
}

/// Whether a statement contains a label (`goto` target, `case`, `default`): such a statement
/// cannot be dropped even when it is dead code.
fn has_label(s: &Statement) -> bool {
    struct V(bool);
    impl<'ast> lang_c::visit::Visit<'ast> for V {
        fn visit_label(&mut self, _: &'ast Label, _: &'ast lang_c::span::Span) {
            self.0 = true;
        }
    }
    let mut v = V(false);
    lang_c::visit::Visit::visit_statement(&mut v, s, &lang_c::span::Span::none());
    v.0
}

fn collect_calls_stmt(s: &Statement, out: &mut Vec<String>) {
    struct V<'b>(&'b mut Vec<String>);
    impl<'ast, 'b> lang_c::visit::Visit<'ast> for V<'b> {
        fn visit_call_expression(
            &mut self,
            c: &'ast CallExpression,
            span: &'ast lang_c::span::Span,
        ) {
            if let Expression::Identifier(i) = &c.callee.node {
                self.0.push(i.node.name.clone());
            }
            lang_c::visit::visit_call_expression(self, c, span)
        }
    }
    lang_c::visit::Visit::visit_statement(&mut V(out), s, &lang_c::span::Span::none());
}

fn collect_calls_expr(e: &Expression, out: &mut Vec<String>) {
    struct V<'b>(&'b mut Vec<String>);
    impl<'ast, 'b> lang_c::visit::Visit<'ast> for V<'b> {
        fn visit_call_expression(
            &mut self,
            c: &'ast CallExpression,
            span: &'ast lang_c::span::Span,
        ) {
            if let Expression::Identifier(i) = &c.callee.node {
                self.0.push(i.node.name.clone());
            }
            lang_c::visit::visit_call_expression(self, c, span)
        }
    }
    lang_c::visit::Visit::visit_expression(&mut V(out), e, &lang_c::span::Span::none());
}

// --------------------------------------------------------------------- expression helpers

fn cast(e: Expr, ty: Ty) -> Expr {
    if e.ty() == ty {
        return e;
    }
    if let Some(v) = e.as_const() {
        return Expr::constant(v, ty);
    }
    Expr::Cast {
        arg: Box::new(e),
        ty,
    }
}

fn bin(op: BinOp, lhs: Expr, rhs: Expr, ty: Ty) -> Expr {
    Expr::Binary {
        op,
        lhs: Box::new(lhs),
        rhs: Box::new(rhs),
        ty,
    }
}

fn add(a: Expr, b: Expr) -> Expr {
    if b.as_const() == Some(0) {
        return a;
    }
    if a.as_const() == Some(0) && a.ty() == b.ty() {
        return b;
    }
    fold(bin(BinOp::Add, a, b, Ty::LONG))
}

fn mul(a: Expr, b: Expr) -> Expr {
    if a.as_const() == Some(0) {
        return Expr::constant(0, Ty::LONG);
    }
    fold(bin(BinOp::Mul, a, b, Ty::LONG))
}

/// `e != 0` as an `int`, simplified when `e` is already a predicate.
fn truth(e: Expr) -> Expr {
    match &e {
        Expr::Binary { op, .. } if op.is_predicate() => e,
        Expr::Unary { op: UnOp::Not, .. } => e,
        _ => fold(bin(
            BinOp::Ne,
            e.clone(),
            Expr::constant(0, e.ty()),
            Ty::INT,
        )),
    }
}

/// Logical negation of a predicate.
fn negate(e: Expr) -> Expr {
    let neg = |op| match op {
        BinOp::Lt => Some(BinOp::Ge),
        BinOp::Le => Some(BinOp::Gt),
        BinOp::Gt => Some(BinOp::Le),
        BinOp::Ge => Some(BinOp::Lt),
        BinOp::Eq => Some(BinOp::Ne),
        BinOp::Ne => Some(BinOp::Eq),
        _ => None,
    };
    match e {
        Expr::Binary { op, lhs, rhs, ty } if neg(op).is_some() => Expr::Binary {
            op: neg(op).expect("checked"),
            lhs,
            rhs,
            ty,
        },
        Expr::Unary {
            op: UnOp::Not, arg, ..
        } => truth(*arg),
        e => fold(Expr::Unary {
            op: UnOp::Not,
            arg: Box::new(e),
            ty: Ty::INT,
        }),
    }
}

/// Folds constant operations.
fn fold(e: Expr) -> Expr {
    match &e {
        Expr::Binary { op, lhs, rhs, ty } => {
            if let (Some(a), Some(b)) = (lhs.as_const(), rhs.as_const()) {
                if let Ok(v) = crate::semantics::binop(*op, *ty, a, b) {
                    return Expr::Const { value: v, ty: *ty };
                }
            }
            e
        }
        Expr::Unary { op, arg, ty } => {
            match arg.as_const().map(|a| crate::semantics::unop(*op, *ty, a)) {
                Some(Ok(value)) => Expr::Const { value, ty: *ty },
                _ => e,
            }
        }
        Expr::Cast { arg, ty } => match arg.as_const() {
            Some(a) => Expr::constant(a, *ty),
            None => e,
        },
        _ => e,
    }
}

/// `T a[] = {...}` / `char s[] = "..."`: the length comes from the initialiser.
fn complete_array(ty: CType, init: Option<&Node<Initializer>>) -> CType {
    match (ty, init.map(|i| &i.node)) {
        (CType::Array(e, 0), Some(Initializer::List(items))) => CType::Array(e, items.len() as u64),
        (CType::Array(e, 0), Some(Initializer::Expression(x))) => match &x.node {
            Expression::StringLiteral(s) => CType::Array(e, string_bytes(&s.node).len() as u64 + 1),
            _ => CType::Array(e, 0),
        },
        (t, _) => t,
    }
}

/// The value of a constant expression, including addresses of variables (`&flag`, `a + 2`).
fn const_address(e: &Expr) -> Option<i128> {
    match e {
        Expr::Const { value, .. } => Some(*value),
        Expr::AddrOf { var, index } => Some(address(*var, index.as_const()?)),
        Expr::Cast { arg, ty } => Some(ty.wrap(const_address(arg)?)),
        Expr::Binary {
            op: op @ (BinOp::Add | BinOp::Sub),
            lhs,
            rhs,
            ty,
        } => crate::semantics::binop(*op, *ty, const_address(lhs)?, const_address(rhs)?).ok(),
        _ => None,
    }
}

/// The type of `c ? a : b` for scalar operands.
fn result_type(a: &CType, b: &CType) -> CType {
    match (a, b) {
        (CType::Int(x), CType::Int(y)) => CType::Int(common_type(*x, *y)),
        (CType::Ptr(_), _) => a.clone(),
        (_, CType::Ptr(_)) => b.clone(),
        _ => a.clone(),
    }
}
