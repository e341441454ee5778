//! The standard optimisation loop on every shader of the `tests/ir` corpus and every
//! file-test input: it must reach a fixed point before the round bound (one more round
//! makes no progress), keep the IR valid after every pass (the runner validates), and
//! produce a shader that prints and parses back to the same text.

mod common;

use rgl_nir::passes::{opt_loop, Runner};

fn inputs() -> Vec<(String, String)> {
    common::corpus_inputs()
}

#[test]
fn opt_loop_reaches_a_fixed_point() {
    let mut failures = Vec::new();
    let mut count = 0;
    for (name, text) in inputs() {
        let Ok(mut shader) = rgl_nir::reader::parse_shader(&text) else {
            continue;
        };
        if rgl_nir::validate::validate(&shader).is_err() {
            continue;
        }
        count += 1;
        let mut runner = Runner::new();
        runner.validate = true;
        match opt_loop::optimize(&mut runner, &mut shader) {
            Ok(rounds) if rounds >= opt_loop::MAX_ROUNDS => {
                failures.push(format!("{name}: no fixed point after {rounds} rounds"))
            }
            Ok(_) => match opt_loop::run_round(&mut runner, &mut shader) {
                Ok(false) => {
                    let printed = rgl_nir::print::print_shader(&shader);
                    match rgl_nir::reader::parse_shader(&printed) {
                        Ok(again) if rgl_nir::print::print_shader(&again) == printed => {}
                        Ok(_) => failures.push(format!("{name}: output does not round-trip")),
                        Err(e) => failures.push(format!("{name}: output does not parse: {e}")),
                    }
                }
                Ok(true) => failures.push(format!(
                    "{name}: a round after the fixed point made progress"
                )),
                Err(e) => failures.push(format!("{name}: {e}")),
            },
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    assert!(count > 20, "only {count} shaders");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `opt_move` after the loop (where drivers run it) keeps the IR valid and is
/// idempotent: a second run makes no progress.
#[test]
fn opt_move_is_idempotent_after_the_loop() {
    let mut failures = Vec::new();
    for (name, text) in inputs() {
        let Ok(mut shader) = rgl_nir::reader::parse_shader(&text) else {
            continue;
        };
        if rgl_nir::validate::validate(&shader).is_err() {
            continue;
        }
        let mut runner = Runner::new();
        runner.validate = true;
        let result = opt_loop::optimize(&mut runner, &mut shader)
            .and_then(|_| runner.run_named("opt_move", &mut shader))
            .and_then(|_| runner.run_named("opt_move", &mut shader));
        match result {
            Ok(false) => {}
            Ok(true) => failures.push(format!("{name}: second opt_move made progress")),
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Snapshots of the whole loop: `tests/opt_loop/*.nir` hold an input shader and the
/// printed result of [`opt_loop::optimize`] as `; ` lines after `; expect:`
/// (`BLESS=1` rewrites them).
#[test]
fn opt_loop_snapshots() {
    let files = common::nir_files(&common::tests_dir().join("opt_loop"));
    assert!(!files.is_empty(), "no opt_loop snapshots");
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("read");
        let input: String = text
            .lines()
            .take_while(|l| !l.starts_with("; expect:"))
            .map(|l| format!("{l}\n"))
            .collect();
        let expected: String = text
            .lines()
            .skip_while(|l| !l.starts_with("; expect:"))
            .map(|l| format!("{l}\n"))
            .collect();
        let mut shader = match rgl_nir::reader::parse_shader(&input) {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("{}: {e}", path.display()));
                continue;
            }
        };
        let mut runner = Runner::new();
        runner.validate = true;
        let rounds = match opt_loop::optimize(&mut runner, &mut shader) {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("{}: {e}", path.display()));
                continue;
            }
        };
        let mut actual = format!("; expect: {rounds} rounds with progress\n");
        for l in rgl_nir::print::print_shader(&shader).lines() {
            if l.is_empty() {
                actual.push_str(";\n");
            } else {
                actual.push_str(&format!("; {l}\n"));
            }
        }
        if actual != expected {
            if common::bless() {
                std::fs::write(path, format!("{input}{actual}")).expect("bless");
            } else {
                failures.push(format!(
                    "{}:\n{}",
                    path.display(),
                    common::diff(&expected, &actual)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
