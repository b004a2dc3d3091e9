//! Lowering of an LLVM module (after `mem2reg`) to the thread IR.
//!
//! How the module maps to the program model of `DESIGN.md` ("Program model", "Memory model"):
//!
//! * **Threads**: `main` plus one thread per `pthread_create` executed; every call is inlined
//!   into the calling thread (recursion is reported as unsupported). A thread's registers are
//!   its local variables, one per register and inlined call; a pure instruction used only in
//!   its own basic block is substituted into its uses instead.
//! * **Values**: an LLVM `iN` is the IR's `N`-bit two's complement integer; arithmetic with
//!   `nsw` is signed (overflow is undefined, as in C), other arithmetic wraps. Pointers are
//!   64-bit addresses `(object, byte offset)` ([`crate::ir::address`]); a pointer whose object
//!   is known while lowering (a global, an `alloca`, a field of either) stays symbolic, so that
//!   its loads and stores name the variable they access.
//! * **Memory**: every global and every `alloca` (per thread and inlined call) is an object,
//!   flattened into one IR variable per scalar field ([`super::layout`]), placed at the field's
//!   byte offsets ([`crate::ir::Placement`]). A load or store is one transition (one memory
//!   event); the local computations before it run in the same transition.
//! * **Control flow**: a basic block starts a location; branches and switches are guarded
//!   transitions, phis are assignments on the edges.
//!
//! Calls of the concurrency API, of `__VERIFIER_*` and of libc are modelled in
//! [`super::calls`].

use super::super::{Error, Options};
use super::layout::{int_ty, Layout, Leaf};
use crate::ir::*;
use llvm_ir::constant::Constant;
use llvm_ir::instruction::{self as ins, Instruction};
use llvm_ir::terminator::Terminator;
use llvm_ir::types::Type;
use llvm_ir::{Function, HasDebugLoc, IntPredicate, Module, Name, Operand, TypeRef};
use std::collections::{HashMap, HashSet, VecDeque};

pub(super) type R<T> = Result<T, Error>;

pub(super) use super::super::finalize::MAX_COND_THREADS;

/// An object: a global or `alloca`, flattened into variables.
#[derive(Clone, Debug)]
pub(super) struct Cells {
    /// Its variables with their cell families.
    pub leaves: Vec<(Leaf, VarId)>,
    /// Its size in bytes.
    pub size: u64,
}

/// A value while lowering.
#[derive(Clone, Debug)]
pub(super) enum Val {
    /// An integer or a run-time address (no memory reads: loads are in registers).
    E(Expr),
    /// A pointer into a known object (its first variable): `off` bytes plus `dyn` terms
    /// `index * stride`.
    P {
        obj: VarId,
        off: i64,
        dyn_: Vec<(Expr, u64)>,
    },
    /// A function.
    F(String),
    /// An aggregate (the `{ old, success }` pair of `cmpxchg`).
    Tuple(Vec<Val>),
}

pub(super) struct ThreadB {
    pub locations: Vec<Location>,
    pub transitions: Vec<Transition>,
}

/// A thread still to lower.
struct Pending {
    tid: ThreadId,
    func: String,
    arg: Option<Val>,
    created_by: (ThreadId, TransId),
}

/// An assignment of constants to specialised phis (by their number in the function), on
/// a cycle that starts threads the number of threads started ([`THREADS_STARTED`]), and
/// inside an atomic region its depth ([`ATOMIC_DEPTH`]): a context in which the lowering
/// copies a block ([`super::loops`]).
pub(super) type Env = Vec<(usize, i128)>;

/// The key of an [`Env`] that holds how many threads the program had when the lowering
/// entered a block on a cycle that starts threads ([`FnFacts::creation_cycles`]).
const THREADS_STARTED: usize = usize::MAX;

/// The key of an [`Env`] that holds the depth of nested atomic regions
/// (`__VERIFIER_atomic_begin`) at a block's entry, relative to the call's: a region may
/// end on each of two branches (`begin; if (c) { end; return; } ...; end;`), so the depth
/// is a property of the path, not of the order in which the blocks are lowered.
const ATOMIC_DEPTH: usize = usize::MAX - 1;

/// Deepest nesting of atomic regions (a loop that begins one per round has no bound).
const MAX_ATOMIC_DEPTH: i128 = 16;

/// Thread-specific data keys a program may create (`pthread_key_create`).
pub(super) const MAX_KEYS: usize = 16;

/// Most contexts of one block (unrolled iterations of a loop that starts threads).
const MAX_CONTEXTS: usize = 256;

/// One inlined call.
pub(super) struct Frame<'m> {
    pub func: &'m Function,
    /// Register values per context (index into `envs`).
    maps: Vec<HashMap<&'m Name, Val>>,
    envs: Vec<Env>,
    ctxs: HashMap<Env, usize>,
    /// The context being lowered.
    ctx: usize,
    /// The location of each (block, context) lowered or to lower.
    blocks: HashMap<(usize, usize), LocId>,
    work: VecDeque<(usize, usize)>,
    /// Contexts made per block.
    made: HashMap<usize, usize>,
    index: HashMap<&'m Name, usize>,
    phi_ids: HashMap<&'m Name, usize>,
    phi_vars: HashMap<&'m Name, (VarId, Ty)>,
    /// The return value's type and the variables of its scalars.
    pub ret: Option<(TypeRef, Vec<(VarId, Ty)>)>,
    pub ret_loc: LocId,
    /// Registers that need a variable: used outside their block or by a phi.
    pub needs_var: &'m HashSet<Name>,
    /// Registers some instruction reads.
    pub used: &'m HashSet<Name>,
    /// Phis specialised on constant values ([`super::loops`]).
    spec: &'m HashSet<Name>,
    /// Per block: the specialised phis whose values are read from its start on
    /// ([`super::loops::specialisation`]).
    spec_live: &'m [HashSet<Name>],
    /// The phis by their number in [`Frame::phi_ids`].
    phi_names: Vec<&'m Name>,
    /// The blocks on a cycle of the function's control flow.
    on_cycle: &'m [bool],
    /// The blocks on a cycle that starts threads.
    creation_cycles: &'m [bool],
    /// The block being lowered.
    pub cur_block: usize,
    /// The objects of the function's local variables (its `alloca`s): dead once it returns.
    locals: HashSet<VarId>,
    /// The `alloca`s whose address may be used after the function returns.
    escaping: &'m HashSet<Name>,
    /// The status cells of the locals that have a lifetime (escaping ones and
    /// variable-length arrays), freed when the function returns or the thread exits.
    lifetimes: Vec<VarId>,
    /// The object holding a variadic call's variable arguments, which `va_start` points its
    /// `va_list` to ([`Lowerer::variable_arguments`]).
    pub varargs: Option<VarId>,
    /// The caller's register the call's result goes to.
    pub result: Option<&'m Name>,
    /// The call it is inlined through (`None` for a thread's start function).
    call_at: Option<[u32; 2]>,
    /// The depth of atomic regions at the call.
    base_depth: u32,
    /// The depth of atomic regions at the returns lowered so far.
    ret_depth: Option<u32>,
}

impl<'m> Frame<'m> {
    /// Whether the block being lowered is on a cycle of the function.
    pub fn on_cycle(&self) -> bool {
        self.on_cycle.get(self.cur_block).copied().unwrap_or(false)
    }

    /// The value of a register in the current context.
    pub fn reg(&self, n: &Name) -> Option<&Val> {
        self.maps[self.ctx].get(n)
    }

    /// Binds a register in the current context.
    pub fn set_reg(&mut self, n: &'m Name, v: Val) {
        self.maps[self.ctx].insert(n, v);
    }

    /// The context for `env`, made from the current one's registers when new.
    fn context(&mut self, env: Env) -> usize {
        if let Some(c) = self.ctxs.get(&env) {
            // Registers bound on another path into this context.
            let c = *c;
            if c != self.ctx {
                let (from, to) = if c < self.ctx {
                    let (a, b) = self.maps.split_at_mut(self.ctx);
                    (&b[0], &mut a[c])
                } else {
                    let (a, b) = self.maps.split_at_mut(c);
                    (&a[self.ctx], &mut b[0])
                };
                for (k, v) in from {
                    to.entry(*k).or_insert_with(|| v.clone());
                }
            }
            return c;
        }
        let c = self.maps.len();
        let m = self.maps[self.ctx].clone();
        self.maps.push(m);
        self.envs.push(env.clone());
        self.ctxs.insert(env, c);
        c
    }
}

/// What the lowering needs to know of a function before inlining it.
pub(super) struct FnFacts {
    /// Registers used outside their block or by a phi.
    needs_var: HashSet<Name>,
    /// Registers some instruction reads.
    used: HashSet<Name>,
    /// Phis specialised on constant values.
    spec_phis: HashSet<Name>,
    /// Per block: the specialised phis whose value is still read from its start on.
    spec_live: Vec<HashSet<Name>>,
    /// The blocks on a cycle.
    on_cycle: Vec<bool>,
    /// The blocks on a cycle through a block that starts threads
    /// ([`super::loops::specialisation`]): copied per number of threads started.
    creation_cycles: Vec<bool>,
    /// The module-wide number of each block's first instruction ([`instruction_numbers`]).
    block_base: Vec<u32>,
    /// The `alloca`s whose address may be used after the function returns
    /// ([`super::escape`]).
    escaping: HashSet<Name>,
    /// The registers of `ptrtoint`s.
    converted: HashSet<Name>,
    /// The registers that hold addresses converted to integers
    /// ([`super::pointers::address_registers`]).
    addresses: HashSet<Name>,
}

/// The lowering state.
pub(super) struct Lowerer<'m> {
    pub m: &'m Module,
    pub layout: Layout<'m>,
    /// `argv` of `main`: the program's name, then the arguments it is verified with.
    arguments: Vec<String>,
    pub opts: &'m Options,
    /// Source files by debug-info name; index 0 is the main file.
    pub files: Vec<String>,
    pub vars: Vec<Var>,
    pub objects: HashMap<VarId, Cells>,
    /// The objects in the order they were made, for [`Program::objects`].
    pub made: Vec<crate::ir::Object>,
    /// The objects of allocation sites ([`super::heap`]).
    pub heap_sites: HashSet<VarId>,
    /// Thread-local globals (`__thread`): made per thread when first used.
    pub tls_globals: HashMap<String, (TypeRef, Option<llvm_ir::ConstantRef>)>,
    /// The objects of thread-local variables, by name and thread.
    tls: HashMap<(String, ThreadId), VarId>,
    /// `pthread_cond_signal` transitions, expanded once all threads are known.
    pub signals: Vec<(ThreadId, TransId)>,
    /// Comparisons and differences of pointers, completed once all threads are known
    /// ([`super::pointers`]).
    pub within_blocks: Vec<super::pointers::WithinBlock>,
    /// The alignment every run gives the first byte of each object (of each instance, for an
    /// object of several), where it is more than 1 ([`super::pointers`]).
    pub alignments: HashMap<VarId, u64>,
    /// The functions whose address the program takes, each an object of one byte (so that
    /// function pointers are distinct, non-null addresses).
    pub fn_objects: HashMap<String, VarId>,
    /// Objects of constant globals (string literals): never written.
    pub const_objects: HashSet<VarId>,
    /// What the lowering assumed of the program (external functions it havocs).
    pub warnings: Vec<String>,
    /// Each function's control flow, for rebuilding assumptions ([`super::awaits`]).
    pub flows: HashMap<&'m str, std::rc::Rc<super::awaits::Flow<'m>>>,
    /// The ghost counter of `pthread_key_create`'s keys.
    pub keys: Option<VarId>,
    /// The destructors `pthread_key_create` calls name (functions), in a fixed order, and
    /// the ghost table of each key's destructor (its position there plus one; 0 for none).
    pub key_dtors: Option<(Vec<String>, VarId)>,
    /// Per limit of the model (by the name that says why): the ghost variable whose
    /// out-of-bounds write marks an execution past it ([`Lowerer::model_limit`]).
    limits: HashMap<String, VarId>,
    /// Whether a `pthread_create` met the thread bound (and fails with `EAGAIN`).
    pub bounded: bool,
    /// Whether a thread calls `pthread_self` ([`Program::asks_own_id`]).
    pub asks_own_id: bool,
    /// Whether `main` may end its thread by `pthread_exit` (then its locals' lifetimes end
    /// while the program goes on).
    main_exits_thread: bool,
    /// The refused creation the call being lowered made, if any.
    pub last_refusal: Option<TransId>,
    /// The block of the stream the program's call of `fopen` or `fdopen` being lowered opens
    /// ([`Lowerer::opened_stream`]), which the model's `__synth_stream_block` answers.
    pub(super) stream_block: Option<Val>,
    /// The creations met (`new_thread`), in order: the copy of `pthread_create` and how many
    /// of its creations came before.
    creations: Vec<crate::frontend::Creation>,
    /// Per copy of `pthread_create`, how many of its creations were met.
    copy_counts: HashMap<crate::frontend::CreationCopy, u32>,
    /// How many of the favoured creations were met ([`crate::frontend::Options::creations`]),
    /// per start function.
    favoured_met_by_function: HashMap<String, usize>,
    /// The defined functions whose address the program takes: those a thread may start.
    thread_functions: Vec<String>,
    /// Per (thread, function, register): the refused creations whose result it holds.
    refused_results: HashMap<(ThreadId, usize, &'m Name), Vec<TransId>>,
    /// Whether the program gives mutexes a type (recursive, error-checking): then locking
    /// reads the mutex's kind.
    pub typed_mutexes: bool,
    /// The waits on condition variables: the thread, and the cell it waits on.
    pub waits: Vec<(u32, Place)>,
    pub globals: HashMap<String, VarId>,
    pub(super) funcs: HashMap<&'m str, &'m Function>,
    facts: &'m HashMap<&'m str, FnFacts>,
    pub threads: Vec<(Thread, ThreadB)>,
    queue: VecDeque<Pending>,
    pub thread_done: VarId,
    /// Per thread, whether it was detached (`pthread_detach`, or created detached), where
    /// the program detaches.
    pub thread_detached: Option<VarId>,
    /// `__thread_ret`: each thread's return value (for `pthread_join`).
    pub thread_ret: VarId,
    // The thread being lowered.
    pub tid: ThreadId,
    pub tb: ThreadB,
    pub cur: LocId,
    /// exit, error, halt, discard.
    pub special: [LocId; 4],
    pub span: Option<Span>,
    /// The instruction being lowered and, for a branch arm, its successor
    /// ([`Transition::at`]).
    pub at: Option<[u32; 2]>,
    pub frames: Vec<Frame<'m>>,
    pub atomic_depth: u32,
    /// The transition that began the current atomic region ([`Lowerer::begin_atomic`]).
    pub atomic_begin: Option<TransId>,
    /// Steps of branches and switches decided in some copy: thread, step, instruction and
    /// successor ([`Lowerer::arms_of_decided_copies`]).
    decided: Vec<(ThreadId, TransId, u32, u32)>,
    /// The branches and switches with arms in some copy.
    taken: HashSet<u32>,
    /// Local assignments (registers only) waiting for the next transition.
    pub pending: Vec<Op>,
    total: usize,
    temps: u32,
}

/// Lowers a module; [`crate::frontend::finalize`] completes the program.
/// Also returns the source files spans refer to (index 0: the main file).
/// The program's name, `argv[0]`: the stem of its main file.
fn program_name(main_file: &str) -> String {
    std::path::Path::new(main_file)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "a.out".into())
}

pub(super) fn lower(
    m: &Module,
    opts: &Options,
    main_file: &str,
) -> R<(Program, Vec<String>, Vec<crate::frontend::Creation>)> {
    let creating = super::loops::creating_functions(m);
    let numbers = instruction_numbers(m);
    let mut escaping = super::escape::escaping_locals(m);
    let facts: HashMap<&str, FnFacts> = m
        .functions
        .iter()
        .zip(numbers)
        .map(|(f, block_base)| {
            let (spec_phis, spec_live, creation_cycles) =
                super::loops::specialisation(f, &creating);
            let facts = FnFacts {
                needs_var: needs_var(f),
                used: used(f),
                spec_live,
                spec_phis,
                on_cycle: super::loops::on_cycle(f),
                creation_cycles,
                block_base,
                escaping: escaping.remove(f.name.as_str()).unwrap_or_default(),
                converted: (f.basic_blocks.iter().flat_map(|b| &b.instrs))
                    .filter_map(|i| match i {
                        Instruction::PtrToInt(p) => Some(p.dest.clone()),
                        _ => None,
                    })
                    .collect(),
                addresses: (super::pointers::address_registers(f).into_iter().cloned()).collect(),
            };
            (f.name.as_str(), facts)
        })
        .collect();
    let mut l = Lowerer {
        m,
        layout: Layout::new(&m.types),
        opts,
        files: vec![main_file.to_string()],
        arguments: std::iter::once(program_name(main_file))
            .chain(opts.arguments.iter().cloned())
            .collect(),
        vars: Vec::new(),
        objects: HashMap::new(),
        heap_sites: HashSet::new(),
        signals: Vec::new(),
        within_blocks: Vec::new(),
        alignments: HashMap::new(),
        typed_mutexes: false,
        bounded: false,
        asks_own_id: false,
        main_exits_thread: super::loops::functions_calling(m, "pthread_exit").contains("main"),
        last_refusal: None,
        stream_block: None,
        creations: Vec::new(),
        copy_counts: HashMap::new(),
        favoured_met_by_function: HashMap::new(),
        thread_functions: (super::loops::address_taken_functions(m).into_iter())
            .filter(|f| m.functions.iter().any(|g| &g.name == f))
            .collect(),
        refused_results: HashMap::new(),
        limits: HashMap::new(),
        keys: None,
        key_dtors: None,
        flows: HashMap::new(),
        const_objects: HashSet::new(),
        warnings: Vec::new(),
        fn_objects: HashMap::new(),
        tls_globals: HashMap::new(),
        tls: HashMap::new(),
        waits: Vec::new(),
        made: Vec::new(),
        globals: HashMap::new(),
        funcs: m.functions.iter().map(|f| (f.name.as_str(), f)).collect(),
        facts: &facts,
        threads: Vec::new(),
        queue: VecDeque::new(),
        thread_done: VarId(0),
        thread_detached: None,
        thread_ret: VarId(0),
        tid: ThreadId(0),
        tb: ThreadB {
            locations: Vec::new(),
            transitions: Vec::new(),
        },
        cur: LocId(0),
        special: [LocId(0); 4],
        span: None,
        at: None,
        frames: Vec::new(),
        atomic_depth: 0,
        atomic_begin: None,
        decided: Vec::new(),
        taken: HashSet::new(),
        pending: Vec::new(),
        total: 0,
        temps: 0,
    };
    let p = l.run()?;
    Ok((p, l.files, l.creations))
}

/// The number of the first instruction of each block of each defined function, counting the
/// instructions (terminators included) of the module's defined functions in order: the
/// identity of an instruction that [`Transition::at`] records and the instrumentation of
/// `synth build` finds again in the same module.
fn instruction_numbers(m: &Module) -> Vec<Vec<u32>> {
    let mut n = 0u32;
    m.functions
        .iter()
        .map(|f| {
            f.basic_blocks
                .iter()
                .map(|b| {
                    let first = n;
                    n += b.instrs.len() as u32 + 1;
                    first
                })
                .collect()
        })
        .collect()
}

/// The number of instructions of each defined function of `m`, in order
/// ([`crate::ir::Bitcode::functions`]).
pub(super) fn function_sizes(m: &Module) -> Vec<(String, u32)> {
    m.functions
        .iter()
        .map(|f| {
            let n = f
                .basic_blocks
                .iter()
                .map(|b| b.instrs.len() as u32 + 1)
                .sum();
            (f.name.clone(), n)
        })
        .collect()
}

/// The registers of a function that need a variable: used in another block than their own,
/// or by a phi.
fn needs_var(f: &Function) -> HashSet<Name> {
    let mut def_block: HashMap<&Name, usize> = HashMap::new();
    for (b, bb) in f.basic_blocks.iter().enumerate() {
        for i in &bb.instrs {
            if let Some(d) = i.try_get_result() {
                def_block.insert(d, b);
            }
        }
    }
    let mut out = HashSet::new();
    let note = |op: &Operand, b: usize, phi: bool, out: &mut HashSet<Name>| {
        if let Operand::LocalOperand { name, .. } = op {
            if phi || def_block.get(name).is_some_and(|d| *d != b) {
                out.insert(name.clone());
            }
        }
    };
    for (b, bb) in f.basic_blocks.iter().enumerate() {
        for i in &bb.instrs {
            let phi = matches!(i, Instruction::Phi(_));
            for op in operands(i) {
                note(op, b, phi, &mut out);
            }
        }
        for op in term_operands(&bb.term) {
            note(op, b, false, &mut out);
        }
    }
    out.extend(unevaluated_checks(f, &out));
    out
}

/// Whether an instruction is floating point arithmetic, a comparison of floating point
/// values or a conversion to or from floating point: an arbitrary value in the model
/// ([`Lowerer::opaque_float`]), which does not read its operands.
fn is_float(i: &Instruction) -> bool {
    use Instruction as I;
    matches!(
        i,
        I::FAdd(_)
            | I::FSub(_)
            | I::FMul(_)
            | I::FDiv(_)
            | I::FRem(_)
            | I::FNeg(_)
            | I::FCmp(_)
            | I::FPTrunc(_)
            | I::FPExt(_)
            | I::FPToUI(_)
            | I::FPToSI(_)
            | I::UIToFP(_)
            | I::SIToFP(_)
    )
}

/// Whether an instruction's result is undefined for some operands, which C makes undefined
/// behaviour where it is computed: signed overflow (`nsw`), division by zero, a shift past the
/// width.
fn may_be_undefined(i: &Instruction) -> bool {
    use Instruction as I;
    match i {
        I::Add(x) => x.nsw,
        I::Sub(x) => x.nsw,
        I::Mul(x) => x.nsw,
        I::UDiv(_) | I::SDiv(_) | I::URem(_) | I::SRem(_) => true,
        I::Shl(_) | I::LShr(_) | I::AShr(_) => true,
        // `abs` of the least value, where the flag makes it undefined (C's `abs`).
        I::Call(_) => super::loops::callee(i).is_some_and(|c| c.starts_with("llvm.abs.")),
        _ => false,
    }
}

/// The registers of instructions that may be undefined ([`may_be_undefined`]) whose value no
/// use is sure to evaluate: a register substituted into its uses is evaluated only where a use
/// is, and no use evaluates it where it is unused, an argument of a call (a library model may
/// not read it: `printf`'s models do not), a value returned (the caller may drop it) or an arm
/// of a `select`. They get a variable, so that they are computed where the program computes
/// them and their undefined behaviour is seen. `evaluated` holds the registers that get a
/// variable anyway.
fn unevaluated_checks<'f>(f: &'f Function, evaluated: &'f HashSet<Name>) -> Vec<Name> {
    use Instruction as I;
    let mut forced: HashSet<&'f Name> = evaluated.iter().collect();
    fn force<'f>(op: &'f Operand, forced: &mut HashSet<&'f Name>) {
        if let Operand::LocalOperand { name, .. } = op {
            forced.insert(name);
        }
    }
    let mut out = Vec::new();
    for bb in &f.basic_blocks {
        // (A `switch` without cases jumps to its default whatever its operand is.)
        let decides = match &bb.term {
            Terminator::CondBr(_) | Terminator::IndirectBr(_) => true,
            Terminator::Switch(x) => !x.dests.is_empty(),
            _ => false,
        };
        if decides {
            for op in term_operands(&bb.term) {
                force(op, &mut forced);
            }
        }
        // (Uses follow their definition in a block; uses in other blocks get a variable.)
        for i in bb.instrs.iter().rev() {
            let result_forced = i.try_get_result().is_some_and(|d| forced.contains(d));
            match i {
                // Computed where its result is.
                I::Add(_)
                | I::Sub(_)
                | I::Mul(_)
                | I::UDiv(_)
                | I::SDiv(_)
                | I::URem(_)
                | I::SRem(_)
                | I::And(_)
                | I::Or(_)
                | I::Xor(_)
                | I::Shl(_)
                | I::LShr(_)
                | I::AShr(_)
                | I::ICmp(_)
                | I::GetElementPtr(_)
                | I::Trunc(_)
                | I::ZExt(_)
                | I::SExt(_)
                | I::PtrToInt(_)
                | I::IntToPtr(_)
                | I::BitCast(_)
                | I::Freeze(_)
                | I::AddrSpaceCast(_)
                | I::ExtractValue(_)
                | I::InsertValue(_) => {
                    if result_forced {
                        for op in operands(i) {
                            force(op, &mut forced);
                        }
                    }
                }
                I::Select(x) => {
                    if result_forced {
                        force(&x.condition, &mut forced);
                    }
                }
                I::Call(_) | I::Phi(_) => {}
                // Floating point is arbitrary in the model: its operands are not read.
                _ if is_float(i) => {}
                // Loads, stores, atomics, allocations: computed where they are.
                _ => {
                    for op in operands(i) {
                        force(op, &mut forced);
                    }
                }
            }
            if may_be_undefined(i) && !result_forced {
                if let Some(d) = i.try_get_result() {
                    out.push(d.clone());
                }
            }
        }
    }
    out
}

/// The registers of a function that some instruction or terminator reads.
fn used(f: &Function) -> HashSet<Name> {
    f.basic_blocks
        .iter()
        .flat_map(|bb| {
            bb.instrs
                .iter()
                .flat_map(operands)
                .chain(term_operands(&bb.term))
        })
        .filter_map(|op| match op {
            Operand::LocalOperand { name, .. } => Some(name.clone()),
            _ => None,
        })
        .collect()
}

/// The operands an instruction reads.
pub(super) fn operands(i: &Instruction) -> Vec<&Operand> {
    use Instruction as I;
    match i {
        I::Add(x) => vec![&x.operand0, &x.operand1],
        I::Sub(x) => vec![&x.operand0, &x.operand1],
        I::Mul(x) => vec![&x.operand0, &x.operand1],
        I::UDiv(x) => vec![&x.operand0, &x.operand1],
        I::SDiv(x) => vec![&x.operand0, &x.operand1],
        I::URem(x) => vec![&x.operand0, &x.operand1],
        I::SRem(x) => vec![&x.operand0, &x.operand1],
        I::And(x) => vec![&x.operand0, &x.operand1],
        I::Or(x) => vec![&x.operand0, &x.operand1],
        I::Xor(x) => vec![&x.operand0, &x.operand1],
        I::Shl(x) => vec![&x.operand0, &x.operand1],
        I::LShr(x) => vec![&x.operand0, &x.operand1],
        I::AShr(x) => vec![&x.operand0, &x.operand1],
        I::ICmp(x) => vec![&x.operand0, &x.operand1],
        I::Load(x) => vec![&x.address],
        I::Store(x) => vec![&x.address, &x.value],
        I::GetElementPtr(x) => {
            let mut v = vec![&x.address];
            v.extend(x.indices.iter());
            v
        }
        I::Trunc(x) => vec![&x.operand],
        I::ZExt(x) => vec![&x.operand],
        I::SExt(x) => vec![&x.operand],
        I::PtrToInt(x) => vec![&x.operand],
        I::IntToPtr(x) => vec![&x.operand],
        I::BitCast(x) => vec![&x.operand],
        I::Freeze(x) => vec![&x.operand],
        I::Select(x) => vec![&x.condition, &x.true_value, &x.false_value],
        I::Phi(x) => x.incoming_values.iter().map(|(o, _)| o).collect(),
        I::Call(x) => {
            let mut v: Vec<&Operand> = x.arguments.iter().map(|(o, _)| o).collect();
            if let either::Either::Right(f) = &x.function {
                v.push(f);
            }
            v
        }
        I::CmpXchg(x) => vec![&x.address, &x.expected, &x.replacement],
        I::AtomicRMW(x) => vec![&x.address, &x.value],
        I::ExtractValue(x) => vec![&x.aggregate],
        I::InsertValue(x) => vec![&x.aggregate, &x.element],
        I::Alloca(x) => vec![&x.num_elements],
        I::FAdd(x) => vec![&x.operand0, &x.operand1],
        I::FSub(x) => vec![&x.operand0, &x.operand1],
        I::FMul(x) => vec![&x.operand0, &x.operand1],
        I::FDiv(x) => vec![&x.operand0, &x.operand1],
        I::FRem(x) => vec![&x.operand0, &x.operand1],
        I::FNeg(x) => vec![&x.operand],
        I::FCmp(x) => vec![&x.operand0, &x.operand1],
        I::FPTrunc(x) => vec![&x.operand],
        I::FPExt(x) => vec![&x.operand],
        I::FPToUI(x) => vec![&x.operand],
        I::FPToSI(x) => vec![&x.operand],
        I::UIToFP(x) => vec![&x.operand],
        I::SIToFP(x) => vec![&x.operand],
        I::AddrSpaceCast(x) => vec![&x.operand],
        I::ExtractElement(x) => vec![&x.vector, &x.index],
        I::InsertElement(x) => vec![&x.vector, &x.element, &x.index],
        I::ShuffleVector(x) => vec![&x.operand0, &x.operand1],
        I::VAArg(x) => vec![&x.arg_list],
        I::Fence(_) | I::LandingPad(_) | I::CatchPad(_) | I::CleanupPad(_) => vec![],
    }
}

pub(super) fn term_operands(t: &Terminator) -> Vec<&Operand> {
    match t {
        Terminator::Ret(r) => r.return_operand.iter().collect(),
        Terminator::CondBr(b) => vec![&b.condition],
        Terminator::Switch(s) => vec![&s.operand],
        Terminator::IndirectBr(b) => vec![&b.operand],
        Terminator::Invoke(i) => {
            let mut v: Vec<&Operand> = i.arguments.iter().map(|(o, _)| o).collect();
            if let either::Either::Right(f) = &i.function {
                v.push(f);
            }
            v
        }
        Terminator::Resume(r) => vec![&r.operand],
        Terminator::CallBr(c) => c.arguments.iter().map(|(o, _)| o).collect(),
        Terminator::CleanupRet(r) => vec![&r.cleanup_pad],
        Terminator::CatchRet(r) => vec![&r.catch_pad],
        Terminator::CatchSwitch(c) => vec![&c.parent_pad],
        Terminator::Br(_) | Terminator::Unreachable(_) => vec![],
    }
}

/// `a op b` of type `ty`.
pub(super) fn bin(op: BinOp, a: Expr, b: Expr, ty: Ty) -> Expr {
    Expr::Binary {
        op,
        lhs: Box::new(a),
        rhs: Box::new(b),
        ty,
    }
}

/// `e` converted to `ty` (no conversion when it has that type).
pub(super) fn cast(e: Expr, ty: Ty) -> Expr {
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

/// `c ? a : b`.
pub(super) fn ite(c: Expr, a: Expr, b: Expr, ty: Ty) -> Expr {
    Expr::Ite {
        cond: Box::new(c),
        then: Box::new(a),
        els: Box::new(b),
        ty,
    }
}

fn unsigned(t: Ty) -> Ty {
    Ty {
        bits: t.bits,
        signed: false,
    }
}

impl<'m> Lowerer<'m> {
    // ----------------------------------------------------------------- errors & positions

    /// `file:line:col` of the current instruction.
    pub fn here(&self) -> String {
        match &self.span {
            Some(s) => format!("{}:{}:{}", self.files[s.file as usize], s.line, s.col),
            None => self.files[0].clone(),
        }
    }

    pub fn unsupported<T>(&self, what: impl Into<String>) -> R<T> {
        Err(Error::Unsupported {
            position: self.here(),
            construct: what.into(),
        })
    }

    pub fn invalid<T>(&self, what: impl Into<String>) -> R<T> {
        Err(Error::Invalid {
            position: self.here(),
            message: what.into(),
        })
    }

    /// Sets the current span from an instruction's debug location.
    fn locate(&mut self, d: Option<&llvm_ir::DebugLoc>) {
        let Some(d) = d else { return };
        let path = match &d.directory {
            Some(dir) if !d.filename.starts_with('/') && !dir.is_empty() => {
                format!("{dir}/{}", d.filename)
            }
            _ => d.filename.clone(),
        };
        let file = if d.filename == self.files[0] || path == self.files[0] {
            0
        } else {
            match self.files.iter().position(|f| *f == path) {
                Some(i) => i,
                None => {
                    self.files.push(path);
                    self.files.len() - 1
                }
            }
        };
        let col = d.col.unwrap_or(1).max(1);
        self.span = Some(Span {
            file: file as u32,
            line: d.line,
            col,
            end_line: d.line,
            end_col: col + 1,
        });
    }

    // ----------------------------------------------------------------- variables and objects

    #[allow(clippy::too_many_arguments)]
    pub fn new_var(
        &mut self,
        name: String,
        elem: ElemKind,
        len: u32,
        is_array: bool,
        scope: VarScope,
        init: Init,
        placement: Option<Placement>,
    ) -> VarId {
        let id = VarId(self.vars.len() as u32);
        self.vars.push(Var {
            len,
            is_array,
            init,
            span: self.span,
            placement: placement.map(|p| Placement {
                object: if p.object.0 == u32::MAX { id } else { p.object },
                ..p
            }),
            ..Var::plain(id, name, elem, scope)
        });
        id
    }

    /// A value of type `ty` the model does not compute, in a register named `name` of the
    /// current thread that a step of its own sets to an arbitrary value.
    pub fn made_up(&mut self, name: &str, ty: Ty) -> R<Expr> {
        let r = self.temp(name, ty);
        self.step(
            Expr::tt(),
            vec![Op::Havoc {
                place: Place::scalar(r),
                ty,
            }],
            TransKind::Stmt,
        )?;
        Ok(Expr::var(r, ty))
    }

    /// A register of the current thread made up (an arbitrary value, not an input) by the
    /// next step, which runs the pending assignments first.
    pub fn made_up_pending(&mut self, name: &str, ty: Ty) -> VarId {
        let r = self.temp(name, ty);
        self.pending.push(Op::Havoc {
            place: Place::scalar(r),
            ty,
        });
        r
    }

    /// A register variable of the current thread.
    pub fn temp(&mut self, name: &str, ty: Ty) -> VarId {
        self.temps += 1;
        let func = self
            .frames
            .last()
            .map(|f| f.func.name.as_str())
            .unwrap_or("");
        let name = format!("{}::{}::{}", self.tid, func, name);
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

    /// Creates the variables of an object of LLVM type `t`; its id is its first variable's.
    pub fn new_object(&mut self, name: &str, t: &Type, scope: VarScope, init: Init) -> R<VarId> {
        let id = self.make_object(name, t, scope, init)?;
        let size = self.objects[&id].size;
        self.made.push(crate::ir::Object {
            var: id,
            name: name.to_string(),
            size,
        });
        Ok(id)
    }

    fn make_object(&mut self, name: &str, t: &Type, scope: VarScope, init: Init) -> R<VarId> {
        let size = self.layout.size(t).unwrap_or(0);
        let leaves = match self.layout.flatten(t) {
            Some(l) => l,
            // Too many cells to keep apart (arrays inside the elements of a large array):
            // the object is bytes, which every access reads and writes byte by byte.
            None if size > 0 => vec![Leaf {
                offset: 0,
                stride: 1,
                len: size,
                elem: ElemKind::Int(Ty::CHAR),
                width: 1,
                path: "[]".into(),
            }],
            None => return self.unsupported(format!("object `{name}` of type {t}")),
        };
        if leaves.is_empty() {
            // An empty struct: one byte that nothing reads.
            let id = self.new_var(
                name.to_string(),
                ElemKind::Int(Ty::CHAR),
                1,
                false,
                scope,
                Init::Zero,
                Some(Placement {
                    object: VarId(u32::MAX),
                    offset: 0,
                    stride: 1,
                }),
            );
            self.objects.insert(
                id,
                Cells {
                    leaves: vec![],
                    size,
                },
            );
            return Ok(id);
        }
        let mut first = None;
        let mut out = Vec::new();
        for leaf in leaves {
            let init = match &init {
                Init::Values(_) => Init::Zero,
                other => other.clone(),
            };
            let is_array = leaf.len > 1 || leaf.path.contains("[]");
            let id = self.new_var(
                format!("{name}{}", leaf.path),
                leaf.elem,
                leaf.len as u32,
                is_array,
                scope.clone(),
                init,
                Some(Placement {
                    object: first.unwrap_or(VarId(u32::MAX)),
                    offset: leaf.offset as u32,
                    stride: leaf.stride.max(1) as u32,
                }),
            );
            first.get_or_insert(id);
            out.push((leaf, id));
        }
        let first = first.expect("an object has a variable");
        self.objects.insert(first, Cells { leaves: out, size });
        Ok(first)
    }

    /// An array of `len` longs of the current thread.
    pub(super) fn local_longs(&mut self, name: &str, len: u64) -> VarId {
        let name = format!("{}::{name}", self.tid);
        let scope = VarScope::Local(self.tid);
        self.array_object(&name, ElemKind::Int(Ty::LONG), 8, len, Init::Zero, scope)
    }

    /// An array object of `len` cells of kind `elem`, `width` bytes each.
    fn array_object(
        &mut self,
        name: &str,
        elem: ElemKind,
        width: u64,
        len: u64,
        init: Init,
        scope: VarScope,
    ) -> VarId {
        let id = self.new_var(
            name.to_string(),
            elem,
            len as u32,
            true,
            scope,
            init,
            Some(Placement {
                object: VarId(u32::MAX),
                offset: 0,
                stride: width as u32,
            }),
        );
        let leaf = Leaf {
            offset: 0,
            stride: width,
            len,
            elem,
            width,
            path: String::new(),
        };
        self.objects.insert(
            id,
            Cells {
                leaves: vec![(leaf, id)],
                size: len * width,
            },
        );
        self.made.push(crate::ir::Object {
            var: id,
            name: name.to_string(),
            size: len * width,
        });
        id
    }

    /// `main`'s argument vector (C11 5.1.2.2.1): the strings of [`Program::arguments`]
    /// (writable), then a null pointer.
    fn argument_vector(&mut self) -> VarId {
        let mut strings = Vec::new();
        for (k, a) in self.arguments.clone().iter().enumerate() {
            let bytes = a.as_bytes();
            let s = self.array_object(
                &format!("argv[{k}]"),
                ElemKind::Int(Ty::CHAR),
                1,
                bytes.len() as u64 + 1,
                Init::Zero,
                VarScope::Global,
            );
            for (i, &b) in bytes.iter().enumerate() {
                self.init_cell(s, i as u64, b as i8 as i128);
            }
            strings.push(s);
        }
        let argv = self.array_object(
            "argv[]",
            ElemKind::Ptr,
            8,
            strings.len() as u64 + 1,
            Init::Zero,
            VarScope::Global,
        );
        for (k, s) in strings.into_iter().enumerate() {
            let addr = self.vars[s.0 as usize].element_address(0);
            self.init_cell(argv, 8 * k as u64, addr);
        }
        argv
    }

    /// The variable and element a static pointer with access width `width` denotes: never
    /// an allocation's status cell, which only the model's own steps access (a program's
    /// access there, just before a block, goes through its address and is out of bounds).
    pub fn static_place(
        &self,
        obj: VarId,
        off: i64,
        dyn_: &[(Expr, u64)],
        width: u64,
    ) -> Option<Place> {
        self.place_in(obj, off, dyn_, width, false)
    }

    /// [`Lowerer::static_place`], status cells included where `status`.
    pub(super) fn place_in(
        &self,
        obj: VarId,
        off: i64,
        dyn_: &[(Expr, u64)],
        width: u64,
        status: bool,
    ) -> Option<Place> {
        let o = self.objects.get(&obj)?;
        // A character at an index known only at run time may be any byte of the object (a
        // `char *` over a struct reads its representation): one family of cells holds it
        // only when the object has no other (an allocation's status aside).
        let bytes = width == 1 && !dyn_.is_empty();
        let others = |var: &VarId| {
            o.leaves
                .iter()
                .any(|(_, v)| v != var && !self.vars[v.0 as usize].allocation_status)
        };
        for (leaf, var) in &o.leaves {
            let rel = off - leaf.offset as i64;
            if rel < 0 || leaf.width != width || bytes && others(var) {
                continue;
            }
            if self.vars[var.0 as usize].allocation_status != status {
                continue;
            }
            let t = leaf.stride as i64;
            if rel % t != 0 || dyn_.iter().any(|(_, s)| *s as i64 % t != 0) {
                continue;
            }
            let k = rel / t;
            if k >= leaf.len as i64 && dyn_.is_empty() {
                continue;
            }
            if k >= leaf.len as i64 {
                continue;
            }
            let mut idx = Expr::constant(k as i128, Ty::LONG);
            for (e, s) in dyn_ {
                let term = bin(
                    BinOp::Mul,
                    cast(e.clone(), Ty::LONG),
                    Expr::constant((*s as i64 / t) as i128, Ty::LONG),
                    Ty::LONG,
                );
                idx = if idx.as_const() == Some(0) {
                    term
                } else {
                    bin(BinOp::Add, idx, term, Ty::LONG)
                };
            }
            let scalar = leaf.len == 1 && !self.vars[var.0 as usize].is_array;
            return Some(Place::Var {
                var: *var,
                index: if scalar && idx.as_const() == Some(0) {
                    None
                } else {
                    Some(Box::new(idx))
                },
            });
        }
        None
    }

    /// The run-time address of a value.
    pub fn addr_expr(&self, v: &Val) -> Expr {
        match v {
            Val::E(e) => cast(e.clone(), Ty::ULONG),
            Val::P { obj, off, dyn_ } => {
                let e = Expr::AddrOf {
                    var: *obj,
                    index: Box::new(Expr::constant(0, Ty::LONG)),
                };
                // The first variable may not start the object (a struct beginning with an
                // empty member); `AddrOf` counts from that variable's first element.
                let base = self.vars[obj.0 as usize].placement().offset as i64;
                offset_expr(e, *off - base, dyn_)
            }
            Val::F(f) => match self.fn_objects.get(f) {
                Some(v) => Expr::AddrOf {
                    var: *v,
                    index: Box::new(Expr::constant(0, Ty::LONG)),
                },
                None => Expr::constant(0, Ty::ULONG),
            },
            Val::Tuple(_) => Expr::constant(0, Ty::ULONG),
        }
    }

    /// The place a load or store of `width` bytes through `ptr` accesses.
    pub fn place(&self, ptr: &Val, width: u64, ty: Ty) -> R<Place> {
        if let Val::P { obj, off, dyn_ } = ptr {
            if let Some(p) = self.static_place(*obj, *off, dyn_, width) {
                return Ok(p);
            }
        }
        // Outside the object (undefined if executed: a loop unrolled past the iterations that
        // run, say), or across cells (a byte of an `int`, a union's other member: byte by
        // byte), or a pointer known only at run time: through the run-time address.
        Ok(Place::Deref {
            addr: Box::new(self.addr_expr(ptr)),
            ty,
            targets: Vec::new(),
            header: false,
        })
    }

    // ----------------------------------------------------------------- CFG building

    pub fn new_loc(&mut self, kind: LocKind) -> LocId {
        self.tb.locations.push(Location {
            kind,
            out: Vec::new(),
        });
        LocId(self.tb.locations.len() as u32 - 1)
    }

    /// Whether the code being lowered runs inside an environment model's call (the model, or
    /// a library model or helper, `__synth_*`, it calls; not a function of the program it
    /// calls back, as `ftw` does): [`crate::ir::Transition::environment`].
    fn in_environment(&self) -> bool {
        use super::compile::{ENVIRONMENT_SECTION, MODEL_SECTION};
        for f in self.frames.iter().rev() {
            match f.func.section.as_deref() {
                Some(ENVIRONMENT_SECTION) => return true,
                Some(MODEL_SECTION) => {}
                _ if f.func.name.starts_with("__synth_") => {}
                _ => return false,
            }
        }
        false
    }

    /// Whether the code being lowered is a model's (of the C library or the environment) or
    /// a `__synth_*` helper's, not the program's.
    pub(super) fn in_model(&self) -> bool {
        self.frames.last().is_some_and(|f| {
            super::compile::is_model_section(f.func.section.as_deref())
                || f.func.name.starts_with("__synth_")
        })
    }

    pub fn edge(
        &mut self,
        src: LocId,
        dst: LocId,
        guard: Expr,
        ops: Vec<Op>,
        kind: TransKind,
    ) -> R<TransId> {
        let id = TransId(self.tb.transitions.len() as u32);
        self.total += 1;
        if self.total > self.opts.max_transitions {
            return self.unsupported(format!(
                "program size: more than {} transitions after inlining",
                self.opts.max_transitions
            ));
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
            at: self.at,
            memory_access: false,
            refusal: None,
            starts: None,
            environment: self.in_environment(),
        });
        self.tb.locations[src.0 as usize].out.push(id);
        Ok(id)
    }

    /// A transition from the current location to a new one, which becomes current; the
    /// pending local assignments run first (in a transition of their own when there is a
    /// guard, which must not see them).
    pub fn step(&mut self, guard: Expr, ops: Vec<Op>, kind: TransKind) -> R<TransId> {
        let mut all = if guard.is_true() {
            std::mem::take(&mut self.pending)
        } else {
            self.flush()?;
            Vec::new()
        };
        all.extend(ops);
        let n = self.new_loc(LocKind::Normal);
        let t = self.edge(self.cur, n, guard, all, kind)?;
        self.cur = n;
        Ok(t)
    }

    /// [`Lowerer::step`] without a guard for a transition that loads or stores memory
    /// ([`Transition::memory_access`]).
    pub fn access_step(&mut self, ops: Vec<Op>, kind: TransKind) -> R<TransId> {
        let t = self.step(Expr::tt(), ops, kind)?;
        self.tb.transitions[t.0 as usize].memory_access = true;
        Ok(t)
    }

    /// Runs the pending local assignments.
    pub fn flush(&mut self) -> R<()> {
        if !self.pending.is_empty() {
            let ops = std::mem::take(&mut self.pending);
            let n = self.new_loc(LocKind::Normal);
            self.edge(self.cur, n, Expr::tt(), ops, TransKind::Stmt)?;
            self.cur = n;
        }
        Ok(())
    }

    /// The owner value of a mutex held by the current thread.
    pub fn me(&self) -> Expr {
        Expr::constant(crate::ir::lock_owner(self.tid), Ty::LONG)
    }

    // ----------------------------------------------------------------- top level

    fn run(&mut self) -> R<Program> {
        self.thread_done = self.new_var(
            "__thread_done".into(),
            ElemKind::Int(Ty::INT),
            1,
            true,
            VarScope::Ghost,
            Init::Zero,
            None,
        );
        self.thread_ret = self.new_var(
            "__thread_ret".into(),
            ElemKind::Ptr,
            1,
            true,
            VarScope::Ghost,
            Init::Zero,
            None,
        );
        let detaches = |n: &str| n == "pthread_detach" || n == "pthread_attr_setdetachstate";
        if self.m.func_declarations.iter().any(|d| detaches(&d.name))
            || self.m.functions.iter().any(|f| detaches(&f.name))
        {
            self.thread_detached = Some(self.new_var(
                "__thread_detached".into(),
                ElemKind::Int(Ty::INT),
                1,
                true,
                VarScope::Ghost,
                Init::Zero,
                None,
            ));
        }
        for f in super::loops::address_taken_functions(self.m) {
            let v = self.new_var(
                format!("&{f}"),
                ElemKind::Int(Ty::CHAR),
                1,
                false,
                VarScope::Global,
                Init::Zero,
                Some(Placement {
                    object: VarId(u32::MAX),
                    offset: 0,
                    stride: 1,
                }),
            );
            self.fn_objects.insert(f, v);
        }
        self.globals()?;
        self.typed_mutexes = self
            .m
            .func_declarations
            .iter()
            .any(|d| d.name == "pthread_mutexattr_settype")
            || self.vars.iter().any(|v| {
                v.name.ends_with(".kind")
                    && matches!(&v.init, Init::Values(xs) if xs.iter().any(|x| *x != 0))
            });
        if !self.funcs.contains_key("main") {
            return Err(Error::Invalid {
                position: self.files[0].clone(),
                message: "no function `main`".into(),
            });
        }
        // A constructor or destructor (`__attribute__((constructor))`) runs before `main` or
        // after the program ends, which the model does not represent.
        for g in &self.m.global_vars {
            let n = name_str(&g.name);
            if (n == "llvm.global_ctors" || n == "llvm.global_dtors") && g.initializer.is_some() {
                let what = if n.ends_with("ctors") {
                    "constructor"
                } else {
                    "destructor"
                };
                return Err(Error::Unsupported {
                    position: self.files[0].clone(),
                    construct: format!("a {what} function (`__attribute__(({what}))`)"),
                });
            }
        }
        self.threads.push(placeholder_thread(ThreadId(0), "main"));
        self.queue.push_back(Pending {
            tid: ThreadId(0),
            func: "main".into(),
            arg: None,
            created_by: (ThreadId(0), TransId(0)),
        });
        while let Some(p) = self.queue.pop_front() {
            self.lower_thread(p)?;
        }
        self.arms_of_decided_copies();
        self.expand_signals();
        self.fill_within_blocks();
        let n = self.threads.len() as u32;
        self.vars[self.thread_done.0 as usize].len = n;
        if let Some(d) = self.thread_detached {
            self.vars[d.0 as usize].len = n;
        }
        self.vars[self.thread_ret.0 as usize].len = n;
        let threads = std::mem::take(&mut self.threads)
            .into_iter()
            .map(|(mut t, b)| {
                t.locations = b.locations;
                t.transitions = b.transitions;
                t
            })
            .collect();
        for v in &mut self.vars {
            v.read_only = self.const_objects.contains(&v.placement().object);
        }
        let observes = super::numbering::observes_numbering(self.m);
        if let Some(o) = &observes {
            self.warn_once(super::numbering::warning(o));
        }
        let observes_numbering = observes.map(|o| o.to_string());
        Ok(Program {
            format: IR_FORMAT.into(),
            sha256: String::new(),
            files: Vec::new(),
            vars: std::mem::take(&mut self.vars),
            threads,
            thread_done: self.thread_done,
            local_reads: Vec::new(),
            objects: std::mem::take(&mut self.made),
            thread_bound: self.bounded.then_some(self.opts.max_threads),
            observes_numbering,
            asks_own_id: self.asks_own_id,
            arguments: std::mem::take(&mut self.arguments),
            warnings: std::mem::take(&mut self.warnings),

            bitcode: None,
        })
    }

    /// `pthread_cond_signal` wakes one waiting thread, chosen by the scheduler: one transition
    /// per thread that ever waits (its bit set: cleared), and one for none of them waiting.
    fn expand_signals(&mut self) {
        let bit = |k: u32| Expr::constant(1i128 << k, Ty::ULONG);
        for (tid, t) in std::mem::take(&mut self.signals) {
            let tb = &mut self.threads[tid.0 as usize].1;
            let tr = tb.transitions[t.0 as usize].clone();
            let [Op::Assign { place: c, .. }] = &tr.ops[..] else {
                unreachable!("a signal's transition has its own op only");
            };
            let c = c.clone();
            // The threads that may wait on this cell: no signal wakes a thread that never
            // waits there (nor chooses among threads, when one alone may wait).
            let mut waiters: Vec<u32> = self
                .waits
                .iter()
                .filter(|(_, w)| may_be_same_cell(w, &c))
                .map(|(k, _)| *k)
                .collect();
            waiters.sort_unstable();
            waiters.dedup();
            let cv = Expr::Load {
                place: c.clone(),
                ty: Ty::ULONG,
            };
            let mask: i128 = waiters.iter().map(|k| 1i128 << k).sum();
            let orig = &mut tb.transitions[t.0 as usize];
            orig.ops.clear();
            orig.guard = bin(
                BinOp::Eq,
                bin(
                    BinOp::BitAnd,
                    cv.clone(),
                    Expr::constant(mask, Ty::ULONG),
                    Ty::ULONG,
                ),
                Expr::constant(0, Ty::ULONG),
                Ty::INT,
            );
            for &k in &waiters {
                let id = TransId(tb.transitions.len() as u32);
                let mut x = tr.clone();
                x.id = id;
                x.guard = bin(
                    BinOp::Ne,
                    bin(BinOp::BitAnd, cv.clone(), bit(k), Ty::ULONG),
                    Expr::constant(0, Ty::ULONG),
                    Ty::INT,
                );
                x.ops = vec![Op::Assign {
                    place: c.clone(),
                    value: bin(
                        BinOp::BitAnd,
                        cv.clone(),
                        Expr::constant(!(1i128 << k) & u64::MAX as i128, Ty::ULONG),
                        Ty::ULONG,
                    ),
                }];
                tb.transitions.push(x);
                tb.locations[tr.src.0 as usize].out.push(id);
            }
        }
    }

    /// Creates the globals with their initial values.
    fn globals(&mut self) -> R<()> {
        let m = self.m;
        for g in &m.global_vars {
            let name = name_str(&g.name);
            self.locate(g.debugloc.as_ref());
            // The value type is the initialiser's; a variable defined elsewhere (`stderr`) is
            // taken to be one pointer whose value is unknown.
            let (ty, init) = match &g.initializer {
                Some(c) => (m.types.type_of(c), Init::Zero),
                None => (m.types.pointer(), Init::Nondet),
            };
            if !matches!(
                g.thread_local_mode,
                llvm_ir::module::ThreadLocalMode::NotThreadLocal
            ) {
                self.tls_globals.insert(name, (ty, g.initializer.clone()));
                continue;
            }
            let obj = self.new_object(&name, &ty, VarScope::Global, init)?;
            // (The models' globals have no debug information, and a declaration has no
            // definition here: their counterparts are the C library's own memory, aligned
            // as it likes.)
            if g.debugloc.is_some() && g.initializer.is_some() {
                let align = self.declared_alignment(g.alignment, &ty, true);
                self.alignments.insert(obj, align);
            }
            if g.is_constant {
                self.const_objects.insert(obj);
            }
            self.globals.insert(name, obj);
        }
        // The C standard's streams, which the C library defines, are open: each points to a
        // byte of an object of the model's (the stream's contents are the library's).
        let standard: Vec<(usize, VarId)> = ["stdin", "stdout", "stderr"]
            .into_iter()
            .enumerate()
            .filter(|(_, name)| {
                (m.global_vars.iter())
                    .any(|g| name_str(&g.name) == *name && g.initializer.is_none())
            })
            .filter_map(|(k, name)| self.globals.get(name).map(|&obj| (k, obj)))
            .collect();
        if !standard.is_empty() {
            let ty = Type::ArrayType {
                element_type: m.types.i8(),
                num_elements: 3,
            };
            let streams =
                self.new_object("<standard streams>", &ty, VarScope::Global, Init::Zero)?;
            for (k, obj) in standard {
                let at = Val::P {
                    obj: streams,
                    off: k as i64,
                    dyn_: vec![],
                };
                if let Some(a) = self.const_eval(&self.addr_expr(&at)) {
                    self.init_cell(obj, 0, a);
                }
            }
        }
        // Initialisers may take addresses of other globals: after all exist.
        for g in &m.global_vars {
            let name = name_str(&g.name);
            let Some(&obj) = self.globals.get(&name) else {
                continue;
            };
            if let Some(c) = &g.initializer {
                let mut cells = Vec::new();
                self.const_cells(c, 0, &mut cells)?;
                for (off, v) in cells {
                    self.init_cell(obj, off, v);
                }
            }
        }
        self.span = None;
        Ok(())
    }

    /// The nonzero scalar cells of a constant: (byte offset, value).
    fn const_cells(
        &self,
        c: &llvm_ir::ConstantRef,
        base: u64,
        out: &mut Vec<(u64, i128)>,
    ) -> R<()> {
        match c.as_ref() {
            Constant::Int { bits, value } => {
                let v = int_ty(*bits).wrap(*value as i128);
                if v != 0 {
                    out.push((base, v));
                }
            }
            Constant::Null(_) | Constant::AggregateZero(_) | Constant::Undef(_) => {}
            Constant::Poison(_) => {}
            Constant::Struct {
                values, is_packed, ..
            } => {
                let tys: Vec<TypeRef> = values.iter().map(|v| self.m.types.type_of(v)).collect();
                let Some((offs, _, _)) = self.layout.struct_layout(&tys, *is_packed) else {
                    return self.unsupported("initialiser of a struct without a size");
                };
                for (v, o) in values.iter().zip(offs) {
                    self.const_cells(v, base + o, out)?;
                }
            }
            Constant::Array {
                element_type,
                elements,
            } => {
                let s = self.layout.size(element_type).unwrap_or(0);
                for (k, v) in elements.iter().enumerate() {
                    self.const_cells(v, base + k as u64 * s, out)?;
                }
            }
            Constant::Float(f) => {
                use llvm_ir::constant::Float;
                let bits = match f {
                    Float::Single(x) => x.to_bits() as i32 as i128,
                    Float::Double(x) => x.to_bits() as i64 as i128,
                    _ => return self.unsupported("a floating point constant of this type"),
                };
                if bits != 0 {
                    out.push((base, bits));
                }
            }
            _ => {
                let v = self.const_val(c)?;
                let e = self.addr_expr(&v);
                match self.const_eval(&e) {
                    Some(0) => {}
                    Some(x) => out.push((base, x)),
                    None => return self.unsupported("a constant initialiser of this form"),
                }
            }
        }
        Ok(())
    }

    /// Evaluates a constant expression (addresses of globals included).
    pub fn const_eval(&self, e: &Expr) -> Option<i128> {
        Some(match e {
            Expr::Const { value, .. } => *value,
            Expr::AddrOf { var, index } => {
                self.vars[var.0 as usize].element_address(self.const_eval(index)?)
            }
            Expr::Cast { arg, ty } => ty.wrap(self.const_eval(arg)?),
            Expr::Binary { op, lhs, rhs, ty } => {
                crate::semantics::binop(*op, *ty, self.const_eval(lhs)?, self.const_eval(rhs)?)
                    .ok()?
            }
            _ => return None,
        })
    }

    /// The current thread's object of the thread-local global `name`, made (with the
    /// global's initial value) when the thread first uses it.
    pub fn tls_global(&mut self, name: &str) -> R<Val> {
        let key = (name.to_string(), self.tid);
        if let Some(o) = self.tls.get(&key) {
            return Ok(Val::P {
                obj: *o,
                off: 0,
                dyn_: vec![],
            });
        }
        let (ty, init) = self.tls_globals[name].clone();
        let oname = format!("{}::{name}", self.tid);
        let obj = self.new_object(&oname, &ty, VarScope::Local(self.tid), Init::Zero)?;
        if let Some(c) = init {
            let mut cells = Vec::new();
            self.const_cells(&c, 0, &mut cells)?;
            for (off, v) in cells {
                self.init_cell(obj, off, v);
            }
        }
        self.tls.insert(key, obj);
        Ok(Val::P {
            obj,
            off: 0,
            dyn_: vec![],
        })
    }

    /// The current thread's object of a thread-local variable of the C library (`errno`):
    /// an integer of `size` bytes, zero at the start.
    pub fn tls_object(&mut self, name: &str, size: u32) -> R<Val> {
        let ty = self.m.types.int(size * 8);
        self.tls_typed(name, &ty)
    }

    /// The current thread's object of type `ty` that the C library keeps per thread (the
    /// values of thread-specific data keys), zero at the start.
    pub fn tls_typed(&mut self, name: &str, ty: &TypeRef) -> R<Val> {
        let key = (format!("<{name}>"), self.tid);
        if let Some(o) = self.tls.get(&key) {
            return Ok(Val::P {
                obj: *o,
                off: 0,
                dyn_: vec![],
            });
        }
        let ty = ty.clone();
        let oname = format!("{}::{name}", self.tid);
        let obj = self.new_object(&oname, &ty, VarScope::Local(self.tid), Init::Zero)?;
        self.tls.insert(key, obj);
        Ok(Val::P {
            obj,
            off: 0,
            dyn_: vec![],
        })
    }

    /// Sets the initial value of the cell at `off` of an object.
    fn init_cell(&mut self, obj: VarId, off: u64, v: i128) {
        let Some(o) = self.objects.get(&obj) else {
            return;
        };
        for (leaf, var) in &o.leaves {
            if off < leaf.offset || !(off - leaf.offset).is_multiple_of(leaf.stride) {
                continue;
            }
            let k = ((off - leaf.offset) / leaf.stride) as usize;
            if k >= leaf.len as usize {
                continue;
            }
            let var = &mut self.vars[var.0 as usize];
            let ty = var.elem.ty();
            if !matches!(var.init, Init::Values(_)) {
                var.init = Init::Values(Vec::new());
            }
            if let Init::Values(vals) = &mut var.init {
                if vals.len() <= k {
                    vals.resize(k + 1, 0);
                }
                vals[k] = ty.wrap(v);
            }
            return;
        }
    }

    // ----------------------------------------------------------------- threads

    fn lower_thread(&mut self, p: Pending) -> R<()> {
        self.tid = p.tid;
        self.tb = ThreadB {
            locations: Vec::new(),
            transitions: Vec::new(),
        };
        let entry = self.new_loc(LocKind::Normal);
        let exit = self.new_loc(LocKind::Exit);
        let error = self.new_loc(LocKind::Error);
        let halt = self.new_loc(LocKind::Halt);
        let discard = self.new_loc(LocKind::Discard);
        self.special = [exit, error, halt, discard];
        self.cur = entry;
        self.at = None;
        self.frames.clear();
        self.atomic_depth = 0;
        self.atomic_begin = None;
        self.pending.clear();
        let f = self.funcs[p.func.as_str()];
        self.locate(f.debugloc.as_ref());
        let is_main = p.tid == ThreadId(0);
        let mut args = Vec::new();
        if is_main {
            // main(argc, argv): the arguments the program is verified with.
            if f.parameters.len() > 2 {
                return self.unsupported("`main` with a third parameter (the environment)");
            }
            if !f.parameters.is_empty() {
                let argc = self.arguments.len() as i128;
                args.push(Val::E(Expr::int(argc)));
            }
            if f.parameters.len() > 1 {
                let argv = self.argument_vector();
                args.push(Val::P {
                    obj: argv,
                    off: 0,
                    dyn_: vec![],
                });
            }
        } else if let Some(a) = p.arg {
            if !f.parameters.is_empty() {
                args.push(a);
            }
        }
        while args.len() < f.parameters.len() {
            args.push(Val::E(Expr::constant(0, Ty::ULONG)));
        }
        let ret = self.inline(f, args)?;
        self.span = None;
        // A return from the thread's function: the runtime's thread trampoline reports it.
        self.at = None;
        if is_main {
            self.step(Expr::tt(), vec![], TransKind::Stmt)?;
            self.edge(self.cur, halt, Expr::tt(), vec![], TransKind::Halt)?;
        } else {
            let v = match ret {
                Some(v) => self.addr_expr(&v),
                None => Expr::constant(0, Ty::ULONG),
            };
            self.thread_exit(v)?;
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

    /// The thread's final transition, after the destructors of its thread-specific data:
    /// publishes its return value (`__thread_ret[self]`, what `pthread_join` hands over) and
    /// `__thread_done[self]`, and exits.
    pub fn thread_exit(&mut self, value: Expr) -> R<()> {
        self.run_key_destructors()?;
        self.flush()?;
        let me = || Some(Box::new(Expr::int(self.tid.0 as i128)));
        let done = Place::Var {
            var: self.thread_done,
            index: me(),
        };
        let ret = Place::Var {
            var: self.thread_ret,
            index: me(),
        };
        let exit = self.special[0];
        self.edge(
            self.cur,
            exit,
            Expr::tt(),
            vec![
                Op::Assign {
                    place: ret,
                    value: cast(value, Ty::ULONG),
                },
                Op::Assign {
                    place: done,
                    value: Expr::int(1),
                },
            ],
            TransKind::Sync(SyncKind::ThreadExit),
        )?;
        self.cur = self.new_loc(LocKind::Normal);
        Ok(())
    }

    /// Registers a new thread running `func`; the caller adds the transition that starts it
    /// and passes its id to [`Lowerer::queue_thread`]. `None` where the creation fails: the
    /// program already has `--max-threads` threads, or the threads left are for the
    /// creations [`crate::frontend::Options::creations`] favours.
    pub fn new_thread(&mut self, func: &str) -> R<Option<ThreadId>> {
        if !self.funcs.contains_key(func) {
            return self.invalid(format!("thread function `{func}` is not defined"));
        }
        let function = self.threads[self.tid.0 as usize].0.function.clone();
        let calls = (self.frames.iter().filter_map(|f| f.call_at))
            .chain(self.at)
            .collect();
        let copy = (function, calls);
        let count = self.copy_counts.entry(copy.clone()).or_insert(0);
        let creation = (copy, *count);
        *count += 1;
        let started = |f: &str| self.threads.iter().filter(|t| t.0.function == f).count();
        let other = match &self.opts.creations {
            Some(favoured) if favoured.contains_key(&creation) => {
                *(self.favoured_met_by_function)
                    .entry(func.to_string())
                    .or_default() += 1;
                false
            }
            // A thread the favoured creations still to come leave: of the bound, and of the
            // bound per start function.
            Some(favoured) => {
                let met = |f: &str| self.favoured_met_by_function.get(f).copied().unwrap_or(0);
                let left_of = |f: &str| {
                    (favoured.values().filter(|g| *g == f).count()).saturating_sub(met(f))
                };
                // (Per start function, no more than the threads it may still have.)
                let room = |f: &str| match self.opts.max_threads_per_function {
                    Some(k) => k.saturating_sub(started(f)),
                    None => usize::MAX,
                };
                let functions: HashSet<&str> = favoured.values().map(String::as_str).collect();
                let left: usize = (functions.into_iter())
                    .map(|f| left_of(f).min(room(f)))
                    .sum();
                self.threads.len() + left >= self.opts.max_threads
                    || (self.opts.max_threads_per_function)
                        .is_some_and(|k| started(func) + left_of(func) >= k)
            }
            None => false,
        };
        self.creations.push(creation);
        let per_function = |k: usize| started(func) >= k;
        if self.threads.len() >= self.opts.max_threads
            || self.opts.max_threads_per_function.is_some_and(per_function)
            || other
        {
            // Beyond the bound the creation fails (`EAGAIN`).
            self.bounded = true;
            return Ok(None);
        }
        let child = ThreadId(self.threads.len() as u32);
        self.threads.push(placeholder_thread(child, func));
        Ok(Some(child))
    }

    /// Whether every creation from now on fails: the program has `--max-threads` threads,
    /// or (lowered with [`crate::frontend::Options::max_threads_per_function`]) every
    /// function a thread may start has that many.
    fn creations_exhausted(&self) -> bool {
        if self.threads.len() >= self.opts.max_threads {
            return true;
        }
        let Some(k) = self.opts.max_threads_per_function else {
            return false;
        };
        let started = |f: &str| self.threads.iter().filter(|t| t.0.function == f).count();
        self.thread_functions.iter().all(|f| started(f) >= k)
    }

    /// The number of the creation [`Lowerer::new_thread`] registered last
    /// ([`crate::ir::Start::creation`]).
    pub fn creation_number(&self) -> u32 {
        self.creations.len() as u32 - 1
    }

    /// Queues a thread registered by [`Lowerer::new_thread`] for lowering.
    pub fn queue_thread(&mut self, tid: ThreadId, func: &str, arg: Option<Val>, by: TransId) {
        self.queue.push_back(Pending {
            tid,
            func: func.to_string(),
            arg,
            created_by: (self.tid, by),
        });
    }

    // ----------------------------------------------------------------- functions

    /// Inlines a call of `f` with argument values `args` at the current location; the
    /// returned value (if any) is in a register variable.
    pub fn inline(&mut self, f: &'m Function, args: Vec<Val>) -> R<Option<Val>> {
        self.inline_with(f, args, None, None)
    }

    /// [`Lowerer::inline`] of a call whose result goes to the caller's register `result`
    /// (if any), variadic with its variable arguments in `varargs`.
    pub fn inline_with(
        &mut self,
        f: &'m Function,
        args: Vec<Val>,
        varargs: Option<VarId>,
        result: Option<&'m Name>,
    ) -> R<Option<Val>> {
        let active = self
            .frames
            .iter()
            .filter(|fr| std::ptr::eq(fr.func, f))
            .count();
        if active >= self.opts.max_recursion {
            return self.recursion_limit(f);
        }
        // The variable arguments are unsupported where the body reads them (`va_start`) and
        // the call did not pass them in memory (a direct call does); otherwise they are
        // passed and ignored.
        if f.is_var_arg && varargs.is_none() && reads_variable_arguments(f) {
            return self.unsupported(format!("call of the variadic function `{}`", f.name));
        }
        let ret = match self.m.types.type_of(f).as_ref() {
            Type::FuncType { result_type, .. } => match result_type.as_ref() {
                Type::VoidType => None,
                _ => Some((result_type.clone(), self.scalar_cells(result_type)?)),
            },
            _ => None,
        };
        let mut regs = HashMap::new();
        for (p, a) in f.parameters.iter().zip(args) {
            regs.insert(&p.name, a);
        }
        let ret_loc = self.new_loc(LocKind::Normal);
        let facts = self
            .facts
            .get(f.name.as_str())
            .expect("every function is analysed");
        let facts: &'m FnFacts = facts;
        let mut phi_ids = HashMap::new();
        let mut phi_names = Vec::new();
        for bb in &f.basic_blocks {
            for i in &bb.instrs {
                if let Instruction::Phi(p) = i {
                    phi_ids.insert(&p.dest, phi_names.len());
                    phi_names.push(&p.dest);
                }
            }
        }
        let mut frame = Frame {
            func: f,
            maps: vec![regs],
            envs: vec![Vec::new()],
            ctxs: [(Vec::new(), 0)].into_iter().collect(),
            ctx: 0,
            blocks: HashMap::new(),
            work: VecDeque::new(),
            made: HashMap::new(),
            index: f
                .basic_blocks
                .iter()
                .enumerate()
                .map(|(k, b)| (&b.name, k))
                .collect(),
            phi_ids,
            phi_vars: HashMap::new(),
            ret: None,
            ret_loc,
            needs_var: &facts.needs_var,
            used: &facts.used,
            spec: &facts.spec_phis,
            spec_live: &facts.spec_live,
            phi_names,
            on_cycle: &facts.on_cycle,
            creation_cycles: &facts.creation_cycles,
            cur_block: 0,
            locals: HashSet::new(),
            escaping: &facts.escaping,
            lifetimes: Vec::new(),
            varargs,
            result,
            call_at: self.at,
            base_depth: self.atomic_depth,
            ret_depth: None,
        };
        self.flush()?;
        frame.blocks.insert((0, 0), self.cur);
        frame.work.push_back((0, 0));
        self.frames.push(frame);
        // Every phi has a variable, for the contexts in which it is not specialised.
        for bb in &f.basic_blocks {
            for i in &bb.instrs {
                if let Instruction::Phi(p) = i {
                    let t = self.reg_ty(&p.to_type)?;
                    let v = self.temp(&name_str(&p.dest), t);
                    self.frame().phi_vars.insert(&p.dest, (v, t));
                }
            }
        }
        if let Some((t, cells)) = ret {
            let vars = match cells.as_slice() {
                [(_, ty)] => vec![(self.temp(&format!("{}$ret", f.name), *ty), *ty)],
                _ => cells
                    .iter()
                    .map(|&(o, ty)| (self.temp(&format!("{}$ret.{o}", f.name), ty), ty))
                    .collect(),
            };
            self.frame().ret = Some((t, vars));
        }
        let at = self.at;
        let r = self.body(f);
        self.at = at;
        let frame = self.frames.pop().expect("pushed");
        r?;
        self.cur = frame.ret_loc;
        self.atomic_depth = frame.ret_depth.unwrap_or(frame.base_depth);
        Ok(frame.ret.map(|(t, vars)| {
            let mut parts = vars.into_iter().map(|(v, ty)| Expr::var(v, ty));
            self.assemble(&t, &mut parts)
        }))
    }

    pub fn frame(&mut self) -> &mut Frame<'m> {
        self.frames.last_mut().expect("inside a function")
    }

    /// Lowers the blocks of the current call, each once per context that reaches it.
    fn body(&mut self, f: &'m Function) -> R<()> {
        while let Some((b, ctx)) = self.frame().work.pop_front() {
            let bb = &f.basic_blocks[b];
            let fr = self.frame();
            fr.ctx = ctx;
            fr.cur_block = b;
            let loc = fr.blocks[&(b, ctx)];
            let depth = fr.base_depth as i128
                + fr.envs[ctx]
                    .iter()
                    .find(|(k, _)| *k == ATOMIC_DEPTH)
                    .map_or(0, |(_, d)| *d);
            self.atomic_depth = depth as u32;
            self.cur = loc;
            self.pending.clear();
            // The phis of the block: the context's constant, or their variable.
            for i in &bb.instrs {
                let Instruction::Phi(p) = i else { break };
                let fr = self.frames.last().expect("frame");
                let id = fr.phi_ids[&p.dest];
                let v = match fr.envs[ctx].iter().find(|(k, _)| *k == id) {
                    Some((_, c)) => {
                        let t = fr.phi_vars[&p.dest].1;
                        Val::E(Expr::constant(*c, t))
                    }
                    None => {
                        let (v, t) = fr.phi_vars[&p.dest];
                        Val::E(Expr::var(v, t))
                    }
                };
                self.frame().set_reg(&p.dest, v);
            }
            let base = self.facts[f.name.as_str()].block_base[b];
            for (k, i) in bb.instrs.iter().enumerate() {
                self.locate(i.get_debug_loc().as_ref());
                self.at = Some([base + k as u32, 0]);
                self.instruction(i)?;
            }
            self.locate(bb.term.get_debug_loc().as_ref());
            self.at = Some([base + bb.instrs.len() as u32, 0]);
            self.terminator(b, &bb.term)?;
        }
        Ok(())
    }

    /// The IR type of a register of LLVM type `t`.
    pub fn reg_ty(&self, t: &Type) -> R<Ty> {
        match t {
            Type::IntegerType { bits } if *bits <= 64 => Ok(int_ty(*bits)),
            Type::PointerType { .. } => Ok(Ty::ULONG),
            Type::FPType(_) => match self.layout.size(t) {
                Some(4) => Ok(Ty::INT),
                Some(8) => Ok(Ty::LONG),
                _ => self.unsupported(format!("value of type {t}")),
            },
            _ => self.unsupported(format!("value of type {t}")),
        }
    }

    /// Notes that register `dest` of the current function holds the result of the refused
    /// creation `t`: reading it marks `t` ([`Refusal::ResultRead`]).
    pub fn note_refusal(&mut self, dest: &'m Name, t: TransId) {
        let func = self.frames.last().expect("frame").func as *const Function as usize;
        self.refused_results
            .entry((self.tid, func, dest))
            .or_default()
            .push(t);
    }

    /// Binds the result of an instruction: substituted, or in a variable when the register
    /// is used elsewhere.
    pub fn bind(&mut self, dest: &'m Name, v: Val, ty: Ty) {
        let needs = self.frames.last().expect("frame").needs_var.contains(dest);
        // Constants fold (a specialised loop counter's successor is a constant); addresses
        // do not, so that the points-to analysis still sees whose address a value is.
        let v = match v {
            Val::E(e) if e.as_const().is_none() && !takes_address(&e) => {
                match self.const_eval(&e) {
                    Some(c) => Val::E(Expr::constant(c, e.ty())),
                    None => Val::E(e),
                }
            }
            v => v,
        };
        let v = match v {
            Val::E(e) if needs && e.as_const().is_none() => {
                let var = self.temp(&name_str(dest), ty);
                self.pending.push(Op::Assign {
                    place: Place::scalar(var),
                    value: e,
                });
                Val::E(Expr::var(var, ty))
            }
            Val::P { obj, off, dyn_ } if needs && !dyn_.is_empty() => {
                let mut d = Vec::new();
                for (k, (e, s)) in dyn_.into_iter().enumerate() {
                    if e.as_const().is_some() {
                        d.push((e, s));
                        continue;
                    }
                    let var = self.temp(&format!("{}.{k}", name_str(dest)), Ty::LONG);
                    self.pending.push(Op::Assign {
                        place: Place::scalar(var),
                        value: cast(e, Ty::LONG),
                    });
                    d.push((Expr::var(var, Ty::LONG), s));
                }
                Val::P { obj, off, dyn_: d }
            }
            v => v,
        };
        self.frame().set_reg(dest, v);
    }

    /// The value of an operand.
    pub fn val(&mut self, o: &'m Operand) -> R<Val> {
        match o {
            Operand::LocalOperand { name, .. } => {
                let func = self.frames.last().expect("frame").func as *const Function as usize;
                if let Some(ts) = self.refused_results.get(&(self.tid, func, name)) {
                    for t in ts {
                        self.tb.transitions[t.0 as usize].refusal = Some(Refusal::ResultRead);
                    }
                }
                match self.frames.last().expect("frame").reg(name) {
                    Some(v) => Ok(v.clone()),
                    None => self.unsupported(format!(
                        "use of register %{} before its definition",
                        name_str(name)
                    )),
                }
            }
            Operand::ConstantOperand(c) => match c.as_ref() {
                // An uninitialised value (a local read before any write, after `mem2reg`):
                // any value, a new one at each use, as the compiled program may materialise
                // it differently each time.
                Constant::Undef(t) | Constant::Poison(t)
                    if matches!(
                        t.as_ref(),
                        Type::IntegerType { .. } | Type::PointerType { .. }
                    ) =>
                {
                    let ty = self.reg_ty(t)?;
                    let r = self.made_up_pending("undef", ty);
                    Ok(Val::E(Expr::var(r, ty)))
                }
                _ => self.const_val(c),
            },
            Operand::MetadataOperand => Ok(Val::E(Expr::int(0))),
        }
    }

    /// The value of an operand as an integer expression (addresses included).
    pub fn expr(&mut self, o: &'m Operand) -> R<Expr> {
        let v = self.val(o)?;
        Ok(match v {
            Val::E(e) => e,
            v => self.addr_expr(&v),
        })
    }

    /// The value of a constant.
    pub fn const_val(&self, c: &llvm_ir::ConstantRef) -> R<Val> {
        Ok(match c.as_ref() {
            Constant::Int { bits, value } => {
                if *bits > 64 {
                    return self.unsupported(format!("integer of {bits} bits"));
                }
                let t = int_ty(*bits);
                Val::E(Expr::constant(*value as i128, t))
            }
            Constant::Null(_) => Val::E(Expr::constant(0, Ty::ULONG)),
            Constant::Undef(t) | Constant::Poison(t) => {
                let ty = self.reg_ty(t).unwrap_or(Ty::LONG);
                Val::E(Expr::constant(0, ty))
            }
            Constant::AggregateZero(_) => Val::E(Expr::int(0)),
            Constant::Struct { values, .. } => Val::Tuple(
                values
                    .iter()
                    .map(|v| self.const_val(v))
                    .collect::<R<Vec<_>>>()?,
            ),
            Constant::Array { elements, .. } => Val::Tuple(
                elements
                    .iter()
                    .map(|v| self.const_val(v))
                    .collect::<R<Vec<_>>>()?,
            ),
            Constant::GlobalReference { name, .. } => {
                let n = name_str(name);
                if let Some(obj) = self.globals.get(&n) {
                    Val::P {
                        obj: *obj,
                        off: 0,
                        dyn_: vec![],
                    }
                } else {
                    Val::F(n)
                }
            }
            Constant::GetElementPtr(g) => {
                // Byte offsets after [`super::canonical`].
                let base = self.const_val(&g.address)?;
                let [i] = g.indices.as_slice() else {
                    return self.unsupported("a constant address of this form");
                };
                let Val::E(k) = self.const_val(i)? else {
                    return self.unsupported("a constant address of this form");
                };
                let Some(k) = k.as_const() else {
                    return self.unsupported("a constant address of this form");
                };
                match base {
                    Val::P { obj, off, dyn_ } => Val::P {
                        obj,
                        off: off + k as i64,
                        dyn_,
                    },
                    v => Val::E(bin(
                        BinOp::Add,
                        self.addr_expr(&v),
                        Expr::constant(k, Ty::ULONG),
                        Ty::ULONG,
                    )),
                }
            }
            Constant::PtrToInt(x) => {
                let v = self.const_val(&x.operand)?;
                Val::E(self.addr_expr(&v))
            }
            Constant::IntToPtr(x) => self.const_val(&x.operand)?,
            Constant::Trunc(x) => {
                let v = self.const_val(&x.operand)?;
                let t = self.reg_ty(&x.to_type)?;
                Val::E(cast(self.addr_expr(&v), t))
            }
            Constant::Add(x) => self.const_binop(BinOp::Add, &x.operand0, &x.operand1)?,
            Constant::Sub(x) => self.const_binop(BinOp::Sub, &x.operand0, &x.operand1)?,
            Constant::Mul(x) => self.const_binop(BinOp::Mul, &x.operand0, &x.operand1)?,
            Constant::Xor(x) => self.const_binop(BinOp::BitXor, &x.operand0, &x.operand1)?,
            Constant::BitCast(x) => self.const_val(&x.operand)?,
            Constant::Float(f) => {
                use llvm_ir::constant::Float;
                match f {
                    Float::Single(x) => Val::E(Expr::constant(x.to_bits() as i32 as i128, Ty::INT)),
                    Float::Double(x) => {
                        Val::E(Expr::constant(x.to_bits() as i64 as i128, Ty::LONG))
                    }
                    _ => return self.unsupported("a floating point constant of this type"),
                }
            }
            other => return self.unsupported(format!("constant `{other}`")),
        })
    }

    /// A wrapping binary operation of two constants.
    fn const_binop(&self, op: BinOp, a: &llvm_ir::ConstantRef, b: &llvm_ir::ConstantRef) -> R<Val> {
        let t = self.reg_ty(&self.m.types.type_of(a))?;
        let x = self.addr_expr(&self.const_val(a)?);
        let y = self.addr_expr(&self.const_val(b)?);
        let u = unsigned(t);
        Ok(Val::E(cast(bin(op, cast(x, u), cast(y, u), u), t)))
    }

    /// `getelementptr src, base, idx...`.
    pub fn gep(&self, base: Val, src: &TypeRef, idx: &[Expr]) -> R<Val> {
        let mut off = 0i64;
        let mut dyn_: Vec<(Expr, u64)> = Vec::new();
        let mut ty: TypeRef = src.clone();
        for (k, i) in idx.iter().enumerate() {
            if k == 0 {
                let Some(s) = self.layout.size(src) else {
                    return self.unsupported(format!("pointer arithmetic over {src}"));
                };
                add_term(&mut off, &mut dyn_, i, self.const_eval(i), s);
                continue;
            }
            match ty.as_ref() {
                Type::ArrayType { element_type, .. } | Type::VectorType { element_type, .. } => {
                    let Some(s) = self.layout.size(element_type) else {
                        return self.unsupported(format!("pointer arithmetic over {element_type}"));
                    };
                    add_term(&mut off, &mut dyn_, i, self.const_eval(i), s);
                    ty = element_type.clone();
                }
                Type::StructType { .. } | Type::NamedStructType { .. } => {
                    let Some(f) = i.as_const() else {
                        return self.unsupported("a struct field chosen at run time");
                    };
                    let Some(o) = self.layout.field_offset(&ty, f as usize) else {
                        return self.unsupported(format!("field {f} of {ty}"));
                    };
                    off += o as i64;
                    let (fields, _) = self.layout.struct_fields(&ty).expect("a struct");
                    ty = fields[f as usize].clone();
                }
                t => return self.unsupported(format!("getelementptr into {t}")),
            }
        }
        Ok(match base {
            Val::P {
                obj,
                off: o,
                dyn_: mut d,
            } => {
                d.extend(dyn_);
                Val::P {
                    obj,
                    off: o + off,
                    dyn_: d,
                }
            }
            v => Val::E(offset_expr(self.addr_expr(&v), off, &dyn_)),
        })
    }

    // ----------------------------------------------------------------- instructions

    fn instruction(&mut self, i: &'m Instruction) -> R<()> {
        use Instruction as I;
        if let (Some((x, k)), Some(dest)) = (self.remainder_of_address(i), i.try_get_result()) {
            return self.pointer_remainder(dest, x, k, matches!(i, I::SRem(_)));
        }
        match i {
            I::ICmp(x) if super::pointers::orders_pointers(self.m, x) => self.pointer_order(x),
            I::Sub(x) if self.subtracts_pointers(x) => self.pointer_difference(x),
            I::Add(_)
            | I::Sub(_)
            | I::Mul(_)
            | I::SDiv(_)
            | I::SRem(_)
            | I::UDiv(_)
            | I::URem(_)
            | I::And(_)
            | I::Or(_)
            | I::Xor(_)
            | I::Shl(_)
            | I::LShr(_)
            | I::AShr(_)
            | I::ICmp(_)
            | I::Trunc(_)
            | I::ZExt(_)
            | I::SExt(_)
            | I::PtrToInt(_)
            | I::IntToPtr(_)
            | I::Select(_) => {
                let mut ops = Vec::new();
                for o in operands(i) {
                    ops.push((o, self.expr(o)?));
                }
                let e = self
                    .pure_with(i, &ops)?
                    .expect("a pure instruction has a value");
                let dest = i.try_get_result().expect("a pure instruction has a result");
                let t = if matches!(i, I::ICmp(_)) {
                    Ty::BOOL
                } else {
                    e.ty()
                };
                self.bind(dest, Val::E(e), t);
                Ok(())
            }
            I::BitCast(x) => {
                let v = self.val(&x.operand)?;
                let t = self.reg_ty(&x.to_type).unwrap_or(Ty::ULONG);
                self.bind(&x.dest, v, t);
                Ok(())
            }
            I::AddrSpaceCast(x) => {
                let v = self.val(&x.operand)?;
                self.bind(&x.dest, v, Ty::ULONG);
                Ok(())
            }
            I::Freeze(x) => {
                let v = self.val(&x.operand)?;
                let t = self
                    .reg_ty(&self.m.types.type_of(&x.operand))
                    .unwrap_or(Ty::LONG);
                self.bind(&x.dest, v, t);
                Ok(())
            }
            I::Phi(_) => Ok(()),
            I::Alloca(x) => self.alloca(x),
            I::GetElementPtr(x) => {
                let base = self.val(&x.address)?;
                let mut idx = Vec::new();
                for o in &x.indices {
                    idx.push(self.expr(o)?);
                }
                let v = self.gep(base, &x.source_element_type, &idx)?;
                self.bind(&x.dest, v, Ty::ULONG);
                Ok(())
            }
            I::Load(x) => self.load(x),
            I::Store(x) => self.store(x),
            I::Fence(_) => Ok(()),
            I::CmpXchg(x) => self.cmpxchg(x),
            I::AtomicRMW(x) => self.atomicrmw(x),
            I::ExtractValue(x) => {
                let mut p = self.val(&x.aggregate)?;
                for &k in &x.indices {
                    p = self.member(&p, k as usize)?;
                }
                let t = match &p {
                    Val::E(e) => e.ty(),
                    _ => Ty::ULONG,
                };
                self.bind(&x.dest, p, t);
                Ok(())
            }
            I::InsertValue(x) => {
                let t = self.m.types.type_of(&x.aggregate);
                let (v, e) = (self.val(&x.aggregate)?, self.val(&x.element)?);
                let r = self.insert(&v, &t, &x.indices, e)?;
                self.frame().set_reg(&x.dest, r);
                Ok(())
            }
            I::Call(c) => self.call(c),
            _ if is_float(i) => self.opaque_float(i),
            I::VAArg(_) => self.unsupported("va_arg"),
            other => self.unsupported(format!("instruction `{other}`")),
        }
    }

    /// Records a warning about what the lowering assumed, once.
    pub(super) fn warn_once(&mut self, msg: String) {
        if !self.warnings.contains(&msg) {
            self.warnings.push(msg);
        }
    }

    /// Floating point arithmetic, conversions to and from floating point and comparisons
    /// ([`is_float`]) compute an arbitrary value of their result's type (an
    /// over-approximation: C gives them no undefined behaviour under IEEE 754 arithmetic,
    /// Annex F, but for a conversion to an integer out of its range, which is not checked);
    /// floating point values are their bits otherwise (constants, loads and stores). The
    /// program records a warning, and one more for conversions to integers.
    fn opaque_float(&mut self, i: &'m Instruction) -> R<()> {
        if matches!(i, Instruction::FPToUI(_) | Instruction::FPToSI(_)) {
            self.warn_once(
                "conversions of floating point values to integers modelled as giving \
                 arbitrary values of the integer's type: the model does not compute floating \
                 point, so it does not check that a value converted is within the integer's \
                 range (C leaves it undefined otherwise)"
                    .into(),
            );
        }
        let dest = i
            .try_get_result()
            .expect("floating point arithmetic has a result");
        let ty = match i {
            Instruction::FCmp(_) => Ty::BOOL,
            _ => self.reg_ty(&self.m.types.type_of(i))?,
        };
        let r = self.made_up("float", ty)?;
        self.bind(dest, Val::E(r), ty);
        self.warn_once(
            "floating point arithmetic modelled as computing arbitrary values (a bug reported \
             may depend on them)"
                .into(),
        );
        Ok(())
    }

    /// The value of a pure instruction (arithmetic, comparison, conversion, `select`)
    /// given the values of its operands (in the order of [`operands`]); `None` for other
    /// instructions.
    pub(super) fn pure_with(&self, i: &Instruction, ops: &[(&Operand, Expr)]) -> R<Option<Expr>> {
        use Instruction as I;
        let arg = |k: usize| ops[k].1.clone();
        let ty_of = |k: usize| self.reg_ty(&self.m.types.type_of(ops[k].0));
        Ok(Some(match i {
            // Made up where the pointers lie in two blocks ([`super::pointers`]).
            I::ICmp(x) if super::pointers::orders_pointers(self.m, x) => return Ok(None),
            I::Sub(x) if self.subtracts_pointers(x) => return Ok(None),
            I::URem(_) | I::SRem(_) | I::And(_) if self.remainder_of_address(i).is_some() => {
                return Ok(None)
            }
            I::Add(x) => self.arith(BinOp::Add, arg(0), arg(1), ty_of(0)?, x.nsw)?,
            I::Sub(x) => self.arith(BinOp::Sub, arg(0), arg(1), ty_of(0)?, x.nsw)?,
            I::Mul(x) => self.arith(BinOp::Mul, arg(0), arg(1), ty_of(0)?, x.nsw)?,
            I::SDiv(_) => self.arith(BinOp::Div, arg(0), arg(1), ty_of(0)?, true)?,
            I::SRem(_) => self.arith(BinOp::Rem, arg(0), arg(1), ty_of(0)?, true)?,
            I::UDiv(_) => self.arith(BinOp::Div, arg(0), arg(1), ty_of(0)?, false)?,
            I::URem(_) => self.arith(BinOp::Rem, arg(0), arg(1), ty_of(0)?, false)?,
            I::Shl(_) => self.arith(BinOp::Shl, arg(0), arg(1), ty_of(0)?, false)?,
            I::LShr(_) => self.arith(BinOp::Shr, arg(0), arg(1), ty_of(0)?, false)?,
            I::AShr(_) => self.arith(BinOp::Shr, arg(0), arg(1), ty_of(0)?, true)?,
            I::And(_) | I::Or(_) | I::Xor(_) => {
                let op = match i {
                    I::And(_) => BinOp::BitAnd,
                    I::Or(_) => BinOp::BitOr,
                    _ => BinOp::BitXor,
                };
                let t = ty_of(0)?;
                bin(op, cast(arg(0), t), cast(arg(1), t), t)
            }
            I::ICmp(x) => self.icmp(x.predicate, arg(0), arg(1), ty_of(0)?)?,
            I::Trunc(x) => match self.reg_ty(&x.to_type)? {
                // To i1: the low bit (the IR's conversion to `_Bool` tests for nonzero).
                Ty::BOOL => {
                    let a = arg(0);
                    let t = a.ty();
                    bin(
                        BinOp::Ne,
                        bin(BinOp::BitAnd, a, Expr::constant(1, t), t),
                        Expr::constant(0, t),
                        Ty::INT,
                    )
                }
                t => cast(arg(0), t),
            },
            I::ZExt(x) => {
                let e = arg(0);
                cast(cast(e.clone(), unsigned(e.ty())), self.reg_ty(&x.to_type)?)
            }
            I::SExt(x) => {
                let t = self.reg_ty(&x.to_type)?;
                let e = arg(0);
                if e.ty() == Ty::BOOL {
                    ite(e, Expr::constant(-1, t), Expr::constant(0, t), t)
                } else {
                    cast(e, t)
                }
            }
            I::PtrToInt(x) => cast(arg(0), self.reg_ty(&x.to_type)?),
            I::IntToPtr(_) => {
                let e = arg(0);
                cast(cast(e.clone(), unsigned(e.ty())), Ty::ULONG)
            }
            I::Select(_) => {
                let t = ty_of(1)?;
                ite(arg(0), cast(arg(1), t), cast(arg(2), t), t)
            }
            _ => return Ok(None),
        }))
    }

    pub(super) fn arith(&self, op: BinOp, x: Expr, y: Expr, t: Ty, signed: bool) -> R<Expr> {
        if t == Ty::BOOL {
            // i1 arithmetic is arithmetic modulo 2.
            return match op {
                BinOp::Add | BinOp::Sub => Ok(bin(BinOp::BitXor, x, y, Ty::BOOL)),
                BinOp::Mul => Ok(bin(BinOp::BitAnd, x, y, Ty::BOOL)),
                _ => self.unsupported("division or shift of a 1-bit value"),
            };
        }
        Ok(if matches!(op, BinOp::Shl | BinOp::Shr) {
            let amount = cast(cast(y, t), unsigned(t));
            if signed {
                bin(op, cast(x, t), amount, t)
            } else {
                cast(bin(op, cast(x, unsigned(t)), amount, unsigned(t)), t)
            }
        } else if signed {
            bin(op, cast(x, t), cast(y, t), t)
        } else {
            let u = unsigned(t);
            cast(bin(op, cast(x, u), cast(y, u), u), t)
        })
    }

    /// Whether `x` subtracts two pointers converted to 64-bit integers (`p - q` in C, which
    /// clang compiles to two `ptrtoint`s and a `sub`; [`super::pointers`]).
    pub(super) fn subtracts_pointers(&self, x: &ins::Sub) -> bool {
        let Some(fr) = self.frames.last() else {
            return false;
        };
        let converted = &self.facts[fr.func.name.as_str()].converted;
        super::pointers::subtracts_pointers(self.m, x, |name| converted.contains(name))
    }

    /// The address and the modulus of `i` where it takes an address converted to an integer
    /// modulo a power of two ([`super::pointers::remainder_of_address`]).
    pub(super) fn remainder_of_address<'i>(
        &self,
        i: &'i Instruction,
    ) -> Option<(&'i Operand, u64)> {
        if !matches!(
            i,
            Instruction::URem(_) | Instruction::SRem(_) | Instruction::And(_)
        ) {
            return None;
        }
        let fr = self.frames.last()?;
        let addresses = &self.facts[fr.func.name.as_str()].addresses;
        super::pointers::remainder_of_address(self.m, i, |name| addresses.contains(name))
    }

    pub(super) fn icmp(&self, pred: IntPredicate, a: Expr, b: Expr, t: Ty) -> R<Expr> {
        use IntPredicate as P;
        let (op, signed) = match pred {
            P::EQ => (BinOp::Eq, true),
            P::NE => (BinOp::Ne, true),
            P::SLT => (BinOp::Lt, true),
            P::SLE => (BinOp::Le, true),
            P::SGT => (BinOp::Gt, true),
            P::SGE => (BinOp::Ge, true),
            P::ULT => (BinOp::Lt, false),
            P::ULE => (BinOp::Le, false),
            P::UGT => (BinOp::Gt, false),
            P::UGE => (BinOp::Ge, false),
        };
        if signed && t == Ty::BOOL && !matches!(op, BinOp::Eq | BinOp::Ne) {
            // Signed order of i1: true is -1.
            return self.unsupported("signed comparison of 1-bit values");
        }
        let ct = if signed || t == Ty::ULONG || t == Ty::BOOL {
            t
        } else {
            unsigned(t)
        };
        Ok(bin(op, cast(a, ct), cast(b, ct), Ty::INT))
    }

    fn alloca(&mut self, x: &'m ins::Alloca) -> R<()> {
        let count = match self.val(&x.num_elements)? {
            Val::E(e) => e,
            _ => return self.unsupported("an allocation of a pointer's number of elements"),
        };
        let func = self.frames.last().expect("frame").func.name.clone();
        let name = format!("{}::{}::{}", self.tid, func, name_str(&x.dest));
        // Whether the function's return (or its thread's exit) may end the local's life while
        // the program goes on, and for an escaping one, the limit a later call meets.
        let dies = self.frame_ends_lifetimes();
        let again = if dies { self.lifetime_again(x) } else { None };
        let ty = match self.const_eval(&count) {
            Some(1) => x.allocated_type.clone(),
            Some(k) if k > 1 => self.m.types.array_of(x.allocated_type.clone(), k as usize),
            Some(_) => return self.invalid("an array of no elements"),
            None => {
                let p = self.variable_array(name, &x.allocated_type, count, again)?;
                // (A variable-length array is aligned to 16 bytes by gcc and clang alike, and
                // by the x86-64 psABI.)
                self.align_object(&p, x.alignment.max(1) as u64);
                self.bind_local(x, p, dies);
                return Ok(());
            }
        };
        let align = self.declared_alignment(x.alignment, &ty, false);
        // An escaping local has a lifetime (an empty struct has no bytes to access).
        if again.is_some() && self.layout.size(&ty).is_some_and(|s| s > 0) {
            let p = self.local_with_lifetime(name, &ty, again)?;
            self.align_object(&p, align);
            self.bind_local(x, p, true);
        } else {
            let obj = self.new_object(&name, &ty, VarScope::Local(self.tid), Init::Nondet)?;
            let p = Val::P {
                obj,
                off: 0,
                dyn_: vec![],
            };
            self.align_object(&p, align);
            self.bind_local(x, p, false);
        }
        Ok(())
    }

    /// Records that every run aligns the object `p` points to to `align`.
    fn align_object(&mut self, p: &Val, align: u64) {
        if let Val::P { obj, .. } = p {
            self.alignments.insert(*obj, align);
        }
    }

    /// The alignment every compiler gives an object of type `t` that the module aligns to
    /// `align` (clang's choice): no more than the type's own, but for a global array of 16
    /// bytes or more, which the x86-64 psABI aligns to 16 (gcc aligns local arrays so only
    /// where it optimises for speed).
    fn declared_alignment(&self, align: u32, t: &TypeRef, global: bool) -> u64 {
        let Some((size, own)) = self.layout.size_align(t) else {
            return 1;
        };
        let abi = if global && matches!(t.as_ref(), Type::ArrayType { .. }) && size >= 16 {
            own.max(16)
        } else {
            own
        };
        (align.max(1) as u64).min(abi)
    }

    /// Binds the `alloca` `x` to `p`, a pointer to a local object of the function; with
    /// `lifetime`, the object's status cell is freed when the function returns.
    fn bind_local(&mut self, x: &'m ins::Alloca, p: Val, lifetime: bool) {
        if let Val::P { obj, .. } = p {
            let f = self.frame();
            f.locals.insert(obj);
            if lifetime {
                f.lifetimes.push(obj);
            }
        }
        self.bind(&x.dest, p, Ty::ULONG);
    }

    /// For a local whose address may outlive its call: the name of the model's limit that a
    /// later call of its function from the same place meets ([`Lowerer::start_lifetime`]).
    fn lifetime_again(&self, x: &ins::Alloca) -> Option<String> {
        let f = self.frames.last().expect("frame");
        f.escaping.contains(&x.dest).then(|| {
            format!(
                "<a local `{}` of `{}` made again by a later call (a pointer to the earlier one \
                 may be kept)>",
                name_str(&x.dest),
                f.func.name
            )
        })
    }

    /// Whether the current function's locals may die while the program runs: those of every
    /// call but `main`'s own, whose return ends the program (and every thread with it),
    /// unless `main` may end its thread by `pthread_exit` while the others go on.
    fn frame_ends_lifetimes(&self) -> bool {
        !(self.tid == ThreadId(0) && self.frames.len() == 1) || self.main_exits_thread
    }

    /// Assignments that end the lifetimes of the locals of the innermost `frames` calls
    /// (their status cells freed): a pointer to one dangles from here on.
    pub(super) fn end_lifetimes(&self, frames: usize) -> Vec<Op> {
        self.frames[self.frames.len() - frames..]
            .iter()
            .flat_map(|f| &f.lifetimes)
            .map(|&v| Op::Assign {
                place: super::heap::status_cell(v),
                value: Expr::constant(crate::ir::FREED, Ty::LONG),
            })
            .collect()
    }

    /// A recursive call deeper than [`Options::max_recursion`]: the model's limit
    /// ([`Lowerer::model_limit`]); the lowering goes on with an arbitrary result, which no
    /// execution reaches.
    fn recursion_limit(&mut self, f: &'m Function) -> R<Option<Val>> {
        let why = format!(
            "<recursion of {} deeper than {} calls (--max-recursion)>",
            f.name, self.opts.max_recursion
        );
        self.model_limit(why, Expr::tt())?;
        let ret = match self.m.types.type_of(f).as_ref() {
            Type::FuncType { result_type, .. } => match result_type.as_ref() {
                Type::VoidType => None,
                t => {
                    let ty = self.reg_ty(t).unwrap_or(Ty::ULONG);
                    Some(Val::E(Expr::constant(0, ty)))
                }
            },
            _ => None,
        };
        Ok(ret)
    }

    /// A limit of the model: where `past` holds, the execution is undefined (a write out of
    /// bounds of a ghost variable of one element named `why`, which the verdict names); a
    /// write of element 0 (harmless) otherwise.
    pub(super) fn model_limit(&mut self, why: String, past: Expr) -> R<()> {
        let limit = self.limit_var(why);
        self.step(
            Expr::tt(),
            vec![Op::model_limit(limit, past)],
            TransKind::Stmt,
        )?;
        Ok(())
    }

    /// The ghost variable of the model's limit named `why` ([`Lowerer::model_limit`]).
    pub(super) fn limit_var(&mut self, why: String) -> VarId {
        if let Some(v) = self.limits.get(&why) {
            return *v;
        }
        let v = self.new_var(
            why.clone(),
            ElemKind::Int(Ty::CHAR),
            1,
            true,
            VarScope::Ghost,
            Init::Zero,
            None,
        );
        self.limits.insert(why, v);
        v
    }

    /// Width in bytes and IR type of a loaded or stored LLVM type.
    pub(super) fn access_ty(&self, t: &Type) -> R<(u64, Ty)> {
        let ty = self.reg_ty(t)?;
        let w = self.layout.size(t).unwrap_or(8);
        Ok((w, ty))
    }

    fn load(&mut self, x: &'m ins::Load) -> R<()> {
        if self.members(&x.loaded_ty).is_some() {
            let ptr = self.val(&x.address)?;
            let v = self.load_aggregate(&ptr, &x.loaded_ty, &name_str(&x.dest))?;
            self.frame().set_reg(&x.dest, v);
            return Ok(());
        }
        let (w, ty) = self.access_ty(&x.loaded_ty)?;
        let ptr = self.val(&x.address)?;
        let place = self.place(&ptr, w, ty)?;
        let r = self.temp(&name_str(&x.dest), ty);
        self.access_step(
            vec![Op::Assign {
                place: Place::scalar(r),
                value: Expr::Load { place, ty },
            }],
            access_kind(x.atomicity.is_some()),
        )?;
        self.frame().set_reg(&x.dest, Val::E(Expr::var(r, ty)));
        Ok(())
    }

    fn store(&mut self, x: &'m ins::Store) -> R<()> {
        let vt = self.m.types.type_of(&x.value);
        if self.members(&vt).is_some() {
            let (ptr, v) = (self.val(&x.address)?, self.val(&x.value)?);
            return self.store_aggregate(&ptr, &vt, &v);
        }
        let (w, ty) = self.access_ty(&vt)?;
        let ptr = self.val(&x.address)?;
        let place = self.place(&ptr, w, ty)?;
        let v = self.expr(&x.value)?;
        self.access_step(
            vec![Op::Assign {
                place,
                value: cast(v, ty),
            }],
            access_kind(x.atomicity.is_some()),
        )?;
        Ok(())
    }

    fn cmpxchg(&mut self, x: &'m ins::CmpXchg) -> R<()> {
        let vt = self.m.types.type_of(&x.expected);
        let (w, ty) = self.access_ty(&vt)?;
        let ptr = self.val(&x.address)?;
        let place = self.place(&ptr, w, ty)?;
        let exp = self.expr(&x.expected)?;
        let new = self.expr(&x.replacement)?;
        let old = self.temp(&format!("{}.old", name_str(&x.dest)), ty);
        let oldv = Expr::var(old, ty);
        let ok = bin(BinOp::Eq, oldv.clone(), cast(exp, ty), Ty::INT);
        self.access_step(
            vec![
                Op::Assign {
                    place: Place::scalar(old),
                    value: Expr::Load {
                        place: place.clone(),
                        ty,
                    },
                },
                Op::Assign {
                    place,
                    value: ite(ok.clone(), cast(new, ty), oldv.clone(), ty),
                },
            ],
            TransKind::Sync(SyncKind::Atomic),
        )?;
        let okv = self.temp(&format!("{}.ok", name_str(&x.dest)), Ty::BOOL);
        self.pending.push(Op::Assign {
            place: Place::scalar(okv),
            value: ok,
        });
        self.frame().set_reg(
            &x.dest,
            Val::Tuple(vec![Val::E(oldv), Val::E(Expr::var(okv, Ty::BOOL))]),
        );
        Ok(())
    }

    fn atomicrmw(&mut self, x: &'m ins::AtomicRMW) -> R<()> {
        use llvm_ir::instruction::RMWBinOp as B;
        let vt = self.m.types.type_of(&x.value);
        let (w, ty) = self.access_ty(&vt)?;
        let ptr = self.val(&x.address)?;
        let place = self.place(&ptr, w, ty)?;
        let v = cast(self.expr(&x.value)?, ty);
        let old = self.temp(&name_str(&x.dest), ty);
        let o = Expr::var(old, ty);
        let u = unsigned(ty);
        let wrap = |op: BinOp| cast(bin(op, cast(o.clone(), u), cast(v.clone(), u), u), ty);
        let new = match x.operation {
            B::Xchg => v.clone(),
            B::Add => wrap(BinOp::Add),
            B::Sub => wrap(BinOp::Sub),
            B::And => bin(BinOp::BitAnd, o.clone(), v.clone(), ty),
            B::Or => bin(BinOp::BitOr, o.clone(), v.clone(), ty),
            B::Xor => bin(BinOp::BitXor, o.clone(), v.clone(), ty),
            B::Nand => Expr::Unary {
                op: UnOp::BitNot,
                arg: Box::new(bin(BinOp::BitAnd, o.clone(), v.clone(), ty)),
                ty,
            },
            B::Max => ite(
                bin(BinOp::Gt, o.clone(), v.clone(), Ty::INT),
                o.clone(),
                v.clone(),
                ty,
            ),
            B::Min => ite(
                bin(BinOp::Lt, o.clone(), v.clone(), Ty::INT),
                o.clone(),
                v.clone(),
                ty,
            ),
            B::UMax => ite(
                bin(BinOp::Gt, cast(o.clone(), u), cast(v.clone(), u), Ty::INT),
                o.clone(),
                v.clone(),
                ty,
            ),
            B::UMin => ite(
                bin(BinOp::Lt, cast(o.clone(), u), cast(v.clone(), u), Ty::INT),
                o.clone(),
                v.clone(),
                ty,
            ),
            _ => return self.unsupported("floating point atomic operation"),
        };
        self.access_step(
            vec![
                Op::Assign {
                    place: Place::scalar(old),
                    value: Expr::Load {
                        place: place.clone(),
                        ty,
                    },
                },
                Op::Assign { place, value: new },
            ],
            TransKind::Sync(SyncKind::Atomic),
        )?;
        self.frame().set_reg(&x.dest, Val::E(o));
        Ok(())
    }

    // ----------------------------------------------------------------- terminators

    /// An edge from block `from` (in the current context) to block `to` with `guard` and
    /// `ops` before the phi assignments: the phis of `to` that are specialised and get a
    /// constant choose the target's context; the others are assigned (in parallel, through
    /// temporaries when a value reads a phi of the same block).
    fn goto(
        &mut self,
        from: usize,
        to: &'m Name,
        guard: Expr,
        mut ops: Vec<Op>,
        kind: TransKind,
    ) -> R<TransId> {
        let f = self.frames.last().expect("frame").func;
        let Some(&t) = self.frames.last().expect("frame").index.get(to) else {
            return self.invalid(format!("branch to a missing block {}", name_str(to)));
        };
        let from_name = &f.basic_blocks[from].name;
        // (The constants of specialised phis no code from `t` on reads are dropped.)
        let mut env: Env = {
            let fr = self.frames.last().expect("frame");
            let live = &fr.spec_live[t];
            let mut env = fr.envs[fr.ctx].clone();
            env.retain(|(k, _)| {
                *k != THREADS_STARTED && *k != ATOMIC_DEPTH && live.contains(fr.phi_names[*k])
            });
            env
        };
        let depth = {
            let fr = self.frames.last().expect("frame");
            self.atomic_depth as i128 - fr.base_depth as i128
        };
        if depth > MAX_ATOMIC_DEPTH {
            return self.unsupported(format!(
                "atomic regions nested more than {MAX_ATOMIC_DEPTH} deep"
            ));
        }
        if depth != 0 {
            env.push((ATOMIC_DEPTH, depth));
        }
        let mut assigns = Vec::new();
        let full = self
            .frames
            .last()
            .expect("frame")
            .made
            .get(&t)
            .copied()
            .unwrap_or(0)
            >= MAX_CONTEXTS;
        // Once no creation can start a thread (the program has the bound's threads; this
        // holds from then on, in every function lowered later too), iterations of a loop
        // that starts threads are alike: no phi is specialised any more, so that the copies
        // close into a loop.
        let full = full || self.creations_exhausted();
        if !full && self.frames.last().expect("frame").creation_cycles[t] {
            env.push((THREADS_STARTED, self.threads.len() as i128));
        }
        for i in &f.basic_blocks[t].instrs {
            let Instruction::Phi(p) = i else { break };
            let fr = self.frames.last().expect("frame");
            let id = fr.phi_ids[&p.dest];
            let (var, ty) = fr.phi_vars[&p.dest];
            let spec = fr.spec.contains(&p.dest);
            env.retain(|(k, _)| *k != id);
            let Some((o, _)) = p.incoming_values.iter().find(|(_, b)| b == from_name) else {
                continue;
            };
            let v = cast(self.expr(o)?, ty);
            // (An undefined value's input is made before the assignments read it.)
            ops.append(&mut self.pending);
            if spec && !full {
                if let Some(c) = self.const_eval(&v) {
                    env.push((id, ty.wrap(c)));
                    continue;
                }
            }
            assigns.push((var, ty, v));
        }
        env.sort_unstable();
        let phi_vars: HashSet<VarId> = assigns.iter().map(|(v, _, _)| *v).collect();
        let reads_phi = assigns.iter().any(|(_, _, e)| {
            let mut hit = false;
            e.for_each_place(&mut |p| {
                if let Place::Var { var, .. } = p {
                    hit |= phi_vars.contains(var);
                }
            });
            hit
        });
        if reads_phi && assigns.len() > 1 {
            let mut tmps = Vec::new();
            for (k, (_, ty, e)) in assigns.iter().enumerate() {
                let t = self.temp(&format!("phi{k}"), *ty);
                ops.push(Op::Assign {
                    place: Place::scalar(t),
                    value: e.clone(),
                });
                tmps.push(Expr::var(t, *ty));
            }
            for ((v, _, _), t) in assigns.iter().zip(tmps) {
                ops.push(Op::Assign {
                    place: Place::scalar(*v),
                    value: t,
                });
            }
        } else {
            for (v, _, e) in assigns {
                ops.push(Op::Assign {
                    place: Place::scalar(v),
                    value: e,
                });
            }
        }
        let fr = self.frames.last_mut().expect("frame");
        let ctx = fr.context(env);
        let dst = match fr.blocks.get(&(t, ctx)) {
            Some(l) => *l,
            None => {
                *fr.made.entry(t).or_insert(0) += 1;
                fr.work.push_back((t, ctx));
                let l = self.new_loc(LocKind::Normal);
                self.frame().blocks.insert((t, ctx), l);
                l
            }
        };
        self.edge(self.cur, dst, guard, ops, kind)
    }

    /// The branch or switch being lowered went to its successor `k` by step `t`, decided in
    /// this copy ([`Lowerer::arms_of_decided_copies`]).
    fn note_decided(&mut self, t: TransId, k: u32) {
        if let Some([n, _]) = self.at {
            self.decided.push((self.tid, t, n, k));
        }
    }

    /// The branch or switch being lowered has arms in this copy.
    fn note_taken(&mut self) {
        if let Some([n, _]) = self.at {
            self.taken.insert(n);
        }
    }

    /// The steps by which copies of a branch or switch that the lowering decided (a loop's
    /// first rounds, unrolled with their counter known) go on, where another copy has arms
    /// (the rest of the loop): they become arms too, whose guard holds. The built program
    /// reports the arm it takes at every copy of the instruction; the schedule then has it
    /// as an event in every copy, as it has every other copy of an arm it branches on.
    fn arms_of_decided_copies(&mut self) {
        for &(tid, t, n, k) in &self.decided {
            if self.taken.contains(&n) {
                let tr = &mut self.threads[tid.0 as usize].1.transitions[t.0 as usize];
                tr.kind = TransKind::Branch;
                tr.at = Some([n, k]);
            }
        }
    }

    /// The arms made next go to successor `k` of the terminator being lowered (LLVM's
    /// numbering: a conditional branch's true successor is 0, a switch's default is 0).
    fn successor(&mut self, k: u32) {
        if let Some(at) = &mut self.at {
            at[1] = k;
        }
    }

    fn terminator(&mut self, block: usize, t: &'m Terminator) -> R<()> {
        match t {
            Terminator::Br(b) => {
                let ops = std::mem::take(&mut self.pending);
                self.goto(block, &b.dest, Expr::tt(), ops, TransKind::Stmt)?;
            }
            Terminator::CondBr(b) => {
                let c = truth(self.expr(&b.condition)?);
                self.flush()?;
                match self.const_eval(&c) {
                    // Decided while lowering (a specialised loop counter, `argc`).
                    Some(v) => {
                        let (dest, k) = if v != 0 {
                            (&b.true_dest, 0)
                        } else {
                            (&b.false_dest, 1)
                        };
                        let t = self.goto(block, dest, Expr::tt(), vec![], TransKind::Stmt)?;
                        self.note_decided(t, k);
                    }
                    None => {
                        self.note_taken();
                        self.successor(0);
                        self.goto(block, &b.true_dest, c.clone(), vec![], TransKind::Branch)?;
                        self.successor(1);
                        self.goto(block, &b.false_dest, not(c), vec![], TransKind::Branch)?;
                    }
                }
            }
            Terminator::Switch(s) => {
                let x = self.expr(&s.operand)?;
                self.flush()?;
                let t = x.ty();
                let known = self.const_eval(&x);
                let mut others = Vec::new();
                for (k, (c, dest)) in s.dests.iter().enumerate() {
                    self.successor(k as u32 + 1);
                    let Val::E(cv) = self.const_val(c)? else {
                        return self.unsupported("switch over a non-integer");
                    };
                    if let Some(k) = known {
                        if cv.as_const().map(|v| t.wrap(v)) == Some(t.wrap(k)) {
                            let tr = self.goto(block, dest, Expr::tt(), vec![], TransKind::Stmt)?;
                            self.note_decided(tr, self.at.map_or(0, |a| a[1]));
                            return Ok(());
                        }
                        continue;
                    }
                    let g = bin(BinOp::Eq, x.clone(), cast(cv.clone(), t), Ty::INT);
                    others.push(bin(BinOp::Ne, x.clone(), cast(cv, t), Ty::INT));
                    self.goto(block, dest, g, vec![], TransKind::Branch)?;
                }
                let g = others
                    .into_iter()
                    .reduce(|a, b| bin(BinOp::And, a, b, Ty::INT))
                    .unwrap_or_else(Expr::tt);
                let kind = if g.is_true() {
                    TransKind::Stmt
                } else {
                    self.note_taken();
                    TransKind::Branch
                };
                self.successor(0);
                let tr = self.goto(block, &s.default_dest, g, vec![], kind)?;
                if known.is_some() {
                    self.note_decided(tr, 0);
                }
            }
            Terminator::Ret(r) => {
                let ret = self.frames.last().expect("frame").ret.clone();
                if let (Some(o), Some((t, vars))) = (&r.return_operand, ret) {
                    let v = match self.val(o)? {
                        // A pointer to the function's own local dangles once it returns: its
                        // value is indeterminate (C11 6.2.4p2), null as gcc makes it or an
                        // address no object has (as clang leaves the stack's).
                        Val::P { obj, .. }
                            if self.frames.last().expect("frame").locals.contains(&obj) =>
                        {
                            let null = self.made_up_pending("dangling", Ty::BOOL);
                            Val::E(ite(
                                Expr::var(null, Ty::BOOL),
                                Expr::constant(0, Ty::ULONG),
                                Expr::constant(crate::ir::DANGLING, Ty::ULONG),
                                Ty::ULONG,
                            ))
                        }
                        v => v,
                    };
                    let values = self.flatten(&v, &t)?;
                    self.pending
                        .extend(
                            vars.into_iter()
                                .zip(values)
                                .map(|((var, ty), e)| Op::Assign {
                                    place: Place::scalar(var),
                                    value: cast(e, ty),
                                }),
                        );
                }
                // The locals with a lifetime end here: a pointer to one dangles.
                let ends = self.end_lifetimes(1);
                let access = !ends.is_empty();
                self.pending.extend(ends);
                let depth = self.atomic_depth;
                let fr = self.frame();
                if *fr.ret_depth.get_or_insert(depth) != depth {
                    return self.unsupported(
                        "a function that returns inside an atomic region on one path and outside it on another",
                    );
                }
                let ops = std::mem::take(&mut self.pending);
                let dst = self.frames.last().expect("frame").ret_loc;
                let t = self.edge(self.cur, dst, Expr::tt(), ops, TransKind::Stmt)?;
                // (The instrumentation places the status cells' writes at the return.)
                self.tb.transitions[t.0 as usize].memory_access |= access;
            }
            Terminator::Unreachable(_) => {
                // Reached only after a call that does not return (modelled as a jump).
            }
            other => return self.unsupported(format!("terminator `{other}`")),
        }
        Ok(())
    }
}

/// The kind of a load's or store's transition: atomic accesses synchronise.
fn access_kind(atomic: bool) -> TransKind {
    if atomic {
        TransKind::Sync(SyncKind::Atomic)
    } else {
        TransKind::Stmt
    }
}

/// Whether an expression takes the address of a variable.
fn takes_address(e: &Expr) -> bool {
    let mut any = false;
    e.for_each_addr(&mut |_| any = true);
    any
}

/// `e + off + Σ index * stride` in addresses.
fn offset_expr(mut e: Expr, off: i64, dyn_: &[(Expr, u64)]) -> Expr {
    if off != 0 {
        e = bin(
            BinOp::Add,
            e,
            Expr::constant(off as i128, Ty::ULONG),
            Ty::ULONG,
        );
    }
    for (x, s) in dyn_ {
        let term = bin(
            BinOp::Mul,
            cast(x.clone(), Ty::ULONG),
            Expr::constant(*s as i128, Ty::ULONG),
            Ty::ULONG,
        );
        e = bin(BinOp::Add, e, term, Ty::ULONG);
    }
    e
}

/// `a && b`, without a constant true operand.
pub(super) fn and(a: Expr, b: Expr) -> Expr {
    if a.is_true() {
        return b;
    }
    if b.is_true() {
        return a;
    }
    bin(BinOp::And, a, b, Ty::INT)
}

/// Adds `i * size` to a pointer offset; `value`: `i`'s value where it is made of constants
/// (`0 - offsetof(...)` as clang leaves it in `container_of`, [`Lowerer::const_eval`]).
fn add_term(off: &mut i64, dyn_: &mut Vec<(Expr, u64)>, i: &Expr, value: Option<i128>, size: u64) {
    match value {
        Some(k) => *off += k as i64 * size as i64,
        None => dyn_.push((i.clone(), size)),
    }
}

/// `e != 0` as a condition (comparisons are conditions already).
pub(super) fn truth(e: Expr) -> Expr {
    match &e {
        Expr::Binary { op, .. } if op.is_predicate() => e,
        _ if e.ty() == Ty::BOOL => bin(BinOp::Ne, e, Expr::constant(0, Ty::BOOL), Ty::INT),
        _ => {
            let t = e.ty();
            bin(BinOp::Ne, e, Expr::constant(0, t), Ty::INT)
        }
    }
}

/// The negation of a condition.
pub(super) fn not(c: Expr) -> Expr {
    Expr::Unary {
        op: UnOp::Not,
        arg: Box::new(c),
        ty: Ty::INT,
    }
}

/// A register or global's name as written in the IR (without `%`/`@`).
pub(super) fn name_str(n: &Name) -> String {
    match n {
        Name::Name(s) => s.to_string(),
        Name::Number(k) => k.to_string(),
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

/// Whether `f` reads its variable arguments: its body calls `llvm.va_start`.
pub(super) fn reads_variable_arguments(f: &Function) -> bool {
    f.basic_blocks
        .iter()
        .flat_map(|b| &b.instrs)
        .any(|i| super::loops::callee(i).is_some_and(|n| n.starts_with("llvm.va_start")))
}

/// Whether places `a` and `b` may be the same cell: always, unless both name variables and
/// differ in the variable or in a constant index.
fn may_be_same_cell(a: &Place, b: &Place) -> bool {
    let index = |i: &Option<Box<Expr>>| match i {
        None => Some(0),
        Some(e) => e.as_const(),
    };
    match (a, b) {
        (Place::Var { var: x, index: i }, Place::Var { var: y, index: j }) => {
            x == y && !matches!((index(i), index(j)), (Some(k), Some(l)) if k != l)
        }
        _ => true,
    }
}
