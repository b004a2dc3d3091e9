//! The formatted input and output functions of C11 7.21.6 that work on strings: `snprintf`,
//! `sprintf` and `asprintf` (GNU), and `sscanf`; and `scanf`, whose model reads any input (a
//! built program's reads its standard input, `schedgen`'s `llvm_support.c`). The format must be a string constant whose
//! conversions the library models know (integers, narrow characters and strings; no
//! floating point, no `%n`, no `%p`, whose digits would be the verifier's own addresses, no
//! scan sets), checked here; the arguments after it go into an array of `long`s (a pointer as
//! its address), and the models `__synth_format`, `__synth_asprintf` and `__synth_sscan` of
//! `models.c` do what the C library does with them. The models are lowered like the
//! program's own code, so the verifier sees every byte read and written.

use super::lower::{cast, Lowerer, Val, R};
use crate::ir::*;
use llvm_ir::instruction::Call;
use llvm_ir::types::Type;
use llvm_ir::Operand;

/// The library functions whose calls the front end lowers here (`Lowerer::format`), never
/// through their bodies in `models.c`, each with the function it is lowered as (glibc's
/// names of the C99 and C23 `scanf` family are `scanf`'s and `sscanf`'s). Those bodies are
/// stand-ins for built programs: they pass their arguments to the models as the front end
/// does.
const LOWERED: &[(&str, &str)] = &[
    ("snprintf", "snprintf"),
    ("sprintf", "sprintf"),
    ("asprintf", "asprintf"),
    ("sscanf", "sscanf"),
    ("__isoc99_sscanf", "sscanf"),
    ("__isoc23_sscanf", "sscanf"),
    ("scanf", "scanf"),
    ("__isoc99_scanf", "scanf"),
    ("__isoc23_scanf", "scanf"),
];

/// The function of [`LOWERED`] a call of `name` is lowered as, if any.
pub(super) fn lowered_as(name: &str) -> Option<&'static str> {
    LOWERED
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, as_)| *as_)
}

/// The conversions the models perform.
const KNOWN: &[u8] = b"diouxXcs%";

/// Whether a format is read by `printf` (a `*` width takes an argument) or by `scanf` (a
/// `*` suppresses the assignment, so its conversion takes none).
#[derive(Clone, Copy, PartialEq)]
enum Direction {
    Print,
    Scan,
}

/// The arguments `format` converts, each `true` where it is a 64-bit integer (`%ld`, `%zu`,
/// ...), or the first conversion the models do not perform.
fn conversions(format: &[u8], dir: Direction) -> Result<Vec<bool>, String> {
    converted(format, dir).map(|args| args.into_iter().map(|(wide, _)| wide).collect())
}

/// Per argument the `printf` format `format` converts, whether as a string (`%s`); `None`
/// where the models do not perform one of its conversions.
pub(super) fn printed_as_strings(format: &[u8]) -> Option<Vec<bool>> {
    let args = converted(format, Direction::Print).ok()?;
    Some(args.into_iter().map(|(_, c)| c == b's').collect())
}

/// Whether `printf` format `format` has a `%n` conversion (whatever its other conversions).
fn stores_count_in(format: &[u8]) -> bool {
    let mut i = 0;
    while i < format.len() {
        if format[i] == b'%' {
            i += 1;
            while format
                .get(i)
                .is_some_and(|c| b"-+ #'I$*.0123456789hlLqjzt".contains(c))
            {
                i += 1;
            }
            if format.get(i) == Some(&b'n') {
                return true;
            }
        }
        i += 1;
    }
    false
}

/// [`conversions`], each argument with its conversion's letter (`*` for a width or a
/// precision).
fn converted(format: &[u8], dir: Direction) -> Result<Vec<(bool, u8)>, String> {
    let mut args = Vec::new();
    let mut i = 0;
    while i < format.len() {
        if format[i] != b'%' {
            i += 1;
            continue;
        }
        i += 1;
        let mut assigns = true;
        if dir == Direction::Scan && format.get(i) == Some(&b'*') {
            assigns = false;
            i += 1;
        }
        while dir == Direction::Print && i < format.len() && b"-0+ #".contains(&format[i]) {
            i += 1;
        }
        let mut star = |i: &mut usize| {
            if dir == Direction::Print && format.get(*i) == Some(&b'*') {
                args.push((false, b'*'));
                *i += 1;
            }
            while format.get(*i).is_some_and(u8::is_ascii_digit) {
                *i += 1;
            }
        };
        star(&mut i);
        if dir == Direction::Print && format.get(i) == Some(&b'.') {
            i += 1;
            star(&mut i);
        }
        let long = format.get(i) == Some(&b'l');
        let mut wide = false;
        while i < format.len() && b"hlzjt".contains(&format[i]) {
            wide |= format[i] != b'h';
            i += 1;
        }
        match format.get(i) {
            // `%lc` and `%ls` convert wide characters.
            Some(&c) if long && (c == b'c' || c == b's') => return Err(format!("l{}", c as char)),
            Some(&c) if KNOWN.contains(&c) => {
                if c != b'%' && assigns {
                    args.push((dir == Direction::Print && wide && b"diouxX".contains(&c), c));
                }
                i += 1;
            }
            Some(&c) => return Err((c as char).to_string()),
            None => return Err(String::new()),
        }
    }
    Ok(args)
}

/// What a conversion of a `printf` format takes from the arguments, for what the call reads
/// through them ([`printed`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Printed {
    /// A width or a precision given as an argument (`*`): an `int`.
    Star,
    /// A string (`%s`): its bytes up to its null byte, or at most its precision's.
    String(Precision),
    /// Another conversion: the argument is the value printed.
    Value,
}

/// The precision of a `%s` conversion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    /// None: the string is read up to its null byte.
    None,
    /// At most this many bytes (`%.5s`, `%.s` is 0).
    Fixed(u64),
    /// The argument before the string's (`%.*s`; a negative one is no precision).
    Argument,
}

/// How much of an argument a library call reads through it (what it prints, a path, a
/// buffer it writes out), as the front end models it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadLength {
    /// A string, up to its null byte.
    String,
    /// A string up to its null byte, or a null pointer (`perror`).
    StringOrNull,
    /// A string, at most this many bytes (`%.5s`).
    Precision(u64),
    /// A string, at most as many bytes as the `int` argument given (`%.*s`; a negative one
    /// is no bound).
    PrecisionArgument(u32),
    /// As many bytes as the argument given says, times the second one where there is one
    /// (`fwrite`'s size and count).
    Bytes(u32, Option<u32>),
}

/// The arguments library function `name` reads whatever its other arguments are, each with
/// how much of it (the output functions with a format: [`format_argument`]).
pub fn argument_reads(name: &str) -> &'static [(u32, ReadLength)] {
    use ReadLength::*;
    match name {
        "puts" | "fputs" => &[(0, String)],
        "perror" => &[(0, StringOrNull)],
        "fwrite" => &[(0, Bytes(1, Some(2)))],
        "write" | "pwrite" | "send" => &[(1, Bytes(2, None))],
        "open" | "stat" | "lstat" | "unlink" | "getenv" | "secure_getenv" | "gethostbyname"
        | "inet_addr" => &[(0, String)],
        "fopen" => &[(0, String), (1, String)],
        "fdopen" => &[(1, String)],
        _ => &[],
    }
}

/// The argument that is the stream (`FILE *`) of output function `name`, where it has one
/// the library dereferences (`fflush(NULL)` flushes every stream).
pub fn stream_argument(name: &str) -> Option<u32> {
    match name {
        "fprintf" | "vfprintf" => Some(0),
        "fputs" | "fputc" | "putc" => Some(1),
        "fwrite" => Some(3),
        _ => None,
    }
}

/// The argument that is the format of output function `name`, where it has one; also of
/// the functions formatting from a `va_list` into a string or a descriptor, whose strings
/// the front end reads through the `va_list`, the argument after the format (the other
/// formatting functions are models.c's).
pub fn format_argument(name: &str) -> Option<u32> {
    match name {
        "printf" | "vprintf" | "warn" | "warnx" => Some(0),
        "fprintf" | "vfprintf" | "vsprintf" | "vasprintf" | "vdprintf" => Some(1),
        "vsnprintf" => Some(2),
        _ => None,
    }
}

/// The arguments the `printf` format `format` takes, in order (C11 7.21.6.1, with glibc's
/// `%m`, which takes none); `Err` names a conversion whose reads the model does not know: a
/// wide string (`%ls`, `%S`), an argument by position (`%1$s`), or a letter it does not
/// know.
pub fn printed(format: &[u8]) -> Result<Vec<Printed>, String> {
    let mut args = Vec::new();
    let mut i = 0;
    let digits = |i: &mut usize| {
        let start = *i;
        while format.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        std::str::from_utf8(&format[start..*i])
            .ok()
            .and_then(|d| d.parse::<u64>().ok())
    };
    while i < format.len() {
        if format[i] != b'%' {
            i += 1;
            continue;
        }
        i += 1;
        if format.get(i) == Some(&b'%') {
            i += 1;
            continue;
        }
        let at = i;
        digits(&mut i);
        if format.get(i) == Some(&b'$') {
            return Err("$".into());
        }
        i = at;
        while format.get(i).is_some_and(|c| b"-+ #0'I".contains(c)) {
            i += 1;
        }
        // (`*` with a position, `%*2$d`, is an argument by position too.)
        let positioned = |i: &mut usize| {
            digits(i);
            format.get(*i) == Some(&b'$')
        };
        if format.get(i) == Some(&b'*') {
            args.push(Printed::Star);
            i += 1;
            if positioned(&mut i) {
                return Err("$".into());
            }
        } else {
            digits(&mut i);
        }
        let mut precision = Precision::None;
        if format.get(i) == Some(&b'.') {
            i += 1;
            if format.get(i) == Some(&b'*') {
                args.push(Printed::Star);
                precision = Precision::Argument;
                i += 1;
                if positioned(&mut i) {
                    return Err("$".into());
                }
            } else {
                precision = Precision::Fixed(digits(&mut i).unwrap_or(0));
            }
        }
        let mut long = false;
        while format.get(i).is_some_and(|c| b"hlLqjzt".contains(c)) {
            long |= format[i] == b'l';
            i += 1;
        }
        match format.get(i) {
            Some(b's') if long => return Err("ls".into()),
            Some(b'S') => return Err("S".into()),
            Some(b's') => args.push(Printed::String(precision)),
            Some(b'm') => {}
            Some(c) if b"diouxXeEfFgGaAcCpn".contains(c) => args.push(Printed::Value),
            Some(&c) => return Err((c as char).to_string()),
            None => return Err(String::new()),
        }
        i += 1;
    }
    Ok(args)
}

impl<'m> Lowerer<'m> {
    /// The function of [`LOWERED`] a call of `name` is lowered as, where the library's is
    /// the one called.
    pub(super) fn formatting(&self, name: &str) -> Option<&'static str> {
        lowered_as(name).filter(|_| self.library_function(name))
    }

    /// Whether the library's `name` is the one called: the program does not define its own.
    pub(super) fn library_function(&self, name: &str) -> bool {
        self.m
            .functions
            .iter()
            .find(|f| f.name == name)
            .is_none_or(|f| super::compile::is_model_section(f.section.as_deref()))
    }

    /// The bytes of the string constant `v` points to, up to its null byte.
    pub(super) fn constant_string(&self, v: &Val) -> Option<Vec<u8>> {
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

    /// Whether the call of `name` (`printf`, `fprintf`, `vprintf` or `vfprintf`) with
    /// `args` has a format that is a string constant with a `%n` conversion.
    pub(super) fn stores_count(&mut self, name: &str, args: &[&'m Operand]) -> R<bool> {
        let k = usize::from(name.starts_with("f") || name.starts_with("vf"));
        let Some(f) = args.get(k) else {
            return Ok(false);
        };
        let v = self.val(f)?;
        let Some(text) = self.constant_string(&v) else {
            return Ok(false);
        };
        Ok(stores_count_in(&text))
    }

    /// `snprintf(buf, size, format, ...)`, `sprintf(buf, format, ...)`,
    /// `asprintf(&out, format, ...)` or `sscanf(text, format, ...)`.
    pub(super) fn format(
        &mut self,
        name: &str,
        args: &[&'m Operand],
        _c: &'m Call,
    ) -> R<Option<Val>> {
        let (fixed, model, dir) = match name {
            "snprintf" => (3, "__synth_format", Direction::Print),
            "sprintf" => (2, "__synth_format", Direction::Print),
            "asprintf" => (2, "__synth_asprintf", Direction::Print),
            "scanf" => (1, "__synth_scan_stdin", Direction::Scan),
            _ => (2, "__synth_sscan", Direction::Scan),
        };
        if args.len() < fixed {
            return self.invalid(format!("`{name}` without a format"));
        }
        let fmt = self.val(args[fixed - 1])?;
        let Some(text) = self.constant_string(&fmt) else {
            return self.unsupported(format!(
                "`{name}` with a format that is not a string constant"
            ));
        };
        let wanted = match conversions(&text, dir) {
            Ok(n) => n,
            Err(c) => return self.unsupported(format!("`{name}` with the conversion `%{c}`")),
        };
        let rest = &args[fixed..];
        if rest.len() < wanted.len() {
            return self.unsupported(format!(
                "`{name}` with fewer arguments than its format converts"
            ));
        }
        // A 64-bit conversion of a narrower integer reads bits the call did not pass.
        let narrow = |a: &Operand| matches!(self.m.types.type_of(a).as_ref(), Type::IntegerType { bits } if *bits < 64);
        if let Some(k) = (wanted.iter().zip(rest)).position(|(&w, a)| w && narrow(a)) {
            return self.unsupported(format!(
                "`{name}` with a 64-bit conversion (`l`, `z`, `j`, `t`) of a narrower \
                 integer (argument {} after the format)",
                k + 1
            ));
        }
        let Some(model) = self.funcs.get(model).copied() else {
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
        let array = Val::P {
            obj: array,
            off: 0,
            dyn_: vec![],
        };
        // (scanf's model reads its own text: its first argument is the format.)
        let mut call = if name == "scanf" {
            vec![]
        } else {
            vec![self.val(args[0])?]
        };
        match name {
            "snprintf" => call.push(Val::E(cast(self.expr(args[1])?, Ty::ULONG))),
            "sprintf" => call.push(Val::E(Expr::constant(i128::from(u64::MAX), Ty::ULONG))),
            _ => {}
        }
        call.extend([fmt, array]);
        self.inline(model, call)
    }
}

#[cfg(test)]
mod tests {
    use super::{conversions, printed_as_strings, stores_count_in, Direction};

    #[test]
    fn what_printf_reads_is_found_in_its_format() {
        use super::{printed, Precision, Printed};
        let s = |p| Printed::String(p);
        assert_eq!(
            printed(b"%s and %.3s, %-*.*s|%05ld|%%|%m|%c|%.s"),
            Ok(vec![
                s(Precision::None),
                s(Precision::Fixed(3)),
                Printed::Star,
                Printed::Star,
                s(Precision::Argument),
                Printed::Value,
                Printed::Value,
                s(Precision::Fixed(0)),
            ])
        );
        assert_eq!(printed(b"%5.2f %p %lu"), Ok(vec![Printed::Value; 3]));
        assert_eq!(printed(b"%ls"), Err("ls".into()));
        assert_eq!(printed(b"%1$s"), Err("$".into()));
        assert_eq!(printed(b"%*2$d"), Err("$".into()));
        assert_eq!(printed(b"%y"), Err("y".into()));
        assert_eq!(printed(b"100%"), Err(String::new()));
    }

    #[test]
    fn conversions_are_counted_and_unknown_ones_named() {
        let conversions = |f: &[u8]| conversions(f, Direction::Print);
        assert_eq!(conversions(b"worker %d says %s"), Ok(vec![false; 2]));
        let wide = vec![false, false, false, true, false, true];
        assert_eq!(conversions(b"%-*.*s|%05ld|%%|%x|%zu"), Ok(wide));
        assert_eq!(conversions(b"100%%"), Ok(vec![]));
        assert_eq!(conversions(b"%5.2f"), Err("f".into()));
        assert_eq!(conversions(b"%n"), Err("n".into()));
        assert_eq!(conversions(b"%p"), Err("p".into()));
        assert_eq!(conversions(b"%ls"), Err("ls".into()));
        assert_eq!(conversions(b"%lc"), Err("lc".into()));
        assert_eq!(conversions(b"%"), Err(String::new()));
        let strings = vec![false, false, true, false, false, false];
        assert_eq!(printed_as_strings(b"%-*.*s|%05ld|%%|%x|%zu"), Some(strings));
        assert_eq!(printed_as_strings(b"%p"), None);
        assert!(stores_count_in(b"%5.2f then %hhn"));
        assert!(stores_count_in(b"%1$n") && stores_count_in(b"%'n"));
        assert!(!stores_count_in(b"100%% %s %d\n"));
    }

    #[test]
    fn scan_conversions_count_assignments() {
        let scans = |f: &[u8]| conversions(f, Direction::Scan);
        assert_eq!(scans(b"%u"), Ok(vec![false]));
        assert_eq!(scans(b"%*d %5s %hhx %lu %%"), Ok(vec![false; 3]));
        assert_eq!(scans(b"%f"), Err("f".into()));
        assert_eq!(scans(b"%[a-z]"), Err("[".into()));
        assert_eq!(scans(b"%n"), Err("n".into()));
        assert_eq!(scans(b"%ls"), Err("ls".into()));
    }
}
