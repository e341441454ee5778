//! Renderbuffer objects: `glGenRenderbuffers`, `glBindRenderbuffer`,
//! `glRenderbufferStorage`, `glGetRenderbufferParameteriv`. A renderbuffer's storage
//! is a single-level 2D driver texture, which is authoritative (nothing is kept on
//! the state side); `GL_STENCIL_INDEX*` renderbuffers get a depth-stencil format
//! because the driver stores stencil only next to depth.

use rgl_backend::driver::{TexTarget, TextureDesc, TextureHandle};

use crate::error::{CreateError, GlError, GlResult};
use crate::gl;
use crate::limits;
use crate::names::Renderbuffer;
use crate::pixels::{self, InternalFormat};
use crate::Context;

/// A renderbuffer object.
#[derive(Clone, Debug, Default)]
pub struct RenderbufferObject {
    /// Internal format (`None` before `glRenderbufferStorage`).
    pub(crate) ifmt: Option<InternalFormat>,
    /// Width.
    pub(crate) width: u32,
    /// Height.
    pub(crate) height: u32,
    /// The driver texture (`None` for a 0×0 storage).
    pub(crate) texture: Option<TextureHandle>,
}

impl Context {
    /// `glGenRenderbuffers` (one name).
    pub fn create_renderbuffer(&mut self) -> Result<Renderbuffer, CreateError> {
        match self
            .framebuffers
            .renderbuffers
            .insert(RenderbufferObject::default())
        {
            Some(n) => Ok(Renderbuffer(n)),
            None => {
                self.record(GlError::OutOfMemory);
                Err(CreateError::OutOfNames("renderbuffer"))
            }
        }
    }

    /// `glIsRenderbuffer`.
    pub fn is_renderbuffer(&self, renderbuffer: Renderbuffer) -> bool {
        self.framebuffers
            .renderbuffers
            .contains(renderbuffer.name())
    }

    /// `glBindRenderbuffer` (`GL_RENDERBUFFER`).
    pub fn bind_renderbuffer(&mut self, target: u32, renderbuffer: Option<Renderbuffer>) {
        if target != gl::RENDERBUFFER {
            return self.record(GlError::InvalidEnum);
        }
        if let Some(r) = renderbuffer {
            if !self.framebuffers.renderbuffers.contains(r.name()) {
                return self.record(GlError::InvalidOperation);
            }
        }
        self.framebuffers.renderbuffer = renderbuffer;
    }

    /// `glDeleteRenderbuffers` (one name): unbinds it and detaches it from every
    /// framebuffer object.
    pub fn delete_renderbuffer(&mut self, renderbuffer: Renderbuffer) {
        let Some(rb) = self.framebuffers.renderbuffers.remove(renderbuffer.name()) else {
            return;
        };
        if self.framebuffers.renderbuffer == Some(renderbuffer) {
            self.framebuffers.renderbuffer = None;
        }
        self.framebuffers.detach_renderbuffer(renderbuffer);
        if let Some(t) = rb.texture {
            let _ = self.driver.delete_texture(t);
        }
        self.framebuffers.invalidate();
    }

    /// `glRenderbufferStorage`: color-renderable, depth, depth-stencil and stencil
    /// formats (`GL_INVALID_ENUM` for others).
    pub fn renderbuffer_storage(
        &mut self,
        target: u32,
        internal_format: u32,
        width: i32,
        height: i32,
    ) {
        let r = self.renderbuffer_storage_inner(target, internal_format, width, height);
        self.check(r);
    }

    fn renderbuffer_storage_inner(
        &mut self,
        target: u32,
        internal_format: u32,
        width: i32,
        height: i32,
    ) -> GlResult<()> {
        if target != gl::RENDERBUFFER {
            return Err(GlError::InvalidEnum);
        }
        let ifmt = pixels::internal_format(internal_format)
            .filter(|f| f.base.color_renderable() || !f.base.is_color())
            .filter(|_| !matches!(internal_format, 1..=4))
            .ok_or(GlError::InvalidEnum)?;
        let max = limits::MAX_RENDERBUFFER_SIZE as i32;
        if !(0..=max).contains(&width) || !(0..=max).contains(&height) {
            return Err(GlError::InvalidValue);
        }
        let rb = self
            .framebuffers
            .renderbuffer
            .ok_or(GlError::InvalidOperation)?;
        let (w, h) = (width as u32, height as u32);
        let texture = if w > 0 && h > 0 {
            let desc = TextureDesc {
                target: TexTarget::D2,
                format: ifmt.format,
                width: w,
                height: h,
                depth: 1,
                levels: 1,
            };
            Some(
                self.driver
                    .create_texture(&desc)
                    .map_err(|_| GlError::OutOfMemory)?,
            )
        } else {
            None
        };
        let Some(obj) = self.framebuffers.renderbuffers.get_mut(rb.name()) else {
            if let Some(t) = texture {
                let _ = self.driver.delete_texture(t);
            }
            return Err(GlError::InvalidOperation);
        };
        let old = obj.texture.take();
        *obj = RenderbufferObject {
            ifmt: Some(ifmt),
            width: w,
            height: h,
            texture,
        };
        if let Some(t) = old {
            let _ = self.driver.delete_texture(t);
        }
        self.framebuffers.invalidate();
        Ok(())
    }

    /// `glGetRenderbufferParameteriv`: width, height, internal format, samples.
    pub fn get_renderbuffer_parameter_i32(&mut self, target: u32, parameter: u32) -> i32 {
        let r = (|| {
            if target != gl::RENDERBUFFER {
                return Err(GlError::InvalidEnum);
            }
            let rb = self
                .framebuffers
                .renderbuffer
                .ok_or(GlError::InvalidOperation)?;
            let obj = self
                .framebuffers
                .renderbuffers
                .get(rb.name())
                .ok_or(GlError::InvalidOperation)?;
            Ok(match parameter {
                gl::RENDERBUFFER_WIDTH => obj.width,
                gl::RENDERBUFFER_HEIGHT => obj.height,
                gl::RENDERBUFFER_INTERNAL_FORMAT => obj.ifmt.map_or(gl::RGBA, |f| f.gl),
                gl::RENDERBUFFER_SAMPLES => 0,
                _ => return Err(GlError::InvalidEnum),
            } as i32)
        })();
        self.check(r).unwrap_or(0)
    }
}
