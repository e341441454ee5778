//! Link errors and the link info log.
//!
//! Each [`LinkError`] renders as one line of Mesa's link log (`error: ...`); the
//! templates follow Mesa's linker messages so tools that grep logs behave.

use std::fmt;

/// One link error. The linker reports every error it finds, not only the first.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LinkError {
    /// A shader given to the linker did not compile.
    #[error("linking with uncompiled/unspecialized shader")]
    Uncompiled,
    /// No shaders at all.
    #[error("no shaders attached to the program")]
    NoShaders,
    /// A stage of the program failed to convert or optimise; names the stage and why.
    #[error("{stage} shader: {message}")]
    Pipeline {
        /// Stage name (`vertex`, `geometry`, `fragment`).
        stage: &'static str,
        /// What failed.
        message: String,
    },
}

/// The info log of a failed link: every error, then any warnings.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LinkLog {
    /// Errors in the order they were found.
    pub errors: Vec<LinkError>,
    /// Warnings.
    pub warnings: Vec<String>,
}

impl LinkLog {
    /// A log holding one error.
    pub fn error(e: LinkError) -> LinkLog {
        LinkLog {
            errors: vec![e],
            warnings: Vec::new(),
        }
    }
}

impl fmt::Display for LinkLog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for e in &self.errors {
            writeln!(f, "error: {e}")?;
        }
        for w in &self.warnings {
            writeln!(f, "warning: {w}")?;
        }
        Ok(())
    }
}

impl std::error::Error for LinkLog {}
