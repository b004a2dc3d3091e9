//! ARTs from the explored states, labelled with the states themselves (point labels): the
//! conjunction `x = c` over every cell whose value is known, and the known bytes of a cell
//! known in part (registers that are dead and cells not written since they started
//! uninitialised are left out). An ART whose nodes are
//! concrete states is an ART in the sense of seed 002 (Definition 3) like any other, and the
//! independent checker ([`crate::check`]) accepts or rejects it in the same way.
//!
//! * [`schedule`]: an IVR, the schedule of the deterministic scheduler of the iterative
//!   algorithm (seed 002, "Iterative model checking": one thread at a time, switching at a
//!   loop's back jump, round robin; here also at a thread creation), steered away from bugs: by a search for a safe choice
//!   ([`super::strategy`]), or, with the whole graph, away from the states from which every
//!   choice leads to a bug ([`doomed`]).
//! * [`complete`]: the tree of first edges into every reachable state, with every other edge a
//!   leaf covered by the node of its state: the proof of a `safe` verdict.

use super::space::{Edge, Graph, Space, Stop, Target};
use super::strategy::Strategy;
use crate::art::{Art, NodeId};
use crate::encode::Encoder;
use crate::ir::*;
use crate::scheduler::{RoundRobin, Scheduler};
use crate::smt::Term;
use rustc_hash::FxHashMap;
use std::rc::Rc;
use std::time::Instant;

/// Point labels of states, each made once.
pub struct Labels<'p> {
    enc: Encoder<'p>,
    made: FxHashMap<u32, Term>,
    /// Each atom `x = c` once, shared by the labels that have it.
    atoms: FxHashMap<(u32, u32, i128), Term>,
    /// Per forgotten variable of [`Space::intervals`]: the atoms of its interval.
    intervals: FxHashMap<u32, Vec<Term>>,
    /// Per cell whose value is not known: the atoms of its variable's interval.
    cell_intervals: FxHashMap<(u32, u32, i128, i128), [Term; 2]>,
    /// Per cell some of whose bytes are known (variable, element, value, bytes not known):
    /// the atoms of the known ones.
    known_bytes: FxHashMap<(u32, u32, i128, u8), Vec<Term>>,
    /// Per block of a large array's known cells (variable, block, its cells' offsets in the
    /// block and values): their conjunction, shared by the labels that have it.
    blocks: FxHashMap<BlockKey, Term>,
    /// The blocks of large arrays met, by a hash of their contents.
    windows: FxHashMap<u64, Vec<Rc<Window>>>,
    /// Per large array and block: the window last found there (the next state's block is
    /// most often the same, and comparing it is cheaper than hashing it).
    last: FxHashMap<(u32, usize), Rc<Window>>,
    /// Per variable: what its part of a label was made of last ([`Piece`]). The next state
    /// most often has the same contents there, and comparing them is cheaper than making the
    /// part again cell by cell.
    pieces: Vec<Option<Piece>>,
}

/// A variable's contents in a state (its cells, and the words of the marks of bytes not
/// known that cover them) and the part of the label they make: the atoms, and the blocks of
/// a large array.
struct Piece {
    cells: Box<[i64]>,
    marks: Box<[u64]>,
    /// The interval of its cells not known, where it depends on the state (a register's
    /// depends on its thread's location).
    interval: Option<super::ranges::Range>,
    atoms: Box<[Term]>,
    blocks: Box<[Term]>,
}

/// Block `block` of variable `var` as a state has it (its cells and their marks of bytes
/// not known), and what its label says: the atoms of cells not known, and the block of the
/// known ones.
struct Window {
    var: u32,
    block: usize,
    cells: Box<[i64]>,
    marks: Box<[u8]>,
    extra: Rc<[Term]>,
    made: Option<Term>,
}

/// A block of a large array's known cells: variable, block, and its cells' offsets in the
/// block with their values.
type BlockKey = (u32, u32, Box<[(u32, i128)]>);

/// Cells per block of a large array's label: an array longer than this states its known
/// cells in blocks, one conjunction each, which a step that leaves them alone leaves to the
/// next label as they are (the checker and the solver boundary take such a block whole,
/// [`Term::cell_block`]).
const BLOCK: usize = 64;

/// The atoms saying that the bytes of `x` outside `unknown` ([`crate::interp::unknown_bytes`])
/// are those of `value`: per known byte `k`, `(x div 2^8k) mod 2^8` (the byte of its two's
/// complement, whatever its sign, as the encoding reads bytes of a cell).
fn known_bytes(x: &Term, value: i128, unknown: u8, width: u32) -> Vec<Term> {
    (0..width)
        .filter(|b| unknown >> b & 1 == 0)
        .map(|b| {
            let shifted = Term::div(x.clone(), Term::int(1i128 << (8 * b)));
            Term::eq(
                Term::modulo(shifted, Term::int(256)),
                Term::int((value >> (8 * b)).rem_euclid(256)),
            )
        })
        .collect()
}

/// `lo <= x && x <= hi` for element `i` of variable `v`.
fn interval(enc: &Encoder, v: VarId, i: usize, r: super::ranges::Range) -> [Term; 2] {
    let name = enc.var(v);
    let x = if enc.is_array(v) {
        Term::select(name, Term::int(i as i128))
    } else {
        name
    };
    [
        Term::le(Term::int(r.lo), x.clone()),
        Term::le(x, Term::int(r.hi)),
    ]
}

impl<'p> Labels<'p> {
    /// Labels for a program's states.
    pub fn new(prog: &'p Program) -> Labels<'p> {
        Labels {
            enc: Encoder::new(prog),
            made: FxHashMap::default(),
            atoms: FxHashMap::default(),
            intervals: FxHashMap::default(),
            cell_intervals: FxHashMap::default(),
            known_bytes: FxHashMap::default(),
            blocks: FxHashMap::default(),
            windows: FxHashMap::default(),
            last: FxHashMap::default(),
            pieces: Vec::new(),
        }
    }

    /// The label of state `id`.
    pub fn of(&mut self, space: &Space, id: u32) -> Term {
        if let Some(t) = self.made.get(&id) {
            return t.clone();
        }
        let key = space.key(id);
        let prog = space.prog;
        let control = space.control(id);
        let mut dead = vec![false; prog.vars.len()];
        // A thread not started yet reads no register before its entry does.
        for (t, l) in control.locs.iter().enumerate() {
            let l = l.unwrap_or(prog.threads[t].entry);
            for v in space.live.dead(ThreadId(t as u32), l) {
                dead[v.0 as usize] = true;
            }
        }
        let mut cs = Vec::new();
        // A forgotten variable whose interval spared a seed: what the interval says.
        for &(v, r) in &space.intervals {
            if dead[v.0 as usize] {
                continue;
            }
            let enc = &self.enc;
            let atoms = self.intervals.entry(v.0).or_insert_with(|| {
                (0..prog.var(v).len as usize)
                    .flat_map(|i| interval(enc, v, i, r))
                    .collect()
            });
            cs.extend(atoms.iter().cloned());
        }
        for v in &space.irrelevant {
            dead[v.0 as usize] = true;
        }
        // The cells of threads' own arrays dead where their threads are: not stated, as
        // dead registers are not.
        let mut dead_cells: FxHashMap<VarId, Vec<bool>> = FxHashMap::default();
        for (t, l) in control.locs.iter().enumerate() {
            let l = l.unwrap_or(prog.threads[t].entry);
            for (v, i) in space.live.dead_cells(ThreadId(t as u32), l) {
                let cells = dead_cells
                    .entry(v)
                    .or_insert_with(|| vec![false; prog.var(v).len as usize]);
                cells[i as usize] = true;
            }
        }
        // The blocks of large arrays' known cells.
        let mut blocks = Vec::new();
        self.pieces.resize_with(prog.vars.len(), || None);
        for v in &prog.vars {
            if dead[v.id.0 as usize] {
                continue;
            }
            if let Some(gone) = dead_cells.get(&v.id) {
                for i in (0..v.len as usize).filter(|&i| !gone[i]) {
                    if let Some(x) = self.cell(space, &key, v, i, &mut cs) {
                        cs.push(self.atom(v.id, i, x));
                    }
                }
                continue;
            }
            // The variable's cells and the words of marks that cover them (more marks than
            // its own cells' at the ends: compared, they can only miss a piece made before).
            let start = key.state.mem.flat(v.id.0 as usize, 0);
            let end = start + v.len as usize;
            let cells = key.state.mem.slice(start..end);
            let words = (start / 8).min(key.undef.len())..end.div_ceil(8).min(key.undef.len());
            let marks = &key.undef[words];
            let interval = if space.interval_varies(v.id) {
                space.unknown_interval(&key, v.id)
            } else {
                None
            };
            if let Some(p) = &self.pieces[v.id.0 as usize] {
                if *p.cells == *cells && *p.marks == *marks && p.interval == interval {
                    cs.extend(p.atoms.iter().cloned());
                    blocks.extend(p.blocks.iter().cloned());
                    continue;
                }
            }
            let (mut atoms, mut made) = (Vec::new(), Vec::new());
            if self.enc.is_array(v.id) && v.len as usize > BLOCK {
                for b in 0..(v.len as usize).div_ceil(BLOCK) {
                    let (extra, block) = self.window(space, &key, v, b);
                    atoms.extend(extra.iter().cloned());
                    made.extend(block);
                }
            } else {
                for i in 0..v.len as usize {
                    if let Some(x) = self.cell(space, &key, v, i, &mut atoms) {
                        atoms.push(self.atom(v.id, i, x));
                    }
                }
            }
            cs.extend(atoms.iter().cloned());
            blocks.extend(made.iter().cloned());
            self.pieces[v.id.0 as usize] = Some(Piece {
                cells: cells.into(),
                marks: marks.into(),
                interval,
                atoms: atoms.into(),
                blocks: made.into(),
            });
        }
        // One conjunction of the atoms and the blocks (which stay conjunctions of their own),
        // made with one copy: a label has hundreds of conjuncts, and there is one per state.
        let mut all = Vec::with_capacity(cs.len() + blocks.len());
        let mut never = false;
        for x in cs {
            match x {
                Term::True => {}
                Term::False => never = true,
                Term::And(ys) => all.extend(ys.iter().cloned()),
                x => all.push(x),
            }
        }
        all.append(&mut blocks);
        let t = match all.len() {
            _ if never => Term::False,
            0 => Term::True,
            1 => all.pop().expect("one"),
            _ => Term::And(all.into()),
        };
        self.made.insert(id, t.clone());
        t
    }

    /// The value of element `i` of `v` in `key`, if it is known; if not, the atoms that say
    /// what is known of it (its known bytes, its interval) go to `out`.
    fn cell(
        &mut self,
        space: &Space,
        key: &super::space::Key,
        v: &Var,
        i: usize,
        out: &mut Vec<Term>,
    ) -> Option<i128> {
        let ty = v.elem.ty();
        let flat = key.state.mem.flat(v.id.0 as usize, i);
        let all = crate::interp::width_bytes(ty);
        let unknown = crate::interp::unknown_bytes(&key.undef, flat) & all;
        let x = key.state.get(v.id, i, ty);
        if unknown == 0 {
            return Some(x);
        }
        if unknown != all {
            // Some bytes known: theirs.
            let enc = &self.enc;
            let atoms = self
                .known_bytes
                .entry((v.id.0, i as u32, x, unknown))
                .or_insert_with(|| {
                    let name = enc.var(v.id);
                    let cell = if enc.is_array(v.id) {
                        Term::select(name, Term::int(i as i128))
                    } else {
                        name
                    };
                    known_bytes(&cell, x, unknown, ty.bits.div_ceil(8) as u32)
                });
            out.extend(atoms.iter().cloned());
        }
        // Not known: only its interval, where that says something.
        if let Some(r) = space.unknown_interval(key, v.id) {
            let enc = &self.enc;
            let atoms = self
                .cell_intervals
                .entry((v.id.0, i as u32, r.lo, r.hi))
                .or_insert_with(|| interval(enc, v.id, i, r));
            out.extend(atoms.iter().cloned());
        }
        None
    }

    /// Block `b` of large array `v` in `key`: the atoms of its cells that are not known, and
    /// the block of the known ones. Found by the cells' contents and marks, made once.
    fn window(
        &mut self,
        space: &Space,
        key: &super::space::Key,
        v: &Var,
        b: usize,
    ) -> (Rc<[Term]>, Option<Term>) {
        let (lo, hi) = (b * BLOCK, ((b + 1) * BLOCK).min(v.len as usize));
        let start = key.state.mem.flat(v.id.0 as usize, lo);
        let cells = key.state.mem.slice(start..start + hi - lo);
        let all = crate::interp::width_bytes(v.elem.ty());
        let mut marks = [0u8; BLOCK];
        for (k, m) in marks[..hi - lo].iter_mut().enumerate() {
            *m = crate::interp::unknown_bytes(&key.undef, start + k) & all;
        }
        let marks = &marks[..hi - lo];
        if let Some(w) = self.last.get(&(v.id.0, b)) {
            if *w.cells == *cells && *w.marks == *marks {
                return (w.extra.clone(), w.made.clone());
            }
        }
        let hash = {
            use std::hash::{Hash, Hasher};
            let mut h = rustc_hash::FxHasher::default();
            (v.id.0, b, &*cells, marks).hash(&mut h);
            h.finish()
        };
        let same = |w: &Window| {
            w.var == v.id.0 && w.block == b && *w.cells == *cells && *w.marks == *marks
        };
        if let Some(w) = self
            .windows
            .get(&hash)
            .and_then(|ws| ws.iter().find(|w| same(w)))
        {
            let out = (w.extra.clone(), w.made.clone());
            self.last.insert((v.id.0, b), w.clone());
            return out;
        }
        let mut extra = Vec::new();
        let mut known = Vec::new();
        for i in lo..hi {
            if let Some(x) = self.cell(space, key, v, i, &mut extra) {
                known.push(((i - lo) as u32, x));
            }
        }
        let made = (!known.is_empty()).then(|| self.block(v.id, b as u32, known));
        let w = Window {
            var: v.id.0,
            block: b,
            cells: cells.into(),
            marks: marks.into(),
            extra: extra.into(),
            made,
        };
        let out = (w.extra.clone(), w.made.clone());
        let w = Rc::new(w);
        self.last.insert((v.id.0, b), w.clone());
        self.windows.entry(hash).or_default().push(w);
        out
    }

    /// `x = c` for element `i` of `v`, made once.
    fn atom(&mut self, v: VarId, i: usize, x: i128) -> Term {
        let enc = &self.enc;
        self.atoms
            .entry((v.0, i as u32, x))
            .or_insert_with(|| {
                let name = enc.var(v);
                if enc.is_array(v) {
                    Term::eq(Term::select(name, Term::int(i as i128)), Term::int(x))
                } else {
                    Term::eq(name, Term::int(x))
                }
            })
            .clone()
    }

    /// The conjunction of `v[BLOCK·b + k] = x` over `cells` (offset `k`, value `x`), made
    /// once.
    fn block(&mut self, v: VarId, b: u32, cells: Vec<(u32, i128)>) -> Term {
        let key = (v.0, b, cells.into_boxed_slice());
        if let Some(t) = self.blocks.get(&key) {
            return t.clone();
        }
        let base = b as usize * BLOCK;
        let atoms: Vec<Term> = (key.2.iter())
            .map(|&(k, x)| self.atom(v, base + k as usize, x))
            .collect();
        let t = match atoms.len() {
            1 => atoms[0].clone(),
            _ => Term::And(atoms.into()),
        };
        self.blocks.insert(key, t.clone());
        t
    }
}

/// The phase of the explicit engine's scheduler ([`RoundRobin`]).
pub type Phase = <RoundRobin as Scheduler>::Phase;

/// How the scheduler chooses a thread.
pub enum Choice<'a> {
    /// Knowing the whole graph: the first thread in its order none of whose steps leads to
    /// a bug or to a doomed state.
    Graph(&'a Graph, &'a [bool]),
    /// As a search found ([`super::strategy`]).
    Strategy(&'a Strategy),
}

/// Why no schedule was made.
pub enum NoSchedule {
    /// The search stopped.
    Stop(Stop),
    /// The scheduler met a state where it has no choice without a bug (or a deadlock).
    Stuck,
}

impl From<Stop> for NoSchedule {
    fn from(s: Stop) -> Self {
        NoSchedule::Stop(s)
    }
}

/// The IVR of the deterministic scheduler `sched`, choosing as `choice` says.
pub fn schedule(
    space: &mut Space,
    choice: Choice,
    labels: &mut Labels,
    sched: &RoundRobin,
    max_nodes: usize,
    deadline: Instant,
) -> Result<Art, NoSchedule> {
    let mut art = Art::new(space.control(0));
    art.set_label(art.root(), labels.of(space, 0));
    let mut seen: FxHashMap<(u32, Phase), NodeId> = FxHashMap::default();
    let mut stack: Vec<(NodeId, u32, Phase)> = vec![(art.root(), 0, sched.start())];
    while let Some((v, s, phase)) = stack.pop() {
        if art.len() > max_nodes {
            return Err(Stop::Budget(format!("more than {max_nodes} nodes in a schedule")).into());
        }
        if Instant::now() >= deadline {
            return Err(Stop::Budget("time ran out while making a schedule".into()).into());
        }
        if let Some(&w) = seen.get(&(s, phase)) {
            art.cover(v, w);
            continue;
        }
        seen.insert((s, phase), v);
        if space.is_end(s) {
            continue;
        }
        let chosen = match choice {
            Choice::Graph(g, doomed) => sched
                .order(&phase, &g.expanded[s as usize])
                .into_iter()
                .find_map(|t| {
                    let edges: Vec<Edge> = g.edges[s as usize]
                        .iter()
                        .filter(|e| e.thread == t)
                        .cloned()
                        .collect();
                    let ok = !edges.is_empty()
                        && edges.iter().all(|e| match e.to {
                            Target::State(w) => !doomed[w as usize],
                            Target::Error | Target::Undefined => false,
                        });
                    ok.then_some((t, edges))
                }),
            Choice::Strategy(st) => match st.choice((s, phase)) {
                Some(Some(t)) => Some((t, space.successors(s, t)?)),
                _ => None,
            },
        };
        let Some((t, edges)) = chosen else {
            return Err(NoSchedule::Stuck);
        };
        art.mark_expanded(v, t);
        let mut children = Vec::new();
        for e in edges {
            let Target::State(w) = e.to else {
                return Err(NoSchedule::Stuck);
            };
            let c = art.add_child(v, t, e.trans, space.control(w));
            art.set_label(c, labels.of(space, w));
            let tr = space.prog.thread(t).transition(e.trans);
            children.push((c, w, sched.after(&phase, t, tr)));
        }
        stack.extend(children.into_iter().rev());
    }
    Ok(art)
}

/// The states from which no scheduler avoids a bug: deadlocks, and states where every thread
/// the graph expands has a step to an error, to undefined behaviour or to a doomed state.
pub fn doomed(space: &Space, g: &Graph, deadline: Instant) -> Result<Vec<bool>, Stop> {
    let deadlocks = (0..g.edges.len() as u32)
        .map(|s| g.is_deadlock(space, s))
        .collect();
    lost(space, g, deadline, deadlocks)
}

/// The states a scheduler avoids: the `doomed` ones, those where a thread is bound to fail
/// ([`super::fails`]: it would starve the thread otherwise), and those from which every
/// thread leads to one. Not known to doom every scheduler (a program that ends first may cut
/// the thread's steps short), so not for a verdict.
pub fn to_avoid(
    space: &Space,
    g: &Graph,
    deadline: Instant,
    doomed: &[bool],
) -> Result<Vec<bool>, Stop> {
    let failing = super::fails::BoundToFail::new(space.prog);
    let mut marks = doomed.to_vec();
    for (s, m) in marks.iter_mut().enumerate() {
        if s % 1024 == 0 && Instant::now() >= deadline {
            return Err(Stop::Budget(
                "time ran out while finding doomed states".into(),
            ));
        }
        let s = s as u32;
        *m = *m || (!space.is_end(s) && failing.any(space, s));
    }
    lost(space, g, deadline, marks)
}

/// `marks` closed under the states where every thread the graph expands is disabled or has a
/// step to an error, to undefined behaviour or to a marked state.
fn lost(
    space: &Space,
    g: &Graph,
    deadline: Instant,
    mut doomed: Vec<bool>,
) -> Result<Vec<bool>, Stop> {
    let n = g.edges.len();
    let mut changed = true;
    while changed {
        if Instant::now() >= deadline {
            return Err(Stop::Budget(
                "time ran out while finding doomed states".into(),
            ));
        }
        changed = false;
        for s in (0..n).rev() {
            if doomed[s] || space.is_end(s as u32) {
                continue;
            }
            // A thread is no way out when it is disabled or one of its steps is bad.
            let lost = g.expanded[s].iter().all(|&t| {
                let mut mine = g.edges[s].iter().filter(|e| e.thread == t).peekable();
                mine.peek().is_none()
                    || mine.any(|e| match e.to {
                        Target::State(w) => doomed[w as usize],
                        Target::Error | Target::Undefined => true,
                    })
            });
            if lost {
                doomed[s] = true;
                changed = true;
            }
        }
    }
    Ok(doomed)
}

/// The ART of every reachable state (the graph must have no bad edge).
pub fn complete(space: &Space, g: &Graph, labels: &mut Labels) -> Art {
    let mut art = Art::new(space.control(0));
    art.set_label(art.root(), labels.of(space, 0));
    let mut node: Vec<Option<NodeId>> = vec![None; g.edges.len()];
    node[0] = Some(art.root());
    for &s in g.expanded_states() {
        let s = s as usize;
        let Some(v) = node[s] else {
            unreachable!("a state is reached before it is expanded")
        };
        for &t in &g.expanded[s] {
            art.mark_expanded(v, t);
        }
        for (k, e) in g.edges[s].iter().enumerate() {
            let Target::State(w) = e.to else {
                unreachable!("the graph has no bad edge")
            };
            let c = art.add_child(v, e.thread, e.trans, space.control(w));
            art.set_label(c, labels.of(space, w));
            if g.parent[w as usize] == Some((s as u32, k as u32)) {
                node[w as usize] = Some(c);
            } else {
                let Some(target) = node[w as usize] else {
                    unreachable!(
                        "in the order of expansion, a state's tree node comes before other edges to it"
                    )
                };
                art.cover(c, target);
            }
        }
    }
    art
}
