//! `synth`: the command-line front of the libraries. It parses flags, calls the libraries and
//! maps errors to exit codes: 0 success, 1 a bug was found (`run` reached an error or a
//! deadlock), 2 bad input (unreadable file, preprocessor error, syntax error, unsupported
//! construct, bad flags), 3 internal error.

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use verifier::interp::{self, Outcome, RandomOracle, Replay};
use verifier::ir::{ThreadId, TransId};

#[derive(Parser)]
#[command(
    name = "synth",
    version,
    about = "Run multithreaded C programs safely from incomplete verification results"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
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
    /// Verify a C program with the ART verifier (complete mode for now).
    Verify(VerifyArgs),
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
    /// Give up after this many seconds (verdict unknown).
    #[arg(long, default_value_t = 60)]
    timeout: u64,
    /// Plain Impact for threads to a complete ART (the paper's ImparaC baseline).
    #[arg(long)]
    complete: bool,
    /// Most ART nodes.
    #[arg(long, default_value_t = 200_000)]
    max_nodes: usize,
}

#[derive(Args)]
struct Input {
    /// The C source file.
    file: PathBuf,
    /// Add a directory to the preprocessor's include path.
    #[arg(short = 'I', value_name = "DIR")]
    include: Vec<PathBuf>,
    /// Define a preprocessor macro (NAME or NAME=VALUE).
    #[arg(short = 'D', value_name = "MACRO")]
    define: Vec<String>,
    /// Most threads the program may create.
    #[arg(long, default_value_t = 64)]
    max_threads: usize,
}

impl Input {
    fn load(&self) -> Result<verifier::ir::Program, verifier::frontend::Error> {
        let opts = verifier::frontend::Options {
            include_dirs: self.include.clone(),
            defines: self.define.clone(),
            max_threads: self.max_threads,
            ..Default::default()
        };
        verifier::frontend::load(&self.file, &opts)
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    match run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            // Front-end errors already carry `file:line:col`.
            match e.downcast_ref::<verifier::frontend::Error>() {
                Some(fe) => eprintln!("{fe}"),
                None => eprintln!("synth: {e:#}"),
            }
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<u8> {
    match cli.command {
        Command::Parse { input, json, full } => {
            let p = input.load()?;
            if json {
                emit(&(serde_json::to_string_pretty(&p)? + "\n"));
            } else {
                emit(&p.summary(full));
            }
            Ok(0)
        }
        Command::Verify(a) => {
            let p = a.input.load()?;
            let opts = verifier::imc::Options {
                timeout: std::time::Duration::from_secs(a.timeout),
                max_nodes: a.max_nodes,
                ..Default::default()
            };
            let _ = a.complete;
            let r = verifier::imc::Verifier::new(&p, opts).run();
            let mut out = String::new();
            if let Some(c) = &r.counterexample {
                out.push_str("counterexample:\n");
                out.push_str(&p.show_execution(&c.execution));
            }
            let verdict = match &r.verdict {
                verifier::imc::Verdict::Safe => "safe".to_string(),
                verifier::imc::Verdict::BugFound => "unsafe executions exist (complete mode does not decide whether a safe schedule exists)".to_string(),
                verifier::imc::Verdict::Unknown(why) => format!("unknown ({why})"),
            };
            out.push_str(&format!(
                "verdict: {verdict}\nART nodes: {}, solver calls: {}, refinements: {}, time: {:.2?}\n",
                r.nodes, r.solver_calls, r.refinements, r.time
            ));
            emit(&out);
            Ok(match r.verdict {
                verifier::imc::Verdict::BugFound => 1,
                _ => 0,
            })
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
fn emit(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("synth: cannot write output: {e}");
        }
    }
}
