//! Repository hygiene: every Rust source file in the workspace opens with a `//!`
//! module doc saying what it owns, and no file grows past the size guideline.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if path.is_dir() {
            if name != "target" && !name.starts_with('.') && name != "corpus" && name != "artifacts"
            {
                rust_files(&path, out);
            }
        } else if name.ends_with(".rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_rust_file_has_a_module_doc_and_a_sane_size() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root");
    let mut files = Vec::new();
    for krate in [
        "glsl",
        "link",
        "nir",
        "state",
        "backend",
        "examples",
        "conformance",
    ] {
        rust_files(&root.join(krate), &mut files);
    }
    files.sort();
    let mut problems = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        if !first.starts_with("//!") {
            problems.push(format!(
                "{}: does not start with a `//!` module doc",
                file.display()
            ));
        }
        let lines = text.lines().count();
        if lines > 2000 {
            problems.push(format!(
                "{}: {lines} lines (split it; the guideline is ~1500)",
                file.display()
            ));
        }
    }
    assert!(files.len() > 10, "found only {} Rust files", files.len());
    assert!(
        problems.is_empty(),
        "tidy problems:\n{}",
        problems.join("\n")
    );
}
