//! `synth`: the command-line front of the libraries. It parses flags, calls the libraries and
//! maps results to exit codes: 0 success (`verify`: safe; `check-ivr`: accepted), 1 a bug was
//! found (`run` reached an error or a deadlock; `verify`: partially safe, unsafe, or a bug in
//! complete mode; `check-ivr`: rejected), 2 bad input (unreadable file, preprocessor error,
//! syntax error, unsupported construct, bad flags), 3 internal error, 4 `verify` ended with
//! the verdict unknown (`synth prog.c` / `schedule`: 0 schedule written, 1 no safe schedule
//! exists or the IVR was rejected, 4 no safe IVR within the budget; `explore`: 0 no bug and
//! the search complete, 1 a bug, 4 no bug within the limits).

mod build_cmd;
mod explore_cmd;
mod limit;
mod schedule_cmd;

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use verifier::interp::{self, Outcome, RandomOracle, Replay};
use verifier::ir::{ThreadId, TransId};

/// The allocator: the exploration and the verifier allocate many small and mid-sized buffers
/// (states, variants, trie nodes), where mimalloc costs fewer instructions than the system's.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "synth",
    version,
    about = "Run multithreaded C programs safely from incomplete verification results"
)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// `synth prog.c`: verify to the first safe IVR and write the schedule (as `synth schedule`).
    /// This field defines those arguments; `main` reads them with
    /// `ScheduleArgs::from_arg_matches`, since clap leaves a flattened `Option` holding a
    /// positional argument `None`.
    #[command(flatten)]
    schedule: Option<schedule_cmd::ScheduleArgs>,
}

#[derive(Subcommand)]
enum Command {
    /// Lower a C program to the thread IR and print a summary (or the whole IR as JSON).
    Parse {
        #[command(flatten)]
        input: Input,
        /// Print the whole IR as JSON.
        #[arg(long)]
        json: bool,
        /// List every transition in the summary.
        #[arg(long)]
        full: bool,
    },
    /// Verify a C program: iterative model checking that streams IVRs (safe schedules and
    /// counterexamples) and ends with safe, partially safe, unsafe or unknown.
    Verify(VerifyArgs),
    /// Make a program schedule: verify to the first safe IVR (or read one with --ivr), write
    /// prog.sched.h and prog.schedule.json, optionally explain it or draw it as DOT.
    Schedule(schedule_cmd::ScheduleArgs),
    /// Verify, make the schedule, instrument the program and compile it with the enforcer
    /// runtime: an executable whose threads follow the schedule.
    Build(build_cmd::BuildArgs),
    /// Explore the program's executions (DPOR, --fair, --preemption-bound K), or only those a
    /// schedule permits (--schedule prog.schedule.json); print bugs as replayable traces.
    #[command(
        after_help = "Exit status: 0 no bug in the executions within the bounds (those cut at \
                      --max-depth are counted in the figures); 1 a bug found; 2 bad input; 3 \
                      internal error; 4 no bug, the search stopped by --timeout or \
                      --max-executions before it explored them all."
    )]
    Explore(explore_cmd::ExploreArgs),
    /// Check an IVR file against a program, independently of the verifier that wrote it.
    // The program's arguments (`-- ARGS`) come after the IVR file.
    #[command(mut_arg("args", |a| a.index(3)))]
    CheckIvr {
        #[command(flatten)]
        input: Input,
        /// The IVR file (JSON, as written by `synth verify --out`).
        #[arg(index = 2)]
        ivr: PathBuf,
    },
    /// Execute a C program on the IR interpreter and print the trace and the outcome.
    Run {
        #[command(flatten)]
        input: Input,
        /// Seed of the random schedule and inputs.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Stop after this many steps.
        #[arg(long, default_value_t = 100_000)]
        max_steps: usize,
        /// A fixed schedule instead of a random one: thread ids, comma separated (e.g. 0,0,1,2).
        #[arg(long, value_delimiter = ',')]
        schedule: Option<Vec<u32>>,
        /// Inputs for `__VERIFIER_nondet_*` with --schedule, comma separated.
        #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
        inputs: Option<Vec<i128>>,
        /// Print only the outcome, not the trace.
        #[arg(long)]
        quiet: bool,
        /// Print the execution as JSON.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Args)]
struct VerifyArgs {
    #[command(flatten)]
    input: Input,
    /// Give up after this many seconds, the lowering included (verdict unknown; kept within a
    /// second whatever the solver does).
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(..=MAX_SECONDS))]
    timeout: u64,
    /// Plain Impact for threads to a complete ART (the paper's ImparaC baseline).
    #[arg(long)]
    complete: bool,
    /// Most ART nodes.
    #[arg(long, default_value_t = 200_000)]
    max_nodes: usize,
    /// Stop after this many IVRs (safe ones and counterexamples).
    #[arg(long, value_name = "N")]
    ivrs: Option<usize>,
    /// Write each IVR as JSON into this directory (ivr-001.json, ...).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Loop rounds a thread runs before the iterative scheduler switches to the next.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    quantum: u32,
    /// When a thread's turn ends, give the next turn back to the thread whose turn came
    /// before, for up to this many turns of each of the two in a row (0 or 1: round robin
    /// only). Keeps two threads alternating, so that the deployed program hands over between
    /// the same two threads K times in a row.
    #[arg(long, default_value_t = 0, value_name = "K", value_parser = clap::value_parser!(u32).range(0..=10_000))]
    pair_turns: u32,
    /// Print JSON lines (one per IVR, then the result) instead of text.
    #[arg(long)]
    json: bool,
    /// Verification engine of the iterative mode: the explicit-state search with the symbolic
    /// engine after it (auto), or one of the two alone.
    #[arg(long, value_enum, default_value_t = EngineArg::Auto)]
    engine: EngineArg,
}

/// `--engine`.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub(crate) enum EngineArg {
    /// The explicit-state search first, then the symbolic engine with the time left.
    Auto,
    /// Only the explicit-state search.
    Explicit,
    /// Only the symbolic engine (lazy abstraction with interpolants).
    Impact,
}

impl From<EngineArg> for verifier::engine::Engine {
    fn from(e: EngineArg) -> Self {
        match e {
            EngineArg::Auto => verifier::engine::Engine::Auto,
            EngineArg::Explicit => verifier::engine::Engine::Explicit,
            EngineArg::Impact => verifier::engine::Engine::Impact,
        }
    }
}

#[derive(Args, Clone)]
pub(crate) struct Input {
    /// The C source file.
    pub(crate) file: PathBuf,
    /// Add a directory to the preprocessor's include path.
    #[arg(short = 'I', value_name = "DIR")]
    include: Vec<PathBuf>,
    /// Define a preprocessor macro (NAME or NAME=VALUE).
    #[arg(short = 'D', value_name = "MACRO")]
    define: Vec<String>,
    /// Most threads the program may create.
    #[arg(long, default_value_t = 64)]
    max_threads: usize,
    /// Most calls of one function a thread may have active at once: recursion is inlined
    /// this deep (each level a copy of the function), and a deeper call makes the verdict
    /// `unknown`, naming the function.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=64))]
    max_recursion: u32,
    /// Another C file of the program (repeatable): its translation unit is linked with
    /// FILE's, as `cc FILE OTHER.c ...` links them.
    #[arg(long = "with", value_name = "OTHER.c")]
    with: Vec<PathBuf>,
    /// The arguments `main` gets after the program's name (after `--`). The verdict holds for runs with these arguments, and the built program runs only with
    /// them.
    #[arg(last = true, value_name = "ARGS")]
    args: Vec<String>,
}

/// Prints the warnings of a lowered program.
fn warn(p: verifier::ir::Program) -> verifier::ir::Program {
    for w in &p.warnings {
        eprintln!("warning: {w}");
    }
    p
}

impl Input {
    /// Compiles the program with clang and lowers its module.
    pub(crate) fn load(&self) -> Result<verifier::ir::Program, verifier::frontend::Error> {
        verifier::frontend::load(&self.file, &self.options()).map(warn)
    }

    /// The program lowered with at most `k` threads per start function (a small scope,
    /// [`verifier::scope`]), quietly: its warnings are the program's.
    pub(crate) fn load_scope(
        &self,
        k: usize,
    ) -> Result<verifier::ir::Program, verifier::frontend::Error> {
        let options = verifier::frontend::Options {
            max_threads_per_function: Some(k),
            ..self.options()
        };
        verifier::frontend::load(&self.file, &options)
    }

    /// The program `p` (this input lowered) in its small scopes, where bugs are also looked
    /// for by the stateless search beside the engines ([`verifier::scope`]): with at most `k`
    /// threads per start function where the thread bound limits it, or itself.
    pub(crate) fn scopes(
        &self,
        p: &std::sync::Arc<verifier::ir::Program>,
    ) -> verifier::scope::Lower {
        let input = self.clone();
        let itself = p.clone();
        std::sync::Arc::new(move |k: Option<usize>| match k {
            Some(k) => input.load_scope(k).ok(),
            None => Some((*itself).clone()),
        })
    }

    /// [`Input::load`], given up after `limit` (`None`: the lowering took longer; a program
    /// inlined into many threads can take minutes).
    pub(crate) fn load_within(
        &self,
        limit: std::time::Duration,
    ) -> Result<Option<verifier::ir::Program>, verifier::frontend::Error> {
        use std::sync::mpsc::RecvTimeoutError;
        let (file, options) = (self.file.clone(), self.options());
        let (tx, rx) = std::sync::mpsc::channel();
        let lowering = std::thread::spawn(move || {
            let _ = tx.send(verifier::frontend::load(&file, &options));
        });
        match rx.recv_timeout(limit) {
            Ok(r) => r.map(|p| Some(warn(p))),
            // The process ends without waiting for the lowering.
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => match lowering.join() {
                Err(panic) => std::panic::resume_unwind(panic),
                Ok(()) => unreachable!("the lowering sends its result before it ends"),
            },
        }
    }

    fn options(&self) -> verifier::frontend::Options {
        verifier::frontend::Options {
            include_dirs: self.include.clone(),
            defines: self.define.clone(),
            max_threads: self.max_threads,
            max_recursion: self.max_recursion as usize,
            sources: self.with.clone(),
            arguments: self.args.clone(),
            ..Default::default()
        }
    }
}

fn main() -> ExitCode {
    use clap::{CommandFactory, FromArgMatches};
    // Without a subcommand the arguments are those of `synth schedule` (`synth prog.c`).
    let parsed = Cli::command().try_get_matches().and_then(|m| {
        let cli = Cli::from_arg_matches(&m)?;
        let default = match cli.command {
            None => Some(schedule_cmd::ScheduleArgs::from_arg_matches(&m)?),
            Some(_) => None,
        };
        Ok((cli, default))
    });
    let (cli, default) = match parsed {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    match limit::supervise(move || run(cli, default)) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            // Front-end errors already carry `file:line:col`.
            let fe = e.downcast_ref::<verifier::frontend::Error>();
            match fe {
                Some(fe) => eprintln!("{fe}"),
                None => eprintln!("synth: {e:#}"),
            }
            // Valid C with a construct the IR cannot express yet: nothing is known of the
            // program (exit 4, as for `unknown`), it is not bad input.
            if let Some(verifier::frontend::Error::Unsupported { .. }) = fe {
                eprintln!("verdict: unknown (a construct synth cannot model yet)");
                return ExitCode::from(4);
            }
            let bad_input = fe.is_some() || e.downcast_ref::<BadInput>().is_some();
            ExitCode::from(if bad_input { 2 } else { 3 })
        }
    }
}

fn run(cli: Cli, default: Option<schedule_cmd::ScheduleArgs>) -> anyhow::Result<u8> {
    let Some(command) = cli.command else {
        return match default {
            Some(a) => schedule_cmd::schedule(a),
            None => Err(BadInput(anyhow::anyhow!(
                "no input file; run `synth prog.c` or `synth --help`"
            ))
            .into()),
        };
    };
    match command {
        Command::Schedule(a) => schedule_cmd::schedule(a),
        Command::Build(a) => build_cmd::build(a),
        Command::Explore(a) => explore_cmd::explore(a),
        Command::Parse { input, json, full } => {
            let p = input.load()?;
            if json {
                emit(&(serde_json::to_string_pretty(&p)? + "\n"));
            } else {
                emit(&p.summary(full));
            }
            Ok(0)
        }
        Command::Verify(a) => verify(a),
        Command::CheckIvr { input, ivr } => {
            let text = std::fs::read_to_string(&ivr)
                .map_err(|e| anyhow::anyhow!("{}: {e}", ivr.display()))
                .map_err(BadInput)?;
            // A counterexample found in a small scope replays on that program.
            let p = match verifier::ivr::scope_of(&text) {
                Some(k) => input.load_scope(k)?,
                None => input.load()?,
            };
            match verifier::ivr::verify_file(&p, &text, 30_000) {
                Ok(verifier::ivr::Checked::Safe { nodes }) => {
                    emit(&format!(
                        "{}: IVR accepted: {nodes} nodes, well-labelled, safe, deadlock-free and fair\n",
                        ivr.display()
                    ));
                    Ok(0)
                }
                Ok(verifier::ivr::Checked::Counterexample { outcome }) => {
                    emit(&format!(
                        "{}: counterexample replays: {outcome}\n",
                        ivr.display()
                    ));
                    Ok(0)
                }
                Err(why) => {
                    eprintln!("{}: {why}", ivr.display());
                    Ok(1)
                }
            }
        }
        Command::Run {
            input,
            seed,
            max_steps,
            schedule,
            inputs,
            quiet,
            json,
        } => {
            let p = input.load()?;
            let (exec, _) = match schedule {
                Some(s) => {
                    let steps: Vec<(ThreadId, Option<TransId>)> =
                        s.into_iter().map(|t| (ThreadId(t), None)).collect();
                    let mut o = Replay::new(steps, inputs.unwrap_or_default());
                    interp::run(&p, &mut o, max_steps)
                }
                None => interp::run(&p, &mut RandomOracle::new(seed), max_steps),
            };
            if json {
                emit(&(serde_json::to_string_pretty(&exec)? + "\n"));
            } else if quiet {
                emit(&format!("outcome: {}\n", p.show_outcome(&exec.outcome)));
            } else {
                emit(&p.show_execution(&exec));
            }
            Ok(match exec.outcome {
                Outcome::Error { .. } | Outcome::Deadlock { .. } => 1,
                _ => 0,
            })
        }
    }
}

/// Writes to standard output; a closed pipe (`synth parse x.c | head`) is not an error.
pub(crate) fn emit(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("synth: cannot write output: {e}");
        }
    }
}

/// The longest time limit (ten years): beyond it, instants overflow.
pub(crate) const MAX_SECONDS: u64 = 315_360_000;

/// A time limit in seconds, a fraction allowed: not negative, at most [`MAX_SECONDS`].
pub(crate) fn seconds(text: &str) -> Result<f64, String> {
    let s: f64 = text.parse().map_err(|e| format!("{e}"))?;
    if s.is_finite() && (0.0..=MAX_SECONDS as f64).contains(&s) {
        Ok(s)
    } else {
        Err(format!("not a number of seconds from 0 to {MAX_SECONDS}"))
    }
}

/// An error in what the user gave (exit code 2).
#[derive(Debug)]
pub(crate) struct BadInput(pub(crate) anyhow::Error);

impl std::fmt::Display for BadInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:#}", self.0)
    }
}

impl std::error::Error for BadInput {}

/// `synth verify`: streams IVRs and ends with the verdict and the figures.
fn verify(a: VerifyArgs) -> anyhow::Result<u8> {
    use std::io::IsTerminal;
    use verifier::imc::{IvrKind, Verdict};
    let start = std::time::Instant::now();
    let limit = std::time::Duration::from_secs(a.timeout);
    let Some(p) = a.input.load_within(limit)? else {
        let why = format!("timeout after {} s while lowering the program", a.timeout);
        print_unknown(a.json, &why, start, None);
        return Ok(4);
    };
    if let Some(dir) = &a.out {
        prepare_out_dir(dir).map_err(BadInput)?;
    }
    let p = std::sync::Arc::new(p);
    let found: verifier::scope::Found = Default::default();
    // Whether a counterexample was printed.
    let shown = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    // The IVRs emitted by now, and when the first safe one was (for a run the alarm ends).
    let emitted: std::sync::Arc<std::sync::Mutex<Emitted>> = Default::default();
    let opts = verifier::imc::Options {
        timeout: limit.saturating_sub(start.elapsed()),
        max_nodes: a.max_nodes,
        quantum: a.quantum,
        pair_turns: a.pair_turns,
        // (The process ends with the run.)
        exit_after: true,
        bug_found: Some(found.clone()),
        ..Default::default()
    };
    let live = !a.json && std::io::stderr().is_terminal();
    let alarm = {
        let (json, secs) = (a.json, a.timeout);
        let (p, shown, emitted) = (p.clone(), shown.clone(), emitted.clone());
        limit::arm(start + limit + limit::GRACE, move || {
            if live {
                eprint!("\r\x1b[K");
            }
            if !json {
                if let Some(bug) = found_by_then(&p, &found, Some(&shown)) {
                    emit(&bug);
                }
            }
            let by_then = *emitted.lock().unwrap_or_else(|e| e.into_inner());
            let mut why = limit::stopped(secs);
            let bug = found.lock().ok().and_then(|f| f.clone());
            if let Some(c) = bug {
                let shown = if json { "" } else { " (shown above)" };
                why = format!("{why}; {}", verifier::engine::found_bug(&p, &c, shown));
            }
            print_unknown(json, &why, start, Some(by_then));
            4
        })
    };
    let progress: Option<verifier::imc::ProgressFn> = live.then(|| {
        Box::new(|s: &verifier::imc::Progress| {
            eprint!(
                "\r\x1b[K[{:>6.1} s] ART nodes {}, solver calls {}, IVRs {}",
                s.time.as_secs_f64(),
                s.art_nodes,
                s.solver_calls,
                s.ivrs
            );
        }) as verifier::imc::ProgressFn
    });
    let mut write_err: Option<anyhow::Error> = None;
    // Each distinct bug (its outcome: kind, thread, position) with how often an IVR showed it.
    let mut bugs: Vec<(String, usize)> = Vec::new();
    let r = if a.complete {
        let mut v = verifier::imc::Verifier::new(&p, opts);
        if let Some(f) = progress {
            v.set_progress(f);
        }
        v.run()
    } else {
        let mut sink = |ivr: &verifier::imc::Ivr| {
            if live {
                eprint!("\r\x1b[K");
            }
            // (Made only when written: it lists every label.)
            let file = || verifier::ivr::IvrFile::new(&p, ivr);
            if let Some(dir) = &a.out {
                let path = dir.join(format!("ivr-{:03}.json", ivr.index));
                // (Written whole or not at all: the process may end at the time limit.)
                let part = path.with_extension("json.part");
                if let Err(e) = serde_json::to_string(&file())
                    .map_err(anyhow::Error::from)
                    .and_then(|t| std::fs::write(&part, t + "\n").map_err(Into::into))
                    .and_then(|()| std::fs::rename(&part, &path).map_err(Into::into))
                {
                    write_err.get_or_insert(anyhow::anyhow!("{}: {e}", path.display()));
                }
            }
            // (Counted once written or printed, for the summary of a run the alarm stops.)
            let count = || {
                let mut e = emitted.lock().unwrap_or_else(|e| e.into_inner());
                e.ivrs += 1;
                if matches!(ivr.kind, IvrKind::Safe(_)) {
                    e.first_safe.get_or_insert(ivr.time);
                }
            };
            if a.json {
                let line = match serde_json::to_string(&file()) {
                    Ok(l) => l,
                    Err(e) => format!("{{\"error\":\"{e}\"}}"),
                };
                emit(&(line + "\n"));
                count();
                return;
            }
            let t = ivr.time.as_secs_f64();
            match &ivr.kind {
                IvrKind::Safe(art) => {
                    emit(&format!(
                        "IVR {}: safe schedule ({} nodes, checked: safe, deadlock-free, fair) at {t:.2} s\n",
                        ivr.index,
                        art.len()
                    ));
                    count();
                }
                IvrKind::Counterexample(c) => {
                    // Each distinct bug once, in full; the same bug found again (while the
                    // search removes unsafe schedules) is only counted.
                    let q = c.program(&p);
                    let outcome = q.show_outcome(&c.execution.outcome);
                    if let Some(b) = bugs.iter_mut().find(|b| b.0 == outcome) {
                        b.1 += 1;
                        count();
                        return;
                    }
                    bugs.push((outcome.clone(), 1));
                    shown.store(true, std::sync::atomic::Ordering::Relaxed);
                    emit(&format!(
                        "IVR {}: counterexample at {t:.2} s ({} steps): {outcome}{}\n{}",
                        ivr.index,
                        c.execution.steps.len(),
                        scope_note(c),
                        indent(&q.show_execution_brief(&c.execution, verifier::interp::TRACE_ENDS)),
                    ));
                    count();
                }
            }
        };
        verifier::engine::run_iterative_scoped(
            &p,
            Some(a.input.scopes(&p)),
            opts,
            a.engine.into(),
            a.ivrs.unwrap_or(usize::MAX),
            progress,
            &mut sink,
        )
    };
    // (The run has ended: the verdict below is the only one.)
    drop(alarm);
    if live {
        eprint!("\r\x1b[K");
    }
    if let Some(e) = write_err {
        return Err(e);
    }
    let code = match &r.verdict {
        Verdict::Safe => 0,
        Verdict::Unknown(_) => 4,
        _ => 1,
    };
    let word = match &r.verdict {
        Verdict::BugFound => {
            "unsafe executions exist (complete mode does not look for a safe schedule)".to_string()
        }
        Verdict::Unknown(why) => format!("unknown ({why})"),
        _ => settled(&p, &r),
    };
    if a.json {
        let first = r.first_safe_ivr.map(|d| d.as_secs_f64());
        let v = serde_json::json!({
            "format": "synth-verdict/1",
            "program_sha256": p.sha256,
            "verdict": r.verdict.word(),
            "reason": match &r.verdict { Verdict::Unknown(w) => Some(w.clone()), _ => None },
            "seconds": r.time.as_secs_f64(),
            "first_safe_ivr_seconds": first,
            "ivrs": r.ivrs,
            "art_nodes": r.nodes,
            "solver_calls": r.solver_calls,
            "counterexample": if a.complete { r.counterexample.as_ref() } else { None },
            "any_thread_count": r.any_thread_count.as_ref().map(|p| serde_json::json!({
                "views": p.views,
                "guarantees": p.guarantees,
                "guarded_cells": p.guarded,
                "replicated": p.replicated,
            })),
        });
        emit(&(v.to_string() + "\n"));
        return Ok(code);
    }
    let mut out = String::new();
    if a.complete {
        if let Some(c) = &r.counterexample {
            out.push_str("counterexample:\n");
            out.push_str(&indent(
                &c.program(&p)
                    .show_execution_brief(&c.execution, verifier::interp::TRACE_ENDS),
            ));
        }
    }
    let first = match r.first_safe_ivr {
        Some(d) => format!("{:.2} s", d.as_secs_f64()),
        None => "none".into(),
    };
    let seen: usize = bugs.iter().map(|b| b.1).sum();
    if seen > bugs.len() {
        let k = bugs.len();
        out.push_str(&format!(
            "counterexamples: {seen} IVRs, {k} distinct bug{} (each shown once):\n",
            if k == 1 { "" } else { "s" }
        ));
        for (outcome, n) in &bugs {
            out.push_str(&format!("  {n} × {outcome}\n"));
        }
    }
    if let Some(proof) = &r.any_thread_count {
        out.push_str(&format!(
            "any number of threads: a thread-modular proof ({} views, {} changes of shared \
             memory, {} cells seen through the mutex that guards them) shows the program safe \
             and free of deadlocks for any number of threads of {}\n",
            proof.views,
            proof.guarantees,
            proof.guarded,
            proof
                .replicated
                .iter()
                .map(|f| format!("`{f}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    out.push_str(&format!(
        "verdict: {word}\nfirst safe IVR: {first}, IVRs: {}, ART nodes: {}, solver calls: {}, refinements: {}, time: {:.2} s\n",
        r.ivrs, r.nodes, r.solver_calls, r.refinements, r.time.as_secs_f64()
    ));
    emit(&out);
    Ok(code)
}

/// Prints the verdict `unknown` of a run that ended before verifying (`why`), as text or as
/// the JSON verdict line.
/// With `by_then`, the IVRs the run emitted before it was stopped.
fn print_unknown(json: bool, why: &str, start: std::time::Instant, by_then: Option<Emitted>) {
    let seconds = start.elapsed().as_secs_f64();
    let first = by_then.and_then(|e| e.first_safe);
    if json {
        let mut v = serde_json::json!({
            "format": "synth-verdict/1",
            "verdict": "unknown",
            "reason": why,
            "seconds": seconds,
        });
        if let Some(e) = by_then {
            v["first_safe_ivr_seconds"] = serde_json::json!(first.map(|d| d.as_secs_f64()));
            v["ivrs"] = serde_json::json!(e.ivrs);
        }
        emit(&format!("{v}\n"));
    } else {
        let mut out = format!("verdict: unknown ({why})\n");
        if let Some(e) = by_then {
            let first = match first {
                Some(d) => format!("{:.2} s", d.as_secs_f64()),
                None => "none".into(),
            };
            out.push_str(&format!(
                "first safe IVR: {first}, IVRs: {}, time: {seconds:.2} s\n",
                e.ivrs
            ));
        }
        emit(&out);
    }
}

/// The IVRs a run has emitted: how many, and when the first safe one was.
#[derive(Clone, Copy, Default)]
struct Emitted {
    ivrs: usize,
    first_safe: Option<std::time::Duration>,
}

/// Creates the `--out` directory; refuses one that already holds IVR files.
fn prepare_out_dir(dir: &std::path::Path) -> anyhow::Result<()> {
    if dir.exists() {
        let holds_ivrs = std::fs::read_dir(dir)
            .map_err(|e| anyhow::anyhow!("{}: {e}", dir.display()))?
            .filter_map(Result::ok)
            .any(|e| {
                let n = e.file_name();
                let n = n.to_string_lossy();
                n.starts_with("ivr-") && n.ends_with(".json")
            });
        if holds_ivrs {
            anyhow::bail!(
                "{} already holds IVR files; remove them or choose another --out directory",
                dir.display()
            );
        }
        return Ok(());
    }
    std::fs::create_dir_all(dir).map_err(|e| anyhow::anyhow!("{}: {e}", dir.display()))
}

/// Where a counterexample found in a small scope was found, for the line that shows it.
/// What the stateless search beside the engines found by the time the run is stopped at its
/// limit (`slot`, [`verifier::imc::Options::bug_found`]), unless `shown` says a
/// counterexample was printed already: the bug with its trace, to print before the verdict.
pub(crate) fn found_by_then(
    p: &verifier::ir::Program,
    slot: &verifier::scope::Found,
    shown: Option<&std::sync::atomic::AtomicBool>,
) -> Option<String> {
    if shown.is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed)) {
        return None;
    }
    let c = slot.lock().ok()?.clone()?;
    let q = c.program(p);
    Some(format!(
        "counterexample found by the stateless search ({}{}):\n{}",
        q.show_outcome(&c.execution.outcome),
        scope_note(&c),
        indent(&q.show_execution_brief(&c.execution, verifier::interp::TRACE_ENDS))
    ))
}

/// A decided verdict of run `r` of `p` in words, with what it owes to the thread bound.
pub(crate) fn settled(p: &verifier::ir::Program, r: &verifier::imc::Report) -> String {
    format!(
        "{}{}",
        r.verdict.word(),
        p.bound_note(
            r.meets_bound,
            r.counterexample
                .as_ref()
                .map(|c| (c.program(p), &c.execution))
        )
    )
}

pub(crate) fn scope_note(c: &verifier::imc::Counterexample) -> String {
    match c.threads_per_function {
        Some(k) => format!(
            " (found with at most {k} thread{} per start function; it occurs without that \
             bound too)",
            if k == 1 { "" } else { "s" }
        ),
        None => String::new(),
    }
}

pub(crate) fn indent(s: &str) -> String {
    s.lines().map(|l| format!("  {l}\n")).collect()
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// clap checks the command line's definition (positional order, indices) only in debug
    /// builds and only for the subcommand parsed; this checks all of them.
    #[test]
    fn the_command_line_is_well_formed() {
        super::Cli::command().debug_assert();
    }
}
