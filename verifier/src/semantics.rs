//! The arithmetic of the IR, in one place: the interpreter, constant folding in the front end
//! and (later) the verifier's encoding agree on it because they all call these functions.
//! See the module documentation of [`crate::ir`] for the rules.

use crate::ir::{BinOp, Ty, UnOp};

/// Why an operation has no value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Undefined {
    /// `x / 0` or `x % 0`.
    DivisionByZero,
    /// `INT_MIN / -1` and friends.
    DivisionOverflow,
    /// A shift by a negative amount or by at least the width.
    ShiftOutOfRange(i128),
    /// Signed arithmetic whose result does not fit its type.
    SignedOverflow,
}

impl std::fmt::Display for Undefined {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Undefined::DivisionByZero => write!(f, "division by zero"),
            Undefined::DivisionOverflow => write!(f, "overflow in division"),
            Undefined::ShiftOutOfRange(n) => write!(f, "shift by {n}"),
            Undefined::SignedOverflow => write!(f, "signed integer overflow"),
        }
    }
}

/// Applies a unary operator; the operand is already of type `ty` (for `!`, any type).
/// Negating the smallest value of a signed type overflows.
pub fn unop(op: UnOp, ty: Ty, a: i128) -> Result<i128, Undefined> {
    Ok(match op {
        UnOp::Neg => signed_result(ty, -a)?,
        UnOp::BitNot => ty.wrap(!a),
        UnOp::Not => (a == 0) as i128,
    })
}

/// Whether [`unop`] may be undefined at type `ty` for some operand.
pub fn unop_may_be_undefined(op: UnOp, ty: Ty) -> bool {
    matches!(op, UnOp::Neg) && ty.signed && ty.bits > 1
}

/// Whether [`binop`] may be undefined at type `ty` for some operands.
pub fn binop_may_be_undefined(op: BinOp, ty: Ty) -> bool {
    use BinOp::*;
    match op {
        Add | Sub | Mul => ty.signed && ty.bits > 1,
        Div | Rem | Shl | Shr => true,
        _ => false,
    }
}

/// The result of signed arithmetic must fit the type (C11 6.5p5); unsigned arithmetic wraps.
fn signed_result(ty: Ty, r: i128) -> Result<i128, Undefined> {
    if ty.signed && ty.bits > 1 && (r < ty.min() || r > ty.max()) {
        return Err(Undefined::SignedOverflow);
    }
    Ok(ty.wrap(r))
}

/// Applies a binary operator whose result has type `ty`. For arithmetic the operands are of
/// type `ty` already; for comparisons both operands have the same type (and `ty` is `int`);
/// for shifts `a` has type `ty` and `b` its own promoted type.
pub fn binop(op: BinOp, ty: Ty, a: i128, b: i128) -> Result<i128, Undefined> {
    use BinOp::*;
    Ok(match op {
        Add => signed_result(ty, a + b)?,
        Sub => signed_result(ty, a - b)?,
        Mul => match a.checked_mul(b) {
            Some(r) => signed_result(ty, r)?,
            None if ty.signed => return Err(Undefined::SignedOverflow),
            None => ty.wrap(a.wrapping_mul(b)),
        },
        Div | Rem => {
            if b == 0 {
                return Err(Undefined::DivisionByZero);
            }
            // In 64 bits when the operands fit (i128 division is a slow library call); the
            // quotient of i64::MIN by -1 does not fit, so it takes the wide path.
            let (q, r) = match (i64::try_from(a), i64::try_from(b)) {
                (Ok(x), Ok(y)) if !(x == i64::MIN && y == -1) => ((x / y) as i128, (x % y) as i128),
                _ => (a / b, a % b),
            };
            if ty.signed && ty.wrap(q) != q {
                return Err(Undefined::DivisionOverflow);
            }
            if op == Div {
                ty.wrap(q)
            } else {
                ty.wrap(r)
            }
        }
        Shl | Shr => {
            if b < 0 || b >= ty.bits.max(32) as i128 {
                return Err(Undefined::ShiftOutOfRange(b));
            }
            if op == Shl {
                ty.wrap(a << b)
            } else {
                ty.wrap(a >> b)
            }
        }
        BitAnd => ty.wrap(a & b),
        BitOr => ty.wrap(a | b),
        BitXor => ty.wrap(a ^ b),
        Lt => (a < b) as i128,
        Le => (a <= b) as i128,
        Gt => (a > b) as i128,
        Ge => (a >= b) as i128,
        Eq => (a == b) as i128,
        Ne => (a != b) as i128,
        And => (a != 0 && b != 0) as i128,
        Or => (a != 0 || b != 0) as i128,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The reference: C's conversion to a `bits`-bit type, by Euclidean remainder.
    fn wrap_reference(ty: Ty, v: i128) -> i128 {
        let m = 1i128 << ty.bits;
        let r = v.rem_euclid(m);
        if ty.signed && r >= m / 2 {
            r - m
        } else {
            r
        }
    }

    proptest! {
        /// Conversion by masking agrees with the Euclidean remainder, and 64-bit division
        /// with 128-bit division, for every integer type.
        #[test]
        fn wrapping_and_division_agree_with_wide_arithmetic(
            v in any::<i128>(),
            b in any::<i64>(),
            bits in prop::sample::select(vec![8u8, 16, 32, 64]),
            signed in any::<bool>(),
        ) {
            let ty = Ty { bits, signed };
            prop_assert_eq!(ty.wrap(v), wrap_reference(ty, v));
            let (a, b) = (ty.wrap(v), ty.wrap(b as i128));
            if b != 0 {
                let q = a / b;
                let wide = if ty.signed && wrap_reference(ty, q) != q {
                    Err(Undefined::DivisionOverflow)
                } else {
                    Ok(wrap_reference(ty, q))
                };
                prop_assert_eq!(binop(BinOp::Div, ty, a, b), wide.clone());
                if wide.is_ok() {
                    prop_assert_eq!(binop(BinOp::Rem, ty, a, b), Ok(wrap_reference(ty, a % b)));
                }
            }
        }
    }

    #[test]
    fn c_arithmetic() {
        assert_eq!(binop(BinOp::Div, Ty::INT, -7, 2), Ok(-3));
        assert_eq!(binop(BinOp::Rem, Ty::INT, -7, 2), Ok(-1));
        assert_eq!(binop(BinOp::Sub, Ty::UINT, 0, 1), Ok(4294967295));
        assert_eq!(
            binop(BinOp::Add, Ty::INT, i32::MAX as i128, 1),
            Err(Undefined::SignedOverflow)
        );
        assert_eq!(binop(BinOp::Add, Ty::UINT, u32::MAX as i128, 1), Ok(0));
        assert_eq!(binop(BinOp::Shr, Ty::INT, -8, 1), Ok(-4));
        assert!(binop(BinOp::Div, Ty::INT, 1, 0).is_err());
        assert!(binop(BinOp::Div, Ty::INT, i32::MIN as i128, -1).is_err());
        assert!(binop(BinOp::Shl, Ty::INT, 1, 32).is_err());
        assert_eq!(Ty::CHAR.wrap(300), 44);
        assert_eq!(Ty::BOOL.wrap(256), 1);
        assert_eq!(unop(UnOp::BitNot, Ty::UINT, 0), Ok(4294967295));
        assert!(unop(UnOp::Neg, Ty::INT, i32::MIN as i128).is_err());
    }
}
