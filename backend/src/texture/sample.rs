//! Texel filtering over lanes: coordinate wrapping, nearest/linear filters, mip level
//! selection with LOD from 2×2 quad derivatives (or explicit lod / gradients, plus
//! bias), shadow comparison before filtering, texel fetch with bounds checks, and size
//! queries. Coordinates use NIR's layout: `s`, then `t`, then `r` or the array layer;
//! cube maps take a direction vector and select a face (no seamless filtering across
//! faces: each face clamps to its edge).

use super::quad::{sample_quad, QuadF, QuadLod, QuadRequest, QUAD};
use super::{ceil_f32, floor_f32, MipLevel, TexView, TextureBinding};
use crate::driver::{Filter, MipFilter, Swizzle, TexTarget, Wrap};
use crate::exec::{Reg, LANES};
use crate::format::Format;

/// How the level of detail is chosen.
#[derive(Clone, Copy, Debug)]
pub enum LodMode<'a> {
    /// From the quad's derivatives, plus an optional bias (`texture(s, c, bias)`).
    Implicit(Option<&'a Reg>),
    /// Explicit level of detail (`textureLod`).
    Lod(&'a Reg),
    /// Explicit gradients per coordinate (`textureGrad`): (ddx, ddy), up to 3 each.
    Grad(&'a [Reg], &'a [Reg]),
}

/// A filtered lookup.
#[derive(Clone, Copy, Debug)]
pub struct SampleRequest<'a> {
    /// Coordinates (float): 1–4 registers as the target needs.
    pub coords: &'a [Reg],
    /// LOD selection.
    pub lod: LodMode<'a>,
    /// Constant texel offset (`textureOffset`).
    pub offset: [i32; 3],
    /// Shadow reference value (shadow samplers).
    pub compare: Option<&'a Reg>,
}

/// A `texelFetch`.
#[derive(Clone, Copy, Debug)]
pub struct FetchRequest<'a> {
    /// Integer coordinates (as i32 bits): x, then y, then z/layer as the target needs.
    pub coords: &'a [Reg],
    /// Level (i32 bits), relative to the view's base level; `None` = 0.
    pub lod: Option<&'a Reg>,
    /// Constant texel offset.
    pub offset: [i32; 3],
}

/// Number of coordinate components of a target (without the comparator).
fn coord_count(t: TexTarget) -> usize {
    match t {
        TexTarget::D1 => 1,
        TexTarget::D2 | TexTarget::Rect | TexTarget::D1Array => 2,
        TexTarget::D3 | TexTarget::Cube | TexTarget::D2Array => 3,
    }
}

/// Spatial dimensions filtered (1 for 1D/1D array, 3 for 3D, else 2).
fn dims(t: TexTarget) -> usize {
    match t {
        TexTarget::D1 | TexTarget::D1Array => 1,
        TexTarget::D3 => 3,
        _ => 2,
    }
}

#[inline]
fn coord(c: &[Reg], i: usize, l: usize) -> f32 {
    c.get(i).map(|r| r.f(l)).unwrap_or(0.0)
}

/// Cube face selection: (face, s, t) in [0, 1] for a direction.
pub(crate) fn cube_face(x: f32, y: f32, z: f32) -> (u32, f32, f32) {
    let (ax, ay, az) = (x.abs(), y.abs(), z.abs());
    let (face, sc, tc, ma) = if ax >= ay && ax >= az {
        if x >= 0.0 {
            (0, -z, -y, ax)
        } else {
            (1, z, -y, ax)
        }
    } else if ay >= az {
        if y >= 0.0 {
            (2, x, z, ay)
        } else {
            (3, x, -z, ay)
        }
    } else if z >= 0.0 {
        (4, x, -y, az)
    } else {
        (5, -x, -y, az)
    };
    let inv = if ma > 0.0 { 0.5 / ma } else { 0.0 };
    (face, sc * inv + 0.5, tc * inv + 0.5)
}

/// Wraps an integer texel index; `None` means border.
#[inline]
pub(crate) fn wrap_index(i: i64, n: i64, w: Wrap) -> Option<i64> {
    match w {
        // Power-of-two sizes (the common case) wrap with a mask: the same result as
        // `rem_euclid` in two's complement, without a division.
        Wrap::Repeat if n > 0 && n & (n - 1) == 0 => Some(i & (n - 1)),
        Wrap::Repeat => Some(i.rem_euclid(n)),
        Wrap::ClampToEdge => Some(i.clamp(0, n - 1)),
        Wrap::ClampToBorder | Wrap::Clamp => (0..n).contains(&i).then_some(i),
        Wrap::MirroredRepeat => {
            let m = i.rem_euclid(2 * n);
            Some(if m >= n { 2 * n - 1 - m } else { m })
        }
        Wrap::MirrorClampToEdge => {
            let m = if i < 0 { -1 - i } else { i };
            Some(m.min(n - 1))
        }
    }
}

/// Texel-space coordinate before wrapping, for the filter: GL_CLAMP clamps the
/// normalized coordinate first.
#[inline]
fn prep(u: f32, n: f32, w: Wrap, normalized: bool) -> f32 {
    let s = if normalized { u * n } else { u };
    match w {
        Wrap::Clamp => s.clamp(0.0, n),
        _ => s,
    }
}

/// Reads one texel as RGBA; `None` coordinates give the border color.
#[inline]
fn texel(
    lv: &MipLevel<'_>,
    fmt: Format,
    x: Option<i64>,
    y: Option<i64>,
    z: Option<i64>,
    border: [f32; 4],
) -> [f32; 4] {
    let (Some(x), Some(y), Some(z)) = (x, y, z) else {
        return border;
    };
    let bpp = fmt.bytes_per_pixel();
    let off =
        ((z as usize * lv.height as usize + y as usize) * lv.width as usize + x as usize) * bpp;
    match lv.data.get(off..off + bpp) {
        Some(b) => fmt.decode_rgba(b),
        None => [0.0; 4],
    }
}

/// Applies the shadow comparison to a texel's depth.
#[inline]
fn shadow(t: [f32; 4], reference: Option<(crate::driver::CompareFunc, f32)>) -> [f32; 4] {
    match reference {
        Some((f, r)) => {
            let v = if f.test(r, t[0]) { 1.0 } else { 0.0 };
            [v, v, v, 1.0]
        }
        None => t,
    }
}

/// [`filter_level`] for 2D and rectangle RGBA8 textures without shadow comparison:
/// the same arithmetic in the same order (so the same results), without the per-axis
/// closures and the generic texel decode.
#[inline]
fn filter_2d_rgba8(
    lv: &MipLevel<'_>,
    filter: Filter,
    pos: [f32; 3],
    wraps: [Wrap; 3],
    border: [f32; 4],
) -> [f32; 4] {
    let (w, h) = (lv.width as i64, lv.height as i64);
    let fetch = |x: Option<i64>, y: Option<i64>| -> [f32; 4] {
        let (Some(x), Some(y)) = (x, y) else {
            return border;
        };
        let off = (y as usize * lv.width as usize + x as usize) * 4;
        match lv.data.get(off..off + 4) {
            Some(b) => [
                b[0] as f32 * (1.0 / 255.0),
                b[1] as f32 * (1.0 / 255.0),
                b[2] as f32 * (1.0 / 255.0),
                b[3] as f32 * (1.0 / 255.0),
            ],
            None => [0.0; 4],
        }
    };
    match filter {
        Filter::Nearest => {
            let nw = |wr: Wrap| {
                if wr == Wrap::Clamp {
                    Wrap::ClampToEdge
                } else {
                    wr
                }
            };
            fetch(
                wrap_index(floor_f32(pos[0]) as i64, w, nw(wraps[0])),
                wrap_index(floor_f32(pos[1]) as i64, h, nw(wraps[1])),
            )
        }
        Filter::Linear => {
            let u = pos[0] - 0.5;
            let fl = floor_f32(u);
            let fx = u - fl;
            let ix = fl as i64;
            let v = pos[1] - 0.5;
            let fl = floor_f32(v);
            let fy = v - fl;
            let iy = fl as i64;
            let x0 = wrap_index(ix, w, wraps[0]);
            let x1 = wrap_index(ix + 1, w, wraps[0]);
            let y0 = wrap_index(iy, h, wraps[1]);
            let y1 = wrap_index(iy + 1, h, wraps[1]);
            let mut out = [0.0f32; 4];
            for k in 0..4 {
                let (x, wx) = if k & 1 == 1 { (x1, fx) } else { (x0, 1.0 - fx) };
                let (y, wy) = if k >> 1 & 1 == 1 {
                    (y1, fy)
                } else {
                    (y0, 1.0 - fy)
                };
                let wt = wx * wy * 1.0;
                if wt == 0.0 {
                    continue;
                }
                let t = fetch(x, y);
                for c in 0..4 {
                    out[c] += t[c] * wt;
                }
            }
            out
        }
    }
}

/// Filters level `lv` at texel-space position (already offset), returning RGBA.
#[allow(clippy::too_many_arguments)]
fn filter_level(
    view: &TexView<'_>,
    lv: &MipLevel<'_>,
    b: &TextureBinding<'_>,
    filter: Filter,
    pos: [f32; 3],
    layer: u32,
    reference: Option<(crate::driver::CompareFunc, f32)>,
) -> [f32; 4] {
    let s = &b.sampler;
    let d = dims(view.target);
    if reference.is_none()
        && view.format == Format::Rgba8Unorm
        && matches!(view.target, TexTarget::D2 | TexTarget::Rect)
    {
        return filter_2d_rgba8(lv, filter, pos, s.wrap, s.border);
    }
    let size = [lv.width as i64, lv.height as i64, lv.depth as i64];
    let border = s.border;
    let fmt = view.format;
    let wraps = if view.target == TexTarget::Cube {
        [Wrap::ClampToEdge; 3]
    } else {
        s.wrap
    };
    // Index along the "layer" axis for arrays/cubes.
    let fixed_axis = |axis: usize| -> Option<Option<i64>> {
        match (view.target, axis) {
            (TexTarget::D1Array, 1) => Some(Some(layer as i64)),
            (TexTarget::D2Array | TexTarget::Cube, 2) => Some(Some(layer as i64)),
            (_, a) if a >= d => Some(Some(0)),
            _ => None,
        }
    };
    match filter {
        Filter::Nearest => {
            let mut idx = [Some(0i64); 3];
            for a in 0..3 {
                idx[a] = match fixed_axis(a) {
                    Some(v) => v,
                    // GL_CLAMP with nearest filtering never reaches the border.
                    None => {
                        let w = if wraps[a] == Wrap::Clamp {
                            Wrap::ClampToEdge
                        } else {
                            wraps[a]
                        };
                        wrap_index(floor_f32(pos[a]) as i64, size[a], w)
                    }
                };
            }
            shadow(texel(lv, fmt, idx[0], idx[1], idx[2], border), reference)
        }
        Filter::Linear => {
            let mut i0 = [Some(0i64); 3];
            let mut i1 = [Some(0i64); 3];
            let mut f = [0.0f32; 3];
            for a in 0..3 {
                match fixed_axis(a) {
                    Some(v) => {
                        i0[a] = v;
                        i1[a] = v;
                    }
                    None => {
                        let u = pos[a] - 0.5;
                        let fl = floor_f32(u);
                        f[a] = u - fl;
                        let i = fl as i64;
                        i0[a] = wrap_index(i, size[a], wraps[a]);
                        i1[a] = wrap_index(i + 1, size[a], wraps[a]);
                    }
                }
            }
            let mut out = [0.0f32; 4];
            let corners = if d == 3 {
                8
            } else if d == 2 {
                4
            } else {
                2
            };
            for k in 0..corners {
                let pick = |a: usize| {
                    if k >> a & 1 == 1 {
                        (i1[a], f[a])
                    } else {
                        (i0[a], 1.0 - f[a])
                    }
                };
                let (x, wx) = pick(0);
                let (y, wy) = if d >= 2 { pick(1) } else { (i0[1], 1.0) };
                let (z, wz) = if d >= 3 { pick(2) } else { (i0[2], 1.0) };
                let w = wx * wy * wz;
                if w == 0.0 {
                    continue;
                }
                let t = shadow(texel(lv, fmt, x, y, z, border), reference);
                for c in 0..4 {
                    out[c] += t[c] * w;
                }
            }
            out
        }
    }
}

fn swizzle(v: [f32; 4], sw: [Swizzle; 4]) -> [f32; 4] {
    let mut o = [0.0; 4];
    for (i, s) in sw.iter().enumerate() {
        o[i] = match s {
            Swizzle::R => v[0],
            Swizzle::G => v[1],
            Swizzle::B => v[2],
            Swizzle::A => v[3],
            Swizzle::Zero => 0.0,
            Swizzle::One => 1.0,
        };
    }
    o
}

/// A filtered texture lookup for every lane (inactive lanes compute too; the results
/// of lanes outside the caller's mask are simply unused).
pub fn sample(b: &TextureBinding<'_>, req: &SampleRequest<'_>) -> [Reg; 4] {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU supports AVX2 (checked just above); `sample_avx2` is the
        // same safe code compiled with AVX2 enabled.
        return unsafe { sample_avx2(b, req) };
    }
    sample_body(b, req)
}

/// [`sample`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn sample_avx2(b: &TextureBinding<'_>, req: &SampleRequest<'_>) -> [Reg; 4] {
    sample_body(b, req)
}

#[inline(always)]
fn sample_body(b: &TextureBinding<'_>, req: &SampleRequest<'_>) -> [Reg; 4] {
    let view = &b.view;
    let Some(base) = view.levels.first() else {
        return [Reg::default(); 4];
    };
    let s = &b.sampler;
    let normalized = view.target != TexTarget::Rect;
    // Level 0 whatever the LOD (one level or no mipmapping) with the same filter for
    // magnification and minification: the LOD cannot change the result, so skip it.
    if (s.mip == MipFilter::None || view.levels.len() == 1)
        && s.mag == s.min
        && s.compare.is_none()
        && view.format == Format::Rgba8Unorm
        && matches!(view.target, TexTarget::D2 | TexTarget::Rect)
    {
        let simple = |w: Wrap, size: u32| {
            w == Wrap::ClampToEdge || (w == Wrap::Repeat && size.is_power_of_two())
        };
        if simple(s.wrap[0], base.width)
            && simple(s.wrap[1], base.height)
            && view.swizzle == [Swizzle::R, Swizzle::G, Swizzle::B, Swizzle::A]
        {
            return super::mip_rgba8::sample_level0(&view.levels, s.mag, req, s.wrap, normalized);
        }
    }
    if super::mip_rgba8::applies(b, req) {
        return super::mip_rgba8::sample_mip_rgba8(b, req);
    }
    sample_quads(b, req)
}

/// [`sample`] through [`sample_quad`], one quad at a time.
#[inline(always)]
fn sample_quads(b: &TextureBinding<'_>, req: &SampleRequest<'_>) -> [Reg; 4] {
    let mut out = [Reg::default(); 4];
    let lanes = |r: &Reg, q: usize| -> QuadF { std::array::from_fn(|l| r.f(4 * q + l)) };
    let comp = |c: &[Reg], i: usize, q: usize| -> QuadF {
        c.get(i).map(|r| lanes(r, q)).unwrap_or([0.0; QUAD])
    };
    for q in 0..LANES / QUAD {
        let lod = match req.lod {
            LodMode::Implicit(bias) => QuadLod::Implicit(bias.map(|r| lanes(r, q))),
            LodMode::Lod(r) => QuadLod::Lod(lanes(r, q)),
            LodMode::Grad(gx, gy) => QuadLod::Grad(
                std::array::from_fn(|a| comp(gx, a, q)),
                std::array::from_fn(|a| comp(gy, a, q)),
            ),
        };
        let qr = QuadRequest {
            coords: std::array::from_fn(|a| comp(req.coords, a, q)),
            lod,
            offset: req.offset,
            compare: req.compare.map(|r| lanes(r, q)),
        };
        let v = sample_quad(b, &qr);
        for c in 0..4 {
            for l in 0..QUAD {
                out[c].set_f(4 * q + l, v[c][l]);
            }
        }
    }
    out
}

/// The previous generic path, kept while the quad sampler is validated against it.
#[doc(hidden)]
pub fn sample_generic_old(b: &TextureBinding<'_>, req: &SampleRequest<'_>) -> [Reg; 4] {
    let mut out = [Reg::default(); 4];
    let view = &b.view;
    let Some(base) = view.levels.first() else {
        return out;
    };
    let s = &b.sampler;
    let d = dims(view.target);
    let normalized = view.target != TexTarget::Rect;
    let is_cube = view.target == TexTarget::Cube;
    // Per-lane texel-space position at the base level (before offsets), face/layer.
    let mut st = [[0.0f32; 3]; LANES];
    let mut layer = [0u32; LANES];
    for l in 0..LANES {
        if is_cube {
            let (face, u, v) = cube_face(
                coord(req.coords, 0, l),
                coord(req.coords, 1, l),
                coord(req.coords, 2, l),
            );
            st[l] = [u, v, 0.0];
            layer[l] = face;
        } else {
            for a in 0..d {
                st[l][a] = coord(req.coords, a, l);
            }
            let la = match view.target {
                TexTarget::D1Array => Some((1, base.height)),
                TexTarget::D2Array => Some((2, base.depth)),
                _ => None,
            };
            if let Some((ax, n)) = la {
                let v = floor_f32(coord(req.coords, ax, l) + 0.5);
                layer[l] = if v.is_nan() {
                    0
                } else {
                    v.clamp(0.0, n.saturating_sub(1) as f32) as u32
                };
            }
        }
    }
    let base_size = [base.width as f32, base.height as f32, base.depth as f32];
    let scale = |a: usize| if normalized { base_size[a] } else { 1.0 };
    // Level of detail per lane.
    let mut lambda = [0.0f32; LANES];
    let rho_of = |dx: [f32; 3], dy: [f32; 3]| {
        let mut sx = 0.0;
        let mut sy = 0.0;
        for a in 0..d {
            sx += (dx[a] * scale(a)).powi(2);
            sy += (dy[a] * scale(a)).powi(2);
        }
        sx.max(sy).sqrt()
    };
    match req.lod {
        LodMode::Implicit(bias) => {
            for q in 0..LANES / 4 {
                let b0 = 4 * q;
                let mut dx = [0.0; 3];
                let mut dy = [0.0; 3];
                for a in 0..d {
                    dx[a] = st[b0 + 1][a] - st[b0][a];
                    dy[a] = st[b0 + 2][a] - st[b0][a];
                }
                let rho = rho_of(dx, dy);
                for l in b0..b0 + 4 {
                    lambda[l] = rho.log2() + bias.map(|r| r.f(l)).unwrap_or(0.0);
                }
            }
        }
        LodMode::Lod(r) => {
            for l in 0..LANES {
                lambda[l] = r.f(l);
            }
        }
        LodMode::Grad(gx, gy) => {
            for l in 0..LANES {
                let mut dx = [0.0; 3];
                let mut dy = [0.0; 3];
                if is_cube {
                    // Approximate: gradients of the direction scaled to face space.
                    let ma = coord(req.coords, 0, l)
                        .abs()
                        .max(coord(req.coords, 1, l).abs())
                        .max(coord(req.coords, 2, l).abs())
                        .max(f32::MIN_POSITIVE);
                    for a in 0..2 {
                        dx[a] = coord(gx, a, l).abs().max(coord(gx, 2, l).abs()) * 0.5 / ma;
                        dy[a] = coord(gy, a, l).abs().max(coord(gy, 2, l).abs()) * 0.5 / ma;
                    }
                } else {
                    for a in 0..d {
                        dx[a] = coord(gx, a, l);
                        dy[a] = coord(gy, a, l);
                    }
                }
                lambda[l] = rho_of(dx, dy).log2();
            }
        }
    }
    let last = (view.levels.len() - 1) as f32;
    let reference_of = |l: usize| {
        s.compare.map(|f| {
            let r = req.compare.map(|r| r.f(l)).unwrap_or(0.0);
            let r = if view.format.depth_max().is_some() {
                r.clamp(0.0, 1.0)
            } else {
                r
            };
            (f, r)
        })
    };
    for l in 0..LANES {
        let mut lam = lambda[l] + s.lod_bias;
        if lam.is_nan() {
            lam = 0.0;
        }
        lam = lam.clamp(s.min_lod, s.max_lod);
        let reference = reference_of(l);
        let at_level = |lvl: usize, filter: Filter| -> [f32; 4] {
            let lv = &view.levels[lvl];
            let n = [lv.width as f32, lv.height as f32, lv.depth as f32];
            let mut pos = [0.0f32; 3];
            for a in 0..d {
                let base_pos = st[l][a];
                let wrap = if is_cube {
                    Wrap::ClampToEdge
                } else {
                    s.wrap[a]
                };
                pos[a] = prep(base_pos, n[a], wrap, normalized) + req.offset[a] as f32;
            }
            filter_level(view, lv, b, filter, pos, layer[l], reference)
        };
        let v = if lam <= 0.0 || s.mip == MipFilter::None {
            let f = if lam <= 0.0 { s.mag } else { s.min };
            at_level(0, f)
        } else if s.mip == MipFilter::Nearest {
            let lvl = if lam <= 0.5 {
                0.0
            } else {
                (ceil_f32(lam + 0.5) - 1.0).min(last)
            };
            at_level(lvl as usize, s.min)
        } else {
            let l1 = floor_f32(lam).min(last);
            let l2 = (l1 + 1.0).min(last);
            let fr = if l1 >= last {
                0.0
            } else {
                lam - floor_f32(lam)
            };
            let a = at_level(l1 as usize, s.min);
            if fr == 0.0 {
                a
            } else {
                let bb = at_level(l2 as usize, s.min);
                [0, 1, 2, 3].map(|c| a[c] + (bb[c] - a[c]) * fr)
            }
        };
        let v = swizzle(v, view.swizzle);
        for c in 0..4 {
            out[c].set_f(l, v[c]);
        }
    }
    out
}

/// `texelFetch`: integer coordinates; anything outside the level (or a level outside
/// the view) returns zeros.
pub fn fetch(b: &TextureBinding<'_>, req: &FetchRequest<'_>) -> [Reg; 4] {
    let mut out = [Reg::default(); 4];
    let view = &b.view;
    let n = coord_count(view.target);
    for l in 0..LANES {
        let lod = req.lod.map(|r| r.0[l] as i32).unwrap_or(0);
        let Some(lv) = usize::try_from(lod).ok().and_then(|i| view.levels.get(i)) else {
            continue;
        };
        let mut c = [0i64; 3];
        for (a, v) in c.iter_mut().enumerate().take(n) {
            *v = req.coords.get(a).map(|r| r.0[l] as i32 as i64).unwrap_or(0);
            if a < dims(view.target) {
                *v += req.offset[a] as i64;
            }
        }
        let size = [lv.width as i64, lv.height as i64, lv.depth as i64];
        if (0..3).any(|a| c[a] < 0 || c[a] >= size[a]) {
            continue;
        }
        let t = texel(
            lv,
            view.format,
            Some(c[0]),
            Some(c[1]),
            Some(c[2]),
            [0.0; 4],
        );
        let t = swizzle(t, view.swizzle);
        for k in 0..4 {
            out[k].set_f(l, t[k]);
        }
    }
    out
}

/// `textureSize(sampler, lod)`: width, height, depth/layers as integers per lane (0
/// for a level outside the view).
pub fn size(b: &TextureBinding<'_>, lod: &Reg) -> [Reg; 4] {
    let mut out = [Reg::default(); 4];
    let view = &b.view;
    for l in 0..LANES {
        let Some(lv) = usize::try_from(lod.0[l] as i32)
            .ok()
            .and_then(|i| view.levels.get(i))
        else {
            continue;
        };
        let v = match view.target {
            TexTarget::D1 => [lv.width, 0, 0],
            TexTarget::D1Array => [lv.width, lv.height, 0],
            TexTarget::D2 | TexTarget::Rect | TexTarget::Cube => [lv.width, lv.height, 0],
            TexTarget::D3 | TexTarget::D2Array => [lv.width, lv.height, lv.depth],
        };
        for k in 0..3 {
            out[k].0[l] = v[k];
        }
    }
    out
}

/// `textureQueryLevels`: the number of levels in the view.
pub fn query_levels(b: &TextureBinding<'_>) -> u32 {
    b.view.levels.len() as u32
}
