//! The program part of a piglit / shader-db `.shader_test` file: its shader
//! sections in order, so `rglc --link`, the benchmarks and the corpus tests can
//! compile and link a whole program from one file. (The full format, with
//! `[test]` commands, is the conformance runner's.)
//!
//! Recognised sections: `[vertex shader]`, `[geometry shader]`, `[fragment shader]`,
//! `[vertex shader passthrough]` (a trivial vertex shader passing `piglit_vertex`
//! through), and `[require]` (its `GLSL >= x.yz` line). Other sections end the
//! current shader and are otherwise ignored.

use rgl_glsl::Stage;

/// One shader section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShaderSection {
    /// Its stage.
    pub stage: Stage,
    /// Source text.
    pub source: String,
    /// 1-based line of the section header in the file.
    pub line: usize,
}

/// The shader sections of a file and its `[require]` GLSL version.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProgramSource {
    /// Shader sections in file order.
    pub shaders: Vec<ShaderSection>,
    /// `GLSL >= 1.30` in `[require]` as 130, if present.
    pub glsl_required: Option<u16>,
    /// `GL ES` or `GLSL ES` in `[require]`.
    pub es: bool,
}

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

fn parse_version(text: &str) -> Option<u16> {
    let (major, minor) = text.trim().split_once('.')?;
    let major: u16 = major.trim().parse().ok()?;
    let minor: u16 = minor.trim().parse().ok()?;
    major.checked_mul(100)?.checked_add(minor)
}

/// Splits `text` into its shader sections.
pub fn parse_program(text: &str) -> ProgramSource {
    let mut out = ProgramSource::default();
    let mut current: Option<ShaderSection> = None;
    let mut in_require = false;
    let mut passthrough = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') && trimmed.ends_with(']') {
            out.shaders.extend(current.take());
            in_require = trimmed == "[require]";
            let stage = match trimmed {
                "[vertex shader]" => Some(Stage::Vertex),
                "[geometry shader]" => Some(Stage::Geometry),
                "[fragment shader]" => Some(Stage::Fragment),
                "[vertex shader passthrough]" => {
                    // The source depends on [require], which may come later;
                    // filled in below.
                    out.shaders.push(ShaderSection {
                        stage: Stage::Vertex,
                        source: String::new(),
                        line: i + 1,
                    });
                    passthrough.push(out.shaders.len() - 1);
                    None
                }
                _ => None,
            };
            current = stage.map(|stage| ShaderSection {
                stage,
                source: String::new(),
                line: i + 1,
            });
            continue;
        }
        if let Some(section) = current.as_mut() {
            section.source.push_str(line);
            section.source.push('\n');
        } else if in_require {
            if let Some(rest) = trimmed.strip_prefix("GLSL ES") {
                out.es = true;
                out.glsl_required = rest.trim().strip_prefix(">=").and_then(parse_version);
            } else if let Some(rest) = trimmed.strip_prefix("GLSL") {
                out.glsl_required = rest.trim().strip_prefix(">=").and_then(parse_version);
            } else if trimmed.starts_with("GL ES") {
                out.es = true;
            }
        }
    }
    out.shaders.extend(current);
    let version = out.glsl_required.unwrap_or(110);
    for i in passthrough {
        if let Some(s) = out.shaders.get_mut(i) {
            s.source = passthrough_vs(version, out.es);
        }
    }
    out
}

/// The source piglit compiles for a section: as written when it contains
/// `#version `, else prefixed with `#version <GLSL requirement>` (` es` for ES 3.00+).
pub fn effective_source(program: &ProgramSource, section: &ShaderSection) -> String {
    match program.glsl_required {
        Some(v) if !section.source.contains("#version ") => {
            let es = if program.es && v >= 300 { " es" } else { "" };
            format!("#version {v}{es}\n{}", section.source)
        }
        _ => section.source.clone(),
    }
}

/// Compiles every shader section as its stage ([`effective_source`]); results in
/// section order.
pub fn compile_sections(program: &ProgramSource) -> Vec<rgl_glsl::CompiledShader> {
    program
        .shaders
        .iter()
        .map(|s| {
            rgl_glsl::compile(
                &effective_source(program, s),
                &rgl_glsl::CompileOptions::new(s.stage),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_and_require() {
        let p = parse_program(
            "[require]\nGLSL >= 1.30\n\n[vertex shader]\nvoid main(){}\n[fragment shader]\nx\n[test]\ndraw rect -1 -1 2 2\n",
        );
        assert_eq!(p.glsl_required, Some(130));
        let stages: Vec<_> = p.shaders.iter().map(|s| (s.stage, s.line)).collect();
        assert_eq!(stages, vec![(Stage::Vertex, 4), (Stage::Fragment, 6)]);
        assert_eq!(p.shaders[1].source, "x\n");
    }
}
