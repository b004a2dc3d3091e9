//! `schedgen::instrument` on small programs: what it refuses (with the position and the
//! reason) and how it places events (macro expansions, assignments through pointers, inputs).

mod common;

use common::first_safe;
use schedgen::instrument::{instrument, Error, Options};
use schedgen::{generate, Opt};
use std::path::PathBuf;

/// Writes `text` as `name` in a fresh directory and loads it with its preprocessed source.
fn load(name: &str, text: &str) -> (verifier::ir::Program, String, PathBuf) {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("synth-instrument-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    let (p, pre) = verifier::frontend::load_preprocessed(&path, &Default::default())
        .unwrap_or_else(|e| panic!("{e}"));
    (p, pre, path)
}

fn instrumented(name: &str, text: &str, opt: Opt) -> Result<String, Error> {
    let (p, pre, _) = load(name, text);
    let art = first_safe(&p, 30).expect("a safe IVR");
    let s = generate(
        &p,
        &art,
        schedgen::Options {
            opt,
            ..Default::default()
        },
    )
    .expect("a schedule");
    instrument(
        &p,
        &pre,
        &s,
        &Options {
            header: "p.sched.h".into(),
        },
    )
}

const ATOMIC: &str = "#include <pthread.h>\n\
int x;\n\
void __VERIFIER_atomic_inc(void) { x = x + 1; }\n\
void *t(void *a) { __VERIFIER_atomic_inc(); return 0; }\n\
int main(void) {\n\
  pthread_t h;\n\
  pthread_create(&h, 0, t, 0);\n\
  __VERIFIER_atomic_inc();\n\
  pthread_join(h, 0);\n\
  return 0;\n\
}\n";

#[test]
fn atomic_functions_are_enforced_from_opt1_and_refused_at_opt0_with_the_position() {
    let e = instrumented("atomic.c", ATOMIC, Opt::O0).unwrap_err();
    let msg = e.to_string();
    assert!(msg.contains("atomic.c:4:"), "{msg}");
    assert!(msg.contains("--opt 1 or 2"), "{msg}");
    let text = instrumented("atomic.c", ATOMIC, Opt::O1).unwrap();
    // The accesses inside the atomic function are events; the region markers are not, and
    // both calls stay.
    assert!(text.contains("synth_before("), "{text}");
    assert_eq!(
        text.matches("__VERIFIER_atomic_inc();").count(),
        2,
        "{text}"
    );
}

#[test]
fn shared_accesses_in_macros_and_through_pointers_are_placed_and_inputs_become_synth_input() {
    let src = "#include <pthread.h>\n\
#define BUMP(p) (*(p) += 2)\n\
extern unsigned __VERIFIER_nondet_uint(void);\n\
unsigned x;\n\
void *t(void *a) { BUMP(&x); return 0; }\n\
int main(void) {\n\
  pthread_t h;\n\
  unsigned k = __VERIFIER_nondet_uint();\n\
  pthread_create(&h, 0, t, 0);\n\
  x = k;\n\
  pthread_join(h, 0);\n\
  return 0;\n\
}\n";
    let text = instrumented("macro.c", src, Opt::O2).unwrap();
    assert!(text.contains("synth_input(\"uint\")"), "{text}");
    assert!(!text.contains("= __VERIFIER_nondet_uint()"), "{text}");
    // `*(&x) += 2`: a read and a write of x around the update, in that order.
    let at = text
        .find("+= __synth_r")
        .expect("the compound assignment is rewritten");
    let before = &text[..at];
    let (r, w) = (
        before.rfind("synth_before(").unwrap(),
        text[at..].find("synth_before(").unwrap(),
    );
    assert!(r < at && w > 0);
}

#[test]
fn a_library_call_writing_shared_memory_several_times_is_refused() {
    let src = "#include <pthread.h>\n\
#include <string.h>\n\
char v[8];\n\
void *t(void *a) { strcpy(v, \"abc\"); return 0; }\n\
int main(void) {\n\
  pthread_t h;\n\
  pthread_create(&h, 0, t, 0);\n\
  pthread_join(h, 0);\n\
  return v[0] == 'a' ? 0 : 1;\n\
}\n";
    match instrumented("lib.c", src, Opt::O2) {
        Err(Error::Unsupported { position, what }) => {
            assert!(position.ends_with("lib.c:4:20"), "{position}");
            assert!(
                what.contains("`strcpy` accesses shared memory several times"),
                "{what}"
            );
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn struct_copies_and_code_shared_by_local_and_shared_accesses_are_refused() {
    let copy = "#include <pthread.h>\n\
struct S { int a, b; } s;\n\
void *t(void *arg) { int a = s.a; int b = s.b; return (void *)(long)(a + b); }\n\
int main(void) {\n\
  pthread_t th;\n\
  struct S l = {1, 2};\n\
  pthread_create(&th, 0, t, 0);\n\
  s = l;\n\
  pthread_join(th, 0);\n\
  return 0;\n\
}\n";
    let e = instrumented("copy.c", copy, Opt::O2)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("copy.c:8:") && e.contains("copy of a whole struct"),
        "{e}"
    );
    let mixed = "#include <pthread.h>\n\
int g;\n\
int get(int *p) { return *p; }\n\
void *t(void *a) { g = 1; return 0; }\n\
int main(void) {\n\
  pthread_t th;\n\
  int l = 5;\n\
  pthread_create(&th, 0, t, 0);\n\
  int r = get(&l);\n\
  pthread_join(th, 0);\n\
  return r + get(&g);\n\
}\n";
    let e = instrumented("mixed.c", mixed, Opt::O2)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("mixed.c:3:") && e.contains("in some calls of its function"),
        "{e}"
    );
}

#[test]
fn arguments_are_evaluated_in_order_and_kept_where_calls_go() {
    let src = "#include <pthread.h>\n\
#include <stdio.h>\n\
pthread_mutex_t m[2];\n\
int x, y, a[2];\n\
int get(int *p) { return *p; }\n\
int diff(int u, int v) { return u - v; }\n\
void *t(void *arg) { pthread_mutex_lock(&m[1]); x = 1; y = 1; a[1] = 1; pthread_mutex_unlock(&m[1]); return 0; }\n\
int main(void) {\n\
  pthread_t th;\n\
  int i = 0;\n\
  pthread_create(&th, 0, t, 0);\n\
  int r = diff(get(&x), get(&y));\n\
  pthread_mutex_lock(&m[i++]);\n\
  a[i] = 2;\n\
  pthread_mutex_unlock(&m[i - 1]);\n\
  printf(\"%d\\n\", x);\n\
  pthread_join(th, 0);\n\
  return r;\n\
}\n";
    let text = instrumented("order.c", src, Opt::O1).unwrap();
    // Both arguments of diff into temporaries, in order, before the call.
    let call = text
        .find("diff(__synth_a")
        .expect("the call takes its arguments from temporaries");
    let first = text[..call].rfind("__auto_type __synth_a").unwrap();
    assert!(
        text[first..call].contains("_1 = ("),
        "{}",
        &text[first..call]
    );
    // The subsumed lock goes, its argument's increment stays.
    assert!(text.contains("(void)(&m[i++])"), "{text}");
    // printf's read of x is an event.
    let p = text.find("printf(").unwrap();
    assert!(
        text[p..p + 300].contains("synth_before("),
        "{}",
        &text[p..p + 300]
    );
}
