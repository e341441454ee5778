//! TEMPORARY: new quad sampler vs the old generic path, bit for bit.
use rgl_backend::driver::*;
use rgl_backend::exec::{Reg, LANES};
use rgl_backend::format::Format;
use rgl_backend::texture::*;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn f(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
    fn pick<T: Copy>(&mut self, v: &[T]) -> T {
        v[(self.next() % v.len() as u64) as usize]
    }
}

#[test]
fn quad_matches_old() {
    let mut rng = Rng(99);
    let targets = [
        TexTarget::D1,
        TexTarget::D1Array,
        TexTarget::D2,
        TexTarget::Rect,
        TexTarget::D2Array,
        TexTarget::Cube,
        TexTarget::D3,
    ];
    let wraps = [
        Wrap::Repeat,
        Wrap::MirroredRepeat,
        Wrap::ClampToEdge,
        Wrap::ClampToBorder,
        Wrap::MirrorClampToEdge,
        Wrap::Clamp,
    ];
    let funcs = [
        CompareFunc::Never,
        CompareFunc::Less,
        CompareFunc::LessEqual,
        CompareFunc::Greater,
        CompareFunc::Always,
    ];
    let mut n = 0;
    for iter in 0..20000 {
        let target = rng.pick(&targets);
        let format = rng.pick(&Format::ALL);
        let mut w = 1 + (rng.next() % 9) as u32;
        let mut h = 1 + (rng.next() % 9) as u32;
        let mut d = 1 + (rng.next() % 5) as u32;
        match target {
            TexTarget::D1 => {
                h = 1;
                d = 1
            }
            TexTarget::D1Array | TexTarget::D2 | TexTarget::Rect => d = 1,
            TexTarget::Cube => {
                h = w;
                d = 6
            }
            _ => {}
        }
        let nlev = if target == TexTarget::Rect {
            1
        } else {
            1 + (rng.next() % 4) as usize
        };
        let bpp = format.bytes_per_pixel();
        let mut levels = Vec::new();
        let (mut lw, mut lh, mut ld) = (w, h, d);
        for _ in 0..nlev {
            let mut data = vec![0u8; (lw * lh * ld) as usize * bpp];
            for t in data.chunks_mut(bpp) {
                format.encode_rgba([rng.f(), rng.f(), rng.f(), rng.f()], t);
            }
            if rng.next() % 50 == 0 {
                data.truncate(data.len() / 2);
            }
            levels.push((lw, lh, ld, data));
            lw = (lw / 2).max(1);
            if !matches!(target, TexTarget::D1 | TexTarget::D1Array) {
                lh = (lh / 2).max(1);
            }
            if target == TexTarget::D3 {
                ld = (ld / 2).max(1);
            }
        }
        let _ = (&mut w, &mut h, &mut d);
        let filt = [Filter::Nearest, Filter::Linear];
        let s = SamplerState {
            wrap: [rng.pick(&wraps), rng.pick(&wraps), rng.pick(&wraps)],
            mag: rng.pick(&filt),
            min: rng.pick(&filt),
            mip: rng.pick(&[MipFilter::None, MipFilter::Nearest, MipFilter::Linear]),
            lod_bias: if rng.next() % 3 == 0 {
                rng.f() * 2.0 - 1.0
            } else {
                0.0
            },
            min_lod: if rng.next() % 4 == 0 {
                rng.f()
            } else {
                -1000.0
            },
            max_lod: if rng.next() % 4 == 0 {
                1.0 + rng.f() * 2.0
            } else {
                1000.0
            },
            border: [rng.f(), rng.f(), rng.f(), rng.f()],
            compare: if format.is_depth() && rng.next() % 2 == 0 {
                Some(rng.pick(&funcs))
            } else {
                None
            },
        };
        let sw = [
            Swizzle::R,
            Swizzle::G,
            Swizzle::B,
            Swizzle::A,
            Swizzle::Zero,
            Swizzle::One,
        ];
        let swizzle = if rng.next() % 4 == 0 {
            [rng.pick(&sw), rng.pick(&sw), rng.pick(&sw), rng.pick(&sw)]
        } else {
            [Swizzle::R, Swizzle::G, Swizzle::B, Swizzle::A]
        };
        let b = TextureBinding {
            view: TexView {
                target,
                format,
                levels: levels
                    .iter()
                    .map(|(w, h, d, data)| MipLevel {
                        data,
                        width: *w,
                        height: *h,
                        depth: *d,
                    })
                    .collect(),
                swizzle,
            },
            sampler: s,
        };
        let mut coords = vec![Reg::default(); 4];
        let scale = [0.001f32, 0.05, 0.3, 2.0][(rng.next() % 4) as usize];
        for q in 0..4 {
            let base: [f32; 4] = std::array::from_fn(|_| rng.f() * 4.0 - 1.5);
            for p in 0..4 {
                for a in 0..4 {
                    let v = if rng.next() % 200 == 0 {
                        f32::NAN
                    } else {
                        base[a]
                            + scale * ((p & 1) as f32 * (a as f32 + 1.0) + (p >> 1) as f32 * 0.5)
                            + if rng.next() % 5 == 0 { rng.f() } else { 0.0 }
                    };
                    coords[a].set_f(4 * q + p, v);
                }
            }
        }
        let lod = Reg::from_f32(&std::array::from_fn(|_| rng.f() * 5.0 - 1.5));
        let cmp = Reg::from_f32(&std::array::from_fn(|_| rng.f() * 1.2 - 0.1));
        let gx: Vec<Reg> = (0..3)
            .map(|_| Reg::from_f32(&std::array::from_fn(|_| rng.f() * 0.2)))
            .collect();
        let gy: Vec<Reg> = (0..3)
            .map(|_| Reg::from_f32(&std::array::from_fn(|_| rng.f() * 0.2)))
            .collect();
        let ncoord = match target {
            TexTarget::D1 => 1,
            TexTarget::D2 | TexTarget::Rect | TexTarget::D1Array => 2,
            _ => 3,
        };
        let lm = match rng.next() % 4 {
            0 => LodMode::Implicit(None),
            1 => LodMode::Implicit(Some(&lod)),
            2 => LodMode::Lod(&lod),
            _ => LodMode::Grad(&gx, &gy),
        };
        let offset = if rng.next() % 3 == 0 {
            [
                (rng.next() % 5) as i32 - 2,
                (rng.next() % 5) as i32 - 2,
                (rng.next() % 3) as i32 - 1,
            ]
        } else {
            [0; 3]
        };
        let req = SampleRequest {
            coords: &coords[..ncoord],
            lod: lm,
            offset,
            compare: Some(&cmp),
        };
        let a = sample(&b, &req);
        let o = sample_generic_old(&b, &req);
        for c in 0..4 {
            for l in 0..LANES {
                let (x, y) = (a[c].0[l], o[c].0[l]);
                if x != y && !(f32::from_bits(x).is_nan() && f32::from_bits(y).is_nan()) {
                    panic!("iter {iter} {target:?} {format:?} {s:?} sw {swizzle:?} lane {l} c {c}: new {} old {}", f32::from_bits(x), f32::from_bits(y));
                }
            }
        }
        n += 1;
    }
    println!("{n} cases");
}
