//! `copy_prop` (Mesa's `nir_opt_copy_prop`): ALU sources reading a `mov` or a `vecN`
//! whose read components all come from one value are rewritten to read that value with
//! the composed swizzle; other uses (intrinsics, phis, derefs, if conditions) are
//! rewritten only for identity copies (same component count, identity selection).
//! The copies themselves are left for `opt_dce`.

use super::{for_each_impl, Pass, PassFailure};
use crate::ir::*;
use crate::opcodes::Opcode;

/// The pass.
pub struct CopyProp;

impl Pass for CopyProp {
    fn name(&self) -> &'static str {
        "copy_prop"
    }
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure> {
        Ok(for_each_impl(shader, copy_prop_impl))
    }
}

/// For a source reading components `comps` of `def`: if `def` is a copy, the
/// underlying value and the composed component selection.
fn look_through(func: &FunctionImpl, def: Def, comps: &[u8]) -> Option<(Def, Vec<u8>)> {
    let InstrKind::Alu(alu) = &func.instrs[func.defs[def].instr].kind else {
        return None;
    };
    match alu.op {
        Opcode::mov => {
            let s = alu.srcs.first()?;
            Some((
                s.def,
                comps.iter().map(|c| s.swizzle[usize::from(*c)]).collect(),
            ))
        }
        Opcode::vec2 | Opcode::vec3 | Opcode::vec4 => {
            let mut base = None;
            let mut out = Vec::with_capacity(comps.len());
            for c in comps {
                let s = alu.srcs.get(usize::from(*c))?;
                match base {
                    None => base = Some(s.def),
                    Some(b) if b == s.def => {}
                    Some(_) => return None,
                }
                out.push(s.swizzle[0]);
            }
            Some((base?, out))
        }
        _ => None,
    }
}

/// The underlying value if `def` is an identity copy of it.
fn identity_copy(func: &FunctionImpl, def: Def) -> Option<Def> {
    let n = func.defs[def].num_components;
    let comps: Vec<u8> = (0..n).collect();
    let (base, sel) = look_through(func, def, &comps)?;
    let identity = sel.iter().enumerate().all(|(i, c)| usize::from(*c) == i);
    (identity
        && func.defs[base].num_components == n
        && func.defs[base].bit_size == func.defs[def].bit_size)
        .then_some(base)
}

fn copy_prop_impl(func: &mut FunctionImpl) -> bool {
    let mut progress = false;
    for block in func.blocks_in_order() {
        for instr in func.block_instrs(block) {
            let dest_comps = func.instrs[instr]
                .def
                .map(|d| func.defs[d].num_components)
                .unwrap_or(1);
            let mut kind = func.instrs[instr].kind.clone();
            let mut changed = false;
            match &mut kind {
                InstrKind::Alu(alu) => {
                    let info = alu.op.info();
                    for (i, src) in alu.srcs.iter_mut().enumerate() {
                        let read = match info.input_sizes.get(i) {
                            Some(0) | None => dest_comps,
                            Some(n) => *n,
                        };
                        let mut guard = 0;
                        loop {
                            guard += 1;
                            let comps: Vec<u8> = src.swizzle[..usize::from(read)].to_vec();
                            let Some((base, sel)) = look_through(func, src.def, &comps) else {
                                break;
                            };
                            if guard > 1000 {
                                break;
                            }
                            src.def = base;
                            src.swizzle[..sel.len()].copy_from_slice(&sel);
                            changed = true;
                        }
                    }
                }
                _ => {
                    let mut data = InstrData {
                        kind: kind.clone(),
                        def: None,
                    };
                    data.for_each_src_mut(|d| {
                        let mut guard = 0;
                        while let Some(base) = identity_copy(func, *d) {
                            guard += 1;
                            if guard > 1000 {
                                break;
                            }
                            *d = base;
                            changed = true;
                        }
                    });
                    kind = data.kind;
                }
            }
            if changed {
                func.instrs[instr].kind = kind;
                progress = true;
            }
        }
    }
    for (node, cond) in func.if_conditions() {
        if let Some(base) = identity_copy(func, cond) {
            func.visit_use_mut(Use::If(node), |d| *d = base);
            progress = true;
        }
    }
    progress
}
