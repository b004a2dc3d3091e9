//! Programs that read thread ids or addresses as numbers (`Program::observes_numbering`):
//! the model's numbers are not a run's, so no schedule of such a program is claimed safe and
//! no bug of it `unsafe`; a thread id only joined, compared for equality or printed, and a
//! pointer only printed, are not read as numbers.

use std::process::Command;
use std::time::Duration;
use verifier::engine::{run_iterative, Engine};
use verifier::frontend::{load_str, Options as FOpts};
use verifier::imc::{Ivr, IvrKind, Options, Verdict};
use verifier::ir::Program;
use verifier::ivr::{verify_file, IvrFile};

fn lower(text: &str) -> Program {
    load_str("numbers.c", text, &FOpts::default()).expect("lowers")
}

fn verdict(p: &Program) -> (Verdict, Vec<Ivr>) {
    let opts = Options {
        timeout: Duration::from_secs(30),
        ..Options::default()
    };
    let mut ivrs = Vec::new();
    let r = run_iterative(p, opts, Engine::Auto, usize::MAX, None, &mut |i| {
        ivrs.push(i.clone())
    });
    (r.verdict, ivrs)
}

/// Whether `text`, compiled with the system's C compiler, fails when run (an assertion).
fn fails_natively(name: &str, text: &str) -> bool {
    let dir = std::env::temp_dir().join(format!("synth-numbers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let src = dir.join(format!("{name}.c"));
    let bin = dir.join(name);
    std::fs::write(&src, text).expect("source written");
    let cc = Command::new("cc")
        .args(["-std=gnu11", "-O0", "-w", "-pthread", "-o"])
        .arg(&bin)
        .arg(&src)
        .output()
        .expect("cc runs");
    assert!(
        cc.status.success(),
        "{}",
        String::from_utf8_lossy(&cc.stderr)
    );
    let run = Command::new(&bin).output().expect("the program runs");
    let _ = std::fs::remove_dir_all(&dir);
    !run.status.success()
}

/// A program checking the low bits of a number `expr` computes from a thread id or an
/// address (`setup` before it): glibc's ids and malloc's blocks are 16-byte aligned, so the
/// compiled program fails, while the model's numbers pass.
fn checking_low_bits(setup: &str, expr: &str) -> String {
    format!(
        "#include <assert.h>\n#include <pthread.h>\n#include <stdlib.h>\n\
         static void *f(void *a) {{ return a; }}\n\
         int main(void) {{\n  pthread_t t;\n  pthread_create(&t, 0, f, 0);\n  {setup}\n  \
         unsigned long v = {expr};\n  pthread_join(t, 0);\n  assert((v & 15) != 0);\n  \
         return 0;\n}}\n"
    )
}

#[test]
fn a_check_on_a_thread_ids_or_an_addresss_number_is_not_called_safe() {
    let cases = [
        ("", "t", "numbers.c:9:21"),
        ("", "(unsigned long)t + 16", "numbers.c:9:"),
        ("", "pthread_self()", "numbers.c:9:21"),
        (
            "void *p = malloc(32); if (!p) return 0;",
            "(unsigned long)p",
            "numbers.c:9:",
        ),
    ];
    for (setup, expr, at) in cases {
        let text = checking_low_bits(setup, expr);
        assert!(fails_natively("low_bits", &text), "{expr}: passes natively");
        let p = lower(&text);
        let why = p.observes_numbering.clone().expect("reads a number");
        assert!(why.contains(at), "{expr}: {why}");
        let (v, ivrs) = verdict(&p);
        assert!(matches!(v, Verdict::Unknown(_)), "{expr}: {v:?}");
        assert!(
            ivrs.iter().all(|i| !matches!(i.kind, IvrKind::Safe(_))),
            "{expr}: a safe IVR"
        );
    }
}

/// A bug that fails only on the model's thread id is not `unsafe`: the id is read as a
/// number through glibc's integer `pthread_t`, with no conversion in the module, both where
/// no scheduler has a choice and where every schedule fails.
#[test]
fn a_bug_on_a_thread_ids_number_is_not_unsafe() {
    let alone = checking_low_bits("", "t").replace("!= 0", "== 0");
    let raced = r#"
#include <pthread.h>
#include <assert.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int flag;
pthread_t t;
void *f(void *a) { pthread_mutex_lock(&m); flag = 1; pthread_mutex_unlock(&m); return 0; }
int main(void) {
  pthread_create(&t, 0, f, 0);
  pthread_mutex_lock(&m);
  int seen = flag;
  pthread_mutex_unlock(&m);
  if (seen) {
    unsigned long v = t;
    assert((v & 15) == 0);
  } else {
    assert(0);
  }
  pthread_join(t, 0);
  return 0;
}
"#;
    for text in [alone.as_str(), raced] {
        let p = lower(text);
        assert!(p.observes_numbering.is_some(), "{text}");
        let (v, _) = verdict(&p);
        assert!(
            !matches!(v, Verdict::Unsafe | Verdict::Safe),
            "{text}: {v:?}"
        );
    }
}

/// Thread ids kept in a heap array of a struct, joined, tested against a null id, compared
/// with `pthread_equal`, and `pthread_self` printed: no number is read, and the program is
/// safe.
#[test]
fn thread_ids_only_joined_compared_and_printed_are_no_numbers() {
    let p = lower(
        r#"
#include <pthread.h>
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
struct pool { int n; pthread_t *threads; };
int done;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static void *f(void *a) {
  pthread_mutex_lock(&m); done++; pthread_mutex_unlock(&m);
  printf("%lu\n", (unsigned long)pthread_self());
  return a;
}
int main(void) {
  struct pool p = { 2, malloc(2 * sizeof(pthread_t)) };
  if (!p.threads) return 0;
  pthread_t none = 0;
  for (int i = 0; i < p.n; i++) pthread_create(&p.threads[i], 0, f, 0);
  if (p.threads[0] != none && !pthread_equal(p.threads[0], p.threads[1]))
    for (int i = 0; i < p.n; i++) pthread_join(p.threads[i], 0);
  assert(done == 2);
  free(p.threads);
  return 0;
}
"#,
    );
    assert_eq!(p.observes_numbering, None);
    assert_eq!(verdict(&p).0, Verdict::Safe);
}

/// `synth check-ivr` refuses a safe IVR of a program that reads numbers, which the same
/// ART of the program whose numbers were a run's passes.
#[test]
fn the_ivr_checker_refuses_a_safe_schedule_of_a_program_reading_numbers() {
    let p = lower(&checking_low_bits("", "t"));
    assert!(p.observes_numbering.is_some());
    let mut blind = p.clone();
    blind.observes_numbering = None;
    let (v, ivrs) = verdict(&blind);
    assert_eq!(v, Verdict::Safe, "the model's ids pass the check");
    let safe = ivrs
        .iter()
        .find(|i| matches!(i.kind, IvrKind::Safe(_)))
        .expect("a safe IVR");
    let text = serde_json::to_string(&IvrFile::new(&blind, safe)).expect("serialises");
    assert!(verify_file(&blind, &text, 30_000).is_ok());
    let refused = verify_file(&p, &text, 30_000).expect_err("refused");
    assert!(refused.contains("numbers"), "{refused}");
}
