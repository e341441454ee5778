//! `do_if_simplification`: an `if` whose condition is a constant is replaced
//! by the branch that runs; an `if` with two empty branches disappears; an
//! `if` with only an else branch is inverted (`if (!c) { else }`).

use crate::hir::const_eval::as_bool;
use crate::hir::{ExprKind, Module, Op, Stmt};
use crate::types::Type;

use super::visit::{add_expr, rewrite_bodies};
use super::Pass;

/// Mesa's `do_if_simplification`.
pub struct IfSimplification;

impl Pass for IfSimplification {
    fn name(&self) -> &'static str {
        "do_if_simplification"
    }

    fn run(&self, module: &mut Module) -> bool {
        let mut progress = false;
        rewrite_bodies(module, &mut |module, stmt| {
            let Some(Stmt::If {
                condition,
                then_block,
                else_block,
            }) = module.stmts.get(stmt)
            else {
                return None;
            };
            let condition = *condition;
            if then_block.is_empty() && else_block.is_empty() {
                progress = true;
                return Some(Vec::new());
            }
            if let ExprKind::Constant(value) = &module.exprs[condition].kind {
                let taken = match as_bool(value)? {
                    true => then_block.clone(),
                    false => else_block.clone(),
                };
                progress = true;
                return Some(taken);
            }
            if then_block.is_empty() {
                let loc = module.expr_locs.get(condition);
                let inverted = add_expr(
                    module,
                    ExprKind::Operation(Op::LogicNot, smallvec::smallvec![condition]),
                    Type::BOOL,
                    loc,
                );
                if let Stmt::If {
                    condition,
                    then_block,
                    else_block,
                } = &mut module.stmts[stmt]
                {
                    *condition = inverted;
                    *then_block = std::mem::take(else_block);
                }
                progress = true;
            }
            None
        });
        progress
    }
}
