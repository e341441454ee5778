//! Linker tests, all data-driven:
//! * file tests: every `tests/linker/*.link` holds `[vertex shader]`,
//!   `[geometry shader]`, `[fragment shader]`, `[compute shader]` sections (repeat a section for several
//!   compilation units) and an optional `[bindings]` section (`attrib NAME N`,
//!   `frag NAME COLOR [INDEX]`). The expected output, in `*.expected` beside it, is
//!   the link log of a failed link or `dump_resources` of a successful one.
//!   A line `# dump hir` adds the linked GLSL IR of every stage, `# dump nir` the
//!   final NIR of every stage after the link-time pipeline.
//!   `BLESS=1` rewrites the expectations.
//! * corpus sweeps: every program of `../shared/corpus/shader-db` must link, and
//!   every piglit `.shader_test` whose shaders compile and whose `[test]` does not
//!   say `link error` must link, except the ones listed with a reason in
//!   `tests/linker/piglit_known_failures.txt` (a listed program that links fails
//!   the test, so the list only holds real failures). Tests whose `[test]` says
//!   `link error` are counted (as data) for how many we reject too; programs
//!   with a shader that does not compile are counted and named. Without the
//!   corpus the sweeps skip, except under CI, where they fail.

mod common;

use std::path::{Path, PathBuf};

use rgl_conformance::shader_test::program::passthrough_vs;
use rgl_glsl::{compile, CompileOptions, CompiledShader, Stage};
use rgl_link::linker::{dump_resources, link};
use rgl_link::Bindings;

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn files_with_ext(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files_with_ext(&path, ext, out);
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(path);
        }
    }
}

/// A parsed test program: shader sources per stage, bindings, and the `[test]`
/// section's text.
#[derive(Default)]
struct Program {
    shaders: Vec<(Stage, String)>,
    bindings: Bindings,
    test: String,
    /// A stage section we cannot run (tessellation, compute, ARB programs, SPIR-V).
    unsupported: Option<String>,
}

/// Parses both our `.link` files and piglit `.shader_test` files.
fn parse_program(text: &str) -> Program {
    let mut program = Program::default();
    let mut glsl_version: Option<(String, bool)> = None;
    let mut sections: Vec<(String, String)> = Vec::new();
    let mut in_test = false;
    for line in text.lines() {
        if in_test {
            program.test.push_str(line);
            program.test.push('\n');
            continue;
        }
        if line.starts_with('[') {
            let name = line.trim().to_owned();
            in_test = name == "[test]";
            sections.push((name, String::new()));
            continue;
        }
        if let Some((name, body)) = sections.last_mut() {
            if name == "[require]" {
                let l = line.trim();
                if let Some(v) = l.strip_prefix("GLSL ES >= ") {
                    glsl_version = Some((v.trim().replace('.', ""), true));
                } else if let Some(v) = l.strip_prefix("GLSL >= ") {
                    glsl_version = Some((v.trim().replace('.', ""), false));
                }
            } else {
                body.push_str(line);
                body.push('\n');
            }
        }
    }
    let with_version = |body: String| match (&glsl_version, body.contains("#version ")) {
        (Some((v, es)), false) => {
            let suffix = if *es && v != "100" { " es" } else { "" };
            format!("#version {v}{suffix}\n{body}")
        }
        _ => body,
    };
    for (name, body) in sections {
        let stage = match name.as_str() {
            "[vertex shader]" => Stage::Vertex,
            "[geometry shader]" => Stage::Geometry,
            "[fragment shader]" => Stage::Fragment,
            "[compute shader]" => Stage::Compute,
            "[vertex shader passthrough]" => {
                let number: u16 = glsl_version
                    .as_ref()
                    .and_then(|(v, _)| v.parse().ok())
                    .unwrap_or(110);
                let es = glsl_version.as_ref().is_some_and(|(_, es)| *es);
                program
                    .shaders
                    .push((Stage::Vertex, passthrough_vs(number, es)));
                continue;
            }
            "[bindings]" => {
                for line in body.lines() {
                    let words: Vec<&str> = line.split_whitespace().collect();
                    match words.as_slice() {
                        ["attrib", name, n] => {
                            if let Ok(n) = n.parse() {
                                program.bindings.attribs.push((name.to_string(), n));
                            }
                        }
                        ["frag", name, c, rest @ ..] => {
                            let index = rest.first().and_then(|i| i.parse().ok()).unwrap_or(0);
                            if let Ok(c) = c.parse() {
                                program
                                    .bindings
                                    .frag_data
                                    .push((name.to_string(), c, index));
                            }
                        }
                        _ => {}
                    }
                }
                continue;
            }
            "[require]" | "[test]" | "[vertex data]" => continue,
            other => {
                if other.contains("shader") || other.contains("program") {
                    program.unsupported = Some(other.to_string());
                }
                continue;
            }
        };
        program.shaders.push((stage, with_version(body)));
    }
    program
}

enum Outcome {
    /// Some shader failed to compile (first line of its log).
    CompileError(String),
    Linked(Box<rgl_link::LinkedProgram>),
    LinkError(String),
}

fn compile_and_link(program: &Program) -> Outcome {
    let mut compiled: Vec<CompiledShader> = Vec::new();
    for (stage, source) in &program.shaders {
        let shader = compile(source, &CompileOptions::new(*stage));
        if !shader.success() {
            let first = shader
                .info_log
                .to_string()
                .lines()
                .next()
                .unwrap_or("")
                .to_owned();
            return Outcome::CompileError(format!("{stage}: {first}"));
        }
        compiled.push(shader);
    }
    let refs: Vec<&CompiledShader> = compiled.iter().collect();
    match link(&refs, &program.bindings) {
        Ok(p) => Outcome::Linked(Box::new(p)),
        Err(log) => Outcome::LinkError(log.to_string()),
    }
}

#[test]
fn linker_file_tests() {
    let dir = manifest().join("tests/linker");
    let mut files = Vec::new();
    files_with_ext(&dir, "link", &mut files);
    files.sort();
    assert!(!files.is_empty(), "no .link files in {}", dir.display());
    let bless = std::env::var_os("BLESS").is_some();
    let mut failures = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        let program = parse_program(&text);
        let actual = match compile_and_link(&program) {
            Outcome::CompileError(e) => format!("compile error\n{e}\n"),
            Outcome::Linked(p) => {
                let mut out = dump_resources(&p);
                if text.lines().any(|l| l.trim() == "# dump hir") {
                    for st in &p.stages {
                        out.push_str(&format!("--- linked {} shader\n", st.stage));
                        out.push_str(&rgl_glsl::hir::print::print_module(&st.hir));
                        out.push('\n');
                    }
                }
                if text.lines().any(|l| l.trim() == "# dump nir") {
                    let mut p = p;
                    match rgl_link::pipeline::lower_program(&mut p, Default::default()) {
                        Ok(()) => {
                            for st in &p.stages {
                                out.push_str(&format!(
                                    "--- final NIR of the {} shader\n",
                                    st.stage
                                ));
                                if let Some(nir) = &st.nir {
                                    out.push_str(&rgl_nir::print::print_shader(nir));
                                }
                            }
                        }
                        Err(log) => out.push_str(&format!("pipeline error\n{log}")),
                    }
                }
                out
            }
            Outcome::LinkError(log) => format!("link error\n{log}"),
        };
        let expected_path = file.with_extension("expected");
        if bless {
            std::fs::write(&expected_path, &actual)
                .unwrap_or_else(|e| panic!("cannot write {}: {e}", expected_path.display()));
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != actual {
            failures.push(format!(
                "{}:\n--- expected\n{expected}--- actual\n{actual}",
                file.display()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} linker file tests differ (BLESS=1 to accept):\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

#[test]
fn every_shader_db_program_links() {
    let root = common::corpus_root().join("shader-db");
    let mut files = Vec::new();
    files_with_ext(&root, "shader_test", &mut files);
    files.sort();
    if !common::corpus_found("every_shader_db_program_links", files.len(), &root) {
        return;
    }
    let mut linked = 0;
    let mut failures = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        let program = parse_program(&text);
        let name = file
            .strip_prefix(&root)
            .unwrap_or(file)
            .display()
            .to_string();
        match compile_and_link(&program) {
            Outcome::Linked(_) => linked += 1,
            Outcome::CompileError(e) => failures.push(format!("{name}: compile: {e}")),
            Outcome::LinkError(log) => failures.push(format!("{name}: {}", log.trim())),
        }
    }
    eprintln!(
        "shader-db: {linked} of {} programs linked, {} failed",
        files.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} shader-db programs failed to link:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn piglit_shader_tests_link() {
    let corpus = common::corpus_root();
    let mut files = Vec::new();
    files_with_ext(&corpus.join("piglit"), "shader_test", &mut files);
    files_with_ext(&corpus.join("piglit-geometry"), "shader_test", &mut files);
    files.sort();
    if !common::corpus_found("piglit_shader_tests_link", files.len(), &corpus) {
        return;
    }
    let known_list = manifest().join("tests/linker/piglit_known_failures.txt");
    let known = common::known_entries(&known_list, ": ");
    let (mut linked, mut unsupported) = (0, 0);
    let mut not_compiled = Vec::new();
    let (mut expected_errors, mut rejected) = (0, 0);
    let mut failures = Vec::new();
    let mut fixed = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        let mut program = parse_program(&text);
        // shader_runner binds these before linking.
        program.bindings.attribs.push(("piglit_vertex".into(), 0));
        program.bindings.attribs.push(("piglit_texcoord".into(), 1));
        let name = file
            .strip_prefix(&corpus)
            .unwrap_or(file)
            .display()
            .to_string();
        if program.unsupported.is_some() || program.shaders.is_empty() {
            unsupported += 1;
            continue;
        }
        let expect_error = program.test.lines().any(|l| l.trim() == "link error");
        let outcome = compile_and_link(&program);
        if expect_error {
            expected_errors += 1;
            if !matches!(outcome, Outcome::Linked(_)) {
                rejected += 1;
            } else if std::env::var_os("RGL_LINK_VERBOSE").is_some() {
                eprintln!("accepted but expected a link error: {name}");
            }
            continue;
        }
        match outcome {
            Outcome::CompileError(e) => not_compiled.push(format!("{name}: {e}")),
            Outcome::Linked(_) => {
                linked += 1;
                if known.contains(&name) {
                    fixed.push(name);
                }
            }
            Outcome::LinkError(log) => {
                if !known.contains(&name) {
                    failures.push(format!("{name}: {}", log.trim()));
                }
            }
        }
    }
    eprintln!(
        "piglit: {linked} linked, {} unexpected link failures, {} known failures, \
         {} not linked because a shader does not compile, {unsupported} unsupported \
         stages; `link error` tests rejected: {rejected} of {expected_errors}",
        failures.len(),
        known.len(),
        not_compiled.len()
    );
    common::print_not_built(
        "piglit_shader_tests_link",
        "programs not linked because a shader does not compile",
        &not_compiled,
    );
    common::assert_none_fixed(&known_list, &fixed);
    assert!(
        failures.is_empty(),
        "{} piglit programs failed to link:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// `key: value` of a glslparsertest `[config]` block.
fn parser_config(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        let l = line.trim_start_matches(['/', '*', ' ', '\t']).trim();
        if l == "[config]" {
            inside = true;
        } else if l == "[end config]" {
            break;
        } else if inside {
            if let Some((k, v)) = l.split_once(": ") {
                out.push((k.trim().to_owned(), v.trim().to_owned()));
            }
        }
    }
    out
}

/// piglit glslparser tests with `check_link: true`: the shader is compiled and
/// linked as `glslparsertest --check-link` does (ES shaders with a dummy
/// complementary stage, geometry shaders with a dummy vertex shader); the outcome must
/// match `expect_result`, except the files listed with a reason in
/// `tests/linker/glslparser_check_link_known.txt`.
#[test]
fn glslparser_check_link_tests() {
    let corpus = common::corpus_root();
    let mut files = Vec::new();
    for ext in ["vert", "geom", "frag"] {
        files_with_ext(&corpus.join("piglit"), ext, &mut files);
        files_with_ext(&corpus.join("piglit-geometry"), ext, &mut files);
    }
    files.sort();
    if !common::corpus_found("glslparser_check_link_tests", files.len(), &corpus) {
        return;
    }
    let known_list = manifest().join("tests/linker/glslparser_check_link_known.txt");
    let known = common::known_entries(&known_list, ": ");
    let (mut total, mut agree) = (0, 0);
    let mut failures = Vec::new();
    let mut fixed = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        let config = parser_config(&text);
        let get = |k: &str| {
            config
                .iter()
                .find(|(key, _)| key == k)
                .map(|(_, v)| v.as_str())
        };
        if get("check_link") != Some("true") {
            continue;
        }
        let Some(expect) = get("expect_result") else {
            continue;
        };
        let stage = match file.extension().and_then(|e| e.to_str()) {
            Some("vert") => Stage::Vertex,
            Some("geom") => Stage::Geometry,
            _ => Stage::Fragment,
        };
        total += 1;
        let shader = compile(&text, &CompileOptions::new(stage));
        // glslparsertest links ES shaders with a dummy complementary stage and
        // geometry shaders with a dummy vertex shader.
        let version = get("glsl_version").unwrap_or("1.10");
        let number: u32 = version
            .split(|c: char| !c.is_ascii_digit() && c != '.')
            .next()
            .unwrap_or("1.10")
            .replace('.', "")
            .parse()
            .unwrap_or(110);
        let es = number == 100 || number == 300;
        let es_word = if number == 300 { "es" } else { "" };
        let dummy_vs =
            format!("#version {number} {es_word}\nvoid main() {{ gl_Position = vec4(0.0); }}");
        let dummy_fs = format!("#version {number} {es_word}\nvoid main() {{ }}");
        let mut others = Vec::new();
        if es && stage == Stage::Fragment {
            others.push(compile(&dummy_vs, &CompileOptions::new(Stage::Vertex)));
        }
        if es && stage == Stage::Vertex {
            others.push(compile(&dummy_fs, &CompileOptions::new(Stage::Fragment)));
        }
        if !es && stage == Stage::Geometry {
            others.push(compile(&dummy_vs, &CompileOptions::new(Stage::Vertex)));
        }
        let mut all = vec![&shader];
        all.extend(others.iter());
        let (passed, why) = if shader.success() {
            match link(&all, &Bindings::default()) {
                Ok(_) => (true, String::new()),
                Err(log) => (false, log.to_string().trim().to_owned()),
            }
        } else {
            let first = shader.info_log.to_string();
            (false, first.lines().next().unwrap_or("").to_owned())
        };
        let name = file
            .strip_prefix(&corpus)
            .unwrap_or(file)
            .display()
            .to_string();
        if passed == (expect == "pass") {
            agree += 1;
            if known.contains(&name) {
                fixed.push(name);
            }
        } else if !known.contains(&name) {
            failures.push(format!("{name}: expected {expect}: {why}"));
        }
    }
    eprintln!("glslparser check_link: {agree} of {total} agree with expect_result");
    common::assert_none_fixed(&known_list, &fixed);
    assert!(
        failures.is_empty(),
        "{} check_link tests disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
