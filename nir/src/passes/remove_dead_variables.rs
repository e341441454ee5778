//! `remove_dead_variables` (Mesa's `nir_remove_dead_variables`): removes variables of
//! the selected modes that are never read.
//!
//! * A `function_temp`/`shader_temp` variable is dead when no deref of it is used for
//!   anything but being written: the destination of a `store_deref` or `copy_deref`
//!   (through any array/struct links). Its stores and copies are removed with it.
//! * A variable of any other selected mode (inputs, outputs, uniforms, ...) is dead
//!   only when no deref names it at all.
//!
//! The registered pass works on the temporary modes ([`RemoveDeadVariables::TEMPS`],
//! as in Mesa's optimisation loop); [`RemoveDeadVariables::new`] selects other modes
//! (the linker removes unreferenced varyings and uniforms this way).

use super::var_util::*;
use super::{Pass, PassFailure};
use crate::intrinsics::IntrinsicOp;
use crate::ir::*;
use rustc_hash::FxHashSet as HashSet;

/// The pass, over the variable modes in `modes` (a bit set, see [`mode_bit`]).
#[derive(Copy, Clone, Debug)]
pub struct RemoveDeadVariables {
    modes: u32,
}

/// The bit of `mode` in a mode set.
pub const fn mode_bit(mode: VarMode) -> u32 {
    match mode {
        VarMode::ShaderIn => 1,
        VarMode::ShaderOut => 2,
        VarMode::Uniform => 4,
        VarMode::Ubo => 8,
        VarMode::SystemValue => 16,
        VarMode::FunctionTemp => 32,
        VarMode::ShaderTemp => 64,
        VarMode::Ssbo => 128,
        VarMode::Shared => 256,
    }
}

impl RemoveDeadVariables {
    /// `function_temp` and `shader_temp` (the registered pass).
    pub const TEMPS: RemoveDeadVariables = RemoveDeadVariables {
        modes: mode_bit(VarMode::FunctionTemp) | mode_bit(VarMode::ShaderTemp),
    };
    /// The pass over the given modes.
    pub fn new(modes: &[VarMode]) -> RemoveDeadVariables {
        RemoveDeadVariables {
            modes: modes.iter().fold(0, |m, v| m | mode_bit(*v)),
        }
    }
    fn selects(&self, mode: VarMode) -> bool {
        self.modes & mode_bit(mode) != 0
    }
}

impl Pass for RemoveDeadVariables {
    fn name(&self) -> &'static str {
        "remove_dead_variables"
    }
    fn run(&self, shader: &mut Shader) -> Result<bool, PassFailure> {
        // Nothing to remove without a variable of the selected modes (the liveness
        // walk below is the expensive part).
        let selected = |v: &VarId| {
            shader
                .variables
                .get(*v)
                .is_some_and(|d| self.selects(d.mode))
        };
        let any_selected = shader.globals.iter().any(selected)
            || shader
                .functions
                .iter()
                .filter_map(|(_, f)| f.body.as_ref())
                .any(|b| b.locals.iter().any(selected));
        if !any_selected {
            return Ok(false);
        }
        let mut live: HashSet<VarId> = HashSet::default();
        for (_, f) in shader.functions.iter() {
            let Some(body) = &f.body else { continue };
            mark_live(shader, body, &mut live);
        }
        let is_dead = |v: &VarId| {
            shader
                .variables
                .get(*v)
                .is_some_and(|d| self.selects(d.mode) && !live.contains(v))
        };
        let dead: HashSet<VarId> = shader
            .globals
            .iter()
            .copied()
            .chain(
                shader
                    .functions
                    .iter()
                    .filter_map(|(_, f)| f.body.as_ref())
                    .flat_map(|b| b.locals.iter().copied()),
            )
            .filter(is_dead)
            .collect();
        if dead.is_empty() {
            return Ok(false);
        }
        shader.globals.retain(|v| !dead.contains(v));
        for_each_impl_mut(shader, |_, _, func| {
            func.locals.retain(|v| !dead.contains(v));
            // Writes to dead variables go, then every deref rooted at one.
            for i in all_instrs(func) {
                let Some(intr) = intrinsic(func, i) else {
                    continue;
                };
                if matches!(intr.op, IntrinsicOp::store_deref | IntrinsicOp::copy_deref)
                    && intr
                        .srcs
                        .first()
                        .and_then(|d| root_var(func, *d))
                        .is_some_and(|v| dead.contains(&v))
                {
                    func.remove_instr(i);
                }
            }
            for i in all_instrs(func).into_iter().rev() {
                if let (InstrKind::Deref(_), Some(d)) = (&func.instrs[i].kind, func.instrs[i].def) {
                    if root_var(func, d).is_some_and(|v| dead.contains(&v)) {
                        func.remove_instr(i);
                    }
                }
            }
            true
        });
        Ok(true)
    }
}

/// Adds to `live` every variable `func` reads (or, for non-temporary modes, names).
fn mark_live(shader: &Shader, func: &FunctionImpl, live: &mut HashSet<VarId>) {
    // Only temporaries need the use lists: the ones an earlier pass kept, else built
    // at the first one.
    let kept = func.kept_uses();
    let mut built: Option<Uses> = None;
    for i in all_instrs(func) {
        let InstrKind::Deref(Deref {
            kind: DerefKind::Var(v),
            ..
        }) = &func.instrs[i].kind
        else {
            continue;
        };
        if live.contains(v) {
            continue;
        }
        let temp = shader
            .variables
            .get(*v)
            .is_some_and(|d| matches!(d.mode, VarMode::FunctionTemp | VarMode::ShaderTemp));
        let Some(def) = func.instrs[i].def else {
            continue;
        };
        let uses = match kept {
            Some(uses) => uses,
            None => &*built.get_or_insert_with(|| func.build_uses()),
        };
        if !temp || read_through(func, uses, def) {
            live.insert(*v);
        }
    }
}

/// True when the deref `d` (or a deref below it) is used other than as the
/// destination of a store or copy.
fn read_through(func: &FunctionImpl, uses: &Uses, d: Def) -> bool {
    let mut stack = vec![d];
    let mut seen = HashSet::default();
    while let Some(cur) = stack.pop() {
        if !seen.insert(cur) {
            continue;
        }
        for &user in &uses[cur] {
            // Branching on it reads it.
            let Use::Instr(u) = user else {
                return true;
            };
            match &func.instrs[u].kind {
                InstrKind::Intrinsic(intr)
                    if matches!(intr.op, IntrinsicOp::store_deref | IntrinsicOp::copy_deref) =>
                {
                    // Only the destination slot is a write.
                    if intr.srcs.iter().skip(1).any(|s| *s == cur) {
                        return true;
                    }
                }
                InstrKind::Deref(child) => match &child.kind {
                    DerefKind::Array { parent, index } if *parent == cur && *index != cur => {
                        if let Some(cd) = func.instrs[u].def {
                            stack.push(cd);
                        }
                    }
                    DerefKind::ArrayWildcard { .. } | DerefKind::Struct { .. } => {
                        if let Some(cd) = func.instrs[u].def {
                            stack.push(cd);
                        }
                    }
                    _ => return true,
                },
                _ => return true,
            }
        }
    }
    false
}
