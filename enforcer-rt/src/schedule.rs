//! A program schedule in owned, precomputed Rust form: what the enforcer ([`crate::enforcer`])
//! reads on its fast path (seed 002, "Partial-order reduction" and "Implementation";
//! DESIGN.md, "Enforcement protocol").
//!
//! A [`Schedule`] is built either from a [`ScheduleSpec`] (the tables of
//! [`crate::table`] as Rust values, what tests write) with [`Schedule::new`], or from the static
//! C tables of `prog.sched.h` with [`Schedule::from_tables`], the only `unsafe` of the safe
//! core. Construction checks everything the enforcer relies on, so that the enforcer never
//! indexes out of range and never waits for an event that cannot come:
//!
//! * every index in range, every clock row `thread_count` long;
//! * each section's events listed in an order consistent with their vector clocks (an event
//!   waits only for events listed before it), so that no section waits for itself;
//! * no cycle of sections without events that each end with their only successor: such a
//!   schedule could never make progress ([`ScheduleError::Unschedulable`]; the generator ends
//!   a proof's loop without events with the end of the schedule instead, where a thread that
//!   reaches an event waits).
//!
//! Per section and thread it keeps that thread's events, each with the cross-thread
//! constraints of its vector clock that the thread's earlier events of the section do not
//! already imply.

use crate::table::{
    synth_schedule_validate, SynthEnd, SynthSchedule, SynthSiteKind, SynthStatus, SYNTH_NONE,
};
use std::ffi::CStr;
use std::fmt;
use std::os::raw::c_char;

/// One thread of the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadInfo {
    /// `main`, or the start function with the instance (`worker#2`).
    pub name: String,
    /// Start function.
    pub function: String,
    /// The creating thread (`None` for `main`).
    pub creator: Option<u32>,
    /// The site of the `pthread_create` call that starts it.
    pub create_site: Option<u32>,
}

/// An instrumented action of the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SiteInfo {
    /// What it is.
    pub kind: SynthSiteKind,
    /// Source file.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
    /// What it does, for messages (`write count`).
    pub text: String,
}

/// A successor of a section that ends with a branch: the arm (a site) that selects it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arm {
    /// The branch-arm site the branching thread reports.
    pub site: u32,
    /// The section it selects.
    pub section: u32,
}

/// How a section ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// The program ends.
    Finish,
    /// The only successor (a section) follows.
    Next(u32),
    /// Thread `thread` reports a branch arm; the arm with that site selects the successor.
    Branch {
        /// The branching thread.
        thread: u32,
        /// The successors, by arm site (the first arm with a site counts).
        arms: Vec<Arm>,
    },
}

/// One event of a section, as the tables state it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventSpec {
    /// The thread that performs it.
    pub thread: u32,
    /// The site it performs.
    pub site: u32,
    /// The thread it starts, when it creates one (the thread's creator and create site are
    /// this event's thread and site).
    pub child: Option<u32>,
    /// Its vector clock: for every thread `U`, how many of `U`'s events of this section must
    /// be complete before it runs (for its own thread, its position among its events).
    pub clock: Vec<u32>,
}

/// One section as the tables state it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SectionSpec {
    /// The events, in one linear order consistent with their vector clocks.
    pub events: Vec<EventSpec>,
    /// How it ends.
    pub end: End,
}

/// A whole program schedule as the tables state it ([`crate::table::SynthSchedule`] as Rust
/// values).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduleSpec {
    /// SHA-256 of the program (hex).
    pub program_sha256: String,
    /// Optimisation level the schedule was made with.
    pub opt_level: u32,
    /// The threads; thread 0 is `main`.
    pub threads: Vec<ThreadInfo>,
    /// The sites.
    pub sites: Vec<SiteInfo>,
    /// The sections.
    pub sections: Vec<SectionSpec>,
    /// The section the program starts in.
    pub initial_section: u32,
}

/// A cross-thread constraint of an event: thread `thread` must have completed `count` events
/// of the current section.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wait {
    /// The other thread.
    pub thread: u32,
    /// How many of its events of the section.
    pub count: u32,
}

/// One event of a thread in a section, precomputed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// The site the thread must reach.
    pub site: u32,
    /// The constraints beyond those of the thread's earlier events of the section.
    pub waits: Box<[Wait]>,
    /// Whether an event of another thread in the section waits for this one: only then does
    /// the thread publish its counter after it (the others' counts are never waited for).
    pub publish: bool,
    /// The thread it starts, or [`SYNTH_NONE`].
    pub child: u32,
}

/// One section, precomputed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// Per thread, its events in program order.
    threads: Box<[Box<[Event]>]>,
    /// Number of threads with at least one event.
    active: u32,
    end: End,
}

impl Section {
    /// The events of `thread` (empty for a thread out of range).
    pub fn events(&self, thread: u32) -> &[Event] {
        self.threads.get(thread as usize).map_or(&[], |e| e)
    }

    /// Number of threads with at least one event in the section.
    pub fn active_threads(&self) -> u32 {
        self.active
    }

    /// Whether the section has no events at all.
    pub fn is_empty(&self) -> bool {
        self.active == 0
    }

    /// How the section ends.
    pub fn end(&self) -> &End {
        &self.end
    }
}

/// A program schedule, checked and precomputed for the enforcer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    program_sha256: String,
    opt_level: u32,
    threads: Vec<ThreadInfo>,
    sites: Vec<SiteInfo>,
    sections: Vec<Section>,
    initial: u32,
}

/// Why a schedule cannot be enforced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScheduleError {
    /// `synth_schedule_validate` refused the C tables with this status.
    Tables(SynthStatus),
    /// The tables are inconsistent (what and where).
    Invalid(String),
    /// A cycle of sections without events, each ending with its only successor: the program
    /// could never make progress. The sections of the cycle.
    Unschedulable(Vec<u32>),
    /// The schedule was made for another program.
    HashMismatch {
        /// The schedule's program SHA-256.
        schedule: String,
        /// The SHA-256 of the program being run.
        program: String,
    },
}

impl ScheduleError {
    /// The C status code of this error.
    pub fn status(&self) -> SynthStatus {
        match self {
            ScheduleError::Tables(s) => *s,
            ScheduleError::Invalid(_) => SynthStatus::Corrupt,
            ScheduleError::Unschedulable(_) => SynthStatus::Unschedulable,
            ScheduleError::HashMismatch { .. } => SynthStatus::HashMismatch,
        }
    }
}

impl fmt::Display for ScheduleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScheduleError::Tables(s) => {
                let why = match s {
                    SynthStatus::Null => "a required table or string is a null pointer",
                    SynthStatus::Version => "the table layout version differs from the runtime's",
                    _ => "an index points outside its table, or a clock row is inconsistent",
                };
                write!(
                    f,
                    "the schedule's tables are invalid: {why} (status {})",
                    *s as i32
                )
            }
            ScheduleError::Invalid(what) => write!(f, "the schedule is inconsistent: {what}"),
            ScheduleError::Unschedulable(cycle) => {
                let list: Vec<String> = cycle.iter().map(|s| s.to_string()).collect();
                write!(
                    f,
                    "the schedule can never make progress: sections {} form a cycle without \
                     events",
                    list.join(" -> ")
                )
            }
            ScheduleError::HashMismatch { schedule, program } => write!(
                f,
                "the schedule was made for another program: its program SHA-256 is {schedule}, \
                 the running program's is {program}"
            ),
        }
    }
}

impl std::error::Error for ScheduleError {}

impl Schedule {
    /// Checks `spec` and precomputes the per-thread event lists.
    pub fn new(spec: ScheduleSpec) -> Result<Schedule, ScheduleError> {
        let invalid = |what: String| Err(ScheduleError::Invalid(what));
        let n = spec.threads.len();
        let n_sites = spec.sites.len();
        let n_sections = spec.sections.len();
        // u32::MAX and u32::MAX - 1 are sentinels of the enforcer.
        if n == 0 || n >= (u32::MAX - 1) as usize {
            return invalid(format!("{n} threads"));
        }
        if n_sites > u32::MAX as usize || n_sections == 0 || n_sections >= u32::MAX as usize {
            return invalid(format!("{n_sites} sites, {n_sections} sections"));
        }
        if spec.initial_section as usize >= n_sections {
            return invalid(format!(
                "initial section {} out of range",
                spec.initial_section
            ));
        }
        for (i, t) in spec.threads.iter().enumerate() {
            if t.creator.is_some_and(|c| c as usize >= n)
                || t.create_site.is_some_and(|s| s as usize >= n_sites)
            {
                return invalid(format!("thread {i}: creator or create site out of range"));
            }
        }
        let mut sections = Vec::with_capacity(n_sections);
        // Per section: events of each thread listed so far, and (row per thread) what each
        // thread's events required; reset after each section for the threads it has.
        let mut seen = vec![0u32; n];
        let mut required = vec![0u32; n * n];
        for (si, sec) in spec.sections.iter().enumerate() {
            let mut per_thread: Vec<Vec<Event>> = vec![Vec::new(); n];
            for (ei, ev) in sec.events.iter().enumerate() {
                let t = ev.thread as usize;
                if t >= n || ev.site as usize >= n_sites || ev.clock.len() != n {
                    return invalid(format!(
                        "section {si}, event {ei}: thread, site or clock length out of range"
                    ));
                }
                if let Some(c) = ev.child {
                    let info = spec.threads.get(c as usize);
                    if info.is_none_or(|i| {
                        i.creator != Some(ev.thread) || i.create_site != Some(ev.site)
                    }) {
                        return invalid(format!(
                            "section {si}, event {ei}: starts thread {c}, which this event's \
                             thread does not create at its site"
                        ));
                    }
                }
                if ev.clock[t] != seen[t] {
                    return invalid(format!(
                        "section {si}, event {ei}: its own clock entry {} is not its position {} \
                         among its thread's events",
                        ev.clock[t], seen[t]
                    ));
                }
                if let Some(u) = (0..n).find(|&u| ev.clock[u] > seen[u]) {
                    return invalid(format!(
                        "section {si}, event {ei}: waits for {} events of thread {u}, of which \
                         only {} are listed before it",
                        ev.clock[u], seen[u]
                    ));
                }
                let req = &mut required[t * n..(t + 1) * n];
                let mut waits = Vec::new();
                for u in (0..n).filter(|&u| u != t) {
                    if ev.clock[u] > req[u] {
                        // The event waited for is listed already (checked above): it publishes.
                        per_thread[u][ev.clock[u] as usize - 1].publish = true;
                        waits.push(Wait {
                            thread: u as u32,
                            count: ev.clock[u],
                        });
                        req[u] = ev.clock[u];
                    }
                }
                per_thread[t].push(Event {
                    site: ev.site,
                    child: ev.child.unwrap_or(SYNTH_NONE),
                    waits: waits.into_boxed_slice(),
                    publish: false,
                });
                seen[t] += 1;
            }
            for (t, count) in seen.iter_mut().enumerate() {
                if *count != 0 {
                    *count = 0;
                    required[t * n..(t + 1) * n].fill(0);
                }
            }
            let in_range = |s: u32| (s as usize) < n_sections;
            match &sec.end {
                End::Finish => {}
                End::Next(s) if in_range(*s) => {}
                End::Branch { thread, arms }
                    if (*thread as usize) < n
                        && arms
                            .iter()
                            .all(|a| in_range(a.section) && (a.site as usize) < n_sites) => {}
                _ => return invalid(format!("section {si}: successor or thread out of range")),
            }
            let active = per_thread.iter().filter(|e| !e.is_empty()).count() as u32;
            sections.push(Section {
                threads: per_thread.into_iter().map(Vec::into_boxed_slice).collect(),
                active,
                end: sec.end.clone(),
            });
        }
        if let Some(cycle) = empty_cycle(&sections) {
            return Err(ScheduleError::Unschedulable(cycle));
        }
        Ok(Schedule {
            program_sha256: spec.program_sha256,
            opt_level: spec.opt_level,
            threads: spec.threads,
            sites: spec.sites,
            sections,
            initial: spec.initial_section,
        })
    }

    /// Converts the static C tables of `prog.sched.h`, after [`synth_schedule_validate`] has
    /// accepted them, and checks them like [`Schedule::new`]. Null strings read as `"?"`.
    ///
    /// # Safety
    /// `s` must be null or point to a `SynthSchedule` whose non-null pointers point to arrays
    /// of the lengths it states and to NUL-terminated strings (what `prog.sched.h` defines).
    pub unsafe fn from_tables(s: *const SynthSchedule) -> Result<Schedule, ScheduleError> {
        let status = unsafe { synth_schedule_validate(s) };
        if status != SynthStatus::Ok {
            return Err(ScheduleError::Tables(status));
        }
        // Validation accepted: `s` is non-null and every table is as long as it states.
        let s = unsafe { &*s };
        unsafe fn slice<'a, T>(p: *const T, n: usize) -> &'a [T] {
            if n == 0 {
                &[]
            } else {
                unsafe { std::slice::from_raw_parts(p, n) }
            }
        }
        unsafe fn string(p: *const c_char) -> String {
            if p.is_null() {
                "?".to_owned()
            } else {
                unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
            }
        }
        let n = s.thread_count as usize;
        let (threads, sites, sections, events, clocks, succs) = unsafe {
            (
                slice(s.threads, n),
                slice(s.sites, s.site_count as usize),
                slice(s.sections, s.section_count as usize),
                slice(s.events, s.event_count as usize),
                slice(s.clocks, s.event_count as usize * n),
                slice(s.successors, s.successor_count as usize),
            )
        };
        let opt = |x: u32| (x != SYNTH_NONE).then_some(x);
        let threads = threads
            .iter()
            .map(|t| ThreadInfo {
                name: unsafe { string(t.name) },
                function: unsafe { string(t.function) },
                creator: opt(t.creator),
                create_site: opt(t.create_site),
            })
            .collect();
        let mut site_infos = Vec::with_capacity(sites.len());
        for (i, x) in sites.iter().enumerate() {
            let kind = match x.kind {
                0 => SynthSiteKind::Access,
                1 => SynthSiteKind::Sync,
                2 => SynthSiteKind::Removed,
                3 => SynthSiteKind::Branch,
                4 => SynthSiteKind::ThreadExit,
                k => {
                    return Err(ScheduleError::Invalid(format!(
                        "site {i}: unknown kind {k}"
                    )))
                }
            };
            site_infos.push(SiteInfo {
                kind,
                file: unsafe { string(x.file) },
                line: x.line,
                column: x.column,
                text: unsafe { string(x.text) },
            });
        }
        let mut secs = Vec::with_capacity(sections.len());
        for (i, sec) in sections.iter().enumerate() {
            let first = sec.first_event as usize;
            let evs = (first..first + sec.event_count as usize)
                .map(|e| EventSpec {
                    thread: events[e].thread,
                    site: events[e].site,
                    child: (events[e].child != SYNTH_NONE).then_some(events[e].child),
                    clock: clocks[e * n..(e + 1) * n].to_vec(),
                })
                .collect();
            let first = sec.first_successor as usize;
            let succ = &succs[first..first + sec.successor_count as usize];
            let end = match sec.end {
                x if x == SynthEnd::Finish as u32 => End::Finish,
                x if x == SynthEnd::Next as u32 => End::Next(succ[0].section),
                _ => {
                    if let Some(x) = succ.iter().find(|x| x.site == SYNTH_NONE) {
                        return Err(ScheduleError::Invalid(format!(
                            "section {i}: a branch successor (section {}) without an arm site",
                            x.section
                        )));
                    }
                    End::Branch {
                        thread: sec.branch_thread,
                        arms: succ
                            .iter()
                            .map(|x| Arm {
                                site: x.site,
                                section: x.section,
                            })
                            .collect(),
                    }
                }
            };
            secs.push(SectionSpec { events: evs, end });
        }
        Schedule::new(ScheduleSpec {
            program_sha256: unsafe { string(s.program_sha256) },
            opt_level: s.opt_level,
            threads,
            sites: site_infos,
            sections: secs,
            initial_section: s.initial_section,
        })
    }

    /// SHA-256 of the program (hex) the schedule was made for.
    pub fn program_sha256(&self) -> &str {
        &self.program_sha256
    }

    /// Optimisation level the schedule was made with.
    pub fn opt_level(&self) -> u32 {
        self.opt_level
    }

    /// The threads; thread 0 is `main`.
    pub fn threads(&self) -> &[ThreadInfo] {
        &self.threads
    }

    /// The sites.
    pub fn sites(&self) -> &[SiteInfo] {
        &self.sites
    }

    /// The sections.
    pub fn sections(&self) -> &[Section] {
        &self.sections
    }

    /// The section the program starts in.
    pub fn initial_section(&self) -> u32 {
        self.initial
    }
}

/// A cycle of sections without events that each end with their only successor, if any.
fn empty_cycle(sections: &[Section]) -> Option<Vec<u32>> {
    let next = |s: usize| match sections[s].end {
        End::Next(n) if sections[s].is_empty() => Some(n as usize),
        _ => None,
    };
    // 0: unvisited, 1: on the current walk, 2: done (no cycle through it).
    let mut state = vec![0u8; sections.len()];
    for start in 0..sections.len() {
        let mut walk = Vec::new();
        let mut s = start;
        loop {
            match state[s] {
                2 => break,
                1 => {
                    let from = walk.iter().position(|&x| x == s).unwrap_or(0);
                    return Some(walk[from..].iter().map(|&x| x as u32).collect());
                }
                _ => {}
            }
            state[s] = 1;
            walk.push(s);
            match next(s) {
                Some(n) => s = n,
                None => break,
            }
        }
        for x in walk {
            state[x] = 2;
        }
    }
    None
}
