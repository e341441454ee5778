//! The generated `[test]` script: one texture per sampler on its own unit,
//! every non-sampler uniform set to a plausible non-zero value, one
//! full-screen `draw rect`.
//!
//! Textures (sizes are what a game binds for such a target; contents are
//! [`crate::shader_test::textures`]' smooth pattern with fine detail, so
//! filtering and mip selection do real work):
//!
//! | sampler | command |
//! |---|---|
//! | `sampler1D` | `texture mipmap 1D U (256)` |
//! | `sampler2D` | `texture mipmap 2D U (256, 256)`: RGBA8, full mip chain, trilinear, repeat |
//! | `sampler3D` | `texture mipmap 3D U (64, 64, 64)` |
//! | `samplerCube` | `texture mipmap Cube U (128, 128)` |
//! | `sampler2DShadow` | `texture shadow2D U (256, 256)` (depth ramps along s) with linear filtering (percentage-closer filtering), `GL_LEQUAL` and repeat wrap, so the generated coordinates, which repeat across the screen, keep the comparisons varied |
//! | `sampler1DShadow` | `texture shadow1D U (256)`, likewise |
//!
//! Uniforms: floats and vectors take values around 0.5 (0.4, 0.5, 0.6, 0.7
//! cycling over components and uniforms), matrices the identity, `int`,
//! `uint` and `bool` (set as `int`, as `glUniform1i` may) the value 1, which
//! is also a valid index into any array.

use std::fmt::Write as _;

use rgl_glsl::types::{SamplerDim, SamplerType, ScalarKind};

use super::interface::{Interface, Shape};
use super::{GenerateError, TargetKind};

/// Texture units a generated program may use (GL 3.3's minimum of
/// `GL_MAX_TEXTURE_IMAGE_UNITS`, which rgl and llvmpipe both offer).
pub const MAX_UNITS: usize = 16;

/// The texture commands for a sampler of type `ty` on `unit`, and the kind of
/// target it is.
fn texture(unit: usize, ty: SamplerType) -> Option<(Vec<String>, TargetKind)> {
    if ty.arrayed || ty.kind != ScalarKind::Float {
        return None;
    }
    let shadow = |target: &str, command: String| {
        let mut commands = vec![
            command,
            format!("texparameter {target} min linear"),
            format!("texparameter {target} mag linear"),
            format!("texparameter {target} compare_func lequal"),
            format!("texparameter {target} wrap_s repeat"),
        ];
        if target == "2D" {
            commands.push(format!("texparameter {target} wrap_t repeat"));
        }
        commands
    };
    Some(match (ty.dim, ty.shadow) {
        (SamplerDim::D1, false) => (
            vec![format!("texture mipmap 1D {unit} (256)")],
            TargetKind::D1,
        ),
        (SamplerDim::D2, false) => (
            vec![format!("texture mipmap 2D {unit} (256, 256)")],
            TargetKind::D2,
        ),
        (SamplerDim::D3, false) => (
            vec![format!("texture mipmap 3D {unit} (64, 64, 64)")],
            TargetKind::D3,
        ),
        (SamplerDim::Cube, false) => (
            vec![format!("texture mipmap Cube {unit} (128, 128)")],
            TargetKind::Cube,
        ),
        (SamplerDim::D2, true) => (
            shadow("2D", format!("texture shadow2D {unit} (256, 256)")),
            TargetKind::Shadow,
        ),
        (SamplerDim::D1, true) => (
            shadow("1D", format!("texture shadow1D {unit} (256)")),
            TargetKind::Shadow,
        ),
        _ => return None,
    })
}

/// The values of one uniform leaf, as a `uniform` command writes them.
fn values(shape: Shape, ordinal: usize) -> String {
    const AROUND_HALF: [&str; 4] = ["0.4", "0.5", "0.6", "0.7"];
    let n = usize::from(shape.cols) * usize::from(shape.rows);
    let one = |_| "1".to_string();
    let words: Vec<String> = match shape.kind {
        ScalarKind::Int | ScalarKind::Uint | ScalarKind::Bool => (0..n).map(one).collect(),
        ScalarKind::Float if shape.cols == 1 => (0..n)
            .map(|j| AROUND_HALF[(ordinal + j) % 4].to_string())
            .collect(),
        ScalarKind::Float => (0..shape.cols)
            .flat_map(|c| {
                (0..shape.rows).map(move |r| if c == r { "1.0" } else { "0.0" }.to_string())
            })
            .collect(),
    };
    words.join(" ")
}

/// The `uniform` command's type word for `shape` (booleans as integers).
fn type_word(shape: Shape) -> String {
    let kind = match shape.kind {
        ScalarKind::Bool => ScalarKind::Int,
        k => k,
    };
    Shape { kind, ..shape }.glsl_name()
}

/// The `[test]` section's commands (without the header), and the kinds of
/// texture target the program samples.
pub fn generate(interface: &Interface) -> Result<(String, Vec<TargetKind>), GenerateError> {
    if interface.samplers.len() > MAX_UNITS {
        return Err(GenerateError::TooManySamplers(
            interface.samplers.len(),
            MAX_UNITS,
        ));
    }
    let mut out = String::new();
    let mut kinds = Vec::new();
    for (unit, sampler) in interface.samplers.iter().enumerate() {
        let (commands, kind) = texture(unit, sampler.ty).ok_or_else(|| {
            GenerateError::UnsupportedSampler(format!("{} {}", sampler.ty.name(), sampler.name))
        })?;
        for c in commands {
            let _ = writeln!(out, "{c}");
        }
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    for (unit, sampler) in interface.samplers.iter().enumerate() {
        let _ = writeln!(out, "uniform int {} {unit}", sampler.name);
    }
    for (ordinal, leaf) in interface.uniforms.iter().enumerate() {
        let _ = writeln!(
            out,
            "uniform {} {} {}",
            type_word(leaf.shape),
            leaf.name,
            values(leaf.shape, ordinal)
        );
    }
    out.push_str("draw rect -1 -1 2 2\n");
    kinds.sort();
    Ok((out, kinds))
}
