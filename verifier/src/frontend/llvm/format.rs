//! `snprintf` and `sprintf` (C11 7.21.6.1, 7.21.6.5, 7.21.6.6): the format must be a string
//! constant whose conversions the library model knows (integers, narrow characters and
//! strings; no floating point, no `%n`, no `%p`, whose digits would be the verifier's own
//! addresses), checked here; the arguments after it go into an
//! array of `long`s (a pointer as its address), and the model `__synth_format` of `models.c`
//! formats them into the buffer like the C library. The model is lowered like the program's
//! own code, so the verifier sees every byte written.

use super::lower::{cast, Lowerer, Val, R};
use crate::ir::*;
use llvm_ir::instruction::Call;
use llvm_ir::types::Type;
use llvm_ir::Operand;

/// The conversions the model performs.
const KNOWN: &[u8] = b"diouxXcs%";

/// The conversion characters of `format` (after its flags, width, precision and length), or
/// the first one the model does not perform.
fn conversions(format: &[u8]) -> Result<usize, String> {
    let mut args = 0;
    let mut i = 0;
    while i < format.len() {
        if format[i] != b'%' {
            i += 1;
            continue;
        }
        i += 1;
        while i < format.len() && b"-0+ #".contains(&format[i]) {
            i += 1;
        }
        let mut star = |i: &mut usize| {
            if format.get(*i) == Some(&b'*') {
                args += 1;
                *i += 1;
            }
            while format.get(*i).is_some_and(u8::is_ascii_digit) {
                *i += 1;
            }
        };
        star(&mut i);
        if format.get(i) == Some(&b'.') {
            i += 1;
            star(&mut i);
        }
        let long = format.get(i) == Some(&b'l');
        while i < format.len() && b"hlzjt".contains(&format[i]) {
            i += 1;
        }
        match format.get(i) {
            // `%lc` and `%ls` convert wide characters.
            Some(&c) if long && (c == b'c' || c == b's') => return Err(format!("l{}", c as char)),
            Some(&c) if KNOWN.contains(&c) => {
                if c != b'%' {
                    args += 1;
                }
                i += 1;
            }
            Some(&c) => return Err((c as char).to_string()),
            None => return Err(String::new()),
        }
    }
    Ok(args)
}

impl<'m> Lowerer<'m> {
    /// Whether the library's `name` is the one called: the program does not define its own.
    pub(super) fn library_function(&self, name: &str) -> bool {
        self.m
            .functions
            .iter()
            .find(|f| f.name == name)
            .is_none_or(|f| f.section.as_deref() == Some(super::compile::MODEL_SECTION))
    }

    /// The bytes of the string constant `v` points to, up to its null byte.
    fn constant_string(&self, v: &Val) -> Option<Vec<u8>> {
        let Val::P { obj, off, dyn_ } = v else {
            return None;
        };
        if !dyn_.is_empty() || !self.const_objects.contains(obj) {
            return None;
        }
        let cells = self.objects.get(obj)?;
        let mut out = Vec::new();
        for at in (*off as u64).. {
            let (leaf, var) = cells.leaves.iter().find(|(l, _)| {
                l.width == 1 && at >= l.offset && at < l.offset + l.len * l.stride
            })?;
            let k = ((at - leaf.offset) / leaf.stride) as usize;
            let b = match &self.vars[var.0 as usize].init {
                Init::Values(vals) => vals.get(k).copied().unwrap_or(0),
                Init::Zero => 0,
                _ => return None,
            };
            if b == 0 {
                return Some(out);
            }
            out.push(b as u8);
        }
        None
    }

    /// `snprintf(buf, size, format, ...)` or `sprintf(buf, format, ...)`.
    pub(super) fn format(
        &mut self,
        name: &str,
        args: &[&'m Operand],
        _c: &'m Call,
    ) -> R<Option<Val>> {
        let sized = name == "snprintf";
        let (first, fixed) = if sized { (3, 3) } else { (2, 2) };
        if args.len() < fixed {
            return self.invalid(format!("`{name}` without a format"));
        }
        let fmt = self.val(args[first - 1])?;
        let Some(text) = self.constant_string(&fmt) else {
            return self.unsupported(format!(
                "`{name}` with a format that is not a string constant"
            ));
        };
        let wanted = match conversions(&text) {
            Ok(n) => n,
            Err(c) => return self.unsupported(format!("`{name}` with the conversion `%{c}`")),
        };
        let rest = &args[first..];
        if rest.len() < wanted {
            return self.unsupported(format!(
                "`{name}` with fewer arguments than its format converts"
            ));
        }
        let Some(model) = self.funcs.get("__synth_format").copied() else {
            return self.unsupported(format!("`{name}` without the library model"));
        };
        // The arguments, as longs, in an array of the calling thread.
        let array = self.local_longs(&format!("{name}.args"), rest.len().max(1) as u64);
        let mut ops = Vec::new();
        for (k, a) in rest.iter().enumerate() {
            if matches!(
                self.m.types.type_of(*a).as_ref(),
                Type::FPType(_) | Type::VectorType { .. }
            ) {
                return self.unsupported(format!("`{name}` of a floating point value"));
            }
            let v = self.val(a)?;
            ops.push(Op::Assign {
                place: Place::Var {
                    var: array,
                    index: Some(Box::new(Expr::constant(k as i128, Ty::LONG))),
                },
                value: cast(self.addr_expr(&v), Ty::LONG),
            });
        }
        self.step(Expr::tt(), ops, TransKind::Stmt)?;
        let buf = self.val(args[0])?;
        let size = if sized {
            Val::E(cast(self.expr(args[1])?, Ty::ULONG))
        } else {
            Val::E(Expr::constant(i128::from(u64::MAX), Ty::ULONG))
        };
        let array = Val::P {
            obj: array,
            off: 0,
            dyn_: vec![],
        };
        self.inline(model, vec![buf, size, fmt, array])
    }
}

#[cfg(test)]
mod tests {
    use super::conversions;

    #[test]
    fn conversions_are_counted_and_unknown_ones_named() {
        assert_eq!(conversions(b"worker %d says %s"), Ok(2));
        assert_eq!(conversions(b"%-*.*s|%05ld|%%|%x|%zu"), Ok(6));
        assert_eq!(conversions(b"100%%"), Ok(0));
        assert_eq!(conversions(b"%5.2f"), Err("f".into()));
        assert_eq!(conversions(b"%n"), Err("n".into()));
        assert_eq!(conversions(b"%p"), Err("p".into()));
        assert_eq!(conversions(b"%ls"), Err("ls".into()));
        assert_eq!(conversions(b"%lc"), Err("lc".into()));
        assert_eq!(conversions(b"%"), Err(String::new()));
    }
}
