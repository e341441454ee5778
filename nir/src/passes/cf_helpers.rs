//! Control-flow editing helpers shared by the opt-branch passes (`opt_peephole_select`,
//! `opt_if`, `opt_loop_unroll`, `opt_dead_cf`): phi lists, block merging with phi
//! predecessor renaming, phis of a flattened `if` turned into `bcsel`s, subtree walks
//! and instruction cloning, all without recursion.

use crate::builder::{Builder, Cursor};
use crate::ir::*;
use crate::opcodes::Opcode;
use rustc_hash::FxHashMap as HashMap;

/// The phis at the start of `block`.
pub fn phis(func: &FunctionImpl, block: Block) -> Vec<Instr> {
    func.block_instrs(block)
        .into_iter()
        .take_while(|i| matches!(func.instrs[*i].kind, InstrKind::Phi(_)))
        .collect()
}

/// Phi sources naming `from` as predecessor now name `to`, in every block.
pub fn rename_phi_pred(func: &mut FunctionImpl, from: Block, to: Block) {
    for block in func.blocks_in_order() {
        for phi in phis(func, block) {
            if let InstrKind::Phi(srcs) = &mut func.instrs[phi].kind {
                for (b, _) in srcs.iter_mut() {
                    if *b == from {
                        *b = to;
                    }
                }
            }
        }
    }
}

/// One phi after an `if` about to be flattened: the phi, its def, and the values it
/// takes from the then and the else arm.
#[derive(Copy, Clone, Debug)]
pub struct PhiSelect {
    /// The phi instruction.
    pub phi: Instr,
    /// Its def.
    pub def: Def,
    /// The value coming from the then arm.
    pub then_value: Def,
    /// The value coming from the else arm.
    pub else_value: Def,
}

/// The phis at the start of `after` with the values they take from `then_block` and
/// `else_block`; `None` when a phi lacks either source (the `if` cannot be flattened).
pub fn phi_selects(
    func: &FunctionImpl,
    after: Block,
    then_block: Block,
    else_block: Block,
) -> Option<Vec<PhiSelect>> {
    let mut selects = Vec::new();
    for phi in phis(func, after) {
        let InstrKind::Phi(srcs) = &func.instrs[phi].kind else {
            continue;
        };
        let from = |b: Block| srcs.iter().find(|(p, _)| *p == b).map(|(_, d)| *d);
        selects.push(PhiSelect {
            phi,
            def: func.instrs[phi].def?,
            then_value: from(then_block)?,
            else_value: from(else_block)?,
        });
    }
    Some(selects)
}

/// Replaces each phi of `selects` by `bcsel(cond, then, else)` built at the end of
/// `block` (the value itself when both arms give the same one) and removes the phi:
/// the data-flow half of flattening an `if` (Mesa's `nir_opt_peephole_select`).
pub fn phis_to_bcsel(func: &mut FunctionImpl, cond: Def, block: Block, selects: &[PhiSelect]) {
    for select in selects {
        let value = if select.then_value == select.else_value {
            select.then_value
        } else {
            let comps = func.defs[select.def].num_components;
            let mut b = Builder::new(func, Cursor::EndOf(block));
            b.alu(
                Opcode::bcsel,
                vec![
                    AluSrc {
                        def: cond,
                        swizzle: [0; 16],
                    },
                    AluSrc::new(select.then_value),
                    AluSrc::new(select.else_value),
                ],
                comps,
            )
        };
        func.rewrite_uses(None, select.def, value);
        func.remove_instr(select.phi);
    }
}

/// Appends the instructions of the block node after the block node `node` to it,
/// removes that block and renames it to the surviving block in phi sources. The next
/// block must have no phis (callers resolve them first). Returns false when the next
/// node is not a block.
pub fn merge_with_next(func: &mut FunctionImpl, node: CfNode) -> bool {
    let Some(block) = func.cf_block(node) else {
        return false;
    };
    let Some(next) = func.cf_next(node) else {
        return false;
    };
    let Some(next_block) = func.cf_block(next) else {
        return false;
    };
    func.move_instrs(next_block, block);
    func.remove_cf(next);
    rename_phi_pred(func, next_block, block);
    true
}

/// Every block inside a cf subtree (any order).
pub fn blocks_under(func: &FunctionImpl, node: CfNode) -> Vec<Block> {
    let mut out = Vec::new();
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        match &func.cf[n].kind {
            CfKind::Block(b) => out.push(*b),
            CfKind::If {
                cond: _,
                then_list,
                else_list,
            } => {
                stack.extend(func.list_nodes(*then_list));
                stack.extend(func.list_nodes(*else_list));
            }
            CfKind::Loop { body } => stack.extend(func.list_nodes(*body)),
        }
    }
    out
}

/// The single block of a cf list holding exactly one block node.
pub fn single_block(func: &FunctionImpl, list: CfList) -> Option<Block> {
    if list.first != list.last {
        return None;
    }
    func.cf_block(list.first?)
}

/// The last block of a cf list (lists always end with a block).
pub fn last_block(func: &FunctionImpl, list: CfList) -> Option<Block> {
    func.cf_block(list.last?)
}

/// Makes a detached copy of `instr`'s kind with sources remapped through `map`
/// (values not in the map are kept). Returns the new instruction and records the
/// mapping of its defs.
pub fn clone_instr(func: &mut FunctionImpl, instr: Instr, map: &mut HashMap<Def, Def>) -> Instr {
    let data = func.instrs[instr].clone();
    let mut kind = data.kind.clone();
    {
        let mut tmp = InstrData { kind, def: None };
        tmp.for_each_src_mut(|d| {
            if let Some(n) = map.get(d) {
                *d = *n;
            }
        });
        kind = tmp.kind;
    }
    let shape = data
        .def
        .map(|d| (func.defs[d].num_components, func.defs[d].bit_size));
    let new = match kind {
        InstrKind::ParallelCopy(entries) => {
            let new = func.create_instr(InstrKind::ParallelCopy(Vec::new()), None);
            let mut out = Vec::with_capacity(entries.len());
            for (dst, src) in entries {
                let dd = func.defs[dst].clone();
                let nd = func.new_def(new, dd.num_components, dd.bit_size);
                map.insert(dst, nd);
                out.push((nd, src));
            }
            func.instrs[new].kind = InstrKind::ParallelCopy(out);
            new
        }
        other => func.create_instr(other, shape),
    };
    if let (Some(old), Some(nd)) = (data.def, func.instrs[new].def) {
        map.insert(old, nd);
    }
    new
}

/// Number of uses of each def, including if conditions.
pub fn use_counts(func: &FunctionImpl) -> HashMap<Def, usize> {
    let mut counts = HashMap::default();
    func.for_each_use(|d, _| *counts.entry(d).or_insert(0) += 1);
    counts
}
