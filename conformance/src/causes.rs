//! The most common failure causes of a run (`--causes N`): every failure
//! message is normalised (its `line N:` prefix dropped, numbers replaced by
//! `N`, cut at 160 characters) so that the same problem on different lines,
//! values or files counts as one cause; each file counts a cause once.

use std::collections::{BTreeMap, BTreeSet};

use crate::result::{Status, TestResult};

/// The normal form of one failure message.
pub fn normalise(message: &str) -> String {
    let mut m = message.trim();
    // `line 12: …` and `line 12: warning: …` prefixes.
    if let Some(rest) = m.strip_prefix("line ") {
        if let Some((n, tail)) = rest.split_once(": ") {
            if n.bytes().all(|b| b.is_ascii_digit()) {
                m = tail;
            }
        }
    }
    let mut out = String::with_capacity(m.len());
    let mut in_number = false;
    for c in m.chars() {
        let digit = c.is_ascii_digit()
            || (in_number && (c == '.' || c == 'e' || c == 'x' || c.is_ascii_hexdigit()));
        if digit {
            if !in_number {
                // A number glued to a word (`vec4`, `GL_TEXTURE0`) stays.
                let glued = out
                    .chars()
                    .last()
                    .is_some_and(|p| p.is_ascii_alphabetic() || p == '_');
                if glued {
                    out.push(c);
                    continue;
                }
                out.push('N');
                in_number = true;
            }
            continue;
        }
        if c == '-' && in_number {
            continue;
        }
        in_number = false;
        out.push(c);
    }
    if out.chars().count() > 160 {
        out = out.chars().take(157).collect::<String>() + "...";
    }
    out
}

/// The messages of a failing result: every line of its detail when the
/// detail lists the messages (its first line begins the reason), else the
/// reason alone (the detail is then a backtrace or stderr).
fn messages(r: &TestResult) -> Vec<&str> {
    let first = r.detail.lines().next().unwrap_or("");
    if !first.is_empty() && r.reason.starts_with(first) {
        r.detail.lines().collect()
    } else {
        vec![r.reason.as_str()]
    }
}

/// The `n` most common causes among failures (ties in text order), with the
/// number of files each occurs in.
pub fn top(results: &[TestResult], n: usize) -> Vec<(usize, String)> {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for r in results
        .iter()
        .filter(|r| matches!(r.status, Status::Fail | Status::Error))
    {
        let causes: BTreeSet<String> = messages(r)
            .into_iter()
            .filter(|m| !m.contains(": warning: ") && !m.trim().is_empty())
            .map(normalise)
            .collect();
        for c in causes {
            *counts.entry(c).or_default() += 1;
        }
    }
    let mut list: Vec<(usize, String)> = counts.into_iter().map(|(c, n)| (n, c)).collect();
    list.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    list.truncate(n);
    list
}

/// The `--causes` table, titled with `who` (`rgl`, `host`).
pub fn render(results: &[TestResult], n: usize, who: &str) -> String {
    let list = top(results, n);
    let mut out = format!(
        "top {} failure causes ({who}), files per cause:\n",
        list.len()
    );
    for (count, cause) in list {
        out.push_str(&format!("{count:>6}  {cause}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_forms() {
        let cases = [
            (
                "line 12: probe at (3, 4): expected [1.0, 0.0], observed [0.5, 0.25]",
                "probe at (N, N): expected [N, N], observed [N, N]",
            ),
            (
                "line 7: draw rect: GL_INVALID_OPERATION: no NIR shader compiler installed in the software driver (vertex shader)",
                "draw rect: GL_INVALID_OPERATION: no NIR shader compiler installed in the software driver (vertex shader)",
            ),
            ("uniform vec4 color: GL_TEXTURE0 0x1f", "uniform vec4 color: GL_TEXTURE0 N"),
            ("value -1.5e3 here", "value -N here"),
        ];
        let got: Vec<String> = cases.iter().map(|(m, _)| normalise(m)).collect();
        let want: Vec<String> = cases.iter().map(|(_, n)| n.to_string()).collect();
        assert_eq!(got, want);
    }
}
