//! Symbolic names shared by the printer and the reader: IO locations
//! (`VERT_ATTRIB_*`, `VARYING_SLOT_*`, `FRAG_RESULT_*`, `SYSTEM_VALUE_*`), ALU type codes
//! used in intrinsic indices (`float32`), access qualifiers and write masks.

use crate::opcodes::{AluType, Base};

/// `VERT_ATTRIB_POS` (`gl_Vertex`).
pub const VERT_ATTRIB_POS: i32 = 0;
/// First generic vertex attribute (`VERT_ATTRIB_GENERIC0`); generic `n` is this + n.
pub const VERT_ATTRIB_GENERIC0: i32 = 15;
/// `VARYING_SLOT_POS` (`gl_Position`, `gl_FragCoord`).
pub const VARYING_SLOT_POS: i32 = 0;
/// `VARYING_SLOT_PSIZ` (`gl_PointSize`).
pub const VARYING_SLOT_PSIZ: i32 = 12;
/// `VARYING_SLOT_CLIP_DIST0` (`gl_ClipDistance[0..4]`; `..4..8` is `CLIP_DIST1`).
pub const VARYING_SLOT_CLIP_DIST0: i32 = 17;
/// `VARYING_SLOT_PRIMITIVE_ID`: `gl_PrimitiveID` written by a geometry shader.
pub const VARYING_SLOT_PRIMITIVE_ID: i32 = 21;
/// `VARYING_SLOT_FACE`: `gl_FrontFacing` as a fragment input.
pub const VARYING_SLOT_FACE: i32 = 24;
/// `VARYING_SLOT_PNTC`: `gl_PointCoord`.
pub const VARYING_SLOT_PNTC: i32 = 25;
/// First user varying slot (`VARYING_SLOT_VAR0`).
pub const VARYING_SLOT_VAR0: i32 = 32;
/// Number of user varying slots.
pub const VARYING_SLOT_VAR_COUNT: i32 = 32;
/// `FRAG_RESULT_DEPTH` (`gl_FragDepth`).
pub const FRAG_RESULT_DEPTH: i32 = 0;
/// `FRAG_RESULT_COLOR` (`gl_FragColor`, written to every draw buffer).
pub const FRAG_RESULT_COLOR: i32 = 2;
/// First user fragment output (`FRAG_RESULT_DATA0`); color number `n` is this + n.
pub const FRAG_RESULT_DATA0: i32 = 4;

const VERT_ATTRIB: &[(&str, i32)] = &[
    ("VERT_ATTRIB_POS", 0),
    ("VERT_ATTRIB_NORMAL", 1),
    ("VERT_ATTRIB_COLOR0", 2),
    ("VERT_ATTRIB_COLOR1", 3),
    ("VERT_ATTRIB_FOG", 4),
    ("VERT_ATTRIB_COLOR_INDEX", 5),
    ("VERT_ATTRIB_TEX0", 6),
    ("VERT_ATTRIB_POINT_SIZE", 14),
];

const VARYING_SLOT: &[(&str, i32)] = &[
    ("VARYING_SLOT_POS", 0),
    ("VARYING_SLOT_COL0", 1),
    ("VARYING_SLOT_COL1", 2),
    ("VARYING_SLOT_FOGC", 3),
    ("VARYING_SLOT_TEX0", 4),
    ("VARYING_SLOT_PSIZ", 12),
    ("VARYING_SLOT_BFC0", 13),
    ("VARYING_SLOT_BFC1", 14),
    ("VARYING_SLOT_EDGE", 15),
    ("VARYING_SLOT_CLIP_VERTEX", 16),
    ("VARYING_SLOT_CLIP_DIST0", 17),
    ("VARYING_SLOT_CLIP_DIST1", 18),
    ("VARYING_SLOT_CULL_DIST0", 19),
    ("VARYING_SLOT_CULL_DIST1", 20),
    ("VARYING_SLOT_PRIMITIVE_ID", 21),
    ("VARYING_SLOT_LAYER", 22),
    ("VARYING_SLOT_VIEWPORT", 23),
    ("VARYING_SLOT_FACE", 24),
    ("VARYING_SLOT_PNTC", 25),
    ("VARYING_SLOT_TESS_LEVEL_OUTER", 26),
    ("VARYING_SLOT_TESS_LEVEL_INNER", 27),
];

const FRAG_RESULT: &[(&str, i32)] = &[
    ("FRAG_RESULT_DEPTH", 0),
    ("FRAG_RESULT_STENCIL", 1),
    ("FRAG_RESULT_COLOR", 2),
    ("FRAG_RESULT_SAMPLE_MASK", 3),
];

/// System values with their location numbers (our numbering).
pub const SYSTEM_VALUES: &[(&str, i32)] = &[
    ("SYSTEM_VALUE_FRONT_FACE", 0),
    ("SYSTEM_VALUE_FRAG_COORD", 1),
    ("SYSTEM_VALUE_POINT_COORD", 2),
    ("SYSTEM_VALUE_VERTEX_ID", 3),
    ("SYSTEM_VALUE_VERTEX_ID_ZERO_BASE", 4),
    ("SYSTEM_VALUE_BASE_VERTEX", 5),
    ("SYSTEM_VALUE_FIRST_VERTEX", 6),
    ("SYSTEM_VALUE_INSTANCE_ID", 7),
    ("SYSTEM_VALUE_BASE_INSTANCE", 8),
    ("SYSTEM_VALUE_DRAW_ID", 9),
    ("SYSTEM_VALUE_PRIMITIVE_ID", 10),
    ("SYSTEM_VALUE_INVOCATION_ID", 11),
    ("SYSTEM_VALUE_SAMPLE_ID", 12),
    ("SYSTEM_VALUE_SAMPLE_POS", 13),
    ("SYSTEM_VALUE_SAMPLE_MASK_IN", 14),
    ("SYSTEM_VALUE_HELPER_INVOCATION", 15),
    ("SYSTEM_VALUE_LAYER_ID", 16),
];

/// Which location namespace applies.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LocKind {
    /// Vertex shader inputs.
    VertAttrib,
    /// Varyings.
    Varying,
    /// Fragment outputs.
    FragResult,
    /// System values.
    SystemValue,
    /// Plain numbers.
    Plain,
}

fn ranged(table: &[(&'static str, i32)], loc: i32, ranges: &[(&str, i32, i32)]) -> Option<String> {
    if let Some((n, _)) = table.iter().find(|(_, v)| *v == loc) {
        return Some((*n).to_string());
    }
    for (prefix, start, count) in ranges {
        if loc >= *start && loc < start + count {
            return Some(format!("{prefix}{}", loc - start));
        }
    }
    None
}

const VA_RANGES: &[(&str, i32, i32)] =
    &[("VERT_ATTRIB_TEX", 6, 8), ("VERT_ATTRIB_GENERIC", 15, 16)];
const VS_RANGES: &[(&str, i32, i32)] = &[("VARYING_SLOT_TEX", 4, 8), ("VARYING_SLOT_VAR", 32, 32)];
const FR_RANGES: &[(&str, i32, i32)] = &[("FRAG_RESULT_DATA", 4, 8)];

/// Symbolic name of a location, or the number (`~0` for -1).
pub fn location_name(kind: LocKind, loc: i32) -> String {
    let named = match kind {
        LocKind::VertAttrib => ranged(VERT_ATTRIB, loc, VA_RANGES),
        LocKind::Varying => ranged(VARYING_SLOT, loc, VS_RANGES),
        LocKind::FragResult => ranged(FRAG_RESULT, loc, FR_RANGES),
        LocKind::SystemValue => ranged(SYSTEM_VALUES, loc, &[]),
        LocKind::Plain => None,
    };
    match named {
        Some(n) => n,
        None if loc == -1 => "~0".to_string(),
        None => loc.to_string(),
    }
}

/// Parses a location in any namespace (names are unique across namespaces).
pub fn parse_location(s: &str) -> Option<i32> {
    if s == "~0" {
        return Some(-1);
    }
    if let Ok(n) = s.parse::<i32>() {
        return Some(n);
    }
    for table in [VERT_ATTRIB, VARYING_SLOT, FRAG_RESULT, SYSTEM_VALUES] {
        if let Some((_, v)) = table.iter().find(|(n, _)| *n == s) {
            return Some(*v);
        }
    }
    for (prefix, start, count) in VA_RANGES.iter().chain(VS_RANGES).chain(FR_RANGES) {
        if let Some(num) = s.strip_prefix(prefix).and_then(|r| r.parse::<i32>().ok()) {
            if (0..*count).contains(&num) {
                return Some(start + num);
            }
        }
    }
    None
}

/// Encodes an ALU type as Mesa's `nir_alu_type` number (base | bit size).
pub fn alu_type_code(t: AluType) -> u32 {
    let base = match t.base {
        Base::Int => 2,
        Base::Uint => 4,
        Base::Bool => 6,
        Base::Float => 128,
    };
    base | u32::from(t.bits)
}

/// Decodes a `nir_alu_type` number.
pub fn alu_type_from_code(code: u32) -> Option<AluType> {
    let bits = (code & 0x79) as u8;
    let base = match code & !0x79 {
        2 => Base::Int,
        4 => Base::Uint,
        6 => Base::Bool,
        128 => Base::Float,
        _ => return None,
    };
    Some(AluType { base, bits })
}

/// Parses `float32`, `int`, `bool1`, ...
pub fn parse_alu_type(s: &str) -> Option<AluType> {
    let (base, rest) = [
        ("float", Base::Float),
        ("uint", Base::Uint),
        ("int", Base::Int),
        ("bool", Base::Bool),
    ]
    .into_iter()
    .find_map(|(p, b)| s.strip_prefix(p).map(|r| (b, r)))?;
    let bits = if rest.is_empty() {
        0
    } else {
        rest.parse().ok()?
    };
    Some(AluType { base, bits })
}

/// Access qualifier bits and names.
pub const ACCESS_FLAGS: &[(u32, &str)] = &[
    (1, "coherent"),
    (2, "volatile"),
    (4, "restrict"),
    (8, "readonly"),
    (16, "writeonly"),
    (32, "reorderable"),
];

/// Prints access bits (`none` or `a|b`).
pub fn access_name(bits: u32) -> String {
    if bits == 0 {
        return "none".to_string();
    }
    let mut parts: Vec<String> = ACCESS_FLAGS
        .iter()
        .filter(|(b, _)| bits & b != 0)
        .map(|(_, n)| n.to_string())
        .collect();
    let known: u32 = ACCESS_FLAGS.iter().map(|(b, _)| *b).sum();
    if bits & !known != 0 {
        parts.push(format!("0x{:x}", bits & !known));
    }
    parts.join("|")
}

/// Parses access bits.
pub fn parse_access(s: &str) -> Option<u32> {
    if s == "none" {
        return Some(0);
    }
    let mut bits = 0;
    for part in s.split('|') {
        if let Some(hex) = part.strip_prefix("0x") {
            bits |= u32::from_str_radix(hex, 16).ok()?;
        } else {
            bits |= ACCESS_FLAGS.iter().find(|(_, n)| *n == part)?.0;
        }
    }
    Some(bits)
}

/// Swizzle letters for values of at most 4 components.
pub const XYZW: &[u8; 4] = b"xyzw";
/// Swizzle letters for values of more than 4 components.
pub const ABCD: &[u8; 16] = b"abcdefghijklmnop";

/// Component index of a swizzle/mask letter (`xyzw` or `a`..`p`).
pub fn component_of(c: u8) -> Option<u8> {
    match c {
        b'x' => Some(0),
        b'y' => Some(1),
        b'z' => Some(2),
        b'w' => Some(3),
        b'a'..=b'p' => Some(c - b'a'),
        _ => None,
    }
}
