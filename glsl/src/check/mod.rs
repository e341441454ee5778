//! Semantic checking: AST → GLSL IR (HIR). Resolves names and types, applies the
//! implicit conversions, resolves overloads, folds constant expressions and
//! reports every semantic error with its location.

pub mod qualifiers;

use crate::ast::TranslationUnit;
use crate::diag::Diagnostic;
use crate::hir::Module;
use crate::pp::ExtensionDirective;
use crate::version::{Stage, Version};

/// Semantic errors.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SemanticError {
    /// A name was used that is not declared.
    #[error("`{0}' undeclared")]
    Undeclared(String),
}

/// What the checker needs to know besides the tree.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// Language version and profile.
    pub version: Version,
    /// Stage.
    pub stage: Stage,
    /// `#extension` directives of the shader.
    pub extensions: Vec<ExtensionDirective>,
}

/// Checks a translation unit and builds its HIR.
pub fn check(unit: &TranslationUnit, options: &CheckOptions) -> (Module, Vec<Diagnostic>) {
    let _ = unit;
    let module = Module {
        version: Some(options.version),
        stage: Some(options.stage),
        ..Module::default()
    };
    (module, Vec::new())
}
