//! The memory of a program state: every variable's cells, in chunks shared between states
//! (copy on write), so that the searches' copies of states cost what their steps change.
//! The representation is a two-level persistent array, as the persistent vectors of Bagwell's
//! "Ideal Hash Trees" (path copying of a shallow tree), with the flat cell numbering of
//! `DESIGN.md` ("Program model").

use std::sync::Arc;

/// Cells per chunk of a [`Memory`], as a power of two.
const CHUNK_BITS: usize = 10;
/// Cells per chunk of a [`Memory`].
pub const MEMORY_CHUNK: usize = 1 << CHUNK_BITS;
/// Chunks per page of a [`Memory`], as a power of two.
const PAGE_BITS: usize = 6;

/// A chunk of cells.
type Chunk = Arc<[i64]>;
/// A page: consecutive chunks.
type Page = Arc<[Chunk]>;

/// The contents of every variable, cut into chunks of [`MEMORY_CHUNK`] cells, in pages of
/// `2^PAGE_BITS` chunks, both shared between the states that have them unchanged (copy on
/// write, as a persistent array): a state is cloned at every step of an exploration, and a
/// step writes a few cells, so a clone costs a reference per page and a write copies one
/// page's references and one chunk the first time, where a flat copy cost every cell (a
/// program with buffers of a few kilobytes per thread has millions of cells). The last
/// chunk and page may be shorter. Variable `v`'s elements are the cells
/// `starts()[v]..starts()[v + 1]`. An element holds the 64 bits of its value (every type has
/// at most 64); a load converts them to its type ([`crate::ir::Ty::wrap`]), which gives the
/// value the element was stored with. A hollow memory ([`Memory::hollow`]) has its layout's
/// length but no cells to read.
#[derive(Debug)]
pub struct Memory {
    pages: Vec<Page>,
    /// Where each variable starts among the cells, and the end.
    start: Arc<[usize]>,
}

impl Memory {
    /// A memory of `cells` laid out by `start` (each variable's first cell, and the end).
    pub fn new(cells: &[i64], start: Arc<[usize]>) -> Memory {
        assert_eq!(
            Some(&cells.len()),
            start.last(),
            "a memory of another layout"
        );
        let chunks: Vec<Chunk> = cells.chunks(MEMORY_CHUNK).map(Into::into).collect();
        Memory {
            pages: chunks.chunks(1 << PAGE_BITS).map(Into::into).collect(),
            start,
        }
    }

    /// A memory of this one's layout made of `chunks` ([`MEMORY_CHUNK`] cells each, the
    /// last maybe fewer), shared.
    pub fn of_chunks(&self, chunks: Vec<Arc<[i64]>>) -> Memory {
        debug_assert_eq!(
            Some(&chunks.iter().map(|c| c.len()).sum::<usize>()),
            self.start.last(),
            "a memory of another layout"
        );
        Memory {
            pages: chunks.chunks(1 << PAGE_BITS).map(Into::into).collect(),
            start: self.start.clone(),
        }
    }

    /// The chunks ([`MEMORY_CHUNK`] cells each, the last maybe fewer), shared.
    pub fn shared_chunks(&self) -> impl Iterator<Item = &Arc<[i64]>> + '_ {
        self.pages.iter().flat_map(|p| p.iter())
    }

    /// A memory with no cells that shares this one's layout (allocates nothing).
    pub fn hollow(&self) -> Memory {
        Memory {
            pages: Vec::new(),
            start: self.start.clone(),
        }
    }

    /// Element `i` of variable `v` (`i` within the variable).
    #[inline]
    pub fn cell(&self, v: usize, i: usize) -> i64 {
        self.at(self.start[v] + i)
    }

    /// Sets element `i` of variable `v` to `x` ([`Memory::set`]).
    #[inline]
    pub fn set_cell(&mut self, v: usize, i: usize, x: i64) {
        self.set(self.start[v] + i, x)
    }

    /// Where element `i` of variable `v` is among all the cells ([`Memory::at`]).
    #[inline]
    pub fn flat(&self, v: usize, i: usize) -> usize {
        self.start[v] + i
    }

    /// Cell `f` among all the cells ([`Memory::flat`]).
    #[inline]
    pub fn at(&self, f: usize) -> i64 {
        self.chunk(f >> CHUNK_BITS)[f & (MEMORY_CHUNK - 1)]
    }

    /// Sets cell `f` to `x`: its page and chunk become this memory's own, unless it holds
    /// `x` already.
    #[inline]
    pub fn set(&mut self, f: usize, x: i64) {
        if self.at(f) != x {
            *self
                .chunk_mut(f >> CHUNK_BITS)
                .get_mut(f & (MEMORY_CHUNK - 1))
                .expect("a cell") = x;
        }
    }

    /// Chunk `c`, to write: it and its page become this memory's own.
    #[inline]
    fn chunk_mut(&mut self, c: usize) -> &mut [i64] {
        let page = Arc::make_mut(&mut self.pages[c >> PAGE_BITS]);
        Arc::make_mut(&mut page[c & ((1 << PAGE_BITS) - 1)])
    }

    /// Chunk `c`.
    #[inline]
    fn chunk(&self, c: usize) -> &Chunk {
        &self.pages[c >> PAGE_BITS][c & ((1 << PAGE_BITS) - 1)]
    }

    /// Where each variable's elements start among the cells, and their number.
    pub fn starts(&self) -> &[usize] {
        &self.start
    }

    /// The number of cells.
    #[inline]
    pub fn len(&self) -> usize {
        *self.start.last().unwrap_or(&0)
    }

    /// Whether there are no cells.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every cell, in variable order, as consecutive slices (the chunks).
    pub fn chunks(&self) -> impl Iterator<Item = &[i64]> + '_ {
        self.pages.iter().flat_map(|p| p.iter().map(|c| &**c))
    }

    /// The cells `r` as one slice: borrowed where they lie in one chunk.
    pub fn slice(&self, r: std::ops::Range<usize>) -> std::borrow::Cow<'_, [i64]> {
        if r.is_empty() {
            return std::borrow::Cow::Borrowed(&[]);
        }
        let c = r.start >> CHUNK_BITS;
        if (r.end - 1) >> CHUNK_BITS == c {
            let o = c << CHUNK_BITS;
            std::borrow::Cow::Borrowed(&self.chunk(c)[r.start - o..r.end - o])
        } else {
            std::borrow::Cow::Owned(r.map(|f| self.at(f)).collect())
        }
    }

    /// The parts of the cells `r` in each chunk: the chunk, and the range within it.
    fn pieces(r: std::ops::Range<usize>) -> impl Iterator<Item = (usize, std::ops::Range<usize>)> {
        let (start, end) = (r.start, r.end);
        // (An empty range has no piece.)
        let chunks = if start < end {
            (start >> CHUNK_BITS)..((end - 1) >> CHUNK_BITS) + 1
        } else {
            0..0
        };
        chunks.map(move |c| {
            let o = c << CHUNK_BITS;
            (c, start.max(o) - o..end.min(o + MEMORY_CHUNK) - o)
        })
    }

    /// Sets the cells `r` to `x`.
    pub fn fill_range(&mut self, r: std::ops::Range<usize>, x: i64) {
        for (c, within) in Self::pieces(r) {
            if self.chunk(c)[within.clone()].iter().any(|&y| y != x) {
                self.chunk_mut(c)[within].fill(x);
            }
        }
    }

    /// Sets the cells `r` to those of `other` (of the same layout).
    pub fn copy_range(&mut self, r: std::ops::Range<usize>, other: &Memory) {
        for (c, within) in Self::pieces(r) {
            let theirs = other.chunk(c);
            if Arc::ptr_eq(self.chunk(c), theirs)
                || self.chunk(c)[within.clone()] == theirs[within.clone()]
            {
                continue;
            }
            self.chunk_mut(c)[within.clone()].copy_from_slice(&theirs[within]);
        }
    }

    /// Replaces every cell with `cells`, which has this memory's layout.
    pub fn fill(&mut self, cells: &[i64]) {
        *self = Memory::new(cells, self.start.clone());
    }

    /// Bytes of this memory's pages and chunks that `other` does not share, and of its list
    /// of pages: what keeping this memory beside `other` costs.
    pub fn bytes_apart_from(&self, other: &Memory) -> usize {
        let mut own = self.pages.len() * std::mem::size_of::<Page>();
        for (i, p) in self.pages.iter().enumerate() {
            let theirs = other.pages.get(i);
            if theirs.is_some_and(|q| Arc::ptr_eq(p, q)) {
                continue;
            }
            own += std::mem::size_of_val(&**p);
            for (j, c) in p.iter().enumerate() {
                if !theirs
                    .and_then(|q| q.get(j))
                    .is_some_and(|d| Arc::ptr_eq(c, d))
                {
                    own += std::mem::size_of_val(&**c);
                }
            }
        }
        own
    }
}

impl Clone for Memory {
    fn clone(&self) -> Memory {
        Memory {
            pages: self.pages.clone(),
            start: self.start.clone(),
        }
    }
    /// Reuses this memory's list of pages (the explorer recycles states), and a memory of
    /// one chunk its page and chunk when no other memory has them: a small program's step
    /// then copies its cells into a buffer it has, as a flat memory did, instead of making
    /// a page and a chunk at its first write.
    fn clone_from(&mut self, other: &Memory) {
        match (&mut self.pages[..], &other.pages[..]) {
            ([mine], [theirs]) if mine.len() == 1 && theirs.len() == 1 => {
                if !Arc::ptr_eq(mine, theirs) {
                    let same = mine[0].len() == theirs[0].len();
                    match Arc::get_mut(mine).and_then(|p| Arc::get_mut(&mut p[0])) {
                        Some(m) if same => m.copy_from_slice(&theirs[0]),
                        _ => *mine = theirs.clone(),
                    }
                }
            }
            _ => self.pages.clone_from(&other.pages),
        }
        // (The layout is almost always the same one: no reference count to touch.)
        if !Arc::ptr_eq(&self.start, &other.start) {
            self.start.clone_from(&other.start);
        }
    }
}

impl PartialEq for Memory {
    fn eq(&self, other: &Memory) -> bool {
        self.pages.len() == other.pages.len()
            && self.pages.iter().zip(&other.pages).all(|(p, q)| {
                Arc::ptr_eq(p, q)
                    || (p.len() == q.len()
                        && p.iter()
                            .zip(q.iter())
                            .all(|(a, b)| Arc::ptr_eq(a, b) || a == b))
            })
    }
}

impl Eq for Memory {}

impl std::hash::Hash for Memory {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        for c in self.chunks() {
            c.hash(h);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A memory of `n` cells, cell `f` holding `f`, in one variable.
    fn counting(n: usize) -> Memory {
        let cells: Vec<i64> = (0..n as i64).collect();
        Memory::new(&cells, vec![0, n].into())
    }

    #[test]
    fn a_copy_shares_what_neither_writes_and_sees_none_of_the_others_writes() {
        // Three pages, the last one short, the last chunk short.
        let n = 2 * (MEMORY_CHUNK << PAGE_BITS) + 3 * MEMORY_CHUNK + 5;
        let a = counting(n);
        let mut b = a.clone();
        assert_eq!(b.bytes_apart_from(&a), 3 * std::mem::size_of::<Page>());
        for f in [
            0,
            MEMORY_CHUNK - 1,
            MEMORY_CHUNK,
            MEMORY_CHUNK << PAGE_BITS,
            n - 1,
        ] {
            b.set(f, -1);
            assert_eq!(b.at(f), -1);
            assert_eq!(a.at(f), f as i64, "the original keeps cell {f}");
        }
        assert!(b != a);
        // Three whole chunks and the short last one were copied, with their three pages.
        let apart = b.bytes_apart_from(&a);
        assert!(
            apart > 3 * MEMORY_CHUNK * 8 && apart < 4 * MEMORY_CHUNK * 8,
            "{apart}"
        );
        // Writing back the old values makes them equal again, and equal memories hash alike.
        for f in [
            0,
            MEMORY_CHUNK - 1,
            MEMORY_CHUNK,
            MEMORY_CHUNK << PAGE_BITS,
            n - 1,
        ] {
            b.set(f, f as i64);
        }
        assert!(b == a);
        let hash = |m: &Memory| {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            m.hash(&mut h);
            h.finish()
        };
        assert_eq!(hash(&a), hash(&b));
        assert_eq!(
            b.chunks().collect::<Vec<_>>().concat(),
            (0..n as i64).collect::<Vec<_>>()
        );
        assert_eq!(b.len(), n);
    }

    #[test]
    fn ranges_across_chunks_are_read_filled_and_copied() {
        let n = 3 * MEMORY_CHUNK + 7;
        let a = counting(n);
        let r = MEMORY_CHUNK - 2..2 * MEMORY_CHUNK + 3;
        assert_eq!(
            a.slice(r.clone()).to_vec(),
            (r.start as i64..r.end as i64).collect::<Vec<_>>()
        );
        assert!(matches!(a.slice(3..9), std::borrow::Cow::Borrowed(_)));
        assert!(a.slice(n..n).is_empty());
        let mut b = a.clone();
        b.fill_range(r.clone(), 7);
        for f in 0..n {
            assert_eq!(b.at(f), if r.contains(&f) { 7 } else { f as i64 }, "{f}");
        }
        b.copy_range(r.start + 1..r.end - 1, &a);
        for f in 0..n {
            let edge = f == r.start || f == r.end - 1;
            assert_eq!(b.at(f), if edge { 7 } else { f as i64 }, "{f}");
        }
        let mut c = a.clone();
        c.clone_from(&b);
        assert!(c == b);
        c.fill(&(0..n as i64).collect::<Vec<_>>());
        assert!(c == a);
    }

    #[test]
    fn a_small_memory_reuses_its_own_chunk_when_it_copies_another() {
        let a = counting(10);
        let mut b = a.clone();
        b.set(3, 30);
        let mine = Arc::as_ptr(&b.pages[0][0]);
        let mut c = a.clone();
        c.set(4, 40);
        b.clone_from(&c);
        assert_eq!(
            Arc::as_ptr(&b.pages[0][0]),
            mine,
            "copied into its own chunk"
        );
        assert!(b == c && b.at(3) == 3 && b.at(4) == 40);
        // A memory whose chunk another holds takes the other's chunk instead.
        let d = b.clone();
        b.clone_from(&a);
        assert!(b == a && d.at(4) == 40);
    }
}
