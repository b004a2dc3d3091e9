//! The enforcement protocol (DESIGN.md, "Enforcement protocol"; seed 002, "Partial-order
//! reduction" and "Implementation"): makes threads follow a [`Schedule`], section by section.
//!
//! # State
//!
//! * Per thread, the number of events it has completed, cumulative over sections, in its own
//!   cache line ([`CachePadded`]); only the thread itself writes it (a `Release` store of its
//!   base plus its position, no read-modify-write), and only after the events that an event of
//!   another thread waits for ([`crate::schedule::Event::publish`]): every count anyone waits
//!   for is published, and the other events cost no write to a line that waiters read.
//! * The current section instance: a generation number and the section, published together in
//!   one `AtomicU64` (generation in the high bits, section in the low bits).
//! * Per thread, its counter at the start of the current section instance (its *base*); the
//!   thread that advances to a new section instance sets the bases before it publishes the
//!   new generation (`Release`); a thread reads them after observing it (`Acquire`). A
//!   vector-clock constraint `(U, n)` of the current section holds when
//!   `done[U] - base[U] >= n`.
//! * The number of threads with events left in the current section instance, decremented once
//!   per thread and section (`AcqRel`); the thread that brings it to 0 advances.
//! * With a branching end, the successor that the branching thread's reported arm selects.
//!
//! A thread keeps a small [`ThreadCtx`]: its id, the (generation, section) word it last saw
//! and its position among its own events of that section instance. A thread can only lag
//! behind by section instances in which it has no events (an instance cannot end while one of
//! its events is pending), so a changed generation resets its position to 0.
//!
//! # Fast path
//!
//! [`Enforcer::before`] with the constraints already satisfied: one `Acquire` load of the
//! current section word, the site comparison, and two loads (base, counter) per constraint.
//! The C entry goes through [`Enforcer::before_fast`] and [`Enforcer::after_fast`] first: the
//! same checks without the section word (while a thread has events left in a section
//! instance, that instance stays current), and no panic boundary (they cannot panic); only
//! what they decline (a wait, a publication, a thread's last event of a section, a
//! deviation) takes the full call.
//! The context keeps the thread's events of the section instance, so no section is looked up.
//! [`Enforcer::after`]: for an event others wait for, a `Release` store of the thread's own
//! counter and a load of the number of threads parked on it (same cache line; `Acquire`, a
//! plain load on x86, so that a waker that sees a parked thread also sees what it waits for);
//! for any other event, only the position; the once-per-section
//! decrement of the threads-left count is the only read-modify-write on a shared cache line.
//! No allocation, no locking.
//!
//! # Waiting
//!
//! A waiting thread first checks its condition up to `SPIN_CHECKS` (4096) times, one spin-loop hint
//! apart, when no more threads are awake (registered, not exited, not parked) than there are cores:
//! a hand-off is then seen within about a hundred nanoseconds, where the exponential backoff would
//! pause for microseconds between checks (4096 checks, some tens of microseconds, cover a thread's
//! run of events in a section; with 64, the ping-pong benchmark's hand-off took 191-321 ns against
//! 88 ns). With more awake threads than cores, spinning would only keep the awaited thread off a
//! core, so this phase is skipped, and left as soon as a parked thread wakes up and makes them
//! more. The number of checks adapts per thread: halved (down to 64) when a whole spin phase passes
//! without the hand-off, doubled (up to 4096) when it catches one, so that when other processes
//! hold the cores and the awaited thread is not running, the waiter soon stops holding a core it
//! needs (the paired 2+2 producer-consumer beside a busy core: 0.09 M items a second without this,
//! 0.60 M with). After a spin phase that missed, it backs off with [`Backoff::snooze`]; with
//! more threads awake than cores, it skips both.
//!
//! A thread waiting for another thread's counter then makes up to `YIELDS` (200) passes, each
//! checking its condition and then yielding its core. In a pass where it finds itself *next in
//! line* (the thread it waits for runs, and no other thread waits for an earlier event of that
//! one), it spins instead, up to its budget, if fewer threads already spin so than there are
//! cores less one; it spins so once per wait, and not if its first spin phase ran.
//! With more threads than cores and the schedule passing the turn round all of them (the 2+2
//! producer-consumer at quantum 64), this keeps the running thread and the next one on the cores
//! and the others a yield away, instead of asleep: a hand-off to a parked thread waits for the
//! kernel to wake it. (The 2+2 producer-consumer with buffer 1000 went from 0.90-1.10 of the
//! unconstrained throughput to 1.44-1.66, with as many context switches per item: yields now,
//! wake-ups before. Where two threads alternate while the others wait long, the `--pair-turns`
//! schedules, the yielding threads cost: 2+2 with buffer 5 went from 0.89-1.09 to 0.73.) A
//! thread whose awaited thread spins for an event of it that is done checks a little longer
//! before it yields: that thread is about to run, and this one to be next.
//!
//! While other processes hold every core (module `load`: the machine's runnable tasks, less
//! the program's awake threads, are at least as many as the cores), a waiting thread does none
//! of this and parks at once: a spin holds a core the awaited thread needs, and a yield gives
//! the core to another process for a time slice of milliseconds, where a turn takes
//! microseconds; a parked thread, woken at its turn, is run soon. (With a busy loop on each of
//! the two cores, the 2+2 producer-consumer with buffer 1000 ran at 0.01 of its unconstrained
//! throughput before, at 0.60 with this.) The reading is taken at most every 10 ms, by a
//! waiter past its spin phase or, while the cores are taken, at the start of a wait; the fast
//! path never reads it. It is used only where the process may run on every online core.
//!
//! After those passes, or right after the spin and backoff phase when it waits for the next
//! section (`main` at a join of threads that loop forever), the thread parks: it announces what
//! it waits for (a thread's counter, or the generation), increments that target's watcher
//! count, and waits on its own condition variable with a short timeout ([`PARK_TIMEOUT`]),
//! re-checking the condition each time. A thread that completes an event wakes the threads
//! parked on its counter only when there are watchers, and only those whose awaited value the
//! counter has reached (waking them at every event of the thread they wait for cost the 2+2
//! producer-consumer a context switch every few items); the thread that advances wakes those
//! parked on the generation. A wake-up lost to a race costs at most the timeout, never
//! progress. (That a waiter spins, yields or parks, and for how long, only decides when it
//! sees its condition hold: never whether.)
//!
//! # Deviations
//!
//! Anything the schedule does not allow is a [`Deviation`], returned as an error: the caller
//! (the C layer, [`crate::ffi`]) reports it and aborts; it never continues unconstrained.

use crate::load::Load;
use crate::schedule::{End, Event, Schedule, ScheduleError, Section, SiteInfo, Wait};
use crate::table::SynthSiteKind;
use crossbeam_utils::{Backoff, CachePadded};
use std::fmt;
use std::sync::atomic::Ordering::{AcqRel, Acquire, Relaxed, Release, SeqCst};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

/// How long a parked thread sleeps before it re-checks its condition by itself.
pub const PARK_TIMEOUT: Duration = Duration::from_micros(200);

/// How long, by default, a thread that reaches an event after the end of the schedule waits
/// for the process to end before reporting a deviation ([`Enforcer::set_end_grace`]): for
/// ever. The end of a schedule is the end of the program (`exit`, `main` returning), which
/// may still take its time (`main` printing results while threads that loop forever wait).
pub const DEFAULT_END_GRACE: Duration = Duration::MAX;

/// How often, at most, a waiting thread checks its condition, one spin-loop hint apart, before
/// it backs off (see [`Parker::spin`]).
const SPIN_CHECKS: u32 = 4096;

/// The fewest checks a waiter spins whose spins keep failing (see [`Parker::spin`]).
const MIN_SPIN_CHECKS: u32 = 64;

/// How often a thread waiting for another thread's counter yields before it parks.
const YIELDS: u32 = 200;

/// How often, at most, a waiting thread checks whether the thread it awaits is still about to
/// run before it yields.
const ABOUT_TO_RUN_CHECKS: u32 = 256;

/// No successor chosen; a parker waiting for nothing.
const NONE: u32 = u32::MAX;
/// A parker waiting for the generation to change.
const ON_GENERATION: u32 = u32::MAX - 1;
/// The section word of a context that has seen none yet (never a valid word).
const STALE: u64 = u64::MAX;

/// The calling thread's view of the protocol: a small value the thread keeps (in a
/// thread-local in the C layer) and passes to every call, borrowed from its [`Enforcer`].
#[derive(Clone, Copy, Debug)]
pub struct ThreadCtx<'a> {
    /// The thread's events in the section instance `seen` (so that the fast path reads them
    /// without looking the section up).
    events: &'a [Event],
    thread: u32,
    /// Position among the thread's own events of the section instance `seen`.
    pos: u32,
    /// The (generation, section) word last seen.
    seen: u64,
}

impl ThreadCtx<'_> {
    /// The thread's id (its index in the schedule's thread table).
    pub fn thread(&self) -> u32 {
        self.thread
    }
}

/// A thread's completed-event counter and the number of threads parked on it.
#[derive(Default)]
struct Counter {
    done: AtomicU64,
    watchers: AtomicU32,
}

/// Where a thread parks.
struct Parker {
    /// The thread whose counter it waits for, [`ON_GENERATION`] or [`NONE`].
    on: AtomicU32,
    /// The value of that counter it waits for (a waker that sees the parker's increment of the
    /// watchers, `SeqCst`, sees this and `on`); also read by other waiters while `waiting`
    /// is set ([`Enforcer::wait_awake`]).
    until: AtomicU64,
    /// How many checks the thread spins before it backs off ([`SPIN_CHECKS`] at most,
    /// [`MIN_SPIN_CHECKS`] at least): doubled when a spin catches the hand-off, halved when
    /// it does not. Only the thread itself reads and writes it.
    spin: AtomicU32,
    /// While the thread waits (spinning, yielding or parked): the thread it waits on, or
    /// [`ON_GENERATION`]; [`NONE`] otherwise.
    waiting: AtomicU32,
    /// Whether the thread spins (set from its spin phase until its wait is over, when the spin
    /// catches the hand-off).
    spinning: AtomicBool,
    lock: Mutex<()>,
    cv: Condvar,
}

impl Parker {
    /// Wakes the parked thread; taking the lock orders the notification after its last check.
    fn notify(&self) {
        drop(self.lock.lock().unwrap_or_else(PoisonError::into_inner));
        self.cv.notify_one();
    }
}

/// Enforces a [`Schedule`] on the threads of one program run.
pub struct Enforcer {
    schedule: Schedule,
    /// Bits of the section in the section word.
    bits: u32,
    /// `(1 << bits) - 1`.
    mask: u64,
    /// The current section instance: `generation << bits | section`.
    current: CachePadded<AtomicU64>,
    /// Threads with events left in the current section instance.
    left: CachePadded<AtomicU32>,
    counters: Box<[CachePadded<Counter>]>,
    /// Counters at the start of the current section instance.
    base: Box<[AtomicU64]>,
    /// Threads parked on the generation.
    gen_watchers: CachePadded<AtomicU32>,
    /// Registered threads that have not exited and are not parked.
    awake: CachePadded<AtomicU32>,
    /// The cores available to the process.
    cores: u32,
    /// Threads spinning as next in line ([`Enforcer::wait_awake`]).
    spinners: CachePadded<AtomicU32>,
    /// Whether other processes hold the cores ([`crate::load`]).
    load: Load,
    parkers: Box<[CachePadded<Parker>]>,
    /// Serialises advancing and recording the branch arm.
    advance: Mutex<()>,
    /// With a branching end, the successor section the reported arm selects, or [`NONE`].
    arm: AtomicU32,
    finished: AtomicBool,
    /// How long a thread with an event after the schedule's end waits for the process to end
    /// before that is a deviation (milliseconds).
    end_grace_ms: AtomicU64,
    registered: Box<[AtomicBool]>,
}

/// What a deviation is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviationKind {
    /// The thread reached another site than its next event of the section.
    WrongEvent,
    /// The thread reached an event after the end of the schedule.
    AfterEnd,
    /// The branching thread reported an arm that selects no successor.
    BranchWithoutSuccessor,
    /// The thread exits while it has events of the section left.
    ExitWithEventsLeft,
    /// A thread id outside the schedule's thread table.
    UnknownThread,
    /// A thread id registered a second time.
    AlreadyRegistered,
    /// A spawn that starts no (further) thread of the schedule.
    NoChildThread,
    /// The branching thread reached another event before reporting the arm that selects the
    /// next section.
    BranchNotReported,
}

impl fmt::Display for DeviationKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DeviationKind::WrongEvent => "another event than the schedule's next one",
            DeviationKind::AfterEnd => "event after the end of the schedule",
            DeviationKind::BranchWithoutSuccessor => "branch arm with no successor",
            DeviationKind::ExitWithEventsLeft => "thread exits with events of the section left",
            DeviationKind::UnknownThread => "unexpected thread id",
            DeviationKind::AlreadyRegistered => "thread id registered twice",
            DeviationKind::NoChildThread => "thread creation that starts no thread of the schedule",
            DeviationKind::BranchNotReported => {
                "event before the branch arm that selects the next section"
            }
        })
    }
}

/// A site as a deviation names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SiteDesc {
    /// The site id.
    pub id: u32,
    /// The site, or `None` for an id outside the site table.
    pub info: Option<SiteInfo>,
}

impl fmt::Display for SiteDesc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.info {
            Some(s) => write!(
                f,
                "site {} ({}:{}:{}, {})",
                self.id, s.file, s.line, s.column, s.text
            ),
            None => write!(f, "site {} (not a site of the schedule)", self.id),
        }
    }
}

/// What the thread reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reached {
    /// A site (`before`, `after`, a branch arm, a spawn).
    Site(SiteDesc),
    /// Its exit.
    Exit,
    /// Its start (registration).
    Start,
}

impl fmt::Display for Reached {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reached::Site(s) => s.fmt(f),
            Reached::Exit => f.write_str("its exit"),
            Reached::Start => f.write_str("its start"),
        }
    }
}

/// What the schedule expected instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expected {
    /// The thread's next event of the section.
    Event(SiteDesc),
    /// No further event of this thread in this section.
    NoFurtherEvent,
    /// The branch arm of this thread that selects the next section: one of these.
    BranchArm(Vec<SiteDesc>),
    /// Something else, described.
    Other(String),
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expected::Event(s) => s.fmt(f),
            Expected::NoFurtherEvent => {
                f.write_str("no further event of this thread in this section")
            }
            Expected::BranchArm(arms) if arms.is_empty() => f.write_str(
                "the branch arm of this thread that selects the next section (the section has \
                 no successor)",
            ),
            Expected::BranchArm(arms) => {
                f.write_str(
                    "the branch arm of this thread that selects the next section, one of ",
                )?;
                for (i, a) in arms.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    a.fmt(f)?;
                }
                Ok(())
            }
            Expected::Other(s) => f.write_str(s),
        }
    }
}

/// A deviation from the schedule: what a thread did that the schedule does not allow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deviation {
    /// What it is.
    pub kind: DeviationKind,
    /// The thread id.
    pub thread: u32,
    /// The thread's name (`?` for an id outside the thread table).
    pub thread_name: String,
    /// The current section (of the thread's view).
    pub section: u32,
    /// What the thread reached.
    pub reached: Reached,
    /// What the schedule expected instead.
    pub expected: Expected,
}

impl fmt::Display for Deviation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: thread {} (id {}) reached {} in section {}; the schedule expects {}",
            self.kind, self.thread_name, self.thread, self.reached, self.section, self.expected
        )
    }
}

impl std::error::Error for Deviation {}

impl Enforcer {
    /// An enforcer of `schedule` for the program whose SHA-256 (hex) is `program_sha256`;
    /// refuses a schedule made for another program ([`ScheduleError::HashMismatch`]).
    pub fn new(schedule: Schedule, program_sha256: &str) -> Result<Enforcer, ScheduleError> {
        if !schedule
            .program_sha256()
            .eq_ignore_ascii_case(program_sha256)
        {
            return Err(ScheduleError::HashMismatch {
                schedule: schedule.program_sha256().to_owned(),
                program: program_sha256.to_owned(),
            });
        }
        let n = schedule.threads().len();
        let sections = schedule.sections().len() as u64;
        // Every section index is below `mask`, so no word equals `STALE`.
        let bits = (64 - sections.leading_zeros()).max(1);
        let initial = schedule.initial_section();
        let active = schedule.sections()[initial as usize].active_threads();
        let cores = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(u32::MAX as usize) as u32;
        let e = Enforcer {
            bits,
            mask: (1u64 << bits) - 1,
            current: CachePadded::new(AtomicU64::new(u64::from(initial))),
            left: CachePadded::new(AtomicU32::new(active)),
            counters: (0..n).map(|_| CachePadded::default()).collect(),
            base: (0..n).map(|_| AtomicU64::new(0)).collect(),
            gen_watchers: CachePadded::default(),
            awake: CachePadded::default(),
            spinners: CachePadded::default(),
            load: Load::new(cores),
            cores,
            parkers: (0..n)
                .map(|_| {
                    CachePadded::new(Parker {
                        on: AtomicU32::new(NONE),
                        until: AtomicU64::new(0),
                        spin: AtomicU32::new(SPIN_CHECKS),
                        waiting: AtomicU32::new(NONE),
                        spinning: AtomicBool::new(false),
                        lock: Mutex::new(()),
                        cv: Condvar::new(),
                    })
                })
                .collect(),
            advance: Mutex::new(()),
            arm: AtomicU32::new(NONE),
            finished: AtomicBool::new(false),
            end_grace_ms: AtomicU64::new(
                DEFAULT_END_GRACE.as_millis().min(u128::from(u64::MAX)) as u64
            ),
            registered: (0..n).map(|_| AtomicBool::new(false)).collect(),
            schedule,
        };
        // An initial section without events is complete from the start.
        if active == 0 {
            e.try_advance(u64::from(initial));
        }
        Ok(e)
    }

    /// The schedule.
    pub fn schedule(&self) -> &Schedule {
        &self.schedule
    }

    /// How long a thread that reaches an event after the end of the schedule waits for the
    /// process to end (the thread that ended the program is still in `exit`) before that is a
    /// deviation; [`DEFAULT_END_GRACE`] unless set.
    pub fn set_end_grace(&self, grace: Duration) {
        self.end_grace_ms
            .store(grace.as_millis().min(u128::from(u64::MAX)) as u64, Relaxed);
    }

    /// Whether a section that ends the program has completed all its events.
    pub fn is_finished(&self) -> bool {
        self.finished.load(Acquire)
    }

    /// The current section.
    pub fn current_section(&self) -> u32 {
        self.section_of(self.current.load(Acquire))
    }

    /// Describes site `id` for messages.
    pub fn site(&self, id: u32) -> SiteDesc {
        SiteDesc {
            id,
            info: self.schedule.sites().get(id as usize).cloned(),
        }
    }

    /// Registers the calling thread as thread `thread` and returns its context. An id outside
    /// the thread table, or one registered before, is a deviation.
    pub fn register(&self, thread: u32) -> Result<ThreadCtx<'_>, Box<Deviation>> {
        let ctx = ThreadCtx {
            events: &[],
            thread,
            pos: 0,
            seen: STALE,
        };
        match self.registered.get(thread as usize) {
            None => Err(self.deviation(
                DeviationKind::UnknownThread,
                &ctx,
                Reached::Start,
                Expected::Other(format!(
                    "a thread id below {}",
                    self.schedule.threads().len()
                )),
            )),
            Some(r) if r.swap(true, AcqRel) => Err(self.deviation(
                DeviationKind::AlreadyRegistered,
                &ctx,
                Reached::Start,
                Expected::Other("a thread id not registered before".into()),
            )),
            Some(_) => {
                self.awake.fetch_add(1, Relaxed);
                Ok(ctx)
            }
        }
    }

    /// The common case of [`Enforcer::before`], for the C entry's fast path: the event at
    /// `site` is the thread's next event of the section instance it has seen, and its
    /// constraints hold already. Returns false when anything else is the case (another site,
    /// no events left, a constraint to wait for); the caller then calls
    /// [`Enforcer::before`], which handles it. Cannot panic (no indexing, no allocation).
    ///
    /// No refresh of the section instance is needed: while a thread has events left in a
    /// section instance, that instance stays the current one (it advances only once every
    /// thread with events in it has completed them).
    #[inline]
    pub fn before_fast(&self, ctx: &ThreadCtx<'_>, site: u32) -> bool {
        match ctx.events.get(ctx.pos as usize) {
            Some(ev) if ev.site == site => ev.waits.iter().all(|w| {
                self.target(w)
                    .is_some_and(|(done, target)| done.load(Acquire) >= target)
            }),
            _ => false,
        }
    }

    /// The common case of [`Enforcer::after`], for the C entry's fast path: the event at
    /// `site` is the thread's next one, no other thread waits for it, and it is not the
    /// thread's last event of the section. Completes it (the position moves on) and returns
    /// true; returns false, changing nothing, otherwise (the caller then calls
    /// [`Enforcer::after`]). Cannot panic.
    #[inline]
    pub fn after_fast(&self, ctx: &mut ThreadCtx<'_>, site: u32) -> bool {
        let next = ctx.pos as usize + 1;
        match ctx.events.get(ctx.pos as usize) {
            Some(ev) if ev.site == site && !ev.publish && next < ctx.events.len() => {
                ctx.pos += 1;
                true
            }
            _ => false,
        }
    }

    /// Before the thread performs the event at `site`: checks that it is the thread's next
    /// event (a deviation otherwise) and waits until its vector clock is satisfied. With no
    /// events of the thread left in the current section, waits for the next section first.
    #[inline]
    pub fn before<'a>(&'a self, ctx: &mut ThreadCtx<'a>, site: u32) -> Result<(), Box<Deviation>> {
        loop {
            self.refresh(ctx);
            match ctx.events.get(ctx.pos as usize) {
                Some(ev) if ev.site == site => {
                    self.wait_for(ctx.thread, ev);
                    return Ok(());
                }
                Some(ev) => return Err(self.wrong_event(ctx, site, ev.site)),
                None => self.await_next_section(ctx, || Reached::Site(self.site(site)))?,
            }
        }
    }

    /// Which of the sites `a` and `b` is the thread's next event, waiting as
    /// [`Enforcer::before`] does (for the next section when it has no events left in this
    /// one): the schedule's choice where one instruction performs either (a thread creation
    /// the verified program makes in one copy of its code and refuses for the thread bound in
    /// another). Any other next event is a deviation. Performs neither.
    pub fn choose<'a>(
        &'a self,
        ctx: &mut ThreadCtx<'a>,
        a: u32,
        b: u32,
    ) -> Result<u32, Box<Deviation>> {
        loop {
            self.refresh(ctx);
            match ctx.events.get(ctx.pos as usize) {
                Some(ev) if ev.site == a || ev.site == b => return Ok(ev.site),
                Some(ev) => return Err(self.wrong_event(ctx, a, ev.site)),
                None => self.await_next_section(ctx, || Reached::Site(self.site(a)))?,
            }
        }
    }

    /// After the thread performed the event at `site` (which [`Enforcer::before`] admitted):
    /// publishes its completion; the thread that completes a section's last event advances to
    /// the next section.
    #[inline]
    pub fn after<'a>(&'a self, ctx: &mut ThreadCtx<'a>, site: u32) -> Result<(), Box<Deviation>> {
        let t = ctx.thread;
        let events = ctx.events;
        let publish = match events.get(ctx.pos as usize) {
            Some(ev) if ev.site == site => ev.publish,
            Some(ev) => return Err(self.wrong_event(ctx, site, ev.site)),
            None => {
                return Err(self.deviation(
                    DeviationKind::WrongEvent,
                    ctx,
                    Reached::Site(self.site(site)),
                    Expected::NoFurtherEvent,
                ))
            }
        };
        ctx.pos += 1;
        if publish {
            let c = &self.counters[t as usize];
            let done = self.base[t as usize].load(Relaxed) + u64::from(ctx.pos);
            c.done.store(done, Release);
            if c.watchers.load(Acquire) != 0 {
                self.wake(t, done);
            }
        }
        if ctx.pos as usize == events.len() && self.left.fetch_sub(1, AcqRel) == 1 {
            self.try_advance(ctx.seen);
        }
        Ok(())
    }

    /// The thread takes the branch arm `site`. If that is its next event of the section, it is
    /// an ordinary event. If it has no events left and the section ends with its branch, the
    /// arm selects the successor (a deviation when none has that arm). With no events left
    /// otherwise, it waits for the next section. Another pending event is a deviation.
    pub fn branch<'a>(&'a self, ctx: &mut ThreadCtx<'a>, site: u32) -> Result<(), Box<Deviation>> {
        loop {
            self.refresh(ctx);
            match ctx.events.get(ctx.pos as usize) {
                Some(ev) if ev.site == site => {
                    self.wait_for(ctx.thread, ev);
                    return self.after(ctx, site);
                }
                Some(ev) => return Err(self.wrong_event(ctx, site, ev.site)),
                None => {}
            }
            match self.section(ctx.seen).map(Section::end) {
                Some(End::Branch { thread, arms }) if *thread == ctx.thread => {
                    let guard = self.lock_advance();
                    if self.current.load(Relaxed) != ctx.seen {
                        continue;
                    }
                    if self.arm.load(Relaxed) == NONE {
                        let Some(arm) = arms.iter().find(|a| a.site == site) else {
                            return Err(self.deviation(
                                DeviationKind::BranchWithoutSuccessor,
                                ctx,
                                Reached::Site(self.site(site)),
                                self.arms_expected(arms),
                            ));
                        };
                        self.arm.store(arm.section, Relaxed);
                        self.advance_locked(&guard, ctx.seen);
                        return Ok(());
                    }
                    // Already reported in this section instance: this arm is for a later one.
                    drop(guard);
                    self.wait_generation(ctx);
                }
                _ => self.await_next_section(ctx, || Reached::Site(self.site(site)))?,
            }
        }
    }

    /// [`Enforcer::before`] for the event at `site` that starts a thread; returns the id of
    /// the thread the schedule starts there (the event names it: a creation site inside a
    /// loop starts a different thread on each path). An event that starts no thread is a
    /// deviation.
    pub fn spawn_before<'a>(
        &'a self,
        ctx: &mut ThreadCtx<'a>,
        site: u32,
    ) -> Result<u32, Box<Deviation>> {
        self.before(ctx, site)?;
        match ctx.events.get(ctx.pos as usize) {
            Some(ev) if ev.child != NONE => Ok(ev.child),
            _ => Err(self.deviation(
                DeviationKind::NoChildThread,
                ctx,
                Reached::Site(self.site(site)),
                Expected::Other("an event that starts no thread here".into()),
            )),
        }
    }

    /// The thread exits: its next event must be a site of kind
    /// [`SynthSiteKind::ThreadExit`] (a deviation otherwise); performs it as
    /// [`Enforcer::before`] and [`Enforcer::after`].
    pub fn thread_exit<'a>(&'a self, ctx: &mut ThreadCtx<'a>) -> Result<(), Box<Deviation>> {
        loop {
            self.refresh(ctx);
            match ctx.events.get(ctx.pos as usize) {
                Some(ev) if self.site_kind(ev.site) == Some(SynthSiteKind::ThreadExit) => {
                    let site = ev.site;
                    self.wait_for(ctx.thread, ev);
                    let r = self.after(ctx, site);
                    self.awake.fetch_sub(1, Relaxed);
                    return r;
                }
                Some(ev) => {
                    return Err(self.deviation(
                        DeviationKind::ExitWithEventsLeft,
                        ctx,
                        Reached::Exit,
                        Expected::Event(self.site(ev.site)),
                    ))
                }
                None => self.await_next_section(ctx, || Reached::Exit)?,
            }
        }
    }

    fn site_kind(&self, site: u32) -> Option<SynthSiteKind> {
        self.schedule.sites().get(site as usize).map(|s| s.kind)
    }

    fn section_of(&self, word: u64) -> u32 {
        (word & self.mask) as u32
    }

    fn section(&self, word: u64) -> Option<&Section> {
        self.schedule.sections().get(self.section_of(word) as usize)
    }

    /// Catches up with the current section instance.
    #[inline]
    fn refresh<'a>(&'a self, ctx: &mut ThreadCtx<'a>) {
        let now = self.current.load(Acquire);
        if now != ctx.seen {
            ctx.seen = now;
            ctx.pos = 0;
            ctx.events = self.section(now).map_or(&[], |s| s.events(ctx.thread));
        }
    }

    /// Waits until the constraints of `ev` hold.
    #[inline]
    fn wait_for(&self, me: u32, ev: &Event) {
        for w in ev.waits.iter() {
            let (done, target) = self.target(w).expect("a thread of the schedule");
            if done.load(Acquire) < target {
                self.wait(me, w.thread, target, || done.load(Acquire) >= target);
            }
        }
    }

    /// The counter constraint `w` reads and the value it needs (`None` for a thread outside
    /// the tables, which a validated schedule never names).
    #[inline]
    fn target(&self, w: &Wait) -> Option<(&AtomicU64, u64)> {
        let base = self.base.get(w.thread as usize)?;
        let c = self.counters.get(w.thread as usize)?;
        Some((&c.done, base.load(Relaxed) + u64::from(w.count)))
    }

    /// The thread has no events left in the section instance it sees: a deviation when the
    /// section ends the program, or when it ends with this thread's branch not yet reported;
    /// otherwise waits for the next section instance.
    #[cold]
    fn await_next_section(
        &self,
        ctx: &ThreadCtx<'_>,
        reached: impl FnOnce() -> Reached,
    ) -> Result<(), Box<Deviation>> {
        match self.section(ctx.seen).map(Section::end) {
            Some(End::Finish) => {
                // The program is ending (`exit`, `main` returned): the process goes away while
                // this thread waits. Only if it does not is this a deviation.
                self.linger_after_end();
                return Err(self.deviation(
                    DeviationKind::AfterEnd,
                    ctx,
                    reached(),
                    Expected::NoFurtherEvent,
                ));
            }
            Some(End::Branch { thread, arms }) if *thread == ctx.thread => {
                let guard = self.lock_advance();
                if self.current.load(Relaxed) != ctx.seen {
                    return Ok(());
                }
                if self.arm.load(Relaxed) == NONE {
                    return Err(self.deviation(
                        DeviationKind::BranchNotReported,
                        ctx,
                        reached(),
                        self.arms_expected(arms),
                    ));
                }
                drop(guard);
            }
            _ => {}
        }
        self.wait_generation(ctx);
        Ok(())
    }

    /// Waits up to the end grace period ([`Enforcer::set_end_grace`]) for the process to end.
    #[cold]
    fn linger_after_end(&self) {
        let grace = Duration::from_millis(self.end_grace_ms.load(Relaxed));
        let start = std::time::Instant::now();
        while start.elapsed() < grace {
            std::thread::sleep(Duration::from_millis(10).min(grace));
        }
    }

    fn wait_generation(&self, ctx: &ThreadCtx<'_>) {
        let seen = ctx.seen;
        if self.current.load(Acquire) == seen {
            self.wait(ctx.thread, ON_GENERATION, 0, || {
                self.current.load(Acquire) != seen
            });
        }
    }

    /// Waits until `ready()`: spins or yields ([`Enforcer::wait_awake`]), then parks on `on` (a
    /// thread or [`ON_GENERATION`]), for its counter to reach `until` (0 for the generation).
    #[cold]
    #[inline(never)]
    fn wait(&self, me: u32, on: u32, until: u64, ready: impl Fn() -> bool) {
        let p = &self.parkers[me as usize];
        p.until.store(until, Relaxed);
        p.waiting.store(on, Relaxed);
        if !self.wait_awake(p, me, on, until, &ready) {
            self.park(p, on, &ready);
        }
        p.waiting.store(NONE, Relaxed);
        p.spinning.store(false, Relaxed);
    }

    /// Parks the thread of `p` on `on` until `ready()` (see "Waiting" in the module docs).
    fn park(&self, p: &Parker, on: u32, ready: &impl Fn() -> bool) {
        let watchers = if on == ON_GENERATION {
            &self.gen_watchers
        } else {
            &self.counters[on as usize].watchers
        };
        p.on.store(on, Relaxed);
        watchers.fetch_add(1, SeqCst);
        self.awake.fetch_sub(1, Relaxed);
        {
            let mut g = p.lock.lock().unwrap_or_else(PoisonError::into_inner);
            while !ready() {
                g =
                    p.cv.wait_timeout(g, PARK_TIMEOUT)
                        .unwrap_or_else(PoisonError::into_inner)
                        .0;
            }
        }
        self.awake.fetch_add(1, Relaxed);
        watchers.fetch_sub(1, Release);
        p.on.store(NONE, Relaxed);
    }

    /// The part of [`Enforcer::wait`] before parking (see "Waiting" in the module docs), for
    /// thread `me` with parker `p`: whether `ready()` became true while it spun or yielded.
    fn wait_awake(
        &self,
        p: &Parker,
        me: u32,
        on: u32,
        until: u64,
        ready: &impl Fn() -> bool,
    ) -> bool {
        // Whether the thread awaited runs (is not waiting itself) and no other thread waits
        // for an earlier event of it: this one is next in line.
        let next_in_line = || {
            self.parkers
                .get(on as usize)
                .is_some_and(|q| q.waiting.load(Relaxed) == NONE)
                && self.parkers.iter().all(|q| {
                    std::ptr::eq(&**q, p)
                        || q.waiting.load(Relaxed) != on
                        || q.until.load(Relaxed) >= until
                })
        };
        // While other processes hold the cores, a spin holds a core the awaited thread needs,
        // and a yield may give it away for a time slice: park at once (see `load`).
        if self.load.was_taken() && self.cores_taken() {
            return ready();
        }
        let mut spun = false;
        if self.awake.load(Relaxed) <= self.cores {
            spun = true;
            if self.spin(p, ready, false) {
                return true;
            }
            let backoff = Backoff::new();
            while !backoff.is_completed() {
                backoff.snooze();
                if ready() {
                    return true;
                }
            }
        }
        // (A thread waiting for the next section, `main` at a join of threads that loop
        // forever, parks now; so does every thread while other processes hold the cores.)
        let yields = if on == ON_GENERATION || self.cores_taken() {
            0
        } else {
            YIELDS
        };
        // (On one core, checking would only delay the thread awaited.)
        let about_checks = if self.cores > 1 {
            ABOUT_TO_RUN_CHECKS
        } else {
            0
        };
        // The thread awaited spins for an event of this one that is done: it is about to run
        // (and this one to be next in line).
        let done = &self.counters[me as usize].done;
        let about_to_run = || {
            self.parkers.get(on as usize).is_some_and(|q| {
                q.waiting.load(Relaxed) == me
                    && q.spinning.load(Relaxed)
                    && q.until.load(Relaxed) <= done.load(Relaxed)
            })
        };
        for _ in 0..yields {
            if ready() {
                return true;
            }
            for _ in 0..about_checks {
                if !about_to_run() {
                    break;
                }
                std::hint::spin_loop();
            }
            if !spun && next_in_line() && self.take_spinner_slot() {
                spun = true;
                let caught = self.spin(p, ready, true);
                self.spinners.fetch_sub(1, Relaxed);
                if caught {
                    return true;
                }
                continue;
            }
            std::thread::yield_now();
        }
        ready()
    }

    /// Whether other processes hold the cores (module `load`; a new reading when the last is
    /// old).
    fn cores_taken(&self) -> bool {
        self.load.cores_taken(self.awake.load(Relaxed))
    }

    /// Takes one of the cores - 1 slots of threads spinning as next in line, if one is free
    /// (released by decrementing [`Enforcer::spinners`]).
    fn take_spinner_slot(&self) -> bool {
        let free = self.spinners.fetch_add(1, Relaxed) < self.cores.saturating_sub(1);
        if !free {
            self.spinners.fetch_sub(1, Relaxed);
        }
        free
    }

    /// The spin phase of [`Enforcer::wait`]: whether `ready()` became true within the thread's
    /// budget of checks. Leaves early when a parked thread woke up and made more threads
    /// awake than cores (unless `next`: the thread is next in line and holds a spinner slot).
    fn spin(&self, p: &Parker, ready: &impl Fn() -> bool, next: bool) -> bool {
        let budget = p.spin.load(Relaxed);
        let mut left = false;
        p.spinning.store(true, Relaxed);
        for i in 0..budget {
            std::hint::spin_loop();
            if ready() {
                p.spin
                    .store(budget.saturating_mul(2).min(SPIN_CHECKS), Relaxed);
                return true;
            }
            // A parked thread woke up: leave it the core.
            if !next && i % 64 == 63 && self.awake.load(Relaxed) > self.cores {
                left = true;
                break;
            }
        }
        p.spinning.store(false, Relaxed);
        // Spinning pays while the threads awaited are on cores; when they are not (other
        // processes hold the cores) it only delays them, and whole spin phases pass in vain.
        // (One left early for a woken thread says nothing about that.)
        if !left {
            p.spin.store((budget / 2).max(MIN_SPIN_CHECKS), Relaxed);
        }
        false
    }

    /// Wakes the threads parked on thread `on`'s counter, now `done`, that wait for no more
    /// than that (a parked thread is not woken at every event of the thread it waits for).
    #[cold]
    #[inline(never)]
    fn wake(&self, on: u32, done: u64) {
        for p in self.parkers.iter() {
            if p.on.load(Relaxed) == on && p.until.load(Relaxed) <= done {
                p.notify();
            }
        }
    }

    fn lock_advance(&self) -> MutexGuard<'_, ()> {
        self.advance.lock().unwrap_or_else(PoisonError::into_inner)
    }

    #[cold]
    fn try_advance(&self, seen: u64) {
        let guard = self.lock_advance();
        self.advance_locked(&guard, seen);
    }

    /// If section instance `seen` is still the current one and complete (all its events done
    /// and, with a branching end, the arm reported), advances to the next section instance,
    /// past sections without events that end with their only successor.
    fn advance_locked(&self, _guard: &MutexGuard<'_, ()>, seen: u64) {
        if self.current.load(Relaxed) != seen || self.left.load(Acquire) != 0 {
            return;
        }
        let sections = self.schedule.sections();
        let done = &sections[self.section_of(seen) as usize];
        let mut next = match done.end() {
            End::Finish => {
                self.finished.store(true, Release);
                return;
            }
            End::Next(s) => *s,
            End::Branch { .. } => match self.arm.load(Relaxed) {
                NONE => return,
                s => s,
            },
        };
        for (t, base) in self.base.iter().enumerate() {
            let n = done.events(t as u32).len() as u64;
            if n != 0 {
                base.store(base.load(Relaxed) + n, Relaxed);
            }
        }
        self.arm.store(NONE, Relaxed);
        // Sections without events ending with their only successor form no cycle
        // (`Schedule::new` refuses those), so this ends.
        loop {
            let sec = &sections[next as usize];
            if !sec.is_empty() {
                break;
            }
            match sec.end() {
                End::Next(s) => next = *s,
                End::Finish => {
                    self.finished.store(true, Release);
                    break;
                }
                End::Branch { .. } => break,
            }
        }
        self.left
            .store(sections[next as usize].active_threads(), Relaxed);
        let word = (((seen >> self.bits) + 1) << self.bits) | u64::from(next);
        self.current.store(word, Release);
        if self.gen_watchers.load(Acquire) != 0 {
            self.wake_for_section(next);
        }
    }

    /// Wakes the threads parked on a generation change that can move in section `next`: those
    /// with events in it or whose branch ends it. The others (`main` waiting to join threads
    /// that loop forever) stay parked until a section that concerns them, or their timeout.
    #[cold]
    #[inline(never)]
    fn wake_for_section(&self, next: u32) {
        let sec = &self.schedule.sections()[next as usize];
        for (t, p) in self.parkers.iter().enumerate() {
            let t = t as u32;
            let concerned = !sec.events(t).is_empty()
                || matches!(sec.end(), End::Branch { thread, .. } if *thread == t);
            if concerned && p.on.load(Relaxed) == ON_GENERATION {
                p.notify();
            }
        }
    }

    fn arms_expected(&self, arms: &[crate::schedule::Arm]) -> Expected {
        Expected::BranchArm(arms.iter().map(|a| self.site(a.site)).collect())
    }

    #[cold]
    fn wrong_event(&self, ctx: &ThreadCtx<'_>, site: u32, expected: u32) -> Box<Deviation> {
        self.deviation(
            DeviationKind::WrongEvent,
            ctx,
            Reached::Site(self.site(site)),
            Expected::Event(self.site(expected)),
        )
    }

    #[cold]
    fn deviation(
        &self,
        kind: DeviationKind,
        ctx: &ThreadCtx<'_>,
        reached: Reached,
        expected: Expected,
    ) -> Box<Deviation> {
        let word = if ctx.seen == STALE {
            self.current.load(Acquire)
        } else {
            ctx.seen
        };
        Box::new(Deviation {
            kind,
            thread: ctx.thread,
            thread_name: self
                .schedule
                .threads()
                .get(ctx.thread as usize)
                .map_or_else(|| "?".to_owned(), |t| t.name.clone()),
            section: self.section_of(word),
            reached,
            expected,
        })
    }
}
