//! `lower_phis_to_scalar` (Mesa's `nir_lower_phis_to_scalar` without `lower_all`):
//! a vector phi of 2–4 components is replaced by one scalar phi per component, fed by
//! a `mov` of that component placed at the end of each predecessor (before its jump),
//! and gathered with a `vecN` after the block's phis.
//!
//! Like Mesa, a phi is only split when at least one of its sources is "scalarizable":
//! a per-component ALU op, a `vecN`/`mov`, a `load_const`, a `load_deref` of a
//! non-temporary variable, a lowered IO/uniform/UBO load, or another phi that is itself
//! split (phis in a cycle are optimistically assumed split while being decided).
//! Undefined sources do not count. The decision walks phi-to-phi chains with an explicit
//! stack, so deep chains cannot overflow the call stack.

use super::{for_each_impl, Pass, PassFailure};
use crate::builder::{vec_opcode, Builder, Cursor};
use crate::intrinsics::IntrinsicOp;
use crate::ir::*;
use crate::opcodes::Opcode;
use rustc_hash::FxHashMap as HashMap;

/// The pass.
pub struct LowerPhisToScalar;

impl Pass for LowerPhisToScalar {
    fn name(&self) -> &'static str {
        "lower_phis_to_scalar"
    }
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure> {
        Ok(for_each_impl(shader, lower_impl))
    }
}

fn phi_srcs(func: &FunctionImpl, instr: Instr) -> Vec<Def> {
    match &func.instrs[instr].kind {
        InstrKind::Phi(srcs) => srcs.iter().map(|(_, d)| *d).collect(),
        _ => Vec::new(),
    }
}

fn splittable_size(func: &FunctionImpl, instr: Instr) -> bool {
    func.instrs[instr]
        .def
        .is_some_and(|d| vec_opcode(func.defs[d].num_components).is_some())
}

/// Whether a non-phi source is scalarizable (Mesa's `is_phi_src_scalarizable`).
fn src_scalarizable(func: &FunctionImpl, src: Def) -> bool {
    let instr = func.defs[src].instr;
    match &func.instrs[instr].kind {
        InstrKind::Alu(alu) => {
            alu.op.info().output_size == 0
                || matches!(alu.op, Opcode::vec2 | Opcode::vec3 | Opcode::vec4)
        }
        InstrKind::LoadConst(_) => true,
        InstrKind::Intrinsic(intr) => match intr.op {
            IntrinsicOp::load_deref => intr
                .srcs
                .first()
                .map(|d| func.defs[*d].instr)
                .and_then(|i| match &func.instrs[i].kind {
                    InstrKind::Deref(deref) => Some(!matches!(
                        deref.mode,
                        VarMode::FunctionTemp | VarMode::ShaderTemp
                    )),
                    _ => None,
                })
                .unwrap_or(false),
            IntrinsicOp::load_uniform
            | IntrinsicOp::load_ubo
            | IntrinsicOp::load_input
            | IntrinsicOp::load_per_vertex_input
            | IntrinsicOp::load_interpolated_input => true,
            _ => false,
        },
        _ => false,
    }
}

/// Mesa's `should_lower_phi`, with the recursion over phi sources on an explicit stack.
fn should_lower(func: &FunctionImpl, root: Instr, memo: &mut HashMap<Instr, bool>) -> bool {
    if !splittable_size(func, root) {
        return false;
    }
    if let Some(v) = memo.get(&root) {
        return *v;
    }
    memo.insert(root, true);
    let mut stack: Vec<(Instr, usize)> = vec![(root, 0)];
    let mut returned: Option<bool> = None;
    'outer: while let Some(top) = stack.last_mut() {
        let (phi, idx) = (top.0, &mut top.1);
        let srcs = phi_srcs(func, phi);
        let mut decided = false;
        if let Some(r) = returned.take() {
            if r {
                decided = true;
            } else {
                *idx += 1;
            }
        }
        while !decided && *idx < srcs.len() {
            let s = srcs[*idx];
            let si = func.defs[s].instr;
            if matches!(func.instrs[si].kind, InstrKind::Phi(_)) {
                if !splittable_size(func, si) {
                    *idx += 1;
                    continue;
                }
                match memo.get(&si) {
                    Some(true) => decided = true,
                    Some(false) => *idx += 1,
                    None => {
                        memo.insert(si, true);
                        stack.push((si, 0));
                        continue 'outer;
                    }
                }
            } else if src_scalarizable(func, s) {
                decided = true;
            } else {
                *idx += 1;
            }
        }
        memo.insert(phi, decided);
        stack.pop();
        returned = Some(decided);
    }
    memo.get(&root).copied().unwrap_or(false)
}

fn lower_impl(func: &mut FunctionImpl) -> bool {
    let mut memo = HashMap::default();
    let mut todo = Vec::new();
    for block in func.blocks_in_order() {
        for instr in func.block_instrs(block) {
            if matches!(func.instrs[instr].kind, InstrKind::Phi(_))
                && should_lower(func, instr, &mut memo)
            {
                todo.push((block, instr));
            }
        }
    }
    for &(block, phi) in &todo {
        let InstrKind::Phi(srcs) = func.instrs[phi].kind.clone() else {
            continue;
        };
        let Some(def) = func.instrs[phi].def else {
            continue;
        };
        let (comps, bits) = (func.defs[def].num_components, func.defs[def].bit_size);
        let Some(vop) = vec_opcode(comps) else {
            continue;
        };
        let mut chans = Vec::with_capacity(usize::from(comps));
        for c in 0..comps {
            let mut new_srcs = Vec::with_capacity(srcs.len());
            for &(pred, src) in &srcs {
                let cursor = match func.blocks[pred].last {
                    Some(last) if matches!(func.instrs[last].kind, InstrKind::Jump(_)) => {
                        Cursor::Before(last)
                    }
                    _ => Cursor::EndOf(pred),
                };
                let mut b = Builder::new(func, cursor);
                let mut s = AluSrc::new(src);
                s.swizzle[0] = c;
                let mov = b.alu_sized(Opcode::mov, [s], false, 1, bits);
                new_srcs.push((pred, mov));
            }
            let mut b = Builder::new(func, Cursor::Before(phi));
            let new_phi = b
                .build(InstrKind::Phi(new_srcs), Some((1, bits)))
                .expect("phi with a shape has a def");
            chans.push(AluSrc::new(new_phi));
        }
        let cursor = Builder::after_phis(func, block);
        let mut b = Builder::new(func, cursor);
        let vec = b.alu_sized(vop, chans, false, comps, bits);
        func.rewrite_uses(None, def, vec);
        func.remove_instr(phi);
    }
    !todo.is_empty()
}
