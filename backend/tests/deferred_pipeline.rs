//! Deferred fused pipelines (`JitOptions::defer_pipelines`, tiered JIT): the
//! first draw of a new pipeline key compiles no pipeline — it takes the Rust
//! per-pixel path with the shader's tier-0 function — and the optimised
//! pipeline, built on the tier-up worker, is swapped in at a later draw. Every
//! draw leaves the same bytes as the same draw with the pipeline compiled
//! in the draw (tier 0, fused) and with the lane interpreter, and the counters
//! say which path drew.

mod common;

use std::sync::Arc;

use common::Fixture;
use rgl_backend::driver::PrimMode;
use rgl_backend::exec::{ShaderCompiler, ShaderExec};
use rgl_backend::format::Format;
use rgl_backend::jit::{JitCompiler, JitOptions};
use rgl_backend::lanes::LaneCompiler;
use rgl_backend::Driver;

/// A fragment shader with a divergent select on its input, as rgl's front
/// end and NIR pipeline leave `c * 0.75 + k`, swizzled where `c.x < 0.5`,
/// squared and clamped (GLSL 1.30 §8.3 `clamp`).
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
    32x4  %10 = fmul %9, %9
    32x4  %11 = fsat %10
                @store_output (%11, %0 (0x0)) (base=0, range=1, wrmask=xyzw, component=0, src_type=float32, io location=FRAG_RESULT_COLOR slots=1)
                // succs: b1
    block b1:
}
"#;

fn fragment() -> rgl_nir::ir::Shader {
    rgl_nir::reader::parse_shader(FRAG).expect("parse the fragment shader")
}

/// Two triangles with per-vertex colours: one covers the left part of the
/// target, one a sliver (partly covered 4x4 blocks on both).
const VERTS: [f32; 48] = [
    -1.0, -1.0, 0.0, 1.0, 0.0, 0.2, 0.9, 1.0, //
    0.6, -1.0, 0.0, 1.0, 1.0, 0.4, 0.1, 0.3, //
    -1.0, 0.9, 0.0, 1.0, 0.3, 1.0, 0.5, 0.0, //
    0.1, 0.95, 0.0, 1.0, 0.9, 0.1, 0.0, 1.0, //
    0.97, -0.9, 0.0, 1.0, 0.2, 0.8, 0.6, 0.5, //
    0.99, 0.99, 0.0, 1.0, 0.7, 0.3, 0.2, 0.9, //
];

/// Clears a 61x37 RGBA8 target (edges inside blocks), draws `VERTS` with
/// `fs` on `threads` threads and reads the target back.
fn draw(f: &mut Fixture) -> Vec<[f32; 4]> {
    f.clear([0.1, 0.2, 0.3, 0.4]);
    f.draw_clip(PrimMode::Triangles, &VERTS).expect("draw");
    f.read()
}

fn fixture(fs: Arc<dyn ShaderExec>, threads: usize) -> Fixture {
    let mut f = Fixture::new(61, 37, Format::Rgba8Unorm, None, threads, 1);
    f.set_fs(fs);
    f
}

fn jit(defer: bool) -> Arc<JitCompiler> {
    let opts = JitOptions {
        tier: true,
        defer_pipelines: defer,
        ..JitOptions::default()
    };
    Arc::new(JitCompiler::with_options(opts).expect("the JIT runs on this host"))
}

#[test]
fn deferred_pipeline_draws_the_same_bytes_and_tiers_up() {
    let nir = fragment();
    for threads in [1, 2] {
        let reference = draw(&mut fixture(
            LaneCompiler.compile(&nir).expect("interpreter"),
            threads,
        ));
        let tier0 = jit(false);
        let mut fused = fixture(tier0.compile(&nir).expect("tier-0 JIT"), threads);
        let fused_img = draw(&mut fused);
        let c = fused.d.counters();
        assert_eq!((c.pipeline_builds, c.pipeline_fallbacks), (1, 0), "{c:?}");
        assert!(
            c.pipeline_build_ns > 0,
            "the tier-0 pipeline compiled in the draw"
        );
        assert_eq!(
            fused_img, reference,
            "{threads} threads: fused tier 0 against the interpreter"
        );

        let deferred = jit(true);
        let mut f = fixture(deferred.compile(&nir).expect("deferred JIT"), threads);
        let first = draw(&mut f);
        let c = f.d.counters();
        // The miss queued the build and drew on the Rust path: no compile in
        // the draw, not a fallback.
        assert_eq!(
            (c.pipeline_builds, c.pipeline_fallbacks, c.pipeline_tier_ups),
            (1, 0, 0),
            "{c:?}"
        );
        assert!(
            c.pipeline_build_ns < 1_000_000,
            "the deferred miss compiled in the draw: {} ns",
            c.pipeline_build_ns
        );
        assert_eq!(
            first, reference,
            "{threads} threads: deferred first draw against the interpreter"
        );
        deferred.wait_tier_ups();
        let stats = deferred.tier_stats();
        assert_eq!(stats.failed, 0, "{stats:?}");
        assert!(stats.done >= 2, "shader and pipeline rebuilt: {stats:?}");
        let second = draw(&mut f);
        let c = f.d.counters();
        assert_eq!((c.pipeline_tier_ups, c.pipeline_fallbacks), (1, 0), "{c:?}");
        assert_eq!(
            second, reference,
            "{threads} threads: optimised pipeline against the interpreter"
        );
        let third = draw(&mut f);
        let c = f.d.counters();
        assert_eq!((c.pipeline_tier_ups, c.pipeline_hits), (1, 2), "{c:?}");
        assert_eq!(third, reference);
    }
}
