//! Shared helpers of the data-driven NIR tests: corpus discovery, `BLESS=1` handling
//! and a line diff for mismatches. Not every test binary uses every helper.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// Every `*.nir` file under `dir` (recursively), sorted.
pub fn nir_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "nir") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Directory of the test data.
pub fn tests_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")
}

/// True when expectations should be rewritten.
pub fn bless() -> bool {
    std::env::var("BLESS").is_ok_and(|v| v == "1")
}

/// A readable line diff.
pub fn diff(expected: &str, actual: &str) -> String {
    let e: Vec<&str> = expected.lines().collect();
    let a: Vec<&str> = actual.lines().collect();
    let mut out = String::new();
    for i in 0..e.len().max(a.len()) {
        match (e.get(i), a.get(i)) {
            (Some(x), Some(y)) if x == y => {}
            (x, y) => {
                out.push_str(&format!(
                    "line {}:\n  expected: {}\n  actual:   {}\n",
                    i + 1,
                    x.unwrap_or(&"<none>"),
                    y.unwrap_or(&"<none>")
                ));
            }
        }
    }
    out
}

/// Runs every `.nir` file test under `dir`: `run` returns (the file up to its
/// `; expect:` marker, the expectation text it produced); the produced text must
/// equal the file's, or replaces it under `BLESS=1`. `what` names the tests in the
/// failure message.
pub fn run_expect_files(
    dir: &str,
    what: &str,
    run: impl Fn(&str) -> Result<(String, String), String>,
) {
    let files = nir_files(&tests_dir().join(dir));
    assert!(!files.is_empty(), "no {what}");
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("read");
        match run(&text) {
            Ok((input_part, actual)) => {
                let expected: String = text
                    .lines()
                    .skip_while(|l| !l.starts_with("; expect:"))
                    .map(|l| format!("{l}\n"))
                    .collect();
                if expected != actual {
                    if bless() {
                        std::fs::write(path, format!("{input_part}{actual}")).expect("bless");
                    } else {
                        failures.push(format!("{}:\n{}", path.display(), diff(&expected, &actual)));
                    }
                }
            }
            Err(e) => failures.push(format!("{}: {e}", path.display())),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} {what} failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

/// The shader corpus of the sweeps: every `tests/ir` shader whole, and the input part
/// of every pass file test (after its `test` header, before `; expect:`), as
/// (path, text).
pub fn corpus_inputs() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for p in nir_files(&tests_dir().join("ir")) {
        let text = std::fs::read_to_string(&p).expect("read");
        out.push((p.display().to_string(), text));
    }
    for p in nir_files(&tests_dir().join("filetests")) {
        let text = std::fs::read_to_string(&p).expect("read");
        let input: String = text
            .lines()
            .skip(1)
            .take_while(|l| !l.starts_with("; expect:"))
            .map(|l| format!("{l}\n"))
            .collect();
        out.push((p.display().to_string(), input));
    }
    out
}
