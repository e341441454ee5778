//! The glslparsertest runner: for each `.vert/.frag/.geom/.tesc/.tese/.comp`
//! file with a `[config]` block, decide whether rgl can run it (version,
//! extensions, stage), compile its bytes verbatim with
//! [`rgl_glsl::compile_bytes`] (what `glShaderSource` + `glCompileShader` will
//! do) and, for `check_link: true` tests that compiled, link a program of that
//! shader with [`rgl_link::pipeline::build_program`] (`glLinkProgram` in full,
//! NIR pipeline included), adding the dummy shaders piglit's
//! `glslparsertest` adds (a complementary vertex/fragment shader for GLSL ES
//! 1.00/3.00, a vertex shader for a desktop geometry shader). Success (compile,
//! and link when checked) is compared with `expect_result`. Tests with
//! `dummy_shader_include` / `shader_include_path`
//! (`GL_ARB_shading_language_include`) are compiled with the named string and
//! search path piglit's glslparsertest sets up.

pub mod config;
pub mod host;
pub mod support;

use std::path::Path;
use std::time::{Duration, Instant};

use rgl_glsl::compile::compile_with_includes;
use rgl_glsl::pp::include::{tree_location, IncludeOptions, StringTree};
use rgl_glsl::{compile, compile_bytes, CompileOptions, Stage};

use crate::result::{Status, TestResult};
use crate::walk::FoundFile;
use crate::{panic_capture, parallel};

use config::Config;

/// File extensions of glslparser tests, with the stage rgl compiles them as
/// (`None` for stages rgl has no compiler for).
const EXTENSIONS: &[(&str, Option<Stage>)] = &[
    ("vert", Some(Stage::Vertex)),
    ("frag", Some(Stage::Fragment)),
    ("geom", Some(Stage::Geometry)),
    ("tesc", None),
    ("tese", None),
    ("comp", Some(Stage::Compute)),
];

/// Why rgl has no compiler for a stage's file extension.
fn missing_stage_reason(ext: &str) -> String {
    match ext {
        "tesc" | "tese" => "tessellation is not implemented".into(),
        _ => format!("{ext} shaders are not supported by rgl"),
    }
}

/// True when the test needs double precision (`GL_ARB_gpu_shader_fp64`, or a
/// `double`/`dvecN`/`dmatN` type word in a GLSL 4.00+ shader, where fp64 is
/// core): rgl does not implement fp64.
fn needs_fp64(config: &Config, text: &str) -> bool {
    if config
        .extensions
        .iter()
        .any(|r| !r.absent && r.name == "GL_ARB_gpu_shader_fp64")
    {
        return true;
    }
    if config.version.es || config.version.number < 400 {
        return false;
    }
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .any(|word| {
            word == "double"
                || word
                    .strip_prefix("dvec")
                    .or_else(|| word.strip_prefix("dmat"))
                    .is_some_and(|rest| {
                        matches!(
                            rest,
                            "2" | "3"
                                | "4"
                                | "2x2"
                                | "2x3"
                                | "2x4"
                                | "3x2"
                                | "3x3"
                                | "3x4"
                                | "4x2"
                                | "4x3"
                                | "4x4"
                        )
                    })
        })
}

fn extension_of(path: &Path) -> Option<&str> {
    path.extension().and_then(|e| e.to_str())
}

/// True for file names glslparser tests can have.
pub fn is_candidate(path: &Path) -> bool {
    extension_of(path).is_some_and(|ext| EXTENSIONS.iter().any(|(e, _)| *e == ext))
}

/// True when the text has a `#version` directive on some line (used only to
/// explain results, never to change what is compiled).
fn has_version_directive(text: &str) -> bool {
    text.lines().any(|line| {
        let line = line.trim_start();
        line.strip_prefix('#')
            .is_some_and(|rest| rest.trim_start().starts_with("version"))
    })
}

fn first_error_line(log: &rgl_glsl::InfoLog) -> String {
    log.diagnostics
        .iter()
        .find(|d| d.is_error())
        .map(|d| d.to_string())
        .unwrap_or_else(|| "(no error in the info log)".to_string())
}

/// Decides whether rgl can run the test, returning the skip reason if not.
fn skip_reason(config: &Config, stage: Option<Stage>, ext: &str, text: &str) -> Option<String> {
    let Some(stage) = stage else {
        return Some(missing_stage_reason(ext));
    };
    if needs_fp64(config, text) {
        return Some(
            "needs fp64 (GL_ARB_gpu_shader_fp64 / double types), which is not implemented".into(),
        );
    }
    let Some(version) = support::rgl_version(config.version) else {
        return Some(format!("GLSL {} is not supported by rgl", config.version));
    };
    for requirement in &config.extensions {
        let advertised = support::extension_advertised(&requirement.name, version, stage);
        if requirement.absent && advertised {
            return Some(format!(
                "requires {} to be absent, but rgl advertises it",
                requirement.name
            ));
        }
        if !requirement.absent && !advertised {
            return Some(format!(
                "requires {}, which rgl does not advertise",
                requirement.name
            ));
        }
    }
    None
}

/// The dummy shaders piglit's `glslparsertest` attaches before linking: for
/// GLSL ES 1.00 / 3.00 the complementary vertex or fragment shader, for a
/// desktop geometry shader a vertex shader; `#version N` (plus ` es` for 300)
/// with `N` the test's version number.
fn dummy_shaders(config: &Config, stage: Stage) -> Vec<(Stage, String)> {
    let number = config.version.number;
    let header = format!(
        "#version {number} {}\n",
        if number == 300 { "es" } else { "" }
    );
    let vertex = || {
        (
            Stage::Vertex,
            format!("{header}void main() {{ gl_Position = vec4(0.0); }}"),
        )
    };
    let fragment = || (Stage::Fragment, format!("{header}void main() {{ }}"));
    let mut out = Vec::new();
    if number == 100 || number == 300 {
        match stage {
            Stage::Fragment => out.push(vertex()),
            Stage::Vertex => out.push(fragment()),
            Stage::Geometry | Stage::Compute => {}
        }
    }
    if stage == Stage::Geometry && !config.version.es {
        out.push(vertex());
    }
    out
}

/// What compiling (and linking) a test gave.
enum Outcome {
    /// The shader did not compile: the first error.
    CompileFailed(String),
    /// The shader did not compile, and one error says rgl does not implement
    /// a construct the language allows: that error. An expected compile
    /// failure is then not counted as a pass.
    NotImplemented(String),
    /// It compiled and the link was not checked.
    Compiled,
    /// It compiled, was linked, and the link succeeded.
    Linked,
    /// It compiled; the link (checked) failed: the first line of the log.
    LinkFailed(String),
}

/// The named string piglit's glslparsertest defines for
/// `dummy_shader_include: true`.
const DUMMY_SHADER_INCLUDE: &str = "/dummy/path_to/shader_include";

/// Compiles the test's bytes as `glCompileShader` would, or, for a test with
/// `dummy_shader_include` / `shader_include_path`, as piglit's glslparsertest
/// does: the empty named string [`DUMMY_SHADER_INCLUDE`] defined and
/// `glCompileShaderIncludeARB` with the one search path.
fn compile_test(bytes: &[u8], stage: Stage, config: &Config) -> rgl_glsl::CompiledShader {
    let options = CompileOptions::new(stage);
    let text = std::str::from_utf8(bytes);
    let (Ok(text), true) = (text, config.needs_shader_include()) else {
        return compile_bytes(bytes, &options);
    };
    let mut tree = StringTree::default();
    if config.dummy_shader_include {
        tree.insert(DUMMY_SHADER_INCLUDE, "");
    }
    let search_paths: Vec<String> = config
        .shader_include_path
        .iter()
        .map(|p| tree_location("/", p))
        .collect();
    let includes = IncludeOptions {
        tree: &tree,
        search_paths: &search_paths,
    };
    compile_with_includes(text, &options, Some(includes))
}

fn compile_and_link(bytes: &[u8], stage: Stage, config: &Config) -> Outcome {
    let shader = compile_test(bytes, stage, config);
    if !shader.success() {
        if let Some(d) = shader
            .info_log
            .diagnostics
            .iter()
            .find(|d| d.is_not_implemented())
        {
            return Outcome::NotImplemented(d.to_string());
        }
        return Outcome::CompileFailed(first_error_line(&shader.info_log));
    }
    if !config.check_link {
        return Outcome::Compiled;
    }
    let mut dummies = Vec::new();
    for (dummy_stage, source) in dummy_shaders(config, stage) {
        let dummy = compile(&source, &CompileOptions::new(dummy_stage));
        if !dummy.success() {
            return Outcome::LinkFailed(format!(
                "the dummy {dummy_stage} shader piglit adds does not compile: {}",
                first_error_line(&dummy.info_log)
            ));
        }
        dummies.push(dummy);
    }
    let mut program: Vec<&rgl_glsl::CompiledShader> = vec![&shader];
    program.extend(dummies.iter());
    // The whole of glLinkProgram: the GLSL IR link and the NIR pipeline, so a
    // construct the later stages reject fails here as it does in rgl-state.
    match rgl_link::pipeline::build_program(
        &program,
        &rgl_link::Bindings::default(),
        rgl_link::pipeline::PipelineOptions::default(),
    ) {
        Ok(_) => Outcome::Linked,
        Err(log) => Outcome::LinkFailed(
            log.to_string()
                .lines()
                .next()
                .unwrap_or("(empty link log)")
                .to_string(),
        ),
    }
}

/// Runs one candidate file. `None` means it is not a glslparser test (no
/// `[config]` block).
/// A glslparser test file: its bytes and its `[config]` block.
pub(crate) struct TestFile {
    /// The file as read.
    pub bytes: Vec<u8>,
    /// Its parsed `[config]`.
    pub config: Config,
}

/// Reads `file` and parses its `[config]` block: `Ok(None)` for a file
/// without one (not a test), `Err` with the reason for an unreadable file or a
/// malformed block (reported as an error). Shared by the rgl run and the host
/// peer.
pub(crate) fn load(file: &FoundFile) -> Result<Option<TestFile>, String> {
    let bytes = std::fs::read(&file.path).map_err(|e| format!("cannot read the file: {e}"))?;
    let config = config::parse(&String::from_utf8_lossy(&bytes))
        .map_err(|e| format!("invalid [config] block: {e}"))?;
    Ok(config.map(|config| TestFile { bytes, config }))
}

pub fn run_one(file: &FoundFile) -> Option<TestResult> {
    let result = |status, reason: String, duration| TestResult::of(file, status, reason, duration);
    let TestFile { bytes, config } = match load(file) {
        Ok(None) => return None,
        Ok(Some(loaded)) => loaded,
        Err(why) => return Some(result(Status::Error, why, Duration::ZERO)),
    };
    let text = String::from_utf8_lossy(&bytes);
    let mut notes = Vec::new();
    if let std::borrow::Cow::Owned(_) = text {
        notes.push(
            "the file is not valid UTF-8 (its bytes are compiled as they are; rgl reports invalid UTF-8 as a compile error)",
        );
    }
    let ext = extension_of(&file.path).unwrap_or("");
    let stage = EXTENSIONS
        .iter()
        .find(|(e, _)| *e == ext)
        .and_then(|(_, s)| *s);
    if let Some(reason) = skip_reason(&config, stage, ext, &text) {
        return Some(result(Status::Skip, reason, Duration::ZERO));
    }
    let stage = stage?;
    if config.version.es && !has_version_directive(&text) {
        notes.push(
            "the file has no #version: piglit's ES context would compile it as GLSL ES 1.00, rgl compiles it as GLSL 1.10",
        );
    }
    let start = Instant::now();
    let outcome = panic_capture::catch(|| compile_and_link(&bytes, stage, &config));
    let duration = start.elapsed();
    let with_notes = |status, reason: String| {
        let mut reason = reason;
        for note in &notes {
            if !reason.is_empty() {
                reason.push_str("; ");
            }
            reason.push_str("note: ");
            reason.push_str(note);
        }
        result(status, reason, duration)
    };
    let what = if config.check_link {
        "compile and link"
    } else {
        "compile"
    };
    Some(match outcome {
        Err(panic) => {
            let mut r = with_notes(
                Status::Fail,
                format!("compiler/linker {}", panic.summary().replace('\n', " ")),
            );
            r.reason
                .push_str(&format!("\n{}", panic.backtrace.trim_end()));
            r
        }
        Ok(Outcome::Compiled | Outcome::Linked) if config.expect_pass => {
            with_notes(Status::Pass, String::new())
        }
        Ok(Outcome::CompileFailed(_) | Outcome::LinkFailed(_)) if !config.expect_pass => {
            with_notes(Status::Pass, String::new())
        }
        Ok(Outcome::NotImplemented(error)) if !config.expect_pass => with_notes(
            Status::Skip,
            format!("rgl does not implement a construct the shader uses: {error}"),
        ),
        Ok(Outcome::CompileFailed(error) | Outcome::NotImplemented(error)) => {
            with_notes(Status::Fail, format!("expected to {what}, but: {error}"))
        }
        Ok(Outcome::LinkFailed(error)) => with_notes(
            Status::Fail,
            format!("expected to {what}, but the link failed: {error}"),
        ),
        Ok(Outcome::Compiled) => with_notes(
            Status::Fail,
            "expected a compile error, but the shader compiled".into(),
        ),
        Ok(Outcome::Linked) => with_notes(
            Status::Fail,
            "expected a compile or link error, but the shader compiled and linked".into(),
        ),
    })
}

/// Runs every candidate (see [`crate::parallel`] for the threading); the
/// result order is the order of `files` whatever the thread timing.
pub fn run_all(files: &[FoundFile], options: parallel::Options) -> Vec<TestResult> {
    let outcomes = parallel::run(files, options, |file| file.id.clone(), run_one);
    files
        .iter()
        .zip(outcomes)
        .filter_map(|(file, outcome)| match outcome {
            Ok(result) => result,
            Err(why) => Some(TestResult {
                path: file.path.clone(),
                id: file.id.clone(),
                status: Status::Fail,
                reason: why,
                detail: String::new(),
                duration: Duration::ZERO,
            }),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Compiles (and links, under `check_link: true`) a glslparser test text
    /// and renders the outcome.
    fn outcome(text: &str, stage: Stage) -> String {
        let config = match config::parse(text) {
            Ok(Some(config)) => config,
            other => return format!("bad config: {other:?}"),
        };
        match compile_and_link(text.as_bytes(), stage, &config) {
            Outcome::CompileFailed(e) => format!("compile failed: {e}"),
            Outcome::NotImplemented(e) => format!("not implemented: {e}"),
            Outcome::Compiled => "compiled".into(),
            Outcome::Linked => "linked".into(),
            Outcome::LinkFailed(e) => format!("link failed: {e}"),
        }
    }

    /// A program calling an integer function at run time links: glsl_to_nir
    /// turns it into Mesa's NIR opcodes.
    #[test]
    fn integer_functions_link() {
        let text = "\
// [config]
// expect_result: pass
// glsl_version: 1.30
// require_extensions: GL_MESA_shader_integer_functions
// check_link: true
// [end config]
#version 130
#extension GL_MESA_shader_integer_functions : require
uniform uint u;
out vec4 color;
void main() { uint carry; color = vec4(float(uaddCarry(u, 1u, carry) + carry)); }
";
        assert_eq!(outcome(text, Stage::Fragment), "linked");
    }

    /// A compute program with shared memory, a barrier and an atomic goes
    /// through the whole link, NIR pipeline included.
    #[test]
    fn compute_programs_link_through_glsl_to_nir() {
        let text = "\
// [config]
// expect_result: pass
// glsl_version: 3.30
// require_extensions: GL_ARB_compute_shader
// check_link: true
// [end config]
#version 330
#extension GL_ARB_compute_shader : require
layout(local_size_x = 2) in;
shared uint counter;
void main() { barrier(); atomicAdd(counter, 1u); }
";
        assert_eq!(outcome(text, Stage::Compute), "linked");
    }

    /// A vertex shader reading a shader storage block goes through the whole
    /// link, NIR pipeline included.
    #[test]
    fn buffer_variables_link_through_glsl_to_nir() {
        let text = "\
// [config]
// expect_result: pass
// glsl_version: 1.40
// require_extensions: GL_ARB_shader_storage_buffer_object
// check_link: true
// [end config]
#version 140
#extension GL_ARB_shader_storage_buffer_object : require
layout(std430) buffer B { vec4 v; };
void main() { gl_Position = v; }
";
        assert_eq!(outcome(text, Stage::Vertex), "linked");
    }

    /// Arrays of arrays and initializer lists go through the whole link.
    #[test]
    fn arrays_of_arrays_with_initializer_lists_link() {
        let text = "\
// [config]
// expect_result: pass
// glsl_version: 1.30
// require_extensions: GL_ARB_arrays_of_arrays GL_ARB_shading_language_420pack
// check_link: true
// [end config]
#version 130
#extension GL_ARB_arrays_of_arrays : require
#extension GL_ARB_shading_language_420pack : require
uniform vec4 u[4];
out vec4 color;
void main() { vec4 a[2][2] = { { u[0], u[1] }, { u[2], u[3] } }; color = a[1][0] + a[0][1]; }
";
        assert_eq!(outcome(text, Stage::Fragment), "linked");
    }
}
