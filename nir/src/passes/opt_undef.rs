//! `opt_undef`: simplifies uses of undefined values, like Mesa's `nir_opt_undef`:
//! `bcsel`/`fcsel` with an undefined arm becomes a `mov` of the other arm; a
//! `store_deref` of a wholly undefined value is removed; an ALU op whose sources are
//! all undefined (except selections) becomes an undef itself.

use super::{for_each_impl, Pass, PassFailure};
use crate::intrinsics::IntrinsicOp;
use crate::ir::*;
use crate::opcodes::Opcode;

/// The pass.
pub struct OptUndef;

impl Pass for OptUndef {
    fn name(&self) -> &'static str {
        "opt_undef"
    }
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure> {
        Ok(for_each_impl(shader, undef_impl))
    }
}

fn is_undef(func: &FunctionImpl, d: Def) -> bool {
    matches!(func.instrs[func.defs[d].instr].kind, InstrKind::Undef)
}

fn undef_impl(func: &mut FunctionImpl) -> bool {
    let mut progress = false;
    let mut instrs: Vec<Instr> = Vec::new();
    for block in func.blocks_in_order() {
        func.block_instrs_into(block, &mut instrs);
        for &instr in &instrs {
            match func.instrs[instr].kind.clone() {
                InstrKind::Alu(alu) if matches!(alu.op, Opcode::bcsel | Opcode::fcsel) => {
                    let keep = if is_undef(func, alu.srcs[1].def) {
                        Some(alu.srcs[2])
                    } else if is_undef(func, alu.srcs[2].def) {
                        Some(alu.srcs[1])
                    } else {
                        None
                    };
                    if let Some(src) = keep {
                        func.instrs[instr].kind = InstrKind::Alu(Alu {
                            op: Opcode::mov,
                            srcs: smallvec::smallvec![src],
                            exact: alu.exact,
                        });
                        progress = true;
                    }
                }
                InstrKind::Alu(alu)
                    if !alu.srcs.is_empty() && alu.srcs.iter().all(|s| is_undef(func, s.def)) =>
                {
                    func.instrs[instr].kind = InstrKind::Undef;
                    progress = true;
                }
                InstrKind::Intrinsic(intr)
                    if intr.op == IntrinsicOp::store_deref && is_undef(func, intr.srcs[1]) =>
                {
                    func.remove_instr(instr);
                    progress = true;
                }
                _ => {}
            }
        }
    }
    progress
}
