//! `opt_peephole_select` and `opt_conditional_discard` (Mesa's
//! `nir_opt_peephole_select`): flatten a small `if` whose arms are single blocks
//! without jumps into straight-line code, turning the phis after it into `bcsel`s.
//!
//! An arm may only hold instructions that are safe to execute speculatively: ALU ops,
//! constants, undefs, derefs, intrinsics flagged `CAN_REORDER` (uniform/input/UBO
//! loads, system values) and `load_deref` of shader inputs and uniforms. Texture ops,
//! derivatives, stores, other loads, calls and phis keep the `if`. Move-like ALU ops
//! (`mov`, `vecN`, `fneg`, `ineg`, `fabs`, `iabs`), constants, undefs and derefs are
//! free; every other instruction counts towards the limit (8 for
//! `opt_peephole_select`, 0 for `opt_conditional_discard`).
//!
//! `opt_conditional_discard` (limit 0) also accepts one `discard`/`terminate`/`demote`
//! in an arm: `if (c) { discard }` becomes `discard_if(c)` (`terminate_if`,
//! `demote_if`), and a discard in the else arm becomes `discard_if(inot c)`.
//!
//! Ifs are visited innermost first, so a flattened inner if can make its parent
//! flattenable in the same run.

use super::cf_helpers::{merge_with_next, phi_selects, phis, phis_to_bcsel, single_block};
use super::{for_each_impl, Pass, PassFailure};
use crate::builder::{Builder, Cursor};
use crate::intrinsics::{IntrinsicOp, CAN_REORDER};
use crate::ir::*;
use crate::opcodes::Opcode;

/// `opt_peephole_select` (limit 8).
pub struct OptPeepholeSelect;

/// `opt_conditional_discard` (limit 0, discards allowed).
pub struct OptConditionalDiscard;

/// Default instruction limit of `opt_peephole_select` (Mesa's GL loop uses 8).
pub const DEFAULT_LIMIT: usize = 8;

impl Pass for OptPeepholeSelect {
    fn name(&self) -> &'static str {
        "opt_peephole_select"
    }
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure> {
        Ok(for_each_impl(shader, |f| {
            peephole_select_impl(f, DEFAULT_LIMIT, false)
        }))
    }
}

impl Pass for OptConditionalDiscard {
    fn name(&self) -> &'static str {
        "opt_conditional_discard"
    }
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure> {
        Ok(for_each_impl(shader, |f| peephole_select_impl(f, 0, true)))
    }
}

/// What an arm holds, if it can be flattened.
struct ArmInfo {
    count: usize,
    /// A discard-like intrinsic to turn into its conditional form.
    discard: Option<(Instr, IntrinsicOp)>,
}

fn conditional_form(op: IntrinsicOp) -> Option<IntrinsicOp> {
    Some(match op {
        IntrinsicOp::discard => IntrinsicOp::discard_if,
        IntrinsicOp::terminate => IntrinsicOp::terminate_if,
        IntrinsicOp::demote => IntrinsicOp::demote_if,
        _ => return None,
    })
}

fn check_arm(func: &FunctionImpl, block: Block, discard_ok: bool) -> Option<ArmInfo> {
    let mut info = ArmInfo {
        count: 0,
        discard: None,
    };
    for instr in func.block_instrs(block) {
        match &func.instrs[instr].kind {
            InstrKind::Alu(alu) => {
                if !matches!(
                    alu.op,
                    Opcode::mov
                        | Opcode::vec2
                        | Opcode::vec3
                        | Opcode::vec4
                        | Opcode::fneg
                        | Opcode::ineg
                        | Opcode::fabs
                        | Opcode::iabs
                ) {
                    info.count += 1;
                }
            }
            InstrKind::LoadConst(_) | InstrKind::Undef | InstrKind::Deref(_) => {}
            InstrKind::Intrinsic(intr) => {
                if let (true, Some(_)) = (discard_ok, conditional_form(intr.op)) {
                    if info.discard.is_some() {
                        return None;
                    }
                    info.discard = Some((instr, intr.op));
                    continue;
                }
                let speculatable = intr.op.info().flags & CAN_REORDER != 0
                    || (intr.op == IntrinsicOp::load_deref
                        && intr.srcs.first().is_some_and(|d| {
                            matches!(
                                &func.instrs[func.defs[*d].instr].kind,
                                InstrKind::Deref(deref)
                                    if matches!(deref.mode, VarMode::ShaderIn | VarMode::Uniform)
                            )
                        }));
                if !speculatable {
                    return None;
                }
                info.count += 1;
            }
            InstrKind::Tex(_)
            | InstrKind::Phi(_)
            | InstrKind::Jump(_)
            | InstrKind::Call { .. }
            | InstrKind::ParallelCopy(_) => return None,
        }
    }
    Some(info)
}

fn peephole_select_impl(func: &mut FunctionImpl, limit: usize, discard_ok: bool) -> bool {
    let mut progress = false;
    let mut nodes = func.cf_nodes_in_order();
    nodes.reverse();
    for node in nodes {
        if func.cf[node].attached && try_flatten(func, node, limit, discard_ok) {
            progress = true;
        }
    }
    progress
}

fn try_flatten(func: &mut FunctionImpl, node: CfNode, limit: usize, discard_ok: bool) -> bool {
    let CfKind::If {
        cond,
        then_list,
        else_list,
    } = func.cf[node].kind.clone()
    else {
        return false;
    };
    let (Some(then_block), Some(else_block)) =
        (single_block(func, then_list), single_block(func, else_list))
    else {
        return false;
    };
    let (Some(prev), Some(next)) = (func.cf_prev(node), func.cf_next(node)) else {
        return false;
    };
    let (Some(prev_block), Some(after)) = (func.cf_block(prev), func.cf_block(next)) else {
        return false;
    };
    let (Some(then_info), Some(else_info)) = (
        check_arm(func, then_block, discard_ok),
        check_arm(func, else_block, discard_ok),
    ) else {
        return false;
    };
    if then_info.count + else_info.count > limit {
        return false;
    }
    // Only flatten ifs that do something worth flattening: phis to select or a
    // discard to make conditional (an if with nothing of either is dead_cf's job).
    let after_phis = phis(func, after);
    if after_phis.is_empty() && then_info.discard.is_none() && else_info.discard.is_none() {
        return false;
    }
    // Gather the phi selections before moving anything.
    let Some(selects) = phi_selects(func, after, then_block, else_block) else {
        return false;
    };
    // Hoist both arms (discards become conditional where they stand).
    for (block, info, negate) in [
        (then_block, &then_info, false),
        (else_block, &else_info, true),
    ] {
        if let Some((instr, op)) = info.discard {
            let Some(cond_op) = conditional_form(op) else {
                return false;
            };
            let mut b = Builder::new(func, Cursor::Before(instr));
            let c = if negate {
                b.alu(Opcode::inot, [AluSrc::new(cond)], 1)
            } else {
                cond
            };
            b.intrinsic(cond_op, vec![c], 0, Vec::new(), None);
            func.remove_instr(instr);
        }
        func.move_instrs(block, prev_block);
    }
    phis_to_bcsel(func, cond, prev_block, &selects);
    func.remove_cf(node);
    merge_with_next(func, prev);
    true
}
