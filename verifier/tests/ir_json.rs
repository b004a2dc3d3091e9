//! The IR's JSON form (what `synth parse --json` prints) reads back to the same program.

use std::path::Path;
use verifier::frontend::{load, Options};
use verifier::ir::{Program, IR_FORMAT};

#[test]
fn ir_json_round_trips() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for ex in ["examples/lost_update.c", "examples/locked_counter.c"] {
        let p = load(&root.join(ex), &Options::default()).unwrap();
        assert_eq!(p.format, IR_FORMAT);
        let json = serde_json::to_string(&p).unwrap();
        let back: Program = serde_json::from_str(&json).unwrap();
        assert_eq!(serde_json::to_string(&back).unwrap(), json, "{ex}");
        assert_eq!(back.threads.len(), 3, "{ex}");
    }
}
