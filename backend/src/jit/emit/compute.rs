//! Compute shaders in the body emitter (GL 4.3 §19 "Compute Shaders"; GLSL
//! 4.30 §7.1.3 compute built-ins, §8.11 atomic memory functions, §8.16 shader
//! invocation control): the compute system values, storage buffer and shared
//! memory accesses and atomics, memory barriers, and the suspension of a batch
//! at a workgroup `barrier()`.
//!
//! Semantics are the lane interpreter's ([`crate::lanes`]): the memory
//! operations run the same per-lane code through helpers
//! ([`crate::jit::compute`]), so every access is bounds-checked the same way
//! (out-of-range stores dropped, loads 0) and storage atomics are atomic across
//! threads ([`crate::storage::StorageView::atomic`]).
//!
//! Barriers, as llvmpipe's compute coroutines: a workgroup runs as several
//! batches, and every batch must reach a barrier before any goes past it. The
//! compiled function takes a resume point in its context (0: start). At a
//! barrier it stores every value the emitter keeps in variables (the SSA
//! components, the execution mask and the masks of the enclosing loops) to
//! the batch's spill area, records the barrier's number as the resume point
//! and returns [`SUSPENDED`]. The entry block branches on the resume point to
//! a switch whose targets are the blocks right after each barrier; each reloads
//! the spilled values and goes on. Local arrays and helper operands live in the
//! batch's scratch memory, which the caller keeps per batch. A barrier inside a
//! divergent `if` is refused ([`Error::Unsupported`]): GLSL only allows
//! barriers in uniform control flow, and the emitter keeps masks of a
//! divergent `if` in values it does not spill. Barriers in loops (with uniform
//! or divergent exits) and in uniform `if`s resume anywhere.

use std::mem::offset_of;

use cranelift_codegen::ir::{types, Block as ClBlock, InstBuilder, Value};
use cranelift_frontend::{Switch, Variable};
use rgl_nir::intrinsics::{AtomicOp, IndexKind, IntrinsicOp, Scope};
use rgl_nir::ir::*;

use super::intr::index;
use super::liveness::Liveness;
use super::{trusted, Emitter, Lanes, MAX_QUADS};
use crate::exec::SysVals;
use crate::jit::compute::{self as cs, CsCtx};
use crate::{Error, Result};

/// Return value of a batch suspended at a barrier.
pub(crate) const SUSPENDED: i32 = 2;

/// The barrier resume points of a compute body.
pub(crate) struct Resume {
    /// The resume point (i32) read at entry.
    point: Value,
    /// The spill area (i64 pointer).
    spill: Value,
    /// Where the entry branches when resuming; filled by `finish_resume`.
    dispatch: ClBlock,
    /// The block after barrier `k + 1`.
    blocks: Vec<ClBlock>,
    /// Most 16-byte vectors one barrier spills.
    pub slots: u32,
    /// Which values live across a barrier.
    live: Liveness,
}

fn unsupported<T>(msg: impl Into<String>) -> Result<T> {
    Err(Error::Unsupported(msg.into()))
}

fn src(intr: &Intrinsic, i: usize) -> Result<Def> {
    intr.srcs
        .get(i)
        .copied()
        .ok_or_else(|| Error::Unsupported(format!("malformed @{}: no source {i}", intr.op)))
}

impl Emitter<'_, '_, '_> {
    /// At the body's start (the entry block): reads the resume point and
    /// branches to the resume switch when it is not 0.
    pub(super) fn begin_resume(&mut self, ctx: Value) {
        let point = self
            .b
            .ins()
            .load(types::I32, trusted(), ctx, offset_of!(CsCtx, resume) as i32);
        let spill = self
            .b
            .ins()
            .load(types::I64, trusted(), ctx, offset_of!(CsCtx, spill) as i32);
        let dispatch = self.b.create_block();
        let start = self.b.create_block();
        self.b.ins().brif(point, dispatch, &[], start, &[]);
        self.b.switch_to_block(start);
        self.b.seal_block(start);
        self.resume = Some(Resume {
            point,
            spill,
            dispatch,
            blocks: Vec::new(),
            slots: 0,
            live: Liveness::new(self.p.func),
        });
    }

    /// After the body: the resume switch (an unknown point ends the body at
    /// `end`), and the resume blocks sealed.
    pub(super) fn finish_resume(&mut self, end: ClBlock) {
        let Some(r) = self.resume.as_ref() else {
            return;
        };
        let (point, dispatch, blocks) = (r.point, r.dispatch, r.blocks.clone());
        self.b.switch_to_block(dispatch);
        self.b.seal_block(dispatch);
        let mut sw = Switch::new();
        for (k, blk) in blocks.iter().enumerate() {
            sw.set_entry(k as u128 + 1, *blk);
        }
        sw.emit(self.b, point, end);
        for blk in blocks {
            self.b.seal_block(blk);
        }
    }

    /// Every variable whose value may be live at a barrier, in a fixed order.
    fn spill_vars(&self) -> Vec<Variable> {
        let q = self.q;
        let mut v: Vec<Variable> = Vec::new();
        v.extend_from_slice(&self.exec[..q]);
        v.extend_from_slice(&self.kill[..q]);
        for l in &self.loops {
            v.extend_from_slice(&l.brk[..q]);
            v.extend_from_slice(&l.cont[..q]);
        }
        for o in &self.outs {
            v.extend_from_slice(&o[..q]);
        }
        let (Some(r), Some(at)) = (self.resume.as_ref(), self.cur_instr) else {
            return v;
        };
        for (d, base) in self.vars.iter().enumerate() {
            let Some(base) = *base else { continue };
            let masked = self.p.an.masked.get(d).copied().unwrap_or(true);
            if !r.live.live_across(d, masked, at) {
                continue;
            }
            let def = <Def as rgl_nir::arena::EntityRef>::new(d);
            let n = self.p.func.defs.get(def).map_or(0, |x| x.num_components);
            for c in 0..usize::from(n) {
                let at = base as usize + c * MAX_QUADS;
                v.extend_from_slice(&self.pool[at..at + q]);
            }
        }
        v
    }

    /// A workgroup execution barrier: spill, suspend, and resume after it.
    fn suspend_at_barrier(&mut self, ctx: Value) -> Result<()> {
        if self.divergent_depth > 0 {
            return unsupported(
                "barrier() in divergent control flow (GLSL 4.30 §8.16 allows it only in uniform control flow)",
            );
        }
        let Some(spill) = self.resume.as_ref().map(|r| r.spill) else {
            return unsupported("barrier() without a resume context");
        };
        let vars = self.spill_vars();
        if vars.len() > 1 << 20 {
            return Err(Error::TooLarge("values live across a barrier".into()));
        }
        for (i, var) in vars.iter().enumerate() {
            let x = self.b.use_var(*var);
            self.b.ins().store(trusted(), x, spill, i as i32 * 16);
        }
        let k = self.resume.as_ref().map_or(0, |r| r.blocks.len()) + 1;
        let kv = self.b.ins().iconst(types::I32, k as i64);
        self.b
            .ins()
            .store(trusted(), kv, ctx, offset_of!(CsCtx, resume) as i32);
        let s = self.b.ins().iconst(types::I32, i64::from(SUSPENDED));
        self.b.ins().return_(&[s]);
        // Resumed: sealed with the switch in `finish_resume`.
        let rb = self.b.create_block();
        self.b.switch_to_block(rb);
        for (i, var) in vars.iter().enumerate() {
            let x = self
                .b
                .ins()
                .load(types::I32X4, trusted(), spill, i as i32 * 16);
            self.b.def_var(*var, x);
        }
        if let Some(r) = self.resume.as_mut() {
            r.blocks.push(rb);
            r.slots = r.slots.max(vars.len() as u32);
        }
        Ok(())
    }

    /// Whether `op` is compiled by [`Emitter::compute_intrinsic`].
    pub(super) fn is_compute_intrinsic(op: IntrinsicOp) -> bool {
        use IntrinsicOp as I;
        matches!(
            op,
            I::load_ssbo
                | I::store_ssbo
                | I::ssbo_atomic
                | I::ssbo_atomic_swap
                | I::get_ssbo_size
                | I::load_shared
                | I::store_shared
                | I::shared_atomic
                | I::shared_atomic_swap
                | I::load_local_invocation_id
                | I::load_workgroup_id
                | I::load_num_workgroups
                | I::load_subgroup_invocation
                | I::load_subgroup_size
                | I::barrier
        )
    }

    /// The compute intrinsics (and `barrier` in every stage).
    pub(super) fn compute_intrinsic(&mut self, def: Option<Def>, intr: &Intrinsic) -> Result<()> {
        use IntrinsicOp as I;
        let ctx = self.ptrs().compute;
        if intr.op == I::barrier {
            let exec = index(intr, IndexKind::ExecutionScope);
            let memory = index(intr, IndexKind::MemoryScope);
            match ctx {
                Some(ctx) if exec == Scope::Workgroup.code() => self.suspend_at_barrier(ctx)?,
                _ if memory != Scope::None.code() => {
                    self.b.ins().fence();
                }
                _ => {}
            }
            return Ok(());
        }
        let Some(ctx) = ctx else {
            return unsupported(format!("@{} outside a compute shader", intr.op));
        };
        let need = || {
            def.ok_or_else(|| {
                Error::Unsupported(format!("malformed NIR: @{} without a def", intr.op))
            })
        };
        let base = index(intr, IndexKind::Base);
        match intr.op {
            I::load_local_invocation_id => {
                let d = need()?;
                let sys = self.sys_ptr(ctx);
                for c in 0..self.shape(d).0 {
                    let v = if c < 3 {
                        let off = offset_of!(SysVals, local_id) as i32 + i32::from(c) * 64;
                        self.load_reg(sys, off)
                    } else {
                        self.lanes_splat(0)
                    };
                    self.set(d, c, v)?;
                }
                Ok(())
            }
            I::load_workgroup_id | I::load_num_workgroups => {
                let d = need()?;
                let sys = self.sys_ptr(ctx);
                let field = if intr.op == I::load_workgroup_id {
                    offset_of!(SysVals, workgroup_id)
                } else {
                    offset_of!(SysVals, num_workgroups)
                } as i32;
                for c in 0..self.shape(d).0 {
                    let v = if c < 3 {
                        let w =
                            self.b
                                .ins()
                                .load(types::I32, trusted(), sys, field + i32::from(c) * 4);
                        Lanes::splat(self.b.ins().splat(types::I32X4, w))
                    } else {
                        self.lanes_splat(0)
                    };
                    self.set(d, c, v)?;
                }
                Ok(())
            }
            // Subgroups of one invocation, as the lane compiler.
            I::load_subgroup_invocation | I::load_subgroup_size => {
                let d = need()?;
                let w = u32::from(intr.op == I::load_subgroup_size);
                for c in 0..self.shape(d).0 {
                    let v = self.lanes_splat(w);
                    self.set(d, c, v)?;
                }
                Ok(())
            }
            I::load_ssbo => {
                let d = need()?;
                let (n, bits) = self.shape(d);
                if bits != 32 || n > 4 {
                    return unsupported(format!("{n}x{bits}-bit load_ssbo"));
                }
                self.operand(0, src(intr, 0)?)?;
                self.operand(1, src(intr, 1)?)?;
                self.exec_operand();
                self.call_cs(cs::jit_cs_load_ssbo as *const () as usize, ctx, n.into(), 0);
                self.results(d, n)
            }
            I::store_ssbo => {
                let wrmask = self.store_operands(intr)?;
                self.operand(0, src(intr, 1)?)?;
                self.operand(1, src(intr, 2)?)?;
                self.exec_operand();
                self.call_cs(cs::jit_cs_store_ssbo as *const () as usize, ctx, wrmask, 0);
                Ok(())
            }
            I::ssbo_atomic | I::ssbo_atomic_swap => {
                let d = need()?;
                let op = self.atomic_op(intr, d, intr.op == I::ssbo_atomic_swap)?;
                self.operand(0, src(intr, 0)?)?;
                self.operand(1, src(intr, 1)?)?;
                self.exec_operand();
                self.operand(3, src(intr, 2)?)?;
                if op.is_swap() {
                    self.operand(4, src(intr, 3)?)?;
                }
                let f = cs::jit_cs_ssbo_atomic as *const () as usize;
                self.call_cs(f, ctx, op_arg(op), 0);
                self.results(d, 1)
            }
            I::get_ssbo_size => {
                let d = need()?;
                self.operand(0, src(intr, 0)?)?;
                self.call_cs(cs::jit_cs_ssbo_size as *const () as usize, ctx, 0, 0);
                let v = self.get_reg(3);
                for c in 0..self.shape(d).0 {
                    self.set(d, c, v)?;
                }
                Ok(())
            }
            I::load_shared => {
                let d = need()?;
                let (n, bits) = self.shape(d);
                if bits != 32 || n > 4 {
                    return unsupported(format!("{n}x{bits}-bit load_shared"));
                }
                self.operand(0, src(intr, 0)?)?;
                self.exec_operand();
                let f = cs::jit_cs_load_shared as *const () as usize;
                self.call_cs(f, ctx, n.into(), base as i32 as i64);
                self.results(d, n)
            }
            I::store_shared => {
                let wrmask = self.store_operands(intr)?;
                self.operand(0, src(intr, 1)?)?;
                self.exec_operand();
                let f = cs::jit_cs_store_shared as *const () as usize;
                self.call_cs(f, ctx, wrmask, base as i32 as i64);
                Ok(())
            }
            I::shared_atomic | I::shared_atomic_swap => {
                let d = need()?;
                let op = self.atomic_op(intr, d, intr.op == I::shared_atomic_swap)?;
                self.operand(0, src(intr, 0)?)?;
                self.exec_operand();
                self.operand(3, src(intr, 1)?)?;
                if op.is_swap() {
                    self.operand(4, src(intr, 2)?)?;
                }
                let f = cs::jit_cs_shared_atomic as *const () as usize;
                self.call_cs(f, ctx, op_arg(op), base as i32 as i64);
                self.results(d, 1)
            }
            op => unsupported(format!("intrinsic @{op}")),
        }
    }

    /// The batch's [`SysVals`] pointer.
    fn sys_ptr(&mut self, ctx: Value) -> Value {
        self.b
            .ins()
            .load(types::I64, trusted(), ctx, offset_of!(CsCtx, sys) as i32)
    }

    /// The 16 lanes of a register at `base + off`.
    fn load_reg(&mut self, base: Value, off: i32) -> Lanes {
        let first = self.b.ins().load(types::I32X4, trusted(), base, off);
        let mut out = Lanes::splat(first);
        for q in 1..self.q {
            out.0[q] = self
                .b
                .ins()
                .load(types::I32X4, trusted(), base, off + q as i32 * 16);
        }
        out
    }

    /// Component 0 of `d` (words; 1-bit values as 0/1) to helper register `r`.
    fn operand(&mut self, r: u32, d: Def) -> Result<()> {
        let v = self.val(d, 0)?;
        let bool01 = self.shape(d).1 == 1;
        self.put_reg(r, v, bool01);
        Ok(())
    }

    /// The execution mask to helper register 2.
    fn exec_operand(&mut self) {
        let e = self.exec();
        self.put_reg(2, e, false);
    }

    /// The stored components of a store (value in source 0) to helper
    /// registers 3.., returning the write mask.
    fn store_operands(&mut self, intr: &Intrinsic) -> Result<i64> {
        let value = src(intr, 0)?;
        let (n, bits) = self.shape(value);
        if bits != 32 || n > 4 {
            return unsupported(format!("{n}x{bits}-bit @{}", intr.op));
        }
        let wrmask = index(intr, IndexKind::WriteMask) & ((1 << n) - 1);
        for c in 0..n {
            if wrmask & (1 << c) != 0 {
                let v = self.val(value, c)?;
                self.put_reg(3 + u32::from(c), v, false);
            }
        }
        Ok(i64::from(wrmask))
    }

    /// Calls a compute helper `(ctx, helper registers, a, b)`.
    fn call_cs(&mut self, f: usize, ctx: Value, a: i64, b: i64) {
        let regs = self.helper_reg_addr(0);
        let av = self.b.ins().iconst(types::I64, a);
        let bv = self.b.ins().iconst(types::I64, b);
        self.call_helper(f, &[ctx, regs, av, bv]);
    }

    /// Components `0..n` of `d` from helper registers 5...
    fn results(&mut self, d: Def, n: u8) -> Result<()> {
        let bits = self.shape(d).1;
        for c in 0..n {
            let v = self.get_reg(5 + u32::from(c));
            let v = if bits == 1 { self.nonzero(v) } else { v };
            self.set(d, c, v)?;
        }
        Ok(())
    }

    /// The `atomic_op` of a 32-bit scalar atomic whose result is `d`, checked
    /// against its form as the lane compiler checks it.
    fn atomic_op(&self, intr: &Intrinsic, d: Def, swap_form: bool) -> Result<AtomicOp> {
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
}

/// An atomic op as a helper argument: its code, bit 8 for the swap form.
fn op_arg(op: AtomicOp) -> i64 {
    i64::from(op.code()) | (i64::from(op.is_swap()) << 8)
}
