//! Sites: the instrumented actions of a program (DESIGN.md, "Enforcement protocol").
//!
//! A site is a source-level action: a transition with shared memory events or a
//! synchronisation call, or a branch arm whose outcome selects the next section. Thread
//! instances of one function (and inlined copies of one statement) share their sites, because
//! the instrumented code is shared: a site is identified by the LLVM instruction it performs
//! ([`Transition::at`]; without one, by the transition's source span and its kinds of
//! access), its kind and its arm (position among the outgoing transitions of its location).
//! The instrumentation uses [`SiteTable::site_of`] to find the site of an IR
//! transition, so the schedule and the instrumented program agree.

use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use verifier::ir::{Access, Program, Span, SyncKind, ThreadId, TransId, TransKind, Transition};

/// What a site is; see `enforcer_rt::table::SynthSiteKind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SiteKind {
    /// A shared memory access.
    Access,
    /// A synchronisation call the schedule keeps.
    Sync,
    /// A synchronisation call the schedule subsumes; instrumentation removes it.
    Removed,
    /// A branch arm that selects the next section.
    Branch,
    /// A thread's exit (return from its start function, `pthread_exit`).
    ThreadExit,
}

/// An instrumented action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Site {
    /// Its id (index in the table).
    pub id: u32,
    /// What it is.
    pub kind: SiteKind,
    /// Source span of the statement.
    pub span: Option<Span>,
    /// Source file.
    pub file: String,
    /// What it does, for people (`write count`, `lock m`, `branch 2 of line 27`).
    pub text: String,
    /// The IR transitions (thread, transition) it stands for.
    pub instances: Vec<(ThreadId, TransId)>,
}

/// Every site of a program.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct SiteTable {
    /// Sites by id.
    pub sites: Vec<Site>,
    #[serde(skip)]
    by_instance: HashMap<(ThreadId, TransId), u32>,
}

/// The identity of a site: the expression it performs ([`Transition::at`], else the
/// statement's span), its kind, its arm (branches only) and, without an instruction, its kinds
/// of access. The variables
/// are not part of it: one expression reached through a pointer parameter bound to different
/// objects (inlined calls, thread instances) is one piece of instrumented code, so one site.
type Key = (Option<[u32; 2]>, Option<Span>, String, usize, Vec<u8>);

/// Whether a transition is a memory event or a synchronisation call (what Opt0 schedules).
pub fn is_visible(tr: &Transition) -> bool {
    !tr.events.is_empty() || matches!(tr.kind, TransKind::Sync(_))
}

impl SiteTable {
    /// Sites for every visible transition of `prog` and for the given branch arms; `removed`
    /// says which synchronisation transitions the schedule subsumes.
    pub fn new(
        prog: &Program,
        arms: &[(ThreadId, TransId)],
        removed: &dyn Fn(&Transition) -> bool,
    ) -> SiteTable {
        let mut table = SiteTable::default();
        let mut by_key: HashMap<Key, u32> = HashMap::new();
        let mut add = |t: ThreadId, tr: &Transition, kind: SiteKind| {
            // Only a branch arm's position matters (its successor in the LLVM module, whose
            // branch is copied into several contexts with different arms folded away), and a
            // synchronisation call is one site whatever its alternatives access (which waiter
            // a signal wakes, if any).
            let arm = match (kind, prog.bitcode.is_some(), tr.at) {
                (SiteKind::Branch, true, Some([_, k])) => k as usize,
                (SiteKind::Branch, _, _) => prog.thread(t).arm(tr),
                _ => 0,
            };
            // The alternatives of one instruction of the LLVM module (a recursive mutex's
            // relock beside its first lock, an allocation reusing a freed block beside a fresh
            // one) are one site: the instruction's code is one. They are named by the first.
            // A timed call's timeout is a site of its own beside its wake, lock or decrement:
            // the instrumented call asks the schedule which of the two comes.
            let timeout = |y: &Transition| matches!(y.kind, TransKind::Sync(k) if k.is_timeout());
            let rep = match (tr.at, prog.bitcode.is_some(), kind) {
                (Some(at), true, k) if k != SiteKind::Branch => prog
                    .thread(t)
                    .outgoing(tr.src)
                    .find(|y| y.at == Some(at) && is_visible(y) && timeout(y) == timeout(tr))
                    .unwrap_or(tr),
                _ => tr,
            };
            // An access of the LLVM module is one instruction whatever it reaches (an element
            // whose index the lowering left to the run time may be any field; a heap block's
            // access also reads its allocation status, a global's does not).
            let evs = if matches!(rep.kind, TransKind::Sync(_))
                || (prog.bitcode.is_some() && tr.at.is_some())
            {
                Vec::new()
            } else {
                rep.events.iter().map(|e| e.access as u8).collect()
            };
            let span = if tr.at.is_some() { None } else { tr.span };
            let key: Key = (tr.at, span, format!("{:?}/{kind:?}", rep.kind), arm, evs);
            let id = *by_key.entry(key).or_insert_with(|| {
                let id = table.sites.len() as u32;
                table.sites.push(Site {
                    id,
                    kind,
                    span: tr.span,
                    file: tr
                        .span
                        .and_then(|s| prog.files.get(s.file as usize))
                        .map(|f| f.path.clone())
                        .unwrap_or_default(),
                    text: describe(prog, tr, kind, arm),
                    instances: Vec::new(),
                });
                id
            });
            table.sites[id as usize].instances.push((t, tr.id));
        };
        for th in &prog.threads {
            for tr in &th.transitions {
                if is_visible(tr) {
                    let kind = if removed(tr) {
                        SiteKind::Removed
                    } else if tr.kind == TransKind::Sync(SyncKind::ThreadExit) {
                        SiteKind::ThreadExit
                    } else if matches!(tr.kind, TransKind::Sync(_)) {
                        SiteKind::Sync
                    } else {
                        SiteKind::Access
                    };
                    add(th.id, tr, kind);
                }
            }
        }
        let mut arms = arms.to_vec();
        arms.sort();
        arms.dedup();
        for (t, tr) in arms {
            add(t, prog.thread(t).transition(tr), SiteKind::Branch);
        }
        table.reindex();
        table
    }

    /// The site of an IR transition (its branch-arm site when it is used as one).
    pub fn site_of(&self, t: ThreadId, tr: TransId) -> Option<u32> {
        self.by_instance.get(&(t, tr)).copied()
    }

    /// Builds the instance index (also after deserialisation): a transition used as a branch
    /// arm maps to its branch site.
    pub fn reindex(&mut self) {
        self.by_instance.clear();
        for s in &self.sites {
            for &i in &s.instances {
                if s.kind == SiteKind::Branch || !self.by_instance.contains_key(&i) {
                    self.by_instance.insert(i, s.id);
                }
            }
        }
    }
}

fn describe(prog: &Program, tr: &Transition, kind: SiteKind, arm: usize) -> String {
    let line = tr.span.map(|s| s.line).unwrap_or(0);
    if kind == SiteKind::Branch {
        return format!("branch {} of line {line}", arm + 1);
    }
    let names = |access: Option<Access>| {
        tr.events
            .iter()
            .filter(|e| access.is_none_or(|a| e.access == a))
            .map(|e| prog.var(e.var).name.clone())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match &tr.kind {
        TransKind::Sync(k) => {
            let what = match k {
                SyncKind::MutexInit => "init",
                SyncKind::Lock => "lock",
                SyncKind::TryLock => "trylock",
                SyncKind::Unlock => "unlock",
                SyncKind::CondWaitRelease => "wait (release)",
                SyncKind::CondWaitWake => "wait (wake)",
                SyncKind::CondWaitTimeout => "wait (timeout)",
                SyncKind::TimedOut => "timed out",
                SyncKind::CondSignal => "signal",
                SyncKind::CondBroadcast => "broadcast",
                SyncKind::BarrierInit => "barrier init",
                SyncKind::BarrierArrive => "barrier arrive",
                SyncKind::BarrierLeave => "barrier leave",
                SyncKind::Spawn => "create thread",
                SyncKind::Join => "join",
                SyncKind::ThreadExit => "thread exit",
                SyncKind::AtomicBegin => "atomic begin",
                SyncKind::AtomicEnd => "atomic end",
                SyncKind::Yield => "yield",
                SyncKind::ReadLock => "read lock",
                SyncKind::WriteLock => "write lock",
                SyncKind::RwUnlock => "rwlock unlock",
                SyncKind::SemWait => "sem wait",
                SyncKind::SemPost => "sem post",
                SyncKind::Once => "once",
                SyncKind::Atomic => "atomic",
            };
            let objs = names(None);
            if objs.is_empty() {
                what.to_string()
            } else {
                format!("{what} {objs}")
            }
        }
        _ => {
            let mut parts = Vec::new();
            for (a, w) in [
                (Access::Read, "read"),
                (Access::Write, "write"),
                (Access::Update, "update"),
            ] {
                let n = names(Some(a));
                if !n.is_empty() {
                    parts.push(format!("{w} {n}"));
                }
            }
            parts.join(", ")
        }
    }
}
