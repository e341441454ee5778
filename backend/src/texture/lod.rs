//! The level-of-detail query of ARB_texture_query_lod (`textureQueryLOD`,
//! GLSL 4.00's `textureQueryLod`; NIR's `lod` tex op): per 2x2 quad, the
//! level of detail a filtered lookup with implicit derivatives would use.
//!
//! The scale factor is the one [`super::sample_quad`] computes for an
//! implicit-LOD lookup (coarse differences across the quad in base-level texel
//! space, GL 4.6 §8.14.1 equation 8.7 with the maximum of the two lengths), so
//! the query describes exactly what `texture()` samples. From the extension:
//! * y is the computed level of detail λ' (§8.14.1 equation 8.6): log2 of the
//!   scale factor plus the sampler's LOD bias, before the clamp to
//!   `[TEXTURE_MIN_LOD, TEXTURE_MAX_LOD]`;
//! * x is the mipmap level accessed, relative to the base level: 0 without
//!   mipmapping or when magnifying; with `*_MIPMAP_NEAREST` the level λ rounds
//!   to (`ceil(λ + 0.5) - 1`, clamped to the last level); with
//!   `*_MIPMAP_LINEAR` the clamped λ itself (between the two levels blended).

use super::quad::cube_face;
use super::{ceil_f32, TextureBinding};
use crate::driver::{MipFilter, TexTarget};
use crate::exec::{Reg, LANES};

/// `(x, y)` of `textureQueryLOD` for the 16 lanes (4 quads) at `coords`
/// (the lookup coordinates without the array layer; a direction for cube
/// maps). An empty view gives zeros.
pub fn query_lod(b: &TextureBinding<'_>, coords: &[Reg]) -> [Reg; 2] {
    let mut out = [Reg::default(); 2];
    let view = &b.view;
    let Some(base) = view.levels.first() else {
        return out;
    };
    let s = &b.sampler;
    let (dims, normalized) = match view.target {
        TexTarget::D1 | TexTarget::D1Array => (1, true),
        TexTarget::D3 => (3, true),
        TexTarget::Rect => (2, false),
        _ => (2, true),
    };
    let size = [base.width as f32, base.height as f32, base.depth as f32];
    let coord = |a: usize, l: usize| coords.get(a).map_or(0.0, |r| r.f(l));
    // Base-level texel-space position of lane `l`.
    let position = |l: usize| -> [f32; 3] {
        let mut p = [0.0f32; 3];
        if view.target == TexTarget::Cube {
            let (_, u, v) = cube_face(coord(0, l), coord(1, l), coord(2, l));
            p[0] = u;
            p[1] = v;
        } else {
            for (a, x) in p.iter_mut().enumerate().take(dims) {
                *x = coord(a, l);
            }
        }
        if normalized {
            for a in 0..dims {
                p[a] *= size[a];
            }
        }
        p
    };
    let last = view.levels.len().saturating_sub(1) as f32;
    for q in 0..LANES / 4 {
        let l0 = 4 * q;
        let (p0, p1, p2) = (position(l0), position(l0 + 1), position(l0 + 2));
        let (mut sx, mut sy) = (0.0f32, 0.0f32);
        for a in 0..dims {
            sx += (p1[a] - p0[a]).powi(2);
            sy += (p2[a] - p0[a]).powi(2);
        }
        let lambda = sx.max(sy).sqrt().log2() + s.lod_bias;
        let clamped = if lambda.is_nan() {
            0.0
        } else {
            lambda.max(s.min_lod).min(s.max_lod)
        };
        let level = if clamped <= 0.0 {
            0.0
        } else {
            match s.mip {
                MipFilter::None => 0.0,
                MipFilter::Nearest if clamped <= 0.5 => 0.0,
                MipFilter::Nearest => (ceil_f32(clamped + 0.5) - 1.0).min(last),
                MipFilter::Linear => clamped.min(last),
            }
        };
        for l in l0..l0 + 4 {
            out[0].set_f(l, level);
            out[1].set_f(l, lambda);
        }
    }
    out
}

/// `log2(x)` to within about 1e-6 (absolute, for the finite normal `x` of a
/// level-of-detail computation, plus the result's rounding), without a libm call: the exponent extracted
/// from the bits and the mantissa's log from the series
/// `log2(m) = 2/ln 2 · (s + s³/3 + s⁵/5 + s⁷/7 + s⁹/9)`, `s = (m − 1)/(m + 1)`,
/// on `m` in `[√½, √2)` (`|s| < 0.172`, so the first term left out is under
/// 2e-9) — the shape of llvmpipe's `lp_build_log2_approx` (exponent plus a
/// polynomial of the mantissa, `lp_bld_arit.c`). Zero, subnormals, infinities
/// and NaN take libm's `log2`. Only lookups whose result is continuous in the
/// level of detail use it (every filter LINEAR, `*_MIPMAP_LINEAR`), so the
/// approximation moves their results by about as much, far below a texel step.
#[inline(always)]
pub(super) fn fast_log2(x: f32) -> f32 {
    if !(f32::MIN_POSITIVE..f32::INFINITY).contains(&x) {
        return x.log2();
    }
    let bits = x.to_bits();
    let e = (bits >> 23) as i32 - 127;
    let m = f32::from_bits((bits & 0x007f_ffff) | 0x3f80_0000);
    let big = m > std::f32::consts::SQRT_2;
    let m = if big { m * 0.5 } else { m };
    let k = (e + big as i32) as f32;
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    let p = 1.0 + s2 * (1.0 / 3.0 + s2 * (1.0 / 5.0 + s2 * (1.0 / 7.0 + s2 * (1.0 / 9.0))));
    k + s * p * (2.0 / std::f32::consts::LN_2)
}

#[cfg(test)]
mod tests {
    use super::fast_log2;

    #[test]
    fn fast_log2_is_within_1e6_of_log2() {
        // Powers of two exactly; a sweep of mantissas and exponents within 1e-6
        // (the double-precision log2 as the reference); the special values as
        // libm gives them.
        for e in -126..128 {
            let x = 2f32.powi(e);
            assert_eq!(fast_log2(x), e as f32, "2^{e}");
        }
        // Beyond the approximation's 1e-6, the sum `k + p` rounds like any
        // float of its size (half an ulp: 3.8e-6 near 100).
        let mut worst = 0.0f64;
        let mut x = f32::MIN_POSITIVE;
        while x < 1.0e30 {
            let exact = (x as f64).log2();
            let err = (fast_log2(x) as f64 - exact).abs();
            let ulp = f32::EPSILON as f64 * exact.abs().max(1.0);
            worst = worst.max(err - 0.5 * ulp);
            x *= 1.000_37;
        }
        assert!(worst < 1.0e-6, "worst error beyond rounding {worst}");
        assert_eq!(fast_log2(0.0), f32::NEG_INFINITY);
        assert_eq!(fast_log2(f32::INFINITY), f32::INFINITY);
        assert!(fast_log2(f32::NAN).is_nan());
        assert!(fast_log2(-1.0).is_nan());
        assert_eq!(fast_log2(1.0e-40), 1.0e-40f32.log2());
    }
}
