//! The deployed form of a program schedule: sections whose futures are the same merged, and
//! branch arms whose outcome selects nothing left unreported.
//!
//! The proof's sections follow its ART, whose nodes tell apart states the schedule need not
//! (a loop over the bytes of a line, `strlen`'s, has a node per length read so far). Where
//! every arm of a branch leads to the same future, the built program gains nothing from
//! reporting the arm (a call into the runtime per byte), so the runtime is given the quotient
//! of the section graph by the equivalence "same events with the same vector clocks, same
//! end, equivalent successors" (a bisimulation, computed by partition refinement as in
//! Moore's minimisation of automata), with a section without events whose only successor
//! follows taken as that successor. A branch site is left out only where every section that
//! selects by it has equivalent successors on all its arms; an arm that is an event inside a
//! section (where the proof knows the outcome) is then no event either. The set of event
//! orders the runtime allows is the proof schedule's (seed 002, "Program schedules": a
//! schedule is a tree of sections; equivalent subtrees are the same constraint), so the
//! built program's executions are still ones the proof covers. The proof's schedule (JSON,
//! `synth explore --schedule`, the simulation check) keeps every section and its path.

use crate::schedule::{End, ProgramSchedule, Section, Successor};
use crate::sites::SiteKind;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use verifier::ir::{Program, TransKind};

/// The deployed form of `s`, a schedule of `prog`. Where merging would leave a loop of
/// sections without events (which the runtime could not pass), `s` itself.
pub fn deployed(prog: &Program, s: &ProgramSchedule) -> ProgramSchedule {
    // Branch sites that may go unreported: arms of branches of the program (not the outcome
    // of an assumption or a synchronisation).
    let mut hidden: BTreeSet<u32> = (s.sites.sites.iter())
        .filter(|site| site.kind == SiteKind::Branch)
        .filter(|site| {
            (site.instances.iter())
                .all(|&(t, tr)| prog.thread(t).transition(tr).kind == TransKind::Branch)
        })
        .map(|site| site.id)
        .collect();
    while !hidden.is_empty() {
        let sections = without_events_at(&s.sections, &hidden);
        let Some((merged, kept)) = quotient(&sections, &hidden) else {
            return s.clone();
        };
        if kept.is_empty() {
            let mut out = s.clone();
            out.sections = merged.sections;
            out.initial = merged.class[s.initial as usize] as u32;
            if out.idle_cycle().is_some() || out.validate().is_err() {
                return s.clone();
            }
            out.compute_stats();
            return out;
        }
        hidden.retain(|x| !kept.contains(x));
    }
    s.clone()
}

/// Sections with the events at `hidden` sites taken out, and the vector clocks of the
/// others adjusted (an event that waited for a removed one waits for what it waited for).
fn without_events_at(sections: &[Section], hidden: &BTreeSet<u32>) -> Vec<Section> {
    let mut out = sections.to_vec();
    for sec in &mut out {
        // Each removed event as its thread and its position among the thread's events.
        let removed: Vec<(usize, u32)> = (sec.events.iter())
            .filter(|e| hidden.contains(&e.site))
            .map(|e| (e.thread.0 as usize, e.vc[e.thread.0 as usize]))
            .collect();
        if removed.is_empty() {
            continue;
        }
        sec.events.retain(|e| !hidden.contains(&e.site));
        for e in &mut sec.events {
            let before = e.vc.clone();
            for &(t, k) in &removed {
                if before[t] > k {
                    e.vc[t] -= 1;
                }
            }
        }
    }
    out
}

/// The merged sections, and the one each original section stands for (a section without
/// events that passes to its only successor, that successor's).
struct Merged {
    sections: Vec<Section>,
    class: Vec<usize>,
}

/// The section `i` stands for: past sections without events that pass to their only
/// successor (`next[i] != i`).
fn resolve(next: &[usize], mut i: usize) -> usize {
    // (At most one visit per section: a loop of such sections stops where it closes.)
    for _ in 0..next.len() {
        if next[i] == i {
            return i;
        }
        i = next[i];
    }
    i
}

/// The quotient of `sections` with the branches by `hidden` sites taken as choices whose
/// arms must agree; the hidden sites some section still selects by (its arms lead to
/// different futures) are returned, and then the quotient is of no use. `None` where
/// sections without events pass on in a loop.
fn quotient(sections: &[Section], hidden: &BTreeSet<u32>) -> Option<(Merged, BTreeSet<u32>)> {
    let n = sections.len();
    // Where each section goes on: itself, or (without events, one way on) its successor.
    let mut next: Vec<usize> = (0..n).collect();
    // Sections whose branch is a choice that collapsed into one way on.
    let mut collapsed: Vec<Option<usize>> = vec![None; n];
    let choice = |sec: &Section| {
        sec.end == End::Branch
            && !sec.successors.is_empty()
            && (sec.successors.iter()).all(|x| x.site.is_some_and(|k| hidden.contains(&k)))
    };
    let mut class: Vec<usize>;
    loop {
        for (i, sec) in sections.iter().enumerate() {
            let on = match sec.end {
                End::Next => Some(sec.successors[0].section as usize),
                _ => collapsed[i],
            };
            next[i] = match on {
                Some(j) if sec.events.is_empty() => j,
                _ => i,
            };
        }
        class = refine(sections, &next, &collapsed);
        let mut changed = false;
        for (i, sec) in sections.iter().enumerate() {
            if collapsed[i].is_some() || !choice(sec) {
                continue;
            }
            let first = sec.successors[0].section as usize;
            let c = class[resolve(&next, first)];
            if (sec.successors.iter()).all(|x| class[resolve(&next, x.section as usize)] == c) {
                collapsed[i] = Some(first);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    if (0..n).any(|i| {
        let r = resolve(&next, i);
        next[r] != r
    }) {
        return None;
    }
    let kept: BTreeSet<u32> = (sections.iter().enumerate())
        .filter(|(i, sec)| collapsed[*i].is_none() && sec.end == End::Branch)
        .flat_map(|(_, sec)| sec.successors.iter().filter_map(|x| x.site))
        .filter(|k| hidden.contains(k))
        .collect();
    // One section per class, from its first member; sections that pass on belong to none.
    let mut ids: BTreeMap<usize, usize> = BTreeMap::new();
    let mut out: Vec<Section> = Vec::new();
    for i in 0..n {
        if next[i] != i || ids.contains_key(&class[i]) {
            continue;
        }
        ids.insert(class[i], out.len());
        let mut sec = sections[i].clone();
        sec.id = out.len() as u32;
        if let Some(j) = collapsed[i] {
            sec.end = End::Next;
            sec.branch_thread = None;
            sec.successors = vec![Successor {
                site: None,
                arm: None,
                section: j as u32,
            }];
        }
        out.push(sec);
    }
    for sec in &mut out {
        for x in &mut sec.successors {
            x.section = ids[&class[resolve(&next, x.section as usize)]] as u32;
        }
    }
    let class = (0..n).map(|i| ids[&class[resolve(&next, i)]]).collect();
    Some((
        Merged {
            sections: out,
            class,
        },
        kept,
    ))
}

/// The classes of the bisimulation of `sections` (Moore's partition refinement): sections
/// that pass on (`next[i] != i`) take their successor's class; the others are told apart by
/// their events, how they end and the classes of their successors by arm.
fn refine(sections: &[Section], next: &[usize], collapsed: &[Option<usize>]) -> Vec<usize> {
    let n = sections.len();
    type Local = (
        Vec<(u32, u32, Vec<u32>, Option<u32>, Option<u32>)>,
        u8,
        Option<u32>,
    );
    let local = |sec: &Section, i: usize| -> Local {
        let events = (sec.events.iter())
            .map(|e| {
                let child = e.child.map(|c| c.0);
                (e.thread.0, e.site, e.vc.clone(), child, e.outcome)
            })
            .collect();
        let (end, thread) = match (sec.end, collapsed[i]) {
            (End::Finish, _) => (0, None),
            (End::Next, _) | (End::Branch, Some(_)) => (1, None),
            (End::Branch, None) => (2, sec.branch_thread.map(|t| t.0)),
        };
        (events, end, thread)
    };
    let mut class: Vec<usize> = {
        let mut by: HashMap<Local, usize> = HashMap::new();
        (0..n)
            .map(|i| {
                let k = by.len();
                *by.entry(local(&sections[i], i)).or_insert(k)
            })
            .collect()
    };
    loop {
        let of = |class: &[usize], i: usize| class[resolve(next, i)];
        let mut by: HashMap<(usize, Vec<Arm>), usize> = HashMap::new();
        let new: Vec<usize> = (0..n)
            .map(|i| {
                let sec = &sections[i];
                let succ: Vec<Arm> = match (sec.end, collapsed[i]) {
                    (End::Branch, Some(j)) => vec![(None, of(&class, j))],
                    _ => (sec.successors.iter())
                        .map(|x| (x.site, of(&class, x.section as usize)))
                        .collect(),
                };
                let k = by.len();
                *by.entry((class[i], succ)).or_insert(k)
            })
            .collect();
        let count = |c: &[usize]| c.iter().collect::<BTreeSet<_>>().len();
        if count(&new) == count(&class) {
            return new;
        }
        class = new;
    }
}

/// A successor as the arm that selects it and its class.
type Arm = (Option<u32>, usize);
