//! The program of a `.shader_test` file for the tools and corpus sweeps that only
//! compile and link it (`rglc`, the link benchmarks, the link and lanes tests): the
//! file read and parsed by [`super::parse`], its shader sections turned into the
//! exact sources piglit's shader_runner compiles ([`super::link_only::program_shaders`]:
//! `#version` from `[require]`, `[vertex shader passthrough]` as [`passthrough_vs`],
//! `[<stage> shader file]` read), and compiled. This is the one reader of the format;
//! the product crates have none.

use std::path::Path;

use rgl_glsl::{compile, CompileOptions, CompiledShader};

use super::link_only::{program_shaders, NotRunnable, ProgramShader};

/// Source of `[vertex shader passthrough]` for a GLSL requirement, as piglit
/// builds it: `in` from 1.30 (and ES 3.00), `attribute` below.
pub fn passthrough_vs(version: u16, es: bool) -> String {
    let qualifier = if version >= 130 && version != 100 {
        "in"
    } else {
        "attribute"
    };
    let es = if es && version >= 300 { " es" } else { "" };
    format!(
        "#version {version}{es}\n{qualifier} vec4 piglit_vertex;\nvoid main() {{ gl_Position = piglit_vertex; }}\n"
    )
}

/// The shaders of the program in `text` (the file at `path`, which `[... shader
/// file]` sections are relative to), or why the file cannot be built.
pub fn from_text(text: &str, path: &Path) -> Result<Vec<ProgramShader>, NotRunnable> {
    let parsed = super::parse(text);
    program_shaders(&parsed.test, path)
}

/// [`from_text`] on the file at `path` (invalid UTF-8 replaced, like the runner).
pub fn load(path: &Path) -> Result<Vec<ProgramShader>, NotRunnable> {
    let (text, _) = super::read(path)
        .map_err(|e| NotRunnable::Error(format!("cannot read {}: {e}", path.display())))?;
    from_text(&text, path)
}

/// Compiles every shader as its stage, in order.
pub fn compile_all(shaders: &[ProgramShader]) -> Vec<CompiledShader> {
    shaders
        .iter()
        .map(|s| compile(&s.source, &CompileOptions::new(s.stage)))
        .collect()
}
