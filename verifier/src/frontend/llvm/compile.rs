//! Compiles C to the LLVM module the front end lowers: clang with debug information, the
//! libc models linked in (a bitcode library compiled when synth is built, `build.rs`), and a
//! fixed, small pass list run in this process (`mem2reg`, so that locals whose address is
//! not taken become registers, then jumps threaded over blocks that only choose a way,
//! [`super::canonical`]); and the preprocessed source the
//! program's hash covers. Each run of a tool is a process of its own (tens of
//! milliseconds): the front end runs clang to preprocess and to compile each file, and
//! `llvm-link` to add the models.
//!
//! One LLVM major version is pinned (the one `llvm-ir` reads): [`LLVM_MAJOR`]. clang turns
//! some old-C warnings into errors that gcc accepts; they are downgraded to warnings, as gcc
//! does.

use super::super::{Error, Options};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The libc functions the front end models by their code, as one bitcode library: what the
/// library computes (`models.c`) and what the environment answers (`environment.c`),
/// compiled with the pinned clang when synth is built (`build.rs`).
const MODELS_LIBRARY: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/models-library.bc"));

/// The LLVM major version of clang, `opt` and the library the front end reads modules with.
pub const LLVM_MAJOR: u32 = 19;

/// The section of the libc models' definitions (`models.c`).
pub const MODEL_SECTION: &str = ".text.synth_model";

/// The section of the environment's models (`environment.c`: what the file system, the clock
/// and the network answer), which `synth build` never runs: the built program asks the
/// system.
pub const ENVIRONMENT_SECTION: &str = ".text.synth_environment";

/// Whether a function's section is one of the models' ([`MODEL_SECTION`],
/// [`ENVIRONMENT_SECTION`]).
pub fn is_model_section(section: Option<&str>) -> bool {
    matches!(section, Some(s) if s == MODEL_SECTION || s == ENVIRONMENT_SECTION)
}

/// Warnings that clang makes errors by default and gcc does not (C89 habits that real
/// programs still have).
const GCC_ACCEPTS: &[&str] = &[
    "-Wno-error=int-conversion",
    "-Wno-error=implicit-function-declaration",
    "-Wno-error=incompatible-function-pointer-types",
    "-Wno-error=implicit-int",
    "-Wno-error=return-type",
    "-Wno-error=incompatible-pointer-types",
];

/// The directory of the pinned LLVM's tools, or `None` to find them on the `PATH` by their
/// versioned names.
fn tool(name: &str) -> PathBuf {
    let dir = PathBuf::from(format!("/usr/lib/llvm-{LLVM_MAJOR}/bin"));
    let p = dir.join(name);
    if p.exists() {
        p
    } else {
        PathBuf::from(format!("{name}-{LLVM_MAJOR}"))
    }
}

/// The clang the front end runs (`$SYNTH_CLANG`, else the pinned version's). It must be of
/// the pinned version: the lowering reads its bitcode and its check numbers.
pub fn clang() -> PathBuf {
    std::env::var_os("SYNTH_CLANG")
        .map(PathBuf::from)
        .unwrap_or_else(|| tool("clang"))
}

/// The flags that select the dialect and the preprocessor's input (shared by the
/// preprocessing and the compilation, so that the hash covers what is compiled).
fn dialect_flags(cmd: &mut Command, opts: &Options) {
    cmd.arg("-std=gnu11");
    for d in &opts.include_dirs {
        cmd.arg("-I").arg(d);
    }
    for d in &opts.defines {
        cmd.arg(format!("-D{d}"));
    }
}

fn run(cmd: &mut Command, what: &str) -> Result<Vec<u8>, Error> {
    run_diagnosed(cmd, what).map(|(out, _)| out)
}

/// [`run`], with what the command wrote to its standard error (its warnings).
fn run_diagnosed(cmd: &mut Command, what: &str) -> Result<(Vec<u8>, String), Error> {
    let out = cmd.output().map_err(|e| Error::Compiler {
        message: format!(
            "cannot run `{}` ({what}): {e}; scripts/setup installs clang-{LLVM_MAJOR}",
            cmd.get_program().to_string_lossy()
        ),
    })?;
    if !out.status.success() {
        return Err(Error::Compiler {
            message: String::from_utf8_lossy(&out.stderr).into_owned(),
        });
    }
    Ok((
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}

/// The preprocessed source of `path` (for the program's hash).
pub fn preprocess(path: &Path, opts: &Options) -> Result<String, Error> {
    let mut cmd = Command::new(clang());
    cmd.arg("-E");
    dialect_flags(&mut cmd, opts);
    cmd.arg(path);
    let out = run(&mut cmd, "preprocessing")?;
    String::from_utf8(out).map_err(|_| Error::Compiler {
        message: "the preprocessed source is not UTF-8".into(),
    })
}

/// A translation unit of the program: its preprocessed text ([`preprocess`]) and its path.
pub type Unit<'a> = (String, &'a Path);

/// Compiles the program's files (`sources`: the main file first, then
/// [`Options::sources`]) to one module in `dir` after the fixed pass list; returns the
/// bitcode's path.
pub fn compile(sources: &[Unit], opts: &Options, dir: &Path) -> Result<PathBuf, Error> {
    let mut units = Vec::new();
    let mut commands = Vec::new();
    for (i, (_, p)) in sources.iter().enumerate() {
        let unit = dir.join(format!("unit{i}.bc"));
        commands.push(compile_unit(p, opts, &unit)?);
        units.push(unit);
    }
    use_inline_definitions(sources, &commands, &units)?;
    let raw = link_units(units, &dir.join("raw.bc"))?;
    link_models_and_optimise(raw, dir)
}

/// glibc's definition of `pthread_t` (in `bits/pthreadtypes.h`), and what
/// [`compile_opaque_ids`] puts in its place: a pointer to a structure no one defines, which C
/// lets a program copy, store, pass, compare for equality and test against null, and not
/// compute with (arithmetic, order, indexing and `switch` are errors; a conversion to an
/// integer is a `ptrtoint` in the module).
const PTHREAD_T: (&str, &str) = (
    "typedef unsigned long int pthread_t;",
    "typedef struct synth_opaque_thread *pthread_t;",
);

/// The structure [`PTHREAD_T`] points to.
const OPAQUE: &str = "synth_opaque_thread";

/// Compiles the program's files as [`compile`] does, but with `pthread_t` an opaque pointer
/// ([`PTHREAD_T`], in a copy of the C library's header in `dir` searched before the
/// program's include directories and the system's), to one module after the fixed passes without
/// the models: where the program computes with a thread id, that module converts a pointer
/// to an integer or compares pointers by order ([`super::numbering`]), or the program does
/// not compile so. `Err` with why not (clang's first error, or a C library whose
/// `pthread_t` is not glibc's).
pub fn compile_opaque_ids(sources: &[Unit], opts: &Options, dir: &Path) -> Result<PathBuf, String> {
    let header = pthread_types_header(sources).ok_or("the C library's `pthread_t` is not found")?;
    let text =
        std::fs::read_to_string(&header).map_err(|e| format!("{}: {e}", header.display()))?;
    if !text.contains(PTHREAD_T.0) {
        return Err("the C library's `pthread_t` is not glibc's".into());
    }
    let include = dir.join("opaque-ids");
    let bits = include.join("bits");
    std::fs::create_dir_all(&bits)
        .and_then(|()| {
            std::fs::write(
                bits.join("pthreadtypes.h"),
                text.replace(PTHREAD_T.0, PTHREAD_T.1),
            )
        })
        .map_err(|e| format!("{}: {e}", include.display()))?;
    // The first error, or warning about the opaque type (a conversion to or from an integer,
    // an id passed where an integer is wanted, compared with an integer, ...), without the
    // type's made-up name. (Not a format's or a comparison's with an integer, which the
    // module shows: printed, an id's number decides nothing, and compared with a number in
    // the zero page, it is unequal in every numbering.)
    let said = |text: &str| {
        text.lines()
            .find(|l| {
                let shown = [
                    "[-Wformat",
                    "[-Wpointer-integer-compare]",
                    "[-Wpointer-to-int-cast]",
                ];
                l.contains(" error: ")
                    || l.contains(OPAQUE)
                        && l.contains(" warning: ")
                        && !shown.iter().any(|w| l.contains(w))
            })
            .map(without_opaque_name)
    };
    let failed = |e: Error| match e {
        Error::Compiler { message } => {
            said(&message).unwrap_or(message.lines().next().unwrap_or_default().into())
        }
        e => e.to_string(),
    };
    let mut units = Vec::new();
    for (i, (_, p)) in sources.iter().enumerate() {
        let unit = dir.join(format!("opaque-unit{i}.bc"));
        let (_, diagnostics) = compile_unit_with(p, opts, &unit, Some(&include)).map_err(failed)?;
        if let Some(d) = said(&diagnostics) {
            return Err(d);
        }
        units.push(unit);
    }
    let raw = link_units(units, &dir.join("opaque-raw.bc")).map_err(failed)?;
    let out = dir.join("opaque-passes.bc");
    super::canonical::fixed_passes(&raw, &out)?;
    Ok(out)
}

/// The program's compiled `units` linked into one module (at `out` where there are several),
/// as the C compiler links translation units.
fn link_units(mut units: Vec<PathBuf>, out: &Path) -> Result<PathBuf, Error> {
    if units.len() == 1 {
        return Ok(units.pop().expect("one unit"));
    }
    let mut cmd = Command::new(tool("llvm-link"));
    cmd.args(&units).arg("-o").arg(out);
    run(&mut cmd, "linking the program's files")?;
    Ok(out.to_path_buf())
}

/// Diagnostic `line` without the `(aka 'struct synth_opaque_thread *')`s clang adds to
/// `pthread_t`.
fn without_opaque_name(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(at) = rest.find(" (aka '") {
        let end = rest[at..].find("')").map(|e| at + e + 2);
        match end {
            Some(end) if rest[at..end].contains(OPAQUE) => {
                out.push_str(&rest[..at]);
                rest = &rest[end..];
            }
            _ => {
                out.push_str(&rest[..at + 1]);
                rest = &rest[at + 1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The C library's header that defines `pthread_t` (`bits/pthreadtypes.h`): where the
/// program's preprocessed text includes it, the one it includes (its line markers name it;
/// a copy in one of the program's include directories, then), and otherwise the one clang
/// finds from `<pthread.h>`. (A marker's name with characters clang escapes names no file
/// as written: then clang's.)
fn pthread_types_header(sources: &[Unit]) -> Option<PathBuf> {
    use std::io::Write;
    let named = sources.iter().find_map(|(text, _)| {
        text.lines().find_map(|line| {
            let file = line.strip_prefix("# ")?.split('"').nth(1)?;
            let path = PathBuf::from(file);
            (file.ends_with("/bits/pthreadtypes.h") && path.is_file()).then_some(path)
        })
    });
    if named.is_some() {
        return named;
    }
    let mut child = Command::new(clang())
        .args(["-M", "-x", "c", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .ok()?;
    child
        .stdin
        .take()?
        .write_all(b"#include <pthread.h>\n")
        .ok()?;
    let out = child.wait_with_output().ok()?;
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .find(|w| w.ends_with("/bits/pthreadtypes.h"))
        .map(PathBuf::from)
}

/// Compiles one translation unit to bitcode at `out`; returns the command that did.
fn compile_unit(path: &Path, opts: &Options, out: &Path) -> Result<Command, Error> {
    compile_unit_with(path, opts, out, None).map(|(cmd, _)| cmd)
}

/// [`compile_unit`], with headers in `first` (if any) found before any other (the program's
/// `-I` directories included: one of them may hold a copy of the same header) and then its
/// warnings kept; returns the command and what clang said.
fn compile_unit_with(
    path: &Path,
    opts: &Options,
    out: &Path,
    first: Option<&Path>,
) -> Result<(Command, String), Error> {
    let mut cmd = Command::new(clang());
    if let Some(dir) = first {
        // (The first `-I` directory is searched before the others and the system's.)
        cmd.arg("-I").arg(dir);
    }
    cmd.args([
        "-c",
        "-emit-llvm",
        "-g",
        "-O0",
        "-Xclang",
        "-disable-O0-optnone",
    ])
    .args([
        "-fno-discard-value-names",
        "-fno-stack-protector",
        "-pthread",
        // Checks of undefined behaviour the IR no longer shows, each a call of
        // `llvm.ubsantrap` where it happens: LLVM's `shl` does not say whether C's operand
        // was signed; an index past an array inside a struct stays inside the struct's
        // object; an unused variable-length array leaves no `alloca` to check.
        "-fsanitize=shift-base,array-bounds,vla-bound",
        "-fsanitize-trap=shift-base,array-bounds,vla-bound",
    ])
    .args(GCC_ACCEPTS);
    // Warnings are the compiler's business (but for the check of `first`'s); errors still
    // stop the front end.
    if first.is_none() {
        cmd.arg("-w");
    }
    dialect_flags(&mut cmd, opts);
    cmd.arg("-o").arg(out).arg(path);
    let diagnostics = match run_diagnosed(&mut cmd, "compiling") {
        Ok((_, d)) => d,
        // clang rejects a `main` whose parameters have other types than the standard's, which
        // gcc accepts with a warning; a freestanding compilation does not check `main`.
        Err(Error::Compiler { message }) if message.contains("parameter of 'main'") => {
            cmd.args(["-ffreestanding", "-fbuiltin"]);
            run_diagnosed(&mut cmd, "compiling")?.1
        }
        Err(e) => return Err(e),
    };
    Ok((cmd, diagnostics))
}

/// Gives the functions the program calls and a file defines only `inline` (C99's inline
/// definition, which provides no external one) that definition. A call may use the inline
/// definition or an external one (C11 6.7.4p7); where no file has an external one, the
/// program as written does not link. Under gcc's gnu89 semantics (`-fgnu89-inline`) the
/// inline definition is the external one: a file that uses `inline` outside system headers
/// is compiled so instead where that defines a function the program calls and no file
/// defines, every function it defined as C11 (C11's `extern inline` is not external under
/// gnu89), and nothing another file defines.
fn use_inline_definitions(
    sources: &[Unit],
    commands: &[Command],
    units: &[PathBuf],
) -> Result<(), Error> {
    use std::collections::HashSet;
    let mentions: Vec<bool> = sources.iter().map(|(t, _)| mentions_inline(t)).collect();
    if !mentions.iter().any(|m| *m) {
        return Ok(());
    }
    let mut defined = Vec::new();
    let mut undefined: HashSet<String> = HashSet::new();
    for u in units {
        defined.push(symbols(u, "--defined-only")?);
        undefined.extend(symbols(u, "--undefined-only")?);
    }
    for d in &defined {
        undefined.retain(|f| !d.contains(f));
    }
    for (i, unit) in units.iter().enumerate() {
        if !mentions[i] {
            continue;
        }
        let gnu89 = unit.with_extension("gnu89.bc");
        let cmd = &commands[i];
        let mut args: Vec<std::ffi::OsString> = cmd.get_args().map(|a| a.to_os_string()).collect();
        if let Some(k) = args.iter().position(|a| a == "-o") {
            args[k + 1] = gnu89.clone().into_os_string();
        }
        let mut again = Command::new(cmd.get_program());
        again.arg("-fgnu89-inline").args(args);
        if run(&mut again, "compiling").is_err() {
            continue;
        }
        let now = symbols(&gnu89, "--defined-only")?;
        let added: HashSet<&String> = now.difference(&defined[i]).collect();
        let elsewhere = (defined.iter().enumerate())
            .any(|(j, d)| j != i && added.iter().any(|f| d.contains(*f)));
        let gains = added.iter().any(|f| undefined.contains(*f));
        if gains && !elsewhere && defined[i].is_subset(&now) {
            std::fs::rename(&gnu89, unit).map_err(|e| Error::Io {
                path: unit.display().to_string(),
                message: e.to_string(),
            })?;
            undefined.retain(|f| !now.contains(f));
            defined[i] = now;
        }
    }
    Ok(())
}

/// Whether a file's preprocessed `text` ([`preprocess`]) says `inline` (or `__inline`,
/// `__inline__`) outside system headers.
fn mentions_inline(text: &str) -> bool {
    let mut system = false;
    for line in text.lines() {
        // A line marker: `# N "file" FLAGS`, flag 3 for a system header.
        if let Some(marker) = line.strip_prefix("# ") {
            if marker.starts_with(|c: char| c.is_ascii_digit()) {
                system = marker
                    .rsplit('"')
                    .next()
                    .is_some_and(|flags| flags.split_whitespace().any(|f| f == "3"));
                continue;
            }
        }
        if !system
            && line
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .any(|w| matches!(w, "inline" | "__inline" | "__inline__"))
        {
            return true;
        }
    }
    false
}

/// The symbols `llvm-nm` lists of the bitcode at `path` with `filter`.
fn symbols(path: &Path, filter: &str) -> Result<std::collections::HashSet<String>, Error> {
    let mut cmd = Command::new(tool("llvm-nm"));
    cmd.args([filter, "--format=just-symbols"]).arg(path);
    let out = run(&mut cmd, "listing the unit's symbols")?;
    Ok(String::from_utf8_lossy(&out)
        .lines()
        .map(str::to_string)
        .collect())
}

/// Links the libc models the module `raw` calls and runs the fixed pass list.
fn link_models_and_optimise(raw: PathBuf, dir: &Path) -> Result<PathBuf, Error> {
    // The libc models the program calls, linked weakly (the program's definitions win):
    // one library, so that the environment's calls of the models resolve too.
    let library = dir.join("models-library.bc");
    std::fs::write(&library, MODELS_LIBRARY).map_err(|e| Error::Io {
        path: library.display().to_string(),
        message: e.to_string(),
    })?;
    let linked = dir.join("with-models.bc");
    let mut cmd = Command::new(tool("llvm-link"));
    cmd.arg(&raw)
        .arg("--only-needed")
        .arg(&library)
        .arg("-o")
        .arg(&linked);
    run(&mut cmd, "linking the libc models")?;
    let out = dir.join("module.bc");
    super::canonical::canonicalize(&linked, &out).map_err(|e| Error::Compiler {
        message: format!("cannot rewrite the LLVM module: {e}"),
    })?;
    Ok(out)
}
