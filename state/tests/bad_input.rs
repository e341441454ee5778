//! Hostile draws: out-of-range vertex indices, UBO reads past the bound range,
//! texel fetches outside the image and shaders that never terminate. Each reads
//! zeros or stops with an error the application can see; nothing panics and the
//! context keeps working afterwards.

mod common;

use common::{buffer, f32_bytes, fullscreen_quad, pixel, program};
use rgl_state::{gl, Context};

const QUAD_VS: &str = "#version 140
in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }";

#[test]
fn a_shader_that_never_terminates_fails_the_draw_and_the_context_recovers() {
    let mut ctx = Context::new_headless(16, 16);
    // The trip count comes from a uniform, so no pass can prove the loop finite
    // or infinite, and its result is used, so it cannot be removed: only the
    // driver's instruction budget can stop it.
    let fs = "#version 140
uniform int step_size;
out vec4 color;
void main() {
    int i = 0;
    while (i < 10) { i += step_size; }
    color = vec4(float(i) / 10.0);
}";
    let looping = program(
        &mut ctx,
        &[(gl::VERTEX_SHADER, QUAD_VS), (gl::FRAGMENT_SHADER, fs)],
    );
    fullscreen_quad(&mut ctx, 0);
    let step = ctx.get_uniform_location(looping, "step_size");
    ctx.uniform_1_i32(step.as_ref(), 0);
    ctx.clear_color(0.0, 0.0, 1.0, 1.0);
    ctx.clear(gl::COLOR_BUFFER_BIT);
    let started = std::time::Instant::now();
    ctx.draw_arrays(gl::TRIANGLES, 0, 6);
    ctx.finish();
    let error = ctx.get_error();
    assert_ne!(error, gl::NO_ERROR, "an endless shader must fail its draw");
    let why = ctx.last_draw_error().expect("the failed draw says why");
    assert!(why.contains("budget"), "unexpected reason: {why}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(30),
        "the budget took {:?} to stop the draw",
        started.elapsed()
    );

    // The same program with a terminating trip count draws normally.
    ctx.uniform_1_i32(step.as_ref(), 1);
    ctx.draw_arrays(gl::TRIANGLES, 0, 6);
    ctx.finish();
    assert_eq!(ctx.get_error(), gl::NO_ERROR, "{:?}", ctx.last_draw_error());
    assert_eq!(pixel(&mut ctx, 8, 8), [255, 255, 255, 255]);
}

#[test]
fn out_of_range_vertex_indices_read_zeros() {
    let mut ctx = Context::new_headless(16, 16);
    let vs = "#version 140
in vec2 pos;
in vec4 color;
flat out vec4 v_color;
void main() { gl_Position = vec4(pos, 0.0, 1.0); v_color = color; }";
    let fs = "#version 140
flat in vec4 v_color;
out vec4 out_color;
void main() { out_color = v_color + vec4(0.0, 0.0, 0.0, 1.0); }";
    let p = program(
        &mut ctx,
        &[(gl::VERTEX_SHADER, vs), (gl::FRAGMENT_SHADER, fs)],
    );
    let pos = ctx.get_attrib_location(p, "pos").expect("pos");
    let color = ctx.get_attrib_location(p, "color").expect("color");
    let vao = ctx.create_vertex_array().expect("vao");
    ctx.bind_vertex_array(Some(vao));
    // Six positions (a full-screen quad), but only one color: vertices 1..5
    // read past the end of the color buffer.
    let quad = [
        -1.0, -1.0, 1.0, -1.0, -1.0, 1.0, -1.0, 1.0, 1.0, -1.0, 1.0, 1.0,
    ];
    buffer(&mut ctx, gl::ARRAY_BUFFER, &f32_bytes(&quad));
    ctx.vertex_attrib_pointer_f32(pos, 2, gl::FLOAT, false, 0, 0);
    ctx.enable_vertex_attrib_array(pos);
    buffer(
        &mut ctx,
        gl::ARRAY_BUFFER,
        &f32_bytes(&[1.0, 0.0, 0.0, 1.0]),
    );
    ctx.vertex_attrib_pointer_f32(color, 4, gl::FLOAT, false, 0, 0);
    ctx.enable_vertex_attrib_array(color);
    ctx.clear_color(0.0, 0.0, 1.0, 1.0);
    ctx.clear(gl::COLOR_BUFFER_BIT);
    // Provoking vertex (the last) of both triangles is past the colors.
    ctx.draw_arrays(gl::TRIANGLES, 0, 6);
    ctx.finish();
    assert_eq!(ctx.get_error(), gl::NO_ERROR, "{:?}", ctx.last_draw_error());
    assert_eq!(pixel(&mut ctx, 8, 8), [0, 0, 0, 255]);

    // Indices far outside every buffer, and the largest u32 index.
    let indices: Vec<u8> = [0u32, 1_000_000, 0xFFFF_FFF0, 5, 4, 3]
        .iter()
        .flat_map(|i| i.to_le_bytes())
        .collect();
    buffer(&mut ctx, gl::ELEMENT_ARRAY_BUFFER, &indices);
    ctx.draw_elements(gl::TRIANGLES, 6, gl::UNSIGNED_INT, 0);
    ctx.finish();
    assert_eq!(ctx.get_error(), gl::NO_ERROR, "{:?}", ctx.last_draw_error());
    // The element buffer itself is too short for this count: GL leaves the
    // result undefined; rgl either draws reading zeros or refuses the draw with
    // an error, and the next valid draw works.
    ctx.draw_elements(gl::TRIANGLES, 600, gl::UNSIGNED_INT, 0);
    ctx.finish();
    let error = ctx.get_error();
    assert!(
        error == gl::NO_ERROR || error == gl::INVALID_OPERATION,
        "unexpected error {error:#x}"
    );
    ctx.draw_elements(gl::TRIANGLES, 6, gl::UNSIGNED_INT, 0);
    ctx.finish();
    assert_eq!(ctx.get_error(), gl::NO_ERROR, "{:?}", ctx.last_draw_error());
}

#[test]
fn uniform_block_reads_past_the_bound_range_are_zero() {
    let mut ctx = Context::new_headless(16, 16);
    let fs = "#version 140
uniform Colors { vec4 colors[4]; };
uniform int which;
out vec4 color;
void main() { color = colors[which] + vec4(0.0, 0.0, 0.0, 1.0); }";
    let p = program(
        &mut ctx,
        &[(gl::VERTEX_SHADER, QUAD_VS), (gl::FRAGMENT_SHADER, fs)],
    );
    fullscreen_quad(&mut ctx, 0);
    let block = ctx.get_uniform_block_index(p, "Colors").expect("block");
    ctx.uniform_block_binding(p, block, 2);
    let data = f32_bytes(&[
        1.0, 0.0, 0.0, 0.0, // colors[0]
        0.0, 1.0, 0.0, 0.0, // colors[1]
        1.0, 1.0, 1.0, 0.0, // colors[2]: outside the bound range below
        1.0, 1.0, 1.0, 0.0, // colors[3]
    ]);
    let ubo = buffer(&mut ctx, gl::UNIFORM_BUFFER, &data);
    // Only the first 32 bytes (colors[0..2]) are bound.
    ctx.bind_buffer_range(gl::UNIFORM_BUFFER, 2, Some(ubo), 0, 32);
    let which = ctx.get_uniform_location(p, "which");
    for (index, expected) in [
        (1, [0, 255, 0, 255]),
        (2, [0, 0, 0, 255]),
        (3, [0, 0, 0, 255]),
    ] {
        ctx.uniform_1_i32(which.as_ref(), index);
        ctx.draw_arrays(gl::TRIANGLES, 0, 6);
        ctx.finish();
        assert_eq!(ctx.get_error(), gl::NO_ERROR, "{:?}", ctx.last_draw_error());
        assert_eq!(pixel(&mut ctx, 8, 8), expected, "colors[{index}]");
    }
    // An index far outside the array is clamped or zero, never a crash.
    ctx.uniform_1_i32(which.as_ref(), 1 << 30);
    ctx.draw_arrays(gl::TRIANGLES, 0, 6);
    ctx.finish();
    assert_eq!(ctx.get_error(), gl::NO_ERROR, "{:?}", ctx.last_draw_error());
}

#[test]
fn texel_fetches_outside_the_image_are_zero() {
    let mut ctx = Context::new_headless(16, 16);
    let fs = "#version 140
uniform sampler2D tex;
uniform ivec2 at;
uniform int level;
out vec4 color;
void main() { color = texelFetch(tex, at, level) + vec4(0.0, 0.0, 0.0, 0.5); }";
    let p = program(
        &mut ctx,
        &[(gl::VERTEX_SHADER, QUAD_VS), (gl::FRAGMENT_SHADER, fs)],
    );
    fullscreen_quad(&mut ctx, 0);
    let t = ctx.create_texture().expect("texture");
    ctx.bind_texture(gl::TEXTURE_2D, Some(t));
    let texels = [255u8, 128, 64, 128].repeat(16);
    ctx.tex_image_2d(
        gl::TEXTURE_2D,
        0,
        gl::RGBA8 as i32,
        4,
        4,
        0,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        Some(&texels),
    );
    ctx.tex_parameter_i32(gl::TEXTURE_2D, gl::TEXTURE_MIN_FILTER, gl::NEAREST as i32);
    let at = ctx.get_uniform_location(p, "at");
    let level = ctx.get_uniform_location(p, "level");
    for (xy, lod, expected) in [
        ([1, 2], 0, [255, 128, 64, 255]),
        ([4, 0], 0, [0, 0, 0, 128]),
        ([-1, 0], 0, [0, 0, 0, 128]),
        ([0, 1 << 30], 0, [0, 0, 0, 128]),
        ([0, 0], 5, [0, 0, 0, 128]),
        ([0, 0], -1, [0, 0, 0, 128]),
    ] {
        ctx.uniform_2_i32(at.as_ref(), xy[0], xy[1]);
        ctx.uniform_1_i32(level.as_ref(), lod);
        ctx.draw_arrays(gl::TRIANGLES, 0, 6);
        ctx.finish();
        assert_eq!(ctx.get_error(), gl::NO_ERROR, "{:?}", ctx.last_draw_error());
        let got = pixel(&mut ctx, 8, 8);
        for c in 0..4 {
            assert!(
                got[c].abs_diff(expected[c]) <= 1,
                "texelFetch({xy:?}, {lod}): got {got:?}, expected {expected:?}"
            );
        }
    }
}
