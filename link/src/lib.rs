//! `rgl-link`: turns compiled shaders into a linked program.
//!
//! The stages of this crate, in pipeline order:
//! * [`linker`]: Mesa's linker on GLSL IR: intrastage merge of compilation units,
//!   per-stage checks, interstage matching, resource limits, varying / attribute /
//!   fragment-output locations, dead varyings, uniforms and std140 blocks. Its result
//!   is a [`LinkedProgram`] ([`program`]) whose stages still hold GLSL IR.
//! * [`to_nir`]: `glsl_to_nir` for one linked stage (variables + deref chains).
//! * [`pipeline`]: the link-time NIR sequence (Mesa's `st_link_glsl_to_nir`): lowering, the standard
//!   optimisation loop, the varying link passes and IO lowering, ending with final NIR
//!   in every [`LinkedStage`].
#![deny(missing_docs)]

pub mod error;
pub mod linker;
pub mod pipeline;
pub mod program;
pub mod to_nir;

pub use error::{LinkError, LinkLog, PipelineError};
pub use program::{
    AtomicCounter, AtomicCounterBuffer, Bindings, BufferVariable, LinkedProgram, LinkedStage,
    StorageBlock,
};

use rgl_glsl::CompiledShader;

/// Links `shaders` (any number per stage, all compiled successfully) into a program
/// whose stages hold linked GLSL IR, like `glLinkProgram` up to (not including) the
/// NIR pipeline. Every link error is reported, not only the first.
pub fn link_program(
    shaders: &[&CompiledShader],
    bindings: &Bindings,
) -> Result<LinkedProgram, LinkLog> {
    linker::link(shaders, bindings)
}

/// [`link_program`] for shaders the caller no longer needs (a program built from
/// sources in one go, as `glCreateShaderProgramv` or an offline compiler does): a
/// stage made of one shader takes over that shader's GLSL IR instead of copying it.
/// The result is the one [`link_program`] gives for the same shaders.
pub fn link_program_owned(
    shaders: Vec<CompiledShader>,
    bindings: &Bindings,
) -> Result<LinkedProgram, LinkLog> {
    linker::link_owned(shaders, bindings)
}
