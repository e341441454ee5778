//! Image units (GL 4.2 §8.26 "Texture Image Loads and Stores"):
//! `glBindImageTexture` with its errors, the unit queries, and the image
//! bindings a draw or dispatch hands the driver.
//!
//! A program's image uniforms hold image *units* (their `binding` layout or
//! `glUniform1i`, GLSL 4.20 §4.4.6.1); the linker gave every image uniform
//! element an image *index* ([`rgl_link::program`]). At a draw or dispatch,
//! [`Context::image_bindings`] resolves each index through its unit to a
//! driver texture level ([`ImageBinding`]). A unit whose binding is invalid
//! (§8.26: no texture, a level the texture lacks, a layer past the last, an
//! internal format outside table 8.27, or an image format whose texel size
//! differs from the texture's, the default `IMAGE_FORMAT_COMPATIBILITY_BY_SIZE`)
//! resolves to no binding: its loads return zero and its stores do nothing.
//! A writable binding marks the texture `rendered`, so the state-side texels
//! are read back from the driver before anything needs them (as after
//! rendering into the texture).

use rgl_backend::driver::ImageBinding;
use rgl_nir::intrinsics::ImageFormat;

use crate::error::{GlError, GlResult};
use crate::gl;
use crate::names::{Program, Texture};
use crate::Context;

/// GL_MAX_IMAGE_UNITS (llvmpipe's 8; GL 4.2 asks for at least 8).
pub const MAX_IMAGE_UNITS: u32 = rgl_link::linker::uniforms::MAX_IMAGE_UNITS;

/// GL 4.2 table 8.27: every image unit format, its shader format and its
/// texel size in bits (the compatibility-by-size class).
const FORMATS: &[(u32, ImageFormat, u32)] = &[
    (gl::RGBA32F, ImageFormat::Rgba32f, 128),
    (gl::RGBA16F, ImageFormat::Rgba16f, 64),
    (gl::RG32F, ImageFormat::Rg32f, 64),
    (gl::RG16F, ImageFormat::Rg16f, 32),
    (gl::R11F_G11F_B10F, ImageFormat::R11fG11fB10f, 32),
    (gl::R32F, ImageFormat::R32f, 32),
    (gl::R16F, ImageFormat::R16f, 16),
    (gl::RGBA16, ImageFormat::Rgba16, 64),
    (gl::RGB10_A2, ImageFormat::Rgb10A2, 32),
    (gl::RGBA8, ImageFormat::Rgba8, 32),
    (gl::RG16, ImageFormat::Rg16, 32),
    (gl::RG8, ImageFormat::Rg8, 16),
    (gl::R16, ImageFormat::R16, 16),
    (gl::R8, ImageFormat::R8, 8),
    (gl::RGBA16_SNORM, ImageFormat::Rgba16Snorm, 64),
    (gl::RGBA8_SNORM, ImageFormat::Rgba8Snorm, 32),
    (gl::RG16_SNORM, ImageFormat::Rg16Snorm, 32),
    (gl::RG8_SNORM, ImageFormat::Rg8Snorm, 16),
    (gl::R16_SNORM, ImageFormat::R16Snorm, 16),
    (gl::R8_SNORM, ImageFormat::R8Snorm, 8),
    (gl::RGBA32I, ImageFormat::Rgba32i, 128),
    (gl::RGBA16I, ImageFormat::Rgba16i, 64),
    (gl::RGBA8I, ImageFormat::Rgba8i, 32),
    (gl::RG32I, ImageFormat::Rg32i, 64),
    (gl::RG16I, ImageFormat::Rg16i, 32),
    (gl::RG8I, ImageFormat::Rg8i, 16),
    (gl::R32I, ImageFormat::R32i, 32),
    (gl::R16I, ImageFormat::R16i, 16),
    (gl::R8I, ImageFormat::R8i, 8),
    (gl::RGBA32UI, ImageFormat::Rgba32ui, 128),
    (gl::RGBA16UI, ImageFormat::Rgba16ui, 64),
    (gl::RGB10_A2UI, ImageFormat::Rgb10A2ui, 32),
    (gl::RGBA8UI, ImageFormat::Rgba8ui, 32),
    (gl::RG32UI, ImageFormat::Rg32ui, 64),
    (gl::RG16UI, ImageFormat::Rg16ui, 32),
    (gl::RG8UI, ImageFormat::Rg8ui, 16),
    (gl::R32UI, ImageFormat::R32ui, 32),
    (gl::R16UI, ImageFormat::R16ui, 16),
    (gl::R8UI, ImageFormat::R8ui, 8),
];

/// The table row of the GL image format `format`.
fn format_row(format: u32) -> Option<(ImageFormat, u32)> {
    FORMATS
        .iter()
        .find(|(gl, _, _)| *gl == format)
        .map(|(_, f, bits)| (*f, *bits))
}

/// One image unit's state (GL 4.2 table 23.45; the initial values).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ImageUnit {
    /// `GL_IMAGE_BINDING_NAME` (`None`: 0).
    pub texture: Option<Texture>,
    /// `GL_IMAGE_BINDING_LEVEL`.
    pub level: u32,
    /// `GL_IMAGE_BINDING_LAYERED`.
    pub layered: bool,
    /// `GL_IMAGE_BINDING_LAYER`.
    pub layer: u32,
    /// `GL_IMAGE_BINDING_ACCESS`.
    pub access: u32,
    /// `GL_IMAGE_BINDING_FORMAT`.
    pub format: u32,
}

impl Default for ImageUnit {
    fn default() -> Self {
        ImageUnit {
            texture: None,
            level: 0,
            layered: false,
            layer: 0,
            access: gl::READ_ONLY,
            format: gl::R8,
        }
    }
}

impl Context {
    /// `glBindImageTexture(unit, texture, level, layered, layer, access,
    /// format)` (GL 4.2 §8.26): `GL_INVALID_VALUE` for a unit at or past
    /// `GL_MAX_IMAGE_UNITS`, a texture name that names no texture object, or a
    /// negative level or layer; `GL_INVALID_ENUM` for an access other than
    /// `GL_READ_ONLY`/`GL_WRITE_ONLY`/`GL_READ_WRITE` or a format outside table
    /// 8.27. A texture of 0 breaks the unit's binding.
    #[allow(clippy::too_many_arguments)]
    pub fn bind_image_texture(
        &mut self,
        unit: u32,
        texture: Option<Texture>,
        level: i32,
        layered: bool,
        layer: i32,
        access: u32,
        format: u32,
    ) {
        if unit >= MAX_IMAGE_UNITS || level < 0 || layer < 0 {
            return self.record(GlError::InvalidValue);
        }
        if let Some(t) = texture {
            if !self.is_texture(t) {
                return self.record(GlError::InvalidValue);
            }
        }
        if !matches!(access, gl::READ_ONLY | gl::WRITE_ONLY | gl::READ_WRITE)
            || format_row(format).is_none()
        {
            return self.record(GlError::InvalidEnum);
        }
        self.image_units[unit as usize] = ImageUnit {
            texture,
            level: level as u32,
            layered,
            layer: layer as u32,
            access,
            format,
        };
    }

    /// The state of image unit `unit` (`glGetIntegeri_v(GL_IMAGE_BINDING_*)`),
    /// `GL_INVALID_VALUE` past the last unit.
    pub fn image_unit(&mut self, unit: u32) -> Option<ImageUnit> {
        match self.image_units.get(unit as usize) {
            Some(u) => Some(*u),
            None => {
                self.record(GlError::InvalidValue);
                None
            }
        }
    }

    /// `glGetIntegeri_v(pname, unit)` for the image unit pnames (GL 4.2 §8.26,
    /// table 23.45): `GL_IMAGE_BINDING_NAME`, `_LEVEL`, `_LAYERED`, `_LAYER`,
    /// `_ACCESS` and `_FORMAT` of unit `unit`, `GL_INVALID_VALUE` (and 0) for
    /// a unit at or past `GL_MAX_IMAGE_UNITS`; `None` for another pname.
    pub(crate) fn image_binding_query(&mut self, pname: u32, unit: u32) -> Option<i32> {
        if !matches!(
            pname,
            gl::IMAGE_BINDING_NAME
                | gl::IMAGE_BINDING_LEVEL
                | gl::IMAGE_BINDING_LAYERED
                | gl::IMAGE_BINDING_LAYER
                | gl::IMAGE_BINDING_ACCESS
                | gl::IMAGE_BINDING_FORMAT
        ) {
            return None;
        }
        let Some(u) = self.image_unit(unit) else {
            return Some(0);
        };
        let value = match pname {
            gl::IMAGE_BINDING_NAME => u.texture.map_or(0, |t| t.name()),
            gl::IMAGE_BINDING_LEVEL => u.level,
            gl::IMAGE_BINDING_LAYERED => u32::from(u.layered),
            gl::IMAGE_BINDING_LAYER => u.layer,
            gl::IMAGE_BINDING_ACCESS => u.access,
            _ => u.format,
        };
        Some(value.min(i32::MAX as u32) as i32)
    }

    /// What image index `i` of the current program's image uniforms binds,
    /// by index (see the module docs); empty when the program has no images.
    pub(crate) fn image_bindings(
        &mut self,
        program: Program,
    ) -> GlResult<Vec<Option<ImageBinding>>> {
        let p = self.program_obj(program)?;
        let linked = p.linked.as_deref().ok_or(GlError::InvalidOperation)?;
        let count = linked.num_images() as usize;
        if count == 0 {
            return Ok(Vec::new());
        }
        let units: Vec<u32> = (0..count)
            .map(|i| p.uniforms.image_units.get(i).copied().unwrap_or(0))
            .collect();
        let mut out = Vec::with_capacity(count);
        for unit in units {
            let binding = self
                .image_units
                .get(unit as usize)
                .copied()
                .and_then(|u| self.resolve_image_unit(&u));
            out.push(binding);
        }
        Ok(out)
    }

    /// The driver binding of one image unit, `None` when the unit is invalid.
    fn resolve_image_unit(&mut self, u: &ImageUnit) -> Option<ImageBinding> {
        let texture = u.texture?;
        let (format, bits) = format_row(u.format)?;
        let obj = self.textures.objects.get(texture.name())?;
        let target = obj.target?;
        let image = obj.image(0, u.level)?;
        let (_, tex_bits) = format_row(image.ifmt.gl)?;
        if tex_bits != bits || !rgl_backend::image::supports(image.ifmt.format, format) {
            return None;
        }
        let layers = match target {
            gl::TEXTURE_1D_ARRAY => image.height,
            gl::TEXTURE_2D_ARRAY | gl::TEXTURE_3D => image.depth,
            gl::TEXTURE_CUBE_MAP => 6,
            _ => 1,
        };
        let layered_target = matches!(
            target,
            gl::TEXTURE_1D_ARRAY | gl::TEXTURE_2D_ARRAY | gl::TEXTURE_3D | gl::TEXTURE_CUBE_MAP
        );
        let layered = u.layered && layered_target;
        let layer = if layered_target && !u.layered {
            u.layer
        } else {
            0
        };
        if layer >= layers {
            return None;
        }
        let g = self.texture_gpu(texture, u.level).ok()?;
        let level = g.driver_level(u.level)?;
        let read_only = u.access == gl::READ_ONLY;
        if !read_only {
            if let Some(obj) = self.textures.objects.get_mut(texture.name()) {
                obj.rendered = true;
            }
        }
        Some(ImageBinding {
            texture: g.handle,
            level,
            layered,
            layer,
            format,
            read_only,
        })
    }
}
