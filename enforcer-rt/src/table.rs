//! A program schedule as static C tables (seed 002, "Partial-order reduction": a graph of
//! section schedules, each a partial order of memory events stored as vector clocks).
//!
//! * A **site** is an instrumented action of the program (a shared access, a synchronisation
//!   call, or a branch arm at a section boundary), with its source position.
//! * A **section** lists its events (thread, site) in one order consistent with the section's
//!   partial order; event `e` may run once, for every thread `U`, `U` has completed
//!   `clocks[e * thread_count + U]` events of this section (for `e`'s own thread that is `e`'s
//!   position among its thread's events).
//! * When a section's events are done, the next section is its only successor
//!   ([`SynthEnd::Next`]) or the successor whose (thread, site) is the branch arm that
//!   `branch_thread` takes ([`SynthEnd::Branch`]).
//!
//! All integers are `u32`; [`SYNTH_NONE`] marks an absent index. Field types are plain
//! integers rather than Rust enums, so that no value a C program writes is undefined behaviour
//! on the Rust side; the enums give the meaning of the values.

use std::os::raw::c_char;

/// Version of the table layout; `SynthSchedule::version` must equal it.
pub const SYNTH_SCHEDULE_VERSION: u32 = 2;

/// The `pthread_t` a creation refused for the thread bound leaves behind (the verifier's
/// `NO_THREAD`); the runtime's join of it returns `ESRCH` at once.
pub const SYNTH_NO_THREAD: u64 = u64::MAX;

/// An absent index (no creator thread, no branching thread, no site).
pub const SYNTH_NONE: u32 = u32::MAX;

/// What a site is.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SynthSiteKind {
    /// Reads or writes shared memory.
    Access = 0,
    /// A synchronisation call the schedule keeps (lock, join, thread start, ...).
    Sync = 1,
    /// A synchronisation call the schedule subsumes: instrumentation removes it (Opt1/Opt2).
    Removed = 2,
    /// A branch arm whose outcome selects the next section.
    Branch = 3,
    /// A thread's exit: the return from its start function, or `pthread_exit`. The runtime
    /// checks it with `synth_thread_exit`, which requires it to be the thread's next event.
    ThreadExit = 4,
}

/// How a section ends.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SynthEnd {
    /// The program ends (every thread returned, `main` returned, `exit`).
    Finish = 0,
    /// The only successor follows.
    Next = 1,
    /// `branch_thread` reports a branch arm; it selects the successor.
    Branch = 2,
}

/// One thread of the program (`main`, or one instance of a `pthread_create` site).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SynthThread {
    /// `main`, or the start function with the instance (`worker#2`).
    pub name: *const c_char,
    /// Start function.
    pub function: *const c_char,
    /// The creating thread, or [`SYNTH_NONE`] for `main`.
    pub creator: u32,
    /// The site of the `pthread_create` call that starts it, or [`SYNTH_NONE`].
    pub create_site: u32,
}

/// An instrumented action.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SynthSite {
    /// A [`SynthSiteKind`].
    pub kind: u32,
    /// Source file.
    pub file: *const c_char,
    /// 1-based line of the statement.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
    /// What it does, for messages (`write count`, `lock m`, `branch: count < 5`).
    pub text: *const c_char,
}

/// One event of a section.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SynthEvent {
    /// The thread that performs it.
    pub thread: u32,
    /// The site it performs.
    pub site: u32,
    /// The thread it starts when it creates one, or [`SYNTH_NONE`].
    pub child: u32,
}

/// A successor of a section.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SynthSuccessor {
    /// The branch arm (a site) that selects it, or [`SYNTH_NONE`] for the only successor.
    pub site: u32,
    /// The section.
    pub section: u32,
}

/// A section schedule.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SynthSection {
    /// Index of its first event in `SynthSchedule::events` (and of its first clock row).
    pub first_event: u32,
    /// Number of events.
    pub event_count: u32,
    /// Index of its first successor in `SynthSchedule::successors`.
    pub first_successor: u32,
    /// Number of successors.
    pub successor_count: u32,
    /// A [`SynthEnd`].
    pub end: u32,
    /// With [`SynthEnd::Branch`], the thread whose branch arm selects the successor;
    /// otherwise [`SYNTH_NONE`].
    pub branch_thread: u32,
}

/// A whole program schedule.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SynthSchedule {
    /// [`SYNTH_SCHEDULE_VERSION`].
    pub version: u32,
    /// SHA-256 of the program (hex), checked against the instrumented program at start.
    pub program_sha256: *const c_char,
    /// Optimisation level the schedule was made with (0, 1 or 2).
    pub opt_level: u32,
    /// Number of threads; every clock row has this many entries.
    pub thread_count: u32,
    /// The threads.
    pub threads: *const SynthThread,
    /// Number of sites.
    pub site_count: u32,
    /// The sites.
    pub sites: *const SynthSite,
    /// Number of sections.
    pub section_count: u32,
    /// The sections.
    pub sections: *const SynthSection,
    /// Number of events of all sections.
    pub event_count: u32,
    /// The events of all sections, section by section.
    pub events: *const SynthEvent,
    /// `event_count * thread_count` vector-clock entries, one row per event.
    pub clocks: *const u32,
    /// Number of successors of all sections.
    pub successor_count: u32,
    /// The successors of all sections, section by section.
    pub successors: *const SynthSuccessor,
    /// The section the program starts in.
    pub initial_section: u32,
}

/// Status of [`synth_schedule_validate`] and of `synth_start`.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SynthStatus {
    /// The tables are consistent.
    Ok = 0,
    /// A null pointer where a table is required.
    Null = 1,
    /// The layout version differs from the library's.
    Version = 2,
    /// An index points outside its table, or a clock row is inconsistent.
    Corrupt = 3,
    /// The schedule was made for another program: its SHA-256 differs from the instrumented
    /// program's (`synth_start`).
    HashMismatch = 4,
    /// `synth_start` was already called in this process.
    AlreadyStarted = 5,
    /// The schedule could never make progress: a cycle of sections without events, each
    /// ending with its only successor (`synth_start`).
    Unschedulable = 6,
}

/// Checks that a schedule's tables are consistent: version, non-null tables, every index in
/// range, every section's events and successors inside the tables, and every event's own clock
/// entry equal to its position among its thread's events in the section.
///
/// # Safety
/// `s` must be null or point to a `SynthSchedule` whose non-null pointers point to arrays of
/// the lengths it states (what `prog.sched.h` defines).
#[no_mangle]
pub unsafe extern "C" fn synth_schedule_validate(s: *const SynthSchedule) -> SynthStatus {
    let Some(s) = (unsafe { s.as_ref() }) else {
        return SynthStatus::Null;
    };
    if s.version != SYNTH_SCHEDULE_VERSION {
        return SynthStatus::Version;
    }
    // Empty tables may be null; non-empty ones may not.
    unsafe fn slice<'a, T>(p: *const T, n: u32) -> Option<&'a [T]> {
        match (p.is_null(), n) {
            (_, 0) => Some(&[]),
            (true, _) => None,
            (false, n) => Some(unsafe { std::slice::from_raw_parts(p, n as usize) }),
        }
    }
    let n_threads = s.thread_count as usize;
    let tables = unsafe {
        (
            slice(s.sections, s.section_count),
            slice(s.events, s.event_count),
            slice(s.clocks, s.event_count.saturating_mul(s.thread_count)),
            slice(s.successors, s.successor_count),
            slice(s.threads, s.thread_count),
            slice(s.sites, s.site_count),
        )
    };
    let (Some(sections), Some(events), Some(clocks), Some(succs), Some(_), Some(_)) = tables else {
        return SynthStatus::Null;
    };
    if s.program_sha256.is_null() {
        return SynthStatus::Null;
    }
    // A panic must not cross the C boundary.
    let ok = std::panic::catch_unwind(|| validate(s, sections, events, clocks, succs, n_threads));
    if matches!(ok, Ok(true)) {
        SynthStatus::Ok
    } else {
        SynthStatus::Corrupt
    }
}

fn validate(
    s: &SynthSchedule,
    sections: &[SynthSection],
    events: &[SynthEvent],
    clocks: &[u32],
    succs: &[SynthSuccessor],
    n_threads: usize,
) -> bool {
    let in_range = |first: u32, count: u32, len: usize| {
        (first as usize)
            .checked_add(count as usize)
            .is_some_and(|end| end <= len)
    };
    if (s.initial_section as usize) >= sections.len() {
        return false;
    }
    sections.iter().all(|sec| {
        if !in_range(sec.first_event, sec.event_count, events.len())
            || !in_range(sec.first_successor, sec.successor_count, succs.len())
        {
            return false;
        }
        let first = sec.first_event as usize;
        let mut seen = vec![0u32; n_threads];
        let events_ok = (first..first + sec.event_count as usize).all(|e| {
            let ev = events[e];
            let t = ev.thread as usize;
            if t >= n_threads
                || ev.site >= s.site_count
                || (ev.child != SYNTH_NONE && ev.child as usize >= n_threads)
            {
                return false;
            }
            let ok = clocks[e * n_threads + t] == seen[t];
            seen[t] += 1;
            ok
        });
        let first = sec.first_successor as usize;
        let succs_ok = succs[first..first + sec.successor_count as usize]
            .iter()
            .all(|x| {
                x.section < s.section_count && (x.site == SYNTH_NONE || x.site < s.site_count)
            });
        let end_ok = match sec.end {
            0 => sec.successor_count == 0,
            1 => sec.successor_count == 1,
            2 => (sec.branch_thread as usize) < n_threads,
            _ => false,
        };
        events_ok && succs_ok && end_ok
    })
}
