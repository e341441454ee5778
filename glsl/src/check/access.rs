//! Member access: swizzles with the `xyzw`/`rgba`/`stpq` sets, struct and
//! block field selection, array/matrix/vector indexing with constant bounds
//! checks, the tracking of the highest constant index used on implicitly sized
//! arrays, sampler-array indexing rules, and `.length()`.

use crate::arena::Handle;
use crate::ast;
use crate::hir::{self, ExprKind, Op};
use crate::span::SourceLoc;
use crate::types::{ScalarKind, Type};

use super::lower_ctx::{first_scalar, scalar_as_i64};
use super::{Checker, SemanticError};

/// Parses a swizzle against a vector of `size` components.
pub(crate) fn parse_swizzle(text: &str, size: u8) -> Option<Vec<u8>> {
    const SETS: [&[u8; 4]; 3] = [b"xyzw", b"rgba", b"stpq"];
    let bytes = text.as_bytes();
    if bytes.is_empty() || bytes.len() > 4 {
        return None;
    }
    let set = SETS.iter().find(|set| set.contains(&bytes[0]))?;
    let mut comps = Vec::with_capacity(bytes.len());
    for b in bytes {
        let index = set.iter().position(|c| c == b)? as u8;
        if index >= size {
            return None;
        }
        comps.push(index);
    }
    Some(comps)
}

impl Checker<'_> {
    /// `base.field`
    pub fn field_expr(
        &mut self,
        base: &ast::Expr,
        field: &ast::Ident,
        loc: SourceLoc,
    ) -> Handle<hir::Expr> {
        let value = self.rvalue(base);
        let ty = self.ty(value);
        match &ty {
            Type::Error => value,
            Type::Struct(h) => {
                let found = self.module.structs.get(*h).and_then(|s| {
                    s.fields
                        .iter()
                        .position(|f| *f.name == *field.name)
                        .map(|i| (i, s.fields[i].ty.clone()))
                });
                match found {
                    Some((index, fty)) => {
                        self.add_expr(ExprKind::RecordRef(value, index as u32), fty, loc)
                    }
                    None => {
                        self.error(
                            field.loc,
                            SemanticError::NoSuchField(field.name.to_string()),
                        );
                        self.error_expr(loc)
                    }
                }
            }
            Type::Vector(_, n) => match parse_swizzle(&field.name, *n) {
                Some(comps) => self.swizzle(value, &comps, loc),
                None => {
                    self.error(
                        field.loc,
                        SemanticError::InvalidSwizzle(field.name.to_string()),
                    );
                    self.error_expr(loc)
                }
            },
            Type::Scalar(_)
                if self.at_least(420, 0)
                    || self.has_extension("GL_ARB_shading_language_420pack") =>
            {
                match parse_swizzle(&field.name, 1) {
                    Some(comps) => self.swizzle(value, &comps, loc),
                    None => {
                        self.error(
                            field.loc,
                            SemanticError::InvalidSwizzle(field.name.to_string()),
                        );
                        self.error_expr(loc)
                    }
                }
            }
            _ => {
                self.error(
                    field.loc,
                    SemanticError::FieldOfNonStruct(field.name.to_string()),
                );
                self.error_expr(loc)
            }
        }
    }

    /// True when `expr` is (part of) a buffer variable.
    fn is_buffer_value(&self, expr: Handle<hir::Expr>) -> bool {
        self.root_variable(expr)
            .is_some_and(|v| self.module.variables[v].mode == hir::VarMode::ShaderStorage)
    }

    /// True when `expr` is the last member of a shader storage block, the one
    /// member whose unsized array is sized at run time (GLSL 4.30 §4.1.9);
    /// reached through the block instance or, for an unnamed block, as the
    /// member variable itself.
    fn is_runtime_sized_member(&self, expr: Handle<hir::Expr>) -> bool {
        if !self.is_buffer_value(expr) {
            return false;
        }
        let Some(e) = self.module.exprs.get(expr) else {
            return false;
        };
        match &e.kind {
            ExprKind::RecordRef(base, field) => {
                let Some(base) = self.module.exprs.get(*base) else {
                    return false;
                };
                let mut ty = &base.ty;
                while let Type::Array(elem, _) = ty {
                    ty = elem;
                }
                matches!(ty, Type::Struct(h) if self.module.structs.get(*h)
                    .is_some_and(|s| s.is_interface && *field as usize + 1 == s.fields.len()))
            }
            ExprKind::VarRef(v) => {
                let var = &self.module.variables[*v];
                var.interface_block
                    .and_then(|b| self.module.structs.get(b))
                    .and_then(|s| s.fields.last())
                    .is_some_and(|f| f.name == var.name)
            }
            _ => false,
        }
    }

    /// `base.length()`
    pub fn length_method(&mut self, base: &ast::Expr, loc: SourceLoc) -> Handle<hir::Expr> {
        let value = self.rvalue(base);
        let ty = self.ty(value);
        if ty.is_error() {
            return value;
        }
        if !self.at_least(120, 300) {
            self.error(
                loc,
                SemanticError::version_required("methods not supported", self.version, 120, 300),
            );
            return self.error_expr(loc);
        }
        match &ty {
            Type::Array(_, Some(n)) => self.const_int(*n as i32, loc),
            Type::Array(_, None) if self.is_buffer_value(value) => {
                // GLSL 4.30 §4.1.9: the length of a runtime-sized array is
                // known only when the shader runs: how many whole elements
                // the bound buffer range holds (GL 4.6 §7.6.2.2).
                self.operation(Op::SsboUnsizedArrayLength, &[value], Type::INT, loc)
            }
            Type::Array(_, None) => {
                self.error(loc, SemanticError::LengthOfUnsized);
                self.error_expr(loc)
            }
            Type::Vector(_, n)
                if self.at_least(420, 0)
                    || self.has_extension("GL_ARB_shading_language_420pack") =>
            {
                self.const_int(*n as i32, loc)
            }
            Type::Matrix { columns, .. }
                if self.at_least(420, 0)
                    || self.has_extension("GL_ARB_shading_language_420pack") =>
            {
                self.const_int(*columns as i32, loc)
            }
            _ => {
                self.error(loc, SemanticError::LengthOfNonArray);
                self.error_expr(loc)
            }
        }
    }

    /// `base[index]`
    pub fn index_expr(
        &mut self,
        base: &ast::Expr,
        index: &ast::Expr,
        loc: SourceLoc,
    ) -> Handle<hir::Expr> {
        let array = self.rvalue(base);
        let idx = self.rvalue(index);
        self.index_values(array, idx, loc, index.loc)
    }

    /// Indexes a checked value.
    pub fn index_values(
        &mut self,
        array: Handle<hir::Expr>,
        idx: Handle<hir::Expr>,
        loc: SourceLoc,
        idx_loc: SourceLoc,
    ) -> Handle<hir::Expr> {
        let aty = self.ty(array);
        let ity = self.ty(idx);
        let mut failed = aty.is_error() || ity.is_error();
        if !aty.is_error() && !aty.is_array() && !aty.is_matrix() && !aty.is_vector() {
            self.error(idx_loc, SemanticError::IndexNonArray);
            failed = true;
        }
        if !ity.is_error() {
            if !ity.scalar_kind().is_some_and(|k| k.is_integer()) || ity.is_matrix() {
                self.error(idx_loc, SemanticError::IndexNotInteger);
                failed = true;
            } else if !ity.is_scalar() {
                self.error(idx_loc, SemanticError::IndexNotScalar);
                failed = true;
            }
        }
        if failed {
            return self.error_expr(loc);
        }
        let constant = self
            .evaluate(idx)
            .as_ref()
            .and_then(first_scalar)
            .and_then(scalar_as_i64);
        match constant {
            Some(i) => {
                let (kind, bound) = match &aty {
                    Type::Matrix { columns, .. } => ("matrix", *columns as i64),
                    Type::Vector(_, n) => ("vector", *n as i64),
                    Type::Array(_, Some(n)) => ("array", *n as i64),
                    _ => ("array", i64::MAX),
                };
                if i >= bound {
                    self.error(loc, SemanticError::IndexOutOfBounds(kind, bound as u64));
                } else if i < 0 {
                    self.error(loc, SemanticError::IndexNegative(kind));
                }
                // A runtime-sized buffer array keeps its size open.
                if aty.is_array()
                    && i >= 0
                    && !(len_unsized(&aty) && self.is_runtime_sized_member(array))
                {
                    self.update_max_array_access(array, i, loc);
                }
            }
            None => {
                if let Type::Array(elem, len) = &aty {
                    if len.is_none() {
                        // GS input arrays are sized later from the input
                        // primitive; their unsized members (`gl_in[i].gl_ClipDistance`)
                        // are not.
                        let root_ok = match self.module.exprs.get(array).map(|e| &e.kind) {
                            Some(ExprKind::VarRef(v)) => {
                                self.module.variables.get(*v).is_some_and(|v| {
                                    self.stage == crate::version::Stage::Geometry
                                        && v.mode == hir::VarMode::ShaderIn
                                })
                            }
                            _ => false,
                        };
                        // ARB_shader_storage_buffer_object: the unsized last
                        // member of a buffer block "may be indexed with general
                        // integer expressions".
                        // Its other unsized members are implicitly sized from
                        // their constant indices. As in Mesa's
                        // `_mesa_ast_array_index_to_hir`, a member of an
                        // unnamed block indexed with a variable is a compile
                        // error; through a block instance it is not, and the
                        // linker rejects a member no constant index sized.
                        let unnamed_member = matches!(
                            self.module.exprs.get(array).map(|e| &e.kind),
                            Some(ExprKind::VarRef(_))
                        );
                        if !root_ok && !self.is_buffer_value(array) {
                            self.error(loc, SemanticError::UnsizedIndexNotConstant);
                        } else if !root_ok && unnamed_member && !self.is_runtime_sized_member(array)
                        {
                            self.error(loc, SemanticError::UnsizedBufferIndexNotLast);
                        }
                    }
                    // GLSL 1.30 §4.1.7: "samplers aggregated into arrays" covers
                    // arrays of structs (and arrays) that hold samplers, as in
                    // Mesa's ast_array_index (`contains_sampler` on the array).
                    if elem.contains_sampler(&self.module.structs)
                        && !self.at_least(400, 320)
                        && !self.has_extension("GL_ARB_gpu_shader5")
                    {
                        if self.at_least(130, 300) {
                            let which = if self.version.is_es() {
                                "ES 3.00"
                            } else {
                                "1.30"
                            };
                            self.error(loc, SemanticError::SamplerArrayNonConstant(which));
                        } else {
                            let which = if self.version.is_es() { "3.00" } else { "1.30" };
                            self.warning(loc, SemanticError::SamplerArrayNonConstantWarning(which));
                        }
                    }
                    if let Type::Struct(h) = elem.as_ref() {
                        let is_block = self.module.structs.get(*h).is_some_and(|s| s.is_interface);
                        if is_block
                            && self.is_uniform_value(array)
                            && !self.at_least(400, 320)
                            && !self.has_extension("GL_ARB_gpu_shader5")
                        {
                            self.error(loc, SemanticError::BlockArrayNonConstant);
                        }
                    }
                }
            }
        }
        let result_ty = match aty.index_result() {
            Some(t) => t,
            None => return self.error_expr(loc),
        };
        let result_ty = match (&aty, result_ty) {
            (Type::Vector(kind, _), _) => Type::Scalar(*kind),
            (Type::Matrix { rows, .. }, _) => Type::Vector(ScalarKind::Float, *rows),
            (_, t) => t,
        };
        self.add_expr(ExprKind::ArrayRef(array, idx), result_ty, loc)
    }

    fn is_uniform_value(&self, expr: Handle<hir::Expr>) -> bool {
        self.root_variable(expr)
            .and_then(|v| self.module.variables.get(v))
            .is_some_and(|v| v.mode == hir::VarMode::Uniform)
    }

    /// Records the highest constant index used on an array variable and
    /// reports an index past the size of a sized built-in-redeclared array.
    fn update_max_array_access(&mut self, array: Handle<hir::Expr>, index: i64, _loc: SourceLoc) {
        if let Some(hir::Expr {
            kind: ExprKind::VarRef(var),
            ..
        }) = self.module.exprs.get(array)
        {
            let var = *var;
            let v = &mut self.module.variables[var];
            let index = index.min(i32::MAX as i64) as i32;
            if index > v.max_array_access {
                v.max_array_access = index;
            }
        }
    }
}

/// True for an array type without a size.
fn len_unsized(ty: &Type) -> bool {
    matches!(ty, Type::Array(_, None))
}
