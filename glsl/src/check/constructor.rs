//! Constructors: scalar, vector and matrix constructors (conversions between
//! base kinds, scalar splats, matrix diagonals, matrix-from-matrix, component
//! counting with "too few"/"too many" errors), struct constructors and array
//! constructors (sized and unsized). All-constant arguments give a constant;
//! otherwise a `vec_ctor`/`mat_ctor`/`record_ctor`/`array_ctor` temporary is
//! filled with masked assignments, as Mesa does.

use crate::arena::Handle;
use crate::ast;
use crate::hir::{self, Constant, ExprKind, ScalarValue};
use crate::span::SourceLoc;
use crate::types::{ScalarKind, StructType, Type};

use super::{Checker, SemanticError};

/// Converts one constant scalar to another base kind (constructor rules).
pub(crate) fn convert_scalar(value: ScalarValue, to: ScalarKind) -> ScalarValue {
    let as_f32 = |v: ScalarValue| match v {
        ScalarValue::Float(f) => f,
        ScalarValue::Int(i) => i as f32,
        ScalarValue::Uint(u) => u as f32,
        ScalarValue::Bool(b) => b as u8 as f32,
    };
    match to {
        ScalarKind::Float => ScalarValue::Float(as_f32(value)),
        ScalarKind::Int => ScalarValue::Int(match value {
            ScalarValue::Float(f) => f as i32,
            ScalarValue::Int(i) => i,
            ScalarValue::Uint(u) => u as i32,
            ScalarValue::Bool(b) => b as i32,
        }),
        ScalarKind::Uint => ScalarValue::Uint(match value {
            ScalarValue::Float(f) => {
                if f < 0.0 {
                    (f as i32) as u32
                } else {
                    f as u32
                }
            }
            ScalarValue::Int(i) => i as u32,
            ScalarValue::Uint(u) => u,
            ScalarValue::Bool(b) => b as u32,
        }),
        ScalarKind::Bool => ScalarValue::Bool(match value {
            ScalarValue::Float(f) => f != 0.0,
            ScalarValue::Int(i) => i != 0,
            ScalarValue::Uint(u) => u != 0,
            ScalarValue::Bool(b) => b,
        }),
    }
}

fn zero_of(kind: ScalarKind) -> ScalarValue {
    convert_scalar(ScalarValue::Int(0), kind)
}

fn one_of(kind: ScalarKind) -> ScalarValue {
    convert_scalar(ScalarValue::Int(1), kind)
}

impl Checker<'_> {
    /// A constructor call of `ty`.
    pub fn constructor(
        &mut self,
        ty: Type,
        spec: &ast::TypeSpecifier,
        args: &[ast::Expr],
        loc: SourceLoc,
    ) -> Handle<hir::Expr> {
        let values: Vec<Handle<hir::Expr>> = args.iter().map(|a| self.rvalue(a)).collect();
        if ty.is_error() || values.iter().any(|v| self.ty(*v).is_error()) {
            return self.error_expr(loc);
        }
        let name = self.type_name(&ty);
        match &ty {
            Type::Void => {
                self.error(spec.loc, SemanticError::ConstructVoid);
                self.error_expr(loc)
            }
            _ if ty.contains_opaque(&self.module.structs) => {
                self.error(loc, SemanticError::ConstructOpaque(name));
                self.error_expr(loc)
            }
            Type::Array(elem, len) => self.array_constructor((**elem).clone(), *len, values, loc),
            Type::Struct(_) => self.record_constructor(ty.clone(), values, loc),
            _ => self.numeric_constructor(ty.clone(), values, loc),
        }
    }

    pub(super) fn array_constructor(
        &mut self,
        elem: Type,
        len: Option<u32>,
        values: Vec<Handle<hir::Expr>>,
        loc: SourceLoc,
    ) -> Handle<hir::Expr> {
        if !self.at_least(120, 300) {
            self.error(
                loc,
                SemanticError::version_required(
                    "array constructors forbidden",
                    self.version,
                    120,
                    300,
                ),
            );
            return self.error_expr(loc);
        }
        let count = values.len();
        if count == 0 || len.is_some_and(|n| n as usize != count) {
            let min = len.unwrap_or(1);
            self.error(
                loc,
                SemanticError::ArrayConstructorCount(
                    if len.is_none() { "at least" } else { "exactly" },
                    min,
                ),
            );
            return self.error_expr(loc);
        }
        let mut elements = Vec::with_capacity(count);
        for value in values {
            let vt = self.ty(value);
            let converted = if let (Type::Array(ee, None), Type::Array(ve, Some(_))) = (&elem, &vt)
            {
                if ee == ve {
                    Some(value)
                } else {
                    None
                }
            } else {
                self.implicit_convert(value, &elem, loc)
            };
            match converted {
                Some(c) if matches!(elem, Type::Array(_, None)) || self.ty(c) == elem => {
                    elements.push(c)
                }
                _ => {
                    self.error(
                        loc,
                        SemanticError::ArrayConstructorType(
                            self.type_name(&elem),
                            self.type_name(&vt),
                        ),
                    );
                    return self.error_expr(loc);
                }
            }
        }
        let elem_ty = match &elem {
            Type::Array(_, None) => self.ty(elements[0]),
            _ => elem.clone(),
        };
        let ty = Type::Array(Box::new(elem_ty), Some(count as u32));
        let constants: Option<Vec<Constant>> = elements.iter().map(|e| self.evaluate(*e)).collect();
        if let Some(constants) = constants {
            return self.constant(Constant::Aggregate(constants), ty, loc);
        }
        let tmp = self.temporary("array_ctor", ty, loc);
        for (i, value) in elements.into_iter().enumerate() {
            let base = self.var_ref(tmp, loc);
            let index = self.const_int(i as i32, loc);
            let elem_ty = self.ty(value);
            let lhs = self.add_expr(ExprKind::ArrayRef(base, index), elem_ty, loc);
            self.emit_assign(lhs, value, loc);
        }
        self.var_ref(tmp, loc)
    }

    /// GLSL 1.20 §5.4.3 (structure constructors) and GLSL 4.20 §4.1.11
    /// (initializer lists): one argument or list item per member, in order.
    /// Reports "too many" or "insufficient" and returns false otherwise.
    pub(super) fn struct_arity_matches(
        &mut self,
        given: usize,
        st: &StructType,
        loc: SourceLoc,
    ) -> bool {
        if given == st.fields.len() {
            return true;
        }
        let which = if given > st.fields.len() {
            "too many"
        } else {
            "insufficient"
        };
        self.error(
            loc,
            SemanticError::StructConstructorCount(which, st.name.clone()),
        );
        false
    }

    pub(super) fn record_constructor(
        &mut self,
        ty: Type,
        values: Vec<Handle<hir::Expr>>,
        loc: SourceLoc,
    ) -> Handle<hir::Expr> {
        let Type::Struct(handle) = ty else {
            return self.error_expr(loc);
        };
        let Some(st) = self.module.structs.get(handle).cloned() else {
            return self.error_expr(loc);
        };
        if !self.struct_arity_matches(values.len(), &st, loc) {
            return self.error_expr(loc);
        }
        let mut converted = Vec::new();
        for (field, value) in st.fields.iter().zip(values) {
            let vt = self.ty(value);
            match self.implicit_convert(value, &field.ty, loc) {
                Some(c) if self.ty(c) == field.ty => converted.push(c),
                _ => {
                    self.error(
                        loc,
                        SemanticError::StructConstructorType(
                            st.name.clone(),
                            field.name.clone(),
                            self.type_name(&vt),
                            self.type_name(&field.ty),
                        ),
                    );
                    return self.error_expr(loc);
                }
            }
        }
        let constants: Option<Vec<Constant>> =
            converted.iter().map(|e| self.evaluate(*e)).collect();
        if let Some(constants) = constants {
            return self.constant(Constant::Aggregate(constants), ty, loc);
        }
        let tmp = self.temporary("record_ctor", ty, loc);
        for (i, value) in converted.into_iter().enumerate() {
            let base = self.var_ref(tmp, loc);
            let fty = self.ty(value);
            let lhs = self.add_expr(ExprKind::RecordRef(base, i as u32), fty, loc);
            self.emit_assign(lhs, value, loc);
        }
        self.var_ref(tmp, loc)
    }

    pub(super) fn numeric_constructor(
        &mut self,
        ty: Type,
        values: Vec<Handle<hir::Expr>>,
        loc: SourceLoc,
    ) -> Handle<hir::Expr> {
        let name = self.type_name(&ty);
        let Some(kind) = ty.scalar_kind() else {
            self.error(loc, SemanticError::ConstructNonNumeric(name));
            return self.error_expr(loc);
        };
        let total = ty.components();
        let mut used = 0u32;
        let mut matrices = 0;
        for value in &values {
            if used >= total {
                self.error(loc, SemanticError::ConstructorTooMany(name));
                return self.error_expr(loc);
            }
            let vt = self.ty(*value);
            if !vt.is_numeric_or_bool() {
                self.error(loc, SemanticError::ConstructNonNumeric(name));
                return self.error_expr(loc);
            }
            if vt.is_matrix() {
                matrices += 1;
            }
            used += vt.components();
        }
        if matrices > 0 && ty.is_matrix() && !self.at_least(120, 100) {
            self.error(
                loc,
                SemanticError::version_required(
                    &format!("cannot construct `{name}' from a matrix"),
                    self.version,
                    120,
                    100,
                ),
            );
            return self.error_expr(loc);
        }
        if matrices > 0 && values.len() > 1 && ty.is_matrix() {
            self.error(loc, SemanticError::MatrixConstructorOnlyParam(name));
            return self.error_expr(loc);
        }
        if used < total && used != 1 && matrices == 0 {
            self.error(loc, SemanticError::ConstructorTooFew(name));
            return self.error_expr(loc);
        }

        // Convert every argument to the target base kind.
        let values: Vec<Handle<hir::Expr>> = values
            .into_iter()
            .map(|v| self.convert_kind(v, kind, loc))
            .collect();

        // All-constant arguments give a constant.
        let constants: Option<Vec<Constant>> = values.iter().map(|v| self.evaluate(*v)).collect();
        if let Some(constants) = constants {
            let types: Vec<Type> = values.iter().map(|v| self.ty(*v)).collect();
            if let Some(value) = build_constant(&ty, kind, &constants, &types) {
                return self.constant(value, ty, loc);
            }
        }

        let single = values.len() == 1;
        let first_ty = self.ty(values[0]);
        // Scalar target: the first component.
        if ty.is_scalar() {
            if first_ty.is_scalar() {
                return values[0];
            }
            let v = if first_ty.is_matrix() {
                let index = self.const_int(0, loc);
                let col = Type::Vector(ScalarKind::Float, first_ty.vector_elements());
                self.add_expr(ExprKind::ArrayRef(values[0], index), col, loc)
            } else {
                values[0]
            };
            let component = self.swizzle(v, &[0], loc);
            return self.convert_kind(component, kind, loc);
        }
        // Vector from one scalar: a splat.
        if single && first_ty.is_scalar() && ty.is_vector() {
            let n = ty.vector_elements();
            let comps: Vec<u8> = vec![0; n as usize];
            return self.swizzle(values[0], &comps, loc);
        }
        let is_matrix = ty.is_matrix();
        let tmp_name = if is_matrix { "mat_ctor" } else { "vec_ctor" };
        let tmp = self.temporary(tmp_name, ty.clone(), loc);
        let rows = ty.vector_elements();
        let columns = ty.matrix_columns();

        if is_matrix && single && (first_ty.is_scalar() || first_ty.is_matrix()) {
            // Start from zero (diagonal) or identity (matrix argument).
            let diag = if first_ty.is_scalar() {
                None
            } else {
                Some(ScalarValue::Float(1.0))
            };
            let mut comps = hir::Components::new();
            for c in 0..columns {
                for r in 0..rows {
                    comps.push(if c == r {
                        diag.unwrap_or(ScalarValue::Float(0.0))
                    } else {
                        ScalarValue::Float(0.0)
                    });
                }
            }
            let init = self.constant(Constant::Components(comps), ty.clone(), loc);
            let dst = self.var_ref(tmp, loc);
            self.emit_assign(dst, init, loc);
            if first_ty.is_scalar() {
                for c in 0..columns.min(rows) {
                    let base = self.var_ref(tmp, loc);
                    let index = self.const_int(c as i32, loc);
                    let col = self.add_expr(
                        ExprKind::ArrayRef(base, index),
                        Type::Vector(ScalarKind::Float, rows),
                        loc,
                    );
                    let lhs = self.swizzle(col, &[c], loc);
                    let value = self.clone_expr(values[0]);
                    self.emit_assign(lhs, value, loc);
                }
            } else {
                let src_cols = first_ty.matrix_columns();
                let src_rows = first_ty.vector_elements();
                for c in 0..columns.min(src_cols) {
                    let n = rows.min(src_rows);
                    let base = self.var_ref(tmp, loc);
                    let index = self.const_int(c as i32, loc);
                    let col = self.add_expr(
                        ExprKind::ArrayRef(base, index),
                        Type::Vector(ScalarKind::Float, rows),
                        loc,
                    );
                    let comps: Vec<u8> = (0..n).collect();
                    let lhs = if n == rows {
                        col
                    } else {
                        self.swizzle(col, &comps, loc)
                    };
                    let src = self.clone_expr(values[0]);
                    let sindex = self.const_int(c as i32, loc);
                    let scol = self.add_expr(
                        ExprKind::ArrayRef(src, sindex),
                        Type::Vector(ScalarKind::Float, src_rows),
                        loc,
                    );
                    let rhs = if n == src_rows {
                        scol
                    } else {
                        self.swizzle(scol, &comps, loc)
                    };
                    self.emit_assign(lhs, rhs, loc);
                }
            }
            return self.var_ref(tmp, loc);
        }

        // General case: pieces (scalars, vectors, matrix columns) fill the
        // target in column-major order.
        let mut pieces: Vec<Handle<hir::Expr>> = Vec::new();
        for value in values {
            let vt = self.ty(value);
            if vt.is_matrix() {
                for c in 0..vt.matrix_columns() {
                    let src = if c == 0 {
                        value
                    } else {
                        self.clone_expr(value)
                    };
                    let index = self.const_int(c as i32, loc);
                    let col = Type::Vector(ScalarKind::Float, vt.vector_elements());
                    let column = self.add_expr(ExprKind::ArrayRef(src, index), col, loc);
                    pieces.push(self.convert_kind(column, kind, loc));
                }
            } else {
                pieces.push(value);
            }
        }
        let mut slot = 0u32;
        for piece in pieces {
            let pt = self.ty(piece);
            let mut taken = 0u8;
            while taken < pt.vector_elements() && slot < total {
                let column = (slot / rows as u32) as u8;
                let row = (slot % rows as u32) as u8;
                let n = (rows - row).min(pt.vector_elements() - taken);
                let base = self.var_ref(tmp, loc);
                let dst_col = if is_matrix {
                    let index = self.const_int(column as i32, loc);
                    self.add_expr(
                        ExprKind::ArrayRef(base, index),
                        Type::Vector(ScalarKind::Float, rows),
                        loc,
                    )
                } else {
                    base
                };
                let dst_comps: Vec<u8> = (row..row + n).collect();
                let lhs = self.swizzle(dst_col, &dst_comps, loc);
                let src = if taken == 0 {
                    piece
                } else {
                    self.clone_expr(piece)
                };
                let rhs = if pt.is_scalar() {
                    src
                } else {
                    let comps: Vec<u8> = (taken..taken + n).collect();
                    self.swizzle(src, &comps, loc)
                };
                self.emit_assign(lhs, rhs, loc);
                taken += n;
                slot += n as u32;
            }
        }
        self.var_ref(tmp, loc)
    }
}

/// Builds the constant of a numeric constructor from constant arguments
/// (already converted to `kind`).
fn build_constant(
    ty: &Type,
    kind: ScalarKind,
    args: &[Constant],
    types: &[Type],
) -> Option<Constant> {
    let mut flat = crate::hir::Components::new();
    for arg in args {
        match arg {
            Constant::Components(values) => {
                flat.extend(values.iter().map(|v| convert_scalar(*v, kind)))
            }
            Constant::Aggregate(_) => return None,
        }
    }
    let total = ty.components() as usize;
    let rows = ty.vector_elements() as usize;
    let columns = ty.matrix_columns() as usize;
    if flat.is_empty() {
        return None;
    }
    let result = if args.len() == 1 && types[0].is_scalar() && !ty.is_scalar() {
        if ty.is_matrix() {
            let mut out: hir::Components = smallvec::smallvec![zero_of(kind); total];
            for c in 0..columns.min(rows) {
                out[c * rows + c] = flat[0];
            }
            out
        } else {
            smallvec::smallvec![flat[0]; total]
        }
    } else if args.len() == 1 && types[0].is_matrix() && ty.is_matrix() {
        let src_rows = types[0].vector_elements() as usize;
        let src_cols = types[0].matrix_columns() as usize;
        let mut out = hir::Components::with_capacity(total);
        for c in 0..columns {
            for r in 0..rows {
                out.push(if c < src_cols && r < src_rows {
                    flat[c * src_rows + r]
                } else if c == r {
                    one_of(kind)
                } else {
                    zero_of(kind)
                });
            }
        }
        out
    } else {
        if flat.len() < total {
            return None;
        }
        flat.truncate(total);
        flat
    };
    Some(Constant::Components(result))
}
