//! Expansion of the matrix built-ins (`matrixCompMult`, `outerProduct`,
//! `transpose`, `determinant`, `inverse`): per-column / per-element assignments
//! into a temporary matrix in call mode, cofactor expressions for determinants,
//! and direct folding of constant arguments for the matrix-valued ones (the IR
//! has no expression that builds a matrix from columns).

use super::expand::{full_mask, Builder, Val};
use super::functions::Entry;
use crate::arena::Handle;
use crate::hir::{Constant, Expr, ExprKind, Module, Op, ScalarValue};
use crate::types::{ScalarKind, Type};

/// The determinant of the submatrix of `m` made of `rows` × `cols`, where
/// element (r, c) is `m[c][r]`; Laplace expansion along the first row.
fn sub_determinant(b: &mut Builder<'_>, m: Val, rows: &[u8], cols: &[u8]) -> Option<Handle<Expr>> {
    let float = Type::FLOAT;
    if rows.len() == 1 {
        return b.element(m, cols[0], rows[0]);
    }
    if rows.len() == 2 {
        let a = b.element(m, cols[0], rows[0])?;
        let d = b.element(m, cols[1], rows[1])?;
        let ad = b.op(Op::Mul, &float, &[a, d]);
        let c = b.element(m, cols[0], rows[1])?;
        let bb = b.element(m, cols[1], rows[0])?;
        let bc = b.op(Op::Mul, &float, &[bb, c]);
        return Some(b.op(Op::Sub, &float, &[ad, bc]));
    }
    let mut sum: Option<Handle<Expr>> = None;
    for (k, &col) in cols.iter().enumerate() {
        let rest_cols: Vec<u8> = cols.iter().copied().filter(|&c| c != col).collect();
        let minor = sub_determinant(b, m, &rows[1..], &rest_cols)?;
        let e = b.element(m, col, rows[0])?;
        let term = b.op(Op::Mul, &float, &[e, minor]);
        sum = Some(match sum {
            None => term,
            Some(acc) => b.op(
                if k % 2 == 0 { Op::Add } else { Op::Sub },
                &float,
                &[acc, term],
            ),
        });
    }
    sum
}

/// `determinant(m)` of an `size`×`size` matrix argument `m`.
pub(crate) fn determinant(b: &mut Builder<'_>, m: Val, size: u8) -> Option<Handle<Expr>> {
    let all: Vec<u8> = (0..size).collect();
    sub_determinant(b, m, &all, &all)
}

/// Call-mode expansion of the matrix-valued built-ins: fills a temporary and
/// returns a dereference of it.
pub(crate) fn build_matrix_call(entry: &Entry, b: &mut Builder<'_>) -> Option<Handle<Expr>> {
    let ret = entry.return_type.clone();
    let (columns, rows) = (ret.matrix_columns(), ret.vector_elements());
    let column_type = Type::vec(ScalarKind::Float, rows);
    let result = b.declare(&format!("{}_retval", entry.name), ret.clone());
    let column_ref = |b: &mut Builder<'_>, column: u8| {
        let var = b.expr(ExprKind::VarRef(result), ret.clone());
        let index = b.constant(
            Type::INT,
            Constant::Components(smallvec::smallvec![ScalarValue::Int(column as i32)]),
        );
        b.expr(ExprKind::ArrayRef(var, index), column_type.clone())
    };
    let (x, y) = (Val::arg(0), Val::arg(1));
    match entry.name {
        "matrixCompMult" => {
            for column in 0..columns {
                let a = b.column(x, column)?;
                let c = b.column(y, column)?;
                let product = b.op(Op::Mul, &column_type, &[a, c]);
                let lhs = column_ref(b, column);
                b.assign(lhs, product, full_mask(&column_type));
            }
        }
        "outerProduct" => {
            // column j = c · r[j]
            for column in 0..columns {
                let c = b.arg(0)?;
                let r = b.arg(1)?;
                let rj = b.swizzle(r, &[column]);
                let product = b.op(Op::Mul, &column_type, &[c, rj]);
                let lhs = column_ref(b, column);
                b.assign(lhs, product, full_mask(&column_type));
            }
        }
        "transpose" => {
            // result[j][i] = m[i][j]
            for column in 0..columns {
                for row in 0..rows {
                    let value = b.element(x, row, column)?;
                    let lhs = column_ref(b, column);
                    b.assign(lhs, value, 1 << row);
                }
            }
        }
        "inverse" => {
            let det = determinant(b, x, columns)?;
            let one = b.constant(
                Type::FLOAT,
                Constant::Components(smallvec::smallvec![ScalarValue::Float(1.0)]),
            );
            let inv = b.op(Op::Div, &Type::FLOAT, &[one, det]);
            let inv = b.bind(inv, "inverse_det");
            let all: Vec<u8> = (0..columns).collect();
            // inverse[c][r] = (−1)^(r+c) · minor(A without row c, column r) / det
            for column in 0..columns {
                for row in 0..rows {
                    let minor_rows: Vec<u8> =
                        all.iter().copied().filter(|&i| i != column).collect();
                    let minor_cols: Vec<u8> = all.iter().copied().filter(|&i| i != row).collect();
                    let minor = sub_determinant(b, x, &minor_rows, &minor_cols)?;
                    let minor = if (row + column) % 2 == 1 {
                        b.op(Op::Neg, &Type::FLOAT, &[minor])
                    } else {
                        minor
                    };
                    let scale = b.take(inv)?;
                    let value = b.op(Op::Mul, &Type::FLOAT, &[minor, scale]);
                    let lhs = column_ref(b, column);
                    b.assign(lhs, value, 1 << row);
                }
            }
        }
        _ => return None,
    }
    Some(b.expr(ExprKind::VarRef(result), ret))
}

/// Float components of a constant argument.
fn constant_floats(module: &Module, expr: Handle<Expr>) -> Option<Vec<f64>> {
    match &module.exprs.get(expr)?.kind {
        ExprKind::Constant(Constant::Components(values)) => values
            .iter()
            .map(|v| match *v {
                ScalarValue::Float(f) => Some(f as f64),
                ScalarValue::Int(i) => Some(i as f64),
                ScalarValue::Uint(u) => Some(u as f64),
                ScalarValue::Bool(b) => Some(if b { 1.0 } else { 0.0 }),
            })
            .collect(),
        _ => None,
    }
}

/// Determinant of a column-major n×n matrix.
fn numeric_determinant(m: &[f64], n: usize) -> f64 {
    if n == 1 {
        return m[0];
    }
    let mut sum = 0.0;
    for col in 0..n {
        let minor = numeric_minor(m, n, 0, col);
        let sign = if col % 2 == 0 { 1.0 } else { -1.0 };
        sum += sign * m[col * n] * numeric_determinant(&minor, n - 1);
    }
    sum
}

/// The column-major minor without row `skip_row` and column `skip_col`.
fn numeric_minor(m: &[f64], n: usize, skip_row: usize, skip_col: usize) -> Vec<f64> {
    let mut out = Vec::with_capacity((n - 1) * (n - 1));
    for col in (0..n).filter(|&c| c != skip_col) {
        for row in (0..n).filter(|&r| r != skip_row) {
            out.push(m[col * n + row]);
        }
    }
    out
}

/// Value-mode result of a matrix-valued built-in with constant arguments, as a
/// constant node; `None` if an argument is not a constant.
pub(crate) fn fold_matrix_result(
    entry: &Entry,
    module: &mut Module,
    args: &[Handle<Expr>],
) -> Option<Handle<Expr>> {
    let ret = entry.return_type.clone();
    let (columns, rows) = (
        ret.matrix_columns() as usize,
        ret.vector_elements() as usize,
    );
    let a = constant_floats(module, *args.first()?)?;
    let values: Vec<f64> = match entry.name {
        "matrixCompMult" => {
            let c = constant_floats(module, *args.get(1)?)?;
            a.iter().zip(&c).map(|(x, y)| x * y).collect()
        }
        "outerProduct" => {
            let r = constant_floats(module, *args.get(1)?)?;
            let mut out = Vec::with_capacity(columns * rows);
            for column in 0..columns {
                for row in 0..rows {
                    out.push(a.get(row)? * r.get(column)?);
                }
            }
            out
        }
        "transpose" => {
            // The argument has `rows` columns of `columns` components.
            let mut out = Vec::with_capacity(columns * rows);
            for column in 0..columns {
                for row in 0..rows {
                    out.push(*a.get(row * columns + column)?);
                }
            }
            out
        }
        "inverse" => {
            let n = columns;
            if a.len() != n * n {
                return None;
            }
            let det = numeric_determinant(&a, n);
            let mut out = Vec::with_capacity(n * n);
            for column in 0..n {
                for row in 0..n {
                    let minor = numeric_minor(&a, n, column, row);
                    let sign = if (row + column) % 2 == 0 { 1.0 } else { -1.0 };
                    out.push(sign * numeric_determinant(&minor, n - 1) / det);
                }
            }
            out
        }
        _ => return None,
    };
    if values.len() != columns * rows {
        return None;
    }
    let constant = Constant::Components(
        values
            .into_iter()
            .map(|v| ScalarValue::Float(v as f32))
            .collect(),
    );
    Some(module.exprs.append(Expr {
        kind: ExprKind::Constant(constant),
        ty: ret,
    }))
}
