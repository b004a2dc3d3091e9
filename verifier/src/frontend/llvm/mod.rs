//! The clang/LLVM front end: clang compiles the C program to an LLVM module with debug
//! information ([`compile`]), `llvm-ir` reads it, and [`lower`] turns it into the thread IR
//! ([`crate::ir`]), which the finishing pass completes as for every front end (points-to,
//! shared variables, memory events).
//!
//! clang owns C's semantics here (evaluation order, conversions, layout, GNU extensions);
//! the memory model is the one of `DESIGN.md` ("Memory model"): objects flattened into
//! variables placed at their byte offsets, pointers as addresses into them. What the IR
//! cannot express yet is reported as `file:line:col: unsupported <construct>`.

mod aggregates;
mod asm;
mod awaits;
mod calls;
mod canonical;
pub mod compile;
pub mod edit;
mod escape;
pub mod format;
mod heap;
mod jumps;
mod layout;
mod loops;
mod lower;
mod numbering;
mod pointers;

use super::{program_hash, Error, Options};
use crate::ir::{Bitcode, Program, SourceFile, Span};
use std::path::Path;

pub use compile::LLVM_MAJOR;

/// Compiles, reads and lowers the C file at `path` (with the program's other files,
/// [`Options::sources`]).
pub fn load(path: &Path, opts: &Options) -> Result<Program, Error> {
    let mut units = Vec::new();
    for p in std::iter::once(path).chain(opts.sources.iter().map(|p| p.as_path())) {
        std::fs::metadata(p).map_err(|e| Error::Io {
            path: p.display().to_string(),
            message: e.to_string(),
        })?;
        units.push((compile::preprocess(p, opts)?, p));
    }
    let hash = program_hash(&units);
    // What the compilation of the files depends on beyond their preprocessed text: their
    // paths and lines (the positions reported), and the directories headers come from.
    let mut compiled = format!("{:?} {:?}", opts.include_dirs, opts.defines).into_bytes();
    for (_, p) in &units {
        compiled.extend(p.display().to_string().bytes().chain([0]));
        compiled.extend(std::fs::read(p).unwrap_or_default());
        compiled.push(0);
    }
    let compiled = super::sha256_hex(&compiled);
    let dir = super::scratch_dir("synth-llvm")?;
    let r = load_in(&units, opts, &dir, hash, &compiled);
    let _ = std::fs::remove_dir_all(&dir);
    r
}

fn load_in(
    units: &[compile::Unit],
    opts: &Options,
    dir: &Path,
    hash: String,
    compiled: &str,
) -> Result<Program, Error> {
    let path = units[0].1;
    let bc = compile::compile(units, opts, dir)?;
    let module = llvm_ir::Module::from_bc_path(&bc).map_err(|e| Error::Compiler {
        message: format!("cannot read the LLVM module clang wrote: {e}"),
    })?;
    let main_file = path.display().to_string();
    let lowered = |opts: &Options| -> Result<Lowered, Error> {
        let (mut program, names, creations) = lower::lower(&module, opts, &main_file)?;
        let position = |s: Option<&Span>| match s {
            Some(s) => format!(
                "{}:{}:{}",
                names
                    .get(s.file as usize)
                    .map(String::as_str)
                    .unwrap_or("?"),
                s.line,
                s.col
            ),
            None => main_file.clone(),
        };
        super::finalize::finalize(&mut program, &position, opts, true)?;
        Ok((program, names, creations))
    };
    let best = favour_run_creations(lowered(opts)?, opts, &lowered);
    let (mut program, names, _) = best;
    if program.observes_numbering.is_none() {
        if let Some(o) = thread_id_reads(compiled, || {
            numbering::reads_thread_ids(&module, units, opts, dir)
        }) {
            program.warnings.push(numbering::warning(&o));
            program.observes_numbering = Some(o.to_string());
        }
    }
    program.sha256 = hash;
    let bytes = std::fs::read(&bc).map_err(|e| Error::Io {
        path: bc.display().to_string(),
        message: e.to_string(),
    })?;
    program.bitcode = Some(std::sync::Arc::new(Bitcode {
        bytes,
        functions: lower::function_sizes(&module),
    }));
    program.files = names
        .iter()
        .map(|p| SourceFile {
            path: p.clone(),
            lines: std::fs::read_to_string(p)
                .map(|t| t.lines().map(str::to_string).collect())
                .unwrap_or_default(),
        })
        .collect();
    Ok(program)
}

/// What [`numbering::reads_thread_ids`] found in each program this process has checked, by
/// what its compilation depends on (the files' paths and bytes, the include directories and
/// definitions). The check compiles the program once more, and its result does not depend
/// on the thread bound: the lowerings of one program in its small scopes
/// ([`crate::scope`]) make that compilation once.
static THREAD_ID_READS: std::sync::LazyLock<ThreadIdReads> =
    std::sync::LazyLock::new(Default::default);

/// A program's compilation and what [`numbering::reads_thread_ids`] found in it.
type ThreadIdReads =
    std::sync::Mutex<std::collections::HashMap<String, Option<numbering::Observation>>>;

/// The result of `check` for the program whose compilation `key` names, computed once per
/// process.
fn thread_id_reads(
    key: &str,
    check: impl FnOnce() -> Option<numbering::Observation>,
) -> Option<numbering::Observation> {
    if let Some(r) = THREAD_ID_READS
        .lock()
        .ok()
        .and_then(|m| m.get(key).cloned())
    {
        return r;
    }
    // (Two lowerings of one program at once may both check; they agree.)
    let r = check();
    if let Ok(mut m) = THREAD_ID_READS.lock() {
        m.insert(key.to_string(), r.clone());
    }
    r
}

/// A lowered program, its source files, and its creations ([`super::Creation`]).
type Lowered = (Program, Vec<String>, Vec<super::Creation>);

/// Most lowerings of one program after the first that favour the creations of a run
/// ([`favour_run_creations`]).
const MAX_LOWERINGS: usize = 8;

/// The program lowered with the bound's threads given to the creations a run makes (and,
/// in a small scope, [`Options::max_threads_per_function`]'s threads of each start function).
///
/// The front end gives each of the bound's threads to a creation as it lowers it, so a loop
/// of creations whose count is known only at run time takes every thread the bound allows,
/// and a creation lowered after it (another loop, or the same loop inlined into another
/// caller, or the loop's code after it exited at another count) none, also where the run
/// takes that path only. Which creations get threads is the front end's choice (the built
/// program follows the verified one's), so it may favour the ones a run makes (with the
/// program's arguments, [`Options::arguments`], inputs 0, the first thread that can move
/// moving). A creation is named by its copy of `pthread_create` and how many of that copy's
/// creations the lowering met before it; where a creation that fails in one lowering
/// succeeds in the next, what follows it may be lowered in other copies, so each lowering
/// favours the last run's creations, until a run meets no refusal, a set of creations comes
/// again, or a lowering fails. Of the lowerings, the one whose run meets the fewest refusals.
fn favour_run_creations(
    first: Lowered,
    opts: &Options,
    lowered: &dyn Fn(&Options) -> Result<Lowered, Error>,
) -> Lowered {
    let mut seen = Vec::new();
    let mut best: Option<(usize, Lowered)> = None;
    let mut current = first;
    for round in 0..=MAX_LOWERINGS {
        let run = run_creations(&current.0, opts.max_threads, &current.2);
        if best.as_ref().is_none_or(|(r, _)| run.refusals < *r) {
            best = Some((run.refusals, current));
        }
        let Some(made) = run.favour else {
            break;
        };
        if round == MAX_LOWERINGS || seen.contains(&made) {
            break;
        }
        let again = Options {
            creations: Some(std::sync::Arc::new(made.clone())),
            ..opts.clone()
        };
        seen.push(made);
        match lowered(&again) {
            Ok(l) => current = l,
            Err(_) => break,
        }
    }
    best.expect("the first lowering is run").1
}

/// What a run of a lowered program says of its creations.
struct RunCreations {
    /// The creations it refuses.
    refusals: usize,
    /// The creations it makes, where another lowering may give them more threads: it met a
    /// refusal while threads went to creations it does not make, or are left over.
    favour: Option<std::collections::HashMap<super::Creation, String>>,
}

/// [`RunCreations`] of `program`.
fn run_creations(
    program: &Program,
    max_threads: usize,
    creations: &[super::Creation],
) -> RunCreations {
    if program.thread_bound.is_none() {
        return RunCreations {
            refusals: 0,
            favour: None,
        };
    }
    let (run, _) = crate::interp::run(program, &mut crate::interp::FirstOracle, 200_000);
    let mut refusals = 0;
    let mut made = std::collections::HashMap::new();
    for st in &run.steps {
        let tr = program.thread(st.thread).transition(st.transition);
        if let Some(start) = &tr.starts {
            refusals += usize::from(tr.refusal.is_some());
            made.insert(
                creations[start.creation as usize].clone(),
                start.function.clone(),
            );
        }
    }
    let wasted = (program.threads.iter())
        .flat_map(|t| &t.transitions)
        .filter(|tr| tr.spawned().is_some())
        .filter_map(|tr| tr.starts.as_ref())
        .any(|s| !made.contains_key(&creations[s.creation as usize]));
    let spare = program.threads.len() < max_threads;
    RunCreations {
        refusals,
        favour: (refusals > 0 && (wasted || spare)).then_some(made),
    }
}

/// Compiles and lowers C source text given in memory (written to a scratch file named
/// `name`). Used by tests.
pub fn load_str(name: &str, text: &str, opts: &Options) -> Result<Program, Error> {
    super::with_source_file(name, text, |path| load(path, opts))
}
