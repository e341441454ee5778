//! Compute shaders on the JIT (GL 4.3 §19): one native function per compute
//! shader running one batch of [`LANES`] invocations of a workgroup (all 16
//! lanes in one body of 4 quads), and the `extern "C"` helpers its storage
//! buffer and shared memory accesses call.
//!
//! The function `fn(*mut CsCtx) -> i32` starts at the body's beginning when
//! [`CsCtx::resume`] is 0, or right after barrier `k` when it is `k`; it
//! returns 0 when the batch ended (resume point 0), [`SUSPENDED`] at a
//! workgroup barrier (the barrier's number stored as the resume point, the
//! values live across it in the batch's spill area), or [`BUDGET_EXCEEDED`].
//! [`crate::compute`] runs every batch of a workgroup to the barrier before any
//! goes on, as it does with the lane interpreter's [`crate::lanes::ComputeBatch`]
//! (see [`super::emit`]'s `compute` module for the resume design).
//!
//! The helpers run the lane interpreter's per-lane code: storage accesses go
//! through [`StorageView`] (bounds-checked, atomics atomic across threads),
//! shared memory through the same word check as the interpreter
//! (`shared_word`): out-of-range loads read 0, such stores and atomics are
//! dropped (an atomic returns 0).

use std::mem::offset_of;

use cranelift_codegen::ir::{types, AbiParam, Block, InstBuilder, Signature, UserFuncName, Value};
use cranelift_codegen::isa::{OwnedTargetIsa, TargetIsa};
use cranelift_frontend::FunctionBuilder;
use rgl_nir::intrinsics::AtomicOp;

pub(crate) use super::emit::compute::SUSPENDED;
use super::emit::{BodyPlan, Env, Lanes, UboRange, MAX_QUADS};
use super::invocation::{charge_budget, field, BUDGET_EXCEEDED};
use super::{code, shared_isa, JitOptions};
use crate::exec::{Budget, Reg, Resources, ShaderInfo, SysVals, ALL_LANES, LANES};
use crate::storage::StorageView;
use crate::{Error, Result};

/// What a compute function reads and writes (`#[repr(C)]`; offsets via
/// `offset_of!`).
#[repr(C)]
pub(crate) struct CsCtx {
    pub uniforms: *const [u32; 4],
    pub uniform_count: u64,
    pub ubos: *const UboRange,
    pub ubo_count: u64,
    pub res: *const Resources<'static>,
    pub scratch: *mut u8,
    pub spill: *mut u8,
    pub sys: *const SysVals,
    pub shared: *mut u32,
    pub shared_len: u64,
    pub budget: u64,
    /// In: 0 to start, `k` to resume after barrier `k`. Out: where the batch
    /// stopped (0 when it ended).
    pub resume: u32,
    pub live: u32,
    pub zeros: [u32; 4],
}

/// The compiled entry point.
type CsFn = unsafe extern "C" fn(*mut CsCtx) -> i32;

/// The [`Env`] of a compute batch.
struct CsEnv {
    ctx: Value,
    live: Lanes,
    err: Block,
}

impl Env for CsEnv {
    fn load_input(&mut self, b: &mut FunctionBuilder<'_>, _word: u32) -> Lanes {
        let z = b.ins().iconst(types::I32, 0);
        Lanes::splat(b.ins().splat(types::I32X4, z))
    }
    fn system_value(
        &mut self,
        b: &mut FunctionBuilder<'_>,
        _sv: super::emit::SystemValue,
    ) -> Lanes {
        // Compute shaders have no draw system values (the lane compiler's
        // compute stage reads them as 0 words).
        self.load_input(b, 0)
    }
    fn live_mask(&mut self, _b: &mut FunctionBuilder<'_>) -> Lanes {
        self.live
    }
    fn uniforms(&mut self, b: &mut FunctionBuilder<'_>) -> (Value, Value) {
        (
            field(b, self.ctx, offset_of!(CsCtx, uniforms), types::I64),
            field(b, self.ctx, offset_of!(CsCtx, uniform_count), types::I64),
        )
    }
    fn ubos(&mut self, b: &mut FunctionBuilder<'_>) -> (Value, Value) {
        (
            field(b, self.ctx, offset_of!(CsCtx, ubos), types::I64),
            field(b, self.ctx, offset_of!(CsCtx, ubo_count), types::I64),
        )
    }
    fn resources(&mut self, b: &mut FunctionBuilder<'_>) -> Value {
        field(b, self.ctx, offset_of!(CsCtx, res), types::I64)
    }
    fn scratch(&mut self, b: &mut FunctionBuilder<'_>) -> Value {
        field(b, self.ctx, offset_of!(CsCtx, scratch), types::I64)
    }
    fn zeros(&mut self, b: &mut FunctionBuilder<'_>) -> Value {
        b.ins()
            .iadd_imm_s(self.ctx, offset_of!(CsCtx, zeros) as i64)
    }
    fn charge(&mut self, b: &mut FunctionBuilder<'_>, lane_instructions: u64) {
        let off = offset_of!(CsCtx, budget);
        charge_budget(b, self.ctx, off, lane_instructions, self.err);
    }
    fn compute_ctx(&mut self, _b: &mut FunctionBuilder<'_>) -> Option<Value> {
        Some(self.ctx)
    }
}

/// Builds the compute function for `plan` (4 quads) into `b`; returns the
/// helper descriptors and the spill area's size.
fn build(
    plan: &BodyPlan<'_>,
    b: &mut FunctionBuilder<'_>,
) -> Result<(Vec<Box<dyn std::any::Any + Send + Sync>>, usize)> {
    let entry = b.create_block();
    let err = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    b.seal_block(entry);
    let ctx = b.block_params(entry)[0];
    let bits = field(b, ctx, offset_of!(CsCtx, live), types::I32);
    let live = super::invocation::bit_masks(b, bits, MAX_QUADS);
    let mut env = CsEnv { ctx, live, err };
    let out = plan.emit(b, &mut env, live)?;
    let zero = b.ins().iconst(types::I32, 0);
    b.ins().store(
        cranelift_codegen::ir::MemFlagsData::trusted(),
        zero,
        ctx,
        offset_of!(CsCtx, resume) as i32,
    );
    b.ins().return_(&[zero]);
    b.switch_to_block(err);
    b.seal_block(err);
    let e = b.ins().iconst(types::I32, i64::from(BUDGET_EXCEEDED));
    b.ins().return_(&[e]);
    Ok((out.keep_alive, out.spill_bytes))
}

/// A compute shader compiled to native code.
pub(crate) struct JitComputeShader {
    func: CsFn,
    scratch_bytes: usize,
    spill_bytes: usize,
    min_uniforms: usize,
    _code: code::CodeMemory,
    _keep: Vec<Box<dyn std::any::Any + Send + Sync>>,
}

impl std::fmt::Debug for JitComputeShader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JitComputeShader")
            .field("scratch_bytes", &self.scratch_bytes)
            .field("spill_bytes", &self.spill_bytes)
            .finish()
    }
}

/// The ISA compute shaders compile for (the default options as `RGL_JIT`
/// changes them, untiered: a compute shader is compiled once, optimised).
fn compute_isa() -> Result<OwnedTargetIsa> {
    shared_isa(&JitOptions::from_env())
}

impl JitComputeShader {
    /// Compiles finalized compute shader `nir` (interface `info`, as the lane
    /// compiler computed it); errors name what the JIT does not compile.
    pub(crate) fn new(nir: &rgl_nir::ir::Shader, info: &ShaderInfo) -> Result<JitComputeShader> {
        if nir.stage != rgl_nir::ir::Stage::Compute {
            return Err(Error::InvalidArgument("not a compute shader".into()));
        }
        let isa = compute_isa()?;
        let plan = BodyPlan::new(nir, info, MAX_QUADS)?;
        let mut sig = Signature::new(isa.default_call_conv());
        sig.params.push(AbiParam::new(types::I64));
        sig.returns.push(AbiParam::new(types::I32));
        let mut ctx = super::reuse::context();
        ctx.func.signature = sig;
        ctx.func.name = UserFuncName::user(0, 1);
        let mut fctx = super::reuse::builder();
        let (keep, spill_bytes) = {
            let mut b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
            let r = build(&plan, &mut b)?;
            b.finalize(isa.frontend_config());
            r
        };
        super::reuse::give_builder(fctx);
        let built = code::build(&mut ctx, &*isa as &dyn TargetIsa, &keep)?;
        super::reuse::give_context(ctx);
        // SAFETY: the code is the function `build` emitted, of signature
        // `(i64) -> i32`.
        let func: CsFn = unsafe { std::mem::transmute::<*const u8, CsFn>(built.mem.entry()) };
        Ok(JitComputeShader {
            func,
            scratch_bytes: plan.scratch_bytes(),
            spill_bytes,
            min_uniforms: plan.min_uniform_slots(),
            _code: built.mem,
            _keep: keep,
        })
    }

    /// Uniform slots the code reads without a bounds check.
    pub(crate) fn min_uniforms(&self) -> usize {
        self.min_uniforms
    }

    /// Registers of scratch (locals, helper operands, spill area) one batch
    /// needs.
    pub(crate) fn batch_regs(&self) -> usize {
        (self.scratch_bytes + self.spill_bytes).div_ceil(std::mem::size_of::<Reg>())
    }

    /// Runs one batch from `*resume` (0: the start) until it ends (`*resume`
    /// becomes 0) or reaches a workgroup barrier (`*resume` is the barrier).
    pub(crate) fn run_batch(&self, b: &mut BatchRun<'_, '_>) -> Result<()> {
        let regs = self.batch_regs().max(1);
        if b.scratch.len() < regs {
            b.scratch.resize(regs, Reg::default());
        }
        let scratch: *mut u8 = b.scratch.as_mut_ptr().cast();
        let res: *const Resources<'_> = b.res;
        let mut ctx = CsCtx {
            uniforms: b.uniforms.as_ptr(),
            uniform_count: b.uniforms.len() as u64,
            ubos: b.ubos.as_ptr(),
            ubo_count: b.ubo_count as u64,
            res: res.cast(),
            scratch,
            // SAFETY: the scratch holds `scratch_bytes + spill_bytes` bytes.
            spill: unsafe { scratch.add(self.scratch_bytes) },
            sys: b.sys,
            shared: b.shared.as_mut_ptr(),
            shared_len: b.shared.len() as u64,
            budget: b.budget.remaining,
            resume: *b.resume,
            live: b.live & ALL_LANES,
            zeros: [0; 4],
        };
        // SAFETY: every pointer in `ctx` is valid for the call: uniforms cover
        // `min_uniforms` slots (the caller pads them), the UBO table has at
        // least one entry, the scratch holds locals, helper registers and the
        // spill area, the shared words are the workgroup's.
        let r = unsafe { (self.func)(&mut ctx) };
        if r == BUDGET_EXCEEDED {
            b.budget.remaining = 0;
            return Err(Error::BudgetExceeded(b.budget.limit));
        }
        b.budget.remaining = ctx.budget;
        *b.resume = if r == SUSPENDED { ctx.resume.max(1) } else { 0 };
        Ok(())
    }
}

/// One call of [`JitComputeShader::run_batch`]: the batch's state and the
/// dispatch's resources.
pub(crate) struct BatchRun<'a, 'r> {
    /// Uniform slots (at least [`JitComputeShader::min_uniforms`]).
    pub uniforms: &'a [[u32; 4]],
    /// The UBO table (at least one entry) and its real length.
    pub ubos: &'a [UboRange],
    pub ubo_count: usize,
    pub res: &'a Resources<'r>,
    pub sys: &'a SysVals,
    pub live: u32,
    pub shared: &'a mut [u32],
    pub scratch: &'a mut Vec<Reg>,
    pub budget: &'a mut Budget,
    pub resume: &'a mut u32,
}

// ---------------------------------------------------------------- helpers

/// The helper registers a compute helper reads and writes (see
/// `emit::compute`: 0 block or offset, 1 offset, 2 execution mask, 3–6 data,
/// 5–8 results).
const HELPER_OPERANDS: usize = 9;

/// # Safety
/// `regs` points to [`HELPER_OPERANDS`] registers.
unsafe fn regs_of<'a>(regs: *mut Reg) -> &'a mut [Reg] {
    std::slice::from_raw_parts_mut(regs, HELPER_OPERANDS)
}

/// # Safety
/// `ctx` is the running batch's context.
unsafe fn storage<'a>(ctx: *const CsCtx, block: u32) -> StorageView<'a> {
    (*(*ctx).res).storage(block)
}

/// # Safety
/// `ctx` is the running batch's context.
unsafe fn shared<'a>(ctx: *const CsCtx) -> &'a mut [u32] {
    let c = &*ctx;
    if c.shared.is_null() || c.shared_len == 0 {
        return &mut [];
    }
    std::slice::from_raw_parts_mut(c.shared, c.shared_len as usize)
}

/// The lanes of the execution mask (register 2) as bits.
fn exec_bits(regs: &[Reg]) -> u32 {
    let mut m = 0;
    for (l, w) in regs[2].0.iter().enumerate() {
        m |= u32::from(*w != 0) << l;
    }
    m
}

/// The lane interpreter's shared-memory word check (`lanes::shared_word`).
fn shared_word(len: usize, off: u32, base: i32, comp: u8) -> Option<usize> {
    let byte = i64::from(off as i32) + i64::from(base) + 4 * i64::from(comp);
    if byte < 0 || byte % 4 != 0 {
        return None;
    }
    let w = usize::try_from(byte / 4).ok()?;
    (w < len).then_some(w)
}

/// The atomic op and swap form of a helper argument (`emit::compute::op_arg`).
fn atomic_of(arg: i64) -> (Option<AtomicOp>, bool) {
    (AtomicOp::from_code((arg & 0xff) as u32), arg & 0x100 != 0)
}

/// `load_ssbo` of `n` components: block in register 0, offset in 1, results
/// in 5...
///
/// # Safety
/// `ctx` is the running batch's context, `regs` its helper registers.
pub(crate) unsafe extern "C" fn jit_cs_load_ssbo(
    ctx: *const CsCtx,
    regs: *mut Reg,
    n: i64,
    _: i64,
) {
    let regs = regs_of(regs);
    let exec = exec_bits(regs);
    for c in 0..n.clamp(0, 4) as usize {
        let mut v = [0u32; LANES];
        for l in 0..LANES {
            if exec & (1 << l) != 0 {
                let byte = i64::from(regs[1].0[l] as i32) + 4 * c as i64;
                v[l] = storage(ctx, regs[0].0[l]).load(byte);
            }
        }
        regs[5 + c].0 = v;
    }
}

/// `store_ssbo` of the components in `wrmask` (values in registers 3..) by
/// the executing live lanes.
///
/// # Safety
/// As [`jit_cs_load_ssbo`].
pub(crate) unsafe extern "C" fn jit_cs_store_ssbo(
    ctx: *const CsCtx,
    regs: *mut Reg,
    wrmask: i64,
    _: i64,
) {
    let regs = regs_of(regs);
    let on = exec_bits(regs) & (*ctx).live;
    for c in 0..4usize {
        if wrmask & (1 << c) == 0 {
            continue;
        }
        for l in 0..LANES {
            if on & (1 << l) != 0 {
                let byte = i64::from(regs[1].0[l] as i32) + 4 * c as i64;
                storage(ctx, regs[0].0[l]).store(byte, regs[3 + c].0[l]);
            }
        }
    }
}

/// `ssbo_atomic(_swap)`: data in register 3, swap value in 4, result in 5.
///
/// # Safety
/// As [`jit_cs_load_ssbo`].
pub(crate) unsafe extern "C" fn jit_cs_ssbo_atomic(
    ctx: *const CsCtx,
    regs: *mut Reg,
    op: i64,
    _: i64,
) {
    let regs = regs_of(regs);
    let on = exec_bits(regs) & (*ctx).live;
    let (op, swap) = atomic_of(op);
    let mut v = [0u32; LANES];
    if let Some(op) = op {
        for l in 0..LANES {
            if on & (1 << l) != 0 {
                let y = swap.then_some(regs[4].0[l]);
                let off = i64::from(regs[1].0[l] as i32);
                v[l] = storage(ctx, regs[0].0[l]).atomic(op, off, regs[3].0[l], y);
            }
        }
    }
    regs[5].0 = v;
}

/// `get_ssbo_size` of the block in register 0, to register 3 (every lane).
///
/// # Safety
/// As [`jit_cs_load_ssbo`].
pub(crate) unsafe extern "C" fn jit_cs_ssbo_size(
    ctx: *const CsCtx,
    regs: *mut Reg,
    _: i64,
    _: i64,
) {
    let regs = regs_of(regs);
    let mut v = [0u32; LANES];
    for l in 0..LANES {
        let size = storage(ctx, regs[0].0[l]).size();
        v[l] = u32::try_from(size).unwrap_or(u32::MAX);
    }
    regs[3].0 = v;
}

/// `load_shared` of `n` components at `base` + register 0.
///
/// # Safety
/// As [`jit_cs_load_ssbo`].
pub(crate) unsafe extern "C" fn jit_cs_load_shared(
    ctx: *const CsCtx,
    regs: *mut Reg,
    n: i64,
    base: i64,
) {
    let regs = regs_of(regs);
    let sh = shared(ctx);
    let exec = exec_bits(regs);
    for c in 0..n.clamp(0, 4) as u8 {
        let mut v = [0u32; LANES];
        for l in 0..LANES {
            if exec & (1 << l) != 0 {
                if let Some(w) = shared_word(sh.len(), regs[0].0[l], base as i32, c) {
                    v[l] = sh[w];
                }
            }
        }
        regs[5 + usize::from(c)].0 = v;
    }
}

/// `store_shared` of the components in `wrmask` (registers 3..).
///
/// # Safety
/// As [`jit_cs_load_ssbo`].
pub(crate) unsafe extern "C" fn jit_cs_store_shared(
    ctx: *const CsCtx,
    regs: *mut Reg,
    wrmask: i64,
    base: i64,
) {
    let regs = regs_of(regs);
    let sh = shared(ctx);
    let exec = exec_bits(regs);
    for c in 0..4u8 {
        if wrmask & (1 << c) == 0 {
            continue;
        }
        for l in 0..LANES {
            if exec & (1 << l) != 0 {
                if let Some(w) = shared_word(sh.len(), regs[0].0[l], base as i32, c) {
                    sh[w] = regs[3 + usize::from(c)].0[l];
                }
            }
        }
    }
}

/// `shared_atomic(_swap)`: data in register 3, swap value in 4, result in 5
/// (lanes one after another: the workgroup runs on one thread).
///
/// # Safety
/// As [`jit_cs_load_ssbo`].
pub(crate) unsafe extern "C" fn jit_cs_shared_atomic(
    ctx: *const CsCtx,
    regs: *mut Reg,
    op: i64,
    base: i64,
) {
    let regs = regs_of(regs);
    let sh = shared(ctx);
    let exec = exec_bits(regs);
    let (op, swap) = atomic_of(op);
    let mut v = [0u32; LANES];
    if let Some(op) = op {
        for l in 0..LANES {
            if exec & (1 << l) != 0 {
                if let Some(w) = shared_word(sh.len(), regs[0].0[l], base as i32, 0) {
                    v[l] = sh[w];
                    let y = swap.then_some(regs[4].0[l]);
                    sh[w] = crate::storage::atomic_result(op, v[l], regs[3].0[l], y);
                }
            }
        }
    }
    regs[5].0 = v;
}
