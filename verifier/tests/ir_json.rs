//! The IR's JSON form (what `synth parse --json` prints) reads back to the same program.

use std::path::Path;
use verifier::frontend::load;
use verifier::frontend::Options;
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

#[test]
fn each_thread_names_the_transition_that_spawns_it() {
    // Creation in an unrolled loop: four threads from two call sites, with transitions
    // renumbered when the CFG is compressed.
    let p = verifier::frontend::load_str(
        "spawns.c",
        "#include <pthread.h>\n\
         int x;\n\
         void *w(void *a) { x = 1; return 0; }\n\
         void *v(void *a) { x = 2; return 0; }\n\
         int main(void) {\n\
           pthread_t t[2], u[2];\n\
           for (int i = 0; i < 2; i++) {\n\
             pthread_create(&t[i], 0, w, 0);\n\
             pthread_create(&u[i], 0, v, 0);\n\
           }\n\
           return 0;\n\
         }\n",
        &Options::default(),
    )
    .unwrap();
    assert_eq!(p.threads.len(), 5);
    for t in &p.threads[1..] {
        let (c, tr) = t.created_by.expect("created by main");
        let spawned: Vec<_> = p
            .thread(c)
            .transition(tr)
            .ops
            .iter()
            .filter_map(|o| match o {
                verifier::ir::Op::Spawn { thread, .. } => Some(*thread),
                _ => None,
            })
            .collect();
        assert_eq!(spawned, vec![t.id], "{}", t.name);
    }
}

#[test]
fn program_hash_covers_definitions_but_not_the_path_spelling() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let ex = root.join("examples/producer_consumer.c");
    let a = load(&ex, &Options::default()).unwrap();
    let dotted = root.join("verifier/../examples/producer_consumer.c");
    let b = load(&dotted, &Options::default()).unwrap();
    assert_eq!(a.sha256, b.sha256);
    let opts = Options {
        defines: vec!["THREADS=2".into()],
        ..Options::default()
    };
    let c = load(&ex, &opts).unwrap();
    assert_ne!(a.sha256, c.sha256, "a -D changes the program, so its hash");
}

/// A pragma changes what is compiled (`#pragma pack(1)` the layout), and one file is not the
/// same text split into two: each is another program, with another hash.
#[test]
fn program_hash_covers_pragmas_and_where_files_end() {
    let dir = std::env::temp_dir().join(format!("synth-hash-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let body = "struct s { char c; int i; };\nint main(void) { return sizeof(struct s); }\n";
    let plain = load(&file("plain.c", body), &Options::default()).unwrap();
    let packed = load(
        &file("packed.c", &format!("#pragma pack(1)\n{body}")),
        &Options::default(),
    )
    .unwrap();
    assert_ne!(plain.sha256, packed.sha256);
    let first = "int f(void);\n";
    let second = "int f(void) { return 1; }\nint main(void) { return f() - 1; }\n";
    let one = load(
        &file("one.c", &format!("{first}{second}")),
        &Options::default(),
    )
    .unwrap();
    let opts = Options {
        sources: vec![file("second.c", second)],
        ..Options::default()
    };
    let two = load(&file("first.c", first), &opts).unwrap();
    assert_ne!(one.sha256, two.sha256);
    let _ = std::fs::remove_dir_all(&dir);
}
