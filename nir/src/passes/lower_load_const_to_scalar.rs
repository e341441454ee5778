//! `lower_load_const_to_scalar` (Mesa's `nir_lower_load_const_to_scalar`): every
//! `load_const` of 2–4 components becomes one scalar `load_const` per component,
//! gathered with `vecN`; uses of the vector constant read the `vecN`. Constants wider
//! than 4 components are left alone (the opcode table has no `vec8`/`vec16`).

use super::lower_alu_to_scalar::{build_alu, vec_op};
use super::{for_each_impl, Pass};
use crate::builder::{Builder, Cursor};
use crate::ir::*;

/// The pass.
pub struct LowerLoadConstToScalar;

impl Pass for LowerLoadConstToScalar {
    fn name(&self) -> &'static str {
        "lower_load_const_to_scalar"
    }
    fn run(&self, shader: &mut Shader) -> bool {
        for_each_impl(shader, lower_impl)
    }
}

fn lower_impl(func: &mut FunctionImpl) -> bool {
    let mut progress = false;
    let mut uses = func.build_uses();
    for block in func.blocks_in_order() {
        for instr in func.block_instrs(block) {
            let InstrKind::LoadConst(values) = func.instrs[instr].kind.clone() else {
                continue;
            };
            let Some(def) = func.instrs[instr].def else {
                continue;
            };
            let (comps, bits) = (func.defs[def].num_components, func.defs[def].bit_size);
            let Some(vop) = vec_op(comps) else {
                continue;
            };
            if values.len() != usize::from(comps) {
                continue;
            }
            let mut b = Builder::new(func, Cursor::Before(instr));
            let chans: Vec<AluSrc> = values
                .iter()
                .map(|v| AluSrc::new(b.load_const(bits, vec![*v])))
                .collect();
            let new = build_alu(&mut b, vop, chans, false, comps, bits);
            func.rewrite_uses(Some(&mut uses), def, new);
            func.remove_instr(instr);
            progress = true;
        }
    }
    progress
}
