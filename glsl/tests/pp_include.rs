//! `#include` (`GL_ARB_shading_language_include`) in the preprocessor.
//!
//! Every `tests/pp_include/*.glsl` holds sections opened by `@@` lines:
//! `@@ string /path` (a named string: the lines up to the next `@@`),
//! `@@ search /path` (a search path of `glCompileShaderIncludeARB`, in order)
//! and `@@ source` (the shader). The preprocessed tokens and diagnostics are
//! compared with the committed `*.expected` next to it (`BLESS=1` rewrites
//! them).

mod common;

use std::collections::HashMap;
use std::fmt::Write as _;

use rgl_glsl::pp::include::{tree_location, IncludeLookup, IncludeOptions, NamedStringTree};
use rgl_glsl::pp::{preprocess_with_includes, PpOptions, PpOutput};
use rgl_glsl::Stage;

/// A named-string tree: every location, with its string if it has one.
#[derive(Debug, Default)]
struct Tree(HashMap<String, Option<String>>);

impl Tree {
    fn insert(&mut self, name: &str, text: String) {
        let location = tree_location("/", name);
        let mut prefix = String::new();
        for token in location.split('/').filter(|t| !t.is_empty()) {
            prefix.push('/');
            prefix.push_str(token);
            self.0.entry(prefix.clone()).or_insert(None);
        }
        self.0.insert(location, Some(text));
    }
}

impl NamedStringTree for Tree {
    fn lookup(&self, location: &str) -> IncludeLookup<'_> {
        match self.0.get(location) {
            None => IncludeLookup::Missing,
            Some(None) => IncludeLookup::NoString,
            Some(Some(text)) => IncludeLookup::Found(text),
        }
    }
}

/// The named strings, search paths and source of one case file.
fn parse_case(text: &str) -> (Tree, Vec<String>, String) {
    let mut tree = Tree::default();
    let mut search = Vec::new();
    let mut source = String::new();
    let mut current: Option<(String, String)> = None;
    let mut in_source = false;
    let flush = |current: &mut Option<(String, String)>, tree: &mut Tree| {
        if let Some((name, body)) = current.take() {
            tree.insert(&name, body);
        }
    };
    for line in text.split_inclusive('\n') {
        if let Some(rest) = line.strip_prefix("@@ ") {
            flush(&mut current, &mut tree);
            in_source = false;
            let rest = rest.trim_end();
            if let Some(name) = rest.strip_prefix("string ") {
                current = Some((name.to_owned(), String::new()));
            } else if let Some(path) = rest.strip_prefix("search ") {
                search.push(tree_location("/", path));
            } else {
                assert_eq!(rest, "source", "unknown section {rest:?}");
                in_source = true;
            }
        } else if let Some((_, body)) = current.as_mut() {
            body.push_str(line);
        } else if in_source {
            source.push_str(line);
        }
    }
    flush(&mut current, &mut tree);
    (tree, search, source)
}

fn render(out: &PpOutput) -> String {
    let mut s = String::new();
    let mut current: Option<(u32, u32)> = None;
    for t in &out.tokens {
        let key = (t.loc.source, t.loc.line);
        if current != Some(key) {
            if current.is_some() {
                s.push('\n');
            }
            let _ = write!(s, "{}:{}:", t.loc.source, t.loc.line);
            current = Some(key);
        }
        s.push(' ');
        s.push_str(out.text(t));
    }
    if current.is_some() {
        s.push('\n');
    }
    for d in &out.diagnostics {
        let _ = writeln!(s, "{d}");
    }
    s
}

#[test]
fn include_cases() {
    common::expect_cases("pp_include", |_, text| {
        let (tree, search, source) = parse_case(text);
        let options = PpOptions {
            stage: Stage::Fragment,
            version_override: None,
        };
        let includes = IncludeOptions {
            tree: &tree,
            search_paths: &search,
        };
        render(&preprocess_with_includes(&source, &options, includes))
    });
}

/// A string that includes itself stops at the depth limit with one error.
#[test]
fn self_include_hits_the_depth_limit() {
    let mut tree = Tree::default();
    tree.insert("/loop", "#include \"/loop\"\nint x;\n".to_owned());
    let options = PpOptions {
        stage: Stage::Vertex,
        version_override: None,
    };
    let includes = IncludeOptions {
        tree: &tree,
        search_paths: &[],
    };
    let source = "#extension GL_ARB_shading_language_include : enable\n#include \"/loop\"\n";
    let out = preprocess_with_includes(source, &options, includes);
    let errors: Vec<String> = out.diagnostics.iter().map(|d| d.to_string()).collect();
    assert_eq!(
        errors,
        ["0:1(1): error: #include nesting depth exceeds the limit of 32"]
    );
    let max = rgl_glsl::pp::include::MAX_INCLUDE_DEPTH;
    assert_eq!(
        out.tokens.len(),
        3 * (max - 1),
        "one `int x;` per included level"
    );
}
