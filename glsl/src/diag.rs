//! Diagnostics and info logs. Each stage has its own typed error enum
//! ([`crate::pp::PpError`], [`crate::parse::SyntaxError`],
//! [`crate::check::SemanticError`]); [`Error`] wraps them, and a [`Diagnostic`]
//! pairs one with its severity and [`SourceLoc`]. [`InfoLog`] renders them the way
//! Mesa does: `0:12(5): error: message`.

use std::fmt;

use crate::span::SourceLoc;

/// Error or warning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// Compilation fails.
    Error,
    /// Reported, compilation continues.
    Warning,
}

/// Any front-end diagnostic message.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Error {
    /// From the preprocessor.
    #[error(transparent)]
    Preprocessor(#[from] crate::pp::PpError),
    /// From the parser.
    #[error(transparent)]
    Syntax(#[from] crate::parse::SyntaxError),
    /// From semantic checking.
    #[error(transparent)]
    Semantic(#[from] crate::check::SemanticError),
    /// From qualifier validation.
    #[error(transparent)]
    Qualifier(#[from] crate::check::qualifiers::QualifierError),
    /// The source is not valid UTF-8.
    #[error("invalid UTF-8 in shader source")]
    InvalidUtf8,
    /// A resource limit of [`crate::limits`] was hit.
    #[error("{what} exceeds the limit of {limit}")]
    Limit {
        /// What overflowed.
        what: &'static str,
        /// The limit.
        limit: usize,
    },
}

/// One located diagnostic.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// Where.
    pub loc: SourceLoc,
    /// What.
    pub error: Error,
}

impl Diagnostic {
    /// An error at `loc`.
    pub fn error(loc: SourceLoc, error: impl Into<Error>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            loc,
            error: error.into(),
        }
    }
    /// A warning at `loc`.
    pub fn warning(loc: SourceLoc, error: impl Into<Error>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            loc,
            error: error.into(),
        }
    }
    /// True for errors.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
    /// True for an error about a construct the language allows but rgl does
    /// not implement (as opposed to an error in the shader).
    pub fn is_not_implemented(&self) -> bool {
        self.is_error()
            && matches!(
                self.error,
                Error::Semantic(crate::check::SemanticError::Unsupported(_))
                    | Error::Qualifier(crate::check::qualifiers::QualifierError::NotImplemented(_))
                    | Error::Syntax(crate::parse::SyntaxError::Unsupported { .. })
            )
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let word = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(f, "{}: {}: {}", self.loc, word, self.error)
    }
}

/// The diagnostics of one compile, in the order they were found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct InfoLog {
    /// All diagnostics.
    pub diagnostics: Vec<Diagnostic>,
}

impl InfoLog {
    /// True if any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
    /// Appends diagnostics.
    pub fn extend(&mut self, diags: impl IntoIterator<Item = Diagnostic>) {
        self.diagnostics.extend(diags);
    }
}

impl fmt::Display for InfoLog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in &self.diagnostics {
            writeln!(f, "{d}")?;
        }
        Ok(())
    }
}
