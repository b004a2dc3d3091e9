//! Instrumentation of the LLVM module (DESIGN.md, "Enforcement protocol"; seed 002,
//! "Implementation"): the module the program was lowered from, with the runtime calls that
//! make its threads follow a schedule, ready for clang.
//!
//! A site is found by the instruction its IR transitions perform ([`Transition::at`]: the
//! instruction's number in the module and, for a branch arm, its successor), so every site is
//! instrumented exactly once, at the code the verifier read:
//!
//! * a shared **load, store, atomic read-modify-write or compare-exchange**, and a call whose
//!   one step accesses shared memory (`malloc`, `free`, a havocking external), runs between
//!   `synth_before(s)` and `synth_after(s)`;
//! * a **conditional branch or switch** whose arms are sites reports the successor taken
//!   (`synth_branch`);
//! * **synchronisation calls** the schedule keeps (mutexes, rwlocks, semaphores, spin locks,
//!   join, yield) run between `before` and `after`; those it subsumes (Opt1/Opt2) are removed;
//!   condition waits and signals, barriers and `pthread_once` are performed by the schedule
//!   itself through the support functions of `llvm_support.c` (a barrier's serial thread is
//!   the last to arrive in the schedule's order, as the verifier models it);
//!   `pthread_create` goes to the runtime's `synth_pthread_create` (a creation the verified program refuses
//!   for the thread bound fails with `EAGAIN`, leaving `SYNTH_NO_THREAD` as the id, whose
//!   join and `pthread_kill` return `ESRCH`); `pthread_exit` reports the thread's exit;
//! * `main` is renamed; the support file's `main` starts the runtime with the schedule;
//! * the front end's libc models go back to the system library's definitions, except those
//!   whose code holds a site.
//!
//! A site the instrumentation cannot place is an error naming `file:line:col`, never a
//! silently unconstrained access.

use crate::schedule::ProgramSchedule;
use crate::sites::SiteKind;
use enforcer_rt::table::SYNTH_NONE;
use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use verifier::frontend::llvm::edit::{InstrKind, Module, PrintedRead};
use verifier::frontend::llvm::format::{
    argument_reads, format_argument, printed, Precision, Printed, ReadLength,
};
use verifier::ir::{
    printed_arm, printed_read_arg, ByteStep, CellStep, Place, Program, SyncKind, ThreadId,
    TransKind,
};

/// Exit code of an instrumented program whose schedule the runtime refuses.
pub const REFUSED_EXIT_CODE: i32 = 78;

/// Why a program cannot be instrumented.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The module the program carries does not parse (it did for the front end: an internal
    /// error), or the program was not lowered from one.
    #[error("the program's LLVM module does not parse: {0}")]
    Parse(String),
    /// A site the instrumentation cannot place.
    #[error("{position}: cannot enforce the schedule here: {what}")]
    Unsupported {
        /// `file:line:col`.
        position: String,
        /// What and why.
        what: String,
    },
}

/// The support functions and the `main` of an instrumented module, as C.
const SUPPORT: &str = include_str!("llvm_support.c");

/// What a site does at its instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum What {
    Access,
    /// Branch arm to the successor.
    Arm(u32),
    /// The arm of an assumption on inputs that holds.
    ArmAssume,
    /// The failing arm of an assumption on inputs.
    ArmAssumeFail,
    /// An arm of a synchronisation call or of an assumption over shared state (of a timed
    /// wait's check of its deadline, with `sub` 1 for the arm that goes on to wait and 0 for
    /// the other; 2 for the outcome of a synchronisation itself).
    ArmOther,
    Removed,
    Sync(SyncKind),
    /// An assumption over shared memory.
    Assume,
    Exit,
}

#[derive(Clone, Copy, Debug)]
struct Role {
    site: u32,
    what: What,
    /// The second component of the site's [`verifier::ir::Transition::at`]: the successor of
    /// a branch arm, the cell of a block copy's step, else 0.
    sub: u32,
}

/// The result of [`instrument`].
pub struct Instrumented {
    /// The C file to compile with the module: the support functions and `main`.
    pub support: String,
}

/// Instruments the module `prog` was lowered from for `sched`, writes it to `out` (bitcode)
/// and returns the support C file, which includes `header` (the schedule's tables).
pub fn instrument(
    prog: &Program,
    sched: &ProgramSchedule,
    header: &str,
    out: &Path,
) -> Result<Instrumented, Error> {
    let Some(bc) = &prog.bitcode else {
        return Err(Error::Parse(
            "the program was not lowered from LLVM IR".into(),
        ));
    };
    let mut m = Module::parse(bc).map_err(Error::Parse)?;
    let position = |m: &Module, n: u32| match m.position(n) {
        Some((f, l, c)) => format!("{f}:{l}:{c}"),
        None => format!("{} (function {})", sched.source, m.function_of(n)),
    };
    // The sites the schedule reaches (the proof's executions run no other site's code).
    let used = sched.used_sites();
    // Sites by instruction. (A branch arm that no section selects by, nor has as an event, is
    // not reported: the deployed schedule's branches whose arms lead to the same future,
    // [`crate::deploy`].)
    let mut by_instr: BTreeMap<u32, Vec<Role>> = BTreeMap::new();
    for site in &sched.sites.sites {
        let Some(&(t, tr)) = site.instances.first() else {
            continue;
        };
        if site.kind == SiteKind::Branch && !used.contains(&site.id) {
            continue;
        }
        let th = prog.thread(t);
        let x = th.transition(tr);
        let what = match site.kind {
            SiteKind::Branch => match x.kind {
                TransKind::Branch => What::Arm(x.at.map_or(0, |a| a[1])),
                TransKind::Assume if x.events.is_empty() => What::ArmAssume,
                TransKind::AssumeFail => What::ArmAssumeFail,
                _ => What::ArmOther,
            },
            SiteKind::Removed => What::Removed,
            SiteKind::ThreadExit => What::Exit,
            SiteKind::Sync => match x.kind {
                TransKind::Sync(k) => What::Sync(k),
                _ => What::Access,
            },
            SiteKind::Access if x.kind == TransKind::Assume => What::Assume,
            SiteKind::Access => What::Access,
        };
        // (Whether an arm goes on to a condition wait: a timed wait's check of its deadline.)
        let waits = |x: &verifier::ir::Transition| {
            th.outgoing(x.dst)
                .any(|y| y.kind == TransKind::Sync(SyncKind::CondWaitRelease))
        };
        match x.at {
            Some([n, sub]) if m.has(n) => by_instr.entry(n).or_default().push(Role {
                site: site.id,
                what,
                sub: match what {
                    What::ArmOther if x.kind == TransKind::Stmt => u32::from(waits(x)),
                    // (The outcome of a synchronisation itself.)
                    What::ArmOther => 2,
                    _ => sub,
                },
            }),
            // A return from a thread's function: reported by the runtime's trampoline.
            None if what == What::Exit => {}
            _ => {
                return Err(Error::Unsupported {
                    position: site
                        .span
                        .map(|s| prog.position(&s))
                        .unwrap_or_else(|| site.file.clone()),
                    what: format!(
                        "site {} ({}) is not one instruction of the module",
                        site.id, site.text
                    ),
                })
            }
        }
    }
    use verifier::frontend::llvm::compile::{ENVIRONMENT_SECTION, MODEL_SECTION};
    let environment: HashSet<String> = m
        .functions_in_section(ENVIRONMENT_SECTION)
        .into_iter()
        .collect();
    // Code of an environment model that the schedule orders, in the model or in a helper it
    // calls: the built program asks the system instead, so nothing would run it. Refused
    // before the instructions are instrumented one by one (a helper's steps may be ones no
    // call can stand for).
    let mut ordered: HashSet<String> = (by_instr.iter())
        .filter(|(_, roles)| roles.iter().any(|r| used.contains(&r.site)))
        .map(|(&n, _)| m.function_of(n).to_string())
        .collect();
    callers_too(&mut ordered, &call_graph(&m));
    if let Some(f) = environment.iter().find(|f| ordered.contains(*f)) {
        return Err(environment_refused(&sched.source, f));
    }
    check_shared_code(prog, &m, &by_instr, &position)?;
    let sequential = sequential_sites(prog, sched);
    let none = SYNTH_NONE;
    let mut instrumented: HashSet<u32> = HashSet::new();
    // Whether the built program must know the size of the blocks it allocates.
    let mut block_sizes = false;
    for (&n, roles) in &by_instr {
        let here = position(&m, n);
        let unsupported = |what: String| Error::Unsupported {
            position: here.clone(),
            what,
        };
        let find = |w: &dyn Fn(What) -> bool| roles.iter().find(|r| w(r.what)).map(|r| r.site);
        let timed_wait = matches!(
            m.kind(n),
            InstrKind::Call { callee: Some(ref c), .. } if c == "pthread_cond_timedwait"
        );
        if let Some(s) = find(&|w| w == What::ArmOther).filter(|_| !timed_wait) {
            return Err(unsupported(format!(
                "the schedule branches on the outcome of a synchronisation call or of an \
                 assumption over shared state (site {s})"
            )));
        }
        let kind = m.kind(n);
        let multi = sequential.contains(&n);
        match kind {
            InstrKind::CondBr | InstrKind::Switch => {
                let mut sites = Vec::new();
                for r in roles {
                    match r.what {
                        What::Arm(k) => {
                            let k = k as usize;
                            if sites.len() <= k {
                                sites.resize(k + 1, none);
                            }
                            sites[k] = r.site;
                        }
                        w => return Err(unsupported(format!("a branch performs {w:?}"))),
                    }
                }
                m.report_branch(n, "synth_branch", &sites, none);
            }
            InstrKind::Load | InstrKind::Store | InstrKind::AtomicRmw | InstrKind::CmpXchg => {
                let kept: Vec<&Role> = roles.iter().filter(|r| r.what != What::Removed).collect();
                match kept.as_slice() {
                    [] => {}
                    [r] if matches!(r.what, What::Access | What::Sync(SyncKind::Atomic)) => {
                        m.call_before(n, "synth_before", &[r.site]);
                        m.call_after(n, "synth_after", &[r.site]);
                    }
                    _ => {
                        return Err(unsupported(format!(
                            "one memory access is several sites ({}): it reaches different \
                             shared objects in different calls of its function",
                            list(roles)
                        )))
                    }
                }
            }
            // The start or end of a local variable's lifetime, where another thread may
            // use it (its status cell): one event, after the `alloca` or before the return.
            InstrKind::Alloca | InstrKind::Ret => match roles.as_slice() {
                [r] if r.what == What::Access => {
                    if kind == InstrKind::Alloca {
                        // (Each call goes right after the `alloca`: the last one comes first.)
                        m.call_after(n, "synth_after", &[r.site]);
                        m.call_after(n, "synth_before", &[r.site]);
                    } else {
                        m.call_before(n, "synth_before", &[r.site]);
                        m.call_before(n, "synth_after", &[r.site]);
                    }
                }
                _ => {
                    return Err(unsupported(format!(
                        "sites {} at one local variable's lifetime",
                        list(roles)
                    )))
                }
            },
            InstrKind::Call { callee, args } => {
                let name = callee.unwrap_or_default();
                if let Some(op) = block_operation(&name) {
                    let fill = op == Block::Fill;
                    if let Some((read, write)) = byte_sites(prog, n, roles).map_err(unsupported)? {
                        if fill {
                            m.replace_block(n, "__synth_fill_bytes", &[write], true);
                        } else {
                            let backward = u32::from(op == Block::Move);
                            m.replace_block(
                                n,
                                "__synth_copy_bytes",
                                &[read, write, backward],
                                false,
                            );
                        }
                    } else {
                        let cells = block_cells(prog, n, roles, op).map_err(unsupported)?;
                        m.expand_block(n, fill, &cells, "synth_before", "synth_after");
                    }
                } else if name == "realloc" && args == 2 {
                    let sites = realloc_sites(roles).map_err(unsupported)?;
                    m.replace_call(n, "__synth_realloc", &sites);
                    block_sizes = true;
                } else if let Some(reads) =
                    printed_reads(&m, n, &name, roles).map_err(unsupported)?
                {
                    m.copy_printed(n, "__synth_printed_copy", "__synth_printed_free", &reads);
                } else {
                    call(&mut m, n, &name, args, roles, multi).map_err(unsupported)?;
                }
            }
            other => {
                return Err(unsupported(format!(
                    "sites {} at an instruction `{other:?}` the instrumentation does not place",
                    list(roles)
                )))
            }
        }
        instrumented.insert(n);
    }
    // Calls that are no site but must not run as they are.
    for n in 0..m.instruction_count() {
        if !m.has(n) || by_instr.contains_key(&n) {
            continue;
        }
        if let InstrKind::Call {
            callee: Some(name), ..
        } = m.kind(n)
        {
            match name.as_str() {
                // A creation the verified program never makes, or refuses for the thread
                // bound: it fails with EAGAIN, as in the verifier's model.
                "pthread_create" => m.replace_call(n, "__synth_create_refused", &[]),
                "pthread_detach" => m.replace_call(n, "__synth_pthread_detach", &[]),
                "pthread_kill" => m.replace_call(n, "__synth_pthread_kill", &[]),
                "pthread_barrier_init" => m.replace_call(n, "__synth_barrier_init", &[none]),
                "pthread_barrier_destroy" => m.replace_call(n, "__synth_barrier_destroy", &[]),
                _ => {}
            }
        }
    }
    // `__synth_realloc` copies the smaller of the old block's size and the new one, as the
    // model does: the program's allocations record their sizes.
    // (Every use: calls, and the functions' addresses, as a thread-specific data destructor
    // or through a pointer.)
    if block_sizes {
        for (f, sized) in [
            ("malloc", "__synth_sized_malloc"),
            ("calloc", "__synth_sized_calloc"),
            ("realloc", "__synth_sized_realloc"),
            ("free", "__synth_sized_free"),
        ] {
            m.redirect_function(f, sized);
        }
    }
    let main_params = m
        .rename_function("main", "synth_user_main")
        .ok_or_else(|| Error::Unsupported {
            position: sched.source.clone(),
            what: "the program has no `main`".into(),
        })?;
    // Who calls whom (in the module as instrumented).
    let calls = call_graph(&m);
    let models: HashSet<String> = (m.functions_in_section(MODEL_SECTION).into_iter())
        .chain(environment.iter().cloned())
        .collect();
    // The functions whose code the schedule orders, and their callers (a model whose helper
    // holds that code runs it: `strtol` runs `__synth_strto`, `atoi` runs `strtol`,
    // `snprintf` runs `__synth_format`, `scanf` runs `__synth_scan_stdin`, which reads the
    // real input through the support file's `__synth_scan_*`). A library model whose code
    // the schedule orders only in the verifier's copies of other library calls, if at all,
    // goes back to the system's definition.
    let mut keep: HashSet<String> = (instrumented.iter())
        .filter(|n| by_instr[n].iter().any(|r| used.contains(&r.site)))
        .map(|&n| m.function_of(n).to_string())
        .collect();
    callers_too(&mut keep, &calls);
    // A library model the schedule instruments must run in the built program: the program
    // calls it, or an instrumented model does. Elsewhere the call goes to the system's
    // library (a model's body replaced by it), and the model's sites would never be reached.
    let kept_model = |f: &String| models.contains(f) && keep.contains(f);
    let mut runs: HashSet<String> = HashSet::new();
    loop {
        let more: Vec<String> = calls
            .iter()
            .filter(|(caller, callee)| {
                kept_model(callee)
                    && !runs.contains(callee)
                    && (!models.contains(caller) || runs.contains(caller))
            })
            .map(|(_, callee)| callee.clone())
            .collect();
        if more.is_empty() {
            break;
        }
        runs.extend(more);
    }
    // The environment's answers are the system's in the built program, not the model's
    // made-up values.
    if let Some(f) = environment.iter().find(|f| kept_model(f)) {
        return Err(environment_refused(&sched.source, f));
    }
    if let Some(f) = models.iter().find(|f| kept_model(f) && !runs.contains(*f)) {
        return Err(Error::Unsupported {
            position: sched.source.clone(),
            what: format!(
                "the schedule orders accesses of the library model `{f}`, which the built \
                 program does not run (its call goes to the system's library)"
            ),
        });
    }
    for f in &models {
        m.set_definition(f, keep.contains(f));
    }
    m.verify()
        .map_err(|e| Error::Parse(format!("the instrumented module is not valid: {e}")))?;
    m.write(out).map_err(Error::Parse)?;
    let call_main = match main_params {
        0 => "synth_user_main()",
        1 => "synth_user_main(argc)",
        2 => "synth_user_main(argc, argv)",
        _ => "synth_user_main(argc, argv, envp)",
    };
    let proto = match main_params {
        0 => "int synth_user_main(void);",
        1 => "int synth_user_main(int);",
        2 => "int synth_user_main(int, char **);",
        _ => "int synth_user_main(int, char **, char **);",
    };
    // The verifier runs `main` with the argument vector it was given: a run with other
    // arguments is not one the proof covers; `argv[0]` is the name it was verified with.
    let arguments = if main_params > 0 {
        let args = prog.arguments.get(1..).unwrap_or_default();
        let list: String = args.iter().map(|a| format!("{}, ", c_string(a))).collect();
        let shown = if args.is_empty() {
            "without arguments".to_string()
        } else {
            format!("with the arguments: {}", args.join(" "))
        };
        let name = prog.arguments.first().map_or("a.out", String::as_str);
        format!(
            "  static const char *const verified[] = {{{list}0}};\n  \
             static char name[] = {name};\n  \
             int same = argc == {count};\n  \
             for (int i = 1; same && i < argc; i++)\n    \
             same = strcmp(argv[i], verified[i - 1]) == 0;\n  \
             if (!same) {{\n    \
             fprintf(stderr, \"synth: the schedule was verified for runs %s\\n\", {shown});\n    \
             return {code};\n  }}\n  \
             argv[0] = name;\n",
            count = args.len() + 1,
            name = c_string(name),
            shown = c_string(&shown),
            code = REFUSED_EXIT_CODE,
        )
    } else {
        String::new()
    };
    let support = format!(
        "/* {src}: support of the module instrumented by synth to follow the program \
         schedule of {header}\n * (Opt{opt}, program SHA-256 {sha}). Do not edit. */\n\
         #include <stdio.h>\n#include <string.h>\n#include \"{header}\"\n\
         {SUPPORT}\n{proto}\n\
         int main(int argc, char **argv, char **envp) {{\n  \
         (void)argc;\n  (void)argv;\n  (void)envp;\n{arguments}  \
         if (synth_start(&synth_schedule, \"{sha}\") != 0)\n    return {code};\n  \
         return {call_main};\n}}\n",
        src = sched.source.replace("*/", "* /"),
        opt = sched.opt,
        sha = prog.sha256,
        code = REFUSED_EXIT_CODE,
    );
    Ok(Instrumented { support })
}

/// `s` as a C string literal.
fn c_string(s: &str) -> String {
    let mut out = String::from("\"");
    for b in s.bytes() {
        match b {
            b'"' | b'\\' => {
                out.push('\\');
                out.push(b as char);
            }
            0x20..=0x7e if b != b'?' => out.push(b as char),
            _ => out.push_str(&format!("\\{b:03o}")),
        }
    }
    out.push('"');
    out
}

/// A block operation of the library or LLVM's intrinsics.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Block {
    /// `memcpy`: cell by cell, each read before its write.
    Copy,
    /// `memmove`: every cell read before any is written.
    Move,
    /// `memset`.
    Fill,
}

/// The block operation `name` performs, as the library's function or LLVM's intrinsic.
fn block_operation(name: &str) -> Option<Block> {
    let base = name.strip_prefix("llvm.").unwrap_or(name);
    let base = base.split('.').next().unwrap_or(base);
    match base {
        "memcpy" => Some(Block::Copy),
        "memmove" => Some(Block::Move),
        "memset" => Some(Block::Fill),
        _ => None,
    }
}

/// The cells of the block operation `n` (`op`), in the order the IR performs them, each with
/// its site: every step of every copy of the instruction in the IR must be a cell step, and
/// the copies must agree on the cells.
fn block_cells(
    prog: &Program,
    n: u32,
    roles: &[Role],
    op: Block,
) -> Result<Vec<(CellStep, Option<u32>)>, String> {
    let mut cells: Vec<CellStep> = Vec::new();
    for sub in block_steps(prog, n) {
        let Some(c) = CellStep::decode(sub) else {
            return Err(format!(
                "a copy of shared memory whose length or layout is known only at run time \
                 (sites {})",
                list(roles)
            ));
        };
        if !cells.contains(&c) {
            cells.push(c);
        }
    }
    cells.sort_by_key(|c| (c.offset, c.write));
    for w in cells.windows(2) {
        if w[0].offset == w[1].offset && w[0].width != w[1].width
            || w[0].offset + w[0].width > w[1].offset && w[0].offset != w[1].offset
        {
            return Err(format!(
                "the copies of one block operation in the IR disagree on its cells (sites {})",
                list(roles)
            ));
        }
    }
    // The IR's order: cell by cell, the read before the write; for `memmove` every read
    // before the writes.
    if op == Block::Move {
        cells.sort_by_key(|c| (c.write, c.offset));
    }
    let read = |w: &CellStep| cells.iter().any(|r| !r.write && r.offset == w.offset);
    if op != Block::Fill && !cells.iter().all(|c| !c.write || read(c)) {
        return Err(format!(
            "a copy of a block writes a cell it does not read (sites {})",
            list(roles)
        ));
    }
    let mut out = Vec::new();
    for c in cells {
        let code = c.encode().expect("decoded");
        let mut sites = roles.iter().filter(|r| r.sub == code);
        let site = sites.next().map(|r| r.site);
        if let Some(other) = sites.next() {
            return Err(format!(
                "one cell of a block operation is two sites ({} and {})",
                site.unwrap_or(0),
                other.site
            ));
        }
        out.push((c, site));
    }
    if let Some(r) = roles.iter().find(|r| CellStep::decode(r.sub).is_none()) {
        return Err(format!(
            "site {} of a block operation is not one of its cells",
            r.site
        ));
    }
    Ok(out)
}

/// The steps of the block operation `n` in every copy of it in the IR (its transitions, and
/// its accesses of a thread's own memory merged into the step after them).
fn block_steps(prog: &Program, n: u32) -> impl Iterator<Item = u32> + '_ {
    prog.threads
        .iter()
        .flat_map(|th| &th.transitions)
        .filter(|tr| tr.memory_access)
        .filter_map(|tr| tr.at)
        .chain(prog.local_reads.iter().copied())
        .filter(move |&[k, _]| k == n)
        .map(|[_, sub]| sub)
}

/// The sites of the block operation `n` made as a loop over its bytes (its length or layout
/// is known only at run time, [`ByteStep`]): the read's and the write's site (or
/// [`SYNTH_NONE`] where they access no shared memory); `None` when its steps are cells.
/// Every copy of the instruction in the IR must be the loop.
fn byte_sites(prog: &Program, n: u32, roles: &[Role]) -> Result<Option<(u32, u32)>, String> {
    let (mut bytes, mut other) = (false, false);
    for sub in block_steps(prog, n) {
        match ByteStep::decode(sub) {
            Some(_) => bytes = true,
            None => other = true,
        }
    }
    match (bytes, other) {
        (false, _) => return Ok(None),
        (true, true) => {
            return Err(format!(
                "one block operation is a loop over its bytes in some copies of it in the IR \
                 and cells in others (sites {})",
                list(roles)
            ))
        }
        (true, false) => {}
    }
    let [read, write] = part_sites(roles, [ByteStep::Read, ByteStep::Write])?;
    Ok(Some((read, write)))
}

/// The arguments of library call `n` (`name`) whose reads are sites of the schedule (the
/// front end's model of what it reads through them, [`verifier::ir::printed_read_code`]:
/// what an output function prints, a path, a buffer written out), each with its site and how
/// much of it the model reads; `None` where no site is such a read.
fn printed_reads(
    m: &Module,
    n: u32,
    name: &str,
    roles: &[Role],
) -> Result<Option<Vec<PrintedRead>>, String> {
    // Per role: the argument whose read (or loop arm) it is.
    let part = |r: &Role| match r.what {
        What::Access => printed_read_arg(r.sub).map(|a| (a, None)),
        What::Arm(code) => printed_arm(code).map(|(a, arm)| (a, Some(arm))),
        _ => None,
    };
    if roles.iter().all(|r| part(r).is_none()) {
        return Ok(None);
    }
    if name.is_empty() {
        return Err(format!(
            "a call through a function pointer of a library function that reads through its \
             arguments (sites {})",
            list(roles)
        ));
    }
    if let Some(r) = roles.iter().find(|r| part(r).is_none()) {
        return Err(format!(
            "`{name}` reads through its arguments and has another site ({}; sites {})",
            r.site,
            list(roles)
        ));
    }
    if let Some(k) = roles
        .iter()
        .filter_map(|r| part(r).map(|(a, _)| a))
        .find_map(|a| a.checked_sub(verifier::ir::VA_LIST_ARG))
    {
        return Err(format!(
            "`{name}` reads the string of its conversion {} through its `va_list`, which the \
             built program does not order",
            k + 1
        ));
    }
    let format_at = format_argument(name);
    // The strings the format prints, by argument, with their precision.
    let mut precisions = std::collections::HashMap::new();
    if let Some(f) = format_at {
        if let Some(text) = m.constant_string(n, f) {
            let printed =
                printed(&text).map_err(|c| format!("`{name}` with the conversion `%{c}`"))?;
            for (j, p) in printed.iter().enumerate() {
                let arg = f + 1 + j as u32;
                if let Printed::String(p) = p {
                    let length = match p {
                        Precision::None => ReadLength::String,
                        Precision::Fixed(k) => ReadLength::Precision(*k),
                        Precision::Argument => ReadLength::PrecisionArgument(arg - 1),
                    };
                    precisions.insert(arg, length);
                }
            }
        }
    }
    let mut reads: Vec<PrintedRead> = Vec::new();
    for r in roles {
        let (arg, arm) = part(r).expect("a read or an arm");
        let fixed = argument_reads(name).iter().find(|(k, _)| *k == arg);
        let length = match (fixed, precisions.get(&arg)) {
            (Some((_, l)), _) => *l,
            // (A format that is no constant is read as a string.)
            _ if Some(arg) == format_at => ReadLength::String,
            (None, Some(l)) => *l,
            (None, None) => {
                return Err(format!(
                    "`{name}` reads its argument {arg}, which it does not read as the \
                     verifier's model does"
                ))
            }
        };
        let k = match reads.iter().position(|x| x.arg == arg) {
            Some(k) => k,
            None => {
                reads.push(PrintedRead {
                    arg,
                    site: SYNTH_NONE,
                    arms: [SYNTH_NONE; 6],
                    length,
                });
                reads.len() - 1
            }
        };
        let slot = match arm {
            None => &mut reads[k].site,
            // (`PrintedArm::ALL` is in the arms' order.)
            Some(a) => &mut reads[k].arms[a as usize],
        };
        if *slot != SYNTH_NONE && *slot != r.site {
            return Err(format!(
                "`{name}` reads its argument {arg} with two sites for one part ({} and {})",
                *slot, r.site
            ));
        }
        *slot = r.site;
    }
    Ok(Some(reads))
}

/// The sites of a `realloc` (`void *__synth_realloc(alloc, length, read, write, release,
/// p, n)` in `llvm_support.c`), each [`SYNTH_NONE`] where the part accesses no shared memory.
fn realloc_sites(roles: &[Role]) -> Result<[u32; 5], String> {
    use ByteStep::*;
    part_sites(roles, [Allocate, Length, Read, Write, Release])
}

/// The site of each of `parts` of a library call or block operation ([`SYNTH_NONE`] where
/// the part accesses no shared memory): every site of the call must be an access of one of
/// them, and no part two sites.
fn part_sites<const N: usize>(roles: &[Role], parts: [ByteStep; N]) -> Result<[u32; N], String> {
    let mut sites = [SYNTH_NONE; N];
    for r in roles {
        let step = ByteStep::decode(r.sub);
        let k = match (
            r.what,
            step.and_then(|p| parts.iter().position(|&q| q == p)),
        ) {
            (What::Access, Some(k)) => k,
            (w, _) => {
                return Err(format!(
                    "site {} of a block operation or `realloc` is {w:?} ({step:?}; sites {})",
                    r.site,
                    list(roles)
                ))
            }
        };
        if sites[k] != SYNTH_NONE {
            return Err(format!(
                "one part ({:?}) of a block operation or `realloc` is two sites ({} and {})",
                parts[k], sites[k], r.site
            ));
        }
        sites[k] = r.site;
    }
    Ok(sites)
}

fn list(roles: &[Role]) -> String {
    roles
        .iter()
        .map(|r| r.site.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The instrumentation of the call `n` of `name` performing `roles`; `multi` when one
/// execution of it performs several sites in sequence.
fn call(
    m: &mut Module,
    n: u32,
    name: &str,
    args: usize,
    roles: &[Role],
    multi: bool,
) -> Result<(), String> {
    let none = SYNTH_NONE;
    let site = |w: What| roles.iter().find(|r| r.what == w).map(|r| r.site);
    let kinds: Vec<What> = roles.iter().map(|r| r.what).collect();
    if kinds.iter().all(|w| *w == What::Removed) {
        match name {
            // Subsumed by the schedule: the call goes (its arguments have no effects in IR).
            "pthread_mutex_lock"
            | "pthread_mutex_unlock"
            | "pthread_mutex_init"
            // (The schedule performs the waits and signals: the real variable is unused.)
            | "pthread_cond_init"
            | "sched_yield"
            | "pthread_yield" => m.remove_call(n),
            "pthread_barrier_init" => m.replace_call(n, "__synth_barrier_init", &[none]),
            // An atomic function of the program: only its region markers go; its body runs.
            n if n.starts_with("__VERIFIER_atomic_") => {}
            _ => return Err(format!("`{name}` is subsumed by the schedule")),
        }
        return Ok(());
    }
    if kinds.contains(&What::Removed) {
        return Err(format!("`{name}` is partly subsumed by the schedule"));
    }
    let sync = |k: SyncKind| site(What::Sync(k));
    if let Some(s) = site(What::ArmAssume).or(site(What::ArmAssumeFail).map(|_| none)) {
        if name != "__VERIFIER_assume" && name != "assume_abort_if_not" {
            return Err(format!("an assumption arm at a call of `{name}`"));
        }
        let arm = site(What::ArmAssume).unwrap_or(s);
        m.replace_call(n, "__synth_assume_arm", &[arm]);
        return Ok(());
    }
    let mut sorted = kinds.clone();
    sorted.sort_by_key(|w| format!("{w:?}"));
    sorted.dedup();
    match (name, sorted.as_slice()) {
        // A creation, refused for the thread bound in the copies where the refusal's write of
        // the id (`Access`, an event wherever it writes one) is a site.
        ("pthread_create", [What::Sync(SyncKind::Spawn)]) if args == 4 => {
            let spawn = sync(SyncKind::Spawn).expect("site");
            m.replace_call(n, "__synth_pthread_create", &[spawn, none]);
        }
        ("pthread_create", [What::Access, What::Sync(SyncKind::Spawn)]) if args == 4 && !multi => {
            let spawn = sync(SyncKind::Spawn).expect("site");
            let refusal = site(What::Access).expect("site");
            m.replace_call(n, "__synth_pthread_create", &[spawn, refusal]);
        }
        ("pthread_create", [What::Access]) if args == 4 && !multi => {
            m.replace_call(n, "__synth_create_refused_at", &[roles[0].site]);
        }
        ("pthread_exit", [What::Exit]) => m.call_before(n, "synth_thread_exit", &[]),
        ("pthread_join", [What::Sync(SyncKind::Join)]) if args == 2 && !multi => {
            m.replace_call(n, "__synth_pthread_join", &[roles[0].site]);
        }
        ("pthread_cond_wait", _)
            if sorted.contains(&What::Sync(SyncKind::CondWaitRelease))
                && sorted.contains(&What::Sync(SyncKind::CondWaitWake))
                && sorted.iter().all(|w| {
                    matches!(
                        w,
                        What::Sync(
                            SyncKind::CondWaitRelease | SyncKind::CondWaitWake | SyncKind::Lock
                        )
                    )
                }) =>
        {
            let rel = sync(SyncKind::CondWaitRelease).expect("site");
            let wake = sync(SyncKind::CondWaitWake).expect("site");
            let lock = sync(SyncKind::Lock).unwrap_or(none);
            m.replace_call(n, "__synth_cond_wait", &[rel, wake, lock]);
        }
        ("pthread_cond_init", [What::Sync(SyncKind::MutexInit)]) if args == 2 => {
            m.replace_call(n, "__synth_cond_init", &[roles[0].site]);
        }
        ("pthread_cond_signal", [What::Sync(SyncKind::CondSignal)])
        | ("pthread_cond_broadcast", [What::Sync(SyncKind::CondBroadcast)]) => {
            m.replace_call(n, "__synth_event", &[roles[0].site]);
        }
        (
            "pthread_barrier_wait",
            [What::Sync(SyncKind::BarrierArrive), What::Sync(SyncKind::BarrierLeave)],
        ) => {
            let arrive = sync(SyncKind::BarrierArrive).expect("site");
            let leave = sync(SyncKind::BarrierLeave).expect("site");
            m.replace_call(n, "__synth_barrier_wait", &[arrive, leave]);
        }
        ("pthread_barrier_init", [What::Sync(SyncKind::BarrierInit)]) => {
            m.replace_call(n, "__synth_barrier_init", &[roles[0].site]);
        }
        // An atomic region's markers: events the schedule orders the other threads' events
        // around (at Opt1/Opt2 they are subsumed).
        (
            "__VERIFIER_atomic_begin" | "__VERIFIER_atomic_end",
            [What::Sync(SyncKind::AtomicBegin | SyncKind::AtomicEnd)],
        ) => {
            m.replace_call(n, "__synth_mark", &[roles[0].site]);
        }
        (_, [What::Sync(SyncKind::AtomicBegin), What::Sync(SyncKind::AtomicEnd)])
            if name.starts_with("__VERIFIER_atomic_") =>
        {
            // An atomic function of the program: its call is the region.
            let (b, e) = (
                sync(SyncKind::AtomicBegin).expect("site"),
                sync(SyncKind::AtomicEnd).expect("site"),
            );
            m.call_before(n, "synth_before", &[b]);
            m.call_before(n, "synth_after", &[b]);
            m.call_after(n, "synth_after", &[e]);
            m.call_after(n, "synth_before", &[e]);
        }
        ("pthread_once", [What::Sync(SyncKind::Once)]) => {
            m.replace_call(n, "__synth_once", &[roles[0].site]);
        }
        (
            _,
            [What::Sync(
                SyncKind::Lock
                | SyncKind::Unlock
                | SyncKind::TryLock
                | SyncKind::MutexInit
                | SyncKind::Join
                | SyncKind::Yield
                | SyncKind::ReadLock
                | SyncKind::WriteLock
                | SyncKind::RwUnlock
                | SyncKind::SemWait
                | SyncKind::SemPost
                | SyncKind::Atomic,
            )],
        ) if !multi
            && !name.starts_with("pthread_cond_")
            && !name.starts_with("pthread_barrier_") =>
        {
            m.call_before(n, "synth_before", &[roles[0].site]);
            m.call_after(n, "synth_after", &[roles[0].site]);
        }
        // An assumption over shared memory waits until its condition holds in memory (the
        // verifier's model): the schedule reaches it only where it does, so it is the event
        // alone. (The argument, computed from loads before the call, may be stale.)
        ("__VERIFIER_assume" | "assume_abort_if_not", [What::Assume]) if !multi => {
            m.replace_call(n, "__synth_await", &[roles[0].site]);
        }
        (_, [What::Access]) if !multi && roles.len() == 1 => {
            m.call_before(n, "synth_before", &[roles[0].site]);
            m.call_after(n, "synth_after", &[roles[0].site]);
        }
        // A timed wait: the schedule's next event of the thread says whether it is woken or
        // times out (either may be absent from the schedule); a read of the deadline from
        // shared memory is an event of its own, and so are the arms of its check where the
        // schedule branches on it.
        ("pthread_cond_timedwait", _)
            if sorted.contains(&What::Sync(SyncKind::CondWaitRelease))
                && sorted.iter().all(|w| {
                    matches!(
                        w,
                        What::Access
                            | What::ArmOther
                            | What::Sync(
                                SyncKind::CondWaitRelease
                                    | SyncKind::CondWaitWake
                                    | SyncKind::CondWaitTimeout
                                    | SyncKind::Lock
                            )
                    )
                }) =>
        {
            let rel = sync(SyncKind::CondWaitRelease).expect("site");
            let wake = sync(SyncKind::CondWaitWake).unwrap_or(none);
            let timeout = sync(SyncKind::CondWaitTimeout).unwrap_or(none);
            let lock = sync(SyncKind::Lock).unwrap_or(none);
            if roles.iter().any(|r| r.what == What::ArmOther && r.sub == 2) {
                return Err("the schedule branches on whether a timed wait times out".into());
            }
            let read = site(What::Access).unwrap_or(none);
            let arm = |sub: u32| {
                (roles.iter())
                    .find(|r| r.what == What::ArmOther && r.sub == sub)
                    .map_or(none, |r| r.site)
            };
            m.replace_call(
                n,
                "__synth_cond_timedwait",
                &[read, arm(0), arm(1), rel, wake, timeout, lock],
            );
        }
        // A timed lock or semaphore wait: the schedule's next event of the thread says
        // whether it takes the mutex (or decrements the value) or times out; a read of the
        // deadline from shared memory is an event of its own.
        (
            "pthread_mutex_timedlock"
            | "pthread_mutex_clocklock"
            | "sem_timedwait"
            | "sem_clockwait",
            _,
        ) if sorted.iter().all(|w| {
            matches!(
                w,
                What::Access
                    | What::Sync(
                        SyncKind::Lock | SyncKind::Atomic | SyncKind::SemWait | SyncKind::TimedOut
                    )
            )
        }) && (roles.iter()).filter(|r| r.what == What::Access).count() <= 1 =>
        {
            let read = site(What::Access).unwrap_or(none);
            let take = (sync(SyncKind::Lock).or(sync(SyncKind::Atomic)))
                .or(sync(SyncKind::SemWait))
                .unwrap_or(none);
            let timeout = sync(SyncKind::TimedOut).unwrap_or(none);
            let runtime = format!("__synth_{}", name.trim_start_matches("pthread_"));
            m.replace_call(n, &runtime, &[read, take, timeout]);
        }
        (_, _) if multi => {
            return Err(format!(
                "`{name}` accesses shared memory in several steps (sites {}); the schedule \
                 cannot be enforced around one call",
                list(roles)
            ))
        }
        (_, ks) => return Err(format!("`{name}` performs {ks:?}")),
    }
    Ok(())
}

/// One piece of code must be an event in every copy the IR made of it (inlined calls,
/// threads). The front end makes an instruction's accesses of a thread's memory events where
/// other copies of it access shared memory; one whose plain copies reach a scalar of the front
/// end's (not an object in memory) cannot be instrumented, since the code is shared.
fn check_shared_code(
    prog: &Program,
    m: &Module,
    by_instr: &BTreeMap<u32, Vec<Role>>,
    position: &dyn Fn(&Module, u32) -> String,
) -> Result<(), Error> {
    // Accesses of a thread's own memory, also those merged into the steps after them. (A
    // copy whose pointer reaches no object is none: it would be a memory error, which the
    // schedule's proof excludes.)
    let mut plain: HashSet<[u32; 2]> = prog.local_reads.iter().copied().collect();
    for th in &prog.threads {
        for tr in &th.transitions {
            if let (true, true, Some(at)) = (tr.memory_access, tr.events.is_empty(), tr.at) {
                if !reaches_nothing(tr) {
                    plain.insert(at);
                }
            }
        }
    }
    for (&n, roles) in by_instr {
        if roles
            .iter()
            .any(|r| r.what == What::Access && plain.contains(&[n, r.sub]))
        {
            return Err(Error::Unsupported {
                position: position(m, n),
                what: format!(
                    "an access to shared memory in some calls of its function and to a scalar \
                     of one thread's in others (site {}); the instrumented code is shared by both",
                    roles[0].site
                ),
            });
        }
    }
    Ok(())
}

/// Whether every access of `tr` through a pointer reaches no object (the points-to analysis
/// found none: the pointer is null or dangling), and it makes one.
fn reaches_nothing(tr: &verifier::ir::Transition) -> bool {
    let (reads, writes) = tr.accesses();
    let mut derefs = (reads.into_iter().chain(writes))
        .filter_map(|p| match p {
            Place::Deref { targets, .. } => Some(targets.is_empty()),
            Place::Var { .. } => None,
        })
        .peekable();
    derefs.peek().is_some() && derefs.all(|none| none)
}

/// The instructions one execution of which performs more than one site in sequence (a copy
/// of several shared cells, a condition wait, a barrier).
fn sequential_sites(prog: &Program, sched: &ProgramSchedule) -> HashSet<u32> {
    let mut visible: HashSet<(ThreadId, u32)> = HashSet::new();
    for s in &sched.sites.sites {
        for &(t, tr) in &s.instances {
            visible.insert((t, tr.0));
        }
    }
    let mut out = HashSet::new();
    for th in &prog.threads {
        for x in &th.transitions {
            let Some([n, _]) = x.at else { continue };
            if out.contains(&n) || !visible.contains(&(th.id, x.id.0)) {
                continue;
            }
            // (A creation or its refusal is the whole call: the next step of the instruction
            // is its next call, as in a loop whose other steps merged into it.)
            if x.starts.is_some() {
                continue;
            }
            // Transitions of the same instruction after `x`.
            let mut seen = HashSet::new();
            let mut work = vec![x.dst];
            'walk: while let Some(l) = work.pop() {
                if !seen.insert(l) {
                    continue;
                }
                for y in th.outgoing(l) {
                    if y.at.map(|a| a[0]) != Some(n) {
                        continue;
                    }
                    if visible.contains(&(th.id, y.id.0)) {
                        out.insert(n);
                        break 'walk;
                    }
                    work.push(y.dst);
                }
            }
        }
    }
    out
}

/// Who calls whom in `m`: (caller, callee) per direct call.
fn call_graph(m: &Module) -> Vec<(String, String)> {
    let mut calls = Vec::new();
    for n in (0..m.instruction_count()).filter(|&n| m.has(n)) {
        if let InstrKind::Call {
            callee: Some(callee),
            ..
        } = m.kind(n)
        {
            calls.push((m.function_of(n).to_string(), callee));
        }
    }
    calls
}

/// Adds the callers of the functions in `fs`, and theirs, to `fs`.
fn callers_too(fs: &mut HashSet<String>, calls: &[(String, String)]) {
    loop {
        let more: Vec<String> = (calls.iter())
            .filter(|(caller, callee)| fs.contains(callee) && !fs.contains(caller))
            .map(|(caller, _)| caller.clone())
            .collect();
        if more.is_empty() {
            break;
        }
        fs.extend(more);
    }
}

/// The refusal of a schedule that orders code of environment model `f` (`position`: the
/// program).
fn environment_refused(position: &str, f: &str) -> Error {
    Error::Unsupported {
        position: position.to_string(),
        what: format!(
            "the schedule orders code of the environment's model `{f}` (what the system \
             answers), which the built program asks the system for instead"
        ),
    }
}
