//! The generated vertex shader: it passes `piglit_vertex` through as the
//! position of a full-screen rectangle and writes every input the fragment
//! shader reads (its [`Interface`]) with a value that varies smoothly across
//! the screen and is plausible for what such an input usually carries.
//!
//! A vertex shader only runs at the four corners and the rasterizer
//! interpolates linearly, so every value is a linear function of the screen
//! position `uv` (0..1 across the target), except directions, which are
//! normalized at the corners as a mesh's normals are:
//!
//! | input | value |
//! |---|---|
//! | name containing `color`/`colour`, `gl_Color`, `gl_SecondaryColor` | a colour: components in 0.1..0.9, alpha 0.9 |
//! | `float`, `gl_FogFragCoord` | `0.2 + 0.5 * uv.x` (or `uv.y`) |
//! | `vec2` | texture coordinates `uv * 6` (see [`TEXCOORD_SCALE`]) |
//! | `vec3` | a unit direction toward the viewer, tilted by the position |
//! | `vec4`, `gl_TexCoord[i]` | `(uv * 6, 0.5 + 0.5 * uv.x, 1)`: coordinates with a depth-like `z` and `q = 1` for projective lookups |
//! | `matCxR` | the identity with a small position-dependent shear |
//! | `int`/`uint` vectors (`flat`) | 1 |
//!
//! Array elements and later inputs of the same type are offset or rotated so
//! that no two inputs are identical. Qualifiers (`flat`, `noperspective`,
//! `centroid`, `invariant`) are copied, since GLSL requires them to match
//! across the interface (GLSL 1.30 §4.3.6, GLSL 4.20 §4.3.4).

use std::fmt::Write as _;

use rgl_glsl::ast::Interpolation;
use rgl_glsl::types::ScalarKind;
use rgl_glsl::version::Profile;

use super::interface::{Input, Interface, Shape};

/// Repeats of a texture across the screen for generated texture coordinates:
/// a 256×256 texture drawn over 1024 pixels at 6 repeats is minified by 1.5
/// (level of detail log2(1.5) ≈ 0.58), so trilinear filtering blends levels 0
/// and 1, as on a game's receding surfaces.
pub const TEXCOORD_SCALE: f32 = 6.0;

/// The `#version` line for a vertex shader that links with a fragment shader
/// of `interface.version`.
fn version_line(interface: &Interface) -> String {
    let v = interface.version;
    match v.profile {
        Profile::Es if v.number >= 300 => format!("#version {} es", v.number),
        Profile::Compatibility if v.number >= 150 => format!("#version {} compatibility", v.number),
        _ => format!("#version {}", v.number),
    }
}

/// A name for a local of the vertex shader that no input uses.
fn fresh_name(base: &str, interface: &Interface) -> String {
    let taken = |n: &str| interface.inputs.iter().any(|i| i.name == n);
    let mut name = base.to_string();
    let mut k = 0;
    while taken(&name) {
        k += 1;
        name = format!("{base}{k}");
    }
    name
}

/// The declaration of `input` as a vertex shader output.
fn declaration(input: &Input, modern: bool) -> String {
    let mut words = Vec::new();
    if input.invariant {
        words.push("invariant".to_string());
    }
    match input.interpolation {
        Some(Interpolation::Flat) => words.push("flat".into()),
        Some(Interpolation::Smooth) => words.push("smooth".into()),
        Some(Interpolation::NoPerspective) => words.push("noperspective".into()),
        None => {}
    }
    if input.centroid {
        words.push("centroid".into());
    }
    words.push(if modern { "out" } else { "varying" }.into());
    words.push(input.shape.glsl_name());
    let array = input.array.map_or_else(String::new, |n| format!("[{n}]"));
    words.push(format!("{}{array};", input.name));
    words.join(" ")
}

/// GLSL for a float literal (always with a decimal point).
fn lit(v: f32) -> String {
    let s = format!("{v}");
    if s.contains('.') || s.contains('e') {
        s
    } else {
        format!("{s}.0")
    }
}

/// `n / 10` as an exact GLSL float literal (`0.3`, `1.2`).
fn tenths(n: u32) -> String {
    format!("{}.{}", n / 10, n % 10)
}

fn is_colour(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.contains("color") || lower.contains("colour")
}

/// Where the value of one input comes from.
struct Source<'a> {
    /// The screen position 0..1 (a local of the vertex shader).
    uv: &'a str,
    /// The clip-space position -1..1.
    pos: &'a str,
}

impl Source<'_> {
    /// A colour of `n` components (3 or 4), `seed` shifting its hue.
    fn colour(&self, n: u8, seed: u32) -> String {
        let (uv, k) = (self.uv, seed % 3);
        let mut parts = vec![
            format!("{} + 0.6 * {uv}.x", tenths(1 + k)),
            format!("{} + 0.6 * {uv}.y", tenths(3 - k)),
            tenths(6 + k),
        ];
        parts.truncate(n as usize);
        if n == 4 {
            parts.push("0.9".into());
        }
        format!("vec{n}({})", parts.join(", "))
    }

    /// A unit direction toward +z, tilted by the position; `seed` rotates it.
    fn direction(&self, seed: u32) -> String {
        let p = self.pos;
        let (a, b) = match seed % 4 {
            0 => (format!("{p}.x"), format!("{p}.y")),
            1 => (format!("-{p}.y"), format!("{p}.x")),
            2 => (format!("0.5 * {p}.y"), format!("-0.5 * {p}.x")),
            _ => (format!("-0.5 * {p}.x"), format!("0.5 * {p}.y")),
        };
        format!("normalize(vec3({a}, {b}, 1.0))")
    }

    /// The value of one element of type `shape`; `seed` makes inputs and
    /// elements of the same type differ.
    fn value(&self, shape: Shape, name: &str, seed: u32) -> String {
        let uv = self.uv;
        match (shape.kind, shape.cols, shape.rows) {
            (ScalarKind::Int | ScalarKind::Uint | ScalarKind::Bool, _, _) => {
                let one = if shape.kind == ScalarKind::Uint {
                    "1u"
                } else {
                    "1"
                };
                if shape.rows == 1 {
                    one.to_string()
                } else {
                    format!("{}({one})", shape.glsl_name())
                }
            }
            (ScalarKind::Float, 1, n @ (3 | 4)) if is_colour(name) => self.colour(n, seed),
            (ScalarKind::Float, 1, 1) => {
                let axis = if seed.is_multiple_of(2) { "x" } else { "y" };
                format!("{} + 0.5 * {uv}.{axis}", tenths(2 + seed % 3))
            }
            (ScalarKind::Float, 1, 2) => self.tex_coord(seed),
            (ScalarKind::Float, 1, 3) => self.direction(seed),
            (ScalarKind::Float, 1, _) => self.tex_coord4(seed),
            (ScalarKind::Float, cols, rows) => {
                // Identity, plus a shear of 0.1 * pos.x in one off-diagonal
                // element per column.
                let mut columns = Vec::new();
                for c in 0..cols {
                    let mut comps = Vec::new();
                    for r in 0..rows {
                        comps.push(if r == c {
                            "1.0".to_string()
                        } else if r == (c + 1) % rows {
                            format!("0.1 * {}.x", self.pos)
                        } else {
                            "0.0".to_string()
                        });
                    }
                    columns.push(format!("vec{rows}({})", comps.join(", ")));
                }
                format!("{}({})", shape.glsl_name(), columns.join(", "))
            }
        }
    }

    /// Texture coordinates repeating [`TEXCOORD_SCALE`] times across the screen.
    fn tex_coord(&self, seed: u32) -> String {
        if seed == 0 {
            format!("{} * {}", self.uv, lit(TEXCOORD_SCALE))
        } else {
            format!("{} * {} + {}", self.uv, lit(TEXCOORD_SCALE), tenths(seed))
        }
    }

    /// `(s, t, r, q)`: texture coordinates, a depth-like `r`, `q = 1`.
    fn tex_coord4(&self, seed: u32) -> String {
        format!(
            "vec4({}, 0.5 + 0.5 * {}.x, 1.0)",
            self.tex_coord(seed),
            self.uv
        )
    }
}

/// The vertex shader for `interface`.
pub fn generate(interface: &Interface) -> String {
    let v = interface.version;
    let modern = if v.profile == Profile::Es {
        v.number >= 300
    } else {
        v.number >= 130
    };
    let uv = fresh_name("uv", interface);
    let source = Source {
        uv: &uv,
        pos: "piglit_vertex",
    };
    let mut out = String::new();
    let _ = writeln!(out, "{}", version_line(interface));
    let _ = writeln!(
        out,
        "{} vec4 piglit_vertex;",
        if modern { "in" } else { "attribute" }
    );
    for input in &interface.inputs {
        let _ = writeln!(out, "{}", declaration(input, modern));
    }
    let _ = writeln!(out, "void main()\n{{");
    let _ = writeln!(out, "\tgl_Position = piglit_vertex;");
    let _ = writeln!(out, "\tvec2 {uv} = piglit_vertex.xy * 0.5 + 0.5;");
    // Seeds count per element type, so the second vec3 differs from the first.
    let mut seeds: Vec<(Shape, u32)> = Vec::new();
    let mut next_seed = |shape: Shape| {
        let slot = match seeds.iter_mut().find(|(s, _)| *s == shape) {
            Some(slot) => slot,
            None => {
                seeds.push((shape, 0));
                seeds.last_mut().expect("just pushed")
            }
        };
        let seed = slot.1;
        slot.1 += 1;
        seed
    };
    for input in &interface.inputs {
        match input.array {
            None => {
                let value = source.value(input.shape, &input.name, next_seed(input.shape));
                let _ = writeln!(out, "\t{} = {value};", input.name);
            }
            Some(n) => {
                for i in 0..n {
                    let value = source.value(input.shape, &input.name, next_seed(input.shape));
                    let _ = writeln!(out, "\t{}[{i}] = {value};", input.name);
                }
            }
        }
    }
    let b = interface.builtins;
    if b.color {
        let _ = writeln!(out, "\tgl_FrontColor = {};", source.colour(4, 0));
    }
    if b.secondary_color {
        let _ = writeln!(out, "\tgl_FrontSecondaryColor = {};", source.colour(4, 2));
    }
    if b.fog_frag_coord {
        let _ = writeln!(out, "\tgl_FogFragCoord = 0.2 + 0.5 * {uv}.x;");
    }
    for i in 0..b.tex_coords {
        let _ = writeln!(out, "\tgl_TexCoord[{i}] = {};", source.tex_coord4(i));
    }
    out.push_str("}\n");
    out
}
