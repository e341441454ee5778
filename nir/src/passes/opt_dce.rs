//! `opt_dce`: removes instructions whose results are never used and that have no side
//! effects (ALU, derefs, constants, undefs, phis, texture ops, and intrinsics flagged
//! `CAN_ELIMINATE`). Liveness is computed by a worklist from the side-effecting roots,
//! so dead cycles through phis are removed too.

use super::var_util::all_instrs;
use super::{for_each_impl, Pass, PassFailure};
use crate::arena::{EntityRef, SecondaryMap};
use crate::intrinsics::CAN_ELIMINATE;
use crate::ir::*;

/// The pass.
pub struct OptDce;

impl Pass for OptDce {
    fn name(&self) -> &'static str {
        "opt_dce"
    }
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure> {
        Ok(for_each_impl(shader, dce_impl))
    }
}

fn is_root(data: &InstrData) -> bool {
    match &data.kind {
        InstrKind::Alu(_)
        | InstrKind::Deref(_)
        | InstrKind::Tex(_)
        | InstrKind::LoadConst(_)
        | InstrKind::Undef
        | InstrKind::Phi(_)
        | InstrKind::ParallelCopy(_) => false,
        InstrKind::Intrinsic(i) => i.op.info().flags & CAN_ELIMINATE == 0,
        InstrKind::Jump(_) | InstrKind::Call { .. } => true,
    }
}

fn dce_impl(func: &mut FunctionImpl) -> bool {
    let mut live: SecondaryMap<Instr, bool> = SecondaryMap::new();
    if let Some(last) = func.instrs.len().checked_sub(1) {
        // One allocation for the whole table.
        live[Instr::new(last)] = false;
    }
    let mut work = Vec::new();
    let all = all_instrs(func);
    for &i in &all {
        if is_root(&func.instrs[i]) {
            live[i] = true;
            work.push(i);
        }
    }
    // If conditions are uses too.
    for (_, cond) in func.if_conditions() {
        let i = func.defs[cond].instr;
        if !live[i] {
            live[i] = true;
            work.push(i);
        }
    }
    let (instrs, defs) = (&func.instrs, &func.defs);
    while let Some(i) = work.pop() {
        instrs[i].for_each_src(|d| {
            let si = defs[d].instr;
            if !live[si] {
                live[si] = true;
                work.push(si);
            }
        });
    }
    let mut progress = false;
    for i in all {
        if !live[i] {
            func.remove_instr(i);
            progress = true;
        }
    }
    progress
}
