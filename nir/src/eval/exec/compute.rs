//! Evaluation of the GL 4.x intrinsics of the lowered form: storage buffers and
//! shared memory (`load_ssbo`, `store_shared`, the atomics, `get_ssbo_size`), the
//! workgroup `barrier`, the ARB_shader_ballot / ARB_shader_group_vote operations and
//! the subgroup masks.
//!
//! Memory lives in the invocation's [`Group`]: accesses are bounds-checked per
//! component; an out-of-range read gives 0 (undefined, counted in
//! `out_of_bounds`) and an out-of-range write is dropped (counted in
//! `out_of_bounds` and `out_of_bounds_writes`). Atomics run while the invocation
//! holds the group's turn, so they are atomic with respect to every other
//! invocation. A workgroup-scope barrier and every subgroup operation are
//! rendezvous points of the group's scheduler (see [`super::super::group`]).

use super::*;
use crate::eval::group::{Deposit, BARRIER_KEY};
use crate::intrinsics::{AtomicOp, Scope};
use crate::ir::names::{SYSTEM_VALUE_SUBGROUP_INVOCATION, SYSTEM_VALUE_SUBGROUP_SIZE};

/// The intrinsics evaluated here.
pub(super) fn handles(op: IntrinsicOp) -> bool {
    use IntrinsicOp as I;
    matches!(
        op,
        I::load_ssbo
            | I::store_ssbo
            | I::get_ssbo_size
            | I::ssbo_atomic
            | I::ssbo_atomic_swap
            | I::load_shared
            | I::store_shared
            | I::shared_atomic
            | I::shared_atomic_swap
            | I::barrier
            | I::ballot
            | I::read_invocation
            | I::read_first_invocation
            | I::vote_any
            | I::vote_all
            | I::vote_ieq
            | I::vote_feq
            | I::load_subgroup_eq_mask
            | I::load_subgroup_ge_mask
            | I::load_subgroup_gt_mask
            | I::load_subgroup_le_mask
            | I::load_subgroup_lt_mask
            | I::deref_atomic
            | I::deref_atomic_swap
            | I::deref_buffer_array_length
    )
}

/// A bit set of `width` bits as the result shape `(comps, bits)`.
fn bits_to_shape(set: u128, comps: u8, bits: u8) -> Vec<u64> {
    if bits == 64 {
        (0..comps)
            .map(|i| (set >> (64 * u32::from(i))) as u64)
            .collect()
    } else {
        (0..comps)
            .map(|i| ((set >> (32 * u32::from(i))) as u64) & 0xffff_ffff)
            .collect()
    }
}

/// Float equality of raw `bits`-bit values (NaN is never equal).
fn float_eq(a: u64, b: u64, bits: u8) -> bool {
    match bits {
        16 => half::f16::from_bits(a as u16) == half::f16::from_bits(b as u16),
        64 => f64::from_bits(a) == f64::from_bits(b),
        _ => f32::from_bits(a as u32) == f32::from_bits(b as u32),
    }
}

impl<'a> Interp<'a> {
    fn sysval_word(&self, location: i32) -> u32 {
        self.input.system_values.get(&location).map_or(0, |v| v[0])
    }

    fn mem_read(&mut self, block: Option<u32>, byte: i64, size: usize) -> (u64, bool) {
        let v = self
            .group
            .memory
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .read(block, byte, size);
        match v {
            Some(v) => (v, false),
            None => {
                self.out.out_of_bounds += 1;
                (0, true)
            }
        }
    }

    fn mem_write(&mut self, block: Option<u32>, byte: i64, size: usize, value: u64) {
        let ok = self
            .group
            .memory
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .write(block, byte, size, value);
        if !ok {
            self.out.out_of_bounds += 1;
            self.out.out_of_bounds_writes += 1;
        }
    }

    /// What an explicit access addresses, from its sources starting at `first`:
    /// `Some(Some(block))` for a storage buffer, `Some(None)` for shared memory,
    /// `None` for a negative block index; and the byte offset.
    fn explicit_address(
        &mut self,
        f: &Frame,
        intr: &Intrinsic,
        first: usize,
        ssbo: bool,
    ) -> Res<(Option<Option<u32>>, i64)> {
        if ssbo {
            let block = self.scalar(f, Self::src(intr, first)?)?;
            let off = self.scalar(f, Self::src(intr, first + 1)?)?;
            Ok((u32::try_from(block).ok().map(Some), off))
        } else {
            let off = self.scalar(f, Self::src(intr, first)?)?;
            let base = i64::from(Self::index(intr, IndexKind::Base) as i32);
            Ok((Some(None), off.saturating_add(base)))
        }
    }

    pub(super) fn compute_intrinsic(
        &mut self,
        f: &mut Frame<'a>,
        intr: &Intrinsic,
        (comps, bits): (u8, u8),
        key: u64,
    ) -> Res<Option<Value>> {
        use IntrinsicOp as I;
        let op = intr.op;
        let undefined_all = |n: u8| mask_of((0..n).map(|_| true));
        match op {
            I::load_ssbo | I::load_shared => {
                let (block, off) = self.explicit_address(f, intr, 0, op == I::load_ssbo)?;
                let size = usize::from(bits.max(8) / 8);
                let Some(block) = block else {
                    self.out.out_of_bounds += 1;
                    return Ok(Some(Value::Data(
                        vec![0; usize::from(comps)],
                        undefined_all(comps),
                    )));
                };
                let mut out = Vec::with_capacity(usize::from(comps));
                let mut undef = Vec::with_capacity(usize::from(comps));
                for i in 0..i64::from(comps) {
                    let (v, u) = self.mem_read(block, off.saturating_add(i * size as i64), size);
                    out.push(norm_bits(v, bits));
                    undef.push(u);
                }
                Ok(Some(Value::Data(out, mask_of(undef))))
            }
            I::store_ssbo | I::store_shared => {
                let value = Self::src(intr, 0)?;
                let (n, vbits) = def_shape(f.func, value)?;
                let vals = self.data(f, value)?.to_vec();
                let (block, off) = self.explicit_address(f, intr, 1, op == I::store_ssbo)?;
                let size = usize::from(vbits.max(8) / 8);
                let wrmask = Self::index(intr, IndexKind::WriteMask);
                let Some(block) = block else {
                    self.out.out_of_bounds += 1;
                    self.out.out_of_bounds_writes += 1;
                    return Ok(None);
                };
                for i in 0..usize::from(n) {
                    if wrmask & (1 << i) != 0 {
                        let v = vals.get(i).copied().unwrap_or(0);
                        self.mem_write(block, off.saturating_add((i * size) as i64), size, v);
                    }
                }
                Ok(None)
            }
            I::get_ssbo_size => {
                let block = self.scalar(f, Self::src(intr, 0)?)?;
                let size = match u32::try_from(block) {
                    Ok(b) => self
                        .group
                        .memory
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .ssbo_size(b),
                    Err(_) => 0,
                };
                Ok(Some(Value::Data(vec![size as u64], 0)))
            }
            I::ssbo_atomic | I::ssbo_atomic_swap | I::shared_atomic | I::shared_atomic_swap => {
                let ssbo = matches!(op, I::ssbo_atomic | I::ssbo_atomic_swap);
                let (block, off) = self.explicit_address(f, intr, 0, ssbo)?;
                let first_data = if ssbo { 2 } else { 1 };
                let data0 = self.data(f, Self::src(intr, first_data)?)?[0] as u32;
                let data1 = match op {
                    I::ssbo_atomic_swap | I::shared_atomic_swap => {
                        Some(self.data(f, Self::src(intr, first_data + 1)?)?[0] as u32)
                    }
                    _ => None,
                };
                let Some(block) = block else {
                    self.out.out_of_bounds += 1;
                    return Ok(Some(Value::Data(vec![0], 1)));
                };
                let Some(atomic) = AtomicOp::from_code(Self::index(intr, IndexKind::AtomicOp))
                else {
                    return Err(EvalError::malformed(format!("@{op}: bad atomic_op")));
                };
                let (old, oob) = self.mem_read(block, off, 4);
                if oob {
                    self.out.out_of_bounds_writes += 1;
                    return Ok(Some(Value::Data(vec![0], 1)));
                }
                let old = old as u32;
                let new = match data1 {
                    Some(swap) => atomic.swap_32(old, data0, swap).ok_or_else(|| {
                        EvalError::malformed(format!("@{op}: {} on the swap form", atomic.name()))
                    })?,
                    None => atomic.apply_32(old, data0).ok_or_else(|| {
                        EvalError::malformed(format!(
                            "@{op}: {} without a swap value",
                            atomic.name()
                        ))
                    })?,
                };
                self.mem_write(block, off, 4, u64::from(new));
                Ok(Some(Value::Data(vec![u64::from(old)], 0)))
            }
            I::barrier => {
                let exec = Self::index(intr, IndexKind::ExecutionScope);
                if exec == Scope::Workgroup.code() && self.group.len() > 1 {
                    let n = self.group.len();
                    self.group
                        .rendezvous(self.invocation, 0, n, BARRIER_KEY, (Vec::new(), 0));
                }
                Ok(None)
            }
            I::ballot
            | I::read_invocation
            | I::read_first_invocation
            | I::vote_any
            | I::vote_all
            | I::vote_ieq
            | I::vote_feq => {
                let src = Self::src(intr, 0)?;
                let (_, sbits) = def_shape(f.func, src)?;
                let deposit: Deposit = (self.data(f, src)?.to_vec(), self.undef(f, src)?);
                let wanted = if op == I::read_invocation {
                    Some(self.scalar(f, Self::src(intr, 1)?)?)
                } else {
                    None
                };
                let (lo, hi) = self.group.subgroup_of(self.invocation);
                let lanes = self.group.rendezvous(self.invocation, lo, hi, key, deposit);
                let active = || lanes.iter().flatten();
                let result: Deposit = match op {
                    I::ballot => {
                        let set = lanes
                            .iter()
                            .enumerate()
                            .filter(|(_, d)| d.as_ref().is_some_and(|(v, _)| v[0] != 0))
                            .fold(0u128, |s, (j, _)| s | (1u128 << (j % 128)));
                        (bits_to_shape(set, comps, bits), 0)
                    }
                    I::read_invocation | I::read_first_invocation => {
                        let pick = match wanted {
                            Some(j) => usize::try_from(j)
                                .ok()
                                .and_then(|j| lanes.get(j))
                                .cloned()
                                .flatten(),
                            None => active().next().cloned(),
                        };
                        match pick {
                            Some(d) => d,
                            None => {
                                self.out.out_of_bounds += 1;
                                (vec![0; usize::from(comps)], undefined_all(comps))
                            }
                        }
                    }
                    I::vote_any => (vec![u64::from(active().any(|(v, _)| v[0] != 0))], 0),
                    I::vote_all => (vec![u64::from(active().all(|(v, _)| v[0] != 0))], 0),
                    _ => {
                        let first = active().next().map(|(v, _)| v.clone()).unwrap_or_default();
                        let equal = active().all(|(v, _)| {
                            v.len() == first.len()
                                && v.iter().zip(&first).all(|(a, b)| {
                                    if op == I::vote_feq {
                                        float_eq(*a, *b, sbits)
                                    } else {
                                        norm_bits(*a, sbits) == norm_bits(*b, sbits)
                                    }
                                })
                        });
                        (vec![u64::from(equal)], 0)
                    }
                };
                Ok(Some(Value::Data(result.0, result.1)))
            }
            I::load_subgroup_eq_mask
            | I::load_subgroup_ge_mask
            | I::load_subgroup_gt_mask
            | I::load_subgroup_le_mask
            | I::load_subgroup_lt_mask => {
                let id = self.sysval_word(SYSTEM_VALUE_SUBGROUP_INVOCATION).min(127);
                let size = match self.sysval_word(SYSTEM_VALUE_SUBGROUP_SIZE) {
                    0 => self.group.subgroup_size as u32,
                    s => s,
                }
                .min(128);
                let in_group = if size >= 128 {
                    u128::MAX
                } else {
                    (1u128 << size) - 1
                };
                let at_or_above = u128::MAX << id;
                let above = at_or_above.checked_shl(1).unwrap_or(0) & at_or_above;
                let set = match op {
                    I::load_subgroup_eq_mask => 1u128 << id,
                    I::load_subgroup_ge_mask => at_or_above & in_group,
                    I::load_subgroup_gt_mask => above & in_group,
                    I::load_subgroup_le_mask => !above,
                    _ => !at_or_above,
                };
                Ok(Some(Value::Data(bits_to_shape(set, comps, bits), 0)))
            }
            _ => Err(EvalError::unsupported(format!(
                "@{op} in deref form (run lower_explicit_io first)"
            ))),
        }
    }
}
