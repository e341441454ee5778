//! Helpers that emit HIR for the checker: expression nodes with locations,
//! statements appended to the current list, temporaries, assignments (with
//! swizzled left sides folded into write masks, as Mesa's `ir_assignment`
//! does), deep copies of dereference trees, constants, implicit conversions and
//! constant evaluation.

use crate::arena::Handle;
use crate::ast;
use crate::hir::{
    self, const_eval, Constant, ExprKind, Op, ScalarValue, Stmt, Swizzle, VarMode, Variable,
};
use crate::span::SourceLoc;
use crate::types::{ScalarKind, Type};

use super::Checker;

/// The first scalar of a constant, if it has one.
pub(crate) fn first_scalar(constant: &Constant) -> Option<ScalarValue> {
    match constant {
        Constant::Components(values) => values.first().copied(),
        Constant::Aggregate(items) => items.first().and_then(first_scalar),
    }
}

/// Scalar value as a signed integer, if integral.
pub(crate) fn scalar_as_i64(value: ScalarValue) -> Option<i64> {
    match value {
        ScalarValue::Int(i) => Some(i as i64),
        ScalarValue::Uint(u) => Some(u as i64),
        _ => None,
    }
}

/// True if an AST expression contains the comma operator outside parentheses
/// of calls (Mesa's `has_sequence_subexpression`).
pub(crate) fn has_sequence(expr: &ast::Expr) -> bool {
    let mut stack = vec![expr];
    while let Some(e) = stack.pop() {
        match &e.kind {
            ast::ExprKind::Comma(..) => return true,
            ast::ExprKind::Unary(_, a)
            | ast::ExprKind::PostInc(a)
            | ast::ExprKind::PostDec(a)
            | ast::ExprKind::Field(a, _)
            | ast::ExprKind::MethodLength(a) => stack.push(a),
            ast::ExprKind::Binary(_, a, b)
            | ast::ExprKind::Assign(_, a, b)
            | ast::ExprKind::Index(a, b) => {
                stack.push(a);
                stack.push(b);
            }
            ast::ExprKind::Ternary(a, b, c) => {
                stack.push(a);
                stack.push(b);
                stack.push(c);
            }
            ast::ExprKind::Call(_, args) => stack.extend(args.iter()),
            _ => {}
        }
    }
    false
}

impl Checker<'_> {
    /// Adds an expression node.
    pub fn add_expr(&mut self, kind: ExprKind, ty: Type, loc: SourceLoc) -> Handle<hir::Expr> {
        let handle = self.module.exprs.append(hir::Expr { kind, ty });
        self.module.expr_locs.insert(handle, loc);
        handle
    }

    /// An expression of the error type.
    pub fn error_expr(&mut self, loc: SourceLoc) -> Handle<hir::Expr> {
        self.add_expr(
            ExprKind::Constant(Constant::Components(Default::default())),
            Type::Error,
            loc,
        )
    }

    /// Appends a statement to the current list.
    pub fn emit(&mut self, stmt: Stmt, loc: SourceLoc) -> Handle<Stmt> {
        let handle = self.module.stmts.append(stmt);
        self.module.stmt_locs.insert(handle, loc);
        self.body.push(handle);
        handle
    }

    /// A constant expression node.
    pub fn constant(&mut self, value: Constant, ty: Type, loc: SourceLoc) -> Handle<hir::Expr> {
        self.add_expr(ExprKind::Constant(value), ty, loc)
    }

    /// `int` constant.
    pub fn const_int(&mut self, value: i32, loc: SourceLoc) -> Handle<hir::Expr> {
        self.constant(
            Constant::Components(smallvec::smallvec![ScalarValue::Int(value)]),
            Type::INT,
            loc,
        )
    }

    /// `bool` constant.
    pub fn const_bool(&mut self, value: bool, loc: SourceLoc) -> Handle<hir::Expr> {
        self.constant(
            Constant::Components(smallvec::smallvec![ScalarValue::Bool(value)]),
            Type::BOOL,
            loc,
        )
    }

    /// A constant 1 of the base kind of `ty` (for `++`/`--`).
    pub fn const_one(&mut self, ty: &Type, loc: SourceLoc) -> Handle<hir::Expr> {
        let value = match ty.scalar_kind() {
            Some(ScalarKind::Int) => ScalarValue::Int(1),
            Some(ScalarKind::Uint) => ScalarValue::Uint(1),
            _ => ScalarValue::Float(1.0),
        };
        let kind = ty.scalar_kind().unwrap_or(ScalarKind::Float);
        self.constant(
            Constant::Components(smallvec::smallvec![value]),
            Type::Scalar(kind),
            loc,
        )
    }

    /// Declares a compiler temporary in the current statement list.
    pub fn temporary(&mut self, name: &str, ty: Type, loc: SourceLoc) -> Handle<Variable> {
        let var = self.new_variable(Variable::new(name, ty, VarMode::Temporary), loc);
        self.emit(Stmt::Declare(var), loc);
        var
    }

    /// `(var_ref v)`
    pub fn var_ref(&mut self, var: Handle<Variable>, loc: SourceLoc) -> Handle<hir::Expr> {
        let ty = self
            .module
            .variables
            .get(var)
            .map(|v| v.ty.clone())
            .unwrap_or(Type::Error);
        self.add_expr(ExprKind::VarRef(var), ty, loc)
    }

    /// A swizzle node; a swizzle of a swizzle is folded into one.
    pub fn swizzle(
        &mut self,
        value: Handle<hir::Expr>,
        components: &[u8],
        loc: SourceLoc,
    ) -> Handle<hir::Expr> {
        let ty = self.ty(value);
        let kind = ty.scalar_kind().unwrap_or(ScalarKind::Float);
        let mut comps = [0u8; 4];
        for (slot, c) in comps.iter_mut().zip(components) {
            *slot = *c;
        }
        let len = components.len().clamp(1, 4) as u8;
        let mut base = value;
        if let Some(hir::Expr {
            kind: ExprKind::Swizzle(inner, inner_swizzle),
            ..
        }) = self.module.exprs.get(value)
        {
            let (inner, inner_swizzle) = (*inner, *inner_swizzle);
            for slot in comps.iter_mut().take(len as usize) {
                *slot = inner_swizzle.components[(*slot as usize) & 3];
            }
            base = inner;
        }
        let result_ty = Type::vec(kind, len);
        self.add_expr(
            ExprKind::Swizzle(
                base,
                Swizzle {
                    components: comps,
                    len,
                },
            ),
            result_ty,
            loc,
        )
    }

    /// An operation node.
    pub fn operation(
        &mut self,
        op: Op,
        operands: &[Handle<hir::Expr>],
        ty: Type,
        loc: SourceLoc,
    ) -> Handle<hir::Expr> {
        self.add_expr(
            ExprKind::Operation(op, hir::Operands::from_slice(operands)),
            ty,
            loc,
        )
    }

    /// Deep copy of an expression tree (expressions are pure trees, so a value
    /// used twice is copied rather than shared).
    pub fn clone_expr(&mut self, expr: Handle<hir::Expr>) -> Handle<hir::Expr> {
        let Some(node) = self.module.exprs.get(expr).cloned() else {
            return expr;
        };
        let loc = self.module.expr_locs.get(expr);
        let kind = match node.kind {
            ExprKind::Constant(c) => ExprKind::Constant(c),
            ExprKind::VarRef(v) => ExprKind::VarRef(v),
            ExprKind::ArrayRef(a, i) => ExprKind::ArrayRef(self.clone_expr(a), self.clone_expr(i)),
            ExprKind::RecordRef(a, f) => ExprKind::RecordRef(self.clone_expr(a), f),
            ExprKind::Swizzle(a, s) => ExprKind::Swizzle(self.clone_expr(a), s),
            ExprKind::Operation(op, operands) => ExprKind::Operation(
                op,
                operands.into_iter().map(|o| self.clone_expr(o)).collect(),
            ),
            ExprKind::Texture(mut t) => {
                t.sampler = self.clone_expr(t.sampler);
                t.coordinate = t.coordinate.map(|c| self.clone_expr(c));
                t.offset = t.offset.map(|c| self.clone_expr(c));
                t.projector = t.projector.map(|c| self.clone_expr(c));
                t.shadow_comparator = t.shadow_comparator.map(|c| self.clone_expr(c));
                t.lod = t.lod.map(|c| self.clone_expr(c));
                t.grad = t
                    .grad
                    .map(|(a, b)| (self.clone_expr(a), self.clone_expr(b)));
                ExprKind::Texture(t)
            }
        };
        self.add_expr(kind, node.ty, loc)
    }

    /// The variable at the root of a dereference chain.
    pub fn root_variable(&self, expr: Handle<hir::Expr>) -> Option<Handle<Variable>> {
        let mut current = expr;
        loop {
            match &self.module.exprs.get(current)?.kind {
                ExprKind::VarRef(v) => return Some(*v),
                ExprKind::ArrayRef(a, _) | ExprKind::RecordRef(a, _) | ExprKind::Swizzle(a, _) => {
                    current = *a
                }
                _ => return None,
            }
        }
    }

    /// Emits `lhs = rhs`, folding swizzles on the left into the write mask
    /// and reordering the right side to match.
    pub fn emit_assign(&mut self, lhs: Handle<hir::Expr>, rhs: Handle<hir::Expr>, loc: SourceLoc) {
        let rhs_ty = self.ty(rhs);
        let mut write_mask: u8 = match rhs_ty {
            Type::Vector(_, n) => (1u8 << n) - 1,
            Type::Scalar(_) => 1,
            _ => 0,
        };
        let mut lhs = lhs;
        let mut rhs = rhs;
        if let Some(hir::Expr {
            kind: ExprKind::Swizzle(base, swizzle),
            ..
        }) = self.module.exprs.get(lhs)
        {
            let (base, swizzle) = (*base, *swizzle);
            // Component i of the rhs goes to channel swizzle[i] of `base`.
            let mut pairs: Vec<(u8, u8)> = (0..swizzle.len)
                .map(|i| (swizzle.components[i as usize] & 3, i))
                .collect();
            pairs.sort_unstable();
            write_mask = pairs.iter().fold(0u8, |m, (c, _)| m | (1 << c));
            let order: Vec<u8> = pairs.iter().map(|(_, i)| *i).collect();
            let identity = order.iter().enumerate().all(|(i, &o)| i as u8 == o);
            let whole_in_order = identity && rhs_ty.vector_elements() as usize == order.len();
            if !whole_in_order && !rhs_ty.is_error() {
                rhs = self.swizzle(rhs, &order, loc);
            }
            lhs = base;
        }
        if let Some(var) = self.root_variable(lhs) {
            if let Some(v) = self.module.variables.get(var) {
                let _ = v;
                self.module.variables[var].assigned = true;
            }
        }
        self.emit(
            Stmt::Assign {
                lhs,
                rhs,
                write_mask,
            },
            loc,
        );
    }

    /// Stores `value` in a new temporary and returns a reference to it.
    pub fn store_temporary(
        &mut self,
        name: &str,
        value: Handle<hir::Expr>,
        loc: SourceLoc,
    ) -> Handle<hir::Expr> {
        let ty = self.ty(value);
        let var = self.temporary(name, ty, loc);
        let lhs = self.var_ref(var, loc);
        self.emit_assign(lhs, value, loc);
        self.var_ref(var, loc)
    }

    /// Changes the type of a variable (implicit array sizing) and of every
    /// reference to it built so far.
    pub fn set_variable_type(&mut self, var: Handle<Variable>, ty: Type) {
        self.module.variables[var].ty = ty.clone();
        for (_, expr) in self.module.exprs.iter_mut() {
            if expr.kind == ExprKind::VarRef(var) {
                expr.ty = ty.clone();
            }
        }
    }

    /// The constant value of an expression, if it is a constant expression.
    pub fn evaluate(&self, expr: Handle<hir::Expr>) -> Option<Constant> {
        if let Some(hir::Expr {
            kind: ExprKind::Constant(c),
            ty,
        }) = self.module.exprs.get(expr)
        {
            if ty.is_error() {
                return None;
            }
            return Some(c.clone());
        }
        const_eval::evaluate(&self.module, expr)
    }

    /// Replaces an expression by a constant node when it folds.
    pub fn fold(&mut self, expr: Handle<hir::Expr>) -> Handle<hir::Expr> {
        if let Some(hir::Expr {
            kind: ExprKind::Constant(_),
            ..
        }) = self.module.exprs.get(expr)
        {
            return expr;
        }
        match const_eval::evaluate(&self.module, expr) {
            Some(value) => {
                let ty = self.ty(expr);
                let loc = self.module.expr_locs.get(expr);
                self.constant(value, ty, loc)
            }
            None => expr,
        }
    }

    /// Checks `expr` as a constant expression in a scratch statement list:
    /// its value (None if not constant) and type.
    pub fn constant_expression(&mut self, expr: &ast::Expr) -> Option<(Option<Constant>, Type)> {
        let saved = std::mem::take(&mut self.body);
        let value = self.rvalue(expr);
        let scratch = std::mem::replace(&mut self.body, saved);
        let ty = self.ty(value);
        if ty.is_error() {
            return Some((None, Type::Error));
        }
        if !scratch.is_empty() || (self.at_least(120, 300) && has_sequence(expr)) {
            return Some((None, ty));
        }
        Some((self.evaluate(value), ty))
    }

    /// True if `from` converts implicitly to `to` in this version.
    pub fn can_convert(&self, from: &Type, to: &Type) -> bool {
        if from == to || from.is_error() || to.is_error() {
            return true;
        }
        if !self.at_least(120, 0) {
            return false;
        }
        if from.vector_elements() != to.vector_elements()
            || from.matrix_columns() != to.matrix_columns()
        {
            return false;
        }
        if from.is_matrix() || to.is_matrix() {
            return false;
        }
        match (from.scalar_kind(), to.scalar_kind()) {
            (Some(ScalarKind::Int), Some(ScalarKind::Float)) => true,
            (Some(ScalarKind::Uint), Some(ScalarKind::Float)) => true,
            (Some(ScalarKind::Int), Some(ScalarKind::Uint)) => {
                // GLSL 4.00 §4.1.10; MESA_shader_integer_functions adds it too.
                self.at_least(400, 0)
                    || self.has_extension("GL_ARB_gpu_shader5")
                    || self.has_extension("GL_MESA_shader_integer_functions")
            }
            _ => false,
        }
    }

    /// Converts `expr` to the scalar kind `to` (same shape), always allowed:
    /// used by constructors and by implicit conversions.
    pub fn convert_kind(
        &mut self,
        expr: Handle<hir::Expr>,
        to: ScalarKind,
        loc: SourceLoc,
    ) -> Handle<hir::Expr> {
        let ty = self.ty(expr);
        let Some(from) = ty.scalar_kind() else {
            return expr;
        };
        if from == to || ty.is_matrix() {
            return expr;
        }
        use ScalarKind::*;
        let new_ty = ty.with_kind(to);
        let op = match (from, to) {
            (Int, Float) => Op::I2f,
            (Uint, Float) => Op::U2f,
            (Bool, Float) => Op::B2f,
            (Float, Int) => Op::F2i,
            (Uint, Int) => Op::U2i,
            (Bool, Int) => Op::B2i,
            (Float, Uint) => Op::F2u,
            (Int, Uint) => Op::I2u,
            (Bool, Uint) => {
                let as_int = self.operation(Op::B2i, &[expr], ty.with_kind(Int), loc);
                return self.operation(Op::I2u, &[as_int], new_ty, loc);
            }
            (Float, Bool) => Op::F2b,
            (Int, Bool) => Op::I2b,
            (Uint, Bool) => {
                let as_int = self.operation(Op::U2i, &[expr], ty.with_kind(Int), loc);
                return self.operation(Op::I2b, &[as_int], new_ty, loc);
            }
            _ => return expr,
        };
        let converted = self.operation(op, &[expr], new_ty, loc);
        self.fold_if_constant(converted, expr)
    }

    /// Folds `result` when its operand `source` is a constant node.
    fn fold_if_constant(
        &mut self,
        result: Handle<hir::Expr>,
        source: Handle<hir::Expr>,
    ) -> Handle<hir::Expr> {
        if matches!(
            self.module.exprs.get(source),
            Some(hir::Expr {
                kind: ExprKind::Constant(_),
                ..
            })
        ) {
            self.fold(result)
        } else {
            result
        }
    }

    /// Applies the implicit conversion of `expr` to `to`; None if not allowed.
    pub fn implicit_convert(
        &mut self,
        expr: Handle<hir::Expr>,
        to: &Type,
        loc: SourceLoc,
    ) -> Option<Handle<hir::Expr>> {
        let from = self.ty(expr);
        if &from == to || from.is_error() || to.is_error() {
            return Some(expr);
        }
        if !self.can_convert(&from, to) {
            return None;
        }
        let kind = to.scalar_kind()?;
        Some(self.convert_kind(expr, kind, loc))
    }
}
