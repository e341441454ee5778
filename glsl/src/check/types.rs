//! Type specifiers: built-in type names with the versions that have them,
//! struct declarations (named, anonymous, nested), user type names and array
//! dimensions (constant-folded sizes, unsized arrays, arrays of arrays).

use crate::ast;
use crate::hir::MemberQualifiers;
use crate::limits;
use crate::span::SourceLoc;
use crate::types::{ImageType, SamplerDim, SamplerType, ScalarKind, StructField, StructType, Type};

use super::qualifiers::{self, DeclContext};
use super::{Checker, SemanticError};

/// Parses a built-in scalar/vector/matrix name.
fn numeric_type(name: &str) -> Option<Type> {
    let scalar = match name {
        "float" => Some(Type::FLOAT),
        "int" => Some(Type::INT),
        "uint" => Some(Type::UINT),
        "bool" => Some(Type::BOOL),
        _ => None,
    };
    if scalar.is_some() {
        return scalar;
    }
    let (kind, rest) = if let Some(rest) = name.strip_prefix("vec") {
        (ScalarKind::Float, rest)
    } else if let Some(rest) = name.strip_prefix("ivec") {
        (ScalarKind::Int, rest)
    } else if let Some(rest) = name.strip_prefix("uvec") {
        (ScalarKind::Uint, rest)
    } else if let Some(rest) = name.strip_prefix("bvec") {
        (ScalarKind::Bool, rest)
    } else if let Some(rest) = name.strip_prefix("mat") {
        let bytes = rest.as_bytes();
        let dim = |b: u8| {
            if (b'2'..=b'4').contains(&b) {
                Some(b - b'0')
            } else {
                None
            }
        };
        return match bytes {
            [c] => dim(*c).map(|c| Type::mat(c, c)),
            [c, b'x', r] => Some(Type::mat(dim(*c)?, dim(*r)?)),
            _ => None,
        };
    } else {
        return None;
    };
    match rest {
        "2" => Some(Type::Vector(kind, 2)),
        "3" => Some(Type::Vector(kind, 3)),
        "4" => Some(Type::Vector(kind, 4)),
        _ => None,
    }
}

/// Parses a sampler type name.
fn sampler_type(name: &str) -> Option<SamplerType> {
    let (kind, rest) = if let Some(rest) = name.strip_prefix("isampler") {
        (ScalarKind::Int, rest)
    } else if let Some(rest) = name.strip_prefix("usampler") {
        (ScalarKind::Uint, rest)
    } else if let Some(rest) = name.strip_prefix("sampler") {
        (ScalarKind::Float, rest)
    } else {
        return None;
    };
    let (dim, rest) = [
        ("1D", SamplerDim::D1),
        ("2DRect", SamplerDim::Rect),
        ("2DMS", SamplerDim::Ms),
        ("2D", SamplerDim::D2),
        ("3D", SamplerDim::D3),
        ("Cube", SamplerDim::Cube),
        ("Buffer", SamplerDim::Buffer),
        ("ExternalOES", SamplerDim::External),
    ]
    .iter()
    .find_map(|(prefix, dim)| rest.strip_prefix(prefix).map(|r| (*dim, r)))?;
    let (arrayed, rest) = match rest.strip_prefix("Array") {
        Some(r) => (true, r),
        None => (false, rest),
    };
    let (shadow, rest) = match rest.strip_prefix("Shadow") {
        Some(r) => (true, r),
        None => (false, rest),
    };
    if !rest.is_empty() || (shadow && kind != ScalarKind::Float) {
        return None;
    }
    let valid = match dim {
        SamplerDim::D1 | SamplerDim::D2 | SamplerDim::Cube => true,
        SamplerDim::Rect => !arrayed,
        SamplerDim::D3 | SamplerDim::Buffer | SamplerDim::External => !arrayed && !shadow,
        SamplerDim::Ms => !shadow,
    };
    if !valid {
        return None;
    }
    Some(SamplerType {
        dim,
        arrayed,
        shadow,
        kind,
    })
}

/// Parses an image type name (`image2D`, `iimageCubeArray`, …; GLSL 4.20
/// §4.1.7.2).
pub(crate) fn image_type(name: &str) -> Option<ImageType> {
    let (kind, rest) = if let Some(rest) = name.strip_prefix("iimage") {
        (ScalarKind::Int, rest)
    } else if let Some(rest) = name.strip_prefix("uimage") {
        (ScalarKind::Uint, rest)
    } else if let Some(rest) = name.strip_prefix("image") {
        (ScalarKind::Float, rest)
    } else {
        return None;
    };
    let sampler = sampler_type(&format!("sampler{rest}"))?;
    if sampler.shadow || sampler.dim == SamplerDim::External {
        return None;
    }
    Some(ImageType {
        dim: sampler.dim,
        arrayed: sampler.arrayed,
        kind,
    })
}

impl Checker<'_> {
    /// True if image types exist: GLSL 4.20, GLSL ES 3.10 or
    /// GL_ARB_shader_image_load_store (the keyword table has already limited
    /// ES to the dimensions it has).
    pub fn has_images(&self) -> bool {
        self.at_least(420, 310) || self.has_extension("GL_ARB_shader_image_load_store")
    }

    /// True if the built-in sampler type exists in this version.
    fn sampler_available(&self, s: SamplerType) -> bool {
        let es = self.version.is_es();
        if s.kind != ScalarKind::Float && !self.at_least(130, 300) {
            return self.has_extension("GL_EXT_gpu_shader4");
        }
        match s.dim {
            SamplerDim::External => self.has_extension("GL_OES_EGL_image_external"),
            SamplerDim::D1 => {
                !es && (!s.arrayed
                    || self.at_least(130, 0)
                    || self.has_extension("GL_EXT_texture_array"))
            }
            SamplerDim::D2 => {
                if s.arrayed {
                    self.at_least(130, 300) || self.has_extension("GL_EXT_texture_array")
                } else if s.shadow {
                    !es || self.at_least(0, 300) || self.has_extension("GL_EXT_shadow_samplers")
                } else {
                    true
                }
            }
            SamplerDim::D3 => {
                !es || self.at_least(0, 300) || self.has_extension("GL_OES_texture_3D")
            }
            SamplerDim::Cube => {
                if s.arrayed {
                    self.at_least(400, 0) || self.has_extension("GL_ARB_texture_cube_map_array")
                } else if s.shadow {
                    self.at_least(130, 300) || self.has_extension("GL_EXT_gpu_shader4")
                } else {
                    true
                }
            }
            SamplerDim::Rect => {
                // GL_ARB_texture_rectangle is enabled by default on desktop.
                !es && (self.at_least(140, 0)
                    || !self.extension_disabled("GL_ARB_texture_rectangle"))
            }
            SamplerDim::Buffer => {
                self.at_least(140, 0) || self.has_extension("GL_EXT_texture_buffer_object")
            }
            SamplerDim::Ms => {
                self.at_least(150, 0) || self.has_extension("GL_ARB_texture_multisample")
            }
        }
    }

    /// Resolves a built-in type name, reporting names this version lacks.
    fn builtin_type(&mut self, name: &str, loc: SourceLoc) -> Type {
        if name == "void" {
            return Type::Void;
        }
        if let Some(ty) = numeric_type(name) {
            let available = match &ty {
                Type::Scalar(ScalarKind::Uint) | Type::Vector(ScalarKind::Uint, _) => {
                    self.at_least(130, 300) || self.has_extension("GL_EXT_gpu_shader4")
                }
                Type::Matrix { columns, rows } if columns != rows => self.at_least(120, 300),
                _ => true,
            };
            if !available {
                self.error(
                    loc,
                    SemanticError::TypeNotAvailable(name.to_string(), self.version.to_string()),
                );
                return Type::Error;
            }
            return ty;
        }
        if let Some(sampler) = sampler_type(name) {
            if !self.sampler_available(sampler) {
                self.error(
                    loc,
                    SemanticError::TypeNotAvailable(name.to_string(), self.version.to_string()),
                );
                return Type::Error;
            }
            return Type::Sampler(sampler);
        }
        if let Some(image) = image_type(name) {
            if self.has_images() {
                return Type::Image(image);
            }
        }
        if name == "atomic_uint" {
            // GLSL 4.20 §4.1.7.1, GLSL ES 3.10, ARB_shader_atomic_counters.
            if self.at_least(420, 310) || self.has_extension("GL_ARB_shader_atomic_counters") {
                return Type::AtomicUint;
            }
        }
        // Type keywords of the shader's version that rgl does not implement
        // (the keyword table only lets them through where they are keywords).
        let unimplemented = if name.starts_with('d') && self.at_least(400, 0) {
            Some("double-precision types")
        } else {
            None
        };
        if let Some(what) = unimplemented {
            self.error(loc, SemanticError::Unsupported(what));
            return Type::Error;
        }
        self.error(
            loc,
            SemanticError::TypeNotAvailable(name.to_string(), self.version.to_string()),
        );
        Type::Error
    }

    /// Resolves a type specifier (base type plus the array suffix written on
    /// the type).
    pub fn resolve_type(&mut self, spec: &ast::TypeSpecifier) -> Type {
        let base = self.resolve_type_name(&spec.ty, spec.loc);
        match &spec.array {
            Some(array) => self.apply_array(base, array),
            None => base,
        }
    }

    /// Resolves a base type name.
    pub fn resolve_type_name(&mut self, name: &ast::TypeName, loc: SourceLoc) -> Type {
        match name {
            ast::TypeName::Builtin(name) => self.builtin_type(name, loc),
            ast::TypeName::Struct(spec) => self.struct_specifier(spec),
            ast::TypeName::Named(ident) => match self.scope.struct_type(&ident.name) {
                Some(ty) => ty,
                None if ident.name.starts_with("gl_") => {
                    let avail = crate::builtins::Availability {
                        version: self.version,
                        stage: self.stage,
                        extensions: &self.extensions,
                    };
                    match crate::builtins::lookup_struct(
                        &ident.name,
                        &avail,
                        &mut self.module.structs,
                    ) {
                        Some(ty) => ty,
                        None => {
                            self.error(
                                ident.loc,
                                SemanticError::UnknownType(ident.name.to_string()),
                            );
                            Type::Error
                        }
                    }
                }
                None => {
                    self.error(
                        ident.loc,
                        SemanticError::UnknownType(ident.name.to_string()),
                    );
                    Type::Error
                }
            },
        }
    }

    /// Arrays of arrays: GLSL 4.30, ES 3.10 or `GL_ARB_arrays_of_arrays`.
    pub fn arrays_of_arrays_allowed(&self) -> bool {
        self.has_extension("GL_ARB_arrays_of_arrays") || self.at_least(430, 310)
    }

    /// Applies `[N][M]` to `base`: outermost dimension first.
    pub fn apply_array(&mut self, base: Type, array: &ast::ArraySpecifier) -> Type {
        if array.dimensions.is_empty() {
            return base;
        }
        let multi = array.dimensions.len() > 1 || base.is_array();
        if multi && !self.arrays_of_arrays_allowed() {
            self.error(array.loc, SemanticError::ArraysOfArrays);
        }
        let mut ty = base;
        for dim in array.dimensions.iter().rev() {
            let len = match dim {
                Some(expr) => self.array_size(expr),
                None => None,
            };
            if ty.is_error() {
                continue;
            }
            ty = Type::Array(Box::new(ty), len);
        }
        ty
    }

    /// Evaluates an array size; reports and returns `Some(1)` on errors so the
    /// declaration stays usable.
    pub fn array_size(&mut self, expr: &ast::Expr) -> Option<u32> {
        let value = self.constant_expression(expr);
        let Some((value, ty)) = value else {
            return Some(1);
        };
        if ty.is_error() {
            return Some(1);
        }
        if !ty.scalar_kind().is_some_and(|k| k.is_integer()) {
            self.error(expr.loc, SemanticError::ArraySizeNotInteger);
            return Some(1);
        }
        if !ty.is_scalar() {
            self.error(expr.loc, SemanticError::ArraySizeNotScalar);
            return Some(1);
        }
        let Some(value) = value else {
            self.error(expr.loc, SemanticError::ArraySizeNotConstant);
            return Some(1);
        };
        let n: i64 = match super::lower_ctx::first_scalar(&value) {
            Some(crate::hir::ScalarValue::Int(i)) => i as i64,
            Some(crate::hir::ScalarValue::Uint(u)) => u as i64,
            _ => {
                self.error(expr.loc, SemanticError::ArraySizeNotConstant);
                return Some(1);
            }
        };
        if n <= 0 {
            self.error(expr.loc, SemanticError::ArraySizeNotPositive);
            return Some(1);
        }
        if n > limits::MAX_ARRAY_SIZE as i64 {
            self.error(
                expr.loc,
                SemanticError::ArrayTooLarge(n, limits::MAX_ARRAY_SIZE),
            );
            return Some(1);
        }
        Some(n as u32)
    }

    /// Declares a struct type from its specifier.
    pub fn struct_specifier(&mut self, spec: &ast::StructSpecifier) -> Type {
        let name = spec
            .name
            .as_ref()
            .map(|n| n.name.to_string())
            .unwrap_or_else(|| "#anon_struct".to_string());
        if let Some(ident) = &spec.name {
            self.check_reserved_name(ident, false);
            if self.function.is_none() {
                self.check_block_name_clash(ident);
            }
        }
        if spec.fields.is_empty() {
            self.error(spec.loc, SemanticError::EmptyStruct(name.to_string()));
        }
        let fields = self.member_list(&spec.fields, DeclContext::StructMember, &name);
        let handle = self.module.structs.append(StructType {
            name: name.to_string(),
            fields,
            is_interface: false,
        });
        let ty = Type::Struct(handle);
        if let Some(ident) = &spec.name {
            if !self.scope.add_type(&ident.name, ty.clone()) {
                self.error(
                    ident.loc,
                    SemanticError::StructRedeclared(ident.name.to_string()),
                );
            }
        }
        ty
    }

    /// Resolves the members of a struct or block.
    pub fn member_list(
        &mut self,
        members: &[ast::StructField],
        context: DeclContext,
        owner: &str,
    ) -> Vec<StructField> {
        let mut fields: Vec<StructField> = Vec::new();
        let is_block = !matches!(context, DeclContext::StructMember);
        for member in members {
            let (resolved, diags) = self.resolve_qualifiers(member.qualifier.as_ref(), context);
            self.extend_diags(diags);
            if let ast::TypeName::Struct(inner) = &member.ty.ty {
                // GLSL 1.10 allowed them; 1.20 and ES do not.
                if is_block || self.version.is_es() || self.version.number >= 120 {
                    self.error(inner.loc, SemanticError::EmbeddedStruct);
                }
            }
            let base = self.resolve_type(&member.ty);
            if base == Type::Void {
                self.error(member.ty.loc, SemanticError::VoidMember(owner.to_string()));
            }
            for (ident, array) in &member.names {
                let mut ty = base.clone();
                if let Some(array) = array {
                    ty = self.apply_array(ty, array);
                }
                if let (Type::Array(_, None), false) = (&ty, is_block) {
                    self.error(
                        ident.loc,
                        SemanticError::UnsizedMember(ident.name.to_string()),
                    );
                    ty = Type::Error;
                }
                let env = self.qualifier_env();
                let diags = qualifiers::check_storage_type(
                    &resolved,
                    &ty,
                    &self.module.structs,
                    context,
                    &env,
                    ident.loc,
                );
                self.extend_diags(diags);
                if fields.iter().any(|f| *f.name == *ident.name) {
                    self.error(
                        ident.loc,
                        SemanticError::DuplicateField(ident.name.to_string(), owner.to_string()),
                    );
                    continue;
                }
                self.check_reserved_name(ident, owner == "gl_PerVertex");
                let qualifiers = MemberQualifiers {
                    interpolation: resolved.interpolation,
                    centroid: resolved.centroid,
                    invariant: resolved.invariant,
                    precise: resolved.precise,
                    sample: resolved.sample,
                    stream: resolved.layout.stream,
                    precision: resolved.precision,
                    matrix_layout: resolved.layout.matrix_layout,
                    location: resolved.layout.location,
                    component: resolved.layout.component,
                    offset: resolved.layout.offset,
                    align: resolved.layout.align,
                    xfb_buffer: resolved.layout.xfb_buffer,
                    xfb_offset: resolved.layout.xfb_offset,
                    memory: resolved.memory,
                };
                fields.push(StructField {
                    name: ident.name.to_string(),
                    ty,
                    qualifiers,
                });
            }
        }
        fields
    }

    /// Reports a global name that is already an interface block name.
    pub fn check_block_name_clash(&mut self, ident: &ast::Ident) {
        if self.block_names.iter().any(|b| **b == *ident.name) {
            self.error(ident.loc, SemanticError::Redeclared(ident.name.to_string()));
        }
    }

    /// Reports names with the reserved `gl_` prefix or containing `__`.
    pub fn check_reserved_name(&mut self, ident: &ast::Ident, builtin_redeclaration_ok: bool) {
        if ident.name.starts_with("gl_") {
            if !builtin_redeclaration_ok {
                self.error(
                    ident.loc,
                    SemanticError::ReservedPrefix(ident.name.to_string()),
                );
            }
        } else if ident.name.contains("__") {
            self.warning(
                ident.loc,
                SemanticError::ReservedDoubleUnderscore(ident.name.to_string()),
            );
        }
    }

    /// The GLSL name of a type for messages.
    pub fn type_name(&self, ty: &Type) -> String {
        ty.display(&self.module.structs).to_string()
    }

    /// The key of a type in the default-precision table, if it takes one.
    pub fn precision_key(&self, ty: &Type) -> Option<String> {
        match ty {
            Type::Array(elem, _) => self.precision_key(elem),
            Type::Scalar(ScalarKind::Float)
            | Type::Vector(ScalarKind::Float, _)
            | Type::Matrix { .. } => Some("float".into()),
            Type::Scalar(ScalarKind::Int | ScalarKind::Uint)
            | Type::Vector(ScalarKind::Int | ScalarKind::Uint, _) => Some("int".into()),
            Type::Sampler(s) => Some(s.name()),
            Type::Image(i) => Some(i.name()),
            Type::AtomicUint => Some("atomic_uint".into()),
            _ => None,
        }
    }

    /// Installs the ES default precisions of the stage.
    pub fn install_default_precisions(&mut self) {
        if !self.version.is_es() {
            return;
        }
        use ast::Precision::*;
        if self.stage != crate::version::Stage::Fragment {
            self.scope.set_default_precision("float", High);
            self.scope.set_default_precision("int", High);
        } else {
            self.scope.set_default_precision("int", Medium);
        }
        self.scope.set_default_precision("sampler2D", Low);
        self.scope.set_default_precision("samplerCube", Low);
        self.scope.set_default_precision("samplerExternalOES", Low);
        // GLSL ES 3.10 §4.7.4: `atomic_uint` is predeclared highp everywhere.
        if self.at_least(0, 310) {
            self.scope.set_default_precision("atomic_uint", High);
        }
    }

    /// `precision highp float;`
    pub fn precision_statement(&mut self, precision: ast::Precision, spec: &ast::TypeSpecifier) {
        if !self.at_least(130, 100) {
            self.error(
                spec.loc,
                SemanticError::PrecisionNotAvailable(self.version.to_string()),
            );
            return;
        }
        if spec.array.is_some() {
            self.error(spec.loc, SemanticError::PrecisionStatementType);
            return;
        }
        let ty = match &spec.ty {
            ast::TypeName::Builtin(name) => self.builtin_type(name, spec.loc),
            _ => {
                self.error(spec.loc, SemanticError::PrecisionStatementType);
                return;
            }
        };
        match &ty {
            Type::Scalar(ScalarKind::Float | ScalarKind::Int)
            | Type::Sampler(_)
            | Type::Image(_)
            | Type::AtomicUint => {
                if let Some(key) = self.precision_key(&ty) {
                    self.scope.set_default_precision(&key, precision);
                }
            }
            Type::Error => {}
            _ => self.error(spec.loc, SemanticError::PrecisionStatementType),
        }
    }
}
