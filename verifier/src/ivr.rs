//! IVR files (DESIGN.md "Formats"): an incomplete verification result as JSON, with a
//! `format` version and the SHA-256 of the program it was made for. A safe IVR holds the ART
//! (nodes in id order, labels in a [`TermTable`] that keeps their sharing); an unsafe one holds
//! the counterexample (schedule, inputs, initial values and the interpreter's run).
//!
//! [`verify_file`] is what `synth check-ivr` runs: a safe IVR goes to the independent checker
//! ([`crate::check::check_ivr`]), a counterexample is replayed on the interpreter.

use crate::art::{Art, NodeRecord};
use crate::check::check_ivr;
use crate::imc::{Counterexample, Ivr, IvrKind};
use crate::interp;
use crate::ir::Program;
use crate::smt::TermTable;
use serde::{Deserialize, Serialize};

/// The format tag of IVR files.
pub const FORMAT: &str = "synth-ivr/1";

/// An IVR as written to a file.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct IvrFile {
    /// [`FORMAT`].
    pub format: String,
    /// SHA-256 of the program (see [`Program::sha256`]).
    pub program_sha256: String,
    /// 1-based number of the IVR in its run.
    pub index: usize,
    /// Seconds since the start of the run.
    pub seconds: f64,
    /// What the IVR is (externally tagged: `{"safe": ...}` or `{"counterexample": ...}`;
    /// numbers beyond 64 bits need a tag serde_json does not buffer).
    pub body: Body,
}

/// A safe ART or a counterexample.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Body {
    /// A safe, fair, deadlock-free ART.
    Safe {
        /// Labels and their subterms.
        terms: TermTable,
        /// Nodes in id order; node 0 is the root.
        nodes: Vec<NodeRecord>,
    },
    /// A concrete execution to an error or a deadlock.
    Counterexample {
        /// Schedule, inputs and the run.
        counterexample: Counterexample,
    },
}

impl IvrFile {
    /// The file form of an IVR of `prog`.
    pub fn new(prog: &Program, ivr: &Ivr) -> IvrFile {
        let body = match &ivr.kind {
            IvrKind::Safe(art) => {
                let mut terms = TermTable::new();
                let nodes = art.to_records(&mut terms);
                Body::Safe { terms, nodes }
            }
            IvrKind::Counterexample(c) => Body::Counterexample {
                counterexample: (**c).clone(),
            },
        };
        IvrFile {
            format: FORMAT.into(),
            program_sha256: prog.sha256.clone(),
            index: ivr.index,
            seconds: ivr.time.as_secs_f64(),
            body,
        }
    }
}

/// The outcome of checking an IVR file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Checked {
    /// A safe IVR the checker accepted, with its node count.
    Safe { nodes: usize },
    /// A counterexample that replays to an error or a deadlock.
    Counterexample { outcome: String },
}

/// The small scope an IVR file's counterexample was found in ([`Counterexample`]'s
/// `threads_per_function`): the program to check it against is lowered with it.
pub fn scope_of(text: &str) -> Option<usize> {
    let f: IvrFile = serde_json::from_str(text).ok()?;
    match f.body {
        Body::Counterexample { counterexample } => counterexample.threads_per_function,
        Body::Safe { .. } => None,
    }
}

/// Checks an IVR file's text against a program; `Err` says why it is rejected.
pub fn verify_file(prog: &Program, text: &str, timeout_ms: u32) -> Result<Checked, String> {
    let f: IvrFile = serde_json::from_str(text).map_err(|e| format!("not an IVR file: {e}"))?;
    if f.format != FORMAT {
        return Err(format!(
            "unsupported format {:?} (expected {FORMAT:?})",
            f.format
        ));
    }
    if f.program_sha256 != prog.sha256 {
        return Err(
            "the IVR was made for another program (its SHA-256 differs from this program's)".into(),
        );
    }
    match f.body {
        Body::Safe { terms, nodes } => {
            // (The model's thread ids and addresses are not a run's: `crate::engine`.)
            if let Some(why) = &prog.observes_numbering {
                return Err(format!(
                    "the program reads thread ids or addresses as numbers ({why}): no schedule \
                     of it is safe as far as the model knows"
                ));
            }
            let terms = terms.terms()?;
            let art = Art::from_records(&nodes, &terms)?;
            check_ivr(prog, &art, timeout_ms)
                .map_err(|r| format!("rejected at node {}: {}", r.node.0, r.reason))?;
            Ok(Checked::Safe { nodes: art.len() })
        }
        Body::Counterexample { counterexample } => {
            let mut replay = counterexample.replay.clone();
            let steps = replay.schedule.len() + 1;
            let (exec, _) = interp::run(prog, &mut replay, steps);
            // One found in a small scope (`prog` is the program lowered so) claims to be a
            // bug without the bound too.
            if let Some(k) = counterexample.threads_per_function {
                if !crate::scope::holds_without_bound(prog, &exec) {
                    return Err(format!(
                        "the counterexample, found with at most {k} thread(s) per start \
                         function, is not shown to occur without that bound (it needs a \
                         refused creation, or depends on how threads are numbered)"
                    ));
                }
            }
            if exec.outcome.is_program_bug() {
                Ok(Checked::Counterexample {
                    outcome: prog.show_outcome(&exec.outcome),
                })
            } else {
                Err(format!(
                    "the counterexample does not replay to a bug: {}",
                    prog.show_outcome(&exec.outcome)
                ))
            }
        }
    }
}
