//! Sizes and layouts of LLVM types on x86-64 (the System V ABI that clang's data layout
//! `e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128` describes), and the
//! flattening of an object's type into the cells the IR stores: one IR variable per scalar
//! field, with elements `stride` bytes apart (see [`crate::ir::Placement`]).

use crate::ir::{ElemKind, Ty};
use llvm_ir::types::{FPType, NamedStructDef, Type, Types};
use llvm_ir::TypeRef;

/// A scalar cell family of an object: `len` cells of kind `elem`, the first at byte `offset`,
/// each `stride` bytes after the previous one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leaf {
    /// Byte offset of the first cell.
    pub offset: u64,
    /// Bytes between cells.
    pub stride: u64,
    /// Number of cells.
    pub len: u64,
    /// What a cell holds.
    pub elem: ElemKind,
    /// Bytes a cell occupies.
    pub width: u64,
    /// Field path below the object (`.1[].0`), for names.
    pub path: String,
}

/// More cells than this in one object are not expanded (a large inner array of an array of
/// structs): the front end reports the object as unsupported instead.
const MAX_LEAVES: usize = 4096;

/// The cells of a synchronisation object of glibc's headers, by the name of its type:
/// (byte offset, kind, width, field name). The mutex's cells lie where glibc keeps its lock,
/// count and kind, so that its static initialisers (`PTHREAD_MUTEX_INITIALIZER`,
/// `PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP`) set them.
pub fn sync_cells(name: &str) -> Option<Vec<(u64, ElemKind, u64, &'static str)>> {
    let long = ElemKind::Int(Ty::LONG);
    Some(match name {
        "union.pthread_mutex_t" => vec![
            (0, ElemKind::Mutex, 4, ".lock"),
            (4, ElemKind::Int(Ty::UINT), 4, ".count"),
            (16, ElemKind::Int(Ty::INT), 4, ".kind"),
        ],
        // The waiting threads, one bit each.
        "union.pthread_cond_t" => vec![(0, ElemKind::Cond, 8, "")],
        "union.pthread_barrier_t" => vec![
            (0, ElemKind::Barrier, 8, ".count"),
            (8, long, 8, ".n"),
            (16, long, 8, ".gen"),
        ],
        "union.pthread_rwlock_t" => {
            vec![(0, long, 8, ".readers"), (8, ElemKind::Mutex, 8, ".writer")]
        }
        "union.sem_t" => vec![(0, long, 8, ".value")],
        _ => return None,
    })
}

/// Layout queries over a module's types.
pub struct Layout<'m> {
    types: &'m Types,
}

impl<'m> Layout<'m> {
    /// Layouts for the types of a module.
    pub fn new(types: &'m Types) -> Self {
        Layout { types }
    }

    /// The definition of a named struct, if it has one.
    fn named(&self, name: &str) -> Option<TypeRef> {
        match self.types.named_struct_def(name)? {
            NamedStructDef::Defined(t) => Some(t.clone()),
            NamedStructDef::Opaque => None,
        }
    }

    /// Size and alignment in bytes (`None` for types without a size: functions, opaque
    /// structs, scalable vectors).
    pub fn size_align(&self, t: &Type) -> Option<(u64, u64)> {
        Some(match t {
            Type::IntegerType { bits } => {
                let b = (*bits as u64).div_ceil(8).next_power_of_two();
                (b, b.min(16))
            }
            Type::PointerType { .. } => (8, 8),
            Type::FPType(fp) => match fp {
                FPType::Half | FPType::BFloat => (2, 2),
                FPType::Single => (4, 4),
                FPType::Double => (8, 8),
                FPType::X86_FP80 | FPType::FP128 | FPType::PPC_FP128 => (16, 16),
            },
            Type::ArrayType {
                element_type,
                num_elements,
            } => {
                let (s, a) = self.size_align(element_type)?;
                (s * *num_elements as u64, a)
            }
            Type::VectorType {
                element_type,
                num_elements,
                scalable: false,
            } => {
                let (s, _) = self.size_align(element_type)?;
                let total = (s * *num_elements as u64).next_power_of_two();
                (total, total)
            }
            Type::StructType {
                element_types,
                is_packed,
            } => {
                let (offsets, size, align) = self.struct_layout(element_types, *is_packed)?;
                let _ = offsets;
                (size, align)
            }
            Type::NamedStructType { name } => {
                let def = self.named(name)?;
                self.size_align(&def)?
            }
            _ => return None,
        })
    }

    /// Size in bytes.
    pub fn size(&self, t: &Type) -> Option<u64> {
        self.size_align(t).map(|(s, _)| s)
    }

    /// Field offsets, size and alignment of a struct.
    pub fn struct_layout(&self, fields: &[TypeRef], packed: bool) -> Option<(Vec<u64>, u64, u64)> {
        let mut off = 0u64;
        let mut align = 1u64;
        let mut offsets = Vec::with_capacity(fields.len());
        for f in fields {
            let (s, a) = self.size_align(f)?;
            let a = if packed { 1 } else { a };
            off = off.div_ceil(a) * a;
            offsets.push(off);
            off += s;
            align = align.max(a);
        }
        Some((offsets, off.div_ceil(align) * align, align))
    }

    /// The fields of a struct type (named or literal) and whether it is packed.
    pub fn struct_fields(&self, t: &Type) -> Option<(Vec<TypeRef>, bool)> {
        match t {
            Type::StructType {
                element_types,
                is_packed,
            } => Some((element_types.clone(), *is_packed)),
            Type::NamedStructType { name } => {
                let def = self.named(name)?;
                self.struct_fields(&def)
            }
            _ => None,
        }
    }

    /// The byte offset of field `i` of a struct type.
    pub fn field_offset(&self, t: &Type, i: usize) -> Option<u64> {
        let (fields, packed) = self.struct_fields(t)?;
        let (offsets, _, _) = self.struct_layout(&fields, packed)?;
        offsets.get(i).copied()
    }

    /// The byte offset a `getelementptr` over `src` with the constant `indices` adds (the
    /// first steps over whole `src`s); `None` where a type has no layout.
    pub fn constant_offset(&self, src: &TypeRef, indices: &[i64]) -> Option<i64> {
        let mut t = src.clone();
        let mut off = 0i64;
        for (k, &i) in indices.iter().enumerate() {
            if k == 0 {
                off += i * self.size(&t)? as i64;
                continue;
            }
            t = match t.as_ref() {
                Type::ArrayType { element_type, .. } | Type::VectorType { element_type, .. } => {
                    off += i * self.size(element_type)? as i64;
                    element_type.clone()
                }
                _ => {
                    let field = usize::try_from(i).ok()?;
                    off += self.field_offset(&t, field)? as i64;
                    self.struct_fields(&t)?.0.get(field)?.clone()
                }
            };
        }
        Some(off)
    }

    /// The cells of an object of type `t`; `None` when the type has no size or too many
    /// cells.
    pub fn flatten(&self, t: &Type) -> Option<Vec<Leaf>> {
        let mut out = Vec::new();
        self.flatten_into(t, 0, None, String::new(), &mut out)?;
        Some(out)
    }

    /// Appends the cells of `count` values of type `t`, the first at byte `base`, each
    /// `stride` bytes after the previous one (`None` when the type has no size or too many
    /// cells).
    pub fn flatten_array(
        &self,
        t: &Type,
        base: u64,
        stride: u64,
        count: u64,
        out: &mut Vec<Leaf>,
    ) -> Option<()> {
        self.flatten_into(t, base, Some((stride, count)), String::new(), out)
    }

    /// Appends the cells of a `t` at byte `base`; `outer` is the stride and count of an
    /// enclosing array whose elements each hold such a `t`.
    fn flatten_into(
        &self,
        t: &Type,
        base: u64,
        outer: Option<(u64, u64)>,
        path: String,
        out: &mut Vec<Leaf>,
    ) -> Option<()> {
        if out.len() > MAX_LEAVES {
            return None;
        }
        let scalar = |elem: ElemKind, width: u64, out: &mut Vec<Leaf>| {
            let (stride, len) = outer.unwrap_or((width, 1));
            out.push(Leaf {
                offset: base,
                stride,
                len,
                elem,
                width,
                path: path.clone(),
            });
        };
        match t {
            Type::IntegerType { bits } => {
                let width = self.size(t)?;
                scalar(ElemKind::Int(int_ty(*bits)), width, out);
            }
            Type::PointerType { .. } => scalar(ElemKind::Ptr, 8, out),
            Type::FPType(_) => {
                // Floating point values are stored as integers of their width (their bits).
                let width = self.size(t)?;
                scalar(
                    ElemKind::Int(Ty {
                        bits: (width * 8).min(64) as u8,
                        signed: true,
                    }),
                    width,
                    out,
                );
            }
            Type::NamedStructType { name } if sync_cells(name).is_some() => {
                let (stride, len) = outer.unwrap_or((self.size(t)?, 1));
                for (off, elem, width, field) in sync_cells(name)? {
                    out.push(Leaf {
                        offset: base + off,
                        stride,
                        len,
                        elem,
                        width,
                        path: format!("{path}{field}"),
                    });
                }
            }
            Type::ArrayType {
                element_type,
                num_elements,
            } => {
                let n = *num_elements as u64;
                let esize = self.size(element_type)?;
                // An array of arrays of scalars is one family of contiguous cells.
                let mut inner = Vec::new();
                self.flatten_into(element_type, 0, None, String::new(), &mut inner)?;
                if let [leaf] = inner.as_slice() {
                    let contiguous = leaf.offset == 0
                        && leaf.stride == leaf.width
                        && leaf.stride * leaf.len == esize;
                    if contiguous && outer.is_none() {
                        out.push(Leaf {
                            offset: base,
                            stride: leaf.width,
                            len: n * leaf.len,
                            elem: leaf.elem,
                            width: leaf.width,
                            path: format!("{path}[]"),
                        });
                        return Some(());
                    }
                }
                match outer {
                    None => self.flatten_into(
                        element_type,
                        base,
                        Some((esize, n)),
                        format!("{path}[]"),
                        out,
                    )?,
                    Some(_) => {
                        // An array inside an array's element: each of its elements is a cell
                        // family of its own.
                        for k in 0..n {
                            self.flatten_into(
                                element_type,
                                base + k * esize,
                                outer,
                                format!("{path}[{k}]"),
                                out,
                            )?;
                            if out.len() > MAX_LEAVES {
                                return None;
                            }
                        }
                    }
                }
            }
            Type::StructType { .. } | Type::NamedStructType { .. } => {
                let (fields, packed) = self.struct_fields(t)?;
                let (offsets, size, _) = self.struct_layout(&fields, packed)?;
                let mut end = 0;
                for (i, (f, o)) in fields.iter().zip(offsets).enumerate() {
                    self.padding(base, end, o, outer, &path, out);
                    self.flatten_into(f, base + o, outer, format!("{path}.{i}"), out)?;
                    end = o + self.size(f)?;
                }
                self.padding(base, end, size, outer, &path, out);
            }
            Type::VectorType { .. } => return None,
            _ => return None,
        }
        Some(())
    }
}

impl Layout<'_> {
    /// The bytes `from..to` of a struct at byte `base` that no field holds (padding): bytes
    /// of memory like any other, which a copy of the struct copies and an access through a
    /// character pointer reads and writes.
    fn padding(
        &self,
        base: u64,
        from: u64,
        to: u64,
        outer: Option<(u64, u64)>,
        path: &str,
        out: &mut Vec<Leaf>,
    ) {
        let byte = ElemKind::Int(Ty::UCHAR);
        match outer {
            None if to > from => out.push(Leaf {
                offset: base + from,
                stride: 1,
                len: to - from,
                elem: byte,
                width: 1,
                path: format!("{path}.pad{from}"),
            }),
            None => {}
            Some((stride, len)) => out.extend((from..to).map(|k| Leaf {
                offset: base + k,
                stride,
                len,
                elem: byte,
                width: 1,
                path: format!("{path}.pad{k}"),
            })),
        }
    }
}

/// The IR type of an LLVM integer of `bits` bits: two's complement of that width (`i1` is
/// `_Bool`).
pub fn int_ty(bits: u32) -> Ty {
    if bits == 1 {
        Ty::BOOL
    } else {
        Ty {
            bits: bits.min(127) as u8,
            signed: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn struct_layout_pads_like_the_abi() {
        let types = Types::blank_for_testing();
        let i8t = types.int(8);
        let i32t = types.int(32);
        let ptr = types.pointer();
        let l = Layout::new(&types);
        // struct { char c; int *p; int x; } : offsets 0, 8, 16; size 24.
        let (off, size, align) = l
            .struct_layout(&[i8t.clone(), ptr.clone(), i32t.clone()], false)
            .unwrap();
        assert_eq!(off, vec![0, 8, 16]);
        assert_eq!((size, align), (24, 8));
        let (off, size, _) = l.struct_layout(&[i8t, ptr, i32t], true).unwrap();
        assert_eq!(off, vec![0, 1, 9]);
        assert_eq!(size, 13);
    }

    #[test]
    fn the_padding_of_a_struct_is_bytes_of_memory() {
        let types = Types::blank_for_testing();
        let (i8t, i64t) = (types.int(8), types.int(64));
        // struct { char c; long l; char d; }: bytes 1..8 and 17..24 are padding.
        let s = types.struct_of(vec![i8t.clone(), i64t, i8t], false);
        let leaves = Layout::new(&types).flatten(&s).unwrap();
        let spans: Vec<(u64, u64, u64)> = leaves
            .iter()
            .map(|l| (l.offset, l.len * l.stride, l.width))
            .collect();
        assert_eq!(
            spans,
            vec![(0, 1, 1), (1, 7, 1), (8, 8, 8), (16, 1, 1), (17, 7, 1)]
        );
    }

    #[test]
    fn arrays_of_structs_flatten_into_one_family_per_field() {
        let types = Types::blank_for_testing();
        let (i32t, ptr) = (types.int(32), types.pointer());
        let s = types.struct_of(vec![i32t.clone(), ptr], false);
        let arr = types.array_of(s, 5);
        let row = types.array_of(i32t, 4);
        let a = types.array_of(row, 3);
        let l = Layout::new(&types);
        let leaves = l.flatten(&arr).unwrap();
        // The int, its four bytes of padding (a family of bytes each), the pointer.
        assert_eq!(leaves.len(), 6);
        assert_eq!(
            (leaves[0].offset, leaves[0].stride, leaves[0].len),
            (0, 16, 5)
        );
        for (k, pad) in leaves[1..5].iter().enumerate() {
            assert_eq!(
                (pad.offset, pad.stride, pad.len, pad.width),
                (4 + k as u64, 16, 5, 1)
            );
        }
        assert_eq!(
            (leaves[5].offset, leaves[5].stride, leaves[5].len),
            (8, 16, 5)
        );
        // int a[3][4]: one family of 12 cells.
        let leaves = l.flatten(&a).unwrap();
        assert_eq!(leaves.len(), 1);
        assert_eq!((leaves[0].stride, leaves[0].len), (4, 12));
    }
}
