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
    let (mut program, names) = lower::lower(&module, opts, &main_file)?;
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

/// Compiles and lowers C source text given in memory (written to a scratch file named
/// `name`). Used by tests.
pub fn load_str(name: &str, text: &str, opts: &Options) -> Result<Program, Error> {
    super::with_source_file(name, text, |path| load(path, opts))
}
