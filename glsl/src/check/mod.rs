//! Semantic checking: AST → GLSL IR (HIR), Mesa's `ast_to_hir`. Resolves names
//! and types, applies the implicit conversions, resolves overloads, folds
//! constant expressions and reports every semantic error with its location.
//!
//! This file owns the error enum, the options, the entry point and the
//! [`Checker`] state shared by the other files of the module:
//! `scope` (symbol table), `types` (type specifiers, structs, array sizes),
//! `decl` (declarations and blocks), `function` (prototypes, definitions, calls
//! and overload resolution), `expr` (operators and conversions), `constructor`,
//! `access` (swizzles, fields, indexing, l-values), `stmt` (statements and
//! control flow) and `lower_ctx` (helpers that emit HIR).

mod access;
mod atomic_counters;
mod constructor;
mod decl;
mod enhanced;
mod errors;
mod expr;
mod function;
mod initializer;
mod lower_ctx;
pub mod qualifiers;
mod scope;
mod stmt;
mod subroutine;
pub(crate) mod types;

use crate::hash::FxHashMap;

use crate::arena::Handle;
use crate::ast::{self, TranslationUnit};
use crate::diag::Diagnostic;
use crate::hir::{self, ExprKind, Function, Item, Module, Stmt, Variable};
use crate::pp::{ExtensionBehavior, ExtensionDirective};
use crate::span::SourceLoc;
use crate::types::Type;
use crate::version::{Stage, Version};

pub use errors::SemanticError;

/// What the checker needs to know besides the tree.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// Language version and profile.
    pub version: Version,
    /// Stage.
    pub stage: Stage,
    /// `#extension` directives of the shader.
    pub extensions: Vec<ExtensionDirective>,
    /// `#pragma STDGL invariant(all)` was seen: every output of the stage is
    /// `invariant` (the preprocessor rejects the pragma in fragment shaders).
    pub invariant_all: bool,
    /// Number of tokens of the translation unit; only sizes the HIR arenas up
    /// front so that checking does not grow them step by step (0: no hint).
    pub token_count: usize,
}

/// Checks a translation unit and builds its HIR.
pub fn check(unit: &TranslationUnit, options: &CheckOptions) -> (Module, Vec<Diagnostic>) {
    let mut checker = Checker::new(options);
    checker.check_unit(unit);
    let (mut module, diagnostics) = checker.finish();
    if options.invariant_all {
        for (_, var) in module.variables.iter_mut() {
            if var.mode == crate::hir::VarMode::ShaderOut {
                var.invariant = true;
            }
        }
    }
    (module, diagnostics)
}

/// Sizes the module's arenas (and their location tables) and its item list for a
/// unit of `tokens` tokens, from the ratios measured over shader-db, so that the
/// checker appends without reallocating and copying them as they grow. Per
/// token, median and 90th percentile: expressions 0.46 and 0.59, statements 0.15
/// and 0.19, variables (parameters and temporaries included) 0.14 and 0.20,
/// functions 0.015 and 0.029, items 0.07 and 0.20.
fn reserve_for_tokens(module: &mut Module, tokens: usize) {
    let exprs = tokens * 5 / 8;
    let stmts = tokens / 5;
    let variables = tokens / 5;
    module.exprs.reserve(exprs);
    module.expr_locs.reserve(exprs);
    module.stmts.reserve(stmts);
    module.stmt_locs.reserve(stmts);
    module.variables.reserve(variables);
    module.var_locs.reserve(variables);
    module.functions.reserve(tokens / 32);
    module.items.reserve(tokens / 8);
}

/// What a `break`/`continue` refers to.
#[derive(Clone, Debug)]
pub(crate) enum Breakable {
    /// A loop; `step` is re-emitted before `continue` in `for` loops and
    /// `cond` (with a `!cond → break`) in `do`-`while` loops, as Mesa does.
    Loop {
        step: Option<ast::Expr>,
        do_while_cond: Option<ast::Expr>,
    },
    /// A switch statement; `continue_flag` is created on the first `continue`
    /// met directly inside it (the switch is a loop in HIR).
    Switch {
        continue_flag: Option<Handle<Variable>>,
        flag_insert_at: usize,
    },
}

/// The function whose body is being checked.
#[derive(Clone, Debug)]
pub(crate) struct FunctionCtx {
    /// Its name.
    pub name: String,
    /// Its return type.
    pub return_type: Type,
}

/// The state of one check.
pub(crate) struct Checker<'a> {
    /// The options.
    pub options: &'a CheckOptions,
    /// Version shorthand.
    pub version: Version,
    /// Stage shorthand.
    pub stage: Stage,
    /// Names of enabled extensions (`enable`, `require` or `warn`).
    pub extensions: Vec<String>,
    /// The module being built.
    pub module: Module,
    /// Diagnostics found so far.
    pub diags: Vec<Diagnostic>,
    /// While > 0, diagnostics are dropped (re-emission of `for` steps).
    pub mute: u32,
    /// While > 0, the target of a plain assignment is being checked: its
    /// variables are written, not read (the `writeonly` rule).
    pub writing_lhs: u32,
    /// Scoped symbol table.
    pub scope: scope::Scopes,
    /// The statement list being filled.
    pub body: Vec<Handle<Stmt>>,
    /// Statements of global initializers, moved to the start of `main`.
    pub global_inits: Vec<Handle<Stmt>>,
    /// The current function, if any.
    pub function: Option<FunctionCtx>,
    /// Enclosing loops and switches, innermost last.
    pub breakables: Vec<Breakable>,
    /// One HIR function per referenced built-in name.
    pub builtin_functions: FxHashMap<String, Handle<Function>>,
    /// Built-in variables already added to the module.
    pub builtin_variables: FxHashMap<String, Handle<Variable>>,
    /// How many built-in variable items lead `module.items`.
    pub builtin_items: usize,
    /// Nesting depth of expression/statement recursion.
    pub depth: usize,
    /// The `main` function, once defined.
    pub main_function: Option<Handle<Function>>,
    /// A `return` was seen in the current function.
    pub found_return: bool,
    /// Size of the first sized geometry-shader input array.
    pub gs_input_size: Option<u32>,
    /// Declared interface block names with their storage word.
    pub interface_names: Vec<(String, String)>,
    /// Packing of blocks without an explicit one (`layout(std140) uniform;`).
    pub default_packing: hir::BlockPacking,
    /// Matrix layout of blocks without an explicit one.
    pub default_matrix_layout: hir::MatrixLayout,
    /// Default packing of shader storage blocks (`layout(std430) buffer;`).
    pub default_buffer_packing: hir::BlockPacking,
    /// Atomic counters: per binding, the next default offset (GLSL 4.20
    /// §4.4.4.6), and every counter's `(binding, start, end, name)` range for
    /// the overlap rule.
    pub atomic_next_offset: FxHashMap<i32, u32>,
    /// See [`Self::atomic_next_offset`].
    pub atomic_ranges: Vec<(i32, u32, u32, String)>,
    /// Default matrix layout of shader storage blocks.
    pub default_buffer_matrix_layout: hir::MatrixLayout,
    /// Layout of the first `gl_FragCoord` redeclaration (origin_upper_left,
    /// pixel_center_integer).
    pub fragcoord_layout: Option<(bool, bool)>,
    /// Return precision of each user signature (ES).
    pub return_precisions: FxHashMap<(Handle<Function>, usize), Option<crate::ast::Precision>>,
    /// Names of interface blocks; they clash with other global names.
    pub block_names: Vec<String>,
    /// Values of the non-literal layout values of the qualifier list being
    /// resolved (see [`Checker::resolve_qualifiers`]).
    pub layout_values: Vec<(SourceLoc, qualifiers::LayoutValue)>,
    /// Transform feedback layout state of the shader (GLSL 4.40 §4.4.2.1).
    pub xfb: enhanced::XfbState,
    /// Subroutine declarations so far.
    pub subroutines: subroutine::State,
}

impl<'a> Checker<'a> {
    fn new(options: &'a CheckOptions) -> Self {
        let mut extensions: Vec<String> = Vec::new();
        for directive in &options.extensions {
            match directive.behavior {
                ExtensionBehavior::Disable => extensions.retain(|e| e != &directive.name),
                _ => {
                    if !extensions.contains(&directive.name) {
                        extensions.push(directive.name.clone());
                    }
                }
            }
        }
        let mut module = Module {
            version: Some(options.version),
            stage: Some(options.stage),
            enabled_extensions: extensions.clone(),
            ..Module::default()
        };
        reserve_for_tokens(&mut module, options.token_count);
        Checker {
            options,
            version: options.version,
            stage: options.stage,
            extensions,
            module,
            diags: Vec::new(),
            mute: 0,
            writing_lhs: 0,
            scope: scope::Scopes::new(options.version),
            body: Vec::new(),
            global_inits: Vec::new(),
            function: None,
            breakables: Vec::new(),
            builtin_functions: FxHashMap::default(),
            builtin_variables: FxHashMap::default(),
            builtin_items: 0,
            depth: 0,
            main_function: None,
            found_return: false,
            gs_input_size: None,
            interface_names: Vec::new(),
            default_packing: hir::BlockPacking::default(),
            default_matrix_layout: hir::MatrixLayout::default(),
            default_buffer_packing: hir::BlockPacking::default(),
            atomic_next_offset: FxHashMap::default(),
            atomic_ranges: Vec::new(),
            default_buffer_matrix_layout: hir::MatrixLayout::default(),
            fragcoord_layout: None,
            block_names: Vec::new(),
            return_precisions: FxHashMap::default(),
            layout_values: Vec::new(),
            xfb: enhanced::XfbState::default(),
            subroutines: subroutine::State::default(),
        }
    }

    /// Reports an error.
    pub fn error(&mut self, loc: SourceLoc, error: SemanticError) {
        if self.mute == 0 {
            self.diags.push(Diagnostic::error(loc, error));
        }
    }

    /// Reports a warning.
    pub fn warning(&mut self, loc: SourceLoc, error: SemanticError) {
        if self.mute == 0 {
            self.diags.push(Diagnostic::warning(loc, error));
        }
    }

    /// Adds diagnostics produced by a helper (qualifier rules).
    pub fn extend_diags(&mut self, diags: Vec<Diagnostic>) {
        if self.mute == 0 {
            self.diags.extend(diags);
        }
    }

    /// True if the version is desktop ≥ `desktop` or ES ≥ `es` (0 = never).
    pub fn at_least(&self, desktop: u16, es: u16) -> bool {
        self.version.at_least(desktop, es)
    }

    /// True if the last `#extension` naming `name` (or `all`) disables it.
    pub fn extension_disabled(&self, name: &str) -> bool {
        self.options
            .extensions
            .iter()
            .rev()
            .find(|d| d.name == name || d.name == "all")
            .is_some_and(|d| d.behavior == ExtensionBehavior::Disable)
    }

    /// True if `name` is enabled by `#extension` (or `all`).
    pub fn has_extension(&self, name: &str) -> bool {
        self.extensions.iter().any(|e| e == name || e == "all")
    }

    /// True in a compute shader of a language that has compute shaders
    /// (GLSL 4.30, GLSL ES 3.10 or `GL_ARB_compute_shader`).
    pub fn compute_stage(&self) -> bool {
        self.stage == Stage::Compute
            && (self.at_least(430, 310) || self.has_extension("GL_ARB_compute_shader"))
    }

    /// The built-in availability context.
    pub fn availability(&self) -> crate::builtins::Availability<'_> {
        crate::builtins::Availability {
            version: self.version,
            stage: self.stage,
            extensions: &self.extensions,
        }
    }

    /// The qualifier-rule context.
    pub fn qualifier_env(&self) -> qualifiers::QualifierEnv<'_> {
        qualifiers::QualifierEnv {
            version: self.version,
            stage: self.stage,
            extensions: &self.extensions,
            layout_values: &self.layout_values,
        }
    }

    fn check_unit(&mut self, unit: &TranslationUnit) {
        self.install_default_precisions();
        for item in &unit.items {
            match item {
                ast::ExternalDecl::Function(def) => self.function_definition(def),
                ast::ExternalDecl::Declaration(decl) => {
                    let mut stmts = std::mem::take(&mut self.body);
                    self.declaration(decl, true);
                    std::mem::swap(&mut stmts, &mut self.body);
                    self.global_inits.extend(stmts);
                }
            }
        }
        self.finish_subroutines();
        self.finish_globals();
        self.finish_xfb();
        self.detect_conflicting_assignments();
    }

    /// A fragment shader may not write `gl_FragColor` together with
    /// `gl_FragData` or a user-defined output.
    fn detect_conflicting_assignments(&mut self) {
        if self.stage != Stage::Fragment {
            return;
        }
        let mut frag_color = false;
        let mut frag_data = false;
        let mut user_output: Option<String> = None;
        for item in &self.module.items {
            let Item::Variable(var) = item else { continue };
            let Some(v) = self.module.variables.get(*var) else {
                continue;
            };
            if !v.assigned {
                continue;
            }
            match v.name.as_str() {
                "gl_FragColor" => frag_color = true,
                "gl_FragData" => frag_data = true,
                name if !name.starts_with("gl_") && v.mode == hir::VarMode::ShaderOut => {
                    user_output = Some(name.to_string())
                }
                _ => {}
            }
        }
        let conflict = match (frag_color, frag_data, user_output) {
            (true, true, _) => Some(("gl_FragColor", "gl_FragData".to_string())),
            (true, false, Some(user)) => Some(("gl_FragColor", user)),
            (false, true, Some(user)) => Some(("gl_FragData", user)),
            _ => None,
        };
        if let Some((builtin, other)) = conflict {
            self.error(
                SourceLoc::default(),
                SemanticError::ConflictingFragmentOutputs(builtin, other),
            );
        }
    }

    /// Moves global initializers to the start of `main` and runs the
    /// end-of-shader checks.
    fn finish_globals(&mut self) {
        if self.global_inits.is_empty() {
            return;
        }
        let inits = std::mem::take(&mut self.global_inits);
        for s in &inits {
            if let Some(&Stmt::Assign { lhs, rhs, .. }) = self.module.stmts.get(*s) {
                if let Some(&ExprKind::VarRef(v)) = self.module.exprs.get(lhs).map(|e| &e.kind) {
                    if self.module.initialized_globals.iter().all(|(g, _)| *g != v) {
                        let value = self.evaluate(rhs);
                        self.module.initialized_globals.push((v, value));
                    }
                }
            }
        }
        if let Some(main) = self.main_function {
            if let Some(function) = self.module.functions.get(main) {
                if let Some(index) = function.signatures.iter().position(|s| s.is_defined) {
                    let signature = &mut self.module.functions[main].signatures[index];
                    let mut body = inits;
                    body.append(&mut signature.body);
                    signature.body = body;
                    return;
                }
            }
        }
        // No `main` in this unit: keep the initializers in a function the linker
        // runs at the start of the linked `main` (not listed in `items`).
        self.module.functions.append(crate::hir::Function {
            name: crate::hir::GLOBAL_INIT_FUNCTION.to_string(),
            signatures: vec![crate::hir::Signature {
                return_type: crate::types::Type::Void,
                parameters: Vec::new(),
                body: inits,
                is_defined: true,
                builtin: None,
            }],
        });
    }

    fn finish(self) -> (Module, Vec<Diagnostic>) {
        (self.module, self.diags)
    }

    /// Adds a global variable item.
    pub fn add_global_item(&mut self, var: Handle<Variable>) {
        self.module.items.push(Item::Variable(var));
    }

    /// Adds a referenced built-in variable. Built-ins are declared ahead of
    /// the shader's own globals, in first-use order, as in Mesa's dumps.
    pub fn add_builtin_item(&mut self, var: Handle<Variable>) {
        let position = self.builtin_items.min(self.module.items.len());
        self.module.items.insert(position, Item::Variable(var));
        self.builtin_items = position + 1;
    }

    /// Adds a variable and records its location.
    pub fn new_variable(&mut self, var: Variable, loc: SourceLoc) -> Handle<Variable> {
        let handle = self.module.variables.append(var);
        self.module.var_locs.insert(handle, loc);
        handle
    }

    /// The type of an expression.
    #[inline]
    pub fn ty(&self, expr: Handle<hir::Expr>) -> Type {
        match self.module.exprs.get(expr) {
            Some(e) => e.ty.clone(),
            None => Type::Error,
        }
    }
}
