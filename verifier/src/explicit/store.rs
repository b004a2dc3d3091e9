//! The states of the search, each kept once and compressed: a state's memory is cut into
//! chunks of [`CHUNK`] cells, each distinct chunk is kept once, and a state is the list of its
//! chunks' numbers (collapse compression, as Holzmann describes it for SPIN in "State
//! Compression in SPIN: Recursive Indexing and Compression Training Runs"). A step changes a
//! few cells, so a new state costs a few new chunks and one number per chunk, where a copy
//! of the whole memory cost every cell: the memory of threads that never start, of buffers
//! and of tables is shared by every state.

use super::space::Key;
use crate::interp::{State, Status};
use crate::ir::ThreadId;
use rustc_hash::FxHashMap;
use std::rc::Rc;

/// Cells per chunk.
pub const CHUNK: usize = 64;
const _: () = assert!(crate::memory::MEMORY_CHUNK.is_multiple_of(CHUNK));

/// Distinct chunks of one kind, each kept once and numbered.
struct Chunks<T> {
    all: Vec<Rc<[T]>>,
    index: FxHashMap<Rc<[T]>, u32>,
}

impl<T: Clone + Eq + std::hash::Hash> Chunks<T> {
    fn new() -> Chunks<T> {
        Chunks {
            all: Vec::new(),
            index: FxHashMap::default(),
        }
    }

    /// The numbers of the chunks `pieces` (slices of [`CHUNK`] cells, the last one maybe
    /// shorter), new chunks added; adds their bytes to `bytes`. A chunk equal to the one at
    /// its position in `like` (the chunks of the state it was computed from) is that one,
    /// without hashing it: a step changes few chunks.
    fn pack<'a>(
        &mut self,
        pieces: impl Iterator<Item = &'a [T]>,
        like: &[u32],
        bytes: &mut usize,
    ) -> Box<[u32]>
    where
        T: 'a,
    {
        pieces
            .enumerate()
            .map(|(i, c)| {
                if let Some(&id) = like.get(i) {
                    if *self.all[id as usize] == *c {
                        return id;
                    }
                }
                if let Some(&id) = self.index.get(c) {
                    return id;
                }
                let id = self.all.len() as u32;
                let c: Rc<[T]> = c.into();
                *bytes += std::mem::size_of_val(&*c) + 48;
                self.all.push(c.clone());
                self.index.insert(c, id);
                id
            })
            .collect()
    }

    /// The cells of chunks `ids`, in order, into `out`.
    fn unpack(&self, ids: &[u32], out: &mut Vec<T>) {
        out.clear();
        // (At once: growing it step by step copies it again and again.)
        out.reserve(ids.len() * CHUNK);
        for &id in ids {
            out.extend_from_slice(&self.all[id as usize]);
        }
    }
}

/// A state, compressed.
#[derive(PartialEq, Eq, Hash)]
struct Packed {
    /// The chunks of the memory.
    mem: Box<[u32]>,
    /// The chunks of the marks of cells not known ([`Key::undef`]).
    undef: Box<[u32]>,
    threads: Box<[Status]>,
    atomic: Option<ThreadId>,
}

/// The states found, each kept once and numbered in the order found.
pub struct Store {
    /// A state with the layout of every state (its memory's contents are not used).
    layout: State,
    cells: Chunks<i64>,
    marks: Chunks<u64>,
    states: Vec<Rc<Packed>>,
    index: FxHashMap<Rc<Packed>, u32>,
    /// Approximate bytes held.
    pub bytes: usize,
}

impl Store {
    /// An empty store for states laid out as `like`.
    pub fn new(like: &State) -> Store {
        Store {
            layout: like.hollow(),
            cells: Chunks::new(),
            marks: Chunks::new(),
            states: Vec::new(),
            index: FxHashMap::default(),
            bytes: 0,
        }
    }

    /// Number of states.
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// The number of state `k`, added if new; `from` is the state it was computed from, if
    /// any (most of their chunks are the same).
    pub fn intern(&mut self, k: &Key, from: Option<u32>) -> u32 {
        let mut bytes = 0;
        let from = from.map(|f| self.states[f as usize].clone());
        let (mem, undef): (&[u32], &[u32]) = match &from {
            Some(f) => (&f.mem, &f.undef),
            None => (&[], &[]),
        };
        let p = Packed {
            // (A chunk of the memory is a whole number of the store's.)
            mem: self.cells.pack(
                k.state.mem.chunks().flat_map(|c| c.chunks(CHUNK)),
                mem,
                &mut bytes,
            ),
            undef: self.marks.pack(k.undef.chunks(CHUNK), undef, &mut bytes),
            threads: k.state.threads.as_slice().into(),
            atomic: k.state.atomic,
        };
        self.bytes += bytes;
        if let Some(&id) = self.index.get(&p) {
            return id;
        }
        let id = self.states.len() as u32;
        self.bytes += (p.mem.len() + p.undef.len()) * 4
            + std::mem::size_of_val(&*p.threads)
            + std::mem::size_of::<Packed>()
            + 48;
        let p = Rc::new(p);
        self.states.push(p.clone());
        self.index.insert(p, id);
        id
    }

    /// State `id`, unpacked.
    pub fn key(&self, id: u32) -> Key {
        let p = &self.states[id as usize];
        let mut state = self.layout.hollow();
        let mut cells = Vec::new();
        self.cells.unpack(&p.mem, &mut cells);
        state.mem.fill(&cells);
        state.threads = p.threads.to_vec();
        state.atomic = p.atomic;
        let mut undef = Vec::new();
        self.marks.unpack(&p.undef, &mut undef);
        Key {
            state,
            undef: undef.into(),
        }
    }

    /// Where the threads of state `id` are.
    pub fn threads(&self, id: u32) -> &[Status] {
        &self.states[id as usize].threads
    }

    /// The thread inside an atomic region in state `id`, if any.
    pub fn atomic(&self, id: u32) -> Option<ThreadId> {
        self.states[id as usize].atomic
    }
}
