//! Functions: prototypes and definitions (redefinition, prototype/definition
//! mismatches, `main` rules, built-in redefinition rules per version), calls
//! with overload resolution over user and built-in signatures (exact matches,
//! then implicit conversions; `out` parameters convert the other way), the
//! hoisting of calls into `Stmt::Call` writing a `<name>_retval` temporary,
//! copy-in/copy-out temporaries for converted or swizzled `out` arguments, and
//! constant folding of built-in calls with constant arguments.

use std::borrow::Cow;

use crate::arena::Handle;
use crate::ast;
use crate::builtins::{self, BuiltinSignature, ParamDirection};
use crate::hir::{self, ExprKind, Function, Item, Signature, Stmt, VarMode, Variable};
use crate::span::SourceLoc;
use crate::types::Type;

use super::qualifiers::{self, DeclContext, StorageClass};
use super::{Checker, FunctionCtx, SemanticError};

/// One overload considered by resolution.
#[derive(Clone, Debug)]
pub(super) enum CandidateSource {
    /// A user signature (function, index).
    User(Handle<Function>, usize),
    /// A built-in from the table.
    Builtin(BuiltinSignature),
    /// A subroutine type's signature (a call through a subroutine uniform).
    Subroutine,
}

#[derive(Clone, Debug)]
pub(super) struct Candidate {
    /// Parameter types and directions (a built-in's are borrowed from the table).
    pub(super) params: Cow<'static, [(Type, ParamDirection)]>,
    pub(super) return_type: Type,
    pub(super) source: CandidateSource,
}

/// A checked parameter declaration.
pub(super) struct ParamInfo {
    pub(super) var: Handle<Variable>,
    name: Option<ast::Ident>,
}

fn direction_of(mode: VarMode) -> ParamDirection {
    match mode {
        VarMode::FunctionOut => ParamDirection::Out,
        VarMode::FunctionInout => ParamDirection::InOut,
        _ => ParamDirection::In,
    }
}

/// The GLSL 4.30 §8.11 atomic memory functions.
fn is_memory_atomic(name: &str) -> bool {
    matches!(
        name,
        "atomicAdd"
            | "atomicMin"
            | "atomicMax"
            | "atomicAnd"
            | "atomicOr"
            | "atomicXor"
            | "atomicExchange"
            | "atomicCompSwap"
    )
}

impl Checker<'_> {
    /// Prints `name(type, type)` for messages.
    pub(super) fn prototype_string(&self, name: &str, types: &[Type]) -> String {
        let args: Vec<String> = types.iter().map(|t| self.type_name(t)).collect();
        format!("{name}({})", args.join(", "))
    }

    pub(super) fn signature_string(&self, name: &str, candidate: &Candidate) -> String {
        let params: Vec<String> = candidate
            .params
            .iter()
            .map(|(t, d)| {
                let prefix = match d {
                    ParamDirection::In => "",
                    ParamDirection::Out => "out ",
                    ParamDirection::InOut => "inout ",
                };
                format!("{prefix}{}", self.type_name(t))
            })
            .collect();
        format!(
            "{} {name}({})",
            self.type_name(&candidate.return_type),
            params.join(", ")
        )
    }

    /// Checks the parameters of a prototype.
    fn parameters(&mut self, proto: &ast::FunctionPrototype) -> Vec<ParamInfo> {
        let mut params = Vec::new();
        let count = proto.parameters.len();
        for param in &proto.parameters {
            let env = self.qualifier_env();
            let (resolved, diags) = qualifiers::resolve_qualifiers(
                param.qualifier.as_ref(),
                DeclContext::FunctionParameter,
                &env,
            );
            self.extend_diags(diags);
            let mut ty = self.resolve_type(&param.ty);
            if let Some(array) = &param.array {
                ty = self.apply_array(ty, array);
            }
            if ty == Type::Void {
                if count == 1
                    && param.name.is_none()
                    && param.array.is_none()
                    && param.qualifier.is_none()
                {
                    // `f(void)`
                    continue;
                }
                self.error(param.loc, SemanticError::VoidParameter);
                ty = Type::Error;
            }
            if let Type::Array(_, None) = ty {
                self.error(param.loc, SemanticError::UnsizedParameter);
                ty = Type::Error;
            }
            let mode = match resolved.storage {
                StorageClass::ParamOut => VarMode::FunctionOut,
                StorageClass::ParamInOut => VarMode::FunctionInout,
                _ if resolved.is_const => VarMode::ConstIn,
                _ => VarMode::FunctionIn,
            };
            if matches!(mode, VarMode::FunctionOut | VarMode::FunctionInout) {
                // Opaque out parameters are reported by the qualifier rules.
                if ty.is_array() && !self.at_least(120, 100) {
                    self.error(
                        param.loc,
                        SemanticError::version_required(
                            "arrays cannot be out or inout parameters",
                            self.version,
                            120,
                            100,
                        ),
                    );
                }
            }
            let env = self.qualifier_env();
            let diags = qualifiers::check_storage_type(
                &resolved,
                &ty,
                &self.module.structs,
                DeclContext::FunctionParameter,
                &env,
                param.loc,
            );
            self.extend_diags(diags);
            if let Some(name) = &param.name {
                self.check_reserved_name(name, false);
            }
            let name = param
                .name
                .as_ref()
                .map(|n| n.name.to_string())
                .unwrap_or_default();
            let mut var = Variable::new(name, ty, mode);
            var.read_only = mode == VarMode::ConstIn;
            var.precision = resolved.precision;
            // GLSL 4.20 §4.10: image parameters carry memory qualifiers.
            var.memory = resolved.memory;
            let loc = param.name.as_ref().map(|n| n.loc).unwrap_or(param.loc);
            let var = self.new_variable(var, loc);
            params.push(ParamInfo {
                var,
                name: param.name.clone(),
            });
        }
        params
    }

    /// Checks a prototype or the head of a definition; returns the function
    /// and signature index.
    fn function_prototype(
        &mut self,
        proto: &ast::FunctionPrototype,
        is_definition: bool,
    ) -> Option<(Handle<Function>, usize, Vec<ParamInfo>)> {
        let name = &*proto.name.name;
        let loc = proto.loc;
        if self.function.is_some() && self.at_least(120, 100) {
            self.error(
                loc,
                SemanticError::LocalFunctionDeclaration(name.to_string()),
            );
        }
        // Layout values may be constant expressions (`layout(index = N + 1)`
        // on a subroutine function, GLSL 4.40 §4.4).
        let (resolved, diags) = self.resolve_qualifiers(
            proto.return_type.qualifier.as_ref(),
            DeclContext::FunctionReturn,
        );
        self.extend_diags(diags);
        let return_type = self.resolve_type(&proto.return_type.ty);
        if return_type.contains_opaque(&self.module.structs) {
            self.error(loc, SemanticError::OpaqueReturn(name.to_string()));
        }
        if let Type::Array(_, None) = return_type {
            self.error(loc, SemanticError::UnsizedReturn(name.to_string()));
        }
        if return_type.is_array() && !self.at_least(120, 300) {
            self.error(
                loc,
                SemanticError::version_required(
                    "arrays cannot be returned",
                    self.version,
                    120,
                    300,
                ),
            );
        }
        // ES: the return type needs a precision (explicit or default).
        let mut return_precision = resolved.precision;
        if self.version.is_es() && return_precision.is_none() {
            if let Some(key) = self.precision_key(&return_type) {
                return_precision = self.scope.default_precision(&key);
                if return_precision.is_none() && !return_type.is_sampler() {
                    let type_name = self.type_name(&return_type);
                    self.error(
                        proto.return_type.ty.loc,
                        SemanticError::NoDefaultPrecision(type_name),
                    );
                }
            }
        }
        if is_definition {
            for param in &proto.parameters {
                let is_void = matches!(&param.ty.ty, ast::TypeName::Builtin(n) if &**n == "void");
                if param.name.is_none() && !is_void {
                    self.error(
                        param.loc,
                        SemanticError::ParameterWithoutName(name.to_string()),
                    );
                }
            }
        }
        self.check_reserved_name(&proto.name, false);
        self.check_block_name_clash(&proto.name);
        let params = self.parameters(proto);
        // GLSL 4.00 §6.1.2: `subroutine R T(..);` declares a subroutine type,
        // which shares the function namespace.
        let subroutine_list = resolved.subroutine.clone();
        if subroutine_list.as_ref().is_some_and(|l| l.is_empty()) {
            self.subroutine_type(proto, return_type, params, is_definition);
            return None;
        }
        if self.is_subroutine_type(name) {
            self.error(loc, SemanticError::FunctionNameConflict(name.to_string()));
            return None;
        }
        let param_types: Vec<Type> = params
            .iter()
            .map(|p| self.module.variables[p.var].ty.clone())
            .collect();

        let function = self
            .scope
            .lookup_current(name)
            .and_then(|entry| entry.function);
        let function = match function {
            Some(f) => f,
            None => {
                let f = self.module.functions.append(Function {
                    name: name.to_string(),
                    signatures: Vec::new(),
                });
                if !self.scope.add_function(name, f) {
                    self.error(
                        proto.name.loc,
                        SemanticError::FunctionNameConflict(name.to_string()),
                    );
                    return None;
                }
                self.module.items.push(Item::Function(f));
                f
            }
        };

        let mut found: Option<usize> = None;
        for (index, sig) in self.module.functions[function]
            .signatures
            .iter()
            .enumerate()
        {
            let types: Vec<Type> = sig
                .parameters
                .iter()
                .map(|p| self.module.variables[*p].ty.clone())
                .collect();
            if types == param_types {
                found = Some(index);
                break;
            }
        }
        if let Some(index) = found {
            let sig = self.module.functions[function].signatures[index].clone();
            for (old, new) in sig.parameters.iter().zip(&params) {
                let old_mode = self.module.variables[*old].mode;
                let new_mode = self.module.variables[new.var].mode;
                if old_mode != new_mode {
                    let pname = self.module.variables[new.var].name.clone();
                    self.error(
                        loc,
                        SemanticError::ParameterQualifierMismatch(name.to_string(), pname),
                    );
                    break;
                }
            }
            if sig.return_type != return_type {
                self.error(loc, SemanticError::ReturnTypeMismatch(name.to_string()));
            } else if self.version.is_es()
                && self
                    .return_precisions
                    .get(&(function, index))
                    .copied()
                    .flatten()
                    != return_precision
            {
                self.error(
                    loc,
                    SemanticError::ReturnPrecisionMismatch(name.to_string()),
                );
            }
            if is_definition && sig.is_defined {
                self.error(loc, SemanticError::FunctionRedefined(name.to_string()));
            }
        }

        if self.version.is_es() {
            let avail = self.availability();
            let builtin = builtins::find_functions(name, &avail);
            if !builtin.is_empty() {
                if self.version.number >= 300 {
                    self.error(loc, SemanticError::EsBuiltinOverload(name.to_string()));
                    return None;
                }
                if builtin.iter().any(|b| {
                    b.parameters
                        .iter()
                        .map(|(t, _)| t.clone())
                        .collect::<Vec<_>>()
                        == param_types
                }) {
                    self.error(loc, SemanticError::EsBuiltinRedefinition(name.to_string()));
                }
            }
        }

        if name == "main" {
            if return_type != Type::Void {
                self.error(loc, SemanticError::MainReturn);
            }
            if !params.is_empty() {
                self.error(loc, SemanticError::MainParameters);
            }
        }

        let index = match found {
            Some(index) => {
                let sig = &mut self.module.functions[function].signatures[index];
                if is_definition || !sig.is_defined {
                    sig.parameters = params.iter().map(|p| p.var).collect();
                }
                index
            }
            None => {
                let sig = Signature {
                    return_type,
                    parameters: params.iter().map(|p| p.var).collect(),
                    body: Vec::new(),
                    is_defined: false,
                    builtin: None,
                };
                self.module.functions[function].signatures.push(sig);
                self.module.functions[function].signatures.len() - 1
            }
        };
        self.return_precisions
            .insert((function, index), return_precision);
        if let Some(types) = subroutine_list {
            self.subroutine_function(proto, function, index, &types, &resolved, is_definition);
        }
        Some((function, index, params))
    }

    /// A prototype declaration.
    pub fn prototype_declaration(&mut self, proto: &ast::FunctionPrototype) {
        self.function_prototype(proto, false);
    }

    /// A function definition.
    pub fn function_definition(&mut self, def: &ast::FunctionDef) {
        let proto = &def.prototype;
        let head = self.function_prototype(proto, true);
        let (return_type, params) = match &head {
            Some((f, index, _)) => (
                self.module.functions[*f].signatures[*index]
                    .return_type
                    .clone(),
                true,
            ),
            None => (Type::Error, false),
        };
        let _ = params;
        self.scope.push();
        if let Some((_, _, params)) = &head {
            for param in params {
                if let Some(name) = &param.name {
                    if self.scope.lookup_current(&name.name).is_some() {
                        self.error(
                            name.loc,
                            SemanticError::ParameterRedeclared(name.name.to_string()),
                        );
                    } else {
                        self.scope.add_variable(&name.name, param.var);
                    }
                }
            }
        }
        let saved_body = std::mem::take(&mut self.body);
        self.function = Some(FunctionCtx {
            name: proto.name.name.to_string(),
            return_type: return_type.clone(),
        });
        let saved_found_return = std::mem::replace(&mut self.found_return, false);
        for statement in &def.body.statements {
            self.statement(statement);
        }
        let body = std::mem::replace(&mut self.body, saved_body);
        if return_type != Type::Void && !return_type.is_error() && !self.found_return {
            self.error(
                proto.loc,
                SemanticError::MissingReturn(
                    proto.name.name.to_string(),
                    self.type_name(&return_type),
                ),
            );
        }
        self.found_return = saved_found_return;
        self.function = None;
        self.scope.pop();
        if let Some((f, index, _)) = head {
            let sig = &mut self.module.functions[f].signatures[index];
            if !sig.is_defined {
                sig.body = body;
                sig.is_defined = true;
            }
            if &*proto.name.name == "main" {
                self.main_function = Some(f);
            }
        }
    }

    /// The candidates for a call of `name` visible here.
    fn candidates(&mut self, name: &str) -> (Vec<Candidate>, bool) {
        let mut result = Vec::new();
        let entry = self.scope.lookup(name).cloned();
        let mut user_declared = false;
        if let Some(entry) = &entry {
            if entry.ty.is_some() {
                return (result, false);
            }
            if entry.variable.is_some() && entry.function.is_none() {
                return (result, false);
            }
            if let Some(f) = entry.function {
                user_declared = true;
                for (index, sig) in self.module.functions[f].signatures.iter().enumerate() {
                    result.push(Candidate {
                        params: Cow::Owned(
                            sig.parameters
                                .iter()
                                .map(|p| {
                                    let v = &self.module.variables[*p];
                                    (v.ty.clone(), direction_of(v.mode))
                                })
                                .collect(),
                        ),
                        return_type: sig.return_type.clone(),
                        source: CandidateSource::User(f, index),
                    });
                }
            }
        }
        if !user_declared || self.version.is_es() {
            let avail = self.availability();
            for sig in builtins::find_functions(name, &avail) {
                result.push(Candidate {
                    params: Cow::Borrowed(sig.parameters),
                    return_type: sig.return_type.clone(),
                    source: CandidateSource::Builtin(sig),
                });
            }
        }
        (result, user_declared)
    }

    /// Picks the overload for argument types; Err(true) if ambiguous.
    pub(super) fn resolve_overload(
        &self,
        candidates: &[Candidate],
        args: &[Type],
    ) -> Result<usize, bool> {
        let mut inexact: Vec<usize> = Vec::new();
        for (index, candidate) in candidates.iter().enumerate() {
            if candidate.params.len() != args.len() {
                continue;
            }
            let mut exact = true;
            let mut ok = true;
            for ((param, dir), arg) in candidate.params.iter().zip(args) {
                if param == arg {
                    continue;
                }
                exact = false;
                let convertible = match dir {
                    ParamDirection::In => self.can_convert(arg, param),
                    ParamDirection::Out => self.can_convert(param, arg),
                    ParamDirection::InOut => false,
                };
                if !convertible {
                    ok = false;
                    break;
                }
            }
            if ok && exact {
                return Ok(index);
            }
            if ok {
                inexact.push(index);
            }
        }
        // Identical parameter lists (a built-in listed twice) are one match.
        inexact.dedup_by(|a, b| candidates[*a].params == candidates[*b].params);
        match inexact.len() {
            0 => Err(false),
            1 => Ok(inexact[0]),
            _ => {
                if !self.at_least(400, 0)
                    && !self.has_extension("GL_ARB_gpu_shader5")
                    && !self.has_extension("GL_MESA_shader_integer_functions")
                {
                    return Err(true);
                }
                // A candidate is better if no argument needs a worse conversion
                // and one needs a better one (exact beats converted).
                let score = |c: &Candidate| -> Vec<bool> {
                    c.params
                        .iter()
                        .zip(args)
                        .map(|((p, _), a)| p == a)
                        .collect()
                };
                let mut best: Option<usize> = None;
                for &i in &inexact {
                    let si = score(&candidates[i]);
                    let dominates_all = inexact.iter().all(|&j| {
                        j == i || {
                            let sj = score(&candidates[j]);
                            si.iter().zip(&sj).all(|(a, b)| *a || !*b) && si != sj
                        }
                    });
                    if dominates_all {
                        best = Some(i);
                    }
                }
                best.ok_or(true)
            }
        }
    }

    /// A call `name(args)` that is not a constructor.
    pub fn function_call(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        loc: SourceLoc,
        want_value: bool,
    ) -> Handle<hir::Expr> {
        let _ = want_value;
        let values: Vec<Handle<hir::Expr>> = args.iter().map(|a| self.rvalue(a)).collect();
        let types: Vec<Type> = values.iter().map(|v| self.ty(*v)).collect();
        if types.iter().any(|t| t.is_error()) {
            return self.error_expr(loc);
        }
        let (candidates, _) = self.candidates(&name.name);
        let chosen = match self.resolve_overload(&candidates, &types) {
            Ok(index) => index,
            Err(ambiguous) => {
                let call = self.prototype_string(&name.name, &types);
                if candidates.is_empty() {
                    self.error(loc, SemanticError::NoSuchFunction(name.name.to_string()));
                } else if ambiguous {
                    let list: Vec<String> = candidates
                        .iter()
                        .map(|c| format!("  {}", self.signature_string(&name.name, c)))
                        .collect();
                    self.error(loc, SemanticError::AmbiguousCall(call, list.join("\n")));
                } else {
                    let list: Vec<String> = candidates
                        .iter()
                        .map(|c| format!("  {}", self.signature_string(&name.name, c)))
                        .collect();
                    self.error(
                        loc,
                        SemanticError::NoMatchingFunction(call, list.join("\n")),
                    );
                }
                return self.error_expr(loc);
            }
        };
        let candidate = candidates[chosen].clone();
        if !self.verify_parameter_modes(&candidate, &values, args) {
            return self.error_expr(loc);
        }
        if !self.verify_image_parameters(&name.name, &candidate, &values, args) {
            return self.error_expr(loc);
        }
        let (function, signature) = match &candidate.source {
            CandidateSource::User(f, index) => (*f, *index),
            // Calls through subroutine uniforms go through `subroutine_call`.
            CandidateSource::Subroutine => return self.error_expr(loc),
            CandidateSource::Builtin(sig) => {
                if is_memory_atomic(&name.name) {
                    // GLSL 4.30 §8.11: "the mem argument ... must be a buffer
                    // or shared variable" (Mesa's `verify_first_atomic_parameter`).
                    let memory = values.first().and_then(|v| self.root_variable(*v));
                    let in_memory = memory.is_some_and(|var| {
                        matches!(
                            self.module.variables[var].mode,
                            VarMode::Shared | VarMode::ShaderStorage
                        )
                    });
                    if !in_memory {
                        let at = args.first().map(|a| a.loc).unwrap_or(loc);
                        self.error(at, SemanticError::AtomicArgument(name.name.to_string()));
                        return self.error_expr(loc);
                    }
                }
                if matches!(&*name.name, "EmitStreamVertex" | "EndStreamPrimitive") {
                    // GLSL 4.00 §8.12: "The argument to stream must be a
                    // constant integral expression."
                    let at = args.first().map(|a| a.loc).unwrap_or(loc);
                    let value = values.first().and_then(|v| self.evaluate(*v));
                    match value.as_ref().and_then(crate::hir::const_eval::as_int) {
                        None => {
                            self.error(at, SemanticError::ConstInParameter("stream"));
                            return self.error_expr(loc);
                        }
                        Some(v)
                            if v < 0 || v >= i64::from(super::qualifiers::MAX_VERTEX_STREAMS) =>
                        {
                            self.error(
                                at,
                                SemanticError::StreamCallRange {
                                    name: name.name.to_string(),
                                    value: v,
                                    max: super::qualifiers::MAX_VERTEX_STREAMS - 1,
                                },
                            );
                            return self.error_expr(loc);
                        }
                        Some(_) => {}
                    }
                }
                if name.name.starts_with("interpolateAt") {
                    if let Some(error) = self.interpolant_error(values.first()) {
                        let at = args.first().map(|a| a.loc).unwrap_or(loc);
                        self.error(at, error);
                        return self.error_expr(loc);
                    }
                }
                if name.name.starts_with("textureGather") {
                    // GLSL 4.00 §8.9.4: `comp` and `offsets` are constant
                    // expressions, and so is `offset` without GLSL 4.00 /
                    // ARB_gpu_shader5 (ARB_texture_gather, ES 3.10).
                    if let Some((index, error)) =
                        self.gather_argument_error(&name.name, sig, &values)
                    {
                        let at = args.get(index).map(|a| a.loc).unwrap_or(loc);
                        self.error(at, error);
                        return self.error_expr(loc);
                    }
                } else if name.name.ends_with("Offset") {
                    // The texel offset (the last integer parameter) is a constant.
                    let offset = sig
                        .parameters
                        .iter()
                        .rposition(|(t, _)| t.scalar_kind() == Some(crate::types::ScalarKind::Int));
                    if let Some(index) = offset {
                        if values
                            .get(index)
                            .is_some_and(|v| self.evaluate(*v).is_none())
                        {
                            let at = args.get(index).map(|a| a.loc).unwrap_or(loc);
                            self.error(at, SemanticError::OffsetNotConstant(name.name.to_string()));
                            return self.error_expr(loc);
                        }
                    }
                }
                if let Some(folded) = self.fold_builtin_call(sig, &values, loc) {
                    return folded;
                }
                self.builtin_function(&name.name, sig)
            }
        };
        self.generate_call(function, signature, &candidate, values, &name.name, loc)
    }

    /// The first bad argument of a texture gather call (see the caller), with
    /// its error.
    fn gather_argument_error(
        &self,
        function: &str,
        sig: &crate::builtins::BuiltinSignature,
        values: &[Handle<crate::hir::Expr>],
    ) -> Option<(usize, SemanticError)> {
        use crate::types::{ScalarKind, Type};
        let offset_may_vary = self.at_least(400, 320) || self.has_extension("GL_ARB_gpu_shader5");
        for (index, (ty, _)) in sig.parameters.iter().enumerate() {
            let (name, must_be_constant) = match ty {
                Type::Scalar(ScalarKind::Int) => ("comp", true),
                Type::Vector(ScalarKind::Int, 2) => ("offset", !offset_may_vary),
                Type::Array(..) => ("offsets", true),
                _ => continue,
            };
            let value = values.get(index).and_then(|v| self.evaluate(*v));
            if must_be_constant && value.is_none() {
                return Some((
                    index,
                    SemanticError::GatherArgumentNotConstant(name, function.to_string()),
                ));
            }
            if name == "comp" {
                let comp = match value.as_ref() {
                    Some(crate::hir::Constant::Components(c)) => match c.first() {
                        Some(crate::hir::ScalarValue::Int(v)) => Some(i64::from(*v)),
                        _ => None,
                    },
                    _ => None,
                };
                if let Some(comp) = comp.filter(|c| !(0..=3).contains(c)) {
                    return Some((
                        index,
                        SemanticError::GatherComponentRange(function.to_string(), comp),
                    ));
                }
            }
        }
        None
    }

    /// GLSL 4.00 §8.13: the `interpolant` of an interpolation function is a
    /// shader input (an element or member of one), swizzled only from GLSL
    /// 4.40 on (Mesa's `must_be_shader_input` check).
    fn interpolant_error(&self, value: Option<&Handle<crate::hir::Expr>>) -> Option<SemanticError> {
        let value = *value?;
        let input = self
            .root_variable(value)
            .is_some_and(|v| self.module.variables[v].mode == VarMode::ShaderIn);
        if !input {
            return Some(SemanticError::InterpolantNotInput);
        }
        let swizzled = matches!(self.module.exprs[value].kind, ExprKind::Swizzle(..));
        if swizzled && !self.at_least(440, 0) {
            return Some(SemanticError::InterpolantSwizzled);
        }
        None
    }

    /// GLSL 4.20 §4.10: "variables qualified with coherent, volatile,
    /// readonly, or writeonly may not be passed to functions whose formal
    /// parameters lack such qualifiers" (only `restrict` may be dropped).
    /// The image parameter of a §8.12 built-in has every qualifier but
    /// `writeonly` for `imageLoad`, `readonly` for `imageStore` and both for
    /// the atomics, as Mesa's `_image_prototype` declares it, so loads from
    /// write-only images and stores to read-only ones are rejected (Mesa's
    /// `verify_image_parameter` in ast_function.cpp).
    fn verify_image_parameters(
        &mut self,
        function: &str,
        candidate: &Candidate,
        values: &[Handle<hir::Expr>],
        args: &[ast::Expr],
    ) -> bool {
        let mut ok = true;
        for (index, ((ty, _), value)) in candidate.params.iter().zip(values).enumerate() {
            let mut base = ty;
            while let Type::Array(elem, _) = base {
                base = elem;
            }
            if !base.is_image() {
                continue;
            }
            let Some(actual) = self.root_variable(*value) else {
                continue;
            };
            let actual = self.module.variables[actual].memory;
            let (formal, formal_name) = match &candidate.source {
                // Subroutine types are checked against their functions, which
                // carry the qualifiers.
                CandidateSource::Subroutine => continue,
                CandidateSource::User(f, i) => {
                    match self.module.functions[*f].signatures[*i]
                        .parameters
                        .get(index)
                    {
                        Some(p) => {
                            let p = &self.module.variables[*p];
                            (p.memory, p.name.clone())
                        }
                        None => continue,
                    }
                }
                CandidateSource::Builtin(_) => {
                    let load = function == "imageLoad";
                    let store = function == "imageStore";
                    let query = matches!(function, "imageSize" | "imageSamples");
                    let formal = crate::hir::MemoryQualifiers {
                        read_only: load || query,
                        write_only: store || query,
                        coherent: true,
                        volatile: true,
                        restrict: true,
                    };
                    (formal, "image".to_string())
                }
            };
            let dropped = [
                (actual.coherent && !formal.coherent, "coherent"),
                (actual.volatile && !formal.volatile, "volatile"),
                (actual.read_only && !formal.read_only, "readonly"),
                (actual.write_only && !formal.write_only, "writeonly"),
            ];
            for (drops, word) in dropped {
                if drops {
                    let at = args.get(index).map(|a| a.loc).unwrap_or_default();
                    self.error(
                        at,
                        SemanticError::ImageQualifierDropped(formal_name.clone(), word),
                    );
                    ok = false;
                }
            }
        }
        ok
    }

    /// Checks `out`/`inout` arguments: l-values, not read-only.
    pub(super) fn verify_parameter_modes(
        &mut self,
        candidate: &Candidate,
        values: &[Handle<hir::Expr>],
        args: &[ast::Expr],
    ) -> bool {
        let mut ok = true;
        for (index, ((_, dir), value)) in candidate.params.iter().zip(values).enumerate() {
            let mode = match dir {
                ParamDirection::In => continue,
                ParamDirection::Out => "out",
                ParamDirection::InOut => "inout",
            };
            let param_name = match &candidate.source {
                CandidateSource::User(f, i) => self.module.functions[*f].signatures[*i]
                    .parameters
                    .get(index)
                    .map(|p| self.module.variables[*p].name.clone())
                    .unwrap_or_default(),
                CandidateSource::Builtin(_) | CandidateSource::Subroutine => String::new(),
            };
            let loc = args.get(index).map(|a| a.loc).unwrap_or_default();
            match self.lvalue_problem(*value) {
                None => {
                    if let Some(var) = self.root_variable(*value) {
                        self.module.variables[var].assigned = true;
                    }
                }
                Some(super::expr::LvalueProblem::ReadOnly(var)) => {
                    self.error(loc, SemanticError::OutParamReadOnly(mode, param_name, var));
                    ok = false;
                }
                Some(super::expr::LvalueProblem::NotLvalue) => {
                    self.error(loc, SemanticError::OutParamNotLvalue(mode, param_name));
                    ok = false;
                }
            }
        }
        ok
    }

    /// The HIR function standing for built-in `name`, with the signature of
    /// `sig` added on first use.
    fn builtin_function(
        &mut self,
        name: &str,
        sig: &BuiltinSignature,
    ) -> (Handle<Function>, usize) {
        let function = match self.builtin_functions.get(name) {
            Some(f) => *f,
            None => {
                let f = self.module.functions.append(Function {
                    name: name.to_string(),
                    signatures: Vec::new(),
                });
                self.builtin_functions.insert(name.to_string(), f);
                self.module.items.push(Item::Function(f));
                f
            }
        };
        if let Some(index) = self.module.functions[function]
            .signatures
            .iter()
            .position(|s| s.builtin == Some(sig.id))
        {
            return (function, index);
        }
        let mut parameters = Vec::new();
        for (i, (ty, dir)) in sig.parameters.iter().enumerate() {
            let mode = match dir {
                ParamDirection::In => VarMode::FunctionIn,
                ParamDirection::Out => VarMode::FunctionOut,
                ParamDirection::InOut => VarMode::FunctionInout,
            };
            let var = self.new_variable(
                Variable::new(format!("param{i}"), ty.clone(), mode),
                SourceLoc::default(),
            );
            parameters.push(var);
        }
        self.module.functions[function].signatures.push(Signature {
            return_type: sig.return_type.clone(),
            parameters,
            body: Vec::new(),
            is_defined: true,
            builtin: Some(sig.id),
        });
        (
            function,
            self.module.functions[function].signatures.len() - 1,
        )
    }

    /// The value of a constant-foldable built-in with constant arguments.
    fn fold_builtin_call(
        &mut self,
        sig: &BuiltinSignature,
        values: &[Handle<hir::Expr>],
        loc: SourceLoc,
    ) -> Option<Handle<hir::Expr>> {
        if !sig.constant_foldable || !self.at_least(120, 100) {
            return None;
        }
        let mut args = Vec::new();
        for (value, (ty, _)) in values.iter().zip(sig.parameters) {
            let converted = self.implicit_convert(*value, ty, loc)?;
            let constant = self.evaluate(converted)?;
            args.push(self.constant(constant, ty.clone(), loc));
        }
        let expanded = builtins::expand_value(sig.id, &mut self.module, &args)?;
        let value = self.evaluate(expanded)?;
        Some(self.constant(value, sig.return_type.clone(), loc))
    }

    /// Emits the call statement and returns the result value.
    pub(super) fn generate_call(
        &mut self,
        function: Handle<Function>,
        signature: usize,
        candidate: &Candidate,
        values: Vec<Handle<hir::Expr>>,
        name: &str,
        loc: SourceLoc,
    ) -> Handle<hir::Expr> {
        let mut actuals = Vec::new();
        let mut copy_back: Vec<(Handle<hir::Expr>, Handle<Variable>)> = Vec::new();
        for ((param_ty, dir), value) in candidate.params.iter().zip(values) {
            match dir {
                ParamDirection::In => {
                    let converted = self.implicit_convert(value, param_ty, loc).unwrap_or(value);
                    actuals.push(converted);
                }
                ParamDirection::Out | ParamDirection::InOut => {
                    // The l-value is evaluated before the call (GLSL 1.20
                    // §6.1.1): `f(i, a[i])` writes back to the element `i`
                    // named at the call, whatever `f` does to `i`.
                    let value = self.freeze_lvalue_indices(value, loc);
                    let direct = &self.ty(value) == param_ty
                        && !matches!(
                            self.module.exprs.get(value).map(|e| &e.kind),
                            Some(ExprKind::Swizzle(..))
                        );
                    if direct {
                        actuals.push(value);
                    } else {
                        let tmp = self.temporary("outparam_tmp", param_ty.clone(), loc);
                        if *dir == ParamDirection::InOut {
                            let dst = self.var_ref(tmp, loc);
                            let current = self.clone_expr(value);
                            self.emit_assign(dst, current, loc);
                        }
                        actuals.push(self.var_ref(tmp, loc));
                        copy_back.push((value, tmp));
                    }
                }
            }
        }
        let return_type = candidate.return_type.clone();
        let (return_deref, result) = if return_type == Type::Void {
            (None, None)
        } else {
            let tmp = self.temporary(&[name, "_retval"].concat(), return_type.clone(), loc);
            (Some(self.var_ref(tmp, loc)), Some(tmp))
        };
        self.emit(
            Stmt::Call {
                function,
                signature,
                return_deref,
                args: actuals,
            },
            loc,
        );
        for (dst, tmp) in copy_back {
            let value = self.var_ref(tmp, loc);
            let dst_ty = self.ty(dst);
            let converted = match dst_ty.scalar_kind() {
                Some(kind) => self.convert_kind(value, kind, loc),
                None => value,
            };
            self.emit_assign(dst, converted, loc);
        }
        match result {
            Some(tmp) => self.var_ref(tmp, loc),
            None => self.add_expr(
                ExprKind::Constant(hir::Constant::Components(Default::default())),
                Type::Void,
                loc,
            ),
        }
    }

    /// `value` (an l-value) with every non-constant array index copied into a
    /// temporary now, so that later uses of the l-value name the same element;
    /// `value` itself when it has no such index.
    fn freeze_lvalue_indices(
        &mut self,
        value: Handle<hir::Expr>,
        loc: SourceLoc,
    ) -> Handle<hir::Expr> {
        let Some(node) = self.module.exprs.get(value).cloned() else {
            return value;
        };
        let kind = match node.kind {
            ExprKind::ArrayRef(base, index) => {
                let frozen_base = self.freeze_lvalue_indices(base, loc);
                let is_constant = matches!(
                    self.module.exprs.get(index).map(|e| &e.kind),
                    Some(ExprKind::Constant(_))
                );
                if is_constant && frozen_base == base {
                    return value;
                }
                let frozen_index = if is_constant {
                    index
                } else {
                    let tmp = self.temporary("lvalue_index", self.ty(index), loc);
                    let dst = self.var_ref(tmp, loc);
                    self.emit_assign(dst, index, loc);
                    self.var_ref(tmp, loc)
                };
                ExprKind::ArrayRef(frozen_base, frozen_index)
            }
            ExprKind::RecordRef(base, field) => {
                let frozen = self.freeze_lvalue_indices(base, loc);
                if frozen == base {
                    return value;
                }
                ExprKind::RecordRef(frozen, field)
            }
            ExprKind::Swizzle(base, swizzle) => {
                let frozen = self.freeze_lvalue_indices(base, loc);
                if frozen == base {
                    return value;
                }
                ExprKind::Swizzle(frozen, swizzle)
            }
            _ => return value,
        };
        self.add_expr(kind, node.ty, loc)
    }

    /// Any call expression: constructor or function.
    pub fn call_expr(
        &mut self,
        callee: &ast::Callee,
        args: &[ast::Expr],
        loc: SourceLoc,
        want_value: bool,
    ) -> Handle<hir::Expr> {
        match callee {
            ast::Callee::Type(spec) => {
                // `u[i](args)` through a subroutine uniform array.
                if let (ast::TypeName::Named(ident), Some(array)) = (&spec.ty, &spec.array) {
                    if let Some(uniform) = self.subroutine_uniform_named(&ident.name) {
                        return self.subroutine_call(uniform, &array.dimensions, args, loc);
                    }
                }
                let ty = self.resolve_type(spec);
                self.constructor(ty, spec, args, loc)
            }
            ast::Callee::Name(ident) => {
                if let Some(uniform) = self.subroutine_uniform_named(&ident.name) {
                    return self.subroutine_call(uniform, &[], args, loc);
                }
                if let Some(entry) = self.scope.lookup(&ident.name) {
                    if let Some(ty) = entry.ty.clone() {
                        let spec = ast::TypeSpecifier {
                            ty: ast::TypeName::Named(ident.clone()),
                            array: None,
                            loc: ident.loc,
                        };
                        return self.constructor(ty, &spec, args, loc);
                    }
                }
                self.function_call(ident, args, loc, want_value)
            }
        }
    }
}
