//! Shared helpers of the front end's tests: where the corpus is and what a
//! missing corpus means, and the text-in/text-out case runner of the
//! preprocessor file tests. Not every test binary uses every helper.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// `$RGL_CORPUS` (relative paths are taken from the repository root, as
/// `.ci/run` does), else `../shared/corpus` beside the repository.
pub fn corpus_root() -> PathBuf {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    match std::env::var_os("RGL_CORPUS") {
        Some(dir) => repo.join(dir),
        None => repo.join("../shared/corpus"),
    }
}

/// Whether a test found corpus files to run (`files` of them under `root`).
/// A sweep over nothing never passes under CI (`CI` set): it fails there; on
/// a machine without the corpus the test says it skipped and returns.
pub fn corpus_found(test: &str, files: usize, root: &Path) -> bool {
    if files > 0 {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "{test}: no corpus at {} (CI needs it; set RGL_CORPUS)",
        root.display()
    );
    eprintln!("{test}: skipped, no corpus at {}", root.display());
    false
}

/// Runs `render` on every `tests/<dir>/*.glsl` case (path and text) and
/// compares its output with the `.expected` file beside the case; `BLESS=1`
/// rewrites the expectations instead. Panics listing the cases that differ.
pub fn expect_cases(dir: &str, mut render: impl FnMut(&Path, &str) -> String) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(dir);
    let bless = std::env::var_os("BLESS").is_some();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "glsl"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no test files in {}", dir.display());
    let mut failures = Vec::new();
    for file in &files {
        let bytes = std::fs::read(file).expect("readable test file");
        let source = String::from_utf8(bytes).expect("test files are UTF-8");
        let actual = render(file, &source);
        let expected_path = file.with_extension("expected");
        if bless {
            std::fs::write(&expected_path, &actual).expect("write expectation");
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != actual {
            failures.push(format!(
                "--- {}\nexpected:\n{expected}\nactual:\n{actual}",
                file.display()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}
