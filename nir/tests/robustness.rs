//! Robustness: every corpus shader (tests/ir and the file-test inputs) is mutated line
//! by line (line deleted, line truncated at its middle, two lines swapped). The reader
//! must return `Ok` or a located `Err`, the validator must not panic on what parses,
//! and on every mutant that validates each registered pass must run (validating after
//! itself) and leave a shader that prints and re-parses identically, or refuse it
//! with a typed failure and leave it valid; all passes run as an optimisation loop
//! must reach a fixed point.

mod common;

use rgl_nir::passes::{build_pass, Pass, PassError, Runner, PASS_NAMES};

/// Arguments for the registered passes that take some (any valid values do).
const PASS_ARGS: &[(&str, &str)] = &[
    ("lower_alpha_test", "func=greater slot=0"),
    ("lower_point_size", "slot=0"),
    ("lower_clip_planes", "enables=0b101 slot=0"),
    ("lower_clip_disable", "enables=0b101"),
    ("lower_subgroups", "subgroup_size=4 ballot_components=1"),
];

/// Every registered pass, built with [`PASS_ARGS`].
fn all_passes() -> Vec<Box<dyn Pass>> {
    PASS_NAMES
        .iter()
        .map(|name| {
            let args = PASS_ARGS
                .iter()
                .find(|(n, _)| n == name)
                .map_or("", |(_, a)| *a);
            build_pass(name, args).unwrap_or_else(|e| panic!("{name}: {e}"))
        })
        .collect()
}

/// Runs `pass`; a refusal must leave the shader valid. Returns the progress.
fn run_checked(runner: &mut Runner, pass: &dyn Pass, s: &mut rgl_nir::ir::Shader, m: &str) -> bool {
    match runner.run(pass, s) {
        Ok(progress) => progress,
        Err(PassError::Failed { .. }) => {
            if let Err(e) = rgl_nir::validate::validate(s) {
                panic!(
                    "{} refused a valid mutant and broke it:\n{e}\ninput:\n{m}",
                    pass.name()
                );
            }
            false
        }
        Err(e) => panic!("{} broke a valid mutant:\n{e}\ninput:\n{m}", pass.name()),
    }
}

fn inputs() -> Vec<String> {
    common::corpus_inputs()
        .into_iter()
        .map(|(_, text)| text)
        .collect()
}

fn mutants(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let join = |v: &[&str]| v.iter().map(|l| format!("{l}\n")).collect::<String>();
    let mut out = Vec::new();
    for i in 0..lines.len() {
        let mut v = lines.clone();
        v.remove(i);
        out.push(join(&v));
        let mut v = lines.clone();
        let cut = v[i]
            .char_indices()
            .nth(v[i].chars().count() / 2)
            .map(|(p, _)| p)
            .unwrap_or(0);
        let truncated = &lines[i][..cut];
        v[i] = truncated;
        out.push(join(&v));
        if i + 1 < lines.len() {
            let mut v = lines.clone();
            v.swap(i, i + 1);
            out.push(join(&v));
        }
    }
    out
}

#[test]
fn mutated_inputs_never_panic() {
    let mut parsed = 0;
    let mut valid = 0;
    let mut total = 0;
    let passes = all_passes();
    for text in inputs() {
        for m in mutants(&text) {
            total += 1;
            let Ok(shader) = rgl_nir::reader::parse_shader(&m) else {
                continue;
            };
            parsed += 1;
            if rgl_nir::validate::validate(&shader).is_err() {
                continue;
            }
            valid += 1;
            let mut runner = Runner::new();
            for pass in &passes {
                let name = pass.name();
                let mut s = shader.clone();
                run_checked(&mut runner, pass.as_ref(), &mut s, &m);
                let printed = rgl_nir::print::print_shader(&s);
                let again = rgl_nir::reader::parse_shader(&printed)
                    .map(|s| rgl_nir::print::print_shader(&s));
                assert_eq!(
                    again.as_deref(),
                    Ok(printed.as_str()),
                    "{name} output does not round-trip"
                );
            }
            // The whole set as an optimisation loop must reach a fixed point.
            let mut s = shader.clone();
            let mut rounds = 0;
            while rounds < 50 {
                let mut progress = false;
                for pass in &passes {
                    progress |= run_checked(&mut runner, pass.as_ref(), &mut s, &m);
                }
                if !progress {
                    break;
                }
                rounds += 1;
            }
            assert!(rounds < 50, "no fixed point for:\n{m}");
        }
    }
    eprintln!("mutants: {total}, parsed: {parsed}, valid: {valid}");
    // The mutation set must exercise all three outcomes.
    assert!(
        total > parsed && parsed > valid && valid > 0,
        "total {total}, parsed {parsed}, valid {valid}"
    );
}
