//! Texturing in compute shaders through the GL API: the programs in
//! `tests/compute/texel_fetch.comp` and `tests/compute/texture_lod.comp`
//! sample textures bound to texture units, as draws do (GL 4.3 §19), and
//! write what they read to a storage buffer. The expected words are built here
//! from the texels the test uploads (never from rgl's own earlier output).
//!
//! The lane programs run them; the reference interpreter (`rgl_nir::eval`)
//! has no bound texels and must refuse the dispatch with a reason rather
//! than sample stand-ins.

mod common;

use rgl_backend::compute::ComputeEngine;
use rgl_state::{gl, Context, Program};

use common::compute_context as context;

use common::compute_program as program;

/// Texel (x, y, z) of a texture whose texels all differ: `seed` tells the
/// textures apart.
fn texel(seed: u8, x: u32, y: u32, z: u32) -> [u8; 4] {
    [seed, 16 * x as u8 + 1, 16 * y as u8 + 2, 16 * z as u8 + 3]
}

fn word(t: [u8; 4]) -> u32 {
    u32::from_le_bytes(t)
}

/// The texels of a `w`×`h`×`d` image of `seed`, x fastest.
fn image(seed: u8, w: u32, h: u32, d: u32) -> Vec<u8> {
    let mut v = Vec::new();
    for z in 0..d {
        for y in 0..h {
            for x in 0..w {
                v.extend_from_slice(&texel(seed, x, y, z));
            }
        }
    }
    v
}

/// Binds a new texture of `target` on `unit` with nearest filtering (and
/// `min_filter`), so it is complete with the levels uploaded.
fn texture(c: &mut Context, unit: u32, target: u32, min_filter: u32) {
    let t = c.create_texture().expect("texture name");
    c.active_texture(gl::TEXTURE0 + unit);
    c.bind_texture(target, Some(t));
    c.tex_parameter_i32(target, gl::TEXTURE_MIN_FILTER, min_filter as i32);
    c.tex_parameter_i32(target, gl::TEXTURE_MAG_FILTER, gl::NEAREST as i32);
}

fn sampler_unit(c: &mut Context, p: Program, name: &str, unit: i32) {
    let loc = c.get_uniform_location(p, name);
    assert!(loc.is_some(), "no uniform {name}");
    c.uniform_1_i32(loc.as_ref(), unit);
}

/// 1D (16 texels), 2D (4×4), 3D (4×4×2) and 2D array (4×4×3) textures on
/// units 5, 0, 1 and 2, as `texel_fetch.comp` reads them.
fn fetch_textures(c: &mut Context, p: Program) {
    let (rgba, ub) = (gl::RGBA8 as i32, gl::UNSIGNED_BYTE);
    texture(c, 5, gl::TEXTURE_1D, gl::NEAREST);
    let row: Vec<u8> = (0..16).flat_map(|i| texel(10, i % 4, i / 4, 0)).collect();
    c.tex_image_1d(gl::TEXTURE_1D, 0, rgba, 16, 0, gl::RGBA, ub, Some(&row));
    texture(c, 0, gl::TEXTURE_2D, gl::NEAREST);
    let img = image(20, 4, 4, 1);
    c.tex_image_2d(gl::TEXTURE_2D, 0, rgba, 4, 4, 0, gl::RGBA, ub, Some(&img));
    texture(c, 1, gl::TEXTURE_3D, gl::NEAREST);
    let img = image(30, 4, 4, 2);
    c.tex_image_3d(
        gl::TEXTURE_3D,
        0,
        rgba,
        4,
        4,
        2,
        0,
        gl::RGBA,
        ub,
        Some(&img),
    );
    texture(c, 2, gl::TEXTURE_2D_ARRAY, gl::NEAREST);
    let img = image(40, 4, 4, 3);
    let target = gl::TEXTURE_2D_ARRAY;
    c.tex_image_3d(target, 0, rgba, 4, 4, 3, 0, gl::RGBA, ub, Some(&img));
    assert_eq!(c.get_error(), gl::NO_ERROR);
    for (name, unit) in [("t1d", 5), ("t2d", 0), ("t3d", 1), ("t2da", 2)] {
        sampler_unit(c, p, name, unit);
    }
}

/// `texelFetch` on each target reads the texel at the invocation's
/// coordinates from the texture on the sampler's unit; fetches outside the
/// level (past either edge, a level the texture does not have, a slice past
/// the 3D depth) return 0.
#[test]
fn texel_fetch_reads_bound_textures_of_every_target() {
    let mut c = context(ComputeEngine::Lanes);
    let p = program(&mut c, "texel_fetch.comp");
    fetch_textures(&mut c, p);
    let out = common::words_buffer(&mut c, &[0xdead_beef; 128]);
    c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 0, Some(out));
    c.dispatch_compute(1, 1, 1);
    assert_eq!(c.get_error(), gl::NO_ERROR, "{:?}", c.last_draw_error());
    let w = common::read_words(&mut c, out, 128);
    for i in 0..16u32 {
        let (x, y) = (i % 4, i / 4);
        let got = &w[4 * i as usize..4 * i as usize + 4];
        let want = [
            word(texel(10, x, y, 0)),
            word(texel(20, x, y, 0)),
            word(texel(30, x, y, 1)),
            word(texel(40, x, y, 2)),
        ];
        assert_eq!(got, want, "texels of invocation ({x}, {y})");
        let outside = &w[64 + 4 * i as usize..64 + 4 * i as usize + 4];
        assert_eq!(outside, [0; 4], "out-of-range fetches of ({x}, {y})");
    }
}

/// `textureLod` picks the level its LOD names; implicit-LOD `texture()`
/// samples at LOD 0 (level 0 even with a mipmap filter); `textureSize`
/// reports each level; a cube map lookup reads the face its direction
/// selects (GL 4.3 §8.13: −X is the face of a major axis −x).
#[test]
fn texture_lod_and_implicit_lod_in_compute() {
    let mut c = context(ComputeEngine::Lanes);
    let p = program(&mut c, "texture_lod.comp");
    let (rgba, ub) = (gl::RGBA8 as i32, gl::UNSIGNED_BYTE);
    texture(&mut c, 3, gl::TEXTURE_2D, gl::NEAREST_MIPMAP_NEAREST);
    let level0 = image(50, 4, 4, 1);
    c.tex_image_2d(
        gl::TEXTURE_2D,
        0,
        rgba,
        4,
        4,
        0,
        gl::RGBA,
        ub,
        Some(&level0),
    );
    let level1 = [9u8, 8, 7, 6].repeat(4);
    c.tex_image_2d(
        gl::TEXTURE_2D,
        1,
        rgba,
        2,
        2,
        0,
        gl::RGBA,
        ub,
        Some(&level1),
    );
    let level2 = [1u8, 2, 3, 4];
    c.tex_image_2d(
        gl::TEXTURE_2D,
        2,
        rgba,
        1,
        1,
        0,
        gl::RGBA,
        ub,
        Some(&level2),
    );
    texture(&mut c, 4, gl::TEXTURE_CUBE_MAP, gl::NEAREST);
    for face in 0..6u8 {
        let texels = [face * 40, 255 - face, 7, 255].repeat(4);
        let target = gl::TEXTURE_CUBE_MAP_POSITIVE_X + u32::from(face);
        c.tex_image_2d(target, 0, rgba, 2, 2, 0, gl::RGBA, ub, Some(&texels));
    }
    assert_eq!(c.get_error(), gl::NO_ERROR);
    sampler_unit(&mut c, p, "tex", 3);
    sampler_unit(&mut c, p, "cube", 4);
    let out = common::words_buffer(&mut c, &[0xdead_beef; 68]);
    c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 1, Some(out));
    c.dispatch_compute(1, 1, 1);
    assert_eq!(c.get_error(), gl::NO_ERROR, "{:?}", c.last_draw_error());
    let w = common::read_words(&mut c, out, 68);
    let negative_x = word([40, 254, 7, 255]);
    for i in 0..16u32 {
        let (x, y) = (i % 4, i / 4);
        let got = &w[4 * i as usize..4 * i as usize + 4];
        let level0 = word(texel(50, x, y, 0));
        let want = [level0, word([9, 8, 7, 6]), level0, negative_x];
        assert_eq!(got, want, "lookups of invocation ({x}, {y})");
    }
    assert_eq!(&w[64..68], &[4, 4, 2, 2], "textureSize of levels 0 and 1");
}

/// The reference interpreter samples procedural stand-ins, not bound
/// textures: a textured dispatch there is `GL_INVALID_OPERATION` with the
/// reason, and nothing is written.
#[test]
fn the_reference_interpreter_refuses_textured_dispatches() {
    let mut c = context(ComputeEngine::Reference);
    let p = program(&mut c, "texel_fetch.comp");
    fetch_textures(&mut c, p);
    let out = common::words_buffer(&mut c, &[7; 128]);
    c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 0, Some(out));
    c.dispatch_compute(1, 1, 1);
    assert_eq!(c.get_error(), gl::INVALID_OPERATION);
    let why = c.last_draw_error().expect("a reason");
    assert!(
        why.contains("textures in compute shaders on the reference interpreter"),
        "{why}"
    );
    assert_eq!(common::read_words(&mut c, out, 128), vec![7; 128]);
}
