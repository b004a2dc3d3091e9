//! The verifier's encoding of the IR agrees with the interpreter: at every step of concrete
//! runs, the symbolic step evaluated in the concrete pre-state gives the interpreter's guard
//! values, defined behaviour, and post-state.

mod common;

use std::collections::HashMap;
use std::path::Path;
use verifier::encode::Encoder;
use verifier::frontend::load;
use verifier::frontend::Options;
use verifier::interp::{Machine, Oracle, RandomOracle, State};
use verifier::ir::{Op, Program};
use verifier::smt::Term;

#[derive(Clone, Debug)]
enum Val {
    Int(i128),
    Arr(HashMap<i128, i128>),
}

fn int(v: Option<Val>) -> Option<i128> {
    match v? {
        Val::Int(x) => Some(x),
        Val::Arr(_) => None,
    }
}

/// Concrete evaluation of a quantifier-free term; `None` when a variable is unbound.
fn eval(t: &Term, env: &HashMap<String, Val>) -> Option<Val> {
    let i = |x: &Term| int(eval(x, env));
    let b = |x: &Term| i(x).map(|v| v != 0);
    let bo = |v: bool| Some(Val::Int(v as i128));
    match t {
        Term::True => bo(true),
        Term::False => bo(false),
        Term::Int(v) => Some(Val::Int(*v)),
        Term::Var(n, _) => env.get(&**n).cloned(),
        Term::Not(a) => bo(!b(a)?),
        Term::And(xs) => {
            for x in xs.iter() {
                if !b(x)? {
                    return bo(false);
                }
            }
            bo(true)
        }
        Term::Or(xs) => {
            for x in xs.iter() {
                if b(x)? {
                    return bo(true);
                }
            }
            bo(false)
        }
        Term::Implies(x, y) => bo(!b(x)? || b(y)?),
        Term::Ite(c, x, y) => {
            if b(c)? {
                eval(x, env)
            } else {
                eval(y, env)
            }
        }
        Term::Eq(x, y) => bo(i(x)? == i(y)?),
        Term::Le(x, y) => bo(i(x)? <= i(y)?),
        Term::Lt(x, y) => bo(i(x)? < i(y)?),
        Term::Add(xs) => {
            let mut s = 0i128;
            for x in xs.iter() {
                s = s.checked_add(i(x)?)?;
            }
            Some(Val::Int(s))
        }
        Term::Sub(x, y) => Some(Val::Int(i(x)?.checked_sub(i(y)?)?)),
        Term::Neg(x) => Some(Val::Int(-i(x)?)),
        Term::Mul(x, y) => Some(Val::Int(i(x)?.checked_mul(i(y)?)?)),
        Term::Div(x, y) => {
            let (n, d) = (i(x)?, i(y)?);
            (d != 0).then(|| Val::Int(n.div_euclid(d)))
        }
        Term::Mod(x, y) => {
            let (n, d) = (i(x)?, i(y)?);
            (d != 0).then(|| Val::Int(n.rem_euclid(d)))
        }
        Term::Select(a, x) => match eval(a, env)? {
            Val::Arr(m) => Some(Val::Int(*m.get(&i(x)?).unwrap_or(&0))),
            Val::Int(_) => None,
        },
        Term::Store(a, x, v) => match eval(a, env)? {
            Val::Arr(mut m) => {
                m.insert(i(x)?, i(v)?);
                Some(Val::Arr(m))
            }
            Val::Int(_) => None,
        },
        Term::Forall(..) | Term::Exists(..) => None,
    }
}

fn env_of(enc: &Encoder, prog: &Program, s: &State) -> HashMap<String, Val> {
    let id = enc.identity();
    let mut env = HashMap::new();
    for v in &prog.vars {
        let Term::Var(name, _) = &id.vals[v.id.0 as usize] else {
            unreachable!()
        };
        let ty = v.elem.ty();
        let val = if enc.is_array(v.id) {
            Val::Arr(
                (0..v.len as usize)
                    .map(|k| (k as i128, s.get(v.id, k, ty)))
                    .collect(),
            )
        } else {
            Val::Int(s.get(v.id, 0, ty))
        };
        env.insert(name.to_string(), val);
    }
    env
}

fn check_program(prog: &Program, seed: u64, max_steps: usize) -> usize {
    let m = Machine::new(prog);
    let enc = Encoder::new(prog);
    let mut oracle = RandomOracle::new(seed);
    let mut chosen = Vec::new();
    let mut s = m.initial(&mut oracle, &mut chosen);
    let mut checked = 0;
    for _ in 0..max_steps {
        let en = m.enabled(&s);
        if en.is_empty() {
            break;
        }
        let env = env_of(&enc, prog, &s);
        // Guards of every transition at every thread's location agree.
        for t in &prog.threads {
            if let verifier::interp::Status::At(l) = s.threads[t.id.0 as usize] {
                for tr in t.outgoing(l) {
                    let Ok(g) = m.eval(&s, &tr.guard) else {
                        continue;
                    };
                    let st = enc.step(tr, &enc.identity());
                    if let Some(Val::Int(sg)) = eval(&st.guard, &env) {
                        assert_eq!(
                            sg != 0,
                            g != 0,
                            "{}: guard of {} t{}",
                            prog.files[0].path,
                            t.name,
                            tr.id.0
                        );
                    }
                }
            }
        }
        let (tid, trid) = en[oracle_pick(&mut oracle, &en)];
        let tr = prog.thread(tid).transition(trid);
        let st = enc.step(tr, &enc.identity());
        let mut post = s.clone();
        let Ok(step) = m.execute(&mut post, tid, trid, &mut oracle) else {
            // Undefined in the interpreter: the encoding must say so too.
            if let Some(Val::Int(u)) = eval(&st.undefined, &env) {
                assert_ne!(u, 0, "{}: undefined step not flagged", prog.files[0].path);
            }
            break;
        };
        let havocs = tr
            .ops
            .iter()
            .filter(|o| matches!(o, Op::Havoc { .. }))
            .count();
        if st.inputs.len() == havocs {
            let mut env2 = env.clone();
            for ((name, _), x) in st.inputs.iter().zip(step.inputs.iter()) {
                env2.insert(name.to_string(), Val::Int(*x));
            }
            if let Some(Val::Int(u)) = eval(&st.undefined, &env2) {
                assert_eq!(
                    u,
                    0,
                    "{}: defined step flagged undefined: {} t{}",
                    prog.files[0].path,
                    prog.thread(tid).name,
                    trid.0
                );
            }
            for (v, _, _) in &step.writes {
                let got = eval(&st.post.vals[v.0 as usize], &env2);
                let ty = prog.var(*v).elem.ty();
                let want: Vec<i128> = (0..prog.var(*v).len as usize)
                    .map(|k| post.get(*v, k, ty))
                    .collect();
                match got {
                    Some(Val::Int(x)) => assert_eq!(
                        x,
                        want[0],
                        "{}: {} after {} t{}",
                        prog.files[0].path,
                        prog.var(*v).name,
                        prog.thread(tid).name,
                        trid.0
                    ),
                    Some(Val::Arr(a)) => {
                        for (k, w) in want.iter().enumerate() {
                            assert_eq!(
                                a.get(&(k as i128)).copied().unwrap_or(0),
                                *w,
                                "{}: {}[{k}]",
                                prog.files[0].path,
                                prog.var(*v).name
                            );
                        }
                    }
                    None => {}
                }
            }
            checked += 1;
        }
        s = post;
        if prog.thread(tid).locations[tr.dst.0 as usize].kind != verifier::ir::LocKind::Normal
            && prog.thread(tid).locations[tr.dst.0 as usize].kind != verifier::ir::LocKind::Exit
        {
            break;
        }
    }
    checked
}

fn oracle_pick(
    o: &mut RandomOracle,
    en: &[(verifier::ir::ThreadId, verifier::ir::TransId)],
) -> usize {
    match o.pick(0, en) {
        verifier::interp::Choice::Take(i) => i,
        _ => 0,
    }
}

#[test]
fn encoding_agrees_with_the_interpreter() {
    let mut files: Vec<std::path::PathBuf> =
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/diff"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
    files.sort();
    let corpus = common::corpus();
    for p in [
        "svcomp/pthread/queue_ok.c",
        "svcomp/pthread/sigma.c",
        "svcomp/pthread/stack-1.c",
        "sctbench/circular_buffer_ok.c",
        "svcomp/pthread/twostage_3.c",
        "sctbench/sync01_ok.c",
        "svcomp/pthread/indexer.c",
    ] {
        files.push(corpus.join(p));
    }
    let mut total = 0;
    for f in &files {
        let prog = load(f, &Options::default()).unwrap();
        for seed in 0..2 {
            total += check_program(&prog, seed, 1_500);
        }
    }
    eprintln!("{total} steps checked");
    assert!(total > 10_000, "only {total} steps checked");
}
