//! Replays inputs that once crashed the compiler (found by the `compile` fuzz
//! target in `glsl/fuzz`, minimised, saved as text in `tests/fuzz-regressions/`).
//! Each is compiled as a vertex, fragment and geometry shader; none may panic,
//! and a failed compile must explain itself in the info log. The report lists
//! every input and outcome, so a failure shows them all at once.

use std::panic::{self, AssertUnwindSafe};
use std::path::Path;

use rgl_glsl::{compile, CompileOptions, Stage};

const STAGES: [Stage; 3] = [Stage::Vertex, Stage::Fragment, Stage::Geometry];

/// One line per (input, stage): `name stage: compiled | N error(s) | PANIC: message | EMPTY LOG`.
fn outcome(source: &str, stage: Stage) -> (bool, String) {
    let result = panic::catch_unwind(AssertUnwindSafe(|| {
        compile(source, &CompileOptions::new(stage))
    }));
    match result {
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "(non-string payload)".into());
            (false, format!("PANIC: {message}"))
        }
        Ok(shader) if shader.success() => (true, "compiled".into()),
        Ok(shader) => {
            let log = shader.info_log.to_string();
            let errors = shader
                .info_log
                .diagnostics
                .iter()
                .filter(|d| d.is_error())
                .count();
            if log.trim().is_empty() {
                (
                    false,
                    "EMPTY LOG: the compile failed without a message".into(),
                )
            } else {
                (true, format!("{errors} error(s)"))
            }
        }
    }
}

#[test]
fn fuzz_regressions_do_not_panic() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-regressions");
    let mut inputs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "glsl"))
        .collect();
    inputs.sort();
    assert!(!inputs.is_empty(), "no *.glsl inputs in {}", dir.display());

    let mut report = String::new();
    let mut all_ok = true;
    for path in &inputs {
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let source = String::from_utf8_lossy(&bytes);
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        for stage in STAGES {
            let (ok, what) = outcome(&source, stage);
            all_ok &= ok;
            report.push_str(&format!("{name} {stage}: {what}\n"));
        }
    }
    assert!(all_ok, "fuzz regressions failed:\n{report}");
}
