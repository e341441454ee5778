//! Constant folding of the GLSL 4.00 §8.8 integer functions and `ldexp`
//! (§8.3) with all-constant arguments. A built-in call with constant
//! arguments is a constant expression (GLSL 4.00 §4.3.3), so `int a[bitCount(7)]`
//! must fold; calls with non-constant arguments keep their call (see
//! `functions.rs`). Cases the spec leaves undefined (`offset + bits > 32`,
//! negative offsets or counts) fold to 0 (the inserted value's base for
//! `bitfieldInsert`), the values Mesa's `ir_constant_expression.cpp` gives.

use super::functions::Entry;
use crate::arena::Handle;
use crate::hir::{Constant, Expr, ExprKind, Module, ScalarValue};

/// True for the built-ins this module folds.
pub(crate) fn folds(name: &str) -> bool {
    matches!(
        name,
        "bitfieldExtract"
            | "bitfieldInsert"
            | "bitfieldReverse"
            | "bitCount"
            | "findLSB"
            | "findMSB"
            | "ldexp"
    )
}

fn components(module: &Module, expr: Handle<Expr>) -> Option<Vec<ScalarValue>> {
    match &module.exprs.get(expr)?.kind {
        ExprKind::Constant(Constant::Components(values)) => Some(values.to_vec()),
        _ => None,
    }
}

/// Component `i` of an argument, repeating a scalar (`offset`, `bits`).
fn at(values: &[ScalarValue], i: usize) -> Option<ScalarValue> {
    if values.len() == 1 {
        values.first().copied()
    } else {
        values.get(i).copied()
    }
}

fn as_int(v: ScalarValue) -> Option<i32> {
    match v {
        ScalarValue::Int(i) => Some(i),
        _ => None,
    }
}

/// The raw 32 bits of an integer component, and whether it is signed.
fn bits_of(v: ScalarValue) -> Option<(u32, bool)> {
    match v {
        ScalarValue::Int(i) => Some((i as u32, true)),
        ScalarValue::Uint(u) => Some((u, false)),
        _ => None,
    }
}

fn same_kind(bits: u32, signed: bool) -> ScalarValue {
    if signed {
        ScalarValue::Int(bits as i32)
    } else {
        ScalarValue::Uint(bits)
    }
}

/// `offset` and `bits` when they select bits inside 32 (`None` when undefined).
fn field(offset: i32, bits: i32) -> Option<(u32, u32)> {
    let (offset, bits) = (u32::try_from(offset).ok()?, u32::try_from(bits).ok()?);
    (offset + bits <= 32).then_some((offset, bits))
}

fn mask(bits: u32) -> u32 {
    if bits >= 32 {
        u32::MAX
    } else {
        (1u32 << bits) - 1
    }
}

fn fold_component(name: &str, args: &[Vec<ScalarValue>], i: usize) -> Option<ScalarValue> {
    let a = at(args.first()?, i)?;
    Some(match name {
        "bitfieldExtract" => {
            let (value, signed) = bits_of(a)?;
            let offset = as_int(at(args.get(1)?, i)?)?;
            let count = as_int(at(args.get(2)?, i)?)?;
            match field(offset, count) {
                Some((_, 0)) | None => same_kind(0, signed),
                Some((offset, count)) => {
                    let raw = (value >> offset) & mask(count);
                    let shift = 32 - count;
                    let extended = if signed {
                        ((raw << shift) as i32 >> shift) as u32
                    } else {
                        raw
                    };
                    same_kind(extended, signed)
                }
            }
        }
        "bitfieldInsert" => {
            let (base, signed) = bits_of(a)?;
            let (insert, _) = bits_of(at(args.get(1)?, i)?)?;
            let offset = as_int(at(args.get(2)?, i)?)?;
            let count = as_int(at(args.get(3)?, i)?)?;
            match field(offset, count) {
                Some((_, 0)) => same_kind(base, signed),
                None => same_kind(0, signed),
                Some((offset, count)) => {
                    let m = mask(count) << offset;
                    same_kind((base & !m) | ((insert << offset) & m), signed)
                }
            }
        }
        "bitfieldReverse" => {
            let (value, signed) = bits_of(a)?;
            same_kind(value.reverse_bits(), signed)
        }
        "bitCount" => ScalarValue::Int(bits_of(a)?.0.count_ones() as i32),
        "findLSB" => {
            let (value, _) = bits_of(a)?;
            ScalarValue::Int(if value == 0 {
                -1
            } else {
                value.trailing_zeros() as i32
            })
        }
        "findMSB" => {
            let (value, signed) = bits_of(a)?;
            // For negative signed values the most significant 0 bit counts.
            let value = if signed && (value as i32) < 0 {
                !value
            } else {
                value
            };
            ScalarValue::Int(if value == 0 {
                -1
            } else {
                31 - value.leading_zeros() as i32
            })
        }
        "ldexp" => {
            let ScalarValue::Float(x) = a else {
                return None;
            };
            let exp = as_int(at(args.get(1)?, i)?)?;
            let r = (f64::from(x) * 2f64.powi(exp)) as f32;
            // GLSL 4.00 §4.7.1 lets denormals flush to zero; Mesa flushes
            // ldexp results, keeping the sign.
            ScalarValue::Float(if r.is_subnormal() {
                0.0f32.copysign(r)
            } else {
                r
            })
        }
        _ => return None,
    })
}

/// The constant result of `entry` on constant `args`, or `None` when an
/// argument is not a constant.
pub(crate) fn fold_integer_result(
    entry: &Entry,
    module: &mut Module,
    args: &[Handle<Expr>],
) -> Option<Handle<Expr>> {
    let values: Vec<Vec<ScalarValue>> = args
        .iter()
        .map(|a| components(module, *a))
        .collect::<Option<_>>()?;
    let n = entry.return_type.components() as usize;
    let out: Vec<ScalarValue> = (0..n)
        .map(|i| fold_component(entry.name, &values, i))
        .collect::<Option<_>>()?;
    Some(module.exprs.append(Expr {
        kind: ExprKind::Constant(Constant::Components(out.into())),
        ty: entry.return_type.clone(),
    }))
}
