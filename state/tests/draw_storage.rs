//! Storage buffers and atomic counters in draws, through the GL API on both
//! shader back ends (the lane interpreter and the JIT driver, which runs
//! what it cannot compile on the interpreter): fragment shaders count their
//! invocations with `atomicAdd` and `atomicCounterIncrement`, store one word
//! per pixel, read and write out of range, and keep writing when the depth
//! test rejects every fragment. Expected values are worked out here from the
//! geometry (the covered pixels read back from the framebuffer), never from
//! rgl's earlier output.

mod common;

use rgl_backend::registry::{self, DriverConfig};
use rgl_state::{gl, Context, Program};

const SIZE: u32 = 8;

const VS: &str = "#version 330
layout(location = 0) in vec2 pos;
void main() { gl_Position = vec4(pos, 0.5, 1.0); }";

/// Contexts on each driver this host runs, with two raster threads.
fn contexts() -> Vec<(&'static str, Context)> {
    ["interp", "jit"]
        .into_iter()
        .filter_map(|name| {
            let d = registry::create(Some(name), &DriverConfig { threads: 2 }).ok()?;
            Some((name, Context::with_driver(d, SIZE, SIZE)))
        })
        .collect()
}

/// Links `vs` and `fs`, makes the program current and sets up `tri`
/// (clip-space x, y pairs) as attribute 0.
fn setup_with(c: &mut Context, vs: &str, fs: &str, tri: &[f32]) -> Program {
    let p = common::program(c, &[(gl::VERTEX_SHADER, vs), (gl::FRAGMENT_SHADER, fs)]);
    let vao = c.create_vertex_array().expect("vao");
    c.bind_vertex_array(Some(vao));
    common::buffer(c, gl::ARRAY_BUFFER, &common::f32_bytes(tri));
    c.vertex_attrib_pointer_f32(0, 2, gl::FLOAT, false, 0, 0);
    c.enable_vertex_attrib_array(0);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    p
}

/// [`setup_with`] and the pass-through vertex shader.
fn setup(c: &mut Context, fs: &str, tri: &[f32]) -> Program {
    setup_with(c, VS, fs, tri)
}

/// Draws `tri` after clearing to black and returns which pixels the shader's
/// red output reached (row-major from the bottom row, as `gl_FragCoord`;
/// `read_default_color_rgba8` gives the top row first).
fn draw_covered(c: &mut Context, tri_vertices: i32) -> Vec<bool> {
    c.clear_color(0.0, 0.0, 0.0, 0.0);
    c.clear(gl::COLOR_BUFFER_BIT | gl::DEPTH_BUFFER_BIT);
    c.draw_arrays(gl::TRIANGLES, 0, tri_vertices);
    assert_eq!(c.get_error(), gl::NO_ERROR, "{:?}", c.last_draw_error());
    let image = c.read_default_color_rgba8();
    let row = SIZE as usize * 4;
    image
        .chunks(row)
        .rev()
        .flat_map(|r| r.chunks(4).map(|px| px[0] != 0))
        .collect()
}

/// A triangle covering part of the framebuffer (edges through pixel quads,
/// so 2×2 quads on its edges carry helper lanes).
const PARTIAL: [f32; 6] = [-0.9, -0.8, 0.7, -0.3, -0.2, 0.9];
/// Two triangles covering the framebuffer.
const FULL: [f32; 12] = [
    -1.0, -1.0, 1.0, -1.0, 1.0, 1.0, -1.0, -1.0, 1.0, 1.0, -1.0, 1.0,
];

/// `atomicAdd` on a storage word once per covered fragment: the count is the
/// number of pixels the triangle colours, so neither helper lanes nor
/// uncovered lanes of a block add anything; the fragment's pixel index is
/// stored in its own word.
#[test]
fn fragment_atomic_add_counts_covered_pixels_and_stores_per_pixel() {
    let fs = "#version 330
#extension GL_ARB_shader_storage_buffer_object : require
layout(std430, binding = 1) buffer Out { uint count; uint pixel[]; };
out vec4 color;
void main() {
    uint i = uint(gl_FragCoord.y) * 8u + uint(gl_FragCoord.x);
    atomicAdd(count, 1u);
    pixel[i] = i + 1000u;
    color = vec4(1.0);
}";
    for (name, mut c) in contexts() {
        setup(&mut c, fs, &PARTIAL);
        let b = common::words_buffer(&mut c, &[0; 1 + 64]);
        c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 1, Some(b));
        let covered = draw_covered(&mut c, 3);
        let n = covered.iter().filter(|x| **x).count();
        assert!(
            n > 4 && n < 64,
            "{name}: the triangle covers part of the target ({n})"
        );
        let w = common::read_words(&mut c, b, 65);
        assert_eq!(w[0] as usize, n, "{name}: one atomicAdd per covered pixel");
        for (i, cov) in covered.iter().enumerate() {
            let want = if *cov { i as u32 + 1000 } else { 0 };
            assert_eq!(w[1 + i], want, "{name}: word of pixel {i}");
        }
    }
}

/// `atomicCounterIncrement` in a fragment shader: the counter at binding 0,
/// offset 4, ends at the covered pixel count, the old values the shader got
/// are a permutation of 0..n (checked through a per-pixel store), and the
/// word at offset 0 is untouched.
#[test]
fn atomic_counter_increments_are_atomic_across_threads() {
    let fs = "#version 330
#extension GL_ARB_shader_atomic_counters : require
#extension GL_ARB_shader_storage_buffer_object : require
layout(binding = 0, offset = 4) uniform atomic_uint tickets;
layout(std430, binding = 2) buffer Out { uint ticket[]; };
out vec4 color;
void main() {
    uint i = uint(gl_FragCoord.y) * 8u + uint(gl_FragCoord.x);
    ticket[i] = atomicCounterIncrement(tickets) + 1u;
    color = vec4(1.0);
}";
    for (name, mut c) in contexts() {
        setup(&mut c, fs, &FULL);
        let counters = common::words_buffer(&mut c, &[77, 0]);
        let out = common::words_buffer(&mut c, &[0; 64]);
        c.bind_buffer_base(gl::ATOMIC_COUNTER_BUFFER, 0, Some(counters));
        c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 2, Some(out));
        let covered = draw_covered(&mut c, 6);
        assert!(covered.iter().all(|x| *x), "{name}: full coverage");
        assert_eq!(
            common::read_words(&mut c, counters, 2),
            vec![77, 64],
            "{name}"
        );
        let mut t = common::read_words(&mut c, out, 64);
        t.sort_unstable();
        assert_eq!(t, (1..=64).collect::<Vec<u32>>(), "{name}: tickets");
    }
}

/// Out-of-range storage accesses from a fragment shader on a 16-byte range
/// of a 64-byte buffer: the far read gives 0, the far write and atomic are
/// dropped (the atomic returns 0), and no byte outside the range changes.
#[test]
fn fragment_storage_accesses_are_bounds_checked() {
    let fs = "#version 330
#extension GL_ARB_shader_storage_buffer_object : require
layout(std430, binding = 3) buffer Data { uint w[]; };
uniform uint far;
out vec4 color;
void main() {
    if (uint(gl_FragCoord.x) == 0u && uint(gl_FragCoord.y) == 0u) {
        w[0] = w[far] + 1u;
        w[far] = 5u;
        w[4] = 6u;
        w[1] = atomicAdd(w[far + 1u], 3u);
    }
    color = vec4(1.0);
}";
    for (name, mut c) in contexts() {
        let p = setup(&mut c, fs, &FULL);
        let loc = c.get_uniform_location(p, "far");
        c.uniform_1_u32(loc.as_ref(), 1000);
        let b = common::words_buffer(&mut c, &[0xaaaa_aaaa; 16]);
        c.bind_buffer_range(gl::SHADER_STORAGE_BUFFER, 3, Some(b), 32, 16);
        draw_covered(&mut c, 6);
        let w = common::read_words(&mut c, b, 16);
        assert_eq!(&w[..8], &[0xaaaa_aaaa; 8], "{name}: before the range");
        assert_eq!(
            &w[8..12],
            &[1, 0, 0xaaaa_aaaa, 0xaaaa_aaaa],
            "{name}: far read + 1, far atomic"
        );
        assert_eq!(&w[12..], &[0xaaaa_aaaa; 4], "{name}: after the range");
    }
}

/// Without `early_fragment_tests` the depth test follows the fragment shader
/// (GL 4.5 §14.9): with `GL_NEVER` no pixel is written, yet every fragment's
/// atomic happens.
#[test]
fn fragments_failing_the_depth_test_still_write_memory() {
    let fs = "#version 330
#extension GL_ARB_shader_storage_buffer_object : require
layout(std430, binding = 0) buffer Out { uint count; };
out vec4 color;
void main() { atomicAdd(count, 1u); color = vec4(1.0); }";
    for (name, mut c) in contexts() {
        setup(&mut c, fs, &FULL);
        let b = common::words_buffer(&mut c, &[0]);
        c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 0, Some(b));
        c.enable(gl::DEPTH_TEST);
        c.depth_func(gl::NEVER);
        let covered = draw_covered(&mut c, 6);
        assert!(
            covered.iter().all(|x| !*x),
            "{name}: the depth test rejects all"
        );
        assert_eq!(common::read_words(&mut c, b, 1), vec![64], "{name}");
    }
}

/// A vertex shader's atomics: one per vertex invocation of a non-indexed draw.
#[test]
fn vertex_shader_atomics_count_vertices() {
    let vs = "#version 330
#extension GL_ARB_shader_storage_buffer_object : require
layout(location = 0) in vec2 pos;
layout(std430, binding = 0) buffer Out { uint count; uint ids[]; };
void main() {
    atomicAdd(count, 1u);
    ids[gl_VertexID] = uint(gl_VertexID) + 10u;
    gl_Position = vec4(pos, 0.5, 1.0);
}";
    let fs = "#version 330
out vec4 color;
void main() { color = vec4(1.0); }";
    for (name, mut c) in contexts() {
        setup_with(&mut c, vs, fs, &FULL);
        let b = common::words_buffer(&mut c, &[0; 7]);
        c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 0, Some(b));
        draw_covered(&mut c, 6);
        assert_eq!(
            common::read_words(&mut c, b, 7),
            vec![6, 10, 11, 12, 13, 14, 15],
            "{name}"
        );
    }
}
