//! `opt_remove_phis`: removes phis whose sources are all the same value (ignoring the
//! phi itself, as on a loop back edge, and undefined sources), rewriting their uses to
//! that value, provided that value dominates the phi's block. Phis whose sources are
//! all undefined (or all the phi itself) are left alone.

use super::{for_each_impl, Pass, PassFailure};
use crate::ir::*;

/// The pass.
pub struct OptRemovePhis;

impl Pass for OptRemovePhis {
    fn name(&self) -> &'static str {
        "opt_remove_phis"
    }
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure> {
        Ok(for_each_impl(shader, remove_phis_impl))
    }
}

fn remove_phis_impl(func: &mut FunctionImpl) -> bool {
    let mut progress = false;
    let mut changed = true;
    // Scratch buffers reused by every round and block.
    let (mut blocks, mut instrs): (Vec<Block>, Vec<Instr>) = (Vec::new(), Vec::new());
    while changed {
        changed = false;
        func.blocks_in_order_into(&mut blocks);
        for &block in &blocks {
            func.block_instrs_into(block, &mut instrs);
            for &instr in &instrs {
                let InstrKind::Phi(srcs) = &func.instrs[instr].kind else {
                    break;
                };
                let Some(def) = func.instrs[instr].def else {
                    continue;
                };
                let mut value: Option<Def> = None;
                let mut unique = true;
                for (_, s) in srcs {
                    if *s == def {
                        continue;
                    }
                    if matches!(func.instrs[func.defs[*s].instr].kind, InstrKind::Undef) {
                        continue;
                    }
                    match value {
                        None => value = Some(*s),
                        Some(v) if v == *s => {}
                        Some(_) => {
                            unique = false;
                            break;
                        }
                    }
                }
                let Some(value) = value.filter(|_| unique) else {
                    continue;
                };
                // The value must dominate the phi's block to replace it; a value coming
                // from all predecessors dominates it in structured control flow unless
                // undef sources were skipped, so check dominance explicitly.
                func.compute_dominance();
                let vb = func.instr_block(func.defs[value].instr);
                if !vb.is_some_and(|vb| vb != block && func.dominates(vb, block)) {
                    continue;
                }
                func.rewrite_uses(None, def, value);
                func.remove_instr(instr);
                progress = true;
                changed = true;
            }
        }
    }
    progress
}
