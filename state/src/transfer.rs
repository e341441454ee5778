//! Pixel rectangles moving between images: `glClear`, `glClearBuffer*`,
//! `glReadPixels`, `glBlitFramebuffer`, `glCopyTexImage2D`/`glCopyTexSubImage2D`,
//! `glGetTexImage` and `glGenerateMipmap`.
//!
//! Reads and writes of render targets go through the driver (`read_surface`,
//! `texture_upload`, `clear`); texture images are read from the state-side copy after
//! [`sync_back`] has refreshed it from rendering.

use rgl_backend::driver::{ClearRequest, Rect, Surface, TexBox, TexTarget, MAX_RENDER_TARGETS};
use rgl_backend::format::Format;
use rgl_backend::Driver;

use crate::error::{GlError, GlResult};
use crate::framebuffer::{ReadWhat, Resolved};
use crate::gl;
use crate::limits;
use crate::pixels::{self, InternalFormat, PixelModes};
use crate::texture::{sync_back, Image};
use crate::Context;

impl Context {
    /// `glClear`: color, depth and stencil of the draw framebuffer, honoring the
    /// scissor test, color mask, depth mask and stencil write mask.
    pub fn clear(&mut self, mask: u32) {
        let all = gl::COLOR_BUFFER_BIT | gl::DEPTH_BUFFER_BIT | gl::STENCIL_BUFFER_BIT;
        if mask & !all != 0 {
            return self.record(GlError::InvalidValue);
        }
        let r = (|| {
            self.validate_draw_framebuffer()?;
            let m = self.fixed.color_mask;
            let cmask = m[0] as u8 | (m[1] as u8) << 1 | (m[2] as u8) << 2 | (m[3] as u8) << 3;
            let req = ClearRequest {
                color: (mask & gl::COLOR_BUFFER_BIT != 0 && cmask != 0)
                    .then_some(self.fixed.clear_color),
                color_masks: [cmask; MAX_RENDER_TARGETS],
                depth: (mask & gl::DEPTH_BUFFER_BIT != 0 && self.fixed.depth_mask)
                    .then_some(self.fixed.clear_depth as f32),
                stencil: self.stencil_clear(mask & gl::STENCIL_BUFFER_BIT != 0, None),
                scissor: self.clear_scissor(),
            };
            self.run_clear(&req)
        })();
        self.check(r);
    }

    fn stencil_clear(&self, on: bool, value: Option<i32>) -> Option<(u8, u8)> {
        let wm = (self.fixed.stencil[0].write_mask & 0xff) as u8;
        let v = value.unwrap_or(self.fixed.clear_stencil);
        (on && wm != 0).then_some(((v & 0xff) as u8, wm))
    }

    fn clear_scissor(&self) -> Option<Rect> {
        self.fixed.scissor_test.then(|| {
            let [x, y, w, h] = self.fixed.scissor;
            Rect {
                x,
                y,
                width: w.max(0) as u32,
                height: h.max(0) as u32,
            }
        })
    }

    fn run_clear(&mut self, req: &ClearRequest) -> GlResult<()> {
        // GL 3.3 §2.16: conditional rendering discards clears too.
        if self.fixed.rasterizer_discard || self.render_discarded() {
            return Ok(());
        }
        if req.color.is_none() && req.depth.is_none() && req.stencil.is_none() {
            return Ok(());
        }
        self.driver.clear(req).map_err(|e| {
            log::error!("clear: {e}");
            GlError::OutOfMemory
        })
    }

    fn clear_buffer(&mut self, buffer: u32, draw_buffer: i32, v: ClearValue) -> GlResult<()> {
        match buffer {
            gl::COLOR => {
                if draw_buffer < 0 || draw_buffer >= limits::MAX_DRAW_BUFFERS as i32 {
                    return Err(GlError::InvalidValue);
                }
            }
            gl::DEPTH | gl::STENCIL | gl::DEPTH_STENCIL => {
                if draw_buffer != 0 {
                    return Err(GlError::InvalidValue);
                }
            }
            _ => return Err(GlError::InvalidEnum),
        }
        let ok = matches!(
            (buffer, &v),
            (gl::COLOR, ClearValue::Color(_))
                | (gl::DEPTH, ClearValue::Depth(_))
                | (gl::STENCIL, ClearValue::Stencil(_))
                | (gl::DEPTH_STENCIL, ClearValue::DepthStencil(..))
        );
        if !ok {
            return Err(GlError::InvalidEnum);
        }
        self.validate_draw_framebuffer()?;
        let m = self.fixed.color_mask;
        let cmask = m[0] as u8 | (m[1] as u8) << 1 | (m[2] as u8) << 2 | (m[3] as u8) << 3;
        let mut masks = [0u8; MAX_RENDER_TARGETS];
        if let Some(x) = masks.get_mut(draw_buffer as usize) {
            *x = cmask;
        }
        let (color, depth, stencil) = match v {
            ClearValue::Color(c) => (Some(c), None, None),
            ClearValue::Depth(d) => (None, Some(d), None),
            ClearValue::Stencil(s) => (None, None, Some(s)),
            ClearValue::DepthStencil(d, s) => (None, Some(d), Some(s)),
        };
        let req = ClearRequest {
            color: color.filter(|_| cmask != 0),
            color_masks: masks,
            depth: depth.filter(|_| self.fixed.depth_mask),
            stencil: self.stencil_clear(stencil.is_some(), stencil),
            scissor: self.clear_scissor(),
        };
        self.run_clear(&req)
    }

    /// `glClearBufferfv` (`GL_COLOR` with 4 values, `GL_DEPTH` with 1).
    pub fn clear_buffer_f32_slice(&mut self, target: u32, draw_buffer: u32, values: &[f32]) {
        let v = match target {
            gl::DEPTH => values.first().map(|d| ClearValue::Depth(*d)),
            _ => (values.len() >= 4).then(|| ClearValue::Color([0, 1, 2, 3].map(|i| values[i]))),
        };
        let r = match v {
            Some(v) => self.clear_buffer(target, draw_buffer.min(i32::MAX as u32) as i32, v),
            None if matches!(target, gl::COLOR | gl::DEPTH) => Err(GlError::InvalidValue),
            None => Err(GlError::InvalidEnum),
        };
        self.check(r);
    }

    /// `glClearBufferiv` (`GL_STENCIL` with 1 value; integer color buffers do not exist
    /// in rgl, so `GL_COLOR` clears nothing... as GL leaves it undefined).
    pub fn clear_buffer_i32_slice(&mut self, target: u32, draw_buffer: u32, values: &[i32]) {
        let db = draw_buffer.min(i32::MAX as u32) as i32;
        let r = match (target, values.first()) {
            (gl::STENCIL, Some(s)) => self.clear_buffer(target, db, ClearValue::Stencil(*s)),
            (gl::COLOR, _) if values.len() >= 4 => {
                // Integer clears of normalized buffers are undefined in GL; convert.
                let c = [0, 1, 2, 3].map(|i| values[i] as f32);
                self.clear_buffer(target, db, ClearValue::Color(c))
            }
            (gl::STENCIL | gl::COLOR, _) => Err(GlError::InvalidValue),
            _ => Err(GlError::InvalidEnum),
        };
        self.check(r);
    }

    /// `glClearBufferuiv` (`GL_COLOR` only).
    pub fn clear_buffer_u32_slice(&mut self, target: u32, draw_buffer: u32, values: &[u32]) {
        let db = draw_buffer.min(i32::MAX as u32) as i32;
        let r = match target {
            gl::COLOR if values.len() >= 4 => {
                let c = [0, 1, 2, 3].map(|i| values[i] as f32);
                self.clear_buffer(target, db, ClearValue::Color(c))
            }
            gl::COLOR => Err(GlError::InvalidValue),
            _ => Err(GlError::InvalidEnum),
        };
        self.check(r);
    }

    /// `glClearBufferfi` (`GL_DEPTH_STENCIL`).
    pub fn clear_buffer_depth_stencil(
        &mut self,
        target: u32,
        draw_buffer: u32,
        depth: f32,
        stencil: i32,
    ) {
        let db = draw_buffer.min(i32::MAX as u32) as i32;
        let r = self.clear_buffer(target, db, ClearValue::DepthStencil(depth, stencil));
        self.check(r);
    }

    /// `glReadPixels` into `pixels` (laid out by the pack modes): colors from the
    /// read buffer, `GL_DEPTH_COMPONENT`, `GL_STENCIL_INDEX`, `GL_DEPTH_STENCIL`.
    /// Pixels outside the framebuffer are left untouched. With a buffer bound to
    /// `GL_PIXEL_PACK_BUFFER`, writes that buffer from offset 0 instead, and
    /// `pixels` must be empty.
    #[allow(clippy::too_many_arguments)]
    pub fn read_pixels(
        &mut self,
        x: i32,
        y: i32,
        width: i32,
        height: i32,
        format: u32,
        gltype: u32,
        pixels: &mut [u8],
    ) {
        let r = self.pack_into(pixels, |c, out| {
            c.read_pixels_inner(x, y, width, height, format, gltype, out)
        });
        self.check(r);
    }

    #[allow(clippy::too_many_arguments)]
    fn read_pixels_inner(
        &mut self,
        x: i32,
        y: i32,
        width: i32,
        height: i32,
        format: u32,
        gltype: u32,
        pixels: &mut [u8],
    ) -> GlResult<()> {
        if width < 0 || height < 0 {
            return Err(GlError::InvalidValue);
        }
        let cf = pixels::client_format(format, gltype)?;
        let what = match cf.layout {
            pixels::Layout::Color(_) => ReadWhat::Color,
            pixels::Layout::Depth => ReadWhat::Depth,
            pixels::Layout::Stencil => ReadWhat::Stencil,
            pixels::Layout::DepthStencil => ReadWhat::DepthStencil,
        };
        let src = self.read_source(what)?;
        pixels::check_transfer(&cf, src.base)?;
        let modes = self.textures.pixel_store.pack;
        let lay = pixels::client_layout(&modes, &cf, width as u32, height as u32, 1)?;
        if pixels.len() < lay.required {
            return Err(GlError::InvalidOperation);
        }
        let Some((rect, dx, dy)) = clip_rect(x, y, width, height, src.width, src.height) else {
            return Ok(());
        };
        let texels = self
            .driver
            .read_surface(src.surface, rect)
            .map_err(|_| GlError::InvalidOperation)?;
        let sub = PixelModes {
            row_length: if modes.row_length > 0 {
                modes.row_length
            } else {
                width as u32
            },
            skip_pixels: modes.skip_pixels + dx,
            skip_rows: modes.skip_rows + dy,
            ..modes
        };
        pixels::pack_image(
            &sub,
            &cf,
            (src.format, src.base),
            (rect.width, rect.height, 1),
            &texels,
            pixels,
        )
    }
}

/// A `glClearBuffer*` value.
#[derive(Copy, Clone, Debug)]
enum ClearValue {
    Color([f32; 4]),
    Depth(f32),
    Stencil(i32),
    DepthStencil(f32, i32),
}

/// Clips a `w` × `h` rectangle at (x, y) to a `sw` × `sh` surface: the surface
/// rectangle and the offset of its first pixel inside the requested one.
pub(crate) fn clip_rect(
    x: i32,
    y: i32,
    w: i32,
    h: i32,
    sw: u32,
    sh: u32,
) -> Option<(Rect, u32, u32)> {
    let (x0, y0) = (x.max(0) as i64, y.max(0) as i64);
    let x1 = (x as i64 + w as i64).min(sw as i64);
    let y1 = (y as i64 + h as i64).min(sh as i64);
    if x0 >= x1 || y0 >= y1 {
        return None;
    }
    Some((
        Rect {
            x: x0 as i32,
            y: y0 as i32,
            width: (x1 - x0) as u32,
            height: (y1 - y0) as u32,
        },
        (x0 - x as i64) as u32,
        (y0 - y as i64) as u32,
    ))
}

/// Writes tightly packed texels into a surface region through `texture_upload`
/// (1D array layers are rows).
pub(crate) fn upload_surface(
    driver: &mut dyn Driver,
    s: Surface,
    r: Rect,
    texels: &[u8],
) -> GlResult<()> {
    let desc = driver
        .texture_desc(s.texture)
        .map_err(|_| GlError::InvalidOperation)?;
    let (y, z) = if desc.target == TexTarget::D1Array {
        (s.layer + r.y as u32, 0)
    } else {
        (r.y as u32, s.layer)
    };
    let region = TexBox {
        x: r.x as u32,
        y,
        z,
        width: r.width,
        height: r.height,
        depth: 1,
    };
    driver
        .texture_upload(s.texture, s.level, region, texels)
        .map_err(|_| GlError::InvalidOperation)
}

/// Reads the tightly packed texels of `(x, y, w, h)` of a read source converted to
/// `ifmt` (texels outside the source are zero), bottom-up rows.
fn convert_region(
    driver: &mut dyn Driver,
    src: &Resolved,
    (x, y, w, h): (i32, i32, u32, u32),
    ifmt: &InternalFormat,
) -> GlResult<Vec<u8>> {
    let tbpp = ifmt.format.bytes_per_pixel();
    let mut out = vec![0u8; w as usize * h as usize * tbpp];
    let Some((rect, dx, dy)) = clip_rect(x, y, w as i32, h as i32, src.width, src.height) else {
        return Ok(out);
    };
    let texels = driver
        .read_surface(src.surface, rect)
        .map_err(|_| GlError::InvalidOperation)?;
    let sbpp = src.format.bytes_per_pixel();
    let mut px = vec![0u8; tbpp];
    for (i, t) in texels.chunks_exact(sbpp).enumerate() {
        let (cx, cy) = (i % rect.width as usize, i / rect.width as usize);
        let o = ((cy + dy as usize) * w as usize + cx + dx as usize) * tbpp;
        px.fill(0);
        if ifmt.base.is_color() {
            let c = src.base.rgba_of_stored(src.format.decode_rgba(t));
            ifmt.format.encode_rgba(ifmt.base.to_stored(c), &mut px);
        } else {
            ifmt.format
                .encode_depth(src.format.decode_depth(t), &mut px);
            ifmt.format
                .encode_stencil(src.format.decode_stencil(t), &mut px);
        }
        if let Some(d) = out.get_mut(o..o + tbpp) {
            d.copy_from_slice(&px);
        }
    }
    Ok(out)
}

/// Averages a 2×2(×2) box of `src` (size `sd`) for each texel of a level of size
/// `dd`; `reduce` says which axes shrink (array layers do not).
fn box_filter(
    format: Format,
    src: &[u8],
    sd: (u32, u32, u32),
    dd: (u32, u32, u32),
    reduce: [bool; 3],
) -> Vec<u8> {
    let bpp = format.bytes_per_pixel();
    let mut out = vec![0u8; dd.0 as usize * dd.1 as usize * dd.2 as usize * bpp];
    let taps = |d: u32, s: u32, r: bool| -> Vec<u32> {
        if r && s > 1 {
            vec![(2 * d).min(s - 1), (2 * d + 1).min(s - 1)]
        } else {
            vec![d.min(s - 1)]
        }
    };
    let depth = format.is_depth();
    let mut px = vec![0u8; bpp];
    for z in 0..dd.2 {
        for y in 0..dd.1 {
            for x in 0..dd.0 {
                let mut acc = [0.0f32; 4];
                let mut n = 0.0f32;
                for &sz in &taps(z, sd.2, reduce[2]) {
                    for &sy in &taps(y, sd.1, reduce[1]) {
                        for &sx in &taps(x, sd.0, reduce[0]) {
                            let i = ((sz as usize * sd.1 as usize + sy as usize) * sd.0 as usize
                                + sx as usize)
                                * bpp;
                            let Some(t) = src.get(i..i + bpp) else {
                                continue;
                            };
                            let c = format.decode_rgba(t);
                            for k in 0..4 {
                                acc[k] += c[k];
                            }
                            n += 1.0;
                        }
                    }
                }
                let c = acc.map(|v| v / n.max(1.0));
                px.fill(0);
                if depth {
                    format.encode_depth(c[0], &mut px);
                } else {
                    format.encode_rgba(c, &mut px);
                }
                let o =
                    ((z as usize * dd.1 as usize + y as usize) * dd.0 as usize + x as usize) * bpp;
                out[o..o + bpp].copy_from_slice(&px);
            }
        }
    }
    out
}

impl Context {
    /// `glGetTexImage`: one level of the bound texture (a cube face for face
    /// targets), converted by the pack modes. An undefined level writes nothing.
    /// With a buffer bound to `GL_PIXEL_PACK_BUFFER`, writes that buffer from
    /// offset 0 instead, and `pixels` must be empty.
    pub fn get_tex_image(
        &mut self,
        target: u32,
        level: i32,
        format: u32,
        ty: u32,
        pixels: &mut [u8],
    ) {
        let r = self.pack_into(pixels, |c, out| {
            c.get_tex_image_inner(target, level, format, ty, out)
        });
        self.check(r);
    }

    fn get_tex_image_inner(
        &mut self,
        target: u32,
        level: i32,
        format: u32,
        ty: u32,
        pixels: &mut [u8],
    ) -> GlResult<()> {
        let r = (|| {
            let (tt, face) = match target {
                gl::TEXTURE_CUBE_MAP_POSITIVE_X..=gl::TEXTURE_CUBE_MAP_NEGATIVE_Z => (
                    gl::TEXTURE_CUBE_MAP,
                    (target - gl::TEXTURE_CUBE_MAP_POSITIVE_X) as usize,
                ),
                gl::TEXTURE_CUBE_MAP => return Err(GlError::InvalidEnum),
                t => (t, 0),
            };
            let r = self.bound_texture_ref(tt)?;
            if !(0..=31).contains(&level) {
                return Err(GlError::InvalidValue);
            }
            let cf = pixels::client_format(format, ty)?;
            let modes = self.textures.pixel_store.pack;
            let driver = &mut *self.driver;
            let obj = self.textures.get_mut(r).ok_or(GlError::InvalidOperation)?;
            let synced = sync_back(driver, obj);
            let result = match obj.image(face, level as u32) {
                None => Ok(()),
                Some(img) => pixels::check_transfer(&cf, img.ifmt.base).and_then(|_| {
                    pixels::pack_image(
                        &modes,
                        &cf,
                        (img.ifmt.format, img.ifmt.base),
                        (img.width, img.height, img.depth),
                        &img.data,
                        pixels,
                    )
                }),
            };
            if synced {
                self.textures.gpu_generation += 1;
            }
            result
        })();
        r
    }

    /// `glGenerateMipmap`: box-filters levels base+1 ..= min(max level, last) of the
    /// bound texture from its base level.
    pub fn generate_mipmap(&mut self, target: u32) {
        let r = (|| {
            if !matches!(
                target,
                gl::TEXTURE_1D
                    | gl::TEXTURE_2D
                    | gl::TEXTURE_3D
                    | gl::TEXTURE_CUBE_MAP
                    | gl::TEXTURE_1D_ARRAY
                    | gl::TEXTURE_2D_ARRAY
            ) {
                return Err(GlError::InvalidEnum);
            }
            let r = self.bound_texture_ref(target)?;
            let driver = &mut *self.driver;
            let obj = self.textures.get_mut(r).ok_or(GlError::InvalidOperation)?;
            let (base, max) = obj.level_range();
            let first = obj.image(0, base).ok_or(GlError::InvalidOperation)?.clone();
            let dims = (first.width, first.height, first.depth);
            if target == gl::TEXTURE_CUBE_MAP
                && !(1..6).all(|f| {
                    obj.image(f, base).is_some_and(|i| {
                        (i.width, i.height, i.depth) == dims && i.ifmt == first.ifmt
                    })
                })
            {
                return Err(GlError::InvalidOperation);
            }
            if dims.0 == 0 || dims.1 == 0 || dims.2 == 0 {
                return Ok(());
            }
            sync_back(driver, obj);
            let reduce = match target {
                gl::TEXTURE_1D | gl::TEXTURE_1D_ARRAY => [true, false, false],
                gl::TEXTURE_3D => [true, true, true],
                _ => [true, true, false],
            };
            let last = (base + obj.chain_len(dims) - 1).min(max);
            for face in 0..obj.images.len() {
                let Some(mut prev) = obj.image(face, base).cloned() else {
                    continue;
                };
                for level in base + 1..=last {
                    let d = obj.mip_dims(dims, level - base);
                    let data = box_filter(
                        prev.ifmt.format,
                        &prev.data,
                        (prev.width, prev.height, prev.depth),
                        d,
                        reduce,
                    );
                    let img = Image {
                        ifmt: prev.ifmt,
                        width: d.0,
                        height: d.1,
                        depth: d.2,
                        data,
                    };
                    obj.set_image(face, level, Some(img.clone()));
                    prev = img;
                }
            }
            obj.dirty = true;
            obj.rendered = false;
            self.textures.touch();
            self.textures.gpu_generation += 1;
            Ok(())
        })();
        self.check(r);
    }

    /// `glCopyTexImage2D`: defines a level from a rectangle of the read framebuffer
    /// (its read buffer, or its depth buffer for depth formats).
    #[allow(clippy::too_many_arguments)]
    pub fn copy_tex_image_2d(
        &mut self,
        target: u32,
        level: i32,
        internal_format: u32,
        x: i32,
        y: i32,
        width: i32,
        height: i32,
        border: i32,
    ) {
        let r = (|| {
            let (r, face, level, ifmt, size) =
                self.check_new_image(2, target, level, internal_format, (width, height, 1))?;
            if border != 0 {
                return Err(GlError::InvalidValue);
            }
            let obj = self.textures.get(r).ok_or(GlError::InvalidOperation)?;
            if obj.immutable_levels.is_some() {
                return Err(GlError::InvalidOperation);
            }
            let what = if ifmt.base.is_color() {
                ReadWhat::Color
            } else {
                ReadWhat::Depth
            };
            let src = self.read_source(what)?;
            if src.base.is_color() != ifmt.base.is_color() {
                return Err(GlError::InvalidOperation);
            }
            let data = convert_region(&mut *self.driver, &src, (x, y, size.0, size.1), &ifmt)?;
            self.store_image(r, face, level, ifmt, size, data);
            Ok(())
        })();
        self.check(r);
    }

    /// `glCopyTexSubImage2D`.
    #[allow(clippy::too_many_arguments)]
    pub fn copy_tex_sub_image_2d(
        &mut self,
        target: u32,
        level: i32,
        x_offset: i32,
        y_offset: i32,
        x: i32,
        y: i32,
        width: i32,
        height: i32,
    ) {
        let r = self.copy_tex_sub_image(
            2,
            target,
            level,
            (x_offset, y_offset, 0),
            x,
            y,
            width,
            height,
        );
        self.check(r);
    }

    /// `glCopyTexSubImage3D` (one slice or layer of a 3D or array texture).
    #[allow(clippy::too_many_arguments)]
    pub fn copy_tex_sub_image_3d(
        &mut self,
        target: u32,
        level: i32,
        x_offset: i32,
        y_offset: i32,
        z_offset: i32,
        x: i32,
        y: i32,
        width: i32,
        height: i32,
    ) {
        let r = self.copy_tex_sub_image(
            3,
            target,
            level,
            (x_offset, y_offset, z_offset),
            x,
            y,
            width,
            height,
        );
        self.check(r);
    }

    #[allow(clippy::too_many_arguments)]
    fn copy_tex_sub_image(
        &mut self,
        dims: u32,
        target: u32,
        level: i32,
        offset: (i32, i32, i32),
        x: i32,
        y: i32,
        width: i32,
        height: i32,
    ) -> GlResult<()> {
        let (r, face, level, ifmt, region) =
            self.sub_image_region(dims, target, level, offset, (width, height, 1))?;
        let what = if ifmt.base.is_color() {
            ReadWhat::Color
        } else {
            ReadWhat::Depth
        };
        let src = self.read_source(what)?;
        let data = convert_region(
            &mut *self.driver,
            &src,
            (x, y, region.width, region.height),
            &ifmt,
        )?;
        self.write_texels(r, face, level, region, &data);
        Ok(())
    }

    /// `glBlitFramebuffer`: copies a rectangle of the read framebuffer to the draw
    /// framebuffer, scaling with `GL_NEAREST` or `GL_LINEAR` (color only) filtering
    /// and flipping when the rectangles' orientations differ. Honors the scissor
    /// test; depth and stencil blits need identical formats.
    #[allow(clippy::too_many_arguments)]
    pub fn blit_framebuffer(
        &mut self,
        src_x0: i32,
        src_y0: i32,
        src_x1: i32,
        src_y1: i32,
        dst_x0: i32,
        dst_y0: i32,
        dst_x1: i32,
        dst_y1: i32,
        mask: u32,
        filter: u32,
    ) {
        let r = self.blit_inner(
            [src_x0, src_y0, src_x1, src_y1],
            [dst_x0, dst_y0, dst_x1, dst_y1],
            mask,
            filter,
        );
        self.check(r);
    }

    fn blit_inner(&mut self, s: [i32; 4], d: [i32; 4], mask: u32, filter: u32) -> GlResult<()> {
        let all = gl::COLOR_BUFFER_BIT | gl::DEPTH_BUFFER_BIT | gl::STENCIL_BUFFER_BIT;
        if mask & !all != 0 {
            return Err(GlError::InvalidValue);
        }
        if filter != gl::NEAREST && filter != gl::LINEAR {
            return Err(GlError::InvalidEnum);
        }
        if filter == gl::LINEAR && mask & (gl::DEPTH_BUFFER_BIT | gl::STENCIL_BUFFER_BIT) != 0 {
            return Err(GlError::InvalidOperation);
        }
        let fb = self.validate_draw_framebuffer().and_then(|_| {
            self.framebuffers
                .cached
                .as_ref()
                .map(|(_, fb)| fb.clone())
                .ok_or(GlError::InvalidFramebufferOperation)
        })?;
        if let Some(fbo) = self.framebuffers.read {
            if self.check_framebuffer_status(gl::READ_FRAMEBUFFER) != gl::FRAMEBUFFER_COMPLETE {
                let _ = fbo;
                return Err(GlError::InvalidFramebufferOperation);
            }
        }
        let mut jobs: Vec<(Resolved, Surface, u32)> = Vec::new();
        if mask & gl::COLOR_BUFFER_BIT != 0 {
            match self.read_source(ReadWhat::Color) {
                Ok(src) => {
                    for dst in fb.colors.iter().flatten() {
                        jobs.push((src, *dst, gl::COLOR_BUFFER_BIT));
                    }
                }
                Err(GlError::InvalidOperation) => {}
                Err(e) => return Err(e),
            }
        }
        for bit in [gl::DEPTH_BUFFER_BIT, gl::STENCIL_BUFFER_BIT] {
            if mask & bit == 0 {
                continue;
            }
            let what = if bit == gl::DEPTH_BUFFER_BIT {
                ReadWhat::Depth
            } else {
                ReadWhat::Stencil
            };
            let (Ok(src), Some(dst)) = (self.read_source(what), fb.zs) else {
                continue;
            };
            let dfmt = self
                .driver
                .texture_desc(dst.texture)
                .map_err(|_| GlError::InvalidOperation)?
                .format;
            if dfmt != src.format {
                return Err(GlError::InvalidOperation);
            }
            jobs.push((src, dst, bit));
        }
        let scissor = self.fixed.scissor_test.then_some(self.fixed.scissor);
        for (src, dst, bit) in jobs {
            blit_one(
                &mut *self.driver,
                &src,
                dst,
                (fb.width, fb.height),
                s,
                d,
                bit,
                filter == gl::LINEAR,
                scissor,
            )?;
        }
        Ok(())
    }
}

/// Blits one buffer (`bit`) from `src` to the surface `dst` of a `fb_size`
/// framebuffer.
#[allow(clippy::too_many_arguments)]
fn blit_one(
    driver: &mut dyn Driver,
    src: &Resolved,
    dst: Surface,
    fb_size: (u32, u32),
    s: [i32; 4],
    d: [i32; 4],
    bit: u32,
    linear: bool,
    scissor: Option<[i32; 4]>,
) -> GlResult<()> {
    let dfmt = driver
        .texture_desc(dst.texture)
        .map_err(|_| GlError::InvalidOperation)?
        .format;
    // Destination pixels: the dst rectangle clipped to the framebuffer and scissor.
    let (mut x0, mut x1) = (d[0].min(d[2]) as i64, d[0].max(d[2]) as i64);
    let (mut y0, mut y1) = (d[1].min(d[3]) as i64, d[1].max(d[3]) as i64);
    x0 = x0.max(0);
    y0 = y0.max(0);
    x1 = x1.min(fb_size.0 as i64);
    y1 = y1.min(fb_size.1 as i64);
    if let Some([sx, sy, sw, sh]) = scissor {
        x0 = x0.max(sx as i64);
        y0 = y0.max(sy as i64);
        x1 = x1.min(sx as i64 + sw.max(0) as i64);
        y1 = y1.min(sy as i64 + sh.max(0) as i64);
    }
    if x0 >= x1 || y0 >= y1 || d[0] == d[2] || d[1] == d[3] {
        return Ok(());
    }
    let drect = Rect {
        x: x0 as i32,
        y: y0 as i32,
        width: (x1 - x0) as u32,
        height: (y1 - y0) as u32,
    };
    let mut out = driver
        .read_surface(dst, drect)
        .map_err(|_| GlError::InvalidOperation)?;
    let whole = Rect {
        x: 0,
        y: 0,
        width: src.width,
        height: src.height,
    };
    let texels = driver
        .read_surface(src.surface, whole)
        .map_err(|_| GlError::InvalidOperation)?;
    let (sbpp, dbpp) = (src.format.bytes_per_pixel(), dfmt.bytes_per_pixel());
    let at = |x: i64, y: i64| -> Option<&[u8]> {
        if x < 0 || y < 0 || x >= src.width as i64 || y >= src.height as i64 {
            return None;
        }
        let i = (y as usize * src.width as usize + x as usize) * sbpp;
        texels.get(i..i + sbpp)
    };
    let color =
        |x: i64, y: i64| at(x, y).map(|t| src.base.rgba_of_stored(src.format.decode_rgba(t)));
    let scale_x = (s[2] - s[0]) as f64 / (d[2] - d[0]) as f64;
    let scale_y = (s[3] - s[1]) as f64 / (d[3] - d[1]) as f64;
    for py in y0..y1 {
        for px in x0..x1 {
            let fx = s[0] as f64 + (px as f64 + 0.5 - d[0] as f64) * scale_x;
            let fy = s[1] as f64 + (py as f64 + 0.5 - d[1] as f64) * scale_y;
            let (ix, iy) = (fx.floor() as i64, fy.floor() as i64);
            // Source pixels outside the source rectangle are not copied.
            let inside = |v: i64, a: i32, b: i32| v >= a.min(b) as i64 && v < a.max(b) as i64;
            if !inside(ix, s[0], s[2]) || !inside(iy, s[1], s[3]) {
                continue;
            }
            let o = (((py - y0) * drect.width as i64 + (px - x0)) as usize) * dbpp;
            let Some(dp) = out.get_mut(o..o + dbpp) else {
                continue;
            };
            match bit {
                gl::COLOR_BUFFER_BIT => {
                    let c = if linear {
                        let (gx, gy) = (fx - 0.5, fy - 0.5);
                        let (bx, by) = (gx.floor() as i64, gy.floor() as i64);
                        let (wx, wy) = ((gx - bx as f64) as f32, (gy - by as f64) as f32);
                        let clampx = |v: i64| v.clamp(0, src.width as i64 - 1);
                        let clampy = |v: i64| v.clamp(0, src.height as i64 - 1);
                        let t = |x: i64, y: i64| color(clampx(x), clampy(y)).unwrap_or([0.0; 4]);
                        let (a, b) = (t(bx, by), t(bx + 1, by));
                        let (c2, e) = (t(bx, by + 1), t(bx + 1, by + 1));
                        [0, 1, 2, 3].map(|k| {
                            let top = a[k] + (b[k] - a[k]) * wx;
                            let bot = c2[k] + (e[k] - c2[k]) * wx;
                            top + (bot - top) * wy
                        })
                    } else {
                        match color(ix, iy) {
                            Some(c) => c,
                            None => continue,
                        }
                    };
                    dfmt.encode_rgba(c, dp);
                }
                gl::DEPTH_BUFFER_BIT => {
                    if let Some(t) = at(ix, iy) {
                        dfmt.encode_depth(src.format.decode_depth(t), dp);
                    }
                }
                _ => {
                    if let Some(t) = at(ix, iy) {
                        dfmt.encode_stencil(src.format.decode_stencil(t), dp);
                    }
                }
            }
        }
    }
    upload_surface(driver, dst, drect, &out)
}
