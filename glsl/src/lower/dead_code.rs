//! `do_dead_code_unlinked`: inside each function body, a local variable whose
//! only references are the assignments to it loses those assignments (unless
//! it is an output), and a local that is never referenced loses its
//! declaration. Globals, parameters and outputs are never removed. Like
//! Mesa's pass it runs once over precomputed counts, so a declaration whose
//! assignments were just removed goes on the next run.

use crate::arena::Handle;
use crate::hir::{Expr, ExprKind, Module, Stmt, VarMode, Variable};

use super::visit::{deref_root, for_each_node, rewrite_block, stmt_expr_slots};
use super::Pass;

/// Mesa's `do_dead_code_unlinked`.
pub struct DeadCodeUnlinked;

impl Pass for DeadCodeUnlinked {
    fn name(&self) -> &'static str {
        "do_dead_code_unlinked"
    }

    fn run(&self, module: &mut Module) -> bool {
        let mut progress = false;
        let mut collector = Collector {
            slot: vec![0; module.variables.len()],
            entries: Vec::new(),
            order: Vec::new(),
            stack: Vec::new(),
        };
        for fi in 0..module.functions.len() {
            let fh = Handle::from_index(fi);
            for si in 0..module.functions[fh].signatures.len() {
                if module.functions[fh].signatures[si].builtin.is_some() {
                    continue;
                }
                let body = std::mem::take(&mut module.functions[fh].signatures[si].body);
                let (body, changed) = dead_code_in_body(module, body, &mut collector);
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

/// What one function body does with its variables.
struct Collector {
    /// Per variable: 1 + its index in `entries`, 0 when not seen in this body.
    slot: Vec<u32>,
    /// The variables seen in this body, with their usage.
    entries: Vec<(Handle<Variable>, Usage)>,
    /// Variables declared in the body, in declaration order.
    order: Vec<Handle<Variable>>,
    stack: Vec<(Handle<Expr>, bool)>,
}

impl Collector {
    fn usage(&mut self, var: Handle<Variable>) -> &mut Usage {
        usage_of(&mut self.slot, &mut self.entries, var)
    }

    /// Forgets the previous body.
    fn reset(&mut self) {
        for (var, _) in self.entries.drain(..) {
            if let Some(s) = self.slot.get_mut(var.index()) {
                *s = 0;
            }
        }
        self.order.clear();
    }

    fn collect(&mut self, module: &Module, block: &[Handle<Stmt>]) {
        for &stmt in block {
            for root in stmt_expr_slots(module, stmt) {
                let (slot, entries) = (&mut self.slot, &mut self.entries);
                for_each_node(module, root, &mut self.stack, |_, expr| {
                    if let ExprKind::VarRef(var) = expr.kind {
                        usage_of(slot, entries, var).references += 1;
                    }
                });
            }
            match module.stmts.get(stmt) {
                Some(Stmt::Declare(var)) => {
                    self.usage(*var).declaration = Some(stmt);
                    self.order.push(*var);
                }
                Some(Stmt::Assign { lhs, .. }) => {
                    if let Some(var) = deref_root(module, *lhs) {
                        self.usage(var).assignments.push(stmt);
                    }
                }
                Some(Stmt::If {
                    then_block,
                    else_block,
                    ..
                }) => {
                    self.collect(module, then_block);
                    self.collect(module, else_block);
                }
                Some(Stmt::Loop { body }) => self.collect(module, body),
                _ => {}
            }
        }
    }
}

/// The usage entry of `var`, created on first use.
fn usage_of<'c>(
    slot: &mut Vec<u32>,
    entries: &'c mut Vec<(Handle<Variable>, Usage)>,
    var: Handle<Variable>,
) -> &'c mut Usage {
    if slot.len() <= var.index() {
        slot.resize(var.index() + 1, 0);
    }
    let index = match slot[var.index()] {
        0 => {
            entries.push((var, Usage::default()));
            slot[var.index()] = entries.len() as u32;
            entries.len() - 1
        }
        n => n as usize - 1,
    };
    &mut entries[index].1
}

fn dead_code_in_body(
    module: &mut Module,
    body: Vec<Handle<Stmt>>,
    collector: &mut Collector,
) -> (Vec<Handle<Stmt>>, bool) {
    collector.reset();
    collector.collect(module, &body);
    let mut remove: Vec<Handle<Stmt>> = Vec::new();
    for &var in &collector.order {
        let entry = &collector.entries[collector.slot[var.index()] as usize - 1].1;
        let Some(declaration) = entry.declaration else {
            continue;
        };
        if entry.references > entry.assignments.len() {
            continue;
        }
        if !entry.assignments.is_empty() {
            let mode = module.variables[var].mode;
            // Buffer and shared variables are memory other invocations see
            // (Mesa's `do_dead_code` keeps their stores too).
            let is_output = matches!(
                mode,
                VarMode::FunctionOut
                    | VarMode::FunctionInout
                    | VarMode::ShaderOut
                    | VarMode::ShaderStorage
                    | VarMode::Shared
            );
            if !is_output {
                remove.extend_from_slice(&entry.assignments);
            }
        } else {
            remove.push(declaration);
        }
    }
    if remove.is_empty() {
        return (body, false);
    }
    let mut removed = vec![false; module.stmts.len()];
    for stmt in remove {
        if let Some(r) = removed.get_mut(stmt.index()) {
            *r = true;
        }
    }
    let body = rewrite_block(module, body, &mut |_, stmt| {
        removed
            .get(stmt.index())
            .copied()
            .unwrap_or(false)
            .then(Vec::new)
    });
    (body, true)
}
