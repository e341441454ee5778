//! Per-folder counts for triage (`--summary`): results are grouped by spec
//! folder, i.e. the id up to the component after `spec` (`piglit/tests/spec/glsl-1.10`),
//! or by the parent folder for files outside a `spec` tree.

use std::collections::BTreeMap;

use crate::result::{Counts, TestResult};

/// The group a test id belongs to.
pub fn group_of(id: &str) -> String {
    let parts: Vec<&str> = id.split('/').collect();
    if let Some(spec) = parts.iter().position(|p| *p == "spec") {
        if spec + 2 < parts.len() {
            return parts[..spec + 2].join("/");
        }
    }
    match id.rsplit_once('/') {
        Some((dir, _)) => dir.to_string(),
        None => id.to_string(),
    }
}

/// Renders the table: one line per group, `pass warn fail skip  group`.
pub fn render(results: &[TestResult]) -> String {
    let mut groups: BTreeMap<String, Counts> = BTreeMap::new();
    for r in results {
        groups.entry(group_of(&r.id)).or_default().add(r.status);
    }
    let mut out = format!(
        "{:>6} {:>6} {:>6} {:>6}  {}\n",
        "pass", "warn", "fail", "skip", "folder"
    );
    for (group, c) in &groups {
        out.push_str(&format!(
            "{:>6} {:>6} {:>6} {:>6}  {group}\n",
            c.passed, c.warned, c.failed, c.skipped
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups() {
        assert_eq!(
            group_of("piglit/tests/spec/glsl-1.10/compiler/a.frag"),
            "piglit/tests/spec/glsl-1.10"
        );
        assert_eq!(group_of("piglit/tests/spec/a.frag"), "piglit/tests/spec");
        assert_eq!(group_of("dir/x/a.vert"), "dir/x");
        assert_eq!(group_of("a.vert"), "a.vert");
    }
}
