//! Storage buffer intrinsics of the lane compiler (GL 4.3 §7.8; atomic counters
//! arrive as storage-buffer intrinsics on block `ATOMIC_COUNTER_BLOCK_BASE + k`,
//! see `rgl_nir::options::storage_bindings`): `load_ssbo`, `store_ssbo`,
//! `ssbo_atomic`, `ssbo_atomic_swap` and `get_ssbo_size` on 32-bit words; and the
//! compute intrinsics (GL 4.3 §19): shared memory, the workgroup system values
//! and `barrier`.
//!
//! None of them goes to the per-batch prologue: a storage word may change
//! between two loads of one batch. What the ops do per lane (and which lanes
//! may write) is documented on [`Op::StoreSsbo`] and [`Op::SsboAtomic`].

use rgl_nir::intrinsics::{AtomicOp, IndexKind, IntrinsicOp, Scope};
use rgl_nir::ir::*;

use super::{index, unsupported, Compiler};
use crate::lanes::alu::RegMap;
use crate::lanes::program::{Op, SysKind};
use crate::{Error, Result};

impl Compiler<'_> {
    /// Compiles one of the storage buffer intrinsics.
    pub(super) fn storage_intrinsic(&mut self, def: Option<Def>, intr: &Intrinsic) -> Result<()> {
        use IntrinsicOp as I;
        let need = || {
            def.ok_or_else(|| {
                Error::Unsupported(format!("malformed NIR: @{} without a def", intr.op))
            })
        };
        match intr.op {
            I::load_ssbo => {
                let d = need()?;
                let (n, bits) = self.shape(d);
                if bits != 32 {
                    return unsupported(format!("{bits}-bit load_ssbo"));
                }
                let block = self.reg(Self::src(intr, 0)?, 0)?;
                let off = self.reg(Self::src(intr, 1)?, 0)?;
                self.storage.reads = true;
                for c in 0..n {
                    let r = self.reg(d, c)?;
                    self.ops.push(Op::LoadSsbo {
                        d: r,
                        block,
                        off,
                        comp: c,
                    });
                }
                Ok(())
            }
            I::store_ssbo => {
                let stored = self.stored_components(intr)?;
                let block = self.reg(Self::src(intr, 1)?, 0)?;
                let off = self.reg(Self::src(intr, 2)?, 0)?;
                self.storage.writes = true;
                for (c, a) in stored {
                    self.ops.push(Op::StoreSsbo {
                        a,
                        block,
                        off,
                        comp: c,
                    });
                }
                Ok(())
            }
            I::ssbo_atomic | I::ssbo_atomic_swap => {
                let d = need()?;
                let swap_form = intr.op == I::ssbo_atomic_swap;
                let op = self.atomic_op(intr, d, swap_form)?;
                let block = self.reg(Self::src(intr, 0)?, 0)?;
                let off = self.reg(Self::src(intr, 1)?, 0)?;
                let data = self.reg(Self::src(intr, 2)?, 0)?;
                let swap = if swap_form {
                    Some(self.reg(Self::src(intr, 3)?, 0)?)
                } else {
                    None
                };
                let r = self.reg(d, 0)?;
                self.storage.reads = true;
                self.storage.writes = true;
                self.ops.push(Op::SsboAtomic {
                    d: r,
                    block,
                    off,
                    data,
                    swap,
                    op,
                });
                Ok(())
            }
            I::get_ssbo_size => {
                let d = need()?;
                let block = self.reg(Self::src(intr, 0)?, 0)?;
                self.storage.reads = true;
                for c in 0..self.shape(d).0 {
                    let r = self.reg(d, c)?;
                    self.ops.push(Op::SsboSize { d: r, block });
                }
                Ok(())
            }
            op => unsupported(format!("intrinsic @{op}")),
        }
    }

    /// Compiles one of the compute intrinsics: `load_shared`, `store_shared`,
    /// `shared_atomic(_swap)` on 32-bit words; `gl_LocalInvocationID`,
    /// `gl_WorkGroupID`, `gl_NumWorkGroups`; the subgroup invocation and size
    /// of a subgroup of one (as `rgl_nir::eval` and the draw stages' votes);
    /// and `barrier`: a workgroup execution barrier suspends the batch
    /// ([`Op::Barrier`]), a memory barrier is a fence. Outside compute shaders
    /// only barriers compile, as fences or nothing.
    pub(super) fn compute_intrinsic(&mut self, def: Option<Def>, intr: &Intrinsic) -> Result<()> {
        use IntrinsicOp as I;
        let need = || {
            def.ok_or_else(|| {
                Error::Unsupported(format!("malformed NIR: @{} without a def", intr.op))
            })
        };
        if intr.op == I::barrier {
            let exec = index(intr, IndexKind::ExecutionScope);
            let memory = index(intr, IndexKind::MemoryScope);
            if self.compute && exec == Scope::Workgroup.code() {
                self.ops.push(Op::Barrier);
            } else if memory != Scope::None.code() {
                self.ops.push(Op::Fence);
            }
            return Ok(());
        }
        if !self.compute {
            return unsupported(format!("@{} outside a compute shader", intr.op));
        }
        let base = index(intr, IndexKind::Base) as i32;
        match intr.op {
            I::load_local_invocation_id | I::load_workgroup_id | I::load_num_workgroups => {
                let d = need()?;
                for c in 0..self.shape(d).0.min(3) {
                    let v = match intr.op {
                        I::load_local_invocation_id => SysKind::LocalId(c),
                        I::load_workgroup_id => SysKind::WorkgroupId(c),
                        _ => SysKind::NumWorkgroups(c),
                    };
                    self.sysval(d, c, v)?;
                }
                Ok(())
            }
            I::load_subgroup_invocation => self.compute_const(need()?, 0),
            I::load_subgroup_size => self.compute_const(need()?, 1),
            I::load_shared => {
                let d = need()?;
                let (n, bits) = self.shape(d);
                if bits != 32 {
                    return unsupported(format!("{bits}-bit load_shared"));
                }
                let off = self.reg(Self::src(intr, 0)?, 0)?;
                for c in 0..n {
                    let r = self.reg(d, c)?;
                    self.ops.push(Op::LoadShared {
                        d: r,
                        off,
                        base,
                        comp: c,
                    });
                }
                Ok(())
            }
            I::store_shared => {
                let stored = self.stored_components(intr)?;
                let off = self.reg(Self::src(intr, 1)?, 0)?;
                for (c, a) in stored {
                    self.ops.push(Op::StoreShared {
                        a,
                        off,
                        base,
                        comp: c,
                    });
                }
                Ok(())
            }
            I::shared_atomic | I::shared_atomic_swap => {
                let d = need()?;
                let swap_form = intr.op == I::shared_atomic_swap;
                let op = self.atomic_op(intr, d, swap_form)?;
                let off = self.reg(Self::src(intr, 0)?, 0)?;
                let data = self.reg(Self::src(intr, 1)?, 0)?;
                let swap = if swap_form {
                    Some(self.reg(Self::src(intr, 2)?, 0)?)
                } else {
                    None
                };
                let r = self.reg(d, 0)?;
                self.ops.push(Op::SharedAtomic {
                    d: r,
                    off,
                    base,
                    data,
                    swap,
                    op,
                });
                Ok(())
            }
            op => unsupported(format!("intrinsic @{op}")),
        }
    }

    /// The (component, register) pairs a 32-bit store (`value` in source 0)
    /// writes: the components its write mask selects.
    fn stored_components(&mut self, intr: &Intrinsic) -> Result<Vec<(u8, u32)>> {
        let value = Self::src(intr, 0)?;
        let (n, bits) = self.shape(value);
        if bits != 32 {
            return unsupported(format!("{bits}-bit @{}", intr.op));
        }
        let wrmask = index(intr, IndexKind::WriteMask);
        (0..n)
            .filter(|c| wrmask & (1 << c) != 0)
            .map(|c| Ok((c, self.reg(value, c)?)))
            .collect()
    }

    /// The `atomic_op` of a 32-bit scalar atomic whose result is `d`, checked
    /// against its form: the compare-and-swaps take the `_swap` intrinsics,
    /// every other op the plain ones.
    pub(super) fn atomic_op(&self, intr: &Intrinsic, d: Def, swap_form: bool) -> Result<AtomicOp> {
        let (n, bits) = self.shape(d);
        if (n, bits) != (1, 32) {
            return unsupported(format!("{n}x{bits}-bit @{}", intr.op));
        }
        let code = index(intr, IndexKind::AtomicOp);
        let Some(op) = AtomicOp::from_code(code) else {
            return unsupported(format!("@{} with atomic_op {code}", intr.op));
        };
        if swap_form != op.is_swap() {
            return unsupported(format!("@{} with atomic_op {}", intr.op, op.name()));
        }
        Ok(op)
    }

    /// Every component of `d` is the constant `word` (per batch).
    fn compute_const(&mut self, d: Def, word: u32) -> Result<()> {
        for c in 0..self.shape(d).0 {
            self.sysval(d, c, SysKind::Const(word))?;
        }
        Ok(())
    }
}
