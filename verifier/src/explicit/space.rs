//! The reachable state space of a program, explored state by state: each state is a concrete
//! state of the interpreter ([`crate::interp::Machine`], the reference semantics) with the
//! dead registers of every thread forgotten ([`super::liveness`]) and which bytes of its cells
//! hold values that are not known: memory not written since it started uninitialised, and
//! every value an input made or that was computed from one (the search tracks them as
//! Valgrind's Memcheck tracks definedness, a byte at a time: [`Machine::start_tainting`]; a
//! copy of a partly written union keeps its written bytes known). The search takes 0 for every input and
//! uninitialised cell, as the interpreter's replay of a bug does; a guard that reads a value
//! not known may hold either way, so both ways are explored (CPAchecker's value analysis
//! does the same with values it does not track), unless the intervals of the values not known
//! ([`super::unknowns`]) rule one way out. The labels say of a cell not known only its
//! interval, and the independent checker decides whether an ART holds for every value; a
//! path to a bug counts only once the interpreter has replayed it. States are kept once (state caching, as in explicit-state model checkers such
//! as SPIN or CPAchecker's value analysis); an edge leads to a state, to an error, or to
//! undefined behaviour.

use super::ranges::{elem_ty, eval_with, truth_with, Range, Ranges};
use super::relevance::Relevance;
use super::store::Store;
use super::unknowns::Unknowns;
use crate::art::Control;
use crate::footprint::Footprints;
use crate::interp::{self, Machine, Oracle, State, Status};
use crate::ir::*;
use crate::liveness::Liveness;
use std::rc::Rc;
use std::time::Instant;

/// A state of the search.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Key {
    /// The interpreter's state, dead registers set to 0.
    pub state: State,
    /// The bytes of cells (positions in the memory) whose values are not known
    /// ([`interp::unknown_bytes`]): not written since they started uninitialised, or
    /// computed from an input.
    pub undef: Box<[u64]>,
}

impl Key {
    /// Records that cell `flat` holds a known value (when undefined cells are tracked).
    fn define(&mut self, flat: usize) {
        interp::set_unknown_bytes(&mut self.undef, flat, 0);
    }

    /// The values of cells `cells` (flat), then which of their bytes are not known.
    pub(super) fn values_of(&self, cells: &[usize]) -> Box<[i64]> {
        let values = cells.iter().map(|&f| self.state.mem.at(f));
        let marks = cells
            .iter()
            .map(|&f| interp::unknown_bytes(&self.undef, f) as i64);
        values.chain(marks).collect()
    }

    /// Sets cells `cells` (flat) to `v`, as [`Key::values_of`] gives them.
    pub(super) fn set_values(&mut self, cells: &[usize], v: &[i64]) {
        let n = cells.len();
        for (i, &f) in cells.iter().enumerate() {
            self.state.mem.set(f, v[i]);
            interp::set_unknown_bytes(&mut self.undef, f, v[n + i] as u8);
        }
    }
}

/// Where an edge leads.
#[derive(Clone, Debug)]
pub enum Target {
    /// A state.
    State(u32),
    /// The error location.
    Error,
    /// An operation without defined behaviour.
    Undefined,
}

/// One transition taken from a state.
#[derive(Clone, Debug)]
pub struct Edge {
    /// The thread.
    pub thread: ThreadId,
    /// Its transition.
    pub trans: TransId,
    /// Where it leads.
    pub to: Target,
}

/// Which threads to expand at a state ([`Space::reduction`]).
pub enum Reduction {
    /// This one, with its edges.
    One(ThreadId, Vec<Edge>),
    /// Every thread that can move; the edges of one of them if they were computed.
    All(Option<(ThreadId, Vec<Edge>)>),
}

/// Why the search stopped early.
#[derive(Clone, Debug)]
pub enum Stop {
    /// The state or time budget ran out.
    Budget(String),
}

/// The oracle of the search: every input and every uninitialised cell is 0 (and not known:
/// [`Key::undef`]).
struct Zero;

impl Oracle for Zero {
    fn pick(&mut self, _: usize, _: &[(ThreadId, TransId)]) -> crate::interp::Choice {
        crate::interp::Choice::End
    }
    fn input(&mut self, _: Ty) -> i128 {
        0
    }
    fn initial(&mut self, _: VarId, _: usize, _: Ty) -> i128 {
        0
    }
}

/// The states found so far and the edges of those expanded.
pub struct Space<'p> {
    /// The program.
    pub prog: &'p Program,
    machine: Machine<'p>,
    /// Dead registers.
    pub live: Liveness,
    /// Variables whose values never matter ([`super::relevance`]), forgotten like dead
    /// registers.
    pub irrelevant: Vec<VarId>,
    /// The forgotten variables whose intervals ([`super::ranges`]) the labels state: those a
    /// spared seed relies on ([`Relevance::is_ranged`]), where narrower than their types.
    pub intervals: Vec<(VarId, Range)>,
    /// Per variable, its interval where narrower than its type.
    pub narrow: Vec<Option<Range>>,
    /// The intervals of values not known ([`super::unknowns`]).
    unknowns: Unknowns,
    /// Per variable, whether it is forgotten ([`Space::irrelevant`]).
    forgotten: Vec<bool>,
    /// Per thread, its registers the search does not track ([`super::counters`]): wherever
    /// they are live, their values are not known.
    untracked: Vec<Vec<VarId>>,
    states: Store,
    /// The state unpacked last ([`Space::key`]).
    last: std::cell::RefCell<Option<(u32, Rc<Key>)>>,
    /// Whether some memory starts uninitialised (then [`Key::undef`] is kept).
    track_undef: bool,
    /// Whether a step read a cell whose value is not known (memory before anything was
    /// written to it, or an input's value; 0 in the search, one of many): then the graph is
    /// not the program's exact behaviour.
    pub read_undefined: std::cell::Cell<bool>,
    /// Per thread and transition, the counter left out that its guard reads where it enters
    /// an assertion's failure ([`super::counters::tested`]); and the first such counter of a
    /// step found enabled, which ends the search ([`Space::successors`]).
    tests_left_out: Vec<Vec<Option<VarId>>>,
    left_out_tested: std::cell::Cell<Option<VarId>>,
    /// Per state: the number of steps by which it was found (a rank that every step into
    /// a new state raises; [`Space::reduction`]).
    depth: Vec<u32>,
    /// What threads may still touch, for the reduction ([`Space::reduction`]); made when
    /// first needed.
    footprints: std::cell::OnceCell<Footprints<'p>>,
    /// The variables whose cells not known a step splits into cases, one per value of
    /// their interval where it is small ([`Space::split_values`]); empty: none.
    cases: Vec<VarId>,
    /// Set where a bug that every scheduler meets is known ([`crate::scope::Hunt::doomed`]):
    /// no safe schedule exists, and the searches stop ([`Space::stopped`]).
    doomed: Option<crate::scope::Doomed>,
}

/// Most states one step may split into ([`Space::split_values`]).
const MAX_CASES: i128 = 16;

impl<'p> Space<'p> {
    /// The space of a program, with its initial state as state 0.
    pub fn new(prog: &'p Program) -> Space<'p> {
        Space::untracking(prog, &Ranges::new(prog), &[])
    }

    /// The searches of this space stop once `doomed` is set: a bug every scheduler meets
    /// is known, so no safe schedule exists.
    pub fn stop_when(&mut self, doomed: crate::scope::Doomed) {
        self.doomed = Some(doomed);
    }

    /// Why a search of this space stops before `deadline`, or `None` where it goes on.
    pub fn stopped(&self, deadline: Instant) -> Option<&'static str> {
        if Instant::now() >= deadline {
            Some("time ran out")
        } else if crate::scope::is_doomed(self.doomed.as_ref()) {
            Some("a bug every scheduler meets was found beside the search")
        } else {
            None
        }
    }

    /// [`Space::new`] with the value ranges of the program's variables, where the registers
    /// marked in `untracked` ([`super::counters`]) are not tracked: wherever they are live,
    /// their values are not known.
    pub fn untracking(prog: &'p Program, ranges: &Ranges, untracked: &[bool]) -> Space<'p> {
        let machine = Machine::new(prog);
        let live = Liveness::new(prog);
        let relevance = Relevance::new(prog, ranges);
        let state = machine.initial(&mut Zero, &mut Vec::new());
        // Inputs and memory that starts uninitialised: the search takes 0 for them, like the
        // interpreter's replay, and tracks which cells hold values computed from them (not
        // known: the labels say nothing of them but their intervals, and the independent
        // checker decides whether the ART holds for every value).
        let mut per_thread = vec![Vec::new(); prog.threads.len()];
        for v in &prog.vars {
            if let (VarScope::Local(t), Some(true)) = (&v.scope, untracked.get(v.id.0 as usize)) {
                per_thread[t.0 as usize].push(v.id);
            }
        }
        let track_undef = super::unknowns::has_unknowns(prog) || untracked.contains(&true);
        let cells = state.mem.len();
        let words = if track_undef {
            interp::unknown_words(cells)
        } else {
            0
        };
        let mut undef = vec![0u64; words];
        for v in prog.vars.iter().filter(|v| v.init == Init::Nondet) {
            for i in 0..v.len as usize {
                let f = state.mem.flat(v.id.0 as usize, i);
                interp::set_unknown_bytes(&mut undef, f, interp::ALL_BYTES);
            }
        }
        let narrow: Vec<Option<Range>> = prog
            .vars
            .iter()
            .map(|v| {
                let r = ranges.of(v.id);
                r.narrower_than(v.elem.ty()).then_some(r)
            })
            .collect();
        let mut forgotten = vec![false; prog.vars.len()];
        for v in relevance.irrelevant() {
            forgotten[v.0 as usize] = true;
        }
        let mut space = Space {
            prog,
            machine,
            live,
            unknowns: Unknowns::new(prog, ranges, untracked),
            forgotten,
            untracked: per_thread,
            irrelevant: relevance.irrelevant().collect(),
            intervals: relevance
                .irrelevant()
                .filter(|v| relevance.is_ranged(*v))
                .filter_map(|v| Some((v, narrow[v.0 as usize]?)))
                .collect(),
            narrow,
            states: Store::new(&state),
            last: Default::default(),
            track_undef,
            read_undefined: std::cell::Cell::new(false),
            tests_left_out: super::counters::tested(prog, untracked),
            left_out_tested: std::cell::Cell::new(None),
            footprints: Default::default(),
            depth: vec![0],
            cases: Vec::new(),
            doomed: None,
        };
        let key = space.canonical(Key {
            state,
            undef: undef.into(),
        });
        space.states.intern(&key, None);
        space
    }

    /// Makes every step split a cell whose value it does not know into cases, one state per
    /// value, where the cell's interval there ([`Space::unknown_interval`]) has at most
    /// [`MAX_CASES`] values (and the step's states together at most that many): a value
    /// checked into a small range (`if (n < 1 || n > 5) n = 2;`) is then known on each path,
    /// as if the program had branched on it, and what the program does with it is exact. The
    /// edges of one transition then lead to several states; the checker shows that the
    /// states after the step are in the union of theirs. Whether some variable may be split.
    pub fn split_values(&mut self) -> bool {
        self.cases = self.case_vars();
        self.track_undef && !self.cases.is_empty()
    }

    /// The variables [`Space::split_values`] splits.
    fn case_vars(&self) -> Vec<VarId> {
        let small = self.unknowns.narrow_somewhere(MAX_CASES);
        let untracked: Vec<VarId> = self.untracked.iter().flatten().copied().collect();
        (self.prog.vars.iter())
            .map(|v| v.id)
            .filter(|&v| {
                let i = v.0 as usize;
                let full = Range::full(elem_ty(self.prog, v));
                (small[i]
                    || self.narrow[i].is_some_and(|r| r.hi - r.lo < MAX_CASES)
                    || full.hi - full.lo < MAX_CASES)
                    && !self.forgotten[i]
                    && !untracked.contains(&v)
            })
            .collect()
    }

    /// Whether a value not known that [`Space::split_values`] would split (one in a small
    /// interval somewhere, not one of a small type) takes part in an index or an address
    /// of a step's access.
    pub fn splitting_picks_memory(&self) -> bool {
        if !self.track_undef {
            return false;
        }
        let small = self.unknowns.narrow_somewhere(MAX_CASES);
        let split: Vec<bool> = {
            let mut s = vec![false; self.prog.vars.len()];
            for v in self.case_vars() {
                s[v.0 as usize] = small[v.0 as usize];
            }
            s
        };
        if !split.contains(&true) {
            return false;
        }
        let picks = |tr: &Transition| {
            let mut picks = false;
            tr.for_each_access(&mut |p| {
                p.for_each_subexpr(&mut |e| {
                    e.for_each_place(&mut |q| {
                        if let Place::Var { var, .. } = q {
                            picks |= split[var.0 as usize];
                        }
                    })
                })
            });
            picks
        };
        (self.prog.threads.iter()).any(|th| th.transitions.iter().any(picks))
    }

    /// Whether steps split values into cases ([`Space::split_values`]).
    pub fn splits(&self) -> bool {
        !self.cases.is_empty()
    }

    /// State `k` split into cases ([`Space::split_values`]).
    fn cases(&self, k: Key) -> Vec<Key> {
        let mut out = vec![k];
        for &v in &self.cases {
            let ty = elem_ty(self.prog, v);
            for i in 0..self.prog.var(v).len as usize {
                // (A cell of which some bytes are known is not split: its interval ignores
                // them.)
                let flat = out[0].state.mem.flat(v.0 as usize, i);
                let width = interp::width_bytes(ty);
                if interp::unknown_bytes(&out[0].undef, flat) & width != width {
                    continue;
                }
                // (Where no interval is stated, the labels bound a scalar by its type, not
                // an array's cell.)
                let r = match self.unknown_interval(&out[0], v) {
                    Some(r) => r,
                    None if !self.prog.var(v).is_array => Range::full(ty),
                    None => continue,
                };
                let n = r.hi - r.lo + 1;
                if n < 1 || n * out.len() as i128 > MAX_CASES {
                    continue;
                }
                // (What the cases compute rests on a value not known.)
                self.read_undefined.set(true);
                out = out
                    .into_iter()
                    .flat_map(|k| {
                        (r.lo..=r.hi).map(move |x| {
                            let mut k = k.clone();
                            k.state.mem.set_cell(v.0 as usize, i, ty.wrap(x) as i64);
                            k.define(flat);
                            k
                        })
                    })
                    .collect();
            }
        }
        out
    }

    /// The interpreter the search steps with.
    pub(super) fn machine(&self) -> &Machine<'p> {
        &self.machine
    }

    /// Number of states found.
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// Approximate bytes held by the states.
    pub fn bytes(&self) -> usize {
        self.states.bytes
    }

    /// State `id` (unpacked once for the calls in a row that ask for the same state).
    pub fn key(&self, id: u32) -> Rc<Key> {
        let mut last = self.last.borrow_mut();
        match &*last {
            Some((i, k)) if *i == id => k.clone(),
            _ => {
                let k = Rc::new(self.states.key(id));
                *last = Some((id, k.clone()));
                k
            }
        }
    }

    /// The control state of state `id`.
    pub fn control(&self, id: u32) -> Control {
        Control {
            locs: self.states.threads(id).iter().map(|s| s.loc()).collect(),
            atomic: self.states.atomic(id),
        }
    }

    /// How state `id` ends an execution, if it does: some thread halted or discarded it, or
    /// every thread has returned.
    pub fn is_end(&self, id: u32) -> bool {
        self.ends(self.states.threads(id))
    }

    /// [`Space::is_end`] of a state whose threads are at `threads`.
    pub fn ends(&self, threads: &[Status]) -> bool {
        let kind = |t: usize| {
            let l = threads[t].loc()?;
            Some(self.prog.threads[t].locations[l.0 as usize].kind)
        };
        (0..threads.len()).any(|t| matches!(kind(t), Some(LocKind::Halt | LocKind::Discard)))
            || (0..threads.len()).all(|t| matches!(kind(t), None | Some(LocKind::Exit)))
    }

    /// Forgets dead registers, dead cells of threads' own arrays and irrelevant variables,
    /// and the values of the registers not tracked (0, and not known).
    pub(super) fn canonical(&self, k: Key) -> Key {
        let threads = 0..k.state.threads.len();
        self.canonical_of(k, threads)
    }

    /// [`Space::canonical`] of state `k`, reached by a step of thread `t` (and the thread it
    /// started, if any) from a canonical state: no other thread's registers or own arrays
    /// changed, and none moved, so only the irrelevant variables and those of the threads
    /// that moved need forgetting. (With threads that a run may create up to
    /// `--max-threads`, most never start.)
    fn canonical_after(&self, k: Key, t: ThreadId, tr: TransId) -> Key {
        let spawned = self.prog.thread(t).transition(tr).spawned();
        let moved = std::iter::once(t).chain(spawned).map(|u| u.0 as usize);
        self.canonical_of(k, moved)
    }

    /// [`Space::canonical`], for the registers and own arrays of threads `threads` only.
    fn canonical_of(&self, mut k: Key, threads: impl Iterator<Item = usize>) -> Key {
        for &v in &self.irrelevant {
            let len = self.prog.var(v).len as usize;
            for i in 0..len {
                k.state.mem.set_cell(v.0 as usize, i, 0);
                k.define(k.state.mem.flat(v.0 as usize, i));
            }
        }
        for t in threads {
            let l = match k.state.threads[t] {
                Status::At(l) => l,
                // Not started: what its entry does not read.
                Status::NotStarted => self.prog.threads[t].entry,
            };
            for &v in &self.untracked[t] {
                k.state.mem.set_cell(v.0 as usize, 0, 0);
                let flat = k.state.mem.flat(v.0 as usize, 0);
                interp::set_unknown_bytes(&mut k.undef, flat, interp::ALL_BYTES);
            }
            for v in self.live.dead(ThreadId(t as u32), l) {
                k.state.mem.set_cell(v.0 as usize, 0, 0);
                k.define(k.state.mem.flat(v.0 as usize, 0));
            }
            // So are the dead cells of its own arrays (which the labels leave out as well).
            for (v, i) in self.live.dead_cells(ThreadId(t as u32), l) {
                k.state.mem.set_cell(v.0 as usize, i as usize, 0);
                k.define(k.state.mem.flat(v.0 as usize, i as usize));
            }
        }
        k
    }

    /// The threads to expand at state `id` and their edges, new states added: every thread
    /// that can move, or only one ([`Space::reduction`]).
    pub fn expansion(&mut self, id: u32) -> Result<(Vec<ThreadId>, Vec<Edge>), Stop> {
        let mut tried = match self.reduction(id, true)? {
            Reduction::One(t, edges) => return Ok((vec![t], edges)),
            Reduction::All(tried) => tried,
        };
        let movable = self.control(id).movable(self.prog);
        let mut edges = Vec::new();
        for &t in &movable {
            match &mut tried {
                Some((u, e)) if *u == t => edges.append(e),
                _ => edges.extend(self.successors(id, t)?),
            }
        }
        Ok((movable, edges))
    }

    /// Whether one thread may stand for all at state `id` (partial-order reduction, as the
    /// checker accepts it): one whose next step is enabled and invisible to the others, or
    /// (`by_footprints`) touches nothing they may still touch ([`Footprints::independent`],
    /// with what the state knows of their variables). Such a step stands for all only where
    /// every state it leads to was found deeper than this one ([`Space::depth`]): then every
    /// cycle of states passes one that expands every thread (the cycle proviso, which the
    /// checker checks), since the steps of a cycle cannot all lead deeper. New states are
    /// added.
    pub fn reduction(&mut self, id: u32, by_footprints: bool) -> Result<Reduction, Stop> {
        let c = self.control(id);
        let movable = c.movable(self.prog);
        let at = |t: ThreadId| c.locs[t.0 as usize].expect("movable");
        if movable.len() < 2 {
            return Ok(Reduction::All(None));
        }
        let deeper = |s: &Self, edges: &[Edge]| {
            edges.iter().all(|e| match e.to {
                Target::State(w) => s.depth[w as usize] > s.depth[id as usize],
                Target::Error | Target::Undefined => true,
            })
        };
        // A thread inside the code of an environment model is never postponed for another's
        // step: the built program makes the call as one step, which a schedule cannot split
        // (`schedgen` finds no place for another thread's step inside it). It goes alone
        // where its steps are invisible ones, as below; otherwise every thread goes.
        // Thread `t` alone where `may` and its steps lead deeper, every thread otherwise.
        let alone = |s: &mut Self, t: ThreadId, may: bool| -> Result<Reduction, Stop> {
            let edges = s.successors(id, t)?;
            Ok(if may && deeper(s, &edges) {
                Reduction::One(t, edges)
            } else {
                Reduction::All(Some((t, edges)))
            })
        };
        let inside = movable.iter().find(|&&t| {
            self.prog.thread(t).environment_location(at(t)) && !self.enabled(id, t).is_empty()
        });
        if let Some(&t) = inside {
            let invisible = self.prog.thread(t).invisible_location(at(t));
            return alone(self, t, invisible);
        }
        // (Local steps close no loop, but a cycle may mix them with the steps below, which
        // do: a thread reading empty lines into a buffer of its own, say.)
        let mut tried = None;
        for &t in &movable {
            if self.prog.thread(t).local_location(at(t)) && !self.enabled(id, t).is_empty() {
                let edges = self.successors(id, t)?;
                if deeper(self, &edges) {
                    return Ok(Reduction::One(t, edges));
                }
                tried.get_or_insert((t, edges));
            }
        }
        if tried.is_some() {
            return Ok(Reduction::All(tried));
        }
        let invisible = movable.iter().find(|&&t| {
            self.prog.thread(t).invisible_location(at(t)) && !self.enabled(id, t).is_empty()
        });
        let Some(&t) = invisible.or_else(|| {
            if !by_footprints {
                return None;
            }
            let key = self.key(id);
            let known = |v: VarId, i: usize| self.known(&key, v, i);
            let footprints = self.footprints.get_or_init(|| Footprints::new(self.prog));
            movable.iter().find(|&&t| {
                !self.enabled(id, t).is_empty() && footprints.independent(&c.locs, t, &known)
            })
        }) else {
            return Ok(Reduction::All(None));
        };
        alone(self, t, true)
    }

    /// State `k`, reached from state `from`, added if it is new (one step deeper).
    fn intern_from(&mut self, k: Key, from: u32) -> u32 {
        let w = self.states.intern(&k, Some(from));
        if w as usize == self.depth.len() {
            self.depth.push(self.depth[from as usize] + 1);
        }
        w
    }

    /// The value of element `i` of `v` in `key`, where it is known and not forgotten (as the
    /// labels state it: [`super::proof::Labels`]).
    fn known(&self, key: &Key, v: VarId, i: usize) -> Option<i128> {
        if self.forgotten[v.0 as usize] {
            return None;
        }
        let ty = elem_ty(self.prog, v);
        let flat = key.state.mem.flat(v.0 as usize, i);
        if interp::unknown_bytes(&key.undef, flat) & interp::width_bytes(ty) != 0 {
            return None;
        }
        Some(key.state.get(v, i, ty))
    }

    /// The transitions of thread `t` enabled at state `id`, each with whether its guard is
    /// false there but reads a value that is not known (then the transition stands for the
    /// executions in which the guard holds: [`Space::read_undefined`]).
    pub fn enabled(&self, id: u32, t: ThreadId) -> Vec<(TransId, bool)> {
        self.enabled_at(&self.key(id), t)
    }

    /// [`Space::enabled`] at a state that is not kept.
    pub fn enabled_at(&self, k: &Key, t: ThreadId) -> Vec<(TransId, bool)> {
        let Status::At(l) = k.state.threads[t.0 as usize] else {
            return Vec::new();
        };
        let mut out = Vec::new();
        self.start_recording(k);
        let tests = &self.tests_left_out[t.0 as usize];
        let note = |tr: TransId, out: &mut Vec<(TransId, bool)>, forced| {
            if let Some(&Some(v)) = tests.get(tr.0 as usize) {
                self.left_out_tested.set(Some(v));
            }
            out.push((tr, forced));
        };
        for tr in self.prog.thread(t).outgoing(l) {
            let g = self.machine.eval(&k.state, &tr.guard);
            let unknown = self.track_undef && self.machine.take_read_tainted();
            if unknown {
                self.read_undefined.set(true);
            }
            match g {
                // Unless no value it does not know can make it hold.
                Ok(0) if unknown => {
                    if self.may_hold(k, &tr.guard) {
                        note(tr.id, &mut out, true)
                    }
                }
                Ok(0) => {}
                // An error is the step's undefined behaviour.
                _ => note(tr.id, &mut out, false),
            }
        }
        self.stop_recording(None);
        out
    }

    /// Whether what [`Space::unknown_interval`] says of `v` depends on the state (a register's
    /// interval depends on where its thread is).
    pub fn interval_varies(&self, v: VarId) -> bool {
        self.unknowns.owner(v).is_some()
    }

    /// What is known of the cells of `v` whose values are not known in `key` (the labels
    /// say it of them): an interval narrower than `v`'s type, if there is one.
    pub fn unknown_interval(&self, key: &Key, v: VarId) -> Option<Range> {
        let i = v.0 as usize;
        let at = self
            .unknowns
            .owner(v)
            .map(|t| match key.state.threads[t.0 as usize] {
                Status::At(l) => l,
                Status::NotStarted => self.prog.thread(t).entry,
            });
        match (self.unknowns.of(v, at), self.narrow[i]) {
            (Some(u), Some(n)) => u.meet(n).or(Some(n)),
            (Some(u), None) => u.narrower_than(elem_ty(self.prog, v)).then_some(u),
            (None, n) => n,
        }
    }

    /// Whether guard `g` may hold in `key` for some values of the cells it reads that are
    /// not known, as far as their intervals tell.
    fn may_hold(&self, key: &Key, g: &Expr) -> bool {
        truth_with(g, &|p: &Place, ty: Ty| self.load_range(key, p, ty)) != Some(false)
    }

    /// An interval containing what a load of type `ty` from `place` reads in `key`: the value
    /// of a known cell, the interval of one not known.
    fn load_range(&self, key: &Key, place: &Place, ty: Ty) -> Range {
        let Place::Var { var, index } = place else {
            return Range::full(ty);
        };
        if elem_ty(self.prog, *var) != ty {
            return Range::full(ty);
        }
        let len = self.prog.var(*var).len as usize;
        let i = match index {
            None => Some(0),
            Some(e) => {
                let r = eval_with(e, &|p: &Place, ty: Ty| self.load_range(key, p, ty));
                (r.lo == r.hi && 0 <= r.lo && (r.lo as usize) < len).then_some(r.lo as usize)
            }
        };
        match i {
            Some(i) => self.cell_range(key, *var, i, ty),
            None if len <= 64 => (0..len)
                .map(|i| self.cell_range(key, *var, i, ty))
                .reduce(Range::hull)
                .unwrap_or(Range::full(ty)),
            None => Range::full(ty),
        }
    }

    /// [`Space::load_range`] of element `i` of `v`.
    fn cell_range(&self, key: &Key, v: VarId, i: usize, ty: Ty) -> Range {
        if self.forgotten[v.0 as usize] {
            return self.narrow[v.0 as usize].unwrap_or(Range::full(ty));
        }
        let flat = key.state.mem.flat(v.0 as usize, i);
        let unknown = self.track_undef
            && interp::unknown_bytes(&key.undef, flat) & interp::width_bytes(ty) != 0;
        if unknown {
            self.unknown_interval(key, v).unwrap_or(Range::full(ty))
        } else {
            Range::point(key.state.get(v, i, ty))
        }
    }

    /// Starts tracking which cells a step leaves not known, when undefined cells are tracked.
    fn start_recording(&self, k: &Key) {
        if self.track_undef {
            self.machine.start_recording(k.state.mem.len());
            self.machine.start_tainting(&k.undef);
        }
    }

    /// Stops tracking: notes a read of a cell not known in `k` ([`Space::read_undefined`]),
    /// and which cells are not known in `next`.
    fn stop_recording(&self, next: Option<&mut Key>) {
        if !self.track_undef {
            return;
        }
        let rec = self.machine.stop_recording();
        if rec.read_tainted {
            self.read_undefined.set(true);
        }
        if let Some(next) = next {
            next.undef.copy_from_slice(&rec.taint);
        }
    }

    /// Takes transition `tr` of thread `t` (enabled at `k`, `forced` as
    /// [`Space::enabled_at`] says) at `k`, in place; `Err` where it has undefined behaviour.
    pub fn step_at(&self, k: &mut Key, t: ThreadId, tr: TransId, forced: bool) -> Result<(), ()> {
        // (The recording keeps the marks of `k` before the step.)
        self.start_recording(k);
        let r = if forced {
            self.machine
                .execute_unguarded(&mut k.state, t, tr, &mut Zero)
        } else {
            self.machine.execute(&mut k.state, t, tr, &mut Zero)
        };
        self.stop_recording(Some(k));
        r.map(|_| ()).map_err(|_| ())
    }

    /// The edges of thread `t` at state `id`, new states added.
    pub fn successors(&mut self, id: u32, t: ThreadId) -> Result<Vec<Edge>, Stop> {
        let mut edges = Vec::new();
        let enabled = self.enabled(id, t);
        // (Or of any thread before: [`Space::enabled`] is asked elsewhere too.)
        if let Some(v) = self.left_out_tested.get() {
            return Err(Stop::Budget(format!(
                "an assertion tests `{}`, a counter left out of the states",
                self.prog.var(v).name
            )));
        }
        for (tr, forced) in enabled {
            let mut next = Key::clone(&self.key(id));
            let to = match self.step_at(&mut next, t, tr, forced) {
                Err(_) => Target::Undefined,
                Ok(_) => {
                    let dst = self.prog.thread(t).transition(tr).dst;
                    if self.prog.thread(t).locations[dst.0 as usize].kind == LocKind::Error {
                        Target::Error
                    } else if self.cases.is_empty() {
                        Target::State(self.intern_from(self.canonical_after(next, t, tr), id))
                    } else {
                        for k in self.cases(self.canonical_after(next, t, tr)) {
                            let to = Target::State(self.intern_from(k, id));
                            edges.push(Edge {
                                thread: t,
                                trans: tr,
                                to,
                            });
                        }
                        continue;
                    }
                }
            };
            edges.push(Edge {
                thread: t,
                trans: tr,
                to,
            });
        }
        Ok(edges)
    }
}

/// The explored graph: every state reachable from state 0 expanded. Arrays are indexed by
/// state.
pub struct Graph {
    /// Per state: the threads expanded there.
    pub expanded: Vec<Vec<ThreadId>>,
    /// Per state: the edges of the expanded threads.
    pub edges: Vec<Vec<Edge>>,
    /// Per state: the state and edge it was first reached by (breadth first, a shortest
    /// path).
    pub parent: Vec<Option<(u32, u32)>>,
    /// The states in the order they were reached (state 0 first): each after the state it
    /// was first reached from.
    pub order: Vec<u32>,
    /// The states expanded, in the order they were: all of them, unless the search stopped
    /// at a bug.
    expanded_order: Vec<u32>,
}

impl Graph {
    /// Whether state `s`, expanded, is a deadlock: it is no end, and no thread it expands is
    /// enabled.
    pub fn is_deadlock(&self, space: &Space, s: u32) -> bool {
        !space.is_end(s) && self.edges[s as usize].is_empty()
    }

    /// The expanded states, in the order they were expanded.
    pub fn expanded_states(&self) -> &[u32] {
        &self.expanded_order
    }
}

/// Explores every state reachable from the initial one: breadth first (paths to bugs are
/// shortest), or with `stop_at_bug`, depth first and breadth first in turns (executions run to
/// their end soon, and shallow bugs are found soon) and only until a state is a deadlock or
/// has an edge to the error location.
pub fn explore(
    space: &mut Space,
    max_states: usize,
    max_bytes: usize,
    deadline: Instant,
    stop_at_bug: bool,
) -> Result<Graph, Stop> {
    let mut g = Graph {
        expanded: Vec::new(),
        edges: Vec::new(),
        parent: Vec::new(),
        order: vec![0],
        expanded_order: Vec::new(),
    };
    let mut seen = vec![true];
    // Breadth first from the queue; looking for a bug, deep and shallow ones alike, depth
    // first from the stack in turns with it (the stack holds what its own expansions found;
    // every state goes on the queue, and is expanded once).
    let mut queue = std::collections::VecDeque::from([0u32]);
    let mut stack = vec![0u32];
    let mut done = vec![false];
    let mut deep = false;
    loop {
        deep = stop_at_bug && !deep;
        let next = if deep {
            std::iter::from_fn(|| stack.pop()).find(|&s| !done[s as usize])
        } else {
            std::iter::from_fn(|| queue.pop_front()).find(|&s| !done[s as usize])
        };
        let next = next.or_else(|| {
            // The other side may still hold states.
            std::iter::from_fn(|| stack.pop().or_else(|| queue.pop_front()))
                .find(|&s| !done[s as usize])
        });
        let Some(s) = next else {
            break;
        };
        done[s as usize] = true;
        if let Some(why) = space.stopped(deadline) {
            return Err(Stop::Budget(format!(
                "{why} after {} states{}",
                space.len(),
                super::growth::note(space)
            )));
        }
        if space.len() > max_states || space.bytes() > max_bytes {
            return Err(Stop::Budget(format!(
                "more than {} states ({} MiB){}",
                max_states.min(space.len()),
                space.bytes() >> 20,
                super::growth::note(space)
            )));
        }
        let (threads, edges) = if space.is_end(s) {
            (Vec::new(), Vec::new())
        } else {
            space.expansion(s)?
        };
        let n = space.len();
        seen.resize(n, false);
        done.resize(n, false);
        g.parent.resize(n, None);
        g.expanded.resize(n, Vec::new());
        g.edges.resize_with(n, Vec::new);
        for (k, e) in edges.iter().enumerate() {
            if let Target::State(w) = e.to {
                if !seen[w as usize] {
                    seen[w as usize] = true;
                    g.parent[w as usize] = Some((s, k as u32));
                    g.order.push(w);
                    queue.push_back(w);
                    if deep {
                        stack.push(w);
                    }
                }
            }
        }
        let bug = edges.iter().any(|e| matches!(e.to, Target::Error))
            || (edges.is_empty() && !space.is_end(s));
        g.expanded[s as usize] = threads;
        g.edges[s as usize] = edges;
        g.expanded_order.push(s);
        if stop_at_bug && bug {
            break;
        }
    }
    Ok(g)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::{load_str, Options};
    use std::time::Duration;

    /// Every state the search keeps is canonical, though a step forgets only what the
    /// threads that moved no longer need ([`Space::canonical_after`]): threads created in a
    /// loop up to an input (most never start), registers that die, arrays of a thread's own.
    #[test]
    fn a_step_leaves_every_state_canonical() {
        let text = r#"
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int total;
void *work(void *arg) {
  int own[4];
  int id = *(int *)arg;
  for (int i = 0; i < 4; i++)
    own[i] = id + i;
  int s = own[id % 4] + own[3];
  pthread_mutex_lock(&m);
  total += s;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 3)
    n = 2;
  pthread_t t[3];
  int ids[3];
  for (int i = 0; i < n; i++) {
    ids[i] = i;
    pthread_create(&t[i], 0, work, &ids[i]);
  }
  for (int i = 0; i < n; i++)
    pthread_join(t[i], 0);
  return 0;
}
"#;
        let opts = Options {
            max_threads: 6,
            ..Options::default()
        };
        let p = load_str("threads.c", text, &opts).expect("lowers");
        assert!(p.threads.len() > 3, "threads a run may create");
        let mut space = Space::new(&p);
        let deadline = Instant::now() + Duration::from_secs(60);
        explore(&mut space, 200_000, 1 << 30, deadline, false).expect("explored");
        assert!(space.len() > 100);
        for id in 0..space.len() as u32 {
            let k = space.key(id);
            assert!(
                space.canonical(Key::clone(&k)) == *k,
                "state {id} is not canonical"
            );
        }
    }
}
