//! Misuse rows of the framebuffer and drawing APIs: framebuffers and
//! renderbuffers (GL 3.3 §4.4), draw and read buffer selection (§4.2.1,
//! §4.3.1), clears, reads, copies and blits (§4.2.3, §4.3, §3.8.4), and draws
//! (§2.8.3).

use rgl_state::gl::{
    self, INVALID_ENUM as ENUM, INVALID_FRAMEBUFFER_OPERATION as FBO, INVALID_OPERATION as OP,
    INVALID_VALUE as VALUE,
};
use rgl_state::{Context, Framebuffer, Renderbuffer};

use crate::fixture::{never, Fx};
use crate::table::{row, row_with, Row};
use crate::table_objects::BAD;
use crate::table_state::T2;

const FB: u32 = gl::FRAMEBUFFER;
const C0: u32 = gl::COLOR_ATTACHMENT0;

fn bind_fbo(c: &mut Context, f: &Fx) {
    c.bind_framebuffer(FB, Some(f.fbo));
}

fn bind_empty_fbo(c: &mut Context, f: &Fx) {
    c.bind_framebuffer(FB, Some(f.fbo_empty));
}

pub fn rows() -> Vec<Row> {
    vec![
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
            "§4.4.2 (4.5 wording, as Mesa answers): COLOR_ATTACHMENTi, i >= MAX_COLOR_ATTACHMENTS",
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
        row_with(
            "framebuffer_texture_2d",
            OP,
            "§4.4.2: a cube map face textarget with a 2D texture",
            bind_fbo,
            |c, f| {
                let face = gl::TEXTURE_CUBE_MAP_POSITIVE_Y;
                c.framebuffer_texture_2d(FB, C0, face, Some(f.tex2d), 0)
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
        row(
            "draw_buffers",
            OP,
            "§4.2.1: FRONT_AND_BACK in bufs (INVALID_OPERATION in GL 3.3, ENUM since 4.0)",
            |c, _| c.draw_buffers(&[gl::FRONT_AND_BACK]),
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
        row(
            "clear_buffer_i32_slice",
            VALUE,
            "§4.2.3: COLOR with drawbuffer >= MAX_DRAW_BUFFERS",
            |c, _| c.clear_buffer_i32_slice(gl::COLOR, 8, &[0; 4]),
        ),
        row_with(
            "clear_buffer_depth_stencil",
            FBO,
            "§4.4.4: the draw framebuffer is not complete",
            bind_empty_fbo,
            |c, _| c.clear_buffer_depth_stencil(gl::DEPTH_STENCIL, 0, 1.0, 0),
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
        row_with(
            "draw_arrays",
            OP,
            "§2.11.5: samplers of different types on one texture unit",
            |c, f| c.uniform_1_i32(Some(&f.loc_s3), 0),
            |c, _| c.draw_arrays(gl::TRIANGLES, 0, 3),
        ),
    ]
}
