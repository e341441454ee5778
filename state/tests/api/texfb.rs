//! Transcript calls for textures, samplers, renderbuffers, framebuffer objects,
//! clears and read-back (the `texfb_*.gl` scripts). Objects are bound to script
//! names like shaders are; a bare number names a GL object directly, so scripts
//! can pass names that were never generated.

use std::collections::HashMap;
use std::num::NonZeroU32;

use rgl_state::{gl, Context, Framebuffer, Renderbuffer, Sampler, Texture};

use super::{Args, NOT_HANDLED};

fn status_name(s: u32) -> String {
    match s {
        gl::FRAMEBUFFER_COMPLETE => "GL_FRAMEBUFFER_COMPLETE".into(),
        gl::FRAMEBUFFER_INCOMPLETE_ATTACHMENT => "GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT".into(),
        gl::FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT => {
            "GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT".into()
        }
        gl::FRAMEBUFFER_INCOMPLETE_DRAW_BUFFER => "GL_FRAMEBUFFER_INCOMPLETE_DRAW_BUFFER".into(),
        gl::FRAMEBUFFER_INCOMPLETE_READ_BUFFER => "GL_FRAMEBUFFER_INCOMPLETE_READ_BUFFER".into(),
        gl::FRAMEBUFFER_UNSUPPORTED => "GL_FRAMEBUFFER_UNSUPPORTED".into(),
        other => format!("{other:#x}"),
    }
}

/// Script-name → GL-name bindings of this module's object kinds.
#[derive(Default)]
pub struct Objects {
    names: HashMap<String, u32>,
}

impl Objects {
    /// `0` is "none", a number is that GL name, anything else a bound script name.
    pub(crate) fn get(&self, w: &str) -> Result<Option<NonZeroU32>, String> {
        if let Ok(n) = w.parse::<u32>() {
            return Ok(NonZeroU32::new(n));
        }
        let n = self.names.get(w).ok_or(format!("unknown object {w}"))?;
        Ok(NonZeroU32::new(*n))
    }
    pub(crate) fn bind(&mut self, w: &str, name: u32) -> String {
        self.names.insert(w.to_string(), name);
        format!("{w} = {name}")
    }
}

/// Pattern pixels for an upload: `w × h` texels of `bytes` bytes, byte `i` =
/// `(i * 37 + 11) & 255`, so a read-back shows where each texel landed.
fn pattern(len: usize) -> Vec<u8> {
    (0..len).map(|i| ((i * 37 + 11) & 255) as u8).collect()
}

/// Runs `name` if it is one of this module's calls.
pub fn call(
    ctx: &mut Context,
    objs: &mut Objects,
    name: &str,
    a: &mut Args<'_>,
) -> Result<String, String> {
    Ok(match name {
        "create_texture" => {
            let w = a.next()?;
            let t = ctx.create_texture().map_err(|e| e.to_string())?;
            objs.bind(w, t.name())
        }
        "bind_texture" => {
            let target = a.u32()?;
            ctx.bind_texture(target, objs.get(a.next()?)?.map(Texture));
            String::new()
        }
        "delete_texture" => {
            if let Some(t) = objs.get(a.next()?)? {
                ctx.delete_texture(Texture(t));
            }
            String::new()
        }
        "is_texture" => match objs.get(a.next()?)? {
            Some(t) => format!("{}", ctx.is_texture(Texture(t))),
            None => "false".into(),
        },
        "active_texture" => {
            ctx.active_texture(a.u32()?);
            String::new()
        }
        // tex_image_2d TARGET LEVEL IFMT W H FORMAT TYPE [pattern BYTES_PER_TEXEL]
        "tex_image_2d" => {
            let (target, level, ifmt) = (a.u32()?, a.i32()?, a.u32()?);
            let (w, h, format, ty) = (a.i32()?, a.i32()?, a.u32()?, a.u32()?);
            let data = match a.next() {
                Ok("pattern") => Some(pattern(
                    w.max(0) as usize * h.max(0) as usize * a.u32()? as usize,
                )),
                _ => None,
            };
            ctx.tex_image_2d(
                target,
                level,
                ifmt as i32,
                w,
                h,
                0,
                format,
                ty,
                data.as_deref(),
            );
            String::new()
        }
        "tex_parameter" => {
            let (target, pname) = (a.u32()?, a.u32()?);
            // Negative numbers are values; anything else may be an enum.
            let v = match a.next()? {
                w if w.starts_with('-') => w.parse().map_err(|_| format!("bad number {w}"))?,
                w => super::parse_u32(w)? as i32,
            };
            ctx.tex_parameter_i32(target, pname, v);
            String::new()
        }
        "get_tex_parameter" => {
            let (target, pname) = (a.u32()?, a.u32()?);
            format!("{}", ctx.get_tex_parameter_i32(target, pname))
        }
        "get_tex_level_parameter" => {
            let (target, level, pname) = (a.u32()?, a.i32()?, a.u32()?);
            format!("{}", ctx.get_tex_level_parameter_i32(target, level, pname))
        }
        "generate_mipmap" => {
            ctx.generate_mipmap(a.u32()?);
            String::new()
        }
        "create_sampler" => {
            let w = a.next()?;
            let s = ctx.create_sampler().map_err(|e| e.to_string())?;
            objs.bind(w, s.name())
        }
        "bind_sampler" => {
            let unit = a.u32()?;
            ctx.bind_sampler(unit, objs.get(a.next()?)?.map(Sampler));
            String::new()
        }
        "sampler_parameter" => {
            let s = objs.get(a.next()?)?.ok_or("sampler 0")?;
            let (pname, v) = (a.u32()?, a.u32()?);
            ctx.sampler_parameter_i32(Sampler(s), pname, v as i32);
            String::new()
        }
        "get_sampler_parameter" => {
            let s = objs.get(a.next()?)?.ok_or("sampler 0")?;
            format!("{}", ctx.get_sampler_parameter_i32(Sampler(s), a.u32()?))
        }
        "create_renderbuffer" => {
            let w = a.next()?;
            let r = ctx.create_renderbuffer().map_err(|e| e.to_string())?;
            objs.bind(w, r.name())
        }
        "bind_renderbuffer" => {
            let target = a.u32()?;
            ctx.bind_renderbuffer(target, objs.get(a.next()?)?.map(Renderbuffer));
            String::new()
        }
        "renderbuffer_storage" => {
            let (target, ifmt, w, h) = (a.u32()?, a.u32()?, a.i32()?, a.i32()?);
            ctx.renderbuffer_storage(target, ifmt, w, h);
            String::new()
        }
        "get_renderbuffer_parameter" => {
            let (target, pname) = (a.u32()?, a.u32()?);
            format!("{}", ctx.get_renderbuffer_parameter_i32(target, pname))
        }
        "create_framebuffer" => {
            let w = a.next()?;
            let f = ctx.create_framebuffer().map_err(|e| e.to_string())?;
            objs.bind(w, f.name())
        }
        "bind_framebuffer" => {
            let target = a.u32()?;
            ctx.bind_framebuffer(target, objs.get(a.next()?)?.map(Framebuffer));
            String::new()
        }
        "delete_framebuffer" => {
            if let Some(f) = objs.get(a.next()?)? {
                ctx.delete_framebuffer(Framebuffer(f));
            }
            String::new()
        }
        "framebuffer_texture_2d" => {
            let (target, attachment, textarget) = (a.u32()?, a.u32()?, a.u32()?);
            let t = objs.get(a.next()?)?.map(Texture);
            ctx.framebuffer_texture_2d(target, attachment, textarget, t, a.i32()?);
            String::new()
        }
        "framebuffer_renderbuffer" => {
            let (target, attachment, rbt) = (a.u32()?, a.u32()?, a.u32()?);
            let r = objs.get(a.next()?)?.map(Renderbuffer);
            ctx.framebuffer_renderbuffer(target, attachment, rbt, r);
            String::new()
        }
        "get_framebuffer_attachment_parameter" => {
            let (target, attachment, pname) = (a.u32()?, a.u32()?, a.u32()?);
            let v = ctx.get_framebuffer_attachment_parameter_i32(target, attachment, pname);
            format!("{v}")
        }
        "check_framebuffer_status" => status_name(ctx.check_framebuffer_status(a.u32()?)),
        "clear_color" => {
            let (r, g, b, al) = (a.f32()?, a.f32()?, a.f32()?, a.f32()?);
            ctx.clear_color(r, g, b, al);
            String::new()
        }
        "clear_depth" => {
            ctx.clear_depth_f64(a.f32()? as f64);
            String::new()
        }
        "scissor" => {
            let (x, y, w, h) = (a.i32()?, a.i32()?, a.i32()?, a.i32()?);
            ctx.scissor(x, y, w, h);
            String::new()
        }
        "clear" => {
            ctx.clear(a.u32()?);
            String::new()
        }
        // read_rgba8 X Y W H: the bytes of a W×H block, one pixel per group.
        "read_rgba8" => {
            let (x, y, w, h) = (a.i32()?, a.i32()?, a.i32()?, a.i32()?);
            let mut px = vec![0u8; (w.max(0) * h.max(0) * 4) as usize];
            ctx.read_pixels(x, y, w, h, gl::RGBA, gl::UNSIGNED_BYTE, &mut px);
            px.chunks(4)
                .map(|p| format!("{:02x}{:02x}{:02x}{:02x}", p[0], p[1], p[2], p[3]))
                .collect::<Vec<_>>()
                .join(" ")
        }
        // read_depth X Y: one depth value as float.
        "read_depth" => {
            let (x, y) = (a.i32()?, a.i32()?);
            let mut px = [0u8; 4];
            ctx.read_pixels(x, y, 1, 1, gl::DEPTH_COMPONENT, gl::FLOAT, &mut px);
            format!("{}", f32::from_le_bytes(px))
        }
        _ => return Err(NOT_HANDLED.to_string()),
    })
}
