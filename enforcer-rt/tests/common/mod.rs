//! Helpers of the enforcer tests: schedules written as events with their explicit
//! dependencies, and the same schedules as C tables.
#![allow(dead_code)]

use enforcer_rt::enforcer::Enforcer;
use enforcer_rt::schedule::{
    End, EventSpec, Schedule, ScheduleSpec, SectionSpec, SiteInfo, ThreadInfo,
};
use enforcer_rt::table::{
    SynthEnd, SynthEvent, SynthSchedule, SynthSection, SynthSite, SynthSiteKind, SynthSuccessor,
    SynthThread, SYNTH_NONE, SYNTH_SCHEDULE_VERSION,
};
use std::ffi::CString;

/// A dependency of an event: (other thread, how many of its events of the section).
pub type Dep = (u32, u32);

/// An event as tests write it: (thread, site, dependencies).
pub type Ev<'a> = (u32, u32, &'a [Dep]);

pub const SHA: &str = "5eed0000000000000000000000000000000000000000000000000000000000ff";

/// A schedule under construction.
pub struct Spec {
    pub spec: ScheduleSpec,
}

impl Default for Spec {
    fn default() -> Spec {
        Spec::new()
    }
}

impl Spec {
    pub fn new() -> Spec {
        Spec {
            spec: ScheduleSpec {
                program_sha256: SHA.into(),
                opt_level: 0,
                threads: Vec::new(),
                sites: Vec::new(),
                sections: Vec::new(),
                initial_section: 0,
            },
        }
    }

    /// A thread not created by another (`main`).
    pub fn thread(&mut self, name: &str) -> u32 {
        self.child(name, None, None)
    }

    /// A thread created by `creator` at `site`.
    pub fn child(&mut self, name: &str, creator: Option<u32>, site: Option<u32>) -> u32 {
        self.spec.threads.push(ThreadInfo {
            name: name.into(),
            function: name.split('#').next().unwrap().into(),
            creator,
            create_site: site,
        });
        self.spec.threads.len() as u32 - 1
    }

    /// A site at `test.c:<id + 1>:1`.
    pub fn site(&mut self, kind: SynthSiteKind, text: &str) -> u32 {
        let id = self.spec.sites.len() as u32;
        self.spec.sites.push(SiteInfo {
            kind,
            file: "test.c".into(),
            line: id + 1,
            column: 1,
            text: text.into(),
        });
        id
    }

    pub fn access(&mut self, text: &str) -> u32 {
        self.site(SynthSiteKind::Access, text)
    }

    /// A section whose events are `(thread, site, waits)` in this order; `waits` lists
    /// `(other thread, count)`. It ends with `Finish` until [`Spec::end`] says otherwise. An
    /// event at a site where its thread creates threads starts the next of them in table
    /// order not started by an earlier event of the spec.
    pub fn section(&mut self, events: &[Ev<'_>]) -> u32 {
        let n = self.spec.threads.len();
        let mut started: Vec<u32> = self
            .spec
            .sections
            .iter()
            .flat_map(|s| s.events.iter().filter_map(|e| e.child))
            .collect();
        let threads = self.spec.threads.clone();
        let mut child_of = |t: u32, site: u32| {
            let c = (0..n as u32).find(|&c| {
                let i = &threads[c as usize];
                i.creator == Some(t) && i.create_site == Some(site) && !started.contains(&c)
            })?;
            started.push(c);
            Some(c)
        };
        let mut seen = vec![0u32; n];
        let events = events
            .iter()
            .map(|&(t, site, waits)| {
                let mut clock = vec![0u32; n];
                clock[t as usize] = seen[t as usize];
                for &(u, c) in waits {
                    clock[u as usize] = c;
                }
                seen[t as usize] += 1;
                EventSpec {
                    thread: t,
                    site,
                    child: child_of(t, site),
                    clock,
                }
            })
            .collect();
        self.spec.sections.push(SectionSpec {
            events,
            end: End::Finish,
        });
        self.spec.sections.len() as u32 - 1
    }

    pub fn end(&mut self, section: u32, end: End) {
        self.spec.sections[section as usize].end = end;
    }

    pub fn build(&self) -> Schedule {
        Schedule::new(self.spec.clone()).expect("a valid schedule")
    }

    pub fn enforcer(&self) -> Enforcer {
        Enforcer::new(self.build(), SHA).expect("the enforcer starts")
    }
}

/// A schedule as C tables (what `prog.sched.h` defines), owning its arrays and strings.
pub struct CTables {
    strings: Vec<CString>,
    threads: Vec<SynthThread>,
    sites: Vec<SynthSite>,
    sections: Vec<SynthSection>,
    events: Vec<SynthEvent>,
    clocks: Vec<u32>,
    successors: Vec<SynthSuccessor>,
    pub schedule: SynthSchedule,
}

// The raw pointers point into the tables' own heap buffers, which never move or change.
unsafe impl Send for CTables {}
unsafe impl Sync for CTables {}

impl CTables {
    pub fn new(spec: &ScheduleSpec) -> Box<CTables> {
        let mut strings = Vec::new();
        let mut s = |x: &str| {
            let c = CString::new(x).unwrap();
            let p = c.as_ptr();
            strings.push(c);
            p
        };
        let none = |x: Option<u32>| x.unwrap_or(SYNTH_NONE);
        let threads: Vec<SynthThread> = spec
            .threads
            .iter()
            .map(|t| SynthThread {
                name: s(&t.name),
                function: s(&t.function),
                creator: none(t.creator),
                create_site: none(t.create_site),
            })
            .collect();
        let sites: Vec<SynthSite> = spec
            .sites
            .iter()
            .map(|x| SynthSite {
                kind: x.kind as u32,
                file: s(&x.file),
                line: x.line,
                column: x.column,
                text: s(&x.text),
            })
            .collect();
        let sha = s(&spec.program_sha256);
        let (mut sections, mut events, mut clocks, mut successors) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for sec in &spec.sections {
            let first_event = events.len() as u32;
            let first_successor = successors.len() as u32;
            for e in &sec.events {
                events.push(SynthEvent {
                    thread: e.thread,
                    site: e.site,
                    child: none(e.child),
                });
                clocks.extend_from_slice(&e.clock);
            }
            let (end, branch_thread) = match &sec.end {
                End::Finish => (SynthEnd::Finish, SYNTH_NONE),
                End::Next(n) => {
                    successors.push(SynthSuccessor {
                        site: SYNTH_NONE,
                        section: *n,
                    });
                    (SynthEnd::Next, SYNTH_NONE)
                }
                End::Branch { thread, arms } => {
                    successors.extend(arms.iter().map(|a| SynthSuccessor {
                        site: a.site,
                        section: a.section,
                    }));
                    (SynthEnd::Branch, *thread)
                }
            };
            sections.push(SynthSection {
                first_event,
                event_count: sec.events.len() as u32,
                first_successor,
                successor_count: successors.len() as u32 - first_successor,
                end: end as u32,
                branch_thread,
            });
        }
        let mut t = Box::new(CTables {
            strings,
            threads,
            sites,
            sections,
            events,
            clocks,
            successors,
            schedule: SynthSchedule {
                version: SYNTH_SCHEDULE_VERSION,
                program_sha256: sha,
                opt_level: spec.opt_level,
                thread_count: spec.threads.len() as u32,
                threads: std::ptr::null(),
                site_count: spec.sites.len() as u32,
                sites: std::ptr::null(),
                section_count: spec.sections.len() as u32,
                sections: std::ptr::null(),
                event_count: 0,
                events: std::ptr::null(),
                clocks: std::ptr::null(),
                successor_count: 0,
                successors: std::ptr::null(),
                initial_section: spec.initial_section,
            },
        });
        t.schedule.threads = t.threads.as_ptr();
        t.schedule.sites = t.sites.as_ptr();
        t.schedule.sections = t.sections.as_ptr();
        t.schedule.event_count = t.events.len() as u32;
        t.schedule.events = t.events.as_ptr();
        t.schedule.clocks = t.clocks.as_ptr();
        t.schedule.successor_count = t.successors.len() as u32;
        t.schedule.successors = t.successors.as_ptr();
        t
    }
}

/// A small deterministic generator (xorshift64*).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}
