//! Misuse rows of the image units (GL 4.2 §8.26 `glBindImageTexture` and the
//! image unit queries).

use rgl_state::gl::{self, INVALID_ENUM as ENUM, INVALID_VALUE as VALUE};

use rgl_state::Texture;

use crate::fixture::never;
use crate::table::{row, Row};

pub fn rows() -> Vec<Row> {
    vec![
        row(
            "bind_image_texture",
            VALUE,
            "§8.26: unit at MAX_IMAGE_UNITS",
            |c, f| {
                let n = c.get_parameter_i32(gl::MAX_IMAGE_UNITS) as u32;
                c.bind_image_texture(n, Some(f.tex2d), 0, false, 0, gl::READ_WRITE, gl::RGBA8)
            },
        ),
        row(
            "bind_image_texture",
            VALUE,
            "§8.26: a texture name that names no texture object",
            |c, _| {
                let t = Some(Texture(never(9)));
                c.bind_image_texture(0, t, 0, false, 0, gl::READ_WRITE, gl::RGBA8)
            },
        ),
        row(
            "bind_image_texture",
            VALUE,
            "§8.26: a negative level",
            |c, f| c.bind_image_texture(0, Some(f.tex2d), -1, false, 0, gl::READ_WRITE, gl::RGBA8),
        ),
        row(
            "bind_image_texture",
            VALUE,
            "§8.26: a negative layer",
            |c, f| {
                c.bind_image_texture(
                    0,
                    Some(f.tex_array),
                    0,
                    false,
                    -1,
                    gl::READ_WRITE,
                    gl::RGBA8,
                )
            },
        ),
        row(
            "bind_image_texture",
            ENUM,
            "§8.26: an access that is not READ_ONLY, WRITE_ONLY or READ_WRITE",
            |c, f| c.bind_image_texture(0, Some(f.tex2d), 0, false, 0, gl::TEXTURE_2D, gl::RGBA8),
        ),
        row(
            "bind_image_texture",
            ENUM,
            "§8.26: a format outside table 8.27 (an unsized or 24-bit format)",
            |c, f| c.bind_image_texture(0, Some(f.tex2d), 0, false, 0, gl::READ_WRITE, gl::RGB8),
        ),
        row(
            "image_unit",
            VALUE,
            "§8.26: the unit past the last one (glGetIntegeri_v(IMAGE_BINDING_*))",
            |c, _| {
                let n = c.get_parameter_i32(gl::MAX_IMAGE_UNITS) as u32;
                assert!(c.image_unit(n).is_none());
            },
        ),
        row(
            "get_parameter_indexed_i32",
            VALUE,
            "§8.26: glGetIntegeri_v(IMAGE_BINDING_NAME) past the last unit",
            |c, _| {
                let n = c.get_parameter_i32(gl::MAX_IMAGE_UNITS) as u32;
                assert_eq!(c.get_parameter_indexed_i32(gl::IMAGE_BINDING_NAME, n), 0);
            },
        ),
        row(
            "get_parameter_indexed_i32",
            VALUE,
            "§8.26: glGetIntegeri_v(IMAGE_BINDING_FORMAT) at index u32::MAX",
            |c, _| {
                assert_eq!(
                    c.get_parameter_indexed_i32(gl::IMAGE_BINDING_FORMAT, u32::MAX),
                    0
                );
            },
        ),
    ]
}
