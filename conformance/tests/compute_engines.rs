//! Differential test of the software driver's two compute engines: every
//! `.shader_test` with a `[compute shader]` section under
//! `../shared/corpus/piglit-gl4/tests/spec`, under this crate's `tests/spec`
//! and `benches/compute` (less the 1M-element benchmark, which takes minutes
//! on the reference engine) runs its whole `[test]` script twice on rgl's
//! runner: once with compute dispatches on the lane programs (the default),
//! once on the reference interpreter `rgl_nir::eval`
//! (`SoftDriver::set_compute_engine`). Every probe the scripts make (storage
//! buffers, atomic counters, framebuffers written by draws after a dispatch)
//! checks both engines' results against the file's expectations, so the
//! verdicts and their messages must be identical, and neither may panic.
//!
//! The test prints how many files it ran and their verdicts, and fails when
//! the corpus is missing instead of passing vacuously.

use std::path::{Path, PathBuf};

use rgl_backend::compute::ComputeEngine;
use rgl_conformance::result::Status;
use rgl_conformance::shader_test::{self, exec::Executor, rgl_context::RglContext};
use rgl_conformance::walk::walk;

fn run(path: &Path, text: &str, engine: ComputeEngine) -> (Status, Vec<String>) {
    let parsed = shader_test::parse(text);
    let mut driver = rgl_backend::SoftDriver::new(2);
    driver.set_compute_engine(engine);
    let mut context = RglContext::with_driver(Box::new(driver));
    let outcome = Executor::new(&mut context).run(&parsed.test, path);
    (outcome.status, outcome.messages)
}

#[test]
fn lane_and_reference_compute_engines_agree() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let corpus = manifest.join("../../shared/corpus/piglit-gl4/tests/spec");
    assert!(
        corpus.is_dir(),
        "the GL 4.x corpus is missing at {}",
        corpus.display()
    );
    let roots = [
        corpus,
        manifest.join("tests/spec"),
        manifest.join("benches/compute"),
    ];
    let files: Vec<PathBuf> = walk(&roots, shader_test::is_candidate)
        .expect("walk the shader_test roots")
        .into_iter()
        .map(|f| f.path)
        .collect();
    let mut counts = std::collections::BTreeMap::<String, usize>::new();
    let mut mismatches = Vec::new();
    let mut compared = 0usize;
    for path in &files {
        if path.ends_with("reduce_1m.shader_test") {
            continue;
        }
        let Ok((text, _)) = shader_test::read(path) else {
            continue;
        };
        if !text.contains("[compute shader]") {
            continue;
        }
        compared += 1;
        let lanes = std::panic::catch_unwind(|| run(path, &text, ComputeEngine::Lanes));
        let reference = std::panic::catch_unwind(|| run(path, &text, ComputeEngine::Reference));
        match (lanes, reference) {
            // The reference interpreter has no bound texels: a dispatch that
            // uses images or samples textures is refused there with these
            // messages, and only the lanes engine runs it
            // (backend/src/compute). Such files are counted apart, never
            // compared.
            (Ok(_), Ok(r))
                if r.1.iter().any(|m| {
                    m.contains("images in compute shaders on the reference interpreter")
                }) =>
            {
                *counts.entry("images (lanes only)".to_string()).or_default() += 1;
            }
            (Ok(_), Ok(r))
                if r.1.iter().any(|m| {
                    m.contains("textures in compute shaders on the reference interpreter")
                }) =>
            {
                *counts
                    .entry("textures (lanes only)".to_string())
                    .or_default() += 1;
            }
            (Ok(l), Ok(r)) => {
                *counts.entry(format!("{:?}", l.0)).or_default() += 1;
                if l != r {
                    mismatches.push(format!(
                        "{}: lanes {:?} {:?} | reference {:?} {:?}",
                        path.display(),
                        l.0,
                        l.1,
                        r.0,
                        r.1
                    ));
                }
            }
            _ => mismatches.push(format!("{}: panicked", path.display())),
        }
    }
    println!("compute engines: {compared} files with a compute shader, verdicts {counts:?}");
    assert!(compared >= 20, "only {compared} compute files found");
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}
