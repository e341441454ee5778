//! `lower_subgroups` (Mesa's `nir_lower_subgroups`) for a driver with a fixed
//! subgroup size and ballot shape.
//!
//! Arguments: `subgroup_size=N` (1 to 128, required) and `ballot_components=N` (the
//! number of 32-bit words of the driver's ballot, 1, 2 or 4; default 4 as Mesa's
//! uvec4 ballots). Then:
//! * `load_subgroup_size` → the constant `N`;
//! * a `ballot` whose 32-bit shape differs from the driver's becomes the driver's
//!   ballot resized word by word (words past the driver's are 0, so the size must
//!   fit: `N ≤ 32 * ballot_components`);
//! * the masks `load_subgroup_{eq,ge,gt,le,lt}_mask` → ALU on
//!   `load_subgroup_invocation` per 32-bit word `w` (bits `32w..32w+32`): `eq` sets
//!   bit `id`; `ge`/`gt` the bits from `id`/`id + 1` up to `N - 1`; `le`/`lt` the bits
//!   below `id + 1`/`id` (ARB_shader_ballot's definitions);
//! * with `N = 1` (Mesa's `lower_vote_trivial`): `vote_any`/`vote_all` → their
//!   condition, `vote_ieq`/`vote_feq` → true, `read_invocation`/
//!   `read_first_invocation` → the value.
//!
//! 64-bit ballots and masks (ARB_shader_ballot's `uint64_t`) need 64-bit integer
//! ALU, which this NIR does not have yet: the pass refuses them
//! ([`PassFailure::SubgroupValue64`]); a front end emits them as `uvec2`.

use super::args::{parse_u32, FromPassArgs, PassArgs, PassArgsError};
use super::{Pass, PassFailure};
use crate::builder::{vec_opcode, Builder, Cursor};
use crate::intrinsics::IntrinsicOp as I;
use crate::ir::*;
use crate::opcodes::Opcode;

/// The pass.
#[derive(Copy, Clone, Debug)]
pub struct LowerSubgroups {
    /// Invocations per subgroup.
    pub subgroup_size: u32,
    /// 32-bit words of the driver's ballot.
    pub ballot_components: u8,
}

impl FromPassArgs for LowerSubgroups {
    /// `subgroup_size=N` (required), `ballot_components=1|2|4`.
    fn from_args(args: &mut PassArgs<'_>) -> Result<Self, PassArgsError> {
        let subgroup_size = args.required("subgroup_size", "1 to 128", |s| {
            parse_u32(s).filter(|n| (1..=128).contains(n))
        })?;
        let ballot_components = args
            .parsed("ballot_components", "1, 2 or 4", |s| {
                parse_u32(s)
                    .filter(|n| matches!(n, 1 | 2 | 4))
                    .map(|n| n as u8)
            })?
            .unwrap_or(4);
        if subgroup_size > 32 * u32::from(ballot_components) {
            return Err(PassArgsError::BadValue {
                pass: args.pass(),
                key: "ballot_components",
                value: ballot_components.to_string(),
                expected: "enough 32-bit words for subgroup_size bits",
            });
        }
        Ok(LowerSubgroups {
            subgroup_size,
            ballot_components,
        })
    }
}

impl Pass for LowerSubgroups {
    fn name(&self) -> &'static str {
        "lower_subgroups"
    }
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure> {
        // Refuse before changing anything.
        for (_, func) in shader.functions.iter() {
            let Some(body) = &func.body else { continue };
            for block in body.blocks_in_order() {
                for instr in body.block_instrs(block) {
                    if let (InstrKind::Intrinsic(intr), Some(d)) =
                        (&body.instrs[instr].kind, body.instrs[instr].def)
                    {
                        if is_bit_set(intr.op) && body.defs[d].bit_size == 64 {
                            return Err(PassFailure::SubgroupValue64 {
                                intrinsic: intr.op.info().name,
                            });
                        }
                    }
                }
            }
        }
        let ids: Vec<FuncId> = shader.functions.keys().collect();
        let mut progress = false;
        for id in ids {
            if let Some(body) = shader.functions[id].body.as_mut() {
                progress |= self.lower_impl(body);
            }
        }
        Ok(progress)
    }
}

fn is_bit_set(op: I) -> bool {
    matches!(
        op,
        I::ballot
            | I::load_subgroup_eq_mask
            | I::load_subgroup_ge_mask
            | I::load_subgroup_gt_mask
            | I::load_subgroup_le_mask
            | I::load_subgroup_lt_mask
    )
}

impl LowerSubgroups {
    fn lower_impl(&self, func: &mut FunctionImpl) -> bool {
        let mut uses = func.build_uses();
        let mut progress = false;
        for block in func.blocks_in_order() {
            for instr in func.block_instrs(block) {
                let InstrKind::Intrinsic(intr) = &func.instrs[instr].kind else {
                    continue;
                };
                let intr = intr.clone();
                let Some(old) = func.instrs[instr].def else {
                    continue;
                };
                let (comps, bits) = (func.defs[old].num_components, func.defs[old].bit_size);
                let trivial = self.subgroup_size == 1;
                let mut b = Builder::new(func, Cursor::Before(instr));
                let new = match intr.op {
                    I::load_subgroup_size if bits == 32 => {
                        b.load_const(32, vec![u64::from(self.subgroup_size)])
                    }
                    I::ballot if bits == 32 && comps != self.ballot_components => {
                        let n = self.ballot_components;
                        let Some(native) =
                            b.intrinsic(I::ballot, intr.srcs.clone(), n, Vec::new(), Some((n, 32)))
                        else {
                            continue;
                        };
                        resize(&mut b, native, n, comps)
                    }
                    I::load_subgroup_eq_mask
                    | I::load_subgroup_ge_mask
                    | I::load_subgroup_gt_mask
                    | I::load_subgroup_le_mask
                    | I::load_subgroup_lt_mask
                        if bits == 32 =>
                    {
                        self.mask(&mut b, intr.op, comps)
                    }
                    I::vote_any | I::vote_all | I::read_first_invocation if trivial => intr.srcs[0],
                    I::read_invocation if trivial => intr.srcs[0],
                    I::vote_ieq | I::vote_feq if trivial => b.load_const(1, vec![1]),
                    _ => continue,
                };
                func.rewrite_uses(Some(&mut uses), old, new);
                func.remove_instr(instr);
                progress = true;
            }
        }
        progress
    }

    /// A subgroup mask of `comps` 32-bit words.
    fn mask(&self, b: &mut Builder, op: I, comps: u8) -> Def {
        let id = b
            .intrinsic(
                I::load_subgroup_invocation,
                Vec::new(),
                0,
                Vec::new(),
                Some((1, 32)),
            )
            .unwrap_or_else(|| b.undef(1, 32));
        let one = b.imm_i32(1);
        let next = b.alu_defs(Opcode::iadd, &[id, one]);
        let words: Vec<Def> = (0..u32::from(comps))
            .map(|w| {
                let base = 32 * w;
                // Bits of this word below the subgroup size.
                let live = match self.subgroup_size.saturating_sub(base) {
                    0 => 0u32,
                    n if n >= 32 => u32::MAX,
                    n => (1u32 << n) - 1,
                };
                match op {
                    I::load_subgroup_eq_mask => {
                        let base_c = b.imm_i32(base as i32);
                        let rel = b.alu_defs(Opcode::isub, &[id, base_c]);
                        let k32 = b.imm_i32(32);
                        let inside = b.alu_defs(Opcode::ult, &[rel, k32]);
                        let bit = b.alu_defs(Opcode::ishl, &[one, rel]);
                        let zero = b.imm_i32(0);
                        b.alu_defs(Opcode::bcsel, &[inside, bit, zero])
                    }
                    I::load_subgroup_ge_mask | I::load_subgroup_gt_mask => {
                        let from = if op == I::load_subgroup_ge_mask {
                            id
                        } else {
                            next
                        };
                        let raw = from_bit(b, from, base);
                        let live = b.imm_i32(live as i32);
                        b.alu_defs(Opcode::iand, &[raw, live])
                    }
                    _ => {
                        let upto = if op == I::load_subgroup_le_mask {
                            next
                        } else {
                            id
                        };
                        let raw = from_bit(b, upto, base);
                        b.alu_defs(Opcode::inot, &[raw])
                    }
                }
            })
            .collect();
        gather(b, &words)
    }
}

/// The bits of the word starting at bit `base` whose index is at least `from`:
/// all when `from ≤ base`, none when `from ≥ base + 32`, else `~0 << (from - base)`.
fn from_bit(b: &mut Builder, from: Def, base: u32) -> Def {
    let base_c = b.imm_i32(base as i32);
    let all = b.imm_i32(-1);
    let zero = b.imm_i32(0);
    let below = b.alu_defs(Opcode::uge, &[base_c, from]);
    let rel = b.alu_defs(Opcode::isub, &[from, base_c]);
    let k32 = b.imm_i32(32);
    let inside = b.alu_defs(Opcode::ult, &[rel, k32]);
    let shifted = b.alu_defs(Opcode::ishl, &[all, rel]);
    let partial = b.alu_defs(Opcode::bcsel, &[inside, shifted, zero]);
    b.alu_defs(Opcode::bcsel, &[below, all, partial])
}

/// `vecN` of scalar words (the word itself for one).
fn gather(b: &mut Builder, words: &[Def]) -> Def {
    match (words, vec_opcode(words.len() as u8)) {
        ([one], _) => *one,
        (_, Some(op)) => {
            let srcs: AluSrcs = words.iter().map(|w| AluSrc::new(*w)).collect();
            b.alu_sized(op, srcs, false, words.len() as u8, 32)
        }
        _ => b.undef(words.len() as u8, 32),
    }
}

/// The first `to` words of a `from`-word value, zero-extended.
fn resize(b: &mut Builder, v: Def, from: u8, to: u8) -> Def {
    let words: Vec<Def> = (0..to)
        .map(|i| {
            if i < from {
                b.channel(v, i)
            } else {
                b.imm_i32(0)
            }
        })
        .collect();
    gather(b, &words)
}
