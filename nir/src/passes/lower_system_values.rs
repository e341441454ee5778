//! `lower_system_values` (Mesa's `nir_lower_system_values`): every `load_deref` of a
//! `system` variable becomes the matching `load_<name>` intrinsic, chosen by the
//! variable's `SYSTEM_VALUE_*` location (gl_FrontFacing → `load_front_face`,
//! gl_VertexID → `load_vertex_id`, gl_InstanceID → `load_instance_id`,
//! gl_PrimitiveID(In) → `load_primitive_id`, gl_InvocationID → `load_invocation_id`,
//! gl_FragCoord → `load_frag_coord`, gl_PointCoord → `load_point_coord`,
//! gl_SampleID/Position/MaskIn, gl_HelperInvocation, gl_Layer (FS), base
//! vertex/instance, draw id, first vertex, the compute ids and the ARB_shader_ballot
//! subgroup values).
//!
//! Arrayed system values (`gl_SampleMaskIn[1]`) are loaded through their element 0,
//! the only element the language allows. Afterwards, as in Mesa, the now unused
//! system-value derefs are deleted and the system-value variables that nothing
//! references any more are removed from the shader. A load whose shape differs from
//! the intrinsic's (which the validator's deref typing rules out) is left alone, and
//! so is its variable.

use super::{Pass, PassFailure};
use crate::builder::{Builder, Cursor};
use crate::intrinsics::IntrinsicOp;
use crate::ir::*;
use rustc_hash::FxHashSet as HashSet;

/// The pass.
pub struct LowerSystemValues;

impl Pass for LowerSystemValues {
    fn name(&self) -> &'static str {
        "lower_system_values"
    }
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure> {
        Ok(lower_shader(shader))
    }
}

/// The intrinsic loading system value `location` (our `SYSTEM_VALUE_*` numbering).
pub fn system_value_intrinsic(location: i32) -> Option<IntrinsicOp> {
    use IntrinsicOp as I;
    Some(match location {
        0 => I::load_front_face,
        1 => I::load_frag_coord,
        2 => I::load_point_coord,
        3 => I::load_vertex_id,
        4 => I::load_vertex_id_zero_base,
        5 => I::load_base_vertex,
        6 => I::load_first_vertex,
        7 => I::load_instance_id,
        8 => I::load_base_instance,
        9 => I::load_draw_id,
        10 => I::load_primitive_id,
        11 => I::load_invocation_id,
        12 => I::load_sample_id,
        13 => I::load_sample_pos,
        14 => I::load_sample_mask_in,
        15 => I::load_helper_invocation,
        16 => I::load_layer_id,
        17 => I::load_local_invocation_id,
        18 => I::load_workgroup_id,
        19 => I::load_num_workgroups,
        20 => I::load_global_invocation_id,
        21 => I::load_local_invocation_index,
        22 => I::load_workgroup_size,
        23 => I::load_subgroup_invocation,
        24 => I::load_subgroup_size,
        25 => I::load_subgroup_eq_mask,
        26 => I::load_subgroup_ge_mask,
        27 => I::load_subgroup_gt_mask,
        28 => I::load_subgroup_le_mask,
        29 => I::load_subgroup_lt_mask,
        _ => return None,
    })
}

/// The variable at the root of a deref chain (walking parents iteratively).
pub(crate) fn deref_root(func: &FunctionImpl, mut d: Def) -> Option<VarId> {
    for _ in 0..func.instrs.len() + 1 {
        let InstrKind::Deref(deref) = &func.instrs[func.defs.get(d)?.instr].kind else {
            return None;
        };
        match &deref.kind {
            DerefKind::Var(v) => return Some(*v),
            DerefKind::Array { parent, .. }
            | DerefKind::ArrayWildcard { parent }
            | DerefKind::Struct { parent, .. }
            | DerefKind::Cast { parent, .. } => d = *parent,
        }
    }
    None
}

/// Removes the dead deref chains of `modes` ([`super::var_util::remove_dead_derefs_where`]).
/// Returns true when something was removed.
pub(crate) fn remove_dead_derefs(func: &mut FunctionImpl, modes: &[VarMode]) -> bool {
    super::var_util::remove_dead_derefs_where(func, |m| modes.contains(&m))
}

/// Variables referenced by any attached deref of the shader.
pub(crate) fn referenced_vars(shader: &Shader) -> HashSet<VarId> {
    let mut out = HashSet::default();
    for (_, f) in shader.functions.iter() {
        let Some(body) = &f.body else { continue };
        for block in body.blocks_in_order() {
            for instr in body.block_instrs(block) {
                if let InstrKind::Deref(Deref {
                    kind: DerefKind::Var(v),
                    ..
                }) = &body.instrs[instr].kind
                {
                    out.insert(*v);
                }
            }
        }
    }
    out
}

fn lower_shader(shader: &mut Shader) -> bool {
    let mut progress = false;
    let ids: Vec<FuncId> = shader.functions.keys().collect();
    for id in ids {
        let Some(body) = shader.functions[id].body.as_mut() else {
            continue;
        };
        let mut uses = body.build_uses();
        let mut changed = false;
        for block in body.blocks_in_order() {
            for instr in body.block_instrs(block) {
                let InstrKind::Intrinsic(intr) = &body.instrs[instr].kind else {
                    continue;
                };
                if intr.op != IntrinsicOp::load_deref {
                    continue;
                }
                let (Some(&src), Some(def)) = (intr.srcs.first(), body.instrs[instr].def) else {
                    continue;
                };
                let InstrKind::Deref(deref) = &body.instrs[body.defs[src].instr].kind else {
                    continue;
                };
                if deref.mode != VarMode::SystemValue {
                    continue;
                }
                let Some(var) = deref_root(body, src).and_then(|v| shader.variables.get(v)) else {
                    continue;
                };
                let Some(op) = system_value_intrinsic(var.location) else {
                    continue;
                };
                let info = op.info();
                let (comps, bits) = (body.defs[def].num_components, body.defs[def].bit_size);
                // A variable-size result (the subgroup masks) takes the load's shape.
                let sized = info.dest_components == Some(0);
                if (!sized && info.dest_components != Some(comps))
                    || (info.dest_bit_size != 0 && info.dest_bit_size != bits)
                {
                    continue;
                }
                let num_components = if sized { comps } else { 0 };
                let mut b = Builder::new(body, Cursor::Before(instr));
                let Some(new) = b.intrinsic(
                    op,
                    Vec::new(),
                    num_components,
                    Vec::new(),
                    Some((comps, bits)),
                ) else {
                    continue;
                };
                body.rewrite_uses(Some(&mut uses), def, new);
                body.remove_instr(instr);
                changed = true;
            }
        }
        if changed {
            remove_dead_derefs(body, &[VarMode::SystemValue]);
            progress = true;
        }
    }
    if progress {
        let live = referenced_vars(shader);
        let vars = &shader.variables;
        shader
            .globals
            .retain(|g| vars[*g].mode != VarMode::SystemValue || live.contains(g));
    }
    progress
}
