//! `lower_flatshade` (Mesa's `nir_lower_flatshade`, the `lower_flatshade` variant key
//! set by `glShadeModel(GL_FLAT)`): fragment color inputs without an interpolation
//! qualifier become flat.
//!
//! * Variables: `shader_in` variables at `VARYING_SLOT_COL0`, `COL1`, `BFC0` or
//!   `BFC1` with `INTERP_MODE_NONE` get `INTERP_MODE_FLAT` (what a driver reading
//!   the variables derives its interpolation from).
//! * Loads: every `load_interpolated_input` of one of those slots whose barycentric
//!   (`load_barycentric_*`) has `interp_mode=0` (NONE) becomes a `load_input` with the
//!   same base, component, type, IO semantics and offset (what a driver reading the
//!   loads derives flat interpolation from). The barycentric is left for `opt_dce`.
//!
//! Colors explicitly qualified `smooth` or `noperspective` keep their interpolation,
//! as in GL (the shade model only affects unqualified colors). Other stages are left
//! unchanged. The pass is idempotent.

use super::variant_util::*;
use super::{for_each_impl, Pass, PassFailure};
use crate::builder::{Builder, Cursor};
use crate::intrinsics::{IndexKind, IntrinsicOp};
use crate::ir::names::{
    VARYING_SLOT_BFC0, VARYING_SLOT_BFC1, VARYING_SLOT_COL0, VARYING_SLOT_COL1,
};
use crate::ir::*;

/// The pass.
pub struct LowerFlatshade;

impl Pass for LowerFlatshade {
    fn name(&self) -> &'static str {
        "lower_flatshade"
    }
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure> {
        Ok(lower_flatshade(shader))
    }
}

/// True for the color varyings the shade model applies to.
pub fn is_color_varying(location: i32) -> bool {
    matches!(
        location,
        VARYING_SLOT_COL0 | VARYING_SLOT_COL1 | VARYING_SLOT_BFC0 | VARYING_SLOT_BFC1
    )
}

/// Makes unqualified fragment color inputs flat; returns true on any change.
fn lower_flatshade(shader: &mut Shader) -> bool {
    if shader.stage != Stage::Fragment {
        return false;
    }
    let mut progress = false;
    for &v in &shader.globals {
        let var = &mut shader.variables[v];
        if var.mode == VarMode::ShaderIn
            && is_color_varying(var.location)
            && var.interp == Interp::None
        {
            var.interp = Interp::Flat;
            progress = true;
        }
    }
    progress | for_each_impl(shader, lower_impl)
}

fn lower_impl(func: &mut FunctionImpl) -> bool {
    let mut progress = false;
    for instr in all_instrs(func) {
        let Some(intr) = intrinsic_of(func, instr) else {
            continue;
        };
        if intr.op != IntrinsicOp::load_interpolated_input {
            continue;
        }
        let Some((location, 1)) = io_location(intr) else {
            continue;
        };
        if !is_color_varying(location) {
            continue;
        }
        let [bary, offset] = intr.srcs[..] else {
            continue;
        };
        let unqualified = def_intrinsic(func, bary).is_some_and(|b| {
            b.op.info().name.starts_with("load_barycentric_")
                && index(b, IndexKind::InterpMode) == Some(0)
        });
        if !unqualified {
            continue;
        }
        let (Some(base), Some(component), Some(ty), Some(sem), Some(old)) = (
            index(intr, IndexKind::Base),
            index(intr, IndexKind::Component),
            index(intr, IndexKind::DestType),
            index(intr, IndexKind::IoSemantics),
            func.instrs[instr].def,
        ) else {
            continue;
        };
        let n = intr.num_components;
        let bits = func.defs[old].bit_size;
        let mut b = Builder::new(func, Cursor::Before(instr));
        let Some(flat) = b.intrinsic(
            IntrinsicOp::load_input,
            vec![offset],
            n,
            vec![base, 1, component, ty, sem],
            Some((n, bits)),
        ) else {
            continue;
        };
        func.rewrite_uses(None, old, flat);
        func.remove_instr(instr);
        progress = true;
    }
    progress
}
