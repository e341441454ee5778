//! Texture sampling over lanes: sampler state, views of mip levels, and the pure
//! sampling functions (`texture`, `textureLod`, `textureGrad`, offsets, shadow compare,
//! `texelFetch`, `textureSize`) that compiled shaders call. [`sample`] holds the
//! filtering code; its results are checked against a scalar reference in the tests.

mod mip_rgba8;
mod sample;

/// `x.floor()` without a libm call (baseline x86-64 has no SSE4.1 rounding): the same
/// result for every input, including -0.0, NaN and infinities.
#[inline(always)]
pub fn floor_f32(x: f32) -> f32 {
    if x.abs() < 8_388_608.0 {
        let t = x as i32 as f32;
        let r = if t > x { t - 1.0 } else { t };
        r.copysign(x)
    } else {
        x
    }
}

/// `x.ceil()` without a libm call (same results as `f32::ceil`).
#[inline(always)]
pub fn ceil_f32(x: f32) -> f32 {
    if x.abs() < 8_388_608.0 {
        let t = x as i32 as f32;
        let r = if t < x { t + 1.0 } else { t };
        r.copysign(x)
    } else {
        x
    }
}

/// `x.trunc()` without a libm call (same results as `f32::trunc`).
#[inline(always)]
pub fn trunc_f32(x: f32) -> f32 {
    if x.abs() < 8_388_608.0 {
        (x as i32 as f32).copysign(x)
    } else {
        x
    }
}

/// `x.round_ties_even()` without a libm call (same results): adding and removing
/// 2^23 rounds to an integer in the default rounding mode.
#[inline(always)]
pub fn round_even_f32(x: f32) -> f32 {
    let a = x.abs();
    if a < 8_388_608.0 {
        ((a + 8_388_608.0) - 8_388_608.0).copysign(x)
    } else {
        x
    }
}

pub use sample::{fetch, query_levels, sample, size, FetchRequest, LodMode, SampleRequest};

use crate::driver::{CompareFunc, Swizzle, TexTarget};
use crate::format::Format;

/// Texture coordinate wrap mode.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Wrap {
    /// `GL_REPEAT`.
    Repeat,
    /// `GL_MIRRORED_REPEAT`.
    MirroredRepeat,
    /// `GL_CLAMP_TO_EDGE`.
    ClampToEdge,
    /// `GL_CLAMP_TO_BORDER`.
    ClampToBorder,
    /// `GL_MIRROR_CLAMP_TO_EDGE`.
    MirrorClampToEdge,
    /// Legacy `GL_CLAMP` (clamp the coordinate to [0, 1]; linear filtering blends
    /// with the border).
    Clamp,
}

/// Texel filter.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Filter {
    /// Nearest texel.
    Nearest,
    /// Bilinear (trilinear with [`MipFilter::Linear`]).
    Linear,
}

/// Mipmap selection.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MipFilter {
    /// Base level only.
    None,
    /// Nearest level.
    Nearest,
    /// Blend the two nearest levels.
    Linear,
}

/// Sampler state (`pipe_sampler_state`).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SamplerState {
    /// Wrap of s, t, r.
    pub wrap: [Wrap; 3],
    /// Magnification filter.
    pub mag: Filter,
    /// Minification filter.
    pub min: Filter,
    /// Mip filter.
    pub mip: MipFilter,
    /// `GL_TEXTURE_LOD_BIAS`.
    pub lod_bias: f32,
    /// `GL_TEXTURE_MIN_LOD`.
    pub min_lod: f32,
    /// `GL_TEXTURE_MAX_LOD`.
    pub max_lod: f32,
    /// Border color (float; integer formats are not stored by this driver).
    pub border: [f32; 4],
    /// Shadow comparison (`GL_COMPARE_REF_TO_TEXTURE` with this function).
    pub compare: Option<CompareFunc>,
}

impl Default for SamplerState {
    fn default() -> Self {
        SamplerState {
            wrap: [Wrap::Repeat; 3],
            mag: Filter::Linear,
            min: Filter::Nearest,
            mip: MipFilter::Linear,
            lod_bias: 0.0,
            min_lod: -1000.0,
            max_lod: 1000.0,
            border: [0.0; 4],
            compare: None,
        }
    }
}

/// One mip level's texels (all slices/layers, tightly packed).
#[derive(Copy, Clone, Debug)]
pub struct MipLevel<'a> {
    /// Texels.
    pub data: &'a [u8],
    /// Width.
    pub width: u32,
    /// Height (layers for 1D arrays).
    pub height: u32,
    /// Depth (slices for 3D, layers for 2D arrays and cubes).
    pub depth: u32,
}

/// A texture as a shader sees it: the levels from the view's base level on.
#[derive(Clone, Debug)]
pub struct TexView<'a> {
    /// Target.
    pub target: TexTarget,
    /// Format.
    pub format: Format,
    /// Levels `base..=max`; `levels[0]` is the base level.
    pub levels: Vec<MipLevel<'a>>,
    /// Swizzle applied to results.
    pub swizzle: [Swizzle; 4],
}

/// A texture slot: view and sampler.
#[derive(Clone, Debug)]
pub struct TextureBinding<'a> {
    /// The view.
    pub view: TexView<'a>,
    /// The sampler.
    pub sampler: SamplerState,
}
