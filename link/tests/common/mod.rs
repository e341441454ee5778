//! Shared helpers of the link crate's corpus sweeps: where the corpus is, what a
//! missing corpus means, and the known-failure lists. Not every test binary
//! uses every helper.
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

/// Whether a sweep found corpus files to run (`files` of them under `root`).
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

/// The entries of a known-failure list: one per line, the entry being the text
/// before `separator` (the reason follows it); `#` lines are comments.
pub fn known_entries(list: &Path, separator: &str) -> Vec<String> {
    std::fs::read_to_string(list)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", list.display()))
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split(separator).next().unwrap_or(l).trim().to_string())
        .collect()
}

/// Fails when known failures of `list` did not fail in this run: a list entry
/// that hides nothing would hide the next regression of that program, so the
/// list must shrink.
pub fn assert_none_fixed(list: &Path, fixed: &[String]) {
    assert!(
        fixed.is_empty(),
        "{} known failure(s) of {} no longer fail; remove them from the list:\n{}",
        fixed.len(),
        list.display(),
        fixed.join("\n")
    );
}

/// Prints the programs a sweep could not build (so they are counted and named,
/// never dropped silently).
pub fn print_not_built(test: &str, what: &str, names: &[String]) {
    if names.is_empty() {
        return;
    }
    eprintln!("{test}: {} {what}:", names.len());
    for n in names {
        eprintln!("  {n}");
    }
}
