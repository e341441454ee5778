//! Statements: compound statements and scopes, `if`, `switch` (1.30+, with
//! label rules, lowered to a loop with a fall-through flag as Mesa does), the
//! three loops (lowered to `loop` with a conditional `break`; `continue`
//! re-emits the `for` step or the `do`-`while` test), `break`/`continue`
//! placement, `return` type checks and `discard` (fragment shaders only).

use crate::arena::Handle;
use crate::ast;
use crate::hir::{self, Constant, ExprKind, Op, ScalarValue, Stmt};
use crate::span::SourceLoc;
use crate::types::{ScalarKind, Type};
use crate::version::Stage;

use super::lower_ctx::first_scalar;
use super::{Breakable, Checker, SemanticError};

/// Deepest statement nesting handled (the parser bounds braces already).
const MAX_STMT_DEPTH: usize = 600;

impl Checker<'_> {
    /// Checks one statement, appending its HIR to the current list.
    pub fn statement(&mut self, statement: &ast::Statement) {
        if self.depth >= MAX_STMT_DEPTH {
            self.error(statement.loc, SemanticError::TooDeep);
            return;
        }
        self.depth += 1;
        self.statement_inner(statement);
        self.depth -= 1;
    }

    /// A statement that does not open a scope when it is a compound
    /// statement (loop and function bodies).
    fn statement_no_new_scope(&mut self, statement: &ast::Statement) {
        match &statement.kind {
            ast::StatementKind::Compound(compound) => {
                for s in &compound.statements {
                    self.statement(s);
                }
            }
            _ => self.statement(statement),
        }
    }

    fn statement_inner(&mut self, statement: &ast::Statement) {
        let loc = statement.loc;
        match &statement.kind {
            ast::StatementKind::Declaration(decl) => self.declaration(decl, false),
            ast::StatementKind::Expr(Some(expr)) => self.expression_statement(expr),
            ast::StatementKind::Expr(None) => {}
            ast::StatementKind::Compound(compound) => {
                self.scope.push();
                for s in &compound.statements {
                    self.statement(s);
                }
                self.scope.pop();
            }
            ast::StatementKind::If(cond, then_stmt, else_stmt) => {
                let condition = self.condition(cond, SemanticError::IfCondition);
                let saved = std::mem::take(&mut self.body);
                self.scoped_statement(then_stmt);
                let then_block = std::mem::take(&mut self.body);
                if let Some(else_stmt) = else_stmt {
                    self.scoped_statement(else_stmt);
                }
                let else_block = std::mem::replace(&mut self.body, saved);
                self.emit(
                    Stmt::If {
                        condition,
                        then_block,
                        else_block,
                    },
                    loc,
                );
            }
            ast::StatementKind::Switch(expr, body) => self.switch_statement(expr, body, loc),
            ast::StatementKind::Case(expr) => {
                self.error(expr.loc, SemanticError::CaseOutsideSwitch);
            }
            ast::StatementKind::Default => {
                self.error(loc, SemanticError::CaseOutsideSwitch);
            }
            ast::StatementKind::While(cond, body) => {
                self.scope.push();
                self.breakables.push(Breakable::Loop {
                    step: None,
                    do_while_cond: None,
                });
                let saved = std::mem::take(&mut self.body);
                self.loop_condition(cond);
                self.statement_no_new_scope(body);
                let loop_body = std::mem::replace(&mut self.body, saved);
                self.breakables.pop();
                self.scope.pop();
                self.emit(Stmt::Loop { body: loop_body }, loc);
            }
            ast::StatementKind::DoWhile(body, cond) => {
                self.breakables.push(Breakable::Loop {
                    step: None,
                    do_while_cond: Some((**cond).clone()),
                });
                let saved = std::mem::take(&mut self.body);
                self.scoped_statement(body);
                self.break_unless(cond);
                let loop_body = std::mem::replace(&mut self.body, saved);
                self.breakables.pop();
                self.emit(Stmt::Loop { body: loop_body }, loc);
            }
            ast::StatementKind::For(init, cond, step, body) => {
                self.scope.push();
                match init.as_ref() {
                    ast::ForInit::Expr(Some(expr)) => self.expression_statement(expr),
                    ast::ForInit::Expr(None) => {}
                    ast::ForInit::Declaration(decl) => self.declaration(decl, false),
                }
                let step_ast = step.as_ref().map(|s| (**s).clone());
                self.breakables.push(Breakable::Loop {
                    step: step_ast,
                    do_while_cond: None,
                });
                let saved = std::mem::take(&mut self.body);
                if let Some(cond) = cond {
                    self.loop_condition(cond);
                }
                self.statement_no_new_scope(body);
                if let Some(step) = step {
                    self.expression_statement(step);
                }
                let loop_body = std::mem::replace(&mut self.body, saved);
                self.breakables.pop();
                self.scope.pop();
                self.emit(Stmt::Loop { body: loop_body }, loc);
            }
            ast::StatementKind::Continue => self.continue_statement(loc),
            ast::StatementKind::Break => {
                if self.breakables.is_empty() {
                    self.error(loc, SemanticError::BreakOutsideLoop);
                    return;
                }
                self.emit(Stmt::Break, loc);
            }
            ast::StatementKind::Return(value) => self.return_statement(value.as_deref(), loc),
            ast::StatementKind::Discard => {
                if self.stage != Stage::Fragment {
                    self.error(loc, SemanticError::DiscardOutsideFragment);
                    return;
                }
                self.emit(Stmt::Discard(None), loc);
            }
        }
    }

    /// A sub-statement of `if`/`do`: compound statements get a scope.
    fn scoped_statement(&mut self, statement: &ast::Statement) {
        if matches!(statement.kind, ast::StatementKind::Compound(_)) {
            self.statement(statement);
        } else {
            self.scope.push();
            self.statement(statement);
            self.scope.pop();
        }
    }

    /// Checks a scalar boolean condition.
    fn condition(&mut self, expr: &ast::Expr, error: SemanticError) -> Handle<hir::Expr> {
        let value = self.rvalue(expr);
        let ty = self.ty(value);
        if ty.is_error() {
            return self.const_bool(true, expr.loc);
        }
        if ty != Type::BOOL {
            self.error(expr.loc, error);
            return self.const_bool(true, expr.loc);
        }
        value
    }

    /// Emits `if (!cond) break;`.
    fn break_unless(&mut self, cond: &ast::Expr) {
        let value = self.condition(cond, SemanticError::LoopCondition);
        let loc = cond.loc;
        let not = self.operation(Op::LogicNot, &[value], Type::BOOL, loc);
        let brk = self.module.stmts.append(Stmt::Break);
        self.module.stmt_locs.insert(brk, loc);
        self.emit(
            Stmt::If {
                condition: not,
                then_block: vec![brk],
                else_block: Vec::new(),
            },
            loc,
        );
    }

    /// The condition of `while`/`for`, possibly a declaration.
    fn loop_condition(&mut self, cond: &ast::Condition) {
        match cond {
            ast::Condition::Expr(expr) => self.break_unless(expr),
            ast::Condition::Declaration(ty, name, init) => {
                let decl = ast::Declaration {
                    kind: ast::DeclarationKind::Variables(ast::InitDeclaratorList {
                        ty: ty.clone(),
                        declarators: vec![ast::InitDeclarator {
                            name: name.clone(),
                            array: None,
                            initializer: Some((**init).clone()),
                        }],
                    }),
                    loc: name.loc,
                };
                self.declaration(&decl, false);
                let as_expr = ast::Expr {
                    kind: ast::ExprKind::Variable(name.clone()),
                    loc: name.loc,
                };
                self.break_unless(&as_expr);
            }
        }
    }

    fn continue_statement(&mut self, loc: SourceLoc) {
        let Some(index) = self
            .breakables
            .iter()
            .rposition(|b| matches!(b, Breakable::Loop { .. }))
        else {
            self.error(loc, SemanticError::ContinueOutsideLoop);
            return;
        };
        let innermost = self.breakables.len() - 1;
        if index != innermost {
            // `continue` inside a switch: set the flag of the innermost switch
            // and leave it; the switch re-issues the continue.
            let flag = match &self.breakables[innermost] {
                Breakable::Switch {
                    continue_flag: Some(flag),
                    ..
                } => *flag,
                Breakable::Switch {
                    continue_flag: None,
                    ..
                } => {
                    let var = self.new_variable(
                        hir::Variable::new(
                            "switch_continue_tmp",
                            Type::BOOL,
                            hir::VarMode::Temporary,
                        ),
                        loc,
                    );
                    if let Breakable::Switch { continue_flag, .. } = &mut self.breakables[innermost]
                    {
                        *continue_flag = Some(var);
                    }
                    var
                }
                Breakable::Loop { .. } => return,
            };
            let dst = self.var_ref(flag, loc);
            let t = self.const_bool(true, loc);
            self.emit_assign(dst, t, loc);
            self.emit(Stmt::Break, loc);
            return;
        }
        let (step, do_while_cond) = match &self.breakables[index] {
            Breakable::Loop {
                step,
                do_while_cond,
            } => (step.clone(), do_while_cond.clone()),
            Breakable::Switch { .. } => (None, None),
        };
        self.mute += 1;
        if let Some(step) = step {
            self.expression_statement(&step);
        }
        if let Some(cond) = do_while_cond {
            self.break_unless(&cond);
        }
        self.mute -= 1;
        self.emit(Stmt::Continue, loc);
    }

    fn return_statement(&mut self, value: Option<&ast::Expr>, loc: SourceLoc) {
        self.found_return = true;
        let Some(function) = self.function.clone() else {
            return;
        };
        match value {
            Some(expr) => {
                let v = self.rvalue(expr);
                let ty = self.ty(v);
                if ty.is_error() || function.return_type.is_error() {
                    return;
                }
                if ty != function.return_type {
                    let has_420pack = self.at_least(420, 0)
                        || self.has_extension("GL_ARB_shading_language_420pack");
                    if has_420pack {
                        if let Some(c) = self.implicit_convert(v, &function.return_type, loc) {
                            if self.ty(c) == function.return_type {
                                self.emit(Stmt::Return(Some(c)), loc);
                                return;
                            }
                        }
                    }
                    self.error(
                        loc,
                        SemanticError::ReturnTypeWrong(
                            self.type_name(&ty),
                            function.name.clone(),
                            self.type_name(&function.return_type),
                        ),
                    );
                    return;
                }
                if ty == Type::Void {
                    // A clarification of GLSL 4.20 / ES 3.00 that Mesa applies to every version.
                    self.error(loc, SemanticError::ReturnValueInVoid(function.name.clone()));
                    self.emit(Stmt::Return(None), loc);
                    return;
                }
                self.emit(Stmt::Return(Some(v)), loc);
            }
            None => {
                if function.return_type != Type::Void && !function.return_type.is_error() {
                    self.error(
                        loc,
                        SemanticError::ReturnWithoutValue(function.name.clone()),
                    );
                }
                self.emit(Stmt::Return(None), loc);
            }
        }
    }

    fn switch_statement(&mut self, expr: &ast::Expr, body: &[ast::Statement], loc: SourceLoc) {
        if !self.at_least(130, 300) && !self.has_extension("GL_EXT_gpu_shader4") {
            self.error(
                loc,
                SemanticError::version_required("switch statements", self.version, 130, 300),
            );
            return;
        }
        let value = self.rvalue(expr);
        let ty = self.ty(value);
        let valid =
            ty.is_error() || (ty.is_scalar() && ty.scalar_kind().is_some_and(|k| k.is_integer()));
        if !valid {
            self.error(expr.loc, SemanticError::SwitchNotInteger);
        }
        let test = if valid && !ty.is_error() {
            Some(self.store_temporary("switch_test_tmp", value, loc))
        } else {
            None
        };
        let fallthru = self.temporary("switch_is_fallthru_tmp", Type::BOOL, loc);
        let dst = self.var_ref(fallthru, loc);
        let f = self.const_bool(false, loc);
        self.emit_assign(dst, f, loc);
        let flag_insert_at = self.body.len();

        // Group statements by their labels.
        struct Group<'s> {
            labels: Vec<(Option<&'s ast::Expr>, SourceLoc)>,
            statements: Vec<&'s ast::Statement>,
        }
        let mut groups: Vec<Group<'_>> = Vec::new();
        for s in body {
            match &s.kind {
                ast::StatementKind::Case(e) => {
                    if groups.last().is_none_or(|g| !g.statements.is_empty()) {
                        groups.push(Group {
                            labels: Vec::new(),
                            statements: Vec::new(),
                        });
                    }
                    if let Some(g) = groups.last_mut() {
                        g.labels.push((Some(e), s.loc));
                    }
                }
                ast::StatementKind::Default => {
                    if groups.last().is_none_or(|g| !g.statements.is_empty()) {
                        groups.push(Group {
                            labels: Vec::new(),
                            statements: Vec::new(),
                        });
                    }
                    if let Some(g) = groups.last_mut() {
                        g.labels.push((None, s.loc));
                    }
                }
                _ => {
                    if groups.is_empty() {
                        self.error(s.loc, SemanticError::StatementBeforeCase);
                        groups.push(Group {
                            labels: Vec::new(),
                            statements: Vec::new(),
                        });
                    }
                    if let Some(g) = groups.last_mut() {
                        g.statements.push(s);
                    }
                }
            }
        }

        if let Some(last) = groups.last() {
            if last.statements.is_empty() {
                let at = last.labels.last().map(|(_, l)| *l).unwrap_or(loc);
                self.error(at, SemanticError::LabelAtEndOfSwitch);
            }
        }

        // Check labels first: constants, duplicates, types.
        let mut seen: Vec<(i64, SourceLoc)> = Vec::new();
        let mut default_seen = false;
        let mut label_values: Vec<Vec<Option<Handle<hir::Expr>>>> = Vec::new();
        for group in &groups {
            let mut values = Vec::new();
            for (label, label_loc) in &group.labels {
                match label {
                    None => {
                        if default_seen {
                            self.error(*label_loc, SemanticError::MultipleDefault);
                        }
                        default_seen = true;
                        values.push(None);
                    }
                    Some(e) => {
                        let (constant, lty) =
                            self.constant_expression(e).unwrap_or((None, Type::Error));
                        if lty.is_error() {
                            continue;
                        }
                        let scalar = constant.as_ref().and_then(first_scalar);
                        let n = match scalar {
                            Some(ScalarValue::Int(i)) => Some(i as i64),
                            Some(ScalarValue::Uint(u)) => Some(u as i64 & 0xffff_ffff),
                            _ => None,
                        };
                        let Some(n) = n.filter(|_| lty.is_scalar()) else {
                            self.error(e.loc, SemanticError::CaseNotConstant);
                            continue;
                        };
                        let key = n & 0xffff_ffff;
                        if let Some((_, previous)) = seen.iter().find(|(v, _)| *v == key) {
                            let previous = *previous;
                            self.error(e.loc, SemanticError::DuplicateCase);
                            self.error(previous, SemanticError::PreviousCase);
                        } else {
                            seen.push((key, e.loc));
                        }
                        if !ty.is_error() && lty != ty {
                            self.error(
                                e.loc,
                                SemanticError::CaseTypeMismatch(
                                    self.type_name(&ty),
                                    self.type_name(&lty),
                                ),
                            );
                        }
                        let kind = ty.scalar_kind().unwrap_or(ScalarKind::Int);
                        let v = match kind {
                            ScalarKind::Uint => ScalarValue::Uint(n as u32),
                            _ => ScalarValue::Int(n as i32),
                        };
                        let c = self.constant(
                            Constant::Components(smallvec::smallvec![v]),
                            Type::Scalar(kind),
                            e.loc,
                        );
                        values.push(Some(c));
                    }
                }
            }
            label_values.push(values);
        }

        // `default` is taken when no label matches.
        let default_tmp = if default_seen {
            let tmp = self.temporary("switch_default_tmp", Type::BOOL, loc);
            let mut acc: Option<Handle<hir::Expr>> = None;
            if let Some(test) = test {
                for values in &label_values {
                    for c in values.iter().flatten() {
                        let t = self.clone_expr(test);
                        let c = self.clone_expr(*c);
                        let eq = self.operation(Op::Equal, &[t, c], Type::BOOL, loc);
                        acc = Some(match acc {
                            None => eq,
                            Some(prev) => self.operation(Op::LogicOr, &[prev, eq], Type::BOOL, loc),
                        });
                    }
                }
            }
            let any = match acc {
                Some(a) => a,
                None => self.const_bool(false, loc),
            };
            let none = self.operation(Op::LogicNot, &[any], Type::BOOL, loc);
            let dst = self.var_ref(tmp, loc);
            self.emit_assign(dst, none, loc);
            Some(tmp)
        } else {
            None
        };

        self.breakables.push(Breakable::Switch {
            continue_flag: None,
            flag_insert_at,
        });
        self.scope.push();
        let saved = std::mem::take(&mut self.body);
        for (group, values) in groups.iter().zip(&label_values) {
            let mut acc: Option<Handle<hir::Expr>> = None;
            for value in values {
                let cond = match value {
                    Some(c) => match test {
                        Some(test) => {
                            let t = self.clone_expr(test);
                            let c = self.clone_expr(*c);
                            self.operation(Op::Equal, &[t, c], Type::BOOL, loc)
                        }
                        None => self.const_bool(false, loc),
                    },
                    None => match default_tmp {
                        Some(tmp) => self.var_ref(tmp, loc),
                        None => self.const_bool(false, loc),
                    },
                };
                acc = Some(match acc {
                    None => cond,
                    Some(prev) => self.operation(Op::LogicOr, &[prev, cond], Type::BOOL, loc),
                });
            }
            if let Some(cond) = acc {
                let inner = std::mem::take(&mut self.body);
                let dst = self.var_ref(fallthru, loc);
                let t = self.const_bool(true, loc);
                self.emit_assign(dst, t, loc);
                let then_block = std::mem::replace(&mut self.body, inner);
                self.emit(
                    Stmt::If {
                        condition: cond,
                        then_block,
                        else_block: Vec::new(),
                    },
                    loc,
                );
            }
            let inner = std::mem::take(&mut self.body);
            for s in &group.statements {
                self.statement(s);
            }
            let then_block = std::mem::replace(&mut self.body, inner);
            if !then_block.is_empty() {
                let cond = self.var_ref(fallthru, loc);
                self.emit(
                    Stmt::If {
                        condition: cond,
                        then_block,
                        else_block: Vec::new(),
                    },
                    loc,
                );
            }
        }
        self.emit(Stmt::Break, loc);
        let loop_body = std::mem::replace(&mut self.body, saved);
        self.scope.pop();
        let breakable = self.breakables.pop();
        if let Some(Breakable::Switch {
            continue_flag: Some(flag),
            flag_insert_at,
        }) = breakable
        {
            // Declare and clear the flag before the loop; re-issue the continue after it.
            let decl = self.module.stmts.append(Stmt::Declare(flag));
            self.module.stmt_locs.insert(decl, loc);
            let dst = self.var_ref(flag, loc);
            let f = self.const_bool(false, loc);
            let clear = self.module.stmts.append(Stmt::Assign {
                lhs: dst,
                rhs: f,
                write_mask: 1,
            });
            self.module.stmt_locs.insert(clear, loc);
            let at = flag_insert_at.min(self.body.len());
            self.body.insert(at, clear);
            self.body.insert(at, decl);
            self.emit(Stmt::Loop { body: loop_body }, loc);
            let cond = self.var_ref(flag, loc);
            let cont = self.module.stmts.append(Stmt::Continue);
            self.module.stmt_locs.insert(cont, loc);
            // The enclosing loop may itself need its step before continuing.
            let saved = std::mem::take(&mut self.body);
            self.continue_statement(loc);
            let mut then_block = std::mem::replace(&mut self.body, saved);
            if then_block.is_empty() {
                then_block.push(cont);
            }
            self.emit(
                Stmt::If {
                    condition: cond,
                    then_block,
                    else_block: Vec::new(),
                },
                loc,
            );
        } else {
            self.emit(Stmt::Loop { body: loop_body }, loc);
        }
        let _ = ExprKind::VarRef;
    }
}
