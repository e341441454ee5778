//! `lower_vector_derefs`: `(array_ref v i)` on a vector becomes a swizzle
//! (constant index) or `vector_extract` (dynamic index) where it is read, and
//! an assignment to `v[i]` becomes a one-component write mask on `v`
//! (constant index) or `v = vector_insert(v, rhs, i)` with a full mask
//! (dynamic index).
//!
//! Out-of-range constant indices are left alone (the checker reports them).
//! `out`/`inout` call arguments keep their dereference shape; only their
//! indices are lowered.

use crate::arena::Handle;
use crate::builtins::ParamDirection;
use crate::hir::const_eval::{as_int, evaluate};
use crate::hir::{Expr, ExprKind, Function, Module, Op, Stmt, Swizzle, VarMode};

use super::visit::{clone_expr, deref_indices_into, full_mask, post_order_into, rewrite_bodies};
use super::Pass;

/// Mesa's `lower_vector_derefs`.
pub struct LowerVectorDerefs;

impl Pass for LowerVectorDerefs {
    fn name(&self) -> &'static str {
        "lower_vector_derefs"
    }

    fn run(&self, module: &mut Module) -> bool {
        // Only `array_ref`s of vectors are rewritten (reads and writes alike):
        // without one in the arena the walk below would change nothing.
        let any_vector_index = module.exprs.iter().any(|(_, e)| match e.kind {
            ExprKind::ArrayRef(base, _) => module.exprs.get(base).is_none_or(|b| b.ty.is_vector()),
            _ => false,
        });
        if !any_vector_index {
            return false;
        }
        let mut progress = false;
        let (mut rvalues, mut nodes, mut stack) = (Vec::new(), Vec::new(), Vec::new());
        rewrite_bodies(module, &mut |module, stmt| {
            rvalues.clear();
            match module.stmts.get(stmt)? {
                Stmt::Assign { lhs, rhs, .. } => {
                    deref_indices_into(module, *lhs, &mut rvalues);
                    rvalues.push(*rhs);
                }
                Stmt::Call {
                    function,
                    signature,
                    return_deref,
                    args,
                } => {
                    if let Some(d) = return_deref {
                        deref_indices_into(module, *d, &mut rvalues);
                    }
                    for (i, arg) in args.iter().enumerate() {
                        if is_output_argument(module, *function, *signature, i) {
                            deref_indices_into(module, *arg, &mut rvalues);
                        } else {
                            rvalues.push(*arg);
                        }
                    }
                }
                Stmt::Return(Some(e)) | Stmt::Discard(Some(e)) => rvalues.push(*e),
                Stmt::If { condition, .. } => rvalues.push(*condition),
                _ => {}
            }
            for &root in &rvalues {
                nodes.clear();
                post_order_into(module, root, &mut nodes, &mut stack);
                progress |= lower_reads(module, &nodes);
            }
            progress |= lower_write(module, stmt);
            None
        });
        progress
    }
}

fn is_output_argument(
    module: &Module,
    function: Handle<Function>,
    signature: usize,
    index: usize,
) -> bool {
    let Some(sig) = module
        .functions
        .get(function)
        .and_then(|f| f.signatures.get(signature))
    else {
        return false;
    };
    if let Some(param) = sig.parameters.get(index) {
        return matches!(
            module.variables.get(*param).map(|v| v.mode),
            Some(VarMode::FunctionOut | VarMode::FunctionInout)
        );
    }
    sig.builtin
        .and_then(crate::builtins::signature)
        .and_then(|b| b.parameters.get(index).map(|p| p.1))
        .is_some_and(|d| d != ParamDirection::In)
}

/// What an index into a vector of `width` components is.
enum Index {
    Dynamic,
    Constant(u8),
    OutOfRange,
}

fn classify_index(module: &Module, index: Handle<Expr>, width: u8) -> Index {
    match evaluate(module, index).as_ref().and_then(as_int) {
        None => Index::Dynamic,
        Some(i) if (0..width as i64).contains(&i) => Index::Constant(i as u8),
        Some(_) => Index::OutOfRange,
    }
}

/// Rewrites vector reads among the nodes of a tree (given bottom-up).
fn lower_reads(module: &mut Module, nodes: &[Handle<Expr>]) -> bool {
    let mut progress = false;
    for &node in nodes {
        let ExprKind::ArrayRef(base, index) = module.exprs[node].kind else {
            continue;
        };
        let base_ty = &module.exprs[base].ty;
        if !base_ty.is_vector() {
            continue;
        }
        let width = base_ty.vector_elements();
        match classify_index(module, index, width) {
            Index::Constant(i) => {
                module.exprs[node].kind = ExprKind::Swizzle(
                    base,
                    Swizzle {
                        components: [i, 0, 0, 0],
                        len: 1,
                    },
                );
            }
            Index::OutOfRange => continue,
            Index::Dynamic => {
                module.exprs[node].kind =
                    ExprKind::Operation(Op::VectorExtract, smallvec::smallvec![base, index]);
            }
        }
        progress = true;
    }
    progress
}

/// Rewrites an assignment to a vector component.
fn lower_write(module: &mut Module, stmt: Handle<Stmt>) -> bool {
    let Some(Stmt::Assign { lhs, rhs, .. }) = module.stmts.get(stmt) else {
        return false;
    };
    let (lhs, rhs) = (*lhs, *rhs);
    let ExprKind::ArrayRef(base, index) = module.exprs[lhs].kind else {
        return false;
    };
    let base_ty = module.exprs[base].ty.clone();
    if !base_ty.is_vector() {
        return false;
    }
    let (new_rhs, mask) = match classify_index(module, index, base_ty.vector_elements()) {
        Index::Constant(i) => (rhs, 1u8 << i),
        Index::OutOfRange => return false,
        Index::Dynamic => {
            let old = clone_expr(module, base);
            let loc = module.expr_locs.get(rhs);
            let insert = module.exprs.append(Expr {
                kind: ExprKind::Operation(Op::VectorInsert, smallvec::smallvec![old, rhs, index]),
                ty: base_ty.clone(),
            });
            module.expr_locs.insert(insert, loc);
            (insert, full_mask(&base_ty))
        }
    };
    let (lhs, rhs, write_mask) = fold_swizzled_lhs(module, base, new_rhs, mask);
    module.stmts[stmt] = Stmt::Assign {
        lhs,
        rhs,
        write_mask,
    };
    true
}

/// Moves swizzles off an assignment target into the write mask, as Mesa's
/// `ir_assignment::set_lhs` does: `v.wzyx` with mask `z` becomes `v` with
/// mask `y`, and a vector right side is re-swizzled so its components line up
/// with the written channels in ascending order.
fn fold_swizzled_lhs(
    module: &mut Module,
    mut lhs: Handle<Expr>,
    mut rhs: Handle<Expr>,
    mut mask: u8,
) -> (Handle<Expr>, Handle<Expr>, u8) {
    while let ExprKind::Swizzle(inner, swizzle) = module.exprs[lhs].kind {
        let mut new_mask = 0u8;
        // channel → component of the current right side feeding it
        let mut source = [0u8; 4];
        for j in 0..swizzle.len as usize {
            if mask & (1 << j) != 0 {
                let channel = swizzle.components[j] & 3;
                new_mask |= 1 << channel;
                source[channel as usize] = rhs_component(mask, j);
            }
        }
        let rhs_ty = module.exprs[rhs].ty.clone();
        if rhs_ty.is_vector() {
            let mut components = [0u8; 4];
            let mut len = 0u8;
            for (channel, &from) in source.iter().enumerate() {
                if new_mask & (1 << channel) != 0 {
                    components[len as usize] = from;
                    len += 1;
                }
            }
            let kind = rhs_ty
                .scalar_kind()
                .unwrap_or(crate::types::ScalarKind::Float);
            let loc = module.expr_locs.get(rhs);
            rhs = module.exprs.append(Expr {
                kind: ExprKind::Swizzle(rhs, Swizzle { components, len }),
                ty: crate::types::Type::vec(kind, len),
            });
            module.expr_locs.insert(rhs, loc);
        }
        mask = new_mask;
        lhs = inner;
    }
    (lhs, rhs, mask)
}

/// Index of the right-side component that feeds mask bit `bit` (the right
/// side holds one component per set bit, in ascending bit order).
fn rhs_component(mask: u8, bit: usize) -> u8 {
    (mask & ((1u8 << bit) - 1)).count_ones() as u8
}
