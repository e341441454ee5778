//! Linear filtering of RGBA8 (unorm8) texels in 16-bit fixed point, the form
//! llvmpipe's AoS sampler takes for 8-bit normalized formats
//! (`lp_bld_sample_aos.c`, `lp_build_lerp` on 16-bit lanes; read for design only).
//!
//! A channel byte `v` becomes the integer `v << 7`, so 1.0 is `255 << 7 = 32640`
//! and every value fits an `i16` with seven fraction bits to spare. Each axis
//! then lerps pairs of taps, `a + mulhrs(b - a, w)`, where `w` is the high tap's
//! weight in Q15 and `mulhrs(x, y) = (x·y + 2¹⁴) >> 15` is SSSE3's `pmulhrsw`
//! (rounded). A 2D filter is two lerps along x and one along y, 3D adds a level;
//! the result is converted to float once, `x · (1/32640)`.
//!
//! GL leaves the precision of filtering to the implementation (GL 4.6 §8.14.2
//! says only that the weights are the fractional parts, in exact arithmetic).
//! Here each lerp rounds once (at most half a fixed-point step) and its weight
//! is off by at most 1/32768 of the tap distance, so an axis adds under two steps
//! of 1/32640 — far below the 1/255 step of the texels themselves, where
//! llvmpipe's 8-bit weights and 8-bit results allow several. An unfiltered texel
//! (every weight 0) gives exactly `v · (1/255)`, as the float decode does:
//! `1/32640` is `1/255` scaled by 2⁻⁷.
//!
//! [`filter_texels`] runs four lanes per 256-bit register with AVX2 when the CPU
//! has it, each register holding the four lanes' red, then green, blue and alpha
//! (so a lane's weight is one 64-bit broadcast and the result needs no
//! transpose), and otherwise the same arithmetic lane by lane; both give the
//! same bits (`filter_matches_scalar` below).

// Lane loops index several arrays by lane, as elsewhere in the driver.
#![allow(clippy::needless_range_loop)]

use crate::exec::LANES;

/// 1.0 in the fixed-point form (`255 << 7`).
const ONE: f32 = 32640.0;

/// The Q15 weight of a fraction: `round(f · 2¹⁵)`, capped at `2¹⁵ − 1` (`i16`'s
/// top); a NaN counts as 0.
#[inline(always)]
fn q15(f: f32) -> i16 {
    // `max` first: it maps NaN to 0.
    #[allow(clippy::manual_clamp)]
    let f = f.max(0.0).min(1.0);
    // SAFETY: 0 <= f * 32768 + 0.5 <= 32768.5, which fits an i32.
    let x = unsafe { (f * 32768.0 + 0.5).to_int_unchecked::<i32>() };
    x.min(32767) as i16
}

/// The Q15 weights ([`q15`]) of the first `D` axes' fractions.
#[inline(always)]
fn weights<const D: usize>(frac: &[[f32; LANES]; 3]) -> [[i16; LANES]; 3] {
    let mut w = [[0i16; LANES]; 3];
    for a in 0..D {
        for l in 0..LANES {
            w[a][l] = q15(frac[a][l]);
        }
    }
    w
}

/// `pmulhrsw` on one lane: `(x·y + 2¹⁴) >> 15`, in the two-step form LLVM
/// recognises.
#[inline(always)]
fn mulhrs(x: i16, y: i16) -> i16 {
    ((((x as i32 * y as i32) >> 14) + 1) >> 1) as i16
}

/// One lerp step: `a + mulhrs(b − a, w)`. With `a, b` in `0..=32640` and
/// `0 <= w < 2¹⁵` the result stays between `a` and `b`, so nothing wraps.
#[inline(always)]
fn lerp(a: i16, b: i16, w: i16) -> i16 {
    a.wrapping_add(mulhrs(b.wrapping_sub(a), w))
}

/// Filters `1 << D` taps per lane (`D` of 1, 2 or 3 axes) lane by lane:
/// `taps[k][l]` is lane `l`'s RGBA8 texel word (red in the low byte) of tap
/// `k`, whose bit `a` says it is the high texel on axis `a`; `frac[a][l]` is the
/// high texel's weight on axis `a`, in `[0, 1]`. Returns red, green, blue and
/// alpha per lane: the reference [`filter_texels`] and `linear8` must match bit
/// for bit.
#[cfg(test)]
pub(super) fn filter<const D: usize>(
    taps: &[[u32; LANES]],
    frac: &[[f32; LANES]; 3],
) -> [[f32; LANES]; 4] {
    assert!((1..=3).contains(&D) && taps.len() >= 1 << D);
    let w = weights::<D>(frac);
    filter_scalar::<D>(taps, &w)
}

/// The filter of a lookup's taps: tap `k` of lane `l` (bit `a` of `k`: the high
/// texel on axis `a`) is the 4-byte texel at
/// index `at[k][l]` of `data[l]` (of `data[0]` for every lane when `UNIFORM`).
/// Reading each register's four words straight from memory avoids a round trip
/// through a gathered array (four narrow stores, then one wide load that cannot
/// be forwarded from them).
///
/// # Safety
/// `at` holds at least `1 << D` rows, and every `at[k][l]` is the index of a
/// whole 4-byte texel inside the level `data[l]` (or `data[0]`) points to.
#[inline(always)]
pub(super) unsafe fn filter_texels<const D: usize, const UNIFORM: bool>(
    data: &[*const u8; LANES],
    at: &[[i32; LANES]],
    frac: &[[f32; LANES]; 3],
) -> [[f32; LANES]; 4] {
    assert!((1..=3).contains(&D) && at.len() >= 1 << D);
    let w = weights::<D>(frac);
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2 (checked just above); the caller's contract
        // covers the reads.
        return unsafe { filter_texels_avx2::<D, UNIFORM>(data, at, &w) };
    }
    let mut taps = [[0u32; LANES]; 8];
    for k in 0..1 << D {
        for l in 0..LANES {
            let p = if UNIFORM { data[0] } else { data[l] };
            // SAFETY: the caller's contract.
            taps[k][l] = u32::from_le(unsafe {
                p.add(at[k][l] as usize * 4).cast::<u32>().read_unaligned()
            });
        }
    }
    filter_scalar::<D>(&taps, &w)
}

/// [`filter_texels`] with AVX2: lanes `4g..4g + 4` in one register per tap, laid
/// out as `[r0 r1 r2 r3 g0 g1 g2 g3 | b0 b1 b2 b3 a0 a1 a2 a3]` (16-bit).
///
/// # Safety
/// The CPU must support AVX2; the rest is [`filter_texels`]'s contract.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn filter_texels_avx2<const D: usize, const UNIFORM: bool>(
    data: &[*const u8; LANES],
    at: &[[i32; LANES]],
    w: &[[i16; LANES]; 3],
) -> [[f32; LANES]; 4] {
    use std::arch::x86_64::*;
    let mut out = [[0.0f32; LANES]; 4];
    for g in 0..LANES / 4 {
        let mut t = [_mm256_setzero_si256(); 8];
        for k in 0..1 << D {
            let row = at.get_unchecked(k);
            let word = |l: usize| -> i32 {
                let p = if UNIFORM { data[0] } else { data[4 * g + l] };
                // SAFETY: the caller's contract.
                unsafe {
                    p.add(row[4 * g + l] as usize * 4)
                        .cast::<i32>()
                        .read_unaligned()
                }
            };
            t[k] = widen(_mm_setr_epi32(word(0), word(1), word(2), word(3)));
        }
        // The four lanes' weights, repeated for each channel.
        let wa: [__m256i; 3] = std::array::from_fn(|a| {
            _mm256_set1_epi64x(w[a].as_ptr().add(4 * g).cast::<i64>().read_unaligned())
        });
        lerp_store::<D>(&mut t, &wa, g, &mut out);
    }
    out
}

/// Four RGBA8 words (lanes `0..4`) as the 16-bit fixed-point register
/// `[r0 r1 r2 r3 g0 … a3]` (each channel `v << 7`).
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub(super) unsafe fn widen(words: std::arch::x86_64::__m128i) -> std::arch::x86_64::__m256i {
    use std::arch::x86_64::*;
    // Bytes of the four words, channel-major: r0 r1 r2 r3 g0 … a3.
    let planar = _mm_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    _mm256_slli_epi16::<7>(_mm256_cvtepu8_epi16(_mm_shuffle_epi8(words, planar)))
}

/// The lerps of lanes `4g..4g + 4` over their taps `t` ([`widen`]'s layout),
/// axis by axis with the high taps' Q15 weights `w[a]` (each lane's weight
/// repeated for the four channels), and the store of the result to `out` as
/// floats.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub(super) unsafe fn lerp_store<const D: usize>(
    t: &mut [std::arch::x86_64::__m256i; 8],
    w: &[std::arch::x86_64::__m256i; 3],
    g: usize,
    out: &mut [[f32; LANES]; 4],
) {
    store(lerp_axes::<D>(t, w), g, out);
}

/// Four lanes' x-adjacent texel pairs as two [`widen`] registers: qword `i` of
/// `pairs` holds lane `i`'s low texel (low dword) and high texel on axis 0;
/// returns the low texels' register, then the high texels'.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub(super) unsafe fn widen_pairs(
    pairs: std::arch::x86_64::__m256i,
) -> (std::arch::x86_64::__m256i, std::arch::x86_64::__m256i) {
    use std::arch::x86_64::*;
    // Low texels to the low half, high texels to the high half.
    let v = _mm256_permutevar8x32_epi32(pairs, _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7));
    // Each half channel-major, as `widen` arranges one register.
    let planar = _mm256_setr_epi8(
        0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15, 0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10,
        14, 3, 7, 11, 15,
    );
    let v = _mm256_shuffle_epi8(v, planar);
    (
        _mm256_slli_epi16::<7>(_mm256_cvtepu8_epi16(_mm256_castsi256_si128(v))),
        _mm256_slli_epi16::<7>(_mm256_cvtepu8_epi16(_mm256_extracti128_si256::<1>(v))),
    )
}

/// The lerps of [`lerp_store`] without the store: lanes `4g..4g + 4` filtered,
/// in [`widen`]'s layout.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub(super) unsafe fn lerp_axes<const D: usize>(
    t: &mut [std::arch::x86_64::__m256i; 8],
    w: &[std::arch::x86_64::__m256i; 3],
) -> std::arch::x86_64::__m256i {
    for a in 0..D {
        for i in 0..1 << (D - 1 - a) {
            t[i] = lerp1(t[2 * i], t[2 * i + 1], w[a]);
        }
    }
    t[0]
}

/// One lerp step on whole registers: `lo + mulhrs(hi − lo, w)` per 16-bit
/// lane ([`lerp`] on each).
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub(super) unsafe fn lerp1(
    lo: std::arch::x86_64::__m256i,
    hi: std::arch::x86_64::__m256i,
    w: std::arch::x86_64::__m256i,
) -> std::arch::x86_64::__m256i {
    use std::arch::x86_64::*;
    _mm256_add_epi16(lo, _mm256_mulhrs_epi16(_mm256_sub_epi16(hi, lo), w))
}

/// Converts a filtered register `v` ([`widen`]'s layout, lanes `4g..4g + 4`)
/// to floats and stores it to `out`.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub(super) unsafe fn store(v: std::arch::x86_64::__m256i, g: usize, out: &mut [[f32; LANES]; 4]) {
    let p = out.each_mut().map(|c| c.as_mut_ptr().add(4 * g));
    store_to(v, p);
}

/// [`store`] to four lanes of each channel at `dst[c]`.
///
/// # Safety
/// The CPU must support AVX2; each `dst[c]` is valid for writing four `f32`s.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub(super) unsafe fn store_to(v: std::arch::x86_64::__m256i, dst: [*mut f32; 4]) {
    use std::arch::x86_64::*;
    let scale = _mm256_set1_ps(1.0 / ONE);
    let rg = _mm256_cvtepi32_ps(_mm256_cvtepi16_epi32(_mm256_castsi256_si128(v)));
    let ba = _mm256_cvtepi32_ps(_mm256_cvtepi16_epi32(_mm256_extracti128_si256::<1>(v)));
    let (rg, ba) = (_mm256_mul_ps(rg, scale), _mm256_mul_ps(ba, scale));
    _mm_storeu_ps(dst[0], _mm256_castps256_ps128(rg));
    _mm_storeu_ps(dst[1], _mm256_extractf128_ps::<1>(rg));
    _mm_storeu_ps(dst[2], _mm256_castps256_ps128(ba));
    _mm_storeu_ps(dst[3], _mm256_extractf128_ps::<1>(ba));
}

/// [`store_to`] of two groups at once: `a` (lanes `0..4` of `dst`) and `b`
/// (lanes `4..8`), with one 32-byte store per channel. Results read back
/// with 32-byte loads (a caller's copy of its registers) are then forwarded
/// from the stores; four 16-byte stores under one 32-byte load stall instead.
///
/// # Safety
/// The CPU must support AVX2; each `dst[c]` is valid for writing eight `f32`s.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub(super) unsafe fn store_pair_to(
    a: std::arch::x86_64::__m256i,
    b: std::arch::x86_64::__m256i,
    dst: [*mut f32; 4],
) {
    use std::arch::x86_64::*;
    let scale = _mm256_set1_ps(1.0 / ONE);
    let f = |v: __m128i| _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_cvtepi16_epi32(v)), scale);
    // [r0..r3 g0..g3] and [b0..b3 a0..a3] of each group.
    let (rg_a, ba_a) = (
        f(_mm256_castsi256_si128(a)),
        f(_mm256_extracti128_si256::<1>(a)),
    );
    let (rg_b, ba_b) = (
        f(_mm256_castsi256_si128(b)),
        f(_mm256_extracti128_si256::<1>(b)),
    );
    _mm256_storeu_ps(dst[0], _mm256_permute2f128_ps::<0x20>(rg_a, rg_b));
    _mm256_storeu_ps(dst[1], _mm256_permute2f128_ps::<0x31>(rg_a, rg_b));
    _mm256_storeu_ps(dst[2], _mm256_permute2f128_ps::<0x20>(ba_a, ba_b));
    _mm256_storeu_ps(dst[3], _mm256_permute2f128_ps::<0x31>(ba_a, ba_b));
}

/// The filter lane by lane, with the Q15 weights `w`.
#[inline(always)]
fn filter_scalar<const D: usize>(
    taps: &[[u32; LANES]],
    w: &[[i16; LANES]; 3],
) -> [[f32; LANES]; 4] {
    let mut out = [[0.0f32; LANES]; 4];
    for l in 0..LANES {
        for c in 0..4 {
            let mut t = [0i16; 8];
            for k in 0..1 << D {
                t[k] = (((taps[k][l] >> (8 * c)) & 0xff) << 7) as i16;
            }
            for a in 0..D {
                for i in 0..1 << (D - 1 - a) {
                    t[i] = lerp(t[2 * i], t[2 * i + 1], w[a][l]);
                }
            }
            out[c][l] = t[0] as f32 * (1.0 / ONE);
        }
    }
    out
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A small deterministic generator (xorshift), shared with `linear8`'s tests.
    pub(in crate::texture) struct Rng(pub u64);
    impl Rng {
        pub(in crate::texture) fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn frac(&mut self) -> f32 {
            // Mostly in [0, 1); sometimes exactly 0, 1 or just below 1.
            match self.next() % 8 {
                0 => 0.0,
                1 => 1.0,
                2 => 1.0 - f32::EPSILON / 2.0,
                _ => (self.next() >> 40) as f32 / (1u64 << 24) as f32,
            }
        }
    }

    fn random_case(r: &mut Rng) -> ([[u32; LANES]; 8], [[f32; LANES]; 3]) {
        let mut taps = [[0u32; LANES]; 8];
        let mut frac = [[0.0f32; LANES]; 3];
        for row in taps.iter_mut() {
            for x in row.iter_mut() {
                // Extremes often: channels 0 and 255 stress the range.
                *x = match r.next() % 4 {
                    0 => 0xffff_ffff,
                    1 => 0,
                    _ => r.next() as u32,
                };
            }
        }
        for row in frac.iter_mut() {
            for x in row.iter_mut() {
                *x = r.frac();
            }
        }
        (taps, frac)
    }

    /// The float filter the fixed-point one approximates: nested lerps in f64.
    fn exact<const D: usize>(
        taps: &[[u32; LANES]; 8],
        frac: &[[f32; LANES]; 3],
        l: usize,
        c: usize,
    ) -> f64 {
        let mut t = [0f64; 8];
        for k in 0..1 << D {
            t[k] = ((taps[k][l] >> (8 * c)) & 0xff) as f64 / 255.0;
        }
        for a in 0..D {
            let f = frac[a][l] as f64;
            for i in 0..1 << (D - 1 - a) {
                t[i] = t[2 * i] * (1.0 - f) + t[2 * i + 1] * f;
            }
        }
        t[0]
    }

    /// [`filter_texels`] on the taps stored as a level: tap `k` of lane `l` at
    /// index `16k + l`.
    fn through_texels<const D: usize>(
        taps: &[[u32; LANES]; 8],
        frac: &[[f32; LANES]; 3],
    ) -> [[f32; LANES]; 4] {
        let data: Vec<u8> = taps
            .iter()
            .flatten()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        let at: [[i32; LANES]; 8] =
            std::array::from_fn(|k| std::array::from_fn(|l| (16 * k + l) as i32));
        // SAFETY: every index is inside `data`.
        unsafe { filter_texels::<D, true>(&[data.as_ptr(); LANES], &at, frac) }
    }

    fn check<const D: usize>() {
        let mut r = Rng(0x9e37_79b9_7f4a_7c15 ^ D as u64);
        for _ in 0..2000 {
            let (taps, frac) = random_case(&mut r);
            let w = weights::<D>(&frac);
            let got = through_texels::<D>(&taps, &frac);
            let scalar = filter_scalar::<D>(&taps, &w);
            for c in 0..4 {
                for l in 0..LANES {
                    assert_eq!(
                        got[c][l].to_bits(),
                        scalar[c][l].to_bits(),
                        "D={D} c={c} l={l}"
                    );
                    // The error bound of the module doc: under two fixed-point
                    // steps per axis.
                    let e = (got[c][l] as f64 - exact::<D>(&taps, &frac, l, c)).abs();
                    assert!(e <= 2.0 * D as f64 / ONE as f64, "D={D} error {e}");
                    assert!((0.0..=1.0).contains(&got[c][l]));
                }
            }
        }
    }

    #[test]
    fn filter_matches_scalar() {
        check::<1>();
        check::<2>();
        check::<3>();
    }

    #[test]
    fn unfiltered_texels_decode_exactly() {
        // Every weight 0 (or every tap equal) gives the texel's own value, bit
        // for bit as the float decode `v · (1/255)`.
        for v in 0..=255u32 {
            let word = v | (255 - v) << 8 | (v / 3) << 16 | (v ^ 0x5a) << 24;
            let taps = [[word; LANES]; 8];
            for f in [0.0f32, 0.25, 0.999] {
                let got = through_texels::<3>(&taps, &[[f; LANES]; 3]);
                for c in 0..4 {
                    let want = ((word >> (8 * c)) & 0xff) as f32 * (1.0 / 255.0);
                    assert_eq!(got[c][0].to_bits(), want.to_bits(), "v={v} c={c} f={f}");
                }
            }
        }
    }

    #[test]
    fn nan_and_out_of_range_weights_clamp() {
        assert_eq!(q15(f32::NAN), 0);
        assert_eq!(q15(-0.5), 0);
        assert_eq!(q15(2.0), 32767);
        assert_eq!(q15(0.5), 16384);
    }
}
