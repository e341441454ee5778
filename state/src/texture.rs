//! Texture objects and the texture units: names and bindings (`glBindTexture`,
//! `glActiveTexture`), image specification (`glTexImage*`, `glTexSubImage*`,
//! `glTexStorage*`), and the driver textures built from them.
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
    SamplerHandle, SamplerView, StateHandle, Swizzle, TexBox, TexTarget, TextureDesc, TextureHandle,
};
use rgl_backend::Driver;

use crate::error::{GlError, GlResult};
use crate::gl;
use crate::limits;
use crate::names::{NameTable, Sampler, Texture};
use crate::pixels::{self, InternalFormat, PixelStore};
use crate::sampler::SamplerParams;
use crate::Context;

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
    /// The texture bound to `target` on the active unit (`GL_INVALID_ENUM` for a
    /// target that is not a texture target).
    pub(crate) fn bound_texture_ref(&self, target: u32) -> GlResult<TexRef> {
        let ti = target_index(target).ok_or(GlError::InvalidEnum)?;
        Ok(self.textures.bound(self.textures.active_unit, ti))
    }

    /// `glGenTextures` (one name; the object takes its target at the first bind).
    pub fn create_texture(&mut self) -> Result<Texture, String> {
        match self.textures.objects.insert(TextureObject::new(None)) {
            Some(n) => Ok(Texture(n)),
            None => {
                self.record(GlError::OutOfMemory);
                Err("out of texture names".into())
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

    /// `glTexImage2D` (2D, rectangle, 1D array and cube face targets).
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
        let data = pixels::unpack_image(
            &self.textures.pixel_store.unpack,
            &cf,
            &ifmt,
            size,
            a.pixels,
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
        let texels = pixels::unpack_image(
            &self.textures.pixel_store.unpack,
            &cf,
            &ifmt,
            (region.width, region.height, region.depth),
            Some(a.pixels),
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
            swizzle: [Swizzle::R, Swizzle::G, Swizzle::B, Swizzle::A],
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
