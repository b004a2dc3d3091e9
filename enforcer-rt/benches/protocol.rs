//! Costs of the enforcement protocol (the enforcer issue's benchmarks), on the safe core:
//!
//! * an uncontended `before`/`after` pair: one thread, a section of 1,024 events at one site
//!   that repeats (the section advance is amortised over its events);
//! * a two-thread hand-off (ping-pong): each event of one thread waits for the previous event
//!   of the other, so every event is a hand-off between threads.
//!
//! Each figure is the median of 5 runs. `cargo bench -p enforcer-rt --bench protocol`.

use enforcer_rt::enforcer::Enforcer;
use enforcer_rt::schedule::{
    End, EventSpec, Schedule, ScheduleSpec, SectionSpec, SiteInfo, ThreadInfo,
};
use enforcer_rt::table::SynthSiteKind;
use std::time::Instant;

const SHA: &str = "00000000000000000000000000000000000000000000000000000000000000be";
const EVENTS: u32 = 1024;

fn spec(threads: u32, events: Vec<EventSpec>) -> Enforcer {
    let spec = ScheduleSpec {
        program_sha256: SHA.into(),
        opt_level: 2,
        threads: (0..threads)
            .map(|t| ThreadInfo {
                name: format!("t{t}"),
                function: "f".into(),
                creator: (t > 0).then_some(0),
                create_site: None,
            })
            .collect(),
        sites: vec![SiteInfo {
            kind: SynthSiteKind::Access,
            file: "bench.c".into(),
            line: 1,
            column: 1,
            text: "write x".into(),
        }],
        sections: vec![SectionSpec {
            events,
            end: End::Next(0),
        }],
        initial_section: 0,
    };
    Enforcer::new(Schedule::new(spec).expect("a valid schedule"), SHA).expect("same hash")
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(|a, b| a.partial_cmp(b).unwrap());
    xs[xs.len() / 2]
}

/// Nanoseconds per `before`/`after` pair of one thread.
fn uncontended(pairs: u64) -> f64 {
    let events = (0..EVENTS)
        .map(|k| EventSpec {
            thread: 0,
            site: 0,
            child: None,
            clock: vec![k],
        })
        .collect();
    let e = spec(1, events);
    let mut ctx = e.register(0).unwrap();
    let start = Instant::now();
    for _ in 0..pairs {
        e.before(&mut ctx, 0).unwrap();
        e.after(&mut ctx, 0).unwrap();
    }
    start.elapsed().as_nanos() as f64 / pairs as f64
}

/// Nanoseconds per hand-off between two threads that alternate events.
fn ping_pong(rounds: u64) -> f64 {
    // t0: e0, e1, ...; t1: e0 after t0's e0, ...; t0's e(k+1) after t1's e(k).
    let mut events = Vec::new();
    for k in 0..EVENTS {
        events.push(EventSpec {
            thread: 0,
            site: 0,
            child: None,
            clock: vec![k, k],
        });
        events.push(EventSpec {
            thread: 1,
            site: 0,
            child: None,
            clock: vec![k + 1, k],
        });
    }
    let e = spec(2, events);
    let start = Instant::now();
    std::thread::scope(|s| {
        for t in 0..2u32 {
            let e = &e;
            s.spawn(move || {
                let mut ctx = e.register(t).unwrap();
                for _ in 0..rounds {
                    e.before(&mut ctx, 0).unwrap();
                    e.after(&mut ctx, 0).unwrap();
                }
            });
        }
    });
    start.elapsed().as_nanos() as f64 / (2 * rounds) as f64
}

fn main() {
    let pair = median((0..5).map(|_| uncontended(20_000_000)).collect());
    println!("uncontended before/after pair: {pair:.1} ns (aim: under 20 ns)");
    let hop = median((0..5).map(|_| ping_pong(1_000_000)).collect());
    println!("two-thread hand-off (ping-pong): {hop:.0} ns per event");
}
