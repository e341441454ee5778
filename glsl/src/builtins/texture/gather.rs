//! The texture gather functions (GLSL 4.00 §8.9.4 "Texture Gather
//! Instructions", `ARB_texture_gather`, the `ARB_gpu_shader5` additions, GLSL
//! ES 3.10 §8.9.3): `textureGather`, `textureGatherOffset` and
//! `textureGatherOffsets` over the 2D, 2D array, cube, cube array and
//! rectangle samplers (float, integer and shadow), as Mesa's
//! `builtin_functions.cpp` declares them (`_texture(ir_tg4, …)`).
//!
//! Parameters are `(sampler, P, [refZ], [offset | offsets], [comp])`: unlike
//! the other lookups the shadow forms take the depth reference as a separate
//! `refZ`, and only the non-shadow forms have the constant `comp` selecting
//! the gathered component. A gather becomes one [`ExprKind::Texture`] with op
//! `tg4` whose `lod` holds the component (Mesa's `lod_info.component`);
//! `textureGatherOffsets` becomes four of them, one per offset, whose `w`
//! results (the `(i0, j0)` texel of each footprint) make the result, as Mesa's
//! `nir_lower_tex` `lower_tg4_offsets` does.

use super::super::functions::{desktop, has_ext, Entry, Implementation, Pred, TableBuilder};
use super::super::{Availability, ParamDirection};
use super::{sampler, TextureForm, F, I, U};
use crate::arena::Handle;
use crate::hir::{Constant, Expr, ExprKind, ScalarValue, TexOp, Texture};
use crate::types::{SamplerDim, SamplerType, Type};

/// The parameters of a `textureGather*` overload (GLSL 4.00 §8.9.4):
/// `(sampler, P, [refZ], [offset | offsets], [comp])`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct GatherForm {
    /// `textureGatherOffsets`: an `ivec2 offsets[4]` parameter (with
    /// [`TextureForm::offset`] clear).
    pub offsets: bool,
    /// The trailing constant `int comp` parameter.
    pub comp: bool,
}

fn gpu_shader5(a: &Availability<'_>) -> bool {
    desktop(a) && has_ext(a, "GL_ARB_gpu_shader5")
}

/// `textureGather` without `comp` on the 2D, 2D array, cube and cube array
/// samplers: GLSL 4.00, ES 3.10, `ARB_texture_gather` or `ARB_gpu_shader5`
/// (Mesa's `texture_gather_or_es31`).
pub(crate) fn texture_gather(a: &Availability<'_>) -> bool {
    a.version.at_least(400, 310)
        || (desktop(a) && has_ext(a, "GL_ARB_texture_gather"))
        || gpu_shader5(a)
}

/// The `ARB_gpu_shader5` forms (`comp`, shadow samplers, rectangle samplers,
/// offsets of those): GLSL 4.00, ES 3.10 or `ARB_gpu_shader5` (Mesa's
/// `gpu_shader5_or_es31`; the sampler gate keeps rectangles desktop-only).
pub(crate) fn texture_gather_gs5(a: &Availability<'_>) -> bool {
    a.version.at_least(400, 310) || gpu_shader5(a)
}

/// `textureGatherOffsets`: GLSL 4.00 or `ARB_gpu_shader5` (ES has it only
/// from 3.20, which rgl does not support; Mesa's `gpu_shader5_es`).
pub(crate) fn texture_gather_offsets(a: &Availability<'_>) -> bool {
    a.version.at_least(400, 320) || gpu_shader5(a)
}

/// `P` components of a gather: the coordinate with the array layer (never the
/// depth reference, which is the separate `refZ`).
fn p_components(s: SamplerType) -> u8 {
    s.dim.coord_components() + u8::from(s.arrayed)
}

/// The `ivec2 offsets[4]` parameter type.
fn offsets_type() -> Type {
    Type::Array(Box::new(Type::vec(I, 2)), Some(4))
}

fn push(
    t: &mut TableBuilder,
    name: &'static str,
    available: Pred,
    s: SamplerType,
    g: GatherForm,
    offset: bool,
) {
    let mut parameters = vec![
        (Type::Sampler(s), ParamDirection::In),
        (Type::vec(F, p_components(s)), ParamDirection::In),
    ];
    if s.shadow {
        parameters.push((Type::FLOAT, ParamDirection::In));
    }
    if offset {
        parameters.push((Type::vec(I, 2), ParamDirection::In));
    }
    if g.offsets {
        parameters.push((offsets_type(), ParamDirection::In));
    }
    if g.comp {
        parameters.push((Type::INT, ParamDirection::In));
    }
    let return_type = if s.shadow {
        Type::Vector(F, 4)
    } else {
        Type::Vector(s.kind, 4)
    };
    t.push(Entry {
        name,
        return_type,
        parameters,
        available,
        sampler_gate: Some(s),
        constant_foldable: false,
        implementation: Implementation::Texture(TextureForm {
            op: TexOp::Tg4,
            sampler: s,
            proj: false,
            offset,
            lod_param: false,
            gather: Some(g),
        }),
    });
}

/// Adds `textureGather`, `textureGatherOffset` and `textureGatherOffsets`.
pub(crate) fn add_gather(t: &mut TableBuilder) {
    use SamplerDim::*;
    let plain = GatherForm {
        offsets: false,
        comp: false,
    };
    let comp = GatherForm {
        offsets: false,
        comp: true,
    };
    for kind in [F, I, U] {
        for (dim, arrayed) in [
            (D2, false),
            (D2, true),
            (Cube, false),
            (Cube, true),
            (Rect, false),
        ] {
            let s = sampler(dim, arrayed, false, kind);
            let rect = dim == Rect;
            let base: Pred = if rect {
                texture_gather_gs5
            } else {
                texture_gather
            };
            push(t, "textureGather", base, s, plain, false);
            push(t, "textureGather", texture_gather_gs5, s, comp, false);
            if dim == Cube {
                continue;
            }
            push(t, "textureGatherOffset", base, s, plain, true);
            push(t, "textureGatherOffset", texture_gather_gs5, s, comp, true);
            for g in [plain, comp] {
                let g = GatherForm { offsets: true, ..g };
                push(
                    t,
                    "textureGatherOffsets",
                    texture_gather_offsets,
                    s,
                    g,
                    false,
                );
            }
        }
    }
    for (dim, arrayed) in [
        (D2, false),
        (D2, true),
        (Cube, false),
        (Cube, true),
        (Rect, false),
    ] {
        let s = sampler(dim, arrayed, true, F);
        push(t, "textureGather", texture_gather_gs5, s, plain, false);
        if dim == Cube {
            continue;
        }
        push(t, "textureGatherOffset", texture_gather_gs5, s, plain, true);
        let g = GatherForm {
            offsets: true,
            comp: false,
        };
        push(
            t,
            "textureGatherOffsets",
            texture_gather_offsets,
            s,
            g,
            false,
        );
    }
}

/// Mesa's parameter names of a gather (`sampler`, `P`, `refZ`, `offset` or
/// `offsets`, `comp`).
pub(crate) fn parameter_names(form: TextureForm, g: GatherForm) -> Vec<&'static str> {
    let mut names = vec!["sampler", "P"];
    if form.sampler.shadow {
        names.push("refZ");
    }
    if form.offset {
        names.push("offset");
    }
    if g.offsets {
        names.push("offsets");
    }
    if g.comp {
        names.push("comp");
    }
    names
}

/// The constant value of `e`: a constant, or a `const` variable's value.
fn constant_of(b: &super::super::expand::Builder<'_>, e: Handle<Expr>) -> Option<Constant> {
    match &b.module.exprs.get(e)?.kind {
        ExprKind::Constant(c) => Some(c.clone()),
        ExprKind::VarRef(v) => b.module.variables.get(*v)?.constant_value.clone(),
        _ => None,
    }
}

/// Builds the gather of `form` (see the module documentation).
pub(crate) fn build_gather(
    form: TextureForm,
    g: GatherForm,
    return_type: &Type,
    b: &mut super::super::expand::Builder<'_>,
) -> Option<Handle<Expr>> {
    let s = form.sampler;
    let mut next = 2;
    let refz = s.shadow.then(|| {
        next += 1;
        next - 1
    });
    let offset = (form.offset || g.offsets).then(|| {
        next += 1;
        next - 1
    });
    let comp = g.comp.then_some(next);
    // The component: the constant argument (checked by the front end), 0 by
    // default; a shadow gather compares the first component.
    let component = |b: &mut super::super::expand::Builder<'_>| -> Option<Handle<Expr>> {
        Some(match comp {
            Some(i) => {
                let arg = b.arg(i)?;
                match constant_of(b, arg) {
                    Some(c) => b.constant(Type::INT, c),
                    None => arg,
                }
            }
            None => b.constant(
                Type::INT,
                Constant::Components(smallvec::smallvec![ScalarValue::Int(0)]),
            ),
        })
    };
    let one = |b: &mut super::super::expand::Builder<'_>,
               offset: Option<Handle<Expr>>,
               ty: Type|
     -> Option<Handle<Expr>> {
        let texture = Texture {
            op: TexOp::Tg4,
            sampler: b.arg(0)?,
            coordinate: Some(b.arg(1)?),
            offset,
            projector: None,
            shadow_comparator: match refz {
                Some(i) => Some(b.arg(i)?),
                None => None,
            },
            lod: Some(component(b)?),
            grad: None,
        };
        Some(b.expr(ExprKind::Texture(Box::new(texture)), ty))
    };
    if !g.offsets {
        let offset = match offset {
            Some(i) => Some(b.arg(i)?),
            None => None,
        };
        return one(b, offset, return_type.clone());
    }
    // textureGatherOffsets: result component i is the (i0, j0) texel (`w`) of
    // the footprint at offsets[i] (GLSL 4.00 §8.9.4).
    let offsets_index = offset?;
    let offsets_arg = b.arg(offsets_index)?;
    let constant = constant_of(b, offsets_arg);
    let result = b.declare("textureGatherOffsets_retval", return_type.clone());
    let ivec2 = Type::vec(I, 2);
    for i in 0..4u8 {
        let off = match &constant {
            Some(Constant::Aggregate(items)) if items.len() == 4 => {
                b.constant(ivec2.clone(), items[usize::from(i)].clone())
            }
            _ => {
                let array = b.arg(offsets_index)?;
                let index = b.constant(
                    Type::INT,
                    Constant::Components(smallvec::smallvec![ScalarValue::Int(i32::from(i))]),
                );
                b.expr(ExprKind::ArrayRef(array, index), ivec2.clone())
            }
        };
        let texel = one(b, Some(off), return_type.clone())?;
        let w = b.swizzle(texel, &[3]);
        let lhs = b.expr(ExprKind::VarRef(result), return_type.clone());
        b.assign(lhs, w, 1 << i);
    }
    Some(b.expr(ExprKind::VarRef(result), return_type.clone()))
}
