//! What the GL contexts of the full runner have in common: turning the
//! runner's data (`[vertex data]` tables, `draw rect` corners, texture images,
//! `texparameter` settings, internal-format names) into the bytes, enums and
//! values GL calls take. rgl's adapter ([`super::rgl_context`]) and the host
//! peer ([`super::host`]) both call GL through glow-shaped entry points, so
//! they share this plan and differ only in the calls themselves. Enum values
//! are glow's constants (the GL registry's numbers).

use super::command::{DepthMode, Filter, SwizzleSource, TexParam, TextureTarget, Wrap};
use super::exec::StateChange;
use super::textures::{Texels, TextureImage};
use super::vertex_data::{ComponentType, Datum, ShaderType, VertexData};

/// Compatibility-profile enums glow does not define (values from the GL
/// registry).
pub mod compat {
    /// `GL_MODELVIEW`
    pub const MODELVIEW: u32 = 0x1700;
    /// `GL_PROJECTION`
    pub const PROJECTION: u32 = 0x1701;
    /// `GL_FLAT`
    pub const FLAT: u32 = 0x1D00;
    /// `GL_SMOOTH`
    pub const SMOOTH: u32 = 0x1D01;
    /// `GL_CLAMP`
    pub const CLAMP: u32 = 0x2900;
    /// `GL_CLIP_PLANE0`
    pub const CLIP_PLANE0: u32 = 0x3000;
    /// `GL_INTENSITY`
    pub const INTENSITY: u32 = 0x8049;
    /// `GL_VERTEX_ARRAY`
    pub const VERTEX_ARRAY: u32 = 0x8074;
    /// `GL_NORMAL_ARRAY`
    pub const NORMAL_ARRAY: u32 = 0x8075;
    /// `GL_COLOR_ARRAY`
    pub const COLOR_ARRAY: u32 = 0x8076;
    /// `GL_TEXTURE_COORD_ARRAY`
    pub const TEXTURE_COORD_ARRAY: u32 = 0x8078;
    /// `GL_DEPTH_TEXTURE_MODE`
    pub const DEPTH_TEXTURE_MODE: u32 = 0x884B;
}

/// How one `[vertex data]` column is laid out in the interleaved buffer.
#[derive(Clone, Debug, PartialEq)]
pub struct ColumnLayout {
    /// Attribute name (or a number naming a location).
    pub name: String,
    /// Array element (`NAME[i]`), added to the attribute's location.
    pub array_index: u32,
    /// Matrix column, added to the attribute's location.
    pub matrix_column: u32,
    /// Byte offset in a row.
    pub offset: i32,
    /// GL component type (`GL_FLOAT`, `GL_INT`, …).
    pub gl_type: u32,
    /// Components per row.
    pub components: i32,
    /// Fed through `glVertexAttribIPointer` (integer shader inputs).
    pub integer: bool,
}

/// An interleaved vertex buffer and where each column lives in it.
#[derive(Clone, Debug, PartialEq)]
pub struct VertexBuffer {
    /// Bytes of all rows.
    pub bytes: Vec<u8>,
    /// Bytes per row.
    pub stride: i32,
    /// Columns in header order.
    pub columns: Vec<ColumnLayout>,
    /// Number of rows.
    pub rows: usize,
}

fn gl_component_type(ty: ComponentType) -> u32 {
    match ty {
        ComponentType::Half => glow::HALF_FLOAT,
        ComponentType::Float => glow::FLOAT,
        ComponentType::Double => glow::DOUBLE,
        ComponentType::Byte => glow::BYTE,
        ComponentType::Ubyte => glow::UNSIGNED_BYTE,
        ComponentType::Short => glow::SHORT,
        ComponentType::Ushort => glow::UNSIGNED_SHORT,
        ComponentType::Int => glow::INT,
        ComponentType::Uint => glow::UNSIGNED_INT,
    }
}

fn push_datum(out: &mut Vec<u8>, ty: ComponentType, d: Datum) {
    let f = match d {
        Datum::Float(f) => f,
        Datum::Int(i) => i as f64,
    };
    let i = match d {
        Datum::Int(i) => i,
        // Floats in an integer column are truncated, as strtol would stop at the dot.
        Datum::Float(f) => f as i64,
    };
    match ty {
        ComponentType::Half => {
            out.extend_from_slice(&half::f16::from_f32(f as f32).to_bits().to_le_bytes())
        }
        ComponentType::Float => out.extend_from_slice(&(f as f32).to_le_bytes()),
        ComponentType::Double => out.extend_from_slice(&f.to_le_bytes()),
        ComponentType::Byte => out.push(i as i8 as u8),
        ComponentType::Ubyte => out.push(i as u8),
        ComponentType::Short => out.extend_from_slice(&(i as i16).to_le_bytes()),
        ComponentType::Ushort => out.extend_from_slice(&(i as u16).to_le_bytes()),
        // Columns are range-checked for 32 bits; negative uints wrap as in strtoul.
        ComponentType::Int | ComponentType::Uint => {
            out.extend_from_slice(&(i as u32).to_le_bytes())
        }
    }
}

/// Lays `data` out as one interleaved buffer (each column aligned to its
/// component size, at least 4 bytes).
pub fn vertex_buffer(data: &VertexData) -> Result<VertexBuffer, String> {
    let mut columns = Vec::with_capacity(data.columns.len());
    let mut offset = 0usize;
    for c in &data.columns {
        let size = c.ty.size() as usize;
        let align = size.max(4);
        offset = offset.div_ceil(align) * align;
        let (integer, matrix_column) = match c.shader_type {
            ShaderType::Count(_) => (c.ty.is_integer(), 0),
            ShaderType::Glsl {
                base,
                matrix_column,
                ..
            } => {
                if base == 'd' {
                    return Err(format!(
                        "vertex data column {}: double-precision shader inputs are not supported by this runner",
                        c.name
                    ));
                }
                (matches!(base, 'i' | 'u'), matrix_column.unwrap_or(0))
            }
        };
        let components = c.shader_type.components();
        columns.push(ColumnLayout {
            name: c.name.clone(),
            array_index: c.array_index.unwrap_or(0),
            matrix_column,
            offset: offset as i32,
            gl_type: gl_component_type(c.ty),
            components: components as i32,
            integer,
        });
        offset += size * components as usize;
    }
    let stride = offset.div_ceil(4) * 4;
    let stride = stride.max(4);
    let mut bytes = Vec::with_capacity(stride * data.rows.len());
    for row in &data.rows {
        let start = bytes.len();
        let mut values = row.iter();
        for (layout, c) in columns.iter().zip(&data.columns) {
            bytes.resize(start + layout.offset as usize, 0);
            for _ in 0..layout.components {
                let d = values
                    .next()
                    .ok_or_else(|| "vertex data row shorter than its header".to_string())?;
                push_datum(&mut bytes, c.ty, *d);
            }
        }
        bytes.resize(start + stride, 0);
    }
    Ok(VertexBuffer {
        bytes,
        stride: i32::try_from(stride).map_err(|_| "vertex data rows are too wide".to_string())?,
        columns,
        rows: data.rows.len(),
    })
}

/// A compatibility-profile vertex array that a `[vertex data]` column may name
/// instead of a generic attribute, as piglit's VBO helper accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LegacyArray {
    /// `gl_Vertex` (`glVertexPointer`).
    Vertex,
    /// `gl_Normal`.
    Normal,
    /// `gl_Color`.
    Color,
    /// `gl_MultiTexCoord<n>` / `gl_TexCoord`: texture unit n.
    TexCoord(u32),
}

/// The legacy array `name` names, if any.
pub fn legacy_array(name: &str) -> Option<LegacyArray> {
    Some(match name {
        "gl_Vertex" => LegacyArray::Vertex,
        "gl_Normal" => LegacyArray::Normal,
        "gl_Color" => LegacyArray::Color,
        _ => {
            let unit = name.strip_prefix("gl_MultiTexCoord")?;
            LegacyArray::TexCoord(unit.parse().ok().filter(|u| *u < 8)?)
        }
    })
}

/// The bytes of a `draw rect`: four vec4 positions, then (when given) four
/// vec2 texture coordinates. Returns (bytes, byte offset of the texcoords).
pub fn rect_bytes(positions: &[[f32; 4]; 4], texcoords: Option<&[[f32; 2]; 4]>) -> (Vec<u8>, i32) {
    let mut bytes = Vec::with_capacity(96);
    for p in positions {
        for v in p {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
    }
    let tex_offset = bytes.len() as i32;
    if let Some(t) = texcoords {
        for c in t {
            for v in c {
                bytes.extend_from_slice(&v.to_le_bytes());
            }
        }
    }
    (bytes, tex_offset)
}

/// The GL target of a texture target word.
pub fn texture_target(target: TextureTarget) -> u32 {
    match target {
        TextureTarget::T1D => glow::TEXTURE_1D,
        TextureTarget::T2D => glow::TEXTURE_2D,
        TextureTarget::T3D => glow::TEXTURE_3D,
        TextureTarget::Rect => glow::TEXTURE_RECTANGLE,
        TextureTarget::Cube => glow::TEXTURE_CUBE_MAP,
        TextureTarget::T1DArray => glow::TEXTURE_1D_ARRAY,
        TextureTarget::T2DArray => glow::TEXTURE_2D_ARRAY,
        TextureTarget::CubeArray => glow::TEXTURE_CUBE_MAP_ARRAY,
    }
}

/// Internal formats a `texture rgbw … FORMAT` line may name.
const INTERNAL_FORMATS: &[(&str, u32)] = &[
    ("GL_RGBA", glow::RGBA),
    ("GL_RGB", glow::RGB),
    ("GL_RGBA8", glow::RGBA8),
    ("GL_RGB8", glow::RGB8),
    ("GL_RG8", glow::RG8),
    ("GL_R8", glow::R8),
    ("GL_RGBA16", glow::RGBA16),
    ("GL_RGBA16F", glow::RGBA16F),
    ("GL_RGBA32F", glow::RGBA32F),
    ("GL_RGB16F", glow::RGB16F),
    ("GL_RGB32F", glow::RGB32F),
    ("GL_RG16F", glow::RG16F),
    ("GL_RG32F", glow::RG32F),
    ("GL_R16F", glow::R16F),
    ("GL_R32F", glow::R32F),
    ("GL_SRGB8_ALPHA8", glow::SRGB8_ALPHA8),
    ("GL_RGB10_A2", glow::RGB10_A2),
    ("GL_ALPHA", glow::ALPHA),
    ("GL_LUMINANCE", glow::LUMINANCE),
    ("GL_LUMINANCE_ALPHA", glow::LUMINANCE_ALPHA),
    ("GL_INTENSITY", compat::INTENSITY),
    ("GL_DEPTH_COMPONENT", glow::DEPTH_COMPONENT),
    ("GL_DEPTH_COMPONENT16", glow::DEPTH_COMPONENT16),
    ("GL_DEPTH_COMPONENT24", glow::DEPTH_COMPONENT24),
    ("GL_DEPTH_COMPONENT32F", glow::DEPTH_COMPONENT32F),
];

/// The value of an internal-format name.
pub fn internal_format(name: &str) -> Result<u32, String> {
    INTERNAL_FORMATS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| *v)
        .ok_or_else(|| format!("internal format {name} is not supported by this runner"))
}

/// One `glTexImage*` call of a texture.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelUpload {
    /// The call's target: the texture's, or one cube map face
    /// (`GL_TEXTURE_CUBE_MAP_POSITIVE_X` + face).
    pub target: u32,
    /// Mip level.
    pub level: i32,
    /// Width, height, depth as the call takes them.
    pub size: [i32; 3],
    /// `GL_RGBA` or `GL_DEPTH_COMPONENT`.
    pub format: u32,
    /// Always `GL_FLOAT`.
    pub ty: u32,
    /// Texel bytes.
    pub bytes: Vec<u8>,
    /// 1, 2 or 3: which `glTexImage*D`.
    pub dims: u32,
}

/// The uploads of `image`'s levels: one per level, or for a cube map one per
/// face of each level (its layers, in `GL_TEXTURE_CUBE_MAP_POSITIVE_X + i`
/// order).
pub fn level_uploads(image: &TextureImage) -> Vec<LevelUpload> {
    let dims = match image.target {
        TextureTarget::T1D => 1,
        TextureTarget::T3D | TextureTarget::T2DArray | TextureTarget::CubeArray => 3,
        _ => 2,
    };
    let cube = image.target == TextureTarget::Cube;
    let mut out = Vec::new();
    for l in &image.levels {
        let (format, bytes): (u32, Vec<u8>) = match &l.texels {
            Texels::Rgba(t) => (
                glow::RGBA,
                t.iter().flatten().flat_map(|v| v.to_le_bytes()).collect(),
            ),
            Texels::Depth(d) => (
                glow::DEPTH_COMPONENT,
                d.iter().flat_map(|v| v.to_le_bytes()).collect(),
            ),
        };
        let upload = |target: u32, depth: u32, bytes: Vec<u8>| LevelUpload {
            target,
            level: l.level as i32,
            size: [l.width as i32, l.height as i32, depth as i32],
            format,
            ty: glow::FLOAT,
            bytes,
            dims,
        };
        if cube {
            let faces = l.depth.max(1) as usize;
            let face_bytes = bytes.len() / faces;
            for (face, chunk) in bytes.chunks(face_bytes.max(1)).take(faces).enumerate() {
                let target = glow::TEXTURE_CUBE_MAP_POSITIVE_X + face as u32;
                out.push(upload(target, 1, chunk.to_vec()));
            }
        } else {
            out.push(upload(texture_target(image.target), l.depth, bytes));
        }
    }
    out
}

/// A `glTexParameter` value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParamValue {
    /// `glTexParameteri`.
    Int(i32),
    /// `glTexParameterf`.
    Float(f32),
    /// `glTexParameterfv` with four values.
    Floats([f32; 4]),
}

fn filter(f: Filter) -> u32 {
    match f {
        Filter::Nearest => glow::NEAREST,
        Filter::Linear => glow::LINEAR,
        Filter::NearestMipmapNearest => glow::NEAREST_MIPMAP_NEAREST,
        Filter::LinearMipmapNearest => glow::LINEAR_MIPMAP_NEAREST,
        Filter::NearestMipmapLinear => glow::NEAREST_MIPMAP_LINEAR,
        Filter::LinearMipmapLinear => glow::LINEAR_MIPMAP_LINEAR,
    }
}

fn wrap(w: Wrap) -> u32 {
    match w {
        Wrap::Repeat => glow::REPEAT,
        Wrap::ClampToEdge => glow::CLAMP_TO_EDGE,
        Wrap::ClampToBorder => glow::CLAMP_TO_BORDER,
        Wrap::MirroredRepeat => glow::MIRRORED_REPEAT,
        Wrap::Clamp => compat::CLAMP,
    }
}

const WRAP_PNAMES: [u32; 3] = [
    glow::TEXTURE_WRAP_S,
    glow::TEXTURE_WRAP_T,
    glow::TEXTURE_WRAP_R,
];

/// The `glTexParameter` calls of a `texparameter` setting.
pub fn tex_param(param: &TexParam) -> (u32, ParamValue) {
    let int = |v: u32| ParamValue::Int(v as i32);
    match *param {
        TexParam::CompareFunc(f) => (glow::TEXTURE_COMPARE_FUNC, int(f.value)),
        TexParam::DepthMode(m) => (
            compat::DEPTH_TEXTURE_MODE,
            int(match m {
                DepthMode::Intensity => compat::INTENSITY,
                DepthMode::Luminance => glow::LUMINANCE,
                DepthMode::Alpha => glow::ALPHA,
                DepthMode::Red => glow::RED,
            }),
        ),
        TexParam::Min(f) => (glow::TEXTURE_MIN_FILTER, int(filter(f))),
        TexParam::Mag(f) => (glow::TEXTURE_MAG_FILTER, int(filter(f))),
        TexParam::Wrap { axis, mode } => (WRAP_PNAMES[(axis as usize).min(2)], int(wrap(mode))),
        TexParam::LodBias(b) => (glow::TEXTURE_LOD_BIAS, ParamValue::Float(b)),
        TexParam::MaxLevel(l) => (glow::TEXTURE_MAX_LEVEL, ParamValue::Int(l)),
        TexParam::BaseLevel(l) => (glow::TEXTURE_BASE_LEVEL, ParamValue::Int(l)),
        TexParam::BorderColor(c) => (glow::TEXTURE_BORDER_COLOR, ParamValue::Floats(c)),
        TexParam::Swizzle { channel, source } => (
            glow::TEXTURE_SWIZZLE_R + u32::from(channel.min(3)),
            int(match source {
                SwizzleSource::Red => glow::RED,
                SwizzleSource::Green => glow::GREEN,
                SwizzleSource::Blue => glow::BLUE,
                SwizzleSource::Alpha => glow::ALPHA,
                SwizzleSource::Zero => glow::ZERO,
                SwizzleSource::One => glow::ONE,
            }),
        ),
    }
}

/// The sampler parameters a texture image sets after its upload (filters,
/// wraps, border, compare mode), in call order.
pub fn image_params(image: &TextureImage) -> Vec<(u32, ParamValue)> {
    let int = |v: u32| ParamValue::Int(v as i32);
    let mut out = vec![
        (glow::TEXTURE_MIN_FILTER, int(filter(image.min_filter))),
        (glow::TEXTURE_MAG_FILTER, int(filter(image.mag_filter))),
    ];
    for (axis, w) in image.wrap.iter().enumerate() {
        if let Some(w) = w {
            out.push((WRAP_PNAMES[axis], int(wrap(*w))));
        }
    }
    if let Some(c) = image.border_color {
        out.push((glow::TEXTURE_BORDER_COLOR, ParamValue::Floats(c)));
    }
    if let Some(f) = image.compare_func {
        out.push((
            glow::TEXTURE_COMPARE_MODE,
            int(glow::COMPARE_REF_TO_TEXTURE),
        ));
        out.push((glow::TEXTURE_COMPARE_FUNC, int(f.value)));
    }
    out
}

/// The GL call a state change makes, for messages (`glEnable(GL_DEPTH_TEST)`).
pub fn state_name(change: &StateChange) -> String {
    match change {
        StateChange::Enable(cap) => format!("glEnable({cap})"),
        StateChange::Disable(cap) => format!("glDisable({cap})"),
        StateChange::ClipPlane { index, .. } => format!("glClipPlane(GL_CLIP_PLANE{index})"),
        StateChange::Color(_) => "glColor4f".into(),
        StateChange::TexCoord { unit, .. } => format!("glMultiTexCoord4f(GL_TEXTURE{unit})"),
        StateChange::ShadeModelFlat(_) => "glShadeModel".into(),
        StateChange::ProvokingVertexFirst(_) => "glProvokingVertex".into(),
        StateChange::PolygonMode { face, mode } => format!("glPolygonMode({face}, {mode})"),
        StateChange::Hint { target, mode } => format!("glHint({target}, {mode})"),
        StateChange::DepthFunc(func) => format!("glDepthFunc({func})"),
        StateChange::Projection { frustum: true, .. } => "glFrustum".into(),
        StateChange::Projection { frustum: false, .. } => "glOrtho".into(),
    }
}

/// The GL error name of a `glGetError` code.
pub fn error_name(code: u32) -> String {
    match code {
        glow::INVALID_ENUM => "GL_INVALID_ENUM".into(),
        glow::INVALID_VALUE => "GL_INVALID_VALUE".into(),
        glow::INVALID_OPERATION => "GL_INVALID_OPERATION".into(),
        glow::INVALID_FRAMEBUFFER_OPERATION => "GL_INVALID_FRAMEBUFFER_OPERATION".into(),
        glow::OUT_OF_MEMORY => "GL_OUT_OF_MEMORY".into(),
        other => format!("GL error 0x{other:04x}"),
    }
}

/// The element of a uniform name: `a[3]` is (`a`, 3), `a` is (`a`, 0).
pub fn split_element(name: &str) -> (&str, u32) {
    if let Some(head) = name.strip_suffix(']') {
        if let Some(open) = head.rfind('[') {
            if let Ok(i) = head[open + 1..].parse() {
                return (&head[..open], i);
            }
        }
    }
    (name, 0)
}

/// True when an active uniform called `listed` (arrays end in `[0]`) is the
/// one a test names `wanted` (with or without `[0]`).
pub fn same_uniform(listed: &str, wanted: &str) -> bool {
    listed == wanted || listed.strip_suffix("[0]") == Some(wanted)
}

/// Shader type enum for compiling a stage.
pub fn shader_type(stage: rgl_glsl::Stage) -> u32 {
    match stage {
        rgl_glsl::Stage::Vertex => glow::VERTEX_SHADER,
        rgl_glsl::Stage::Geometry => glow::GEOMETRY_SHADER,
        rgl_glsl::Stage::Fragment => glow::FRAGMENT_SHADER,
        rgl_glsl::Stage::Compute => glow::COMPUTE_SHADER,
    }
}

/// The message of a shader that did not compile: the section and the first
/// error of its info log. A Mesa-style location `0:L(C):` of the section's own
/// text becomes the line of the test file (`file line N`).
pub fn compile_error(shader: &super::link_only::ProgramShader, log: &str) -> String {
    let first = first_error(log);
    let located = (|| {
        let (location, rest) = first.split_once("): ")?;
        let (source, line_col) = location.split_once(':')?;
        let (line, _col) = line_col.split_once('(')?;
        let (source, line): (u32, i64) = (source.parse().ok()?, line.parse().ok()?);
        let base = shader.line_base.filter(|_| source == 0)?;
        Some(format!("file line {}: {rest}", base + line))
    })();
    format!(
        "{} does not compile: {}",
        shader.section,
        located.unwrap_or(first)
    )
}

/// The first error line of an info log (or the first line), for messages.
pub fn first_error(log: &str) -> String {
    log.lines()
        .find(|l| l.contains("error"))
        .or_else(|| log.lines().find(|l| !l.trim().is_empty()))
        .unwrap_or("(empty info log)")
        .trim()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compile_errors_point_into_the_test_file() {
        let shader = super::super::link_only::ProgramShader {
            stage: rgl_glsl::Stage::Fragment,
            section: "[fragment shader]".into(),
            source: String::new(),
            line_base: Some(10),
            header_line: 10,
        };
        let log = "warning: x\n0:3(5): error: `foo' undeclared\n";
        assert_eq!(
            compile_error(&shader, log),
            "[fragment shader] does not compile: file line 13: error: `foo' undeclared"
        );
        let generated = super::super::link_only::ProgramShader {
            line_base: None,
            ..shader
        };
        assert_eq!(
            compile_error(&generated, log),
            "[fragment shader] does not compile: 0:3(5): error: `foo' undeclared"
        );
    }

    #[test]
    fn cube_maps_upload_one_face_per_call() {
        let image = super::super::textures::mipmapped(TextureTarget::Cube, &[2, 2])
            .expect("a 2x2 cube map");
        let calls: Vec<(u32, i32, [i32; 3], usize)> = level_uploads(&image)
            .iter()
            .map(|u| (u.target, u.level, u.size, u.bytes.len()))
            .collect();
        let face = |i: u32| glow::TEXTURE_CUBE_MAP_POSITIVE_X + i;
        let mut expected = Vec::new();
        for (level, side) in [(0, 2), (1, 1)] {
            for i in 0..6 {
                // RGBA floats: 16 bytes a texel.
                expected.push((face(i), level, [side, side, 1], (side * side * 16) as usize));
            }
        }
        assert_eq!(calls, expected);
        let d2 =
            super::super::textures::mipmapped(TextureTarget::T2D, &[2, 2]).expect("a 2x2 texture");
        assert!(level_uploads(&d2)
            .iter()
            .all(|u| u.target == glow::TEXTURE_2D && u.dims == 2));
    }

    #[test]
    fn half_columns_are_binary16() {
        let cases = [
            (0.0, 0x0000),
            (1.0, 0x3c00),
            (-2.0, 0xc000),
            (0.5, 0x3800),
            (65504.0, 0x7bff),
            (1e6, 0x7c00),
        ];
        let mut bytes = Vec::new();
        for (f, _) in cases {
            push_datum(&mut bytes, ComponentType::Half, Datum::Float(f));
        }
        let got: Vec<u16> = bytes
            .chunks(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        let want: Vec<u16> = cases.iter().map(|(_, h)| *h).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn vertex_buffer_layout() {
        let lines = [(1, "piglit_vertex/float/2 c/ubyte/uvec3"), (2, "1 2 3 4 5")];
        let data = super::super::vertex_data::parse(1, &lines).map_err(|e| e.1);
        let vb = data.and_then(|d| vertex_buffer(&d));
        let shape = vb.map(|v| {
            (
                v.stride,
                v.columns
                    .iter()
                    .map(|c| (c.offset, c.components, c.integer))
                    .collect::<Vec<_>>(),
                v.bytes[8..11].to_vec(),
            )
        });
        assert_eq!(
            shape,
            Ok((12, vec![(0, 2, false), (8, 3, true)], vec![3, 4, 5]))
        );
    }
}
