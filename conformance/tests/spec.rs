//! rgl's own spec-completeness tests: the glslparser files and `.shader_test`
//! files under `tests/spec/`, written from the GLSL 1.10–1.50, GLSL ES
//! 1.00/3.00 and GL 3.3 specifications for the areas the piglit corpus covers
//! thinly (each file cites its section). They were checked against the host's
//! llvmpipe with `rgl-conformance shader-test tests/spec --peer host`; where
//! llvmpipe disagrees with the spec text, the file says so.
//!
//! Every file must pass, on the default driver and on the interpreter: the
//! runner is run as a program over the folder and its pass/fail/skip line must
//! show no failure and no skip.

use std::path::PathBuf;
use std::process::Command;

fn spec_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/spec")
}

/// Runs the runner with `args` over the spec folder; returns its output and
/// the numbers of its final `N passed, N warned, N failed, N skipped` line.
fn run(args: &[&str], driver: Option<&str>) -> (String, [usize; 4]) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_rgl-conformance"));
    cmd.args(args).arg(spec_dir());
    if let Some(d) = driver {
        cmd.env("RGL_DRIVER", d);
    }
    let out = cmd.output().expect("run rgl-conformance");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let summary = text
        .lines()
        .rev()
        .find(|l| l.contains(" passed, "))
        .unwrap_or_else(|| panic!("no summary line in:\n{text}"));
    let counts: Vec<usize> = summary
        .split(", ")
        .map(|part| {
            part.split_whitespace()
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("bad summary line {summary:?}"))
        })
        .collect();
    let counts: [usize; 4] = counts
        .try_into()
        .unwrap_or_else(|_| panic!("bad summary line {summary:?}"));
    (text, counts)
}

fn files_with(ext: &[&str]) -> usize {
    let mut n = 0;
    let mut work = vec![spec_dir()];
    while let Some(dir) = work.pop() {
        for entry in std::fs::read_dir(&dir).expect("read tests/spec").flatten() {
            let p = entry.path();
            if p.is_dir() {
                work.push(p);
            } else if p
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| ext.contains(&e))
            {
                n += 1;
            }
        }
    }
    n
}

#[test]
fn glslparser_spec_files_all_pass() {
    let files = files_with(&["vert", "geom", "frag", "comp"]);
    assert!(
        files >= 30,
        "expected the glslparser files under tests/spec, found {files}"
    );
    let (text, [pass, _warn, fail, skip]) = run(&["glslparser"], None);
    assert_eq!(
        (pass, fail, skip),
        (files, 0, 0),
        "glslparser over tests/spec:\n{text}"
    );
}

#[test]
fn shader_test_spec_files_all_pass_on_every_driver() {
    let files = files_with(&["shader_test"]);
    assert!(
        files >= 30,
        "expected the .shader_test files under tests/spec, found {files}"
    );
    for driver in [None, Some("interp")] {
        let (text, [pass, _warn, fail, skip]) = run(&["shader-test"], driver);
        assert_eq!(
            (pass, fail, skip),
            (files, 0, 0),
            "shader-test over tests/spec on {}:\n{text}",
            driver.unwrap_or("the default driver")
        );
    }
}
