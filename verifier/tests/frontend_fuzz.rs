//! Mutated corpus programs never make the front end (or the interpreter on what it accepts)
//! panic: each gives an error or an IR.

use proptest::prelude::*;
mod common;
use verifier::frontend::{load_str, Options};
use verifier::interp::{run, RandomOracle};

fn sources() -> Vec<(String, String)> {
    let dir = common::corpus();
    let text = std::fs::read_to_string(dir.join("verdicts.tsv")).expect("corpus verdicts.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .filter_map(|l| {
            let p = l.split('\t').next()?;
            // Programs with local includes need their folder; use self-contained ones.
            let src = std::fs::read_to_string(dir.join(p)).ok()?;
            (!src.contains("#include \"")).then(|| (p.to_string(), src))
        })
        .collect()
}

const TOKENS: &[&str] = &[
    "(",
    ")",
    "{",
    "}",
    ";",
    "*",
    "&",
    "[",
    "]",
    "0",
    "-1",
    "while (1)",
    "if (x)",
    "return",
    "goto L;",
    "L:",
    "pthread_create(&t, 0, f, 0);",
    "break;",
    "int",
    "struct",
    "->",
    ".",
    "2147483647",
    "/ 0",
    "<< 40",
    "x++",
    "main",
    "void",
    "pthread_mutex_lock(&m);",
    ",",
];

#[derive(Debug, Clone)]
enum Mutation {
    Delete(f64, usize),
    Insert(f64, usize),
    DuplicateLine(f64),
    Truncate(f64),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (0.0..1.0f64, 1usize..40).prop_map(|(p, n)| Mutation::Delete(p, n)),
        (0.0..1.0f64, 0..TOKENS.len()).prop_map(|(p, t)| Mutation::Insert(p, t)),
        (0.0..1.0f64).prop_map(Mutation::DuplicateLine),
        (0.3..1.0f64).prop_map(Mutation::Truncate),
    ]
}

fn apply(src: &str, muts: &[Mutation]) -> String {
    let mut s: Vec<char> = src.chars().collect();
    for m in muts {
        let at = |p: f64, len: usize| ((p * len as f64) as usize).min(len);
        match m {
            Mutation::Delete(p, n) => {
                let i = at(*p, s.len());
                let j = (i + n).min(s.len());
                s.drain(i..j);
            }
            Mutation::Insert(p, t) => {
                let i = at(*p, s.len());
                let tok: Vec<char> = format!(" {} ", TOKENS[*t]).chars().collect();
                s.splice(i..i, tok);
            }
            Mutation::DuplicateLine(p) => {
                let text: String = s.iter().collect();
                let lines: Vec<&str> = text.lines().collect();
                if lines.is_empty() {
                    continue;
                }
                let k = at(*p, lines.len() - 1);
                let mut out: Vec<&str> = lines.clone();
                out.insert(k, lines[k]);
                s = out.join("\n").chars().collect();
            }
            Mutation::Truncate(p) => {
                let i = at(*p, s.len());
                s.truncate(i);
            }
        }
    }
    s.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, failure_persistence: None, ..ProptestConfig::default() })]
    /// clang rejects what is not C (an error, exit 2 in the CLI); what it compiles lowers or
    /// is reported unsupported, never a panic.
    #[test]
    fn mutated_corpus_never_panics(idx in 0usize..1000, muts in prop::collection::vec(mutation(), 1..4)) {
        let srcs = sources();
        let (name, src) = &srcs[idx % srcs.len()];
        let text = apply(src, &muts);
        let opts = Options { max_transitions: 50_000, ..Options::default() };
        let file = name.rsplit('/').next().unwrap();
        if let Ok(prog) = load_str(file, &text, &opts) {
            let _ = run(&prog, &mut RandomOracle::new(idx as u64), 2_000);
        }
    }
}
