//! Declarations: variables (storage modes, initializers and their constness,
//! redeclaration rules including the built-in redeclarations Mesa allows —
//! `gl_TexCoord[]` sizing, `gl_FragCoord` layouts, `gl_FragDepth`, colour
//! interpolation, `gl_ClipDistance` — unsized arrays), `invariant`
//! redeclarations, precision statements, stage-wide layouts, geometry-shader
//! input sizing, and uniform/in/out interface blocks.

use crate::arena::Handle;
use crate::ast::{self, Storage};
use crate::hir::{self, GsPrimitive, MatrixLayout, Stmt, VarMode, Variable};
use crate::span::SourceLoc;
use crate::types::{StructField, StructType, Type};
use crate::version::Stage;

use super::qualifiers::{self, DeclContext, ResolvedQualifiers, StorageClass};
use super::{Checker, SemanticError};

/// Mode of a variable declared with a storage class.
fn mode_of(storage: StorageClass) -> VarMode {
    match storage {
        StorageClass::None | StorageClass::Const => VarMode::Auto,
        StorageClass::In => VarMode::ShaderIn,
        StorageClass::Out => VarMode::ShaderOut,
        StorageClass::Uniform => VarMode::Uniform,
        StorageClass::ParamIn => VarMode::FunctionIn,
        StorageClass::ParamOut => VarMode::FunctionOut,
        StorageClass::ParamInOut => VarMode::FunctionInout,
        StorageClass::Shared => VarMode::Shared,
        StorageClass::Buffer => VarMode::ShaderStorage,
    }
}

/// Storage written in a qualifier list, looked at directly (for
/// qualifier-only declarations and blocks).
fn written_storage(qualifier: &ast::TypeQualifier) -> Option<Storage> {
    qualifier.qualifiers.iter().find_map(|q| match q {
        ast::Qualifier::Storage(
            s @ (Storage::In | Storage::Out | Storage::Uniform | Storage::Buffer),
            _,
        ) => Some(*s),
        _ => None,
    })
}

impl Checker<'_> {
    /// Any declaration; `global` at file scope.
    pub fn declaration(&mut self, decl: &ast::Declaration, global: bool) {
        let _ = global;
        match &decl.kind {
            ast::DeclarationKind::Prototype(proto) => self.prototype_declaration(proto),
            ast::DeclarationKind::Variables(list) => self.variable_declarations(list, decl.loc),
            ast::DeclarationKind::Precision(precision, spec) => {
                self.precision_statement(*precision, spec)
            }
            ast::DeclarationKind::Block(block) => self.interface_block(block, decl.loc),
            ast::DeclarationKind::Invariant(names) => self.invariant_declaration(names, decl.loc),
            ast::DeclarationKind::QualifierOnly(qualifier) => {
                self.qualifier_only(qualifier, decl.loc)
            }
        }
    }

    fn decl_context(&self) -> DeclContext {
        if self.function.is_some() {
            DeclContext::LocalVariable
        } else {
            DeclContext::GlobalVariable
        }
    }

    /// `T a = 1, b[2];`
    fn variable_declarations(&mut self, list: &ast::InitDeclaratorList, loc: SourceLoc) {
        let context = self.decl_context();
        let (resolved, diags) = self.resolve_qualifiers(list.ty.qualifier.as_ref(), context);
        self.extend_diags(diags);
        if resolved.subroutine.is_some() {
            // `subroutine uniform T u;` (GLSL 4.00 §4.3.9); other uses of
            // `subroutine` on a variable were reported with the qualifiers.
            if resolved.storage == StorageClass::Uniform && context == DeclContext::GlobalVariable {
                self.subroutine_uniforms(list, &resolved, loc);
            }
            return;
        }
        let base = self.resolve_type(&list.ty.ty);
        if list.declarators.is_empty() {
            if resolved.precision.is_some() && matches!(base, Type::Struct(_)) {
                self.error(loc, SemanticError::PrecisionOnStruct);
            }
            // `layout(binding = B, offset = N) uniform atomic_uint;` sets the
            // binding's next default offset (GLSL 4.20 §4.4.4.6).
            if base.is_atomic_uint() && resolved.storage == StorageClass::Uniform {
                self.atomic_default_offset(&resolved, loc);
                return;
            }
            if !matches!(list.ty.ty.ty, ast::TypeName::Struct(_)) && !base.is_error() {
                self.warning(loc, SemanticError::EmptyDeclaration);
            }
            return;
        }
        for declarator in &list.declarators {
            self.variable_declarator(&resolved, &base, list, declarator, context);
        }
    }

    fn variable_declarator(
        &mut self,
        resolved: &ResolvedQualifiers,
        base: &Type,
        list: &ast::InitDeclaratorList,
        declarator: &ast::InitDeclarator,
        context: DeclContext,
    ) {
        let ident = &declarator.name;
        let loc = ident.loc;
        let mut ty = base.clone();
        if let Some(array) = &declarator.array {
            ty = self.apply_array(ty, array);
        }
        if ty == Type::Void {
            self.error(loc, SemanticError::VoidVariable(ident.name.to_string()));
            ty = Type::Error;
        }
        let env = self.qualifier_env();
        let diags =
            qualifiers::check_storage_type(resolved, &ty, &self.module.structs, context, &env, loc);
        self.extend_diags(diags);
        if resolved.storage == StorageClass::Out
            && resolved.layout.has_xfb()
            && self.stage != Stage::Fragment
        {
            self.xfb_output_variable(&resolved.layout, &ident.name, &ty, loc);
        }

        let mode = mode_of(resolved.storage);
        let is_const = resolved.storage == StorageClass::Const
            || (resolved.is_const && resolved.storage == StorageClass::None);

        // ES: the type needs a precision (explicit or default).
        if self.version.is_es() && resolved.precision.is_none() {
            if let Some(key) = self.precision_key(&ty) {
                if self.scope.default_precision(&key).is_none() {
                    let is_sampler = matches!(ty, Type::Sampler(_))
                        || matches!(&ty, Type::Array(e, _) if e.is_sampler());
                    if !is_sampler || self.at_least(0, 300) {
                        let name = self.type_name(&ty);
                        self.error(list.ty.ty.loc, SemanticError::NoDefaultPrecision(name));
                    }
                }
            }
        }

        if is_const && declarator.initializer.is_none() {
            self.error(
                loc,
                SemanticError::ConstWithoutInitializer(ident.name.to_string()),
            );
        }
        // GLSL 4.30 §4.1.9 (ARB_arrays_of_arrays): without an initializer,
        // only the outermost dimension may be left unsized (it is then sized
        // by the largest constant index used).
        if declarator.initializer.is_none() && inner_dimension_unsized(&ty) {
            self.error(
                loc,
                SemanticError::InnerArrayUnsized(ident.name.to_string()),
            );
        }
        if let Type::Array(_, None) = ty {
            if declarator.initializer.is_none() && self.version.is_es() {
                self.error(loc, SemanticError::UnsizedArrayEs);
            }
        }

        // Geometry shader inputs are arrays sized by the input primitive.
        if self.stage == Stage::Geometry && mode == VarMode::ShaderIn && !ty.is_error() {
            ty = self.geometry_input_type(ty, &ident.name, loc);
        }

        // Redeclarations.
        let in_function = self.function.is_some();
        let existing = if !in_function || self.scope.lookup_current(&ident.name).is_some() {
            self.scope.lookup(&ident.name).and_then(|e| e.variable)
        } else {
            None
        };
        let existing = existing.or_else(|| {
            if !in_function && ident.name.starts_with("gl_") {
                self.builtin_variable(&ident.name)
            } else {
                None
            }
        });
        if !in_function
            && mode == VarMode::ShaderOut
            && self.module.layout.per_vertex_out.is_some()
            && PER_VERTEX_OUT_MEMBERS.contains(&&*ident.name)
        {
            self.error(
                loc,
                SemanticError::PerVertexMemberAfterBlock(ident.name.to_string()),
            );
            return;
        }
        if let Some(earlier) = existing {
            let earlier_in_scope = self.scope.lookup_current(&ident.name).is_some();
            let is_builtin = self.module.variables[earlier].is_builtin;
            if is_builtin || earlier_in_scope {
                let target = self.redeclaration(earlier, resolved, &ty, mode, ident);
                if let (Some(var), Some(init)) = (target, &declarator.initializer) {
                    self.initializer(var, init, is_const, ident);
                }
                return;
            }
        }
        self.check_reserved_name(ident, false);
        if !in_function {
            self.check_block_name_clash(ident);
        }
        if resolved.layout.origin_upper_left || resolved.layout.pixel_center_integer {
            self.error(loc, SemanticError::FragCoordLayoutOnly);
        }

        let mut var = Variable::new(ident.name.to_string(), ty.clone(), mode);
        self.apply_qualifiers(&mut var, resolved);
        // ES: a uniform without a precision qualifier has its type's default
        // precision; the linker compares uniform precisions across stages.
        if self.version.is_es() && mode == VarMode::Uniform && var.precision.is_none() {
            var.precision = self
                .precision_key(&ty)
                .and_then(|key| self.scope.default_precision(&key));
        }
        var.read_only = is_const || mode == VarMode::Uniform || mode == VarMode::ShaderIn;
        // GLSL 4.20 §4.4.5 (opaque-uniform layout qualifiers): `binding` is the
        // sampler's initial texture unit, and an array's elements (flattened,
        // arrays of arrays included) take consecutive units. As in Mesa
        // (`set_opaque_binding` in link_uniform_initializers.cpp) the units are
        // the uniform's initial value.
        if mode == VarMode::Uniform {
            if let Some(binding) = var.binding {
                let mut next = binding;
                if let Some(units) = opaque_binding_units(&var.ty, &mut next) {
                    var.constant_initializer = Some(units);
                }
            }
            if ty.contains_atomic(&self.module.structs) {
                var.atomic_offset = self.allocate_atomic_counter(&ident.name, &ty, resolved, loc);
            }
        }
        let handle = self.new_variable(var, loc);

        if in_function {
            self.emit(Stmt::Declare(handle), loc);
        } else {
            self.add_global_item(handle);
        }

        if let Some(init) = &declarator.initializer {
            self.initializer(handle, init, is_const, ident);
        }
        if !self.scope.add_variable(&ident.name, handle) {
            self.error(loc, SemanticError::Redeclared(ident.name.to_string()));
        }
    }

    /// Copies resolved qualifiers into a variable.
    pub fn apply_qualifiers(&mut self, var: &mut Variable, resolved: &ResolvedQualifiers) {
        var.centroid = resolved.centroid;
        var.invariant = resolved.invariant;
        var.precise = resolved.precise;
        var.sample = resolved.sample;
        var.stream =
            qualifiers::output_stream(resolved, self.stage, self.module.layout.gs_out_stream);
        var.interpolation = resolved.interpolation;
        var.precision = resolved.precision;
        var.location = resolved.layout.location;
        var.index = resolved.layout.index;
        var.component = resolved.layout.component;
        var.binding = resolved.layout.binding;
        if let Some(packing) = resolved.layout.packing {
            var.block_packing = packing;
        }
        var.matrix_layout = resolved.layout.matrix_layout;
        if resolved.layout.image_format.is_some() {
            var.image_format = resolved.layout.image_format;
        }
        let mut base = &var.ty;
        while let Type::Array(elem, _) = base {
            base = elem;
        }
        if base.is_image() {
            var.memory = resolved.memory;
        }
    }

    /// Processes `= init` on a new variable.
    fn initializer(
        &mut self,
        var: Handle<Variable>,
        init: &ast::Initializer,
        is_const: bool,
        ident: &ast::Ident,
    ) {
        let loc = match init {
            ast::Initializer::Simple(expr) => expr.loc,
            ast::Initializer::List(_, loc) => {
                // GLSL 4.20 §4.1.11; ARB_shading_language_420pack.
                if !self.at_least(420, 0) && !self.has_extension("GL_ARB_shading_language_420pack")
                {
                    self.error(
                        *loc,
                        SemanticError::version_required("initializer lists", self.version, 420, 0),
                    );
                    return;
                }
                *loc
            }
        };
        let mode = self.module.variables[var].mode;
        let global = self.function.is_none();
        if mode == VarMode::Uniform && !self.at_least(120, 0) {
            self.error(
                loc,
                SemanticError::version_required(
                    &format!("cannot initialize uniform {}", ident.name),
                    self.version,
                    120,
                    0,
                ),
            );
        }
        let var_ty = self.module.variables[var].ty.clone();
        if var_ty.contains_atomic(&self.module.structs) {
            self.error(loc, SemanticError::InitializeAtomic(ident.name.to_string()));
        } else if var_ty.contains_sampler(&self.module.structs) {
            self.error(
                loc,
                SemanticError::InitializeSampler(ident.name.to_string()),
            );
        }
        if mode == VarMode::ShaderIn && global {
            let what = if self.stage == Stage::Vertex {
                "attribute"
            } else {
                "varying"
            };
            self.error(loc, SemanticError::InitializeInput(self.stage.name(), what));
        }
        if mode == VarMode::ShaderOut && global {
            self.error(loc, SemanticError::InitializeOutput(self.stage.name()));
        }
        // GLSL 4.30 §4.3.8: "Variables declared as shared may not have
        // initializers".
        if mode == VarMode::Shared {
            self.error(loc, SemanticError::InitializeShared(ident.name.to_string()));
            return;
        }
        let value = self.initializer_value(init, &var_ty);
        if self.ty(value).is_error() {
            return;
        }
        let lhs = self.var_ref(var, ident.loc);
        if is_const || mode == VarMode::Uniform {
            let Some(converted) = self.validate_assignment(lhs, value, loc, true) else {
                return;
            };
            let constant = if self.body_since_is_pure() {
                self.evaluate(converted)
            } else {
                None
            };
            let constant = constant
                .filter(|_| !(self.at_least(120, 300) && Self::initializer_has_sequence(init)));
            match constant {
                Some(c) => {
                    let cty = self.ty(converted);
                    if let Type::Array(_, None) = self.module.variables[var].ty {
                        self.module.variables[var].ty = cty.clone();
                    }
                    if is_const {
                        self.module.variables[var].constant_value = Some(c.clone());
                    }
                    self.module.variables[var].constant_initializer = Some(c.clone());
                    if mode == VarMode::Uniform {
                        return;
                    }
                    let value = self.constant(c, cty, loc);
                    let lhs = self.var_ref(var, ident.loc);
                    self.emit_assign(lhs, value, loc);
                }
                None => {
                    let has_420pack = self.has_extension("GL_ARB_shading_language_420pack")
                        || self.at_least(420, 0);
                    if !has_420pack || global || mode == VarMode::Uniform {
                        let what = if is_const { "const" } else { "uniform" };
                        self.error(
                            loc,
                            SemanticError::NonConstantInitializer(what, ident.name.to_string()),
                        );
                    } else if mode != VarMode::Uniform {
                        let lhs = self.var_ref(var, ident.loc);
                        self.emit_assign(lhs, converted, loc);
                    }
                }
            }
            return;
        }
        let sequence = self.at_least(120, 300) && Self::initializer_has_sequence(init);
        if global && self.version.is_es() && (self.evaluate(value).is_none() || sequence) {
            // GLSL ES: global initializers must be constant expressions.
            self.error(
                loc,
                SemanticError::NonConstantGlobalInitializer(ident.name.to_string()),
            );
            return;
        }
        self.do_assignment(lhs, value, ident.loc, loc, false, true);
    }

    /// Whether the initializer just checked emitted no statements (a constant
    /// expression never does).
    fn body_since_is_pure(&self) -> bool {
        true
    }

    /// Applies a redeclaration of `earlier` (built-in or array resize);
    /// returns the variable an initializer should go to, if accepted.
    fn redeclaration(
        &mut self,
        earlier: Handle<Variable>,
        resolved: &ResolvedQualifiers,
        ty: &Type,
        mode: VarMode,
        ident: &ast::Ident,
    ) -> Option<Handle<Variable>> {
        let loc = ident.loc;
        let name = &*ident.name;
        let old = self.module.variables[earlier].clone();
        let same_mode = old.mode == mode || !old.is_builtin;
        if let (Type::Array(old_elem, None), Type::Array(new_elem, len)) = (&old.ty, ty) {
            if old_elem == new_elem && same_mode {
                if let Some(n) = len {
                    if (*n as i64) <= old.max_array_access as i64 {
                        self.error(
                            loc,
                            SemanticError::ArraySizeBelowAccess(old.max_array_access as u32),
                        );
                    }
                    if name == "gl_TexCoord" || name == "gl_ClipDistance" {
                        self.check_builtin_array_size(name, *n, loc);
                    }
                }
                let v = &mut self.module.variables[earlier];
                v.ty = ty.clone();
                if resolved.invariant {
                    v.invariant = true;
                }
                return Some(earlier);
            }
        }
        if name == "gl_FragCoord"
            && (self.at_least(150, 0) || self.has_extension("GL_ARB_fragment_coord_conventions"))
            && old.ty == *ty
            && mode == VarMode::ShaderIn
        {
            if old.used {
                self.error(loc, SemanticError::FragCoordRedeclaredAfterUse);
            }
            let layout = (
                resolved.layout.origin_upper_left,
                resolved.layout.pixel_center_integer,
            );
            if let Some(previous) = self.fragcoord_layout {
                if previous != layout {
                    self.error(loc, SemanticError::FragCoordLayoutConflict);
                }
            }
            self.fragcoord_layout = Some(layout);
            self.module.layout.frag_coord_redeclared = true;
            self.module.layout.origin_upper_left = layout.0;
            self.module.layout.pixel_center_integer = layout.1;
            if resolved.invariant {
                self.module.variables[earlier].invariant = true;
            }
            return None;
        }
        let color = matches!(
            name,
            "gl_FrontColor"
                | "gl_BackColor"
                | "gl_FrontSecondaryColor"
                | "gl_BackSecondaryColor"
                | "gl_Color"
                | "gl_SecondaryColor"
        );
        if color && self.at_least(130, 0) && old.ty == *ty && old.mode == mode {
            self.module.variables[earlier].interpolation = resolved.interpolation;
            return None;
        }
        if name == "gl_FragDepth"
            && (self.at_least(420, 0)
                || self.has_extension("GL_ARB_conservative_depth")
                || self.has_extension("GL_AMD_conservative_depth"))
            && old.ty == *ty
            && old.mode == mode
        {
            if old.used {
                self.error(loc, SemanticError::FragDepthRedeclaredAfterUse);
            }
            self.module.layout.frag_depth_layout = resolved.layout.depth_layout;
            return None;
        }
        self.error(loc, SemanticError::Redeclared(name.to_string()));
        None
    }

    /// Reports `gl_TexCoord`/`gl_ClipDistance` sizes above the limits.
    fn check_builtin_array_size(&mut self, name: &str, size: u32, loc: SourceLoc) {
        let limit = match name {
            "gl_TexCoord" => {
                let avail = self.availability();
                let mut structs = crate::types::StructArena::new();
                crate::builtins::lookup_variable("gl_MaxTextureCoords", &avail, &mut structs)
                    .and_then(|v| v.constant_value)
                    .as_ref()
                    .and_then(super::lower_ctx::first_scalar)
                    .and_then(super::lower_ctx::scalar_as_i64)
                    .unwrap_or(8)
            }
            _ => {
                let avail = self.availability();
                let mut structs = crate::types::StructArena::new();
                crate::builtins::lookup_variable("gl_MaxClipDistances", &avail, &mut structs)
                    .and_then(|v| v.constant_value)
                    .as_ref()
                    .and_then(super::lower_ctx::first_scalar)
                    .and_then(super::lower_ctx::scalar_as_i64)
                    .unwrap_or(8)
            }
        };
        if size as i64 > limit {
            self.error(
                loc,
                SemanticError::BuiltinArrayTooLarge(name.to_string(), limit as u32),
            );
        }
    }

    /// Sizes or checks a geometry-shader input array.
    fn geometry_input_type(&mut self, ty: Type, name: &str, loc: SourceLoc) -> Type {
        let _ = name;
        let Type::Array(elem, len) = ty else {
            self.error(loc, SemanticError::GeometryInputNotArray);
            return Type::Error;
        };
        let vertices = self
            .module
            .layout
            .gs_input_primitive
            .map(GsPrimitive::vertex_count);
        match (len, vertices) {
            (None, Some(n)) => Type::Array(elem, Some(n)),
            (Some(len), Some(n)) if len != n => {
                self.error(loc, SemanticError::GeometryInputSizeLayout(len, n));
                Type::Array(elem, Some(len))
            }
            (Some(len), None) => {
                if let Some(previous) = self.gs_input_size {
                    if previous != len {
                        self.error(
                            loc,
                            SemanticError::GeometryInputSizeInconsistent(len, previous),
                        );
                    }
                } else {
                    self.gs_input_size = Some(len);
                }
                Type::Array(elem, Some(len))
            }
            (len, _) => Type::Array(elem, len),
        }
    }

    /// `invariant a, b;`
    fn invariant_declaration(&mut self, names: &[ast::Ident], loc: SourceLoc) {
        if self.function.is_some() {
            self.error(loc, SemanticError::InvariantNotGlobal);
        }
        for ident in names {
            let var = self
                .scope
                .variable(&ident.name)
                .or_else(|| self.builtin_variable(&ident.name));
            let Some(var) = var else {
                self.error(
                    ident.loc,
                    SemanticError::InvariantUndeclared(ident.name.to_string()),
                );
                continue;
            };
            if !self.invariant_allowed(var) {
                self.error(
                    ident.loc,
                    SemanticError::InvariantNotAllowed(ident.name.to_string()),
                );
                continue;
            }
            if self.module.variables[var].used {
                self.error(
                    ident.loc,
                    SemanticError::InvariantAfterUse(ident.name.to_string()),
                );
                continue;
            }
            self.module.variables[var].invariant = true;
        }
    }

    fn invariant_allowed(&self, var: Handle<Variable>) -> bool {
        let mode = self.module.variables[var].mode;
        let varying = match self.stage {
            Stage::Vertex => mode == VarMode::ShaderOut,
            Stage::Fragment => mode == VarMode::ShaderIn,
            Stage::Geometry => mode == VarMode::ShaderOut || mode == VarMode::ShaderIn,
            Stage::Compute => false,
        };
        if varying {
            return true;
        }
        if !self.at_least(130, 100) {
            return false;
        }
        mode == VarMode::ShaderOut
    }

    /// `layout(triangles) in;`, `layout(std140) uniform;` and friends.
    fn qualifier_only(&mut self, qualifier: &ast::TypeQualifier, loc: SourceLoc) {
        let (resolved, diags) =
            self.resolve_qualifiers(Some(qualifier), DeclContext::QualifierOnly);
        self.extend_diags(diags);
        let storage = written_storage(qualifier);
        let layout = &resolved.layout;
        match storage {
            Some(Storage::In) => {
                if let Some(primitive) = layout.primitive {
                    if let Some(previous) = self.module.layout.gs_input_primitive {
                        if previous != primitive {
                            self.error(loc, SemanticError::ConflictingInputPrimitive);
                        }
                    }
                    self.module.layout.gs_input_primitive = Some(primitive);
                    self.resize_geometry_inputs(primitive, loc);
                }
                if let (Some(n), Stage::Geometry) = (layout.invocations, self.stage) {
                    // GLSL 4.00 §4.4.1.2: a count in 1..=MAX_GEOMETRY_SHADER_
                    // INVOCATIONS, the same in every declaration.
                    let limit = qualifiers::MAX_GEOMETRY_SHADER_INVOCATIONS;
                    let error = if n == 0 || n > limit {
                        Some(qualifiers::QualifierError::InvocationsRange { value: n, limit })
                    } else {
                        match self.module.layout.gs_invocations {
                            Some(old) if old != n => {
                                Some(qualifiers::QualifierError::LayoutMismatch {
                                    name: "invocations",
                                    old,
                                    new: n,
                                })
                            }
                            _ => None,
                        }
                    };
                    match error {
                        Some(e) => self.extend_diags(vec![crate::diag::Diagnostic::error(loc, e)]),
                        None => self.module.layout.gs_invocations = Some(n),
                    }
                }
                if layout.early_fragment_tests {
                    self.module.layout.early_fragment_tests = true;
                }
                if self.stage == Stage::Compute && layout.local_size.iter().any(Option::is_some) {
                    let mut diags = Vec::new();
                    qualifiers::merge_local_size(
                        &mut self.module.layout,
                        layout.local_size,
                        loc,
                        &mut diags,
                    );
                    self.extend_diags(diags);
                }
            }
            Some(Storage::Out) => {
                if let Some(primitive) = layout.primitive {
                    if let Some(previous) = self.module.layout.gs_output_primitive {
                        if previous != primitive {
                            self.error(loc, SemanticError::ConflictingOutputPrimitive);
                        }
                    }
                    self.module.layout.gs_output_primitive = Some(primitive);
                }
                if let Some(max) = layout.max_vertices {
                    if let Some(previous) = self.module.layout.gs_max_vertices {
                        if previous != max {
                            self.error(loc, SemanticError::ConflictingMaxVertices(previous, max));
                        }
                    }
                    self.module.layout.gs_max_vertices = Some(max);
                }
                // GLSL 4.00 §4.4.2.1: `layout(stream = N) out;` "replaces
                // any previous default" stream.
                if let (Some(stream), Stage::Geometry) = (layout.stream, self.stage) {
                    self.module.layout.gs_out_stream = stream;
                }
                if layout.has_xfb() && self.stage != Stage::Fragment {
                    let layout = layout.clone();
                    self.xfb_default_output(&layout, loc);
                }
            }
            Some(Storage::Buffer) => {
                if let Some(packing) = layout.packing {
                    self.default_buffer_packing = packing;
                }
                if layout.matrix_layout != MatrixLayout::Inherited {
                    self.default_buffer_matrix_layout = layout.matrix_layout;
                }
            }
            Some(Storage::Uniform) => {
                if let Some(packing) = layout.packing {
                    self.default_packing = packing;
                }
                if layout.matrix_layout != MatrixLayout::Inherited {
                    self.default_matrix_layout = layout.matrix_layout;
                }
            }
            _ => {}
        }
    }

    /// Sizes earlier unsized GS inputs and checks sized ones once the input
    /// primitive is known.
    fn resize_geometry_inputs(&mut self, primitive: GsPrimitive, loc: SourceLoc) {
        let n = primitive.vertex_count();
        let inputs: Vec<Handle<Variable>> = self
            .module
            .items
            .iter()
            .filter_map(|item| match item {
                hir::Item::Variable(v) => Some(*v),
                _ => None,
            })
            .filter(|v| self.module.variables[*v].mode == VarMode::ShaderIn)
            .collect();
        for var in inputs {
            let v = &self.module.variables[var];
            match v.ty.clone() {
                Type::Array(elem, None) => {
                    if v.max_array_access >= n as i32 {
                        let access = v.max_array_access as u32;
                        self.error(loc, SemanticError::ArraySizeBelowAccess(access));
                    }
                    self.set_variable_type(var, Type::Array(elem, Some(n)));
                }
                Type::Array(_, Some(len)) if len != n && !v.is_builtin => {
                    let name = v.name.clone();
                    self.error(loc, SemanticError::GeometryInputSizeMismatch(name, len, n));
                }
                _ => {}
            }
        }
    }

    /// `uniform Block { ... } instance[N];` and `in`/`out` blocks.
    fn interface_block(&mut self, block: &ast::Block, loc: SourceLoc) {
        let storage = written_storage(&block.qualifier);
        let (mode, storage_class, what) = match storage {
            Some(Storage::Uniform) => (VarMode::Uniform, StorageClass::Uniform, "uniform"),
            Some(Storage::Buffer) => (VarMode::ShaderStorage, StorageClass::Buffer, "buffer"),
            Some(Storage::In) => (VarMode::ShaderIn, StorageClass::In, "in"),
            Some(Storage::Out) => (VarMode::ShaderOut, StorageClass::Out, "out"),
            _ => {
                self.error(loc, SemanticError::BlockStorage);
                return;
            }
        };
        match mode {
            VarMode::ShaderStorage => {
                if !self.at_least(430, 310)
                    && !self.has_extension("GL_ARB_shader_storage_buffer_object")
                {
                    self.error(
                        loc,
                        SemanticError::version_required(
                            "shader storage block",
                            self.version,
                            430,
                            310,
                        ),
                    );
                    return;
                }
            }
            VarMode::Uniform => {
                if !self.at_least(140, 300) && !self.has_extension("GL_ARB_uniform_buffer_object") {
                    self.error(
                        loc,
                        SemanticError::version_required("uniform block", self.version, 140, 300),
                    );
                    return;
                }
            }
            _ => {
                if !self.at_least(150, 320) {
                    self.error(
                        loc,
                        SemanticError::version_required(
                            &format!("{what} interface block"),
                            self.version,
                            150,
                            320,
                        ),
                    );
                    return;
                }
                if (mode == VarMode::ShaderIn && self.stage == Stage::Vertex)
                    || (mode == VarMode::ShaderOut && self.stage == Stage::Fragment)
                {
                    self.error(
                        loc,
                        SemanticError::BlockNotAllowedInStage(what, self.stage.name()),
                    );
                    return;
                }
            }
        }
        let (resolved, diags) = self.resolve_qualifiers(Some(&block.qualifier), DeclContext::Block);
        self.extend_diags(diags);

        if &*block.name.name != "gl_PerVertex" {
            self.check_reserved_name(&block.name, false);
            if self.scope.lookup(&block.name.name).is_some() {
                self.error(
                    block.name.loc,
                    SemanticError::Redeclared(block.name.name.to_string()),
                );
            }
            self.block_names.push(block.name.name.to_string());
        }
        let key = (what.to_string(), block.name.name.to_string());
        if self.interface_names.contains(&key) {
            self.error(
                block.name.loc,
                SemanticError::BlockRedeclared(block.name.name.to_string()),
            );
            return;
        }
        self.interface_names.push(key);

        let mut fields = self.member_list(
            &block.fields,
            DeclContext::BlockMember(storage_class),
            &block.name.name,
        );
        if mode == VarMode::Uniform {
            for field in &fields {
                if field.ty.contains_opaque(&self.module.structs) {
                    self.error(loc, SemanticError::SamplerInBlock(field.name.clone()));
                }
            }
        }
        let (default_packing, default_matrix) = if mode == VarMode::ShaderStorage {
            (
                self.default_buffer_packing,
                self.default_buffer_matrix_layout,
            )
        } else {
            (self.default_packing, self.default_matrix_layout)
        };
        let packing = resolved.layout.packing.unwrap_or(default_packing);
        let matrix_layout = match resolved.layout.matrix_layout {
            MatrixLayout::Inherited => default_matrix,
            other => other,
        };
        if mode == VarMode::Uniform {
            self.place_uniform_block(block, &resolved.layout, packing, matrix_layout, &mut fields);
        }
        if mode == VarMode::ShaderStorage {
            self.check_buffer_block_members(
                block,
                &resolved.layout,
                packing,
                matrix_layout,
                &mut fields,
            );
        }
        if matches!(mode, VarMode::ShaderIn | VarMode::ShaderOut) {
            let per_vertex = mode == VarMode::ShaderIn && self.stage == Stage::Geometry;
            self.check_member_locations(block, &resolved.layout, &fields, per_vertex);
        }
        let xfb_block = mode == VarMode::ShaderOut
            && self.stage != Stage::Fragment
            && (resolved.layout.has_xfb()
                || fields.iter().any(|f| {
                    f.qualifiers.xfb_buffer.is_some() || f.qualifiers.xfb_offset.is_some()
                }));

        // Redeclaring gl_PerVertex only restates built-ins.
        if &*block.name.name == "gl_PerVertex" {
            let gs_input = self.stage == Stage::Geometry && mode == VarMode::ShaderIn;
            if gs_input
                && (block.instance.as_ref().is_none_or(|i| &*i.name != "gl_in")
                    || block
                        .instance_array
                        .as_ref()
                        .is_none_or(|a| a.dimensions.len() != 1))
            {
                self.error(block.name.loc, SemanticError::PerVertexInputForm);
                return;
            }
            if mode == VarMode::ShaderOut
                && (block.instance.is_some() || block.instance_array.is_some())
            {
                self.error(block.name.loc, SemanticError::PerVertexOutputForm);
                return;
            }
            let members: Vec<(String, Type)> = fields
                .iter()
                .map(|f| (f.name.clone(), f.ty.clone()))
                .collect();
            if mode == VarMode::ShaderIn {
                self.module.layout.per_vertex_in = Some(members);
            } else {
                // Mesa: the redeclaration precedes every use or separate
                // redeclaration of any member of the implicit block.
                if PER_VERTEX_OUT_MEMBERS
                    .iter()
                    .any(|m| self.builtin_variables.contains_key(*m))
                {
                    self.error(block.name.loc, SemanticError::PerVertexAfterUse);
                }
                self.module.layout.per_vertex_out = Some(members);
            }
            if let Some(instance) = &block.instance {
                if let Some(gl_in) = self.builtin_variable(&instance.name) {
                    self.restate_per_vertex_members(gl_in, &fields, block.name.loc);
                }
            } else {
                for field in &fields {
                    match self.builtin_variable(&field.name) {
                        // `float gl_ClipDistance[N]` sizes the built-in.
                        Some(v) => {
                            let builtin = self.module.variables[v].ty.clone();
                            if let Some(ty) = sized_redeclaration(&builtin, &field.ty) {
                                self.module.variables[v].ty = ty;
                            } else if builtin != field.ty {
                                self.per_vertex_type_error(block.name.loc, field, &builtin);
                            }
                        }
                        None => self.error(
                            block.name.loc,
                            SemanticError::PerVertexMember(field.name.clone()),
                        ),
                    }
                }
            }
            return;
        }

        // GLSL 4.00 §4.4.2.1: "A block member may be declared with a stream
        // qualifier, but the specified stream must match the stream
        // associated with the containing block."
        let block_stream =
            qualifiers::output_stream(&resolved, self.stage, self.module.layout.gs_out_stream);
        for field in &fields {
            if let Some(member_stream) = field.qualifiers.stream {
                if mode == VarMode::ShaderOut && member_stream != block_stream {
                    self.extend_diags(vec![crate::diag::Diagnostic::error(
                        block.name.loc,
                        qualifiers::QualifierError::StreamMemberMismatch {
                            member: field.name.clone(),
                            member_stream,
                            block_stream,
                        },
                    )]);
                }
            }
        }
        let handle = self.module.structs.append(StructType {
            name: block.name.name.to_string(),
            fields: fields.clone(),
            is_interface: true,
        });
        let block_ty = Type::Struct(handle);
        // Like default-block uniforms (see `variable_declarator`), block
        // layouts and the GL interface of arrays of arrays are not
        // implemented by the linker.
        match &block.instance {
            Some(instance) => {
                let mut ty = block_ty;
                if let Some(array) = &block.instance_array {
                    ty = self.apply_array(ty, array);
                    if let Type::Array(elem, None) = &ty {
                        if self.stage == Stage::Geometry && mode == VarMode::ShaderIn {
                            ty = self.geometry_input_type(
                                Type::Array(elem.clone(), None),
                                &instance.name,
                                instance.loc,
                            );
                        } else {
                            self.error(
                                instance.loc,
                                SemanticError::UnsizedBlockArray(block.name.name.to_string()),
                            );
                        }
                    } else if self.stage == Stage::Geometry && mode == VarMode::ShaderIn {
                        ty = self.geometry_input_type(ty, &instance.name, instance.loc);
                    }
                } else if self.stage == Stage::Geometry && mode == VarMode::ShaderIn {
                    self.error(instance.loc, SemanticError::GeometryInputNotArray);
                }
                if xfb_block {
                    let elements = match &ty {
                        Type::Array(_, Some(n)) => *n,
                        _ => 1,
                    };
                    self.xfb_output_block(&resolved.layout, &fields, elements, block.name.loc);
                }
                self.check_reserved_name(instance, false);
                let mut var = Variable::new(instance.name.to_string(), ty, mode);
                self.apply_qualifiers(&mut var, &resolved);
                var.interface_block = Some(handle);
                var.block_packing = packing;
                var.matrix_layout = matrix_layout;
                var.memory = resolved.memory;
                // Buffer variables are writable; `readonly` members are
                // checked per member (see `access::member_memory`).
                var.read_only = !matches!(mode, VarMode::ShaderOut | VarMode::ShaderStorage);
                let v = self.new_variable(var, instance.loc);
                self.add_global_item(v);
                if !self.scope.add_variable(&instance.name, v) {
                    self.error(
                        instance.loc,
                        SemanticError::Redeclared(instance.name.to_string()),
                    );
                }
            }
            None => {
                if block.instance_array.is_some() {
                    self.error(loc, SemanticError::BlockArrayWithoutInstance);
                }
                if self.stage == Stage::Geometry && mode == VarMode::ShaderIn {
                    self.error(block.name.loc, SemanticError::GeometryInputNotArray);
                }
                if xfb_block {
                    self.xfb_output_block(&resolved.layout, &fields, 1, block.name.loc);
                }
                for field in &fields {
                    let mut var = Variable::new(field.name.clone(), field.ty.clone(), mode);
                    self.apply_qualifiers(&mut var, &resolved);
                    var.interface_block = Some(handle);
                    var.block_packing = packing;
                    var.matrix_layout = match field.qualifiers.matrix_layout {
                        MatrixLayout::Inherited => matrix_layout,
                        other => other,
                    };
                    var.interpolation = field.qualifiers.interpolation.or(var.interpolation);
                    var.centroid |= field.qualifiers.centroid;
                    var.invariant |= field.qualifiers.invariant;
                    var.precise |= field.qualifiers.precise;
                    var.sample |= field.qualifiers.sample;
                    var.precision = field.qualifiers.precision.or(var.precision);
                    var.location = field.qualifiers.location.or(var.location);
                    var.component = field.qualifiers.component.or(var.component);
                    var.memory = resolved.memory.union(field.qualifiers.memory);
                    var.read_only = match mode {
                        VarMode::ShaderOut => false,
                        VarMode::ShaderStorage => var.memory.read_only,
                        _ => true,
                    };
                    let v = self.new_variable(var, block.name.loc);
                    self.add_global_item(v);
                    if !self.scope.add_variable(&field.name, v) {
                        self.error(
                            block.name.loc,
                            SemanticError::Redeclared(field.name.clone()),
                        );
                    }
                }
            }
        }
    }
}

/// Members of the implicit `out gl_PerVertex` block of vertex and geometry
/// shaders.
pub(crate) const PER_VERTEX_OUT_MEMBERS: [&str; 4] = [
    "gl_Position",
    "gl_PointSize",
    "gl_ClipDistance",
    "gl_ClipVertex",
];

/// The type a `gl_PerVertex` redeclaration gives a built-in member: its
/// explicitly sized array when the built-in is the same array unsized.
fn sized_redeclaration(builtin: &Type, redeclared: &Type) -> Option<Type> {
    match (builtin, redeclared) {
        (Type::Array(a, None), Type::Array(b, Some(_))) if a == b => Some(redeclared.clone()),
        _ => None,
    }
}

impl Checker<'_> {
    /// Applies an `in gl_PerVertex { ... } gl_in[]` redeclaration to the block
    /// type of `gl_in` (GLSL 4.10 §7.1): the listed members keep their
    /// built-in type (or size an unsized array), members left out are no
    /// longer declared, and a name that is not a built-in member is an error.
    fn restate_per_vertex_members(
        &mut self,
        gl_in: Handle<Variable>,
        fields: &[StructField],
        loc: SourceLoc,
    ) {
        let Type::Array(elem, _) = &self.module.variables[gl_in].ty else {
            return;
        };
        let Type::Struct(block) = **elem else {
            return;
        };
        let builtin = self.module.structs[block].fields.clone();
        let mut kept = Vec::with_capacity(fields.len());
        for field in fields {
            let Some(member) = builtin.iter().find(|m| m.name == field.name) else {
                self.error(loc, SemanticError::PerVertexMember(field.name.clone()));
                continue;
            };
            let mut member = member.clone();
            if let Some(ty) = sized_redeclaration(&member.ty, &field.ty) {
                member.ty = ty;
            } else if member.ty != field.ty {
                self.per_vertex_type_error(loc, field, &member.ty);
            }
            kept.push(member);
        }
        // Built-in order, so that every unit's block type is laid out alike.
        kept.sort_by_key(|m| builtin.iter().position(|b| b.name == m.name));
        self.module.structs[block].fields = kept;
    }

    fn per_vertex_type_error(&mut self, loc: SourceLoc, field: &StructField, builtin: &Type) {
        let structs = &self.module.structs;
        let error = SemanticError::PerVertexMemberType(
            field.name.clone(),
            builtin.display(structs).to_string(),
            field.ty.display(structs).to_string(),
        );
        self.error(loc, error);
    }
}

/// True when an array dimension below the outermost one has no size.
fn inner_dimension_unsized(ty: &Type) -> bool {
    let Type::Array(inner, _) = ty else {
        return false;
    };
    let mut inner: &Type = inner;
    while let Type::Array(elem, len) = inner {
        if len.is_none() {
            return true;
        }
        inner = elem;
    }
    false
}

/// The initial units of a sampler or image (or an array of them; GLSL 4.20
/// §4.4.6.1 gives images their image units the same way) bound from `next` on;
/// `None` for other types.
fn opaque_binding_units(ty: &Type, next: &mut i32) -> Option<hir::Constant> {
    match ty {
        Type::Sampler(_) | Type::Image(_) => {
            let unit = *next;
            *next = next.saturating_add(1);
            Some(hir::Constant::Components(smallvec::smallvec![
                hir::ScalarValue::Int(unit)
            ]))
        }
        Type::Array(elem, Some(len)) => {
            let items = (0..*len)
                .map(|_| opaque_binding_units(elem, next))
                .collect::<Option<Vec<_>>>()?;
            Some(hir::Constant::Aggregate(items))
        }
        _ => None,
    }
}
