//! `opt_cse`: common subexpression elimination on SSA. Two instructions are equivalent
//! when they compute the same pure value from the same sources (ALU ops, with the first
//! two sources of commutative ops in canonical order; constants; derefs; texture ops;
//! intrinsics flagged `CAN_REORDER`). An instruction is replaced by an equivalent one
//! that dominates it.

use super::{for_each_impl, Pass, PassFailure};
use crate::arena::EntityRef;
use crate::intrinsics::CAN_REORDER;
use crate::ir::*;
use std::collections::HashMap;
use std::fmt::Write;

/// The pass.
pub struct OptCse;

impl Pass for OptCse {
    fn name(&self) -> &'static str {
        "opt_cse"
    }
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure> {
        Ok(for_each_impl(shader, cse_impl))
    }
}

fn src_key(src: &AluSrc, read: u8) -> (usize, Vec<u8>) {
    (src.def.index(), src.swizzle[..usize::from(read)].to_vec())
}

/// A structural key of a CSE-able instruction.
fn key(func: &FunctionImpl, instr: Instr) -> Option<String> {
    let data = &func.instrs[instr];
    let def = data.def?;
    let d = &func.defs[def];
    let mut k = format!("{}x{}:", d.bit_size, d.num_components);
    match &data.kind {
        InstrKind::Alu(alu) => {
            let info = alu.op.info();
            let mut srcs: Vec<(usize, Vec<u8>)> = alu
                .srcs
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let read = match info.input_sizes.get(i) {
                        Some(0) | None => d.num_components,
                        Some(n) => *n,
                    };
                    src_key(s, read)
                })
                .collect();
            if info.is_commutative() && srcs.len() >= 2 && srcs[1] < srcs[0] {
                srcs.swap(0, 1);
            }
            let _ = write!(k, "alu {} {} {:?}", alu.op, alu.exact, srcs);
        }
        InstrKind::LoadConst(v) => {
            let _ = write!(k, "const {v:?}");
        }
        InstrKind::Deref(deref) => {
            let _ = write!(k, "deref {:?}", deref);
        }
        InstrKind::Tex(tex) => {
            let _ = write!(k, "tex {:?}", tex);
        }
        InstrKind::Intrinsic(intr) if intr.op.info().flags & CAN_REORDER != 0 => {
            let _ = write!(k, "intr {:?}", intr);
        }
        _ => return None,
    }
    Some(k)
}

fn cse_impl(func: &mut FunctionImpl) -> bool {
    func.compute_dominance();
    let mut table: HashMap<String, Vec<Instr>> = HashMap::new();
    let mut progress = false;
    let mut uses = func.build_uses();
    for block in func.blocks_in_order() {
        for instr in func.block_instrs(block) {
            let Some(k) = key(func, instr) else { continue };
            let candidates = table.entry(k).or_default();
            let found = candidates.iter().copied().find(|c| {
                func.instr_block(*c)
                    .is_some_and(|cb| cb == block || func.dominates(cb, block))
            });
            match found {
                Some(prev) => {
                    let (Some(old), Some(new)) = (func.def_of(instr), func.def_of(prev)) else {
                        continue;
                    };
                    func.rewrite_uses(Some(&mut uses), old, new);
                    // Not a jump: the CFG and the dominance tree stay valid.
                    func.remove_instr(instr);
                    progress = true;
                }
                None => candidates.push(instr),
            }
        }
    }
    progress
}
