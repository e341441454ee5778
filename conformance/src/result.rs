//! Test results and their serialisations: the one-line text form printed by the
//! runner and the JSON file written by `--json`.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Duration;

/// Outcome of one test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Behaved as expected.
    Pass,
    /// Behaved as expected except for `probe warn` lines that did not match
    /// (piglit's WARN): neither a pass nor a failure, counted apart.
    Warn,
    /// Did not behave as expected (including a compiler panic).
    Fail,
    /// Not run: rgl lacks something the test needs.
    Skip,
    /// The test file itself is invalid (bad `[config]` block, unreadable);
    /// counted with the failures.
    Error,
}

impl Status {
    /// Lower-case name used in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Warn => "warn",
            Status::Fail => "fail",
            Status::Skip => "skip",
            Status::Error => "error",
        }
    }
    /// Word printed at the start of a result line.
    pub fn word(self) -> &'static str {
        match self {
            Status::Pass => "PASS",
            Status::Warn => "WARN",
            Status::Fail | Status::Error => "FAIL",
            Status::Skip => "SKIP",
        }
    }
}

/// Result of one test file.
#[derive(Clone, Debug)]
pub struct TestResult {
    /// Path of the file as opened.
    pub path: PathBuf,
    /// Stable id (see [`crate::walk`]).
    pub id: String,
    /// Outcome.
    pub status: Status,
    /// Why it failed or was skipped (empty for plain passes); may hold notes.
    pub reason: String,
    /// Extra lines (the backtrace of a compiler panic); printed to stderr.
    pub detail: String,
    /// Time spent compiling (zero when nothing was compiled).
    pub duration: Duration,
}

impl TestResult {
    /// The result of `file` with no detail.
    pub fn of(
        file: &crate::walk::FoundFile,
        status: Status,
        reason: String,
        duration: std::time::Duration,
    ) -> TestResult {
        TestResult {
            path: file.path.clone(),
            id: file.id.clone(),
            status,
            reason,
            detail: String::new(),
            duration,
        }
    }

    /// `FAIL path: reason` (or `PASS path` when there is nothing to say).
    pub fn line(&self) -> String {
        if self.reason.is_empty() {
            format!("{} {}", self.status.word(), self.path.display())
        } else {
            format!(
                "{} {}: {}",
                self.status.word(),
                self.path.display(),
                self.reason
            )
        }
    }
}

/// Counts per status; errors are counted as failures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Passed.
    pub passed: usize,
    /// Warned (piglit's WARN).
    pub warned: usize,
    /// Failed or invalid.
    pub failed: usize,
    /// Skipped.
    pub skipped: usize,
}

impl Counts {
    /// Adds one result.
    pub fn add(&mut self, status: Status) {
        match status {
            Status::Pass => self.passed += 1,
            Status::Warn => self.warned += 1,
            Status::Fail | Status::Error => self.failed += 1,
            Status::Skip => self.skipped += 1,
        }
    }
    /// Counts a list of results.
    pub fn of(results: &[TestResult]) -> Counts {
        let mut counts = Counts::default();
        for r in results {
            counts.add(r.status);
        }
        counts
    }
}

impl std::fmt::Display for Counts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} passed, {} warned, {} failed, {} skipped",
            self.passed, self.warned, self.failed, self.skipped
        )
    }
}

/// Appends `s` to `out` as a JSON string literal.
pub fn json_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// All results as a JSON array of `{path, id, status, reason, detail, duration}`
/// objects (`duration` in seconds), one object per line.
pub fn to_json(results: &[TestResult]) -> String {
    let mut out = String::from("[\n");
    for (i, r) in results.iter().enumerate() {
        out.push_str("  {\"path\": ");
        json_string(&mut out, &r.path.to_string_lossy());
        out.push_str(", \"id\": ");
        json_string(&mut out, &r.id);
        out.push_str(", \"status\": ");
        json_string(&mut out, r.status.name());
        out.push_str(", \"reason\": ");
        json_string(&mut out, &r.reason);
        out.push_str(", \"detail\": ");
        json_string(&mut out, &r.detail);
        let _ = write!(out, ", \"duration\": {:.6}}}", r.duration.as_secs_f64());
        out.push_str(if i + 1 < results.len() { ",\n" } else { "\n" });
    }
    out.push_str("]\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_escapes_and_shape() {
        let results = vec![TestResult {
            path: PathBuf::from("a/b \"c\".frag"),
            id: "a/b \"c\".frag".into(),
            status: Status::Fail,
            reason: "line1\nline2\t\u{1}".into(),
            detail: String::new(),
            duration: Duration::from_micros(1500),
        }];
        assert_eq!(
            to_json(&results),
            "[\n  {\"path\": \"a/b \\\"c\\\".frag\", \"id\": \"a/b \\\"c\\\".frag\", \"status\": \"fail\", \
             \"reason\": \"line1\\nline2\\t\\u0001\", \"detail\": \"\", \"duration\": 0.001500}\n]\n"
        );
    }
}
