//! Misuse rows of the pipeline APIs: per-fragment and rasterizer state (GL 3.3
//! §3.4–3.6, §4.1, §4.2, §5.6), the compatibility matrix stacks and clip
//! planes (compatibility §2.12, §2.23), textures and samplers (§3.8), pixel
//! storage (§3.7.1), framebuffers and renderbuffers (§4.4), clears, reads,
//! copies and blits (§4.2.3, §4.3, §3.8.4), and draws (§2.8.3).

use rgl_state::gl::{
    self, INVALID_ENUM as ENUM, INVALID_FRAMEBUFFER_OPERATION as FBO, INVALID_OPERATION as OP,
    INVALID_VALUE as VALUE, STACK_OVERFLOW, STACK_UNDERFLOW,
};
use rgl_state::{Context, Framebuffer, Renderbuffer, Sampler, Texture};

use crate::fixture::{never, Fx};
use crate::table::{row, row_with, Row};
use crate::table_objects::BAD;

const T2: u32 = gl::TEXTURE_2D;
const RGBA8: i32 = gl::RGBA8 as i32;
const FB: u32 = gl::FRAMEBUFFER;
const C0: u32 = gl::COLOR_ATTACHMENT0;

fn bind_fbo(c: &mut Context, f: &Fx) {
    c.bind_framebuffer(FB, Some(f.fbo));
}

fn bind_empty_fbo(c: &mut Context, f: &Fx) {
    c.bind_framebuffer(FB, Some(f.fbo_empty));
}

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
        // Framebuffer objects, GL 3.3 §4.4.1–4.4.2; queries §6.1.13.
        row(
            "bind_framebuffer",
            ENUM,
            "§4.4.1: target is not a framebuffer target",
            |c, f| c.bind_framebuffer(BAD, Some(f.fbo)),
        ),
        row(
            "bind_framebuffer",
            OP,
            "§4.4.1: framebuffer is a deleted name",
            |c, f| c.bind_framebuffer(FB, Some(f.dead_fbo)),
        ),
        row(
            "bind_framebuffer",
            OP,
            "§4.4.1: framebuffer was never generated",
            |c, _| c.bind_framebuffer(FB, Some(Framebuffer(never(7)))),
        ),
        row(
            "framebuffer_texture_2d",
            ENUM,
            "§4.4.2: target is not a framebuffer target",
            |c, f| c.framebuffer_texture_2d(BAD, C0, T2, Some(f.tex2d), 0),
        ),
        row(
            "framebuffer_texture_2d",
            OP,
            "§4.4.2: the default framebuffer is bound",
            |c, f| c.framebuffer_texture_2d(FB, C0, T2, Some(f.tex2d), 0),
        ),
        row_with(
            "framebuffer_texture_2d",
            ENUM,
            "§4.4.2: attachment is not an attachment point",
            bind_fbo,
            |c, f| c.framebuffer_texture_2d(FB, BAD, T2, Some(f.tex2d), 0),
        ),
        row_with(
            "framebuffer_texture_2d",
            OP,
            "§4.4.2: COLOR_ATTACHMENTi with i >= MAX_COLOR_ATTACHMENTS",
            bind_fbo,
            |c, f| c.framebuffer_texture_2d(FB, C0 + 8, T2, Some(f.tex2d), 0),
        ),
        row_with(
            "framebuffer_texture_2d",
            OP,
            "§4.4.2: texture is not the name of a texture",
            bind_fbo,
            |c, f| c.framebuffer_texture_2d(FB, C0, T2, Some(f.dead_tex), 0),
        ),
        row_with(
            "framebuffer_texture_2d",
            OP,
            "§4.4.2: textarget does not match the texture's target",
            bind_fbo,
            |c, f| c.framebuffer_texture_2d(FB, C0, T2, Some(f.tex3d), 0),
        ),
        row_with(
            "framebuffer_texture_2d",
            ENUM,
            "§4.4.2: textarget is not a 2D image target",
            bind_fbo,
            |c, f| c.framebuffer_texture_2d(FB, C0, BAD, Some(f.tex2d), 0),
        ),
        row_with(
            "framebuffer_texture_2d",
            VALUE,
            "§4.4.2: level < 0 or > log2(max size)",
            bind_fbo,
            |c, f| c.framebuffer_texture_2d(FB, C0, T2, Some(f.tex2d), 40),
        ),
        row_with(
            "framebuffer_texture_1d",
            OP,
            "§4.4.2: textarget does not match the texture's target",
            bind_fbo,
            |c, f| c.framebuffer_texture_1d(FB, C0, gl::TEXTURE_1D, Some(f.tex2d), 0),
        ),
        row(
            "framebuffer_texture_1d",
            OP,
            "§4.4.2: the default framebuffer is bound",
            |c, f| c.framebuffer_texture_1d(FB, C0, gl::TEXTURE_1D, Some(f.tex1d), 0),
        ),
        row_with(
            "framebuffer_texture_1d",
            ENUM,
            "§4.4.2: textarget is not TEXTURE_1D",
            bind_fbo,
            |c, f| c.framebuffer_texture_1d(FB, C0, BAD, Some(f.tex1d), 0),
        ),
        row_with(
            "framebuffer_texture_layer",
            VALUE,
            "§4.4.2: layer >= MAX_ARRAY_TEXTURE_LAYERS",
            bind_fbo,
            |c, f| c.framebuffer_texture_layer(FB, C0, Some(f.tex_array), 0, 1 << 20),
        ),
        row_with(
            "framebuffer_texture_layer",
            VALUE,
            "§4.4.2: layer < 0",
            bind_fbo,
            |c, f| c.framebuffer_texture_layer(FB, C0, Some(f.tex_array), 0, -1),
        ),
        row_with(
            "framebuffer_texture_layer",
            OP,
            "§4.4.2: texture is neither 3D nor an array",
            bind_fbo,
            |c, f| c.framebuffer_texture_layer(FB, C0, Some(f.tex2d), 0, 0),
        ),
        row(
            "framebuffer_texture_layer",
            OP,
            "§4.4.2: the default framebuffer is bound",
            |c, f| c.framebuffer_texture_layer(FB, C0, Some(f.tex_array), 0, 0),
        ),
        row(
            "framebuffer_texture",
            ENUM,
            "§4.4.2: target is not a framebuffer target",
            |c, f| c.framebuffer_texture(BAD, C0, Some(f.tex2d), 0),
        ),
        row(
            "framebuffer_texture",
            OP,
            "§4.4.2: the default framebuffer is bound",
            |c, f| c.framebuffer_texture(FB, C0, Some(f.tex2d), 0),
        ),
        row_with(
            "framebuffer_texture",
            OP,
            "§4.4.2: texture is not the name of a texture",
            bind_fbo,
            |c, f| c.framebuffer_texture(FB, C0, Some(f.dead_tex), 0),
        ),
        row_with(
            "framebuffer_texture",
            VALUE,
            "§4.4.2: level < 0",
            bind_fbo,
            |c, f| c.framebuffer_texture(FB, C0, Some(f.tex2d), -1),
        ),
        row_with(
            "framebuffer_renderbuffer",
            ENUM,
            "§4.4.2: renderbuffertarget is not RENDERBUFFER",
            bind_fbo,
            |c, f| c.framebuffer_renderbuffer(FB, C0, BAD, Some(f.rb)),
        ),
        row_with(
            "framebuffer_renderbuffer",
            OP,
            "§4.4.2: renderbuffer is not the name of a renderbuffer",
            bind_fbo,
            |c, f| c.framebuffer_renderbuffer(FB, C0, gl::RENDERBUFFER, Some(f.dead_rb)),
        ),
        row(
            "framebuffer_renderbuffer",
            OP,
            "§4.4.2: the default framebuffer is bound",
            |c, f| c.framebuffer_renderbuffer(FB, C0, gl::RENDERBUFFER, Some(f.rb)),
        ),
        row(
            "framebuffer_renderbuffer",
            ENUM,
            "§4.4.2: target is not a framebuffer target",
            |c, f| c.framebuffer_renderbuffer(BAD, C0, gl::RENDERBUFFER, Some(f.rb)),
        ),
        row(
            "check_framebuffer_status",
            ENUM,
            "§4.4.4.2: target is not a target",
            |c, _| {
                c.check_framebuffer_status(BAD);
            },
        ),
        row(
            "get_framebuffer_attachment_parameter_i32",
            ENUM,
            "§6.1.13: target is not a framebuffer target",
            |c, _| {
                let p = gl::FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE;
                c.get_framebuffer_attachment_parameter_i32(BAD, C0, p);
            },
        ),
        row_with(
            "get_framebuffer_attachment_parameter_i32",
            ENUM,
            "§6.1.13: pname is not an attachment parameter",
            bind_fbo,
            |c, _| {
                c.get_framebuffer_attachment_parameter_i32(FB, C0, BAD);
            },
        ),
        row_with(
            "get_framebuffer_attachment_parameter_i32",
            OP,
            "§6.1.13: a texture parameter of an attachment of type NONE",
            bind_fbo,
            |c, _| {
                let p = gl::FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL;
                c.get_framebuffer_attachment_parameter_i32(FB, C0 + 1, p);
            },
        ),
        // Renderbuffers, GL 3.3 §4.4.2; queries §6.1.14.
        row(
            "bind_renderbuffer",
            ENUM,
            "§4.4.2: target is not RENDERBUFFER",
            |c, f| c.bind_renderbuffer(BAD, Some(f.rb)),
        ),
        row(
            "bind_renderbuffer",
            OP,
            "§4.4.2: renderbuffer is a deleted name",
            |c, f| c.bind_renderbuffer(gl::RENDERBUFFER, Some(f.dead_rb)),
        ),
        row(
            "bind_renderbuffer",
            OP,
            "§4.4.2: renderbuffer was never generated",
            |c, _| c.bind_renderbuffer(gl::RENDERBUFFER, Some(Renderbuffer(never(8)))),
        ),
        row(
            "renderbuffer_storage",
            ENUM,
            "§4.4.2: target is not RENDERBUFFER",
            |c, _| c.renderbuffer_storage(BAD, gl::RGBA8, 4, 4),
        ),
        row(
            "renderbuffer_storage",
            ENUM,
            "§4.4.2: internalformat is not renderable",
            |c, _| c.renderbuffer_storage(gl::RENDERBUFFER, BAD, 4, 4),
        ),
        row(
            "renderbuffer_storage",
            VALUE,
            "§4.4.2: width < 0",
            |c, _| c.renderbuffer_storage(gl::RENDERBUFFER, gl::RGBA8, -1, 4),
        ),
        row(
            "renderbuffer_storage",
            VALUE,
            "§4.4.2: height > MAX_RENDERBUFFER_SIZE",
            |c, _| c.renderbuffer_storage(gl::RENDERBUFFER, gl::RGBA8, 4, 1 << 20),
        ),
        row_with(
            "renderbuffer_storage",
            OP,
            "§4.4.2: no renderbuffer is bound",
            |c, _| c.bind_renderbuffer(gl::RENDERBUFFER, None),
            |c, _| c.renderbuffer_storage(gl::RENDERBUFFER, gl::RGBA8, 4, 4),
        ),
        row(
            "get_renderbuffer_parameter_i32",
            ENUM,
            "§6.1.14: target is not RENDERBUFFER",
            |c, _| {
                c.get_renderbuffer_parameter_i32(BAD, gl::RENDERBUFFER_WIDTH);
            },
        ),
        row(
            "get_renderbuffer_parameter_i32",
            ENUM,
            "§6.1.14: pname is not a renderbuffer parameter",
            |c, _| {
                c.get_renderbuffer_parameter_i32(gl::RENDERBUFFER, BAD);
            },
        ),
        row_with(
            "get_renderbuffer_parameter_i32",
            OP,
            "§6.1.14: no renderbuffer is bound",
            |c, _| c.bind_renderbuffer(gl::RENDERBUFFER, None),
            |c, _| {
                c.get_renderbuffer_parameter_i32(gl::RENDERBUFFER, gl::RENDERBUFFER_WIDTH);
            },
        ),
        // Draw and read buffer selection, GL 3.3 §4.2.1, §4.3.1.
        row(
            "draw_buffer",
            ENUM,
            "§4.2.1: buf is not a buffer name",
            |c, _| c.draw_buffer(BAD),
        ),
        row(
            "draw_buffer",
            OP,
            "§4.2.1: COLOR_ATTACHMENTi for the default framebuffer",
            |c, _| c.draw_buffer(C0),
        ),
        row_with(
            "draw_buffer",
            OP,
            "§4.2.1: a default-framebuffer buffer for a framebuffer object",
            bind_fbo,
            |c, _| c.draw_buffer(gl::BACK),
        ),
        row(
            "draw_buffers",
            ENUM,
            "§4.2.1: a value is not a buffer name",
            |c, _| c.draw_buffers(&[BAD]),
        ),
        row(
            "draw_buffers",
            VALUE,
            "§4.2.1: n > MAX_DRAW_BUFFERS",
            |c, _| c.draw_buffers(&[gl::NONE; 9]),
        ),
        row_with(
            "draw_buffers",
            OP,
            "§4.2.1: a buffer named twice",
            bind_fbo,
            |c, _| c.draw_buffers(&[C0, C0]),
        ),
        row_with(
            "draw_buffers",
            OP,
            "§4.2.1: BACK_LEFT for a framebuffer object",
            bind_fbo,
            |c, _| c.draw_buffers(&[gl::BACK_LEFT]),
        ),
        row(
            "draw_buffers",
            OP,
            "§4.2.1: COLOR_ATTACHMENTi for the default framebuffer",
            |c, _| c.draw_buffers(&[C0]),
        ),
        row(
            "read_buffer",
            ENUM,
            "§4.3.1: src is not a buffer name",
            |c, _| c.read_buffer(BAD),
        ),
        row(
            "read_buffer",
            OP,
            "§4.3.1: COLOR_ATTACHMENTi for the default framebuffer",
            |c, _| c.read_buffer(C0),
        ),
        row_with(
            "read_buffer",
            OP,
            "§4.3.1: a default-framebuffer buffer for a framebuffer object",
            bind_fbo,
            |c, _| c.read_buffer(gl::BACK),
        ),
        // Clears, GL 3.3 §4.2.3.
        row(
            "clear",
            VALUE,
            "§4.2.3: bits other than the buffer bits",
            |c, _| c.clear(0x8000_0000),
        ),
        row_with(
            "clear",
            FBO,
            "§4.4.4: the draw framebuffer is not complete",
            bind_empty_fbo,
            |c, _| c.clear(gl::COLOR_BUFFER_BIT),
        ),
        row(
            "clear_buffer_f32_slice",
            ENUM,
            "§4.2.3: buffer is not COLOR or DEPTH",
            |c, _| c.clear_buffer_f32_slice(gl::STENCIL, 0, &[0.0; 4]),
        ),
        row(
            "clear_buffer_f32_slice",
            VALUE,
            "§4.2.3: COLOR with drawbuffer >= MAX_DRAW_BUFFERS",
            |c, _| c.clear_buffer_f32_slice(gl::COLOR, 8, &[0.0; 4]),
        ),
        row(
            "clear_buffer_f32_slice",
            VALUE,
            "§4.2.3: DEPTH with drawbuffer other than 0",
            |c, _| c.clear_buffer_f32_slice(gl::DEPTH, 1, &[0.0]),
        ),
        row_with(
            "clear_buffer_f32_slice",
            FBO,
            "§4.4.4: the draw framebuffer is not complete",
            bind_empty_fbo,
            |c, _| c.clear_buffer_f32_slice(gl::COLOR, 0, &[0.0; 4]),
        ),
        row(
            "clear_buffer_i32_slice",
            ENUM,
            "§4.2.3: buffer is not COLOR or STENCIL",
            |c, _| c.clear_buffer_i32_slice(gl::DEPTH, 0, &[0]),
        ),
        row(
            "clear_buffer_i32_slice",
            VALUE,
            "§4.2.3: STENCIL with drawbuffer other than 0",
            |c, _| c.clear_buffer_i32_slice(gl::STENCIL, 2, &[0]),
        ),
        row(
            "clear_buffer_u32_slice",
            ENUM,
            "§4.2.3: buffer is not COLOR",
            |c, _| c.clear_buffer_u32_slice(gl::STENCIL, 0, &[0]),
        ),
        row(
            "clear_buffer_u32_slice",
            VALUE,
            "§4.2.3: COLOR with drawbuffer >= MAX_DRAW_BUFFERS",
            |c, _| c.clear_buffer_u32_slice(gl::COLOR, 8, &[0; 4]),
        ),
        row(
            "clear_buffer_depth_stencil",
            ENUM,
            "§4.2.3: buffer is not DEPTH_STENCIL",
            |c, _| c.clear_buffer_depth_stencil(gl::COLOR, 0, 1.0, 0),
        ),
        row(
            "clear_buffer_depth_stencil",
            VALUE,
            "§4.2.3: drawbuffer other than 0",
            |c, _| c.clear_buffer_depth_stencil(gl::DEPTH_STENCIL, 1, 1.0, 0),
        ),
        // Reading pixels, GL 3.3 §4.3.1.
        row("read_pixels", VALUE, "§4.3.1: width < 0", |c, _| {
            c.read_pixels(0, 0, -1, 1, gl::RGBA, gl::UNSIGNED_BYTE, &mut [0; 4])
        }),
        row(
            "read_pixels",
            ENUM,
            "§4.3.1: format is not a pixel format",
            |c, _| c.read_pixels(0, 0, 1, 1, BAD, gl::UNSIGNED_BYTE, &mut [0; 4]),
        ),
        row(
            "read_pixels",
            ENUM,
            "§4.3.1: type is not a pixel type",
            |c, _| c.read_pixels(0, 0, 1, 1, gl::RGBA, BAD, &mut [0; 4]),
        ),
        row(
            "read_pixels",
            OP,
            "§4.3.1: a packed type whose component count differs from format's",
            |c, _| c.read_pixels(0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_SHORT_5_6_5, &mut [0; 4]),
        ),
        row_with(
            "read_pixels",
            FBO,
            "§4.4.4: the read framebuffer is not complete",
            bind_empty_fbo,
            |c, _| c.read_pixels(0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE, &mut [0; 4]),
        ),
        row_with(
            "read_pixels",
            OP,
            "§4.3.1: the read buffer is NONE",
            |c, _| c.read_buffer(gl::NONE),
            |c, _| c.read_pixels(0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE, &mut [0; 4]),
        ),
        row_with(
            "read_pixels",
            OP,
            "§4.3.1 / §2.9.7: the pack buffer is too small for the pixels",
            |c, f| c.bind_buffer(gl::PIXEL_PACK_BUFFER, Some(f.buf)),
            |c, _| c.read_pixels(0, 0, 8, 8, gl::RGBA, gl::UNSIGNED_BYTE, &mut []),
        ),
        // Copies into textures, GL 3.3 §3.8.4.
        row(
            "copy_tex_image_2d",
            ENUM,
            "§3.8.4: target is not a 2D image target",
            |c, _| c.copy_tex_image_2d(gl::TEXTURE_3D, 0, gl::RGBA8, 0, 0, 2, 2, 0),
        ),
        row("copy_tex_image_2d", VALUE, "§3.8.4: level < 0", |c, _| {
            c.copy_tex_image_2d(T2, -1, gl::RGBA8, 0, 0, 2, 2, 0)
        }),
        row("copy_tex_image_2d", VALUE, "§3.8.4: width < 0", |c, _| {
            c.copy_tex_image_2d(T2, 0, gl::RGBA8, 0, 0, -2, 2, 0)
        }),
        row(
            "copy_tex_image_2d",
            VALUE,
            "§3.8.4: border is not 0",
            |c, _| c.copy_tex_image_2d(T2, 0, gl::RGBA8, 0, 0, 2, 2, 1),
        ),
        row(
            "copy_tex_image_2d",
            VALUE,
            "§3.8.4: internalformat is not a format",
            |c, _| c.copy_tex_image_2d(T2, 0, BAD, 0, 0, 2, 2, 0),
        ),
        row_with(
            "copy_tex_image_2d",
            FBO,
            "§4.4.4: the read framebuffer is not complete",
            bind_empty_fbo,
            |c, _| c.copy_tex_image_2d(T2, 0, gl::RGBA8, 0, 0, 2, 2, 0),
        ),
        row(
            "copy_tex_sub_image_2d",
            VALUE,
            "§3.8.4: xoffset + width > the level's width",
            |c, _| c.copy_tex_sub_image_2d(T2, 0, 3, 0, 0, 0, 2, 2),
        ),
        row(
            "copy_tex_sub_image_2d",
            VALUE,
            "§3.8.4: yoffset < 0",
            |c, _| c.copy_tex_sub_image_2d(T2, 0, 0, -1, 0, 0, 2, 2),
        ),
        row(
            "copy_tex_sub_image_2d",
            OP,
            "§3.8.4: the level was never specified",
            |c, _| c.copy_tex_sub_image_2d(T2, 2, 0, 0, 0, 0, 1, 1),
        ),
        row(
            "copy_tex_sub_image_2d",
            ENUM,
            "§3.8.4: target is not a 2D image target",
            |c, _| c.copy_tex_sub_image_2d(gl::TEXTURE_3D, 0, 0, 0, 0, 0, 1, 1),
        ),
        row_with(
            "copy_tex_sub_image_2d",
            FBO,
            "§4.4.4: the read framebuffer is not complete",
            bind_empty_fbo,
            |c, _| c.copy_tex_sub_image_2d(T2, 0, 0, 0, 0, 0, 1, 1),
        ),
        row(
            "copy_tex_sub_image_3d",
            VALUE,
            "§3.8.4: zoffset >= the level's depth",
            |c, _| c.copy_tex_sub_image_3d(gl::TEXTURE_3D, 0, 0, 0, 2, 0, 0, 1, 1),
        ),
        row(
            "copy_tex_sub_image_3d",
            ENUM,
            "§3.8.4: target is not a 3D image target",
            |c, _| c.copy_tex_sub_image_3d(T2, 0, 0, 0, 0, 0, 0, 1, 1),
        ),
        row(
            "copy_tex_sub_image_3d",
            OP,
            "§3.8.4: the level was never specified",
            |c, _| c.copy_tex_sub_image_3d(gl::TEXTURE_3D, 1, 0, 0, 0, 0, 0, 1, 1),
        ),
        // Blits, GL 3.3 §4.3.2.
        row(
            "blit_framebuffer",
            VALUE,
            "§4.3.2: mask has bits other than buffer bits",
            |c, _| c.blit_framebuffer(0, 0, 1, 1, 0, 0, 1, 1, 0x8000_0000, gl::NEAREST),
        ),
        row(
            "blit_framebuffer",
            ENUM,
            "§4.3.2: filter is not NEAREST or LINEAR",
            |c, _| c.blit_framebuffer(0, 0, 1, 1, 0, 0, 1, 1, gl::COLOR_BUFFER_BIT, BAD),
        ),
        row(
            "blit_framebuffer",
            OP,
            "§4.3.2: LINEAR with depth or stencil in mask",
            |c, _| {
                let m = gl::COLOR_BUFFER_BIT | gl::DEPTH_BUFFER_BIT;
                c.blit_framebuffer(0, 0, 1, 1, 0, 0, 2, 2, m, gl::LINEAR)
            },
        ),
        row_with(
            "blit_framebuffer",
            FBO,
            "§4.4.4: the read framebuffer is not complete",
            |c, f| c.bind_framebuffer(gl::READ_FRAMEBUFFER, Some(f.fbo_empty)),
            |c, _| c.blit_framebuffer(0, 0, 1, 1, 0, 0, 1, 1, gl::COLOR_BUFFER_BIT, gl::NEAREST),
        ),
        row_with(
            "blit_framebuffer",
            FBO,
            "§4.4.4: the draw framebuffer is not complete",
            |c, f| c.bind_framebuffer(gl::DRAW_FRAMEBUFFER, Some(f.fbo_empty)),
            |c, _| c.blit_framebuffer(0, 0, 1, 1, 0, 0, 1, 1, gl::COLOR_BUFFER_BIT, gl::NEAREST),
        ),
        // Draws, GL 3.3 §2.8.3, §2.12 (geometry shader input), §4.4.4.
        row(
            "draw_arrays",
            ENUM,
            "§2.8.3: mode is not a primitive",
            |c, _| c.draw_arrays(BAD, 0, 3),
        ),
        row("draw_arrays", VALUE, "§2.8.3: count < 0", |c, _| {
            c.draw_arrays(gl::TRIANGLES, 0, -3)
        }),
        row_with(
            "draw_arrays",
            OP,
            "§2.12.1: mode does not match the geometry shader's input",
            |c, f| c.use_program(Some(f.gs_prog)),
            |c, _| c.draw_arrays(gl::TRIANGLES, 0, 3),
        ),
        row_with(
            "draw_arrays",
            FBO,
            "§4.4.4: the draw framebuffer is not complete",
            bind_empty_fbo,
            |c, _| c.draw_arrays(gl::TRIANGLES, 0, 3),
        ),
        row(
            "draw_arrays_instanced",
            VALUE,
            "§2.8.3: primcount < 0",
            |c, _| c.draw_arrays_instanced(gl::TRIANGLES, 0, 3, -1),
        ),
        row(
            "draw_arrays_instanced",
            ENUM,
            "§2.8.3: mode is not a primitive",
            |c, _| c.draw_arrays_instanced(BAD, 0, 3, 1),
        ),
        row(
            "draw_arrays_instanced_base_instance",
            VALUE,
            "§2.8.3: count < 0",
            |c, _| c.draw_arrays_instanced_base_instance(gl::TRIANGLES, 0, -1, 1, 0),
        ),
        row(
            "draw_arrays_instanced_base_instance",
            ENUM,
            "§2.8.3: mode is not a primitive",
            |c, _| c.draw_arrays_instanced_base_instance(BAD, 0, 3, 1, 0),
        ),
        row(
            "draw_elements",
            ENUM,
            "§2.8.3: mode is not a primitive",
            |c, _| c.draw_elements(BAD, 3, gl::UNSIGNED_SHORT, 0),
        ),
        row(
            "draw_elements",
            ENUM,
            "§2.8.3: type is not an index type",
            |c, _| c.draw_elements(gl::TRIANGLES, 3, gl::FLOAT, 0),
        ),
        row("draw_elements", VALUE, "§2.8.3: count < 0", |c, _| {
            c.draw_elements(gl::TRIANGLES, -3, gl::UNSIGNED_SHORT, 0)
        }),
        row_with(
            "draw_elements",
            OP,
            "§2.12.1: mode does not match the geometry shader's input",
            |c, f| c.use_program(Some(f.gs_prog)),
            |c, _| c.draw_elements(gl::TRIANGLES, 3, gl::UNSIGNED_SHORT, 0),
        ),
        row_with(
            "draw_elements",
            FBO,
            "§4.4.4: the draw framebuffer is not complete",
            bind_empty_fbo,
            |c, _| c.draw_elements(gl::TRIANGLES, 3, gl::UNSIGNED_SHORT, 0),
        ),
        row(
            "draw_elements_instanced",
            VALUE,
            "§2.8.3: primcount < 0",
            |c, _| c.draw_elements_instanced(gl::TRIANGLES, 3, gl::UNSIGNED_SHORT, 0, -1),
        ),
        row(
            "draw_elements_instanced",
            ENUM,
            "§2.8.3: type is not an index type",
            |c, _| c.draw_elements_instanced(gl::TRIANGLES, 3, BAD, 0, 1),
        ),
        row(
            "draw_elements_base_vertex",
            ENUM,
            "§2.8.3: mode is not a primitive",
            |c, _| c.draw_elements_base_vertex(BAD, 3, gl::UNSIGNED_SHORT, 0, 0),
        ),
        row(
            "draw_elements_base_vertex",
            VALUE,
            "§2.8.3: count < 0",
            |c, _| c.draw_elements_base_vertex(gl::TRIANGLES, -1, gl::UNSIGNED_SHORT, 0, 0),
        ),
        row(
            "draw_elements_instanced_base_vertex",
            VALUE,
            "§2.8.3: primcount < 0",
            |c, _| {
                c.draw_elements_instanced_base_vertex(
                    gl::TRIANGLES,
                    3,
                    gl::UNSIGNED_SHORT,
                    0,
                    -1,
                    0,
                )
            },
        ),
        row(
            "draw_elements_instanced_base_vertex",
            ENUM,
            "§2.8.3: type is not an index type",
            |c, _| c.draw_elements_instanced_base_vertex(gl::TRIANGLES, 3, BAD, 0, 1, 0),
        ),
        row(
            "draw_range_elements",
            VALUE,
            "§2.8.3: end < start",
            |c, _| c.draw_range_elements(gl::TRIANGLES, 2, 1, 3, gl::UNSIGNED_SHORT, 0),
        ),
        row(
            "draw_range_elements",
            VALUE,
            "§2.8.3: count < 0",
            |c, _| c.draw_range_elements(gl::TRIANGLES, 0, 2, -3, gl::UNSIGNED_SHORT, 0),
        ),
        row(
            "draw_range_elements",
            ENUM,
            "§2.8.3: mode is not a primitive",
            |c, _| c.draw_range_elements(BAD, 0, 2, 3, gl::UNSIGNED_SHORT, 0),
        ),
    ]
}
