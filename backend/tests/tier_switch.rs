//! Tiered fused pipelines switch inside a draw: a draw that started on a
//! variant's tier-0 code takes its optimised build at the next call of the
//! compiled function once the tier-up worker has published it
//! (`soft::fused`). The two builds are one IR compiled with different
//! Cranelift settings, so a draw that switches after any number of calls
//! leaves the same bytes as a draw on tier 0 only and one on the optimised
//! code only (and the lane interpreter's picture). `PipelineCache::set_switch_after` places
//! the switch inside the draw; the cache's `mid_draw_switches` counts it.
//!
//! The fragment shader's own invocation function, which a fused draw does
//! not run, is built on first use: a fused draw leaves it unbuilt, and a later
//! draw on the Rust per-pixel path builds it (or takes the tier-up worker's
//! build) and leaves the bytes of a shader compiled without fused pipelines.

mod common;

use std::sync::Arc;

use common::Fixture;
use rgl_backend::driver::PrimMode;
use rgl_backend::exec::{Invocation, ShaderCompiler, ShaderExec, ShaderInfo};
use rgl_backend::format::Format;
use rgl_backend::jit::JitShader;
use rgl_backend::jit::{JitCompiler, JitOptions, OptLevel, Regalloc};
use rgl_backend::lanes::{LaneCompiler, LaneShader};
use rgl_backend::Driver;

/// A fragment shader with a divergent select, a division, a square root, a
/// fused multiply-add, an exponential and a fract on its input (as rgl's
/// NIR pipeline leaves such GLSL), clamped to [0, 1].
const FRAG: &str = r#"shader: MESA_SHADER_FRAGMENT
io_lowered: true
inputs: 1
outputs: 1
uniforms: 0
decl_var shader_out INTERP_MODE_NONE none vec4 gl_FragColor (FRAG_RESULT_COLOR.xyzw, 0, 0)
decl_var shader_in INTERP_MODE_NONE none vec4 c (VARYING_SLOT_VAR0.xyzw, 0, 0)
decl_function main () (entrypoint)

impl main {
    block b0:   // preds:
    32     %0 = load_const (0x00000000 = 0.000000)
    32x2   %1 = @load_barycentric_pixel () (interp_mode=0)
    32x4   %2 = @load_interpolated_input (%1, %0 (0x0)) (base=0, component=0, dest_type=float32, io location=VARYING_SLOT_VAR0 slots=1)
    32     %3 = load_const (0x3f400000 = 0.750000)
    32x4   %4 = fmul %2, %3.xxxx (0.750000, 0.750000, 0.750000, 0.750000)
    32x4   %5 = load_const (0x3e000000 = 0.125000, 0x3e800000 = 0.250000, 0x3d800000 = 0.062500, 0x3f000000 = 0.500000)
    32x4   %6 = fadd %4, %5 (0.125000, 0.250000, 0.062500, 0.500000)
    32     %7 = load_const (0x3f000000 = 0.500000)
    1      %8 = flt %2.x, %7 (0.500000)
    32x4   %9 = bcsel %8.xxxx, %6.wzyx, %6
    32x4  %10 = fdiv %9, %6.yxwz
    32x4  %11 = fsqrt %10
    32x4  %12 = ffma %11, %2.zwxy, %9
    32x4  %13 = fexp2 %12
    32x4  %14 = ffract %13
    32x4  %15 = fmul %14, %11
    32x4  %16 = fsat %15
                @store_output (%16, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1)
                // succs: b1
    block b1:
}
"#;

/// Target size: five 64-row bands, edges inside 4×4 blocks.
const W: u32 = 93;
const H: u32 = 301;

/// A jittered 7×7 grid of quads, two triangles each, with per-vertex
/// colours from a fixed linear congruential sequence: 98 triangles, each
/// one or more calls of the compiled function per band.
fn vertices() -> Vec<f32> {
    let mut seed = 0x2545_f491_u32;
    let mut next = move || {
        seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (seed >> 8) as f32 / (1u32 << 24) as f32
    };
    let n = 7;
    let mut grid = Vec::new();
    for j in 0..=n {
        for i in 0..=n {
            let jitter = |v: f32| if v == 0.0 || v == 1.0 { 0.0 } else { 0.03 };
            let (u, v) = (i as f32 / n as f32, j as f32 / n as f32);
            let x = u + jitter(u) * (next() - 0.5);
            let y = v + jitter(v) * (next() - 0.5);
            grid.push([x * 2.0 - 1.0, y * 2.0 - 1.0, next(), next(), next(), next()]);
        }
    }
    let mut out = Vec::new();
    let at = |i: usize, j: usize| grid[j * (n + 1) + i];
    for j in 0..n {
        for i in 0..n {
            for t in [
                [at(i, j), at(i + 1, j), at(i, j + 1)],
                [at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)],
            ] {
                for p in t {
                    out.extend([p[0], p[1], 0.0, 1.0, p[2], p[3], p[4], p[5]]);
                }
            }
        }
    }
    out
}

fn fragment() -> rgl_nir::ir::Shader {
    rgl_nir::reader::parse_shader(FRAG).expect("parse the fragment shader")
}

fn fixture(fs: Arc<dyn ShaderExec>, format: Format, threads: usize) -> Fixture {
    let mut f = Fixture::new(W, H, format, None, threads, 1);
    f.set_fs(fs);
    f
}

/// Clears the target, draws the grid and reads the target back as bits.
fn draw(f: &mut Fixture, verts: &[f32]) -> Vec<[u32; 4]> {
    f.clear([0.1, 0.2, 0.3, 0.4]);
    f.draw_clip(PrimMode::Triangles, verts).expect("draw");
    f.read().into_iter().map(|p| p.map(f32::to_bits)).collect()
}

fn jit(opts: JitOptions) -> Arc<JitCompiler> {
    Arc::new(JitCompiler::with_options(opts).expect("the JIT runs on this host"))
}

/// Tier 0 only, the optimised code only, and the tiered compiler.
fn compilers() -> [Arc<JitCompiler>; 3] {
    let base = JitOptions::default();
    [
        jit(base.tier0()),
        jit(JitOptions {
            tier: false,
            ..base
        }),
        jit(JitOptions { tier: true, ..base }),
    ]
}

#[test]
fn a_draw_switching_tiers_leaves_the_bytes_of_either_tier() {
    let nir = fragment();
    let verts = vertices();
    let [t0, t1, tiered] = compilers();
    assert_eq!(
        (t0.options().opt_level, t0.options().regalloc),
        (OptLevel::None, Regalloc::SinglePass)
    );
    assert!(tiered.options().tiered() && !t1.options().tiered());
    for format in [Format::Rgba8Unorm, Format::Rgba32Float] {
        for threads in [1, 2] {
            let what = format!("{format:?}, {threads} threads");
            let mut images = Vec::new();
            for c in [&t0, &t1] {
                let mut f = fixture(c.compile(&nir).expect("JIT"), format, threads);
                images.push(draw(&mut f, &verts));
                let cnt = f.d.counters();
                assert_eq!(
                    (cnt.pipeline_builds, cnt.pipeline_fallbacks),
                    (1, 0),
                    "{cnt:?}"
                );
            }
            let reference = images.swap_remove(0);
            let clear = draw(
                &mut fixture(t0.compile(&nir).expect("JIT"), format, threads),
                &[],
            );
            let shaded = reference.iter().zip(&clear).filter(|(a, b)| a != b).count();
            assert!(
                shaded > (W * H) as usize * 9 / 10,
                "{what}: the grid covers the target ({shaded} pixels shaded)"
            );
            assert!(images[0] == reference, "{what}: optimised against tier 0");
            // The lane interpreter draws the same picture (its `fexp2` and
            // `fsqrt` may round differently from the JIT's in the last bit).
            let lanes = draw(
                &mut fixture(
                    LaneCompiler.compile(&nir).expect("interpreter"),
                    format,
                    threads,
                ),
                &verts,
            );
            let far = lanes
                .iter()
                .zip(&reference)
                .flat_map(|(a, b)| a.iter().zip(b))
                .filter(|(a, b)| (f32::from_bits(**a) - f32::from_bits(**b)).abs() > 1e-3)
                .count();
            assert_eq!(far, 0, "{what}: the JIT draws the interpreter's picture");
            for after in [1u64, 2, 5, 17] {
                let fs = tiered.compile(&nir).expect("tiered JIT");
                let cache = fs.pipelines().expect("a fragment shader has pipelines");
                cache.set_switch_after(after);
                let mut f = fixture(Arc::clone(&fs), format, threads);
                // Builds the tier-0 variant and queues its optimised build
                // (which may land during this draw and switch it too).
                let first = draw(&mut f, &verts);
                assert!(
                    first == reference,
                    "{what}: tiered first draw against tier 0"
                );
                tiered.wait_tier_ups();
                let before = cache.stats().mid_draw_switches;
                // The lookup keeps the tier-0 variant (the hook holds it); the
                // draw runs `after` calls on it, then the optimised build.
                let second = draw(&mut f, &verts);
                let stats = cache.stats();
                assert_eq!(stats.mid_draw_switches, before + 1, "{what}: {stats:?}");
                assert_eq!(stats.tier_ups, 0, "{what}: {stats:?}");
                assert!(
                    second == reference,
                    "{what}: switched after {after} calls against tier 0"
                );
                // Without the hook the next lookup swaps the optimised build
                // into the slot: no switch inside that draw.
                cache.set_switch_after(0);
                let third = draw(&mut f, &verts);
                let stats = cache.stats();
                assert_eq!(
                    (stats.tier_ups, stats.mid_draw_switches),
                    (1, before + 1),
                    "{what}: {stats:?}"
                );
                assert!(third == reference, "{what}: optimised after the swap");
                assert_eq!(f.d.counters().pipeline_tier_ups, 1);
            }
        }
    }
    let stats = tiered.tier_stats();
    assert_eq!(stats.failed, 0, "{stats:?}");
}

/// A JIT shader seen without its fused pipelines: its draws take the Rust
/// per-pixel path around its invocation function.
struct NoPipelines(Arc<JitShader>);

impl ShaderExec for NoPipelines {
    fn info(&self) -> &ShaderInfo {
        self.0.info()
    }

    fn run(&self, inv: &mut Invocation<'_>) -> rgl_backend::Result<()> {
        self.0.run(inv)
    }
}

#[test]
fn a_fused_draw_leaves_the_invocation_function_unbuilt() {
    let nir = fragment();
    let verts = vertices();
    let info = LaneShader::new(&nir).expect("interpreter").info().clone();
    let base = JitOptions::default();
    for (tier, threads) in [(false, 1), (false, 2), (true, 1)] {
        let what = format!("tier {tier}, {threads} threads");
        let opts = JitOptions { tier, ..base };
        // The reference: a compiler without fused pipelines builds the
        // function with the shader and its draws run it.
        let shader_only = jit(JitOptions {
            fused_pipeline: false,
            ..opts
        });
        let plain = shader_only.compile_native(&nir, &info).expect("JIT");
        assert!(plain.invocation_built(), "{what}");
        let plain: Arc<dyn ShaderExec> = Arc::new(plain);
        let format = Format::Rgba8Unorm;
        let reference = draw(&mut fixture(plain, format, threads), &verts);
        let c = jit(opts);
        let fs = Arc::new(c.compile_native(&nir, &info).expect("JIT"));
        assert!(!fs.invocation_built(), "{what}: built at compile");
        let mut f = fixture(Arc::clone(&fs) as Arc<dyn ShaderExec>, format, threads);
        draw(&mut f, &verts);
        let cnt = f.d.counters();
        assert_eq!(
            (cnt.pipeline_builds, cnt.pipeline_fallbacks),
            (1, 0),
            "{what}: {cnt:?}"
        );
        assert!(!fs.invocation_built(), "{what}: built by a fused draw");
        let mut shaders = vec![("compiled", Arc::clone(&fs))];
        if !tier {
            // Stored before any use: a blob without code, which loads back as
            // a shader that defers the build too. (Tiered, the worker's
            // optimised build may be stored instead.)
            let blob = fs.serialize().expect("a deferred shader serialises");
            let loaded = Arc::new(c.load_native(&nir, &blob).expect("load"));
            assert!(!loaded.invocation_built(), "{what}: built at load");
            shaders.push(("loaded", loaded));
        } else {
            // The worker's optimised build serves the later draw: the draw
            // thread builds nothing.
            c.wait_tier_ups();
        }
        for (name, shader) in &shaders {
            let mut f = fixture(Arc::new(NoPipelines(Arc::clone(shader))), format, threads);
            let later = draw(&mut f, &verts);
            assert!(
                later == reference,
                "{what}, {name}: a non-fused draw after the fused one"
            );
            assert_eq!(shader.invocation_built(), !tier, "{what}, {name}");
            assert!(shader.code_size() > 0, "{what}, {name}");
        }
        assert_eq!(c.tier_stats().failed, 0, "{what}");
    }
}
