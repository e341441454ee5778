//! The `--peer host` report: rgl's and the host GL's result of every file side
//! by side, a per-folder table of both, and a `DIFF` line for every file where
//! they disagree (with both reasons), so rgl's failures can be told apart from
//! tests the reference implementation fails too.

use std::collections::BTreeMap;

use crate::result::{Counts, Status, TestResult};
use crate::summary;

fn word(s: Status) -> &'static str {
    s.word()
}

fn first_line(reason: &str) -> &str {
    reason.lines().next().unwrap_or("")
}

/// Renders the comparison of `rgl` and `host` (same files, same order).
/// `per_file`: also list every file side by side.
pub fn render(rgl: &[TestResult], host: &[TestResult], renderer: &str, per_file: bool) -> String {
    let mut out = format!("peer host: {renderer}\n");
    if per_file {
        out.push_str(&format!("{:>5} {:>5}  file\n", "rgl", "host"));
        for (r, h) in rgl.iter().zip(host) {
            out.push_str(&format!(
                "{:>5} {:>5}  {}\n",
                word(r.status),
                word(h.status),
                r.id
            ));
        }
    }
    let mut groups: BTreeMap<String, (Counts, Counts)> = BTreeMap::new();
    for (r, h) in rgl.iter().zip(host) {
        let g = groups.entry(summary::group_of(&r.id)).or_default();
        g.0.add(r.status);
        g.1.add(h.status);
    }
    out.push_str(&format!(
        "{:>5} {:>5} {:>5} {:>5} | {:>5} {:>5} {:>5} {:>5}  folder (rgl | host: pass warn fail skip)\n",
        "pass", "warn", "fail", "skip", "pass", "warn", "fail", "skip"
    ));
    let (mut tr, mut th) = (Counts::default(), Counts::default());
    for (group, (r, h)) in &groups {
        out.push_str(&format!(
            "{:>5} {:>5} {:>5} {:>5} | {:>5} {:>5} {:>5} {:>5}  {group}\n",
            r.passed, r.warned, r.failed, r.skipped, h.passed, h.warned, h.failed, h.skipped
        ));
        for (t, c) in [(&mut tr, r), (&mut th, h)] {
            t.passed += c.passed;
            t.warned += c.warned;
            t.failed += c.failed;
            t.skipped += c.skipped;
        }
    }
    out.push_str(&format!(
        "{:>5} {:>5} {:>5} {:>5} | {:>5} {:>5} {:>5} {:>5}  total\n",
        tr.passed, tr.warned, tr.failed, tr.skipped, th.passed, th.warned, th.failed, th.skipped
    ));
    let mut diffs = 0;
    for (r, h) in rgl.iter().zip(host) {
        if word(r.status) != word(h.status) {
            diffs += 1;
            out.push_str(&format!(
                "DIFF {}: rgl {} ({}) | host {} ({})\n",
                r.id,
                word(r.status),
                first_line(&r.reason),
                word(h.status),
                first_line(&h.reason)
            ));
        }
    }
    out.push_str(&format!(
        "peer host: {diffs} of {} files differ (rgl {tr}; host {th})\n",
        rgl.len()
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;
    use std::time::Duration;

    fn r(id: &str, status: Status, reason: &str) -> TestResult {
        TestResult {
            path: PathBuf::from(id),
            id: id.into(),
            status,
            reason: reason.into(),
            detail: String::new(),
            duration: Duration::ZERO,
        }
    }

    #[test]
    fn table_and_diffs() {
        let rgl = vec![
            r("p/tests/spec/a/x.shader_test", Status::Pass, ""),
            r("p/tests/spec/a/y.shader_test", Status::Fail, "line 3: boom"),
        ];
        let host = vec![
            r("p/tests/spec/a/x.shader_test", Status::Pass, ""),
            r("p/tests/spec/a/y.shader_test", Status::Pass, ""),
        ];
        let text = render(&rgl, &host, "llvmpipe", true);
        let expected = [
            "peer host: llvmpipe",
            "  rgl  host  file",
            " PASS  PASS  p/tests/spec/a/x.shader_test",
            " FAIL  PASS  p/tests/spec/a/y.shader_test",
            " pass  warn  fail  skip |  pass  warn  fail  skip  folder (rgl | host: pass warn fail skip)",
            "    1     0     1     0 |     2     0     0     0  p/tests/spec/a",
            "    1     0     1     0 |     2     0     0     0  total",
            "DIFF p/tests/spec/a/y.shader_test: rgl FAIL (line 3: boom) | host PASS ()",
            "peer host: 1 of 2 files differ (rgl 1 passed, 0 warned, 1 failed, 0 skipped; host 2 passed, 0 warned, 0 failed, 0 skipped)",
        ];
        assert_eq!(text.lines().collect::<Vec<_>>(), expected);
    }
}
