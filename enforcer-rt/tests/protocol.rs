//! The enforcement protocol with real threads: orders across threads and sections, branches
//! selecting sections, a ring of eight threads (on however few cores), thread creation.

mod common;

use common::{Dep, Ev, Rng, Spec};
use enforcer_rt::schedule::{Arm, End};
use enforcer_rt::table::SynthSiteKind;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;
use std::thread;

/// Section A: thread 0 writes, then thread 1 reads; section B: thread 1 writes, then thread 0
/// reads; A and B alternate. Every read sees the write the schedule orders before it.
#[test]
fn writes_and_reads_alternate_over_many_sections() {
    const ROUNDS: u64 = 100_000;
    let mut s = Spec::new();
    let (t0, t1) = (s.thread("main"), s.thread("peer"));
    let (w0, r1, w1, r0) = (
        s.access("write x (t0)"),
        s.access("read x (t1)"),
        s.access("write x (t1)"),
        s.access("read x (t0)"),
    );
    let a = s.section(&[(t0, w0, &[]), (t1, r1, &[(t0, 1)])]);
    let b = s.section(&[(t1, w1, &[]), (t0, r0, &[(t1, 1)])]);
    s.end(a, End::Next(b));
    s.end(b, End::Next(a));
    let e = s.enforcer();
    let x = AtomicU64::new(0);
    let wrong = AtomicU64::new(0);
    thread::scope(|sc| {
        sc.spawn(|| {
            let mut ctx = e.register(t0).unwrap();
            for r in 0..ROUNDS {
                e.before(&mut ctx, w0).unwrap();
                x.store(2 * r + 1, Relaxed);
                e.after(&mut ctx, w0).unwrap();
                e.before(&mut ctx, r0).unwrap();
                if x.load(Relaxed) != 2 * r + 2 {
                    wrong.fetch_add(1, Relaxed);
                }
                e.after(&mut ctx, r0).unwrap();
            }
        });
        sc.spawn(|| {
            let mut ctx = e.register(t1).unwrap();
            for r in 0..ROUNDS {
                e.before(&mut ctx, r1).unwrap();
                if x.load(Relaxed) != 2 * r + 1 {
                    wrong.fetch_add(1, Relaxed);
                }
                e.after(&mut ctx, r1).unwrap();
                e.before(&mut ctx, w1).unwrap();
                x.store(2 * r + 2, Relaxed);
                e.after(&mut ctx, w1).unwrap();
            }
        });
    });
    assert_eq!(wrong.load(Relaxed), 0, "reads that saw another write");
    assert_eq!(x.load(Relaxed), 2 * ROUNDS);
    assert_eq!(e.current_section(), a);
    assert!(!e.is_finished());
}

/// Section S0 ends with thread 0's branch: arm L selects S1 (thread 1 reads the choice, then
/// does X1, then thread 0 does Y0), arm R selects S2 (thread 1 reads the choice, then does X2).
/// Thread 0 picks arms at random; thread 1 follows whichever section was chosen.
#[test]
fn a_branch_selects_the_section_both_threads_follow() {
    const ROUNDS: usize = 20_000;
    let mut s = Spec::new();
    let (t0, t1) = (s.thread("main"), s.thread("peer"));
    let a0 = s.access("write choice");
    let b0 = s.access("step b0");
    let left = s.site(SynthSiteKind::Branch, "branch: left");
    let right = s.site(SynthSiteKind::Branch, "branch: right");
    let rd = s.access("read choice");
    let (x1, y0, x2) = (s.access("x1"), s.access("y0"), s.access("x2"));
    let s0 = s.section(&[(t0, a0, &[]), (t1, b0, &[])]);
    let s1 = s.section(&[(t1, rd, &[]), (t1, x1, &[]), (t0, y0, &[(t1, 2)])]);
    let s2 = s.section(&[(t1, rd, &[]), (t1, x2, &[])]);
    s.end(
        s0,
        End::Branch {
            thread: t0,
            arms: vec![
                Arm {
                    site: left,
                    section: s1,
                },
                Arm {
                    site: right,
                    section: s2,
                },
            ],
        },
    );
    s.end(s1, End::Next(s0));
    s.end(s2, End::Next(s0));
    let e = s.enforcer();
    let choice = AtomicU64::new(0);
    let (chosen, followed) = thread::scope(|sc| {
        let brancher = sc.spawn(|| {
            let mut ctx = e.register(t0).unwrap();
            let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
            let mut chosen = Vec::with_capacity(ROUNDS);
            for _ in 0..ROUNDS {
                let go_left = rng.next() & 1 == 0;
                e.before(&mut ctx, a0).unwrap();
                choice.store(if go_left { 1 } else { 2 }, Relaxed);
                e.after(&mut ctx, a0).unwrap();
                e.branch(&mut ctx, if go_left { left } else { right })
                    .unwrap();
                if go_left {
                    e.before(&mut ctx, y0).unwrap();
                    e.after(&mut ctx, y0).unwrap();
                }
                chosen.push(go_left);
            }
            chosen
        });
        let follower = sc.spawn(|| {
            let mut ctx = e.register(t1).unwrap();
            let mut followed = Vec::with_capacity(ROUNDS);
            for _ in 0..ROUNDS {
                e.before(&mut ctx, b0).unwrap();
                e.after(&mut ctx, b0).unwrap();
                e.before(&mut ctx, rd).unwrap();
                let go_left = choice.load(Relaxed) == 1;
                e.after(&mut ctx, rd).unwrap();
                let x = if go_left { x1 } else { x2 };
                e.before(&mut ctx, x).unwrap();
                e.after(&mut ctx, x).unwrap();
                followed.push(go_left);
            }
            followed
        });
        (brancher.join().unwrap(), follower.join().unwrap())
    });
    assert_eq!(chosen, followed);
    assert!(chosen.iter().any(|&l| l) && chosen.iter().any(|&l| !l));
    assert_eq!(e.current_section(), s0);
}

/// A section without events ends with thread 1's branch: arm L selects S2, where thread 0 reads
/// the choice and does C0; arm R returns to S0; arm F selects the final section, where thread 0
/// reads the choice and stops. Sections without events are passed at once.
#[test]
fn a_branch_at_a_section_without_events_and_the_end() {
    const ROUNDS: usize = 5_000;
    let mut s = Spec::new();
    let (t0, t1) = (s.thread("main"), s.thread("peer"));
    let rd = s.access("read choice");
    let (a0, b0, c0) = (s.access("a0"), s.access("b0"), s.access("c0"));
    let (left, right, fin) = (
        s.site(SynthSiteKind::Branch, "branch: left"),
        s.site(SynthSiteKind::Branch, "branch: right"),
        s.site(SynthSiteKind::Branch, "branch: stop"),
    );
    let s0 = s.section(&[(t0, rd, &[]), (t0, a0, &[]), (t1, b0, &[(t0, 2)])]);
    let s1 = s.section(&[]);
    let s2 = s.section(&[(t0, rd, &[]), (t0, c0, &[])]);
    let empty = s.section(&[]);
    let last = s.section(&[(t0, rd, &[])]);
    s.end(s0, End::Next(s1));
    let arm = |site, section| Arm { site, section };
    s.end(
        s1,
        End::Branch {
            thread: t1,
            arms: vec![arm(left, s2), arm(right, s0), arm(fin, empty)],
        },
    );
    s.end(s2, End::Next(s0));
    s.end(empty, End::Next(last));
    let e = s.enforcer();
    let choice = AtomicU64::new(0);
    let (reader, writer) = thread::scope(|sc| {
        let reader = sc.spawn(|| {
            let mut ctx = e.register(t0).unwrap();
            let mut seen = Vec::new();
            loop {
                e.before(&mut ctx, rd).unwrap();
                let c = choice.swap(0, Relaxed);
                e.after(&mut ctx, rd).unwrap();
                match c {
                    1 => {
                        e.before(&mut ctx, c0).unwrap();
                        e.after(&mut ctx, c0).unwrap();
                    }
                    3 => break,
                    _ => {
                        e.before(&mut ctx, a0).unwrap();
                        e.after(&mut ctx, a0).unwrap();
                    }
                }
                seen.push(c);
            }
            seen
        });
        let writer = sc.spawn(|| {
            let mut ctx = e.register(t1).unwrap();
            let mut rng = Rng(7);
            let mut written = Vec::new();
            for i in 0..ROUNDS {
                e.before(&mut ctx, b0).unwrap();
                e.after(&mut ctx, b0).unwrap();
                let c = if i + 1 == ROUNDS {
                    3
                } else {
                    1 + rng.next() % 2
                };
                choice.store(c, Relaxed);
                let site = [left, right, fin][c as usize - 1];
                e.branch(&mut ctx, site).unwrap();
                written.push(c);
            }
            written
        });
        (reader.join().unwrap(), writer.join().unwrap())
    });
    // The reader sees 0 at its first read, then each choice but the last (which stops it),
    // and after a left arm the 0 it left behind.
    let mut expected = vec![0];
    for &c in &writer[..writer.len() - 1] {
        expected.push(c);
        if c == 1 {
            expected.push(0);
        }
    }
    assert_eq!(reader, expected);
    assert!(e.is_finished());
    assert_eq!(e.current_section(), last);
}

/// Eight threads in a ring: each thread's k-th event of a section waits for the previous
/// thread's k-th, thread 0's for thread 7's (k-1)-th. 8 x 20,000 events complete, also with
/// fewer cores than threads (waiting parks instead of spinning).
#[test]
fn eight_threads_in_a_ring_make_progress() {
    const THREADS: u32 = 8;
    const PER_SECTION: u32 = 4;
    const EVENTS: u32 = 20_000;
    let mut s = Spec::new();
    let threads: Vec<u32> = (0..THREADS).map(|i| s.thread(&format!("t{i}"))).collect();
    let sites: Vec<u32> = (0..THREADS)
        .map(|i| s.access(&format!("step t{i}")))
        .collect();
    let mut events: Vec<(u32, u32, Vec<Dep>)> = Vec::new();
    for k in 0..PER_SECTION {
        for i in 0..THREADS {
            let waits = match (i, k) {
                (0, 0) => vec![],
                (0, k) => vec![(THREADS - 1, k)],
                (i, k) => vec![(i - 1, k + 1)],
            };
            events.push((threads[i as usize], sites[i as usize], waits));
        }
    }
    let events: Vec<Ev<'_>> = events.iter().map(|(t, x, w)| (*t, *x, &w[..])).collect();
    let ring = s.section(&events);
    s.end(ring, End::Next(ring));
    let e = s.enforcer();
    let turn = AtomicU64::new(0);
    let wrong = AtomicU64::new(0);
    thread::scope(|sc| {
        for i in 0..THREADS {
            let (e, turn, wrong, site) = (&e, &turn, &wrong, sites[i as usize]);
            sc.spawn(move || {
                let mut ctx = e.register(i).unwrap();
                for _ in 0..EVENTS {
                    e.before(&mut ctx, site).unwrap();
                    let t = turn.load(Relaxed);
                    if t % u64::from(THREADS) != u64::from(i) {
                        wrong.fetch_add(1, Relaxed);
                    }
                    turn.store(t + 1, Relaxed);
                    e.after(&mut ctx, site).unwrap();
                }
            });
        }
    });
    assert_eq!(wrong.load(Relaxed), 0);
    assert_eq!(turn.load(Relaxed), u64::from(THREADS * EVENTS));
}

/// Main creates two threads at one site and a third at another; `spawn_before` names them in
/// table order, and each created thread runs its events and exits.
#[test]
fn spawn_before_names_the_created_threads() {
    let mut s = Spec::new();
    let main = s.thread("main");
    let create_a = s.site(SynthSiteKind::Sync, "pthread_create worker");
    let create_b = s.site(SynthSiteKind::Sync, "pthread_create other");
    let w1 = s.child("worker#1", Some(main), Some(create_a));
    let other = s.child("other#1", Some(main), Some(create_b));
    let w2 = s.child("worker#2", Some(main), Some(create_a));
    let work = s.access("write slot");
    let exit = s.site(SynthSiteKind::ThreadExit, "thread exit");
    let join = s.site(SynthSiteKind::Sync, "pthread_join");
    let sec = s.section(&[
        (main, create_a, &[]),
        (main, create_a, &[]),
        (main, create_b, &[]),
        (w1, work, &[(main, 1)]),
        (w1, exit, &[]),
        (w2, work, &[(main, 2), (w1, 1)]),
        (w2, exit, &[]),
        (other, work, &[(main, 3), (w2, 1)]),
        (other, exit, &[]),
        (main, join, &[(w1, 2), (w2, 2), (other, 2)]),
    ]);
    s.end(sec, End::Finish);
    let e = s.enforcer();
    let order = std::sync::Mutex::new(Vec::new());
    thread::scope(|sc| {
        let mut ctx = e.register(main).unwrap();
        let mut ids = Vec::new();
        for site in [create_a, create_a, create_b] {
            let id = e.spawn_before(&mut ctx, site).unwrap();
            ids.push(id);
            let (e, order) = (&e, &order);
            sc.spawn(move || {
                let mut c = e.register(id).unwrap();
                e.before(&mut c, work).unwrap();
                order.lock().unwrap().push(id);
                e.after(&mut c, work).unwrap();
                e.thread_exit(&mut c).unwrap();
            });
            e.after(&mut ctx, site).unwrap();
        }
        assert_eq!(ids, vec![w1, w2, other]);
        e.before(&mut ctx, join).unwrap();
        e.after(&mut ctx, join).unwrap();
    });
    assert_eq!(*order.lock().unwrap(), vec![w1, w2, other]);
    assert!(e.is_finished());
}
