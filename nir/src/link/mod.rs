//! Link-time varying passes over a (producer, consumer) pair of shaders in deref form
//! (before `lower_io`), with Mesa's classic semantics (`st_nir_link_shaders`,
//! `st_glsl_to_nir.cpp`):
//!
//! * [`link_opt_varyings`] (`nir_link_opt_varyings`): outputs whose final value is a
//!   constant or a direct uniform load are replaced in the consumer by that constant /
//!   uniform load; two outputs holding the same value are read through one input.
//! * [`remove_unused_varyings`] (`nir_remove_unused_varyings`): user outputs nobody
//!   reads and user inputs nobody writes become shader temporaries.
//! * [`compact_varyings`] (`nir_compact_varyings`): user varyings are re-packed into
//!   the fewest `VARYING_SLOT_VAR*` slots, by component, on both sides.
//!
//! Each function returns true when it changed either shader, and keeps both valid.
//! [`LINK_PASSES`] lists them in the order the link pipeline
//! (`rgl_link::pipeline::lower_program`) runs them on every pair, and names them for
//! the data-driven tests (`tests/link/<pass>/*.nir`).

mod compact;
mod opt_varyings;
mod remove_unused;

pub use compact::compact_varyings;
pub use opt_varyings::link_opt_varyings;
pub use remove_unused::remove_unused_varyings;

use crate::ir::names::VARYING_SLOT_VAR0;
use crate::ir::*;
use crate::passes::lower_io::is_arrayed_io;

/// A link pass: `(producer, consumer) -> progress`.
pub type LinkPass = fn(&mut Shader, &mut Shader) -> bool;

/// The link passes by name.
pub const LINK_PASSES: &[(&str, LinkPass)] = &[
    ("link_opt_varyings", link_opt_varyings),
    ("remove_unused_varyings", remove_unused_varyings),
    ("compact_varyings", compact_varyings),
];

/// Looks a link pass up by name.
pub fn link_pass_by_name(name: &str) -> Option<LinkPass> {
    LINK_PASSES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, p)| *p)
}

/// True for a user varying location (`VARYING_SLOT_VAR0` and up).
pub(crate) fn is_user_varying(location: i32) -> bool {
    location >= VARYING_SLOT_VAR0
}

/// The per-vertex type of an IO variable (the outer array of arrayed IO stripped).
pub(crate) fn io_type(stage: Stage, var: &Variable) -> Type {
    if is_arrayed_io(stage, var.mode) {
        if let Type::Array(e, _) = &var.ty {
            return (**e).clone();
        }
    }
    var.ty.clone()
}

/// Global variables of `mode`.
pub(crate) fn vars_of_mode(shader: &Shader, mode: VarMode) -> Vec<VarId> {
    shader
        .globals
        .iter()
        .copied()
        .filter(|v| shader.variables.get(*v).is_some_and(|var| var.mode == mode))
        .collect()
}

/// Makes every deref's mode agree with its variable's (Mesa's
/// `nir_fixup_deref_modes`), after variables changed mode. Walks derefs in program
/// order, so parents are fixed before their children.
pub(crate) fn fixup_deref_modes(shader: &mut Shader) {
    let vars = &shader.variables;
    let ids: Vec<FuncId> = shader.functions.keys().collect();
    for fid in ids {
        let Some(body) = shader.functions[fid].body.as_mut() else {
            continue;
        };
        for block in body.blocks_in_order() {
            for instr in body.block_instrs(block) {
                let InstrKind::Deref(deref) = &body.instrs[instr].kind else {
                    continue;
                };
                let mode = match &deref.kind {
                    DerefKind::Var(v) => vars.get(*v).map(|var| var.mode),
                    DerefKind::Array { parent, .. }
                    | DerefKind::ArrayWildcard { parent }
                    | DerefKind::Struct { parent, .. }
                    | DerefKind::Cast { parent, .. } => {
                        body.defs
                            .get(*parent)
                            .and_then(|d| match &body.instrs[d.instr].kind {
                                InstrKind::Deref(p) => Some(p.mode),
                                _ => None,
                            })
                    }
                };
                if let (Some(m), InstrKind::Deref(deref)) = (mode, &mut body.instrs[instr].kind) {
                    deref.mode = m;
                }
            }
        }
    }
}

/// Variables referenced by a `deref_var` anywhere in the shader.
pub(crate) fn referenced_vars(shader: &Shader) -> rustc_hash::FxHashSet<VarId> {
    crate::passes::lower_system_values::referenced_vars(shader)
}

/// The entry point's body.
pub(crate) fn entrypoint(shader: &Shader) -> Option<FuncId> {
    shader
        .functions
        .iter()
        .find(|(_, f)| f.is_entrypoint && f.body.is_some())
        .or_else(|| {
            shader
                .functions
                .iter()
                .find(|(_, f)| f.name == "main" && f.body.is_some())
        })
        .map(|(id, _)| id)
}
