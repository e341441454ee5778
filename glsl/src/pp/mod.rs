//! The GLSL preprocessor, faithful to Mesa's glcpp: directives, macros,
//! conditionals, `#version`/`#extension`/`#pragma`/`#line`, predefined macros.
//! Output is a token stream (with source locations) for [`crate::parse`].

use crate::diag::Diagnostic;
use crate::span::SourceLoc;
use crate::version::{Stage, Version};

/// Preprocessor errors and warnings.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PpError {
    /// `#error` directive.
    #[error("#error {0}")]
    ErrorDirective(String),
}

/// Options for one preprocessing run.
#[derive(Clone, Debug)]
pub struct PpOptions {
    /// The stage being compiled (extension defines can depend on it).
    pub stage: Stage,
    /// Forces the version (`RGL_GLSL_VERSION_OVERRIDE`), replacing `#version`.
    pub version_override: Option<u16>,
}

/// Kind of a preprocessed token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// Identifier or keyword.
    Identifier,
    /// Integer literal as written (`12`, `0x1F`, `7u`).
    IntLiteral,
    /// Floating literal as written (`1.0`, `2e3f`, `1.5lf`).
    FloatLiteral,
    /// Operator or punctuation (`+=`, `(`, `;`, …).
    Punct,
}

/// One output token.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    /// Kind.
    pub kind: TokenKind,
    /// Exact spelling.
    pub text: String,
    /// Location (for macro expansions: the location of the invocation).
    pub loc: SourceLoc,
}

/// How an `#extension` directive asked for an extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExtensionBehavior {
    /// `require`
    Require,
    /// `enable`
    Enable,
    /// `warn`
    Warn,
    /// `disable`
    Disable,
}

/// One `#extension name : behavior` directive.
#[derive(Clone, Debug, PartialEq)]
pub struct ExtensionDirective {
    /// Extension name or `all`.
    pub name: String,
    /// Behaviour.
    pub behavior: ExtensionBehavior,
    /// Location of the directive.
    pub loc: SourceLoc,
}

/// Result of preprocessing.
#[derive(Clone, Debug)]
pub struct PpOutput {
    /// Tokens for the parser.
    pub tokens: Vec<Token>,
    /// The effective version (from `#version`, the override, or 1.10).
    pub version: Version,
    /// Every `#extension` directive, in order.
    pub extensions: Vec<ExtensionDirective>,
    /// Errors and warnings.
    pub diagnostics: Vec<Diagnostic>,
}

/// Preprocesses one shader source.
pub fn preprocess(source: &str, options: &PpOptions) -> PpOutput {
    let _ = (source, options);
    PpOutput {
        tokens: Vec::new(),
        version: Version::DEFAULT,
        extensions: Vec::new(),
        diagnostics: Vec::new(),
    }
}
