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
//! once.
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
