//! Development harness for the semantic checker: compiles corpus shaders with
//! `rgl_glsl::compile` and prints the mismatches.
//!
//! `cargo run --release -p rgl-glsl --example check_corpus -- glslparser DIR...`
//! compiles every glslparsertest file (`.vert`/`.frag`/`.geom` with a
//! `[config]` block) and compares with `expect_result`, skipping versions above
//! 3.30 / ES 3.00 and tests requiring unsupported extensions.
//!
//! `cargo run --release -p rgl-glsl --example check_corpus -- shaderdb DIR...`
//! compiles every vertex and fragment shader of the `.shader_test` files.

use std::path::{Path, PathBuf};

use rgl_glsl::{compile, CompileOptions, Stage, Version};

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

/// `[config]` entries of a glslparsertest file.
fn config(text: &str) -> Option<Vec<(String, String)>> {
    let mut inside = false;
    let mut entries = Vec::new();
    for line in text.lines() {
        let t = line
            .trim_start()
            .trim_start_matches("//")
            .trim_start_matches("/*")
            .trim_start_matches('*')
            .trim();
        if t.starts_with("[config]") {
            inside = true;
            continue;
        }
        if t.starts_with("[end config]") {
            return Some(entries);
        }
        if inside {
            if let Some((k, v)) = t.split_once(':') {
                entries.push((
                    k.trim().to_string(),
                    v.trim().trim_end_matches("*/").trim().to_string(),
                ));
            }
        }
    }
    None
}

fn parse_version(v: &str) -> Option<Version> {
    let v = v.trim();
    let (num, es) = match v.strip_suffix("es") {
        Some(n) => (n.trim(), true),
        None => (v.trim_end_matches("compatibility").trim(), false),
    };
    let (major, minor) = num.split_once('.')?;
    let n: u16 = major.parse::<u16>().ok()? * 100 + minor.parse::<u16>().ok()?;
    if es || n == 100 || n == 300 || n == 310 || n == 320 {
        Some(Version::es(n))
    } else {
        Some(Version::desktop(n))
    }
}

fn run_with_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Option<T> {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(f)
        .ok()?
        .join()
        .ok()
}

fn glslparser(paths: &[PathBuf], verbose: bool) {
    let mut files = Vec::new();
    for p in paths {
        walk(p, &mut files);
    }
    let (mut pass, mut fail, mut skip) = (0, 0, 0);
    for file in files {
        let Some(stage) = file
            .extension()
            .and_then(|e| e.to_str())
            .and_then(Stage::from_extension)
        else {
            continue;
        };
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        let Some(cfg) = config(&text) else { continue };
        let get = |k: &str| cfg.iter().find(|(key, _)| key == k).map(|(_, v)| v.clone());
        let Some(expect) = get("expect_result") else {
            continue;
        };
        let Some(version) = get("glsl_version").as_deref().and_then(parse_version) else {
            skip += 1;
            continue;
        };
        if version.number > 330 || (version.is_es() && version.number > 300) {
            skip += 1;
            continue;
        }
        if stage == Stage::Geometry && version.number < 150 && !version.is_es() {
            // GS tests before 1.50 need GL_ARB_geometry_shader4.
        }
        let required = get("require_extensions").unwrap_or_default();
        let unsupported = required.split_whitespace().any(|e| {
            if let Some(absent) = e.strip_prefix('!') {
                rgl_glsl::extensions::is_supported(absent, version, stage)
            } else {
                !rgl_glsl::extensions::is_supported(e, version, stage)
            }
        });
        if unsupported {
            skip += 1;
            continue;
        }
        let source = text.clone();
        let result = run_with_stack(move || {
            let shader = compile(&source, &CompileOptions::new(stage));
            (shader.success(), shader.info_log.to_string())
        });
        let (ok, log) = result.unwrap_or((false, "PANIC".to_string()));
        let expected_ok = expect == "pass";
        if ok == expected_ok {
            pass += 1;
            if verbose {
                println!("PASS {}", file.display());
            }
        } else {
            fail += 1;
            let first = log
                .lines()
                .find(|l| l.contains("error"))
                .unwrap_or("")
                .to_string();
            println!("FAIL {} expected {} :: {}", file.display(), expect, first);
        }
    }
    println!(
        "glslparser: {pass} passed, {fail} failed, {skip} skipped ({:.1}%)",
        100.0 * pass as f64 / (pass + fail).max(1) as f64
    );
}

fn shaderdb(paths: &[PathBuf]) {
    let mut files = Vec::new();
    for p in paths {
        walk(p, &mut files);
    }
    let (mut ok_count, mut bad) = (0, 0);
    for file in files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "shader_test"))
    {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        let mut glsl_req: Option<String> = None;
        let mut sections: Vec<(String, String)> = Vec::new();
        for line in text.lines() {
            if line.starts_with('[') {
                sections.push((line.trim().to_string(), String::new()));
                continue;
            }
            if let Some((name, body)) = sections.last_mut() {
                if name == "[require]" {
                    if let Some(v) = line.trim().strip_prefix("GLSL >=") {
                        glsl_req = Some(v.trim().to_string());
                    }
                }
                body.push_str(line);
                body.push('\n');
            }
        }
        for (name, body) in sections {
            let stage = match name.as_str() {
                "[vertex shader]" => Stage::Vertex,
                "[fragment shader]" => Stage::Fragment,
                _ => continue,
            };
            let source = if body.contains("#version ") {
                body
            } else if let Some(v) = &glsl_req {
                format!("#version {}\n{body}", v.replace('.', ""))
            } else {
                body
            };
            let result = run_with_stack(move || {
                let shader = compile(&source, &CompileOptions::new(stage));
                (shader.success(), shader.info_log.to_string())
            });
            let (ok, log) = result.unwrap_or((false, "PANIC".into()));
            if ok {
                ok_count += 1;
            } else {
                bad += 1;
                let first = log
                    .lines()
                    .find(|l| l.contains("error"))
                    .unwrap_or("")
                    .to_string();
                println!("FAIL {} {} :: {}", file.display(), name, first);
            }
        }
    }
    println!("shader-db: {ok_count} compiled, {bad} failed");
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let verbose = args.iter().any(|a| a == "-v");
    let paths: Vec<PathBuf> = args
        .iter()
        .skip(1)
        .filter(|a| *a != "-v")
        .map(PathBuf::from)
        .collect();
    match args.first().map(String::as_str) {
        Some("glslparser") => glslparser(&paths, verbose),
        Some("shaderdb") => shaderdb(&paths),
        _ => eprintln!("usage: check_corpus glslparser|shaderdb DIR..."),
    }
}
