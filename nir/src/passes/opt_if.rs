//! `opt_if` (Mesa's `nir_opt_if`), the main cases:
//!
//! * **condition known in the arms**: uses of an `if`'s condition inside its then arm
//!   read `true`, inside its else arm `false` (instruction sources, conditions of
//!   nested ifs, and phi sources flowing from an arm's blocks);
//! * **phi is the condition**: a phi after the `if` choosing `true` from the then arm
//!   and `false` from the else arm is the condition itself (the inverse choice is
//!   `inot(cond)`);
//! * **merge adjacent ifs** on the same condition when the block between them is
//!   empty and neither arm of the first ends in a jump: the second if's arms are
//!   appended to the first's;
//! * **empty then arm**: `if (c) {} else { ... }` becomes `if (!c) { ... }`;
//! * **empty if**: both arms empty blocks: phis after it become `bcsel(c, t, e)` (or
//!   the common value) and the if is removed — the superset of `opt_dead_cf`'s empty-if
//!   case, so the two passes agree.
//!
//! Constant conditions are left to `opt_dead_cf`.

use super::cf_helpers::{
    blocks_under, last_block, merge_with_next, phi_selects, phis, phis_to_bcsel, single_block,
};
use super::{for_each_impl, Pass, PassFailure};
use crate::builder::{Builder, Cursor};
use crate::ir::*;
use crate::opcodes::Opcode;
use rustc_hash::FxHashSet as HashSet;

/// The pass.
pub struct OptIf;

impl Pass for OptIf {
    fn name(&self) -> &'static str {
        "opt_if"
    }
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure> {
        Ok(for_each_impl(shader, opt_if_impl))
    }
}

fn opt_if_impl(func: &mut FunctionImpl) -> bool {
    let mut progress = false;
    // Each step changes the tree or removes a use of a condition; the bound is a guard.
    for _ in 0..10_000 {
        let mut changed = false;
        // Built at the sweep's first `if` (nothing changed before it): a function
        // without ifs needs none. Lists an earlier pass kept serve the first sweep.
        let mut uses: Option<Uses> = func.take_kept_uses();
        for node in func.cf_nodes_in_order() {
            if !func.cf[node].attached || !matches!(func.cf[node].kind, CfKind::If { .. }) {
                continue;
            }
            let uses = uses.get_or_insert_with(|| func.build_uses());
            changed |= evaluate_condition_uses(func, uses, node);
            changed |= phi_is_condition(func, node);
        }
        for node in func.cf_nodes_in_order() {
            // Each helper re-reads the node's current shape, so nodes edited or
            // detached by an earlier step of this sweep are handled correctly.
            if func.cf[node].attached
                && matches!(func.cf[node].kind, CfKind::If { .. })
                && (merge_next_if(func, node)
                    || swap_empty_then(func, node)
                    || remove_empty_if(func, node))
            {
                changed = true;
            }
        }
        if !changed {
            // Nothing changed in this sweep: the lists are current.
            if let Some(uses) = uses {
                func.keep_uses(uses);
            }
            break;
        }
        progress = true;
    }
    progress
}

fn if_parts(func: &FunctionImpl, node: CfNode) -> Option<(Def, CfList, CfList)> {
    match &func.cf[node].kind {
        CfKind::If {
            cond,
            then_list,
            else_list,
        } => Some((*cond, *then_list, *else_list)),
        _ => None,
    }
}

fn list_blocks(func: &FunctionImpl, list: CfList) -> HashSet<Block> {
    func.list_nodes(list)
        .into_iter()
        .flat_map(|n| blocks_under(func, n))
        .collect()
}

/// Rewrites uses of the condition inside the arms to constants. `uses` is computed
/// once per sweep (entries may go stale as uses are rewritten; every rewrite
/// re-checks the source).
fn evaluate_condition_uses(func: &mut FunctionImpl, uses: &Uses, node: CfNode) -> bool {
    let Some((cond, then_list, else_list)) = if_parts(func, node) else {
        return false;
    };
    if func.const_value(cond).is_some() || func.defs[cond].num_components != 1 {
        return false;
    }
    let users: Vec<Instr> = uses[cond].iter().filter_map(|u| u.instr()).collect();
    let if_users: Vec<CfNode> = uses[cond]
        .iter()
        .filter_map(|u| match u {
            Use::If(n) => Some(*n),
            Use::Instr(_) => None,
        })
        .collect();
    if users.is_empty() && if_users.len() <= 1 {
        // The if itself is the only use.
        return false;
    }
    let mut progress = false;
    for (list, value) in [(then_list, true), (else_list, false)] {
        let blocks = list_blocks(func, list);
        let mut instr_uses = Vec::new();
        let mut phi_uses = Vec::new();
        for &user in &users {
            let Some(ub) = func.instr_block(user) else {
                continue;
            };
            match &func.instrs[user].kind {
                InstrKind::Phi(srcs) => {
                    if srcs.iter().any(|(p, d)| *d == cond && blocks.contains(p)) {
                        phi_uses.push(user);
                    }
                }
                _ => {
                    let mut hit = false;
                    func.instrs[user].for_each_src(|d| hit |= d == cond);
                    if hit && blocks.contains(&ub) {
                        instr_uses.push(user);
                    }
                }
            }
        }
        let mut nested_ifs = Vec::new();
        for &n in &if_users {
            if !func.cf[n].attached {
                continue;
            }
            let before = func.cf_prev(n).and_then(|p| func.cf_block(p));
            let same = func.if_condition(n) == Some(cond);
            if same && before.is_some_and(|b| blocks.contains(&b)) {
                nested_ifs.push(n);
            }
        }
        if instr_uses.is_empty() && phi_uses.is_empty() && nested_ifs.is_empty() {
            continue;
        }
        let Some(first) = list.first.and_then(|n| func.cf_block(n)) else {
            continue;
        };
        let mut b = Builder::new(func, Builder::after_phis(func, first));
        let constant = b.load_const(1, vec![u64::from(value)]);
        for instr in instr_uses {
            func.instrs[instr].for_each_src_mut(|d| {
                if *d == cond {
                    *d = constant;
                }
            });
        }
        for phi in phi_uses {
            if let InstrKind::Phi(srcs) = &mut func.instrs[phi].kind {
                for (p, d) in srcs.iter_mut() {
                    if *d == cond && blocks.contains(p) {
                        *d = constant;
                    }
                }
            }
        }
        for n in nested_ifs {
            func.visit_use_mut(Use::If(n), |c| *c = constant);
        }
        progress = true;
    }
    progress
}

fn const_bool(func: &FunctionImpl, def: Def) -> Option<bool> {
    if func.defs[def].bit_size != 1 || func.defs[def].num_components != 1 {
        return None;
    }
    func.const_value(def)
        .and_then(|v| v.first())
        .map(|v| *v != 0)
}

/// `phi(then: true, else: false)` after an if on `c` is `c`; the inverse is `inot(c)`.
fn phi_is_condition(func: &mut FunctionImpl, node: CfNode) -> bool {
    let Some((cond, then_list, else_list)) = if_parts(func, node) else {
        return false;
    };
    let Some(after) = func.cf_next(node).and_then(|n| func.cf_block(n)) else {
        return false;
    };
    let (Some(then_exit), Some(else_exit)) =
        (last_block(func, then_list), last_block(func, else_list))
    else {
        return false;
    };
    let mut progress = false;
    for phi in phis(func, after) {
        let InstrKind::Phi(srcs) = &func.instrs[phi].kind else {
            continue;
        };
        if srcs.len() != 2 || func.defs[cond].num_components != 1 {
            continue;
        }
        let value = |b: Block| srcs.iter().find(|(p, _)| *p == b).map(|(_, d)| *d);
        let (Some(t), Some(e)) = (value(then_exit), value(else_exit)) else {
            continue;
        };
        let Some(def) = func.instrs[phi].def else {
            continue;
        };
        let new = match (const_bool(func, t), const_bool(func, e)) {
            (Some(true), Some(false)) => cond,
            (Some(false), Some(true)) => {
                let mut b = Builder::new(func, Builder::after_phis(func, after));
                b.alu(Opcode::inot, [AluSrc::new(cond)], 1)
            }
            _ => continue,
        };
        func.rewrite_uses(None, def, new);
        func.remove_instr(phi);
        progress = true;
    }
    progress
}

/// Appends the arms of the next if (same condition, empty block between) to this one.
fn merge_next_if(func: &mut FunctionImpl, node: CfNode) -> bool {
    let Some((cond, then_list, else_list)) = if_parts(func, node) else {
        return false;
    };
    if func.const_value(cond).is_some() {
        return false;
    }
    let Some(mid) = func.cf_next(node) else {
        return false;
    };
    let Some(mid_block) = func.cf_block(mid) else {
        return false;
    };
    if func.blocks[mid_block].first.is_some() {
        return false;
    }
    let Some(next_if) = func.cf_next(mid) else {
        return false;
    };
    let Some((next_cond, next_then, next_else)) = if_parts(func, next_if) else {
        return false;
    };
    if next_cond != cond {
        return false;
    }
    let (Some(then_exit), Some(else_exit)) =
        (last_block(func, then_list), last_block(func, else_list))
    else {
        return false;
    };
    if func.block_jump(then_exit).is_some() || func.block_jump(else_exit).is_some() {
        return false;
    }
    let first_has_phis = |list: CfList| {
        list.first
            .and_then(|n| func.cf_block(n))
            .is_none_or(|b| !phis(func, b).is_empty())
    };
    if first_has_phis(next_then) || first_has_phis(next_else) {
        return false;
    }
    for (from, into_exit) in [(next_then, then_exit), (next_else, else_exit)] {
        let Some(mut anchor) = func.blocks[into_exit].cf else {
            return false;
        };
        let anchor_block_node = anchor;
        for n in func.list_nodes(from) {
            func.move_cf_after(n, anchor);
            anchor = n;
        }
        // The old exit and the first moved block are now adjacent blocks.
        merge_with_next(func, anchor_block_node);
    }
    func.remove_cf(next_if);
    // mid (empty) and the block after the second if are adjacent now.
    merge_with_next(func, mid);
    true
}

/// `if (c) {} else { body }` becomes `if (!c) { body } else {}`.
fn swap_empty_then(func: &mut FunctionImpl, node: CfNode) -> bool {
    let Some((cond, then_list, else_list)) = if_parts(func, node) else {
        return false;
    };
    let Some(then_block) = single_block(func, then_list) else {
        return false;
    };
    if func.blocks[then_block].first.is_some() {
        return false;
    }
    let else_empty = single_block(func, else_list).is_some_and(|b| func.blocks[b].first.is_none());
    if else_empty {
        return false;
    }
    let Some(prev_block) = func.cf_prev(node).and_then(|p| func.cf_block(p)) else {
        return false;
    };
    let mut b = Builder::new(func, Cursor::EndOf(prev_block));
    let inverted = b.alu(Opcode::inot, [AluSrc::new(cond)], 1);
    if let CfKind::If {
        cond,
        then_list,
        else_list,
    } = &mut func.cf[node].kind
    {
        *cond = inverted;
        std::mem::swap(then_list, else_list);
    }
    for n in func.list_nodes(then_list) {
        func.cf[n].parent = CfParent::Else(node);
    }
    for n in func.list_nodes(else_list) {
        func.cf[n].parent = CfParent::Then(node);
    }
    func.recompute_cfg();
    // Phi sources keep naming the same blocks; only their order of printing changes.
    true
}

/// Both arms empty: phis become selects and the if goes away.
fn remove_empty_if(func: &mut FunctionImpl, node: CfNode) -> bool {
    let Some((cond, then_list, else_list)) = if_parts(func, node) else {
        return false;
    };
    let (Some(tb), Some(eb)) = (single_block(func, then_list), single_block(func, else_list))
    else {
        return false;
    };
    if func.blocks[tb].first.is_some() || func.blocks[eb].first.is_some() {
        return false;
    }
    let (Some(prev), Some(next)) = (func.cf_prev(node), func.cf_next(node)) else {
        return false;
    };
    let (Some(prev_block), Some(after)) = (func.cf_block(prev), func.cf_block(next)) else {
        return false;
    };
    let Some(selects) = phi_selects(func, after, tb, eb) else {
        return false;
    };
    phis_to_bcsel(func, cond, prev_block, &selects);
    func.remove_cf(node);
    merge_with_next(func, prev);
    true
}
