//! `synth explore`: stateless exploration (DPOR, iterative context bounding, the fair
//! scheduler), under a program schedule with `--schedule`, and the replay of a bug's trace.

use crate::{emit, indent, BadInput, Input};
use clap::Args;
use std::path::PathBuf;
use verifier::explore::{self, Bug, Inputs, Options, Report, Unguided};

#[derive(Args)]
pub(crate) struct ExploreArgs {
    #[command(flatten)]
    input: Input,
    /// Dynamic partial-order reduction (the default).
    #[arg(long, overrides_with = "no_dpor")]
    dpor: bool,
    /// Explore every interleaving, without partial-order reduction.
    #[arg(long, overrides_with = "dpor")]
    no_dpor: bool,
    /// The fair scheduler: prunes unfair cycles; an execution longer than --max-depth is a
    /// possible livelock (DPOR is not used with it).
    #[arg(long)]
    fair: bool,
    /// Iterative context bounding: every execution with 0 preemptions, then 1, ... up to K.
    #[arg(long, value_name = "K")]
    preemption_bound: Option<u32>,
    /// Most steps of one execution.
    #[arg(long, default_value_t = 2_000)]
    max_depth: usize,
    /// Values of `__VERIFIER_nondet_*` inputs: every value in LO..HI.
    #[arg(
        long,
        value_name = "LO..HI",
        default_value = "-2..2",
        allow_hyphen_values = true
    )]
    inputs: String,
    /// Instead of a range, N values per input drawn from its type with --seed.
    #[arg(long, value_name = "N")]
    sample_inputs: Option<u32>,
    /// Seed of --sample-inputs.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Stop after this many executions.
    #[arg(long, value_name = "N")]
    max_executions: Option<u64>,
    /// Stop after this many seconds, the lowering included.
    #[arg(long, value_name = "SECS", value_parser = crate::seconds)]
    timeout: Option<f64>,
    /// Make every shared access a scheduling point. By default a DPOR search preempts only at
    /// synchronisation operations and checks every execution for data races; at the first
    /// race it starts again with every shared access a scheduling point (seed 003, section
    /// 3.1: without data races, that finds every error and deadlock).
    #[arg(long)]
    every_access: bool,
    /// Worker threads for a DPOR search (default: one per core). With more than one, the
    /// count of executions may vary between runs (some may be explored twice);
    /// --jobs 1 gives the exact, repeatable count. --fair and --preemption-bound search with
    /// one.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    jobs: Option<u16>,
    /// For checking the split of a search between workers: one thread searches and hands
    /// work over every N steps, as to an idle worker, then searches the parts handed over;
    /// the split is the same in every run. Finds the same bugs as --jobs 1.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    split_every: Option<u64>,
    /// Compute every step afresh instead of looking up the steps computed before by the
    /// values they read (the same search, slower; for checking the memo).
    #[arg(long)]
    no_memo: bool,
    /// Go on after the first bug (up to 10 different ones).
    #[arg(long)]
    all: bool,
    /// Explore only the executions this program schedule permits (prog.schedule.json).
    #[arg(long, value_name = "FILE")]
    schedule: Option<PathBuf>,
    /// Write the first bug's trace to FILE (JSON, for --replay).
    #[arg(long, value_name = "FILE")]
    trace_out: Option<PathBuf>,
    /// Replay a trace written by --trace-out (with the same --schedule, if it had one).
    #[arg(long, value_name = "FILE")]
    replay: Option<PathBuf>,
    /// Overwrite --trace-out if it exists.
    #[arg(long)]
    force: bool,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
}

fn parse_range(s: &str) -> anyhow::Result<(i128, i128)> {
    let bad = || anyhow::anyhow!("--inputs {s}: expected LO..HI (for example -2..2)");
    let (a, b) = s.split_once("..").ok_or_else(bad)?;
    let lo: i128 = a.trim().parse().map_err(|_| bad())?;
    let hi: i128 = b.trim().parse().map_err(|_| bad())?;
    if lo > hi || hi - lo > 1_000 {
        return Err(anyhow::anyhow!(
            "--inputs {s}: the range must not be empty and hold at most 1001 values"
        ));
    }
    Ok((lo, hi))
}

pub(crate) fn explore(a: ExploreArgs) -> anyhow::Result<u8> {
    use std::io::IsTerminal;
    let start = std::time::Instant::now();
    let limit = a.timeout.map(std::time::Duration::from_secs_f64);
    let p = match limit {
        None => a.input.load()?,
        Some(limit) => match a.input.load_within(limit)? {
            Some(p) => p,
            None => {
                println!(
                    "stopped: timeout after {} s while lowering the program",
                    limit.as_secs_f64()
                );
                return Ok(4);
            }
        },
    };
    let inputs = match a.sample_inputs {
        Some(0) => {
            return Err(BadInput(anyhow::anyhow!("--sample-inputs must be at least 1")).into())
        }
        Some(n) => Inputs::Sample {
            seed: a.seed,
            count: n,
        },
        None => {
            let (lo, hi) = parse_range(&a.inputs).map_err(BadInput)?;
            Inputs::Range { lo, hi }
        }
    };
    if a.fair && p.threads.len() > explore::fair::MAX_THREADS {
        return Err(BadInput(anyhow::anyhow!(
            "--fair handles at most {} threads; the program has {}",
            explore::fair::MAX_THREADS,
            p.threads.len()
        ))
        .into());
    }
    let mut opts = Options {
        dpor: !a.no_dpor,
        fair: a.fair,
        preemption_bound: a.preemption_bound,
        max_depth: a.max_depth,
        inputs,
        max_executions: a.max_executions,
        timeout: limit.map(|l| l.saturating_sub(start.elapsed())),
        stop_at_first_bug: !a.all,
        sync_points_only: !a.every_access,
        jobs: match (a.jobs, a.split_every) {
            (_, Some(_)) => 2,
            (Some(n), None) => n as usize,
            (None, None) => std::thread::available_parallelism().map_or(1, |n| n.get()),
        },
        split_every: a.split_every.unwrap_or(0),
        memo: !a.no_memo,
        ..Options::default()
    };
    if let Some(t) = &a.trace_out {
        crate::schedule_cmd::writable(t, explore::TRACE_FORMAT, a.force)?;
    }
    let sched = match &a.schedule {
        Some(f) => {
            let text = std::fs::read_to_string(f)
                .map_err(|e| BadInput(anyhow::anyhow!("{}: {e}", f.display())))?;
            let s = schedgen::schedule::ProgramSchedule::from_json(&text)
                .map_err(|e| BadInput(anyhow::anyhow!("{}: {e}", f.display())))?;
            if !s.program_sha256.eq_ignore_ascii_case(&p.sha256) {
                return Err(BadInput(anyhow::anyhow!(
                    "{}: the schedule was made for another program (SHA-256 {}, this program {})",
                    f.display(),
                    s.program_sha256,
                    p.sha256
                ))
                .into());
            }
            Some(s)
        }
        None => None,
    };
    let guide = sched
        .as_ref()
        .map(|s| schedgen::guide::ScheduleGuide::new(&p, s));
    if let Some(f) = &a.replay {
        let text = std::fs::read_to_string(f)
            .map_err(|e| BadInput(anyhow::anyhow!("{}: {e}", f.display())))?;
        let bug: Bug = serde_json::from_str(&text)
            .map_err(|e| BadInput(anyhow::anyhow!("{}: not a trace file: {e}", f.display())))?;
        if bug.format != explore::TRACE_FORMAT {
            return Err(BadInput(anyhow::anyhow!(
                "{}: format {:?}, expected {:?}",
                f.display(),
                bug.format,
                explore::TRACE_FORMAT
            ))
            .into());
        }
        if !bug.program_sha256.eq_ignore_ascii_case(&p.sha256) {
            return Err(BadInput(anyhow::anyhow!(
                "{}: the trace was recorded for another program (SHA-256 {}, this program {})",
                f.display(),
                bug.program_sha256,
                p.sha256
            ))
            .into());
        }
        opts.inputs = Inputs::List(bug.inputs());
        opts.max_depth = opts.max_depth.max(bug.steps.len() + 1);
        opts.stop_at_first_bug = true;
        let r = match &guide {
            Some(g) => explore::replay(&p, g, &bug.steps, &opts),
            None => explore::replay(&p, &Unguided, &bug.steps, &opts),
        };
        return Ok(match r.bugs.first() {
            Some(b) => {
                emit(&format!(
                    "{}: the trace replays: {}\n{}",
                    f.display(),
                    b.message,
                    indent(&b.show(&p))
                ));
                1
            }
            None => {
                emit(&format!(
                    "{}: the trace does not replay to a bug on this program{}\n",
                    f.display(),
                    if r.stats.executions == 0 {
                        " (it stops before its end)"
                    } else {
                        ""
                    }
                ));
                5
            }
        });
    }
    let live = !a.json && std::io::stderr().is_terminal();
    let progress: Option<explore::Progress<'_>> = live.then(|| {
        Box::new(|s: &explore::Stats| {
            eprint!(
                "\r\x1b[K[{:>6.1} s] executions {}, transitions {}, {:.0}/s",
                s.seconds,
                s.executions,
                s.transitions,
                s.executions_per_second()
            );
        }) as explore::Progress<'_>
    });
    let r = match &guide {
        Some(g) => explore::explore(&p, g, &opts, progress),
        None => explore::explore(&p, &Unguided, &opts, progress),
    };
    if live {
        eprint!("\r\x1b[K");
    }
    if let (Some(t), Some(b)) = (&a.trace_out, r.bugs.first()) {
        std::fs::write(t, serde_json::to_string_pretty(b)? + "\n")
            .map_err(|e| anyhow::anyhow!("{}: {e}", t.display()))?;
    }
    print_report(&p, &a, &r)?;
    Ok(if !r.bugs.is_empty() {
        1
    } else if r.stats.complete {
        0
    } else {
        4
    })
}

fn print_report(p: &verifier::ir::Program, a: &ExploreArgs, r: &Report) -> anyhow::Result<()> {
    let s = &r.stats;
    if a.json {
        let v = serde_json::json!({
            "format": "synth-explore/1",
            "program_sha256": p.sha256,
            "schedule": a.schedule.as_ref().map(|f| f.display().to_string()),
            "stats": s,
            "executions_per_second": s.executions_per_second(),
            "bugs": r.bugs,
        });
        emit(&(v.to_string() + "\n"));
        return Ok(());
    }
    let mut out = String::new();
    for (i, b) in r.bugs.iter().enumerate() {
        out.push_str(&format!("bug {}: {}\n", i + 1, b.message));
        out.push_str(&indent(&b.show(p)));
    }
    if let (Some(t), false) = (&a.trace_out, r.bugs.is_empty()) {
        out.push_str(&format!(
            "trace written to {} (replay with --replay {})\n",
            t.display(),
            t.display()
        ));
    }
    let what = if r.bugs.is_empty() && s.limited > 0 {
        // Before the other reasons: what follows a limit is not searched at all.
        format!(
            "no bug found, but {} execution(s) went past a limit of the model, which the search \
             does not cover (first: {}){}",
            s.limited,
            s.limit.as_deref().unwrap_or("?"),
            s.stopped
                .as_ref()
                .map(|why| format!("; {why}"))
                .unwrap_or_default()
        )
    } else if r.bugs.is_empty() {
        match (&s.stopped, a.schedule.is_some()) {
            (None, true) => {
                "no error, deadlock or deviation in any execution the schedule permits".to_string()
            }
            (None, false) => format!(
                "no bug in any execution within the bounds{}",
                p.bound_note(true, None)
            ),
            (Some(why), _) => format!("no bug found so far ({why})"),
        }
    } else {
        format!("{} bug(s) found", r.bugs.len())
    };
    let mut how = if s.strategies.is_empty() {
        "every interleaving".to_string()
    } else {
        s.strategies.join(", ")
    };
    if s.sync_points_only {
        how.push_str(", preemption only at synchronisation (no data race)");
    }
    if let Some(race) = &s.race {
        how.push_str(&format!(
            ", every shared access a scheduling point (a {race})"
        ));
    }
    if s.workers > 1 {
        how.push_str(&format!(", {} workers", s.workers));
    }
    if a.fair && !a.no_dpor {
        how.push_str(" (no DPOR under --fair: the fair scheduler's priorities depend on the order of independent steps)");
    }
    let mut fig = format!(
        "{what}\nsearch: {how}; executions: {}, transitions: {}, time: {:.2} s, executions per second: {:.0}",
        s.executions,
        s.transitions,
        s.seconds,
        s.executions_per_second()
    );
    if s.depth_bounded > 0 {
        fig.push_str(&format!(
            ", cut at depth {}: {}",
            a.max_depth, s.depth_bounded
        ));
    }
    if s.sleep_blocked > 0 {
        fig.push_str(&format!(", ended by sleep sets: {}", s.sleep_blocked));
    }
    if s.steps_looked_up > 0 {
        fig.push_str(&format!(", steps looked up: {}", s.steps_looked_up));
    }
    if !s.by_preemptions.is_empty() {
        let per: Vec<String> = s
            .by_preemptions
            .iter()
            .enumerate()
            .map(|(k, n)| format!("{k}: {n}"))
            .collect();
        fig.push_str(&format!(", by preemptions: {}", per.join(", ")));
    }
    out.push_str(&fig);
    out.push('\n');
    emit(&out);
    Ok(())
}
