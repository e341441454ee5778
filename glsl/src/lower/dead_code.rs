//! `do_dead_code_unlinked`: inside each function body, a local variable whose
//! only references are the assignments to it loses those assignments (unless
//! it is an output), and a local that is never referenced loses its
//! declaration. Globals, parameters and outputs are never removed. Like
//! Mesa's pass it runs once over precomputed counts, so a declaration whose
//! assignments were just removed goes on the next run.

use std::collections::{HashMap, HashSet};

use crate::arena::Handle;
use crate::hir::{ExprKind, Module, Stmt, VarMode, Variable};

use super::visit::{deref_root, post_order, rewrite_block, stmt_expr_slots};
use super::Pass;

/// Mesa's `do_dead_code_unlinked`.
pub struct DeadCodeUnlinked;

impl Pass for DeadCodeUnlinked {
    fn name(&self) -> &'static str {
        "do_dead_code_unlinked"
    }

    fn run(&self, module: &mut Module) -> bool {
        let mut progress = false;
        for fi in 0..module.functions.len() {
            let fh = Handle::from_index(fi);
            for si in 0..module.functions[fh].signatures.len() {
                if module.functions[fh].signatures[si].builtin.is_some() {
                    continue;
                }
                let body = std::mem::take(&mut module.functions[fh].signatures[si].body);
                let (body, changed) = dead_code_in_body(module, body);
                module.functions[fh].signatures[si].body = body;
                progress |= changed;
            }
        }
        progress
    }
}

#[derive(Default)]
struct Usage {
    declaration: Option<Handle<Stmt>>,
    references: usize,
    assignments: Vec<Handle<Stmt>>,
}

fn collect(
    module: &Module,
    block: &[Handle<Stmt>],
    usage: &mut HashMap<Handle<Variable>, Usage>,
    order: &mut Vec<Handle<Variable>>,
) {
    for &stmt in block {
        for root in stmt_expr_slots(module, stmt) {
            for node in post_order(module, root) {
                if let ExprKind::VarRef(var) = module.exprs[node].kind {
                    usage.entry(var).or_default().references += 1;
                }
            }
        }
        match module.stmts.get(stmt) {
            Some(Stmt::Declare(var)) => {
                usage.entry(*var).or_default().declaration = Some(stmt);
                order.push(*var);
            }
            Some(Stmt::Assign { lhs, .. }) => {
                if let Some(var) = deref_root(module, *lhs) {
                    usage.entry(var).or_default().assignments.push(stmt);
                }
            }
            Some(Stmt::If {
                then_block,
                else_block,
                ..
            }) => {
                collect(module, then_block, usage, order);
                collect(module, else_block, usage, order);
            }
            Some(Stmt::Loop { body }) => collect(module, body, usage, order),
            _ => {}
        }
    }
}

fn dead_code_in_body(module: &mut Module, body: Vec<Handle<Stmt>>) -> (Vec<Handle<Stmt>>, bool) {
    let mut usage = HashMap::new();
    let mut order = Vec::new();
    collect(module, &body, &mut usage, &mut order);
    let mut remove: HashSet<Handle<Stmt>> = HashSet::new();
    for var in order {
        let Some(entry) = usage.get(&var) else {
            continue;
        };
        let Some(declaration) = entry.declaration else {
            continue;
        };
        if entry.references > entry.assignments.len() {
            continue;
        }
        if !entry.assignments.is_empty() {
            let mode = module.variables[var].mode;
            let is_output = matches!(
                mode,
                VarMode::FunctionOut | VarMode::FunctionInout | VarMode::ShaderOut
            );
            if !is_output {
                remove.extend(entry.assignments.iter().copied());
            }
        } else {
            remove.insert(declaration);
        }
    }
    if remove.is_empty() {
        return (body, false);
    }
    let body = rewrite_block(module, body, &mut |_, stmt| {
        remove.contains(&stmt).then(Vec::new)
    });
    (body, true)
}
