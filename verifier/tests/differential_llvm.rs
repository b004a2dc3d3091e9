//! Differential test of the clang/LLVM front end and the memory model: for every
//! single-threaded program in `tests/diff/` and `tests/diff-llvm/` (unions, the heap, libc
//! strings, pointers into structs), the bytes of every global object after the
//! interpreter ran the lowered program equal the bytes of that global after the program,
//! compiled with the system C compiler, returned from `main` (padding and pointer values
//! aside: addresses differ by construction).

use std::path::{Path, PathBuf};
use std::process::Command;
use verifier::frontend::load;
use verifier::frontend::Options;
use verifier::interp::{run, Outcome, RandomOracle};
use verifier::ir::{ElemKind, Program, VarScope};

fn programs() -> Vec<PathBuf> {
    let mut v = Vec::new();
    for d in ["tests/diff", "tests/diff-llvm"] {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(d);
        let mut here: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("the test programs' folder exists")
            .map(|e| e.expect("dir entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "c"))
            .collect();
        here.sort();
        v.extend(here);
    }
    v
}

/// The globals compared: objects with the name of a C identifier (not the compiler's
/// string constants, function-scope statics or the libc models' tables).
fn globals(p: &Program) -> Vec<&verifier::ir::Object> {
    p.objects
        .iter()
        .filter(|o| {
            p.var(o.var).scope == VarScope::Global
                && !o.name.is_empty()
                && o.name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !o.name.starts_with(|c: char| c.is_ascii_digit())
                && !o.name.starts_with("__synth")
        })
        .collect()
}

/// A global's name and bytes (`None`: padding or a pointer).
type Image = (String, Vec<Option<u8>>);

/// Per global: its bytes as the interpreter leaves them.
fn interpreted(p: &Program) -> Result<Vec<Image>, String> {
    let (exec, state) = run(p, &mut RandomOracle::new(0), 50_000_000);
    if exec.outcome != Outcome::Halted {
        return Err(format!("outcome {:?}", exec.outcome));
    }
    let members = p.object_members();
    let mut out = Vec::new();
    for o in globals(p) {
        let mut bytes = vec![None; o.size as usize];
        for v in &members[o.var.0 as usize] {
            let var = p.var(*v);
            let ElemKind::Int(ty) = var.elem else {
                continue;
            };
            // A struct's padding (cells the front end names `.padN`) holds whatever a copy
            // left there, which C does not fix.
            if var.name.contains(".pad") {
                continue;
            }
            let width = (ty.bits as usize).div_ceil(8);
            let pl = var.placement();
            for k in 0..var.len as usize {
                let at = pl.offset as usize + k * pl.stride as usize;
                let x = state.get(var.id, k, ty);
                for b in 0..width {
                    if let Some(slot) = bytes.get_mut(at + b) {
                        *slot = Some((x >> (8 * b)) as u8);
                    }
                }
            }
        }
        out.push((o.name.clone(), bytes));
    }
    Ok(out)
}

/// Per global: its bytes in the compiled program after `main` returned.
fn compiled(p: &Program, path: &Path, tmp: &Path) -> Result<Vec<(String, Vec<u8>)>, String> {
    let mut driver = format!(
        "#define main synth_user_main\n#include \"{}\"\n#undef main\n#include <stdio.h>\nstatic void dump(const char *n, const void *p, unsigned long s) {{\n  printf(\"%s\", n);\n  for (unsigned long i = 0; i < s; i++) printf(\" %02x\", ((const unsigned char *)p)[i]);\n  printf(\"\\n\");\n}}\nint main(int synth_argc, char **synth_argv) {{\n  ((int (*)(int, char **))synth_user_main)(synth_argc, synth_argv);\n",
        path.display()
    );
    for o in globals(p) {
        driver.push_str(&format!("  dump(\"{0}\", &{0}, sizeof({0}));\n", o.name));
    }
    driver.push_str("  return 0;\n}\n");
    let stem = path.file_stem().unwrap().to_string_lossy();
    let src = tmp.join(format!("{stem}_bytes.c"));
    let bin = tmp.join(format!("{stem}_bytes"));
    std::fs::write(&src, driver).map_err(|e| e.to_string())?;
    let cc = Command::new("cc")
        .args(["-std=gnu11", "-O0", "-w", "-o"])
        .arg(&bin)
        .arg(&src)
        .output()
        .map_err(|e| e.to_string())?;
    if !cc.status.success() {
        return Err(format!(
            "cc failed: {}",
            String::from_utf8_lossy(&cc.stderr)
        ));
    }
    let out = Command::new(&bin).output().map_err(|e| e.to_string())?;
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let mut it = l.split(' ');
            let name = it.next().unwrap_or_default().to_string();
            let bytes = it
                .map(|h| u8::from_str_radix(h, 16).expect("hex byte"))
                .collect();
            (name, bytes)
        })
        .collect())
}

#[test]
fn interpreter_agrees_with_cc_on_the_bytes_of_globals() {
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("diff-llvm");
    std::fs::create_dir_all(&tmp).unwrap();
    let progs = programs();
    assert!(progs.len() >= 30, "only {} programs", progs.len());
    let mut failures = Vec::new();
    let mut compared = 0;
    for path in &progs {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let p = match load(path, &Options::default()) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{name}: front end: {e}"));
                continue;
            }
        };
        let (a, b) = match (interpreted(&p), compiled(&p, path, &tmp)) {
            (Ok(a), Ok(b)) => (a, b),
            (Err(e), _) => {
                failures.push(format!("{name}: interpreter: {e}"));
                continue;
            }
            (_, Err(e)) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        if a.len() != b.len() {
            failures.push(format!("{name}: {} globals vs {}", a.len(), b.len()));
            continue;
        }
        for ((g, mine), (g2, theirs)) in a.iter().zip(&b) {
            assert_eq!(g, g2);
            compared += 1;
            if mine.len() != theirs.len() {
                failures.push(format!(
                    "{name}: {g}: {} bytes vs {}",
                    mine.len(),
                    theirs.len()
                ));
                continue;
            }
            let diff: Vec<String> = mine
                .iter()
                .zip(theirs)
                .enumerate()
                .filter(|(_, (m, t))| m.is_some_and(|m| m != **t))
                .take(4)
                .map(|(k, (m, t))| format!("byte {k}: interpreter {:02x}, cc {t:02x}", m.unwrap()))
                .collect();
            if !diff.is_empty() {
                failures.push(format!("{name}: {g}: {diff:?}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(compared >= 60, "only {compared} globals compared");
}
