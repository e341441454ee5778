//! The software driver: resources and state objects in handle tables, and the
//! [`Driver`] implementation. Drawing lives in [`draw`]: vertex fetch and shading
//! ([`vertex`]), assembly ([`prim`]), clipping ([`clip`]), setup and binning
//! ([`setup`]), and the threaded band rasterizer ([`raster`]).
//!
//! Shaders: `create_shader` hands finalized NIR to the installed
//! [`ShaderCompiler`] ([`crate::lanes::LaneCompiler`] unless one is set with
//! [`SoftDriver::set_compiler`]; the registry's `jit` driver installs
//! [`crate::jit::JitCompiler`]). Tests and benchmarks install Rust-closure shaders
//! with [`SoftDriver::create_exec_shader`].

pub mod clip;
pub mod denormals;
pub mod draw;
pub mod fused;
pub mod geometry;
pub mod prim;
pub mod raster;
pub mod setup;
pub mod vertex;

use std::sync::Arc;

use crate::driver::*;
use crate::exec::{ShaderCompiler, ShaderExec};
use crate::{Error, Result};
use rgl_nir::options::CompilerOptions;

/// Largest texture dimension.
pub const MAX_TEXTURE_SIZE: u32 = 16384;
/// Largest 3D/array depth.
pub const MAX_TEXTURE_LAYERS: u32 = 2048;
/// Largest single resource in bytes.
pub const MAX_RESOURCE_BYTES: u64 = 1 << 30;
/// Default instruction budget of one shader invocation batch, in lane
/// instructions (16 per executed instruction of a 16-lane batch): about 8.4 M
/// instructions per invocation, far beyond real shaders, and a fraction of a
/// second of an endless loop before the draw stops.
pub const DEFAULT_BUDGET: u64 = 1 << 27;

/// Storage buffer blocks a draw can bind: every block of the compiler's
/// binding space (shader storage bindings, then atomic counter buffers).
const MAX_STORAGE_BLOCKS: usize = (rgl_nir::options::storage_bindings::ATOMIC_COUNTER_BLOCK_BASE
    + rgl_nir::options::storage_bindings::MAX_ATOMIC_COUNTER_BUFFER_BINDINGS)
    as usize;

/// A handle table: slots are never reused.
pub(crate) struct Table<T> {
    kind: &'static str,
    items: Vec<Option<T>>,
}

impl<T> Table<T> {
    fn new(kind: &'static str) -> Self {
        Table {
            kind,
            items: Vec::new(),
        }
    }
    fn add(&mut self, v: T) -> Result<u32> {
        let id = u32::try_from(self.items.len())
            .map_err(|_| Error::TooLarge(format!("too many {} objects", self.kind)))?;
        self.items.push(Some(v));
        Ok(id)
    }
    pub(crate) fn get(&self, id: u32) -> Result<&T> {
        self.items
            .get(id as usize)
            .and_then(|o| o.as_ref())
            .ok_or(Error::InvalidHandle {
                kind: self.kind,
                id,
            })
    }
    pub(crate) fn get_mut(&mut self, id: u32) -> Result<&mut T> {
        let kind = self.kind;
        self.items
            .get_mut(id as usize)
            .and_then(|o| o.as_mut())
            .ok_or(Error::InvalidHandle { kind, id })
    }
    fn remove(&mut self, id: u32) -> Result<T> {
        let kind = self.kind;
        self.items
            .get_mut(id as usize)
            .and_then(|o| o.take())
            .ok_or(Error::InvalidHandle { kind, id })
    }
}

/// The largest level [`committed_zeroes`] commits at creation (a 4096×4096
/// RGBA8 level).
const COMMIT_LIMIT: usize = 64 << 20;

/// `len` zero bytes whose pages are committed: written once here, as
/// llvmpipe's `llvmpipe_texture_layout` (`lp_texture.c`) `memset`s every
/// resource's storage when the resource is created.
///
/// `vec![0; len]` of a large size is `calloc`, which the kernel backs with
/// the shared zero page until the first write; the first write to each page
/// then takes a page fault. For a render target that first write is the first
/// draw (about 1,000 faults, several milliseconds, for a 1024×1024 RGBA8
/// colour buffer), which made the first draw pay for the allocation. Touching
/// one byte per page commits the same memory at `glTexImage*`,
/// `glTexStorage*` or `glRenderbufferStorage` time instead, where Mesa pays
/// it. Levels larger than [`COMMIT_LIMIT`] stay lazily committed, so that
/// a huge texture that is never written (a size-limit test) does not take
/// its whole size in memory.
fn committed_zeroes(len: usize) -> Vec<u8> {
    /// The smallest page size of the hosts rgl runs on; touching more often
    /// than the real page size only costs a few extra stores.
    const PAGE: usize = 4096;
    let mut v = vec![0u8; len];
    if len > COMMIT_LIMIT {
        return v;
    }
    // `black_box`: the compiler knows the allocation is zero and would drop
    // stores of zero into it.
    let bytes = std::hint::black_box(v.as_mut_slice());
    for page in bytes.chunks_mut(PAGE) {
        page[0] = 0;
    }
    v
}

/// A texture's storage: one byte vector per level holding all its slices/layers.
pub(crate) struct Texture {
    pub desc: TextureDesc,
    pub levels: Vec<Vec<u8>>,
}

/// Size of `level` of a texture: (width, height, depth-or-layers).
pub fn level_size(d: &TextureDesc, level: u32) -> (u32, u32, u32) {
    let m = |v: u32| (v >> level.min(31)).max(1);
    match d.target {
        TexTarget::D1 => (m(d.width), 1, 1),
        TexTarget::D1Array => (m(d.width), d.height, 1),
        TexTarget::D2 | TexTarget::Rect => (m(d.width), m(d.height), 1),
        TexTarget::D3 => (m(d.width), m(d.height), m(d.depth)),
        TexTarget::Cube => (m(d.width), m(d.height), 6),
        TexTarget::D2Array => (m(d.width), m(d.height), d.depth),
    }
}

/// The bound state of the software driver.
pub(crate) struct Bound {
    pub vs: Option<Arc<dyn ShaderExec>>,
    pub gs: Option<Arc<dyn ShaderExec>>,
    pub fs: Option<Arc<dyn ShaderExec>>,
    pub vs_h: Option<ShaderHandle>,
    pub gs_h: Option<ShaderHandle>,
    pub fs_h: Option<ShaderHandle>,
    pub blend: BlendState,
    pub dsa: DepthStencilState,
    pub rast: RasterizerState,
    pub samplers: Vec<Option<SamplerState>>,
    pub velems: Arc<Vec<VertexSource>>,
    pub fb: FramebufferState,
    pub viewport: Viewport,
    pub scissor: Rect,
    pub blend_color: [f32; 4],
    pub uniforms: Vec<[u32; 4]>,
    pub ubos: Vec<Option<BufferRange>>,
    /// Storage buffer ranges by block (`Driver::set_storage_buffers`).
    pub storage: Vec<Option<BufferRange>>,
    /// Image bindings by image index (`Driver::set_images`).
    pub images: Vec<Option<crate::driver::ImageBinding>>,
    pub views: Vec<Option<SamplerView>>,
    pub vbufs: Vec<VertexBufferBinding>,
}

/// The CPU rasterizer driver.
pub struct SoftDriver {
    pub(crate) buffers: Table<Vec<u8>>,
    pub(crate) textures: Table<Texture>,
    pub(crate) shaders: Table<Arc<dyn ShaderExec>>,
    compute_shaders: Table<Arc<crate::compute::ComputeProgram>>,
    blends: Table<BlendState>,
    dsas: Table<DepthStencilState>,
    rasts: Table<RasterizerState>,
    samplers: Table<SamplerState>,
    velems: Table<Arc<Vec<VertexSource>>>,
    pub(crate) bound: Bound,
    pub(crate) counters: Counters,
    pub(crate) threads: usize,
    pub(crate) budget: u64,
    compiler: Option<Arc<dyn ShaderCompiler>>,
    compute_engine: crate::compute::ComputeEngine,
}

impl Default for SoftDriver {
    fn default() -> Self {
        SoftDriver::new(1)
    }
}

impl SoftDriver {
    /// A driver rasterizing on `threads` threads (1 = all work on the calling thread).
    pub fn new(threads: usize) -> SoftDriver {
        SoftDriver {
            buffers: Table::new("buffer"),
            textures: Table::new("texture"),
            shaders: Table::new("shader"),
            compute_shaders: Table::new("compute shader"),
            blends: Table::new("blend state"),
            dsas: Table::new("depth-stencil state"),
            rasts: Table::new("rasterizer state"),
            samplers: Table::new("sampler state"),
            velems: Table::new("vertex elements"),
            bound: Bound {
                vs: None,
                gs: None,
                fs: None,
                vs_h: None,
                gs_h: None,
                fs_h: None,
                blend: BlendState::default(),
                dsa: DepthStencilState::default(),
                rast: RasterizerState::default(),
                samplers: Vec::new(),
                velems: Arc::new(Vec::new()),
                fb: FramebufferState::default(),
                viewport: Viewport {
                    x: 0.0,
                    y: 0.0,
                    width: 0.0,
                    height: 0.0,
                    near: 0.0,
                    far: 1.0,
                },
                scissor: Rect::default(),
                blend_color: [0.0; 4],
                uniforms: Vec::new(),
                ubos: Vec::new(),
                storage: Vec::new(),
                images: Vec::new(),
                views: Vec::new(),
                vbufs: Vec::new(),
            },
            counters: Counters::default(),
            threads: threads.clamp(1, 64),
            budget: DEFAULT_BUDGET,
            compiler: Some(Arc::new(crate::lanes::LaneCompiler)),
            compute_engine: crate::compute::ComputeEngine::Lanes,
        }
    }

    /// Number of raster threads.
    pub fn threads(&self) -> usize {
        self.threads
    }
    /// Sets the number of raster threads (1–64).
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.clamp(1, 64);
    }
    /// Sets the per-thread instruction budget of each draw.
    pub fn set_instruction_budget(&mut self, n: u64) {
        self.budget = n;
    }
    /// Selects what runs compute dispatches: the lane programs (the default)
    /// or the reference interpreter, which differential tests compare them with.
    pub fn set_compute_engine(&mut self, e: crate::compute::ComputeEngine) {
        self.compute_engine = e;
    }
    /// Installs the NIR shader compiler used by [`Driver::create_shader`].
    pub fn set_compiler(&mut self, c: Arc<dyn ShaderCompiler>) {
        self.compiler = Some(c);
    }
    /// Registers an already executable shader (Rust closures in tests and benchmarks,
    /// or a shader compiled elsewhere).
    pub fn create_exec_shader(&mut self, sh: Arc<dyn ShaderExec>) -> Result<ShaderHandle> {
        Ok(ShaderHandle(self.shaders.add(sh)?))
    }

    fn check_texture_desc(d: &TextureDesc) -> Result<u64> {
        let bad = |s: String| Err(Error::InvalidArgument(s));
        if d.width == 0 || d.height == 0 || d.depth == 0 || d.levels == 0 {
            return bad(format!("texture with a zero dimension: {d:?}"));
        }
        if d.width > MAX_TEXTURE_SIZE || d.height > MAX_TEXTURE_SIZE.max(MAX_TEXTURE_LAYERS) {
            return Err(Error::TooLarge(format!("texture {}x{}", d.width, d.height)));
        }
        if d.depth > MAX_TEXTURE_LAYERS.max(if d.target == TexTarget::D3 { 2048 } else { 0 }) {
            return Err(Error::TooLarge(format!("texture depth {}", d.depth)));
        }
        match d.target {
            TexTarget::D1 if d.height != 1 || d.depth != 1 => {
                return bad("1D texture needs height = depth = 1".into())
            }
            TexTarget::D1Array if d.depth != 1 => return bad("1D array needs depth = 1".into()),
            TexTarget::D2 | TexTarget::Rect if d.depth != 1 => {
                return bad("2D texture needs depth = 1".into())
            }
            TexTarget::Cube if d.depth != 6 || d.width != d.height => {
                return bad("cube map needs square faces and depth = 6".into())
            }
            TexTarget::Rect if d.levels != 1 => {
                return bad("rectangle textures have one level".into())
            }
            _ => {}
        }
        if d.target == TexTarget::D1Array && d.height > MAX_TEXTURE_LAYERS {
            return Err(Error::TooLarge(format!("{} layers", d.height)));
        }
        let max_dim = match d.target {
            TexTarget::D3 => d.width.max(d.height).max(d.depth),
            TexTarget::D1 | TexTarget::D1Array => d.width,
            _ => d.width.max(d.height),
        };
        let max_levels = 32 - max_dim.leading_zeros();
        if d.levels > max_levels {
            return bad(format!("{} levels for size {max_dim}", d.levels));
        }
        let mut total = 0u64;
        for l in 0..d.levels {
            let (w, h, z) = level_size(d, l);
            total += w as u64 * h as u64 * z as u64 * d.format.bytes_per_pixel() as u64;
        }
        if total > MAX_RESOURCE_BYTES {
            return Err(Error::TooLarge(format!("texture of {total} bytes")));
        }
        Ok(total)
    }

    /// Validates a box against a level and returns (level dims).
    fn check_box(t: &Texture, level: u32, b: &TexBox) -> Result<(u32, u32, u32)> {
        if level >= t.desc.levels {
            return Err(Error::InvalidArgument(format!(
                "level {level} of {}",
                t.desc.levels
            )));
        }
        let (w, h, d) = level_size(&t.desc, level);
        let fits = |o: u32, n: u32, max: u32| o.checked_add(n).is_some_and(|e| e <= max);
        if !fits(b.x, b.width, w) || !fits(b.y, b.height, h) || !fits(b.z, b.depth, d) {
            return Err(Error::InvalidArgument(format!(
                "box {b:?} outside level {level} of size {w}x{h}x{d}"
            )));
        }
        Ok((w, h, d))
    }
}

impl Driver for SoftDriver {
    fn name(&self) -> &str {
        "rgl-soft"
    }

    fn compiler_options(&self, stage: ShaderStage) -> CompilerOptions {
        match &self.compiler {
            Some(c) => c.compiler_options(stage),
            None => CompilerOptions::default(),
        }
    }

    fn create_buffer(&mut self, data: &[u8]) -> Result<BufferHandle> {
        if data.len() as u64 > MAX_RESOURCE_BYTES {
            return Err(Error::TooLarge(format!("buffer of {} bytes", data.len())));
        }
        Ok(BufferHandle(self.buffers.add(data.to_vec())?))
    }
    fn buffer_data(&mut self, buf: BufferHandle, data: &[u8]) -> Result<()> {
        if data.len() as u64 > MAX_RESOURCE_BYTES {
            return Err(Error::TooLarge(format!("buffer of {} bytes", data.len())));
        }
        let b = self.buffers.get_mut(buf.0)?;
        b.clear();
        b.extend_from_slice(data);
        Ok(())
    }
    fn buffer_subdata(&mut self, buf: BufferHandle, offset: u64, data: &[u8]) -> Result<()> {
        let b = self.buffers.get_mut(buf.0)?;
        let end = offset.checked_add(data.len() as u64);
        match end {
            Some(e) if e <= b.len() as u64 => {
                b[offset as usize..e as usize].copy_from_slice(data);
                Ok(())
            }
            _ => Err(Error::InvalidArgument(format!(
                "write of {} bytes at {offset} past buffer end {}",
                data.len(),
                b.len()
            ))),
        }
    }
    fn read_buffer(&self, buf: BufferHandle, offset: u64, len: u64) -> Result<Vec<u8>> {
        let b = self.buffers.get(buf.0)?;
        match offset.checked_add(len) {
            Some(e) if e <= b.len() as u64 => Ok(b[offset as usize..e as usize].to_vec()),
            _ => Err(Error::InvalidArgument(format!(
                "read of {len} bytes at {offset} past buffer end {}",
                b.len()
            ))),
        }
    }
    fn delete_buffer(&mut self, buf: BufferHandle) -> Result<()> {
        self.buffers.remove(buf.0).map(|_| ())
    }

    fn create_texture(&mut self, desc: &TextureDesc) -> Result<TextureHandle> {
        Self::check_texture_desc(desc)?;
        let levels = (0..desc.levels)
            .map(|l| {
                let (w, h, d) = level_size(desc, l);
                committed_zeroes(
                    w as usize * h as usize * d as usize * desc.format.bytes_per_pixel(),
                )
            })
            .collect();
        Ok(TextureHandle(self.textures.add(Texture {
            desc: *desc,
            levels,
        })?))
    }
    fn texture_desc(&self, tex: TextureHandle) -> Result<TextureDesc> {
        Ok(self.textures.get(tex.0)?.desc)
    }
    fn texture_upload(
        &mut self,
        tex: TextureHandle,
        level: u32,
        b: TexBox,
        data: &[u8],
    ) -> Result<()> {
        let t = self.textures.get_mut(tex.0)?;
        let (w, h, _) = Self::check_box(t, level, &b)?;
        let bpp = t.desc.format.bytes_per_pixel();
        let row = b.width as usize * bpp;
        let need = row * b.height as usize * b.depth as usize;
        if data.len() < need {
            return Err(Error::InvalidArgument(format!(
                "upload needs {need} bytes, got {}",
                data.len()
            )));
        }
        let lv = &mut t.levels[level as usize];
        for z in 0..b.depth as usize {
            for y in 0..b.height as usize {
                let src = (z * b.height as usize + y) * row;
                let dst = (((b.z as usize + z) * h as usize + b.y as usize + y) * w as usize
                    + b.x as usize)
                    * bpp;
                lv[dst..dst + row].copy_from_slice(&data[src..src + row]);
            }
        }
        Ok(())
    }
    fn texture_read(&self, tex: TextureHandle, level: u32, b: TexBox) -> Result<Vec<u8>> {
        let t = self.textures.get(tex.0)?;
        let (w, h, _) = Self::check_box(t, level, &b)?;
        let bpp = t.desc.format.bytes_per_pixel();
        let row = b.width as usize * bpp;
        let mut out = Vec::with_capacity(row * b.height as usize * b.depth as usize);
        let lv = &t.levels[level as usize];
        for z in 0..b.depth as usize {
            for y in 0..b.height as usize {
                let src = (((b.z as usize + z) * h as usize + b.y as usize + y) * w as usize
                    + b.x as usize)
                    * bpp;
                out.extend_from_slice(&lv[src..src + row]);
            }
        }
        Ok(out)
    }
    fn delete_texture(&mut self, tex: TextureHandle) -> Result<()> {
        self.textures.remove(tex.0).map(|_| ())
    }

    fn create_shader(&mut self, nir: &rgl_nir::ir::Shader) -> Result<ShaderHandle> {
        let Some(c) = self.compiler.clone() else {
            return Err(Error::Unsupported(format!(
                "no NIR shader compiler installed in the software driver ({} shader)",
                nir.stage.name()
            )));
        };
        let exec = c.compile(nir)?;
        self.create_exec_shader(exec)
    }
    fn shader_cache_identity(&self) -> Option<Vec<u8>> {
        self.compiler.as_ref()?.cache_identity()
    }
    fn wait_background_compiles(&self) {
        if let Some(c) = &self.compiler {
            c.wait_background();
        }
    }
    fn serialize_shader(&self, sh: ShaderHandle) -> Option<Vec<u8>> {
        self.shaders.get(sh.0).ok()?.serialize()
    }
    fn set_shader_code_store(
        &mut self,
        sh: ShaderHandle,
        store: Arc<dyn crate::exec::CodeStore>,
        id: Vec<u8>,
    ) -> Result<()> {
        self.shaders.get(sh.0)?.set_code_store(store, id);
        Ok(())
    }
    fn load_shader(&mut self, nir: &rgl_nir::ir::Shader, bytes: &[u8]) -> Result<ShaderHandle> {
        let Some(c) = self.compiler.clone() else {
            return Err(Error::Unsupported(
                "no NIR shader compiler installed in the software driver".into(),
            ));
        };
        let exec = c.load(nir, bytes)?;
        self.create_exec_shader(exec)
    }
    fn delete_shader(&mut self, sh: ShaderHandle) -> Result<()> {
        self.shaders.remove(sh.0)?;
        let b = &mut self.bound;
        for (h, s) in [
            (&mut b.vs_h, &mut b.vs),
            (&mut b.gs_h, &mut b.gs),
            (&mut b.fs_h, &mut b.fs),
        ] {
            if *h == Some(sh) {
                *h = None;
                *s = None;
            }
        }
        Ok(())
    }
    fn bind_shader(&mut self, stage: ShaderStage, sh: Option<ShaderHandle>) -> Result<()> {
        let exec = match sh {
            Some(h) => {
                let e = self.shaders.get(h.0)?.clone();
                if e.info().stage != stage {
                    return Err(Error::InvalidArgument(format!(
                        "binding a {:?} shader as {stage:?}",
                        e.info().stage
                    )));
                }
                Some(e)
            }
            None => None,
        };
        let b = &mut self.bound;
        match stage {
            ShaderStage::Vertex => (b.vs, b.vs_h) = (exec, sh),
            ShaderStage::Geometry => (b.gs, b.gs_h) = (exec, sh),
            ShaderStage::Fragment => (b.fs, b.fs_h) = (exec, sh),
        }
        Ok(())
    }

    fn create_blend_state(&mut self, s: &BlendState) -> Result<BlendHandle> {
        Ok(BlendHandle(self.blends.add(*s)?))
    }
    fn bind_blend_state(&mut self, h: BlendHandle) -> Result<()> {
        self.bound.blend = *self.blends.get(h.0)?;
        Ok(())
    }
    fn create_depth_stencil_state(&mut self, s: &DepthStencilState) -> Result<DepthStencilHandle> {
        Ok(DepthStencilHandle(self.dsas.add(*s)?))
    }
    fn bind_depth_stencil_state(&mut self, h: DepthStencilHandle) -> Result<()> {
        self.bound.dsa = *self.dsas.get(h.0)?;
        Ok(())
    }
    fn create_rasterizer_state(&mut self, s: &RasterizerState) -> Result<RasterizerHandle> {
        Ok(RasterizerHandle(self.rasts.add(*s)?))
    }
    fn bind_rasterizer_state(&mut self, h: RasterizerHandle) -> Result<()> {
        self.bound.rast = *self.rasts.get(h.0)?;
        Ok(())
    }
    fn create_sampler_state(&mut self, s: &SamplerState) -> Result<SamplerHandle> {
        Ok(SamplerHandle(self.samplers.add(*s)?))
    }
    fn bind_sampler_states(&mut self, samplers: &[Option<SamplerHandle>]) -> Result<()> {
        if samplers.len() > MAX_SAMPLER_SLOTS {
            return Err(Error::InvalidArgument(format!(
                "{} sampler slots",
                samplers.len()
            )));
        }
        let mut v = Vec::with_capacity(samplers.len());
        for s in samplers {
            v.push(match s {
                Some(h) => Some(*self.samplers.get(h.0)?),
                None => None,
            });
        }
        self.bound.samplers = v;
        Ok(())
    }
    fn create_vertex_elements(&mut self, elems: &[VertexSource]) -> Result<VertexElementsHandle> {
        if elems.len() > MAX_VERTEX_ELEMENTS {
            return Err(Error::InvalidArgument(format!(
                "{} vertex elements",
                elems.len()
            )));
        }
        for e in elems {
            if let VertexSource::Array { format, .. } = e {
                format.validate()?;
            }
        }
        Ok(VertexElementsHandle(
            self.velems.add(Arc::new(elems.to_vec()))?,
        ))
    }
    fn bind_vertex_elements(&mut self, h: VertexElementsHandle) -> Result<()> {
        self.bound.velems = self.velems.get(h.0)?.clone();
        Ok(())
    }
    fn delete_state(&mut self, h: StateHandle) -> Result<()> {
        match h {
            StateHandle::Blend(h) => self.blends.remove(h.0).map(|_| ()),
            StateHandle::DepthStencil(h) => self.dsas.remove(h.0).map(|_| ()),
            StateHandle::Rasterizer(h) => self.rasts.remove(h.0).map(|_| ()),
            StateHandle::Sampler(h) => self.samplers.remove(h.0).map(|_| ()),
            StateHandle::VertexElements(h) => self.velems.remove(h.0).map(|_| ()),
        }
    }

    fn set_framebuffer(&mut self, fb: &FramebufferState) -> Result<()> {
        if fb.colors.len() > MAX_RENDER_TARGETS {
            return Err(Error::InvalidArgument(format!(
                "{} color targets",
                fb.colors.len()
            )));
        }
        if fb.width > MAX_TEXTURE_SIZE || fb.height > MAX_TEXTURE_SIZE {
            return Err(Error::TooLarge(format!(
                "framebuffer {}x{}",
                fb.width, fb.height
            )));
        }
        for s in fb.colors.iter().flatten() {
            let t = self.textures.get(s.texture.0)?;
            if t.desc.format.is_depth() {
                return Err(Error::InvalidArgument(
                    "depth format as color target".into(),
                ));
            }
            self.check_surface(s)?;
        }
        if let Some(s) = &fb.zs {
            let t = self.textures.get(s.texture.0)?;
            if !t.desc.format.is_depth() {
                return Err(Error::InvalidArgument(
                    "color format as depth target".into(),
                ));
            }
            self.check_surface(s)?;
        }
        self.bound.fb = fb.clone();
        Ok(())
    }
    fn set_viewport(&mut self, vp: Viewport) -> Result<()> {
        let ok = |v: f32| v.is_finite();
        if ![vp.x, vp.y, vp.width, vp.height, vp.near, vp.far]
            .into_iter()
            .all(ok)
            || vp.width < 0.0
            || vp.height < 0.0
        {
            return Err(Error::InvalidArgument(format!("viewport {vp:?}")));
        }
        let lim = 2.0 * MAX_TEXTURE_SIZE as f32;
        self.bound.viewport = Viewport {
            x: vp.x.clamp(-lim, lim),
            y: vp.y.clamp(-lim, lim),
            width: vp.width.min(lim),
            height: vp.height.min(lim),
            near: vp.near.clamp(0.0, 1.0),
            far: vp.far.clamp(0.0, 1.0),
        };
        Ok(())
    }
    fn set_scissor(&mut self, r: Rect) -> Result<()> {
        self.bound.scissor = r;
        Ok(())
    }
    fn set_blend_color(&mut self, c: [f32; 4]) -> Result<()> {
        self.bound.blend_color = c;
        Ok(())
    }
    fn set_uniforms(&mut self, words: &[u32]) -> Result<()> {
        if words.len() > (1 << 20) {
            return Err(Error::TooLarge(format!("{} uniform words", words.len())));
        }
        self.bound.uniforms.clear();
        for c in words.chunks(4) {
            let mut s = [0u32; 4];
            s[..c.len()].copy_from_slice(c);
            self.bound.uniforms.push(s);
        }
        Ok(())
    }
    fn set_uniform_buffer(&mut self, slot: u32, range: Option<BufferRange>) -> Result<()> {
        if slot as usize >= MAX_UBO_SLOTS {
            return Err(Error::InvalidArgument(format!(
                "uniform buffer slot {slot}"
            )));
        }
        if let Some(r) = &range {
            self.buffers.get(r.buffer.0)?;
        }
        let u = &mut self.bound.ubos;
        if u.len() <= slot as usize {
            u.resize(slot as usize + 1, None);
        }
        u[slot as usize] = range;
        Ok(())
    }
    fn set_sampler_views(&mut self, views: &[Option<SamplerView>]) -> Result<()> {
        if views.len() > MAX_SAMPLER_SLOTS {
            return Err(Error::InvalidArgument(format!(
                "{} sampler views",
                views.len()
            )));
        }
        for v in views.iter().flatten() {
            let t = self.textures.get(v.texture.0)?;
            if v.first_level >= t.desc.levels || v.last_level < v.first_level {
                return Err(Error::InvalidArgument(format!("view levels {v:?}")));
            }
        }
        self.bound.views = views.to_vec();
        Ok(())
    }
    fn set_vertex_buffers(&mut self, bufs: &[VertexBufferBinding]) -> Result<()> {
        if bufs.len() > MAX_VERTEX_ELEMENTS {
            return Err(Error::InvalidArgument(format!(
                "{} vertex buffers",
                bufs.len()
            )));
        }
        for b in bufs {
            self.buffers.get(b.buffer.0)?;
        }
        self.bound.vbufs = bufs.to_vec();
        Ok(())
    }
    fn set_storage_buffers(&mut self, ranges: &[Option<BufferRange>]) -> Result<()> {
        if ranges.len() > MAX_STORAGE_BLOCKS {
            return Err(Error::InvalidArgument(format!(
                "{} storage buffer blocks",
                ranges.len()
            )));
        }
        for r in ranges.iter().flatten() {
            self.buffers.get(r.buffer.0)?;
        }
        self.bound.storage = ranges.to_vec();
        Ok(())
    }
    fn set_images(&mut self, images: &[Option<crate::driver::ImageBinding>]) -> Result<()> {
        if images.len() > crate::image::MAX_IMAGES {
            return Err(Error::InvalidArgument(format!(
                "{} image bindings",
                images.len()
            )));
        }
        for b in images.iter().flatten() {
            self.textures.get(b.texture.0)?;
        }
        self.bound.images = images.to_vec();
        Ok(())
    }
    fn draw(&mut self, info: &DrawInfo) -> Result<()> {
        draw::draw(self, info)
    }
    fn clear(&mut self, req: &ClearRequest) -> Result<()> {
        draw::clear(self, req)
    }
    fn read_surface(&mut self, s: Surface, r: Rect) -> Result<Vec<u8>> {
        let (w, h) = self.check_surface(&s)?;
        if r.x < 0
            || r.y < 0
            || r.x as u64 + r.width as u64 > w as u64
            || r.y as u64 + r.height as u64 > h as u64
        {
            return Err(Error::InvalidArgument(format!(
                "read rectangle {r:?} outside {w}x{h}"
            )));
        }
        // A 1D array layer is a row of the level; other layers are slices.
        let one_d_array = self.textures.get(s.texture.0)?.desc.target == TexTarget::D1Array;
        let (y, z) = if one_d_array {
            (s.layer + r.y as u32, 0)
        } else {
            (r.y as u32, s.layer)
        };
        self.texture_read(
            s.texture,
            s.level,
            TexBox {
                x: r.x as u32,
                y,
                z,
                width: r.width,
                height: r.height,
                depth: 1,
            },
        )
    }
    fn flush(&mut self) -> Result<()> {
        Ok(())
    }
    fn finish(&mut self) -> Result<()> {
        Ok(())
    }
    fn counters(&self) -> Counters {
        self.counters
    }
    fn reset_counters(&mut self) {
        self.counters = Counters::default();
    }

    fn create_compute_shader(&mut self, nir: &rgl_nir::ir::Shader) -> Result<ComputeShaderHandle> {
        let program = crate::compute::create(nir)?;
        Ok(ComputeShaderHandle(
            self.compute_shaders.add(Arc::new(program))?,
        ))
    }
    fn delete_compute_shader(&mut self, sh: ComputeShaderHandle) -> Result<()> {
        self.compute_shaders.remove(sh.0).map(|_| ())
    }
    fn dispatch_compute(
        &mut self,
        sh: ComputeShaderHandle,
        dispatch: &ComputeDispatch,
    ) -> Result<()> {
        let shader = self.compute_shaders.get(sh.0)?.clone();
        let inputs = crate::compute::ComputeInputs {
            uniforms: &self.bound.uniforms,
            ubos: &self.bound.ubos,
            views: &self.bound.views,
            samplers: &self.bound.samplers,
            budget: self.budget,
            threads: self.threads,
            engine: self.compute_engine,
        };
        crate::compute::dispatch(
            &shader,
            dispatch,
            &inputs,
            &mut self.buffers,
            &mut self.textures,
        )
    }
}

impl SoftDriver {
    /// Validates a surface and returns its size.
    pub(crate) fn check_surface(&self, s: &Surface) -> Result<(u32, u32)> {
        let t = self.textures.get(s.texture.0)?;
        if s.level >= t.desc.levels {
            return Err(Error::InvalidArgument(format!("surface level {}", s.level)));
        }
        let (w, h, d) = level_size(&t.desc, s.level);
        if t.desc.target == TexTarget::D1Array {
            if s.layer >= h {
                return Err(Error::InvalidArgument(format!("surface layer {}", s.layer)));
            }
            return Ok((w, 1));
        }
        if s.layer >= d {
            return Err(Error::InvalidArgument(format!("surface layer {}", s.layer)));
        }
        Ok((w, h))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pages of `bytes` the kernel has resident (`mincore(2)`), and the
    /// page count.
    fn resident_pages(bytes: &[u8]) -> (usize, usize) {
        // SAFETY: `sysconf` has no preconditions.
        let page = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).unwrap_or(4096);
        let start = bytes.as_ptr() as usize & !(page - 1);
        let end = bytes.as_ptr() as usize + bytes.len();
        let pages = (end - start).div_ceil(page);
        let mut vec = vec![0u8; pages];
        // SAFETY: `[start, end)` lies in pages of the live allocation `bytes`
        // (rounded down to its first page); `vec` has one byte per page.
        let rc =
            unsafe { libc::mincore(start as *mut libc::c_void, end - start, vec.as_mut_ptr()) };
        assert_eq!(rc, 0, "mincore failed");
        (vec.iter().filter(|b| **b & 1 != 0).count(), pages)
    }

    #[test]
    fn committed_zeroes_are_zero_and_resident() {
        // Lengths around page boundaries, and a 4 MiB render target's
        // worth (1024×1024 RGBA8), which `calloc` maps fresh.
        for len in [0usize, 1, 4095, 4096, 4097, 3 * 4096 + 5, 4 << 20] {
            let v = committed_zeroes(len);
            assert_eq!(v.len(), len);
            assert!(v.iter().all(|b| *b == 0), "{len} bytes not all zero");
            if len > 0 {
                let (resident, pages) = resident_pages(&v);
                assert_eq!(
                    resident, pages,
                    "{len} bytes: {resident} of {pages} pages resident"
                );
            }
        }
    }

    #[test]
    fn levels_over_the_limit_are_zero() {
        let len = COMMIT_LIMIT + 4096;
        let v = committed_zeroes(len);
        assert_eq!(v.len(), len);
        assert_eq!((v[0], v[len / 2], v[len - 1]), (0, 0, 0));
    }
}
