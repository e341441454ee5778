//! `optimize_redundant_jumps` plus the unreachable-code part of Mesa's
//! `do_lower_jumps`: statements after an unconditional `break`, `continue` or
//! `return` in the same block are dropped (also after an `if` whose both
//! branches end in such a jump), a `continue` that ends a loop body is
//! dropped, and a bare `(return)` ending a void function is dropped.
//! Mesa's lowering of jumps into flag variables is not done here.

use crate::arena::Handle;
use crate::hir::{Module, Stmt};
use crate::types::Type;

use super::Pass;

/// Mesa's `optimize_redundant_jumps` (and `do_lower_jumps`' truncation of
/// unreachable code).
pub struct RedundantJumps;

impl Pass for RedundantJumps {
    fn name(&self) -> &'static str {
        "optimize_redundant_jumps"
    }

    fn run(&self, module: &mut Module) -> bool {
        let mut progress = false;
        for fi in 0..module.functions.len() {
            let fh = Handle::from_index(fi);
            for si in 0..module.functions[fh].signatures.len() {
                let sig = &module.functions[fh].signatures[si];
                if sig.builtin.is_some() {
                    continue;
                }
                let is_void = sig.return_type == Type::Void;
                let mut body = std::mem::take(&mut module.functions[fh].signatures[si].body);
                progress |= clean_block(module, &mut body, 0);
                if is_void
                    && matches!(
                        body.last().and_then(|s| module.stmts.get(*s)),
                        Some(Stmt::Return(None))
                    )
                {
                    body.pop();
                    progress = true;
                }
                module.functions[fh].signatures[si].body = body;
            }
        }
        progress
    }
}

/// True if control never falls through the end of `stmt`.
fn always_jumps(module: &Module, stmt: Handle<Stmt>) -> bool {
    match module.stmts.get(stmt) {
        Some(Stmt::Break | Stmt::Continue | Stmt::Return(_)) => true,
        Some(Stmt::If {
            then_block,
            else_block,
            ..
        }) => {
            let ends = |b: &[Handle<Stmt>]| b.last().is_some_and(|s| always_jumps(module, *s));
            ends(then_block) && ends(else_block)
        }
        _ => false,
    }
}

fn clean_block(module: &mut Module, block: &mut Vec<Handle<Stmt>>, depth: usize) -> bool {
    let mut progress = false;
    if depth > 4096 {
        return false;
    }
    for &stmt in block.iter() {
        let nested = match module.stmts.get(stmt) {
            Some(Stmt::If {
                then_block,
                else_block,
                ..
            }) => Some((then_block.clone(), else_block.clone(), false)),
            Some(Stmt::Loop { body }) => Some((body.clone(), Vec::new(), true)),
            _ => None,
        };
        let Some((mut first, mut second, is_loop)) = nested else {
            continue;
        };
        progress |= clean_block(module, &mut first, depth + 1);
        progress |= clean_block(module, &mut second, depth + 1);
        if is_loop
            && matches!(
                first.last().and_then(|s| module.stmts.get(*s)),
                Some(Stmt::Continue)
            )
        {
            first.pop();
            progress = true;
        }
        match &mut module.stmts[stmt] {
            Stmt::If {
                then_block,
                else_block,
                ..
            } => {
                *then_block = first;
                *else_block = second;
            }
            Stmt::Loop { body } => *body = first,
            _ => {}
        }
    }
    if let Some(pos) = block.iter().position(|s| always_jumps(module, *s)) {
        if pos + 1 < block.len() {
            block.truncate(pos + 1);
            progress = true;
        }
    }
    progress
}
