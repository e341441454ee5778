//! `rgl-conformance shader-test --link-only`: for each `.shader_test` file,
//! compile every shader section with `rgl_glsl` (the stage from the section,
//! the version from the source, `#version` prepended from the GLSL requirement
//! when the source has none, as shader_runner does), link them into one
//! program with `rgl_link::link_program` (`piglit_vertex` bound to attribute
//! 0, `piglit_texcoord` to 1) — or, with `--nir`, with all of `glLinkProgram`
//! including the link-time NIR pipeline — and check the expectation: `link error` in
//! `[test]` means the link must fail; otherwise every shader must compile and
//! the program must link. Files needing what rgl lacks are skips with a reason.

use std::path::Path;
use std::time::{Duration, Instant};

use rgl_glsl::{compile, CompileOptions, CompiledShader};
use rgl_link::{link_program, Bindings};

use super::includes::ShaderIncludes;
use super::parse::{SectionStage, ShaderKind, ShaderTest};
use super::support::{self, Capabilities};
use crate::result::{Status, TestResult};
use crate::walk::FoundFile;
use crate::{panic_capture, parallel};

/// One shader ready to compile: stage, the exact source text, and how to map a
/// diagnostic's line back to the test file.
#[derive(Clone, Debug)]
pub struct ProgramShader {
    /// Stage.
    pub stage: rgl_glsl::Stage,
    /// Header of the section it came from (`[fragment shader]`).
    pub section: String,
    /// The source given to the compiler.
    pub source: String,
    /// File line of the source's first line, minus the lines the runner
    /// prepended (so `file_line = line_base + diagnostic_line`); `None` when the
    /// source is not in the test file (generated, or from a `shader file`).
    pub line_base: Option<i64>,
    /// Line of the section header in the test file (1-based).
    pub header_line: u32,
}

/// Why a file cannot be run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotRunnable {
    /// rgl lacks something the file needs.
    Skip(String),
    /// The file is broken (unreadable shader file).
    Error(String),
}

/// `#version N[ es]` for the file's GLSL requirement, if it has one.
fn version_line(test: &ShaderTest) -> Option<String> {
    let (es, version) = test.requirements.glsl()?;
    Some(if es && version >= 300 {
        format!("#version {version} es\n")
    } else {
        format!("#version {version}\n")
    })
}

/// shader_runner's test for a `#version` in the source: the text `#version `.
fn has_version(source: &str) -> bool {
    source.contains("#version ")
}

/// The shaders of the program, in file order, or why the file cannot run
/// (`[shader include]` sections are a skip: the callers compile without named
/// strings; the full runner uses [`runner_shaders`]).
pub fn program_shaders(test: &ShaderTest, path: &Path) -> Result<Vec<ProgramShader>, NotRunnable> {
    shaders_of(test, path, false)
}

/// The shaders of the program and the named strings and search paths of its
/// `[shader include]` / `[shader include paths]` sections, for the full
/// runner.
pub fn runner_shaders(
    test: &ShaderTest,
    path: &Path,
) -> Result<(Vec<ProgramShader>, ShaderIncludes), NotRunnable> {
    let shaders = shaders_of(test, path, true)?;
    Ok((shaders, ShaderIncludes::of(test)?))
}

fn shaders_of(
    test: &ShaderTest,
    path: &Path,
    includes: bool,
) -> Result<Vec<ProgramShader>, NotRunnable> {
    let mut out = Vec::new();
    let version = version_line(test);
    let glsl_sections = test.shaders.iter().any(|s| {
        matches!(
            s.kind,
            ShaderKind::Glsl(_) | ShaderKind::GlslFile(_) | ShaderKind::Passthrough
        )
    });
    if glsl_sections && version.is_none() {
        return Err(NotRunnable::Error(
            "GLSL version requirement missing: shader_runner fails a file with GLSL shaders and no `GLSL >= X.Y` line"
                .into(),
        ));
    }
    for section in &test.shaders {
        let stage_of = |stage: SectionStage| {
            stage.rgl().ok_or_else(|| {
                NotRunnable::Skip(format!("{} shaders are not supported by rgl", stage.name()))
            })
        };
        match &section.kind {
            ShaderKind::Glsl(stage) => {
                let stage = stage_of(*stage)?;
                let (source, prepended) = match &version {
                    Some(v) if !has_version(&section.source) => {
                        (format!("{v}{}", section.source), 1)
                    }
                    _ => (section.source.clone(), 0),
                };
                out.push(ProgramShader {
                    stage,
                    section: format!("[{} shader]", stage.name()),
                    source,
                    line_base: Some(i64::from(section.body_line) - 1 - prepended),
                    header_line: section.header_line,
                });
            }
            ShaderKind::GlslFile(stage) => {
                let stage = stage_of(*stage)?;
                let name = section
                    .source
                    .lines()
                    .map(str::trim)
                    .find(|l| !l.is_empty());
                let Some(name) = name else {
                    return Err(NotRunnable::Error(format!(
                        "line {}: [{} shader file] names no file",
                        section.header_line,
                        stage.name()
                    )));
                };
                let file = path.parent().unwrap_or(Path::new(".")).join(name);
                let text = std::fs::read_to_string(&file).map_err(|e| {
                    NotRunnable::Error(format!("cannot read shader file {}: {e}", file.display()))
                })?;
                let source = match &version {
                    Some(v) if !has_version(&text) => format!("{v}{text}"),
                    _ => text,
                };
                out.push(ProgramShader {
                    stage,
                    section: format!("[{} shader file]", stage.name()),
                    source,
                    line_base: None,
                    header_line: section.header_line,
                });
            }
            ShaderKind::Passthrough => {
                // piglit's built-in shader, with `#version` from the requirement
                // (checked above) like any runner shader without one.
                let (es, glsl) = test.requirements.glsl().unwrap_or((false, 110));
                let glsl = u16::try_from(glsl).unwrap_or(u16::MAX);
                let source = super::program::passthrough_vs(glsl, es);
                out.push(ProgramShader {
                    stage: rgl_glsl::Stage::Vertex,
                    section: "[vertex shader passthrough]".into(),
                    source,
                    line_base: None,
                    header_line: section.header_line,
                });
            }
            ShaderKind::ArbAsm(stage) => {
                return Err(NotRunnable::Skip(format!(
                    "ARB assembly programs ([{} program]) are not supported by rgl",
                    stage.name()
                )))
            }
            ShaderKind::Spirv(_) | ShaderKind::Specializations(_) => {
                return Err(NotRunnable::Skip(
                    "SPIR-V shaders are not supported by rgl".into(),
                ))
            }
            ShaderKind::GeometryLayout => {
                return Err(NotRunnable::Skip(
                    "[geometry layout] (ARB_geometry_shader4) is not supported by rgl".into(),
                ))
            }
            ShaderKind::ShaderInclude | ShaderKind::ShaderIncludePaths if includes => {}
            ShaderKind::ShaderInclude | ShaderKind::ShaderIncludePaths => {
                return Err(NotRunnable::Skip(
                    "shader include (ARB_shading_language_include): only the full runner defines named strings".into(),
                ))
            }
        }
    }
    Ok(out)
}

/// Bindings shader_runner makes before linking.
pub fn runner_bindings() -> Bindings {
    Bindings {
        attribs: vec![("piglit_vertex".into(), 0), ("piglit_texcoord".into(), 1)],
        frag_data: Vec::new(),
    }
}

/// The first error of a compile, located in the test file when possible.
pub fn first_compile_error(
    shader: &ProgramShader,
    compiled: &CompiledShader,
    path: &Path,
) -> String {
    let Some(d) = compiled.info_log.diagnostics.iter().find(|d| d.is_error()) else {
        return format!(
            "{} does not compile (no error in the info log)",
            shader.section
        );
    };
    match shader.line_base {
        Some(base) if d.loc.source == 0 => format!(
            "{} does not compile: {}:{}: {}",
            shader.section,
            path.display(),
            base + i64::from(d.loc.line),
            d
        ),
        _ => format!("{} does not compile: {d}", shader.section),
    }
}

/// What compiling and linking a file's program gave.
#[derive(Clone, Debug)]
pub enum BuildOutcome {
    /// A shader failed to compile (the message names it and the first error).
    CompileFailed(String),
    /// Every shader compiled; the link failed with this log.
    LinkFailed(String),
    /// Compiled and linked.
    Linked(Box<rgl_link::LinkedProgram>),
}

/// How far the link-only check takes a program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkDepth {
    /// The linker on GLSL IR: [`rgl_link::link_program`] (the CI ratchet).
    GlslIr,
    /// All of `glLinkProgram`: the linker, then `glsl_to_nir` and the link-time
    /// NIR pipeline to final NIR ([`rgl_link::pipeline::build_program`]).
    Nir,
}

/// Compiles and links `shaders` (no panic capture here; callers isolate).
pub fn build(shaders: &[ProgramShader], path: &Path, depth: LinkDepth) -> BuildOutcome {
    let mut compiled = Vec::with_capacity(shaders.len());
    for shader in shaders {
        let result = compile(&shader.source, &CompileOptions::new(shader.stage));
        if !result.success() {
            return BuildOutcome::CompileFailed(first_compile_error(shader, &result, path));
        }
        compiled.push(result);
    }
    let refs: Vec<&CompiledShader> = compiled.iter().collect();
    let linked = match depth {
        LinkDepth::GlslIr => link_program(&refs, &runner_bindings()),
        LinkDepth::Nir => rgl_link::pipeline::build_program(
            &refs,
            &runner_bindings(),
            rgl_link::pipeline::PipelineOptions::default(),
        ),
    };
    match linked {
        Ok(program) => BuildOutcome::Linked(Box::new(program)),
        Err(log) => BuildOutcome::LinkFailed(log.to_string()),
    }
}

/// The first message of a link log on one line: its first line, plus the
/// indented lines that continue it (a message ending in `:` announces them).
pub fn first_message(log: &str) -> String {
    let mut lines = log.lines();
    let mut out = lines
        .next()
        .unwrap_or("(empty link log)")
        .trim_end()
        .to_string();
    for line in lines.take(3) {
        if !out.ends_with(':') && !line.starts_with(char::is_whitespace) {
            break;
        }
        if line.starts_with("error:") || line.starts_with("warning:") {
            break;
        }
        out.push(' ');
        out.push_str(line.trim());
    }
    out
}

/// Runs one file.
pub fn run_one(file: &FoundFile, caps: &Capabilities, depth: LinkDepth) -> TestResult {
    let result = |status, reason: String, duration| TestResult::of(file, status, reason, duration);
    let (text, _) = match super::read(&file.path) {
        Ok(read) => read,
        Err(e) => {
            return result(
                Status::Error,
                format!("cannot read the file: {e}"),
                Duration::ZERO,
            )
        }
    };
    let parsed = super::parse(&text);
    if let Some(first) = parsed.errors.first() {
        let more = parsed.errors.len() - 1;
        let mut reason = format!(
            "parse error: {}:{}: {}",
            file.path.display(),
            first.line,
            first.message
        );
        if more > 0 {
            reason.push_str(&format!(" (and {more} more)"));
        }
        return result(Status::Error, reason, Duration::ZERO);
    }
    let test = &parsed.test;
    if let Err(why) = support::check(&test.requirements, caps) {
        return result(Status::Skip, why, Duration::ZERO);
    }
    let shaders = match program_shaders(test, &file.path) {
        Ok(shaders) => shaders,
        Err(NotRunnable::Skip(why)) => return result(Status::Skip, why, Duration::ZERO),
        Err(NotRunnable::Error(why)) => return result(Status::Error, why, Duration::ZERO),
    };
    if shaders.is_empty() {
        return result(
            Status::Skip,
            "no GLSL shader sections (a fixed-function test: nothing to link)".into(),
            Duration::ZERO,
        );
    }
    let expect_link_error = test.expects_link_error();
    let start = Instant::now();
    let outcome = panic_capture::catch(|| build(&shaders, &file.path, depth));
    let duration = start.elapsed();
    match outcome {
        Err(panic) => {
            let mut r = result(
                Status::Fail,
                format!("compiler/linker {}", panic.summary().replace('\n', " ")),
                duration,
            );
            r.detail = panic.backtrace.trim_end().to_string();
            r
        }
        Ok(BuildOutcome::CompileFailed(why)) => result(Status::Fail, why, duration),
        Ok(BuildOutcome::LinkFailed(log)) if expect_link_error => {
            let _ = log;
            result(Status::Pass, String::new(), duration)
        }
        Ok(BuildOutcome::LinkFailed(log)) => {
            let mut r = result(
                Status::Fail,
                format!("link failed: {}", first_message(&log)),
                duration,
            );
            // The whole log (bounded) goes to stderr with the result.
            r.detail = log.lines().take(40).collect::<Vec<_>>().join("\n");
            r
        }
        Ok(BuildOutcome::Linked(_)) if expect_link_error => result(
            Status::Fail,
            "expected a link error (`link error` in [test]), but the program linked".into(),
            duration,
        ),
        Ok(BuildOutcome::Linked(_)) => result(Status::Pass, String::new(), duration),
    }
}

/// Runs every file (see [`crate::parallel`] for threading and isolation).
pub fn run_all(
    files: &[FoundFile],
    options: parallel::Options,
    depth: LinkDepth,
) -> Vec<TestResult> {
    let caps = Capabilities::rgl_link_only();
    let outcomes = parallel::run(
        files,
        options,
        |file| file.id.clone(),
        |file| run_one(file, &caps, depth),
    );
    files
        .iter()
        .zip(outcomes)
        .map(|(file, outcome)| match outcome {
            Ok(result) => result,
            Err(why) => TestResult {
                path: file.path.clone(),
                id: file.id.clone(),
                status: Status::Fail,
                reason: why,
                detail: String::new(),
                duration: Duration::ZERO,
            },
        })
        .collect()
}
