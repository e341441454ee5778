//! A deterministic text form of a parsed `.shader_test` file, used by the
//! fixture tests (`conformance/tests/shader_test/*.shader_test` next to their
//! `.dump`) and by `rgl-conformance shader-test --dump`.

use std::fmt::Write as _;

use super::parse::Parsed;

/// Renders everything the parser read, then every error.
pub fn dump(parsed: &Parsed) -> String {
    let test = &parsed.test;
    let mut out = String::new();
    out.push_str("requirements:\n");
    for (line, r) in &test.requirements.lines {
        let _ = writeln!(out, "  {line}: {r:?}");
    }
    out.push_str("shaders:\n");
    for s in &test.shaders {
        let _ = writeln!(
            out,
            "  {}: {:?} (body from line {}, {} lines)",
            s.header_line,
            s.kind,
            s.body_line,
            s.source.lines().count()
        );
        for line in s.source.lines() {
            let _ = writeln!(out, "    | {line}");
        }
    }
    match (&test.vertex_data, test.vertex_data_line) {
        (Some(data), line) => {
            let _ = writeln!(out, "vertex data (line {}):", line.unwrap_or(0));
            for c in &data.columns {
                let _ = writeln!(out, "  column {c:?}");
            }
            for row in &data.rows {
                let _ = writeln!(out, "  row {row:?}");
            }
        }
        (None, _) => out.push_str("vertex data: none\n"),
    }
    let _ = writeln!(
        out,
        "test section: {}",
        if test.has_test_section { "yes" } else { "no" }
    );
    for c in &test.commands {
        let _ = writeln!(out, "  {}: {:?}", c.line, c.value);
    }
    out.push_str("warnings:\n");
    for w in &parsed.warnings {
        let _ = writeln!(out, "  {w}");
    }
    out.push_str("errors:\n");
    for e in &parsed.errors {
        let _ = writeln!(out, "  {e}");
    }
    out
}
