//! Image units end to end (GL 4.2 §8.26, GLSL 4.20 §8.12): the
//! `glGetIntegeri_v(GL_IMAGE_BINDING_*)` unit queries,
//! `GL_IMAGE_FORMAT_COMPATIBILITY_TYPE`, the image built-in constants against
//! the limits the context advertises, and compute shaders that store through
//! the packed and integer formats of table 8.27 onto textures of the same
//! size class (compatibility by size), read back as the texture's bytes.

mod common;

use rgl_state::{gl, Context, Texture};

/// A `w` × `h` RGBA8 2D texture holding `texels` (little-endian words).
fn rgba8_texture(c: &mut Context, w: i32, h: i32, texels: &[u32]) -> Texture {
    let t = c.create_texture().expect("texture name");
    c.bind_texture(gl::TEXTURE_2D, Some(t));
    let bytes: Vec<u8> = texels.iter().flat_map(|w| w.to_le_bytes()).collect();
    c.tex_image_2d(
        gl::TEXTURE_2D,
        0,
        gl::RGBA8 as i32,
        w,
        h,
        0,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        Some(&bytes),
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
    t
}

/// Level 0 of `t` as little-endian words of its RGBA8 texels.
fn rgba8_words(c: &mut Context, t: Texture, n: usize) -> Vec<u32> {
    c.bind_texture(gl::TEXTURE_2D, Some(t));
    let mut bytes = vec![0u8; 4 * n];
    c.get_tex_image(gl::TEXTURE_2D, 0, gl::RGBA, gl::UNSIGNED_BYTE, &mut bytes);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    bytes
        .chunks(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

#[test]
fn image_binding_queries_report_each_unit() {
    let mut c = Context::new_headless(16, 16);
    let t = rgba8_texture(&mut c, 2, 2, &[0; 4]);
    c.bind_image_texture(3, Some(t), 0, true, 2, gl::WRITE_ONLY, gl::R32UI);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    // (pname, unit 3 as bound, unit 0's initial value: GL 4.2 table 23.45)
    let rows = [
        (gl::IMAGE_BINDING_NAME, t.name() as i32, 0),
        (gl::IMAGE_BINDING_LEVEL, 0, 0),
        (gl::IMAGE_BINDING_LAYERED, 1, 0),
        (gl::IMAGE_BINDING_LAYER, 2, 0),
        (
            gl::IMAGE_BINDING_ACCESS,
            gl::WRITE_ONLY as i32,
            gl::READ_ONLY as i32,
        ),
        (gl::IMAGE_BINDING_FORMAT, gl::R32UI as i32, gl::R8 as i32),
    ];
    for (pname, bound, initial) in rows {
        assert_eq!(c.get_parameter_indexed_i32(pname, 3), bound, "{pname:#x}");
        assert_eq!(c.get_parameter_indexed_i32(pname, 0), initial, "{pname:#x}");
        assert_eq!(c.get_error(), gl::NO_ERROR);
    }
    // Unbinding (texture 0) resets the name only.
    c.bind_image_texture(3, None, 0, false, 0, gl::READ_WRITE, gl::RGBA8);
    assert_eq!(c.get_parameter_indexed_i32(gl::IMAGE_BINDING_NAME, 3), 0);
    assert_eq!(
        c.get_parameter_indexed_i32(gl::IMAGE_BINDING_ACCESS, 3),
        gl::READ_WRITE as i32
    );
    // Every texture matches image formats by size (Mesa's default).
    c.bind_texture(gl::TEXTURE_2D, Some(t));
    assert_eq!(
        c.get_tex_parameter_i32(gl::TEXTURE_2D, gl::IMAGE_FORMAT_COMPATIBILITY_TYPE),
        gl::IMAGE_FORMAT_COMPATIBILITY_BY_SIZE as i32
    );
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

#[test]
fn image_built_in_constants_match_the_advertised_limits() {
    let mut c = Context::new_headless(16, 16);
    // (built-in constant, the limit it must equal)
    let rows = [
        ("gl_MaxImageUnits", gl::MAX_IMAGE_UNITS),
        ("gl_MaxImageSamples", gl::MAX_IMAGE_SAMPLES),
        ("gl_MaxVertexImageUniforms", gl::MAX_VERTEX_IMAGE_UNIFORMS),
        (
            "gl_MaxGeometryImageUniforms",
            gl::MAX_GEOMETRY_IMAGE_UNIFORMS,
        ),
        (
            "gl_MaxFragmentImageUniforms",
            gl::MAX_FRAGMENT_IMAGE_UNIFORMS,
        ),
        ("gl_MaxComputeImageUniforms", gl::MAX_COMPUTE_IMAGE_UNIFORMS),
        (
            "gl_MaxCombinedImageUniforms",
            gl::MAX_COMBINED_IMAGE_UNIFORMS,
        ),
        (
            "gl_MaxCombinedImageUnitsAndFragmentOutputs",
            gl::MAX_COMBINED_SHADER_OUTPUT_RESOURCES,
        ),
        (
            "gl_MaxCombinedShaderOutputResources",
            gl::MAX_COMBINED_SHADER_OUTPUT_RESOURCES,
        ),
    ];
    // One compute shader writes every constant into a storage buffer.
    let mut body = String::new();
    for (i, (name, _)) in rows.iter().enumerate() {
        body += &format!("    v[{i}] = {name};\n");
    }
    let src = format!(
        "#version 430\nlayout(local_size_x = 1) in;\n\
         layout(std430, binding = 0) buffer B {{ int v[]; }};\n\
         void main() {{\n{body}}}\n"
    );
    common::program(&mut c, &[(gl::COMPUTE_SHADER, &src)]);
    let b = common::words_buffer(&mut c, &vec![u32::MAX; rows.len()]);
    c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 0, Some(b));
    c.dispatch_compute(1, 1, 1);
    c.memory_barrier(gl::ALL_BARRIER_BITS);
    let got = common::read_words(&mut c, b, rows.len());
    for ((name, pname), v) in rows.iter().zip(got) {
        assert_eq!(v as i32, c.get_parameter_i32(*pname), "{name}");
    }
    assert_eq!(c.get_error(), gl::NO_ERROR);
}

/// Runs `body` (GLSL statements) in a 1×1×1 compute shader whose image 0 is
/// `ty img` with format qualifier `qualifier`, on a 2×1 RGBA8 texture first
/// holding the words 0x04030201 and 0x02020202 bound as `format`; the texels
/// after.
fn store_through(format: u32, qualifier: &str, ty: &str, body: &str) -> Vec<u32> {
    let mut c = Context::new_headless(16, 16);
    let src = format!(
        "#version 430\nlayout(local_size_x = 1) in;\n\
         layout(binding = 0, {qualifier}) uniform {ty} img;\nvoid main() {{ {body} }}\n"
    );
    common::program(&mut c, &[(gl::COMPUTE_SHADER, &src)]);
    let t = rgba8_texture(&mut c, 2, 1, &[0x0403_0201, 0x0202_0202]);
    c.bind_image_texture(0, Some(t), 0, false, 0, gl::READ_WRITE, format);
    c.dispatch_compute(1, 1, 1);
    c.memory_barrier(gl::ALL_BARRIER_BITS);
    assert_eq!(c.get_error(), gl::NO_ERROR);
    rgba8_words(&mut c, t, 2)
}

#[test]
fn packed_and_integer_formats_store_gl_texels_on_a_32_bit_texture() {
    // (unit format, format qualifier, image type, statements, texels after)
    let rows: &[(u32, &str, &str, &str, [u32; 2])] = &[
        (
            gl::RGB10_A2,
            "rgb10_a2",
            "image2D",
            "imageStore(img, ivec2(1, 0), vec4(1.0, 0.5, -2.0, 0.4));",
            [0x0403_0201, 1023 | 512 << 10 | 1 << 30],
        ),
        (
            gl::RGB10_A2UI,
            "rgb10_a2ui",
            "uimage2D",
            "imageStore(img, ivec2(0, 0), uvec4(7u, 2000u, 3u, 9u));",
            [7 | 1023 << 10 | 3 << 20 | 3 << 30, 0x0202_0202],
        ),
        (
            gl::R11F_G11F_B10F,
            "r11f_g11f_b10f",
            "image2D",
            "imageStore(img, ivec2(0, 0), vec4(1.0, 0.5, 2.0, 0.0));",
            [15 << 6 | (14 << 6) << 11 | (16 << 5) << 22, 0x0202_0202],
        ),
        (
            // The load reads the RGBA8 bytes as signed integers (1, 2, 3, 4);
            // the store clamps each sum to [-128, 127].
            gl::RGBA8I,
            "rgba8i",
            "iimage2D",
            "imageStore(img, ivec2(1, 0), ivec4(-1, 200, -200, 5) + imageLoad(img, ivec2(0, 0)));",
            [0x0403_0201, 127 << 8 | 0x80 << 16 | 9 << 24],
        ),
        (
            gl::R32UI,
            "r32ui",
            "uimage2D",
            "imageAtomicAdd(img, ivec2(0, 0), 0x01000001u); imageAtomicMax(img, ivec2(1, 0), 7u);",
            [0x0503_0202, 0x0202_0202],
        ),
        (
            // 64-bit rg32f on a 32-bit texture: not compatible by size, so the
            // unit is invalid and the store does nothing.
            gl::RG32F,
            "rg32f",
            "image2D",
            "imageStore(img, ivec2(0, 0), vec4(1.0));",
            [0x0403_0201, 0x0202_0202],
        ),
    ];
    for (format, qualifier, ty, body, want) in rows {
        assert_eq!(
            store_through(*format, qualifier, ty, body),
            want.to_vec(),
            "{qualifier}"
        );
    }
}
