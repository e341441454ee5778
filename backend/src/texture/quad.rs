//! Filtered sampling of one 2×2 quad (four lanes): the generic sampler every
//! target, format, filter, wrap mode and shadow comparison goes through (all but
//! the RGBA8 2D states `mip_rgba8` takes), with
//! the semantics of the GL sampling rules (§8.14) that `backend/tests/sampler.rs`
//! checks, specialized per call on the bound texture's state as llvmpipe's
//! sampler variants are (`lp_bld_sample_soa.c`, read for design only):
//!
//! * [`sample_quad`] dispatches once on the texel format and the number of
//!   filtered dimensions to a monomorphized instance ([`Texel`] × 1/2/3-D), so
//!   the per-texel decode, the address arithmetic and the tap count are
//!   straight-line code; filters, wrap modes and the compare function are the
//!   same for every lane of a call, so their branches are predicted;
//! * the level of detail is computed once per quad (implicit LOD) and the level
//!   selection per lane; a quad whose lanes all magnify or all use one level
//!   takes one pass over its taps;
//! * levels whose texel data covers their size (every level the driver builds)
//!   are read without per-texel bounds checks: wrapped indices and clamped
//!   layers are always inside the level; a short or empty level, or a layer past
//!   a level's extent (malformed input), reads with checks, zeros outside its
//!   data.
//!
//! The arithmetic is the reference order of the generic rules (positions, weights
//! as products of per-axis weights, taps summed in corner order with zero
//! weights skipped, mip levels blended as `a + (b - a)·f`), so results are the
//! same for every format holding the same texel values (`lanes_texture` checks
//! RGBA8 against RGBA32F).

// Lane loops index several arrays by lane, as elsewhere in the driver.
#![allow(clippy::needless_range_loop)]

use super::{ceil_f32, floor_f32, MipLevel, TextureBinding};
use crate::driver::{CompareFunc, Filter, MipFilter, Swizzle, TexTarget, Wrap};
use crate::format::Format;

/// Lanes of a quad.
pub const QUAD: usize = 4;

/// Four lanes of floats.
pub type QuadF = [f32; QUAD];

/// How a quad request chooses its level of detail.
#[derive(Clone, Copy, Debug)]
pub enum QuadLod {
    /// From the quad's derivatives (lane 1 − lane 0 along x, lane 2 − lane 0
    /// along y), plus an optional per-lane bias (`texture(s, c, bias)`).
    Implicit(Option<QuadF>),
    /// Explicit per lane (`textureLod`).
    Lod(QuadF),
    /// Explicit gradients (`textureGrad`): ddx and ddy of up to 3 coordinates.
    Grad([QuadF; 3], [QuadF; 3]),
}

/// A filtered lookup for the four lanes of a quad.
#[derive(Clone, Copy, Debug)]
pub struct QuadRequest {
    /// Coordinates: `s`, then `t`, then `r` or the array layer (missing ones 0).
    pub coords: [QuadF; 4],
    /// Level-of-detail selection.
    pub lod: QuadLod,
    /// Constant texel offset.
    pub offset: [i32; 3],
    /// Shadow reference value (used when the sampler compares).
    pub compare: Option<QuadF>,
}

/// RGBA results: `[channel][lane]`.
pub type QuadRgba = [QuadF; 4];

/// A texel format's decode, resolved at compile time.
pub(crate) trait Texel {
    /// Bytes per texel.
    const BPP: usize;
    /// Channels that vary with the texel: the first `VARYING` of RGBA. The others
    /// are constant as [`Format::decode_rgba`] fills them: green and blue 0, alpha 1
    /// (GL §8.5 table 8.11's conversion of a base internal format to RGBA).
    const VARYING: usize;
    /// RGBA8 unorm: linear filters take the fixed-point path of `super::unorm8`.
    const UNORM8X4: bool;
    /// Decodes the texel at the start of `b` (`b.len() >= BPP`) to RGBA, as
    /// [`Format::decode_rgba`] does.
    fn decode(b: &[u8]) -> [f32; 4];
}

macro_rules! texel {
    ($name:ident, $bpp:expr, $varying:expr, |$b:ident| $body:expr) => {
        texel!($name, $bpp, $varying, false, |$b| $body);
    };
    ($name:ident, $bpp:expr, $varying:expr, $unorm8x4:expr, |$b:ident| $body:expr) => {
        pub(crate) struct $name;
        impl Texel for $name {
            const BPP: usize = $bpp;
            const VARYING: usize = $varying;
            const UNORM8X4: bool = $unorm8x4;
            #[inline(always)]
            fn decode($b: &[u8]) -> [f32; 4] {
                $body
            }
        }
    };
}

#[inline(always)]
fn n8(x: u8) -> f32 {
    x as f32 * (1.0 / 255.0)
}

#[inline(always)]
fn word(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]])
}

texel!(Rgba8, 4, 4, true, |b| [
    n8(b[0]),
    n8(b[1]),
    n8(b[2]),
    n8(b[3])
]);
texel!(R8, 1, 1, |b| [n8(b[0]), 0.0, 0.0, 1.0]);
texel!(Rg8, 2, 2, |b| [n8(b[0]), n8(b[1]), 0.0, 1.0]);
texel!(Rgba16F, 8, 4, |b| {
    let h = |i: usize| half::f16::from_bits(u16::from_le_bytes([b[2 * i], b[2 * i + 1]])).to_f32();
    [h(0), h(1), h(2), h(3)]
});
texel!(Rgba32F, 16, 4, |b| [
    f32::from_bits(word(b, 0)),
    f32::from_bits(word(b, 1)),
    f32::from_bits(word(b, 2)),
    f32::from_bits(word(b, 3))
]);
texel!(Z16, 2, 1, |b| [
    u16::from_le_bytes([b[0], b[1]]) as f32 / 65535.0,
    0.0,
    0.0,
    1.0
]);
texel!(Z24, 4, 1, |b| [
    (word(b, 0) >> 8) as f32 / 16_777_215.0,
    0.0,
    0.0,
    1.0
]);
texel!(Z32F, 4, 1, |b| [f32::from_bits(word(b, 0)), 0.0, 0.0, 1.0]);
texel!(Z32FS8, 8, 1, |b| [
    f32::from_bits(word(b, 0)),
    0.0,
    0.0,
    1.0
]);

/// Number of filtered (spatial) dimensions of a target.
pub(crate) fn dims(t: TexTarget) -> usize {
    match t {
        TexTarget::D1 | TexTarget::D1Array => 1,
        TexTarget::D3 => 3,
        _ => 2,
    }
}

/// Cube face selection: (face, s, t) in [0, 1] for a direction (GL §8.13 table
/// 8.19).
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

/// Wraps an integer texel index (GL §8.14.2 table 8.20); `None` means border.
#[inline(always)]
pub(crate) fn wrap_index(i: i64, n: i64, w: Wrap) -> Option<i64> {
    if n <= 0 {
        // An empty axis (malformed level) has only border.
        return None;
    }
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

/// Samples the four lanes of a quad (every lane computes; callers drop the
/// results of lanes they do not need). An empty view gives zeros.
pub fn sample_quad(b: &TextureBinding<'_>, req: &QuadRequest) -> QuadRgba {
    let d = dims(b.view.target);
    macro_rules! by_dims {
        ($t:ty) => {
            match d {
                1 => sample_impl::<$t, 1>(b, req),
                3 => sample_impl::<$t, 3>(b, req),
                _ => sample_impl::<$t, 2>(b, req),
            }
        };
    }
    match b.view.format {
        Format::Rgba8Unorm => by_dims!(Rgba8),
        Format::R8Unorm => by_dims!(R8),
        Format::Rg8Unorm => by_dims!(Rg8),
        Format::Rgba16Float => by_dims!(Rgba16F),
        Format::Rgba32Float => by_dims!(Rgba32F),
        Format::Z16Unorm => by_dims!(Z16),
        Format::Z24UnormX8 | Format::Z24UnormS8 => by_dims!(Z24),
        Format::Z32Float => by_dims!(Z32F),
        Format::Z32FloatS8 => by_dims!(Z32FS8),
    }
}

/// The sampler state every lane shares, resolved once per call.
struct Shared {
    target: TexTarget,
    normalized: bool,
    wraps: [Wrap; 3],
    border: [f32; 4],
    /// Shadow comparison: function and per-lane (clamped) references.
    compare: Option<(CompareFunc, QuadF)>,
}

/// Applies the shadow comparison to a texel's depth (GL §8.22.1).
#[inline(always)]
fn shadow(t: [f32; 4], f: CompareFunc, r: f32) -> [f32; 4] {
    let v = if f.test(r, t[0]) { 1.0 } else { 0.0 };
    [v, v, v, 1.0]
}

/// Texel-space coordinate before wrapping, for the filter: GL_CLAMP clamps the
/// normalized coordinate first.
#[inline(always)]
fn prep(u: f32, n: f32, w: Wrap, normalized: bool) -> f32 {
    let s = if normalized { u * n } else { u };
    match w {
        Wrap::Clamp => s.clamp(0.0, n),
        _ => s,
    }
}

/// The axis holding the array layer or cube face, if the target has one.
#[inline(always)]
fn layer_axis(t: TexTarget) -> Option<usize> {
    match t {
        TexTarget::D1Array => Some(1),
        TexTarget::D2Array | TexTarget::Cube => Some(2),
        _ => None,
    }
}

/// The four lanes' level (each lane may use its own).
struct LaneLevels<'a> {
    data: [&'a [u8]; QUAD],
    size: [[i64; QUAD]; 3],
    /// Every lane's level is non-empty and holds all its texels (and, once the
    /// caller has checked, every lane's layer is inside its level).
    complete: bool,
}

impl<'a> LaneLevels<'a> {
    #[inline(always)]
    fn new<T: Texel>(levels: &[MipLevel<'a>], idx: [usize; QUAD]) -> LaneLevels<'a> {
        let mut data: [&'a [u8]; QUAD] = [&[]; QUAD];
        let mut size = [[0i64; QUAD]; 3];
        let mut complete = true;
        let mut prev = usize::MAX;
        for l in 0..QUAD {
            let lv = &levels[idx[l]];
            data[l] = lv.data;
            size[0][l] = i64::from(lv.width);
            size[1][l] = i64::from(lv.height);
            size[2][l] = i64::from(lv.depth);
            if idx[l] != prev {
                prev = idx[l];
                let texels = u64::from(lv.width)
                    .saturating_mul(u64::from(lv.height))
                    .saturating_mul(u64::from(lv.depth));
                complete &=
                    texels != 0 && texels.saturating_mul(T::BPP as u64) <= lv.data.len() as u64;
            }
        }
        LaneLevels {
            data,
            size,
            complete,
        }
    }
}

/// Indices of one axis for the four lanes: the first and second tap (`None` =
/// border) and the weight of the second.
struct Axis {
    i0: [Option<i64>; QUAD],
    i1: [Option<i64>; QUAD],
    frac: QuadF,
}

/// Wraps `i` for every lane with one mode (the match outside the lane loop).
#[inline(always)]
fn wrap_lanes(i: [i64; QUAD], n: [i64; QUAD], w: Wrap) -> [Option<i64>; QUAD] {
    let mut o = [None; QUAD];
    match w {
        // An empty axis (a malformed level) has only border, as in `wrap_index`.
        Wrap::Repeat => {
            for l in 0..QUAD {
                let m = n[l] - 1;
                o[l] = if n[l] <= 0 {
                    None
                } else if n[l] & m == 0 {
                    Some(i[l] & m)
                } else {
                    Some(i[l].rem_euclid(n[l]))
                };
            }
        }
        Wrap::ClampToEdge => {
            for l in 0..QUAD {
                o[l] = (n[l] > 0).then(|| i[l].clamp(0, n[l] - 1));
            }
        }
        _ => {
            for l in 0..QUAD {
                o[l] = wrap_index(i[l], n[l], w);
            }
        }
    }
    o
}

impl Shared {
    /// The fixed index of axis `a` (array layer, cube face, unused axis), if fixed.
    #[inline(always)]
    fn fixed<const D: usize>(&self, a: usize) -> Option<()> {
        match (self.target, a) {
            (TexTarget::D1Array, 1) | (TexTarget::D2Array | TexTarget::Cube, 2) => Some(()),
            (_, a) if a >= D => Some(()),
            _ => None,
        }
    }

    /// The border colour, compared when the sampler compares.
    #[inline(always)]
    fn border_or_compare(&self, lane: usize) -> [f32; 4] {
        match self.compare {
            Some((f, r)) => shadow(self.border, f, r[lane]),
            None => self.border,
        }
    }

    /// The texel of lane `l` at in-range indices, compared when the sampler compares.
    #[inline(always)]
    fn texel<T: Texel>(&self, lv: &LaneLevels<'_>, l: usize, x: i64, y: i64, z: i64) -> [f32; 4] {
        let off = (((z * lv.size[1][l] + y) * lv.size[0][l] + x) as usize) * T::BPP;
        let t = if lv.complete {
            // SAFETY: 0 <= x < w, 0 <= y < h, 0 <= z < d (wrapped indices and
            // clamped layers), so `off + BPP <= w·h·d·BPP <= data.len()`.
            T::decode(unsafe { lv.data[l].get_unchecked(off..off + T::BPP) })
        } else {
            match lv.data[l].get(off..off + T::BPP) {
                Some(t) => T::decode(t),
                None => [0.0; 4],
            }
        };
        match self.compare {
            Some((f, r)) => shadow(t, f, r[l]),
            None => t,
        }
    }

    /// [`Shared::filter`] for lanes that share one complete level, on filtered axes
    /// whose wrap mode keeps every index in range with a mask or a clamp
    /// (repeat on a power-of-two size, clamp to edge), at positions within ±2²⁴:
    /// the same results in 32-bit index arithmetic without borders. `None` when
    /// the conditions do not hold.
    #[inline(always)]
    fn filter_fast<T: Texel, const D: usize>(
        &self,
        lv: &MipLevel<'_>,
        filter: Filter,
        pos: &[QuadF; 3],
        layer: &[i64; QUAD],
    ) -> Option<QuadRgba> {
        let size = [lv.width, lv.height, lv.depth];
        let texels = u64::from(size[0]) * u64::from(size[1]) * u64::from(size[2]);
        if texels == 0
            || texels.saturating_mul(T::BPP as u64) > lv.data.len() as u64
            || texels >= 1 << 31
        {
            return None;
        }
        if let Some(ax) = layer_axis(self.target) {
            // A layer past this level's extent (a malformed level) reads checked.
            if layer.iter().any(|&z| z >= i64::from(size[ax])) {
                return None;
            }
        }
        // Per filtered axis: mask (repeat) or clamp bound.
        let mut repeat = [false; 3];
        for a in 0..D {
            let w = if filter == Filter::Nearest && self.wraps[a] == Wrap::Clamp {
                Wrap::ClampToEdge
            } else {
                self.wraps[a]
            };
            repeat[a] = match w {
                Wrap::Repeat if size[a].is_power_of_two() => true,
                Wrap::ClampToEdge => false,
                _ => return None,
            };
            for l in 0..QUAD {
                // Also false for NaN.
                if !(pos[a][l].abs() < 16_777_216.0) {
                    return None;
                }
            }
        }
        let n = size.map(|x| x as i32);
        let wrap = |i: i32, a: usize| -> i32 {
            if repeat[a] {
                i & (n[a] - 1)
            } else {
                i.max(0).min(n[a] - 1)
            }
        };
        // Row and slice strides in texels; the layer's offset per lane.
        let (row, slice) = (n[0], n[0] * n[1]);
        let mut base = [0i32; QUAD];
        if let Some(ax) = layer_axis(self.target) {
            let stride = if ax == 1 { row } else { slice };
            for l in 0..QUAD {
                base[l] = layer[l] as i32 * stride;
            }
        }
        let read = |l: usize, at: i32| -> [f32; 4] {
            let off = at as usize * T::BPP;
            // SAFETY: every index is wrapped or clamped into its axis and layers
            // are clamped to the level, so `at < texels` and the level holds
            // `texels · BPP` bytes (checked above).
            let t = T::decode(unsafe { lv.data.get_unchecked(off..off + T::BPP) });
            match self.compare {
                Some((f, r)) => shadow(t, f, r[l]),
                None => t,
            }
        };
        let mut out = [[0.0f32; QUAD]; 4];
        if filter == Filter::Nearest {
            for l in 0..QUAD {
                let mut at = base[l];
                let strides = [1, row, slice];
                for a in 0..D {
                    let i = floor_f32(pos[a][l]) as i32;
                    at += wrap(i, a) * strides[a];
                }
                let t = read(l, at);
                for c in 0..4 {
                    out[c][l] = t[c];
                }
            }
            return Some(out);
        }
        let mut i0 = [[0i32; QUAD]; 3];
        let mut i1 = [[0i32; QUAD]; 3];
        let mut f = [[0.0f32; QUAD]; 3];
        let strides = [1, row, slice];
        for a in 0..D {
            for l in 0..QUAD {
                let u = pos[a][l] - 0.5;
                let fl = floor_f32(u);
                f[a][l] = u - fl;
                let i = fl as i32;
                i0[a][l] = wrap(i, a) * strides[a];
                i1[a][l] = wrap(i + 1, a) * strides[a];
            }
        }
        for k in 0..1usize << D {
            for l in 0..QUAD {
                let mut at = base[l];
                let mut w = 1.0f32;
                for a in 0..D {
                    if k >> a & 1 == 1 {
                        at += i1[a][l];
                        w = if a == 0 { f[a][l] } else { w * f[a][l] };
                    } else {
                        at += i0[a][l];
                        w = if a == 0 {
                            1.0 - f[a][l]
                        } else {
                            w * (1.0 - f[a][l])
                        };
                    }
                }
                if w == 0.0 {
                    continue;
                }
                let t = read(l, at);
                for c in 0..4 {
                    out[c][l] += t[c] * w;
                }
            }
        }
        Some(out)
    }

    /// Filters the four lanes, each at its level of `lv`, all with `filter`, from
    /// texel-space positions `pos[axis][lane]` (already offset); `layer` indexes
    /// arrays and cube faces.
    #[inline(always)]
    fn filter<T: Texel, const D: usize>(
        &self,
        lv: &LaneLevels<'_>,
        filter: Filter,
        pos: &[QuadF; 3],
        layer: &[i64; QUAD],
    ) -> QuadRgba {
        let mut out = [[0.0f32; QUAD]; 4];
        let mut axes: [Axis; 3] = std::array::from_fn(|_| Axis {
            i0: [Some(0); QUAD],
            i1: [Some(0); QUAD],
            frac: [0.0; QUAD],
        });
        for a in 0..3 {
            if self.fixed::<D>(a).is_some() {
                let v = if a < D { *layer } else { [0; QUAD] };
                // Array layers and faces on their axis; 0 on the unused ones.
                let v = if matches!(
                    (self.target, a),
                    (TexTarget::D1Array, 1) | (TexTarget::D2Array | TexTarget::Cube, 2)
                ) {
                    *layer
                } else {
                    v
                };
                axes[a].i0 = v.map(Some);
                axes[a].i1 = axes[a].i0;
                continue;
            }
            let n = lv.size[a];
            match filter {
                Filter::Nearest => {
                    // GL_CLAMP with nearest filtering never reaches the border.
                    let w = if self.wraps[a] == Wrap::Clamp {
                        Wrap::ClampToEdge
                    } else {
                        self.wraps[a]
                    };
                    let i = pos[a].map(|p| floor_f32(p) as i64);
                    axes[a].i0 = wrap_lanes(i, n, w);
                }
                Filter::Linear => {
                    let mut i = [0i64; QUAD];
                    for l in 0..QUAD {
                        let u = pos[a][l] - 0.5;
                        let fl = floor_f32(u);
                        axes[a].frac[l] = u - fl;
                        i[l] = fl as i64;
                    }
                    axes[a].i0 = wrap_lanes(i, n, self.wraps[a]);
                    axes[a].i1 = wrap_lanes(i.map(|x| x.wrapping_add(1)), n, self.wraps[a]);
                }
            }
        }
        if filter == Filter::Nearest {
            for l in 0..QUAD {
                let t = match (axes[0].i0[l], axes[1].i0[l], axes[2].i0[l]) {
                    (Some(x), Some(y), Some(z)) => self.texel::<T>(lv, l, x, y, z),
                    _ => self.border_or_compare(l),
                };
                for c in 0..4 {
                    out[c][l] = t[c];
                }
            }
            return out;
        }
        for k in 0..1usize << D {
            for l in 0..QUAD {
                let pick = |a: usize| {
                    if k >> a & 1 == 1 {
                        (axes[a].i1[l], axes[a].frac[l])
                    } else {
                        (axes[a].i0[l], 1.0 - axes[a].frac[l])
                    }
                };
                let (x, wx) = pick(0);
                let (y, wy) = if D >= 2 {
                    pick(1)
                } else {
                    (axes[1].i0[l], 1.0)
                };
                let (z, wz) = if D >= 3 {
                    pick(2)
                } else {
                    (axes[2].i0[l], 1.0)
                };
                let w = wx * wy * wz;
                if w == 0.0 {
                    continue;
                }
                let t = match (x, y, z) {
                    (Some(x), Some(y), Some(z)) => self.texel::<T>(lv, l, x, y, z),
                    _ => self.border_or_compare(l),
                };
                for c in 0..4 {
                    out[c][l] += t[c] * w;
                }
            }
        }
        out
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

/// One lane's level choice: the level(s), the blend fraction and the filter.
#[derive(Copy, Clone)]
struct Pick {
    l1: usize,
    l2: usize,
    frac: f32,
    filter: Filter,
}

#[inline(always)]
fn sample_impl<T: Texel, const D: usize>(b: &TextureBinding<'_>, req: &QuadRequest) -> QuadRgba {
    let mut out = [[0.0f32; QUAD]; 4];
    let view = &b.view;
    let Some(base) = view.levels.first() else {
        return out;
    };
    let s = &b.sampler;
    let target = view.target;
    let normalized = target != TexTarget::Rect;
    let is_cube = target == TexTarget::Cube;
    let c = &req.coords;
    // Per-lane texel-space position at the base level (before offsets), face/layer.
    let mut st = [[0.0f32; 3]; QUAD];
    let mut layer = [0i64; QUAD];
    for l in 0..QUAD {
        if is_cube {
            let (face, u, v) = cube_face(c[0][l], c[1][l], c[2][l]);
            st[l] = [u, v, 0.0];
            layer[l] = i64::from(face);
        } else {
            for a in 0..D {
                st[l][a] = c[a][l];
            }
            let la = match target {
                TexTarget::D1Array => Some((1, base.height)),
                TexTarget::D2Array => Some((2, base.depth)),
                _ => None,
            };
            if let Some((ax, n)) = la {
                let v = floor_f32(c[ax][l] + 0.5);
                layer[l] = if v.is_nan() {
                    0
                } else {
                    v.clamp(0.0, n.saturating_sub(1) as f32) as i64
                };
            }
        }
    }
    let base_size = [base.width as f32, base.height as f32, base.depth as f32];
    let scale = |a: usize| if normalized { base_size[a] } else { 1.0 };
    let rho_of = |dx: [f32; 3], dy: [f32; 3]| {
        let mut sx = 0.0f32;
        let mut sy = 0.0f32;
        for a in 0..D {
            sx += (dx[a] * scale(a)).powi(2);
            sy += (dy[a] * scale(a)).powi(2);
        }
        sx.max(sy).sqrt()
    };
    // Level of detail per lane; skipped when one level with one filter makes
    // it irrelevant.
    let single = (s.mip == MipFilter::None || view.levels.len() == 1) && s.mag == s.min;
    let mut lambda = [0.0f32; QUAD];
    if !single {
        match req.lod {
            QuadLod::Implicit(bias) => {
                let mut dx = [0.0; 3];
                let mut dy = [0.0; 3];
                for a in 0..D {
                    dx[a] = st[1][a] - st[0][a];
                    dy[a] = st[2][a] - st[0][a];
                }
                let rho = rho_of(dx, dy).log2();
                for l in 0..QUAD {
                    lambda[l] = rho + bias.map(|r| r[l]).unwrap_or(0.0);
                }
            }
            QuadLod::Lod(r) => lambda = r,
            QuadLod::Grad(gx, gy) => {
                for l in 0..QUAD {
                    let mut dx = [0.0; 3];
                    let mut dy = [0.0; 3];
                    if is_cube {
                        // Approximate: gradients of the direction scaled to face space.
                        let ma = c[0][l]
                            .abs()
                            .max(c[1][l].abs())
                            .max(c[2][l].abs())
                            .max(f32::MIN_POSITIVE);
                        for a in 0..2 {
                            dx[a] = gx[a][l].abs().max(gx[2][l].abs()) * 0.5 / ma;
                            dy[a] = gy[a][l].abs().max(gy[2][l].abs()) * 0.5 / ma;
                        }
                    } else {
                        for a in 0..D {
                            dx[a] = gx[a][l];
                            dy[a] = gy[a][l];
                        }
                    }
                    lambda[l] = rho_of(dx, dy).log2();
                }
            }
        }
    }
    let last = (view.levels.len() - 1) as f32;
    let mut picks = [Pick {
        l1: 0,
        l2: 0,
        frac: 0.0,
        filter: s.mag,
    }; QUAD];
    if !single {
        for l in 0..QUAD {
            let mut lam = lambda[l] + s.lod_bias;
            if lam.is_nan() {
                lam = 0.0;
            }
            // `max` then `min`: `clamp`'s result when min_lod <= max_lod, and no
            // panic otherwise (GL leaves that case undefined).
            lam = lam.max(s.min_lod).min(s.max_lod);
            picks[l] = if lam <= 0.0 || s.mip == MipFilter::None {
                Pick {
                    l1: 0,
                    l2: 0,
                    frac: 0.0,
                    filter: if lam <= 0.0 { s.mag } else { s.min },
                }
            } else if s.mip == MipFilter::Nearest {
                let lvl = if lam <= 0.5 {
                    0.0
                } else {
                    (ceil_f32(lam + 0.5) - 1.0).min(last)
                };
                Pick {
                    l1: lvl as usize,
                    l2: lvl as usize,
                    frac: 0.0,
                    filter: s.min,
                }
            } else {
                let l1 = floor_f32(lam).min(last);
                let l2 = (l1 + 1.0).min(last);
                Pick {
                    l1: l1 as usize,
                    l2: l2 as usize,
                    frac: if l1 >= last {
                        0.0
                    } else {
                        lam - floor_f32(lam)
                    },
                    filter: s.min,
                }
            };
        }
    }
    let compare = s.compare.map(|f| {
        let mut r = req.compare.unwrap_or([0.0; QUAD]);
        if view.format.depth_max().is_some() {
            for x in r.iter_mut() {
                *x = x.clamp(0.0, 1.0);
            }
        }
        (f, r)
    });
    let sh = Shared {
        target,
        normalized,
        wraps: if is_cube {
            [Wrap::ClampToEdge; 3]
        } else {
            s.wrap
        },
        border: s.border,
        compare,
    };
    let off = req.offset.map(|o| o as f32);
    // One pass per distinct (filter, first level) set of lanes: usually one, two
    // for trilinear blends.
    let pass = |idx: [usize; QUAD], filter: Filter| -> QuadRgba {
        if idx.iter().all(|&i| i == idx[0]) {
            let lv = &view.levels[idx[0]];
            let n = [lv.width as f32, lv.height as f32, lv.depth as f32];
            let mut pos = [[0.0f32; QUAD]; 3];
            for a in 0..D {
                for l in 0..QUAD {
                    pos[a][l] = prep(st[l][a], n[a], sh.wraps[a], sh.normalized) + off[a];
                }
            }
            if let Some(v) = sh.filter_fast::<T, D>(lv, filter, &pos, &layer) {
                return v;
            }
        }
        let mut lv = LaneLevels::new::<T>(&view.levels, idx);
        if let Some(ax) = layer_axis(target) {
            // Unchecked reads need every lane's layer inside its level.
            for l in 0..QUAD {
                lv.complete &= layer[l] < lv.size[ax][l];
            }
        }
        let mut pos = [[0.0f32; QUAD]; 3];
        for a in 0..D {
            for l in 0..QUAD {
                let n = lv.size[a][l] as f32;
                pos[a][l] = prep(st[l][a], n, sh.wraps[a], sh.normalized) + off[a];
            }
        }
        sh.filter::<T, D>(&lv, filter, &pos, &layer)
    };
    let l1 = picks.map(|p| p.l1);
    let mixed = picks.iter().any(|p| p.filter != picks[0].filter);
    let a = if mixed {
        let lin = pass(l1, Filter::Linear);
        let near = pass(l1, Filter::Nearest);
        let mut o = [[0.0f32; QUAD]; 4];
        for c in 0..4 {
            for l in 0..QUAD {
                o[c][l] = if picks[l].filter == Filter::Linear {
                    lin[c][l]
                } else {
                    near[c][l]
                };
            }
        }
        o
    } else {
        pass(l1, picks[0].filter)
    };
    let mut v = a;
    if picks.iter().any(|p| p.frac != 0.0) {
        // Blended lanes minify (one filter: `s.min`).
        let bb = pass(picks.map(|p| p.l2), s.min);
        for c in 0..4 {
            for l in 0..QUAD {
                let f = picks[l].frac;
                if f != 0.0 {
                    v[c][l] = a[c][l] + (bb[c][l] - a[c][l]) * f;
                }
            }
        }
    }
    let identity = view.swizzle == Swizzle::IDENTITY;
    if identity {
        return v;
    }
    for l in 0..QUAD {
        let t = swizzle([v[0][l], v[1][l], v[2][l], v[3][l]], view.swizzle);
        for ch in 0..4 {
            out[ch][l] = t[ch];
        }
    }
    out
}
