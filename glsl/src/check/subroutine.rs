//! Subroutines (GLSL 4.00 §6.1.2, ARB_shader_subroutine): subroutine type
//! declarations, functions that implement them, subroutine uniforms and calls
//! through them.
//!
//! The IR has no subroutine construct; this module lowers them as Mesa's
//! `lower_subroutine` does, while checking:
//! * `subroutine vec4 T(vec2 p);` declares type `T` and its dispatch function
//!   `__subroutine_T(uint index, vec2 p)`;
//! * `subroutine(T) vec4 f(vec2 p) { ... }` is an ordinary function, recorded
//!   as compatible with `T` and given an index (`layout(index = N)` or the
//!   lowest free one, in declaration order);
//! * `subroutine uniform T u;` becomes `uniform uint __subu_u;`, which holds the
//!   index the application selected (`glUniformSubroutinesuiv`);
//! * a call `u(x)` becomes `__subroutine_T(__subu_u, x)`. At the end of the
//!   shader the dispatch body compares the index against each compatible
//!   function's and calls the matching one, so recursion through subroutines is
//!   static recursion the linker reports.
//!
//! Indices and locations are per shader; the linker refuses a stage whose
//! subroutines are spread over several shaders.

use std::borrow::Cow;

use crate::arena::Handle;
use crate::ast;
use crate::builtins::ParamDirection;
use crate::hir::ops::Op;
use crate::hir::subroutine::{
    storage_name, SubroutineFunction, SubroutineType, SubroutineUniform, Subroutines,
    DISPATCH_PREFIX,
};
use crate::hir::{self, Constant, ExprKind, Function, Item, ScalarValue, Signature, Stmt};
use crate::hir::{VarMode, Variable};
use crate::span::SourceLoc;
use crate::types::Type;

use super::function::{Candidate, CandidateSource, ParamInfo};
use super::qualifiers::ResolvedQualifiers;
use super::{Checker, SemanticError};

/// GL 4.x Table 23.64 minimum of `GL_MAX_SUBROUTINES`.
pub const MAX_SUBROUTINES: u32 = 256;
/// GL 4.x Table 23.64 minimum of `GL_MAX_SUBROUTINE_UNIFORM_LOCATIONS`.
pub const MAX_SUBROUTINE_UNIFORM_LOCATIONS: u32 = 1024;

/// A declared subroutine type, while checking.
#[derive(Clone, Debug)]
struct TypeDecl {
    name: String,
    return_type: Type,
    params: Vec<(Type, ParamDirection)>,
    dispatch: Handle<Function>,
    loc: SourceLoc,
}

/// A function with a `subroutine(...)` qualifier, while checking.
#[derive(Clone, Debug)]
struct FunctionDecl {
    name: String,
    function: Handle<Function>,
    signature: usize,
    types: Vec<usize>,
    index: Option<i32>,
    loc: SourceLoc,
}

/// A subroutine uniform, while checking.
#[derive(Clone, Debug)]
struct UniformDecl {
    name: String,
    var: Handle<Variable>,
    ty: usize,
    location: Option<i32>,
    dims: Vec<u32>,
    loc: SourceLoc,
}

/// The checker's subroutine declarations so far.
#[derive(Clone, Debug, Default)]
pub struct State {
    types: Vec<TypeDecl>,
    functions: Vec<FunctionDecl>,
    uniforms: Vec<UniformDecl>,
}

impl State {
    /// The subroutine type called `name`.
    fn type_named(&self, name: &str) -> Option<usize> {
        self.types.iter().position(|t| t.name == name)
    }
}

/// The lowest `count` consecutive free slots at or above 0 not in `used`.
fn first_free_run(used: &[(u32, u32)], count: u32) -> u32 {
    let mut start = 0u32;
    loop {
        let end = start.saturating_add(count);
        match used
            .iter()
            .find(|&&(s, n)| s < end && start < s.saturating_add(n))
        {
            Some(&(s, n)) => start = s.saturating_add(n),
            None => return start,
        }
    }
}

impl Checker<'_> {
    /// True if `name` names a subroutine type of this shader.
    pub(super) fn is_subroutine_type(&self, name: &str) -> bool {
        self.subroutines.type_named(name).is_some()
    }

    /// `subroutine R T(params);`: declares subroutine type `T` and its
    /// dispatch function.
    pub(super) fn subroutine_type(
        &mut self,
        proto: &ast::FunctionPrototype,
        return_type: Type,
        params: Vec<ParamInfo>,
        is_definition: bool,
    ) {
        let name = proto.name.name.to_string();
        let loc = proto.loc;
        if is_definition {
            self.error(loc, SemanticError::SubroutineTypeBody(name.clone()));
        }
        if self.is_subroutine_type(&name) || self.scope.lookup(&name).is_some() {
            self.error(loc, SemanticError::FunctionNameConflict(name));
            return;
        }
        let mut parameters = Vec::with_capacity(params.len() + 1);
        let index = Variable::new("__subroutine_index", Type::UINT, VarMode::FunctionIn);
        parameters.push(self.new_variable(index, loc));
        let mut signature = Vec::with_capacity(params.len());
        for (i, p) in params.iter().enumerate() {
            let var = &mut self.module.variables[p.var];
            if var.name.is_empty() {
                var.name = format!("p{i}");
            }
            let dir = match var.mode {
                VarMode::FunctionOut => ParamDirection::Out,
                VarMode::FunctionInout => ParamDirection::InOut,
                _ => ParamDirection::In,
            };
            signature.push((var.ty.clone(), dir));
            parameters.push(p.var);
        }
        let dispatch = self.module.functions.append(Function {
            name: format!("{DISPATCH_PREFIX}{name}"),
            signatures: vec![Signature {
                return_type: return_type.clone(),
                parameters,
                body: Vec::new(),
                is_defined: false,
                builtin: None,
            }],
        });
        self.module.items.push(Item::Function(dispatch));
        self.subroutines.types.push(TypeDecl {
            name,
            return_type,
            params: signature,
            dispatch,
            loc,
        });
    }

    /// `subroutine(T1, T2) R f(params) { ... }`: checks the type list and the
    /// signature against each type, and records the function.
    pub(super) fn subroutine_function(
        &mut self,
        proto: &ast::FunctionPrototype,
        function: Handle<Function>,
        signature: usize,
        types: &[ast::TypeSpecifier],
        resolved: &ResolvedQualifiers,
        is_definition: bool,
    ) {
        let name = proto.name.name.to_string();
        let loc = proto.loc;
        if !is_definition {
            // ARB_shader_subroutine: a function with a subroutine type list
            // is declared by its definition.
            self.error(loc, SemanticError::SubroutinePrototype(name));
            return;
        }
        if types.is_empty() {
            self.error(loc, SemanticError::SubroutineTypeBody(name));
            return;
        }
        let sig = &self.module.functions[function].signatures[signature];
        let return_type = sig.return_type.clone();
        let params: Vec<(Type, VarMode)> = sig
            .parameters
            .iter()
            .map(|p| {
                let v = &self.module.variables[*p];
                (v.ty.clone(), v.mode)
            })
            .collect();
        let mut list = Vec::with_capacity(types.len());
        for spec in types {
            let found = match (&spec.ty, &spec.array) {
                (ast::TypeName::Named(ident), None) => self.subroutines.type_named(&ident.name),
                _ => None,
            };
            let Some(ty) = found else {
                let written = match &spec.ty {
                    ast::TypeName::Named(ident) => ident.name.to_string(),
                    _ => "a built-in type".to_string(),
                };
                self.error(spec.loc, SemanticError::NotSubroutineType(written));
                continue;
            };
            let decl = &self.subroutines.types[ty];
            let same_params = decl.params.len() == params.len()
                && decl.params.iter().zip(&params).all(|((t, d), (pt, mode))| {
                    let pd = match mode {
                        VarMode::FunctionOut => ParamDirection::Out,
                        VarMode::FunctionInout => ParamDirection::InOut,
                        _ => ParamDirection::In,
                    };
                    t == pt && *d == pd
                });
            if decl.return_type != return_type || !same_params {
                let type_name = decl.name.clone();
                self.error(
                    loc,
                    SemanticError::SubroutineSignatureMismatch(name.clone(), type_name),
                );
                continue;
            }
            if !list.contains(&ty) {
                list.push(ty);
            }
        }
        self.subroutines.functions.push(FunctionDecl {
            name,
            function,
            signature,
            types: list,
            index: resolved.layout.index,
            loc,
        });
    }

    /// `subroutine uniform T u, v[2];`
    pub(super) fn subroutine_uniforms(
        &mut self,
        list: &ast::InitDeclaratorList,
        resolved: &ResolvedQualifiers,
        loc: SourceLoc,
    ) {
        let ty = match &list.ty.ty.ty {
            ast::TypeName::Named(ident) => match self.subroutines.type_named(&ident.name) {
                Some(ty) => ty,
                None => {
                    let name = ident.name.to_string();
                    self.error(list.ty.ty.loc, SemanticError::NotSubroutineType(name));
                    return;
                }
            },
            _ => {
                let written = "a built-in type".to_string();
                self.error(list.ty.ty.loc, SemanticError::NotSubroutineType(written));
                return;
            }
        };
        if list.declarators.is_empty() {
            self.warning(loc, SemanticError::EmptyDeclaration);
        }
        for declarator in &list.declarators {
            let ident = &declarator.name;
            let mut var_ty = Type::UINT;
            if let Some(array) = &list.ty.ty.array {
                var_ty = self.apply_array(var_ty, array);
            }
            if let Some(array) = &declarator.array {
                var_ty = self.apply_array(var_ty, array);
            }
            let mut dims = Vec::new();
            let mut t = &var_ty;
            let mut sized = true;
            while let Type::Array(elem, size) = t {
                match size {
                    Some(n) => dims.push(*n),
                    None => sized = false,
                }
                t = elem;
            }
            if var_ty.is_error() {
                continue;
            }
            if !sized {
                self.error(ident.loc, SemanticError::UnsizedSubroutineUniform);
                continue;
            }
            if declarator.initializer.is_some() {
                self.error(ident.loc, SemanticError::UniformInitializer);
            }
            self.check_reserved_name(ident, false);
            let name = ident.name.to_string();
            let mut var = Variable::new(storage_name(self.stage, &name), var_ty, VarMode::Uniform);
            var.read_only = true;
            var.subroutine_storage = true;
            let var = self.new_variable(var, ident.loc);
            if !self.scope.add_variable(&name, var) {
                self.error(ident.loc, SemanticError::Redeclared(name));
                continue;
            }
            self.add_global_item(var);
            self.subroutines.uniforms.push(UniformDecl {
                name,
                var,
                ty,
                location: resolved.layout.location,
                dims,
                loc: ident.loc,
            });
        }
    }

    /// The subroutine uniform declared as `name`, if that is what the name
    /// refers to here.
    pub(super) fn subroutine_uniform_named(&self, name: &str) -> Option<usize> {
        let var = self.scope.lookup(name)?.variable?;
        self.subroutines.uniforms.iter().position(|u| u.var == var)
    }

    /// A call through a subroutine uniform: `u(args)` or `u[i](args)`.
    pub(super) fn subroutine_call(
        &mut self,
        uniform: usize,
        indices: &[Option<Box<ast::Expr>>],
        args: &[ast::Expr],
        loc: SourceLoc,
    ) -> Handle<hir::Expr> {
        let decl = self.subroutines.uniforms[uniform].clone();
        let type_decl = self.subroutines.types[decl.ty].clone();
        let mut selector = self.var_ref(decl.var, loc);
        for index in indices {
            let Some(index) = index else {
                self.error(loc, SemanticError::SubroutineArrayCall(decl.name.clone()));
                return self.error_expr(loc);
            };
            let value = self.rvalue(index);
            let index_ty = self.ty(value);
            if index_ty.is_error() {
                return self.error_expr(loc);
            }
            if !matches!(index_ty, Type::INT | Type::UINT) {
                self.error(index.loc, SemanticError::ArrayIndexNotInteger);
                return self.error_expr(loc);
            }
            let Some(elem) = self.ty(selector).index_result() else {
                self.error(loc, SemanticError::SubroutineArrayCall(decl.name.clone()));
                return self.error_expr(loc);
            };
            selector = self.add_expr(ExprKind::ArrayRef(selector, value), elem, loc);
        }
        if self.ty(selector) != Type::UINT {
            self.error(loc, SemanticError::SubroutineArrayCall(decl.name.clone()));
            return self.error_expr(loc);
        }
        let values: Vec<Handle<hir::Expr>> = args.iter().map(|a| self.rvalue(a)).collect();
        let types: Vec<Type> = values.iter().map(|v| self.ty(*v)).collect();
        if types.iter().any(|t| t.is_error()) {
            return self.error_expr(loc);
        }
        let candidate = Candidate {
            params: Cow::Owned(type_decl.params.clone()),
            return_type: type_decl.return_type.clone(),
            source: CandidateSource::Subroutine,
        };
        let candidates = [candidate];
        if self.resolve_overload(&candidates, &types).is_err() {
            let call = self.prototype_string(&decl.name, &types);
            let list = format!(
                "  {}",
                self.signature_string(&type_decl.name, &candidates[0])
            );
            self.error(loc, SemanticError::NoMatchingFunction(call, list));
            return self.error_expr(loc);
        }
        if !self.verify_parameter_modes(&candidates[0], &values, args) {
            return self.error_expr(loc);
        }
        let mut params = Vec::with_capacity(type_decl.params.len() + 1);
        params.push((Type::UINT, ParamDirection::In));
        params.extend(type_decl.params.iter().cloned());
        let full = Candidate {
            params: Cow::Owned(params),
            return_type: type_decl.return_type.clone(),
            source: CandidateSource::Subroutine,
        };
        let mut actuals = Vec::with_capacity(values.len() + 1);
        actuals.push(selector);
        actuals.extend(values);
        self.generate_call(type_decl.dispatch, 0, &full, actuals, &type_decl.name, loc)
    }

    /// End of the shader: assigns function indices and uniform locations,
    /// writes the dispatch bodies and records [`Subroutines`] in the module.
    pub(super) fn finish_subroutines(&mut self) {
        if self.subroutines.types.is_empty() {
            return;
        }
        let state = std::mem::take(&mut self.subroutines);
        // GL 4.x §7.10: a function associated with a subroutine type may not
        // be overloaded (its name selects it in `glGetSubroutineIndex`).
        for f in &state.functions {
            if self.module.functions[f.function].signatures.len() > 1 {
                self.error(f.loc, SemanticError::SubroutineOverloaded(f.name.clone()));
            }
        }
        let indices = self.assign_indices(&state);
        let locations = self.assign_locations(&state);
        let mut out = Subroutines::default();
        for t in &state.types {
            out.types.push(SubroutineType {
                name: t.name.clone(),
            });
        }
        for (f, index) in state.functions.iter().zip(&indices) {
            out.functions.push(SubroutineFunction {
                name: f.name.clone(),
                index: *index,
                types: f.types.clone(),
            });
        }
        for (u, location) in state.uniforms.iter().zip(&locations) {
            out.uniforms.push(SubroutineUniform {
                name: u.name.clone(),
                ty: u.ty,
                location: *location,
                dims: u.dims.clone(),
            });
        }
        for (ty, decl) in state.types.iter().enumerate() {
            let mut compatible: Vec<(u32, &FunctionDecl)> = state
                .functions
                .iter()
                .zip(&indices)
                .filter(|(f, _)| f.types.contains(&ty))
                .map(|(f, i)| (*i, f))
                .collect();
            compatible.sort_by_key(|(i, _)| *i);
            self.write_dispatch(decl, &compatible);
        }
        self.module.subroutines = out;
    }

    /// Function indices: explicit ones first, then the lowest free index in
    /// declaration order (ARB_explicit_uniform_location: "index ... can be
    /// used to assign indices to subroutine functions").
    fn assign_indices(&mut self, state: &State) -> Vec<u32> {
        let mut used: Vec<(u32, u32)> = Vec::new();
        let mut result = vec![0u32; state.functions.len()];
        let mut pending = Vec::new();
        for (i, f) in state.functions.iter().enumerate() {
            match f.index {
                Some(index) if index < 0 || index as u32 >= MAX_SUBROUTINES => {
                    self.error(f.loc, SemanticError::SubroutineIndexRange(index));
                }
                Some(index) => {
                    let index = index as u32;
                    if used.iter().any(|&(s, _)| s == index) {
                        self.error(f.loc, SemanticError::SubroutineIndexUsed(index));
                    }
                    used.push((index, 1));
                    result[i] = index;
                }
                None => pending.push(i),
            }
        }
        for i in pending {
            let index = first_free_run(&used, 1);
            if index >= MAX_SUBROUTINES {
                self.error(state.functions[i].loc, SemanticError::TooManySubroutines);
            }
            used.push((index, 1));
            result[i] = index;
        }
        result
    }

    /// Subroutine uniform locations: explicit ones first, then the lowest free
    /// run in declaration order; an array takes one location per element.
    fn assign_locations(&mut self, state: &State) -> Vec<u32> {
        let mut used: Vec<(u32, u32)> = Vec::new();
        let mut result = vec![0u32; state.uniforms.len()];
        let mut pending = Vec::new();
        for (i, u) in state.uniforms.iter().enumerate() {
            let size = u.dims.iter().fold(1u32, |n, d| n.saturating_mul(*d)).max(1);
            match u.location {
                Some(location) => {
                    let location = location.max(0) as u32;
                    let end = location.saturating_add(size);
                    if end > MAX_SUBROUTINE_UNIFORM_LOCATIONS {
                        self.error(u.loc, SemanticError::SubroutineLocationRange(end));
                    } else if used
                        .iter()
                        .any(|&(s, n)| s < location + size && location < s + n)
                    {
                        self.error(u.loc, SemanticError::SubroutineLocationUsed(location));
                    }
                    used.push((location, size));
                    result[i] = location;
                }
                None => pending.push((i, size)),
            }
        }
        for (i, size) in pending {
            let location = first_free_run(&used, size);
            let end = location.saturating_add(size);
            if end > MAX_SUBROUTINE_UNIFORM_LOCATIONS {
                let loc = state.uniforms[i].loc;
                self.error(loc, SemanticError::SubroutineLocationRange(end));
            }
            used.push((location, size));
            result[i] = location;
        }
        result
    }

    /// Writes `__subroutine_T`: `if (index == i0) r = f0(..); else if ...;
    /// return r;`.
    fn write_dispatch(&mut self, decl: &TypeDecl, compatible: &[(u32, &FunctionDecl)]) {
        let loc = decl.loc;
        let Some(sig) = self.module.functions[decl.dispatch].signatures.first() else {
            return;
        };
        let parameters = sig.parameters.clone();
        let Some((&selector, forwarded)) = parameters.split_first() else {
            return;
        };
        let saved = std::mem::take(&mut self.body);
        let retval = if decl.return_type == Type::Void {
            None
        } else {
            Some(self.temporary("__subroutine_retval", decl.return_type.clone(), loc))
        };
        let prefix = std::mem::take(&mut self.body);
        let mut else_block: Vec<Handle<Stmt>> = Vec::new();
        for &(index, f) in compatible.iter().rev() {
            let args: Vec<Handle<hir::Expr>> =
                forwarded.iter().map(|p| self.var_ref(*p, loc)).collect();
            let return_deref = retval.map(|r| self.var_ref(r, loc));
            let call = Stmt::Call {
                function: f.function,
                signature: f.signature,
                return_deref,
                args,
            };
            let call = self.detached_stmt(call, loc);
            let sel = self.var_ref(selector, loc);
            let value = self.constant(
                Constant::Components(smallvec::smallvec![ScalarValue::Uint(index)]),
                Type::UINT,
                loc,
            );
            let condition = self.operation(Op::Equal, &[sel, value], Type::BOOL, loc);
            let branch = Stmt::If {
                condition,
                then_block: vec![call],
                else_block,
            };
            else_block = vec![self.detached_stmt(branch, loc)];
        }
        self.body = prefix;
        self.body.extend(else_block);
        if let Some(r) = retval {
            let value = self.var_ref(r, loc);
            self.emit(Stmt::Return(Some(value)), loc);
        }
        let body = std::mem::replace(&mut self.body, saved);
        let sig = &mut self.module.functions[decl.dispatch].signatures[0];
        sig.body = body;
        sig.is_defined = true;
    }

    /// Adds a statement to the arena without appending it to the current list.
    fn detached_stmt(&mut self, stmt: Stmt, loc: SourceLoc) -> Handle<Stmt> {
        let handle = self.module.stmts.append(stmt);
        self.module.stmt_locs.insert(handle, loc);
        handle
    }
}
