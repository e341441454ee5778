//! `opt_move` (Mesa's `nir_opt_move` with `nir_move_const_undef |
//! nir_move_comparisons`): inside each block, `load_const`, `undef` and ALU
//! comparisons move down to just before their first user in the same block, which
//! shortens live ranges (a comparison lands next to the `bcsel` or the `if` reading
//! it).
//!
//! Instructions are visited from the end of the block backwards. Uses in other blocks
//! and phi uses do not pin an instruction; with no user in the block, it moves to the
//! end of the block (before a final jump). An instruction feeding the following `if`
//! is only pulled down to the end of the block. Several instructions moved before the
//! same user keep their original order. Nothing crosses a block boundary, so dominance
//! is preserved.

use super::{for_each_impl, Pass, PassFailure};
use crate::builder::{Builder, Cursor};
use crate::ir::*;
use crate::opcodes::Opcode;
use rustc_hash::FxHashMap as HashMap;

/// The pass.
pub struct OptMove;

impl Pass for OptMove {
    fn name(&self) -> &'static str {
        "opt_move"
    }
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure> {
        Ok(for_each_impl(shader, move_impl))
    }
}

fn is_comparison(op: Opcode) -> bool {
    use Opcode::*;
    matches!(
        op,
        flt | fge
            | feq
            | fneu
            | ilt
            | ige
            | ieq
            | ine
            | ult
            | uge
            | ball_fequal2
            | ball_fequal3
            | ball_fequal4
            | bany_fnequal2
            | bany_fnequal3
            | bany_fnequal4
            | ball_iequal2
            | ball_iequal3
            | ball_iequal4
            | bany_inequal2
            | bany_inequal3
            | bany_inequal4
    )
}

fn can_move(data: &InstrData) -> bool {
    match &data.kind {
        InstrKind::LoadConst(_) | InstrKind::Undef => true,
        InstrKind::Alu(alu) => is_comparison(alu.op),
        _ => false,
    }
}

fn move_impl(func: &mut FunctionImpl) -> bool {
    let uses = func.build_uses();
    let mut progress = false;
    for block in func.blocks_in_order() {
        let instrs = func.block_instrs(block);
        let last_jump = instrs
            .last()
            .copied()
            .filter(|i| matches!(func.instrs[*i].kind, InstrKind::Jump(_)));
        // Sparse positions, so a moved instruction gets one between its neighbours.
        let mut position: HashMap<Instr, u64> = instrs
            .iter()
            .enumerate()
            .map(|(n, i)| (*i, (n as u64 + 1) << 20))
            .collect();
        // Where each moved (or movable) instruction goes: before a user, or the end.
        let mut targets: HashMap<Instr, Option<Instr>> = HashMap::default();
        for &instr in instrs.iter().rev() {
            if !can_move(&func.instrs[instr]) {
                continue;
            }
            let Some(def) = func.instrs[instr].def else {
                continue;
            };
            // The condition of the if right after this block is read at its end.
            let branched_on_here = uses[def].iter().any(|u| match u {
                Use::If(n) => func.cf_prev(*n).and_then(|p| func.cf_block(p)) == Some(block),
                Use::Instr(_) => false,
            });
            let mut first_user = if branched_on_here { None } else { last_jump };
            for &user in &uses[def] {
                let Some(user) = user.instr() else {
                    continue;
                };
                if func.instr_block(user) != Some(block)
                    || matches!(func.instrs[user].kind, InstrKind::Phi(_))
                {
                    continue;
                }
                let earlier = match first_user {
                    None => true,
                    Some(f) => position.get(&user) < position.get(&f),
                };
                if earlier {
                    first_user = Some(user);
                }
            }
            targets.insert(instr, first_user);
            // Already in place: only instructions placed by this walk (movable ones,
            // all later in the block) separate it from its target. This makes the
            // pass idempotent.
            let mut cur = func.instr_next(instr);
            let in_place = loop {
                match cur {
                    c if c == first_user => break true,
                    Some(n) if targets.contains_key(&n) => cur = func.instr_next(n),
                    _ => break false,
                }
            };
            if in_place {
                continue;
            }
            // Go before the run of instructions already moved to the same place, so
            // their original order is kept.
            let mut anchor = first_user;
            loop {
                let prev = match anchor {
                    Some(a) => func.instr_prev(a),
                    None => func.blocks[block].last,
                };
                match prev {
                    Some(p) if p != instr && targets.get(&p) == Some(&first_user) => {
                        anchor = Some(p)
                    }
                    _ => break,
                }
            }
            let anchor_pos = match anchor {
                Some(a) => position.get(&a).copied().unwrap_or(0),
                None => (instrs.len() as u64 + 2) << 20,
            };
            position.insert(instr, anchor_pos.saturating_sub(1));
            func.remove_instr(instr);
            let cursor = match anchor {
                Some(a) => Cursor::Before(a),
                None => Cursor::EndOf(block),
            };
            Builder::new(func, cursor).insert(instr);
            progress = true;
        }
    }
    progress
}
