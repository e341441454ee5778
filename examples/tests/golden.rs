//! Golden-image tests: each example renders headless at 160×120 for a fixed
//! number of frames (fixed 1/60 s steps, so the output is deterministic) and the
//! last frame is compared with `examples/golden/<app>.png`. A channel may differ
//! by `TOLERANCE` levels; a small fraction of pixels (triangle edges) may differ
//! more. On failure the actual image and a difference image are written to
//! cargo's target tmp dir. `BLESS=1` rewrites the goldens (from the default
//! driver). Each app is checked on the default driver and on the interpreter
//! (`interp`), against the same golden.

use std::path::{Path, PathBuf};

use rgl_examples::app_by_name;
use rgl_examples::compare::{diff, diff_image};
use rgl_examples::headless::{read_png, render, render_on, write_png};

const WIDTH: u32 = 160;
const HEIGHT: u32 = 120;
/// Frames rendered; the last is drawn at t = (FRAMES - 1) / 60 s.
const FRAMES: u32 = 30;
/// Per-channel tolerance in 8-bit levels.
const TOLERANCE: u8 = 2;
/// Fraction of pixels allowed beyond `TOLERANCE` (0.5% of 160×120 = 96 pixels).
const MAX_OUTLIERS: f64 = 0.005;

fn golden_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("golden")
        .join(format!("{name}.png"))
}

fn check(name: &str) {
    check_on(name, None);
    if std::env::var_os("BLESS").is_none() {
        check_on(name, Some("interp"));
    }
}

/// Renders `name` on `driver` (the default driver for `None`) and compares the
/// last frame with the golden.
fn check_on(name: &str, driver: Option<&str>) {
    let mut app = app_by_name(name).expect("listed app exists");
    let rendered = match driver {
        Some(d) => render_on(d, app.as_mut(), WIDTH, HEIGHT, FRAMES),
        None => render(app.as_mut(), WIDTH, HEIGHT, FRAMES),
    };
    let golden = golden_path(name);
    // Messages and the failure images name the driver when one was asked for.
    let label = match driver {
        Some(d) => format!("{name}.{d}"),
        None => name.to_string(),
    };
    let name = label.as_str();
    let bless = std::env::var_os("BLESS").is_some_and(|v| v == "1");
    if !bless && !golden.exists() {
        let status = match &rendered {
            Ok(_) => "it renders".to_string(),
            Err(e) => format!("rendering currently fails: {e}"),
        };
        panic!(
            "{name}: golden missing: {}; run BLESS=1 cargo test --release -p rgl-examples \
             --test golden, look at the images, and commit them ({status})",
            golden.display()
        );
    }
    let actual = rendered
        .unwrap_or_else(|e| panic!("{name}: rendering failed: {e}"))
        .image;
    if bless {
        std::fs::create_dir_all(golden.parent().unwrap()).unwrap();
        write_png(&actual, &golden).unwrap();
        eprintln!("{name}: blessed {}", golden.display());
        return;
    }
    let expected = read_png(&golden).unwrap_or_else(|e| panic!("{name}: {e}"));
    let outcome = diff(&actual, &expected, TOLERANCE);
    if matches!(&outcome, Ok(d) if d.within(MAX_OUTLIERS)) {
        return;
    }
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("golden");
    std::fs::create_dir_all(&out_dir).unwrap();
    let actual_path = out_dir.join(format!("{name}.actual.png"));
    write_png(&actual, &actual_path).unwrap();
    let why = match outcome {
        Ok(d) => {
            let diff_path = out_dir.join(format!("{name}.diff.png"));
            write_png(&diff_image(&actual, &expected, TOLERANCE), &diff_path).unwrap();
            format!(
                "{} of {} pixels differ by more than {TOLERANCE} (allowed {:.0}), max difference {}; \
                 difference image {}",
                d.over,
                d.pixels,
                MAX_OUTLIERS * d.pixels as f64,
                d.max,
                diff_path.display()
            )
        }
        Err(e) => e,
    };
    panic!(
        "{name}: output differs from {}: {why}; actual image {} (BLESS=1 to accept)",
        golden.display(),
        actual_path.display()
    );
}

#[test]
fn triangle() {
    check("triangle");
}

#[test]
fn cube() {
    check("cube");
}

#[test]
fn gears() {
    check("gears");
}

#[test]
fn fullscreen() {
    check("fullscreen");
}
