//! The C interface of the enforcer (DESIGN.md, "Enforcement protocol"): what an instrumented
//! program calls. A thin layer over [`crate::enforcer`]: null checks, a panic boundary on
//! every exported function (a panic prints a message and aborts: it never unwinds into C),
//! typed status codes.
//!
//! The enforcer lives in a process-wide [`OnceLock`], set by [`synth_start`]; the calling
//! thread's [`ThreadCtx`] in a thread-local (a `RefCell` with a const initialiser, so that an
//! access costs no lazy initialisation; a call works on the context in place). A deviation from the schedule prints
//! `synth: deviation from the schedule: ...` (thread, site, section, expected event) to
//! stderr and aborts the process: the program never continues unconstrained. So does a call
//! before [`synth_start`] or from a thread that [`synth_thread_begin`] did not register.
//!
//! The calls of an instrumented program (seed 002, "Implementation"):
//!
//! * `main` calls [`synth_start`] first (and exits when it fails);
//! * every event: [`synth_before`]`(site)`, the access or call, [`synth_after`]`(site)`;
//! * a branch whose arms are sites: `if (synth_branch(s_true, s_false, c))`;
//! * `pthread_create` becomes [`synth_pthread_create`], whose trampoline registers the new
//!   thread and reports its exit when its start function returns (or the pair
//!   [`synth_spawn_before`] / [`synth_after`] with [`synth_thread_begin`] and
//!   [`synth_thread_exit`] by hand); `pthread_exit` is preceded by [`synth_thread_exit`];
//! * an assumption the inputs violate: [`synth_fail`].

use crate::enforcer::{Deviation, Enforcer, ThreadCtx};
use crate::schedule::Schedule;
use crate::table::{SynthSchedule, SynthStatus, SYNTH_NONE};
use std::cell::RefCell;
use std::ffi::CStr;
use std::fmt;
use std::io::Write;
use std::os::raw::{c_char, c_int, c_ulong, c_void};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::OnceLock;

static ENFORCER: OnceLock<Enforcer> = OnceLock::new();

/// `SYNTH_TRACE` set at start: every event is printed to stderr (for finding out where a run
/// stops).
static TRACE: AtomicBool = AtomicBool::new(false);

/// Prints one event of the trace.
#[cold]
fn trace(what: &str, site: u32) {
    let section = ENFORCER.get().map_or(u32::MAX, Enforcer::current_section);
    let thread = CTX.with(|c| c.borrow().as_ref().map_or(u32::MAX, ThreadCtx::thread));
    let _ = writeln!(
        std::io::stderr(),
        "synth trace: thread {thread} {what} site {site} (section {section})"
    );
}

thread_local! {
    static CTX: RefCell<Option<ThreadCtx<'static>>> = const { RefCell::new(None) };
}

/// Prints `synth: <message>` to stderr and aborts.
#[cold]
fn die(message: fmt::Arguments<'_>) -> ! {
    let _ = writeln!(std::io::stderr(), "synth: {message}");
    std::process::abort()
}

#[cold]
fn deviate(d: &Deviation) -> ! {
    die(format_args!("deviation from the schedule: {d}"))
}

/// Runs `f`; a panic aborts the process instead of unwinding into C. The calling thread's
/// `errno` is the program's: the runtime's own waiting (a futex wait that times out) may set
/// it, so it is restored before the call returns.
#[inline]
fn boundary<R>(function: &str, f: impl FnOnce() -> R) -> R {
    let errno = errno_location();
    // SAFETY: the C library's `errno` of the calling thread, valid for the thread's life.
    let saved = unsafe { *errno };
    let r = match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(_) => die(format_args!(
            "internal error (panic) in {function}; aborting"
        )),
    };
    // SAFETY: as above.
    unsafe { *errno = saved };
    r
}

/// The address of the calling thread's C `errno`.
fn errno_location() -> *mut c_int {
    extern "C" {
        fn __errno_location() -> *mut c_int;
    }
    // SAFETY: glibc's and musl's `__errno_location` take nothing and never fail.
    unsafe { __errno_location() }
}

fn enforcer(function: &str) -> &'static Enforcer {
    match ENFORCER.get() {
        Some(e) => e,
        None => die(format_args!("{function} called before synth_start")),
    }
}

/// Runs `f` with the enforcer and the calling thread's context; a deviation aborts.
#[inline]
fn with_ctx<R>(
    function: &str,
    f: impl FnOnce(&'static Enforcer, &mut ThreadCtx<'static>) -> Result<R, Box<Deviation>>,
) -> R {
    boundary(function, || {
        let e = enforcer(function);
        // In place: one thread-local access, and no copy of the context in and out (whose
        // partial stores the next call's load would wait for).
        let r = CTX.with(|c| {
            let mut c = c.borrow_mut();
            let Some(ctx) = c.as_mut() else {
                die(format_args!(
                    "{function} called from a thread the enforcer does not know (the thread \
                     must call synth_thread_begin first)"
                ))
            };
            f(e, ctx)
        });
        r.unwrap_or_else(|d| deviate(&d))
    })
}

/// Starts enforcing schedule `s` on this process: validates the tables, refuses a schedule
/// made for another program (`program_sha256`, hex, is the instrumented program's SHA-256) or
/// one that could never make progress, and registers the calling thread as thread 0
/// (`main`). On failure prints the reason to stderr and returns the status (the caller exits);
/// returns `SYNTH_STATUS_OK` otherwise. Call it once, first thing in `main`.
///
/// # Safety
/// `s` must be null or point to a `SynthSchedule` whose non-null pointers point to arrays of
/// the lengths it states and to NUL-terminated strings (what `prog.sched.h` defines), alive
/// for the rest of the process; `program_sha256` must be null or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn synth_start(
    s: *const SynthSchedule,
    program_sha256: *const c_char,
) -> SynthStatus {
    boundary("synth_start", || {
        let fail = |status: SynthStatus, why: &dyn fmt::Display| {
            let _ = writeln!(std::io::stderr(), "synth: cannot start: {why}");
            status
        };
        if ENFORCER.get().is_some() {
            return fail(
                SynthStatus::AlreadyStarted,
                &"synth_start was already called",
            );
        }
        if program_sha256.is_null() {
            return fail(
                SynthStatus::Null,
                &"the program's SHA-256 is a null pointer",
            );
        }
        let sha = unsafe { CStr::from_ptr(program_sha256) }.to_string_lossy();
        let started = unsafe { Schedule::from_tables(s) }.and_then(|s| Enforcer::new(s, &sha));
        let e = match started {
            Ok(e) => e,
            Err(err) => return fail(err.status(), &err),
        };
        TRACE.store(std::env::var_os("SYNTH_TRACE").is_some(), Relaxed);
        if ENFORCER.set(e).is_err() {
            return fail(
                SynthStatus::AlreadyStarted,
                &"synth_start was already called",
            );
        }
        match enforcer("synth_start").register(0) {
            Ok(ctx) => CTX.with(|c| *c.borrow_mut() = Some(ctx)),
            Err(d) => deviate(&d),
        }
        SynthStatus::Ok
    })
}

/// Registers the calling thread as thread `id` of the schedule (call it first thing in the
/// thread's start function, with the id that `synth_spawn_before` returned to its creator). An
/// unknown id, an id registered before, or a thread registered twice aborts.
#[no_mangle]
pub extern "C" fn synth_thread_begin(id: u32) {
    boundary("synth_thread_begin", || {
        let e = enforcer("synth_thread_begin");
        if let Some(t) = CTX.with(|c| c.borrow().as_ref().map(ThreadCtx::thread)) {
            die(format_args!(
                "synth_thread_begin({id}) from a thread already registered as thread {t}"
            ));
        }
        match e.register(id) {
            Ok(ctx) => CTX.with(|c| *c.borrow_mut() = Some(ctx)),
            Err(d) => deviate(&d),
        }
    })
}

/// Before the event at `site` that creates a thread (`pthread_create`): checks and waits as
/// `synth_before`, and returns the id of the thread this call creates, to pass to the new
/// thread's `synth_thread_begin`. Call `synth_after(site)` once the thread is created.
#[no_mangle]
pub extern "C" fn synth_spawn_before(site: u32) -> u32 {
    with_ctx("synth_spawn_before", |e, ctx| e.spawn_before(ctx, site))
}

/// Before the calling thread performs the event at `site`: aborts when it is not the thread's
/// next event of the schedule, and waits until the events it depends on are complete.
#[no_mangle]
pub extern "C" fn synth_before(site: u32) {
    if !fast(|e, ctx| e.before_fast(ctx, site)) {
        before_slow(site);
    }
}

#[cold]
#[inline(never)]
fn before_slow(site: u32) {
    if TRACE.load(Relaxed) {
        trace("before", site);
    }
    with_ctx("synth_before", |e, ctx| e.before(ctx, site))
}

/// After the calling thread performed the event at `site`: publishes its completion.
#[no_mangle]
pub extern "C" fn synth_after(site: u32) {
    if !fast(|e, ctx| e.after_fast(ctx, site)) {
        after_slow(site);
    }
}

#[cold]
#[inline(never)]
fn after_slow(site: u32) {
    with_ctx("synth_after", |e, ctx| e.after(ctx, site));
    if TRACE.load(Relaxed) {
        trace("after", site);
    }
}

/// The fast path of an event call: `f` ([`Enforcer::before_fast`], [`Enforcer::after_fast`])
/// on the calling thread's context, when the enforcer runs, the thread is registered and no
/// trace is wanted; false otherwise, and whenever `f` says the full call is needed. Nothing
/// here can panic (`try_with`, `try_borrow_mut`, and `f` does no indexing), so it needs no
/// panic boundary: the full call, which has one, handles everything else.
#[inline(always)]
fn fast(f: impl FnOnce(&'static Enforcer, &mut ThreadCtx<'static>) -> bool) -> bool {
    if TRACE.load(Relaxed) {
        return false;
    }
    let Some(e) = ENFORCER.get() else {
        return false;
    };
    CTX.try_with(|c| match c.try_borrow_mut() {
        Ok(mut c) => match c.as_mut() {
            Some(ctx) => f(e, ctx),
            None => false,
        },
        Err(_) => false,
    })
    .unwrap_or(false)
}

/// Which of the sites `a` and `b` is the calling thread's next event of the schedule, for an
/// instruction that performs either (a creation the verified program makes in one copy of the
/// code and refuses in another): waits as `synth_before` does; any other next event aborts.
/// Performs neither: call `synth_before` and `synth_after` with the site returned.
#[no_mangle]
pub extern "C" fn synth_choose(a: u32, b: u32) -> u32 {
    with_ctx("synth_choose", |e, ctx| e.choose(ctx, a, b))
}

/// At a branch: reports the arm taken, `site_if_true` when `cond != 0` and `site_if_false`
/// otherwise (an arm that is `SYNTH_NONE` reports nothing), and returns `cond != 0`. The arm is
/// an event of the schedule, or, at the end of a section that ends with this thread's branch,
/// selects the next section; any other arm aborts.
#[no_mangle]
pub extern "C" fn synth_branch(site_if_true: u32, site_if_false: u32, cond: i32) -> i32 {
    let taken = cond != 0;
    let site = if taken { site_if_true } else { site_if_false };
    if site != SYNTH_NONE {
        if TRACE.load(Relaxed) {
            trace("branch", site);
        }
        with_ctx("synth_branch", |e, ctx| e.branch(ctx, site));
    }
    i32::from(taken)
}

/// The calling thread exits (returns from its start function or calls `pthread_exit`): its
/// next event must be its exit (a site of kind `SYNTH_SITE_KIND_THREAD_EXIT`), which it
/// performs; anything else aborts.
#[no_mangle]
pub extern "C" fn synth_thread_exit() {
    with_ctx("synth_thread_exit", |e, ctx| e.thread_exit(ctx))
}

/// An assumption the schedule relies on does not hold on this run's inputs at `site`: prints
/// `synth: <what> at <file:line:col>` (just `synth: <what>` when `site` is `SYNTH_NONE`) and
/// aborts.
///
/// # Safety
/// `what` must be null or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn synth_fail(site: u32, what: *const c_char) -> ! {
    boundary("synth_fail", || {
        let what = if what.is_null() {
            "an assumption of the schedule failed".into()
        } else {
            unsafe { CStr::from_ptr(what) }.to_string_lossy()
        };
        let info = ENFORCER.get().and_then(|e| e.site(site).info);
        match info {
            Some(i) => die(format_args!("{what} at {}:{}:{}", i.file, i.line, i.column)),
            None if site == SYNTH_NONE => die(format_args!("{what}")),
            None => die(format_args!("{what} at site {site}")),
        }
    })
}

/// A thread's start function, as `pthread_create` takes it (`C-unwind`: the function may call
/// `pthread_exit`, whose forced unwinding passes through the trampoline).
type StartFn = unsafe extern "C-unwind" fn(*mut c_void) -> *mut c_void;

/// What the trampoline of a created thread runs.
struct Start {
    id: u32,
    start: StartFn,
    arg: *mut c_void,
}

extern "C" {
    fn pthread_create(
        thread: *mut c_ulong,
        attr: *const c_void,
        start: StartFn,
        arg: *mut c_void,
    ) -> c_int;
}

/// The start function of every created thread: registers the thread, runs the program's start
/// function and reports the thread's exit when it returns (`pthread_exit` is reported where
/// the program calls it). No value with a destructor lives across the call of the start
/// function, so `pthread_exit`'s forced unwinding passes no Rust destructor.
extern "C-unwind" fn synth_trampoline(p: *mut c_void) -> *mut c_void {
    // `synth_pthread_create` passes a leaked `Box<Start>`, taken back exactly once here.
    let Start { id, start, arg } = *unsafe { Box::from_raw(p.cast::<Start>()) };
    synth_thread_begin(id);
    let result = unsafe { start(arg) };
    synth_thread_exit();
    result
}

/// `pthread_create` at site `site` (a thread creation of the schedule): performs the event
/// (as `synth_spawn_before` and `synth_after`), and starts the thread through a trampoline
/// that registers it (`synth_thread_begin` with the id the schedule gives it) and reports its
/// exit when `start` returns (`synth_thread_exit`). Returns 0; a failing `pthread_create`
/// aborts, since the schedule needs the thread.
///
/// # Safety
/// As for `pthread_create`: `thread` points to a `pthread_t` (an `unsigned long`), `attr` is
/// null or a valid `pthread_attr_t`, `start` is a thread start function taking `arg`.
#[no_mangle]
pub unsafe extern "C" fn synth_pthread_create(
    site: u32,
    thread: *mut c_ulong,
    attr: *const c_void,
    start: Option<unsafe extern "C-unwind" fn(*mut c_void) -> *mut c_void>,
    arg: *mut c_void,
) -> c_int {
    boundary("synth_pthread_create", || {
        let Some(start) = start else {
            die(format_args!("pthread_create without a start function"))
        };
        if thread.is_null() {
            die(format_args!("pthread_create with a null thread pointer"))
        }
        let id = synth_spawn_before(site);
        let p = Box::into_raw(Box::new(Start { id, start, arg }));
        let rc = unsafe { pthread_create(thread, attr, synth_trampoline, p.cast()) };
        if rc != 0 {
            let at = enforcer("synth_pthread_create").site(site);
            die(format_args!("pthread_create failed (error {rc}) at {at}"))
        }
        synth_after(site);
        0
    })
}
