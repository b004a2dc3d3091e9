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
//! addresses as numbers leaves the bug avoidable as far as synth knows.

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
    if prog.observes_numbering {
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
    // Uninitialised memory holds values the model makes up.
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
    // So do the thread ids and addresses it holds.
    for k in 0..cells {
        if numbering(prog, i128::from(s.mem.at(k))) {
            interp::set_unknown_bytes(&mut taint, k, interp::ALL_BYTES);
        }
    }
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
            return Err(format!(
                "step {}: {} transitions are enabled, and a scheduler may choose",
                at + 1,
                enabled.len()
            ));
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
        let result = m.execute(&mut s, t, tr, &mut oracle);
        if m.take_read_tainted() && !handles_threads(transition) {
            return Err(made_up(at));
        }
        taint.copy_from_slice(&m.stop_recording().taint);
        // Thread ids and addresses the step wrote are numbers the model chose.
        if let Ok(step) = &result {
            for &(v, i, x) in &step.writes {
                if numbering(prog, x) {
                    let f = s.mem.flat(v.0 as usize, i as usize);
                    interp::set_unknown_bytes(&mut taint, f, interp::ALL_BYTES);
                }
            }
        }
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
        // The program's inputs are values the environment chooses, not the model.
        for op in &transition.ops {
            if let Op::Havoc {
                place: Place::Var { var, index: None },
                ..
            } = op
            {
                if prog.vars[var.0 as usize].input {
                    let f = s.mem.flat(var.0 as usize, 0);
                    interp::set_unknown_bytes(&mut taint, f, 0);
                }
            }
        }
        at += 1;
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
