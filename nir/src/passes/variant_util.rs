//! Helpers shared by the draw-time variant lowering passes (`lower_clamp_color_outputs`,
//! `lower_flatshade`, `lower_alpha_test`, `lower_two_sided_color`, `lower_point_size`,
//! `lower_clip_planes`), which all work on IO-lowered NIR: reading and writing the
//! constant indices of IO intrinsics, finding the entry point, handing out the next
//! free driver location of a mode, and building `load_uniform`/`store_output`.

use super::lower_io::io_slots;
use crate::builder::Builder;
use crate::intrinsics::{IndexKind, IntrinsicOp};
use crate::ir::names::alu_type_code;
use crate::ir::*;
use crate::opcodes::{AluType, Base};

/// The `float32` ALU type code used in `src_type`/`dest_type` indices.
pub fn float32_code() -> u32 {
    alu_type_code(AluType {
        base: Base::Float,
        bits: 32,
    })
}

/// Constant index `kind` of an intrinsic, when it has one.
pub fn index(intr: &Intrinsic, kind: IndexKind) -> Option<u32> {
    let slot = intr.op.info().index_slot(kind)?;
    intr.indices.get(slot).copied()
}

/// Sets constant index `kind` of an intrinsic; false when it has no such index.
pub fn set_index(intr: &mut Intrinsic, kind: IndexKind, value: u32) -> bool {
    match intr.op.info().index_slot(kind) {
        Some(slot) if slot < intr.indices.len() => {
            intr.indices[slot] = value;
            true
        }
        _ => false,
    }
}

/// The IO location (`io location=`, low 16 bits of the IO semantics) of an IO
/// intrinsic, and its slot count.
pub fn io_location(intr: &Intrinsic) -> Option<(i32, u32)> {
    let sem = index(intr, IndexKind::IoSemantics)?;
    Some((i32::from(sem as u16), (sem >> 16).max(1)))
}

/// IO semantics index for `location` spanning one slot.
pub fn io_semantics(location: i32) -> u32 {
    (location as u32 & 0xffff) | (1 << 16)
}

/// True when the intrinsic's source type (stores) or destination type (loads) is a
/// float type, or when it carries no type.
pub fn is_float_io(intr: &Intrinsic) -> bool {
    let code = index(intr, IndexKind::SrcType).or_else(|| index(intr, IndexKind::DestType));
    match code.and_then(crate::ir::names::alu_type_from_code) {
        Some(t) => t.base == Base::Float,
        None => code.is_none(),
    }
}

/// The entry point's id, when it has a body.
pub fn entry_point(shader: &Shader) -> Option<FuncId> {
    shader
        .functions
        .iter()
        .find(|(_, f)| f.is_entrypoint && f.body.is_some())
        .map(|(id, _)| id)
}

/// Every attached instruction of a body, in program order.
pub fn all_instrs(func: &FunctionImpl) -> Vec<Instr> {
    func.blocks_in_order()
        .into_iter()
        .flat_map(|b| func.block_instrs(b))
        .collect()
}

/// The intrinsic of `instr`, if it is one.
pub fn intrinsic_of(func: &FunctionImpl, instr: Instr) -> Option<&Intrinsic> {
    match &func.instrs.get(instr)?.kind {
        InstrKind::Intrinsic(i) => Some(i),
        _ => None,
    }
}

/// The intrinsic defining `def`, if any.
pub fn def_intrinsic(func: &FunctionImpl, def: Def) -> Option<&Intrinsic> {
    intrinsic_of(func, func.defs.get(def)?.instr)
}

/// The constant offset source of a lowered IO access (`load_input`'s or
/// `store_output`'s last source), when it is a constant.
pub fn const_offset(func: &FunctionImpl, intr: &Intrinsic) -> Option<u32> {
    let off = *intr.srcs.last()?;
    let v = func.const_value(off)?;
    (v.len() == 1).then(|| v[0] as u32)
}

/// The first driver location not used by any variable of `mode` nor counted in the
/// shader's `inputs`/`outputs` info.
pub fn next_driver_location(shader: &Shader, mode: VarMode) -> u32 {
    let counted = match mode {
        VarMode::ShaderIn => shader.info.num_inputs,
        VarMode::ShaderOut => shader.info.num_outputs,
        _ => 0,
    };
    shader
        .globals
        .iter()
        .map(|v| &shader.variables[*v])
        .filter(|v| v.mode == mode)
        .map(|v| {
            v.driver_location
                .saturating_add(io_slots(shader.stage, v, &shader.structs))
        })
        .fold(counted, u32::max)
}

/// The global variable of `mode` at `location`, if any.
pub fn find_io_var(shader: &Shader, mode: VarMode, location: i32) -> Option<VarId> {
    shader.globals.iter().copied().find(|v| {
        let var = &shader.variables[*v];
        var.mode == mode && var.location == location
    })
}

/// Adds an input or output variable at the next free driver location and counts its
/// slots in the shader's `inputs`/`outputs` info.
pub fn add_io_var(shader: &mut Shader, mut var: Variable) -> VarId {
    let dl = next_driver_location(shader, var.mode);
    var.driver_location = dl;
    let end = dl.saturating_add(io_slots(shader.stage, &var, &shader.structs));
    match var.mode {
        VarMode::ShaderIn => shader.info.num_inputs = shader.info.num_inputs.max(end),
        VarMode::ShaderOut => shader.info.num_outputs = shader.info.num_outputs.max(end),
        _ => {}
    }
    shader.add_global(var)
}

/// `load_uniform` of the first `comps` components of vec4 slot `slot` (float32).
pub fn build_load_uniform(b: &mut Builder, slot: u32, comps: u8) -> Option<Def> {
    let zero = b.imm_i32(0);
    b.intrinsic(
        IntrinsicOp::load_uniform,
        vec![zero],
        comps,
        vec![slot, 1, float32_code()],
        Some((comps, 32)),
    )
}

/// `store_output` of a float value to one slot: `base` = driver location,
/// `component` = first component written, all components of `value` written.
pub fn build_store_output(b: &mut Builder, value: Def, base: u32, component: u32, location: i32) {
    let n = b.func.defs[value].num_components.clamp(1, 4);
    let zero = b.imm_i32(0);
    b.intrinsic(
        IntrinsicOp::store_output,
        vec![value, zero],
        n,
        vec![
            base,
            1,
            (1u32 << n) - 1,
            component,
            float32_code(),
            io_semantics(location),
        ],
        None,
    );
}

/// True when block `to` can be reached from a successor of block `from`.
pub fn reachable_from_succs(func: &FunctionImpl, from: Block, to: Block) -> bool {
    let mut seen = rustc_hash::FxHashSet::default();
    let mut stack: Vec<Block> = func.blocks[from].succs.clone();
    while let Some(b) = stack.pop() {
        if b == to {
            return true;
        }
        if seen.insert(b) {
            stack.extend(func.blocks[b].succs.iter().copied());
        }
    }
    false
}
