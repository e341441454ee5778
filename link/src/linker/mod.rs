//! The linker on GLSL IR (Mesa §4): intrastage merge, per-stage checks, interstage
//! matching, locations, uniforms and resource limits.
//!
//! Work in progress in this commit: only the argument checks exist; the linker
//! branch fills in the rest.

use crate::error::{LinkError, LinkLog};
use crate::program::{Bindings, LinkedProgram};
use rgl_glsl::CompiledShader;

/// Links the shaders; see [`crate::link_program`].
pub fn link(shaders: &[&CompiledShader], _bindings: &Bindings) -> Result<LinkedProgram, LinkLog> {
    if shaders.is_empty() {
        return Err(LinkLog::error(LinkError::NoShaders));
    }
    if shaders.iter().any(|s| !s.success()) {
        return Err(LinkLog::error(LinkError::Uncompiled));
    }
    Err(LinkLog::error(LinkError::Pipeline {
        stage: "program",
        message: "the linker is not implemented yet".into(),
    }))
}
