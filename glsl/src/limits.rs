//! Resource limits that keep hostile input from exhausting the stack, memory or
//! time. Each limit is checked where the resource is consumed and reported as a
//! located error, never a panic.

/// Deepest nesting of parentheses, brackets and braces the parser accepts.
/// The parser recurses per level; this keeps the stack well under 1 MB.
pub const MAX_NESTING_DEPTH: usize = 256;

/// Deepest nesting of `#if`-family groups.
pub const MAX_CONDITIONAL_DEPTH: usize = 256;

/// Deepest macro-in-macro expansion before the preprocessor gives up.
pub const MAX_MACRO_EXPANSION_DEPTH: usize = 256;

/// Maximum number of tokens one shader may expand to (bounds macro blow-up).
pub const MAX_EXPANDED_TOKENS: usize = 4_000_000;

/// Largest array size accepted in a declaration (elements).
pub const MAX_ARRAY_SIZE: u32 = 1 << 24;

/// Maximum length of an identifier, in bytes.
pub const MAX_IDENTIFIER_LEN: usize = 1024;

/// Maximum number of loop iterations the constant evaluator will unroll, and the
/// maximum number of elements a constant value may hold.
pub const MAX_CONSTANT_ELEMENTS: usize = 1 << 20;
