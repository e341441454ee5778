//! The fill-rate workloads of `rgl-conformance fill` (`conformance/benches/fill/`)
//! are benchmarks, but each must also run correctly on rgl's default driver: its
//! probes pass and its timed `draw rect` replays without an error. And the
//! `fullscreen` workload must be the `fullscreen` example's fragment shader,
//! character for character, so the benchmark measures what the example draws.
//! A compute workload (`conformance/benches/compute/`) times its last
//! `compute` instead and counts invocations.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rgl_conformance::fill::{measure, workloads, Draws};
use rgl_conformance::shader_test::isolate::Engine;

fn fill_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/fill")
}

/// The text between `start` and the next `end` after it.
fn between<'a>(text: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let rest = &text[text.find(start)? + start.len()..];
    Some(&rest[..rest.find(end)?])
}

#[test]
fn every_workload_runs_on_rgl() {
    let files = workloads(&[fill_dir()]);
    assert!(
        files.len() >= 5,
        "expected the fill workloads in {}, found {:?}",
        fill_dir().display(),
        files
    );
    let draws = Draws {
        min: 1,
        max: 1,
        budget: Duration::ZERO,
    };
    let mut failures = Vec::new();
    for file in &files {
        match measure(file, Engine::Rgl, draws, false) {
            Ok(m) => assert_eq!(m.draws, 1, "{}", file.display()),
            Err(e) => failures.push(format!("{}: {e}", file.display())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn fullscreen_workload_is_the_example_shader() {
    let example_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/src/fullscreen.rs");
    let example = std::fs::read_to_string(&example_path).expect("examples/src/fullscreen.rs");
    let example_fs = between(&example, "const FS: &str = r#\"", "\"#;")
        .expect("the example's `const FS` raw string");
    let workload =
        std::fs::read_to_string(fill_dir().join("fullscreen.shader_test")).expect("workload");
    let workload_fs = between(&workload, "[fragment shader]\n", "\n[test]")
        .expect("the workload's [fragment shader] section");
    assert_eq!(
        workload_fs.trim_end(),
        example_fs.trim_end(),
        "conformance/benches/fill/fullscreen.shader_test's fragment shader differs from \
         examples/src/fullscreen.rs's FS; copy the example's shader into the workload"
    );
}

#[test]
fn compute_workload_times_its_last_dispatch_and_counts_invocations() {
    // The 1M-element reduction of conformance/benches/compute at 4096
    // elements (16 groups of 256), so that it runs quickly here.
    let full = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/compute/reduce_1m.shader_test"),
    )
    .expect("the compute workload");
    let small = full
        .replace("ssbo 0 4194304", "ssbo 0 16384")
        .replace("compute 4096 1 1", "compute 16 1 1")
        .replace("== 4294443008", "== 25163776");
    assert_ne!(small, full);
    let dir = std::env::temp_dir().join(format!("rgl-fill-compute-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("reduce_4k.shader_test");
    std::fs::write(&file, small).expect("write the workload");
    let draws = Draws {
        min: 2,
        max: 2,
        budget: Duration::ZERO,
    };
    let m = measure(&file, Engine::Rgl, draws, false);
    let _ = std::fs::remove_dir_all(&dir);
    let m = m.expect("the compute workload runs");
    assert_eq!(m.draws, 2);
    assert_eq!(m.pixels, 16 * 256, "invocations = groups x local_size_x");
    assert!(m.samples.is_empty());
    assert!(m.median_s > 0.0);
}
