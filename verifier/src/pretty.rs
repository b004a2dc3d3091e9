//! Readable forms of IR expressions, transitions and programs (`synth parse`).

use crate::ir::*;
use std::fmt::Write;

impl Program {
    /// A C-like rendering of an expression with variable names.
    pub fn show_expr(&self, e: &Expr) -> String {
        let mut s = String::new();
        self.write_expr(&mut s, e);
        s
    }

    fn write_expr(&self, s: &mut String, e: &Expr) {
        match e {
            Expr::Const { value, .. } => {
                let _ = write!(s, "{value}");
            }
            Expr::Load { place, .. } => s.push_str(&self.show_place(place)),
            Expr::AddrOf { var, index } => {
                let _ = write!(s, "&{}", self.var(*var).name);
                if index.as_const() != Some(0) || self.var(*var).is_array {
                    let _ = write!(s, "[{}]", self.show_expr(index));
                }
            }
            Expr::Unary { op, arg, .. } => {
                s.push_str(match op {
                    UnOp::Neg => "-",
                    UnOp::BitNot => "~",
                    UnOp::Not => "!",
                });
                self.write_atom(s, arg);
            }
            Expr::Binary { op, lhs, rhs, .. } => {
                self.write_atom(s, lhs);
                let _ = write!(s, " {} ", op.symbol());
                self.write_atom(s, rhs);
            }
            Expr::Cast { arg, ty } => {
                let _ = write!(s, "({ty})");
                self.write_atom(s, arg);
            }
            Expr::Ite {
                cond, then, els, ..
            } => {
                self.write_atom(s, cond);
                s.push_str(" ? ");
                self.write_atom(s, then);
                s.push_str(" : ");
                self.write_atom(s, els);
            }
        }
    }

    fn write_atom(&self, s: &mut String, e: &Expr) {
        match e {
            Expr::Binary { .. } | Expr::Ite { .. } => {
                s.push('(');
                self.write_expr(s, e);
                s.push(')');
            }
            _ => self.write_expr(s, e),
        }
    }

    /// A place as C.
    pub fn show_place(&self, p: &Place) -> String {
        match p {
            Place::Var { var, index: None } => self.var(*var).name.clone(),
            Place::Var {
                var,
                index: Some(i),
            } => format!("{}[{}]", self.var(*var).name, self.show_expr(i)),
            Place::Deref { addr, .. } => {
                let mut s = String::from("*");
                self.write_atom(&mut s, addr);
                s
            }
        }
    }

    /// One transition as `[guard] op; op` text.
    pub fn show_transition(&self, tr: &Transition) -> String {
        let mut parts = Vec::new();
        if !tr.guard.is_true() {
            parts.push(format!("[{}]", self.show_expr(&tr.guard)));
        }
        for op in &tr.ops {
            parts.push(match op {
                Op::Assign { place, value } => {
                    format!("{} := {}", self.show_place(place), self.show_expr(value))
                }
                Op::Havoc { place, ty } => format!("{} := input {ty}", self.show_place(place)),
                Op::Spawn { thread, args } => {
                    let mut s = format!("spawn {}", self.thread(*thread).name);
                    for (v, e) in args {
                        let _ = write!(s, " {}={}", self.var(*v).name, self.show_expr(e));
                    }
                    s
                }
                Op::AtomicBegin => "atomic {".into(),
                Op::AtomicEnd => "} atomic".into(),
            });
        }
        let kind = match &tr.kind {
            TransKind::Stmt | TransKind::Branch => String::new(),
            TransKind::Sync(k) => format!("{k:?}"),
            TransKind::Assume => "assume".into(),
            TransKind::AssumeFail => "assume fails".into(),
            TransKind::Error(k) => format!("error: {k:?}"),
            TransKind::Halt => "halt".into(),
        };
        if !kind.is_empty() {
            parts.insert(0, format!("<{kind}>"));
        }
        if parts.is_empty() {
            "skip".into()
        } else {
            parts.join("; ")
        }
    }

    /// The readable summary `synth parse` prints.
    pub fn summary(&self, full: bool) -> String {
        let mut s = String::new();
        let ntr: usize = self.threads.iter().map(|t| t.transitions.len()).sum();
        let nloc: usize = self.threads.iter().map(|t| t.locations.len()).sum();
        let _ = writeln!(
            s,
            "program {}: {} threads, {} locations, {} transitions, {} variables ({} shared)",
            self.files.first().map(|f| f.path.as_str()).unwrap_or("?"),
            self.threads.len(),
            nloc,
            ntr,
            self.vars.len(),
            self.shared_vars().count()
        );
        let _ = writeln!(s, "shared variables:");
        for v in self.shared_vars() {
            let len = if v.is_array {
                format!("[{}]", v.len)
            } else {
                String::new()
            };
            let _ = writeln!(s, "  {}{} : {:?}", v.name, len, v.elem);
        }
        for t in &self.threads {
            let events: usize = t.transitions.iter().map(|tr| tr.events.len()).sum();
            let created = match t.created_by {
                Some((p, tr)) => format!(", created by {} at t{}", self.thread(p).name, tr.0),
                None => String::new(),
            };
            let _ = writeln!(
                s,
                "thread {} {}: {} locations, {} transitions, {} shared events{}",
                t.id,
                t.name,
                t.locations.len(),
                t.transitions.len(),
                events,
                created
            );
            if !full {
                continue;
            }
            for tr in &t.transitions {
                let pos = tr
                    .span
                    .as_ref()
                    .map(|sp| format!("{}:{}", sp.line, sp.col))
                    .unwrap_or_default();
                let mut flags = String::new();
                if tr.may_block {
                    flags.push_str(" may-block");
                }
                if tr.back_edge {
                    flags.push_str(" back-edge");
                }
                if tr.yields {
                    flags.push_str(" yield");
                }
                let ev: Vec<String> = tr
                    .events
                    .iter()
                    .map(|e| {
                        let a = match e.access {
                            Access::Read => "R",
                            Access::Write => "W",
                            Access::Update => "RW",
                        };
                        match &e.index(self.var(e.var)) {
                            Some(i) => {
                                format!("{a} {}[{}]", self.var(e.var).name, self.show_expr(i))
                            }
                            None => format!("{a} {}", self.var(e.var).name),
                        }
                    })
                    .collect();
                let ev = if ev.is_empty() {
                    String::new()
                } else {
                    format!("  {{{}}}", ev.join(", "))
                };
                let dst_kind = match t.locations[tr.dst.0 as usize].kind {
                    LocKind::Normal => String::new(),
                    k => format!(" ({k:?})"),
                };
                let _ = writeln!(
                    s,
                    "  t{:<4} l{} -> l{}{}  {}{}{}  @{}",
                    tr.id.0,
                    tr.src.0,
                    tr.dst.0,
                    dst_kind,
                    self.show_transition(tr),
                    ev,
                    flags,
                    pos
                );
            }
        }
        s
    }
}
