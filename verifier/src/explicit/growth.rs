//! What makes the explicit search's states many, for the message of a search that stops at
//! its budget: the cells of memory whose values vary most over a sample of the states it
//! found, named as the program names them. A counter of the lines read, a running sum or a
//! buffer's bytes then stand named in the verdict ("`total`: 19,871 values"), and the user
//! sees what to bound, make unsigned (a signed counter that may overflow is a value the
//! search must keep) or leave out of the shared state.
//!
//! A diagnosis only: it reads the states and decides nothing.

use super::space::Space;
use rustc_hash::FxHashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// States compared with the first one to find the cells that vary.
const PROBE: usize = 256;
/// Most states whose values are counted.
const SAMPLE: usize = 20_000;
/// Most cells whose values are counted.
const MAX_CELLS: usize = 4096;
/// Most time the diagnosis takes.
const MAX_TIME: Duration = Duration::from_millis(300);
/// Cells named.
const SHOWN: usize = 3;
/// Fewest values of a cell named.
const MIN_VALUES: usize = 16;

/// The cells whose values vary most over the states of `space`, with their numbers of
/// values, as a clause to append to the reason the search stopped (empty where no cell takes
/// at least [`MIN_VALUES`] values in the sample).
pub fn note(space: &Space) -> String {
    let varying = most_varying(space);
    if varying.is_empty() {
        return String::new();
    }
    let cells: Vec<String> = (varying.iter())
        .map(|(name, n)| format!("`{name}` ({n} values)"))
        .collect();
    format!("{}: {}", super::GROWTH, cells.join(", "))
}

/// The cells (named) that take the most values over a sample of the states of `space`, at
/// most [`SHOWN`], most first.
fn most_varying(space: &Space) -> Vec<(String, usize)> {
    let n = space.len();
    if n < 2 {
        return Vec::new();
    }
    let until = Instant::now() + MAX_TIME;
    let first = space.key(0);
    let base: Vec<Arc<[i64]>> = first.state.mem.shared_chunks().cloned().collect();
    // The cells where some probed state differs from the first one.
    let mut cells: Vec<usize> = Vec::new();
    let mut seen = FxHashSet::default();
    for id in (1..n).step_by((n / PROBE).max(1)) {
        if Instant::now() >= until || cells.len() >= MAX_CELLS {
            break;
        }
        let k = space.key(id as u32);
        let mut at = 0;
        for (c, b) in k.state.mem.shared_chunks().zip(&base) {
            if !Arc::ptr_eq(c, b) {
                for (i, (x, y)) in c.iter().zip(b.iter()).enumerate() {
                    if x != y && seen.insert(at + i) && cells.len() < MAX_CELLS {
                        cells.push(at + i);
                    }
                }
            }
            at += b.len();
        }
    }
    if cells.is_empty() {
        return Vec::new();
    }
    let mut values: Vec<FxHashSet<i64>> = vec![FxHashSet::default(); cells.len()];
    for id in (0..n).step_by((n / SAMPLE).max(1)) {
        if Instant::now() >= until {
            break;
        }
        let k = space.key(id as u32);
        for (set, &f) in values.iter_mut().zip(&cells) {
            set.insert(k.state.mem.at(f));
        }
    }
    let mut counted: Vec<(usize, usize)> = (cells.iter().copied())
        .zip(values.iter().map(|s| s.len()))
        .filter(|&(_, v)| v >= MIN_VALUES)
        .collect();
    counted.sort_by_key(|&(f, v)| (std::cmp::Reverse(v), f));
    counted.truncate(SHOWN);
    let starts = first.state.mem.starts();
    (counted.into_iter())
        .map(|(f, v)| (cell_name(space, starts, f), v))
        .collect()
}

/// The name of cell `f` (flat) in a memory laid out by `starts`: its variable's, with the
/// element's index where the variable has several.
fn cell_name(space: &Space, starts: &[usize], f: usize) -> String {
    let v = starts.partition_point(|&s| s <= f).saturating_sub(1);
    let var = &space.prog.vars[v];
    match var.len > 1 {
        true => format!("{}[{}]", var.name, f - starts[v]),
        false => var.name.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::space::{explore, Space};
    use crate::frontend::{load_str, Options};
    use std::time::{Duration, Instant};

    /// A counter of the rounds of a loop that never stops growing (a signed one, whose
    /// overflow the search must find) is named in the reason the search stops, with the
    /// number of its values in the sample; a program whose states are few gets no clause.
    #[test]
    fn a_growing_counter_is_named() {
        let src = r#"
extern int __VERIFIER_nondet_int(void);
long total;
int main(void) {
  while (__VERIFIER_nondet_int())
    total++;
  return 0;
}
"#;
        let deadline = Instant::now() + Duration::from_secs(20);
        let prog = load_str("count.c", src, &Options::default()).expect("lowers");
        let mut space = Space::new(&prog);
        assert!(explore(&mut space, 5_000, usize::MAX, deadline, false).is_err());
        let note = super::note(&space);
        assert!(note.starts_with(super::super::GROWTH), "{note}");
        assert!(note.contains("`total` ("), "{note}");
        let small = "int x; int main(void) { x = 1; return 0; }";
        let prog = load_str("small.c", small, &Options::default()).expect("lowers");
        let mut space = Space::new(&prog);
        assert!(explore(&mut space, 5_000, usize::MAX, deadline, false).is_ok());
        assert_eq!(super::note(&space), "");
    }
}
