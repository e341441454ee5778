//! Texture image specification: `glTexImage{1,2,3}D`, `glTexSubImage{1,2,3}D`
//! and `glTexStorage{1,2,3}D` — target, level and size checks, conversion of the
//! client's pixels to the driver format, and the state-side [`Image`]s they
//! (re)define, with the matching update of the driver texture.

use rgl_backend::driver::TexBox;

use super::{max_level_of, sync_back, target_index, Image, TexRef, MAX_IMAGE_BYTES, TARGETS};
use crate::error::{GlError, GlResult};
use crate::gl;
use crate::limits;
use crate::pixels::{self, InternalFormat};
use crate::Context;

/// How a `glTexImage*` target argument resolves.
struct ImageTarget {
    /// Index in [`TARGETS`] of the texture target.
    ti: usize,
    /// Cube face (0 for other targets).
    face: usize,
}

/// Resolves a `glTexImage{dims}D` / `glTexSubImage{dims}D` target (`GL_INVALID_ENUM`
/// for targets of another dimensionality).
fn image_target(dims: u32, target: u32) -> GlResult<ImageTarget> {
    let t = |t: u32| target_index(t).unwrap_or(0);
    let (ti, face) = match (dims, target) {
        (1, gl::TEXTURE_1D) => (t(target), 0),
        (2, gl::TEXTURE_2D | gl::TEXTURE_RECTANGLE | gl::TEXTURE_1D_ARRAY) => (t(target), 0),
        (2, gl::TEXTURE_CUBE_MAP_POSITIVE_X..=gl::TEXTURE_CUBE_MAP_NEGATIVE_Z) => (
            t(gl::TEXTURE_CUBE_MAP),
            (target - gl::TEXTURE_CUBE_MAP_POSITIVE_X) as usize,
        ),
        (3, gl::TEXTURE_3D | gl::TEXTURE_2D_ARRAY) => (t(target), 0),
        _ => return Err(GlError::InvalidEnum),
    };
    Ok(ImageTarget { ti, face })
}

/// Checks an image size for a target: `GL_INVALID_VALUE` when negative or above the
/// limits (cube faces must be square).
fn check_size(target: u32, level: u32, w: i32, h: i32, d: i32) -> GlResult<(u32, u32, u32)> {
    if w < 0 || h < 0 || d < 0 {
        return Err(GlError::InvalidValue);
    }
    let (w, h, d) = (w as u32, h as u32, d as u32);
    let max = match target {
        gl::TEXTURE_3D => limits::MAX_3D_TEXTURE_SIZE,
        gl::TEXTURE_RECTANGLE => limits::MAX_RECTANGLE_TEXTURE_SIZE,
        gl::TEXTURE_CUBE_MAP => limits::MAX_CUBE_MAP_TEXTURE_SIZE,
        _ => limits::MAX_TEXTURE_SIZE,
    } >> level;
    let layers = limits::MAX_ARRAY_TEXTURE_LAYERS;
    let ok = match target {
        gl::TEXTURE_1D => w <= max,
        gl::TEXTURE_1D_ARRAY => w <= max && h <= layers,
        gl::TEXTURE_2D_ARRAY => w <= max && h <= max && d <= layers,
        gl::TEXTURE_3D => w <= max && h <= max && d <= max,
        gl::TEXTURE_CUBE_MAP => w <= max && w == h,
        _ => w <= max && h <= max,
    };
    if !ok {
        return Err(GlError::InvalidValue);
    }
    let bytes = w as u64 * h as u64 * d as u64 * 16;
    if bytes > MAX_IMAGE_BYTES {
        return Err(GlError::OutOfMemory);
    }
    Ok((w, h, d))
}

/// Checks a level argument against a target.
fn check_level(target: u32, level: i32) -> GlResult<u32> {
    if level < 0 || level as u32 > max_level_of(target) {
        return Err(GlError::InvalidValue);
    }
    Ok(level as u32)
}

/// Arguments of one `glTexImage*` call.
pub(crate) struct TexImageArgs<'a> {
    pub dims: u32,
    pub target: u32,
    pub level: i32,
    pub internal_format: i32,
    pub size: (i32, i32, i32),
    pub border: i32,
    pub format: u32,
    pub ty: u32,
    pub pixels: Option<&'a [u8]>,
}

/// Arguments of one `glTexSubImage*` call.
pub(crate) struct TexSubImageArgs<'a> {
    pub dims: u32,
    pub target: u32,
    pub level: i32,
    pub offset: (i32, i32, i32),
    pub size: (i32, i32, i32),
    pub format: u32,
    pub ty: u32,
    pub pixels: &'a [u8],
}

impl Context {
    /// `glTexImage1D`.
    #[allow(clippy::too_many_arguments)]
    pub fn tex_image_1d(
        &mut self,
        target: u32,
        level: i32,
        internal_format: i32,
        width: i32,
        border: i32,
        format: u32,
        ty: u32,
        pixels: Option<&[u8]>,
    ) {
        let r = self.tex_image(TexImageArgs {
            dims: 1,
            target,
            level,
            internal_format,
            size: (width, 1, 1),
            border,
            format,
            ty,
            pixels,
        });
        self.check(r);
    }

    /// `glTexImage2D` (2D, rectangle, 1D array and cube face targets). With a
    /// buffer bound to `GL_PIXEL_UNPACK_BUFFER`, this and every other image and
    /// sub-image upload read that buffer from offset 0, and `pixels` must be
    /// `None` or empty.
    #[allow(clippy::too_many_arguments)]
    pub fn tex_image_2d(
        &mut self,
        target: u32,
        level: i32,
        internal_format: i32,
        width: i32,
        height: i32,
        border: i32,
        format: u32,
        ty: u32,
        pixels: Option<&[u8]>,
    ) {
        let r = self.tex_image(TexImageArgs {
            dims: 2,
            target,
            level,
            internal_format,
            size: (width, height, 1),
            border,
            format,
            ty,
            pixels,
        });
        self.check(r);
    }

    /// `glTexImage3D` (3D and 2D array targets).
    #[allow(clippy::too_many_arguments)]
    pub fn tex_image_3d(
        &mut self,
        target: u32,
        level: i32,
        internal_format: i32,
        width: i32,
        height: i32,
        depth: i32,
        border: i32,
        format: u32,
        ty: u32,
        pixels: Option<&[u8]>,
    ) {
        let r = self.tex_image(TexImageArgs {
            dims: 3,
            target,
            level,
            internal_format,
            size: (width, height, depth),
            border,
            format,
            ty,
            pixels,
        });
        self.check(r);
    }

    /// Validates the target, level, format and size of a new image of the bound
    /// texture; returns (object, face, level, internal format, size).
    #[allow(clippy::type_complexity)]
    pub(crate) fn check_new_image(
        &self,
        dims: u32,
        target: u32,
        level: i32,
        internal_format: u32,
        size: (i32, i32, i32),
    ) -> GlResult<(TexRef, usize, u32, InternalFormat, (u32, u32, u32))> {
        let it = image_target(dims, target)?;
        let ttarget = TARGETS[it.ti];
        let level = check_level(ttarget, level)?;
        let ifmt = pixels::internal_format(internal_format).ok_or(GlError::InvalidValue)?;
        if ifmt.base == pixels::Base::Stencil {
            return Err(GlError::InvalidValue);
        }
        let (w, h, d) = check_size(ttarget, level, size.0, size.1, size.2)?;
        if !ifmt.base.is_color() && ttarget == gl::TEXTURE_3D {
            return Err(GlError::InvalidOperation);
        }
        let r = self.textures.bound(self.textures.active_unit, it.ti);
        Ok((r, it.face, level, ifmt, (w, h, d)))
    }

    /// `glTexImage*`.
    pub(crate) fn tex_image(&mut self, a: TexImageArgs<'_>) -> GlResult<()> {
        let (r, face, level, ifmt, size) =
            self.check_new_image(a.dims, a.target, a.level, a.internal_format as u32, a.size)?;
        if a.border != 0 {
            return Err(GlError::InvalidValue);
        }
        let cf = pixels::client_format(a.format, a.ty)?;
        pixels::check_transfer(&cf, ifmt.base)?;
        let obj = self.textures.get(r).ok_or(GlError::InvalidOperation)?;
        if obj.immutable_levels.is_some() {
            return Err(GlError::InvalidOperation);
        }
        let source = self.unpack_source(a.pixels)?;
        let data = pixels::unpack_image(
            &self.textures.pixel_store.unpack,
            &cf,
            &ifmt,
            size,
            source.as_deref(),
        )?;
        self.store_image(r, face, level, ifmt, size, data);
        Ok(())
    }

    /// Replaces one image of a texture.
    pub(crate) fn store_image(
        &mut self,
        r: TexRef,
        face: usize,
        level: u32,
        ifmt: InternalFormat,
        (width, height, depth): (u32, u32, u32),
        data: Vec<u8>,
    ) {
        let driver = &mut *self.driver;
        let Some(obj) = self.textures.get_mut(r) else {
            return;
        };
        // Rendered texels of other levels must survive the rebuild this causes.
        sync_back(driver, obj);
        obj.rendered = false;
        obj.set_image(
            face,
            level,
            Some(Image {
                ifmt,
                width,
                height,
                depth,
                data,
            }),
        );
        obj.dirty = true;
        self.textures.touch();
        self.textures.gpu_generation += 1;
    }

    /// `glTexSubImage1D`.
    #[allow(clippy::too_many_arguments)]
    pub fn tex_sub_image_1d(
        &mut self,
        target: u32,
        level: i32,
        x_offset: i32,
        width: i32,
        format: u32,
        ty: u32,
        pixels: &[u8],
    ) {
        let r = self.tex_sub_image(TexSubImageArgs {
            dims: 1,
            target,
            level,
            offset: (x_offset, 0, 0),
            size: (width, 1, 1),
            format,
            ty,
            pixels,
        });
        self.check(r);
    }

    /// `glTexSubImage2D`.
    #[allow(clippy::too_many_arguments)]
    pub fn tex_sub_image_2d(
        &mut self,
        target: u32,
        level: i32,
        x_offset: i32,
        y_offset: i32,
        width: i32,
        height: i32,
        format: u32,
        ty: u32,
        pixels: &[u8],
    ) {
        let r = self.tex_sub_image(TexSubImageArgs {
            dims: 2,
            target,
            level,
            offset: (x_offset, y_offset, 0),
            size: (width, height, 1),
            format,
            ty,
            pixels,
        });
        self.check(r);
    }

    /// `glTexSubImage3D`.
    #[allow(clippy::too_many_arguments)]
    pub fn tex_sub_image_3d(
        &mut self,
        target: u32,
        level: i32,
        x_offset: i32,
        y_offset: i32,
        z_offset: i32,
        width: i32,
        height: i32,
        depth: i32,
        format: u32,
        ty: u32,
        pixels: &[u8],
    ) {
        let r = self.tex_sub_image(TexSubImageArgs {
            dims: 3,
            target,
            level,
            offset: (x_offset, y_offset, z_offset),
            size: (width, height, depth),
            format,
            ty,
            pixels,
        });
        self.check(r);
    }

    /// Resolves the existing image a sub-image call updates and checks the region
    /// (`GL_INVALID_OPERATION` without an image, `GL_INVALID_VALUE` outside it).
    pub(crate) fn sub_image_region(
        &self,
        dims: u32,
        target: u32,
        level: i32,
        offset: (i32, i32, i32),
        size: (i32, i32, i32),
    ) -> GlResult<(TexRef, usize, u32, InternalFormat, TexBox)> {
        let it = image_target(dims, target)?;
        let level = check_level(TARGETS[it.ti], level)?;
        let r = self.textures.bound(self.textures.active_unit, it.ti);
        let obj = self.textures.get(r).ok_or(GlError::InvalidOperation)?;
        let img = obj.image(it.face, level).ok_or(GlError::InvalidOperation)?;
        if size.0 < 0 || size.1 < 0 || size.2 < 0 {
            return Err(GlError::InvalidValue);
        }
        let fits = |o: i32, n: i32, max: u32| o >= 0 && o as i64 + n as i64 <= max as i64;
        if !fits(offset.0, size.0, img.width)
            || !fits(offset.1, size.1, img.height)
            || !fits(offset.2, size.2, img.depth)
        {
            return Err(GlError::InvalidValue);
        }
        let region = TexBox {
            x: offset.0 as u32,
            y: offset.1 as u32,
            z: offset.2 as u32,
            width: size.0 as u32,
            height: size.1 as u32,
            depth: size.2 as u32,
        };
        Ok((r, it.face, level, img.ifmt, region))
    }

    /// `glTexSubImage*`.
    pub(crate) fn tex_sub_image(&mut self, a: TexSubImageArgs<'_>) -> GlResult<()> {
        let (r, face, level, ifmt, region) =
            self.sub_image_region(a.dims, a.target, a.level, a.offset, a.size)?;
        let cf = pixels::client_format(a.format, a.ty)?;
        pixels::check_transfer(&cf, ifmt.base)?;
        let source = self.unpack_source(Some(a.pixels))?;
        let texels = pixels::unpack_image(
            &self.textures.pixel_store.unpack,
            &cf,
            &ifmt,
            (region.width, region.height, region.depth),
            Some(source.as_deref().unwrap_or_default()),
        )?;
        self.write_texels(r, face, level, region, &texels);
        Ok(())
    }

    /// Writes tightly packed texels (in the image's format) into a region of an
    /// existing image, and into the driver texture when it holds that level.
    pub(crate) fn write_texels(
        &mut self,
        r: TexRef,
        face: usize,
        level: u32,
        region: TexBox,
        texels: &[u8],
    ) {
        let driver = &mut *self.driver;
        let Some(obj) = self.textures.get_mut(r) else {
            return;
        };
        let synced = sync_back(driver, obj);
        let cube = obj.target == Some(gl::TEXTURE_CUBE_MAP);
        let Some(img) = obj.image_mut(face, level) else {
            return;
        };
        let bpp = img.ifmt.format.bytes_per_pixel();
        let row = region.width as usize * bpp;
        if row == 0 {
            return;
        }
        let (w, h) = (img.width as usize, img.height as usize);
        for z in 0..region.depth as usize {
            for y in 0..region.height as usize {
                let src = (z * region.height as usize + y) * row;
                let dst = (((region.z as usize + z) * h + region.y as usize + y) * w
                    + region.x as usize)
                    * bpp;
                if let (Some(d), Some(s)) =
                    (img.data.get_mut(dst..dst + row), texels.get(src..src + row))
                {
                    d.copy_from_slice(s);
                }
            }
        }
        let img_dims = img.dims();
        let img_format = img.ifmt.format;
        let on_gpu = !obj.dirty
            && obj.gpu.is_some_and(|g| {
                g.driver_level(level).is_some()
                    && g.desc.format == img_format
                    && obj.gpu_level_dims(&g, level) == img_dims
            });
        if on_gpu {
            if let Some(g) = obj.gpu {
                let k = level - g.anchor;
                let mut b = region;
                if cube {
                    b.z = face as u32;
                }
                if driver.texture_upload(g.handle, k, b, texels).is_err() {
                    // The level is not in the driver texture at this size: rebuild.
                    obj.dirty = true;
                }
            }
        } else {
            obj.dirty = true;
        }
        self.textures.touch();
        if synced {
            self.textures.gpu_generation += 1;
        }
    }

    /// `glTexStorage1D`.
    pub fn tex_storage_1d(&mut self, target: u32, levels: i32, internal_format: u32, width: i32) {
        let r = self.tex_storage(1, target, levels, internal_format, (width, 1, 1));
        self.check(r);
    }

    /// `glTexStorage2D` (2D, rectangle, 1D array and cube map targets).
    pub fn tex_storage_2d(
        &mut self,
        target: u32,
        levels: i32,
        internal_format: u32,
        width: i32,
        height: i32,
    ) {
        let r = self.tex_storage(2, target, levels, internal_format, (width, height, 1));
        self.check(r);
    }

    /// `glTexStorage3D` (3D and 2D array targets).
    pub fn tex_storage_3d(
        &mut self,
        target: u32,
        levels: i32,
        internal_format: u32,
        width: i32,
        height: i32,
        depth: i32,
    ) {
        let r = self.tex_storage(3, target, levels, internal_format, (width, height, depth));
        self.check(r);
    }

    fn tex_storage(
        &mut self,
        dims: u32,
        target: u32,
        levels: i32,
        internal_format: u32,
        size: (i32, i32, i32),
    ) -> GlResult<()> {
        let ok_target = match dims {
            1 => target == gl::TEXTURE_1D,
            2 => matches!(
                target,
                gl::TEXTURE_2D
                    | gl::TEXTURE_RECTANGLE
                    | gl::TEXTURE_1D_ARRAY
                    | gl::TEXTURE_CUBE_MAP
            ),
            _ => matches!(target, gl::TEXTURE_3D | gl::TEXTURE_2D_ARRAY),
        };
        if !ok_target {
            return Err(GlError::InvalidEnum);
        }
        let ifmt = match pixels::internal_format(internal_format) {
            Some(f) if f.sized && f.base != pixels::Base::Stencil => f,
            _ => return Err(GlError::InvalidEnum),
        };
        if levels < 1 || size.0 < 1 || size.1 < 1 || size.2 < 1 {
            return Err(GlError::InvalidValue);
        }
        let (w, h, d) = check_size(target, 0, size.0, size.1, size.2)?;
        if !ifmt.base.is_color() && target == gl::TEXTURE_3D {
            return Err(GlError::InvalidOperation);
        }
        let r = self.bound_texture_ref(target)?;
        // ARB_texture_storage: the default texture (zero) cannot be made
        // immutable; GL_INVALID_OPERATION when it is bound.
        if matches!(r, super::TexRef::Default(_)) {
            return Err(GlError::InvalidOperation);
        }
        let obj = self.textures.get(r).ok_or(GlError::InvalidOperation)?;
        if obj.immutable_levels.is_some() {
            return Err(GlError::InvalidOperation);
        }
        if levels as u32 > obj.chain_len((w, h, d)) {
            return Err(GlError::InvalidOperation);
        }
        let faces = obj.images.len();
        let cf = pixels::client_format(gl::RGBA, gl::UNSIGNED_BYTE)?;
        let mut chain = Vec::new();
        for k in 0..levels as u32 {
            let dd = obj.mip_dims((w, h, d), k);
            let unpack = &self.textures.pixel_store.unpack;
            let data = pixels::unpack_image(unpack, &cf, &ifmt, dd, None)?;
            chain.push(Some(Image {
                ifmt,
                width: dd.0,
                height: dd.1,
                depth: dd.2,
                data,
            }));
        }
        let new_images = vec![chain; faces];
        let obj = self.textures.get_mut(r).ok_or(GlError::InvalidOperation)?;
        obj.images = new_images;
        obj.immutable_levels = Some(levels as u32);
        obj.rendered = false;
        obj.dirty = true;
        self.textures.touch();
        self.textures.gpu_generation += 1;
        Ok(())
    }
}
