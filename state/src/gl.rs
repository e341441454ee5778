//! GL enum values the API accepts and returns, with the numbers of the GL
//! specification (the same names and values as the `glow` crate's constants, so
//! code moves between the two by changing the import), and the same table by
//! registry name ([`ALL`], [`by_name`]) for the tools that read enums as text
//! (the shader_test runner's `enable GL_BLEND`, `GL_MAX_VARYING_FLOATS >= 60`).
// The registry spells the non-square matrix types with a lower-case x
// (`GL_FLOAT_MAT2x3`), and so do the constants.
#![allow(missing_docs, non_upper_case_globals)]

use std::collections::HashMap;
use std::sync::LazyLock;

/// Declares the constants and [`ALL`], the list of their registry names
/// (`GL_` + the constant's name) and values, from one list.
macro_rules! gl_enums {
    ($($(#[$meta:meta])* pub const $name:ident: u32 = $value:expr;)*) => {
        $($(#[$meta])* pub const $name: u32 = $value;)*

        /// Every enum of this module as (registry name, value), in declaration order.
        pub const ALL: &[(&str, u32)] = &[$((concat!("GL_", stringify!($name)), $name)),*];
    };
}

/// The value of a registry name (`GL_TRIANGLES`), with the name as stored in
/// [`ALL`].
pub fn by_name(name: &str) -> Option<(&'static str, u32)> {
    static INDEX: LazyLock<HashMap<&'static str, u32>> =
        LazyLock::new(|| ALL.iter().copied().collect());
    INDEX.get_key_value(name).map(|(&n, &v)| (n, v))
}

gl_enums! {
// Booleans.
pub const FALSE: u32 = 0;
pub const TRUE: u32 = 1;

// Errors.
pub const NO_ERROR: u32 = 0;
pub const INVALID_ENUM: u32 = 0x0500;
pub const INVALID_VALUE: u32 = 0x0501;
pub const INVALID_OPERATION: u32 = 0x0502;
pub const OUT_OF_MEMORY: u32 = 0x0505;
pub const INVALID_FRAMEBUFFER_OPERATION: u32 = 0x0506;

// Shader and program objects.
pub const FRAGMENT_SHADER: u32 = 0x8B30;
pub const VERTEX_SHADER: u32 = 0x8B31;
pub const GEOMETRY_SHADER: u32 = 0x8DD9;
pub const COMPUTE_SHADER: u32 = 0x91B9;
pub const COMPILE_STATUS: u32 = 0x8B81;
// GL_ARB_shading_language_include.
pub const SHADER_INCLUDE_ARB: u32 = 0x8DAE;
pub const NAMED_STRING_LENGTH_ARB: u32 = 0x8DE9;
pub const NAMED_STRING_TYPE_ARB: u32 = 0x8DEA;
pub const LINK_STATUS: u32 = 0x8B82;
/// `GL_KHR_parallel_shader_compile`: `glMaxShaderCompilerThreadsKHR`'s value.
pub const MAX_SHADER_COMPILER_THREADS_KHR: u32 = 0x91B0;
/// `GL_KHR_parallel_shader_compile`: whether a compile or link has finished.
pub const COMPLETION_STATUS_KHR: u32 = 0x91B1;
pub const INFO_LOG_LENGTH: u32 = 0x8B84;
pub const ATTACHED_SHADERS: u32 = 0x8B85;
pub const ACTIVE_UNIFORMS: u32 = 0x8B86;
pub const ACTIVE_ATTRIBUTES: u32 = 0x8B89;
pub const ACTIVE_UNIFORM_BLOCKS: u32 = 0x8A36;
pub const SHADER_TYPE: u32 = 0x8B4F;
pub const DELETE_STATUS: u32 = 0x8B80;
pub const VALIDATE_STATUS: u32 = 0x8B83;
pub const ACTIVE_UNIFORM_MAX_LENGTH: u32 = 0x8B87;
pub const ACTIVE_ATTRIBUTE_MAX_LENGTH: u32 = 0x8B8A;
pub const SHADER_SOURCE_LENGTH: u32 = 0x8B88;
pub const ACTIVE_UNIFORM_BLOCK_MAX_NAME_LENGTH: u32 = 0x8A35;
pub const GEOMETRY_VERTICES_OUT: u32 = 0x8916;
pub const GEOMETRY_INPUT_TYPE: u32 = 0x8917;
pub const GEOMETRY_OUTPUT_TYPE: u32 = 0x8918;
pub const GEOMETRY_SHADER_INVOCATIONS: u32 = 0x887F;

// glHint targets and modes.
pub const DONT_CARE: u32 = 0x1100;
pub const FASTEST: u32 = 0x1101;
pub const NICEST: u32 = 0x1102;
pub const PERSPECTIVE_CORRECTION_HINT: u32 = 0x0C50;
pub const POINT_SMOOTH_HINT: u32 = 0x0C51;
pub const LINE_SMOOTH_HINT: u32 = 0x0C52;
pub const POLYGON_SMOOTH_HINT: u32 = 0x0C53;
pub const FOG_HINT: u32 = 0x0C54;
pub const GENERATE_MIPMAP_HINT: u32 = 0x8192;
pub const TEXTURE_COMPRESSION_HINT: u32 = 0x84EF;
pub const FRAGMENT_SHADER_DERIVATIVE_HINT: u32 = 0x8B8B;

// Uniform types (GL_FLOAT_VEC2 ...).
pub const FLOAT: u32 = 0x1406;
pub const FLOAT_VEC2: u32 = 0x8B50;
pub const FLOAT_VEC3: u32 = 0x8B51;
pub const FLOAT_VEC4: u32 = 0x8B52;
pub const INT: u32 = 0x1404;
pub const INT_VEC2: u32 = 0x8B53;
pub const INT_VEC3: u32 = 0x8B54;
pub const INT_VEC4: u32 = 0x8B55;
pub const UNSIGNED_INT: u32 = 0x1405;
pub const UNSIGNED_INT_VEC2: u32 = 0x8DC6;
pub const UNSIGNED_INT_VEC3: u32 = 0x8DC7;
pub const UNSIGNED_INT_VEC4: u32 = 0x8DC8;
pub const BOOL: u32 = 0x8B56;
pub const BOOL_VEC2: u32 = 0x8B57;
pub const BOOL_VEC3: u32 = 0x8B58;
pub const BOOL_VEC4: u32 = 0x8B59;
pub const FLOAT_MAT2: u32 = 0x8B5A;
pub const FLOAT_MAT3: u32 = 0x8B5B;
pub const FLOAT_MAT4: u32 = 0x8B5C;
pub const FLOAT_MAT2x3: u32 = 0x8B65;
pub const FLOAT_MAT2x4: u32 = 0x8B66;
pub const FLOAT_MAT3x2: u32 = 0x8B67;
pub const FLOAT_MAT3x4: u32 = 0x8B68;
pub const FLOAT_MAT4x2: u32 = 0x8B69;
pub const FLOAT_MAT4x3: u32 = 0x8B6A;
pub const SAMPLER_1D: u32 = 0x8B5D;
pub const SAMPLER_2D: u32 = 0x8B5E;
pub const SAMPLER_3D: u32 = 0x8B5F;
pub const SAMPLER_CUBE: u32 = 0x8B60;
pub const SAMPLER_1D_SHADOW: u32 = 0x8B61;
pub const SAMPLER_2D_SHADOW: u32 = 0x8B62;
pub const SAMPLER_2D_RECT: u32 = 0x8B63;
pub const SAMPLER_2D_RECT_SHADOW: u32 = 0x8B64;
pub const SAMPLER_1D_ARRAY: u32 = 0x8DC0;
pub const SAMPLER_2D_ARRAY: u32 = 0x8DC1;
pub const SAMPLER_BUFFER: u32 = 0x8DC2;
pub const SAMPLER_1D_ARRAY_SHADOW: u32 = 0x8DC3;
pub const SAMPLER_2D_ARRAY_SHADOW: u32 = 0x8DC4;
pub const SAMPLER_CUBE_SHADOW: u32 = 0x8DC5;
pub const SAMPLER_2D_MULTISAMPLE: u32 = 0x9108;
pub const SAMPLER_2D_MULTISAMPLE_ARRAY: u32 = 0x910B;
pub const INT_SAMPLER_1D: u32 = 0x8DC9;
pub const INT_SAMPLER_2D: u32 = 0x8DCA;
pub const INT_SAMPLER_3D: u32 = 0x8DCB;
pub const INT_SAMPLER_CUBE: u32 = 0x8DCC;
pub const INT_SAMPLER_2D_RECT: u32 = 0x8DCD;
pub const INT_SAMPLER_1D_ARRAY: u32 = 0x8DCE;
pub const INT_SAMPLER_2D_ARRAY: u32 = 0x8DCF;
pub const INT_SAMPLER_BUFFER: u32 = 0x8DD0;
pub const INT_SAMPLER_2D_MULTISAMPLE: u32 = 0x9109;
pub const INT_SAMPLER_2D_MULTISAMPLE_ARRAY: u32 = 0x910C;
pub const UNSIGNED_INT_SAMPLER_1D: u32 = 0x8DD1;
pub const UNSIGNED_INT_SAMPLER_2D: u32 = 0x8DD2;
pub const UNSIGNED_INT_SAMPLER_3D: u32 = 0x8DD3;
pub const UNSIGNED_INT_SAMPLER_CUBE: u32 = 0x8DD4;
pub const UNSIGNED_INT_SAMPLER_2D_RECT: u32 = 0x8DD5;
pub const UNSIGNED_INT_SAMPLER_1D_ARRAY: u32 = 0x8DD6;
pub const UNSIGNED_INT_SAMPLER_2D_ARRAY: u32 = 0x8DD7;
pub const UNSIGNED_INT_SAMPLER_BUFFER: u32 = 0x8DD8;
pub const UNSIGNED_INT_SAMPLER_2D_MULTISAMPLE: u32 = 0x910A;
pub const UNSIGNED_INT_SAMPLER_2D_MULTISAMPLE_ARRAY: u32 = 0x910D;

// glGetActiveUniformsiv / glGetActiveUniformBlockiv.
pub const UNIFORM_TYPE: u32 = 0x8A37;
pub const UNIFORM_SIZE: u32 = 0x8A38;
pub const UNIFORM_NAME_LENGTH: u32 = 0x8A39;
pub const UNIFORM_BLOCK_INDEX: u32 = 0x8A3A;
pub const UNIFORM_OFFSET: u32 = 0x8A3B;
pub const UNIFORM_ARRAY_STRIDE: u32 = 0x8A3C;
pub const UNIFORM_MATRIX_STRIDE: u32 = 0x8A3D;
pub const UNIFORM_IS_ROW_MAJOR: u32 = 0x8A3E;
pub const UNIFORM_BLOCK_BINDING: u32 = 0x8A3F;
pub const UNIFORM_BLOCK_DATA_SIZE: u32 = 0x8A40;
pub const UNIFORM_BLOCK_NAME_LENGTH: u32 = 0x8A41;
pub const UNIFORM_BLOCK_ACTIVE_UNIFORMS: u32 = 0x8A42;
pub const UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES: u32 = 0x8A43;
pub const UNIFORM_BLOCK_REFERENCED_BY_VERTEX_SHADER: u32 = 0x8A44;
pub const UNIFORM_BLOCK_REFERENCED_BY_GEOMETRY_SHADER: u32 = 0x8A45;
pub const UNIFORM_BLOCK_REFERENCED_BY_FRAGMENT_SHADER: u32 = 0x8A46;
pub const INVALID_INDEX: u32 = 0xFFFF_FFFF;

// Buffers.
pub const ARRAY_BUFFER: u32 = 0x8892;
pub const ELEMENT_ARRAY_BUFFER: u32 = 0x8893;
pub const UNIFORM_BUFFER: u32 = 0x8A11;
pub const COPY_READ_BUFFER: u32 = 0x8F36;
pub const COPY_WRITE_BUFFER: u32 = 0x8F37;
pub const PIXEL_PACK_BUFFER: u32 = 0x88EB;
pub const PIXEL_UNPACK_BUFFER: u32 = 0x88EC;
pub const TEXTURE_BUFFER: u32 = 0x8C2A;
pub const TRANSFORM_FEEDBACK_BUFFER: u32 = 0x8C8E;
pub const STREAM_DRAW: u32 = 0x88E0;
pub const STREAM_READ: u32 = 0x88E1;
pub const STREAM_COPY: u32 = 0x88E2;
pub const STATIC_DRAW: u32 = 0x88E4;
pub const STATIC_READ: u32 = 0x88E5;
pub const STATIC_COPY: u32 = 0x88E6;
pub const DYNAMIC_DRAW: u32 = 0x88E8;
pub const DYNAMIC_READ: u32 = 0x88E9;
pub const DYNAMIC_COPY: u32 = 0x88EA;
pub const BUFFER_SIZE: u32 = 0x8764;
pub const BUFFER_USAGE: u32 = 0x8765;
pub const BUFFER_ACCESS: u32 = 0x88BB;

// Sync objects.
pub const SYNC_GPU_COMMANDS_COMPLETE: u32 = 0x9117;
pub const SYNC_FLUSH_COMMANDS_BIT: u32 = 0x0001;
pub const OBJECT_TYPE: u32 = 0x9112;
pub const SYNC_CONDITION: u32 = 0x9113;
pub const SYNC_STATUS: u32 = 0x9114;
pub const SYNC_FLAGS: u32 = 0x9115;
pub const SYNC_FENCE: u32 = 0x9116;
pub const UNSIGNALED: u32 = 0x9118;
pub const SIGNALED: u32 = 0x9119;
pub const ALREADY_SIGNALED: u32 = 0x911A;
pub const TIMEOUT_EXPIRED: u32 = 0x911B;
pub const CONDITION_SATISFIED: u32 = 0x911C;
pub const WAIT_FAILED: u32 = 0x911D;
pub const MAX_SERVER_WAIT_TIMEOUT: u32 = 0x9111;

// Queries.
pub const SAMPLES_PASSED: u32 = 0x8914;
pub const ANY_SAMPLES_PASSED: u32 = 0x8C2F;
pub const PRIMITIVES_GENERATED: u32 = 0x8C87;
pub const TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN: u32 = 0x8C88;
pub const TIME_ELAPSED: u32 = 0x88BF;
pub const TIMESTAMP: u32 = 0x8E28;
pub const QUERY_COUNTER_BITS: u32 = 0x8864;
pub const CURRENT_QUERY: u32 = 0x8865;
pub const QUERY_RESULT: u32 = 0x8866;
pub const QUERY_RESULT_AVAILABLE: u32 = 0x8867;
pub const QUERY_WAIT: u32 = 0x8E13;
pub const QUERY_NO_WAIT: u32 = 0x8E14;
pub const QUERY_BY_REGION_WAIT: u32 = 0x8E15;
pub const QUERY_BY_REGION_NO_WAIT: u32 = 0x8E16;
pub const BUFFER_MAPPED: u32 = 0x88BC;
pub const BUFFER_ACCESS_FLAGS: u32 = 0x911F;
pub const BUFFER_MAP_LENGTH: u32 = 0x9120;
pub const BUFFER_MAP_OFFSET: u32 = 0x9121;
pub const READ_ONLY: u32 = 0x88B8;
pub const WRITE_ONLY: u32 = 0x88B9;
pub const READ_WRITE: u32 = 0x88BA;

// glMapBufferRange access bits.
pub const MAP_READ_BIT: u32 = 0x0001;
pub const MAP_WRITE_BIT: u32 = 0x0002;
pub const MAP_INVALIDATE_RANGE_BIT: u32 = 0x0004;
pub const MAP_INVALIDATE_BUFFER_BIT: u32 = 0x0008;
pub const MAP_FLUSH_EXPLICIT_BIT: u32 = 0x0010;
pub const MAP_UNSYNCHRONIZED_BIT: u32 = 0x0020;

// Vertex attribute component types.
pub const BYTE: u32 = 0x1400;
pub const UNSIGNED_BYTE: u32 = 0x1401;
pub const SHORT: u32 = 0x1402;
pub const UNSIGNED_SHORT: u32 = 0x1403;
pub const HALF_FLOAT: u32 = 0x140B;
pub const DOUBLE: u32 = 0x140A;
pub const INT_2_10_10_10_REV: u32 = 0x8D9F;
pub const UNSIGNED_INT_2_10_10_10_REV: u32 = 0x8368;

// Primitive modes.
pub const POINTS: u32 = 0x0000;
pub const LINES: u32 = 0x0001;
pub const LINE_LOOP: u32 = 0x0002;
pub const LINE_STRIP: u32 = 0x0003;
pub const TRIANGLES: u32 = 0x0004;
pub const TRIANGLE_STRIP: u32 = 0x0005;
pub const TRIANGLE_FAN: u32 = 0x0006;
pub const QUADS: u32 = 0x0007;
pub const QUAD_STRIP: u32 = 0x0008;
pub const POLYGON: u32 = 0x0009;
pub const LINES_ADJACENCY: u32 = 0x000A;
pub const LINE_STRIP_ADJACENCY: u32 = 0x000B;
pub const TRIANGLES_ADJACENCY: u32 = 0x000C;
pub const TRIANGLE_STRIP_ADJACENCY: u32 = 0x000D;
pub const PATCHES: u32 = 0x000E;

// glGetString.
pub const VENDOR: u32 = 0x1F00;
pub const RENDERER: u32 = 0x1F01;
pub const VERSION: u32 = 0x1F02;
pub const EXTENSIONS: u32 = 0x1F03;
pub const SHADING_LANGUAGE_VERSION: u32 = 0x8B8C;

// Limits (glGetIntegerv).
pub const MAX_VERTEX_ATTRIBS: u32 = 0x8869;
pub const MAX_TEXTURE_IMAGE_UNITS: u32 = 0x8872;
pub const MAX_VERTEX_TEXTURE_IMAGE_UNITS: u32 = 0x8B4C;
pub const MAX_COMBINED_TEXTURE_IMAGE_UNITS: u32 = 0x8B4D;
pub const MAX_GEOMETRY_TEXTURE_IMAGE_UNITS: u32 = 0x8C29;
pub const MAX_VERTEX_UNIFORM_COMPONENTS: u32 = 0x8B4A;
pub const MAX_FRAGMENT_UNIFORM_COMPONENTS: u32 = 0x8B49;
pub const MAX_GEOMETRY_UNIFORM_COMPONENTS: u32 = 0x8DDF;
pub const MAX_VARYING_COMPONENTS: u32 = 0x8B4B;
pub const MAX_VARYING_FLOATS: u32 = 0x8B4B;
pub const MAX_VERTEX_OUTPUT_COMPONENTS: u32 = 0x9122;
pub const MAX_GEOMETRY_INPUT_COMPONENTS: u32 = 0x9123;
pub const MAX_GEOMETRY_OUTPUT_COMPONENTS: u32 = 0x9124;
pub const MAX_FRAGMENT_INPUT_COMPONENTS: u32 = 0x9125;
pub const MAX_GEOMETRY_OUTPUT_VERTICES: u32 = 0x8DE0;
pub const MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS: u32 = 0x8DE1;
pub const MAX_UNIFORM_BUFFER_BINDINGS: u32 = 0x8A2F;
pub const MAX_UNIFORM_BLOCK_SIZE: u32 = 0x8A30;
pub const MAX_UNIFORM_LOCATIONS: u32 = 0x826E;
pub const MAX_VERTEX_UNIFORM_BLOCKS: u32 = 0x8A2B;
pub const MAX_GEOMETRY_UNIFORM_BLOCKS: u32 = 0x8A2C;
pub const MAX_FRAGMENT_UNIFORM_BLOCKS: u32 = 0x8A2D;
pub const MAX_COMBINED_UNIFORM_BLOCKS: u32 = 0x8A2E;
pub const UNIFORM_BUFFER_OFFSET_ALIGNMENT: u32 = 0x8A34;
pub const MAX_TEXTURE_SIZE: u32 = 0x0D33;
pub const MAX_3D_TEXTURE_SIZE: u32 = 0x8073;
pub const MAX_CUBE_MAP_TEXTURE_SIZE: u32 = 0x851C;
pub const MAX_ARRAY_TEXTURE_LAYERS: u32 = 0x88FF;
pub const MAX_RECTANGLE_TEXTURE_SIZE: u32 = 0x84F8;
pub const MAX_RENDERBUFFER_SIZE: u32 = 0x84E8;
pub const MAX_DRAW_BUFFERS: u32 = 0x8824;
pub const MAX_COLOR_ATTACHMENTS: u32 = 0x8CDF;
pub const MAX_CLIP_DISTANCES: u32 = 0x0D32;
pub const MAX_CLIP_PLANES: u32 = 0x0D32;
pub const MAX_VIEWPORT_DIMS: u32 = 0x0D3A;
pub const MAX_ELEMENTS_VERTICES: u32 = 0x80E8;
pub const MAX_ELEMENTS_INDICES: u32 = 0x80E9;
pub const MAJOR_VERSION: u32 = 0x821B;
pub const MINOR_VERSION: u32 = 0x821C;
pub const NUM_EXTENSIONS: u32 = 0x821D;
pub const NUM_PROGRAM_BINARY_FORMATS: u32 = 0x87FE;
pub const CONTEXT_PROFILE_MASK: u32 = 0x9126;
pub const CURRENT_PROGRAM: u32 = 0x8B8D;
pub const VIEWPORT: u32 = 0x0BA2;
pub const SCISSOR_BOX: u32 = 0x0C10;
pub const ARRAY_BUFFER_BINDING: u32 = 0x8894;
pub const ELEMENT_ARRAY_BUFFER_BINDING: u32 = 0x8895;
pub const VERTEX_ARRAY_BINDING: u32 = 0x85B5;
pub const ACTIVE_TEXTURE: u32 = 0x84E0;
pub const DRAW_FRAMEBUFFER_BINDING: u32 = 0x8CA6;
pub const READ_FRAMEBUFFER_BINDING: u32 = 0x8CAA;

// Capabilities (glEnable).
pub const BLEND: u32 = 0x0BE2;
pub const CULL_FACE: u32 = 0x0B44;
pub const DEPTH_TEST: u32 = 0x0B71;
pub const STENCIL_TEST: u32 = 0x0B90;
pub const SCISSOR_TEST: u32 = 0x0C11;
pub const POLYGON_OFFSET_FILL: u32 = 0x8037;
pub const POLYGON_OFFSET_LINE: u32 = 0x2A02;
pub const POLYGON_OFFSET_POINT: u32 = 0x2A01;
pub const PROGRAM_POINT_SIZE: u32 = 0x8642;
pub const VERTEX_PROGRAM_POINT_SIZE: u32 = 0x8642;
pub const DEPTH_CLAMP: u32 = 0x864F;
pub const CLIP_DISTANCE0: u32 = 0x3000;
pub const CLIP_DISTANCE1: u32 = 0x3001;
pub const CLIP_DISTANCE2: u32 = 0x3002;
pub const CLIP_DISTANCE3: u32 = 0x3003;
pub const CLIP_DISTANCE4: u32 = 0x3004;
pub const CLIP_DISTANCE5: u32 = 0x3005;
pub const CLIP_DISTANCE6: u32 = 0x3006;
pub const CLIP_DISTANCE7: u32 = 0x3007;
pub const CLIP_PLANE0: u32 = 0x3000;
pub const CLIP_PLANE1: u32 = 0x3001;
pub const CLIP_PLANE2: u32 = 0x3002;
pub const CLIP_PLANE3: u32 = 0x3003;
pub const CLIP_PLANE4: u32 = 0x3004;
pub const CLIP_PLANE5: u32 = 0x3005;
pub const CLIP_PLANE6: u32 = 0x3006;
pub const CLIP_PLANE7: u32 = 0x3007;
pub const VERTEX_PROGRAM_TWO_SIDE: u32 = 0x8643;
pub const RASTERIZER_DISCARD: u32 = 0x8C89;
pub const PRIMITIVE_RESTART: u32 = 0x8F9D;
pub const MULTISAMPLE: u32 = 0x809D;
pub const DITHER: u32 = 0x0BD0;
pub const LINE_SMOOTH: u32 = 0x0B20;
pub const POLYGON_SMOOTH: u32 = 0x0B41;
pub const COLOR_LOGIC_OP: u32 = 0x0BF2;
pub const SAMPLE_ALPHA_TO_COVERAGE: u32 = 0x809E;
pub const CLAMP_VERTEX_COLOR: u32 = 0x891A;
pub const CLAMP_FRAGMENT_COLOR: u32 = 0x891B;
pub const POINT_SPRITE: u32 = 0x8861;
pub const FRAMEBUFFER_SRGB: u32 = 0x8DB9;
pub const TEXTURE_CUBE_MAP_SEAMLESS: u32 = 0x884F;
pub const ALPHA_TEST: u32 = 0x0BC0;
pub const LIGHTING: u32 = 0x0B50;
pub const COLOR_MATERIAL: u32 = 0x0B57;
pub const NORMALIZE: u32 = 0x0BA1;
pub const FOG: u32 = 0x0B60;

// Comparison functions.
pub const NEVER: u32 = 0x0200;
pub const LESS: u32 = 0x0201;
pub const EQUAL: u32 = 0x0202;
pub const LEQUAL: u32 = 0x0203;
pub const GREATER: u32 = 0x0204;
pub const NOTEQUAL: u32 = 0x0205;
pub const GEQUAL: u32 = 0x0206;
pub const ALWAYS: u32 = 0x0207;

// Stencil ops.
pub const KEEP: u32 = 0x1E00;
pub const ZERO: u32 = 0;
pub const REPLACE: u32 = 0x1E01;
pub const INCR: u32 = 0x1E02;
pub const DECR: u32 = 0x1E03;
pub const INVERT: u32 = 0x150A;
pub const INCR_WRAP: u32 = 0x8507;
pub const DECR_WRAP: u32 = 0x8508;

// Blending.
pub const ONE: u32 = 1;
pub const SRC_COLOR: u32 = 0x0300;
pub const ONE_MINUS_SRC_COLOR: u32 = 0x0301;
pub const SRC_ALPHA: u32 = 0x0302;
pub const ONE_MINUS_SRC_ALPHA: u32 = 0x0303;
pub const DST_ALPHA: u32 = 0x0304;
pub const ONE_MINUS_DST_ALPHA: u32 = 0x0305;
pub const DST_COLOR: u32 = 0x0306;
pub const ONE_MINUS_DST_COLOR: u32 = 0x0307;
pub const SRC_ALPHA_SATURATE: u32 = 0x0308;
pub const CONSTANT_COLOR: u32 = 0x8001;
pub const ONE_MINUS_CONSTANT_COLOR: u32 = 0x8002;
pub const CONSTANT_ALPHA: u32 = 0x8003;
pub const ONE_MINUS_CONSTANT_ALPHA: u32 = 0x8004;
pub const SRC1_COLOR: u32 = 0x88F9;
pub const ONE_MINUS_SRC1_COLOR: u32 = 0x88FA;
pub const SRC1_ALPHA: u32 = 0x8589;
pub const ONE_MINUS_SRC1_ALPHA: u32 = 0x88FB;
pub const FUNC_ADD: u32 = 0x8006;
pub const FUNC_SUBTRACT: u32 = 0x800A;
pub const FUNC_REVERSE_SUBTRACT: u32 = 0x800B;
pub const MIN: u32 = 0x8007;
pub const MAX: u32 = 0x8008;

// Faces, winding, polygon modes, provoking vertex, shade model.
pub const FRONT: u32 = 0x0404;
pub const BACK: u32 = 0x0405;
pub const FRONT_AND_BACK: u32 = 0x0408;
pub const CW: u32 = 0x0900;
pub const CCW: u32 = 0x0901;
pub const POINT: u32 = 0x1B00;
pub const LINE: u32 = 0x1B01;
pub const FILL: u32 = 0x1B02;
pub const FIRST_VERTEX_CONVENTION: u32 = 0x8E4D;
pub const LAST_VERTEX_CONVENTION: u32 = 0x8E4E;
pub const FLAT: u32 = 0x1D00;
pub const SMOOTH: u32 = 0x1D01;

// Clear bits.
pub const DEPTH_BUFFER_BIT: u32 = 0x0000_0100;
pub const STENCIL_BUFFER_BIT: u32 = 0x0000_0400;
pub const COLOR_BUFFER_BIT: u32 = 0x0000_4000;

// Textures.
pub const TEXTURE_1D: u32 = 0x0DE0;
pub const TEXTURE_2D: u32 = 0x0DE1;
pub const TEXTURE_3D: u32 = 0x806F;
pub const TEXTURE_RECTANGLE: u32 = 0x84F5;
pub const TEXTURE_CUBE_MAP: u32 = 0x8513;
pub const TEXTURE_CUBE_MAP_POSITIVE_X: u32 = 0x8515;
pub const TEXTURE_CUBE_MAP_NEGATIVE_X: u32 = 0x8516;
pub const TEXTURE_CUBE_MAP_POSITIVE_Y: u32 = 0x8517;
pub const TEXTURE_CUBE_MAP_NEGATIVE_Y: u32 = 0x8518;
pub const TEXTURE_CUBE_MAP_POSITIVE_Z: u32 = 0x8519;
pub const TEXTURE_CUBE_MAP_NEGATIVE_Z: u32 = 0x851A;
pub const TEXTURE_1D_ARRAY: u32 = 0x8C18;
pub const TEXTURE_2D_ARRAY: u32 = 0x8C1A;
pub const TEXTURE0: u32 = 0x84C0;
pub const TEXTURE_MIN_FILTER: u32 = 0x2801;
pub const TEXTURE_MAG_FILTER: u32 = 0x2800;
pub const TEXTURE_WRAP_S: u32 = 0x2802;
pub const TEXTURE_WRAP_T: u32 = 0x2803;
pub const TEXTURE_WRAP_R: u32 = 0x8072;
pub const TEXTURE_MIN_LOD: u32 = 0x813A;
pub const TEXTURE_MAX_LOD: u32 = 0x813B;
pub const TEXTURE_BASE_LEVEL: u32 = 0x813C;
pub const TEXTURE_MAX_LEVEL: u32 = 0x813D;
pub const TEXTURE_LOD_BIAS: u32 = 0x8501;
pub const TEXTURE_BORDER_COLOR: u32 = 0x1004;
pub const TEXTURE_COMPARE_MODE: u32 = 0x884C;
pub const TEXTURE_COMPARE_FUNC: u32 = 0x884D;
pub const COMPARE_REF_TO_TEXTURE: u32 = 0x884E;
pub const DEPTH_TEXTURE_MODE: u32 = 0x884B;
pub const TEXTURE_SWIZZLE_R: u32 = 0x8E42;
pub const TEXTURE_SWIZZLE_G: u32 = 0x8E43;
pub const TEXTURE_SWIZZLE_B: u32 = 0x8E44;
pub const TEXTURE_SWIZZLE_A: u32 = 0x8E45;
pub const NEAREST: u32 = 0x2600;
pub const LINEAR: u32 = 0x2601;
pub const NEAREST_MIPMAP_NEAREST: u32 = 0x2700;
pub const LINEAR_MIPMAP_NEAREST: u32 = 0x2701;
pub const NEAREST_MIPMAP_LINEAR: u32 = 0x2702;
pub const LINEAR_MIPMAP_LINEAR: u32 = 0x2703;
pub const REPEAT: u32 = 0x2901;
pub const CLAMP: u32 = 0x2900;
pub const CLAMP_TO_EDGE: u32 = 0x812F;
pub const CLAMP_TO_BORDER: u32 = 0x812D;
pub const MIRRORED_REPEAT: u32 = 0x8370;
pub const RED: u32 = 0x1903;
pub const GREEN: u32 = 0x1904;
pub const BLUE: u32 = 0x1905;
pub const ALPHA: u32 = 0x1906;
pub const RG: u32 = 0x8227;
pub const RGB: u32 = 0x1907;
pub const RGBA: u32 = 0x1908;
pub const LUMINANCE: u32 = 0x1909;
pub const INTENSITY: u32 = 0x8049;
pub const RED_INTEGER: u32 = 0x8D94;
pub const RGBA_INTEGER: u32 = 0x8D99;
pub const DEPTH_COMPONENT: u32 = 0x1902;
pub const DEPTH_STENCIL: u32 = 0x84F9;
pub const STENCIL_INDEX: u32 = 0x1901;
pub const R8: u32 = 0x8229;
pub const RG8: u32 = 0x822B;
pub const RGB8: u32 = 0x8051;
pub const RGBA8: u32 = 0x8058;
pub const RGBA16F: u32 = 0x881A;
pub const RGBA32F: u32 = 0x8814;
pub const R32F: u32 = 0x822E;
pub const DEPTH_COMPONENT16: u32 = 0x81A5;
pub const DEPTH_COMPONENT24: u32 = 0x81A6;
pub const DEPTH_COMPONENT32F: u32 = 0x8CAC;
pub const DEPTH24_STENCIL8: u32 = 0x88F0;
pub const STENCIL_INDEX8: u32 = 0x8D48;
pub const UNSIGNED_INT_24_8: u32 = 0x84FA;
pub const FLOAT_32_UNSIGNED_INT_24_8_REV: u32 = 0x8DAD;

// Framebuffers.
pub const FRAMEBUFFER: u32 = 0x8D40;
pub const READ_FRAMEBUFFER: u32 = 0x8CA8;
pub const DRAW_FRAMEBUFFER: u32 = 0x8CA9;
pub const RENDERBUFFER: u32 = 0x8D41;
pub const COLOR_ATTACHMENT0: u32 = 0x8CE0;
pub const DEPTH_ATTACHMENT: u32 = 0x8D00;
pub const STENCIL_ATTACHMENT: u32 = 0x8D20;
pub const DEPTH_STENCIL_ATTACHMENT: u32 = 0x821A;
pub const FRAMEBUFFER_COMPLETE: u32 = 0x8CD5;
pub const FRAMEBUFFER_INCOMPLETE_ATTACHMENT: u32 = 0x8CD6;
pub const FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT: u32 = 0x8CD7;
pub const FRAMEBUFFER_UNSUPPORTED: u32 = 0x8CDD;
pub const NONE: u32 = 0;
pub const BACK_LEFT: u32 = 0x0402;

// Fixed-function (compatibility profile) matrices.
pub const MODELVIEW: u32 = 0x1700;
pub const PROJECTION: u32 = 0x1701;
pub const TEXTURE: u32 = 0x1702;

// Compatibility-profile client arrays.
/// `GL_VERTEX_ARRAY`.
pub const VERTEX_ARRAY: u32 = 0x8074;
/// `GL_NORMAL_ARRAY`.
pub const NORMAL_ARRAY: u32 = 0x8075;
/// `GL_COLOR_ARRAY`.
pub const COLOR_ARRAY: u32 = 0x8076;
/// `GL_TEXTURE_COORD_ARRAY`.
pub const TEXTURE_COORD_ARRAY: u32 = 0x8078;
/// `GL_SECONDARY_COLOR_ARRAY`.
pub const SECONDARY_COLOR_ARRAY: u32 = 0x845E;
/// `GL_FOG_COORD_ARRAY`.
pub const FOG_COORD_ARRAY: u32 = 0x8457;
/// `GL_FIXED`.
pub const FIXED: u32 = 0x140C;
// Textures, samplers, pixel transfer, renderbuffers and framebuffers (texfb branch).
pub const BGR: u32 = 0x80E0;
pub const BGRA: u32 = 0x80E1;
pub const LUMINANCE_ALPHA: u32 = 0x190A;
pub const ALPHA8: u32 = 0x803C;
pub const LUMINANCE8: u32 = 0x8040;
pub const LUMINANCE8_ALPHA8: u32 = 0x8045;
pub const INTENSITY8: u32 = 0x804B;
pub const R16F: u32 = 0x822D;
pub const RG16F: u32 = 0x822F;
pub const RG32F: u32 = 0x8230;
pub const RGB16F: u32 = 0x881B;
pub const RGB32F: u32 = 0x8815;
pub const DEPTH_COMPONENT32: u32 = 0x81A7;
pub const DEPTH32F_STENCIL8: u32 = 0x8CAD;
pub const STENCIL_INDEX1: u32 = 0x8D46;
pub const STENCIL_INDEX4: u32 = 0x8D47;
pub const STENCIL_INDEX16: u32 = 0x8D49;
pub const UNSIGNED_INT_8_8_8_8: u32 = 0x8035;
pub const UNSIGNED_INT_8_8_8_8_REV: u32 = 0x8367;
pub const UNSIGNED_SHORT_5_6_5: u32 = 0x8363;
pub const MIRROR_CLAMP_TO_EDGE: u32 = 0x8743;
pub const TEXTURE_SWIZZLE_RGBA: u32 = 0x8E46;
pub const TEXTURE_IMMUTABLE_FORMAT: u32 = 0x912F;
pub const TEXTURE_IMMUTABLE_LEVELS: u32 = 0x82DF;
pub const TEXTURE_WIDTH: u32 = 0x1000;
pub const TEXTURE_HEIGHT: u32 = 0x1001;
pub const TEXTURE_DEPTH: u32 = 0x8071;
pub const TEXTURE_INTERNAL_FORMAT: u32 = 0x1003;
pub const TEXTURE_BINDING_1D: u32 = 0x8068;
pub const TEXTURE_BINDING_2D: u32 = 0x8069;
pub const TEXTURE_BINDING_3D: u32 = 0x806A;
pub const TEXTURE_BINDING_CUBE_MAP: u32 = 0x8514;
pub const TEXTURE_BINDING_RECTANGLE: u32 = 0x84F6;
pub const TEXTURE_BINDING_1D_ARRAY: u32 = 0x8C1C;
pub const TEXTURE_BINDING_2D_ARRAY: u32 = 0x8C1D;
pub const SAMPLER_BINDING: u32 = 0x8919;
pub const UNPACK_SWAP_BYTES: u32 = 0x0CF0;
pub const UNPACK_LSB_FIRST: u32 = 0x0CF1;
pub const UNPACK_ROW_LENGTH: u32 = 0x0CF2;
pub const UNPACK_SKIP_ROWS: u32 = 0x0CF3;
pub const UNPACK_SKIP_PIXELS: u32 = 0x0CF4;
pub const UNPACK_ALIGNMENT: u32 = 0x0CF5;
pub const UNPACK_IMAGE_HEIGHT: u32 = 0x806E;
pub const UNPACK_SKIP_IMAGES: u32 = 0x806D;
pub const PACK_SWAP_BYTES: u32 = 0x0D00;
pub const PACK_LSB_FIRST: u32 = 0x0D01;
pub const PACK_ROW_LENGTH: u32 = 0x0D02;
pub const PACK_SKIP_ROWS: u32 = 0x0D03;
pub const PACK_SKIP_PIXELS: u32 = 0x0D04;
pub const PACK_ALIGNMENT: u32 = 0x0D05;
pub const PACK_IMAGE_HEIGHT: u32 = 0x806C;
pub const PACK_SKIP_IMAGES: u32 = 0x806B;
pub const FRAMEBUFFER_BINDING: u32 = 0x8CA6;
pub const RENDERBUFFER_BINDING: u32 = 0x8CA7;
pub const RENDERBUFFER_WIDTH: u32 = 0x8D42;
pub const RENDERBUFFER_HEIGHT: u32 = 0x8D43;
pub const RENDERBUFFER_INTERNAL_FORMAT: u32 = 0x8D44;
pub const RENDERBUFFER_SAMPLES: u32 = 0x8CAB;
pub const MAX_SAMPLES: u32 = 0x8D57;
pub const FRONT_LEFT: u32 = 0x0400;
pub const FRONT_RIGHT: u32 = 0x0401;
pub const BACK_RIGHT: u32 = 0x0403;
pub const LEFT: u32 = 0x0406;
pub const RIGHT: u32 = 0x0407;
pub const DRAW_BUFFER: u32 = 0x0C01;
pub const READ_BUFFER: u32 = 0x0C02;
pub const DRAW_BUFFER0: u32 = 0x8825;
pub const COLOR: u32 = 0x1800;
pub const DEPTH: u32 = 0x1801;
pub const STENCIL: u32 = 0x1802;
pub const FRAMEBUFFER_UNDEFINED: u32 = 0x8219;
pub const FRAMEBUFFER_INCOMPLETE_DRAW_BUFFER: u32 = 0x8CDB;
pub const FRAMEBUFFER_INCOMPLETE_READ_BUFFER: u32 = 0x8CDC;
pub const FRAMEBUFFER_INCOMPLETE_MULTISAMPLE: u32 = 0x8D56;
pub const FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE: u32 = 0x8CD0;
pub const FRAMEBUFFER_ATTACHMENT_OBJECT_NAME: u32 = 0x8CD1;
pub const FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL: u32 = 0x8CD2;
pub const FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE: u32 = 0x8CD3;
pub const FRAMEBUFFER_ATTACHMENT_TEXTURE_LAYER: u32 = 0x8CD4;
pub const FRAMEBUFFER_DEFAULT: u32 = 0x8218;
pub const IMPLEMENTATION_COLOR_READ_TYPE: u32 = 0x8B9A;
pub const IMPLEMENTATION_COLOR_READ_FORMAT: u32 = 0x8B9B;
// Errors of the compatibility matrix stacks (GL 3.3 compatibility §2.12.2).
pub const STACK_OVERFLOW: u32 = 0x0503;
pub const STACK_UNDERFLOW: u32 = 0x0504;
// glGet of the rasterizer, per-fragment and vertex state (GL 3.3 §6.2 state tables).
pub const DEPTH_RANGE: u32 = 0x0B70;
pub const DEPTH_WRITEMASK: u32 = 0x0B72;
pub const DEPTH_CLEAR_VALUE: u32 = 0x0B73;
pub const DEPTH_FUNC: u32 = 0x0B74;
pub const STENCIL_CLEAR_VALUE: u32 = 0x0B91;
pub const STENCIL_FUNC: u32 = 0x0B92;
pub const STENCIL_VALUE_MASK: u32 = 0x0B93;
pub const STENCIL_FAIL: u32 = 0x0B94;
pub const STENCIL_PASS_DEPTH_FAIL: u32 = 0x0B95;
pub const STENCIL_PASS_DEPTH_PASS: u32 = 0x0B96;
pub const STENCIL_REF: u32 = 0x0B97;
pub const STENCIL_WRITEMASK: u32 = 0x0B98;
pub const STENCIL_BACK_FUNC: u32 = 0x8800;
pub const STENCIL_BACK_FAIL: u32 = 0x8801;
pub const STENCIL_BACK_PASS_DEPTH_FAIL: u32 = 0x8802;
pub const STENCIL_BACK_PASS_DEPTH_PASS: u32 = 0x8803;
pub const STENCIL_BACK_REF: u32 = 0x8CA3;
pub const STENCIL_BACK_VALUE_MASK: u32 = 0x8CA4;
pub const STENCIL_BACK_WRITEMASK: u32 = 0x8CA5;
pub const BLEND_COLOR: u32 = 0x8005;
pub const BLEND_EQUATION_RGB: u32 = 0x8009;
pub const BLEND_EQUATION_ALPHA: u32 = 0x883D;
pub const BLEND_DST_RGB: u32 = 0x80C8;
pub const BLEND_SRC_RGB: u32 = 0x80C9;
pub const BLEND_DST_ALPHA: u32 = 0x80CA;
pub const BLEND_SRC_ALPHA: u32 = 0x80CB;
pub const COLOR_CLEAR_VALUE: u32 = 0x0C22;
pub const COLOR_WRITEMASK: u32 = 0x0C23;
pub const CULL_FACE_MODE: u32 = 0x0B45;
pub const FRONT_FACE: u32 = 0x0B46;
pub const POLYGON_MODE: u32 = 0x0B40;
pub const POLYGON_OFFSET_FACTOR: u32 = 0x8038;
pub const POLYGON_OFFSET_UNITS: u32 = 0x2A00;
pub const PROVOKING_VERTEX: u32 = 0x8E4F;
pub const POINT_SIZE: u32 = 0x0B11;
pub const LINE_WIDTH: u32 = 0x0B21;
pub const PRIMITIVE_RESTART_INDEX: u32 = 0x8F9E;
pub const ALPHA_TEST_FUNC: u32 = 0x0BC1;
pub const ALPHA_TEST_REF: u32 = 0x0BC2;
pub const SHADE_MODEL: u32 = 0x0B54;
pub const MATRIX_MODE: u32 = 0x0BA0;
pub const MODELVIEW_STACK_DEPTH: u32 = 0x0BA3;
pub const PROJECTION_STACK_DEPTH: u32 = 0x0BA4;
pub const TEXTURE_STACK_DEPTH: u32 = 0x0BA5;
pub const MODELVIEW_MATRIX: u32 = 0x0BA6;
pub const PROJECTION_MATRIX: u32 = 0x0BA7;
pub const TEXTURE_MATRIX: u32 = 0x0BA8;
pub const CURRENT_COLOR: u32 = 0x0B00;
pub const CURRENT_TEXTURE_COORDS: u32 = 0x0B03;
pub const CLIENT_ACTIVE_TEXTURE: u32 = 0x84E1;
pub const UNIFORM_BUFFER_BINDING: u32 = 0x8A28;
pub const UNIFORM_BUFFER_START: u32 = 0x8A29;
pub const UNIFORM_BUFFER_SIZE: u32 = 0x8A2A;
pub const COPY_READ_BUFFER_BINDING: u32 = 0x8F36;
pub const COPY_WRITE_BUFFER_BINDING: u32 = 0x8F37;
pub const PIXEL_PACK_BUFFER_BINDING: u32 = 0x88ED;
pub const PIXEL_UNPACK_BUFFER_BINDING: u32 = 0x88EF;
// glGetVertexAttrib.
pub const VERTEX_ATTRIB_ARRAY_ENABLED: u32 = 0x8622;
pub const VERTEX_ATTRIB_ARRAY_SIZE: u32 = 0x8623;
pub const VERTEX_ATTRIB_ARRAY_STRIDE: u32 = 0x8624;
pub const VERTEX_ATTRIB_ARRAY_TYPE: u32 = 0x8625;
pub const CURRENT_VERTEX_ATTRIB: u32 = 0x8626;
pub const VERTEX_ATTRIB_ARRAY_POINTER: u32 = 0x8645;
pub const VERTEX_ATTRIB_ARRAY_NORMALIZED: u32 = 0x886A;
pub const VERTEX_ATTRIB_ARRAY_BUFFER_BINDING: u32 = 0x889F;
pub const VERTEX_ATTRIB_ARRAY_INTEGER: u32 = 0x88FD;
pub const VERTEX_ATTRIB_ARRAY_DIVISOR: u32 = 0x88FE;
// GL 4.3 compute shaders (ARB_compute_shader).
pub const MAX_COMPUTE_WORK_GROUP_COUNT: u32 = 0x91BE;
pub const MAX_COMPUTE_WORK_GROUP_SIZE: u32 = 0x91BF;
pub const MAX_COMPUTE_WORK_GROUP_INVOCATIONS: u32 = 0x90EB;
pub const MAX_COMPUTE_UNIFORM_BLOCKS: u32 = 0x91BB;
pub const MAX_COMPUTE_TEXTURE_IMAGE_UNITS: u32 = 0x91BC;
pub const MAX_COMPUTE_IMAGE_UNIFORMS: u32 = 0x91BD;
pub const MAX_COMPUTE_SHARED_MEMORY_SIZE: u32 = 0x8262;
pub const MAX_COMPUTE_UNIFORM_COMPONENTS: u32 = 0x8263;
pub const MAX_COMPUTE_ATOMIC_COUNTER_BUFFERS: u32 = 0x8264;
pub const MAX_COMPUTE_ATOMIC_COUNTERS: u32 = 0x8265;
pub const MAX_COMBINED_COMPUTE_UNIFORM_COMPONENTS: u32 = 0x8266;
pub const COMPUTE_WORK_GROUP_SIZE: u32 = 0x8267;
pub const DISPATCH_INDIRECT_BUFFER: u32 = 0x90EE;
pub const DISPATCH_INDIRECT_BUFFER_BINDING: u32 = 0x90EF;
// GL 4.3 shader storage buffers (ARB_shader_storage_buffer_object).
pub const SHADER_STORAGE_BUFFER: u32 = 0x90D2;
pub const SHADER_STORAGE_BUFFER_BINDING: u32 = 0x90D3;
pub const SHADER_STORAGE_BUFFER_START: u32 = 0x90D4;
pub const SHADER_STORAGE_BUFFER_SIZE: u32 = 0x90D5;
pub const MAX_VERTEX_SHADER_STORAGE_BLOCKS: u32 = 0x90D6;
pub const MAX_GEOMETRY_SHADER_STORAGE_BLOCKS: u32 = 0x90D7;
pub const MAX_TESS_CONTROL_SHADER_STORAGE_BLOCKS: u32 = 0x90D8;
pub const MAX_TESS_EVALUATION_SHADER_STORAGE_BLOCKS: u32 = 0x90D9;
pub const MAX_FRAGMENT_SHADER_STORAGE_BLOCKS: u32 = 0x90DA;
pub const MAX_COMPUTE_SHADER_STORAGE_BLOCKS: u32 = 0x90DB;
pub const MAX_COMBINED_SHADER_STORAGE_BLOCKS: u32 = 0x90DC;
pub const MAX_SHADER_STORAGE_BUFFER_BINDINGS: u32 = 0x90DD;
pub const MAX_SHADER_STORAGE_BLOCK_SIZE: u32 = 0x90DE;
pub const SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT: u32 = 0x90DF;
pub const MAX_COMBINED_SHADER_OUTPUT_RESOURCES: u32 = 0x8F39;
// GL 4.2 atomic counters (ARB_shader_atomic_counters).
pub const ATOMIC_COUNTER_BUFFER: u32 = 0x92C0;
pub const ATOMIC_COUNTER_BUFFER_BINDING: u32 = 0x92C1;
pub const ATOMIC_COUNTER_BUFFER_START: u32 = 0x92C2;
pub const ATOMIC_COUNTER_BUFFER_SIZE: u32 = 0x92C3;
pub const MAX_VERTEX_ATOMIC_COUNTER_BUFFERS: u32 = 0x92CC;
pub const MAX_TESS_CONTROL_ATOMIC_COUNTER_BUFFERS: u32 = 0x92CD;
pub const MAX_TESS_EVALUATION_ATOMIC_COUNTER_BUFFERS: u32 = 0x92CE;
pub const MAX_GEOMETRY_ATOMIC_COUNTER_BUFFERS: u32 = 0x92CF;
pub const MAX_FRAGMENT_ATOMIC_COUNTER_BUFFERS: u32 = 0x92D0;
pub const MAX_COMBINED_ATOMIC_COUNTER_BUFFERS: u32 = 0x92D1;
pub const MAX_VERTEX_ATOMIC_COUNTERS: u32 = 0x92D2;
pub const MAX_TESS_CONTROL_ATOMIC_COUNTERS: u32 = 0x92D3;
pub const MAX_TESS_EVALUATION_ATOMIC_COUNTERS: u32 = 0x92D4;
pub const MAX_GEOMETRY_ATOMIC_COUNTERS: u32 = 0x92D5;
pub const MAX_FRAGMENT_ATOMIC_COUNTERS: u32 = 0x92D6;
pub const MAX_COMBINED_ATOMIC_COUNTERS: u32 = 0x92D7;
pub const MAX_ATOMIC_COUNTER_BUFFER_SIZE: u32 = 0x92D8;
pub const MAX_ATOMIC_COUNTER_BUFFER_BINDINGS: u32 = 0x92DC;
// GL 4.3 program interface query (ARB_program_interface_query).
pub const UNIFORM: u32 = 0x92E1;
pub const UNIFORM_BLOCK: u32 = 0x92E2;
pub const PROGRAM_INPUT: u32 = 0x92E3;
pub const PROGRAM_OUTPUT: u32 = 0x92E4;
pub const BUFFER_VARIABLE: u32 = 0x92E5;
pub const SHADER_STORAGE_BLOCK: u32 = 0x92E6;
pub const IS_PER_PATCH: u32 = 0x92E7;
pub const VERTEX_SUBROUTINE: u32 = 0x92E8;
pub const TESS_CONTROL_SUBROUTINE: u32 = 0x92E9;
pub const TESS_EVALUATION_SUBROUTINE: u32 = 0x92EA;
pub const GEOMETRY_SUBROUTINE: u32 = 0x92EB;
pub const FRAGMENT_SUBROUTINE: u32 = 0x92EC;
pub const COMPUTE_SUBROUTINE: u32 = 0x92ED;
pub const VERTEX_SUBROUTINE_UNIFORM: u32 = 0x92EE;
pub const TESS_CONTROL_SUBROUTINE_UNIFORM: u32 = 0x92EF;
pub const TESS_EVALUATION_SUBROUTINE_UNIFORM: u32 = 0x92F0;
pub const GEOMETRY_SUBROUTINE_UNIFORM: u32 = 0x92F1;
pub const FRAGMENT_SUBROUTINE_UNIFORM: u32 = 0x92F2;
pub const COMPUTE_SUBROUTINE_UNIFORM: u32 = 0x92F3;

// Texel offset ranges (GL 3.3 Table 6.50, GL 4.0 / ARB_texture_gather).
pub const MIN_PROGRAM_TEXEL_OFFSET: u32 = 0x8904;
pub const MAX_PROGRAM_TEXEL_OFFSET: u32 = 0x8905;
pub const MIN_PROGRAM_TEXTURE_GATHER_OFFSET: u32 = 0x8E5E;
pub const MAX_PROGRAM_TEXTURE_GATHER_OFFSET: u32 = 0x8E5F;
pub const MAX_PROGRAM_TEXTURE_GATHER_COMPONENTS_ARB: u32 = 0x8F9F;

// Subroutines (GL 4.x §7.10, Table 23.23).
pub const ACTIVE_SUBROUTINES: u32 = 0x8DE5;
pub const ACTIVE_SUBROUTINE_UNIFORMS: u32 = 0x8DE6;
pub const MAX_SUBROUTINES: u32 = 0x8DE7;
pub const MAX_SUBROUTINE_UNIFORM_LOCATIONS: u32 = 0x8DE8;
pub const ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS: u32 = 0x8E47;
pub const ACTIVE_SUBROUTINE_MAX_LENGTH: u32 = 0x8E48;
pub const ACTIVE_SUBROUTINE_UNIFORM_MAX_LENGTH: u32 = 0x8E49;
pub const TESS_EVALUATION_SHADER: u32 = 0x8E87;
pub const TESS_CONTROL_SHADER: u32 = 0x8E88;
pub const TRANSFORM_FEEDBACK_VARYING: u32 = 0x92F4;
pub const ACTIVE_RESOURCES: u32 = 0x92F5;
pub const MAX_NAME_LENGTH: u32 = 0x92F6;
pub const MAX_NUM_ACTIVE_VARIABLES: u32 = 0x92F7;
pub const MAX_NUM_COMPATIBLE_SUBROUTINES: u32 = 0x92F8;
pub const NAME_LENGTH: u32 = 0x92F9;
pub const TYPE: u32 = 0x92FA;
pub const ARRAY_SIZE: u32 = 0x92FB;
pub const OFFSET: u32 = 0x92FC;
pub const BLOCK_INDEX: u32 = 0x92FD;
pub const ARRAY_STRIDE: u32 = 0x92FE;
pub const MATRIX_STRIDE: u32 = 0x92FF;
pub const IS_ROW_MAJOR: u32 = 0x9300;
pub const ATOMIC_COUNTER_BUFFER_INDEX: u32 = 0x9301;
pub const BUFFER_BINDING: u32 = 0x9302;
pub const BUFFER_DATA_SIZE: u32 = 0x9303;
pub const NUM_ACTIVE_VARIABLES: u32 = 0x9304;
pub const ACTIVE_VARIABLES: u32 = 0x9305;
pub const REFERENCED_BY_VERTEX_SHADER: u32 = 0x9306;
pub const REFERENCED_BY_TESS_CONTROL_SHADER: u32 = 0x9307;
pub const REFERENCED_BY_TESS_EVALUATION_SHADER: u32 = 0x9308;
pub const REFERENCED_BY_GEOMETRY_SHADER: u32 = 0x9309;
pub const REFERENCED_BY_FRAGMENT_SHADER: u32 = 0x930A;
pub const REFERENCED_BY_COMPUTE_SHADER: u32 = 0x930B;
pub const TOP_LEVEL_ARRAY_SIZE: u32 = 0x930C;
pub const TOP_LEVEL_ARRAY_STRIDE: u32 = 0x930D;
pub const LOCATION: u32 = 0x930E;
pub const LOCATION_INDEX: u32 = 0x930F;
pub const LOCATION_COMPONENT: u32 = 0x934A;
pub const NUM_COMPATIBLE_SUBROUTINES: u32 = 0x8E4A;
pub const COMPATIBLE_SUBROUTINES: u32 = 0x8E4B;
// glMemoryBarrier bits (GL 4.3 §7.12.2).
pub const VERTEX_ATTRIB_ARRAY_BARRIER_BIT: u32 = 0x0001;
pub const ELEMENT_ARRAY_BARRIER_BIT: u32 = 0x0002;
pub const UNIFORM_BARRIER_BIT: u32 = 0x0004;
pub const TEXTURE_FETCH_BARRIER_BIT: u32 = 0x0008;
pub const SHADER_IMAGE_ACCESS_BARRIER_BIT: u32 = 0x0020;
pub const COMMAND_BARRIER_BIT: u32 = 0x0040;
pub const PIXEL_BUFFER_BARRIER_BIT: u32 = 0x0080;
pub const TEXTURE_UPDATE_BARRIER_BIT: u32 = 0x0100;
pub const BUFFER_UPDATE_BARRIER_BIT: u32 = 0x0200;
pub const FRAMEBUFFER_BARRIER_BIT: u32 = 0x0400;
pub const TRANSFORM_FEEDBACK_BARRIER_BIT: u32 = 0x0800;
pub const ATOMIC_COUNTER_BARRIER_BIT: u32 = 0x1000;
pub const SHADER_STORAGE_BARRIER_BIT: u32 = 0x2000;
pub const CLIENT_MAPPED_BUFFER_BARRIER_BIT: u32 = 0x4000;
pub const QUERY_BUFFER_BARRIER_BIT: u32 = 0x8000;
pub const ALL_BARRIER_BITS: u32 = 0xFFFF_FFFF;
// GL 4.2 §8.26 image unit formats (table 8.27), limits and unit state.
pub const R11F_G11F_B10F: u32 = 0x8C3A;
pub const RGBA16: u32 = 0x805B;
pub const RGB10_A2: u32 = 0x8059;
pub const RG16: u32 = 0x822C;
pub const R16: u32 = 0x822A;
pub const RGBA16_SNORM: u32 = 0x8F9B;
pub const RGBA8_SNORM: u32 = 0x8F97;
pub const RG16_SNORM: u32 = 0x8F99;
pub const RG8_SNORM: u32 = 0x8F95;
pub const R16_SNORM: u32 = 0x8F98;
pub const R8_SNORM: u32 = 0x8F94;
pub const RGBA32I: u32 = 0x8D82;
pub const RGBA16I: u32 = 0x8D88;
pub const RGBA8I: u32 = 0x8D8E;
pub const RG32I: u32 = 0x823B;
pub const RG16I: u32 = 0x8239;
pub const RG8I: u32 = 0x8237;
pub const R32I: u32 = 0x8235;
pub const R16I: u32 = 0x8233;
pub const R8I: u32 = 0x8231;
pub const RGBA32UI: u32 = 0x8D70;
pub const RGBA16UI: u32 = 0x8D76;
pub const RGB10_A2UI: u32 = 0x906F;
pub const RGBA8UI: u32 = 0x8D7C;
pub const RG32UI: u32 = 0x823C;
pub const RG16UI: u32 = 0x823A;
pub const RG8UI: u32 = 0x8238;
pub const R32UI: u32 = 0x8236;
pub const R16UI: u32 = 0x8234;
pub const R8UI: u32 = 0x8232;
pub const MAX_IMAGE_UNITS: u32 = 0x8F38;
pub const MAX_IMAGE_SAMPLES: u32 = 0x906D;
pub const MAX_VERTEX_IMAGE_UNIFORMS: u32 = 0x90CA;
pub const MAX_GEOMETRY_IMAGE_UNIFORMS: u32 = 0x90CD;
pub const MAX_FRAGMENT_IMAGE_UNIFORMS: u32 = 0x90CE;
pub const MAX_COMBINED_IMAGE_UNIFORMS: u32 = 0x90CF;
/// `GL_IMAGE_FORMAT_COMPATIBILITY_TYPE` (a `glGetTexParameteriv` pname).
pub const IMAGE_FORMAT_COMPATIBILITY_TYPE: u32 = 0x90C7;
/// `GL_IMAGE_FORMAT_COMPATIBILITY_BY_SIZE`: what every rgl texture answers.
pub const IMAGE_FORMAT_COMPATIBILITY_BY_SIZE: u32 = 0x90C8;
/// `GL_IMAGE_FORMAT_COMPATIBILITY_BY_CLASS` (no rgl texture uses it).
pub const IMAGE_FORMAT_COMPATIBILITY_BY_CLASS: u32 = 0x90C9;
pub const IMAGE_BINDING_NAME: u32 = 0x8F3A;
pub const IMAGE_BINDING_LEVEL: u32 = 0x8F3B;
pub const IMAGE_BINDING_LAYERED: u32 = 0x8F3C;
pub const IMAGE_BINDING_LAYER: u32 = 0x8F3D;
pub const IMAGE_BINDING_ACCESS: u32 = 0x8F3E;
pub const IMAGE_BINDING_FORMAT: u32 = 0x906E;
}

/// `GL_TIMEOUT_IGNORED`, `glWaitSync`'s only timeout (a 64-bit value, so
/// outside the table of 32-bit enums).
pub const TIMEOUT_IGNORED: u64 = u64::MAX;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_names_are_unique_and_resolve() {
        let mut names: Vec<&str> = ALL.iter().map(|(n, _)| *n).collect();
        names.sort_unstable();
        let before = names.len();
        names.dedup();
        assert_eq!(names.len(), before, "a name appears twice in gl::ALL");
        assert_eq!(
            by_name("GL_FLOAT_MAT2x3"),
            Some(("GL_FLOAT_MAT2x3", FLOAT_MAT2x3))
        );
        assert_eq!(by_name("GL_TRIANGLES"), Some(("GL_TRIANGLES", TRIANGLES)));
        assert_eq!(by_name("TRIANGLES"), None);
    }
}
