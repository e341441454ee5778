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
