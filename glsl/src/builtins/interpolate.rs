//! `interpolateAtOffset(interpolant, offset)` (GLSL 4.00 §8.13,
//! ARB_gpu_shader5): the input evaluated at `offset` pixels from the pixel
//! centre, from the plane equations of its interpolation.
//!
//! A `noperspective` input is affine in window coordinates, so its value at
//! the offset is `v + dFdx(v) * offset.x + dFdy(v) * offset.y` exactly: the
//! derivatives of an affine function are its plane's gradient. A smooth
//! (perspective-correct) input `v` is the quotient of two affine functions,
//! `v * gl_FragCoord.w` and `gl_FragCoord.w` (1/w_clip, GL 4.0 §3.6.1), so
//! each is moved along its plane and the quotient taken. A `flat` input is the
//! same everywhere. rgl renders single-sampled, so `centroid` and `sample`
//! inputs are at the pixel centre like the others.

use super::expand::{Builder, Val};
use crate::arena::Handle;
use crate::ast::Interpolation;
use crate::hir::{Expr, ExprKind, Module, Op};
use crate::types::Type;

/// The interpolation of the input `expr` reads: the innermost written
/// qualifier of a block member or of the variable, smooth by default.
pub(crate) fn interpolation_of(module: &Module, expr: Handle<Expr>) -> Interpolation {
    let mut current = expr;
    let mut member: Option<Interpolation> = None;
    while let Some(e) = module.exprs.get(current) {
        match &e.kind {
            ExprKind::VarRef(v) => {
                let var = module.variables.get(*v);
                return member
                    .or_else(|| var.and_then(|v| v.interpolation))
                    .unwrap_or(Interpolation::Smooth);
            }
            ExprKind::RecordRef(base, field) => {
                if member.is_none() {
                    let record_ty = module.exprs.get(*base).map(|b| b.ty.clone());
                    if let Some(Type::Struct(s)) = record_ty.as_ref().map(strip_arrays) {
                        member = module
                            .structs
                            .get(s)
                            .and_then(|st| st.fields.get(*field as usize))
                            .and_then(|f| f.qualifiers.interpolation);
                    }
                }
                current = *base;
            }
            ExprKind::ArrayRef(base, _) | ExprKind::Swizzle(base, _) => current = *base,
            _ => break,
        }
    }
    member.unwrap_or(Interpolation::Smooth)
}

fn strip_arrays(ty: &Type) -> Type {
    let mut t = ty;
    while let Type::Array(elem, _) = t {
        t = elem;
    }
    t.clone()
}

/// `f + dFdx(f) * ox + dFdy(f) * oy` for the affine `f` (bound as `f`).
fn along_plane(b: &mut Builder<'_>, f: Val, ty: &Type, ox: Val, oy: Val) -> Option<Handle<Expr>> {
    let v = b.take(f)?;
    let dx = b.take(f)?;
    let dx = b.op(Op::Dfdx, ty, &[dx]);
    let x = b.take(ox)?;
    let dx = b.op(Op::Mul, ty, &[dx, x]);
    let dy = b.take(f)?;
    let dy = b.op(Op::Dfdy, ty, &[dy]);
    let y = b.take(oy)?;
    let dy = b.op(Op::Mul, ty, &[dy, y]);
    let s = b.op(Op::Add, ty, &[v, dx]);
    Some(b.op(Op::Add, ty, &[s, dy]))
}

/// Expands `interpolateAtOffset(x, offset)` of type `ret`; `interp` is the
/// interpolation of `x` (see [`interpolation_of`]), `frag_coord` a fresh
/// reference to `gl_FragCoord`.
pub(crate) fn at_offset(
    b: &mut Builder<'_>,
    x: Val,
    offset: Val,
    ret: &Type,
    interp: Interpolation,
    frag_coord: Option<Handle<Expr>>,
) -> Option<Handle<Expr>> {
    if interp == Interpolation::Flat {
        return b.take(x);
    }
    let off = b.take(offset)?;
    let off = b.bind(off, "offset");
    let ox = b.take(off)?;
    let ox = b.swizzle(ox, &[0]);
    let ox = b.bind(ox, "offset_x");
    let oy = b.take(off)?;
    let oy = b.swizzle(oy, &[1]);
    let oy = b.bind(oy, "offset_y");
    if interp == Interpolation::NoPerspective {
        return along_plane(b, x, ret, ox, oy);
    }
    let fc = frag_coord?;
    let w = b.swizzle(fc, &[3]);
    let w = b.bind(w, "inv_w");
    let xv = b.take(x)?;
    let wv = b.take(w)?;
    let a = b.op(Op::Mul, ret, &[xv, wv]);
    let a = b.bind(a, "v_over_w");
    let a_at = along_plane(b, a, ret, ox, oy)?;
    let w_at = along_plane(b, w, &Type::FLOAT, ox, oy)?;
    Some(b.op(Op::Div, ret, &[a_at, w_at]))
}
