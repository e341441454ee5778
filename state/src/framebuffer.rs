//! Framebuffer and renderbuffer objects and the default framebuffer: attachment,
//! completeness, the draw/read bindings, `glClear*` and `glReadPixels`.
//!
//! The seam the draw path uses is [`Context::validate_draw_framebuffer`]: it makes the
//! driver's render targets match the bound draw framebuffer (or reports it
//! incomplete) and returns its size.

use rgl_backend::driver::{FramebufferState, Surface, TexTarget, TextureDesc, TextureHandle};
use rgl_backend::format::Format;
use rgl_backend::Driver;

use crate::error::{GlError, GlResult};
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

/// Framebuffer objects, renderbuffers and the default framebuffer.
#[derive(Debug)]
pub struct FramebufferObjects {
    /// The default framebuffer.
    pub default: DefaultFramebuffer,
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
        }
    }
}

impl Context {
    /// Makes the driver render into the bound draw framebuffer and returns its size;
    /// `GL_INVALID_FRAMEBUFFER_OPERATION` when it is incomplete.
    pub(crate) fn validate_draw_framebuffer(&mut self) -> GlResult<(u32, u32)> {
        let d = &self.framebuffers.default;
        let color = d.color.ok_or(GlError::OutOfMemory)?;
        let fb = FramebufferState {
            width: d.width,
            height: d.height,
            colors: vec![Some(Surface {
                texture: color,
                level: 0,
                layer: 0,
            })],
            zs: d.zs.map(|texture| Surface {
                texture,
                level: 0,
                layer: 0,
            }),
        };
        let size = (d.width, d.height);
        self.driver
            .set_framebuffer(&fb)
            .map_err(|_| GlError::InvalidFramebufferOperation)?;
        Ok(size)
    }
}
