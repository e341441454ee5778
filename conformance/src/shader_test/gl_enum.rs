//! The GL enum names `.shader_test` files may spell out (`draw arrays GL_TRIANGLES`,
//! `enable GL_CLIP_PLANE0`, `active uniform x GL_UNIFORM_TYPE GL_FLOAT_VEC4`, …),
//! resolved through rgl's one table of GL enums ([`rgl_state::gl::ALL`]). piglit
//! resolves any registry name; a name that table lacks is a located parse
//! error rather than a silent zero.

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

/// Looks a name up.
pub fn lookup(name: &str) -> Option<GlEnum> {
    rgl_state::gl::by_name(name).map(|(name, value)| GlEnum { name, value })
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
    fn groups_resolve() {
        let unresolved: Vec<&&str> = PRIMITIVE_MODES
            .iter()
            .chain(COMPARE_FUNCS)
            .filter(|n| lookup(n).is_none())
            .collect();
        assert_eq!(unresolved, Vec::<&&str>::new());
    }
}
