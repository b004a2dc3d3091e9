//! Helpers shared by schedgen's integration tests.

use verifier::art::Art;
use verifier::imc::{IvrKind, Verifier};
use verifier::ir::Program;

/// The first safe IVR of `p` within `secs` seconds.
pub fn first_safe(p: &Program, secs: u64) -> Option<Art> {
    let opts = verifier::imc::Options {
        timeout: std::time::Duration::from_secs(secs),
        stop_at_first_safe: true,
        ..Default::default()
    };
    let mut art = None;
    Verifier::new(p, opts).run_iterative(usize::MAX, &mut |ivr| {
        if let IvrKind::Safe(a) = &ivr.kind {
            art = Some(a.clone());
        }
    });
    art
}
