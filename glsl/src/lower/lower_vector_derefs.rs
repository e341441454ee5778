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

use super::visit::{clone_expr, deref_indices, full_mask, post_order, rewrite_bodies};
use super::Pass;

/// Mesa's `lower_vector_derefs`.
pub struct LowerVectorDerefs;

impl Pass for LowerVectorDerefs {
    fn name(&self) -> &'static str {
        "lower_vector_derefs"
    }

    fn run(&self, module: &mut Module) -> bool {
        let mut progress = false;
        rewrite_bodies(module, &mut |module, stmt| {
            let mut rvalues = Vec::new();
            match module.stmts.get(stmt)? {
                Stmt::Assign { lhs, rhs, .. } => {
                    rvalues.extend(deref_indices(module, *lhs));
                    rvalues.push(*rhs);
                }
                Stmt::Call {
                    function,
                    signature,
                    return_deref,
                    args,
                } => {
                    if let Some(d) = return_deref {
                        rvalues.extend(deref_indices(module, *d));
                    }
                    for (i, arg) in args.iter().enumerate() {
                        if is_output_argument(module, *function, *signature, i) {
                            rvalues.extend(deref_indices(module, *arg));
                        } else {
                            rvalues.push(*arg);
                        }
                    }
                }
                Stmt::Return(Some(e)) | Stmt::Discard(Some(e)) => rvalues.push(*e),
                Stmt::If { condition, .. } => rvalues.push(*condition),
                _ => {}
            }
            for root in rvalues {
                progress |= lower_reads(module, root);
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

/// Rewrites vector reads in the tree under `root`.
fn lower_reads(module: &mut Module, root: Handle<Expr>) -> bool {
    let mut progress = false;
    for node in post_order(module, root) {
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
                module.exprs[node].kind = ExprKind::Operation(Op::VectorExtract, vec![base, index]);
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
                kind: ExprKind::Operation(Op::VectorInsert, vec![old, rhs, index]),
                ty: base_ty.clone(),
            });
            module.expr_locs.insert(insert, loc);
            (insert, full_mask(&base_ty))
        }
    };
    module.stmts[stmt] = Stmt::Assign {
        lhs: base,
        rhs: new_rhs,
        write_mask: mask,
    };
    true
}
