//! Sampling over the 16 lanes of an invocation (the lane interpreter's entry
//! points): filtered lookups ([`sample`]: the RGBA8 fast paths of `mip_rgba8`,
//! else the quad sampler of `quad` four times), texel fetch with bounds checks,
//! and size queries. Coordinates use NIR's layout: `s`, then `t`, then `r` or the
//! array layer; cube maps take a direction vector and select a face (no seamless
//! filtering across faces: each face clamps to its edge).

use super::quad::{sample_quad, QuadF, QuadLod, QuadRequest, QUAD};
use super::{MipLevel, TextureBinding};
use crate::driver::{MipFilter, Swizzle, TexTarget, Wrap};
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

/// Reads one texel as RGBA; `None` coordinates give the border color.
#[inline]
pub(super) fn texel(
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

pub(super) fn swizzle(v: [f32; 4], sw: [Swizzle; 4]) -> [f32; 4] {
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
    sample_body::<super::PlainLoad>(b, req)
}

/// [`sample`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn sample_avx2(b: &TextureBinding<'_>, req: &SampleRequest<'_>) -> [Reg; 4] {
    sample_body::<super::SplitLoad>(b, req)
}

#[inline(always)]
fn sample_body<L: super::LoadLanes>(b: &TextureBinding<'_>, req: &SampleRequest<'_>) -> [Reg; 4] {
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
            && view.swizzle == Swizzle::IDENTITY
        {
            return super::mip_rgba8::sample_level0::<L>(
                &view.levels,
                s.mag,
                req,
                s.wrap,
                normalized,
            );
        }
    }
    if super::mip_rgba8::applies(b) {
        return super::mip_rgba8::sample_mip_rgba8::<L>(b, req);
    }
    // The routine selected for the binding's state, when it covers the request.
    if let Some(v) = b.variant.run(b, req) {
        return v;
    }
    sample_quads(b, req)
}

/// [`sample`] through [`sample_quad`], one quad at a time.
#[inline(always)]
fn sample_quads(b: &TextureBinding<'_>, req: &SampleRequest<'_>) -> [Reg; 4] {
    let mut out = [Reg::default(); 4];
    for q in 0..LANES / QUAD {
        let v = sample_quad(b, &quad_request(req, q));
        for c in 0..4 {
            for l in 0..QUAD {
                out[c].set_f(4 * q + l, v[c][l]);
            }
        }
    }
    out
}

/// Quad `q` (lanes `4q..4q + 4`) of a 16-lane request.
fn quad_request(req: &SampleRequest<'_>, q: usize) -> QuadRequest {
    let lanes = |r: &Reg| -> QuadF { std::array::from_fn(|l| r.f(4 * q + l)) };
    let comp = |c: &[Reg], i: usize| -> QuadF { c.get(i).map(lanes).unwrap_or([0.0; QUAD]) };
    let lod = match req.lod {
        LodMode::Implicit(bias) => QuadLod::Implicit(bias.map(lanes)),
        LodMode::Lod(r) => QuadLod::Lod(lanes(r)),
        LodMode::Grad(gx, gy) => QuadLod::Grad(
            std::array::from_fn(|a| comp(gx, a)),
            std::array::from_fn(|a| comp(gy, a)),
        ),
    };
    QuadRequest {
        coords: std::array::from_fn(|a| comp(req.coords, a)),
        lod,
        offset: req.offset,
        compare: req.compare.map(lanes),
    }
}

/// Replaces the lanes of `lanes` (a bit per lane) of a 16-lane result with
/// the quad sampler's: the lanes a fast path leaves (positions beyond its
/// range or NaN) take the generic path one lane at a time, so whether a lane
/// is left never changes the path of another lane (lanes outside the
/// execution mask hold arbitrary values). Cold: such lanes are rare.
#[cold]
#[inline(never)]
pub(super) fn patch_lanes(
    b: &TextureBinding<'_>,
    req: &SampleRequest<'_>,
    out: &mut [Reg; 4],
    lanes: u16,
) {
    for q in 0..LANES / QUAD {
        if lanes >> (4 * q) & 0xf == 0 {
            continue;
        }
        let v = sample_quad(b, &quad_request(req, q));
        for l in 0..QUAD {
            if lanes >> (4 * q + l) & 1 == 1 {
                for c in 0..4 {
                    out[c].set_f(4 * q + l, v[c][l]);
                }
            }
        }
    }
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
