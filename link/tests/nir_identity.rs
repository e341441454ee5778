//! The final NIR of every shader-db program stays exactly what it was.
//!
//! Every `.shader_test` of `../shared/corpus/shader-db` is read through the
//! conformance crate's reader (`rgl_conformance::shader_test::program`), compiled,
//! linked and taken through the whole link-time NIR pipeline
//! ([`rgl_link::pipeline::build_program`] with the software driver's options; every
//! other program through [`rgl_link::pipeline::build_program_owned`], which takes over
//! the shaders' IR instead of copying it and must give the same NIR). The
//! printed final NIR of every stage is hashed (FNV-1a, 64 bit, over the UTF-8 text)
//! and compared with `tests/nir_identity.expected`, one line per stage:
//! `<corpus path> <stage> <hash>`; a program that does not build has one line
//! `<corpus path> error <hash of the first line of its error>`, so a change in what
//! fails is caught too. The test exists so that work on the pipeline's speed can
//! show it changed nothing.
//!
//! `BLESS=1` rewrites the expectation file (review the diff: every changed line is a
//! changed shader). On a mismatch the new printed NIR of each differing stage is
//! written under `$CARGO_TARGET_TMPDIR/nir_identity/` and its path printed;
//! `RGL_NIR_IDENTITY_DUMP=1` writes every stage there, so a run on the old tree
//! gives the text to diff against. Under CI (`CI` set) a missing corpus fails.

mod common;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use rgl_conformance::shader_test::program;
use rgl_glsl::CompiledShader;
use rgl_link::pipeline::{build_program, build_program_owned, stage_name, PipelineOptions};
use rgl_link::Bindings;

/// FNV-1a, 64 bit: stable across platforms, toolchains and runs (unlike
/// `std::hash`'s default hasher).
fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn shader_tests(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            shader_tests(&p, out);
        } else if p.extension().is_some_and(|x| x == "shader_test") {
            out.push(p);
        }
    }
}

/// One expectation line: its key (`<path> <stage>` or `<path> error`) and the text
/// hashed for it (the printed NIR, or the error's first line).
struct Outcome {
    key: String,
    text: String,
    is_nir: bool,
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or("").to_string()
}

/// The outcomes of one program: one per stage, or one error.
fn build(rel: &str, path: &Path, owned: bool) -> Vec<Outcome> {
    let error = |text: String| {
        vec![Outcome {
            key: format!("{rel} error"),
            text,
            is_nir: false,
        }]
    };
    let sources = match program::load(path) {
        Ok(s) => s,
        Err(e) => return error(format!("not runnable: {}", first_line(&format!("{e:?}")))),
    };
    let shaders: Vec<CompiledShader> = program::compile_all(&sources);
    if let Some(bad) = shaders.iter().find(|s| !s.success()) {
        return error(format!(
            "compile: {}",
            first_line(&bad.info_log.to_string())
        ));
    }
    let built = catch_unwind(AssertUnwindSafe(|| {
        if owned {
            build_program_owned(shaders, &Bindings::default(), PipelineOptions::default())
        } else {
            let refs: Vec<&CompiledShader> = shaders.iter().collect();
            build_program(&refs, &Bindings::default(), PipelineOptions::default())
        }
    }));
    let program = match built {
        Err(_) => return error("pipeline panicked".to_string()),
        Ok(Err(log)) => return error(format!("link: {}", first_line(&log.to_string()))),
        Ok(Ok(p)) => p,
    };
    program
        .stages
        .iter()
        .map(|stage| match &stage.nir {
            Some(nir) => Outcome {
                key: format!("{rel} {}", stage_name(stage.stage)),
                text: rgl_nir::print::print_shader(nir),
                is_nir: true,
            },
            None => Outcome {
                key: format!("{rel} error"),
                text: format!("no NIR for the {} stage", stage_name(stage.stage)),
                is_nir: false,
            },
        })
        .collect()
}

fn dump_path(dir: &Path, key: &str) -> PathBuf {
    dir.join(format!("{}.nir", key.replace(['/', ' '], "__")))
}

#[test]
fn shader_db_final_nir_is_unchanged() {
    let root = common::corpus_root();
    let db = root.join("shader-db");
    let mut files = Vec::new();
    shader_tests(&db, &mut files);
    files.sort();
    if !common::corpus_found("nir_identity", files.len(), &db) {
        return;
    }
    let expected_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/nir_identity.expected");
    let dump_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("nir_identity");
    let dump_all = std::env::var_os("RGL_NIR_IDENTITY_DUMP").is_some();
    let bless = std::env::var_os("BLESS").is_some();

    let mut actual: BTreeMap<String, (u64, Outcome)> = BTreeMap::new();
    for (i, path) in files.iter().enumerate() {
        let rel = path
            .strip_prefix(&root)
            .unwrap_or(path)
            .to_string_lossy()
            .replace('\\', "/");
        for o in build(&rel, path, i % 2 == 1) {
            let hash = fnv1a64(o.text.as_bytes());
            actual.insert(o.key.clone(), (hash, o));
        }
    }
    if dump_all {
        std::fs::create_dir_all(&dump_dir).expect("create the dump directory");
        for (key, (_, o)) in &actual {
            std::fs::write(dump_path(&dump_dir, key), &o.text).expect("write a dump");
        }
        eprintln!(
            "nir_identity: every stage written under {}",
            dump_dir.display()
        );
    }

    let mut text = String::from(
        "# Final NIR of every shader-db program: `<corpus path> <stage> <FNV-1a 64 of the\n\
         # printed NIR>`, or `<corpus path> error <hash of the error's first line>`.\n\
         # Written by `BLESS=1 cargo test --release -p rgl-link --test nir_identity`.\n",
    );
    for (key, (hash, _)) in &actual {
        let _ = writeln!(text, "{key} {hash:016x}");
    }
    if bless {
        std::fs::write(&expected_path, &text).expect("write the expectation");
        eprintln!(
            "nir_identity: blessed {} lines into {}",
            actual.len(),
            expected_path.display()
        );
        return;
    }

    let old = std::fs::read_to_string(&expected_path).unwrap_or_else(|e| {
        panic!(
            "cannot read {} ({e}); BLESS=1 writes it",
            expected_path.display()
        )
    });
    let mut expected: BTreeMap<String, String> = BTreeMap::new();
    for line in old.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
        if let Some((key, hash)) = line.rsplit_once(' ') {
            expected.insert(key.to_string(), hash.to_string());
        }
    }
    let mut problems = Vec::new();
    for (key, (hash, o)) in &actual {
        let hash = format!("{hash:016x}");
        match expected.get(key) {
            Some(h) if *h == hash => {}
            found => {
                let what = if found.is_some() { "differs" } else { "is new" };
                let detail = if o.is_nir {
                    std::fs::create_dir_all(&dump_dir).expect("create the dump directory");
                    let p = dump_path(&dump_dir, key);
                    std::fs::write(&p, &o.text).expect("write a dump");
                    format!("new NIR in {}", p.display())
                } else {
                    o.text.clone()
                };
                problems.push(format!("{key} {what}: {detail}"));
            }
        }
    }
    for key in expected.keys().filter(|k| !actual.contains_key(*k)) {
        problems.push(format!("{key} is no longer produced"));
    }
    let stages = actual.values().filter(|(_, o)| o.is_nir).count();
    eprintln!(
        "nir_identity: {} files, {} stages, {} errors, {} mismatches",
        files.len(),
        stages,
        actual.len() - stages,
        problems.len()
    );
    assert!(
        problems.is_empty(),
        "{} of {} lines of {} differ (BLESS=1 to accept after review; \
         RGL_NIR_IDENTITY_DUMP=1 on the old tree gives the text to diff):\n{}",
        problems.len(),
        actual.len(),
        expected_path.display(),
        problems.join("\n")
    );
}
