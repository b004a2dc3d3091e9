//! Whether a program can observe how the front end numbers threads and objects (a thread's
//! id is its number, an address is its object's number and the offset): where it reads a
//! pointer as an integer (a `ptrtoint`, a pointer stored and loaded back as an integer,
//! passed where an integer is wanted, formatted into memory as a number), compares one with
//! a number outside the zero page, or computes with a thread id, which
//! glibc's `pthread_t` makes an integer with no conversion in the module: the program is
//! compiled again with `pthread_t` an opaque pointer ([`reads_thread_ids`]). The model's
//! numbers are not a run's, so no schedule of such a program is claimed safe
//! ([`crate::engine`]); and a program lowered with fewer threads numbers the later threads
//! and their objects differently, so a bug found there is one of the program without the
//! bound only where the module cannot tell the numbers apart
//! ([`crate::ir::Program::observes_numbering`], [`crate::scope`]).
//!
//! Not reads: the difference of two pointers into one object (`p - q` in C, which clang
//! compiles to two `ptrtoint`s and a `sub`), an offset in every numbering; an integer
//! converted to a pointer and back (a thread's number passed as `(void *)(long)i`, a
//! thread-specific value, a thread's result read after its join); a number only printed to a
//! stream, or an id only handed to `pthread_equal`, `pthread_join` and their kind, or
//! compared for equality (distinct threads and objects have distinct numbers in every
//! numbering); pointers compared by order (the model's order within one block, a made-up
//! result across blocks, [`super::pointers`]); an address modulo a power of two (the model's
//! where every run aligns the block so, made up elsewhere, [`super::pointers`]). The analysis is syntactic: places are matched by how the module names them.

use super::layout::Layout;
use llvm_ir::instruction::Instruction;
use llvm_ir::types::Type;
use llvm_ir::{Constant, DebugLoc, Function, HasDebugLoc, Module, Name, Operand};
use std::collections::{HashMap, HashSet};

/// Where and how a module reads a thread id or an address as a number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    /// What reads it (`a pointer converted to an integer`, ...).
    pub what: String,
    /// Its `file:line:col`, where the module has debug information for it.
    pub at: Option<String>,
}

impl std::fmt::Display for Observation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.at {
            Some(at) => write!(f, "{} at {at}", self.what),
            None => f.write_str(&self.what),
        }
    }
}

/// The front end's warning for a program that reads numbers as `o` does.
pub fn warning(o: &Observation) -> String {
    format!(
        "the program reads thread ids or addresses as numbers ({o}): the model's values are \
         not those of a run, so no schedule of it is claimed safe, and a bug it shows may \
         depend on them"
    )
}

/// `file:line:col` of a debug location.
fn located(d: Option<&DebugLoc>) -> Option<String> {
    d.map(|d| format!("{}:{}:{}", d.filename, d.line, d.col.unwrap_or(1).max(1)))
}

/// The first place where some function or initialiser of `m` converts a pointer to an
/// integer (by a `ptrtoint`, through memory, or passing it where an integer is wanted),
/// formats one as a number, or compares one with a number. (A thread id, an integer in `m`,
/// is found by [`reads_thread_ids`].)
pub fn observes_numbering(m: &Module) -> Option<Observation> {
    observes(m, false)
}

/// [`observes_numbering`], where `opaque_ids` says whether `m` was compiled with `pthread_t`
/// a pointer ([`super::compile::compile_opaque_ids`]): then `pthread_create` stores one.
fn observes(m: &Module, opaque_ids: bool) -> Option<Observation> {
    let global = m
        .global_vars
        .iter()
        .find(|g| g.initializer.as_ref().is_some_and(|c| converts(c)));
    if let Some(g) = global {
        return Some(Observation {
            what: "an initialiser converting an address to an integer".into(),
            at: located(g.debugloc.as_ref()),
        });
    }
    let numbers = number_parameters(m);
    let specific = specific_values_are_numbers(m);
    let joined = joined_values_are_numbers(m);
    let main_returns_status = !uses_main(m);
    let found = m.functions.iter().find_map(|f| {
        let defs = definitions(f);
        let mut offsets = offsets_only(m, f);
        let status = main_returns_status && f.name == "main";
        offsets.extend(only_printed(f, &defs, specific, joined, status));
        // A parameter that only ever gets an integer converted to a pointer (a thread's
        // number passed as its argument, `(void *)(long)i`), converted back.
        for i in f.basic_blocks.iter().flat_map(|b| &b.instrs) {
            if let Instruction::PtrToInt(p) = i {
                let param = f.parameters.iter().position(
                    |q| matches!(&p.operand, Operand::LocalOperand { name, .. } if *name == q.name),
                );
                if param.is_some_and(|k| numbers.contains(&(f.name.as_str(), k))) {
                    offsets.insert(&p.dest);
                }
            }
        }
        let found = f.basic_blocks.iter().flat_map(|b| &b.instrs).find_map(|i| {
            reads(m, &defs, &offsets, i).map(|what| Observation {
                what: what.to_string(),
                at: located(i.get_debug_loc().as_ref()),
            })
        });
        // (A constant conversion returned or branched on.)
        let constant = |o: &Operand| matches!(o, Operand::ConstantOperand(c) if converts(c));
        found.or_else(|| {
            let b = f.basic_blocks.iter().find(|b| {
                super::lower::term_operands(&b.term)
                    .into_iter()
                    .any(constant)
            })?;
            Some(Observation {
                what: "an address converted to an integer".into(),
                at: located(b.term.get_debug_loc().as_ref()),
            })
        })
    });
    found.or_else(|| puns_pointers(m, opaque_ids))
}

/// Where the program of `sources` (whose module, `m`, reads no number otherwise) computes
/// with a thread id: glibc's `pthread_t` is an integer, so a conversion or a computation
/// leaves no trace in `m`. The program compiled with `pthread_t` opaque
/// ([`super::compile::compile_opaque_ids`], in `dir`) shows one as a pointer read as a
/// number, or does not compile (or clang warns of a conversion of one). Only a program that
/// creates threads or asks for its own id is compiled again; where the check cannot be made
/// (a C library whose `pthread_t` is not glibc's), it counts as a read.
pub fn reads_thread_ids(
    m: &Module,
    sources: &[super::compile::Unit],
    opts: &crate::frontend::Options,
    dir: &std::path::Path,
) -> Option<Observation> {
    // (Called directly or not.)
    let creates = ["pthread_create", "pthread_self"]
        .iter()
        .any(|f| m.get_func_by_name(f).is_some() || m.get_func_decl_by_name(f).is_some());
    if !creates {
        return None;
    }
    let bc = match super::compile::compile_opaque_ids(sources, opts, dir) {
        Ok(bc) => bc,
        Err(why) => {
            // (clang's diagnostic: `file:line:col: error: what`.)
            let split = [": fatal error: ", ": error: ", ": warning: "]
                .iter()
                .find_map(|s| why.split_once(s));
            let (at, what) = match split {
                Some((at, what)) => (Some(at.to_string()), what),
                None => (None, why.as_str()),
            };
            return Some(Observation {
                what: format!("a thread id used as a number: {what}"),
                at,
            });
        }
    };
    let Ok(opaque) = Module::from_bc_path(&bc) else {
        return Some(Observation {
            what: "a thread id perhaps used as a number (the check's module cannot be read)".into(),
            at: None,
        });
    };
    if let Some(o) = observes(&opaque, true) {
        return Some(Observation {
            what: o
                .what
                .replace("a pointer", "a thread id")
                .replace("pointers", "thread ids"),
            at: o.at,
        });
    }
    // Pointers compared by order or subtracted are no reads ([`super::pointers`]), but ids
    // are integers in `m`: a place with more of them in the opaque module computes with ids.
    let more = |count: fn(&Module) -> HashMap<Option<String>, usize>| {
        let before = count(m);
        let mut more: Vec<Option<String>> = count(&opaque)
            .into_iter()
            .filter(|(at, n)| before.get(at).copied().unwrap_or(0) < *n)
            .map(|(at, _)| at)
            .collect();
        more.sort();
        more.into_iter().next()
    };
    if let Some(at) = more(ordered_pointer_compares) {
        return Some(Observation {
            what: "thread ids compared by order".into(),
            at,
        });
    }
    more(pointer_differences).map(|at| Observation {
        what: "a thread id converted to an integer".into(),
        at,
    })
}

/// How many `ptrtoint`s that only feed differences of pointers ([`offsets_only`]) `m` has at
/// each place.
fn pointer_differences(m: &Module) -> HashMap<Option<String>, usize> {
    per_place(m.functions.iter().flat_map(|f| {
        let offsets = offsets_only(m, f);
        instructions(f)
            .filter(move |i| matches!(i, Instruction::PtrToInt(p) if offsets.contains(&p.dest)))
    }))
}

/// How many comparisons by order of two pointers `m` makes at each place.
fn ordered_pointer_compares(m: &Module) -> HashMap<Option<String>, usize> {
    per_place(
        (m.functions.iter().flat_map(instructions)).filter(
            |i| matches!(i, Instruction::ICmp(x) if super::pointers::orders_pointers(m, x)),
        ),
    )
}

/// The instructions of `f`.
fn instructions(f: &Function) -> impl Iterator<Item = &Instruction> {
    f.basic_blocks.iter().flat_map(|b| &b.instrs)
}

/// How many of `instrs` lie at each place.
fn per_place<'a>(instrs: impl Iterator<Item = &'a Instruction>) -> HashMap<Option<String>, usize> {
    let mut out = HashMap::new();
    for i in instrs {
        *out.entry(located(i.get_debug_loc().as_ref())).or_default() += 1;
    }
    out
}

/// The first load of an integer in `m` from a place where one stores a pointer (a
/// union of a pointer and an integer, `union { void *p; unsigned long n; }`, or a byte of
/// it, or `memcmp` of it): the integer is the pointer's address, converted without a
/// `ptrtoint`. A pointer is
/// stored by a `store`, by `pthread_create` where `opaque_ids` (its id is one,
/// [`reads_thread_ids`]), by an initialiser ([`initialised_pointers`]), and by a copy
/// (`memcpy`, `memmove`) of a place that holds one.
/// Places are told apart by their address operand, seen through `getelementptr`s with
/// constant indices: a global's across the module, a function's own values in it; a load
/// from inside a place (more indices) reads from it. A place of a function's parameter is
/// also each place its calls pass there (a direct call's argument, `pthread_create`'s for
/// its start function): `bits(&u)` reading `u->n` reads the caller's `u`.
fn puns_pointers(m: &Module, opaque_ids: bool) -> Option<Observation> {
    let layout = Layout::new(&m.types);
    let mut pointers_stored = HashSet::new();
    let mut integers_loaded = Vec::new();
    // Per parameter's place, what the calls pass there.
    let mut passed: HashMap<String, Vec<String>> = HashMap::new();
    let functions: HashMap<&str, &Function> =
        m.functions.iter().map(|f| (f.name.as_str(), f)).collect();
    // Copies: (to, from), by key and by place with the bytes copied where known.
    let mut copies = Vec::new();
    let mut placed_copies = Vec::new();
    for f in &m.functions {
        let defs = definitions(f);
        let key = |o: &Operand| {
            let k = place_key(&defs, o);
            match k.starts_with('@') {
                true => k,
                false => format!("{}:{k}", f.name),
            }
        };
        for i in f.basic_blocks.iter().flat_map(|b| &b.instrs) {
            match i {
                Instruction::Store(st) => {
                    if matches!(
                        m.types.type_of(&st.value).as_ref(),
                        Type::PointerType { .. }
                    ) {
                        pointers_stored.insert(key(&st.address));
                    }
                }
                Instruction::Load(l) => {
                    if matches!(l.loaded_ty.as_ref(), Type::IntegerType { .. }) {
                        let at = place(&layout, &f.name, &defs, &l.address)
                            .map(|p| (p, layout.size(&l.loaded_ty).unwrap_or(1) as i64));
                        integers_loaded.push((key(&l.address), at, i));
                    }
                }
                Instruction::Call(c) => {
                    let callee = super::loops::callee(i).unwrap_or_default();
                    let arg = |k: usize| c.arguments.get(k).map(|(o, _)| key(o));
                    // (Where a call starts `g` with `args`, its parameters get them.)
                    let mut bind = |g: &str, args: &[String]| {
                        let Some(g) = functions.get(g) else {
                            return;
                        };
                        for (p, a) in g.parameters.iter().zip(args) {
                            let at = format!("{}:{} {}", g.name, p.ty, p.name);
                            passed.entry(at).or_default().push(a.clone());
                        }
                    };
                    if callee == "pthread_create" {
                        let start = c.arguments.get(2).and_then(|(o, _)| match o {
                            Operand::ConstantOperand(k) => match k.as_ref() {
                                Constant::GlobalReference { name, .. } => {
                                    Some(super::lower::name_str(name))
                                }
                                _ => None,
                            },
                            _ => None,
                        });
                        if let (Some(start), Some(a)) = (start, arg(3)) {
                            bind(&start, &[a]);
                        }
                    } else {
                        let args: Vec<String> = (0..c.arguments.len()).filter_map(arg).collect();
                        bind(&callee, &args);
                    }
                    if opaque_ids && callee == "pthread_create" {
                        pointers_stored.extend(arg(0));
                    }
                    if is_copy(&callee) {
                        if let (Some(to), Some(from)) = (arg(0), arg(1)) {
                            copies.push((to, from));
                        }
                        let at = |k: usize| {
                            (c.arguments.get(k))
                                .and_then(|(o, _)| place(&layout, &f.name, &defs, o))
                        };
                        let bytes = c.arguments.get(2).and_then(|(o, _)| constant_int(o));
                        if let (Some(to), Some(from)) = (at(0), at(1)) {
                            placed_copies.push((to, from, bytes));
                        }
                    }
                    // Comparisons of bytes read them as integers.
                    if ["memcmp", "bcmp"].contains(&callee.as_str()) {
                        // (Bytes of a known count, or from the place on.)
                        let n = (c.arguments.get(2))
                            .and_then(|(o, _)| constant_int(o))
                            .unwrap_or(i64::MAX / 2);
                        for (o, _) in c.arguments.iter().take(2) {
                            let at = place(&layout, &f.name, &defs, o).map(|p| (p, n));
                            integers_loaded.push((key(o), at, i));
                        }
                    }
                }
                _ => {}
            }
        }
    }
    // Whether place `inner` lies inside (or is) place `outer`.
    let inside = |inner: &str, outer: &str| {
        inner == outer || inner.starts_with(outer) && inner[outer.len()..].starts_with('[')
    };
    // Place `k`, and the places the calls pass where it lies in a parameter's, and so on
    // (at most [`MAX_PASSED`] of them).
    // (Where a place leads to more, the check gives up: the program is taken to read numbers.)
    let capped = std::cell::Cell::new(false);
    let places = |k: &str| {
        let mut out = vec![k.to_string()];
        let mut at = 0;
        while at < out.len() {
            if out.len() >= MAX_PASSED {
                capped.set(true);
                break;
            }
            let x = out[at].clone();
            at += 1;
            for (param, args) in &passed {
                if !inside(&x, param) {
                    continue;
                }
                for a in args {
                    let y = format!("{a}{}", &x[param.len()..]);
                    if !out.contains(&y) {
                        out.push(y);
                    }
                }
            }
        }
        out
    };
    let pointers_stored: HashSet<String> = pointers_stored.iter().flat_map(|k| places(k)).collect();
    let copies: Vec<(String, String)> = (copies.iter())
        .flat_map(|(to, from)| {
            let from = places(from);
            places(to)
                .into_iter()
                .flat_map(move |t| from.clone().into_iter().map(move |f| (t.clone(), f)))
        })
        .collect();
    let mut pointers_stored = pointers_stored;
    let holds =
        |stored: &HashSet<String>, k: &str| stored.iter().any(|p| inside(k, p) || inside(p, k));
    loop {
        let new: Vec<String> = (copies.iter())
            .filter(|(to, from)| !pointers_stored.contains(to) && holds(&pointers_stored, from))
            .map(|(to, _)| to.clone())
            .collect();
        if new.is_empty() {
            break;
        }
        pointers_stored.extend(new);
    }
    let initialised = initialised_pointers(m, &layout, &placed_copies);
    // (Whether bytes `[at, at + n)` of `base` overlap an address put there.)
    let overlaps = |(base, at): &Place, n: i64| {
        (initialised.iter()).any(|(b, p)| b == base && *p < at + n && *at < p + ADDRESS)
    };
    // (A load of a place around a pointer's, `*(long *)&s` of a struct whose first field is
    // one, reads it too.)
    let found = integers_loaded.into_iter().find(|(k, l, _)| {
        places(k).iter().any(|k| holds(&pointers_stored, k))
            || l.as_ref().is_some_and(|(p, n)| overlaps(p, *n))
    });
    if capped.get() {
        return Some(Observation {
            what: format!(
                "a place passed through calls to more than {MAX_PASSED} places, which the \
                 check of pointers loaded as integers does not follow"
            ),
            at: None,
        });
    }
    let (_, _, i) = found?;
    Some(Observation {
        what: "a pointer stored and loaded back as an integer".into(),
        at: located(i.get_debug_loc().as_ref()),
    })
}

/// Most places [`puns_pointers`] follows one place to through the calls that pass it.
const MAX_PASSED: usize = 64;

/// The value of integer constant `o`, if it is one.
fn constant_int(o: &Operand) -> Option<i64> {
    match o {
        Operand::ConstantOperand(c) => int_of(c),
        _ => None,
    }
}

/// The value of `c`, if it is an integer.
fn int_of(c: &Constant) -> Option<i64> {
    match c {
        Constant::Int { value, .. } => Some(*value as i64),
        _ => None,
    }
}

/// Whether `callee` copies memory (`memcpy`, `memmove` and LLVM's intrinsics of them).
fn is_copy(callee: &str) -> bool {
    ["memcpy", "memmove", "llvm.memcpy.", "llvm.memmove."]
        .iter()
        .any(|n| callee == *n || n.ends_with('.') && callee.starts_with(n))
}

/// Bytes of an address.
const ADDRESS: i64 = 8;

/// A place as its object (`@g`, or `f:%x` for function `f`'s value `%x`) and a byte offset
/// into it.
type Place = (String, i64);

/// The place operand `o` of function `f` (whose instructions are `defs`) names, where
/// every index of the `getelementptr`s on the way is a constant (the front end's constant
/// ones count bytes, [`super::canonical`]).
fn place(
    layout: &Layout,
    f: &str,
    defs: &HashMap<&Name, &Instruction>,
    o: &Operand,
) -> Option<Place> {
    fn constant_place(c: &Constant) -> Option<Place> {
        match c {
            Constant::GlobalReference { name, .. } => {
                Some((format!("@{}", super::lower::name_str(name)), 0))
            }
            Constant::GetElementPtr(g) => match g.indices.as_slice() {
                [k] => {
                    let (base, off) = constant_place(&g.address)?;
                    Some((base, off + int_of(k)?))
                }
                _ => None,
            },
            _ => None,
        }
    }
    match o {
        Operand::ConstantOperand(c) => constant_place(c),
        Operand::LocalOperand { name, .. } => match defs.get(name) {
            Some(Instruction::GetElementPtr(g)) => {
                let (base, off) = place(layout, f, defs, &g.address)?;
                let ix = g
                    .indices
                    .iter()
                    .map(constant_int)
                    .collect::<Option<Vec<_>>>()?;
                Some((
                    base,
                    off + layout.constant_offset(&g.source_element_type, &ix)?,
                ))
            }
            _ => Some((format!("{f}:{o}"), 0)),
        },
        Operand::MetadataOperand => None,
    }
}

/// The places where an initialiser put an address (a global's, or a constant's that a
/// local is initialised from by a copy: `union { void *p; long n; } u = {.p = s}`),
/// followed through `copies` (to, from, bytes where known) between places of constant
/// offsets.
fn initialised_pointers(
    m: &Module,
    layout: &Layout,
    copies: &[(Place, Place, Option<i64>)],
) -> HashSet<Place> {
    // The byte offsets of the addresses in `c`, from `at`.
    fn leaves(m: &Module, layout: &Layout, c: &Constant, at: i64, out: &mut Vec<i64>) {
        match c {
            Constant::Struct { values, .. } => {
                let ty = m.types.type_of(c);
                for (k, v) in values.iter().enumerate() {
                    if let Some(o) = layout.field_offset(&ty, k) {
                        leaves(m, layout, v, at + o as i64, out);
                    }
                }
            }
            Constant::Array { elements, .. } | Constant::Vector(elements) => {
                for (k, v) in elements.iter().enumerate() {
                    if let Some(size) = layout.size(&m.types.type_of(v)) {
                        leaves(m, layout, v, at + k as i64 * size as i64, out);
                    }
                }
            }
            Constant::GlobalReference { .. }
            | Constant::GetElementPtr(_)
            | Constant::BitCast(_)
            | Constant::AddrSpaceCast(_) => out.push(at),
            _ => {}
        }
    }
    let mut held: Vec<Place> = Vec::new();
    for g in &m.global_vars {
        if let Some(c) = &g.initializer {
            let mut offsets = Vec::new();
            leaves(m, layout, c, 0, &mut offsets);
            let base = format!("@{}", super::lower::name_str(&g.name));
            held.extend(offsets.into_iter().map(|o| (base.clone(), o)));
        }
    }
    let mut out: HashSet<Place> = held.iter().cloned().collect();
    while let Some((base, at)) = held.pop() {
        for ((to_base, to), (from_base, from), bytes) in copies {
            let within = at >= *from && bytes.is_none_or(|n| at < from + n);
            let new = (to_base.clone(), to + at - from);
            if *from_base == base && within && out.len() < 4096 && out.insert(new.clone()) {
                held.push(new);
            }
        }
    }
    out
}

/// The place an address operand names, as text: a `getelementptr` with constant indices as
/// its base's place and the indices.
fn place_key(defs: &HashMap<&Name, &Instruction>, o: &Operand) -> String {
    if let Operand::LocalOperand { name, .. } = o {
        if let Some(Instruction::GetElementPtr(g)) = defs.get(name) {
            let constant = |o: &Operand| match o {
                Operand::ConstantOperand(c) => Some(format!("{c}")),
                _ => None,
            };
            if let Some(ix) = g.indices.iter().map(constant).collect::<Option<Vec<_>>>() {
                return format!("{}[{}]", place_key(defs, &g.address), ix.join(","));
            }
        }
    }
    match o {
        Operand::ConstantOperand(c) => match c.as_ref() {
            Constant::GlobalReference { name, .. } => format!("@{}", super::lower::name_str(name)),
            c => format!("@{c}"),
        },
        _ => format!("{o}"),
    }
}

/// The functions that print their arguments (as numbers, where a `%d` or `%p` asks).
const PRINTING: [&str; 6] = ["printf", "fprintf", "dprintf", "putchar", "putc", "fputc"];

/// The functions that take a thread id as a handle: they tell ids apart only by equality,
/// which every numbering keeps.
const TAKING_IDS: [&str; 5] = [
    "pthread_equal",
    "pthread_join",
    "pthread_detach",
    "pthread_cancel",
    "pthread_kill",
];

/// The `ptrtoint`s of `f` whose results the program decides nothing on: it prints them
/// (converted in any way) or hands them, unconverted or widened, to [`TAKING_IDS`] (a thread
/// id where `pthread_t` is a pointer, [`reads_thread_ids`]). Also the conversions of what
/// `pthread_getspecific` returns, where every value the module sets is a number
/// ([`specific_values_are_numbers`], `specific`), and of the values `pthread_join` stores,
/// where every thread returns a number ([`joined_values_are_numbers`], `joined`). Also, where
/// `f` returns the process's exit status (`status`: it is `main`, which nothing calls), what
/// it returns: no verdict rests on the exit status. `defs`: the instructions of `f` by their
/// results.
fn only_printed<'f>(
    f: &'f Function,
    defs: &HashMap<&'f Name, &'f Instruction>,
    specific: bool,
    joined: bool,
    status: bool,
) -> HashSet<&'f Name> {
    let instrs = || f.basic_blocks.iter().flat_map(|b| &b.instrs);
    let sources: Vec<&Name> = instrs()
        .filter_map(|i| match i {
            Instruction::PtrToInt(p) => Some(&p.dest),
            _ => None,
        })
        .collect();
    if sources.is_empty() {
        return HashSet::new();
    }
    // The instructions using each value, and the values a terminator uses.
    let mut uses: HashMap<&Name, Vec<&Instruction>> = HashMap::new();
    for i in instrs() {
        for o in super::lower::operands(i) {
            if let Operand::LocalOperand { name, .. } = o {
                uses.entry(name).or_default().push(i);
            }
        }
    }
    let mut in_terminators: HashSet<&Name> = HashSet::new();
    for b in &f.basic_blocks {
        if status && matches!(b.term, llvm_ir::Terminator::Ret(_)) {
            continue;
        }
        for o in super::lower::term_operands(&b.term) {
            if let Operand::LocalOperand { name, .. } = o {
                in_terminators.insert(name);
            }
        }
    }
    // The values loaded from where a `pthread_join` stores its thread's result.
    let results: Vec<&Operand> = instrs()
        .filter_map(|i| match i {
            Instruction::Call(c) if super::loops::callee(i).as_deref() == Some("pthread_join") => {
                c.arguments.get(1).map(|(o, _)| o)
            }
            _ => None,
        })
        .collect();
    // (Only where nothing else stores there, nor passes it on: `ret = malloc(32)`.)
    let elsewhere = |slot: &&Operand| {
        instrs().any(|i| match i {
            Instruction::Store(st) => st.address == **slot,
            Instruction::Call(c) => {
                super::loops::callee(i).as_deref() != Some("pthread_join")
                    && c.arguments.iter().any(|(o, _)| o == *slot)
            }
            _ => false,
        })
    };
    let results: Vec<&Operand> = results.into_iter().filter(|r| !elsewhere(r)).collect();
    let join_results: Vec<&Name> = instrs()
        .filter_map(|i| match i {
            Instruction::Load(l) if results.contains(&&l.address) => Some(&l.dest),
            _ => None,
        })
        .collect();
    let joined_result = |o: &Operand| matches!(o, Operand::LocalOperand { name, .. } if join_results.contains(&name));
    let getspecific = |o: &Operand| match o {
        Operand::LocalOperand { name, .. } => defs
            .get(name)
            .is_some_and(|i| super::loops::callee(i).as_deref() == Some("pthread_getspecific")),
        _ => false,
    };
    sources
        .into_iter()
        .filter(|&n| {
            let number = matches!(defs.get(n), Some(Instruction::PtrToInt(p)) if specific && getspecific(&p.operand) || joined && joined_result(&p.operand));
            number || printed(n, false, &uses, &in_terminators)
        })
        .collect()
}

/// Whether the module calls `main` or takes its address, in a function or an initialiser
/// ([`references`]): then what `main` returns is more than the exit status.
fn uses_main(m: &Module) -> bool {
    let mut names = Vec::new();
    for c in m.global_vars.iter().filter_map(|g| g.initializer.as_ref()) {
        references(c, &mut names);
    }
    for b in m.functions.iter().flat_map(|f| &f.basic_blocks) {
        let operands = b.instrs.iter().flat_map(super::lower::operands);
        for o in operands.chain(super::lower::term_operands(&b.term)) {
            if let Operand::ConstantOperand(c) = o {
                references(c, &mut names);
            }
        }
    }
    names.iter().any(|n| n == "main")
}

/// Whether value `n` (narrowed on its way if `narrowed`) only reaches [`PRINTING`] and
/// [`TAKING_IDS`] calls ([`only_printed`]), through conversions.
fn printed(
    n: &Name,
    narrowed: bool,
    uses: &HashMap<&Name, Vec<&Instruction>>,
    in_terminators: &HashSet<&Name>,
) -> bool {
    if in_terminators.contains(n) {
        return false;
    }
    uses.get(n).into_iter().flatten().all(|i| match i {
        Instruction::Trunc(x) => printed(&x.dest, true, uses, in_terminators),
        Instruction::ZExt(x) => printed(&x.dest, narrowed, uses, in_terminators),
        Instruction::SExt(x) => printed(&x.dest, narrowed, uses, in_terminators),
        // (A thread id that is a pointer: [`super::compile::compile_opaque_ids`].)
        Instruction::PtrToInt(x) => printed(&x.dest, narrowed, uses, in_terminators),
        Instruction::Call(c) => {
            let callee = super::loops::callee(i).unwrap_or_default();
            // (Not as the called function.)
            let argument = c
                .arguments
                .iter()
                .any(|(o, _)| matches!(o, Operand::LocalOperand { name, .. } if name == n));
            argument
                && (PRINTING.contains(&callee.as_str())
                    || (!narrowed && TAKING_IDS.contains(&callee.as_str())))
        }
        _ => false,
    })
}

/// The pointer parameters of the module's functions that every call gives an integer
/// converted to a pointer (`inttoptr`, or null): as arguments of direct calls, as the
/// argument of a `pthread_create` that starts the function, and as the value of a
/// thread-specific key that a `pthread_key_create` names the function the destructor of
/// (every value some `pthread_setspecific` sets). A function whose address is used otherwise
/// (stored, passed on, in an initialiser) has callers not known here: none of its parameters
/// is one.
fn number_parameters(m: &Module) -> HashSet<(&str, usize)> {
    let name_of = |o: &Operand| match o {
        Operand::ConstantOperand(c) => match c.as_ref() {
            Constant::GlobalReference { name, .. } => Some(super::lower::name_str(name)),
            _ => None,
        },
        _ => None,
    };
    // Per function: whether each parameter got only numbers so far; `None` once its address
    // is used otherwise. (`main`'s callers are not in the module.)
    let mut got: HashMap<String, Option<Vec<bool>>> = m
        .functions
        .iter()
        .map(|f| {
            let params = (f.name != "main").then(|| vec![true; f.parameters.len()]);
            (f.name.clone(), params)
        })
        .collect();
    // The functions some call site gives arguments to (a function without one has callers
    // not known here).
    let mut called: HashSet<String> = HashSet::new();
    let escape_name = |got: &mut HashMap<String, Option<Vec<bool>>>, n: &str| {
        if let Some(e) = got.get_mut(n) {
            *e = None;
        }
    };
    let escape = |got: &mut HashMap<String, Option<Vec<bool>>>, o: &Operand| {
        if let Some(n) = name_of(o) {
            escape_name(got, &n);
        }
    };
    for c in m.global_vars.iter().filter_map(|g| g.initializer.as_ref()) {
        let mut names = Vec::new();
        references(c, &mut names);
        for n in names {
            escape_name(&mut got, &n);
        }
    }
    let specific = specific_values_are_numbers(m);
    for f in &m.functions {
        let defs = definitions(f);
        let number = |o: &Operand| is_number(&defs, o);
        let note = |got: &mut HashMap<String, Option<Vec<bool>>>,
                    called: &mut HashSet<String>,
                    callee: &str,
                    k,
                    o| {
            called.insert(callee.to_string());
            if let Some(Some(params)) = got.get_mut(callee) {
                if let Some(p) = params.get_mut(k) {
                    *p &= number(o);
                }
            }
        };
        for i in f.basic_blocks.iter().flat_map(|b| &b.instrs) {
            let Instruction::Call(c) = i else {
                for o in super::lower::operands(i) {
                    escape(&mut got, o);
                }
                continue;
            };
            let callee = match &c.function {
                either::Either::Right(o) => name_of(o),
                either::Either::Left(_) => None,
            };
            let args: Vec<&Operand> = c.arguments.iter().map(|(o, _)| o).collect();
            if callee.as_deref() == Some("pthread_key_create") && args.len() == 2 {
                if let Some(dtor) = name_of(args[1]) {
                    called.insert(dtor.clone());
                    if let Some(Some(params)) = got.get_mut(&dtor) {
                        if let Some(p) = params.get_mut(0) {
                            *p &= specific;
                        }
                    }
                }
                escape(&mut got, args[0]);
                continue;
            }
            if callee.as_deref() == Some("pthread_create") && args.len() == 4 {
                if let Some(start) = name_of(args[2]) {
                    note(&mut got, &mut called, &start, 0, args[3]);
                }
                escape(&mut got, args[0]);
                escape(&mut got, args[1]);
                escape(&mut got, args[3]);
                continue;
            }
            for (k, a) in args.iter().enumerate() {
                if let Some(n) = &callee {
                    note(&mut got, &mut called, n, k, a);
                }
                escape(&mut got, a);
            }
        }
        for b in &f.basic_blocks {
            for o in super::lower::term_operands(&b.term) {
                escape(&mut got, o);
            }
        }
    }
    let mut out = HashSet::new();
    for f in m.functions.iter().filter(|f| called.contains(&f.name)) {
        if let Some(Some(params)) = got.get(&f.name) {
            for (k, only) in params.iter().enumerate() {
                if *only {
                    out.insert((f.name.as_str(), k));
                }
            }
        }
    }
    out
}

/// The instructions of `f` by the names of their results.
fn definitions(f: &Function) -> HashMap<&Name, &Instruction> {
    (f.basic_blocks.iter().flat_map(|b| &b.instrs))
        .filter_map(|i| i.try_get_result().map(|d| (d, i)))
        .collect()
}

/// Whether pointer operand `o` (of the function whose instructions are `defs`) is an
/// integer converted to a pointer, or null. Whatever the integer (a loop's counter, `atoi`'s
/// result, a comparison's, a value loaded from memory): an integer holds an address only
/// where the module reads one as a number, which the analysis finds there, as it does for
/// the values threads return ([`joined_values_are_numbers`]).
fn is_number<'f>(defs: &HashMap<&'f Name, &'f Instruction>, o: &'f Operand) -> bool {
    match o {
        Operand::ConstantOperand(c) => match c.as_ref() {
            Constant::IntToPtr(x) => matches!(x.operand.as_ref(), Constant::Int { .. }),
            Constant::Null(_) => true,
            _ => false,
        },
        Operand::LocalOperand { name, .. } => {
            matches!(defs.get(name), Some(Instruction::IntToPtr(_)))
        }
        Operand::MetadataOperand => false,
    }
}

/// Whether every value a thread of the module returns (from its start function, or passed to
/// `pthread_exit`) is an integer converted to a pointer, or null: what `pthread_join` gets.
/// (Whatever the integer: where the module reads no other number, no integer holds one.)
fn joined_values_are_numbers(m: &Module) -> bool {
    let number = |o: &Operand, f: &Function| match o {
        Operand::ConstantOperand(c) => {
            matches!(c.as_ref(), Constant::Null(_) | Constant::IntToPtr(_))
        }
        Operand::LocalOperand { name, .. } => f
            .basic_blocks
            .iter()
            .flat_map(|b| &b.instrs)
            .any(|i| matches!(i, Instruction::IntToPtr(x) if x.dest == *name)),
        Operand::MetadataOperand => false,
    };
    let mut starts = Vec::new();
    for f in &m.functions {
        for i in f.basic_blocks.iter().flat_map(|b| &b.instrs) {
            let Instruction::Call(c) = i else { continue };
            match super::loops::callee(i).as_deref() {
                Some("pthread_create") => match c.arguments.get(2).map(|(o, _)| o) {
                    Some(Operand::ConstantOperand(k)) => match k.as_ref() {
                        Constant::GlobalReference { name, .. } => {
                            starts.push(super::lower::name_str(name))
                        }
                        _ => return false,
                    },
                    _ => return false,
                },
                Some("pthread_exit") if !c.arguments.first().is_some_and(|(o, _)| number(o, f)) => {
                    return false;
                }
                _ => {}
            }
        }
    }
    starts.iter().all(|s| {
        m.get_func_by_name(s).is_some_and(|f| {
            f.basic_blocks.iter().all(|b| match &b.term {
                llvm_ir::Terminator::Ret(r) => {
                    r.return_operand.as_ref().is_some_and(|o| number(o, f))
                }
                _ => true,
            })
        })
    })
}

/// Whether every value the module's `pthread_setspecific` calls set is a number
/// ([`is_number`]): what the keys' destructors get.
fn specific_values_are_numbers(m: &Module) -> bool {
    m.functions.iter().all(|f| {
        let sets = (f.basic_blocks.iter().flat_map(|b| &b.instrs)).filter_map(|i| match i {
            Instruction::Call(c)
                if super::loops::callee(i).as_deref() == Some("pthread_setspecific") =>
            {
                Some(c.arguments.get(1).map(|(o, _)| o))
            }
            _ => None,
        });
        // (The definitions only of a function that sets one.)
        let mut defs = None;
        sets.into_iter().all(|value| {
            let defs = defs.get_or_insert_with(|| definitions(f));
            value.is_some_and(|o| is_number(defs, o))
        })
    })
}

/// The globals and functions constant `c` refers to.
fn references(c: &Constant, out: &mut Vec<String>) {
    match c {
        Constant::GlobalReference { name, .. } => out.push(super::lower::name_str(name)),
        Constant::Struct { values, .. } => values.iter().for_each(|v| references(v, out)),
        Constant::Array { elements, .. } => elements.iter().for_each(|v| references(v, out)),
        Constant::Vector(elements) => elements.iter().for_each(|v| references(v, out)),
        Constant::GetElementPtr(g) => references(&g.address, out),
        Constant::BitCast(x) => references(&x.operand, out),
        Constant::PtrToInt(x) => references(&x.operand, out),
        Constant::AddrSpaceCast(x) => references(&x.operand, out),
        _ => {}
    }
}

/// How instruction `i` observes numbering, if it does (`offsets`: the `ptrtoint`s that only feed
/// differences of pointers into one object, [`offsets_only`], and those whose results only
/// feed output or are numbers, [`only_printed`]).
fn reads<'f>(
    m: &Module,
    defs: &HashMap<&'f Name, &'f Instruction>,
    offsets: &HashSet<&Name>,
    i: &'f Instruction,
) -> Option<&'static str> {
    let constant = |o: &Operand| matches!(o, Operand::ConstantOperand(c) if converts(c));
    const CONVERTED: &str = "an address converted to an integer";
    // A pointer made of a number that is not a constant (`(pthread_t)(base + k)`): compared
    // for equality, or with an id, it may be equal in one numbering and not in another.
    let computed_pointer = |o: &Operand| match o {
        Operand::LocalOperand { name, .. } => match defs.get(name) {
            Some(Instruction::IntToPtr(x)) => match &x.operand {
                Operand::ConstantOperand(c) => match c.as_ref() {
                    Constant::Int { bits, value } => !in_zero_page(*bits, *value),
                    _ => true,
                },
                _ => true,
            },
            _ => false,
        },
        _ => false,
    };
    // (A constant address modulo a power of two is made up unless its block is so aligned.)
    let remainder = super::pointers::remainder_of_address(m, i, |_| false).is_some();
    if !remainder && super::lower::operands(i).into_iter().any(constant) {
        return Some(CONVERTED);
    }
    match i {
        Instruction::PtrToInt(p)
            if !offsets.contains(&p.dest)
                && !matches!(&p.operand, Operand::ConstantOperand(c) if number_based(c)) =>
        {
            Some("a pointer converted to an integer")
        }
        Instruction::ICmp(x) => {
            // (Pointers compared by order get a made-up result where they lie in two
            // blocks, [`super::pointers`].)
            let pointer = matches!(
                m.types.type_of(&x.operand0).as_ref(),
                Type::PointerType { .. }
            );
            if pointer
                && [&x.operand0, &x.operand1]
                    .iter()
                    .any(|o| outside_zero_page(o) || computed_pointer(o))
            {
                Some("a pointer compared with a number")
            } else if constant(&x.operand0) || constant(&x.operand1) {
                Some(CONVERTED)
            } else {
                None
            }
        }
        Instruction::Call(c) => {
            let callee = super::loops::callee(i).unwrap_or_default();
            if callee == "pthread_equal" && c.arguments.iter().any(|(o, _)| computed_pointer(o)) {
                Some("a pointer compared with a number")
            } else if passes_pointer_as_integer(m, defs, i) {
                Some("a pointer passed where an integer is wanted")
            } else if formats_pointer_as_number(m, i) {
                Some("a pointer formatted as a number into memory")
            } else {
                None
            }
        }
        _ => None,
    }
}

/// Whether `o` is a number converted to a pointer outside the first and the last page of the
/// address space (where no object lies, in a run and in the model), so that a pointer
/// compared with it for equality may be equal in one numbering and not in another.
fn outside_zero_page(o: &Operand) -> bool {
    let Operand::ConstantOperand(c) = o else {
        return false;
    };
    let Constant::IntToPtr(x) = c.as_ref() else {
        return false;
    };
    match x.operand.as_ref() {
        Constant::Int { bits, value } => !in_zero_page(*bits, *value),
        _ => true,
    }
}

/// Whether the `bits`-bit integer `value` (sign-extended) lies in the first or the last page
/// of the address space.
fn in_zero_page(bits: u32, value: u64) -> bool {
    let v = match bits {
        0 => 0,
        64.. => value as i64,
        _ => ((value << (64 - bits)) as i64) >> (64 - bits),
    };
    (-4096..4096).contains(&v)
}

/// Whether call `i` passes a pointer as a parameter that the called function (defined or
/// declared in `m`) takes as an integer (a function called without a prototype: `int f();`
/// then `int f(unsigned long x)`).
fn passes_pointer_as_integer<'f>(
    m: &Module,
    defs: &HashMap<&'f Name, &'f Instruction>,
    i: &'f Instruction,
) -> bool {
    let (Instruction::Call(c), Some(name)) = (i, super::loops::callee(i)) else {
        return false;
    };
    let params: Vec<&llvm_ir::TypeRef> = match m.get_func_by_name(&name) {
        Some(f) => f.parameters.iter().map(|p| &p.ty).collect(),
        None => match m.get_func_decl_by_name(&name) {
            Some(d) => d.parameters.iter().map(|p| &p.ty).collect(),
            None => return false,
        },
    };
    let pointer = |o: &Operand| matches!(m.types.type_of(o).as_ref(), Type::PointerType { .. });
    let integer = |ty: &llvm_ir::TypeRef| matches!(ty.as_ref(), Type::IntegerType { .. });
    // A thread's start function gets `pthread_create`'s last argument.
    if name == "pthread_create" {
        let start = match c.arguments.get(2).map(|(o, _)| o) {
            Some(Operand::ConstantOperand(k)) => match k.as_ref() {
                Constant::GlobalReference { name, .. } => {
                    m.get_func_by_name(&super::lower::name_str(name))
                }
                _ => None,
            },
            _ => None,
        };
        let takes_integer = start
            .and_then(|f| f.parameters.first())
            .is_some_and(|p| integer(&p.ty));
        if takes_integer && c.arguments.get(3).is_some_and(|(o, _)| !is_number(defs, o)) {
            return true;
        }
    }
    c.arguments
        .iter()
        .zip(params)
        .any(|((o, _), ty)| pointer(o) && integer(ty))
}

/// The functions that format their arguments into memory, each with the number of its
/// arguments up to the format.
const FORMATTING: [(&str, usize); 3] = [("snprintf", 3), ("sprintf", 2), ("asprintf", 2)];

/// Whether call `i` formats a pointer by a conversion other than `%s` into memory (`%lu`
/// of a thread id where it is a pointer): the text holds its number, for the program to
/// read. (Printed to a stream, a number decides nothing in the program.)
fn formats_pointer_as_number(m: &Module, i: &Instruction) -> bool {
    let (Instruction::Call(c), Some(name)) = (i, super::loops::callee(i)) else {
        return false;
    };
    let Some(&(_, fixed)) = FORMATTING.iter().find(|(f, _)| *f == name) else {
        return false;
    };
    let pointer = |o: &Operand| matches!(m.types.type_of(o).as_ref(), Type::PointerType { .. });
    let rest = c.arguments.iter().skip(fixed).map(|(o, _)| o);
    let strings = c
        .arguments
        .get(fixed.wrapping_sub(1))
        .and_then(|(f, _)| constant_text(m, f))
        .and_then(|f| super::format::printed_as_strings(&f));
    match strings {
        Some(strings) => rest
            .enumerate()
            .any(|(k, o)| pointer(o) && !strings.get(k).copied().unwrap_or(false)),
        // (The lowering refuses a format it cannot read.)
        None => rest.clone().any(pointer),
    }
}

/// The bytes of the string constant `o` points to, up to its end or its first zero.
fn constant_text(m: &Module, o: &Operand) -> Option<Vec<u8>> {
    let Operand::ConstantOperand(c) = o else {
        return None;
    };
    let (name, skip) = match c.as_ref() {
        Constant::GlobalReference { name, .. } => (name, 0),
        Constant::GetElementPtr(g) => match (g.address.as_ref(), &g.indices[..]) {
            (Constant::GlobalReference { name, .. }, [k]) => match k.as_ref() {
                Constant::Int { value, .. } => (name, *value as usize),
                _ => return None,
            },
            _ => return None,
        },
        _ => return None,
    };
    let g = m.global_vars.iter().find(|g| g.name == *name)?;
    let Constant::Array { elements, .. } = g.initializer.as_ref()?.as_ref() else {
        return None;
    };
    let bytes = elements.iter().skip(skip).map(|e| match e.as_ref() {
        Constant::Int { value, .. } => Some(*value as u8),
        _ => None,
    });
    bytes.take_while(|b| *b != Some(0)).collect()
}

/// Whether constant `c` converts a pointer to an integer somewhere inside.
fn converts(c: &Constant) -> bool {
    match c {
        Constant::PtrToInt(x) => !number_based(&x.operand),
        Constant::Struct { values, .. } => values.iter().any(|v| converts(v)),
        Constant::Array { elements, .. } => elements.iter().any(|v| converts(v)),
        Constant::Vector(elements) => elements.iter().any(|v| converts(v)),
        Constant::GetElementPtr(g) => converts(&g.address),
        Constant::BitCast(x) => converts(&x.operand),
        Constant::Add(x) => converts(&x.operand0) || converts(&x.operand1),
        // (The difference of two addresses in one global is an offset.)
        Constant::Sub(x) => match (x.operand0.as_ref(), x.operand1.as_ref()) {
            (Constant::PtrToInt(a), Constant::PtrToInt(b))
                if constant_root(&a.operand).is_some()
                    && constant_root(&a.operand) == constant_root(&b.operand) =>
            {
                false
            }
            _ => converts(&x.operand0) || converts(&x.operand1),
        },
        _ => false,
    }
}

/// Whether constant pointer `c` is a number with an offset (null or a constant integer
/// converted to a pointer, through `getelementptr`s): converted back it is that number in a
/// run and in the model alike. (`(size_t)&((struct s *)0)->member`, the `offsetof` of the
/// `container_of` idiom, is one.)
fn number_based(c: &Constant) -> bool {
    match c {
        Constant::Null(_) => true,
        Constant::IntToPtr(x) => matches!(x.operand.as_ref(), Constant::Int { .. }),
        Constant::GetElementPtr(g) => number_based(&g.address),
        Constant::BitCast(x) => number_based(&x.operand),
        Constant::AddrSpaceCast(x) => number_based(&x.operand),
        _ => false,
    }
}

/// The registers of `f` holding addresses converted to integers
/// ([`super::pointers::address_registers`]) whose only uses are differences of pointers
/// ([`super::pointers::subtracts_pointers`]), which the lowering makes up unless both lie in
/// one block, remainders modulo a power of two ([`super::pointers::remainder_of_address`]),
/// made up unless the block is so aligned, and registers of this set with 0 added or
/// subtracted. (Uses are counted in the instructions' and terminators' text, which names
/// every operand.)
fn offsets_only<'f>(m: &Module, f: &'f Function) -> HashSet<&'f Name> {
    let instrs = || f.basic_blocks.iter().flat_map(|b| &b.instrs);
    let addresses = super::pointers::address_registers(f);
    if addresses.is_empty() {
        return HashSet::new();
    }
    let defs = definitions(f);
    let is_ptrtoint = |n: &Name| matches!(defs.get(n), Some(Instruction::PtrToInt(_)));
    let local = |o: &'f Operand| match o {
        Operand::LocalOperand { name, .. } => Some(name),
        _ => None,
    };
    // Each use of an address register in a difference or a remainder, and each use in a
    // register of `addresses` (with the register).
    let mut good: HashMap<&Name, usize> = HashMap::new();
    let mut derived: Vec<(&Name, &Name)> = Vec::new();
    for i in instrs() {
        match i {
            Instruction::Sub(s) if super::pointers::subtracts_pointers(m, s, is_ptrtoint) => {
                for name in [&s.operand0, &s.operand1].into_iter().filter_map(local) {
                    *good.entry(name).or_default() += 1;
                }
            }
            _ => {
                if let Some((x, _)) =
                    super::pointers::remainder_of_address(m, i, |n| addresses.contains(n))
                {
                    if let Some(name) = local(x) {
                        *good.entry(name).or_default() += 1;
                    }
                } else if let Some(dest) = i.try_get_result().filter(|d| addresses.contains(d)) {
                    if !matches!(i, Instruction::PtrToInt(_)) {
                        let ops = super::lower::operands(i);
                        if let Some(name) = ops.into_iter().find_map(local) {
                            derived.push((name, dest));
                        }
                    }
                }
            }
        }
    }
    // Every use of each, counted in the text of the function's instructions and terminators.
    let texts: Vec<String> = instrs()
        .map(|i| i.to_string())
        .chain(f.basic_blocks.iter().map(|b| b.term.to_string()))
        .collect();
    let uses = |name: &Name| -> usize {
        let token = name.to_string();
        // (The definition names it once.)
        texts.iter().map(|t| occurrences(t, &token)).sum::<usize>() - 1
    };
    let total: HashMap<&Name, usize> = addresses.iter().map(|n| (*n, uses(n))).collect();
    // The greatest set whose every use is good or a register of the set.
    let mut set: HashSet<&Name> = addresses.clone();
    loop {
        let keep: HashSet<&Name> = set
            .iter()
            .copied()
            .filter(|n| {
                let inside = derived
                    .iter()
                    .filter(|(from, to)| from == n && set.contains(to))
                    .count();
                good.get(n).copied().unwrap_or(0) + inside == total[n]
            })
            .collect();
        if keep.len() == set.len() {
            return set;
        }
        set = keep;
    }
}

/// Occurrences of value name `token` (`%x`) in `text` as a whole name.
fn occurrences(text: &str, token: &str) -> usize {
    let name_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '$' | '-');
    text.match_indices(token)
        .filter(|(at, _)| {
            !text[at + token.len()..]
                .chars()
                .next()
                .is_some_and(name_char)
        })
        .count()
}

/// The global a constant pointer is an offset of, if any.
fn constant_root(c: &Constant) -> Option<String> {
    match c {
        Constant::GlobalReference { name, .. } => Some(format!("@{name}")),
        Constant::GetElementPtr(g) => constant_root(&g.address),
        Constant::BitCast(x) => constant_root(&x.operand),
        Constant::AddrSpaceCast(x) => constant_root(&x.operand),
        _ => None,
    }
}
