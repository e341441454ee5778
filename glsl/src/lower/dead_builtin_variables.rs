//! `optimize_dead_builtin_variables`: drops the declarations of built-in
//! (`gl_*`) global variables that no function references: uniforms,
//! ordinary globals (built-in constants) and system values in every stage,
//! plus vertex-shader inputs and fragment-shader outputs. As in Mesa,
//! `gl_ModelViewProjectionMatrix`, `gl_Vertex` (used by `ftransform`) and the
//! `…Transpose…` matrices are always kept.

use crate::hir::{ExprKind, Item, Module, VarMode};
use crate::version::Stage;

use super::visit::{for_each_node, for_each_stmt, stmt_expr_slots};
use super::Pass;

/// Mesa's `optimize_dead_builtin_variables`.
pub struct DeadBuiltinVariables;

impl Pass for DeadBuiltinVariables {
    fn name(&self) -> &'static str {
        "optimize_dead_builtin_variables"
    }

    fn run(&self, module: &mut Module) -> bool {
        let referenced = referenced_variables(module);
        let other = match module.stage {
            Some(Stage::Vertex) => Some(VarMode::ShaderIn),
            Some(Stage::Fragment) => Some(VarMode::ShaderOut),
            _ => None,
        };
        let before = module.items.len();
        let variables = &module.variables;
        module.items.retain(|item| {
            let Item::Variable(var) = *item else {
                return true;
            };
            let Some(v) = variables.get(var) else {
                return true;
            };
            let removable_mode = matches!(
                v.mode,
                VarMode::Uniform | VarMode::Auto | VarMode::SystemValue
            ) || Some(v.mode) == other;
            referenced.get(var.index()).copied().unwrap_or(false)
                || !removable_mode
                || !v.name.starts_with("gl_")
                || v.name == "gl_ModelViewProjectionMatrix"
                || v.name == "gl_Vertex"
                || v.name.contains("Transpose")
        });
        module.items.len() != before
    }
}

/// Whether each variable (by index) is referenced by any statement of any
/// function body.
fn referenced_variables(module: &Module) -> Vec<bool> {
    let mut out = vec![false; module.variables.len()];
    let mut stack = Vec::new();
    for_each_stmt(module, &mut |stmt| {
        for root in stmt_expr_slots(module, stmt) {
            for_each_node(module, root, &mut stack, |_, expr| {
                if let ExprKind::VarRef(var) = expr.kind {
                    if let Some(seen) = out.get_mut(var.index()) {
                        *seen = true;
                    }
                }
            });
        }
    });
    out
}
