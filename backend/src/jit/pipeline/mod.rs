//! Fused per-pixel pipelines: one compiled function per (fragment shader ×
//! the driver state it depends on) that does everything for a list of 4×4 blocks
//! of a triangle — coverage, interpolation, the shader, discard, depth/stencil,
//! blending and the store — as llvmpipe's fragment shader variants do
//! (`lp_state_fs.c`).
//!
//! * [`key`]: the state in the variant key ([`PipelineKey`]) and its derivation;
//! * [`abi`]: the `#[repr(C)]` data the rasterizer hands the function;
//! * `build`: the function (job loop, coverage, the body's environment), with
//!   `zs` (depth/stencil) and `color` (blend and store) and their `vecops`.
//!
//! Each JIT-compiled fragment shader owns a [`PipelineCache`]: a bounded LRU of
//! built variants, looked up once per draw. A miss builds the variant (a full
//! Cranelift compile of body and pipeline) and counts it; a key the fused path
//! does not specialize, or a build that fails, sends the draw down the Rust
//! per-pixel path with the shader's [`crate::exec::ShaderExec`] (one
//! `log::info!` line per failing key), never a wrong result.
//!
//! With a [`CodeStore`] ([`PipelineCache::set_store`], the state tracker's
//! on-disk cache), a miss first looks for the variant's serialised code under
//! the shader's store id and the key: a usable blob is loaded (the body emitted
//! again for its descriptors, the stored code mapped) instead of compiled, one
//! the loader refuses is rejected; a compiled variant is stored.
//!
//! Tiered ([`crate::jit::tier`]), a miss compiles the variant unoptimised
//! (tier 0), uses it for the draw, and queues its optimised build. The build
//! is published in the tier-0 variant itself ([`FusedPipeline::optimised`], a
//! `OnceLock`), so a draw already running the tier-0 code switches to it at
//! its next call of the compiled function (`soft::fused` reads it per call,
//! as `JitShader` reads its optimised invocation function per batch); the
//! first lookup after the build is ready also swaps it into the slot
//! ([`Lookup::TieredUp`]). A draw holds the `Arc` of the variant it looked up,
//! and that variant holds its optimised build, so both stay mapped until the
//! draw is done. The two builds are the same IR compiled with different
//! Cranelift settings (no pass reorders or contracts float operations), so
//! the switch changes no byte. Only optimised code
//! is stored: the background build writes the code store, a tier-0 build
//! never does, so a variant loaded from the store is final.
//!
//! Tiered with [`crate::jit::JitOptions::defer_pipelines`], a miss compiles
//! nothing in the draw: the slot is marked deferred, the optimised build is
//! queued at once, and the draw (and every draw until the build is ready) takes
//! the Rust per-pixel path with the shader's own tier-0 function
//! ([`Lookup::Deferred`]); the first lookup after the build swaps it in
//! ([`Lookup::TieredUp`]). The Rust path and the fused function do the same
//! float operations in the same order (`build`'s module doc), so the swap
//! changes no byte. This is radeonsi's split between the shader parts it has
//! at once and the monolithic variant it compiles on a thread
//! (`si_shader_select_with_key`), with the Rust path as the parts.

pub mod abi;
mod build;
mod color;
pub mod key;
mod vecops;
mod zs;

use std::any::Any;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError, Weak};
use std::time::Instant;

use cranelift_codegen::ir::{types, AbiParam, Signature, UserFuncName};
use cranelift_codegen::isa::{OwnedTargetIsa, TargetIsa};
use cranelift_codegen::Context;
use cranelift_frontend::FunctionBuilder;

pub use abi::PipelineFn;
pub use key::{derive, DrawState, PipelineKey};

use super::emit::BodyPlan;
use crate::exec::{CodeStore, Interp, ShaderInfo};
use crate::jit::code;
use crate::jit::tier::TierQueue;
use crate::soft::setup::AttrMode;
use crate::Result;

/// Most variants one shader keeps; the least recently used one is dropped
/// beyond that (llvmpipe bounds its variants the same way).
pub const MAX_VARIANTS: usize = 32;

/// The interpolation of each input component of `info` (as the draw sets it up).
pub fn attr_modes(info: &ShaderInfo) -> Vec<AttrMode> {
    let mut modes = Vec::with_capacity(info.inputs.len() * 4);
    for inp in &info.inputs {
        let mode = match inp.interp {
            Interp::Flat => AttrMode::Flat,
            Interp::NoPerspective => AttrMode::Linear,
            Interp::Smooth | Interp::None => AttrMode::Perspective,
        };
        modes.extend([mode; 4]);
    }
    modes
}

/// A built variant: its code and what the caller must provide.
pub struct FusedPipeline {
    func: PipelineFn,
    scratch_bytes: usize,
    min_uniforms: usize,
    code_size: usize,
    /// A tier-0 variant's link to its optimised build; `None` for final code.
    tier_up: Option<Arc<TierLink>>,
    /// Owns the code ([`crate::jit::code`]); unmapped on drop.
    _code: crate::jit::code::CodeMemory,
    _keep: Vec<Box<dyn Any + Send + Sync>>,
}

/// What a tier-0 (or deferred) variant shares with the background build that
/// replaces it and with its cache.
struct TierLink {
    /// The optimised build, set once by the tier-up worker.
    ready: OnceLock<Arc<FusedPipeline>>,
    /// The cache's switch settings and counters.
    switches: Arc<Switches>,
}

/// A cache's mid-draw switch setting and counter (shared with its tier-0
/// variants, which draws hold after the cache may be gone).
#[derive(Default)]
struct Switches {
    /// [`PipelineCache::set_switch_after`].
    after: AtomicU64,
    /// Draws that switched from a tier-0 variant to its optimised build.
    count: AtomicU64,
}

impl std::fmt::Debug for FusedPipeline {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FusedPipeline")
            .field("code_size", &self.code_size)
            .finish()
    }
}

impl FusedPipeline {
    /// The entry point.
    pub fn func(&self) -> PipelineFn {
        self.func
    }
    /// Scratch bytes the thread state must point at.
    pub fn scratch_bytes(&self) -> usize {
        self.scratch_bytes
    }
    /// Uniform slots the code reads without a bounds check.
    pub fn min_uniform_slots(&self) -> usize {
        self.min_uniforms
    }
    /// Bytes of machine code.
    pub fn code_size(&self) -> usize {
        self.code_size
    }
    /// A tier-0 variant's optimised build, once the tier-up worker has it.
    pub fn optimised(&self) -> Option<&Arc<FusedPipeline>> {
        self.tier_up.as_ref()?.ready.get()
    }
    /// Calls of this tier-0 variant a draw makes after its optimised build is
    /// ready before it switches ([`PipelineCache::set_switch_after`]).
    pub fn switch_after(&self) -> u64 {
        self.tier_up
            .as_ref()
            .map_or(0, |l| l.switches.after.load(Ordering::Relaxed))
    }
    /// Counts a draw that switched from this tier-0 variant to its optimised
    /// build ([`PipelineStats::mid_draw_switches`]).
    pub fn count_switch(&self) {
        if let Some(l) = &self.tier_up {
            l.switches.count.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// Counters of one cache (cumulative).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PipelineStats {
    /// Lookups that found a built variant.
    pub hits: u64,
    /// Variants built (misses).
    pub builds: u64,
    /// Keys whose build failed (the draw used the Rust path).
    pub failures: u64,
    /// Variants dropped to stay within [`MAX_VARIANTS`].
    pub evictions: u64,
    /// Nanoseconds spent building (and loading).
    pub build_ns: u64,
    /// Variants loaded from the code store instead of built (misses too).
    pub loads: u64,
    /// Lookups that swapped a tier-0 variant for its optimised build.
    pub tier_ups: u64,
    /// Draws that started on a tier-0 variant and switched to its optimised
    /// build when it was ready (counted by the draw, `soft::fused`).
    pub mid_draw_switches: u64,
}

/// What a lookup did.
pub enum Lookup {
    /// A cached variant.
    Hit(Arc<FusedPipeline>),
    /// A cached tier-0 variant whose optimised build this lookup swapped in
    /// (the variant returned); a hit too.
    TieredUp(Arc<FusedPipeline>),
    /// A variant built (or loaded from the code store) now.
    Built {
        /// The variant.
        pipeline: Arc<FusedPipeline>,
        /// Build time in nanoseconds.
        ns: u64,
        /// Whether the least recently used variant was dropped to make room.
        evicted: bool,
        /// Whether it was loaded from the code store instead of compiled.
        loaded: bool,
    },
    /// No variant for this key yet: its optimised build is queued (deferred
    /// tier 0); the draw takes the Rust per-pixel path. `miss`: this lookup
    /// created the slot and queued the build (a miss; later lookups while the
    /// build runs are hits of the deferred slot).
    Deferred {
        /// Whether this lookup was the miss that queued the build.
        miss: bool,
    },
    /// No variant for this key: why (already logged once).
    Failed(String),
}

struct Slot {
    key: PipelineKey,
    /// The clock value when the slot was made: with the key, which slot a
    /// background build belongs to (a slot evicted and made again is another).
    born: u64,
    last_use: u64,
    /// The variant; `Ok(None)` while a deferred build runs.
    value: std::result::Result<Option<Arc<FusedPipeline>>, String>,
    /// Where the tier-up worker publishes the optimised build of a tier-0 (or
    /// deferred) `value`, for the next lookup to swap in; `None` once swapped
    /// (or for final code).
    upgrade: Option<Arc<TierLink>>,
}

struct Inner {
    slots: Vec<Slot>,
    clock: u64,
    stats: PipelineStats,
}

fn lock(inner: &Mutex<Inner>) -> MutexGuard<'_, Inner> {
    inner.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What building a variant of one shader needs (shared with its background
/// rebuilds).
struct Source {
    nir: rgl_nir::ir::Shader,
    info: ShaderInfo,
    modes: Vec<AttrMode>,
}

/// The variants of one fragment shader.
pub struct PipelineCache {
    src: Arc<Source>,
    /// The configured code's ISA.
    isa: OwnedTargetIsa,
    /// The tier-0 ISA when compiles are tiered.
    tier0: Option<OwnedTargetIsa>,
    /// Tiered: a miss builds nothing in the draw (see the module doc).
    defer: bool,
    /// Where tier-0 variants' optimised builds are queued.
    queue: Arc<TierQueue>,
    /// Shared (weakly) with the background builds.
    inner: Arc<Mutex<Inner>>,
    /// Shared with this cache's tier-0 variants.
    switches: Arc<Switches>,
    /// Where built variants are stored and looked up, and this shader's id there.
    store: OnceLock<(Arc<dyn CodeStore>, Vec<u8>)>,
}

impl std::fmt::Debug for PipelineCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PipelineCache").finish_non_exhaustive()
    }
}

impl PipelineCache {
    /// A cache building variants of `nir` (interface `info`) for `isa`; with
    /// `tier0`, a miss builds for that ISA (or, with `defer`, builds nothing)
    /// and queues the `isa` build on `queue`.
    pub(crate) fn new(
        nir: &rgl_nir::ir::Shader,
        info: &ShaderInfo,
        isa: OwnedTargetIsa,
        tier0: Option<OwnedTargetIsa>,
        defer: bool,
        queue: Arc<TierQueue>,
    ) -> Self {
        PipelineCache {
            src: Arc::new(Source {
                nir: nir.clone(),
                info: info.clone(),
                modes: attr_modes(info),
            }),
            isa,
            defer: defer && tier0.is_some(),
            tier0,
            queue,
            inner: Arc::new(Mutex::new(Inner {
                slots: Vec::new(),
                clock: 0,
                stats: PipelineStats::default(),
            })),
            switches: Arc::new(Switches::default()),
            store: OnceLock::new(),
        }
    }

    /// Stores built variants in `store` under `id` (unique to this shader's
    /// NIR and compiler) followed by the key, and looks misses up there first.
    /// Only the first store set is used.
    pub fn set_store(&self, store: Arc<dyn CodeStore>, id: Vec<u8>) {
        let _ = self.store.set((store, id));
    }

    /// The counters so far.
    pub fn stats(&self) -> PipelineStats {
        let mut stats = lock(&self.inner).stats;
        stats.mid_draw_switches = self.switches.count.load(Ordering::Relaxed);
        stats
    }

    /// Test hook for the mid-draw switch: with `calls` > 0, a draw running a
    /// tier-0 variant makes `calls` calls of it after its optimised build is
    /// ready before switching, and lookups keep handing out the tier-0
    /// variant instead of swapping the build in, so a test can place the
    /// switch inside a draw. 0 (the default): switch at once.
    pub fn set_switch_after(&self, calls: u64) {
        self.switches.after.store(calls, Ordering::Relaxed);
    }

    /// The variant for `key`, built on a miss.
    pub fn lookup(&self, key: &PipelineKey) -> Lookup {
        let mut inner = lock(&self.inner);
        inner.clock += 1;
        let now = inner.clock;
        let hold = self.switches.after.load(Ordering::Relaxed) > 0;
        if let Some(slot) = inner.slots.iter_mut().find(|s| s.key == *key) {
            slot.last_use = now;
            let ready = match &slot.upgrade {
                Some(link) if !hold => link.ready.get().cloned(),
                _ => None,
            };
            let upgraded = ready.inspect(|f| {
                slot.value = Ok(Some(f.clone()));
                slot.upgrade = None;
            });
            let value = slot.value.clone();
            return match (value, upgraded) {
                (Ok(_), Some(f)) => {
                    inner.stats.hits += 1;
                    inner.stats.tier_ups += 1;
                    log::debug!("jit: fused pipeline variant tiered up: {key:?}");
                    Lookup::TieredUp(f)
                }
                (Ok(Some(f)), None) => {
                    inner.stats.hits += 1;
                    Lookup::Hit(f)
                }
                (Ok(None), None) => {
                    inner.stats.hits += 1;
                    Lookup::Deferred { miss: false }
                }
                (Err(e), _) => Lookup::Failed(e),
            };
        }
        let start = Instant::now();
        let built = self.obtain(key);
        let ns = start.elapsed().as_nanos().min(u128::from(u64::MAX)) as u64;
        inner.stats.build_ns += ns;
        let mut loaded = false;
        let mut link = None;
        let value = match built {
            Ok(None) => {
                // Deferred: the build is queued below; nothing compiled here.
                inner.stats.builds += 1;
                link = Some(self.link());
                log::debug!("jit: fused pipeline variant deferred to the tier-up worker: {key:?}");
                Ok(None)
            }
            Ok(Some((mut f, was_loaded, was_tier0))) => {
                if was_tier0 {
                    let l = self.link();
                    f.tier_up = Some(Arc::clone(&l));
                    link = Some(l);
                }
                loaded = was_loaded;
                if loaded {
                    inner.stats.loads += 1;
                } else {
                    inner.stats.builds += 1;
                }
                log::debug!(
                    "jit: fused pipeline variant {} in {:.2} ms ({} bytes): {key:?}",
                    if loaded { "loaded" } else { "built" },
                    ns as f64 / 1e6,
                    f.code_size
                );
                Ok(Some(Arc::new(f)))
            }
            Err(e) => {
                inner.stats.failures += 1;
                let e = e.to_string();
                log::info!("jit: per-pixel pipeline stays in Rust for {key:?}: {e}");
                Err(e)
            }
        };
        let evicted = Self::make_room(&mut inner);
        inner.slots.push(Slot {
            key: *key,
            born: now,
            last_use: now,
            value: value.clone(),
            upgrade: link.clone(),
        });
        drop(inner);
        if let (Ok(_), Some(link)) = (&value, link) {
            self.queue_tier_up(key, now, &link);
        }
        match value {
            Ok(None) => Lookup::Deferred { miss: true },
            Ok(Some(pipeline)) => Lookup::Built {
                pipeline,
                ns,
                evicted,
                loaded,
            },
            Err(e) => Lookup::Failed(e),
        }
    }

    /// A new link for a tier-0 or deferred variant.
    fn link(&self) -> Arc<TierLink> {
        Arc::new(TierLink {
            ready: OnceLock::new(),
            switches: Arc::clone(&self.switches),
        })
    }

    /// Drops the least recently used variant when the cache is full; whether
    /// one was dropped.
    fn make_room(inner: &mut Inner) -> bool {
        if inner.slots.len() < MAX_VARIANTS {
            return false;
        }
        let Some(lru) = inner
            .slots
            .iter()
            .enumerate()
            .min_by_key(|(_, s)| s.last_use)
            .map(|(i, _)| i)
        else {
            return false;
        };
        inner.slots.swap_remove(lru);
        inner.stats.evictions += 1;
        true
    }

    /// The store and the key of `key`'s variant there, if the cache has a store.
    fn store_key(&self, key: &PipelineKey) -> Option<(Arc<dyn CodeStore>, Vec<u8>)> {
        let (store, id) = self.store.get()?;
        let mut skey = id.clone();
        skey.extend_from_slice(format!("{key:?}").as_bytes());
        Some((Arc::clone(store), skey))
    }

    /// The variant for `key`: loaded from the store when it holds a usable
    /// blob (`true`), else compiled — tier 0 when tiered (`true`), else
    /// optimised and stored; `None` when tiered with deferral (nothing to
    /// compile now).
    fn obtain(&self, key: &PipelineKey) -> Result<Option<(FusedPipeline, bool, bool)>> {
        let stored = self.store_key(key);
        if let Some((store, skey)) = &stored {
            if let Some(bytes) = store.get(skey) {
                match self.src.load(&*self.isa, key, &bytes) {
                    Ok(p) => return Ok(Some((p, true, false))),
                    Err(e) => store.reject(skey, &e.to_string()),
                }
            }
        }
        if self.defer {
            return Ok(None);
        }
        if let Some(isa) = &self.tier0 {
            return Ok(Some((self.src.compile(&**isa, key)?.0, false, true)));
        }
        let (p, blob) = self.src.compile(&*self.isa, key)?;
        if let (Some((store, skey)), Some(blob)) = (stored, blob) {
            store.put(&skey, &blob);
        }
        Ok(Some((p, false, false)))
    }

    /// Queues the optimised build of `key`'s tier-0 (or deferred) variant, in
    /// the slot made at clock `born`: stored in the code store when
    /// serialisable (even if the variant is gone by then), and published in
    /// `link` (for the draws running the tier-0 variant and the slot's next
    /// lookup) if anything still holds it. A deferred slot whose build fails
    /// takes the error (its draws then take the Rust path as any failed key's
    /// do).
    fn queue_tier_up(&self, key: &PipelineKey, born: u64, link: &Arc<TierLink>) {
        let link: Weak<TierLink> = Arc::downgrade(link);
        let inner = Arc::downgrade(&self.inner);
        let src = Arc::clone(&self.src);
        let isa = self.isa.clone();
        let stored = self.store_key(key);
        let key = *key;
        let mine = move |s: &Slot| s.key == key && s.born == born;
        self.queue.submit_urgent(Box::new(move || {
            // A variant nothing holds any more (evicted and not drawing, or
            // its shader deleted) is still built for the code store, which a
            // later start loads.
            if link.strong_count() == 0 && stored.is_none() {
                return Ok(false);
            }
            let (p, blob) = match src.compile(&*isa, &key) {
                Ok(b) => b,
                Err(e) => {
                    if let Some(inner) = inner.upgrade() {
                        let mut inner = lock(&inner);
                        if let Some(slot) = inner.slots.iter_mut().find(|s| mine(s)) {
                            if matches!(slot.value, Ok(None)) {
                                log::info!(
                                    "jit: per-pixel pipeline stays in Rust for {key:?}: {e}"
                                );
                                slot.value = Err(e.to_string());
                                inner.stats.failures += 1;
                            }
                        }
                    }
                    return Err(e);
                }
            };
            // Stored even when the cache is gone by now (see above).
            if let (Some((store, skey)), Some(blob)) = (stored, blob) {
                store.put(&skey, &blob);
            }
            match link.upgrade() {
                Some(link) => Ok(link.ready.set(Arc::new(p)).is_ok()),
                None => Ok(false),
            }
        }));
    }
}

impl Source {
    /// The pipeline function's IR for `key` and the descriptors it refers to.
    fn emit(
        &self,
        isa: &dyn TargetIsa,
        plan: &BodyPlan<'_>,
        key: &PipelineKey,
    ) -> Result<(Context, Vec<Box<dyn Any + Send + Sync>>)> {
        let mut sig = Signature::new(isa.default_call_conv());
        for _ in 0..6 {
            sig.params.push(AbiParam::new(types::I64));
        }
        sig.returns.push(AbiParam::new(types::I32));
        let mut ctx = super::reuse::context();
        ctx.func.signature = sig;
        ctx.func.name = UserFuncName::user(0, 0);
        let mut fctx = super::reuse::builder();
        let keep = {
            let mut b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
            let keep = build::build(plan, key, &self.modes, &mut b)?;
            b.finalize(isa.frontend_config());
            keep
        };
        super::reuse::give_builder(fctx);
        Ok((ctx, keep))
    }

    fn pipeline(
        plan: &BodyPlan<'_>,
        mem: code::CodeMemory,
        code_size: usize,
        keep: Vec<Box<dyn Any + Send + Sync>>,
    ) -> FusedPipeline {
        // SAFETY: the mapped code is the function `build::build` emitted, with the
        // signature of `PipelineFn` (six pointer-sized arguments, an i32 result).
        let func: PipelineFn = unsafe { std::mem::transmute::<*const u8, PipelineFn>(mem.entry()) };
        FusedPipeline {
            func,
            scratch_bytes: plan.scratch_bytes(),
            min_uniforms: plan.min_uniform_slots(),
            code_size,
            tier_up: None,
            _code: mem,
            _keep: keep,
        }
    }

    /// Compiles the variant for `key`; with its serialised form when all of its
    /// addresses are symbolic.
    fn compile(
        &self,
        isa: &dyn TargetIsa,
        key: &PipelineKey,
    ) -> Result<(FusedPipeline, Option<Vec<u8>>)> {
        let plan = BodyPlan::new(&self.nir, &self.info, 4)?;
        let (mut ctx, keep) = self.emit(isa, &plan, key)?;
        ctx.set_disasm(std::env::var_os("RGL_JIT_DISASM").is_some());
        let built = code::build(&mut ctx, isa, &keep)?;
        if let Some(path) = std::env::var_os("RGL_JIT_DISASM") {
            if let Some(d) = ctx.compiled_code().and_then(|c| c.vcode.clone()) {
                let _ = std::fs::write(path, format!("{}\n{d}", ctx.func.display()));
            }
        }
        super::reuse::give_context(ctx);
        let blob = built.image.map(|(image, digests)| {
            code::FunctionBlob {
                kind: code::BLOB_PIPELINE,
                quads: 4,
                scratch_bytes: plan.scratch_bytes() as u64,
                min_uniforms: plan.min_uniform_slots() as u64,
                digests,
                image,
            }
            .encode()
        });
        Ok((
            Self::pipeline(&plan, built.mem, built.code_size, keep),
            blob,
        ))
    }

    /// The variant for `key` from a blob `Source::compile` serialised
    /// for the same shader and key; a malformed or mismatched blob is an error.
    fn load(&self, isa: &dyn TargetIsa, key: &PipelineKey, bytes: &[u8]) -> Result<FusedPipeline> {
        let blob = code::FunctionBlob::decode(bytes)?;
        let plan = BodyPlan::new(&self.nir, &self.info, 4)?;
        if blob.kind != code::BLOB_PIPELINE
            || blob.quads != 4
            || blob.scratch_bytes != plan.scratch_bytes() as u64
            || blob.min_uniforms != plan.min_uniform_slots() as u64
        {
            return Err(crate::Error::InvalidArgument(
                "JIT blob: not this shader's pipeline".into(),
            ));
        }
        let (ctx, keep) = self.emit(isa, &plan, key)?;
        super::reuse::give_context(ctx);
        let mem = code::load(&blob.image, &blob.digests, &keep)?;
        Ok(Self::pipeline(&plan, mem, blob.image.code.len(), keep))
    }
}
