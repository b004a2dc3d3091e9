//! C types as the front end sees them, with their x86-64 (LP64, glibc) sizes.

use crate::ir::{ElemKind, Ty};

/// A C type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CType {
    Void,
    /// An integer type (also enums, `_Bool`, `pthread_t`).
    Int(Ty),
    /// A pointer to a type.
    Ptr(Box<CType>),
    /// An array with a known length.
    Array(Box<CType>, u64),
    /// A struct, by index into the struct table.
    Struct(usize),
    Mutex,
    Cond,
    Barrier,
    /// A function designator (only `pthread_create` takes one).
    Func,
    /// A type the IR cannot represent (floating point, unions, `FILE`, attribute objects):
    /// an error only where a value of it is needed.
    Opaque(String),
}

/// A struct definition: fields in order.
#[derive(Clone, Debug, Default)]
pub struct StructDef {
    /// Tag, or `<anonymous>`.
    pub name: String,
    /// Fields in declaration order.
    pub fields: Vec<(String, CType)>,
    /// `false` while only forward-declared.
    pub complete: bool,
}

impl CType {
    /// The IR element kind of a scalar type.
    pub fn elem(&self) -> Option<ElemKind> {
        match self {
            CType::Int(t) => Some(ElemKind::Int(*t)),
            CType::Ptr(_) => Some(ElemKind::Ptr),
            CType::Mutex => Some(ElemKind::Mutex),
            CType::Cond => Some(ElemKind::Cond),
            CType::Barrier => Some(ElemKind::Barrier),
            _ => None,
        }
    }

    /// The integer type values of a scalar type have in expressions.
    pub fn value_ty(&self) -> Option<Ty> {
        match self {
            CType::Int(t) => Some(*t),
            CType::Ptr(_) => Some(Ty::ULONG),
            _ => None,
        }
    }

    /// `sizeof` and alignment on x86-64 with glibc.
    pub fn size_align(&self, structs: &[StructDef]) -> Option<(u64, u64)> {
        Some(match self {
            CType::Void => (1, 1),
            CType::Int(t) => {
                let b = (t.bits.max(8) / 8) as u64;
                (b, b)
            }
            CType::Ptr(_) => (8, 8),
            CType::Array(e, n) => {
                let (s, a) = e.size_align(structs)?;
                (s * n, a)
            }
            CType::Struct(i) => {
                let def = structs.get(*i)?;
                let (mut off, mut al) = (0u64, 1u64);
                for (_, f) in &def.fields {
                    let (s, a) = f.size_align(structs)?;
                    off = off.div_ceil(a) * a + s;
                    al = al.max(a);
                }
                (off.div_ceil(al) * al, al)
            }
            CType::Mutex => (40, 8),
            CType::Cond => (48, 8),
            CType::Barrier => (32, 8),
            CType::Func => (1, 1),
            CType::Opaque(name) => match name.as_str() {
                "pthread_attr_t" => (56, 8),
                "pthread_mutexattr_t" | "pthread_condattr_t" | "pthread_barrierattr_t" => (4, 4),
                _ => return None,
            },
        })
    }

    /// A readable spelling for messages.
    pub fn describe(&self, structs: &[StructDef]) -> String {
        match self {
            CType::Void => "void".into(),
            CType::Int(t) => match (t.bits, t.signed) {
                (1, _) => "_Bool".into(),
                (8, true) => "char".into(),
                (8, false) => "unsigned char".into(),
                (16, true) => "short".into(),
                (16, false) => "unsigned short".into(),
                (32, true) => "int".into(),
                (32, false) => "unsigned int".into(),
                (64, true) => "long".into(),
                _ => "unsigned long".into(),
            },
            CType::Ptr(t) => format!("{} *", t.describe(structs)),
            CType::Array(t, n) => format!("{}[{n}]", t.describe(structs)),
            CType::Struct(i) => format!(
                "struct {}",
                structs.get(*i).map(|s| s.name.as_str()).unwrap_or("?")
            ),
            CType::Mutex => "pthread_mutex_t".into(),
            CType::Cond => "pthread_cond_t".into(),
            CType::Barrier => "pthread_barrier_t".into(),
            CType::Func => "function".into(),
            CType::Opaque(n) => n.clone(),
        }
    }
}

/// The usual arithmetic conversions (C11 6.3.1.8) on two promoted integer types.
pub fn common_type(a: Ty, b: Ty) -> Ty {
    let (a, b) = (promote(a), promote(b));
    if a == b {
        return a;
    }
    if a.signed == b.signed {
        return if a.bits >= b.bits { a } else { b };
    }
    let (s, u) = if a.signed { (a, b) } else { (b, a) };
    if u.bits >= s.bits {
        u
    } else {
        // The signed type can represent every value of the unsigned one (bits strictly larger).
        s
    }
}

/// Integer promotion (C11 6.3.1.1): everything narrower than `int` becomes `int`.
pub fn promote(t: Ty) -> Ty {
    if t.bits < 32 {
        Ty::INT
    } else {
        t
    }
}
