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
use super::{ceil_f32, LoadLanes, TextureBinding};
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

/// Sixteen lanes of floats.
type F16 = [f32; LANES];

/// Each lane's level of detail from the implicit derivatives of its 2×2 quad,
/// before the sampler's LOD bias and clamps (GL 4.6 §8.14.1 equations 8.6 and
/// 8.7, as [`super::sample_quad`] computes it): `log2(ρ)` of the quad plus the
/// lane's `bias` (if any). `st` is each lane's position on the first `D` axes,
/// `scale` the base level's size per axis (1 for rectangle textures): the
/// coarse differences from the quad's first lane to the second (x) and third
/// (y), scaled to texels; `ρ²` is the larger of their squared lengths. With
/// `fast`, `log2(ρ) = ½·fast_log2(ρ²)` (for lookups whose result is continuous
/// in the level of detail), else libm's `log2` of the square root.
///
/// The AVX2 instances (`L::AVX2`) compute all four quads at once with vector
/// shuffles and the vector form of [`fast_log2`]; every operation is the
/// scalar form's, in the same order, so both give the same bits (the tests
/// below check it).
#[inline(always)]
pub(super) fn quad_lambda<L: LoadLanes, const D: usize>(
    st: &[F16; 3],
    scale: [f32; 3],
    bias: Option<&F16>,
    fast: bool,
) -> F16 {
    #[cfg(target_arch = "x86_64")]
    if L::AVX2 {
        // SAFETY: `L::AVX2` instances run only on CPUs with AVX2.
        return unsafe { quad_lambda_avx2::<D>(st, scale, bias, fast) };
    }
    quad_lambda_scalar::<D>(st, scale, bias, fast)
}

/// [`quad_lambda`] one quad at a time.
#[inline(always)]
fn quad_lambda_scalar<const D: usize>(
    st: &[F16; 3],
    scale: [f32; 3],
    bias: Option<&F16>,
    fast: bool,
) -> F16 {
    let mut lambda = [0.0f32; LANES];
    for q in 0..LANES / 4 {
        let q0 = 4 * q;
        let mut sx = 0.0f32;
        let mut sy = 0.0f32;
        for a in 0..D {
            let dx = (st[a][q0 + 1] - st[a][q0]) * scale[a];
            let dy = (st[a][q0 + 2] - st[a][q0]) * scale[a];
            sx += dx * dx;
            sy += dy * dy;
        }
        let m = sx.max(sy);
        let rho = if fast {
            0.5 * fast_log2(m)
        } else {
            m.sqrt().log2()
        };
        for l in q0..q0 + 4 {
            lambda[l] = rho
                + match bias {
                    Some(b) => b[l],
                    None => 0.0,
                };
        }
    }
    lambda
}

/// [`quad_lambda`] with AVX2: each 128-bit half of a register is one quad, so
/// in-lane permutes broadcast a quad's first, second and third lane.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn quad_lambda_avx2<const D: usize>(
    st: &[F16; 3],
    scale: [f32; 3],
    bias: Option<&F16>,
    fast: bool,
) -> F16 {
    use std::arch::x86_64::*;
    let mut out = [0.0f32; LANES];
    for h in 0..2 {
        let o = 8 * h;
        let mut sx = _mm256_setzero_ps();
        let mut sy = _mm256_setzero_ps();
        for a in 0..D {
            // SAFETY: `o + 8 <= LANES`.
            let c = _mm256_loadu_ps(st[a].as_ptr().add(o));
            let c0 = _mm256_permute_ps::<0x00>(c);
            let k = _mm256_set1_ps(scale[a]);
            let dx = _mm256_mul_ps(_mm256_sub_ps(_mm256_permute_ps::<0x55>(c), c0), k);
            let dy = _mm256_mul_ps(_mm256_sub_ps(_mm256_permute_ps::<0xaa>(c), c0), k);
            sx = _mm256_add_ps(sx, _mm256_mul_ps(dx, dx));
            sy = _mm256_add_ps(sy, _mm256_mul_ps(dy, dy));
        }
        // `f32::max`: the other operand where one is NaN (`maxps` gives its
        // second operand when either is).
        let m = _mm256_max_ps(sx, sy);
        let m = _mm256_blendv_ps(m, sx, _mm256_cmp_ps::<_CMP_UNORD_Q>(sy, sy));
        let mut rho = [0.0f32; 8];
        if fast {
            let r = _mm256_mul_ps(_mm256_set1_ps(0.5), fast_log2_avx2(m));
            _mm256_storeu_ps(rho.as_mut_ptr(), r);
            // Lanes outside the approximation's range take libm, as `fast_log2`.
            let ok = _mm256_and_ps(
                _mm256_cmp_ps::<_CMP_GE_OQ>(m, _mm256_set1_ps(f32::MIN_POSITIVE)),
                _mm256_cmp_ps::<_CMP_LT_OQ>(m, _mm256_set1_ps(f32::INFINITY)),
            );
            let bad = !_mm256_movemask_ps(ok) & 0xff;
            if bad != 0 {
                let mut ms = [0.0f32; 8];
                _mm256_storeu_ps(ms.as_mut_ptr(), m);
                for l in 0..8 {
                    if bad >> l & 1 == 1 {
                        rho[l] = 0.5 * ms[l].log2();
                    }
                }
            }
        } else {
            let mut ms = [0.0f32; 8];
            _mm256_storeu_ps(ms.as_mut_ptr(), m);
            for q in 0..2 {
                let r = ms[4 * q].sqrt().log2();
                rho[4 * q..4 * q + 4].fill(r);
            }
        }
        let b = match bias {
            Some(b) => _mm256_loadu_ps(b.as_ptr().add(o)),
            None => _mm256_setzero_ps(),
        };
        let lam = _mm256_add_ps(_mm256_loadu_ps(rho.as_ptr()), b);
        _mm256_storeu_ps(out.as_mut_ptr().add(o), lam);
    }
    out
}

/// `½·fast_log2(m)` of every lane: `log2(ρ)` from `ρ² = m` for lookups whose
/// result is continuous in the level of detail (explicit derivatives; the
/// implicit ones take [`quad_lambda`]). The AVX2 instances run the vector
/// form, the same bits (lanes outside its range take libm's `log2`, as
/// [`fast_log2`] does).
#[inline(always)]
pub(super) fn half_fast_log2<L: LoadLanes>(m: &F16) -> F16 {
    #[cfg(target_arch = "x86_64")]
    if L::AVX2 {
        // SAFETY: `L::AVX2` instances run only on CPUs with AVX2.
        return unsafe { half_fast_log2_avx2(m) };
    }
    m.map(|x| 0.5 * fast_log2(x))
}

/// [`half_fast_log2`] with AVX2.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn half_fast_log2_avx2(m: &F16) -> F16 {
    use std::arch::x86_64::*;
    let mut out = [0.0f32; LANES];
    for h in 0..2 {
        let o = 8 * h;
        // SAFETY: `o + 8 <= LANES`.
        let x = _mm256_loadu_ps(m.as_ptr().add(o));
        let r = _mm256_mul_ps(_mm256_set1_ps(0.5), fast_log2_avx2(x));
        _mm256_storeu_ps(out.as_mut_ptr().add(o), r);
        let ok = _mm256_and_ps(
            _mm256_cmp_ps::<_CMP_GE_OQ>(x, _mm256_set1_ps(f32::MIN_POSITIVE)),
            _mm256_cmp_ps::<_CMP_LT_OQ>(x, _mm256_set1_ps(f32::INFINITY)),
        );
        let bad = !_mm256_movemask_ps(ok) & 0xff;
        if bad != 0 {
            for l in 0..8 {
                if bad >> l & 1 == 1 {
                    out[o + l] = 0.5 * m[o + l].log2();
                }
            }
        }
    }
    out
}

/// [`fast_log2`]'s approximation on eight lanes, the same operations in the
/// same order (so the same bits) for the lanes it covers (finite normal
/// positive `x`); the others are garbage the caller replaces.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn fast_log2_avx2(x: std::arch::x86_64::__m256) -> std::arch::x86_64::__m256 {
    use std::arch::x86_64::*;
    let bits = _mm256_castps_si256(x);
    let e = _mm256_sub_epi32(_mm256_srli_epi32::<23>(bits), _mm256_set1_epi32(127));
    let m = _mm256_castsi256_ps(_mm256_or_si256(
        _mm256_and_si256(bits, _mm256_set1_epi32(0x007f_ffff)),
        _mm256_set1_epi32(0x3f80_0000),
    ));
    let big = _mm256_cmp_ps::<_CMP_GT_OQ>(m, _mm256_set1_ps(std::f32::consts::SQRT_2));
    let m = _mm256_blendv_ps(m, _mm256_mul_ps(m, _mm256_set1_ps(0.5)), big);
    // `big` is all ones (-1) where set.
    let k = _mm256_cvtepi32_ps(_mm256_sub_epi32(e, _mm256_castps_si256(big)));
    let one = _mm256_set1_ps(1.0);
    let s = _mm256_div_ps(_mm256_sub_ps(m, one), _mm256_add_ps(m, one));
    let s2 = _mm256_mul_ps(s, s);
    let p = _mm256_add_ps(
        _mm256_set1_ps(1.0 / 7.0),
        _mm256_mul_ps(s2, _mm256_set1_ps(1.0 / 9.0)),
    );
    let p = _mm256_add_ps(_mm256_set1_ps(1.0 / 5.0), _mm256_mul_ps(s2, p));
    let p = _mm256_add_ps(_mm256_set1_ps(1.0 / 3.0), _mm256_mul_ps(s2, p));
    let p = _mm256_add_ps(one, _mm256_mul_ps(s2, p));
    let r = _mm256_mul_ps(
        _mm256_mul_ps(s, p),
        _mm256_set1_ps(2.0 / std::f32::consts::LN_2),
    );
    _mm256_add_ps(k, r)
}

#[cfg(test)]
mod tests {
    /// The vector `½·fast_log2` gives the scalar one's bits, inside and outside
    /// the approximation's range.
    #[test]
    fn half_fast_log2_vector_matches_scalar() {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            let xs: [f32; 16] = [
                0.0,
                -1.0,
                f32::NAN,
                f32::INFINITY,
                1e-40,
                1e-30,
                0.3,
                1.0,
                1.5,
                2.0,
                7.9,
                1e6,
                3e38,
                f32::MIN_POSITIVE,
                0.999,
                64.0,
            ];
            let v = super::half_fast_log2::<super::super::SplitLoad>(&xs);
            let s = super::half_fast_log2::<super::super::PlainLoad>(&xs);
            for l in 0..16 {
                assert!(
                    v[l].to_bits() == s[l].to_bits() || (v[l].is_nan() && s[l].is_nan()),
                    "lane {l}: {} vs {}",
                    v[l],
                    s[l]
                );
            }
        }
    }

    use super::{fast_log2, quad_lambda, quad_lambda_scalar, F16, LANES};

    /// The vector level of detail gives the scalar one's bits, for positions
    /// that make ρ² zero, subnormal, normal, huge, infinite or NaN, with and
    /// without the fast log2 and a bias, on one to three axes.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn quad_lambda_vector_matches_scalar() {
        if !std::arch::is_x86_feature_detected!("avx2") {
            eprintln!("no AVX2: the vector form is not used on this CPU");
            return;
        }
        let specials = [
            0.0,
            -0.0,
            1.0e-30,
            1.0e-20,
            0.25,
            0.5,
            1.0,
            3.0e19,
            1.0e30,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        // xorshift32
        let mut seed = 0x9e37_79b9u32;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        };
        let mut checked = 0;
        for case in 0..4000 {
            let mut st: [F16; 3] = [[0.0; LANES]; 3];
            for a in 0..3 {
                for l in 0..LANES {
                    let r = next();
                    st[a][l] = if r % 7 == 0 {
                        specials[(r >> 8) as usize % specials.len()]
                    } else {
                        // Positions around 0..4 with steps of 2^-12..2^4.
                        (r >> 8) as f32 * 2f32.powi(-((r % 17) as i32) - 8)
                    };
                }
            }
            let scale = [256.0, 64.0, 1.0];
            let mut bias = [0.0f32; LANES];
            for b in bias.iter_mut() {
                *b = (next() % 64) as f32 * 0.125 - 4.0;
            }
            let bias = (case % 3 == 0).then_some(&bias);
            let fast = case % 2 == 0;
            macro_rules! both {
                ($d:literal) => {{
                    let v = quad_lambda::<crate::texture::SplitLoad, $d>(&st, scale, bias, fast);
                    let s = quad_lambda_scalar::<$d>(&st, scale, bias, fast);
                    (v, s)
                }};
            }
            let (v, s) = match case % 3 {
                0 => both!(1),
                1 => both!(2),
                _ => both!(3),
            };
            for l in 0..LANES {
                // Any NaN is the same level of detail (0) to the callers.
                let same = v[l].to_bits() == s[l].to_bits() || (v[l].is_nan() && s[l].is_nan());
                assert!(same, "case {case} lane {l}: {} vs {}", v[l], s[l]);
                checked += 1;
            }
        }
        assert_eq!(checked, 4000 * LANES);
    }

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
