//! Calls: functions defined in the module are inlined; the concurrency API, the SV-COMP
//! `__VERIFIER_*` functions and libc are modelled here, each by its POSIX or C semantics
//! (as `DESIGN.md`, "Program model", states them for the IR).
//!
//! * `pthread_mutex_lock` waits until the mutex is free and takes it (`m == 0 → m := me`);
//!   `trylock` takes it when free and returns `EBUSY` otherwise; `unlock` frees it.
//! * `pthread_cond_wait` releases the mutex and raises the thread's waiting flag, then waits
//!   until a signal clears it and takes the mutex again; `signal` clears one waiting flag
//!   (expanded by the finishing pass into one transition per thread that waits),
//!   `broadcast` all of them.
//! * `pthread_barrier_wait` counts arrivals; the last one starts a new generation and gets
//!   `PTHREAD_BARRIER_SERIAL_THREAD`; the others wait for the generation to change.
//! * `pthread_create` starts a new thread (one per call executed; a call in a loop is
//!   reported by the finishing pass); `pthread_join` waits until the thread has returned.
//! * `assert` failures, `reach_error` and `__VERIFIER_error` go to the error location;
//!   `abort` and `exit` end the program; `__VERIFIER_assume` is an assumption;
//!   `__VERIFIER_nondet_*` is an input; `__VERIFIER_atomic_*` functions and
//!   `__VERIFIER_atomic_begin/end` are atomic regions.
//! * Thread-specific data (`pthread_key_create`, `pthread_setspecific`, `pthread_getspecific`):
//!   each thread has its own values; at a thread's exit each key's destructor runs on a value
//!   that is not null, for up to four rounds (`PTHREAD_DESTRUCTOR_ITERATIONS`).
//! * Output functions (`printf`, `puts`, ...) read what they print ([`Lowerer::argument_reads`])
//!   and have no other effect the properties observe; neither have the attribute functions,
//!   nor ignoring a signal or restoring its default (`signal`).

use super::format::{Precision, Printed, ReadLength};
use super::lower::{bin, cast, not, truth, Lowerer, Val, MAX_COND_THREADS, R};
use crate::ir::*;
use llvm_ir::instruction::Call;
use llvm_ir::types::Type;
use llvm_ir::Instruction;
use llvm_ir::Operand;

/// Functions whose calls have no effect that the program model observes, and whose result
/// (where they have one) is the one the model gives: glibc returns 0 for these where the
/// program's use is defined (`sleep` and `usleep` are interrupted only by signals, which
/// the model does not deliver).
const NO_EFFECT: &[&str] = &[
    "perror",
    "warn",
    "warnx",
    "pthread_cond_destroy",
    "pthread_attr_destroy",
    "pthread_mutexattr_destroy",
    "pthread_condattr_destroy",
    // Attributes of one process's rwlocks and barriers; a thread's guard size (the model has
    // no stack limit).
    "pthread_rwlockattr_init",
    "pthread_rwlockattr_destroy",
    "pthread_barrierattr_init",
    "pthread_barrierattr_destroy",
    "pthread_attr_setguardsize",
    "usleep",
    "sleep",
    // pthread_cleanup_push/pop: threads are never cancelled here, so the handlers never run.
    "__pthread_register_cancel",
    "__pthread_unregister_cancel",
    // setjmp returns 0 when called (no longjmp comes back here: nothing is cancelled).
    "__sigsetjmp",
    "_setjmp",
    "setjmp",
];

/// Functions of the C library that may call a function of the program whose address is in
/// the memory they are given (a `struct sigevent`'s `SIGEV_THREAD` function, a
/// `cookie_io_functions_t`): unsupported, not havocked. (A function pointer given as an
/// argument is refused for every function the model does not know, `sigaction`'s handler is
/// a limit of the model.)
const CALLS_BACK: &[&str] = &[
    "timer_create",
    "mq_notify",
    "aio_read",
    "aio_write",
    "aio_fsync",
    "aio_read64",
    "aio_write64",
    "aio_fsync64",
    "lio_listio",
    "lio_listio64",
    "getaddrinfo_a",
    "sigvec",
    "fopencookie",
];

/// The signals whose default action is to be ignored: `SIGCHLD`, `SIGCONT`, `SIGURG`,
/// `SIGWINCH` ([`Lowerer::kill_thread`]).
const IGNORED_BY_DEFAULT: [i128; 4] = [17, 18, 23, 28];

/// Where the model keeps a `pthread_attr_t`'s flags (glibc's place: bit 0 detached).
const ATTR_FLAGS: u64 = 8;

/// Functions with no effect the model observes whose result it does not compute: the
/// number of bytes written or a negative value (`EOF`) on an error for the output
/// functions, `0` or `EBUSY` for a destruction, `0` or `EINVAL` for an attribute setting.
/// Where the program reads the result, it is an arbitrary value.
const UNCOMPUTED_RESULT: &[&str] = &[
    "printf",
    "fprintf",
    "puts",
    "putchar",
    "fputs",
    "fputc",
    "putc",
    "fwrite",
    "fflush",
    "vprintf",
    "vfprintf",
    "pthread_mutex_destroy",
    "pthread_barrier_destroy",
];

/// The argument of function `name` of the C library that is a stream (`FILE *`) it uses,
/// and whether `name` is an output function ([`super::format::stream_argument`]); the
/// others are environment.c's and models.c's (`fflush(NULL)` flushes every stream, so its
/// stream may be null).
fn stream_of(name: &str) -> Option<(u32, bool)> {
    if let Some(k) = super::format::stream_argument(name) {
        return Some((k, true));
    }
    let k = match name {
        "fclose" | "fileno" | "fileno_unlocked" | "fflush" | "setvbuf" => 0,
        "fgets" | "getline" => 2,
        "fread" | "getdelim" => 3,
        _ => return None,
    };
    Some((k, false))
}

impl<'m> Lowerer<'m> {
    /// Lowers a call instruction.
    pub(super) fn call(&mut self, c: &'m Call) -> R<()> {
        let callee = match &c.function {
            either::Either::Left(_) => return self.unsupported("inline assembly"),
            either::Either::Right(op) => self.val(op)?,
        };
        let name = match callee {
            Val::F(name) => name,
            v => return self.indirect_call(c, v),
        };
        if name.starts_with(super::asm::HINT_PREFIX) {
            // A compiler barrier, a fence or a spin-wait hint: nothing under the model.
            return Ok(());
        }
        let args: Vec<&'m Operand> = c.arguments.iter().map(|(o, _)| o).collect();
        let opens = matches!(name.as_str(), "fopen" | "fdopen")
            && self.library_function(&name)
            && !self.in_model();
        if opens {
            self.stream_block = self.opened_stream(c)?;
        }
        let result = self.model(&name, &args, c)?;
        if opens {
            self.stream_block = None;
        }
        let refusal = self.last_refusal.take();
        if let (Some(dest), Some(v)) = (&c.dest, result) {
            let t = match &v {
                Val::E(e) => e.ty(),
                _ => Ty::ULONG,
            };
            self.bind(dest, v, t);
            if let Some(r) = refusal {
                self.note_refusal(dest, r);
            }
        }
        Ok(())
    }

    /// A call through a function pointer: one branch per function of the module whose
    /// address is taken and whose parameters match, each inlining its function, or lowering
    /// a call of the library's function as a direct call of it is; a pointer to none of them
    /// is undefined (an invalid address).
    fn indirect_call(&mut self, c: &'m Call, target: Val) -> R<()> {
        let p = self.addr_expr(&target);
        let nargs = c.arguments.len();
        // Each function whose address is taken: its name, result and parameter types,
        // whether it is variadic, and its definition (none for the library's).
        type Candidate<'m> = (
            &'m str,
            &'m llvm_ir::TypeRef,
            Vec<&'m llvm_ir::TypeRef>,
            bool,
            Option<&'m llvm_ir::Function>,
        );
        let defined = self.m.functions.iter().map(|f| {
            let params = f.parameters.iter().map(|p| &p.ty).collect();
            (
                f.name.as_str(),
                &f.return_type,
                params,
                f.is_var_arg,
                Some(f),
            )
        });
        let declared = self.m.func_declarations.iter().map(|d| {
            let params = d.parameters.iter().map(|p| &p.ty).collect();
            (d.name.as_str(), &d.return_type, params, d.is_var_arg, None)
        });
        let taken: Vec<Candidate<'m>> = defined
            .chain(declared)
            .filter(|(name, ..)| self.fn_objects.contains_key(*name))
            .collect();
        // The functions of the call's type; where none has it (a call through a pointer of
        // another, compatible-looking type, as unprototyped C has), those with as many
        // parameters. A call of a function of another type is undefined.
        let exact: Vec<&Candidate<'m>> = taken
            .iter()
            .filter(|(_, ret, params, var_arg, _)| {
                let Type::FuncType {
                    result_type,
                    param_types,
                    is_var_arg,
                } = c.function_ty.as_ref()
                else {
                    return false;
                };
                result_type == *ret
                    && is_var_arg == var_arg
                    && param_types.len() == params.len()
                    && param_types.iter().zip(params).all(|(t, p)| t == *p)
            })
            .collect();
        let candidates: Vec<&Candidate<'m>> = if exact.is_empty() {
            taken
                .iter()
                .filter(|(_, _, params, var_arg, _)| {
                    params.len() == nargs || (*var_arg && params.len() <= nargs)
                })
                .collect()
        } else {
            exact
        };
        let ret = match (&c.dest, self.m.types.type_of(c).as_ref()) {
            (Some(d), t) => {
                let ty = self.reg_ty(t)?;
                Some((self.temp(&super::lower::name_str(d), ty), ty))
            }
            _ => None,
        };
        self.flush()?;
        let from = self.cur;
        let join = self.new_loc(LocKind::Normal);
        let mut none = Expr::tt();
        for &(name, _, _, _, def) in candidates {
            let addr = Expr::AddrOf {
                var: self.fn_objects[name],
                index: Box::new(Expr::constant(0, Ty::LONG)),
            };
            let is = bin(BinOp::Eq, p.clone(), addr.clone(), Ty::INT);
            none = bin(
                BinOp::And,
                none,
                bin(BinOp::Ne, p.clone(), addr, Ty::INT),
                Ty::INT,
            );
            let at = self.new_loc(LocKind::Normal);
            self.edge(from, at, is, vec![], TransKind::Branch)?;
            self.cur = at;
            let span = self.span;
            let args = c.arguments.iter().map(|(o, _)| o).collect::<Vec<_>>();
            // (A formatting function of the library is lowered as a direct call of it is,
            // and so is a function the module only declares.)
            let r = match (self.formatting(name), def) {
                (Some(name), _) => self.format(name, &args, c)?,
                (None, Some(f)) => self.inline_call(f, &args, c.dest.as_ref())?,
                (None, None) if name == "pthread_create" => {
                    return self.unsupported("`pthread_create` called through a pointer");
                }
                (None, None) => self.model(name, &args, c)?,
            };
            self.span = span;
            let mut ops = Vec::new();
            if let (Some((v, ty)), Some(r)) = (ret, r) {
                ops.push(Op::Assign {
                    place: Place::scalar(v),
                    value: cast(self.addr_expr(&r), ty),
                });
            }
            self.flush()?;
            self.edge(self.cur, join, Expr::tt(), ops, TransKind::Stmt)?;
        }
        // Another address (a function of another type, not a function) is undefined
        // behaviour: an error of the call itself, not an access.
        let err = self.special[1];
        self.edge(
            from,
            err,
            none,
            vec![],
            TransKind::Error(ErrorKind::InvalidCall),
        )?;
        self.cur = join;
        if let (Some(d), Some((v, ty))) = (&c.dest, ret) {
            self.bind(d, Val::E(Expr::var(v, ty)), ty);
        }
        Ok(())
    }

    /// A function defined outside the program and not modelled: it may write any value to
    /// the objects its arguments point to and to `errno` (havocked), and returns an
    /// arbitrary integer or floating point value (`sqrt`, `pow`); the
    /// program records a warning that names it. An argument pointing to memory synth cannot
    /// name while lowering, a function pointer argument or a pointer result is unsupported,
    /// and so are the functions of [`CALLS_BACK`].
    fn external(&mut self, name: &str, args: &[&'m Operand], c: &'m Call) -> R<Option<Val>> {
        if CALLS_BACK.contains(&name) {
            return self.unsupported(format!(
                "`{name}`, which may call a function of the program the memory it is given names"
            ));
        }
        let mut ops = Vec::new();
        for a in args {
            match self.val(a)? {
                Val::E(e) if e.as_const().is_some() => {}
                Val::E(e) if e.ty() != Ty::ULONG => {}
                Val::P { obj, .. } => {
                    if self.const_objects.contains(&obj) {
                        continue;
                    }
                    let Some(cells) = self.objects.get(&obj) else {
                        return self.unsupported(format!("call to undefined function `{name}`"));
                    };
                    let n: u64 = cells.leaves.iter().map(|(l, _)| l.len).sum();
                    if n > 256 {
                        return self.unsupported(format!(
                            "call to undefined function `{name}` with a pointer to a large object"
                        ));
                    }
                    for (leaf, var) in cells.leaves.clone() {
                        let ty = self.vars[var.0 as usize].elem.ty();
                        if self.vars[var.0 as usize].elem.is_sync() {
                            continue;
                        }
                        for k in 0..leaf.len {
                            let scalar = leaf.len == 1 && !self.vars[var.0 as usize].is_array;
                            ops.push(Op::Havoc {
                                place: Place::Var {
                                    var,
                                    index: (!scalar)
                                        .then(|| Box::new(Expr::constant(k as i128, Ty::LONG))),
                                },
                                ty,
                            });
                        }
                    }
                }
                _ => {
                    return self.unsupported(format!(
                        "call to undefined function `{name}` with a pointer synth cannot follow"
                    ))
                }
            }
        }
        let ret = match c.dest.as_ref().map(|_| self.m.types.type_of(c)) {
            Some(t) => match t.as_ref() {
                Type::IntegerType { .. } | Type::FPType(_) if !matches!(t.as_ref(), Type::IntegerType { bits } if *bits > 64) =>
                {
                    // (A floating point result is an arbitrary value of its width, as the
                    // model's floating point arithmetic gives.)
                    let ty = self.reg_ty(&t)?;
                    let r = self.temp(name, ty);
                    ops.push(Op::Havoc {
                        place: Place::scalar(r),
                        ty,
                    });
                    Some(Val::E(Expr::var(r, ty)))
                }
                _ => {
                    return self
                        .unsupported(format!("call to undefined function `{name}` returning {t}"))
                }
            },
            None => None,
        };
        // It may set errno.
        ops.push(Op::Havoc {
            place: self.errno_place()?,
            ty: Ty::INT,
        });
        let msg = format!(
            "external function `{name}` modelled as writing arbitrary values to what its \
             arguments point to and to errno, and returning an arbitrary value"
        );
        self.warn_once(msg);
        self.access_step(ops, TransKind::Stmt)?;
        Ok(ret)
    }

    fn ret0(&self) -> Option<Val> {
        Some(Val::E(Expr::int(0)))
    }

    /// Whether the program reads the result of call `c`.
    fn result_read(&self, c: &Call) -> bool {
        let frame = self.frames.last().expect("frame");
        c.dest.as_ref().is_some_and(|d| frame.used.contains(d))
    }

    /// The result of a call whose value the model does not compute: an arbitrary value of
    /// the call's integer type where the program reads it ([`UNCOMPUTED_RESULT`]).
    fn arbitrary_result(&mut self, c: &'m Call, name: &str) -> R<Option<Val>> {
        if !self.result_read(c) {
            return Ok(self.ret0());
        }
        let ty = match self.m.types.type_of(c).as_ref() {
            Type::IntegerType { bits } if *bits <= 64 => super::layout::int_ty(*bits),
            t => return self.unsupported(format!("result of `{name}` of type {t}")),
        };
        Ok(Some(Val::E(self.made_up(name, ty)?)))
    }

    /// What library function `name` reads through its arguments `args` before it does
    /// anything else: the strings an output function's format prints with `%s` (up to a
    /// precision), the format itself where it is not a constant, and the arguments of
    /// [`super::format::argument_reads`] (the strings of `puts`, `perror`, paths, names, the
    /// bytes of `fwrite` and `write`). The model reads them a byte at a time
    /// ([`Lowerer::read_loop`]), so that one freed, unterminated or written by another thread
    /// meanwhile is seen. A string constant the code gives the call (an operand, or a choice
    /// between constants: [`Lowerer::constant_string_operand`]) is read by no one else and
    /// always there: not read. A function the program defines reads as its code does.
    fn argument_reads(&mut self, name: &str, args: &[&'m Operand]) -> R<()> {
        // (The tables first: every call comes here, and the module's functions are a list.)
        let reads = super::format::format_argument(name).is_some()
            || !super::format::argument_reads(name).is_empty();
        if !reads || !self.library_function(name) {
            return Ok(());
        }
        let Some(format_at) = super::format::format_argument(name).map(|f| f as usize) else {
            for &(k, length) in super::format::argument_reads(name) {
                let k = k as usize;
                match length {
                    ReadLength::Bytes(a, b) if args.len() > k => {
                        let mut count = |j: u32| -> R<Expr> {
                            let e = match args.get(j as usize) {
                                Some(x) => self.expr(x)?,
                                None => Expr::constant(0, Ty::ULONG),
                            };
                            Ok(cast(e, Ty::ULONG))
                        };
                        let mut n = count(a)?;
                        if let Some(b) = b {
                            n = bin(BinOp::Mul, n, count(b)?, Ty::ULONG);
                        }
                        let p = self.val(args[k])?;
                        self.read_loop(p, n, false, false, k as u32)?;
                    }
                    ReadLength::StringOrNull => self.read_string(args, k, None, true)?,
                    _ => self.read_string(args, k, None, false)?,
                }
            }
            return Ok(());
        };
        let Some(&format) = args.get(format_at) else {
            return Ok(());
        };
        let rest = &args[format_at + 1..];
        let fmt = self.val(format)?;
        // (A format that is not a constant converts arguments no one knows of: `printf(buf)`
        // with a `%s` in `buf` reads an argument the call was not given.)
        let Some(text) = self.constant_string(&fmt) else {
            return self.unsupported(format!(
                "`{name}` with a format that is not a string constant (what it reads through \
                 its arguments is not known)"
            ));
        };
        let printed = match super::format::printed(&text) {
            Ok(p) => p,
            Err(c) => return self.unsupported(format!("`{name}` with the conversion `%{c}`")),
        };
        let strings = printed.iter().any(|p| matches!(p, Printed::String(_)));
        if name.starts_with('v') {
            let Some(&ap) = args.get(format_at + 1) else {
                return Ok(());
            };
            // (The list's `overflow_arg_area`.)
            let ap = self.val(ap)?;
            let area = self.offset_by(&ap, 8);
            if strings {
                self.va_list_strings(&printed, &area)?;
            }
            return self.va_list_used(&area);
        }
        if rest.len() < printed.len() && !name.starts_with('v') {
            return self.unsupported(format!(
                "`{name}` with fewer arguments than its format converts"
            ));
        }
        for (k, p) in printed.iter().enumerate() {
            let Printed::String(precision) = p else {
                continue;
            };
            let is_pointer =
                |a: &Operand| matches!(self.m.types.type_of(a).as_ref(), Type::PointerType { .. });
            if !rest.get(k).is_some_and(|a| is_pointer(a)) {
                return self.unsupported(format!(
                    "`{name}` printing with `%s` an argument that is not a pointer"
                ));
            }
            let max = match precision {
                Precision::None => None,
                Precision::Fixed(n) => Some(Expr::constant(i128::from(*n), Ty::LONG)),
                // (The `*` is the argument before; an `int`.)
                Precision::Argument => match k.checked_sub(1).and_then(|j| rest.get(j)) {
                    Some(a) => Some(cast(cast(self.expr(a)?, Ty::INT), Ty::LONG)),
                    None => None,
                },
            };
            self.read_string(args, format_at + 1 + k, max, false)?;
        }
        Ok(())
    }

    /// The strings that a formatting function's conversions `printed` read through its
    /// `va_list` (`vsnprintf(buf, n, fmt, ap)` in a variadic function of the program), whose
    /// `overflow_arg_area` is at `area_at`: every variable argument lies in memory from there
    /// on, 8 bytes
    /// each ([`Lowerer::va_start`] leaves no register; a wider argument is refused at the
    /// variadic call, [`Lowerer::variable_arguments`]), from where the function's own
    /// `va_arg`s left it. Each string's read carries [`crate::ir::VA_LIST_ARG`] and its
    /// conversion's number in its codes.
    fn va_list_strings(&mut self, printed: &[Printed], area_at: &Val) -> R<()> {
        let area = Val::E(self.loaded(area_at, 8, Ty::ULONG, "va.area")?);
        for (k, p) in printed.iter().enumerate() {
            let Printed::String(precision) = p else {
                continue;
            };
            let slot = self.offset_by(&area, 8 * k as u64);
            let string = self.loaded(&slot, 8, Ty::ULONG, "va.string")?;
            let max = match precision {
                Precision::None => None,
                Precision::Fixed(n) => Some(Expr::constant(i128::from(*n), Ty::LONG)),
                // (The `*` is the slot before: an `int`, in its low bytes.)
                Precision::Argument => {
                    let before = self.offset_by(&area, 8 * (k as u64 - 1));
                    let m = self.loaded(&before, 4, Ty::INT, "va.precision")?;
                    Some(cast(m, Ty::LONG))
                }
            };
            let arg = crate::ir::VA_LIST_ARG + k as u32;
            self.read_loop(Val::E(string), string_bound(max), true, false, arg)?;
        }
        Ok(())
    }

    /// A `va_list` after a function took its arguments (`vfprintf`): its value is
    /// indeterminate (C11 7.16), so its `overflow_arg_area` (at `area_at`) becomes null, and
    /// a later `va_arg` or formatting function reading it without `va_start` or `va_copy`
    /// again dereferences null (a bug), where glibc reads past the arguments.
    fn va_list_used(&mut self, area_at: &Val) -> R<()> {
        let place = self.place(area_at, 8, Ty::ULONG)?;
        self.access_step(
            vec![Op::Assign {
                place,
                value: Expr::constant(0, Ty::ULONG),
            }],
            TransKind::Stmt,
        )?;
        Ok(())
    }

    /// The value of `w` bytes of type `ty` that `ptr` points to, read in a step of its own
    /// into a register named `name`.
    fn loaded(&mut self, ptr: &Val, w: u64, ty: Ty, name: &str) -> R<Expr> {
        let place = self.place(ptr, w, ty)?;
        let r = self.temp(name, ty);
        self.access_step(
            vec![Op::Assign {
                place: Place::scalar(r),
                value: Expr::Load { place, ty },
            }],
            TransKind::Stmt,
        )?;
        Ok(Expr::var(r, ty))
    }

    /// The program fails here with `kind` (`reach_error()`, a failed `assert`, a `free` of
    /// no block).
    pub(super) fn error_here(&mut self, kind: ErrorKind) -> R<Option<Val>> {
        self.flush()?;
        let err = self.special[1];
        self.edge(self.cur, err, Expr::tt(), vec![], TransKind::Error(kind))?;
        self.cur = self.new_loc(LocKind::Normal);
        Ok(None)
    }

    /// The program ends here (`exit`, `abort`).
    fn halt(&mut self) -> R<Option<Val>> {
        self.flush()?;
        let halt = self.special[2];
        self.edge(self.cur, halt, Expr::tt(), vec![], TransKind::Halt)?;
        self.cur = self.new_loc(LocKind::Normal);
        Ok(None)
    }

    /// The stream (`FILE *`) of a function of the C library the program calls
    /// ([`stream_of`]): a null one given to an output function is an error of the call
    /// (glibc dereferences it; environment.c's functions check theirs in C), and so is one
    /// `fclose` has closed, at every such call ([`Lowerer::stream_open`]). The stream's
    /// contents are the library's, so nothing else of it is read. (A call inside a model is
    /// the model's business: its caller's call was checked.)
    fn stream_given(&mut self, name: &str, args: &[&'m Operand]) -> R<()> {
        let Some((k, output)) = stream_of(name) else {
            return Ok(());
        };
        let Some(&stream) = args.get(k as usize) else {
            return Ok(());
        };
        if !self.library_function(name) || self.in_model() {
            return Ok(());
        }
        let f = self.val(stream)?;
        if output && !matches!(f, Val::P { .. }) {
            self.null_stream_check(&f)?;
        }
        self.stream_open(&f, name == "fclose")
    }

    /// An error where stream `f` (not an object's address) is null.
    fn null_stream_check(&mut self, f: &Val) -> R<()> {
        let null = bin(
            BinOp::Eq,
            self.addr_expr(f),
            Expr::constant(0, Ty::ULONG),
            Ty::INT,
        );
        if null.as_const() == Some(0) {
            return Ok(());
        }
        self.flush()?;
        let from = self.cur;
        let next = self.new_loc(LocKind::Normal);
        let err = self.special[1];
        let kind = TransKind::Error(ErrorKind::NullStream);
        self.edge(from, err, null.clone(), vec![], kind)?;
        self.edge(from, next, not(null), vec![], TransKind::Stmt)?;
        self.cur = next;
        Ok(())
    }

    /// Whether operand `o` of the function being lowered is a string constant in its code,
    /// the same in every copy of the function: a constant, or a `select` or phi each of
    /// whose values is one (`rc == 0 ? "done" : "failed"`).
    fn constant_string_operand(&self, o: &Operand) -> bool {
        let constant = |o: &Operand| match o {
            Operand::ConstantOperand(c) => {
                (self.const_val(c).ok()).is_some_and(|v| self.constant_string(&v).is_some())
            }
            _ => false,
        };
        let Operand::LocalOperand { name, .. } = o else {
            return constant(o);
        };
        let Some(frame) = self.frames.last() else {
            return false;
        };
        let def = (frame.func.basic_blocks.iter())
            .flat_map(|b| &b.instrs)
            .find(|i| i.try_get_result() == Some(name));
        match def {
            Some(Instruction::Select(s)) => constant(&s.true_value) && constant(&s.false_value),
            Some(Instruction::Phi(p)) => p.incoming_values.iter().all(|(v, _)| constant(v)),
            _ => false,
        }
    }

    /// An output function's read of the string its argument `k` (of `args`) points to, up
    /// to `max` bytes ([`Lowerer::argument_reads`]); nothing where the call's operand is a
    /// string constant or missing.
    fn read_string(
        &mut self,
        args: &[&'m Operand],
        k: usize,
        max: Option<Expr>,
        null_ok: bool,
    ) -> R<()> {
        let Some(arg) = args.get(k) else {
            return Ok(());
        };
        // (A string constant in the code itself: no read of it can fail or meet another
        // thread's write. Only there: `synth build` instruments the call once for every copy
        // of it, so a copy whose argument is a constant only through its inlined caller reads
        // as the others do.)
        if self.constant_string_operand(arg) {
            return Ok(());
        }
        let s = self.val(arg)?;
        self.read_loop(s, string_bound(max), true, null_ok, k as u32)
    }

    /// A text of the C library the model does not know (`strerror`'s message, `setlocale`'s
    /// locale name, which depend on the library and the environment): where the program
    /// reads the result, a string of up to `TEXT - 1` arbitrary bytes, made anew at every
    /// call, in an object of the call's own; `setlocale` may also fail (null).
    fn unknown_text(&mut self, c: &'m Call, may_fail: bool) -> R<Option<Val>> {
        const TEXT: usize = 64;
        if !self.result_read(c) {
            return Ok(None);
        }
        let ty = Type::ArrayType {
            element_type: self.m.types.i8(),
            num_elements: TEXT,
        };
        let name = format!("{}::text@{}", self.tid, self.here());
        let obj = self.new_object(&name, &ty, VarScope::Global, Init::Zero)?;
        let var = self.objects[&obj].leaves[0].1;
        let mut ops: Vec<Op> = (0..TEXT - 1)
            .map(|k| Op::Havoc {
                place: Place::Var {
                    var,
                    index: Some(Box::new(Expr::constant(k as i128, Ty::LONG))),
                },
                ty: Ty::CHAR,
            })
            .collect();
        let text = Val::P {
            obj,
            off: 0,
            dyn_: Vec::new(),
        };
        let result = if may_fail {
            let fails = self.temp("text.fails", Ty::BOOL);
            ops.push(Op::Havoc {
                place: Place::scalar(fails),
                ty: Ty::BOOL,
            });
            Val::E(super::lower::ite(
                Expr::var(fails, Ty::BOOL),
                Expr::constant(0, Ty::ULONG),
                self.addr_expr(&text),
                Ty::ULONG,
            ))
        } else {
            text
        };
        self.step(Expr::tt(), ops, TransKind::Stmt)?;
        Ok(Some(result))
    }

    /// `signal(sig, SIG_DFL)` or `signal(sig, SIG_IGN)`: the program's threads are all the
    /// model runs, so a disposition changes nothing it observes; the previous disposition it
    /// returns is either of the two (the one the process started with). A signal number
    /// Linux or glibc does not let a program change (outside 1 to 64, `SIGKILL`, `SIGSTOP`,
    /// the two NPTL keeps for itself, 32 and 33) gives `SIG_ERR` and `EINVAL`. A handler function would run asynchronously, which the model
    /// does not represent: refused.
    fn signal(&mut self, args: &[&'m Operand]) -> R<Option<Val>> {
        match self.val(args[1])? {
            Val::E(e) if matches!(e.as_const(), Some(0 | 1)) => {}
            _ => return self.unsupported("a signal handler (signals are not modelled)"),
        }
        let sig = cast(self.expr(args[0])?, Ty::INT);
        let is = |k: i128| bin(BinOp::Eq, sig.clone(), Expr::int(k), Ty::INT);
        let invalid = [
            bin(BinOp::Lt, sig.clone(), Expr::int(1), Ty::INT),
            bin(BinOp::Gt, sig.clone(), Expr::int(64), Ty::INT),
            is(9),
            is(19),
            is(32),
            is(33),
        ]
        .into_iter()
        .reduce(|a, b| bin(BinOp::Or, a, b, Ty::INT))
        .expect("conditions");
        let r = self.temp("signal.previous", Ty::ULONG);
        let errno = self.errno_place()?;
        let previous = bin(
            BinOp::BitAnd,
            Expr::var(r, Ty::ULONG),
            Expr::constant(1, Ty::ULONG),
            Ty::ULONG,
        );
        let err = Expr::constant(i128::from(u64::MAX), Ty::ULONG);
        self.step(
            Expr::tt(),
            vec![
                Op::Havoc {
                    place: Place::scalar(r),
                    ty: Ty::ULONG,
                },
                Op::Assign {
                    place: errno.clone(),
                    value: super::lower::ite(
                        invalid.clone(),
                        Expr::int(22),
                        Expr::Load {
                            place: errno,
                            ty: Ty::INT,
                        },
                        Ty::INT,
                    ),
                },
                Op::Assign {
                    place: Place::scalar(r),
                    value: super::lower::ite(invalid, err, previous, Ty::ULONG),
                },
            ],
            TransKind::Stmt,
        )?;
        Ok(Some(Val::E(Expr::var(r, Ty::ULONG))))
    }

    /// `pthread_kill(t, sig)` as glibc (2.34 and later) answers it: `EINVAL` (22) for one of
    /// the two signals NPTL keeps for itself (32, 33); for a signal outside 0 to 64, `EINVAL`
    /// (the kernel refuses it), or 0 where the thread has ended (glibc then sends nothing):
    /// whether another thread has ended, the model chooses. The id a
    /// creation refused for the thread bound left gets `EINVAL` for such a signal and `ESRCH`
    /// (3) otherwise, as the runtime's wrapper answers. Signal 0 sends nothing. A signal
    /// whose default action is to be ignored (`SIGCHLD`, `SIGCONT`, `SIGURG`, `SIGWINCH`)
    /// changes nothing. Any other ends the process (its default action: termination, or a
    /// stop that may never be continued) or changes nothing (its disposition may be
    /// `SIG_IGN`; a handler is refused where it is installed, [`Lowerer::signal`],
    /// `sigaction`): the model chooses either. The end comes when the signal is delivered,
    /// after the call returns, so the runs that go on for a while and then end are prefixes
    /// of runs that go on, which the model has.
    fn kill_thread(&mut self, args: &[&'m Operand]) -> R<Option<Val>> {
        let t = cast(self.expr(args[0])?, Ty::LONG);
        let sig = cast(self.expr(args[1])?, Ty::INT);
        let is = |k: i128| bin(BinOp::Eq, sig.clone(), Expr::int(k), Ty::INT);
        let any = |cs: Vec<Expr>| {
            cs.into_iter()
                .reduce(|a, b| bin(BinOp::Or, a, b, Ty::INT))
                .expect("conditions")
        };
        let kept = any(vec![is(32), is(33)]);
        let out_of_range = any(vec![
            bin(BinOp::Lt, sig.clone(), Expr::int(0), Ty::INT),
            bin(BinOp::Gt, sig.clone(), Expr::int(64), Ty::INT),
        ]);
        let itself = bin(
            BinOp::Eq,
            t.clone(),
            Expr::constant(crate::ir::thread_id(self.tid), Ty::LONG),
            Ty::INT,
        );
        let none = crate::ir::is_no_thread(t);
        let r = self.temp("kill", Ty::INT);
        let mut ops = Vec::new();
        // For a signal outside 0 to 64: whether the thread (another) has ended.
        let refused = if sig.as_const().is_some_and(|k| (0..=64).contains(&k)) {
            Expr::int(22)
        } else {
            let ended = self.temp("kill.ended", Ty::BOOL);
            ops.push(Op::Havoc {
                place: Place::scalar(ended),
                ty: Ty::BOOL,
            });
            let ended = super::lower::and(not(itself), truth(Expr::var(ended, Ty::BOOL)));
            super::lower::ite(ended, Expr::int(0), Expr::int(22), Ty::INT)
        };
        let ite = |c: Expr, a: Expr, b: Expr| super::lower::ite(c, a, b, Ty::INT);
        let result = ite(
            kept.clone(),
            Expr::int(22),
            ite(
                none.clone(),
                ite(out_of_range.clone(), Expr::int(22), Expr::int(3)),
                ite(out_of_range.clone(), refused, Expr::int(0)),
            ),
        );
        ops.push(Op::Assign {
            place: Place::scalar(r),
            value: result,
        });
        let invalid = any(vec![kept, out_of_range]);
        let never_ends = sig.as_const().is_some_and(|k| {
            !(1..=64).contains(&k) || IGNORED_BY_DEFAULT.contains(&k) || matches!(k, 32 | 33)
        });
        if never_ends {
            self.step(Expr::tt(), ops, TransKind::Stmt)?;
            return Ok(Some(Val::E(Expr::var(r, Ty::INT))));
        }
        let mut harmless = vec![invalid, none, is(0)];
        harmless.extend(IGNORED_BY_DEFAULT.iter().map(|&k| is(k)));
        let harmless = any(harmless);
        let ends = self.temp("kill.ends", Ty::BOOL);
        ops.push(Op::Havoc {
            place: Place::scalar(ends),
            ty: Ty::BOOL,
        });
        self.step(Expr::tt(), ops, TransKind::Stmt)?;
        let end = super::lower::and(not(harmless), truth(Expr::var(ends, Ty::BOOL)));
        let halt = self.special[2];
        self.edge(self.cur, halt, end.clone(), vec![], TransKind::Halt)?;
        self.step(not(end), vec![], TransKind::Branch)?;
        Ok(Some(Val::E(Expr::var(r, Ty::INT))))
    }

    /// One step of kind `kind` that clears the synchronisation cell (of kind `elem`, values
    /// of type `ty`) that `o` points to: a mutex free, a condition variable without waiters
    /// (its cell holds the set of waiting threads); returns 0.
    fn clear_sync(
        &mut self,
        o: &'m Operand,
        elem: ElemKind,
        ty: Ty,
        kind: SyncKind,
    ) -> R<Option<Val>> {
        let c = self.sync_place(o, elem)?;
        self.step(
            Expr::tt(),
            vec![Op::Assign {
                place: c,
                value: Expr::constant(0, ty),
            }],
            TransKind::Sync(kind),
        )?;
        Ok(self.ret0())
    }

    /// The place of the synchronisation cell an argument points to (its first cell, of
    /// kind `kind`).
    fn sync_place(&mut self, o: &'m Operand, kind: ElemKind) -> R<Place> {
        let v = self.val(o)?;
        self.sync_field(&v, 0, kind)
    }

    /// The cell `delta` bytes into the synchronisation object `v` points to, of kind `kind`.
    fn sync_field(&mut self, v: &Val, delta: u64, kind: ElemKind) -> R<Place> {
        let width = match kind {
            ElemKind::Mutex if delta == 0 => 4,
            _ => 8,
        };
        let p = self.place(&self.offset_by(v, delta), width, kind.ty())?;
        if let Place::Var { var, .. } = &p {
            if self.vars[var.0 as usize].elem != kind {
                return self.unsupported(format!(
                    "{} used as a {}",
                    self.vars[var.0 as usize].name,
                    kind_name(kind)
                ));
            }
        }
        Ok(p)
    }

    fn model(&mut self, name: &str, args: &[&'m Operand], c: &'m Call) -> R<Option<Val>> {
        let load = |p: &Place| Expr::Load {
            place: p.clone(),
            ty: Ty::LONG,
        };
        if let Some(n) = name.strip_prefix("llvm.") {
            return self.intrinsic(n, args, c);
        }
        self.argument_reads(name, args)?;
        self.stream_given(name, args)?;
        match name {
            "reach_error"
            | "__VERIFIER_error"
            | "__assert_fail"
            | "__assert_perror_fail"
            | "__assert" => {
                let kind = if name.starts_with("__assert") {
                    ErrorKind::AssertionFailed
                } else {
                    ErrorKind::ReachError
                };
                self.error_here(kind)
            }
            // setjmp is modelled as returning 0 when called: nothing may come back to it.
            "longjmp" | "_longjmp" | "siglongjmp" | "__longjmp_chk"
                if self.library_function(name) =>
            {
                self.unsupported(format!("`{name}`"))
            }
            // (`err` and `errx` are BSD's, not C's: a program may define its own, which
            // returns.)
            "abort" | "exit" | "_exit" | "_Exit" => self.halt(),
            "err" | "errx" if self.library_function(name) => self.halt(),
            "__VERIFIER_assume" | "assume_abort_if_not" => {
                // Over shared state the assumption waits: its condition is read atomically.
                let x = match self.await_condition(args[0], c)? {
                    Some(c) => c,
                    None => self.expr(args[0])?,
                };
                let guard = truth(x);
                self.wait_to_begin_atomic(&guard);
                self.step(guard, vec![], TransKind::Assume)?;
                Ok(None)
            }
            "__VERIFIER_atomic_begin" => {
                self.begin_atomic()?;
                Ok(None)
            }
            "__VERIFIER_atomic_end" => {
                if self.atomic_depth == 0 {
                    // (A path the lowering cannot rule out: `if (c) begin(); ...; if (c)
                    // end();` has one that ends a region it never began.)
                    return self.unsupported(
                        "`__VERIFIER_atomic_end` on a path without `__VERIFIER_atomic_begin`",
                    );
                }
                self.end_atomic()?;
                Ok(None)
            }
            n if n.starts_with("__VERIFIER_nondet_") && self.library_function(n) => {
                let ty = match c.dest.as_ref().map(|_| self.m.types.type_of(c)) {
                    Some(t) => match t.as_ref() {
                        Type::IntegerType { bits } => {
                            let signed = !matches!(
                                &n["__VERIFIER_nondet_".len()..],
                                "uint"
                                    | "unsigned"
                                    | "u32"
                                    | "ulong"
                                    | "ulonglong"
                                    | "size_t"
                                    | "u64"
                                    | "uchar"
                                    | "u8"
                                    | "ushort"
                                    | "u16"
                                    | "bool"
                                    | "_Bool"
                            );
                            if *bits == 1 {
                                Ty::BOOL
                            } else {
                                Ty {
                                    bits: *bits as u8,
                                    signed,
                                }
                            }
                        }
                        Type::PointerType { .. } => Ty::ULONG,
                        _ => return self.unsupported(format!("{n} of this type")),
                    },
                    None => return Ok(None),
                };
                let t = self.temp(n, ty);
                // The program's own call is an input; one made in a model's code
                // (environment.c's file system and signal results, its helpers, what the
                // model calls back) is a value the model makes up.
                let in_model = self
                    .frames
                    .iter()
                    .any(|f| super::compile::is_model_section(f.func.section.as_deref()));
                self.vars[t.0 as usize].input = !in_model;
                self.step(
                    Expr::tt(),
                    vec![Op::Havoc {
                        place: Place::scalar(t),
                        ty,
                    }],
                    TransKind::Stmt,
                )?;
                let rt = super::layout::int_ty(ty.bits as u32);
                Ok(Some(Val::E(cast(
                    Expr::var(t, ty),
                    if ty == Ty::ULONG { ty } else { rt },
                ))))
            }
            n if self.formatting(n).is_some() => {
                self.format(self.formatting(n).unwrap_or(n), args, c)
            }
            "signal" if args.len() == 2 && self.library_function(name) => self.signal(args),
            "strerror" | "setlocale" if self.library_function(name) => {
                self.unknown_text(c, name == "setlocale")
            }
            n if NO_EFFECT.contains(&n) => Ok(self.ret0()),
            // `%n` stores the count printed so far: a write the model would miss.
            "printf" | "fprintf" | "vprintf" | "vfprintf" if self.stores_count(name, args)? => {
                self.unsupported(format!("`{name}` with the conversion `%n`"))
            }
            n if UNCOMPUTED_RESULT.contains(&n) => self.arbitrary_result(c, n),
            "malloc" => {
                let size = self.expr(args[0])?;
                self.allocate(c, size, false)
            }
            "calloc" => {
                let n = cast(self.expr(args[0])?, Ty::ULONG);
                let s = cast(self.expr(args[1])?, Ty::ULONG);
                self.allocate(c, bin(BinOp::Mul, n, s, Ty::ULONG), true)
            }
            "free" => self.free(args[0]),
            // The file mappings of environment.c's mmap and munmap.
            "__synth_map" => {
                let size = self.expr(args[0])?;
                self.map(c, size)
            }
            "__synth_unmap" => self.unmap(args[0]),
            // environment.c's buffers that the system fills.
            "__synth_arbitrary_bytes" if args.len() == 2 => {
                let d = self.val(args[0])?;
                let n = self.expr(args[1])?;
                self.arbitrary_block(d, n)?;
                Ok(None)
            }
            // environment.c's choices of a result without a branch (a failure or not): the
            // schedule branches where the program tests the result.
            "__synth_select_int" | "__synth_select_long" if args.len() == 3 => {
                let ty = if name.ends_with("int") {
                    Ty::INT
                } else {
                    Ty::LONG
                };
                let c = truth(self.expr(args[0])?);
                let a = cast(self.expr(args[1])?, ty);
                let b = cast(self.expr(args[2])?, ty);
                Ok(Some(Val::E(super::lower::ite(c, a, b, ty))))
            }
            "__synth_select_pointer" if args.len() == 3 => {
                let c = truth(self.expr(args[0])?);
                let a = self.val(args[1])?;
                let b = self.val(args[2])?;
                let (a, b) = (self.addr_expr(&a), self.addr_expr(&b));
                Ok(Some(Val::E(super::lower::ite(c, a, b, Ty::ULONG))))
            }
            // environment.c's stream functions given a null stream.
            "__synth_null_stream" => self.error_here(ErrorKind::NullStream),
            // The block of the stream being opened: the program's call allocated it, or
            // (a call through a pointer, which no call of the program's names) this one does.
            "__synth_stream_block" => match self.stream_block.clone() {
                Some(b) => Ok(Some(b)),
                None => self.opened_stream(c),
            },
            // environment.c's sigaction given an action with a handler other than SIG_DFL
            // and SIG_IGN, which would run asynchronously: the model does not represent it.
            "__synth_signal_handler" => {
                let past = truth(self.expr(args[0])?);
                self.model_limit("<a signal handler (sigaction)>".into(), past)?;
                Ok(None)
            }
            // lrand48 returns a value in [0, 2^31 - 1] (rand and random are models.c's).
            "lrand48" if args.is_empty() && !self.m.functions.iter().any(|f| f.name == name) => {
                let ty = match c.dest.as_ref().map(|_| self.m.types.type_of(c)) {
                    Some(t) => match t.as_ref() {
                        Type::IntegerType { bits } if *bits >= 32 && *bits <= 64 => {
                            super::layout::int_ty(*bits)
                        }
                        _ => Ty::INT,
                    },
                    None => Ty::INT,
                };
                let input = self.temp("rand.input", Ty::UINT);
                let r = self.temp(name, ty);
                let masked = bin(
                    BinOp::BitAnd,
                    Expr::var(input, Ty::UINT),
                    Expr::constant(0x7fff_ffff, Ty::UINT),
                    Ty::UINT,
                );
                self.step(
                    Expr::tt(),
                    vec![
                        Op::Havoc {
                            place: Place::scalar(input),
                            ty: Ty::UINT,
                        },
                        Op::Assign {
                            place: Place::scalar(r),
                            value: cast(masked, ty),
                        },
                    ],
                    TransKind::Stmt,
                )?;
                Ok(Some(Val::E(Expr::var(r, ty))))
            }
            "realloc" => {
                let n = self.expr(args[1])?;
                self.reallocate(c, args[0], n)
            }
            "memcpy" | "memmove" => {
                let (d, s) = (self.val(args[0])?, self.val(args[1])?);
                let len = self.expr(args[2])?;
                let hint = self
                    .pointee_hint(args[0])
                    .or_else(|| self.pointee_hint(args[1]));
                self.copy_block(d.clone(), s, len, name == "memmove", hint)?;
                Ok(Some(d))
            }
            "memset" => {
                let d = self.val(args[0])?;
                let (b, len) = (self.expr(args[1])?, self.expr(args[2])?);
                let hint = self.pointee_hint(args[0]);
                self.set_block(d.clone(), b, len, hint)?;
                Ok(Some(d))
            }
            "sched_yield" | "pthread_yield" => {
                self.step(Expr::tt(), vec![], TransKind::Sync(SyncKind::Yield))?;
                Ok(self.ret0())
            }
            "pthread_self" => {
                self.asks_own_id = true;
                Ok(Some(Val::E(Expr::constant(
                    crate::ir::thread_id(self.tid),
                    Ty::ULONG,
                ))))
            }
            "pthread_mutex_init"
            | "pthread_mutex_lock"
            | "pthread_mutex_unlock"
            | "pthread_mutex_trylock"
            | "pthread_mutex_timedlock"
            | "pthread_mutex_clocklock"
                if self.typed_mutexes =>
            {
                self.typed_mutex(name, args)
            }
            "pthread_mutex_timedlock" | "pthread_mutex_clocklock" => {
                let Some(invalid) = self.timed_call_deadline(name, args)? else {
                    return Ok(Some(Val::E(Expr::int(22))));
                };
                let m = self.sync_place(args[0], ElemKind::Mutex)?;
                let free = bin(BinOp::Eq, load(&m), Expr::constant(0, Ty::LONG), Ty::INT);
                let r = self.temp("timedlock.ret", Ty::INT);
                let me = self.me();
                self.flush()?;
                let (from, to) = (self.cur, self.new_loc(LocKind::Normal));
                let ops = vec![
                    Op::Assign {
                        place: m,
                        value: me,
                    },
                    Op::Assign {
                        place: Place::scalar(r),
                        value: Expr::int(0),
                    },
                ];
                self.edge(from, to, free.clone(), ops, TransKind::Sync(SyncKind::Lock))?;
                let ops = vec![timed_out(r, invalid)];
                let kind = TransKind::Sync(SyncKind::TimedOut);
                self.edge(from, to, not(free), ops, kind)?;
                self.cur = to;
                Ok(Some(Val::E(Expr::var(r, Ty::INT))))
            }
            "pthread_mutex_init" | "pthread_mutex_unlock" => {
                let kind = if name == "pthread_mutex_init" {
                    SyncKind::MutexInit
                } else {
                    SyncKind::Unlock
                };
                self.clear_sync(args[0], ElemKind::Mutex, Ty::LONG, kind)
            }
            "pthread_mutex_lock" => {
                let m = self.sync_place(args[0], ElemKind::Mutex)?;
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
                let m = self.sync_place(args[0], ElemKind::Mutex)?;
                let free = bin(BinOp::Eq, load(&m), Expr::constant(0, Ty::LONG), Ty::INT);
                let r = self.temp("trylock", Ty::INT);
                let me = self.me();
                self.step(
                    Expr::tt(),
                    vec![
                        // EBUSY is 16 on Linux.
                        Op::Assign {
                            place: Place::scalar(r),
                            value: super::lower::ite(
                                free.clone(),
                                Expr::int(0),
                                Expr::int(16),
                                Ty::INT,
                            ),
                        },
                        Op::Assign {
                            place: m.clone(),
                            value: super::lower::ite(free, me, load(&m), Ty::LONG),
                        },
                    ],
                    TransKind::Sync(SyncKind::TryLock),
                )?;
                Ok(Some(Val::E(Expr::var(r, Ty::INT))))
            }
            // No thread waits on a condition variable just initialised.
            "pthread_cond_init" => {
                self.clear_sync(args[0], ElemKind::Cond, Ty::ULONG, SyncKind::MutexInit)
            }
            "pthread_cond_wait" => self.cond_wait(args, false),
            "pthread_cond_timedwait" => self.cond_wait(args, true),
            "pthread_cond_signal" => {
                // One transition per thread that may wait, made when all threads are known
                // ([`Lowerer::expand_signals`]): guarded, so the pending local assignments
                // (the cell's address may be one) run before, and its only op is the signal's.
                let c = self.sync_place(args[0], ElemKind::Cond)?;
                self.flush()?;
                let t = self.step(
                    Expr::tt(),
                    vec![Op::Assign {
                        place: c.clone(),
                        value: Expr::Load {
                            place: c,
                            ty: Ty::ULONG,
                        },
                    }],
                    TransKind::Sync(SyncKind::CondSignal),
                )?;
                self.signals.push((self.tid, t));
                Ok(self.ret0())
            }
            "pthread_cond_broadcast" => {
                self.clear_sync(args[0], ElemKind::Cond, Ty::ULONG, SyncKind::CondBroadcast)
            }
            "pthread_barrier_init" => {
                let v = self.val(args[0])?;
                let b = self.sync_field(&v, 0, ElemKind::Barrier)?;
                let np = self.sync_field(&v, 8, ElemKind::Int(Ty::LONG))?;
                let gp = self.sync_field(&v, 16, ElemKind::Int(Ty::LONG))?;
                let n = cast(self.expr(args[2])?, Ty::LONG);
                self.step(
                    Expr::tt(),
                    vec![
                        Op::Assign {
                            place: b,
                            value: Expr::constant(0, Ty::LONG),
                        },
                        Op::Assign {
                            place: np,
                            value: n,
                        },
                        Op::Assign {
                            place: gp,
                            value: Expr::constant(0, Ty::LONG),
                        },
                    ],
                    TransKind::Sync(SyncKind::BarrierInit),
                )?;
                // A count of 0 is refused (EINVAL).
                let zero = bin(
                    BinOp::Eq,
                    cast(self.expr(args[2])?, Ty::UINT),
                    Expr::constant(0, Ty::UINT),
                    Ty::INT,
                );
                Ok(Some(Val::E(super::lower::ite(
                    zero,
                    Expr::int(22),
                    Expr::int(0),
                    Ty::INT,
                ))))
            }
            "pthread_barrier_wait" => self.barrier_wait(args),
            "pthread_equal" => {
                let a = cast(self.expr(args[0])?, Ty::ULONG);
                let b = cast(self.expr(args[1])?, Ty::ULONG);
                Ok(Some(Val::E(bin(BinOp::Eq, a, b, Ty::INT))))
            }
            "pthread_mutexattr_settype" => {
                // A type other than normal, recursive, errorcheck (and the default, 0-3) is
                // refused with EINVAL and not set.
                let a = self.val(args[0])?;
                let p = self.place(&a, 4, Ty::INT)?;
                let t = cast(self.expr(args[1])?, Ty::INT);
                self.set_attribute(p, t, 3)
            }
            "pthread_mutexattr_gettype" => {
                let a = self.val(args[0])?;
                let p = self.place(&a, 4, Ty::INT)?;
                self.get_attribute(p, args[1], None)
            }
            "pthread_mutexattr_init" => {
                let a = self.val(args[0])?;
                let p = self.place(&a, 4, Ty::INT)?;
                self.set_attribute(p, Expr::int(0), 0)
            }
            "pthread_rwlock_init" => {
                let v = self.val(args[0])?;
                let r = self.sync_field(&v, 0, ElemKind::Int(Ty::LONG))?;
                let w = self.sync_field(&v, 8, ElemKind::Mutex)?;
                self.step(
                    Expr::tt(),
                    vec![
                        Op::Assign {
                            place: r,
                            value: Expr::constant(0, Ty::LONG),
                        },
                        Op::Assign {
                            place: w,
                            value: Expr::constant(0, Ty::LONG),
                        },
                    ],
                    TransKind::Sync(SyncKind::MutexInit),
                )?;
                Ok(self.ret0())
            }
            // A rwlock's preference: glibc's rwlocks prefer readers, also with
            // PTHREAD_RWLOCK_PREFER_WRITER_NP (1), as the model's do; with
            // PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP (2) a reader waits for a waiting
            // writer, which the model does not (it would miss the deadlock of a reader that
            // locks again); another kind is EINVAL.
            "pthread_rwlockattr_setkind_np" => match self.expr(args[1])?.as_const() {
                Some(0 | 1) => Ok(self.ret0()),
                Some(2) => self.unsupported(
                    "`pthread_rwlockattr_setkind_np` with \
                     PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP (readers wait for a waiting \
                     writer)",
                ),
                Some(_) => Ok(Some(Val::E(Expr::int(22)))),
                None => self.unsupported(
                    "`pthread_rwlockattr_setkind_np` with a kind computed at run time",
                ),
            },
            "pthread_rwlock_destroy" | "sem_destroy" | "pthread_spin_destroy" => Ok(self.ret0()),
            "pthread_rwlock_rdlock" | "pthread_rwlock_tryrdlock" => {
                let v = self.val(args[0])?;
                let r = self.sync_field(&v, 0, ElemKind::Int(Ty::LONG))?;
                let w = self.sync_field(&v, 8, ElemKind::Mutex)?;
                let free = bin(BinOp::Eq, load(&w), Expr::constant(0, Ty::LONG), Ty::INT);
                let more = bin(BinOp::Add, load(&r), Expr::constant(1, Ty::LONG), Ty::LONG);
                if name.ends_with("tryrdlock") {
                    return self.try_op(free, vec![(r, more)], SyncKind::ReadLock);
                }
                self.relock(r, more, free, &w, SyncKind::ReadLock)
            }
            "pthread_rwlock_wrlock" | "pthread_rwlock_trywrlock" => {
                let v = self.val(args[0])?;
                let r = self.sync_field(&v, 0, ElemKind::Int(Ty::LONG))?;
                let w = self.sync_field(&v, 8, ElemKind::Mutex)?;
                let free = bin(
                    BinOp::And,
                    bin(BinOp::Eq, load(&w), Expr::constant(0, Ty::LONG), Ty::INT),
                    bin(BinOp::Eq, load(&r), Expr::constant(0, Ty::LONG), Ty::INT),
                    Ty::INT,
                );
                let me = self.me();
                if name.ends_with("trywrlock") {
                    return self.try_op(free, vec![(w, me)], SyncKind::WriteLock);
                }
                self.relock(w.clone(), me, free, &w, SyncKind::WriteLock)
            }
            "pthread_rwlock_unlock" => {
                // The writer's unlock frees the lock; a reader's counts one reader less.
                let v = self.val(args[0])?;
                let r = self.sync_field(&v, 0, ElemKind::Int(Ty::LONG))?;
                let w = self.sync_field(&v, 8, ElemKind::Mutex)?;
                let mine = bin(BinOp::Eq, load(&w), self.me(), Ty::INT);
                let fewer = bin(BinOp::Sub, load(&r), Expr::constant(1, Ty::LONG), Ty::LONG);
                self.step(
                    Expr::tt(),
                    vec![
                        Op::Assign {
                            place: r.clone(),
                            value: super::lower::ite(mine.clone(), load(&r), fewer, Ty::LONG),
                        },
                        Op::Assign {
                            place: w.clone(),
                            value: super::lower::ite(
                                mine,
                                Expr::constant(0, Ty::LONG),
                                load(&w),
                                Ty::LONG,
                            ),
                        },
                    ],
                    TransKind::Sync(SyncKind::RwUnlock),
                )?;
                Ok(self.ret0())
            }
            "sem_init" => {
                // A value above SEM_VALUE_MAX (2^31 - 1) is refused: -1 with errno EINVAL.
                let v = self.val(args[0])?;
                let s = self.sync_field(&v, 0, ElemKind::Int(Ty::LONG))?;
                let n = cast(cast(self.expr(args[2])?, Ty::UINT), Ty::LONG);
                if self.const_eval(&n).is_some_and(|k| k <= i32::MAX as i128) {
                    self.step(
                        Expr::tt(),
                        vec![Op::Assign { place: s, value: n }],
                        TransKind::Sync(SyncKind::MutexInit),
                    )?;
                    return Ok(self.ret0());
                }
                let too_large = bin(
                    BinOp::Gt,
                    n.clone(),
                    Expr::constant(i32::MAX as i128, Ty::LONG),
                    Ty::INT,
                );
                let old = Expr::Load {
                    place: s.clone(),
                    ty: Ty::LONG,
                };
                let e = self.errno_place()?;
                let old_errno = Expr::Load {
                    place: e.clone(),
                    ty: Ty::INT,
                };
                self.step(
                    Expr::tt(),
                    vec![
                        Op::Assign {
                            place: s,
                            value: super::lower::ite(too_large.clone(), old, n, Ty::LONG),
                        },
                        Op::Assign {
                            place: e,
                            value: super::lower::ite(
                                too_large.clone(),
                                Expr::int(22),
                                old_errno,
                                Ty::INT,
                            ),
                        },
                    ],
                    TransKind::Sync(SyncKind::MutexInit),
                )?;
                Ok(Some(Val::E(super::lower::ite(
                    too_large,
                    Expr::int(-1),
                    Expr::int(0),
                    Ty::INT,
                ))))
            }
            "sem_wait" | "sem_trywait" => {
                let v = self.val(args[0])?;
                let s = self.sync_field(&v, 0, ElemKind::Int(Ty::LONG))?;
                let pos = bin(BinOp::Gt, load(&s), Expr::constant(0, Ty::LONG), Ty::INT);
                let less = bin(BinOp::Sub, load(&s), Expr::constant(1, Ty::LONG), Ty::LONG);
                if name == "sem_trywait" {
                    // -1 with errno EAGAIN (11) when the value is 0.
                    let r = self.try_op(pos.clone(), vec![(s, less)], SyncKind::SemWait)?;
                    let Some(Val::E(rv)) = r else {
                        unreachable!("try_op returns a value")
                    };
                    let failed = bin(BinOp::Ne, rv.clone(), Expr::int(0), Ty::INT);
                    return self.fail_with_errno(failed, Expr::int(11));
                }
                self.step(
                    pos,
                    vec![Op::Assign {
                        place: s,
                        value: less,
                    }],
                    TransKind::Sync(SyncKind::SemWait),
                )?;
                Ok(self.ret0())
            }
            "sem_timedwait" | "sem_clockwait" => {
                // glibc refuses an invalid deadline before it looks at the value.
                let code = self.temp("semwait.code", Ty::INT);
                let failed = bin(BinOp::Ne, Expr::var(code, Ty::INT), Expr::int(0), Ty::INT);
                match self.timed_call_deadline(name, args)? {
                    None => {
                        let set = Op::Assign {
                            place: Place::scalar(code),
                            value: Expr::int(22),
                        };
                        self.step(Expr::tt(), vec![set], TransKind::Stmt)?;
                    }
                    Some(invalid) => {
                        let v = self.val(args[0])?;
                        let s = self.sync_field(&v, 0, ElemKind::Int(Ty::LONG))?;
                        let zero = Expr::constant(0, Ty::LONG);
                        let pos = bin(BinOp::Gt, load(&s), zero, Ty::INT);
                        let one = Expr::constant(1, Ty::LONG);
                        let less = bin(BinOp::Sub, load(&s), one, Ty::LONG);
                        self.flush()?;
                        let (from, to) = (self.cur, self.new_loc(LocKind::Normal));
                        let g = bin(BinOp::And, not(invalid.clone()), pos.clone(), Ty::INT);
                        let ops = vec![
                            Op::Assign {
                                place: s,
                                value: less,
                            },
                            Op::Assign {
                                place: Place::scalar(code),
                                value: Expr::int(0),
                            },
                        ];
                        self.edge(from, to, g, ops, TransKind::Sync(SyncKind::SemWait))?;
                        let g = bin(BinOp::Or, invalid.clone(), not(pos), Ty::INT);
                        let ops = vec![timed_out(code, invalid)];
                        self.edge(from, to, g, ops, TransKind::Sync(SyncKind::TimedOut))?;
                        self.cur = to;
                    }
                }
                self.fail_with_errno(failed, Expr::var(code, Ty::INT))
            }
            "sem_post" => {
                let v = self.val(args[0])?;
                let s = self.sync_field(&v, 0, ElemKind::Int(Ty::LONG))?;
                let more = bin(BinOp::Add, load(&s), Expr::constant(1, Ty::LONG), Ty::LONG);
                self.step(
                    Expr::tt(),
                    vec![Op::Assign {
                        place: s,
                        value: more,
                    }],
                    TransKind::Sync(SyncKind::SemPost),
                )?;
                Ok(self.ret0())
            }
            "sem_getvalue" => {
                let v = self.val(args[0])?;
                let s = self.sync_field(&v, 0, ElemKind::Int(Ty::LONG))?;
                let out = self.val(args[1])?;
                let o = self.place(&out, 4, Ty::INT)?;
                self.step(
                    Expr::tt(),
                    vec![Op::Assign {
                        place: o,
                        value: cast(load(&s), Ty::INT),
                    }],
                    TransKind::Sync(SyncKind::Atomic),
                )?;
                Ok(self.ret0())
            }
            "pthread_spin_init"
            | "pthread_spin_unlock"
            | "pthread_spin_lock"
            | "pthread_spin_trylock" => {
                let v = self.val(args[0])?;
                let s = self.place(&v, 4, Ty::INT)?;
                let ls = Expr::Load {
                    place: s.clone(),
                    ty: Ty::INT,
                };
                let free = bin(BinOp::Eq, ls, Expr::int(0), Ty::INT);
                let me = cast(self.me(), Ty::INT);
                match name {
                    "pthread_spin_lock" => {
                        self.step(
                            free,
                            vec![Op::Assign {
                                place: s,
                                value: me,
                            }],
                            TransKind::Sync(SyncKind::Lock),
                        )?;
                        Ok(self.ret0())
                    }
                    "pthread_spin_trylock" => self.try_op(free, vec![(s, me)], SyncKind::TryLock),
                    _ => {
                        let kind = if name.ends_with("init") {
                            SyncKind::MutexInit
                        } else {
                            SyncKind::Unlock
                        };
                        self.step(
                            Expr::tt(),
                            vec![Op::Assign {
                                place: s,
                                value: Expr::int(0),
                            }],
                            TransKind::Sync(kind),
                        )?;
                        Ok(self.ret0())
                    }
                }
            }
            "pthread_once" => self.once(args),
            "pthread_key_create" => {
                // Keys are numbered in creation order; each thread has its own values. The
                // key's destructor is recorded for the thread exits.
                let dtor = match self.val(args[1])? {
                    Val::E(e) if e.as_const() == Some(0) => 0,
                    Val::F(f) => {
                        let (names, _) = self.key_destructors();
                        match names.iter().position(|n| *n == f) {
                            Some(j) => j as i128 + 1,
                            None => {
                                return self.unsupported("a thread-specific data destructor here")
                            }
                        }
                    }
                    _ => {
                        return self.unsupported(
                            "a thread-specific data destructor that is not a named function",
                        )
                    }
                };
                let (_, table) = self.key_destructors();
                let out = self.val(args[0])?;
                let kp = self.place(&out, 4, Ty::UINT)?;
                let n = self.key_counter();
                let nv = Expr::var(n, Ty::LONG);
                self.step(
                    Expr::tt(),
                    vec![
                        Op::Assign {
                            place: kp,
                            value: cast(nv.clone(), Ty::UINT),
                        },
                        Op::Assign {
                            place: Place::Var {
                                var: table,
                                index: Some(Box::new(nv.clone())),
                            },
                            value: Expr::constant(dtor, Ty::LONG),
                        },
                        Op::Assign {
                            place: Place::scalar(n),
                            value: bin(BinOp::Add, nv, Expr::constant(1, Ty::LONG), Ty::LONG),
                        },
                    ],
                    TransKind::Sync(SyncKind::Atomic),
                )?;
                Ok(self.ret0())
            }
            "pthread_getspecific" | "pthread_setspecific" => {
                let k = cast(self.expr(args[0])?, Ty::LONG);
                let slots = self.key_slots()?;
                let place = Place::Var {
                    var: slots,
                    index: Some(Box::new(k)),
                };
                if name == "pthread_getspecific" {
                    let r = self.temp("getspecific", Ty::ULONG);
                    self.step(
                        Expr::tt(),
                        vec![Op::Assign {
                            place: Place::scalar(r),
                            value: Expr::Load {
                                place,
                                ty: Ty::ULONG,
                            },
                        }],
                        TransKind::Stmt,
                    )?;
                    return Ok(Some(Val::E(Expr::var(r, Ty::ULONG))));
                }
                let v = self.expr(args[1])?;
                self.step(
                    Expr::tt(),
                    vec![Op::Assign {
                        place,
                        value: cast(v, Ty::ULONG),
                    }],
                    TransKind::Stmt,
                )?;
                Ok(self.ret0())
            }
            "__errno_location" => {
                let p = self.tls_object("errno", 4)?;
                Ok(Some(p))
            }
            "pthread_create" => self.spawn(args),
            // Cancellation is beyond the model: an execution that requests it is named in
            // the verdict (models.c's cancellation points are no-ops, exact without it).
            "pthread_cancel" => {
                self.model_limit(
                    "<cancellation of a thread (pthread_cancel)>".into(),
                    Expr::tt(),
                )?;
                Ok(self.ret0())
            }
            "pthread_attr_init" => {
                // As glibc's: all 56 bytes zero (the priority and the policy at bytes 0 and
                // 4, models.c's scheduling attributes: 0, SCHED_OTHER; the flags at byte 8:
                // joinable), then the guard size, the page size (4096), at byte 16.
                let a = self.val(args[0])?;
                let hint = self.pointee_hint(args[0]);
                let (zero, size) = (Expr::int(0), Expr::constant(56, Ty::ULONG));
                self.set_block(a.clone(), zero, size, hint)?;
                let guard = Op::Assign {
                    place: self.place(&self.offset_by(&a, 16), 8, Ty::ULONG)?,
                    value: Expr::constant(4096, Ty::ULONG),
                };
                self.access_step(vec![guard], TransKind::Stmt)?;
                Ok(self.ret0())
            }
            "pthread_attr_setdetachstate" => {
                // PTHREAD_CREATE_JOINABLE 0, PTHREAD_CREATE_DETACHED 1; EINVAL otherwise.
                let a = self.val(args[0])?;
                let p = self.place(&self.offset_by(&a, ATTR_FLAGS), 4, Ty::INT)?;
                let v = cast(self.expr(args[1])?, Ty::INT);
                self.set_attribute(p, v, 1)
            }
            "pthread_attr_getdetachstate" => {
                let a = self.val(args[0])?;
                let p = self.place(&self.offset_by(&a, ATTR_FLAGS), 4, Ty::INT)?;
                self.get_attribute(p, args[1], Some(1))
            }
            "pthread_kill" if args.len() == 2 => self.kill_thread(args),
            "pthread_detach" => {
                // 0, EINVAL (22) for a thread detached already, ESRCH (3) for a creation
                // refused for the thread bound.
                let dv = self
                    .thread_detached
                    .expect("a program that detaches has the flags");
                let t = cast(self.expr(args[0])?, Ty::LONG);
                let none = crate::ir::is_no_thread(t.clone());
                let place = self.detached_place(dv, &t, &none);
                let old = Expr::Load {
                    place: place.clone(),
                    ty: Ty::INT,
                };
                let was = bin(BinOp::Ne, old.clone(), Expr::int(0), Ty::INT);
                let r = self.temp("detach", Ty::INT);
                self.access_step(
                    vec![
                        Op::Assign {
                            place: Place::scalar(r),
                            value: super::lower::ite(
                                none.clone(),
                                Expr::int(3),
                                super::lower::ite(was, Expr::int(22), Expr::int(0), Ty::INT),
                                Ty::INT,
                            ),
                        },
                        Op::Assign {
                            place,
                            value: super::lower::ite(none, old, Expr::int(1), Ty::INT),
                        },
                    ],
                    TransKind::Stmt,
                )?;
                Ok(Some(Val::E(Expr::var(r, Ty::INT))))
            }
            "pthread_join" => {
                // A creation refused for the thread bound left `NO_THREAD` as the id: joining
                // it returns ESRCH (3) at once, as the runtime's join does. glibc's join of the
                // calling thread itself returns EDEADLK (35) at once.
                let t = cast(self.expr(args[0])?, Ty::LONG);
                let none = crate::ir::is_no_thread(t.clone());
                let itself = bin(
                    BinOp::Eq,
                    t.clone(),
                    Expr::constant(crate::ir::thread_id(self.tid), Ty::LONG),
                    Ty::INT,
                );
                // glibc's join of a detached thread returns EINVAL (22) at once: whether it is
                // read in a step of its own, so that the join's test of returning at once
                // reads no shared state.
                let detached = match self.thread_detached {
                    Some(dv) => {
                        let d = self.temp("join.detached", Ty::INT);
                        let place = self.detached_place(dv, &t, &none);
                        self.access_step(
                            vec![Op::Assign {
                                place: Place::scalar(d),
                                value: Expr::Load { place, ty: Ty::INT },
                            }],
                            TransKind::Stmt,
                        )?;
                        Some(bin(BinOp::Ne, Expr::var(d, Ty::INT), Expr::int(0), Ty::INT))
                    }
                    None => None,
                };
                let mut at_once = bin(BinOp::Or, none.clone(), itself.clone(), Ty::INT);
                if let Some(d) = &detached {
                    at_once = bin(BinOp::Or, at_once, d.clone(), Ty::INT);
                }
                let index = crate::ir::thread_index(t.clone());
                let done = Place::Var {
                    var: self.thread_done,
                    index: Some(Box::new(index.clone())),
                };
                // The thread's return value into `*retval`.
                let out = self.val(args[1])?;
                let mut ops = Vec::new();
                if !matches!(&out, Val::E(e) if e.as_const() == Some(0)) {
                    let place = self.place(&out, 8, Ty::ULONG)?;
                    let value = Expr::Load {
                        place: Place::Var {
                            var: self.thread_ret,
                            index: Some(Box::new(index)),
                        },
                        ty: Ty::ULONG,
                    };
                    let keep = Expr::Load {
                        place: place.clone(),
                        ty: Ty::ULONG,
                    };
                    ops.push(Op::Assign {
                        place,
                        value: super::lower::ite(at_once.clone(), keep, value, Ty::ULONG),
                    });
                }
                let r = self.temp("join", Ty::INT);
                let ok = match detached {
                    Some(d) => super::lower::ite(d, Expr::int(22), Expr::int(0), Ty::INT),
                    None => Expr::int(0),
                };
                let deadlock = super::lower::ite(itself, Expr::int(35), ok, Ty::INT);
                ops.push(Op::Assign {
                    place: Place::scalar(r),
                    value: super::lower::ite(none, Expr::int(3), deadlock, Ty::INT),
                });
                let g = crate::ir::join_guard(at_once, done);
                self.step(g, ops, TransKind::Sync(SyncKind::Join))?;
                Ok(Some(Val::E(Expr::var(r, Ty::INT))))
            }
            "pthread_exit" => {
                // pthread_exit runs the cleanup handlers pthread_cleanup_push pushed, which
                // the model does not keep (they never run otherwise: nothing is cancelled).
                if self
                    .m
                    .func_declarations
                    .iter()
                    .any(|d| d.name == "__pthread_register_cancel")
                {
                    return self.unsupported(
                        "`pthread_exit` in a program with cleanup handlers (pthread_cleanup_push)",
                    );
                }
                // The thread's calls end: so do their locals' lifetimes.
                let ends = self.end_lifetimes(self.frames.len());
                if !ends.is_empty() {
                    self.flush()?;
                    self.access_step(ends, TransKind::Stmt)?;
                }
                if self.tid.0 == 0 {
                    // main stops; the other threads go on.
                    self.flush()?;
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
                    let v = self.expr(args[0])?;
                    self.thread_exit(v)?;
                }
                Ok(None)
            }
            _ => {
                if let Some(f) = self.m.functions.iter().find(|f| f.name == name) {
                    // A struct passed by value in memory (`byval`) is no 8-byte slot.
                    let by_memory = |a: &llvm_ir::function::ParameterAttribute| {
                        use llvm_ir::function::ParameterAttribute as A;
                        matches!(a, A::ByVal(..) | A::InAlloca(..) | A::Preallocated(..))
                    };
                    if f.is_var_arg
                        && c.arguments
                            .iter()
                            .skip(f.parameters.len())
                            .any(|(_, attrs)| attrs.iter().any(by_memory))
                    {
                        return self.unsupported("a struct passed as a variable argument");
                    }
                    return self.inline_call(f, args, c.dest.as_ref());
                }
                if name.starts_with("pthread_") || name.starts_with("sem_") {
                    return self.unsupported(format!("call to `{name}`"));
                }
                self.external(name, args, c)
            }
        }
    }

    /// Inlines a call of a function of the module whose result goes to register `result`;
    /// `__VERIFIER_atomic_*` functions run as an atomic region.
    fn inline_call(
        &mut self,
        f: &'m llvm_ir::Function,
        args: &[&'m Operand],
        result: Option<&'m llvm_ir::Name>,
    ) -> R<Option<Val>> {
        let mut vals = Vec::new();
        for a in args {
            vals.push(self.val(a)?);
        }
        let atomic = f.name.starts_with("__VERIFIER_atomic_");
        if atomic {
            self.begin_atomic()?;
        }
        let varargs = if f.is_var_arg && super::lower::reads_variable_arguments(f) {
            let fixed = f.parameters.len().min(args.len());
            Some(self.variable_arguments(f, &args[fixed..])?)
        } else {
            None
        };
        let span = self.span;
        let r = self.inline_with(f, vals, varargs, result)?;
        self.span = span;
        if atomic {
            self.end_atomic()?;
        }
        Ok(r)
    }

    /// Enters an atomic region (nested ones are one region).
    fn begin_atomic(&mut self) -> R<()> {
        self.atomic_depth += 1;
        if self.atomic_depth == 1 {
            let t = self.step(
                Expr::tt(),
                vec![Op::AtomicBegin],
                TransKind::Sync(SyncKind::AtomicBegin),
            )?;
            self.atomic_begin = Some(t);
        }
        Ok(())
    }

    /// Leaves an atomic region (the outermost one ends it).
    fn end_atomic(&mut self) -> R<()> {
        self.atomic_depth -= 1;
        if self.atomic_depth == 0 {
            self.atomic_begin = None;
            self.step(
                Expr::tt(),
                vec![Op::AtomicEnd],
                TransKind::Sync(SyncKind::AtomicEnd),
            )?;
        }
        Ok(())
    }

    /// An assumption `cond` at the start of an atomic region also guards the region's
    /// beginning: the thread waits until the condition holds and then enters (SV-COMP's
    /// `__VERIFIER_atomic_acquire() { __VERIFIER_assume(lock == 0); lock = 1; }`). Inside the
    /// region a false assumption would block every thread: a deadlock the program does not
    /// have. This holds only where the steps since the beginning cannot tell: `cond` reads
    /// named variables only (no pointer), and the steps before it only compute registers that
    /// `cond` does not read, from named variables, by operations that cannot fail (no
    /// pointer, no computed index, no arithmetic that may overflow or divide by zero), along
    /// paths (clang's branches over `&&`) that all reach the assumption without a loop.
    /// Otherwise nothing changes.
    fn wait_to_begin_atomic(&mut self, cond: &Expr) {
        let Some(b) = self.atomic_begin else {
            return;
        };
        let vars = &self.vars;
        let named = |p: &Place| match p {
            Place::Var { var, index } => {
                let v = &vars[var.0 as usize];
                // Not in a block with an allocation status (heap memory, a variable-length
                // array): an access may be out of its bounds.
                let block = vars[v.placement().object.0 as usize].allocation_status;
                !matches!(v.scope, VarScope::Heap)
                    && !block
                    && match index {
                        None => true,
                        Some(i) => i.as_const().is_some_and(|i| 0 <= i && i < v.len as i128),
                    }
            }
            Place::Deref { .. } => false,
        };
        if !cannot_fail(cond, &named) {
            return;
        }
        let mut read = Vec::new();
        cond.for_each_place(&mut |p| read.extend(p.vars()));
        // Registers only: the thread's own scalars outside any object.
        let register = |p: &Place| match p {
            Place::Var { var, index: None } => {
                let v = &vars[var.0 as usize];
                matches!(v.scope, VarScope::Local(_))
                    && v.placement.is_none()
                    && !read.contains(var)
            }
            _ => false,
        };
        let quiet = |ops: &[Op]| {
            ops.iter().all(|op| match op {
                Op::Assign { place, value } => register(place) && cannot_fail(value, &named),
                Op::AtomicBegin => true,
                Op::Havoc { .. } | Op::Spawn { .. } | Op::AtomicEnd => false,
            })
        };
        let trs = &self.tb.transitions;
        let begin = &trs[b.0 as usize];
        if !begin.guard.is_true() || !quiet(&begin.ops) || !quiet(&self.pending) {
            return;
        }
        // The locations since the beginning, and the steps between them.
        let mut inside = vec![begin.dst];
        let mut steps = Vec::new();
        for tr in &trs[b.0 as usize + 1..] {
            if !inside.contains(&tr.src)
                || self.special.contains(&tr.dst)
                || !cannot_fail(&tr.guard, &named)
                || !quiet(&tr.ops)
            {
                return;
            }
            steps.push((tr.src, tr.dst));
            inside.push(tr.dst);
        }
        // Every location but the assumption's is left by some step, and no step closes a
        // loop (the locations can be taken away, each once no step leads to it).
        if !inside.contains(&self.cur)
            || inside
                .iter()
                .any(|l| *l != self.cur && !steps.iter().any(|s| s.0 == *l))
        {
            return;
        }
        while let Some(i) = (0..steps.len()).find(|&i| !steps.iter().any(|s| s.1 == steps[i].0)) {
            let free = steps[i].0;
            steps.retain(|s| s.0 != free);
        }
        if !steps.is_empty() {
            return;
        }
        self.tb.transitions[b.0 as usize].guard = cond.clone();
    }

    /// The variable arguments of a call of the variadic function `f`, in a new local object
    /// as the x86-64 ABI passes arguments in memory: one 8-byte slot each, its value in the
    /// slot's first bytes (a floating-point argument's slot holds an arbitrary value).
    fn variable_arguments(&mut self, f: &'m llvm_ir::Function, args: &[&'m Operand]) -> R<VarId> {
        let mut fields = Vec::new();
        let mut slots = Vec::new();
        for a in args {
            let t = self.m.types.type_of(*a);
            let size = match t.as_ref() {
                Type::IntegerType { .. } | Type::PointerType { .. } | Type::FPType(_) => {
                    self.layout.size(&t).filter(|s| *s <= 8)
                }
                _ => None,
            };
            let Some(size) = size else {
                return self.unsupported(format!("variable argument of type {t}"));
            };
            fields.push(t.clone());
            if size < 8 {
                fields.push(
                    self.m
                        .types
                        .array_of(self.m.types.int(8), (8 - size) as usize),
                );
            }
            slots.push((a, t, size));
        }
        if fields.is_empty() {
            fields.push(self.m.types.int(64));
        }
        let ty = self.m.types.struct_of(fields, true);
        let name = format!("{}::{}::varargs", self.tid, f.name);
        let obj = self.new_object(&name, &ty, VarScope::Local(self.tid), Init::Nondet)?;
        let mut ops = Vec::new();
        for (k, (a, t, size)) in slots.into_iter().enumerate() {
            if matches!(t.as_ref(), Type::FPType(_)) {
                continue;
            }
            let (_, rt) = self.access_ty(&t)?;
            let v = self.val(a)?;
            let value = match &v {
                Val::E(e) => cast(e.clone(), rt),
                _ => cast(self.addr_expr(&v), rt),
            };
            let slot = Val::P {
                obj,
                off: 8 * k as i64,
                dyn_: vec![],
            };
            let place = self.place(&slot, size, rt)?;
            ops.push(Op::Assign { place, value });
        }
        if !ops.is_empty() {
            self.access_step(ops, TransKind::Stmt)?;
        }
        Ok(obj)
    }

    /// `va_start(ap)`: the `va_list` (x86-64: `gp_offset`, `fp_offset`, `overflow_arg_area`,
    /// `reg_save_area`) with no register left, so that every argument is read from memory,
    /// at the call's variable arguments ([`Lowerer::variable_arguments`]).
    fn va_start(&mut self, ap: &'m Operand) -> R<Option<Val>> {
        let Some(obj) = self.frames.last().and_then(|f| f.varargs) else {
            return self.unsupported("va_start here");
        };
        let ap = self.val(ap)?;
        let area = self.addr_expr(&Val::P {
            obj,
            off: 0,
            dyn_: vec![],
        });
        let fields = [
            (0, 4, Ty::UINT, Expr::constant(48, Ty::UINT)),
            (4, 4, Ty::UINT, Expr::constant(176, Ty::UINT)),
            (8, 8, Ty::ULONG, area),
            (16, 8, Ty::ULONG, Expr::constant(0, Ty::ULONG)),
        ];
        let mut ops = Vec::new();
        for (off, w, ty, value) in fields {
            let place = self.place(&self.offset_by(&ap, off), w, ty)?;
            ops.push(Op::Assign { place, value });
        }
        self.access_step(ops, TransKind::Stmt)?;
        Ok(None)
    }

    fn intrinsic(&mut self, n: &str, args: &[&'m Operand], c: &'m Call) -> R<Option<Val>> {
        if is_float_intrinsic(n) {
            // Floating point arithmetic (`a * b + c` contracted to `fmuladd`, `fabs`,
            // `floor`): an arbitrary value, as the model's floating point instructions give
            // ([`super::lower`]'s `opaque_float`).
            let ty = self.reg_ty(&self.m.types.type_of(c))?;
            let r = self.made_up("float", ty)?;
            self.warn_once(
                "floating point arithmetic modelled as computing arbitrary values (a bug \
                 reported may depend on them)"
                    .into(),
            );
            return Ok(Some(Val::E(r)));
        }
        if n.starts_with("va_start") {
            return self.va_start(args[0]);
        }
        if n.starts_with("va_end") {
            return Ok(None);
        }
        if n.starts_with("va_copy") {
            let (d, s) = (self.val(args[0])?, self.val(args[1])?);
            self.copy_block(d, s, Expr::constant(24, Ty::ULONG), false, None)?;
            return Ok(None);
        }
        if n.starts_with("dbg.")
            || n.starts_with("lifetime.")
            || n.starts_with("stacksave")
            || n.starts_with("stackrestore")
            || n == "assume"
            || n.starts_with("experimental.noalias")
        {
            return Ok(None);
        }
        if n.starts_with("expect") {
            return Ok(Some(self.val(args[0])?));
        }
        if n == "ubsantrap" {
            // clang's checks (compiled trapping, `compile.rs`); the argument says which, in
            // the `SanitizerHandler` numbering of the pinned clang
            // ([`super::compile::LLVM_MAJOR`]).
            const OUT_OF_BOUNDS: i128 = 18;
            const VLA_BOUND_NOT_POSITIVE: i128 = 24;
            let kind = match args.first().map(|a| self.val(a)).transpose()? {
                Some(Val::E(e)) => e.as_const(),
                _ => None,
            };
            let error = match kind {
                Some(OUT_OF_BOUNDS) => Some(ErrorKind::ArrayBounds),
                Some(VLA_BOUND_NOT_POSITIVE) => Some(ErrorKind::VlaLength),
                _ => None,
            };
            if let Some(error) = error {
                self.flush()?;
                let err = self.special[1];
                self.edge(self.cur, err, Expr::tt(), vec![], TransKind::Error(error))?;
                self.cur = self.new_loc(LocKind::Normal);
                return Ok(None);
            }
            // A signed left shift: LLVM's `shl` has no sign, C11 6.5.7p4 makes the shift
            // undefined. Undefined arithmetic is a limit of the model, no bug it reports.
            self.model_limit(
                "<left shift of a negative value, or whose result does not fit its type>".into(),
                Expr::tt(),
            )?;
            return Ok(None);
        }
        if n.starts_with("threadlocal.address") {
            // The current thread's copy of a thread-local variable.
            return match self.val(args[0])? {
                Val::F(g) if self.tls_globals.contains_key(&g) => Ok(Some(self.tls_global(&g)?)),
                v => Ok(Some(v)),
            };
        }
        if n.starts_with("memcpy.") || n.starts_with("memmove.") {
            let (d, s) = (self.val(args[0])?, self.val(args[1])?);
            let len = self.expr(args[2])?;
            let hint = self
                .pointee_hint(args[0])
                .or_else(|| self.pointee_hint(args[1]));
            self.copy_block(d, s, len, n.starts_with("memmove."), hint)?;
            return Ok(None);
        }
        if n.starts_with("abs.") && args.len() == 2 {
            // `abs(MIN)` is undefined when the flag says it is poison (C's `abs`), and wraps
            // otherwise.
            let a = self.expr(args[0])?;
            let ty = a.ty();
            let (s, u) = (
                Ty { signed: true, ..ty },
                Ty {
                    signed: false,
                    ..ty
                },
            );
            let x = cast(a, s);
            let neg = if self.expr(args[1])?.as_const() != Some(0) {
                bin(BinOp::Sub, Expr::constant(0, s), x.clone(), s)
            } else {
                cast(
                    bin(BinOp::Sub, Expr::constant(0, u), cast(x.clone(), u), u),
                    s,
                )
            };
            let lt = bin(BinOp::Lt, x.clone(), Expr::constant(0, s), Ty::INT);
            return Ok(Some(Val::E(cast(super::lower::ite(lt, neg, x, s), ty))));
        }
        let min_max = [
            ("smax.", true, BinOp::Gt),
            ("smin.", true, BinOp::Lt),
            ("umax.", false, BinOp::Gt),
            ("umin.", false, BinOp::Lt),
        ];
        if let Some(&(_, signed, op)) = min_max
            .iter()
            .find(|(p, ..)| n.starts_with(p) && args.len() == 2)
        {
            let (a, b) = (self.expr(args[0])?, self.expr(args[1])?);
            let ty = a.ty();
            let t = Ty { signed, ..ty };
            let (x, y) = (cast(a, t), cast(b, t));
            let pick = bin(op, x.clone(), y.clone(), Ty::INT);
            return Ok(Some(Val::E(cast(super::lower::ite(pick, x, y, t), ty))));
        }
        if n.starts_with("memset.") {
            let d = self.val(args[0])?;
            let (b, len) = (self.expr(args[1])?, self.expr(args[2])?);
            let hint = self.pointee_hint(args[0]);
            self.set_block(d, b, len, hint)?;
            return Ok(None);
        }
        self.unsupported(format!("intrinsic `llvm.{n}`"))
    }

    /// The mutex operations when the program uses mutex types (recursive, error-checking):
    /// the mutex's kind (glibc's `__kind`: 0 normal, 1 recursive, 2 error-checking) and
    /// recursion count are cells of the mutex beside its owner.
    fn typed_mutex(&mut self, name: &str, args: &[&'m Operand]) -> R<Option<Val>> {
        let timed = matches!(name, "pthread_mutex_timedlock" | "pthread_mutex_clocklock");
        let invalid = if timed {
            match self.timed_call_deadline(name, args)? {
                Some(e) => Some(e),
                None => return Ok(Some(Val::E(Expr::int(22)))),
            }
        } else {
            None
        };
        let v = self.val(args[0])?;
        let owner = self.sync_field(&v, 0, ElemKind::Mutex)?;
        let cp = self.place(&self.offset_by(&v, 4), 4, Ty::UINT)?;
        let kp = self.place(&self.offset_by(&v, 16), 4, Ty::INT)?;
        let ld = |p: &Place, ty: Ty| Expr::Load {
            place: p.clone(),
            ty,
        };
        let (o, c, k) = (ld(&owner, Ty::LONG), ld(&cp, Ty::UINT), ld(&kp, Ty::INT));
        let me = self.me();
        let eq = |a: Expr, b: Expr| bin(BinOp::Eq, a, b, Ty::INT);
        let ne = |a: Expr, b: Expr| bin(BinOp::Ne, a, b, Ty::INT);
        let and = |a: Expr, b: Expr| bin(BinOp::And, a, b, Ty::INT);
        let or = |a: Expr, b: Expr| bin(BinOp::Or, a, b, Ty::INT);
        let zero = || Expr::constant(0, Ty::LONG);
        let recursive = eq(k.clone(), Expr::int(1));
        let checking = eq(k.clone(), Expr::int(2));
        let mine = eq(o.clone(), me.clone());
        let free = eq(o.clone(), zero());
        let r = self.temp("mutex.ret", Ty::INT);
        let ret = |v: i128| Op::Assign {
            place: Place::scalar(r),
            value: Expr::int(v),
        };
        let set = |p: &Place, v: Expr| Op::Assign {
            place: p.clone(),
            value: v,
        };
        let plus = |d: i128| bin(BinOp::Add, c.clone(), Expr::constant(d, Ty::UINT), Ty::UINT);
        self.flush()?;
        let from = self.cur;
        let to = self.new_loc(LocKind::Normal);
        match name {
            "pthread_mutex_init" => {
                let attr = self.val(args[1])?;
                let kind = match &attr {
                    Val::E(e) if e.as_const() == Some(0) => Expr::int(0),
                    a => ld(&self.place(a, 4, Ty::INT)?, Ty::INT),
                };
                let ops = vec![
                    set(&owner, zero()),
                    set(&cp, Expr::constant(0, Ty::UINT)),
                    set(&kp, kind),
                    ret(0),
                ];
                self.edge(
                    from,
                    to,
                    Expr::tt(),
                    ops,
                    TransKind::Sync(SyncKind::MutexInit),
                )?;
            }
            "pthread_mutex_lock" | "pthread_mutex_timedlock" | "pthread_mutex_clocklock" => {
                let kind = TransKind::Sync(SyncKind::Lock);
                // Normal and error-checking mutexes: taken when free.
                let g = and(ne(k.clone(), Expr::int(1)), free.clone());
                self.edge(
                    from,
                    to,
                    g,
                    vec![set(&owner, me.clone()), ret(0)],
                    kind.clone(),
                )?;
                // Recursive: taken when free; one level more when already the caller's
                // (which takes nothing: not a lock).
                let g = and(recursive.clone(), free.clone());
                let ops = vec![set(&owner, me.clone()), set(&cp, plus(1)), ret(0)];
                self.edge(from, to, g, ops, kind.clone())?;
                // (At the count's last value, EAGAIN (11) and no level more.)
                let full = eq(c.clone(), Expr::constant(u32::MAX as i128, Ty::UINT));
                let relock = and(recursive.clone(), mine.clone());
                let g = and(relock.clone(), not(full.clone()));
                let ops = vec![set(&cp, plus(1)), ret(0)];
                self.edge(from, to, g, ops, TransKind::Sync(SyncKind::Atomic))?;
                let g = and(relock, full);
                self.edge(
                    from,
                    to,
                    g,
                    vec![ret(11)],
                    TransKind::Sync(SyncKind::Atomic),
                )?;
                // Error-checking, already the caller's: EDEADLK (35) instead of a deadlock.
                let g = and(checking.clone(), mine.clone());
                self.edge(from, to, g, vec![ret(35)], kind)?;
                // A timed lock times out where the lock call would wait (glibc waits on a
                // normal mutex of its own too).
                if let Some(invalid) = invalid {
                    let waits = and(not(free), not(and(or(recursive, checking), mine)));
                    let kind = TransKind::Sync(SyncKind::TimedOut);
                    self.edge(from, to, waits, vec![timed_out(r, invalid)], kind)?;
                }
            }
            "pthread_mutex_trylock" => {
                // A recursive mutex of the caller's whose count is at its last value: EAGAIN
                // (11); another thread's: EBUSY (16).
                let full = eq(c.clone(), Expr::constant(u32::MAX as i128, Ty::UINT));
                let relock = and(recursive.clone(), mine);
                let ok = or(free, and(relock.clone(), not(full)));
                let refusal = super::lower::ite(relock, Expr::int(11), Expr::int(16), Ty::INT);
                let ops = vec![
                    Op::Assign {
                        place: Place::scalar(r),
                        value: super::lower::ite(ok.clone(), Expr::int(0), refusal, Ty::INT),
                    },
                    set(
                        &cp,
                        super::lower::ite(and(ok.clone(), recursive), plus(1), c.clone(), Ty::UINT),
                    ),
                    set(&owner, super::lower::ite(ok, me, o, Ty::LONG)),
                ];
                self.edge(
                    from,
                    to,
                    Expr::tt(),
                    ops,
                    TransKind::Sync(SyncKind::TryLock),
                )?;
            }
            _ => {
                let kind = TransKind::Sync(SyncKind::Unlock);
                // Recursive, the caller's: one level less; the last level releases it.
                let last = eq(c.clone(), Expr::constant(1, Ty::UINT));
                let ops = vec![set(&cp, plus(-1)), set(&owner, zero()), ret(0)];
                let own_recursive = and(recursive.clone(), mine.clone());
                self.edge(
                    from,
                    to,
                    and(own_recursive.clone(), last.clone()),
                    ops,
                    kind.clone(),
                )?;
                let ops = vec![set(&cp, plus(-1)), ret(0)];
                let g = and(own_recursive, not(last));
                self.edge(from, to, g, ops, TransKind::Sync(SyncKind::Atomic))?;
                // Recursive or error-checking, not the caller's: EPERM (1).
                let g = and(or(recursive.clone(), checking.clone()), not(mine));
                self.edge(from, to, g, vec![ret(1)], kind.clone())?;
                let g = and(
                    ne(k.clone(), Expr::int(1)),
                    or(ne(k, Expr::int(2)), eq(o, me)),
                );
                self.edge(from, to, g, vec![set(&owner, zero()), ret(0)], kind)?;
            }
        }
        self.cur = to;
        Ok(Some(Val::E(Expr::var(r, Ty::INT))))
    }

    /// A non-blocking attempt: when `ok` holds, the assignments run and the result is 0,
    /// otherwise nothing changes and the result is `EBUSY` (16).
    fn try_op(&mut self, ok: Expr, sets: Vec<(Place, Expr)>, kind: SyncKind) -> R<Option<Val>> {
        let r = self.temp("try", Ty::INT);
        let mut ops = vec![Op::Assign {
            place: Place::scalar(r),
            value: super::lower::ite(ok.clone(), Expr::int(0), Expr::int(16), Ty::INT),
        }];
        for (p, v) in sets {
            let t = match &p {
                Place::Deref { ty, .. } => *ty,
                Place::Var { var, .. } => self.vars[var.0 as usize].elem.ty(),
            };
            let old = Expr::Load {
                place: p.clone(),
                ty: t,
            };
            ops.push(Op::Assign {
                place: p,
                value: super::lower::ite(ok.clone(), cast(v, t), old, t),
            });
        }
        self.step(Expr::tt(), ops, TransKind::Sync(kind))?;
        Ok(Some(Val::E(Expr::var(r, Ty::INT))))
    }

    /// `pthread_once(o, f)`: the first caller marks the control running (1), calls `f` and
    /// marks it done (2); the others wait until it is done.
    fn once(&mut self, args: &[&'m Operand]) -> R<Option<Val>> {
        let v = self.val(args[0])?;
        let o = self.place(&v, 4, Ty::INT)?;
        let Val::F(fname) = self.val(args[1])? else {
            return self.unsupported("pthread_once with a function that is not a function name");
        };
        let Some(f) = self.m.functions.iter().find(|g| g.name == fname) else {
            return self.invalid(format!("`{fname}` is not defined"));
        };
        let lo = Expr::Load {
            place: o.clone(),
            ty: Ty::INT,
        };
        self.flush()?;
        let start = self.cur;
        let done = self.new_loc(LocKind::Normal);
        self.edge(
            start,
            done,
            bin(BinOp::Eq, lo.clone(), Expr::int(2), Ty::INT),
            vec![],
            TransKind::Sync(SyncKind::Once),
        )?;
        let run = self.new_loc(LocKind::Normal);
        self.edge(
            start,
            run,
            bin(BinOp::Eq, lo, Expr::int(0), Ty::INT),
            vec![Op::Assign {
                place: o.clone(),
                value: Expr::int(1),
            }],
            TransKind::Sync(SyncKind::Once),
        )?;
        self.cur = run;
        let span = self.span;
        self.inline(f, vec![])?;
        self.span = span;
        self.step(
            Expr::tt(),
            vec![Op::Assign {
                place: o,
                value: Expr::int(2),
            }],
            TransKind::Sync(SyncKind::Once),
        )?;
        self.edge(self.cur, done, Expr::tt(), vec![], TransKind::Stmt)?;
        self.cur = done;
        Ok(self.ret0())
    }

    /// The ghost counter of thread-specific data keys.
    fn key_counter(&mut self) -> VarId {
        if let Some(v) = self.keys {
            return v;
        }
        let v = self.new_var(
            "__pthread_keys".into(),
            ElemKind::Int(Ty::LONG),
            1,
            false,
            VarScope::Ghost,
            Init::Zero,
            None,
        );
        self.keys = Some(v);
        v
    }

    /// The functions `pthread_key_create` calls in the module name as destructors, and the
    /// ghost table of each key's destructor.
    fn key_destructors(&mut self) -> (Vec<String>, VarId) {
        if let Some(d) = &self.key_dtors {
            return d.clone();
        }
        let mut names: Vec<String> = Vec::new();
        for f in &self.m.functions {
            for i in f.basic_blocks.iter().flat_map(|b| &b.instrs) {
                if super::loops::callee(i).as_deref() != Some("pthread_key_create") {
                    continue;
                }
                let llvm_ir::Instruction::Call(c) = i else {
                    continue;
                };
                if let Some((Operand::ConstantOperand(k), _)) = c.arguments.get(1) {
                    if let llvm_ir::Constant::GlobalReference { name, .. } = k.as_ref() {
                        let n = super::lower::name_str(name);
                        if !names.contains(&n) {
                            names.push(n);
                        }
                    }
                }
            }
        }
        let table = self.new_var(
            "__pthread_key_destructors".into(),
            ElemKind::Int(Ty::LONG),
            super::lower::MAX_KEYS as u32,
            true,
            VarScope::Ghost,
            Init::Zero,
            None,
        );
        self.key_dtors = Some((names, table));
        self.key_dtors.clone().expect("just set")
    }

    /// At a thread's exit (return from its function or `pthread_exit`), the destructors of
    /// its thread-specific data, as POSIX runs them: for each key with a destructor and a
    /// value that is not null, the value is set to null and the destructor called with the
    /// old value; while a round leaves values set, again, for at most
    /// `PTHREAD_DESTRUCTOR_ITERATIONS` (4, glibc's) rounds. `main`'s return calls `exit`,
    /// which runs none.
    pub(super) fn run_key_destructors(&mut self) -> R<()> {
        if self.tid.0 == 0 {
            return Ok(());
        }
        let (names, table) = self.key_destructors();
        if names.is_empty() {
            return Ok(());
        }
        let slots = self.key_slots()?;
        let long = |v: VarId| Expr::var(v, Ty::LONG);
        let (round, i, again) = (
            self.temp("dtor.round", Ty::LONG),
            self.temp("dtor.key", Ty::LONG),
            self.temp("dtor.again", Ty::LONG),
        );
        let value = self.temp("dtor.value", Ty::ULONG);
        let which = self.temp("dtor.which", Ty::LONG);
        let set = |v: VarId, x: Expr| Op::Assign {
            place: Place::scalar(v),
            value: x,
        };
        let c = |x: i128| Expr::constant(x, Ty::LONG);
        self.step(Expr::tt(), vec![set(round, c(0))], TransKind::Stmt)?;
        let outer = self.cur;
        self.step(
            Expr::tt(),
            vec![set(i, c(0)), set(again, c(0))],
            TransKind::Stmt,
        )?;
        let inner = self.cur;
        let (body, after) = (self.new_loc(LocKind::Normal), self.new_loc(LocKind::Normal));
        let more = bin(
            BinOp::Lt,
            long(i),
            c(super::lower::MAX_KEYS as i128),
            Ty::INT,
        );
        self.edge(inner, body, more.clone(), vec![], TransKind::Branch)?;
        self.edge(inner, after, not(more), vec![], TransKind::Branch)?;
        self.cur = body;
        let slot = Place::Var {
            var: slots,
            index: Some(Box::new(long(i))),
        };
        self.step(
            Expr::tt(),
            vec![
                set(
                    value,
                    Expr::Load {
                        place: slot.clone(),
                        ty: Ty::ULONG,
                    },
                ),
                set(
                    which,
                    Expr::Load {
                        place: Place::Var {
                            var: table,
                            index: Some(Box::new(long(i))),
                        },
                        ty: Ty::LONG,
                    },
                ),
            ],
            TransKind::Stmt,
        )?;
        let check = self.cur;
        let next = self.new_loc(LocKind::Normal);
        let held = bin(
            BinOp::Ne,
            Expr::var(value, Ty::ULONG),
            Expr::constant(0, Ty::ULONG),
            Ty::INT,
        );
        let none = bin(
            BinOp::Or,
            not(held.clone()),
            bin(BinOp::Eq, long(which), c(0), Ty::INT),
            Ty::INT,
        );
        self.edge(check, next, none, vec![], TransKind::Branch)?;
        for (j, name) in names.iter().enumerate() {
            let g = bin(
                BinOp::And,
                held.clone(),
                bin(BinOp::Eq, long(which), c(j as i128 + 1), Ty::INT),
                Ty::INT,
            );
            let call = self.new_loc(LocKind::Normal);
            self.edge(
                check,
                call,
                g,
                vec![
                    Op::Assign {
                        place: slot.clone(),
                        value: Expr::constant(0, Ty::ULONG),
                    },
                    set(again, c(1)),
                ],
                TransKind::Stmt,
            )?;
            self.cur = call;
            let arg = Val::E(Expr::var(value, Ty::ULONG));
            match self.funcs.get(name.as_str()).copied() {
                Some(f) => {
                    self.inline(f, vec![arg])?;
                }
                None if name == "free" => {
                    self.free_val(arg)?;
                }
                None => {
                    return self
                        .unsupported(format!("the thread-specific data destructor `{name}`"))
                }
            }
            self.flush()?;
            self.edge(self.cur, next, Expr::tt(), vec![], TransKind::Stmt)?;
        }
        self.edge(
            next,
            inner,
            Expr::tt(),
            vec![set(i, bin(BinOp::Add, long(i), c(1), Ty::LONG))],
            TransKind::Stmt,
        )?;
        self.cur = after;
        self.step(
            Expr::tt(),
            vec![set(round, bin(BinOp::Add, long(round), c(1), Ty::LONG))],
            TransKind::Stmt,
        )?;
        let repeat = bin(
            BinOp::And,
            bin(BinOp::Ne, long(again), c(0), Ty::INT),
            bin(BinOp::Lt, long(round), c(4), Ty::INT),
            Ty::INT,
        );
        let done = self.new_loc(LocKind::Normal);
        self.edge(self.cur, outer, repeat.clone(), vec![], TransKind::Branch)?;
        self.edge(self.cur, done, not(repeat), vec![], TransKind::Branch)?;
        self.cur = done;
        Ok(())
    }

    /// The current thread's values of thread-specific data keys (null at the start).
    fn key_slots(&mut self) -> R<VarId> {
        let ty = self
            .m
            .types
            .array_of(self.m.types.pointer(), super::lower::MAX_KEYS);
        let Val::P { obj, .. } = self.tls_typed("pthread_keys", &ty)? else {
            unreachable!("a thread-local object")
        };
        Ok(obj)
    }

    /// The place of the current thread's `errno`.
    /// An attribute setter: `v` into the attribute's cell `p` and 0 where `v` is at most
    /// `max` (unsigned), EINVAL (22) and the cell kept otherwise.
    fn set_attribute(&mut self, p: Place, v: Expr, max: i128) -> R<Option<Val>> {
        if let Some(k) = self.const_eval(&v) {
            if !(0..=max).contains(&k) {
                return Ok(Some(Val::E(Expr::int(22))));
            }
            self.access_step(vec![Op::Assign { place: p, value: v }], TransKind::Stmt)?;
            return Ok(self.ret0());
        }
        let known = bin(
            BinOp::Le,
            cast(v.clone(), Ty::UINT),
            Expr::constant(max, Ty::UINT),
            Ty::INT,
        );
        let old = Expr::Load {
            place: p.clone(),
            ty: Ty::INT,
        };
        self.access_step(
            vec![Op::Assign {
                place: p,
                value: super::lower::ite(known.clone(), v, old, Ty::INT),
            }],
            TransKind::Stmt,
        )?;
        Ok(Some(Val::E(super::lower::ite(
            known,
            Expr::int(0),
            Expr::int(22),
            Ty::INT,
        ))))
    }

    /// An attribute getter: the attribute's cell `p` (its bits in `mask`) into `*out`; 0.
    fn get_attribute(&mut self, p: Place, out: &'m Operand, mask: Option<i128>) -> R<Option<Val>> {
        let out = self.val(out)?;
        let o = self.place(&out, 4, Ty::INT)?;
        let mut value = Expr::Load {
            place: p,
            ty: Ty::INT,
        };
        if let Some(m) = mask {
            value = bin(BinOp::BitAnd, value, Expr::constant(m, Ty::INT), Ty::INT);
        }
        self.access_step(vec![Op::Assign { place: o, value }], TransKind::Stmt)?;
        Ok(self.ret0())
    }

    /// The detached flag of the thread with id `t` (main's, unused, for `NO_THREAD`).
    fn detached_place(&self, dv: VarId, t: &Expr, none: &Expr) -> Place {
        Place::Var {
            var: dv,
            index: Some(Box::new(super::lower::ite(
                none.clone(),
                Expr::constant(0, Ty::LONG),
                crate::ir::thread_index(t.clone()),
                Ty::LONG,
            ))),
        }
    }

    /// The result of a call that returns -1 and sets `errno` to `code` where `failed` holds,
    /// and returns 0 otherwise (`errno` unchanged).
    fn fail_with_errno(&mut self, failed: Expr, code: Expr) -> R<Option<Val>> {
        let e = self.errno_place()?;
        let old = Expr::Load {
            place: e.clone(),
            ty: Ty::INT,
        };
        let value = super::lower::ite(failed.clone(), code, old, Ty::INT);
        let set = Op::Assign { place: e, value };
        self.step(Expr::tt(), vec![set], TransKind::Stmt)?;
        let result = super::lower::ite(failed, Expr::int(-1), Expr::int(0), Ty::INT);
        Ok(Some(Val::E(result)))
    }

    fn errno_place(&mut self) -> R<Place> {
        let p = self.tls_object("errno", 4)?;
        self.place(&p, 4, Ty::INT)
    }

    /// Reads the deadline `ts` points to (a `struct timespec`) in a step of its own: whether
    /// its nanoseconds lie outside [0, 10^9), for which glibc's timed calls return `EINVAL`,
    /// and whether its seconds are negative (a timed lock's futex wait then times out at
    /// once, before the kernel sees the nanoseconds, in glibc 2.34 and later).
    fn deadline(&mut self, ts: &'m Operand) -> R<(Expr, Expr)> {
        let ts = self.val(ts)?;
        let sec_at = self.place(&ts, 8, Ty::LONG)?;
        let ns_at = self.place(&self.offset_by(&ts, 8), 8, Ty::LONG)?;
        let (sec, ns) = (
            self.temp("deadline.sec", Ty::LONG),
            self.temp("deadline.nsec", Ty::LONG),
        );
        let read = |v: VarId, place: Place| Op::Assign {
            place: Place::scalar(v),
            value: Expr::Load {
                place,
                ty: Ty::LONG,
            },
        };
        self.access_step(vec![read(sec, sec_at), read(ns, ns_at)], TransKind::Stmt)?;
        let invalid = bin(
            BinOp::Ge,
            cast(Expr::var(ns, Ty::LONG), Ty::ULONG),
            Expr::constant(1_000_000_000, Ty::ULONG),
            Ty::INT,
        );
        let zero = Expr::constant(0, Ty::LONG);
        let negative = bin(BinOp::Lt, Expr::var(sec, Ty::LONG), zero, Ty::INT);
        Ok((invalid, negative))
    }

    /// The clock argument of `pthread_mutex_clocklock` and `sem_clockwait`: `Ok(true)` for
    /// the clocks glibc's futexes wait on (`CLOCK_REALTIME`, `CLOCK_MONOTONIC`), `Ok(false)`
    /// for another constant (the call returns `EINVAL` at once).
    fn waiting_clock(&mut self, name: &str, clock: &'m Operand) -> R<bool> {
        match self.expr(clock)?.as_const() {
            Some(0 | 1) => Ok(true),
            Some(_) => Ok(false),
            None => self.unsupported(format!("`{name}` with a clock computed at run time")),
        }
    }

    /// The deadline of a timed lock or semaphore wait (`pthread_mutex_timedlock`,
    /// `sem_timedwait`, and with a clock before it `pthread_mutex_clocklock` and
    /// `sem_clockwait`): where the call does not take the mutex or decrement the value,
    /// whether it returns `EINVAL` rather than `ETIMEDOUT` ([`Lowerer::deadline`]: an invalid
    /// deadline, whose seconds, for a lock, are not negative); `None` where the clock is one
    /// glibc refuses with `EINVAL` before anything else.
    fn timed_call_deadline(&mut self, name: &str, args: &[&'m Operand]) -> R<Option<Expr>> {
        let ts = if name.contains("clock") {
            if !self.waiting_clock(name, args[1])? {
                return Ok(None);
            }
            args[2]
        } else {
            args[1]
        };
        let (invalid, negative) = self.deadline(ts)?;
        Ok(Some(if name.starts_with("sem_") {
            invalid
        } else {
            bin(BinOp::And, invalid, not(negative), Ty::INT)
        }))
    }

    /// `pthread_cond_wait`, or with `timed` `pthread_cond_timedwait`, whose timeout the
    /// scheduler may choose at any time while the thread waits (the thread then stops waiting
    /// and the call returns `ETIMEDOUT`, 110).
    fn cond_wait(&mut self, args: &[&'m Operand], timed: bool) -> R<Option<Val>> {
        if self.tid.0 >= MAX_COND_THREADS {
            return self.unsupported(format!(
                "pthread_cond_wait in a thread with id >= {MAX_COND_THREADS}"
            ));
        }
        let c = self.sync_place(args[0], ElemKind::Cond)?;
        let m = self.sync_place(args[1], ElemKind::Mutex)?;
        let r = self.temp("wait.ret", Ty::INT);
        // glibc refuses a timeout whose nanoseconds lie outside [0, 10^9) with EINVAL at once,
        // the mutex still held.
        let refused = if timed {
            let (out, _) = self.deadline(args[2])?;
            let from = self.cur;
            let rest = self.new_loc(LocKind::Normal);
            self.edge(
                from,
                rest,
                super::lower::not(out.clone()),
                vec![],
                TransKind::Stmt,
            )?;
            self.cur = rest;
            Some((from, out))
        } else {
            None
        };
        self.waits.push((self.tid.0, c.clone()));
        let bit = Expr::constant(1i128 << self.tid.0, Ty::ULONG);
        let cv = Expr::Load {
            place: c.clone(),
            ty: Ty::ULONG,
        };
        self.step(
            Expr::tt(),
            vec![
                Op::Assign {
                    place: c.clone(),
                    value: bin(BinOp::BitOr, cv.clone(), bit.clone(), Ty::ULONG),
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
            bin(BinOp::BitAnd, cv.clone(), bit.clone(), Ty::ULONG),
            Expr::constant(0, Ty::ULONG),
            Ty::INT,
        );
        let wake = self.step(
            woken,
            vec![Op::Assign {
                place: Place::scalar(r),
                value: Expr::int(0),
            }],
            TransKind::Sync(SyncKind::CondWaitWake),
        )?;
        if timed {
            // The timeout: the thread's bit cleared by itself, whoever signals later.
            let src = self.tb.transitions[wake.0 as usize].src;
            let dst = self.tb.transitions[wake.0 as usize].dst;
            let not_bit = Expr::constant(!(1i128 << self.tid.0) & u64::MAX as i128, Ty::ULONG);
            self.edge(
                src,
                dst,
                Expr::tt(),
                vec![
                    Op::Assign {
                        place: c.clone(),
                        value: bin(BinOp::BitAnd, cv, not_bit, Ty::ULONG),
                    },
                    Op::Assign {
                        place: Place::scalar(r),
                        value: Expr::int(110),
                    },
                ],
                TransKind::Sync(SyncKind::CondWaitTimeout),
            )?;
        }
        let g = bin(
            BinOp::Eq,
            Expr::Load {
                place: m.clone(),
                ty: Ty::LONG,
            },
            Expr::constant(0, Ty::LONG),
            Ty::INT,
        );
        let me = self.me();
        self.step(
            g,
            vec![Op::Assign {
                place: m,
                value: me,
            }],
            TransKind::Sync(SyncKind::Lock),
        )?;
        if let Some((from, out)) = refused {
            self.edge(
                from,
                self.cur,
                out,
                vec![Op::Assign {
                    place: Place::scalar(r),
                    value: Expr::int(22),
                }],
                TransKind::Stmt,
            )?;
        }
        Ok(Some(Val::E(Expr::var(r, Ty::INT))))
    }

    /// A read or write lock of a rwlock whose writer cell is `w`: when the lock is `free`,
    /// `place` takes `value` and the call returns 0; glibc refuses the lock to the thread that
    /// holds it for writing with EDEADLK (35) at once.
    fn relock(
        &mut self,
        place: Place,
        value: Expr,
        free: Expr,
        w: &Place,
        kind: SyncKind,
    ) -> R<Option<Val>> {
        let mine = bin(
            BinOp::Eq,
            Expr::Load {
                place: w.clone(),
                ty: Ty::LONG,
            },
            self.me(),
            Ty::INT,
        );
        let r = self.temp("rwlock.ret", Ty::INT);
        let old = Expr::Load {
            place: place.clone(),
            ty: Ty::LONG,
        };
        self.step(
            bin(BinOp::Or, free, mine.clone(), Ty::INT),
            vec![
                Op::Assign {
                    place: Place::scalar(r),
                    value: super::lower::ite(mine.clone(), Expr::int(35), Expr::int(0), Ty::INT),
                },
                Op::Assign {
                    place,
                    value: super::lower::ite(mine, old, value, Ty::LONG),
                },
            ],
            TransKind::Sync(kind),
        )?;
        Ok(Some(Val::E(Expr::var(r, Ty::INT))))
    }

    fn barrier_wait(&mut self, args: &[&'m Operand]) -> R<Option<Val>> {
        let load = |p: &Place| Expr::Load {
            place: p.clone(),
            ty: Ty::LONG,
        };
        let v = self.val(args[0])?;
        let b = self.sync_field(&v, 0, ElemKind::Barrier)?;
        let np = self.sync_field(&v, 8, ElemKind::Int(Ty::LONG))?;
        let gp = self.sync_field(&v, 16, ElemKind::Int(Ty::LONG))?;
        let my = self.temp("barrier.gen", Ty::LONG);
        let ret = self.temp("barrier.ret", Ty::INT);
        let cnt = load(&b);
        let one = || Expr::constant(1, Ty::LONG);
        let last = bin(
            BinOp::Eq,
            bin(BinOp::Add, cnt.clone(), one(), Ty::LONG),
            load(&np),
            Ty::INT,
        );
        use super::lower::ite;
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
                    value: ite(last.clone(), Expr::int(-1), Expr::int(0), Ty::INT),
                },
                Op::Assign {
                    place: gp.clone(),
                    value: ite(
                        last.clone(),
                        bin(BinOp::Add, load(&gp), one(), Ty::LONG),
                        load(&gp),
                        Ty::LONG,
                    ),
                },
                Op::Assign {
                    place: b.clone(),
                    value: ite(
                        last,
                        Expr::constant(0, Ty::LONG),
                        bin(BinOp::Add, cnt, one(), Ty::LONG),
                        Ty::LONG,
                    ),
                },
            ],
            TransKind::Sync(SyncKind::BarrierArrive),
        )?;
        let g = bin(BinOp::Ne, load(&gp), Expr::var(my, Ty::LONG), Ty::INT);
        self.step(g, vec![], TransKind::Sync(SyncKind::BarrierLeave))?;
        Ok(Some(Val::E(Expr::var(ret, Ty::INT))))
    }

    fn spawn(&mut self, args: &[&'m Operand]) -> R<Option<Val>> {
        let Val::F(f) = self.val(args[2])? else {
            return self.unsupported("thread start routine that is not a function name");
        };
        let child = self.new_thread(&f)?;
        let takes_param = self
            .m
            .functions
            .iter()
            .find(|g| g.name == f)
            .is_some_and(|g| !g.parameters.is_empty());
        let start = Start {
            creation: self.creation_number(),
            function: f.clone(),
            arg: match self.val(args[3]) {
                _ if !takes_param => Some("unused".into()),
                Ok(v) => fixed_arg(&v),
                Err(_) => None,
            },
        };
        let mut ops = Vec::new();
        let tv = self.val(args[0])?;
        let is_null = matches!(&tv, Val::E(e) if e.as_const() == Some(0));
        if !is_null {
            let place = self.place(&tv, 8, Ty::ULONG)?;
            ops.push(Op::Assign {
                place,
                value: child.map_or_else(crate::ir::no_thread, |c| {
                    Expr::constant(crate::ir::thread_id(c), Ty::ULONG)
                }),
            });
        }
        let Some(child) = child else {
            // The thread bound: the creation fails with EAGAIN (11) and leaves `NO_THREAD` as
            // the id, which the runtime's creation writes too. Its step writes only the id
            // (the pending assignments run before it), so that what reads it can be told
            // ([`Program::error_needs_bound`]); a read of its result marks the step
            // ([`Lowerer::val`]).
            self.flush()?;
            let t = self.step(Expr::tt(), ops, TransKind::Stmt)?;
            self.tb.transitions[t.0 as usize].refusal = Some(Refusal::ResultUnread);
            self.tb.transitions[t.0 as usize].starts = Some(start);
            self.last_refusal = Some(t);
            return Ok(Some(Val::E(Expr::int(11))));
        };
        // The argument: a pointer into a known object stays symbolic in the new thread (its
        // run-time index terms captured in locals of the new thread); anything else is a
        // value the new thread receives in a local.
        let arg = self.val(args[3])?;
        let func = self
            .m
            .functions
            .iter()
            .find(|g| g.name == f)
            .expect("defined");
        let mut spawn_args = Vec::new();
        let param = match (func.parameters.first(), arg) {
            (None, _) => None,
            (Some(_), Val::P { obj, off, dyn_ }) => {
                let mut d = Vec::new();
                for (k, (e, s)) in dyn_.into_iter().enumerate() {
                    if e.as_const().is_some() {
                        d.push((e, s));
                        continue;
                    }
                    let v = self.new_var(
                        format!("{child}:{f}::$arg.{k}"),
                        ElemKind::Int(Ty::LONG),
                        1,
                        false,
                        VarScope::Local(child),
                        Init::Zero,
                        None,
                    );
                    spawn_args.push((v, cast(e, Ty::LONG)));
                    d.push((Expr::var(v, Ty::LONG), s));
                }
                Some(Val::P { obj, off, dyn_: d })
            }
            (Some(p), v) => {
                let e = match v {
                    Val::E(e) => e,
                    v => self.addr_expr(&v),
                };
                if e.as_const().is_some() {
                    Some(Val::E(cast(e, Ty::ULONG)))
                } else {
                    let pv = self.new_var(
                        format!("{child}:{f}::{}", super::lower::name_str(&p.name)),
                        ElemKind::Ptr,
                        1,
                        false,
                        VarScope::Local(child),
                        Init::Zero,
                        None,
                    );
                    spawn_args.push((pv, cast(e, Ty::ULONG)));
                    Some(Val::E(Expr::var(pv, Ty::ULONG)))
                }
            }
        };
        // Created detached where its attributes say so (`pthread_attr_setdetachstate`).
        if let Some(dv) = self.thread_detached {
            let attr = self.val(args[1])?;
            if !matches!(&attr, Val::E(e) if e.as_const() == Some(0)) {
                let flags = self.place(&self.offset_by(&attr, ATTR_FLAGS), 4, Ty::INT)?;
                ops.push(Op::Assign {
                    place: Place::Var {
                        var: dv,
                        index: Some(Box::new(Expr::constant(child.0 as i128, Ty::LONG))),
                    },
                    value: bin(
                        BinOp::BitAnd,
                        Expr::Load {
                            place: flags,
                            ty: Ty::INT,
                        },
                        Expr::int(1),
                        Ty::INT,
                    ),
                });
            }
        }
        ops.push(Op::Spawn {
            thread: child,
            args: spawn_args,
        });
        let t = self.step(Expr::tt(), ops, TransKind::Sync(SyncKind::Spawn))?;
        self.tb.transitions[t.0 as usize].starts = Some(start);
        self.queue_thread(child, &f, param, t);
        Ok(self.ret0())
    }
}

/// A thread argument that is the same in every execution, as a string equal for equal
/// arguments ([`Start::arg`]): a constant, or an address with a fixed offset into an object.
fn fixed_arg(v: &Val) -> Option<String> {
    match v {
        Val::E(e) => e.as_const().map(|c| c.to_string()),
        Val::P { obj, off, dyn_ } => {
            let mut at = *off as i128;
            for (e, stride) in dyn_ {
                at += e.as_const()? * *stride as i128;
            }
            Some(format!("&{}+{at}", obj.0))
        }
        Val::F(name) => Some(format!("@{name}")),
        Val::Tuple(_) => None,
    }
}

fn kind_name(k: ElemKind) -> &'static str {
    match k {
        ElemKind::Mutex => "mutex",
        ElemKind::Cond => "condition variable",
        ElemKind::Barrier => "barrier",
        _ => "value",
    }
}

/// Whether evaluating `e` cannot fail (no undefined behaviour): constants, reads of places
/// `named` accepts, comparisons, bitwise and logical operations, conversions and choices.
fn cannot_fail(e: &Expr, named: &impl Fn(&Place) -> bool) -> bool {
    match e {
        Expr::Const { .. } => true,
        Expr::Load { place, .. } => named(place),
        Expr::AddrOf { .. } => false,
        Expr::Unary { op, arg, .. } => {
            matches!(op, UnOp::BitNot | UnOp::Not) && cannot_fail(arg, named)
        }
        Expr::Binary { op, lhs, rhs, .. } => {
            use BinOp::*;
            matches!(
                op,
                BitAnd | BitOr | BitXor | Lt | Le | Gt | Ge | Eq | Ne | And | Or
            ) && cannot_fail(lhs, named)
                && cannot_fail(rhs, named)
        }
        Expr::Cast { arg, .. } => cannot_fail(arg, named),
        Expr::Ite {
            cond, then, els, ..
        } => cannot_fail(cond, named) && cannot_fail(then, named) && cannot_fail(els, named),
    }
}

/// Whether `llvm.{n}` is floating point arithmetic on floating point values (the ones clang
/// emits for C's arithmetic and `<math.h>`'s functions it knows).
fn is_float_intrinsic(n: &str) -> bool {
    let Some((base, ty)) = n.split_once('.') else {
        return false;
    };
    matches!(ty, "f32" | "f64" | "f80" | "f128")
        && matches!(
            base,
            "fmuladd"
                | "fma"
                | "fabs"
                | "sqrt"
                | "floor"
                | "ceil"
                | "trunc"
                | "round"
                | "roundeven"
                | "rint"
                | "nearbyint"
                | "minnum"
                | "maxnum"
                | "minimum"
                | "maximum"
                | "copysign"
                | "pow"
                | "exp"
                | "exp2"
                | "log"
                | "log2"
                | "log10"
                | "sin"
                | "cos"
        )
}

/// A timed call's result where it does not take the mutex or decrement the value:
/// `EINVAL` (22) for an invalid deadline, otherwise `ETIMEDOUT` (110).
fn timed_out(result: VarId, invalid: Expr) -> Op {
    Op::Assign {
        place: Place::scalar(result),
        value: super::lower::ite(invalid, Expr::int(22), Expr::int(110), Ty::INT),
    }
}

/// The most bytes a string conversion reads, as `read_loop` takes it: all ones (every byte up
/// to the null one) without a precision or with a negative one, the precision otherwise.
fn string_bound(precision: Option<Expr>) -> Expr {
    precision.map_or(Expr::constant(-1, Ty::LONG), |m| {
        let negative = bin(BinOp::Lt, m.clone(), Expr::constant(0, Ty::LONG), Ty::INT);
        super::lower::ite(negative, Expr::constant(-1, Ty::LONG), m, Ty::LONG)
    })
}
