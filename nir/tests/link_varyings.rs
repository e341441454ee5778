//! Link-pass file tests: `tests/link/<pass>/*.nir` hold a `test <pass>` header, a
//! `// producer` shader, a `// consumer` shader, and the expected pair after running
//! only that link pass, as `; ` comment lines after a `; expect:` marker (`; expect: no
//! progress` when the pass must change nothing). Both shaders are validated before and
//! after the pass. `BLESS=1` rewrites the expectations in place.

mod common;

#[test]
fn link_filetests() {
    common::run_expect_files("link", "link file tests", run_one);
}

fn parse(label: &str, text: &str) -> Result<rgl_nir::ir::Shader, String> {
    let shader = rgl_nir::reader::parse_shader(text).map_err(|e| format!("{label} input: {e}"))?;
    rgl_nir::validate::validate(&shader).map_err(|e| format!("{label} input invalid: {e}"))?;
    Ok(shader)
}

fn comment(out: &mut String, text: &str) {
    for l in text.lines() {
        if l.is_empty() {
            out.push_str(";\n");
        } else {
            out.push_str(&format!("; {l}\n"));
        }
    }
}

/// Returns (the file up to the expectations, the expectation text the pass produced).
fn run_one(text: &str) -> Result<(String, String), String> {
    let mut lines = text.lines();
    let header = lines.next().ok_or("empty file")?;
    let name = header
        .strip_prefix("test ")
        .ok_or("first line must be `test <link pass>`")?
        .trim();
    let pass = rgl_nir::link::link_pass_by_name(name).ok_or(format!("unknown link pass {name}"))?;
    let body: Vec<&str> = lines.take_while(|l| !l.starts_with("; expect:")).collect();
    let p_at = body
        .iter()
        .position(|l| l.trim() == "// producer")
        .ok_or("missing `// producer`")?;
    let c_at = body
        .iter()
        .position(|l| l.trim() == "// consumer")
        .ok_or("missing `// consumer`")?;
    if c_at < p_at {
        return Err("`// consumer` must follow `// producer`".into());
    }
    let join = |ls: &[&str]| ls.iter().map(|l| format!("{l}\n")).collect::<String>();
    let mut producer = parse("producer", &join(&body[p_at + 1..c_at]))?;
    let mut consumer = parse("consumer", &join(&body[c_at + 1..]))?;
    let progress = pass(&mut producer, &mut consumer);
    rgl_nir::validate::validate(&producer)
        .map_err(|e| format!("producer invalid after {name}: {e}"))?;
    rgl_nir::validate::validate(&consumer)
        .map_err(|e| format!("consumer invalid after {name}: {e}"))?;
    let mut out = String::new();
    if progress {
        out.push_str("; expect:\n; // producer\n");
        comment(&mut out, &rgl_nir::print::print_shader(&producer));
        out.push_str("; // consumer\n");
        comment(&mut out, &rgl_nir::print::print_shader(&consumer));
    } else {
        out.push_str("; expect: no progress\n");
    }
    Ok((format!("{header}\n{}", join(&body)), out))
}

/// Every valid shader of the test corpora (round-trip corpus, pass file-test inputs,
/// link file-test inputs).
fn corpus_shaders() -> Vec<rgl_nir::ir::Shader> {
    let dir = common::tests_dir();
    let mut texts = Vec::new();
    for path in common::nir_files(&dir.join("ir")) {
        texts.push(std::fs::read_to_string(path).expect("read"));
    }
    for path in common::nir_files(&dir.join("filetests")) {
        let text = std::fs::read_to_string(path).expect("read");
        let body: String = text
            .lines()
            .skip(1)
            .take_while(|l| !l.starts_with("; expect:"))
            .map(|l| format!("{l}\n"))
            .collect();
        texts.push(body);
    }
    for path in common::nir_files(&dir.join("link")) {
        let text = std::fs::read_to_string(path).expect("read");
        let mut cur = String::new();
        for l in text.lines().skip(1) {
            if l.starts_with("; expect:") {
                break;
            }
            if l.trim() == "// producer" || l.trim() == "// consumer" {
                texts.push(std::mem::take(&mut cur));
            } else {
                cur.push_str(l);
                cur.push('\n');
            }
        }
        texts.push(cur);
    }
    texts
        .iter()
        .filter_map(|t| rgl_nir::reader::parse_shader(t).ok())
        .filter(|s| rgl_nir::validate::validate(s).is_ok())
        .collect()
}

/// Every link pass over every ordered pair of corpus shaders (any stages) keeps both
/// shaders valid and printable/readable, and reaches a fixed point when repeated.
#[test]
fn link_passes_on_all_pairs_stay_valid() {
    let shaders = corpus_shaders();
    assert!(shaders.len() > 20, "corpus too small: {}", shaders.len());
    let mut runs = 0;
    let mut progressed = 0;
    for p in &shaders {
        for c in &shaders {
            for (name, pass) in rgl_nir::link::LINK_PASSES {
                let (mut a, mut b) = (p.clone(), c.clone());
                let mut rounds = 0;
                while pass(&mut a, &mut b) {
                    rounds += 1;
                    assert!(rounds < 10, "{name} does not reach a fixed point");
                }
                runs += 1;
                if rounds > 0 {
                    progressed += 1;
                }
                for (label, s) in [("producer", &a), ("consumer", &b)] {
                    if let Err(e) = rgl_nir::validate::validate(s) {
                        panic!(
                            "{name} left the {label} invalid: {e}\n{}",
                            rgl_nir::print::print_shader(s)
                        );
                    }
                    let printed = rgl_nir::print::print_shader(s);
                    let again = rgl_nir::reader::parse_shader(&printed)
                        .map(|s| rgl_nir::print::print_shader(&s));
                    assert_eq!(again.as_deref(), Ok(printed.as_str()), "{name} {label}");
                }
            }
        }
    }
    eprintln!("link pass runs: {runs}, with progress: {progressed}");
    assert!(progressed > 0);
}
