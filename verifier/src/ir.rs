//! The thread IR: what every later stage (interpreter, ART verifier, explorer, schedule
//! generator) works on.
//!
//! The program model is the one of `DESIGN.md` ("Program model") and of the paper's
//! section "Preliminaries" (seed 002): a bounded set of threads, each a control-flow graph of
//! locations and guarded transitions over a shared store.
//!
//! # Semantics (shared by the interpreter, the verifier and the explorer)
//!
//! * **Values** are C integers of the type an expression carries ([`Ty`]): arithmetic is done on
//!   exact integers; unsigned results and conversions wrap to the width of the type (two's
//!   complement, as `gcc` does on x86-64). Signed arithmetic that overflows, division or
//!   remainder by zero and shifts by a negative amount or by at least the width are *undefined*
//!   (C11 6.5): an execution that performs one stops with an `undefined` outcome.
//! * **Pointers** are 64-bit values: `0` is `NULL`, an address is `((var + 1) << 32) + index`
//!   (see [`address`]); pointer arithmetic counts elements. Pointers whose target is known while
//!   lowering (arguments such as `&queue`) never reach the IR: they are substituted.
//! * **Variables** are globals, thread locals (each thread has its own copies, since each thread
//!   has its own CFG), heap objects (one per `malloc` site) and ghost variables the front end adds.
//!   Globals start at their initialiser or zero; locals and `malloc` memory start with an
//!   arbitrary value (an input).
//! * A **transition** is enabled when its thread is at its source location, the guard holds and
//!   no other thread is inside an atomic region. Executing it runs its ops in order.
//! * `assert`, `reach_error` and friends go to the thread's error location. A thread that returns
//!   reaches its exit location (terminal); `main` returning, `exit` and `abort` go to the halt
//!   location, which ends the whole program normally. A local `assume` that fails goes to the
//!   discard location: the execution is dropped (inputs are restricted), it is not a deadlock.
//! * A **deadlock** is a state in which some started thread is not terminal and no thread is
//!   enabled. Threads that were never started do not count.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Identifies a variable of [`Program::vars`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct VarId(pub u32);
/// Identifies a thread of [`Program::threads`]; thread 0 is `main`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ThreadId(pub u32);

/// The `pthread_t` a creation refused for the thread bound leaves behind; joining it returns
/// `ESRCH` at once. The runtime's creation writes the same value (`SYNTH_NO_THREAD` of
/// `synth_enforcer.h`).
pub const NO_THREAD: u64 = u64::MAX;

/// The `pthread_t` value of thread 0 (`main`); thread `k`'s is `THREAD_ID_BASE + k`. glibc's
/// ids are addresses: none is 0 or a small number a program may compare one with (`main`'s
/// included), and their low 32 bits are not 0 either.
pub const THREAD_ID_BASE: i128 = 0x7f00_0000_1000;

/// The `pthread_t` value of thread `t` ([`THREAD_ID_BASE`]).
pub fn thread_id(t: ThreadId) -> i128 {
    THREAD_ID_BASE + t.0 as i128
}

/// The value a mutex (or a rwlock's writer cell) holds while thread `t` holds it; 0 while no
/// thread does.
pub fn lock_owner(t: ThreadId) -> i128 {
    t.0 as i128 + 1
}

/// The thread number (the index of `__thread_done`) of the `pthread_t` value `id`, a `long`.
pub fn thread_index(id: Expr) -> Expr {
    Expr::Binary {
        op: BinOp::Sub,
        lhs: Box::new(id),
        rhs: Box::new(Expr::constant(THREAD_ID_BASE, Ty::LONG)),
        ty: Ty::LONG,
    }
}

/// [`NO_THREAD`] as a `pthread_t` value.
pub fn no_thread() -> Expr {
    Expr::constant(i128::from(NO_THREAD), Ty::ULONG)
}

/// Whether the `pthread_t` value `id` is [`NO_THREAD`] (an `int`, 1 or 0).
pub fn is_no_thread(id: Expr) -> Expr {
    let id = match id.ty() {
        Ty::ULONG => id,
        _ => Expr::Cast {
            arg: Box::new(id),
            ty: Ty::ULONG,
        },
    };
    Expr::Binary {
        op: BinOp::Eq,
        lhs: Box::new(id),
        rhs: Box::new(no_thread()),
        ty: Ty::INT,
    }
}

/// The guard of `pthread_join` of a thread whose `__thread_done` flag is at `done`: the join
/// returns at once (`at_once`: the id is [`NO_THREAD`], which returns `ESRCH`, or the calling
/// thread's own, which returns `EDEADLK`), or the thread has ended.
/// [`Transition::joins_no_thread`] takes it apart.
pub fn join_guard(at_once: Expr, done: Place) -> Expr {
    let ended = Expr::Binary {
        op: BinOp::Eq,
        lhs: Box::new(Expr::Load {
            place: done,
            ty: Ty::INT,
        }),
        rhs: Box::new(Expr::int(1)),
        ty: Ty::INT,
    };
    Expr::Binary {
        op: BinOp::Or,
        lhs: Box::new(at_once),
        rhs: Box::new(ended),
        ty: Ty::INT,
    }
}

/// Identifies a location of one thread's CFG.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct LocId(pub u32);
/// Identifies a transition of one thread's CFG.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct TransId(pub u32);

impl fmt::Display for ThreadId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "T{}", self.0)
    }
}

/// Encodes the address of element `index` of variable `var`.
pub fn address(var: VarId, index: i128) -> i128 {
    ((var.0 as i128 + 1) << 32) + index
}

/// The address a pointer to a local variable of a function that has returned holds: no
/// object's (a dereference is a memory error).
pub const DANGLING: i128 = (u32::MAX as i128) << 32;

/// Decodes an address into variable and element index (no bounds check).
pub fn decode_address(addr: i128) -> Option<(VarId, i128)> {
    let var = (addr >> 32) - 1;
    if addr <= 0 || var < 0 || var > u32::MAX as i128 {
        return None;
    }
    Some((VarId(var as u32), addr & 0xffff_ffff))
}

/// An integer type: width in bits and signedness. `_Bool` is [`Ty::BOOL`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Ty {
    /// 1 (`_Bool`), 8, 16, 32 or 64.
    pub bits: u8,
    /// Two's complement when set.
    pub signed: bool,
}

impl Ty {
    /// `_Bool`.
    pub const BOOL: Ty = Ty {
        bits: 1,
        signed: false,
    };
    /// `int`.
    pub const INT: Ty = Ty {
        bits: 32,
        signed: true,
    };
    /// `unsigned int`.
    pub const UINT: Ty = Ty {
        bits: 32,
        signed: false,
    };
    /// `long`.
    pub const LONG: Ty = Ty {
        bits: 64,
        signed: true,
    };
    /// `unsigned long`; also the type of pointers and thread ids.
    pub const ULONG: Ty = Ty {
        bits: 64,
        signed: false,
    };
    /// `char` (signed, as on x86-64).
    pub const CHAR: Ty = Ty {
        bits: 8,
        signed: true,
    };
    /// `unsigned char`: a byte.
    pub const UCHAR: Ty = Ty {
        bits: 8,
        signed: false,
    };

    /// Converts an exact integer to this type (C conversion rules, two's complement wrap).
    #[inline]
    pub fn wrap(self, v: i128) -> i128 {
        // The common widths by the machine's own truncation (the low bits, read as the type).
        match (self.bits, self.signed) {
            (1, _) => return (v != 0) as i128,
            (8, true) => return v as i8 as i128,
            (8, false) => return v as u8 as i128,
            (16, true) => return v as i16 as i128,
            (16, false) => return v as u16 as i128,
            (32, true) => return v as i32 as i128,
            (32, false) => return v as u32 as i128,
            (64, true) => return v as i64 as i128,
            (64, false) => return v as u64 as i128,
            _ => {}
        }
        self.wrap_bits(v)
    }

    /// [`Ty::wrap`] by arithmetic on `i128`, for any width below 128.
    fn wrap_bits(self, v: i128) -> i128 {
        let m = 1i128 << self.bits;
        // `v` modulo the power of two `m` (Euclidean): its low bits.
        let r = v & (m - 1);
        if self.signed && r >= m / 2 {
            r - m
        } else {
            r
        }
    }

    /// Smallest value of the type.
    pub fn min(self) -> i128 {
        if self.signed {
            -(1i128 << (self.bits - 1))
        } else {
            0
        }
    }

    /// Largest value of the type.
    pub fn max(self) -> i128 {
        if self.bits == 1 {
            1
        } else if self.signed {
            (1i128 << (self.bits - 1)) - 1
        } else {
            (1i128 << self.bits) - 1
        }
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.bits == 1 {
            write!(f, "bool")
        } else {
            write!(f, "{}{}", if self.signed { "i" } else { "u" }, self.bits)
        }
    }
}

/// What a variable's elements hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ElemKind {
    /// An integer of the given type.
    Int(Ty),
    /// A pointer (an address, see [`address`]).
    Ptr,
    /// A `pthread_mutex_t`: 0 when free, owner thread id + 1 when held.
    Mutex,
    /// A `pthread_cond_t`. Its value is unused: thread `t` waiting on element `i` is flag
    /// `i * 64 + t` of the variable `<name>.waiters`.
    Cond,
    /// A `pthread_barrier_t` arrival counter (its threshold and generation are the
    /// variables named `<name>.n` and `<name>.gen`).
    Barrier,
}

impl ElemKind {
    /// The integer type values of this kind are stored as.
    pub fn ty(self) -> Ty {
        match self {
            ElemKind::Int(t) => t,
            ElemKind::Ptr | ElemKind::Cond => Ty::ULONG,
            ElemKind::Mutex | ElemKind::Barrier => Ty::LONG,
        }
    }

    /// Synchronisation objects (mutexes, condition variables, barriers).
    pub fn is_sync(self) -> bool {
        matches!(self, ElemKind::Mutex | ElemKind::Cond | ElemKind::Barrier)
    }
}

/// Where a variable lives.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum VarScope {
    /// A C global (file-scope or `static`).
    Global,
    /// A local of one thread (including the front end's temporaries).
    Local(ThreadId),
    /// The object allocated by one `malloc`/`calloc` site.
    Heap,
    /// Bookkeeping added by the front end (e.g. `__thread_done`).
    Ghost,
}

/// Initial contents of a variable.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Init {
    /// Every element is zero.
    Zero,
    /// Element values (missing trailing elements are zero).
    Values(Vec<i128>),
    /// Every element is an arbitrary value (an input): uninitialised locals, `malloc` memory.
    Nondet,
}

/// A variable: a scalar or a fixed-size array of [`ElemKind`]. Struct fields are flattened
/// into one variable each (an array of structs becomes one array per field).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Var {
    /// The variable's id (its index in [`Program::vars`]).
    pub id: VarId,
    /// C access path: `g`, `queue.head`, `main::arg`, `T1::tmp3`.
    pub name: String,
    /// Element kind.
    pub elem: ElemKind,
    /// Number of elements; 1 for a scalar.
    pub len: u32,
    /// Whether the C object was an array (so it is indexed).
    pub is_array: bool,
    /// Where it lives.
    pub scope: VarScope,
    /// Initial contents.
    pub init: Init,
    /// Set by the analysis: touched by two threads (directly or through a pointer).
    pub shared: bool,
    /// Where it was declared.
    pub span: Option<Span>,
    /// The C lvalue of its elements with `[]` for each array dimension (`arr[].f[]`); empty
    /// for variables the front end made.
    #[serde(default)]
    pub c_path: String,
    /// Lengths of the array dimensions in `c_path`, outermost first.
    #[serde(default)]
    pub dims: Vec<u32>,
    /// Where its elements lie in the address space; `None` is the variable's own object with
    /// elements one address apart (see [`Placement`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placement: Option<Placement>,
    /// Whether this variable holds the allocation status of its object's instances (the
    /// first variable of a heap allocation site): element `j` is [`NEVER_ALLOCATED`],
    /// [`FREED`], or [`ALLOCATED`] (or [`MAPPED`]) plus the size; instance `j` spans the
    /// object's bytes from `j * stride` to `(j + 1) * stride` (the placement's stride), its
    /// payload from [`ALLOCATION_HEADER`] bytes in. An access to another cell of the object
    /// is defined only while its instance is allocated and within the size allocated:
    /// reading or writing freed memory, or past the end of a block, is undefined, and it
    /// reads the status cell.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub allocation_status: bool,
    /// Whether the variable lies in read-only memory (a string literal or another constant
    /// object the compiler places in `.rodata`): a write to it is a memory error, as the
    /// deployed program's segmentation fault shows.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub read_only: bool,
    /// Whether the values [`Op::Havoc`] writes to this variable are the program's inputs
    /// (`__VERIFIER_nondet_*` results: any value, which the environment chooses), rather
    /// than values the model does not compute (an external function's result, a float, an
    /// undefined value), which a run of the compiled program fixes in ways the model does
    /// not know.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub input: bool,
}

/// Allocation status of a heap instance never allocated ([`Var::allocation_status`]).
pub const NEVER_ALLOCATED: i128 = 0;
/// Allocation status of a freed heap instance.
pub const FREED: i128 = 2;
/// Allocation status of an allocated heap instance of `n` bytes: `ALLOCATED + n`.
pub const ALLOCATED: i128 = 3;
/// Allocation status of an instance that holds a file mapping of `n` bytes (`mmap`):
/// `MAPPED + n` (memory `free` must not release, and `munmap` must).
pub const MAPPED: i128 = 1 << 40;
/// Allocation status of a variable-length array of `n` bytes (a local `char b[n]`):
/// `STACK + n` (memory that neither `free` nor `munmap` releases).
pub const STACK: i128 = 1 << 41;
/// The bases of the statuses of allocated instances, highest first: an instance whose status
/// is at least one of them (and below the ones before it) holds `status - base` bytes.
pub const ALLOCATED_BASES: [i128; 3] = [STACK, MAPPED, ALLOCATED];
/// Bytes of an instance before its payload (the status cell).
pub const ALLOCATION_HEADER: i128 = 8;

/// The bytes an instance with allocation status `status` holds, when it is allocated.
pub fn allocated_bytes(status: i128) -> Option<i128> {
    ALLOCATED_BASES
        .iter()
        .find(|b| status >= **b)
        .map(|b| status - b)
}

/// Where a variable's elements lie in the address space: element `i` is at address
/// `address(object, offset + i * stride)` (see [`address`]). The variables of one C object
/// (the fields of a struct, flattened) share its `object` and lie at the byte offsets of its
/// layout, so that pointer arithmetic in bytes moves between them as in C.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placement {
    /// The variable whose id numbers the object's addresses (its first variable).
    pub object: VarId,
    /// Offset of element 0 in the object.
    pub offset: u32,
    /// Distance between consecutive elements (at least 1).
    pub stride: u32,
}

impl Var {
    /// A scalar `id` named `name` that starts zeroed, is its own object and has no C lvalue,
    /// source position or marks (not shared until the analysis says so); callers set the
    /// other fields by struct update.
    pub fn plain(id: VarId, name: String, elem: ElemKind, scope: VarScope) -> Var {
        Var {
            id,
            name,
            elem,
            len: 1,
            is_array: false,
            scope,
            init: Init::Zero,
            shared: false,
            span: None,
            c_path: String::new(),
            dims: Vec::new(),
            placement: None,
            allocation_status: false,
            read_only: false,
            input: false,
        }
    }

    /// The variable's placement, with the default (its own object, one address apart) made
    /// explicit.
    pub fn placement(&self) -> Placement {
        self.placement.unwrap_or(Placement {
            object: self.id,
            offset: 0,
            stride: 1,
        })
    }

    /// The address of element 0.
    pub fn base_address(&self) -> i128 {
        let p = self.placement();
        address(p.object, p.offset as i128)
    }

    /// The address of element `i`.
    pub fn element_address(&self, i: i128) -> i128 {
        let p = self.placement();
        address(p.object, p.offset as i128 + i * p.stride as i128)
    }

    /// The element of this variable at `addr`, if the address is one of its elements'.
    pub fn element_at(&self, addr: i128) -> Option<i128> {
        let p = self.placement();
        let rel = addr - self.base_address();
        let stride = p.stride as i128;
        (rel >= 0 && rel % stride == 0 && rel / stride < self.len as i128).then(|| rel / stride)
    }

    /// The C lvalue of element `k` (row-major over `dims`), e.g. `arr[1].f[2]`.
    pub fn c_element(&self, k: usize) -> String {
        let mut idx = Vec::with_capacity(self.dims.len());
        let mut rest = k;
        for d in self.dims.iter().rev() {
            idx.push(rest % *d as usize);
            rest /= *d as usize;
        }
        idx.reverse();
        let mut out = String::new();
        let mut it = idx.into_iter();
        let mut parts = self.c_path.split("[]").peekable();
        while let Some(p) = parts.next() {
            out.push_str(p);
            if parts.peek().is_some() {
                out.push_str(&format!("[{}]", it.next().unwrap_or(0)));
            }
        }
        out
    }
}

/// A C object whose variables are placed in it (see [`Placement`]): a global, a local whose
/// address is taken, an allocation site.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Object {
    /// Its first variable, whose id numbers the object's addresses.
    pub var: VarId,
    /// The C name (a global's or a local's), or the allocation site.
    pub name: String,
    /// Its size in bytes.
    pub size: u64,
}

/// A source position range in the original (not preprocessed) file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Span {
    /// Index into [`Program::files`].
    pub file: u32,
    /// 1-based line of the first character.
    pub line: u32,
    /// 1-based column of the first character.
    pub col: u32,
    /// 1-based line of the last character.
    pub end_line: u32,
    /// 1-based column just after the last character (on `end_line`).
    pub end_col: u32,
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum UnOp {
    /// `-x`
    Neg,
    /// `~x`
    BitNot,
    /// `!x`
    Not,
}

/// Binary operators. Operands are already converted to the operation's type (the usual
/// arithmetic conversions are explicit [`Expr::Cast`]s), except for shifts, whose right operand
/// keeps its own type, and comparisons, whose result is `int`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    /// Logical and (no side effects in either operand, so evaluation order is immaterial,
    /// except that an undefined right operand is not evaluated when the left is false).
    And,
    /// Logical or (see [`BinOp::And`]).
    Or,
}

impl BinOp {
    /// The C spelling.
    pub fn symbol(self) -> &'static str {
        use BinOp::*;
        match self {
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            Rem => "%",
            Shl => "<<",
            Shr => ">>",
            BitAnd => "&",
            BitOr => "|",
            BitXor => "^",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
            Eq => "==",
            Ne => "!=",
            And => "&&",
            Or => "||",
        }
    }

    /// Comparison and logical operators (result `int` 0 or 1).
    pub fn is_predicate(self) -> bool {
        use BinOp::*;
        matches!(self, Lt | Le | Gt | Ge | Eq | Ne | And | Or)
    }

    /// Whether it compares its operands (`<`, `<=`, `>`, `>=`, `==`, `!=`).
    pub fn is_comparison(self) -> bool {
        use BinOp::*;
        matches!(self, Lt | Le | Gt | Ge | Eq | Ne)
    }

    /// The comparison that holds where this one does not (other operators as they are).
    pub fn negated(self) -> BinOp {
        use BinOp::*;
        match self {
            Lt => Ge,
            Le => Gt,
            Gt => Le,
            Ge => Lt,
            Eq => Ne,
            Ne => Eq,
            other => other,
        }
    }

    /// The comparison with its operands swapped: `a op b` is `b op' a` (other operators as
    /// they are).
    pub fn swapped(self) -> BinOp {
        use BinOp::*;
        match self {
            Lt => Gt,
            Le => Ge,
            Gt => Lt,
            Ge => Le,
            other => other,
        }
    }
}

/// A memory location an expression reads or an op writes.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Place {
    /// Element `index` of `var` (`None` for a scalar).
    Var {
        /// The variable.
        var: VarId,
        /// Element index for arrays.
        index: Option<Box<Expr>>,
    },
    /// The element at a run-time address (a pointer dereference); `targets` lists the variables
    /// the address may point to (from the points-to analysis).
    Deref {
        /// The address.
        addr: Box<Expr>,
        /// Type of the element read or written through the pointer.
        ty: Ty,
        /// Variables the address may point to.
        targets: Vec<VarId>,
        /// The model's access of the status cell before a heap block or variable-length
        /// array (its header: `free`, `realloc`, `munmap`), which reaches status cells only;
        /// an address with no block after it reads as [`NEVER_ALLOCATED`]. A program's
        /// dereference (`false`) never reaches a status cell: there it is out of bounds.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        header: bool,
    },
}

impl Place {
    /// A scalar variable.
    pub fn scalar(var: VarId) -> Place {
        Place::Var { var, index: None }
    }
}

/// A side-effect-free expression.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Expr {
    /// A constant of a type.
    Const {
        /// The value (already in range of `ty`).
        value: i128,
        /// Its type.
        ty: Ty,
    },
    /// The value stored at a place.
    Load {
        /// Where.
        place: Place,
        /// The type of the value.
        ty: Ty,
    },
    /// The address of an element of a variable.
    AddrOf {
        /// The variable.
        var: VarId,
        /// Element index.
        index: Box<Expr>,
    },
    /// A unary operation.
    Unary {
        /// Operator.
        op: UnOp,
        /// Operand.
        arg: Box<Expr>,
        /// Result type.
        ty: Ty,
    },
    /// A binary operation.
    Binary {
        /// Operator.
        op: BinOp,
        /// Left operand.
        lhs: Box<Expr>,
        /// Right operand.
        rhs: Box<Expr>,
        /// Result type.
        ty: Ty,
    },
    /// Conversion to a type.
    Cast {
        /// Operand.
        arg: Box<Expr>,
        /// Target type.
        ty: Ty,
    },
    /// `cond ? then : els` (both branches side-effect free).
    Ite {
        /// Condition (nonzero is true).
        cond: Box<Expr>,
        /// Value when true.
        then: Box<Expr>,
        /// Value when false.
        els: Box<Expr>,
        /// Result type.
        ty: Ty,
    },
}

impl Expr {
    /// An `int` constant.
    pub fn int(v: i128) -> Expr {
        Expr::Const {
            value: v,
            ty: Ty::INT,
        }
    }

    /// A constant of type `ty`, wrapped into range.
    pub fn constant(v: i128, ty: Ty) -> Expr {
        Expr::Const {
            value: ty.wrap(v),
            ty,
        }
    }

    /// The constant `1` (true).
    pub fn tt() -> Expr {
        Expr::int(1)
    }

    /// The value of a scalar variable.
    pub fn var(var: VarId, ty: Ty) -> Expr {
        Expr::Load {
            place: Place::scalar(var),
            ty,
        }
    }

    /// The type of the value.
    pub fn ty(&self) -> Ty {
        match self {
            Expr::Const { ty, .. }
            | Expr::Load { ty, .. }
            | Expr::Unary { ty, .. }
            | Expr::Binary { ty, .. }
            | Expr::Cast { ty, .. }
            | Expr::Ite { ty, .. } => *ty,
            Expr::AddrOf { .. } => Ty::ULONG,
        }
    }

    /// The constant value, if this is a constant.
    pub fn as_const(&self) -> Option<i128> {
        match self {
            Expr::Const { value, .. } => Some(*value),
            _ => None,
        }
    }

    /// `true` when the expression is the constant 1 (or any nonzero constant).
    pub fn is_true(&self) -> bool {
        matches!(self.as_const(), Some(v) if v != 0)
    }

    /// Calls `f` on every place this expression reads (outermost first), including places
    /// read inside index and address expressions.
    pub fn for_each_place<'a>(&'a self, f: &mut impl FnMut(&'a Place)) {
        match self {
            Expr::Const { .. } => {}
            Expr::Load { place, .. } => {
                f(place);
                place.for_each_subexpr(&mut |e| e.for_each_place(f));
            }
            Expr::AddrOf { index, .. } => index.for_each_place(f),
            Expr::Unary { arg, .. } | Expr::Cast { arg, .. } => arg.for_each_place(f),
            Expr::Binary { lhs, rhs, .. } => {
                lhs.for_each_place(f);
                rhs.for_each_place(f);
            }
            Expr::Ite {
                cond, then, els, ..
            } => {
                cond.for_each_place(f);
                then.for_each_place(f);
                els.for_each_place(f);
            }
        }
    }

    /// Calls `f` on every variable whose address the expression takes.
    pub fn for_each_addr(&self, f: &mut impl FnMut(VarId)) {
        match self {
            Expr::Const { .. } => {}
            Expr::Load { place, .. } => place.for_each_subexpr(&mut |e| e.for_each_addr(f)),
            Expr::AddrOf { var, index } => {
                f(*var);
                index.for_each_addr(f)
            }
            Expr::Unary { arg, .. } | Expr::Cast { arg, .. } => arg.for_each_addr(f),
            Expr::Binary { lhs, rhs, .. } => {
                lhs.for_each_addr(f);
                rhs.for_each_addr(f);
            }
            Expr::Ite {
                cond, then, els, ..
            } => {
                cond.for_each_addr(f);
                then.for_each_addr(f);
                els.for_each_addr(f);
            }
        }
    }
}

impl Place {
    /// Calls `f` on the index or address expression of this place.
    pub fn for_each_subexpr<'a>(&'a self, f: &mut impl FnMut(&'a Expr)) {
        match self {
            Place::Var { index: Some(i), .. } => f(i),
            Place::Var { index: None, .. } => {}
            Place::Deref { addr, .. } => f(addr),
        }
    }

    /// Variables this place may denote.
    pub fn vars(&self) -> Vec<VarId> {
        match self {
            Place::Var { var, .. } => vec![*var],
            Place::Deref { targets, .. } => targets.clone(),
        }
    }
}

/// One effect of a transition, executed in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Op {
    /// `place := value` (converted to the place's type).
    Assign {
        /// Target.
        place: Place,
        /// Value.
        value: Expr,
    },
    /// `place := input`: a nondeterministic value of type `ty` (`__VERIFIER_nondet_*`,
    /// uninitialised memory).
    Havoc {
        /// Target.
        place: Place,
        /// Range of the input.
        ty: Ty,
    },
    /// Starts thread `thread` after initialising its parameters.
    Spawn {
        /// The new thread.
        thread: ThreadId,
        /// Parameter initialisation of the new thread (its locals), evaluated in this thread.
        args: Vec<(VarId, Expr)>,
    },
    /// Enters an atomic region: no other thread runs until [`Op::AtomicEnd`].
    AtomicBegin,
    /// Leaves the atomic region.
    AtomicEnd,
}

/// Whether a variable named `name` is one of the front end's model limits ([`Op::model_limit`]):
/// their names say in `<...>` what the model does not cover.
pub fn is_model_limit(name: &str) -> bool {
    name.starts_with('<')
}

impl Op {
    /// The write that marks a limit of the model (the front end's ghost variable `limit` of
    /// one element, named `<...>` after what the model does not cover): element 1, out of
    /// bounds and so undefined, where `past` holds (the execution goes past the limit, and the
    /// verdict names it); the harmless element 0 otherwise.
    pub fn model_limit(limit: VarId, past: Expr) -> Op {
        let index = if past.is_true() {
            Expr::constant(1, Ty::LONG)
        } else {
            Expr::Ite {
                cond: Box::new(past),
                then: Box::new(Expr::constant(1, Ty::LONG)),
                els: Box::new(Expr::constant(0, Ty::LONG)),
                ty: Ty::LONG,
            }
        };
        Op::Assign {
            place: Place::Var {
                var: limit,
                index: Some(Box::new(index)),
            },
            value: Expr::constant(0, Ty::CHAR),
        }
    }
}

/// Which synchronisation call a transition implements (for the schedule generator and the
/// instrumentation; the semantics are in the guard and ops).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SyncKind {
    MutexInit,
    Lock,
    TryLock,
    Unlock,
    /// First half of `pthread_cond_wait`: release the mutex and start waiting.
    CondWaitRelease,
    /// Second half of `pthread_cond_wait`: woken (may block).
    CondWaitWake,
    /// Second half of `pthread_cond_timedwait` where the wait times out (the scheduler's
    /// choice while the thread waits; the call returns `ETIMEDOUT`).
    CondWaitTimeout,
    CondSignal,
    CondBroadcast,
    BarrierInit,
    /// Arrival at a barrier.
    BarrierArrive,
    /// Departure from a barrier once all arrived (may block).
    BarrierLeave,
    Spawn,
    Join,
    /// A thread's final transition (it publishes `__thread_done`).
    ThreadExit,
    AtomicBegin,
    AtomicEnd,
    Yield,
    /// `pthread_rwlock_rdlock` (may block while a writer holds the lock).
    ReadLock,
    /// `pthread_rwlock_wrlock` (may block while anyone holds the lock).
    WriteLock,
    /// `pthread_rwlock_unlock`.
    RwUnlock,
    /// `sem_wait` (may block while the value is 0).
    SemWait,
    /// `sem_post`.
    SemPost,
    /// A timed lock or semaphore wait (`pthread_mutex_timedlock`, `sem_timedwait` and their
    /// `clock` forms) that neither takes the mutex nor decrements the value: it times out
    /// (`ETIMEDOUT`) while the mutex is another's or the value is 0, the scheduler's choice,
    /// or refuses a deadline whose nanoseconds are out of range (`EINVAL`).
    TimedOut,
    /// The start of `pthread_once`'s call of its function, or the wait for it to finish.
    Once,
    /// An atomic load, store or read-modify-write (C11 `<stdatomic.h>`, GCC `__atomic_*`
    /// and `__sync_*`), sequentially consistent.
    Atomic,
}

impl SyncKind {
    /// Whether the transition is a timed call's timeout ([`SyncKind::CondWaitTimeout`],
    /// [`SyncKind::TimedOut`]): the alternative the runtime asks the schedule for beside
    /// the call's wake, lock or decrement.
    pub fn is_timeout(self) -> bool {
        matches!(self, SyncKind::CondWaitTimeout | SyncKind::TimedOut)
    }
}

/// Why a transition was made; what a trace prints.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TransKind {
    /// Ordinary statement or part of one.
    Stmt,
    /// A branch of a condition (`if`, loop, `switch`, `&&`, ...), taken when the guard holds.
    Branch,
    /// A synchronisation operation.
    Sync(SyncKind),
    /// `assume(c)`/`__VERIFIER_assume`: waits for `c` when `c` reads shared state.
    Assume,
    /// The failing branch of a local assume: goes to the discard location.
    AssumeFail,
    /// Goes to the error location.
    Error(ErrorKind),
    /// Ends the program (`return` from `main`, `exit`, `abort`).
    Halt,
}

/// What kind of error a transition into the error location reports.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ErrorKind {
    /// `assert(c)` with `c` false.
    AssertionFailed,
    /// `reach_error()`, `__VERIFIER_error()` or `__assert_fail`.
    ReachError,
    /// `free` of memory that is not allocated: freed already (double free), or not from
    /// `malloc`.
    InvalidFree,
    /// A call through a pointer that points to no function of the program (or to one of
    /// another type).
    InvalidCall,
    /// An array indexed outside its bounds, as clang's check of C11 6.5.6p8 sees it
    /// (`-fsanitize=array-bounds`): also an array inside a struct, within the struct's bytes.
    ArrayBounds,
    /// A variable-length array whose length is not positive (C11 6.7.6.2p5;
    /// `-fsanitize=vla-bound`).
    VlaLength,
    /// A null stream (`FILE *`) given to a function of the C library that uses it (an
    /// `fopen` that failed, unchecked): glibc dereferences it.
    NullStream,
    /// A stream used after `fclose` closed it, or closed again (C11 7.21.3p4).
    ClosedStream,
}

/// What a location is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LocKind {
    /// An ordinary program point.
    Normal,
    /// The thread has returned (terminal).
    Exit,
    /// The error location.
    Error,
    /// The program has ended (main returned, `exit`, `abort`).
    Halt,
    /// A local assumption failed: the execution is dropped.
    Discard,
}

/// A memory event: an access of a transition to a shared variable.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// The variable.
    pub var: VarId,
    /// Where in the variable (`None`: the whole variable).
    pub at: Option<EventAt>,
    /// Read or write.
    pub access: Access,
}

/// The element of its variable an [`Event`] accesses. An access through a pointer names its
/// address, which all the variables it may reach share (one expression, however many targets).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EventAt {
    /// The element index of an array.
    Index(std::sync::Arc<Expr>),
    /// The address accessed through a pointer: the element `(address - base) / stride` of the
    /// variable.
    Address(std::sync::Arc<Expr>),
}

impl EventAt {
    /// The expression the element is computed from (it reads the same places as the index).
    pub fn expr(&self) -> &Expr {
        match self {
            EventAt::Index(e) | EventAt::Address(e) => e,
        }
    }
}

impl Event {
    /// The element index of the event in its variable `var` (`prog.var(self.var)`), if it
    /// names one.
    pub fn index(&self, var: &Var) -> Option<Expr> {
        match self.at.as_ref()? {
            EventAt::Index(i) => Some((**i).clone()),
            EventAt::Address(addr) => {
                let rel = Expr::Binary {
                    op: BinOp::Sub,
                    lhs: Box::new(Expr::Cast {
                        arg: Box::new((**addr).clone()),
                        ty: Ty::LONG,
                    }),
                    rhs: Box::new(Expr::constant(var.base_address(), Ty::LONG)),
                    ty: Ty::LONG,
                };
                let stride = var.placement().stride;
                Some(if stride == 1 {
                    rel
                } else {
                    Expr::Binary {
                        op: BinOp::Div,
                        lhs: Box::new(rel),
                        rhs: Box::new(Expr::constant(stride as i128, Ty::LONG)),
                        ty: Ty::LONG,
                    }
                })
            }
        }
    }
}

/// Kind of memory access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Access {
    Read,
    Write,
    /// Read and write in one step (lock, unlock, signal, barrier arrival).
    Update,
}

/// A guarded transition of one thread.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Transition {
    /// Index in [`Thread::transitions`].
    pub id: TransId,
    /// Source location.
    pub src: LocId,
    /// Target location.
    pub dst: LocId,
    /// Enabled only when this holds (nonzero).
    pub guard: Expr,
    /// Effects, in order.
    pub ops: Vec<Op>,
    /// What it implements.
    pub kind: TransKind,
    /// Shared memory events (filled by the analysis).
    pub events: Vec<Event>,
    /// The guard can be false because of other threads (lock, join, wait, shared assume):
    /// the thread may block here.
    pub may_block: bool,
    /// A `sched_yield` (or a failed-lock style yield point for fair schedulers).
    pub yields: bool,
    /// Closes a loop (a retreating edge of the CFG from the entry).
    pub back_edge: bool,
    /// Source of the statement it comes from.
    pub span: Option<Span>,
    /// The code whose action it performs, which the instrumentation of `synth build` finds
    /// again (`schedgen::instrument`): `[instruction, successor]`, the number of the LLVM
    /// instruction in the module ([`Program::bitcode`]) and, for a branch arm, the number of
    /// the successor it goes to (0 otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<[u32; 2]>,
    /// It is the load or store of the place `at` reads or writes (with events when the place
    /// is shared).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub memory_access: bool,
    /// It is a `pthread_create` refused for the thread bound ([`Program::thread_bound`]): an
    /// execution through it is one of the bounded program only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refusal: Option<Refusal>,
    /// It is a `pthread_create` (the one that starts a thread or one refused for the thread
    /// bound): what it starts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub starts: Option<Start>,
    /// It runs code of an environment model (what the system answers: `fgets`, `read`, the
    /// clocks), directly or in a helper the model calls. The built program asks the system
    /// instead, so a schedule cannot observe these steps (`schedgen::sections`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub environment: bool,
}

/// What a `pthread_create` starts: its start function and argument.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Start {
    /// The start function.
    pub function: String,
    /// The argument where it is the same in every execution (a constant, or the address of
    /// a fixed element of an object), written so that equal arguments are equal strings, or
    /// where the function takes no parameter; `None` where it is computed.
    pub arg: Option<String>,
    /// The creation's number in the front end's lowering, which tells which copy of its
    /// `pthread_create` it is ([`crate::frontend::CreationCopy`]) and how many of that copy's
    /// creations came before it.
    #[serde(default)]
    pub creation: u32,
}

/// A `pthread_create` refused for the thread bound, by whether the program reads what it
/// returned (`EAGAIN`, a constant the front end folds into what reads it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Refusal {
    /// Nothing reads the result.
    ResultUnread,
    /// Some code may read the result.
    ResultRead,
}

impl Transition {
    /// Whether the transition closes a loop round that a scheduler's turn counts: a back
    /// edge, except inside an environment model's code without events. The built program
    /// makes such a call as one step, and the rounds of the model's loops (one per byte that
    /// `fgets` copies) depend on what the system answers, which no schedule can see: a turn
    /// that ended after so many of them would make the schedule choose differently in runs
    /// it cannot tell apart (`crate::cases`).
    pub fn closes_round(&self) -> bool {
        self.back_edge
            && !(self.environment
                && self.events.is_empty()
                && !matches!(self.kind, TransKind::Sync(_)))
    }

    /// Whether the transition may run without the enforcement runtime: it accesses no shared
    /// memory, synchronises with no thread, never blocks and does not end the program.
    pub fn runs_free(&self) -> bool {
        self.events.is_empty()
            && !self.may_block
            && !matches!(self.kind, TransKind::Sync(_) | TransKind::Halt)
    }

    /// Whether the transition begins an atomic region.
    pub fn begins_atomic(&self) -> bool {
        self.ops.iter().any(|o| matches!(o, Op::AtomicBegin))
    }

    /// Whether the transition ends an atomic region.
    pub fn ends_atomic(&self) -> bool {
        self.ops.iter().any(|o| matches!(o, Op::AtomicEnd))
    }

    /// Of a `pthread_join` ([`join_guard`]): the test whether it returns at once without
    /// reading the thread's state (the id is [`NO_THREAD`] or the calling thread's own).
    pub fn joins_no_thread(&self) -> Option<&Expr> {
        if self.kind != TransKind::Sync(SyncKind::Join) {
            return None;
        }
        match &self.guard {
            Expr::Binary {
                op: BinOp::Or, lhs, ..
            } => Some(lhs),
            _ => None,
        }
    }

    /// The limit of the model the transition may meet, if any: the name of the ghost variable
    /// (`<...>`, saying what the model does not cover) it writes at an index that may be out
    /// of bounds, which the front end's model limits do where an execution goes past them.
    pub fn model_limit<'p>(&self, vars: &'p [Var]) -> Option<&'p str> {
        self.ops.iter().find_map(|o| match o {
            Op::Assign {
                place:
                    Place::Var {
                        var,
                        index: Some(i),
                    },
                ..
            } if i.as_const() != Some(0) => {
                let v = &vars[var.0 as usize];
                (v.scope == VarScope::Ghost && is_model_limit(&v.name)).then_some(v.name.as_str())
            }
            _ => None,
        })
    }

    /// The thread the transition starts, if it creates one.
    pub fn spawned(&self) -> Option<ThreadId> {
        self.ops.iter().find_map(|o| match o {
            Op::Spawn { thread, .. } => Some(*thread),
            _ => None,
        })
    }

    /// Every place the transition reads (guard and ops, in [`Transition::for_each_expr`]'s
    /// order) and writes.
    pub fn accesses(&self) -> (Vec<&Place>, Vec<&Place>) {
        let mut reads = Vec::new();
        self.for_each_expr(&mut |e| e.for_each_place(&mut |p| reads.push(p)));
        let writes = self.writes().collect();
        (reads, writes)
    }

    /// The places the operations write.
    pub(crate) fn writes(&self) -> impl Iterator<Item = &Place> {
        self.ops.iter().filter_map(|op| match op {
            Op::Assign { place, .. } | Op::Havoc { place, .. } => Some(place),
            _ => None,
        })
    }

    /// Calls `f` on every place [`Transition::accesses`] lists, reads first, without
    /// collecting them.
    pub fn for_each_access<'a>(&'a self, f: &mut impl FnMut(&'a Place)) {
        self.for_each_expr(&mut |e| e.for_each_place(f));
        self.writes().for_each(f);
    }

    /// Calls `f` on every expression of the transition at top level, in order: the guard,
    /// then per operation the value assigned, the index and address expressions of the place
    /// written, the arguments of a thread start.
    pub fn for_each_expr<'a>(&'a self, f: &mut impl FnMut(&'a Expr)) {
        f(&self.guard);
        for op in &self.ops {
            match op {
                Op::Assign { place, value } => {
                    f(value);
                    place.for_each_subexpr(f);
                }
                Op::Havoc { place, .. } => place.for_each_subexpr(f),
                Op::Spawn { args, .. } => {
                    for (_, e) in args {
                        f(e);
                    }
                }
                Op::AtomicBegin | Op::AtomicEnd => {}
            }
        }
    }
}

/// A location of a thread's CFG.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Location {
    /// What kind of point it is.
    pub kind: LocKind,
    /// Outgoing transitions.
    pub out: Vec<TransId>,
}

/// One thread: `main`, or one instance of a `pthread_create` site.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Thread {
    /// Its id.
    pub id: ThreadId,
    /// `main`, or the start function's name with the instance (`t_fun#2`).
    pub name: String,
    /// The start function.
    pub function: String,
    /// The thread and transition that create it (`None` for `main`).
    pub created_by: Option<(ThreadId, TransId)>,
    /// Locations; indexes are [`LocId`]s.
    pub locations: Vec<Location>,
    /// Transitions; indexes are [`TransId`]s.
    pub transitions: Vec<Transition>,
    /// Start location.
    pub entry: LocId,
    /// Terminal location (returned).
    pub exit: LocId,
    /// Error location.
    pub error: LocId,
    /// Program-end location.
    pub halt: LocId,
    /// Discard location.
    pub discard: LocId,
}

impl Thread {
    /// The transition with the given id.
    pub fn transition(&self, t: TransId) -> &Transition {
        &self.transitions[t.0 as usize]
    }

    /// The position of `tr` among the outgoing transitions of its location (its arm: 0 is
    /// the `true` arm of a condition).
    pub fn arm(&self, tr: &Transition) -> usize {
        self.locations[tr.src.0 as usize]
            .out
            .iter()
            .position(|x| *x == tr.id)
            .unwrap_or(0)
    }

    /// Outgoing transitions of a location.
    pub fn outgoing(&self, l: LocId) -> impl Iterator<Item = &Transition> {
        self.locations[l.0 as usize]
            .out
            .iter()
            .map(move |t| &self.transitions[t.0 as usize])
    }

    /// Per location: whether a path through one of the transitions `after` picks reaches it
    /// (their targets included).
    pub fn reached_after(&self, after: impl Fn(&Transition) -> bool) -> Vec<bool> {
        let mut seen = vec![false; self.locations.len()];
        let mut work: Vec<LocId> = (self.transitions.iter())
            .filter(|tr| after(tr))
            .map(|tr| tr.dst)
            .collect();
        while let Some(l) = work.pop() {
            if std::mem::replace(&mut seen[l.0 as usize], true) {
                continue;
            }
            work.extend(self.outgoing(l).map(|tr| tr.dst));
        }
        seen
    }

    /// Whether the thread at `l` may run on without the enforcement runtime: `l` is an
    /// ordinary location with a transition that accesses no shared memory, synchronises with
    /// no thread, never blocks and does not end the program. Deployed, such code runs while
    /// another thread ends the process, until the thread reaches its next event.
    pub fn runs_free(&self, l: LocId) -> bool {
        self.locations[l.0 as usize].kind == LocKind::Normal
            && self.outgoing(l).any(Transition::runs_free)
    }

    /// Whether every transition at `l` ends the program (`return` from `main`, `exit`,
    /// `abort`).
    pub fn halts_at(&self, l: LocId) -> bool {
        self.only(l, |tr| tr.kind == TransKind::Halt)
    }

    /// Whether every transition at `l` is invisible to other threads: no shared memory
    /// event, no synchronisation, thread start or atomic region, never blocking, not
    /// closing a loop, and leading to an ordinary location (not to an error, the end of the
    /// thread or the program, or a discarded execution). Such a transition commutes with
    /// every transition of another thread and cannot be disabled by one, so a partial-order
    /// reduction may expand only this thread at `l` (when the label implies it is enabled).
    pub fn local_location(&self, l: LocId) -> bool {
        self.only(l, |tr| self.local_transition(tr))
    }

    /// Whether every step out of `l` runs code of an environment model without events or
    /// synchronisation ([`Transition::environment`]): the thread is inside a call that the
    /// built program makes as one, which a schedule cannot see into.
    pub fn environment_location(&self, l: LocId) -> bool {
        self.only(l, |tr| {
            tr.environment && tr.events.is_empty() && !matches!(tr.kind, TransKind::Sync(_))
        })
    }

    /// Whether `l` has transitions and every one of them satisfies `f`.
    fn only(&self, l: LocId, f: impl Fn(&Transition) -> bool) -> bool {
        let mut out = self.outgoing(l).peekable();
        out.peek().is_some() && out.all(f)
    }

    /// Whether transition `tr` of this thread is invisible to other threads, as every
    /// transition at a [`Thread::local_location`] is.
    pub fn local_transition(&self, tr: &Transition) -> bool {
        self.invisible_transition(tr) && !tr.back_edge
    }

    /// Whether every transition at `l` is invisible to other threads as at a
    /// [`Thread::local_location`], except that it may close a loop (a thread's own loop over
    /// its own memory). A partial-order reduction may expand only this thread at `l` where
    /// every cycle of such reduced steps still passes a node that expands every thread (the
    /// cycle proviso: no thread is postponed forever).
    pub fn invisible_location(&self, l: LocId) -> bool {
        self.only(l, |tr| self.invisible_transition(tr))
    }

    /// Whether transition `tr` of this thread is invisible to other threads, as every
    /// transition at a [`Thread::invisible_location`] is.
    pub fn invisible_transition(&self, tr: &Transition) -> bool {
        tr.events.is_empty() && self.ordinary_transition(tr)
    }

    /// Whether transition `tr` of this thread is an ordinary statement or branch: no
    /// synchronisation, no atomic region, no step into an error or out of the program (it
    /// may touch shared memory).
    pub fn ordinary_transition(&self, tr: &Transition) -> bool {
        matches!(tr.kind, TransKind::Stmt | TransKind::Branch)
            && !tr.may_block
            && self.locations[tr.dst.0 as usize].kind == LocKind::Normal
            && tr
                .ops
                .iter()
                .all(|o| matches!(o, Op::Assign { .. } | Op::Havoc { .. }))
    }
}

/// A source file of the program.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SourceFile {
    /// Path as given (or as named by the preprocessor for headers).
    pub path: String,
    /// Its lines, for printing traces (empty when it could not be read).
    #[serde(skip)]
    pub lines: Vec<String>,
}

/// The IR of a whole program.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Program {
    /// Format tag of the JSON form.
    pub format: String,
    /// SHA-256 (hex) of the preprocessed sources without line markers: covers `-D`
    /// definitions and headers ([`crate::frontend::program_hash`]).
    pub sha256: String,
    /// Source files spans refer to; file 0 is the main source.
    pub files: Vec<SourceFile>,
    /// Every variable.
    pub vars: Vec<Var>,
    /// Every thread; thread 0 is `main`.
    pub threads: Vec<Thread>,
    /// The ghost array `__thread_done` (element `t` is 1 once thread `t` has returned).
    pub thread_done: VarId,
    /// Code ([`Transition::at`]) that accesses a thread-local place in some lowered copy (a
    /// function inlined with a pointer to a local) without a transition of its own standing
    /// for that access: an access merged into the step after it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub local_reads: Vec<[u32; 2]>,
    /// The objects variables are placed in (the LLVM front end's; empty when every
    /// variable is its own object).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub objects: Vec<Object>,
    /// When the program would start more threads than the front end's bound
    /// (`--max-threads N`): `Some(N)`, and a `pthread_create` beyond it fails with `EAGAIN`
    /// (as POSIX allows). Every verdict then holds for runs with at most `N` threads.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thread_bound: Option<usize>,
    /// Where the program can tell how threads and objects are numbered (it calls
    /// `pthread_self`, converts a pointer or a thread id to an integer or compares pointers by
    /// order), described with its `file:line:col`. The model's numbers are not a run's: no
    /// schedule of such a program is claimed safe ([`crate::engine`]), and a program lowered
    /// with fewer threads numbers them differently, so its bugs are not known to be the
    /// program's ([`crate::scope`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observes_numbering: Option<String>,
    /// Whether a thread calls `pthread_self`: in a thread that stands for all of its
    /// function's ([`crate::explicit::modular`]), one id stands for theirs, equal or not.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub asks_own_id: bool,
    /// The argument vector `main` is verified with (LLVM front end): the program's name
    /// (the stem of its file), then the arguments. The built program runs only with these
    /// arguments, and passes this name as `argv[0]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub arguments: Vec<String>,
    /// What the front end assumed of the program that the user should know (external
    /// functions it models by havoc).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// The LLVM module the program was lowered from (LLVM front end): what `synth build`
    /// instruments.
    #[serde(skip)]
    pub bitcode: Option<std::sync::Arc<Bitcode>>,
}

/// An LLVM module as bitcode, with the numbering of its instructions: the instructions of its
/// defined functions, in module order, block by block, terminators included, are numbered
/// from 0 ([`Transition::at`]).
#[derive(Clone)]
pub struct Bitcode {
    /// The module, as clang and the front end's passes left it.
    pub bytes: Vec<u8>,
    /// Each defined function in module order with its number of instructions.
    pub functions: Vec<(String, u32)>,
}

/// One cell of a block copy or fill (`memcpy`, `memset` of a constant length): a read or a
/// write of `width` bytes at byte `offset` of the block. It is the second component of the
/// [`Transition::at`] of the cell's step (nonzero, so that it never looks like an
/// instruction's whole action).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CellStep {
    /// Byte offset in the block.
    pub offset: u32,
    /// Bytes: 1, 2, 4 or 8.
    pub width: u32,
    /// A write to the destination (else a read of the source).
    pub write: bool,
}

impl CellStep {
    /// Its code in [`Transition::at`]; `None` when it does not fit.
    pub fn encode(self) -> Option<u32> {
        let log = match self.width {
            1 => 0,
            2 => 1,
            4 => 2,
            8 => 3,
            _ => return None,
        };
        if self.offset >= 1 << 26 {
            return None;
        }
        Some(1 | (self.write as u32) << 1 | log << 2 | self.offset << 4)
    }

    /// The cell step a code of [`CellStep::encode`] stands for.
    pub fn decode(code: u32) -> Option<CellStep> {
        (code & 1 == 1).then(|| CellStep {
            offset: code >> 4,
            width: 1 << ((code >> 2) & 3),
            write: code & 2 != 0,
        })
    }
}

/// A step of a block copy or fill whose length or layout is known only at run time (a loop
/// over its bytes), and of `realloc` (an allocation, the loop copying the old block's bytes,
/// the release of the old block). Its code is the second component of the
/// [`Transition::at`] of the step (even and nonzero, so that it is neither a [`CellStep`] nor
/// an instruction's whole action).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ByteStep {
    /// The read of a byte of the source.
    Read,
    /// The write of a byte of the destination.
    Write,
    /// The loop's test of its length, before each byte and after the last (`realloc`'s reads
    /// the old block's size).
    Length,
    /// `realloc`'s allocation of the new block, before the loop.
    Allocate,
    /// `realloc`'s release of the old block, after the loop.
    Release,
}

impl ByteStep {
    const ALL: [ByteStep; 5] = [
        ByteStep::Read,
        ByteStep::Write,
        ByteStep::Length,
        ByteStep::Allocate,
        ByteStep::Release,
    ];

    /// Its code in [`Transition::at`].
    pub fn code(self) -> u32 {
        2 * (self as u32 + 1)
    }

    /// The byte step a code of [`ByteStep::code`] stands for.
    pub fn decode(code: u32) -> Option<ByteStep> {
        ByteStep::ALL.into_iter().find(|s| s.code() == code)
    }
}

/// The read of a byte of an output function's argument (`printf`'s `%s`, `puts`, `fputs`,
/// `perror`, `fwrite`: what it prints, as the front end models it): the code of the read in
/// [`Transition::at`], for the call's argument `arg` (even, above [`ByteStep`]'s codes).
pub fn printed_read_code(arg: u32) -> u32 {
    2 * (PRINTED_READ + arg)
}

/// The argument a code of [`printed_read_code`] reads.
pub fn printed_read_arg(code: u32) -> Option<u32> {
    let half = code / 2;
    (code.is_multiple_of(2) && (PRINTED_READ..PRINTED_ARM).contains(&half))
        .then(|| half - PRINTED_READ)
}

/// An arm of the loop by which a library call reads an argument ([`printed_read_code`]):
/// which test, and which way it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PrintedArm {
    /// Another byte is within the bound.
    More,
    /// The bound is reached.
    Bounded,
    /// The byte read is the null one: the string ends.
    End,
    /// The byte read is not null: on to the next.
    Next,
    /// The pointer is null (`perror(NULL)`): nothing is read.
    Null,
    /// The pointer is not null.
    NotNull,
}

impl PrintedArm {
    /// Every arm, in the order of their codes.
    pub const ALL: [PrintedArm; 6] = [
        PrintedArm::More,
        PrintedArm::Bounded,
        PrintedArm::End,
        PrintedArm::Next,
        PrintedArm::Null,
        PrintedArm::NotNull,
    ];
}

/// The code in [`Transition::at`] of arm `arm` of the read of argument `arg`.
pub fn printed_arm_code(arg: u32, arm: PrintedArm) -> u32 {
    2 * (PRINTED_ARM + arg * 8 + arm as u32)
}

/// The argument and the arm a code of [`printed_arm_code`] stands for.
pub fn printed_arm(code: u32) -> Option<(u32, PrintedArm)> {
    let half = code / 2;
    if !code.is_multiple_of(2) || half < PRINTED_ARM {
        return None;
    }
    let x = half - PRINTED_ARM;
    Some((x / 8, *PrintedArm::ALL.get((x % 8) as usize)?))
}

/// The argument number, in [`printed_read_code`] and [`printed_arm_code`], of the string
/// that a formatting function's `k`-th conversion reads through its `va_list`
/// (`vsnprintf`'s `%s`): `VA_LIST_ARG + k`, no operand of the call.
pub const VA_LIST_ARG: u32 = 1 << 12;

/// Where [`printed_read_code`]'s codes start (halved), past [`ByteStep`]'s.
const PRINTED_READ: u32 = 16;

/// Where [`printed_arm_code`]'s codes start (halved), past [`printed_read_code`]'s.
const PRINTED_ARM: u32 = 1 << 16;

impl std::fmt::Debug for Bitcode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Bitcode({} bytes, {} functions)",
            self.bytes.len(),
            self.functions.len()
        )
    }
}

impl Program {
    /// Whether some `pthread_cond_signal` may choose among threads that wait (a location with
    /// signal transitions for two waiters or more, besides "nobody waits"). POSIX leaves the
    /// choice open and the schedule may make it; the search leaves it to the program, as it
    /// does a thread's other choices. A bug every search path reaches may then be one a
    /// scheduler avoids by waking another thread: no `unsafe` verdict rests on that.
    pub fn signal_chooses_waiter(&self) -> bool {
        self.threads.iter().any(|t| {
            t.locations.iter().any(|l| {
                let signals = l
                    .out
                    .iter()
                    .filter(|x| t.transition(**x).kind == TransKind::Sync(SyncKind::CondSignal));
                signals.count() > 2
            })
        })
    }

    /// The words a verdict about this program carries: ` with at most N threads` when the
    /// thread bound applies (see [`Program::thread_bound`]) and an execution the verdict
    /// covers may meet it (`meets_bound`), and, for a verdict with an error found in
    /// `counterexample` (an execution of this program, or of one of its small scopes,
    /// [`crate::scope`], with that program), whether that error occurs without the bound too.
    pub fn bound_note(
        &self,
        meets_bound: bool,
        counterexample: Option<(&Program, &crate::interp::Execution)>,
    ) -> String {
        match (self.thread_bound, counterexample) {
            (None, _) => String::new(),
            (Some(_), None) if !meets_bound => String::new(),
            (Some(n), Some((p, c))) if crate::scope::holds_without_bound(p, c) => {
                format!(" with at most {n} threads; its error occurs without the bound too")
            }
            (Some(n), _) => format!(" with at most {n} threads"),
        }
    }
}

/// Version tag of [`Program`]'s JSON form.
pub const IR_FORMAT: &str = "synth-ir/1";

impl Program {
    /// The variable with the given id.
    pub fn var(&self, v: VarId) -> &Var {
        &self.vars[v.0 as usize]
    }

    /// The thread with the given id.
    pub fn thread(&self, t: ThreadId) -> &Thread {
        &self.threads[t.0 as usize]
    }

    /// Whether some thread begins an atomic region (`__VERIFIER_atomic_begin`, an
    /// `__VERIFIER_atomic_*` function).
    pub fn has_atomic_regions(&self) -> bool {
        self.threads
            .iter()
            .flat_map(|th| &th.transitions)
            .any(Transition::begins_atomic)
    }

    /// The source line a span starts on, trimmed, if known.
    pub fn source_line(&self, span: &Span) -> Option<&str> {
        let f = self.files.get(span.file as usize)?;
        f.lines
            .get(span.line.checked_sub(1)? as usize)
            .map(|s| s.trim())
    }

    /// `file:line:col` of a span.
    pub fn position(&self, span: &Span) -> String {
        let path = self
            .files
            .get(span.file as usize)
            .map(|f| f.path.as_str())
            .unwrap_or("?");
        format!("{}:{}:{}", path, span.line, span.col)
    }

    /// For each variable, the variables of its object (see [`Placement`]), itself included:
    /// indexed by the object's id, empty for variables that are not an object's first.
    pub fn object_members(&self) -> Vec<Vec<VarId>> {
        let mut m = vec![Vec::new(); self.vars.len()];
        for v in &self.vars {
            m[v.placement().object.0 as usize].push(v.id);
        }
        m
    }

    /// The variable and element at an address, given [`Program::object_members`].
    pub fn locate(&self, members: &[Vec<VarId>], addr: i128) -> Option<(VarId, i128)> {
        let (obj, _) = decode_address(addr)?;
        members
            .get(obj.0 as usize)?
            .iter()
            .find_map(|v| self.var(*v).element_at(addr).map(|i| (*v, i)))
    }

    /// Shared variables.
    pub fn shared_vars(&self) -> impl Iterator<Item = &Var> {
        self.vars.iter().filter(|v| v.shared)
    }
}

#[cfg(test)]
mod tests {
    use super::Ty;
    use proptest::prelude::*;

    proptest! {
        /// The common widths' truncation by casts is the arithmetic wrap.
        #[test]
        fn wrap_by_casts_is_the_arithmetic_wrap(
            v in any::<i128>(),
            bits in prop::sample::select(vec![2u8, 8, 16, 31, 32, 64]),
            signed in any::<bool>(),
        ) {
            let ty = Ty { bits, signed };
            prop_assert_eq!(ty.wrap(v), ty.wrap_bits(v));
            let small = v % 100_000;
            prop_assert_eq!(ty.wrap(small), ty.wrap_bits(small));
        }
    }
}

/// The objects of a program as memory: each object's variables and the bytes it spans. The
/// interpreter and the encoding both resolve byte-wise accesses through it.
#[derive(Clone, Debug)]
pub struct Objects {
    /// Per object (by its first variable): its variables ([`Program::object_members`]).
    pub members: Vec<Vec<VarId>>,
    /// Per object: the bytes it spans (its variables' cells, or its declared size if
    /// larger).
    ends: Vec<i128>,
    /// Per object: whether its variables are placed at byte offsets (the front end's); the
    /// other variables (ghosts, programs written directly in the IR) are each an object
    /// accessed by elements.
    placed: Vec<bool>,
    /// Per variable: the variable holding the allocation status of its object's instances,
    /// when it is another variable of a heap allocation site ([`Var::allocation_status`]).
    status: Vec<Option<VarId>>,
}

/// Bytes a cell of kind `k` holds (none for a synchronisation object's cell).
pub fn cell_width(k: ElemKind) -> u32 {
    match k {
        ElemKind::Int(t) => (t.bits as u32).div_ceil(8),
        ElemKind::Ptr => 8,
        ElemKind::Mutex | ElemKind::Cond | ElemKind::Barrier => 0,
    }
}

impl Objects {
    /// The objects of `prog`.
    pub fn new(prog: &Program) -> Objects {
        let members = prog.object_members();
        let mut ends = vec![0i128; members.len()];
        let mut placed = vec![true; members.len()];
        for v in &prog.vars {
            let p = v.placement();
            let o = p.object.0 as usize;
            let width = match v.elem {
                ElemKind::Int(t) => (t.bits as i128 + 7) / 8,
                _ => 8,
            };
            let end = p.offset as i128 + (v.len as i128 - 1).max(0) * p.stride as i128 + width;
            ends[o] = ends[o].max(end);
            placed[o] &= v.placement.is_some();
        }
        for o in &prog.objects {
            if let Some(e) = ends.get_mut(o.var.0 as usize) {
                *e = (*e).max(o.size as i128);
            }
        }
        let status = prog
            .vars
            .iter()
            .map(|v| {
                let first = prog.var(v.placement().object);
                (first.allocation_status && first.id != v.id).then_some(first.id)
            })
            .collect();
        Objects {
            members,
            ends,
            placed,
            status,
        }
    }

    /// For element `i` of variable `v` in a heap allocation site: the status variable, the
    /// instance the element lies in, and the element's offset in the instance's payload
    /// ([`Var::allocation_status`]).
    pub fn allocation(&self, prog: &Program, v: VarId, i: i128) -> Option<(VarId, i128, i128)> {
        let status = self.status[v.0 as usize]?;
        let p = prog.var(v).placement();
        let at = p.offset as i128 + i * p.stride as i128;
        let inst = prog.var(status).placement().stride as i128;
        Some((
            status,
            at.div_euclid(inst),
            at.rem_euclid(inst) - ALLOCATION_HEADER,
        ))
    }

    /// The status variable of `v`'s allocation site, when `v` is a payload variable of one.
    pub fn status_of(&self, v: VarId) -> Option<VarId> {
        self.status[v.0 as usize]
    }

    /// Whether the object at `addr` is laid out in bytes and the `width` bytes lie in it
    /// (padding included): `None` when the object is not laid out in bytes, or there is no
    /// such object.
    pub fn inside_bytes(&self, addr: i128, width: u32) -> Option<bool> {
        let (obj, at) = decode_address(addr)?;
        let o = obj.0 as usize;
        self.placed
            .get(o)?
            .then(|| at >= 0 && at + width as i128 <= self.ends[o])
    }

    /// The cell holding byte `addr` of an object: variable, element and the byte's position
    /// in the cell (`None`: padding, or a synchronisation object's bytes).
    pub fn byte_cell(&self, prog: &Program, addr: i128) -> Option<(VarId, usize, u32)> {
        let (obj, _) = decode_address(addr)?;
        self.members.get(obj.0 as usize)?.iter().find_map(|v| {
            let var = prog.var(*v);
            let w = cell_width(var.elem) as i128;
            let rel = addr - var.base_address();
            let stride = var.placement().stride as i128;
            let (k, within) = (rel.div_euclid(stride), rel.rem_euclid(stride));
            (w > 0 && rel >= 0 && k < var.len as i128 && within < w).then_some((
                *v,
                k as usize,
                within as u32,
            ))
        })
    }
}
