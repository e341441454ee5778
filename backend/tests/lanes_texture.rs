//! The RGBA8 2D sampling fast paths the lane compiler's texture ops hit (bilinear /
//! nearest without closures, level 0 when the LOD cannot matter, power-of-two repeat
//! by mask) against the generic path: the same texels stored as RGBA32F (each channel
//! the exact float the RGBA8 decode gives) must sample to bit-identical results, for
//! every wrap mode, filter combination, power-of-two and other sizes, 2D and rectangle
//! targets, implicit and explicit LOD, explicit derivatives, bias and offsets, over pseudo-random
//! coordinates (some far outside [0, 1], some NaN). Lookups whose lanes all
//! filter bilinearly take the fixed-point filter (`texture::linear8`, both
//! levels of a trilinear lookup and their blend in 16-bit fixed point), so a
//! state with a LINEAR filter matches within the fixed-point bound
//! ([`common::sampling::UNORM8_BOUND`]); NEAREST-only states still match bit
//! for bit.

mod common;

use common::sampling::{unorm8_close, Rng, WRAPS};
use rgl_backend::driver::{Filter, MipFilter, SamplerState, Wrap};
use rgl_backend::driver::{Swizzle, TexTarget};
use rgl_backend::exec::{Reg, LANES};
use rgl_backend::format::Format;
use rgl_backend::texture::*;

/// A coordinate: NaN one time in 16, far outside [0, 1] one in 16, else near it.
fn coord(rng: &mut Rng) -> f32 {
    match rng.next() % 16 {
        0 => f32::NAN,
        1 => (rng.next() % 2000) as f32 / 10.0 - 100.0,
        _ => (rng.next() % 100_000) as f32 / 50_000.0 - 0.5,
    }
}

type Levels = Vec<(u32, u32, Vec<u8>)>;

/// Levels as RGBA8 and as the equivalent RGBA32F.
fn levels(sizes: &[(u32, u32)], rng: &mut Rng) -> (Levels, Levels) {
    let mut a = Vec::new();
    let mut b = Vec::new();
    for &(w, h) in sizes {
        let bytes: Vec<u8> = (0..w * h * 4).map(|_| (rng.next() % 256) as u8).collect();
        let floats: Vec<u8> = bytes
            .iter()
            .flat_map(|&x| (x as f32 * (1.0 / 255.0)).to_le_bytes())
            .collect();
        a.push((w, h, bytes));
        b.push((w, h, floats));
    }
    (a, b)
}

fn binding<'a>(
    target: TexTarget,
    format: Format,
    lv: &'a Levels,
    sampler: SamplerState,
) -> TextureBinding<'a> {
    TextureBinding::new(
        TexView {
            target,
            format,
            levels: lv
                .iter()
                .map(|(w, h, data)| MipLevel {
                    data,
                    width: *w,
                    height: *h,
                    depth: 1,
                })
                .collect(),
            swizzle: Swizzle::IDENTITY,
        },
        sampler,
    )
}

#[test]
fn rgba8_fast_paths_match_the_generic_path() {
    let mut rng = Rng(0x1234_5678);
    let cases: [(TexTarget, &[(u32, u32)]); 4] = [
        (TexTarget::D2, &[(8, 4), (4, 2), (2, 1), (1, 1)]),
        (TexTarget::D2, &[(7, 5), (3, 2), (1, 1)]),
        (TexTarget::D2, &[(16, 16)]),
        (TexTarget::Rect, &[(6, 4)]),
    ];
    let mut checked = 0;
    for (target, sizes) in cases {
        let (a, b) = levels(sizes, &mut rng);
        for ws in WRAPS {
            for wt in WRAPS {
                for (mag, min, mip) in [
                    (Filter::Nearest, Filter::Nearest, MipFilter::None),
                    (Filter::Linear, Filter::Linear, MipFilter::None),
                    (Filter::Linear, Filter::Linear, MipFilter::Nearest),
                    (Filter::Nearest, Filter::Linear, MipFilter::Linear),
                    (Filter::Linear, Filter::Nearest, MipFilter::Linear),
                    (Filter::Linear, Filter::Linear, MipFilter::Linear),
                    (Filter::Nearest, Filter::Nearest, MipFilter::Linear),
                    (Filter::Nearest, Filter::Nearest, MipFilter::Nearest),
                ] {
                    let s = SamplerState {
                        wrap: [ws, wt, Wrap::Repeat],
                        mag,
                        min,
                        mip,
                        border: [0.25, 0.5, 0.75, 1.0],
                        lod_bias: 0.25,
                        ..SamplerState::default()
                    };
                    let fast = binding(target, Format::Rgba8Unorm, &a, s);
                    let slow = binding(target, Format::Rgba32Float, &b, s);
                    for round in 0..8 {
                        let mut coords = [Reg::default(); 2];
                        for c in coords.iter_mut() {
                            for l in 0..LANES {
                                c.set_f(l, coord(&mut rng));
                            }
                        }
                        let lod = Reg::from_f32(
                            &[0.0; LANES].map(|_| (rng.next() % 40) as f32 / 10.0 - 1.0),
                        );
                        // Explicit derivatives (`textureGrad`) from -0.3 to 0.3
                        // per axis: magnified and minified lanes.
                        let grad = |rng: &mut Rng| {
                            Reg::from_f32(
                                &[0.0; LANES].map(|_| (rng.next() % 1000) as f32 * 0.0006 - 0.3),
                            )
                        };
                        let gx = [grad(&mut rng), grad(&mut rng)];
                        let gy = [grad(&mut rng), grad(&mut rng)];
                        let offset = [round % 3 - 1, round % 2, 0];
                        let mode = match round % 4 {
                            0 => LodMode::Implicit(None),
                            1 => LodMode::Implicit(Some(&lod)),
                            2 => LodMode::Lod(&lod),
                            _ => LodMode::Grad(&gx, &gy),
                        };
                        let req = SampleRequest {
                            coords: &coords,
                            lod: mode,
                            offset,
                            compare: None,
                        };
                        let x = sample(&fast, &req);
                        let y = sample(&slow, &req);
                        let fixed = mag == Filter::Linear || min == Filter::Linear;
                        for c in 0..4 {
                            for l in 0..LANES {
                                let (p, q) = (x[c].0[l], y[c].0[l]);
                                assert!(
                                    unorm8_close(p, q, fixed),
                                    "{target:?} {sizes:?} {s:?} round {round} lane {l} channel {c}: \
                                     fast {} generic {}",
                                    f32::from_bits(p),
                                    f32::from_bits(q)
                                );
                            }
                        }
                        checked += 1;
                    }
                }
            }
        }
    }
    assert_eq!(checked, 4 * 36 * 8 * 8);
}
