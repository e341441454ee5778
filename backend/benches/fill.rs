//! Fill-rate benchmark: a 1024×1024 RGBA8 full-screen quad (two triangles) with a
//! constant-color fragment shader (Rust closure), at 1 and 2 raster threads. Each
//! iteration is one draw followed by `finish`. Criterion's throughput is in pixels:
//! elements/s ÷ 10⁶ = Mpix/s.
//!
//! The machine is shared, so before criterion runs, the benchmark also prints a CPU-time
//! figure: frames drawn for about two seconds, divided by the process CPU time they
//! consumed (`/proc/self/stat` utime + stime) — Mpix per CPU-second, which does not
//! depend on how many other jobs compete for the cores — plus the wall-clock rates and
//! a same-run 2-thread / 1-thread scaling check. The same report covers a
//! perspective-interpolated color FS, which takes the general per-block shading path
//! (the constant shader is fragment-invariant and runs once per triangle).

#[path = "../tests/common/mod.rs"]
mod common;

use common::Fixture;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rgl_backend::driver::*;
use rgl_backend::exec::{builtin, Interp};
use rgl_backend::format::Format;
use rgl_backend::{Driver, SoftDriver};

const SIZE: u32 = 1024;

/// A driver with a full-screen quad bound; `varying` picks the interpolated-color FS.
fn setup(threads: usize, varying: bool) -> SoftDriver {
    let mut f = Fixture::new(SIZE, SIZE, Format::Rgba8Unorm, None, threads, 1);
    // Position, then a color, per vertex.
    let quad: [f32; 32] = [
        -1., -1., 0., 1., 1., 0., 0., 1., //
        1., -1., 0., 1., 0., 1., 0., 1., //
        1., 1., 0., 1., 0., 0., 1., 1., //
        -1., 1., 0., 1., 1., 1., 1., 1.,
    ];
    f.bind_vertices(&quad).unwrap();
    f.set_fs(if varying {
        builtin::varying_fs(Interp::Smooth)
    } else {
        builtin::constant_fs([0.2, 0.4, 0.6, 1.0])
    });
    f.d
}

/// Process CPU time (user + system) in seconds, from `/proc/self/stat`.
fn cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &s[s.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn cpu_time_report() {
    let draw = DrawInfo::arrays(PrimMode::TriangleFan, 0, 4);
    let mut wall = Vec::new();
    // `RGL_FILL_REPORT=constant|interpolated` restricts the report (for profiling).
    let only = std::env::var("RGL_FILL_REPORT").ok();
    for (threads, varying) in [(1usize, false), (2, false), (1, true), (2, true)] {
        let name = if varying { "interpolated" } else { "constant" };
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let mut d = setup(threads, varying);
        d.draw(&draw).unwrap();
        let (Some(c0), t0) = (cpu_seconds(), std::time::Instant::now()) else {
            return;
        };
        let mut frames = 0u64;
        while t0.elapsed().as_secs_f64() < 2.0 {
            d.draw(&draw).unwrap();
            d.finish().unwrap();
            frames += 1;
        }
        let secs = t0.elapsed().as_secs_f64();
        let cpu = cpu_seconds().unwrap_or(c0) - c0;
        let mpix = frames as f64 * (SIZE * SIZE) as f64 / 1e6;
        wall.push(mpix / secs);
        let fs = if varying { "interpolated" } else { "constant" };
        println!(
            "fill cpu-time {fs} threads_{threads}: {frames} frames, {:.1} Mpix per CPU-second, {:.1} Mpix/s wall",
            mpix / cpu.max(1e-9),
            mpix / secs
        );
    }
    if let [one, two, vone, vtwo] = wall[..] {
        println!(
            "fill scaling check (same run, wall clock, 2 threads / 1 thread): constant {:.2}, interpolated {:.2}",
            two / one,
            vtwo / vone
        );
    }
}

fn fill(c: &mut Criterion) {
    cpu_time_report();
    let mut g = c.benchmark_group("fill_1024_rgba8_constant");
    g.throughput(Throughput::Elements((SIZE * SIZE) as u64));
    for threads in [1usize, 2] {
        let mut d = setup(threads, false);
        let draw = DrawInfo::arrays(PrimMode::TriangleFan, 0, 4);
        g.bench_function(format!("threads_{threads}"), |b| {
            b.iter(|| {
                d.draw(&draw).unwrap();
                d.finish().unwrap();
            })
        });
    }
    g.finish();
}

criterion_group!(benches, fill);
criterion_main!(benches);
