//! The shader execution interface: how vertex, geometry and fragment shaders run over
//! SIMD-width lanes, and a Rust-closure implementation for tests and benchmarks.
//!
//! Data layout is SoA: one [`Reg`] (an array of [`LANES`] 32-bit words) per IO component.
//! Input `i` component `c` is `inputs[i * 4 + c]`, where `i` indexes
//! [`ShaderInfo::inputs`]; outputs likewise. Floats travel as their bit patterns, so
//! flat integer varyings and integer attributes pass through unchanged.
//!
//! Fragment lanes are a 4×4 pixel block made of four 2×2 quads: lane `4q + p` is pixel
//! `(2(q & 1) + (p & 1), 2(q >> 1) + (p >> 1))` of the block, so [`ddx`]/[`ddy`] work
//! inside each quad. Lanes not in [`Invocation::mask`] are helpers (or empty): they
//! compute like any lane, but their results are dropped.
//!
//! A compiled shader (the NIR → register-program compiler, later a JIT) implements
//! [`ShaderExec`]; the driver only sees this trait.

use std::sync::Arc;

pub use rgl_nir::ir::Interp;

use crate::driver::ShaderStage;
pub use crate::storage::StorageView;
use crate::texture::TextureBinding;
use crate::{Error, Result};

/// Lanes per invocation batch.
pub const LANES: usize = 16;
/// Mask with every lane set.
pub const ALL_LANES: u32 = (1 << LANES) - 1;

/// X offset of each fragment lane inside its 4×4 block.
pub const LANE_X: [u32; LANES] = [0, 1, 0, 1, 2, 3, 2, 3, 0, 1, 0, 1, 2, 3, 2, 3];
/// Y offset of each fragment lane inside its 4×4 block.
pub const LANE_Y: [u32; LANES] = [0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3];

/// One SIMD register: a 32-bit word per lane.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Reg(pub [u32; LANES]);

impl Default for Reg {
    fn default() -> Self {
        Reg([0; LANES])
    }
}

impl Reg {
    /// Every lane `v` (float).
    #[inline]
    pub fn splat_f(v: f32) -> Reg {
        Reg([v.to_bits(); LANES])
    }
    /// Every lane `v` (bits).
    #[inline]
    pub fn splat_u(v: u32) -> Reg {
        Reg([v; LANES])
    }
    /// Lane `i` as float.
    #[inline]
    pub fn f(&self, i: usize) -> f32 {
        f32::from_bits(self.0[i])
    }
    /// Sets lane `i` to float `v`.
    #[inline]
    pub fn set_f(&mut self, i: usize, v: f32) {
        self.0[i] = v.to_bits();
    }
    /// All lanes as floats.
    #[inline]
    pub fn to_f32(&self) -> [f32; LANES] {
        let mut o = [0.0; LANES];
        for i in 0..LANES {
            o[i] = f32::from_bits(self.0[i]);
        }
        o
    }
    /// From floats.
    #[inline]
    pub fn from_f32(v: &[f32; LANES]) -> Reg {
        let mut o = Reg::default();
        for i in 0..LANES {
            o.0[i] = v[i].to_bits();
        }
        o
    }
}

/// x derivative of a float register, per 2x2 quad (lanes `4q..4q+4` are the
/// quad's top-left, top-right, bottom-left, bottom-right pixels): fine (each
/// row its own difference) or `coarse` (the top row's difference for the whole
/// quad, as ARB_derivative_control allows and llvmpipe does).
pub fn ddx(r: &Reg, coarse: bool) -> Reg {
    let v = r.to_f32();
    let mut o = [0.0; LANES];
    for q in 0..LANES / 4 {
        let b = q * 4;
        let top = v[b + 1] - v[b];
        let bot = if coarse { top } else { v[b + 3] - v[b + 2] };
        o[b] = top;
        o[b + 1] = top;
        o[b + 2] = bot;
        o[b + 3] = bot;
    }
    Reg::from_f32(&o)
}

/// y derivative of a float register, per 2x2 quad: fine (each column its own
/// difference) or `coarse` (the left column's difference for the whole quad).
pub fn ddy(r: &Reg, coarse: bool) -> Reg {
    let v = r.to_f32();
    let mut o = [0.0; LANES];
    for q in 0..LANES / 4 {
        let b = q * 4;
        let left = v[b + 2] - v[b];
        let right = if coarse { left } else { v[b + 3] - v[b + 1] };
        o[b] = left;
        o[b + 2] = left;
        o[b + 1] = right;
        o[b + 3] = right;
    }
    Reg::from_f32(&o)
}

/// One input or output of a shader: a location (`VERT_ATTRIB_*`/driver location for VS
/// inputs, `VARYING_SLOT_*`, `FRAG_RESULT_*`) with up to 4 components.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct IoDecl {
    /// Location: VS inputs use the vertex element index; varyings `VARYING_SLOT_*`;
    /// FS outputs `FRAG_RESULT_*`.
    pub location: i32,
    /// Components used (1–4, starting at x).
    pub components: u8,
    /// Interpolation (FS inputs); flat also for integer varyings.
    pub interp: Interp,
    /// Dual-source blend index (FS outputs).
    pub index: u8,
}

impl IoDecl {
    /// A 4-component smooth declaration at `location`.
    pub fn vec4(location: i32) -> IoDecl {
        IoDecl {
            location,
            components: 4,
            interp: Interp::Smooth,
            index: 0,
        }
    }
}

/// System values a shader reads (bit flags in [`ShaderInfo::sysvals`]).
pub mod sysval {
    /// `gl_FragCoord` (x, y, z, 1/w).
    pub const FRAG_COORD: u32 = 1 << 0;
    /// `gl_FrontFacing`.
    pub const FRONT_FACE: u32 = 1 << 1;
    /// `gl_PointCoord`.
    pub const POINT_COORD: u32 = 1 << 2;
    /// `gl_VertexID` (includes base vertex).
    pub const VERTEX_ID: u32 = 1 << 3;
    /// `gl_InstanceID`.
    pub const INSTANCE_ID: u32 = 1 << 4;
    /// `gl_PrimitiveID` (GS input, FS).
    pub const PRIMITIVE_ID: u32 = 1 << 5;
    /// `gl_HelperInvocation`: differs between the lanes of a quad, so a
    /// fragment shader that reads it is never fragment-invariant.
    pub const HELPER_INVOCATION: u32 = 1 << 6;
}

/// Output primitive of a geometry shader.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GsOutput {
    /// Points.
    Points,
    /// Line strips.
    LineStrip,
    /// Triangle strips.
    TriangleStrip,
}

/// Geometry shader parameters.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct GsInfo {
    /// Vertices per input primitive (1, 2, 3, 4 or 6 with adjacency).
    pub vertices_in: u8,
    /// Output primitive type.
    pub output: GsOutput,
    /// `max_vertices`.
    pub max_vertices: u32,
}

/// What the driver needs to know about a shader to feed and drain it.
#[derive(Clone, Debug, PartialEq)]
pub struct ShaderInfo {
    /// Stage.
    pub stage: ShaderStage,
    /// Inputs, in the order of the input registers.
    pub inputs: Vec<IoDecl>,
    /// Outputs, in the order of the output registers.
    pub outputs: Vec<IoDecl>,
    /// System values read ([`sysval`] bits).
    pub sysvals: u32,
    /// FS may discard.
    pub uses_discard: bool,
    /// Geometry shader parameters (GS only).
    pub gs: Option<GsInfo>,
    /// Storage buffer (and atomic counter) accesses of the shader.
    pub storage: StorageUse,
}

/// How a shader accesses storage buffers (`load_ssbo`, `store_ssbo`, the
/// `ssbo_atomic*` intrinsics, `get_ssbo_size`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct StorageUse {
    /// It reads storage buffers (or their sizes).
    pub reads: bool,
    /// It writes storage buffers or performs atomics on them: a side effect
    /// the driver must not skip, repeat or move past the depth test
    /// (GL 4.5 §14.9, §15.2.4 "Early Fragment Tests"). Image stores and
    /// atomics count too.
    pub writes: bool,
    /// It accesses images (the `image_*` intrinsics; see [`crate::image`]):
    /// the driver copies the bound image levels for it. Image loads also set
    /// `reads`, image stores and atomics `writes`.
    pub images: bool,
}

impl StorageUse {
    /// Whether the shader touches storage buffers at all.
    pub fn any(self) -> bool {
        self.reads || self.writes
    }
}

impl ShaderInfo {
    /// Index of the output at `location`, if written.
    pub fn output_index(&self, location: i32, index: u8) -> Option<usize> {
        self.outputs
            .iter()
            .position(|o| o.location == location && o.index == index)
    }
    /// Whether a fragment shader writes depth.
    pub fn writes_depth(&self) -> bool {
        self.stage == ShaderStage::Fragment
            && self
                .output_index(rgl_nir::ir::names::FRAG_RESULT_DEPTH, 0)
                .is_some()
    }
}

/// System value registers for one batch (filled when the shader reads them).
#[derive(Clone, Debug, Default)]
pub struct SysVals {
    /// `gl_FragCoord` x, y, z, w.
    pub frag_coord: [Reg; 4],
    /// Front facing: `!0` or 0 per lane.
    pub front_face: Reg,
    /// `gl_PointCoord` s, t.
    pub point_coord: [Reg; 2],
    /// `gl_VertexID`.
    pub vertex_id: Reg,
    /// `gl_InstanceID`.
    pub instance_id: Reg,
    /// `gl_PrimitiveID`.
    pub primitive_id: Reg,
    /// Compute: `gl_LocalInvocationID` x, y, z.
    pub local_id: [Reg; 3],
    /// Compute: `gl_WorkGroupID`, the same for every lane.
    pub workgroup_id: [u32; 3],
    /// Compute: `gl_NumWorkGroups`.
    pub num_workgroups: [u32; 3],
}

/// Read-only resources a shader may access.
#[derive(Clone, Copy)]
pub struct Resources<'a> {
    /// Default-block uniforms: vec4 slots of words. Reads past the end return 0.
    pub uniforms: &'a [[u32; 4]],
    /// Uniform block slots; reads past a slice's end return 0.
    pub ubos: &'a [&'a [u8]],
    /// Texture slots (view + sampler).
    pub textures: &'a [Option<TextureBinding<'a>>],
    /// Storage buffer bindings by block index (the binding space of
    /// `rgl_nir::options::storage_bindings`); accesses past the end or to an
    /// unbound block read 0 and write nothing.
    pub storage: &'a [StorageView<'a>],
    /// Image bindings by image index (unbound or past the end: every access
    /// out of range, see [`crate::image`]).
    pub images: &'a [crate::image::ImageView<'a>],
}

impl<'a> Resources<'a> {
    /// `load_uniform`: word `comp` of vec4 slot `slot`, 0 out of range.
    #[inline]
    pub fn uniform(&self, slot: usize, comp: usize) -> u32 {
        self.uniforms
            .get(slot)
            .and_then(|s| s.get(comp))
            .copied()
            .unwrap_or(0)
    }
    /// `load_ubo`: the 32-bit word at `byte_offset` of block `block`, 0 out of range.
    #[inline]
    pub fn ubo_word(&self, block: usize, byte_offset: u64) -> u32 {
        match self.ubos.get(block) {
            Some(b) => usize::try_from(byte_offset)
                .ok()
                .map(|o| crate::format::read_u32(b, o))
                .unwrap_or(0),
            None => 0,
        }
    }
    /// Image index `index` (an unbound view when past the end).
    #[inline]
    pub fn image(&self, index: u32) -> crate::image::ImageView<'a> {
        usize::try_from(index)
            .ok()
            .and_then(|i| self.images.get(i))
            .copied()
            .unwrap_or_default()
    }
    /// The storage binding `block` (an empty view when unbound).
    #[inline]
    pub fn storage(&self, block: u32) -> StorageView<'a> {
        usize::try_from(block)
            .ok()
            .and_then(|b| self.storage.get(b))
            .copied()
            .unwrap_or_default()
    }
}

/// The instruction budget of a shader invocation batch (up to 16 lanes of one
/// stage): compiled shaders charge it as they run and stop with
/// [`Error::BudgetExceeded`] when it runs out, which ends the draw. The drivers
/// [`Budget::refill`] it before every batch, so a long but finite shader runs
/// on a framebuffer of any size, while an endless one stops after one batch.
#[derive(Clone, Debug)]
pub struct Budget {
    /// Instructions still allowed.
    pub remaining: u64,
    /// The limit it started from.
    pub limit: u64,
}

impl Budget {
    /// A budget of `limit` instructions.
    pub fn new(limit: u64) -> Budget {
        Budget {
            remaining: limit,
            limit,
        }
    }
    /// Back to the full limit, before the next batch.
    #[inline]
    pub fn refill(&mut self) {
        self.remaining = self.limit;
    }
    /// Charges `n` instructions.
    #[inline]
    pub fn charge(&mut self, n: u64) -> Result<()> {
        match self.remaining.checked_sub(n) {
            Some(r) => {
                self.remaining = r;
                Ok(())
            }
            None => {
                self.remaining = 0;
                Err(Error::BudgetExceeded(self.limit))
            }
        }
    }
}

/// Receives geometry shader output (`emit_vertex` / `end_primitive`).
pub trait GsSink {
    /// Emits one vertex for every lane in `mask` from the current outputs.
    fn emit_vertex(&mut self, mask: u32, outputs: &[Reg]);
    /// Ends the current strip of every lane in `mask`.
    fn end_primitive(&mut self, mask: u32);
}

/// One batch of up to [`LANES`] invocations.
pub struct Invocation<'a> {
    /// Input registers (`inputs[i * 4 + c]`). For a GS, vertex `v` of each lane's
    /// primitive starts at `v * inputs_per_vertex * 4`.
    pub inputs: &'a [Reg],
    /// Output registers (`outputs[i * 4 + c]`), written by the shader.
    pub outputs: &'a mut [Reg],
    /// System values.
    pub sys: &'a SysVals,
    /// Live lanes (valid vertices, covered fragments, GS primitives).
    pub mask: u32,
    /// FS: lanes discarded by the shader (set by it).
    pub kill: u32,
    /// Uniforms, uniform blocks and textures.
    pub res: Resources<'a>,
    /// The draw's instruction budget.
    pub budget: &'a mut Budget,
    /// Per-thread scratch registers the shader may use freely (kept between batches).
    pub scratch: &'a mut Vec<Reg>,
    /// GS output sink.
    pub gs: Option<&'a mut dyn GsSink>,
}

/// A shader the driver can run: the seam between the driver and the shader compiler.
pub trait ShaderExec: Send + Sync {
    /// Interface description.
    fn info(&self) -> &ShaderInfo;
    /// Runs one batch. Errors (budget exceeded, bad resource access the shader chose to
    /// report) abort the draw and are returned to the caller of `draw`.
    fn run(&self, inv: &mut Invocation<'_>) -> Result<()>;
    /// The fused per-pixel pipeline variants of a fragment shader that can build
    /// them (the JIT's); `None` runs the rasterizer's Rust per-pixel code around
    /// [`ShaderExec::run`].
    fn pipelines(&self) -> Option<&crate::jit::pipeline::PipelineCache> {
        None
    }
    /// The serialised form of the compiled code, which
    /// [`ShaderCompiler::load`] of a compiler with the same
    /// [`ShaderCompiler::cache_identity`] turns back into this shader given the
    /// same NIR; `None` when the shader cannot be stored (the default).
    fn serialize(&self) -> Option<Vec<u8>> {
        None
    }
    /// Gives the shader a store for the code it builds lazily (the JIT's fused
    /// pipeline variants), with `id` naming this shader there (unique to its
    /// NIR and compiler). The default ignores it.
    fn set_code_store(&self, store: Arc<dyn CodeStore>, id: Vec<u8>) {
        let _ = (store, id);
    }
}

/// Persistent storage for serialised code a driver builds lazily (the JIT's
/// fused pipeline variants), provided by the state tracker's on-disk cache.
/// Keys are opaque bytes; the store hashes them with its own identity.
pub trait CodeStore: Send + Sync {
    /// The bytes stored under `key`, if a trusted entry exists.
    fn get(&self, key: &[u8]) -> Option<Vec<u8>>;
    /// Stores `bytes` under `key` (failures are the store's to log).
    fn put(&self, key: &[u8], bytes: &[u8]);
    /// The bytes under `key` were refused by their loader (`why`): drop them.
    fn reject(&self, key: &[u8], why: &str);
}

/// Compiles finalized NIR into a [`ShaderExec`] (the future NIR → lane-program compiler
/// plugs into the software driver through this).
pub trait ShaderCompiler: Send + Sync {
    /// Compiles one stage.
    fn compile(&self, nir: &rgl_nir::ir::Shader) -> Result<Arc<dyn ShaderExec>>;
    /// What the compiler needs from the NIR pipeline for `stage`; the software
    /// driver answers [`crate::Driver::compiler_options`] with it. The default is
    /// the pipeline's default (lowered IO, vector ALU, indirect temporaries lowered).
    fn compiler_options(&self, stage: ShaderStage) -> rgl_nir::options::CompilerOptions {
        let _ = stage;
        rgl_nir::options::CompilerOptions::default()
    }
    /// What this compiler's serialised shaders ([`ShaderExec::serialize`]) depend
    /// on besides the NIR (format version, host ISA, options), for a cache key;
    /// `None` (the default) when the compiler stores nothing.
    fn cache_identity(&self) -> Option<Vec<u8>> {
        None
    }
    /// Blocks until the compiler's background work queued so far is done (the
    /// JIT's optimised rebuilds of tier-0 code, which also write the code
    /// store). The default has none.
    fn wait_background(&self) {}
    /// Rebuilds a shader of `nir` from `bytes` that [`ShaderExec::serialize`]
    /// returned for the same NIR under the same [`ShaderCompiler::cache_identity`].
    /// Malformed or mismatched bytes are an error, never trusted.
    fn load(&self, nir: &rgl_nir::ir::Shader, bytes: &[u8]) -> Result<Arc<dyn ShaderExec>> {
        let _ = (nir, bytes);
        Err(crate::Error::Unsupported(
            "this shader compiler loads no serialised shaders".into(),
        ))
    }
}

/// A shader written as a Rust closure over the lane interface.
pub struct ClosureShader<F> {
    info: ShaderInfo,
    f: F,
}

impl<F> ClosureShader<F>
where
    F: Fn(&mut Invocation<'_>) -> Result<()> + Send + Sync + 'static,
{
    /// Wraps `f` with its interface description.
    pub fn new(info: ShaderInfo, f: F) -> Arc<dyn ShaderExec> {
        Arc::new(ClosureShader { info, f })
    }
}

impl<F> ShaderExec for ClosureShader<F>
where
    F: Fn(&mut Invocation<'_>) -> Result<()> + Send + Sync,
{
    fn info(&self) -> &ShaderInfo {
        &self.info
    }
    fn run(&self, inv: &mut Invocation<'_>) -> Result<()> {
        (self.f)(inv)
    }
}

/// Ready-made closure shaders for tests and benchmarks.
pub mod builtin {
    use super::*;
    use rgl_nir::ir::names::{FRAG_RESULT_COLOR, VARYING_SLOT_POS, VARYING_SLOT_VAR0};

    /// VS: input 0 → `gl_Position`; inputs 1.. → `VARYING_SLOT_VAR0 + i - 1`.
    pub fn passthrough_vs(varyings: usize) -> Arc<dyn ShaderExec> {
        let mut inputs = vec![IoDecl::vec4(0)];
        let mut outputs = vec![IoDecl::vec4(VARYING_SLOT_POS)];
        for i in 0..varyings {
            inputs.push(IoDecl::vec4(i as i32 + 1));
            outputs.push(IoDecl::vec4(VARYING_SLOT_VAR0 + i as i32));
        }
        let info = ShaderInfo {
            stage: ShaderStage::Vertex,
            inputs,
            outputs,
            sysvals: 0,
            uses_discard: false,
            gs: None,
            storage: StorageUse::default(),
        };
        ClosureShader::new(info, |inv| {
            let n = inv.outputs.len().min(inv.inputs.len());
            inv.outputs[..n].copy_from_slice(&inv.inputs[..n]);
            Ok(())
        })
    }

    /// FS writing a constant color to `gl_FragColor`.
    pub fn constant_fs(color: [f32; 4]) -> Arc<dyn ShaderExec> {
        let info = ShaderInfo {
            stage: ShaderStage::Fragment,
            inputs: vec![],
            outputs: vec![IoDecl::vec4(FRAG_RESULT_COLOR)],
            sysvals: 0,
            uses_discard: false,
            gs: None,
            storage: StorageUse::default(),
        };
        ClosureShader::new(info, move |inv| {
            for c in 0..4 {
                inv.outputs[c] = Reg::splat_f(color[c]);
            }
            Ok(())
        })
    }

    /// FS writing varying `VAR0` (interpolated as `interp`) to `gl_FragColor`.
    pub fn varying_fs(interp: Interp) -> Arc<dyn ShaderExec> {
        let info = ShaderInfo {
            stage: ShaderStage::Fragment,
            inputs: vec![IoDecl {
                interp,
                ..IoDecl::vec4(VARYING_SLOT_VAR0)
            }],
            outputs: vec![IoDecl::vec4(FRAG_RESULT_COLOR)],
            sysvals: 0,
            uses_discard: false,
            gs: None,
            storage: StorageUse::default(),
        };
        ClosureShader::new(info, |inv| {
            inv.outputs[..4].copy_from_slice(&inv.inputs[..4]);
            Ok(())
        })
    }
}
