//! Counters the explicit search does not track: registers that only count (a loop's `i` of
//! `for (i = 0; i < ROUNDS; i++)`, a progress counter reset every 100,000 rounds). Tracked
//! value by value, such a counter multiplies the states by its range, and a loop of a million
//! rounds is a million states per thread before the first schedule. Left out of the states
//! (its value not known, as an input's is), the loop's states repeat after one round, and the
//! labels state only its interval at each location ([`super::unknowns`], whose widening stops
//! at the constants it is compared with), which the independent checker checks like any
//! other label.
//!
//! This is the precision of explicit-value analysis with counterexample-guided refinement
//! (Beyer and Löwe, "Explicit-State Software Model Checking Based on CEGAR and
//! Interpolation"): the variables whose values the analysis tracks. The first precision here
//! leaves out the counters; where that finds a bug that no execution takes (the property
//! depends on how often a loop ran) or an ART the checker rejects, the search starts again
//! tracking every variable ([`super::run_iterative`]): a refinement that adds all of them at
//! once. It starts again at once where a step into an assertion's failure that tests a
//! counter left out may be taken ([`tested`]): the property depends on the counter's value
//! (`assert(got == expect)` with `expect` summed in a loop), and the search without it would
//! spend its share of the budget refuting schedules on a failure no execution may take.
//!
//! A counter is an integer register (a thread's own scalar whose address is never taken)
//! whose value goes nowhere but into guards and into counters: every assignment to it reads
//! only constants and counters, and it is read as an index, an address, by a store to
//! memory, or by a thread's creation nowhere. Only counters whose interval at some location
//! holds more than [`WIDE`] values are left out: a short loop's states are few, and tracked
//! they keep the search exact.

use super::ranges::Ranges;
use super::unknowns::{value_reads, Unknowns};
use crate::ir::*;
use crate::liveness::registers;

/// Counters whose intervals hold at most this many values stay tracked.
const WIDE: i128 = 32;

/// Per variable, whether the search leaves it out of its states: counters of a wide range.
pub fn abstracted(prog: &Program, ranges: &Ranges) -> Vec<bool> {
    let is_counter = counters(prog);
    let mut counter = is_counter.clone();
    if !counter.iter().any(|&c| c) {
        return counter;
    }
    let unknowns = Unknowns::new(prog, ranges, &counter);
    for v in prog.vars.iter().filter(|v| is_counter[v.id.0 as usize]) {
        let VarScope::Local(t) = v.scope else {
            counter[v.id.0 as usize] = false;
            continue;
        };
        let wide = (0..prog.thread(t).locations.len()).any(|l| {
            unknowns
                .of(v.id, Some(LocId(l as u32)))
                .is_some_and(|r| r.hi - r.lo >= WIDE)
        });
        counter[v.id.0 as usize] = wide;
    }
    // A counter assigned from another keeps it company: both are left out, or neither.
    loop {
        let mut changed = false;
        for tr in prog.threads.iter().flat_map(|t| &t.transitions) {
            for op in &tr.ops {
                let Op::Assign {
                    place: Place::Var { var, index: None },
                    value,
                } = op
                else {
                    continue;
                };
                let mut reads = Vec::new();
                value_reads(value, true, &mut reads);
                let group = std::iter::once(*var)
                    .chain(reads.iter().map(|(v, _)| *v))
                    .filter(|v| is_counter[v.0 as usize]);
                if group.clone().any(|v| counter[v.0 as usize]) {
                    for v in group {
                        changed |= !counter[v.0 as usize];
                        counter[v.0 as usize] = true;
                    }
                }
            }
        }
        if !changed {
            return counter;
        }
    }
}

/// Per thread and transition, the counter left out (marked in `untracked`) that its guard
/// reads where it enters an assertion's failure: a location from which every step leads to
/// the error location, by steps of that kind. Where such a step may be taken, the property
/// tests the counter's value, which the search without it does not know, so that search
/// would only find a failure that no execution may take ([`super::space::Space::successors`]
/// then gives it up for the search tracking every variable).
pub fn tested(prog: &Program, untracked: &[bool]) -> Vec<Vec<Option<VarId>>> {
    if !untracked.contains(&true) {
        return vec![Vec::new(); prog.threads.len()];
    }
    let mut reads = Vec::new();
    (prog.threads.iter())
        .map(|th| {
            let fails = surely_fails(th);
            (th.transitions.iter())
                .map(|tr| {
                    if !fails[tr.dst.0 as usize] {
                        return None;
                    }
                    reads.clear();
                    value_reads(&tr.guard, true, &mut reads);
                    (reads.iter().map(|&(v, _)| v)).find(|v| untracked[v.0 as usize])
                })
                .collect()
        })
        .collect()
}

/// Per location of `th`, whether every way on from it reaches the error location: it is
/// that location, or it has steps and each leads to such a location.
fn surely_fails(th: &Thread) -> Vec<bool> {
    let mut fails: Vec<bool> = (th.locations.iter())
        .map(|l| l.kind == LocKind::Error)
        .collect();
    loop {
        let mut changed = false;
        for (l, loc) in th.locations.iter().enumerate() {
            if !fails[l]
                && !loc.out.is_empty()
                && (loc.out.iter()).all(|&tr| fails[th.transition(tr).dst.0 as usize])
            {
                fails[l] = true;
                changed = true;
            }
        }
        if !changed {
            return fails;
        }
    }
}

/// Per variable, whether it is a counter (see the module documentation).
fn counters(prog: &Program) -> Vec<bool> {
    let mut counter: Vec<bool> = registers(prog)
        .into_iter()
        .zip(&prog.vars)
        .map(|(reg, v)| reg && matches!(v.elem, ElemKind::Int(_)))
        .collect();
    let mut reads = Vec::new();
    loop {
        let mut changed = false;
        let mut drop = |v: VarId, counter: &mut Vec<bool>| {
            changed |= counter[v.0 as usize];
            counter[v.0 as usize] = false;
        };
        for tr in prog.threads.iter().flat_map(|t| &t.transitions) {
            // Guards may read counters as values.
            reads.clear();
            value_reads(&tr.guard, true, &mut reads);
            for &(v, direct) in &reads {
                if !direct {
                    drop(v, &mut counter);
                }
            }
            for op in &tr.ops {
                reads.clear();
                match op {
                    Op::Assign { place, value } => {
                        value_reads(value, true, &mut reads);
                        match place {
                            Place::Var { var, index: None } if counter[var.0 as usize] => {
                                // Only constants and counters, as values.
                                if reads.iter().any(|&(v, d)| !d || !counter[v.0 as usize]) {
                                    drop(*var, &mut counter);
                                }
                                continue;
                            }
                            _ => place_reads(place, &mut reads),
                        }
                    }
                    Op::Havoc { place, .. } => {
                        if let Place::Var { var, index: None } = place {
                            drop(*var, &mut counter);
                        }
                        place_reads(place, &mut reads);
                    }
                    Op::Spawn { args, .. } => {
                        for (v, e) in args {
                            drop(*v, &mut counter);
                            value_reads(e, true, &mut reads);
                        }
                    }
                    Op::AtomicBegin | Op::AtomicEnd => {}
                }
                for &(v, _) in &reads {
                    drop(v, &mut counter);
                }
            }
        }
        if !changed {
            return counter;
        }
    }
}

/// The variables `place` reads to find its cell, onto `out`.
fn place_reads(place: &Place, out: &mut Vec<(VarId, bool)>) {
    match place {
        Place::Var { index: Some(i), .. } => value_reads(i, false, out),
        Place::Var { index: None, .. } => {}
        Place::Deref { addr, .. } => value_reads(addr, false, out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::{load_str, Options};

    fn left_out(text: &str) -> Vec<String> {
        let p = load_str("counters.c", text, &Options::default()).expect("lowers");
        let a = abstracted(&p, &Ranges::new(&p));
        let mut names: Vec<String> = p
            .vars
            .iter()
            .filter(|v| a[v.id.0 as usize])
            .map(|v| v.name.clone())
            .collect();
        names.sort();
        names.dedup();
        names
    }

    #[test]
    fn a_long_loops_counter_is_left_out_and_a_short_ones_is_not() {
        let prog = |rounds: u32| {
            format!(
                r#"
int x;
int main(void) {{
  for (int i = 0; i < {rounds}; i++) x = x ^ 1;
  return x;
}}
"#
            )
        };
        let long = left_out(&prog(1_000_000));
        assert!(long.iter().any(|n| n.contains("::i")), "{long:?}");
        assert!(!long.iter().any(|n| n.ends_with('x')), "{long:?}");
        assert_eq!(left_out(&prog(3)), Vec::<String>::new());
    }

    /// A sum that an assertion compares: the search without it ends at the step into the
    /// assertion's failure, naming the counter, so the search tracking every variable
    /// starts at once. A loop's counter that an assertion bounds, which the counter's
    /// interval decides, does not end it.
    #[test]
    fn an_assertion_on_a_counter_left_out_ends_the_search_without_it() {
        use super::super::space::{explore, Space, Stop};
        use std::time::{Duration, Instant};
        let search = |text: &str| {
            let p = load_str("tested.c", text, &Options::default()).expect("lowers");
            let ranges = Ranges::new(&p);
            let untracked = abstracted(&p, &ranges);
            assert!(untracked.contains(&true));
            let mut space = Space::untracking(&p, &ranges, &untracked);
            let deadline = Instant::now() + Duration::from_secs(30);
            explore(&mut space, 1_000_000, 1 << 30, deadline, false).map(|g| g.edges.len())
        };
        let sum = r#"
#include <assert.h>
int main(void) {
  long expect = 0;
  for (int i = 1; i <= 100; i++)
    expect += i;
  assert(expect == 5050);
  return 0;
}
"#;
        match search(sum) {
            Err(Stop::Budget(why)) => assert!(why.contains("expect"), "{why}"),
            Ok(states) => panic!("explored {states} states"),
        }
        let bounded = r#"
#include <assert.h>
int x;
int main(void) {
  for (int i = 0; i < 1000000; i++) {
    assert(i < 1000000);
    x = x ^ 1;
  }
  return x;
}
"#;
        assert!(search(bounded).is_ok());
    }

    #[test]
    fn a_counter_whose_value_goes_elsewhere_is_tracked() {
        // Stored to memory, and used as an index.
        let stored = left_out(
            r#"
int x;
int main(void) {
  int i;
  for (i = 0; i < 1000000; i++) {}
  x = i;
  return 0;
}
"#,
        );
        assert_eq!(stored, Vec::<String>::new());
        let index = left_out(
            r#"
int a[1000];
int main(void) {
  for (int i = 0; i < 1000; i++) a[i] = 1;
  return 0;
}
"#,
        );
        assert_eq!(index, Vec::<String>::new());
    }
}
