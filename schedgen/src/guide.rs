//! Exploration under a program schedule: a [`verifier::explore::Guide`] that lets the
//! explorer run exactly the executions the enforcement runtime permits (DESIGN.md,
//! "Enforcement protocol"), so that `synth explore --schedule` checks a schedule
//! independently of the verifier and the schedule generator: every linear extension of every
//! section, every branch outcome and every input in the domain.
//!
//! It follows `enforcer_rt::enforcer` step by step, on IR transitions mapped to sites by the
//! schedule's site table (as the instrumentation maps them): a transition without a site runs
//! freely; a subsumed synchronisation call runs as a no-op; an event runs once it is the
//! thread's next event of the current section instance and its vector clock holds; a branch
//! arm at a section's end selects the successor; anything else the runtime would report as a
//! deviation is one here. The order the schedule imposes is handed to the partial-order
//! reduction as ordering tokens: an event writes its own token and reads the tokens of the
//! events its vector clock names; a thread's first action in a section instance reads the
//! previous instance's last events and branch arm.

use crate::schedule::{End, ProgramSchedule};
use crate::sites::SiteKind;
use verifier::explore::{Acc, Gate, Guide};
use verifier::ir::{LocId, Program, ThreadId, TransId};

/// A thread's events in a section: site, vector clock and the outcome chosen for it
/// ([`crate::schedule::Event::outcome`]).
type ThreadEvents = Vec<(u32, Vec<u32>, Option<u32>)>;

/// The guide of one schedule.
pub struct ScheduleGuide<'a> {
    sched: &'a ProgramSchedule,
    /// Per section, per thread: its events.
    events: Vec<Vec<ThreadEvents>>,
    /// Per thread, per location: what the guide says about its visibility.
    invisible: Vec<Vec<Option<bool>>>,
    /// Per thread, per transition: its position among its location's outgoing transitions.
    arm: Vec<Vec<u32>>,
}

/// Where the protocol is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// Section instances begun before the current one.
    generation: u64,
    /// The current section.
    section: u32,
    /// The section before (of the previous instance), if any.
    previous: Option<u32>,
    /// The schedule has ended.
    finished: bool,
    /// Per thread: its events done in the current instance.
    done: Vec<u32>,
    /// The successor the branching thread's arm selected.
    arm: Option<u32>,
}

fn done_token(generation: u64, thread: usize, n: u32) -> u64 {
    (generation << 36) | ((thread as u64) << 24) | u64::from(n)
}

fn arm_token(generation: u64) -> u64 {
    (1 << 62) | generation
}

impl<'a> ScheduleGuide<'a> {
    /// The guide of `sched`, a schedule of `prog` (the caller checks the program hash).
    pub fn new(prog: &Program, sched: &'a ProgramSchedule) -> Self {
        let n = prog.threads.len();
        let events = sched
            .sections
            .iter()
            .map(|s| {
                let mut per = vec![Vec::new(); n];
                for e in &s.events {
                    if let Some(v) = per.get_mut(e.thread.0 as usize) {
                        v.push((e.site, e.vc.clone(), e.outcome));
                    }
                }
                per
            })
            .collect();
        let invisible = prog
            .threads
            .iter()
            .map(|th| {
                (0..th.locations.len())
                    .map(|l| {
                        let kinds: Vec<Option<SiteKind>> = th
                            .outgoing(LocId(l as u32))
                            .map(|tr| {
                                sched
                                    .sites
                                    .site_of(th.id, tr.id)
                                    .map(|s| sched.sites.sites[s as usize].kind)
                            })
                            .collect();
                        if kinds
                            .iter()
                            .any(|k| k.is_some_and(|k| k != SiteKind::Removed))
                        {
                            Some(false)
                        } else if !kinds.is_empty()
                            && kinds.iter().all(|k| *k == Some(SiteKind::Removed))
                        {
                            Some(true)
                        } else {
                            None
                        }
                    })
                    .collect()
            })
            .collect();
        let arm = prog
            .threads
            .iter()
            .map(|th| th.transitions.iter().map(|x| th.arm(x) as u32).collect())
            .collect();
        ScheduleGuide {
            sched,
            events,
            invisible,
            arm,
        }
    }

    fn evs(&self, g: &Position, t: ThreadId) -> &[(u32, Vec<u32>, Option<u32>)] {
        self.events[g.section as usize]
            .get(t.0 as usize)
            .map_or(&[], |v| v.as_slice())
    }

    fn holds(&self, g: &Position, t: ThreadId, vc: &[u32]) -> bool {
        vc.iter()
            .enumerate()
            .all(|(u, &n)| u == t.0 as usize || g.done.get(u).copied().unwrap_or(0) >= n)
    }

    fn site_text(&self, site: u32) -> String {
        self.sched
            .sites
            .sites
            .get(site as usize)
            .map(|s| {
                let line = s
                    .span
                    .map(|sp| format!(" (line {})", sp.line))
                    .unwrap_or_default();
                format!("site {site}, {}{line}", s.text)
            })
            .unwrap_or_else(|| format!("site {site}"))
    }

    /// Advances past a complete section instance.
    fn advance(&self, g: &mut Position) {
        let n = g.done.len();
        let complete = (0..n).all(|t| g.done[t] as usize == self.evs(g, ThreadId(t as u32)).len());
        let sec = &self.sched.sections[g.section as usize];
        let mut next = match sec.end {
            _ if !complete => return,
            End::Finish => {
                g.finished = true;
                return;
            }
            End::Next => sec.successors[0].section,
            End::Branch => match g.arm {
                Some(s) => s,
                None => return,
            },
        };
        // Sections without events that end with their only successor are passed.
        loop {
            let s = &self.sched.sections[next as usize];
            if !s.events.is_empty() {
                break;
            }
            match s.end {
                End::Next => next = s.successors[0].section,
                End::Finish => {
                    g.finished = true;
                    break;
                }
                End::Branch => break,
            }
        }
        g.previous = Some(g.section);
        g.section = next;
        g.generation += 1;
        g.arm = None;
        g.done.iter_mut().for_each(|d| *d = 0);
    }

    /// Tokens read by a thread's first action in the current instance: the previous
    /// instance's last events and its branch arm.
    fn entry_tokens(&self, g: &Position, t: ThreadId, out: &mut Vec<Acc>) {
        if g.done[t.0 as usize] != 0 {
            return;
        }
        let Some(prev) = g.previous else {
            return;
        };
        let pg = g.generation - 1;
        for (u, evs) in self.events[prev as usize].iter().enumerate() {
            if !evs.is_empty() {
                out.push(Acc::token(done_token(pg, u, evs.len() as u32 - 1), false));
            }
        }
        if self.sched.sections[prev as usize].end == End::Branch {
            out.push(Acc::token(arm_token(pg), false));
        }
    }
}

impl Guide for ScheduleGuide<'_> {
    type State = Position;

    fn initial(&self) -> Position {
        let mut g = Position {
            generation: 0,
            section: self.sched.initial,
            previous: None,
            finished: false,
            done: vec![0; self.events.first().map_or(0, |s| s.len())],
            arm: None,
        };
        if self.sched.sections[g.section as usize].events.is_empty() {
            self.advance(&mut g);
        }
        g
    }

    fn gate(&self, g: &Position, t: ThreadId, tr: TransId) -> Gate {
        let Some(site) = self.sched.sites.site_of(t, tr) else {
            return Gate::Free;
        };
        let kind = self.sched.sites.sites[site as usize].kind;
        if kind == SiteKind::Removed {
            return Gate::Skip;
        }
        if g.finished {
            // After the end of the schedule the runtime keeps the thread waiting until the
            // process ends.
            return Gate::Wait;
        }
        let evs = self.evs(g, t);
        let pos = g.done[t.0 as usize] as usize;
        let sec = &self.sched.sections[g.section as usize];
        let branching = sec.end == End::Branch && sec.branch_thread == Some(t);
        if let Some((next, vc, outcome)) = evs.get(pos) {
            let expected = if kind == SiteKind::ThreadExit {
                self.sched.sites.sites[*next as usize].kind == SiteKind::ThreadExit
            } else {
                *next == site
            };
            if !expected {
                return Gate::Deviation(format!(
                    "it reaches {} where section {} expects {}",
                    self.site_text(site),
                    g.section,
                    self.site_text(*next)
                ));
            }
            // Another outcome than the schedule's choice does not happen in the deployed
            // program, where the schedule performs the waits.
            let chosen = outcome.is_none_or(|k| self.arm[t.0 as usize][tr.0 as usize] == k);
            return if chosen && self.holds(g, t, vc) {
                Gate::Go
            } else {
                Gate::Wait
            };
        }
        if branching && g.arm.is_none() {
            if kind != SiteKind::Branch {
                return Gate::Deviation(format!(
                    "it reaches {} before reporting the branch that ends section {}",
                    self.site_text(site),
                    g.section
                ));
            }
            return if sec.successors.iter().any(|s| s.site == Some(site)) {
                Gate::Go
            } else {
                Gate::Deviation(format!(
                    "it takes {}, which no successor of section {} has",
                    self.site_text(site),
                    g.section
                ))
            };
        }
        Gate::Wait
    }

    fn pass(&self, g: &mut Position, t: ThreadId, tr: TransId) -> Vec<Acc> {
        let mut out = Vec::new();
        let Some(site) = self.sched.sites.site_of(t, tr) else {
            return out;
        };
        self.entry_tokens(g, t, &mut out);
        let pos = g.done[t.0 as usize];
        match self.evs(g, t).get(pos as usize) {
            Some((_, vc, _)) => {
                out.push(Acc::token(
                    done_token(g.generation, t.0 as usize, pos),
                    true,
                ));
                for (u, &n) in vc.iter().enumerate() {
                    if u != t.0 as usize && n > 0 {
                        out.push(Acc::token(done_token(g.generation, u, n - 1), false));
                    }
                }
                g.done[t.0 as usize] += 1;
            }
            None => {
                let sec = &self.sched.sections[g.section as usize];
                let succ = sec
                    .successors
                    .iter()
                    .find(|s| s.site == Some(site))
                    .map(|s| s.section);
                out.push(Acc::token(arm_token(g.generation), true));
                g.arm = succ;
            }
        }
        self.advance(g);
        out
    }

    fn invisible(&self, t: ThreadId, l: LocId) -> Option<bool> {
        self.invisible
            .get(t.0 as usize)
            .and_then(|v| v.get(l.0 as usize))
            .copied()
            .flatten()
    }
}
