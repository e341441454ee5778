//! `glslparser --peer host`: every glslparsertest file run on the host's GL
//! (Mesa llvmpipe on the CI machines) the way piglit's `glslparsertest`
//! program runs it, so rgl's results can be set beside the reference
//! implementation's in one run (the per-folder table of
//! [`crate::shader_test::peer::render`]).
//!
//! What piglit's `glslparsertest.c` does, and so what this does:
//! - the test skips unless the context has the GLSL version it asks for: on
//!   desktop GL an ES version needs the matching `GL_ARB_ES*_compatibility`
//!   extension (ES 1.00: `ES2`, 3.00: `ES3`, 3.10: `ES3_1`, 3.20: `ES3_2`);
//!   a desktop version must not exceed `GL_SHADING_LANGUAGE_VERSION`;
//! - every `require_extensions` entry must be advertised (`!NAME`: must not
//!   be); tessellation files need GL 4.0 or `GL_ARB_tessellation_shader`,
//!   compute files GL 4.3 or `GL_ARB_compute_shader`;
//! - the shader is compiled; if it compiled it is always linked, with the
//!   complementary dummy shader for GLSL ES 1.00/3.00 and a dummy vertex
//!   shader for geometry and tessellation shaders, but the link status only
//!   counts under `check_link: true`;
//! - the test passes when that success matches `expect_result`.
//!
//! Desktop GLSL 1.40 and later run in a core-profile context, the rest in a
//! compatibility-profile one, as piglit chooses ([`wants_core`]).
//!
//! Files using `dummy_shader_include` / `shader_include_path` get the named
//! string and search path piglit sets up, through the host's
//! `GL_ARB_shading_language_include` entry points.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use glutin::context::GlProfile;

use crate::result::{Status, TestResult};
use crate::shader_test::gl_api::GlApi;
use crate::shader_test::host::{HostContext, HostGl};
use crate::shader_test::isolate;
use crate::shader_test::support::Capabilities;
use crate::walk::FoundFile;

use super::config::{self, Config};
use super::DUMMY_SHADER_INCLUDE;

/// The GL shader type of a glslparsertest file extension.
fn shader_type(ext: &str) -> Option<u32> {
    Some(match ext {
        "vert" => glow::VERTEX_SHADER,
        "frag" => glow::FRAGMENT_SHADER,
        "geom" => glow::GEOMETRY_SHADER,
        "tesc" => glow::TESS_CONTROL_SHADER,
        "tese" => glow::TESS_EVALUATION_SHADER,
        "comp" => glow::COMPUTE_SHADER,
        _ => return None,
    })
}

fn has(caps: &Capabilities, name: &str) -> bool {
    caps.desktop_extensions.iter().any(|e| e == name)
}

/// Why the host context cannot run the test (piglit's SKIP), if it cannot.
fn skip_reason(caps: &Capabilities, config: &Config, ty: u32) -> Option<String> {
    let number = u32::from(config.version.number);
    if config.version.es {
        let needed = match number {
            100 => "GL_ARB_ES2_compatibility",
            300 => "GL_ARB_ES3_compatibility",
            310 => "GL_ARB_ES3_1_compatibility",
            _ => "GL_ARB_ES3_2_compatibility",
        };
        if !has(caps, needed) {
            return Some(format!("GLSL ES {number} needs {needed}"));
        }
    } else {
        let desktop = caps.glsl_versions.map_or(110, |(d, _)| d);
        if desktop < number {
            return Some(format!("GLSL {number} needed, the host has {desktop}"));
        }
    }
    let stage_needs = match ty {
        glow::TESS_CONTROL_SHADER | glow::TESS_EVALUATION_SHADER => {
            Some(("GL_ARB_tessellation_shader", 40))
        }
        glow::COMPUTE_SHADER => Some(("GL_ARB_compute_shader", 43)),
        _ => None,
    };
    if let Some((ext, gl)) = stage_needs {
        if !has(caps, ext) && caps.gl_version < gl {
            return Some(format!("needs GL {}.{} or {ext}", gl / 10, gl % 10));
        }
    }
    for requirement in &config.extensions {
        let advertised = has(caps, &requirement.name);
        if requirement.absent && advertised {
            return Some(format!("requires {} to be absent", requirement.name));
        }
        if !requirement.absent && !advertised {
            return Some(format!("requires {}", requirement.name));
        }
    }
    None
}

/// piglit's dummy shader of `ty` (vertex or fragment) for version `number`.
fn dummy_source(ty: u32, number: u32) -> String {
    let es = if number == 300 { "es" } else { "" };
    if ty == glow::VERTEX_SHADER {
        format!("#version {number} {es}\nvoid main() {{ gl_Position = vec4(0.0); }}")
    } else {
        format!("#version {number} {es}\nvoid main() {{ }}")
    }
}

/// The dummy shaders piglit attaches before linking a shader of `ty`.
fn dummy_types(config: &Config, ty: u32) -> Vec<u32> {
    let mut out = Vec::new();
    if matches!(config.version.number, 100 | 300) {
        match ty {
            glow::FRAGMENT_SHADER => out.push(glow::VERTEX_SHADER),
            glow::VERTEX_SHADER => out.push(glow::FRAGMENT_SHADER),
            _ => {}
        }
    }
    if matches!(
        ty,
        glow::GEOMETRY_SHADER | glow::TESS_CONTROL_SHADER | glow::TESS_EVALUATION_SHADER
    ) {
        out.push(glow::VERTEX_SHADER);
    }
    out
}

/// Compiles (and links) the test on the host: `Ok(None)` when it succeeded
/// as far as the test checks, `Ok(Some(why))` when it did not.
fn compile_and_link(
    gl: &mut HostGl,
    text: &str,
    ty: u32,
    config: &Config,
) -> Result<Option<String>, String> {
    let shader = gl.create_shader(ty)?;
    gl.shader_source(shader, text);
    if config.needs_shader_include() {
        if config.dummy_shader_include {
            gl.named_string(DUMMY_SHADER_INCLUDE, "")?;
        }
        let paths: Vec<&str> = config
            .shader_include_path
            .iter()
            .map(String::as_str)
            .collect();
        gl.compile_shader_include(shader, &paths)?;
    } else {
        gl.compile_shader(shader);
    }
    if !gl.get_shader_compile_status(shader) {
        let log = gl.get_shader_info_log(shader);
        return Ok(Some(format!(
            "compile failed: {}",
            log.lines().next().unwrap_or("(empty info log)")
        )));
    }
    // piglit links every shader that compiled, to exercise the linker, but
    // only looks at the result under check_link.
    let program = gl.create_program()?;
    gl.attach_shader(program, shader);
    for dummy_ty in dummy_types(config, ty) {
        let dummy = gl.create_shader(dummy_ty)?;
        gl.shader_source(dummy, &dummy_source(dummy_ty, config.version.number.into()));
        gl.compile_shader(dummy);
        gl.attach_shader(program, dummy);
    }
    gl.link_program(program);
    if config.check_link && !gl.get_program_link_status(program) {
        let log = gl.get_program_info_log(program);
        return Ok(Some(format!(
            "link failed: {}",
            log.lines().next().unwrap_or("(empty info log)")
        )));
    }
    Ok(None)
}

/// Runs one file on the host; `None` when it is not a glslparsertest.
fn run_one(gl: &mut HostGl, caps: &Capabilities, file: &FoundFile) -> Option<TestResult> {
    let result = |status, reason: String, duration| TestResult::of(file, status, reason, duration);
    let super::TestFile { bytes, config } = match super::load(file) {
        Ok(None) => return None,
        Ok(Some(loaded)) => loaded,
        Err(why) => return Some(result(Status::Error, why, Duration::ZERO)),
    };
    let text = String::from_utf8_lossy(&bytes);
    let ext = super::extension_of(&file.path).unwrap_or("");
    let ty = shader_type(ext)?;
    if let Some(why) = skip_reason(caps, &config, ty) {
        return Some(result(Status::Skip, why, Duration::ZERO));
    }
    let start = Instant::now();
    let outcome = compile_and_link(gl, &text, ty, &config);
    let duration = start.elapsed();
    Some(match outcome {
        Err(e) => result(Status::Fail, format!("GL error: {e}"), duration),
        Ok(None) if config.expect_pass => result(Status::Pass, String::new(), duration),
        Ok(Some(_)) if !config.expect_pass => result(Status::Pass, String::new(), duration),
        Ok(Some(why)) => result(
            Status::Fail,
            format!("expected success, but {why}"),
            duration,
        ),
        Ok(None) => result(
            Status::Fail,
            "expected a failure, but the shader compiled (and linked)".into(),
            duration,
        ),
    })
}

/// True when piglit would run the test in a core-profile context: a desktop
/// GLSL version of 1.40 or later without the `compatibility` suffix and not
/// requiring `GL_ARB_compatibility` (piglit's glslparsertest asks for a core
/// context from GLSL 1.40 on, where the compatibility built-ins are gone).
fn wants_core(config: &Config) -> bool {
    !config.version.es
        && !config.version.compatibility
        && config.version.number >= 140
        && !config
            .extensions
            .iter()
            .any(|r| !r.absent && r.name == "GL_ARB_compatibility")
}

/// Parses the file's config block to pick its context profile; files
/// without a readable block go with the compatibility ones (they are
/// reported as errors or dropped there).
fn file_wants_core(file: &FoundFile) -> bool {
    let Ok(bytes) = std::fs::read(&file.path) else {
        return false;
    };
    matches!(config::parse(&String::from_utf8_lossy(&bytes)), Ok(Some(c)) if wants_core(&c))
}

/// The child side (`rgl-conformance glslparser-host`): creates one context
/// of the profile, prints `ready RENDERER` (or `error WHY` and stops), then
/// reads one file path per line from stdin and prints one line per file: the
/// result as [`isolate::encode`] writes it, or `-` for a file that is not a
/// glslparsertest.
pub fn child_main(core: bool) -> ExitCode {
    let profile = if core {
        GlProfile::Core
    } else {
        GlProfile::Compatibility
    };
    let mut out = std::io::stdout().lock();
    let mut context = match HostContext::with_profile(profile) {
        Ok(context) => context,
        Err(why) => {
            let _ = writeln!(out, "error {}", why.replace('\n', " "));
            return ExitCode::FAILURE;
        }
    };
    let gl = context.api_mut();
    let caps = gl.capabilities();
    if writeln!(out, "ready {}", gl.describe()).is_err() || out.flush().is_err() {
        return ExitCode::FAILURE;
    }
    for line in std::io::stdin().lock().lines() {
        let Ok(path) = line else { break };
        let file = FoundFile {
            path: PathBuf::from(&path),
            id: path,
            root: String::new(),
        };
        let line = run_one(gl, &caps, &file).map_or("-".to_string(), |r| isolate::encode(&r));
        if writeln!(out, "{line}").is_err() || out.flush().is_err() {
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

/// The signal that ended a child, where the platform has signals.
fn signal_of(status: std::process::ExitStatus) -> Option<i32> {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        status.signal()
    }
    #[cfg(not(unix))]
    {
        let _ = status;
        None
    }
}

/// What one child run gave: the renderer, and a line per file it finished
/// before it exited.
struct ChildRun {
    renderer: String,
    lines: Vec<String>,
    /// How the child ended, when it ended before finishing every file.
    died: Option<String>,
}

/// Runs `files` in one child of `exe`, feeding the paths on stdin from a
/// thread (the child's output may outgrow a pipe before it has read them).
fn run_child(exe: &Path, core: bool, files: &[&FoundFile]) -> Result<ChildRun, String> {
    let mut child = Command::new(exe)
        .arg("glslparser-host")
        .args(core.then_some("--core"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start the host child: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("no child stdin")?;
    let paths: String = files
        .iter()
        .map(|f| format!("{}\n", f.path.display()))
        .collect();
    let feeder = std::thread::spawn(move || {
        // A child that dies early closes its end; the rest is not needed.
        let _ = stdin.write_all(paths.as_bytes());
    });
    let stdout = child.stdout.take().ok_or("no child stdout")?;
    let mut reader = BufReader::new(stdout).lines();
    let first = reader.next().and_then(Result::ok).unwrap_or_default();
    let renderer = match first.split_once(' ') {
        Some(("ready", renderer)) => renderer.to_string(),
        Some(("error", why)) => {
            let _ = child.wait();
            return Err(why.to_string());
        }
        _ => {
            let status = child.wait().map_or("unknown".into(), |s| s.to_string());
            return Err(format!(
                "the host child ended before it had a context ({status})"
            ));
        }
    };
    let lines: Vec<String> = reader.map_while(Result::ok).collect();
    let _ = feeder.join();
    let status = child
        .wait()
        .map_err(|e| format!("waiting for the host child: {e}"))?;
    let died = (lines.len() < files.len()).then(|| match signal_of(status) {
        Some(signal) => format!("host crashed with signal {signal}"),
        None => format!("host child ended early ({status})"),
    });
    Ok(ChildRun {
        renderer,
        lines,
        died,
    })
}

/// Runs every file on the host's GL in child processes of `exe` (this
/// program), as piglit runs one `glslparsertest` process per file: a
/// compiler crash on the host fails that file and a new child goes on with
/// the next. Compatibility-profile files go to one child and core-profile
/// ones to another (see [`wants_core`]). Returns the renderer strings and the
/// results in the order of `files`, minus the files without a `[config]`
/// block, exactly as [`super::run_all`] orders and filters them; `Err` says
/// why there is no host GL.
pub fn run_all(files: &[FoundFile], exe: &Path) -> Result<(String, Vec<TestResult>), String> {
    let core: Vec<bool> = files.iter().map(file_wants_core).collect();
    let mut slots: Vec<Option<TestResult>> = vec![None; files.len()];
    let mut renderers: Vec<String> = Vec::new();
    for want_core in [false, true] {
        let indices: Vec<usize> = (0..files.len()).filter(|&i| core[i] == want_core).collect();
        let mut next = 0;
        while next < indices.len() {
            let batch: Vec<&FoundFile> = indices[next..].iter().map(|&i| &files[i]).collect();
            let run = run_child(exe, want_core, &batch)?;
            if !renderers.contains(&run.renderer) {
                renderers.push(run.renderer.clone());
            }
            for (line, &i) in run.lines.iter().zip(&indices[next..]) {
                let file = &files[i];
                // `-`: not a glslparsertest, as on rgl's side.
                slots[i] =
                    isolate::decode(line).map(|(status, reason, detail, duration)| TestResult {
                        path: file.path.clone(),
                        id: file.id.clone(),
                        status,
                        reason,
                        detail,
                        duration,
                    });
            }
            next += run.lines.len();
            if let Some(why) = run.died {
                // The file the child was running when it died.
                let file = &files[indices[next]];
                slots[indices[next]] = Some(TestResult {
                    path: file.path.clone(),
                    id: file.id.clone(),
                    status: Status::Fail,
                    reason: why,
                    detail: String::new(),
                    duration: Duration::ZERO,
                });
                next += 1;
            }
        }
    }
    Ok((renderers.join("; "), slots.into_iter().flatten().collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(text: &str) -> Config {
        match config::parse(text) {
            Ok(Some(config)) => config,
            other => panic!("bad config: {other:?}"),
        }
    }

    fn caps(glsl: u32, gl: u32, extensions: &[&str]) -> Capabilities {
        let mut caps = Capabilities::rgl_link_only();
        caps.gl_version = gl;
        caps.desktop_extensions = extensions.iter().map(|e| e.to_string()).collect();
        caps.glsl_versions = Some((glsl, 0));
        caps
    }

    #[test]
    fn requirements_follow_glslparsertest() {
        let es310 = config(
            "// [config]\n// expect_result: pass\n// glsl_version: 3.10 es\n// [end config]\n",
        );
        let with = caps(450, 45, &["GL_ARB_ES3_1_compatibility"]);
        let without = caps(450, 45, &[]);
        assert_eq!(skip_reason(&with, &es310, glow::FRAGMENT_SHADER), None);
        assert_eq!(
            skip_reason(&without, &es310, glow::FRAGMENT_SHADER).as_deref(),
            Some("GLSL ES 310 needs GL_ARB_ES3_1_compatibility")
        );
        let desktop = config(
            "// [config]\n// expect_result: fail\n// glsl_version: 4.50\n\
             // require_extensions: GL_ARB_foo !GL_ARB_bar\n// [end config]\n",
        );
        let old = caps(430, 43, &["GL_ARB_foo"]);
        assert_eq!(
            skip_reason(&old, &desktop, glow::VERTEX_SHADER).as_deref(),
            Some("GLSL 450 needed, the host has 430")
        );
        let bar = caps(450, 45, &["GL_ARB_foo", "GL_ARB_bar"]);
        assert_eq!(
            skip_reason(&bar, &desktop, glow::VERTEX_SHADER).as_deref(),
            Some("requires GL_ARB_bar to be absent")
        );
        let ok = caps(450, 45, &["GL_ARB_foo"]);
        assert_eq!(skip_reason(&ok, &desktop, glow::VERTEX_SHADER), None);
        let compute =
            config("// [config]\n// expect_result: pass\n// glsl_version: 3.30\n// [end config]\n");
        assert_eq!(
            skip_reason(&caps(330, 33, &[]), &compute, glow::COMPUTE_SHADER).as_deref(),
            Some("needs GL 4.3 or GL_ARB_compute_shader")
        );
    }

    #[test]
    fn dummies_follow_glslparsertest() {
        let es100 =
            config("// [config]\n// expect_result: pass\n// glsl_version: 1.00\n// [end config]\n");
        assert_eq!(
            dummy_types(&es100, glow::FRAGMENT_SHADER),
            vec![glow::VERTEX_SHADER]
        );
        let desktop =
            config("// [config]\n// expect_result: pass\n// glsl_version: 4.00\n// [end config]\n");
        assert_eq!(
            dummy_types(&desktop, glow::TESS_EVALUATION_SHADER),
            vec![glow::VERTEX_SHADER]
        );
        assert!(dummy_types(&desktop, glow::FRAGMENT_SHADER).is_empty());
        assert_eq!(
            dummy_source(glow::VERTEX_SHADER, 300),
            "#version 300 es\nvoid main() { gl_Position = vec4(0.0); }"
        );
    }
}
