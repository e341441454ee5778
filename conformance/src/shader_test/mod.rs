//! piglit `.shader_test` files: the parser ([`parse`], with [`require`],
//! [`vertex_data`], [`command`] and the helpers [`lex`] and [`gl_enum`]), a
//! deterministic text dump of a parsed file ([`dump`]), a summary of a parse
//! over many files ([`stats`]), what rgl supports as seen by a test ([`support`]),
//! the `--link-only` runner ([`link_only`]), the program of a file for tools and
//! corpus sweeps ([`program`]: `rglc`, benchmarks, the link tests), the command
//! executor that the
//! full runner drives over an abstract GL-like context ([`exec`]), the
//! texture images of `texture` commands ([`textures`]), what GL calls the
//! runner's data turns into ([`gl_plan`]), the one implementation of that
//! context ([`gl_runner`]) over the glow-shaped GL calls of [`gl_api`], with
//! adapters for rgl ([`rgl_context`]) and the host's GL ([`host`]), the
//! per-file child processes ([`isolate`]) and the side-by-side report of `--peer host`
//! ([`peer`]). [`includes`] reads the named strings of `[shader include]`.

pub mod command;
pub mod dump;
pub mod exec;
pub mod gl_api;
pub mod gl_enum;
pub mod gl_plan;
pub mod gl_runner;
pub mod host;
pub mod includes;
pub mod isolate;
pub mod lex;
pub mod link_only;
pub mod parse;
pub mod peer;
pub mod program;
pub mod require;
pub mod rgl_context;
pub mod stats;
pub mod storage;
pub mod support;
pub mod textures;
pub mod vertex_data;

use std::path::Path;

pub use parse::{parse, ParseError, Parsed, ShaderTest};

/// True for `*.shader_test` files.
pub fn is_candidate(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "shader_test")
}

/// Reads a test file as text. Invalid UTF-8 is replaced (and reported in the
/// second value) rather than refused: the sections that matter are ASCII.
pub fn read(path: &Path) -> std::io::Result<(String, bool)> {
    let bytes = std::fs::read(path)?;
    Ok(match String::from_utf8(bytes) {
        Ok(text) => (text, false),
        Err(e) => (String::from_utf8_lossy(e.as_bytes()).into_owned(), true),
    })
}
