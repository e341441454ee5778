//! Texture objects and the texture units: names and bindings (`glBindTexture`,
//! `glActiveTexture`), image specification (`glTexImage*`, `glTexSubImage*`,
//! `glTexStorage*`), and the driver textures built from them.
//!
//! This module owns the objects (names, images, completeness, the driver
//! texture of each); `units` the unit bindings and the draw-time validation;
//! `image` the image specification calls.
//!
//! Storage model: the state tracker keeps every level of every face as tightly
//! packed texels in the driver format ([`Image`]), because GL lets each level be
//! respecified on its own, in any order and size. The driver texture
//! ([`GpuTexture`]) holds one consistent mip chain of those levels and is (re)built
//! lazily, when a draw samples the texture or renders into it and the layout changed
//! (`dirty`). Sub-image updates go to both copies without a rebuild.
//!
//! Rendering into a texture (it is attached to the bound draw framebuffer when a draw
//! or clear is validated) makes the driver texture authoritative: the object is
//! marked `rendered`, and anything that needs the state-side texels (a rebuild, a
//! partial upload, `glGenerateMipmap`, `glGetTexImage`) first reads the driver levels
//! back ([`sync_back`]). Sampling after rendering uses the driver texture directly, so
//! it always sees the rendered texels.
//!
//! The seam the draw path uses is [`Context::validate_textures`]: it turns the texture
//! units the current program's samplers read into driver sampler views and sampler
//! states (cached by value). Texture parameters and sampler objects live in
//! [`crate::sampler`]; pixel conversions in [`crate::pixels`].

use std::collections::HashMap;

use rgl_backend::driver::{
    SamplerHandle, SamplerView, TexBox, TexTarget, TextureDesc, TextureHandle,
};
use rgl_backend::Driver;

use crate::error::{CreateError, GlError, GlResult};
use crate::gl;
use crate::limits;
use crate::names::{NameTable, Sampler, Texture};
use crate::pixels::{InternalFormat, PixelStore};
use crate::sampler::SamplerParams;
use crate::Context;

mod image;
mod units;

/// What one program sampler reads: its texture unit and the target and shadow-ness of
/// its GLSL sampler type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SamplerUse {
    /// Texture unit (`glUniform1i` value).
    pub unit: u32,
    /// GL texture target of the sampler type (`GL_TEXTURE_2D`, ...).
    pub target: u32,
    /// A shadow sampler.
    pub shadow: bool,
    /// Its lookups return the comparison as a float (GLSL 1.30 / ES 3.00 and
    /// later), so `GL_DEPTH_TEXTURE_MODE` does not apply, as in Mesa.
    pub float_shadow: bool,
}

/// The texture targets, in the order of a unit's binding slots.
pub(crate) const TARGETS: [u32; 7] = [
    gl::TEXTURE_1D,
    gl::TEXTURE_2D,
    gl::TEXTURE_3D,
    gl::TEXTURE_CUBE_MAP,
    gl::TEXTURE_RECTANGLE,
    gl::TEXTURE_1D_ARRAY,
    gl::TEXTURE_2D_ARRAY,
];

/// Index of a texture target in [`TARGETS`].
pub(crate) fn target_index(target: u32) -> Option<usize> {
    TARGETS.iter().position(|&t| t == target)
}

/// The driver target of a GL texture target.
fn driver_target(target: u32) -> TexTarget {
    match target {
        gl::TEXTURE_1D => TexTarget::D1,
        gl::TEXTURE_3D => TexTarget::D3,
        gl::TEXTURE_CUBE_MAP => TexTarget::Cube,
        gl::TEXTURE_RECTANGLE => TexTarget::Rect,
        gl::TEXTURE_1D_ARRAY => TexTarget::D1Array,
        gl::TEXTURE_2D_ARRAY => TexTarget::D2Array,
        _ => TexTarget::D2,
    }
}

/// Largest mip level index for a target (`log2` of its maximum size).
fn max_level_of(target: u32) -> u32 {
    let size = match target {
        gl::TEXTURE_3D => limits::MAX_3D_TEXTURE_SIZE,
        gl::TEXTURE_RECTANGLE => return 0,
        _ => limits::MAX_TEXTURE_SIZE,
    };
    31 - size.leading_zeros()
}

/// Largest number of bytes one texture image may take; larger is `GL_OUT_OF_MEMORY`.
const MAX_IMAGE_BYTES: u64 = 1 << 30;

/// One image: a mip level of one face, texels tightly packed in the driver format
/// (rows bottom-up; slices / layers after each other; 1D arrays keep layers as rows).
#[derive(Clone, Debug)]
pub(crate) struct Image {
    /// Internal format.
    pub ifmt: InternalFormat,
    /// Width.
    pub width: u32,
    /// Height (layers of a 1D array).
    pub height: u32,
    /// Depth (3D slices, 2D array layers).
    pub depth: u32,
    /// Texels.
    pub data: Vec<u8>,
}

impl Image {
    fn dims(&self) -> (u32, u32, u32) {
        (self.width, self.height, self.depth)
    }
}

/// The driver texture of a texture object: GL level `anchor + k` is driver level `k`.
#[derive(Copy, Clone, Debug)]
pub(crate) struct GpuTexture {
    /// Driver texture.
    pub handle: TextureHandle,
    /// Its creation parameters.
    pub desc: TextureDesc,
    /// GL level of driver level 0.
    pub anchor: u32,
}

impl GpuTexture {
    /// The driver level holding GL level `level`, when the driver texture has it.
    pub fn driver_level(&self, level: u32) -> Option<u32> {
        let k = level.checked_sub(self.anchor)?;
        (k < self.desc.levels).then_some(k)
    }
}

/// A texture object.
#[derive(Clone, Debug)]
pub struct TextureObject {
    /// Target, fixed by the first bind.
    pub(crate) target: Option<u32>,
    /// Images by face (6 for cube maps, else 1), then level.
    pub(crate) images: Vec<Vec<Option<Image>>>,
    /// Sampling state (used when no sampler object is bound to the unit).
    pub(crate) sampling: SamplerParams,
    /// `GL_TEXTURE_BASE_LEVEL`.
    pub(crate) base_level: u32,
    /// `GL_TEXTURE_MAX_LEVEL`.
    pub(crate) max_level: u32,
    /// `GL_TEXTURE_SWIZZLE_R/G/B/A`.
    pub(crate) swizzle: [u32; 4],
    /// `GL_DEPTH_TEXTURE_MODE` (compatibility profile; `GL_LUMINANCE` initially).
    pub(crate) depth_mode: u32,
    /// Level count of a `glTexStorage*` texture.
    pub(crate) immutable_levels: Option<u32>,
    /// The driver texture.
    pub(crate) gpu: Option<GpuTexture>,
    /// The image layout changed since `gpu` was built.
    pub(crate) dirty: bool,
    /// The driver texture may hold rendered texels the images lack.
    pub(crate) rendered: bool,
}

impl TextureObject {
    fn new(target: Option<u32>) -> TextureObject {
        let mut t = TextureObject {
            target: None,
            images: Vec::new(),
            sampling: SamplerParams::default(),
            base_level: 0,
            max_level: 1000,
            swizzle: [gl::RED, gl::GREEN, gl::BLUE, gl::ALPHA],
            depth_mode: gl::LUMINANCE,
            immutable_levels: None,
            gpu: None,
            dirty: true,
            rendered: false,
        };
        if let Some(target) = target {
            t.set_target(target);
        }
        t
    }

    fn set_target(&mut self, target: u32) {
        self.target = Some(target);
        let faces = if target == gl::TEXTURE_CUBE_MAP { 6 } else { 1 };
        self.images = vec![Vec::new(); faces];
        if target == gl::TEXTURE_RECTANGLE {
            // Rectangle textures start with non-mipmapped, clamped sampling.
            self.sampling.min_filter = gl::LINEAR;
            self.sampling.wrap = [gl::CLAMP_TO_EDGE; 3];
        }
    }

    /// The image of `face` at `level`.
    pub(crate) fn image(&self, face: usize, level: u32) -> Option<&Image> {
        self.images.get(face)?.get(level as usize)?.as_ref()
    }

    fn image_mut(&mut self, face: usize, level: u32) -> Option<&mut Image> {
        self.images.get_mut(face)?.get_mut(level as usize)?.as_mut()
    }

    pub(crate) fn set_image(&mut self, face: usize, level: u32, image: Option<Image>) {
        if let Some(f) = self.images.get_mut(face) {
            if f.len() <= level as usize {
                f.resize(level as usize + 1, None);
            }
            f[level as usize] = image;
        }
    }

    /// Base and max level, clamped as GL does for immutable textures.
    pub(crate) fn level_range(&self) -> (u32, u32) {
        match self.immutable_levels {
            Some(n) => {
                let base = self.base_level.min(n - 1);
                (base, self.max_level.clamp(base, n - 1))
            }
            None => (self.base_level, self.max_level),
        }
    }

    /// Size of level `level` in a chain whose level `anchor` is `dims`.
    pub(crate) fn mip_dims(&self, dims: (u32, u32, u32), k: u32) -> (u32, u32, u32) {
        let m = |v: u32| (v >> k.min(31)).max(1);
        match self.target {
            Some(gl::TEXTURE_1D) => (m(dims.0), 1, 1),
            Some(gl::TEXTURE_1D_ARRAY) => (m(dims.0), dims.1, 1),
            Some(gl::TEXTURE_3D) => (m(dims.0), m(dims.1), m(dims.2)),
            Some(gl::TEXTURE_2D_ARRAY) => (m(dims.0), m(dims.1), dims.2),
            _ => (m(dims.0), m(dims.1), 1),
        }
    }

    /// Size of GL level `level` in the driver texture `g`.
    fn gpu_level_dims(&self, g: &GpuTexture, level: u32) -> (u32, u32, u32) {
        let d = &g.desc;
        let dims = match d.target {
            TexTarget::Cube => (d.width, d.height, 1),
            _ => (d.width, d.height, d.depth),
        };
        self.mip_dims(dims, level.saturating_sub(g.anchor))
    }

    /// Number of levels a full chain from an image of size `dims` has.
    pub(crate) fn chain_len(&self, dims: (u32, u32, u32)) -> u32 {
        let max = match self.target {
            Some(gl::TEXTURE_RECTANGLE) => return 1,
            Some(gl::TEXTURE_1D | gl::TEXTURE_1D_ARRAY) => dims.0,
            Some(gl::TEXTURE_3D) => dims.0.max(dims.1).max(dims.2),
            _ => dims.0.max(dims.1),
        };
        32 - max.max(1).leading_zeros()
    }

    /// The levels `(base, last)` a sampler with `min_filter` reads, or `None` when the
    /// texture is incomplete for it (GL 3.3 §3.8.14).
    pub(crate) fn complete_range(&self, min_filter: u32) -> Option<(u32, u32)> {
        let target = self.target?;
        let (base, max) = self.level_range();
        if base > max || (target == gl::TEXTURE_RECTANGLE && base != 0) {
            return None;
        }
        let first = self.image(0, base)?;
        let dims = first.dims();
        if dims.0 == 0 || dims.1 == 0 || dims.2 == 0 {
            return None;
        }
        let same = |img: Option<&Image>, d: (u32, u32, u32)| {
            img.is_some_and(|i| i.dims() == d && i.ifmt == first.ifmt)
        };
        if target == gl::TEXTURE_CUBE_MAP
            && (dims.0 != dims.1 || !(1..6).all(|f| same(self.image(f, base), dims)))
        {
            return None;
        }
        let mipmapped = !matches!(min_filter, gl::NEAREST | gl::LINEAR);
        if !mipmapped {
            return Some((base, base));
        }
        let q = (base + self.chain_len(dims) - 1).min(max);
        for level in base + 1..=q {
            let d = self.mip_dims(dims, level - base);
            if !(0..self.images.len()).all(|f| same(self.image(f, level), d)) {
                return None;
            }
        }
        Some((base, q))
    }

    /// The chain of consistent levels starting at `anchor`: its reference image
    /// (format and size) and length.
    fn chain_from(&self, anchor: u32) -> Option<(InternalFormat, (u32, u32, u32), u32)> {
        let first = (0..self.images.len())
            .filter_map(|f| self.image(f, anchor))
            .find(|i| i.width > 0 && i.height > 0 && i.depth > 0)?;
        let (ifmt, dims) = (first.ifmt, first.dims());
        if self.target == Some(gl::TEXTURE_CUBE_MAP) && dims.0 != dims.1 {
            return None;
        }
        let mut n = 1;
        while n < self.chain_len(dims) {
            let d = self.mip_dims(dims, n);
            let ok = (0..self.images.len()).any(|f| {
                self.image(f, anchor + n)
                    .is_some_and(|i| i.dims() == d && i.ifmt == ifmt)
            });
            if !ok {
                break;
            }
            n += 1;
        }
        Some((ifmt, dims, n))
    }
}

/// The object a unit binding refers to: a named texture, or the default texture
/// (name 0) of a target.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum TexRef {
    /// Texture 0 of target `TARGETS[i]`.
    Default(usize),
    /// A named texture.
    Named(Texture),
}

/// Texture objects, sampler objects, unit bindings and the pixel storage modes.
#[derive(Debug)]
pub struct TextureState {
    /// Named texture objects.
    pub(crate) objects: NameTable<TextureObject>,
    /// The default textures (name 0), one per target.
    pub(crate) defaults: Vec<TextureObject>,
    /// `glActiveTexture` unit index.
    pub(crate) active_unit: u32,
    /// Per unit, per target ([`TARGETS`] order) bindings.
    pub(crate) units: Vec<[Option<Texture>; 7]>,
    /// Sampler objects.
    pub(crate) samplers: NameTable<SamplerParams>,
    /// Per unit sampler object bindings.
    pub(crate) unit_samplers: Vec<Option<Sampler>>,
    /// `glPixelStorei` state.
    pub(crate) pixel_store: PixelStore,
    /// Bumped by every change that affects what draws sample.
    pub(crate) epoch: u64,
    /// Bumped whenever a driver texture is replaced or read back (framebuffer
    /// validation caches depend on it).
    pub(crate) gpu_generation: u64,
    /// The epoch and sampler list of the last successful `validate_textures`.
    validated: Option<(u64, Vec<SamplerUse>)>,
    /// Driver sampler states by value.
    sampler_cache: HashMap<[u32; 14], SamplerHandle>,
    /// 1×1 (0, 0, 0, 1) textures per target, for incomplete textures.
    dummies: [Option<TextureHandle>; 7],
    /// What the last validation bound per slot (for [`Context::describe_texture_slots`]).
    bound: Vec<(SamplerView, rgl_backend::driver::SamplerState)>,
}

impl Default for TextureState {
    fn default() -> Self {
        let units = limits::MAX_COMBINED_TEXTURE_IMAGE_UNITS as usize;
        TextureState {
            objects: NameTable::default(),
            defaults: TARGETS
                .iter()
                .map(|&t| TextureObject::new(Some(t)))
                .collect(),
            active_unit: 0,
            units: vec![[None; 7]; units],
            samplers: NameTable::default(),
            unit_samplers: vec![None; units],
            pixel_store: PixelStore::default(),
            epoch: 0,
            gpu_generation: 0,
            validated: None,
            sampler_cache: HashMap::new(),
            dummies: [None; 7],
            bound: Vec::new(),
        }
    }
}

impl TextureState {
    /// The object `r` names.
    pub(crate) fn get(&self, r: TexRef) -> Option<&TextureObject> {
        match r {
            TexRef::Default(i) => self.defaults.get(i),
            TexRef::Named(t) => self.objects.get(t.name()),
        }
    }

    /// The object `r` names, mutably.
    pub(crate) fn get_mut(&mut self, r: TexRef) -> Option<&mut TextureObject> {
        match r {
            TexRef::Default(i) => self.defaults.get_mut(i),
            TexRef::Named(t) => self.objects.get_mut(t.name()),
        }
    }

    /// The texture bound to target slot `ti` of `unit`.
    pub(crate) fn bound(&self, unit: u32, ti: usize) -> TexRef {
        match self.units.get(unit as usize).and_then(|u| u[ti]) {
            Some(t) => TexRef::Named(t),
            None => TexRef::Default(ti),
        }
    }

    /// Something that affects sampling changed.
    pub(crate) fn touch(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
    }
}

/// Reads the driver texture's levels back into the images when rendering may have
/// changed them. Returns true when it did: the caller bumps
/// [`TextureState::gpu_generation`] so the draw framebuffer is validated again (and
/// marks the texture rendered again when it is still attached).
pub(crate) fn sync_back(driver: &mut dyn Driver, obj: &mut TextureObject) -> bool {
    if !obj.rendered {
        return false;
    }
    obj.rendered = false;
    let Some(g) = obj.gpu else { return true };
    let cube = obj.target == Some(gl::TEXTURE_CUBE_MAP);
    for k in 0..g.desc.levels {
        for face in 0..obj.images.len() {
            let Some(img) = obj.image_mut(face, g.anchor + k) else {
                continue;
            };
            if img.ifmt.format != g.desc.format {
                continue;
            }
            let (w, h, d) = img.dims();
            let region = TexBox {
                x: 0,
                y: 0,
                z: if cube { face as u32 } else { 0 },
                width: w,
                height: h,
                depth: d,
            };
            match driver.texture_read(g.handle, k, region) {
                Ok(data) if data.len() == img.data.len() => img.data = data,
                Ok(_) => {}
                // A level the chain does not hold at this size: keep the images.
                Err(e) => log::debug!("texture read-back of level {}: {e}", g.anchor + k),
            }
        }
    }
    true
}

/// Makes sure the driver texture exists, matches the images and holds GL level
/// `level`; rebuilds it otherwise. Returns whether it was (re)built.
pub(crate) fn ensure_gpu(
    driver: &mut dyn Driver,
    obj: &mut TextureObject,
    level: u32,
) -> GlResult<bool> {
    if let Some(g) = &obj.gpu {
        if !obj.dirty && g.driver_level(level).is_some() {
            return Ok(false);
        }
    }
    let target = obj.target.ok_or(GlError::InvalidOperation)?;
    let (base, _) = obj.level_range();
    let mut choice = None;
    for anchor in [0, base.min(level), level] {
        if let Some((ifmt, dims, n)) = obj.chain_from(anchor) {
            if level >= anchor && level < anchor + n {
                choice = Some((anchor, ifmt, dims, n));
                break;
            }
        }
    }
    let (anchor, ifmt, dims, levels) = choice.ok_or(GlError::InvalidOperation)?;
    let t = driver_target(target);
    let (width, height, depth) = match t {
        TexTarget::Cube => (dims.0, dims.1, 6),
        _ => dims,
    };
    let desc = TextureDesc {
        target: t,
        format: ifmt.format,
        width,
        height,
        depth,
        levels,
    };
    let handle = driver.create_texture(&desc).map_err(|e| {
        log::error!("cannot create a driver texture {desc:?}: {e}");
        GlError::OutOfMemory
    })?;
    // Rendered texels must reach the images before they are uploaded again.
    sync_back(driver, obj);
    for k in 0..levels {
        let d = obj.mip_dims(dims, k);
        for face in 0..obj.images.len() {
            let Some(img) = obj.image(face, anchor + k) else {
                continue;
            };
            if img.dims() != d || img.ifmt != ifmt {
                continue;
            }
            let region = TexBox {
                x: 0,
                y: 0,
                z: if t == TexTarget::Cube { face as u32 } else { 0 },
                width: d.0,
                height: d.1,
                depth: d.2,
            };
            if let Err(e) = driver.texture_upload(handle, k, region, &img.data) {
                log::error!("texture upload: {e}");
            }
        }
    }
    if let Some(old) = obj.gpu.take() {
        let _ = driver.delete_texture(old.handle);
    }
    obj.gpu = Some(GpuTexture {
        handle,
        desc,
        anchor,
    });
    obj.dirty = false;
    Ok(true)
}

impl Context {
    /// The texture bound to `target` on the active unit (`GL_INVALID_ENUM` for a
    /// target that is not a texture target).
    pub(crate) fn bound_texture_ref(&self, target: u32) -> GlResult<TexRef> {
        let ti = target_index(target).ok_or(GlError::InvalidEnum)?;
        Ok(self.textures.bound(self.textures.active_unit, ti))
    }

    /// `glGenTextures` (one name; the object takes its target at the first bind).
    pub fn create_texture(&mut self) -> Result<Texture, CreateError> {
        match self.textures.objects.insert(TextureObject::new(None)) {
            Some(n) => Ok(Texture(n)),
            None => {
                self.record(GlError::OutOfMemory);
                Err(CreateError::OutOfNames("texture"))
            }
        }
    }

    /// `glIsTexture`: a name that has been bound to a target.
    pub fn is_texture(&self, texture: Texture) -> bool {
        self.textures
            .objects
            .get(texture.name())
            .is_some_and(|t| t.target.is_some())
    }

    /// `glDeleteTextures` (one name): unbinds it from every unit and framebuffer.
    pub fn delete_texture(&mut self, texture: Texture) {
        let Some(obj) = self.textures.objects.remove(texture.name()) else {
            return;
        };
        for unit in self.textures.units.iter_mut() {
            for slot in unit.iter_mut() {
                if *slot == Some(texture) {
                    *slot = None;
                }
            }
        }
        self.detach_texture_everywhere(texture);
        if let Some(g) = obj.gpu {
            let _ = self.driver.delete_texture(g.handle);
        }
        self.textures.touch();
        self.textures.gpu_generation += 1;
    }

    /// The bound texture of `target` and its driver texture holding GL `level`, built
    /// when needed (for framebuffer attachments and copies).
    pub(crate) fn texture_gpu(&mut self, texture: Texture, level: u32) -> GlResult<GpuTexture> {
        let driver = &mut *self.driver;
        let obj = self
            .textures
            .objects
            .get_mut(texture.name())
            .ok_or(GlError::InvalidOperation)?;
        if ensure_gpu(driver, obj, level)? {
            self.textures.gpu_generation += 1;
        }
        obj.gpu.ok_or(GlError::InvalidOperation)
    }
}
