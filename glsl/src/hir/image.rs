//! Image format layout qualifiers (GLSL 4.20 §4.4.6.2, GLSL ES 3.10
//! §4.4.7): the texel format an image variable is read and written with,
//! and the image base type (float, int or uint) each format goes with.

use crate::types::ScalarKind;

/// One format layout qualifier (`layout(rgba32f) uniform image2D img;`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ImageFormat(usize);

/// Every format layout qualifier: its name, the kind of the image types it
/// applies to, and whether GLSL ES 3.10 has it.
const FORMATS: &[(&str, ScalarKind, bool)] = &[
    ("rgba32f", ScalarKind::Float, true),
    ("rgba16f", ScalarKind::Float, true),
    ("rg32f", ScalarKind::Float, false),
    ("rg16f", ScalarKind::Float, false),
    ("r11f_g11f_b10f", ScalarKind::Float, false),
    ("r32f", ScalarKind::Float, true),
    ("r16f", ScalarKind::Float, false),
    ("rgba16", ScalarKind::Float, false),
    ("rgb10_a2", ScalarKind::Float, false),
    ("rgba8", ScalarKind::Float, true),
    ("rg16", ScalarKind::Float, false),
    ("rg8", ScalarKind::Float, false),
    ("r16", ScalarKind::Float, false),
    ("r8", ScalarKind::Float, false),
    ("rgba16_snorm", ScalarKind::Float, false),
    ("rgba8_snorm", ScalarKind::Float, true),
    ("rg16_snorm", ScalarKind::Float, false),
    ("rg8_snorm", ScalarKind::Float, false),
    ("r16_snorm", ScalarKind::Float, false),
    ("r8_snorm", ScalarKind::Float, false),
    ("rgba32i", ScalarKind::Int, true),
    ("rgba16i", ScalarKind::Int, true),
    ("rgba8i", ScalarKind::Int, true),
    ("rg32i", ScalarKind::Int, false),
    ("rg16i", ScalarKind::Int, false),
    ("rg8i", ScalarKind::Int, false),
    ("r32i", ScalarKind::Int, true),
    ("r16i", ScalarKind::Int, false),
    ("r8i", ScalarKind::Int, false),
    ("rgba32ui", ScalarKind::Uint, true),
    ("rgba16ui", ScalarKind::Uint, true),
    ("rgb10_a2ui", ScalarKind::Uint, false),
    ("rgba8ui", ScalarKind::Uint, true),
    ("rg32ui", ScalarKind::Uint, false),
    ("rg16ui", ScalarKind::Uint, false),
    ("rg8ui", ScalarKind::Uint, false),
    ("r32ui", ScalarKind::Uint, true),
    ("r16ui", ScalarKind::Uint, false),
    ("r8ui", ScalarKind::Uint, false),
];

impl ImageFormat {
    /// The format named `name` (layout identifiers are case-sensitive from
    /// GLSL 4.20 on, so the caller compares as its version requires).
    pub fn from_name(name: &str, es: bool, eq: impl Fn(&str, &str) -> bool) -> Option<Self> {
        FORMATS
            .iter()
            .position(|(n, _, in_es)| eq(name, n) && (!es || *in_es))
            .map(ImageFormat)
    }

    /// The qualifier's spelling.
    pub fn name(self) -> &'static str {
        FORMATS.get(self.0).map_or("?", |f| f.0)
    }

    /// The kind of image the format applies to (`image*`, `iimage*`, `uimage*`).
    pub fn kind(self) -> ScalarKind {
        FORMATS.get(self.0).map_or(ScalarKind::Float, |f| f.1)
    }

    /// `r32f`, `r32i` or `r32ui`: the formats that GLSL ES 3.10 §4.10 lets
    /// an image be both read and written with, and that the image atomic
    /// functions need there.
    pub fn is_single_32bit(self) -> bool {
        matches!(self.name(), "r32f" | "r32i" | "r32ui")
    }
}
