//! Finalization of a variant's NIR for its [`VariantKey`]: the key is turned into
//! rgl-nir's [`VariantLowering`] (with the state-tracker uniform slots) and the
//! lowering passes run on a clone of the program's final NIR before the driver
//! compiles it (Mesa's `st_create_fp_variant` / `st_create_common_variant`).

use rgl_nir::finalize::{finalize_variant, VariantLowering};
use rgl_nir::ir::{Shader, Stage};
use rgl_nir::passes::lower_alpha_test::CompareFunc;
use rgl_nir::passes::Runner;

use crate::gl;
use crate::variants::{VariantKey, STATE_SLOT_ALPHA_REF, STATE_SLOT_CLIP_PLANE0};

fn compare_func(f: u32) -> CompareFunc {
    match f {
        gl::NEVER => CompareFunc::Never,
        gl::LESS => CompareFunc::Less,
        gl::EQUAL => CompareFunc::Equal,
        gl::LEQUAL => CompareFunc::Lequal,
        gl::GREATER => CompareFunc::Greater,
        gl::NOTEQUAL => CompareFunc::Notequal,
        gl::GEQUAL => CompareFunc::Gequal,
        _ => CompareFunc::Always,
    }
}

/// The lowering options of `key` for one stage. `last_vertex` says whether the
/// stage is the last before rasterization; `state_base` is the first vec4 uniform
/// slot of the state-tracker uniforms.
pub(crate) fn lowering(
    key: &VariantKey,
    stage: Stage,
    last_vertex: bool,
    state_base: u32,
) -> VariantLowering {
    let mut l = VariantLowering {
        alpha_ref_slot: state_base + STATE_SLOT_ALPHA_REF,
        clip_plane_slot: state_base + STATE_SLOT_CLIP_PLANE0,
        ..VariantLowering::default()
    };
    if stage == Stage::Fragment {
        l.flatshade = key.flatshade;
        l.two_sided_color = key.two_sided_color;
        if key.alpha_func != 0 {
            l.alpha_func = compare_func(key.alpha_func);
        }
    } else if last_vertex {
        l.clamp_color = key.clamp_vertex_color;
        l.ucp_enables = key.ucp;
    }
    l
}

/// Lowers `nir` for `key` (see [`lowering`]); an error names the pass that failed.
pub(crate) fn finalize(
    nir: &mut Shader,
    key: &VariantKey,
    last_vertex: bool,
    state_base: u32,
) -> Result<(), String> {
    let opts = lowering(key, nir.stage, last_vertex, state_base);
    if opts.is_noop() {
        return Ok(());
    }
    let mut runner = Runner::new();
    finalize_variant(nir, &opts, &mut runner)
        .map(|_| ())
        .map_err(|e| format!("draw-time lowering failed: {e}"))
}
