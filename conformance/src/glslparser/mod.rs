//! The glslparsertest runner: for each `.vert/.frag/.geom/.tesc/.tese/.comp`
//! file with a `[config]` block, decide whether rgl can run it (version,
//! extensions, stage, link requirement), compile its bytes verbatim with
//! [`rgl_glsl::compile_bytes`] (what `glShaderSource` + `glCompileShader` will
//! do) and compare success with `expect_result`.

pub mod config;
pub mod support;

use std::path::Path;
use std::time::{Duration, Instant};

use rgl_glsl::{compile_bytes, CompileOptions, Stage};

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
    ("comp", None),
];

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
fn skip_reason(config: &Config, stage: Option<Stage>, ext: &str) -> Option<String> {
    let Some(stage) = stage else {
        return Some(format!(
            "{ext} shaders (tessellation/compute) are not supported by rgl"
        ));
    };
    let Some(version) = support::rgl_version(config.version) else {
        return Some(format!("GLSL {} is not supported by rgl", config.version));
    };
    if config.needs_shader_include {
        return Some(
            "shader include (ARB_shading_language_include) is not supported by rgl".into(),
        );
    }
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
    if config.check_link {
        return Some("check_link needs the linker (not implemented yet)".into());
    }
    None
}

/// Runs one candidate file. `None` means it is not a glslparser test (no
/// `[config]` block).
pub fn run_one(file: &FoundFile) -> Option<TestResult> {
    let result = |status, reason: String, duration| TestResult {
        path: file.path.clone(),
        id: file.id.clone(),
        status,
        reason,
        detail: String::new(),
        duration,
    };
    let bytes = match std::fs::read(&file.path) {
        Ok(bytes) => bytes,
        Err(e) => {
            return Some(result(
                Status::Error,
                format!("cannot read the file: {e}"),
                Duration::ZERO,
            ))
        }
    };
    let text = String::from_utf8_lossy(&bytes);
    let mut notes = Vec::new();
    if let std::borrow::Cow::Owned(_) = text {
        notes.push(
            "the file is not valid UTF-8 (its bytes are compiled as they are; rgl reports invalid UTF-8 as a compile error)",
        );
    }
    let config = match config::parse(&text) {
        Ok(None) => return None,
        Ok(Some(config)) => config,
        Err(e) => {
            return Some(result(
                Status::Error,
                format!("invalid [config] block: {e}"),
                Duration::ZERO,
            ))
        }
    };
    let ext = extension_of(&file.path).unwrap_or("");
    let stage = EXTENSIONS
        .iter()
        .find(|(e, _)| *e == ext)
        .and_then(|(_, s)| *s);
    if let Some(reason) = skip_reason(&config, stage, ext) {
        return Some(result(Status::Skip, reason, Duration::ZERO));
    }
    let stage = stage?;
    if config.version.es && !has_version_directive(&text) {
        notes.push(
            "the file has no #version: piglit's ES context would compile it as GLSL ES 1.00, rgl compiles it as GLSL 1.10",
        );
    }
    let options = CompileOptions::new(stage);
    let start = Instant::now();
    let outcome = panic_capture::catch(|| compile_bytes(&bytes, &options));
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
    Some(match outcome {
        Err(panic) => {
            let mut r = with_notes(
                Status::Fail,
                format!("compiler {}", panic.summary().replace('\n', " ")),
            );
            r.reason
                .push_str(&format!("\n{}", panic.backtrace.trim_end()));
            r
        }
        Ok(shader) => {
            let success = shader.success();
            match (success, config.expect_pass) {
                (true, true) | (false, false) => with_notes(Status::Pass, String::new()),
                (false, true) => with_notes(
                    Status::Fail,
                    format!(
                        "expected to compile, but: {}",
                        first_error_line(&shader.info_log)
                    ),
                ),
                (true, false) => with_notes(
                    Status::Fail,
                    "expected a compile error, but the shader compiled".into(),
                ),
            }
        }
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
