//! Emits a fused pipeline function: a loop over the [`Job`]s of one triangle,
//! doing for each 4×4 block what the Rust per-pixel path of
//! [`crate::soft::raster`] does, in the same order and with the same float
//! operations (so the results are bit-identical):
//!
//! 1. the bounds proof: the block lies inside every surface of the band, else the
//!    function returns [`RUN_OUT_OF_BOUNDS`] without touching memory;
//! 2. coverage: for a partly covered block, the triangle's three edge functions
//!    at each pixel center (on `c / 256`, in 32 bits), ANDed with the job's mask;
//! 3. early depth/stencil ([`super::zs`]) when the shader allows it;
//! 4. the shader body ([`crate::jit::emit`]), whose [`Env`] interpolates inputs
//!    (flat, screen-linear, perspective-correct) and computes `gl_FragCoord`,
//!    `gl_FrontFacing`, `gl_PointCoord` and `gl_PrimitiveID` on demand;
//! 5. discards, then late depth/stencil (with `gl_FragDepth` when written);
//! 6. blending, colour masks and the store of every render target
//!    ([`super::color`]);
//! 7. the counters (invocations, fragments written) in the thread's state.
//!
//! llvmpipe splits the same work between `lp_rast_tri.c` (coverage masks) and the
//! fragment shader variant of `lp_state_fs.c` (`generate_fragment`); here the
//! rasterizer only classifies blocks and the rest is one compiled loop.

use std::mem::offset_of;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, Block, InstBuilder, MemFlagsData, Value};
use cranelift_frontend::FunctionBuilder;

use super::abi::*;
use super::key::PipelineKey;
use super::vecops::{self, fconst4, lane_x, lane_y, splat_f, splat_i, Quads};
use super::{color, zs};
use crate::driver::MAX_RENDER_TARGETS;
use crate::jit::emit::{BodyPlan, Env, Lanes, SystemValue};
use crate::jit::invocation::charge_budget;
use crate::soft::setup::AttrMode;
use crate::{Error, Result};

fn ld(b: &mut FunctionBuilder<'_>, ty: types::Type, p: Value, off: usize) -> Value {
    b.ins().load(ty, MemFlagsData::trusted(), p, off as i32)
}

/// A field of the [`DrawJit`], which nothing writes while the function runs:
/// a load that may move (as the body's uniform loads: `emit::intr::uniform_flags`), so its
/// uniform reads leave the job loop.
fn ld_draw(b: &mut FunctionBuilder<'_>, ty: types::Type, p: Value, off: usize) -> Value {
    b.ins().load(
        ty,
        MemFlagsData::trusted().with_readonly().with_can_move(),
        p,
        off as i32,
    )
}

/// Values of the function every block's code may use.
#[derive(Copy, Clone)]
pub(super) struct Params {
    pub draw: Value,
    pub thread: Value,
    pub band: Value,
    pub tri: Value,
}

/// Evaluates the plane at `plane_ptr + 12 * index` at the pixel centers of the block:
/// `a0 + ((fx + LANE_X) * dadx + (fy + LANE_Y) * dady)` per lane, in the order of
/// `raster::eval_plane` (the reference value added last).
fn eval_plane(
    b: &mut FunctionBuilder<'_>,
    planes: Value,
    index: usize,
    fx: Value,
    fy: Value,
) -> Quads {
    let off = index * 12;
    let a0 = ld(b, types::F32, planes, off);
    let dx = ld(b, types::F32, planes, off + 4);
    let dy = ld(b, types::F32, planes, off + 8);
    let a0v = b.ins().splat(types::F32X4, a0);
    let dxv = b.ins().splat(types::F32X4, dx);
    let dyv = b.ins().splat(types::F32X4, dy);
    let fxv = b.ins().splat(types::F32X4, fx);
    let fyv = b.ins().splat(types::F32X4, fy);
    let mut out = [a0v; 4];
    for (q, o) in out.iter_mut().enumerate() {
        let lx = fconst4(b, lane_x(q).map(|v| v as f32));
        let ly = fconst4(b, lane_y(q).map(|v| v as f32));
        let px = b.ins().fadd(fxv, lx);
        let py = b.ins().fadd(fyv, ly);
        let tx = b.ins().fmul(px, dxv);
        let ty = b.ins().fmul(py, dyv);
        let t = b.ins().fadd(tx, ty);
        *o = b.ins().fadd(a0v, t);
    }
    out
}

/// The per-block position of the planes' evaluation.
#[derive(Copy, Clone)]
pub(super) struct BlockPos {
    /// Window x, y of the block (`i32`).
    pub x: Value,
    pub y: Value,
    /// `x + 0.5 - x0`, `y + 0.5 - y0` (`f32`).
    pub fx: Value,
    pub fy: Value,
}

/// Interpolated, depth-range clamped window z of the block.
pub(super) fn block_z(b: &mut FunctionBuilder<'_>, p: Params, pos: BlockPos) -> Quads {
    let planes = ld(b, types::I64, p.tri, offset_of!(TriJit, planes));
    let z = eval_plane(b, planes, 0, pos.fx, pos.fy);
    let lo = ld(b, types::F32, p.draw, offset_of!(DrawJit, depth_lo));
    let hi = ld(b, types::F32, p.draw, offset_of!(DrawJit, depth_hi));
    let lo = b.ins().splat(types::F32X4, lo);
    let hi = b.ins().splat(types::F32X4, hi);
    vecops::map(b, z, |b, v| vecops::clamp(b, v, lo, hi))
}

/// The body's [`Env`]: inputs and system values of the block's lanes.
struct PipeEnv<'m> {
    p: Params,
    pos: BlockPos,
    modes: &'m [AttrMode],
    /// `1 / (1/w)` per lane, when an input is perspective-correct.
    w: Option<Quads>,
    live: Quads,
    err: Block,
}

fn lanes(b: &mut FunctionBuilder<'_>, q: Quads) -> Lanes {
    Lanes(vecops::map(b, q, vecops::as_i))
}

impl Env for PipeEnv<'_> {
    fn load_input(&mut self, b: &mut FunctionBuilder<'_>, word: u32) -> Lanes {
        let k = word as usize;
        match self.modes.get(k) {
            None => Lanes::splat(splat_i(b, 0)),
            Some(AttrMode::Flat) => {
                let flat = ld(b, types::I64, self.p.tri, offset_of!(TriJit, flat));
                let v = ld(b, types::I32, flat, 4 * k);
                Lanes::splat(b.ins().splat(types::I32X4, v))
            }
            Some(mode) => {
                let planes = ld(b, types::I64, self.p.tri, offset_of!(TriJit, planes));
                let mut v = eval_plane(b, planes, 2 + k, self.pos.fx, self.pos.fy);
                if *mode == AttrMode::Perspective {
                    if let Some(w) = self.w {
                        for q in 0..4 {
                            v[q] = b.ins().fmul(v[q], w[q]);
                        }
                    }
                }
                lanes(b, v)
            }
        }
    }

    fn system_value(&mut self, b: &mut FunctionBuilder<'_>, sv: SystemValue) -> Lanes {
        match sv {
            SystemValue::FragCoord(c @ 0..=1) => {
                let (coord, offs): (Value, fn(usize) -> [u32; 4]) = if c == 0 {
                    (self.pos.x, lane_x)
                } else {
                    (self.pos.y, lane_y)
                };
                let f = b.ins().fcvt_from_sint(types::F32, coord);
                let f = b.ins().splat(types::F32X4, f);
                let half = splat_f(b, 0.5);
                let mut out = [f; 4];
                for (q, o) in out.iter_mut().enumerate() {
                    let l = fconst4(b, offs(q).map(|v| v as f32));
                    let v = b.ins().fadd(f, l);
                    *o = b.ins().fadd(v, half);
                }
                lanes(b, out)
            }
            SystemValue::FragCoord(2) => {
                let z = block_z(b, self.p, self.pos);
                lanes(b, z)
            }
            SystemValue::FragCoord(_) => {
                let planes = ld(b, types::I64, self.p.tri, offset_of!(TriJit, planes));
                let oow = eval_plane(b, planes, 1, self.pos.fx, self.pos.fy);
                lanes(b, oow)
            }
            SystemValue::FrontFace => {
                let v = ld(b, types::I32, self.p.tri, offset_of!(TriJit, front));
                Lanes::splat(b.ins().splat(types::I32X4, v))
            }
            SystemValue::PrimitiveId => {
                let v = ld(b, types::I32, self.p.tri, offset_of!(TriJit, prim_id));
                Lanes::splat(b.ins().splat(types::I32X4, v))
            }
            SystemValue::PointCoord(c) => {
                let planes = ld(b, types::I64, self.p.tri, offset_of!(TriJit, pc_planes));
                let v = eval_plane(b, planes, usize::from(c.min(1)), self.pos.fx, self.pos.fy);
                lanes(b, v)
            }
            SystemValue::VertexId | SystemValue::InstanceId => Lanes::splat(splat_i(b, 0)),
        }
    }

    fn live_mask(&mut self, _b: &mut FunctionBuilder<'_>) -> Lanes {
        Lanes(self.live)
    }

    fn uniforms(&mut self, b: &mut FunctionBuilder<'_>) -> (Value, Value) {
        (
            ld_draw(b, types::I64, self.p.draw, offset_of!(DrawJit, uniforms)),
            ld_draw(
                b,
                types::I64,
                self.p.draw,
                offset_of!(DrawJit, uniform_count),
            ),
        )
    }

    fn ubos(&mut self, b: &mut FunctionBuilder<'_>) -> (Value, Value) {
        (
            ld(b, types::I64, self.p.draw, offset_of!(DrawJit, ubos)),
            ld(b, types::I64, self.p.draw, offset_of!(DrawJit, ubo_count)),
        )
    }

    fn resources(&mut self, b: &mut FunctionBuilder<'_>) -> Value {
        ld(b, types::I64, self.p.draw, offset_of!(DrawJit, res))
    }

    fn scratch(&mut self, b: &mut FunctionBuilder<'_>) -> Value {
        ld(b, types::I64, self.p.thread, offset_of!(ThreadJit, scratch))
    }

    fn zeros(&mut self, b: &mut FunctionBuilder<'_>) -> Value {
        b.ins()
            .iadd_imm_s(self.p.draw, offset_of!(DrawJit, zeros) as i64)
    }

    fn charge(&mut self, b: &mut FunctionBuilder<'_>, lane_instructions: u64) {
        let off = offset_of!(ThreadJit, budget);
        charge_budget(b, self.p.thread, off, lane_instructions, self.err);
    }
}

/// Bytes per pixel of each surface the key touches: colour slot `i`, then the
/// depth/stencil surface as slot `MAX_RENDER_TARGETS`.
fn surfaces(key: &PipelineKey) -> Vec<(usize, usize)> {
    let mut v: Vec<(usize, usize)> = key
        .colors
        .iter()
        .enumerate()
        .filter_map(|(i, c)| c.map(|c| (i, c.format.bytes_per_pixel())))
        .collect();
    if let Some(z) = &key.zs {
        v.push((MAX_RENDER_TARGETS, z.format.bytes_per_pixel()));
    }
    v
}

fn surf_offset(slot: usize) -> usize {
    if slot == MAX_RENDER_TARGETS {
        offset_of!(BandJit, zs)
    } else {
        offset_of!(BandJit, colors) + slot * std::mem::size_of::<SurfJit>()
    }
}

/// Adds `n` to the `u64` counter at `off` of the thread state.
fn count(b: &mut FunctionBuilder<'_>, thread: Value, off: usize, bits: Value) {
    let n = b.ins().popcnt(bits);
    let n = b.ins().uextend(types::I64, n);
    let old = ld(b, types::I64, thread, off);
    let new = b.ins().iadd(old, n);
    b.ins()
        .store(MemFlagsData::trusted(), new, thread, off as i32);
}

/// Builds the whole function into `b` (a fresh function with the signature of
/// [`PipelineFn`]). Returns the helper descriptors the code points at.
pub(super) fn build(
    plan: &BodyPlan<'_>,
    key: &PipelineKey,
    modes: &[AttrMode],
    b: &mut FunctionBuilder<'_>,
) -> Result<Vec<Box<dyn std::any::Any + Send + Sync>>> {
    if plan.quads() != 4 {
        return Err(Error::InvalidArgument(format!(
            "a fused pipeline shades 4 quads at once, not {}",
            plan.quads()
        )));
    }
    let entry = b.create_block();
    let header = b.create_block();
    let job_blk = b.create_block();
    let in_bounds = b.create_block();
    let cov_blk = b.create_block();
    let merge = b.create_block();
    let shade = b.create_block();
    let next = b.create_block();
    let done = b.create_block();
    let err_budget = b.create_block();
    let err_oob = b.create_block();
    b.append_block_params_for_function_params(entry);
    let bits_param = b.append_block_param(merge, types::I32);
    let i_var = b.declare_var(types::I64);

    b.switch_to_block(entry);
    b.seal_block(entry);
    let args = b.block_params(entry).to_vec();
    let p = Params {
        draw: args[0],
        thread: args[1],
        band: args[2],
        tri: args[3],
    };
    let (jobs, njobs) = (args[4], args[5]);
    let zero64 = b.ins().iconst(types::I64, 0);
    b.def_var(i_var, zero64);
    b.ins().jump(header, &[]);

    // Loop header.
    b.switch_to_block(header);
    let i = b.use_var(i_var);
    let more = b.ins().icmp(IntCC::UnsignedLessThan, i, njobs);
    b.ins().brif(more, job_blk, &[], done, &[]);

    // The job and the bounds proof. Each job is one batch with a full budget.
    b.switch_to_block(job_blk);
    b.seal_block(job_blk);
    let limit = ld(b, types::I64, p.thread, offset_of!(ThreadJit, budget_limit));
    b.ins().store(
        MemFlagsData::trusted(),
        limit,
        p.thread,
        offset_of!(ThreadJit, budget) as i32,
    );
    let jp = b.ins().imul_imm_s(i, std::mem::size_of::<Job>() as i64);
    let jp = b.ins().iadd(jobs, jp);
    let x = ld(b, types::I32, jp, offset_of!(Job, x));
    let y = ld(b, types::I32, jp, offset_of!(Job, y));
    let jmask = ld(b, types::I32, jp, offset_of!(Job, mask));
    let flags = ld(b, types::I32, jp, offset_of!(Job, flags));
    let bx0 = ld(b, types::I32, p.band, offset_of!(BandJit, x0));
    let by0 = ld(b, types::I32, p.band, offset_of!(BandJit, y0));
    let (x64, y64) = (
        b.ins().sextend(types::I64, x),
        b.ins().sextend(types::I64, y),
    );
    let (bx64, by64) = (
        b.ins().sextend(types::I64, bx0),
        b.ins().sextend(types::I64, by0),
    );
    let xr = b.ins().isub(x64, bx64);
    let yr = b.ins().isub(y64, by64);
    let mut ok = b.ins().iconst(types::I8, 1);
    let mut addrs = [None; MAX_RENDER_TARGETS + 1];
    for (slot, bpp) in surfaces(key) {
        let s = b.ins().iadd_imm_s(p.band, surf_offset(slot) as i64);
        let lim_x = ld(b, types::I64, s, offset_of!(SurfJit, lim_x));
        let lim_y = ld(b, types::I64, s, offset_of!(SurfJit, lim_y));
        let okx = b.ins().icmp(IntCC::UnsignedLessThan, xr, lim_x);
        let oky = b.ins().icmp(IntCC::UnsignedLessThan, yr, lim_y);
        let both = b.ins().band(okx, oky);
        ok = b.ins().band(ok, both);
        let base = ld(b, types::I64, s, offset_of!(SurfJit, base));
        let pitch = ld(b, types::I64, s, offset_of!(SurfJit, pitch));
        let row = b.ins().imul(yr, pitch);
        let col = b.ins().imul_imm_s(xr, bpp as i64);
        let off = b.ins().iadd(row, col);
        let addr = b.ins().iadd(base, off);
        addrs[slot] = Some((addr, pitch));
    }
    b.ins().brif(ok, in_bounds, &[], err_oob, &[]);

    // Coverage.
    b.switch_to_block(in_bounds);
    b.seal_block(in_bounds);
    let rect = b.ins().band_imm_u(jmask, 0xffff);
    let partial = b.ins().band_imm_u(flags, i64::from(JOB_PARTIAL));
    b.ins().brif(
        partial,
        cov_blk,
        &[],
        merge,
        &[cranelift_codegen::ir::BlockArg::Value(rect)],
    );

    b.switch_to_block(cov_blk);
    b.seal_block(cov_blk);
    let zero_v = splat_i(b, 0);
    let mut cov = [splat_i(b, u32::MAX); 4];
    for e in 0..3 {
        let c = ld(b, types::I64, p.tri, offset_of!(TriJit, edge_c) + 8 * e);
        let dx = ld(b, types::I64, p.tri, offset_of!(TriJit, edge_d) + 16 * e);
        let dy = ld(
            b,
            types::I64,
            p.tri,
            offset_of!(TriJit, edge_d) + 16 * e + 8,
        );
        let tx = b.ins().imul(x64, dx);
        let ty = b.ins().imul(y64, dy);
        let v = b.ins().iadd(c, tx);
        let v = b.ins().iadd(v, ty);
        // floor(v / 256): the steps are multiples of 256, so the sign of every
        // pixel's value is that of `floor(v / 256) + step / 256`; clamping keeps
        // the signs (|step / 256| < 2^27).
        let v = b.ins().sshr_imm_u(v, 8);
        let lo = b.ins().iconst(types::I64, -(1 << 30));
        let hi = b.ins().iconst(types::I64, 1 << 30);
        let v = b.ins().smax(v, lo);
        let v = b.ins().smin(v, hi);
        let v = b.ins().ireduce(types::I32, v);
        let v = b.ins().splat(types::I32X4, v);
        for (q, m) in cov.iter_mut().enumerate() {
            let steps = ld(
                b,
                types::I32X4,
                p.tri,
                offset_of!(TriJit, edge_steps) + 64 * e + 16 * q,
            );
            let t = b.ins().iadd(v, steps);
            let ge = b.ins().icmp(IntCC::SignedGreaterThanOrEqual, t, zero_v);
            *m = b.ins().band(*m, ge);
        }
    }
    let cov_bits = vecops::mask_bits(b, cov);
    let cov_bits = b.ins().band(cov_bits, rect);
    b.ins()
        .jump(merge, &[cranelift_codegen::ir::BlockArg::Value(cov_bits)]);

    b.switch_to_block(merge);
    b.seal_block(merge);
    b.ins().brif(bits_param, shade, &[], next, &[]);

    // Shading. (Constants are made here again: `cov_blk` does not dominate
    // this block, so its values are not defined on the fully covered path.)
    b.switch_to_block(shade);
    b.seal_block(shade);
    let ones = splat_i(b, u32::MAX);
    let zero_v = splat_i(b, 0);
    let mut mask = vecops::bit_masks(b, bits_param);
    let mut live_bits = bits_param;
    let x0 = ld(b, types::F32, p.tri, offset_of!(TriJit, x0));
    let y0 = ld(b, types::F32, p.tri, offset_of!(TriJit, y0));
    let half = b.ins().f32const(0.5);
    let fx = b.ins().fcvt_from_sint(types::F32, x);
    let fx = b.ins().fadd(fx, half);
    let fx = b.ins().fsub(fx, x0);
    let fy = b.ins().fcvt_from_sint(types::F32, y);
    let fy = b.ins().fadd(fy, half);
    let fy = b.ins().fsub(fy, y0);
    let pos = BlockPos { x, y, fx, fy };
    let zs_surface = addrs[MAX_RENDER_TARGETS];
    if let (Some(zk), Some((addr, pitch)), true) = (&key.zs, zs_surface, key.early_z) {
        let z = block_z(b, p, pos);
        mask = zs::depth_stencil(b, zk, p, addr, pitch, mask, z);
        live_bits = vecops::mask_bits(b, mask);
        let body_blk = b.create_block();
        b.ins().brif(live_bits, body_blk, &[], next, &[]);
        b.switch_to_block(body_blk);
        b.seal_block(body_blk);
    }
    count(b, p.thread, offset_of!(ThreadJit, invocations), live_bits);
    let needs_w = modes.contains(&AttrMode::Perspective);
    let w = if needs_w {
        let planes = ld(b, types::I64, p.tri, offset_of!(TriJit, planes));
        let oow = eval_plane(b, planes, 1, fx, fy);
        let one = splat_f(b, 1.0);
        Some(vecops::map(b, oow, |b, v| b.ins().fdiv(one, v)))
    } else {
        None
    };
    let mut env = PipeEnv {
        p,
        pos,
        modes,
        w,
        live: mask,
        err: err_budget,
    };
    let all = Lanes::splat(ones);
    let out = plan.emit(b, &mut env, all)?;
    let mut mask = vecops::and_not(b, mask, out.kill.0);
    let mut bits = vecops::mask_bits(b, mask);
    if let (Some(zk), Some((addr, pitch)), false) = (&key.zs, zs_surface, key.early_z) {
        let cont = b.create_block();
        b.ins().brif(bits, cont, &[], next, &[]);
        b.switch_to_block(cont);
        b.seal_block(cont);
        let z = match key.depth_out {
            Some(wd) => {
                let dz = out
                    .outputs
                    .get(wd as usize)
                    .copied()
                    .unwrap_or(Lanes::splat(zero_v));
                let lo = ld(b, types::F32, p.draw, offset_of!(DrawJit, depth_lo));
                let hi = ld(b, types::F32, p.draw, offset_of!(DrawJit, depth_hi));
                let lo = b.ins().splat(types::F32X4, lo);
                let hi = b.ins().splat(types::F32X4, hi);
                vecops::map(b, dz.0, |b, v| {
                    let v = vecops::as_f(b, v);
                    vecops::clamp(b, v, lo, hi)
                })
            }
            None => block_z(b, p, pos),
        };
        mask = zs::depth_stencil(b, zk, p, addr, pitch, mask, z);
        bits = vecops::mask_bits(b, mask);
    }
    let store_blk = b.create_block();
    b.ins().brif(bits, store_blk, &[], next, &[]);
    b.switch_to_block(store_blk);
    b.seal_block(store_blk);
    count(b, p.thread, offset_of!(ThreadJit, written), bits);
    let channels = |w: u16| -> [Quads; 4] {
        [0usize, 1, 2, 3].map(|c| out.outputs.get(w as usize + c).map_or([zero_v; 4], |l| l.0))
    };
    let src1 = key.src1.map(channels);
    for (slot, ck) in key.colors.iter().enumerate() {
        let (Some(ck), Some((addr, pitch))) = (ck, addrs[slot]) else {
            continue;
        };
        let Some(o) = ck.output else { continue };
        let src = channels(o);
        color::store(b, ck, p.draw, addr, pitch, src, src1, mask);
    }
    b.ins().jump(next, &[]);

    b.switch_to_block(next);
    b.seal_block(next);
    let i1 = b.ins().iadd_imm_s(i, 1);
    b.def_var(i_var, i1);
    b.ins().jump(header, &[]);
    b.seal_block(header);

    b.switch_to_block(done);
    b.seal_block(done);
    let r = b.ins().iconst(types::I32, i64::from(RUN_OK));
    b.ins().return_(&[r]);

    b.switch_to_block(err_budget);
    b.seal_block(err_budget);
    let r = b.ins().iconst(types::I32, i64::from(RUN_BUDGET));
    b.ins().return_(&[r]);

    b.switch_to_block(err_oob);
    b.seal_block(err_oob);
    let r = b.ins().iconst(types::I32, i64::from(RUN_OUT_OF_BOUNDS));
    b.ins().return_(&[r]);
    Ok(out.keep_alive)
}
