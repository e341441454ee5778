//! The GL enum names `.shader_test` files may spell out (`draw arrays GL_TRIANGLES`,
//! `enable GL_CLIP_PLANE0`, `active uniform x GL_UNIFORM_TYPE GL_FLOAT_VEC4`, …),
//! with their values from the GL registry. piglit resolves any registry name; this
//! table holds those the shader_runner commands take, so an unknown name is a
//! located parse error rather than a silent zero.

use std::fmt;

/// A GL enum as written in a test: its name and registry value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GlEnum {
    /// Registry name, e.g. `GL_TRIANGLE_FAN`.
    pub name: &'static str,
    /// Registry value.
    pub value: u32,
}

impl fmt::Display for GlEnum {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

/// Every name the table knows, with its value.
pub const GL_ENUMS: &[(&str, u32)] = &[
    // Booleans (verify program_query values).
    ("GL_FALSE", 0),
    ("GL_TRUE", 1),
    // Primitive modes.
    ("GL_POINTS", 0x0000),
    ("GL_LINES", 0x0001),
    ("GL_LINE_LOOP", 0x0002),
    ("GL_LINE_STRIP", 0x0003),
    ("GL_TRIANGLES", 0x0004),
    ("GL_TRIANGLE_STRIP", 0x0005),
    ("GL_TRIANGLE_FAN", 0x0006),
    ("GL_QUADS", 0x0007),
    ("GL_QUAD_STRIP", 0x0008),
    ("GL_POLYGON", 0x0009),
    ("GL_LINES_ADJACENCY", 0x000A),
    ("GL_LINE_STRIP_ADJACENCY", 0x000B),
    ("GL_TRIANGLES_ADJACENCY", 0x000C),
    ("GL_TRIANGLE_STRIP_ADJACENCY", 0x000D),
    ("GL_PATCHES", 0x000E),
    // Comparison functions.
    ("GL_NEVER", 0x0200),
    ("GL_LESS", 0x0201),
    ("GL_EQUAL", 0x0202),
    ("GL_LEQUAL", 0x0203),
    ("GL_GREATER", 0x0204),
    ("GL_NOTEQUAL", 0x0205),
    ("GL_GEQUAL", 0x0206),
    ("GL_ALWAYS", 0x0207),
    // Faces and polygon modes.
    ("GL_FRONT", 0x0404),
    ("GL_BACK", 0x0405),
    ("GL_FRONT_AND_BACK", 0x0408),
    ("GL_POINT", 0x1B00),
    ("GL_LINE", 0x1B01),
    ("GL_FILL", 0x1B02),
    // Capabilities (enable / disable).
    ("GL_LINE_SMOOTH", 0x0B20),
    ("GL_POLYGON_SMOOTH", 0x0B41),
    ("GL_CULL_FACE", 0x0B44),
    ("GL_LIGHTING", 0x0B50),
    ("GL_DEPTH_TEST", 0x0B71),
    ("GL_STENCIL_TEST", 0x0B90),
    ("GL_ALPHA_TEST", 0x0BC0),
    ("GL_DITHER", 0x0BD0),
    ("GL_BLEND", 0x0BE2),
    ("GL_COLOR_LOGIC_OP", 0x0BF2),
    ("GL_SCISSOR_TEST", 0x0C11),
    ("GL_TEXTURE_1D", 0x0DE0),
    ("GL_TEXTURE_2D", 0x0DE1),
    ("GL_CLIP_PLANE0", 0x3000),
    ("GL_CLIP_PLANE1", 0x3001),
    ("GL_CLIP_PLANE2", 0x3002),
    ("GL_CLIP_PLANE3", 0x3003),
    ("GL_CLIP_PLANE4", 0x3004),
    ("GL_CLIP_PLANE5", 0x3005),
    ("GL_CLIP_PLANE6", 0x3006),
    ("GL_CLIP_PLANE7", 0x3007),
    ("GL_CLIP_DISTANCE0", 0x3000),
    ("GL_CLIP_DISTANCE1", 0x3001),
    ("GL_CLIP_DISTANCE2", 0x3002),
    ("GL_CLIP_DISTANCE3", 0x3003),
    ("GL_CLIP_DISTANCE4", 0x3004),
    ("GL_CLIP_DISTANCE5", 0x3005),
    ("GL_CLIP_DISTANCE6", 0x3006),
    ("GL_CLIP_DISTANCE7", 0x3007),
    ("GL_POLYGON_OFFSET_FILL", 0x8037),
    ("GL_MULTISAMPLE", 0x809D),
    ("GL_SAMPLE_ALPHA_TO_COVERAGE", 0x809E),
    ("GL_PROGRAM_POINT_SIZE", 0x8642),
    ("GL_VERTEX_PROGRAM_POINT_SIZE", 0x8642),
    ("GL_VERTEX_PROGRAM_TWO_SIDE", 0x8643),
    ("GL_DEPTH_CLAMP", 0x864F),
    ("GL_POINT_SPRITE", 0x8861),
    ("GL_TEXTURE_CUBE_MAP_SEAMLESS", 0x884F),
    ("GL_CLAMP_VERTEX_COLOR", 0x891A),
    ("GL_CLAMP_FRAGMENT_COLOR", 0x891B),
    ("GL_RASTERIZER_DISCARD", 0x8C89),
    ("GL_FRAMEBUFFER_SRGB", 0x8DB9),
    ("GL_PRIMITIVE_RESTART", 0x8F9D),
    // Hints.
    ("GL_PERSPECTIVE_CORRECTION_HINT", 0x0C50),
    ("GL_LINE_SMOOTH_HINT", 0x0C52),
    ("GL_POLYGON_SMOOTH_HINT", 0x0C53),
    ("GL_DONT_CARE", 0x1100),
    ("GL_FASTEST", 0x1101),
    ("GL_NICEST", 0x1102),
    ("GL_FRAGMENT_SHADER_DERIVATIVE_HINT", 0x8B8B),
    // Provoking vertex.
    ("GL_FIRST_VERTEX_CONVENTION", 0x8E4D),
    ("GL_LAST_VERTEX_CONVENTION", 0x8E4E),
    // Data and uniform types.
    ("GL_BYTE", 0x1400),
    ("GL_UNSIGNED_BYTE", 0x1401),
    ("GL_SHORT", 0x1402),
    ("GL_UNSIGNED_SHORT", 0x1403),
    ("GL_INT", 0x1404),
    ("GL_UNSIGNED_INT", 0x1405),
    ("GL_FLOAT", 0x1406),
    ("GL_DOUBLE", 0x140A),
    ("GL_HALF_FLOAT", 0x140B),
    ("GL_FLOAT_VEC2", 0x8B50),
    ("GL_FLOAT_VEC3", 0x8B51),
    ("GL_FLOAT_VEC4", 0x8B52),
    ("GL_INT_VEC2", 0x8B53),
    ("GL_INT_VEC3", 0x8B54),
    ("GL_INT_VEC4", 0x8B55),
    ("GL_BOOL", 0x8B56),
    ("GL_BOOL_VEC2", 0x8B57),
    ("GL_BOOL_VEC3", 0x8B58),
    ("GL_BOOL_VEC4", 0x8B59),
    ("GL_FLOAT_MAT2", 0x8B5A),
    ("GL_FLOAT_MAT3", 0x8B5B),
    ("GL_FLOAT_MAT4", 0x8B5C),
    ("GL_SAMPLER_1D", 0x8B5D),
    ("GL_SAMPLER_2D", 0x8B5E),
    ("GL_SAMPLER_3D", 0x8B5F),
    ("GL_SAMPLER_CUBE", 0x8B60),
    ("GL_SAMPLER_1D_SHADOW", 0x8B61),
    ("GL_SAMPLER_2D_SHADOW", 0x8B62),
    ("GL_SAMPLER_2D_RECT", 0x8B63),
    ("GL_SAMPLER_2D_RECT_SHADOW", 0x8B64),
    ("GL_FLOAT_MAT2x3", 0x8B65),
    ("GL_FLOAT_MAT2x4", 0x8B66),
    ("GL_FLOAT_MAT3x2", 0x8B67),
    ("GL_FLOAT_MAT3x4", 0x8B68),
    ("GL_FLOAT_MAT4x2", 0x8B69),
    ("GL_FLOAT_MAT4x3", 0x8B6A),
    ("GL_SAMPLER_1D_ARRAY", 0x8DC0),
    ("GL_SAMPLER_2D_ARRAY", 0x8DC1),
    ("GL_SAMPLER_1D_ARRAY_SHADOW", 0x8DC3),
    ("GL_SAMPLER_2D_ARRAY_SHADOW", 0x8DC4),
    ("GL_SAMPLER_CUBE_SHADOW", 0x8DC5),
    ("GL_UNSIGNED_INT_VEC2", 0x8DC6),
    ("GL_UNSIGNED_INT_VEC3", 0x8DC7),
    ("GL_UNSIGNED_INT_VEC4", 0x8DC8),
    ("GL_INT_SAMPLER_2D", 0x8DCA),
    ("GL_UNSIGNED_INT_SAMPLER_2D", 0x8DD2),
    // Active-uniform queries (glGetActiveUniformsiv).
    ("GL_UNIFORM_TYPE", 0x8A37),
    ("GL_UNIFORM_SIZE", 0x8A38),
    ("GL_UNIFORM_NAME_LENGTH", 0x8A39),
    ("GL_UNIFORM_BLOCK_INDEX", 0x8A3A),
    ("GL_UNIFORM_OFFSET", 0x8A3B),
    ("GL_UNIFORM_ARRAY_STRIDE", 0x8A3C),
    ("GL_UNIFORM_MATRIX_STRIDE", 0x8A3D),
    ("GL_UNIFORM_IS_ROW_MAJOR", 0x8A3E),
    // Program queries (glGetProgramiv).
    ("GL_DELETE_STATUS", 0x8B80),
    ("GL_LINK_STATUS", 0x8B82),
    ("GL_VALIDATE_STATUS", 0x8B83),
    ("GL_INFO_LOG_LENGTH", 0x8B84),
    ("GL_ATTACHED_SHADERS", 0x8B85),
    ("GL_ACTIVE_UNIFORMS", 0x8B86),
    ("GL_ACTIVE_UNIFORM_MAX_LENGTH", 0x8B87),
    ("GL_ACTIVE_ATTRIBUTES", 0x8B89),
    ("GL_ACTIVE_ATTRIBUTE_MAX_LENGTH", 0x8B8A),
    ("GL_ACTIVE_UNIFORM_BLOCKS", 0x8A36),
    ("GL_GEOMETRY_VERTICES_OUT", 0x8916),
    ("GL_GEOMETRY_INPUT_TYPE", 0x8917),
    ("GL_GEOMETRY_OUTPUT_TYPE", 0x8918),
    // Limits ([require] lines and `INT` checks).
    ("GL_MAX_CLIP_PLANES", 0x0D32),
    ("GL_MAX_TEXTURE_SIZE", 0x0D33),
    ("GL_MAX_DRAW_BUFFERS", 0x8824),
    ("GL_MAX_VERTEX_ATTRIBS", 0x8869),
    ("GL_MAX_TEXTURE_IMAGE_UNITS", 0x8872),
    ("GL_NUM_PROGRAM_BINARY_FORMATS", 0x87FE),
    ("GL_MAX_FRAGMENT_UNIFORM_COMPONENTS", 0x8B49),
    ("GL_MAX_VERTEX_UNIFORM_COMPONENTS", 0x8B4A),
    ("GL_MAX_VARYING_COMPONENTS", 0x8B4B),
    ("GL_MAX_VARYING_FLOATS", 0x8B4B),
    ("GL_MAX_VERTEX_TEXTURE_IMAGE_UNITS", 0x8B4C),
    ("GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS", 0x8B4D),
    ("GL_MAX_VERTEX_UNIFORM_BLOCKS", 0x8A2B),
    ("GL_MAX_GEOMETRY_UNIFORM_BLOCKS", 0x8A2C),
    ("GL_MAX_FRAGMENT_UNIFORM_BLOCKS", 0x8A2D),
    ("GL_MAX_UNIFORM_BLOCK_SIZE", 0x8A30),
    ("GL_MAX_GEOMETRY_UNIFORM_COMPONENTS", 0x8DDF),
    ("GL_MAX_GEOMETRY_OUTPUT_VERTICES", 0x8DE0),
    ("GL_MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS", 0x8DE1),
    ("GL_MAX_VERTEX_OUTPUT_COMPONENTS", 0x9122),
    ("GL_MAX_GEOMETRY_INPUT_COMPONENTS", 0x9123),
    ("GL_MAX_GEOMETRY_OUTPUT_COMPONENTS", 0x9124),
    ("GL_MAX_FRAGMENT_INPUT_COMPONENTS", 0x9125),
];

/// Looks a name up.
pub fn lookup(name: &str) -> Option<GlEnum> {
    GL_ENUMS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(name, value)| GlEnum { name, value })
}

/// Looks a name up, with an error naming it when unknown.
pub fn parse(name: &str) -> Result<GlEnum, String> {
    lookup(name).ok_or_else(|| format!("unknown GL enum {name:?}"))
}

/// Parses a name that must belong to `group` (a list of accepted names), so
/// `draw arrays GL_DEPTH_TEST` is refused where a primitive mode is needed.
pub fn parse_in(name: &str, group: &[&str], what: &str) -> Result<GlEnum, String> {
    if group.contains(&name) {
        parse(name)
    } else {
        Err(format!("{name:?} is not a {what}"))
    }
}

/// Primitive modes accepted by `draw arrays`.
pub const PRIMITIVE_MODES: &[&str] = &[
    "GL_POINTS",
    "GL_LINES",
    "GL_LINE_LOOP",
    "GL_LINE_STRIP",
    "GL_TRIANGLES",
    "GL_TRIANGLE_STRIP",
    "GL_TRIANGLE_FAN",
    "GL_QUADS",
    "GL_QUAD_STRIP",
    "GL_POLYGON",
    "GL_LINES_ADJACENCY",
    "GL_LINE_STRIP_ADJACENCY",
    "GL_TRIANGLES_ADJACENCY",
    "GL_TRIANGLE_STRIP_ADJACENCY",
    "GL_PATCHES",
];

/// Comparison functions (`depthfunc`).
pub const COMPARE_FUNCS: &[&str] = &[
    "GL_NEVER",
    "GL_LESS",
    "GL_EQUAL",
    "GL_LEQUAL",
    "GL_GREATER",
    "GL_NOTEQUAL",
    "GL_GEQUAL",
    "GL_ALWAYS",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_groups_resolve() {
        let mut names: Vec<&str> = GL_ENUMS.iter().map(|(n, _)| *n).collect();
        names.sort_unstable();
        let before = names.len();
        names.dedup();
        assert_eq!(names.len(), before, "a name appears twice in GL_ENUMS");
        let unresolved: Vec<&&str> = PRIMITIVE_MODES
            .iter()
            .chain(COMPARE_FUNCS)
            .filter(|n| lookup(n).is_none())
            .collect();
        assert_eq!(unresolved, Vec::<&&str>::new());
    }
}
