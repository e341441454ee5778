//! Contexts on threads: a `Context` moves to another thread and back, and two
//! contexts drawing at the same time on two threads produce, frame for frame,
//! the images the same draws produce one context at a time.

use rgl_state::{gl, Context};

const VS: &str = "#version 330
layout(location = 0) in vec2 pos;
uniform vec2 offset;
uniform float scale;
void main() { gl_Position = vec4(pos * scale + offset, 0.0, 1.0); }";

const FS: &str = "#version 330
uniform vec4 tint;
uniform sampler2D tex;
out vec4 color;
void main() { color = tint * texture(tex, gl_FragCoord.xy / 16.0); }";

/// A context with the program, a triangle and a 2×2 texture set up.
fn setup(seed: u32) -> Context {
    let mut c = Context::new_headless(16, 16);
    let p = c.create_program().expect("program");
    for (kind, src) in [(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, FS)] {
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
    c.use_program(Some(p));
    let vao = c.create_vertex_array().expect("vao");
    c.bind_vertex_array(Some(vao));
    let b = c.create_buffer().expect("buffer");
    c.bind_buffer(gl::ARRAY_BUFFER, Some(b));
    let tri: Vec<u8> = [-0.5f32, -0.5, 0.5, -0.5, 0.0, 0.5]
        .iter()
        .flat_map(|f| f.to_le_bytes())
        .collect();
    c.buffer_data_u8_slice(gl::ARRAY_BUFFER, &tri, gl::STATIC_DRAW);
    c.vertex_attrib_pointer_f32(0, 2, gl::FLOAT, false, 0, 0);
    c.enable_vertex_attrib_array(0);
    let t = c.create_texture().expect("texture");
    c.bind_texture(gl::TEXTURE_2D, Some(t));
    let texels: Vec<u8> = (0..16u32).map(|i| (i * 37 + seed * 11) as u8).collect();
    c.tex_image_2d(
        gl::TEXTURE_2D,
        0,
        gl::RGBA8 as i32,
        2,
        2,
        0,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        Some(&texels),
    );
    c.tex_parameter_i32(gl::TEXTURE_2D, gl::TEXTURE_MIN_FILTER, gl::NEAREST as i32);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    c
}

/// Frame `frame` of the sequence seeded by `seed`: a few state changes and
/// draws, then the image.
fn frame(c: &mut Context, seed: u32, frame: u32) -> Vec<u8> {
    let p = rgl_state::Program(
        std::num::NonZeroU32::new(c.get_parameter_i32(gl::CURRENT_PROGRAM) as u32)
            .expect("a current program"),
    );
    let offset = c.get_uniform_location(p, "offset");
    let scale = c.get_uniform_location(p, "scale");
    let tint = c.get_uniform_location(p, "tint");
    let k = (seed * 7 + frame * 3) % 11;
    c.clear_color(0.1 * (k % 3) as f32, 0.2, 0.05 * k as f32, 1.0);
    c.clear(gl::COLOR_BUFFER_BIT);
    for i in 0..4u32 {
        let j = (k + i) as f32;
        c.uniform_2_f32(offset.as_ref(), 0.1 * j - 0.5, 0.3 - 0.05 * j);
        c.uniform_1_f32(scale.as_ref(), 0.5 + 0.1 * i as f32);
        c.uniform_4_f32(tint.as_ref(), 1.0, 0.5 + 0.05 * j, 0.25, 0.75);
        if (k + i).is_multiple_of(2) {
            c.enable(gl::BLEND);
            c.blend_func(gl::SRC_ALPHA, gl::ONE_MINUS_SRC_ALPHA);
        } else {
            c.disable(gl::BLEND);
        }
        c.viewport(0, 0, 16 - (i as i32), 16);
        c.draw_arrays(gl::TRIANGLES, 0, 3);
    }
    assert_eq!(c.get_error(), gl::NO_ERROR, "{:?}", c.last_draw_error());
    c.read_default_color_rgba8()
}

const FRAMES: u32 = 24;

/// Every frame of `seed`'s sequence on `c`.
fn run(c: &mut Context, seed: u32) -> Vec<Vec<u8>> {
    (0..FRAMES).map(|f| frame(c, seed, f)).collect()
}

#[test]
fn a_context_moves_to_another_thread_and_back() {
    let mut c = setup(1);
    let here = frame(&mut c, 1, 0);
    let (mut c, there) = std::thread::spawn(move || {
        let img = frame(&mut c, 1, 0);
        (c, img)
    })
    .join()
    .expect("the thread drew");
    assert_eq!(here, there, "the same frame on another thread differs");
    assert_eq!(
        frame(&mut c, 1, 0),
        here,
        "the context works after moving back"
    );
}

#[test]
fn two_contexts_on_two_threads_draw_what_they_draw_one_at_a_time() {
    // One at a time, on this thread.
    let alone: Vec<Vec<Vec<u8>>> = [1, 2].map(|seed| run(&mut setup(seed), seed)).to_vec();
    assert_ne!(
        alone[0], alone[1],
        "the two sequences must differ to mean anything"
    );
    // Both at once: the contexts are made here and moved to their threads.
    let contexts = [setup(1), setup(2)];
    let together: Vec<Vec<Vec<u8>>> = std::thread::scope(|s| {
        let handles: Vec<_> = contexts
            .into_iter()
            .zip([1, 2])
            .map(|(mut c, seed)| s.spawn(move || run(&mut c, seed)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a drawing thread panicked"))
            .collect()
    });
    for seed in 0..2 {
        for f in 0..FRAMES as usize {
            assert!(
                alone[seed][f] == together[seed][f],
                "context {} frame {f}: the image drawn alongside another context differs",
                seed + 1
            );
        }
    }
}
