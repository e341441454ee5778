//! Cold and warm starts of the shader-db corpus with the on-disk shader cache:
//! one context compiles, links and draws once with every program (the start
//! of an application that uses them all).
//!
//! * `off`: no cache (the compile-everything baseline);
//! * `cold`: an empty cache directory (every link misses and writes its entry);
//! * `warm`: a directory a previous start filled (every link hits, every
//!   draw-time variant and fused pipeline is loaded from its entry).
//!
//! `cargo bench -p rgl-state --bench disk_cache`; the ratio cold / warm is the
//! figure recorded in BENCHMARKS.md. The corpus is read from `RGL_SHADER_DB`
//! or `../shared/corpus/shader-db`.

#[path = "../tests/common/shader_db.rs"]
mod shader_db;

use std::path::Path;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use rgl_state::disk_cache::{ShaderCacheOptions, ShaderCacheStats};
use rgl_state::variants::VariantStats;
use rgl_state::{gl, Context, Shader};

type Program = Vec<(u32, String)>;

fn corpus() -> Vec<Program> {
    shader_db::files(&shader_db::root())
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .map(|text| shader_db::shader_sections(&text))
        .collect()
}

/// What one start did.
struct Start {
    linked: usize,
    took: Duration,
    variant_build: Duration,
    variants: VariantStats,
    cache: ShaderCacheStats,
}

/// Compiles, links and draws once with every program; returns the number of
/// programs that linked.
fn start(programs: &[Program], cache: Option<&Path>) -> usize {
    start_stats(programs, cache).linked
}

fn start_stats(programs: &[Program], cache: Option<&Path>) -> Start {
    let t0 = Instant::now();
    let mut ctx = Context::new_headless(64, 64);
    ctx.set_shader_cache(cache.map(ShaderCacheOptions::new));
    let mut linked = 0;
    for sections in programs {
        let shaders: Vec<Shader> = sections
            .iter()
            .filter_map(|(kind, src)| {
                let s = ctx.create_shader(*kind).ok()?;
                ctx.shader_source(s, src);
                ctx.compile_shader(s);
                Some(s)
            })
            .collect();
        let Ok(p) = ctx.create_program() else {
            continue;
        };
        for s in &shaders {
            ctx.attach_shader(p, *s);
        }
        ctx.link_program(p);
        if ctx.get_program_link_status(p) {
            linked += 1;
            ctx.use_program(Some(p));
            ctx.draw_arrays(gl::TRIANGLES, 0, 3);
            ctx.use_program(None);
        }
        ctx.delete_program(p);
        for s in shaders {
            ctx.delete_shader(s);
        }
    }
    let _ = ctx.get_error();
    Start {
        linked,
        took: t0.elapsed(),
        variant_build: ctx.variant_stats().build_time,
        variants: ctx.variant_stats(),
        cache: ctx.shader_cache_stats(),
    }
}

fn bench(c: &mut Criterion) {
    let programs = corpus();
    assert!(!programs.is_empty(), "no shader-db corpus");
    let warm_dir = tempfile::tempdir().expect("temp dir");
    // One start of each kind outside the timing, for the split of a start's
    // time: variant builds (clone, draw-time lowering, the driver's compile)
    // in a cold start, variant loads (the driver emits the IR again for its
    // descriptors and maps the stored code) in a warm one.
    let off = start_stats(&programs, None);
    let cold = start_stats(&programs, Some(warm_dir.path()));
    let warm = start_stats(&programs, Some(warm_dir.path()));
    eprintln!("{} programs, {} link", programs.len(), cold.linked);
    for (what, s) in [("off", off), ("cold", cold), ("warm", warm)] {
        eprintln!(
            "{what}: {:.2} s, of which variant builds/loads {:.2} s; {:?}; {:?}",
            s.took.as_secs_f64(),
            s.variant_build.as_secs_f64(),
            s.variants,
            s.cache
        );
    }
    let mut g = c.benchmark_group("shader_db_start");
    g.sample_size(10);
    g.warm_up_time(Duration::from_millis(100));
    g.measurement_time(Duration::from_secs(20));
    g.bench_function("off", |b| b.iter(|| start(&programs, None)));
    g.bench_function("cold", |b| {
        b.iter_batched(
            || tempfile::tempdir().expect("temp dir"),
            |dir| start(&programs, Some(dir.path())),
            BatchSize::PerIteration,
        )
    });
    g.bench_function("warm", |b| {
        b.iter(|| start(&programs, Some(warm_dir.path())))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
