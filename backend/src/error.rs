//! The driver's error type: every failure a driver call can report.

use thiserror::Error;

/// Errors returned by [`crate::Driver`] calls and shader execution.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum Error {
    /// The driver cannot do what was asked (names the feature).
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// A handle that does not name a live object of the right kind.
    #[error("invalid {kind} handle {id}")]
    InvalidHandle {
        /// Object kind (`texture`, `shader`, ...).
        kind: &'static str,
        /// The handle value.
        id: u32,
    },
    /// An argument outside what the driver accepts (names it and why).
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
    /// A size or count that would exceed the driver's limits or memory budget.
    #[error("too large: {0}")]
    TooLarge(String),
    /// A shader ran past its instruction budget (an endless loop, for example).
    #[error("shader exceeded its instruction budget of {0}")]
    BudgetExceeded(u64),
    /// A shader failed at run time for another reason.
    #[error("shader execution failed: {0}")]
    Exec(String),
}

/// Result alias for driver calls.
pub type Result<T> = std::result::Result<T, Error>;
