//! The texture units: `glActiveTexture` / `glBindTexture`, the integer queries
//! of the bindings, and the draw-time seam [`Context::validate_textures`] that
//! turns the units a program's samplers read into driver sampler views and
//! sampler states (with the 1×1 stand-ins for incomplete textures).

use rgl_backend::driver::{
    SamplerHandle, SamplerView, StateHandle, Swizzle, TexBox, TexTarget, TextureDesc, TextureHandle,
};

use super::{driver_target, ensure_gpu, target_index, SamplerUse, TARGETS};
use crate::error::{GlError, GlResult};
use crate::gl;
use crate::limits;
use crate::names::Texture;
use crate::Context;

impl Context {
    /// `glActiveTexture` (`GL_TEXTURE0 + i`).
    pub fn active_texture(&mut self, unit: u32) {
        match unit.checked_sub(gl::TEXTURE0) {
            Some(i) if i < limits::MAX_COMBINED_TEXTURE_IMAGE_UNITS => {
                self.textures.active_unit = i
            }
            _ => self.record(GlError::InvalidEnum),
        }
    }

    /// `glBindTexture`; `None` binds the default texture. The first bind fixes a
    /// texture's target (`GL_INVALID_OPERATION` when bound to another one later).
    pub fn bind_texture(&mut self, target: u32, texture: Option<Texture>) {
        let Some(ti) = target_index(target) else {
            return self.record(GlError::InvalidEnum);
        };
        if let Some(t) = texture {
            let Some(obj) = self.textures.objects.get_mut(t.name()) else {
                return self.record(GlError::InvalidOperation);
            };
            match obj.target {
                None => obj.set_target(target),
                Some(tt) if tt != target => return self.record(GlError::InvalidOperation),
                Some(_) => {}
            }
        }
        let unit = self.textures.active_unit as usize;
        if let Some(u) = self.textures.units.get_mut(unit) {
            if u[ti] != texture {
                u[ti] = texture;
                self.textures.touch();
            }
        }
    }

    /// A 1×1 (0, 0, 0, 1) driver texture of `target`, for incomplete textures.
    fn dummy_texture(&mut self, ti: usize) -> GlResult<TextureHandle> {
        if let Some(h) = self.textures.dummies[ti] {
            return Ok(h);
        }
        let t = driver_target(TARGETS[ti]);
        let depth = match t {
            TexTarget::Cube => 6,
            _ => 1,
        };
        let desc = TextureDesc {
            target: t,
            format: rgl_backend::format::Format::Rgba8Unorm,
            width: 1,
            height: 1,
            depth,
            levels: 1,
        };
        let h = self
            .driver
            .create_texture(&desc)
            .map_err(|_| GlError::OutOfMemory)?;
        let texels: Vec<u8> = [0u8, 0, 0, 255].repeat(depth as usize);
        let region = TexBox {
            x: 0,
            y: 0,
            z: 0,
            width: 1,
            height: 1,
            depth,
        };
        self.driver
            .texture_upload(h, 0, region, &texels)
            .map_err(|_| GlError::OutOfMemory)?;
        self.textures.dummies[ti] = Some(h);
        Ok(h)
    }

    /// A driver sampler state for `s`, created once per distinct value.
    fn cached_sampler(&mut self, s: &rgl_backend::driver::SamplerState) -> GlResult<SamplerHandle> {
        let key = crate::sampler::sampler_key(s);
        if let Some(h) = self.textures.sampler_cache.get(&key) {
            return Ok(*h);
        }
        if self.textures.sampler_cache.len() >= 4096 {
            // Bound the cache; everything bound is re-created below when used.
            for (_, h) in self.textures.sampler_cache.drain() {
                let _ = self.driver.delete_state(StateHandle::Sampler(h));
            }
        }
        let h = self
            .driver
            .create_sampler_state(s)
            .map_err(|_| GlError::OutOfMemory)?;
        self.textures.sampler_cache.insert(key, h);
        Ok(h)
    }

    /// Binds, for every program sampler index `i`, the texture and sampler of
    /// `samplers[i]` on driver slot `i`. Incomplete or missing textures sample as
    /// (0, 0, 0, 1). Two samplers of different targets on one unit are
    /// `GL_INVALID_OPERATION`. Does nothing when neither the samplers nor any texture
    /// state changed since the last call.
    pub(crate) fn validate_textures(&mut self, samplers: &[SamplerUse]) -> GlResult<()> {
        if let Some((epoch, last)) = &self.textures.validated {
            if *epoch == self.textures.epoch && last[..] == *samplers {
                return Ok(());
            }
        }
        for (i, a) in samplers.iter().enumerate() {
            if samplers[..i]
                .iter()
                .any(|b| b.unit == a.unit && b.target != a.target)
            {
                return Err(GlError::InvalidOperation);
            }
        }
        let generation = self.textures.gpu_generation;
        let mut views = Vec::with_capacity(samplers.len());
        let mut states = Vec::with_capacity(samplers.len());
        self.textures.bound.clear();
        for u in samplers {
            let (view, state) = self.sampler_binding(u)?;
            views.push(Some(view));
            states.push(Some(self.cached_sampler(&state)?));
            self.textures.bound.push((view, state));
        }
        self.driver
            .set_sampler_views(&views)
            .map_err(|_| GlError::InvalidOperation)?;
        self.driver
            .bind_sampler_states(&states)
            .map_err(|_| GlError::InvalidOperation)?;
        if self.textures.gpu_generation != generation {
            // A driver texture was rebuilt or read back: the render targets must be
            // set again (and rendered textures marked again).
            self.framebuffers.invalidate();
        }
        self.textures.validated = Some((self.textures.epoch, samplers.to_vec()));
        Ok(())
    }

    /// Runs [`Context::validate_textures`] for `samplers` (as a draw would) and
    /// describes what each driver slot got: the texture's levels, format, swizzle and
    /// sampler state, or `incomplete` for the (0, 0, 0, 1) stand-in. For tests and
    /// debugging.
    pub fn describe_texture_slots(
        &mut self,
        samplers: &[SamplerUse],
    ) -> Result<Vec<String>, GlError> {
        self.validate_textures(samplers)?;
        let mut out = Vec::new();
        for (i, (view, s)) in self.textures.bound.iter().enumerate() {
            if self.textures.dummies.contains(&Some(view.texture)) {
                out.push(format!("slot {i}: incomplete"));
                continue;
            }
            let desc = self.driver.texture_desc(view.texture).ok();
            let what = desc.map_or("?".to_string(), |d| {
                format!(
                    "{:?} {:?} {}x{}x{} levels {}",
                    d.target, d.format, d.width, d.height, d.depth, d.levels
                )
            });
            out.push(format!(
                "slot {i}: {what} view {}..={} swizzle {:?} wrap {:?} min {:?} mag {:?} \
                 mip {:?} lod [{}, {}] bias {} border {:?} compare {:?}",
                view.first_level,
                view.last_level,
                view.swizzle,
                s.wrap,
                s.min,
                s.mag,
                s.mip,
                s.min_lod,
                s.max_lod,
                s.lod_bias,
                s.border,
                s.compare
            ));
        }
        Ok(out)
    }

    /// The sampler view and sampler state one program sampler gets.
    fn sampler_binding(
        &mut self,
        u: &SamplerUse,
    ) -> GlResult<(SamplerView, rgl_backend::driver::SamplerState)> {
        let ti = target_index(u.target).unwrap_or(1);
        let black = |h| SamplerView {
            texture: h,
            first_level: 0,
            last_level: 0,
            swizzle: Swizzle::IDENTITY,
        };
        if u.unit >= limits::MAX_COMBINED_TEXTURE_IMAGE_UNITS {
            let h = self.dummy_texture(ti)?;
            return Ok((black(h), Default::default()));
        }
        let r = self.textures.bound(u.unit, ti);
        let params = match self.textures.unit_samplers[u.unit as usize] {
            Some(s) => self.textures.samplers.get(s.name()).copied(),
            None => None,
        };
        let driver = &mut *self.driver;
        let mut gen_bump = false;
        let result = match self.textures.get_mut(r) {
            Some(obj) => {
                let params = params.unwrap_or(obj.sampling);
                match obj.complete_range(params.min_filter) {
                    Some((base, last)) => match ensure_gpu(driver, obj, base) {
                        Ok(rebuilt) => {
                            gen_bump = rebuilt;
                            obj.gpu.and_then(|g| {
                                let first = g.driver_level(base)?;
                                let last = g.driver_level(last).unwrap_or(first);
                                let base_fmt = obj.image(0, base)?.ifmt.base;
                                let view = SamplerView {
                                    texture: g.handle,
                                    first_level: first,
                                    last_level: last,
                                    swizzle: crate::sampler::compose_swizzle(
                                        obj.swizzle,
                                        base_fmt.swizzle(if u.float_shadow {
                                            gl::RED
                                        } else {
                                            obj.depth_mode
                                        }),
                                    ),
                                };
                                let shadow = u.shadow && base_fmt.has_depth();
                                Some((view, params.driver_state(shadow)))
                            })
                        }
                        Err(e) => {
                            log::warn!("texture on unit {} unusable: {e}", u.unit);
                            None
                        }
                    },
                    None => None,
                }
            }
            None => None,
        };
        if gen_bump {
            self.textures.gpu_generation += 1;
        }
        match result {
            Some(b) => Ok(b),
            None => {
                let h = self.dummy_texture(ti)?;
                Ok((black(h), Default::default()))
            }
        }
    }

    /// Integer queries of texture bindings (`get_parameter_i32` forwards here).
    pub(crate) fn texture_binding_parameter(&self, pname: u32) -> Option<i32> {
        let unit = self.textures.active_unit;
        let named = |target: u32| {
            let ti = target_index(target)?;
            Some(
                self.textures
                    .units
                    .get(unit as usize)
                    .and_then(|u| u[ti])
                    .map_or(0, |t| t.name()) as i32,
            )
        };
        match pname {
            gl::ACTIVE_TEXTURE => Some((gl::TEXTURE0 + unit) as i32),
            gl::TEXTURE_BINDING_1D => named(gl::TEXTURE_1D),
            gl::TEXTURE_BINDING_2D => named(gl::TEXTURE_2D),
            gl::TEXTURE_BINDING_3D => named(gl::TEXTURE_3D),
            gl::TEXTURE_BINDING_CUBE_MAP => named(gl::TEXTURE_CUBE_MAP),
            gl::TEXTURE_BINDING_RECTANGLE => named(gl::TEXTURE_RECTANGLE),
            gl::TEXTURE_BINDING_1D_ARRAY => named(gl::TEXTURE_1D_ARRAY),
            gl::TEXTURE_BINDING_2D_ARRAY => named(gl::TEXTURE_2D_ARRAY),
            gl::SAMPLER_BINDING => Some(
                self.textures
                    .unit_samplers
                    .get(unit as usize)
                    .copied()
                    .flatten()
                    .map_or(0, |s| s.name()) as i32,
            ),
            _ => None,
        }
    }
}

impl Context {
    /// `get_parameter_i32` values of the texture, sampler, pixel-store, renderbuffer
    /// and framebuffer state (`None`: not one of these).
    pub(crate) fn texture_parameter_i32(&mut self, pname: u32) -> Option<i32> {
        self.texture_binding_parameter(pname)
            .or_else(|| self.pixel_store_parameter(pname))
            .or_else(|| self.framebuffer_parameter(pname))
    }
}
