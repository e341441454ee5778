//! The oracle's conversion of glsl-lang's syntax tree into [`crate::ast`] (the
//! way rgl built its tree before it had its own parser), plus an iterative
//! teardown for glsl-lang trees too deep to drop recursively.
//!
//! Every node gets the [`SourceLoc`] of its first token (node spans encode token
//! indices, see `tokens`). Conversion recursion is bounded by
//! `MAX_TREE_DEPTH`.

use glsl_lang::ast as gl;
use glsl_lang::ast::NodeSpan;

use super::super::{SyntaxError, MAX_TREE_DEPTH};
use crate::ast::*;
use crate::diag::{Diagnostic, Error};
use crate::pp;
use crate::span::SourceLoc;

/// Conversion result; the error is boxed to keep the recursive frames small.
type R<T> = Result<T, Box<Diagnostic>>;

/// Converts a whole translation unit.
pub(super) fn convert_unit(
    unit: &gl::TranslationUnit,
    tokens: &[pp::Token],
    symbols: &pp::Interner,
    es: bool,
) -> R<TranslationUnit> {
    let mut cx = Converter {
        tokens,
        symbols,
        depth: 0,
        es,
    };
    let mut items = Vec::with_capacity(unit.0.len());
    for decl in &unit.0 {
        match &decl.content {
            gl::ExternalDeclarationData::Preprocessor(_) => {
                return Err(cx.internal(
                    decl.span,
                    "preprocessor node in a preprocessed token stream",
                ))
            }
            gl::ExternalDeclarationData::FunctionDefinition(def) => {
                items.push(ExternalDecl::Function(FunctionDef {
                    prototype: cx.prototype(&def.prototype)?,
                    body: cx.compound(&def.statement)?,
                }));
            }
            gl::ExternalDeclarationData::Declaration(d) => {
                items.push(ExternalDecl::Declaration(cx.declaration(d)?));
            }
        }
    }
    Ok(TranslationUnit { items })
}

/// Converter state.
struct Converter<'a> {
    tokens: &'a [pp::Token],
    symbols: &'a pp::Interner,
    depth: usize,
    /// GLSL ES keeps layout identifiers' case (desktop lower-cases them, as
    /// desktop GLSL matches them case-insensitively).
    es: bool,
}

impl Converter<'_> {
    fn token(&self, span: Option<NodeSpan>) -> Option<&pp::Token> {
        span.and_then(|s| {
            self.tokens
                .get(super::bridge::token_index(s.start().offset))
        })
    }

    fn loc(&self, span: Option<NodeSpan>) -> SourceLoc {
        self.token(span).map(|t| t.loc).unwrap_or_default()
    }

    fn internal(&self, span: Option<NodeSpan>, what: &'static str) -> Box<Diagnostic> {
        Box::new(Diagnostic::error(
            self.loc(span),
            SyntaxError::Internal { what },
        ))
    }

    /// Enters one level of expression/statement nesting.
    fn enter(&mut self, span: Option<NodeSpan>) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_TREE_DEPTH {
            return Err(Box::new(Diagnostic::error(
                self.loc(span),
                Error::Limit {
                    what: "nesting depth of expressions and statements",
                    limit: MAX_TREE_DEPTH,
                },
            )));
        }
        Ok(())
    }

    fn ident(&self, id: &gl::Identifier) -> Ident {
        Ident {
            name: id.0.as_str().into(),
            loc: self.loc(id.span),
        }
    }

    // -- declarations -------------------------------------------------------

    fn declaration(&mut self, d: &gl::Declaration) -> R<Declaration> {
        let loc = self.loc(d.span);
        let kind = match &d.content {
            gl::DeclarationData::FunctionPrototype(p) => {
                DeclarationKind::Prototype(self.prototype(p)?)
            }
            gl::DeclarationData::InitDeclaratorList(list) => {
                DeclarationKind::Variables(self.init_declarator_list(list)?)
            }
            gl::DeclarationData::Precision(p, ty) => {
                DeclarationKind::Precision(precision(p), self.type_specifier(ty)?)
            }
            gl::DeclarationData::Block(b) => DeclarationKind::Block(self.block(b)?),
            gl::DeclarationData::Invariant(id) => DeclarationKind::Invariant(vec![self.ident(id)]),
            gl::DeclarationData::TypeOnly(q) => {
                DeclarationKind::QualifierOnly(self.type_qualifier(q)?)
            }
        };
        Ok(Declaration { kind, loc })
    }

    fn prototype(&mut self, p: &gl::FunctionPrototype) -> R<FunctionPrototype> {
        let mut parameters = Vec::with_capacity(p.parameters.len());
        for param in &p.parameters {
            let loc = self.loc(param.span);
            parameters.push(match &param.content {
                gl::FunctionParameterDeclarationData::Named(q, decl) => ParameterDecl {
                    qualifier: q.as_ref().map(|q| self.type_qualifier(q)).transpose()?,
                    ty: self.type_specifier(&decl.ty)?,
                    name: Some(self.ident(&decl.ident.ident)),
                    array: decl
                        .ident
                        .array_spec
                        .as_ref()
                        .map(|a| self.array(a))
                        .transpose()?,
                    loc,
                },
                gl::FunctionParameterDeclarationData::Unnamed(q, ty) => ParameterDecl {
                    qualifier: q.as_ref().map(|q| self.type_qualifier(q)).transpose()?,
                    ty: self.type_specifier(ty)?,
                    name: None,
                    array: None,
                    loc,
                },
            });
        }
        // `f(void)` declares no parameters.
        if let [only] = parameters.as_slice() {
            if only.qualifier.is_none()
                && only.name.is_none()
                && only.ty.array.is_none()
                && only.ty.ty == TypeName::Builtin("void".into())
            {
                parameters.clear();
            }
        }
        Ok(FunctionPrototype {
            return_type: self.fully_specified(&p.ty)?,
            name: self.ident(&p.name),
            parameters,
            loc: self.loc(p.name.span),
        })
    }

    fn fully_specified(&mut self, t: &gl::FullySpecifiedType) -> R<FullySpecifiedType> {
        Ok(FullySpecifiedType {
            qualifier: t
                .qualifier
                .as_ref()
                .map(|q| self.type_qualifier(q))
                .transpose()?,
            ty: self.type_specifier(&t.ty)?,
        })
    }

    fn init_declarator_list(&mut self, list: &gl::InitDeclaratorList) -> R<InitDeclaratorList> {
        let head = &list.head;
        let ty = self.fully_specified(&head.ty)?;
        let mut declarators = Vec::with_capacity(1 + list.tail.len());
        if let Some(name) = &head.name {
            declarators.push(InitDeclarator {
                name: self.ident(name),
                array: head
                    .array_specifier
                    .as_ref()
                    .map(|a| self.array(a))
                    .transpose()?,
                initializer: head
                    .initializer
                    .as_ref()
                    .map(|i| self.initializer(i))
                    .transpose()?,
            });
        }
        for more in &list.tail {
            declarators.push(InitDeclarator {
                name: self.ident(&more.ident.ident),
                array: more
                    .ident
                    .array_spec
                    .as_ref()
                    .map(|a| self.array(a))
                    .transpose()?,
                initializer: more
                    .initializer
                    .as_ref()
                    .map(|i| self.initializer(i))
                    .transpose()?,
            });
        }
        Ok(InitDeclaratorList { ty, declarators })
    }

    fn initializer(&mut self, init: &gl::Initializer) -> R<Initializer> {
        match &init.content {
            gl::InitializerData::Simple(e) => Ok(Initializer::Simple(Box::new(self.expr(e)?))),
            gl::InitializerData::List(items) => {
                self.enter(init.span)?;
                let list = items
                    .iter()
                    .map(|i| self.initializer(i))
                    .collect::<R<Vec<_>>>();
                self.depth -= 1;
                Ok(Initializer::List(list?, self.loc(init.span)))
            }
        }
    }

    fn block(&mut self, b: &gl::Block) -> R<Block> {
        Ok(Block {
            qualifier: self.type_qualifier(&b.qualifier)?,
            name: self.ident(&b.name),
            fields: b
                .fields
                .iter()
                .map(|f| self.struct_field(f))
                .collect::<R<_>>()?,
            instance: b.identifier.as_ref().map(|a| self.ident(&a.ident)),
            instance_array: match &b.identifier {
                Some(a) => a.array_spec.as_ref().map(|s| self.array(s)).transpose()?,
                None => None,
            },
        })
    }

    // -- types ----------------------------------------------------------------

    fn type_specifier(&mut self, t: &gl::TypeSpecifier) -> R<TypeSpecifier> {
        Ok(TypeSpecifier {
            ty: self.type_name(&t.ty)?,
            array: t
                .array_specifier
                .as_ref()
                .map(|a| self.array(a))
                .transpose()?,
            loc: self.loc(t.span),
        })
    }

    fn type_name(&mut self, t: &gl::TypeSpecifierNonArray) -> R<TypeName> {
        Ok(match &t.content {
            gl::TypeSpecifierNonArrayData::Struct(s) => {
                TypeName::Struct(Box::new(self.struct_specifier(s)?))
            }
            gl::TypeSpecifierNonArrayData::TypeName(name) => TypeName::Named(Ident {
                name: name.0.as_str().into(),
                loc: self.loc(name.span),
            }),
            // A built-in type keyword: its spelling is the token's text.
            _ => match self.token(t.span) {
                Some(tok) => TypeName::Builtin(self.symbols.shared(tok.sym)),
                None => return Err(self.internal(t.span, "built-in type without a token")),
            },
        })
    }

    fn struct_specifier(&mut self, s: &gl::StructSpecifier) -> R<StructSpecifier> {
        Ok(StructSpecifier {
            name: s.name.as_ref().map(|n| Ident {
                name: n.0.as_str().into(),
                loc: self.loc(n.span),
            }),
            fields: s
                .fields
                .iter()
                .map(|f| self.struct_field(f))
                .collect::<R<_>>()?,
            loc: self.loc(s.span),
        })
    }

    fn struct_field(&mut self, f: &gl::StructFieldSpecifier) -> R<StructField> {
        let mut names = Vec::with_capacity(f.identifiers.len());
        for id in &f.identifiers {
            names.push((
                self.ident(&id.ident),
                id.array_spec.as_ref().map(|a| self.array(a)).transpose()?,
            ));
        }
        Ok(StructField {
            qualifier: f
                .qualifier
                .as_ref()
                .map(|q| self.type_qualifier(q))
                .transpose()?,
            ty: self.type_specifier(&f.ty)?,
            names,
        })
    }

    fn array(&mut self, a: &gl::ArraySpecifier) -> R<ArraySpecifier> {
        let mut dimensions = Vec::with_capacity(a.dimensions.len());
        for dim in &a.dimensions {
            dimensions.push(match &dim.content {
                gl::ArraySpecifierDimensionData::Unsized => None,
                gl::ArraySpecifierDimensionData::ExplicitlySized(e) => {
                    Some(Box::new(self.expr(e)?))
                }
            });
        }
        Ok(ArraySpecifier {
            dimensions,
            loc: self.loc(a.span),
        })
    }

    fn type_qualifier(&mut self, q: &gl::TypeQualifier) -> R<TypeQualifier> {
        let mut qualifiers = Vec::with_capacity(q.qualifiers.len());
        for spec in &q.qualifiers {
            let loc = self.loc(spec.span);
            qualifiers.push(match &spec.content {
                gl::TypeQualifierSpecData::Storage(s) => match &s.content {
                    gl::StorageQualifierData::Subroutine(types) => Qualifier::Subroutine(
                        types
                            .iter()
                            .map(|t| self.type_specifier(t))
                            .collect::<R<Vec<_>>>()?,
                        loc,
                    ),
                    _ => Qualifier::Storage(storage(s), loc),
                },
                gl::TypeQualifierSpecData::Layout(l) => {
                    let mut items = Vec::with_capacity(l.ids.len());
                    for id in &l.ids {
                        items.push(match &id.content {
                            gl::LayoutQualifierSpecData::Identifier(name, value) => LayoutItem {
                                name: Ident {
                                    name: if self.es {
                                        name.0.as_str().into()
                                    } else {
                                        name.0.to_ascii_lowercase().into()
                                    },
                                    loc: self.loc(name.span),
                                },
                                value: value
                                    .as_ref()
                                    .map(|v| self.expr(v).map(Box::new))
                                    .transpose()?,
                            },
                            gl::LayoutQualifierSpecData::Shared => LayoutItem {
                                name: Ident {
                                    name: "shared".into(),
                                    loc: self.loc(id.span),
                                },
                                value: None,
                            },
                        });
                    }
                    Qualifier::Layout(items, loc)
                }
                gl::TypeQualifierSpecData::Precision(p) => Qualifier::Precision(precision(p), loc),
                gl::TypeQualifierSpecData::Interpolation(i) => Qualifier::Interpolation(
                    match i.content {
                        gl::InterpolationQualifierData::Smooth => Interpolation::Smooth,
                        gl::InterpolationQualifierData::Flat => Interpolation::Flat,
                        gl::InterpolationQualifierData::NoPerspective => {
                            Interpolation::NoPerspective
                        }
                    },
                    loc,
                ),
                gl::TypeQualifierSpecData::Invariant => Qualifier::Invariant(loc),
                // The token bridge adds a `precise` at the position of
                // `invariant` when a type follows it; it was never written.
                gl::TypeQualifierSpecData::Precise
                    if self
                        .token(spec.span)
                        .is_some_and(|t| self.symbols.get(t.sym) == "invariant") =>
                {
                    continue
                }
                gl::TypeQualifierSpecData::Precise => Qualifier::Precise(loc),
            });
        }
        Ok(TypeQualifier {
            qualifiers,
            loc: self.loc(q.span),
        })
    }

    // -- statements -------------------------------------------------------------

    fn compound(&mut self, c: &gl::CompoundStatement) -> R<CompoundStmt> {
        let statements = c
            .statement_list
            .iter()
            .map(|s| self.statement(s))
            .collect::<R<Vec<_>>>()?;
        Ok(CompoundStmt {
            statements,
            loc: self.loc(c.span),
        })
    }

    // Statements and expressions recurse once per tree level, so each arm is
    // its own out-of-line function: the recursive path then carries only the
    // frames of the arms actually taken (a few hundred bytes per level).

    fn statement(&mut self, s: &gl::Statement) -> R<Statement> {
        self.enter(s.span)?;
        let kind = self.statement_kind(s);
        self.depth -= 1;
        Ok(Statement {
            kind: kind?,
            loc: self.loc(s.span),
        })
    }

    fn boxed_statement(&mut self, s: &gl::Statement) -> R<Box<Statement>> {
        self.statement(s).map(Box::new)
    }

    fn statement_kind(&mut self, s: &gl::Statement) -> R<StatementKind> {
        match &s.content {
            gl::StatementData::Declaration(d) => self.declaration_statement(d),
            gl::StatementData::Expression(e) => self.expression_statement(e),
            gl::StatementData::Selection(sel) => self.selection(sel),
            gl::StatementData::Switch(sw) => self.switch(sw),
            gl::StatementData::CaseLabel(label) => self.case_label(label),
            gl::StatementData::Iteration(it) => self.iteration(it),
            gl::StatementData::Jump(j) => self.jump(j),
            gl::StatementData::Compound(c) => self.compound_statement(c),
        }
    }

    #[inline(never)]
    fn declaration_statement(&mut self, d: &gl::Declaration) -> R<StatementKind> {
        Ok(StatementKind::Declaration(self.declaration(d)?))
    }

    #[inline(never)]
    fn expression_statement(&mut self, e: &gl::ExprStatement) -> R<StatementKind> {
        Ok(StatementKind::Expr(
            e.0.as_ref().map(|e| self.expr(e)).transpose()?,
        ))
    }

    #[inline(never)]
    fn compound_statement(&mut self, c: &gl::CompoundStatement) -> R<StatementKind> {
        Ok(StatementKind::Compound(self.compound(c)?))
    }

    #[inline(never)]
    fn selection(&mut self, sel: &gl::SelectionStatement) -> R<StatementKind> {
        let cond = self.boxed(&sel.cond)?;
        Ok(match &sel.rest.content {
            gl::SelectionRestStatementData::Statement(then) => {
                StatementKind::If(cond, self.boxed_statement(then)?, None)
            }
            gl::SelectionRestStatementData::Else(then, other) => {
                let then = self.boxed_statement(then)?;
                StatementKind::If(cond, then, Some(self.boxed_statement(other)?))
            }
        })
    }

    #[inline(never)]
    fn switch(&mut self, sw: &gl::SwitchStatement) -> R<StatementKind> {
        let head = self.boxed(&sw.head)?;
        let body = sw
            .body
            .iter()
            .map(|s| self.statement(s))
            .collect::<R<_>>()?;
        Ok(StatementKind::Switch(head, body))
    }

    #[inline(never)]
    fn case_label(&mut self, label: &gl::CaseLabel) -> R<StatementKind> {
        Ok(match &label.content {
            gl::CaseLabelData::Case(e) => StatementKind::Case(self.boxed(e)?),
            gl::CaseLabelData::Def => StatementKind::Default,
        })
    }

    #[inline(never)]
    fn iteration(&mut self, it: &gl::IterationStatement) -> R<StatementKind> {
        Ok(match &it.content {
            gl::IterationStatementData::While(cond, body) => {
                let cond = self.condition(cond)?;
                StatementKind::While(cond, self.boxed_statement(body)?)
            }
            gl::IterationStatementData::DoWhile(body, cond) => {
                let body = self.boxed_statement(body)?;
                StatementKind::DoWhile(body, self.boxed(cond)?)
            }
            gl::IterationStatementData::For(init, rest, body) => self.for_loop(init, rest, body)?,
        })
    }

    #[inline(never)]
    fn for_loop(
        &mut self,
        init: &gl::ForInitStatement,
        rest: &gl::ForRestStatement,
        body: &gl::Statement,
    ) -> R<StatementKind> {
        let init = match &init.content {
            gl::ForInitStatementData::Expression(e) => {
                ForInit::Expr(e.as_ref().map(|e| self.expr(e)).transpose()?)
            }
            gl::ForInitStatementData::Declaration(d) => ForInit::Declaration(self.declaration(d)?),
        };
        let cond = rest
            .condition
            .as_ref()
            .map(|c| self.condition(c))
            .transpose()?;
        let step = rest.post_expr.as_ref().map(|e| self.boxed(e)).transpose()?;
        Ok(StatementKind::For(
            Box::new(init),
            cond,
            step,
            self.boxed_statement(body)?,
        ))
    }

    #[inline(never)]
    fn jump(&mut self, j: &gl::JumpStatement) -> R<StatementKind> {
        Ok(match &j.content {
            gl::JumpStatementData::Continue => StatementKind::Continue,
            gl::JumpStatementData::Break => StatementKind::Break,
            gl::JumpStatementData::Discard => StatementKind::Discard,
            gl::JumpStatementData::Return(e) => {
                StatementKind::Return(e.as_ref().map(|e| self.boxed(e)).transpose()?)
            }
        })
    }

    fn condition(&mut self, c: &gl::Condition) -> R<Condition> {
        Ok(match &c.content {
            gl::ConditionData::Expr(e) => Condition::Expr(self.boxed(e)?),
            gl::ConditionData::Assignment(ty, name, init) => Condition::Declaration(
                self.fully_specified(ty)?,
                self.ident(name),
                Box::new(self.initializer(init)?),
            ),
        })
    }

    // -- expressions ------------------------------------------------------------

    fn expr(&mut self, e: &gl::Expr) -> R<Expr> {
        self.enter(e.span)?;
        let kind = self.expr_kind(e);
        self.depth -= 1;
        Ok(Expr {
            kind: kind?,
            loc: self.loc(e.span),
        })
    }

    fn boxed(&mut self, e: &gl::Expr) -> R<Box<Expr>> {
        self.expr(e).map(Box::new)
    }

    fn expr_kind(&mut self, e: &gl::Expr) -> R<ExprKind> {
        match &e.content {
            gl::ExprData::Variable(id) => Ok(ExprKind::Variable(self.ident(id))),
            gl::ExprData::IntConst(v) => Ok(ExprKind::IntConst(*v)),
            gl::ExprData::UIntConst(v) => Ok(ExprKind::UintConst(*v)),
            gl::ExprData::BoolConst(v) => Ok(ExprKind::BoolConst(*v)),
            gl::ExprData::FloatConst(v) => Ok(ExprKind::FloatConst(*v)),
            gl::ExprData::DoubleConst(v) => Ok(ExprKind::DoubleConst(*v)),
            gl::ExprData::Unary(op, operand) => self.unary(op, operand),
            gl::ExprData::Binary(op, lhs, rhs) => self.binary(op, lhs, rhs),
            gl::ExprData::Ternary(c, a, b) => self.ternary(c, a, b),
            gl::ExprData::Assignment(lhs, op, rhs) => self.assignment(lhs, op, rhs),
            gl::ExprData::Bracket(base, index) => self.index(base, index),
            gl::ExprData::FunCall(callee, args) => self.call(callee, args),
            gl::ExprData::Dot(object, field) => self.field(object, field),
            gl::ExprData::PostInc(operand) => self.postfix(operand, true),
            gl::ExprData::PostDec(operand) => self.postfix(operand, false),
            gl::ExprData::Comma(a, b) => self.comma(a, b),
        }
    }

    #[inline(never)]
    fn unary(&mut self, op: &gl::UnaryOp, operand: &gl::Expr) -> R<ExprKind> {
        let op = match op.content {
            gl::UnaryOpData::Inc => UnaryOp::PreInc,
            gl::UnaryOpData::Dec => UnaryOp::PreDec,
            gl::UnaryOpData::Add => UnaryOp::Plus,
            gl::UnaryOpData::Minus => UnaryOp::Minus,
            gl::UnaryOpData::Not => UnaryOp::Not,
            gl::UnaryOpData::Complement => UnaryOp::Complement,
        };
        Ok(ExprKind::Unary(op, self.boxed(operand)?))
    }

    #[inline(never)]
    fn binary(&mut self, op: &gl::BinaryOp, lhs: &gl::Expr, rhs: &gl::Expr) -> R<ExprKind> {
        let lhs = self.boxed(lhs)?;
        Ok(ExprKind::Binary(
            binary_op(&op.content),
            lhs,
            self.boxed(rhs)?,
        ))
    }

    #[inline(never)]
    fn ternary(&mut self, c: &gl::Expr, a: &gl::Expr, b: &gl::Expr) -> R<ExprKind> {
        let c = self.boxed(c)?;
        let a = self.boxed(a)?;
        Ok(ExprKind::Ternary(c, a, self.boxed(b)?))
    }

    #[inline(never)]
    fn assignment(&mut self, lhs: &gl::Expr, op: &gl::AssignmentOp, rhs: &gl::Expr) -> R<ExprKind> {
        let op = match op.content {
            gl::AssignmentOpData::Equal => AssignOp::Assign,
            gl::AssignmentOpData::Mult => AssignOp::Op(BinaryOp::Mul),
            gl::AssignmentOpData::Div => AssignOp::Op(BinaryOp::Div),
            gl::AssignmentOpData::Mod => AssignOp::Op(BinaryOp::Mod),
            gl::AssignmentOpData::Add => AssignOp::Op(BinaryOp::Add),
            gl::AssignmentOpData::Sub => AssignOp::Op(BinaryOp::Sub),
            gl::AssignmentOpData::LShift => AssignOp::Op(BinaryOp::Shl),
            gl::AssignmentOpData::RShift => AssignOp::Op(BinaryOp::Shr),
            gl::AssignmentOpData::And => AssignOp::Op(BinaryOp::BitAnd),
            gl::AssignmentOpData::Xor => AssignOp::Op(BinaryOp::BitXor),
            gl::AssignmentOpData::Or => AssignOp::Op(BinaryOp::BitOr),
        };
        let lhs = self.boxed(lhs)?;
        Ok(ExprKind::Assign(op, lhs, self.boxed(rhs)?))
    }

    #[inline(never)]
    fn index(&mut self, base: &gl::Expr, index: &gl::Expr) -> R<ExprKind> {
        let base = self.boxed(base)?;
        Ok(ExprKind::Index(base, self.boxed(index)?))
    }

    #[inline(never)]
    fn field(&mut self, object: &gl::Expr, field: &gl::Identifier) -> R<ExprKind> {
        Ok(ExprKind::Field(self.boxed(object)?, self.ident(field)))
    }

    #[inline(never)]
    fn postfix(&mut self, operand: &gl::Expr, increment: bool) -> R<ExprKind> {
        let operand = self.boxed(operand)?;
        Ok(if increment {
            ExprKind::PostInc(operand)
        } else {
            ExprKind::PostDec(operand)
        })
    }

    #[inline(never)]
    fn comma(&mut self, a: &gl::Expr, b: &gl::Expr) -> R<ExprKind> {
        let a = self.boxed(a)?;
        Ok(ExprKind::Comma(a, self.boxed(b)?))
    }

    fn arguments(&mut self, args: &[gl::Expr]) -> R<Vec<Expr>> {
        args.iter().map(|a| self.expr(a)).collect()
    }

    /// Calls: constructors, named functions, and `x.length()`.
    #[inline(never)]
    fn call(&mut self, callee: &gl::FunIdentifier, args: &[gl::Expr]) -> R<ExprKind> {
        match &callee.content {
            gl::FunIdentifierData::TypeSpecifier(ty) => {
                let ty = self.type_specifier(ty)?;
                Ok(ExprKind::Call(
                    Callee::Type(Box::new(ty)),
                    self.arguments(args)?,
                ))
            }
            gl::FunIdentifierData::Expr(target) => match &target.content {
                gl::ExprData::Variable(name) => {
                    let name = self.ident(name);
                    Ok(ExprKind::Call(Callee::Name(name), self.arguments(args)?))
                }
                gl::ExprData::Dot(object, method) if method.0 == "length" && args.is_empty() => {
                    Ok(ExprKind::MethodLength(self.boxed(object)?))
                }
                gl::ExprData::Dot(_, method) => Err(Box::new(Diagnostic::error(
                    self.loc(method.span),
                    SyntaxError::UnknownMethod {
                        name: method.0.to_string(),
                    },
                ))),
                gl::ExprData::Bracket(..) => {
                    let loc = self.loc(target.span);
                    let converted = self.expr(target)?;
                    match super::super::actions::indexed_callee(converted) {
                        Some(callee) => Ok(ExprKind::Call(callee, self.arguments(args)?)),
                        None => Err(Box::new(Diagnostic::error(loc, SyntaxError::InvalidCallee))),
                    }
                }
                _ => Err(Box::new(Diagnostic::error(
                    self.loc(target.span),
                    SyntaxError::InvalidCallee,
                ))),
            },
        }
    }
}

fn precision(p: &gl::PrecisionQualifier) -> Precision {
    match p.content {
        gl::PrecisionQualifierData::High => Precision::High,
        gl::PrecisionQualifierData::Medium => Precision::Medium,
        gl::PrecisionQualifierData::Low => Precision::Low,
    }
}

fn storage(s: &gl::StorageQualifier) -> Storage {
    match &s.content {
        gl::StorageQualifierData::Const => Storage::Const,
        gl::StorageQualifierData::InOut => Storage::InOut,
        gl::StorageQualifierData::In => Storage::In,
        gl::StorageQualifierData::Out => Storage::Out,
        gl::StorageQualifierData::Centroid => Storage::Centroid,
        gl::StorageQualifierData::Patch => Storage::Patch,
        gl::StorageQualifierData::Sample => Storage::Sample,
        gl::StorageQualifierData::Uniform => Storage::Uniform,
        gl::StorageQualifierData::Buffer => Storage::Buffer,
        gl::StorageQualifierData::Shared => Storage::Shared,
        gl::StorageQualifierData::Coherent => Storage::Other("coherent"),
        gl::StorageQualifierData::Volatile => Storage::Other("volatile"),
        gl::StorageQualifierData::Restrict => Storage::Other("restrict"),
        gl::StorageQualifierData::ReadOnly => Storage::Other("readonly"),
        gl::StorageQualifierData::WriteOnly => Storage::Other("writeonly"),
        gl::StorageQualifierData::Attribute => Storage::Attribute,
        gl::StorageQualifierData::Varying => Storage::Varying,
        // Converted by `type_qualifier` into `Qualifier::Subroutine`.
        gl::StorageQualifierData::Subroutine(_) => Storage::Other("subroutine"),
    }
}

fn binary_op(op: &gl::BinaryOpData) -> BinaryOp {
    match op {
        gl::BinaryOpData::Or => BinaryOp::Or,
        gl::BinaryOpData::Xor => BinaryOp::Xor,
        gl::BinaryOpData::And => BinaryOp::And,
        gl::BinaryOpData::BitOr => BinaryOp::BitOr,
        gl::BinaryOpData::BitXor => BinaryOp::BitXor,
        gl::BinaryOpData::BitAnd => BinaryOp::BitAnd,
        gl::BinaryOpData::Equal => BinaryOp::Equal,
        gl::BinaryOpData::NonEqual => BinaryOp::NotEqual,
        gl::BinaryOpData::Lt => BinaryOp::Less,
        gl::BinaryOpData::Gt => BinaryOp::Greater,
        gl::BinaryOpData::Lte => BinaryOp::LessEqual,
        gl::BinaryOpData::Gte => BinaryOp::GreaterEqual,
        gl::BinaryOpData::LShift => BinaryOp::Shl,
        gl::BinaryOpData::RShift => BinaryOp::Shr,
        gl::BinaryOpData::Add => BinaryOp::Add,
        gl::BinaryOpData::Sub => BinaryOp::Sub,
        gl::BinaryOpData::Mult => BinaryOp::Mul,
        gl::BinaryOpData::Div => BinaryOp::Div,
        gl::BinaryOpData::Mod => BinaryOp::Mod,
    }
}

// ---------------------------------------------------------------------------
// Iterative teardown
// ---------------------------------------------------------------------------

/// Work list for [`dismantle`]: subtrees still to be taken apart.
#[derive(Default)]
struct Pile {
    exprs: Vec<gl::Expr>,
    statements: Vec<gl::Statement>,
}

impl Pile {
    fn declaration(&mut self, d: gl::Declaration) {
        match d.content {
            gl::DeclarationData::InitDeclaratorList(list) => {
                let list = list.content;
                let head = list.head.content;
                self.fully_specified(head.ty);
                if let Some(a) = head.array_specifier {
                    self.array(a);
                }
                if let Some(i) = head.initializer {
                    self.initializer(i);
                }
                for more in list.tail {
                    let more = more.content;
                    if let Some(a) = more.ident.content.array_spec {
                        self.array(a);
                    }
                    if let Some(i) = more.initializer {
                        self.initializer(i);
                    }
                }
            }
            gl::DeclarationData::FunctionPrototype(p) => {
                let p = p.content;
                self.fully_specified(p.ty);
                for param in p.parameters {
                    match param.content {
                        gl::FunctionParameterDeclarationData::Named(q, decl) => {
                            if let Some(q) = q {
                                self.qualifier(q);
                            }
                            let decl = decl.content;
                            self.type_specifier(decl.ty);
                            if let Some(a) = decl.ident.content.array_spec {
                                self.array(a);
                            }
                        }
                        gl::FunctionParameterDeclarationData::Unnamed(q, ty) => {
                            if let Some(q) = q {
                                self.qualifier(q);
                            }
                            self.type_specifier(ty);
                        }
                    }
                }
            }
            gl::DeclarationData::Precision(_, ty) => self.type_specifier(ty),
            gl::DeclarationData::Block(b) => {
                let b = b.content;
                self.qualifier(b.qualifier);
                for f in b.fields {
                    self.field(f);
                }
                if let Some(a) = b.identifier.and_then(|i| i.content.array_spec) {
                    self.array(a);
                }
            }
            gl::DeclarationData::Invariant(_) => {}
            gl::DeclarationData::TypeOnly(q) => self.qualifier(q),
        }
    }

    fn fully_specified(&mut self, t: gl::FullySpecifiedType) {
        let t = t.content;
        if let Some(q) = t.qualifier {
            self.qualifier(q);
        }
        self.type_specifier(t.ty);
    }

    fn qualifier(&mut self, q: gl::TypeQualifier) {
        for spec in q.content.qualifiers {
            if let gl::TypeQualifierSpecData::Layout(l) = spec.content {
                for id in l.content.ids {
                    if let gl::LayoutQualifierSpecData::Identifier(_, Some(v)) = id.content {
                        self.exprs.push(*v);
                    }
                }
            }
        }
    }

    fn type_specifier(&mut self, t: gl::TypeSpecifier) {
        let t = t.content;
        if let Some(a) = t.array_specifier {
            self.array(a);
        }
        if let gl::TypeSpecifierNonArrayData::Struct(s) = t.ty.content {
            for f in s.content.fields {
                self.field(f);
            }
        }
    }

    fn field(&mut self, f: gl::StructFieldSpecifier) {
        let f = f.content;
        if let Some(q) = f.qualifier {
            self.qualifier(q);
        }
        self.type_specifier(f.ty);
        for id in f.identifiers {
            if let Some(a) = id.content.array_spec {
                self.array(a);
            }
        }
    }

    fn array(&mut self, a: gl::ArraySpecifier) {
        for dim in a.content.dimensions {
            if let gl::ArraySpecifierDimensionData::ExplicitlySized(e) = dim.content {
                self.exprs.push(*e);
            }
        }
    }

    fn initializer(&mut self, i: gl::Initializer) {
        // Initializer lists nest only through braces, which the bracket limit bounds.
        match i.content {
            gl::InitializerData::Simple(e) => self.exprs.push(*e),
            gl::InitializerData::List(items) => {
                for item in items {
                    self.initializer(item);
                }
            }
        }
    }

    fn condition(&mut self, c: gl::Condition) {
        match c.content {
            gl::ConditionData::Expr(e) => self.exprs.push(e),
            gl::ConditionData::Assignment(ty, _, init) => {
                self.fully_specified(*ty);
                self.initializer(init);
            }
        }
    }

    fn statement(&mut self, s: gl::Statement) {
        match s.content {
            gl::StatementData::Declaration(d) => self.declaration(d),
            gl::StatementData::Expression(e) => self.exprs.extend(e.content.0),
            gl::StatementData::Selection(sel) => {
                let sel = sel.content;
                self.exprs.push(*sel.cond);
                match sel.rest.content {
                    gl::SelectionRestStatementData::Statement(s) => self.statements.push(*s),
                    gl::SelectionRestStatementData::Else(a, b) => {
                        self.statements.push(*a);
                        self.statements.push(*b);
                    }
                }
            }
            gl::StatementData::Switch(sw) => {
                let sw = sw.content;
                self.exprs.push(*sw.head);
                self.statements.extend(sw.body);
            }
            gl::StatementData::CaseLabel(label) => {
                if let gl::CaseLabelData::Case(e) = label.content {
                    self.exprs.push(*e);
                }
            }
            gl::StatementData::Iteration(it) => match it.content {
                gl::IterationStatementData::While(c, body) => {
                    self.condition(c);
                    self.statements.push(*body);
                }
                gl::IterationStatementData::DoWhile(body, c) => {
                    self.statements.push(*body);
                    self.exprs.push(*c);
                }
                gl::IterationStatementData::For(init, rest, body) => {
                    match init.content {
                        gl::ForInitStatementData::Expression(e) => self.exprs.extend(e),
                        gl::ForInitStatementData::Declaration(d) => self.declaration(*d),
                    }
                    let rest = rest.content;
                    if let Some(c) = rest.condition {
                        self.condition(c);
                    }
                    if let Some(e) = rest.post_expr {
                        self.exprs.push(*e);
                    }
                    self.statements.push(*body);
                }
            },
            gl::StatementData::Jump(j) => {
                if let gl::JumpStatementData::Return(Some(e)) = j.content {
                    self.exprs.push(*e);
                }
            }
            gl::StatementData::Compound(c) => self.statements.extend(c.content.statement_list),
        }
    }

    fn expr(&mut self, e: gl::Expr) {
        match e.content {
            gl::ExprData::Unary(_, a) | gl::ExprData::PostInc(a) | gl::ExprData::PostDec(a) => {
                self.exprs.push(*a)
            }
            gl::ExprData::Dot(a, _) => self.exprs.push(*a),
            gl::ExprData::Binary(_, a, b)
            | gl::ExprData::Assignment(a, _, b)
            | gl::ExprData::Bracket(a, b)
            | gl::ExprData::Comma(a, b) => {
                self.exprs.push(*a);
                self.exprs.push(*b);
            }
            gl::ExprData::Ternary(a, b, c) => {
                self.exprs.push(*a);
                self.exprs.push(*b);
                self.exprs.push(*c);
            }
            gl::ExprData::FunCall(callee, args) => {
                match callee.content {
                    gl::FunIdentifierData::TypeSpecifier(t) => self.type_specifier(*t),
                    gl::FunIdentifierData::Expr(e) => self.exprs.push(*e),
                }
                self.exprs.extend(args);
            }
            gl::ExprData::Variable(_)
            | gl::ExprData::IntConst(_)
            | gl::ExprData::UIntConst(_)
            | gl::ExprData::BoolConst(_)
            | gl::ExprData::FloatConst(_)
            | gl::ExprData::DoubleConst(_) => {}
        }
    }
}

/// Drops a glsl-lang tree without recursion, however deep it is.
pub(super) fn dismantle(unit: gl::TranslationUnit) {
    let mut pile = Pile::default();
    for decl in unit.0 {
        match decl.content {
            gl::ExternalDeclarationData::FunctionDefinition(def) => {
                let def = def.content;
                pile.declaration(gl::Declaration::new(
                    gl::DeclarationData::FunctionPrototype(def.prototype),
                    None,
                ));
                pile.statements.extend(def.statement.content.statement_list);
            }
            gl::ExternalDeclarationData::Declaration(d) => pile.declaration(d),
            gl::ExternalDeclarationData::Preprocessor(_) => {}
        }
    }
    loop {
        if let Some(s) = pile.statements.pop() {
            pile.statement(s);
        } else if let Some(e) = pile.exprs.pop() {
            pile.expr(e);
        } else {
            break;
        }
    }
}
