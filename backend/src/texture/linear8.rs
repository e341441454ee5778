//! RGBA8 linear filtering at one mip level, as one lean AVX2 loop: the case the
//! fill workloads and most real shaders hit (a texture sampled with LINEAR
//! filters and no mipmapping, or a lookup the LOD cannot move off level 0).
//!
//! The general routines (`variant`, `mip_rgba8`) choose a level and a filter
//! per lane and keep every step in 16-lane arrays on the stack; here each group
//! of four lanes goes from coordinates to filtered RGBA in registers: texel
//! position, floor and fraction, the wrapped indices of the two texels per
//! axis, the `1 << D` taps read straight into 16-bit lanes, and the fixed-point
//! lerps of [`super::unorm8`]. The arithmetic is the general routines' in the
//! same order (the product and sum are not fused), so the results are theirs
//! bit for bit; `linear8_matches_the_general_path` below checks it.
//!
//! It covers 1D, 2D, 3D and rectangle targets with clamp-to-edge or repeat on a
//! power-of-two size per axis (the callers' conditions), and positions within
//! ±2²⁴ texels; otherwise [`level0`] returns `None` and the caller takes the
//! general path.

use super::MipLevel;
use crate::exec::{Reg, LANES};

/// How the routine wraps each axis, and the level it reads.
pub(super) struct Level0<'a> {
    /// The level (it must hold all its texels: `width · height · depth · 4`
    /// bytes at least).
    pub level: &'a MipLevel<'a>,
    /// Repeat (on a power-of-two size) per axis, else clamp to edge.
    pub repeat: [bool; 3],
    /// Coordinates are normalized (scaled by the level's size).
    pub normalized: bool,
}

/// Filters every lane bilinearly (or its 1-/3-D form) at `l.level`: RGBA per
/// lane, or `None` when the CPU lacks AVX2, the level is short of texels or
/// over 2³¹ of them, or a position is beyond ±2²⁴ texels or NaN.
#[inline]
pub(super) fn level0<const D: usize>(
    l: &Level0<'_>,
    coords: &[Reg],
    offset: [i32; 3],
) -> Option<[[f32; LANES]; 4]> {
    let lv = l.level;
    let texels = u64::from(lv.width) * u64::from(lv.height) * u64::from(lv.depth);
    if !(1..=3).contains(&D) || coords.len() < D || texels >= 1 << 31 || texels * 4 > lv.data.len() as u64 {
        return None;
    }
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2 (checked just above), and the level holds all
        // its texels, fewer than 2³¹ (checked above).
        return unsafe { level0_avx2::<D>(l, coords, offset) };
    }
    let _ = offset;
    None
}

/// [`level0`] with AVX2.
///
/// # Safety
/// The CPU must support AVX2; `coords` holds at least `D` registers; the level
/// holds `width · height · depth` 4-byte texels, fewer than 2³¹.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn level0_avx2<const D: usize>(
    l: &Level0<'_>,
    coords: &[Reg],
    offset: [i32; 3],
) -> Option<[[f32; LANES]; 4]> {
    use std::arch::x86_64::*;
    let lv = l.level;
    let size = [lv.width as i32, lv.height as i32, lv.depth as i32];
    let stride = [1, size[0], size[0] * size[1]];
    let data = lv.data.as_ptr();
    let planar = _mm_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    let scale = _mm256_set1_ps(1.0 / 32640.0);
    let abs_mask = _mm_castsi128_ps(_mm_set1_epi32(0x7fff_ffff));
    let limit = _mm_set1_ps(16_777_216.0);
    let mut out = [[0.0f32; LANES]; 4];
    let mut in_range = 0xf;
    for g in 0..LANES / 4 {
        // Per axis: the low texel's index term, the step to the high texel, and
        // the high texel's Q15 weight broadcast to the four channels.
        let mut lo = _mm_setzero_si128();
        let mut step = [_mm_setzero_si128(); 3];
        let mut w = [_mm256_setzero_si256(); 3];
        for a in 0..D {
            let c = _mm_loadu_ps(coords[a].0.as_ptr().add(4 * g).cast());
            let n = _mm_set1_epi32(size[a]);
            let scaled = if l.normalized {
                _mm_mul_ps(c, _mm_cvtepi32_ps(n))
            } else {
                c
            };
            let p = _mm_add_ps(scaled, _mm_set1_ps(offset[a] as f32));
            // Also false for NaN.
            in_range &= _mm_movemask_ps(_mm_cmplt_ps(_mm_and_ps(p, abs_mask), limit));
            let u = _mm_sub_ps(p, _mm_set1_ps(0.5));
            let fl = _mm_floor_ps(u);
            let f = _mm_sub_ps(u, fl);
            let i = _mm_cvttps_epi32(fl);
            let j = _mm_add_epi32(i, _mm_set1_epi32(1));
            let (i0, i1) = if l.repeat[a] {
                let m = _mm_set1_epi32(size[a] - 1);
                (_mm_and_si128(i, m), _mm_and_si128(j, m))
            } else {
                let top = _mm_set1_epi32(size[a] - 1);
                let zero = _mm_setzero_si128();
                (
                    _mm_min_epi32(_mm_max_epi32(i, zero), top),
                    _mm_min_epi32(_mm_max_epi32(j, zero), top),
                )
            };
            let st = _mm_set1_epi32(stride[a]);
            lo = _mm_add_epi32(lo, _mm_mullo_epi32(i0, st));
            step[a] = _mm_mullo_epi32(_mm_sub_epi32(i1, i0), st);
            // `unorm8::q15` for a fraction in [0, 1).
            let q = _mm_cvttps_epi32(_mm_add_ps(_mm_mul_ps(f, _mm_set1_ps(32768.0)), _mm_set1_ps(0.5)));
            let q = _mm_min_epi32(q, _mm_set1_epi32(32767));
            w[a] = _mm256_broadcastq_epi64(_mm_packs_epi32(q, q));
        }
        if in_range != 0xf {
            return None;
        }
        let mut t = [_mm256_setzero_si256(); 8];
        for (k, tk) in t.iter_mut().enumerate().take(1 << D) {
            let mut idx = lo;
            for (a, s) in step.iter().enumerate().take(D) {
                if k >> a & 1 == 1 {
                    idx = _mm_add_epi32(idx, *s);
                }
            }
            let mut ix = [0i32; 4];
            _mm_storeu_si128(ix.as_mut_ptr().cast(), idx);
            // SAFETY: each index is wrapped into the level, which holds all its
            // texels (the caller's contract).
            let word = |i: i32| data.add(i as usize * 4).cast::<i32>().read_unaligned();
            let words = _mm_setr_epi32(word(ix[0]), word(ix[1]), word(ix[2]), word(ix[3]));
            let bytes = _mm_shuffle_epi8(words, planar);
            *tk = _mm256_slli_epi16::<7>(_mm256_cvtepu8_epi16(bytes));
        }
        for (a, wa) in w.iter().enumerate().take(D) {
            for i in 0..1 << (D - 1 - a) {
                let (lo, hi) = (t[2 * i], t[2 * i + 1]);
                t[i] = _mm256_add_epi16(lo, _mm256_mulhrs_epi16(_mm256_sub_epi16(hi, lo), *wa));
            }
        }
        let rg = _mm256_cvtepi32_ps(_mm256_cvtepi16_epi32(_mm256_castsi256_si128(t[0])));
        let ba = _mm256_cvtepi32_ps(_mm256_cvtepi16_epi32(_mm256_extracti128_si256::<1>(t[0])));
        let (rg, ba) = (_mm256_mul_ps(rg, scale), _mm256_mul_ps(ba, scale));
        _mm_storeu_ps(out[0].as_mut_ptr().add(4 * g), _mm256_castps256_ps128(rg));
        _mm_storeu_ps(out[1].as_mut_ptr().add(4 * g), _mm256_extractf128_ps::<1>(rg));
        _mm_storeu_ps(out[2].as_mut_ptr().add(4 * g), _mm256_castps256_ps128(ba));
        _mm_storeu_ps(out[3].as_mut_ptr().add(4 * g), _mm256_extractf128_ps::<1>(ba));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    /// The general routines' arithmetic, lane by lane: position, floor,
    /// fraction and wrapped indices as `variant::Pass::run` computes them, then
    /// the taps through `unorm8::filter`.
    fn reference<const D: usize>(l: &Level0<'_>, coords: &[Reg], offset: [i32; 3]) -> Option<[[f32; LANES]; 4]> {
        let lv = l.level;
        let size = [lv.width as i32, lv.height as i32, lv.depth as i32];
        let stride = [1, size[0], size[0] * size[1]];
        let mut taps = [[0u32; LANES]; 8];
        let mut frac = [[0.0f32; LANES]; 3];
        for ln in 0..LANES {
            let mut idx = [[0i32; 2]; 3];
            for a in 0..D {
                let c = f32::from_bits(coords[a].0[ln]);
                let p = if l.normalized { c * size[a] as f32 } else { c } + offset[a] as f32;
                if p.is_nan() || p.abs() >= 16_777_216.0 {
                    return None;
                }
                let u = p - 0.5;
                let fl = u.floor();
                frac[a][ln] = u - fl;
                let i = fl as i32;
                let wrap = |i: i32| {
                    if l.repeat[a] {
                        i & (size[a] - 1)
                    } else {
                        i.clamp(0, size[a] - 1)
                    }
                };
                idx[a] = [wrap(i) * stride[a], wrap(i + 1) * stride[a]];
            }
            for k in 0..1 << D {
                let at: i32 = (0..D).map(|a| idx[a][k >> a & 1]).sum();
                let b = &lv.data[at as usize * 4..at as usize * 4 + 4];
                taps[k][ln] = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            }
        }
        Some(super::super::unorm8::filter::<D>(&taps, &frac))
    }

    fn check<const D: usize>(rng: &mut Rng) -> usize {
        let mut compared = 0;
        for case in 0..300 {
            let side = |rng: &mut Rng| if rng.below(2) == 0 { 1 << rng.below(6) } else { 1 + rng.below(40) as u32 };
            let (w, h, d) = match D {
                1 => (side(rng), 1, 1),
                2 => (side(rng), side(rng), 1),
                _ => (side(rng), side(rng), side(rng)),
            };
            let data: Vec<u8> = (0..w * h * d * 4).map(|_| rng.next() as u8).collect();
            let level = MipLevel { data: &data, width: w, height: h, depth: d };
            let size = [w, h, d];
            // Repeat only on power-of-two sizes (the callers' condition).
            let repeat = std::array::from_fn(|a| size[a].is_power_of_two() && rng.below(2) == 0);
            let l = Level0 { level: &level, repeat, normalized: rng.below(4) != 0 };
            let offset = std::array::from_fn(|_| rng.below(5) as i32 - 2);
            let scale = [0.01f32, 1.0, 3.0, 50.0][rng.below(4) as usize];
            let coords: Vec<Reg> = (0..D)
                .map(|_| {
                    let mut r = Reg::default();
                    for ln in 0..LANES {
                        let x = (rng.below(2_000_001) as f32 / 1_000_000.0 - 1.0) * scale;
                        r.set_f(ln, if rng.below(500) == 0 { f32::NAN } else { x });
                    }
                    r
                })
                .collect();
            let want = reference::<D>(&l, &coords, offset);
            let got = level0::<D>(&l, &coords, offset);
            if !std::arch::is_x86_feature_detected!("avx2") {
                assert!(got.is_none());
                continue;
            }
            assert_eq!(got.is_some(), want.is_some(), "D={D} case {case}");
            if let (Some(g), Some(w)) = (got, want) {
                for c in 0..4 {
                    for ln in 0..LANES {
                        assert_eq!(g[c][ln].to_bits(), w[c][ln].to_bits(), "D={D} case {case} c={c} lane {ln}");
                    }
                }
                compared += 1;
            }
        }
        compared
    }

    #[test]
    fn linear8_matches_the_general_path() {
        let mut rng = Rng(0x1234_5678_9abc_def1);
        let n = check::<1>(&mut rng) + check::<2>(&mut rng) + check::<3>(&mut rng);
        if std::arch::is_x86_feature_detected!("avx2") {
            // Most cases have no NaN lane and are compared.
            assert!(n > 600, "only {n} cases compared");
        }
    }
}
