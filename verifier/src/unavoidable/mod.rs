//! Unavoidable bugs: where a replayed bug shows that no scheduler is safe.
//!
//! A program is *unsafe* when no fair, deadlock-free scheduler makes every execution safe
//! for every input (the verdict of the iterative algorithm in "Incomplete Verification
//! Results for Concurrent Programs" when no safe IVR exists). A replayed bug shows that when
//! its execution gave no scheduler a choice: at each of its states exactly one transition of
//! the whole program was enabled, so every scheduler takes the same steps for the inputs the
//! execution read, and meets the same bug. That holds for the compiled program only where
//! everything the execution decided on is a value the program itself has there, so the
//! replay tracks (by the interpreter's taint tracking, [`Machine::start_tainting`]) which
//! values the model made up rather than computed: uninitialised memory, the results of
//! [`Op::Havoc`] other than the program's inputs ([`crate::ir::Var::input`]), and the
//! numbers it gives thread ids and addresses (a value that is one; a join's use of an id as
//! a handle does not count). A guard or an operation that reads one, a creation refused for
//! the thread bound, a program whose lowering warned of an approximation (a function the
//! model does not know, which may not even return), or a program that reads thread ids or
//! addresses as numbers leaves the bug avoidable as far as synth knows. Where schedulers had
//! a choice on the way, and the failing thread does not meet its bug on its own
//! ([`on_its_own`]), the states of every schedule with the execution's inputs may still show
//! that each meets a bug ([`schedules`]).

mod schedules;

use crate::interp::{self, Execution, Machine, Outcome, Replay};
use crate::ir::{
    self, Init, Op, Place, Program, SyncKind, ThreadId, TransId, TransKind, Transition,
};

/// What the model approximates in `prog` (the first warning of its lowering: a function it
/// does not know, which may not even return, floating point, ...), where a bug may rest on
/// it: a claim of `unsafe` from a search of every schedule needs none.
pub fn approximation(prog: &Program) -> Option<&str> {
    prog.warnings.first().map(String::as_str)
}

/// Why the bug of `e` may be avoidable by some scheduler, or `Ok` where every scheduler
/// meets it (see the module documentation).
pub fn unavoidable(prog: &Program, e: &Execution) -> Result<(), String> {
    if !e.outcome.is_program_bug() {
        return Err("the execution does not end in a bug".into());
    }
    if prog.observes_numbering.is_some() {
        return Err("the program reads thread ids or addresses as numbers".into());
    }
    // A warning names what the model approximates (a function it does not know, which may
    // not return or may set errno; floating point; ...).
    if let Some(w) = approximation(prog) {
        return Err(format!("the model approximates the program: {w}"));
    }
    let m = Machine::new(prog);
    let mut oracle = Replay::of(e);
    let mut chosen = Vec::new();
    let mut s = m.initial(&mut oracle, &mut chosen);
    let cells = s.mem.len();
    // (The check copies the marks at every step.)
    let words = interp::unknown_words(cells).max(1);
    if e.steps.len().saturating_mul(words) > MAX_WORK {
        return Err("the execution is too long to check".into());
    }
    let mut taint = initial_taint(prog, &s);
    let made_up = |i: usize| {
        format!(
            "step {}: it reads a value the model does not compute",
            i + 1
        )
    };
    let mut at: usize = 0;
    loop {
        m.start_recording(cells);
        m.start_tainting(&taint);
        let (enabled, decided_on_made_up) = enabled(prog, &m, &s);
        // (Whether a guard holds matters unless the last step ended the execution.)
        let last = at
            .checked_sub(1)
            .map(|k| (e.steps[k].thread, e.steps[k].transition));
        let end = m.verdict(&s, &enabled, last);
        if decided_on_made_up && !matches!(end, Some(Outcome::Error { .. })) {
            return Err(made_up(at));
        }
        if let Some(end) = end {
            return if same_bug(&end, &e.outcome) && at == e.steps.len() {
                Ok(())
            } else {
                Err("the replay does not end in the execution's bug".into())
            };
        }
        let (t, tr) = match (e.steps.get(at), &e.outcome) {
            (Some(st), _) => (st.thread, st.transition),
            (
                None,
                Outcome::Undefined {
                    thread, transition, ..
                },
            ) => (*thread, *transition),
            (None, _) => return Err("the replay does not end in the execution's bug".into()),
        };
        if enabled.len() != 1 {
            let on_its_own = on_its_own(prog, &m, &s, e, at, &taint);
            // (Where the failing thread does not meet its bug on its own, every schedule of
            // the execution's inputs may still meet one; the reason given is the first.)
            let shown =
                on_its_own.or_else(|why| schedules::every_schedule_fails(prog, e).map_err(|_| why));
            return shown.map_err(|why| {
                format!(
                    "step {}: {} transitions are enabled, and a scheduler may choose ({why})",
                    at + 1,
                    enabled.len()
                )
            });
        }
        if !enabled.contains(&(t, tr)) {
            return Err("the replay does not follow the execution".into());
        }
        let transition = prog.thread(t).transition(tr);
        if transition.refusal.is_some() {
            return Err(format!(
                "step {}: a thread creation is refused for the thread bound",
                at + 1
            ));
        }
        let Some(result) = tainted_step(prog, &m, &mut s, &mut taint, (t, tr), &mut oracle) else {
            return Err(made_up(at));
        };
        match result {
            Ok(_) => {}
            Err(f) => {
                let same = matches!(&e.outcome, Outcome::Undefined { thread, transition, memory: true, .. }
                    if (*thread, *transition) == (t, tr))
                    && f.is_memory_error()
                    && at == e.steps.len();
                return if same {
                    Ok(())
                } else {
                    Err("the replay does not end in the execution's bug".into())
                };
            }
        }
        at += 1;
    }
}

/// Thread `step.0`'s transition `step.1` from `s`, with `taint`, the marks of the values the
/// model made up, carried over it (the thread ids and addresses it writes made up, the
/// inputs it reads not); `None` where it reads a made-up value (a join's reading of the id
/// it waits for does not count).
fn tainted_step(
    prog: &Program,
    m: &Machine,
    s: &mut interp::State,
    taint: &mut [u64],
    (t, tr): (ThreadId, TransId),
    oracle: &mut dyn interp::Oracle,
) -> Option<Result<interp::Step, interp::Fault>> {
    let transition = prog.thread(t).transition(tr);
    m.start_recording(s.mem.len());
    m.start_tainting(taint);
    let result = m.execute(s, t, tr, oracle);
    let tainted = m.take_read_tainted();
    taint.copy_from_slice(&m.stop_recording().taint);
    if tainted && !handles_threads(transition) {
        return None;
    }
    if let Ok(step) = &result {
        numbers_made_up(prog, s, &step.writes, taint);
        inputs_known(prog, transition, s, taint);
    }
    Some(result)
}

/// The marks of the values the model made up in the initial state `s`: uninitialised
/// memory, and the thread ids and addresses it holds.
fn initial_taint(prog: &Program, s: &interp::State) -> Vec<u64> {
    let cells = s.mem.len();
    let mut taint = vec![0u64; interp::unknown_words(cells)];
    for v in prog.vars.iter().filter(|v| v.init == Init::Nondet) {
        for i in 0..v.len as usize {
            interp::set_unknown_bytes(
                &mut taint,
                s.mem.flat(v.id.0 as usize, i),
                interp::ALL_BYTES,
            );
        }
    }
    for k in 0..cells {
        if numbering(prog, i128::from(s.mem.at(k))) {
            interp::set_unknown_bytes(&mut taint, k, interp::ALL_BYTES);
        }
    }
    taint
}

/// Thread ids and addresses among a step's `writes` are numbers the model chose: their cells
/// become not known in `taint`.
fn numbers_made_up(
    prog: &Program,
    s: &interp::State,
    writes: &[(ir::VarId, i128, i128)],
    taint: &mut [u64],
) {
    for &(v, i, x) in writes {
        if numbering(prog, x) {
            let f = s.mem.flat(v.0 as usize, i as usize);
            interp::set_unknown_bytes(taint, f, interp::ALL_BYTES);
        }
    }
}

/// The program's inputs that `tr` read are values the environment chooses, not the model.
fn inputs_known(prog: &Program, tr: &Transition, s: &interp::State, taint: &mut [u64]) {
    for op in &tr.ops {
        if let Op::Havoc {
            place: Place::Var { var, index: None },
            ..
        } = op
        {
            if prog.vars[var.0 as usize].input {
                let f = s.mem.flat(var.0 as usize, 0);
                interp::set_unknown_bytes(taint, f, 0);
            }
        }
    }
}

/// Whether the failing thread of `e` meets its bug from state `s` (reached at step `at` by
/// every scheduler) whatever the others do: a fair scheduler runs it, and its steps from
/// there on are the execution's. That holds where its remaining steps are plain (no
/// synchronisation, so none waits), each enabled in turn, read no value the model made up
/// and no variable another thread may write (nor a place another thread writes through a
/// pointer), and end in the execution's bug; where no other thread can end the program
/// first (`exit`, `abort`, `main` returning, a failed assumption) or shut it out (an
/// atomic region). The others' steps then neither change what it reads nor stop it.
fn on_its_own(
    prog: &Program,
    m: &Machine,
    s: &interp::State,
    e: &Execution,
    at: usize,
    taint: &[u64],
) -> Result<(), String> {
    let t = match &e.outcome {
        Outcome::Error { thread, .. } => *thread,
        // (A memory error's faulting step is not one of the execution's steps.)
        _ => return Err("the bug is no thread's failed check".into()),
    };
    if !matches!(s.threads[t.0 as usize], interp::Status::At(_)) {
        return Err("the failing thread has not started".into());
    }
    if prog.has_atomic_regions() {
        return Err("the program has atomic regions".into());
    }
    // What the other threads may write, and whether one can end the program. A program
    // lowered in a small scope ([`crate::scope`]) refuses creations that the program makes:
    // the threads it leaves out run the code of the function each refused creation starts,
    // whose thread in the scope stands for them (the failing thread's own function too,
    // whose other threads write what it writes, but for its locals).
    let creations = || prog.threads.iter().flat_map(|u| &u.transitions);
    let replicated: std::collections::HashSet<&str> = creations()
        .filter(|tr| tr.refusal.is_some())
        .filter_map(|tr| tr.starts.as_ref().map(|s| s.function.as_str()))
        .collect();
    // (A thread's code is lowered for its argument: a left-out thread stands for itself only
    // where every creation of its function passes the same one.)
    for f in &replicated {
        let mut args = creations()
            .filter_map(|tr| tr.starts.as_ref())
            .filter(|s| s.function == *f)
            .map(|s| &s.arg);
        let first = args.next().cloned().flatten();
        if first.is_none() || args.any(|a| *a != first) {
            return Err(format!(
                "the threads of `{f}` the scope leaves out may run other code than its own"
            ));
        }
    }
    let mut written = std::collections::HashSet::new();
    for u in &prog.threads {
        let others = u.id != t;
        if !others && !replicated.contains(u.function.as_str()) {
            continue;
        }
        for tr in &u.transitions {
            if tr.dst == u.halt || tr.dst == u.discard || (u.id.0 == 0 && tr.dst == u.exit) {
                return Err(format!("`{}` may end the program first", u.name));
            }
            for op in &tr.ops {
                match op {
                    Op::Assign { place, .. } | Op::Havoc { place, .. } => match place {
                        Place::Var { var, .. } => {
                            let own = matches!(prog.var(*var).scope, ir::VarScope::Local(_));
                            if others || !own {
                                written.insert(*var);
                            }
                        }
                        Place::Deref { .. } => {
                            return Err(format!("`{}` writes through a pointer", u.name))
                        }
                    },
                    Op::Spawn { .. } | Op::AtomicBegin | Op::AtomicEnd => {}
                }
            }
        }
    }
    let steps: Vec<&interp::Step> = e.steps[at..].iter().filter(|st| st.thread == t).collect();
    let mut oracle = Replay::new(
        steps
            .iter()
            .map(|st| (st.thread, Some(st.transition)))
            .collect(),
        steps.iter().flat_map(|st| st.inputs.clone()).collect(),
    );
    let mut s = s.clone();
    let mut taint = taint.to_vec();
    let starts = s.mem.starts().to_vec();
    let var_of = |f: u32| starts.partition_point(|&x| x <= f as usize) - 1;
    let th = prog.thread(t);
    for (k, st) in steps.iter().enumerate() {
        let tr = th.transition(st.transition);
        // An assumption that ends the execution where it fails (its location's other way
        // out goes to the discard location) does not wait: it holds here, for these inputs.
        let discards = |tr: &Transition| {
            th.locations[tr.src.0 as usize]
                .out
                .iter()
                .any(|&o| th.transition(o).dst == th.discard)
        };
        let moves_on = matches!(
            tr.kind,
            TransKind::Stmt | TransKind::Branch | TransKind::Error(_)
        ) || (tr.kind == TransKind::Assume && discards(tr));
        if !moves_on {
            return Err(format!("the failing thread's step {} may wait", k + 1));
        }
        let cells = s.mem.len();
        m.start_recording(cells);
        m.start_tainting(&taint);
        let enabled = matches!(m.eval(&s, &tr.guard), Ok(v) if v != 0);
        let result = enabled.then(|| m.execute(&mut s, t, st.transition, &mut oracle));
        let tainted = m.take_read_tainted();
        let rec = m.stop_recording();
        if !enabled {
            return Err("a step of the failing thread is not enabled on its own".into());
        }
        if tainted {
            return Err(format!(
                "the failing thread's step {} reads a value the model does not compute",
                k + 1
            ));
        }
        for &f in rec.reads.iter().map(|(f, _)| f).chain(&rec.loads) {
            if written.contains(&crate::ir::VarId(var_of(f) as u32)) {
                return Err("the failing thread reads what another thread writes".into());
            }
        }
        taint.copy_from_slice(&rec.taint);
        drop(rec);
        if let Some(Ok(step)) = &result {
            numbers_made_up(prog, &s, &step.writes, &mut taint);
        }
        match result {
            Some(Ok(_)) => inputs_known(prog, tr, &s, &mut taint),
            _ => return Err("the failing thread's steps end otherwise on their own".into()),
        }
    }
    match s.threads[t.0 as usize] {
        interp::Status::At(l) if l == th.error => Ok(()),
        _ => Err("the failing thread's steps do not end in the bug".into()),
    }
}

/// Most words of marks the check of one execution copies (steps times words).
const MAX_WORK: usize = 1 << 28;

/// Whether `a` and `b` are the same bug (of the same thread and transition, or a deadlock).
fn same_bug(a: &Outcome, b: &Outcome) -> bool {
    match (a, b) {
        (
            Outcome::Error {
                thread, transition, ..
            },
            Outcome::Error {
                thread: t2,
                transition: tr2,
                ..
            },
        ) => (thread, transition) == (t2, tr2),
        (Outcome::Deadlock { .. }, Outcome::Deadlock { .. }) => true,
        _ => false,
    }
}

/// The transitions enabled at `s`, and whether a guard that decides it read a value the
/// model made up (a join's reading of the id it waits for does not count).
fn enabled(prog: &Program, m: &Machine, s: &interp::State) -> (Vec<(ThreadId, TransId)>, bool) {
    let mut out = Vec::new();
    let mut made_up = false;
    for t in &prog.threads {
        if s.atomic.is_some_and(|a| a != t.id) {
            continue;
        }
        let interp::Status::At(l) = s.threads[t.id.0 as usize] else {
            continue;
        };
        for tr in t.outgoing(l) {
            let g = m.eval(s, &tr.guard);
            if m.take_read_tainted() && !handles_threads(tr) {
                made_up = true;
            }
            if g.map(|g| g != 0).unwrap_or(true) {
                out.push((t.id, tr.id));
            }
        }
    }
    (out, made_up)
}

/// Whether `tr` uses a thread id as a handle only (a join), not as a number.
fn handles_threads(tr: &Transition) -> bool {
    tr.kind == TransKind::Sync(SyncKind::Join)
}

/// Whether `x` may be a thread id or an address the model chose: the program may read it
/// as a number where its run would have another.
fn numbering(prog: &Program, x: i128) -> bool {
    let id = x - ir::THREAD_ID_BASE;
    (0..1 << 16).contains(&id)
        || ir::decode_address(x).is_some_and(|(v, _)| (v.0 as usize) < prog.vars.len())
}
