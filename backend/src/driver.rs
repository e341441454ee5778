//! The driver interface the state tracker talks to, in the spirit of gallium's
//! `pipe_screen` + `pipe_context`: resources (buffers, textures), shader objects compiled
//! from finalized NIR, immutable state objects (blend, depth-stencil, rasterizer,
//! sampler, vertex elements) created once and bound by handle, plain parameter state
//! (framebuffer, viewport, scissor, constants, sampler views, vertex buffers), and the
//! commands draw, clear, read back, flush and finish.
//!
//! Conventions:
//! * Window coordinates are GL's: pixel row 0 is the bottom row; `read_surface` returns
//!   rows bottom-up, like `glReadPixels`.
//! * A shader's texture slot `n` (NIR `texture_index == sampler_index == n`) reads the
//!   sampler view and sampler state bound at slot `n`.
//! * Vertex element `i` feeds the vertex shader input whose `driver_location` is `i`.
//! * Uniform storage is vec4 slots of 32-bit words shared by all stages (`load_uniform`);
//!   uniform block `b` (`load_ubo(b, ...)`) reads the buffer range bound at slot `b`.
//! * Handles are never reused while alive; using a deleted handle is an
//!   [`Error::InvalidHandle`](crate::Error::InvalidHandle), never a panic.

use crate::format::{Format, VertexFormat};
use crate::Result;

macro_rules! handle {
    ($(#[$m:meta])* $name:ident) => {
        $(#[$m])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u32);
    };
}
handle!(
    /// A buffer resource (vertex, index or uniform data).
    BufferHandle
);
handle!(
    /// A texture resource (also used as render target).
    TextureHandle
);
handle!(
    /// A compiled shader.
    ShaderHandle
);
handle!(
    /// A compute shader (GL 4.3 §19), created by
    /// [`Driver::create_compute_shader`].
    ComputeShaderHandle
);
handle!(
    /// A blend state object.
    BlendHandle
);
handle!(
    /// A depth-stencil-alpha state object.
    DepthStencilHandle
);
handle!(
    /// A rasterizer state object.
    RasterizerHandle
);
handle!(
    /// A sampler state object.
    SamplerHandle
);
handle!(
    /// A vertex elements (input layout) object.
    VertexElementsHandle
);

/// Texture target (dimensionality and layering).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TexTarget {
    /// 1D.
    D1,
    /// 2D.
    D2,
    /// 3D.
    D3,
    /// Cube map: 6 layers in +X, -X, +Y, -Y, +Z, -Z order.
    Cube,
    /// Rectangle texture: unnormalized coordinates, one level.
    Rect,
    /// 1D array: `height` is the layer count.
    D1Array,
    /// 2D array: `depth` is the layer count.
    D2Array,
}

/// Texture creation parameters.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TextureDesc {
    /// Target.
    pub target: TexTarget,
    /// Storage format.
    pub format: Format,
    /// Width of level 0.
    pub width: u32,
    /// Height of level 0 (layers for 1D arrays, 1 for 1D).
    pub height: u32,
    /// Depth of level 0 (3D), layers (2D arrays; 6 for cube), else 1.
    pub depth: u32,
    /// Mip level count (≥ 1).
    pub levels: u32,
}

/// A box of texels inside one mip level (z is a slice / layer index).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct TexBox {
    /// First column.
    pub x: u32,
    /// First row.
    pub y: u32,
    /// First slice or layer.
    pub z: u32,
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// Slices or layers.
    pub depth: u32,
}

/// One component of a sampler view swizzle (`GL_TEXTURE_SWIZZLE_*`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Swizzle {
    /// Red.
    R,
    /// Green.
    G,
    /// Blue.
    B,
    /// Alpha.
    A,
    /// Constant 0.
    Zero,
    /// Constant 1.
    One,
}

impl Swizzle {
    /// The identity swizzle: each channel reads itself (`GL_TEXTURE_SWIZZLE_RGBA`'s initial value).
    pub const IDENTITY: [Swizzle; 4] = [Swizzle::R, Swizzle::G, Swizzle::B, Swizzle::A];
}

/// How a shader sees a texture (`pipe_sampler_view`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SamplerView {
    /// The texture.
    pub texture: TextureHandle,
    /// `GL_TEXTURE_BASE_LEVEL`.
    pub first_level: u32,
    /// `GL_TEXTURE_MAX_LEVEL` (clamped to the texture's levels).
    pub last_level: u32,
    /// Component swizzle.
    pub swizzle: [Swizzle; 4],
}

/// Texture coordinate wrap mode.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Wrap {
    /// `GL_REPEAT`.
    Repeat,
    /// `GL_MIRRORED_REPEAT`.
    MirroredRepeat,
    /// `GL_CLAMP_TO_EDGE`.
    ClampToEdge,
    /// `GL_CLAMP_TO_BORDER`.
    ClampToBorder,
    /// `GL_MIRROR_CLAMP_TO_EDGE`.
    MirrorClampToEdge,
    /// Legacy `GL_CLAMP` (clamp the coordinate to [0, 1]; linear filtering blends
    /// with the border).
    Clamp,
}

/// Texel filter.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Filter {
    /// Nearest texel.
    Nearest,
    /// Bilinear (trilinear with [`MipFilter::Linear`]).
    Linear,
}

/// Mipmap selection.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MipFilter {
    /// Base level only.
    None,
    /// Nearest level.
    Nearest,
    /// Blend the two nearest levels.
    Linear,
}

/// Sampler state (`pipe_sampler_state`).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SamplerState {
    /// Wrap of s, t, r.
    pub wrap: [Wrap; 3],
    /// Magnification filter.
    pub mag: Filter,
    /// Minification filter.
    pub min: Filter,
    /// Mip filter.
    pub mip: MipFilter,
    /// `GL_TEXTURE_LOD_BIAS`.
    pub lod_bias: f32,
    /// `GL_TEXTURE_MIN_LOD`.
    pub min_lod: f32,
    /// `GL_TEXTURE_MAX_LOD`.
    pub max_lod: f32,
    /// Border color (float; integer formats are not stored by this driver).
    pub border: [f32; 4],
    /// Shadow comparison (`GL_COMPARE_REF_TO_TEXTURE` with this function).
    pub compare: Option<CompareFunc>,
}

impl Default for SamplerState {
    fn default() -> Self {
        SamplerState {
            wrap: [Wrap::Repeat; 3],
            mag: Filter::Linear,
            min: Filter::Nearest,
            mip: MipFilter::Linear,
            lod_bias: 0.0,
            min_lod: -1000.0,
            max_lod: 1000.0,
            border: [0.0; 4],
            compare: None,
        }
    }
}

/// A level/layer of a texture used as a render target.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Surface {
    /// The texture.
    pub texture: TextureHandle,
    /// Mip level.
    pub level: u32,
    /// Layer, cube face or 3D slice.
    pub layer: u32,
}

/// Render targets (`pipe_framebuffer_state`). Color slot `n` receives fragment output
/// `FRAG_RESULT_DATA0 + n` (or `FRAG_RESULT_COLOR` in every slot).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FramebufferState {
    /// Width in pixels (rendering is clipped to it and to every surface).
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Color surfaces (up to [`MAX_RENDER_TARGETS`]).
    pub colors: Vec<Option<Surface>>,
    /// Depth and/or stencil surface.
    pub zs: Option<Surface>,
}

/// Maximum color attachments.
pub const MAX_RENDER_TARGETS: usize = 8;
/// Maximum texture/sampler slots.
pub const MAX_SAMPLER_SLOTS: usize = 32;
/// Maximum uniform block slots.
pub const MAX_UBO_SLOTS: usize = 16;
/// Maximum vertex elements.
pub const MAX_VERTEX_ELEMENTS: usize = 32;
/// Maximum user clip distances.
pub const MAX_CLIP_DISTANCES: usize = 8;

/// Viewport transform and depth range.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Viewport {
    /// Left edge.
    pub x: f32,
    /// Bottom edge.
    pub y: f32,
    /// Width.
    pub width: f32,
    /// Height.
    pub height: f32,
    /// `glDepthRange` near.
    pub near: f32,
    /// `glDepthRange` far.
    pub far: f32,
}

/// A pixel rectangle (x, y from the bottom-left).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rect {
    /// Left.
    pub x: i32,
    /// Bottom.
    pub y: i32,
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
}

/// Comparison function for depth, stencil and shadow tests.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CompareFunc {
    /// Never passes.
    Never,
    /// `<`.
    Less,
    /// `==`.
    Equal,
    /// `<=`.
    LessEqual,
    /// `>`.
    Greater,
    /// `!=`.
    NotEqual,
    /// `>=`.
    GreaterEqual,
    /// Always passes.
    Always,
}

impl CompareFunc {
    /// `a FUNC b`.
    #[inline]
    pub fn test<T: PartialOrd>(self, a: T, b: T) -> bool {
        match self {
            CompareFunc::Never => false,
            CompareFunc::Less => a < b,
            CompareFunc::Equal => a == b,
            CompareFunc::LessEqual => a <= b,
            CompareFunc::Greater => a > b,
            CompareFunc::NotEqual => a != b,
            CompareFunc::GreaterEqual => a >= b,
            CompareFunc::Always => true,
        }
    }
}

/// Blend factor (`GL_*` blend functions, including dual-source `SRC1_*`).
#[allow(missing_docs)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BlendFactor {
    Zero,
    One,
    SrcColor,
    OneMinusSrcColor,
    DstColor,
    OneMinusDstColor,
    SrcAlpha,
    OneMinusSrcAlpha,
    DstAlpha,
    OneMinusDstAlpha,
    ConstantColor,
    OneMinusConstantColor,
    ConstantAlpha,
    OneMinusConstantAlpha,
    SrcAlphaSaturate,
    Src1Color,
    OneMinusSrc1Color,
    Src1Alpha,
    OneMinusSrc1Alpha,
}

/// Blend equation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BlendEquation {
    /// `s*S + d*D`.
    Add,
    /// `s*S - d*D`.
    Subtract,
    /// `d*D - s*S`.
    ReverseSubtract,
    /// `min(S, D)` (factors ignored).
    Min,
    /// `max(S, D)` (factors ignored).
    Max,
}

/// Blend state of one render target.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct RtBlend {
    /// `GL_BLEND` for this buffer.
    pub enabled: bool,
    /// RGB equation.
    pub rgb_eq: BlendEquation,
    /// RGB source factor.
    pub src_rgb: BlendFactor,
    /// RGB destination factor.
    pub dst_rgb: BlendFactor,
    /// Alpha equation.
    pub alpha_eq: BlendEquation,
    /// Alpha source factor.
    pub src_alpha: BlendFactor,
    /// Alpha destination factor.
    pub dst_alpha: BlendFactor,
    /// Color write mask: bit 0 R, 1 G, 2 B, 3 A.
    pub color_mask: u8,
}

impl Default for RtBlend {
    fn default() -> Self {
        RtBlend {
            enabled: false,
            rgb_eq: BlendEquation::Add,
            src_rgb: BlendFactor::One,
            dst_rgb: BlendFactor::Zero,
            alpha_eq: BlendEquation::Add,
            src_alpha: BlendFactor::One,
            dst_alpha: BlendFactor::Zero,
            color_mask: 0xf,
        }
    }
}

/// Blend state (`pipe_blend_state`), one entry per render target.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct BlendState {
    /// Per render target.
    pub rt: [RtBlend; MAX_RENDER_TARGETS],
}

/// Stencil operation.
#[allow(missing_docs)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum StencilOp {
    Keep,
    Zero,
    Replace,
    Incr,
    Decr,
    Invert,
    IncrWrap,
    DecrWrap,
}

/// Stencil state of one face.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct StencilFace {
    /// Test function (`ref FUNC stored`, both masked).
    pub func: CompareFunc,
    /// Reference value.
    pub reference: u8,
    /// Mask applied to both sides of the test.
    pub value_mask: u8,
    /// Bits written.
    pub write_mask: u8,
    /// Op when the stencil test fails.
    pub fail_op: StencilOp,
    /// Op when stencil passes and depth fails.
    pub zfail_op: StencilOp,
    /// Op when both pass.
    pub zpass_op: StencilOp,
}

impl Default for StencilFace {
    fn default() -> Self {
        StencilFace {
            func: CompareFunc::Always,
            reference: 0,
            value_mask: 0xff,
            write_mask: 0xff,
            fail_op: StencilOp::Keep,
            zfail_op: StencilOp::Keep,
            zpass_op: StencilOp::Keep,
        }
    }
}

/// Depth and stencil state (`pipe_depth_stencil_alpha_state`; alpha test is lowered
/// into the shader by the state tracker).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct DepthStencilState {
    /// `GL_DEPTH_TEST`.
    pub depth_test: bool,
    /// `glDepthMask`.
    pub depth_write: bool,
    /// `glDepthFunc`.
    pub depth_func: CompareFunc,
    /// `GL_STENCIL_TEST`.
    pub stencil_test: bool,
    /// Front-facing stencil state.
    pub front: StencilFace,
    /// Back-facing stencil state.
    pub back: StencilFace,
}

impl Default for DepthStencilState {
    fn default() -> Self {
        DepthStencilState {
            depth_test: false,
            depth_write: true,
            depth_func: CompareFunc::Less,
            stencil_test: false,
            front: StencilFace::default(),
            back: StencilFace::default(),
        }
    }
}

/// Which faces are culled.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CullFace {
    /// Cull nothing.
    None,
    /// Cull front faces.
    Front,
    /// Cull back faces.
    Back,
    /// Cull all polygons (points and lines still draw).
    FrontAndBack,
}

/// `glPolygonMode`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PolygonMode {
    /// Filled.
    Fill,
    /// Edges as lines.
    Line,
    /// Vertices as points.
    Point,
}

/// Rasterizer state (`pipe_rasterizer_state`).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RasterizerState {
    /// Counter-clockwise polygons are front-facing (`glFrontFace(GL_CCW)`).
    pub front_ccw: bool,
    /// Culling.
    pub cull: CullFace,
    /// Front face polygon mode.
    pub polygon_mode_front: PolygonMode,
    /// Back face polygon mode.
    pub polygon_mode_back: PolygonMode,
    /// `GL_POLYGON_OFFSET_FILL`.
    pub offset_fill: bool,
    /// `GL_POLYGON_OFFSET_LINE`.
    pub offset_line: bool,
    /// `GL_POLYGON_OFFSET_POINT`.
    pub offset_point: bool,
    /// Polygon offset factor.
    pub offset_scale: f32,
    /// Polygon offset units (in minimum resolvable depth steps).
    pub offset_units: f32,
    /// Polygon offset clamp (0 = none).
    pub offset_clamp: f32,
    /// `glPointSize`.
    pub point_size: f32,
    /// `GL_PROGRAM_POINT_SIZE`: take the size from the shader's `gl_PointSize`.
    pub program_point_size: bool,
    /// `GL_POINT_SPRITE_COORD_ORIGIN` is `GL_UPPER_LEFT` (the default).
    pub point_coord_upper_left: bool,
    /// `glLineWidth`.
    pub line_width: f32,
    /// Provoking vertex is the first (`GL_FIRST_VERTEX_CONVENTION`); else the last.
    pub flatshade_first: bool,
    /// `GL_SCISSOR_TEST`.
    pub scissor: bool,
    /// `GL_DEPTH_CLAMP`: no near/far clipping, depth clamped to the depth range.
    pub depth_clamp: bool,
    /// Enabled user clip distances (`GL_CLIP_DISTANCEi` bit i).
    pub clip_plane_enable: u8,
    /// `GL_RASTERIZER_DISCARD`.
    pub rasterizer_discard: bool,
}

impl Default for RasterizerState {
    fn default() -> Self {
        RasterizerState {
            front_ccw: true,
            cull: CullFace::None,
            polygon_mode_front: PolygonMode::Fill,
            polygon_mode_back: PolygonMode::Fill,
            offset_fill: false,
            offset_line: false,
            offset_point: false,
            offset_scale: 0.0,
            offset_units: 0.0,
            offset_clamp: 0.0,
            point_size: 1.0,
            program_point_size: false,
            point_coord_upper_left: true,
            line_width: 1.0,
            flatshade_first: false,
            scissor: false,
            depth_clamp: false,
            clip_plane_enable: 0,
            rasterizer_discard: false,
        }
    }
}

/// Where a vertex element's data comes from.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum VertexSource {
    /// An array in vertex buffer slot `buffer`, at `offset` bytes from the binding's
    /// offset.
    Array {
        /// Vertex buffer slot.
        buffer: u32,
        /// Byte offset inside each element.
        offset: u32,
        /// Format.
        format: VertexFormat,
        /// Instance divisor (0: per vertex).
        divisor: u32,
    },
    /// A constant value for every vertex (`glVertexAttrib*` current value), as 32-bit
    /// words (float bits or integer bits).
    Constant([u32; 4]),
}

/// One vertex buffer binding.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct VertexBufferBinding {
    /// The buffer.
    pub buffer: BufferHandle,
    /// Byte offset of vertex 0.
    pub offset: u64,
    /// Bytes between consecutive vertices (GL stride 0 is resolved by the state
    /// tracker to the element size).
    pub stride: u32,
}

/// A bound range of a buffer (uniform blocks).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct BufferRange {
    /// The buffer.
    pub buffer: BufferHandle,
    /// First byte.
    pub offset: u64,
    /// Bytes visible (reads past it return 0).
    pub size: u64,
}

/// One compute dispatch (`glDispatchCompute`, GL 4.3 §19).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ComputeDispatch {
    /// Workgroup counts in x, y, z (a zero count dispatches nothing).
    pub groups: [u32; 3],
    /// Storage buffer ranges by block, in the compiler's binding space
    /// ([`rgl_nir::options::storage_bindings`]): indexed shader storage
    /// bindings first, then the atomic counter buffer bindings from
    /// `ATOMIC_COUNTER_BLOCK_BASE`. Blocks past the end are unbound (size 0).
    pub storage: Vec<Option<BufferRange>>,
    /// Image bindings by image index (see [`ImageBinding`]); indices past the
    /// end are unbound.
    pub images: Vec<Option<ImageBinding>>,
}

/// What one image index of a shader accesses (GL 4.2 §8.26: the texture level,
/// layer and format of the image unit its image uniform names, resolved by the
/// state tracker). Shaders address image index `n` (source 0 of the lowered
/// `image_*` intrinsics) as the binding at `n`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ImageBinding {
    /// The texture.
    pub texture: TextureHandle,
    /// Its level.
    pub level: u32,
    /// Every layer (or 3D slice, or cube face) of the level, or only `layer`.
    pub layered: bool,
    /// The one layer of a non-layered binding.
    pub layer: u32,
    /// The format texels are read and written with (GL 4.2 table 8.27).
    pub format: rgl_nir::intrinsics::ImageFormat,
    /// `GL_READ_ONLY`: stores and atomics are dropped.
    pub read_only: bool,
}

/// Primitive type of a draw.
#[allow(missing_docs)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PrimMode {
    Points,
    Lines,
    LineStrip,
    LineLoop,
    Triangles,
    TriangleStrip,
    TriangleFan,
    Quads,
    QuadStrip,
    Polygon,
    LinesAdjacency,
    LineStripAdjacency,
    TrianglesAdjacency,
    TriangleStripAdjacency,
}

/// Index size of an indexed draw.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum IndexSize {
    /// `GL_UNSIGNED_BYTE`.
    U8,
    /// `GL_UNSIGNED_SHORT`.
    U16,
    /// `GL_UNSIGNED_INT`.
    U32,
}

/// The index buffer of an indexed draw.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct IndexBuffer {
    /// The buffer.
    pub buffer: BufferHandle,
    /// Byte offset of index 0 (the `indices` argument).
    pub offset: u64,
    /// Index size.
    pub size: IndexSize,
}

/// One draw call (`pipe_draw_info` + `pipe_draw_start_count`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct DrawInfo {
    /// Primitive type.
    pub mode: PrimMode,
    /// First vertex (non-indexed) or first index (indexed).
    pub start: u32,
    /// Vertex or index count.
    pub count: u32,
    /// Instances to draw (0 draws nothing).
    pub instance_count: u32,
    /// First instance (`baseinstance`).
    pub start_instance: u32,
    /// Added to every index (indexed draws).
    pub base_vertex: i32,
    /// Index buffer for indexed draws.
    pub index: Option<IndexBuffer>,
    /// Primitive restart index.
    pub restart_index: Option<u32>,
}

impl DrawInfo {
    /// A non-indexed single-instance draw.
    pub fn arrays(mode: PrimMode, start: u32, count: u32) -> DrawInfo {
        DrawInfo {
            mode,
            start,
            count,
            instance_count: 1,
            start_instance: 0,
            base_vertex: 0,
            index: None,
            restart_index: None,
        }
    }
}

/// What `clear` touches. Clears honour the scissor rectangle given here and the color
/// write masks, like `glClear`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ClearRequest {
    /// Color value (float, converted to each target's format); `None` leaves color.
    pub color: Option<[f32; 4]>,
    /// Color write mask per render target (bit 0 R .. bit 3 A).
    pub color_masks: [u8; MAX_RENDER_TARGETS],
    /// Depth value; `None` leaves depth.
    pub depth: Option<f32>,
    /// Stencil value and write mask; `None` leaves stencil.
    pub stencil: Option<(u8, u8)>,
    /// Restrict to this rectangle.
    pub scissor: Option<Rect>,
}

/// Work counters (cumulative; `reset_counters` zeroes them).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Draw calls executed.
    pub draws: u64,
    /// Vertex shader invocations (lanes).
    pub vs_invocations: u64,
    /// Geometry shader invocations (lanes).
    pub gs_invocations: u64,
    /// Primitives generated, as GL's `PRIMITIVES_GENERATED` query counts them:
    /// after the geometry shader if there is one, before clipping and culling;
    /// a quad or polygon counts once.
    pub primitives: u64,
    /// Primitives removed by clipping or culling.
    pub primitives_culled: u64,
    /// Triangles handed to the rasterizer (after clipping).
    pub triangles_rasterized: u64,
    /// Fragment shader invocations: the live, non-helper lanes the shader ran
    /// on. A fragment-invariant shader runs once per triangle (and raster band)
    /// and its result fills the covered pixels (whole blocks by row copies)
    /// without running again: those pixels count in `fragments_written` only.
    pub fs_invocations: u64,
    /// Fragments that passed all tests and were written.
    pub fragments_written: u64,
    /// Draws whose fused per-pixel pipeline variant was already built (a cache
    /// hit in the fragment shader's variant cache).
    pub pipeline_hits: u64,
    /// Fused pipeline variants built (variant misses not answered by the
    /// shader's code store). A miss deferred to the tier-up thread
    /// (`RGL_JIT=defer=on`) counts here, not as a fallback.
    pub pipeline_builds: u64,
    /// Fused pipeline variants loaded from the shader's code store (the
    /// on-disk shader cache) instead of built.
    pub pipeline_loads: u64,
    /// Nanoseconds spent building (or loading) fused pipeline variants.
    pub pipeline_build_ns: u64,
    /// Variants dropped from a full variant cache (least recently used first).
    pub pipeline_evictions: u64,
    /// Draws of a shader that builds fused pipelines rasterized by the Rust
    /// per-pixel path instead (a state the fused path does not specialize, or a
    /// failed build).
    pub pipeline_fallbacks: u64,
    /// Draws that swapped a tier-0 fused pipeline variant for its optimised
    /// build, finished in the background (tiered JIT compiles; counted in
    /// `pipeline_hits` too).
    pub pipeline_tier_ups: u64,
}

/// Shader stage as the driver knows it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ShaderStage {
    /// Vertex.
    Vertex,
    /// Geometry.
    Geometry,
    /// Fragment.
    Fragment,
}

impl TryFrom<rgl_nir::ir::Stage> for ShaderStage {
    type Error = crate::Error;
    /// The driver stage running a NIR stage; stages this interface has no slot for
    /// (tessellation, compute) are [`Error::Unsupported`](crate::Error::Unsupported).
    fn try_from(stage: rgl_nir::ir::Stage) -> Result<ShaderStage> {
        use rgl_nir::ir::Stage;
        match stage {
            Stage::Vertex => Ok(ShaderStage::Vertex),
            Stage::Geometry => Ok(ShaderStage::Geometry),
            Stage::Fragment => Ok(ShaderStage::Fragment),
            Stage::TessCtrl | Stage::TessEval | Stage::Compute => Err(crate::Error::Unsupported(
                format!("{} shaders", stage.name()),
            )),
        }
    }
}

impl From<ShaderStage> for rgl_nir::ir::Stage {
    fn from(stage: ShaderStage) -> rgl_nir::ir::Stage {
        match stage {
            ShaderStage::Vertex => rgl_nir::ir::Stage::Vertex,
            ShaderStage::Geometry => rgl_nir::ir::Stage::Geometry,
            ShaderStage::Fragment => rgl_nir::ir::Stage::Fragment,
        }
    }
}

/// A GL driver: resources, shaders, state objects, draw and read back.
///
/// Every call validates its arguments and returns an error instead of panicking. State
/// object creation copies the description; binding is cheap.
///
/// A driver is `Send`: the GL context that owns it may move to another thread
/// (GL makes a context current on one thread at a time, and any thread may be
/// the one).
pub trait Driver: Send {
    /// Driver name (`"rgl-soft"`).
    fn name(&self) -> &str;

    /// What the driver asks of the compiler for shaders of `stage` (IO lowered or
    /// kept as variables, scalar or vector ALU, ...), like gallium's shader caps and
    /// `nir_shader_compiler_options`. The state tracker asks once per context and
    /// passes the answer to the link pipeline and to draw-time finalisation, so the
    /// NIR `create_shader` receives is what the driver asked for.
    fn compiler_options(&self, stage: ShaderStage) -> rgl_nir::options::CompilerOptions;

    /// Creates a buffer holding `data`.
    fn create_buffer(&mut self, data: &[u8]) -> Result<BufferHandle>;
    /// Replaces a buffer's whole store (`glBufferData`).
    fn buffer_data(&mut self, buf: BufferHandle, data: &[u8]) -> Result<()>;
    /// Writes `data` at `offset` (`glBufferSubData`); the range must fit.
    fn buffer_subdata(&mut self, buf: BufferHandle, offset: u64, data: &[u8]) -> Result<()>;
    /// Reads a buffer range.
    fn read_buffer(&self, buf: BufferHandle, offset: u64, len: u64) -> Result<Vec<u8>>;
    /// Deletes a buffer.
    fn delete_buffer(&mut self, buf: BufferHandle) -> Result<()>;

    /// Creates a zero-filled texture.
    fn create_texture(&mut self, desc: &TextureDesc) -> Result<TextureHandle>;
    /// The creation parameters of a texture.
    fn texture_desc(&self, tex: TextureHandle) -> Result<TextureDesc>;
    /// Writes a box of one level from tightly packed texels in the texture's format.
    fn texture_upload(
        &mut self,
        tex: TextureHandle,
        level: u32,
        region: TexBox,
        data: &[u8],
    ) -> Result<()>;
    /// Reads a box of one level as tightly packed texels in the texture's format.
    fn texture_read(&self, tex: TextureHandle, level: u32, region: TexBox) -> Result<Vec<u8>>;
    /// Deletes a texture.
    fn delete_texture(&mut self, tex: TextureHandle) -> Result<()>;

    /// Compiles a finalized NIR shader (IO lowered to `load_input`/`store_output`,
    /// uniforms to `load_uniform`/`load_ubo`, samplers to `texture_index`).
    fn create_shader(&mut self, nir: &rgl_nir::ir::Shader) -> Result<ShaderHandle>;
    /// Deletes a shader (unbinding it if bound).
    fn delete_shader(&mut self, sh: ShaderHandle) -> Result<()>;
    /// What the driver's serialised shaders depend on besides their NIR (the
    /// compiler's [`crate::exec::ShaderCompiler::cache_identity`]), for the
    /// state tracker's on-disk cache key; `None` (the default) when the driver
    /// serialises nothing.
    fn shader_cache_identity(&self) -> Option<Vec<u8>> {
        None
    }
    /// Blocks until background shader work queued so far is done (a tiered
    /// JIT's optimised rebuilds, [`crate::exec::ShaderCompiler::wait_background`]):
    /// later draws run the final code and the code store holds it. Not part of
    /// `finish`, which waits for rendering only. The default has none.
    fn wait_background_compiles(&self) {}
    /// The serialised compiled code of `sh`, when it has one
    /// ([`crate::exec::ShaderExec::serialize`]).
    fn serialize_shader(&self, sh: ShaderHandle) -> Option<Vec<u8>> {
        let _ = sh;
        None
    }
    /// Gives shader `sh` a store for the code it builds lazily (the JIT's
    /// fused pipeline variants), `id` naming the shader there
    /// ([`crate::exec::ShaderExec::set_code_store`]). The default ignores it.
    fn set_shader_code_store(
        &mut self,
        sh: ShaderHandle,
        store: std::sync::Arc<dyn crate::exec::CodeStore>,
        id: Vec<u8>,
    ) -> Result<()> {
        let _ = (sh, store, id);
        Ok(())
    }
    /// A shader of `nir` (finalized, as for [`Driver::create_shader`]) rebuilt
    /// from bytes [`Driver::serialize_shader`] returned for the same NIR under
    /// the same [`Driver::shader_cache_identity`], without compiling. Malformed
    /// or mismatched bytes are an error; the caller then compiles.
    fn load_shader(&mut self, nir: &rgl_nir::ir::Shader, bytes: &[u8]) -> Result<ShaderHandle> {
        let _ = (nir, bytes);
        Err(crate::Error::Unsupported(
            "this driver loads no serialised shaders".into(),
        ))
    }
    /// Binds the shader of a stage (`None` unbinds; a draw needs VS and FS).
    fn bind_shader(&mut self, stage: ShaderStage, sh: Option<ShaderHandle>) -> Result<()>;

    /// Creates a blend state object.
    fn create_blend_state(&mut self, s: &BlendState) -> Result<BlendHandle>;
    /// Binds a blend state.
    fn bind_blend_state(&mut self, h: BlendHandle) -> Result<()>;
    /// Creates a depth-stencil state object.
    fn create_depth_stencil_state(&mut self, s: &DepthStencilState) -> Result<DepthStencilHandle>;
    /// Binds a depth-stencil state.
    fn bind_depth_stencil_state(&mut self, h: DepthStencilHandle) -> Result<()>;
    /// Creates a rasterizer state object.
    fn create_rasterizer_state(&mut self, s: &RasterizerState) -> Result<RasterizerHandle>;
    /// Binds a rasterizer state.
    fn bind_rasterizer_state(&mut self, h: RasterizerHandle) -> Result<()>;
    /// Creates a sampler state object.
    fn create_sampler_state(&mut self, s: &SamplerState) -> Result<SamplerHandle>;
    /// Binds sampler states to slots `0..samplers.len()` (the rest are unbound).
    fn bind_sampler_states(&mut self, samplers: &[Option<SamplerHandle>]) -> Result<()>;
    /// Creates a vertex elements object (element `i` feeds VS input `i`).
    fn create_vertex_elements(&mut self, elems: &[VertexSource]) -> Result<VertexElementsHandle>;
    /// Binds a vertex elements object.
    fn bind_vertex_elements(&mut self, h: VertexElementsHandle) -> Result<()>;
    /// Deletes any state object created above (blend, depth-stencil, ... by handle kind).
    fn delete_state(&mut self, h: StateHandle) -> Result<()>;

    /// Sets the render targets.
    fn set_framebuffer(&mut self, fb: &FramebufferState) -> Result<()>;
    /// Sets the viewport and depth range.
    fn set_viewport(&mut self, vp: Viewport) -> Result<()>;
    /// Sets the scissor rectangle (used when the rasterizer state enables it).
    fn set_scissor(&mut self, r: Rect) -> Result<()>;
    /// Sets the blend constant color.
    fn set_blend_color(&mut self, c: [f32; 4]) -> Result<()>;
    /// Sets the default-block uniform storage (vec4 slots, 4 words each).
    fn set_uniforms(&mut self, words: &[u32]) -> Result<()>;
    /// Binds (or unbinds) a uniform block slot.
    fn set_uniform_buffer(&mut self, slot: u32, range: Option<BufferRange>) -> Result<()>;
    /// Sets sampler views for slots `0..views.len()` (the rest are unbound).
    fn set_sampler_views(&mut self, views: &[Option<SamplerView>]) -> Result<()>;
    /// Sets vertex buffer slots `0..bufs.len()`.
    fn set_vertex_buffers(&mut self, bufs: &[VertexBufferBinding]) -> Result<()>;
    /// Binds the storage buffer ranges later draws read, write and update
    /// atomically, by block in the compiler's binding space
    /// ([`rgl_nir::options::storage_bindings`], as [`ComputeDispatch::storage`]);
    /// blocks past the end are unbound. When a draw returns, the buffers hold
    /// its writes. A driver whose draw stages cannot access storage buffers
    /// refuses a bound range with [`Error::Unsupported`](crate::Error::Unsupported).
    fn set_storage_buffers(&mut self, ranges: &[Option<BufferRange>]) -> Result<()> {
        if ranges.iter().any(Option::is_some) {
            return Err(crate::Error::Unsupported(format!(
                "storage buffers in draws on driver {}",
                self.name()
            )));
        }
        Ok(())
    }
    /// Binds the images later draws read and write, by image index (see
    /// [`ImageBinding`]). A driver whose draw stages cannot access images
    /// fails when any is bound.
    fn set_images(&mut self, images: &[Option<ImageBinding>]) -> Result<()> {
        if images.iter().any(Option::is_some) {
            return Err(crate::Error::Unsupported(format!(
                "images in draws on driver {}",
                self.name()
            )));
        }
        Ok(())
    }
    /// Draws primitives with the bound state. User clip distances come from the last
    /// vertex stage's `gl_ClipDistance` outputs, enabled by the rasterizer state.
    fn draw(&mut self, info: &DrawInfo) -> Result<()>;
    /// Clears the bound framebuffer.
    fn clear(&mut self, req: &ClearRequest) -> Result<()>;
    /// Compiles a compute shader from finalized NIR (explicit storage and shared
    /// IO, compute system values). Drivers without compute report
    /// [`Error::Unsupported`](crate::Error::Unsupported).
    fn create_compute_shader(&mut self, nir: &rgl_nir::ir::Shader) -> Result<ComputeShaderHandle> {
        Err(crate::Error::Unsupported(format!(
            "compute shaders on driver {} ({} shader)",
            self.name(),
            nir.stage.name()
        )))
    }
    /// Deletes a compute shader.
    fn delete_compute_shader(&mut self, sh: ComputeShaderHandle) -> Result<()> {
        Err(crate::Error::InvalidHandle {
            kind: "compute shader",
            id: sh.0,
        })
    }
    /// Runs a compute dispatch with the bound uniforms and uniform buffers and
    /// the storage ranges of `dispatch`; when it returns, the storage buffers
    /// hold the results. An instruction budget exhausted is
    /// [`Error::BudgetExceeded`](crate::Error::BudgetExceeded) (the writes made
    /// before it may remain).
    fn dispatch_compute(
        &mut self,
        sh: ComputeShaderHandle,
        dispatch: &ComputeDispatch,
    ) -> Result<()> {
        let _ = dispatch;
        Err(crate::Error::InvalidHandle {
            kind: "compute shader",
            id: sh.0,
        })
    }
    /// Reads a rectangle of a surface, rows bottom-up, tightly packed in its format.
    fn read_surface(&mut self, s: Surface, r: Rect) -> Result<Vec<u8>>;
    /// Submits queued work (the software driver draws synchronously; a no-op there).
    fn flush(&mut self) -> Result<()>;
    /// Waits for all work to finish.
    fn finish(&mut self) -> Result<()>;
    /// The work counters.
    fn counters(&self) -> Counters;
    /// Zeroes the counters.
    fn reset_counters(&mut self);
}

/// Any state object handle, for [`Driver::delete_state`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum StateHandle {
    /// Blend.
    Blend(BlendHandle),
    /// Depth-stencil.
    DepthStencil(DepthStencilHandle),
    /// Rasterizer.
    Rasterizer(RasterizerHandle),
    /// Sampler.
    Sampler(SamplerHandle),
    /// Vertex elements.
    VertexElements(VertexElementsHandle),
}
