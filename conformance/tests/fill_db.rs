//! The shader-db fill-rate workloads (`rgl_conformance::fill_db`):
//! * every `tests/fill_db/*.shader_test` fixture (shader-db-like programs) is
//!   turned into a workload, or an error, and the text compared with the
//!   `.expected` file next to it (`BLESS=1` rewrites them);
//! * every program of the shared corpus's shader-db yields a workload that
//!   compiles, links, loads its textures, sets its uniforms and draws on rgl
//!   (at 64×64 instead of 1024×1024, to keep the test short); without the
//!   corpus the test fails under `CI=true` and is skipped otherwise;
//! * `uniform` commands naming a uniform the program lacks fail, unless the
//!   executor ignores missing uniforms as generated workloads ask.

use std::path::{Path, PathBuf};

use rgl_conformance::fill_db;
use rgl_conformance::result::Status;
use rgl_conformance::shader_test::exec::Executor;
use rgl_conformance::shader_test::isolate::{make_context, Engine};
use rgl_conformance::shader_test::{self};
use rgl_conformance::walk;

fn bless() -> bool {
    std::env::var_os("BLESS").is_some_and(|v| v == "1")
}

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fill_db")
}

/// `$RGL_CORPUS` (relative paths are taken from the repository root, as
/// `.ci/run` does), else `../shared/corpus` beside the repository.
fn corpus() -> PathBuf {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    match std::env::var_os("RGL_CORPUS") {
        Some(dir) => repo.join(dir),
        None => repo.join("../shared/corpus"),
    }
}

#[test]
fn fixtures_match_their_expected_workloads() {
    let dir = fixtures_dir();
    let mut fixtures: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| shader_test::is_candidate(p))
        .collect();
    fixtures.sort();
    assert!(!fixtures.is_empty(), "no fixtures in {}", dir.display());
    let mut failures = Vec::new();
    for fixture in &fixtures {
        let name = fixture
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let actual = match fill_db::generate_file(fixture, &format!("fixtures/{name}")) {
            Ok(workload) => workload.text,
            Err(e) => format!("error: {e}\n"),
        };
        let expected_path = fixture.with_extension("expected");
        if bless() {
            if let Err(e) = std::fs::write(&expected_path, &actual) {
                failures.push(format!("cannot write {}: {e}", expected_path.display()));
            }
            continue;
        }
        match std::fs::read_to_string(&expected_path) {
            Ok(expected) if expected == actual => {}
            Ok(expected) => {
                let line = expected
                    .lines()
                    .zip(actual.lines())
                    .position(|(e, a)| e != a)
                    .unwrap_or(expected.lines().count().min(actual.lines().count()));
                failures.push(format!(
                    "{} differs from line {} (expected {:?}, got {:?}); review and rerun with BLESS=1",
                    expected_path.display(),
                    line + 1,
                    expected.lines().nth(line).unwrap_or("<end>"),
                    actual.lines().nth(line).unwrap_or("<end>"),
                ));
            }
            Err(e) => failures.push(format!(
                "cannot read {} ({e}); run with BLESS=1 to create it",
                expected_path.display()
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Runs a workload's text on rgl, as `fill` does before timing it; `Ok` on a
/// pass, else the executor's messages.
fn run_on_rgl(text: &str, path: &Path, ignore_missing_uniforms: bool) -> Result<(), String> {
    let parsed = shader_test::parse(text);
    if let Some(e) = parsed.errors.first() {
        return Err(format!("parse error: {e}"));
    }
    let mut context = make_context(Engine::Rgl)?;
    let mut executor = Executor::new(context.as_mut());
    executor.ignore_missing_uniforms(ignore_missing_uniforms);
    let outcome = executor.run(&parsed.test, path);
    match outcome.status {
        Status::Pass => Ok(()),
        status => Err(format!("{status:?}: {}", outcome.messages.join("; "))),
    }
}

/// The large stack the runner gives a test (deep shaders are the compiler's
/// problem, not this thread's).
fn on_big_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(f)
        .expect("spawn a test thread")
        .join()
        .expect("the test thread panicked")
}

#[test]
fn every_shader_db_program_runs_on_rgl() {
    let root = corpus().join("shader-db");
    let files =
        walk::walk(std::slice::from_ref(&root), shader_test::is_candidate).unwrap_or_default();
    if files.is_empty() {
        // Under CI a missing corpus is a failure, never a vacuous pass.
        assert!(
            std::env::var_os("CI").is_none(),
            "fill_db: no shader-db corpus at {} (CI=true needs it)",
            root.display()
        );
        eprintln!(
            "fill_db: no shader-db corpus at {}; nothing checked",
            root.display()
        );
        return;
    }
    let failures = on_big_stack(move || {
        let mut failures = Vec::new();
        let full = format!("SIZE {0} {0}\n", fill_db::TARGET_SIZE);
        for file in &files {
            let workload = match fill_db::generate_file(&file.path, &file.id) {
                Ok(w) => w,
                Err(e) => {
                    failures.push(format!("{}: not generated: {e}", file.id));
                    continue;
                }
            };
            assert!(
                workload.text.contains(&full),
                "{}: no `{}` line",
                file.id,
                full.trim()
            );
            let small = workload.text.replace(&full, "SIZE 64 64\n");
            if let Err(e) = run_on_rgl(&small, &file.path, true) {
                failures.push(format!("{}: {e}", file.id));
            }
        }
        eprintln!(
            "fill_db: {} shader-db workloads, {} failed on rgl",
            files.len(),
            failures.len()
        );
        failures
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn missing_uniforms_fail_unless_ignored() {
    let text = "\
[require]
GLSL >= 1.30
SIZE 8 8

[vertex shader]
#version 130
in vec4 piglit_vertex;
void main() { gl_Position = piglit_vertex; }

[fragment shader]
#version 130
uniform vec4 used;
uniform vec4 unused;
out vec4 color;
void main() { color = used; }

[test]
uniform vec4 used 0.5 0.5 0.5 1.0
uniform vec4 unused 1.0 0.0 0.0 1.0
uniform vec4 missing[3] 1.0 0.0 0.0 1.0
draw rect -1 -1 2 2
probe all rgba 0.5 0.5 0.5 1.0
";
    let path = PathBuf::from("inline.shader_test");
    let (strict, lenient) = on_big_stack({
        let path = path.clone();
        move || {
            (
                run_on_rgl(text, &path, false),
                run_on_rgl(text, &path, true),
            )
        }
    });
    // Line 20 names a uniform the shader does not declare.
    let strict = strict.expect_err("a missing uniform must fail the strict run");
    assert!(strict.contains("line 20: "), "{strict}");
    assert_eq!(lenient, Ok(()));
}
