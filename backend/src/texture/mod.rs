//! Texture sampling over lanes: sampler state, views of mip levels, and the pure
//! sampling functions (`texture`, `textureLod`, `textureGrad`, offsets, shadow compare,
//! `texelFetch`, `textureSize`, `textureQueryLOD`, gathers) that compiled shaders call. [`sample`] takes the
//! RGBA8 2D fast paths (`mip_rgba8`), the sampler variant of the binding's state
//! (`variant`, which filters RGBA8 3D lookups in fixed point: `linear8`, `unorm8`)
//! or the quad sampler ([`sample_quad`], which
//! holds the generic filtering code); the tests check both against a scalar
//! reference, and the quad sampler bit for bit against the per-lane sampler it
//! replaced.

mod gather;
mod linear8;
mod lod;
mod mip_rgba8;
mod quad;
mod sample;
#[cfg(target_arch = "x86_64")]
mod shadow2d;
mod unorm8;
mod variant;

/// How a routine reads the float lanes of the request's registers.
pub(super) trait LoadLanes {
    /// The instance runs only on CPUs with AVX2 (so it may call AVX2 code).
    const AVX2: bool;
    fn lanes(r: &Reg) -> [f32; LANES];
}

/// Plain loads (the compiler picks their width).
pub(super) struct PlainLoad;

impl LoadLanes for PlainLoad {
    const AVX2: bool = false;
    #[inline(always)]
    fn lanes(r: &Reg) -> [f32; LANES] {
        r.0.map(f32::from_bits)
    }
}

/// Four 16-byte loads joined into two 32-byte registers, for the AVX2
/// instances. JIT-compiled code has just written the request's registers with
/// Cranelift's 16-byte stores; a 32-byte load spanning two of them cannot be
/// forwarded from the store buffer and waits for both to retire, which was
/// the hottest spot of the shadow routine (`shadow2d`: 15 % of its samples on
/// the first use of the comparison reference).
#[cfg(target_arch = "x86_64")]
pub(super) struct SplitLoad;

#[cfg(target_arch = "x86_64")]
impl LoadLanes for SplitLoad {
    const AVX2: bool = true;
    #[inline(always)]
    fn lanes(r: &Reg) -> [f32; LANES] {
        // SAFETY: only the AVX2 instances use `SplitLoad`, and they run only when
        // the CPU has AVX2.
        unsafe { split_load(r) }
    }
}

/// [`SplitLoad`]'s loads.
///
/// # Safety
/// The CPU must support AVX.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
#[inline]
unsafe fn split_load(r: &Reg) -> [f32; LANES] {
    use std::arch::x86_64::*;
    let p = r.0.as_ptr().cast::<__m128>();
    // Volatile, so the compiler does not merge them back into 32-byte loads.
    // SAFETY: `Reg` is sixteen `u32`s aligned to 64 bytes, so the four
    // 16-byte loads at `p.add(0..4)` are inside it and aligned.
    let q: [__m128; 4] = std::array::from_fn(|k| std::ptr::read_volatile(p.add(k)));
    let mut lo = _mm256_set_m128(q[1], q[0]);
    let mut hi = _mm256_set_m128(q[3], q[2]);
    // An empty `asm!` the joined registers pass through: without it the
    // compiler sees each store of a join as two 16-byte stores and emits those,
    // and the routine's later 32-byte loads stall on them instead.
    std::arch::asm!("/* {0} {1} */", inout(ymm_reg) lo, inout(ymm_reg) hi,
        options(pure, nomem, nostack, preserves_flags));
    let mut o = [0.0f32; LANES];
    _mm256_storeu_ps(o.as_mut_ptr(), lo);
    _mm256_storeu_ps(o.as_mut_ptr().add(8), hi);
    o
}

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

pub use gather::{gather, GatherRequest};
pub use lod::query_lod;
pub use quad::{sample_quad, QuadF, QuadLod, QuadRequest, QuadRgba, QUAD};
pub use sample::{fetch, query_levels, sample, size, FetchRequest, LodMode, SampleRequest};
pub use variant::{SampleRoutine, SamplerVariant};

use crate::driver::{SamplerState, Swizzle, TexTarget};
use crate::exec::{Reg, LANES};
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

impl<'a> TexView<'a> {
    /// A view of `target` and `format` over levels held as `(width, height,
    /// depth, texels)`, base level first, with the identity swizzle.
    pub fn new(target: TexTarget, format: Format, levels: &'a [(u32, u32, u32, Vec<u8>)]) -> Self {
        TexView {
            target,
            format,
            levels: levels
                .iter()
                .map(|(width, height, depth, data)| MipLevel {
                    data,
                    width: *width,
                    height: *height,
                    depth: *depth,
                })
                .collect(),
            swizzle: Swizzle::IDENTITY,
        }
    }
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
