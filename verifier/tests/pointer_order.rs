//! Pointers compared by order and subtracted (`frontend::llvm::pointers`): within one block
//! (an object, or one instance of an allocation site) the model's result is a run's, so such
//! programs are decided; across blocks C gives no result and a run's is its allocator's, so
//! the model makes one up: no `safe` verdict rests on the model's numbers, and no `unsafe`
//! one either.

mod common;

use verifier::frontend::{load_str, Options as FOpts};
use verifier::imc::Verdict;
use verifier::ir::Program;

fn lower(text: &str) -> Program {
    load_str("order.c", text, &FOpts::default()).expect("lowers")
}

/// Loops over a heap block up to one past its end, differences of pointers into one array
/// and into a struct's fields, pointers loaded from two fields of one node (the difference
/// of `n->write - n->read` of a queue node): all within one block, all exact.
const WITHIN: &str = r#"
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
struct node { int *read; int buf[4]; int *write; };
struct s { int x; int buf[4]; int y; };
struct s g;
struct node *n;
static void *writer(void *a) { *n->write = 7; n->write++; return a; }
int main(void) {
  int *p[2];
  for (int i = 0; i < 2; i++) { p[i] = malloc(4 * sizeof(int)); if (!p[i]) return 0; }
  int *e = p[1] + 4, *q = p[1];
  int k = 0;
  while (q < e) { *q++ = k++; }
  assert(k == 4 && e - p[1] == 4 && p[0] + 4 > p[0]);
  assert(&g.x < &g.y && &g.buf[3] - &g.buf[1] == 2);
  n = malloc(sizeof *n);
  if (!n) return 0;
  n->read = n->write = n->buf;
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  pthread_join(t, 0);
  assert(n->write - n->read == 1 && n->read < n->write);
  return 0;
}
"#;

#[test]
fn pointers_into_one_block_compare_and_subtract_exactly() {
    assert!(common::runs_natively("within", WITHIN));
    let p = lower(WITHIN);
    assert_eq!(p.observes_numbering, None);
    let (v, _) = common::verdict_and_ivrs(&p);
    assert_eq!(v, Verdict::Safe);
}

#[test]
fn pointers_into_two_blocks_have_no_order_or_distance_of_the_models() {
    let cases = [
        // Two globals: the model numbers `a` before `b`.
        (
            "globals",
            "int a, b;\nint main(void) { assert(&a < &b); return 0; }",
        ),
        (
            "distance",
            "int main(void) {\n  char *a = malloc(8), *b = malloc(8);\n  if (!a || !b) \
             return 0;\n  long d = b - a;\n  assert(d < 0 || d >= 8);\n  return 0;\n}",
        ),
        // Two blocks of one allocation site: the model's instances lie in the order made.
        (
            "instances",
            "int main(void) {\n  int *p[2];\n  for (int i = 0; i < 2; i++) { p[i] = \
             malloc(16); if (!p[i]) return 0; }\n  assert(p[0] < p[1]);\n  return 0;\n}",
        ),
        // A thread's block against main's.
        (
            "threads",
            "int *m;\nstatic void *f(void *a) { int *q = malloc(4); if (q) assert(q > m); \
             return a; }\nint main(void) {\n  m = malloc(4);\n  if (!m) return 0;\n  \
             pthread_t t;\n  pthread_create(&t, 0, f, 0);\n  pthread_join(t, 0);\n  return \
             0;\n}",
        ),
    ];
    for (name, body) in cases {
        let text =
            format!("#include <assert.h>\n#include <pthread.h>\n#include <stdlib.h>\n{body}\n");
        // (Each passes compiled with gcc or clang on glibc: the layout decides.)
        assert!(common::runs_natively(name, &text), "{name}");
        let p = lower(&text);
        assert_eq!(p.observes_numbering, None, "{name}");
        let (v, _) = common::verdict_and_ivrs(&p);
        assert!(
            !matches!(v, Verdict::Safe | Verdict::Unsafe),
            "{name}: {v:?}"
        );
    }
}

/// The verdict of `p` within `secs` seconds.
fn verdict_within(p: &Program, secs: u64) -> Verdict {
    let opts = verifier::imc::Options {
        timeout: std::time::Duration::from_secs(secs),
        ..verifier::imc::Options::default()
    };
    let engine = verifier::engine::Engine::Auto;
    verifier::engine::run_iterative(p, opts, engine, usize::MAX, None, &mut |_| {}).verdict
}

/// Values that are no addresses in an object are never one block: thread ids (numbers of
/// the model's own, glibc's are addresses), a dangling pointer (which gcc makes null), and a
/// pointer converted to a narrower integer (its object's number lost). And a thread id
/// converted to an integer and subtracted, which the program compiled with `pthread_t`
/// opaque shows as a difference of two pointers, is read as a number.
#[test]
fn numbers_dangling_pointers_and_narrowed_addresses_are_no_blocks() {
    let thread = "static void *f(void *x) { return x; }\n";
    let two = "pthread_t t1, t2;\n  pthread_create(&t1, 0, f, 0);\n  pthread_create(&t2, 0, \
               f, 0);\n  pthread_join(t1, 0);\n  pthread_join(t2, 0);\n";
    let cases = [
        // (name, declarations, body, whether the compiled program passes)
        (
            "ids_subtracted",
            thread,
            format!("{two}  assert((long)t2 - (long)t1 == 1);"),
            false,
        ),
        (
            "ids_apart",
            thread,
            format!("{two}  assert((long)t2 - (long)t1 != 1);"),
            true,
        ),
        (
            "ids_ordered",
            thread,
            format!("{two}  void *a = (void *)t1, *b = (void *)t2;\n  assert(a < b);"),
            false,
        ),
        (
            "dangling",
            "static int *f(void) { int x = 1; return &x; }\n",
            "int *p = f();\n  assert(p > (int *)0);".to_string(),
            false,
        ),
        (
            "narrowed",
            "",
            "int a, b;\n  int *p = &a, *q = &b;\n  assert((unsigned)p - (unsigned)q == 0);"
                .to_string(),
            false,
        ),
        (
            "narrowed_apart",
            "",
            "int a, b;\n  int *p = &a, *q = &b;\n  assert((unsigned)p - (unsigned)q != 0);"
                .to_string(),
            true,
        ),
    ];
    for (name, decls, body, passes) in cases {
        let text = format!(
            "#include <assert.h>\n#include <pthread.h>\n{decls}int main(void) {{\n  {body}\n  \
             return 0;\n}}\n"
        );
        assert_eq!(common::runs_natively(name, &text), passes, "{name}");
        let v = verdict_within(&lower(&text), 5);
        assert!(
            !matches!(v, Verdict::Safe | Verdict::Unsafe),
            "{name}: {v:?}"
        );
    }
}

/// An address modulo a power of two (a test of alignment, `(uintptr_t)p % 8`, `(char *)p -
/// (char *)0`, `& 15`) is a run's where the block starts at such a multiple in every run:
/// globals and locals as aligned as their types (a global array of 16 bytes or more to 16,
/// as the x86-64 psABI has it), memory from `malloc` (to 8 here: its blocks lie after a
/// status cell of 8 bytes in the model), instances of an allocation site a multiple apart,
/// and a number, which is its own address. Such programs are decided, a wrong claim of
/// alignment too.
const ALIGNED: &str = r#"
#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
long g[4];
int x;
static void *f(void *a) { x++; return a; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, f, (void *)6);
  long *p = malloc(3 * sizeof(long));
  long loc[2];
  char *q[3];
  void *r;
  for (int i = 0; i < 3; i++) q[i] = malloc(40);
  assert(((char *)p - (char *)0) % sizeof(long) == 0);
  assert(((uintptr_t)&g[1] & 15) == 8 && (uintptr_t)&loc[1] % 8 == 0);
  assert((uintptr_t)(p + 1) % 8 == 0 && (uintptr_t)(void *)0 % 8 == 0);
  for (int i = 0; i < 3; i++) assert((uintptr_t)(q[i] + 20) % 8 == 4);
  pthread_join(t, &r);
  assert((long)r % 4 == 2);
  CLAIM;
  return 0;
}
"#;

#[test]
fn addresses_modulo_the_alignment_every_run_gives_are_exact() {
    let safe = ALIGNED.replace("CLAIM", "assert((uintptr_t)(q[2] + 32) % 8 == 0)");
    assert!(common::runs_natively("aligned", &safe));
    let p = lower(&safe);
    assert_eq!(p.observes_numbering, None);
    assert_eq!(common::verdict_and_ivrs(&p).0, Verdict::Safe);
    // 36 is no multiple of 8.
    let wrong = ALIGNED.replace("CLAIM", "assert((uintptr_t)(q[2] + 36) % 8 == 0)");
    assert!(!common::runs_natively("misaligned", &wrong));
    assert_eq!(common::verdict_and_ivrs(&lower(&wrong)).0, Verdict::Unsafe);
}

/// Where no run is known to align the block, the remainder is made up (and still a
/// remainder): a byte array (aligned to 1), instances of a site 28 bytes apart (a status
/// cell and 20 bytes), a local array that clang aligns to 16 and gcc, optimising for size,
/// does not, the C library's own memory (its models' buffers), memory from `malloc` modulo
/// 16, and thread ids (glibc's are addresses; the program compiled with `pthread_t` opaque
/// shows the remainder of one).
#[test]
fn addresses_modulo_more_than_their_blocks_alignment_are_made_up() {
    let thread = "static void *f(void *x) { return x; }\n";
    let cases = [
        (
            "bytes",
            "char c[3];\n",
            "assert((uintptr_t)&c[1] % 8 == 1);",
        ),
        (
            "site",
            "",
            "char *q[2];\n  for (int i = 0; i < 2; i++) { q[i] = malloc(20); if (!q[i]) \
             return 0; }\n  assert((uintptr_t)q[1] % 8 == 0);",
        ),
        (
            "local",
            "__attribute__((noinline)) static void check(void) {\n  char buf[24];\n  \
             char *volatile s = buf;\n  assert((uintptr_t)s % 16 == 0);\n}\n",
            "check();",
        ),
        (
            "library",
            "#include <netdb.h>\n",
            "assert((uintptr_t)hstrerror(HOST_NOT_FOUND) % 16 == 0);",
        ),
        (
            "malloc",
            "",
            "char *p = malloc(24);\n  assert(((uintptr_t)p & 15) == 0);",
        ),
        (
            "ids",
            thread,
            "pthread_t t;\n  pthread_create(&t, 0, f, 0);\n  pthread_join(t, 0);\n  \
             assert((uintptr_t)t % 8 == 0);",
        ),
    ];
    let text = |decls: &str, body: &str| {
        format!(
            "#include <assert.h>\n#include <pthread.h>\n#include <stdint.h>\n#include \
             <stdlib.h>\n{decls}int main(void) {{\n  {body}\n  return 0;\n}}\n"
        )
    };
    for (name, decls, body) in cases {
        let v = verdict_within(&lower(&text(decls, body)), 5);
        assert!(
            !matches!(v, Verdict::Safe | Verdict::Unsafe),
            "{name}: {v:?}"
        );
    }
    // A remainder made up is below the modulus: an index in range.
    let index = text(
        "char c[3];\n",
        "int a[8] = {0};\n  assert(a[(uintptr_t)&c[1] % 8] == 0);",
    );
    assert_eq!(verdict_within(&lower(&index), 5), Verdict::Safe);
}
