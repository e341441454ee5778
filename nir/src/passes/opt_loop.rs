//! The standard GL optimisation loop (`gl_nir_opts`, Mesa §5.1): the optimisation
//! passes run in a fixed order until a round makes no progress, with an iteration
//! bound so a pass pair that undoes each other cannot loop forever.

use super::{PassError, Runner};
use crate::ir::Shader;

/// Rounds of the loop before it gives up (Mesa has no bound; a pathological shader can
/// ping-pong between two rules).
pub const MAX_ROUNDS: usize = 64;

/// The passes of one round, in order.
pub const OPT_LOOP: &[&str] = &[
    "copy_prop",
    "opt_remove_phis",
    "opt_dce",
    "opt_dead_cf",
    "opt_cse",
    "opt_constant_folding",
    "opt_undef",
];

/// Runs the loop to a fixed point; returns the number of rounds that made progress.
pub fn optimize(runner: &mut Runner<'_>, shader: &mut Shader) -> Result<usize, PassError> {
    runner.run_to_fixed_point(OPT_LOOP, shader, MAX_ROUNDS)
}
