//! `glsl_to_nir`: converts one linked stage's GLSL IR into NIR in deref form
//! (Mesa §5.2 "compile", §5.4 mapping).

use crate::program::{LinkedProgram, LinkedStage};
use rgl_nir::ir::Shader;

/// Why a stage could not be converted.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ToNirError {
    /// A construct the converter does not handle, named.
    #[error("glsl_to_nir: unsupported {0}")]
    Unsupported(String),
}

/// Converts `stage` of `program` to NIR: variables with modes, locations and
/// driver locations from the linker, every access a deref chain with
/// `load_deref`/`store_deref`/`copy_deref`, texture built-ins as `tex`.
pub fn glsl_to_nir(_program: &LinkedProgram, stage: &LinkedStage) -> Result<Shader, ToNirError> {
    Err(ToNirError::Unsupported(format!(
        "{:?} stage: conversion not implemented yet",
        stage.stage
    )))
}
