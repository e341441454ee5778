//! `layout(...)` identifiers: which identifiers exist in which version and
//! extension (Mesa's `layout_qualifier_id` rule), their values, duplicates inside
//! one group, the rules of qualifier-only declarations (`layout(triangles) in;`)
//! and merging those into the stage-wide [`ShaderLayout`].

use crate::ast::{ExprKind, LayoutItem};
use crate::builtins::variables::limits::{
    MAX_COMPUTE_WORK_GROUP_INVOCATIONS, MAX_COMPUTE_WORK_GROUP_SIZE,
    MAX_TRANSFORM_FEEDBACK_BUFFERS, MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS,
};
use crate::diag::Diagnostic;
use crate::hir::{BlockPacking, GsPrimitive, MatrixLayout, ShaderLayout};
use crate::span::SourceLoc;
use crate::version::Stage;

use super::{
    DepthLayout, LayoutQualifiers, LayoutValue, QualifierEnv, QualifierError, ResolvedQualifiers,
    StorageClass,
};

/// GL_MAX_GEOMETRY_OUTPUT_VERTICES of rgl (Mesa's llvmpipe/softpipe value).
pub const MAX_GEOMETRY_OUTPUT_VERTICES: u32 = 1024;
/// GL_MAX_GEOMETRY_SHADER_INVOCATIONS of rgl.
pub const MAX_GEOMETRY_SHADER_INVOCATIONS: u32 = 32;

/// One recognised layout identifier, as a flag for the duplicate rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Id {
    OriginUpperLeft,
    PixelCenterInteger,
    Depth,
    Packing,
    Matrix,
    Primitive,
    EarlyFragmentTests,
    Location,
    Index,
    Binding,
    MaxVertices,
    Invocations,
    Stream,
    Component,
    Offset,
    Align,
    XfbBuffer,
    XfbOffset,
    XfbStride,
    LocalSizeX,
    LocalSizeY,
    LocalSizeZ,
    ImageFormat,
    /// Recognised but unavailable (already reported); never a duplicate.
    Rejected,
}

impl Id {
    /// Identifiers that may repeat (the rightmost wins), as in Mesa.
    fn may_repeat(self) -> bool {
        matches!(self, Id::Packing | Id::Matrix | Id::Binding | Id::Rejected)
    }
}

/// Compares a written identifier with a layout name: case-insensitive in desktop
/// GLSL, exact in GLSL ES (Mesa's `match_layout_qualifier`).
fn matches(written: &str, name: &str, env: &QualifierEnv<'_>) -> bool {
    if env.version.is_es() {
        written == name
    } else {
        written.eq_ignore_ascii_case(name)
    }
}

/// The value of `name = value`: `Some` for an integer literal (an unsigned
/// literal is read as Mesa reads `value.i[0]`) or, with enhanced layouts, an
/// integral constant expression (GLSL 4.40 §4.4); `None` after reporting
/// anything else.
fn literal_value(
    item: &LayoutItem,
    env: &QualifierEnv<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<i64> {
    let expr = item.value.as_deref()?;
    let not_integral = |diags: &mut Vec<Diagnostic>| {
        diags.push(Diagnostic::error(
            expr.loc,
            QualifierError::LayoutNotIntegral(item.name.name.to_string()),
        ));
        None
    };
    match expr.kind {
        ExprKind::IntConst(v) => return Some(i64::from(v)),
        ExprKind::UintConst(v) => return Some(i64::from(v as i32)),
        _ => {}
    }
    if env.has_enhanced_layouts() {
        return match env
            .layout_values
            .iter()
            .find(|(loc, _)| *loc == expr.loc)
            .map(|&(_, v)| v)
        {
            Some(LayoutValue::Int(v)) => Some(v),
            _ => not_integral(diags),
        };
    }
    diags.push(Diagnostic::error(
        item.name.loc,
        QualifierError::LayoutConstantExpression,
    ));
    match expr.kind {
        ExprKind::FloatConst(_) | ExprKind::BoolConst(_) | ExprKind::DoubleConst(_) => {
            not_integral(diags)
        }
        _ => None,
    }
}

/// A value of at least `min` (0 or 1), or `None` after reporting a smaller one
/// (Mesa's `process_qualifier_constant`).
fn at_least(
    item: &LayoutItem,
    value: Option<i64>,
    min: i64,
    diags: &mut Vec<Diagnostic>,
) -> Option<u32> {
    let v = value?;
    if v < min {
        let loc = item.value.as_deref().map_or(item.name.loc, |e| e.loc);
        diags.push(Diagnostic::error(
            loc,
            QualifierError::LayoutBelow {
                name: item.name.name.to_string(),
                value: v,
                min,
            },
        ));
        return None;
    }
    u32::try_from(v).ok()
}

/// A non-negative value, or `None` after reporting a negative one.
fn non_negative(item: &LayoutItem, value: Option<i64>, diags: &mut Vec<Diagnostic>) -> Option<i64> {
    let v = value?;
    if v < 0 {
        let loc = item.value.as_deref().map_or(item.name.loc, |e| e.loc);
        diags.push(Diagnostic::error(
            loc,
            QualifierError::LayoutNegative {
                name: item.name.name.to_string(),
                value: v,
            },
        ));
        return None;
    }
    Some(v)
}

/// Reads one `layout(...)` group into `out`. `seen` holds the identifiers
/// already merged from earlier groups when those may be merged (420pack).
pub(super) fn parse_group(
    items: &[LayoutItem],
    env: &QualifierEnv<'_>,
    out: &mut LayoutQualifiers,
    diags: &mut Vec<Diagnostic>,
) {
    let mut seen: Vec<Id> = Vec::new();
    for item in items {
        let Some(id) = parse_item(item, env, out, diags) else {
            continue;
        };
        // GLSL 4.40 §4.4: "the same layout-qualifier-name can occur multiple
        // times within a layout qualifier ... the last occurrence overrides".
        if !id.may_repeat() && !env.has_enhanced_layouts() && seen.contains(&id) {
            diags.push(Diagnostic::error(
                item.name.loc,
                QualifierError::DuplicateLayoutIds,
            ));
        }
        seen.push(id);
    }
}

/// Recognises one identifier and stores its meaning; `None` when it was not
/// recognised (reported).
fn parse_item(
    item: &LayoutItem,
    env: &QualifierEnv<'_>,
    out: &mut LayoutQualifiers,
    diags: &mut Vec<Diagnostic>,
) -> Option<Id> {
    let name = &*item.name.name;
    let loc = item.name.loc;
    let is = |target: &str| matches(name, target, env);
    let unrecognized = |diags: &mut Vec<Diagnostic>| {
        diags.push(Diagnostic::error(
            loc,
            QualifierError::UnrecognizedLayout(name.to_string()),
        ));
        None
    };

    if item.value.is_none() {
        // GLSL 4.20 §4.4.6.2: format layout qualifiers (ES 3.10 §4.4.7 has
        // a subset); the image type they go with is checked with the
        // declaration.
        if env.has_images() {
            let es = env.version.is_es();
            let format =
                crate::hir::image::ImageFormat::from_name(name, es, |a, b| matches(a, b, env));
            if let Some(format) = format {
                out.image_format = Some(format);
                return Some(Id::ImageFormat);
            }
        }
        if env.has_fragment_coord_conventions() {
            if is("origin_upper_left") {
                out.origin_upper_left = true;
                return Some(Id::OriginUpperLeft);
            }
            if is("pixel_center_integer") {
                out.pixel_center_integer = true;
                return Some(Id::PixelCenterInteger);
            }
        }
        if env.has_conservative_depth() {
            let depth = [
                ("depth_any", DepthLayout::Any),
                ("depth_greater", DepthLayout::Greater),
                ("depth_less", DepthLayout::Less),
                ("depth_unchanged", DepthLayout::Unchanged),
            ];
            if let Some(&(_, d)) = depth.iter().find(|(n, _)| is(n)) {
                out.depth_layout = Some(d);
                return Some(Id::Depth);
            }
        }
        // `packed` is a reserved word and `row_major` one from GLSL 1.30, so
        // Mesa's grammar takes them as tokens without the version test the
        // other block layouts get.
        if is("packed") {
            out.packing = Some(BlockPacking::Packed);
            return Some(Id::Packing);
        }
        if is("row_major") && (env.has_uniform_buffer_objects() || env.version.at_least(130, 0)) {
            out.matrix_layout = MatrixLayout::RowMajor;
            return Some(Id::Matrix);
        }
        if env.has_uniform_buffer_objects() || env.has_shader_storage() {
            if is("std140") {
                out.packing = Some(BlockPacking::Std140);
                return Some(Id::Packing);
            }
            if is("shared") {
                out.packing = Some(BlockPacking::Shared);
                return Some(Id::Packing);
            }
            if is("std430") && env.has_shader_storage() {
                out.packing = Some(BlockPacking::Std430);
                return Some(Id::Packing);
            }
            if is("column_major") {
                out.matrix_layout = MatrixLayout::ColumnMajor;
                return Some(Id::Matrix);
            }
            if is("std430") {
                return requires(
                    loc,
                    "layout qualifier `std430'".to_string(),
                    "GLSL 4.30 or GL_ARB_shader_storage_buffer_object",
                    diags,
                );
            }
        }
        let primitives = [
            ("points", GsPrimitive::Points),
            ("lines", GsPrimitive::Lines),
            ("lines_adjacency", GsPrimitive::LinesAdjacency),
            ("line_strip", GsPrimitive::LineStrip),
            ("triangles", GsPrimitive::Triangles),
            ("triangles_adjacency", GsPrimitive::TrianglesAdjacency),
            ("triangle_strip", GsPrimitive::TriangleStrip),
        ];
        if let Some(&(_, p)) = primitives.iter().find(|(n, _)| is(n)) {
            if !env.has_geometry_shader() {
                diags.push(Diagnostic::error(
                    loc,
                    QualifierError::LayoutNeeds150(name.to_string()),
                ));
            }
            out.primitive = Some(p);
            return Some(Id::Primitive);
        }
        if is("early_fragment_tests") {
            if env.stage != Stage::Fragment {
                diags.push(Diagnostic::error(
                    loc,
                    QualifierError::EarlyFragmentTestsStage,
                ));
            }
            out.early_fragment_tests = true;
            return Some(Id::EarlyFragmentTests);
        }
        let tessellation = [
            "quads",
            "isolines",
            "equal_spacing",
            "fractional_odd_spacing",
            "fractional_even_spacing",
            "cw",
            "ccw",
            "point_mode",
        ];
        if tessellation.iter().any(|n| is(n)) {
            return requires(
                loc,
                format!("layout qualifier `{name}'"),
                "GLSL 4.00 or ARB_tessellation_shader",
                diags,
            );
        }
        return unrecognized(diags);
    }

    let value = literal_value(item, env, diags);
    if is("location") {
        out.location = non_negative(item, value, diags).and_then(|v| i32::try_from(v).ok());
        return Some(Id::Location);
    }
    if is("index") {
        if env.version.is_es() && !env.has_extension("GL_EXT_blend_func_extended") {
            let vloc = item.value.as_deref().map_or(loc, |e| e.loc);
            diags.push(Diagnostic::error(
                vloc,
                QualifierError::IndexRequiresExtension,
            ));
            return Some(Id::Rejected);
        }
        out.index = non_negative(item, value, diags).and_then(|v| i32::try_from(v).ok());
        return Some(Id::Index);
    }
    // Mesa's grammar: `binding` with 420pack, ES 3.10, atomic counters or
    // shader storage buffer objects.
    if is("binding")
        && (env.has_420pack()
            || env.version.at_least(0, 310)
            || env.has_atomic_counters()
            || env.has_shader_storage()
            || env.has_images())
    {
        out.binding = non_negative(item, value, diags).and_then(|v| i32::try_from(v).ok());
        return Some(Id::Binding);
    }
    if is("max_vertices") {
        if !env.has_geometry_shader() {
            let vloc = item.value.as_deref().map_or(loc, |e| e.loc);
            diags.push(Diagnostic::error(
                vloc,
                QualifierError::MaxVerticesUnavailable,
            ));
        }
        out.max_vertices = non_negative(item, value, diags).and_then(|v| u32::try_from(v).ok());
        return Some(Id::MaxVertices);
    }
    // GLSL 4.00 §4.4.2.1: `stream` is a geometry shader output identifier.
    if is("stream") && env.stage == Stage::Geometry && env.has_gpu_shader5() {
        let vloc = item.value.as_deref().map_or(loc, |e| e.loc);
        let v = non_negative(item, value, diags);
        out.stream = super::gpu_shader5::stream_value(v, vloc, diags);
        return Some(Id::Stream);
    }
    if is("invocations") {
        if !env.has_gpu_shader5() {
            let vloc = item.value.as_deref().map_or(loc, |e| e.loc);
            diags.push(Diagnostic::error(
                vloc,
                QualifierError::InvocationsUnavailable,
            ));
        }
        out.invocations = non_negative(item, value, diags).and_then(|v| u32::try_from(v).ok());
        return Some(Id::Invocations);
    }
    if let Some(id) = parse_enhanced_item(item, value, env, out, diags) {
        return Some(id);
    }
    let later: [(&str, &'static str); 2] = [
        ("vertices", "GLSL 4.00 or ARB_tessellation_shader"),
        ("stream", "GL_ARB_gpu_shader5 extension or GLSL 4.00"),
    ];
    if let Some(&(n, requirement)) = later.iter().find(|(n, _)| is(n)) {
        // `stream` is only a layout identifier in geometry shaders.
        if n != "stream" || env.stage == Stage::Geometry {
            return requires(loc, format!("{n} qualifier"), requirement, diags);
        }
    }
    unrecognized(diags)
}

/// The identifiers of GLSL 4.40 enhanced layouts (§4.4.1 `component`, §4.4.2.1
/// `xfb_*`, §4.4.5 `offset`/`align`) and the compute ones rgl does not have;
/// `None` when `item` is none of them.
fn parse_enhanced_item(
    item: &LayoutItem,
    value: Option<i64>,
    env: &QualifierEnv<'_>,
    out: &mut LayoutQualifiers,
    diags: &mut Vec<Diagnostic>,
) -> Option<Id> {
    let name = &*item.name.name;
    let loc = item.name.loc;
    let vloc = item.value.as_deref().map_or(loc, |e| e.loc);
    let is = |target: &str| matches(name, target, env);
    let compute = [
        ("local_size_x", Id::LocalSizeX),
        ("local_size_y", Id::LocalSizeY),
        ("local_size_z", Id::LocalSizeZ),
    ];
    if let Some(dim) = compute.iter().position(|(n, _)| is(n)) {
        if env.has_compute_shader() {
            // ARB_compute_shader: "The default size in each dimension is 1";
            // a size below 1 is meaningless and rejected.
            out.local_size[dim] = at_least(item, value, 1, diags);
            return Some(compute[dim].1);
        }
        return requires(
            loc,
            format!("{} qualifier", name.to_ascii_lowercase()),
            "GLSL 4.30 or GLSL ES 3.10 or ARB_compute_shader",
            diags,
        );
    }
    let enhanced = [
        ("component", Id::Component),
        ("offset", Id::Offset),
        ("align", Id::Align),
        ("xfb_buffer", Id::XfbBuffer),
        ("xfb_offset", Id::XfbOffset),
        ("xfb_stride", Id::XfbStride),
    ];
    let &(word, id) = enhanced.iter().find(|(n, _)| is(n))?;
    // `offset` also exists for atomic counters (GLSL 4.20 §4.4.4.6).
    let atomic_offset = id == Id::Offset && env.has_atomic_counters();
    if !atomic_offset && (env.version.is_es() || !env.has_enhanced_layouts()) {
        return requires(
            loc,
            format!("{word} qualifier"),
            "GLSL 4.40 or ARB_enhanced_layouts",
            diags,
        );
    }
    if matches!(id, Id::XfbBuffer | Id::XfbOffset | Id::XfbStride) {
        out.xfb_written = true;
    }
    match id {
        Id::Component => {
            // §4.4.1: "It is a compile-time error if component is greater than 3."
            out.component = at_least(item, value, 0, diags);
            if let Some(c) = out.component.filter(|&c| c > 3) {
                diags.push(Diagnostic::error(vloc, QualifierError::ComponentRange(c)));
                out.component = None;
            }
        }
        Id::Offset => out.offset = at_least(item, value, 0, diags),
        Id::Align => {
            // §4.4.5: "It is a compile-time error to specify an align that is
            // not a power of 2."
            out.align = at_least(item, value, 1, diags);
            if let Some(a) = out.align.filter(|a| !a.is_power_of_two()) {
                diags.push(Diagnostic::error(
                    vloc,
                    QualifierError::AlignNotPowerOfTwo(a),
                ));
                out.align = None;
            }
        }
        Id::XfbBuffer => {
            // §4.4.2.1: "It is a compile-time error to specify an xfb_buffer
            // that is greater than the implementation-dependent constant
            // gl_MaxTransformFeedbackBuffers - 1."
            out.xfb_buffer = at_least(item, value, 0, diags);
            if let Some(b) = out
                .xfb_buffer
                .filter(|&b| b >= MAX_TRANSFORM_FEEDBACK_BUFFERS as u32)
            {
                diags.push(Diagnostic::error(
                    vloc,
                    QualifierError::XfbBufferRange {
                        value: b,
                        limit: MAX_TRANSFORM_FEEDBACK_BUFFERS as u32,
                    },
                ));
                out.xfb_buffer = None;
            }
        }
        Id::XfbOffset => out.xfb_offset = at_least(item, value, 0, diags),
        Id::XfbStride => {
            out.xfb_stride = at_least(item, value, 0, diags);
            if let Some(s) = out.xfb_stride {
                // §4.4.2.1: the stride, divided by 4, must not exceed
                // gl_MaxTransformFeedbackInterleavedComponents.
                let limit = MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS as u32 * 4;
                if s > limit {
                    diags.push(Diagnostic::error(
                        vloc,
                        QualifierError::XfbStrideTooLarge { value: s, limit },
                    ));
                    out.xfb_stride = None;
                } else if !s.is_multiple_of(4) {
                    diags.push(Diagnostic::error(
                        vloc,
                        QualifierError::XfbStrideAlignment(s),
                    ));
                    out.xfb_stride = None;
                }
            }
        }
        _ => {}
    }
    Some(id)
}

/// Rules of a qualifier-only declaration `layout(...) in|out|uniform;`
/// (Mesa's `validate_in_qualifier` / `validate_out_qualifier` and the default
/// uniform block layout).
pub(super) fn check_qualifier_only(
    resolved: &ResolvedQualifiers,
    env: &QualifierEnv<'_>,
    loc: SourceLoc,
    diags: &mut Vec<Diagnostic>,
) {
    let l = &resolved.layout;
    let mut error = |e: QualifierError| diags.push(Diagnostic::error(loc, e));
    match resolved.storage {
        StorageClass::In => {
            let mut valid = true;
            if let Some(p) = l.primitive {
                if env.stage == Stage::Geometry && !is_input_primitive(p) {
                    error(QualifierError::InvalidGsInputPrimitive);
                }
            }
            let others = l.location.is_some()
                || l.index.is_some()
                || l.binding.is_some()
                || l.packing.is_some()
                || l.matrix_layout != MatrixLayout::Inherited
                || l.origin_upper_left
                || l.pixel_center_integer
                || l.depth_layout.is_some()
                || l.max_vertices.is_some()
                || l.stream.is_some()
                || l.component.is_some()
                || l.offset.is_some()
                || l.align.is_some()
                || l.has_xfb();
            let local_size = l.local_size.iter().any(Option::is_some);
            if local_size && env.stage != Stage::Compute {
                error(QualifierError::LocalSizePlacement("local_size"));
            }
            match env.stage {
                Stage::Compute => {
                    valid &= !others
                        && !l.early_fragment_tests
                        && l.primitive.is_none()
                        && l.invocations.is_none()
                }
                Stage::Geometry => valid &= !others && !l.early_fragment_tests,
                Stage::Fragment => {
                    valid &= !others && l.primitive.is_none() && l.invocations.is_none()
                }
                Stage::Vertex => valid = !resolved.has_layout,
            }
            if !valid {
                error(QualifierError::InvalidInputLayout);
            }
        }
        StorageClass::Out => {
            if let Some(p) = l.primitive {
                if env.stage == Stage::Geometry && !is_output_primitive(p) {
                    error(QualifierError::InvalidGsOutputPrimitive);
                }
            }
            let others = l.location.is_some()
                || l.index.is_some()
                || l.binding.is_some()
                || l.packing.is_some()
                || l.matrix_layout != MatrixLayout::Inherited
                || l.origin_upper_left
                || l.pixel_center_integer
                || l.depth_layout.is_some()
                || l.early_fragment_tests
                || l.invocations.is_some()
                || l.component.is_some()
                || l.offset.is_some()
                || l.align.is_some();
            // GLSL 4.40 §4.4.2.1: `layout(xfb_buffer = N, xfb_stride = S) out;`
            // sets the current buffer and a buffer's stride.
            let mut rest = l.clone();
            rest.xfb_buffer = None;
            rest.xfb_stride = None;
            rest.xfb_offset = None;
            rest.xfb_written = false;
            let xfb_only = rest == LayoutQualifiers::default() && l.xfb_written;
            let valid = match env.stage {
                Stage::Geometry => !others,
                Stage::Vertex => !resolved.has_layout || xfb_only,
                Stage::Fragment | Stage::Compute => !resolved.has_layout,
            };
            if !valid {
                error(QualifierError::InvalidOutputLayout);
            } else if l.xfb_offset.is_some() {
                error(QualifierError::XfbOffsetDefault);
            }
        }
        StorageClass::Uniform | StorageClass::Buffer => {
            if l.packing == Some(BlockPacking::Std430) && resolved.storage != StorageClass::Buffer {
                error(QualifierError::Std430NotStorage);
            }
            let others = l.location.is_some()
                || l.index.is_some()
                || l.binding.is_some()
                || l.origin_upper_left
                || l.pixel_center_integer
                || l.depth_layout.is_some()
                || l.early_fragment_tests
                || l.primitive.is_some()
                || l.max_vertices.is_some()
                || l.invocations.is_some()
                || l.stream.is_some()
                || l.component.is_some()
                || l.offset.is_some()
                || l.align.is_some()
                || l.has_xfb();
            if others {
                error(QualifierError::InvalidUniformLayout);
            }
        }
        _ => {}
    }
}

/// True for the primitives a geometry shader may emit.
fn is_output_primitive(p: GsPrimitive) -> bool {
    matches!(
        p,
        GsPrimitive::Points | GsPrimitive::LineStrip | GsPrimitive::TriangleStrip
    )
}

/// True for the primitives a geometry shader may take as input.
fn is_input_primitive(p: GsPrimitive) -> bool {
    matches!(
        p,
        GsPrimitive::Points
            | GsPrimitive::Lines
            | GsPrimitive::LinesAdjacency
            | GsPrimitive::Triangles
            | GsPrimitive::TrianglesAdjacency
    )
}

/// Merges a checked qualifier-only declaration into the stage-wide layout:
/// geometry input/output primitives, `max_vertices`, `invocations`,
/// `early_fragment_tests`. Reports conflicts with earlier declarations and
/// values above rgl's limits. Call after [`super::resolve_qualifiers`] for every
/// [`super::DeclContext::QualifierOnly`] declaration.
pub fn merge_shader_layout(
    layout: &mut ShaderLayout,
    resolved: &ResolvedQualifiers,
    env: &QualifierEnv<'_>,
    loc: SourceLoc,
) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let l = &resolved.layout;
    match resolved.storage {
        StorageClass::In => {
            if env.stage == Stage::Geometry {
                if let Some(p) = l.primitive.filter(|&p| is_input_primitive(p)) {
                    match layout.gs_input_primitive {
                        Some(old) if old != p => diags.push(Diagnostic::error(
                            loc,
                            QualifierError::ConflictingInputPrimitive,
                        )),
                        _ => layout.gs_input_primitive = Some(p),
                    }
                }
                if let Some(n) = l.invocations {
                    if n == 0 || n > MAX_GEOMETRY_SHADER_INVOCATIONS {
                        diags.push(Diagnostic::error(
                            loc,
                            QualifierError::InvocationsRange {
                                value: n,
                                limit: MAX_GEOMETRY_SHADER_INVOCATIONS,
                            },
                        ));
                    } else {
                        match layout.gs_invocations {
                            Some(old) if old != n => diags.push(Diagnostic::error(
                                loc,
                                QualifierError::LayoutMismatch {
                                    name: "invocations",
                                    old,
                                    new: n,
                                },
                            )),
                            _ => layout.gs_invocations = Some(n),
                        }
                    }
                }
            }
            if env.stage == Stage::Fragment && l.early_fragment_tests {
                layout.early_fragment_tests = true;
            }
            if env.stage == Stage::Compute && l.local_size.iter().any(Option::is_some) {
                merge_local_size(layout, l.local_size, loc, &mut diags);
            }
        }
        StorageClass::Out if env.stage == Stage::Geometry => {
            if let Some(p) = l.primitive.filter(|&p| is_output_primitive(p)) {
                match layout.gs_output_primitive {
                    Some(old) if old != p => diags.push(Diagnostic::error(
                        loc,
                        QualifierError::ConflictingOutputPrimitive,
                    )),
                    _ => layout.gs_output_primitive = Some(p),
                }
            }
            if let Some(n) = l.max_vertices {
                if n > MAX_GEOMETRY_OUTPUT_VERTICES {
                    diags.push(Diagnostic::error(
                        loc,
                        QualifierError::MaxVerticesLimit {
                            value: n,
                            limit: MAX_GEOMETRY_OUTPUT_VERTICES,
                        },
                    ));
                } else {
                    match layout.gs_max_vertices {
                        Some(old) if old != n => diags.push(Diagnostic::error(
                            loc,
                            QualifierError::LayoutMismatch {
                                name: "max_vertices",
                                old,
                                new: n,
                            },
                        )),
                        _ => layout.gs_max_vertices = Some(n),
                    }
                }
            }
        }
        _ => {}
    }
    diags
}

/// GLSL 4.30 §4.4.1.1: a `layout(local_size_*) in;` declaration fixes the
/// work-group size (unwritten dimensions are 1); each dimension is at most
/// `gl_MaxComputeWorkGroupSize`, their product at most
/// MAX_COMPUTE_WORK_GROUP_INVOCATIONS, and every declaration in the shader
/// must give the same size.
pub fn merge_local_size(
    layout: &mut ShaderLayout,
    written: [Option<u32>; 3],
    loc: SourceLoc,
    diags: &mut Vec<Diagnostic>,
) {
    const NAMES: [&str; 3] = ["local_size_x", "local_size_y", "local_size_z"];
    let size = written.map(|d| d.unwrap_or(1));
    let mut valid = true;
    for (dim, &value) in size.iter().enumerate() {
        let limit = MAX_COMPUTE_WORK_GROUP_SIZE[dim] as u32;
        if value > limit {
            diags.push(Diagnostic::error(
                loc,
                QualifierError::LocalSizeLimit {
                    name: NAMES[dim],
                    value,
                    limit,
                },
            ));
            valid = false;
        }
    }
    let product: u64 = size.iter().map(|&d| u64::from(d)).product();
    let max_invocations = MAX_COMPUTE_WORK_GROUP_INVOCATIONS as u32;
    if valid && product > u64::from(max_invocations) {
        diags.push(Diagnostic::error(
            loc,
            QualifierError::LocalSizeInvocations(product, max_invocations),
        ));
        valid = false;
    }
    if !valid {
        return;
    }
    match layout.cs_local_size {
        Some(old) if old != size => diags.push(Diagnostic::error(
            loc,
            QualifierError::LocalSizeMismatch { old, new: size },
        )),
        _ => layout.cs_local_size = Some(size),
    }
}

/// Reports a layout identifier that needs a later version or an extension
/// rgl's environment lacks, and marks it rejected.
fn requires(
    loc: SourceLoc,
    what: String,
    requirement: &'static str,
    diags: &mut Vec<Diagnostic>,
) -> Option<Id> {
    diags.push(Diagnostic::error(
        loc,
        QualifierError::Requires { what, requirement },
    ));
    Some(Id::Rejected)
}
