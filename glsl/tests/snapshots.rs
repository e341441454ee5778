//! Snapshot tests of the front end and the IR tooling, all text in / text out:
//!
//! * `tests/in/**/*.{vert,frag,geom,comp}` are compiled with
//!   [`rgl_glsl::compile`]; the HIR dump (with structure headers, like Mesa's
//!   `--dump-hir`), the LIR dump and the info log go to
//!   `tests/out/<path>.{hir,lir,log}`.
//! * `tests/in/ir/**/*.ir` are IR dumps that must read back and print to the
//!   identical text (the printer/reader round trip).
//! * `tests/in/lower/<pass>/*.ir` run one lowering pass (by its Mesa name) on
//!   the IR and snapshot the result in `tests/out/lower/<pass>/*.ir`.
//!
//! `BLESS=1 cargo test -p rgl-glsl --test snapshots` rewrites the outputs
//! (and deletes stale ones); otherwise any difference, missing or stale output
//! fails with a line diff.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use rgl_glsl::hir::print::{print_module, print_module_with, read::read_module, PrintOptions};
use rgl_glsl::lower::validate::validate;
use rgl_glsl::{compile, CompileOptions, Stage};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// A small line diff: common prefix and suffix collapsed, the differing middle
/// shown as `-expected` / `+actual` with three lines of context.
fn diff(expected: &str, actual: &str) -> String {
    let e: Vec<&str> = expected.lines().collect();
    let a: Vec<&str> = actual.lines().collect();
    let prefix = e.iter().zip(&a).take_while(|(x, y)| x == y).count();
    let suffix = e[prefix..]
        .iter()
        .rev()
        .zip(a[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let mut out = String::new();
    let start = prefix.saturating_sub(3);
    let _ = writeln!(out, "@@ line {} @@", start + 1);
    for line in &e[start..prefix] {
        let _ = writeln!(out, " {line}");
    }
    for line in &e[prefix..e.len() - suffix] {
        let _ = writeln!(out, "-{line}");
    }
    for line in &a[prefix..a.len() - suffix] {
        let _ = writeln!(out, "+{line}");
    }
    for line in e[e.len() - suffix..].iter().take(3) {
        let _ = writeln!(out, " {line}");
    }
    if expected.ends_with('\n') != actual.ends_with('\n') {
        let _ = writeln!(out, "(trailing newline differs)");
    }
    out
}

struct Checker {
    bless: bool,
    failures: Vec<String>,
    written: BTreeSet<PathBuf>,
}

impl Checker {
    fn check(&mut self, path: PathBuf, actual: &str) {
        self.written.insert(path.clone());
        let rel = path
            .strip_prefix(root())
            .unwrap_or(&path)
            .display()
            .to_string();
        match std::fs::read_to_string(&path) {
            Ok(expected) if expected == actual => {}
            _ if self.bless => {
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir).expect("create output directory");
                }
                std::fs::write(&path, actual).expect("write snapshot");
            }
            Ok(expected) => self
                .failures
                .push(format!("{rel} differs:\n{}", diff(&expected, actual))),
            Err(_) => self
                .failures
                .push(format!("{rel} is missing (run with BLESS=1)")),
        }
    }
}

fn stage_of(path: &Path) -> Option<Stage> {
    match path.extension()?.to_str()? {
        "vert" => Some(Stage::Vertex),
        "frag" => Some(Stage::Fragment),
        "geom" => Some(Stage::Geometry),
        "comp" => Some(Stage::Compute),
        _ => None,
    }
}

#[test]
fn snapshots() {
    let root = root();
    let input_dir = root.join("in");
    let output_dir = root.join("out");
    let mut checker = Checker {
        bless: std::env::var_os("BLESS").is_some_and(|v| v != "0"),
        failures: Vec::new(),
        written: BTreeSet::new(),
    };
    let mut inputs = Vec::new();
    walk(&input_dir, &mut inputs);
    let mut count = 0;
    for input in &inputs {
        let rel = input
            .strip_prefix(&input_dir)
            .expect("input under tests/in");
        let text = std::fs::read_to_string(input).expect("read input");
        if let Some(stage) = stage_of(input) {
            count += 1;
            let mut options = CompileOptions::new(stage);
            options.keep_hir = true;
            let shader = compile(&text, &options);
            let hir = shader
                .hir
                .as_ref()
                .map(|m| print_module_with(m, &PrintOptions { structures: true }))
                .unwrap_or_default();
            let lir = shader.lir.as_ref().map(print_module).unwrap_or_default();
            // The IR handed to later stages must be well formed.
            for (which, module) in [("HIR", &shader.hir), ("LIR", &shader.lir)] {
                if let Some(module) = module {
                    for error in validate(module) {
                        checker
                            .failures
                            .push(format!("{}: invalid {which}: {error}", rel.display()));
                    }
                }
            }
            let base = output_dir.join(rel).display().to_string();
            checker.check(PathBuf::from(format!("{base}.hir")), &hir);
            checker.check(PathBuf::from(format!("{base}.lir")), &lir);
            checker.check(
                PathBuf::from(format!("{base}.log")),
                &shader.info_log.to_string(),
            );
        } else if input.extension().is_some_and(|e| e == "ir") {
            count += 1;
            let module = match read_module(&text) {
                Ok(m) => m,
                Err(err) => {
                    checker.failures.push(format!("{}: {err}", rel.display()));
                    continue;
                }
            };
            let options = PrintOptions {
                structures: text.starts_with("(structure"),
            };
            if let Ok(pass) = rel.strip_prefix("lower") {
                let pass_name = pass
                    .components()
                    .next()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .unwrap_or_default();
                let mut module = module;
                match rgl_glsl::lower::run_pass_by_name(&pass_name, &mut module) {
                    Some(progress) => {
                        let mut out = format!("; progress: {progress}\n");
                        for error in validate(&module) {
                            let _ = writeln!(out, "; invalid: {error}");
                        }
                        out.push_str(&print_module_with(&module, &options));
                        checker.check(output_dir.join(rel), &out);
                    }
                    None => checker
                        .failures
                        .push(format!("{}: unknown pass `{pass_name}'", rel.display())),
                }
            } else {
                let printed = print_module_with(&module, &options);
                if printed != text {
                    checker.failures.push(format!(
                        "{} does not round-trip:\n{}",
                        rel.display(),
                        diff(&text, &printed)
                    ));
                }
            }
        }
    }
    // Outputs nobody produced any more are stale.
    let mut outputs = Vec::new();
    walk(&output_dir, &mut outputs);
    for output in outputs {
        if !checker.written.contains(&output) {
            if checker.bless {
                std::fs::remove_file(&output).expect("remove stale snapshot");
            } else {
                checker.failures.push(format!(
                    "{} is stale (no input produces it; run with BLESS=1)",
                    output.display()
                ));
            }
        }
    }
    assert!(
        count > 0,
        "no snapshot inputs found under {}",
        input_dir.display()
    );
    assert!(
        checker.failures.is_empty(),
        "{} snapshot failure(s):\n\n{}",
        checker.failures.len(),
        checker.failures.join("\n")
    );
}
