//! Data-driven tests of the semantic checker's diagnostics: every
//! `tests/check/*.{vert,frag,geom,comp}` is compiled and its rendered info log is
//! compared with the committed `*.log` next to it. `BLESS=1` rewrites the logs.

use std::path::{Path, PathBuf};

use rgl_glsl::{compile, CompileOptions, Stage};

fn cases() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/check");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/check exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension()
                .and_then(|e| e.to_str())
                .and_then(Stage::from_extension)
                .is_some()
        })
        .collect();
    files.sort();
    files
}

fn render(path: &Path) -> String {
    let source = std::fs::read_to_string(path).expect("readable test");
    let stage = path
        .extension()
        .and_then(|e| e.to_str())
        .and_then(Stage::from_extension)
        .expect("stage");
    let shader = compile(&source, &CompileOptions::new(stage));
    let mut out = shader.info_log.to_string();
    out.push_str(if shader.success() {
        "// compiled\n"
    } else {
        "// failed\n"
    });
    out
}

#[test]
fn semantic_diagnostics() {
    let bless = std::env::var_os("BLESS").is_some();
    let mut failures = Vec::new();
    let cases = cases();
    assert!(!cases.is_empty(), "no test cases found");
    for path in cases {
        let actual = render(&path);
        let log = path.with_extension(format!(
            "{}.log",
            path.extension()
                .and_then(|e| e.to_str())
                .unwrap_or_default()
        ));
        if bless {
            std::fs::write(&log, &actual).expect("write log");
            continue;
        }
        let expected = std::fs::read_to_string(&log).unwrap_or_default();
        if expected != actual {
            failures.push(format!(
                "{}:\n--- expected\n{expected}--- actual\n{actual}",
                path.display()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
