//! Data-driven parser tests: every `tests/parse/*.glsl` is tokenized, parsed and
//! printed (AST text, or the rendered diagnostics) and compared with the
//! committed `*.ast` next to it; `BLESS=1` rewrites the expectations. Each
//! successful parse must also survive print → parse unchanged (locations
//! aside). A corpus test parses every shader of the shared corpus.
//!
//! Until the preprocessor is in place the tests use a small tokenizer of their
//! own (identifiers, numbers, punctuation, comments; `#version` sets the
//! version, other directives are skipped).

mod common;

use std::path::{Path, PathBuf};

use rgl_glsl::ast::*;
use rgl_glsl::parse::{parse_full, print_ast};
use rgl_glsl::pp::{Interner, Token, TokenKind};
use rgl_glsl::span::SourceLoc;
use rgl_glsl::Version;

/// Tokenizes GLSL without preprocessing; returns the tokens, their
/// spellings and the version named by a `#version` line (1.10 without one).
fn tokenize(src: &str) -> (Vec<Token>, Interner, Version) {
    const PUNCT3: &[&str] = &["<<=", ">>="];
    const PUNCT2: &[&str] = &[
        "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "^^", "*=", "/=", "%=", "+=",
        "-=", "&=", "^=", "|=",
    ];
    let mut version = Version::DEFAULT;
    let mut tokens = Vec::new();
    let mut symbols = Interner::new();
    let bytes = src.as_bytes();
    let (mut i, mut line, mut line_start) = (0usize, 1u32, 0usize);
    let mut at_line_start = true;
    while i < bytes.len() {
        let c = bytes[i];
        let loc = SourceLoc::new(line, (i - line_start + 1) as u32);
        if c == b'\n' {
            i += 1;
            line += 1;
            line_start = i;
            at_line_start = true;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'#' && at_line_start {
            let end = src[i..].find('\n').map_or(src.len(), |n| i + n);
            let words: Vec<&str> = src[i + 1..end].split_whitespace().collect();
            if words.first() == Some(&"version") {
                let number: u16 = words.get(1).and_then(|w| w.parse().ok()).unwrap_or(110);
                version = if words.get(2) == Some(&"es") || number == 100 {
                    Version::es(number)
                } else {
                    Version::desktop(number)
                };
            }
            i = end;
            continue;
        }
        at_line_start = false;
        if src[i..].starts_with("//") {
            i = src[i..].find('\n').map_or(src.len(), |n| i + n);
            continue;
        }
        if src[i..].starts_with("/*") {
            let end = src[i + 2..].find("*/").map_or(src.len(), |n| i + 2 + n + 2);
            for b in &bytes[i..end] {
                if *b == b'\n' {
                    line += 1;
                }
            }
            if let Some(nl) = src[i..end].rfind('\n') {
                line_start = i + nl + 1;
            }
            i = end;
            continue;
        }
        let start = i;
        let kind = if c.is_ascii_alphabetic() || c == b'_' {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            TokenKind::Identifier
        } else if c.is_ascii_digit()
            || (c == b'.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            let mut float = false;
            while i < bytes.len() {
                let b = bytes[i];
                let prev = bytes[i - 1];
                if b.is_ascii_alphanumeric() || b == b'.' || b == b'_' {
                    float |=
                        b == b'.' || ((b == b'e' || b == b'E') && !src[start..].starts_with("0x"));
                } else if (b == b'+' || b == b'-') && (prev == b'e' || prev == b'E') && float {
                } else {
                    break;
                }
                i += 1;
            }
            if float {
                TokenKind::FloatLiteral
            } else {
                TokenKind::IntLiteral
            }
        } else {
            let rest = &src[i..];
            let len = if PUNCT3.iter().any(|p| rest.starts_with(p)) {
                3
            } else if PUNCT2.iter().any(|p| rest.starts_with(p)) {
                2
            } else {
                rest.chars().next().map_or(1, char::len_utf8)
            };
            i += len;
            TokenKind::Punct
        };
        tokens.push(Token {
            kind,
            sym: symbols.intern(&src[start..i]),
            loc,
        });
    }
    (tokens, symbols, version)
}

/// Parses and renders: diagnostics first, then the printed AST on success.
fn render(src: &str) -> (String, Option<TranslationUnit>) {
    let (tokens, symbols, version) = tokenize(src);
    let out = parse_full(&tokens, &symbols, version, &[]);
    let mut text = String::new();
    for d in &out.diagnostics {
        text.push_str(&d.to_string());
        text.push('\n');
    }
    if let Some(unit) = &out.unit {
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&print_ast(unit));
    }
    (text, out.unit)
}

/// Our AST with every location zeroed, for comparisons that ignore them.
fn strip_locations(unit: &TranslationUnit) -> String {
    let debug = format!("{unit:?}");
    let mut out = String::with_capacity(debug.len());
    let mut rest = debug.as_str();
    while let Some(pos) = rest.find("SourceLoc {") {
        out.push_str(&rest[..pos]);
        let end = rest[pos..].find('}').map_or(rest.len(), |n| pos + n + 1);
        out.push('_');
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

fn parse_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parse")
}

#[test]
fn parse_snapshots() {
    let bless = std::env::var_os("BLESS").is_some();
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(parse_dir())
        .expect("tests/parse exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "glsl"))
        .collect();
    inputs.sort();
    assert!(!inputs.is_empty(), "no inputs in tests/parse");
    let mut failures = Vec::new();
    for input in &inputs {
        let src = std::fs::read_to_string(input).expect("readable input");
        let (actual, unit) = render(&src);
        // Round trip: the printed AST parses back to the same tree.
        if let Some(unit) = &unit {
            let printed = print_ast(unit);
            let (again, again_symbols, _) = tokenize(&printed);
            let (_, _, original_version) = tokenize(&src);
            let reparsed = parse_full(&again, &again_symbols, original_version, &[]);
            match reparsed.unit {
                Some(re) if strip_locations(&re) == strip_locations(unit) => {}
                Some(_) => failures.push(format!(
                    "{}: print/parse round trip changed the tree",
                    input.display()
                )),
                None => failures.push(format!(
                    "{}: printed AST does not parse: {:?}\n{printed}",
                    input.display(),
                    reparsed
                        .diagnostics
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                )),
            }
        }
        let expected_path = input.with_extension("ast");
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != actual {
            if bless {
                std::fs::write(&expected_path, &actual).expect("writable expectation");
            } else {
                failures.push(format!(
                    "{}: output differs\n--- expected\n{expected}\n--- actual\n{actual}",
                    input.display()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Deep nesting and long operator chains give located errors, not crashes.
#[test]
fn parse_depth_limits() {
    let cases: Vec<(String, &str)> = vec![
        (
            format!(
                "void main() {{ float x = {}1.0{}; }}",
                "(".repeat(100_000),
                ")".repeat(100_000)
            ),
            "parens",
        ),
        (
            format!("void main() {}{}", "{".repeat(100_000), "}".repeat(100_000)),
            "braces",
        ),
        (
            format!(
                "void main() {{ float x = 1.0{}; }}",
                " + 1.0".repeat(100_000)
            ),
            "sum",
        ),
        (
            format!(
                "void main() {{ float x = 1.0{} }}",
                " + 1.0".repeat(100_000)
            ),
            "sum with syntax error",
        ),
        (
            format!("void main() {{ float x = {}1.0; }}", "- ".repeat(100_000)),
            "unary chain",
        ),
        (
            format!("void main() {{ {} x = 1.0; }}", "if (true)".repeat(100_000)),
            "nested ifs",
        ),
        (
            format!(
                "void main() {{ if (true) x = 1.0; {} }}",
                "else if (true) x = 1.0;".repeat(100_000)
            ),
            "else-if chain",
        ),
        (
            format!("void main() {{ float y = x{}; }}", ".x".repeat(100_000)),
            "field chain",
        ),
        (
            format!("void main() {{ float y = x{}; }}", "[0]".repeat(100_000)),
            "index chain",
        ),
        (
            format!(
                "void main() {{ {} x = 1.0; {} }}",
                "do ".repeat(100_000),
                "while (true);".repeat(100_000)
            ),
            "do chain",
        ),
        (
            format!(
                "void main() {{ float x; x = 1.0{}; }}",
                ", x = 1.0".repeat(100_000)
            ),
            "comma chain",
        ),
        (
            format!(
                "void main() {{ float x; if (true) x = 1.0; {} }}",
                "else if (x + x + x + x > 0.0) x = 1.0;".repeat(1020)
            ),
            "else-if chain past the tree depth",
        ),
    ];
    let mut report = String::new();
    for (src, name) in &cases {
        let (text, unit) = render(src);
        let first = text.lines().next().unwrap_or("").to_owned();
        report.push_str(&format!("{name}: {first}\n"));
        assert!(unit.is_none(), "{name}: accepted");
    }
    let expected_path = parse_dir().join("depth-limits.txt");
    let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&expected_path, &report).expect("writable expectation");
    } else {
        assert_eq!(expected, report);
    }
}

/// Splits a `.shader_test` file into its vertex/fragment/geometry sources.
fn shader_test_sections(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut current: Option<(String, String)> = None;
    for line in text.lines() {
        if line.starts_with('[') {
            if let Some(done) = current.take() {
                out.push(done);
            }
            let name = line.trim().trim_matches(['[', ']']).to_owned();
            if matches!(
                name.as_str(),
                "vertex shader" | "fragment shader" | "geometry shader"
            ) {
                current = Some((name, String::new()));
            }
        } else if let Some((_, body)) = current.as_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    out.extend(current);
    out
}

fn collect_files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_files(&path, ext, out);
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(path);
        }
    }
}

/// Parses every shader-db shader (no preprocessing: shaders using macros or
/// conditionals fail until the real preprocessor runs) and checks the count of
/// parsed shaders against the committed summary.
#[test]
fn parse_shader_db_corpus() {
    let root = common::corpus_root().join("shader-db");
    let root = root.as_path();
    let mut files = Vec::new();
    collect_files(root, "shader_test", &mut files);
    files.sort();
    if !common::corpus_found("parse_shader_db_corpus", files.len(), root) {
        return;
    }
    let (mut total, mut parsed) = (0usize, 0usize);
    let mut failures = String::new();
    for file in &files {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        for (stage, src) in shader_test_sections(&text) {
            total += 1;
            if src.lines().any(|l| {
                let t = l.trim_start();
                t.starts_with('#') && !t.starts_with("#version") && !t.starts_with("#extension")
            }) {
                continue;
            }
            let (rendered, unit) = render(&src);
            if unit.is_some() {
                parsed += 1;
            } else {
                let rel = file.strip_prefix(root).unwrap_or(file);
                failures.push_str(&format!(
                    "{} [{stage}]: {}\n",
                    rel.display(),
                    rendered.lines().next().unwrap_or("")
                ));
            }
        }
    }
    let summary =
        format!("shaders: {total}\nparsed without preprocessing: {parsed}\nfailures:\n{failures}");
    let expected_path = parse_dir().join("corpus-shader-db.txt");
    let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&expected_path, &summary).expect("writable expectation");
    } else {
        assert_eq!(expected, summary);
    }
}

/// For every word of `tests/parse/keywords.txt` and every supported version,
/// whether `float WORD;` parses (`-`: an identifier), is a reserved-word error
/// (`R`) or a syntax error because the word is a keyword (`K`).
#[test]
fn parse_keyword_table() {
    let versions: [(&str, &str); 8] = [
        ("110", "1.10"),
        ("120", "1.20"),
        ("130", "1.30"),
        ("140", "1.40"),
        ("150", "1.50"),
        ("330", "3.30"),
        ("100", "ES1"),
        ("300 es", "ES3"),
    ];
    let words = std::fs::read_to_string(parse_dir().join("keywords.txt")).expect("keywords.txt");
    let mut report = format!("{:<24}", "word");
    for (_, name) in &versions {
        report.push_str(&format!(" {name:>4}"));
    }
    report.push('\n');
    for word in words.lines().map(str::trim).filter(|w| !w.is_empty()) {
        report.push_str(&format!("{word:<24}"));
        for (number, name) in &versions {
            let src = format!("#version {number}\nvoid main() {{ float {word}; }}\n");
            let (text, unit) = render(&src);
            let code = if unit.is_some() {
                "-"
            } else if text.contains("illegal use of reserved word") {
                "R"
            } else if text.contains("syntax error") {
                "K"
            } else {
                "?"
            };
            report.push_str(&format!(" {code:>width$}", width = name.len().max(4)));
        }
        report.push('\n');
    }
    let expected_path = parse_dir().join("keywords.expected");
    let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&expected_path, &report).expect("writable expectation");
    } else {
        assert_eq!(expected, report);
    }
}

/// `[config]` keys of a glslparsertest file: (expect_result, glsl_version).
fn glslparser_config(text: &str) -> Option<(String, String)> {
    let start = text.find("[config]")?;
    let end = text[start..].find("[end config]").map(|n| start + n)?;
    let (mut expect, mut version) = (None, None);
    for line in text[start..end].lines() {
        let line = line.trim_start_matches(['/', '*', ' ', '\t']);
        if let Some(v) = line.strip_prefix("expect_result:") {
            expect = Some(v.trim().to_owned());
        } else if let Some(v) = line.strip_prefix("glsl_version:") {
            version = Some(v.trim().to_owned());
        }
    }
    Some((expect?, version?))
}

/// GLSL version number of a `glsl_version` value or `[require]` line, with an
/// ES flag.
fn version_number(text: &str) -> Option<(u16, bool)> {
    let es = text.contains("es") || text.contains("ES");
    let digits: String = text
        .chars()
        .filter(|c| c.is_ascii_digit())
        .take(3)
        .collect();
    let number: u16 = digits.parse().ok()?;
    Some((
        number,
        es || number == 100 || number == 300 || number == 310 || number == 320,
    ))
}

/// Preprocesses and parses one source; `Err` carries the first diagnostic.
fn pipeline(src: &str, stage: rgl_glsl::Stage) -> Result<(), String> {
    use rgl_glsl::pp::{preprocess, PpOptions};
    let pp = preprocess(
        src,
        &PpOptions {
            stage,
            version_override: None,
        },
    );
    if let Some(d) = pp.diagnostics.iter().find(|d| d.is_error()) {
        return Err(format!("pp: {d}"));
    }
    let out = parse_full(&pp.tokens, &pp.symbols, pp.version, &pp.extensions);
    match out.diagnostics.iter().find(|d| d.is_error()) {
        Some(d) => Err(d.to_string()),
        None if out.unit.is_some() => Ok(()),
        None => Err("no unit and no error".to_owned()),
    }
}

/// Runs the real pipeline (preprocessor, then parser) over every corpus shader
/// of GLSL ≤ 3.30: piglit glslparsertest files and every `.shader_test`
/// section. Shaders expected to compile must parse; the summary (counts and
/// each failure) is compared with the committed `corpus-pipeline.txt`.
#[test]
fn parse_corpus_pipeline() {
    use rgl_glsl::Stage;
    let corpus = Path::new("/work/shared/corpus");
    let mut files = Vec::new();
    // The GL 3.3 folders; piglit-gl4 and piglit-spirv need GLSL beyond 3.30.
    for folder in ["piglit", "piglit-geometry", "shader-db"] {
        for ext in ["vert", "frag", "geom", "shader_test"] {
            collect_files(&corpus.join(folder), ext, &mut files);
        }
    }
    files.sort();
    let (mut valid, mut valid_ok, mut invalid, mut invalid_rejected) = (0, 0, 0, 0);
    let mut failures = String::new();
    for file in &files {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        let rel = file
            .strip_prefix(corpus)
            .unwrap_or(file)
            .display()
            .to_string();
        let ext = file.extension().and_then(|e| e.to_str()).unwrap_or("");
        if ext == "shader_test" {
            let require = text
                .lines()
                .find_map(|l| l.trim().strip_prefix("GLSL").filter(|r| r.contains(">=")))
                .and_then(version_number)
                .unwrap_or((110, false));
            if !(require.0 <= 330 || (require.1 && require.0 <= 300)) {
                continue;
            }
            for (section, body) in shader_test_sections(&text) {
                let stage = match section.as_str() {
                    "vertex shader" => Stage::Vertex,
                    "geometry shader" => Stage::Geometry,
                    _ => Stage::Fragment,
                };
                let src = if body.contains("#version") {
                    body
                } else {
                    let es = if require.1 && require.0 >= 300 {
                        " es"
                    } else {
                        ""
                    };
                    format!("#version {}{es}\n{body}", require.0)
                };
                valid += 1;
                match pipeline(&src, stage) {
                    Ok(()) => valid_ok += 1,
                    Err(e) => failures.push_str(&format!("{rel} [{section}]: {e}\n")),
                }
            }
        } else {
            let Some((expect, version)) = glslparser_config(&text) else {
                continue;
            };
            let Some((number, es)) = version_number(&version) else {
                continue;
            };
            if if es { number > 300 } else { number > 330 } {
                continue;
            }
            let Some(stage) = Stage::from_extension(ext) else {
                continue;
            };
            let result = pipeline(&text, stage);
            if expect == "pass" {
                valid += 1;
                match result {
                    Ok(()) => valid_ok += 1,
                    Err(e) => failures.push_str(&format!("{rel}: {e}\n")),
                }
            } else {
                invalid += 1;
                if result.is_err() {
                    invalid_rejected += 1;
                }
            }
        }
    }
    let summary = format!(
        "shaders expected to compile: {valid}\n  parsed: {valid_ok}\n\
         glslparsertest files expected to fail: {invalid}\n  rejected by pp or parser: {invalid_rejected}\n\
         failures of shaders expected to compile:\n{failures}"
    );
    let expected_path = parse_dir().join("corpus-pipeline.txt");
    let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&expected_path, &summary).expect("writable expectation");
    } else {
        assert_eq!(expected, summary);
    }
}
