//! Corpus side of translation validation: finding `.shader_test` files and turning
//! their programs into compiled shaders the way piglit's shader_runner does (read by
//! the conformance crate's parser: `#version` from `[require]` when a section has
//! none; `[vertex shader passthrough]` is the built-in pass-through vertex shader).

use std::path::{Path, PathBuf};

use rgl_conformance::shader_test::program;
use rgl_glsl::{compile, CompileOptions, CompiledShader, Stage};

/// Every `.shader_test` under `dir`, recursively, sorted.
pub fn shader_tests(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "shader_test") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The shaders of a `.shader_test` text (the file at `path`) as (stage, source), as
/// piglit's shader_runner compiles them (`rgl_conformance::shader_test::program`, the
/// one reader of the format); empty when the file has no program rgl can build.
pub fn sections(text: &str, path: &Path) -> Vec<(Stage, String)> {
    match program::from_text(text, path) {
        Ok(shaders) => shaders.into_iter().map(|s| (s.stage, s.source)).collect(),
        Err(_) => Vec::new(),
    }
}

/// Compiles every section; `Err` names the first section that failed.
pub fn compile_all(sections: &[(Stage, String)]) -> Result<Vec<CompiledShader>, String> {
    let mut out = Vec::new();
    for (stage, src) in sections {
        let shader = compile(src, &CompileOptions::new(*stage));
        if !shader.success() {
            let first = shader
                .info_log
                .to_string()
                .lines()
                .next()
                .unwrap_or("")
                .to_string();
            return Err(format!("{stage:?}: {first}"));
        }
        out.push(shader);
    }
    Ok(out)
}
