//! The implementation limits rgl advertises (GL 3.3 minimums or more), returned by
//! `get_parameter_i32` and enforced by the API entry points. Limits that GLSL
//! also exposes as `gl_Max*` constants come from the compiler's table, so the
//! API, the shaders and the linker agree.
#![allow(missing_docs)]

use rgl_glsl::builtins::variables::limits as glsl;

pub const MAX_VERTEX_ATTRIBS: u32 = glsl::MAX_VERTEX_ATTRIBS as u32;
pub const MAX_TEXTURE_IMAGE_UNITS: u32 = glsl::MAX_TEXTURE_IMAGE_UNITS as u32;
pub const MAX_VERTEX_TEXTURE_IMAGE_UNITS: u32 = glsl::MAX_VERTEX_TEXTURE_IMAGE_UNITS as u32;
pub const MAX_GEOMETRY_TEXTURE_IMAGE_UNITS: u32 = glsl::MAX_GEOMETRY_TEXTURE_IMAGE_UNITS as u32;
pub const MAX_COMBINED_TEXTURE_IMAGE_UNITS: u32 = glsl::MAX_COMBINED_TEXTURE_IMAGE_UNITS as u32;
pub const MAX_VERTEX_UNIFORM_COMPONENTS: u32 = glsl::MAX_VERTEX_UNIFORM_COMPONENTS as u32;
pub const MAX_FRAGMENT_UNIFORM_COMPONENTS: u32 = glsl::MAX_FRAGMENT_UNIFORM_COMPONENTS as u32;
pub const MAX_GEOMETRY_UNIFORM_COMPONENTS: u32 = glsl::MAX_GEOMETRY_UNIFORM_COMPONENTS as u32;
pub const MAX_VARYING_COMPONENTS: u32 = glsl::MAX_VARYING_COMPONENTS as u32;
pub const MAX_VERTEX_OUTPUT_COMPONENTS: u32 = glsl::MAX_VERTEX_OUTPUT_COMPONENTS as u32;
pub const MAX_GEOMETRY_INPUT_COMPONENTS: u32 = glsl::MAX_GEOMETRY_INPUT_COMPONENTS as u32;
pub const MAX_GEOMETRY_OUTPUT_COMPONENTS: u32 = glsl::MAX_GEOMETRY_OUTPUT_COMPONENTS as u32;
pub const MAX_FRAGMENT_INPUT_COMPONENTS: u32 = glsl::MAX_FRAGMENT_INPUT_COMPONENTS as u32;
pub const MAX_GEOMETRY_OUTPUT_VERTICES: u32 = glsl::MAX_GEOMETRY_OUTPUT_VERTICES as u32;
pub const MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS: u32 =
    glsl::MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS as u32;
pub const MAX_UNIFORM_BUFFER_BINDINGS: u32 = 36;
pub const MAX_UNIFORM_BLOCK_SIZE: u32 = 16384;
/// ARB_explicit_uniform_location / GL 4.3: the linker's bound on API locations.
pub const MAX_UNIFORM_LOCATIONS: u32 = rgl_link::linker::uniforms::MAX_UNIFORM_LOCATIONS;
pub const MAX_VERTEX_UNIFORM_BLOCKS: u32 = 12;
pub const MAX_GEOMETRY_UNIFORM_BLOCKS: u32 = 12;
pub const MAX_FRAGMENT_UNIFORM_BLOCKS: u32 = 12;
pub const MAX_COMBINED_UNIFORM_BLOCKS: u32 = 36;
pub const UNIFORM_BUFFER_OFFSET_ALIGNMENT: u32 = 16;
pub const MAX_TEXTURE_SIZE: u32 = 8192;
pub const MAX_3D_TEXTURE_SIZE: u32 = 2048;
pub const MAX_CUBE_MAP_TEXTURE_SIZE: u32 = 8192;
pub const MAX_ARRAY_TEXTURE_LAYERS: u32 = 2048;
pub const MAX_RECTANGLE_TEXTURE_SIZE: u32 = 8192;
pub const MAX_RENDERBUFFER_SIZE: u32 = 8192;
pub const MAX_DRAW_BUFFERS: u32 = glsl::MAX_DRAW_BUFFERS as u32;
pub const MAX_DUAL_SOURCE_DRAW_BUFFERS: u32 = 1;
pub const MAX_COLOR_ATTACHMENTS: u32 = 8;
pub const MAX_CLIP_DISTANCES: u32 = glsl::MAX_CLIP_DISTANCES as u32;
pub const MAX_VIEWPORT_DIMS: u32 = 16384;
/// Largest buffer object rgl allocates (bytes); larger requests are `GL_OUT_OF_MEMORY`.
pub const MAX_BUFFER_SIZE: usize = 1 << 30;
/// Largest point size (`GL_POINT_SIZE_RANGE` upper bound).
pub const MAX_POINT_SIZE: f32 = 255.0;

// GL 4.3 compute limits (table 23.70), from the compiler's table.
pub const MAX_COMPUTE_WORK_GROUP_COUNT: [u32; 3] = [
    glsl::MAX_COMPUTE_WORK_GROUP_COUNT[0] as u32,
    glsl::MAX_COMPUTE_WORK_GROUP_COUNT[1] as u32,
    glsl::MAX_COMPUTE_WORK_GROUP_COUNT[2] as u32,
];
pub const MAX_COMPUTE_WORK_GROUP_SIZE: [u32; 3] = [
    glsl::MAX_COMPUTE_WORK_GROUP_SIZE[0] as u32,
    glsl::MAX_COMPUTE_WORK_GROUP_SIZE[1] as u32,
    glsl::MAX_COMPUTE_WORK_GROUP_SIZE[2] as u32,
];
pub const MAX_COMPUTE_WORK_GROUP_INVOCATIONS: u32 = glsl::MAX_COMPUTE_WORK_GROUP_INVOCATIONS as u32;
pub const MAX_COMPUTE_UNIFORM_COMPONENTS: u32 = glsl::MAX_COMPUTE_UNIFORM_COMPONENTS as u32;
pub const MAX_COMPUTE_TEXTURE_IMAGE_UNITS: u32 = glsl::MAX_COMPUTE_TEXTURE_IMAGE_UNITS as u32;
pub const MAX_COMPUTE_IMAGE_UNIFORMS: u32 = glsl::MAX_COMPUTE_IMAGE_UNIFORMS as u32;
pub const MAX_COMPUTE_UNIFORM_BLOCKS: u32 = 12;
/// The linker's limit (GL 4.3 table 23.70 minimum, as llvmpipe).
pub const MAX_COMPUTE_SHARED_MEMORY_SIZE: u32 =
    rgl_link::linker::storage_blocks::MAX_COMPUTE_SHARED_MEMORY_SIZE as u32;

// Shader storage (GL 4.3 table 23.64): the binding space is the compiler's
// (`rgl_nir::options::storage_bindings`), the block counts and size the
// linker's, so the API, the linker and the driver agree.
pub const MAX_SHADER_STORAGE_BUFFER_BINDINGS: u32 =
    rgl_nir::options::storage_bindings::MAX_SHADER_STORAGE_BUFFER_BINDINGS;
pub const MAX_SHADER_STORAGE_BLOCKS_PER_STAGE: u32 =
    rgl_link::linker::storage_blocks::MAX_SHADER_STORAGE_BLOCKS;
pub const MAX_COMBINED_SHADER_STORAGE_BLOCKS: u32 =
    rgl_link::linker::storage_blocks::MAX_COMBINED_SHADER_STORAGE_BLOCKS;
pub const MAX_SHADER_STORAGE_BLOCK_SIZE: u32 =
    rgl_link::linker::storage_blocks::MAX_SHADER_STORAGE_BLOCK_SIZE as u32;
pub const SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT: u32 = 16;

// Atomic counters (GL 4.2, GL 4.3 table 23.65): every stage has the
// compute stage's counts from the compiler's table.
pub const MAX_ATOMIC_COUNTER_BUFFER_BINDINGS: u32 =
    rgl_nir::options::storage_bindings::MAX_ATOMIC_COUNTER_BUFFER_BINDINGS;
pub const MAX_ATOMIC_COUNTERS_PER_STAGE: u32 = glsl::MAX_COMPUTE_ATOMIC_COUNTERS as u32;
pub const MAX_ATOMIC_COUNTER_BUFFERS_PER_STAGE: u32 =
    glsl::MAX_COMPUTE_ATOMIC_COUNTER_BUFFERS as u32;
/// GL 4.2 minimum is 32 bytes.
pub const MAX_ATOMIC_COUNTER_BUFFER_SIZE: u32 = 16384;
