//! Intrinsics and local arrays: inputs (fragment `gl_FragCoord`, `gl_PointCoord`,
//! `gl_FrontFacing` and primitive id through the environment's system values, as
//! the lane compiler maps them), outputs (kept as values until the body ends),
//! uniforms, uniform blocks, system values, derivatives, discards, and the local
//! arrays `lower_indirect_derefs` left (scratch memory, `[element][lane]` words).
//!
//! Robustness: every access outside its range reads 0 and drops writes. Constant
//! uniform slots rely on the environment providing [`super::BodyPlan::min_uniform_slots`];
//! indirect uniform, uniform-block and local-array accesses check each lane and
//! redirect the others to the environment's zero words or to a dummy slot.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder, MemFlagsData, Value};
use rgl_nir::intrinsics::{IndexKind, IntrinsicOp};
use rgl_nir::ir::names::VARYING_SLOT_POS;
use rgl_nir::ir::*;

use super::{trusted, Emitter, Lanes, Place, SystemValue};
use crate::driver::ShaderStage;
use crate::jit::helpers;
use crate::{Error, Result};

/// `VARYING_SLOT_PNTC`.
const VARYING_SLOT_PNTC: i32 = 25;
/// `VARYING_SLOT_PRIMITIVE_ID`.
const VARYING_SLOT_PRIMITIVE_ID: i32 = 21;
/// `VARYING_SLOT_FACE`.
const VARYING_SLOT_FACE: i32 = 24;
/// Most slots an indirectly addressed input or output may span (select chains).
const MAX_INDIRECT_SLOTS: u32 = 64;

/// Flags of loads from the default uniform block: in bounds (an index outside
/// the block reads the draw's zero words instead), and the block is not written
/// while the draw runs, so a load may move anywhere its address is computed.
/// That lets Cranelift's e-graph pass treat it as a pure value: repeated loads
/// merge, and loads (with the math on them, such as `sin(time)`) leave loops,
/// as LLVM's GVN and LICM do for llvmpipe.
pub(crate) fn uniform_flags() -> MemFlagsData {
    MemFlagsData::trusted().with_readonly().with_can_move()
}

pub(crate) fn index(intr: &Intrinsic, kind: IndexKind) -> u32 {
    intr.op
        .info()
        .index_slot(kind)
        .and_then(|i| intr.indices.get(i))
        .copied()
        .unwrap_or(0)
}

fn unsupported<T>(msg: impl Into<String>) -> Result<T> {
    Err(Error::Unsupported(msg.into()))
}

/// A system value as the lane compiler reads it.
#[derive(Copy, Clone, Debug)]
enum Sys {
    Env(SystemValue),
    /// Front facing: non-zero words are 1.
    Front,
    /// Lanes outside the live mask (1).
    Helper,
    Const(u32),
}

fn src(intr: &Intrinsic, i: usize) -> Result<Def> {
    intr.srcs
        .get(i)
        .copied()
        .ok_or_else(|| Error::Unsupported(format!("malformed @{}: no source {i}", intr.op)))
}

impl Emitter<'_, '_, '_> {
    fn konst(&self, d: Def) -> Option<i64> {
        let v = self.p.func.const_value(d)?;
        Some(v.first().copied().unwrap_or(0) as u32 as i32 as i64)
    }

    /// Zero-fills or initialises every local array for this body's lanes.
    pub(super) fn init_locals(&mut self) -> Result<()> {
        let lanes = 4 * self.q as u64;
        let locals: Vec<_> = self.p.locals.values().cloned().collect();
        for slot in locals {
            let base = self.ptrs().scratch;
            if slot.size <= 16 {
                for (e, &w) in slot.init.iter().enumerate() {
                    let v = self.splat(w);
                    for q in 0..self.q {
                        let off = slot.offset as i32 + (e as i32 * lanes as i32 + q as i32 * 4) * 4;
                        self.b.ins().store(trusted(), v, base, off);
                    }
                }
            } else {
                let init = Box::new(slot.init.clone());
                let ip = init.as_ptr() as i64;
                self.keep.push(init);
                let dst = self.b.ins().iadd_imm_s(base, i64::from(slot.offset));
                let ipv = self.b.ins().iconst(types::I64, ip);
                let n = self.b.ins().iconst(types::I64, i64::from(slot.size));
                let l = self.b.ins().iconst(types::I64, lanes as i64);
                self.call_helper(
                    helpers::jit_init_local as *const () as usize,
                    &[dst, ipv, n, l],
                );
            }
        }
        Ok(())
    }

    fn sys(&mut self, d: Def, c: u8, v: Sys) -> Result<()> {
        let bits = self.shape(d).1;
        let val = match v {
            Sys::Env(sv) => self.env.system_value(self.b, sv),
            Sys::Front => {
                let raw = self.env.system_value(self.b, SystemValue::FrontFace);
                let m = self.nonzero(raw);
                let one = self.splat(1);
                self.map1(m, |e, x| e.b.ins().band(x, one))
            }
            Sys::Helper => {
                let live = self.env.live_mask(self.b);
                let one = self.splat(1);
                self.map1(live, |e, x| e.b.ins().band_not(one, x))
            }
            Sys::Const(w) => self.lanes_splat(w),
        };
        let val = if bits == 1 { self.nonzero(val) } else { val };
        self.set(d, c, val)
    }

    fn sys_all(&mut self, def: Option<Def>, v: Sys) -> Result<()> {
        let d = def.ok_or_else(|| Error::Unsupported("load without def".into()))?;
        for c in 0..self.shape(d).0 {
            self.sys(d, c, v)?;
        }
        Ok(())
    }

    /// The lanes of a loaded word in the def's representation (1-bit: masks).
    fn loaded(&mut self, v: Lanes, bits: u8) -> Lanes {
        if bits == 1 {
            self.nonzero(v)
        } else {
            v
        }
    }

    /// `v == k` per lane, as masks.
    fn eq_const(&mut self, v: Lanes, k: u32) -> Lanes {
        let kv = self.splat(k);
        self.map1(v, |e, x| e.b.ins().icmp(IntCC::Equal, x, kv))
    }

    pub(super) fn intrinsic(&mut self, def: Option<Def>, intr: &Intrinsic) -> Result<()> {
        use IntrinsicOp as I;
        let io_loc = (index(intr, IndexKind::IoSemantics) & 0xffff) as i32;
        let component = index(intr, IndexKind::Component);
        let fragment = self.stage() == ShaderStage::Fragment;
        let need = || def.ok_or_else(|| Error::Unsupported("load without def".into()));
        match intr.op {
            I::load_input | I::load_interpolated_input => {
                let d = need()?;
                let (n, bits) = self.shape(d);
                let off_src = src(intr, if intr.op == I::load_input { 0 } else { 1 })?;
                let loc = if self.stage() == ShaderStage::Vertex {
                    index(intr, IndexKind::Base) as i32
                } else {
                    io_loc
                };
                if fragment
                    && matches!(
                        io_loc,
                        VARYING_SLOT_POS
                            | VARYING_SLOT_PNTC
                            | VARYING_SLOT_FACE
                            | VARYING_SLOT_PRIMITIVE_ID
                    )
                {
                    for c in 0..n {
                        let comp = component + u32::from(c);
                        let v = match io_loc {
                            VARYING_SLOT_POS => Sys::Env(SystemValue::FragCoord(comp.min(3) as u8)),
                            VARYING_SLOT_PNTC if comp < 2 => {
                                Sys::Env(SystemValue::PointCoord(comp as u8))
                            }
                            VARYING_SLOT_FACE if comp == 0 => Sys::Front,
                            VARYING_SLOT_PRIMITIVE_ID if comp == 0 => {
                                Sys::Env(SystemValue::PrimitiveId)
                            }
                            _ => Sys::Const(if comp == 3 { 1.0f32.to_bits() } else { 0 }),
                        };
                        self.sys(d, c, v)?;
                    }
                    return Ok(());
                }
                let mut vals = Vec::new();
                for c in 0..n {
                    let comp = component + u32::from(c);
                    let v = match self.konst(off_src) {
                        Some(k) => match self.p.inputs.get(&(loc.wrapping_add(k as i32))) {
                            Some(&idx) if comp < 4 => {
                                self.env.load_input(self.b, idx as u32 * 4 + comp)
                            }
                            _ => self.lanes_splat(0),
                        },
                        None => {
                            let slots = if self.stage() == ShaderStage::Vertex {
                                index(intr, IndexKind::Range)
                            } else {
                                index(intr, IndexKind::IoSemantics) >> 16
                            }
                            .clamp(1, 4096);
                            if slots > MAX_INDIRECT_SLOTS {
                                return unsupported(format!("indirect input over {slots} slots"));
                            }
                            let off = self.val(off_src, 0)?;
                            let mut acc = self.lanes_splat(0);
                            for s in 0..slots {
                                let Some(&idx) = self.p.inputs.get(&(loc + s as i32)) else {
                                    continue;
                                };
                                if comp >= 4 {
                                    continue;
                                }
                                let v = self.env.load_input(self.b, idx as u32 * 4 + comp);
                                let m = self.eq_const(off, s);
                                acc = self.select(m, v, acc);
                            }
                            acc
                        }
                    };
                    vals.push(self.loaded(v, bits));
                }
                for (c, v) in vals.into_iter().enumerate() {
                    self.set(d, c as u8, v)?;
                }
                Ok(())
            }
            I::load_output => {
                let d = need()?;
                let k = self
                    .konst(src(intr, 0)?)
                    .ok_or_else(|| Error::Unsupported("indirect load_output".into()))?;
                for c in 0..self.shape(d).0 {
                    let comp = component + u32::from(c);
                    let v = match self.p.outputs.get(&(io_loc.wrapping_add(k as i32))) {
                        Some(&o) if comp < 4 => self.output(o * 4 + comp as usize),
                        _ => None,
                    };
                    let v = match v {
                        Some(v) => v,
                        None => self.lanes_splat(0),
                    };
                    self.set(d, c, v)?;
                }
                Ok(())
            }
            I::store_output => {
                let v = src(intr, 0)?;
                let off_src = src(intr, 1)?;
                let wrmask = index(intr, IndexKind::WriteMask);
                let (n, bits) = self.shape(v);
                for c in 0..n {
                    if wrmask & (1 << c) == 0 {
                        continue;
                    }
                    let comp = component + u32::from(c);
                    if comp >= 4 {
                        continue;
                    }
                    let mut x = self.val(v, c)?;
                    if bits == 1 {
                        let one = self.splat(1);
                        x = self.map1(x, |e, y| e.b.ins().band(y, one));
                    }
                    match self.konst(off_src) {
                        Some(k) => {
                            if let Some(&o) = self.p.outputs.get(&(io_loc.wrapping_add(k as i32))) {
                                self.store_output(o * 4 + comp as usize, x, None);
                            }
                        }
                        None => {
                            let slots = (index(intr, IndexKind::IoSemantics) >> 16).max(1);
                            if slots > MAX_INDIRECT_SLOTS {
                                return unsupported(format!("indirect output over {slots} slots"));
                            }
                            let off = self.val(off_src, 0)?;
                            for s in 0..slots {
                                if let Some(&o) = self.p.outputs.get(&(io_loc + s as i32)) {
                                    let m = self.eq_const(off, s);
                                    self.store_output(o * 4 + comp as usize, x, Some(m));
                                }
                            }
                        }
                    }
                }
                Ok(())
            }
            I::load_barycentric_pixel
            | I::load_barycentric_centroid
            | I::load_barycentric_sample
            | I::load_barycentric_at_offset => {
                let d = need()?;
                for c in 0..self.shape(d).0 {
                    let z = self.lanes_splat(0);
                    self.set(d, c, z)?;
                }
                Ok(())
            }
            I::load_uniform => self.load_uniform(need()?, intr),
            I::load_ubo => self.load_ubo(need()?, intr),
            I::load_front_face => self.sys_all(def, Sys::Front),
            I::load_frag_coord => {
                let d = need()?;
                for c in 0..self.shape(d).0.min(4) {
                    self.sys(d, c, Sys::Env(SystemValue::FragCoord(c)))?;
                }
                Ok(())
            }
            I::load_point_coord => {
                let d = need()?;
                for c in 0..self.shape(d).0.min(2) {
                    self.sys(d, c, Sys::Env(SystemValue::PointCoord(c)))?;
                }
                Ok(())
            }
            I::load_vertex_id => self.sys_all(def, Sys::Env(SystemValue::VertexId)),
            I::load_instance_id => self.sys_all(def, Sys::Env(SystemValue::InstanceId)),
            I::load_primitive_id => self.sys_all(def, Sys::Env(SystemValue::PrimitiveId)),
            I::load_helper_invocation => self.sys_all(def, Sys::Helper),
            I::load_invocation_id | I::load_sample_id | I::load_layer_id => {
                self.sys_all(def, Sys::Const(0))
            }
            I::load_sample_mask_in => self.sys_all(def, Sys::Const(1)),
            I::load_sample_pos => self.sys_all(def, Sys::Const(0.5f32.to_bits())),
            I::ddx | I::ddy | I::ddx_fine | I::ddx_coarse | I::ddy_fine | I::ddy_coarse => {
                let d = need()?;
                let a = src(intr, 0)?;
                let is_x = matches!(intr.op, I::ddx | I::ddx_fine | I::ddx_coarse);
                // Lanes 0-3 of a vector are one quad (top-left, top-right,
                // bottom-left, bottom-right): fine derivatives per row/column,
                // coarse ones (ARB_derivative_control) once per quad from the
                // top row/left column, as `crate::exec::ddx`.
                let coarse = matches!(intr.op, I::ddx_coarse | I::ddy_coarse);
                for c in 0..self.shape(d).0 {
                    let v = self.val(a, c)?;
                    let r = if !fragment {
                        self.lanes_splat(0)
                    } else {
                        let (hi, lo) = match (is_x, coarse) {
                            (true, false) => ([1, 1, 3, 3], [0, 0, 2, 2]),
                            (false, false) => ([2, 3, 2, 3], [0, 1, 0, 1]),
                            (true, true) => ([1, 1, 1, 1], [0, 0, 0, 0]),
                            (false, true) => ([2, 2, 2, 2], [0, 0, 0, 0]),
                        };
                        self.map1(v, |e, x| {
                            let h = e.shuffle(x, x, hi);
                            let l = e.shuffle(x, x, lo);
                            let (fh, fl) = (e.as_f(h), e.as_f(l));
                            let r = e.b.ins().fsub(fh, fl);
                            e.as_i(r)
                        })
                    };
                    self.set(d, c, r)?;
                }
                Ok(())
            }
            // ARB_shader_group_vote with groups of one invocation, as the
            // interpreter (`crate::lanes::compile`).
            I::vote_any | I::vote_all => {
                let d = need()?;
                let v = self.val(src(intr, 0)?, 0)?;
                self.set(d, 0, v)
            }
            I::vote_ieq | I::vote_feq => self.sys_all(def, Sys::Const(1)),
            I::shader_clock => {
                let d = need()?;
                if self.shape(d) != (2, 32) {
                    return unsupported(format!("shader_clock of shape {:?}", self.shape(d)));
                }
                // The helper writes both words to helper register 0.
                let out = self.helper_reg_addr(0);
                self.call_helper(helpers::jit_shader_clock as *const () as usize, &[out]);
                for c in 0..2u8 {
                    let w = self
                        .b
                        .ins()
                        .load(types::I32, trusted(), out, i32::from(c) * 4);
                    let v = self.b.ins().splat(types::I32X4, w);
                    let lanes = Lanes::splat(v);
                    self.set(d, c, lanes)?;
                }
                Ok(())
            }
            I::discard
            | I::terminate
            | I::demote
            | I::discard_if
            | I::terminate_if
            | I::demote_if => {
                if !fragment {
                    return unsupported(format!("@{} outside a fragment shader", intr.op));
                }
                let e = self.exec();
                let lanes = match intr.op {
                    I::discard_if | I::terminate_if | I::demote_if => {
                        let c = self.mask_of(src(intr, 0)?, 0)?;
                        self.band(e, c)
                    }
                    _ => e,
                };
                self.kill_lanes(lanes);
                self.skip_if_idle();
                Ok(())
            }
            I::emit_vertex | I::end_primitive => unsupported(format!(
                "@{} (geometry shaders run on the interpreter)",
                intr.op
            )),
            op if Self::is_compute_intrinsic(op) => self.compute_intrinsic(def, intr),
            I::load_deref => self.load_deref(need()?, intr),
            I::store_deref => self.store_deref(intr),
            op => unsupported(format!("intrinsic @{op}")),
        }
    }

    /// `(slot, comp)` word of the uniforms, per lane (`slot` i64 per lane via `slot_of`).
    fn uniform_word_scalar(&mut self, slot: Value, comp: u8) -> Value {
        let p = self.ptrs();
        let zero = self.b.ins().iconst(types::I64, 0);
        let ok_lo = self
            .b
            .ins()
            .icmp(IntCC::SignedGreaterThanOrEqual, slot, zero);
        let ok_hi = self
            .b
            .ins()
            .icmp(IntCC::SignedLessThan, slot, p.uniform_count);
        let ok = self.b.ins().band(ok_lo, ok_hi);
        let byte = self.b.ins().imul_imm_s(slot, 16);
        let byte = self.b.ins().iadd_imm_s(byte, i64::from(comp) * 4);
        let addr = self.b.ins().iadd(p.uniforms, byte);
        let addr = self.b.ins().select(ok, addr, p.zeros);
        self.b.ins().load(types::I32, uniform_flags(), addr, 0)
    }

    fn load_uniform(&mut self, d: Def, intr: &Intrinsic) -> Result<()> {
        let (n, bits) = self.shape(d);
        let base = index(intr, IndexKind::Base);
        let off_src = src(intr, 0)?;
        let mut vals = Vec::new();
        for c in 0..n {
            let v = match self.konst(off_src) {
                Some(k) => {
                    let slot = i64::from(base) + k;
                    if slot < 0 {
                        self.lanes_splat(0)
                    } else if (slot as u64) < self.p.min_uniform_slots() as u64 {
                        let p = self.ptrs();
                        let w = self.b.ins().load(
                            types::I32,
                            uniform_flags(),
                            p.uniforms,
                            (slot * 16 + i64::from(c) * 4) as i32,
                        );
                        Lanes::splat(self.b.ins().splat(types::I32X4, w))
                    } else {
                        let s = self.b.ins().iconst(types::I64, slot);
                        let w = self.uniform_word_scalar(s, c);
                        Lanes::splat(self.b.ins().splat(types::I32X4, w))
                    }
                }
                None => {
                    let off = self.val(off_src, 0)?;
                    if !self.p.an.is_divergent(off_src) {
                        let o = self.b.ins().extractlane(off.0[0], 0);
                        let o = self.b.ins().sextend(types::I64, o);
                        let s = self.b.ins().iadd_imm_s(o, i64::from(base));
                        let w = self.uniform_word_scalar(s, c);
                        Lanes::splat(self.b.ins().splat(types::I32X4, w))
                    } else {
                        let mut out = off;
                        for q in 0..self.q {
                            let mut vec = off.0[q];
                            for l in 0..4u8 {
                                let o = self.b.ins().extractlane(off.0[q], l);
                                let o = self.b.ins().sextend(types::I64, o);
                                let s = self.b.ins().iadd_imm_s(o, i64::from(base));
                                let w = self.uniform_word_scalar(s, c);
                                vec = self.b.ins().insertlane(vec, w, l);
                            }
                            out.0[q] = vec;
                        }
                        for q in self.q..super::MAX_QUADS {
                            out.0[q] = out.0[0];
                        }
                        out
                    }
                }
            };
            vals.push(self.loaded(v, bits));
        }
        for (c, v) in vals.into_iter().enumerate() {
            self.set(d, c as u8, v)?;
        }
        Ok(())
    }

    /// The word at byte `byte` (i64) of uniform block `block` (i32), 0 outside.
    fn ubo_word_scalar(&mut self, block: Value, byte: Value) -> Value {
        let p = self.ptrs();
        let blk = self.b.ins().uextend(types::I64, block);
        let in_tab = self.b.ins().icmp(IntCC::UnsignedLessThan, blk, p.ubo_count);
        let zero = self.b.ins().iconst(types::I64, 0);
        let idx = self.b.ins().select(in_tab, blk, zero);
        let entry = self.b.ins().imul_imm_s(idx, 16);
        let entry = self.b.ins().iadd(p.ubos, entry);
        let ptr = self.b.ins().load(types::I64, trusted(), entry, 0);
        let len = self.b.ins().load(types::I64, trusted(), entry, 8);
        let nonneg = self
            .b
            .ins()
            .icmp(IntCC::SignedGreaterThanOrEqual, byte, zero);
        let end = self.b.ins().iadd_imm_s(byte, 4);
        let fits = self.b.ins().icmp(IntCC::SignedLessThanOrEqual, end, len);
        let ok = self.b.ins().band(in_tab, nonneg);
        let ok = self.b.ins().band(ok, fits);
        let addr = self.b.ins().iadd(ptr, byte);
        let addr = self.b.ins().select(ok, addr, p.zeros);
        self.b
            .ins()
            .load(types::I32, MemFlagsData::new().with_notrap(), addr, 0)
    }

    fn load_ubo(&mut self, d: Def, intr: &Intrinsic) -> Result<()> {
        let (n, bits) = self.shape(d);
        if bits != 32 {
            return unsupported(format!("{bits}-bit load_ubo"));
        }
        let (bd, od) = (src(intr, 0)?, src(intr, 1)?);
        let block = self.val(bd, 0)?;
        let off = self.val(od, 0)?;
        let uniform = !self.p.an.is_divergent(bd) && !self.p.an.is_divergent(od);
        let mut vals = Vec::new();
        for c in 0..n {
            let mut out = off;
            if uniform {
                let b0 = self.b.ins().extractlane(block.0[0], 0);
                let o0 = self.b.ins().extractlane(off.0[0], 0);
                let o0 = self.b.ins().sextend(types::I64, o0);
                let byte = self.b.ins().iadd_imm_s(o0, 4 * i64::from(c));
                let w = self.ubo_word_scalar(b0, byte);
                out = Lanes::splat(self.b.ins().splat(types::I32X4, w));
            } else {
                for q in 0..self.q {
                    let mut vec = off.0[q];
                    for l in 0..4u8 {
                        let bl = self.b.ins().extractlane(block.0[q], l);
                        let o = self.b.ins().extractlane(off.0[q], l);
                        let o = self.b.ins().sextend(types::I64, o);
                        let byte = self.b.ins().iadd_imm_s(o, 4 * i64::from(c));
                        let w = self.ubo_word_scalar(bl, byte);
                        vec = self.b.ins().insertlane(vec, w, l);
                    }
                    out.0[q] = vec;
                }
                for q in self.q..super::MAX_QUADS {
                    out.0[q] = out.0[0];
                }
            }
            vals.push(out);
        }
        for (c, v) in vals.into_iter().enumerate() {
            self.set(d, c as u8, v)?;
        }
        Ok(())
    }

    // ------------------------------------------------------------------ locals

    pub(super) fn deref(&mut self, d: Def, deref: &Deref) -> Result<()> {
        let structs = &self.p.shader.structs;
        let place = match &deref.kind {
            DerefKind::Var(v) => {
                let Some(slot) = self.p.locals.get(v).cloned() else {
                    return unsupported("deref of a variable that is not a local");
                };
                let var = &self.p.shader.variables[*v];
                Place {
                    slot,
                    off: None,
                    konst: 0,
                    ty: var.ty.clone(),
                    oob: false,
                }
            }
            DerefKind::Array { parent, index } => {
                let mut p = self.place(*parent)?;
                let (elem, len) = match &p.ty {
                    Type::Array(e, n) => ((**e).clone(), *n),
                    Type::Matrix { rows, columns } => {
                        (Type::Vector(BaseType::Float, *rows), u32::from(*columns))
                    }
                    Type::Vector(b, n) => (Type::Scalar(*b), u32::from(*n)),
                    t => return unsupported(format!("array deref of {t:?}")),
                };
                let stride = super::flat_size(&elem, structs, 0).unwrap_or(1) as u32;
                match self.konst(*index) {
                    Some(k) => {
                        if k < 0 || k >= i64::from(len) {
                            p.oob = true;
                        } else {
                            p.konst = p.konst.saturating_add(k as u32 * stride);
                        }
                    }
                    None => {
                        let idx = self.val(*index, 0)?;
                        let parent_off = match p.off {
                            Some(po) => self.val(po, 0)?,
                            None => self.lanes_splat(0),
                        };
                        let (lenv, stridev, maxv) =
                            (self.splat(len), self.splat(stride), self.splat(u32::MAX));
                        let r = self.map2(idx, parent_off, |e, i, par| {
                            let in_len = e.b.ins().icmp(IntCC::UnsignedLessThan, i, lenv);
                            let par_ok = e.b.ins().icmp(IntCC::NotEqual, par, maxv);
                            let ok = e.b.ins().band(in_len, par_ok);
                            let m = e.b.ins().imul(i, stridev);
                            let s = e.b.ins().iadd(par, m);
                            e.b.ins().bitselect(ok, s, maxv)
                        });
                        self.set(d, 0, r)?;
                        p.off = Some(d);
                    }
                }
                p.ty = elem;
                p
            }
            DerefKind::Struct { parent, field } => {
                let mut p = self.place(*parent)?;
                let Type::Struct(id) = &p.ty else {
                    return unsupported("struct deref of a non-struct");
                };
                let def = structs
                    .get(rgl_nir::arena::EntityRef::index(*id))
                    .ok_or_else(|| Error::Unsupported("unknown struct".into()))?;
                let field = *field as usize;
                let mut off = 0u64;
                for (_, t) in def.fields.iter().take(field) {
                    off += super::flat_size(t, structs, 0).unwrap_or(0);
                }
                let ty = def
                    .fields
                    .get(field)
                    .map(|(_, t)| t.clone())
                    .ok_or_else(|| Error::Unsupported("struct field out of range".into()))?;
                p.konst = p.konst.saturating_add(off as u32);
                p.ty = ty;
                p
            }
            DerefKind::Cast { parent, .. } => {
                let mut p = self.place(*parent)?;
                p.ty = deref.ty.clone();
                p
            }
            DerefKind::ArrayWildcard { .. } => return unsupported("wildcard array deref"),
        };
        self.places.insert(d, place);
        Ok(())
    }

    fn place(&self, d: Def) -> Result<Place> {
        self.places
            .get(&d)
            .cloned()
            .ok_or_else(|| Error::Unsupported(format!("{d} is not a local-variable deref")))
    }

    /// Byte offset of element `e` (a scalar i32) of a local, for lane `lane`.
    fn local_lane_addr(&mut self, p: &Place, e: Value, lane: u32) -> Value {
        let lanes = 4 * self.q as i64;
        let base = self.ptrs().scratch;
        let e64 = self.b.ins().uextend(types::I64, e);
        let off = self.b.ins().imul_imm_s(e64, lanes * 4);
        let off = self
            .b
            .ins()
            .iadd_imm_s(off, i64::from(p.slot.offset) + i64::from(lane) * 4);
        self.b.ins().iadd(base, off)
    }

    fn load_local(&mut self, p: &Place, k: u32) -> Result<Lanes> {
        let size = p.slot.size;
        if k >= size {
            return Ok(self.lanes_splat(0));
        }
        let base = self.ptrs().scratch;
        let lanes = 4 * self.q as i32;
        let Some(offd) = p.off else {
            let at = p.slot.offset as i32 + k as i32 * lanes * 4;
            let first = self.b.ins().load(types::I32X4, trusted(), base, at);
            let mut out = Lanes::splat(first);
            for q in 1..self.q {
                out.0[q] = self
                    .b
                    .ins()
                    .load(types::I32X4, trusted(), base, at + q as i32 * 16);
            }
            return Ok(out);
        };
        let off = self.val(offd, 0)?;
        let mut out = off;
        for q in 0..self.q {
            let mut vec = off.0[q];
            for l in 0..4u8 {
                let o = self.b.ins().extractlane(off.0[q], l);
                let e = self.b.ins().iadd_imm_s(o, i64::from(k));
                let ok_o = self
                    .b
                    .ins()
                    .icmp_imm_u(IntCC::UnsignedLessThan, o, i64::from(size));
                let ok_e = self
                    .b
                    .ins()
                    .icmp_imm_u(IntCC::UnsignedLessThan, e, i64::from(size));
                let ok = self.b.ins().band(ok_o, ok_e);
                let zero = self.b.ins().iconst(types::I32, 0);
                let es = self.b.ins().select(ok, e, zero);
                let addr = self.local_lane_addr(p, es, q as u32 * 4 + u32::from(l));
                let w = self.b.ins().load(types::I32, trusted(), addr, 0);
                let w = self.b.ins().select(ok, w, zero);
                vec = self.b.ins().insertlane(vec, w, l);
            }
            out.0[q] = vec;
        }
        for q in self.q..super::MAX_QUADS {
            out.0[q] = out.0[0];
        }
        Ok(out)
    }

    fn store_local(&mut self, p: &Place, k: u32, v: Lanes) -> Result<()> {
        let size = p.slot.size;
        if k >= size {
            return Ok(());
        }
        let base = self.ptrs().scratch;
        let lanes = 4 * self.q as i32;
        let Some(offd) = p.off else {
            let at = p.slot.offset as i32 + k as i32 * lanes * 4;
            let mut old = v;
            for q in 0..self.q {
                old.0[q] = self
                    .b
                    .ins()
                    .load(types::I32X4, trusted(), base, at + q as i32 * 16);
            }
            let nv = self.merge_exec(v, old, true);
            for q in 0..self.q {
                self.b
                    .ins()
                    .store(trusted(), nv.0[q], base, at + q as i32 * 16);
            }
            return Ok(());
        };
        let off = self.val(offd, 0)?;
        let exec = if self.full { None } else { Some(self.exec()) };
        let dummy = self.b.ins().iadd_imm_s(base, i64::from(self.p.dummy));
        for q in 0..self.q {
            for l in 0..4u8 {
                let o = self.b.ins().extractlane(off.0[q], l);
                let e = self.b.ins().iadd_imm_s(o, i64::from(k));
                let ok_o = self
                    .b
                    .ins()
                    .icmp_imm_u(IntCC::UnsignedLessThan, o, i64::from(size));
                let ok_e = self
                    .b
                    .ins()
                    .icmp_imm_u(IntCC::UnsignedLessThan, e, i64::from(size));
                let mut ok = self.b.ins().band(ok_o, ok_e);
                if let Some(ex) = exec {
                    let x = self.b.ins().extractlane(ex.0[q], l);
                    let on = self.b.ins().icmp_imm_s(IntCC::NotEqual, x, 0);
                    ok = self.b.ins().band(ok, on);
                }
                let zero = self.b.ins().iconst(types::I32, 0);
                let es = self.b.ins().select(ok, e, zero);
                let addr = self.local_lane_addr(p, es, q as u32 * 4 + u32::from(l));
                let addr = self.b.ins().select(ok, addr, dummy);
                let w = self.b.ins().extractlane(v.0[q], l);
                self.b.ins().store(trusted(), w, addr, 0);
            }
        }
        Ok(())
    }

    fn load_deref(&mut self, d: Def, intr: &Intrinsic) -> Result<()> {
        let p = self.place(src(intr, 0)?)?;
        let (n, bits) = self.shape(d);
        let mut vals = Vec::new();
        for c in 0..n {
            let v = if p.oob {
                self.lanes_splat(0)
            } else {
                let v = self.load_local(&p, p.konst.saturating_add(u32::from(c)))?;
                self.loaded(v, bits)
            };
            vals.push(v);
        }
        for (c, v) in vals.into_iter().enumerate() {
            self.set(d, c as u8, v)?;
        }
        Ok(())
    }

    fn store_deref(&mut self, intr: &Intrinsic) -> Result<()> {
        let p = self.place(src(intr, 0)?)?;
        let v = src(intr, 1)?;
        let wrmask = index(intr, IndexKind::WriteMask);
        if p.oob {
            return Ok(());
        }
        for c in 0..self.shape(v).0 {
            if wrmask & (1 << c) == 0 {
                continue;
            }
            let x = self.val(v, c)?;
            self.store_local(&p, p.konst.saturating_add(u32::from(c)), x)?;
        }
        Ok(())
    }
}
