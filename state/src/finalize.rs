//! Finalization of a variant's NIR for its [`VariantKey`]: the state-dependent
//! lowering passes (Mesa's `st_create_fp_variant` / `st_create_common_variant`
//! sequence) run on a clone of the program's final NIR before the driver compiles
//! it.

use rgl_nir::ir::{Shader, Stage};

use crate::variants::VariantKey;

/// Lowers `nir` for `key`. `last_vertex` says whether `nir` is the last stage
/// before rasterization; `state_base` is the first vec4 uniform slot of the
/// state-tracker uniforms (see `variants::STATE_SLOT_*`). A key asking for a
/// lowering rgl cannot do yet is an error naming it.
pub(crate) fn finalize(
    nir: &mut Shader,
    key: &VariantKey,
    last_vertex: bool,
    state_base: u32,
) -> Result<(), String> {
    let _ = state_base;
    let mut missing = Vec::new();
    if nir.stage == Stage::Fragment {
        if key.flatshade {
            missing.push("flat shading of color inputs (glShadeModel(GL_FLAT))");
        }
        if key.two_sided_color {
            missing.push("two-sided color (GL_VERTEX_PROGRAM_TWO_SIDE)");
        }
        if key.alpha_func != 0 {
            missing.push("the alpha test (GL_ALPHA_TEST)");
        }
    } else if last_vertex {
        if key.ucp != 0 {
            missing.push("user clip planes without gl_ClipDistance (glClipPlane)");
        }
        if key.clamp_vertex_color {
            missing.push("vertex color clamping");
        }
    }
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "unsupported draw-time lowering: {}",
            missing.join(", ")
        ))
    }
}
