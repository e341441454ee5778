//! The structure of a `.shader_test` file, as piglit's shader_runner reads it:
//! a section starts at any line whose first character is `[`; text before the
//! first section is ignored; once `[test]` is reached the rest of the file is
//! the command script. Shader sections keep their text verbatim with the line
//! where it starts, so compile errors can be reported at `file:line`.
//!
//! Parsing never stops at the first problem and never panics: every malformed
//! line becomes a [`ParseError`] with its line number, and what could be read
//! is kept.

use std::fmt;

use super::command::{self, Command};
use super::require::{self, Requirements};
use super::vertex_data::{self, VertexData};

/// A pipeline stage named by a section header.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SectionStage {
    /// `vertex`
    Vertex,
    /// `tessellation control`
    TessControl,
    /// `tessellation evaluation`
    TessEval,
    /// `geometry`
    Geometry,
    /// `fragment`
    Fragment,
    /// `compute`
    Compute,
}

impl SectionStage {
    /// The stage's words in section headers.
    pub fn name(self) -> &'static str {
        match self {
            SectionStage::Vertex => "vertex",
            SectionStage::TessControl => "tessellation control",
            SectionStage::TessEval => "tessellation evaluation",
            SectionStage::Geometry => "geometry",
            SectionStage::Fragment => "fragment",
            SectionStage::Compute => "compute",
        }
    }

    /// The rgl front-end stage, for the stages rgl compiles.
    pub fn rgl(self) -> Option<rgl_glsl::Stage> {
        match self {
            SectionStage::Vertex => Some(rgl_glsl::Stage::Vertex),
            SectionStage::Geometry => Some(rgl_glsl::Stage::Geometry),
            SectionStage::Fragment => Some(rgl_glsl::Stage::Fragment),
            SectionStage::Compute => Some(rgl_glsl::Stage::Compute),
            _ => None,
        }
    }

    const ALL: [SectionStage; 6] = [
        SectionStage::Vertex,
        SectionStage::TessControl,
        SectionStage::TessEval,
        SectionStage::Geometry,
        SectionStage::Fragment,
        SectionStage::Compute,
    ];
}

/// What a shader-like section holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShaderKind {
    /// `[<stage> shader]`: GLSL source.
    Glsl(SectionStage),
    /// `[<stage> shader file]`: the body names a file (relative to the test)
    /// holding the GLSL source.
    GlslFile(SectionStage),
    /// `[vertex shader passthrough]`: the runner's built-in pass-through VS.
    Passthrough,
    /// `[vertex program]` / `[fragment program]`: ARB assembly.
    ArbAsm(SectionStage),
    /// `[<stage> shader spirv]`: SPIR-V assembly.
    Spirv(SectionStage),
    /// `[<stage> shader specializations]`: SPIR-V specialization constants.
    Specializations(SectionStage),
    /// `[geometry layout]`: ARB_geometry_shader4 program parameters.
    GeometryLayout,
    /// `[shader include]`: an ARB_shading_language_include named string (the
    /// first line is its name, the rest of the body its string).
    ShaderInclude,
    /// `[shader include paths]`: the search paths of
    /// `glCompileShaderIncludeARB`, one a line.
    ShaderIncludePaths,
}

/// One shader-like section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShaderSection {
    /// What it is.
    pub kind: ShaderKind,
    /// Line of the `[…]` header (1-based).
    pub header_line: u32,
    /// Line of the first body line.
    pub body_line: u32,
    /// The body verbatim (lines joined with `\n`, each ending in `\n`).
    pub source: String,
}

/// A located parse problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line.
    pub line: u32,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// A `[test]` command with its line.
#[derive(Clone, Debug, PartialEq)]
pub struct Located<T> {
    /// 1-based line.
    pub line: u32,
    /// The value.
    pub value: T,
}

/// A parsed `.shader_test` file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ShaderTest {
    /// `[require]` lines (all `[require]` sections merged).
    pub requirements: Requirements,
    /// Shader sections in file order.
    pub shaders: Vec<ShaderSection>,
    /// `[vertex data]`, if present (the last one wins, as in piglit).
    pub vertex_data: Option<VertexData>,
    /// Line of the `[vertex data]` header.
    pub vertex_data_line: Option<u32>,
    /// True when the file has a `[test]` section.
    pub has_test_section: bool,
    /// The `[test]` commands that parsed.
    pub commands: Vec<Located<Command>>,
}

impl ShaderTest {
    /// True when the script contains `link error`.
    pub fn expects_link_error(&self) -> bool {
        self.commands.iter().any(|c| c.value == Command::LinkError)
    }
}

/// The result of parsing: the file as far as it could be read, and every problem.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Parsed {
    /// What was read.
    pub test: ShaderTest,
    /// Every malformed line, in file order.
    pub errors: Vec<ParseError>,
    /// Lines read leniently, as shader_runner reads them (ignored trailing
    /// text, values it would leave unset), in file order.
    pub warnings: Vec<ParseError>,
}

/// The section a header opens.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Section {
    Require,
    Shader(ShaderKind),
    VertexData,
    Test,
}

/// Recognises a section header (a line starting with `[`). Like piglit's prefix
/// match, text after the closing `]` is ignored.
fn section_of(line: &str) -> Result<Section, String> {
    let Some(end) = line.find(']') else {
        return Err(format!("section header {line:?} has no closing ']'"));
    };
    let name = &line[1..end];
    match name {
        "require" => return Ok(Section::Require),
        "vertex data" => return Ok(Section::VertexData),
        "test" => return Ok(Section::Test),
        "vertex shader passthrough" => return Ok(Section::Shader(ShaderKind::Passthrough)),
        "vertex program" => return Ok(Section::Shader(ShaderKind::ArbAsm(SectionStage::Vertex))),
        "fragment program" => {
            return Ok(Section::Shader(ShaderKind::ArbAsm(SectionStage::Fragment)))
        }
        "geometry layout" => return Ok(Section::Shader(ShaderKind::GeometryLayout)),
        "shader include" => return Ok(Section::Shader(ShaderKind::ShaderInclude)),
        "shader include paths" => return Ok(Section::Shader(ShaderKind::ShaderIncludePaths)),
        _ => {}
    }
    for stage in SectionStage::ALL {
        let Some(rest) = name
            .strip_prefix(stage.name())
            .and_then(|r| r.strip_prefix(" shader"))
        else {
            continue;
        };
        let kind = match rest {
            "" => ShaderKind::Glsl(stage),
            " file" => ShaderKind::GlslFile(stage),
            " spirv" => ShaderKind::Spirv(stage),
            " specializations" => ShaderKind::Specializations(stage),
            _ => continue,
        };
        return Ok(Section::Shader(kind));
    }
    Err(format!("unknown section [{name}]"))
}

/// The command text of a `[test]` line: blank lines and lines starting with `#`
/// are skipped; a `#` later on the line starts a trailing comment (the corpus
/// writes `uniform vec4 t[0] 1 1 0 0 # why`; piglit's number readers stop
/// before it). No command argument contains `#`.
fn command_text(line: &str) -> Option<&str> {
    let code = line.split('#').next().unwrap_or("").trim();
    if code.is_empty() {
        None
    } else {
        Some(code)
    }
}

/// Parses the text of a `.shader_test` file.
pub fn parse(text: &str) -> Parsed {
    let mut out = Parsed::default();
    let mut section: Option<(Section, u32)> = None;
    let mut body: Vec<(u32, &str)> = Vec::new();

    let finish = |out: &mut Parsed, section: Option<(Section, u32)>, body: &[(u32, &str)]| {
        let Some((section, header_line)) = section else {
            return;
        };
        match section {
            Section::Require => {
                for &(number, line) in body {
                    let line = line.trim();
                    if line.is_empty() {
                        continue;
                    }
                    match require::parse_line(line) {
                        Ok(r) => out.test.requirements.lines.push((number, r)),
                        Err(message) => out.errors.push(ParseError {
                            line: number,
                            message: format!("[require]: {message}"),
                        }),
                    }
                }
            }
            Section::Shader(kind) => {
                let mut source = String::new();
                for (_, line) in body {
                    source.push_str(line);
                    source.push('\n');
                }
                out.test.shaders.push(ShaderSection {
                    kind,
                    header_line,
                    body_line: header_line + 1,
                    source,
                });
            }
            Section::VertexData => match vertex_data::parse(header_line, body) {
                Ok(data) => {
                    out.test.vertex_data = Some(data);
                    out.test.vertex_data_line = Some(header_line);
                }
                Err((line, message)) => out.errors.push(ParseError {
                    line,
                    message: format!("[vertex data]: {message}"),
                }),
            },
            Section::Test => {}
        }
    };

    // `split('\n')` keeps a final empty piece; `\r` of CRLF files is dropped.
    let mut lines = text.split('\n').enumerate().peekable();
    while let Some((index, raw)) = lines.next() {
        let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if matches!(section, Some((Section::Test, _))) {
            if lines.peek().is_none() && line.is_empty() {
                break;
            }
            if let Some(cmd) = command_text(line) {
                match command::parse(cmd) {
                    Ok((value, notes)) => {
                        out.test.commands.push(Located {
                            line: number,
                            value,
                        });
                        for note in notes {
                            out.warnings.push(ParseError {
                                line: number,
                                message: format!("[test]: {note} in {cmd:?}"),
                            });
                        }
                    }
                    Err(message) => out.errors.push(ParseError {
                        line: number,
                        message: format!("[test]: {message} in {cmd:?}"),
                    }),
                }
            }
            continue;
        }
        if line.starts_with('[') {
            finish(&mut out, section.take(), &body);
            body.clear();
            match section_of(line) {
                Ok(s) => {
                    if s == Section::Test {
                        out.test.has_test_section = true;
                    }
                    section = Some((s, number));
                }
                // piglit fails the test on an unknown section; the body up to the
                // next header is skipped.
                Err(message) => out.errors.push(ParseError {
                    line: number,
                    message,
                }),
            }
            continue;
        }
        if section.is_some() {
            if lines.peek().is_none() && line.is_empty() {
                break;
            }
            body.push((number, line));
        }
    }
    finish(&mut out, section, &body);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_and_errors() {
        let text = "comment before\n[require]\nGLSL >= 1.10\n[vertex shader passthrough]\n\
                    [fragment shader]\nvoid main() {}\n[bogus]\nx\n[test]\nclear\nfrobnicate 1\n# c\n";
        let parsed = parse(text);
        let shaders: Vec<(ShaderKind, u32, &str)> = parsed
            .test
            .shaders
            .iter()
            .map(|s| (s.kind.clone(), s.body_line, s.source.as_str()))
            .collect();
        assert_eq!(
            shaders,
            vec![
                (ShaderKind::Passthrough, 5, ""),
                (
                    ShaderKind::Glsl(SectionStage::Fragment),
                    6,
                    "void main() {}\n"
                ),
            ]
        );
        assert_eq!(parsed.test.commands.len(), 1);
        let errors: Vec<String> = parsed.errors.iter().map(|e| e.to_string()).collect();
        assert_eq!(
            errors,
            vec![
                "line 7: unknown section [bogus]".to_string(),
                "line 11: [test]: unknown command \"frobnicate\" in \"frobnicate 1\"".to_string(),
            ]
        );
    }
}
