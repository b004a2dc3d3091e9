//! Programs that read thread ids or addresses as numbers (`Program::observes_numbering`):
//! the model's numbers are not a run's, so no schedule of such a program is claimed safe and
//! no bug of it `unsafe`; a thread id only joined, compared for equality or printed, and a
//! pointer only printed, are not read as numbers.

mod common;

use std::process::Command;
use verifier::frontend::{load_str, Options as FOpts};
use verifier::imc::{Ivr, IvrKind, Verdict};
use verifier::ir::Program;
use verifier::ivr::{verify_file, IvrFile};

fn lower(text: &str) -> Program {
    load_str("numbers.c", text, &FOpts::default()).expect("lowers")
}

fn verdict(p: &Program) -> (Verdict, Vec<Ivr>) {
    common::verdict_and_ivrs(p)
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
        ("", "t", "numbers.c:9:"),
        ("", "(unsigned long)t + 16", "numbers.c:9:"),
        ("", "pthread_self()", "numbers.c:9:"),
        (
            "void *p = malloc(32); if (!p) return 0;",
            "(unsigned long)p + 16",
            "numbers.c:9:",
        ),
    ];
    for (setup, expr, at) in cases {
        let text = checking_low_bits(setup, expr);
        assert!(
            !common::runs_natively("low_bits", &text),
            "{expr}: passes natively"
        );
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

/// A program whose `main` gets a thread's id (`t`, a `pthread_t` unless the declaration
/// says otherwise) and an address (`p`, 32 bytes from `malloc`), then runs `body`.
fn with_id_and_address(declaration: &str, body: &str) -> String {
    format!(
        "#include <assert.h>\n#include <pthread.h>\n#include <stdio.h>\n#include <stdlib.h>\n\
         #include <string.h>\n\
         static void *f(void *a) {{ return a; }}\n\
         int low();\n\
         int main(void) {{\n  {declaration};\n  pthread_create(&t, 0, f, 0);\n  \
         pthread_join(t, 0);\n  void *p = malloc(32);\n  if (!p) return 0;\n  \
         unsigned long v = 1;\n  {body}\n  assert((v & 15) != 0);\n  return 0;\n}}\n\
         int low(unsigned long x) {{ return x & 15; }}\n"
    )
}

/// Ids and addresses read as numbers without a conversion the module shows: kept in an
/// integer, passed to a function without a prototype, copied into an integer, read through
/// a union or byte by byte or by `memcmp`, formatted into a string and read back, compared with a number
/// computed at run time. Each fails natively and is not called safe. A constant address
/// computed with or returned is read too.
#[test]
fn numbers_read_through_memory_types_and_text_are_seen() {
    let cases = [
        ("unsigned long t", "v = t;"),
        ("pthread_t t", "v = low(t) ? 1 : 0;"),
        ("pthread_t t", "memcpy(&v, &t, sizeof v);"),
        ("pthread_t t", "memcpy(&v, &p, sizeof v);"),
        ("pthread_t t", "v = ((unsigned char *)&t)[0];"),
        ("pthread_t t", "v = ((unsigned char *)&p)[0];"),
        (
            "pthread_t t",
            "pthread_t z = 0; v = memcmp(&t, &z, sizeof t) > 0 ? 16 : 1;",
        ),
        (
            "pthread_t t",
            "void *z = 0; v = memcmp(&p, &z, sizeof p) > 0 ? 16 : 1;",
        ),
        (
            "union { pthread_t t; unsigned long n; } u; pthread_t t",
            "u.t = t; v = u.n;",
        ),
        (
            "pthread_t t",
            "char s[32]; snprintf(s, sizeof s, \"%lu\", t); v = strtoul(s, 0, 10);",
        ),
        (
            "pthread_t t",
            "unsigned long m = 0x7f0000001001UL; v = t == m ? 1 : 0;",
        ),
    ];
    // A constant address computed with or returned (no run fails for sure: only alignment
    // is known). (Its remainder modulo a power of two is made up beyond the alignment,
    // `pointer_order.rs`.)
    for body in [
        "return (int)((unsigned long)&g >> 4);",
        "return (unsigned long)&g;",
    ] {
        let text =
            format!("int g;\nlong h(void) {{ {body} }}\nint main(void) {{ return h() == 7; }}\n");
        assert!(lower(&text).observes_numbering.is_some(), "{body}");
    }
    for (declaration, body) in cases {
        let text = with_id_and_address(declaration, body);
        assert!(
            !common::runs_natively("through", &text),
            "{body}: passes natively"
        );
        let p = lower(&text);
        assert!(p.observes_numbering.is_some(), "{body}");
        let (v, _) = verdict(&p);
        assert!(matches!(v, Verdict::Unknown(_)), "{body}: {v:?}");
    }
}

/// An address read as an integer in another function than the one that stores it: through
/// a parameter that a call passes the place to (`bits(&u)`), stored through one
/// (`put(&u)`) and read by a thread that `pthread_create` passes it to. Each fails natively
/// (malloc's blocks are 16-byte aligned) and is neither `safe` nor read as no number.
#[test]
fn addresses_read_as_numbers_by_other_functions_are_seen() {
    let program = |helpers: &str, body: &str| {
        format!(
            "#include <assert.h>\n#include <pthread.h>\n#include <stdlib.h>\n\
             union pun {{ void *p; unsigned long n; }};\n{helpers}\n\
             int main(void) {{\n  union pun u;\n  {body}\n  return 0;\n}}\n"
        )
    };
    let cases = [
        (
            "__attribute__((noinline)) static unsigned long bits(union pun *u) { return u->n; }",
            "u.p = malloc(8); if (!u.p) return 0; assert((bits(&u) & 15) == 8);",
        ),
        (
            "__attribute__((noinline)) static void put(union pun *u) { u->p = malloc(8); }\n\
             static void *reader(void *a) { union pun *w = a; assert((w->n & 15) == 8); \
             return 0; }",
            "put(&u); if (!u.p) return 0; pthread_t t; pthread_create(&t, 0, reader, &u); \
             pthread_join(t, 0);",
        ),
    ];
    for (helpers, body) in cases {
        let text = program(helpers, body);
        assert!(
            !common::runs_natively("elsewhere", &text),
            "{body}: passes natively"
        );
        let p = lower(&text);
        assert!(p.observes_numbering.is_some(), "{body}");
        let (v, _) = verdict(&p);
        assert!(matches!(v, Verdict::Unknown(_)), "{body}: {v:?}");
    }
}

/// Comparing an id for equality with the number the model gives it is a read; with a
/// number in the zero page, which no id or object has, it is not.
#[test]
fn an_id_compared_with_a_number_is_read_unless_no_object_has_the_number() {
    let equal = with_id_and_address("pthread_t t", "v = t == 0x7f0000001001UL ? 1 : 0;");
    assert!(!common::runs_natively("equal", &equal));
    let p = lower(&equal);
    assert!(p.observes_numbering.is_some());
    assert!(matches!(verdict(&p).0, Verdict::Unknown(_)));
    let small = with_id_and_address("pthread_t t", "v = t != 1 && t != (pthread_t)-1 ? 1 : 0;");
    assert!(common::runs_natively("small", &small));
    let p = lower(&small);
    assert_eq!(p.observes_numbering, None);
    assert_eq!(verdict(&p).0, Verdict::Safe);
}

/// `main`'s id kept in a global and compared with `pthread_equal`, and the numbers threads
/// return read back after their joins (`(long)ret`), read no number: the program is safe.
#[test]
fn ids_kept_for_pthread_equal_and_numbers_threads_return_are_no_reads() {
    let p = lower(
        r#"
#include <assert.h>
#include <pthread.h>
int x;
pthread_t main_id;
static void *f(void *a) {
  if (!pthread_equal(pthread_self(), main_id)) x = 1;
  return (void *)((long)a * 10);
}
int main(void) {
  main_id = pthread_self();
  pthread_t t[2];
  for (long i = 0; i < 2; i++) pthread_create(&t[i], 0, f, (void *)i);
  long total = 0;
  for (int i = 0; i < 2; i++) {
    void *ret;
    pthread_join(t[i], &ret);
    total += (long)ret;
  }
  assert(x == 1 && total == 10);
  return 0;
}
"#,
    );
    assert_eq!(p.observes_numbering, None);
    assert_eq!(verdict(&p).0, Verdict::Safe);
}

/// `printf`'s `%n` stores the count printed so far, which the model does not: refused.
#[test]
fn printf_storing_its_count_is_refused() {
    let text = "#include <stdio.h>\nint main(void) {\n  int n = 0;\n  \
                printf(\"0123456789ab%n\\n\", &n);\n  return n < 10;\n}\n";
    let e = load_str("count.c", text, &FOpts::default()).expect_err("refused");
    assert!(e.to_string().contains("count.c:4:3"), "{e}");
    assert!(e.to_string().contains("%n"), "{e}");
}

/// The `container_of` idiom (`(size_t)&((struct node *)0)->link`, a member's offset from a
/// null pointer) and an address `main` returns as the exit status read no number: the
/// offset is the same number in a run and in the model, and no verdict rests on the exit
/// status. Both programs are safe, and the first passes when compiled.
#[test]
fn offsets_from_null_and_mains_exit_status_are_no_reads() {
    let text = r#"
#include <assert.h>
#include <pthread.h>
#include <stddef.h>
struct link { struct link *next; };
struct node { int value; struct link link; };
#define container_of(p, type, member) \
  ((type *)((char *)(p) - (size_t)&((type *)0)->member))
struct node a = {1, {0}}, b = {2, {&a.link}};
struct link *head = &b.link;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int total;
static void *sum(void *arg) {
  pthread_mutex_lock(&m);
  for (struct link *l = head; l; l = l->next)
    total += container_of(l, struct node, link)->value;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, sum, 0);
  pthread_join(t, 0);
  assert(total == 3);
  return 0;
}
"#;
    let p = lower(text);
    assert_eq!(p.observes_numbering, None);
    assert_eq!(verdict(&p).0, Verdict::Safe);
    assert!(common::runs_natively("container_of", text));
    let status = lower(
        r#"
#include <pthread.h>
#include <stdlib.h>
static void *f(void *a) { return a; }
int main(void) {
  pthread_t t;
  void *p = malloc(8);
  pthread_create(&t, 0, f, p);
  pthread_join(t, 0);
  return (long)p;
}
"#,
    );
    assert_eq!(status.observes_numbering, None);
    assert_eq!(verdict(&status).0, Verdict::Safe);
}

/// What a function other than `main` returns is the caller's to decide on: an address
/// converted there is still read (here the caller checks its low bits, which the compiled
/// program fails).
#[test]
fn an_address_returned_to_a_caller_is_read() {
    let text = r#"
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
static void *f(void *a) { return a; }
static long number(void *p) { return (long)p; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, f, 0);
  long v = number(malloc(16));
  pthread_join(t, 0);
  assert((v & 15) != 0);
  return 0;
}
"#;
    let p = lower(text);
    assert!(p.observes_numbering.is_some());
    assert_ne!(verdict(&p).0, Verdict::Safe);
    assert!(!common::runs_natively("returned_address", text));
}

/// glibc's `bits/pthreadtypes.h` (as `cc -M` finds it from `<pthread.h>`), copied into a new
/// include directory named `name` under the temporary directory.
fn thread_types_copy(name: &str) -> std::path::PathBuf {
    let deps = Command::new("cc")
        .args(["-M", "-x", "c", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin
                .take()
                .expect("stdin")
                .write_all(b"#include <pthread.h>\n")?;
            c.wait_with_output()
        })
        .expect("cc -M runs");
    let deps = String::from_utf8_lossy(&deps.stdout).replace('\\', " ");
    let header = deps
        .split_whitespace()
        .find(|p| p.ends_with("bits/pthreadtypes.h"))
        .expect("glibc's bits/pthreadtypes.h");
    let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("bits")).expect("directory");
    std::fs::copy(header, dir.join("bits/pthreadtypes.h")).expect("header copied");
    dir
}

/// A program whose include directories hold their own copy of the C library's
/// `bits/pthreadtypes.h` is still compiled with `pthread_t` opaque for the check: its
/// computation with a thread id (`pthread_self() % 2`) is seen.
#[test]
fn a_copy_of_the_thread_types_header_in_an_include_directory_does_not_hide_ids() {
    let dir = thread_types_copy("synth-shadow");
    let text = r#"
#include <pthread.h>
int main(void) { return pthread_self() % 2; }
"#;
    let opts = FOpts {
        include_dirs: vec![dir.clone()],
        ..FOpts::default()
    };
    let p = load_str("shadow.c", text, &opts).expect("lowers");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(p.observes_numbering.is_some());
}

/// The copy of the header in a directory whose name clang escapes in its line markers (a
/// non-ASCII letter, a backslash) is found all the same: a program that only joins its
/// threads reads no id, and one that computes with an id does.
#[test]
fn a_copy_of_the_thread_types_header_under_an_escaped_name_is_found() {
    let only_joined = r#"
#include <pthread.h>
int x;
static void *t(void *a) { x = 1; return a; }
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, t, 0);
  pthread_join(a, 0);
  return 0;
}
"#;
    let computed = r#"
#include <pthread.h>
int main(void) { return pthread_self() % 2; }
"#;
    for name in ["synth-incl\u{e9}", "synth-back\\slash"] {
        let dir = thread_types_copy(name);
        let opts = FOpts {
            include_dirs: vec![dir.clone()],
            ..FOpts::default()
        };
        let joined = load_str("escaped.c", only_joined, &opts).expect("lowers");
        let reads = load_str("escaped.c", computed, &opts).expect("lowers");
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(joined.observes_numbering, None, "{name}");
        assert!(reads.observes_numbering.is_some(), "{name}");
    }
}
