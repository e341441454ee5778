//! `lower_alu_to_scalar` (Mesa's `nir_lower_alu_to_scalar`): every vector ALU
//! instruction becomes one scalar instruction per channel, gathered back with `vecN`.
//!
//! * Per-component opcodes (output size 0) with 2–4 channels are split channel by
//!   channel; each channel reads `swizzle[chan]` of every per-component source. The
//!   `exact` flag is kept on every piece.
//! * Horizontal reductions are expanded as Mesa's `lower_reduction` does: `fdotN` →
//!   `fmul` per channel merged with `fadd`, `ball_fequalN` → `feq`/`iand`,
//!   `bany_fnequalN` → `fneu`/`ior`, `ball_iequalN` → `ieq`/`iand`,
//!   `bany_inequalN` → `ine`/`ior`. Channels are merged in `xyzw` order (Mesa keeps
//!   this order for exact dot products; we use it always so that the result is
//!   bit-identical to the reference definition `((x0·y0 + x1·y1) + x2·y2) + x3·y3`).
//! * `vecN` and `mov`-like gathers stay (they are what the pass produces); pack/unpack
//!   opcodes, which have no scalar form, stay, as in Mesa.
//! * Values wider than 4 channels are left alone: the opcode table has no `vec8`/`vec16`
//!   to gather them back.

use super::{for_each_impl, Pass, PassFailure};
use crate::builder::{vec_opcode, Builder, Cursor};
use crate::ir::*;
use crate::opcodes::Opcode;

/// The pass.
pub struct LowerAluToScalar;

impl Pass for LowerAluToScalar {
    fn name(&self) -> &'static str {
        "lower_alu_to_scalar"
    }
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure> {
        Ok(for_each_impl(shader, lower_impl))
    }
}

/// (channel op, merge op) of a horizontal reduction.
fn reduction(op: Opcode) -> Option<(Opcode, Opcode)> {
    use Opcode::*;
    Some(match op {
        fdot2 | fdot3 | fdot4 => (fmul, fadd),
        ball_fequal2 | ball_fequal3 | ball_fequal4 => (feq, iand),
        bany_fnequal2 | bany_fnequal3 | bany_fnequal4 => (fneu, ior),
        ball_iequal2 | ball_iequal3 | ball_iequal4 => (ieq, iand),
        bany_inequal2 | bany_inequal3 | bany_inequal4 => (ine, ior),
        _ => return None,
    })
}

/// A source reading channel `c` of `src` as channel 0.
fn channel(src: &AluSrc, c: usize) -> AluSrc {
    let mut s = *src;
    s.swizzle[0] = src.swizzle[c];
    s
}

fn lower_impl(func: &mut FunctionImpl) -> bool {
    let mut progress = false;
    let mut uses = func.build_uses();
    for block in func.blocks_in_order() {
        for instr in func.block_instrs(block) {
            let InstrKind::Alu(alu) = func.instrs[instr].kind.clone() else {
                continue;
            };
            let Some(def) = func.instrs[instr].def else {
                continue;
            };
            let (comps, bits) = (func.defs[def].num_components, func.defs[def].bit_size);
            let info = alu.op.info();
            let new = if let Some((chan_op, merge_op)) = reduction(alu.op) {
                let n = usize::from(info.input_sizes.first().copied().unwrap_or(1));
                if alu.srcs.len() != 2 {
                    continue;
                }
                let chan_bits = func.defs[alu.srcs[0].def].bit_size;
                let mut b = Builder::new(func, Cursor::Before(instr));
                let mut last: Option<Def> = None;
                for c in 0..n {
                    let srcs = vec![channel(&alu.srcs[0], c), channel(&alu.srcs[1], c)];
                    let cbits = if chan_op == Opcode::fmul {
                        chan_bits
                    } else {
                        1
                    };
                    let ch = b.alu_sized(chan_op, srcs, alu.exact, 1, cbits);
                    last = Some(match last {
                        None => ch,
                        Some(l) => b.alu_sized(
                            merge_op,
                            vec![AluSrc::new(l), AluSrc::new(ch)],
                            alu.exact,
                            1,
                            bits,
                        ),
                    });
                }
                match last {
                    Some(l) => l,
                    None => continue,
                }
            } else {
                if info.output_size != 0 || comps == 1 {
                    continue;
                }
                let Some(vop) = vec_opcode(comps) else {
                    continue;
                };
                let mut b = Builder::new(func, Cursor::Before(instr));
                let mut chans = Vec::with_capacity(usize::from(comps));
                for c in 0..usize::from(comps) {
                    let srcs: AluSrcs = alu
                        .srcs
                        .iter()
                        .enumerate()
                        .map(|(i, s)| match info.input_sizes.get(i) {
                            Some(0) => channel(s, c),
                            _ => *s,
                        })
                        .collect();
                    let ch = b.alu_sized(alu.op, srcs, alu.exact, 1, bits);
                    chans.push(AluSrc::new(ch));
                }
                b.alu_sized(vop, chans, false, comps, bits)
            };
            func.rewrite_uses(Some(&mut uses), def, new);
            func.remove_instr(instr);
            progress = true;
        }
    }
    progress
}
