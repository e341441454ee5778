//! The sampler variants ([`texture::SamplerVariant`], the 16-lane routines chosen
//! once per binding from its static state) against the quad sampler
//! ([`texture::sample_quad`], the generic path), bit for bit (RGBA8 3D filtered
//! linearly, RGBA8 trilinear with two or three filtered axes, and
//! `texture::sample`'s RGBA8 2D fast paths filtering linearly: within the
//! fixed-point bound of `texture::unorm8`), over pseudo-random
//! states drawn mostly from what the variants cover: every target, every format
//! (depth formats with and without every compare function), nearest/linear
//! magnification and minification, every mip mode, LOD bias and min/max clamps,
//! implicit LOD, bias and explicit LOD, offsets, repeat and clamp-to-edge per axis
//! on power-of-two and other sizes, swizzles; and now and then a state or request
//! the variants must refuse (other wraps, truncated levels, gradients, NaN and huge
//! coordinates), where the routine must return `None` or the same result. The test
//! counts the states it compared and fails if one was never reached.

mod common;

use std::collections::BTreeSet;

use common::sampling::*;
use rgl_backend::driver::{Filter, SamplerState, Swizzle, TexTarget, Wrap};
use rgl_backend::exec::{Reg, LANES};
use rgl_backend::format::Format;
use rgl_backend::texture::{
    sample, sample_quad, LodMode, SampleRequest, TexView, TextureBinding, QUAD,
};

/// Coordinates: five scales, a far request in 40, NaN lanes (one in 8) in one
/// request in 40.
const COORDS: CoordMix<'static> = CoordMix {
    scales: &[0.001, 0.02, 0.1, 0.3, 2.0],
    far_one_in: 40,
    nan: NanLanes::PerRequest(40, 8),
};

/// Textures: power-of-two sides most of the time (repeat needs them), a full
/// mip chain or part of one, rarely a truncated level.
const TEXTURES: TextureMix = TextureMix {
    pow2: |r| r.below(4) != 0,
    pow2_log: 5,
    side_max: [17, 17, 9],
    levels: 5,
    truncate_one_in: Some(100),
};

fn wrap(rng: &mut Rng) -> Wrap {
    if rng.below(30) == 0 {
        rng.pick(&[
            Wrap::MirroredRepeat,
            Wrap::ClampToBorder,
            Wrap::MirrorClampToEdge,
            Wrap::Clamp,
        ])
    } else {
        rng.pick(&[Wrap::Repeat, Wrap::ClampToEdge])
    }
}

/// A random sampler state (`min_lod <= max_lod`, as GL requires for defined results).
fn sampler(rng: &mut Rng, format: Format) -> SamplerState {
    let min_lod = if rng.below(4) == 0 { rng.f() } else { -1000.0 };
    SamplerState {
        wrap: [wrap(rng), wrap(rng), wrap(rng)],
        mag: rng.pick(&FILTERS),
        min: rng.pick(&FILTERS),
        mip: rng.pick(&MIPS),
        lod_bias: if rng.below(3) == 0 {
            rng.f() * 2.0 - 1.0
        } else {
            0.0
        },
        min_lod,
        max_lod: if rng.below(4) == 0 {
            1.0 + rng.f() * 2.0
        } else {
            1000.0
        },
        border: [rng.f(), rng.f(), rng.f(), rng.f()],
        compare: (format.is_depth() && rng.below(2) == 0).then(|| rng.pick(&FUNCS)),
    }
}

#[test]
fn sampler_variants_match_the_quad_sampler() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let (cases, mut compared, mut refused) = (40_000, 0u32, 0u32);
    for case in 0..cases {
        let target = rng.pick(&TARGETS);
        let format = rng.pick(&Format::ALL);
        let levels = random_texture(&mut rng, target, format, &TEXTURES);
        let s = sampler(&mut rng, format);
        let swizzle = random_swizzle(&mut rng, 4);
        let view = TexView {
            swizzle,
            ..TexView::new(target, format, &levels)
        };
        let b = TextureBinding::new(view, s);
        let c = coords(&mut rng, &COORDS);
        let lod = lane_reg(&mut rng, -1.5, 4.5);
        let cmp = lane_reg(&mut rng, -0.1, 1.1);
        let gx: Vec<Reg> = (0..3).map(|_| lane_reg(&mut rng, -0.2, 0.2)).collect();
        let gy: Vec<Reg> = (0..3).map(|_| lane_reg(&mut rng, -0.2, 0.2)).collect();
        let ncoord = match target {
            TexTarget::D1 => 1,
            TexTarget::D2 | TexTarget::Rect | TexTarget::D1Array => 2,
            _ => 3,
        };
        let (lm, lod_name) = match rng.below(10) {
            0..=3 => (LodMode::Implicit(None), "implicit"),
            4..=5 => (LodMode::Implicit(Some(&lod)), "bias"),
            6..=8 => (LodMode::Lod(&lod), "lod"),
            _ => (LodMode::Grad(&gx[..ncoord], &gy[..ncoord]), "grad"),
        };
        let offset = if rng.below(3) == 0 {
            [
                rng.below(5) as i32 - 2,
                rng.below(5) as i32 - 2,
                rng.below(3) as i32 - 1,
            ]
        } else {
            [0; 3]
        };
        let req = SampleRequest {
            coords: &c[..ncoord],
            lod: lm,
            offset,
            compare: Some(&cmp),
        };
        let want: Vec<_> = (0..LANES / QUAD)
            .map(|q| sample_quad(&b, &quad_request(&req, q)))
            .collect();
        // The 16-lane entry point takes the variant (or an RGBA8 2D fast path) too.
        let entry = sample(&b, &req);
        // RGBA8 3D filtered linearly takes the fixed-point filter (`texture::unorm8`),
        // and so do RGBA8 trilinear lookups with two filtered axes and the entry
        // point's RGBA8 2D and rectangle fast paths.
        let linear =
            format == Format::Rgba8Unorm && (s.mag == Filter::Linear || s.min == Filter::Linear);
        let trilinear = s.mip == rgl_backend::driver::MipFilter::Linear
            && !matches!(target, TexTarget::D1 | TexTarget::D1Array);
        let fixed = linear && (target == TexTarget::D3 || trilinear);
        let entry_fixed = fixed || (linear && matches!(target, TexTarget::D2 | TexTarget::Rect));
        let Some(got) = b.variant.run(&b, &req) else {
            refused += 1;
            if b.variant.is_specialized() {
                seen.insert("refused request".to_string());
            }
            for ch in 0..4 {
                for l in 0..LANES {
                    assert!(
                        unorm8_close(
                            entry[ch].0[l],
                            want[l / QUAD][ch][l % QUAD].to_bits(),
                            entry_fixed
                        ),
                        "case {case}: texture::sample lane {l} channel {ch}"
                    );
                }
            }
            continue;
        };
        compared += 1;
        for k in [
            format!("target {target:?}"),
            format!("format {format:?}"),
            format!("mag {:?} min {:?} mip {:?}", s.mag, s.min, s.mip),
            format!("lod {lod_name}"),
            format!("levels {}", levels.len()),
            format!("compare {}", s.compare.is_some()),
            format!("wrap {:?}", s.wrap[0]),
            format!("offset {}", offset != [0; 3]),
            format!("swizzle {}", swizzle != Swizzle::IDENTITY),
        ] {
            seen.insert(k);
        }
        if let Some(f) = s.compare {
            seen.insert(format!("func {f:?}"));
        }
        // One comparing LINEAR level of a 2D or rectangle texture of a 4- or
        // 8-byte depth format: the vector percentage-closer filter
        // (`texture::shadow2d`) on AVX2 CPUs.
        let one_level = s.mip == rgl_backend::driver::MipFilter::None || levels.len() == 1;
        if s.compare.is_some()
            && one_level
            && s.mag == Filter::Linear
            && s.min == Filter::Linear
            && format.is_depth()
            && format != Format::Z16Unorm
        {
            seen.insert(format!("pcf {target:?} {format:?}"));
        }
        for ch in 0..4 {
            for l in 0..LANES {
                let w = want[l / QUAD][ch][l % QUAD].to_bits();
                for (what, g, fixed) in [
                    ("variant", got[ch].0[l], fixed),
                    ("texture::sample", entry[ch].0[l], entry_fixed),
                ] {
                    assert!(
                        unorm8_close(g, w, fixed),
                        "case {case}: {what} {target:?} {format:?} {} levels {s:?} swizzle \
                         {swizzle:?} lod {lod_name} offset {offset:?}, lane {l} channel {ch}: \
                         {} vs the quad sampler's {}",
                        levels.len(),
                        f32::from_bits(g),
                        f32::from_bits(w)
                    );
                }
            }
        }
    }
    println!("{compared} requests compared, {refused} refused (generic path)");
    let mut missing = Vec::new();
    for t in TARGETS {
        missing.push(format!("target {t:?}"));
    }
    for f in Format::ALL {
        missing.push(format!("format {f:?}"));
    }
    for mag in FILTERS {
        for min in FILTERS {
            for mip in MIPS {
                missing.push(format!("mag {mag:?} min {min:?} mip {mip:?}"));
            }
        }
    }
    for l in ["implicit", "bias", "lod"] {
        missing.push(format!("lod {l}"));
    }
    for n in 1..=5 {
        missing.push(format!("levels {n}"));
    }
    for w in [Wrap::Repeat, Wrap::ClampToEdge] {
        missing.push(format!("wrap {w:?}"));
    }
    for f in FUNCS {
        missing.push(format!("func {f:?}"));
    }
    for t in [TexTarget::D2, TexTarget::Rect] {
        for f in Format::ALL {
            if f.is_depth() && f != Format::Z16Unorm {
                missing.push(format!("pcf {t:?} {f:?}"));
            }
        }
    }
    missing.extend(
        [
            "compare true",
            "compare false",
            "offset true",
            "swizzle true",
            "refused request",
        ]
        .map(String::from),
    );
    missing.retain(|k| !seen.contains(k));
    assert!(missing.is_empty(), "states never compared: {missing:?}");
    assert!(
        compared > cases / 2,
        "only {compared} of {cases} requests reached a variant"
    );
}
