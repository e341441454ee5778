//! Framebuffer objects and the default framebuffer: attachment
//! (`glFramebufferTexture*`, `glFramebufferRenderbuffer`), completeness
//! (`glCheckFramebufferStatus`), the draw/read bindings and buffers
//! (`glDrawBuffers`, `glReadBuffer`), `glClear`, `glClearBuffer*`, `glReadPixels`,
//! `glBlitFramebuffer` and `glCopyTex{Sub}Image2D`.
//!
//! The seam the draw path uses is [`Context::validate_draw_framebuffer`]: it makes the
//! driver's render targets match the bound draw framebuffer (or reports it
//! incomplete) and returns its size. The driver state it set is cached until an
//! attachment, binding or draw buffer changes, or a driver texture is rebuilt
//! ([`crate::texture::TextureState::gpu_generation`]). Texture attachments are
//! rendered into the texture's driver texture, which is then marked `rendered` so
//! the state-side copy is refreshed before anything reads it (see
//! [`crate::texture`]).

use rgl_backend::driver::{FramebufferState, Rect, Surface, TexTarget, TextureDesc, TextureHandle};
use rgl_backend::format::Format;
use rgl_backend::Driver;

use crate::error::{CreateError, GlError, GlResult};
use crate::gl;
use crate::limits;
use crate::names::{Framebuffer, NameTable, Renderbuffer, Texture};
use crate::pixels::Base;
use crate::renderbuffer::RenderbufferObject;
use crate::texture::TexRef;
use crate::Context;

/// The window-system framebuffer: driver textures for color and depth/stencil.
#[derive(Clone, Debug)]
pub struct DefaultFramebuffer {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// RGBA8 color (`None` when the driver could not allocate it).
    pub color: Option<TextureHandle>,
    /// Z24S8 depth/stencil.
    pub zs: Option<TextureHandle>,
}

/// What is attached to one attachment point.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Attachment {
    /// A texture image.
    Texture {
        /// The texture.
        texture: Texture,
        /// Mip level.
        level: u32,
        /// Cube face, 3D slice or array layer.
        layer: u32,
        /// Attached with `glFramebufferTexture` to a layered texture.
        layered: bool,
    },
    /// A renderbuffer.
    Renderbuffer(Renderbuffer),
}

/// A framebuffer object.
#[derive(Clone, Debug)]
pub struct FramebufferObject {
    colors: [Option<Attachment>; limits::MAX_COLOR_ATTACHMENTS as usize],
    depth: Option<Attachment>,
    stencil: Option<Attachment>,
    /// `glDrawBuffers`: `GL_COLOR_ATTACHMENTi` or `GL_NONE` per fragment output.
    draw_buffers: [u32; limits::MAX_DRAW_BUFFERS as usize],
    /// `glReadBuffer`.
    read_buffer: u32,
}

impl Default for FramebufferObject {
    fn default() -> Self {
        let mut draw_buffers = [gl::NONE; limits::MAX_DRAW_BUFFERS as usize];
        draw_buffers[0] = gl::COLOR_ATTACHMENT0;
        FramebufferObject {
            colors: [None; limits::MAX_COLOR_ATTACHMENTS as usize],
            depth: None,
            stencil: None,
            draw_buffers,
            read_buffer: gl::COLOR_ATTACHMENT0,
        }
    }
}

impl FramebufferObject {
    fn attachments(&self) -> impl Iterator<Item = &Attachment> {
        self.colors
            .iter()
            .chain([&self.depth, &self.stencil])
            .flatten()
    }
}

/// Framebuffer objects, renderbuffers and the default framebuffer.
#[derive(Debug)]
pub struct FramebufferObjects {
    /// The default framebuffer.
    pub default: DefaultFramebuffer,
    pub(crate) objects: NameTable<FramebufferObject>,
    pub(crate) renderbuffers: NameTable<RenderbufferObject>,
    pub(crate) draw: Option<Framebuffer>,
    pub(crate) read: Option<Framebuffer>,
    pub(crate) renderbuffer: Option<Renderbuffer>,
    /// `glDrawBuffer` of the default framebuffer (`GL_NONE` or a color buffer).
    default_draw_buffer: u32,
    /// `glReadBuffer` of the default framebuffer.
    default_read_buffer: u32,
    /// The render targets last given to the driver, with the texture generation
    /// they were built at.
    pub(crate) cached: Option<(u64, FramebufferState)>,
}

fn surface_texture(
    driver: &mut dyn Driver,
    format: Format,
    w: u32,
    h: u32,
) -> Option<TextureHandle> {
    let desc = TextureDesc {
        target: TexTarget::D2,
        format,
        width: w,
        height: h,
        depth: 1,
        levels: 1,
    };
    match driver.create_texture(&desc) {
        Ok(t) => Some(t),
        Err(e) => {
            log::error!("cannot allocate the default framebuffer: {e}");
            None
        }
    }
}

impl FramebufferObjects {
    /// Allocates the default framebuffer on `driver`.
    pub fn new(driver: &mut dyn Driver, width: u32, height: u32) -> FramebufferObjects {
        FramebufferObjects {
            default: DefaultFramebuffer {
                width,
                height,
                color: surface_texture(driver, Format::Rgba8Unorm, width, height),
                zs: surface_texture(driver, Format::Z24UnormS8, width, height),
            },
            objects: NameTable::default(),
            renderbuffers: NameTable::default(),
            draw: None,
            read: None,
            renderbuffer: None,
            default_draw_buffer: gl::BACK,
            default_read_buffer: gl::BACK,
            cached: None,
        }
    }

    /// Forgets the render targets given to the driver (the next validation sets
    /// them again).
    pub(crate) fn invalidate(&mut self) {
        self.cached = None;
    }

    /// Removes every attachment of `rb`.
    pub(crate) fn detach_renderbuffer(&mut self, rb: Renderbuffer) {
        self.detach_if(|a| *a == Attachment::Renderbuffer(rb));
    }

    fn detach_if(&mut self, f: impl Fn(&Attachment) -> bool) {
        let names: Vec<u32> = self.objects.iter().map(|(n, _)| n).collect();
        for n in names {
            if let Some(fbo) = self.objects.get_mut(n) {
                for slot in fbo
                    .colors
                    .iter_mut()
                    .chain([&mut fbo.depth, &mut fbo.stencil])
                {
                    if slot.as_ref().is_some_and(&f) {
                        *slot = None;
                    }
                }
            }
        }
        self.invalidate();
    }
}

/// A resolved attachment: the driver surface and what it holds.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Resolved {
    pub surface: Surface,
    pub format: Format,
    pub base: Base,
    pub width: u32,
    pub height: u32,
}

/// Which attachment point an `attachment` argument names.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Point {
    Color(usize),
    Depth,
    Stencil,
    DepthStencil,
}

fn attachment_point(attachment: u32) -> GlResult<Point> {
    match attachment {
        gl::DEPTH_ATTACHMENT => Ok(Point::Depth),
        gl::STENCIL_ATTACHMENT => Ok(Point::Stencil),
        gl::DEPTH_STENCIL_ATTACHMENT => Ok(Point::DepthStencil),
        a if (gl::COLOR_ATTACHMENT0..gl::COLOR_ATTACHMENT0 + 32).contains(&a) => {
            let i = (a - gl::COLOR_ATTACHMENT0) as usize;
            if i < limits::MAX_COLOR_ATTACHMENTS as usize {
                Ok(Point::Color(i))
            } else {
                Err(GlError::InvalidOperation)
            }
        }
        _ => Err(GlError::InvalidEnum),
    }
}

/// True for the enums `glDrawBuffer`/`glReadBuffer` know at all.
fn is_buffer_enum(b: u32) -> bool {
    matches!(
        b,
        gl::NONE
            | gl::FRONT_LEFT
            | gl::FRONT_RIGHT
            | gl::BACK_LEFT
            | gl::BACK_RIGHT
            | gl::FRONT
            | gl::BACK
            | gl::LEFT
            | gl::RIGHT
            | gl::FRONT_AND_BACK
    ) || (gl::COLOR_ATTACHMENT0..gl::COLOR_ATTACHMENT0 + 32).contains(&b)
}

/// The default framebuffer's buffers that name its (single, left) color buffer.
fn is_default_color(b: u32) -> bool {
    matches!(
        b,
        gl::FRONT_LEFT | gl::BACK_LEFT | gl::FRONT | gl::BACK | gl::LEFT | gl::FRONT_AND_BACK
    )
}

impl Context {
    /// The binding an attachment call targets (`GL_FRAMEBUFFER` means draw).
    fn fbo_for(&self, target: u32) -> GlResult<Option<Framebuffer>> {
        match target {
            gl::FRAMEBUFFER | gl::DRAW_FRAMEBUFFER => Ok(self.framebuffers.draw),
            gl::READ_FRAMEBUFFER => Ok(self.framebuffers.read),
            _ => Err(GlError::InvalidEnum),
        }
    }

    /// `glGenFramebuffers` (one name).
    pub fn create_framebuffer(&mut self) -> Result<Framebuffer, CreateError> {
        match self
            .framebuffers
            .objects
            .insert(FramebufferObject::default())
        {
            Some(n) => Ok(Framebuffer(n)),
            None => {
                self.record(GlError::OutOfMemory);
                Err(CreateError::OutOfNames("framebuffer"))
            }
        }
    }

    /// `glIsFramebuffer`.
    pub fn is_framebuffer(&self, framebuffer: Framebuffer) -> bool {
        self.framebuffers.objects.contains(framebuffer.name())
    }

    /// `glDeleteFramebuffers` (one name): a bound framebuffer reverts to the default.
    pub fn delete_framebuffer(&mut self, framebuffer: Framebuffer) {
        if self
            .framebuffers
            .objects
            .remove(framebuffer.name())
            .is_none()
        {
            return;
        }
        let f = &mut self.framebuffers;
        if f.draw == Some(framebuffer) {
            f.draw = None;
        }
        if f.read == Some(framebuffer) {
            f.read = None;
        }
        f.invalidate();
    }

    /// `glBindFramebuffer` (`GL_FRAMEBUFFER` binds both draw and read).
    pub fn bind_framebuffer(&mut self, target: u32, framebuffer: Option<Framebuffer>) {
        if !matches!(
            target,
            gl::FRAMEBUFFER | gl::DRAW_FRAMEBUFFER | gl::READ_FRAMEBUFFER
        ) {
            return self.record(GlError::InvalidEnum);
        }
        if let Some(f) = framebuffer {
            if !self.framebuffers.objects.contains(f.name()) {
                return self.record(GlError::InvalidOperation);
            }
        }
        let f = &mut self.framebuffers;
        if target != gl::READ_FRAMEBUFFER {
            f.draw = framebuffer;
        }
        if target != gl::DRAW_FRAMEBUFFER {
            f.read = framebuffer;
        }
        f.invalidate();
    }

    /// Removes every attachment of `texture` (when it is deleted).
    pub(crate) fn detach_texture_everywhere(&mut self, texture: Texture) {
        self.framebuffers
            .detach_if(|a| matches!(a, Attachment::Texture { texture: t, .. } if *t == texture));
    }

    /// Stores `a` at `attachment` of the framebuffer bound to `target`.
    fn attach(&mut self, target: u32, attachment: u32, a: Option<Attachment>) -> GlResult<()> {
        let point = attachment_point(attachment)?;
        let fb = self.fbo_for(target)?.ok_or(GlError::InvalidOperation)?;
        let fbo = self
            .framebuffers
            .objects
            .get_mut(fb.name())
            .ok_or(GlError::InvalidOperation)?;
        match point {
            Point::Color(i) => fbo.colors[i] = a,
            Point::Depth => fbo.depth = a,
            Point::Stencil => fbo.stencil = a,
            Point::DepthStencil => {
                fbo.depth = a;
                fbo.stencil = a;
            }
        }
        self.framebuffers.invalidate();
        Ok(())
    }

    /// Checks a texture and level for attachment; returns its target.
    fn attachable_texture(&self, texture: Texture, level: i32) -> GlResult<u32> {
        let obj = self
            .textures
            .objects
            .get(texture.name())
            .ok_or(GlError::InvalidOperation)?;
        let target = obj.target.ok_or(GlError::InvalidOperation)?;
        let max_level = match target {
            gl::TEXTURE_RECTANGLE => 0,
            gl::TEXTURE_3D => 31 - limits::MAX_3D_TEXTURE_SIZE.leading_zeros(),
            _ => 31 - limits::MAX_TEXTURE_SIZE.leading_zeros(),
        };
        if level < 0 || level as u32 > max_level {
            return Err(GlError::InvalidValue);
        }
        Ok(target)
    }

    /// `glFramebufferTexture2D` (2D, rectangle and cube face targets); `None`
    /// detaches.
    pub fn framebuffer_texture_2d(
        &mut self,
        target: u32,
        attachment: u32,
        texture_target: u32,
        texture: Option<Texture>,
        level: i32,
    ) {
        let r = (|| {
            let face = match texture_target {
                gl::TEXTURE_2D | gl::TEXTURE_RECTANGLE => None,
                gl::TEXTURE_CUBE_MAP_POSITIVE_X..=gl::TEXTURE_CUBE_MAP_NEGATIVE_Z => {
                    Some(texture_target - gl::TEXTURE_CUBE_MAP_POSITIVE_X)
                }
                _ => return Err(GlError::InvalidEnum),
            };
            let a = match texture {
                None => None,
                Some(t) => {
                    let tt = self.attachable_texture(t, level)?;
                    let want = if face.is_some() {
                        gl::TEXTURE_CUBE_MAP
                    } else {
                        texture_target
                    };
                    if tt != want {
                        return Err(GlError::InvalidOperation);
                    }
                    Some(Attachment::Texture {
                        texture: t,
                        level: level as u32,
                        layer: face.unwrap_or(0),
                        layered: false,
                    })
                }
            };
            self.attach(target, attachment, a)
        })();
        self.check(r);
    }

    /// `glFramebufferTexture1D`.
    pub fn framebuffer_texture_1d(
        &mut self,
        target: u32,
        attachment: u32,
        texture_target: u32,
        texture: Option<Texture>,
        level: i32,
    ) {
        let r = (|| {
            if texture_target != gl::TEXTURE_1D {
                return Err(GlError::InvalidEnum);
            }
            let a = match texture {
                None => None,
                Some(t) => {
                    if self.attachable_texture(t, level)? != gl::TEXTURE_1D {
                        return Err(GlError::InvalidOperation);
                    }
                    Some(Attachment::Texture {
                        texture: t,
                        level: level as u32,
                        layer: 0,
                        layered: false,
                    })
                }
            };
            self.attach(target, attachment, a)
        })();
        self.check(r);
    }

    /// `glFramebufferTextureLayer` (3D, 1D array and 2D array textures).
    pub fn framebuffer_texture_layer(
        &mut self,
        target: u32,
        attachment: u32,
        texture: Option<Texture>,
        level: i32,
        layer: i32,
    ) {
        let r = (|| {
            let a = match texture {
                None => None,
                Some(t) => {
                    let tt = self.attachable_texture(t, level)?;
                    if !matches!(
                        tt,
                        gl::TEXTURE_3D | gl::TEXTURE_1D_ARRAY | gl::TEXTURE_2D_ARRAY
                    ) {
                        return Err(GlError::InvalidOperation);
                    }
                    let max = if tt == gl::TEXTURE_3D {
                        limits::MAX_3D_TEXTURE_SIZE
                    } else {
                        limits::MAX_ARRAY_TEXTURE_LAYERS
                    };
                    if layer < 0 || layer as u32 >= max {
                        return Err(GlError::InvalidValue);
                    }
                    Some(Attachment::Texture {
                        texture: t,
                        level: level as u32,
                        layer: layer as u32,
                        layered: false,
                    })
                }
            };
            self.attach(target, attachment, a)
        })();
        self.check(r);
    }

    /// `glFramebufferTexture`: a layered attachment of 3D, cube and array textures
    /// renders to layer 0 (rgl has no `gl_Layer` routing); other targets attach
    /// their level as `glFramebufferTexture2D` does.
    pub fn framebuffer_texture(
        &mut self,
        target: u32,
        attachment: u32,
        texture: Option<Texture>,
        level: i32,
    ) {
        let r = (|| {
            let a = match texture {
                None => None,
                Some(t) => {
                    let tt = self.attachable_texture(t, level)?;
                    Some(Attachment::Texture {
                        texture: t,
                        level: level as u32,
                        layer: 0,
                        layered: matches!(
                            tt,
                            gl::TEXTURE_3D
                                | gl::TEXTURE_CUBE_MAP
                                | gl::TEXTURE_1D_ARRAY
                                | gl::TEXTURE_2D_ARRAY
                        ),
                    })
                }
            };
            self.attach(target, attachment, a)
        })();
        self.check(r);
    }

    /// `glFramebufferRenderbuffer`; `None` detaches.
    pub fn framebuffer_renderbuffer(
        &mut self,
        target: u32,
        attachment: u32,
        renderbuffer_target: u32,
        renderbuffer: Option<Renderbuffer>,
    ) {
        let r = (|| {
            if renderbuffer_target != gl::RENDERBUFFER {
                return Err(GlError::InvalidEnum);
            }
            if let Some(rb) = renderbuffer {
                if !self.framebuffers.renderbuffers.contains(rb.name()) {
                    return Err(GlError::InvalidOperation);
                }
            }
            self.attach(
                target,
                attachment,
                renderbuffer.map(Attachment::Renderbuffer),
            )
        })();
        self.check(r);
    }

    /// The image of an attachment: (base format, driver format, width, height), or
    /// `None` when the attachment is not complete (no image, zero size, layer out of
    /// range).
    fn attachment_image(&self, a: &Attachment) -> Option<(Base, Format, u32, u32)> {
        match *a {
            Attachment::Renderbuffer(rb) => {
                let o = self.framebuffers.renderbuffers.get(rb.name())?;
                let f = o.ifmt?;
                (o.width > 0 && o.height > 0).then_some((f.base, f.format, o.width, o.height))
            }
            Attachment::Texture {
                texture,
                level,
                layer,
                ..
            } => {
                let obj = self.textures.get(TexRef::Named(texture))?;
                let target = obj.target?;
                let face = if target == gl::TEXTURE_CUBE_MAP {
                    layer as usize
                } else {
                    0
                };
                let img = obj.image(face, level)?;
                let (w, h) = match target {
                    gl::TEXTURE_1D_ARRAY => (img.width, 1),
                    _ => (img.width, img.height),
                };
                let layers = match target {
                    gl::TEXTURE_1D_ARRAY => img.height,
                    gl::TEXTURE_3D | gl::TEXTURE_2D_ARRAY => img.depth,
                    gl::TEXTURE_CUBE_MAP => 6,
                    _ => 1,
                };
                (w > 0 && h > 0 && layer < layers).then_some((img.ifmt.base, img.ifmt.format, w, h))
            }
        }
    }

    /// GL's completeness status of a framebuffer object (GL 3.3 §4.4.4). The draw and
    /// read buffer rules are those of `ARB_ES2_compatibility`, as in Mesa: a draw or
    /// read buffer without an attachment does not make it incomplete.
    fn fbo_status(&self, fb: Framebuffer) -> u32 {
        let Some(fbo) = self.framebuffers.objects.get(fb.name()) else {
            return gl::FRAMEBUFFER_UNDEFINED;
        };
        let mut any = false;
        for (i, a) in fbo.colors.iter().enumerate() {
            let Some(a) = a else { continue };
            any = true;
            match self.attachment_image(a) {
                Some((base, ..)) if base.color_renderable() => {}
                _ => {
                    log::debug!("framebuffer {}: color attachment {i} incomplete", fb.name());
                    return gl::FRAMEBUFFER_INCOMPLETE_ATTACHMENT;
                }
            }
        }
        if let Some(a) = &fbo.depth {
            any = true;
            if !self
                .attachment_image(a)
                .is_some_and(|(b, ..)| b.has_depth())
            {
                return gl::FRAMEBUFFER_INCOMPLETE_ATTACHMENT;
            }
        }
        if let Some(a) = &fbo.stencil {
            any = true;
            if !self
                .attachment_image(a)
                .is_some_and(|(b, ..)| b.has_stencil())
            {
                return gl::FRAMEBUFFER_INCOMPLETE_ATTACHMENT;
            }
        }
        if !any {
            return gl::FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT;
        }
        if let (Some(d), Some(s)) = (&fbo.depth, &fbo.stencil) {
            // The driver keeps depth and stencil in one surface.
            if d != s {
                return gl::FRAMEBUFFER_UNSUPPORTED;
            }
        }
        gl::FRAMEBUFFER_COMPLETE
    }

    /// `glCheckFramebufferStatus`.
    pub fn check_framebuffer_status(&mut self, target: u32) -> u32 {
        match self.fbo_for(target) {
            Ok(None) => gl::FRAMEBUFFER_COMPLETE,
            Ok(Some(fb)) => self.fbo_status(fb),
            Err(e) => {
                self.record(e);
                0
            }
        }
    }

    /// The driver surface of an attachment, building the texture's driver texture
    /// when needed; `rendering`: mark the texture as rendered into.
    fn resolve(&mut self, a: &Attachment, rendering: bool) -> GlResult<Resolved> {
        let (base, format, width, height) = self
            .attachment_image(a)
            .ok_or(GlError::InvalidFramebufferOperation)?;
        let surface = match *a {
            Attachment::Renderbuffer(rb) => {
                let o = self
                    .framebuffers
                    .renderbuffers
                    .get(rb.name())
                    .ok_or(GlError::InvalidFramebufferOperation)?;
                Surface {
                    texture: o.texture.ok_or(GlError::InvalidFramebufferOperation)?,
                    level: 0,
                    layer: 0,
                }
            }
            Attachment::Texture {
                texture,
                level,
                layer,
                ..
            } => {
                let g = self.texture_gpu(texture, level)?;
                if rendering {
                    if let Some(obj) = self.textures.objects.get_mut(texture.name()) {
                        obj.rendered = true;
                    }
                }
                Surface {
                    texture: g.handle,
                    level: g
                        .driver_level(level)
                        .ok_or(GlError::InvalidFramebufferOperation)?,
                    layer,
                }
            }
        };
        Ok(Resolved {
            surface,
            format,
            base,
            width,
            height,
        })
    }

    /// The render targets of the bound draw framebuffer.
    fn build_draw_state(&mut self) -> GlResult<FramebufferState> {
        let Some(fb) = self.framebuffers.draw else {
            let d = &self.framebuffers.default;
            let color = d.color.ok_or(GlError::OutOfMemory)?;
            let colors = if is_default_color(self.framebuffers.default_draw_buffer) {
                vec![Some(Surface {
                    texture: color,
                    level: 0,
                    layer: 0,
                })]
            } else {
                Vec::new()
            };
            return Ok(FramebufferState {
                width: d.width,
                height: d.height,
                colors,
                zs: d.zs.map(|texture| Surface {
                    texture,
                    level: 0,
                    layer: 0,
                }),
            });
        };
        if self.fbo_status(fb) != gl::FRAMEBUFFER_COMPLETE {
            return Err(GlError::InvalidFramebufferOperation);
        }
        let fbo = self
            .framebuffers
            .objects
            .get(fb.name())
            .ok_or(GlError::InvalidFramebufferOperation)?
            .clone();
        let (mut w, mut h) = (u32::MAX, u32::MAX);
        let mut colors = Vec::new();
        for (n, &b) in fbo.draw_buffers.iter().enumerate() {
            let idx = b.wrapping_sub(gl::COLOR_ATTACHMENT0) as usize;
            let Some(Some(a)) = fbo.colors.get(idx) else {
                continue;
            };
            let r = self.resolve(a, true)?;
            colors.resize(n + 1, None);
            colors[n] = Some(r.surface);
        }
        // The size is the intersection of every attached image, drawn to or not.
        for a in fbo.attachments() {
            if let Some((_, _, aw, ah)) = self.attachment_image(a) {
                w = w.min(aw);
                h = h.min(ah);
            }
        }
        let zs = match fbo.depth.or(fbo.stencil) {
            Some(a) => Some(self.resolve(&a, true)?.surface),
            None => None,
        };
        Ok(FramebufferState {
            width: w,
            height: h,
            colors,
            zs,
        })
    }

    /// Makes the driver render into the bound draw framebuffer and returns its size;
    /// `GL_INVALID_FRAMEBUFFER_OPERATION` when it is incomplete.
    pub(crate) fn validate_draw_framebuffer(&mut self) -> GlResult<(u32, u32)> {
        if let Some((generation, fb)) = &self.framebuffers.cached {
            if *generation == self.textures.gpu_generation {
                return Ok((fb.width, fb.height));
            }
        }
        let fb = self.build_draw_state()?;
        self.driver.set_framebuffer(&fb).map_err(|e| {
            log::warn!("driver rejected the framebuffer: {e}");
            GlError::InvalidFramebufferOperation
        })?;
        let size = (fb.width, fb.height);
        self.framebuffers.cached = Some((self.textures.gpu_generation, fb));
        Ok(size)
    }

    /// `glDrawBuffers`.
    pub fn draw_buffers(&mut self, buffers: &[u32]) {
        let r = (|| {
            if buffers.len() > limits::MAX_DRAW_BUFFERS as usize {
                return Err(GlError::InvalidValue);
            }
            if let Some(b) = buffers.iter().find(|b| !is_buffer_enum(**b)) {
                let _ = b;
                return Err(GlError::InvalidEnum);
            }
            match self.framebuffers.draw {
                Some(fb) => {
                    let mut list = [gl::NONE; limits::MAX_DRAW_BUFFERS as usize];
                    for (i, &b) in buffers.iter().enumerate() {
                        if b != gl::NONE {
                            attachment_point(b)
                                .ok()
                                .filter(|p| matches!(p, Point::Color(_)))
                                .ok_or(GlError::InvalidOperation)?;
                            if buffers[..i].contains(&b) {
                                return Err(GlError::InvalidOperation);
                            }
                        }
                        list[i] = b;
                    }
                    let fbo = self
                        .framebuffers
                        .objects
                        .get_mut(fb.name())
                        .ok_or(GlError::InvalidOperation)?;
                    fbo.draw_buffers = list;
                }
                None => {
                    let mut first = gl::NONE;
                    for (i, &b) in buffers.iter().enumerate() {
                        let ok = b == gl::NONE || matches!(b, gl::FRONT_LEFT | gl::BACK_LEFT);
                        if !ok || (b != gl::NONE && i > 0) {
                            return Err(GlError::InvalidOperation);
                        }
                        if i == 0 {
                            first = b;
                        }
                    }
                    self.framebuffers.default_draw_buffer = first;
                }
            }
            self.framebuffers.invalidate();
            Ok(())
        })();
        self.check(r);
    }

    /// `glDrawBuffer`.
    pub fn draw_buffer(&mut self, buffer: u32) {
        let r = (|| {
            if !is_buffer_enum(buffer) {
                return Err(GlError::InvalidEnum);
            }
            match self.framebuffers.draw {
                Some(fb) => {
                    if buffer != gl::NONE
                        && !matches!(attachment_point(buffer), Ok(Point::Color(_)))
                    {
                        return Err(GlError::InvalidOperation);
                    }
                    let fbo = self
                        .framebuffers
                        .objects
                        .get_mut(fb.name())
                        .ok_or(GlError::InvalidOperation)?;
                    fbo.draw_buffers = [gl::NONE; limits::MAX_DRAW_BUFFERS as usize];
                    fbo.draw_buffers[0] = buffer;
                }
                None => {
                    if buffer != gl::NONE && !is_default_color(buffer) {
                        return Err(GlError::InvalidOperation);
                    }
                    self.framebuffers.default_draw_buffer = buffer;
                }
            }
            self.framebuffers.invalidate();
            Ok(())
        })();
        self.check(r);
    }

    /// `glReadBuffer`.
    pub fn read_buffer(&mut self, src: u32) {
        let r = (|| {
            if !is_buffer_enum(src) || src == gl::FRONT_AND_BACK {
                return Err(GlError::InvalidEnum);
            }
            match self.framebuffers.read {
                Some(fb) => {
                    if src != gl::NONE && !matches!(attachment_point(src), Ok(Point::Color(_))) {
                        return Err(GlError::InvalidOperation);
                    }
                    let fbo = self
                        .framebuffers
                        .objects
                        .get_mut(fb.name())
                        .ok_or(GlError::InvalidOperation)?;
                    fbo.read_buffer = src;
                }
                None => {
                    if src != gl::NONE && !is_default_color(src) {
                        return Err(GlError::InvalidOperation);
                    }
                    self.framebuffers.default_read_buffer = src;
                }
            }
            Ok(())
        })();
        self.check(r);
    }

    /// The read framebuffer's surface for color (the read buffer), depth or stencil
    /// reads. `GL_INVALID_FRAMEBUFFER_OPERATION` when incomplete,
    /// `GL_INVALID_OPERATION` when the buffer does not exist.
    pub(crate) fn read_source(&mut self, what: ReadWhat) -> GlResult<Resolved> {
        let Some(fb) = self.framebuffers.read else {
            let d = self.framebuffers.default.clone();
            let (texture, format, base) = match what {
                ReadWhat::Color => {
                    if self.framebuffers.default_read_buffer == gl::NONE {
                        return Err(GlError::InvalidOperation);
                    }
                    (d.color, Format::Rgba8Unorm, Base::Rgba)
                }
                _ => (d.zs, Format::Z24UnormS8, Base::DepthStencil),
            };
            return Ok(Resolved {
                surface: Surface {
                    texture: texture.ok_or(GlError::OutOfMemory)?,
                    level: 0,
                    layer: 0,
                },
                format,
                base,
                width: d.width,
                height: d.height,
            });
        };
        if self.fbo_status(fb) != gl::FRAMEBUFFER_COMPLETE {
            return Err(GlError::InvalidFramebufferOperation);
        }
        let fbo = self
            .framebuffers
            .objects
            .get(fb.name())
            .ok_or(GlError::InvalidFramebufferOperation)?;
        let a = match what {
            ReadWhat::Color => {
                let idx = fbo.read_buffer.wrapping_sub(gl::COLOR_ATTACHMENT0) as usize;
                fbo.colors.get(idx).copied().flatten()
            }
            ReadWhat::Depth => fbo.depth,
            ReadWhat::Stencil => fbo.stencil,
            ReadWhat::DepthStencil => fbo.depth.filter(|d| Some(*d) == fbo.stencil),
        };
        let a = a.ok_or(GlError::InvalidOperation)?;
        self.resolve(&a, false)
    }

    /// Resizes the default framebuffer (its contents become undefined: zero).
    pub fn resize_default_framebuffer(&mut self, width: u32, height: u32) {
        let max = limits::MAX_RENDERBUFFER_SIZE;
        let (width, height) = (width.clamp(1, max), height.clamp(1, max));
        let d = &self.framebuffers.default;
        if (d.width, d.height) == (width, height) && d.color.is_some() {
            return;
        }
        for t in [d.color, d.zs].into_iter().flatten() {
            let _ = self.driver.delete_texture(t);
        }
        let driver = &mut *self.driver;
        self.framebuffers.default = DefaultFramebuffer {
            width,
            height,
            color: surface_texture(driver, Format::Rgba8Unorm, width, height),
            zs: surface_texture(driver, Format::Z24UnormS8, width, height),
        };
        self.width = width;
        self.height = height;
        self.framebuffers.invalidate();
    }

    /// The default framebuffer's color as RGBA8, rows top-down (for presenting and
    /// PNGs). Empty when the framebuffer could not be allocated.
    pub fn read_default_color_rgba8(&mut self) -> Vec<u8> {
        let d = &self.framebuffers.default;
        let (w, h) = (d.width, d.height);
        let Some(color) = d.color else {
            return Vec::new();
        };
        let surface = Surface {
            texture: color,
            level: 0,
            layer: 0,
        };
        let rect = Rect {
            x: 0,
            y: 0,
            width: w,
            height: h,
        };
        let Ok(bottom_up) = self.driver.read_surface(surface, rect) else {
            return Vec::new();
        };
        let row = w as usize * 4;
        let mut out = Vec::with_capacity(bottom_up.len());
        for r in bottom_up.chunks_exact(row).rev() {
            out.extend_from_slice(r);
        }
        out
    }

    /// Integer queries of framebuffer state (`get_parameter_i32` forwards here).
    pub(crate) fn framebuffer_parameter(&self, pname: u32) -> Option<i32> {
        let f = &self.framebuffers;
        let name = |b: Option<Framebuffer>| b.map_or(0, |b| b.name()) as i32;
        Some(match pname {
            gl::DRAW_FRAMEBUFFER_BINDING => name(f.draw),
            gl::READ_FRAMEBUFFER_BINDING => name(f.read),
            gl::RENDERBUFFER_BINDING => f.renderbuffer.map_or(0, |r| r.name()) as i32,
            gl::READ_BUFFER => match f.read {
                Some(fb) => f.objects.get(fb.name())?.read_buffer as i32,
                None => f.default_read_buffer as i32,
            },
            gl::DRAW_BUFFER => self.draw_buffer_value(0)? as i32,
            p if (gl::DRAW_BUFFER0..gl::DRAW_BUFFER0 + limits::MAX_DRAW_BUFFERS).contains(&p) => {
                self.draw_buffer_value((p - gl::DRAW_BUFFER0) as usize)? as i32
            }
            gl::MAX_SAMPLES => 0,
            gl::IMPLEMENTATION_COLOR_READ_FORMAT => gl::RGBA as i32,
            gl::IMPLEMENTATION_COLOR_READ_TYPE => gl::UNSIGNED_BYTE as i32,
            _ => return None,
        })
    }

    fn draw_buffer_value(&self, i: usize) -> Option<u32> {
        let f = &self.framebuffers;
        match f.draw {
            Some(fb) => f.objects.get(fb.name())?.draw_buffers.get(i).copied(),
            None => Some(if i == 0 {
                f.default_draw_buffer
            } else {
                gl::NONE
            }),
        }
    }

    /// `glGetFramebufferAttachmentParameteriv`.
    pub fn get_framebuffer_attachment_parameter_i32(
        &mut self,
        target: u32,
        attachment: u32,
        parameter: u32,
    ) -> i32 {
        let r = (|| {
            let Some(fb) = self.fbo_for(target)? else {
                return match parameter {
                    gl::FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE => Ok(gl::FRAMEBUFFER_DEFAULT as i32),
                    _ => Err(GlError::InvalidOperation),
                };
            };
            let point = attachment_point(attachment)?;
            let fbo = self
                .framebuffers
                .objects
                .get(fb.name())
                .ok_or(GlError::InvalidOperation)?;
            let a = match point {
                Point::Color(i) => fbo.colors[i],
                Point::Depth => fbo.depth,
                Point::Stencil => fbo.stencil,
                Point::DepthStencil => {
                    if fbo.depth != fbo.stencil {
                        return Err(GlError::InvalidOperation);
                    }
                    fbo.depth
                }
            };
            Ok(match (a, parameter) {
                (None, gl::FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE) => gl::NONE as i32,
                (None, gl::FRAMEBUFFER_ATTACHMENT_OBJECT_NAME) => 0,
                (None, _) => return Err(GlError::InvalidOperation),
                (Some(Attachment::Renderbuffer(rb)), p) => match p {
                    gl::FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE => gl::RENDERBUFFER as i32,
                    gl::FRAMEBUFFER_ATTACHMENT_OBJECT_NAME => rb.name() as i32,
                    _ => return Err(GlError::InvalidEnum),
                },
                (
                    Some(Attachment::Texture {
                        texture,
                        level,
                        layer,
                        ..
                    }),
                    p,
                ) => {
                    let cube = self
                        .textures
                        .objects
                        .get(texture.name())
                        .is_some_and(|t| t.target == Some(gl::TEXTURE_CUBE_MAP));
                    match p {
                        gl::FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE => gl::TEXTURE as i32,
                        gl::FRAMEBUFFER_ATTACHMENT_OBJECT_NAME => texture.name() as i32,
                        gl::FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL => level as i32,
                        gl::FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE => {
                            if cube {
                                (gl::TEXTURE_CUBE_MAP_POSITIVE_X + layer) as i32
                            } else {
                                0
                            }
                        }
                        gl::FRAMEBUFFER_ATTACHMENT_TEXTURE_LAYER => {
                            if cube {
                                0
                            } else {
                                layer as i32
                            }
                        }
                        _ => return Err(GlError::InvalidEnum),
                    }
                }
            })
        })();
        self.check(r).unwrap_or(0)
    }
}

/// What a read takes from the read framebuffer.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum ReadWhat {
    Color,
    Depth,
    Stencil,
    DepthStencil,
}
