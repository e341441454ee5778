//! The error type of the examples and their harness.

use std::path::PathBuf;

/// Why an example could not start, draw or save its output.
#[derive(Debug, thiserror::Error)]
pub enum ExampleError {
    /// A bad command line.
    #[error("{0}")]
    Args(String),
    /// A shader failed to compile; `log` is its info log.
    #[error("{stage} shader of {app} failed to compile:\n{log}")]
    Compile {
        /// The app.
        app: &'static str,
        /// "vertex" or "fragment".
        stage: &'static str,
        /// The shader info log.
        log: String,
    },
    /// A program failed to link; `log` is its info log.
    #[error("program of {app} failed to link:\n{log}")]
    Link {
        /// The app.
        app: &'static str,
        /// The program info log.
        log: String,
    },
    /// A GL call recorded an error.
    #[error("{what}: GL error 0x{code:04X}{}", detail.as_deref().map(|d| format!(" ({d})")).unwrap_or_default())]
    Gl {
        /// What the app was doing.
        what: String,
        /// The `glGetError` code.
        code: u32,
        /// The context's explanation of a failed draw, if any.
        detail: Option<String>,
    },
    /// An object could not be created.
    #[error("{what}: {source}")]
    Create {
        /// The call that failed.
        what: &'static str,
        /// Why.
        source: rgl_state::CreateError,
    },
    /// The named driver does not exist or cannot run on this host.
    #[error("driver: {0}")]
    Driver(String),
    /// A uniform the app sets is not active in its program.
    #[error("get_uniform_location: `{name}` is not an active uniform")]
    NoUniform {
        /// The uniform's name.
        name: String,
    },
    /// Writing the PNG failed.
    #[error("cannot write {path}: {msg}")]
    Png {
        /// The output file.
        path: PathBuf,
        /// What went wrong.
        msg: String,
    },
    /// `App::frame` was called before a successful `App::init`.
    #[error("{0}: frame drawn before init")]
    NotInitialized(&'static str),
    /// Opening or presenting to the window failed.
    #[error("window: {0}")]
    Window(String),
}
