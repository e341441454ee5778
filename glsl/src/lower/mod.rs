//! Compile-time GLSL IR lowering: what turns HIR into LIR (reference §1.9).

use crate::hir::Module;

/// Runs the compile-time lowering sequence in place.
pub fn lower(module: &mut Module) {
    let _ = module;
}
