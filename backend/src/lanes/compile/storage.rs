//! Storage buffer intrinsics of the lane compiler (GL 4.3 §7.8; atomic counters
//! arrive as storage-buffer intrinsics on block `ATOMIC_COUNTER_BLOCK_BASE + k`,
//! see `rgl_nir::options::storage_bindings`): `load_ssbo`, `store_ssbo`,
//! `ssbo_atomic`, `ssbo_atomic_swap` and `get_ssbo_size` on 32-bit words.
//!
//! None of them goes to the per-batch prologue: a storage word may change
//! between two loads of one batch. What the ops do per lane (and which lanes
//! may write) is documented on [`Op::StoreSsbo`] and [`Op::SsboAtomic`].

use rgl_nir::intrinsics::{AtomicOp, IndexKind, IntrinsicOp};
use rgl_nir::ir::*;

use super::{index, unsupported, Compiler};
use crate::lanes::alu::RegMap;
use crate::lanes::program::Op;
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
                let value = Self::src(intr, 0)?;
                let (n, bits) = self.shape(value);
                if bits != 32 {
                    return unsupported(format!("{bits}-bit store_ssbo"));
                }
                let block = self.reg(Self::src(intr, 1)?, 0)?;
                let off = self.reg(Self::src(intr, 2)?, 0)?;
                let wrmask = index(intr, IndexKind::WriteMask);
                self.storage.writes = true;
                for c in 0..n {
                    if wrmask & (1 << c) == 0 {
                        continue;
                    }
                    let a = self.reg(value, c)?;
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
                let (n, bits) = self.shape(d);
                if (n, bits) != (1, 32) {
                    return unsupported(format!("{n}x{bits}-bit @{}", intr.op));
                }
                let code = index(intr, IndexKind::AtomicOp);
                let Some(op) = AtomicOp::from_code(code) else {
                    return unsupported(format!("@{} with atomic_op {code}", intr.op));
                };
                let swap_form = intr.op == I::ssbo_atomic_swap;
                if swap_form != (op == AtomicOp::Cmpxchg) {
                    return unsupported(format!("@{} with atomic_op {}", intr.op, op.name()));
                }
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
}
