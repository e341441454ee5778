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
            let d = texels(lv, at);
            let pass = _mm256_and_ps(compare::<F>(r, d), one);
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

/// The depth of the texel at index `at` of each lane, decoded.
///
/// # Safety
/// The CPU must support AVX2; every index is inside the level.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn texels(lv: &Level2, at: std::arch::x86_64::__m256i) -> std::arch::x86_64::__m256 {
    use std::arch::x86_64::*;
    // SAFETY: every index is inside the level (the caller's contract), which
    // holds 4- or 8-byte texels; the hardware gather reads the first 4 bytes
    // of each lane's texel (x86 is little-endian, as the texels are stored).
    let v = if lv.texel == DepthTexel::Z32FS8 {
        _mm256_i32gather_epi32::<8>(lv.data.cast(), at)
    } else {
        _mm256_i32gather_epi32::<4>(lv.data.cast(), at)
    };
    match lv.texel {
        DepthTexel::Z24 => _mm256_div_ps(
            _mm256_cvtepi32_ps(_mm256_srli_epi32::<8>(v)),
            _mm256_set1_ps(16_777_215.0),
        ),
        DepthTexel::Z32F | DepthTexel::Z32FS8 => _mm256_castsi256_ps(v),
    }
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
