//! `lower_clip_disable` (Mesa's `nir_lower_clip_disable`): in a shader that writes
//! `gl_ClipDistance` itself, the distances of clip planes that are not enabled are
//! written as `0.0`, so hardware that clips against every written distance clips only
//! against the enabled ones. `lower_clip_planes` runs it when the `lower_ucp` key is
//! set and the shader writes clip distances.
//!
//! Works on the compact layout `lower_io` produces: element `i` is component `i % 4`
//! of the `store_output` to `VARYING_SLOT_CLIP_DIST0 + i / 4`. Every written channel
//! of a plane outside `enables` (bit `i` = plane `i`) is replaced by a `0.0`
//! constant; channels already `0.0` stay, so the pass is idempotent. A store with a
//! dynamic slot offset (which `lower_io` never emits for compact arrays) is refused
//! with an error. Vertex, tessellation and geometry stages only.

use super::args::{parse_u8, FromPassArgs, PassArgs, PassArgsError};
use super::variant_util::*;
use super::{Pass, PassFailure};
use crate::builder::{Builder, Cursor};
use crate::intrinsics::{IndexKind, IntrinsicOp};
use crate::ir::names::{VARYING_SLOT_CLIP_DIST0, VARYING_SLOT_CLIP_DIST1};
use crate::ir::*;
use crate::opcodes::Opcode;

/// The pass with its parameter.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct LowerClipDisable {
    /// Enabled clip planes (bit `i` = plane `i`).
    pub enables: u8,
}

impl FromPassArgs for LowerClipDisable {
    /// `enables=MASK`, required.
    fn from_args(args: &mut PassArgs<'_>) -> Result<Self, PassArgsError> {
        Ok(LowerClipDisable {
            enables: args.required("enables", "an 8-bit mask", parse_u8)?,
        })
    }
}

impl Pass for LowerClipDisable {
    fn name(&self) -> &'static str {
        "lower_clip_disable"
    }
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure> {
        lower_clip_disable(shader, self.enables)
    }
}

/// The compact clip-distance slot (0 or 1) an IO location names.
pub fn clip_dist_slot(location: i32) -> Option<u32> {
    match location {
        VARYING_SLOT_CLIP_DIST0 => Some(0),
        VARYING_SLOT_CLIP_DIST1 => Some(1),
        _ => None,
    }
}

/// True when the shader stores to `gl_ClipDistance`.
pub fn writes_clip_distance(shader: &Shader) -> bool {
    shader.functions.iter().any(|(_, f)| {
        f.body.as_ref().is_some_and(|body| {
            all_instrs(body).into_iter().any(|i| {
                intrinsic_of(body, i).is_some_and(|x| {
                    x.op == IntrinsicOp::store_output
                        && io_location(x).is_some_and(|(l, _)| clip_dist_slot(l).is_some())
                })
            })
        })
    })
}

/// Zeroes the written distances of disabled planes; returns true on any change.
pub(crate) fn lower_clip_disable(shader: &mut Shader, enables: u8) -> Result<bool, PassFailure> {
    if !matches!(
        shader.stage,
        Stage::Vertex | Stage::TessEval | Stage::Geometry
    ) {
        return Ok(false);
    }
    let mut progress = false;
    let ids: Vec<FuncId> = shader.functions.keys().collect();
    for id in ids {
        if let Some(body) = shader.functions[id].body.as_mut() {
            progress |= lower_impl(body, enables)?;
        }
    }
    Ok(progress)
}

fn lower_impl(func: &mut FunctionImpl, enables: u8) -> Result<bool, PassFailure> {
    let mut progress = false;
    for instr in all_instrs(func) {
        let Some(intr) = intrinsic_of(func, instr) else {
            continue;
        };
        if intr.op != IntrinsicOp::store_output {
            continue;
        }
        let Some((location, _)) = io_location(intr) else {
            continue;
        };
        let Some(slot) = clip_dist_slot(location) else {
            continue;
        };
        if const_offset(func, intr) != Some(0) {
            return Err(PassFailure::ClipDistanceDynamicSlot);
        }
        let component = index(intr, IndexKind::Component).unwrap_or(0);
        let wrmask = index(intr, IndexKind::WriteMask).unwrap_or(0);
        let Some(&value) = intr.srcs.first() else {
            continue;
        };
        let n = intr.num_components;
        if !(1..=4).contains(&n) {
            continue;
        }
        let disabled = |c: u8| {
            let plane = slot * 4 + component + u32::from(c);
            wrmask & (1 << c) != 0 && (plane >= 8 || enables & (1 << plane) == 0)
        };
        let needs_zero: Vec<u8> = (0..n)
            .filter(|&c| disabled(c) && !is_zero_channel(func, value, c))
            .collect();
        if needs_zero.is_empty() {
            continue;
        }
        let mut b = Builder::new(func, Cursor::Before(instr));
        let zero = b.imm_f32(0.0);
        let new = if n == 1 {
            zero
        } else {
            let chans: Vec<AluSrc> = (0..n)
                .map(|c| {
                    if disabled(c) {
                        AluSrc::new(zero)
                    } else {
                        let mut s = AluSrc::new(value);
                        s.swizzle[0] = c;
                        s
                    }
                })
                .collect();
            let op = match n {
                2 => Opcode::vec2,
                3 => Opcode::vec3,
                _ => Opcode::vec4,
            };
            b.alu(op, chans, n)
        };
        if let InstrKind::Intrinsic(intr) = &mut func.instrs[instr].kind {
            intr.srcs[0] = new;
        }
        progress = true;
    }
    Ok(progress)
}

/// True when channel `c` of `value` is a constant `0.0` (directly, or through a
/// `vecN` gathering a constant `0.0`).
fn is_zero_channel(func: &FunctionImpl, value: Def, c: u8) -> bool {
    let instr = func.defs[value].instr;
    match &func.instrs[instr].kind {
        InstrKind::LoadConst(v) => v.get(usize::from(c)) == Some(&0),
        InstrKind::Alu(alu) if matches!(alu.op, Opcode::vec2 | Opcode::vec3 | Opcode::vec4) => {
            alu.srcs.get(usize::from(c)).is_some_and(|s| {
                func.const_value(s.def)
                    .and_then(|v| v.get(usize::from(s.swizzle[0])))
                    == Some(&0)
            })
        }
        _ => false,
    }
}
