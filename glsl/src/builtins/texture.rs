//! The texture lookup family: which sampler types exist where, the overloads of
//! the GLSL 1.30 lookups (`texture`, `textureProj`, `textureLod`, `texelFetch`,
//! `textureGrad`, `textureSize`, … and their `Offset`/`Proj` forms) generated
//! from per-family rules over every sampler type, the legacy names
//! (`texture2D`, `shadow2DProj`, `texture2DRect`, …, ES 1.00 and extension
//! names), and the expansion of a lookup into an [`ExprKind::Texture`] node
//! (Mesa's `ir_texture`).

use super::functions::{
    always, derivatives, desktop, fs_only, has_ext, v130, v130_fs, Entry, Implementation, Pred,
    TableBuilder,
};
use super::{Availability, ParamDirection};
use crate::hir::{Constant, ExprKind, ScalarValue, TexOp};
use crate::types::{SamplerDim, SamplerType, ScalarKind, Type};
use crate::version::Stage;

mod gather;
pub(crate) use gather::GatherForm;

/// What a texture entry does with its parameters.
///
/// Parameters are always `(sampler, P, [lod | sample | dPdx, dPdy], [offset], [bias])`,
/// except `textureSize` which is `(sampler, [lod])`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TextureForm {
    /// The operation.
    pub op: TexOp,
    /// The sampler type.
    pub sampler: SamplerType,
    /// Projective lookup: the last component of `P` divides the coordinate.
    pub proj: bool,
    /// An `offset` parameter is present.
    pub offset: bool,
    /// A lod/bias/sample parameter is present (absent for `texelFetch` and
    /// `textureSize` on rect, buffer and multisample samplers: the LOD is 0).
    pub lod_param: bool,
    /// The gather shape (`textureGather*`, op `tg4`), `None` for other lookups.
    pub gather: Option<GatherForm>,
}

// ---------------------------------------------------------------------------
// Sampler types.

const F: ScalarKind = ScalarKind::Float;
const I: ScalarKind = ScalarKind::Int;
const U: ScalarKind = ScalarKind::Uint;

fn sampler(dim: SamplerDim, arrayed: bool, shadow: bool, kind: ScalarKind) -> SamplerType {
    SamplerType {
        dim,
        arrayed,
        shadow,
        kind,
    }
}

/// Every sampler type rgl knows in GLSL 1.10–4.50 / ES 1.00–3.10.
fn all_samplers() -> Vec<SamplerType> {
    use SamplerDim::*;
    let mut list = Vec::new();
    for kind in [F, I, U] {
        for (dim, arrayed) in [
            (D1, false),
            (D2, false),
            (D3, false),
            (Cube, false),
            (D1, true),
            (D2, true),
            (Cube, true),
            (Rect, false),
            (Buffer, false),
            (Ms, false),
            (Ms, true),
        ] {
            list.push(sampler(dim, arrayed, false, kind));
        }
    }
    for (dim, arrayed) in [
        (D1, false),
        (D2, false),
        (Cube, false),
        (D1, true),
        (D2, true),
        (Cube, true),
        (Rect, false),
    ] {
        list.push(sampler(dim, arrayed, true, F));
    }
    list.push(sampler(External, false, false, F));
    list
}

/// Desktop GLSL 1.30+ (Mesa's `v130_desktop`).
fn v130_desktop(a: &Availability<'_>) -> bool {
    a.version.at_least(130, 0)
}

fn es100(a: &Availability<'_>) -> bool {
    a.version.is_es() && a.version.number < 300
}

/// True if the sampler type exists in `a` (so that functions over it are
/// visible). Facts as in Mesa's type availability: rectangle textures are
/// always enabled on desktop (ARB_texture_rectangle), integer samplers need
/// 1.30/ES 3.00, buffer samplers 1.40, multisample samplers 1.50 or
/// ARB_texture_multisample.
pub(crate) fn sampler_available(s: SamplerType, a: &Availability<'_>) -> bool {
    use SamplerDim::*;
    let es = a.version.is_es();
    let es3 = a.version.at_least(0, 300);
    let integer = s.kind != F;
    if integer && !v130(a) {
        return false;
    }
    match (s.dim, s.arrayed, s.shadow) {
        (D1, false, _) => !es,
        (D2, false, false) | (Cube, false, false) => true,
        (D2, false, true) => !es || es3 || has_ext(a, "GL_EXT_shadow_samplers"),
        (Cube, false, true) => v130(a),
        (D3, false, _) => !es || es3 || has_ext(a, "GL_OES_texture_3D"),
        (D1, true, _) => !es && (v130(a) || has_ext(a, "GL_EXT_texture_array")),
        (D2, true, _) => v130(a) || (!es && has_ext(a, "GL_EXT_texture_array")),
        (Cube, true, _) => texture_cube_map_array(a),
        (Rect, false, _) => !es && (!integer || a.version.at_least(140, 0)),
        (Buffer, false, false) => a.version.at_least(140, 0),
        (Ms, _, false) => {
            a.version.at_least(150, 0) || (!es && has_ext(a, "GL_ARB_texture_multisample"))
        }
        (External, false, false) => {
            if es3 {
                has_ext(a, "GL_OES_EGL_image_external_essl3")
            } else {
                es && has_ext(a, "GL_OES_EGL_image_external")
            }
        }
        _ => false,
    }
}

/// Cube map array samplers: GLSL 4.00 or `GL_ARB_texture_cube_map_array`
/// (Mesa's `texture_cube_map_array`; rgl has no ES 3.20).
fn texture_cube_map_array(a: &Availability<'_>) -> bool {
    a.version.at_least(400, 0) || (desktop(a) && has_ext(a, "GL_ARB_texture_cube_map_array"))
}

/// `textureQueryLevels`: GLSL 4.30 or `GL_ARB_texture_query_levels` (Mesa's
/// `texture_query_levels`).
fn texture_query_levels(a: &Availability<'_>) -> bool {
    a.version.at_least(430, 0) || (desktop(a) && has_ext(a, "GL_ARB_texture_query_levels"))
}

/// `textureQueryLOD`: fragment shaders with `GL_ARB_texture_query_lod`
/// (Mesa's `texture_query_lod`).
fn texture_query_lod(a: &Availability<'_>) -> bool {
    fs_only(a) && desktop(a) && has_ext(a, "GL_ARB_texture_query_lod")
}

/// `textureQueryLod`, the GLSL 4.00 §8.9.1 spelling: fragment shaders of GLSL
/// 4.00 (Mesa's `v400_derivatives_only`).
fn texture_query_lod_400(a: &Availability<'_>) -> bool {
    fs_only(a) && a.version.at_least(400, 0)
}

/// True for `samplerCubeArrayShadow`, whose lookups take the depth reference
/// as a separate `compare` parameter because `P` already has four components
/// (ARB_texture_cube_map_array, GLSL 4.00 §8.7).
fn separate_compare(s: SamplerType) -> bool {
    s.shadow && coordinate_components(s) == 4
}

/// Components of the lookup coordinate (array layer included).
pub(crate) fn coordinate_components(s: SamplerType) -> u8 {
    s.dim.coord_components() + u8::from(s.arrayed)
}

/// Components of gradients and offsets (no array layer; cube gradients have 3).
fn gradient_components(s: SamplerType) -> u8 {
    s.dim.coord_components()
}

/// Components of the `textureSize` result.
fn size_components(s: SamplerType) -> u8 {
    let base = match s.dim {
        SamplerDim::Cube => 2,
        dim => dim.coord_components(),
    };
    base + u8::from(s.arrayed)
}

/// `P` of a non-projective lookup: the coordinate, plus the depth reference for
/// shadow samplers (never fewer than three components).
fn lookup_p_components(s: SamplerType) -> u8 {
    let coord = coordinate_components(s);
    if s.shadow && !separate_compare(s) {
        (coord + 1).max(3)
    } else {
        coord
    }
}

/// `P` sizes of projective lookups.
fn proj_p_sizes(s: SamplerType) -> Vec<u8> {
    let coord = coordinate_components(s);
    if s.shadow || coord == 3 {
        vec![4]
    } else {
        vec![coord + 1, 4]
    }
}

fn gvec4(s: SamplerType) -> Type {
    Type::Vector(s.kind, 4)
}

/// Return type of the 1.30-style lookups: `float` for shadow samplers.
fn lookup_result(s: SamplerType) -> Type {
    if s.shadow {
        Type::FLOAT
    } else {
        gvec4(s)
    }
}

// ---------------------------------------------------------------------------
// Row generation.

fn add_texture(
    t: &mut TableBuilder,
    name: &'static str,
    available: Pred,
    ret: Type,
    p: Option<Type>,
    form: TextureForm,
) {
    let s = form.sampler;
    let mut parameters = vec![(Type::Sampler(s), ParamDirection::In)];
    if let Some(p) = p {
        parameters.push((p, ParamDirection::In));
        if separate_compare(s) && form.op != TexOp::Lod {
            parameters.push((Type::FLOAT, ParamDirection::In));
        }
    }
    match form.op {
        TexOp::Txl | TexOp::Txf | TexOp::Txs if form.lod_param => {
            parameters.push((lod_type(form.op), ParamDirection::In))
        }
        TexOp::TxfMs => parameters.push((Type::INT, ParamDirection::In)),
        TexOp::Txd => {
            let g = Type::vec(F, gradient_components(s));
            parameters.push((g.clone(), ParamDirection::In));
            parameters.push((g, ParamDirection::In));
        }
        _ => {}
    }
    if form.offset {
        parameters.push((Type::vec(I, gradient_components(s)), ParamDirection::In));
    }
    if form.op == TexOp::Txb {
        parameters.push((Type::FLOAT, ParamDirection::In));
    }
    t.push(Entry {
        name,
        return_type: ret,
        parameters,
        available,
        sampler_gate: Some(s),
        constant_foldable: false,
        implementation: Implementation::Texture(form),
    });
}

/// `int` lod of fetches and size queries, `float` lod of sampling.
fn lod_type(op: TexOp) -> Type {
    match op {
        TexOp::Txf | TexOp::Txs => Type::INT,
        _ => Type::FLOAT,
    }
}

fn form(op: TexOp, sampler: SamplerType, proj: bool, offset: bool) -> TextureForm {
    TextureForm {
        op,
        sampler,
        proj,
        offset,
        lod_param: true,
        gather: None,
    }
}

/// Adds the GLSL 1.30 / ES 3.00 lookup functions over every sampler type.
fn add_modern(t: &mut TableBuilder) {
    use SamplerDim::*;
    for s in all_samplers() {
        let is_ms = s.dim == Ms;
        let is_buffer = s.dim == Buffer;
        let is_rect = s.dim == Rect;
        let is_cube = s.dim == Cube;
        let is_external = s.dim == External;
        let no_lod_dim = is_rect || is_buffer || is_ms;
        let result = lookup_result(s);
        let p = Type::vec(F, lookup_p_components(s));
        let array_shadow_2d = s.shadow && s.arrayed && s.dim == D2;
        let cube_shadow = s.shadow && is_cube;
        let cube_array_shadow = cube_shadow && s.arrayed;
        let projectable = matches!(s.dim, D1 | D2 | D3 | Rect | External) && !s.arrayed;
        let gradable = !is_buffer && !is_ms && !is_external && !cube_array_shadow;

        // texture
        if !is_buffer && !is_ms {
            add_texture(
                t,
                "texture",
                v130,
                result.clone(),
                Some(p.clone()),
                form(TexOp::Tex, s, false, false),
            );
            if !is_rect && !array_shadow_2d && !is_external && !cube_array_shadow {
                add_texture(
                    t,
                    "texture",
                    v130_fs,
                    result.clone(),
                    Some(p.clone()),
                    form(TexOp::Txb, s, false, false),
                );
            }
        }
        // textureProj, textureProjOffset, textureProjLod(Offset), textureProjGrad(Offset)
        if projectable {
            for size in proj_p_sizes(s) {
                let pp = Type::vec(F, size);
                add_texture(
                    t,
                    "textureProj",
                    v130,
                    result.clone(),
                    Some(pp.clone()),
                    form(TexOp::Tex, s, true, false),
                );
                if !is_rect && !is_external {
                    add_texture(
                        t,
                        "textureProj",
                        v130_fs,
                        result.clone(),
                        Some(pp.clone()),
                        form(TexOp::Txb, s, true, false),
                    );
                }
                if is_external {
                    continue;
                }
                add_texture(
                    t,
                    "textureProjOffset",
                    v130,
                    result.clone(),
                    Some(pp.clone()),
                    form(TexOp::Tex, s, true, true),
                );
                if !is_rect {
                    add_texture(
                        t,
                        "textureProjOffset",
                        v130_fs,
                        result.clone(),
                        Some(pp.clone()),
                        form(TexOp::Txb, s, true, true),
                    );
                    add_texture(
                        t,
                        "textureProjLod",
                        v130,
                        result.clone(),
                        Some(pp.clone()),
                        form(TexOp::Txl, s, true, false),
                    );
                    add_texture(
                        t,
                        "textureProjLodOffset",
                        v130,
                        result.clone(),
                        Some(pp.clone()),
                        form(TexOp::Txl, s, true, true),
                    );
                }
                add_texture(
                    t,
                    "textureProjGrad",
                    v130,
                    result.clone(),
                    Some(pp.clone()),
                    form(TexOp::Txd, s, true, false),
                );
                add_texture(
                    t,
                    "textureProjGradOffset",
                    v130,
                    result.clone(),
                    Some(pp.clone()),
                    form(TexOp::Txd, s, true, true),
                );
            }
        }
        // textureLod, textureLodOffset
        if !no_lod_dim && !is_external && !cube_shadow && !array_shadow_2d {
            add_texture(
                t,
                "textureLod",
                v130,
                result.clone(),
                Some(p.clone()),
                form(TexOp::Txl, s, false, false),
            );
            if !is_cube {
                add_texture(
                    t,
                    "textureLodOffset",
                    v130,
                    result.clone(),
                    Some(p.clone()),
                    form(TexOp::Txl, s, false, true),
                );
            }
        }
        // textureOffset (sampler2DArrayShadow: desktop only and without bias;
        // Mesa accepts it from 1.30 as the spec intended, see GLSL 4.30/4.40)
        if !is_cube && !is_buffer && !is_ms && !is_external {
            add_texture(
                t,
                "textureOffset",
                if array_shadow_2d { v130_desktop } else { v130 },
                result.clone(),
                Some(p.clone()),
                form(TexOp::Tex, s, false, true),
            );
            if !is_rect && !array_shadow_2d {
                add_texture(
                    t,
                    "textureOffset",
                    v130_fs,
                    result.clone(),
                    Some(p.clone()),
                    form(TexOp::Txb, s, false, true),
                );
            }
        }
        // texelFetch, texelFetchOffset
        if !s.shadow && !is_cube {
            let coord = Type::vec(I, coordinate_components(s));
            let op = if is_ms { TexOp::TxfMs } else { TexOp::Txf };
            let fetch = TextureForm {
                op,
                sampler: s,
                proj: false,
                offset: false,
                lod_param: !(is_rect || is_buffer),
                gather: None,
            };
            add_texture(t, "texelFetch", v130, gvec4(s), Some(coord.clone()), fetch);
            if !is_ms && !is_buffer && !is_external {
                add_texture(
                    t,
                    "texelFetchOffset",
                    v130,
                    gvec4(s),
                    Some(coord),
                    TextureForm {
                        offset: true,
                        ..fetch
                    },
                );
            }
        }
        // textureGrad, textureGradOffset
        if gradable {
            add_texture(
                t,
                "textureGrad",
                v130,
                result.clone(),
                Some(p.clone()),
                form(TexOp::Txd, s, false, false),
            );
            if !is_cube {
                add_texture(
                    t,
                    "textureGradOffset",
                    v130,
                    result.clone(),
                    Some(p.clone()),
                    form(TexOp::Txd, s, false, true),
                );
            }
        }
        // textureSize
        let size = TextureForm {
            op: TexOp::Txs,
            sampler: s,
            proj: false,
            offset: false,
            lod_param: !no_lod_dim,
            gather: None,
        };
        add_texture(
            t,
            "textureSize",
            v130,
            Type::vec(I, size_components(s)),
            None,
            size,
        );
        // textureQueryLOD (ARB_texture_query_lod) / textureQueryLod (GLSL
        // 4.00 §8.9.1): every sampler with mipmaps, `P` without the array
        // layer or depth reference, a vec2 result.
        if !no_lod_dim && !is_external {
            for (name, available) in [
                ("textureQueryLOD", texture_query_lod as Pred),
                ("textureQueryLod", texture_query_lod_400),
            ] {
                add_texture(
                    t,
                    name,
                    available,
                    Type::vec(F, 2),
                    Some(Type::vec(F, gradient_components(s))),
                    form(TexOp::Lod, s, false, false),
                );
            }
        }
        // textureQueryLevels (GLSL 4.30 §8.9.1): every sampler with mipmaps.
        if !no_lod_dim && !is_external {
            add_texture(
                t,
                "textureQueryLevels",
                texture_query_levels,
                Type::INT,
                None,
                TextureForm {
                    op: TexOp::QueryLevels,
                    sampler: s,
                    proj: false,
                    offset: false,
                    lod_param: false,
                    gather: None,
                },
            );
        }
    }
}

// Legacy predicates.
/// The legacy lookups (`texture2D`, `shadow1DProj`, `texture2DRect`, …) on
/// desktop. Mesa's `deprecated_texture` keeps them in every desktop profile
/// until GLSL 4.20 core, although GLSL 1.40 deprecates them; this one predicate
/// decides it for every legacy row (`compatibility(a)` would follow the
/// removal in 1.40 core instead).
fn deprecated_texture(a: &Availability<'_>) -> bool {
    desktop(a)
}
fn desktop_fs(a: &Availability<'_>) -> bool {
    deprecated_texture(a) && fs_only(a)
}
/// Mesa's `lod_exists_in_stage` on desktop.
fn desktop_lod(a: &Availability<'_>) -> bool {
    deprecated_texture(a)
        && (a.stage == Stage::Vertex || v130(a) || has_ext(a, "GL_ARB_shader_texture_lod"))
}
fn desktop_or_es100(a: &Availability<'_>) -> bool {
    deprecated_texture(a) || es100(a)
}
fn desktop_or_es100_fs(a: &Availability<'_>) -> bool {
    desktop_or_es100(a) && fs_only(a)
}
fn desktop_or_es100_lod(a: &Availability<'_>) -> bool {
    desktop_lod(a) || (es100(a) && a.stage == Stage::Vertex)
}
fn arb_shader_texture_lod(a: &Availability<'_>) -> bool {
    desktop(a) && has_ext(a, "GL_ARB_shader_texture_lod")
}
fn ext_shader_texture_lod(a: &Availability<'_>) -> bool {
    es100(a) && has_ext(a, "GL_EXT_shader_texture_lod")
}
fn ext_shadow_samplers(a: &Availability<'_>) -> bool {
    es100(a) && has_ext(a, "GL_EXT_shadow_samplers")
}
fn ext_texture_array(a: &Availability<'_>) -> bool {
    desktop(a) && has_ext(a, "GL_EXT_texture_array")
}
fn ext_texture_array_fs(a: &Availability<'_>) -> bool {
    ext_texture_array(a) && fs_only(a)
}
fn ext_texture_array_lod(a: &Availability<'_>) -> bool {
    ext_texture_array(a) && desktop_lod(a)
}

/// One legacy name: its sampler, projective `P` sizes (or the plain size) and
/// operation; a bias twin is added when `bias` is given.
#[allow(clippy::too_many_arguments)]
fn legacy(
    t: &mut TableBuilder,
    name: &'static str,
    available: Pred,
    bias: Option<Pred>,
    s: SamplerType,
    proj: bool,
    op: TexOp,
    ret: Type,
) {
    let sizes = if proj {
        proj_p_sizes(s)
    } else {
        vec![lookup_p_components(s)]
    };
    for size in sizes {
        let p = Type::vec(F, size);
        add_texture(
            t,
            name,
            available,
            ret.clone(),
            Some(p.clone()),
            form(op, s, proj, false),
        );
        if let Some(bias) = bias {
            add_texture(
                t,
                name,
                bias,
                ret.clone(),
                Some(p),
                form(TexOp::Txb, s, proj, false),
            );
        }
    }
}

/// Adds `texture1D`…`shadow2DProjLod`, the rectangle, ES 1.00 and extension names.
fn add_legacy(t: &mut TableBuilder) {
    use SamplerDim::*;
    use TexOp::{Tex, Txd, Txl};
    let vec4 = Type::Vector(F, 4);
    let s1 = sampler(D1, false, false, F);
    let s2 = sampler(D2, false, false, F);
    let s3 = sampler(D3, false, false, F);
    let sc = sampler(Cube, false, false, F);
    let s1s = sampler(D1, false, true, F);
    let s2s = sampler(D2, false, true, F);
    let sr = sampler(Rect, false, false, F);
    let srs = sampler(Rect, false, true, F);
    let s1a = sampler(D1, true, false, F);
    let s2a = sampler(D2, true, false, F);
    let s1as = sampler(D1, true, true, F);
    let s2as = sampler(D2, true, true, F);
    let ext = sampler(External, false, false, F);
    let v = || vec4.clone();

    // GLSL 1.10 names (desktop; the 2D/cube/3D subset also in ES 1.00).
    legacy(
        t,
        "texture1D",
        deprecated_texture,
        Some(desktop_fs),
        s1,
        false,
        Tex,
        v(),
    );
    legacy(
        t,
        "texture1DProj",
        deprecated_texture,
        Some(desktop_fs),
        s1,
        true,
        Tex,
        v(),
    );
    legacy(t, "texture1DLod", desktop_lod, None, s1, false, Txl, v());
    legacy(t, "texture1DProjLod", desktop_lod, None, s1, true, Txl, v());
    for (s, plain, proj, lod, proj_lod) in [
        (
            s2,
            "texture2D",
            "texture2DProj",
            "texture2DLod",
            "texture2DProjLod",
        ),
        (
            s3,
            "texture3D",
            "texture3DProj",
            "texture3DLod",
            "texture3DProjLod",
        ),
    ] {
        legacy(
            t,
            plain,
            desktop_or_es100,
            Some(desktop_or_es100_fs),
            s,
            false,
            Tex,
            v(),
        );
        legacy(
            t,
            proj,
            desktop_or_es100,
            Some(desktop_or_es100_fs),
            s,
            true,
            Tex,
            v(),
        );
        legacy(t, lod, desktop_or_es100_lod, None, s, false, Txl, v());
        legacy(t, proj_lod, desktop_or_es100_lod, None, s, true, Txl, v());
    }
    legacy(
        t,
        "textureCube",
        desktop_or_es100,
        Some(desktop_or_es100_fs),
        sc,
        false,
        Tex,
        v(),
    );
    legacy(
        t,
        "textureCubeLod",
        desktop_or_es100_lod,
        None,
        sc,
        false,
        Txl,
        v(),
    );
    for (s, plain, proj, lod, proj_lod) in [
        (
            s1s,
            "shadow1D",
            "shadow1DProj",
            "shadow1DLod",
            "shadow1DProjLod",
        ),
        (
            s2s,
            "shadow2D",
            "shadow2DProj",
            "shadow2DLod",
            "shadow2DProjLod",
        ),
    ] {
        legacy(
            t,
            plain,
            deprecated_texture,
            Some(desktop_fs),
            s,
            false,
            Tex,
            v(),
        );
        legacy(
            t,
            proj,
            deprecated_texture,
            Some(desktop_fs),
            s,
            true,
            Tex,
            v(),
        );
        legacy(t, lod, desktop_lod, None, s, false, Txl, v());
        legacy(t, proj_lod, desktop_lod, None, s, true, Txl, v());
    }
    // ARB_texture_rectangle (always enabled on desktop).
    legacy(
        t,
        "texture2DRect",
        deprecated_texture,
        None,
        sr,
        false,
        Tex,
        v(),
    );
    legacy(
        t,
        "texture2DRectProj",
        deprecated_texture,
        None,
        sr,
        true,
        Tex,
        v(),
    );
    legacy(
        t,
        "shadow2DRect",
        deprecated_texture,
        None,
        srs,
        false,
        Tex,
        v(),
    );
    legacy(
        t,
        "shadow2DRectProj",
        deprecated_texture,
        None,
        srs,
        true,
        Tex,
        v(),
    );

    // ARB_shader_texture_lod gradient names.
    for (name, s, proj) in [
        ("texture1DGradARB", s1, false),
        ("texture1DProjGradARB", s1, true),
        ("texture2DGradARB", s2, false),
        ("texture2DProjGradARB", s2, true),
        ("texture3DGradARB", s3, false),
        ("texture3DProjGradARB", s3, true),
        ("textureCubeGradARB", sc, false),
        ("shadow1DGradARB", s1s, false),
        ("shadow1DProjGradARB", s1s, true),
        ("shadow2DGradARB", s2s, false),
        ("shadow2DProjGradARB", s2s, true),
        ("texture2DRectGradARB", sr, false),
        ("texture2DRectProjGradARB", sr, true),
        ("shadow2DRectGradARB", srs, false),
        ("shadow2DRectProjGradARB", srs, true),
    ] {
        legacy(t, name, arb_shader_texture_lod, None, s, proj, Txd, v());
    }

    // ES 1.00 EXT_shader_texture_lod.
    legacy(
        t,
        "texture2DLodEXT",
        ext_shader_texture_lod,
        None,
        s2,
        false,
        Txl,
        v(),
    );
    legacy(
        t,
        "texture2DProjLodEXT",
        ext_shader_texture_lod,
        None,
        s2,
        true,
        Txl,
        v(),
    );
    legacy(
        t,
        "textureCubeLodEXT",
        ext_shader_texture_lod,
        None,
        sc,
        false,
        Txl,
        v(),
    );
    legacy(
        t,
        "texture2DGradEXT",
        ext_shader_texture_lod,
        None,
        s2,
        false,
        Txd,
        v(),
    );
    legacy(
        t,
        "texture2DProjGradEXT",
        ext_shader_texture_lod,
        None,
        s2,
        true,
        Txd,
        v(),
    );
    legacy(
        t,
        "textureCubeGradEXT",
        ext_shader_texture_lod,
        None,
        sc,
        false,
        Txd,
        v(),
    );

    // ES 1.00 EXT_shadow_samplers.
    legacy(
        t,
        "shadow2DEXT",
        ext_shadow_samplers,
        None,
        s2s,
        false,
        Tex,
        Type::FLOAT,
    );
    legacy(
        t,
        "shadow2DProjEXT",
        ext_shadow_samplers,
        None,
        s2s,
        true,
        Tex,
        Type::FLOAT,
    );

    // ES 1.00 OES_EGL_image_external (the sampler gate checks the extension).
    legacy(t, "texture2D", es100, None, ext, false, Tex, v());
    legacy(t, "texture2DProj", es100, None, ext, true, Tex, v());

    // EXT_texture_array names.
    legacy(
        t,
        "texture1DArray",
        ext_texture_array,
        Some(ext_texture_array_fs),
        s1a,
        false,
        Tex,
        v(),
    );
    legacy(
        t,
        "texture1DArrayLod",
        ext_texture_array_lod,
        None,
        s1a,
        false,
        Txl,
        v(),
    );
    legacy(
        t,
        "texture2DArray",
        ext_texture_array,
        Some(ext_texture_array_fs),
        s2a,
        false,
        Tex,
        v(),
    );
    legacy(
        t,
        "texture2DArrayLod",
        ext_texture_array_lod,
        None,
        s2a,
        false,
        Txl,
        v(),
    );
    legacy(
        t,
        "shadow1DArray",
        ext_texture_array,
        Some(ext_texture_array_fs),
        s1as,
        false,
        Tex,
        v(),
    );
    legacy(
        t,
        "shadow1DArrayLod",
        ext_texture_array_lod,
        None,
        s1as,
        false,
        Txl,
        v(),
    );
    legacy(
        t,
        "shadow2DArray",
        ext_texture_array,
        None,
        s2as,
        false,
        Tex,
        v(),
    );
    let _ = (always, derivatives);
}

/// Adds every texture function to the table.
pub(crate) fn add_texture_functions(t: &mut TableBuilder) {
    add_modern(t);
    add_legacy(t);
    gather::add_gather(t);
}

/// Mesa's names of a lookup's parameters, in order (`sampler`, `P`, `lod`,
/// `sample`, `dPdx`, `dPdy`, `offset`, `bias`).
pub(crate) fn parameter_names(form: TextureForm) -> Vec<&'static str> {
    if let Some(g) = form.gather {
        return gather::parameter_names(form, g);
    }
    let mut names = vec!["sampler"];
    if !matches!(form.op, TexOp::Txs | TexOp::QueryLevels) {
        names.push("P");
        if separate_compare(form.sampler) && form.op != TexOp::Lod {
            names.push("compare");
        }
    }
    match form.op {
        TexOp::Txl | TexOp::Txf | TexOp::Txs if form.lod_param => names.push("lod"),
        TexOp::TxfMs => names.push("sample"),
        TexOp::Txd => names.extend(["dPdx", "dPdy"]),
        _ => {}
    }
    if form.offset {
        names.push("offset");
    }
    if form.op == TexOp::Txb {
        names.push("bias");
    }
    names
}

// ---------------------------------------------------------------------------
// Expansion.

/// Builds the `ir_texture` node of a lookup from its arguments (which follow
/// the parameter order documented on [`TextureForm`]). `take` yields a fresh
/// expression for argument `i` and `swizzle` builds a swizzle of one; both come
/// from the expander so argument reuse is handled in one place.
pub(crate) fn build_texture(
    form: TextureForm,
    return_type: &Type,
    p_type: Option<&Type>,
    b: &mut super::expand::Builder<'_>,
) -> Option<crate::arena::Handle<crate::hir::Expr>> {
    use crate::hir::Texture;
    if let Some(g) = form.gather {
        return gather::build_gather(form, g, return_type, b);
    }
    let s = form.sampler;
    let sampler_arg = b.arg(0)?;
    let mut next = 1;
    let mut texture = Texture {
        op: form.op,
        sampler: sampler_arg,
        coordinate: None,
        offset: None,
        projector: None,
        shadow_comparator: None,
        lod: None,
        grad: None,
    };
    if form.op == TexOp::Lod {
        // textureQueryLOD: `P` is the coordinate without the array layer, and
        // shadow samplers take no depth reference.
        texture.coordinate = Some(b.arg(1)?);
        return Some(b.expr(ExprKind::Texture(Box::new(texture)), return_type.clone()));
    }
    if !matches!(form.op, TexOp::Txs | TexOp::QueryLevels) {
        let p_type = p_type?;
        let p_size = p_type.vector_elements();
        let coord = coordinate_components(s);
        texture.coordinate = Some(if coord == p_size {
            b.arg(next)?
        } else {
            let arg = b.arg(next)?;
            b.swizzle(arg, &[0, 1, 2, 3][..coord as usize])
        });
        if form.proj {
            let arg = b.arg(next)?;
            texture.projector = Some(b.swizzle(arg, &[p_size - 1]));
        }
        if separate_compare(s) {
            texture.shadow_comparator = Some(b.arg(next + 1)?);
            next += 1;
        } else if s.shadow {
            let arg = b.arg(next)?;
            texture.shadow_comparator = Some(b.swizzle(arg, &[coord.max(2)]));
        }
        next += 1;
    }
    match form.op {
        TexOp::Txl | TexOp::TxfMs | TexOp::Txf | TexOp::Txs => {
            if form.lod_param {
                texture.lod = Some(b.arg(next)?);
                next += 1;
            } else {
                texture.lod = Some(b.constant(
                    Type::INT,
                    Constant::Components(smallvec::smallvec![ScalarValue::Int(0)]),
                ));
            }
        }
        TexOp::Txd => {
            let dpdx = b.arg(next)?;
            let dpdy = b.arg(next + 1)?;
            texture.grad = Some((dpdx, dpdy));
            next += 2;
        }
        TexOp::Tex | TexOp::Txb | TexOp::Lod | TexOp::QueryLevels | TexOp::Tg4 => {}
    }
    if form.offset {
        texture.offset = Some(b.arg(next)?);
        next += 1;
    }
    if form.op == TexOp::Txb {
        texture.lod = Some(b.arg(next)?);
    }
    Some(b.expr(ExprKind::Texture(Box::new(texture)), return_type.clone()))
}
