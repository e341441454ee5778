//! `lower_clamp_color_outputs` (Mesa's `nir_lower_clamp_color_outputs`, the
//! `clamp_color` variant key): every float `store_output` of a color output stores
//! `fsat(value)` instead of `value`, emulating `GL_CLAMP_VERTEX_COLOR` /
//! `GL_CLAMP_FRAGMENT_COLOR` in the shader.
//!
//! Color outputs are, as in Mesa: in vertex, tessellation evaluation and geometry
//! shaders `VARYING_SLOT_COL0`, `COL1`, `BFC0` and `BFC1`; in fragment shaders
//! `FRAG_RESULT_COLOR` and every `FRAG_RESULT_DATAn`. Integer outputs are never
//! clamped. A store whose value is already known to be in [0, 1] (an `fsat`, a
//! `b2f32`, a constant in range, an undefined value, a `vecN` of those) is left alone, so the pass is idempotent and the
//! optimisation loop, which folds such `fsat`s away, still reaches a fixed point. Other stages are left unchanged.

use super::variant_util::*;
use super::{for_each_impl, Pass, PassFailure};
use crate::builder::{Builder, Cursor};
use crate::intrinsics::IntrinsicOp;
use crate::ir::names::{
    FRAG_RESULT_COLOR, FRAG_RESULT_DATA0, VARYING_SLOT_BFC0, VARYING_SLOT_BFC1, VARYING_SLOT_COL0,
    VARYING_SLOT_COL1,
};
use crate::ir::*;
use crate::opcodes::Opcode;

/// The pass.
pub struct LowerClampColorOutputs;

impl Pass for LowerClampColorOutputs {
    fn name(&self) -> &'static str {
        "lower_clamp_color_outputs"
    }
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure> {
        Ok(lower_clamp_color_outputs(shader))
    }
}

/// True when output `location` (spanning `slots` slots) includes a color of `stage`.
pub fn is_color_output(stage: Stage, location: i32, slots: u32) -> bool {
    let end = i64::from(location) + i64::from(slots.max(1));
    let covers = |l: i32| i64::from(location) <= i64::from(l) && i64::from(l) < end;
    match stage {
        Stage::Vertex | Stage::TessEval | Stage::Geometry => [
            VARYING_SLOT_COL0,
            VARYING_SLOT_COL1,
            VARYING_SLOT_BFC0,
            VARYING_SLOT_BFC1,
        ]
        .into_iter()
        .any(covers),
        Stage::Fragment => covers(FRAG_RESULT_COLOR) || end > i64::from(FRAG_RESULT_DATA0),
        Stage::TessCtrl | Stage::Compute => false,
    }
}

/// Saturates every float color output store; returns true when a store changed.
fn lower_clamp_color_outputs(shader: &mut Shader) -> bool {
    let stage = shader.stage;
    for_each_impl(shader, |func| lower_impl(stage, func))
}

fn lower_impl(stage: Stage, func: &mut FunctionImpl) -> bool {
    let mut progress = false;
    for instr in all_instrs(func) {
        let Some(intr) = intrinsic_of(func, instr) else {
            continue;
        };
        if intr.op != IntrinsicOp::store_output || !is_float_io(intr) {
            continue;
        }
        let Some((location, slots)) = io_location(intr) else {
            continue;
        };
        if !is_color_output(stage, location, slots) {
            continue;
        }
        let Some(&value) = intr.srcs.first() else {
            continue;
        };
        if func.defs[value].bit_size != 32 || is_saturated(func, value) {
            continue;
        }
        let mut b = Builder::new(func, Cursor::Before(instr));
        let sat = b.alu_defs(Opcode::fsat, &[value]);
        if let InstrKind::Intrinsic(intr) = &mut func.instrs[instr].kind {
            intr.srcs[0] = sat;
        }
        progress = true;
    }
    progress
}

/// True when `def` is known to lie in [0, 1] already: an `fsat`, a `b2f32`, a
/// constant whose components all are in [0, 1], an undefined value, or a
/// `mov`/`vecN` of such values
/// (what `opt_algebraic`, constant folding and `lower_alu_to_scalar` leave of an
/// `fsat`, so the optimisation loop reaches a fixed point).
fn is_saturated(func: &FunctionImpl, def: Def) -> bool {
    saturated_within(func, def, 2)
}

fn saturated_within(func: &FunctionImpl, def: Def, depth: u32) -> bool {
    let Some(data) = func.defs.get(def) else {
        return false;
    };
    match &func.instrs[data.instr].kind {
        InstrKind::Alu(alu) => match alu.op {
            Opcode::fsat | Opcode::b2f32 => true,
            Opcode::mov | Opcode::vec2 | Opcode::vec3 | Opcode::vec4 if depth > 0 => alu
                .srcs
                .iter()
                .all(|s| saturated_within(func, s.def, depth - 1)),
            _ => false,
        },
        InstrKind::LoadConst(values) => values.iter().all(|v| {
            let f = f32::from_bits(*v as u32);
            (0.0..=1.0).contains(&f)
        }),
        // Any value will do for an undefined one, an in-range one included.
        InstrKind::Undef => true,
        _ => false,
    }
}
