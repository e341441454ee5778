//! Sampler benchmark: one 16-lane `texture::sample` call (four 2×2 quads of a
//! 4×4 pixel block) per iteration, the blocks sweeping a 1024×1024 screen mapped
//! onto the texture as the `rgl-conformance fill` sampling workloads map it. One
//! case per sampler routine the fill workloads reach: RGBA8 2D at level 0 and
//! trilinear over a mip chain, RGBA8 3D at level 0 and trilinear, an RGBA8 cube
//! map and a 2D depth texture with a comparison. Criterion's throughput is in
//! lanes: elements/s ÷ 10⁶ = million lookups per second.
//!
//! Time is the benchmark thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`), not wall
//! time, so other jobs competing for the machine's cores do not count against a
//! routine (they still share its caches).

use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rgl_backend::driver::{CompareFunc, Filter, MipFilter, SamplerState, TexTarget, Wrap};
use rgl_backend::exec::{Reg, LANES};
use rgl_backend::format::Format;
use rgl_backend::texture::{sample, LodMode, SampleRequest, TexView, TextureBinding};
use std::hint::black_box;

/// The calling thread's CPU time, as criterion's measurement.
struct ThreadCpu;

fn thread_cpu_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid out-pointer for the call.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

impl Measurement for ThreadCpu {
    type Intermediate = u64;
    type Value = u64;
    fn start(&self) -> u64 {
        thread_cpu_ns()
    }
    fn end(&self, i: u64) -> u64 {
        thread_cpu_ns() - i
    }
    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }
    fn zero(&self) -> u64 {
        0
    }
    fn to_f64(&self, v: &u64) -> f64 {
        *v as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        // Nanoseconds, like wall time.
        WallTime.formatter()
    }
}

/// Texel bytes of a `w`×`h`×`d` level (a deterministic pattern).
fn texels(w: u32, h: u32, d: u32, bpp: usize) -> Vec<u8> {
    let n = (w * h * d) as usize * bpp;
    (0..n)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 7) as u8)
        .collect()
}

/// One level: width, height, depth (or layers) and texels.
type Level = (u32, u32, u32, Vec<u8>);

/// A full mip chain (or only the base level) of a `side`-texel square, cube or
/// volume.
fn chain(side: u32, layers: u32, depth3d: bool, mips: bool, bpp: usize) -> Vec<Level> {
    let mut v = Vec::new();
    let mut s = side;
    loop {
        let d = if depth3d { s } else { layers };
        v.push((s, s, d, texels(s, s, d, bpp)));
        if !mips || s == 1 {
            break;
        }
        s /= 2;
    }
    v
}

struct Case {
    name: &'static str,
    target: TexTarget,
    format: Format,
    levels: Vec<Level>,
    sampler: SamplerState,
    /// Texture repeats across the screen (scales the coordinates).
    scale: f32,
}

fn case(
    name: &'static str,
    target: TexTarget,
    format: Format,
    levels: Vec<Level>,
    sampler: SamplerState,
    scale: f32,
) -> Case {
    Case {
        name,
        target,
        format,
        levels,
        sampler,
        scale,
    }
}

fn cases() -> Vec<Case> {
    let lin = |mip: MipFilter| SamplerState {
        wrap: [Wrap::Repeat; 3],
        mag: Filter::Linear,
        min: Filter::Linear,
        mip,
        ..SamplerState::default()
    };
    let mut shadow = lin(MipFilter::None);
    shadow.compare = Some(CompareFunc::LessEqual);
    shadow.wrap = [Wrap::ClampToEdge; 3];
    let (d2, d3, cube) = (TexTarget::D2, TexTarget::D3, TexTarget::Cube);
    let rgba8 = Format::Rgba8Unorm;
    vec![
        case(
            "rgba8_2d_linear",
            d2,
            rgba8,
            chain(256, 1, false, false, 4),
            lin(MipFilter::None),
            2.0,
        ),
        case(
            "rgba8_2d_trilinear",
            d2,
            rgba8,
            chain(1024, 1, false, true, 4),
            lin(MipFilter::Linear),
            1.5,
        ),
        case(
            "rgba8_3d_linear",
            d3,
            rgba8,
            chain(64, 1, true, false, 4),
            lin(MipFilter::None),
            3.0,
        ),
        case(
            "rgba8_3d_trilinear",
            d3,
            rgba8,
            chain(64, 1, true, true, 4),
            lin(MipFilter::Linear),
            0.2,
        ),
        case(
            "rgba8_cube_linear",
            cube,
            rgba8,
            chain(128, 6, false, false, 4),
            lin(MipFilter::None),
            1.0,
        ),
        case(
            "z24_2d_compare",
            d2,
            Format::Z24UnormX8,
            chain(512, 1, false, false, 4),
            shadow,
            1.0,
        ),
    ]
}

/// The coordinates (and a depth reference) of block `i` of a 256×256-block
/// (1024×1024-pixel) sweep, in row order as the rasterizer walks a triangle.
fn coords(case: &Case, i: u32) -> ([Reg; 3], Reg) {
    let (bx, by) = ((i % 256) * 4, (i / 256 % 256) * 4);
    let mut c = [Reg::default(); 3];
    let mut r = Reg::default();
    for l in 0..LANES {
        // Lane order: four 2×2 quads of the 4×4 block.
        let (q, k) = ((l / 4) as u32, (l % 4) as u32);
        let x = bx + (q % 2) * 2 + k % 2;
        let y = by + (q / 2) * 2 + k / 2;
        let (u, v) = ((x as f32 + 0.5) / 1024.0, (y as f32 + 0.5) / 1024.0);
        let (s, t, p) = match case.target {
            TexTarget::Cube => (u * 2.0 - 1.0, v * 2.0 - 1.0, 0.6),
            _ => (
                u * case.scale,
                v * case.scale,
                (u * 0.7 + v * 0.2) * case.scale,
            ),
        };
        c[0].set_f(l, s);
        c[1].set_f(l, t);
        c[2].set_f(l, p);
        r.set_f(l, u);
    }
    (c, r)
}

fn bench(c: &mut Criterion<ThreadCpu>) {
    let mut g = c.benchmark_group("sample16");
    g.throughput(Throughput::Elements(LANES as u64));
    for case in cases() {
        let view = TexView::new(case.target, case.format, &case.levels);
        let binding = TextureBinding::new(view, case.sampler);
        let reqs: Vec<([Reg; 3], Reg)> = (0..4096).map(|i| coords(&case, i)).collect();
        let ncoords = match case.target {
            TexTarget::D3 | TexTarget::Cube => 3,
            _ => 2,
        };
        let mut i = 0usize;
        g.bench_function(case.name, |b| {
            b.iter(|| {
                let (cs, r) = &reqs[i % reqs.len()];
                i += 1;
                let req = SampleRequest {
                    coords: &cs[..ncoords],
                    lod: LodMode::Implicit(None),
                    offset: [0; 3],
                    compare: binding.sampler.compare.map(|_| r),
                };
                black_box(sample(black_box(&binding), &req))
            })
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().with_measurement(ThreadCpu);
    targets = bench
}
criterion_main!(benches);
