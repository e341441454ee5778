//! The `[test]` script: one typed [`Command`] per line, covering every command of
//! piglit's shader_runner that the corpus files use, with
//! the exact argument syntax `shader_runner.c` accepts. Commands of the runner
//! that no file of the selection uses (framebuffer blits, transform feedback,
//! SSBOs, atomics, compute, …) are recognised by their head word and kept as
//! [`Command::Unsupported`] so an executor can name them; anything else is a
//! parse error. One command is rgl's own extension of the format, for what
//! piglit has no command for: `texture mipmap` ([`TextureSpec::Mipmap`]).

use super::gl_enum::{self, GlEnum};
use super::lex::{Cursor, Read};

/// Colour channels a probe compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channels {
    /// `rgb`
    Rgb,
    /// `rgba`
    Rgba,
}

impl Channels {
    /// 3 or 4.
    pub fn count(self) -> usize {
        match self {
            Channels::Rgb => 3,
            Channels::Rgba => 4,
        }
    }
}

/// What a colour probe reads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ProbeRegion {
    /// One pixel at window coordinates (origin bottom-left).
    Pixel {
        /// x
        x: i32,
        /// y
        y: i32,
    },
    /// A rectangle of window pixels.
    Rect {
        /// x, y, w, h
        rect: [i32; 4],
    },
    /// One pixel given as fractions of the framebuffer size.
    RelativePixel {
        /// fx, fy
        at: [f32; 2],
    },
    /// A rectangle given as fractions of the framebuffer size.
    RelativeRect {
        /// fx, fy, fw, fh
        rect: [f32; 4],
    },
    /// Every pixel.
    All,
}

/// A colour probe.
#[derive(Clone, Debug, PartialEq)]
pub struct Probe {
    /// Region read.
    pub region: ProbeRegion,
    /// Channels compared.
    pub channels: Channels,
    /// Expected colour (3 or 4 values).
    pub expected: Vec<f32>,
    /// `probe warn …`: a mismatch is a warning, not a failure.
    pub warn: bool,
}

/// How `draw rect` interprets its rectangle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RectSpace {
    /// Clip coordinates (`draw rect -1 -1 2 2` covers the viewport).
    Clip,
    /// Window pixels (`draw rect ortho`).
    Ortho,
}

/// Base type of a `uniform` command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UniformBase {
    /// `float`, `vecN`, `matN`, `matCxR`
    Float,
    /// `int`, `ivecN`
    Int,
    /// `uint`, `uvecN`
    Uint,
    /// `double`, `dvecN`, `dmat…`
    Double,
    /// `int64_t`, `i64vecN`
    Int64,
    /// `uint64_t`, `u64vecN`
    Uint64,
    /// `handle` (bindless textures)
    Handle,
}

/// The type word of a `uniform` command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UniformType {
    /// Base type.
    pub base: UniformBase,
    /// Matrix columns (1 for scalars and vectors).
    pub cols: u32,
    /// Components per column.
    pub rows: u32,
}

impl UniformType {
    /// Values per element.
    pub fn components(self) -> u32 {
        self.cols * self.rows
    }

    fn parse(word: &str) -> Read<UniformType> {
        let size = |s: &str| -> Option<u32> {
            match s {
                "2" => Some(2),
                "3" => Some(3),
                "4" => Some(4),
                _ => None,
            }
        };
        let t = |base, cols, rows| Some(UniformType { base, cols, rows });
        let found = match word {
            "float" => t(UniformBase::Float, 1, 1),
            "int" => t(UniformBase::Int, 1, 1),
            "uint" => t(UniformBase::Uint, 1, 1),
            "double" => t(UniformBase::Double, 1, 1),
            "int64_t" => t(UniformBase::Int64, 1, 1),
            "uint64_t" => t(UniformBase::Uint64, 1, 1),
            "handle" => t(UniformBase::Handle, 1, 1),
            _ => {
                let vectors = [
                    ("vec", UniformBase::Float),
                    ("ivec", UniformBase::Int),
                    ("uvec", UniformBase::Uint),
                    ("dvec", UniformBase::Double),
                    ("i64vec", UniformBase::Int64),
                    ("u64vec", UniformBase::Uint64),
                ];
                let matrices = [("mat", UniformBase::Float), ("dmat", UniformBase::Double)];
                vectors
                    .iter()
                    .find_map(|(p, base)| {
                        word.strip_prefix(p)
                            .and_then(size)
                            .and_then(|n| t(*base, 1, n))
                    })
                    .or_else(|| {
                        matrices.iter().find_map(|(p, base)| {
                            let rest = word.strip_prefix(p)?;
                            if let Some(n) = size(rest) {
                                return t(*base, n, n);
                            }
                            let (c, r) = rest.split_once('x')?;
                            t(*base, size(c)?, size(r)?)
                        })
                    })
            }
        };
        found.ok_or_else(|| format!("unknown uniform type {word:?}"))
    }
}

/// Values of a `uniform` command, already converted as piglit converts them.
#[derive(Clone, Debug, PartialEq)]
pub enum UniformValues {
    /// Float-based types (`0xXXXXXXXX` bit patterns already decoded).
    Float(Vec<f32>),
    /// `double` types.
    Double(Vec<f64>),
    /// Signed integer types (`int`, `int64_t`).
    Int(Vec<i64>),
    /// Unsigned integer types and handles (negative input wraps as in `strtoul`).
    Uint(Vec<u64>),
}

/// Which uniform a `uniform` command sets.
#[derive(Clone, Debug, PartialEq)]
pub enum UniformTarget {
    /// By name, possibly with an array index or member path (`a[2]`, `s.f`).
    Name(String),
    /// By numeric location.
    Location(i32),
}

/// Texture targets named by `texture`/`texparameter` commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextureTarget {
    /// `1D`
    T1D,
    /// `2D`
    T2D,
    /// `3D`
    T3D,
    /// `Rect`
    Rect,
    /// `Cube`
    Cube,
    /// `1DArray`
    T1DArray,
    /// `2DArray`
    T2DArray,
    /// `CubeArray`
    CubeArray,
}

impl TextureTarget {
    /// The target as written in tests (`2DArray`).
    pub fn name(self) -> &'static str {
        match self {
            TextureTarget::T1D => "1D",
            TextureTarget::T2D => "2D",
            TextureTarget::T3D => "3D",
            TextureTarget::Rect => "Rect",
            TextureTarget::Cube => "Cube",
            TextureTarget::T1DArray => "1DArray",
            TextureTarget::T2DArray => "2DArray",
            TextureTarget::CubeArray => "CubeArray",
        }
    }

    fn parse(word: &str) -> Read<TextureTarget> {
        Ok(match word {
            "1D" => TextureTarget::T1D,
            "2D" => TextureTarget::T2D,
            "3D" => TextureTarget::T3D,
            "Rect" => TextureTarget::Rect,
            "Cube" => TextureTarget::Cube,
            "1DArray" => TextureTarget::T1DArray,
            "2DArray" => TextureTarget::T2DArray,
            "CubeArray" => TextureTarget::CubeArray,
            other => return Err(format!("unknown texture target {other:?}")),
        })
    }
}

/// A texture created by a `texture` command.
#[derive(Clone, Debug, PartialEq)]
pub enum TextureSpec {
    /// `texture rgbw U (w, h) [FORMAT]`: 2D, quadrants red, green, blue, white.
    Rgbw2D {
        /// Width, height.
        size: [u32; 2],
        /// Internal format name when given (`GL_RGBA8`, …).
        format: Option<String>,
    },
    /// `texture rgbw 1D U`: 4 texels R, G, B, W.
    Rgbw1D,
    /// `texture rgbw 3D U`: 2x2x2 R, G, B, W, yellow, magenta, cyan, black.
    Rgbw3D,
    /// `texture rgbw 1DArray U (w, l)`.
    Rgbw1DArray {
        /// Width, layers.
        size: [u32; 2],
    },
    /// `texture rgbw 2DArray U (w, h, l)`.
    Rgbw2DArray {
        /// Width, height, layers.
        size: [u32; 3],
    },
    /// `texture miptree U`: 8x8 2D, 4 levels solid R, G, B, W.
    Miptree,
    /// `texture checkerboard U LEVEL (w, h) (c0) (c1)`.
    Checkerboard {
        /// Mip level written.
        level: u32,
        /// Width, height.
        size: [u32; 2],
        /// Colour of the bottom-left square.
        color0: [f32; 4],
        /// The other colour.
        color1: [f32; 4],
    },
    /// `texture shadowXX U (dims)`: depth texture, depth = x/(w-1) along s.
    Shadow {
        /// `1D`, `2D`, `Rect`, `1DArray` or `2DArray`.
        target: TextureTarget,
        /// 1 to 3 sizes as written.
        size: Vec<u32>,
    },
    /// `texture mipmap 1D|2D|3D|Cube U (w[, h[, d]])` (an rgl extension; piglit
    /// has no command for a mipmapped or cube texture with contents): RGBA8,
    /// a smooth pattern with fine detail and its full mip chain,
    /// `GL_LINEAR_MIPMAP_LINEAR`, `GL_REPEAT` (cube: clamp to edge).
    Mipmap {
        /// `1D`, `2D`, `3D` or `Cube`.
        target: TextureTarget,
        /// 1 to 3 sizes as written (a cube's two are its face's).
        size: Vec<u32>,
    },
}

/// Texture filters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Filter {
    /// `nearest`
    Nearest,
    /// `linear`
    Linear,
    /// `nearest_mipmap_nearest`
    NearestMipmapNearest,
    /// `linear_mipmap_nearest`
    LinearMipmapNearest,
    /// `nearest_mipmap_linear`
    NearestMipmapLinear,
    /// `linear_mipmap_linear`
    LinearMipmapLinear,
}

/// Wrap modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wrap {
    /// `repeat`
    Repeat,
    /// `clamp_to_edge`
    ClampToEdge,
    /// `clamp_to_border`
    ClampToBorder,
    /// `mirrored_repeat`
    MirroredRepeat,
    /// `clamp`
    Clamp,
}

/// `depth_mode` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DepthMode {
    /// `intensity`
    Intensity,
    /// `luminance`
    Luminance,
    /// `alpha`
    Alpha,
    /// `red`
    Red,
}

/// Swizzle sources.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SwizzleSource {
    /// `red`
    Red,
    /// `green`
    Green,
    /// `blue`
    Blue,
    /// `alpha`
    Alpha,
    /// `zero`
    Zero,
    /// `one`
    One,
}

/// A `texparameter` setting.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TexParam {
    /// `compare_func never|less|…|always` (a `GL_*` comparison).
    CompareFunc(GlEnum),
    /// `depth_mode …`.
    DepthMode(DepthMode),
    /// `min …`.
    Min(Filter),
    /// `mag nearest|linear`.
    Mag(Filter),
    /// `wrap_s|wrap_t|wrap_r …`: axis 0, 1, 2.
    Wrap {
        /// 0 = s, 1 = t, 2 = r.
        axis: u8,
        /// Mode.
        mode: Wrap,
    },
    /// `lod_bias F`.
    LodBias(f32),
    /// `max_level N`.
    MaxLevel(i32),
    /// `base_level N`.
    BaseLevel(i32),
    /// `border_color (r, g, b, a)`.
    BorderColor([f32; 4]),
    /// `swizzle_r|g|b|a SOURCE`.
    Swizzle {
        /// Which output channel (0 = r … 3 = a).
        channel: u8,
        /// Where it reads from.
        source: SwizzleSource,
    },
}

/// The expected value of an `active uniform` or `verify program_query` check.
#[derive(Clone, Debug, PartialEq)]
pub enum QueryValue {
    /// A number (`strtol` base 0).
    Int(i64),
    /// A GL enum name (`GL_FLOAT_VEC4`, `GL_TRUE`).
    Enum(GlEnum),
}

/// One `[test]` command.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `clear color r g b a`
    ClearColor([f32; 4]),
    /// `clear depth d`
    ClearDepth(f64),
    /// `clear stencil s`
    ClearStencil(i32),
    /// `clear`: glClear with the mask accumulated by the `clear …` commands.
    Clear,
    /// `draw rect [tex|ortho|patch] …`
    DrawRect {
        /// Clip or window coordinates.
        space: RectSpace,
        /// `patch`: drawn as GL_PATCHES.
        patch: bool,
        /// x, y, w, h.
        rect: [f32; 4],
        /// `draw rect tex`: texture rectangle tx, ty, tw, th.
        tex: Option<[f32; 4]>,
    },
    /// `draw instanced rect [ortho] n x y w h`
    DrawInstancedRect {
        /// Clip or window coordinates.
        space: RectSpace,
        /// Instances.
        instances: u32,
        /// x, y, w, h.
        rect: [f32; 4],
    },
    /// `draw arrays [instanced] MODE first count [n]`
    DrawArrays {
        /// Primitive mode.
        mode: GlEnum,
        /// First vertex.
        first: i32,
        /// Vertex count.
        count: i32,
        /// Instance count for the instanced form.
        instances: Option<u32>,
    },
    /// Colour probes (`probe rgb[a]`, `probe all`, `relative probe`, `probe rect`, `probe warn`).
    Probe(Probe),
    /// `probe depth x y d`
    ProbeDepth {
        /// x
        x: i32,
        /// y
        y: i32,
        /// Expected depth.
        depth: f32,
    },
    /// `tolerance r g b a`
    Tolerance([f32; 4]),
    /// Compute dispatch, storage buffer and atomic counter commands.
    Storage(super::storage::StorageCommand),
    /// `uniform TYPE NAME values…`
    Uniform {
        /// Type word.
        ty: UniformType,
        /// Name or location.
        target: UniformTarget,
        /// Values: one element's worth, as shader_runner reads them.
        values: UniformValues,
    },
    /// `subuniform STAGE NAME FUNCTION`: selects subroutine `FUNCTION` for
    /// subroutine uniform `NAME` (an element like `u[1][0]` too) of `STAGE`.
    SubUniform {
        /// `GL_VERTEX_SHADER`, …
        stage: GlEnum,
        /// The subroutine uniform.
        name: String,
        /// The subroutine function.
        function: String,
    },
    /// `texture … U …`
    Texture {
        /// Texture unit.
        unit: u32,
        /// What to create.
        spec: TextureSpec,
    },
    /// `texparameter TARGET PARAM VALUE`
    TexParameter {
        /// Target.
        target: TextureTarget,
        /// Setting.
        param: TexParam,
    },
    /// `ortho` (window-size projection) or `ortho l r b t`.
    Ortho(Option<[f32; 4]>),
    /// `frustum l r b t n f`
    Frustum([f32; 6]),
    /// `clip plane i a b c d`
    ClipPlane {
        /// Plane index.
        index: u32,
        /// Plane equation.
        plane: [f64; 4],
    },
    /// `enable CAP`
    Enable(GlEnum),
    /// `disable CAP`
    Disable(GlEnum),
    /// `color r g b a`
    Color([f32; 4]),
    /// `texcoord U (s, t, r, q)`
    TexCoord {
        /// Texture unit.
        unit: u32,
        /// Coordinates.
        coords: [f32; 4],
    },
    /// `shade model smooth|flat`: true for flat.
    ShadeModelFlat(bool),
    /// `provoking vertex first|last`: true for first.
    ProvokingVertexFirst(bool),
    /// `polygon mode FACE MODE`
    PolygonMode {
        /// Face.
        face: GlEnum,
        /// Mode.
        mode: GlEnum,
    },
    /// `hint TARGET MODE`
    Hint {
        /// Target.
        target: GlEnum,
        /// Mode.
        mode: GlEnum,
    },
    /// `depthfunc GL_x`
    DepthFunc(GlEnum),
    /// `link error`
    LinkError,
    /// `link success`
    LinkSuccess,
    /// `active uniform NAME GL_UNIFORM_xxx EXPECTED`
    ActiveUniform {
        /// Uniform name.
        name: String,
        /// Queried property.
        pname: GlEnum,
        /// Expected value.
        expected: QueryValue,
    },
    /// `verify program_query GL_xxx VALUE`
    VerifyProgramQuery {
        /// Queried property.
        pname: GlEnum,
        /// Expected value.
        expected: QueryValue,
    },
    /// `verify program_interface_query GL_iface NAME GL_prop VALUE`: one
    /// property of a named resource (`glGetProgramResourceIndex`, then
    /// `glGetProgramResourceiv`).
    VerifyInterfaceQuery {
        /// Program interface.
        interface: GlEnum,
        /// Resource name.
        name: String,
        /// Queried property.
        prop: GlEnum,
        /// Expected value.
        expected: QueryValue,
    },
    /// `ubo array index N`: array element used by later block uniform lookups.
    UboArrayIndex(u32),
    /// `block binding|offset|array index|matrix stride|row major N`: explicit block
    /// layout for later `uniform` commands.
    BlockLayout {
        /// The setting's words, e.g. `binding`, `matrix stride`.
        what: &'static str,
        /// Value.
        value: i64,
    },
    /// A shader_runner command this parser recognises but whose arguments it
    /// does not read, because nothing in the selection uses it.
    Unsupported {
        /// Head words (`xfb draw arrays`, `fb`, …).
        head: &'static str,
        /// The whole line.
        text: String,
    },
}

/// Head words of runner commands outside the selection (see [`Command::Unsupported`]),
/// longest first so that the most specific head wins.
const UNSUPPORTED_HEADS: &[&str] = &[
    "program binary save restore",
    "verify query_object",
    "viewport indexed",
    "viewport swizzle",
    "patch parameter",
    "vertex attrib",
    "texture junk",
    "texture quads",
    "texture integer",
    "texture storage",
    "texture rgbw Cube",
    "resident",
    "parameter",
    "newlist",
    "endlist",
    "calllist",
    "deletelist",
    "compute",
    "atomic",
    "blit",
    "ssbo",
    "xfb",
    "fb",
];

impl Command {
    /// A short stable name for summaries (`probe rgba`, `draw rect`, `uniform vec4`, …).
    pub fn name(&self) -> String {
        match self {
            Command::ClearColor(_) => "clear color".into(),
            Command::ClearDepth(_) => "clear depth".into(),
            Command::ClearStencil(_) => "clear stencil".into(),
            Command::Clear => "clear".into(),
            Command::DrawRect {
                space, patch, tex, ..
            } => {
                let mut s = String::from("draw rect");
                if tex.is_some() {
                    s.push_str(" tex");
                }
                if *space == RectSpace::Ortho {
                    s.push_str(" ortho");
                }
                if *patch {
                    s.push_str(" patch");
                }
                s
            }
            Command::DrawInstancedRect { space, .. } => match space {
                RectSpace::Clip => "draw instanced rect".into(),
                RectSpace::Ortho => "draw instanced rect ortho".into(),
            },
            Command::DrawArrays { instances, .. } => match instances {
                Some(_) => "draw arrays instanced".into(),
                None => "draw arrays".into(),
            },
            Command::Probe(p) => {
                let ch = match p.channels {
                    Channels::Rgb => "rgb",
                    Channels::Rgba => "rgba",
                };
                let warn = if p.warn { "warn " } else { "" };
                match p.region {
                    ProbeRegion::Pixel { .. } => format!("probe {warn}{ch}"),
                    ProbeRegion::Rect { .. } => format!("probe {warn}rect {ch}"),
                    ProbeRegion::RelativePixel { .. } => format!("relative probe {warn}{ch}"),
                    ProbeRegion::RelativeRect { .. } => format!("relative probe {warn}rect {ch}"),
                    ProbeRegion::All => format!("probe {warn}all {ch}"),
                }
            }
            Command::ProbeDepth { .. } => "probe depth".into(),
            Command::Tolerance(_) => "tolerance".into(),
            Command::SubUniform { .. } => "subuniform".into(),
            Command::Storage(s) => s.name().into(),
            Command::Uniform { ty, .. } => {
                let base = match ty.base {
                    UniformBase::Float => "float",
                    UniformBase::Int => "int",
                    UniformBase::Uint => "uint",
                    UniformBase::Double => "double",
                    UniformBase::Int64 => "int64",
                    UniformBase::Uint64 => "uint64",
                    UniformBase::Handle => "handle",
                };
                match (ty.cols, ty.rows) {
                    (1, 1) => format!("uniform {base}"),
                    (1, n) => format!("uniform {base} vec{n}"),
                    (c, r) => format!("uniform {base} mat{c}x{r}"),
                }
            }
            Command::Texture { spec, .. } => match spec {
                TextureSpec::Rgbw2D { .. } => "texture rgbw".into(),
                TextureSpec::Rgbw1D => "texture rgbw 1D".into(),
                TextureSpec::Rgbw3D => "texture rgbw 3D".into(),
                TextureSpec::Rgbw1DArray { .. } => "texture rgbw 1DArray".into(),
                TextureSpec::Rgbw2DArray { .. } => "texture rgbw 2DArray".into(),
                TextureSpec::Miptree => "texture miptree".into(),
                TextureSpec::Checkerboard { .. } => "texture checkerboard".into(),
                TextureSpec::Shadow { target, .. } => format!("texture shadow{}", target.name()),
                TextureSpec::Mipmap { target, .. } => format!("texture mipmap {}", target.name()),
            },
            Command::TexParameter { param, .. } => {
                let p = match param {
                    TexParam::CompareFunc(_) => "compare_func",
                    TexParam::DepthMode(_) => "depth_mode",
                    TexParam::Min(_) => "min",
                    TexParam::Mag(_) => "mag",
                    TexParam::Wrap { .. } => "wrap",
                    TexParam::LodBias(_) => "lod_bias",
                    TexParam::MaxLevel(_) => "max_level",
                    TexParam::BaseLevel(_) => "base_level",
                    TexParam::BorderColor(_) => "border_color",
                    TexParam::Swizzle { .. } => "swizzle",
                };
                format!("texparameter {p}")
            }
            Command::Ortho(None) => "ortho".into(),
            Command::Ortho(Some(_)) => "ortho l r b t".into(),
            Command::Frustum(_) => "frustum".into(),
            Command::ClipPlane { .. } => "clip plane".into(),
            Command::Enable(cap) => format!("enable {}", cap_family(cap)),
            Command::Disable(cap) => format!("disable {}", cap_family(cap)),
            Command::Color(_) => "color".into(),
            Command::TexCoord { .. } => "texcoord".into(),
            Command::ShadeModelFlat(_) => "shade model".into(),
            Command::ProvokingVertexFirst(_) => "provoking vertex".into(),
            Command::PolygonMode { .. } => "polygon mode".into(),
            Command::Hint { .. } => "hint".into(),
            Command::DepthFunc(_) => "depthfunc".into(),
            Command::LinkError => "link error".into(),
            Command::LinkSuccess => "link success".into(),
            Command::ActiveUniform { pname, .. } => format!("active uniform {pname}"),
            Command::VerifyProgramQuery { pname, .. } => {
                format!("verify program_query {pname}")
            }
            Command::VerifyInterfaceQuery {
                interface, prop, ..
            } => format!("verify program_interface_query {interface} {prop}"),
            Command::UboArrayIndex(_) => "ubo array index".into(),
            Command::BlockLayout { what, .. } => format!("block {what}"),
            Command::Unsupported { head, .. } => format!("unsupported: {head}"),
        }
    }
}

/// `GL_CLIP_PLANE3` → `GL_CLIP_PLANEn` for summaries; other caps unchanged.
fn cap_family(cap: &GlEnum) -> String {
    match cap.name.strip_prefix("GL_CLIP_PLANE") {
        Some(_) => "GL_CLIP_PLANEn".into(),
        None => cap.name.to_string(),
    }
}

fn filter(word: &str) -> Read<Filter> {
    Ok(match word {
        "nearest" => Filter::Nearest,
        "linear" => Filter::Linear,
        "nearest_mipmap_nearest" => Filter::NearestMipmapNearest,
        "linear_mipmap_nearest" => Filter::LinearMipmapNearest,
        "nearest_mipmap_linear" => Filter::NearestMipmapLinear,
        "linear_mipmap_linear" => Filter::LinearMipmapLinear,
        other => return Err(format!("unknown filter {other:?}")),
    })
}

fn tex_param(c: &mut Cursor) -> Read<TexParam> {
    let param = c.word()?;
    let value = c.word();
    let value = || value.clone();
    Ok(match param {
        "compare_func" => {
            let name = format!("GL_{}", value()?.to_ascii_uppercase());
            TexParam::CompareFunc(gl_enum::parse_in(
                &name,
                gl_enum::COMPARE_FUNCS,
                "comparison function",
            )?)
        }
        "depth_mode" => TexParam::DepthMode(match value()? {
            "intensity" => DepthMode::Intensity,
            "luminance" => DepthMode::Luminance,
            "alpha" => DepthMode::Alpha,
            "red" => DepthMode::Red,
            other => return Err(format!("unknown depth_mode {other:?}")),
        }),
        "min" => TexParam::Min(filter(value()?)?),
        "mag" => match filter(value()?)? {
            f @ (Filter::Nearest | Filter::Linear) => TexParam::Mag(f),
            other => return Err(format!("{other:?} is not a magnification filter")),
        },
        "wrap_s" | "wrap_t" | "wrap_r" => TexParam::Wrap {
            axis: match param {
                "wrap_s" => 0,
                "wrap_t" => 1,
                _ => 2,
            },
            mode: match value()? {
                "repeat" => Wrap::Repeat,
                "clamp_to_edge" => Wrap::ClampToEdge,
                "clamp_to_border" => Wrap::ClampToBorder,
                "mirrored_repeat" => Wrap::MirroredRepeat,
                "clamp" => Wrap::Clamp,
                other => return Err(format!("unknown wrap mode {other:?}")),
            },
        },
        "lod_bias" => {
            let mut v = Cursor::new(value()?);
            TexParam::LodBias(v.f32()?)
        }
        "max_level" | "base_level" => {
            let mut v = Cursor::new(value()?);
            let n = v.i32()?;
            if param == "max_level" {
                TexParam::MaxLevel(n)
            } else {
                TexParam::BaseLevel(n)
            }
        }
        "border_color" => {
            // The tuple spans several words: re-read from the value's start.
            let rest = format!("{} {}", value()?, c.rest());
            let mut v = Cursor::new(&rest);
            let color = v.float_tuple::<4>()?;
            v.end()?;
            *c = Cursor::new("");
            TexParam::BorderColor(color)
        }
        "swizzle_r" | "swizzle_g" | "swizzle_b" | "swizzle_a" => TexParam::Swizzle {
            channel: match param {
                "swizzle_r" => 0,
                "swizzle_g" => 1,
                "swizzle_b" => 2,
                _ => 3,
            },
            source: match value()? {
                "red" => SwizzleSource::Red,
                "green" => SwizzleSource::Green,
                "blue" => SwizzleSource::Blue,
                "alpha" => SwizzleSource::Alpha,
                "zero" => SwizzleSource::Zero,
                "one" => SwizzleSource::One,
                other => return Err(format!("unknown swizzle source {other:?}")),
            },
        },
        other => return Err(format!("unknown texparameter {other:?}")),
    })
}

fn query_value(c: &mut Cursor) -> Read<QueryValue> {
    let word = c.peek_word();
    if word.starts_with("GL_") {
        c.word()?;
        Ok(QueryValue::Enum(gl_enum::parse(word)?))
    } else {
        Ok(QueryValue::Int(c.int()?))
    }
}

fn uniform_values(c: &mut Cursor, ty: UniformType) -> Read<UniformValues> {
    // shader_runner reads exactly one element's worth of values and stops
    // early (silently) at the first token that is not a number.
    let per = ty.components() as usize;
    let mut floats = Vec::new();
    let mut doubles = Vec::new();
    let mut ints = Vec::new();
    let mut uints = Vec::new();
    let mut count = 0usize;
    while count < per {
        let mut probe = c.clone();
        let ok = match ty.base {
            UniformBase::Float => probe.f32().map(|v| floats.push(v)),
            UniformBase::Double => probe.float().map(|v| doubles.push(v)),
            UniformBase::Int | UniformBase::Int64 => probe.int().and_then(|v| {
                // strtol into a GLint: accept what fits a signed or unsigned 32-bit value.
                if ty.base == UniformBase::Int
                    && !(i64::from(i32::MIN)..=i64::from(u32::MAX)).contains(&v)
                {
                    return Err(format!("{v} does not fit in a 32-bit integer"));
                }
                ints.push(v);
                Ok(())
            }),
            UniformBase::Uint | UniformBase::Uint64 | UniformBase::Handle => {
                probe.int().and_then(|v| {
                    let wrapped = if ty.base == UniformBase::Uint {
                        if !(i64::from(i32::MIN)..=i64::from(u32::MAX)).contains(&v) {
                            return Err(format!("{v} does not fit in a 32-bit integer"));
                        }
                        // strtoul: a negative value wraps.
                        u64::from(v as u32)
                    } else {
                        v as u64
                    };
                    uints.push(wrapped);
                    Ok(())
                })
            }
        };
        match ok {
            Ok(()) => *c = probe,
            Err(e) if count == 0 => return Err(e),
            Err(_) => break,
        }
        count += 1;
    }
    if count < per {
        c.notes.push(format!(
            "only {count} of {per} values given; shader_runner leaves the rest unset, this runner uses 0"
        ));
        floats.resize(per, 0.0);
        doubles.resize(per, 0.0);
        ints.resize(per, 0);
        uints.resize(per, 0);
    }
    Ok(match ty.base {
        UniformBase::Float => UniformValues::Float(floats),
        UniformBase::Double => UniformValues::Double(doubles),
        UniformBase::Int | UniformBase::Int64 => UniformValues::Int(ints),
        UniformBase::Uint | UniformBase::Uint64 | UniformBase::Handle => UniformValues::Uint(uints),
    })
}

fn channels(word: &str) -> Read<Channels> {
    match word {
        "rgb" => Ok(Channels::Rgb),
        "rgba" => Ok(Channels::Rgba),
        other => Err(format!("expected rgb or rgba, found {other:?}")),
    }
}

fn expected_color(c: &mut Cursor, ch: Channels, tuple: bool) -> Read<Vec<f32>> {
    if tuple {
        c.tuple_with(ch.count(), Cursor::f32)
    } else {
        (0..ch.count()).map(|_| c.f32()).collect()
    }
}

/// `probe …` after `probe` (and `relative probe …` when `relative`).
fn probe(c: &mut Cursor, relative: bool) -> Read<Command> {
    let warn = c.eat("warn");
    if !relative && c.eat("depth") {
        let x = c.float()? as i32;
        let y = c.float()? as i32;
        let depth = c.f32()?;
        return Ok(Command::ProbeDepth { x, y, depth });
    }
    let (region, ch, tuple) = if !relative && c.eat("all") {
        let ch = channels(c.word()?)?;
        (ProbeRegion::All, ch, false)
    } else if c.eat("rect") {
        let ch = channels(c.word()?)?;
        let region = if relative {
            ProbeRegion::RelativeRect {
                rect: c.float_tuple::<4>()?,
            }
        } else {
            ProbeRegion::Rect {
                rect: c.int_tuple::<4>()?,
            }
        };
        (region, ch, true)
    } else {
        let ch = channels(c.word()?)?;
        if relative {
            let at = c.float_tuple::<2>()?;
            (ProbeRegion::RelativePixel { at }, ch, true)
        } else if c.rest().starts_with('(') {
            let [x, y] = c.int_tuple::<2>()?;
            (ProbeRegion::Pixel { x, y }, ch, true)
        } else {
            // shader_runner reads the coordinates as floats and truncates them.
            let x = c.float()? as i32;
            let y = c.float()? as i32;
            (ProbeRegion::Pixel { x, y }, ch, false)
        }
    };
    let expected = expected_color(c, ch, tuple)?;
    Ok(Command::Probe(Probe {
        region,
        channels: ch,
        expected,
        warn,
    }))
}

fn texture(c: &mut Cursor) -> Read<Command> {
    let kind = c.word()?;
    let (unit, spec) = match kind {
        "rgbw" => {
            let next = c.peek_word();
            match next {
                "1D" | "3D" => {
                    c.word()?;
                    let unit = c.u32()?;
                    let spec = if next == "1D" {
                        TextureSpec::Rgbw1D
                    } else {
                        TextureSpec::Rgbw3D
                    };
                    (unit, spec)
                }
                "1DArray" => {
                    c.word()?;
                    let unit = c.u32()?;
                    let v = c.tuple_with(2, Cursor::u32)?;
                    (unit, TextureSpec::Rgbw1DArray { size: [v[0], v[1]] })
                }
                "2DArray" => {
                    c.word()?;
                    let unit = c.u32()?;
                    let v = c.tuple_with(3, Cursor::u32)?;
                    (
                        unit,
                        TextureSpec::Rgbw2DArray {
                            size: [v[0], v[1], v[2]],
                        },
                    )
                }
                _ => {
                    let unit = c.u32()?;
                    let v = c.tuple_with(2, Cursor::u32)?;
                    let format = if c.at_end() {
                        None
                    } else {
                        Some(c.word()?.to_string())
                    };
                    (
                        unit,
                        TextureSpec::Rgbw2D {
                            size: [v[0], v[1]],
                            format,
                        },
                    )
                }
            }
        }
        "miptree" => (c.u32()?, TextureSpec::Miptree),
        "checkerboard" => {
            let unit = c.u32()?;
            let level = c.u32()?;
            let v = c.tuple_with(2, Cursor::u32)?;
            let color0 = c.float_tuple::<4>()?;
            let color1 = c.float_tuple::<4>()?;
            (
                unit,
                TextureSpec::Checkerboard {
                    level,
                    size: [v[0], v[1]],
                    color0,
                    color1,
                },
            )
        }
        "shadow1D" | "shadow2D" | "shadowRect" | "shadow1DArray" | "shadow2DArray" => {
            let (target, dims) = match kind {
                "shadow1D" => (TextureTarget::T1D, 1),
                "shadow2D" => (TextureTarget::T2D, 2),
                "shadowRect" => (TextureTarget::Rect, 2),
                "shadow1DArray" => (TextureTarget::T1DArray, 2),
                _ => (TextureTarget::T2DArray, 3),
            };
            let unit = c.u32()?;
            let size = c.tuple_with(dims, Cursor::u32)?;
            (unit, TextureSpec::Shadow { target, size })
        }
        "mipmap" => {
            let target = TextureTarget::parse(c.word()?)?;
            let dims = match target {
                TextureTarget::T1D => 1,
                TextureTarget::T2D | TextureTarget::Cube => 2,
                TextureTarget::T3D => 3,
                other => {
                    return Err(format!(
                        "texture mipmap makes 1D, 2D, 3D and Cube textures, not {}",
                        other.name()
                    ))
                }
            };
            let unit = c.u32()?;
            let size = c.tuple_with(dims, Cursor::u32)?;
            (unit, TextureSpec::Mipmap { target, size })
        }
        other => return Err(format!("unknown texture command {other:?}")),
    };
    Ok(Command::Texture { unit, spec })
}

fn rect_args(c: &mut Cursor) -> Read<[f32; 4]> {
    c.floats::<4>()
}

fn draw(c: &mut Cursor) -> Read<Command> {
    if c.eat("rect") {
        let tex = c.eat("tex");
        let space = if !tex && c.eat("ortho") {
            RectSpace::Ortho
        } else {
            RectSpace::Clip
        };
        let patch = !tex && c.eat("patch");
        let rect = rect_args(c)?;
        let tex = if tex { Some(c.floats::<4>()?) } else { None };
        return Ok(Command::DrawRect {
            space,
            patch,
            rect,
            tex,
        });
    }
    if c.eat("instanced") {
        c.expect("rect")?;
        let space = if c.eat("ortho") {
            RectSpace::Ortho
        } else {
            RectSpace::Clip
        };
        let instances = c.u32()?;
        let rect = rect_args(c)?;
        return Ok(Command::DrawInstancedRect {
            space,
            instances,
            rect,
        });
    }
    if c.eat("arrays") {
        let instanced = c.eat("instanced");
        let mode = gl_enum::parse_in(c.word()?, gl_enum::PRIMITIVE_MODES, "primitive mode")?;
        let first = c.i32()?;
        let count = c.i32()?;
        let instances = if instanced { Some(c.u32()?) } else { None };
        return Ok(Command::DrawArrays {
            mode,
            first,
            count,
            instances,
        });
    }
    Err(format!(
        "unknown draw command {:?} (expected rect, instanced rect or arrays)",
        c.peek_word()
    ))
}

/// Parses one command line (comment-free, trimmed, not empty). Like
/// shader_runner, reading stops once the command has the values it needs:
/// text after them is ignored and reported in the returned notes, as are
/// values shader_runner would leave unset.
pub fn parse(line: &str) -> Read<(Command, Vec<String>)> {
    let mut c = Cursor::new(line);
    let cmd = parse_inner(&mut c, line)?;
    let mut notes = std::mem::take(&mut c.notes);
    if !matches!(cmd, Command::Unsupported { .. }) {
        let rest = c.rest();
        if !rest.is_empty() {
            notes.push(format!(
                "trailing text {rest:?} ignored (shader_runner reads only the values it needs)"
            ));
        }
    }
    Ok((cmd, notes))
}

fn starts_with_words(line: &str, head: &str) -> bool {
    let mut words = line.split_whitespace();
    head.split(' ').all(|h| words.next() == Some(h))
}

fn parse_inner(c: &mut Cursor, line: &str) -> Read<Command> {
    if super::storage::is_storage_command(line) {
        return super::storage::parse(c).map(Command::Storage);
    }
    if let Some(head) = UNSUPPORTED_HEADS
        .iter()
        .find(|h| starts_with_words(line, h))
    {
        return Ok(Command::Unsupported {
            head,
            text: line.to_string(),
        });
    }
    let head = c.word()?;
    Ok(match head {
        "clear" => {
            if c.at_end() {
                Command::Clear
            } else if c.eat("color") {
                Command::ClearColor(c.floats::<4>()?)
            } else if c.eat("depth") {
                Command::ClearDepth(c.float()?)
            } else if c.eat("stencil") {
                Command::ClearStencil(c.i32()?)
            } else {
                return Err(format!("unknown clear command {:?}", c.peek_word()));
            }
        }
        "draw" => draw(c)?,
        "probe" => probe(c, false)?,
        "relative" => {
            c.expect("probe")?;
            probe(c, true)?
        }
        "tolerance" => Command::Tolerance(c.floats::<4>()?),
        "subuniform" => Command::SubUniform {
            stage: gl_enum::parse_in(
                c.word()?,
                &[
                    "GL_VERTEX_SHADER",
                    "GL_GEOMETRY_SHADER",
                    "GL_FRAGMENT_SHADER",
                    "GL_COMPUTE_SHADER",
                    "GL_TESS_CONTROL_SHADER",
                    "GL_TESS_EVALUATION_SHADER",
                ],
                "shader stage",
            )?,
            name: c.word()?.to_string(),
            function: c.word()?.to_string(),
        },
        "uniform" => {
            let ty = UniformType::parse(c.word()?)?;
            let name = c.word()?;
            let target = match super::lex::parse_int(name) {
                Some(location) => UniformTarget::Location(
                    i32::try_from(location).map_err(|_| format!("bad location {name}"))?,
                ),
                None => UniformTarget::Name(name.to_string()),
            };
            let values = uniform_values(c, ty)?;
            Command::Uniform { ty, target, values }
        }
        "texture" => texture(c)?,
        "texparameter" => {
            let target = TextureTarget::parse(c.word()?)?;
            let param = tex_param(c)?;
            Command::TexParameter { target, param }
        }
        "ortho" => {
            if c.at_end() {
                Command::Ortho(None)
            } else {
                Command::Ortho(Some(c.floats::<4>()?))
            }
        }
        "frustum" => Command::Frustum(c.floats::<6>()?),
        "clip" => {
            c.expect("plane")?;
            let index = c.u32()?;
            let mut plane = [0.0; 4];
            for v in &mut plane {
                *v = c.float()?;
            }
            Command::ClipPlane { index, plane }
        }
        "enable" => Command::Enable(gl_enum::parse(c.word()?)?),
        "disable" => Command::Disable(gl_enum::parse(c.word()?)?),
        "color" => Command::Color(c.floats::<4>()?),
        "texcoord" => {
            let unit = c.u32()?;
            Command::TexCoord {
                unit,
                coords: c.float_tuple::<4>()?,
            }
        }
        "shade" => {
            c.expect("model")?;
            match c.word()? {
                "smooth" => Command::ShadeModelFlat(false),
                "flat" => Command::ShadeModelFlat(true),
                other => return Err(format!("shade model must be smooth or flat, not {other:?}")),
            }
        }
        "provoking" => {
            c.expect("vertex")?;
            match c.word()? {
                "first" => Command::ProvokingVertexFirst(true),
                "last" => Command::ProvokingVertexFirst(false),
                other => {
                    return Err(format!(
                        "provoking vertex must be first or last, not {other:?}"
                    ))
                }
            }
        }
        "polygon" => {
            c.expect("mode")?;
            let face = gl_enum::parse_in(
                c.word()?,
                &["GL_FRONT", "GL_BACK", "GL_FRONT_AND_BACK"],
                "face",
            )?;
            let mode = gl_enum::parse_in(
                c.word()?,
                &["GL_POINT", "GL_LINE", "GL_FILL"],
                "polygon mode",
            )?;
            Command::PolygonMode { face, mode }
        }
        "hint" => {
            let target = gl_enum::parse(c.word()?)?;
            let mode = gl_enum::parse_in(
                c.word()?,
                &["GL_DONT_CARE", "GL_FASTEST", "GL_NICEST"],
                "hint mode",
            )?;
            Command::Hint { target, mode }
        }
        "depthfunc" => Command::DepthFunc(gl_enum::parse_in(
            c.word()?,
            gl_enum::COMPARE_FUNCS,
            "comparison function",
        )?),
        "link" => match c.word()? {
            "error" => Command::LinkError,
            "success" => Command::LinkSuccess,
            other => {
                return Err(format!(
                    "link must be followed by error or success, not {other:?}"
                ))
            }
        },
        "active" => {
            c.expect("uniform")?;
            let name = c.word()?.to_string();
            let pname = gl_enum::parse(c.word()?)?;
            let expected = query_value(c)?;
            Command::ActiveUniform {
                name,
                pname,
                expected,
            }
        }
        "verify" => match c.word()? {
            "program_query" => {
                let pname = gl_enum::parse(c.word()?)?;
                let expected = query_value(c)?;
                Command::VerifyProgramQuery { pname, expected }
            }
            "program_interface_query" => {
                let interface = gl_enum::parse(c.word()?)?;
                let name = c.word()?.to_string();
                let prop = gl_enum::parse(c.word()?)?;
                let expected = query_value(c)?;
                Command::VerifyInterfaceQuery {
                    interface,
                    name,
                    prop,
                    expected,
                }
            }
            other => return Err(format!("unknown verify query {other:?}")),
        },
        "ubo" => {
            c.expect("array")?;
            c.expect("index")?;
            Command::UboArrayIndex(c.u32()?)
        }
        "block" => {
            let what = match c.word()? {
                "binding" => "binding",
                "offset" => "offset",
                "array" if c.eat("index") => "array index",
                "matrix" if c.eat("stride") => "matrix stride",
                "row" if c.eat("major") => "row major",
                other => return Err(format!("unknown block setting {other:?}")),
            };
            Command::BlockLayout {
                what,
                value: c.int()?,
            }
        }
        other => return Err(format!("unknown command {other:?}")),
    })
}
