//! `do_constant_folding`: replaces constant subtrees of every rvalue with
//! their value (via [`crate::hir::const_eval`]), bottom-up, with Mesa's rules:
//! an operation folds when all its operands are constants, a swizzle when its
//! operand is, an array dereference when array and index are; variable
//! dereferences are never replaced (a `const` variable's value stays behind
//! its name, and uniforms are never constant). Dereference chains on the left
//! of assignments keep their shape; only their indices fold. A call of a
//! constant-foldable built-in with constant arguments becomes an assignment of
//! the result.

use crate::arena::Handle;
use crate::hir::const_eval::evaluate;
use crate::hir::{Expr, ExprKind, Module, Stmt};

use super::visit::{
    add_expr, add_stmt, full_mask, post_order_into, read_roots_into, rewrite_bodies,
};
use super::Pass;

/// Mesa's `do_constant_folding`.
pub struct ConstantFolding;

impl Pass for ConstantFolding {
    fn name(&self) -> &'static str {
        "do_constant_folding"
    }

    fn run(&self, module: &mut Module) -> bool {
        let mut progress = false;
        let (mut roots, mut nodes, mut stack) = (Vec::new(), Vec::new(), Vec::new());
        rewrite_bodies(module, &mut |module, stmt| {
            if !read_roots_into(module, stmt, &mut roots) {
                return None;
            }
            for &root in &roots {
                nodes.clear();
                post_order_into(module, root, &mut nodes, &mut stack);
                progress |= fold_nodes(module, &nodes);
            }
            let replacement = fold_builtin_call(module, stmt)?;
            progress = true;
            Some(vec![replacement])
        });
        progress
    }
}

fn is_constant(module: &Module, e: Handle<Expr>) -> bool {
    matches!(
        module.exprs.get(e).map(|e| &e.kind),
        Some(ExprKind::Constant(_))
    )
}

/// Folds the nodes of a tree in place, given bottom-up.
fn fold_nodes(module: &mut Module, nodes: &[Handle<Expr>]) -> bool {
    let mut progress = false;
    for &node in nodes {
        let foldable = match &module.exprs[node].kind {
            ExprKind::Constant(_) | ExprKind::VarRef(_) | ExprKind::Texture(_) => false,
            ExprKind::Operation(_, operands) => operands.iter().all(|o| is_constant(module, *o)),
            ExprKind::Swizzle(base, _) => is_constant(module, *base),
            ExprKind::ArrayRef(base, index) => {
                is_constant(module, *base) && is_constant(module, *index)
            }
            ExprKind::RecordRef(..) => true,
        };
        if !foldable {
            continue;
        }
        if let Some(value) = evaluate(module, node) {
            module.exprs[node].kind = ExprKind::Constant(value);
            progress = true;
        }
    }
    progress
}

/// A call of a constant-foldable built-in whose arguments are all constants,
/// as `(assign (mask) return_deref (constant …))`.
fn fold_builtin_call(module: &mut Module, stmt: Handle<Stmt>) -> Option<Handle<Stmt>> {
    // Looked at in place: only a qualifying call's arguments are copied.
    let Stmt::Call {
        function,
        signature,
        return_deref: Some(deref),
        args,
    } = module.stmts.get(stmt)?
    else {
        return None;
    };
    let id = module
        .functions
        .get(*function)?
        .signatures
        .get(*signature)?
        .builtin?;
    if !args.iter().all(|a| is_constant(module, *a)) {
        return None;
    }
    let (deref, args) = (*deref, args.clone());
    let value_expr = crate::builtins::expand_value(id, module, &args)?;
    let value = evaluate(module, value_expr)?;
    let ty = module.exprs[deref].ty.clone();
    let loc = module.stmt_locs.get(stmt);
    let rhs = add_expr(module, ExprKind::Constant(value), ty.clone(), loc);
    Some(add_stmt(
        module,
        Stmt::Assign {
            lhs: deref,
            rhs,
            write_mask: full_mask(&ty),
        },
        loc,
    ))
}
