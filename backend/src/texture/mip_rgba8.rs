//! Mipmapped RGBA8 2D sampling over all lanes at once: the implicit (per-quad) or
//! explicit LOD or explicit derivatives (`textureGrad`, per lane), the level choice (nearest or linear between levels) and the
//! nearest/bilinear taps of each lane at its own level, as plain per-lane loops the
//! compiler vectorises. It covers repeat on power-of-two levels and clamp-to-edge,
//! no shadow compare and the identity swizzle. When every lane filters
//! bilinearly (the common state: LINEAR magnification and minification), the
//! taps go to the fixed-point filter of `linear8` — for a trilinear lookup both
//! levels and their blend in one pass, as llvmpipe's AoS unorm8 path does —
//! and with every filter LINEAR the level of detail takes `lod::fast_log2`:
//! those results are within the fixed-point bound of the float filter.
//! Otherwise the arithmetic is the generic path's, in the same order, so the
//! results are bit-identical (the `lanes_texture` test checks both).

// Lane loops index several arrays by lane, as elsewhere in the driver.
#![allow(clippy::needless_range_loop)]

use super::{floor_f32, linear8, LoadLanes, MipLevel, SampleRequest, TexView, TextureBinding};
use crate::driver::{Filter, MipFilter, SamplerState, Swizzle, TexTarget, Wrap};
use crate::exec::{Reg, LANES};
use crate::format::Format;
use crate::texture::LodMode;

/// Most levels the path handles (a 2^31-texel side has 32; the trilinear level
/// selection relies on fewer than 64).
const MAX_LEVELS: usize = 32;

/// Whether `wrap` keeps every index of a `size`-texel axis in range with a mask or
/// clamp.
fn simple(w: Wrap, size: u32) -> bool {
    w == Wrap::ClampToEdge || (w == Wrap::Repeat && size.is_power_of_two())
}

/// Whether [`sample_mip_rgba8`] handles this binding's lookups (every request:
/// implicit or explicit LOD, bias, explicit derivatives), decided once per
/// binding ([`applies_to_state`], kept in its sampler variant), not per lookup
/// (the loop over the levels was 6 % of the 2D routine's samples).
#[inline]
pub(super) fn applies(b: &TextureBinding<'_>) -> bool {
    b.variant.mip_rgba8()
}

/// The binding's part of [`applies`].
pub(super) fn applies_to_state(v: &TexView<'_>, s: &SamplerState) -> bool {
    v.format == Format::Rgba8Unorm
        && matches!(v.target, TexTarget::D2 | TexTarget::Rect)
        && s.compare.is_none()
        && !v.levels.is_empty()
        && v.levels.len() <= MAX_LEVELS
        && v.swizzle == Swizzle::IDENTITY
        && s.min_lod <= s.max_lod
        && v.levels
            .iter()
            .all(|lv| simple(s.wrap[0], lv.width) && simple(s.wrap[1], lv.height))
}

/// Samples every lane (callers check [`applies`] first).
#[inline(always)]
pub(super) fn sample_mip_rgba8<L: LoadLanes>(
    b: &TextureBinding<'_>,
    req: &SampleRequest<'_>,
) -> [Reg; 4] {
    let view: &TexView<'_> = &b.view;
    let s = &b.sampler;
    let normalized = view.target != TexTarget::Rect;
    let coord = |i: usize| -> [f32; LANES] {
        match req.coords.get(i) {
            Some(r) => L::lanes(r),
            None => [0.0; LANES],
        }
    };
    let (cx, cy) = (coord(0), coord(1));
    // Level of detail per lane (per 2×2 quad for implicit LOD).
    let base = &view.levels[0];
    let (s0, s1) = if normalized {
        (base.width as f32, base.height as f32)
    } else {
        (1.0, 1.0)
    };
    let mut lambda = [0.0f32; LANES];
    // Every filter linear: the result is continuous in the level of detail, so
    // an approximate log2 moves it by about the approximation's error (under
    // 1e-6), within the fixed-point filter's bound.
    let continuous =
        s.mag == Filter::Linear && s.min == Filter::Linear && s.mip == MipFilter::Linear;
    match req.lod {
        LodMode::Implicit(bias) => {
            // All four quads at once (vector shuffles in the AVX2 instance).
            let bl = match bias {
                Some(r) => L::lanes(r),
                None => [0.0; LANES],
            };
            let bias = bias.is_some().then_some(&bl);
            lambda = super::lod::quad_lambda::<L, 2>(
                &[cx, cy, [0.0; LANES]],
                [s0, s1, 1.0],
                bias,
                continuous,
            );
        }
        LodMode::Lod(r) => {
            for l in 0..LANES {
                lambda[l] = r.f(l);
            }
        }
        // Explicit derivatives (`textureGrad`), GL 4.6 §8.14.1 equations 8.6
        // and 8.7 per lane, as `sample_quad` computes them: ρ² is the larger
        // squared length of the scaled x and y derivatives (a missing one is
        // 0). With every filter LINEAR, `log2(ρ) = ½·fast_log2(ρ²)` as for
        // implicit derivatives; otherwise libm's `log2` of the square root,
        // bit for bit the generic path's.
        LodMode::Grad(gx, gy) => {
            let scale = [s0, s1];
            let mut sx = [0.0f32; LANES];
            let mut sy = [0.0f32; LANES];
            for a in 0..2 {
                if let Some(r) = gx.get(a) {
                    let d = L::lanes(r);
                    for l in 0..LANES {
                        let u = d[l] * scale[a];
                        sx[l] += u * u;
                    }
                }
                if let Some(r) = gy.get(a) {
                    let d = L::lanes(r);
                    for l in 0..LANES {
                        let u = d[l] * scale[a];
                        sy[l] += u * u;
                    }
                }
            }
            let mut m = [0.0f32; LANES];
            for l in 0..LANES {
                m[l] = sx[l].max(sy[l]);
            }
            lambda = if continuous {
                super::lod::half_fast_log2::<L>(&m)
            } else {
                let mut o = [0.0f32; LANES];
                for l in 0..LANES {
                    o[l] = m[l].sqrt().log2();
                }
                o
            };
        }
    }
    // Levels and blend factor per lane.
    let last = (view.levels.len() - 1) as f32;
    let mut la = [0usize; LANES];
    let mut lb = [0usize; LANES];
    let mut fr = [0.0f32; LANES];
    let mut any_blend = false;
    // Final LOD (`max`/`min` give `clamp`'s result here: `lam` is not NaN and
    // `min_lod <= max_lod`; a zero's sign does not matter below), branch-free.
    let mut lams = [0.0f32; LANES];
    let mut minified = false;
    for l in 0..LANES {
        let lam = lambda[l] + s.lod_bias;
        let lam = if lam.is_nan() { 0.0 } else { lam };
        lams[l] = lam.max(s.min_lod).min(s.max_lod);
        minified |= lams[l] > 0.0;
    }
    // Per lane: bilinear (else nearest), from the magnification or minification filter.
    let mut lin = [s.mag == Filter::Linear; LANES];
    if minified && s.mip == MipFilter::Linear {
        // Trilinear, branch-free. `lam` is capped at 64 first: the levels then stay
        // the same (at most 32 levels) and so does the fraction, which only counts
        // below the last level, where `lam < 32`.
        let lasti = (view.levels.len() - 1) as i32;
        let (mag_lin, min_lin) = (s.mag == Filter::Linear, s.min == Filter::Linear);
        for l in 0..LANES {
            let lam = lams[l];
            let pos = lam > 0.0;
            // Not `clamp`: its panic check keeps the loop from vectorising.
            #[allow(clippy::manual_clamp)]
            let lc = lam.max(0.0).min(64.0);
            let (fl, i) = floor_small(lc);
            let i1 = i.min(lasti);
            let i2 = (i1 + 1).min(lasti);
            let f = if i1 >= lasti { 0.0 } else { lc - fl };
            la[l] = if pos { i1 as u32 as usize } else { 0 };
            lb[l] = if pos { i2 as u32 as usize } else { 0 };
            fr[l] = if pos { f } else { 0.0 };
            lin[l] = if pos { min_lin } else { mag_lin };
            // Here, not in a loop reading `fr` back: its 16-byte stores do not
            // forward to 32-byte loads (measured: 8 % of the routine).
            any_blend |= pos && f != 0.0;
        }
    }
    for l in 0..LANES {
        if !minified || s.mip == MipFilter::Linear {
            break;
        }
        let lam = lams[l];
        if lam <= 0.0 {
            continue;
        }
        lin[l] = s.min == Filter::Linear;
        if s.mip == MipFilter::None {
            continue;
        }
        if s.mip == MipFilter::Nearest {
            let lvl = if lam <= 0.5 {
                0.0
            } else {
                (super::ceil_f32(lam + 0.5) - 1.0).min(last)
            };
            la[l] = lvl as usize;
        } else {
            let l1 = floor_f32(lam).min(last);
            let l2 = (l1 + 1.0).min(last);
            la[l] = l1 as usize;
            lb[l] = l2 as usize;
            fr[l] = if l1 >= last {
                0.0
            } else {
                lam - floor_f32(lam)
            };
            any_blend |= fr[l] != 0.0;
        }
    }
    let ox = req.offset[0] as f32;
    let oy = req.offset[1] as f32;
    // One filter for magnification and minification: every lane has it (no
    // count of `lin`, whose byte stores would stall a vector load here).
    let nlin = if s.mag == s.min {
        if s.mag == Filter::Linear {
            LANES
        } else {
            0
        }
    } else {
        let mut n = 0;
        for x in lin {
            n += x as usize;
        }
        n
    };
    let mode = if nlin == LANES {
        Mode::Linear
    } else if nlin == 0 {
        Mode::Nearest
    } else {
        Mode::Mixed(&lin)
    };
    // Every filter linear (a static condition, so no lane's coordinates
    // decide another's path): the fixed-point filter, both levels in one pass;
    // lanes it leaves (positions beyond ±2²⁴ texels or NaN) from the float
    // taps below.
    let mut fixed = None;
    if s.mag == Filter::Linear && s.min == Filter::Linear {
        let st = [cx, cy, [0.0; LANES]];
        let l = fixed_levels(&view.levels, s.wrap, normalized);
        let mut out = [Reg::default(); 4];
        let done = if any_blend {
            let m = linear8::MipLanes {
                la: &la,
                lb: &lb,
                frac: &fr,
            };
            linear8::filter_mip_regs::<2>(&l, &m, &st, req.offset, &mut out)
        } else {
            linear8::filter_regs::<2>(&l, Some(&la), &st, req.offset, &mut out)
        };
        match done {
            Some(0) => return out,
            Some(far) => fixed = Some((out, far)),
            None => {}
        }
    }
    let a = taps(
        &view.levels,
        &la,
        &cx,
        &cy,
        mode,
        s.wrap,
        normalized,
        ox,
        oy,
    );
    if !any_blend {
        return merge(a.map(|c| Reg::from_f32(&c)), fixed);
    }
    let bb = taps(
        &view.levels,
        &lb,
        &cx,
        &cy,
        mode,
        s.wrap,
        normalized,
        ox,
        oy,
    );
    let mut out = [Reg::default(); 4];
    for c in 0..4 {
        let mut o = [0.0f32; LANES];
        for l in 0..LANES {
            o[l] = if fr[l] == 0.0 {
                a[c][l]
            } else {
                a[c][l] + (bb[c][l] - a[c][l]) * fr[l]
            };
        }
        out[c] = Reg::from_f32(&o);
    }
    merge(out, fixed)
}

/// The fixed-point filter's lanes of `fixed` (its result and the mask of the
/// lanes it left), the float filter's `float` elsewhere.
#[inline(always)]
fn merge(float: [Reg; 4], fixed: Option<([Reg; 4], u16)>) -> [Reg; 4] {
    let Some((mut v, far)) = fixed else {
        return float;
    };
    for c in 0..4 {
        for l in 0..LANES {
            if far >> l & 1 == 1 {
                v[c].0[l] = float[c].0[l];
            }
        }
    }
    v
}

/// Level-0 filtering of every lane with one filter (no LOD: the caller knows it
/// cannot change the result); same conditions on wrap modes as [`applies`].
#[inline(always)]
pub(super) fn sample_level0<L: LoadLanes>(
    levels: &[MipLevel<'_>],
    filter: Filter,
    req: &SampleRequest<'_>,
    wraps: [Wrap; 3],
    normalized: bool,
) -> [Reg; 4] {
    let coord = |i: usize| -> [f32; LANES] {
        match req.coords.get(i) {
            Some(r) => L::lanes(r),
            None => [0.0; LANES],
        }
    };
    let (cx, cy) = (coord(0), coord(1));
    let mut fixed = None;
    let mode = if filter == Filter::Linear {
        let st = [cx, cy, [0.0; LANES]];
        let l = fixed_levels(levels, wraps, normalized);
        let mut out = [Reg::default(); 4];
        match linear8::filter_regs::<2>(&l, None, &st, req.offset, &mut out) {
            Some(0) => return out,
            Some(far) => fixed = Some((out, far)),
            None => {}
        }
        Mode::Linear
    } else {
        Mode::Nearest
    };
    let (ox, oy) = (req.offset[0] as f32, req.offset[1] as f32);
    let v = taps(
        levels,
        &[0; LANES],
        &cx,
        &cy,
        mode,
        wraps,
        normalized,
        ox,
        oy,
    );
    merge(v.map(|c| Reg::from_f32(&c)), fixed)
}

/// The levels as [`linear8`] addresses them (a 2D or rectangle texture: the
/// callers checked each axis's wrap mode is repeat on a power-of-two size or
/// clamp to edge).
fn fixed_levels<'a, 'b>(
    levels: &'a [MipLevel<'b>],
    wraps: [Wrap; 3],
    normalized: bool,
) -> linear8::Levels<'a, 'b> {
    linear8::Levels {
        levels,
        repeat: [wraps[0] == Wrap::Repeat, wraps[1] == Wrap::Repeat, false],
        normalized,
        layer_axis: None,
    }
}

/// The filter of the lanes.
#[derive(Clone, Copy)]
enum Mode<'a> {
    /// Every lane nearest.
    Nearest,
    /// Every lane bilinear.
    Linear,
    /// Bilinear where `true`, else nearest (one tap of weight 1 plus three of 0).
    Mixed(&'a [bool; LANES]),
}

/// Filters each lane at its level `lvl[l]` (the arithmetic of the generic bilinear /
/// nearest filter; zero weights are added rather than skipped, which changes nothing
/// for finite, non-negative texels).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn taps(
    levels: &[MipLevel<'_>],
    lvl: &[usize; LANES],
    cx: &[f32; LANES],
    cy: &[f32; LANES],
    mode: Mode<'_>,
    wraps: [Wrap; 3],
    normalized: bool,
    ox: f32,
    oy: f32,
) -> [[f32; LANES]; 4] {
    let ntaps = if matches!(mode, Mode::Nearest) { 1 } else { 4 };
    // Texel-space positions at each lane's level.
    // Every lane at one level (the common case) or gathered per lane.
    let last = levels.len() - 1;
    let mut uniform = true;
    for l in 0..LANES {
        uniform &= lvl[l] == lvl[0];
    }
    let lv0 = &levels[lvl[0].min(last)];
    let mut wl = [lv0.width as i64; LANES];
    let mut hl = [lv0.height as i64; LANES];
    if !uniform {
        for l in 0..LANES {
            let lv = &levels[lvl[l].min(last)];
            wl[l] = lv.width as i64;
            hl[l] = lv.height as i64;
        }
    }
    let mut px = [0.0f32; LANES];
    let mut py = [0.0f32; LANES];
    for l in 0..LANES {
        let (sx, sy) = if normalized {
            (wl[l] as f32, hl[l] as f32)
        } else {
            (1.0, 1.0)
        };
        px[l] = cx[l] * sx + ox;
        py[l] = cy[l] * sy + oy;
    }
    let mut at = [[0usize; LANES]; 4];
    let mut wt = [[0.0f32; LANES]; 4];
    if !indices_i32(&wl, &hl, &px, &py, mode, wraps, &mut at, &mut wt) {
        indices_i64(&wl, &hl, &px, &py, mode, wraps, &mut at, &mut wt);
    }
    let word = |data: &[u8], i: usize| -> u32 {
        let off = i * 4;
        match data.get(off..off + 4) {
            Some(b) => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            None => 0,
        }
    };
    let mut words = [[0u32; LANES]; 4];
    if uniform {
        for k in 0..ntaps {
            for l in 0..LANES {
                words[k][l] = word(lv0.data, at[k][l]);
            }
        }
    } else {
        let data: [&[u8]; LANES] = std::array::from_fn(|l| levels[lvl[l].min(last)].data);
        for k in 0..ntaps {
            for l in 0..LANES {
                words[k][l] = word(data[l], at[k][l]);
            }
        }
    }
    let mut out = [[0.0f32; LANES]; 4];
    for (c, o) in out.iter_mut().enumerate() {
        for k in 0..ntaps {
            for l in 0..LANES {
                let t = ((words[k][l] >> (8 * c)) & 0xff) as f32 * (1.0 / 255.0);
                o[l] = if ntaps == 1 { t } else { o[l] + t * wt[k][l] };
            }
        }
    }
    out
}

/// `(floor_f32(x), floor_f32(x) as i32)` for `|x| < 1e9` (not NaN), without the
/// saturating conversion (so loops over lanes vectorise).
#[inline(always)]
fn floor_small(x: f32) -> (f32, i32) {
    debug_assert!(x.abs() < 1.0e9);
    // SAFETY: the caller guarantees |x| < 1e9, so the truncation fits in an i32.
    let i = unsafe { x.to_int_unchecked::<i32>() };
    let t = i as f32;
    let down = t > x;
    let r = if down { t - 1.0 } else { t };
    (r.copysign(x), if down { i - 1 } else { i })
}

/// Texel indices and weights of the taps in i32 when every position is within ±1e9
/// (not NaN) and every level has under 2^31 texels: then nothing overflows and the
/// results equal [`indices_i64`]'s. Returns `false` (writing nothing) otherwise.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn indices_i32(
    wl: &[i64; LANES],
    hl: &[i64; LANES],
    px: &[f32; LANES],
    py: &[f32; LANES],
    mode: Mode<'_>,
    wraps: [Wrap; 3],
    at: &mut [[usize; LANES]; 4],
    wt: &mut [[f32; LANES]; 4],
) -> bool {
    let mut small = true;
    for l in 0..LANES {
        small &= px[l].abs() < 1.0e9 && py[l].abs() < 1.0e9;
    }
    for l in 0..LANES {
        small &= wl[l] * hl[l] < (1 << 31);
    }
    if !small {
        return false;
    }
    let (rx, ry) = (wraps[0] == Wrap::Repeat, wraps[1] == Wrap::Repeat);
    // Both forms are computed and one selected (no branch in the lane loops);
    // `max`/`min` rather than `clamp`, which could panic and so blocks vectorising.
    let wrap = |i: i32, n: i32, repeat: bool| -> i32 {
        let m = i & (n - 1);
        let c = i.max(0).min(n - 1);
        if repeat {
            m
        } else {
            c
        }
    };
    let w = wl.map(|x| x as i32);
    let h = hl.map(|x| x as i32);
    let mut idx = [[0i32; LANES]; 4];
    if !matches!(mode, Mode::Nearest) {
        for l in 0..LANES {
            let u = px[l] - 0.5;
            let (fl, ix) = floor_small(u);
            let fx = u - fl;
            let v = py[l] - 0.5;
            let (fl, iy) = floor_small(v);
            let fy = v - fl;
            let (x0, x1) = (wrap(ix, w[l], rx), wrap(ix + 1, w[l], rx));
            let (y0, y1) = (wrap(iy, h[l], ry), wrap(iy + 1, h[l], ry));
            idx[0][l] = y0 * w[l] + x0;
            idx[1][l] = y0 * w[l] + x1;
            idx[2][l] = y1 * w[l] + x0;
            idx[3][l] = y1 * w[l] + x1;
            wt[0][l] = (1.0 - fx) * (1.0 - fy) * 1.0;
            wt[1][l] = fx * (1.0 - fy) * 1.0;
            wt[2][l] = (1.0 - fx) * fy * 1.0;
            wt[3][l] = fx * fy * 1.0;
        }
    }
    if !matches!(mode, Mode::Linear) {
        for l in 0..LANES {
            if let Mode::Mixed(m) = mode {
                if m[l] {
                    continue;
                }
            }
            let x = wrap(floor_small(px[l]).1, w[l], rx);
            let y = wrap(floor_small(py[l]).1, h[l], ry);
            let i = y * w[l] + x;
            for k in 0..4 {
                idx[k][l] = i;
                wt[k][l] = if k == 0 { 1.0 } else { 0.0 };
            }
        }
    }
    for k in 0..4 {
        for l in 0..LANES {
            at[k][l] = idx[k][l] as u32 as usize;
        }
    }
    true
}

/// Texel indices and weights of the taps for any position (i64 like the generic
/// path; out-of-range float-to-integer conversions saturate the same way).
#[allow(clippy::too_many_arguments)]
fn indices_i64(
    wl: &[i64; LANES],
    hl: &[i64; LANES],
    px: &[f32; LANES],
    py: &[f32; LANES],
    mode: Mode<'_>,
    wraps: [Wrap; 3],
    at: &mut [[usize; LANES]; 4],
    wt: &mut [[f32; LANES]; 4],
) {
    let wrap = |i: i64, n: i64, wr: Wrap| -> i64 {
        if wr == Wrap::Repeat {
            i & (n - 1)
        } else {
            i.clamp(0, n - 1)
        }
    };
    for l in 0..LANES {
        let (w, h) = (wl[l], hl[l]);
        let bilinear = match mode {
            Mode::Nearest => false,
            Mode::Linear => true,
            Mode::Mixed(m) => m[l],
        };
        if bilinear {
            let u = px[l] - 0.5;
            let fl = floor_f32(u);
            let fx = u - fl;
            let ix = fl as i64;
            let v = py[l] - 0.5;
            let fl = floor_f32(v);
            let fy = v - fl;
            let iy = fl as i64;
            let (x0, x1) = (wrap(ix, w, wraps[0]), wrap(ix.wrapping_add(1), w, wraps[0]));
            let (y0, y1) = (wrap(iy, h, wraps[1]), wrap(iy.wrapping_add(1), h, wraps[1]));
            at[0][l] = (y0 * w + x0) as usize;
            at[1][l] = (y0 * w + x1) as usize;
            at[2][l] = (y1 * w + x0) as usize;
            at[3][l] = (y1 * w + x1) as usize;
            wt[0][l] = (1.0 - fx) * (1.0 - fy) * 1.0;
            wt[1][l] = fx * (1.0 - fy) * 1.0;
            wt[2][l] = (1.0 - fx) * fy * 1.0;
            wt[3][l] = fx * fy * 1.0;
        } else {
            let x = wrap(floor_f32(px[l]) as i64, w, wraps[0]);
            let y = wrap(floor_f32(py[l]) as i64, h, wraps[1]);
            let i = (y * w + x) as usize;
            for k in 0..4 {
                at[k][l] = i;
                wt[k][l] = if k == 0 { 1.0 } else { 0.0 };
            }
        }
    }
}
