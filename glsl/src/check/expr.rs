//! Expressions: names, literals and operators with the implicit conversions
//! each version allows and their result types (Mesa's `arithmetic_result_type`
//! and friends), assignments and compound assignments, `++`/`--`, the comma
//! operator, and `&&`/`||`/`?:` whose right operands have side effects (turned
//! into `if` statements writing a temporary, as Mesa does).

use crate::arena::Handle;
use crate::ast::{self, AssignOp, BinaryOp, UnaryOp};
use crate::hir::{self, Constant, ExprKind, Op, ScalarValue, Stmt};
use crate::span::SourceLoc;
use crate::types::{ScalarKind, Type};

use super::{Checker, SemanticError};

/// Deepest expression recursion before the checker gives up on a tree.
pub(crate) const MAX_EXPR_DEPTH: usize = 1000;

impl Checker<'_> {
    /// Checks an expression used for its value.
    pub fn rvalue(&mut self, expr: &ast::Expr) -> Handle<hir::Expr> {
        if self.depth >= MAX_EXPR_DEPTH {
            self.error(expr.loc, SemanticError::TooDeep);
            return self.error_expr(expr.loc);
        }
        self.depth += 1;
        let result = self.rvalue_inner(expr, true);
        self.depth -= 1;
        if self.writing_lhs == 0 {
            self.check_write_only_read(expr, result);
        }
        result
    }

    /// GLSL 4.30 §4.10: "variables qualified as writeonly ... can be written
    /// but not read". Checks a variable name or a block member selection read
    /// as a value (the target of a plain assignment is not a read).
    fn check_write_only_read(&mut self, expr: &ast::Expr, value: Handle<hir::Expr>) {
        let write_only = match &expr.kind {
            ast::ExprKind::Variable(_) => match self.module.exprs.get(value).map(|e| &e.kind) {
                Some(ExprKind::VarRef(v)) => self.module.variables[*v].memory.write_only,
                _ => false,
            },
            ast::ExprKind::Field(..) => self.member_memory(value).is_some_and(|m| m.write_only),
            _ => false,
        };
        // Naming a writeonly image (to pass it to imageStore) is no read: the
        // image functions check the qualifiers of their image argument.
        let image = {
            let mut ty = self.ty(value);
            while let Type::Array(elem, _) = ty {
                ty = *elem;
            }
            ty.is_image()
        };
        if write_only && !image {
            self.error(expr.loc, SemanticError::ReadWriteOnly);
        }
    }

    /// The memory qualifiers of the block member `expr` selects, when it is a
    /// member selection of a shader storage block instance.
    pub fn member_memory(&self, expr: Handle<hir::Expr>) -> Option<hir::MemoryQualifiers> {
        let ExprKind::RecordRef(base, index) = self.module.exprs.get(expr)?.kind else {
            return None;
        };
        let Type::Struct(handle) = self.ty(base) else {
            return None;
        };
        let body = self.module.structs.get(handle)?;
        if !body.is_interface {
            return None;
        }
        body.fields.get(index as usize).map(|f| f.qualifiers.memory)
    }

    /// Checks an expression statement (its value is not used).
    pub fn expression_statement(&mut self, expr: &ast::Expr) {
        if self.depth >= MAX_EXPR_DEPTH {
            self.error(expr.loc, SemanticError::TooDeep);
            return;
        }
        self.depth += 1;
        match &expr.kind {
            ast::ExprKind::Comma(a, b) => {
                self.expression_statement(a);
                self.expression_statement(b);
            }
            _ => {
                self.rvalue_inner(expr, false);
            }
        }
        self.depth -= 1;
    }

    fn rvalue_inner(&mut self, expr: &ast::Expr, want_value: bool) -> Handle<hir::Expr> {
        let loc = expr.loc;
        match &expr.kind {
            ast::ExprKind::Variable(ident) => self.variable_expr(ident),
            ast::ExprKind::IntConst(v) => self.const_int(*v, loc),
            ast::ExprKind::UintConst(v) => {
                if !self.at_least(130, 300) && !self.has_extension("GL_EXT_gpu_shader4") {
                    self.error(
                        loc,
                        SemanticError::version_required(
                            "unsigned integer literals",
                            self.version,
                            130,
                            300,
                        ),
                    );
                }
                self.constant(
                    Constant::Components(smallvec::smallvec![ScalarValue::Uint(*v)]),
                    Type::UINT,
                    loc,
                )
            }
            ast::ExprKind::BoolConst(v) => self.const_bool(*v, loc),
            ast::ExprKind::FloatConst(v) => self.constant(
                Constant::Components(smallvec::smallvec![ScalarValue::Float(*v)]),
                Type::FLOAT,
                loc,
            ),
            ast::ExprKind::DoubleConst(_) => {
                self.error(loc, SemanticError::Unsupported("double-precision literals"));
                self.error_expr(loc)
            }
            ast::ExprKind::Unary(op, operand) => self.unary(*op, operand, loc),
            ast::ExprKind::Binary(op, a, b) => self.binary(*op, a, b, loc),
            ast::ExprKind::Ternary(c, a, b) => self.ternary(c, a, b, loc),
            ast::ExprKind::Assign(op, lhs, rhs) => self.assignment(*op, lhs, rhs, loc, want_value),
            ast::ExprKind::Index(base, index) => self.index_expr(base, index, loc),
            ast::ExprKind::Call(callee, args) => self.call_expr(callee, args, loc, want_value),
            ast::ExprKind::Field(base, field) => self.field_expr(base, field, loc),
            ast::ExprKind::MethodLength(base) => self.length_method(base, loc),
            ast::ExprKind::PostInc(operand) => self.inc_dec(operand, true, true, loc, want_value),
            ast::ExprKind::PostDec(operand) => self.inc_dec(operand, false, true, loc, want_value),
            ast::ExprKind::Comma(a, b) => {
                self.expression_statement(a);
                self.rvalue(b)
            }
        }
    }

    /// A variable name.
    fn variable_expr(&mut self, ident: &ast::Ident) -> Handle<hir::Expr> {
        if self.subroutine_uniform_named(&ident.name).is_some() {
            // GLSL 4.00 §6.1.2: a subroutine uniform is only called.
            self.error(
                ident.loc,
                SemanticError::SubroutineUniformValue(ident.name.to_string()),
            );
            return self.error_expr(ident.loc);
        }
        if let Some(entry) = self.scope.lookup(&ident.name) {
            if let Some(var) = entry.variable {
                let r = self.var_ref(var, ident.loc);
                self.module.variables[var].used = true;
                return r;
            }
        }
        if let Some(var) = self.builtin_variable(&ident.name) {
            let r = self.var_ref(var, ident.loc);
            self.module.variables[var].used = true;
            return r;
        }
        if &*ident.name == "gl_WorkGroupSize" && self.compute_stage() {
            // GLSL 4.30 §7.1: "It is a compile-time error to use
            // gl_WorkGroupSize in a shader that does not declare a fixed local
            // group size, or before that shader has declared [it]".
            self.error(ident.loc, SemanticError::WorkGroupSizeUndeclared);
            return self.error_expr(ident.loc);
        }
        self.error(ident.loc, SemanticError::Undeclared(ident.name.to_string()));
        self.error_expr(ident.loc)
    }

    /// The built-in variable `name`, added to the module on first use.
    pub fn builtin_variable(&mut self, name: &str) -> Option<Handle<hir::Variable>> {
        if !name.starts_with("gl_") {
            return None;
        }
        if let Some(var) = self.builtin_variables.get(name) {
            return Some(*var);
        }
        // A member left out of an `out gl_PerVertex` redeclaration is gone.
        if let Some(members) = &self.module.layout.per_vertex_out {
            if self.stage != crate::version::Stage::Fragment
                && super::decl::PER_VERTEX_OUT_MEMBERS.contains(&name)
                && members.iter().all(|(m, _)| m != name)
            {
                return None;
            }
        }
        if name == "gl_WorkGroupSize" && self.compute_stage() {
            let size = self.module.layout.cs_local_size?;
            let variable = crate::builtins::variables::work_group_size(size, self.version.is_es());
            let handle = self.new_variable(variable, SourceLoc::default());
            self.add_builtin_item(handle);
            self.builtin_variables.insert(name.to_string(), handle);
            return Some(handle);
        }
        let avail = crate::builtins::Availability {
            version: self.version,
            stage: self.stage,
            extensions: &self.extensions,
        };
        let mut variable =
            crate::builtins::lookup_variable(name, &avail, &mut self.module.structs)?;
        variable.is_builtin = true;
        // Geometry inputs (`gl_in[]`, …) take their size from an input
        // primitive declared before their first use.
        if let (Type::Array(elem, None), hir::VarMode::ShaderIn, Some(primitive)) = (
            &variable.ty,
            variable.mode,
            self.module.layout.gs_input_primitive,
        ) {
            variable.ty = Type::Array(elem.clone(), Some(primitive.vertex_count()));
        }
        let handle = self.new_variable(variable, SourceLoc::default());
        self.add_builtin_item(handle);
        self.builtin_variables.insert(name.to_string(), handle);
        Some(handle)
    }

    fn is_error(&self, expr: Handle<hir::Expr>) -> bool {
        self.ty(expr).is_error()
    }

    fn unary(&mut self, op: UnaryOp, operand: &ast::Expr, loc: SourceLoc) -> Handle<hir::Expr> {
        match op {
            UnaryOp::PreInc => return self.inc_dec(operand, true, false, loc, true),
            UnaryOp::PreDec => return self.inc_dec(operand, false, false, loc, true),
            _ => {}
        }
        let value = self.rvalue(operand);
        let ty = self.ty(value);
        if ty.is_error() {
            return value;
        }
        match op {
            UnaryOp::Plus | UnaryOp::Minus => {
                if !ty.scalar_kind().is_some_and(|k| k.is_numeric()) {
                    self.error(loc, SemanticError::ArithmeticNotNumeric);
                    return self.error_expr(loc);
                }
                if op == UnaryOp::Plus {
                    value
                } else {
                    self.operation(Op::Neg, &[value], ty, loc)
                }
            }
            UnaryOp::Not => {
                if ty != Type::BOOL {
                    self.error(
                        loc,
                        SemanticError::NotScalarBool("operand".into(), "!".into()),
                    );
                    return self.error_expr(loc);
                }
                self.operation(Op::LogicNot, &[value], ty, loc)
            }
            UnaryOp::Complement => {
                if !self.bitwise_allowed(loc) {
                    return self.error_expr(loc);
                }
                if !ty.scalar_kind().is_some_and(|k| k.is_integer()) || ty.is_matrix() {
                    self.error(loc, SemanticError::ComplementNotInteger);
                    return self.error_expr(loc);
                }
                self.operation(Op::BitNot, &[value], ty, loc)
            }
            UnaryOp::PreInc | UnaryOp::PreDec => value,
        }
    }

    fn bitwise_allowed(&mut self, loc: SourceLoc) -> bool {
        if self.at_least(130, 300) || self.has_extension("GL_EXT_gpu_shader4") {
            return true;
        }
        self.error(
            loc,
            SemanticError::version_required(
                "bit-wise operations are forbidden",
                self.version,
                130,
                300,
            ),
        );
        false
    }

    /// Converts one operand to the other's base type (Mesa's
    /// `apply_implicit_conversion` tried both ways).
    fn unify_base(
        &mut self,
        a: &mut Handle<hir::Expr>,
        b: &mut Handle<hir::Expr>,
        loc: SourceLoc,
    ) -> bool {
        let ta = self.ty(*a);
        let tb = self.ty(*b);
        if ta.scalar_kind() == tb.scalar_kind() {
            return true;
        }
        if let Some(kind) = ta.scalar_kind() {
            if self.can_convert(&tb, &tb.with_kind(kind)) && !tb.is_matrix() {
                *b = self.convert_kind(*b, kind, loc);
                return true;
            }
        }
        if let Some(kind) = tb.scalar_kind() {
            if self.can_convert(&ta, &ta.with_kind(kind)) && !ta.is_matrix() {
                *a = self.convert_kind(*a, kind, loc);
                return true;
            }
        }
        false
    }

    /// Type-checks a binary operator on already-checked operands and builds it.
    pub fn binary_values(
        &mut self,
        op: BinaryOp,
        mut a: Handle<hir::Expr>,
        mut b: Handle<hir::Expr>,
        loc: SourceLoc,
    ) -> Handle<hir::Expr> {
        if self.is_error(a) || self.is_error(b) {
            return self.error_expr(loc);
        }
        let ta = self.ty(a);
        let tb = self.ty(b);
        let sym = op.symbol();
        match op {
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div => {
                let numeric = |t: &Type| t.scalar_kind().is_some_and(|k| k.is_numeric());
                if !numeric(&ta) || !numeric(&tb) {
                    self.error(loc, SemanticError::ArithmeticNotNumeric);
                    return self.error_expr(loc);
                }
                if !self.unify_base(&mut a, &mut b, loc) {
                    self.error(loc, SemanticError::ArithmeticConversion);
                    return self.error_expr(loc);
                }
                let ta = self.ty(a);
                let tb = self.ty(b);
                if ta.scalar_kind() != tb.scalar_kind() {
                    self.error(loc, SemanticError::ArithmeticBaseMismatch);
                    return self.error_expr(loc);
                }
                let result = if ta.is_scalar() {
                    tb.clone()
                } else if tb.is_scalar() || ta == tb && !(op == BinaryOp::Mul && ta.is_matrix()) {
                    ta.clone()
                } else if ta.is_vector() && tb.is_vector() {
                    self.error(loc, SemanticError::VectorSizeMismatch);
                    return self.error_expr(loc);
                } else if op == BinaryOp::Mul {
                    match mul_type(&ta, &tb) {
                        Some(t) => t,
                        None => {
                            self.error(loc, SemanticError::MatrixMultiplySize);
                            return self.error_expr(loc);
                        }
                    }
                } else {
                    self.error(loc, SemanticError::TypeMismatch);
                    return self.error_expr(loc);
                };
                let hop = match op {
                    BinaryOp::Add => Op::Add,
                    BinaryOp::Sub => Op::Sub,
                    BinaryOp::Mul => Op::Mul,
                    _ => Op::Div,
                };
                self.operation(hop, &[a, b], result, loc)
            }
            BinaryOp::Mod => {
                if !self.at_least(130, 300) && !self.has_extension("GL_EXT_gpu_shader4") {
                    self.error(
                        loc,
                        SemanticError::version_required(
                            "operator '%' is reserved",
                            self.version,
                            130,
                            300,
                        ),
                    );
                    return self.error_expr(loc);
                }
                let integer =
                    |t: &Type| t.scalar_kind().is_some_and(|k| k.is_integer()) && !t.is_matrix();
                let mut bad = false;
                if !integer(&ta) {
                    self.error(
                        loc,
                        SemanticError::OperandNotInteger("LHS".into(), "%".into()),
                    );
                    bad = true;
                }
                if !integer(&tb) {
                    self.error(
                        loc,
                        SemanticError::OperandNotInteger("RHS".into(), "%".into()),
                    );
                    bad = true;
                }
                if bad {
                    return self.error_expr(loc);
                }
                if !self.unify_base(&mut a, &mut b, loc)
                    || self.ty(a).scalar_kind() != self.ty(b).scalar_kind()
                {
                    self.error(loc, SemanticError::OperatorConversion("%".into()));
                    return self.error_expr(loc);
                }
                let ta = self.ty(a);
                let tb = self.ty(b);
                let result = if ta.is_vector() {
                    if tb.is_vector() && ta != tb {
                        self.error(loc, SemanticError::TypeMismatch);
                        return self.error_expr(loc);
                    }
                    ta
                } else {
                    tb
                };
                self.operation(Op::Mod, &[a, b], result, loc)
            }
            BinaryOp::Shl | BinaryOp::Shr => {
                if !self.at_least(130, 300) && !self.has_extension("GL_EXT_gpu_shader4") {
                    self.error(
                        loc,
                        SemanticError::version_required(
                            "bit-shift operators are forbidden",
                            self.version,
                            130,
                            300,
                        ),
                    );
                    return self.error_expr(loc);
                }
                let integer =
                    |t: &Type| t.scalar_kind().is_some_and(|k| k.is_integer()) && !t.is_matrix();
                if !integer(&ta) {
                    self.error(
                        loc,
                        SemanticError::ShiftOperandNotInteger("LHS".into(), sym.into()),
                    );
                    return self.error_expr(loc);
                }
                if !integer(&tb) {
                    self.error(
                        loc,
                        SemanticError::ShiftOperandNotInteger("RHS".into(), sym.into()),
                    );
                    return self.error_expr(loc);
                }
                if ta.is_scalar() && !tb.is_scalar() {
                    self.error(loc, SemanticError::ShiftScalarVector(sym.into()));
                    return self.error_expr(loc);
                }
                if ta.is_vector() && tb.is_vector() && ta.vector_elements() != tb.vector_elements()
                {
                    self.error(loc, SemanticError::ShiftVectorSize(sym.into()));
                    return self.error_expr(loc);
                }
                let hop = if op == BinaryOp::Shl {
                    Op::Lshift
                } else {
                    Op::Rshift
                };
                self.operation(hop, &[a, b], ta, loc)
            }
            BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor => {
                if !self.bitwise_allowed(loc) {
                    return self.error_expr(loc);
                }
                let integer =
                    |t: &Type| t.scalar_kind().is_some_and(|k| k.is_integer()) && !t.is_matrix();
                if !integer(&ta) {
                    self.error(
                        loc,
                        SemanticError::OperandNotInteger("LHS".into(), sym.into()),
                    );
                    return self.error_expr(loc);
                }
                if !integer(&tb) {
                    self.error(
                        loc,
                        SemanticError::OperandNotInteger("RHS".into(), sym.into()),
                    );
                    return self.error_expr(loc);
                }
                if ta.scalar_kind() != tb.scalar_kind()
                    && (!self.unify_base(&mut a, &mut b, loc)
                        || self.ty(a).scalar_kind() != self.ty(b).scalar_kind())
                {
                    self.error(loc, SemanticError::OperatorConversion(sym.into()));
                    return self.error_expr(loc);
                }
                let ta = self.ty(a);
                let tb = self.ty(b);
                if ta.is_vector() && tb.is_vector() && ta != tb {
                    self.error(loc, SemanticError::BitwiseVectorSize(sym.into()));
                    return self.error_expr(loc);
                }
                let result = if ta.is_scalar() { tb } else { ta };
                let hop = match op {
                    BinaryOp::BitAnd => Op::BitAnd,
                    BinaryOp::BitOr => Op::BitOr,
                    _ => Op::BitXor,
                };
                self.operation(hop, &[a, b], result, loc)
            }
            BinaryOp::Less | BinaryOp::Greater | BinaryOp::LessEqual | BinaryOp::GreaterEqual => {
                let ok =
                    |t: &Type| t.is_scalar() && t.scalar_kind().is_some_and(|k| k.is_numeric());
                if !ok(&ta) || !ok(&tb) {
                    self.error(loc, SemanticError::RelationalOperands);
                    return self.error_expr(loc);
                }
                if !self.unify_base(&mut a, &mut b, loc) {
                    self.error(loc, SemanticError::RelationalConversion);
                    return self.error_expr(loc);
                }
                if self.ty(a) != self.ty(b) {
                    self.error(loc, SemanticError::ArithmeticBaseMismatch);
                    return self.error_expr(loc);
                }
                let (hop, x, y) = match op {
                    BinaryOp::Less => (Op::Less, a, b),
                    BinaryOp::Greater => (Op::Less, b, a),
                    BinaryOp::LessEqual => (Op::GEqual, b, a),
                    _ => (Op::GEqual, a, b),
                };
                self.operation(hop, &[x, y], Type::BOOL, loc)
            }
            BinaryOp::Equal | BinaryOp::NotEqual => {
                if ta == Type::Void || tb == Type::Void {
                    self.error(loc, SemanticError::VoidOperand(sym.into()));
                    return self.const_bool(false, loc);
                }
                let same = self.unify_base_any(&mut a, &mut b, loc) && self.ty(a) == self.ty(b);
                if !same {
                    self.error(loc, SemanticError::EqualityTypes(sym.into()));
                    return self.const_bool(false, loc);
                }
                let t = self.ty(a);
                if t.is_array() && !self.at_least(120, 300) {
                    self.error(
                        loc,
                        SemanticError::version_required(
                            "array comparisons forbidden",
                            self.version,
                            120,
                            300,
                        ),
                    );
                    return self.const_bool(false, loc);
                }
                if t.contains_opaque(&self.module.structs) {
                    self.error(loc, SemanticError::OpaqueComparison);
                    return self.const_bool(false, loc);
                }
                self.comparison(op == BinaryOp::Equal, a, b, loc)
            }
            BinaryOp::And | BinaryOp::Or | BinaryOp::Xor => {
                // Only reached for `^^` or from compound contexts without side effects.
                let mut bad = false;
                if ta != Type::BOOL {
                    self.error(loc, SemanticError::NotScalarBool("LHS".into(), sym.into()));
                    bad = true;
                }
                if tb != Type::BOOL {
                    self.error(loc, SemanticError::NotScalarBool("RHS".into(), sym.into()));
                    bad = true;
                }
                if bad {
                    return self.error_expr(loc);
                }
                let hop = match op {
                    BinaryOp::And => Op::LogicAnd,
                    BinaryOp::Or => Op::LogicOr,
                    _ => Op::LogicXor,
                };
                self.operation(hop, &[a, b], Type::BOOL, loc)
            }
        }
    }

    /// Implicit conversion for `==`/`!=` (whole types, not only base kinds).
    fn unify_base_any(
        &mut self,
        a: &mut Handle<hir::Expr>,
        b: &mut Handle<hir::Expr>,
        loc: SourceLoc,
    ) -> bool {
        let ta = self.ty(*a);
        let tb = self.ty(*b);
        if ta == tb {
            return true;
        }
        if !ta.is_numeric_or_bool() || !tb.is_numeric_or_bool() {
            return false;
        }
        self.unify_base(a, b, loc)
    }

    /// `a == b` / `a != b` on values of one type: component-wise for scalars,
    /// `all_equal`/`any_nequal` for vectors and matrices, element by element
    /// for arrays and structs.
    fn comparison(
        &mut self,
        equal: bool,
        a: Handle<hir::Expr>,
        b: Handle<hir::Expr>,
        loc: SourceLoc,
    ) -> Handle<hir::Expr> {
        let ty = self.ty(a);
        match &ty {
            Type::Scalar(_) => {
                let op = if equal { Op::Equal } else { Op::NEqual };
                self.operation(op, &[a, b], Type::BOOL, loc)
            }
            Type::Vector(..) | Type::Matrix { .. } => {
                let op = if equal { Op::AllEqual } else { Op::AnyNequal };
                self.operation(op, &[a, b], Type::BOOL, loc)
            }
            Type::Array(elem, len) => {
                let n = len.unwrap_or(0);
                let mut result: Option<Handle<hir::Expr>> = None;
                for i in 0..n {
                    let index = self.const_int(i as i32, loc);
                    let index2 = self.const_int(i as i32, loc);
                    let ea = if i == 0 { a } else { self.clone_expr(a) };
                    let eb = if i == 0 { b } else { self.clone_expr(b) };
                    let ea = self.add_expr(ExprKind::ArrayRef(ea, index), (**elem).clone(), loc);
                    let eb = self.add_expr(ExprKind::ArrayRef(eb, index2), (**elem).clone(), loc);
                    let c = self.comparison(equal, ea, eb, loc);
                    result = Some(self.join_comparison(equal, result, c, loc));
                }
                match result {
                    Some(r) => r,
                    None => self.const_bool(equal, loc),
                }
            }
            Type::Struct(h) => {
                let fields: Vec<Type> = self
                    .module
                    .structs
                    .get(*h)
                    .map(|s| s.fields.iter().map(|f| f.ty.clone()).collect())
                    .unwrap_or_default();
                let mut result: Option<Handle<hir::Expr>> = None;
                for (i, fty) in fields.into_iter().enumerate() {
                    let ea = if i == 0 { a } else { self.clone_expr(a) };
                    let eb = if i == 0 { b } else { self.clone_expr(b) };
                    let ea = self.add_expr(ExprKind::RecordRef(ea, i as u32), fty.clone(), loc);
                    let eb = self.add_expr(ExprKind::RecordRef(eb, i as u32), fty, loc);
                    let c = self.comparison(equal, ea, eb, loc);
                    result = Some(self.join_comparison(equal, result, c, loc));
                }
                match result {
                    Some(r) => r,
                    None => self.const_bool(equal, loc),
                }
            }
            _ => self.const_bool(false, loc),
        }
    }

    fn join_comparison(
        &mut self,
        equal: bool,
        acc: Option<Handle<hir::Expr>>,
        next: Handle<hir::Expr>,
        loc: SourceLoc,
    ) -> Handle<hir::Expr> {
        match acc {
            None => next,
            Some(prev) => {
                let op = if equal { Op::LogicAnd } else { Op::LogicOr };
                self.operation(op, &[prev, next], Type::BOOL, loc)
            }
        }
    }

    fn binary(
        &mut self,
        op: BinaryOp,
        a: &ast::Expr,
        b: &ast::Expr,
        loc: SourceLoc,
    ) -> Handle<hir::Expr> {
        if matches!(op, BinaryOp::And | BinaryOp::Or) {
            return self.short_circuit(op == BinaryOp::And, a, b, loc);
        }
        let va = self.rvalue(a);
        let vb = self.rvalue(b);
        let result = self.binary_values(op, va, vb, loc);
        self.fold_constant_operation(result)
    }

    /// Folds an operation whose operands are all constants.
    pub fn fold_constant_operation(&mut self, expr: Handle<hir::Expr>) -> Handle<hir::Expr> {
        let all_constant = match self.module.exprs.get(expr) {
            Some(hir::Expr {
                kind: ExprKind::Operation(_, operands),
                ty,
            }) if !ty.is_error() => operands.iter().all(|o| {
                matches!(
                    self.module.exprs.get(*o),
                    Some(hir::Expr {
                        kind: ExprKind::Constant(_),
                        ..
                    })
                )
            }),
            _ => false,
        };
        if all_constant {
            self.fold(expr)
        } else {
            expr
        }
    }

    /// Checks a boolean scalar operand of `&&`, `||`, `!` or `?:`.
    fn scalar_bool_operand(
        &mut self,
        expr: &ast::Expr,
        which: &str,
        op: &str,
    ) -> Handle<hir::Expr> {
        let value = self.rvalue(expr);
        let ty = self.ty(value);
        if ty.is_error() {
            return value;
        }
        if ty != Type::BOOL {
            self.error(
                expr.loc,
                SemanticError::NotScalarBool(which.into(), op.into()),
            );
            return self.error_expr(expr.loc);
        }
        value
    }

    fn short_circuit(
        &mut self,
        is_and: bool,
        a: &ast::Expr,
        b: &ast::Expr,
        loc: SourceLoc,
    ) -> Handle<hir::Expr> {
        let sym = if is_and { "&&" } else { "||" };
        let lhs = self.scalar_bool_operand(a, "LHS", sym);
        let saved = std::mem::take(&mut self.body);
        let rhs = self.scalar_bool_operand(b, "RHS", sym);
        let rhs_stmts = std::mem::replace(&mut self.body, saved);
        if self.is_error(lhs) || self.is_error(rhs) {
            self.body.extend(rhs_stmts);
            return self.error_expr(loc);
        }
        if rhs_stmts.is_empty() {
            let op = if is_and { Op::LogicAnd } else { Op::LogicOr };
            let result = self.operation(op, &[lhs, rhs], Type::BOOL, loc);
            return self.fold_constant_operation(result);
        }
        let name = if is_and { "and_tmp" } else { "or_tmp" };
        let tmp = self.temporary(name, Type::BOOL, loc);
        let saved = std::mem::take(&mut self.body);
        self.body = rhs_stmts;
        let dst = self.var_ref(tmp, loc);
        self.emit_assign(dst, rhs, loc);
        let evaluated = std::mem::take(&mut self.body);
        let dst = self.var_ref(tmp, loc);
        let constant = self.const_bool(!is_and, loc);
        self.emit_assign(dst, constant, loc);
        let shortcut = std::mem::replace(&mut self.body, saved);
        let (then_block, else_block) = if is_and {
            (evaluated, shortcut)
        } else {
            (shortcut, evaluated)
        };
        self.emit(
            Stmt::If {
                condition: lhs,
                then_block,
                else_block,
            },
            loc,
        );
        self.var_ref(tmp, loc)
    }

    fn ternary(
        &mut self,
        c: &ast::Expr,
        a: &ast::Expr,
        b: &ast::Expr,
        loc: SourceLoc,
    ) -> Handle<hir::Expr> {
        let cond = self.scalar_bool_operand(c, "condition", "?:");
        let saved = std::mem::take(&mut self.body);
        let mut va = self.rvalue(a);
        let then_stmts = std::mem::take(&mut self.body);
        let mut vb = self.rvalue(b);
        let else_stmts = std::mem::replace(&mut self.body, saved);
        if self.is_error(cond) || self.is_error(va) || self.is_error(vb) {
            self.body.extend(then_stmts);
            self.body.extend(else_stmts);
            return self.error_expr(loc);
        }
        // Conversions are applied where each value is computed.
        let ta = self.ty(va);
        let tb = self.ty(vb);
        let mut then_stmts = then_stmts;
        let mut else_stmts = else_stmts;
        if ta != tb {
            let ok = ta.is_numeric_or_bool() && tb.is_numeric_or_bool() && {
                if let Some(kind) = tb.scalar_kind().filter(|_| self.can_convert(&ta, &tb)) {
                    let saved = std::mem::replace(&mut self.body, then_stmts);
                    va = self.convert_kind(va, kind, loc);
                    then_stmts = std::mem::replace(&mut self.body, saved);
                    true
                } else if let Some(kind) = ta.scalar_kind().filter(|_| self.can_convert(&tb, &ta)) {
                    let saved = std::mem::replace(&mut self.body, else_stmts);
                    vb = self.convert_kind(vb, kind, loc);
                    else_stmts = std::mem::replace(&mut self.body, saved);
                    true
                } else {
                    false
                }
            };
            if !ok || self.ty(va) != self.ty(vb) {
                self.error(loc, SemanticError::TernaryTypes);
                self.body.extend(then_stmts);
                self.body.extend(else_stmts);
                return self.error_expr(loc);
            }
        }
        let ty = self.ty(va);
        if ty.is_array() && !self.at_least(120, 300) {
            self.error(
                loc,
                SemanticError::version_required(
                    "second and third operands of ?: operator cannot be arrays",
                    self.version,
                    120,
                    300,
                ),
            );
            return self.error_expr(loc);
        }
        if ty == Type::Void {
            // `b ? f() : g();` with void functions: only the side effects of
            // the chosen arm remain (the operands' types match, as GLSL asks).
            self.emit(
                Stmt::If {
                    condition: cond,
                    then_block: then_stmts,
                    else_block: else_stmts,
                },
                loc,
            );
            return self.error_expr_silent(loc);
        }
        if let Some(Constant::Components(values)) = self.evaluate(cond) {
            if then_stmts.is_empty() && else_stmts.is_empty() {
                if let Some(ScalarValue::Bool(value)) = values.first() {
                    return if *value { va } else { vb };
                }
            }
        }
        let tmp = self.temporary("conditional_tmp", ty, loc);
        let saved = std::mem::replace(&mut self.body, then_stmts);
        let dst = self.var_ref(tmp, loc);
        self.emit_assign(dst, va, loc);
        let then_block = std::mem::replace(&mut self.body, else_stmts);
        let dst = self.var_ref(tmp, loc);
        self.emit_assign(dst, vb, loc);
        let else_block = std::mem::replace(&mut self.body, saved);
        self.emit(
            Stmt::If {
                condition: cond,
                then_block,
                else_block,
            },
            loc,
        );
        self.var_ref(tmp, loc)
    }

    /// Checks an l-value for writing: reports read-only variables and
    /// non-l-values; true if writable.
    pub fn check_lvalue(&mut self, lhs: Handle<hir::Expr>, loc: SourceLoc) -> bool {
        if self.is_error(lhs) {
            return false;
        }
        match self.lvalue_problem(lhs) {
            None => true,
            Some(LvalueProblem::ReadOnly(name)) => {
                self.error(loc, SemanticError::ReadOnlyAssignment(name));
                false
            }
            Some(LvalueProblem::NotLvalue) => {
                self.error(loc, SemanticError::NotLvalue);
                false
            }
        }
    }

    /// Why `expr` cannot be written, if it cannot.
    pub fn lvalue_problem(&self, expr: Handle<hir::Expr>) -> Option<LvalueProblem> {
        let mut current = expr;
        loop {
            let node = self.module.exprs.get(current)?;
            match &node.kind {
                ExprKind::VarRef(v) => {
                    let var = self.module.variables.get(*v)?;
                    if var.read_only
                        || matches!(
                            var.mode,
                            hir::VarMode::Uniform
                                | hir::VarMode::ShaderIn
                                | hir::VarMode::ConstIn
                                | hir::VarMode::SystemValue
                        )
                    {
                        return Some(LvalueProblem::ReadOnly(var.name.clone()));
                    }
                    // Temporaries hold computed values (`i++`, call results, …).
                    if var.ty.is_opaque() || var.mode == hir::VarMode::Temporary {
                        return Some(LvalueProblem::NotLvalue);
                    }
                    return None;
                }
                ExprKind::Swizzle(base, swizzle) => {
                    let comps = &swizzle.components[..swizzle.len as usize];
                    for (i, c) in comps.iter().enumerate() {
                        if comps[..i].contains(c) {
                            return Some(LvalueProblem::NotLvalue);
                        }
                    }
                    current = *base;
                }
                ExprKind::RecordRef(base, index) => {
                    // GLSL 4.30 §4.10: a `readonly` member of a shader storage
                    // block cannot be written.
                    if self.member_memory(current).is_some_and(|m| m.read_only) {
                        let name = match self.ty(*base) {
                            Type::Struct(h) => self
                                .module
                                .structs
                                .get(h)
                                .and_then(|s| s.fields.get(*index as usize))
                                .map(|f| f.name.clone())
                                .unwrap_or_default(),
                            _ => String::new(),
                        };
                        return Some(LvalueProblem::ReadOnly(name));
                    }
                    current = *base;
                }
                ExprKind::ArrayRef(base, _) => current = *base,
                _ => return Some(LvalueProblem::NotLvalue),
            }
        }
    }

    /// `lhs = rhs` / `lhs op= rhs`.
    fn assignment(
        &mut self,
        op: AssignOp,
        lhs_ast: &ast::Expr,
        rhs_ast: &ast::Expr,
        loc: SourceLoc,
        want_value: bool,
    ) -> Handle<hir::Expr> {
        // The target of `=` is written, not read (`op=` reads it too).
        let plain = matches!(op, AssignOp::Assign);
        self.writing_lhs += u32::from(plain);
        let lhs = self.rvalue(lhs_ast);
        self.writing_lhs -= u32::from(plain);
        let rhs = self.rvalue(rhs_ast);
        let rhs = match op {
            AssignOp::Assign => rhs,
            AssignOp::Op(bop) => {
                let current = self.clone_expr(lhs);
                let value = self.binary_values(bop, current, rhs, loc);
                if !self.is_error(value) && !self.is_error(lhs) && self.ty(value) != self.ty(lhs) {
                    // e.g. `vec3 *= mat3` is fine, `float += vec2` is not.
                    let (from, to) = (
                        self.type_name(&self.ty(value)),
                        self.type_name(&self.ty(lhs)),
                    );
                    self.error(loc, SemanticError::AssignmentMismatch("value", from, to));
                    return self.error_expr(loc);
                }
                value
            }
        };
        self.do_assignment(lhs, rhs, lhs_ast.loc, loc, want_value, false)
    }

    /// Mesa's `do_assignment`: l-value checks, conversion of the value,
    /// sizing of unsized arrays, and the statement.
    pub fn do_assignment(
        &mut self,
        lhs: Handle<hir::Expr>,
        rhs: Handle<hir::Expr>,
        lhs_loc: SourceLoc,
        loc: SourceLoc,
        want_value: bool,
        is_initializer: bool,
    ) -> Handle<hir::Expr> {
        if self.is_error(lhs) || self.is_error(rhs) {
            if let Some(var) = self.root_variable(lhs) {
                self.module.variables[var].assigned = true;
            }
            return self.error_expr(loc);
        }
        if !is_initializer {
            if !self.check_lvalue(lhs, lhs_loc) {
                return self.error_expr(loc);
            }
            if self.ty(lhs).is_array() && !self.at_least(120, 300) {
                self.error(
                    lhs_loc,
                    SemanticError::version_required(
                        "whole array assignment forbidden",
                        self.version,
                        120,
                        300,
                    ),
                );
                return self.error_expr(loc);
            }
        }
        let Some(rhs) = self.validate_assignment(lhs, rhs, loc, is_initializer) else {
            return self.error_expr(loc);
        };
        // An unsized array takes the size of the value assigned to it.
        if let (Type::Array(_, None), Type::Array(_, Some(n))) = (self.ty(lhs), self.ty(rhs)) {
            if let Some(hir::Expr {
                kind: ExprKind::VarRef(var),
                ..
            }) = self.module.exprs.get(lhs).cloned()
            {
                let new_ty = self.ty(rhs);
                let max_access = self.module.variables[var].max_array_access;
                if (n as i64) <= max_access as i64 {
                    self.error(loc, SemanticError::ArraySizeBelowAccess(max_access as u32));
                }
                self.set_variable_type(var, new_ty);
            }
        }
        if !want_value {
            self.emit_assign(lhs, rhs, loc);
            return self.error_expr_silent(loc);
        }
        let tmp = self.temporary("assignment_tmp", self.ty(rhs), loc);
        let dst = self.var_ref(tmp, loc);
        self.emit_assign(dst, rhs, loc);
        let value = self.var_ref(tmp, loc);
        self.emit_assign(lhs, value, loc);
        self.var_ref(tmp, loc)
    }

    /// A placeholder value for expressions whose value is not used.
    fn error_expr_silent(&mut self, loc: SourceLoc) -> Handle<hir::Expr> {
        self.add_expr(
            ExprKind::Constant(Constant::Components(Default::default())),
            Type::Void,
            loc,
        )
    }

    /// Mesa's `validate_assignment`: the value converted to the target type,
    /// or None after reporting the mismatch.
    pub fn validate_assignment(
        &mut self,
        lhs: Handle<hir::Expr>,
        rhs: Handle<hir::Expr>,
        loc: SourceLoc,
        is_initializer: bool,
    ) -> Option<Handle<hir::Expr>> {
        let lt = self.ty(lhs);
        let rt = self.ty(rhs);
        self.validate_value(&lt, rhs, &rt, loc, is_initializer)
    }

    /// Converts a value to a declared type for assignment.
    pub fn validate_value(
        &mut self,
        lt: &Type,
        rhs: Handle<hir::Expr>,
        rt: &Type,
        loc: SourceLoc,
        is_initializer: bool,
    ) -> Option<Handle<hir::Expr>> {
        if rt.is_error() || lt == rt {
            return Some(rhs);
        }
        if let (Type::Array(le, None), Type::Array(re, _)) = (lt, rt) {
            if le == re {
                if is_initializer {
                    return Some(rhs);
                }
                self.error(loc, SemanticError::UnsizedArrayAssignment);
                return None;
            }
        }
        if let Some(converted) = self.implicit_convert(rhs, lt, loc) {
            if &self.ty(converted) == lt {
                return Some(converted);
            }
        }
        let what = if is_initializer {
            "initializer"
        } else {
            "value"
        };
        self.error(
            loc,
            SemanticError::AssignmentMismatch(what, self.type_name(rt), self.type_name(lt)),
        );
        None
    }

    /// `++a`, `--a`, `a++`, `a--`.
    fn inc_dec(
        &mut self,
        operand: &ast::Expr,
        increment: bool,
        post: bool,
        loc: SourceLoc,
        want_value: bool,
    ) -> Handle<hir::Expr> {
        let value = self.rvalue(operand);
        let ty = self.ty(value);
        if ty.is_error() {
            return value;
        }
        if !ty.scalar_kind().is_some_and(|k| k.is_numeric()) {
            self.error(loc, SemanticError::ArithmeticNotNumeric);
            return self.error_expr(loc);
        }
        if !self.check_lvalue(value, operand.loc) {
            return self.error_expr(loc);
        }
        let one = self.const_one(&ty, loc);
        let current = self.clone_expr(value);
        let op = if increment { Op::Add } else { Op::Sub };
        let new_value = self.operation(op, &[current, one], ty.clone(), loc);
        if post && want_value {
            let copy = self.clone_expr(value);
            let old = self.store_temporary("_post_incdec_tmp", copy, loc);
            self.emit_assign(value, new_value, loc);
            return old;
        }
        let lhs = self.clone_expr(value);
        self.emit_assign(lhs, new_value, loc);
        value
    }
}

/// Why a value is not writable.
pub(crate) enum LvalueProblem {
    /// Rooted at a read-only variable.
    ReadOnly(String),
    /// Not an l-value at all (a call result, a repeated swizzle, …).
    NotLvalue,
}

/// Result type of `a * b` where at least one is a matrix and neither a scalar.
pub(crate) fn mul_type(a: &Type, b: &Type) -> Option<Type> {
    match (a, b) {
        (
            Type::Matrix {
                columns: ac,
                rows: ar,
            },
            Type::Matrix {
                columns: bc,
                rows: br,
            },
        ) => (ac == br).then(|| Type::mat(*bc, *ar)),
        (Type::Matrix { columns, rows }, Type::Vector(ScalarKind::Float, n)) => {
            (columns == n).then_some(Type::Vector(ScalarKind::Float, *rows))
        }
        (Type::Vector(ScalarKind::Float, n), Type::Matrix { columns, rows }) => {
            (rows == n).then_some(Type::Vector(ScalarKind::Float, *columns))
        }
        _ => None,
    }
}
