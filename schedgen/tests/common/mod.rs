//! Helpers shared by schedgen's integration tests.

use verifier::art::Art;
use verifier::engine::{run_iterative, Engine};
use verifier::imc::IvrKind;
use verifier::ir::Program;

/// The first safe IVR of `p` within `secs` seconds, from the default engine.
pub fn first_safe(p: &Program, secs: u64) -> Option<Art> {
    let opts = verifier::imc::Options {
        timeout: std::time::Duration::from_secs(secs),
        stop_at_first_safe: true,
        ..Default::default()
    };
    let mut art = None;
    run_iterative(p, opts, Engine::Auto, usize::MAX, None, &mut |ivr| {
        if let IvrKind::Safe(a) = &ivr.kind {
            art.get_or_insert_with(|| (**a).clone().into_art());
        }
    });
    art
}
