//! The standard GL optimisation loop (`gl_nir_opts`, Mesa's `gl_nir_linker.c`): the optimisation
//! passes run in a fixed order until a round makes no progress, with an iteration
//! bound so a pass pair that undoes each other cannot loop forever.
//!
//! Passes of other branches (`lower_vars_to_ssa`, `remove_dead_variables`,
//! `opt_copy_prop_vars`, `opt_dead_write_vars`, `opt_find_array_copies`) take their
//! place in the round when they are registered; [`round_passes`] filters the list
//! against the registry. `lower_vars_to_ssa` does not count as progress (as in Mesa,
//! where it runs through `NIR_PASS_V`).
//!
//! A pass is skipped when it cannot make progress: it already ran, made none, and no
//! pass changed the shader since (Mesa reaches the same effect per pass with
//! `nir_metadata` and progress flags; here the loop keeps a change counter). Every
//! pass is a deterministic function of the shader that leaves it untouched when it
//! reports no progress, so the skipped run would have been a no-op and the result is
//! the one the full rounds give. The last round of a loop in particular only runs the
//! passes that ran before the last change.
//!
//! Translation validation: [`INEXACT_PASSES`] lists the passes whose rewrites may change
//! floating-point results (see `algebraic/rules.rs` for the per-rule bounds); every
//! other pass of the loop, and of the link pipeline, is bit-exact.

use super::{drop_kept_analyses, pass_by_name, Pass, PassError, Runner};
use crate::ir::Shader;

/// Rounds of the loop before it gives up (Mesa has no bound; a pathological shader can
/// ping-pong between two rules).
pub const MAX_ROUNDS: usize = 64;

/// The passes of one round, in Mesa's order; names not in the registry are skipped.
pub const OPT_LOOP: &[&str] = &[
    "lower_vars_to_ssa",
    "remove_dead_variables",
    "opt_find_array_copies",
    "opt_copy_prop_vars",
    "opt_dead_write_vars",
    "copy_prop",
    "opt_remove_phis",
    "opt_dce",
    "opt_if",
    "opt_dead_cf",
    "opt_cse",
    "opt_peephole_select",
    "opt_algebraic",
    "opt_constant_folding",
    "opt_undef",
    "opt_conditional_discard",
    "opt_loop_unroll",
];

/// Passes of the round whose progress does not keep the loop going.
pub const NO_PROGRESS_PASSES: &[&str] = &["lower_vars_to_ssa"];

/// Passes that may change floating-point results; all others are bit-exact.
/// `opt_algebraic` within the bounds documented on its rules; `lower_alu_to_scalar`
/// because a horizontal reduction (`fdot4`) becomes a chain of `fmul`/`fadd` rounded
/// after every operation, where the opcode table (and so the interpreter) rounds the
/// dot product once (GLSL 4.60 §4.7.1 leaves the precision of `dot` unspecified).
pub const INEXACT_PASSES: &[&str] = &["opt_algebraic", "lower_alu_to_scalar"];

/// The registered passes of one round, in order.
pub fn round_passes() -> Vec<&'static str> {
    OPT_LOOP
        .iter()
        .copied()
        .filter(|n| pass_by_name(n).is_some())
        .collect()
}

/// Runs one full round (every pass, none skipped); returns whether a
/// progress-counting pass made progress.
pub fn run_round(runner: &mut Runner<'_>, shader: &mut Shader) -> Result<bool, PassError> {
    let mut run = || {
        let mut progress = false;
        for name in round_passes() {
            let Some(pass) = pass_by_name(name) else {
                continue;
            };
            let p = runner.run_kept(pass.as_ref(), shader)?;
            if p && !NO_PROGRESS_PASSES.contains(&name) {
                progress = true;
            }
        }
        Ok(progress)
    };
    let result = run();
    drop_kept_analyses(shader);
    result
}

/// Runs the loop to a fixed point (at most [`MAX_ROUNDS`] rounds); returns the number
/// of rounds that made progress. Passes that cannot make progress are skipped (see
/// the module documentation); the result is that of running every pass of every
/// round.
pub fn optimize(runner: &mut Runner<'_>, shader: &mut Shader) -> Result<usize, PassError> {
    let result = optimize_kept(runner, shader);
    // Kept use lists live only within the loop.
    drop_kept_analyses(shader);
    result
}

fn optimize_kept(runner: &mut Runner<'_>, shader: &mut Shader) -> Result<usize, PassError> {
    let passes: Vec<(&'static str, Box<dyn Pass>)> = OPT_LOOP
        .iter()
        .filter_map(|&n| Some((n, pass_by_name(n)?)))
        .collect();
    // `changes` counts the passes that changed the shader; `clean[k]` is the count at
    // which pass k last ran without progress (it cannot make progress while the
    // count stays there).
    let mut changes: u64 = 0;
    let mut clean: Vec<Option<u64>> = vec![None; passes.len()];
    let mut rounds = 0;
    while rounds < MAX_ROUNDS {
        let mut progress = false;
        for (k, (name, pass)) in passes.iter().enumerate() {
            if clean[k] == Some(changes) {
                continue;
            }
            if runner.run_kept(pass.as_ref(), shader)? {
                changes += 1;
                clean[k] = None;
                if !NO_PROGRESS_PASSES.contains(name) {
                    progress = true;
                }
            } else {
                clean[k] = Some(changes);
            }
        }
        if !progress {
            break;
        }
        rounds += 1;
    }
    Ok(rounds)
}
