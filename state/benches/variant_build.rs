//! First-draw variant build time over the shader-db programs: for every
//! `.shader_test` under `../shared/corpus/shader-db` (or `RGL_SHADER_DB`), a
//! fresh context compiles and links its shaders through the GL API, then one
//! draw builds the program's variant: clone the linked NIR, finalize it for the
//! draw's key, and have the software driver compile it. The figure is what
//! the state tracker measures for that miss (`VariantStats::last_build_time`);
//! compile and link are not part of it. For the JIT, the fragment shader's fused
//! per-pixel pipeline (built at the first draw that shades pixels, counted
//! apart in the driver's `pipeline_build_ns`) is then built for the default
//! framebuffer state (one RGBA8 target, no blending, no depth test) and timed
//! too, so a second line gives variant + pipeline, the whole first-draw compile.
//! For a tiered JIT (the default, `jit`) those are the tier-0 compiles; the
//! bench then waits for the background rebuilds the program queued (outside
//! the timed part, so they do not overlap the next program) and a third line
//! gives their time on the worker (`JitCompiler::tier_stats`, `busy_ns`).
//! Prints the median, mean, p90 and max for each shader compiler: the lane
//! interpreter, and the JIT with its default options, untiered (`jit-tier-off`,
//! the default before tiers), with deferred pipelines (`jit-defer`, tiered:
//! the draw compiles no pipeline, the worker builds it optimised; its
//! "+ pipeline" line adds only the lookup) and with a fixed count of quads per iteration,
//! other optimization levels and register allocators, untiered
//! (`RGL_VARIANT_BUILD=name` runs one of them: `interp`, `jit`, `jit-tier-off`,
//! `jit-q4-speed-bt` (the default before adaptive quads), `jit-q1-speed-bt`,
//! ...).
//!
//! `cargo bench -p rgl-state --bench variant_build`

use std::path::{Path, PathBuf};
use std::time::Duration;

use std::sync::{Arc, Mutex};

use rgl_backend::driver::{BlendState, DepthStencilState, ShaderStage};
use rgl_backend::exec::{ShaderCompiler, ShaderExec};
use rgl_backend::format::Format;
use rgl_backend::jit::pipeline::{self, DrawState, Lookup};
use rgl_backend::jit::{JitCompiler, JitOptions, OptLevel, Regalloc};
use rgl_backend::lanes::LaneCompiler;
use rgl_backend::SoftDriver;
use rgl_state::{gl, Context};

#[path = "../tests/common/shader_db.rs"]
mod shader_db;

/// A compiler that remembers the fragment shaders it compiled (to build their
/// fused pipelines afterwards).
struct Recording {
    inner: Arc<dyn ShaderCompiler>,
    fragment: Mutex<Vec<Arc<dyn ShaderExec>>>,
}

impl ShaderCompiler for Recording {
    fn compile(&self, nir: &rgl_nir::ir::Shader) -> rgl_backend::Result<Arc<dyn ShaderExec>> {
        let exec = self.inner.compile(nir)?;
        if exec.info().stage == ShaderStage::Fragment {
            if let Ok(mut f) = self.fragment.lock() {
                f.push(exec.clone());
            }
        }
        Ok(exec)
    }

    fn compiler_options(&self, stage: ShaderStage) -> rgl_nir::options::CompilerOptions {
        self.inner.compiler_options(stage)
    }
}

/// The build time of `fs`'s fused pipeline for one RGBA8 target without
/// blending or depth test (zero for a shader without fused pipelines).
fn pipeline_build(fs: &dyn ShaderExec) -> Result<Duration, String> {
    let Some(cache) = fs.pipelines() else {
        return Ok(Duration::ZERO);
    };
    let info = fs.info();
    let out = info
        .output_index(rgl_nir::ir::names::FRAG_RESULT_DATA0, 0)
        .or_else(|| info.output_index(rgl_nir::ir::names::FRAG_RESULT_COLOR, 0));
    let depth_out = info.output_index(rgl_nir::ir::names::FRAG_RESULT_DEPTH, 0);
    let state = DrawState {
        color_formats: &[Some(Format::Rgba8Unorm)],
        zs_format: None,
        blend: &BlendState::default(),
        dsa: &DepthStencilState::default(),
        rt_out: &[out],
        src1_out: info.output_index(rgl_nir::ir::names::FRAG_RESULT_DATA0, 1),
        depth_out,
        early_z: depth_out.is_none() && !info.uses_discard,
    };
    let key = pipeline::derive(&state)?;
    match cache.lookup(&key) {
        Lookup::Built { .. } | Lookup::Hit(_) | Lookup::TieredUp(_) | Lookup::Deferred { .. } => {}
        Lookup::Failed(e) => return Err(format!("pipeline: {e}")),
    }
    // Every variant built so far: the draw's own (when it shaded pixels with
    // another key) and this one.
    Ok(Duration::from_nanos(cache.stats().build_ns))
}

/// The variant build time of `path`'s program, the build time of its
/// fragment shader's fused pipeline and, with `jit`'s tiers, the worker's time
/// for the optimised rebuilds they queued; or why there are none.
fn first_draw(
    path: &Path,
    compiler: &Arc<dyn ShaderCompiler>,
    jit: Option<&JitCompiler>,
) -> Result<(Duration, Duration, Duration), String> {
    let busy = || jit.map_or(0, |j| j.tier_stats().busy_ns);
    let busy_before = busy();
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let mut driver = SoftDriver::new(1);
    let recording = Arc::new(Recording {
        inner: compiler.clone(),
        fragment: Mutex::new(Vec::new()),
    });
    driver.set_compiler(recording.clone());
    let mut ctx = Context::with_driver(Box::new(driver), 64, 64);
    let program = ctx.create_program().map_err(|e| e.to_string())?;
    for (kind, src) in shader_db::shader_sections(&text) {
        let s = ctx.create_shader(kind).map_err(|e| e.to_string())?;
        ctx.shader_source(s, &src);
        ctx.compile_shader(s);
        if !ctx.get_shader_compile_status(s) {
            return Err(format!("compile: {}", ctx.get_shader_info_log(s)));
        }
        ctx.attach_shader(program, s);
    }
    ctx.link_program(program);
    if !ctx.get_program_link_status(program) {
        return Err(format!("link: {}", ctx.get_program_info_log(program)));
    }
    ctx.use_program(Some(program));
    ctx.draw_arrays(gl::TRIANGLES, 0, 3);
    ctx.finish();
    let stats = ctx.variant_stats();
    if stats.misses != 1 {
        return Err(format!(
            "the draw built {} variants ({:?})",
            stats.misses,
            ctx.last_draw_error()
        ));
    }
    let fragment = recording
        .fragment
        .lock()
        .map_err(|_| "poisoned".to_string())?
        .clone();
    let mut pipe = Duration::ZERO;
    for fs in &fragment {
        pipe += pipeline_build(fs.as_ref())?;
    }
    if let Some(j) = jit {
        j.wait_tier_ups();
    }
    let tier_up = Duration::from_nanos(busy().saturating_sub(busy_before));
    Ok((stats.last_build_time, pipe, tier_up))
}

fn main() {
    let root = shader_db::root();
    let paths = shader_db::files(&root);
    if paths.is_empty() {
        println!(
            "variant_build: no .shader_test files under {}; skipped",
            root.display()
        );
        return;
    }
    let only = std::env::var("RGL_VARIANT_BUILD").ok();
    for (name, compiler, jit) in compilers() {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        measure(&name, &compiler, jit.as_deref(), &paths);
    }
}

type Named = (String, Arc<dyn ShaderCompiler>, Option<Arc<JitCompiler>>);

/// The interpreter, the JIT's default (tiered, and not), and the JIT's options
/// one at a time (untiered).
fn compilers() -> Vec<Named> {
    let mut out: Vec<Named> = vec![("interp".into(), Arc::new(LaneCompiler), None)];
    if let Ok(j) = JitCompiler::new() {
        let j = Arc::new(j);
        out.push(("jit".into(), j.clone(), Some(j)));
    }
    let untiered = JitOptions {
        tier: false,
        ..JitOptions::from_env()
    };
    if let Ok(j) = JitCompiler::with_options(untiered) {
        out.push(("jit-tier-off".into(), Arc::new(j), None));
    }
    let deferred = JitOptions {
        defer_pipelines: true,
        ..JitOptions::from_env()
    };
    if let Ok(j) = JitCompiler::with_options(deferred) {
        let j = Arc::new(j);
        out.push(("jit-defer".into(), j.clone(), Some(j)));
    }
    for quads in [1, 2, 4] {
        for (opt, oname) in [(OptLevel::None, "none"), (OptLevel::Speed, "speed")] {
            for (regalloc, rname) in [(Regalloc::Backtracking, "bt"), (Regalloc::SinglePass, "sp")]
            {
                let opts = JitOptions {
                    quads,
                    adaptive_quads: false,
                    opt_level: opt,
                    regalloc,
                    tier: false,
                    ..JitOptions::default()
                };
                if let Ok(j) = JitCompiler::with_options(opts) {
                    out.push((format!("jit-q{quads}-{oname}-{rname}"), Arc::new(j), None));
                }
            }
        }
    }
    out
}

fn measure(
    name: &str,
    compiler: &Arc<dyn ShaderCompiler>,
    jit: Option<&JitCompiler>,
    paths: &[PathBuf],
) {
    let mut times = Vec::new();
    let mut totals = Vec::new();
    let mut tier_ups = Vec::new();
    let mut skipped = 0;
    for p in paths {
        match first_draw(p, compiler, jit) {
            Ok((t, pipe, tier_up)) => {
                times.push(t);
                totals.push(t + pipe);
                tier_ups.push(tier_up);
            }
            Err(e) => {
                skipped += 1;
                eprintln!("{}: {}", p.display(), e.lines().next().unwrap_or(""));
            }
        }
    }
    if times.is_empty() {
        println!("variant_build {name}: every program failed ({skipped})");
        return;
    }
    report(&format!("variant_build {name}"), &mut times, skipped);
    report(
        &format!("variant_build {name} + pipeline"),
        &mut totals,
        skipped,
    );
    if let Some(j) = jit {
        let s = j.tier_stats();
        report(
            &format!(
                "variant_build {name}: background tier-up ({} rebuilt, {} skipped, {} failed)",
                s.done, s.skipped, s.failed
            ),
            &mut tier_ups,
            skipped,
        );
    }
}

/// Prints the median, mean, p90 and max of `times`.
fn report(label: &str, times: &mut [Duration], skipped: usize) {
    times.sort();
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    let mean = times.iter().map(|t| us(*t)).sum::<f64>() / times.len() as f64;
    println!(
        "{label}: {} programs ({} skipped): median {:.0} µs, mean {:.0} µs, p90 {:.0} µs, max {:.0} µs",
        times.len(),
        skipped,
        us(times[times.len() / 2]),
        mean,
        us(times[times.len() * 9 / 10]),
        us(times[times.len() - 1])
    );
}
