//! The states of the search, each kept once and compressed: a state's memory is cut into
//! chunks of [`CHUNK`] cells, each distinct chunk is kept once, and a state is the list of its
//! chunks' numbers (collapse compression, as Holzmann describes it for SPIN in "State
//! Compression in SPIN: Recursive Indexing and Compression Training Runs"). A step changes a
//! few cells, so a new state costs a few new chunks and one number per chunk, where a copy
//! of the whole memory cost every cell: the memory of threads that never start, of buffers
//! and of tables is shared by every state. The interpreter's memory shares its own, larger
//! chunks between states ([`crate::memory::Memory`]); the store remembers which of those
//! consist of which of its chunks ([`Assembled`]), so that unpacking a state takes the ones
//! it has met before instead of copying every cell, and packing one skips them.

use super::space::Key;
use crate::interp::{State, Status};
use crate::ir::ThreadId;
use crate::memory::MEMORY_CHUNK;
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

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

/// Store chunks per chunk of the interpreter's memory.
const PER_MEMORY_CHUNK: usize = MEMORY_CHUNK / CHUNK;

/// Chunks of the interpreter's memory met so far, by the numbers of the store's chunks they
/// consist of, and those numbers by the address of the chunk's cells. Each entry keeps its
/// chunk alive, so no other chunk takes its address while the entry is there, and shared, so
/// nothing writes into it ([`crate::memory::Memory::set`] copies a shared chunk first).
#[derive(Default)]
struct Assembled {
    by_ids: FxHashMap<Box<[u32]>, MemoryChunk>,
    by_address: FxHashMap<usize, (MemoryChunk, Box<[u32]>)>,
}

/// A chunk of the interpreter's memory, shared.
type MemoryChunk = Arc<[i64]>;

impl Assembled {
    /// Entries beyond which it is cleared (it only saves work): at most 32 MiB of chunks.
    const MAX: usize = 4096;

    fn insert(&mut self, ids: Box<[u32]>, chunk: Arc<[i64]>) {
        if self.by_address.len() >= Self::MAX {
            self.by_ids.clear();
            self.by_address.clear();
        }
        let address = chunk.as_ptr() as usize;
        self.by_ids
            .entry(ids.clone())
            .or_insert_with(|| chunk.clone());
        self.by_address.insert(address, (chunk, ids));
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
    assembled: RefCell<Assembled>,
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
            assembled: RefCell::default(),
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
        // (A chunk of the memory is a whole number of the store's.)
        let mut packed = Vec::with_capacity(k.state.mem.len().div_ceil(CHUNK));
        let assembled = &mut *self.assembled.borrow_mut();
        for (i, c) in k.state.mem.shared_chunks().enumerate() {
            if let Some((_, ids)) = assembled.by_address.get(&(c.as_ptr() as usize)) {
                packed.extend_from_slice(ids);
                continue;
            }
            let at = (i * PER_MEMORY_CHUNK).min(mem.len());
            let like = &mem[at..(at + PER_MEMORY_CHUNK).min(mem.len())];
            let ids = self.cells.pack(c.chunks(CHUNK), like, &mut bytes);
            packed.extend_from_slice(&ids);
            assembled.insert(ids, c.clone());
        }
        let p = Packed {
            mem: packed.into(),
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
        let assembled = &mut *self.assembled.borrow_mut();
        let chunks = p
            .mem
            .chunks(PER_MEMORY_CHUNK)
            .map(|ids| {
                if let Some(c) = assembled.by_ids.get(ids) {
                    return c.clone();
                }
                let mut cells = Vec::new();
                self.cells.unpack(ids, &mut cells);
                let c: Arc<[i64]> = cells.into();
                assembled.insert(ids.into(), c.clone());
                c
            })
            .collect();
        state.mem = state.mem.of_chunks(chunks);
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
