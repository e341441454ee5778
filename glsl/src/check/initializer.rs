//! Initializer lists (`T x = { a, b, … };`, GLSL 4.20 §4.1.11 "Initializers",
//! ARB_shading_language_420pack): the braces are matched against the declared
//! type, each item initializing one array element, structure member, matrix
//! column or vector component in order (lists nest for nested aggregates),
//! and the result is the value of the equivalent constructor. Items convert
//! implicitly (§4.1.10); vectors and matrices need exactly one item per
//! component or column, arrays and structures get the constructor checks.
//! Mesa does the same in `_mesa_ast_set_aggregate_type` plus the
//! `process_*_constructor` functions of `ast_function.cpp`.

use super::errors::SemanticError;
use super::Checker;
use crate::arena::Handle;
use crate::ast;
use crate::hir;
use crate::span::SourceLoc;
use crate::types::Type;

/// Nesting deeper than this is reported instead of recursed into; the parser's
/// depth limit already bounds it, this keeps the checker safe on its own.
const MAX_DEPTH: u32 = 64;

impl Checker<'_> {
    /// True when an initializer (or any item of a list) contains the sequence
    /// operator, which makes a constant initializer non-constant (GLSL 1.20+).
    pub(super) fn initializer_has_sequence(init: &ast::Initializer) -> bool {
        match init {
            ast::Initializer::Simple(e) => super::lower_ctx::has_sequence(e),
            ast::Initializer::List(items, _) => items.iter().any(Self::initializer_has_sequence),
        }
    }

    /// The value of initializer `init` for a variable of type `ty`.
    pub(super) fn initializer_value(
        &mut self,
        init: &ast::Initializer,
        ty: &Type,
    ) -> Handle<hir::Expr> {
        self.initializer_item(init, ty, 0)
    }

    fn initializer_item(
        &mut self,
        init: &ast::Initializer,
        ty: &Type,
        depth: u32,
    ) -> Handle<hir::Expr> {
        match init {
            ast::Initializer::Simple(e) => self.rvalue(e),
            ast::Initializer::List(items, loc) => self.initializer_list(items, *loc, ty, depth),
        }
    }

    fn initializer_list(
        &mut self,
        items: &[ast::Initializer],
        loc: SourceLoc,
        ty: &Type,
        depth: u32,
    ) -> Handle<hir::Expr> {
        if ty.is_error() {
            return self.error_expr(loc);
        }
        if depth > MAX_DEPTH {
            self.error(loc, SemanticError::TooDeep);
            return self.error_expr(loc);
        }
        match ty {
            Type::Array(elem, len) => {
                let values: Vec<_> = items
                    .iter()
                    .map(|item| self.initializer_item(item, elem, depth + 1))
                    .collect();
                if values.iter().any(|v| self.ty(*v).is_error()) {
                    return self.error_expr(loc);
                }
                self.array_constructor((**elem).clone(), *len, values, loc)
            }
            Type::Struct(handle) => {
                let Some(st) = self.module.structs.get(*handle).cloned() else {
                    return self.error_expr(loc);
                };
                if st.is_interface {
                    self.error(loc, SemanticError::AggregateNotAggregate(st.name.clone()));
                    return self.error_expr(loc);
                }
                if !self.struct_arity_matches(items.len(), &st, loc) {
                    return self.error_expr(loc);
                }
                let mut values = Vec::with_capacity(items.len());
                for (item, field) in items.iter().zip(&st.fields) {
                    values.push(self.initializer_item(item, &field.ty, depth + 1));
                }
                if values.iter().any(|v| self.ty(*v).is_error()) {
                    return self.error_expr(loc);
                }
                self.record_constructor(ty.clone(), values, loc)
            }
            Type::Vector(kind, n) => {
                self.numeric_list(items, loc, ty, Type::Scalar(*kind), *n as usize, depth)
            }
            Type::Matrix { columns, rows } => {
                let column = Type::Vector(crate::types::ScalarKind::Float, *rows);
                self.numeric_list(items, loc, ty, column, *columns as usize, depth)
            }
            _ => {
                let name = self.type_name(ty);
                self.error(loc, SemanticError::AggregateNotAggregate(name));
                self.error_expr(loc)
            }
        }
    }

    /// A vector (one scalar per component) or matrix (one column vector per
    /// column) initialized from a list of exactly `count` items of type `item`.
    fn numeric_list(
        &mut self,
        items: &[ast::Initializer],
        loc: SourceLoc,
        ty: &Type,
        item: Type,
        count: usize,
        depth: u32,
    ) -> Handle<hir::Expr> {
        if items.len() != count {
            let which = if items.len() > count {
                "too many"
            } else {
                "too few"
            };
            let name = self.type_name(ty);
            self.error(loc, SemanticError::AggregateCount(which, name));
            return self.error_expr(loc);
        }
        let mut values = Vec::with_capacity(count);
        for init in items {
            let value = self.initializer_item(init, &item, depth + 1);
            let found = self.ty(value);
            if found.is_error() {
                return self.error_expr(loc);
            }
            match self.implicit_convert(value, &item, loc) {
                Some(c) if self.ty(c) == item => values.push(c),
                _ => {
                    let (expected, found) = (self.type_name(&item), self.type_name(&found));
                    self.error(loc, SemanticError::AggregateItemType(expected, found));
                    return self.error_expr(loc);
                }
            }
        }
        self.numeric_constructor(ty.clone(), values, loc)
    }
}
