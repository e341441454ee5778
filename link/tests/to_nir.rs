//! `glsl_to_nir` tests, text in and text out:
//! * snapshots: every `tests/to_nir/*.{vert,geom,frag,comp}` is compiled, converted, and its
//!   printed NIR compared with `<file>.nir` (`BLESS=1` rewrites them); the output must
//!   validate and read back (`print(parse(print(s))) == print(s)`);
//! * corpus sweep: every shader of `../shared/corpus/shader-db` and of the piglit
//!   `.shader_test` files and glslparsertest shaders (GL 3.3 piglit, and the
//!   compute / storage-block / atomic-counter folders of `piglit-gl4`) that compiles on its own (has a
//!   `main`, calls only functions it defines) must convert, validate and round-trip.
//!   Known failures, with reasons, are listed in `tests/to_nir/known_failures.txt`.
//!
//! Snapshot inputs named `*.nolink.*` are converted without linker data.
//!
//! The stage is built as a one-stage `LinkedProgram` by [`single_stage`], which plays
//! the linker's part for locations: sequential generic attributes, `VARYING_SLOT_VAR0+n`
//! varyings, `FRAG_RESULT_DATA0+n` outputs, vec4 uniform slots, sampler and image indices and
//! uniform block indices.

mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rgl_glsl::hir::{self, Item, Stmt, VarMode};
use rgl_glsl::types::Type;
use rgl_glsl::{compile, CompileOptions, CompiledShader, Stage};
use rgl_link::program::{LinkedProgram, LinkedStage, VarLink};
use rgl_link::to_nir::glsl_to_nir;
use rgl_nir::ir::names;

fn bless() -> bool {
    std::env::var_os("BLESS").is_some()
}

fn sampler_count(ty: &Type) -> u32 {
    match ty {
        Type::Sampler(_) => 1,
        Type::Array(e, n) => sampler_count(e).saturating_mul(n.unwrap_or(1)),
        _ => 0,
    }
}

fn image_count(ty: &Type) -> u32 {
    match ty {
        Type::Image(_) => 1,
        Type::Array(e, n) => image_count(e).saturating_mul(n.unwrap_or(1)),
        _ => 0,
    }
}

/// A one-stage program for `shader`, with the locations a linker would assign.
fn single_stage(shader: &CompiledShader) -> Option<LinkedProgram> {
    let module = shader.lir.clone()?;
    let mut vars = HashMap::new();
    let (mut attrib, mut varying_in, mut varying_out, mut frag_out) = (0i32, 0i32, 0i32, 0i32);
    let (mut slot, mut sampler, mut image) = (0u32, 0u32, 0u32);
    let mut blocks: Vec<_> = Vec::new();
    for item in &module.items {
        let Item::Variable(h) = *item else { continue };
        let v = &module.variables[h];
        let slots = v.ty.count_vec4_slots(&module.structs).max(1) as i32;
        let mut link = VarLink {
            location: -1,
            ..VarLink::default()
        };
        match v.mode {
            VarMode::ShaderIn if v.is_builtin => continue,
            VarMode::ShaderOut if v.is_builtin => continue,
            VarMode::ShaderIn if shader.stage == Stage::Vertex => {
                link.location = names::VERT_ATTRIB_GENERIC0 + attrib;
                attrib += slots;
            }
            VarMode::ShaderOut if shader.stage == Stage::Fragment => {
                link.location = names::FRAG_RESULT_DATA0 + frag_out;
                frag_out += slots;
            }
            VarMode::ShaderIn => {
                let per_vertex = match (&v.ty, shader.stage) {
                    (Type::Array(e, _), Stage::Geometry) => {
                        e.count_vec4_slots(&module.structs).max(1) as i32
                    }
                    _ => slots,
                };
                link.location = names::VARYING_SLOT_VAR0 + varying_in;
                varying_in += per_vertex;
            }
            VarMode::ShaderOut => {
                link.location = names::VARYING_SLOT_VAR0 + varying_out;
                varying_out += slots;
            }
            VarMode::Uniform => {
                if let Some(b) = v.interface_block {
                    let idx = match blocks.iter().position(|x| *x == b) {
                        Some(i) => i,
                        None => {
                            blocks.push(b);
                            blocks.len() - 1
                        }
                    };
                    link.driver_location = idx as u32;
                } else if v.ty.contains_sampler(&module.structs) {
                    link.driver_location = sampler;
                    sampler += sampler_count(&v.ty).max(1);
                } else if image_count(&v.ty) > 0 {
                    link.driver_location = image;
                    image += image_count(&v.ty);
                } else {
                    link.driver_location = slot;
                    slot += slots as u32;
                }
            }
            _ => continue,
        }
        vars.insert(h, link);
    }
    let stage = LinkedStage {
        stage: shader.stage,
        version: shader.version,
        hir: module,
        vars,
        nir: None,
    };
    Some(LinkedProgram {
        version: shader.version,
        stages: vec![stage],
        attributes: Vec::new(),
        frag_outputs: Vec::new(),
        uniforms: Vec::new(),
        uniform_blocks: Vec::new(),
        uniform_slots: slot,
        num_samplers: sampler,
        subroutine_slots: Vec::new(),
        warnings: Vec::new(),
    })
}

/// Converts, validates and round-trips; returns the printed NIR.
fn convert(program: &LinkedProgram) -> Result<String, String> {
    let stage = &program.stages[0];
    let shader = glsl_to_nir(program, stage).map_err(|e| e.to_string())?;
    rgl_nir::validate::validate(&shader).map_err(|e| {
        format!(
            "validation failed:\n{e}\n{}",
            rgl_nir::print::print_shader(&shader)
        )
    })?;
    let text = rgl_nir::print::print_shader(&shader);
    let reread =
        rgl_nir::reader::parse_shader(&text).map_err(|e| format!("reader: {e}\n{text}"))?;
    let again = rgl_nir::print::print_shader(&reread);
    if again != text {
        return Err(format!("round trip differs:\n{}", diff(&text, &again)));
    }
    Ok(text)
}

fn diff(expected: &str, actual: &str) -> String {
    let mut out = String::new();
    let (e, a): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    for i in 0..e.len().max(a.len()) {
        let (x, y) = (e.get(i), a.get(i));
        if x != y {
            out.push_str(&format!(
                "line {}:\n- {}\n+ {}\n",
                i + 1,
                x.unwrap_or(&""),
                y.unwrap_or(&"")
            ));
            if out.len() > 4000 {
                break;
            }
        }
    }
    out
}

fn stage_of(path: &Path) -> Option<Stage> {
    match path.extension()?.to_str()? {
        "vert" => Some(Stage::Vertex),
        "geom" => Some(Stage::Geometry),
        "frag" => Some(Stage::Fragment),
        "comp" => Some(Stage::Compute),
        _ => None,
    }
}

#[test]
fn snapshots() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/to_nir");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/to_nir")
        .flatten()
        .map(|e| e.path())
        .filter(|p| stage_of(p).is_some())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no snapshot inputs");
    let mut failures = Vec::new();
    for path in &files {
        let Some(stage) = stage_of(path) else {
            continue;
        };
        let source = std::fs::read_to_string(path).expect("read");
        let shader = compile(&source, &CompileOptions::new(stage));
        let Some(program) = single_stage(&shader).filter(|_| shader.success()) else {
            failures.push(format!(
                "{}: does not compile:\n{}",
                path.display(),
                shader.info_log
            ));
            continue;
        };
        // `*.nolink.*` inputs convert without linker data: locations fall back to the
        // variables' own explicit or built-in ones.
        let mut program = program;
        if path.to_string_lossy().contains(".nolink.") {
            program.stages[0].vars.clear();
        }
        let actual = match convert(&program) {
            Ok(t) => t,
            Err(e) => {
                failures.push(format!("{}: {e}", path.display()));
                continue;
            }
        };
        let mut expected_path = path.clone().into_os_string();
        expected_path.push(".nir");
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != actual {
            if bless() {
                std::fs::write(&expected_path, &actual).expect("bless");
            } else {
                failures.push(format!("{}:\n{}", path.display(), diff(&expected, &actual)));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} snapshots failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

// ---------------------------------------------------------------- corpus sweep

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// The shader sections of a `.shader_test`, with `#version` from `[require]`.
fn shader_test_stages(text: &str) -> Vec<(Stage, String)> {
    let mut glsl_version = None;
    let mut sections: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        if line.starts_with('[') {
            if line.trim() == "[test]" {
                break;
            }
            sections.push((line.trim().to_owned(), String::new()));
            continue;
        }
        if let Some((name, body)) = sections.last_mut() {
            if name == "[require]" {
                let l = line.trim();
                if let Some(v) = l.strip_prefix("GLSL >= ") {
                    glsl_version = Some(v.trim().replace('.', ""));
                } else if let Some(v) = l.strip_prefix("GLSL ES >= ") {
                    // ES 1.00 is `#version 100`, without `es`.
                    let number = v.trim().replace('.', "");
                    let es = if number == "100" { "" } else { " es" };
                    glsl_version = Some(format!("{number}{es}"));
                }
            } else {
                body.push_str(line);
                body.push('\n');
            }
        }
    }
    let mut out = Vec::new();
    for (name, body) in sections {
        let stage = match name.as_str() {
            "[vertex shader]" => Stage::Vertex,
            "[geometry shader]" => Stage::Geometry,
            "[fragment shader]" => Stage::Fragment,
            "[compute shader]" => Stage::Compute,
            _ => continue,
        };
        let source = match (&glsl_version, body.contains("#version ")) {
            (Some(v), false) => format!("#version {v}\n{body}"),
            _ => body,
        };
        out.push((stage, source));
    }
    out
}

/// True when the module has a `main` and defines every user function it calls.
fn self_contained(m: &hir::Module) -> bool {
    let has_main = m.functions.iter().any(|(_, f)| {
        f.name == "main"
            && f.signatures
                .iter()
                .any(|s| s.is_defined && s.builtin.is_none())
    });
    let calls_undefined = m.stmts.iter().any(|(_, s)| match s {
        Stmt::Call {
            function,
            signature,
            ..
        } => m
            .functions
            .get(*function)
            .and_then(|f| f.signatures.get(*signature))
            .is_some_and(|s| s.builtin.is_none() && !s.is_defined),
        _ => false,
    });
    has_main && !calls_undefined
}

#[derive(Default)]
struct Sweep {
    converted: usize,
    /// Shaders the front end rejects although they should compile (`name
    /// (stage): first error line`).
    not_compiled: Vec<String>,
    /// glslparser tests whose `expect_result` is `fail` and that do not compile.
    expected_errors: usize,
    not_self_contained: usize,
    failures: Vec<String>,
    /// Known failures that converted.
    fixed: Vec<String>,
}

impl Sweep {
    /// Converts one shader; `expect_error`: a glslparser test that must not
    /// compile.
    fn run(
        &mut self,
        name: &str,
        stage: Stage,
        source: &str,
        known: &[String],
        expect_error: bool,
    ) {
        let shader = compile(source, &CompileOptions::new(stage));
        let Some(program) = single_stage(&shader).filter(|_| shader.success()) else {
            if expect_error {
                self.expected_errors += 1;
            } else {
                let log = shader.info_log.to_string();
                let first = log.lines().next().unwrap_or("(no IR)").to_string();
                self.not_compiled.push(format!("{name} ({stage}): {first}"));
            }
            return;
        };
        if !self_contained(&program.stages[0].hir) {
            self.not_self_contained += 1;
            return;
        }
        let id = format!("{name} ({stage})");
        let is_known = known.contains(&id);
        match std::panic::catch_unwind(|| convert(&program)) {
            Ok(Ok(_)) => {
                self.converted += 1;
                if is_known {
                    self.fixed.push(id);
                }
            }
            _ if is_known => {}
            Ok(Err(e)) => {
                let first: String = e.lines().take(3).collect::<Vec<_>>().join(" | ");
                self.failures.push(format!("{id}: {first}"));
            }
            Err(_) => self.failures.push(format!("{id}: PANIC")),
        }
    }
}

/// Whether a glslparser test's `[config]` block says `expect_result: fail`.
fn expects_compile_error(text: &str) -> bool {
    text.lines()
        .skip_while(|l| !l.contains("[config]"))
        .take_while(|l| !l.contains("[end config]"))
        .filter_map(|l| l.split_once("expect_result:"))
        .any(|(_, v)| v.trim() == "fail")
}

fn known_failures_list() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/to_nir/known_failures.txt")
}

#[test]
fn corpus_sweep() {
    let corpus = common::corpus_root();
    let found = ["shader-db", "piglit", "piglit-geometry"]
        .iter()
        .filter(|d| corpus.join(d).is_dir())
        .count();
    if !common::corpus_found("corpus_sweep", found, &corpus) {
        return;
    }
    let known = common::known_entries(&known_failures_list(), " -- ");
    let mut fixed = Vec::new();
    // Piglit is sampled (every 2nd file) to keep debug test time down; shader-db runs
    // in full. TO_NIR_PIGLIT_STRIDE=1 sweeps all of piglit.
    let stride: usize = std::env::var("TO_NIR_PIGLIT_STRIDE")
        .ok()
        .and_then(|s| s.parse().ok())
        .filter(|s| *s > 0)
        .unwrap_or(2);
    let mut report = String::new();
    let mut all_failures = Vec::new();
    for (label, dirs, sample) in [
        ("shader-db", vec!["shader-db"], 1),
        ("piglit", vec!["piglit/tests", "piglit-geometry"], stride),
        (
            "piglit-gl4 compute, storage blocks and atomic counters",
            vec![
                "piglit-gl4/tests/spec/arb_compute_shader",
                "piglit-gl4/tests/spec/arb_shader_storage_buffer_object",
                "piglit-gl4/tests/spec/arb_shader_atomic_counters",
                "piglit-gl4/tests/spec/arb_shader_atomic_counter_ops",
            ],
            1,
        ),
    ] {
        let mut files = Vec::new();
        for d in dirs {
            walk(&corpus.join(d), &mut files);
        }
        files.sort();
        let mut sweep = Sweep::default();
        for (i, path) in files.iter().enumerate() {
            let rel = path
                .strip_prefix(&corpus)
                .unwrap_or(path)
                .display()
                .to_string();
            let is_test = path.extension().is_some_and(|e| e == "shader_test");
            let stage = stage_of(path);
            if !is_test && stage.is_none() {
                continue;
            }
            if i % sample != 0 {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(path) else {
                continue;
            };
            if is_test {
                for (stage, source) in shader_test_stages(&text) {
                    sweep.run(&rel, stage, &source, &known, false);
                }
            } else if let Some(stage) = stage {
                sweep.run(&rel, stage, &text, &known, expects_compile_error(&text));
            }
        }
        report.push_str(&format!(
            "{label}: {} converted, {} failed, {} did not compile ({} more are glslparser \
             tests that must not), {} need linking\n",
            sweep.converted,
            sweep.failures.len(),
            sweep.not_compiled.len(),
            sweep.expected_errors,
            sweep.not_self_contained
        ));
        common::print_not_built(
            &format!("corpus_sweep ({label})"),
            "shaders did not compile (not converted)",
            &sweep.not_compiled,
        );
        all_failures.extend(sweep.failures);
        fixed.extend(sweep.fixed);
    }
    eprint!("{report}");
    common::assert_none_fixed(&known_failures_list(), &fixed);
    assert!(
        all_failures.is_empty(),
        "{} shaders failed to convert:\n{}",
        all_failures.len(),
        all_failures.join("\n")
    );
}

/// Hostile input: very deep expressions and statement nesting, huge arrays. Each case
/// must either convert to valid NIR or give a `ToNirError`; never panic or overflow
/// the stack. The expected outcome per case is written next to it.
#[test]
fn hostile_inputs() {
    let long_sum = format!(
        "#version 130\nuniform float a;\nout vec4 c;\nvoid main() {{ c = vec4({}); }}\n",
        vec!["a"; 250].join(" + ")
    );
    let deep_ifs = format!(
        "#version 130\nuniform float a;\nout vec4 c;\nvoid main() {{ c = vec4(0.0); {} c.x = 1.0; {} }}\n",
        "if (a > 0.0) {".repeat(200),
        "}".repeat(200)
    );
    let huge_array = "#version 130\nuniform int i;\nout vec4 c;\nvoid main() { float big[1000000]; big[i] = 1.0; float copy[1000000] = big; c = vec4(copy[i] == big[0] ? 1.0 : 0.0); }\n".to_string();
    let cases: [(&str, String, Option<&str>); 3] = [
        ("250-term sum", long_sum, None),
        ("200 nested ifs", deep_ifs, None),
        ("million-element arrays", huge_array, None),
    ];
    let mut failures = Vec::new();
    for (name, source, expected_error) in cases {
        let shader = compile(&source, &CompileOptions::new(Stage::Fragment));
        let Some(program) = single_stage(&shader).filter(|_| shader.success()) else {
            // The front end refusing the shader is acceptable too.
            eprintln!("{name}: rejected by the front end");
            continue;
        };
        let result = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || convert(&program))
            .expect("spawn")
            .join();
        match (result, expected_error) {
            (Err(_), _) => failures.push(format!("{name}: panicked")),
            (Ok(Ok(_)), None) => {}
            (Ok(Err(e)), Some(want)) if e.contains(want) => {}
            (Ok(r), _) => failures.push(format!(
                "{name}: unexpected result {:?}",
                r.map(|t| t.len())
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
