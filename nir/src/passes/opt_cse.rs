//! `opt_cse`: common subexpression elimination on SSA. Two instructions are equivalent
//! when they compute the same pure value from the same sources (ALU ops, with the first
//! two sources of commutative ops in canonical order; constants; derefs; texture ops;
//! intrinsics flagged `CAN_REORDER`). An instruction is replaced by an equivalent one
//! that dominates it.

use super::{for_each_impl, Pass, PassFailure};
use crate::arena::EntityRef;
use crate::intrinsics::CAN_REORDER;
use crate::ir::*;
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

/// The pass.
pub struct OptCse;

impl Pass for OptCse {
    fn name(&self) -> &'static str {
        "opt_cse"
    }
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure> {
        Ok(for_each_impl(shader, cse_impl))
    }
}

/// The components of an ALU source an instruction reads (`swizzle[..len]`), ordered
/// like the slice (the canonical order of commutative sources).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct ReadSwizzle {
    len: u8,
    comps: [u8; 16],
}

impl ReadSwizzle {
    fn as_slice(&self) -> &[u8] {
        &self.comps[..usize::from(self.len)]
    }
}

impl PartialOrd for ReadSwizzle {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for ReadSwizzle {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.as_slice().cmp(other.as_slice())
    }
}

fn src_key(src: &AluSrc, read: u8) -> (u32, ReadSwizzle) {
    let len = read.min(16);
    let mut comps = [0u8; 16];
    comps[..usize::from(len)].copy_from_slice(&src.swizzle[..usize::from(len)]);
    (src.def.index() as u32, ReadSwizzle { len, comps })
}

/// What an instruction computes, structurally: two instructions with equal keys
/// compute the same value. A key is a snapshot (the instruction's sources may be
/// rewritten later in the pass).
#[derive(PartialEq, Eq, Hash)]
enum Key {
    Alu {
        op: crate::opcodes::Opcode,
        exact: bool,
        srcs: SmallVec<[(u32, ReadSwizzle); 4]>,
    },
    Const(SmallVec<[u64; 4]>),
    Deref(Deref),
    Tex(Tex),
    Intrinsic(Intrinsic),
}

/// A structural key of a CSE-able instruction, with the size of its value.
fn key(func: &FunctionImpl, instr: Instr) -> Option<(u8, u8, Key)> {
    let data = &func.instrs[instr];
    let def = data.def?;
    let d = &func.defs[def];
    let k = match &data.kind {
        InstrKind::Alu(alu) => {
            let info = alu.op.info();
            let mut srcs: SmallVec<[(u32, ReadSwizzle); 4]> = alu
                .srcs
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let read = match info.input_sizes.get(i) {
                        Some(0) | None => d.num_components,
                        Some(n) => *n,
                    };
                    src_key(s, read)
                })
                .collect();
            if info.is_commutative() && srcs.len() >= 2 && srcs[1] < srcs[0] {
                srcs.swap(0, 1);
            }
            Key::Alu {
                op: alu.op,
                exact: alu.exact,
                srcs,
            }
        }
        InstrKind::LoadConst(v) => Key::Const(SmallVec::from_slice(v)),
        InstrKind::Deref(deref) => Key::Deref(deref.clone()),
        InstrKind::Tex(tex) => Key::Tex(tex.clone()),
        InstrKind::Intrinsic(intr) if intr.op.info().flags & CAN_REORDER != 0 => {
            Key::Intrinsic(intr.clone())
        }
        _ => return None,
    };
    Some((d.bit_size, d.num_components, k))
}

fn cse_impl(func: &mut FunctionImpl) -> bool {
    func.compute_dominance();
    // Sized for every instruction up front: growing the table rehashed every key.
    let mut table: FxHashMap<(u8, u8, Key), SmallVec<[Instr; 1]>> =
        FxHashMap::with_capacity_and_hasher(func.instrs.len(), Default::default());
    let mut progress = false;
    // Taken at the first match (most runs find none) and kept current from there;
    // the lists an earlier pass kept are used when there are some.
    let mut uses: Option<Uses> = func.take_kept_uses();
    // One buffer for every block's instructions (removing the current instruction
    // leaves the rest of the snapshot valid).
    let mut instrs: Vec<Instr> = Vec::new();
    for block in func.blocks_in_order() {
        func.block_instrs_into(block, &mut instrs);
        for &instr in &instrs {
            let Some(k) = key(func, instr) else { continue };
            let candidates = table.entry(k).or_default();
            let found = candidates.iter().copied().find(|c| {
                func.instr_block(*c)
                    .is_some_and(|cb| cb == block || func.dominates(cb, block))
            });
            match found {
                Some(prev) => {
                    let (Some(old), Some(new)) = (func.def_of(instr), func.def_of(prev)) else {
                        continue;
                    };
                    let uses = uses.get_or_insert_with(|| func.build_uses());
                    func.rewrite_uses(Some(uses), old, new);
                    // Not a jump: the CFG and the dominance tree stay valid.
                    func.remove_instr(instr);
                    progress = true;
                }
                None => candidates.push(instr),
            }
        }
    }
    if let (false, Some(uses)) = (progress, uses) {
        func.keep_uses(uses);
    }
    progress
}
