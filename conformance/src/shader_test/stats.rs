//! Totals of a parse over many files (`rgl-conformance shader-test --parse-only`
//! and the corpus test): files, sections, requirement kinds and commands seen
//! with their counts, and every file that did not parse cleanly.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::parse::{Parsed, ShaderKind};
use super::require::Requirement;

/// Accumulated counts.
#[derive(Clone, Debug, Default)]
pub struct ParseStats {
    /// Files parsed.
    pub files: usize,
    /// Files not valid UTF-8.
    pub non_utf8: usize,
    /// Section kinds seen, with counts.
    pub sections: BTreeMap<String, usize>,
    /// Requirement kinds seen, with counts.
    pub requirements: BTreeMap<String, usize>,
    /// Commands seen (by [`super::command::Command::name`]), with counts.
    pub commands: BTreeMap<String, usize>,
    /// Files without a `[test]` section.
    pub without_test_section: usize,
    /// `(file id, error)` for every parse error.
    pub errors: Vec<(String, String)>,
    /// `(file id, warning)` for every lenient read.
    pub warnings: Vec<(String, String)>,
}

impl ParseStats {
    /// Adds one file.
    pub fn add(&mut self, id: &str, parsed: &Parsed, non_utf8: bool) {
        self.files += 1;
        if non_utf8 {
            self.non_utf8 += 1;
        }
        let test = &parsed.test;
        for s in &test.shaders {
            let name = match &s.kind {
                ShaderKind::Glsl(stage) => format!("[{} shader]", stage.name()),
                ShaderKind::GlslFile(stage) => format!("[{} shader file]", stage.name()),
                ShaderKind::Passthrough => "[vertex shader passthrough]".into(),
                ShaderKind::ArbAsm(stage) => format!("[{} program]", stage.name()),
                ShaderKind::Spirv(stage) => format!("[{} shader spirv]", stage.name()),
                ShaderKind::Specializations(stage) => {
                    format!("[{} shader specializations]", stage.name())
                }
                ShaderKind::GeometryLayout => "[geometry layout]".into(),
                ShaderKind::ShaderInclude => "[shader include]".into(),
                ShaderKind::ShaderIncludePaths => "[shader include paths]".into(),
            };
            *self.sections.entry(name).or_default() += 1;
        }
        if test.vertex_data.is_some() {
            *self.sections.entry("[vertex data]".into()).or_default() += 1;
        }
        if test.has_test_section {
            *self.sections.entry("[test]".into()).or_default() += 1;
        } else {
            self.without_test_section += 1;
        }
        for (_, r) in &test.requirements.lines {
            let kind = match r {
                Requirement::Glsl { es, op, version } => format!(
                    "GLSL{} {} {}.{:02}",
                    if *es { " ES" } else { "" },
                    op.symbol(),
                    version / 100,
                    version % 100
                ),
                Requirement::Gl { api, op, version } => format!(
                    "GL {api:?} {} {}.{}",
                    op.symbol(),
                    version / 10,
                    version % 10
                ),
                Requirement::Extension { name, absent } => {
                    format!("extension {}{name}", if *absent { "!" } else { "" })
                }
                Requirement::Limit { name, .. } => format!("limit {name}"),
                Requirement::Size { .. } => "SIZE".into(),
                Requirement::DepthBuffer => "depthbuffer".into(),
                Requirement::Rlimit(_) => "rlimit".into(),
                Requirement::SsoEnabled => "SSO ENABLED".into(),
                Requirement::SeparableProgram => "SEPARABLE PROGRAM ENABLED".into(),
                Requirement::Spirv(_) => "SPIRV".into(),
                Requirement::Ignored(_) => "(ignored line)".into(),
            };
            *self.requirements.entry(kind).or_default() += 1;
        }
        for c in &test.commands {
            *self.commands.entry(c.value.name()).or_default() += 1;
        }
        for e in &parsed.errors {
            self.errors.push((id.to_string(), e.to_string()));
        }
        for w in &parsed.warnings {
            self.warnings.push((id.to_string(), w.to_string()));
        }
    }

    /// Files with at least one parse error.
    pub fn failed_files(&self) -> usize {
        let mut ids: Vec<&str> = self.errors.iter().map(|(id, _)| id.as_str()).collect();
        ids.dedup();
        ids.len()
    }

    /// The report: totals, then one line per section / requirement / command kind
    /// with its count, then every error.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} files parsed, {} with parse errors ({} errors), {} lenient reads, {} not UTF-8, {} without [test]",
            self.files,
            self.failed_files(),
            self.errors.len(),
            self.warnings.len(),
            self.non_utf8,
            self.without_test_section
        );
        for (title, map) in [
            ("sections", &self.sections),
            ("requirements", &self.requirements),
            ("commands", &self.commands),
        ] {
            let _ = writeln!(out, "{title}:");
            for (name, count) in map {
                let _ = writeln!(out, "  {count:>6}  {name}");
            }
        }
        out.push_str("lenient reads (accepted as shader_runner accepts them):\n");
        for (id, w) in &self.warnings {
            let _ = writeln!(out, "  {id}: {w}");
        }
        out.push_str("parse errors:\n");
        for (id, e) in &self.errors {
            let _ = writeln!(out, "  {id}: {e}");
        }
        out
    }
}
