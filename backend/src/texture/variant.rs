//! Sampler variants: 16-lane sampling routines specialized on the bound texture's
//! static state, selected once per binding (per draw) the way llvmpipe selects a
//! sampler variant from `lp_sampler_static_texture_state` and
//! `lp_sampler_static_sampler_state` (`lp_bld_sample_soa.c`, read for design only).
//!
//! [`SamplerVariant::select`] looks at the state a routine depends on — texel
//! format, target (filtered dimensions, cube faces, array layers), wrap modes per
//! axis against every level's size, whether every level holds all its texels, and
//! the CPU's vector extensions, whether the sampler compares — and picks a
//! monomorphized routine (`sample16::<format, dims, compare>`) or none. A routine
//! carries only the channels its format varies in (plus alpha when it is the
//! constant 1) through the taps, and a comparing one only the compared depth, as
//! llvmpipe filters the compared texels' one-channel result. It samples all 16 lanes at once in
//! structure-of-arrays loops (level of detail per 2×2 quad, level and filter per
//! lane, one pass over the taps for every lane), reading texels without bounds
//! checks because the selection proved every wrapped index in range. Filters, the
//! mip mode and the compare function are the same for every lane of a call, so
//! their branches are hoisted out of the lane loops.
//!
//! The arithmetic is [`super::quad`]'s, in the same order, so results are bit for
//! bit the quad sampler's (`backend/tests/sampler_variant_diff.rs` checks it over
//! random states), except that RGBA8 3D lookups filtered linearly run in fixed
//! point ([`super::linear8`], [`super::unorm8`]; within the error bound of the
//! float filter), trilinear ones with both levels and their blend in one pass
//! as llvmpipe's AoS path does. Measured on the fill workloads, fixed point
//! pays off with eight taps: `tex3d` took 31 % less time, while 2D and cube
//! lookups here were as fast or slower than the float lerps (the coordinate
//! math then runs four lanes wide instead of eight, and a bilinear filter has
//! few lerps to save). A request the routine does not cover — explicit gradients,
//! positions beyond ±2²⁴ texels or NaN — returns `None` and the caller samples it
//! through the quad sampler.

// Lane loops index several arrays by lane, as elsewhere in the driver.
#![allow(clippy::needless_range_loop)]

use super::quad::{
    cube_face, dims, Rg8, Rgba16F, Rgba32F, Rgba8, Texel, R8, Z16, Z24, Z32F, Z32FS8,
};
use super::{
    floor_f32, LoadLanes, LodMode, MipLevel, PlainLoad, SampleRequest, TexView, TextureBinding,
};
use crate::driver::{CompareFunc, Filter, MipFilter, SamplerState, Swizzle, TexTarget, Wrap};
use crate::exec::{Reg, LANES};
use crate::format::Format;

/// Most levels a routine handles (a 2³¹-texel side has 32).
const MAX_LEVELS: usize = 32;

/// A sampling routine: every lane's result, or `None` when the request is outside
/// what the routine covers (the caller then takes the generic path).
pub type SampleRoutine = fn(&TextureBinding<'_>, &SampleRequest<'_>) -> Option<[Reg; 4]>;

/// The routine chosen for one binding's static state.
#[derive(Clone, Copy)]
pub struct SamplerVariant {
    routine: Option<SampleRoutine>,
    /// The binding's state is one `mip_rgba8` samples (`applies_to_state`).
    mip_rgba8: bool,
}

impl std::fmt::Debug for SamplerVariant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SamplerVariant")
            .field("specialized", &self.routine.is_some())
            .field("mip_rgba8", &self.mip_rgba8)
            .finish()
    }
}

impl SamplerVariant {
    /// No specialized routine: every lookup takes the generic path.
    pub const GENERIC: SamplerVariant = SamplerVariant {
        routine: None,
        mip_rgba8: false,
    };

    /// Chooses the routine for a view and sampler.
    pub fn select(view: &TexView<'_>, s: &SamplerState) -> SamplerVariant {
        let generic = SamplerVariant {
            routine: None,
            mip_rgba8: super::mip_rgba8::applies_to_state(view, s),
        };
        if !covered(view, s) {
            return generic;
        }
        let d = dims(view.target);
        let avx2 = has_avx2();
        macro_rules! pick {
            ($t:ty, $cmp:expr) => {
                match (d, avx2) {
                    (1, false) => sample16::<$t, 1, $cmp> as SampleRoutine,
                    (3, false) => sample16::<$t, 3, $cmp>,
                    (_, false) => sample16::<$t, 2, $cmp>,
                    (1, true) => sample16_avx2::<$t, 1, $cmp>,
                    (3, true) => sample16_avx2::<$t, 3, $cmp>,
                    (_, true) => sample16_avx2::<$t, 2, $cmp>,
                }
            };
            ($t:ty) => {
                if s.compare.is_some() {
                    pick!($t, true)
                } else {
                    pick!($t, false)
                }
            };
        }
        // Comparison routines exist for the depth formats only (GL §8.22.1: the
        // comparison applies to depth textures); a colour format with a compare
        // function set takes the generic path.
        let routine = match view.format {
            _ if s.compare.is_some() && !view.format.is_depth() => return generic,
            Format::Rgba8Unorm => pick!(Rgba8, false),
            Format::R8Unorm => pick!(R8, false),
            Format::Rg8Unorm => pick!(Rg8, false),
            Format::Rgba16Float => pick!(Rgba16F, false),
            Format::Rgba32Float => pick!(Rgba32F, false),
            Format::Z16Unorm => pick!(Z16),
            Format::Z24UnormX8 | Format::Z24UnormS8 => pick!(Z24),
            Format::Z32Float => pick!(Z32F),
            Format::Z32FloatS8 => pick!(Z32FS8),
        };
        SamplerVariant {
            routine: Some(routine),
            ..generic
        }
    }

    /// Whether the binding's state is one the RGBA8 2D mipmapped path samples.
    pub(super) fn mip_rgba8(&self) -> bool {
        self.mip_rgba8
    }

    /// Whether a specialized routine was chosen.
    pub fn is_specialized(&self) -> bool {
        self.routine.is_some()
    }

    /// Runs the routine: `None` when there is none or the request is outside it.
    #[inline]
    pub fn run(&self, b: &TextureBinding<'_>, req: &SampleRequest<'_>) -> Option<[Reg; 4]> {
        (self.routine?)(b, req)
    }
}

fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The axis holding the array layer or cube face, if the target has one.
fn layer_axis(t: TexTarget) -> Option<usize> {
    match t {
        TexTarget::D1Array => Some(1),
        TexTarget::D2Array | TexTarget::Cube => Some(2),
        _ => None,
    }
}

/// Whether the routines cover this state: at most [`MAX_LEVELS`] levels, each
/// non-empty, under 2³¹ texels and holding all of them; on every filtered axis of
/// every level, clamp to edge or repeat on a power-of-two size (so a wrapped index
/// is in range without a border); every level as many layers as the base (so a
/// clamped layer is in range).
fn covered(view: &TexView<'_>, s: &SamplerState) -> bool {
    let n = view.levels.len();
    if n == 0 || n > MAX_LEVELS {
        return false;
    }
    let d = dims(view.target);
    let bpp = view.format.bytes_per_pixel() as u64;
    let cube = view.target == TexTarget::Cube;
    let layers = |lv: &MipLevel<'_>| match layer_axis(view.target) {
        Some(1) => lv.height,
        Some(_) => lv.depth,
        None => 0,
    };
    let base_layers = layers(&view.levels[0]);
    view.levels.iter().all(|lv| {
        let size = [lv.width, lv.height, lv.depth];
        let texels = u64::from(lv.width) * u64::from(lv.height) * u64::from(lv.depth);
        texels != 0
            && texels < 1 << 31
            && texels * bpp <= lv.data.len() as u64
            && layers(lv) >= base_layers
            && (0..d).all(|a| {
                let w = if cube { Wrap::ClampToEdge } else { s.wrap[a] };
                w == Wrap::ClampToEdge || (w == Wrap::Repeat && size[a].is_power_of_two())
            })
    })
}

/// Sixteen lanes of floats.
type F16 = [f32; LANES];

/// The shadow comparison of every lane (GL §8.22.1): 1 where `f(r, d)` holds, else 0
/// (the quad sampler's `shadow`, with the function matched outside the lane loop).
#[inline(always)]
fn compare_lanes(f: CompareFunc, r: &F16, d: &F16) -> F16 {
    let mut o = [0.0f32; LANES];
    macro_rules! by {
        ($op:tt) => {
            for l in 0..LANES {
                o[l] = if r[l] $op d[l] { 1.0 } else { 0.0 };
            }
        };
    }
    match f {
        CompareFunc::Never => {}
        CompareFunc::Always => o = [1.0; LANES],
        CompareFunc::Less => by!(<),
        CompareFunc::Equal => by!(==),
        CompareFunc::LessEqual => by!(<=),
        CompareFunc::Greater => by!(>),
        CompareFunc::NotEqual => by!(!=),
        CompareFunc::GreaterEqual => by!(>=),
    }
    o
}

/// `(floor_f32(x), floor_f32(x) as i32)` for `|x| < 2²⁴` (not NaN; the caller
/// checks), branch-free so lane loops vectorise.
#[inline(always)]
fn floor_i(x: f32) -> (f32, i32) {
    // SAFETY: |x| < 2^24, so the truncation fits in an i32.
    let t = unsafe { x.to_int_unchecked::<i32>() };
    let tf = t as f32;
    let down = tf > x;
    let r = if down { tf - 1.0 } else { tf };
    (r.copysign(x), t - down as i32)
}

/// Each lane's level as the lane loops read it (structure of arrays).
struct Lvl {
    /// Texel data per lane.
    data: [*const u8; LANES],
    /// Width, height, depth per lane.
    size: [[i32; LANES]; 3],
    /// Every lane reads the same level.
    uniform: bool,
}

/// [`sample16`] compiled for AVX2 (selected only when the CPU has it).
#[cfg(target_arch = "x86_64")]
fn sample16_avx2<T: Texel, const D: usize, const CMP: bool>(
    b: &TextureBinding<'_>,
    req: &SampleRequest<'_>,
) -> Option<[Reg; 4]> {
    #[target_feature(enable = "avx2")]
    unsafe fn inner<T: Texel, const D: usize, const CMP: bool>(
        b: &TextureBinding<'_>,
        req: &SampleRequest<'_>,
    ) -> Option<[Reg; 4]> {
        sample16_body::<T, D, CMP, super::SplitLoad>(b, req)
    }
    // SAFETY: `select` picks this routine only when the CPU supports AVX2.
    unsafe { inner::<T, D, CMP>(b, req) }
}

#[cfg(not(target_arch = "x86_64"))]
fn sample16_avx2<T: Texel, const D: usize, const CMP: bool>(
    b: &TextureBinding<'_>,
    req: &SampleRequest<'_>,
) -> Option<[Reg; 4]> {
    sample16_body::<T, D, CMP, PlainLoad>(b, req)
}

/// The 16-lane routine for texel format `T`, `D` filtered dimensions, and a
/// depth comparison when `CMP` (`select` picks it exactly when the sampler
/// compares).
fn sample16<T: Texel, const D: usize, const CMP: bool>(
    b: &TextureBinding<'_>,
    req: &SampleRequest<'_>,
) -> Option<[Reg; 4]> {
    sample16_body::<T, D, CMP, PlainLoad>(b, req)
}

/// How many channels a routine carries through its taps ("packed" channels):
/// the texel's varying channels, then, when it has fewer than four, one holding
/// its constant alpha of 1 as filtered (the sum of the taps' weights, which need
/// not be exactly 1). The constant green and blue of 0 stay exactly +0 through
/// any filter (every weight is at least +0), so they are not carried. A
/// comparison leaves one varying channel, its result (GL §8.22.1 replicates it
/// to red, green and blue), and alpha.
#[inline(always)]
const fn packed<T: Texel, const CMP: bool>() -> usize {
    let n = if CMP { 1 } else { T::VARYING };
    if n >= 4 {
        4
    } else {
        n + 1
    }
}

/// RGBA from the [`packed`] channels.
#[inline(always)]
fn unpack<T: Texel, const CMP: bool>(p: &[F16; 4]) -> [F16; 4] {
    if CMP {
        return [p[0], p[0], p[0], p[1]];
    }
    let n = T::VARYING;
    if n >= 4 {
        return *p;
    }
    // No closure (`array::from_fn`): one called from the AVX2 instance is not
    // inlined into it (measured: four out-of-line calls per lookup).
    let mut o = [[0.0f32; LANES]; 4];
    o[..n].copy_from_slice(&p[..n]);
    o[3] = p[n];
    o
}

#[inline(always)]
fn sample16_body<T: Texel, const D: usize, const CMP: bool, L: LoadLanes>(
    b: &TextureBinding<'_>,
    req: &SampleRequest<'_>,
) -> Option<[Reg; 4]> {
    let view = &b.view;
    let s = &b.sampler;
    let bias = match req.lod {
        LodMode::Grad(..) => return None,
        LodMode::Implicit(bias) => bias,
        LodMode::Lod(_) => None,
    };
    let base = view.levels.first()?;
    // The coordinates as floats (missing ones 0), read once.
    let mut cs = [[0.0f32; LANES]; 3];
    for (i, r) in req.coords.iter().take(3).enumerate() {
        cs[i] = L::lanes(r);
    }
    let target = view.target;
    let normalized = target != TexTarget::Rect;
    // One level, one filter for every lane.
    let single = (s.mip == MipFilter::None || view.levels.len() == 1) && s.mag == s.min;
    #[cfg(target_arch = "x86_64")]
    if CMP && L::AVX2 && D == 2 && single && s.mag == Filter::Linear {
        if let Some(v) = shadow_2d(b, req) {
            return Some(v);
        }
    }
    if T::UNORM8X4 && !CMP && single && s.mag == Filter::Linear && target == TexTarget::D3 {
        let l = super::linear8::Levels {
            levels: &view.levels,
            repeat: s.wrap.map(|w| w == Wrap::Repeat),
            normalized,
            layer_axis: None,
        };
        if let Some((v, far)) =
            super::linear8::filter_lanes::<D>(&l, None, &cs, &[0; LANES], req.offset)
        {
            return Some(patched(b, req, swizzled(&v, view.swizzle), far));
        }
    }
    let coord = |i: usize| -> F16 { cs[i] };
    // Texel-space position at the base level (before offsets), face or layer.
    let mut st = [[0.0f32; LANES]; 3];
    let mut layer = [0i32; LANES];
    if target == TexTarget::Cube {
        let (x, y, z) = (coord(0), coord(1), coord(2));
        for l in 0..LANES {
            let (face, u, v) = cube_face(x[l], y[l], z[l]);
            st[0][l] = u;
            st[1][l] = v;
            layer[l] = face as i32;
        }
    } else {
        for a in 0..D {
            st[a] = coord(a);
        }
        let la = match target {
            TexTarget::D1Array => Some((1, base.height)),
            TexTarget::D2Array => Some((2, base.depth)),
            _ => None,
        };
        if let Some((ax, n)) = la {
            let c = coord(ax);
            let top = n.saturating_sub(1) as f32;
            for l in 0..LANES {
                let v = floor_f32(c[l] + 0.5);
                layer[l] = if v.is_nan() {
                    0
                } else {
                    v.clamp(0.0, top) as i32
                };
            }
        }
    }
    // Level of detail, level(s) and filter per lane.
    let mut l1 = [0usize; LANES];
    let mut l2 = [0usize; LANES];
    let mut frac = [0.0f32; LANES];
    let mut lin = [s.mag == Filter::Linear; LANES];
    let mut blend = false;
    let mut nlin_mip = 0;
    if !single {
        let lambda = match req.lod {
            LodMode::Implicit(_) => {
                let scale = if normalized {
                    [base.width as f32, base.height as f32, base.depth as f32]
                } else {
                    [1.0; 3]
                };
                let bl = match bias {
                    Some(r) => L::lanes(r),
                    None => [0.0; LANES],
                };
                // RGBA8 with every filter LINEAR: the result is continuous in
                // the level of detail and the lookup is within the fixed-point
                // bound of the float filter anyway (the 3D and trilinear paths
                // filter in fixed point), so the approximate log2 serves, as in
                // `mip_rgba8`.
                let fast = T::UNORM8X4
                    && !CMP
                    && D >= 2
                    && s.mag == Filter::Linear
                    && s.min == Filter::Linear
                    && s.mip == MipFilter::Linear;
                super::lod::quad_lambda::<L, D>(&st, scale, bias.is_some().then_some(&bl), fast)
            }
            LodMode::Lod(r) => L::lanes(r),
            LodMode::Grad(..) => return None,
        };
        let mut levels = Levels {
            l1: &mut l1,
            l2: &mut l2,
            frac: &mut frac,
            lin: &mut lin,
        };
        (blend, nlin_mip) = select_levels(s, view.levels.len() - 1, &lambda, &mut levels);
    }
    // Lanes filtered linearly, counted here rather than by reading `lin` back:
    // a vector load of bytes just stored one by one stalls (no store forwarding;
    // measured at 7 % of the 3D routine).
    let nlin = if single {
        if s.mag == Filter::Linear {
            LANES
        } else {
            0
        }
    } else {
        nlin_mip
    };
    debug_assert_eq!(CMP, s.compare.is_some());
    // No closures (`Option::map`) here: one called from the AVX2 instance is
    // not inlined into it (measured on `z24_2d_compare`: an out-of-line call
    // and a stalled reload of its result, 13 % of the routine's samples).
    let mut reference = [0.0f32; LANES];
    if let Some(r) = req.compare {
        reference = L::lanes(r);
    }
    if view.format.depth_max().is_some() {
        for x in reference.iter_mut() {
            *x = x.clamp(0.0, 1.0);
        }
    }
    #[allow(clippy::manual_map)]
    let compare = match s.compare {
        Some(f) => Some((f, reference)),
        None => None,
    };
    let wraps = if target == TexTarget::Cube {
        [Wrap::ClampToEdge; 3]
    } else {
        s.wrap
    };
    let ctx = Pass {
        levels: &view.levels,
        st: &st,
        layer: &layer,
        layer_axis: layer_axis(target),
        normalized,
        repeat: wraps.map(|w| w == Wrap::Repeat),
        off: &req.offset,
        compare: compare.as_ref(),
    };
    // RGBA8 2D array, cube (the face as a layer) or 3D, every filter linear:
    // both levels and their blend in fixed point, in one pass (lanes that do
    // not blend get the one-level fixed-point result). The condition is the
    // binding's state only: whether some lane blends must not choose between
    // the fixed-point and the float filter for the others (lanes outside the
    // execution mask hold arbitrary values). Plain 2D and rectangle bindings
    // mostly take `mip_rgba8` before reaching this routine.
    if T::UNORM8X4
        && !CMP
        && D >= 2
        && !single
        && s.mip == MipFilter::Linear
        && s.mag == Filter::Linear
        && s.min == Filter::Linear
    {
        let l = super::linear8::Levels {
            levels: ctx.levels,
            repeat: ctx.repeat,
            normalized,
            layer_axis: ctx.layer_axis,
        };
        let m = super::linear8::MipLanes {
            la: &l1,
            lb: &l2,
            frac: &frac,
        };
        if let Some((v, far)) =
            super::linear8::filter_mip_lanes::<D>(&l, &m, &st, &layer, req.offset)
        {
            return Some(patched(b, req, swizzled(&v, view.swizzle), far));
        }
    }
    let k = packed::<T, CMP>();
    // Lanes whose position is beyond ±2²⁴ texels or NaN, patched at the end.
    let mut far;
    let a = if nlin == LANES {
        let x;
        (x, far) = ctx.run::<T, D, true, CMP>(&l1);
        x
    } else if nlin == 0 {
        let x;
        (x, far) = ctx.run::<T, D, false, CMP>(&l1);
        x
    } else {
        let (x, fx) = ctx.run::<T, D, true, CMP>(&l1);
        let (y, fy) = ctx.run::<T, D, false, CMP>(&l1);
        far = fx | fy;
        let mut o = [[0.0f32; LANES]; 4];
        for c in 0..k {
            for l in 0..LANES {
                o[c][l] = if lin[l] { x[c][l] } else { y[c][l] };
            }
        }
        o
    };
    let mut v = a;
    if blend {
        // Blended lanes minify (one filter: the minification filter).
        let (bb, fb) = if s.min == Filter::Linear {
            ctx.run::<T, D, true, CMP>(&l2)
        } else {
            ctx.run::<T, D, false, CMP>(&l2)
        };
        // Level `l2` counts only for the lanes that blend it.
        let mut blends = 0u16;
        for l in 0..LANES {
            blends |= u16::from(frac[l] != 0.0) << l;
        }
        far |= fb & blends;
        for c in 0..k {
            for l in 0..LANES {
                let f = frac[l];
                if f != 0.0 {
                    v[c][l] = a[c][l] + (bb[c][l] - a[c][l]) * f;
                }
            }
        }
    }
    Some(patched(
        b,
        req,
        swizzled(&unpack::<T, CMP>(&v), view.swizzle),
        far,
    ))
}

/// A comparing lookup of one 2D or rectangle level with the LINEAR filter, by
/// [`super::shadow2d`]'s vector code: `None` for other targets and formats,
/// and for positions it leaves to the float routine. Called only from the
/// AVX2 instances.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn shadow_2d(b: &TextureBinding<'_>, req: &SampleRequest<'_>) -> Option<[Reg; 4]> {
    use super::shadow2d::{filter, DepthTexel, Level2};
    let view = &b.view;
    let s = &b.sampler;
    let texel = match view.format {
        Format::Z24UnormX8 | Format::Z24UnormS8 => DepthTexel::Z24,
        Format::Z32Float => DepthTexel::Z32F,
        Format::Z32FloatS8 => DepthTexel::Z32FS8,
        _ => return None,
    };
    let normalized = match view.target {
        TexTarget::D2 => true,
        TexTarget::Rect => false,
        _ => return None,
    };
    let func = s.compare?;
    let base = view.levels.first()?;
    let [c0, c1, ..] = req.coords else {
        return None;
    };
    let zero = Reg::default();
    let lv = Level2 {
        data: base.data.as_ptr(),
        size: [base.width as i32, base.height as i32],
        repeat: [s.wrap[0] == Wrap::Repeat, s.wrap[1] == Wrap::Repeat],
        normalized,
        texel,
        func,
        clamp_ref: view.format.depth_max().is_some(),
    };
    // SAFETY: only the AVX2 instances call this, on CPUs with AVX2; `covered`
    // proved the level holds all its texels and every wrapped index in range
    // (clamp to edge, or repeat on a power-of-two size).
    let [v, a] = unsafe {
        filter(
            &lv,
            [c0, c1],
            req.compare.unwrap_or(&zero),
            [req.offset[0], req.offset[1]],
        )?
    };
    Some(swizzled(&[v, v, v, a], view.swizzle))
}

/// `out` with the lanes of `far` (positions beyond ±2²⁴ texels or NaN, which
/// the routines do not filter) taken from the quad sampler, lane by lane.
#[inline(always)]
fn patched(
    b: &TextureBinding<'_>,
    req: &SampleRequest<'_>,
    mut out: [Reg; 4],
    far: u16,
) -> [Reg; 4] {
    if far != 0 {
        super::sample::patch_lanes(b, req, &mut out, far);
    }
    out
}

/// Per-lane level selection results: the level(s) each lane reads, the blend
/// weight of the second level, and whether the lane filters linearly.
struct Levels<'a> {
    l1: &'a mut [usize; LANES],
    l2: &'a mut [usize; LANES],
    frac: &'a mut F16,
    lin: &'a mut [bool; LANES],
}

/// Selects each lane's level(s) from its level of detail `lambda` (before the
/// sampler's bias and clamps), GL 4.6 §8.14.2 "Coordinate Wrapping and Texel
/// Selection" and §8.14.3 "Mipmapping": `lambda <= 0` magnifies from the base
/// level; otherwise a mipmap filter picks the nearest level (NEAREST) or the
/// two levels around `lambda` and a blend weight (LINEAR). Returns whether any
/// lane blends two levels and how many lanes filter linearly.
///
/// Every lane takes the same straight-line code (selects, no branch per lane,
/// `f32::floor`/`ceil`, which are one instruction in the AVX2 instance, and
/// conversions through `i32`) so the loops vectorise; the scalar loop with a branch per lane was a third
/// of `tex3d_mip`'s samples. The counts are accumulated in the same loop, not
/// read back from `lin` (a vector load of bytes just stored one at a time
/// would stall on store forwarding).
#[inline(always)]
fn select_levels(s: &SamplerState, last: usize, lambda: &F16, o: &mut Levels<'_>) -> (bool, usize) {
    let last_f = last as f32;
    let mag_lin = s.mag == Filter::Linear;
    let min_lin = s.min == Filter::Linear;
    let mut lam = [0.0f32; LANES];
    for l in 0..LANES {
        let x = lambda[l] + s.lod_bias;
        let x = if x.is_nan() { 0.0 } else { x };
        lam[l] = x.max(s.min_lod).min(s.max_lod);
    }
    let mut blend = false;
    let mut nlin = 0usize;
    match s.mip {
        MipFilter::None => {
            for l in 0..LANES {
                let lin = if lam[l] <= 0.0 { mag_lin } else { min_lin };
                o.lin[l] = lin;
                nlin += lin as usize;
            }
        }
        MipFilter::Nearest => {
            for l in 0..LANES {
                let x = lam[l];
                // Level ceil(lambda + 1/2) - 1 for lambda > 1/2, else the base.
                let lvl = if x <= 0.5 {
                    0.0
                } else {
                    ((x + 0.5).ceil() - 1.0).min(last_f)
                };
                // In 0..=last: `x` is never NaN, and the clamps bound it.
                let lvl = lvl as i32 as usize;
                o.l1[l] = lvl;
                o.l2[l] = lvl;
                let lin = if x <= 0.0 { mag_lin } else { min_lin };
                o.lin[l] = lin;
                nlin += lin as usize;
            }
        }
        MipFilter::Linear => {
            // Float selects first, conversions and counts in their own loops:
            // one loop mixing them stays scalar.
            let mut a = [0.0f32; LANES];
            let mut c = [0.0f32; LANES];
            for l in 0..LANES {
                let x = lam[l];
                let minify = x > 0.0;
                let fl = x.floor();
                // lambda <= 0 reads the base level (floor <= 0 clamps to 0).
                a[l] = fl.max(0.0).min(last_f);
                c[l] = if minify {
                    (a[l] + 1.0).min(last_f)
                } else {
                    0.0
                };
                o.frac[l] = if minify && a[l] < last_f { x - fl } else { 0.0 };
            }
            // Both in 0..=last: `lam` is never NaN, and the clamps bound it.
            for l in 0..LANES {
                o.l1[l] = a[l] as i32 as usize;
                o.l2[l] = c[l] as i32 as usize;
            }
            for l in 0..LANES {
                blend |= o.frac[l] != 0.0;
                let lin = if lam[l] > 0.0 { min_lin } else { mag_lin };
                o.lin[l] = lin;
                nlin += lin as usize;
            }
        }
    }
    (blend, nlin)
}

/// The view's swizzle applied to RGBA lanes.
#[inline(always)]
fn swizzled(v: &[F16; 4], sw: [Swizzle; 4]) -> [Reg; 4] {
    let mut out = [Reg::default(); 4];
    for i in 0..4 {
        let src = match sw[i] {
            Swizzle::R => v[0],
            Swizzle::G => v[1],
            Swizzle::B => v[2],
            Swizzle::A => v[3],
            Swizzle::Zero => [0.0; LANES],
            Swizzle::One => [1.0; LANES],
        };
        out[i] = Reg::from_f32(&src);
    }
    out
}

/// What one filtering pass shares.
struct Pass<'a, 'b> {
    levels: &'a [MipLevel<'b>],
    st: &'a [F16; 3],
    layer: &'a [i32; LANES],
    layer_axis: Option<usize>,
    normalized: bool,
    repeat: [bool; 3],
    /// Texel offsets (read where used: a copy converted to floats was stored
    /// per element and loaded in pairs, a store-forwarding stall).
    off: &'a [i32; 3],
    compare: Option<&'a (CompareFunc, F16)>,
}

impl Pass<'_, '_> {
    /// Reads the texel at index `at[l]` of `ptr(l)` for every lane and decodes its
    /// first `n` channels.
    #[inline(always)]
    fn decode<T: Texel>(
        &self,
        ptr: impl Fn(usize) -> *const u8,
        at: &[i32; LANES],
        n: usize,
        t: &mut [F16; 4],
    ) {
        if T::BPP == 4 {
            // Gather the words first, then decode all lanes (a loop the compiler
            // vectorises).
            let mut w = [0u32; LANES];
            for l in 0..LANES {
                // SAFETY: `at[l]` is a texel index inside lane `l`'s level, which
                // holds all its texels (see `run`).
                w[l] = u32::from_le(unsafe {
                    (ptr(l).add(at[l] as usize * 4) as *const u32).read_unaligned()
                });
            }
            for l in 0..LANES {
                let v = T::decode(&w[l].to_le_bytes());
                for c in 0..n {
                    t[c][l] = v[c];
                }
            }
        } else {
            for l in 0..LANES {
                let off = at[l] as usize * T::BPP;
                // SAFETY: as above.
                let v = T::decode(unsafe { std::slice::from_raw_parts(ptr(l).add(off), T::BPP) });
                for c in 0..n {
                    t[c][l] = v[c];
                }
            }
        }
    }

    /// The 4-byte texel word at index `at[l]` of each lane's level.
    #[inline(always)]
    fn gather_words(&self, lv: &Lvl, at: &[i32; LANES]) -> [u32; LANES] {
        let mut w = [0u32; LANES];
        let p0 = lv.data[0];
        if lv.uniform {
            for l in 0..LANES {
                // SAFETY: `at[l]` is a texel index inside the level, which holds
                // all its 4-byte texels (see `run`).
                w[l] = u32::from_le(unsafe {
                    (p0.add(at[l] as usize * 4) as *const u32).read_unaligned()
                });
            }
        } else {
            for l in 0..LANES {
                // SAFETY: as above, lane `l`'s level.
                w[l] = u32::from_le(unsafe {
                    (lv.data[l].add(at[l] as usize * 4) as *const u32).read_unaligned()
                });
            }
        }
        w
    }

    /// Reads and decodes the texel at index `at[l]` of each lane's level into the
    /// [`packed`] channels, compared when `CMP`.
    #[inline(always)]
    fn fetch<T: Texel, const CMP: bool>(&self, lv: &Lvl, at: &[i32; LANES]) -> [F16; 4] {
        let mut t = [[0.0f32; LANES]; 4];
        let n = if CMP { 1 } else { T::VARYING };
        let p0 = lv.data[0];
        if lv.uniform {
            self.decode::<T>(|_| p0, at, n, &mut t);
        } else {
            self.decode::<T>(|l| lv.data[l], at, n, &mut t);
        }
        if CMP {
            if let Some((f, r)) = self.compare {
                t[0] = compare_lanes(*f, r, &t[0]);
            }
        }
        if n < 4 {
            t[n] = [1.0; LANES];
        }
        t
    }

    /// Filters every lane at its level `idx[l]`, bilinear (or its 1-/3-D form) when
    /// `LIN`, else nearest; also returns the mask of the lanes whose position is
    /// beyond ±2²⁴ texels or NaN (filtered at position 0 instead: the caller
    /// replaces them).
    #[inline(always)]
    fn run<T: Texel, const D: usize, const LIN: bool, const CMP: bool>(
        &self,
        idx: &[usize; LANES],
    ) -> ([F16; 4], u16) {
        if LIN && T::UNORM8X4 && !CMP && D == 3 {
            let l = super::linear8::Levels {
                levels: self.levels,
                repeat: self.repeat,
                normalized: self.normalized,
                layer_axis: self.layer_axis,
            };
            if let Some(v) =
                super::linear8::filter_lanes::<D>(&l, Some(idx), self.st, self.layer, *self.off)
            {
                return v;
            }
        }
        let mut lv = Lvl {
            data: [self.levels[0].data.as_ptr(); LANES],
            size: [[0; LANES]; 3],
            uniform: idx.iter().all(|&i| i == idx[0]),
        };
        for l in 0..LANES {
            // `covered` checked every level; `idx` is at most the last one.
            let m = &self.levels[idx[l]];
            lv.data[l] = m.data.as_ptr();
            lv.size[0][l] = m.width as i32;
            lv.size[1][l] = m.height as i32;
            lv.size[2][l] = m.depth as i32;
        }
        // Texel-space positions at each lane's level, offset.
        let mut pos = [[0.0f32; LANES]; 3];
        let mut ok = true;
        for a in 0..D {
            for l in 0..LANES {
                let p = if self.normalized {
                    self.st[a][l] * lv.size[a][l] as f32
                } else {
                    self.st[a][l]
                } + self.off[a] as f32;
                pos[a][l] = p;
                // Also false for NaN.
                ok &= p.abs() < 16_777_216.0;
            }
        }
        let far = if ok { 0 } else { far_lanes::<D>(&mut pos) };
        // Offset of each lane's layer (texels).
        let mut base = [0i32; LANES];
        if let Some(ax) = self.layer_axis {
            for l in 0..LANES {
                let stride = if ax == 1 {
                    lv.size[0][l]
                } else {
                    lv.size[0][l] * lv.size[1][l]
                };
                base[l] = self.layer[l] * stride;
            }
        }
        let wrap = |i: i32, n: i32, repeat: bool| -> i32 {
            if repeat {
                i & (n - 1)
            } else {
                i.max(0).min(n - 1)
            }
        };
        let strides = |l: usize| [1, lv.size[0][l], lv.size[0][l] * lv.size[1][l]];
        let mut out = [[0.0f32; LANES]; 4];
        if !LIN {
            let mut at = base;
            for a in 0..D {
                for l in 0..LANES {
                    let i = floor_i(pos[a][l]).1;
                    at[l] += wrap(i, lv.size[a][l], self.repeat[a]) * strides(l)[a];
                }
            }
            return (self.fetch::<T, CMP>(&lv, &at), far);
        }
        // Per axis, the scaled index and the weight of the low (`[a][0]`) and high
        // (`[a][1]`) tap, so a tap picks whole arrays by its corner bits instead of
        // selecting lane by lane (LLVM kept that select scalar when it did not
        // unroll the 8-tap loop of 3D filtering).
        let mut ix = [[[0i32; LANES]; 2]; 3];
        let mut wt = [[[0.0f32; LANES]; 2]; 3];
        for a in 0..D {
            for l in 0..LANES {
                let u = pos[a][l] - 0.5;
                let (fl, i) = floor_i(u);
                let f = u - fl;
                let n = lv.size[a][l];
                let st = strides(l)[a];
                ix[a][0][l] = wrap(i, n, self.repeat[a]) * st;
                ix[a][1][l] = wrap(i + 1, n, self.repeat[a]) * st;
                wt[a][0][l] = 1.0 - f;
                wt[a][1][l] = f;
            }
        }
        if T::UNORM8X4 && !CMP && D == 3 {
            // RGBA8: every tap's texel index, then the fixed-point lerps.
            let mut at = [[0i32; LANES]; 8];
            for k in 0..1usize << D {
                at[k] = base;
                for a in 0..D {
                    let hi = k >> a & 1;
                    for l in 0..LANES {
                        at[k][l] += ix[a][hi][l];
                    }
                }
            }
            let frac = [wt[0][1], wt[1][1], wt[2][1]];
            // SAFETY: every index is inside its lane's level, which holds all its
            // 4-byte texels (`covered`, and the wrapping above).
            let v = unsafe {
                if lv.uniform {
                    super::unorm8::filter_texels::<D, true>(&lv.data, &at, &frac)
                } else {
                    super::unorm8::filter_texels::<D, false>(&lv.data, &at, &frac)
                }
            };
            return (v, far);
        }
        for k in 0..1usize << D {
            let mut at = base;
            // The tap's weight: the product of its per-axis weights, in axis order.
            let mut w = wt[0][k & 1];
            for l in 0..LANES {
                at[l] += ix[0][k & 1][l];
            }
            for a in 1..D {
                let hi = k >> a & 1;
                for l in 0..LANES {
                    at[l] += ix[a][hi][l];
                    w[l] *= wt[a][hi][l];
                }
            }
            // Every tap is read (its index is in range); a zero weight keeps the
            // sum unchanged, as the quad sampler's skipped tap does.
            if T::BPP == 4 && !CMP {
                // One word per lane, decoded channel by channel straight into the
                // sums: no decoded 4 × 16-lane tap is kept live beside them.
                let words = self.gather_words(&lv, &at);
                let n = T::VARYING;
                for c in 0..n.min(4) {
                    for l in 0..LANES {
                        let v = T::decode(&words[l].to_le_bytes())[c];
                        let sum = out[c][l] + v * w[l];
                        out[c][l] = if w[l] == 0.0 { out[c][l] } else { sum };
                    }
                }
                if n < 4 {
                    for l in 0..LANES {
                        let sum = out[n][l] + w[l]; // 1.0 × w, exactly
                        out[n][l] = if w[l] == 0.0 { out[n][l] } else { sum };
                    }
                }
                continue;
            }
            let t = self.fetch::<T, CMP>(&lv, &at);
            for c in 0..packed::<T, CMP>() {
                for l in 0..LANES {
                    let sum = out[c][l] + t[c][l] * w[l];
                    out[c][l] = if w[l] == 0.0 { out[c][l] } else { sum };
                }
            }
        }
        (out, far)
    }
}

/// The mask of the lanes with a position beyond ±2²⁴ texels or NaN on one of
/// the first `D` axes; their positions become 0 on every axis, so their
/// indices stay in range (the caller replaces their results).
#[cold]
#[inline(never)]
fn far_lanes<const D: usize>(pos: &mut [F16; 3]) -> u16 {
    let mut far = 0u16;
    for l in 0..LANES {
        // Also true for NaN.
        if (0..D).any(|a| !(pos[a][l].abs() < 16_777_216.0)) {
            far |= 1 << l;
            for p in pos.iter_mut() {
                p[l] = 0.0;
            }
        }
    }
    far
}
