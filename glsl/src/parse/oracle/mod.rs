//! The parser's differential oracle (test builds only): glsl-lang's LALR
//! parser, fed through the token bridge rgl used before it had its own parser
//! (`bridge`) and converted into [`crate::ast`] (`convert`). The test
//! [`parsers_agree_on_the_corpus`] parses every shader of the corpus and of the
//! front end's own test inputs both ways and requires the same tree, or the
//! same diagnostics (accept/reject verdict, message and location).

mod bridge;
mod convert;

use std::path::{Path, PathBuf};

use glsl_lang::ast as gl;
use glsl_lang::lexer::{ParseContext, Token as GlToken};
use glsl_lang::parse::{HasParser, LangParser};
use lalrpop_util::ParseError;

use super::SyntaxError;
use super::{builtin_struct_types, tokens::check_nesting, trim_expected, ParseOutput};
use crate::diag::Diagnostic;
use crate::pp::{self, ExtensionBehavior, ExtensionDirective, Interner, Token};
use crate::span::SourceLoc;
use crate::version::{Stage, Version};

/// [`super::parse_full`], the glsl-lang way.
fn parse_full(
    tokens: &[Token],
    symbols: &Interner,
    version: Version,
    extensions: &[ExtensionDirective],
) -> ParseOutput {
    let enabled: Vec<String> = extensions
        .iter()
        .filter(|e| e.behavior != ExtensionBehavior::Disable)
        .map(|e| e.name.clone())
        .collect();
    if let Some(diag) = check_nesting(tokens) {
        return ParseOutput {
            unit: None,
            diagnostics: vec![diag],
        };
    }
    let ctx = ParseContext::new();
    let compat = version.is_compat() || enabled.iter().any(|e| e == "GL_ARB_compatibility");
    for name in builtin_struct_types(compat) {
        ctx.add_type_name(gl::Node::new(gl::IdentifierData::from(*name), None));
    }
    let mut stream = bridge::TokenStream::new(tokens, symbols, ctx.clone(), version, &enabled);
    let parser = <gl::TranslationUnit as HasParser>::Parser::new();
    let result = LangParser::parse(&parser, ctx, &mut stream);
    let mut diagnostics = std::mem::take(&mut stream.warnings);
    let last_loc = stream.last_loc();
    drop(stream);
    match result {
        Ok(unit) => match convert::convert_unit(&unit, tokens, symbols, version.is_es()) {
            Ok(ours) => ParseOutput {
                unit: Some(ours),
                diagnostics,
            },
            Err(diag) => {
                // The tree may be deeper than recursive drop can take.
                convert::dismantle(unit);
                diagnostics.push(*diag);
                ParseOutput {
                    unit: None,
                    diagnostics,
                }
            }
        },
        Err(error) => {
            diagnostics.push(syntax_error(error, tokens, symbols, last_loc));
            ParseOutput {
                unit: None,
                diagnostics,
            }
        }
    }
}

/// Turns a glsl-lang parse error into a located diagnostic.
fn syntax_error(
    error: ParseError<lang_util::position::LexerPosition, GlToken, bridge::LexError>,
    tokens: &[Token],
    symbols: &Interner,
    last_loc: SourceLoc,
) -> Diagnostic {
    let loc_of = |offset| {
        tokens
            .get(bridge::token_index(offset))
            .map(|t| t.loc)
            .unwrap_or(last_loc)
    };
    let text_of = |offset| {
        tokens
            .get(bridge::token_index(offset))
            .map_or("", |t| symbols.get(t.sym))
    };
    match error {
        ParseError::UnrecognizedToken {
            token: (start, token, _),
            expected,
        } => Diagnostic::error(
            loc_of(start.offset),
            SyntaxError::Unexpected {
                found: describe(&token, text_of(start.offset)),
                expected: trim_expected(&expected),
            },
        ),
        ParseError::UnrecognizedEof { expected, .. } => Diagnostic::error(
            last_loc,
            SyntaxError::UnexpectedEof {
                expected: trim_expected(&expected),
            },
        ),
        ParseError::ExtraToken {
            token: (start, token, _),
        } => Diagnostic::error(
            loc_of(start.offset),
            SyntaxError::Unexpected {
                found: describe(&token, text_of(start.offset)),
                expected: Vec::new(),
            },
        ),
        ParseError::InvalidToken { location } => Diagnostic::error(
            loc_of(location.offset),
            SyntaxError::Internal {
                what: "invalid token position",
            },
        ),
        ParseError::User { error } => {
            let loc = tokens.get(error.index).map(|t| t.loc).unwrap_or(last_loc);
            Diagnostic::error(loc, error.error)
        }
    }
}

/// Names a glsl-lang token the way the parser's messages do.
fn describe(token: &GlToken, text: &str) -> String {
    match token {
        GlToken::Identifier(_) => "IDENTIFIER".to_owned(),
        GlToken::TypeName(_) => "TYPE_IDENTIFIER".to_owned(),
        GlToken::IntConstant(_) => "INTCONSTANT".to_owned(),
        GlToken::UIntConstant(_) => "UINTCONSTANT".to_owned(),
        GlToken::FloatConstant(_) => "FLOATCONSTANT".to_owned(),
        GlToken::DoubleConstant(_) => "DOUBLECONSTANT".to_owned(),
        GlToken::BoolConstant(_) => "BOOLCONSTANT".to_owned(),
        _ => format!("'{text}'"),
    }
}

// ---------------------------------------------------------------------------
// The differential test
// ---------------------------------------------------------------------------

/// Files under `dir` (recursively) with one of `exts`, sorted.
fn files(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, exts, out);
        } else if path
            .extension()
            .is_some_and(|e| exts.iter().any(|x| e == *x))
        {
            out.push(path);
        }
    }
}

/// The shader sections of a `.shader_test`, with the `#version` line
/// piglit's shader_runner adds from `[require]` when the text has none.
fn shader_test_sections(text: &str) -> Vec<(Stage, String)> {
    let mut version: Option<String> = None;
    let mut sections: Vec<(&str, String)> = Vec::new();
    for line in text.split_inclusive('\n') {
        if line.starts_with('[') {
            sections.push((line.trim_end(), String::new()));
        } else if let Some((name, body)) = sections.last_mut() {
            if *name == "[require]" {
                let words: Vec<&str> = line.split_whitespace().collect();
                if let ["GLSL", ">=", v] = words.as_slice() {
                    version = Some(v.replace('.', ""));
                } else if let ["GLSL", "ES", ">=", v] = words.as_slice() {
                    version = Some(format!("{} es", v.replace('.', "")));
                }
            } else {
                body.push_str(line);
            }
        }
    }
    let mut out = Vec::new();
    for (name, body) in sections {
        let stage = match name {
            "[vertex shader]" => Stage::Vertex,
            "[fragment shader]" => Stage::Fragment,
            "[geometry shader]" => Stage::Geometry,
            _ => continue,
        };
        let source = match &version {
            Some(v) if !body.contains("#version") => format!("#version {v}\n{body}"),
            _ => body,
        };
        out.push((stage, source));
    }
    out
}

fn stage_of(path: &Path) -> Stage {
    match path.extension().and_then(|e| e.to_str()) {
        Some("vert") => Stage::Vertex,
        Some("geom") => Stage::Geometry,
        _ => Stage::Fragment,
    }
}

/// Preprocesses one source; `None` after a preprocessor error.
fn preprocess(source: &str, stage: Stage) -> Option<pp::PpOutput> {
    let pp = pp::preprocess(
        source,
        &pp::PpOptions {
            stage,
            version_override: None,
        },
    );
    (!pp.diagnostics.iter().any(Diagnostic::is_error)).then_some(pp)
}

/// Compares both parsers on one source; `Some(report)` on a difference.
fn compare(name: &str, stage: Stage, source: &str) -> Option<String> {
    let pp = preprocess(source, stage)?;
    compare_tokens(name, &pp, &pp.tokens)
}

/// Compares both parsers on `tokens` (spelled in `pp`'s symbols).
fn compare_tokens(name: &str, pp: &pp::PpOutput, tokens: &[Token]) -> Option<String> {
    let ours = super::parse_full(tokens, &pp.symbols, pp.version, &pp.extensions);
    let theirs = parse_full(tokens, &pp.symbols, pp.version, &pp.extensions);
    let render = |out: &ParseOutput| -> Vec<String> {
        out.diagnostics.iter().map(|d| format!("{d}")).collect()
    };
    if render(&ours) != render(&theirs) {
        return Some(format!(
            "{name}: diagnostics differ\n  ours:   {:?}\n  oracle: {:?}",
            render(&ours),
            render(&theirs)
        ));
    }
    if ours.unit.is_some() != theirs.unit.is_some() {
        return Some(format!(
            "{name}: verdicts differ (ours accepts: {}, oracle accepts: {})",
            ours.unit.is_some(),
            theirs.unit.is_some()
        ));
    }
    if ours.unit != theirs.unit {
        let show = |out: &ParseOutput| {
            out.unit
                .as_ref()
                .map_or(String::new(), |u| format!("{u:#?}"))
        };
        let (a, b) = (show(&ours), show(&theirs));
        let line = a
            .lines()
            .zip(b.lines())
            .position(|(x, y)| x != y)
            .unwrap_or(0);
        return Some(format!(
            "{name}: trees differ at line {line} of the debug dump\n  ours:   {}\n  oracle: {}",
            a.lines().nth(line).unwrap_or(""),
            b.lines().nth(line).unwrap_or("")
        ));
    }
    None
}

/// The corpus files the differential tests read, and whether a corpus was
/// found (the front end's own test inputs are always added).
fn test_inputs() -> (Vec<PathBuf>, bool) {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let corpus = match std::env::var_os("RGL_CORPUS") {
        Some(dir) => manifest.join("..").join(dir),
        None => manifest.join("../../shared/corpus"),
    };
    let mut paths = Vec::new();
    files(
        &corpus,
        &["vert", "frag", "geom", "shader_test"],
        &mut paths,
    );
    let found = !paths.is_empty();
    files(
        &manifest.join("tests"),
        &["vert", "frag", "geom", "glsl"],
        &mut paths,
    );
    paths.sort();
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "no corpus at {} (CI needs it; set RGL_CORPUS)",
            corpus.display()
        );
        eprintln!("parser oracle: no corpus at {}", corpus.display());
    }
    (paths, found)
}

/// Every shader source of `paths` with its stage and a name.
fn sources(paths: &[PathBuf]) -> Vec<(String, Stage, String)> {
    let mut out = Vec::new();
    for path in paths {
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        let name = path.display().to_string();
        if path.extension().is_some_and(|e| e == "shader_test") {
            for (i, (stage, source)) in shader_test_sections(&text).into_iter().enumerate() {
                out.push((format!("{name}#{i}"), stage, source));
            }
        } else {
            out.push((name, stage_of(path), text.into_owned()));
        }
    }
    out
}

/// A small deterministic generator (xorshift) for the mutations.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

/// Syntax errors of every kind, compared message by message: each corpus
/// shader is mutated a few times at the token level (a token dropped,
/// doubled, or replaced by another token of the same shader) and both parsers
/// must report the same diagnostics, or accept with the same tree.
#[test]
fn parsers_agree_on_mutated_shaders() {
    let (paths, _) = test_inputs();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut compared = 0usize;
    let mut failures = Vec::new();
    for (name, stage, source) in sources(&paths) {
        let Some(pp) = preprocess(&source, stage) else {
            continue;
        };
        if pp.tokens.is_empty() {
            continue;
        }
        for round in 0..3 {
            let mut tokens = pp.tokens.clone();
            let at = rng.below(tokens.len());
            match (round + rng.below(3)) % 3 {
                0 => {
                    tokens.remove(at);
                }
                1 => tokens.insert(at, tokens[at]),
                _ => {
                    let other = tokens[rng.below(tokens.len())];
                    tokens[at].kind = other.kind;
                    tokens[at].sym = other.sym;
                }
            }
            compared += 1;
            if let Some(report) =
                compare_tokens(&format!("{name} (mutation {round} at {at})"), &pp, &tokens)
            {
                failures.push(report);
            }
        }
    }
    eprintln!("parsers_agree_on_mutated_shaders: {compared} mutations compared");
    assert!(
        failures.is_empty(),
        "{} of {compared} mutations parse differently:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn parsers_agree_on_the_corpus() {
    let (paths, _) = test_inputs();
    let mut shaders = 0usize;
    let mut failures = Vec::new();
    for (name, stage, source) in sources(&paths) {
        shaders += 1;
        if let Some(report) = compare(&name, stage, &source) {
            failures.push(report);
        }
    }
    eprintln!("parsers_agree_on_the_corpus: {shaders} shaders compared");
    assert!(
        failures.is_empty(),
        "{} of {shaders} shaders parse differently:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
