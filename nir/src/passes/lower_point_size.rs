//! `lower_point_size` (Mesa's `nir_lower_point_size_mov` as `st_nir_lower_point_size`
//! uses it, the `export_point_size` variant key): the last vertex stage writes
//! `gl_PointSize` from state, `load_uniform(slot).x` (the state tracker puts the
//! clamped `glPointSize` value there), for drivers without a fixed-function point size.
//!
//! * The output is the `shader_out` variable at `VARYING_SLOT_PSIZ`; when the shader
//!   has none, a `float gl_PointSize` output is added at the next free driver
//!   location (`info.outputs` grows).
//! * Vertex and tessellation evaluation shaders store the uniform at the start of the
//!   entry point and again right after every store of their own to `PSIZ` (with
//!   `GL_PROGRAM_POINT_SIZE` off the shader's value is ignored, so state wins).
//! * Geometry shaders store it right before every `emit_vertex` (outputs are
//!   undefined after an emit).
//! * A store already in place (a `PSIZ` store of `load_uniform` of `slot`) is not
//!   repeated, so the pass is idempotent. Other stages are left unchanged.

use super::args::{parse_u32, FromPassArgs, PassArgs, PassArgsError};
use super::variant_util::*;
use super::{Pass, PassFailure};
use crate::builder::{Builder, Cursor};
use crate::intrinsics::{IndexKind, IntrinsicOp};
use crate::ir::names::VARYING_SLOT_PSIZ;
use crate::ir::*;

/// The pass with its parameter.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct LowerPointSize {
    /// The vec4 uniform slot whose `x` holds the point size.
    pub slot: u32,
}

impl FromPassArgs for LowerPointSize {
    /// `slot=N`, required.
    fn from_args(args: &mut PassArgs<'_>) -> Result<Self, PassArgsError> {
        Ok(LowerPointSize {
            slot: args.required("slot", "a number", parse_u32)?,
        })
    }
}

impl Pass for LowerPointSize {
    fn name(&self) -> &'static str {
        "lower_point_size"
    }
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure> {
        Ok(lower_point_size(shader, self.slot))
    }
}

/// Writes `gl_PointSize = load_uniform(slot).x`; returns true on any change.
fn lower_point_size(shader: &mut Shader, slot: u32) -> bool {
    let stage = shader.stage;
    if !matches!(stage, Stage::Vertex | Stage::TessEval | Stage::Geometry) {
        return false;
    }
    let Some(entry) = entry_point(shader) else {
        return false;
    };
    // Where the stores go, decided before the output exists.
    let Some(body) = shader.functions[entry].body.as_ref() else {
        return false;
    };
    let mut cursors = Vec::new();
    let instrs = all_instrs(body);
    if stage == Stage::Geometry {
        for (i, &instr) in instrs.iter().enumerate() {
            let is_emit =
                intrinsic_of(body, instr).is_some_and(|x| x.op == IntrinsicOp::emit_vertex);
            let prev_ours = is_emit
                && nearest_psiz_store(body, &instrs, i, true)
                    .is_some_and(|s| is_our_store(body, s, slot));
            if is_emit && !prev_ours {
                cursors.push(Cursor::Before(instr));
            }
        }
    } else {
        let first = body.blocks_in_order().into_iter().next();
        let ours_at_start = first.is_some_and(|b| {
            body.block_instrs(b)
                .iter()
                .any(|&i| is_our_store(body, i, slot))
        });
        if !ours_at_start {
            if let Some(first) = first {
                cursors.push(Builder::after_phis(body, first));
            }
        }
        for (i, &instr) in instrs.iter().enumerate() {
            let is_user_store = intrinsic_of(body, instr).is_some_and(|x| {
                x.op == IntrinsicOp::store_output
                    && io_location(x).is_some_and(|(l, _)| l == VARYING_SLOT_PSIZ)
            }) && !is_our_store(body, instr, slot);
            let next_ours = is_user_store
                && nearest_psiz_store(body, &instrs, i, false)
                    .is_some_and(|s| is_our_store(body, s, slot));
            if is_user_store && !next_ours {
                cursors.push(Cursor::After(instr));
            }
        }
    }
    if cursors.is_empty() {
        return false;
    }
    let var = match find_io_var(shader, VarMode::ShaderOut, VARYING_SLOT_PSIZ) {
        Some(v) => v,
        None => {
            let mut var = Variable::new(
                "gl_PointSize",
                VarMode::ShaderOut,
                Type::Scalar(BaseType::Float),
            );
            var.location = VARYING_SLOT_PSIZ;
            add_io_var(shader, var)
        }
    };
    let (base, component) = {
        let v = &shader.variables[var];
        (v.driver_location, u32::from(v.location_frac))
    };
    let Some(body) = shader.functions[entry].body.as_mut() else {
        return false;
    };
    for cursor in cursors {
        let mut b = Builder::new(body, cursor);
        if let Some(size) = build_load_uniform(&mut b, slot, 1) {
            build_store_output(&mut b, size, base, component, VARYING_SLOT_PSIZ);
        }
    }
    true
}

/// True for a `PSIZ` store of `load_uniform` of `slot` (what this pass emits).
fn is_our_store(func: &FunctionImpl, instr: Instr, slot: u32) -> bool {
    let Some(intr) = intrinsic_of(func, instr) else {
        return false;
    };
    intr.op == IntrinsicOp::store_output
        && io_location(intr).is_some_and(|(l, _)| l == VARYING_SLOT_PSIZ)
        && intr.srcs.first().is_some_and(|&v| {
            def_intrinsic(func, v).is_some_and(|u| {
                u.op == IntrinsicOp::load_uniform && index(u, IndexKind::Base) == Some(slot)
            })
        })
}

/// The nearest `PSIZ` store before (`backwards`) or after instruction `i` of `instrs`
/// in the same block, not crossing an `emit_vertex`.
fn nearest_psiz_store(
    func: &FunctionImpl,
    instrs: &[Instr],
    i: usize,
    backwards: bool,
) -> Option<Instr> {
    let block = func.instr_block(*instrs.get(i)?);
    let candidates: Box<dyn Iterator<Item = &Instr>> = if backwards {
        Box::new(instrs[..i].iter().rev())
    } else {
        Box::new(instrs[i + 1..].iter())
    };
    for &instr in candidates {
        if func.instr_block(instr) != block {
            return None;
        }
        let Some(intr) = intrinsic_of(func, instr) else {
            continue;
        };
        if intr.op == IntrinsicOp::emit_vertex {
            return None;
        }
        if intr.op == IntrinsicOp::store_output
            && io_location(intr).is_some_and(|(l, _)| l == VARYING_SLOT_PSIZ)
        {
            return Some(instr);
        }
    }
    None
}
