//! Sampling state: texture parameters (`glTexParameter*`, `glGetTexParameter*`),
//! sampler objects (`glGenSamplers`, `glBindSampler`, `glSamplerParameter*`), and
//! their translation into the driver's [`SamplerState`].
//!
//! A sampler object bound to a unit replaces the texture's sampling parameters
//! (filters, wraps, LOD clamps and bias, border color, compare mode); the texture keeps
//! its base/max level, swizzle and depth texture mode.

use rgl_backend::driver::{CompareFunc, Swizzle};
use rgl_backend::driver::{Filter, MipFilter, SamplerState, Wrap};

use crate::error::{CreateError, GlError, GlResult};
use crate::gl;
use crate::limits;
use crate::names::Sampler;
use crate::texture::{target_index, TexRef};
use crate::Context;

/// Sampling parameters shared by texture and sampler objects.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SamplerParams {
    /// `GL_TEXTURE_MIN_FILTER`.
    pub min_filter: u32,
    /// `GL_TEXTURE_MAG_FILTER`.
    pub mag_filter: u32,
    /// `GL_TEXTURE_WRAP_S/T/R`.
    pub wrap: [u32; 3],
    /// `GL_TEXTURE_BORDER_COLOR`.
    pub border: [f32; 4],
    /// `GL_TEXTURE_MIN_LOD`.
    pub min_lod: f32,
    /// `GL_TEXTURE_MAX_LOD`.
    pub max_lod: f32,
    /// `GL_TEXTURE_LOD_BIAS`.
    pub lod_bias: f32,
    /// `GL_TEXTURE_COMPARE_MODE`.
    pub compare_mode: u32,
    /// `GL_TEXTURE_COMPARE_FUNC`.
    pub compare_func: u32,
}

impl Default for SamplerParams {
    fn default() -> Self {
        SamplerParams {
            min_filter: gl::NEAREST_MIPMAP_LINEAR,
            mag_filter: gl::LINEAR,
            wrap: [gl::REPEAT; 3],
            border: [0.0; 4],
            min_lod: -1000.0,
            max_lod: 1000.0,
            lod_bias: 0.0,
            compare_mode: gl::NONE,
            compare_func: gl::LEQUAL,
        }
    }
}

fn wrap_of(w: u32) -> Wrap {
    match w {
        gl::CLAMP => Wrap::Clamp,
        gl::CLAMP_TO_EDGE => Wrap::ClampToEdge,
        gl::CLAMP_TO_BORDER => Wrap::ClampToBorder,
        gl::MIRRORED_REPEAT => Wrap::MirroredRepeat,
        gl::MIRROR_CLAMP_TO_EDGE => Wrap::MirrorClampToEdge,
        _ => Wrap::Repeat,
    }
}

/// The driver compare function of a GL compare function enum.
pub(crate) fn compare_func(f: u32) -> Option<CompareFunc> {
    Some(match f {
        gl::NEVER => CompareFunc::Never,
        gl::LESS => CompareFunc::Less,
        gl::EQUAL => CompareFunc::Equal,
        gl::LEQUAL => CompareFunc::LessEqual,
        gl::GREATER => CompareFunc::Greater,
        gl::NOTEQUAL => CompareFunc::NotEqual,
        gl::GEQUAL => CompareFunc::GreaterEqual,
        gl::ALWAYS => CompareFunc::Always,
        _ => return None,
    })
}

impl SamplerParams {
    /// The driver sampler state; `shadow`: a shadow sampler reading a depth texture
    /// (the compare function applies when `GL_TEXTURE_COMPARE_MODE` is
    /// `GL_COMPARE_REF_TO_TEXTURE`).
    pub(crate) fn driver_state(&self, shadow: bool) -> SamplerState {
        let filter = |f: u32| match f {
            gl::NEAREST | gl::NEAREST_MIPMAP_NEAREST | gl::NEAREST_MIPMAP_LINEAR => Filter::Nearest,
            _ => Filter::Linear,
        };
        let mip = match self.min_filter {
            gl::NEAREST_MIPMAP_NEAREST | gl::LINEAR_MIPMAP_NEAREST => MipFilter::Nearest,
            gl::NEAREST_MIPMAP_LINEAR | gl::LINEAR_MIPMAP_LINEAR => MipFilter::Linear,
            _ => MipFilter::None,
        };
        SamplerState {
            wrap: self.wrap.map(wrap_of),
            mag: filter(self.mag_filter),
            min: filter(self.min_filter),
            mip,
            lod_bias: self.lod_bias,
            min_lod: self.min_lod,
            max_lod: self.max_lod,
            border: self.border,
            compare: if shadow && self.compare_mode == gl::COMPARE_REF_TO_TEXTURE {
                compare_func(self.compare_func)
            } else {
                None
            },
        }
    }
}

/// A hashable key of a driver sampler state (float fields by bits).
pub(crate) fn sampler_key(s: &SamplerState) -> [u32; 14] {
    let wrap = |w: Wrap| w as u32;
    [
        wrap(s.wrap[0]),
        wrap(s.wrap[1]),
        wrap(s.wrap[2]),
        s.mag as u32,
        s.min as u32,
        s.mip as u32,
        s.lod_bias.to_bits(),
        s.min_lod.to_bits(),
        s.max_lod.to_bits(),
        s.border[0].to_bits(),
        s.border[1].to_bits(),
        s.border[2].to_bits(),
        s.border[3].to_bits(),
        s.compare.map_or(u32::MAX, |f| f as u32),
    ]
}

/// Applies the texture's `GL_TEXTURE_SWIZZLE_*` on top of the format's swizzle.
pub(crate) fn compose_swizzle(user: [u32; 4], base: [Swizzle; 4]) -> [Swizzle; 4] {
    user.map(|s| match s {
        gl::RED => base[0],
        gl::GREEN => base[1],
        gl::BLUE => base[2],
        gl::ALPHA => base[3],
        gl::ZERO => Swizzle::Zero,
        _ => Swizzle::One,
    })
}

/// Parameter values as the application passed them.
#[derive(Copy, Clone, Debug)]
enum Values<'a> {
    I(&'a [i32]),
    F(&'a [f32]),
}

impl Values<'_> {
    fn len(&self) -> usize {
        match self {
            Values::I(v) => v.len(),
            Values::F(v) => v.len(),
        }
    }
    /// Value `i` as an integer (floats round to nearest).
    fn int(&self, i: usize) -> i64 {
        match self {
            Values::I(v) => v.get(i).copied().unwrap_or(0) as i64,
            Values::F(v) => {
                let f = v.get(i).copied().unwrap_or(0.0);
                if f.is_nan() {
                    0
                } else {
                    f.round() as i64
                }
            }
        }
    }
    /// Value `i` as a float.
    fn float(&self, i: usize) -> f32 {
        match self {
            Values::I(v) => v.get(i).copied().unwrap_or(0) as f32,
            Values::F(v) => v.get(i).copied().unwrap_or(0.0),
        }
    }
    /// Value `i` as a color component (integers map to [-1, 1]).
    fn color(&self, i: usize) -> f32 {
        match self {
            Values::I(v) => {
                let x = v.get(i).copied().unwrap_or(0);
                (x as f64 / i32::MAX as f64).max(-1.0) as f32
            }
            Values::F(v) => v.get(i).copied().unwrap_or(0.0),
        }
    }
    /// Value `i` as an enum (`GL_INVALID_ENUM` when it is not one).
    fn enum_at(&self, i: usize) -> u32 {
        let v = self.int(i);
        u32::try_from(v).unwrap_or(u32::MAX)
    }
}

const VECTOR_PARAMS: [u32; 2] = [gl::TEXTURE_BORDER_COLOR, gl::TEXTURE_SWIZZLE_RGBA];

/// Sets one sampling parameter. `rect`: the object is a rectangle texture (which
/// rejects mipmap filters and repeating wraps). Returns `Ok(false)` for a pname that
/// is not a sampling parameter.
fn set_sampling(p: &mut SamplerParams, pname: u32, v: Values<'_>, rect: bool) -> GlResult<bool> {
    if v.len() == 0 {
        return Err(GlError::InvalidValue);
    }
    match pname {
        gl::TEXTURE_MIN_FILTER => {
            let f = v.enum_at(0);
            let ok = match f {
                gl::NEAREST | gl::LINEAR => true,
                gl::NEAREST_MIPMAP_NEAREST
                | gl::LINEAR_MIPMAP_NEAREST
                | gl::NEAREST_MIPMAP_LINEAR
                | gl::LINEAR_MIPMAP_LINEAR => !rect,
                _ => false,
            };
            if !ok {
                return Err(GlError::InvalidEnum);
            }
            p.min_filter = f;
        }
        gl::TEXTURE_MAG_FILTER => match v.enum_at(0) {
            f @ (gl::NEAREST | gl::LINEAR) => p.mag_filter = f,
            _ => return Err(GlError::InvalidEnum),
        },
        gl::TEXTURE_WRAP_S | gl::TEXTURE_WRAP_T | gl::TEXTURE_WRAP_R => {
            let w = v.enum_at(0);
            let ok = match w {
                gl::CLAMP | gl::CLAMP_TO_EDGE | gl::CLAMP_TO_BORDER => true,
                gl::REPEAT | gl::MIRRORED_REPEAT | gl::MIRROR_CLAMP_TO_EDGE => !rect,
                _ => false,
            };
            if !ok {
                return Err(GlError::InvalidEnum);
            }
            let i = match pname {
                gl::TEXTURE_WRAP_S => 0,
                gl::TEXTURE_WRAP_T => 1,
                _ => 2,
            };
            p.wrap[i] = w;
        }
        gl::TEXTURE_BORDER_COLOR => {
            if v.len() < 4 {
                return Err(GlError::InvalidValue);
            }
            p.border = [0, 1, 2, 3].map(|i| v.color(i));
        }
        gl::TEXTURE_MIN_LOD => p.min_lod = v.float(0),
        gl::TEXTURE_MAX_LOD => p.max_lod = v.float(0),
        gl::TEXTURE_LOD_BIAS => p.lod_bias = v.float(0),
        gl::TEXTURE_COMPARE_MODE => match v.enum_at(0) {
            m @ (gl::NONE | gl::COMPARE_REF_TO_TEXTURE) => p.compare_mode = m,
            _ => return Err(GlError::InvalidEnum),
        },
        gl::TEXTURE_COMPARE_FUNC => {
            let f = v.enum_at(0);
            if compare_func(f).is_none() {
                return Err(GlError::InvalidEnum);
            }
            p.compare_func = f;
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// Reads one sampling parameter as floats (`None`: not a sampling parameter).
fn get_sampling(p: &SamplerParams, pname: u32) -> Option<Vec<f32>> {
    Some(match pname {
        gl::TEXTURE_MIN_FILTER => vec![p.min_filter as f32],
        gl::TEXTURE_MAG_FILTER => vec![p.mag_filter as f32],
        gl::TEXTURE_WRAP_S => vec![p.wrap[0] as f32],
        gl::TEXTURE_WRAP_T => vec![p.wrap[1] as f32],
        gl::TEXTURE_WRAP_R => vec![p.wrap[2] as f32],
        gl::TEXTURE_BORDER_COLOR => p.border.to_vec(),
        gl::TEXTURE_MIN_LOD => vec![p.min_lod],
        gl::TEXTURE_MAX_LOD => vec![p.max_lod],
        gl::TEXTURE_LOD_BIAS => vec![p.lod_bias],
        gl::TEXTURE_COMPARE_MODE => vec![p.compare_mode as f32],
        gl::TEXTURE_COMPARE_FUNC => vec![p.compare_func as f32],
        _ => return None,
    })
}

fn is_swizzle(s: u32) -> bool {
    matches!(
        s,
        gl::RED | gl::GREEN | gl::BLUE | gl::ALPHA | gl::ZERO | gl::ONE
    )
}

impl Context {
    /// The texture a `glTexParameter*` target names.
    fn param_texture(&self, target: u32) -> GlResult<TexRef> {
        target_index(target).ok_or(GlError::InvalidEnum)?;
        self.bound_texture_ref(target)
    }

    fn tex_parameter(&mut self, target: u32, pname: u32, v: Values<'_>, scalar: bool) {
        let r = self.tex_parameter_inner(target, pname, v, scalar);
        self.check(r);
    }

    fn tex_parameter_inner(
        &mut self,
        target: u32,
        pname: u32,
        v: Values<'_>,
        scalar: bool,
    ) -> GlResult<()> {
        let r = self.param_texture(target)?;
        if scalar && VECTOR_PARAMS.contains(&pname) {
            return Err(GlError::InvalidEnum);
        }
        let rect = target == gl::TEXTURE_RECTANGLE;
        let obj = self.textures.get_mut(r).ok_or(GlError::InvalidOperation)?;
        let mut p = obj.sampling;
        if set_sampling(&mut p, pname, v, rect)? {
            obj.sampling = p;
            self.textures.touch();
            return Ok(());
        }
        if v.len() == 0 {
            return Err(GlError::InvalidValue);
        }
        match pname {
            gl::TEXTURE_BASE_LEVEL | gl::TEXTURE_MAX_LEVEL => {
                let l = v.int(0);
                if l < 0 {
                    return Err(GlError::InvalidValue);
                }
                if rect && pname == gl::TEXTURE_BASE_LEVEL && l != 0 {
                    return Err(GlError::InvalidOperation);
                }
                let l = l.min(u32::MAX as i64) as u32;
                if pname == gl::TEXTURE_BASE_LEVEL {
                    obj.base_level = l;
                } else {
                    obj.max_level = l;
                }
            }
            gl::TEXTURE_SWIZZLE_R
            | gl::TEXTURE_SWIZZLE_G
            | gl::TEXTURE_SWIZZLE_B
            | gl::TEXTURE_SWIZZLE_A => {
                let s = v.enum_at(0);
                if !is_swizzle(s) {
                    return Err(GlError::InvalidEnum);
                }
                obj.swizzle[(pname - gl::TEXTURE_SWIZZLE_R) as usize] = s;
            }
            gl::TEXTURE_SWIZZLE_RGBA => {
                if v.len() < 4 {
                    return Err(GlError::InvalidValue);
                }
                let s = [0, 1, 2, 3].map(|i| v.enum_at(i));
                if !s.iter().all(|&x| is_swizzle(x)) {
                    return Err(GlError::InvalidEnum);
                }
                obj.swizzle = s;
            }
            gl::DEPTH_TEXTURE_MODE => match v.enum_at(0) {
                m @ (gl::LUMINANCE | gl::INTENSITY | gl::ALPHA | gl::RED) => obj.depth_mode = m,
                _ => return Err(GlError::InvalidEnum),
            },
            _ => return Err(GlError::InvalidEnum),
        }
        self.textures.touch();
        Ok(())
    }

    /// `glTexParameteri`.
    pub fn tex_parameter_i32(&mut self, target: u32, parameter: u32, value: i32) {
        self.tex_parameter(target, parameter, Values::I(&[value]), true);
    }

    /// `glTexParameterf`.
    pub fn tex_parameter_f32(&mut self, target: u32, parameter: u32, value: f32) {
        self.tex_parameter(target, parameter, Values::F(&[value]), true);
    }

    /// `glTexParameteriv`.
    pub fn tex_parameter_i32_slice(&mut self, target: u32, parameter: u32, values: &[i32]) {
        self.tex_parameter(target, parameter, Values::I(values), false);
    }

    /// `glTexParameterfv`.
    pub fn tex_parameter_f32_slice(&mut self, target: u32, parameter: u32, values: &[f32]) {
        self.tex_parameter(target, parameter, Values::F(values), false);
    }

    /// `glGetTexParameterfv` into `out` (as many values as the parameter has).
    pub fn get_tex_parameter_f32_slice(&mut self, target: u32, parameter: u32, out: &mut [f32]) {
        match self.tex_parameter_values(target, parameter) {
            Ok(v) => {
                for (o, x) in out.iter_mut().zip(v) {
                    *o = x;
                }
            }
            Err(e) => self.record(e),
        }
    }

    /// `glGetTexParameterfv` for single-valued parameters.
    pub fn get_tex_parameter_f32(&mut self, target: u32, parameter: u32) -> f32 {
        let mut v = [0.0];
        self.get_tex_parameter_f32_slice(target, parameter, &mut v);
        v[0]
    }

    /// `glGetTexParameteriv` for single-valued parameters (floats round to nearest).
    pub fn get_tex_parameter_i32(&mut self, target: u32, parameter: u32) -> i32 {
        match self.tex_parameter_values(target, parameter) {
            Ok(v) => v.first().map_or(0, |x| x.round() as i32),
            Err(e) => {
                self.record(e);
                0
            }
        }
    }

    fn tex_parameter_values(&self, target: u32, pname: u32) -> GlResult<Vec<f32>> {
        let r = self.param_texture(target)?;
        let obj = self.textures.get(r).ok_or(GlError::InvalidOperation)?;
        if let Some(v) = get_sampling(&obj.sampling, pname) {
            return Ok(v);
        }
        let f = |x: u32| x as f32;
        Ok(match pname {
            gl::TEXTURE_BASE_LEVEL => vec![f(obj.base_level)],
            gl::TEXTURE_MAX_LEVEL => vec![f(obj.max_level)],
            gl::TEXTURE_SWIZZLE_R..=gl::TEXTURE_SWIZZLE_A => {
                vec![f(obj.swizzle[(pname - gl::TEXTURE_SWIZZLE_R) as usize])]
            }
            gl::TEXTURE_SWIZZLE_RGBA => obj.swizzle.map(f).to_vec(),
            gl::DEPTH_TEXTURE_MODE => vec![f(obj.depth_mode)],
            gl::TEXTURE_IMMUTABLE_FORMAT => vec![obj.immutable_levels.is_some() as u32 as f32],
            gl::TEXTURE_IMMUTABLE_LEVELS => vec![f(obj.immutable_levels.unwrap_or(0))],
            // GL 4.2 §8.26: how image formats match the texture's; rgl
            // matches by size, as Mesa does for every texture.
            gl::IMAGE_FORMAT_COMPATIBILITY_TYPE => {
                vec![f(gl::IMAGE_FORMAT_COMPATIBILITY_BY_SIZE)]
            }
            _ => return Err(GlError::InvalidEnum),
        })
    }

    /// `glGetTexLevelParameteriv`: `GL_TEXTURE_WIDTH`, `_HEIGHT`, `_DEPTH`,
    /// `_INTERNAL_FORMAT` of one image (0, and `GL_RGBA`... as GL, for an undefined
    /// level: width 0, internal format 1).
    pub fn get_tex_level_parameter_i32(&mut self, target: u32, level: i32, pname: u32) -> i32 {
        let r = (|| {
            let (ti, face) = match target {
                gl::TEXTURE_CUBE_MAP_POSITIVE_X..=gl::TEXTURE_CUBE_MAP_NEGATIVE_Z => (
                    gl::TEXTURE_CUBE_MAP,
                    (target - gl::TEXTURE_CUBE_MAP_POSITIVE_X) as usize,
                ),
                gl::TEXTURE_CUBE_MAP => return Err(GlError::InvalidEnum),
                t => (t, 0),
            };
            let r = self.bound_texture_ref(ti)?;
            if !(0..=31).contains(&level) {
                return Err(GlError::InvalidValue);
            }
            let obj = self.textures.get(r).ok_or(GlError::InvalidOperation)?;
            let img = obj.image(face, level as u32);
            Ok(match pname {
                gl::TEXTURE_WIDTH => img.map_or(0, |i| i.width),
                gl::TEXTURE_HEIGHT => img.map_or(0, |i| i.height),
                gl::TEXTURE_DEPTH => img.map_or(0, |i| i.depth),
                gl::TEXTURE_INTERNAL_FORMAT => img.map_or(1, |i| i.ifmt.gl),
                _ => return Err(GlError::InvalidEnum),
            } as i32)
        })();
        self.check(r).unwrap_or(0)
    }

    /// `glGenSamplers` (one name).
    pub fn create_sampler(&mut self) -> Result<Sampler, CreateError> {
        match self.textures.samplers.insert(SamplerParams::default()) {
            Some(n) => Ok(Sampler(n)),
            None => {
                self.record(GlError::OutOfMemory);
                Err(CreateError::OutOfNames("sampler"))
            }
        }
    }

    /// `glIsSampler`.
    pub fn is_sampler(&self, sampler: Sampler) -> bool {
        self.textures.samplers.contains(sampler.name())
    }

    /// `glDeleteSamplers` (one name): unbinds it from every unit.
    pub fn delete_sampler(&mut self, sampler: Sampler) {
        if self.textures.samplers.remove(sampler.name()).is_none() {
            return;
        }
        for s in self.textures.unit_samplers.iter_mut() {
            if *s == Some(sampler) {
                *s = None;
            }
        }
        self.textures.touch();
    }

    /// `glBindSampler`; `None` returns the unit to its textures' own parameters.
    pub fn bind_sampler(&mut self, unit: u32, sampler: Option<Sampler>) {
        if unit >= limits::MAX_COMBINED_TEXTURE_IMAGE_UNITS {
            return self.record(GlError::InvalidValue);
        }
        if let Some(s) = sampler {
            if !self.textures.samplers.contains(s.name()) {
                return self.record(GlError::InvalidOperation);
            }
        }
        self.textures.unit_samplers[unit as usize] = sampler;
        self.textures.touch();
    }

    fn sampler_parameter(&mut self, sampler: Sampler, pname: u32, v: Values<'_>, scalar: bool) {
        let r = (|| {
            if scalar && VECTOR_PARAMS.contains(&pname) {
                return Err(GlError::InvalidEnum);
            }
            let p = self
                .textures
                .samplers
                .get_mut(sampler.name())
                .ok_or(GlError::InvalidOperation)?;
            let mut np = *p;
            if !set_sampling(&mut np, pname, v, false)? {
                return Err(GlError::InvalidEnum);
            }
            *p = np;
            self.textures.touch();
            Ok(())
        })();
        self.check(r);
    }

    /// `glSamplerParameteri`.
    pub fn sampler_parameter_i32(&mut self, sampler: Sampler, name: u32, value: i32) {
        self.sampler_parameter(sampler, name, Values::I(&[value]), true);
    }

    /// `glSamplerParameterf`.
    pub fn sampler_parameter_f32(&mut self, sampler: Sampler, name: u32, value: f32) {
        self.sampler_parameter(sampler, name, Values::F(&[value]), true);
    }

    /// `glSamplerParameterfv`.
    pub fn sampler_parameter_f32_slice(&mut self, sampler: Sampler, name: u32, value: &[f32]) {
        self.sampler_parameter(sampler, name, Values::F(value), false);
    }

    /// `glSamplerParameteriv`.
    pub fn sampler_parameter_i32_slice(&mut self, sampler: Sampler, name: u32, value: &[i32]) {
        self.sampler_parameter(sampler, name, Values::I(value), false);
    }

    /// `glGetSamplerParameteriv` for single-valued parameters.
    pub fn get_sampler_parameter_i32(&mut self, sampler: Sampler, name: u32) -> i32 {
        self.get_sampler_parameter_f32(sampler, name).round() as i32
    }

    /// `glGetSamplerParameterfv` for single-valued parameters.
    pub fn get_sampler_parameter_f32(&mut self, sampler: Sampler, name: u32) -> f32 {
        let r = match self.textures.samplers.get(sampler.name()) {
            None => Err(GlError::InvalidOperation),
            Some(p) => get_sampling(p, name).ok_or(GlError::InvalidEnum),
        };
        self.check(r)
            .and_then(|v| v.first().copied())
            .unwrap_or(0.0)
    }
}
