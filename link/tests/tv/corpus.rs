//! Corpus side of translation validation: finding `.shader_test` files and turning
//! their shader sections into compiled shaders the way piglit's shader_runner does
//! (`#version` from `[require]` when a section has none; `[vertex shader
//! passthrough]` is the built-in pass-through vertex shader).

use std::path::{Path, PathBuf};

use rgl_glsl::{compile, CompileOptions, CompiledShader, Stage};
use rgl_link::shader_test::passthrough_vs;

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

/// The shader sections of a `.shader_test` text as (stage, source).
pub fn sections(text: &str) -> Vec<(Stage, String)> {
    let mut version: Option<String> = None;
    let mut out: Vec<(Stage, String)> = Vec::new();
    let mut current: Option<usize> = None;
    let mut in_require = false;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with('[') {
            current = None;
            in_require = t == "[require]";
            if t == "[test]" {
                break;
            }
            let stage = match t {
                "[vertex shader]" => Some(Stage::Vertex),
                "[geometry shader]" => Some(Stage::Geometry),
                "[fragment shader]" => Some(Stage::Fragment),
                "[vertex shader passthrough]" => {
                    out.push((Stage::Vertex, passthrough_marker()));
                    None
                }
                _ => None,
            };
            if let Some(s) = stage {
                out.push((s, String::new()));
                current = Some(out.len() - 1);
            }
            continue;
        }
        if in_require {
            if let Some(rest) = t.strip_prefix("GLSL") {
                let es = rest.trim_start().starts_with("ES");
                let num = rest
                    .split_whitespace()
                    .last()
                    .unwrap_or("1.10")
                    .replace('.', "");
                let suffix = if es && num != "100" { " es" } else { "" };
                version = Some(format!("{num}{suffix}"));
            }
        }
        if let Some(i) = current {
            out[i].1.push_str(line);
            out[i].1.push('\n');
        }
    }
    let ver_num: u16 = version
        .as_deref()
        .and_then(|v| v.split(' ').next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(110);
    let es = version.as_deref().is_some_and(|v| v.ends_with(" es"));
    for (_, body) in &mut out {
        if *body == passthrough_marker() {
            *body = passthrough_vs(ver_num, es);
        } else if !body.contains("#version ") {
            if let Some(v) = &version {
                body.insert_str(0, &format!("#version {v}\n"));
            }
        }
    }
    out
}

fn passthrough_marker() -> String {
    "\u{0}passthrough\u{0}".to_string()
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
