//! Every vertex and fragment shader of `../shared/corpus/shader-db` (real game
//! shaders) must compile. Sections are extracted from each `.shader_test` the way
//! piglit's shader_runner does: a section without `#version ` gets the
//! `[require]` block's GLSL version prepended.
//!
//! Shaders that need features beyond GL 3.3 would be listed in
//! [`BEYOND_GL33`] with their reason; the list is empty because every shader in
//! the corpus stays within GL 3.3. Without the corpus the test skips (with a
//! message), except under CI, where it fails.

mod common;

use std::path::{Path, PathBuf};

use rgl_glsl::{compile, CompileOptions, Stage};

/// (file name, reason) of shaders that legitimately need more than GL 3.3.
const BEYOND_GL33: &[(&str, &str)] = &[];

fn shader_tests(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            shader_tests(&path, out);
        } else if path.extension().is_some_and(|e| e == "shader_test") {
            out.push(path);
        }
    }
}

/// Splits a shader_test into (stage, source) pairs for the vertex and fragment
/// sections, with `#version` added from `[require]` when missing.
fn stages(text: &str) -> Vec<(Stage, String)> {
    let mut glsl_version = None;
    let mut sections: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        if line.starts_with('[') {
            sections.push((line.trim().to_owned(), String::new()));
            continue;
        }
        if let Some((name, body)) = sections.last_mut() {
            if name == "[require]" {
                if let Some(v) = line.trim().strip_prefix("GLSL >= ") {
                    glsl_version = Some(v.trim().replace('.', ""));
                }
            } else {
                body.push_str(line);
                body.push('\n');
            }
        }
    }
    let mut out = Vec::new();
    for (name, body) in sections {
        let stage = match name.as_str() {
            "[vertex shader]" => Stage::Vertex,
            "[fragment shader]" => Stage::Fragment,
            _ => continue,
        };
        let source = match (&glsl_version, body.contains("#version ")) {
            (Some(v), false) => format!("#version {v}\n{body}"),
            _ => body,
        };
        out.push((stage, source));
    }
    out
}

#[test]
fn every_shader_db_shader_compiles() {
    let root = common::corpus_root().join("shader-db");
    let mut files = Vec::new();
    shader_tests(&root, &mut files);
    files.sort();
    if !common::corpus_found("every_shader_db_shader_compiles", files.len(), &root) {
        return;
    }
    let mut compiled = 0;
    let mut failures = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        let name = file
            .strip_prefix(&root)
            .unwrap_or(file)
            .display()
            .to_string();
        for (stage, source) in stages(&text) {
            let shader = compile(&source, &CompileOptions::new(stage));
            if shader.success() {
                compiled += 1;
            } else if !BEYOND_GL33.iter().any(|(n, _)| *n == name) {
                let first = shader
                    .info_log
                    .to_string()
                    .lines()
                    .next()
                    .unwrap_or("")
                    .to_owned();
                failures.push(format!("{name} ({stage}): {first}"));
            }
        }
    }
    eprintln!(
        "shader-db: {compiled} shaders compiled, {} failed",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} shader-db shaders failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
