//! What a premise of [`super::Smt::implies`] fixes: the values its conjuncts state for
//! variables (`x = c`) and array cells (`a[k] = c`, constant `k`). Replacing them in both
//! sides of the implication keeps its validity (the premise implies each variable equals its
//! replacement) and lets the terms fold, so that a premise that fixes every value (a
//! concrete state) leaves the solver little to do.
//!
//! A concrete state's label (the explicit engine's point labels) states a large array in
//! blocks of cells: each block a conjunction, shared by every label that has it. A block is
//! taken whole here: its cells are found in it by index, and the block itself, wherever it
//! occurs in a goal (or in the premise), holds. Folding a premise into a goal then costs the
//! number of the premise's conjuncts and of the cells the goal reads, not the number of
//! cells the premise states; a label of ten thousand cells that a step leaves alone is not
//! read again.

use super::{Identity, Sort, Term};
use rustc_hash::{FxHashMap, FxHashSet};
use std::cell::RefCell;
use std::rc::Rc;

/// A conjunction of `a[k] = c` over one array `a`, with constant indexes, each once, and
/// constant values: cells of a concrete state.
#[derive(Debug)]
pub struct Block {
    /// The array.
    pub array: Rc<str>,
    /// Its cells, by increasing index: (index, value).
    pub cells: Vec<(i128, i128)>,
}

impl Block {
    /// The lowest index.
    pub fn lo(&self) -> i128 {
        self.cells[0].0
    }

    /// The highest index.
    pub fn hi(&self) -> i128 {
        self.cells[self.cells.len() - 1].0
    }

    /// The value of the cell at index `k`, if the block states it.
    pub fn get(&self, k: i128) -> Option<i128> {
        let i = self.cells.binary_search_by_key(&k, |c| c.0).ok()?;
        Some(self.cells[i].1)
    }
}

/// `a[k] = c` with constant `k` and `c` (either way round): `(a, k, c)`.
fn cell_atom(t: &Term) -> Option<(&Rc<str>, i128, i128)> {
    let Term::Eq(l, r) = t else { return None };
    match (&**l, &**r) {
        (Term::Select(arr, i), Term::Int(c)) | (Term::Int(c), Term::Select(arr, i)) => {
            match (&**arr, &**i) {
                (Term::Var(n, Sort::Array), Term::Int(k)) => Some((n, *k, *c)),
                _ => None,
            }
        }
        _ => None,
    }
}

impl Term {
    /// The block of cells this term states, if it is a conjunction of at least two
    /// `a[k] = c` over one array, each index once.
    pub fn cell_block(&self) -> Option<Block> {
        let Term::And(xs) = self else { return None };
        if xs.len() < 2 {
            return None;
        }
        let (array, _, _) = cell_atom(&xs[0])?;
        let mut cells = Vec::with_capacity(xs.len());
        for x in xs.iter() {
            let (n, k, c) = cell_atom(x)?;
            if n != array {
                return None;
            }
            cells.push((k, c));
        }
        cells.sort_unstable();
        if cells.windows(2).any(|w| w[0].0 == w[1].0) {
            return None;
        }
        Some(Block {
            array: array.clone(),
            cells,
        })
    }
}

/// The address by which a conjunction is recognised as a block (its conjuncts').
fn address(xs: &Rc<[Term]>) -> usize {
    xs.as_ptr() as usize
}

/// Blocks met so far, by address. Each entry keeps its term alive, so that no other term
/// takes its address.
#[derive(Default)]
pub(super) struct Blocks(FxHashMap<usize, (Term, Option<Rc<Block>>)>);

impl Blocks {
    /// Entries beyond which the memory is cleared (it only saves work).
    const MAX: usize = 1 << 20;

    /// The block `t` is, if it is one.
    fn of(&mut self, t: &Term) -> Option<Rc<Block>> {
        let Term::And(xs) = t else { return None };
        // (Most conjunctions are not blocks: those are not remembered.)
        if xs.len() < 2 || cell_atom(&xs[0]).is_none() {
            return None;
        }
        if let Some((_, b)) = self.0.get(&address(xs)) {
            return b.clone();
        }
        if self.0.len() >= Self::MAX {
            self.0.clear();
        }
        let b = t.cell_block().map(Rc::new);
        self.0.insert(address(xs), (t.clone(), b.clone()));
        b
    }
}

/// A block among a premise's conjuncts: its lowest and highest index, the block, its address.
type Placed = (i128, i128, Rc<Block>, usize);

/// The values a conjunction fixes.
pub(super) struct Known {
    /// Scalar variables' values.
    vars: FxHashMap<Rc<str>, Term>,
    /// Cells stated by atoms of their own: (array, index) ↦ value.
    cells: FxHashMap<(Rc<str>, i128), i128>,
    /// The same cells in the order stated.
    order: Vec<(Rc<str>, i128, i128)>,
    /// Per array, the blocks among the conjuncts, by increasing index: (lowest index,
    /// highest index, block, address). Their index ranges are disjoint, and no cell of
    /// `cells` lies in one.
    blocks: FxHashMap<Rc<str>, Vec<Placed>>,
    /// The addresses of those blocks.
    block_ids: FxHashSet<usize>,
    /// The arrays with known cells.
    arrays: FxHashSet<Rc<str>>,
    /// Per array with known cells, those cells stored over the array itself; made when a
    /// term needs one.
    chains: RefCell<FxHashMap<Rc<str>, Term>>,
}

impl Known {
    /// What conjunction `a` fixes; `None` when it fixes nothing.
    pub(super) fn of(a: &Term, memo: &mut Blocks) -> Option<Known> {
        let Term::And(xs) = a else { return None };
        let mut known = Known {
            vars: FxHashMap::default(),
            cells: FxHashMap::default(),
            order: Vec::new(),
            blocks: FxHashMap::default(),
            block_ids: FxHashSet::default(),
            arrays: FxHashSet::default(),
            chains: RefCell::default(),
        };
        known.add(xs, memo);
        known.settle_blocks();
        known.arrays = (known.order.iter().map(|c| c.0.clone()))
            .chain(known.blocks.keys().cloned())
            .collect();
        let fixes = !known.vars.is_empty() || !known.cells.is_empty() || !known.blocks.is_empty();
        fixes.then_some(known)
    }

    /// Adds what conjuncts `xs` fix (and those of a conjunction among them).
    fn add(&mut self, xs: &[Term], memo: &mut Blocks) {
        for x in xs.iter() {
            if let Some(b) = memo.of(x) {
                let Term::And(ys) = x else {
                    unreachable!("a block is a conjunction")
                };
                self.block_ids.insert(address(ys));
                let placed = (b.lo(), b.hi(), b.clone(), address(ys));
                self.blocks.entry(b.array.clone()).or_default().push(placed);
                continue;
            }
            if let Some((n, k, c)) = cell_atom(x) {
                if let std::collections::hash_map::Entry::Vacant(e) =
                    self.cells.entry((n.clone(), k))
                {
                    e.insert(c);
                    self.order.push((n.clone(), k, c));
                }
                continue;
            }
            if let Term::And(ys) = x {
                self.add(ys, memo);
                continue;
            }
            let Term::Eq(l, r) = x else { continue };
            if let (Term::Var(n, Sort::Int), Term::Int(c))
            | (Term::Int(c), Term::Var(n, Sort::Int)) = (&**l, &**r)
            {
                self.vars.entry(n.clone()).or_insert(Term::Int(*c));
            }
        }
    }

    /// Sorts each array's blocks; an array whose blocks overlap each other or a cell stated
    /// on its own has its blocks' cells taken one by one instead (such a premise states two
    /// values for a cell, or states one twice).
    fn settle_blocks(&mut self) {
        let mut overlapping = Vec::new();
        for (a, bs) in self.blocks.iter_mut() {
            bs.sort_unstable_by_key(|b| b.0);
            let apart = bs.windows(2).all(|w| w[0].1 < w[1].0);
            if !apart {
                overlapping.push(a.clone());
            }
        }
        for (a, k, _) in &self.order {
            if let Some(bs) = self.blocks.get(a) {
                if Self::find(bs, *k).is_some() && !overlapping.contains(a) {
                    overlapping.push(a.clone());
                }
            }
        }
        for a in overlapping {
            for (_, _, b, id) in self.blocks.remove(&a).unwrap_or_default() {
                self.block_ids.remove(&id);
                for &(k, c) in &b.cells {
                    if let std::collections::hash_map::Entry::Vacant(e) =
                        self.cells.entry((a.clone(), k))
                    {
                        e.insert(c);
                        self.order.push((a.clone(), k, c));
                    }
                }
            }
        }
    }

    /// The block of `bs` whose index range holds `k`.
    fn find(bs: &[Placed], k: i128) -> Option<&Rc<Block>> {
        let i = bs.partition_point(|b| b.1 < k);
        bs.get(i).filter(|b| b.0 <= k).map(|b| &b.2)
    }

    /// The value of cell `a[k]`, if known.
    pub(super) fn cell(&self, a: &Rc<str>, k: i128) -> Option<i128> {
        if let Some(c) = self.cells.get(&(a.clone(), k)) {
            return Some(*c);
        }
        Self::find(self.blocks.get(a)?, k)?.get(k)
    }

    /// `premise` (the conjunction this was made of) with its values replaced: each of its
    /// conjuncts that states a value this has, or bounds one by a constant, is decided
    /// without a term made for it, the others are replaced in.
    pub(super) fn fold(&self, premise: &Term, done: &mut FxHashMap<Identity, Term>) -> Term {
        let Term::And(xs) = premise else {
            return premise.substitute_known(self, done);
        };
        let mut rest = Vec::new();
        if self.fold_into(xs, &mut rest, done) {
            Term::and(rest)
        } else {
            Term::False
        }
    }

    /// [`Known::fold`] of conjuncts `xs` (and of those of a conjunction among them that is
    /// not a block) into `rest`; `false` where one folds to false.
    fn fold_into(
        &self,
        xs: &[Term],
        rest: &mut Vec<Term>,
        done: &mut FxHashMap<Identity, Term>,
    ) -> bool {
        for x in xs.iter() {
            match (self.decide(x), x) {
                (Some(true), _) => {}
                (Some(false), _) => return false,
                (None, Term::And(ys)) => {
                    if !self.fold_into(ys, rest, done) {
                        return false;
                    }
                }
                (None, x) if !self.reads_known(x) => rest.push(x.clone()),
                (None, x) => rest.push(x.substitute_known(self, done)),
            }
        }
        true
    }

    /// Whether `t` mentions a variable this replaces (so that replacing changes it).
    fn reads_known(&self, t: &Term) -> bool {
        match t {
            Term::Var(n, Sort::Array) => self.arrays.contains(n),
            Term::Var(n, _) => self.vars.contains_key(n),
            Term::Forall(..) | Term::Exists(..) => true,
            _ => t.children().into_iter().any(|c| self.reads_known(c)),
        }
    }

    /// What a conjunct of the premise says of the values this has, when it is `x = c`,
    /// `a[k] = c`, a block, or a comparison of a value with a constant.
    fn decide(&self, x: &Term) -> Option<bool> {
        let int = |t: &Term| match t {
            Term::Int(c) => Some(*c),
            Term::Var(n, Sort::Int) => match self.vars.get(n) {
                Some(Term::Int(c)) => Some(*c),
                _ => None,
            },
            Term::Select(a, k) => match (&**a, &**k) {
                (Term::Var(n, Sort::Array), Term::Int(k)) => self.cell(n, *k),
                _ => None,
            },
            _ => None,
        };
        match x {
            Term::And(ys) if self.holds(ys) => Some(true),
            Term::Eq(a, b) => Some(int(a)? == int(b)?),
            Term::Le(a, b) => Some(int(a)? <= int(b)?),
            Term::Lt(a, b) => Some(int(a)? < int(b)?),
            _ => None,
        }
    }

    /// Whether the conjunction of `xs` is one of the premise's blocks (so it holds).
    pub(super) fn holds(&self, xs: &Rc<[Term]>) -> bool {
        self.block_ids.contains(&address(xs))
    }

    /// The replacement of variable `n`: a scalar's value, or an array's known cells stored
    /// over itself.
    pub(super) fn var(&self, n: &str, sort: Sort) -> Option<Term> {
        if sort != Sort::Array {
            return self.vars.get(n).cloned();
        }
        if let Some(t) = self.chains.borrow().get(n) {
            return Some(t.clone());
        }
        let own = self.order.iter().filter(|c| &*c.0 == n).map(|c| (c.1, c.2));
        let blocks = self.blocks.get(n).into_iter().flatten();
        let mut cells = own
            .chain(blocks.flat_map(|b| b.2.cells.iter().copied()))
            .peekable();
        cells.peek()?;
        let n: Rc<str> = n.into();
        let chain = cells.fold(Term::Var(n.clone(), Sort::Array), |arr, (k, c)| {
            Term::store(arr, Term::Int(k), Term::Int(c))
        });
        self.chains.borrow_mut().insert(n, chain.clone());
        Some(chain)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Smt, Sort, Term};

    fn cell(k: i128) -> Term {
        Term::select(Term::var("a", Sort::Array), Term::int(k))
    }

    /// `a[k] = c` for each `(k, c)`, as one conjunction.
    fn block(cells: &[(i128, i128)]) -> Term {
        let atoms: Vec<Term> = (cells.iter())
            .map(|&(k, c)| Term::eq(cell(k), Term::int(c)))
            .collect();
        Term::And(atoms.into())
    }

    /// A premise's blocks of cells fix their cells, hold where a goal has them, and are
    /// looked up through stores at other indexes; nothing they do not say follows.
    #[test]
    fn a_block_of_cells_is_taken_whole() {
        let x = Term::var("x", Sort::Int);
        let (b1, b2) = (block(&[(0, 5), (1, 6)]), block(&[(2, 7), (3, 8)]));
        let premise = Term::And(vec![Term::eq(x.clone(), Term::int(1)), b1, b2.clone()].into());
        let mut smt = Smt::new(5_000);
        let mut implies = |goal: Term| smt.implies(&premise, &goal);
        assert_eq!(implies(Term::eq(cell(1), Term::int(6))), Some(true));
        assert_eq!(implies(Term::eq(cell(3), Term::int(8))), Some(true));
        assert_eq!(implies(Term::eq(cell(3), Term::int(9))), Some(false));
        assert_eq!(implies(Term::eq(cell(4), Term::int(0))), Some(false));
        assert_eq!(
            implies(Term::and([b2, Term::lt(x.clone(), Term::int(2))])),
            Some(true)
        );
        let stored = Term::store(Term::var("a", Sort::Array), x.clone(), Term::int(9));
        let read = |k| Term::select(stored.clone(), Term::int(k));
        assert_eq!(implies(Term::eq(read(2), Term::int(7))), Some(true));
        assert_eq!(implies(Term::eq(read(1), Term::int(6))), Some(false));
        assert_eq!(implies(Term::eq(read(1), Term::int(9))), Some(true));
        // A read at an index the premise fixes, and the array as a whole.
        let at_x = Term::select(Term::var("a", Sort::Array), x);
        assert_eq!(implies(Term::eq(at_x, Term::int(6))), Some(true));
        let a = Term::var("a", Sort::Array);
        let same = Term::eq(Term::store(a.clone(), Term::int(0), Term::int(5)), a);
        assert_eq!(implies(same), Some(true));
        assert_eq!(implies(Term::False), Some(false));
    }

    /// A conjunction inside the premise is read as its conjuncts: what they fix is known,
    /// and one that is false makes the premise false.
    #[test]
    fn a_nested_conjunction_is_read_as_its_conjuncts() {
        let x = Term::var("x", Sort::Int);
        let ranges = Term::And(
            vec![
                Term::le(Term::int(0), x.clone()),
                Term::le(x.clone(), Term::int(9)),
            ]
            .into(),
        );
        let label =
            Term::And(vec![Term::eq(x.clone(), Term::int(4)), block(&[(0, 1), (1, 2)])].into());
        let premise = Term::And(vec![ranges.clone(), label].into());
        let mut smt = Smt::new(5_000);
        assert_eq!(
            smt.implies(&premise, &Term::eq(x.clone(), Term::int(4))),
            Some(true)
        );
        assert_eq!(
            smt.implies(&premise, &Term::eq(cell(1), Term::int(2))),
            Some(true)
        );
        assert_eq!(smt.implies(&premise, &Term::False), Some(false));
        let outside = Term::And(vec![Term::eq(x, Term::int(12)), block(&[(0, 1), (1, 2)])].into());
        let premise = Term::And(vec![ranges, outside].into());
        assert_eq!(smt.implies(&premise, &Term::False), Some(true));
        assert_eq!(smt.stats.checks, 0);
    }

    /// Blocks that state a cell twice are read cell by cell: with two values for it the
    /// premise is false, with one it is not.
    #[test]
    fn blocks_that_overlap_are_read_cell_by_cell() {
        let mut smt = Smt::new(5_000);
        let b1 = block(&[(0, 5), (1, 6)]);
        let clash = Term::And(vec![b1.clone(), block(&[(1, 7), (2, 0)])].into());
        assert_eq!(smt.implies(&clash, &Term::False), Some(true));
        let agree = Term::And(vec![b1, block(&[(1, 6), (5, 1)])].into());
        assert_eq!(smt.implies(&agree, &Term::False), Some(false));
        let goal = Term::and([
            Term::eq(cell(5), Term::int(1)),
            Term::eq(cell(1), Term::int(6)),
        ]);
        assert_eq!(smt.implies(&agree, &goal), Some(true));
        let own = Term::And(vec![block(&[(0, 5), (1, 6)]), Term::eq(cell(1), Term::int(3))].into());
        assert_eq!(smt.implies(&own, &Term::False), Some(true));
    }
}
