//! Teardown of a context whose JIT still has optimised rebuilds queued or
//! running (tiered compiles, `RGL_JIT=tier=on`): dropping the context and the
//! compiler must neither crash nor leak code. Each round draws a few programs
//! (every variant queues rebuilds of its vertex and fragment shaders and of the
//! fused pipeline), then drops everything at once, without waiting; the
//! process's count of mapped JIT functions must be back where it started, and
//! the compiler's worker thread joined.
//!
//! One test in this file on purpose: the mapping count is per process, and
//! the tests of one file run in parallel.

use std::sync::Arc;

use rgl_backend::jit::{code, JitCompiler, JitOptions};
use rgl_backend::SoftDriver;
use rgl_state::{gl, Context};

const VS: &str = "#version 330
out vec2 uv;
void main() {
    vec2 p = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID & 2) * 2 - 1));
    uv = p;
    gl_Position = vec4(p, 0.0, 1.0);
}";

/// Fragment shaders differing in a loop count, so every program is a new
/// variant with a compile of some size.
fn fs(k: usize) -> String {
    format!(
        "#version 330
in vec2 uv;
out vec4 color;
void main() {{
    vec4 c = vec4(uv, 0.25, 1.0);
    for (int i = 0; i < {n}; i++) {{ c = fract(c * 1.618 + vec4(0.1, 0.2, 0.3, 0.4)); }}
    color = c;
}}",
        n = 4 + k
    )
}

fn draw_program(ctx: &mut Context, k: usize) {
    let program = ctx.create_program().expect("program");
    for (kind, src) in [
        (gl::VERTEX_SHADER, VS.to_string()),
        (gl::FRAGMENT_SHADER, fs(k)),
    ] {
        let s = ctx.create_shader(kind).expect("shader");
        ctx.shader_source(s, &src);
        ctx.compile_shader(s);
        assert!(
            ctx.get_shader_compile_status(s),
            "{}",
            ctx.get_shader_info_log(s)
        );
        ctx.attach_shader(program, s);
    }
    ctx.link_program(program);
    assert!(
        ctx.get_program_link_status(program),
        "{}",
        ctx.get_program_info_log(program)
    );
    ctx.use_program(Some(program));
    ctx.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(ctx.last_draw_error(), None);
}

#[test]
fn dropping_the_context_during_tier_ups_neither_crashes_nor_leaks() {
    let before = code::live_mappings();
    for round in 0..3 {
        let opts = JitOptions {
            tier: true,
            ..JitOptions::default()
        };
        let jit = Arc::new(JitCompiler::with_options(opts).expect("the JIT runs on this host"));
        assert!(jit.options().tiered());
        let mut driver = SoftDriver::new(2);
        driver.set_compiler(jit.clone());
        let mut ctx = Context::with_driver(Box::new(driver), 64, 64);
        // Every build is a compile (a cache entry would load final code).
        ctx.set_shader_cache(None);
        for k in 0..4 {
            draw_program(&mut ctx, round * 4 + k);
        }
        ctx.finish();
        let queued = jit.tier_stats().queued;
        // Vertex shader, fragment shader and fused pipeline of each program.
        assert!(queued >= 12, "round {round}: {queued} rebuilds queued");
        assert!(code::live_mappings() > before);
        // No wait: the rebuilds are queued or running while everything drops.
        drop(ctx);
        drop(jit);
        assert_eq!(
            code::live_mappings(),
            before,
            "round {round}: code still mapped after the context and compiler dropped"
        );
    }
}
