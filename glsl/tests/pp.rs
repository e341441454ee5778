//! Preprocessor tests.
//!
//! * `pp_cases`: every `tests/pp/*.glsl` is preprocessed and the result is
//!   compared with the committed `*.expected` next to it (`BLESS=1` rewrites
//!   them). The stage comes from the file name (`.frag.`, `.geom.`, otherwise
//!   vertex); a `.vNNN.` part sets `version_override`.
//! * `pp_corpus_no_panic`: every shader in the shared corpus is preprocessed;
//!   nothing may panic, and the counts are reported.
//! * `pp_piglit_agreement`: glslparsertest files whose outcome is decided by
//!   the preprocessor (preprocessor test folders, or files where rgl reports a
//!   preprocessor error) must agree with their `expect_result`.

mod common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use rgl_glsl::pp::{preprocess, PpOptions, PpOutput};
use rgl_glsl::Stage;

fn render(out: &PpOutput) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "version: {} ({:?})", out.version, out.version.profile);
    let mut current: Option<(u32, u32)> = None;
    for t in &out.tokens {
        let key = (t.loc.source, t.loc.line);
        if current != Some(key) {
            if current.is_some() {
                s.push('\n');
            }
            if t.loc.source != 0 {
                let _ = write!(s, "{}:", t.loc.source);
            }
            let _ = write!(s, "{}:", t.loc.line);
            current = Some(key);
        }
        s.push(' ');
        s.push_str(out.text(t));
    }
    if current.is_some() {
        s.push('\n');
    }
    for e in &out.extensions {
        let _ = writeln!(
            s,
            "extension: {} {} at {}",
            e.name,
            e.behavior.name(),
            e.loc
        );
    }
    for p in &out.pragmas {
        let _ = writeln!(s, "pragma: {} at {}", p.text, p.loc);
    }
    if out.invariant_all {
        let _ = writeln!(s, "invariant_all");
    }
    for d in &out.diagnostics {
        let _ = writeln!(s, "{d}");
    }
    s
}

fn options_for(name: &str) -> PpOptions {
    let stage = if name.contains(".frag.") {
        Stage::Fragment
    } else if name.contains(".geom.") {
        Stage::Geometry
    } else {
        Stage::Vertex
    };
    let version_override = name
        .split('.')
        .find_map(|part| part.strip_prefix('v').and_then(|n| n.parse::<u16>().ok()));
    PpOptions {
        stage,
        version_override,
    }
}

#[test]
fn pp_cases() {
    common::expect_cases("pp", |file, source| {
        let name = file
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_owned();
        let start = std::time::Instant::now();
        let out = preprocess(source, &options_for(&name));
        let elapsed = start.elapsed();
        if elapsed.as_millis() > 20 {
            println!("{name}: {elapsed:?}");
        }
        render(&out)
    });
}

fn corpus_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus")
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn stage_of(ext: &str) -> Option<Stage> {
    Stage::from_extension(ext)
}

/// The shader sections of a `.shader_test` file, with shader_runner's
/// `#version` insertion applied.
fn shader_test_sections(text: &str) -> Vec<(Stage, String)> {
    let mut glsl_req: Option<String> = None;
    let mut sections = Vec::new();
    let mut current: Option<(Stage, String)> = None;
    let mut in_require = false;
    for line in text.lines() {
        if line.starts_with('[') {
            if let Some(s) = current.take() {
                sections.push(s);
            }
            in_require = line.starts_with("[require]");
            let stage = match line.trim() {
                "[vertex shader]" => Some(Stage::Vertex),
                "[geometry shader]" => Some(Stage::Geometry),
                "[fragment shader]" => Some(Stage::Fragment),
                _ => None,
            };
            if line.starts_with("[test]") {
                break;
            }
            current = stage.map(|s| (s, String::new()));
            continue;
        }
        if in_require {
            let t = line.trim();
            if let Some(rest) = t.strip_prefix("GLSL") {
                let es = rest.trim_start().starts_with("ES");
                let num = rest
                    .split_whitespace()
                    .last()
                    .unwrap_or("1.10")
                    .replace('.', "");
                let suffix = if es && num != "100" { " es" } else { "" };
                glsl_req = Some(format!("#version {num}{suffix}\n"));
            }
        }
        if let Some((_, body)) = current.as_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    if let Some(s) = current.take() {
        sections.push(s);
    }
    for (_, body) in &mut sections {
        if !body.contains("#version ") {
            if let Some(v) = &glsl_req {
                body.insert_str(0, v);
            }
        }
    }
    sections
}

#[test]
fn pp_corpus_no_panic() {
    let root = corpus_root();
    let mut files = Vec::new();
    walk(&root, &mut files);
    assert!(!files.is_empty(), "corpus not found at {}", root.display());
    files.sort();
    let (mut shaders, mut with_errors, mut tokens) = (0usize, 0usize, 0usize);
    let mut bytes_total = 0usize;
    let mut pp_time = std::time::Duration::ZERO;
    let mut messages: std::collections::BTreeMap<String, (usize, String)> = Default::default();
    for f in &files {
        let Ok(bytes) = std::fs::read(f) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        let ext = f.extension().and_then(|e| e.to_str()).unwrap_or_default();
        let units: Vec<(Stage, String)> = if ext == "shader_test" {
            shader_test_sections(&text)
        } else if let Some(stage) = stage_of(ext) {
            vec![(stage, text.into_owned())]
        } else {
            continue;
        };
        for (stage, src) in units {
            let options = PpOptions {
                stage,
                version_override: None,
            };
            let start = std::time::Instant::now();
            let out = preprocess(&src, &options);
            pp_time += start.elapsed();
            bytes_total += src.len();
            shaders += 1;
            tokens += out.tokens.len();
            if out.diagnostics.iter().any(|d| d.is_error()) {
                with_errors += 1;
            }
            for d in out.diagnostics.iter().filter(|d| d.is_error()) {
                let entry = messages
                    .entry(d.error.to_string())
                    .or_insert((0, String::new()));
                entry.0 += 1;
                if entry.1.is_empty() {
                    entry.1 = f.strip_prefix(&root).unwrap_or(f).display().to_string();
                }
            }
        }
    }
    println!("corpus: {shaders} shaders preprocessed, {tokens} tokens, {with_errors} with preprocessor errors");
    println!(
        "corpus: {:.1} MB in {:?} ({:.1} MB/s)",
        bytes_total as f64 / 1e6,
        pp_time,
        bytes_total as f64 / 1e6 / pp_time.as_secs_f64().max(1e-9)
    );
    for (msg, (n, example)) in &messages {
        println!("  {n:5} x {msg}  (e.g. {example})");
    }
    assert!(
        shaders > 1000,
        "expected the whole corpus, got {shaders} shaders"
    );
}

/// `key: value` from a glslparsertest `[config]` block.
fn config_value(text: &str, key: &str) -> Option<String> {
    let start = text.find("[config]")?;
    let end = text[start..]
        .find("[end config]")
        .map_or(text.len(), |e| start + e);
    text[start..end].lines().find_map(|l| {
        let l = l.trim_start_matches(|c: char| c == '/' || c == '*' || c.is_whitespace());
        l.strip_prefix(key)
            .and_then(|r| r.strip_prefix(':'))
            .map(|v| v.trim().to_owned())
    })
}

/// The version a `glsl_version` config value names.
fn glsl_version(v: &str) -> rgl_glsl::Version {
    let compat = v.ends_with("compatibility");
    let digits: String = v.chars().filter(|c| c.is_ascii_digit()).collect();
    let n: u16 = digits.parse().unwrap_or(110);
    if n == 100 || n == 300 || v.contains("es") && !compat {
        rgl_glsl::Version::es(n)
    } else if compat {
        rgl_glsl::Version {
            number: n,
            profile: rgl_glsl::Profile::Compatibility,
        }
    } else {
        rgl_glsl::Version::desktop(n)
    }
}

#[test]
fn pp_piglit_agreement() {
    let root = corpus_root();
    let mut files = Vec::new();
    // The GL 3.3 piglit folders: piglit-gl4's files need extensions and GLSL
    // versions the preprocessor does not advertise yet.
    for folder in ["piglit", "piglit-geometry"] {
        walk(&root.join(folder), &mut files);
    }
    files.sort();
    let (mut checked, mut agree) = (0usize, 0usize);
    let mut false_errors = Vec::new();
    let mut missed = Vec::new();
    let mut pp_folder_total = 0usize;
    for f in &files {
        let ext = f.extension().and_then(|e| e.to_str()).unwrap_or_default();
        let Some(stage) = stage_of(ext) else { continue };
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        let Some(expect) = config_value(&text, "expect_result") else {
            continue;
        };
        // The conformance runner skips tests needing extensions rgl lacks.
        let version = glsl_version(
            config_value(&text, "glsl_version")
                .as_deref()
                .unwrap_or("1.10"),
        );
        let required = config_value(&text, "require_extensions").unwrap_or_default();
        if required
            .split_whitespace()
            .any(|e| !e.starts_with('!') && !rgl_glsl::extensions::is_supported(e, version, stage))
        {
            continue;
        }
        let out = preprocess(
            &text,
            &PpOptions {
                stage,
                version_override: None,
            },
        );
        let pp_error = out.diagnostics.iter().any(|d| d.is_error());
        let rel = f.strip_prefix(&root).unwrap_or(f).display().to_string();
        let in_pp_folder = rel.contains("preprocess");
        if in_pp_folder {
            pp_folder_total += 1;
        }
        if pp_error || in_pp_folder {
            checked += 1;
            let predicted_fail = pp_error;
            if predicted_fail == (expect == "fail") {
                agree += 1;
            } else if pp_error {
                let first = out
                    .diagnostics
                    .iter()
                    .find(|d| d.is_error())
                    .map(|d| d.to_string())
                    .unwrap_or_default();
                false_errors.push(format!("{rel}: {first}"));
            } else {
                missed.push(rel);
            }
        }
    }
    println!("piglit preprocessor agreement: {agree}/{checked} ({pp_folder_total} in preprocessor folders)");
    for f in &false_errors {
        println!("  unexpected error: {f}");
    }
    for f in &missed {
        println!("  expected failure not found by the preprocessor: {f}");
    }
    assert!(checked > 20, "too few preprocessor-relevant tests found");
    assert!(
        false_errors.is_empty(),
        "{} expect-pass files got preprocessor errors",
        false_errors.len()
    );
}

/// Generated hostile inputs (too large to commit as files). Each must finish
/// quickly without panicking or overflowing the stack; the first diagnostic
/// of each is compared with `tests/pp/hostile.expected`.
#[test]
fn pp_hostile() {
    let mut cases: Vec<(&str, String)> = Vec::new();
    cases.push((
        "if-100k-parens",
        format!(
            "#if {}1{}\n#endif\n",
            "(".repeat(100_000),
            ")".repeat(100_000)
        ),
    ));
    cases.push((
        "if-100k-not",
        format!("#if {}1\n#endif\n", "!".repeat(100_000)),
    ));
    cases.push((
        "if-100k-unary-minus",
        format!("#if {}1\n#endif\n", "- ".repeat(100_000)),
    ));
    cases.push(("identifier-1mb", format!("int {};\n", "a".repeat(1 << 20))));
    cases.push((
        "identifier-1mb-es",
        format!("#version 300 es\nint {};\n", "a".repeat(1 << 20)),
    ));
    let mut chain = String::new();
    for i in 0..10_000 {
        chain.push_str(&format!("#define M{} M{}\n", i, i + 1));
    }
    chain.push_str("#define M10000 1.0\nfloat x = M0;\n");
    cases.push(("macro-chain-10k", chain));
    cases.push((
        "macro-args-10k",
        format!(
            "#define F(x) x\nint a = {}1{};\n",
            "F(".repeat(10_000),
            ")".repeat(10_000)
        ),
    ));
    cases.push((
        "macro-parens-100k",
        format!(
            "#define F(x) x\nint a = F({}1{});\n",
            "(".repeat(100_000),
            ")".repeat(100_000)
        ),
    ));
    cases.push((
        "if-nesting-100k",
        format!(
            "{}int a;\n{}",
            "#if 1\n".repeat(100_000),
            "#endif\n".repeat(100_000)
        ),
    ));
    cases.push((
        "if-skipped-nesting-100k",
        format!(
            "#if 0\n{}{}#endif\n",
            "#if 1\n".repeat(100_000),
            "#endif\n".repeat(100_000)
        ),
    ));
    cases.push((
        "unterminated-args-100k-lines",
        format!("#define F(x) x\nint a = F(\n{}", "1\n".repeat(100_000)),
    ));
    cases.push(("nul-bytes", "int a\0\0\0;\n".to_owned()));
    cases.push((
        "version-huge",
        "#version 99999999999999999999999\n".to_owned(),
    ));
    cases.push(("version-es-core", "#version 1 es core\n".to_owned()));
    cases.push((
        "unterminated-comment",
        "int a; /* never closed\n\n".to_owned(),
    ));
    cases.push(("lone-backslash-eof", "int a; \\".to_owned()));
    let garbage: String = (0..4096u32)
        .map(|i| char::from_u32((i.wrapping_mul(2654435761) >> 13) % 0x250).unwrap_or('?'))
        .collect();
    cases.push(("garbage", garbage));
    let mut report = String::new();
    for (name, src) in &cases {
        let start = std::time::Instant::now();
        // A small stack: deep recursion must be bounded well below it.
        let src_owned = src.clone();
        let out = std::thread::Builder::new()
            .stack_size(512 * 1024)
            .spawn(move || {
                preprocess(
                    &src_owned,
                    &PpOptions {
                        stage: Stage::Fragment,
                        version_override: None,
                    },
                )
            })
            .expect("spawn")
            .join()
            .expect("preprocess must not panic or overflow");
        let elapsed = start.elapsed();
        assert!(elapsed.as_secs() < 10, "{name} took {elapsed:?}");
        let first = out
            .diagnostics
            .first()
            .map_or_else(|| "no diagnostic".to_owned(), |d| d.to_string());
        let first: String = first.chars().take(200).collect();
        let _ = writeln!(report, "{name}: {} tokens; {first}", out.tokens.len());
    }
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pp/hostile.expected");
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, &report).expect("write expectation");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(expected, report, "hostile results differ");
}
