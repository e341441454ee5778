//! `do_mat_op_to_vec`: splits operations on matrices into per-column vector
//! operations. As in Mesa, every operation with a matrix operand is first
//! pulled out into a `flattening_tmp` temporary (Mesa's expression
//! flattening); the assignment to that temporary is then replaced by column
//! assignments: `+ - / %` and unary operators column by column,
//! matrix×matrix and matrix×vector as sums of column×component products,
//! vector×matrix as one `dot` per result component, matrix×scalar per column,
//! and `all_equal`/`any_nequal` through a `mat_cmp_bvec` of per-column
//! `any_nequal`s. Operands that are not dereferences (or that alias the
//! result) are first copied into `mat_op_to_vec` temporaries. An operator with
//! no per-column meaning is left whole (it cannot reach here from GLSL).

use crate::arena::Handle;
use crate::hir::{Constant, Expr, ExprKind, Module, Op, ScalarValue, Stmt, Swizzle, Variable};
use crate::span::SourceLoc;
use crate::types::{ScalarKind, Type};

use super::visit::{
    add_expr, add_stmt, add_temp, clone_expr, deref_root, full_mask, post_order_into,
    read_roots_into, rewrite_bodies, var_ref,
};
use super::Pass;

/// Mesa's `do_mat_op_to_vec`.
pub struct MatOpToVec;

impl Pass for MatOpToVec {
    fn name(&self) -> &'static str {
        "do_mat_op_to_vec"
    }

    fn run(&self, module: &mut Module) -> bool {
        // An operation has a matrix operand only if some expression has a
        // matrix type: without one the walk below would change nothing.
        if !module.exprs.iter().any(|(_, e)| e.ty.is_matrix()) {
            return false;
        }
        let mut progress = false;
        let (mut roots, mut nodes, mut stack) = (Vec::new(), Vec::new(), Vec::new());
        rewrite_bodies(module, &mut |module, stmt| {
            if !read_roots_into(module, stmt, &mut roots) {
                return None;
            }
            let loc = module.stmt_locs.get(stmt);
            let mut builder = Builder {
                module,
                out: Vec::new(),
                loc,
            };
            for &root in &roots {
                nodes.clear();
                post_order_into(builder.module, root, &mut nodes, &mut stack);
                for &node in &nodes {
                    if has_matrix_operand(builder.module, node) {
                        builder.flatten(node);
                    }
                }
            }
            if builder.out.is_empty() {
                return None;
            }
            progress = true;
            let mut out = builder.out;
            out.push(stmt);
            Some(out)
        });
        progress
    }
}

fn has_matrix_operand(module: &Module, e: Handle<Expr>) -> bool {
    match &module.exprs[e].kind {
        ExprKind::Operation(_, operands) => operands
            .iter()
            .any(|o| module.exprs.get(*o).is_some_and(|o| o.ty.is_matrix())),
        _ => false,
    }
}

struct Builder<'m> {
    module: &'m mut Module,
    out: Vec<Handle<Stmt>>,
    loc: SourceLoc,
}

impl Builder<'_> {
    fn temp(&mut self, name: &str, ty: Type) -> Handle<Variable> {
        let (var, decl) = add_temp(self.module, name, ty, self.loc);
        self.out.push(decl);
        var
    }

    fn expr(&mut self, kind: ExprKind, ty: Type) -> Handle<Expr> {
        add_expr(self.module, kind, ty, self.loc)
    }

    fn var(&mut self, var: Handle<Variable>) -> Handle<Expr> {
        var_ref(self.module, var, self.loc)
    }

    fn assign(&mut self, lhs: Handle<Expr>, rhs: Handle<Expr>, write_mask: u8) {
        let stmt = add_stmt(
            self.module,
            Stmt::Assign {
                lhs,
                rhs,
                write_mask,
            },
            self.loc,
        );
        self.out.push(stmt);
    }

    fn int(&mut self, value: i32) -> Handle<Expr> {
        self.expr(
            ExprKind::Constant(Constant::Components(smallvec::smallvec![ScalarValue::Int(
                value
            )])),
            Type::INT,
        )
    }

    /// Column `i` of a matrix dereference (a copy of anything else).
    fn column(&mut self, deref: Handle<Expr>, i: u8) -> Handle<Expr> {
        let ty = self.module.exprs[deref].ty.clone();
        let copy = clone_expr(self.module, deref);
        match ty {
            Type::Matrix { rows, .. } => {
                let index = self.int(i as i32);
                self.expr(
                    ExprKind::ArrayRef(copy, index),
                    Type::Vector(ScalarKind::Float, rows),
                )
            }
            _ => copy,
        }
    }

    /// Component `row` of column `col`.
    fn element(&mut self, deref: Handle<Expr>, col: u8, row: u8) -> Handle<Expr> {
        let column = self.column(deref, col);
        self.expr(
            ExprKind::Swizzle(
                column,
                Swizzle {
                    components: [row, 0, 0, 0],
                    len: 1,
                },
            ),
            Type::FLOAT,
        )
    }

    fn op(&mut self, op: Op, operands: &[Handle<Expr>], ty: Type) -> Handle<Expr> {
        self.expr(
            ExprKind::Operation(op, crate::hir::Operands::from_slice(operands)),
            ty,
        )
    }

    /// Pulls `node` out into `flattening_tmp` and splits that assignment.
    fn flatten(&mut self, node: Handle<Expr>) {
        let expr = self.module.exprs[node].clone();
        let ExprKind::Operation(op, operands) = expr.kind.clone() else {
            return;
        };
        let result = self.temp("flattening_tmp", expr.ty.clone());
        let moved = self.expr(expr.kind, expr.ty.clone());
        self.module.exprs[node].kind = ExprKind::VarRef(result);
        if !self.split(result, op, &operands, &expr.ty) {
            let lhs = self.var(result);
            self.assign(lhs, moved, full_mask(&expr.ty));
        }
    }

    /// Emits the column-wise form of `result = op(operands)`; false if the
    /// operator has none.
    fn split(
        &mut self,
        result: Handle<Variable>,
        op: Op,
        operands: &[Handle<Expr>],
        ty: &Type,
    ) -> bool {
        let splittable = matches!(
            op,
            Op::Add | Op::Sub | Op::Div | Op::Mod | Op::Mul | Op::AllEqual | Op::AnyNequal
        ) || operands.len() == 1;
        if !splittable || operands.len() > 2 {
            return false;
        }
        // Operands that are dereferences of something other than the result
        // are used as they are; everything else goes through a temporary.
        let mut ops = Vec::new();
        for &operand in operands {
            let is_deref = matches!(
                self.module.exprs[operand].kind,
                ExprKind::VarRef(_) | ExprKind::ArrayRef(..) | ExprKind::RecordRef(..)
            );
            if is_deref && deref_root(self.module, operand) != Some(result) {
                ops.push(operand);
                continue;
            }
            let oty = self.module.exprs[operand].ty.clone();
            let tmp = self.temp("mat_op_to_vec", oty.clone());
            let lhs = self.var(tmp);
            self.assign(lhs, operand, full_mask(&oty));
            ops.push(self.var(tmp));
        }
        let result_ref = self.var(result);
        match (op, ops.as_slice()) {
            (_, [a]) => {
                let columns = self.module.exprs[*a].ty.matrix_columns();
                let rows = self.module.exprs[*a].ty.vector_elements();
                let kind = ty.scalar_kind().unwrap_or(ScalarKind::Float);
                for i in 0..columns {
                    let col = self.column(*a, i);
                    let rhs = self.op(op, &[col], Type::Vector(kind, rows));
                    let lhs = self.column(result_ref, i);
                    self.assign(lhs, rhs, full_mask(&Type::Vector(kind, rows)));
                }
            }
            (Op::Add | Op::Sub | Op::Div | Op::Mod, [a, b]) => {
                let Type::Matrix { columns, rows } = *ty else {
                    return false;
                };
                let column_ty = Type::Vector(ScalarKind::Float, rows);
                for i in 0..columns {
                    let ca = self.column(*a, i);
                    let cb = self.column(*b, i);
                    let rhs = self.op(op, &[ca, cb], column_ty.clone());
                    let lhs = self.column(result_ref, i);
                    self.assign(lhs, rhs, full_mask(&column_ty));
                }
            }
            (Op::Mul, [a, b]) => self.mul(result_ref, *a, *b),
            (Op::AllEqual | Op::AnyNequal, [a, b]) => {
                self.equal(result_ref, *a, *b, op == Op::AllEqual)
            }
            _ => return false,
        }
        true
    }

    fn mul(&mut self, result: Handle<Expr>, a: Handle<Expr>, b: Handle<Expr>) {
        let ta = self.module.exprs[a].ty.clone();
        let tb = self.module.exprs[b].ty.clone();
        let a_cols = ta.matrix_columns();
        let a_rows = ta.vector_elements();
        let column_ty = Type::Vector(ScalarKind::Float, a_rows);
        if ta.is_matrix() && (tb.is_matrix() || tb.is_vector()) {
            // Each result column is Σ_i a[i] * b[col][i].
            let b_cols = tb.matrix_columns();
            for col in 0..b_cols {
                let mut sum = {
                    let c = self.column(a, 0);
                    let e = self.element(b, col, 0);
                    self.op(Op::Mul, &[c, e], column_ty.clone())
                };
                for i in 1..a_cols {
                    let c = self.column(a, i);
                    let e = self.element(b, col, i);
                    let product = self.op(Op::Mul, &[c, e], column_ty.clone());
                    sum = self.op(Op::Add, &[sum, product], column_ty.clone());
                }
                let lhs = if tb.is_matrix() {
                    self.column(result, col)
                } else {
                    clone_expr(self.module, result)
                };
                self.assign(lhs, sum, full_mask(&column_ty));
            }
        } else if ta.is_vector() && tb.is_matrix() {
            // Result component i is dot(a, b[i]).
            for i in 0..tb.matrix_columns() {
                let va = clone_expr(self.module, a);
                let cb = self.column(b, i);
                let rhs = self.op(Op::Dot, &[va, cb], Type::FLOAT);
                let lhs = clone_expr(self.module, result);
                self.assign(lhs, rhs, 1 << i);
            }
        } else {
            // Matrix times scalar, either way round: scale each column.
            let (m, s) = if ta.is_matrix() { (a, b) } else { (b, a) };
            let tm = self.module.exprs[m].ty.clone();
            let column_ty = Type::Vector(ScalarKind::Float, tm.vector_elements());
            for i in 0..tm.matrix_columns() {
                let c = self.column(m, i);
                let scalar = clone_expr(self.module, s);
                let rhs = self.op(Op::Mul, &[c, scalar], column_ty.clone());
                let lhs = self.column(result, i);
                self.assign(lhs, rhs, full_mask(&column_ty));
            }
        }
    }

    fn equal(&mut self, result: Handle<Expr>, a: Handle<Expr>, b: Handle<Expr>, test_equal: bool) {
        let columns = self.module.exprs[a].ty.matrix_columns();
        let bvec = Type::vec(ScalarKind::Bool, columns);
        let tmp = self.temp("mat_cmp_bvec", bvec.clone());
        for i in 0..columns {
            let ca = self.column(a, i);
            let cb = self.column(b, i);
            let cmp = self.op(Op::AnyNequal, &[ca, cb], Type::BOOL);
            let lhs = self.var(tmp);
            self.assign(lhs, cmp, 1 << i);
        }
        let all_false = self.expr(
            ExprKind::Constant(Constant::Components(smallvec::smallvec![
                ScalarValue::Bool(false);
                columns as usize
            ])),
            bvec,
        );
        let val = self.var(tmp);
        let mut any = self.op(Op::AnyNequal, &[val, all_false], Type::BOOL);
        if test_equal {
            any = self.op(Op::LogicNot, &[any], Type::BOOL);
        }
        let lhs = clone_expr(self.module, result);
        self.assign(lhs, any, 1);
    }
}
