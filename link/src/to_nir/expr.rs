//! Expressions → NIR values (Mesa's `glsl_to_nir.cpp`): constants as `load_const`, dereferences as
//! `load_deref`, swizzles as `mov`s with swizzles, and every `hir::Op` mapped to ALU
//! opcodes chosen by the operand base type (float / int / uint), with 1-bit boolean
//! results. Aggregate values (arrays, structs, matrices) are produced as derefs.

use rgl_glsl::arena::Handle;
use rgl_glsl::hir::{self, ExprKind, Op};
use rgl_glsl::types::{ScalarKind, Type as GType};
use rgl_nir::intrinsics::IntrinsicOp;
use rgl_nir::ir::{Def, Type};
use rgl_nir::opcodes::Opcode as O;

use super::{invalid, unsupported, Conv, Res, D};

/// Most scalar/vector leaves an aggregate comparison may expand to.
const MAX_COMPARE_LEAVES: u32 = 4096;

impl Conv<'_> {
    /// The value of a scalar or vector expression.
    pub(crate) fn eval(&mut self, e: Handle<hir::Expr>) -> Res<Def> {
        self.enter()?;
        let r = self.eval_inner(e);
        self.leave();
        r
    }

    fn eval_inner(&mut self, e: Handle<hir::Expr>) -> Res<Def> {
        let x = self.expr(e)?.clone();
        if !x.ty.is_scalar() && !x.ty.is_vector() {
            return unsupported(format!(
                "{} value where a scalar or vector is expected",
                x.ty.display(&self.m.structs)
            ));
        }
        match x.kind {
            ExprKind::Constant(c) => self.const_value(&c, &x.ty),
            ExprKind::VarRef(_) | ExprKind::RecordRef(..) => {
                let d = self.deref_expr(e)?;
                self.load(&d)
            }
            ExprKind::ArrayRef(base, idx) => {
                if self.expr(base)?.ty.is_vector() {
                    let v = self.eval(base)?;
                    self.extract(v, idx)
                } else {
                    let d = self.deref_expr(e)?;
                    self.load(&d)
                }
            }
            ExprKind::Swizzle(base, sw) => {
                let v = self.eval(base)?;
                let len = usize::from(sw.len.clamp(1, 4));
                let comps = self.comps(v);
                if sw.components[..len].iter().any(|c| *c >= comps) {
                    return invalid("swizzle reads past the end of its operand");
                }
                Ok(self.swizzle(v, &sw.components[..len]))
            }
            ExprKind::Operation(op, operands) => self.operation(op, &operands, &x.ty),
            ExprKind::Texture(t) => self.texture(&t, &x.ty),
        }
    }

    /// Component `idx` (an expression) of vector `v`.
    fn extract(&mut self, v: Def, idx: Handle<hir::Expr>) -> Res<Def> {
        let n = self.comps(v);
        match self.const_index(idx) {
            Some(c) if (0..i64::from(n)).contains(&c) => Ok(self.channel(v, c as u8)),
            Some(c) => invalid(format!("constant vector index {c} out of range")),
            None => {
                let i = self.eval(idx)?;
                self.vector_extract(v, i)
            }
        }
    }

    /// An aggregate (or any) value as a deref: dereferences directly, constants as
    /// read-only `const_temp` locals, matrix-valued operations through a temporary.
    pub(crate) fn aggregate(&mut self, e: Handle<hir::Expr>) -> Res<D> {
        let x = self.expr(e)?.clone();
        match &x.kind {
            ExprKind::VarRef(_) | ExprKind::ArrayRef(..) | ExprKind::RecordRef(..) => {
                self.deref_expr(e)
            }
            ExprKind::Constant(c) => {
                let ty = self.ty(&x.ty)?;
                let words = self.constant_words(c)?;
                let var = self.temp("const_temp", ty, Some(words));
                self.deref_var(var)
            }
            ExprKind::Operation(..) if x.ty.is_matrix() => {
                let cols = self.matrix_value(e)?;
                let ty = self.ty(&x.ty)?;
                let var = self.temp("mat_temp", ty, None);
                let d = self.deref_var(var)?;
                for (c, col) in cols.into_iter().enumerate() {
                    let i = self.imm_i(c as i32);
                    let cd = self.deref_array(&d, i)?;
                    let n = self.comps(col);
                    self.store(&cd, col, ((1u16 << n) - 1) as u8)?;
                }
                Ok(d)
            }
            _ if x.ty.is_scalar() || x.ty.is_vector() => {
                let v = self.eval(e)?;
                let ty = self.ty(&x.ty)?;
                let var = self.temp("rvalue_temp", ty, None);
                let d = self.deref_var(var)?;
                let n = self.comps(v);
                self.store(&d, v, ((1u16 << n) - 1) as u8)?;
                Ok(d)
            }
            _ => unsupported(format!(
                "{} value of this form",
                x.ty.display(&self.m.structs)
            )),
        }
    }

    fn operation(&mut self, op: Op, operands: &[Handle<hir::Expr>], ty: &GType) -> Res<Def> {
        if operands.is_empty() || (op != Op::Vector && operands.len() != op.arity()) {
            return invalid(format!(
                "`{}` with {} operands",
                op.spelling(),
                operands.len()
            ));
        }
        if op == Op::SsboUnsizedArrayLength {
            // The array is named, not loaded: `explicit_io` turns the length
            // into arithmetic on `get_ssbo_size`.
            let array = self.deref_expr(operands[0])?;
            return match self.b().intrinsic(
                IntrinsicOp::deref_buffer_array_length,
                vec![array.def],
                1,
                vec![0],
                Some((1, 32)),
            ) {
                Some(d) => Ok(d),
                None => invalid("`.length()` without a result"),
            };
        }
        let types: Vec<GType> = operands
            .iter()
            .map(|o| self.expr(*o).map(|x| x.ty.clone()))
            .collect::<Res<_>>()?;
        let aggregate_operand = types.iter().any(|t| !t.is_scalar() && !t.is_vector());
        if aggregate_operand {
            return match op {
                Op::AllEqual | Op::AnyNequal => {
                    let a = self.aggregate(operands[0])?;
                    let b = self.aggregate(operands[1])?;
                    let mut budget = MAX_COMPARE_LEAVES;
                    self.compare_aggregate(op == Op::AllEqual, &a, &b, &mut budget, 0)
                }
                Op::Mul if types.iter().any(|t| t.is_matrix()) => {
                    let a = self.matrix_operand(operands[0])?;
                    let b = self.matrix_operand(operands[1])?;
                    let cols = self.matrix_product(&a, &b)?;
                    match cols.as_slice() {
                        [one] => Ok(*one),
                        _ => invalid("matrix product used as a vector"),
                    }
                }
                _ => unsupported(format!(
                    "operator `{}` on {} operands",
                    op.spelling(),
                    types[0].display(&self.m.structs)
                )),
            };
        }
        match op {
            Op::VectorExtract => {
                let v = self.eval(operands[0])?;
                return self.extract(v, operands[1]);
            }
            Op::Vector => {
                let mut comps = Vec::with_capacity(operands.len());
                for o in operands {
                    comps.push(self.eval(*o)?);
                }
                return self.vec(&comps);
            }
            _ => {}
        }
        let mut srcs = Vec::with_capacity(operands.len());
        for o in operands {
            srcs.push(self.eval(*o)?);
        }
        let kind = types[0].scalar_kind().unwrap_or(ScalarKind::Float);
        let n = ty.vector_elements().max(1);
        self.alu_op(op, kind, &srcs, n)
    }

    /// Maps operator `op` on values of base kind `kind` to ALU instructions producing
    /// `n` components.
    pub(crate) fn alu_op(&mut self, op: Op, kind: ScalarKind, s: &[Def], n: u8) -> Res<Def> {
        let pick = |f: O, i: O, u: O| match kind {
            ScalarKind::Float => f,
            ScalarKind::Int => i,
            ScalarKind::Uint | ScalarKind::Bool => u,
        };
        let a = s[0];
        let un = |c: &mut Self, o: O| Ok(c.alu(o, &[a], n));
        let bin = |c: &mut Self, o: O| -> Res<Def> {
            match s.get(1) {
                Some(b) => Ok(c.alu(o, &[a, *b], n)),
                None => invalid("binary operator with one operand"),
            }
        };
        match op {
            Op::BitNot | Op::LogicNot => un(self, O::inot),
            Op::Neg => un(self, pick(O::fneg, O::ineg, O::ineg)),
            Op::Abs => match kind {
                ScalarKind::Float => un(self, O::fabs),
                ScalarKind::Int => un(self, O::iabs),
                _ => Ok(a),
            },
            Op::Sign => match kind {
                ScalarKind::Float => un(self, O::fsign),
                ScalarKind::Int => un(self, O::isign),
                _ => {
                    let zero = self.imm_i(0);
                    let ne = self.alu(O::ine, &[a, zero], n);
                    Ok(self.alu(O::b2i32, &[ne], n))
                }
            },
            Op::Rcp => un(self, O::frcp),
            Op::Rsq => un(self, O::frsq),
            Op::Sqrt => un(self, O::fsqrt),
            Op::Exp => {
                let k = self.imm_f(std::f32::consts::LOG2_E);
                let m = self.alu(O::fmul, &[a, k], n);
                Ok(self.alu(O::fexp2, &[m], n))
            }
            Op::Log => {
                let l = self.alu(O::flog2, &[a], n);
                let k = self.imm_f(std::f32::consts::LN_2);
                Ok(self.alu(O::fmul, &[l, k], n))
            }
            Op::Exp2 => un(self, O::fexp2),
            Op::Log2 => un(self, O::flog2),
            Op::F2i => un(self, O::f2i32),
            Op::F2u => un(self, O::f2u32),
            Op::I2f => un(self, O::i2f32),
            Op::U2f => un(self, O::u2f32),
            Op::F2b => {
                let zero = self.imm_f(0.0);
                Ok(self.alu(O::fneu, &[a, zero], n))
            }
            Op::I2b => {
                let zero = self.imm_i(0);
                Ok(self.alu(O::ine, &[a, zero], n))
            }
            Op::B2f => un(self, O::b2f32),
            Op::B2i => un(self, O::b2i32),
            Op::I2u
            | Op::U2i
            | Op::BitcastI2f
            | Op::BitcastF2i
            | Op::BitcastU2f
            | Op::BitcastF2u => Ok(self.alu(O::mov, &[a], n)),
            Op::Trunc => un(self, O::ftrunc),
            Op::Ceil => un(self, O::fceil),
            Op::Floor => un(self, O::ffloor),
            Op::Fract => un(self, O::ffract),
            Op::RoundEven => un(self, O::fround_even),
            Op::Sin => un(self, O::fsin),
            Op::Cos => un(self, O::fcos),
            Op::Atan => Ok(self.atan(a)),
            Op::Dfdx | Op::Dfdy | Op::DfdxFine | Op::DfdyFine | Op::DfdxCoarse | Op::DfdyCoarse => {
                let iop = match op {
                    Op::Dfdx => IntrinsicOp::ddx,
                    Op::Dfdy => IntrinsicOp::ddy,
                    Op::DfdxFine => IntrinsicOp::ddx_fine,
                    Op::DfdyFine => IntrinsicOp::ddy_fine,
                    Op::DfdxCoarse => IntrinsicOp::ddx_coarse,
                    _ => IntrinsicOp::ddy_coarse,
                };
                match self
                    .b()
                    .intrinsic(iop, vec![a], n, Vec::new(), Some((n, 32)))
                {
                    Some(d) => Ok(d),
                    None => invalid("derivative without a result"),
                }
            }
            Op::PackSnorm2x16 => Ok(self.alu(O::pack_snorm_2x16, &[a], 1)),
            Op::PackUnorm2x16 => Ok(self.alu(O::pack_unorm_2x16, &[a], 1)),
            Op::PackHalf2x16 => Ok(self.alu(O::pack_half_2x16, &[a], 1)),
            Op::UnpackSnorm2x16 => Ok(self.alu(O::unpack_snorm_2x16, &[a], 2)),
            Op::UnpackUnorm2x16 => Ok(self.alu(O::unpack_unorm_2x16, &[a], 2)),
            Op::UnpackHalf2x16 => Ok(self.alu(O::unpack_half_2x16, &[a], 2)),
            Op::PackSnorm4x8 => Ok(self.alu(O::pack_snorm_4x8, &[a], 1)),
            Op::PackUnorm4x8 => Ok(self.alu(O::pack_unorm_4x8, &[a], 1)),
            Op::UnpackSnorm4x8 => Ok(self.alu(O::unpack_snorm_4x8, &[a], 4)),
            Op::UnpackUnorm4x8 => Ok(self.alu(O::unpack_unorm_4x8, &[a], 4)),
            Op::Saturate => un(self, O::fsat),
            Op::Noise => Ok(self.b().load_const(32, vec![0; usize::from(n)])),
            Op::SsboUnsizedArrayLength => {
                invalid("`.length()` of a runtime-sized array as a value")
            }
            Op::IsNan => Ok(self.alu(O::fneu, &[a, a], n)),
            Op::IsInf => {
                let abs = self.alu(O::fabs, &[a], n);
                let inf = self.imm_f(f32::INFINITY);
                Ok(self.alu(O::feq, &[abs, inf], n))
            }
            Op::Add => bin(self, pick(O::fadd, O::iadd, O::iadd)),
            Op::Sub => bin(self, pick(O::fsub, O::isub, O::isub)),
            Op::Mul => bin(self, pick(O::fmul, O::imul, O::imul)),
            Op::Div => bin(self, pick(O::fdiv, O::idiv, O::udiv)),
            Op::Mod => bin(self, pick(O::fmod, O::umod, O::umod)),
            Op::Less => bin(self, pick(O::flt, O::ilt, O::ult)),
            Op::GEqual => bin(self, pick(O::fge, O::ige, O::uge)),
            Op::Equal => bin(self, pick(O::feq, O::ieq, O::ieq)),
            Op::NEqual => bin(self, pick(O::fneu, O::ine, O::ine)),
            Op::AllEqual | Op::AnyNequal => {
                let b = *s
                    .get(1)
                    .ok_or(super::ToNirError::Invalid("compare".into()))?;
                Ok(self.compare_values(op == Op::AllEqual, kind == ScalarKind::Float, a, b))
            }
            Op::Lshift => bin(self, O::ishl),
            Op::Rshift => bin(self, pick(O::ishr, O::ishr, O::ushr)),
            Op::BitAnd | Op::LogicAnd => bin(self, O::iand),
            Op::BitOr | Op::LogicOr => bin(self, O::ior),
            Op::BitXor | Op::LogicXor => bin(self, O::ixor),
            Op::Dot => {
                let b = *s.get(1).ok_or(super::ToNirError::Invalid("dot".into()))?;
                self.dot(kind, a, b)
            }
            Op::Min => bin(self, pick(O::fmin, O::imin, O::umin)),
            Op::Max => bin(self, pick(O::fmax, O::imax, O::umax)),
            Op::Pow => bin(self, O::fpow),
            Op::Atan2 => {
                let b = *s.get(1).ok_or(super::ToNirError::Invalid("atan2".into()))?;
                Ok(self.atan2(a, b))
            }
            Op::Fma | Op::Lrp | Op::Csel => {
                let (Some(b), Some(c)) = (s.get(1), s.get(2)) else {
                    return invalid("ternary operator with fewer than three operands");
                };
                let o = match op {
                    Op::Fma => O::ffma,
                    Op::Lrp => O::flrp,
                    _ => O::bcsel,
                };
                Ok(self.alu(o, &[a, *b, *c], n))
            }
            Op::VectorInsert => {
                let (Some(b), Some(c)) = (s.get(1), s.get(2)) else {
                    return invalid("vector_insert with fewer than three operands");
                };
                self.vector_insert(a, *b, *c)
            }
            Op::VectorExtract => self.vector_extract(a, *s.get(1).unwrap_or(&a)),
            Op::Vector => self.vec(s),
        }
    }

    /// `all_equal` / `any_nequal` of two scalar/vector values.
    fn compare_values(&mut self, all: bool, float: bool, a: Def, b: Def) -> Def {
        let w = self.comps(a);
        let op = match (all, float, w) {
            (true, true, 1) => O::feq,
            (true, false, 1) => O::ieq,
            (false, true, 1) => O::fneu,
            (false, false, 1) => O::ine,
            (true, true, 2) => O::ball_fequal2,
            (true, true, 3) => O::ball_fequal3,
            (true, true, _) => O::ball_fequal4,
            (true, false, 2) => O::ball_iequal2,
            (true, false, 3) => O::ball_iequal3,
            (true, false, _) => O::ball_iequal4,
            (false, true, 2) => O::bany_fnequal2,
            (false, true, 3) => O::bany_fnequal3,
            (false, true, _) => O::bany_fnequal4,
            (false, false, 2) => O::bany_inequal2,
            (false, false, 3) => O::bany_inequal3,
            (false, false, _) => O::bany_inequal4,
        };
        self.alu(op, &[a, b], 1)
    }

    /// Whole-value comparison of two aggregates, leaf by leaf.
    fn compare_aggregate(
        &mut self,
        all: bool,
        a: &D,
        b: &D,
        budget: &mut u32,
        depth: u32,
    ) -> Res<Def> {
        if depth > 64 {
            return invalid("type nesting too deep to compare");
        }
        let combine = if all { O::iand } else { O::ior };
        match &a.ty {
            Type::Scalar(base) | Type::Vector(base, _) => {
                *budget = match budget.checked_sub(1) {
                    Some(b) => b,
                    None => return unsupported("comparison of more than 4096 values"),
                };
                let float = *base == rgl_nir::ir::BaseType::Float;
                let (x, y) = (self.load(a)?, self.load(b)?);
                Ok(self.compare_values(all, float, x, y))
            }
            Type::Matrix { columns, .. } => {
                let n = u32::from(*columns);
                self.compare_elements(all, a, b, n, budget, depth)
            }
            Type::Array(_, n) => {
                let n = *n;
                if n > *budget {
                    return unsupported("comparison of more than 4096 values");
                }
                self.compare_elements(all, a, b, n, budget, depth)
            }
            Type::Struct(id) => {
                let count = self.struct_fields(*id).len() as u32;
                let mut acc: Option<Def> = None;
                for f in 0..count {
                    let (x, y) = (self.deref_struct(a, f)?, self.deref_struct(b, f)?);
                    let r = self.compare_aggregate(all, &x, &y, budget, depth + 1)?;
                    acc = Some(match acc {
                        Some(p) => self.alu(combine, &[p, r], 1),
                        None => r,
                    });
                }
                match acc {
                    Some(r) => Ok(r),
                    None => Ok(self.b().load_const(1, vec![u64::from(all)])),
                }
            }
            _ => unsupported("comparison of opaque values"),
        }
    }

    fn compare_elements(
        &mut self,
        all: bool,
        a: &D,
        b: &D,
        n: u32,
        budget: &mut u32,
        depth: u32,
    ) -> Res<Def> {
        let combine = if all { O::iand } else { O::ior };
        let mut acc: Option<Def> = None;
        for i in 0..n {
            let idx = self.imm_i(i as i32);
            let (x, y) = (self.deref_array(a, idx)?, self.deref_array(b, idx)?);
            let r = self.compare_aggregate(all, &x, &y, budget, depth + 1)?;
            acc = Some(match acc {
                Some(p) => self.alu(combine, &[p, r], 1),
                None => r,
            });
        }
        match acc {
            Some(r) => Ok(r),
            None => Ok(self.b().load_const(1, vec![u64::from(all)])),
        }
    }

    /// `dot(a, b)`: `fdotN` for floats, a multiply-add chain for integers.
    fn dot(&mut self, kind: ScalarKind, a: Def, b: Def) -> Res<Def> {
        let w = self.comps(a);
        if kind == ScalarKind::Float {
            let op = match w {
                1 => return Ok(self.alu(O::fmul, &[a, b], 1)),
                2 => O::fdot2,
                3 => O::fdot3,
                _ => O::fdot4,
            };
            return Ok(self.alu(op, &[a, b], 1));
        }
        let prod = self.alu(O::imul, &[a, b], w);
        let mut acc = self.channel(prod, 0);
        for c in 1..w {
            let x = self.channel(prod, c);
            acc = self.alu(O::iadd, &[acc, x], 1);
        }
        Ok(acc)
    }

    /// Columns of a matrix operand (or the single vector/scalar value otherwise).
    fn matrix_operand(&mut self, e: Handle<hir::Expr>) -> Res<Vec<Def>> {
        let ty = self.expr(e)?.ty.clone();
        if ty.is_matrix() {
            self.matrix_value(e)
        } else {
            Ok(vec![self.eval(e)?])
        }
    }

    /// The columns of a matrix-valued expression.
    pub(crate) fn matrix_value(&mut self, e: Handle<hir::Expr>) -> Res<Vec<Def>> {
        self.enter()?;
        let r = self.matrix_value_inner(e);
        self.leave();
        r
    }

    fn matrix_value_inner(&mut self, e: Handle<hir::Expr>) -> Res<Vec<Def>> {
        let x = self.expr(e)?.clone();
        let GType::Matrix { columns, rows } = x.ty else {
            return invalid("matrix value of a non-matrix type");
        };
        match &x.kind {
            ExprKind::Constant(hir::Constant::Components(vals)) => {
                let words = self.constant_words(&hir::Constant::Components(vals.clone()))?;
                let rows = usize::from(rows);
                let mut cols = Vec::new();
                for c in 0..usize::from(columns) {
                    let w = words.get(c * rows..(c + 1) * rows).unwrap_or(&[]).to_vec();
                    if w.len() != rows {
                        return invalid("matrix constant of the wrong size");
                    }
                    cols.push(self.b().load_const(32, w));
                }
                Ok(cols)
            }
            ExprKind::Operation(op, operands) => {
                let op = *op;
                if op == Op::Mul {
                    let (Some(a), Some(b)) = (operands.first(), operands.get(1)) else {
                        return invalid("`*` with one operand");
                    };
                    let a = self.matrix_operand(*a)?;
                    let b = self.matrix_operand(*b)?;
                    return self.matrix_product(&a, &b);
                }
                let mut ops = Vec::new();
                for o in operands {
                    let t = self.expr(*o)?.ty.clone();
                    ops.push((t.is_matrix(), self.matrix_operand(*o)?));
                }
                let mut cols = Vec::new();
                for c in 0..usize::from(columns) {
                    let srcs: Vec<Def> = ops
                        .iter()
                        .map(|(m, v)| {
                            if *m {
                                v.get(c).copied()
                            } else {
                                v.first().copied()
                            }
                        })
                        .collect::<Option<_>>()
                        .ok_or(super::ToNirError::Invalid("matrix operand shape".into()))?;
                    cols.push(self.alu_op(op, ScalarKind::Float, &srcs, rows)?);
                }
                Ok(cols)
            }
            _ => {
                let d = self.aggregate(e)?;
                let mut cols = Vec::new();
                for c in 0..columns {
                    let i = self.imm_i(i32::from(c));
                    let cd = self.deref_array(&d, i)?;
                    cols.push(self.load(&cd)?);
                }
                Ok(cols)
            }
        }
    }

    /// Linear-algebra product of two operands given as columns (a vector or scalar is
    /// one "column"): matrix × matrix, matrix × vector, vector × matrix, and products
    /// with a scalar. A vector result is returned as one column.
    fn matrix_product(&mut self, a: &[Def], b: &[Def]) -> Res<Vec<Def>> {
        let a_vec = a.len() == 1;
        let b_vec = b.len() == 1;
        let a_scalar = a_vec && self.comps(a[0]) == 1;
        let b_scalar = b_vec && self.comps(b[0]) == 1;
        if a_scalar || b_scalar {
            let (s, m) = if a_scalar { (a[0], b) } else { (b[0], a) };
            return Ok(m
                .iter()
                .map(|c| {
                    let n = self.comps(*c);
                    self.alu(O::fmul, &[*c, s], n)
                })
                .collect());
        }
        if a_vec && !b_vec {
            // row vector × matrix: one dot product per column of b.
            let mut comps = Vec::new();
            for col in b {
                comps.push(self.dot(ScalarKind::Float, a[0], *col)?);
            }
            return Ok(vec![self.vec(&comps)?]);
        }
        // a is a matrix (columns); each column of b (or the vector b) gives a column.
        let mut out = Vec::new();
        for bc in b {
            let rows = self.comps(a[0]);
            let k = self.comps(*bc);
            if usize::from(k) != a.len() {
                return invalid("matrix product dimensions do not agree");
            }
            let s0 = self.channel(*bc, 0);
            let mut acc = self.alu(O::fmul, &[a[0], s0], rows);
            for (i, col) in a.iter().enumerate().skip(1) {
                let s = self.channel(*bc, i as u8);
                acc = self.alu(O::ffma, &[*col, s, acc], rows);
            }
            out.push(acc);
        }
        Ok(out)
    }
}
