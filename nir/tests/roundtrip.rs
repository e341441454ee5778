//! Round-trip tests: every `tests/ir/*.nir` file must parse, validate, and print back
//! byte-for-byte (`print(parse(text)) == text`). `BLESS=1` rewrites a file with its
//! printed form (review the diff!).

mod common;

#[test]
fn roundtrip_corpus() {
    let files = common::nir_files(&common::tests_dir().join("ir"));
    assert!(!files.is_empty(), "no .nir files in tests/ir");
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("read test file");
        let shader = match rgl_nir::reader::parse_shader(&text) {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("{}: parse error {e}", path.display()));
                continue;
            }
        };
        if let Err(e) = rgl_nir::validate::validate(&shader) {
            failures.push(format!("{}: invalid:\n{e}", path.display()));
            continue;
        }
        let printed = rgl_nir::print::print_shader(&shader);
        if printed != text {
            if common::bless() {
                std::fs::write(path, &printed).expect("bless");
            } else {
                failures.push(format!(
                    "{}: round trip differs:\n{}",
                    path.display(),
                    common::diff(&text, &printed)
                ));
            }
        }
        // Printing the re-parsed output must be stable too.
        let again =
            rgl_nir::reader::parse_shader(&printed).map(|s| rgl_nir::print::print_shader(&s));
        if again.as_deref() != Ok(printed.as_str()) {
            failures.push(format!("{}: second round trip differs", path.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} files failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

/// `tests/errors/*.nir`: the first line is `; error: <line>:<col>: <message>`, the rest
/// is malformed input the reader must reject with exactly that error.
#[test]
fn reader_errors() {
    check_errors("errors", |text| match rgl_nir::reader::parse_shader(text) {
        Ok(_) => "parsed successfully".to_string(),
        Err(e) => e.to_string(),
    });
}

/// `tests/invalid/*.nir`: well-formed text that the validator must reject; the leading
/// `; error:` lines are the expected validation errors.
#[test]
fn validator_errors() {
    check_errors("invalid", |text| {
        match rgl_nir::reader::parse_shader(text) {
            Ok(s) => match rgl_nir::validate::validate(&s) {
                Ok(()) => "valid".to_string(),
                Err(e) => e.to_string().trim_end().to_string(),
            },
            Err(e) => format!("parse error: {e}"),
        }
    });
}

fn check_errors(dir: &str, run: impl Fn(&str) -> String) {
    let files = common::nir_files(&common::tests_dir().join(dir));
    assert!(!files.is_empty(), "no files in tests/{dir}");
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("read test file");
        let header: Vec<&str> = text.lines().take_while(|l| l.starts_with(';')).collect();
        let body: String = text
            .lines()
            .skip(header.len())
            .map(|l| format!("{l}\n"))
            .collect();
        let expected: String = header
            .iter()
            .map(|l| {
                l.strip_prefix("; error: ")
                    .or_else(|| l.strip_prefix(";   "))
                    .unwrap_or(l)
            })
            .collect::<Vec<_>>()
            .join("\n");
        let actual = run(&body);
        if actual != expected {
            if common::bless() {
                let mut out = String::new();
                for (i, l) in actual.lines().enumerate() {
                    out.push_str(if i == 0 { "; error: " } else { ";   " });
                    out.push_str(l);
                    out.push('\n');
                }
                out.push_str(&body);
                std::fs::write(path, out).expect("bless");
            } else {
                failures.push(format!(
                    "{}:\n  expected: {expected}\n  actual:   {actual}",
                    path.display()
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} files failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}
