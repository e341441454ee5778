//! The checks that run over the finished syntax tree, in top-down order: the
//! depth bound [`super::MAX_TREE_DEPTH`] on nested expressions, statements
//! and initializer lists, and the call errors the actions deferred (marker
//! calls, see `actions`). The first problem a walk from the root meets is
//! reported, so the report does not depend on the order the parser reduced
//! the tree in.
//!
//! The walk visits declarations the way the AST nests them, with two fixed
//! orders of its own: parameters before the return type of a prototype, and
//! member names (with their array sizes) before the qualifiers and type of a
//! struct member.

use super::actions::MARKER;
use super::MAX_TREE_DEPTH;
use crate::ast::*;
use crate::diag::{Diagnostic, Error};
use crate::span::SourceLoc;

/// The first depth violation or deferred error of `unit`, if any.
pub(super) fn check(unit: &TranslationUnit, deferred: &[Diagnostic]) -> Option<Diagnostic> {
    let mut walk = Walk { depth: 0, deferred };
    walk.unit(unit).err().map(|e| *e)
}

/// Walk result; the error is boxed to keep the recursive frames small.
type R = Result<(), Box<Diagnostic>>;

struct Walk<'a> {
    depth: usize,
    deferred: &'a [Diagnostic],
}

impl Walk<'_> {
    fn unit(&mut self, unit: &TranslationUnit) -> R {
        for item in &unit.items {
            match item {
                ExternalDecl::Function(def) => {
                    self.prototype(&def.prototype)?;
                    self.compound(&def.body)?;
                }
                ExternalDecl::Declaration(d) => self.declaration(d)?,
            }
        }
        Ok(())
    }

    /// Enters one level of expression/statement nesting.
    fn enter(&mut self, loc: SourceLoc) -> R {
        self.depth += 1;
        if self.depth > MAX_TREE_DEPTH {
            return Err(Box::new(Diagnostic::error(
                loc,
                Error::Limit {
                    what: "nesting depth of expressions and statements",
                    limit: MAX_TREE_DEPTH,
                },
            )));
        }
        Ok(())
    }

    // -- declarations -------------------------------------------------------

    fn declaration(&mut self, d: &Declaration) -> R {
        match &d.kind {
            DeclarationKind::Prototype(p) => self.prototype(p),
            DeclarationKind::Variables(list) => {
                self.fully_specified(&list.ty)?;
                for decl in &list.declarators {
                    self.array(decl.array.as_ref())?;
                    if let Some(init) = &decl.initializer {
                        self.initializer(init)?;
                    }
                }
                Ok(())
            }
            DeclarationKind::Precision(_, ty) => self.type_specifier(ty),
            DeclarationKind::Block(b) => {
                self.qualifier(Some(&b.qualifier))?;
                for field in &b.fields {
                    self.struct_field(field)?;
                }
                self.array(b.instance_array.as_ref())
            }
            DeclarationKind::Invariant(_) => Ok(()),
            DeclarationKind::QualifierOnly(q) => self.qualifier(Some(q)),
        }
    }

    fn prototype(&mut self, p: &FunctionPrototype) -> R {
        for param in &p.parameters {
            self.qualifier(param.qualifier.as_ref())?;
            self.type_specifier(&param.ty)?;
            self.array(param.array.as_ref())?;
        }
        self.fully_specified(&p.return_type)
    }

    fn fully_specified(&mut self, t: &FullySpecifiedType) -> R {
        self.qualifier(t.qualifier.as_ref())?;
        self.type_specifier(&t.ty)
    }

    fn initializer(&mut self, init: &Initializer) -> R {
        match init {
            Initializer::Simple(e) => self.expr(e),
            Initializer::List(items, loc) => {
                self.enter(*loc)?;
                for item in items {
                    self.initializer(item)?;
                }
                self.depth -= 1;
                Ok(())
            }
        }
    }

    fn type_specifier(&mut self, t: &TypeSpecifier) -> R {
        if let TypeName::Struct(s) = &t.ty {
            for field in &s.fields {
                self.struct_field(field)?;
            }
        }
        self.array(t.array.as_ref())
    }

    fn struct_field(&mut self, f: &StructField) -> R {
        for (_, array) in &f.names {
            self.array(array.as_ref())?;
        }
        self.qualifier(f.qualifier.as_ref())?;
        self.type_specifier(&f.ty)
    }

    fn array(&mut self, a: Option<&ArraySpecifier>) -> R {
        for dim in a.iter().flat_map(|a| &a.dimensions).flatten() {
            self.expr(dim)?;
        }
        Ok(())
    }

    fn qualifier(&mut self, q: Option<&TypeQualifier>) -> R {
        for qualifier in q.iter().flat_map(|q| &q.qualifiers) {
            if let Qualifier::Layout(items, _) = qualifier {
                for value in items.iter().filter_map(|i| i.value.as_ref()) {
                    self.expr(value)?;
                }
            }
        }
        Ok(())
    }

    // -- statements -------------------------------------------------------------

    fn compound(&mut self, c: &CompoundStmt) -> R {
        for s in &c.statements {
            self.statement(s)?;
        }
        Ok(())
    }

    fn statement(&mut self, s: &Statement) -> R {
        self.enter(s.loc)?;
        self.statement_kind(&s.kind)?;
        self.depth -= 1;
        Ok(())
    }

    fn statement_kind(&mut self, kind: &StatementKind) -> R {
        match kind {
            StatementKind::Declaration(d) => self.declaration(d),
            StatementKind::Expr(e) => e.as_ref().map_or(Ok(()), |e| self.expr(e)),
            StatementKind::If(c, then, other) => {
                self.expr(c)?;
                self.statement(then)?;
                other.as_ref().map_or(Ok(()), |s| self.statement(s))
            }
            StatementKind::Switch(head, body) => {
                self.expr(head)?;
                for s in body {
                    self.statement(s)?;
                }
                Ok(())
            }
            StatementKind::Case(e) => self.expr(e),
            StatementKind::While(cond, body) => {
                self.condition(cond)?;
                self.statement(body)
            }
            StatementKind::DoWhile(body, cond) => {
                self.statement(body)?;
                self.expr(cond)
            }
            StatementKind::For(init, cond, step, body) => {
                match &**init {
                    ForInit::Expr(e) => e.as_ref().map_or(Ok(()), |e| self.expr(e))?,
                    ForInit::Declaration(d) => self.declaration(d)?,
                }
                if let Some(c) = cond {
                    self.condition(c)?;
                }
                if let Some(e) = step {
                    self.expr(e)?;
                }
                self.statement(body)
            }
            StatementKind::Return(e) => e.as_ref().map_or(Ok(()), |e| self.expr(e)),
            StatementKind::Compound(c) => self.compound(c),
            StatementKind::Default
            | StatementKind::Continue
            | StatementKind::Break
            | StatementKind::Discard => Ok(()),
        }
    }

    fn condition(&mut self, c: &Condition) -> R {
        match c {
            Condition::Expr(e) => self.expr(e),
            Condition::Declaration(ty, _, init) => {
                self.fully_specified(ty)?;
                self.initializer(init)
            }
        }
    }

    // -- expressions ------------------------------------------------------------

    fn expr(&mut self, e: &Expr) -> R {
        self.enter(e.loc)?;
        self.expr_kind(&e.kind)?;
        self.depth -= 1;
        Ok(())
    }

    fn expr_kind(&mut self, kind: &ExprKind) -> R {
        match kind {
            ExprKind::Variable(_)
            | ExprKind::IntConst(_)
            | ExprKind::UintConst(_)
            | ExprKind::BoolConst(_)
            | ExprKind::FloatConst(_)
            | ExprKind::DoubleConst(_) => Ok(()),
            ExprKind::Unary(_, a)
            | ExprKind::Field(a, _)
            | ExprKind::MethodLength(a)
            | ExprKind::PostInc(a)
            | ExprKind::PostDec(a) => self.expr(a),
            ExprKind::Binary(_, a, b)
            | ExprKind::Assign(_, a, b)
            | ExprKind::Index(a, b)
            | ExprKind::Comma(a, b) => {
                self.expr(a)?;
                self.expr(b)
            }
            ExprKind::Ternary(c, a, b) => {
                self.expr(c)?;
                self.expr(a)?;
                self.expr(b)
            }
            ExprKind::Call(callee, args) => {
                match callee {
                    Callee::Type(ty) => self.type_specifier(ty)?,
                    Callee::Name(name) => {
                        if let Some(index) = name.name.strip_prefix(MARKER) {
                            let error = index
                                .parse::<usize>()
                                .ok()
                                .and_then(|i| self.deferred.get(i));
                            if let Some(error) = error {
                                return Err(Box::new(error.clone()));
                            }
                        }
                    }
                }
                for arg in args {
                    self.expr(arg)?;
                }
                Ok(())
            }
        }
    }
}
