//! Texture sampling over lanes: sampler state, views of mip levels, and the pure
//! sampling functions (`texture`, `textureLod`, `textureGrad`, offsets, shadow compare,
//! `texelFetch`, `textureSize`, `textureQueryLOD`) that compiled shaders call. [`sample`] takes the
//! RGBA8 2D fast paths (`mip_rgba8`), the sampler variant of the binding's state
//! (`variant`, which filters RGBA8 3D lookups in fixed point: `linear8`, `unorm8`)
//! or the quad sampler ([`sample_quad`], which
//! holds the generic filtering code); the tests check both against a scalar
//! reference, and the quad sampler bit for bit against the per-lane sampler it
//! replaced.

mod linear8;
mod lod;
mod mip_rgba8;
mod quad;
mod sample;
mod unorm8;
mod variant;

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

pub use lod::query_lod;
pub use quad::{sample_quad, QuadF, QuadLod, QuadRequest, QuadRgba, QUAD};
pub use sample::{fetch, query_levels, sample, size, FetchRequest, LodMode, SampleRequest};
pub use variant::{SampleRoutine, SamplerVariant};

use crate::driver::{SamplerState, Swizzle, TexTarget};
use crate::format::Format;

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

/// A texture slot: view, sampler, and the sampling routine chosen for their state.
#[derive(Clone, Debug)]
pub struct TextureBinding<'a> {
    /// The view.
    pub view: TexView<'a>,
    /// The sampler.
    pub sampler: SamplerState,
    /// The routine specialized on `view` and `sampler` ([`SamplerVariant::select`]);
    /// build bindings with [`TextureBinding::new`] so it matches them.
    pub variant: SamplerVariant,
}

impl<'a> TextureBinding<'a> {
    /// A binding with its sampler variant selected (once, for every lookup of the
    /// draw).
    pub fn new(view: TexView<'a>, sampler: SamplerState) -> TextureBinding<'a> {
        let variant = SamplerVariant::select(&view, &sampler);
        TextureBinding {
            view,
            sampler,
            variant,
        }
    }
}
