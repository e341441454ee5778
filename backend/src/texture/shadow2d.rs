//! Percentage-closer filtering of one 2D depth level in AVX2 vector code: the
//! sampler variant's route for a comparing `sampler2DShadow` /
//! `sampler2DRectShadow` binding whose lookups all read one level with a
//! LINEAR filter (GL 4.6 §8.22.1 "Depth Texture Comparison Mode": each of the
//! four taps is compared with the reference, then the 0/1 results are
//! filtered). llvmpipe also compares before filtering and filters the
//! one-channel result (`lp_bld_sample_compare`, read for design only).
//!
//! The arithmetic is the variant's float routine's ([`super::variant`]) in the
//! same order, eight lanes per AVX2 register: the texel-space position
//! `s × size + offset`, `u = position − 1/2`, `floor(u)` and its fraction, the
//! wrapped tap indices (clamp to edge, or repeat on a power-of-two size: the
//! variant's selection proved every index in range), each tap's weight as the
//! product of its per-axis weights, the texel decoded as the variant decodes
//! it, compared, then added times its weight unless the weight is zero. So the
//! results are bit for bit the float routine's, and the quad sampler's
//! (`backend/tests/sampler_variant_diff.rs`). The texel words are read with
//! AVX2 gathers, the request's registers with 16-byte loads (the JIT code
//! has just stored them 16 bytes at a time). A lane with a position beyond
//! ±2²⁴ texels or NaN sends the whole request back to the float routine.
//!
//! A 24-bit unorm texel `t` decodes to `d(t) = t / (2²⁴ − 1)` in f32, which
//! strictly increases with `t` (the spacing `1 / (2²⁴ − 1)` is wider than an
//! f32 ulp below 1). So `r OP d(t)` is `t ≥ T` or `t < T` for a per-lane
//! threshold `T` (or `t = E` for equality), found once per lane by
//! [`z24_thresholds`]: the taps then compare the integer texel with it and
//! skip the conversion and division, with the same result for every texel
//! (proved over all 2²⁴ texels by this module's tests).

use crate::driver::CompareFunc;
use crate::exec::{Reg, LANES};

/// How the level's texels decode to a depth value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum DepthTexel {
    /// 24-bit unsigned normalized depth in the high bits of a 32-bit word
    /// (`Z24UnormX8`, `Z24UnormS8`): `(word >> 8) / (2²⁴ − 1)`.
    Z24,
    /// A 32-bit float (`Z32Float`), 4 bytes per texel.
    Z32F,
    /// A 32-bit float followed by 4 bytes of stencil (`Z32FloatS8`).
    Z32FS8,
}

/// The level and the sampler state a lookup depends on.
pub(super) struct Level2 {
    /// Texels, `width × height` of them, row by row.
    pub data: *const u8,
    /// Width and height, each at least 1, their product under 2³¹.
    pub size: [i32; 2],
    /// Per axis: repeat (the size is then a power of two), else clamp to edge.
    pub repeat: [bool; 2],
    /// Coordinates are normalized (not a rectangle texture).
    pub normalized: bool,
    /// The texel encoding.
    pub texel: DepthTexel,
    /// The comparison function.
    pub func: CompareFunc,
    /// Clamp the reference to [0, 1] first (normalized depth formats).
    pub clamp_ref: bool,
}

/// The compared, filtered result of every lane and its filtered alpha (the
/// sum of the taps' weights), or `None` when a lane's position is beyond ±2²⁴
/// texels or NaN.
///
/// # Safety
/// The CPU must support AVX2, and `lv.data` must hold `width × height` texels
/// of the encoding's size.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn filter(
    lv: &Level2,
    coords: [&Reg; 2],
    reference: &Reg,
    offset: [i32; 2],
) -> Option<[[f32; LANES]; 2]> {
    // One instance per comparison function: a `match` per tap was an indirect
    // jump per tap.
    match lv.func {
        CompareFunc::Never => filter_f::<0>(lv, coords, reference, offset),
        CompareFunc::Always => filter_f::<1>(lv, coords, reference, offset),
        CompareFunc::Less => filter_f::<2>(lv, coords, reference, offset),
        CompareFunc::Equal => filter_f::<3>(lv, coords, reference, offset),
        CompareFunc::LessEqual => filter_f::<4>(lv, coords, reference, offset),
        CompareFunc::Greater => filter_f::<5>(lv, coords, reference, offset),
        CompareFunc::NotEqual => filter_f::<6>(lv, coords, reference, offset),
        CompareFunc::GreaterEqual => filter_f::<7>(lv, coords, reference, offset),
    }
}

/// [`filter`] for the comparison function numbered `F` (see [`compare`]).
///
/// # Safety
/// As [`filter`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn filter_f<const F: u8>(
    lv: &Level2,
    coords: [&Reg; 2],
    reference: &Reg,
    offset: [i32; 2],
) -> Option<[[f32; LANES]; 2]> {
    use std::arch::x86_64::*;
    let mut out = [[0.0f32; LANES]; 2];
    for h in 0..LANES / 8 {
        let st = [half(coords[0], h), half(coords[1], h)];
        let mut r = half(reference, h);
        if lv.clamp_ref {
            // `f32::clamp(0, 1)`: MAXPS/MINPS return their second operand when
            // one is NaN, so a NaN reference stays NaN, and -0 stays -0.
            r = _mm256_min_ps(_mm256_set1_ps(1.0), _mm256_max_ps(_mm256_setzero_ps(), r));
        }
        // Z24: the integer threshold each tap's texel is compared with.
        let thr = if lv.texel == DepthTexel::Z24 {
            z24_thresholds::<F>(r)
        } else {
            _mm256_setzero_si256()
        };
        // Per axis: the scaled index of the low and high tap, and their weights.
        let mut ix = [[_mm256_setzero_si256(); 2]; 2];
        let mut wt = [[_mm256_setzero_ps(); 2]; 2];
        let stride = [1, lv.size[0]];
        for a in 0..2 {
            let n = lv.size[a];
            let mut p = st[a];
            if lv.normalized {
                p = _mm256_mul_ps(p, _mm256_set1_ps(n as f32));
            }
            p = _mm256_add_ps(p, _mm256_set1_ps(offset[a] as f32));
            // |p| < 2^24, also false for NaN.
            let abs = _mm256_andnot_ps(_mm256_set1_ps(-0.0), p);
            let near = _mm256_cmp_ps::<_CMP_LT_OQ>(abs, _mm256_set1_ps(16_777_216.0));
            if _mm256_movemask_ps(near) != 0xff {
                return None;
            }
            let u = _mm256_sub_ps(p, _mm256_set1_ps(0.5));
            let fl = _mm256_floor_ps(u);
            let i = _mm256_cvttps_epi32(fl);
            let f = _mm256_sub_ps(u, fl);
            let i1 = _mm256_add_epi32(i, _mm256_set1_epi32(1));
            let wrap = |i: __m256i| {
                if lv.repeat[a] {
                    _mm256_and_si256(i, _mm256_set1_epi32(n - 1))
                } else {
                    _mm256_min_epi32(
                        _mm256_max_epi32(i, _mm256_setzero_si256()),
                        _mm256_set1_epi32(n - 1),
                    )
                }
            };
            let s = _mm256_set1_epi32(stride[a]);
            ix[a][0] = _mm256_mullo_epi32(wrap(i), s);
            ix[a][1] = _mm256_mullo_epi32(wrap(i1), s);
            wt[a][0] = _mm256_sub_ps(_mm256_set1_ps(1.0), f);
            wt[a][1] = f;
        }
        let zero = _mm256_setzero_ps();
        let one = _mm256_set1_ps(1.0);
        let mut sum = zero;
        let mut alpha = zero;
        for k in 0..4 {
            let at = _mm256_add_epi32(ix[0][k & 1], ix[1][k >> 1]);
            let w = _mm256_mul_ps(wt[0][k & 1], wt[1][k >> 1]);
            let v = texel_words(lv, at);
            let hold = if lv.texel == DepthTexel::Z24 {
                compare_z24::<F>(_mm256_srli_epi32::<8>(v), thr)
            } else {
                compare::<F>(r, _mm256_castsi256_ps(v))
            };
            let pass = _mm256_and_ps(hold, one);
            // A zero weight keeps the sums unchanged, as the float routine's
            // select does (NaN weights are added).
            let skip = _mm256_cmp_ps::<_CMP_EQ_OQ>(w, zero);
            let s1 = _mm256_add_ps(sum, _mm256_mul_ps(pass, w));
            sum = _mm256_blendv_ps(s1, sum, skip);
            // The constant alpha of 1: 1 × w is w exactly.
            let a1 = _mm256_add_ps(alpha, w);
            alpha = _mm256_blendv_ps(a1, alpha, skip);
        }
        _mm256_storeu_ps(out[0].as_mut_ptr().add(8 * h), sum);
        _mm256_storeu_ps(out[1].as_mut_ptr().add(8 * h), alpha);
    }
    Some(out)
}

/// Lanes `8h..8h + 8` of a register, read as two 16-byte loads (see
/// `super::SplitLoad` for why).
///
/// # Safety
/// The CPU must support AVX; `h` is 0 or 1.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn half(r: &Reg, h: usize) -> std::arch::x86_64::__m256 {
    use std::arch::x86_64::*;
    let p = r.0.as_ptr().cast::<__m128>().add(2 * h);
    // Volatile, so the compiler does not merge them into one 32-byte load.
    // SAFETY: `Reg` is sixteen `u32`s aligned to 64 bytes and `h` is 0 or 1,
    // so both aligned 16-byte loads are inside it.
    let lo = std::ptr::read_volatile(p);
    let hi = std::ptr::read_volatile(p.add(1));
    _mm256_set_m128(hi, lo)
}

/// The first 32-bit word of the texel at index `at` of each lane: the depth
/// as an f32 (`Z32F`, `Z32FS8`) or the 24-bit depth in its high bits (`Z24`).
///
/// # Safety
/// The CPU must support AVX2; every index is inside the level.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn texel_words(lv: &Level2, at: std::arch::x86_64::__m256i) -> std::arch::x86_64::__m256i {
    use std::arch::x86_64::*;
    // SAFETY: every index is inside the level (the caller's contract), which
    // holds 4- or 8-byte texels; the hardware gather reads the first 4 bytes
    // of each lane's texel (x86 is little-endian, as the texels are stored).
    if lv.texel == DepthTexel::Z32FS8 {
        _mm256_i32gather_epi32::<8>(lv.data.cast(), at)
    } else {
        _mm256_i32gather_epi32::<4>(lv.data.cast(), at)
    }
}

/// `d(t) = t / (2²⁴ − 1)` in f32 per lane, the float routine's Z24 decode.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn z24_decode(t: std::arch::x86_64::__m256i) -> std::arch::x86_64::__m256 {
    use std::arch::x86_64::*;
    _mm256_div_ps(_mm256_cvtepi32_ps(t), _mm256_set1_ps(16_777_215.0))
}

/// Per lane, the integer threshold that [`compare_z24`] compares a 24-bit
/// texel `t` with, so that it holds exactly when `compare::<F>(r, d(t))` does.
///
/// With `T≥ = min{t : d(t) ≥ r}` and `T> = min{t : d(t) > r}` (`2²⁴` when
/// there is none), `d` increasing gives: `r < d(t)` ⇔ `t ≥ T>`, `r ≤ d(t)` ⇔
/// `t ≥ T≥`, `r > d(t)` ⇔ `t < T≥`, `r ≥ d(t)` ⇔ `t < T>`, and `r = d(t)` ⇔
/// `t = T≥` when `d(T≥) = r` (else no texel). `r × (2²⁴ − 1)` is exact in
/// f64; with `c` its ceiling, clamped to [0, 2²⁴], every `t ≥ c` has
/// `t / (2²⁴ − 1) ≥ r` so `d(t) ≥ r` (rounding is monotonic), and `c − 2` is
/// more than one ulp of `r` below it, so `T≥` is `c − 1` or `c`: one decode
/// of each decides. `d` being injective, `T>` is `T≥ + 1` when `d(T≥) = r`,
/// else `T≥`. A NaN reference fails every ordered comparison, so the
/// threshold is then one no texel passes (and `E` is −1: `!=` holds).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn z24_thresholds<const F: u8>(r: std::arch::x86_64::__m256) -> std::arch::x86_64::__m256i {
    use std::arch::x86_64::*;
    if F < 2 {
        return _mm256_setzero_si256();
    }
    let scale = _mm256_set1_pd(16_777_215.0);
    let ceil_clamped = |x: __m128| {
        let c = _mm256_ceil_pd(_mm256_mul_pd(_mm256_cvtps_pd(x), scale));
        // MAXPD returns its second operand for a NaN: 0 (the lane is fixed
        // below); an infinite product clamps to an end.
        let c = _mm256_min_pd(
            _mm256_max_pd(c, _mm256_setzero_pd()),
            _mm256_set1_pd(16_777_216.0),
        );
        _mm256_cvtpd_epi32(c)
    };
    let c = _mm256_set_m128i(
        ceil_clamped(_mm256_extractf128_ps::<1>(r)),
        ceil_clamped(_mm256_castps256_ps128(r)),
    );
    let one = _mm256_set1_epi32(1);
    let lo = _mm256_max_epi32(_mm256_sub_epi32(c, one), _mm256_setzero_si256());
    let hi = _mm256_add_epi32(lo, one);
    let d_lo = z24_decode(lo);
    let d_hi = z24_decode(hi);
    // All-ones where d(lo) ≥ r: then T≥ = lo, else T≥ = lo + 1 (= c, as
    // d(0) = 0 ≥ r whenever c = 0).
    let lo_ok = _mm256_castps_si256(_mm256_cmp_ps::<_CMP_GE_OQ>(d_lo, r));
    let t_ge = _mm256_blendv_epi8(hi, lo, lo_ok);
    let d_t = _mm256_blendv_ps(d_hi, d_lo, _mm256_castsi256_ps(lo_ok));
    let hit = _mm256_castps_si256(_mm256_cmp_ps::<_CMP_EQ_OQ>(d_t, r));
    let nan = _mm256_castps_si256(_mm256_cmp_ps::<_CMP_UNORD_Q>(r, r));
    let t_gt = _mm256_sub_epi32(t_ge, hit);
    let none_pass = _mm256_set1_epi32(1 << 24);
    match F {
        // t ≥ T, written t > T − 1.
        2 => _mm256_sub_epi32(_mm256_blendv_epi8(t_gt, none_pass, nan), one),
        4 => _mm256_sub_epi32(_mm256_blendv_epi8(t_ge, none_pass, nan), one),
        // t < T.
        5 => _mm256_andnot_si256(nan, t_ge),
        7 => _mm256_andnot_si256(nan, t_gt),
        // t = E, −1 when no texel decodes to r (NaN included).
        _ => _mm256_or_si256(t_ge, _mm256_xor_si256(hit, _mm256_set1_epi32(-1))),
    }
}

/// All-ones where the comparison function numbered `F` holds for a lane's
/// reference and its 24-bit texel `t`, given the lane's [`z24_thresholds`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn compare_z24<const F: u8>(
    t: std::arch::x86_64::__m256i,
    thr: std::arch::x86_64::__m256i,
) -> std::arch::x86_64::__m256 {
    use std::arch::x86_64::*;
    let m = match F {
        0 => _mm256_setzero_si256(),
        1 => _mm256_set1_epi32(-1),
        2 | 4 => _mm256_cmpgt_epi32(t, thr),
        5 | 7 => _mm256_cmpgt_epi32(thr, t),
        3 => _mm256_cmpeq_epi32(t, thr),
        _ => _mm256_xor_si256(_mm256_cmpeq_epi32(t, thr), _mm256_set1_epi32(-1)),
    };
    _mm256_castsi256_ps(m)
}

/// All-ones where the comparison function numbered `F` (never, always, <, ==,
/// <=, >, !=, >=, as [`filter`] numbers them) holds for `(r, d)` (GL §8.22.1),
/// with Rust's comparison semantics for NaN (`!=` holds, the others do not).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn compare<const F: u8>(
    r: std::arch::x86_64::__m256,
    d: std::arch::x86_64::__m256,
) -> std::arch::x86_64::__m256 {
    use std::arch::x86_64::*;
    match F {
        0 => _mm256_setzero_ps(),
        1 => _mm256_castsi256_ps(_mm256_set1_epi32(-1)),
        2 => _mm256_cmp_ps::<_CMP_LT_OQ>(r, d),
        3 => _mm256_cmp_ps::<_CMP_EQ_OQ>(r, d),
        4 => _mm256_cmp_ps::<_CMP_LE_OQ>(r, d),
        5 => _mm256_cmp_ps::<_CMP_GT_OQ>(r, d),
        6 => _mm256_cmp_ps::<_CMP_NEQ_UQ>(r, d),
        _ => _mm256_cmp_ps::<_CMP_GE_OQ>(r, d),
    }
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    //! The Z24 integer comparison against the float routine's, over every
    //! 24-bit texel: a set of references checked against all 2²⁴ texels, and
    //! for every texel `t` the references `d(t)` and its f32 neighbours
    //! checked against the texels around `t` and both ends.

    use super::*;
    use std::arch::x86_64::*;

    const MAX: i32 = (1 << 24) - 1;

    /// Per comparison function (numbered as [`compare`]), all-ones lanes where
    /// the integer comparison differs from the float one, as a bit mask.
    #[target_feature(enable = "avx2")]
    unsafe fn mismatches(r: __m256, thr: &[__m256i; 8], t: __m256i) -> [i32; 8] {
        let d = z24_decode(t);
        macro_rules! diff {
            ($f:literal) => {
                _mm256_movemask_ps(_mm256_xor_ps(
                    compare_z24::<$f>(t, thr[$f]),
                    compare::<$f>(r, d),
                ))
            };
        }
        [
            diff!(0),
            diff!(1),
            diff!(2),
            diff!(3),
            diff!(4),
            diff!(5),
            diff!(6),
            diff!(7),
        ]
    }

    #[target_feature(enable = "avx2")]
    unsafe fn thresholds(r: __m256) -> [__m256i; 8] {
        [
            z24_thresholds::<0>(r),
            z24_thresholds::<1>(r),
            z24_thresholds::<2>(r),
            z24_thresholds::<3>(r),
            z24_thresholds::<4>(r),
            z24_thresholds::<5>(r),
            z24_thresholds::<6>(r),
            z24_thresholds::<7>(r),
        ]
    }

    fn decode(t: i32) -> f32 {
        t as f32 / 16_777_215.0
    }

    fn next_up(x: f32) -> f32 {
        if x == 0.0 {
            f32::from_bits(1)
        } else if x > 0.0 {
            f32::from_bits(x.to_bits() + 1)
        } else {
            f32::from_bits(x.to_bits() - 1)
        }
    }

    fn next_down(x: f32) -> f32 {
        -next_up(-x)
    }

    fn avx2() -> bool {
        is_x86_feature_detected!("avx2")
    }

    /// In a debug build, every `STEP`th texel only (the intrinsics are not
    /// inlined there); the release build checks all of them.
    const STEP: usize = if cfg!(debug_assertions) { 4099 } else { 1 };

    #[test]
    fn decode_strictly_increases() {
        for t in (0..MAX).step_by(STEP) {
            assert!(decode(t) < decode(t + 1), "d({t}) >= d({})", t + 1);
        }
    }

    #[test]
    fn listed_references_against_every_texel() {
        if !avx2() {
            return;
        }
        let mut refs = vec![
            0.0,
            -0.0,
            1.0,
            0.5,
            0.25,
            1.0 / 3.0,
            0.7,
            next_down(1.0),
            next_up(1.0),
            2.0,
            -1.0,
            -1e-30,
            f32::from_bits(1),
            f32::from_bits(0x8000_0001),
            f32::MIN_POSITIVE,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            -f32::NAN,
            f32::MAX,
            f32::MIN,
        ];
        for t in [1, 2, 3, 1 << 23, (1 << 23) + 1, MAX - 2, MAX - 1, MAX] {
            let d = decode(t);
            refs.extend([d, next_up(d), next_down(d)]);
        }
        for &r in &refs {
            // SAFETY: AVX2 is present.
            unsafe {
                let rv = _mm256_set1_ps(r);
                let thr = thresholds(rv);
                let lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
                for t in (0..=MAX).step_by(8 * STEP) {
                    let tv = _mm256_add_epi32(_mm256_set1_epi32(t), lanes);
                    let m = mismatches(rv, &thr, tv);
                    assert_eq!(
                        m,
                        [0; 8],
                        "reference {r:e} ({:#x}), texels {t}..",
                        r.to_bits()
                    );
                }
            }
        }
    }

    #[test]
    fn neighbours_of_every_texel_value() {
        if !avx2() {
            return;
        }
        for base in (0..=MAX).step_by(8 * STEP) {
            let t: [i32; 8] = std::array::from_fn(|i| (base + i as i32).min(MAX));
            for pick in 0..3 {
                let r: [f32; 8] = std::array::from_fn(|i| {
                    let d = decode(t[i]);
                    [d, next_up(d), next_down(d)][pick]
                });
                // SAFETY: AVX2 is present.
                unsafe {
                    let rv = _mm256_loadu_ps(r.as_ptr());
                    let thr = thresholds(rv);
                    let tv = _mm256_loadu_si256(t.as_ptr().cast());
                    for k in [-2, -1, 0, 1, 2] {
                        let near = _mm256_min_epi32(
                            _mm256_max_epi32(
                                _mm256_add_epi32(tv, _mm256_set1_epi32(k)),
                                _mm256_setzero_si256(),
                            ),
                            _mm256_set1_epi32(MAX),
                        );
                        let m = mismatches(rv, &thr, near);
                        assert_eq!(m, [0; 8], "texels {base}.. offset {k}, pick {pick}");
                    }
                    for end in [0, MAX] {
                        let m = mismatches(rv, &thr, _mm256_set1_epi32(end));
                        assert_eq!(m, [0; 8], "texels {base}.. against {end}, pick {pick}");
                    }
                }
            }
        }
    }
}
