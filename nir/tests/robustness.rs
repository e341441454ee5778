//! Robustness: every corpus shader (tests/ir and the file-test inputs) is mutated line
//! by line (line deleted, line truncated at its middle, two lines swapped). The reader
//! must return `Ok` or a located `Err`, the validator must not panic on what parses,
//! and on every mutant that validates each registered pass must run (validating after
//! itself) and leave a shader that prints and re-parses identically; all passes run
//! as an optimisation loop must reach a fixed point.

mod common;

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
            for name in rgl_nir::passes::PASS_NAMES {
                let mut s = shader.clone();
                let pass = rgl_nir::passes::pass_by_name(name).expect("registered");
                if let Err(e) = rgl_nir::passes::run_pass(pass.as_ref(), &mut s) {
                    panic!("{name} broke a valid mutant:\n{e}\ninput:\n{m}");
                }
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
            match rgl_nir::passes::run_to_fixed_point(rgl_nir::passes::PASS_NAMES, &mut s, 50) {
                Ok(rounds) => assert!(rounds < 50, "no fixed point for:\n{m}"),
                Err(e) => panic!("optimisation loop broke a valid mutant:\n{e}\ninput:\n{m}"),
            }
        }
    }
    eprintln!("mutants: {total}, parsed: {parsed}, valid: {valid}");
    // The mutation set must exercise all three outcomes.
    assert!(
        total > parsed && parsed > valid && valid > 0,
        "total {total}, parsed {parsed}, valid {valid}"
    );
}
