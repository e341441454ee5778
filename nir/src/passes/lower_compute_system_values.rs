//! `lower_compute_system_values` (Mesa's `nir_lower_compute_system_values`): derives
//! the compute system values a CPU driver does not supply from the ones it does.
//!
//! * `load_global_invocation_id` → `load_workgroup_id * size + load_local_invocation_id`
//!   (ARB_compute_shader: `gl_GlobalInvocationID = gl_WorkGroupID * gl_WorkGroupSize +
//!   gl_LocalInvocationID`);
//! * `load_local_invocation_index` → `id.z * size.x * size.y + id.y * size.x + id.x`
//!   from `load_local_invocation_id`;
//! * `load_workgroup_size` → a constant when the shader's `workgroup_size` is known.
//!
//! `size` is the constant workgroup size when the header gives one, else one
//! `load_workgroup_size` (ARB_compute_variable_group_size). The replaced loads are
//! deleted; the loads the expansions emit are the driver's inputs and never lowered
//! again, so a second run makes no progress.

use super::{Pass, PassFailure};
use crate::builder::{Builder, Cursor};
use crate::intrinsics::IntrinsicOp as I;
use crate::ir::*;
use crate::opcodes::Opcode;

/// The pass.
pub struct LowerComputeSystemValues;

impl Pass for LowerComputeSystemValues {
    fn name(&self) -> &'static str {
        "lower_compute_system_values"
    }
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure> {
        if shader.stage != Stage::Compute {
            return Ok(false);
        }
        let size = shader.info.workgroup_size;
        let mut progress = false;
        let ids: Vec<FuncId> = shader.functions.keys().collect();
        for id in ids {
            if let Some(body) = shader.functions[id].body.as_mut() {
                progress |= lower_impl(body, size);
            }
        }
        Ok(progress)
    }
}

fn lower_impl(func: &mut FunctionImpl, size: Option<[u32; 3]>) -> bool {
    let mut uses = func.build_uses();
    let mut progress = false;
    for block in func.blocks_in_order() {
        for instr in func.block_instrs(block) {
            let InstrKind::Intrinsic(intr) = &func.instrs[instr].kind else {
                continue;
            };
            let op = intr.op;
            let Some(old) = func.instrs[instr].def else {
                continue;
            };
            // The table fixes these results at 32 bits; anything else is invalid
            // input the validator reports, left alone here.
            if func.defs[old].bit_size != 32 {
                continue;
            }
            let mut b = Builder::new(func, Cursor::Before(instr));
            let new = match (op, size) {
                (I::load_workgroup_size, Some(s)) => {
                    b.load_const(32, s.iter().map(|v| u64::from(*v)).collect())
                }
                (I::load_global_invocation_id, _) => {
                    let group = load3(&mut b, I::load_workgroup_id);
                    let group_size = workgroup_size(&mut b, size);
                    let local = load3(&mut b, I::load_local_invocation_id);
                    let base = b.alu_defs(Opcode::imul, &[group, group_size]);
                    b.alu_defs(Opcode::iadd, &[base, local])
                }
                (I::load_local_invocation_index, _) => {
                    let local = load3(&mut b, I::load_local_invocation_id);
                    let group_size = workgroup_size(&mut b, size);
                    let (x, y, z) = (
                        b.channel(local, 0),
                        b.channel(local, 1),
                        b.channel(local, 2),
                    );
                    let (sx, sy) = (b.channel(group_size, 0), b.channel(group_size, 1));
                    let plane = b.alu_defs(Opcode::imul, &[sx, sy]);
                    let zs = b.alu_defs(Opcode::imul, &[z, plane]);
                    let ys = b.alu_defs(Opcode::imul, &[y, sx]);
                    let sum = b.alu_defs(Opcode::iadd, &[zs, ys]);
                    b.alu_defs(Opcode::iadd, &[sum, x])
                }
                _ => continue,
            };
            func.rewrite_uses(Some(&mut uses), old, new);
            func.remove_instr(instr);
            progress = true;
        }
    }
    progress
}

/// One of the 3-component 32-bit compute system values.
fn load3(b: &mut Builder, op: I) -> Def {
    b.intrinsic(op, Vec::new(), 0, Vec::new(), Some((3, 32)))
        .unwrap_or_else(|| b.undef(3, 32))
}

/// The workgroup size: a constant when known, else loaded.
fn workgroup_size(b: &mut Builder, size: Option<[u32; 3]>) -> Def {
    match size {
        Some(s) => b.load_const(32, s.iter().map(|v| u64::from(*v)).collect()),
        None => load3(b, I::load_workgroup_size),
    }
}
