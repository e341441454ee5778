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

/// A component selection of at most 16 components.
type Sel = ([u8; 16], usize);

/// For a source reading components `comps` of `def`: if `def` is a copy, the
/// underlying value and the composed component selection.
fn look_through(func: &FunctionImpl, def: Def, comps: &[u8]) -> Option<(Def, Sel)> {
    let InstrKind::Alu(alu) = &func.instrs[func.defs[def].instr].kind else {
        return None;
    };
    let mut out = [0u8; 16];
    match alu.op {
        Opcode::mov => {
            let s = alu.srcs.first()?;
            for (o, c) in out.iter_mut().zip(comps) {
                *o = s.swizzle[usize::from(*c)];
            }
            Some((s.def, (out, comps.len())))
        }
        Opcode::vec2 | Opcode::vec3 | Opcode::vec4 => {
            let mut base = None;
            for (o, c) in out.iter_mut().zip(comps) {
                let s = alu.srcs.get(usize::from(*c))?;
                match base {
                    None => base = Some(s.def),
                    Some(b) if b == s.def => {}
                    Some(_) => return None,
                }
                *o = s.swizzle[0];
            }
            Some((base?, (out, comps.len())))
        }
        _ => None,
    }
}

/// The underlying value if `def` is an identity copy of it.
fn identity_copy(func: &FunctionImpl, def: Def) -> Option<Def> {
    let n = func.defs[def].num_components;
    let (base, (sel, len)) = look_through(func, def, &IDENTITY[..usize::from(n).min(16)])?;
    let identity = sel[..len]
        .iter()
        .enumerate()
        .all(|(i, c)| usize::from(*c) == i);
    (identity
        && func.defs[base].num_components == n
        && func.defs[base].bit_size == func.defs[def].bit_size)
        .then_some(base)
}

fn copy_prop_impl(func: &mut FunctionImpl) -> bool {
    let mut progress = false;
    for block in func.blocks_in_order() {
        let mut cur = func.blocks[block].first;
        while let Some(instr) = cur {
            cur = func.instr_next(instr);
            let dest_comps = func.instrs[instr]
                .def
                .map(|d| func.defs[d].num_components)
                .unwrap_or(1);
            if let InstrKind::Alu(alu) = &func.instrs[instr].kind {
                // A source's copy chain is followed against the other instructions
                // only, so rewriting the sources one by one is the same as rewriting
                // them all at once.
                let info = alu.op.info();
                for i in 0..alu_src_count(func, instr) {
                    let read = match info.input_sizes.get(i) {
                        Some(0) | None => dest_comps,
                        Some(n) => *n,
                    };
                    let InstrKind::Alu(alu) = &func.instrs[instr].kind else {
                        break;
                    };
                    let mut src = alu.srcs[i];
                    let mut changed = false;
                    let mut guard = 0;
                    loop {
                        guard += 1;
                        let comps = &src.swizzle[..usize::from(read)];
                        let Some((base, (sel, len))) = look_through(func, src.def, comps) else {
                            break;
                        };
                        if guard > 1000 {
                            break;
                        }
                        src.def = base;
                        src.swizzle[..len].copy_from_slice(&sel[..len]);
                        changed = true;
                    }
                    if changed {
                        if let InstrKind::Alu(alu) = &mut func.instrs[instr].kind {
                            alu.srcs[i] = src;
                        }
                        progress = true;
                    }
                }
                continue;
            }
            let mut any = false;
            func.instrs[instr].for_each_src(|d| any |= identity_copy(func, d).is_some());
            if !any {
                continue;
            }
            let mut data = InstrData {
                kind: func.instrs[instr].kind.clone(),
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
                }
            });
            func.instrs[instr].kind = data.kind;
            progress = true;
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

fn alu_src_count(func: &FunctionImpl, instr: Instr) -> usize {
    match &func.instrs[instr].kind {
        InstrKind::Alu(alu) => alu.srcs.len(),
        _ => 0,
    }
}
