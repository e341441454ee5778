//! RGBA8 linear filtering as one lean AVX2 loop: the lookups the fill
//! workloads and most real shaders make (a texture sampled with LINEAR filters,
//! at level 0 or at each lane's level of a mip chain).
//!
//! The general routines (`variant`, `mip_rgba8`) choose a level and a filter
//! per lane and keep every step in 16-lane arrays on the stack; here each group
//! of four lanes goes from coordinates to filtered RGBA in registers: its
//! levels' sizes, texel position, floor and fraction, the wrapped indices of the
//! two texels per axis, the `1 << D` taps read straight into 16-bit lanes, and
//! the fixed-point lerps of [`super::unorm8`]. The arithmetic is the general
//! routines' in the same order (the product and sum are not fused), so the
//! results are theirs bit for bit; `linear8_matches_the_general_path` below
//! checks it. Where the four lanes' two texels on axis 0 are adjacent in
//! memory (everywhere but the edges), each pair is one 8-byte load instead of
//! two 4-byte ones. [`filter_mip`] filters two levels per lane and blends them
//! in the same fixed point before the one conversion to float (trilinear, as
//! llvmpipe's AoS path), instead of converting each level and blending floats.
//!
//! It covers 1D, 2D, 3D, rectangle, 1D/2D array and cube (the face as a layer)
//! lookups with clamp-to-edge or repeat on a power-of-two size per axis (the
//! callers' conditions), and positions within ±2²⁴ texels; otherwise
//! [`filter`] returns `None` and the caller takes the general path.

use super::{unorm8, MipLevel};
use crate::exec::{Reg, LANES};

/// Sixteen lanes of floats.
type F16 = [f32; LANES];

/// The levels a lookup reads and how it addresses them.
pub(super) struct Levels<'a, 'b> {
    /// Every level (each must hold all its texels, fewer than 2³¹; [`filter`]
    /// checks).
    pub levels: &'a [MipLevel<'b>],
    /// Repeat (on a power-of-two size) per axis, else clamp to edge.
    pub repeat: [bool; 3],
    /// Coordinates are normalized (scaled by each level's size).
    pub normalized: bool,
    /// The axis holding the array layer or cube face (1: a 1D array's rows, 2:
    /// a 2D array's or cube's slices), if the target has one.
    pub layer_axis: Option<usize>,
}

/// Checks what [`filter`] and [`filter_mip`] need of the levels `lvl` every
/// lane reads (each in range and holding all its texels, fewer than 2³¹) and of
/// the lanes' layers: `Some(Some(u))` when every lane reads level `u`,
/// `Some(None)` when they differ, `None` when a check fails.
#[inline(always)]
fn check_levels(
    l: &Levels<'_, '_>,
    lvl: &[usize; LANES],
    layer: &[i32; LANES],
) -> Option<Option<usize>> {
    let whole = |lv: &MipLevel<'_>| {
        let n = u64::from(lv.width) * u64::from(lv.height) * u64::from(lv.depth);
        n != 0 && n < 1 << 31 && n * 4 <= lv.data.len() as u64
    };
    let layers = |lv: &MipLevel<'_>| match l.layer_axis {
        Some(1) => lv.height as i32,
        Some(_) => lv.depth as i32,
        None => 1,
    };
    let mut same = true;
    let mut top = 0;
    for &i in lvl {
        same &= i == lvl[0];
        top = top.max(i);
    }
    if top >= l.levels.len() {
        return None;
    }
    let uniform = same.then_some(lvl[0]);
    let ok = match uniform {
        Some(u) => whole(&l.levels[u]),
        None => l.levels.iter().all(whole),
    };
    if !ok {
        return None;
    }
    // Layers are read only along a layer axis.
    if l.layer_axis.is_some() {
        let mut ok = true;
        for i in 0..LANES {
            ok &= layer[i] >= 0 && layer[i] < layers(&l.levels[lvl[i]]);
        }
        if !ok {
            return None;
        }
    }
    Some(uniform)
}

/// Where a routine writes its result: channel `c` of lanes `0..16` at
/// `ptr[c]..ptr[c] + 16`.
type Out = [*mut f32; 4];

/// [`Out`] of float arrays.
fn out_f(o: &mut [F16; 4]) -> Out {
    o.each_mut().map(|c| c.as_mut_ptr())
}

/// [`Out`] of registers (their lanes as floats).
fn out_reg(o: &mut [Reg; 4]) -> Out {
    o.each_mut().map(|c| c.0.as_mut_ptr().cast::<f32>())
}

/// Filters every lane bilinearly (or its 1-/3-D form) at its level `lvl[l]`
/// (level 0 for every lane when `lvl` is `None`) and layer `layer[l]`, from
/// coordinates `st[a]` of the first `D` axes (before scaling by the level's size) and
/// integer texel `offset`s: RGBA per lane. `None` when the CPU lacks AVX2, a
/// level is short of texels or has 2³¹ or more, a level or layer index is out
/// of range, or a position is beyond ±2²⁴ texels or NaN; the caller then takes
/// the general path.
#[cfg(test)]
#[inline]
pub(super) fn filter<const D: usize>(
    l: &Levels<'_, '_>,
    lvl: Option<&[usize; LANES]>,
    st: &[F16; 3],
    layer: &[i32; LANES],
    offset: [i32; 3],
) -> Option<[F16; 4]> {
    filter_lanes::<D>(l, lvl, st, layer, offset).and_then(|(o, far)| (far == 0).then_some(o))
}

/// [`filter`] that keeps the lanes it can filter when others are beyond ±2²⁴
/// texels or NaN: `None` only where [`filter`] refuses the levels, layers or
/// CPU (a decision over the binding's levels and the lanes' level and layer
/// indices, which the callers keep in range), else every lane's result and
/// the mask of the lanes out of range (whose values are not the filter's: the
/// caller replaces them), so one lane's coordinates never change another
/// lane's path or result.
// Always inlined, so it is compiled into the AVX2 instances of its callers
// (out of line it was 3 % of the cube programs' samples).
#[inline(always)]
pub(super) fn filter_lanes<const D: usize>(
    l: &Levels<'_, '_>,
    lvl: Option<&[usize; LANES]>,
    st: &[F16; 3],
    layer: &[i32; LANES],
    offset: [i32; 3],
) -> Option<([F16; 4], u16)> {
    let mut o = [[0.0f32; LANES]; 4];
    // SAFETY: `out_f` points at sixteen floats per channel.
    let m = unsafe { filter_to::<D>(l, lvl, st, layer, offset, out_f(&mut o)) };
    m.map(|far| (o, far))
}

/// [`filter`] into registers, every lane written: `None` (writing nothing)
/// where [`filter`] refuses the levels or the CPU, else the mask of lanes whose
/// position is beyond ±2²⁴ texels or NaN (their values are not the filter's:
/// the caller replaces them), so one lane's coordinates never change another
/// lane's result.
#[inline(always)]
pub(super) fn filter_regs<const D: usize>(
    l: &Levels<'_, '_>,
    lvl: Option<&[usize; LANES]>,
    st: &[F16; 3],
    offset: [i32; 3],
    out: &mut [Reg; 4],
) -> Option<u16> {
    // SAFETY: `out_reg` points at sixteen floats per channel.
    unsafe { filter_to::<D>(l, lvl, st, &[0; LANES], offset, out_reg(out)) }
}

/// [`filter`] writing to `out`.
///
/// # Safety
/// Each `out[c]` is valid for writing sixteen floats.
#[inline(always)]
unsafe fn filter_to<const D: usize>(
    l: &Levels<'_, '_>,
    lvl: Option<&[usize; LANES]>,
    st: &[F16; 3],
    layer: &[i32; LANES],
    offset: [i32; 3],
    out: Out,
) -> Option<u16> {
    if !(1..=3).contains(&D) {
        return None;
    }
    let zero = [0usize; LANES];
    let lvl = lvl.unwrap_or(&zero);
    let uniform = check_levels(l, lvl, layer)?;
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2 (checked just above); every level index is
        // in range, each level it names holds all its texels (fewer than 2³¹),
        // and every layer index is inside its lane's level (`check_levels`);
        // `out` is the caller's.
        return unsafe {
            match uniform {
                Some(u) => filter_avx2::<D, true>(l, &[u; LANES], st, layer, offset, out),
                None => filter_avx2::<D, false>(l, lvl, st, layer, offset, out),
            }
        };
    }
    let _ = (st, offset, uniform, out);
    None
}

/// The level pair and blend weight per lane of a trilinear lookup
/// ([`filter_mip`]).
pub(super) struct MipLanes<'a> {
    /// The first level of each lane.
    pub la: &'a [usize; LANES],
    /// The second level of each lane.
    pub lb: &'a [usize; LANES],
    /// The weight of level `lb[l]`, in `[0, 1)` (not NaN).
    pub frac: &'a F16,
}

/// Trilinear filtering (GL 4.6 §8.14.3, `*_MIPMAP_LINEAR`) of every lane in
/// one pass: [`filter`]'s result at level `la[l]` and at level `lb[l]`, each
/// kept in fixed point, then lerped by `frac[l]` (the weight of level `lb[l]`,
/// in `[0, 1)`) with the same Q15 lerp as the axes, and converted to float
/// once — llvmpipe's AoS unorm8 path (`lp_bld_sample_aos.c`, the mip lerp in
/// `lp_build_sample_mipmap`) in the same form. Lanes whose group of four has
/// every `frac` rounding to 0 skip level `lb`. `None` as [`filter`].
#[cfg(test)]
#[inline]
pub(super) fn filter_mip<const D: usize>(
    l: &Levels<'_, '_>,
    m: &MipLanes<'_>,
    st: &[F16; 3],
    layer: &[i32; LANES],
    offset: [i32; 3],
) -> Option<[F16; 4]> {
    filter_mip_lanes::<D>(l, m, st, layer, offset).and_then(|(o, far)| (far == 0).then_some(o))
}

/// [`filter_mip`] as [`filter_lanes`]: every lane's result and the mask of
/// the lanes out of range (at level `la[l]`, or at level `lb[l]` where the
/// lane blends it), `None` only where the levels, layers or CPU are refused.
// Always inlined, so it is compiled into the AVX2 instances of its callers
// (out of line it was 3 % of the cube programs' samples).
#[inline(always)]
pub(super) fn filter_mip_lanes<const D: usize>(
    l: &Levels<'_, '_>,
    m: &MipLanes<'_>,
    st: &[F16; 3],
    layer: &[i32; LANES],
    offset: [i32; 3],
) -> Option<([F16; 4], u16)> {
    let mut o = [[0.0f32; LANES]; 4];
    // SAFETY: `out_f` points at sixteen floats per channel.
    let m = unsafe { filter_mip_to::<D>(l, m, st, layer, offset, out_f(&mut o)) };
    m.map(|far| (o, far))
}

/// [`filter_mip`] into registers, as [`filter_regs`].
#[inline(always)]
pub(super) fn filter_mip_regs<const D: usize>(
    l: &Levels<'_, '_>,
    m: &MipLanes<'_>,
    st: &[F16; 3],
    offset: [i32; 3],
    out: &mut [Reg; 4],
) -> Option<u16> {
    // SAFETY: `out_reg` points at sixteen floats per channel.
    unsafe { filter_mip_to::<D>(l, m, st, &[0; LANES], offset, out_reg(out)) }
}

/// [`filter_mip`] writing to `out`.
///
/// # Safety
/// Each `out[c]` is valid for writing sixteen floats.
#[inline(always)]
unsafe fn filter_mip_to<const D: usize>(
    l: &Levels<'_, '_>,
    m: &MipLanes<'_>,
    st: &[F16; 3],
    layer: &[i32; LANES],
    offset: [i32; 3],
    out: Out,
) -> Option<u16> {
    if !(1..=3).contains(&D) {
        return None;
    }
    let (ua, ub) = (check_levels(l, m.la, layer)?, check_levels(l, m.lb, layer)?);
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: as in `filter_to`, for both levels of every lane.
        return unsafe {
            match (ua, ub) {
                (Some(a), Some(b)) => filter_mip_avx2::<D, true, true>(
                    l,
                    &[a; LANES],
                    &[b; LANES],
                    m.frac,
                    st,
                    layer,
                    offset,
                    out,
                ),
                _ => filter_mip_avx2::<D, false, false>(
                    l, m.la, m.lb, m.frac, st, layer, offset, out,
                ),
            }
        };
    }
    let _ = (st, offset, ua, ub, out);
    None
}

/// [`filter`] with AVX2, four lanes at a time; `UNIFORM` when every lane reads
/// level `lvl[0]`. Writes every lane; returns the mask of lanes out of range.
///
/// # Safety
/// The CPU must support AVX2; every `lvl[i]` indexes `l.levels`, and each such
/// level holds all its texels (fewer than 2³¹) and the layer `layer[i]`; each
/// `out[c]` is valid for writing sixteen floats.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn filter_avx2<const D: usize, const UNIFORM: bool>(
    l: &Levels<'_, '_>,
    lvl: &[usize; LANES],
    st: &[F16; 3],
    layer: &[i32; LANES],
    offset: [i32; 3],
    out: Out,
) -> Option<u16> {
    let mut v = [std::arch::x86_64::_mm256_setzero_si256(); LANES / 4];
    let mut far = 0u16;
    for (g, x) in v.iter_mut().enumerate() {
        let (r, f) = group::<D, UNIFORM>(l, lvl, g, st, layer, offset);
        *x = r;
        far |= f << (4 * g);
    }
    unorm8::store_pair_to(v[0], v[1], out);
    unorm8::store_pair_to(v[2], v[3], out.map(|p| p.add(8)));
    Some(far)
}

/// [`filter_mip`] with AVX2, four lanes at a time; `UNIFORM` when every lane
/// reads level `la[0]`, and level `lb[0]` for the second.
///
/// # Safety
/// [`filter_avx2`]'s contract, for `la` and for `lb`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(clippy::too_many_arguments)]
unsafe fn filter_mip_avx2<const D: usize, const UA: bool, const UB: bool>(
    l: &Levels<'_, '_>,
    la: &[usize; LANES],
    lb: &[usize; LANES],
    frac: &F16,
    st: &[F16; 3],
    layer: &[i32; LANES],
    offset: [i32; 3],
    out: Out,
) -> Option<u16> {
    use std::arch::x86_64::*;
    let mut v = [_mm256_setzero_si256(); LANES / 4];
    let mut far = 0u16;
    for (g, x) in v.iter_mut().enumerate() {
        let (a, fa) = group::<D, UA>(l, la, g, st, layer, offset);
        far |= fa << (4 * g);
        // `unorm8::q15` of the level weights (in [0, 1), never NaN).
        let f = _mm_loadu_ps(frac.as_ptr().add(4 * g));
        let q = _mm_cvttps_epi32(_mm_add_ps(
            _mm_mul_ps(f, _mm_set1_ps(32768.0)),
            _mm_set1_ps(0.5),
        ));
        let q = _mm_min_epi32(_mm_max_epi32(q, _mm_setzero_si128()), _mm_set1_epi32(32767));
        if _mm_testz_si128(q, q) == 1 {
            *x = a;
            continue;
        }
        let (b, fb) = group::<D, UB>(l, lb, g, st, layer, offset);
        // Level `lb` counts only for the lanes that blend it (weight not 0):
        // the others' results are level `la`'s whatever their neighbours do.
        let blends = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpgt_epi32(q, _mm_setzero_si128())));
        far |= (fb & blends as u16) << (4 * g);
        let w = _mm256_broadcastq_epi64(_mm_packs_epi32(q, q));
        *x = unorm8::lerp1(a, b, w);
    }
    unorm8::store_pair_to(v[0], v[1], out);
    unorm8::store_pair_to(v[2], v[3], out.map(|p| p.add(8)));
    Some(far)
}

/// Lanes `4g..4g + 4` filtered at their levels `lvl[4g..4g + 4]` (`lvl[0]` when
/// `UNIFORM`), in `unorm8::widen`'s 16-bit layout, and the mask of the four
/// lanes whose position is beyond ±2²⁴ texels or NaN (their texels are read
/// at wrapped or clamped indices, so in range, but are not the filter's). Where every lane's two texels on axis 0 are
/// adjacent (the usual case away from the edges), each pair is one 8-byte load.
/// Not a `target_feature` function, so it can be inlined (always) into the
/// AVX2 routines above, the only callers.
///
/// # Safety
/// [`filter_avx2`]'s contract.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn group<const D: usize, const UNIFORM: bool>(
    l: &Levels<'_, '_>,
    lvl: &[usize; LANES],
    g: usize,
    st: &[F16; 3],
    layer: &[i32; LANES],
    offset: [i32; 3],
) -> (std::arch::x86_64::__m256i, u16) {
    use std::arch::x86_64::*;
    let abs_mask = _mm_castsi128_ps(_mm_set1_epi32(0x7fff_ffff));
    let limit = _mm_set1_ps(16_777_216.0);
    let one = _mm_set1_epi32(1);
    let zero = _mm_setzero_si128();
    let mut in_range = 0xf;
    // Each lane's level: its size per axis and its texels.
    let (size, data) = if UNIFORM {
        let lv0 = l.levels.get_unchecked(lvl[0]);
        let n = [lv0.width, lv0.height, lv0.depth].map(|x| _mm_set1_epi32(x as i32));
        (n, [lv0.data.as_ptr(); 4])
    } else {
        let m: [&MipLevel<'_>; 4] = std::array::from_fn(|i| l.levels.get_unchecked(lvl[4 * g + i]));
        let n = [
            _mm_setr_epi32(
                m[0].width as i32,
                m[1].width as i32,
                m[2].width as i32,
                m[3].width as i32,
            ),
            _mm_setr_epi32(
                m[0].height as i32,
                m[1].height as i32,
                m[2].height as i32,
                m[3].height as i32,
            ),
            _mm_setr_epi32(
                m[0].depth as i32,
                m[1].depth as i32,
                m[2].depth as i32,
                m[3].depth as i32,
            ),
        ];
        (n, m.map(|x| x.data.as_ptr()))
    };
    let stride = [one, size[0], _mm_mullo_epi32(size[0], size[1])];
    // The low texel's index, the step to the high texel per axis, and the
    // high texel's Q15 weight broadcast to the four channels.
    let mut lo = match l.layer_axis {
        Some(ax) => _mm_mullo_epi32(
            _mm_loadu_si128(layer.as_ptr().add(4 * g).cast()),
            stride[ax],
        ),
        None => zero,
    };
    let mut step = [zero; 3];
    let mut w = [_mm256_setzero_si256(); 3];
    for a in 0..D {
        let c = _mm_loadu_ps(st[a].as_ptr().add(4 * g));
        let scaled = if l.normalized {
            _mm_mul_ps(c, _mm_cvtepi32_ps(size[a]))
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
        let j = _mm_add_epi32(i, one);
        let top = _mm_sub_epi32(size[a], one);
        let (i0, i1) = if l.repeat[a] {
            (_mm_and_si128(i, top), _mm_and_si128(j, top))
        } else {
            (
                _mm_min_epi32(_mm_max_epi32(i, zero), top),
                _mm_min_epi32(_mm_max_epi32(j, zero), top),
            )
        };
        if a == 0 {
            lo = _mm_add_epi32(lo, i0);
            step[a] = _mm_sub_epi32(i1, i0);
        } else {
            lo = _mm_add_epi32(lo, _mm_mullo_epi32(i0, stride[a]));
            step[a] = _mm_mullo_epi32(_mm_sub_epi32(i1, i0), stride[a]);
        }
        // `unorm8::q15` for a fraction in [0, 1).
        let q = _mm_cvttps_epi32(_mm_add_ps(
            _mm_mul_ps(f, _mm_set1_ps(32768.0)),
            _mm_set1_ps(0.5),
        ));
        let q = _mm_min_epi32(q, _mm_set1_epi32(32767));
        w[a] = _mm256_broadcastq_epi64(_mm_packs_epi32(q, q));
    }
    // The index of tap `k`'s texel (bit `a` of `k`: the high texel on axis `a`).
    let index = |k: usize| {
        let mut idx = lo;
        for (a, s) in step.iter().enumerate().take(D) {
            if k >> a & 1 == 1 {
                idx = _mm_add_epi32(idx, *s);
            }
        }
        let mut ix = [0i32; 4];
        _mm_storeu_si128(ix.as_mut_ptr().cast(), idx);
        ix
    };
    let mut t = [_mm256_setzero_si256(); 8];
    if _mm_movemask_epi8(_mm_cmpeq_epi32(step[0], one)) == 0xffff {
        // Each lane's high texel on axis 0 follows its low one in memory.
        for k in (0..1 << D).step_by(2) {
            let ix = index(k);
            // SAFETY: each index and the next are texels of the lane's level
            // and layer (its low and high texel on axis 0, wrapped into range),
            // and the level holds all its texels (the caller's contract).
            let pair = |i: usize| {
                data[i]
                    .add(ix[i] as usize * 4)
                    .cast::<i64>()
                    .read_unaligned()
            };
            (t[k], t[k + 1]) =
                unorm8::widen_pairs(_mm256_setr_epi64x(pair(0), pair(1), pair(2), pair(3)));
        }
    } else {
        for (k, tk) in t.iter_mut().enumerate().take(1 << D) {
            let ix = index(k);
            // SAFETY: each index is wrapped into its lane's level and layer, and
            // the level holds all its texels (the caller's contract).
            let word = |i: usize| {
                data[i]
                    .add(ix[i] as usize * 4)
                    .cast::<i32>()
                    .read_unaligned()
            };
            *tk = unorm8::widen(_mm_setr_epi32(word(0), word(1), word(2), word(3)));
        }
    }
    (unorm8::lerp_axes::<D>(&mut t, &w), (in_range ^ 0xf) as u16)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::texture::unorm8::tests::Rng;

    fn below(rng: &mut Rng, n: u64) -> u64 {
        rng.next() % n
    }

    /// The general routines' arithmetic, lane by lane: position, floor,
    /// fraction and wrapped indices as `variant::Pass::run` computes them, then
    /// the taps through `unorm8::filter`.
    fn reference<const D: usize>(
        l: &Levels<'_, '_>,
        lvl: &[usize; LANES],
        st: &[F16; 3],
        layer: &[i32; LANES],
        offset: [i32; 3],
    ) -> Option<[F16; 4]> {
        let mut taps = [[0u32; LANES]; 8];
        let mut frac = [[0.0f32; LANES]; 3];
        for ln in 0..LANES {
            let lv = &l.levels[lvl[ln]];
            let size = [lv.width as i32, lv.height as i32, lv.depth as i32];
            let stride = [1, size[0], size[0] * size[1]];
            let base = l.layer_axis.map_or(0, |ax| layer[ln] * stride[ax]);
            let mut idx = [[0i32; 2]; 3];
            for a in 0..D {
                let c = st[a][ln];
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
                let at: i32 = base + (0..D).map(|a| idx[a][k >> a & 1]).sum::<i32>();
                let b = &lv.data[at as usize * 4..at as usize * 4 + 4];
                taps[k][ln] = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            }
        }
        Some(super::super::unorm8::filter::<D>(&taps, &frac))
    }

    fn avx2() -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            std::arch::is_x86_feature_detected!("avx2")
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    }

    /// Random chains, wraps, levels per lane (or one for all), layers and
    /// coordinates for `D` filtered axes (`layered`: one more axis of layers).
    fn check<const D: usize>(rng: &mut Rng, layered: bool) -> usize {
        let mut compared = 0;
        for case in 0..300 {
            let pow2 = below(rng, 2) == 0;
            let side = |rng: &mut Rng| {
                if pow2 {
                    1 << below(rng, 6)
                } else {
                    1 + below(rng, 40) as u32
                }
            };
            let mut size = [side(rng), side(rng), side(rng)];
            for s in size.iter_mut().skip(D) {
                *s = 1;
            }
            let layers = 1 + below(rng, 4) as u32;
            let layer_axis = layered.then_some(D);
            if layered {
                size[D] = layers;
            }
            // A chain of up to four levels, halving the filtered axes.
            let nlevels = 1 + below(rng, 4) as usize;
            let mut chain = Vec::new();
            let mut s = size;
            for _ in 0..nlevels {
                let data: Vec<u8> = (0..s[0] * s[1] * s[2] * 4)
                    .map(|_| rng.next() as u8)
                    .collect();
                chain.push((s, data));
                for x in s.iter_mut().take(D) {
                    *x = (*x / 2).max(1);
                }
            }
            let levels: Vec<MipLevel<'_>> = chain
                .iter()
                .map(|(s, data)| MipLevel {
                    data,
                    width: s[0],
                    height: s[1],
                    depth: s[2],
                })
                .collect();
            // Repeat only where every level's size is a power of two (the
            // callers' condition).
            let repeat = std::array::from_fn(|a| pow2 && a < D && below(rng, 2) == 0);
            let l = Levels {
                levels: &levels,
                repeat,
                normalized: below(rng, 4) != 0,
                layer_axis,
            };
            let uniform = below(rng, 2) == 0;
            let first = below(rng, nlevels as u64) as usize;
            let lvl: [usize; LANES] = std::array::from_fn(|_| {
                if uniform {
                    first
                } else {
                    below(rng, nlevels as u64) as usize
                }
            });
            let layer: [i32; LANES] = std::array::from_fn(|_| {
                if layered {
                    below(rng, layers as u64) as i32
                } else {
                    0
                }
            });
            let offset = std::array::from_fn(|_| below(rng, 5) as i32 - 2);
            let scale = [0.01f32, 1.0, 3.0, 50.0][below(rng, 4) as usize];
            let st: [F16; 3] = std::array::from_fn(|_| {
                std::array::from_fn(|_| {
                    let x = (below(rng, 2_000_001) as f32 / 1_000_000.0 - 1.0) * scale;
                    if below(rng, 500) == 0 {
                        f32::NAN
                    } else {
                        x
                    }
                })
            });
            let want = reference::<D>(&l, &lvl, &st, &layer, offset);
            let got = filter::<D>(&l, Some(&lvl), &st, &layer, offset);
            if !avx2() {
                assert!(got.is_none());
                continue;
            }
            assert_eq!(got.is_some(), want.is_some(), "D={D} case {case}");
            if let (Some(g), Some(w)) = (got, want) {
                for c in 0..4 {
                    for ln in 0..LANES {
                        assert_eq!(
                            g[c][ln].to_bits(),
                            w[c][ln].to_bits(),
                            "D={D} case {case} c={c} lane {ln}"
                        );
                    }
                }
                compared += 1;
                // Trilinear: a second level per lane and a blend weight (0 in
                // one lane of four); the fixed-point blend is within two steps
                // of blending the two levels' results, exactly level `lvl`'s
                // where the weight is 0.
                let lb: [usize; LANES] = std::array::from_fn(|_| {
                    if uniform {
                        (first + 1).min(nlevels - 1)
                    } else {
                        below(rng, nlevels as u64) as usize
                    }
                });
                let frac: F16 = std::array::from_fn(|i| {
                    if i % 4 == 1 {
                        0.0
                    } else {
                        below(rng, 1 << 20) as f32 / (1 << 20) as f32
                    }
                });
                let m = MipLanes {
                    la: &lvl,
                    lb: &lb,
                    frac: &frac,
                };
                let tri = filter_mip::<D>(&l, &m, &st, &layer, offset).expect("in range");
                let b = filter::<D>(&l, Some(&lb), &st, &layer, offset).expect("in range");
                for c in 0..4 {
                    for ln in 0..LANES {
                        let (x, y) = (g[c][ln], b[c][ln]);
                        if frac[ln] == 0.0 {
                            assert_eq!(tri[c][ln].to_bits(), x.to_bits(), "D={D} case {case}");
                        }
                        let want = x + (y - x) * frac[ln];
                        let e = (tri[c][ln] - want).abs();
                        assert!(
                            e <= 2.0 / 32640.0 + 1.0e-6,
                            "D={D} case {case} c={c} lane {ln}: trilinear error {e}"
                        );
                    }
                }
            }
        }
        compared
    }

    #[test]
    fn linear8_matches_the_general_path() {
        let mut rng = Rng(0x1234_5678_9abc_def1);
        let n = check::<1>(&mut rng, false)
            + check::<2>(&mut rng, false)
            + check::<3>(&mut rng, false)
            + check::<1>(&mut rng, true)
            + check::<2>(&mut rng, true);
        if avx2() {
            // Most cases have no NaN lane and are compared.
            assert!(n > 1000, "only {n} cases compared");
        }
    }

    #[test]
    fn out_of_range_levels_and_layers_are_refused() {
        let data = vec![0u8; 4 * 4 * 4];
        let levels = [MipLevel {
            data: &data,
            width: 4,
            height: 4,
            depth: 1,
        }];
        let st = [[0.5f32; LANES]; 3];
        let l = Levels {
            levels: &levels,
            repeat: [false; 3],
            normalized: true,
            layer_axis: None,
        };
        assert!(filter::<2>(&l, Some(&[1; LANES]), &st, &[0; LANES], [0; 3]).is_none());
        let l = Levels {
            layer_axis: Some(2),
            ..l
        };
        assert!(filter::<2>(&l, None, &st, &[1; LANES], [0; 3]).is_none());
        let short = [MipLevel {
            data: &data[..60],
            width: 4,
            height: 4,
            depth: 1,
        }];
        let l = Levels {
            levels: &short,
            repeat: [false; 3],
            normalized: true,
            layer_axis: None,
        };
        assert!(filter::<2>(&l, None, &st, &[0; LANES], [0; 3]).is_none());
    }
}
