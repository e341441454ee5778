//! Draw-time shader variants (Mesa's `st_fp_variant` / `st_common_variant`): the key
//! of GL state that changes code generation, built in one place
//! ([`VariantKey::from_state`]) from the fixed-function state and the program's
//! [`ProgramTraits`] (computed once per link); the per-context LRU cache of driver
//! shaders keyed by program and key; variant construction (clone the linked NIR,
//! finalize it for the key with rgl-nir's [`finalize_variant`] and the driver's
//! compiler options, compile it with the driver); and the hit/miss/build-time
//! counters.
//!
//! A program's variants are keyed by its name *and* link generation, so a relink can
//! never hit a stale variant; relinking or deleting a program also evicts its
//! variants eagerly and deletes their driver shaders.

use std::num::NonZeroUsize;
use std::sync::Arc;
use std::time::{Duration, Instant};

use lru::LruCache;
use rgl_backend::driver::{PrimMode, ShaderHandle, ShaderStage};
use rgl_link::LinkedProgram;
use rgl_nir::finalize::{finalize_variant, VariantLowering};
use rgl_nir::ir::names::{
    VARYING_SLOT_BFC0, VARYING_SLOT_BFC1, VARYING_SLOT_CLIP_DIST0, VARYING_SLOT_CLIP_DIST1,
    VARYING_SLOT_COL0, VARYING_SLOT_COL1,
};
use rgl_nir::ir::{Primitive, Shader as NirShader, Stage as NirStage, VarMode};
use rgl_nir::passes::lower_alpha_test::CompareFunc;
use rgl_nir::passes::Runner;
use rustc_hash::FxBuildHasher;

use crate::disk_cache::codec::VariantStage;
use crate::disk_cache::{CacheKey as DiskKey, DiskCache, DriverCodeStore};
use crate::error::{GlError, GlResult};
use crate::fixed_state::FixedState;
use crate::gl;
use crate::names::Program;
use crate::Context;

/// Variants kept per context before the least recently used one is dropped.
pub const VARIANT_CACHE_SIZE: usize = 256;

/// Hit/miss counters of the variant cache, readable through
/// [`Context::variant_stats`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct VariantStats {
    /// Draws whose variant was found in the cache.
    pub hits: u64,
    /// Draws that built a new variant.
    pub misses: u64,
    /// Total time spent building variants (finalisation + driver compile).
    pub build_time: Duration,
    /// Build time of the most recent miss.
    pub last_build_time: Duration,
    /// Variants dropped because their program was relinked or deleted.
    pub invalidated: u64,
    /// Variants dropped because the cache was full.
    pub evicted: u64,
    /// Misses answered by a driver-variant entry of the on-disk shader cache
    /// (no draw-time lowering, no driver compile for the stored stages).
    pub loaded: u64,
    /// Stages the driver compiled for a variant (`Driver::create_shader`).
    pub stages_compiled: u64,
    /// Stages the driver loaded from serialised code (`Driver::load_shader`).
    pub stages_loaded: u64,
}

/// What the variant key needs to know about a linked program's interface (Mesa keeps
/// the like in `gl_program::info`), computed once per link by [`ProgramTraits::of`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ProgramTraits {
    /// The fragment shader reads `gl_Color` / `gl_SecondaryColor`.
    pub reads_colors: bool,
    /// The last vertex stage writes `gl_ClipDistance`.
    pub writes_clip_distance: bool,
    /// The last vertex stage writes `gl_FrontColor` & co.
    pub writes_colors: bool,
    /// The geometry shader's input primitive.
    pub gs_input: Option<Primitive>,
    /// Some draw stage has a shader storage block or an atomic counter: draws
    /// bind the storage bindings and read the buffers back.
    pub uses_storage: bool,
}

/// Whether `nir` has a storage block variable or a storage buffer intrinsic
/// (atomic counters are lowered to the latter).
fn uses_storage(nir: &NirShader) -> bool {
    use rgl_nir::intrinsics::IntrinsicOp as I;
    use rgl_nir::ir::InstrKind;
    let ssbo_var = nir.variables.iter().any(|(_, v)| v.mode == VarMode::Ssbo);
    ssbo_var
        || nir
            .functions
            .iter()
            .filter_map(|(_, f)| f.body.as_ref())
            .flat_map(|body| body.instrs.iter())
            .any(|(_, i)| {
                matches!(&i.kind, InstrKind::Intrinsic(intr) if matches!(
                    intr.op,
                    I::load_ssbo
                        | I::store_ssbo
                        | I::ssbo_atomic
                        | I::ssbo_atomic_swap
                        | I::get_ssbo_size
                ))
            })
}

impl ProgramTraits {
    /// The traits of a program whose stages hold their final NIR.
    pub(crate) fn of(linked: &LinkedProgram) -> ProgramTraits {
        let mut traits = ProgramTraits::default();
        let last_vertex = linked
            .stages
            .iter()
            .rposition(|s| s.stage != rgl_glsl::Stage::Fragment);
        for (i, stage) in linked.stages.iter().enumerate() {
            let Some(nir) = &stage.nir else { continue };
            if nir.stage != NirStage::Compute && uses_storage(nir) {
                traits.uses_storage = true;
            }
            if let Some(gs) = &nir.info.gs {
                traits.gs_input = Some(gs.input_primitive);
            }
            let last = Some(i) == last_vertex;
            for &v in &nir.globals {
                let var = &nir.variables[v];
                match (nir.stage, var.mode, var.location) {
                    (
                        NirStage::Fragment,
                        VarMode::ShaderIn,
                        VARYING_SLOT_COL0 | VARYING_SLOT_COL1,
                    ) => traits.reads_colors = true,
                    (_, VarMode::ShaderOut, VARYING_SLOT_CLIP_DIST0 | VARYING_SLOT_CLIP_DIST1)
                        if last =>
                    {
                        traits.writes_clip_distance = true
                    }
                    (
                        _,
                        VarMode::ShaderOut,
                        VARYING_SLOT_COL0 | VARYING_SLOT_COL1 | VARYING_SLOT_BFC0
                        | VARYING_SLOT_BFC1,
                    ) if last => traits.writes_colors = true,
                    _ => {}
                }
            }
        }
        traits
    }

    /// Whether draw mode `mode` feeds the geometry shader (true without one).
    pub(crate) fn accepts(&self, mode: PrimMode) -> bool {
        use PrimMode as M;
        use Primitive as P;
        let Some(input) = self.gs_input else {
            return true;
        };
        match input {
            P::Points => mode == M::Points,
            P::Lines | P::LineStrip => matches!(mode, M::Lines | M::LineStrip | M::LineLoop),
            P::LinesAdjacency => matches!(mode, M::LinesAdjacency | M::LineStripAdjacency),
            P::Triangles | P::TriangleStrip => {
                matches!(mode, M::Triangles | M::TriangleStrip | M::TriangleFan)
            }
            P::TrianglesAdjacency => {
                matches!(mode, M::TrianglesAdjacency | M::TriangleStripAdjacency)
            }
        }
    }
}

/// The GL state a program's code depends on at draw time (Mesa's
/// `st_fp_variant_key` + `st_common_variant_key`, restricted to the state the driver
/// interface has no fixed-function field for, so every driver gets it lowered in the
/// shader). The all-default key is the program as linked.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct VariantKey {
    /// FS: `glShadeModel(GL_FLAT)` with a compatibility color input read
    /// (`nir_lower_flatshade`).
    pub flatshade: bool,
    /// FS: `GL_VERTEX_PROGRAM_TWO_SIDE` with color inputs read
    /// (`nir_lower_two_sided_color`).
    pub two_sided_color: bool,
    /// FS: the alpha-test function; `Always` when the test is off
    /// (`st_nir_lower_alpha_test`).
    pub alpha_func: CompareFunc,
    /// Last vertex stage: clamp `gl_FrontColor` & co to [0, 1]
    /// (`GL_CLAMP_VERTEX_COLOR`, on in compatibility contexts, which have no
    /// `glClampColor`).
    pub clamp_vertex_color: bool,
    /// Last vertex stage: enabled user clip planes to lower (`nir_lower_clip_vs`);
    /// 0 when the shader writes `gl_ClipDistance` itself.
    pub ucp: u8,
}

impl VariantKey {
    /// The key of the current fixed-function state for a program with `traits`:
    /// the one place a key is built.
    pub(crate) fn from_state(fixed: &FixedState, traits: &ProgramTraits) -> VariantKey {
        let alpha_func = if fixed.alpha_test {
            CompareFunc::from_gl(fixed.alpha_func.0).unwrap_or(CompareFunc::Always)
        } else {
            CompareFunc::Always
        };
        VariantKey {
            flatshade: traits.reads_colors && fixed.shade_model == gl::FLAT,
            two_sided_color: traits.reads_colors && fixed.two_side,
            alpha_func,
            clamp_vertex_color: traits.writes_colors,
            ucp: if traits.writes_clip_distance {
                0
            } else {
                fixed.clip_planes
            },
        }
    }

    /// Whether the key asks for any lowering.
    pub fn is_default(&self) -> bool {
        *self == VariantKey::default()
    }

    /// The lowering options of the key for one stage. `last_vertex` says whether the
    /// stage is the last before rasterization; `state_base` is the first vec4
    /// uniform slot of the state-tracker uniforms.
    fn lowering(&self, stage: NirStage, last_vertex: bool, state_base: u32) -> VariantLowering {
        let mut l = VariantLowering {
            alpha_ref_slot: state_base + STATE_SLOT_ALPHA_REF,
            clip_plane_slot: state_base + STATE_SLOT_CLIP_PLANE0,
            ..VariantLowering::default()
        };
        if stage == NirStage::Fragment {
            l.flatshade = self.flatshade;
            l.two_sided_color = self.two_sided_color;
            l.alpha_func = self.alpha_func;
        } else if last_vertex {
            l.clamp_color = self.clamp_vertex_color;
            l.ucp_enables = self.ucp;
        }
        l
    }
}

/// Slots of the state-tracker uniforms appended after a program's own uniform
/// storage: the alpha reference, then the 8 user clip planes.
pub(crate) const STATE_SLOT_ALPHA_REF: u32 = 0;
/// First clip-plane slot (relative to the program's `uniform_slots`).
pub(crate) const STATE_SLOT_CLIP_PLANE0: u32 = 1;
/// Number of state-tracker slots appended.
pub(crate) const STATE_SLOTS: u32 = 1 + crate::limits::MAX_CLIP_DISTANCES;

/// A compiled variant: the driver shaders and how the vertex shader's inputs map
/// to GL attributes.
#[derive(Debug)]
pub(crate) struct Variant {
    /// Vertex shader.
    pub vs: ShaderHandle,
    /// Geometry shader.
    pub gs: Option<ShaderHandle>,
    /// Fragment shader.
    pub fs: ShaderHandle,
    /// `VERT_ATTRIB_*` location feeding each vertex element (the VS input with
    /// that `driver_location`), `None` for holes.
    pub vs_inputs: Vec<Option<i32>>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
struct CacheKey {
    program: u32,
    generation: u64,
    key: VariantKey,
}

/// The per-context variant cache.
pub(crate) struct VariantCache {
    lru: LruCache<CacheKey, Arc<Variant>, FxBuildHasher>,
}

impl Default for VariantCache {
    fn default() -> Self {
        let cap = NonZeroUsize::new(VARIANT_CACHE_SIZE).unwrap_or(NonZeroUsize::MIN);
        VariantCache {
            lru: LruCache::with_hasher(cap, FxBuildHasher),
        }
    }
}

impl std::fmt::Debug for VariantCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "VariantCache({} variants)", self.lru.len())
    }
}

fn driver_stage(stage: NirStage) -> Option<ShaderStage> {
    ShaderStage::try_from(stage).ok()
}

/// The vertex elements a finalized VS reads: element `d` ← attribute location.
fn vs_inputs(nir: &NirShader) -> Vec<Option<i32>> {
    let mut map: Vec<Option<i32>> = Vec::new();
    for &v in &nir.globals {
        let var = &nir.variables[v];
        if var.mode != VarMode::ShaderIn || var.location < 0 {
            continue;
        }
        let slots = var.ty.type_size_vec4(&nir.structs).unwrap_or(1).max(1);
        for s in 0..slots {
            let d = (var.driver_location + s) as usize;
            if d >= rgl_backend::driver::MAX_VERTEX_ELEMENTS {
                continue;
            }
            if map.len() <= d {
                map.resize(d + 1, None);
            }
            map[d] = Some(var.location + s as i32);
        }
    }
    map
}

impl Context {
    /// The variant cache counters.
    pub fn variant_stats(&self) -> VariantStats {
        self.variant_stats
    }

    /// Drops every cached variant of `program` (relink or delete) and deletes their
    /// driver shaders.
    pub(crate) fn variants_invalidate(&mut self, program: Program) {
        let stale: Vec<CacheKey> = self
            .variants
            .lru
            .iter()
            .filter(|(k, _)| k.program == program.name())
            .map(|(k, _)| *k)
            .collect();
        for k in stale {
            if let Some(v) = self.variants.lru.pop(&k) {
                self.variant_stats.invalidated += 1;
                self.delete_variant(&v);
            }
        }
        self.compute_invalidate(program);
        log::debug!("variants of program {} invalidated", program.name());
    }

    fn delete_variant(&mut self, v: &Variant) {
        for h in [Some(v.vs), v.gs, Some(v.fs)].into_iter().flatten() {
            if let Err(e) = self.driver.delete_shader(h) {
                log::warn!("driver failed to delete a variant shader: {e}");
            }
        }
    }

    /// The variant of `program` (link `generation`) for `key`: a cache hit, or a new
    /// variant built and inserted.
    pub(crate) fn get_variant(
        &mut self,
        program: Program,
        generation: u64,
        key: VariantKey,
    ) -> GlResult<Arc<Variant>> {
        let ck = CacheKey {
            program: program.name(),
            generation,
            key,
        };
        if let Some(v) = self.variants.lru.get(&ck) {
            self.variant_stats.hits += 1;
            return Ok(v.clone());
        }
        let start = Instant::now();
        let v = Arc::new(self.build_variant(program, &key)?);
        let took = start.elapsed();
        self.variant_stats.misses += 1;
        self.variant_stats.build_time += took;
        self.variant_stats.last_build_time = took;
        log::debug!(
            "program {}: new variant {key:?} built in {:.3} ms ({} hits, {} misses)",
            program.name(),
            took.as_secs_f64() * 1e3,
            self.variant_stats.hits,
            self.variant_stats.misses
        );
        if let Some((old_key, old)) = self.variants.lru.push(ck, v.clone()) {
            if old_key != ck {
                self.variant_stats.evicted += 1;
                self.delete_variant(&old);
            }
        }
        Ok(v)
    }

    /// The on-disk cache and the driver-variant key of `program`'s variant for
    /// `key`, when the context has a cache, the program a key, and the driver
    /// serialises its shaders.
    pub(crate) fn variant_entry(
        &self,
        program: Program,
        key: &VariantKey,
    ) -> Option<(Arc<DiskCache>, DiskKey)> {
        let cache = self.disk_cache.as_ref()?;
        let program_key = self.program_obj(program).ok()?.cache_key?;
        let driver = self.driver.shader_cache_identity()?;
        Some((
            Arc::clone(cache),
            cache.variant_key(&program_key, key, &driver),
        ))
    }

    /// Gives the driver shader of `stage` of the variant stored under `vkey`
    /// the on-disk cache as its store for lazily built code.
    fn attach_code_store(
        &mut self,
        h: ShaderHandle,
        cache: &Arc<DiskCache>,
        vkey: &DiskKey,
        stage: ShaderStage,
    ) {
        let mut id = vkey.0.to_vec();
        id.extend_from_slice(format!("{stage:?}").as_bytes());
        let store = Arc::new(DriverCodeStore(Arc::clone(cache)));
        if let Err(e) = self.driver.set_shader_code_store(h, store, id) {
            log::warn!("driver refused a code store: {e}");
        }
    }

    /// The variant of `program` for `key`: loaded from its driver-variant
    /// entry when the on-disk cache has a usable one, else built (and stored).
    fn build_variant(&mut self, program: Program, key: &VariantKey) -> GlResult<Variant> {
        let entry = self.variant_entry(program, key);
        if let Some((cache, vkey)) = &entry {
            if let Some(stages) = cache.load_variant(vkey) {
                match self.load_variant(program, &stages, cache, vkey) {
                    Ok(v) => {
                        cache.variant_loaded();
                        self.variant_stats.loaded += 1;
                        log::debug!("shader cache: variant hit {}", vkey.hex());
                        return Ok(v);
                    }
                    Err(why) => {
                        cache.reject_variant::<()>(vkey, &why);
                    }
                }
            }
        }
        let mut stored = entry.as_ref().map(|_| Vec::new());
        let v = self.compile_variant(program, key, stored.as_mut())?;
        if let Some((cache, vkey)) = &entry {
            let handles = [
                (ShaderStage::Vertex, Some(v.vs)),
                (ShaderStage::Geometry, v.gs),
                (ShaderStage::Fragment, Some(v.fs)),
            ];
            for (stage, h) in handles {
                if let Some(h) = h {
                    self.attach_code_store(h, cache, vkey, stage);
                }
            }
        }
        if let (Some((cache, vkey)), Some(stages)) = (entry, stored) {
            // Stages the driver cannot serialise are compiled at load; a variant
            // with none is not worth an entry.
            if stages.iter().any(|s| s.code.is_some()) {
                cache.store_variant(&vkey, &stages);
            }
        }
        Ok(v)
    }

    /// A variant from the `stages` of its driver-variant entry: each stage's
    /// NIR (the entry's finalized text, or the linked NIR the key left
    /// unchanged) loaded by the driver from its serialised code, or compiled
    /// when the entry has none. Any stage that does not load gives the reason;
    /// the shaders created so far are deleted.
    fn load_variant(
        &mut self,
        program: Program,
        stages: &[VariantStage],
        cache: &Arc<DiskCache>,
        vkey: &DiskKey,
    ) -> Result<Variant, String> {
        let p = self.program_obj(program).map_err(|e| format!("{e:?}"))?;
        let linked = p
            .linked
            .as_deref()
            .ok_or_else(|| "the program has no executable".to_string())?;
        if stages.len() != linked.stages.len() {
            return Err(format!(
                "{} stages stored for a program of {}",
                stages.len(),
                linked.stages.len()
            ));
        }
        let mut nirs = Vec::with_capacity(stages.len());
        for (i, (ls, st)) in linked.stages.iter().zip(stages).enumerate() {
            let Some(linked_nir) = &ls.nir else {
                return Err(format!("stage {i} has no final NIR"));
            };
            let nir = match &st.nir {
                None => linked_nir.clone(),
                Some(text) => {
                    let nir = rgl_nir::reader::parse_shader(text)
                        .map_err(|e| format!("stage {i}: {e}"))?;
                    rgl_nir::validate::validate(&nir).map_err(|e| format!("stage {i}: {e}"))?;
                    if nir.stage != linked_nir.stage {
                        return Err(format!(
                            "stage {i}: {:?} NIR for a {:?} stage",
                            nir.stage, linked_nir.stage
                        ));
                    }
                    nir
                }
            };
            nirs.push(nir);
        }
        let mut vs = None;
        let mut gs = None;
        let mut fs = None;
        let mut inputs = Vec::new();
        let mut created: Vec<ShaderHandle> = Vec::new();
        let (mut loaded, mut compiled) = (0, 0);
        for (nir, st) in nirs.iter().zip(stages) {
            let made = match (driver_stage(nir.stage), &st.code) {
                (None, _) => Err(format!("the {:?} stage is not supported", nir.stage)),
                (Some(_), Some(code)) => self
                    .driver
                    .load_shader(nir, code)
                    .map_err(|e| format!("the driver refused a stage: {e}")),
                (Some(_), None) => self.driver.create_shader(nir).map_err(|e| e.to_string()),
            };
            let h = match made {
                Ok(h) => {
                    if st.code.is_some() {
                        loaded += 1;
                    } else {
                        compiled += 1;
                    }
                    h
                }
                Err(e) => {
                    for &h in &created {
                        let _ = self.driver.delete_shader(h);
                    }
                    return Err(e);
                }
            };
            created.push(h);
            if let Some(stage) = driver_stage(nir.stage) {
                self.attach_code_store(h, cache, vkey, stage);
            }
            match driver_stage(nir.stage) {
                Some(ShaderStage::Vertex) => {
                    inputs = vs_inputs(nir);
                    vs = Some(h);
                }
                Some(ShaderStage::Geometry) => gs = Some(h),
                _ => fs = Some(h),
            }
        }
        let (Some(vs), Some(fs)) = (vs, fs) else {
            for &h in &created {
                let _ = self.driver.delete_shader(h);
            }
            return Err("no vertex or fragment stage".into());
        };
        self.variant_stats.stages_loaded += loaded;
        self.variant_stats.stages_compiled += compiled;
        Ok(Variant {
            vs,
            gs,
            fs,
            vs_inputs: inputs,
        })
    }

    /// Builds the variant: the draw-time lowering of each stage and the
    /// driver's compile. With `stored`, records each stage as a
    /// driver-variant entry holds it.
    fn compile_variant(
        &mut self,
        program: Program,
        key: &VariantKey,
        mut stored: Option<&mut Vec<VariantStage>>,
    ) -> GlResult<Variant> {
        let p = self.program_obj(program)?;
        let linked = p.linked.as_deref().ok_or(GlError::InvalidOperation)?;
        let state_base = linked.uniform_slots;
        let mut stages: Vec<NirShader> = Vec::new();
        for stage in &linked.stages {
            let Some(nir) = &stage.nir else {
                self.draw_error = Some(format!(
                    "program {} has no final NIR for its {:?} stage",
                    program.name(),
                    stage.stage
                ));
                return Err(GlError::InvalidOperation);
            };
            stages.push(nir.clone());
        }
        let last_vertex = stages
            .iter()
            .rposition(|s| s.stage != NirStage::Fragment)
            .unwrap_or(0);
        let mut vs = None;
        let mut gs = None;
        let mut fs = None;
        let mut inputs = Vec::new();
        let mut created = Vec::new();
        for (i, mut nir) in stages.into_iter().enumerate() {
            let lowering = key.lowering(nir.stage, i == last_vertex, state_base);
            if !lowering.is_noop() {
                let compiler = *self.compiler_options.get(nir.stage);
                finalize_variant(&mut nir, &lowering, &compiler, &mut Runner::new()).map_err(
                    |e| {
                        let msg = format!("draw-time lowering failed: {e}");
                        self.fail_variant(program, &created, msg)
                    },
                )?;
            }
            if rgl_glsl::debug::flags().dump {
                println!(
                    "\nNIR for program {} variant {key:?} ({:?}):\n{}",
                    program.name(),
                    nir.stage,
                    rgl_nir::print::print_shader(&nir)
                );
            }
            let Some(stage) = driver_stage(nir.stage) else {
                let msg = format!("the {:?} stage is not supported by the driver", nir.stage);
                return Err(self.fail_variant(program, &created, msg));
            };
            let h = match self.driver.create_shader(&nir) {
                Ok(h) => h,
                Err(e) => return Err(self.fail_variant(program, &created, e.to_string())),
            };
            created.push(h);
            self.variant_stats.stages_compiled += 1;
            if let Some(list) = stored.as_deref_mut() {
                list.push(VariantStage {
                    nir: (!lowering.is_noop()).then(|| rgl_nir::print::print_shader(&nir)),
                    code: self.driver.serialize_shader(h),
                });
            }
            match stage {
                ShaderStage::Vertex => {
                    inputs = vs_inputs(&nir);
                    vs = Some(h);
                }
                ShaderStage::Geometry => gs = Some(h),
                ShaderStage::Fragment => fs = Some(h),
            }
        }
        let (Some(vs), Some(fs)) = (vs, fs) else {
            let msg = "a draw needs a vertex and a fragment shader (fixed-function stages are \
                       not supported)"
                .to_string();
            return Err(self.fail_variant(program, &created, msg));
        };
        Ok(Variant {
            vs,
            gs,
            fs,
            vs_inputs: inputs,
        })
    }

    /// Records why a variant could not be built, deletes the shaders created so far,
    /// and returns the GL error the draw records.
    fn fail_variant(&mut self, program: Program, created: &[ShaderHandle], msg: String) -> GlError {
        log::warn!("program {}: cannot build a variant: {msg}", program.name());
        for &h in created {
            let _ = self.driver.delete_shader(h);
        }
        self.draw_error = Some(msg);
        GlError::InvalidOperation
    }
}
