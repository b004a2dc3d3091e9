//! First-class aggregates: a struct or array held in a register, which is what clang makes of
//! a small struct passed or returned by value (`{ i64, i32 }`), and `insertvalue` /
//! `extractvalue` on such values.
//!
//! An aggregate value is a [`Val::Tuple`] of its members, nested as its type nests; a zero or
//! undefined aggregate constant may stay a single zero, whose members are zero. A load or a
//! store of a whole aggregate reads or writes all its scalar cells in one step (one
//! instruction: one event of a schedule).

use super::lower::{cast, Lowerer, Val, R};
use crate::ir::*;
use llvm_ir::types::Type;
use llvm_ir::TypeRef;

impl<'m> Lowerer<'m> {
    /// The members of aggregate type `t` with their byte offsets; `None` when `t` is not an
    /// aggregate.
    pub(super) fn members(&self, t: &Type) -> Option<Vec<(u64, TypeRef)>> {
        match t {
            Type::StructType { .. } | Type::NamedStructType { .. } => {
                let (fields, packed) = self.layout.struct_fields(t)?;
                let (offsets, _, _) = self.layout.struct_layout(&fields, packed)?;
                Some(offsets.into_iter().zip(fields).collect())
            }
            Type::ArrayType {
                element_type,
                num_elements,
            } => {
                let s = self.layout.size(element_type)?;
                Some(
                    (0..*num_elements as u64)
                        .map(|k| (k * s, element_type.clone()))
                        .collect(),
                )
            }
            _ => None,
        }
    }

    /// The scalar cells of a value of type `t`: byte offset and type, in member order.
    pub(super) fn scalar_cells(&self, t: &TypeRef) -> R<Vec<(u64, Ty)>> {
        let mut out = Vec::new();
        self.cells_into(t, 0, &mut out)?;
        Ok(out)
    }

    fn cells_into(&self, t: &TypeRef, base: u64, out: &mut Vec<(u64, Ty)>) -> R<()> {
        match self.members(t) {
            Some(ms) => {
                for (o, mt) in ms {
                    self.cells_into(&mt, base + o, out)?;
                }
            }
            None => out.push((base, self.reg_ty(t)?)),
        }
        Ok(())
    }

    /// Member `k` of the aggregate value `v`.
    pub(super) fn member(&self, v: &Val, k: usize) -> R<Val> {
        match v {
            Val::Tuple(parts) => match parts.get(k) {
                Some(p) => Ok(p.clone()),
                None => self.unsupported("a member past the end of an aggregate"),
            },
            // A zero or undefined aggregate constant.
            Val::E(e) if e.as_const() == Some(0) => Ok(v.clone()),
            _ => self.unsupported("an aggregate value of this form"),
        }
    }

    /// The scalar values of `v`, of type `t`, in the order of [`Lowerer::scalar_cells`].
    pub(super) fn flatten(&self, v: &Val, t: &TypeRef) -> R<Vec<Expr>> {
        let mut out = Vec::new();
        self.flatten_into(v, t, &mut out)?;
        Ok(out)
    }

    fn flatten_into(&self, v: &Val, t: &TypeRef, out: &mut Vec<Expr>) -> R<()> {
        match self.members(t) {
            Some(ms) => {
                for (k, (_, mt)) in ms.iter().enumerate() {
                    let m = self.member(v, k)?;
                    self.flatten_into(&m, mt, out)?;
                }
            }
            None => {
                let ty = self.reg_ty(t)?;
                out.push(cast(self.addr_expr(v), ty));
            }
        }
        Ok(())
    }

    /// The value of type `t` whose scalars are `parts` (in the order of
    /// [`Lowerer::scalar_cells`]).
    pub(super) fn assemble(&self, t: &TypeRef, parts: &mut impl Iterator<Item = Expr>) -> Val {
        match self.members(t) {
            Some(ms) => Val::Tuple(ms.iter().map(|(_, mt)| self.assemble(mt, parts)).collect()),
            None => Val::E(parts.next().unwrap_or_else(|| Expr::int(0))),
        }
    }

    /// `v` with the member at `path` replaced by `x` (`insertvalue`).
    pub(super) fn insert(&self, v: &Val, t: &TypeRef, path: &[u32], x: Val) -> R<Val> {
        let Some((&k, rest)) = path.split_first() else {
            return Ok(x);
        };
        let Some(ms) = self.members(t) else {
            return self.unsupported("insertvalue into a value that is no aggregate");
        };
        let mut parts = Vec::with_capacity(ms.len());
        for (j, (_, mt)) in ms.iter().enumerate() {
            let m = self.member(v, j)?;
            parts.push(if j == k as usize {
                self.insert(&m, mt, rest, x.clone())?
            } else {
                m
            });
        }
        Ok(Val::Tuple(parts))
    }

    /// Loads the aggregate of type `t` at `ptr` in one step.
    pub(super) fn load_aggregate(&mut self, ptr: &Val, t: &TypeRef, name: &str) -> R<Val> {
        let mut ops = Vec::new();
        let mut regs = Vec::new();
        for (o, ty) in self.scalar_cells(t)? {
            let w = ty.bits.div_ceil(8) as u64;
            let place = self.place(&self.offset_by(ptr, o), w, ty)?;
            let r = self.temp(&format!("{name}.{o}"), ty);
            ops.push(Op::Assign {
                place: Place::scalar(r),
                value: Expr::Load { place, ty },
            });
            regs.push(Expr::var(r, ty));
        }
        self.access_step(ops, TransKind::Stmt)?;
        Ok(self.assemble(t, &mut regs.into_iter()))
    }

    /// Stores the aggregate `v` of type `t` at `ptr` in one step.
    pub(super) fn store_aggregate(&mut self, ptr: &Val, t: &TypeRef, v: &Val) -> R<()> {
        let values = self.flatten(v, t)?;
        let mut ops = Vec::new();
        for ((o, ty), value) in self.scalar_cells(t)?.into_iter().zip(values) {
            let w = ty.bits.div_ceil(8) as u64;
            let place = self.place(&self.offset_by(ptr, o), w, ty)?;
            ops.push(Op::Assign { place, value });
        }
        self.access_step(ops, TransKind::Stmt)?;
        Ok(())
    }
}
