//! The standard optimisation loop on every shader of the `tests/ir` corpus and every
//! file-test input: it must reach a fixed point before the round bound (one more round
//! makes no progress), keep the IR valid after every pass (the runner validates), and
//! produce a shader that prints and parses back to the same text.

mod common;

use rgl_nir::passes::{opt_loop, Runner};

fn inputs() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for path in common::nir_files(&common::tests_dir().join("ir")) {
        let text = std::fs::read_to_string(&path).expect("read");
        out.push((path.display().to_string(), text));
    }
    for path in common::nir_files(&common::tests_dir().join("filetests")) {
        let text = std::fs::read_to_string(&path).expect("read");
        let input: String = text
            .lines()
            .skip(1)
            .take_while(|l| !l.starts_with("; expect:"))
            .map(|l| format!("{l}\n"))
            .collect();
        out.push((path.display().to_string(), input));
    }
    out
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
