//! Compile-time GLSL IR lowering: what turns HIR into LIR (Mesa's
//! `_mesa_glsl_compile_shader`, `glsl_parser_extras.cpp`).
//!
//! One pass per file, each a [`Pass`] with Mesa's name; [`lower`] runs the
//! compile-time sequence once, in Mesa's order, validating the IR after every
//! pass in debug builds ([`validate`]). Validation failures are compiler bugs:
//! they are logged with `log::error!`, never turned into panics or user
//! diagnostics.

pub mod validate;
mod visit;

mod constant_folding;
mod dead_builtin_variables;
mod dead_code;
mod if_simplification;
mod lower_builtins;
mod lower_vector_derefs;
mod mat_op_to_vec;
mod redundant_jumps;
mod vec_index_to_cond_assign;

#[cfg(test)]
mod tests;

use crate::hir::Module;

/// A compile-time IR pass.
pub trait Pass {
    /// Mesa's name of the pass (`do_constant_folding`, `lower_vector_derefs`, …).
    fn name(&self) -> &'static str;
    /// Runs the pass; returns true if it changed the module.
    fn run(&self, module: &mut Module) -> bool;
}

/// Every pass, in the order [`lower`] runs them.
pub const PASSES: &[&dyn Pass] = &[
    &lower_builtins::LowerBuiltins,
    &constant_folding::ConstantFolding,
    &if_simplification::IfSimplification,
    &redundant_jumps::RedundantJumps,
    &dead_code::DeadCodeUnlinked,
    &dead_builtin_variables::DeadBuiltinVariables,
    &lower_vector_derefs::LowerVectorDerefs,
    &mat_op_to_vec::MatOpToVec,
    &vec_index_to_cond_assign::VecIndexToCondAssign,
];

/// Runs the compile-time lowering sequence in place. Expression trees that
/// the checker shares between statements are first copied apart, so passes
/// may rewrite nodes in place.
pub fn lower(module: &mut Module) {
    visit::unshare(module);
    for pass in PASSES {
        run_pass(*pass, module);
    }
}

/// Runs the pass called `name` (see [`PASSES`]) once; `None` if no pass has
/// that name, otherwise whether it made progress.
pub fn run_pass_by_name(name: &str, module: &mut Module) -> Option<bool> {
    let pass = PASSES.iter().find(|p| p.name() == name)?;
    visit::unshare(module);
    Some(run_pass(*pass, module))
}

fn run_pass(pass: &dyn Pass, module: &mut Module) -> bool {
    let progress = pass.run(module);
    if cfg!(debug_assertions) {
        for error in validate::validate(module) {
            log::error!("GLSL IR invalid after {}: {error}", pass.name());
        }
    }
    progress
}
