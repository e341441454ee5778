//! Loads the shader-db corpus for the front-end benchmark: the `[vertex shader]`
//! and `[fragment shader]` sections of every `.shader_test` file, with the
//! `#version` line shader_runner would add.
//!
//! shader_runner rule (piglit `tests/shaders/shader_runner.c`): a section's text
//! runs from the line after its `[...]` header to the next line starting with
//! `[`; when the text has no `#version `, it is prefixed with
//! `#version N` (plus ` es` for GLSL ES 3.00 and later), N coming from the
//! `GLSL >= X.YY` / `GLSL ES >= X.YY` line of `[require]`.

use std::path::{Path, PathBuf};

use rgl_glsl::Stage;

/// One shader ready to compile.
#[derive(Clone, Debug)]
pub struct Shader {
    /// `game/file.shader_test:vertex#N` (N counts sections of that stage).
    pub name: String,
    /// Its stage.
    pub stage: Stage,
    /// Source text, `#version` line included.
    pub source: String,
}

/// The corpus folder: `$RGL_SHADER_DB`, else `../shared/corpus/shader-db`
/// relative to the workspace root.
pub fn corpus_dir() -> PathBuf {
    match std::env::var_os("RGL_SHADER_DB") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/shader-db"),
    }
}

/// The GLSL requirement of a `[require]` section: (`X*100+YY`, es).
fn glsl_requirement(require: &str) -> Option<(u32, bool)> {
    for line in require.lines() {
        let mut words = line.split_whitespace();
        if words.next() != Some("GLSL") {
            continue;
        }
        let mut word = words.next()?;
        let es = word == "ES";
        if es {
            word = words.next()?;
        }
        if word != ">=" {
            continue;
        }
        let (major, minor) = words.next()?.split_once('.')?;
        let number = major.parse::<u32>().ok()? * 100 + minor.parse::<u32>().ok()?;
        return Some((number, es));
    }
    None
}

/// Splits a `.shader_test` text into `(header, body)` sections.
fn sections(text: &str) -> Vec<(&str, String)> {
    let mut out: Vec<(&str, String)> = Vec::new();
    for line in text.split_inclusive('\n') {
        if line.starts_with('[') {
            out.push((line.trim_end(), String::new()));
        } else if let Some((_, body)) = out.last_mut() {
            body.push_str(line);
        }
    }
    out
}

/// The shaders of one `.shader_test` text.
pub fn shaders_of(name: &str, text: &str) -> Vec<Shader> {
    let sections = sections(text);
    let requirement = sections
        .iter()
        .find(|(header, _)| *header == "[require]")
        .and_then(|(_, body)| glsl_requirement(body));
    let mut counts = [0usize; 2];
    let mut out = Vec::new();
    for (header, body) in &sections {
        let (stage, slot) = match *header {
            "[vertex shader]" => (Stage::Vertex, 0),
            "[fragment shader]" => (Stage::Fragment, 1),
            _ => continue,
        };
        counts[slot] += 1;
        let source = match requirement {
            Some((number, es)) if !body.contains("#version ") => {
                let suffix = if es && number >= 300 { " es" } else { "" };
                format!("#version {number}{suffix}\n{body}")
            }
            _ => body.clone(),
        };
        out.push(Shader {
            name: format!("{name}:{}#{}", stage.name(), counts[slot]),
            stage,
            source,
        });
    }
    out
}

/// Every shader of every `.shader_test` under `dir`, in sorted path order.
pub fn load(dir: &Path) -> Result<Vec<Shader>, String> {
    let mut files = Vec::new();
    collect(dir, &mut files).map_err(|e| format!("{}: {e}", dir.display()))?;
    files.sort();
    let mut shaders = Vec::new();
    for file in files {
        let bytes = std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        let text = String::from_utf8_lossy(&bytes);
        let name = file
            .strip_prefix(dir)
            .unwrap_or(&file)
            .to_string_lossy()
            .into_owned();
        shaders.extend(shaders_of(&name, &text));
    }
    Ok(shaders)
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "shader_test") {
            out.push(path);
        }
    }
    Ok(())
}
