//! Symbolic names shared by the printer, the reader, the passes, the state tracker and
//! the drivers: the one table of IO location numbers (`VERT_ATTRIB_*`,
//! `VARYING_SLOT_*`, `FRAG_RESULT_*` as in Mesa's `shader_enums.h`, and rgl's own
//! `SYSTEM_VALUE_*` numbering), as a named constant per slot with the printer's name
//! table generated from the same list; ALU type codes used in intrinsic indices
//! (`float32`), access qualifiers and write masks.

use crate::opcodes::{AluType, Base};

/// Declares named IO location constants and the name table the printer and the
/// reader use, from one list: each location number is written exactly once.
macro_rules! location_table {
    ($table:ident: $($(#[$doc:meta])* $name:ident = $value:expr,)*) => {
        $($(#[$doc])* pub const $name: i32 = $value;)*
        const $table: &[(&str, i32)] = &[$((stringify!($name), $name)),*];
    };
}

location_table! { VERT_ATTRIB:
    /// `VERT_ATTRIB_POS` (`gl_Vertex`).
    VERT_ATTRIB_POS = 0,
    /// `VERT_ATTRIB_NORMAL` (`gl_Normal`).
    VERT_ATTRIB_NORMAL = 1,
    /// `VERT_ATTRIB_COLOR0` (`gl_Color`).
    VERT_ATTRIB_COLOR0 = 2,
    /// `VERT_ATTRIB_COLOR1` (`gl_SecondaryColor`).
    VERT_ATTRIB_COLOR1 = 3,
    /// `VERT_ATTRIB_FOG` (`gl_FogCoord`).
    VERT_ATTRIB_FOG = 4,
    /// `VERT_ATTRIB_COLOR_INDEX`.
    VERT_ATTRIB_COLOR_INDEX = 5,
    /// `VERT_ATTRIB_TEX0` (`gl_MultiTexCoord0`); texture unit `n` is this + n.
    VERT_ATTRIB_TEX0 = 6,
    /// `VERT_ATTRIB_POINT_SIZE`.
    VERT_ATTRIB_POINT_SIZE = 14,
}

/// Number of `VERT_ATTRIB_TEXn` slots.
pub const VERT_ATTRIB_TEX_COUNT: i32 = 8;
/// First generic vertex attribute (`VERT_ATTRIB_GENERIC0`); generic `n` is this + n.
pub const VERT_ATTRIB_GENERIC0: i32 = 15;
/// Number of `VERT_ATTRIB_GENERICn` slots.
pub const VERT_ATTRIB_GENERIC_COUNT: i32 = 16;

location_table! { VARYING_SLOT:
    /// `VARYING_SLOT_POS` (`gl_Position`, `gl_FragCoord`).
    VARYING_SLOT_POS = 0,
    /// `VARYING_SLOT_COL0` (`gl_FrontColor` / FS `gl_Color`).
    VARYING_SLOT_COL0 = 1,
    /// `VARYING_SLOT_COL1` (`gl_FrontSecondaryColor` / FS `gl_SecondaryColor`).
    VARYING_SLOT_COL1 = 2,
    /// `VARYING_SLOT_FOGC` (`gl_FogFragCoord`).
    VARYING_SLOT_FOGC = 3,
    /// `VARYING_SLOT_TEX0` (`gl_TexCoord[0]`); `gl_TexCoord[n]` is this + n.
    VARYING_SLOT_TEX0 = 4,
    /// `VARYING_SLOT_PSIZ` (`gl_PointSize`).
    VARYING_SLOT_PSIZ = 12,
    /// `VARYING_SLOT_BFC0` (`gl_BackColor`).
    VARYING_SLOT_BFC0 = 13,
    /// `VARYING_SLOT_BFC1` (`gl_BackSecondaryColor`).
    VARYING_SLOT_BFC1 = 14,
    /// `VARYING_SLOT_EDGE` (`gl_EdgeFlag`).
    VARYING_SLOT_EDGE = 15,
    /// `VARYING_SLOT_CLIP_VERTEX` (`gl_ClipVertex`).
    VARYING_SLOT_CLIP_VERTEX = 16,
    /// `VARYING_SLOT_CLIP_DIST0` (`gl_ClipDistance[0..4]`).
    VARYING_SLOT_CLIP_DIST0 = 17,
    /// `VARYING_SLOT_CLIP_DIST1` (`gl_ClipDistance[4..8]`).
    VARYING_SLOT_CLIP_DIST1 = 18,
    /// `VARYING_SLOT_CULL_DIST0` (`gl_CullDistance[0..4]`).
    VARYING_SLOT_CULL_DIST0 = 19,
    /// `VARYING_SLOT_CULL_DIST1` (`gl_CullDistance[4..8]`).
    VARYING_SLOT_CULL_DIST1 = 20,
    /// `VARYING_SLOT_PRIMITIVE_ID`: `gl_PrimitiveID` written by a geometry shader.
    VARYING_SLOT_PRIMITIVE_ID = 21,
    /// `VARYING_SLOT_LAYER` (`gl_Layer`).
    VARYING_SLOT_LAYER = 22,
    /// `VARYING_SLOT_VIEWPORT` (`gl_ViewportIndex`).
    VARYING_SLOT_VIEWPORT = 23,
    /// `VARYING_SLOT_FACE` (`gl_FrontFacing` as an input).
    VARYING_SLOT_FACE = 24,
    /// `VARYING_SLOT_PNTC` (`gl_PointCoord` as an input).
    VARYING_SLOT_PNTC = 25,
    /// `VARYING_SLOT_TESS_LEVEL_OUTER`.
    VARYING_SLOT_TESS_LEVEL_OUTER = 26,
    /// `VARYING_SLOT_TESS_LEVEL_INNER`.
    VARYING_SLOT_TESS_LEVEL_INNER = 27,
}

/// Number of `VARYING_SLOT_TEXn` slots.
pub const VARYING_SLOT_TEX_COUNT: i32 = 8;
/// First user varying slot (`VARYING_SLOT_VAR0`).
pub const VARYING_SLOT_VAR0: i32 = 32;
/// Number of user varying slots.
pub const VARYING_SLOT_VAR_COUNT: i32 = 32;

location_table! { FRAG_RESULT:
    /// `FRAG_RESULT_DEPTH` (`gl_FragDepth`).
    FRAG_RESULT_DEPTH = 0,
    /// `FRAG_RESULT_STENCIL`.
    FRAG_RESULT_STENCIL = 1,
    /// `FRAG_RESULT_COLOR` (`gl_FragColor`, written to every draw buffer).
    FRAG_RESULT_COLOR = 2,
    /// `FRAG_RESULT_SAMPLE_MASK` (`gl_SampleMask`).
    FRAG_RESULT_SAMPLE_MASK = 3,
}

/// First user fragment output (`FRAG_RESULT_DATA0`); color number `n` is this + n.
pub const FRAG_RESULT_DATA0: i32 = 4;
/// Number of `FRAG_RESULT_DATAn` slots.
pub const FRAG_RESULT_DATA_COUNT: i32 = 8;

location_table! { SYSTEM_VALUE:
    /// `SYSTEM_VALUE_FRONT_FACE` (`gl_FrontFacing`).
    SYSTEM_VALUE_FRONT_FACE = 0,
    /// `SYSTEM_VALUE_FRAG_COORD` (`gl_FragCoord`).
    SYSTEM_VALUE_FRAG_COORD = 1,
    /// `SYSTEM_VALUE_POINT_COORD` (`gl_PointCoord`).
    SYSTEM_VALUE_POINT_COORD = 2,
    /// `SYSTEM_VALUE_VERTEX_ID` (`gl_VertexID`).
    SYSTEM_VALUE_VERTEX_ID = 3,
    /// `SYSTEM_VALUE_VERTEX_ID_ZERO_BASE`.
    SYSTEM_VALUE_VERTEX_ID_ZERO_BASE = 4,
    /// `SYSTEM_VALUE_BASE_VERTEX`.
    SYSTEM_VALUE_BASE_VERTEX = 5,
    /// `SYSTEM_VALUE_FIRST_VERTEX`.
    SYSTEM_VALUE_FIRST_VERTEX = 6,
    /// `SYSTEM_VALUE_INSTANCE_ID` (`gl_InstanceID`).
    SYSTEM_VALUE_INSTANCE_ID = 7,
    /// `SYSTEM_VALUE_BASE_INSTANCE`.
    SYSTEM_VALUE_BASE_INSTANCE = 8,
    /// `SYSTEM_VALUE_DRAW_ID`.
    SYSTEM_VALUE_DRAW_ID = 9,
    /// `SYSTEM_VALUE_PRIMITIVE_ID` (`gl_PrimitiveID` as an input).
    SYSTEM_VALUE_PRIMITIVE_ID = 10,
    /// `SYSTEM_VALUE_INVOCATION_ID` (`gl_InvocationID`).
    SYSTEM_VALUE_INVOCATION_ID = 11,
    /// `SYSTEM_VALUE_SAMPLE_ID` (`gl_SampleID`).
    SYSTEM_VALUE_SAMPLE_ID = 12,
    /// `SYSTEM_VALUE_SAMPLE_POS` (`gl_SamplePosition`).
    SYSTEM_VALUE_SAMPLE_POS = 13,
    /// `SYSTEM_VALUE_SAMPLE_MASK_IN` (`gl_SampleMaskIn`).
    SYSTEM_VALUE_SAMPLE_MASK_IN = 14,
    /// `SYSTEM_VALUE_HELPER_INVOCATION` (`gl_HelperInvocation`).
    SYSTEM_VALUE_HELPER_INVOCATION = 15,
    /// `SYSTEM_VALUE_LAYER_ID`.
    SYSTEM_VALUE_LAYER_ID = 16,
    /// `SYSTEM_VALUE_LOCAL_INVOCATION_ID` (`gl_LocalInvocationID`).
    SYSTEM_VALUE_LOCAL_INVOCATION_ID = 17,
    /// `SYSTEM_VALUE_WORKGROUP_ID` (`gl_WorkGroupID`).
    SYSTEM_VALUE_WORKGROUP_ID = 18,
    /// `SYSTEM_VALUE_NUM_WORKGROUPS` (`gl_NumWorkGroups`).
    SYSTEM_VALUE_NUM_WORKGROUPS = 19,
    /// `SYSTEM_VALUE_GLOBAL_INVOCATION_ID` (`gl_GlobalInvocationID`).
    SYSTEM_VALUE_GLOBAL_INVOCATION_ID = 20,
    /// `SYSTEM_VALUE_LOCAL_INVOCATION_INDEX` (`gl_LocalInvocationIndex`).
    SYSTEM_VALUE_LOCAL_INVOCATION_INDEX = 21,
    /// `SYSTEM_VALUE_WORKGROUP_SIZE` (`gl_WorkGroupSize` of a variable-size group,
    /// `gl_LocalGroupSizeARB`).
    SYSTEM_VALUE_WORKGROUP_SIZE = 22,
    /// `SYSTEM_VALUE_SUBGROUP_INVOCATION` (`gl_SubGroupInvocationARB`).
    SYSTEM_VALUE_SUBGROUP_INVOCATION = 23,
    /// `SYSTEM_VALUE_SUBGROUP_SIZE` (`gl_SubGroupSizeARB`).
    SYSTEM_VALUE_SUBGROUP_SIZE = 24,
    /// `SYSTEM_VALUE_SUBGROUP_EQ_MASK` (`gl_SubGroupEqMaskARB`).
    SYSTEM_VALUE_SUBGROUP_EQ_MASK = 25,
    /// `SYSTEM_VALUE_SUBGROUP_GE_MASK` (`gl_SubGroupGeMaskARB`).
    SYSTEM_VALUE_SUBGROUP_GE_MASK = 26,
    /// `SYSTEM_VALUE_SUBGROUP_GT_MASK` (`gl_SubGroupGtMaskARB`).
    SYSTEM_VALUE_SUBGROUP_GT_MASK = 27,
    /// `SYSTEM_VALUE_SUBGROUP_LE_MASK` (`gl_SubGroupLeMaskARB`).
    SYSTEM_VALUE_SUBGROUP_LE_MASK = 28,
    /// `SYSTEM_VALUE_SUBGROUP_LT_MASK` (`gl_SubGroupLtMaskARB`).
    SYSTEM_VALUE_SUBGROUP_LT_MASK = 29,
}

/// System values with their location numbers (rgl's numbering, not Mesa's).
pub const SYSTEM_VALUES: &[(&str, i32)] = SYSTEM_VALUE;

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

const VA_RANGES: &[(&str, i32, i32)] = &[
    ("VERT_ATTRIB_TEX", VERT_ATTRIB_TEX0, VERT_ATTRIB_TEX_COUNT),
    (
        "VERT_ATTRIB_GENERIC",
        VERT_ATTRIB_GENERIC0,
        VERT_ATTRIB_GENERIC_COUNT,
    ),
];
const VS_RANGES: &[(&str, i32, i32)] = &[
    (
        "VARYING_SLOT_TEX",
        VARYING_SLOT_TEX0,
        VARYING_SLOT_TEX_COUNT,
    ),
    (
        "VARYING_SLOT_VAR",
        VARYING_SLOT_VAR0,
        VARYING_SLOT_VAR_COUNT,
    ),
];
const FR_RANGES: &[(&str, i32, i32)] = &[(
    "FRAG_RESULT_DATA",
    FRAG_RESULT_DATA0,
    FRAG_RESULT_DATA_COUNT,
)];

/// Symbolic name of a location, or the number (`~0` for -1).
pub fn location_name(kind: LocKind, loc: i32) -> String {
    let named = match kind {
        LocKind::VertAttrib => ranged(VERT_ATTRIB, loc, VA_RANGES),
        LocKind::Varying => ranged(VARYING_SLOT, loc, VS_RANGES),
        LocKind::FragResult => ranged(FRAG_RESULT, loc, FR_RANGES),
        LocKind::SystemValue => ranged(SYSTEM_VALUE, loc, &[]),
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
    for table in [VERT_ATTRIB, VARYING_SLOT, FRAG_RESULT, SYSTEM_VALUE] {
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
