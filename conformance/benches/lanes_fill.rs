//! Fill rate of GLSL shaders compiled by the lane interpreter and by the JIT (with
//! 1, 2 and 4 quads per iteration): 1024×1024 RGBA8 full-screen quads (one draw
//! plus `finish` per iteration) at 1 and 2 raster threads, with these fragment
//! shaders —
//! * `constant`: a constant color;
//! * `tex_alu20`: one bilinear texture lookup (256×256 RGBA8) and 20 vec4 ALU ops;
//! * `tex_trilinear`: `tex_alu20` with a full mip chain, `LINEAR_MIPMAP_LINEAR` and the
//!   coordinates scaled by 5.3 (minified between levels 0 and 1: trilinear lookups);
//! * `loop64`: a 64-iteration loop (count from a uniform, so it is not unrolled) of
//!   two vec4 ALU ops.
//!
//! Before criterion runs, each case × compiler prints its wall-clock Mpix/s over
//! about two seconds of draws and Mpix per CPU-second (independent of other jobs on
//! a shared machine) (the numbers BENCHMARKS.md records; `RGL_LANES_FILL=name`
//! limits it to one case, `RGL_LANES_FILL_COMPILER=name` to one compiler:
//! `interp`, `jit-q1`, `jit-q2`, `jit-q4`); criterion then measures the interpreter
//! and the default JIT. Criterion's throughput is in pixels (elements/s ÷ 10⁶ =
//! Mpix/s).

// The backend's own test fixture (one color target, passthrough VS, vertex upload).
#[path = "../../backend/tests/common/mod.rs"]
mod common;

use common::Fixture;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rgl_backend::driver::ShaderStage;
use rgl_backend::driver::*;
use rgl_backend::driver::{Filter, MipFilter, SamplerState};
use rgl_backend::exec::ShaderCompiler;
use rgl_backend::format::Format;
use rgl_backend::jit::{JitCompiler, JitOptions, OptLevel, Regalloc};
use rgl_backend::lanes::LaneCompiler;
use rgl_backend::{Driver, SoftDriver};
use rgl_link::pipeline::{build_program, PipelineOptions};
use rgl_link::Bindings;
use rgl_nir::finalize::{finalize_variant, VariantLowering};
use rgl_nir::ir::Shader;
use rgl_nir::passes::Runner;
use std::sync::Arc;

const SIZE: u32 = 1024;

const VS: &str = "#version 130
in vec4 pos;
out vec2 uv;
void main() { gl_Position = pos; uv = pos.xy * 0.5 + 0.5; }
";

const CONSTANT: &str = "#version 130
void main() { gl_FragColor = vec4(0.2, 0.4, 0.6, 1.0); }
";

const TEX_ALU20: &str = "#version 130
in vec2 uv;
uniform sampler2D s;
uniform vec4 k;
void main() {
  vec4 c = texture(s, uv);
  c = c * k + k.wzyx; c = c * k + k.wzyx; c = c * k + k.wzyx; c = c * k + k.wzyx;
  c = c * k + k.wzyx; c = c * k + k.wzyx; c = c * k + k.wzyx; c = c * k + k.wzyx;
  c = c * k + k.wzyx; c = c * k + k.wzyx;
  gl_FragColor = c;
}
";

const TEX_TRILINEAR: &str = "#version 130
in vec2 uv;
uniform sampler2D s;
uniform vec4 k;
void main() {
  vec4 c = texture(s, uv * 5.3);
  c = c * k + k.wzyx; c = c * k + k.wzyx; c = c * k + k.wzyx; c = c * k + k.wzyx;
  c = c * k + k.wzyx; c = c * k + k.wzyx; c = c * k + k.wzyx; c = c * k + k.wzyx;
  c = c * k + k.wzyx; c = c * k + k.wzyx;
  gl_FragColor = c;
}
";

const LOOP64: &str = "#version 130
in vec2 uv;
uniform vec4 k;
uniform int n;
void main() {
  vec4 c = uv.xyxy;
  for (int i = 0; i < n; i++) c = c * k + k.wzyx;
  gl_FragColor = c;
}
";

fn compile(fs: &str) -> Vec<Shader> {
    let v = rgl_glsl::compile(VS, &rgl_glsl::CompileOptions::new(rgl_glsl::Stage::Vertex));
    let f = rgl_glsl::compile(
        fs,
        &rgl_glsl::CompileOptions::new(rgl_glsl::Stage::Fragment),
    );
    let bindings = Bindings {
        attribs: vec![("pos".into(), 0)],
        frag_data: Vec::new(),
    };
    let linked = build_program(&[&v, &f], &bindings, PipelineOptions::default()).unwrap();
    linked
        .stages
        .iter()
        .map(|st| {
            let mut nir = st.nir.clone().unwrap();
            finalize_variant(
                &mut nir,
                &VariantLowering::default(),
                &rgl_nir::options::CompilerOptions::default(),
                &mut Runner::new(),
            )
            .unwrap();
            nir
        })
        .collect()
}

/// Levels of the sampled 256×256 texture: 1, or the full chain (9) with
/// `LINEAR_MIPMAP_LINEAR`.
fn setup(
    threads: usize,
    fs: &str,
    tex_levels: u32,
    compiler: Arc<dyn ShaderCompiler>,
) -> SoftDriver {
    let mut f = Fixture::new(SIZE, SIZE, Format::Rgba8Unorm, None, threads, 0);
    f.d.set_compiler(compiler);
    let quad: [f32; 16] = [
        -1., -1., 0., 1., 1., -1., 0., 1., 1., 1., 0., 1., -1., 1., 0., 1.,
    ];
    f.bind_vertices(&quad).unwrap();
    let mut d = f.d;
    for nir in compile(fs) {
        let stage = if nir.stage == rgl_nir::ir::Stage::Vertex {
            ShaderStage::Vertex
        } else {
            ShaderStage::Fragment
        };
        let h = d.create_shader(&nir).unwrap();
        d.bind_shader(stage, Some(h)).unwrap();
    }
    // Uniforms: k at slot 0, n at slot 1 (the linker's order of first use).
    let k = [0.5f32, 0.25, 0.125, 0.0625];
    let mut words: Vec<u32> = k.iter().map(|f| f.to_bits()).collect();
    words.extend_from_slice(&[64, 64, 64, 64]);
    d.set_uniforms(&words).unwrap();
    let t = d
        .create_texture(&TextureDesc {
            target: TexTarget::D2,
            format: Format::Rgba8Unorm,
            width: 256,
            height: 256,
            depth: 1,
            levels: tex_levels,
        })
        .unwrap();
    for level in 0..tex_levels {
        let n = 256u32 >> level;
        let texels: Vec<u8> = (0..n * n * 4)
            .map(|i| ((i + level) * 7 % 251) as u8)
            .collect();
        d.texture_upload(
            t,
            level,
            TexBox {
                x: 0,
                y: 0,
                z: 0,
                width: n,
                height: n,
                depth: 1,
            },
            &texels,
        )
        .unwrap();
    }
    d.set_sampler_views(&[Some(SamplerView {
        texture: t,
        first_level: 0,
        last_level: tex_levels - 1,
        swizzle: Swizzle::IDENTITY,
    })])
    .unwrap();
    let s = d
        .create_sampler_state(&SamplerState {
            mag: Filter::Linear,
            min: Filter::Linear,
            mip: if tex_levels > 1 {
                MipFilter::Linear
            } else {
                MipFilter::None
            },
            ..SamplerState::default()
        })
        .unwrap();
    d.bind_sampler_states(&[Some(s)]).unwrap();
    d
}

/// (name, fragment shader, levels of the sampled texture).
const CASES: [(&str, &str, u32); 4] = [
    ("constant", CONSTANT, 1),
    ("tex_alu20", TEX_ALU20, 1),
    ("tex_trilinear", TEX_TRILINEAR, 9),
    ("loop64", LOOP64, 1),
];

/// Process CPU time (user + system) in seconds, from `/proc/self/stat`.
fn cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &s[s.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// The compilers measured: the interpreter and the JIT with 1, 2 and 4 quads per
/// loop iteration, the backtracking register allocator and Cranelift's `speed`
/// (`jit-qN`) or `none` (`jit-qN-none`) optimization level, and 4 quads with no
/// optimization and the single-pass allocator (`jit-q4-none-sp`, the quickest to
/// compile), where the host runs the JIT.
fn compilers() -> Vec<(String, Arc<dyn ShaderCompiler>)> {
    let mut out: Vec<(String, Arc<dyn ShaderCompiler>)> =
        vec![("interp".into(), Arc::new(LaneCompiler))];
    let mut configs = Vec::new();
    for quads in [1, 2, 4] {
        configs.push((
            format!("jit-q{quads}"),
            quads,
            OptLevel::Speed,
            Regalloc::Backtracking,
        ));
        configs.push((
            format!("jit-q{quads}-none"),
            quads,
            OptLevel::None,
            Regalloc::Backtracking,
        ));
    }
    configs.push((
        "jit-q4-none-sp".into(),
        4,
        OptLevel::None,
        Regalloc::SinglePass,
    ));
    for (name, quads, opt_level, regalloc) in configs {
        let opts = JitOptions {
            quads,
            opt_level,
            regalloc,
            ..JitOptions::default()
        };
        if let Ok(j) = JitCompiler::with_options(opts) {
            out.push((name, Arc::new(j)));
        }
    }
    out
}

fn report() {
    let draw = DrawInfo::arrays(PrimMode::TriangleFan, 0, 4);
    // `RGL_LANES_FILL=name` restricts the report to one case (for profiling),
    // `RGL_LANES_FILL_COMPILER=name` to one compiler.
    let only = std::env::var("RGL_LANES_FILL").ok();
    let only_compiler = std::env::var("RGL_LANES_FILL_COMPILER").ok();
    for (name, fs, levels) in CASES {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        for (cname, compiler) in compilers() {
            if only_compiler.as_deref().is_some_and(|o| o != cname) {
                continue;
            }
            for threads in [1usize, 2] {
                let mut d = setup(threads, fs, levels, compiler.clone());
                d.draw(&draw).unwrap();
                d.finish().unwrap();
                let c0 = cpu_seconds().unwrap_or(0.0);
                let t0 = std::time::Instant::now();
                let mut frames = 0u64;
                while t0.elapsed().as_secs_f64() < 2.0 {
                    d.draw(&draw).unwrap();
                    d.finish().unwrap();
                    frames += 1;
                }
                let mpix = frames as f64 * (SIZE * SIZE) as f64 / 1e6;
                let cpu = cpu_seconds().unwrap_or(0.0) - c0;
                println!(
                "lanes_fill {name} {cname} threads_{threads}: {frames} frames, {:.1} Mpix/s wall, {:.1} Mpix per CPU-second",
                mpix / t0.elapsed().as_secs_f64(),
                mpix / cpu.max(1e-9)
            );
            }
        }
    }
}

fn fill(c: &mut Criterion) {
    report();
    let mut measured: Vec<(String, Arc<dyn ShaderCompiler>)> =
        vec![("interp".into(), Arc::new(LaneCompiler))];
    if let Ok(j) = JitCompiler::new() {
        measured.push(("jit".into(), Arc::new(j)));
    }
    for (name, fs, levels) in CASES {
        let mut g = c.benchmark_group(format!("lanes_fill_1024_{name}"));
        g.throughput(Throughput::Elements((SIZE * SIZE) as u64));
        for (cname, compiler) in &measured {
            for threads in [1usize, 2] {
                let mut d = setup(threads, fs, levels, compiler.clone());
                let draw = DrawInfo::arrays(PrimMode::TriangleFan, 0, 4);
                g.bench_function(format!("{cname}_threads_{threads}"), |b| {
                    b.iter(|| {
                        d.draw(&draw).unwrap();
                        d.finish().unwrap();
                    })
                });
            }
        }
        g.finish();
    }
}

criterion_group!(benches, fill);
criterion_main!(benches);
