//! The concrete interpreter: runs the IR under a given schedule and inputs, or under a seeded
//! random schedule with random inputs, and reports how the execution ends.
//!
//! It is the reference semantics of `DESIGN.md` ("Program model"): the verifier replays its
//! counterexamples here, and the explorer is built on [`Machine`]. Arithmetic is
//! [`crate::semantics`]; see [`crate::ir`] for the rules.

use crate::ir::*;
use crate::memory::Memory;
use crate::semantics::{self, Undefined};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Where a thread is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Status {
    /// Not created yet (or never).
    NotStarted,
    /// At a location of its CFG.
    At(LocId),
}

impl Status {
    /// The location, once started.
    pub fn loc(self) -> Option<LocId> {
        match self {
            Status::At(l) => Some(l),
            Status::NotStarted => None,
        }
    }
}

/// A program state.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Contents of every variable, indexed by [`VarId`].
    pub mem: Memory,
    /// Each thread's status, indexed by [`ThreadId`].
    pub threads: Vec<Status>,
    /// The thread inside an atomic region, if any.
    pub atomic: Option<ThreadId>,
}

impl State {
    /// The value of element `i` of variable `v`, whose elements have type `ty`.
    pub fn get(&self, v: VarId, i: usize, ty: Ty) -> i128 {
        ty.wrap(self.mem.cell(v.0 as usize, i) as i128)
    }

    /// A state with no contents that shares this one's layout (allocates nothing): what is
    /// left behind when the explorer moves a state out.
    pub fn hollow(&self) -> State {
        State {
            mem: self.mem.hollow(),
            threads: Vec::new(),
            atomic: None,
        }
    }
}

impl Clone for State {
    fn clone(&self) -> State {
        State {
            mem: self.mem.clone(),
            threads: self.threads.clone(),
            atomic: self.atomic,
        }
    }
    /// Reuses this state's buffers (the explorer recycles states).
    fn clone_from(&mut self, other: &State) {
        self.mem.clone_from(&other.mem);
        self.threads.clone_from(&other.threads);
        self.atomic = other.atomic;
    }
}

/// Why an execution stopped.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Outcome {
    /// A thread reached the error location.
    Error {
        /// The thread.
        thread: ThreadId,
        /// The transition into the error location.
        transition: TransId,
        /// Why.
        kind: ErrorKind,
    },
    /// Some started thread is not terminal and no thread is enabled.
    Deadlock {
        /// Threads that are neither terminal nor able to move.
        blocked: Vec<ThreadId>,
    },
    /// Every started thread returned.
    Terminated,
    /// `main` returned, or `exit`/`abort` was called.
    Halted,
    /// A local assumption failed: this execution does not exist.
    Discarded,
    /// An operation without defined behaviour (division by zero, out-of-bounds index, null
    /// dereference).
    Undefined {
        /// The thread.
        thread: ThreadId,
        /// The transition.
        transition: TransId,
        /// What happened.
        reason: String,
        /// Whether it is a memory-safety violation ([`Fault::is_memory_error`]): a bug of the
        /// program like an error, not a limit of the model nor arithmetic without a defined
        /// result.
        memory: bool,
    },
    /// The step bound was reached.
    StepBound,
    /// A given schedule ended before the program did.
    ScheduleEnd,
    /// A given schedule named a thread that could not move.
    ScheduleInvalid {
        /// Index of the offending step.
        step: usize,
        /// The thread it named.
        thread: ThreadId,
    },
}

impl Outcome {
    /// Whether this is an error or a deadlock (a bug).
    pub fn is_bug(&self) -> bool {
        matches!(self, Outcome::Error { .. } | Outcome::Deadlock { .. })
    }

    /// Whether this is a bug of the program: an error, a deadlock or a memory-safety
    /// violation (not a limit of the model, nor arithmetic without a defined result).
    pub fn is_program_bug(&self) -> bool {
        self.is_bug() || matches!(self, Outcome::Undefined { memory: true, .. })
    }

    /// The limit of the model (`<...>`, [`Fault::model_limit`]) an undefined outcome marks, if
    /// it marks one rather than something the program does.
    pub fn model_limit(&self) -> Option<&str> {
        match self {
            Outcome::Undefined {
                reason,
                memory: false,
                ..
            } => (reason.split_once(OUT_OF_BOUNDS).map(|(_, var)| var))
                .filter(|var| crate::ir::is_model_limit(var)),
            _ => None,
        }
    }
}

/// What an access out of bounds says before the variable's name ([`Fault`]'s `Display`).
const OUT_OF_BOUNDS: &str = " out of bounds of ";

/// One executed transition.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Step {
    /// The thread that moved.
    pub thread: ThreadId,
    /// The transition.
    pub transition: TransId,
    /// Inputs consumed (`__VERIFIER_nondet_*`).
    pub inputs: Vec<i128>,
    /// Values written: variable, element, value.
    pub writes: Vec<(VarId, i128, i128)>,
}

/// A finished run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Execution {
    /// Initial values chosen for uninitialised variables: variable, element, value.
    pub initial: Vec<(VarId, i128, i128)>,
    /// The steps.
    pub steps: Vec<Step>,
    /// How it ended.
    pub outcome: Outcome,
}

/// Makes the choices of a run: which thread moves, which of its enabled transitions it takes
/// (several are enabled only at `pthread_cond_signal`), and the inputs.
pub trait Oracle {
    /// Picks among `(thread, transition)` pairs that are enabled (never empty); `None` stops.
    fn pick(&mut self, step: usize, enabled: &[(ThreadId, TransId)]) -> Choice;
    /// A value for an input of type `ty`.
    fn input(&mut self, ty: Ty) -> i128;
    /// An initial value for element `index` of an uninitialised variable.
    fn initial(&mut self, var: VarId, index: usize, ty: Ty) -> i128;
}

/// What an [`Oracle`] decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Take this enabled pair (an index into the slice).
    Take(usize),
    /// The schedule ended.
    End,
    /// The schedule named a thread that cannot move.
    Invalid(ThreadId),
}

/// Seeded random scheduling and inputs.
pub struct RandomOracle {
    rng: SmallRng,
}

impl RandomOracle {
    /// A random oracle with a seed.
    pub fn new(seed: u64) -> Self {
        RandomOracle {
            rng: SmallRng::seed_from_u64(seed),
        }
    }

    fn value(&mut self, ty: Ty) -> i128 {
        let (lo, hi) = (ty.min(), ty.max());
        match self.rng.gen_range(0..8) {
            0..=3 => ty.wrap(self.rng.gen_range(-4i128..=4).clamp(lo, hi)),
            4 => [lo, hi, 0, 1, ty.wrap(-1)][self.rng.gen_range(0..5)],
            _ => {
                let span = (hi - lo) as u128;
                let r = (self.rng.gen::<u128>() % (span + 1)) as i128;
                lo + r
            }
        }
    }
}

impl Oracle for RandomOracle {
    fn pick(&mut self, _step: usize, enabled: &[(ThreadId, TransId)]) -> Choice {
        // Uniform over threads, then over that thread's transitions.
        let mut threads: Vec<ThreadId> = enabled.iter().map(|e| e.0).collect();
        threads.dedup();
        let t = threads[self.rng.gen_range(0..threads.len())];
        let mine: Vec<usize> = (0..enabled.len()).filter(|i| enabled[*i].0 == t).collect();
        Choice::Take(mine[self.rng.gen_range(0..mine.len())])
    }

    fn input(&mut self, ty: Ty) -> i128 {
        self.value(ty)
    }

    fn initial(&mut self, _var: VarId, _index: usize, ty: Ty) -> i128 {
        self.value(ty)
    }
}

/// The run with no choices: the first enabled step each time (the thread of lowest id runs
/// until it waits), every input and uninitialised value 0.
pub struct FirstOracle;

impl Oracle for FirstOracle {
    fn pick(&mut self, _step: usize, _enabled: &[(ThreadId, TransId)]) -> Choice {
        Choice::Take(0)
    }

    fn input(&mut self, _ty: Ty) -> i128 {
        0
    }

    fn initial(&mut self, _var: VarId, _index: usize, _ty: Ty) -> i128 {
        0
    }
}

/// A fixed schedule (thread per step, optionally the transition) and fixed inputs.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Replay {
    /// Which thread moves at each step, and optionally which of its transitions.
    pub schedule: Vec<(ThreadId, Option<TransId>)>,
    /// Inputs in the order they are consumed; missing ones are 0.
    pub inputs: Vec<i128>,
    /// Initial values of uninitialised variables; missing ones are 0.
    pub initial: Vec<(VarId, i128, i128)>,
    #[serde(skip)]
    next_input: usize,
}

impl Replay {
    /// A replay of a schedule and inputs.
    pub fn new(schedule: Vec<(ThreadId, Option<TransId>)>, inputs: Vec<i128>) -> Self {
        Replay {
            schedule,
            inputs,
            initial: vec![],
            next_input: 0,
        }
    }

    /// The replay of a recorded execution.
    pub fn of(e: &Execution) -> Self {
        Replay {
            schedule: e
                .steps
                .iter()
                .map(|s| (s.thread, Some(s.transition)))
                .collect(),
            inputs: e.steps.iter().flat_map(|s| s.inputs.clone()).collect(),
            initial: e.initial.clone(),
            next_input: 0,
        }
    }
}

impl Oracle for Replay {
    fn pick(&mut self, step: usize, enabled: &[(ThreadId, TransId)]) -> Choice {
        let Some(&(t, tr)) = self.schedule.get(step) else {
            return Choice::End;
        };
        match enabled
            .iter()
            .position(|e| e.0 == t && tr.is_none_or(|tr| e.1 == tr))
        {
            Some(i) => Choice::Take(i),
            None => Choice::Invalid(t),
        }
    }

    fn input(&mut self, ty: Ty) -> i128 {
        let v = self.inputs.get(self.next_input).copied().unwrap_or(0);
        self.next_input += 1;
        ty.wrap(v)
    }

    fn initial(&mut self, var: VarId, index: usize, ty: Ty) -> i128 {
        self.initial
            .iter()
            .find(|(v, i, _)| *v == var && *i == index as i128)
            .map(|x| ty.wrap(x.2))
            .unwrap_or(0)
    }
}

/// Why a step failed to produce a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Arithmetic without defined behaviour.
    Arith(Undefined),
    /// An index outside the variable.
    OutOfBounds {
        /// Variable name.
        var: String,
        /// The index.
        index: i128,
    },
    /// A dereference of an address that is not an object.
    BadAddress(i128),
    /// An access to heap memory whose instance is not allocated (freed or never allocated).
    NotAllocated {
        /// The variable accessed.
        var: String,
        /// Whether it is a local variable (whose function has returned) rather than heap
        /// memory.
        local: bool,
    },
    /// An access through a pointer that is not one cell of the object's layout (a byte of
    /// an `int`, a `long` over two `int`s): performed byte by byte
    /// ([`Machine::read_bytes`], [`Machine::write_bytes`]); never reported.
    Bytes {
        /// The address.
        addr: i128,
        /// Bytes accessed.
        width: u32,
    },
    /// The model's read of a block's status cell ([`Place::Deref`]'s `header`) at an address
    /// that is no status cell: no block starts after it, and the read is
    /// [`crate::ir::NEVER_ALLOCATED`]. A write there is a memory error.
    NoBlock(i128),
    /// A write to read-only memory ([`crate::ir::Var::read_only`]: a string literal).
    ReadOnly {
        /// The variable written.
        var: String,
    },
}

impl Fault {
    /// Whether this is a memory-safety violation of the program: an access to heap memory
    /// freed or never allocated, past the end of its object or block, or through an address
    /// that is no object's (null). A limit of the model is not (its ghost variables are named
    /// `<...>`, [`crate::ir::Program`]'s model limits), nor is arithmetic without a defined
    /// result.
    pub fn is_memory_error(&self) -> bool {
        match self {
            Fault::NotAllocated { .. }
            | Fault::BadAddress(_)
            | Fault::NoBlock(_)
            | Fault::ReadOnly { .. } => true,
            Fault::OutOfBounds { var, .. } => !crate::ir::is_model_limit(var),
            Fault::Arith(_) | Fault::Bytes { .. } => false,
        }
    }

    /// The limit of the model this fault marks (the name of its ghost variable, `<...>`), if
    /// it marks one rather than something the program does.
    pub fn model_limit(&self) -> Option<&str> {
        match self {
            Fault::OutOfBounds { var, .. } if crate::ir::is_model_limit(var) => Some(var),
            _ => None,
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Arith(u) => write!(f, "{u}"),
            Fault::OutOfBounds { var, index } => write!(f, "index {index}{OUT_OF_BOUNDS}{var}"),
            Fault::BadAddress(0) => write!(f, "null pointer dereference"),
            Fault::BadAddress(crate::ir::DANGLING) => {
                write!(f, "dereference of a pointer to a returned function's local")
            }
            Fault::BadAddress(a) => write!(f, "dereference of invalid address {a:#x}"),
            Fault::NotAllocated { var, local: false } => {
                write!(f, "access to freed memory ({var})")
            }
            Fault::NotAllocated { var, local: true } => {
                write!(
                    f,
                    "access to a local variable after its function returned or its thread \
                     exited ({var})"
                )
            }
            Fault::ReadOnly { var } => write!(f, "write to read-only memory ({var})"),
            Fault::Bytes { addr, width } => {
                write!(f, "access of {width} bytes at {addr:#x} across cells")
            }
            Fault::NoBlock(a) => write!(f, "no allocated block after address {a:#x}"),
        }
    }
}

/// One access to a variable element, as [`Machine::take_log`] reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Touch {
    /// The variable.
    pub var: VarId,
    /// The element.
    pub index: u32,
    /// A write (else a read).
    pub write: bool,
    /// For a write, the value before it.
    pub old: i128,
    /// The variable is visible to other threads (shared, global, heap or ghost); the others
    /// are logged only for writes.
    pub visible: bool,
}

/// What the evaluations and executions of a stretch of work read and wrote, as positions in
/// [`Memory::at`] ([`Machine::start_recording`]): the explorer memoises a thread's step by
/// the values it read (`explore::memo`).
#[derive(Default)]
pub struct Recording {
    /// The elements read before being written, each once, in the order of their first read,
    /// with the value read (a write reads the value it overwrites).
    pub reads: Vec<(u32, i64)>,
    /// The elements written, each once.
    pub writes: Vec<u32>,
    /// The elements an evaluation read before any write of them, each once (unlike
    /// `reads`, without the values writes overwrite).
    pub loads: Vec<u32>,
    /// With [`Machine::start_tainting`]: per element, which of its bytes hold values that
    /// are not known ([`unknown_bytes`]), updated by every write: a write is not known when
    /// its operation read a byte that was not known, or when an input ([`Op::Havoc`]) made
    /// it; a write of some bytes of an element (through a pointer of another type, or
    /// `memcpy`) changes only theirs.
    pub taint: Vec<u64>,
    /// With [`Machine::start_tainting`]: whether a guard or an operation read an element
    /// whose value was not known.
    pub read_tainted: bool,
    tainting: bool,
    /// Whether the operation being executed read an element whose value was not known.
    op_tainted: bool,
    /// While an assignment stores its value ([`Machine::assign`]): which bytes of the value
    /// are not known ([`Machine::unknown_of`]), so that a copy of some known and some unknown
    /// bytes (a union, or a struct moved through an integer register) keeps them apart.
    copied: Option<u8>,
    /// Per element, the recording that last read or wrote it (so that each is listed once).
    read_in: Vec<u32>,
    written_in: Vec<u32>,
    epoch: u32,
}

/// Most cells of uninitialised memory a trace names.
const MAX_INITIAL_SHOWN: usize = 8;

/// How many steps a counterexample's trace shows at its start and at its end
/// ([`Program::show_execution_brief`]); the steps between are summarised in one line.
pub const TRACE_ENDS: usize = 100;

/// Every byte of an element (an element has at most 8).
pub const ALL_BYTES: u8 = 0xff;

/// The mask of the bytes of a value of type `ty` ([`unknown_bytes`]).
pub fn width_bytes(ty: Ty) -> u8 {
    match ty.bits.div_ceil(8) {
        n @ 0..=7 => ((1u16 << n) - 1) as u8,
        _ => ALL_BYTES,
    }
}

/// Words of a mask of unknown bytes ([`unknown_bytes`]) for `cells` elements.
pub fn unknown_words(cells: usize) -> usize {
    cells.div_ceil(8)
}

/// Which bytes of element `cell` are not known in `marks` (a byte per element, bit `b` for
/// its byte `b`; 0: all known).
#[inline]
pub fn unknown_bytes(marks: &[u64], cell: usize) -> u8 {
    marks
        .get(cell / 8)
        .map_or(0, |w| (w >> (8 * (cell % 8))) as u8)
}

/// Sets which bytes of element `cell` are not known in `marks` ([`unknown_bytes`]).
#[inline]
pub fn set_unknown_bytes(marks: &mut [u64], cell: usize, bytes: u8) {
    if let Some(w) = marks.get_mut(cell / 8) {
        let shift = 8 * (cell % 8);
        *w = (*w & !(0xff << shift)) | ((bytes as u64) << shift);
    }
}

impl Recording {
    /// Whether this is the first access of `cell`.
    fn read(&mut self, cell: usize, value: i64) -> bool {
        if self.read_in[cell] != self.epoch && self.written_in[cell] != self.epoch {
            self.read_in[cell] = self.epoch;
            self.reads.push((cell as u32, value));
            return true;
        }
        false
    }

    /// The bytes of element `cell` that a write of some of its bytes keeps: read, but what
    /// is not known among them stays theirs.
    fn keep(&mut self, cell: usize, value: i64) {
        if self.read(cell, value) {
            self.loads.push(cell as u32);
        }
    }

    /// An evaluation's read of the bytes `bytes` (a mask) of element `cell`.
    fn load(&mut self, cell: usize, value: i64, bytes: u8) {
        if self.tainting && unknown_bytes(&self.taint, cell) & bytes != 0 {
            self.op_tainted = true;
            self.read_tainted = true;
        }
        if self.read(cell, value) {
            self.loads.push(cell as u32);
        }
    }

    /// A write of the bytes `bytes` (a mask) of element `cell` over `old`: the value
    /// overwritten counts as read (what a step does may depend on it, as whether an unlock
    /// releases a mutex its thread holds). With `value_byte`, the write is of that byte of
    /// the value (else of the whole value).
    fn write(&mut self, cell: usize, old: i64, input: bool, bytes: u8, value_byte: Option<u32>) {
        if self.tainting {
            let was = unknown_bytes(&self.taint, cell);
            let now = match (input, self.copied, value_byte) {
                (true, _, _) => was | bytes,
                // A byte of a copied value: as it was where it came from.
                (false, Some(m), Some(b)) if m >> b & 1 != 0 => was | bytes,
                (false, Some(_), Some(_)) => was & !bytes,
                // A whole copied value: its bytes as they were.
                (false, Some(m), None) => (was & !bytes) | (m & bytes),
                (false, None, _) if self.op_tainted => was | bytes,
                (false, None, _) => was & !bytes,
            };
            set_unknown_bytes(&mut self.taint, cell, now);
        }
        self.read(cell, old);
        if self.written_in[cell] != self.epoch {
            self.written_in[cell] = self.epoch;
            self.writes.push(cell as u32);
        }
    }
}

/// The program's transition system over concrete states.
pub struct Machine<'p> {
    /// The program.
    pub prog: &'p Program,
    /// Whether loads and stores of variables visible to other threads are logged.
    logging: std::cell::Cell<bool>,
    log: std::cell::RefCell<Vec<Touch>>,
    /// Whether [`Machine::execute`] lists the values written (the explorer turns this off
    /// while it searches, and recomputes them for the traces it reports).
    record_writes: std::cell::Cell<bool>,
    /// Per variable: visible to other threads (shared, global, heap or ghost, but the ghosts
    /// of the model's limits).
    visible: Vec<bool>,
    /// Per variable: its number of elements and their type.
    meta: Vec<(u32, Ty)>,
    /// The objects: their variables and extents.
    objects: Objects,
    /// Whether reads and writes are recorded ([`Machine::start_recording`]).
    recording: std::cell::Cell<bool>,
    rec: std::cell::RefCell<Recording>,
    /// Whether the write being made is an input's ([`Recording::inputs`]).
    writing_input: std::cell::Cell<bool>,
}

impl<'p> Machine<'p> {
    /// A machine for a program.
    pub fn new(prog: &'p Program) -> Self {
        let visible = prog
            .vars
            .iter()
            .map(|v| {
                // (A limit of the model's ghost is written, never read: its writes in bounds
                // store the same 0, and one past them ends the execution.)
                (v.shared || !matches!(v.scope, VarScope::Local(_)))
                    && !(v.scope == VarScope::Ghost && crate::ir::is_model_limit(&v.name))
            })
            .collect();
        let meta = prog.vars.iter().map(|v| (v.len, v.elem.ty())).collect();
        Machine {
            prog,
            logging: std::cell::Cell::new(false),
            log: std::cell::RefCell::new(Vec::new()),
            record_writes: std::cell::Cell::new(true),
            visible,
            meta,
            objects: Objects::new(prog),
            recording: std::cell::Cell::new(false),
            rec: std::cell::RefCell::default(),
            writing_input: std::cell::Cell::new(false),
        }
    }

    /// Starts recording every element read and written ([`Recording`]) in a memory of `cells`
    /// elements, forgetting the last recording.
    pub fn start_recording(&self, cells: usize) {
        let mut r = self.rec.borrow_mut();
        r.reads.clear();
        r.writes.clear();
        r.loads.clear();
        r.tainting = false;
        r.read_tainted = false;
        r.op_tainted = false;
        r.epoch = r.epoch.wrapping_add(1);
        if r.epoch == 0 || r.read_in.len() != cells {
            r.read_in.clear();
            r.read_in.resize(cells, 0);
            r.written_in.clear();
            r.written_in.resize(cells, 0);
            r.epoch = 1;
        }
        self.recording.set(true);
    }

    /// While recording, also tracks which elements hold values that are not known, from
    /// `taint` (a bit per element of the memory, set where not known) on: the taint analysis
    /// of dynamic information-flow tracking, as Valgrind's Memcheck tracks definedness. The
    /// result is in [`Recording::taint`] and [`Recording::read_tainted`].
    pub fn start_tainting(&self, taint: &[u64]) {
        let mut r = self.rec.borrow_mut();
        r.taint.clear();
        r.taint.extend_from_slice(taint);
        r.tainting = true;
    }

    /// Whether an evaluation read an element whose value was not known since the last call
    /// (or since [`Machine::start_tainting`]); clears the mark.
    pub fn take_read_tainted(&self) -> bool {
        std::mem::take(&mut self.rec.borrow_mut().read_tainted)
    }

    /// Stops recording; the recording stays until the next start.
    pub fn stop_recording(&self) -> std::cell::Ref<'_, Recording> {
        self.recording.set(false);
        self.rec.borrow()
    }

    /// Element `i` of variable `v` in `s`, read as an evaluation reads it (recorded, when
    /// recording; not logged).
    #[inline]
    pub fn read_cell(&self, s: &State, v: VarId, i: usize) -> i64 {
        self.read_cell_bytes(s, v, i, ALL_BYTES)
    }

    /// [`Machine::read_cell`] of the bytes `bytes` (a mask) of the element only: whether the
    /// others are known does not matter.
    #[inline]
    fn read_cell_bytes(&self, s: &State, v: VarId, i: usize, bytes: u8) -> i64 {
        let x = s.mem.cell(v.0 as usize, i);
        if self.recording.get() {
            self.rec
                .borrow_mut()
                .load(s.mem.flat(v.0 as usize, i), x, bytes);
        }
        x
    }

    /// Records a write of element `i` of variable `v` (before it), when recording.
    #[inline]
    fn wrote(&self, s: &State, v: VarId, i: usize) {
        self.wrote_bytes(s, v, i, ALL_BYTES, None);
    }

    /// Records a write of the bytes `bytes` (a mask) of element `i` of variable `v` (before
    /// it), when recording: of byte `value_byte` of the value written, or of all of it.
    #[inline]
    fn wrote_bytes(&self, s: &State, v: VarId, i: usize, bytes: u8, value_byte: Option<u32>) {
        if self.recording.get() {
            let input = self.writing_input.get();
            self.rec.borrow_mut().write(
                s.mem.flat(v.0 as usize, i),
                s.mem.cell(v.0 as usize, i),
                input,
                bytes,
                value_byte,
            );
        }
    }

    /// Starts or stops logging accesses: every evaluated load (guards included) of a variable
    /// other threads can see (shared variables, globals, heap objects, ghosts), and every
    /// store. The explorer's partial-order reduction and fair scheduler are built on this log.
    pub fn set_logging(&self, on: bool) {
        self.logging.set(on);
    }

    /// The accesses logged since the last call.
    pub fn take_log(&self) -> Vec<Touch> {
        std::mem::take(&mut *self.log.borrow_mut())
    }

    /// Moves the accesses logged since the last call into `buf` (cleared first), keeping
    /// both buffers' capacity.
    pub fn swap_log(&self, buf: &mut Vec<Touch>) {
        buf.clear();
        std::mem::swap(&mut *self.log.borrow_mut(), buf);
    }

    /// Whether [`Machine::execute`] lists the values a step writes in [`Step::writes`] (on
    /// by default).
    pub fn set_record_writes(&self, on: bool) {
        self.record_writes.set(on);
    }

    #[inline]
    fn touch(&self, var: VarId, index: usize, write: bool, old: i128) {
        if !self.logging.get() {
            return;
        }
        let visible = self.visible[var.0 as usize];
        if visible || write {
            self.log.borrow_mut().push(Touch {
                var,
                index: index as u32,
                write,
                old,
                visible,
            });
        }
    }

    /// Where each variable's elements start among all the elements of a state's memory, and
    /// the end ([`Memory::starts`]), without making a state.
    pub fn layout(&self) -> Vec<usize> {
        let mut start = Vec::with_capacity(self.prog.vars.len() + 1);
        let mut at = 0;
        for v in &self.prog.vars {
            start.push(at);
            at += v.len as usize;
        }
        start.push(at);
        start
    }

    /// The initial state; uninitialised variables get their values from the oracle.
    pub fn initial(&self, oracle: &mut dyn Oracle, chosen: &mut Vec<(VarId, i128, i128)>) -> State {
        let start = self.layout();
        let mut cells = Vec::with_capacity(start.last().copied().unwrap_or(0));
        for v in &self.prog.vars {
            let ty = v.elem.ty();
            let len = v.len as usize;
            match &v.init {
                Init::Zero => cells.resize(cells.len() + len, 0),
                Init::Values(vs) => {
                    let end = cells.len() + len;
                    cells.extend(vs.iter().take(len).map(|x| ty.wrap(*x) as i64));
                    cells.resize(end, 0);
                }
                Init::Nondet => cells.extend((0..len).map(|i| {
                    let x = ty.wrap(oracle.initial(v.id, i, ty));
                    chosen.push((v.id, i as i128, x));
                    x as i64
                })),
            }
        }
        let mem = Memory::new(&cells, start.into());
        let mut threads = vec![Status::NotStarted; self.prog.threads.len()];
        threads[0] = Status::At(self.prog.threads[0].entry);
        State {
            mem,
            threads,
            atomic: None,
        }
    }

    /// The cell a place names, checked to be allocated when it is heap memory.
    fn slot(&self, s: &State, p: &Place) -> Result<(VarId, usize, Ty), Fault> {
        let (v, i, ty) = self.cell_of(s, p)?;
        self.allocated(s, v, i)?;
        Ok((v, i, ty))
    }

    /// Whether element `i` of `v` may be accessed: when it lies in a heap allocation site,
    /// its instance must be allocated and the element within the size allocated (the
    /// status cell is read, [`Var::allocation_status`]).
    fn allocated(&self, s: &State, v: VarId, i: usize) -> Result<(), Fault> {
        self.allocated_bytes(s, v, i, None)
    }

    /// [`Machine::allocated`] of byte `byte` of the element only, or of all of it (`None`):
    /// a byte access (a `char` of a block whose size is no multiple of the element's) needs
    /// only its own byte inside the block.
    fn allocated_bytes(
        &self,
        s: &State,
        v: VarId,
        i: usize,
        byte: Option<u32>,
    ) -> Result<(), Fault> {
        let Some((status, j, at)) = self.objects.allocation(self.prog, v, i as i128) else {
            return Ok(());
        };
        let (at, width) = match byte {
            Some(b) => (at + b as i128, 1),
            None => (at, cell_width(self.prog.var(v).elem) as i128),
        };
        let st = self.read_cell(s, status, j as usize) as i128;
        self.touch(status, j as usize, false, 0);
        let var = &self.prog.var(v).name;
        match crate::ir::allocated_bytes(st) {
            None => Err(Fault::NotAllocated {
                var: var.clone(),
                local: matches!(self.prog.var(v).scope, VarScope::Local(_)),
            }),
            // Past the end of the block allocated (the instance has room for more).
            Some(n) if at < 0 || at + width > n => Err(Fault::OutOfBounds {
                var: var.clone(),
                index: i as i128,
            }),
            Some(_) => Ok(()),
        }
    }

    fn cell_of(&self, s: &State, p: &Place) -> Result<(VarId, usize, Ty), Fault> {
        match p {
            Place::Var { var, index } => {
                let (len, ty) = self.meta[var.0 as usize];
                let i = match index {
                    Some(e) => self.eval(s, e)?,
                    None => return Ok((*var, 0, ty)),
                };
                if i < 0 || i >= len as i128 {
                    return Err(Fault::OutOfBounds {
                        var: self.prog.var(*var).name.clone(),
                        index: i,
                    });
                }
                Ok((*var, i as usize, ty))
            }
            Place::Deref {
                addr, ty, header, ..
            } => {
                let a = self.eval(s, addr)?;
                let width = (ty.bits as u32).div_ceil(8);
                let found = self.prog.locate(&self.objects.members, a);
                let status = found.map(|(v, i)| (v, i, self.prog.var(v).allocation_status));
                match status {
                    Some((var, i, true)) if *header => {
                        return Ok((var, i as usize, self.prog.var(var).elem.ty()))
                    }
                    _ if *header => return Err(Fault::NoBlock(a)),
                    // The status cell before a block is no memory of the program.
                    Some((var, i, true)) => {
                        return Err(Fault::OutOfBounds {
                            var: self.prog.var(var).name.clone(),
                            index: i,
                        })
                    }
                    _ => {}
                }
                if let Some((var, i)) = found {
                    let v = self.prog.var(var);
                    // Variables without a placement count elements, not bytes; a
                    // synchronisation cell is accessed whole.
                    let whole = v.placement.is_none() || v.elem.is_sync();
                    if whole || cell_width(v.elem) == width {
                        return Ok((var, i as usize, v.elem.ty()));
                    }
                }
                if let Some((o, _)) = decode_address(a) {
                    let placed = self
                        .objects
                        .members
                        .get(o.0 as usize)
                        .and_then(|m| m.first())
                        .is_some_and(|v| self.prog.var(*v).placement.is_some());
                    if placed {
                        return Err(Fault::Bytes { addr: a, width });
                    }
                }
                let Some((var, i)) = found else {
                    // Name the object the address falls in, when it falls in one.
                    return Err(match decode_address(a) {
                        Some((o, i)) if (o.0 as usize) < self.prog.vars.len() => {
                            Fault::OutOfBounds {
                                var: self.prog.var(o).name.clone(),
                                index: i,
                            }
                        }
                        _ => Fault::BadAddress(a),
                    });
                };
                let _ = ty;
                Ok((var, i as usize, self.prog.var(var).elem.ty()))
            }
        }
    }

    /// Whether the `width` bytes at `addr` lie in one object laid out in bytes (padding
    /// included); an access past its end is undefined. (Variables that are not placed, each
    /// its own object, are accessed by elements.)
    fn inside_object(&self, addr: i128, width: u32) -> Result<(), Fault> {
        if decode_address(addr).is_none() || self.objects.inside_bytes(addr, width) == Some(false) {
            return Err(Fault::BadAddress(addr));
        }
        Ok(())
    }

    /// The cell holding byte `addr` of an object ([`Objects::byte_cell`]).
    fn byte_cell(&self, addr: i128) -> Option<(VarId, usize, u32)> {
        self.objects.byte_cell(self.prog, addr)
    }

    /// A write to variable `v` faults where it is read-only.
    fn writable(&self, v: VarId) -> Result<(), Fault> {
        if self.prog.var(v).read_only {
            return Err(Fault::ReadOnly {
                var: self.prog.var(v).name.clone(),
            });
        }
        Ok(())
    }

    /// A part of an allocation's status cell is no memory of the program (the model reads and
    /// writes the whole cell): an access there, just before a block, is out of its bounds.
    fn not_status(&self, v: VarId, i: usize) -> Result<(), Fault> {
        if self.prog.var(v).allocation_status {
            return Err(Fault::OutOfBounds {
                var: self.prog.var(v).name.clone(),
                index: i as i128,
            });
        }
        Ok(())
    }

    /// Reads `width` bytes at `addr` (little-endian) from the cells that hold them; padding
    /// reads as 0.
    pub fn read_bytes(&self, s: &State, addr: i128, width: u32) -> Result<i128, Fault> {
        self.inside_object(addr, width)?;
        let mut x: u128 = 0;
        for b in 0..width {
            if let Some((v, i, at)) = self.byte_cell(addr + b as i128) {
                self.not_status(v, i)?;
                self.allocated_bytes(s, v, i, Some(at))?;
                self.touch(v, i, false, 0);
                let cell = self.read_cell_bytes(s, v, i, 1 << at) as u64;
                x |= (((cell >> (8 * at)) & 0xff) as u128) << (8 * b);
            }
        }
        Ok(x as i128)
    }

    /// Writes the `width` low bytes of `x` at `addr` (little-endian) into the cells that hold
    /// them (bytes of padding are dropped); returns the last cell written.
    pub fn write_bytes(
        &self,
        s: &mut State,
        addr: i128,
        width: u32,
        x: i128,
    ) -> Result<(VarId, usize), Fault> {
        self.inside_object(addr, width)?;
        let mut last = None;
        for b in 0..width {
            let Some((v, i, at)) = self.byte_cell(addr + b as i128) else {
                continue;
            };
            self.not_status(v, i)?;
            self.writable(v)?;
            self.allocated_bytes(s, v, i, Some(at))?;
            let ty = self.prog.var(v).elem.ty();
            if self.recording.get() && cell_width(self.prog.var(v).elem) > 1 {
                // The bytes of the cell this write keeps are read.
                let f = s.mem.flat(v.0 as usize, i);
                self.rec.borrow_mut().keep(f, s.mem.cell(v.0 as usize, i));
            }
            self.wrote_bytes(s, v, i, 1 << at, Some(b));
            let old = s.mem.cell(v.0 as usize, i) as i128;
            let byte = ((x >> (8 * b)) & 0xff) as u64;
            let mask = !(0xffu64 << (8 * at));
            let new = ((old as u64) & mask) | (byte << (8 * at));
            s.mem.set_cell(v.0 as usize, i, ty.wrap(new as i128) as i64);
            self.touch(v, i, true, old);
            last = Some((v, i));
        }
        // Only padding: nothing to write (the object's first cell stands for the access).
        last.or_else(|| {
            let (o, _) = decode_address(addr)?;
            self.objects
                .members
                .get(o.0 as usize)?
                .first()
                .map(|v| (*v, 0))
        })
        .ok_or(Fault::BadAddress(addr))
    }

    /// Evaluates an expression in a state.
    #[inline]
    pub fn eval(&self, s: &State, e: &Expr) -> Result<i128, Fault> {
        // Constants (most guards, many operands) without a call.
        if let Expr::Const { value, .. } = e {
            return Ok(*value);
        }
        self.eval_node(s, e)
    }

    /// [`Machine::eval`] of an expression that is not a constant.
    fn eval_node(&self, s: &State, e: &Expr) -> Result<i128, Fault> {
        Ok(match e {
            Expr::Const { value, .. } => *value,
            Expr::Load {
                place: Place::Var { var, index: None },
                ty,
            } => {
                // A scalar: no index to evaluate or check.
                self.touch(*var, 0, false, 0);
                ty.wrap(self.read_cell(s, *var, 0) as i128)
            }
            Expr::Load { place, ty } => match self.slot(s, place) {
                Ok((v, i, _)) => {
                    self.touch(v, i, false, 0);
                    ty.wrap(self.read_cell(s, v, i) as i128)
                }
                Err(Fault::Bytes { addr, width }) => ty.wrap(self.read_bytes(s, addr, width)?),
                Err(Fault::NoBlock(_)) => crate::ir::NEVER_ALLOCATED,
                Err(e) => return Err(e),
            },
            Expr::AddrOf { var, index } => {
                self.prog.var(*var).element_address(self.eval(s, index)?)
            }
            Expr::Unary { op, arg, ty } => {
                semantics::unop(*op, *ty, self.eval(s, arg)?).map_err(Fault::Arith)?
            }
            Expr::Binary { op, lhs, rhs, ty } => {
                let a = self.eval(s, lhs)?;
                match op {
                    BinOp::And if a == 0 => return Ok(0),
                    BinOp::Or if a != 0 => return Ok(1),
                    _ => {}
                }
                let b = self.eval(s, rhs)?;
                semantics::binop(*op, *ty, a, b).map_err(Fault::Arith)?
            }
            Expr::Cast { arg, ty } => ty.wrap(self.eval(s, arg)?),
            Expr::Ite {
                cond,
                then,
                els,
                ty,
            } => {
                if self.eval(s, cond)? != 0 {
                    ty.wrap(self.eval(s, then)?)
                } else {
                    ty.wrap(self.eval(s, els)?)
                }
            }
        })
    }

    /// The variable and element a place denotes in state `s` (its index expression
    /// evaluated; accesses are logged as for any evaluation).
    pub fn place(&self, s: &State, p: &Place) -> Result<(VarId, usize), Fault> {
        self.slot(s, p).map(|(v, i, _)| (v, i))
    }

    /// Enabled transitions of every thread, in thread order. A transition whose guard cannot
    /// be evaluated counts as enabled (taking it reports the fault).
    pub fn enabled(&self, s: &State) -> Vec<(ThreadId, TransId)> {
        let mut out = Vec::new();
        for t in &self.prog.threads {
            if s.atomic.is_some_and(|a| a != t.id) {
                continue;
            }
            self.enabled_of(s, t.id, &mut out);
        }
        out
    }

    /// Enabled transitions of one thread.
    pub fn enabled_of(&self, s: &State, tid: ThreadId, out: &mut Vec<(ThreadId, TransId)>) {
        let Status::At(l) = s.threads[tid.0 as usize] else {
            return;
        };
        let t = self.prog.thread(tid);
        for tr in t.outgoing(l) {
            if self.eval(s, &tr.guard).map(|g| g != 0).unwrap_or(true) {
                out.push((tid, tr.id));
            }
        }
    }

    /// Executes a transition: the new state's changes are applied to `s`. Returns the inputs
    /// consumed and the writes.
    pub fn execute(
        &self,
        s: &mut State,
        tid: ThreadId,
        trid: TransId,
        oracle: &mut dyn Oracle,
    ) -> Result<Step, Fault> {
        let tr = self.prog.thread(tid).transition(trid);
        if self.eval(s, &tr.guard)? == 0 {
            // Only reachable through a bad replay: treat as a fault-free no-op refusal.
            return Err(Fault::Arith(Undefined::DivisionByZero));
        }
        self.execute_unguarded(s, tid, trid, oracle)
    }

    /// Executes the operations of transition `trid` of thread `tid` whatever its guard says
    /// in `s`: a step of a search in which `s` stands for states where the guard may hold
    /// (the explicit search's, where the guard reads a value that is not known).
    pub fn execute_unguarded(
        &self,
        s: &mut State,
        tid: ThreadId,
        trid: TransId,
        oracle: &mut dyn Oracle,
    ) -> Result<Step, Fault> {
        let step = Step {
            thread: tid,
            transition: trid,
            inputs: vec![],
            writes: vec![],
        };
        self.execute_ops(s, self.prog.thread(tid).transition(trid), step, oracle)
    }

    /// The operations of `tr`, in order, added to `step`.
    fn execute_ops(
        &self,
        s: &mut State,
        tr: &Transition,
        mut step: Step,
        oracle: &mut dyn Oracle,
    ) -> Result<Step, Fault> {
        let tid = step.thread;
        let record = self.record_writes.get();
        for op in &tr.ops {
            if self.recording.get() {
                self.rec.borrow_mut().op_tainted = false;
            }
            match op {
                Op::Assign { place, value } => {
                    let (v, i, x) = self.assign(s, place, value)?;
                    if record {
                        step.writes.push((v, i as i128, x));
                    }
                }
                Op::Havoc { place, ty } => {
                    let x = ty.wrap(oracle.input(*ty));
                    step.inputs.push(x);
                    let (v, i, vty) = match self.slot(s, place) {
                        Err(Fault::Bytes { addr, width }) => {
                            self.writing_input.set(true);
                            let r = self.write_bytes(s, addr, width, x);
                            self.writing_input.set(false);
                            r?;
                            continue;
                        }
                        r => r?,
                    };
                    self.writable(v)?;
                    let x = vty.wrap(x);
                    self.touch(v, i, true, s.mem.cell(v.0 as usize, i) as i128);
                    self.writing_input.set(true);
                    self.wrote(s, v, i);
                    self.writing_input.set(false);
                    s.mem.set_cell(v.0 as usize, i, x as i64);
                    if record {
                        step.writes.push((v, i as i128, x));
                    }
                }
                Op::Spawn { thread, args } => {
                    for (v, e) in args {
                        let x = self.eval(s, e)?;
                        let ty = self.prog.var(*v).elem.ty();
                        self.touch(*v, 0, true, s.mem.cell(v.0 as usize, 0) as i128);
                        self.wrote(s, *v, 0);
                        s.mem.set_cell(v.0 as usize, 0, ty.wrap(x) as i64);
                    }
                    s.threads[thread.0 as usize] = Status::At(self.prog.thread(*thread).entry);
                }
                Op::AtomicBegin => s.atomic = Some(tid),
                Op::AtomicEnd => s.atomic = None,
            }
        }
        s.threads[tid.0 as usize] = Status::At(tr.dst);
        if self.prog.thread(tid).locations[tr.dst.0 as usize].kind == LocKind::Exit
            && s.atomic == Some(tid)
        {
            s.atomic = None;
        }
        Ok(step)
    }

    /// Performs `place := value` in `s` (logged as a store): the element and the value.
    #[inline]
    fn assign(
        &self,
        s: &mut State,
        place: &Place,
        value: &Expr,
    ) -> Result<(VarId, usize, i128), Fault> {
        if !self.tainting() {
            let x = self.eval(s, value)?;
            let slot = self.slot(s, place);
            return self.store(s, slot, x);
        }
        let read_before = self.rec.borrow().read_tainted;
        let x = self.eval(s, value)?;
        // Which bytes of the value are not known goes with them, unless where it goes to is
        // not known.
        let read_unknown = std::mem::take(&mut self.rec.borrow_mut().op_tainted);
        let (mut unknown, decided) = if read_unknown {
            (self.unknown_of(s, value), self.decides(s, value))
        } else {
            (0, false)
        };
        let slot = self.slot(s, place);
        {
            let mut r = self.rec.borrow_mut();
            if r.op_tainted {
                unknown = ALL_BYTES;
            } else if read_unknown && !decided {
                // Values not known, moved to a known place by operations defined for all
                // of them: nothing was decided on them (the step is exact for every value).
                r.read_tainted = read_before;
            }
            r.op_tainted |= read_unknown;
            r.copied = Some(unknown);
        }
        let r = self.store(s, slot, x);
        self.rec.borrow_mut().copied = None;
        r
    }

    /// Whether a recording tracks which values are not known ([`Machine::start_tainting`]).
    fn tainting(&self) -> bool {
        self.recording.get() && self.rec.borrow().tainting
    }

    /// Which bytes of the value of `e` in `s` are not known, while tracking them: from the
    /// marks of the bytes it reads, byte by byte through copies, conversions, bitwise
    /// operations and shifts by constants, and all of them through any other operation on
    /// one that is not known (the definedness propagation of Valgrind's Memcheck, a byte at
    /// a time; Seward and Nethercote, "Using Valgrind to detect undefined value errors with
    /// bit-precision"). Nothing is recorded or logged.
    fn unknown_of(&self, s: &State, e: &Expr) -> u8 {
        self.unrecorded(|| self.unknown_in(s, e)) & width_bytes(e.ty())
    }

    /// `f` with recording and logging off (an evaluation that is not a step's).
    fn unrecorded<T>(&self, f: impl FnOnce() -> T) -> T {
        let (recording, logging) = (self.recording.replace(false), self.logging.replace(false));
        let x = f();
        self.recording.set(recording);
        self.logging.set(logging);
        x
    }

    /// Whether evaluating `e` in `s` may go another way for other values of what is not
    /// known in it: an address not known, an operation undefined for some operands, a
    /// condition not known choosing between values.
    pub fn decides(&self, s: &State, e: &Expr) -> bool {
        self.unrecorded(|| self.decides_in(s, e))
    }

    /// [`Machine::decides`] with recording and logging off.
    fn decides_in(&self, s: &State, e: &Expr) -> bool {
        let address = |a: &Expr| self.unknown_in(s, a) != 0 || self.decides_in(s, a);
        match e {
            Expr::Const { .. } => false,
            Expr::Load { place, .. } => match place {
                Place::Var { index: None, .. } => false,
                Place::Var {
                    index: Some(ix), ..
                } => address(ix),
                Place::Deref { addr, .. } => address(addr),
            },
            Expr::AddrOf { index, .. } => self.decides_in(s, index),
            Expr::Unary { op, arg, ty } => {
                (semantics::unop_may_be_undefined(*op, *ty) && self.unknown_in(s, arg) != 0)
                    || self.decides_in(s, arg)
            }
            Expr::Binary { op, lhs, rhs, ty } => {
                let shift_in_range = matches!(op, BinOp::Shl | BinOp::Shr)
                    && rhs
                        .as_const()
                        .is_some_and(|k| (0..ty.bits.max(32) as i128).contains(&k));
                let undefined = semantics::binop_may_be_undefined(*op, *ty) && !shift_in_range;
                (undefined && (self.unknown_in(s, lhs) | self.unknown_in(s, rhs)) != 0)
                    // Whether the right operand is evaluated at all.
                    || (matches!(op, BinOp::And | BinOp::Or) && self.unknown_in(s, lhs) != 0)
                    || self.decides_in(s, lhs)
                    || self.decides_in(s, rhs)
            }
            Expr::Cast { arg, .. } => self.decides_in(s, arg),
            Expr::Ite {
                cond, then, els, ..
            } => {
                self.unknown_in(s, cond) != 0
                    || self.decides_in(s, cond)
                    || self.decides_in(s, then)
                    || self.decides_in(s, els)
            }
        }
    }

    /// [`Machine::unknown_of`] with recording and logging off.
    fn unknown_in(&self, s: &State, e: &Expr) -> u8 {
        let rec = self.rec.borrow();
        let cell = |v: VarId, i: usize| unknown_bytes(&rec.taint, s.mem.flat(v.0 as usize, i));
        let any = |m: u8, ty: Ty| if m != 0 { width_bytes(ty) } else { 0 };
        match e {
            Expr::Const { .. } => 0,
            Expr::Load { place, ty } => {
                let address = match place {
                    Place::Var { index: None, .. } => 0,
                    Place::Var {
                        index: Some(ix), ..
                    } => self.unknown_in(s, ix),
                    Place::Deref { addr, .. } => self.unknown_in(s, addr),
                };
                if address != 0 {
                    return width_bytes(*ty);
                }
                match self.slot(s, place) {
                    Ok((v, i, _)) => cell(v, i) & width_bytes(*ty),
                    Err(Fault::Bytes { addr, width }) => (0..width.min(8))
                        .filter(|&b| {
                            self.byte_cell(addr + b as i128)
                                .is_some_and(|(v, i, at)| cell(v, i) >> at & 1 != 0)
                        })
                        .fold(0, |m, b| m | 1 << b),
                    Err(Fault::NoBlock(_)) => 0,
                    Err(_) => width_bytes(*ty),
                }
            }
            Expr::AddrOf { index, .. } => any(self.unknown_in(s, index), Ty::ULONG),
            Expr::Unary { op, arg, ty } => {
                let m = self.unknown_in(s, arg);
                match op {
                    UnOp::BitNot => m & width_bytes(*ty),
                    UnOp::Neg | UnOp::Not => any(m, *ty),
                }
            }
            Expr::Cast { arg, ty } => {
                let from = arg.ty();
                let m = self.unknown_in(s, arg) & width_bytes(from);
                let (nf, nt) = (from.bits.div_ceil(8), ty.bits.div_ceil(8));
                // A sign extension copies the top bit (of a top byte not known) upwards.
                let high = if nt > nf && from.signed && nf > 0 && m >> (nf - 1) & 1 != 0 {
                    width_bytes(*ty) & !width_bytes(from)
                } else {
                    0
                };
                if from.bits == 1 || ty.bits == 1 {
                    return any(m, *ty);
                }
                (m | high) & width_bytes(*ty)
            }
            Expr::Binary { op, lhs, rhs, ty } => {
                let (a, b) = (self.unknown_in(s, lhs), self.unknown_in(s, rhs));
                match (op, rhs.as_const()) {
                    (BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor, _) => (a | b) & width_bytes(*ty),
                    (BinOp::Shl | BinOp::Shr, Some(k)) if (0..64).contains(&k) && b == 0 => {
                        // Bit by bit: each byte's 8 bits, shifted, then back to bytes.
                        let bits = (0..8).fold(0u64, |w, j| {
                            if a >> j & 1 != 0 {
                                w | 0xff << (8 * j)
                            } else {
                                w
                            }
                        });
                        let width = ty.bits.min(64) as u32;
                        let top = width.checked_sub(1).map_or(0, |t| bits >> t & 1);
                        let shifted = match op {
                            BinOp::Shl => bits << k,
                            _ if ty.signed && top != 0 => {
                                (bits >> k) | (!0u64 << width.saturating_sub(k as u32))
                            }
                            _ => bits >> k,
                        };
                        (0..8).fold(0u8, |m, j| {
                            if shifted >> (8 * j) & 0xff != 0 {
                                m | 1 << j
                            } else {
                                m
                            }
                        }) & width_bytes(*ty)
                    }
                    _ => any(a | b, *ty),
                }
            }
            Expr::Ite {
                cond,
                then,
                els,
                ty,
            } => {
                if self.unknown_in(s, cond) != 0 {
                    return width_bytes(*ty);
                }
                (self.unknown_in(s, then) | self.unknown_in(s, els)) & width_bytes(*ty)
            }
        }
    }

    /// Stores `x` at `slot`, the place's [`Machine::slot`].
    fn store(
        &self,
        s: &mut State,
        slot: Result<(VarId, usize, Ty), Fault>,
        x: i128,
    ) -> Result<(VarId, usize, i128), Fault> {
        let (v, i, ty) = match slot {
            Err(Fault::Bytes { addr, width }) => {
                let (v, i) = self.write_bytes(s, addr, width, x)?;
                return Ok((v, i, x));
            }
            r => r?,
        };
        self.writable(v)?;
        let x = ty.wrap(x);
        self.wrote(s, v, i);
        let old = s.mem.cell(v.0 as usize, i) as i128;
        s.mem.set_cell(v.0 as usize, i, x as i64);
        self.touch(v, i, true, old);
        Ok((v, i, x))
    }

    /// [`Machine::execute`] of a transition whose guard the caller has found true and whose
    /// operations are all assignments (no input, no thread start, no atomic region), to an
    /// ordinary location: the same changes to `s`, nothing returned.
    pub fn execute_assignments(
        &self,
        s: &mut State,
        tid: ThreadId,
        tr: &Transition,
    ) -> Result<(), Fault> {
        for op in &tr.ops {
            let Op::Assign { place, value } = op else {
                unreachable!("only assignments (the caller checks)");
            };
            self.assign(s, place, value)?;
        }
        s.threads[tid.0 as usize] = Status::At(tr.dst);
        Ok(())
    }

    /// How a state ends an execution, if it does: error/halt/discard reached, deadlock or
    /// normal termination. `enabled` must be [`Machine::enabled`] of `s`.
    pub fn verdict(
        &self,
        s: &State,
        enabled: &[(ThreadId, TransId)],
        last: Option<(ThreadId, TransId)>,
    ) -> Option<Outcome> {
        if let Some((tid, trid)) = last {
            let t = self.prog.thread(tid);
            let tr = t.transition(trid);
            match t.locations[tr.dst.0 as usize].kind {
                LocKind::Error => {
                    let kind = match &tr.kind {
                        TransKind::Error(k) => k.clone(),
                        _ => ErrorKind::ReachError,
                    };
                    return Some(Outcome::Error {
                        thread: tid,
                        transition: trid,
                        kind,
                    });
                }
                LocKind::Halt => return Some(Outcome::Halted),
                LocKind::Discard => return Some(Outcome::Discarded),
                _ => {}
            }
        }
        if !enabled.is_empty() {
            return None;
        }
        let blocked: Vec<ThreadId> = self
            .prog
            .threads
            .iter()
            .filter(|t| match s.threads[t.id.0 as usize] {
                Status::At(l) => t.locations[l.0 as usize].kind != LocKind::Exit,
                Status::NotStarted => false,
            })
            .map(|t| t.id)
            .collect();
        Some(if blocked.is_empty() {
            Outcome::Terminated
        } else {
            Outcome::Deadlock { blocked }
        })
    }
}

/// Runs the program from its initial state until it ends or `max_steps` steps were taken.
pub fn run(prog: &Program, oracle: &mut dyn Oracle, max_steps: usize) -> (Execution, State) {
    let m = Machine::new(prog);
    let mut initial = Vec::new();
    let mut s = m.initial(oracle, &mut initial);
    let mut steps = Vec::new();
    let mut last = None;
    let outcome = loop {
        let en = m.enabled(&s);
        if let Some(o) = m.verdict(&s, &en, last) {
            break o;
        }
        if steps.len() >= max_steps {
            break Outcome::StepBound;
        }
        let (tid, trid) = match oracle.pick(steps.len(), &en) {
            Choice::Take(i) => en[i],
            Choice::End => break Outcome::ScheduleEnd,
            Choice::Invalid(t) => {
                break Outcome::ScheduleInvalid {
                    step: steps.len(),
                    thread: t,
                }
            }
        };
        match m.execute(&mut s, tid, trid, oracle) {
            Ok(st) => steps.push(st),
            Err(f) => {
                break Outcome::Undefined {
                    thread: tid,
                    transition: trid,
                    reason: f.to_string(),
                    memory: f.is_memory_error(),
                }
            }
        }
        last = Some((tid, trid));
    };
    (
        Execution {
            initial,
            steps,
            outcome,
        },
        s,
    )
}

/// A step of an execution replayed with what it read and wrote ([`Program::recorded`]).
struct Recorded {
    thread: ThreadId,
    transition: TransId,
    /// Elements of the memory.
    cells: usize,
    /// Elements read before being written.
    loads: Vec<u32>,
    /// Elements read, with those overwritten.
    reads: Vec<u32>,
    /// Elements written, with the values after the step.
    writes: Vec<(u32, i64)>,
    /// The step failed (undefined behaviour).
    failed: bool,
}

impl Program {
    /// Whether the bug `e` ends with needs the thread bound ([`Program::thread_bound`]): true
    /// when a creation refused for the bound ([`Transition::refusal`]) is on its
    /// path and the bug may depend on it. Otherwise the same steps are the start of an
    /// execution without the bound, in which those creations succeed and the threads they
    /// start have not run yet. That holds when the program never reads those creations'
    /// results ([`Refusal`]), nothing the bug depends on reads the ids they left (a value
    /// overwritten first does not count), and the bug is an error or undefined behaviour (a
    /// deadlock is none where the threads not started could move).
    pub fn error_needs_bound(&self, e: &Execution) -> bool {
        let refusal = |t: ThreadId, tr: TransId| self.thread(t).transition(tr).refusal;
        let refuses = |t: ThreadId, tr: TransId| refusal(t, tr).is_some();
        if !e.steps.iter().any(|st| refuses(st.thread, st.transition)) {
            return false;
        }
        // The result (a constant folded into what reads it) cannot be followed.
        if e.steps
            .iter()
            .any(|st| refusal(st.thread, st.transition) == Some(Refusal::ResultRead))
        {
            return true;
        }
        let last = match &e.outcome {
            Outcome::Error { .. } => None,
            // (Where what it read is not known, the bug may need the bound.)
            Outcome::Undefined { .. } => {
                let Some(step) = self.faulting_step(e) else {
                    return true;
                };
                Some(step)
            }
            _ => return true,
        };
        let steps = self.recorded(e, last);
        let mut tainted = vec![false; steps.first().map_or(0, |r| r.cells)];
        for r in &steps {
            if r.loads.iter().any(|&c| tainted[c as usize]) {
                return true;
            }
            let taint = refuses(r.thread, r.transition);
            for &(c, _) in &r.writes {
                tainted[c as usize] = taint;
            }
        }
        false
    }

    /// Whether a step of `e` other than a join depends on a thread id a creation wrote: a
    /// value that depends on how threads are numbered. Copies of an id (a load into a
    /// register, a store into an array) carry it on, as the interpreter's tracking of values
    /// not known does ([`Machine::start_tainting`]); a step depends on one where it decides
    /// something on it (a guard, an address, an operation not defined for every value).
    pub fn reads_thread_ids(&self, e: &Execution) -> bool {
        // The step that faults counts too: what it reads decides the fault.
        let last = match &e.outcome {
            Outcome::Undefined { .. } => {
                let Some(step) = self.faulting_step(e) else {
                    return true;
                };
                Some(step)
            }
            _ => None,
        };
        let m = Machine::new(self);
        m.set_record_writes(false);
        let mut replay = Replay::of(e);
        let mut s = m.initial(&mut replay, &mut Vec::new());
        let cells = s.mem.len();
        let mut ids = vec![0u64; unknown_words(cells)];
        let steps = e.steps.iter().map(|st| (st.thread, st.transition));
        for (thread, transition) in steps.chain(last) {
            let tr = self.thread(thread).transition(transition);
            // Inputs the step makes are known here (the replay's): only ids are tracked.
            let inputs: Vec<usize> = tr
                .ops
                .iter()
                .filter_map(|o| match o {
                    Op::Havoc { place, .. } => m.place(&s, place).ok(),
                    _ => None,
                })
                .map(|(v, i)| s.mem.flat(v.0 as usize, i))
                .collect();
            m.start_recording(cells);
            m.start_tainting(&ids);
            let done = m.execute(&mut s, thread, transition, &mut replay);
            let rec = m.stop_recording();
            if rec.read_tainted
                && tr.kind != TransKind::Sync(SyncKind::Join)
                && !self.reads_thread_records(tr)
            {
                return true;
            }
            ids.copy_from_slice(&rec.taint);
            // A join's result (0, or the error it returns at once: the id names no thread,
            // the caller, or a detached thread) is the same however threads are numbered.
            if tr.kind == TransKind::Sync(SyncKind::Join) {
                for op in &tr.ops {
                    if let Op::Assign { place, value } = op {
                        if one_of_constants(value) {
                            if let Ok((v, i)) = m.place(&s, place) {
                                set_unknown_bytes(&mut ids, s.mem.flat(v.0 as usize, i), 0);
                            }
                        }
                    }
                }
            }
            for f in inputs {
                set_unknown_bytes(&mut ids, f, 0);
            }
            drop(rec);
            // The id a creation writes (its assignment of the new thread's number; the step
            // also runs the assignments pending before it).
            if let Some(child) = tr.spawned() {
                for op in &tr.ops {
                    if let Op::Assign { place, value } = op {
                        if value.as_const() == Some(crate::ir::thread_id(child)) {
                            if let Ok((v, i)) = m.place(&s, place) {
                                set_unknown_bytes(&mut ids, s.mem.flat(v.0 as usize, i), ALL_BYTES);
                            }
                        }
                    }
                }
            }
            if done.is_err() {
                break;
            }
        }
        false
    }

    /// Whether transition `tr` only copies elements of the model's records of threads into
    /// registers (its ghost arrays with an element per thread, such as whether a thread is
    /// detached, which a join reads in a step of its own): an element picked by a thread's
    /// id is the same however threads are numbered, since renumbering them permutes their
    /// records alike.
    fn reads_thread_records(&self, tr: &crate::ir::Transition) -> bool {
        let record = |p: &Place| match p {
            Place::Var { var, .. } => {
                let v = self.var(*var);
                v.scope == crate::ir::VarScope::Ghost && v.len as usize == self.threads.len()
            }
            Place::Deref { .. } => false,
        };
        let register = |p: &Place| match p {
            Place::Var { var, index } => {
                index.is_none() && matches!(self.var(*var).scope, crate::ir::VarScope::Local(_))
            }
            Place::Deref { .. } => false,
        };
        tr.guard.as_const() == Some(1)
            && !tr.ops.is_empty()
            && tr.ops.iter().all(|o| match o {
                Op::Assign {
                    place,
                    value: Expr::Load { place: from, .. },
                } => register(place) && record(from),
                _ => false,
            })
    }

    /// The step at which execution `e` faulted (it ends in undefined behaviour), where it
    /// replays as it ran: one that reads no input (the execution does not keep the inputs of
    /// the step that faulted). `None` otherwise.
    fn faulting_step(&self, e: &Execution) -> Option<(ThreadId, TransId)> {
        let Outcome::Undefined {
            thread, transition, ..
        } = e.outcome
        else {
            return None;
        };
        let tr = self.thread(thread).transition(transition);
        let reads_input = tr.ops.iter().any(|o| matches!(o, Op::Havoc { .. }));
        (!reads_input).then_some((thread, transition))
    }

    /// The steps of `e`, then `last`, replayed with what each reads and writes (with the
    /// values written), up to the first that fails (included, `failed` set).
    fn recorded(&self, e: &Execution, last: Option<(ThreadId, TransId)>) -> Vec<Recorded> {
        let m = Machine::new(self);
        m.set_record_writes(false);
        let mut replay = Replay::of(e);
        let mut s = m.initial(&mut replay, &mut Vec::new());
        let cells = s.mem.len();
        let mut out = Vec::with_capacity(e.steps.len() + 1);
        let steps = e.steps.iter().map(|st| (st.thread, st.transition));
        for (thread, transition) in steps.chain(last) {
            m.start_recording(cells);
            let done = m.execute(&mut s, thread, transition, &mut replay);
            let rec = m.stop_recording();
            let writes = rec
                .writes
                .iter()
                .map(|&c| (c, s.mem.at(c as usize)))
                .collect();
            out.push(Recorded {
                thread,
                transition,
                cells,
                loads: rec.loads.clone(),
                reads: rec.reads.iter().map(|r| r.0).collect(),
                writes,
                failed: done.is_err(),
            });
            drop(rec);
            if done.is_err() {
                break;
            }
        }
        out
    }

    /// The steps of `e`, which ends at an error, that the error depends on, replayed: the
    /// error's step, and before it every step of a thread that has a step kept after it,
    /// every step that writes an element a kept step after it reads or overwrites, and the
    /// creation of every thread with a step kept (Mazurkiewicz's traces: the causal past of
    /// an event is a prefix of an execution equivalent to `e`). The steps left out (a join
    /// of a thread a bounded creation refused, say) are ones the error does not need. `None`
    /// unless `e` ends at an error and its causal past replays to the same error.
    pub fn causal_past(&self, e: &Execution) -> Option<Execution> {
        let Outcome::Error { thread, .. } = e.outcome else {
            return None;
        };
        // Per step: the elements it reads (with those it overwrites) and those it writes.
        let steps = self.recorded(e, None);
        if steps.len() != e.steps.len() || steps.iter().any(|r| r.failed) {
            return None;
        }
        let cells = steps.first().map_or(0, |r| r.cells);
        let touched: Vec<(Vec<u32>, Vec<u32>)> = steps
            .iter()
            .map(|r| {
                let reads = r.reads.iter().chain(&r.loads).copied().collect();
                (reads, r.writes.iter().map(|w| w.0).collect())
            })
            .collect();
        let mut keep = vec![false; e.steps.len()];
        let mut active = vec![false; self.threads.len()];
        let mut needed = vec![false; cells];
        for (i, st) in e.steps.iter().enumerate().rev() {
            let creates = |t: &crate::ir::Thread| {
                active[t.id.0 as usize] && t.created_by == Some((st.thread, st.transition))
            };
            let kept = i + 1 == e.steps.len()
                || active[st.thread.0 as usize]
                || touched[i].1.iter().any(|&c| needed[c as usize])
                || self.threads.iter().any(creates);
            if kept {
                keep[i] = true;
                active[st.thread.0 as usize] = true;
                for &c in &touched[i].0 {
                    needed[c as usize] = true;
                }
            }
        }
        let kept: Vec<&Step> = e
            .steps
            .iter()
            .zip(&keep)
            .filter(|x| *x.1)
            .map(|x| x.0)
            .collect();
        let mut replay = Replay {
            initial: e.initial.clone(),
            ..Replay::new(
                kept.iter()
                    .map(|st| (st.thread, Some(st.transition)))
                    .collect(),
                kept.iter()
                    .flat_map(|st| st.inputs.iter().copied())
                    .collect(),
            )
        };
        let (past, _) = run(self, &mut replay, kept.len() + 1);
        let same = matches!(past.outcome, Outcome::Error { thread: t, .. } if t == thread)
            && past.steps.len() == kept.len();
        same.then_some(past)
    }

    /// A readable trace: one line per step with thread, source position, source text and the
    /// values written, then the outcome.
    pub fn show_execution(&self, e: &Execution) -> String {
        self.show_execution_brief(e, usize::MAX)
    }

    /// [`Program::show_execution`] with at most `2 * keep` steps: a longer execution shows
    /// its first and its last `keep` steps, and between them how many steps it leaves out
    /// and the source positions where they run.
    pub fn show_execution_brief(&self, e: &Execution, keep: usize) -> String {
        let mut s = self.show_initial(&e.initial);
        let n = e.steps.len();
        let (head, tail) = if n > keep.saturating_mul(2) {
            (keep, n - keep)
        } else {
            (n, n)
        };
        for (k, st) in e.steps.iter().enumerate() {
            if k == head && head < tail {
                s.push_str(&self.show_elided(&e.steps[head..tail]));
            }
            if k < head || k >= tail {
                let line = self.show_step(k, st.thread, st.transition, &st.writes, &st.inputs, "");
                s.push_str(&line);
            }
        }
        s.push_str(&format!("outcome: {}\n", self.show_outcome(&e.outcome)));
        s
    }

    /// The line that names the uninitialised memory an execution starts with other than 0
    /// (none if all of it is 0; at most [`MAX_INITIAL_SHOWN`] cells). For a counterexample,
    /// the values its bug needs ([`crate::witness`] sets the others to 0), which no run has
    /// to have.
    fn show_initial(&self, initial: &[(VarId, i128, i128)]) -> String {
        let nonzero = initial.iter().filter(|(_, _, x)| *x != 0);
        let more = nonzero.clone().count().saturating_sub(MAX_INITIAL_SHOWN);
        let mut shown: Vec<String> = nonzero
            .take(MAX_INITIAL_SHOWN)
            .map(|&(v, i, x)| self.show_cell(v, i, x))
            .collect();
        if shown.is_empty() {
            return String::new();
        }
        if more > 0 {
            shown.push(format!("{more} more"));
        }
        format!(
            "uninitialised memory at the start (what is not named is 0): {}\n",
            shown.join(", ")
        )
    }

    /// An element of a variable with its value, as traces show it (`name[i]=x`, or `name=x`
    /// for a scalar).
    fn show_cell(&self, v: VarId, i: i128, x: i128) -> String {
        let var = self.var(v);
        if var.is_array {
            format!("{}[{i}]={x}", var.name)
        } else {
            format!("{}={x}", var.name)
        }
    }

    /// The line standing for `steps` left out of a trace.
    fn show_elided(&self, steps: &[Step]) -> String {
        let mut at: Vec<String> = Vec::new();
        for st in steps {
            let tr = self.thread(st.thread).transition(st.transition);
            if let Some(sp) = &tr.span {
                let pos = format!("{}:{}", sp.line, sp.col);
                if !at.contains(&pos) {
                    at.push(pos);
                }
            }
        }
        let more = at.len().saturating_sub(4);
        at.truncate(4);
        if more > 0 {
            at.push(format!("{more} more"));
        }
        format!(
            "   ... {} steps left out (at {}) ...\n",
            steps.len(),
            at.join(", ")
        )
    }

    /// One line of a trace: step number, thread, source position, source text, the values
    /// written and the inputs read, then `note`.
    pub fn show_step(
        &self,
        k: usize,
        thread: ThreadId,
        transition: TransId,
        writes: &[(VarId, i128, i128)],
        inputs: &[i128],
        note: &str,
    ) -> String {
        let t = self.thread(thread);
        let tr = t.transition(transition);
        let (pos, src) = match &tr.span {
            Some(sp) => (
                format!("{}:{}", sp.line, sp.col),
                self.source_line(sp).unwrap_or("").to_string(),
            ),
            None => (String::new(), String::new()),
        };
        let mut vals: Vec<String> = writes
            .iter()
            .filter(|(v, _, _)| !self.var(*v).name.contains("$t"))
            .map(|&(v, i, x)| self.show_cell(v, i, x))
            .collect();
        for x in inputs {
            vals.push(format!("input {x}"));
        }
        let vals = if vals.is_empty() {
            String::new()
        } else {
            format!("  [{}]", vals.join(", "))
        };
        format!(
            "{:>5}  {:<4}{:<14} {:>8}  {}{}{}\n",
            k,
            thread.to_string(),
            truncate(&t.name, 14),
            pos,
            src,
            vals,
            note
        )
    }

    /// Where and what the undefined behaviour execution `e` ends with is, in words after
    /// "undefined behaviour": `in T1: signed integer overflow at file:line:col (after n
    /// steps)`.
    pub fn show_undefined(&self, e: &Execution) -> String {
        let what = match &e.outcome {
            Outcome::Undefined {
                thread,
                transition,
                reason,
                ..
            } => self.undefined_in(*thread, *transition, reason),
            o => self.show_outcome(o),
        };
        format!("{what} (after {} steps)", e.steps.len())
    }

    /// ` at file:line:col` of transition `tr` of thread `t`, where it has a position.
    fn at_transition(&self, t: ThreadId, tr: TransId) -> String {
        self.thread(t)
            .transition(tr)
            .span
            .as_ref()
            .map(|s| format!(" at {}", self.position(s)))
            .unwrap_or_default()
    }

    /// `in T1: reason at file:line:col`.
    fn undefined_in(&self, t: ThreadId, tr: TransId, reason: &str) -> String {
        format!("in {t}: {reason}{}", self.at_transition(t, tr))
    }

    /// The outcome in words, with the source position for errors.
    pub fn show_outcome(&self, o: &Outcome) -> String {
        match o {
            Outcome::Error {
                thread,
                transition,
                kind,
            } => {
                let t = self.thread(*thread);
                let pos = self.at_transition(*thread, *transition);
                let what = match kind {
                    ErrorKind::AssertionFailed => "assertion failed",
                    ErrorKind::ReachError => "error reached",
                    ErrorKind::InvalidFree => "free of memory that is not allocated",
                    ErrorKind::InvalidCall => "call through a pointer to no function",
                    ErrorKind::ArrayBounds => "array index out of bounds",
                    ErrorKind::VlaLength => "variable-length array of length not positive",
                    ErrorKind::NullStream => "null stream (`FILE *`) given to the C library",
                    ErrorKind::ClosedStream => {
                        "stream (`FILE *`) used or closed again after `fclose` closed it"
                    }
                };
                format!("{what} in {} {}{pos}", thread, t.name)
            }
            Outcome::Deadlock { blocked } => {
                let names: Vec<String> = blocked
                    .iter()
                    .map(|t| format!("{} {}", t, self.thread(*t).name))
                    .collect();
                format!("deadlock: blocked {}", names.join(", "))
            }
            Outcome::Terminated => "terminated: every thread returned".into(),
            Outcome::Halted => "halted: the program ended (main returned, exit or abort)".into(),
            Outcome::Discarded => "discarded: an assumption on inputs failed".into(),
            Outcome::Undefined {
                thread,
                transition,
                reason,
                memory,
            } => {
                let what = if *memory {
                    "memory-safety violation"
                } else {
                    "undefined behaviour"
                };
                format!("{what} {}", self.undefined_in(*thread, *transition, reason))
            }
            Outcome::StepBound => "step bound reached".into(),
            Outcome::ScheduleEnd => "the given schedule ended".into(),
            Outcome::ScheduleInvalid { step, thread } => {
                format!("the given schedule is invalid at step {step}: {thread} cannot move")
            }
        }
    }
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        s.chars().take(n - 1).chain(std::iter::once('…')).collect()
    }
}

/// Whether `e` is a constant, or a choice (`c ? a : b`) between such.
fn one_of_constants(e: &Expr) -> bool {
    match e {
        Expr::Const { .. } => true,
        Expr::Ite { then, els, .. } => one_of_constants(then) && one_of_constants(els),
        _ => false,
    }
}
