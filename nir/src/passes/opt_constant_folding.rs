//! `opt_constant_folding`: replaces ALU instructions whose sources are all constants by
//! a `load_const` of the value computed by the opcode table's fold expressions.

use super::{for_each_impl, Pass, PassFailure};
use crate::builder::{Builder, Cursor};
use crate::constant_fold::try_fold_instr;
use crate::ir::*;

/// The pass.
pub struct OptConstantFolding;

impl Pass for OptConstantFolding {
    fn name(&self) -> &'static str {
        "opt_constant_folding"
    }
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure> {
        Ok(for_each_impl(shader, fold_impl))
    }
}

fn fold_impl(func: &mut FunctionImpl) -> bool {
    let mut progress = false;
    // Built on the first fold only: most runs of the pass fold nothing, and the
    // table is the same whether built at entry or just before the first rewrite.
    let mut uses = func.take_kept_uses();
    let mut instrs: Vec<Instr> = Vec::new();
    for block in func.blocks_in_order() {
        func.block_instrs_into(block, &mut instrs);
        for &instr in &instrs {
            let Some(values) = try_fold_instr(func, instr) else {
                continue;
            };
            let Some(old) = func.def_of(instr) else {
                continue;
            };
            let bits = func.defs[old].bit_size;
            let uses = uses.get_or_insert_with(|| func.build_uses());
            let mut b = Builder::new(func, Cursor::Before(instr));
            let new = b.load_const(bits, values);
            func.rewrite_uses(Some(uses), old, new);
            func.remove_instr(instr);
            progress = true;
        }
    }
    if let (false, Some(uses)) = (progress, uses) {
        func.keep_uses(uses);
    }
    progress
}
