//! Texture sampling over lanes checked against a scalar reference written from the GL
//! spec's sampling equations (§8.14: coordinate wrapping, nearest / linear filters,
//! mipmap selection, shadow comparison), over pseudo-random coordinates, for every
//! wrap mode, filter combination and target; plus implicit LOD from quad derivatives,
//! texelFetch bounds, textureSize, offsets and cube face selection.

mod common;

use common::sampling::{Rng, FUNCS, WRAPS};
use rgl_backend::driver::TexTarget;
use rgl_backend::driver::{Filter, MipFilter, SamplerState, Wrap};
use rgl_backend::exec::{Reg, LANES};
use rgl_backend::format::Format;
use rgl_backend::texture::*;

/// Texel storage for a test texture: RGBA32F levels, each (w, h, d) with texel values
/// derived from their position so every texel differs.
struct Tex {
    target: TexTarget,
    format: Format,
    levels: Vec<(u32, u32, u32, Vec<u8>)>,
}

impl Tex {
    fn new(target: TexTarget, format: Format, sizes: &[(u32, u32, u32)], rng: &mut Rng) -> Tex {
        let levels = sizes
            .iter()
            .map(|&(w, h, d)| {
                let bpp = format.bytes_per_pixel();
                let mut data = vec![0u8; (w * h * d) as usize * bpp];
                for t in data.chunks_mut(bpp) {
                    format.encode_rgba([rng.f(), rng.f(), rng.f(), rng.f()], t);
                }
                (w, h, d, data)
            })
            .collect();
        Tex {
            target,
            format,
            levels,
        }
    }
    fn binding(&self, sampler: SamplerState) -> TextureBinding<'_> {
        TextureBinding::new(
            TexView::new(self.target, self.format, &self.levels),
            sampler,
        )
    }
    fn texel(&self, level: usize, x: i64, y: i64, z: i64) -> [f32; 4] {
        let (w, h, _, data) = &self.levels[level];
        let bpp = self.format.bytes_per_pixel();
        let off = ((z as usize * *h as usize + y as usize) * *w as usize + x as usize) * bpp;
        self.format.decode_rgba(&data[off..off + bpp])
    }
}

/// GL §8.14.2 nearest: wrap the coordinate, then take floor(u) — the coordinate-space
/// formulation of table 8.20.
fn ref_nearest_index(s: f32, n: i64, wrap: Wrap, normalized: bool) -> Option<i64> {
    let nf = n as f32;
    let u = if normalized { s * nf } else { s };
    let i = match wrap {
        Wrap::Repeat => {
            let f = u / nf - (u / nf).floor();
            (f * nf).floor() as i64
        }
        Wrap::ClampToEdge => u.clamp(0.0, nf - 0.5).floor() as i64,
        Wrap::Clamp => u.clamp(0.0, nf).floor() as i64,
        Wrap::ClampToBorder => u.clamp(-0.5, nf + 0.5).floor() as i64,
        Wrap::MirroredRepeat => {
            let p = u / nf;
            let fl = p.floor();
            let fr = p - fl;
            let m = if (fl as i64).rem_euclid(2) == 0 {
                fr
            } else {
                1.0 - fr
            };
            (m * nf).floor() as i64
        }
        Wrap::MirrorClampToEdge => {
            let m = if u < 0.0 { -u } else { u };
            m.floor() as i64
        }
    };
    match wrap {
        Wrap::ClampToBorder => (0..n).contains(&i).then_some(i),
        _ => Some(i.clamp(0, n - 1)),
    }
}

/// GL §8.14.2 linear: i0 = wrap(floor(u - 1/2)), i1 = wrap(i0 + 1) with the
/// per-mode index wrap of table 8.20.
fn ref_wrap_int(i: i64, n: i64, wrap: Wrap) -> Option<i64> {
    match wrap {
        Wrap::Repeat => Some(((i % n) + n) % n),
        Wrap::ClampToEdge => Some(i.max(0).min(n - 1)),
        Wrap::ClampToBorder | Wrap::Clamp => {
            if i < 0 || i >= n {
                None
            } else {
                Some(i)
            }
        }
        Wrap::MirroredRepeat => {
            let size2 = 2 * n;
            let m = ((i % size2) + size2) % size2;
            Some(if m < n { m } else { size2 - 1 - m })
        }
        Wrap::MirrorClampToEdge => Some(if i < 0 { -(i + 1) } else { i }.min(n - 1)),
    }
}

fn lerp(a: [f32; 4], b: [f32; 4], t: f32) -> [f32; 4] {
    [0, 1, 2, 3].map(|c| a[c] * (1.0 - t) + b[c] * t)
}

/// Scalar reference for 1D/2D/3D/array textures at an explicit λ.
fn reference(
    tex: &Tex,
    s: &SamplerState,
    coord: [f32; 3],
    lambda: f32,
    offset: [i32; 3],
) -> [f32; 4] {
    let dims = match tex.target {
        TexTarget::D1 | TexTarget::D1Array => 1,
        TexTarget::D3 => 3,
        _ => 2,
    };
    let normalized = tex.target != TexTarget::Rect;
    let lam = (lambda + s.lod_bias).clamp(s.min_lod, s.max_lod);
    let q = tex.levels.len() - 1;
    let layer = |n: u32, v: f32| ((v + 0.5).floor().max(0.0) as i64).min(n as i64 - 1);
    let sample_level = |lvl: usize, filter: Filter| -> [f32; 4] {
        let (w, h, d, _) = tex.levels[lvl];
        let size = [w as i64, h as i64, d as i64];
        let mut fixed = [None, None, None];
        match tex.target {
            TexTarget::D1Array => fixed[1] = Some(layer(h, coord[1])),
            TexTarget::D2Array => fixed[2] = Some(layer(d, coord[2])),
            _ => {}
        }
        for a in dims..3 {
            fixed[a] = fixed[a].or(Some(0));
        }
        let u = |a: usize| {
            let base = if normalized {
                coord[a] * size[a] as f32
            } else {
                coord[a]
            };
            let base = if s.wrap[a] == Wrap::Clamp {
                base.clamp(0.0, size[a] as f32)
            } else {
                base
            };
            base + offset[a] as f32
        };
        match filter {
            Filter::Nearest => {
                let mut idx = [Some(0i64); 3];
                for a in 0..3 {
                    idx[a] = match fixed[a] {
                        Some(v) => Some(v),
                        None => ref_nearest_index(
                            u(a) / if normalized { size[a] as f32 } else { 1.0 },
                            size[a],
                            s.wrap[a],
                            normalized,
                        ),
                    };
                }
                match idx {
                    [Some(x), Some(y), Some(z)] => tex.texel(lvl, x, y, z),
                    _ => s.border,
                }
            }
            Filter::Linear => {
                let mut i0 = [None; 3];
                let mut i1 = [None; 3];
                let mut fr = [0.0f32; 3];
                for a in 0..3 {
                    match fixed[a] {
                        Some(v) => {
                            i0[a] = Some(v);
                            i1[a] = Some(v);
                        }
                        None => {
                            let x = u(a) - 0.5;
                            let fl = x.floor();
                            fr[a] = x - fl;
                            i0[a] = ref_wrap_int(fl as i64, size[a], s.wrap[a]);
                            i1[a] = ref_wrap_int(fl as i64 + 1, size[a], s.wrap[a]);
                        }
                    }
                }
                let t = |x: Option<i64>, y: Option<i64>, z: Option<i64>| match (x, y, z) {
                    (Some(x), Some(y), Some(z)) => tex.texel(lvl, x, y, z),
                    _ => s.border,
                };
                let row = |y, z| lerp(t(i0[0], y, z), t(i1[0], y, z), fr[0]);
                let plane = |z| {
                    if dims >= 2 {
                        lerp(row(i0[1], z), row(i1[1], z), fr[1])
                    } else {
                        row(i0[1], z)
                    }
                };
                if dims == 3 {
                    lerp(plane(i0[2]), plane(i1[2]), fr[2])
                } else {
                    plane(i0[2])
                }
            }
        }
    };
    if lam <= 0.0 {
        return sample_level(0, s.mag);
    }
    match s.mip {
        MipFilter::None => sample_level(0, s.min),
        MipFilter::Nearest => {
            let d = if lam <= 0.5 {
                0
            } else {
                (((lam + 0.5).ceil() - 1.0) as usize).min(q)
            };
            sample_level(d, s.min)
        }
        MipFilter::Linear => {
            let d1 = (lam.floor() as usize).min(q);
            if d1 >= q {
                sample_level(q, s.min)
            } else {
                lerp(
                    sample_level(d1, s.min),
                    sample_level(d1 + 1, s.min),
                    lam.fract(),
                )
            }
        }
    }
}

fn regs(v: &[[f32; LANES]]) -> Vec<Reg> {
    v.iter().map(Reg::from_f32).collect()
}

fn check(tex: &Tex, s: SamplerState, rng: &mut Rng, what: &str, offset: [i32; 3]) {
    let b = tex.binding(s);
    for _ in 0..8 {
        let mut c = [[0.0f32; LANES]; 3];
        let mut lod = [0.0f32; LANES];
        for l in 0..LANES {
            for a in 0..3 {
                c[a][l] = rng.range(-2.3, 2.7);
            }
            if tex.target == TexTarget::D2Array || tex.target == TexTarget::D1Array {
                let ax = if tex.target == TexTarget::D2Array {
                    2
                } else {
                    1
                };
                c[ax][l] = rng.range(-1.0, 5.0);
            }
            if tex.target == TexTarget::Rect {
                c[0][l] *= 6.0;
                c[1][l] *= 6.0;
            }
            lod[l] = rng.range(-1.5, 4.0);
        }
        let coords = regs(&c);
        let lodr = Reg::from_f32(&lod);
        let out = sample(
            &b,
            &SampleRequest {
                coords: &coords,
                lod: LodMode::Lod(&lodr),
                offset,
                compare: None,
            },
        );
        for l in 0..LANES {
            let want = reference(tex, &s, [c[0][l], c[1][l], c[2][l]], lod[l], offset);
            for k in 0..4 {
                assert!(
                    (out[k].f(l) - want[k]).abs() < 1e-4,
                    "{what} {s:?} coord {:?} lod {}: got {} want {}",
                    [c[0][l], c[1][l], c[2][l]],
                    lod[l],
                    out[k].f(l),
                    want[k]
                );
            }
        }
    }
}

#[test]
fn sample_2d_all_wraps_and_filters_match_reference() {
    let mut rng = Rng(7);
    let tex = Tex::new(
        TexTarget::D2,
        Format::Rgba32Float,
        &[(7, 5, 1), (3, 2, 1), (1, 1, 1)],
        &mut rng,
    );
    for ws in WRAPS {
        for wt in WRAPS {
            for (mag, min, mip) in [
                (Filter::Nearest, Filter::Nearest, MipFilter::None),
                (Filter::Linear, Filter::Linear, MipFilter::None),
                (Filter::Nearest, Filter::Linear, MipFilter::Nearest),
                (Filter::Linear, Filter::Nearest, MipFilter::Linear),
                (Filter::Linear, Filter::Linear, MipFilter::Linear),
            ] {
                let s = SamplerState {
                    wrap: [ws, wt, Wrap::Repeat],
                    mag,
                    min,
                    mip,
                    border: [0.25, 0.5, 0.75, 1.0],
                    lod_bias: 0.25,
                    min_lod: -0.5,
                    max_lod: 3.0,
                    compare: None,
                };
                check(&tex, s, &mut rng, "2D", [0, 0, 0]);
            }
        }
    }
}

#[test]
fn sample_other_targets_and_formats_match_reference() {
    let mut rng = Rng(11);
    // (target, format, level sizes)
    type Case = (TexTarget, Format, Vec<(u32, u32, u32)>);
    let cases: Vec<Case> = vec![
        (
            TexTarget::D1,
            Format::Rgba8Unorm,
            vec![(9, 1, 1), (4, 1, 1), (2, 1, 1), (1, 1, 1)],
        ),
        (
            TexTarget::D1Array,
            Format::Rg8Unorm,
            vec![(6, 3, 1), (3, 3, 1)],
        ),
        (
            TexTarget::D2Array,
            Format::Rgba16Float,
            vec![(4, 6, 3), (2, 3, 3), (1, 1, 3)],
        ),
        (
            TexTarget::D3,
            Format::Rgba32Float,
            vec![(4, 3, 5), (2, 1, 2), (1, 1, 1)],
        ),
        (TexTarget::Rect, Format::R8Unorm, vec![(6, 4, 1)]),
        (TexTarget::D2, Format::Z32Float, vec![(5, 5, 1), (2, 2, 1)]),
    ];
    for (target, format, sizes) in cases {
        let tex = Tex::new(target, format, &sizes, &mut rng);
        for w in WRAPS {
            if target == TexTarget::Rect
                && matches!(
                    w,
                    Wrap::Repeat | Wrap::MirroredRepeat | Wrap::MirrorClampToEdge
                )
            {
                continue; // rectangle textures only allow clamp modes
            }
            for (f, mip) in [
                (Filter::Nearest, MipFilter::Nearest),
                (Filter::Linear, MipFilter::Linear),
            ] {
                let s = SamplerState {
                    wrap: [w; 3],
                    mag: f,
                    min: f,
                    mip,
                    border: [1.0, 0.0, 0.5, 0.25],
                    ..Default::default()
                };
                check(
                    &tex,
                    s,
                    &mut rng,
                    &format!("{target:?} {format:?}"),
                    [0, 0, 0],
                );
                if target != TexTarget::Rect {
                    check(
                        &tex,
                        s,
                        &mut rng,
                        &format!("{target:?} {format:?} offset"),
                        [-1, 2, 1],
                    );
                }
            }
        }
    }
}

#[test]
fn implicit_lod_from_quad_derivatives() {
    let mut rng = Rng(3);
    let tex = Tex::new(
        TexTarget::D2,
        Format::Rgba32Float,
        &[(16, 16, 1), (8, 8, 1), (4, 4, 1), (2, 2, 1), (1, 1, 1)],
        &mut rng,
    );
    let s = SamplerState {
        mag: Filter::Linear,
        min: Filter::Linear,
        mip: MipFilter::Linear,
        ..Default::default()
    };
    let b = tex.binding(s);
    for scale in [0.01f32, 0.05, 0.1, 0.3, 0.7] {
        // Each quad: s steps by `scale` per pixel in x, t by scale/2 per pixel in y.
        let mut c = [[0.0f32; LANES]; 2];
        let mut base = [[0.0f32; 2]; 4];
        for q in 0..4 {
            base[q] = [rng.f(), rng.f()];
            for p in 0..4 {
                let (px, py) = ((p & 1) as f32, (p >> 1) as f32);
                c[0][4 * q + p] = base[q][0] + px * scale;
                c[1][4 * q + p] = base[q][1] + py * scale * 0.5;
            }
        }
        let coords = regs(&c);
        let bias = Reg::splat_f(0.5);
        let out = sample(
            &b,
            &SampleRequest {
                coords: &coords,
                lod: LodMode::Implicit(Some(&bias)),
                offset: [0; 3],
                compare: None,
            },
        );
        let lambda = (scale * 16.0).log2() + 0.5;
        let explicit = Reg::splat_f(lambda);
        let want = sample(
            &b,
            &SampleRequest {
                coords: &coords,
                lod: LodMode::Lod(&explicit),
                offset: [0; 3],
                compare: None,
            },
        );
        for l in 0..LANES {
            let r = reference(&tex, &s, [c[0][l], c[1][l], 0.0], lambda, [0; 3]);
            for k in 0..4 {
                assert!((out[k].f(l) - want[k].f(l)).abs() < 1e-5, "scale {scale}");
                assert!(
                    (out[k].f(l) - r[k]).abs() < 1e-4,
                    "scale {scale} vs reference"
                );
            }
        }
        // Gradients given explicitly pick the same level.
        let gx = regs(&[[scale; LANES], [0.0; LANES]]);
        let gy = regs(&[[0.0; LANES], [scale * 0.5; LANES]]);
        let s2 = SamplerState { lod_bias: 0.5, ..s };
        let b2 = tex.binding(s2);
        let g = sample(
            &b2,
            &SampleRequest {
                coords: &coords,
                lod: LodMode::Grad(&gx, &gy),
                offset: [0; 3],
                compare: None,
            },
        );
        for l in 0..LANES {
            for k in 0..4 {
                assert!(
                    (g[k].f(l) - want[k].f(l)).abs() < 1e-5,
                    "grad scale {scale}"
                );
            }
        }
    }
}

#[test]
fn shadow_compare_every_func() {
    let mut rng = Rng(5);
    let tex = Tex::new(TexTarget::D2, Format::Z24UnormS8, &[(4, 4, 1)], &mut rng);
    for f in FUNCS {
        for filter in [Filter::Nearest, Filter::Linear] {
            let s = SamplerState {
                wrap: [Wrap::ClampToEdge; 3],
                mag: filter,
                min: filter,
                mip: MipFilter::None,
                compare: Some(f),
                ..Default::default()
            };
            let b = tex.binding(s);
            let mut c = [[0.0f32; LANES]; 2];
            let mut r = [0.0f32; LANES];
            for l in 0..LANES {
                c[0][l] = rng.f();
                c[1][l] = rng.f();
                r[l] = if l == 0 { 1.5 } else { rng.range(-0.2, 1.2) };
            }
            // Lane 1 compares against its exact texel value (Equal must pass).
            c[0][1] = 0.375;
            c[1][1] = 0.625;
            r[1] = tex.texel(0, 1, 2, 0)[0];
            let coords = regs(&c);
            let refr = Reg::from_f32(&r);
            let zero = Reg::splat_f(0.0);
            let out = sample(
                &b,
                &SampleRequest {
                    coords: &coords,
                    lod: LodMode::Lod(&zero),
                    offset: [0; 3],
                    compare: Some(&refr),
                },
            );
            for l in 0..LANES {
                let rr = r[l].clamp(0.0, 1.0);
                // Reference: compare each texel, then filter the 0/1 results.
                let (w, h) = (4i64, 4i64);
                let want = match filter {
                    Filter::Nearest => {
                        let x = ((c[0][l] * 4.0).floor() as i64).clamp(0, w - 1);
                        let y = ((c[1][l] * 4.0).floor() as i64).clamp(0, h - 1);
                        f.test(rr, tex.texel(0, x, y, 0)[0]) as u32 as f32
                    }
                    Filter::Linear => {
                        let u = c[0][l] * 4.0 - 0.5;
                        let v = c[1][l] * 4.0 - 0.5;
                        let (x0, y0) = (u.floor(), v.floor());
                        let (a, bb) = (u - x0, v - y0);
                        let t = |x: f32, y: f32| {
                            let x = (x as i64).clamp(0, w - 1);
                            let y = (y as i64).clamp(0, h - 1);
                            f.test(rr, tex.texel(0, x, y, 0)[0]) as u32 as f32
                        };
                        (1.0 - a) * (1.0 - bb) * t(x0, y0)
                            + a * (1.0 - bb) * t(x0 + 1.0, y0)
                            + (1.0 - a) * bb * t(x0, y0 + 1.0)
                            + a * bb * t(x0 + 1.0, y0 + 1.0)
                    }
                };
                assert!(
                    (out[0].f(l) - want).abs() < 1e-5,
                    "{f:?} {filter:?} lane {l}: {} vs {want}",
                    out[0].f(l)
                );
            }
            if filter == Filter::Nearest {
                assert_eq!(
                    out[0].f(1),
                    [0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 1.0]
                        [FUNCS.iter().position(|x| *x == f).unwrap()],
                    "{f:?} equal lane"
                );
            }
        }
    }
}

#[test]
fn texel_fetch_size_and_levels() {
    let mut rng = Rng(9);
    let tex = Tex::new(
        TexTarget::D2Array,
        Format::Rgba8Unorm,
        &[(5, 3, 2), (2, 1, 2)],
        &mut rng,
    );
    let b = tex.binding(SamplerState::default());
    let xs: [i32; LANES] = [0, 4, 5, -1, 1, 0, 2, 1, 0, 1, 0, 3, 4, 0, 0, 1];
    let ys: [i32; LANES] = [0, 2, 0, 0, 3, 1, 1, 0, 0, 0, -5, 1, 2, 0, 0, 0];
    let zs: [i32; LANES] = [0, 1, 0, 0, 0, 2, 1, 1, 0, 0, 0, 1, 1, 0, 0, 0];
    let lods: [i32; LANES] = [0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 0, 0, -1, 0, 0, 0];
    let u = |v: [i32; LANES]| Reg(v.map(|x| x as u32));
    let coords = [u(xs), u(ys), u(zs)];
    let lod = u(lods);
    let out = fetch(
        &b,
        &FetchRequest {
            coords: &coords,
            lod: Some(&lod),
            offset: [0; 3],
        },
    );
    for l in 0..LANES {
        let lvl = lods[l];
        let inside = lvl >= 0 && (lvl as usize) < tex.levels.len() && {
            let (w, h, d, _) = tex.levels[lvl as usize];
            (0..w as i32).contains(&xs[l])
                && (0..h as i32).contains(&ys[l])
                && (0..d as i32).contains(&zs[l])
        };
        let want = if inside {
            tex.texel(lvl as usize, xs[l] as i64, ys[l] as i64, zs[l] as i64)
        } else {
            [0.0; 4]
        };
        for k in 0..4 {
            assert_eq!(out[k].f(l), want[k], "lane {l}");
        }
    }
    let sz = size(&b, &Reg(std::array::from_fn(|l| (l % 4) as u32)));
    assert_eq!([sz[0].0[0], sz[1].0[0], sz[2].0[0]], [5, 3, 2]);
    assert_eq!([sz[0].0[1], sz[1].0[1], sz[2].0[1]], [2, 1, 2]);
    assert_eq!([sz[0].0[2], sz[1].0[2], sz[2].0[2]], [0, 0, 0]);
    assert_eq!(query_levels(&b), 2);
}

#[test]
fn cube_faces_are_selected_by_major_axis() {
    // Each face is a 2×2 of one color: face index in red / 8.
    let mut levels = Vec::new();
    let mut data = Vec::new();
    for face in 0..6 {
        for _ in 0..4 {
            let mut t = [0u8; 16];
            Format::Rgba32Float.encode_rgba([face as f32 / 8.0, 0.0, 0.0, 1.0], &mut t);
            data.extend_from_slice(&t);
        }
    }
    levels.push((2u32, 2u32, 6u32, data));
    let tex = Tex {
        target: TexTarget::Cube,
        format: Format::Rgba32Float,
        levels,
    };
    let b = tex.binding(SamplerState {
        min: Filter::Nearest,
        mag: Filter::Nearest,
        mip: MipFilter::None,
        ..Default::default()
    });
    let dirs: [[f32; 3]; 6] = [
        [1.0, 0.2, -0.3],
        [-1.0, 0.5, 0.5],
        [0.1, 2.0, 0.3],
        [0.3, -1.5, -0.2],
        [0.2, 0.1, 1.0],
        [-0.4, 0.3, -0.9],
    ];
    let mut c = [[0.0f32; LANES]; 3];
    for l in 0..LANES {
        for a in 0..3 {
            c[a][l] = dirs[l % 6][a];
        }
    }
    let coords = regs(&c);
    let zero = Reg::splat_f(0.0);
    let out = sample(
        &b,
        &SampleRequest {
            coords: &coords,
            lod: LodMode::Lod(&zero),
            offset: [0; 3],
            compare: None,
        },
    );
    for l in 0..LANES {
        assert_eq!(
            out[0].f(l) * 8.0,
            (l % 6) as f32,
            "direction {:?}",
            dirs[l % 6]
        );
    }
}
