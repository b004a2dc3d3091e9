//! The front end: clang compiles the C program to LLVM IR ([`llvm`]), which is lowered to the
//! thread IR ([`crate::ir`]); [`finalize`] then completes the program (invisible steps merged
//! into the steps after them, [`merge`]).
//!
//! The program model it produces is the one of `DESIGN.md` ("Front end", "Program model",
//! "Memory model") and of the paper's section "Preliminaries" (seed 002). A construct the IR
//! cannot express yet is rejected with an error of the form `file:line:col: unsupported
//! <construct>`.

mod finalize;
pub mod llvm;
mod merge;

pub use llvm::{load, load_str};

use std::fmt;
use std::path::{Path, PathBuf};

/// Options of the front end.
#[derive(Clone, Debug)]
pub struct Options {
    /// `-I` directories passed to clang.
    pub include_dirs: Vec<PathBuf>,
    /// `-D` definitions passed to clang (`NAME` or `NAME=VALUE`).
    pub defines: Vec<String>,
    /// Most threads (including `main`) a program may create.
    pub max_threads: usize,
    /// Most threads that may run one start function, when set: a creation beyond it fails
    /// as one beyond [`Options::max_threads`] does. The program lowered so is a small scope in
    /// which to look for bugs ([`crate::ir::Program::error_needs_bound`] tells whether a bug
    /// found there is one of the program without the bounds).
    pub max_threads_per_function: Option<usize>,
    /// Most transitions the whole program may have after lowering.
    pub max_transitions: usize,
    /// Most calls of one function a thread may have active at once: recursion is inlined this
    /// deep, and a deeper call is a limit of the model the verdict names.
    pub max_recursion: usize,
    /// The program's other C files: their translation units are linked with the main file's
    /// into one module, as the C compiler links them.
    pub sources: Vec<PathBuf>,
    /// The command-line arguments `main` gets after the program's name.
    pub arguments: Vec<String>,
    /// When set, only these creations (a copy of `pthread_create` and how many of its
    /// creations the lowering met before, with the function the thread starts) get threads
    /// within the bound, [`Options::max_threads`] and [`Options::max_threads_per_function`];
    /// the others fail as a creation beyond the bound does. The front end sets it to favour
    /// the creations a run with [`Options::arguments`] makes ([`llvm::load`]).
    pub creations: Option<std::sync::Arc<std::collections::HashMap<Creation, String>>>,
}

/// An inlined copy of a `pthread_create`: the function of the thread that runs it, and the
/// LLVM instructions (`[number, 0]`, [`crate::ir::Transition::at`]) of the calls it is inlined
/// through and of the creation itself.
pub type CreationCopy = (String, Vec<[u32; 2]>);

/// A creation: its copy of `pthread_create`, and how many of that copy's creations the
/// lowering met before it.
pub type Creation = (CreationCopy, u32);

impl Default for Options {
    fn default() -> Self {
        Options {
            include_dirs: Vec::new(),
            defines: Vec::new(),
            max_threads: 64,
            max_threads_per_function: None,
            max_transitions: 2_000_000,
            max_recursion: 3,
            sources: Vec::new(),
            arguments: Vec::new(),
            creations: None,
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

/// The program's SHA-256: of the preprocessed source of each of its files, in order and each
/// ended by a NUL (one file is not two), without line markers and with the file's path (as
/// `__FILE__` spells it) replaced by its name, so that it covers `-D` definitions, included
/// headers and pragmas (what is compiled) but not how the paths were spelled.
pub fn program_hash(units: &[(String, &Path)]) -> String {
    // (`# 12 "file.c" 2` and `#line 12`; `#pragma pack(1)` and the like stay.)
    let marker = |line: &str| {
        line.strip_prefix("# ")
            .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
            || line.starts_with("#line")
    };
    let mut text = String::new();
    for (preprocessed, path) in units {
        let spelled = format!("\"{}\"", path.display());
        let name = format!(
            "\"{}\"",
            path.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        );
        for line in preprocessed.split_inclusive('\n') {
            if !marker(line) {
                text.push_str(&line.replace(&spelled, &name));
            }
        }
        text.push('\0');
    }
    sha256_hex(text.as_bytes())
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

/// Hex SHA-256 of bytes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    let d = sha2::Sha256::digest(bytes);
    d.iter().map(|b| format!("{b:02x}")).collect()
}
