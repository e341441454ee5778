//! `lower_two_sided_color` (Mesa's `nir_lower_two_sided_color`, the
//! `lower_two_sided_color` variant key set by `GL_VERTEX_PROGRAM_TWO_SIDE` /
//! two-sided lighting): the fragment shader picks the front or the back color by
//! `gl_FrontFacing`.
//!
//! * Every `load_input`/`load_interpolated_input` of `VARYING_SLOT_COL0` (`COL1`)
//!   gets a twin load of `VARYING_SLOT_BFC0` (`BFC1`) of the same shape (same
//!   barycentric, component, type and offset), and its uses read
//!   `bcsel(load_front_face, front, back)`.
//! * The back colors are `shader_in` variables (`gl_BackColor`,
//!   `gl_BackSecondaryColor`, `vec4`) with the front variable's interpolation,
//!   `centroid` and `sample` qualifiers, at driver locations after the existing
//!   inputs (`info.inputs` grows); an existing input at that slot is reused.
//! * Loads already selected this way are skipped, so the pass is idempotent.
//!
//! Run after `lower_flatshade` (Mesa's order): a flat front color gives a flat back
//! color. Other stages are left unchanged.

use super::variant_util::*;
use super::{Pass, PassFailure};
use crate::builder::{Builder, Cursor};
use crate::intrinsics::{IndexKind, IntrinsicOp};
use crate::ir::names::{
    VARYING_SLOT_BFC0, VARYING_SLOT_BFC1, VARYING_SLOT_COL0, VARYING_SLOT_COL1,
};
use crate::ir::*;
use crate::opcodes::Opcode;

/// The pass.
pub struct LowerTwoSidedColor;

impl Pass for LowerTwoSidedColor {
    fn name(&self) -> &'static str {
        "lower_two_sided_color"
    }
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure> {
        Ok(lower_two_sided_color(shader))
    }
}

/// A front color load to lower.
struct ColorLoad {
    func: FuncId,
    instr: Instr,
    /// 0 for COL0, 1 for COL1.
    color: usize,
}

/// Selects between front and back colors by facing; returns true on any change.
fn lower_two_sided_color(shader: &mut Shader) -> bool {
    if shader.stage != Stage::Fragment {
        return false;
    }
    let mut loads = Vec::new();
    for (id, f) in shader.functions.iter() {
        let Some(body) = &f.body else { continue };
        let uses = body.build_uses();
        for instr in all_instrs(body) {
            if let Some(color) = front_color_load(body, &uses, instr) {
                loads.push(ColorLoad {
                    func: id,
                    instr,
                    color,
                });
            }
        }
    }
    if loads.is_empty() {
        return false;
    }
    // The back color inputs, created on first need.
    let mut back_base = [None::<u32>; 2];
    for color in 0..2 {
        if !loads.iter().any(|l| l.color == color) {
            continue;
        }
        let back_loc = [VARYING_SLOT_BFC0, VARYING_SLOT_BFC1][color];
        let var = match find_io_var(shader, VarMode::ShaderIn, back_loc) {
            Some(v) => v,
            None => {
                let front_loc = [VARYING_SLOT_COL0, VARYING_SLOT_COL1][color];
                let front = find_io_var(shader, VarMode::ShaderIn, front_loc)
                    .map(|v| shader.variables[v].clone());
                let name = ["gl_BackColor", "gl_BackSecondaryColor"][color];
                let mut var =
                    Variable::new(name, VarMode::ShaderIn, Type::Vector(BaseType::Float, 4));
                var.location = back_loc;
                if let Some(front) = front {
                    var.interp = front.interp;
                    var.centroid = front.centroid;
                    var.sample = front.sample;
                }
                add_io_var(shader, var)
            }
        };
        back_base[color] = Some(shader.variables[var].driver_location);
    }
    let mut progress = false;
    for load in loads {
        let Some(base) = back_base[load.color] else {
            continue;
        };
        let Some(body) = shader.functions[load.func].body.as_mut() else {
            continue;
        };
        progress |= select_by_face(body, load.instr, base, load.color);
    }
    progress
}

/// The color index (0/1) of a front color load not lowered yet.
fn front_color_load(func: &FunctionImpl, uses: &Uses, instr: Instr) -> Option<usize> {
    let intr = intrinsic_of(func, instr)?;
    if !matches!(
        intr.op,
        IntrinsicOp::load_input | IntrinsicOp::load_interpolated_input
    ) {
        return None;
    }
    let color = match io_location(intr)? {
        (VARYING_SLOT_COL0, 1) => 0,
        (VARYING_SLOT_COL1, 1) => 1,
        _ => return None,
    };
    let def = func.instrs[instr].def?;
    // Already lowered: used by a bcsel on the facing whose other side loads a back color.
    let lowered = uses[def].iter().any(|&user| {
        let Some(user) = user.instr() else {
            return false;
        };
        let InstrKind::Alu(alu) = &func.instrs[user].kind else {
            return false;
        };
        alu.op == Opcode::bcsel
            && alu.srcs.len() == 3
            && alu.srcs[1].def == def
            && def_intrinsic(func, alu.srcs[0].def)
                .is_some_and(|i| i.op == IntrinsicOp::load_front_face)
            && def_intrinsic(func, alu.srcs[2].def).is_some_and(|i| {
                matches!(
                    io_location(i),
                    Some((VARYING_SLOT_BFC0 | VARYING_SLOT_BFC1, _))
                )
            })
    });
    (!lowered).then_some(color)
}

/// Adds the back load after `instr` and routes the uses through the facing select.
fn select_by_face(func: &mut FunctionImpl, instr: Instr, back_base: u32, color: usize) -> bool {
    let Some(mut back) = intrinsic_of(func, instr).cloned() else {
        return false;
    };
    let Some(front) = func.instrs[instr].def else {
        return false;
    };
    let (n, bits) = (func.defs[front].num_components, func.defs[front].bit_size);
    let back_loc = [VARYING_SLOT_BFC0, VARYING_SLOT_BFC1][color];
    set_index(&mut back, IndexKind::Base, back_base);
    set_index(&mut back, IndexKind::IoSemantics, io_semantics(back_loc));
    let mut b = Builder::new(func, Cursor::After(instr));
    let Some(back_def) = b.build(InstrKind::Intrinsic(back), Some((n, bits))) else {
        return false;
    };
    let Some(face) = b.intrinsic(
        IntrinsicOp::load_front_face,
        vec![],
        0,
        vec![],
        Some((1, 1)),
    ) else {
        return false;
    };
    let mut cond = AluSrc::new(face);
    cond.swizzle = [0; 16];
    let sel = b.alu(
        Opcode::bcsel,
        vec![cond, AluSrc::new(front), AluSrc::new(back_def)],
        n,
    );
    func.rewrite_uses(None, front, sel);
    if let InstrKind::Alu(alu) = &mut func.instrs[func.defs[sel].instr].kind {
        alu.srcs[1].def = front;
    }
    true
}
