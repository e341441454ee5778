//! The shader-db corpus for state's tests and benches, which drive the GL API
//! and cannot use the conformance crate's reader without building it: the
//! `.shader_test` files under a folder, and their shader sections.
//! Included by path (`#[path = ...] mod shader_db;`) from each user.

use std::path::{Path, PathBuf};

use rgl_state::gl;

/// The corpus folder: `RGL_SHADER_DB`, or `../shared/corpus/shader-db` beside
/// the repository.
pub fn root() -> PathBuf {
    std::env::var_os("RGL_SHADER_DB").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/shader-db"),
        PathBuf::from,
    )
}

/// Every `.shader_test` file under `dir`, sorted.
pub fn files(dir: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for p in entries.flatten().map(|e| e.path()) {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "shader_test") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, &mut out);
    out.sort();
    out
}

/// The `[vertex shader]` / `[geometry shader]` / `[fragment shader]` sections
/// as (GL shader type, source), with `#version N` added from `GLSL >= N` when
/// a section has none, as shader_runner does.
pub fn shader_sections(text: &str) -> Vec<(u32, String)> {
    let version = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("GLSL >="))
        .and_then(|v| v.trim().parse::<f32>().ok())
        .map(|v| (v * 100.0).round() as u32);
    let mut out: Vec<(u32, String)> = Vec::new();
    let mut current: Option<usize> = None;
    for line in text.lines() {
        if line.starts_with('[') {
            let kind = match line.trim() {
                "[vertex shader]" => Some(gl::VERTEX_SHADER),
                "[geometry shader]" => Some(gl::GEOMETRY_SHADER),
                "[fragment shader]" => Some(gl::FRAGMENT_SHADER),
                _ => None,
            };
            current = kind.map(|k| {
                out.push((k, String::new()));
                out.len() - 1
            });
        } else if let Some(i) = current {
            out[i].1.push_str(line);
            out[i].1.push('\n');
        }
    }
    for (_, src) in &mut out {
        let has_version = src.lines().any(|l| l.trim_start().starts_with("#version"));
        if let (false, Some(v)) = (has_version, version) {
            *src = format!("#version {v}\n{src}");
        }
    }
    out
}
