//! Constant expression evaluation over GLSL IR (Mesa's
//! `constant_expression_value`): folds constants, dereferences of `const`
//! variables, array/record dereferences and swizzles of constants, and every
//! [`Op`] with GLSL semantics into a [`Constant`].
//!
//! Semantics follow Mesa's constant folder (`ir_expression_operation.py`):
//! float arithmetic in `f32`; integer arithmetic wraps; integer division or
//! modulus by zero gives 0; shift counts are masked to 0–31; float `%` is GLSL
//! `mod` (`x - y * floor(x / y)`); binary operators broadcast a scalar operand
//! over a vector/matrix one; `*` is the linear-algebra product when a matrix is
//! involved and neither side is a scalar; derivatives and `noise` of constants
//! are 0. Texture lookups are never constant. Anything that does not fit the
//! operator's typing rules (a compiler bug upstream) yields `None`, never a
//! panic.
//!
//! The layout of a [`Constant`] for a type is: `Components` with one
//! [`ScalarValue`] per component (column-major for matrices) whose kind matches
//! the type's base kind, or `Aggregate` with one entry per array element /
//! struct field. [`conforms`] checks that layout.

use crate::arena::Handle;
use crate::hir::{Components, Constant, Expr, ExprKind, Module, Op, ScalarValue, VarMode};
use crate::types::{ScalarKind, StructArena, Type};

/// Deepest expression tree [`evaluate`] descends into before giving up.
const MAX_DEPTH: u32 = 2048;

/// The value of `expr` if it is a constant expression.
pub fn evaluate(module: &Module, expr: Handle<Expr>) -> Option<Constant> {
    eval(module, expr, 0)
}

fn eval(module: &Module, handle: Handle<Expr>, depth: u32) -> Option<Constant> {
    if depth > MAX_DEPTH {
        return None;
    }
    let expr = module.exprs.get(handle)?;
    let value = match &expr.kind {
        ExprKind::Constant(value) => value.clone(),
        ExprKind::VarRef(var) => {
            let var = module.variables.get(*var)?;
            // A uniform's `constant_value` is its initializer, not a value that
            // holds for the whole program.
            if var.mode == VarMode::Uniform {
                return None;
            }
            var.constant_value.clone()?
        }
        ExprKind::ArrayRef(base, index) => {
            let index = as_int(&eval(module, *index, depth + 1)?)?;
            let base_ty = &module.exprs.get(*base)?.ty;
            let base = eval(module, *base, depth + 1)?;
            index_constant(&base, base_ty, index)?
        }
        ExprKind::RecordRef(base, field) => match eval(module, *base, depth + 1)? {
            Constant::Aggregate(fields) => fields.get(*field as usize)?.clone(),
            Constant::Components(_) => return None,
        },
        ExprKind::Swizzle(base, swizzle) => {
            let comps = components(&eval(module, *base, depth + 1)?)?.to_vec();
            let mut out = Components::with_capacity(swizzle.len as usize);
            for &c in swizzle.components.get(..swizzle.len as usize)? {
                out.push(*comps.get(c as usize)?);
            }
            Constant::Components(out)
        }
        ExprKind::Operation(op, operands) => {
            let mut values = Vec::with_capacity(operands.len());
            for &operand in operands {
                let ty = module.exprs.get(operand)?.ty.clone();
                values.push((eval(module, operand, depth + 1)?, ty));
            }
            fold_operation(*op, &expr.ty, &values)?
        }
        ExprKind::Texture(_) => return None,
    };
    conforms(&value, &expr.ty, &module.structs).then_some(value)
}

/// Element `index` of an array constant, column of a matrix constant or
/// component of a vector constant; `None` when out of range.
pub fn index_constant(base: &Constant, base_ty: &Type, index: i64) -> Option<Constant> {
    let index = usize::try_from(index).ok()?;
    match (base, base_ty) {
        (Constant::Aggregate(elems), Type::Array(..)) => elems.get(index).cloned(),
        (Constant::Components(comps), Type::Matrix { columns, rows }) => {
            if index >= *columns as usize {
                return None;
            }
            let rows = *rows as usize;
            comps
                .get(index * rows..(index + 1) * rows)
                .map(|c| Constant::Components(Components::from_slice(c)))
        }
        (Constant::Components(comps), Type::Vector(..)) => comps
            .get(index)
            .map(|c| Constant::Components(smallvec::smallvec![*c])),
        _ => None,
    }
}

/// True if `value` has the layout [`Constant`] prescribes for `ty`.
pub fn conforms(value: &Constant, ty: &Type, structs: &StructArena) -> bool {
    match (value, ty) {
        (Constant::Components(comps), Type::Scalar(_) | Type::Vector(..) | Type::Matrix { .. }) => {
            let Some(kind) = ty.scalar_kind() else {
                return false;
            };
            comps.len() == ty.components() as usize && comps.iter().all(|c| c.kind() == kind)
        }
        (Constant::Aggregate(elems), Type::Array(elem_ty, Some(len))) => {
            elems.len() == *len as usize && elems.iter().all(|e| conforms(e, elem_ty, structs))
        }
        (Constant::Aggregate(fields), Type::Struct(h)) => match structs.get(*h) {
            Some(st) => {
                fields.len() == st.fields.len()
                    && fields
                        .iter()
                        .zip(&st.fields)
                        .all(|(f, decl)| conforms(f, &decl.ty, structs))
            }
            None => false,
        },
        _ => false,
    }
}

impl ScalarValue {
    /// The kind of this component.
    pub fn kind(self) -> ScalarKind {
        match self {
            ScalarValue::Float(_) => ScalarKind::Float,
            ScalarValue::Int(_) => ScalarKind::Int,
            ScalarValue::Uint(_) => ScalarKind::Uint,
            ScalarValue::Bool(_) => ScalarKind::Bool,
        }
    }

    /// Converts with GLSL constructor semantics (`float(true)` = 1.0,
    /// `bool(2)` = true, `int(-1.5)` = -1, `uint(-1)` = 0xffffffff).
    pub fn convert(self, to: ScalarKind) -> ScalarValue {
        use ScalarValue as V;
        match (self, to) {
            (V::Float(x), ScalarKind::Float) => V::Float(x),
            (V::Float(x), ScalarKind::Int) => V::Int(f2i(x)),
            (V::Float(x), ScalarKind::Uint) => V::Uint(f2u(x)),
            (V::Float(x), ScalarKind::Bool) => V::Bool(x != 0.0),
            (V::Int(i), ScalarKind::Float) => V::Float(i as f32),
            (V::Int(i), ScalarKind::Int) => V::Int(i),
            (V::Int(i), ScalarKind::Uint) => V::Uint(i as u32),
            (V::Int(i), ScalarKind::Bool) => V::Bool(i != 0),
            (V::Uint(u), ScalarKind::Float) => V::Float(u as f32),
            (V::Uint(u), ScalarKind::Int) => V::Int(u as i32),
            (V::Uint(u), ScalarKind::Uint) => V::Uint(u),
            (V::Uint(u), ScalarKind::Bool) => V::Bool(u != 0),
            (V::Bool(b), ScalarKind::Float) => V::Float(if b { 1.0 } else { 0.0 }),
            (V::Bool(b), ScalarKind::Int) => V::Int(b as i32),
            (V::Bool(b), ScalarKind::Uint) => V::Uint(b as u32),
            (V::Bool(b), ScalarKind::Bool) => V::Bool(b),
        }
    }

    /// The zero of a kind (`0.0`, `0`, `0u`, `false`).
    pub fn zero(kind: ScalarKind) -> ScalarValue {
        match kind {
            ScalarKind::Float => ScalarValue::Float(0.0),
            ScalarKind::Int => ScalarValue::Int(0),
            ScalarKind::Uint => ScalarValue::Uint(0),
            ScalarKind::Bool => ScalarValue::Bool(false),
        }
    }
}

/// Wraps a folded value as a constant expression node of type `ty`
/// (for the checker and the folding pass to append to the module).
pub fn constant_expr(value: Constant, ty: Type) -> Expr {
    Expr {
        kind: ExprKind::Constant(value),
        ty,
    }
}

/// The components of a scalar/vector/matrix constant.
pub fn components(value: &Constant) -> Option<&[ScalarValue]> {
    match value {
        Constant::Components(c) => Some(c),
        Constant::Aggregate(_) => None,
    }
}

/// A scalar `int` or `uint` constant as an integer (array sizes, indices).
pub fn as_int(value: &Constant) -> Option<i64> {
    match components(value)? {
        [ScalarValue::Int(i)] => Some(*i as i64),
        [ScalarValue::Uint(u)] => Some(*u as i64),
        _ => None,
    }
}

/// A scalar `bool` constant.
pub fn as_bool(value: &Constant) -> Option<bool> {
    match components(value)? {
        [ScalarValue::Bool(b)] => Some(*b),
        _ => None,
    }
}

/// A scalar `float` constant.
pub fn as_float(value: &Constant) -> Option<f32> {
    match components(value)? {
        [ScalarValue::Float(f)] => Some(*f),
        _ => None,
    }
}

/// The all-zero value of `ty` (`None` for void, samplers, unsized arrays and
/// the error type).
pub fn zero(ty: &Type, structs: &StructArena) -> Option<Constant> {
    match ty {
        Type::Scalar(_) | Type::Vector(..) | Type::Matrix { .. } => {
            let kind = ty.scalar_kind()?;
            Some(Constant::Components(smallvec::smallvec![
                ScalarValue::zero(kind);
                ty.components() as usize
            ]))
        }
        Type::Array(elem, Some(len)) => {
            let elem = zero(elem, structs)?;
            Some(Constant::Aggregate(vec![elem; *len as usize]))
        }
        Type::Struct(h) => {
            let st = structs.get(*h)?;
            st.fields
                .iter()
                .map(|f| zero(&f.ty, structs))
                .collect::<Option<Vec<_>>>()
                .map(Constant::Aggregate)
        }
        Type::Array(_, None)
        | Type::Void
        | Type::Sampler(_)
        | Type::Image(_)
        | Type::AtomicUint
        | Type::Error => None,
    }
}

/// Converts every component of a scalar/vector/matrix constant to `to` with
/// constructor semantics; `None` for arrays and structs.
pub fn convert(value: &Constant, to: ScalarKind) -> Option<Constant> {
    Some(Constant::Components(
        components(value)?.iter().map(|c| c.convert(to)).collect(),
    ))
}

/// Whole-value equality as GLSL `==` on any type (floats compare with `==`,
/// so `-0.0 == 0.0` and NaN differs from itself).
pub fn values_equal(a: &Constant, b: &Constant) -> bool {
    match (a, b) {
        (Constant::Components(x), Constant::Components(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|(p, q)| scalar_eq(*p, *q) == Some(true))
        }
        (Constant::Aggregate(x), Constant::Aggregate(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| values_equal(p, q))
        }
        _ => false,
    }
}

fn scalar_eq(a: ScalarValue, b: ScalarValue) -> Option<bool> {
    use ScalarValue as V;
    Some(match (a, b) {
        (V::Float(x), V::Float(y)) => x == y,
        (V::Int(x), V::Int(y)) => x == y,
        (V::Uint(x), V::Uint(y)) => x == y,
        (V::Bool(x), V::Bool(y)) => x == y,
        _ => return None,
    })
}

/// `(int) x` as Mesa computes it on x86: out-of-range and NaN give `INT_MIN`.
fn f2i(x: f32) -> i32 {
    if !(-2_147_483_648.0..2_147_483_648.0).contains(&x) {
        i32::MIN
    } else {
        x as i32
    }
}

/// `(unsigned) x` as Mesa computes it on x86 (through a 64-bit truncation, so
/// negative values wrap).
fn f2u(x: f32) -> u32 {
    (x as i64) as u32
}

/// Folds one operation over constant operands (each with its type) to a
/// constant of `result_ty`; `None` if the operand shapes do not fit the
/// operator or the operator is not foldable.
pub fn fold_operation(op: Op, result_ty: &Type, operands: &[(Constant, Type)]) -> Option<Constant> {
    if operands.len() != op.arity() && op != Op::Vector {
        return None;
    }
    let out_kind = result_ty.scalar_kind()?;
    let out_len = result_ty.components() as usize;
    match op {
        Op::AllEqual | Op::AnyNequal => {
            let [(a, _), (b, _)] = operands else {
                return None;
            };
            let equal = values_equal(a, b);
            return Some(Constant::Components(smallvec::smallvec![
                ScalarValue::Bool(if op == Op::AllEqual { equal } else { !equal },)
            ]));
        }
        _ => {}
    }
    let mut args: Vec<(&[ScalarValue], &Type)> = Vec::with_capacity(operands.len());
    for (value, ty) in operands {
        args.push((components(value)?, ty));
    }
    let out: Components = match (op, args.as_slice()) {
        (Op::Vector, scalars) => {
            if scalars.len() != out_len {
                return None;
            }
            scalars[..out_len]
                .iter()
                .map(|(s, _)| if s.len() == 1 { Some(s[0]) } else { None })
                .collect::<Option<_>>()?
        }
        (Op::Noise, [_]) => smallvec::smallvec![ScalarValue::zero(out_kind); out_len],
        (Op::PackSnorm2x16 | Op::PackUnorm2x16 | Op::PackHalf2x16, [(a, _)]) => {
            let [ScalarValue::Float(x), ScalarValue::Float(y)] = **a else {
                return None;
            };
            let pack: fn(f32) -> u16 = match op {
                Op::PackSnorm2x16 => pack_snorm_1x16,
                Op::PackUnorm2x16 => pack_unorm_1x16,
                _ => |x| half::f16::from_f32(x).to_bits(),
            };
            smallvec::smallvec![ScalarValue::Uint(pack(x) as u32 | (pack(y) as u32) << 16)]
        }
        (Op::UnpackSnorm2x16 | Op::UnpackUnorm2x16 | Op::UnpackHalf2x16, [(a, _)]) => {
            let [ScalarValue::Uint(u)] = **a else {
                return None;
            };
            let unpack: fn(u16) -> f32 = match op {
                Op::UnpackSnorm2x16 => unpack_snorm_1x16,
                Op::UnpackUnorm2x16 => unpack_unorm_1x16,
                _ => |h| half::f16::from_bits(h).to_f32(),
            };
            smallvec::smallvec![
                ScalarValue::Float(unpack(u as u16)),
                ScalarValue::Float(unpack((u >> 16) as u16)),
            ]
        }
        (Op::PackSnorm4x8 | Op::PackUnorm4x8, [(a, _)]) => {
            let mut word = 0u32;
            for (i, v) in a.iter().enumerate().take(4) {
                let ScalarValue::Float(x) = *v else {
                    return None;
                };
                let byte = if op == Op::PackSnorm4x8 {
                    pack_snorm_1x8(x)
                } else {
                    pack_unorm_1x8(x)
                };
                word |= u32::from(byte) << (8 * i);
            }
            smallvec::smallvec![ScalarValue::Uint(word)]
        }
        (Op::UnpackSnorm4x8 | Op::UnpackUnorm4x8, [(a, _)]) => {
            let [ScalarValue::Uint(u)] = **a else {
                return None;
            };
            (0..4)
                .map(|i| {
                    let byte = (u >> (8 * i)) as u8;
                    ScalarValue::Float(if op == Op::UnpackSnorm4x8 {
                        (f32::from(byte as i8) / 127.0).clamp(-1.0, 1.0)
                    } else {
                        f32::from(byte) / 255.0
                    })
                })
                .collect()
        }
        (_, [(a, _)]) => a
            .iter()
            .map(|&x| unary(op, x, out_kind))
            .collect::<Option<_>>()?,
        (Op::Mul, [(a, ta), (b, tb)])
            if (ta.is_matrix() || tb.is_matrix()) && a.len() > 1 && b.len() > 1 =>
        {
            matrix_product(a, ta, b, tb)?.into()
        }
        (Op::Dot, [(a, _), (b, _)]) => smallvec::smallvec![dot(a, b)?],
        (Op::VectorExtract, [(a, _), (i, _)]) => {
            let [index] = **i else { return None };
            let index = match index {
                ScalarValue::Int(i) => i as i64,
                ScalarValue::Uint(u) => u as i64,
                _ => return None,
            };
            if a.is_empty() {
                return None;
            }
            let clamped = index.clamp(0, a.len() as i64 - 1) as usize;
            smallvec::smallvec![a[clamped]]
        }
        (_, [(a, _), (b, _)]) => {
            let len = broadcast_len(a.len(), b.len())?;
            (0..len)
                .map(|i| binary(op, at(a, i), at(b, i)))
                .collect::<Option<_>>()?
        }
        (Op::VectorInsert, [(v, _), (x, _), (i, _)]) => {
            let (&[x], &[index]) = (*x, *i) else {
                return None;
            };
            let index = match index {
                ScalarValue::Int(i) => i as i64,
                ScalarValue::Uint(u) => u as i64,
                _ => return None,
            };
            let mut out = Components::from_slice(v);
            if let Some(slot) = usize::try_from(index).ok().and_then(|i| out.get_mut(i)) {
                *slot = x;
            }
            out
        }
        (Op::Fma | Op::Lrp | Op::Csel, [(a, _), (b, _), (c, _)]) => {
            let len = broadcast_len(broadcast_len(a.len(), b.len())?, c.len())?;
            (0..len)
                .map(|i| ternary(op, at(a, i), at(b, i), at(c, i)))
                .collect::<Option<_>>()?
        }
        _ => return None,
    };
    (out.len() == out_len && out.iter().all(|c| c.kind() == out_kind))
        .then_some(Constant::Components(out))
}

fn broadcast_len(a: usize, b: usize) -> Option<usize> {
    if a == b {
        Some(a)
    } else if a == 1 {
        Some(b)
    } else if b == 1 {
        Some(a)
    } else {
        None
    }
}

fn at(values: &[ScalarValue], i: usize) -> ScalarValue {
    if values.len() == 1 {
        values[0]
    } else {
        values[i]
    }
}

/// `(rows, columns)` of an operand of a linear-algebra product: a vector on
/// the left is a row, on the right a column.
fn product_shape(ty: &Type, left: bool) -> Option<(usize, usize)> {
    match *ty {
        Type::Matrix { columns, rows } => Some((rows as usize, columns as usize)),
        Type::Vector(ScalarKind::Float, n) if left => Some((1, n as usize)),
        Type::Vector(ScalarKind::Float, n) => Some((n as usize, 1)),
        _ => None,
    }
}

fn matrix_product(
    a: &[ScalarValue],
    ta: &Type,
    b: &[ScalarValue],
    tb: &Type,
) -> Option<Vec<ScalarValue>> {
    let (a_rows, a_cols) = product_shape(ta, true)?;
    let (b_rows, b_cols) = product_shape(tb, false)?;
    if a_cols != b_rows || a.len() != a_rows * a_cols || b.len() != b_rows * b_cols {
        return None;
    }
    let fa = floats(a)?;
    let fb = floats(b)?;
    let mut out = Vec::with_capacity(a_rows * b_cols);
    for j in 0..b_cols {
        for i in 0..a_rows {
            let mut sum = 0.0f32;
            for k in 0..a_cols {
                sum += fa[i + a_rows * k] * fb[k + b_rows * j];
            }
            out.push(ScalarValue::Float(sum));
        }
    }
    Some(out)
}

fn floats(values: &[ScalarValue]) -> Option<Vec<f32>> {
    values
        .iter()
        .map(|v| {
            if let ScalarValue::Float(f) = v {
                Some(*f)
            } else {
                None
            }
        })
        .collect()
}

fn dot(a: &[ScalarValue], b: &[ScalarValue]) -> Option<ScalarValue> {
    use ScalarValue as V;
    if a.len() != b.len() || a.is_empty() {
        return None;
    }
    match a[0] {
        V::Float(_) => {
            let mut sum = 0.0f32;
            for (x, y) in a.iter().zip(b) {
                let (V::Float(x), V::Float(y)) = (x, y) else {
                    return None;
                };
                sum += x * y;
            }
            Some(V::Float(sum))
        }
        V::Int(_) => {
            let mut sum = 0i32;
            for (x, y) in a.iter().zip(b) {
                let (V::Int(x), V::Int(y)) = (x, y) else {
                    return None;
                };
                sum = sum.wrapping_add(x.wrapping_mul(*y));
            }
            Some(V::Int(sum))
        }
        V::Uint(_) => {
            let mut sum = 0u32;
            for (x, y) in a.iter().zip(b) {
                let (V::Uint(x), V::Uint(y)) = (x, y) else {
                    return None;
                };
                sum = sum.wrapping_add(x.wrapping_mul(*y));
            }
            Some(V::Uint(sum))
        }
        V::Bool(_) => None,
    }
}

fn unary(op: Op, x: ScalarValue, out: ScalarKind) -> Option<ScalarValue> {
    use ScalarValue as V;
    let value = match (op, x) {
        (Op::BitNot, V::Int(i)) => V::Int(!i),
        (Op::BitNot, V::Uint(u)) => V::Uint(!u),
        (Op::LogicNot, V::Bool(b)) => V::Bool(!b),
        (Op::Neg, V::Float(f)) => V::Float(-f),
        (Op::Neg, V::Int(i)) => V::Int(i.wrapping_neg()),
        (Op::Neg, V::Uint(u)) => V::Uint(u.wrapping_neg()),
        (Op::Abs, V::Float(f)) => V::Float(f.abs()),
        (Op::Abs, V::Int(i)) => V::Int(i.wrapping_abs()),
        (Op::Abs, V::Uint(u)) => V::Uint(u),
        (Op::Sign, V::Float(f)) => V::Float(if f > 0.0 {
            1.0
        } else if f < 0.0 {
            -1.0
        } else {
            0.0
        }),
        (Op::Sign, V::Int(i)) => V::Int(i.signum()),
        (Op::Rcp, V::Float(f)) => V::Float(1.0 / f),
        (Op::Rsq, V::Float(f)) => V::Float(1.0 / f.sqrt()),
        (Op::Sqrt, V::Float(f)) => V::Float(f.sqrt()),
        (Op::Exp, V::Float(f)) => V::Float(f.exp()),
        (Op::Log, V::Float(f)) => V::Float(f.ln()),
        (Op::Exp2, V::Float(f)) => V::Float(f.exp2()),
        (Op::Log2, V::Float(f)) => V::Float(f.log2()),
        (Op::F2i, V::Float(f)) => V::Int(f2i(f)),
        (Op::F2u, V::Float(f)) => V::Uint(f2u(f)),
        (Op::I2f, V::Int(i)) => V::Float(i as f32),
        (Op::F2b, V::Float(f)) => V::Bool(f != 0.0),
        (Op::B2f, V::Bool(b)) => V::Float(if b { 1.0 } else { 0.0 }),
        (Op::I2b, V::Int(i)) => V::Bool(i != 0),
        (Op::I2b, V::Uint(u)) => V::Bool(u != 0),
        (Op::B2i, V::Bool(b)) => {
            if out == ScalarKind::Uint {
                V::Uint(b as u32)
            } else {
                V::Int(b as i32)
            }
        }
        (Op::U2f, V::Uint(u)) => V::Float(u as f32),
        (Op::I2u, V::Int(i)) => V::Uint(i as u32),
        (Op::U2i, V::Uint(u)) => V::Int(u as i32),
        (Op::BitcastI2f, V::Int(i)) => V::Float(f32::from_bits(i as u32)),
        (Op::BitcastF2i, V::Float(f)) => V::Int(f.to_bits() as i32),
        (Op::BitcastU2f, V::Uint(u)) => V::Float(f32::from_bits(u)),
        (Op::BitcastF2u, V::Float(f)) => V::Uint(f.to_bits()),
        (Op::Trunc, V::Float(f)) => V::Float(f.trunc()),
        (Op::Ceil, V::Float(f)) => V::Float(f.ceil()),
        (Op::Floor, V::Float(f)) => V::Float(f.floor()),
        (Op::Fract, V::Float(f)) => V::Float(f - f.floor()),
        (Op::RoundEven, V::Float(f)) => V::Float(f.round_ties_even()),
        (Op::Sin, V::Float(f)) => V::Float(f.sin()),
        (Op::Cos, V::Float(f)) => V::Float(f.cos()),
        (Op::Atan, V::Float(f)) => V::Float(f.atan()),
        (
            Op::Dfdx | Op::Dfdy | Op::DfdxCoarse | Op::DfdxFine | Op::DfdyCoarse | Op::DfdyFine,
            V::Float(_),
        ) => V::Float(0.0),
        (Op::Saturate, V::Float(f)) => V::Float(saturate(f)),
        (Op::IsNan, V::Float(f)) => V::Bool(f.is_nan()),
        (Op::IsInf, V::Float(f)) => V::Bool(f.is_infinite()),
        _ => return None,
    };
    (value.kind() == out).then_some(value)
}

/// Mesa's `CLAMP(x, 0, 1)`: NaN passes through unchanged.
#[allow(clippy::manual_clamp)]
fn saturate(f: f32) -> f32 {
    if f < 0.0 {
        0.0
    } else if f > 1.0 {
        1.0
    } else {
        f
    }
}

fn shift_amount(v: ScalarValue) -> Option<u32> {
    match v {
        ScalarValue::Int(i) => Some(i as u32 & 31),
        ScalarValue::Uint(u) => Some(u & 31),
        _ => None,
    }
}

fn binary(op: Op, a: ScalarValue, b: ScalarValue) -> Option<ScalarValue> {
    use ScalarValue as V;
    match op {
        Op::Lshift | Op::Rshift => {
            let amount = shift_amount(b)?;
            return match (op, a) {
                (Op::Lshift, V::Int(i)) => Some(V::Int(i.wrapping_shl(amount))),
                (Op::Lshift, V::Uint(u)) => Some(V::Uint(u.wrapping_shl(amount))),
                (Op::Rshift, V::Int(i)) => Some(V::Int(i.wrapping_shr(amount))),
                (Op::Rshift, V::Uint(u)) => Some(V::Uint(u.wrapping_shr(amount))),
                _ => None,
            };
        }
        Op::Equal => return scalar_eq(a, b).map(V::Bool),
        Op::NEqual => return scalar_eq(a, b).map(|e| V::Bool(!e)),
        _ => {}
    }
    Some(match (a, b) {
        (V::Float(x), V::Float(y)) => match op {
            Op::Add => V::Float(x + y),
            Op::Sub => V::Float(x - y),
            Op::Mul => V::Float(x * y),
            Op::Div => V::Float(x / y),
            Op::Mod => V::Float(x - y * (x / y).floor()),
            Op::Less => V::Bool(x < y),
            Op::GEqual => V::Bool(x >= y),
            Op::Min => V::Float(if x < y { x } else { y }),
            Op::Max => V::Float(if x > y { x } else { y }),
            Op::Pow => V::Float(x.powf(y)),
            Op::Atan2 => V::Float(x.atan2(y)),
            _ => return None,
        },
        (V::Int(x), V::Int(y)) => match op {
            Op::Add => V::Int(x.wrapping_add(y)),
            Op::Sub => V::Int(x.wrapping_sub(y)),
            Op::Mul => V::Int(x.wrapping_mul(y)),
            Op::Div => V::Int(if y == 0 { 0 } else { x.wrapping_div(y) }),
            Op::Mod => V::Int(if y == 0 { 0 } else { x.wrapping_rem(y) }),
            Op::Less => V::Bool(x < y),
            Op::GEqual => V::Bool(x >= y),
            Op::Min => V::Int(x.min(y)),
            Op::Max => V::Int(x.max(y)),
            Op::BitAnd => V::Int(x & y),
            Op::BitXor => V::Int(x ^ y),
            Op::BitOr => V::Int(x | y),
            _ => return None,
        },
        (V::Uint(x), V::Uint(y)) => match op {
            Op::Add => V::Uint(x.wrapping_add(y)),
            Op::Sub => V::Uint(x.wrapping_sub(y)),
            Op::Mul => V::Uint(x.wrapping_mul(y)),
            Op::Div => V::Uint(x.checked_div(y).unwrap_or(0)),
            Op::Mod => V::Uint(x.checked_rem(y).unwrap_or(0)),
            Op::Less => V::Bool(x < y),
            Op::GEqual => V::Bool(x >= y),
            Op::Min => V::Uint(x.min(y)),
            Op::Max => V::Uint(x.max(y)),
            Op::BitAnd => V::Uint(x & y),
            Op::BitXor => V::Uint(x ^ y),
            Op::BitOr => V::Uint(x | y),
            _ => return None,
        },
        (V::Bool(x), V::Bool(y)) => match op {
            Op::LogicAnd => V::Bool(x && y),
            Op::LogicOr => V::Bool(x || y),
            Op::LogicXor => V::Bool(x != y),
            _ => return None,
        },
        _ => return None,
    })
}

fn ternary(op: Op, a: ScalarValue, b: ScalarValue, c: ScalarValue) -> Option<ScalarValue> {
    use ScalarValue as V;
    match (op, a, b, c) {
        (Op::Fma, V::Float(x), V::Float(y), V::Float(z)) => Some(V::Float(x * y + z)),
        (Op::Lrp, V::Float(x), V::Float(y), V::Float(t)) => Some(V::Float(x * (1.0 - t) + y * t)),
        (Op::Csel, V::Bool(cond), x, y) if x.kind() == y.kind() => Some(if cond { x } else { y }),
        _ => None,
    }
}

fn pack_snorm_1x16(x: f32) -> u16 {
    let scaled = (x.clamp(-1.0, 1.0) * 32767.0).round_ties_even();
    scaled as i16 as u16
}

fn pack_unorm_1x16(x: f32) -> u16 {
    let scaled = (x.clamp(0.0, 1.0) * 65535.0).round_ties_even();
    scaled as u16
}

fn unpack_snorm_1x16(u: u16) -> f32 {
    (u as i16 as f32 / 32767.0).clamp(-1.0, 1.0)
}

/// GLSL 4.00 §8.4 `packSnorm4x8`: `round(clamp(c, -1, +1) * 127.0)`, rounding
/// half to even as Mesa's `_mesa_roundevenf`.
fn pack_snorm_1x8(x: f32) -> u8 {
    (x.clamp(-1.0, 1.0) * 127.0).round_ties_even() as i8 as u8
}

/// GLSL 4.00 §8.4 `packUnorm4x8`: `round(clamp(c, 0, +1) * 255.0)`.
fn pack_unorm_1x8(x: f32) -> u8 {
    (x.clamp(0.0, 1.0) * 255.0).round_ties_even() as u8
}

fn unpack_unorm_1x16(u: u16) -> f32 {
    u as f32 / 65535.0
}

#[cfg(test)]
#[path = "const_eval_tests.rs"]
mod tests;
