//! Occlusion and primitive queries count what GL says they count on every
//! driver and every per-fragment path: the fragment-invariant block fill, the
//! shaded path (the JIT's fused pipeline or the interpreter's), depth, stencil
//! and scissor tests, discard, a masked colour write, points and lines, quads
//! and a geometry shader. The expected counts come from the geometry of each
//! draw on the 64×64 framebuffer, worked out in the comments.

use rgl_state::{gl, Context, Program};

const FULL_VS: &str = "#version 130
uniform float z_slope;
void main() {
    vec2 corner[3] = vec2[3](vec2(-1.0, -1.0), vec2(3.0, -1.0), vec2(-1.0, 3.0));
    vec2 p = corner[gl_VertexID % 3];
    gl_Position = vec4(p, p.x * z_slope, 1.0);
}";

/// A constant colour: the fragment-invariant path.
const CONST_FS: &str = "#version 130
out vec4 color;
void main() { color = vec4(0.0, 1.0, 0.0, 1.0); }";

/// A colour per pixel, and a discard left of x = 16 when `cut` is set.
const SHADED_FS: &str = "#version 130
uniform bool cut;
out vec4 color;
void main() {
    if (cut && gl_FragCoord.x < 16.0)
        discard;
    color = vec4(gl_FragCoord.xy / 64.0, 0.0, 1.0);
}";

/// Points and lines at pixel centres, from their `gl_VertexID`.
const PRIM_VS: &str = "#version 130
uniform vec2 pts[4];
void main() {
    gl_Position = vec4((pts[gl_VertexID] + 0.5) / 32.0 - 1.0, 0.0, 1.0);
}";

/// Each input triangle becomes a strip of 4 vertices: 2 triangles.
const GS: &str = "#version 150
layout(triangles) in;
layout(triangle_strip, max_vertices = 4) out;
void main() {
    for (int i = 0; i < 4; i++) {
        gl_Position = gl_in[i % 3].gl_Position;
        EmitVertex();
    }
    EndPrimitive();
}";

const QUAD_VS: &str = "#version 130
void main() {
    vec2 c[4] = vec2[4](vec2(-1.0), vec2(1.0, -1.0), vec2(1.0), vec2(-1.0, 1.0));
    gl_Position = vec4(c[gl_VertexID % 4] * 0.5, 0.0, 1.0);
}";

fn program(c: &mut Context, stages: &[(u32, &str)]) -> Program {
    let p = c.create_program().expect("program");
    for &(kind, src) in stages {
        let s = c.create_shader(kind).expect("shader");
        c.shader_source(s, src);
        c.compile_shader(s);
        assert!(
            c.get_shader_compile_status(s),
            "{}",
            c.get_shader_info_log(s)
        );
        c.attach_shader(p, s);
    }
    c.link_program(p);
    assert!(
        c.get_program_link_status(p),
        "{}",
        c.get_program_info_log(p)
    );
    p
}

/// Runs `draw` inside a query of `target` and returns the result.
fn count(c: &mut Context, target: u32, draw: impl FnOnce(&mut Context)) -> u64 {
    let q = c.create_query().expect("query");
    c.begin_query(target, q);
    draw(c);
    c.end_query(target);
    let r = c.get_query_object_u64(q, gl::QUERY_RESULT);
    assert_eq!(c.get_error(), gl::NO_ERROR, "{:?}", c.last_draw_error());
    c.delete_query(q);
    r
}

fn samples(c: &mut Context, draw: impl FnOnce(&mut Context)) -> u64 {
    count(c, gl::SAMPLES_PASSED, draw)
}

fn set_f32(c: &mut Context, p: Program, name: &str, v: f32) {
    let l = c.get_uniform_location(p, name);
    c.uniform_1_f32(l.as_ref(), v);
}

fn set_i32(c: &mut Context, p: Program, name: &str, v: i32) {
    let l = c.get_uniform_location(p, name);
    c.uniform_1_i32(l.as_ref(), v);
}

fn check_driver(driver: &str) {
    let Ok(mut c) = Context::new_headless_on(driver, 64, 64) else {
        eprintln!("driver {driver} is not available on this host; skipped");
        return;
    };
    let vao = c.create_vertex_array().expect("vao");
    c.bind_vertex_array(Some(vao));
    let tri = |c: &mut Context| c.draw_arrays(gl::TRIANGLES, 0, 3);

    for (fs, what) in [(CONST_FS, "constant"), (SHADED_FS, "shaded")] {
        let p = program(
            &mut c,
            &[(gl::VERTEX_SHADER, FULL_VS), (gl::FRAGMENT_SHADER, fs)],
        );
        c.use_program(Some(p));
        set_f32(&mut c, p, "z_slope", 0.0);
        // The whole 64×64 framebuffer.
        assert_eq!(samples(&mut c, tri), 4096, "{driver} {what}: full screen");
        // Scissor 10×7.
        c.enable(gl::SCISSOR_TEST);
        c.scissor(3, 4, 10, 7);
        assert_eq!(samples(&mut c, tri), 70, "{driver} {what}: scissor");
        c.disable(gl::SCISSOR_TEST);
        // Colour writes masked: the samples still pass.
        c.color_mask(false, false, false, false);
        assert_eq!(samples(&mut c, tri), 4096, "{driver} {what}: colour mask");
        c.color_mask(true, true, true, true);
        // Depth: cleared to 0.5; z = x_ndc puts window depth below 0.5 exactly
        // on the 32 columns whose centres have x_ndc < 0.
        c.enable(gl::DEPTH_TEST);
        c.clear_depth_f64(0.5);
        c.clear(gl::DEPTH_BUFFER_BIT);
        c.depth_func(gl::LESS);
        set_f32(&mut c, p, "z_slope", 1.0);
        assert_eq!(samples(&mut c, tri), 2048, "{driver} {what}: depth LESS");
        c.clear(gl::DEPTH_BUFFER_BIT);
        set_f32(&mut c, p, "z_slope", 0.0);
        c.depth_func(gl::GREATER);
        assert_eq!(
            samples(&mut c, tri),
            0,
            "{driver} {what}: depth GREATER at equal depth"
        );
        c.disable(gl::DEPTH_TEST);
        // Stencil: cleared to 0, the test wants 1.
        c.enable(gl::STENCIL_TEST);
        c.clear_stencil(0);
        c.clear(gl::STENCIL_BUFFER_BIT);
        c.stencil_func(gl::EQUAL, 1, 0xff);
        assert_eq!(samples(&mut c, tri), 0, "{driver} {what}: stencil");
        c.stencil_func(gl::EQUAL, 0, 0xff);
        assert_eq!(
            samples(&mut c, tri),
            4096,
            "{driver} {what}: stencil passing"
        );
        c.disable(gl::STENCIL_TEST);
        // ANY_SAMPLES_PASSED is a boolean.
        assert_eq!(
            count(&mut c, gl::ANY_SAMPLES_PASSED, tri),
            1,
            "{driver} {what}: any"
        );
        // One triangle generated per draw.
        assert_eq!(
            count(&mut c, gl::PRIMITIVES_GENERATED, tri),
            1,
            "{driver} {what}"
        );
    }

    // Discard left of x = 16: 48 of 64 columns survive.
    let p = program(
        &mut c,
        &[
            (gl::VERTEX_SHADER, FULL_VS),
            (gl::FRAGMENT_SHADER, SHADED_FS),
        ],
    );
    c.use_program(Some(p));
    set_f32(&mut c, p, "z_slope", 0.0);
    set_i32(&mut c, p, "cut", 1);
    assert_eq!(samples(&mut c, tri), 48 * 64, "{driver}: discard");

    // Points and lines at pixel centres: 3 points; a horizontal line from
    // pixel 2 to pixel 12 covers the 10 pixels 2..=11 (the diamond-exit rule
    // leaves the last one out).
    let p = program(
        &mut c,
        &[
            (gl::VERTEX_SHADER, PRIM_VS),
            (gl::FRAGMENT_SHADER, CONST_FS),
        ],
    );
    c.use_program(Some(p));
    let l = c.get_uniform_location(p, "pts");
    c.uniform_2_f32_slice(l.as_ref(), &[5.0, 5.0, 20.0, 9.0, 40.0, 33.0, 0.0, 0.0]);
    assert_eq!(
        samples(&mut c, |c| c.draw_arrays(gl::POINTS, 0, 3)),
        3,
        "{driver}: points"
    );
    assert_eq!(
        count(&mut c, gl::PRIMITIVES_GENERATED, |c| c.draw_arrays(
            gl::POINTS,
            0,
            3
        )),
        3,
        "{driver}: points generated"
    );
    c.uniform_2_f32_slice(l.as_ref(), &[2.0, 20.0, 12.0, 20.0, 0.0, 0.0, 0.0, 0.0]);
    assert_eq!(
        samples(&mut c, |c| c.draw_arrays(gl::LINES, 0, 2)),
        10,
        "{driver}: line"
    );

    // Quads: two quads are two primitives (each split in two triangles), and
    // each covers the centre 32×32 pixels.
    let p = program(
        &mut c,
        &[
            (gl::VERTEX_SHADER, QUAD_VS),
            (gl::FRAGMENT_SHADER, CONST_FS),
        ],
    );
    c.use_program(Some(p));
    let quads = |c: &mut Context| c.draw_arrays(gl::QUADS, 0, 8);
    assert_eq!(
        count(&mut c, gl::PRIMITIVES_GENERATED, quads),
        2,
        "{driver}: quads"
    );
    assert_eq!(
        samples(&mut c, quads),
        2 * 32 * 32,
        "{driver}: quad samples"
    );

    // A geometry shader turning each triangle into a 4-vertex strip: 2
    // generated primitives per input triangle, 3 input triangles.
    let p = program(
        &mut c,
        &[
            (gl::VERTEX_SHADER, FULL_VS),
            (gl::GEOMETRY_SHADER, GS),
            (gl::FRAGMENT_SHADER, CONST_FS),
        ],
    );
    c.use_program(Some(p));
    set_f32(&mut c, p, "z_slope", 0.0);
    let nine = |c: &mut Context| c.draw_arrays(gl::TRIANGLES, 0, 9);
    assert_eq!(
        count(&mut c, gl::PRIMITIVES_GENERATED, nine),
        6,
        "{driver}: GS"
    );
}

#[test]
fn queries_count_on_the_jit() {
    check_driver("jit");
}

#[test]
fn queries_count_on_the_interpreter() {
    check_driver("interp");
}
