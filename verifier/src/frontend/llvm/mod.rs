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
mod awaits;
mod calls;
mod canonical;
pub mod compile;
pub mod edit;
mod escape;
pub mod format;
mod heap;
mod layout;
mod loops;
mod lower;
mod numbering;

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
    let dir = super::scratch_dir("synth-llvm")?;
    let r = load_in(path, opts, &dir, hash);
    let _ = std::fs::remove_dir_all(&dir);
    r
}

fn load_in(path: &Path, opts: &Options, dir: &Path, hash: String) -> Result<Program, Error> {
    let bc = compile::compile(path, opts, dir)?;
    let module = llvm_ir::Module::from_bc_path(&bc).map_err(|e| Error::Compiler {
        message: format!("cannot read the LLVM module clang wrote: {e}"),
    })?;
    let main_file = path.display().to_string();
    let (mut program, names, mut creations) = lower::lower(&module, opts, &main_file)?;
    let finish = |program: &mut Program| {
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
        super::finalize::finalize(program, &position, opts, true)
    };
    finish(&mut program)?;
    // The creations a run makes get the bound's threads, until a run meets no refusal or
    // makes the creations favoured already.
    let mut favoured = std::collections::HashSet::new();
    for _ in 0..MAX_LOWERINGS {
        if opts.max_threads_per_function.is_some() {
            break;
        }
        let Some(made) = run_creations(&program, opts.max_threads, &creations, &favoured) else {
            break;
        };
        favoured = made;
        let opts = Options {
            creations: Some(std::sync::Arc::new(favoured.clone())),
            ..opts.clone()
        };
        let (mut again, _, made) = lower::lower(&module, &opts, &main_file)?;
        finish(&mut again)?;
        (program, creations) = (again, made);
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

/// Most lowerings of one program that favour the creations of a run ([`run_creations`]).
const MAX_LOWERINGS: usize = 8;

/// The creations a run of the program (with its arguments, [`Options::arguments`], inputs 0,
/// the first thread that can move moving) makes, where the run meets the thread bound while
/// threads went to creations it does not make, and they are not the `favoured` ones already.
///
/// The front end gives each of the bound's threads to a creation as it lowers it, so a loop
/// of creations whose count is known only at run time takes every thread the bound allows,
/// and a creation lowered after it (another loop, or the same loop inlined into another
/// caller, or the loop's code after it exited at another count) none, also where the run
/// takes that path only. Which creations get threads is the front end's choice (the built
/// program follows the verified one's), so it may favour the ones a run makes. A creation is
/// named by its copy of `pthread_create` and how many of that copy's creations the lowering
/// met before it; where a creation that fails in one lowering succeeds in the next, what
/// follows it may be lowered in other copies, so each run's creations replace the last.
fn run_creations(
    program: &Program,
    max_threads: usize,
    creations: &[super::Creation],
    favoured: &std::collections::HashSet<super::Creation>,
) -> Option<std::collections::HashSet<super::Creation>> {
    program.thread_bound?;
    let (run, _) = crate::interp::run(program, &mut crate::interp::FirstOracle, 200_000);
    let mut refused = false;
    let mut made = std::collections::HashSet::new();
    for st in &run.steps {
        let tr = program.thread(st.thread).transition(st.transition);
        if let Some(start) = &tr.starts {
            refused |= tr.refusal.is_some();
            made.insert(creations[start.creation as usize].clone());
        }
    }
    // Where every creation that has a thread is one the run makes and the bound has none
    // left, no lowering does better.
    let wasted = (program.threads.iter())
        .flat_map(|t| &t.transitions)
        .filter(|tr| tr.spawned().is_some())
        .filter_map(|tr| tr.starts.as_ref())
        .any(|s| !made.contains(&creations[s.creation as usize]));
    let spare = program.threads.len() < max_threads;
    (refused && (wasted || spare) && made != *favoured).then_some(made)
}

/// Compiles and lowers C source text given in memory (written to a scratch file named
/// `name`). Used by tests.
pub fn load_str(name: &str, text: &str, opts: &Options) -> Result<Program, Error> {
    super::with_source_file(name, text, |path| load(path, opts))
}
