//! The [`Context`]: every piece of GL state, the error flag, and the queries for
//! strings and limits (`glGetString`, `glGetIntegerv`).

use std::sync::Arc;

use crate::background::CompileQueue;
use crate::buffer::{BufferBindings, BufferObject};
use crate::disk_cache::DiskCache;
use crate::draw::DrawScratch;
use crate::driver_state::DriverStateCache;
use crate::error::{GlError, GlResult};
use crate::fixed_function::FixedFunctionShaders;
use crate::fixed_state::FixedState;
use crate::framebuffer::FramebufferObjects;
use crate::gl;
use crate::limits;
use crate::matrices::MatrixState;
use crate::names::{NameTable, Program, VertexArray};
use crate::shader::GlslObject;
use crate::texture::TextureState;
use crate::variants::{VariantCache, VariantStats};
use crate::vertex_array::VertexArrayObject;
use rgl_backend::driver::ShaderStage;
use rgl_backend::{registry, Driver};
use rgl_nir::options::StageOptions;

/// API extensions that have no GLSL side, advertised besides the shading
/// language's: `GL_KHR_parallel_shader_compile` and its ARB twin (the same enums;
/// compiles and links run on the context's compiler threads, polled with
/// `GL_COMPLETION_STATUS_KHR`, sized with `max_shader_compiler_threads`).
const API_EXTENSIONS: &[&str] = &[
    "GL_ARB_parallel_shader_compile",
    "GL_KHR_parallel_shader_compile",
];

/// Extensions the front end compiles but the rest of the stack cannot run yet:
/// not advertised to applications. `GL_ARB_enhanced_layouts`: its `xfb_*`
/// qualifiers have no transform feedback to drive, and its API queries
/// (`GL_LOCATION_COMPONENT`, the transform feedback buffer resources) do not
/// exist. The others are listed with their reason.
const COMPILER_ONLY: &[&str] = &[
    "GL_ARB_enhanced_layouts",
    // No cube map array textures in the state tracker or the driver yet.
    "GL_ARB_texture_cube_map_array",
    // The language part only: no program pipeline objects yet.
    "GL_ARB_separate_shader_objects",
];

/// The GL extensions advertised, in `glGetStringi` order: the desktop GLSL
/// extensions the front end supports at GLSL 3.30 (less [`COMPILER_ONLY`]),
/// then [`API_EXTENSIONS`].
pub fn extensions() -> Vec<&'static str> {
    rgl_glsl::extensions::supported(rgl_glsl::Version::desktop(330), rgl_glsl::Stage::Fragment)
        .filter(|name| !COMPILER_ONLY.contains(name))
        .chain(API_EXTENSIONS.iter().copied())
        .collect()
}

/// A GL context with a headless default framebuffer.
///
/// A `Context` is `Send` and not `Sync`: it may move to another thread, and one
/// thread at a time uses it (see the crate documentation's threading rules).
pub struct Context {
    pub(crate) error: Option<GlError>,
    pub(crate) glsl_objects: NameTable<GlslObject>,
    pub(crate) current_program: Option<Program>,
    pub(crate) variant_stats: VariantStats,
    pub(crate) width: u32,
    pub(crate) height: u32,
    pub(crate) buffers: NameTable<BufferObject>,
    pub(crate) syncs: NameTable<crate::sync::SyncObject>,
    pub(crate) query_objects: NameTable<crate::query::QueryObject>,
    pub(crate) queries: crate::query::QueryState,
    pub(crate) buffer_bindings: BufferBindings,
    /// Image units (GL 4.2 §8.26, `glBindImageTexture`).
    pub(crate) image_units: Vec<crate::image_units::ImageUnit>,
    pub(crate) vertex_arrays: NameTable<VertexArrayObject>,
    pub(crate) default_vao: VertexArrayObject,
    pub(crate) bound_vao: Option<VertexArray>,
    /// Current generic attribute values (`glVertexAttrib4f`), raw words.
    pub(crate) current_attribs: [[u32; 4]; limits::MAX_VERTEX_ATTRIBS as usize],
    pub(crate) fixed: FixedState,
    pub(crate) matrices: MatrixState,
    /// `glClientActiveTexture` unit (compatibility).
    pub(crate) client_active_texture: u32,
    /// The driver every draw, clear and read goes to.
    pub(crate) driver: Box<dyn Driver>,
    /// What the driver asks of the compiler, per stage (asked once, at creation).
    pub(crate) compiler_options: StageOptions,
    /// Texture and sampler objects, texture units.
    pub(crate) textures: TextureState,
    /// Framebuffer and renderbuffer objects, the default framebuffer.
    pub(crate) framebuffers: FramebufferObjects,
    /// Compiled shader variants.
    pub(crate) variants: VariantCache,
    /// Why the last draw failed (see `last_draw_error`).
    pub(crate) draw_error: Option<String>,
    /// Reused buffers of the draw path.
    pub(crate) draw_scratch: DrawScratch,
    /// Driver state objects of the last draws.
    pub(crate) driver_states: DriverStateCache,
    /// Stand-ins for fixed-function vertex and fragment processing.
    pub(crate) fixed_function: FixedFunctionShaders,
    /// The threads compiles and links run on.
    pub(crate) compile_queue: CompileQueue,
    /// The on-disk shader cache links look programs up in (`None`: off).
    pub(crate) disk_cache: Option<Arc<DiskCache>>,
    /// The driver's compute shaders of the programs dispatched.
    pub(crate) compute_shaders: crate::compute::ComputeShaders,
    /// The named strings `#include` reads (`GL_ARB_shading_language_include`).
    pub(crate) named_strings: crate::named_strings::NamedStrings,
}

// The threading rules rest on this: a context moves between threads.
const _: fn() = || {
    fn send<T: Send>() {}
    send::<Context>();
};

impl Context {
    /// A context whose default framebuffer is `width` × `height` (RGBA8 color,
    /// 24-bit depth, 8-bit stencil), on the driver `RGL_DRIVER` names or else the
    /// default one (see `rgl_backend::registry`). The driver uses every available
    /// core (`RGL_THREADS` overrides the count).
    pub fn new_headless(width: u32, height: u32) -> Context {
        let config = registry::DriverConfig::from_env();
        Context::with_driver(registry::create_from_env(&config), width, height)
    }

    /// A context on the driver called `name` in `rgl_backend::registry` (an
    /// unknown name, or a driver this host cannot run, is an error).
    pub fn new_headless_on(
        name: &str,
        width: u32,
        height: u32,
    ) -> Result<Context, rgl_backend::Error> {
        let config = registry::DriverConfig::from_env();
        let driver = registry::create(Some(name), &config)?;
        Ok(Context::with_driver(driver, width, height))
    }

    /// A context drawing through `driver`, with a `width` × `height` default
    /// framebuffer (sizes are clamped to 1..=`MAX_RENDERBUFFER_SIZE`).
    pub fn with_driver(mut driver: Box<dyn Driver>, width: u32, height: u32) -> Context {
        let max = limits::MAX_RENDERBUFFER_SIZE;
        let (width, height) = (width.clamp(1, max), height.clamp(1, max));
        let framebuffers = FramebufferObjects::new(driver.as_mut(), width, height);
        let mut compiler_options = StageOptions::default();
        for stage in [
            ShaderStage::Vertex,
            ShaderStage::Geometry,
            ShaderStage::Fragment,
        ] {
            compiler_options.set(stage.into(), driver.compiler_options(stage));
        }
        Context {
            error: None,
            glsl_objects: NameTable::default(),
            current_program: None,
            variant_stats: VariantStats::default(),
            width,
            height,
            buffers: NameTable::default(),
            syncs: NameTable::default(),
            query_objects: NameTable::default(),
            queries: crate::query::QueryState::default(),
            buffer_bindings: BufferBindings::default(),
            image_units: vec![
                crate::image_units::ImageUnit::default();
                crate::image_units::MAX_IMAGE_UNITS as usize
            ],
            vertex_arrays: NameTable::default(),
            default_vao: VertexArrayObject::default(),
            bound_vao: None,
            current_attribs: [[0, 0, 0, 1.0f32.to_bits()]; limits::MAX_VERTEX_ATTRIBS as usize],
            fixed: FixedState::new(width, height),
            matrices: MatrixState::default(),
            client_active_texture: 0,
            driver,
            compiler_options,
            textures: TextureState::default(),
            framebuffers,
            variants: VariantCache::default(),
            draw_error: None,
            draw_scratch: DrawScratch::default(),
            driver_states: DriverStateCache::default(),
            fixed_function: FixedFunctionShaders::default(),
            compile_queue: CompileQueue::from_env(),
            disk_cache: DiskCache::from_env(),
            compute_shaders: Default::default(),
            named_strings: Default::default(),
        }
    }

    /// Records `e` unless an error is already pending (GL keeps the first).
    pub(crate) fn record(&mut self, e: GlError) {
        log::debug!("GL error {e}");
        if self.error.is_none() {
            self.error = Some(e);
        }
    }

    /// Records the error of a failed operation; the value of a successful one.
    pub(crate) fn check<T>(&mut self, r: GlResult<T>) -> Option<T> {
        match r {
            Ok(v) => Some(v),
            Err(e) => {
                self.record(e);
                None
            }
        }
    }

    /// `glGetError`: the pending error (clearing it), or `GL_NO_ERROR`.
    pub fn get_error(&mut self) -> u32 {
        self.error.take().map_or(gl::NO_ERROR, GlError::code)
    }

    /// `glGetString`.
    pub fn get_parameter_string(&mut self, pname: u32) -> String {
        match pname {
            gl::VENDOR => "rgl".into(),
            gl::RENDERER => format!("rgl ({})", self.driver.name()),
            gl::VERSION => {
                let v = crate::version::reported();
                format!(
                    "{}.{} (Compatibility Profile) rgl {}",
                    v.major,
                    v.minor,
                    env!("CARGO_PKG_VERSION")
                )
            }
            gl::SHADING_LANGUAGE_VERSION => crate::version::reported().glsl_string(),
            gl::EXTENSIONS => extensions().join(" "),
            _ => {
                self.record(GlError::InvalidEnum);
                String::new()
            }
        }
    }

    /// `glGetStringi` (GL 3.3 §6.1.5): `GL_EXTENSIONS` is the only indexed
    /// string. Another name is `GL_INVALID_ENUM`; an index at or past
    /// `GL_NUM_EXTENSIONS` is `GL_INVALID_VALUE`. Both return an empty string.
    pub fn get_parameter_string_indexed(&mut self, pname: u32, index: u32) -> String {
        if pname != gl::EXTENSIONS {
            self.record(GlError::InvalidEnum);
            return String::new();
        }
        match extensions().get(index as usize) {
            Some(name) => (*name).to_string(),
            None => {
                self.record(GlError::InvalidValue);
                String::new()
            }
        }
    }

    /// `glGetIntegerv` for single-valued limits and bindings.
    pub fn get_parameter_i32(&mut self, pname: u32) -> i32 {
        use rgl_glsl::builtins::variables::limits as glsl_limits;
        // The signed limits: texel offsets (the `gl_Min/MaxProgramTexelOffset`
        // the compiler checks) and gather offsets (any offset wraps like a
        // texel coordinate in rgl's gather, `backend/src/texture/gather.rs`;
        // llvmpipe's -32..31 range).
        match pname {
            gl::MIN_PROGRAM_TEXEL_OFFSET => return glsl_limits::MIN_PROGRAM_TEXEL_OFFSET,
            gl::MAX_PROGRAM_TEXEL_OFFSET => return glsl_limits::MAX_PROGRAM_TEXEL_OFFSET,
            gl::MIN_PROGRAM_TEXTURE_GATHER_OFFSET => return -32,
            gl::MAX_PROGRAM_TEXTURE_GATHER_OFFSET => return 31,
            // ARB_texture_gather: 4 (every component may be gathered).
            gl::MAX_PROGRAM_TEXTURE_GATHER_COMPONENTS_ARB => return 4,
            _ => {}
        }
        let v = match pname {
            gl::MAX_VERTEX_ATTRIBS => limits::MAX_VERTEX_ATTRIBS,
            gl::MAX_TEXTURE_IMAGE_UNITS => limits::MAX_TEXTURE_IMAGE_UNITS,
            gl::MAX_VERTEX_TEXTURE_IMAGE_UNITS => limits::MAX_VERTEX_TEXTURE_IMAGE_UNITS,
            gl::MAX_GEOMETRY_TEXTURE_IMAGE_UNITS => limits::MAX_GEOMETRY_TEXTURE_IMAGE_UNITS,
            gl::MAX_COMBINED_TEXTURE_IMAGE_UNITS => limits::MAX_COMBINED_TEXTURE_IMAGE_UNITS,
            gl::MAX_VERTEX_UNIFORM_COMPONENTS => limits::MAX_VERTEX_UNIFORM_COMPONENTS,
            gl::MAX_FRAGMENT_UNIFORM_COMPONENTS => limits::MAX_FRAGMENT_UNIFORM_COMPONENTS,
            gl::MAX_GEOMETRY_UNIFORM_COMPONENTS => limits::MAX_GEOMETRY_UNIFORM_COMPONENTS,
            gl::MAX_VARYING_COMPONENTS => limits::MAX_VARYING_COMPONENTS,
            gl::MAX_VERTEX_OUTPUT_COMPONENTS => limits::MAX_VERTEX_OUTPUT_COMPONENTS,
            gl::MAX_GEOMETRY_INPUT_COMPONENTS => limits::MAX_GEOMETRY_INPUT_COMPONENTS,
            gl::MAX_GEOMETRY_OUTPUT_COMPONENTS => limits::MAX_GEOMETRY_OUTPUT_COMPONENTS,
            gl::MAX_FRAGMENT_INPUT_COMPONENTS => limits::MAX_FRAGMENT_INPUT_COMPONENTS,
            gl::MAX_GEOMETRY_OUTPUT_VERTICES => limits::MAX_GEOMETRY_OUTPUT_VERTICES,
            gl::MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS => {
                limits::MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS
            }
            gl::MAX_UNIFORM_BUFFER_BINDINGS => limits::MAX_UNIFORM_BUFFER_BINDINGS,
            gl::MAX_UNIFORM_BLOCK_SIZE => limits::MAX_UNIFORM_BLOCK_SIZE,
            gl::MAX_UNIFORM_LOCATIONS => limits::MAX_UNIFORM_LOCATIONS,
            gl::MAX_VERTEX_UNIFORM_BLOCKS => limits::MAX_VERTEX_UNIFORM_BLOCKS,
            gl::MAX_GEOMETRY_UNIFORM_BLOCKS => limits::MAX_GEOMETRY_UNIFORM_BLOCKS,
            gl::MAX_FRAGMENT_UNIFORM_BLOCKS => limits::MAX_FRAGMENT_UNIFORM_BLOCKS,
            gl::MAX_COMBINED_UNIFORM_BLOCKS => limits::MAX_COMBINED_UNIFORM_BLOCKS,
            gl::UNIFORM_BUFFER_OFFSET_ALIGNMENT => limits::UNIFORM_BUFFER_OFFSET_ALIGNMENT,
            gl::MAX_TEXTURE_SIZE => limits::MAX_TEXTURE_SIZE,
            gl::MAX_3D_TEXTURE_SIZE => limits::MAX_3D_TEXTURE_SIZE,
            gl::MAX_CUBE_MAP_TEXTURE_SIZE => limits::MAX_CUBE_MAP_TEXTURE_SIZE,
            gl::MAX_ARRAY_TEXTURE_LAYERS => limits::MAX_ARRAY_TEXTURE_LAYERS,
            gl::MAX_RECTANGLE_TEXTURE_SIZE => limits::MAX_RECTANGLE_TEXTURE_SIZE,
            gl::MAX_RENDERBUFFER_SIZE => limits::MAX_RENDERBUFFER_SIZE,
            gl::MAX_DRAW_BUFFERS => limits::MAX_DRAW_BUFFERS,
            gl::MAX_COLOR_ATTACHMENTS => limits::MAX_COLOR_ATTACHMENTS,
            gl::MAX_CLIP_DISTANCES => limits::MAX_CLIP_DISTANCES,
            gl::MAX_COMPUTE_WORK_GROUP_INVOCATIONS => limits::MAX_COMPUTE_WORK_GROUP_INVOCATIONS,
            gl::MAX_COMPUTE_UNIFORM_BLOCKS => limits::MAX_COMPUTE_UNIFORM_BLOCKS,
            gl::MAX_COMPUTE_TEXTURE_IMAGE_UNITS => limits::MAX_COMPUTE_TEXTURE_IMAGE_UNITS,
            gl::MAX_COMPUTE_IMAGE_UNIFORMS => limits::MAX_COMPUTE_IMAGE_UNIFORMS,
            gl::MAX_COMPUTE_SHARED_MEMORY_SIZE => limits::MAX_COMPUTE_SHARED_MEMORY_SIZE,
            gl::MAX_COMPUTE_UNIFORM_COMPONENTS => limits::MAX_COMPUTE_UNIFORM_COMPONENTS,
            gl::MAX_COMBINED_COMPUTE_UNIFORM_COMPONENTS => {
                limits::MAX_COMPUTE_UNIFORM_COMPONENTS
                    + limits::MAX_COMPUTE_UNIFORM_BLOCKS * limits::MAX_UNIFORM_BLOCK_SIZE / 4
            }
            gl::MAX_VERTEX_SHADER_STORAGE_BLOCKS
            | gl::MAX_GEOMETRY_SHADER_STORAGE_BLOCKS
            | gl::MAX_TESS_CONTROL_SHADER_STORAGE_BLOCKS
            | gl::MAX_TESS_EVALUATION_SHADER_STORAGE_BLOCKS
            | gl::MAX_FRAGMENT_SHADER_STORAGE_BLOCKS
            | gl::MAX_COMPUTE_SHADER_STORAGE_BLOCKS => limits::MAX_SHADER_STORAGE_BLOCKS_PER_STAGE,
            gl::MAX_COMBINED_SHADER_STORAGE_BLOCKS => limits::MAX_COMBINED_SHADER_STORAGE_BLOCKS,
            gl::MAX_SHADER_STORAGE_BUFFER_BINDINGS => limits::MAX_SHADER_STORAGE_BUFFER_BINDINGS,
            // GL 4.2 §8.26 image limits (table 23.61), as the linker checks them.
            gl::MAX_IMAGE_UNITS => crate::image_units::MAX_IMAGE_UNITS,
            gl::MAX_VERTEX_IMAGE_UNIFORMS
            | gl::MAX_GEOMETRY_IMAGE_UNIFORMS
            | gl::MAX_FRAGMENT_IMAGE_UNIFORMS => {
                rgl_link::linker::uniforms::MAX_STAGE_IMAGE_UNIFORMS as u32
            }
            gl::MAX_COMBINED_IMAGE_UNIFORMS => {
                rgl_link::linker::uniforms::MAX_COMBINED_IMAGE_UNIFORMS as u32
            }
            // No multisample textures: image samples are not counted.
            gl::MAX_IMAGE_SAMPLES => 0,
            gl::MAX_SHADER_STORAGE_BLOCK_SIZE => limits::MAX_SHADER_STORAGE_BLOCK_SIZE,
            gl::SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT => {
                limits::SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT
            }
            gl::MAX_COMBINED_SHADER_OUTPUT_RESOURCES => {
                limits::MAX_DRAW_BUFFERS + limits::MAX_COMBINED_SHADER_STORAGE_BLOCKS
            }
            gl::MAX_VERTEX_ATOMIC_COUNTERS
            | gl::MAX_TESS_CONTROL_ATOMIC_COUNTERS
            | gl::MAX_TESS_EVALUATION_ATOMIC_COUNTERS
            | gl::MAX_GEOMETRY_ATOMIC_COUNTERS
            | gl::MAX_FRAGMENT_ATOMIC_COUNTERS
            | gl::MAX_COMPUTE_ATOMIC_COUNTERS
            | gl::MAX_COMBINED_ATOMIC_COUNTERS => limits::MAX_ATOMIC_COUNTERS_PER_STAGE,
            gl::MAX_VERTEX_ATOMIC_COUNTER_BUFFERS
            | gl::MAX_TESS_CONTROL_ATOMIC_COUNTER_BUFFERS
            | gl::MAX_TESS_EVALUATION_ATOMIC_COUNTER_BUFFERS
            | gl::MAX_GEOMETRY_ATOMIC_COUNTER_BUFFERS
            | gl::MAX_FRAGMENT_ATOMIC_COUNTER_BUFFERS
            | gl::MAX_COMPUTE_ATOMIC_COUNTER_BUFFERS
            | gl::MAX_COMBINED_ATOMIC_COUNTER_BUFFERS => {
                limits::MAX_ATOMIC_COUNTER_BUFFERS_PER_STAGE
            }
            gl::MAX_ATOMIC_COUNTER_BUFFER_SIZE => limits::MAX_ATOMIC_COUNTER_BUFFER_SIZE,
            gl::MAX_ATOMIC_COUNTER_BUFFER_BINDINGS => limits::MAX_ATOMIC_COUNTER_BUFFER_BINDINGS,
            // glWaitSync never waits on rgl's single in-order queue (sync.rs).
            gl::MAX_SERVER_WAIT_TIMEOUT => 0,
            // GL 4.x Table 23.64 minimums; rgl_glsl's checker enforces them.
            gl::MAX_SUBROUTINES => 256,
            gl::MAX_SUBROUTINE_UNIFORM_LOCATIONS => 1024,
            gl::MAJOR_VERSION => crate::version::reported().major,
            gl::MINOR_VERSION => crate::version::reported().minor,
            gl::NUM_EXTENSIONS => extensions().len() as u32,
            gl::MAX_SHADER_COMPILER_THREADS_KHR => self.compile_queue.threads(),
            gl::CURRENT_PROGRAM => self.current_program.map_or(0, |p| p.name()),
            gl::ARRAY_BUFFER_BINDING => self.buffer_bindings.array.map_or(0, |b| b.name()),
            gl::ELEMENT_ARRAY_BUFFER_BINDING => self.vao().element_buffer.map_or(0, |b| b.name()),
            gl::VERTEX_ARRAY_BINDING => self.bound_vao.map_or(0, |v| v.name()),
            _ => {
                if let Some(v) = self.texture_parameter_i32(pname) {
                    return v;
                }
                if let Some(v) = self.hint_parameter(pname) {
                    return v;
                }
                if let Some(v) = self.state_parameter_i32(pname) {
                    return v;
                }
                self.record(GlError::InvalidEnum);
                return 0;
            }
        };
        v as i32
    }

    /// Size of the default framebuffer.
    pub fn default_framebuffer_size(&self) -> (u32, u32) {
        (self.width, self.height)
    }
}
