//! The iterative algorithm (seed 002, Alg. 1) on the paper's examples: every IVR it emits
//! survives a round trip through its JSON file and the independent checks of
//! `verifier::ivr::verify_file` (the IVR checker for safe IVRs, replay for counterexamples);
//! verdicts are the expected ones; first IVRs schedule every thread (fairness); the IVR checker
//! rejects unfair and tampered ARTs.

use petgraph::graph::DiGraph;
use std::collections::BTreeSet;
use std::path::Path;
use std::time::Duration;
use verifier::art::{Art, Control};
use verifier::check::check_ivr;
use verifier::frontend::Options;
use verifier::frontend::{load, load_str};
use verifier::imc::{Ivr, IvrKind, Options as VOpts, Report, Verdict, Verifier};
use verifier::interp::Outcome;
use verifier::ir::{LocKind, Op, Place, Program, ThreadId};
use verifier::ivr::{verify_file, Checked, IvrFile};
use verifier::smt::Term;

fn program(rel: &str) -> Program {
    load(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(rel),
        &Options::default(),
    )
    .unwrap()
}

/// Runs the iterative algorithm; checks every IVR through its file; returns the report and
/// the IVRs.
fn iterate(p: &Program, max_ivrs: usize, secs: u64) -> (Report, Vec<Ivr>) {
    let opts = VOpts {
        timeout: Duration::from_secs(secs),
        ..VOpts::default()
    };
    let mut ivrs = Vec::new();
    let r = Verifier::new(p, opts).run_iterative(max_ivrs, &mut |i| ivrs.push(i.clone()));
    for ivr in &ivrs {
        let text = serde_json::to_string(&IvrFile::new(p, ivr)).unwrap();
        let checked = verify_file(p, &text, 30_000);
        match &ivr.kind {
            IvrKind::Safe(a) => {
                assert_eq!(
                    checked,
                    Ok(Checked::Safe { nodes: a.len() }),
                    "IVR {}",
                    ivr.index
                )
            }
            IvrKind::Counterexample(_) => assert!(
                matches!(checked, Ok(Checked::Counterexample { .. })),
                "IVR {}: {checked:?}",
                ivr.index
            ),
        }
    }
    assert_eq!(r.ivrs, ivrs.len());
    (r, ivrs)
}

fn first_safe(ivrs: &[Ivr]) -> &Art {
    ivrs.iter()
        .find_map(|i| match &i.kind {
            IvrKind::Safe(a) => Some(a),
            _ => None,
        })
        .expect("a safe IVR")
}

/// Threads that take a loop back-jump on a cycle of the IVR's tree and covering edges: the
/// threads the induced schedules keep running.
fn threads_looping_on_cycles(p: &Program, art: &Art) -> BTreeSet<u32> {
    let mut g: DiGraph<(), (u32, bool)> = DiGraph::new();
    let idx: Vec<_> = art.ids().map(|_| g.add_node(())).collect();
    for v in art.ids() {
        let n = art.node(v);
        if let Some(w) = n.covered_by {
            g.add_edge(idx[v.0 as usize], idx[w.0 as usize], (u32::MAX, false));
        }
        for e in &n.children {
            let back = p.thread(e.thread).transition(e.transition).back_edge;
            g.add_edge(
                idx[v.0 as usize],
                idx[e.child.0 as usize],
                (e.thread.0, back),
            );
        }
    }
    let mut out = BTreeSet::new();
    for scc in petgraph::algo::tarjan_scc(&g) {
        let set: BTreeSet<_> = scc.iter().copied().collect();
        for &a in &scc {
            for e in g.edges(a) {
                use petgraph::visit::EdgeRef;
                if set.contains(&e.target()) && e.weight().1 {
                    out.insert(e.weight().0);
                }
            }
        }
    }
    out
}

#[test]
fn double_lock_is_partially_safe_and_its_first_ivr_alternates_the_loop_bodies() {
    let p = program("examples/double_lock.c");
    let (r, ivrs) = iterate(&p, usize::MAX, 60);
    assert_eq!(r.verdict, Verdict::PartiallySafe, "{:?}", r.verdict);
    assert!(r
        .counterexamples
        .iter()
        .all(|c| matches!(c.execution.outcome, Outcome::Deadlock { .. })));
    assert!(!r.counterexamples.is_empty());
    // Both workers (T1, T2) run their loop bodies forever under the first IVR.
    assert_eq!(
        threads_looping_on_cycles(&p, first_safe(&ivrs)),
        BTreeSet::from([1, 2])
    );
}

#[test]
fn corrected_double_lock_is_safe() {
    let p = program("examples/double_lock_fixed.c");
    let (r, _) = iterate(&p, usize::MAX, 60);
    assert_eq!(r.verdict, Verdict::Safe, "{:?}", r.verdict);
    assert!(r.first_safe_ivr.is_some());
}

#[test]
fn producer_consumer_first_ivr_runs_producer_and_consumer() {
    let p = program("examples/producer_consumer.c");
    let (r, ivrs) = iterate(&p, 2, 60);
    assert!(r.counterexamples.is_empty());
    assert_eq!(
        threads_looping_on_cycles(&p, first_safe(&ivrs)),
        BTreeSet::from([1, 2])
    );
}

#[test]
fn unsynchronised_producer_consumer_is_partially_safe() {
    let p = program("examples/unsync_producer_consumer.c");
    let (r, ivrs) = iterate(&p, 12, 120);
    assert_eq!(r.verdict, Verdict::PartiallySafe, "{:?}", r.verdict);
    // The first IVR is safe and keeps all four workers running.
    assert!(matches!(ivrs[0].kind, IvrKind::Safe(_)));
    assert_eq!(
        threads_looping_on_cycles(&p, first_safe(&ivrs)),
        BTreeSet::from([1, 2, 3, 4])
    );
    assert!(r
        .counterexamples
        .iter()
        .all(|c| matches!(c.execution.outcome, Outcome::Error { .. })));
}

#[test]
fn filesystem_first_ivr_lets_every_thread_do_useful_work() {
    let p = program("examples/filesystem.c");
    let (r, ivrs) = iterate(&p, 1, 60);
    assert_eq!(r.ivrs, 1);
    assert_eq!(
        threads_looping_on_cycles(&p, first_safe(&ivrs)),
        BTreeSet::from([1, 2, 3])
    );
}

#[test]
fn lost_update_is_partially_safe_and_locked_counter_safe() {
    let (r, _) = iterate(&program("examples/lost_update.c"), 8, 60);
    assert_eq!(r.verdict, Verdict::PartiallySafe, "{:?}", r.verdict);
    let (r, _) = iterate(&program("examples/locked_counter.c"), usize::MAX, 60);
    assert_eq!(r.verdict, Verdict::Safe, "{:?}", r.verdict);
}

#[test]
fn a_bug_no_schedule_avoids_is_unsafe() {
    let src = "#include <pthread.h>\n#include <assert.h>\nint x = 0;\npthread_t t;\nvoid *f(void *a) { x = 1; return 0; }\nint main(void) { pthread_create(&t, 0, f, 0); pthread_join(t, 0); assert(x == 0); return 0; }\n";
    let p = load_str("t.c", src, &Options::default()).unwrap();
    let (r, ivrs) = iterate(&p, usize::MAX, 60);
    assert_eq!(r.verdict, Verdict::Unsafe, "{:?}", r.verdict);
    assert!(ivrs
        .iter()
        .all(|i| matches!(i.kind, IvrKind::Counterexample(_))));
}

#[test]
fn with_inputs_a_bug_without_a_choice_of_thread_is_unsafe() {
    // For the input 7 every scheduler fails: there is one thread.
    let src = "#include <assert.h>\nextern int __VERIFIER_nondet_int(void);\nint main(void) { int x = __VERIFIER_nondet_int(); assert(x != 7); return 0; }\n";
    let p = load_str("t.c", src, &Options::default()).unwrap();
    let (r, _) = iterate(&p, usize::MAX, 60);
    assert_eq!(r.verdict, Verdict::Unsafe);
    assert_eq!(r.counterexamples.len(), 1);
}

/// main returns while the worker may still compute on its own. Deployed, the worker runs on
/// while the process exits (the runtime orders only events) and fails its assertion with the
/// input 5, so a proof must run it to its next event before the program ends: the iterative
/// algorithm finds no safe schedule, and the IVR checker rejects a proof that lets main end
/// the program first.
#[test]
fn a_proof_runs_threads_to_their_next_event_before_the_program_ends() {
    let p = program("tests/programs/main_returns_early.c");
    let (r, ivrs) = iterate(&p, 10, 60);
    assert!(matches!(r.verdict, Verdict::Unknown(_)), "{:?}", r.verdict);
    assert!(!ivrs.is_empty());
    assert!(ivrs
        .iter()
        .all(|i| matches!(i.kind, IvrKind::Counterexample(_))));
    // main first at every node: it ends the program before the worker moves.
    let early = build(&p, &|_, m| vec![m[0]]);
    let e = check_ivr(&p, &early, 10_000).unwrap_err();
    assert!(e.reason.contains("cannot move"), "{e:?}");
}

/// Two workers that loop forever; main exits without joining.
const TWO_LOOPS: &str = "#include <pthread.h>\nunsigned x, y;\nvoid *f(void *a) { while (1) x = x + 1; return 0; }\nvoid *g(void *a) { while (1) y = 1; return 0; }\nint main(void) { pthread_t s, t; pthread_create(&s, 0, f, 0); pthread_create(&t, 0, g, 0); pthread_exit(0); return 0; }\n";

/// An ART labelled `true` that expands the threads `pick` chooses at each node, and covers
/// a node by the first earlier uncovered node with its control state.
fn build(p: &Program, pick: &dyn Fn(&Control, &[ThreadId]) -> Vec<ThreadId>) -> Art {
    let mut locs = vec![None; p.threads.len()];
    locs[0] = Some(p.threads[0].entry);
    let mut art = Art::new(Control { locs, atomic: None });
    let mut work = vec![art.root()];
    while let Some(v) = work.pop() {
        let c = art.node(v).control.clone();
        if let Some(&w) = art
            .same_control(&c)
            .iter()
            .find(|w| **w < v && art.node(**w).covered_by.is_none())
        {
            art.cover(v, w);
            continue;
        }
        let movable: Vec<ThreadId> = (0..c.locs.len())
            .filter(|&t| {
                c.locs[t]
                    .is_some_and(|l| p.threads[t].locations[l.0 as usize].kind == LocKind::Normal)
            })
            .map(|t| ThreadId(t as u32))
            .collect();
        if movable.is_empty() {
            continue;
        }
        for t in pick(&c, &movable) {
            let l = c.locs[t.0 as usize].unwrap();
            for tr in p.thread(t).outgoing(l) {
                let mut n = c.clone();
                n.locs[t.0 as usize] = Some(tr.dst);
                for op in &tr.ops {
                    if let verifier::ir::Op::Spawn { thread, .. } = op {
                        n.locs[thread.0 as usize] = Some(p.thread(*thread).entry);
                    }
                }
                work.push(art.add_child(v, t, tr.id, n));
            }
            art.mark_expanded(v, t);
        }
    }
    art
}

#[test]
fn the_ivr_checker_rejects_a_cycle_that_starves_a_thread() {
    let p = load_str("t.c", TWO_LOOPS, &Options::default()).unwrap();
    // After the spawns, only T1 ever runs: T2 is always enabled and starves.
    // Main runs first until it exits.
    let unfair = build(&p, &|_, m| {
        if m[0].0 == 0 {
            return vec![m[0]];
        }
        vec![*m.iter().find(|t| t.0 == 1).unwrap_or(&m[0])]
    });
    let e = check_ivr(&p, &unfair, 10_000).unwrap_err();
    assert!(e.reason.contains("unfair"), "{e:?}");
    // Expanding every thread everywhere is fair.
    let fair = build(&p, &|_, m| m.to_vec());
    assert_eq!(check_ivr(&p, &fair, 10_000).map(|_| ()), Ok(()));
}

/// A node whose label has no states owes nothing (no expansion, no enabled thread), and
/// the checker asks whether it has states only where a duty fails: a leaf behind a branch
/// that no state takes passes when its label says so, and is rejected when its label has
/// states.
#[test]
fn the_ivr_checker_lets_a_node_without_states_owe_nothing() {
    let src = "int g;\nint main(void) { if (g == 5) while (1) ; return 0; }\n";
    let p = load_str("t.c", src, &Options::default()).unwrap();
    let main = p.thread(ThreadId(0));
    // The loop's location: the node there is left a leaf, expanding nothing.
    let looping = |c: &Control| c.locs[0].is_some_and(|l| main.outgoing(l).any(|tr| tr.back_edge));
    let mut art = build(&p, &|c, m| if looping(c) { vec![] } else { m.to_vec() });
    // `g` is 0 everywhere, and so is the register the branch reads it into (after the root).
    let enc = verifier::encode::Encoder::new(&p);
    let g = p.vars.iter().find(|v| v.name == "g").expect("g").id;
    let Some(Op::Assign {
        place: Place::Var { var: r, .. },
        ..
    }) = main.transitions[0].ops.first()
    else {
        panic!("main starts by loading g")
    };
    let is = |v, k: i128| Term::eq(enc.var(v), Term::int(k));
    let leaf = art
        .ids()
        .find(|&v| looping(&art.node(v).control))
        .expect("the loop");
    for v in art.ids().skip(1).collect::<Vec<_>>() {
        art.set_label(v, Term::and([is(g, 0), is(*r, 0)]));
    }
    art.set_label(art.root(), is(g, 0));
    art.set_label(leaf, Term::and([is(g, 0), is(*r, 0), is(*r, 5)]));
    assert_eq!(check_ivr(&p, &art, 10_000).map(|_| ()), Ok(()));
    art.set_label(leaf, is(*r, 5));
    let e = check_ivr(&p, &art, 10_000).unwrap_err();
    assert!(e.reason.contains("no thread is expanded"), "{e:?}");
}

#[test]
fn tampered_ivr_files_are_rejected() {
    let p = program("examples/double_lock.c");
    let (_, ivrs) = iterate(&p, 1, 60);
    let text = serde_json::to_string(&IvrFile::new(&p, &ivrs[0])).unwrap();
    // Drop every expansion: no node schedules a thread any more. (Edited as text: labels may
    // hold numbers beyond 64 bits, which serde_json::Value would turn into floats.)
    let mut stripped = String::new();
    let mut rest = text.as_str();
    while let Some(i) = rest.find(",\"expanded\":[") {
        stripped.push_str(&rest[..i]);
        let j = rest[i..].find(']').unwrap();
        rest = &rest[i + j + 1..];
    }
    stripped.push_str(rest);
    assert_ne!(stripped, text);
    let e = verify_file(&p, &stripped, 10_000).unwrap_err();
    assert!(e.contains("no thread is expanded"), "{e}");
    // Another program.
    let other = program("examples/double_lock_fixed.c");
    let e = verify_file(&other, &text, 10_000).unwrap_err();
    assert!(e.contains("another program"), "{e}");
    // Not JSON, or a label that is not in the table.
    assert!(verify_file(&p, "{", 10_000).is_err());
    let i = text.find("\"label\":").unwrap() + "\"label\":".len();
    let j = i + text[i..].find(|c: char| !c.is_ascii_digit()).unwrap();
    let bad_label = format!("{}1000000{}", &text[..i], &text[j..]);
    let e = verify_file(&p, &bad_label, 10_000).unwrap_err();
    assert!(e.contains("not in the table"), "{e}");
}

/// The first safe IVR of the iterative algorithm under `opts` (60 s), checked through its file.
fn first_checked_safe(p: &Program, opts: VOpts) -> Art {
    let opts = VOpts {
        timeout: Duration::from_secs(60),
        stop_at_first_safe: true,
        ..opts
    };
    let mut ivrs = Vec::new();
    Verifier::new(p, opts).run_iterative(usize::MAX, &mut |i| ivrs.push(i.clone()));
    let art = first_safe(&ivrs).clone();
    let text = serde_json::to_string(&IvrFile::new(p, ivrs.last().unwrap())).unwrap();
    assert_eq!(
        verify_file(p, &text, 30_000),
        Ok(Checked::Safe { nodes: art.len() })
    );
    art
}

/// The most loop back-jumps one thread takes on a path of the IVR's tree with no other
/// thread's move between them.
fn longest_run(p: &Program, art: &Art) -> u32 {
    let mut best = 0;
    let mut stack = vec![(art.root(), u32::MAX, 0u32)];
    while let Some((v, last, run)) = stack.pop() {
        best = best.max(run);
        for e in &art.node(v).children {
            let back = p.thread(e.thread).transition(e.transition).back_edge;
            let run = if e.thread.0 == last { run } else { 0 } + u32::from(back);
            stack.push((e.child, e.thread.0, run));
        }
    }
    best
}

#[test]
fn a_quantum_lets_each_thread_run_several_loop_rounds_in_the_first_ivr() {
    let p = program("examples/producer_consumer.c");
    let run = |quantum: u32| {
        let art = first_checked_safe(
            &p,
            VOpts {
                quantum,
                ..VOpts::default()
            },
        );
        (longest_run(&p, &art), threads_looping_on_cycles(&p, &art))
    };
    let (one, looping_one) = run(1);
    let (three, looping_three) = run(3);
    eprintln!("quantum 1: {one}, quantum 3: {three}");
    assert!(one < 3, "quantum 1: {one} rounds in a row");
    assert!(three >= 3, "quantum 3: {three} rounds in a row");
    // Both schedules still keep every worker running.
    assert_eq!(looping_one, looping_three);
}

/// The most turns in a row (maximal runs of one thread's moves) on a path of the IVR's tree
/// that alternate between two threads, and the threads that take part in an alternation of
/// at least `min` turns.
fn longest_alternation(art: &Art, min: u32) -> (u32, BTreeSet<u32>) {
    let mut best = 0;
    let mut paired = BTreeSet::new();
    // (node, thread of the last turn, thread of the turn before, turns alternating so far)
    let mut stack = vec![(art.root(), u32::MAX, u32::MAX, 0u32)];
    while let Some((v, last, prev, k)) = stack.pop() {
        best = best.max(k);
        if k >= min {
            paired.extend([last, prev]);
        }
        for e in &art.node(v).children {
            let t = e.thread.0;
            let next = if t == last {
                (last, prev, k)
            } else if t == prev {
                (t, last, k + 1)
            } else {
                (t, last, if last == u32::MAX { 1 } else { 2 })
            };
            stack.push((e.child, next.0, next.1, next.2));
        }
    }
    (best, paired)
}

const FOUR_LOOPS: &str = "#include <pthread.h>\nunsigned a, b, c, d;\nvoid *f(void *x) { while (1) a = a + 1; return 0; }\nvoid *g(void *x) { while (1) b = b + 1; return 0; }\nvoid *h(void *x) { while (1) c = c + 1; return 0; }\nvoid *k(void *x) { while (1) d = d + 1; return 0; }\nint main(void) { pthread_t s, t, u, w; pthread_create(&s, 0, f, 0); pthread_create(&t, 0, g, 0); pthread_create(&u, 0, h, 0); pthread_create(&w, 0, k, 0); pthread_exit(0); return 0; }\n";

#[test]
fn pair_turns_keep_two_threads_alternating_and_every_thread_running() {
    let p = load_str("four.c", FOUR_LOOPS, &Options::default()).unwrap();
    let run = |pair_turns: u32| {
        let art = first_checked_safe(
            &p,
            VOpts {
                pair_turns,
                ..VOpts::default()
            },
        );
        (
            longest_alternation(&art, 5),
            threads_looping_on_cycles(&p, &art),
        )
    };
    let ((plain, _), looping_plain) = run(0);
    let ((paired, in_pairs), looping_paired) = run(3);
    eprintln!("round robin: {plain} turns alternating, pair turns 3: {paired}, {in_pairs:?}");
    // Round robin over four threads: two turns of the same two threads in a row at most.
    assert!(plain <= 3, "round robin: {plain}");
    // Three turns each of the two threads of a pair, and every worker in such a pair before
    // the schedule repeats (covering keeps the pairing phase: with a quantum of 1 it once
    // did not, and the last worker had a single turn on the schedule's cycle).
    assert!(paired >= 6, "pair turns 3: {paired}");
    assert_eq!(in_pairs, BTreeSet::from([1, 2, 3, 4]), "{in_pairs:?}");
    // Both keep every worker running (the four loops, all on the schedule's cycles).
    assert_eq!(looping_plain.len(), 4, "{looping_plain:?}");
    assert_eq!(looping_plain, looping_paired);
}

/// A node the engine cannot decide (here: undefined behaviour it cannot rule out, a signed
/// overflow on an input, which it does not report as a bug) does not end the run: the
/// schedules avoid it, as they avoid a bug, and a safe IVR that orders the other thread first
/// is found; the verdict claims nothing the undecided node would decide. The same program
/// with a memory error there (an index from an input, through a pointer) is partially safe:
/// the memory error replays as a bug.
#[test]
fn an_undecided_node_is_avoided_instead_of_ending_the_run() {
    let src = r#"
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
int flag, a[4];
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *setter(void *arg) {
  pthread_mutex_lock(&m);
  flag = 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, setter, 0);
  int i = __VERIFIER_nondet_int();
  pthread_mutex_lock(&m);
  int f = flag;
  pthread_mutex_unlock(&m);
  int *p = a;
  if (f == 0)
    p[i] = 1;
  pthread_join(t, 0);
  return 0;
}
"#;
    let overflow = src.replace("p[i] = 1;", "a[0] = i + 2147483647;");
    let p = load_str("undecided.c", &overflow, &Options::default()).unwrap();
    let (r, ivrs) = iterate(&p, usize::MAX, 30);
    assert!(
        ivrs.iter().any(|i| matches!(i.kind, IvrKind::Safe(_))),
        "{:?}",
        r.verdict
    );
    assert!(
        matches!(&r.verdict, Verdict::Unknown(w) if w.contains("left undecided")),
        "{:?}",
        r.verdict
    );
    let p = load_str("undecided.c", src, &Options::default()).unwrap();
    let (r, _) = iterate(&p, usize::MAX, 30);
    assert_eq!(r.verdict, Verdict::PartiallySafe);
    let outcome = r.counterexample.map(|c| c.execution.outcome);
    assert!(
        matches!(
            outcome,
            Some(verifier::interp::Outcome::Undefined { memory: true, .. })
        ),
        "{outcome:?}"
    );
}

/// A cell read through a pointer of another type takes that type's values, as the
/// interpreter converts it: a negative `long` read as a pointer is a large address, so
/// `v > (void *)100` holds. The encoding used to give the cell's value unconverted, and the
/// symbolic engine proved the error unreachable (`safe`); the native run aborts. (The
/// program reads an address as a number, or compares it by order with a number, which the
/// model makes up, so the error found does not make it `unsafe`.)
#[test]
fn a_cell_read_through_a_pointer_of_another_type_takes_its_values() {
    let text = r#"
#include <assert.h>
long x;
long *gp;
int main(void) {
  x = -5;
  gp = &x;
  void **pp = (void **)gp;
  void *v = *pp;
  CHECK;
  return 0;
}
"#;
    for check in [
        "if (v > (void *)100) assert(0)",
        "unsigned long u = (unsigned long)v; if (u > 100) assert(0)",
    ] {
        let p =
            load_str("cast.c", &text.replace("CHECK", check), &Options::default()).expect("lowers");
        // (A pointer compared by order with another block is made up, not a read.)
        assert_eq!(
            p.observes_numbering.is_some(),
            check.contains("(unsigned long)v"),
            "{check}"
        );
        let (r, _) = iterate(&p, usize::MAX, 20);
        assert!(
            matches!(&r.verdict, Verdict::Unknown(w) if w.contains("unsafe executions exist")),
            "{check}: {:?}",
            r.verdict
        );
    }
}
