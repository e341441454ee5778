//! The conformance ratchet: a committed list of the test ids that pass, and of
//! those that warn (piglit's WARN: only `probe warn` lines mismatched). A run
//! compared with it reports every listed test that no longer does as well (a
//! pass that now warns, fails or skips; a warn that now fails or skips);
//! `--update-baseline` rewrites it from the current run.
//!
//! File format: one id per line for passes (see [`crate::walk`] for ids), `warn
//! ID` for tests that warn; empty lines and lines starting with `#` are ignored.

use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::path::Path;

use crate::result::{Status, TestResult};

/// The prefix of a warn entry.
const WARN: &str = "warn ";

/// A baseline: the ids that pass and the ids that warn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Baseline {
    /// Tests that pass.
    pub pass: BTreeSet<String>,
    /// Tests that warn.
    pub warn: BTreeSet<String>,
}

impl Baseline {
    /// Number of entries.
    pub fn len(&self) -> usize {
        self.pass.len() + self.warn.len()
    }

    /// True when the baseline lists nothing.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A baselined test that does not do as well now.
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
    /// Listed tests that do not do as well now.
    pub regressions: Vec<Regression>,
    /// Tests that pass now but are not listed as passing.
    pub new_passes: Vec<String>,
    /// Tests that warn now but are not listed at all.
    pub new_warns: Vec<String>,
    /// Listed tests under roots this run did not cover (not judged).
    pub not_run: usize,
}

/// Reads a baseline file; a missing file is an empty baseline.
pub fn read(path: &Path) -> io::Result<Baseline> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Baseline::default()),
        Err(e) => return Err(e),
    };
    Ok(parse(&text))
}

/// Parses the text of a baseline file.
pub fn parse(text: &str) -> Baseline {
    let mut baseline = Baseline::default();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match line.strip_prefix(WARN) {
            Some(id) => baseline.warn.insert(id.trim().to_string()),
            None => baseline.pass.insert(line.to_string()),
        };
    }
    baseline
}

fn root_of(id: &str) -> &str {
    id.split('/').next().unwrap_or(id)
}

/// Compares `results` (a run over `roots`) with `baseline`.
pub fn compare(
    baseline: &Baseline,
    results: &[TestResult],
    roots: &BTreeSet<String>,
) -> Comparison {
    let by_id: BTreeMap<&str, &TestResult> = results.iter().map(|r| (r.id.as_str(), r)).collect();
    let mut comparison = Comparison::default();
    let listed = baseline
        .pass
        .iter()
        .map(|id| (id, &[Status::Pass][..]))
        .chain(
            baseline
                .warn
                .iter()
                .map(|id| (id, &[Status::Pass, Status::Warn][..])),
        );
    for (id, good) in listed {
        match by_id.get(id.as_str()) {
            Some(r) if good.contains(&r.status) => {}
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
    comparison.regressions.sort_by(|a, b| a.id.cmp(&b.id));
    comparison.new_passes = results
        .iter()
        .filter(|r| r.status == Status::Pass && !baseline.pass.contains(&r.id))
        .map(|r| r.id.clone())
        .collect();
    comparison.new_warns = results
        .iter()
        .filter(|r| {
            r.status == Status::Warn
                && !baseline.pass.contains(&r.id)
                && !baseline.warn.contains(&r.id)
        })
        .map(|r| r.id.clone())
        .collect();
    comparison
}

/// The new baseline: every passing and every warning test of this run, plus
/// the old entries for roots this run did not cover.
pub fn updated(baseline: &Baseline, results: &[TestResult], roots: &BTreeSet<String>) -> Baseline {
    let kept = |ids: &BTreeSet<String>| -> BTreeSet<String> {
        ids.iter()
            .filter(|id| !roots.contains(root_of(id)))
            .cloned()
            .collect()
    };
    let mut out = Baseline {
        pass: kept(&baseline.pass),
        warn: kept(&baseline.warn),
    };
    for r in results {
        match r.status {
            Status::Pass => out.pass.insert(r.id.clone()),
            Status::Warn => out.warn.insert(r.id.clone()),
            _ => false,
        };
    }
    out
}

/// The text of a baseline file. `command` is the subcommand with its mode
/// (`glslparser`, `shader-test --link-only`), named in the header comment.
pub fn render(baseline: &Baseline, command: &str) -> String {
    let mut text = format!(
        "# {command} tests that pass; checked by .ci/run. Regenerate with\n\
         # cargo run --release -p rgl-conformance -- {command} ROOTS... --baseline THIS_FILE --update-baseline\n",
    );
    for id in &baseline.pass {
        text.push_str(id);
        text.push('\n');
    }
    if !baseline.warn.is_empty() {
        text.push_str(
            "# Tests that warn (only `probe warn` lines mismatched): they must not fail.\n",
        );
        for id in &baseline.warn {
            text.push_str(WARN);
            text.push_str(id);
            text.push('\n');
        }
    }
    text
}

/// Writes a baseline file (see [`render`]).
pub fn write(path: &Path, baseline: &Baseline, command: &str) -> io::Result<()> {
    let text = render(baseline, command);
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;
    use std::time::Duration;

    fn result(id: &str, status: Status) -> TestResult {
        TestResult {
            path: PathBuf::from(id),
            id: id.into(),
            status,
            reason: String::new(),
            detail: String::new(),
            duration: Duration::ZERO,
        }
    }

    #[test]
    fn warn_entries_are_read_judged_and_written() {
        let baseline = parse("# header\nr/a\nwarn r/b\nwarn r/c\nr/d\n\n");
        assert_eq!(baseline.pass.len(), 2);
        assert_eq!(baseline.warn.len(), 2);
        let roots: BTreeSet<String> = ["r".to_string()].into();
        let run = [
            result("r/a", Status::Warn),
            result("r/b", Status::Pass),
            result("r/c", Status::Fail),
            result("r/d", Status::Pass),
            result("r/e", Status::Warn),
        ];
        let c = compare(&baseline, &run, &roots);
        let regressed: Vec<(&str, &str)> = c
            .regressions
            .iter()
            .map(|r| (r.id.as_str(), r.what.as_str()))
            .collect();
        assert_eq!(regressed, [("r/a", "WARN: "), ("r/c", "FAIL: ")]);
        assert_eq!(c.new_passes, ["r/b"]);
        assert_eq!(c.new_warns, ["r/e"]);
        let new = updated(&baseline, &run, &roots);
        assert_eq!(parse(&render(&new, "shader-test")), new);
        assert_eq!(
            new.warn.iter().map(String::as_str).collect::<Vec<_>>(),
            ["r/a", "r/e"]
        );
    }
}
