//! `opt_dead_cf`: deletes dead control flow.
//!
//! * Nodes following a block that ends in a jump are unreachable and removed.
//! * An `if` on a constant condition is replaced by its taken arm (phis in the block
//!   after the `if` take the value flowing from the taken arm).
//! * An `if` whose arms are both a single empty block is removed (phis after it that
//!   select the same value on both sides are replaced; otherwise the if is kept).
//! * A dead loop is removed: it contains a `break`, no side effects (no returns/halts,
//!   calls or intrinsics that cannot be eliminated), none of its values is used after
//!   it, and the block after it has no phis. Like Mesa, loops are assumed to terminate.
//!
//! After splicing, the blocks that became adjacent are merged so cf lists keep
//! alternating blocks and ifs/loops.

use super::cf_helpers::blocks_under;
use super::{for_each_impl, Pass, PassFailure};
use crate::ir::*;

/// The pass.
pub struct OptDeadCf;

impl Pass for OptDeadCf {
    fn name(&self) -> &'static str {
        "opt_dead_cf"
    }
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure> {
        Ok(for_each_impl(shader, dead_cf_impl))
    }
}

fn dead_cf_impl(func: &mut FunctionImpl) -> bool {
    let mut progress = false;
    let mut guard = 0;
    while guard < 10_000 && step(func) {
        prune_phis(func);
        progress = true;
        guard += 1;
    }
    progress
}

/// Drops phi sources from blocks that are no longer predecessors (removed code).
fn prune_phis(func: &mut FunctionImpl) {
    for block in func.blocks_in_order() {
        let preds = func.blocks[block].preds.clone();
        for phi in phis(func, block) {
            if let InstrKind::Phi(srcs) = &mut func.instrs[phi].kind {
                srcs.retain(|(b, _)| preds.contains(b));
            }
        }
    }
}

/// Phi sources naming `from` as predecessor now name `to` (after merging blocks).
fn rename_phi_pred(func: &mut FunctionImpl, from: Block, to: Block) {
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

fn phis(func: &FunctionImpl, block: Block) -> Vec<Instr> {
    func.block_instrs(block)
        .into_iter()
        .take_while(|i| matches!(func.instrs[*i].kind, InstrKind::Phi(_)))
        .collect()
}

/// One transformation; true if something changed.
fn step(func: &mut FunctionImpl) -> bool {
    // 1. Code after jumps.
    for node in func.cf_nodes_in_order() {
        let Some(block) = func.cf_block(node) else {
            continue;
        };
        if func.block_jump(block).is_some() {
            if let Some(next) = func.cf_next(node) {
                remove_after(func, next);
                return true;
            }
        }
    }
    // 2. Dead loops.
    for node in func.cf_nodes_in_order() {
        if !matches!(func.cf[node].kind, CfKind::Loop { .. }) {
            continue;
        }
        let (Some(prev), Some(next)) = (func.cf_prev(node), func.cf_next(node)) else {
            continue;
        };
        let (Some(_), Some(after)) = (func.cf_block(prev), func.cf_block(next)) else {
            continue;
        };
        if phis(func, after).is_empty() && loop_is_dead(func, node) {
            func.remove_cf(node);
            merge_with_next(func, prev);
            return true;
        }
    }
    // 3. Ifs.
    for node in func.cf_nodes_in_order() {
        let CfKind::If {
            cond,
            then_list,
            else_list,
        } = func.cf[node].kind.clone()
        else {
            continue;
        };
        let (Some(prev), Some(next)) = (func.cf_prev(node), func.cf_next(node)) else {
            continue;
        };
        let (Some(_), Some(after)) = (func.cf_block(prev), func.cf_block(next)) else {
            continue;
        };
        if let Some(values) = func.const_value(cond) {
            let taken = if values.first().copied().unwrap_or(0) != 0 {
                then_list
            } else {
                else_list
            };
            if inline_arm(func, node, taken, after) {
                return true;
            }
            continue;
        }
        let empty_arm = |list: CfList| {
            list.first == list.last
                && list
                    .first
                    .and_then(|n| func.cf_block(n))
                    .is_some_and(|b| func.blocks[b].first.is_none())
        };
        if empty_arm(then_list) && empty_arm(else_list) {
            let mut replacements = Vec::new();
            let mut ok = true;
            for phi in phis(func, after) {
                let InstrKind::Phi(srcs) = &func.instrs[phi].kind else {
                    continue;
                };
                let mut vals: Vec<Def> = srcs.iter().map(|(_, d)| *d).collect();
                vals.dedup();
                if vals.len() == 1 {
                    replacements.push((phi, vals[0]));
                } else {
                    ok = false;
                }
            }
            if !ok {
                continue;
            }
            for (phi, v) in replacements {
                if let Some(d) = func.def_of(phi) {
                    func.rewrite_uses(None, d, v);
                }
                func.remove_instr(phi);
            }
            func.remove_cf(node);
            merge_with_next(func, prev);
            return true;
        }
    }
    false
}

fn loop_is_dead(func: &FunctionImpl, node: CfNode) -> bool {
    use crate::intrinsics::CAN_ELIMINATE;
    let inside = blocks_under(func, node);
    let mut has_break = false;
    let mut defs = rustc_hash::FxHashSet::default();
    for &b in &inside {
        for i in func.block_instrs(b) {
            let data = &func.instrs[i];
            match &data.kind {
                // Only breaks of this loop count; inner loops' breaks stay inside.
                InstrKind::Jump(JumpKind::Break)
                    if func.blocks[b].cf.and_then(|n| func.enclosing_loop(n)) == Some(node) =>
                {
                    has_break = true;
                }
                InstrKind::Jump(JumpKind::Return | JumpKind::Halt) | InstrKind::Call { .. } => {
                    return false
                }
                InstrKind::Intrinsic(intr) if intr.op.info().flags & CAN_ELIMINATE == 0 => {
                    return false
                }
                _ => {}
            }
            defs.extend(data.defs());
        }
    }
    if !has_break {
        return false;
    }
    // No value defined inside may be used outside.
    let inside_set: rustc_hash::FxHashSet<Block> = inside.into_iter().collect();
    for b in func.blocks_in_order() {
        if inside_set.contains(&b) {
            continue;
        }
        for i in func.block_instrs(b) {
            let mut escapes = false;
            func.instrs[i].for_each_src(|d| escapes |= defs.contains(&d));
            if escapes {
                return false;
            }
        }
    }
    for (n, cond) in func.if_conditions() {
        let if_block = func.cf_prev(n).and_then(|p| func.cf_block(p));
        if defs.contains(&cond) && !if_block.is_some_and(|b| inside_set.contains(&b)) {
            return false;
        }
    }
    true
}

/// Removes `node` and every following sibling.
fn remove_after(func: &mut FunctionImpl, node: CfNode) {
    let mut cur = Some(node);
    while let Some(n) = cur {
        cur = func.cf_next(n);
        func.remove_cf(n);
    }
}

/// Appends the instructions of the block after `node` (a block node) to it, removes
/// that block, and renames it to the surviving block in phi sources.
fn merge_with_next(func: &mut FunctionImpl, node: CfNode) {
    let Some(block) = func.cf_block(node) else {
        return;
    };
    let Some(next) = func.cf_next(node) else {
        return;
    };
    let Some(next_block) = func.cf_block(next) else {
        return;
    };
    func.move_instrs(next_block, block);
    func.remove_cf(next);
    rename_phi_pred(func, next_block, block);
}

/// Replaces the if `node` by the contents of `arm`. Returns false (and changes nothing)
/// when the arm's exit does not flow into `after` or its first block holds phis.
fn inline_arm(func: &mut FunctionImpl, node: CfNode, arm: CfList, after: Block) -> bool {
    let nodes = func.list_nodes(arm);
    let (Some(&first), Some(&last)) = (nodes.first(), nodes.last()) else {
        return false;
    };
    let (Some(first_block), Some(last_block)) = (func.cf_block(first), func.cf_block(last)) else {
        return false;
    };
    if func.block_jump(last_block).is_some() || !phis(func, first_block).is_empty() {
        return false;
    }
    // Phis after the if take the value from the taken arm's exit block.
    let mut replacements = Vec::new();
    for phi in phis(func, after) {
        let InstrKind::Phi(srcs) = &func.instrs[phi].kind else {
            continue;
        };
        match srcs.iter().find(|(b, _)| *b == last_block) {
            Some((_, v)) => replacements.push((phi, *v)),
            None => return false,
        }
    }
    for (phi, v) in replacements {
        if let Some(d) = func.def_of(phi) {
            func.rewrite_uses(None, d, v);
        }
        func.remove_instr(phi);
    }
    let Some(prev) = func.cf_prev(node) else {
        return false;
    };
    // Move the arm's nodes after the if, in order, then drop the (now empty) if.
    let mut anchor = node;
    for n in nodes {
        func.move_cf_after(n, anchor);
        anchor = n;
    }
    func.remove_cf(node);
    // prev, first ... last, after: merge the two seams.
    merge_with_next(func, prev);
    if let Some(last_node) = func.blocks[last_block].cf {
        if last_block == first_block {
            merge_with_next(func, prev);
        } else {
            merge_with_next(func, last_node);
        }
    }
    true
}
