//! The deployed form of a schedule ([`schedgen::deploy`]) allows the event orders the proof's
//! schedule allows, and no others, with fewer branch reports where arms lead to the same
//! future.
//!
//! The check is independent of the merging: random walks through the proof's sections, each
//! choosing an arm at random, give what the runtime sees (each section's events with their
//! order between threads, and the arm of every branch the deployed program reports); the
//! deployed sections, driven by those reports, must show the same.

mod common;

use schedgen::schedule::{End, ProgramSchedule, Section};
use schedgen::{generate, Opt, Options};
use std::collections::BTreeSet;
use std::path::PathBuf;
use verifier::ir::Program;

/// What the runtime sees of a section: each event's thread and site, and which earlier
/// events each waits for (by position in the section).
type Block = Vec<(u32, u32, Vec<usize>)>;

#[derive(Debug, PartialEq)]
enum Seen {
    Events(Block),
    /// A reported arm, with the arms the section had.
    Arm(u32, BTreeSet<u32>),
    Finish,
}

/// The events of `sec` at `sites`, each with the earlier ones it waits for (directly or
/// not: the clocks are closed under transitivity).
fn block(sec: &Section, sites: &BTreeSet<u32>) -> Block {
    let evs: Vec<_> = sec
        .events
        .iter()
        .filter(|e| sites.contains(&e.site))
        .collect();
    (evs.iter().enumerate())
        .map(|(i, b)| {
            let waits = (0..i)
                .filter(|&j| {
                    let a = evs[j];
                    let t = a.thread.0 as usize;
                    b.vc[t] > a.vc[t]
                })
                .collect();
            (b.thread.0, b.site, waits)
        })
        .collect()
}

/// The branch sites the deployed program reports, and the event sites.
fn visible(d: &ProgramSchedule) -> (BTreeSet<u32>, BTreeSet<u32>) {
    let arms = (d.sections.iter())
        .flat_map(|s| s.successors.iter().filter_map(|x| x.site))
        .collect();
    let events = (d.sections.iter())
        .flat_map(|s| s.events.iter().map(|e| e.site))
        .collect();
    (arms, events)
}

/// A walk of at most `steps` sections of `s` from its start, where the deployed program has
/// the events at `events`: what its runtime sees. At a branching end, `arm` names the
/// successor taken and whether the built program reports it (`None` ends the walk).
fn walk(
    s: &ProgramSchedule,
    events: &BTreeSet<u32>,
    steps: usize,
    mut arm: impl FnMut(&Section) -> Option<(usize, bool)>,
) -> Vec<Seen> {
    let mut out = Vec::new();
    let mut at = s.initial as usize;
    for _ in 0..steps {
        let sec = &s.sections[at];
        let b = block(sec, events);
        if !b.is_empty() {
            out.push(Seen::Events(b));
        }
        match sec.end {
            End::Finish => {
                out.push(Seen::Finish);
                break;
            }
            End::Next => at = sec.successors[0].section as usize,
            End::Branch => {
                let Some((k, reported)) = arm(sec) else { break };
                let x = &sec.successors[k];
                if let (Some(site), true) = (x.site, reported) {
                    let all = sec.successors.iter().filter_map(|y| y.site).collect();
                    out.push(Seen::Arm(site, all));
                }
                at = x.section as usize;
            }
        }
    }
    out
}

/// The deployed schedule `d` driven by the arms the proof's walk `seen` reports.
fn replay(d: &ProgramSchedule, seen: &[Seen], events: &BTreeSet<u32>) -> Vec<Seen> {
    let mut arms = seen.iter().filter_map(|x| match x {
        Seen::Arm(site, _) => Some(*site),
        _ => None,
    });
    // (Sections without events and one way on may be passed many times per item seen.)
    let mut out = walk(d, events, seen.len() * 4 + 8, |sec| {
        let site = arms.next()?;
        let k = sec.successors.iter().position(|x| x.site == Some(site))?;
        Some((k, true))
    });
    out.truncate(seen.len());
    out
}

/// Checks the deployed form of `p`'s schedules at every level against the proof's on
/// `walks` random walks; returns (proof sections, deployed sections, deployed branches) at
/// Opt2.
fn check(p: &Program, walks: u64) -> (usize, usize, usize) {
    let art = common::first_safe(p, 60).expect("a safe IVR");
    let mut figures = (0, 0, 0);
    for opt in [Opt::O0, Opt::O1, Opt::O2] {
        let s = generate(
            p,
            &art,
            Options {
                opt,
                ..Options::default()
            },
        )
        .expect("a schedule");
        let d = schedgen::deploy::deployed(p, &s);
        assert_eq!(d.validate(), Ok(()));
        let (arms, events) = visible(&d);
        // Every event the deployed schedule drops is a branch arm it no longer reports.
        for sec in &s.sections {
            for e in sec.events.iter().filter(|e| !events.contains(&e.site)) {
                let site = &s.sites.sites[e.site as usize];
                assert_eq!(site.kind, schedgen::sites::SiteKind::Branch, "{opt:?}");
                assert!(!arms.contains(&e.site), "{opt:?}");
            }
        }
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..walks {
            let proof = walk(&s, &events, 400, |sec| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let k = (seed % sec.successors.len() as u64) as usize;
                let reported = sec.successors[k].site.is_some_and(|x| arms.contains(&x));
                Some((k, reported))
            });
            // (Each deployed section shows something: it needs no more steps than items.)
            assert_eq!(proof, replay(&d, &proof, &events), "{opt:?}");
        }
        let branches = d.sections.iter().filter(|x| x.end == End::Branch).count();
        figures = (s.sections.len(), d.sections.len(), branches);
    }
    figures
}

fn program(rel: &str) -> Program {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(rel);
    verifier::frontend::load(&path, &Default::default()).expect("lowers")
}

#[test]
fn a_line_loop_reports_no_arm_of_strlen() {
    let p = program("tests/programs/environment/line_lengths.c");
    let (proof, deployed, branches) = check(&p, 200);
    // The proof has a section per length of a line read so far; whatever the line, the
    // future is the same: read the next one. Only the end of the input is reported.
    assert!(proof > 50, "{proof}");
    assert!(
        deployed <= 3 && branches <= 1,
        "{deployed} sections, {branches} branches"
    );
}

#[test]
fn threads_keep_their_orders_and_the_branches_that_select_them() {
    for (rel, walks) in [
        ("tests/programs/environment/length_decides.c", 300),
        ("tests/programs/environment/two_readers.c", 100),
        ("tests/programs/environment/read_beside_ticker.c", 100),
        ("examples/producer_consumer.c", 100),
        ("tests/programs/idioms/condvar_pipeline.c", 50),
        ("tests/programs/idioms/linked_queue.c", 50),
    ] {
        let p = program(rel);
        let (proof, deployed, _) = check(&p, walks);
        eprintln!("{rel}: {proof} sections in the proof, {deployed} deployed");
        assert!(deployed <= proof, "{rel}");
    }
}
