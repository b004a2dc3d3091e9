//! The C front end: preprocess with the system C compiler (`cc -E`), parse with `lang-c`, and
//! lower the translation unit to the thread IR ([`crate::ir`]).
//!
//! The program model it produces is the one of `DESIGN.md` ("Program model") and of the paper's
//! section "Preliminaries" (seed 002). What is accepted, and what each construct means, is
//! documented on `lower`; anything else is rejected with an error of the form
//! `file:line:col: unsupported <construct>`.

mod ctypes;
mod finalize;
pub mod llvm;
mod lower;
mod merge;
mod source;

pub use lower::{ident_of, is_assignment_op};
pub use source::SourceMap;

use crate::ir::Program;
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Options of the front end.
#[derive(Clone, Debug)]
pub struct Options {
    /// `-I` directories passed to the preprocessor.
    pub include_dirs: Vec<PathBuf>,
    /// `-D` definitions passed to the preprocessor (`NAME` or `NAME=VALUE`).
    pub defines: Vec<String>,
    /// The C compiler used as preprocessor.
    pub cc: String,
    /// Most threads (including `main`) a program may create.
    pub max_threads: usize,
    /// Most transitions the whole program may have after lowering.
    pub max_transitions: usize,
    /// The command-line arguments `main` gets after the program's name (LLVM front end).
    pub arguments: Vec<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            include_dirs: Vec::new(),
            defines: Vec::new(),
            cc: std::env::var("CC").unwrap_or_else(|_| "cc".to_string()),
            max_threads: 64,
            max_transitions: 2_000_000,
            arguments: Vec::new(),
        }
    }
}

/// Why a program could not be lowered. Every variant is a user error (exit code 2).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The source file could not be read.
    Io {
        /// The file.
        path: String,
        /// What went wrong.
        message: String,
    },
    /// The preprocessor failed; `message` is what it printed.
    Preprocessor {
        /// The compiler's diagnostics.
        message: String,
    },
    /// The parser rejected the preprocessed source.
    Syntax {
        /// `file:line:col`.
        position: String,
        /// What the parser expected.
        message: String,
    },
    /// The C compiler (clang) rejected the program; `message` is its diagnostics.
    Compiler {
        /// The compiler's diagnostics.
        message: String,
    },
    /// A construct the IR cannot express.
    Unsupported {
        /// `file:line:col`.
        position: String,
        /// The construct, e.g. `recursion (f calls f)`.
        construct: String,
    },
    /// A program that is not valid C in a way the compiler would reject (unknown identifier,
    /// wrong number of arguments, ...).
    Invalid {
        /// `file:line:col`.
        position: String,
        /// What is wrong.
        message: String,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io { path, message } => write!(f, "{path}: cannot read: {message}"),
            Error::Preprocessor { message } => {
                write!(f, "preprocessor failed:\n{}", message.trim_end())
            }
            Error::Syntax { position, message } => write!(f, "{position}: syntax error: {message}"),
            Error::Compiler { message } => write!(f, "{}", message.trim_end()),
            Error::Unsupported {
                position,
                construct,
            } => write!(f, "{position}: unsupported {construct}"),
            Error::Invalid { position, message } => write!(f, "{position}: error: {message}"),
        }
    }
}

impl std::error::Error for Error {}

/// Preprocesses, parses and lowers the C file at `path`.
pub fn load(path: &Path, opts: &Options) -> Result<Program, Error> {
    load_preprocessed(path, opts).map(|(p, _)| p)
}

/// [`load`], also returning the preprocessed source, to which [`crate::ir::Transition::at`]
/// offsets point.
pub fn load_preprocessed(path: &Path, opts: &Options) -> Result<(Program, String), Error> {
    std::fs::metadata(path).map_err(|e| Error::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    })?;
    let pre = preprocess(path, opts)?;
    let map = SourceMap::new(&pre, path);
    let config = lang_c::driver::Config::with_gcc();
    let parsed = lang_c::driver::parse_preprocessed(&config, pre.clone()).map_err(|e| {
        let mut expected: Vec<_> = e.expected.iter().copied().collect();
        expected.sort_unstable();
        Error::Syntax {
            position: map.position_of_offset(e.offset),
            message: format!("expected one of {}", expected.join(", ")),
        }
    })?;
    let mut program = lower::lower(&parsed.unit, &map, opts)?;
    let position = |s: Option<&crate::ir::Span>| match s {
        Some(s) => map.position(s),
        None => map.position_of_offset(0),
    };
    finalize::finalize(&mut program, &position, opts, false)?;
    program.sha256 = program_hash(&pre, path);
    program.files = map.files();
    Ok((program, pre))
}

/// The program's SHA-256: of the preprocessed source without its line markers and with the
/// path of `main` (as `__FILE__` spells it) replaced by its file name, so that it covers `-D`
/// definitions and included headers (what is compiled) but not how the file's path was
/// spelled.
pub fn program_hash(preprocessed: &str, main: &Path) -> String {
    let spelled = format!("\"{}\"", main.display());
    let name = format!(
        "\"{}\"",
        main.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    );
    let mut text = String::with_capacity(preprocessed.len());
    for line in preprocessed.split_inclusive('\n') {
        if !line.starts_with('#') {
            text.push_str(&line.replace(&spelled, &name));
        }
    }
    sha256_hex(text.as_bytes())
}

/// Lowers C source text given in memory (the preprocessor still runs). Used by tests.
pub fn load_str(name: &str, text: &str, opts: &Options) -> Result<Program, Error> {
    with_source_file(name, text, |path| load(path, opts))
}

/// Writes `text` to a file named `name` in a fresh scratch directory, runs `f` on its path and
/// removes the directory.
pub(crate) fn with_source_file<T>(
    name: &str,
    text: &str,
    f: impl FnOnce(&Path) -> Result<T, Error>,
) -> Result<T, Error> {
    let dir = scratch_dir("synth-src")?;
    let path = dir.join(name);
    let r = std::fs::write(&path, text)
        .map_err(|e| Error::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })
        .and_then(|_| f(&path));
    let _ = std::fs::remove_dir_all(&dir);
    r
}

/// A fresh directory under the system's temporary directory, named from `prefix`.
pub(crate) fn scratch_dir(prefix: &str) -> Result<PathBuf, Error> {
    let dir = std::env::temp_dir().join(format!(
        "{prefix}-{}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).map_err(|e| Error::Io {
        path: dir.display().to_string(),
        message: e.to_string(),
    })?;
    Ok(dir)
}

static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

fn preprocess(path: &Path, opts: &Options) -> Result<String, Error> {
    let mut cmd = Command::new(&opts.cc);
    cmd.arg("-E").arg("-std=gnu11");
    for d in &opts.include_dirs {
        cmd.arg("-I").arg(d);
    }
    for d in &opts.defines {
        cmd.arg(format!("-D{d}"));
    }
    cmd.arg(path);
    let out = cmd.output().map_err(|e| Error::Preprocessor {
        message: format!("cannot run `{}`: {e}", opts.cc),
    })?;
    if !out.status.success() {
        return Err(Error::Preprocessor {
            message: String::from_utf8_lossy(&out.stderr).into_owned(),
        });
    }
    String::from_utf8(out.stdout).map_err(|_| Error::Preprocessor {
        message: "the preprocessed source is not UTF-8".into(),
    })
}

/// Hex SHA-256 of bytes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    let d = sha2::Sha256::digest(bytes);
    d.iter().map(|b| format!("{b:02x}")).collect()
}
