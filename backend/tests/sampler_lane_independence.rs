//! Lane independence of the 16-lane sampler entry point
//! ([`texture::sample`]): a lane's result may depend on its own inputs and, for
//! an implicit level of detail, on its 2×2 quad (GL 4.6 §8.14.1: the
//! derivatives are differences between the quad's lanes), never on the other
//! quads' lanes. Lanes outside the execution mask hold whatever their registers
//! held, and the JIT and the lane interpreter leave different values there, so
//! a path choice made over all 16 lanes (fixed-point or float filter, the
//! variant or the quad sampler) would make the two disagree on active lanes.
//!
//! Each case draws a binding (mostly RGBA8 with every filter LINEAR, the
//! fixed-point paths of `texture::linear8`, over every target; one in nine a
//! compared depth level, `texture::shadow2d`'s state) and a request,
//! then rewrites the inputs of some lanes with other values — NaN, infinities,
//! positions far outside the texture, other in-range positions, other biases,
//! levels and references — and checks the untouched lanes' results bit for
//! bit. With an implicit level of detail whole quads are rewritten; with an
//! explicit one or gradients, single lanes.

mod common;

use common::sampling::*;
use rgl_backend::driver::{Filter, MipFilter, SamplerState, TexTarget, Wrap};
use rgl_backend::exec::{Reg, LANES};
use rgl_backend::format::Format;
use rgl_backend::texture::{sample, LodMode, SampleRequest, TexView, TextureBinding};

/// Coordinates: scales that magnify, stay near level 0 and minify.
const COORDS: CoordMix<'static> = CoordMix {
    scales: &[0.001, 0.02, 0.1, 0.3, 2.0],
    far_one_in: 60,
    nan: NanLanes::PerRequest(60, 8),
};

/// Textures: power-of-two sides mostly, a full or partial mip chain.
const TEXTURES: TextureMix = TextureMix {
    pow2: |r| r.below(4) != 0,
    pow2_log: 6,
    side_max: [33, 33, 9],
    levels: 6,
    truncate_one_in: None,
};

/// The kinds of state a case draws.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    /// RGBA8 with every filter LINEAR (the fixed-point paths).
    Fixed,
    /// A depth format compared with one LINEAR level, no mipmapping (the
    /// vector percentage-closer filter of `texture::shadow2d` on 2D and
    /// rectangle targets).
    Pcf,
    /// Anything.
    Random,
}

/// Mostly the fixed-point state (RGBA8, LINEAR everywhere); otherwise random.
fn sampler(rng: &mut Rng, format: Format, kind: Kind) -> SamplerState {
    let wrap = |rng: &mut Rng| {
        if rng.below(20) == 0 {
            rng.pick(&WRAPS)
        } else {
            rng.pick(&[Wrap::Repeat, Wrap::ClampToEdge])
        }
    };
    let (mag, min, mip) = match kind {
        Kind::Fixed => (Filter::Linear, Filter::Linear, MipFilter::Linear),
        Kind::Pcf => (Filter::Linear, Filter::Linear, MipFilter::None),
        Kind::Random => (rng.pick(&FILTERS), rng.pick(&FILTERS), rng.pick(&MIPS)),
    };
    SamplerState {
        wrap: [wrap(rng), wrap(rng), wrap(rng)],
        mag,
        min,
        mip,
        lod_bias: if rng.below(3) == 0 {
            rng.f() * 2.0 - 1.0
        } else {
            0.0
        },
        min_lod: if rng.below(5) == 0 { rng.f() } else { -1000.0 },
        max_lod: if rng.below(5) == 0 {
            1.0 + rng.f() * 2.0
        } else {
            1000.0
        },
        border: [rng.f(), rng.f(), rng.f(), rng.f()],
        compare: (format.is_depth() && (kind == Kind::Pcf || rng.below(2) == 0))
            .then(|| rng.pick(&FUNCS)),
    }
}

/// A value an inactive lane might hold instead of `x`.
fn garbage(rng: &mut Rng, x: f32) -> f32 {
    match rng.below(8) {
        0 => f32::NAN,
        1 => f32::INFINITY,
        2 => f32::NEG_INFINITY,
        3 => 3.0e7 * (rng.f() - 0.5),
        4 => f32::from_bits(rng.next() as u32),
        5 => 0.0,
        6 => x + rng.f() * 0.05,
        _ => rng.f() * 4.0 - 1.5,
    }
}

/// Rewrites the lanes of `dead` (a bit per lane) of `r` with garbage.
fn spoil(rng: &mut Rng, r: &Reg, dead: u16) -> Reg {
    let mut o = *r;
    for l in 0..LANES {
        if dead >> l & 1 == 1 {
            o.set_f(l, garbage(rng, r.f(l)));
        }
    }
    o
}

/// Lookups that differ only on the lanes of `dead` agree bit for bit on the
/// others; returns whether a lookup was compared.
#[allow(clippy::too_many_arguments)]
fn check(
    b: &TextureBinding<'_>,
    rng: &mut Rng,
    case: usize,
    coords: &[Reg],
    lod: LodKind,
    lod_reg: &Reg,
    grads: &[Reg],
    cmp: &Reg,
    offset: [i32; 3],
    dead: u16,
) {
    let n = coords.len();
    let lm = |lod_reg, g| lod_mode(lod, lod_reg, g, n);
    let req = SampleRequest {
        coords,
        lod: lm(lod_reg, grads),
        offset,
        compare: Some(cmp),
    };
    let want = sample(b, &req);
    let c2: Vec<Reg> = coords.iter().map(|r| spoil(rng, r, dead)).collect();
    let lod2 = spoil(rng, lod_reg, dead);
    let g2: Vec<Reg> = grads.iter().map(|r| spoil(rng, r, dead)).collect();
    let cmp2 = spoil(rng, cmp, dead);
    let req2 = SampleRequest {
        coords: &c2,
        lod: lm(&lod2, &g2),
        offset,
        compare: Some(&cmp2),
    };
    let got = sample(b, &req2);
    for ch in 0..4 {
        for l in 0..LANES {
            if dead >> l & 1 == 1 {
                continue;
            }
            let (w, g) = (want[ch].0[l], got[ch].0[l]);
            assert!(
                w == g || (f32::from_bits(w).is_nan() && f32::from_bits(g).is_nan()),
                "case {case}: {:?} {:?} {} levels {:?} lod {lod:?} offset {offset:?}, dead \
                 lanes {dead:#06x}: lane {l} channel {ch} is {} with the other lanes' \
                 first inputs, {} with the second",
                b.view.target,
                b.view.format,
                b.view.levels.len(),
                b.sampler,
                f32::from_bits(w),
                f32::from_bits(g)
            );
        }
    }
}

/// The request's level-of-detail mode over registers `r` (bias or level) and
/// `g` (three x gradients, then three y gradients), for `n` coordinates.
fn lod_mode<'a>(k: LodKind, r: &'a Reg, g: &'a [Reg], n: usize) -> LodMode<'a> {
    match k {
        LodKind::Implicit => LodMode::Implicit(None),
        LodKind::Bias => LodMode::Implicit(Some(r)),
        LodKind::Lod => LodMode::Lod(r),
        LodKind::Grad => LodMode::Grad(&g[..n], &g[3..3 + n]),
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum LodKind {
    Implicit,
    Bias,
    Lod,
    Grad,
}

#[test]
fn active_lanes_do_not_depend_on_the_other_lanes() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let cases = 12_000;
    let mut by_target = [0u32; 7];
    for case in 0..cases {
        let ti = rng.below(TARGETS.len() as u64) as usize;
        let target = TARGETS[ti];
        let kind = match rng.below(9) {
            0..=5 => Kind::Fixed,
            6 => Kind::Pcf,
            _ => Kind::Random,
        };
        let format = match kind {
            Kind::Fixed => Format::Rgba8Unorm,
            Kind::Pcf => rng.pick(&[
                Format::Z16Unorm,
                Format::Z24UnormX8,
                Format::Z24UnormS8,
                Format::Z32Float,
                Format::Z32FloatS8,
            ]),
            Kind::Random => rng.pick(&Format::ALL),
        };
        let levels = random_texture(&mut rng, target, format, &TEXTURES);
        let s = sampler(&mut rng, format, kind);
        let swizzle = random_swizzle(&mut rng, 6);
        let view = TexView {
            swizzle,
            ..TexView::new(target, format, &levels)
        };
        let b = TextureBinding::new(view, s);
        let ncoord = match target {
            TexTarget::D1 => 1,
            TexTarget::D2 | TexTarget::Rect | TexTarget::D1Array => 2,
            _ => 3,
        };
        let c = coords(&mut rng, &COORDS);
        let lod_reg = lane_reg(&mut rng, -1.5, 5.5);
        let cmp = lane_reg(&mut rng, -0.1, 1.1);
        let grads: Vec<Reg> = (0..6).map(|_| lane_reg(&mut rng, -0.3, 0.3)).collect();
        let offset = if rng.below(4) == 0 {
            [
                rng.below(5) as i32 - 2,
                rng.below(5) as i32 - 2,
                rng.below(3) as i32 - 1,
            ]
        } else {
            [0; 3]
        };
        let lod = match rng.below(10) {
            0..=4 => LodKind::Implicit,
            5..=6 => LodKind::Bias,
            7..=8 => LodKind::Lod,
            _ => LodKind::Grad,
        };
        // Whole quads with an implicit level of detail (not all four), else
        // any lanes but at least one kept.
        let dead = if matches!(lod, LodKind::Implicit | LodKind::Bias) {
            let quads = 1 + rng.below(14) as u16;
            (0..4).fold(0u16, |m, q| {
                if quads >> q & 1 == 1 {
                    m | 0xf << (4 * q)
                } else {
                    m
                }
            })
        } else {
            (rng.next() as u16) & !(1 << rng.below(16))
        };
        check(
            &b,
            &mut rng,
            case,
            &c[..ncoord],
            lod,
            &lod_reg,
            &grads,
            &cmp,
            offset,
            dead,
        );
        by_target[ti] += 1;
    }
    // Every target drawn often enough to reach its paths.
    for (t, n) in TARGETS.iter().zip(by_target) {
        assert!(n > cases as u32 / 10, "target {t:?} drawn only {n} times");
    }
}
