//! The program schedule (DESIGN.md, "Program schedules"; seed 002, "Partial-order
//! reduction"): sections with their events and vector clocks, linked to their successors, and
//! its JSON form (`prog.schedule.json`, format [`FORMAT`]).

use crate::sites::SiteTable;
use petgraph::graph::DiGraph;
use serde::{Deserialize, Serialize};
use verifier::ir::{ThreadId, TransId};

/// The format tag of schedule files.
pub const FORMAT: &str = "synth-schedule/1";

/// Optimisation level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Opt {
    /// Every event of the proof with the synchronisation operations.
    O0,
    /// Synchronisation operations the schedule subsumes are dropped.
    O1,
    /// Opt1, sections lengthened by unrolling cycles, array-index independence.
    O2,
}

impl Opt {
    /// 0, 1 or 2.
    pub fn level(self) -> u8 {
        self as u8
    }

    /// The level for 0, 1 or 2.
    pub fn from_level(n: u8) -> Option<Opt> {
        [Opt::O0, Opt::O1, Opt::O2].get(n as usize).copied()
    }
}

/// A thread of the program.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThreadInfo {
    /// `main`, or the start function with the instance.
    pub name: String,
    /// Start function.
    pub function: String,
    /// The creating thread and the site of its `pthread_create`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_by: Option<(ThreadId, Option<u32>)>,
}

/// One event of a section.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// The thread.
    pub thread: ThreadId,
    /// The site.
    pub site: u32,
    /// Index of its step in the section path.
    pub step: u32,
    /// The thread it starts, when its step creates one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub child: Option<ThreadId>,
    /// For a condition signal with several outcomes (which waiter it wakes), the one the
    /// schedule chose: the position of its step among the outgoing transitions of its
    /// location. The deployed program needs no record of it (the schedule performs the waits
    /// and orders the chosen waiter's wake-up after the signal); exploration under the
    /// schedule takes only this outcome.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<u32>,
    /// Vector clock: events of each thread that must happen before this one.
    pub vc: Vec<u32>,
}

/// How a section ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum End {
    /// No further events: the program ends, or its threads go on for ever with steps that are
    /// no events while the others stay blocked (a thread that reaches an event waits). The
    /// generator ends each cycle of sections without events this way
    /// ([`ProgramSchedule::end_cycle`]).
    Finish,
    /// The only successor follows.
    Next,
    /// The branching thread's arm selects the successor.
    Branch,
}

/// A successor of a section.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Successor {
    /// The branch arm that selects it (`None` for the only successor).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site: Option<u32>,
    /// The branch arm as an IR transition of the branching thread.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arm: Option<TransId>,
    /// The section.
    pub section: u32,
}

/// A section: a branch-free path of the ART and its section schedule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Section {
    /// Its id (index).
    pub id: u32,
    /// The ART node it starts at.
    pub start_node: u32,
    /// The whole path (thread, transition), events and thread-local steps, in proof order. A
    /// step of code of an environment model ([`verifier::ir::Transition::environment`])
    /// stands for the thread's whole call of the model, whichever path it takes.
    pub path: Vec<(ThreadId, TransId)>,
    /// The events, in proof order.
    pub events: Vec<Event>,
    /// How it ends.
    pub end: End,
    /// With [`End::Branch`], the branching thread.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch_thread: Option<ThreadId>,
    /// Successors.
    pub successors: Vec<Successor>,
}

/// Figures of a schedule.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    /// Sections.
    pub sections: usize,
    /// Events of all sections.
    pub events: usize,
    /// Ordering constraints between threads: for each event, the other threads it must wait
    /// for beyond what its thread's previous event already waited for.
    pub constraints: usize,
    /// Pairs of events of different threads in one section.
    pub cross_pairs: usize,
    /// Of those, pairs the schedule leaves unordered.
    pub unordered_pairs: usize,
    /// Synchronisation sites the schedule subsumes (instrumentation removes them).
    pub removed_sync_sites: usize,
}

impl Stats {
    /// Fraction of cross-thread event pairs left unordered (0 when there are none).
    pub fn unordered_fraction(&self) -> f64 {
        if self.cross_pairs == 0 {
            0.0
        } else {
            self.unordered_pairs as f64 / self.cross_pairs as f64
        }
    }
}

/// A program schedule.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ProgramSchedule {
    /// [`FORMAT`].
    pub format: String,
    /// SHA-256 of the program.
    pub program_sha256: String,
    /// The main source file.
    pub source: String,
    /// Optimisation level (0, 1, 2).
    pub opt: u8,
    /// Unrolling of section cycles (Opt2).
    pub unroll: u32,
    /// The threads.
    pub threads: Vec<ThreadInfo>,
    /// The sites.
    pub sites: SiteTable,
    /// The sections.
    pub sections: Vec<Section>,
    /// The section the program starts in.
    pub initial: u32,
    /// Figures.
    pub stats: Stats,
}

impl ProgramSchedule {
    /// Parses a schedule file, checking its format and internal consistency.
    pub fn from_json(text: &str) -> Result<ProgramSchedule, String> {
        let mut s: ProgramSchedule =
            serde_json::from_str(text).map_err(|e| format!("not a schedule file: {e}"))?;
        if s.format != FORMAT {
            return Err(format!(
                "unsupported format {:?} (expected {FORMAT:?})",
                s.format
            ));
        }
        s.sites.reindex();
        s.validate()?;
        Ok(s)
    }

    /// The JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a schedule serialises") + "\n"
    }

    /// Checks indices and clock shapes.
    pub fn validate(&self) -> Result<(), String> {
        let n = self.threads.len();
        let ns = self.sections.len() as u32;
        if self.initial >= ns {
            return Err("the initial section does not exist".into());
        }
        for (i, sec) in self.sections.iter().enumerate() {
            if sec.id as usize != i {
                return Err(format!("section {i} has id {}", sec.id));
            }
            let mut own = vec![0u32; n];
            for e in &sec.events {
                let t = e.thread.0 as usize;
                if t >= n || e.vc.len() != n || e.site as usize >= self.sites.sites.len() {
                    return Err(format!("section {i}: malformed event"));
                }
                if e.vc[t] != own[t] || e.step as usize >= sec.path.len() {
                    return Err(format!("section {i}: inconsistent vector clock"));
                }
                own[t] += 1;
            }
            if sec.successors.iter().any(|s| s.section >= ns) {
                return Err(format!("section {i}: successor does not exist"));
            }
            let ok = match sec.end {
                End::Finish => sec.successors.is_empty(),
                End::Next => sec.successors.len() == 1,
                End::Branch => sec.branch_thread.is_some_and(|t| (t.0 as usize) < n),
            };
            if !ok {
                return Err(format!("section {i}: successors do not match its end"));
            }
        }
        if let Some(cycle) = self.idle_cycle() {
            let list: Vec<String> = cycle.iter().map(|s| s.to_string()).collect();
            return Err(format!(
                "sections {} form a cycle without events (a schedule ends such a cycle with \
                 `finish`)",
                list.join(" -> ")
            ));
        }
        Ok(())
    }

    /// The cycles of the section graph restricted to the successor links `keep` accepts
    /// (section, successor): its strongly connected components with more than one section,
    /// or one section that is its own successor.
    fn cycles(&self, keep: impl Fn(usize, usize) -> bool) -> Vec<Vec<u32>> {
        let mut g: DiGraph<u32, ()> = DiGraph::new();
        let idx: Vec<_> = self.sections.iter().map(|s| g.add_node(s.id)).collect();
        for (i, sec) in self.sections.iter().enumerate() {
            for x in &sec.successors {
                let j = x.section as usize;
                if j < idx.len() && keep(i, j) {
                    g.add_edge(idx[i], idx[j], ());
                }
            }
        }
        petgraph::algo::kosaraju_scc(&g)
            .into_iter()
            .filter(|c| c.len() > 1 || g.contains_edge(c[0], c[0]))
            .map(|c| c.iter().map(|&n| g[n]).collect())
            .collect()
    }

    /// The threads that some loop of sections leaves where they are, with the sections of
    /// such a loop: for each thread, the cycles of the section graph through sections whose
    /// paths do not move it (each (thread, section) once).
    pub fn left_in_loops(&self) -> Vec<(ThreadId, u32)> {
        let mut out = Vec::new();
        for t in (0..self.threads.len() as u32).map(ThreadId) {
            let still: Vec<bool> = self
                .sections
                .iter()
                .map(|s| s.path.iter().all(|&(u, _)| u != t))
                .collect();
            for c in self.cycles(|i, j| still[i] && still[j]) {
                out.extend(c.into_iter().map(|s| (t, s)));
            }
        }
        out
    }

    /// A cycle of sections without events that each end with their only successor, if any:
    /// once in it, the schedule would pass its sections for ever (a runtime that advances
    /// past sections without events would never stop).
    pub fn idle_cycle(&self) -> Option<Vec<u32>> {
        let idle = |i: usize| {
            let sec = &self.sections[i];
            sec.end == End::Next && sec.events.is_empty()
        };
        self.cycles(|i, _| idle(i)).into_iter().next()
    }

    /// Ends the sections of `cycle` (an [`ProgramSchedule::idle_cycle`]) with [`End::Finish`].
    /// Sound for a fair IVR when no thread that stays where it is in the cycle waits there at
    /// a synchronisation the level removes ([`crate::generate`] checks): in a cycle of the
    /// proof in which a thread does not move, that thread is blocked throughout (the fairness
    /// check of the section builder), and the threads that move take steps that are no
    /// events, so no event ever happens once the cycle is reached; every thread that reaches
    /// an event then waits for ever, as in the proof (`main` at the join of a thread that
    /// loops for ever).
    pub fn end_cycle(&mut self, cycle: &[u32]) {
        for &s in cycle {
            let sec = &mut self.sections[s as usize];
            sec.end = End::Finish;
            sec.successors.clear();
        }
    }

    /// The section graph: an edge per successor link, labelled with the selecting site.
    pub fn graph(&self) -> DiGraph<u32, Option<u32>> {
        let mut g = DiGraph::new();
        let idx: Vec<_> = self.sections.iter().map(|s| g.add_node(s.id)).collect();
        for s in &self.sections {
            for x in &s.successors {
                g.add_edge(idx[s.id as usize], idx[x.section as usize], x.site);
            }
        }
        g
    }

    /// The sites its sections reach: their events and the arms they select by. (A branch arm
    /// that is neither is not reported: [`crate::deploy`].)
    pub fn used_sites(&self) -> std::collections::HashSet<u32> {
        (self.sections.iter())
            .flat_map(|s| {
                let events = s.events.iter().map(|e| e.site);
                events.chain(s.successors.iter().filter_map(|x| x.site))
            })
            .collect()
    }

    /// The sites the built program instruments: all but the branch arms no section reaches.
    pub fn instrumented_sites(&self) -> usize {
        let used = self.used_sites();
        (self.sites.sites.iter())
            .filter(|s| s.kind != crate::sites::SiteKind::Branch || used.contains(&s.id))
            .count()
    }

    /// Computes [`Stats`] from the sections.
    pub fn compute_stats(&mut self) {
        let n = self.threads.len();
        let mut st = Stats {
            sections: self.sections.len(),
            removed_sync_sites: self
                .sites
                .sites
                .iter()
                .filter(|s| s.kind == crate::sites::SiteKind::Removed)
                .count(),
            ..Stats::default()
        };
        for sec in &self.sections {
            st.events += sec.events.len();
            let mut prev: Vec<Option<&Vec<u32>>> = vec![None; n];
            for e in &sec.events {
                let t = e.thread.0 as usize;
                st.constraints += (0..n)
                    .filter(|&u| u != t && e.vc[u] > prev[t].map_or(0, |p| p[u]))
                    .count();
                prev[t] = Some(&e.vc);
            }
            for (i, a) in sec.events.iter().enumerate() {
                for b in &sec.events[i + 1..] {
                    if a.thread == b.thread {
                        continue;
                    }
                    st.cross_pairs += 1;
                    // a precedes b in proof order: ordered iff b waits for a.
                    if b.vc[a.thread.0 as usize] <= a.vc[a.thread.0 as usize] {
                        st.unordered_pairs += 1;
                    }
                }
            }
        }
        self.stats = st;
    }
}
