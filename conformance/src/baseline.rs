//! The conformance ratchet: a committed list of test ids that pass. A run
//! compared with it reports every listed test that no longer passes; `--update-baseline`
//! rewrites it from the current run.
//!
//! File format: one id per line (see [`crate::walk`] for ids); empty lines and
//! lines starting with `#` are ignored.

use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::path::Path;

use crate::result::{Status, TestResult};

/// A baselined test that does not pass now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Regression {
    /// Test id.
    pub id: String,
    /// What happened instead (`FAIL: reason`, `SKIP: reason`, `not found`).
    pub what: String,
}

/// Outcome of comparing a run with a baseline.
#[derive(Clone, Debug, Default)]
pub struct Comparison {
    /// Listed tests that do not pass now.
    pub regressions: Vec<Regression>,
    /// Tests that pass now but are not listed.
    pub new_passes: Vec<String>,
    /// Listed tests under roots this run did not cover (not judged).
    pub not_run: usize,
}

/// Reads a baseline file; a missing file is an empty baseline.
pub fn read(path: &Path) -> io::Result<BTreeSet<String>> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(str::to_string)
            .collect()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(BTreeSet::new()),
        Err(e) => Err(e),
    }
}

fn root_of(id: &str) -> &str {
    id.split('/').next().unwrap_or(id)
}

/// Compares `results` (a run over `roots`) with `baseline`.
pub fn compare(
    baseline: &BTreeSet<String>,
    results: &[TestResult],
    roots: &BTreeSet<String>,
) -> Comparison {
    let by_id: BTreeMap<&str, &TestResult> = results.iter().map(|r| (r.id.as_str(), r)).collect();
    let mut comparison = Comparison::default();
    for id in baseline {
        match by_id.get(id.as_str()) {
            Some(r) if r.status == Status::Pass => {}
            Some(r) => {
                let first_line = r.reason.lines().next().unwrap_or("");
                comparison.regressions.push(Regression {
                    id: id.clone(),
                    what: format!("{}: {first_line}", r.status.word()),
                });
            }
            None if roots.contains(root_of(id)) => comparison.regressions.push(Regression {
                id: id.clone(),
                what: "not found (file removed, no longer a test, or its worker died)".into(),
            }),
            None => comparison.not_run += 1,
        }
    }
    comparison.new_passes = results
        .iter()
        .filter(|r| r.status == Status::Pass && !baseline.contains(&r.id))
        .map(|r| r.id.clone())
        .collect();
    comparison
}

/// The new baseline: every passing test of this run, plus the old entries for
/// roots this run did not cover.
pub fn updated(
    baseline: &BTreeSet<String>,
    results: &[TestResult],
    roots: &BTreeSet<String>,
) -> BTreeSet<String> {
    let mut out: BTreeSet<String> = baseline
        .iter()
        .filter(|id| !roots.contains(root_of(id)))
        .cloned()
        .collect();
    out.extend(
        results
            .iter()
            .filter(|r| r.status == Status::Pass)
            .map(|r| r.id.clone()),
    );
    out
}

/// Writes a baseline file. `command` is the subcommand with its mode
/// (`glslparser`, `shader-test --link-only`), named in the header comment.
pub fn write(path: &Path, ids: &BTreeSet<String>, command: &str) -> io::Result<()> {
    let mut text = format!(
        "# {command} tests that pass; checked by .ci/run. Regenerate with\n\
         # cargo run --release -p rgl-conformance -- {command} ROOTS... --baseline THIS_FILE --update-baseline\n",
    );
    for id in ids {
        text.push_str(id);
        text.push('\n');
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, text)
}
