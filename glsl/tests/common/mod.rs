//! Shared helpers of the front end's corpus tests: where the corpus is and what
//! a missing corpus means. Not every test binary uses every helper.
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
