//! `lower_load_const_to_scalar` (after Mesa's `nir_lower_load_const_to_scalar`): ALU
//! sources that read a single component of a vector `load_const` are rewritten to read
//! a scalar `load_const` of that component, placed right after the vector constant.
//!
//! Mesa rebuilds the vector with `vecN` of scalar constants and lets copy propagation
//! move the scalars into their users; the end state for scalar ALU code is the same as
//! ours. We differ on purpose for uses that need the whole vector (intrinsic, tex, phi
//! and call sources, and ALU sources reading several components, e.g. `pack_*`): they
//! keep reading the vector constant, because a `vecN` of constants is folded straight
//! back into a vector constant by `opt_constant_folding`, and the two passes would
//! undo each other forever in an optimisation loop. A vector constant left without
//! uses is removed.

use super::{for_each_impl, Pass, PassFailure};
use crate::builder::{Builder, Cursor};
use crate::ir::*;

/// The pass.
pub struct LowerLoadConstToScalar;

impl Pass for LowerLoadConstToScalar {
    fn name(&self) -> &'static str {
        "lower_load_const_to_scalar"
    }
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure> {
        Ok(for_each_impl(shader, lower_impl))
    }
}

fn lower_impl(func: &mut FunctionImpl) -> bool {
    let mut progress = false;
    let uses = func.build_uses();
    for block in func.blocks_in_order() {
        for instr in func.block_instrs(block) {
            let InstrKind::LoadConst(values) = func.instrs[instr].kind.clone() else {
                continue;
            };
            let Some(def) = func.instrs[instr].def else {
                continue;
            };
            let (comps, bits) = (func.defs[def].num_components, func.defs[def].bit_size);
            if comps < 2 || values.len() != usize::from(comps) {
                continue;
            }
            // An if condition keeps the vector constant alive.
            let mut remaining = false;
            let mut users: Vec<Instr> = Vec::new();
            for user in &uses[def] {
                match user {
                    Use::Instr(i) => users.push(*i),
                    Use::If(_) => remaining = true,
                }
            }
            users.sort();
            users.dedup();
            let mut scalars: Vec<Option<Def>> = vec![None; values.len()];
            let mut cursor = Cursor::After(instr);
            for user in users {
                let InstrKind::Alu(mut alu) = func.instrs[user].kind.clone() else {
                    remaining = true;
                    continue;
                };
                let info = alu.op.info();
                let dest_comps = func.instrs[user]
                    .def
                    .map(|d| func.defs[d].num_components)
                    .unwrap_or(1);
                let mut changed = false;
                for (i, src) in alu.srcs.iter_mut().enumerate() {
                    if src.def != def {
                        continue;
                    }
                    let read = match info.input_sizes.get(i) {
                        Some(0) | None => dest_comps,
                        Some(n) => *n,
                    };
                    let read = usize::from(read).min(16);
                    let c = src.swizzle[0];
                    if read == 0 || src.swizzle[..read].iter().any(|s| *s != c) {
                        remaining = true;
                        continue;
                    }
                    let Some(&value) = values.get(usize::from(c)) else {
                        remaining = true;
                        continue;
                    };
                    let scalar = match scalars[usize::from(c)] {
                        Some(s) => s,
                        None => {
                            let mut b = Builder::new(func, cursor);
                            let s = b.load_const(bits, vec![value]);
                            cursor = b.cursor;
                            scalars[usize::from(c)] = Some(s);
                            s
                        }
                    };
                    src.def = scalar;
                    src.swizzle[..read].fill(0);
                    changed = true;
                }
                if changed {
                    func.instrs[user].kind = InstrKind::Alu(alu);
                    progress = true;
                }
            }
            if !remaining && scalars.iter().any(Option::is_some) {
                func.remove_instr(instr);
            }
        }
    }
    progress
}
