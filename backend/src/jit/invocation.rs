//! The milestone-1 wrapper around a body: a function `fn(*mut JitCtx) -> i32` that
//! runs a 16-lane [`Invocation`] as a loop over groups of `quads` 2×2 quads, reading
//! inputs and system values from the invocation's registers and writing outputs and
//! discards back ([`InvocationEnv`] is its [`Env`]), and the Rust side that fills
//! the [`JitCtx`] from an [`Invocation`] and calls the code.
//!
//! Groups with no live lane are skipped (their outputs are zeroed, as the
//! interpreter leaves them). The budget counter lives in the context: every loop
//! iteration charges its body's instruction count × the group's lanes at the
//! back-edge, and the function returns [`BUDGET_EXCEEDED`] when it runs out.
//! Straight-line code is not charged (it always ends).

use std::mem::offset_of;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, Block, BlockArg, InstBuilder, MemFlagsData, Value};
use cranelift_frontend::FunctionBuilder;

use rgl_nir::ir::{InstrKind, Shader};

use super::emit::{BodyPlan, Env, Lanes, SystemValue, UboRange, MAX_QUADS};
use super::JitOptions;
use crate::driver::ShaderStage;
use crate::exec::{Invocation, Reg, Resources, ShaderInfo, SysVals, LANES};
use crate::{Error, Result};

/// Quads per loop iteration of `shader`'s invocation function under `opts`.
///
/// With [`JitOptions::adaptive_quads`], 4 interleaved quads (`opts.quads`) only
/// where they pay: the texture helpers sample a whole 16-lane register per call,
/// so a shader that samples runs them once per batch with 4 quads and up to 4
/// times with 1. Everything else gets 1 quad: Cranelift's register allocator
/// dominates the compile, and 4 quads × every live value is more than x86's 16
/// vector registers, so 1 quad compiles several times faster at about the same
/// speed without texture calls (BENCHMARKS.md, issue 11's variant build
/// section). A fragment shader with fused pipelines gets 1 quad in any case:
/// its per-pixel work runs in the pipeline functions (always whole 4×4 blocks),
/// and this function only shades fragment-invariant draws (one live group) and
/// the state the fused path does not specialize — unless the pipelines are
/// deferred ([`JitOptions::defer_pipelines`]).
pub(crate) fn quads_for(shader: &Shader, info: &ShaderInfo, opts: &JitOptions) -> usize {
    if !opts.adaptive_quads {
        return opts.quads;
    }
    // With deferred pipelines the first draws of every key shade through this
    // function (the Rust per-pixel path), so it is sized as without them.
    let fused = info.stage == ShaderStage::Fragment
        && opts.fused_pipeline
        && !(opts.defer_pipelines && opts.tiered());
    if !fused && samples_textures(shader) {
        opts.quads
    } else {
        1
    }
}

/// Whether any function of `shader` has a texture instruction.
fn samples_textures(shader: &Shader) -> bool {
    shader.functions.iter().any(|(_, f)| {
        f.body.as_ref().is_some_and(|body| {
            body.instrs
                .iter()
                .any(|(_, i)| matches!(i.kind, InstrKind::Tex(_)))
        })
    })
}

/// Return value of a run that exhausted the budget.
pub(crate) const BUDGET_EXCEEDED: i32 = 1;

/// What the generated code reads and writes (`#[repr(C)]`; offsets via `offset_of!`).
#[repr(C)]
pub(crate) struct JitCtx {
    inputs: *const Reg,
    outputs: *mut Reg,
    sys: *const SysVals,
    uniforms: *const [u32; 4],
    uniform_count: u64,
    ubos: *const UboRange,
    ubo_count: u64,
    res: *const Resources<'static>,
    scratch: *mut u8,
    budget: u64,
    live: u32,
    kill: u32,
    zeros: [u32; 4],
}

/// The compiled entry point.
pub(crate) type JitFn = unsafe extern "C" fn(*mut JitCtx) -> i32;

/// Loads the `ty` field at byte `off` of the context at `ctx`.
pub(crate) fn field(b: &mut FunctionBuilder<'_>, ctx: Value, off: usize, ty: types::Type) -> Value {
    b.ins().load(ty, MemFlagsData::trusted(), ctx, off as i32)
}

/// Charges `lane_instructions` to the `u64` instruction budget at byte
/// `off` of `base`: jumps to `err` when less is left, else stores what
/// remains (every [`Env::charge`] of the JIT's entry points).
pub(crate) fn charge_budget(
    b: &mut FunctionBuilder<'_>,
    base: Value,
    off: usize,
    lane_instructions: u64,
    err: Block,
) {
    let cost = lane_instructions.min(i64::MAX as u64) as i64;
    let r = field(b, base, off, types::I64);
    let ok = b
        .ins()
        .icmp_imm_u(IntCC::UnsignedGreaterThanOrEqual, r, cost);
    let cont = b.create_block();
    b.ins().brif(ok, cont, &[], err, &[]);
    b.switch_to_block(cont);
    b.seal_block(cont);
    let left = b.ins().iadd_imm_s(r, -cost);
    b.ins()
        .store(MemFlagsData::trusted(), left, base, off as i32);
}

/// The [`Env`] of a group: pointers already offset to the group's lanes.
struct InvocationEnv {
    ctx: Value,
    /// Byte offset of the group's first lane within a register (i64).
    goff: Value,
    quads: usize,
    live: Lanes,
    err: Block,
}

impl InvocationEnv {
    /// `U` vector loads at `base + off + goff`.
    fn reg_lanes(&self, b: &mut FunctionBuilder<'_>, base: Value, off: i64) -> Lanes {
        let p = b.ins().iadd(base, self.goff);
        let first = b
            .ins()
            .load(types::I32X4, MemFlagsData::trusted(), p, off as i32);
        let mut out = Lanes::splat(first);
        for q in 1..self.quads {
            out.0[q] = b.ins().load(
                types::I32X4,
                MemFlagsData::trusted(),
                p,
                (off + q as i64 * 16) as i32,
            );
        }
        out
    }
}

impl Env for InvocationEnv {
    fn load_input(&mut self, b: &mut FunctionBuilder<'_>, word: u32) -> Lanes {
        let base = field(b, self.ctx, offset_of!(JitCtx, inputs), types::I64);
        self.reg_lanes(b, base, i64::from(word) * 64)
    }

    fn system_value(&mut self, b: &mut FunctionBuilder<'_>, sv: SystemValue) -> Lanes {
        let base = field(b, self.ctx, offset_of!(JitCtx, sys), types::I64);
        let off = match sv {
            SystemValue::FragCoord(c) => {
                offset_of!(SysVals, frag_coord) + usize::from(c.min(3)) * 64
            }
            SystemValue::FrontFace => offset_of!(SysVals, front_face),
            SystemValue::PointCoord(c) => {
                offset_of!(SysVals, point_coord) + usize::from(c.min(1)) * 64
            }
            SystemValue::VertexId => offset_of!(SysVals, vertex_id),
            SystemValue::InstanceId => offset_of!(SysVals, instance_id),
            SystemValue::PrimitiveId => offset_of!(SysVals, primitive_id),
        };
        self.reg_lanes(b, base, off as i64)
    }

    fn live_mask(&mut self, _b: &mut FunctionBuilder<'_>) -> Lanes {
        self.live
    }

    fn uniforms(&mut self, b: &mut FunctionBuilder<'_>) -> (Value, Value) {
        (
            field(b, self.ctx, offset_of!(JitCtx, uniforms), types::I64),
            field(b, self.ctx, offset_of!(JitCtx, uniform_count), types::I64),
        )
    }

    fn ubos(&mut self, b: &mut FunctionBuilder<'_>) -> (Value, Value) {
        (
            field(b, self.ctx, offset_of!(JitCtx, ubos), types::I64),
            field(b, self.ctx, offset_of!(JitCtx, ubo_count), types::I64),
        )
    }

    fn resources(&mut self, b: &mut FunctionBuilder<'_>) -> Value {
        field(b, self.ctx, offset_of!(JitCtx, res), types::I64)
    }

    fn scratch(&mut self, b: &mut FunctionBuilder<'_>) -> Value {
        field(b, self.ctx, offset_of!(JitCtx, scratch), types::I64)
    }

    fn zeros(&mut self, b: &mut FunctionBuilder<'_>) -> Value {
        b.ins()
            .iadd_imm_s(self.ctx, offset_of!(JitCtx, zeros) as i64)
    }

    fn charge(&mut self, b: &mut FunctionBuilder<'_>, lane_instructions: u64) {
        let off = offset_of!(JitCtx, budget);
        charge_budget(b, self.ctx, off, lane_instructions, self.err);
    }
}

/// Lane masks of the 4 × `quads` bits of `bits` (an i32, lane `4q + p` is bit
/// `4q + p`).
pub(crate) fn bit_masks(b: &mut FunctionBuilder<'_>, bits: Value, quads: usize) -> Lanes {
    let sel = {
        let c = b.func.dfg.constants.insert(
            [1u32, 2, 4, 8]
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .collect::<Vec<u8>>()
                .into(),
        );
        b.ins().vconst(types::I32X4, c)
    };
    let zero = b.ins().iconst(types::I32X4.lane_type(), 0);
    let zero = b.ins().splat(types::I32X4, zero);
    let mut out = Lanes::splat(zero);
    for q in 0..quads {
        let s = b.ins().ushr_imm_u(bits, 4 * q as i64);
        let v = b.ins().splat(types::I32X4, s);
        let m = b.ins().band(v, sel);
        out.0[q] = b.ins().icmp(IntCC::NotEqual, m, zero);
    }
    for q in quads..MAX_QUADS {
        out.0[q] = out.0[0];
    }
    out
}

/// Builds the whole entry function into `b` (a fresh function with signature
/// `(i64) -> i32`). Returns the helper descriptors the code points at.
pub(crate) fn build(
    plan: &BodyPlan<'_>,
    b: &mut FunctionBuilder<'_>,
) -> Result<Vec<Box<dyn std::any::Any + Send + Sync>>> {
    let quads = plan.quads();
    let groups = LANES / (4 * quads);
    let group_bytes = 16 * quads as i64;
    let lane_bits = (1u32 << (4 * quads)) - 1;
    let fragment = plan.info.stage == ShaderStage::Fragment;
    let nout = plan.info.outputs.len() * 4;

    let entry = b.create_block();
    let group = b.create_block();
    let body = b.create_block();
    let skip = b.create_block();
    let next = b.create_block();
    let done = b.create_block();
    let err = b.create_block();
    b.append_block_params_for_function_params(entry);
    let g = b.append_block_param(group, types::I64);
    b.switch_to_block(entry);
    b.seal_block(entry);
    let ctx = b.block_params(entry)[0];
    let g0 = b.ins().iconst(types::I64, 0);
    b.ins().jump(group, &[BlockArg::Value(g0)]);

    b.switch_to_block(group);
    let live_all = field(b, ctx, offset_of!(JitCtx, live), types::I32);
    let shift = b.ins().imul_imm_s(g, 4 * quads as i64);
    let shift32 = b.ins().ireduce(types::I32, shift);
    let live_sh = b.ins().ushr(live_all, shift32);
    let bits = b.ins().band_imm_u(live_sh, i64::from(lane_bits));
    let goff = b.ins().imul_imm_s(g, group_bytes);
    b.ins().brif(bits, body, &[], skip, &[]);

    // No live lane: zero the group's outputs (the interpreter clears them).
    b.switch_to_block(skip);
    b.seal_block(skip);
    {
        let outs = field(b, ctx, offset_of!(JitCtx, outputs), types::I64);
        let p = b.ins().iadd(outs, goff);
        let z = b.ins().iconst(types::I32, 0);
        let z = b.ins().splat(types::I32X4, z);
        for w in 0..nout {
            for q in 0..quads {
                b.ins().store(
                    MemFlagsData::trusted(),
                    z,
                    p,
                    (w as i64 * 64 + q as i64 * 16) as i32,
                );
            }
        }
        b.ins().jump(next, &[]);
    }

    b.switch_to_block(body);
    b.seal_block(body);
    let live = bit_masks(b, bits, quads);
    let entry_exec = if fragment {
        let ones = b.ins().iconst(types::I32, -1);
        Lanes::splat(b.ins().splat(types::I32X4, ones))
    } else {
        live
    };
    let mut env = InvocationEnv {
        ctx,
        goff,
        quads,
        live,
        err,
    };
    let out = plan.emit(b, &mut env, entry_exec)?;
    // Outputs.
    let outs = field(b, ctx, offset_of!(JitCtx, outputs), types::I64);
    let p = b.ins().iadd(outs, goff);
    for (w, v) in out.outputs.iter().enumerate() {
        for q in 0..quads {
            b.ins().store(
                MemFlagsData::trusted(),
                v.0[q],
                p,
                (w as i64 * 64 + q as i64 * 16) as i32,
            );
        }
    }
    // Discards: kill bits of the live lanes.
    if fragment {
        let mut k = b.ins().iconst(types::I32, 0);
        for q in 0..quads {
            let hb = b.ins().vhigh_bits(types::I32, out.kill.0[q]);
            let hb = b.ins().ishl_imm_u(hb, 4 * q as i64);
            k = b.ins().bor(k, hb);
        }
        let k = b.ins().band(k, bits);
        let k = b.ins().ishl(k, shift32);
        let old = field(b, ctx, offset_of!(JitCtx, kill), types::I32);
        let nk = b.ins().bor(old, k);
        b.ins().store(
            MemFlagsData::trusted(),
            nk,
            ctx,
            offset_of!(JitCtx, kill) as i32,
        );
    }
    b.ins().jump(next, &[]);

    b.switch_to_block(next);
    b.seal_block(next);
    let g1 = b.ins().iadd_imm_s(g, 1);
    let more = b
        .ins()
        .icmp_imm_u(IntCC::UnsignedLessThan, g1, groups as i64);
    b.ins().brif(more, group, &[BlockArg::Value(g1)], done, &[]);
    b.seal_block(group);

    b.switch_to_block(done);
    b.seal_block(done);
    let zero = b.ins().iconst(types::I32, 0);
    b.ins().return_(&[zero]);

    b.switch_to_block(err);
    b.seal_block(err);
    let e = b.ins().iconst(types::I32, i64::from(BUDGET_EXCEEDED));
    b.ins().return_(&[e]);
    Ok(out.keep_alive)
}

/// What the Rust side needs to run a compiled function.
pub(crate) struct RunInfo<'a> {
    pub info: &'a ShaderInfo,
    pub scratch_bytes: usize,
    pub min_uniforms: usize,
}

/// Most uniform blocks passed without allocating.
const INLINE_UBOS: usize = 16;

/// Runs `f` on one batch.
///
/// # Safety
/// `f` must have been built by [`build`] from a plan with `run`'s interface.
pub(crate) unsafe fn run(f: JitFn, run: &RunInfo<'_>, inv: &mut Invocation<'_>) -> Result<()> {
    let nin = run.info.inputs.len() * 4;
    let nout = run.info.outputs.len() * 4;
    // The generated code reads every declared input and uniform slot it uses at a
    // constant address and writes every output: short arrays are padded.
    let padded_inputs;
    let inputs: &[Reg] = if inv.inputs.len() >= nin {
        inv.inputs
    } else {
        let mut v = inv.inputs.to_vec();
        v.resize(nin, Reg::default());
        padded_inputs = v;
        &padded_inputs
    };
    let padded_uniforms;
    let uniforms: &[[u32; 4]] = if inv.res.uniforms.len() >= run.min_uniforms {
        inv.res.uniforms
    } else {
        let mut v = inv.res.uniforms.to_vec();
        v.resize(run.min_uniforms, [0; 4]);
        padded_uniforms = v;
        &padded_uniforms
    };
    let mut inline_ubos = [UboRange {
        ptr: std::ptr::null(),
        len: 0,
    }; INLINE_UBOS];
    let heap_ubos: Vec<UboRange>;
    let ubos: &[UboRange] = if inv.res.ubos.len() <= INLINE_UBOS {
        for (d, s) in inline_ubos.iter_mut().zip(inv.res.ubos) {
            *d = UboRange {
                ptr: s.as_ptr(),
                len: s.len() as u64,
            };
        }
        &inline_ubos[..inv.res.ubos.len().max(1)]
    } else {
        heap_ubos = inv
            .res
            .ubos
            .iter()
            .map(|s| UboRange {
                ptr: s.as_ptr(),
                len: s.len() as u64,
            })
            .collect();
        &heap_ubos
    };
    let regs = run.scratch_bytes.div_ceil(std::mem::size_of::<Reg>());
    if inv.scratch.len() < regs {
        inv.scratch.resize(regs, Reg::default());
    }
    let mut short_outputs = if inv.outputs.len() < nout {
        vec![Reg::default(); nout]
    } else {
        Vec::new()
    };
    for o in inv.outputs.iter_mut().skip(nout) {
        *o = Reg::default();
    }
    let outputs: *mut Reg = if short_outputs.is_empty() {
        inv.outputs.as_mut_ptr()
    } else {
        short_outputs.as_mut_ptr()
    };
    let res: *const Resources<'_> = &inv.res;
    let mut ctx = JitCtx {
        inputs: inputs.as_ptr(),
        outputs,
        sys: inv.sys,
        uniforms: uniforms.as_ptr(),
        uniform_count: uniforms.len() as u64,
        ubos: ubos.as_ptr(),
        ubo_count: inv.res.ubos.len() as u64,
        res: res.cast(),
        scratch: inv.scratch.as_mut_ptr().cast(),
        budget: inv.budget.remaining,
        live: inv.mask & crate::exec::ALL_LANES,
        kill: 0,
        zeros: [0; 4],
    };
    // SAFETY: every pointer in `ctx` is valid for what the code reads and writes:
    // inputs, uniforms and outputs cover the interface (padded above), the
    // scratch holds `scratch_bytes`, the UBO table has at least one entry and
    // its `ubo_count` real ones; all outlive the call.
    let r = unsafe { f(&mut ctx) };
    if !short_outputs.is_empty() {
        let n = inv.outputs.len();
        inv.outputs.copy_from_slice(&short_outputs[..n]);
    }
    inv.kill |= ctx.kill;
    if r == BUDGET_EXCEEDED {
        inv.budget.remaining = 0;
        return Err(Error::BudgetExceeded(inv.budget.limit));
    }
    inv.budget.remaining = ctx.budget;
    Ok(())
}
