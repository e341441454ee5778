//! The Cranelift JIT: finalized NIR → native SIMD code behind the same
//! [`ShaderExec`] seam as the lane interpreter ([`crate::lanes`]).
//!
//! * [`emit`]: the body emitter (NIR function → Cranelift IR through an [`emit::Env`]),
//!   reusable by callers that wrap it differently (a fused pixel pipeline).
//! * [`invocation`]: milestone 1's wrapper: one function per shader running a
//!   16-lane [`crate::exec::Invocation`] as a loop over quads.
//! * [`helpers`]: the Rust functions generated code calls (texture sampling,
//!   transcendentals, ALU ops without a vector lowering).
//! * [`pipeline`]: milestone 2's fused per-pixel pipelines (coverage,
//!   interpolation, the shader, depth/stencil, blending and the store in one
//!   function per fragment shader and driver state), cached per shader.
//!
//! * [`compute`]: compute shaders (GL 4.3 §19), one function per shader running a
//!   16-lane batch of a workgroup that suspends at `barrier()` and resumes
//!   after it ([`crate::compute`] selects it with `ComputeEngine::Jit`).
//!
//! [`JitCompiler::compile`] compiles vertex and fragment shaders; geometry shaders,
//! and any shader using a construct the emitter does not compile, get the lane
//! interpreter's [`LaneShader`] with one `log::info!` line naming the construct.
//! Each compiled shader owns its code ([`code::CodeMemory`]: pages it maps,
//! relocates and makes executable), unmapped when the shader is dropped; a
//! shader whose code is all symbolic serialises ([`ShaderExec::serialize`]) and
//! loads back without a Cranelift compile ([`JitCompiler::load_native`]). The JIT runs on x86-64 hosts with SSE4.1 (what `cranelift-native`
//! detects decides the instructions used, AVX encodings included);
//! [`JitCompiler::new`] fails elsewhere and the software driver keeps the
//! interpreter.
//!
//! With [`JitOptions::tier`] (the default) compiles are tiered ([`tier`]): the
//! first draw's code is compiled unoptimised with `single_pass` registers and
//! used at once, and the configured build replaces it when a background worker
//! has it ready.

pub mod code;
pub(crate) mod compute;
pub mod emit;
pub(crate) mod helpers;
pub(crate) mod invocation;
mod perfmap;
pub mod pipeline;
mod reuse;
pub mod tier;

use std::any::Any;
use std::sync::{Arc, OnceLock};

use cranelift_codegen::ir::{types, AbiParam, Signature, UserFuncName};
use cranelift_codegen::isa::{OwnedTargetIsa, TargetIsa};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_codegen::Context;
use cranelift_frontend::FunctionBuilder;

use crate::driver::ShaderStage;
use crate::exec::{Invocation, ShaderCompiler, ShaderExec, ShaderInfo};
use crate::lanes::LaneShader;
use crate::{Error, Result};

use invocation::{JitFn, RunInfo};

/// Cranelift's optimization level for shader code.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum OptLevel {
    /// No optimization passes (fastest compile).
    None,
    /// Cranelift's `speed` (e-graph optimizations, alias analysis).
    Speed,
}

/// Cranelift's register allocator.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Regalloc {
    /// `backtracking` (better code).
    Backtracking,
    /// `single_pass` (faster compile).
    SinglePass,
}

/// How the JIT compiles.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct JitOptions {
    /// 2×2 quads per loop iteration of a 16-lane batch (1, 2 or 4): the count
    /// of every invocation function without `adaptive_quads`, the most with it.
    pub quads: usize,
    /// Invocation functions use fewer quads where more do not pay
    /// ([`invocation::quads_for`]); fused pipelines always run whole 4×4 blocks.
    pub adaptive_quads: bool,
    /// Optimization level.
    pub opt_level: OptLevel,
    /// Register allocator.
    pub regalloc: Regalloc,
    /// Fragment shaders also build fused per-pixel pipelines ([`pipeline`]);
    /// without, only the shader is compiled and the rasterizer's Rust code does
    /// the rest (milestone 1).
    pub fused_pipeline: bool,
    /// Tiered compilation ([`tier`]): code is first compiled with
    /// [`OptLevel::None`] and [`Regalloc::SinglePass`] and used at once, and
    /// rebuilt with `opt_level` and `regalloc` on a background thread, which
    /// replaces it when ready. Off: every compile uses `opt_level` and
    /// `regalloc` directly. (Nothing to tier when those are the tier-0 ones.)
    pub tier: bool,
    /// Tiered: a fused pipeline variant has no tier-0 build. Its first draws
    /// take the Rust per-pixel path with the shader's own tier-0 function
    /// while the optimised variant compiles on the background thread
    /// ([`pipeline`]'s module doc), so a first draw compiles no pipeline.
    /// Off: a miss compiles the tier-0 variant in the draw.
    pub defer_pipelines: bool,
}

impl Default for JitOptions {
    fn default() -> Self {
        JitOptions {
            quads: 4,
            adaptive_quads: true,
            opt_level: OptLevel::Speed,
            regalloc: Regalloc::Backtracking,
            fused_pipeline: true,
            tier: true,
            defer_pipelines: false,
        }
    }
}

impl JitOptions {
    /// The defaults with the changes `RGL_JIT` lists (`quads=N` for a fixed count
    /// or `quads=adaptive`, `opt=none|speed`,
    /// `regalloc=backtracking|single_pass`, `pipeline=fused|shader`,
    /// `tier=on|off`, `defer=on|off`, comma-separated; `perfmap` writes `/tmp/perf-PID.map`, see
    /// `perfmap`); unknown entries are reported with
    /// `log::warn!` and ignored.
    pub fn from_env() -> JitOptions {
        let mut o = JitOptions::default();
        let Ok(text) = std::env::var("RGL_JIT") else {
            return o;
        };
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            match item.split_once('=') {
                Some(("quads", "adaptive")) => o.adaptive_quads = true,
                Some(("quads", n @ ("1" | "2" | "4"))) => {
                    o.quads = n.parse().unwrap_or(4);
                    o.adaptive_quads = false;
                }
                Some(("opt", "none")) => o.opt_level = OptLevel::None,
                Some(("opt", "speed")) => o.opt_level = OptLevel::Speed,
                Some(("regalloc", "backtracking")) => o.regalloc = Regalloc::Backtracking,
                Some(("regalloc", "single_pass")) => o.regalloc = Regalloc::SinglePass,
                Some(("pipeline", "fused")) => o.fused_pipeline = true,
                Some(("pipeline", "shader")) => o.fused_pipeline = false,
                Some(("tier", "on")) => o.tier = true,
                Some(("tier", "off")) => o.tier = false,
                Some(("defer", "on")) => o.defer_pipelines = true,
                Some(("defer", "off")) => o.defer_pipelines = false,
                // Read by `perfmap::enabled`; not a compile option.
                None if item == "perfmap" => {}
                _ => log::warn!("RGL_JIT: ignoring `{item}` (quads=1|2|4|adaptive, opt=none|speed, regalloc=backtracking|single_pass, pipeline=fused|shader, tier=on|off, defer=on|off, perfmap)"),
            }
        }
        o
    }

    /// The options of tier-0 code: these without optimization, with
    /// `single_pass` registers and without tiers.
    pub fn tier0(&self) -> JitOptions {
        JitOptions {
            opt_level: OptLevel::None,
            regalloc: Regalloc::SinglePass,
            tier: false,
            ..*self
        }
    }

    /// Whether compiles are tiered: [`JitOptions::tier`] on and the configured
    /// code not already the tier-0 kind.
    pub fn tiered(&self) -> bool {
        self.tier && (self.opt_level, self.regalloc) != (OptLevel::None, Regalloc::SinglePass)
    }
}

/// Whether the host can run the JIT (x86-64 with SSE4.1, supported by
/// `cranelift-native`).
pub fn host_supported() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("sse4.1") && cranelift_native::builder().is_ok()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

fn make_isa(opts: &JitOptions) -> Result<OwnedTargetIsa> {
    if !host_supported() {
        return Err(Error::Unsupported(
            "the JIT needs an x86-64 host with SSE4.1".into(),
        ));
    }
    let mut flags = settings::builder();
    let set = |f: &mut settings::Builder, k: &str, v: &str| {
        f.set(k, v)
            .map_err(|e| Error::Exec(format!("cranelift setting {k}={v}: {e}")))
    };
    set(&mut flags, "is_pic", "false")?;
    set(&mut flags, "use_colocated_libcalls", "false")?;
    set(
        &mut flags,
        "opt_level",
        match opts.opt_level {
            OptLevel::None => "none",
            OptLevel::Speed => "speed",
        },
    )?;
    set(
        &mut flags,
        "regalloc_algorithm",
        match opts.regalloc {
            Regalloc::Backtracking => "backtracking",
            Regalloc::SinglePass => "single_pass",
        },
    )?;
    // Frames larger than a page touch every page on the way down, so a huge
    // shader's spill area hits the thread's guard page instead of skipping it.
    set(&mut flags, "enable_probestack", "true")?;
    set(&mut flags, "probestack_strategy", "inline")?;
    set(
        &mut flags,
        "enable_verifier",
        if cfg!(debug_assertions) {
            "true"
        } else {
            "false"
        },
    )?;
    let isa = cranelift_native::builder()
        .map_err(|e| Error::Unsupported(format!("cranelift: {e}")))?
        .finish(settings::Flags::new(flags))
        .map_err(|e| Error::Unsupported(format!("cranelift: {e}")))?;
    Ok(isa)
}

/// The ISA for `opts`' optimization level and register allocator (the only
/// options it depends on), built once per process for each pair: building one
/// costs a feature probe.
fn shared_isa(opts: &JitOptions) -> Result<OwnedTargetIsa> {
    static ISAS: [OnceLock<std::result::Result<OwnedTargetIsa, Error>>; 4] =
        [const { OnceLock::new() }; 4];
    let i = match (opts.opt_level, opts.regalloc) {
        (OptLevel::Speed, Regalloc::Backtracking) => 0,
        (OptLevel::Speed, Regalloc::SinglePass) => 1,
        (OptLevel::None, Regalloc::Backtracking) => 2,
        (OptLevel::None, Regalloc::SinglePass) => 3,
    };
    ISAS[i].get_or_init(|| make_isa(opts)).clone()
}

/// The NIR → native code compiler (falls back to [`crate::lanes::LaneCompiler`]'s
/// shaders for what it does not compile).
pub struct JitCompiler {
    /// The configured code's ISA (tier 1 when tiered).
    isa: OwnedTargetIsa,
    /// The tier-0 ISA when compiles are tiered ([`JitOptions::tiered`]).
    tier0: Option<OwnedTargetIsa>,
    opts: JitOptions,
    /// Background rebuilds of tier-0 code.
    queue: Arc<tier::TierQueue>,
}

impl std::fmt::Debug for JitCompiler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JitCompiler")
            .field("opts", &self.opts)
            .finish()
    }
}

impl JitCompiler {
    /// A compiler with the default options as `RGL_JIT` changes them
    /// ([`JitOptions::from_env`]), or an error when the host is not supported.
    pub fn new() -> Result<JitCompiler> {
        Self::with_options(JitOptions::from_env())
    }

    /// A compiler with `opts`.
    pub fn with_options(opts: JitOptions) -> Result<JitCompiler> {
        if !matches!(opts.quads, 1 | 2 | 4) {
            return Err(Error::InvalidArgument(format!(
                "{} quads per iteration (1, 2 or 4)",
                opts.quads
            )));
        }
        let isa = shared_isa(&opts)?;
        let tier0 = if opts.tiered() {
            Some(shared_isa(&opts.tier0())?)
        } else {
            None
        };
        Ok(JitCompiler {
            isa,
            tier0,
            opts,
            queue: Arc::new(tier::TierQueue::default()),
        })
    }

    /// Blocks until every background rebuild queued so far has run: the next
    /// draw of each rebuilt shader or pipeline then uses the optimised code.
    /// (Tests and benchmarks use it to make the tier-up deterministic.)
    pub fn wait_tier_ups(&self) {
        self.queue.wait_idle();
    }

    /// The background rebuild counters.
    pub fn tier_stats(&self) -> tier::TierStats {
        self.queue.stats()
    }

    /// The options.
    pub fn options(&self) -> JitOptions {
        self.opts
    }

    /// What this compiler's serialised shaders depend on besides the NIR: the
    /// blob format, the target triple, Cranelift's shared and ISA flags (the
    /// host features `cranelift-native` detected) and the options. A cache
    /// keyed by it never hands one machine's code to another.
    pub fn cache_identity(&self) -> Vec<u8> {
        let mut id = format!(
            "rgl jit v{}\n{}\n{}\n{:?}\n",
            code::FORMAT_VERSION,
            self.isa.triple(),
            self.isa.flags(),
            self.opts
        );
        for v in self.isa.isa_flags() {
            id.push_str(&format!("{v}\n"));
        }
        id.into_bytes()
    }

    /// Compiles `nir` (interface `info`) to native code; errors name what the JIT
    /// does not compile. Tiered, the code is tier 0 and its optimised rebuild
    /// is queued.
    pub fn compile_native(
        &self,
        nir: &rgl_nir::ir::Shader,
        info: &ShaderInfo,
    ) -> Result<JitShader> {
        if info.stage == ShaderStage::Geometry {
            return Err(Error::Unsupported("geometry shaders".into()));
        }
        let quads = invocation::quads_for(nir, info, &self.opts);
        let plan = emit::BodyPlan::new(nir, info, quads)?;
        let (isa, kind) = self.first_tier();
        let body = if self.defers(info) {
            // Its draws take fused pipelines, which do not call the
            // invocation function: emit the function's IR (so that what the
            // emitter does not compile is reported here, as before) but leave
            // its code generation to the first use.
            let (ctx, _keep) = emit_invocation(&**isa, &plan)?;
            reuse::give_context(ctx);
            None
        } else {
            Some(compile_body(&**isa, &plan, kind)?)
        };
        let shader = self.shader(nir, info, &plan, body, quads);
        if self.tier0.is_some() {
            self.queue_tier_up(nir, info, quads, &shader.optimised);
        }
        Ok(shader)
    }

    /// The ISA and blob kind of a shader's first build: tier 0 when tiered.
    fn first_tier(&self) -> (&OwnedTargetIsa, u8) {
        match &self.tier0 {
            Some(isa) => (isa, code::BLOB_SHADER_TIER0),
            None => (&self.isa, code::BLOB_SHADER),
        }
    }

    /// Whether a shader of interface `info` builds its invocation function on
    /// first use instead of at compile: a fragment shader with fused
    /// pipelines (whose draws run the pipeline, not the function) that are
    /// not deferred themselves (a deferred variant's first draws run the
    /// function at once).
    fn defers(&self, info: &ShaderInfo) -> bool {
        info.stage == ShaderStage::Fragment
            && self.opts.fused_pipeline
            && !self.opts.defer_pipelines
    }

    /// Queues the optimised build of a tier-0 shader's invocation function,
    /// published in `slot` (if the shader still exists when it is ready).
    fn queue_tier_up(
        &self,
        nir: &rgl_nir::ir::Shader,
        info: &ShaderInfo,
        quads: usize,
        slot: &Arc<OnceLock<Body>>,
    ) {
        let target = Arc::downgrade(slot);
        let nir = nir.clone();
        let info = info.clone();
        let isa = self.isa.clone();
        self.queue.submit(Box::new(move || {
            if target.strong_count() == 0 {
                return Ok(false);
            }
            let plan = emit::BodyPlan::new(&nir, &info, quads)?;
            let body = compile_body(&*isa, &plan, code::BLOB_SHADER)?;
            match target.upgrade() {
                Some(slot) => Ok(slot.set(body).is_ok()),
                None => Ok(false),
            }
        }));
    }

    fn shader(
        &self,
        nir: &rgl_nir::ir::Shader,
        info: &ShaderInfo,
        plan: &emit::BodyPlan<'_>,
        body: Option<Body>,
        quads: usize,
    ) -> JitShader {
        let pipelines =
            (info.stage == ShaderStage::Fragment && self.opts.fused_pipeline).then(|| {
                pipeline::PipelineCache::new(
                    nir,
                    info,
                    self.isa.clone(),
                    self.tier0.clone(),
                    self.opts.defer_pipelines,
                    Arc::clone(&self.queue),
                )
            });
        let (isa, kind) = self.first_tier();
        let tier0 = body
            .as_ref()
            .map_or(kind == code::BLOB_SHADER_TIER0, |b| b.tier0);
        let (first, deferred) = match body {
            Some(body) => (OnceLock::from(First::Jit(body)), None),
            None => (
                OnceLock::new(),
                Some(Deferred {
                    nir: nir.clone(),
                    quads,
                    isa: isa.clone(),
                    kind,
                }),
            ),
        };
        JitShader {
            pipelines,
            info: info.clone(),
            scratch_bytes: plan.scratch_bytes(),
            min_uniforms: plan.min_uniform_slots(),
            tier0,
            first,
            deferred,
            optimised: Arc::new(OnceLock::new()),
            _queue: Arc::clone(&self.queue),
        }
    }

    /// A shader from a blob [`ShaderExec::serialize`] wrote for `nir` (the same
    /// finalized NIR) with a compiler of the same [`JitCompiler::cache_identity`]:
    /// the body is emitted again for its descriptors (which must match the
    /// stored ones) but not compiled; the stored code is mapped. Any mismatch or
    /// malformed blob is an error.
    pub fn load_native(&self, nir: &rgl_nir::ir::Shader, bytes: &[u8]) -> Result<JitShader> {
        let blob = code::FunctionBlob::decode(bytes)?;
        if !matches!(
            blob.kind,
            code::BLOB_SHADER | code::BLOB_SHADER_TIER0 | code::BLOB_SHADER_DEFERRED
        ) {
            return Err(Error::InvalidArgument(format!(
                "JIT blob of kind {}, not a shader",
                blob.kind
            )));
        }
        let lane = LaneShader::new(nir)?;
        let info = lane.info();
        if info.stage == ShaderStage::Geometry {
            return Err(Error::Unsupported("geometry shaders".into()));
        }
        let quads = invocation::quads_for(nir, info, &self.opts);
        if usize::from(blob.quads) != quads {
            return Err(Error::InvalidArgument(format!(
                "JIT blob for {} quads, this shader compiles for {quads}",
                blob.quads
            )));
        }
        let plan = emit::BodyPlan::new(nir, info, quads)?;
        if plan.scratch_bytes() as u64 != blob.scratch_bytes
            || plan.min_uniform_slots() as u64 != blob.min_uniforms
        {
            return Err(Error::InvalidArgument(
                "JIT blob: scratch or uniform sizes differ from the shader's".into(),
            ));
        }
        let (ctx, keep) = emit_invocation(&*self.isa, &plan)?;
        reuse::give_context(ctx);
        let deferred = blob.kind == code::BLOB_SHADER_DEFERRED;
        if deferred
            && (!self.defers(info) || !blob.digests.is_empty() || !blob.image.code.is_empty())
        {
            return Err(Error::InvalidArgument(
                "JIT blob of a deferred invocation function this compiler does not defer, \
                 or with code"
                    .into(),
            ));
        }
        let body = if deferred {
            None
        } else {
            let mem = code::load(&blob.image, &blob.digests, &keep)?;
            let size = blob.image.code.len();
            let tier0 = blob.kind == code::BLOB_SHADER_TIER0;
            Some(Body::new(mem, size, keep, Some(blob), tier0))
        };
        let rebuild = body.as_ref().map_or(self.tier0.is_some(), |b| b.tier0);
        let shader = self.shader(nir, info, &plan, body, quads);
        // A tier-0 blob is never the final code, nor is a deferred one when
        // compiles are tiered: rebuild it as a compile would (unless the
        // configured code is the tier-0 kind itself).
        if rebuild
            && (self.opts.opt_level, self.opts.regalloc) != (OptLevel::None, Regalloc::SinglePass)
        {
            self.queue_tier_up(nir, info, quads, &shader.optimised);
        }
        Ok(shader)
    }
}

impl ShaderCompiler for JitCompiler {
    fn compile(&self, nir: &rgl_nir::ir::Shader) -> Result<Arc<dyn ShaderExec>> {
        let lane = LaneShader::new(nir)?;
        if lane.info().stage == ShaderStage::Geometry {
            return Ok(Arc::new(lane));
        }
        match self.compile_native(nir, lane.info()) {
            Ok(s) => Ok(Arc::new(s)),
            Err(e) => {
                log::info!(
                    "jit: {:?} shader runs on the interpreter: {e}",
                    lane.info().stage
                );
                Ok(Arc::new(lane))
            }
        }
    }

    fn cache_identity(&self) -> Option<Vec<u8>> {
        Some(self.cache_identity())
    }

    fn wait_background(&self) {
        self.wait_tier_ups();
    }

    fn load(&self, nir: &rgl_nir::ir::Shader, bytes: &[u8]) -> Result<Arc<dyn ShaderExec>> {
        Ok(Arc::new(self.load_native(nir, bytes)?))
    }
}

/// The invocation function's IR for `plan` and the descriptors it refers to.
fn emit_invocation(
    isa: &dyn TargetIsa,
    plan: &emit::BodyPlan<'_>,
) -> Result<(Context, Vec<Box<dyn Any + Send + Sync>>)> {
    let mut sig = Signature::new(isa.default_call_conv());
    sig.params.push(AbiParam::new(types::I64));
    sig.returns.push(AbiParam::new(types::I32));
    let mut ctx = reuse::context();
    ctx.func.signature = sig;
    ctx.func.name = UserFuncName::user(0, 0);
    let mut fctx = reuse::builder();
    let keep = {
        let mut b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
        let keep = invocation::build(plan, &mut b)?;
        b.finalize(isa.frontend_config());
        keep
    };
    reuse::give_builder(fctx);
    Ok((ctx, keep))
}

/// Compiles `plan`'s invocation function for `isa`; its blob (when
/// serialisable) is of `kind`.
fn compile_body(isa: &dyn TargetIsa, plan: &emit::BodyPlan<'_>, kind: u8) -> Result<Body> {
    let (mut ctx, keep) = emit_invocation(isa, plan)?;
    let built = code::build(&mut ctx, isa, &keep)?;
    reuse::give_context(ctx);
    let blob = built.image.map(|(image, digests)| code::FunctionBlob {
        kind,
        quads: plan.quads() as u8,
        scratch_bytes: plan.scratch_bytes() as u64,
        min_uniforms: plan.min_uniform_slots() as u64,
        digests,
        image,
    });
    Ok(Body::new(
        built.mem,
        built.code_size,
        keep,
        blob,
        kind == code::BLOB_SHADER_TIER0,
    ))
}

/// One build of a shader's invocation function.
struct Body {
    func: JitFn,
    code_size: usize,
    /// Owns the code; unmapped on drop.
    _code: code::CodeMemory,
    /// The descriptors the code points at.
    _keep: Vec<Box<dyn Any + Send + Sync>>,
    /// The serialised form, when all of the code's addresses are symbolic.
    blob: Option<Vec<u8>>,
    /// Compiled by tier 0.
    tier0: bool,
}

impl Body {
    fn new(
        mem: code::CodeMemory,
        code_size: usize,
        keep: Vec<Box<dyn Any + Send + Sync>>,
        blob: Option<code::FunctionBlob>,
        tier0: bool,
    ) -> Body {
        // SAFETY: `mem` holds the function `invocation::build` emitted, with the
        // signature `(i64) -> i32` of `JitFn`.
        let func: JitFn = unsafe { std::mem::transmute::<*const u8, JitFn>(mem.entry()) };
        Body {
            func,
            code_size,
            _code: mem,
            _keep: keep,
            blob: blob.map(|b| b.encode()),
            tier0,
        }
    }
}

/// A shader's first build of its invocation function, or what replaces it
/// when a deferred build fails.
enum First {
    /// The compiled function.
    Jit(Body),
    /// The deferred build failed: the lane interpreter runs the shader, as it
    /// does when a compile fails ([`JitCompiler::compile`]).
    Lane(LaneShader),
    /// The deferred build and the interpreter both failed: reported by every
    /// run.
    Failed(Error),
}

/// What a deferred first build compiles from.
struct Deferred {
    nir: rgl_nir::ir::Shader,
    quads: usize,
    isa: OwnedTargetIsa,
    /// [`code::BLOB_SHADER`] or [`code::BLOB_SHADER_TIER0`].
    kind: u8,
}

/// A shader compiled to native code.
pub struct JitShader {
    info: ShaderInfo,
    scratch_bytes: usize,
    min_uniforms: usize,
    /// The first build is tier 0.
    tier0: bool,
    /// The first build (tier 0 when tiered): compiled with the shader, or,
    /// when `deferred` is set, on first use (the first batch a non-fused draw
    /// runs, [`JitShader::code_size`]). A fused draw never builds it.
    first: OnceLock<First>,
    /// What the first build compiles from while it is deferred.
    deferred: Option<Deferred>,
    /// The optimised rebuild of a tier-0 first build, set once by the tier-up
    /// worker and used from the next batch on. The first build stays mapped
    /// until the shader drops: a batch that read its address may still be
    /// running it.
    optimised: Arc<OnceLock<Body>>,
    /// Keeps the queue (and its worker) alive while a rebuild may target this
    /// shader or its pipelines.
    _queue: Arc<tier::TierQueue>,
    /// Fused pipeline variants (fragment shaders).
    pipelines: Option<pipeline::PipelineCache>,
}

impl JitShader {
    /// The first build, built now if it was deferred.
    fn first(&self) -> &First {
        self.first.get_or_init(|| {
            let Some(d) = &self.deferred else {
                return First::Failed(Error::Exec("JIT shader without code".into()));
            };
            let built = emit::BodyPlan::new(&d.nir, &self.info, d.quads)
                .and_then(|plan| compile_body(&*d.isa, &plan, d.kind));
            match built {
                Ok(body) => First::Jit(body),
                Err(e) => {
                    log::info!(
                        "jit: {:?} shader runs on the interpreter: {e}",
                        self.info.stage
                    );
                    match LaneShader::new(&d.nir) {
                        Ok(lane) => First::Lane(lane),
                        Err(e) => First::Failed(e),
                    }
                }
            }
        })
    }

    /// The code batches run now: the optimised rebuild once it is ready,
    /// else the first build (built now if deferred); `None` when the
    /// deferred build failed.
    fn current(&self) -> Option<&Body> {
        match self.optimised.get() {
            Some(b) => Some(b),
            None => match self.first() {
                First::Jit(b) => Some(b),
                First::Lane(_) | First::Failed(_) => None,
            },
        }
    }

    /// Whether the invocation function runs optimised code (the first build
    /// untiered, or its tier-up done).
    pub fn is_optimised(&self) -> bool {
        !self.tier0 || self.optimised.get().is_some()
    }

    /// Whether the first build of the invocation function exists: always
    /// for a shader whose draws do not take fused pipelines, and for a
    /// fragment shader with fused pipelines once something ran the function
    /// (a draw on the Rust per-pixel path, a fallback) or asked its code size.
    /// The tier-up worker's optimised rebuild is not counted.
    pub fn invocation_built(&self) -> bool {
        self.first.get().is_some()
    }
}

impl std::fmt::Debug for JitShader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let built = match (self.optimised.get(), self.first.get()) {
            (Some(b), _) | (None, Some(First::Jit(b))) => Some(b.code_size),
            _ => None,
        };
        f.debug_struct("JitShader")
            .field("stage", &self.info.stage)
            .field("code_size", &built)
            .finish()
    }
}

impl JitShader {
    /// Bytes of machine code (of the build batches run now; built now if
    /// deferred; 0 when the interpreter runs the shader).
    pub fn code_size(&self) -> usize {
        self.current().map_or(0, |b| b.code_size)
    }
}

impl ShaderExec for JitShader {
    fn info(&self) -> &ShaderInfo {
        &self.info
    }

    fn run(&self, inv: &mut Invocation<'_>) -> Result<()> {
        let body = match self.optimised.get() {
            Some(b) => b,
            None => match self.first() {
                First::Jit(b) => b,
                First::Lane(lane) => return lane.run(inv),
                First::Failed(e) => return Err(e.clone()),
            },
        };
        let run = RunInfo {
            info: &self.info,
            scratch_bytes: self.scratch_bytes,
            min_uniforms: self.min_uniforms,
        };
        // SAFETY: `func` was built by `invocation::build` for this interface.
        unsafe { invocation::run(body.func, &run, inv) }
    }

    fn pipelines(&self) -> Option<&pipeline::PipelineCache> {
        self.pipelines.as_ref()
    }

    /// The built code's blob; a deferred first build not built yet is not
    /// built for this: its blob has no code ([`code::BLOB_SHADER_DEFERRED`])
    /// and a shader loaded from it defers the build too.
    fn serialize(&self) -> Option<Vec<u8>> {
        if let Some(b) = self.optimised.get() {
            return b.blob.clone();
        }
        match (self.first.get(), &self.deferred) {
            (Some(First::Jit(b)), _) => b.blob.clone(),
            (Some(_), _) | (None, None) => None,
            (None, Some(d)) => Some(
                code::FunctionBlob {
                    kind: code::BLOB_SHADER_DEFERRED,
                    quads: d.quads as u8,
                    scratch_bytes: self.scratch_bytes as u64,
                    min_uniforms: self.min_uniforms as u64,
                    digests: Vec::new(),
                    image: code::CodeImage {
                        code: Vec::new(),
                        relocs: Vec::new(),
                    },
                }
                .encode(),
            ),
        }
    }

    fn set_code_store(&self, store: Arc<dyn crate::exec::CodeStore>, id: Vec<u8>) {
        if let Some(p) = &self.pipelines {
            p.set_store(store, id);
        }
    }
}
