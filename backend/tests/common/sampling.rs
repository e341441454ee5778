//! Shared pieces of the sampler tests: a deterministic xorshift generator, the
//! tables of sampler states they draw from, 16-lane coordinate and register
//! generators, and the split of a 16-lane [`SampleRequest`] into the per-quad
//! [`QuadRequest`]s the quad sampler takes, and random textures with mip chains.

use rgl_backend::driver::{CompareFunc, Filter, MipFilter, Swizzle, TexTarget, Wrap};
use rgl_backend::exec::{Reg, LANES};
use rgl_backend::format::Format;
use rgl_backend::texture::{LodMode, QuadLod, QuadRequest, SampleRequest, QUAD};

/// Xorshift64: the same sequence for a seed on every run, so a failing case
/// number reproduces.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// Uniform in [0, 1).
    pub fn f(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
    /// Uniform in [a, b).
    pub fn range(&mut self, a: f32, b: f32) -> f32 {
        a + (b - a) * self.f()
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn pick<T: Copy>(&mut self, v: &[T]) -> T {
        v[self.below(v.len() as u64) as usize]
    }
}

pub const TARGETS: [TexTarget; 7] = [
    TexTarget::D1,
    TexTarget::D1Array,
    TexTarget::D2,
    TexTarget::Rect,
    TexTarget::D2Array,
    TexTarget::Cube,
    TexTarget::D3,
];
pub const WRAPS: [Wrap; 6] = [
    Wrap::Repeat,
    Wrap::MirroredRepeat,
    Wrap::ClampToEdge,
    Wrap::ClampToBorder,
    Wrap::MirrorClampToEdge,
    Wrap::Clamp,
];
pub const FUNCS: [CompareFunc; 8] = [
    CompareFunc::Never,
    CompareFunc::Less,
    CompareFunc::Equal,
    CompareFunc::LessEqual,
    CompareFunc::Greater,
    CompareFunc::NotEqual,
    CompareFunc::GreaterEqual,
    CompareFunc::Always,
];
pub const FILTERS: [Filter; 2] = [Filter::Nearest, Filter::Linear];
pub const MIPS: [MipFilter; 3] = [MipFilter::None, MipFilter::Nearest, MipFilter::Linear];
pub const SWIZZLES: [Swizzle; 6] = [
    Swizzle::R,
    Swizzle::G,
    Swizzle::B,
    Swizzle::A,
    Swizzle::Zero,
    Swizzle::One,
];

/// A swizzle for a test view: one in `one_in` is random over [`SWIZZLES`],
/// the rest are the identity (the fast paths need it).
pub fn random_swizzle(rng: &mut Rng, one_in: u64) -> [Swizzle; 4] {
    if rng.below(one_in) == 0 {
        std::array::from_fn(|_| rng.pick(&SWIZZLES))
    } else {
        Swizzle::IDENTITY
    }
}

/// How often [`coords`] writes NaN lanes.
#[derive(Clone, Copy)]
pub enum NanLanes {
    /// Every lane is NaN with probability 1/n.
    PerLane(u64),
    /// One request in `.0` has NaN lanes, each with probability 1/`.1`.
    PerRequest(u64, u64),
}

/// The distribution [`coords`] draws from.
pub struct CoordMix<'a> {
    /// Per-pixel steps, one picked per request (small ones magnify, large minify).
    pub scales: &'a [f32],
    /// One request in this many is moved far outside the texture (×3·10⁷).
    pub far_one_in: u64,
    pub nan: NanLanes,
}

/// Coordinates for 16 lanes, as 4 quads: a base per quad plus a per-pixel step of
/// the request's scale (so implicit LOD magnifies or minifies), sometimes
/// jittered, now and then NaN or far outside the texture, as `mix` says.
pub fn coords(rng: &mut Rng, mix: &CoordMix<'_>) -> Vec<Reg> {
    let mut c = vec![Reg::default(); 4];
    let scale = mix.scales[rng.below(mix.scales.len() as u64) as usize];
    let far = if rng.below(mix.far_one_in) == 0 {
        3.0e7
    } else {
        1.0
    };
    let nan_one_in = match mix.nan {
        NanLanes::PerLane(n) => Some(n),
        NanLanes::PerRequest(r, n) => (rng.below(r) == 0).then_some(n),
    };
    for q in 0..LANES / QUAD {
        let base: [f32; 4] = std::array::from_fn(|_| (rng.f() * 4.0 - 1.5) * far);
        for p in 0..QUAD {
            for (a, r) in c.iter_mut().enumerate() {
                let step = (p & 1) as f32 * (a as f32 + 1.0) + (p >> 1) as f32 * 0.5;
                let v = if nan_one_in.is_some_and(|n| rng.below(n) == 0) {
                    f32::NAN
                } else {
                    base[a] + scale * step + if rng.below(5) == 0 { rng.f() } else { 0.0 }
                };
                r.set_f(QUAD * q + p, v);
            }
        }
    }
    c
}

/// A register of 16 lanes uniform in [lo, hi).
pub fn lane_reg(rng: &mut Rng, lo: f32, hi: f32) -> Reg {
    Reg::from_f32(&std::array::from_fn(|_| lo + (hi - lo) * rng.f()))
}

/// The lanes of quad `q` of a register.
pub fn quad_of(r: &Reg, q: usize) -> [f32; QUAD] {
    std::array::from_fn(|l| r.f(QUAD * q + l))
}

/// The quad request for quad `q` of a 16-lane request.
pub fn quad_request(req: &SampleRequest<'_>, q: usize) -> QuadRequest {
    let comp = |c: &[Reg], a: usize| c.get(a).map(|r| quad_of(r, q)).unwrap_or([0.0; QUAD]);
    QuadRequest {
        coords: std::array::from_fn(|a| comp(req.coords, a)),
        lod: match req.lod {
            LodMode::Implicit(bias) => QuadLod::Implicit(bias.map(|r| quad_of(r, q))),
            LodMode::Lod(r) => QuadLod::Lod(quad_of(r, q)),
            LodMode::Grad(gx, gy) => QuadLod::Grad(
                std::array::from_fn(|a| comp(gx, a)),
                std::array::from_fn(|a| comp(gy, a)),
            ),
        },
        offset: req.offset,
        compare: req.compare.map(|r| quad_of(r, q)),
    }
}

/// How far an RGBA8 result filtered in fixed point may be from the float
/// filter's: the bound of `texture::unorm8` (two steps of 1/32640 per lerp:
/// three filtered axes at most, plus the blend of two mip levels that
/// `texture::linear8::filter_mip` also does in fixed point) plus float rounding.
pub const UNORM8_BOUND: f32 = 8.0 / 32640.0 + 1.0e-6;

/// Whether a fast path's result `got` matches the float filter's `want` (raw
/// bits): exactly, or, when the lookup was filtered in fixed point
/// (`fixed_point`), within [`UNORM8_BOUND`]. A NaN coordinate gives the float
/// filter NaN weights and a NaN result, where the fixed-point filter clamps
/// the weights and returns a texel blend; GL does not define either (GL 4.6
/// §2.3.4.1: NaN inputs give unspecified results), so any value in `[0, 1]`
/// matches a NaN then.
pub fn unorm8_close(got: u32, want: u32, fixed_point: bool) -> bool {
    let (g, w) = (f32::from_bits(got), f32::from_bits(want));
    got == want
        || (g.is_nan() && w.is_nan())
        || (fixed_point
            && ((w.is_nan() && (0.0..=1.0).contains(&g)) || (g - w).abs() <= UNORM8_BOUND))
}

/// One level of a test texture: (width, height, depth, texels).
pub type Level = (u32, u32, u32, Vec<u8>);

/// How [`random_texture`] draws a texture's shape.
pub struct TextureMix {
    /// Whether a side is a power of two (the masked-repeat paths need them).
    pub pow2: fn(&mut Rng) -> bool,
    /// A power-of-two side is `1 << rng.below(pow2_log)`.
    pub pow2_log: u64,
    /// Other sides are `1 + rng.below(max)`: width, height, depth.
    pub side_max: [u64; 3],
    /// The chain has `1 + rng.below(levels)` levels (one for rectangles).
    pub levels: u64,
    /// One level in this many is truncated to half its texels (a level
    /// shorter than its size, which the sampler must refuse, not read past).
    pub truncate_one_in: Option<u64>,
}

/// A random texture of `format` for `target`: a base size drawn by `mix`, a
/// full mip chain or the start of one (GL 4.6 §8.14.3: each level halves
/// every side the target has, down to 1), random texels.
pub fn random_texture(
    rng: &mut Rng,
    target: TexTarget,
    format: Format,
    mix: &TextureMix,
) -> Vec<Level> {
    let mut dim = |max: u64| -> u32 {
        if (mix.pow2)(rng) {
            1 << rng.below(mix.pow2_log)
        } else {
            1 + rng.below(max) as u32
        }
    };
    let [mw, mh, md] = mix.side_max;
    let (mut w, mut h, mut d) = (dim(mw), dim(mh), dim(md));
    match target {
        TexTarget::D1 => (h, d) = (1, 1),
        TexTarget::D1Array | TexTarget::D2 | TexTarget::Rect => d = 1,
        TexTarget::Cube => (h, d) = (w, 6),
        TexTarget::D2Array | TexTarget::D3 => {}
    }
    let nlev = if target == TexTarget::Rect {
        1
    } else {
        1 + rng.below(mix.levels) as usize
    };
    let bpp = format.bytes_per_pixel();
    let mut levels = Vec::new();
    for _ in 0..nlev {
        let mut data = vec![0u8; (w * h * d) as usize * bpp];
        for t in data.chunks_mut(bpp) {
            format.encode_rgba([rng.f(), rng.f(), rng.f(), rng.f()], t);
        }
        if mix.truncate_one_in.is_some_and(|n| rng.below(n) == 0) {
            data.truncate(data.len() / 2);
        }
        levels.push((w, h, d, data));
        w = (w / 2).max(1);
        if !matches!(target, TexTarget::D1 | TexTarget::D1Array) {
            h = (h / 2).max(1);
        }
        if target == TexTarget::D3 {
            d = (d / 2).max(1);
        }
    }
    levels
}
