//! What the optimisation levels do, and what schedgen refuses.
//!
//! * producer–consumer 2+2: per level the sections, events, ordering constraints and the
//!   fraction of cross-thread event pairs left unordered; Opt1 drops the mutex and leaves more
//!   pairs unordered than Opt0; Opt2 switches sections less often per loop iteration.
//! * Opt2 orders accesses to different elements of one array only at Opt0/Opt1.
//! * An ART that is not an IVR (not deadlock-free, not fair) is rejected with the checker's
//!   reason and never becomes a schedule.

mod common;

use schedgen::{generate, simulate, Error, Opt, Options, ProgramSchedule};
use std::path::PathBuf;
use verifier::art::{Art, Control, NodeId};
use verifier::ir::{LocKind, Op, Program, ThreadId};

fn first_safe(p: &Program) -> Art {
    common::first_safe(p, 60).expect("a safe IVR")
}

fn at(opt: Opt) -> Options {
    Options {
        opt,
        ..Options::default()
    }
}

/// Section switches per executed loop back edge over a simulated run.
fn switches_per_iteration(p: &Program, s: &ProgramSchedule, sections: u64) -> f64 {
    let (mut sw, mut back) = (0u64, 0u64);
    for seed in 0..4 {
        let r = simulate::run(p, s, seed, sections).expect("the run follows the schedule");
        sw += r.switches;
        back += r.back_edges;
    }
    assert!(back > 0, "the run executes loop iterations");
    sw as f64 / back as f64
}

#[test]
fn producer_consumer_2_plus_2_levels_relax_the_order() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/producer_consumer.c");
    let fopts = verifier::frontend::Options {
        defines: vec!["THREADS=2".into()],
        ..Default::default()
    };
    let p = verifier::frontend::load(&path, &fopts).unwrap();
    let art = first_safe(&p);
    let s: Vec<ProgramSchedule> = [Opt::O0, Opt::O1, Opt::O2]
        .iter()
        .map(|&o| generate(&p, &art, at(o)).unwrap())
        .collect();
    let rate = [
        switches_per_iteration(&p, &s[0], 64),
        switches_per_iteration(&p, &s[1], 64),
        switches_per_iteration(&p, &s[2], 8),
    ];
    eprintln!(
        "producer-consumer 2+2, buffer 5, first IVR ({} nodes)",
        art.len()
    );
    eprintln!("level  sections  events  constraints  unordered pairs  switches/iteration");
    for (i, x) in s.iter().enumerate() {
        let st = &x.stats;
        eprintln!(
            "Opt{i}   {:>8}  {:>6}  {:>11}  {:>14.1}%  {:>18.3}",
            st.sections,
            st.events,
            st.constraints,
            100.0 * st.unordered_fraction(),
            rate[i]
        );
    }
    // Opt0 schedules the mutex operations; Opt1 drops them (the mutex is used by nothing
    // else) and leaves more pairs of events unordered.
    assert_eq!(s[0].stats.removed_sync_sites, 0);
    assert!(s[1].stats.removed_sync_sites >= 2);
    assert!(s[1].stats.events < s[0].stats.events);
    assert!(s[1].stats.unordered_fraction() > s[0].stats.unordered_fraction());
    // Opt2 unrolls the loop's section: fewer section switches per loop iteration.
    assert!(
        rate[2] < rate[1],
        "Opt2 switches {} times per iteration, Opt1 {}",
        rate[2],
        rate[1]
    );
    assert!(
        s[2].sections.iter().map(|x| x.path.len()).max()
            > s[1].sections.iter().map(|x| x.path.len()).max()
    );
}

#[test]
fn opt2_separates_accesses_to_different_array_elements() {
    let src = "#include <pthread.h>\n\
        int a[2];\n\
        void *w(void *arg) { a[1] = 1; return 0; }\n\
        int main(void) {\n\
          pthread_t t;\n\
          pthread_create(&t, 0, w, 0);\n\
          a[0] = 2;\n\
          pthread_join(t, 0);\n\
          return a[0] + a[1];\n\
        }\n";
    let p = verifier::frontend::load_str("arrays.c", src, &Default::default()).unwrap();
    let art = first_safe(&p);
    // The pair of writes to `a` by the two threads: ordered at Opt1, not at Opt2.
    let ordered = |s: &ProgramSchedule| -> Vec<bool> {
        let mut out = Vec::new();
        for sec in &s.sections {
            let writes: Vec<_> = sec
                .events
                .iter()
                .filter(|e| s.sites.sites[e.site as usize].text == "write a[]")
                .collect();
            for (i, x) in writes.iter().enumerate() {
                for y in &writes[i + 1..] {
                    if x.thread != y.thread {
                        out.push(y.vc[x.thread.0 as usize] > x.vc[x.thread.0 as usize]);
                    }
                }
            }
        }
        out
    };
    let o1 = generate(&p, &art, at(Opt::O1)).unwrap();
    let o2 = generate(&p, &art, at(Opt::O2)).unwrap();
    assert_eq!(ordered(&o1), vec![true], "{}", o1.to_json());
    assert_eq!(ordered(&o2), vec![false], "{}", o2.to_json());
    for seed in 0..20 {
        simulate::run(&p, &o2, seed, 10).unwrap();
    }
}

fn spin_program() -> Program {
    let src = "#include <pthread.h>\n\
        int flag = 0;\n\
        void *setter(void *arg) { flag = 1; return 0; }\n\
        int main(void) {\n\
          pthread_t t;\n\
          pthread_create(&t, 0, setter, 0);\n\
          while (!flag) { }\n\
          return 0;\n\
        }\n";
    verifier::frontend::load_str("spin.c", src, &Default::default()).unwrap()
}

/// An ART that expands only `main`: labels `true`, a node whose control state was seen
/// before is covered by that node. Safe and deadlock-free, but the spin loop's cycle never
/// runs the setter, which is enabled there.
fn main_only_art(p: &Program) -> Art {
    let main = ThreadId(0);
    let mut locs = vec![None; p.threads.len()];
    locs[0] = Some(p.thread(main).entry);
    let mut art = Art::new(Control { locs, atomic: None });
    let mut seen: Vec<(Control, NodeId)> = vec![(art.node(art.root()).control.clone(), art.root())];
    let mut work = vec![art.root()];
    while let Some(v) = work.pop() {
        let c = art.node(v).control.clone();
        let l = c.locs[0].unwrap();
        if p.thread(main).locations[l.0 as usize].kind != LocKind::Normal {
            continue;
        }
        let outs: Vec<_> = p.thread(main).outgoing(l).cloned().collect();
        for tr in outs {
            let mut next = c.clone();
            next.locs[0] = Some(tr.dst);
            for op in &tr.ops {
                if let Op::Spawn { thread, .. } = op {
                    next.locs[thread.0 as usize] = Some(p.thread(*thread).entry);
                }
            }
            let w = art.add_child(v, main, tr.id, next.clone());
            match seen.iter().find(|(c, _)| *c == next) {
                Some(&(_, u)) => {
                    art.cover(w, u);
                }
                None => {
                    seen.push((next, w));
                    work.push(w);
                }
            }
        }
        art.mark_expanded(v, main);
    }
    art
}

#[test]
fn an_unfair_art_is_rejected_with_the_reason() {
    let p = spin_program();
    let art = main_only_art(&p);
    match generate(&p, &art, Options::default()) {
        Err(Error::Rejected { reason, .. }) => {
            assert!(reason.contains("unfair"), "{reason}")
        }
        other => panic!("expected a rejection, got {:?}", other.map(|s| s.stats)),
    }
}

#[test]
fn an_art_that_is_not_deadlock_free_is_rejected() {
    let p = spin_program();
    let good = first_safe(&p);
    assert!(generate(&p, &good, Options::default()).is_ok());
    // The same ART with no thread marked expanded at the root.
    let mut terms = verifier::smt::TermTable::new();
    let mut records = good.to_records(&mut terms);
    records[0].expanded.clear();
    let bad = Art::from_records(&records, &terms.terms().unwrap()).unwrap();
    match generate(&p, &bad, Options::default()) {
        Err(Error::Rejected { node, reason }) => {
            assert_eq!(node, 0);
            assert!(reason.contains("expanded"), "{reason}");
        }
        other => panic!("expected a rejection, got {:?}", other.map(|s| s.stats)),
    }
}
