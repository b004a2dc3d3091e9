//! Readable forms of a schedule: `synth schedule --explain` (each section's events per thread
//! with source lines and the orderings they wait for) and Graphviz DOT of the section graph
//! and of the ART.

use crate::schedule::{End, ProgramSchedule};
use std::fmt::Write;
use verifier::art::Art;
use verifier::ir::Program;

fn site_line(p: &Program, s: &ProgramSchedule, site: u32) -> String {
    let site = &s.sites.sites[site as usize];
    match site.span {
        Some(sp) => {
            let src = p.source_line(&sp).map(str::trim).unwrap_or("");
            format!("{}:{}  {:<24} {}", sp.line, sp.col, site.text, src)
        }
        None => site.text.clone(),
    }
}

/// Every section: its events thread by thread (with the source line) and, for each event,
/// the events of other threads it waits for.
pub fn explain(p: &Program, s: &ProgramSchedule) -> String {
    let mut out = String::new();
    let st = &s.stats;
    let _ = writeln!(
        out,
        "schedule of {} at Opt{}: {} sections, {} events, {} ordering constraints, {:.1}% of \
         cross-thread event pairs unordered, {} synchronisation sites removed",
        s.source,
        s.opt,
        st.sections,
        st.events,
        st.constraints,
        100.0 * st.unordered_fraction(),
        st.removed_sync_sites
    );
    let _ = writeln!(out, "initial section: S{}", s.initial);
    for sec in &s.sections {
        let _ = writeln!(
            out,
            "\nsection S{} (ART node {}, {} steps, {} events)",
            sec.id,
            sec.start_node,
            sec.path.len(),
            sec.events.len()
        );
        // Name events T<thread>.<k> by thread and position.
        let name = |i: usize| {
            let e = &sec.events[i];
            format!(
                "{}.{}",
                s.threads[e.thread.0 as usize].name,
                e.vc[e.thread.0 as usize] + 1
            )
        };
        let mut threads: Vec<_> = sec.events.iter().map(|e| e.thread).collect();
        threads.sort();
        threads.dedup();
        for t in threads {
            let _ = writeln!(out, "  {}:", s.threads[t.0 as usize].name);
            let mut prev: Option<&Vec<u32>> = None;
            for (i, e) in sec.events.iter().enumerate().filter(|(_, e)| e.thread == t) {
                // The events it waits for: for each other thread, the last one it needs, when
                // its previous event did not already need it.
                let mut waits = Vec::new();
                for (u, &k) in e.vc.iter().enumerate() {
                    if u == t.0 as usize || k == 0 || prev.is_some_and(|p| p[u] >= k) {
                        continue;
                    }
                    if let Some(j) = sec
                        .events
                        .iter()
                        .position(|d| d.thread.0 as usize == u && d.vc[u] + 1 == k)
                    {
                        waits.push(name(j));
                    }
                }
                let after = if waits.is_empty() {
                    String::new()
                } else {
                    format!("   after {}", waits.join(", "))
                };
                let _ = writeln!(
                    out,
                    "    {:<12} {}{after}",
                    name(i),
                    site_line(p, s, e.site)
                );
                prev = Some(&e.vc);
            }
        }
        match sec.end {
            End::Finish => {
                let _ = writeln!(out, "  then the schedule ends (no further events)");
            }
            End::Next => {
                let _ = writeln!(out, "  then S{}", sec.successors[0].section);
            }
            End::Branch => {
                let t = sec.branch_thread.expect("a branching thread");
                let _ = writeln!(out, "  then {} branches:", s.threads[t.0 as usize].name);
                for x in &sec.successors {
                    let arm = x.site.map(|site| site_line(p, s, site)).unwrap_or_default();
                    let _ = writeln!(out, "    {arm}  -> S{}", x.section);
                }
            }
        }
    }
    out
}

fn dot_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The section graph as DOT.
pub fn sections_dot(s: &ProgramSchedule) -> String {
    let mut out = String::from("digraph sections {\n  node [shape=box, fontname=monospace];\n");
    for sec in &s.sections {
        let mut label = format!("S{} (node {})\\n", sec.id, sec.start_node);
        for e in &sec.events {
            let site = &s.sites.sites[e.site as usize];
            let line = site.span.map_or(0, |sp| sp.line);
            let _ = write!(
                label,
                "{} L{} {} {:?}\\l",
                s.threads[e.thread.0 as usize].name, line, site.text, e.vc
            );
        }
        let style = if sec.id == s.initial {
            ", penwidth=2"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "  s{} [label=\"{}\"{style}];",
            sec.id,
            dot_escape(&label)
                .replace("\\\\n", "\\n")
                .replace("\\\\l", "\\l")
        );
        for x in &sec.successors {
            let label = x
                .site
                .map(|site| s.sites.sites[site as usize].text.clone())
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "  s{} -> s{} [label=\"{}\"];",
                sec.id,
                x.section,
                dot_escape(&label)
            );
        }
    }
    out.push_str("}\n");
    out
}

/// The ART as DOT: tree edges solid (thread and source line), coverings dashed.
pub fn art_dot(p: &Program, art: &Art) -> String {
    let mut out = String::from("digraph art {\n  node [shape=ellipse, fontname=monospace];\n");
    for v in art.ids() {
        let n = art.node(v);
        let locs: Vec<String> = n
            .control
            .locs
            .iter()
            .map(|l| l.map_or("-".into(), |l| l.0.to_string()))
            .collect();
        let expanded: Vec<String> = n.expanded.iter().map(|t| t.0.to_string()).collect();
        let _ = writeln!(
            out,
            "  n{} [label=\"{} [{}] exp {{{}}}\"];",
            v.0,
            v.0,
            locs.join(","),
            expanded.join(",")
        );
        for e in &n.children {
            let tr = p.thread(e.thread).transition(e.transition);
            let line = tr.span.map_or(0, |s| s.line);
            let _ = writeln!(
                out,
                "  n{} -> n{} [label=\"T{} L{line}\"];",
                v.0, e.child.0, e.thread.0
            );
        }
        if let Some(w) = n.covered_by {
            let _ = writeln!(out, "  n{} -> n{} [style=dashed];", v.0, w.0);
        }
    }
    out.push_str("}\n");
    out
}
