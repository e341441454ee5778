//! The constant folder: evaluates an ALU instruction whose sources are all constants,
//! using the per-opcode fold expressions of the opcode table (`opcodes.rs`).

use crate::ir::*;
use crate::opcodes::{encode, Fold, Opcode};

/// Folds `op` applied to constant sources. `srcs` gives, per source, its bit size and
/// its swizzled component values (component `i` of the instruction reads `values[i]`).
/// Returns the destination's raw component values, or `None` when the result cannot be
/// represented (e.g. an unsupported float bit size).
pub fn fold_alu(
    op: Opcode,
    dest_bits: u8,
    dest_comps: u8,
    srcs: &[(u8, Vec<u64>)],
) -> Option<Vec<u64>> {
    let info = op.info();
    let exec_bits = info
        .input_types
        .iter()
        .zip(srcs)
        .find(|(t, _)| t.bits == 0)
        .map(|(_, s)| s.0)
        .unwrap_or(dest_bits);
    if info
        .input_types
        .iter()
        .any(|t| t.base == crate::opcodes::Base::Float && t.bits == 0)
        && !matches!(exec_bits, 16 | 32 | 64)
    {
        return None;
    }
    let mut out = Vec::with_capacity(usize::from(dest_comps));
    for comp in 0..usize::from(dest_comps) {
        let fold = Fold {
            comp,
            bits: exec_bits,
            srcs,
        };
        let v = op.fold_component(&fold);
        out.push(encode(v, dest_bits)?);
    }
    Some(out)
}

/// Folds an ALU instruction of `func` if all its sources are `load_const`s.
pub fn try_fold_instr(func: &FunctionImpl, instr: Instr) -> Option<Vec<u64>> {
    let InstrKind::Alu(alu) = &func.instrs[instr].kind else {
        return None;
    };
    let def = func.instrs[instr].def?;
    let dest = func.defs.get(def)?;
    let info = alu.op.info();
    let mut srcs = Vec::with_capacity(alu.srcs.len());
    for (i, src) in alu.srcs.iter().enumerate() {
        let values = func.const_value(src.def)?;
        let bits = func.defs.get(src.def)?.bit_size;
        let size = match info.input_sizes.get(i) {
            Some(0) => dest.num_components,
            Some(n) => *n,
            None => return None,
        };
        let mut swizzled = Vec::with_capacity(usize::from(size));
        for c in 0..usize::from(size) {
            let s = usize::from(*src.swizzle.get(c)?);
            swizzled.push(*values.get(s)?);
        }
        srcs.push((bits, swizzled));
    }
    fold_alu(alu.op, dest.bit_size, dest.num_components, &srcs)
}
