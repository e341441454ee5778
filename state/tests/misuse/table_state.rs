//! Misuse rows of the per-context state APIs: per-fragment and rasterizer
//! state (GL 3.3 §3.4–3.6, §4.1, §4.2, §5.6), the compatibility matrix stacks
//! and clip planes (compatibility §2.12, §2.23), textures and samplers (§3.8)
//! and pixel storage (§3.7.1).

use rgl_state::gl::{
    self, INVALID_ENUM as ENUM, INVALID_OPERATION as OP, INVALID_VALUE as VALUE, STACK_OVERFLOW,
    STACK_UNDERFLOW,
};
use rgl_state::{Sampler, Texture};

use crate::fixture::never;
use crate::table::{row, row_with, Row};
use crate::table_objects::BAD;

pub const T2: u32 = gl::TEXTURE_2D;
pub const RGBA8: i32 = gl::RGBA8 as i32;

fn pixels(n: usize) -> Vec<u8> {
    vec![0x5A; n]
}

pub fn rows() -> Vec<Row> {
    vec![
        // Capabilities and rasterizer / per-fragment state.
        row("enable", ENUM, "§2.5: cap is not a capability", |c, _| {
            c.enable(BAD)
        }),
        row("disable", ENUM, "§2.5: cap is not a capability", |c, _| {
            c.disable(BAD)
        }),
        row(
            "is_enabled",
            ENUM,
            "§6.1.1: cap is not a capability",
            |c, _| {
                c.is_enabled(BAD);
            },
        ),
        row("viewport", VALUE, "§2.13.1: width < 0", |c, _| {
            c.viewport(0, 0, -1, 4)
        }),
        row("viewport", VALUE, "§2.13.1: height < 0", |c, _| {
            c.viewport(0, 0, 4, -1)
        }),
        row("scissor", VALUE, "§4.1.2: width < 0", |c, _| {
            c.scissor(0, 0, -1, 4)
        }),
        row("scissor", VALUE, "§4.1.2: height < 0", |c, _| {
            c.scissor(0, 0, 4, -1)
        }),
        row(
            "depth_func",
            ENUM,
            "§4.1.6: func is not a comparison",
            |c, _| c.depth_func(BAD),
        ),
        row(
            "stencil_func",
            ENUM,
            "§4.1.5: func is not a comparison",
            |c, _| c.stencil_func(BAD, 1, 0xf),
        ),
        row(
            "stencil_func_separate",
            ENUM,
            "§4.1.5: face is not a face",
            |c, _| c.stencil_func_separate(BAD, gl::LESS, 1, 0xf),
        ),
        row(
            "stencil_func_separate",
            ENUM,
            "§4.1.5: func is not a comparison",
            |c, _| c.stencil_func_separate(gl::FRONT, BAD, 1, 0xf),
        ),
        row(
            "stencil_op",
            ENUM,
            "§4.1.5: sfail is not a stencil op",
            |c, _| c.stencil_op(BAD, gl::KEEP, gl::KEEP),
        ),
        row(
            "stencil_op",
            ENUM,
            "§4.1.5: dppass is not a stencil op",
            |c, _| c.stencil_op(gl::ZERO, gl::KEEP, BAD),
        ),
        row(
            "stencil_op_separate",
            ENUM,
            "§4.1.5: face is not a face",
            |c, _| c.stencil_op_separate(BAD, gl::KEEP, gl::KEEP, gl::KEEP),
        ),
        row(
            "stencil_op_separate",
            ENUM,
            "§4.1.5: dpfail is not a stencil op",
            |c, _| c.stencil_op_separate(gl::FRONT, gl::INCR, BAD, gl::KEEP),
        ),
        row(
            "stencil_mask_separate",
            ENUM,
            "§4.2.2: face is not a face",
            |c, _| c.stencil_mask_separate(BAD, 0x3),
        ),
        row(
            "blend_equation",
            ENUM,
            "§4.1.8: mode is not an equation",
            |c, _| c.blend_equation(BAD),
        ),
        row(
            "blend_equation_separate",
            ENUM,
            "§4.1.8: modeRGB is not an equation",
            |c, _| c.blend_equation_separate(BAD, gl::FUNC_ADD),
        ),
        row(
            "blend_equation_separate",
            ENUM,
            "§4.1.8: modeAlpha is not an equation",
            |c, _| c.blend_equation_separate(gl::MIN, BAD),
        ),
        row(
            "blend_func",
            ENUM,
            "§4.1.8: src is not a blend factor",
            |c, _| c.blend_func(BAD, gl::ONE),
        ),
        row(
            "blend_func",
            ENUM,
            "§4.1.8: dst is not a blend factor",
            |c, _| c.blend_func(gl::ONE, BAD),
        ),
        row(
            "blend_func_separate",
            ENUM,
            "§4.1.8: dstAlpha is not a blend factor",
            |c, _| c.blend_func_separate(gl::ONE, gl::ONE, gl::ONE, BAD),
        ),
        row(
            "blend_func_separate",
            ENUM,
            "§4.1.8: srcRGB is not a blend factor",
            |c, _| c.blend_func_separate(BAD, gl::ONE, gl::ONE, gl::ONE),
        ),
        row("cull_face", ENUM, "§3.6.1: mode is not a face", |c, _| {
            c.cull_face(BAD)
        }),
        row(
            "front_face",
            ENUM,
            "§3.6.1: mode is not CW or CCW",
            |c, _| c.front_face(BAD),
        ),
        row(
            "polygon_mode",
            ENUM,
            "§3.6.4: face is not FRONT_AND_BACK/FRONT/BACK",
            |c, _| c.polygon_mode(BAD, gl::FILL),
        ),
        row(
            "polygon_mode",
            ENUM,
            "§3.6.4: mode is not POINT/LINE/FILL",
            |c, _| c.polygon_mode(gl::FRONT_AND_BACK, BAD),
        ),
        row(
            "provoking_vertex",
            ENUM,
            "§2.18: mode is not a convention",
            |c, _| c.provoking_vertex(BAD),
        ),
        row("point_size", VALUE, "§3.4: size <= 0", |c, _| {
            c.point_size(0.0)
        }),
        row("point_size", VALUE, "§3.4: size <= 0", |c, _| {
            c.point_size(-1.0)
        }),
        row("line_width", VALUE, "§3.5: width <= 0", |c, _| {
            c.line_width(0.0)
        }),
        row(
            "alpha_func",
            ENUM,
            "compat §4.1.4: func is not a comparison",
            |c, _| c.alpha_func(BAD, 0.5),
        ),
        row(
            "shade_model",
            ENUM,
            "compat §2.22: mode is not FLAT or SMOOTH",
            |c, _| c.shade_model(BAD),
        ),
        row("hint", ENUM, "§5.6: target is not a hint", |c, _| {
            c.hint(BAD, gl::NICEST)
        }),
        row("hint", ENUM, "§5.6: mode is not a hint mode", |c, _| {
            c.hint(gl::LINE_SMOOTH_HINT, BAD)
        }),
        row(
            "enable",
            ENUM,
            "§2.20: CLIP_DISTANCEi, i >= MAX_CLIP_DISTANCES",
            |c, _| c.enable(gl::CLIP_DISTANCE0 + 8),
        ),
        row(
            "is_enabled",
            ENUM,
            "§6.1.1: CLIP_DISTANCEi, i >= MAX_CLIP_DISTANCES",
            |c, _| {
                c.is_enabled(gl::CLIP_DISTANCE0 + 8);
            },
        ),
        // Matrices and clip planes (compatibility profile).
        row(
            "matrix_mode",
            ENUM,
            "compat §2.12.1: mode is not a matrix",
            |c, _| c.matrix_mode(BAD),
        ),
        row_with(
            "push_matrix",
            STACK_OVERFLOW,
            "compat §2.12.2: the stack is full",
            |c, _| {
                for _ in 0..30 {
                    c.push_matrix();
                }
            },
            |c, _| c.push_matrix(),
        ),
        row_with(
            "pop_matrix",
            STACK_UNDERFLOW,
            "compat §2.12.2: the stack holds one matrix",
            |c, _| c.pop_matrix(),
            |c, _| c.pop_matrix(),
        ),
        row("ortho", VALUE, "compat §2.12.1: l = r", |c, _| {
            c.ortho(1.0, 1.0, 0.0, 1.0, 0.0, 1.0)
        }),
        row("ortho", VALUE, "compat §2.12.1: n = f", |c, _| {
            c.ortho(0.0, 1.0, 0.0, 1.0, 2.0, 2.0)
        }),
        row("frustum", VALUE, "compat §2.12.1: n <= 0", |c, _| {
            c.frustum(-1.0, 1.0, -1.0, 1.0, 0.0, 10.0)
        }),
        row("frustum", VALUE, "compat §2.12.1: b = t", |c, _| {
            c.frustum(-1.0, 1.0, 1.0, 1.0, 1.0, 10.0)
        }),
        row(
            "multi_tex_coord_4_f32",
            ENUM,
            "compat §2.7: texture is not TEXTUREi",
            |c, _| c.multi_tex_coord_4_f32(BAD, 0.0, 0.0, 0.0, 1.0),
        ),
        row(
            "clip_plane",
            ENUM,
            "compat §2.23: plane is not CLIP_PLANEi",
            |c, _| c.clip_plane(gl::CLIP_PLANE0 + 8, [1.0, 0.0, 0.0, 0.0]),
        ),
        row(
            "get_clip_plane",
            ENUM,
            "compat §6.1.3: plane is not CLIP_PLANEi",
            |c, _| {
                c.get_clip_plane(gl::CLIP_PLANE0 + 8);
            },
        ),
        // Texture objects and units, GL 3.3 §3.8.1.
        row(
            "active_texture",
            ENUM,
            "§3.8: texture >= TEXTURE0 + max units",
            |c, _| c.active_texture(gl::TEXTURE0 + 1000),
        ),
        row(
            "bind_texture",
            ENUM,
            "§3.8.1: target is not a texture target",
            |c, f| c.bind_texture(BAD, Some(f.tex2d)),
        ),
        row(
            "bind_texture",
            OP,
            "§3.8.1: texture was created with another target",
            |c, f| c.bind_texture(gl::TEXTURE_3D, Some(f.tex2d)),
        ),
        row(
            "bind_texture",
            OP,
            "§3.8.1: texture is a deleted name",
            |c, f| c.bind_texture(T2, Some(f.dead_tex)),
        ),
        row(
            "bind_texture",
            OP,
            "§3.8.1: texture was never generated",
            |c, _| c.bind_texture(T2, Some(Texture(never(5)))),
        ),
        // Texture images, GL 3.3 §3.8.3.
        row(
            "tex_image_2d",
            ENUM,
            "§3.8.3: target is not a 2D image target",
            |c, _| {
                c.tex_image_2d(
                    gl::TEXTURE_3D,
                    0,
                    RGBA8,
                    4,
                    4,
                    0,
                    gl::RGBA,
                    gl::UNSIGNED_BYTE,
                    None,
                )
            },
        ),
        row("tex_image_2d", VALUE, "§3.8.3: level < 0", |c, _| {
            c.tex_image_2d(T2, -1, RGBA8, 4, 4, 0, gl::RGBA, gl::UNSIGNED_BYTE, None)
        }),
        row(
            "tex_image_2d",
            VALUE,
            "§3.8.3: level > log2(MAX_TEXTURE_SIZE)",
            |c, _| c.tex_image_2d(T2, 20, RGBA8, 1, 1, 0, gl::RGBA, gl::UNSIGNED_BYTE, None),
        ),
        row("tex_image_2d", VALUE, "§3.8.3: width < 0", |c, _| {
            c.tex_image_2d(T2, 0, RGBA8, -4, 4, 0, gl::RGBA, gl::UNSIGNED_BYTE, None)
        }),
        row(
            "tex_image_2d",
            VALUE,
            "§3.8.3: height > MAX_TEXTURE_SIZE",
            |c, _| {
                c.tex_image_2d(
                    T2,
                    0,
                    RGBA8,
                    4,
                    1 << 20,
                    0,
                    gl::RGBA,
                    gl::UNSIGNED_BYTE,
                    None,
                )
            },
        ),
        row("tex_image_2d", VALUE, "§3.8.3: border is not 0", |c, _| {
            c.tex_image_2d(T2, 0, RGBA8, 4, 4, 1, gl::RGBA, gl::UNSIGNED_BYTE, None)
        }),
        row(
            "tex_image_2d",
            VALUE,
            "§3.8.3: internalformat is not a format",
            |c, _| {
                c.tex_image_2d(
                    T2,
                    0,
                    BAD as i32,
                    4,
                    4,
                    0,
                    gl::RGBA,
                    gl::UNSIGNED_BYTE,
                    None,
                )
            },
        ),
        row(
            "tex_image_2d",
            ENUM,
            "§3.7.2: format is not a pixel format",
            |c, _| c.tex_image_2d(T2, 0, RGBA8, 4, 4, 0, BAD, gl::UNSIGNED_BYTE, None),
        ),
        row(
            "tex_image_2d",
            ENUM,
            "§3.7.2: type is not a pixel type",
            |c, _| c.tex_image_2d(T2, 0, RGBA8, 4, 4, 0, gl::RGBA, BAD, None),
        ),
        row(
            "tex_image_2d",
            OP,
            "§3.7.2: a packed type whose component count differs from format's",
            |c, _| {
                let t = gl::UNSIGNED_SHORT_5_6_5;
                c.tex_image_2d(T2, 0, RGBA8, 4, 4, 0, gl::RGBA, t, None)
            },
        ),
        row(
            "tex_image_2d",
            OP,
            "§3.8.3: a depth format with a color internalformat",
            |c, _| {
                let d = gl::DEPTH_COMPONENT;
                c.tex_image_2d(T2, 0, RGBA8, 4, 4, 0, d, gl::FLOAT, None)
            },
        ),
        row(
            "tex_image_2d",
            VALUE,
            "§3.8.3: a cube map face that is not square",
            |c, _| {
                let px = gl::TEXTURE_CUBE_MAP_POSITIVE_X;
                c.tex_image_2d(px, 0, RGBA8, 4, 2, 0, gl::RGBA, gl::UNSIGNED_BYTE, None)
            },
        ),
        row_with(
            "tex_image_2d",
            OP,
            "§3.8.3 / ARB_texture_storage: the texture is immutable",
            |c, _| c.active_texture(gl::TEXTURE0 + 2),
            |c, _| c.tex_image_2d(T2, 0, RGBA8, 4, 4, 0, gl::RGBA, gl::UNSIGNED_BYTE, None),
        ),
        row_with(
            "tex_image_2d",
            OP,
            "§3.7.2 / §2.9.7: the unpack buffer is too small for the image",
            |c, f| c.bind_buffer(gl::PIXEL_UNPACK_BUFFER, Some(f.buf)),
            |c, _| c.tex_image_2d(T2, 0, RGBA8, 8, 8, 0, gl::RGBA, gl::UNSIGNED_BYTE, None),
        ),
        row(
            "tex_image_1d",
            ENUM,
            "§3.8.3: target is not TEXTURE_1D",
            |c, _| c.tex_image_1d(T2, 0, RGBA8, 4, 0, gl::RGBA, gl::UNSIGNED_BYTE, None),
        ),
        row("tex_image_1d", VALUE, "§3.8.3: width < 0", |c, _| {
            c.tex_image_1d(
                gl::TEXTURE_1D,
                0,
                RGBA8,
                -1,
                0,
                gl::RGBA,
                gl::UNSIGNED_BYTE,
                None,
            )
        }),
        row("tex_image_1d", VALUE, "§3.8.3: border is not 0", |c, _| {
            c.tex_image_1d(
                gl::TEXTURE_1D,
                0,
                RGBA8,
                4,
                2,
                gl::RGBA,
                gl::UNSIGNED_BYTE,
                None,
            )
        }),
        row(
            "tex_image_1d",
            ENUM,
            "§3.7.2: type is not a pixel type",
            |c, _| c.tex_image_1d(gl::TEXTURE_1D, 0, RGBA8, 4, 0, gl::RGBA, BAD, None),
        ),
        row(
            "tex_image_3d",
            ENUM,
            "§3.8.3: target is not a 3D image target",
            |c, _| c.tex_image_3d(T2, 0, RGBA8, 2, 2, 2, 0, gl::RGBA, gl::UNSIGNED_BYTE, None),
        ),
        row("tex_image_3d", VALUE, "§3.8.3: depth < 0", |c, _| {
            let t = gl::TEXTURE_3D;
            c.tex_image_3d(t, 0, RGBA8, 2, 2, -2, 0, gl::RGBA, gl::UNSIGNED_BYTE, None)
        }),
        row(
            "tex_image_3d",
            VALUE,
            "§3.8.3: layers > MAX_ARRAY_TEXTURE_LAYERS",
            |c, _| {
                let t = gl::TEXTURE_2D_ARRAY;
                c.tex_image_3d(
                    t,
                    0,
                    RGBA8,
                    2,
                    2,
                    1 << 20,
                    0,
                    gl::RGBA,
                    gl::UNSIGNED_BYTE,
                    None,
                )
            },
        ),
        row(
            "tex_image_3d",
            ENUM,
            "§3.7.2: format is not a pixel format",
            |c, _| {
                let t = gl::TEXTURE_3D;
                c.tex_image_3d(t, 0, RGBA8, 2, 2, 2, 0, BAD, gl::UNSIGNED_BYTE, None)
            },
        ),
        row(
            "tex_image_2d",
            OP,
            "§3.8.3: a depth internalformat with a color format",
            |c, _| {
                let d = gl::DEPTH_COMPONENT24 as i32;
                c.tex_image_2d(T2, 0, d, 4, 4, 0, gl::RGBA, gl::UNSIGNED_BYTE, None)
            },
        ),
        row(
            "tex_image_3d",
            OP,
            "§3.8.3: a depth internalformat for TEXTURE_3D",
            |c, _| {
                let (t, d) = (gl::TEXTURE_3D, gl::DEPTH_COMPONENT24 as i32);
                c.tex_image_3d(t, 0, d, 2, 2, 2, 0, gl::DEPTH_COMPONENT, gl::FLOAT, None)
            },
        ),
        // Sub-images, GL 3.3 §3.8.4 (errors of §3.8.3 plus the region checks).
        row(
            "tex_sub_image_2d",
            ENUM,
            "§3.8.4: target is not a 2D image target",
            |c, _| {
                let t = gl::TEXTURE_3D;
                c.tex_sub_image_2d(t, 0, 0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE, &pixels(4))
            },
        ),
        row("tex_sub_image_2d", VALUE, "§3.8.4: xoffset < 0", |c, _| {
            c.tex_sub_image_2d(T2, 0, -1, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE, &pixels(4))
        }),
        row(
            "tex_sub_image_2d",
            VALUE,
            "§3.8.4: xoffset + width > the level's width",
            |c, _| c.tex_sub_image_2d(T2, 0, 3, 0, 2, 1, gl::RGBA, gl::UNSIGNED_BYTE, &pixels(8)),
        ),
        row("tex_sub_image_2d", VALUE, "§3.8.4: height < 0", |c, _| {
            c.tex_sub_image_2d(T2, 0, 0, 0, 1, -1, gl::RGBA, gl::UNSIGNED_BYTE, &pixels(4))
        }),
        row("tex_sub_image_2d", VALUE, "§3.8.4: level < 0", |c, _| {
            c.tex_sub_image_2d(T2, -1, 0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE, &pixels(4))
        }),
        row(
            "tex_sub_image_2d",
            OP,
            "§3.8.4: the level was never specified",
            |c, _| c.tex_sub_image_2d(T2, 2, 0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE, &pixels(4)),
        ),
        row(
            "tex_sub_image_2d",
            ENUM,
            "§3.7.2: type is not a pixel type",
            |c, _| c.tex_sub_image_2d(T2, 0, 0, 0, 1, 1, gl::RGBA, BAD, &pixels(4)),
        ),
        row(
            "tex_sub_image_2d",
            ENUM,
            "§3.7.2: format is not a pixel format",
            |c, _| c.tex_sub_image_2d(T2, 0, 0, 0, 1, 1, BAD, gl::UNSIGNED_BYTE, &pixels(4)),
        ),
        row_with(
            "tex_sub_image_2d",
            OP,
            "§3.7.2 / §2.9.7: the unpack buffer is too small for the region",
            |c, f| c.bind_buffer(gl::PIXEL_UNPACK_BUFFER, Some(f.buf)),
            |c, _| c.tex_sub_image_2d(T2, 0, 0, 0, 4, 4, gl::RGBA, gl::UNSIGNED_BYTE, &[]),
        ),
        row(
            "tex_sub_image_1d",
            VALUE,
            "§3.8.4: xoffset + width > the level's width",
            |c, _| {
                let t = gl::TEXTURE_1D;
                c.tex_sub_image_1d(t, 0, 2, 4, gl::RGBA, gl::UNSIGNED_BYTE, &pixels(16))
            },
        ),
        row(
            "tex_sub_image_1d",
            ENUM,
            "§3.8.4: target is not TEXTURE_1D",
            |c, _| c.tex_sub_image_1d(T2, 0, 0, 1, gl::RGBA, gl::UNSIGNED_BYTE, &pixels(4)),
        ),
        row(
            "tex_sub_image_1d",
            OP,
            "§3.8.4: the level was never specified",
            |c, _| {
                let t = gl::TEXTURE_1D;
                c.tex_sub_image_1d(t, 1, 0, 1, gl::RGBA, gl::UNSIGNED_BYTE, &pixels(4))
            },
        ),
        row(
            "tex_sub_image_3d",
            VALUE,
            "§3.8.4: zoffset + depth > the level's depth",
            |c, _| {
                let t = gl::TEXTURE_3D;
                c.tex_sub_image_3d(
                    t,
                    0,
                    0,
                    0,
                    1,
                    1,
                    1,
                    2,
                    gl::RGBA,
                    gl::UNSIGNED_BYTE,
                    &pixels(8),
                )
            },
        ),
        row(
            "tex_sub_image_3d",
            ENUM,
            "§3.8.4: target is not a 3D image target",
            |c, _| {
                c.tex_sub_image_3d(
                    T2,
                    0,
                    0,
                    0,
                    0,
                    1,
                    1,
                    1,
                    gl::RGBA,
                    gl::UNSIGNED_BYTE,
                    &pixels(4),
                )
            },
        ),
        row(
            "tex_sub_image_3d",
            OP,
            "§3.8.4: the level was never specified",
            |c, _| {
                let t = gl::TEXTURE_3D;
                c.tex_sub_image_3d(
                    t,
                    1,
                    0,
                    0,
                    0,
                    1,
                    1,
                    1,
                    gl::RGBA,
                    gl::UNSIGNED_BYTE,
                    &pixels(4),
                )
            },
        ),
        // Immutable storage, ARB_texture_storage (GL 4.2 §3.9.4 in the 4.2 spec).
        row(
            "tex_storage_2d",
            VALUE,
            "ARB_texture_storage: levels < 1",
            |c, _| c.tex_storage_2d(T2, 0, gl::RGBA8, 4, 4),
        ),
        row(
            "tex_storage_2d",
            VALUE,
            "ARB_texture_storage: width < 1",
            |c, _| c.tex_storage_2d(T2, 1, gl::RGBA8, 0, 4),
        ),
        row(
            "tex_storage_2d",
            OP,
            "ARB_texture_storage: levels > log2(max(width, height)) + 1",
            |c, _| c.tex_storage_2d(T2, 4, gl::RGBA8, 4, 4),
        ),
        row(
            "tex_storage_2d",
            ENUM,
            "ARB_texture_storage: an unsized internalformat",
            |c, _| c.tex_storage_2d(T2, 1, gl::RGBA, 4, 4),
        ),
        row(
            "tex_storage_2d",
            ENUM,
            "ARB_texture_storage: target is not a 2D target",
            |c, _| c.tex_storage_2d(gl::TEXTURE_3D, 1, gl::RGBA8, 4, 4),
        ),
        row_with(
            "tex_storage_2d",
            OP,
            "ARB_texture_storage: the texture is already immutable",
            |c, _| c.active_texture(gl::TEXTURE0 + 2),
            |c, _| c.tex_storage_2d(T2, 1, gl::RGBA8, 4, 4),
        ),
        row_with(
            "tex_storage_2d",
            OP,
            "ARB_texture_storage: the default texture (zero) is bound",
            |c, _| c.bind_texture(T2, None),
            |c, _| c.tex_storage_2d(T2, 1, gl::RGBA8, 4, 4),
        ),
        row(
            "tex_storage_1d",
            ENUM,
            "ARB_texture_storage: target is not a 1D target",
            |c, _| c.tex_storage_1d(T2, 1, gl::RGBA8, 4),
        ),
        row(
            "tex_storage_1d",
            VALUE,
            "ARB_texture_storage: levels < 1",
            |c, _| c.tex_storage_1d(gl::TEXTURE_1D, 0, gl::RGBA8, 4),
        ),
        row(
            "tex_storage_3d",
            ENUM,
            "ARB_texture_storage: target is not a 3D target",
            |c, _| c.tex_storage_3d(T2, 1, gl::RGBA8, 2, 2, 2),
        ),
        row(
            "tex_storage_3d",
            VALUE,
            "ARB_texture_storage: depth < 1",
            |c, _| c.tex_storage_3d(gl::TEXTURE_3D, 1, gl::RGBA8, 2, 2, 0),
        ),
        // Texture parameters, GL 3.3 §3.8.8; queries §6.1.3.
        row(
            "tex_parameter_i32",
            ENUM,
            "§3.8.8: target is not a texture target",
            |c, _| c.tex_parameter_i32(BAD, gl::TEXTURE_WRAP_S, gl::REPEAT as i32),
        ),
        row(
            "tex_parameter_i32",
            ENUM,
            "§3.8.8: pname is not a texture parameter",
            |c, _| c.tex_parameter_i32(T2, BAD, 0),
        ),
        row(
            "tex_parameter_i32",
            ENUM,
            "§3.8.8: a wrap mode that is not one",
            |c, _| c.tex_parameter_i32(T2, gl::TEXTURE_WRAP_S, BAD as i32),
        ),
        row(
            "tex_parameter_i32",
            ENUM,
            "§3.8.8: a min filter that is not one",
            |c, _| c.tex_parameter_i32(T2, gl::TEXTURE_MIN_FILTER, gl::REPEAT as i32),
        ),
        row(
            "tex_parameter_i32",
            VALUE,
            "§3.8.8: TEXTURE_BASE_LEVEL < 0",
            |c, _| c.tex_parameter_i32(T2, gl::TEXTURE_BASE_LEVEL, -1),
        ),
        row(
            "tex_parameter_i32",
            VALUE,
            "§3.8.8: TEXTURE_MAX_LEVEL < 0",
            |c, _| c.tex_parameter_i32(T2, gl::TEXTURE_MAX_LEVEL, -1),
        ),
        row(
            "tex_parameter_i32",
            ENUM,
            "§3.8.8: a rectangle texture with REPEAT wrap",
            |c, _| {
                c.tex_parameter_i32(gl::TEXTURE_RECTANGLE, gl::TEXTURE_WRAP_S, gl::REPEAT as i32)
            },
        ),
        row(
            "tex_parameter_i32",
            ENUM,
            "§3.8.8: a rectangle texture with a mipmap min filter",
            |c, _| {
                let m = gl::LINEAR_MIPMAP_LINEAR as i32;
                c.tex_parameter_i32(gl::TEXTURE_RECTANGLE, gl::TEXTURE_MIN_FILTER, m)
            },
        ),
        row(
            "tex_parameter_i32",
            OP,
            "§3.8.8: a rectangle texture with TEXTURE_BASE_LEVEL other than 0",
            |c, _| c.tex_parameter_i32(gl::TEXTURE_RECTANGLE, gl::TEXTURE_BASE_LEVEL, 1),
        ),
        row(
            "tex_parameter_i32",
            ENUM,
            "§3.8.8: TEXTURE_BORDER_COLOR needs a vector",
            |c, _| c.tex_parameter_i32(T2, gl::TEXTURE_BORDER_COLOR, 0),
        ),
        row(
            "tex_parameter_f32",
            ENUM,
            "§3.8.8: pname is not a texture parameter",
            |c, _| c.tex_parameter_f32(T2, BAD, 0.0),
        ),
        row(
            "tex_parameter_f32",
            ENUM,
            "§3.8.8: a compare func that is not one",
            |c, _| c.tex_parameter_f32(T2, gl::TEXTURE_COMPARE_FUNC, BAD as f32),
        ),
        row(
            "tex_parameter_i32_slice",
            ENUM,
            "§3.8.8: target is not a texture target",
            |c, _| c.tex_parameter_i32_slice(BAD, gl::TEXTURE_BORDER_COLOR, &[0; 4]),
        ),
        row(
            "tex_parameter_i32_slice",
            ENUM,
            "§3.8.8: a swizzle that is not one",
            |c, _| c.tex_parameter_i32_slice(T2, gl::TEXTURE_SWIZZLE_RGBA, &[BAD as i32; 4]),
        ),
        row(
            "tex_parameter_f32_slice",
            ENUM,
            "§3.8.8: pname is not a texture parameter",
            |c, _| c.tex_parameter_f32_slice(T2, BAD, &[0.0; 4]),
        ),
        row(
            "get_tex_parameter_i32",
            ENUM,
            "§6.1.3: target is not a texture target",
            |c, _| {
                c.get_tex_parameter_i32(BAD, gl::TEXTURE_WRAP_S);
            },
        ),
        row(
            "get_tex_parameter_i32",
            ENUM,
            "§6.1.3: pname is not a texture parameter",
            |c, _| {
                c.get_tex_parameter_i32(T2, BAD);
            },
        ),
        row(
            "get_tex_parameter_f32",
            ENUM,
            "§6.1.3: pname is not a texture parameter",
            |c, _| {
                c.get_tex_parameter_f32(T2, BAD);
            },
        ),
        row(
            "get_tex_parameter_f32_slice",
            ENUM,
            "§6.1.3: target is not a texture target",
            |c, _| c.get_tex_parameter_f32_slice(BAD, gl::TEXTURE_BORDER_COLOR, &mut [0.0; 4]),
        ),
        row(
            "get_tex_level_parameter_i32",
            ENUM,
            "§6.1.3: target is not an image target",
            |c, _| {
                c.get_tex_level_parameter_i32(gl::TEXTURE_CUBE_MAP, 0, gl::TEXTURE_WIDTH);
            },
        ),
        row(
            "get_tex_level_parameter_i32",
            VALUE,
            "§6.1.3: level < 0",
            |c, _| {
                c.get_tex_level_parameter_i32(T2, -1, gl::TEXTURE_WIDTH);
            },
        ),
        row(
            "get_tex_level_parameter_i32",
            VALUE,
            "§6.1.3: level > log2(max size)",
            |c, _| {
                c.get_tex_level_parameter_i32(T2, 40, gl::TEXTURE_WIDTH);
            },
        ),
        row(
            "get_tex_level_parameter_i32",
            ENUM,
            "§6.1.3: pname is not a level parameter",
            |c, _| {
                c.get_tex_level_parameter_i32(T2, 0, BAD);
            },
        ),
        row(
            "generate_mipmap",
            ENUM,
            "§3.8.11: target is not mipmappable",
            |c, _| c.generate_mipmap(gl::TEXTURE_RECTANGLE),
        ),
        row(
            "generate_mipmap",
            OP,
            "§3.8.11: a cube map that is not cube complete",
            |c, _| c.generate_mipmap(gl::TEXTURE_CUBE_MAP),
        ),
        row(
            "get_tex_image",
            ENUM,
            "§6.1.4: target is not an image target",
            |c, _| {
                c.get_tex_image(
                    gl::TEXTURE_CUBE_MAP,
                    0,
                    gl::RGBA,
                    gl::UNSIGNED_BYTE,
                    &mut [0; 64],
                )
            },
        ),
        row("get_tex_image", VALUE, "§6.1.4: level < 0", |c, _| {
            c.get_tex_image(T2, -1, gl::RGBA, gl::UNSIGNED_BYTE, &mut [0; 64])
        }),
        row(
            "get_tex_image",
            ENUM,
            "§6.1.4: format is not a pixel format",
            |c, _| c.get_tex_image(T2, 0, BAD, gl::UNSIGNED_BYTE, &mut [0; 64]),
        ),
        row(
            "get_tex_image",
            ENUM,
            "§6.1.4: type is not a pixel type",
            |c, _| c.get_tex_image(T2, 0, gl::RGBA, BAD, &mut [0; 64]),
        ),
        row(
            "get_tex_image",
            OP,
            "§6.1.4: a depth format of a color texture",
            |c, _| c.get_tex_image(T2, 0, gl::DEPTH_COMPONENT, gl::FLOAT, &mut [0; 64]),
        ),
        row_with(
            "get_tex_image",
            OP,
            "§6.1.4 / §2.9.7: the pack buffer is too small for the image",
            |c, f| c.bind_buffer(gl::PIXEL_PACK_BUFFER, Some(f.buf)),
            |c, _| c.get_tex_image(T2, 0, gl::RGBA, gl::UNSIGNED_BYTE, &mut []),
        ),
        row(
            "tex_parameter_i32",
            ENUM,
            "§3.8.8: a compare mode that is not one",
            |c, _| c.tex_parameter_i32(T2, gl::TEXTURE_COMPARE_MODE, gl::LESS as i32),
        ),
        row(
            "tex_parameter_i32",
            ENUM,
            "§3.8.8: a swizzle that is not one",
            |c, _| c.tex_parameter_i32(T2, gl::TEXTURE_SWIZZLE_G, gl::RGBA as i32),
        ),
        row(
            "tex_parameter_i32",
            ENUM,
            "compat §3.9.8: a DEPTH_TEXTURE_MODE that is not one",
            |c, _| c.tex_parameter_i32(T2, gl::DEPTH_TEXTURE_MODE, gl::RGBA as i32),
        ),
        // Sampler objects, GL 3.3 §3.8.2.
        row(
            "bind_sampler",
            VALUE,
            "§3.8.2: unit >= MAX_COMBINED_TEXTURE_IMAGE_UNITS",
            |c, f| c.bind_sampler(1000, Some(f.sampler)),
        ),
        row(
            "bind_sampler",
            OP,
            "§3.8.2: sampler is a deleted name",
            |c, f| c.bind_sampler(0, Some(f.dead_sampler)),
        ),
        row(
            "sampler_parameter_i32",
            OP,
            "§3.8.2: sampler is not a sampler name",
            |c, _| {
                c.sampler_parameter_i32(Sampler(never(6)), gl::TEXTURE_WRAP_S, gl::REPEAT as i32)
            },
        ),
        row(
            "sampler_parameter_i32",
            ENUM,
            "§3.8.2: pname is not a sampler parameter",
            |c, f| c.sampler_parameter_i32(f.sampler, BAD, 0),
        ),
        row(
            "sampler_parameter_i32",
            ENUM,
            "§3.8.2: a wrap mode that is not one",
            |c, f| c.sampler_parameter_i32(f.sampler, gl::TEXTURE_WRAP_S, BAD as i32),
        ),
        row(
            "sampler_parameter_i32",
            ENUM,
            "§3.8.2: TEXTURE_BASE_LEVEL is not sampler state",
            |c, f| c.sampler_parameter_i32(f.sampler, gl::TEXTURE_BASE_LEVEL, 0),
        ),
        row(
            "sampler_parameter_f32",
            OP,
            "§3.8.2: sampler is a deleted name",
            |c, f| c.sampler_parameter_f32(f.dead_sampler, gl::TEXTURE_MIN_LOD, 1.0),
        ),
        row(
            "sampler_parameter_f32",
            ENUM,
            "§3.8.2: a mag filter that is not one",
            |c, f| {
                let m = gl::LINEAR_MIPMAP_LINEAR as f32;
                c.sampler_parameter_f32(f.sampler, gl::TEXTURE_MAG_FILTER, m)
            },
        ),
        row(
            "sampler_parameter_f32_slice",
            ENUM,
            "§3.8.2: pname is not a parameter",
            |c, f| c.sampler_parameter_f32_slice(f.sampler, BAD, &[0.0; 4]),
        ),
        row(
            "sampler_parameter_f32_slice",
            OP,
            "§3.8.2: sampler is a deleted name",
            |c, f| {
                c.sampler_parameter_f32_slice(f.dead_sampler, gl::TEXTURE_BORDER_COLOR, &[0.0; 4])
            },
        ),
        row(
            "sampler_parameter_i32_slice",
            ENUM,
            "§3.8.2: pname is not a parameter",
            |c, f| c.sampler_parameter_i32_slice(f.sampler, BAD, &[0; 4]),
        ),
        row(
            "sampler_parameter_i32_slice",
            OP,
            "§3.8.2: sampler is a deleted name",
            |c, f| c.sampler_parameter_i32_slice(f.dead_sampler, gl::TEXTURE_BORDER_COLOR, &[0; 4]),
        ),
        row(
            "get_sampler_parameter_i32",
            OP,
            "§6.1.5: sampler is a deleted name",
            |c, f| {
                c.get_sampler_parameter_i32(f.dead_sampler, gl::TEXTURE_WRAP_S);
            },
        ),
        row(
            "get_sampler_parameter_i32",
            ENUM,
            "§6.1.5: pname is not a parameter",
            |c, f| {
                c.get_sampler_parameter_i32(f.sampler, BAD);
            },
        ),
        row(
            "get_sampler_parameter_f32",
            OP,
            "§6.1.5: sampler is a deleted name",
            |c, f| {
                c.get_sampler_parameter_f32(f.dead_sampler, gl::TEXTURE_MIN_LOD);
            },
        ),
        row(
            "get_sampler_parameter_f32",
            ENUM,
            "§6.1.5: pname is not a parameter",
            |c, f| {
                c.get_sampler_parameter_f32(f.sampler, BAD);
            },
        ),
        row(
            "sampler_parameter_i32",
            ENUM,
            "§3.8.2: a compare func that is not one",
            |c, f| c.sampler_parameter_i32(f.sampler, gl::TEXTURE_COMPARE_FUNC, gl::KEEP as i32),
        ),
        // Pixel storage, GL 3.3 §3.7.1 and §4.3.2.
        row(
            "pixel_store_i32",
            ENUM,
            "§3.7.1: pname is not a pixel store mode",
            |c, _| c.pixel_store_i32(BAD, 1),
        ),
        row(
            "pixel_store_i32",
            VALUE,
            "§3.7.1: alignment not 1, 2, 4 or 8",
            |c, _| c.pixel_store_i32(gl::PACK_ALIGNMENT, 3),
        ),
        row(
            "pixel_store_i32",
            VALUE,
            "§3.7.1: a negative length",
            |c, _| c.pixel_store_i32(gl::UNPACK_ROW_LENGTH, -1),
        ),
        row(
            "pixel_store_i32",
            VALUE,
            "§3.7.1: a negative skip",
            |c, _| c.pixel_store_i32(gl::PACK_SKIP_ROWS, -4),
        ),
        row(
            "pixel_store_bool",
            ENUM,
            "§3.7.1: pname is not a pixel store mode",
            |c, _| c.pixel_store_bool(BAD, true),
        ),
    ]
}
