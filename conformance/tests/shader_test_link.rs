//! Data-driven test of `shader-test --link-only`: every
//! `tests/shader_test/link/*.shader_test` fixture is run through
//! [`rgl_conformance::shader_test::link_only::run_one`] and the results, one
//! `STATUS file: reason` line each, are compared with
//! `tests/shader_test/link/expected.txt` (`BLESS=1` rewrites it).

use std::path::{Path, PathBuf};

use rgl_conformance::shader_test::{self, link_only, support::Capabilities};
use rgl_conformance::walk::FoundFile;

#[test]
fn link_only_fixtures() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/shader_test/link");
    let mut fixtures: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| shader_test::is_candidate(p))
        .collect();
    fixtures.sort();
    assert!(!fixtures.is_empty(), "no fixtures in {}", dir.display());
    let caps = Capabilities::rgl_link_only();
    let mut actual = String::new();
    for path in &fixtures {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let file = FoundFile {
            path: path.clone(),
            id: name.clone(),
            root: name.clone(),
        };
        let result = link_only::run_one(&file, &caps, link_only::LinkDepth::GlslIr);
        // Reasons name the file by its path; keep the expectation path-free.
        let reason = result
            .reason
            .replace(&path.display().to_string(), &name)
            .replace(&dir.display().to_string(), "<dir>");
        if reason.is_empty() {
            actual.push_str(&format!("{} {name}\n", result.status.word()));
        } else {
            actual.push_str(&format!("{} {name}: {reason}\n", result.status.word()));
        }
    }
    let expected_path = dir.join("expected.txt");
    if std::env::var_os("BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&expected_path, &actual)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", expected_path.display()));
        return;
    }
    let expected = std::fs::read_to_string(&expected_path).unwrap_or_else(|e| {
        panic!(
            "cannot read {} ({e}); run with BLESS=1 to create it",
            expected_path.display()
        )
    });
    assert_eq!(
        expected,
        actual,
        "link-only results differ from {}; review and rerun with BLESS=1",
        expected_path.display()
    );
}
