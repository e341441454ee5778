//! First-draw variant build time over the shader-db programs: for every
//! `.shader_test` under `../shared/corpus/shader-db` (or `RGL_SHADER_DB`), a
//! fresh context compiles and links its shaders through the GL API, then one
//! draw builds the program's variant: clone the linked NIR, finalize it for the
//! draw's key, and have the software driver compile it. The figure is what
//! the state tracker measures for that miss (`VariantStats::last_build_time`);
//! compile and link are not part of it. Prints the median, mean, p90 and max for
//! each shader compiler: the lane interpreter, and the JIT with its default
//! options and with other quads-per-iteration, optimization levels and register
//! allocators (`RGL_VARIANT_BUILD=name` runs one of them: `interp`, `jit`,
//! `jit-q1-speed-bt`, ...).
//!
//! `cargo bench -p rgl-state --bench variant_build`

use std::path::{Path, PathBuf};
use std::time::Duration;

use std::sync::Arc;

use rgl_backend::exec::ShaderCompiler;
use rgl_backend::jit::{JitCompiler, JitOptions, OptLevel, Regalloc};
use rgl_backend::lanes::LaneCompiler;
use rgl_backend::SoftDriver;
use rgl_state::{gl, Context};

/// The `[vertex shader]` / `[geometry shader]` / `[fragment shader]` sections,
/// with `#version N` added from `GLSL >= N` when a section has none, as
/// shader_runner does.
fn shaders(text: &str) -> Vec<(u32, String)> {
    let version = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("GLSL >="))
        .and_then(|v| v.trim().parse::<f32>().ok())
        .map(|v| (v * 100.0).round() as u32);
    let mut out: Vec<(u32, String)> = Vec::new();
    let mut current: Option<usize> = None;
    for line in text.lines() {
        if line.starts_with('[') {
            let kind = match line.trim() {
                "[vertex shader]" => Some(gl::VERTEX_SHADER),
                "[geometry shader]" => Some(gl::GEOMETRY_SHADER),
                "[fragment shader]" => Some(gl::FRAGMENT_SHADER),
                _ => None,
            };
            current = kind.map(|k| {
                out.push((k, String::new()));
                out.len() - 1
            });
            continue;
        }
        if let Some(i) = current {
            out[i].1.push_str(line);
            out[i].1.push('\n');
        }
    }
    for (_, src) in &mut out {
        let has_version = src.lines().any(|l| l.trim_start().starts_with("#version"));
        if let (false, Some(v)) = (has_version, version) {
            *src = format!("#version {v}\n{src}");
        }
    }
    out
}

/// The variant build time of `path`'s program, or why there is none.
fn first_draw(path: &Path, compiler: &Arc<dyn ShaderCompiler>) -> Result<Duration, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let mut driver = SoftDriver::new(1);
    driver.set_compiler(compiler.clone());
    let mut ctx = Context::with_driver(Box::new(driver), 64, 64);
    let program = ctx.create_program().map_err(|e| e.to_string())?;
    for (kind, src) in shaders(&text) {
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
    Ok(stats.last_build_time)
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "shader_test") {
            out.push(p);
        }
    }
}

fn main() {
    let root = std::env::var_os("RGL_SHADER_DB")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/shader-db")
        });
    let mut paths = Vec::new();
    files(&root, &mut paths);
    if paths.is_empty() {
        println!(
            "variant_build: no .shader_test files under {}; skipped",
            root.display()
        );
        return;
    }
    let only = std::env::var("RGL_VARIANT_BUILD").ok();
    for (name, compiler) in compilers() {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        measure(&name, &compiler, &paths);
    }
}

/// The interpreter, the JIT's default, and the JIT's options one at a time.
fn compilers() -> Vec<(String, Arc<dyn ShaderCompiler>)> {
    let mut out: Vec<(String, Arc<dyn ShaderCompiler>)> =
        vec![("interp".into(), Arc::new(LaneCompiler))];
    if let Ok(j) = JitCompiler::new() {
        out.push(("jit".into(), Arc::new(j)));
    }
    for quads in [1, 4] {
        for (opt, oname) in [(OptLevel::None, "none"), (OptLevel::Speed, "speed")] {
            for (regalloc, rname) in [(Regalloc::Backtracking, "bt"), (Regalloc::SinglePass, "sp")]
            {
                let opts = JitOptions {
                    quads,
                    opt_level: opt,
                    regalloc,
                    ..JitOptions::default()
                };
                if let Ok(j) = JitCompiler::with_options(opts) {
                    out.push((format!("jit-q{quads}-{oname}-{rname}"), Arc::new(j)));
                }
            }
        }
    }
    out
}

fn measure(name: &str, compiler: &Arc<dyn ShaderCompiler>, paths: &[PathBuf]) {
    let mut times = Vec::new();
    let mut skipped = 0;
    for p in paths {
        match first_draw(p, compiler) {
            Ok(t) => times.push(t),
            Err(e) => {
                skipped += 1;
                eprintln!("{}: {}", p.display(), e.lines().next().unwrap_or(""));
            }
        }
    }
    times.sort();
    if times.is_empty() {
        println!("variant_build {name}: every program failed ({skipped})");
        return;
    }
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    let mean = times.iter().map(|t| us(*t)).sum::<f64>() / times.len() as f64;
    println!(
        "variant_build {name}: {} programs ({} skipped): median {:.0} µs, mean {:.0} µs, p90 {:.0} µs, max {:.0} µs",
        times.len(),
        skipped,
        us(times[times.len() / 2]),
        mean,
        us(times[times.len() * 9 / 10]),
        us(times[times.len() - 1])
    );
}
