//! `lower_clip_planes` (the `lower_ucp` variant key: Mesa's `lower_ucp` in
//! `st_program.c`, i.e. `nir_lower_clip_disable` or `nir_lower_clip_vs` /
//! `nir_lower_clip_gs`): user clip planes (`glClipPlane` + `GL_CLIP_PLANEi`) for
//! drivers that only clip against `gl_ClipDistance`.
//!
//! Parameters: `enables` (bit `i` = plane `i` is enabled) and `first_slot`, the first
//! of 8 consecutive vec4 uniform slots holding the planes (plane `i` at
//! `first_slot + i`; the state tracker fills them, eye-space `glClipPlane` values for
//! user programs as Mesa's `STATE_CLIPPLANE`).
//!
//! * A shader that writes `gl_ClipDistance` itself gets `lower_clip_disable`: the
//!   distances of disabled planes become `0.0`.
//! * Otherwise the clip vertex is `gl_ClipVertex` (`VARYING_SLOT_CLIP_VERTEX`) when
//!   the shader writes it, else `gl_Position`. Right after every `store_output` of the
//!   clip vertex the pass stores `gl_ClipDistance[i] = dot(clip_vertex, plane_i)` for
//!   every plane up to the last enabled one (disabled ones in between get `0.0`), in
//!   Mesa's compact layout: planes `4s..4s+3` are components of one `store_output` to
//!   `VARYING_SLOT_CLIP_DIST0 + s`. Storing after each clip-vertex store keeps the
//!   distances in step with the vertex on every path, and before every
//!   `emit_vertex` of a geometry shader. Clip-vertex channels a store does not write
//!   come from an earlier store in the same block, else are `0.0` (undefined in GL).
//! * The distances go to the `shader_out` variable `float gl_ClipDistance[n]` at
//!   `VARYING_SLOT_CLIP_DIST0` (added at the next free driver location, `info.outputs`
//!   grows; an existing unwritten one is reused, widened when too short).
//!
//! A shader that writes neither the clip vertex nor `gl_Position` is left unchanged.
//! The pass is idempotent: a second run sees the distances and only re-zeroes
//! disabled planes, which already are `0.0`. Vertex, tessellation evaluation and
//! geometry stages only.

use super::args::{parse_u32, parse_u8, FromPassArgs, PassArgs, PassArgsError};
use super::lower_clip_disable::{lower_clip_disable, writes_clip_distance};
use super::lower_io::compact_len;
use super::variant_util::*;
use super::{Pass, PassFailure};
use crate::builder::{Builder, Cursor};
use crate::intrinsics::{IndexKind, IntrinsicOp};
use crate::ir::names::{VARYING_SLOT_CLIP_DIST0, VARYING_SLOT_CLIP_VERTEX, VARYING_SLOT_POS};
use crate::ir::*;
use crate::opcodes::Opcode;

/// The pass with its parameters.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct LowerClipPlanes {
    /// Enabled clip planes (bit `i` = plane `i`).
    pub enables: u8,
    /// First of the 8 vec4 uniform slots holding the planes.
    pub first_slot: u32,
}

impl FromPassArgs for LowerClipPlanes {
    /// `enables=MASK slot=N`, both required.
    fn from_args(args: &mut PassArgs<'_>) -> Result<Self, PassArgsError> {
        Ok(LowerClipPlanes {
            enables: args.required("enables", "an 8-bit mask", parse_u8)?,
            first_slot: args.required("slot", "a number", parse_u32)?,
        })
    }
}

impl Pass for LowerClipPlanes {
    fn name(&self) -> &'static str {
        "lower_clip_planes"
    }
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure> {
        lower_clip_planes(shader, self.enables, self.first_slot)
    }
}

/// True when the shader stores `gl_ClipVertex` (its planes are then dotted with it;
/// otherwise with `gl_Position`).
pub fn writes_clip_vertex(shader: &Shader) -> bool {
    shader
        .functions
        .iter()
        .filter_map(|(_, f)| f.body.as_ref())
        .any(|body| !source_stores(body, VARYING_SLOT_CLIP_VERTEX).is_empty())
}

/// Lowers user clip planes; returns true on any change.
fn lower_clip_planes(
    shader: &mut Shader,
    enables: u8,
    first_slot: u32,
) -> Result<bool, PassFailure> {
    if !matches!(
        shader.stage,
        Stage::Vertex | Stage::TessEval | Stage::Geometry
    ) || enables == 0
    {
        return Ok(false);
    }
    if writes_clip_distance(shader) {
        return lower_clip_disable(shader, enables);
    }
    let source = if writes_clip_vertex(shader) {
        VARYING_SLOT_CLIP_VERTEX
    } else {
        VARYING_SLOT_POS
    };
    let ids: Vec<FuncId> = shader.functions.keys().collect();
    let mut work: Vec<(FuncId, Vec<SourceStore>)> = Vec::new();
    for &id in &ids {
        if let Some(body) = &shader.functions[id].body {
            let stores = source_stores(body, source);
            if !stores.is_empty() {
                work.push((id, stores));
            }
        }
    }
    if work.is_empty() {
        return Ok(false);
    }
    let count = 8 - enables.leading_zeros();
    let base = clip_distance_output(shader, count);
    for (id, stores) in work {
        let Some(body) = shader.functions[id].body.as_mut() else {
            continue;
        };
        for (instr, channels) in stores {
            let mut b = Builder::new(body, Cursor::After(instr));
            emit_distances(&mut b, &channels, enables, count, first_slot, base);
        }
    }
    Ok(true)
}

/// The output variable for `count` distances; returns its driver location.
fn clip_distance_output(shader: &mut Shader, count: u32) -> u32 {
    let ty = Type::Array(Box::new(Type::Scalar(BaseType::Float)), count);
    if let Some(v) = find_io_var(shader, VarMode::ShaderOut, VARYING_SLOT_CLIP_DIST0) {
        let stage = shader.stage;
        if compact_len(stage, &shader.variables[v]).unwrap_or(0) < count {
            // Too short: widen it and move it past the other outputs.
            let others = shader
                .globals
                .iter()
                .filter(|g| **g != v)
                .map(|g| &shader.variables[*g])
                .filter(|o| o.mode == VarMode::ShaderOut)
                .map(|o| {
                    o.driver_location.saturating_add(super::lower_io::io_slots(
                        stage,
                        o,
                        &shader.structs,
                    ))
                })
                .fold(0, u32::max);
            let dl = others.max(shader.info.num_outputs);
            let var = &mut shader.variables[v];
            var.ty = ty;
            var.driver_location = dl;
            shader.info.num_outputs = dl.saturating_add(count.div_ceil(4));
        }
        // Unwritten, so nothing depends on its first component: start at x.
        shader.variables[v].location_frac = 0;
        return shader.variables[v].driver_location;
    }
    let mut var = Variable::new("gl_ClipDistance", VarMode::ShaderOut, ty);
    var.location = VARYING_SLOT_CLIP_DIST0;
    let v = add_io_var(shader, var);
    shader.variables[v].driver_location
}

/// A clip-vertex store and the clip-vertex channels known right after it.
type SourceStore = (Instr, [Option<AluSrc>; 4]);

/// The stores of output `location` with the clip-vertex channels known right after
/// each (from the store itself or earlier stores in its block).
fn source_stores(func: &FunctionImpl, location: i32) -> Vec<SourceStore> {
    let mut out = Vec::new();
    for block in func.blocks_in_order() {
        let mut latest: [Option<AluSrc>; 4] = [None; 4];
        for instr in func.block_instrs(block) {
            let Some(intr) = intrinsic_of(func, instr) else {
                continue;
            };
            if intr.op != IntrinsicOp::store_output
                || io_location(intr).map(|(l, _)| l) != Some(location)
                || const_offset(func, intr) != Some(0)
            {
                continue;
            }
            let component = index(intr, IndexKind::Component).unwrap_or(0);
            let wrmask = index(intr, IndexKind::WriteMask).unwrap_or(0);
            let Some(&value) = intr.srcs.first() else {
                continue;
            };
            for c in 0..intr.num_components.min(4) {
                let chan = component + u32::from(c);
                if wrmask & (1 << c) != 0 && chan < 4 {
                    let mut s = AluSrc::new(value);
                    s.swizzle[0] = c;
                    latest[chan as usize] = Some(s);
                }
            }
            out.push((instr, latest));
        }
    }
    out
}

/// Emits the distance stores at the builder's cursor.
fn emit_distances(
    b: &mut Builder,
    channels: &[Option<AluSrc>; 4],
    enables: u8,
    count: u32,
    first_slot: u32,
    base: u32,
) {
    let zero = b.imm_f32(0.0);
    let chans: Vec<AluSrc> = channels
        .iter()
        .map(|c| c.unwrap_or(AluSrc::new(zero)))
        .collect();
    let cv = b.alu(Opcode::vec4, chans, 4);
    for slot in 0..count.div_ceil(4) {
        let k = (count - 4 * slot).min(4);
        let mut dists = Vec::new();
        for j in 0..k {
            let plane = 4 * slot + j;
            let d = if enables & (1 << plane) != 0 {
                match build_load_uniform(b, first_slot.saturating_add(plane), 4) {
                    Some(p) => b.alu_defs(Opcode::fdot4, &[cv, p]),
                    None => zero,
                }
            } else {
                zero
            };
            dists.push(AluSrc::new(d));
        }
        let value = match k {
            1 => dists[0].def,
            2 => b.alu(Opcode::vec2, dists, 2),
            3 => b.alu(Opcode::vec3, dists, 3),
            _ => b.alu(Opcode::vec4, dists, 4),
        };
        build_store_output(
            b,
            value,
            base.saturating_add(slot),
            0,
            VARYING_SLOT_CLIP_DIST0 + slot as i32,
        );
    }
}
