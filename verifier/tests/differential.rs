//! Differential test of the IR semantics: for every single-threaded program in `tests/diff/`,
//! the interpreter's final values of the globals equal those printed by the same program
//! compiled with the system C compiler.

use std::path::{Path, PathBuf};
use std::process::Command;
use verifier::frontend::{load, Options};
use verifier::interp::{run, Outcome, RandomOracle};
use verifier::ir::{ElemKind, VarScope};

fn programs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/diff");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/diff exists")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    v.sort();
    v
}

/// Globals as `lvalue = value` lines, from the interpreter.
fn interpreted(path: &Path) -> Result<Vec<String>, String> {
    let prog = load(path, &Options::default()).map_err(|e| e.to_string())?;
    let (exec, state) = run(&prog, &mut RandomOracle::new(0), 50_000_000);
    if exec.outcome != Outcome::Halted {
        return Err(format!("outcome {:?}", exec.outcome));
    }
    let mut lines = Vec::new();
    for v in &prog.vars {
        if v.scope != VarScope::Global || !matches!(v.elem, ElemKind::Int(_)) {
            continue;
        }
        for k in 0..v.len as usize {
            lines.push(format!(
                "{} = {}",
                v.c_element(k),
                state.get(v.id, k, v.elem.ty())
            ));
        }
    }
    Ok(lines)
}

/// The same lines printed by the compiled program.
fn compiled(path: &Path, tmp: &Path) -> Result<Vec<String>, String> {
    let prog = load(path, &Options::default()).map_err(|e| e.to_string())?;
    let mut driver = format!(
        "#define main synth_user_main\n#include \"{}\"\n#undef main\n#include <stdio.h>\nint main(int synth_argc, char **synth_argv) {{\n  ((int (*)(int, char **))synth_user_main)(synth_argc, synth_argv);\n",
        path.display()
    );
    for v in &prog.vars {
        let ElemKind::Int(ty) = v.elem else { continue };
        if v.scope != VarScope::Global {
            continue;
        }
        for k in 0..v.len as usize {
            let e = v.c_element(k);
            if ty.signed {
                driver.push_str(&format!(
                    "  printf(\"%s = %lld\\n\", \"{e}\", (long long)({e}));\n"
                ));
            } else {
                driver.push_str(&format!(
                    "  printf(\"%s = %llu\\n\", \"{e}\", (unsigned long long)({e}));\n"
                ));
            }
        }
    }
    driver.push_str("  return 0;\n}\n");
    let stem = path.file_stem().unwrap().to_string_lossy();
    let src = tmp.join(format!("{stem}_driver.c"));
    let bin = tmp.join(format!("{stem}_bin"));
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
        .map(str::to_string)
        .collect())
}

#[test]
fn interpreter_agrees_with_cc_on_globals() {
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("diff");
    std::fs::create_dir_all(&tmp).unwrap();
    let progs = programs();
    assert!(
        progs.len() >= 30,
        "only {} differential programs",
        progs.len()
    );
    let mut failures = Vec::new();
    for p in &progs {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        match (interpreted(p), compiled(p, &tmp)) {
            (Ok(a), Ok(b)) => {
                if a != b {
                    let diff: Vec<String> = a
                        .iter()
                        .zip(b.iter())
                        .filter(|(x, y)| x != y)
                        .take(5)
                        .map(|(x, y)| format!("interpreter {x} | cc {y}"))
                        .collect();
                    failures.push(format!(
                        "{name}: {} lines vs {}; {diff:?}",
                        a.len(),
                        b.len()
                    ));
                }
            }
            (Err(e), _) => failures.push(format!("{name}: interpreter: {e}")),
            (_, Err(e)) => failures.push(format!("{name}: {e}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} differ:\n{}",
        failures.len(),
        progs.len(),
        failures.join("\n")
    );
}
