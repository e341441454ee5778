//! `do_vec_index_to_cond_assign`: a `vector_extract` with a constant index
//! becomes a swizzle; with a dynamic index it becomes a chain of conditional
//! moves: the index and the vector go to `vec_index_tmp_i` /
//! `vec_value_tmp`, a `dereference_condition` bvec compares the index with
//! `0..n`, and one `if` per component copies the selected component into
//! `vec_index_tmp_v`, which replaces the read.

use crate::arena::Handle;
use crate::hir::const_eval::{as_int, evaluate};
use crate::hir::{Constant, Expr, ExprKind, Module, Op, ScalarValue, Stmt, Swizzle};
use crate::span::SourceLoc;
use crate::types::{ScalarKind, Type};

use super::visit::{
    add_expr, add_stmt, add_temp, full_mask, post_order_into, read_roots_into, rewrite_bodies,
    var_ref,
};
use super::Pass;

/// Mesa's `do_vec_index_to_cond_assign`.
pub struct VecIndexToCondAssign;

impl Pass for VecIndexToCondAssign {
    fn name(&self) -> &'static str {
        "do_vec_index_to_cond_assign"
    }

    fn run(&self, module: &mut Module) -> bool {
        // Only `vector_extract` operations are rewritten: without one in the
        // arena the walk below would change nothing.
        let any_extract = module
            .exprs
            .iter()
            .any(|(_, e)| matches!(e.kind, ExprKind::Operation(Op::VectorExtract, _)));
        if !any_extract {
            return false;
        }
        let mut progress = false;
        let (mut roots, mut nodes, mut stack) = (Vec::new(), Vec::new(), Vec::new());
        rewrite_bodies(module, &mut |module, stmt| {
            if !read_roots_into(module, stmt, &mut roots) {
                return None;
            }
            let loc = module.stmt_locs.get(stmt);
            let mut before = Vec::new();
            for &root in &roots {
                nodes.clear();
                post_order_into(module, root, &mut nodes, &mut stack);
                for &node in &nodes {
                    progress |= lower_extract(module, node, loc, &mut before);
                }
            }
            if before.is_empty() {
                return None;
            }
            before.push(stmt);
            Some(before)
        });
        progress
    }
}

fn swizzle1(module: &mut Module, base: Handle<Expr>, i: u8, loc: SourceLoc) -> Handle<Expr> {
    let kind = module.exprs[base]
        .ty
        .scalar_kind()
        .unwrap_or(ScalarKind::Float);
    add_expr(
        module,
        ExprKind::Swizzle(
            base,
            Swizzle {
                components: [i, 0, 0, 0],
                len: 1,
            },
        ),
        Type::Scalar(kind),
        loc,
    )
}

fn lower_extract(
    module: &mut Module,
    node: Handle<Expr>,
    loc: SourceLoc,
    out: &mut Vec<Handle<Stmt>>,
) -> bool {
    let ExprKind::Operation(Op::VectorExtract, operands) = &module.exprs[node].kind else {
        return false;
    };
    let [vector, index] = operands[..] else {
        return false;
    };
    let vector_ty = module.exprs[vector].ty.clone();
    let width = vector_ty.vector_elements();
    if width == 0 {
        return false;
    }
    if let Some(i) = evaluate(module, index).as_ref().and_then(as_int) {
        let i = i.clamp(0, width as i64 - 1) as u8;
        module.exprs[node].kind = ExprKind::Swizzle(
            vector,
            Swizzle {
                components: [i, 0, 0, 0],
                len: 1,
            },
        );
        return true;
    }
    let index_ty = module.exprs[index].ty.clone();
    let index_kind = index_ty.scalar_kind().unwrap_or(ScalarKind::Int);
    let result_ty = module.exprs[node].ty.clone();
    let assign = |module: &mut Module, lhs, rhs, mask| {
        add_stmt(
            module,
            Stmt::Assign {
                lhs,
                rhs,
                write_mask: mask,
            },
            loc,
        )
    };

    let (index_var, decl) = add_temp(module, "vec_index_tmp_i", index_ty.clone(), loc);
    out.push(decl);
    let lhs = var_ref(module, index_var, loc);
    out.push(assign(module, lhs, index, full_mask(&index_ty)));

    let (value_var, decl) = add_temp(module, "vec_value_tmp", vector_ty.clone(), loc);
    out.push(decl);
    let lhs = var_ref(module, value_var, loc);
    out.push(assign(module, lhs, vector, full_mask(&vector_ty)));

    let (result_var, decl) = add_temp(module, "vec_index_tmp_v", result_ty.clone(), loc);
    out.push(decl);

    // dereference_condition = equal(index.xxxx, ivecN(0, 1, …)).
    let index_ref = var_ref(module, index_var, loc);
    let broadcast = add_expr(
        module,
        ExprKind::Swizzle(
            index_ref,
            Swizzle {
                components: [0; 4],
                len: width,
            },
        ),
        Type::vec(index_kind, width),
        loc,
    );
    let tests = (0..width)
        .map(|i| match index_kind {
            ScalarKind::Uint => ScalarValue::Uint(i as u32),
            _ => ScalarValue::Int(i as i32),
        })
        .collect();
    let tests = add_expr(
        module,
        ExprKind::Constant(Constant::Components(tests)),
        Type::vec(index_kind, width),
        loc,
    );
    let bvec = Type::vec(ScalarKind::Bool, width);
    let compare = add_expr(
        module,
        ExprKind::Operation(Op::Equal, smallvec::smallvec![broadcast, tests]),
        bvec.clone(),
        loc,
    );
    let (cond_var, decl) = add_temp(module, "dereference_condition", bvec.clone(), loc);
    out.push(decl);
    let lhs = var_ref(module, cond_var, loc);
    out.push(assign(module, lhs, compare, full_mask(&bvec)));

    for i in 0..width {
        let cond_ref = var_ref(module, cond_var, loc);
        let condition = swizzle1(module, cond_ref, i, loc);
        let value_ref = var_ref(module, value_var, loc);
        let component = swizzle1(module, value_ref, i, loc);
        let lhs = var_ref(module, result_var, loc);
        let then = assign(module, lhs, component, full_mask(&result_ty));
        let branch = add_stmt(
            module,
            Stmt::If {
                condition,
                then_block: vec![then],
                else_block: Vec::new(),
            },
            loc,
        );
        out.push(branch);
    }
    module.exprs[node].kind = ExprKind::VarRef(result_var);
    true
}
